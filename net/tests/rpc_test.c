// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rpcrdma2_rpc": the transport under real RPC, both halves
 * in one kernel, on the fixture of tests/fixture.c (the test program
 * RR2R_PROG on an svc_serv with an rpcrdma2 listener per soft-RDMA
 * device, called through an rpc_clnt on rpcrdma2).
 *
 * Cases run once per provider (rxe, siw):
 *   - sizes from 0 to 1 MiB each way, Version 2, continuation beyond the
 *     4096-octet threshold (V2-CONT-01, V2-CONT-02, V2-CONT-03, V2-INLINE-02);
 *   - the version matrix by per-role cap: v2/v2, v1 client/v2 server,
 *     v2 client/v1 server (fallback on ERR_VERS, V2-FRAME-18, V2-FRAME-23);
 *   - Version 1 beyond the inline thresholds: chunks (a Position-Zero
 *     Read chunk for PUT, a Write chunk for GET), which need the server
 *     half's chunk support;
 *   - a dropped connection is re-established under the same client, and
 *     after a fallback without negotiating again (V2-FRAME-19);
 *   - credit exhaustion: a client that has every credit in use gets the
 *     asynchronous grant (V2-CRED-05, V2-CRED-07, V2-CRED-08) and all Calls
 *     complete;
 *   - transport fixes, through the RPC client: sparse Reply pages,
 *     abandoned sequences, the send-stall site, the autoclose lock, swap,
 *     the MR pool.
 */

#include <kunit/test.h>
#include <linux/kthread.h>
#include <linux/sunrpc/addr.h>
#include <linux/sunrpc/bc_xprt.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/metrics.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/svcsock.h>
#include <linux/sunrpc/xprtrdma.h>
#include <linux/prandom.h>
#include <linux/sysctl.h>
#include <linux/unaligned.h>

#include "rpcrdma2.h"
#include "client/client.h"
#include "server/server.h"
#include "shared/codec.h"
#include "shared/fault.h"
#include "shared/nego.h"
#include "tests/env.h"
#include "tests/hooks.h"
#include "tests/fixture.h"

KUNIT_ARRAY_PARAM(rr2r_link, rr2r_links, rr2r_link_desc);
KUNIT_ARRAY_PARAM(rr2r_clamped, rr2r_clamped, rr2r_link_desc);

#define RR2R_HOLDERS	40

static const u32 rr2r_sizes[] = {
	0, 1, 3, 100, 1000, 3900, 4000, 4096, 4097, 8192, 12345, 65536,
	300001, 524288, RR2R_MAX,
};

/*
 * Per-operation statistics (mountstats, nfsiostat) come from what the
 * transport records at transmission: the octets sent, and the send
 * time from which the round trip is measured, which cannot exceed the
 * whole execution time.
 */
static void rr2r_check_iostats(struct kunit *test, struct rpc_clnt *clnt)
{
	const struct rpc_iostats *put = &clnt->cl_metrics[RR2R_PUT];
	u64 sent = 0;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(rr2r_sizes); i++)
		sent += rr2r_sizes[i];
	KUNIT_EXPECT_EQ(test, put->om_ops, ARRAY_SIZE(rr2r_sizes));
	KUNIT_EXPECT_GT(test, put->om_bytes_sent, sent);
	KUNIT_EXPECT_LE(test, ktime_to_ns(put->om_rtt),
			ktime_to_ns(put->om_execute));
}

/*
 * The versions each role offers; the connection settles @vers, and a
 * PUT and a GET of each of @sizes round-trip, every byte checked.
 */
static struct rpc_clnt *rr2r_each_size(struct kunit *test, u32 clnt_vers,
				       u32 svc_vers, u32 vers,
				       const u32 *sizes, u32 nr)
{
	struct rpc_clnt *clnt;
	struct page **pages;
	u32 i;

	clnt = rr2r_start(test, clnt_vers, svc_vers, NULL);
	pages = rr2r_pages(test);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_version(rr2r_xprt(clnt)),
			vers);
	for (i = 0; i < nr; i++)
		rr2r_roundtrip(test, clnt, pages, sizes[i]);
	return clnt;
}

/*
 * V2-CONT-01, V2-CONT-02, V2-CONT-03, V2-INLINE-02, V2-INLINE-08, V2-FRAME-14:
 * 0 to 1 MiB over v2.
 */
