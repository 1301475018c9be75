// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rpcrdma2_cont": Message Continuation rules, receiver
 * (reassembly verdicts) and sender (how many Sends), on their own.
 */

#include <kunit/test.h>

#include "shared/cont.h"

static struct rpcrdma2_hdr rr2k_hdr(u32 xid, u32 htype, u32 flags)
{
	struct rpcrdma2_hdr h = {
		.xid = xid, .vers = 2, .htype = htype, .flags = flags,
	};

	return h;
}

static enum rpcrdma2_reasm_verdict rr2k_add(struct rpcrdma2_reasm *r, u32 xid,
					    u32 htype, bool more, u32 len)
{
	struct rpcrdma2_hdr h = rr2k_hdr(xid, htype, more ? RDMA2_F_MORE : 0);

	return rpcrdma2_reasm_add(r, &h, len);
}

/* V2-CONT-04: payloads concatenate until F_MORE is clear. */
static void v2_cont_04_sequence(struct kunit *test)
{
	struct rpcrdma2_reasm r;

	rpcrdma2_reasm_init(&r, 1 << 20);
	KUNIT_EXPECT_EQ(test, rr2k_add(&r, 7, RDMA2_MSG, false, 100),
			RPCRDMA2_REASM_DONE);
	KUNIT_EXPECT_EQ(test, r.len, 100U);
	KUNIT_EXPECT_EQ(test, rr2k_add(&r, 8, RDMA2_MSG, true, 4060),
			RPCRDMA2_REASM_MORE);
	KUNIT_EXPECT_EQ(test, rr2k_add(&r, 8, RDMA2_MSG, true, 4060),
			RPCRDMA2_REASM_MORE);
	KUNIT_EXPECT_EQ(test, rr2k_add(&r, 8, RDMA2_MSG, false, 12),
			RPCRDMA2_REASM_DONE);
	KUNIT_EXPECT_EQ(test, r.len, 8132U);
	KUNIT_EXPECT_EQ(test, r.nmsgs, 3U);
	/* V2-PROP-16: CONNPROP may be continued too */
	KUNIT_EXPECT_EQ(test, rr2k_add(&r, 0, RDMA2_CONNPROP, true, 1000),
			RPCRDMA2_REASM_MORE);
	KUNIT_EXPECT_EQ(test, rr2k_add(&r, 0, RDMA2_CONNPROP, false, 10),
			RPCRDMA2_REASM_DONE);
}

/* V2-CONT-06, V2-CONT-10: another xid mid-sequence; then drop both. */
static void v2_cont_06_xid_mismatch(struct kunit *test)
{
	struct rpcrdma2_reasm r;

	rpcrdma2_reasm_init(&r, 1 << 20);
	KUNIT_EXPECT_EQ(test, rr2k_add(&r, 8, RDMA2_MSG, true, 4000),
			RPCRDMA2_REASM_MORE);
	KUNIT_EXPECT_EQ(test, rr2k_add(&r, 9, RDMA2_MSG, true, 4000),
			RPCRDMA2_REASM_FAULT);
	KUNIT_EXPECT_EQ(test, r.len, 0U);
	/* the rest of both sequences is dropped without reassembly */
	KUNIT_EXPECT_EQ(test, rr2k_add(&r, 8, RDMA2_MSG, true, 4000),
			RPCRDMA2_REASM_DISCARD);
	KUNIT_EXPECT_EQ(test, rr2k_add(&r, 9, RDMA2_MSG, false, 10),
			RPCRDMA2_REASM_DISCARD);
	KUNIT_EXPECT_EQ(test, rr2k_add(&r, 8, RDMA2_MSG, false, 10),
			RPCRDMA2_REASM_DISCARD);
	/* and then the connection goes on */
	KUNIT_EXPECT_EQ(test, rr2k_add(&r, 10, RDMA2_MSG, false, 10),
			RPCRDMA2_REASM_DONE);
	KUNIT_EXPECT_EQ(test, rr2k_add(&r, 8, RDMA2_MSG, false, 10),
			RPCRDMA2_REASM_DONE);
}

