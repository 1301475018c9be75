// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 fault injection: a test knob.
 *
 * Named sites, each placed at one of rpcrdma2's own calls, so an
 * injection never reaches another module.  Four fail allocations (and
 * posting), as failslab and fail_page_alloc filtered to rpcrdma2 would:
 *
 *   connect      the endpoint: PD, CQ and QP, its Send and Receive
 *                buffers (shared/ep.c), made on connect and on accept
 *   recv-refill  Receive buffers made as the client's grant grows and
 *                every Receive post (shared/ep.c); the server's
 *                reassembly of continued Calls (server/recvfrom.c)
 *   reg          chunk registration: the client's MRs and their DMA
 *                mappings (client/frwr.c, mr.c), the server's R/W
 *                contexts (server/rw.c)
 *   reply        the server's Write list of a Reply and the batches of
 *                its RDMA Writes (server/rw.c), the client's pages for
 *                a sparse Reply buffer (client/send.c)
 *
 * Three make a device or a peer misbehave:
 *
 *   svc-send     the server's post of a Send fails, as on a QP in
 *                error: an RPC message's (shared/link.c, the send
 *                pump) or a control message's (shared/xfer.c)
 *   send-stall   the client's next Send of an inline or continued
 *                message finds no room, as when the peer withholds
 *                credits and acknowledgments: the task tries again
 *                every quarter second (client/send.c)
 *   port-down    the server reads its port as down, so a closing
 *                connection parks its cm_id instead of sending a DREQ
 *                (server/park.c)
 *
 * A site is inert until armed: the check is a static branch, a nop in
 * the code until a site is first armed, then a call here, as
 * should_fail() is for the kernel's fault_attr.  The knobs are
 * fault_attr's, with its meaning: an armed site fails a call when the
 * call's number is a multiple of "interval" (1: any call), then with
 * "probability" percent, while "times" (-1: no limit) lasts; "skip"
 * lets the first calls after arming pass (send-stall: the Sends that go
 * before the stall); each failure counts in "injected".  They are set
 * from debugfs, /sys/kernel/debug/rpcrdma2/fail/<site>/{times,interval,
 * probability,skip}, "injected" read-only, or from KUnit with
 * rpcrdma2_fail_set() and rpcrdma2_fail_after().  A site is armed
 * while probability and times are both non-zero; once "times" runs out
 * the static branch stays on (it cannot be switched in the atomic
 * contexts a site may be in) until the site is set again.
 *
 * Why not fault_attr itself: neither Debian's 6.12 kernel (the QEMU
 * guests) nor the KUnit kernels have CONFIG_FAULT_INJECTION, and
 * enabling it there rebuilds nearly all of the debug KUnit kernel
 * (Documentation/testing.rst).
 *
 * Called by: the sites (shared, client, server), the module core
 * (debugfs, exit), KUnit.
 */

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/random.h>

#include "shared/fault.h"

DEFINE_STATIC_KEY_FALSE(rpcrdma2_fail_armed);

struct rpcrdma2_fail {
	atomic_t	times;		/* failures left; -1: no limit */
	u32		interval;	/* fail every interval'th call */
	u32		probability;	/* percent */
	u32		skip;		/* calls that pass first */
	atomic_t	calls;		/* calls while armed */
	atomic64_t	injected;	/* failures made */
	bool		armed;		/* holds a count of the static key */
};

static const char *const rpcrdma2_fail_names[RPCRDMA2_FAIL_NR] = {
	[RPCRDMA2_FAIL_CONNECT]		= "connect",
	[RPCRDMA2_FAIL_RECV_REFILL]	= "recv-refill",
	[RPCRDMA2_FAIL_REG]		= "reg",
	[RPCRDMA2_FAIL_REPLY]		= "reply",
	[RPCRDMA2_FAIL_SVC_SEND]	= "svc-send",
	[RPCRDMA2_FAIL_SEND_STALL]	= "send-stall",
	[RPCRDMA2_FAIL_PORT_DOWN]	= "port-down",
};