static void rr2r_v2_sizes_0_to_1m(struct kunit *test)
{
	/*
	 * asserts V2-CONT-02: continued messages arrive whole, every byte
	 * checked
	 */
	struct rpc_clnt *clnt;

	clnt = rr2r_each_size(test, RPCRDMA2_VERS_2, RPCRDMA2_VERS_2,
			      RPCRDMA2_VERS_2, rr2r_sizes,
			      ARRAY_SIZE(rr2r_sizes));
	rr2r_check_iostats(test, clnt);
	rr2r_expect_pool_full(test, rr2r_xprt(clnt));
}

/*
 * Drop the connection under a mounted client: the next Call reconnects
 * and succeeds.  After a fallback the reconnect opens in Version 1 at
 * once, with no second CONNPROP (V2-FRAME-19).
 */
static void rr2r_reconnect(struct kunit *test, u32 svc_vers)
{
	struct rpc_xprt *xprt;
	struct rpc_clnt *clnt;
	struct page **pages;
	u64 hellos;
	u32 vers;

	clnt = rr2r_start(test, RPCRDMA2_VERS_2, svc_vers, NULL);
	pages = rr2r_pages(test);
	xprt = rr2r_xprt(clnt);
	rr2r_roundtrip(test, clnt, pages, 1000);
	vers = rpcrdma2_clnt_test_version(xprt);
	hellos = rpcrdma2_clnt_test_hellos(xprt);
	KUNIT_EXPECT_EQ(test, xprt->stat.connect_count, 1);

	xprt_force_disconnect(xprt);
	rr2r_roundtrip(test, clnt, pages, 1000);
	KUNIT_EXPECT_EQ(test, xprt->stat.connect_count, 2);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_version(xprt), vers);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_hellos(xprt),
			vers == RPCRDMA2_VERS_2 ? hellos + 1 : hellos);
}

static void rr2r_reconnect_v2(struct kunit *test)
{
	rr2r_reconnect(test, RPCRDMA2_VERS_2);
}

static void rr2r_reconnect_after_fallback_stays_v1(struct kunit *test)
{
	rr2r_reconnect(test, RPCRDMA2_VERS_1);
}

/*
 * Version 1 both ways when only one side offers it: inline sizes, then
 * beyond the thresholds by chunks (V2-SPEC-02, V2-CHUNK-22).
 */
static void rr2r_version_matrix(struct kunit *test, u32 clnt_vers,
				u32 svc_vers)
{
	static const u32 sizes[] = { 0, 1, 100, 1000, 2000, 65536 + 3 };
	struct rpc_clnt *clnt;

	clnt = rr2r_each_size(test, clnt_vers, svc_vers, RPCRDMA2_VERS_1,
			      sizes, ARRAY_SIZE(sizes));
	rr2r_expect_pool_full(test, rr2r_xprt(clnt));
}

/* V2-FRAME-20: a v1-capped client's first message settles Version 1. */
static void rr2r_v1_client_v2_server(struct kunit *test)
{
	rr2r_version_matrix(test, RPCRDMA2_VERS_1, RPCRDMA2_VERS_2);
}

/*
 * V2-FRAME-18, V2-FRAME-23: ERR_VERS from a v1 server, then Version 1.
 */
static void rr2r_v2_client_v1_server_falls_back(struct kunit *test)
{
	rr2r_version_matrix(test, RPCRDMA2_VERS_2, RPCRDMA2_VERS_1);
}

struct rr2r_async {
	atomic_t		done;
	atomic_t		failed;
	struct completion	all;
};

static void rr2r_async_done(struct rpc_task *task, void *data)
{
	struct rr2r_async *a = data;

	if (task->tk_status)
		atomic_inc(&a->failed);
}

static void rr2r_async_release(void *data)
{
	struct rr2r_async *a = data;

	if (atomic_inc_return(&a->done) == RR2R_HOLDERS)
		complete(&a->all);
}

static const struct rpc_call_ops rr2r_async_ops = {
	.rpc_call_done	= rr2r_async_done,
	.rpc_release	= rr2r_async_release,
};

