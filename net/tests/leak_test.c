// SPDX-License-Identifier: GPL-2.0-only
/*
 * The last rpcrdma2 KUnit suite: a kmemleak scan after all the others.
 *
 * In the debug KUnit kernel (rpcrdma2-debug.kunitconfig) kmemleak tracks
 * every allocation, but its own thread first scans a minute after boot
 * and then every ten minutes, so a leak made by the suites would go
 * unnoticed in a run that ends sooner.  This suite is linked last (Kbuild
 * lists it last, and KUnit runs suites in link order): it waits until the
 * newest objects are old enough to be reported, asks kmemleak for a scan
 * through its debugfs file, as "echo scan > /sys/kernel/debug/kmemleak"
 * would, and reads the report.
 *
 * An unreferenced object is ours when an rpcrdma2 function (rr2*,
 * rpcrdma2_*: the transport and its tests) is on its allocation stack;
 * that covers memory the RDMA core or sunrpc allocated on our behalf and
 * we failed to give back.  Each of ours fails the case.  Other leaks in
 * the kernel are counted in the log and do not.
 *
 * Canary objects, leaked on purpose and freed after the scan, prove
 * that the scan and the report parsing work: with none of them found in
 * any of RR2K_ROUNDS rounds, the case fails.  Without kmemleak the case
 * is skipped (the normal KUnit kernel; the debug kernel has it).
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/mman.h>
#include <linux/mount.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define RR2K_REPORT_MAX	(256 * 1024)
/* kmemleak reports objects older than 5 s (jiffies_min_age) */
#define RR2K_MIN_AGE_MS	6000

static struct file *rr2l_open(struct kunit *test, struct vfsmount **mntp)
{
	struct file_system_type *fs = get_fs_type("debugfs");
	struct vfsmount *mnt;
	struct file *f;

	KUNIT_ASSERT_NOT_NULL_MSG(test, fs, "no debugfs in this kernel");
	mnt = vfs_kern_mount(fs, 0, "debugfs", NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(mnt), "mount debugfs: %ld",
			       PTR_ERR(mnt));
	f = file_open_root_mnt(mnt, "kmemleak", O_RDWR, 0);
	if (IS_ERR(f)) {
		kern_unmount(mnt);
		KUNIT_FAIL(test, "open kmemleak: %ld (kmemleak disabled?)",
			   PTR_ERR(f));
		return NULL;
	}
	*mntp = mnt;
	return f;
}

/*
 * kmemleak's debugfs file has plain ->read and ->write, which take user
 * memory only (kernel_read() and kernel_write() refuse such files): go
 * through a user mapping of the test's own (kunit_vm_mmap() gives the
 * KUnit thread an mm).
 */
struct rr2l_ubuf {
	char __user	*u;
	size_t		len;
};

static void rr2l_ubuf_init(struct kunit *test, struct rr2l_ubuf *b)
{
	unsigned long addr;

	b->len = RR2K_REPORT_MAX;
	addr = kunit_vm_mmap(test, NULL, 0, b->len, PROT_READ | PROT_WRITE,
			     MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_VALUE(addr), "vm_mmap: %ld",
			       (long)addr);
	b->u = (char __user *)addr;
}

static void rr2l_scan(struct kunit *test, struct file *f,
		      struct rr2l_ubuf *b)
{
	static const char cmd[] = "scan";
	loff_t pos = 0;
	ssize_t ret;

	KUNIT_ASSERT_EQ(test, copy_to_user(b->u, cmd, sizeof(cmd) - 1), 0);
	ret = vfs_write(f, b->u, sizeof(cmd) - 1, &pos);
	KUNIT_EXPECT_EQ_MSG(test, ret, (ssize_t)(sizeof(cmd) - 1),
			    "kmemleak scan: %zd", ret);
}