static struct rpcrdma2_fail rpcrdma2_fails[RPCRDMA2_FAIL_NR] = {
	[0 ... RPCRDMA2_FAIL_NR - 1] = {
		.times		= ATOMIC_INIT(1),
		.interval	= 1,
	},
};

/* Serializes the knobs' writers and the static key's count. */
static DEFINE_MUTEX(rpcrdma2_fail_mutex);

/**
 * __rpcrdma2_fail - the slow path of rpcrdma2_fail()
 * @site: the site
 *
 * Returns true when this call is to fail.  Any context.
 */
bool __rpcrdma2_fail(enum rpcrdma2_fail_site site)
{
	struct rpcrdma2_fail *f = &rpcrdma2_fails[site];
	/* pairs with rpcrdma2_fail_arm(): the knobs set with it */
	u32 prob = smp_load_acquire(&f->probability);
	u32 interval = READ_ONCE(f->interval);
	u32 skip = READ_ONCE(f->skip);
	u32 n;
	int t;

	if (!prob)
		return false;
	if (interval > 1 || skip) {
		n = atomic_inc_return(&f->calls);
		if (n <= skip || (n - skip) % interval)
			return false;
	}
	if (prob < 100 && get_random_u32_below(100) >= prob)
		return false;
	t = atomic_read(&f->times);
	do {
		if (!t)
			return false;
	} while (t > 0 && !atomic_try_cmpxchg(&f->times, &t, t - 1));
	atomic64_inc(&f->injected);
	return true;
}

/* Take or drop the site's count of the static key; under the mutex. */
static void rpcrdma2_fail_update(struct rpcrdma2_fail *f)
{
	bool armed = f->probability && atomic_read(&f->times);

	if (armed && !f->armed)
		static_branch_inc(&rpcrdma2_fail_armed);
	else if (!armed && f->armed)
		static_branch_dec(&rpcrdma2_fail_armed);
	f->armed = armed;
}

/* Set a site's knobs and start its call count again; process context. */
static void rpcrdma2_fail_arm(enum rpcrdma2_fail_site site, int times,
			      u32 interval, u32 probability, u32 skip)
{
	struct rpcrdma2_fail *f = &rpcrdma2_fails[site];

	mutex_lock(&rpcrdma2_fail_mutex);
	/* off while the knobs change; a call that sees it on sees them */
	WRITE_ONCE(f->probability, 0);
	WRITE_ONCE(f->interval, max(interval, 1U));
	WRITE_ONCE(f->skip, skip);
	atomic_set(&f->calls, 0);
	atomic_set(&f->times, max(times, -1));
	/* pairs with __rpcrdma2_fail(): on, with the knobs above */
	smp_store_release(&f->probability, min(probability, 100U));
	rpcrdma2_fail_update(f);
	mutex_unlock(&rpcrdma2_fail_mutex);
}

/**
 * rpcrdma2_fail_set - arm or disarm a site
 * @site: the site
 * @times: failures to make, -1 for no limit; 0 disarms
 * @interval: fail only every @interval'th call (0 or 1: any)
 * @probability: percent of those calls, 0 (disarmed) to 100
 *
 * Process context.  The call counter starts again; no call is skipped.
 */
void rpcrdma2_fail_set(enum rpcrdma2_fail_site site, int times, u32 interval,
		       u32 probability)
{
	rpcrdma2_fail_arm(site, times, interval, probability, 0);
}

/**
 * rpcrdma2_fail_after - every call at a site after the first @skip fails
 * @site: the site
 * @skip: calls that pass first
 *
 * No limit, until the site is set again.  Process context.
 */
void rpcrdma2_fail_after(enum rpcrdma2_fail_site site, u32 skip)
{
	rpcrdma2_fail_arm(site, -1, 1, 100, skip);
}

/* Disarm every site and restore the defaults. */
void rpcrdma2_fail_reset(void)
{
	u32 i;

	for (i = 0; i < RPCRDMA2_FAIL_NR; i++)
		rpcrdma2_fail_set(i, 1, 1, 0);
}

/**
 * rpcrdma2_fail_injected - failures made at a site since the module loaded
 * @site: the site
 */
u64 rpcrdma2_fail_injected(enum rpcrdma2_fail_site site)
{
	return atomic64_read(&rpcrdma2_fails[site].injected);
}