/*
 * V2-CRED-04, V2-CRED-05, V2-CRED-07, V2-CRED-08: the server grants 32 at
 * first; with 40 HOLD Calls
 * queued the client has all 32 in use, the server raises the grant to 64
 * with a credit-grant-only message, the client sends the other 8, and
 * every Call completes once released.
 */
static void rr2r_credit_exhaustion_async_grant(struct kunit *test)
{
	/*
	 * asserts V2-CRED-07: the grant-only message is taken with every credit
	 * in use
	 */
	struct rpc_message msg = {
		.rpc_proc = &rr2r_clnt_procs[RR2R_HOLD],
	};
	struct rr2r_async *a;
	struct rpc_clnt *clnt;
	int i;

	clnt = rr2r_start(test, RPCRDMA2_VERS_2, RPCRDMA2_VERS_2, NULL);
	a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	init_completion(&a->all);
	reinit_completion(&rr2r_svc.release);
	atomic_set(&rr2r_svc.held, 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_grant(rr2r_xprt(clnt)), 32);

	for (i = 0; i < RR2R_HOLDERS; i++) {
		KUNIT_ASSERT_EQ(test, 0, rpc_call_async(clnt, &msg,
							RPC_TASK_SOFT,
							&rr2r_async_ops, a));
	}
	for (i = 0; i < 200 &&
	     rpcrdma2_clnt_test_grant(rr2r_xprt(clnt)) != 64; i++)
		msleep(100);
	KUNIT_EXPECT_EQ_MSG(test, rpcrdma2_clnt_test_grant(rr2r_xprt(clnt)),
			    64, "no asynchronous grant arrived");
	complete_all(&rr2r_svc.release);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&a->all,
							    120 * HZ));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->failed), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rr2r_svc.held), RR2R_HOLDERS);
}

static void rr2r_sparse_reply_pages_v2(struct kunit *test)
{
	rr2r_sparse(test, RPCRDMA2_VERS_2, 3 * PAGE_SIZE + 100);
}

static void rr2r_sparse_reply_pages_v1(struct kunit *test)
{
	rr2r_sparse(test, RPCRDMA2_VERS_1, 700);
}

struct rr2r_one {
	struct completion	done;
	int			status;
};

static void rr2r_one_done(struct rpc_task *task, void *data)
{
	struct rr2r_one *o = data;

	o->status = task->tk_status;
}

static void rr2r_one_release(void *data)
{
	struct rr2r_one *o = data;

	complete(&o->done);
}

static const struct rpc_call_ops rr2r_one_ops = {
	.rpc_call_done	= rr2r_one_done,
	.rpc_release	= rr2r_one_release,
};

/* The send-stall site disarmed whatever the case ended with. */
static void rr2r_stall_off(void *xprt)
{
	rpcrdma2_clnt_test_stall(xprt, 0);
}

/*
 * V2-CONT-06: a Call abandoned after some of its Sends went out (here:
 * killed while it waits for room before Send @stall_before) leaves the
 * server holding an open sequence.  The transport drops the connection
 * rather than cut the next Call into that sequence, and the next Call
 * goes through whole.  Abandoned before its first Send, it owes the
 * window nothing: the next Call, long enough to need acknowledgments,
 * is not held back by ones that will never come.
 */
static void rr2r_abandon(struct kunit *test, u32 stall_before)
{
	struct rr2r_args args = { .seed = 5, .len = 200000 };
	struct rr2r_res res = { };
	struct rpc_message msg = {
		.rpc_proc	= &rr2r_clnt_procs[RR2R_PUT_CONT],
		.rpc_argp	= &args,
		.rpc_resp	= &res,
	};
	struct rpc_xprt *xprt;
	struct rpc_clnt *clnt;
	struct rr2r_one *o;
	struct page **pages;
	int i;

	o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, o);
	init_completion(&o->done);
	clnt = rr2r_start(test, RPCRDMA2_VERS_2, RPCRDMA2_VERS_2, &xprt);
	pages = rr2r_pages(test);
	args.pages = pages;
	rr2r_fill(pages, args.len, args.seed);

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, rr2r_stall_off,
							   xprt));
	rpcrdma2_clnt_test_stall(xprt, stall_before);
	KUNIT_ASSERT_EQ(test, 0, rpc_call_async(clnt, &msg, RPC_TASK_SOFT,
						&rr2r_one_ops, o));
	for (i = 0; i < 200 && (rr2c(xprt)->stats.write_waits == 0 ||
				rpcrdma2_clnt_test_tx_msgno(xprt) !=
				stall_before - 1); i++)
		msleep(50);
	KUNIT_ASSERT_EQ(test, rpcrdma2_clnt_test_tx_msgno(xprt),
			stall_before - 1);
	rpc_killall_tasks(clnt);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&o->done,
							    60 * HZ));
	KUNIT_EXPECT_NE(test, o->status, 0);
	rpcrdma2_clnt_test_stall(xprt, 0);
	KUNIT_EXPECT_EQ(test, rr2c(xprt)->stats.aborted_seqs,
			stall_before > 1 ? 1 : 0);

	/* the next Call goes through intact: 50 Sends, 3 acknowledgments */
	args.seed = 6;
	rr2r_roundtrip(test, clnt, pages, 200000);
	KUNIT_EXPECT_EQ(test, xprt->stat.connect_count,
			stall_before > 1 ? 2 : 1);
}