/* Read the whole report; kmemleak's file is a seq_file. */
static char *rr2l_read(struct kunit *test, struct file *f,
		       struct rr2l_ubuf *b, size_t *lenp)
{
	char *buf = kunit_kzalloc(test, RR2K_REPORT_MAX + 1, GFP_KERNEL);
	loff_t pos = 0;
	size_t len = 0;
	ssize_t n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	while (len < RR2K_REPORT_MAX) {
		n = vfs_read(f, b->u, RR2K_REPORT_MAX - len, &pos);
		if (n <= 0)
			break;
		if (copy_from_user(buf + len, b->u, n))
			break;
		len += n;
	}
	buf[len] = '\0';
	*lenp = len;
	return buf;
}

/*
 * The canaries: objects leaked on purpose, each from a thread that then
 * exits, with their addresses kept only in a masked form that kmemleak
 * cannot see.  kmemleak scans whole stacks, stale frames included, and
 * an exited thread's stack may be cached for reuse, so a copy of a
 * canary's address left in a dead frame hides it: each thread scrubs
 * the stack it used below its own frame, and there are several
 * canaries.  The scan must report at least one of them, with
 * rr2l_canary_thread on its allocation stack, or the whole check proves
 * nothing; they are freed afterwards.
 */
#define RR2K_MASK	0x5a5a5a5a5a5a5a5aUL
#define RR2K_CANARIES	16

static unsigned long rr2l_canary_masked[RR2K_CANARIES];

/*
 * Zero @depth KiB of stack below the caller's frame: the allocator's
 * and kmemleak's own frames under kmalloc() go deeper than one.
 */
static noinline void rr2l_scrub_stack(int depth)
{
	u8 junk[1024];

	memzero_explicit(junk, sizeof(junk));
	if (depth > 1)
		rr2l_scrub_stack(depth - 1);
	/* keeps the frame: not a tail call */
	barrier_data(junk);
}

/*
 * Each round's canaries come from another kmalloc cache: a round's
 * canaries are freed by the test thread, whose stack keeps stale copies
 * of their addresses, and the next round's, taken from the same cache,
 * would get the same addresses and be hidden by them.
 */
static const size_t rr2l_canary_size[] = { 72, 136, 264, 520, 1032 };

struct rr2l_canary_arg {
	unsigned long	*slot;
	size_t		size;
};

static struct rr2l_canary_arg rr2l_canary_args[RR2K_CANARIES];

static int rr2l_canary_thread(void *data)
{
	struct rr2l_canary_arg *a = data;
	void *p = kmalloc(a->size, GFP_KERNEL);

	WRITE_ONCE(*a->slot, p ? (unsigned long)p ^ RR2K_MASK : 1);
	p = NULL;
	rr2l_scrub_stack(6);
	return 0;
}

static void rr2l_canary_leak(struct kunit *test, int round)
{
	struct task_struct *t;
	int i, n;

	for (i = 0; i < RR2K_CANARIES; i++) {
		rr2l_canary_args[i].slot = &rr2l_canary_masked[i];
		rr2l_canary_args[i].size =
			rr2l_canary_size[round % ARRAY_SIZE(rr2l_canary_size)];
		t = kthread_run(rr2l_canary_thread, &rr2l_canary_args[i],
				"rr2l_canary");
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	}
	for (n = 0; n < 100; n++) {
		for (i = 0; i < RR2K_CANARIES; i++)
			if (!READ_ONCE(rr2l_canary_masked[i]))
				break;
		if (i == RR2K_CANARIES)
			break;
		msleep(20);
	}
	for (i = 0; i < RR2K_CANARIES; i++)
		KUNIT_ASSERT_GT(test, READ_ONCE(rr2l_canary_masked[i]), 1UL);
}

static void rr2l_canary_free(void)
{
	int i;

	for (i = 0; i < RR2K_CANARIES; i++) {
		if (rr2l_canary_masked[i] > 1)
			kfree((void *)(rr2l_canary_masked[i] ^ RR2K_MASK));
		rr2l_canary_masked[i] = 0;
	}
}

/* Is one object's report (a block starting "unreferenced object") ours? */
static bool rr2l_ours(const char *blk, const char *end)
{
	/* kmemleak prints each frame as "    %pS" (mm/kmemleak.c) */
	static const char * const marks[] = { "\n    rr2", "\n    rpcrdma2_" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(marks); i++) {
		const char *p = strnstr(blk, marks[i], end - blk);

		if (p)
			return true;
	}
	return false;
}