const char *rpcrdma2_fail_name(enum rpcrdma2_fail_site site)
{
	return rpcrdma2_fail_names[site];
}

/* ---- debugfs ---- */

enum rpcrdma2_fail_knob { RR2F_TIMES, RR2F_INTERVAL, RR2F_PROB, RR2F_SKIP };

static const char *const rpcrdma2_fail_knob_names[] = {
	[RR2F_TIMES]	= "times",
	[RR2F_INTERVAL]	= "interval",
	[RR2F_PROB]	= "probability",
	[RR2F_SKIP]	= "skip",
};

/* debugfs file data: the site in the high bits, the knob in the low */
#define RR2F_DATA(site, knob)	((void *)(uintptr_t)((site) << 2 | (knob)))

static int rpcrdma2_fail_get(void *data, u64 *val)
{
	uintptr_t d = (uintptr_t)data;
	struct rpcrdma2_fail *f = &rpcrdma2_fails[d >> 2];

	switch (d & 3) {
	case RR2F_TIMES:
		*val = (u64)(s64)atomic_read(&f->times);
		break;
	case RR2F_INTERVAL:
		*val = READ_ONCE(f->interval);
		break;
	case RR2F_SKIP:
		*val = READ_ONCE(f->skip);
		break;
	default:
		*val = READ_ONCE(f->probability);
		break;
	}
	return 0;
}

static int rpcrdma2_fail_put(void *data, u64 val)
{
	uintptr_t d = (uintptr_t)data;
	struct rpcrdma2_fail *f = &rpcrdma2_fails[d >> 2];
	s64 sval = (s64)val;
	int times = atomic_read(&f->times);
	u32 interval = READ_ONCE(f->interval);
	u32 prob = READ_ONCE(f->probability);
	u32 skip = READ_ONCE(f->skip);

	switch (d & 3) {
	case RR2F_TIMES:
		if (sval < -1 || sval > INT_MAX)
			return -EINVAL;
		times = sval;
		break;
	case RR2F_INTERVAL:
		if (!val || val > U32_MAX)
			return -EINVAL;
		interval = val;
		break;
	case RR2F_SKIP:
		if (val > U32_MAX)
			return -EINVAL;
		skip = val;
		break;
	default:
		if (val > 100)
			return -EINVAL;
		prob = val;
		break;
	}
	rpcrdma2_fail_arm(d >> 2, times, interval, prob, skip);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE_SIGNED(rpcrdma2_fail_fops, rpcrdma2_fail_get,
				rpcrdma2_fail_put, "%lld\n");

static int rpcrdma2_fail_injected_get(void *data, u64 *val)
{
	*val = rpcrdma2_fail_injected((uintptr_t)data);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(rpcrdma2_fail_injected_fops,
			 rpcrdma2_fail_injected_get, NULL, "%llu\n");

/**
 * rpcrdma2_fail_debugfs_init - make the "fail" directory
 * @root: the module's debugfs directory, removed with it
 */
void rpcrdma2_fail_debugfs_init(struct dentry *root)
{
	struct dentry *top = debugfs_create_dir("fail", root);
	uintptr_t i, k;

	/* RR2F_DATA() keeps the knob in two bits */
	BUILD_BUG_ON(ARRAY_SIZE(rpcrdma2_fail_knob_names) > 4);
	for (i = 0; i < RPCRDMA2_FAIL_NR; i++) {
		struct dentry *dir;

		dir = debugfs_create_dir(rpcrdma2_fail_names[i], top);
		for (k = 0; k < ARRAY_SIZE(rpcrdma2_fail_knob_names); k++)
			debugfs_create_file_unsafe(rpcrdma2_fail_knob_names[k],
						   0600, dir, RR2F_DATA(i, k),
						   &rpcrdma2_fail_fops);
		debugfs_create_file_unsafe("injected", 0400, dir,
					   (void *)i,
					   &rpcrdma2_fail_injected_fops);
	}
}

/* Module exit: every site disarmed, the static key back to a nop. */
void rpcrdma2_fail_exit(void)
{
	rpcrdma2_fail_reset();
}