static void rr2r_abandoned_sequence_is_not_resumed(struct kunit *test)
{
	rr2r_abandon(test, 5);
}

static void rr2r_abandoned_before_first_send_owes_nothing(struct kunit *test)
{
	rr2r_abandon(test, 1);
}

/*
 * The send-stall site disarmed as debugfs disarms it, with no wake-up:
 * the stalled Call goes on by itself and completes whole.  Stalled
 * before its first Send, nothing is in flight whose completion, grant
 * or acknowledgment could wake it.
 */
static void rr2r_stall_disarmed_goes_on(struct kunit *test)
{
	struct rr2r_args args = { .seed = 8, .len = 200000 };
	struct rr2r_res res = { };
	struct rpc_message msg = {
		.rpc_proc	= &rr2r_clnt_procs[RR2R_PUT_CONT],
		.rpc_argp	= &args,
		.rpc_resp	= &res,
	};
	struct rpc_xprt *xprt;
	struct rpc_clnt *clnt;
	struct rr2r_one *o;
	bool done;
	int i;

	o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, o);
	init_completion(&o->done);
	clnt = rr2r_start(test, RPCRDMA2_VERS_2, RPCRDMA2_VERS_2, &xprt);
	args.pages = rr2r_pages(test);
	rr2r_fill(args.pages, args.len, args.seed);

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, rr2r_stall_off,
							   xprt));
	rpcrdma2_fail_after(RPCRDMA2_FAIL_SEND_STALL, 0);
	KUNIT_ASSERT_EQ(test, 0, rpc_call_async(clnt, &msg, RPC_TASK_SOFT,
						&rr2r_one_ops, o));
	for (i = 0; i < 200 && !rr2c(xprt)->stats.write_waits; i++)
		msleep(50);
	KUNIT_EXPECT_GT(test, rr2c(xprt)->stats.write_waits, 0);
	msleep(500);
	rpcrdma2_fail_set(RPCRDMA2_FAIL_SEND_STALL, 0, 1, 0);
	done = wait_for_completion_timeout(&o->done, 30 * HZ);
	if (!done) {		/* never let the task outlive @o */
		rpc_killall_tasks(clnt);
		wait_for_completion(&o->done);
	}
	KUNIT_EXPECT_TRUE_MSG(test, done, "the disarmed stall was not left");
	KUNIT_EXPECT_EQ(test, o->status, 0);
	KUNIT_EXPECT_EQ(test, res.ok, 1);
	KUNIT_EXPECT_EQ(test, res.len, args.len);
}

/*
 * A grant that raises the window wakes a waiting sender, but never
 * takes the transport lock from its holder: here the holder is not a
 * task, as during autoclose (XPRT_LOCKED with no snd_task).
 */
static void rr2r_grant_keeps_autoclose_lock(struct kunit *test)
{
	struct rpc_xprt *xprt;
	bool held;

	rr2r_start(test, RPCRDMA2_VERS_2, RPCRDMA2_VERS_2, &xprt);
	KUNIT_ASSERT_FALSE(test, test_and_set_bit(XPRT_LOCKED, &xprt->state));
	KUNIT_ASSERT_NULL(test, xprt->snd_task);
	rpcrdma2_clnt_test_set_grant(xprt, 8);
	rpcrdma2_clnt_test_set_grant(xprt, 40);
	held = test_bit(XPRT_LOCKED, &xprt->state);
	clear_bit_unlock(XPRT_LOCKED, &xprt->state);
	KUNIT_EXPECT_TRUE(test, held);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_grant(xprt), 40);
}