struct rr2l_count {
	unsigned int	ours;
	unsigned int	others;
	unsigned int	canary;
	unsigned int	canary_ours;
};

/* Scan twice, read the report and count its objects by owner. */
static void rr2l_scan_count(struct kunit *test, struct rr2l_ubuf *ubuf,
			    struct rr2l_count *c, bool print)
{
	static const char head[] = "unreferenced object";
	struct vfsmount *mnt;
	struct file *f;
	char *report, *blk;
	size_t len;

	memset(c, 0, sizeof(*c));
	f = rr2l_open(test, &mnt);
	if (!f)
		return;
	/* a second scan settles objects that moved during the first */
	rr2l_scan(test, f, ubuf);
	rr2l_scan(test, f, ubuf);
	fput(f);
	/* a fresh open starts the report from its first object */
	f = file_open_root_mnt(mnt, "kmemleak", O_RDONLY, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	report = rr2l_read(test, f, ubuf, &len);
	fput(f);
	kern_unmount(mnt);

	blk = strstr(report, head);
	while (blk) {
		char *next = strstr(blk + 1, head);
		char *end = next ? next : report + len;

		if (strnstr(blk, "rr2l_canary_thread", end - blk)) {
			c->canary++;
			/* the canary is ours by the same rule as any leak */
			c->canary_ours += rr2l_ours(blk, end);
		} else if (rr2l_ours(blk, end)) {
			c->ours++;
			/* the whole block: size, comm, allocation stack */
			if (print)
				kunit_err(test, "leak %u:\n%.*s", c->ours,
					  (int)min_t(ptrdiff_t, end - blk, 2048),
					  blk);
		} else {
			c->others++;
		}
		blk = next;
	}
	kunit_kfree(test, report);
}

/*
 * Rounds of fresh canaries: a scan that reports none of them proves
 * nothing (it happened in about one run of five with a single round),
 * so a new set is leaked and scanned again, and only when no round of
 * RR2K_ROUNDS reports one does the case fail.
 */
#define RR2K_ROUNDS	5

static void rr2l_no_leaks(struct kunit *test)
{
	struct rr2l_count c = {};
	struct rr2l_ubuf ubuf;
	int round;

	if (!IS_ENABLED(CONFIG_DEBUG_KMEMLEAK))
		kunit_skip(test, "kmemleak is not in this kernel");

	rr2l_ubuf_init(test, &ubuf);
	for (round = 1; round <= RR2K_ROUNDS; round++) {
		rr2l_canary_leak(test, round);
		msleep(RR2K_MIN_AGE_MS);
		rr2l_scan_count(test, &ubuf, &c, false);
		if (c.canary || round == RR2K_ROUNDS) {
			struct rr2l_count again;

			/* again, printing ours, before the canaries go */
			if (c.ours)
				rr2l_scan_count(test, &ubuf, &again, true);
			rr2l_canary_free();
			break;
		}
		rr2l_canary_free();
		kunit_info(test, "round %d: kmemleak reported none of the %d canaries; again with new ones",
			   round, RR2K_CANARIES);
	}
	kunit_info(test, "kmemleak: %u objects of rpcrdma2's, %u elsewhere, canary %u, round %d",
		   c.ours, c.others, c.canary, round);
	KUNIT_EXPECT_GT_MSG(test, c.canary, 0U,
			    "kmemleak reported none of the canaries in %d rounds: the scan proves nothing",
			    RR2K_ROUNDS);
	KUNIT_EXPECT_EQ_MSG(test, c.canary_ours, c.canary,
			    "a canary was not recognised as rpcrdma2's: the rule misses leaks");
	KUNIT_EXPECT_EQ_MSG(test, c.ours, 0U,
			    "rpcrdma2 leaked memory (allocation stacks above)");
}

static struct kunit_case rr2l_cases[] = {
	KUNIT_CASE_SLOW(rr2l_no_leaks),
	{}
};

static struct kunit_suite rr2l_suite = {
	.name = "rpcrdma2_zz_leaks",
	.test_cases = rr2l_cases,
};

kunit_test_suite(rr2l_suite);