/* V2-CONT-05, V2-CONT-06: same xid, another htype. */
static void v2_cont_06_htype_mismatch(struct kunit *test)
{
	/* asserts V2-CONT-05: one sequence, one htype; another is a fault */
	struct rpcrdma2_reasm r;

	rpcrdma2_reasm_init(&r, 1 << 20);
	KUNIT_EXPECT_EQ(test, rr2k_add(&r, 8, RDMA2_MSG, true, 4000),
			RPCRDMA2_REASM_MORE);
	KUNIT_EXPECT_EQ(test, rr2k_add(&r, 8, RDMA2_NOMSG, false, 0),
			RPCRDMA2_REASM_FAULT);
	KUNIT_EXPECT_FALSE(test, r.active);
}

/* V2-CONT-09, V2-SEC-17: a sequence longer than the cap. */
static void v2_cont_09_cap(struct kunit *test)
{
	struct rpcrdma2_reasm r;

	rpcrdma2_reasm_init(&r, 10000);
	KUNIT_EXPECT_EQ(test, rr2k_add(&r, 8, RDMA2_MSG, true, 4000),
			RPCRDMA2_REASM_MORE);
	KUNIT_EXPECT_EQ(test, rr2k_add(&r, 8, RDMA2_MSG, true, 4000),
			RPCRDMA2_REASM_MORE);
	KUNIT_EXPECT_EQ(test, rr2k_add(&r, 8, RDMA2_MSG, true, 4000),
			RPCRDMA2_REASM_FAULT);
	KUNIT_EXPECT_EQ(test, rr2k_add(&r, 8, RDMA2_MSG, false, 4000),
			RPCRDMA2_REASM_DISCARD);
	/* exactly the cap is fine */
	KUNIT_EXPECT_EQ(test, rr2k_add(&r, 9, RDMA2_MSG, true, 6000),
			RPCRDMA2_REASM_MORE);
	KUNIT_EXPECT_EQ(test, rr2k_add(&r, 9, RDMA2_MSG, false, 4000),
			RPCRDMA2_REASM_DONE);
	KUNIT_EXPECT_EQ(test, r.len, 10000U);
}

/* V2-CONT-01, V2-CONT-08, V2-INLINE-02: how many Sends a payload takes. */
static void v2_cont_08_send_count(struct kunit *test)
{
	/* 4096 threshold: the final message carries its own header */
	KUNIT_EXPECT_EQ(test, rpcrdma2_cont_sends(0, 4096, 36), 1U);
	KUNIT_EXPECT_EQ(test, rpcrdma2_cont_sends(4060, 4096, 36), 1U);
	KUNIT_EXPECT_EQ(test, rpcrdma2_cont_sends(4061, 4096, 36), 2U);
	KUNIT_EXPECT_EQ(test, rpcrdma2_cont_sends(2 * 4060, 4096, 36), 2U);
	KUNIT_EXPECT_EQ(test, rpcrdma2_cont_sends(2 * 4060 + 1, 4096, 36), 3U);
	/* a 1 MiB READ reply inline: 259 Sends */
	KUNIT_EXPECT_EQ(test, rpcrdma2_cont_sends(1 << 20, 4096, 36), 259U);
	/* a final header with chunks leaves less room in the last one */
	KUNIT_EXPECT_EQ(test, rpcrdma2_cont_sends(4060, 4096, 100), 2U);
	/* a threshold that cannot carry a header */
	KUNIT_EXPECT_EQ(test, rpcrdma2_cont_sends(10, 36, 36), 0U);
	KUNIT_EXPECT_EQ(test, rpcrdma2_cont_sends(10, 1024, 2000), 0U);
}

static struct kunit_case rr2k_cases[] = {
	KUNIT_CASE(v2_cont_04_sequence),
	KUNIT_CASE(v2_cont_06_xid_mismatch),
	KUNIT_CASE(v2_cont_06_htype_mismatch),
	KUNIT_CASE(v2_cont_09_cap),
	KUNIT_CASE(v2_cont_08_send_count),
	{ }
};

static struct kunit_suite rr2k_suite = {
	.name		= "rpcrdma2_cont",
	.test_cases	= rr2k_cases,
};

kunit_test_suites(&rr2k_suite);