/*
 * Swap over NFS/RDMA (->enable_swap, ->disable_swap) and sunrpc's
 * disconnect fault (->inject_disconnect), which the RPC layer calls
 * without checking for NULL.
 */
static void rr2r_swap_and_inject_disconnect(struct kunit *test)
{
	struct rpc_xprt *xprt;
	struct rpc_clnt *clnt;
	struct page **pages;
	int i;

	clnt = rr2r_start(test, RPCRDMA2_VERS_2, RPCRDMA2_VERS_2, &xprt);
	pages = rr2r_pages(test);

	KUNIT_EXPECT_EQ(test, 0, rpc_clnt_swap_activate(clnt));
	KUNIT_EXPECT_EQ(test, atomic_read(&xprt->swapper), 1);
	rr2r_roundtrip(test, clnt, pages, 9000);
	rpc_clnt_swap_deactivate(clnt);
	KUNIT_EXPECT_EQ(test, atomic_read(&xprt->swapper), 0);

	xprt->ops->inject_disconnect(xprt);
	for (i = 0; i < 200 && xprt_connected(xprt); i++)
		msleep(50);
	KUNIT_EXPECT_FALSE(test, xprt_connected(xprt));
	rr2r_roundtrip(test, clnt, pages, 9000);
	KUNIT_EXPECT_EQ(test, xprt->stat.connect_count, 2);
}

/*
 * V2-FRAME-24: on a Version 1 connection the server raises its grant
 * in Reply credit fields, never with a Version 2 credit-grant message,
 * which a Version 1 client would have to throw away.
 */
static void rr2r_v1_no_v2_grant(struct kunit *test)
{
	/*
	 * asserts V2-FRAME-24: no Version 2 grant message on a Version 1
	 * connection
	 */
	struct rpc_message msg = {
		.rpc_proc = &rr2r_clnt_procs[RR2R_HOLD],
	};
	struct rr2r_async *a;
	struct rpc_xprt *xprt;
	struct rpc_clnt *clnt;
	int i;

	clnt = rr2r_start(test, RPCRDMA2_VERS_1, RPCRDMA2_VERS_2, &xprt);
	a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	init_completion(&a->all);
	reinit_completion(&rr2r_svc.release);
	atomic_set(&rr2r_svc.held, 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_version(xprt),
			RPCRDMA2_VERS_1);

	for (i = 0; i < RR2R_HOLDERS; i++)
		KUNIT_ASSERT_EQ(test, 0, rpc_call_async(clnt, &msg,
							RPC_TASK_SOFT,
							&rr2r_async_ops, a));
	/* every credit in use: the point where a grant would be sent */
	for (i = 0; i < 200 && xprt->stat.sends < 1 + 32; i++)
		msleep(50);
	KUNIT_EXPECT_GE(test, xprt->stat.sends, 1 + 32);
	msleep(500);		/* room for a grant message to arrive */
	complete_all(&rr2r_svc.release);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&a->all,
							    120 * HZ));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->failed), 0);
	KUNIT_EXPECT_EQ(test, rr2c(xprt)->stats.bad_hdrs, 0);
	KUNIT_EXPECT_EQ(test, rr2c(xprt)->stats.grants, 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_grant(xprt), 64);
}

/*
 * A connection starts with the MRs its largest RPC may
 * need, not RR2C_MRS_PER_CREDIT per credit, and no reassembly stage
 * until a Call has a Write chunk; the pool grows on demand: with
 * RR2R_HOLDERS GETs held by the server, each with its Write chunk
 * registered, the pool grows past what it started with but not past
 * its cap, and every GET completes with its data.
 */
#define RR2R_GROW_LEN	(64 * 1024)

static void rr2r_mr_pool_grows_on_demand(struct kunit *test)
{
	struct rr2r_args *args;
	struct rr2r_res *res;
	struct rr2r_async *a;
	struct rpc_xprt *xprt;
	struct rpc_clnt *clnt;
	struct page **pages;
	struct rr2c *r;
	u32 i, nr, peak, n = RR2R_GROW_LEN >> PAGE_SHIFT;
	unsigned long sends;
	u64 chunks;

	clnt = rr2r_start(test, RPCRDMA2_VERS_2, RPCRDMA2_VERS_2, &xprt);
	r = rr2c(xprt);
	a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	args = kunit_kcalloc(test, RR2R_HOLDERS, sizeof(*args), GFP_KERNEL);
	res = kunit_kcalloc(test, RR2R_HOLDERS, sizeof(*res), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, args);
	KUNIT_ASSERT_NOT_NULL(test, res);
	init_completion(&a->all);
	reinit_completion(&rr2r_svc.release);
	atomic_set(&rr2r_svc.held, 0);

	/* connect: the pool holds what one RPC needs, and no more */
	KUNIT_ASSERT_EQ(test, rpcrdma2_clnt_test_version(xprt),
			RPCRDMA2_VERS_2);
	nr = READ_ONCE(r->frwr.nr);
	KUNIT_EXPECT_EQ(test, nr, r->frwr.first);
	KUNIT_EXPECT_LE(test, r->frwr.first, 2 * RR2C_MAX_SEGS);
	KUNIT_EXPECT_GE(test, r->frwr.cap,
			r->credits * RR2C_MRS_PER_CREDIT);
	/* no Write chunk yet: no stage either (client.h) */
	KUNIT_EXPECT_NULL(test, READ_ONCE(r->rx_stage));
	chunks = r->stats.write_chunks;
	sends = xprt->stat.sends;

	for (i = 0; i < RR2R_HOLDERS; i++) {
		struct rpc_message msg = {
			.rpc_proc	= &rr2r_clnt_procs[RR2R_GET],
			.rpc_argp	= &args[i],
			.rpc_resp	= &res[i],
		};

		pages = rr2r_pages_n(test, n);
		args[i] = (struct rr2r_args){ .seed = RR2R_SEED_HOLD,
					      .len = RR2R_GROW_LEN,
					      .pages = pages };
		KUNIT_ASSERT_EQ(test, 0, rpc_call_async(clnt, &msg,
							RPC_TASK_SOFT,
							&rr2r_async_ops, a));
	}
	/*
	 * The server's one thread holds the first GET and the rest wait
	 * in its queue, unanswered: once all are sent, every one has its
	 * Write chunk registered at once.
	 */
	for (i = 0; i < 400 && xprt->stat.sends < sends + RR2R_HOLDERS; i++)
		msleep(50);
	KUNIT_EXPECT_GE(test, xprt->stat.sends, sends + RR2R_HOLDERS);
	peak = READ_ONCE(r->frwr.peak);
	nr = READ_ONCE(r->frwr.nr);
	KUNIT_EXPECT_GE(test, peak, RR2R_HOLDERS);
	KUNIT_EXPECT_GT(test, nr, r->frwr.first);
	KUNIT_EXPECT_LE(test, nr, r->frwr.cap);
	KUNIT_EXPECT_GT(test, r->stats.mr_waits, 0);
	KUNIT_EXPECT_GE(test, r->stats.write_chunks, chunks + RR2R_HOLDERS);
	KUNIT_EXPECT_NOT_NULL(test, READ_ONCE(r->rx_stage));

	complete_all(&rr2r_svc.release);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&a->all,
							    120 * HZ));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->failed), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rr2r_svc.held), RR2R_HOLDERS);
	for (i = 0; i < RR2R_HOLDERS; i++) {
		KUNIT_EXPECT_EQ(test, res[i].len, RR2R_GROW_LEN);
		KUNIT_EXPECT_TRUE_MSG(test, rr2r_verify(args[i].pages,
							RR2R_GROW_LEN,
							RR2R_SEED_HOLD),
				      "GET %u", i);
	}
	nr = READ_ONCE(r->frwr.nr);
	KUNIT_EXPECT_LE(test, nr, r->frwr.cap);
	rr2r_expect_pool_full(test, xprt);
}

/*
 * V2-SEC-08, #26 review (a): a retransmission that is marshaled after
 * the Reply to an earlier transmission was placed must not map the
 * RPC's receive pages again (the task may be decoding them; on bounced
 * or non-coherent DMA the unmap would write over them).  The window is
 * between ->send_request's look for a held Reply and its first MR:
 * reproduced here by marshaling the answered RPC from its own
 * rpc_call_done, where the Reply is placed and decoded.
 */
struct rr2r_answered {
	struct completion	done;
	int			status;
	int			ret;
	u32			mapped;
};

static void rr2r_answered_done(struct rpc_task *task, void *data)
{
	struct rr2r_answered *x = data;
	struct rpc_rqst *rq = task->tk_rqstp;
	struct rr2c *r = rr2c(rq->rq_xprt);
	struct rr2c_req *req = rr2c_req(rq);
	struct rr2c_mr *mr;

	x->status = task->tk_status;
	x->ret = rr2c_marshal_prepare(r, req);
	spin_lock(&r->frwr.lock);
	list_for_each_entry(mr, &req->mrs, node)
		x->mapped++;
	spin_unlock(&r->frwr.lock);
	rr2c_frwr_unmap_unposted(r, req);
}

static void rr2r_answered_release(void *data)
{
	complete(&((struct rr2r_answered *)data)->done);
}

static const struct rpc_call_ops rr2r_answered_ops = {
	.rpc_call_done	= rr2r_answered_done,
	.rpc_release	= rr2r_answered_release,
};

static void rr2r_v2_sec_08_answered_not_mapped(struct kunit *test)
{
	struct rr2r_args args = { .seed = 99, .len = RR2R_GROW_LEN };
	struct rr2r_res res = { };
	struct rpc_message msg = {
		.rpc_proc	= &rr2r_clnt_procs[RR2R_GET],
		.rpc_argp	= &args,
		.rpc_resp	= &res,
	};
	struct rr2r_answered *x;
	struct rpc_clnt *clnt;
	struct rr2c *r;
	u64 chunks;

	clnt = rr2r_start(test, RPCRDMA2_VERS_2, RPCRDMA2_VERS_2, NULL);
	r = rr2c(rr2r_xprt(clnt));
	x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, x);
	init_completion(&x->done);
	args.pages = rr2r_pages_n(test, RR2R_GROW_LEN >> PAGE_SHIFT);
	chunks = r->stats.write_chunks;

	KUNIT_ASSERT_EQ(test, 0, rpc_call_async(clnt, &msg, RPC_TASK_SOFT,
						&rr2r_answered_ops, x));
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&x->done,
							    60 * HZ));
	KUNIT_EXPECT_EQ(test, x->status, 0);
	/* the GET had a Write chunk: there were pages to map again */
	KUNIT_EXPECT_EQ(test, r->stats.write_chunks, chunks + 1);
	KUNIT_EXPECT_EQ(test, x->ret, -EALREADY);
	KUNIT_EXPECT_EQ(test, x->mapped, 0);
	KUNIT_EXPECT_EQ(test, res.len, RR2R_GROW_LEN);
	KUNIT_EXPECT_TRUE(test, rr2r_verify(args.pages, RR2R_GROW_LEN, 99));
	rr2r_expect_pool_full(test, rr2r_xprt(clnt));
}

static struct kunit_case rr2r_cases[] = {
	KUNIT_CASE_PARAM(rr2r_v2_sizes_0_to_1m,
			 rr2r_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2r_v1_client_v2_server,
			 rr2r_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2r_v2_client_v1_server_falls_back,
			 rr2r_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2r_reconnect_v2, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_reconnect_after_fallback_stays_v1,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_credit_exhaustion_async_grant,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_sparse_reply_pages_v2, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_sparse_reply_pages_v1, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_abandoned_sequence_is_not_resumed,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_abandoned_before_first_send_owes_nothing,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_stall_disarmed_goes_on, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_grant_keeps_autoclose_lock,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_swap_and_inject_disconnect,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_v1_no_v2_grant, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_mr_pool_grows_on_demand,
			 rr2r_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2r_v2_sec_08_answered_not_mapped,
			 rr2r_link_gen_params),
	{}
};

static struct kunit_suite rr2r_suite = {
	.name		= "rpcrdma2_rpc",
	.suite_init	= rr2r_suite_init,
	.suite_exit	= rr2r_suite_exit,
	.test_cases	= rr2r_cases,
};

kunit_test_suite(rr2r_suite);
