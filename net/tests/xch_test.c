// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rpcrdma2_xch": the seed 004 characteristics exchange
 * (net/shared/xch.c) on its own, with a client and a server connection
 * simulated in memory and every message going through the codec.  The
 * live cases over rxe and siw are in rpc_test.c (server half) and
 * clnt_wire_test.c (client half).
 */

#include <kunit/test.h>
#include <linux/unaligned.h>

#include "shared/nego.h"

static const struct rpcrdma2_cm_pdata rr2e_pdata = {
	.send_size = RPCRDMA2_V1_DEF_INLINE,
	.recv_size = RPCRDMA2_V1_DEF_INLINE,
};

static const struct rpcrdma2_limits rr2e_lim = { .xchar = true };

/* A connection settled on @vers with 4096-octet sizes each way. */
static struct rpcrdma2_conn *rr2e_conn(struct kunit *test, u32 vers,
				       bool enabled, bool requester)
{
	struct rpcrdma2_conn *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct rpcrdma2_local l = {
		.max_vers = RPCRDMA2_VERS_2,
		.send_size = 4096,
		.recv_size = 4096,
		.brs = RDMA2_RVRSDIR_SIMPLE,
		.remote_inv = true,
	};

	KUNIT_ASSERT_NOT_NULL(test, c);
	rpcrdma2_conn_init(c, &rr2e_pdata);
	c->vers = vers;
	c->peer_props.brs = RDMA2_RVRSDIR_SIMPLE;
	rpcrdma2_conn_thresholds(c, &l);
	rpcrdma2_xch_start(c, &l, enabled, requester);
	return c;
}

/* Decode @len octets of @buf as a Version 2 peer with the extension. */
static void rr2e_decode(struct kunit *test, const u8 *buf, u32 len,
			struct rpcrdma2_hdr *h)
{
	KUNIT_ASSERT_NE(test, len, 0U);
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode_hdr(buf, len, RPCRDMA2_VERS_2,
						  &rr2e_lim, h), 0);
}

/* Deliver an encoded message to @to; returns what it did. */
static int rr2e_deliver(struct kunit *test, struct rpcrdma2_conn *to,
			const u8 *msg, u32 len, u8 *out, u32 *outlen)
{
	struct rpcrdma2_hdr h;

	rr2e_decode(test, msg, len, &h);
	return rpcrdma2_xch_recv(to, &h, 1, out, 256, outlen);
}

/* Start a raw RDMA2_XCH_* header; returns the offset of its body. */
static u32 rr2e_hdr(u8 *b, u32 xid, u32 htype)
{
	put_unaligned_be32(xid, b);
	put_unaligned_be32(RPCRDMA2_VERS_2, b + 4);
	put_unaligned_be32(rpcrdma2_credit_word(8, 8), b + 8);
	put_unaligned_be32(htype, b + 12);
	put_unaligned_be32(0, b + 16);
	return 20;
}

static u32 rr2e_val(u8 *b, u32 which, u32 v)
{
	put_unaligned_be32(which, b);
	put_unaligned_be32(4, b + 4);
	put_unaligned_be32(v, b + 8);
	return 12;
}

/* An INITXCH from a raw peer: RBSIZ, REQREMINV and BRS, empty nochg. */
static u32 rr2e_initxch(u8 *b, u32 rbsiz, u32 reqreminv, u32 brs)
{
	u32 n = rr2e_hdr(b, 0x51, RDMA2_XCH_INITXCH);

	put_unaligned_be32(3, b + n);
	n += 4;
	n += rr2e_val(b + n, XCHAR_RBSIZ, rbsiz);
	n += rr2e_val(b + n, XCHAR_REQREMINV, reqreminv);
	n += rr2e_val(b + n, XCHAR_BRS, brs);
	put_unaligned_be32(0, b + n);
	return n + 4;
}

/*
 * XCH-XOP-01, XCH-XOP-11: the exchange is off unless enabled, and never
 * on Version 1, whatever the parameter; off, it sends nothing and the
 * codec refuses the operations with INVAL_HTYPE.
 */
static void xch_xop_11_off_and_never_v1(struct kunit *test)
{
	static const struct rpcrdma2_limits off = { };
	struct rpcrdma2_conn *c;
	struct rpcrdma2_hdr h;
	u8 buf[256];
	u32 n;

	c = rr2e_conn(test, RPCRDMA2_VERS_2, false, true);
	KUNIT_EXPECT_FALSE(test, c->xch.on);
	KUNIT_EXPECT_EQ(test, rpcrdma2_xch_hello(c, 1, buf, sizeof(buf)), 0U);
	c = rr2e_conn(test, RPCRDMA2_VERS_1, true, true);
	KUNIT_EXPECT_FALSE(test, c->xch.on);
	KUNIT_EXPECT_EQ(test, rpcrdma2_xch_hello(c, 1, buf, sizeof(buf)), 0U);

	n = rr2e_initxch(buf, 2048, 0, BKREQSUP_NONE);
	KUNIT_EXPECT_EQ(test, rpcrdma2_decode_hdr(buf, n, RPCRDMA2_VERS_2,
						  &off, &h),
			RDMA2_ERR_INVAL_HTYPE);
	/* and an off exchange applies nothing it is handed */
	KUNIT_EXPECT_EQ(test, rpcrdma2_decode_hdr(buf, n, RPCRDMA2_VERS_2,
						  &rr2e_lim, &h), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_xch_recv(c, &h, 1, buf, sizeof(buf), &n),
			0);
	KUNIT_EXPECT_EQ(test, c->send_inline, 1024U);
}

/*
 * XCH-XOP-14, XCH-XOP-15, XCH-INLINE-05, XCH-XOP-16: each end's INITXCH
 * lists what it has, marks all but RBSIZ as not changing, and fits the
 * 1024-octet first-message size.  Only the requester says REQREMINV.
 */
static void xch_inline_05_initxch(struct kunit *test)
{
	struct rpcrdma2_conn *cl = rr2e_conn(test, 2, true, true);
	struct rpcrdma2_conn *sv = rr2e_conn(test, 2, true, false);
	u8 *buf = kunit_kzalloc(test, 2048, GFP_KERNEL);
	struct rpcrdma2_hdr h;
	u32 n;

	KUNIT_ASSERT_NOT_NULL(test, buf);

	n = rpcrdma2_xch_hello(cl, 1, buf, 2048);
	KUNIT_EXPECT_LE(test, n, 1024U);
	rr2e_decode(test, buf, n, &h);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_XCH_INITXCH);
	KUNIT_EXPECT_EQ(test, h.xid, RPCRDMA2_XCH_XID(RDMA2_XCH_INITXCH));
	KUNIT_EXPECT_EQ(test, h.xch.chars.present, 0x7U);
	KUNIT_EXPECT_EQ(test, h.xch.chars.rbsiz, 4096U);
	KUNIT_EXPECT_TRUE(test, h.xch.chars.reqreminv);
	KUNIT_EXPECT_EQ(test, h.xch.chars.brs, (u32)BKREQSUP_INLINE);
	KUNIT_EXPECT_EQ(test, h.xch.subset[0][0], 0x6U);
	KUNIT_EXPECT_EQ(test, cl->xch.sent, 1U);

	n = rpcrdma2_xch_hello(sv, 1, buf, 2048);
	rr2e_decode(test, buf, n, &h);
	KUNIT_EXPECT_EQ(test, h.xch.chars.present, 0x5U);
	KUNIT_EXPECT_EQ(test, h.xch.subset[0][0], 0x2U);
	/* the client takes it: nothing it says lowers a 4096 limit */
	KUNIT_EXPECT_EQ(test, rpcrdma2_xch_recv(cl, &h, 1, buf, 2048, &n), 0);
	KUNIT_EXPECT_TRUE(test, cl->xch.peer_init);
	KUNIT_EXPECT_EQ(test, cl->send_inline, 4096U);
	KUNIT_EXPECT_EQ(test, cl->peer_props.brs, (u32)RDMA2_RVRSDIR_SIMPLE);
}

/*
 * Applied, XCH-INLINE-04, V2-INLINE-08: the peer's RBSIZ lowers the send
 * limit but never raises it above what Version 2 settled, and one below
 * 1024 is not believed.  XCH-RDIR-01: BRS NONE stops reverse
 * traffic.  XCH-RINV-01: REQREMINV = FALSE vetoes Send With
 * Invalidate; left out, the Version 2 per-Call rules decide (XCH-RINV-02).
 */
static void xch_rinv_01_initxch_applied(struct kunit *test)
{
	struct rpcrdma2_conn *sv = rr2e_conn(test, 2, true, false);
	u8 msg[256], out[256];
	u32 n, olen;

	n = rr2e_initxch(msg, 2048, 0, BKREQSUP_NONE);
	KUNIT_EXPECT_EQ(test, rr2e_deliver(test, sv, msg, n, out, &olen),
			RPCRDMA2_XCH_APPLIED);
	KUNIT_EXPECT_EQ(test, olen, 0U);
	KUNIT_EXPECT_EQ(test, sv->send_inline, 2048U);
	KUNIT_EXPECT_EQ(test, sv->recv_inline, 4096U);
	KUNIT_EXPECT_EQ(test, sv->peer_props.brs, (u32)RDMA2_RVRSDIR_NONE);
	KUNIT_EXPECT_TRUE(test, rpcrdma2_xch_no_reminv(sv));

	/* a later INITXCH replaces it: RBSIZ above the settled 4096 */
	n = rr2e_initxch(msg, 65536, 1, BKREQSUP_GENL);
	rr2e_deliver(test, sv, msg, n, out, &olen);
	KUNIT_EXPECT_EQ(test, sv->send_inline, 4096U);
	KUNIT_EXPECT_EQ(test, sv->peer_props.brs, (u32)RDMA2_RVRSDIR_SIMPLE);
	KUNIT_EXPECT_FALSE(test, rpcrdma2_xch_no_reminv(sv));

	/* 512 is not believed: the default stays */
	n = rr2e_initxch(msg, 512, 1, BKREQSUP_INLINE);
	rr2e_deliver(test, sv, msg, n, out, &olen);
	KUNIT_EXPECT_EQ(test, sv->send_inline, 4096U);
	KUNIT_EXPECT_EQ(test, sv->xch.received, 3U);
}

/*
 * XCH-XOP-18, XCH-XOP-19, XCH-XOP-20, XCH-XOP-21, XCH-XOP-05, XCH-XOP-08,
 * XCH-INLINE-01, XCH-INLINE-03: one RESPXCH
 * under the REQXCH's xid whose done and rej cover every element once,
 * by position: an unknown id and a nochg one are rejected, RBSIZ
 * (its last occurrence) is granted when the posted Receives hold it,
 * and our receive limit follows.  A REQXCH with more elements than a
 * RESPXCH can name is BAD_XDR (V2-SEC-17).
 */
static void xch_xop_21_respxch_covers_request(struct kunit *test)
{
	/*
	 * asserts XCH-INLINE-01: RBSIZ is granted only up to the posted Receive
	 * size
	 */
	struct rpcrdma2_conn *sv = rr2e_conn(test, 2, true, false);
	u8 *msg = kunit_kzalloc(test, 2048, GFP_KERNEL);
	struct rpcrdma2_hdr h;
	u8 out[256];
	u32 n, olen, i;

	KUNIT_ASSERT_NOT_NULL(test, msg);

	n = rr2e_hdr(msg, 0xabcd, RDMA2_XCH_REQXCH);
	put_unaligned_be32(4, msg + n);
	n += 4;
	n += rr2e_val(msg + n, 0xffffff42, 1);
	n += rr2e_val(msg + n, XCHAR_RBSIZ, 1024);
	n += rr2e_val(msg + n, XCHAR_BRS, BKREQSUP_GENL);
	n += rr2e_val(msg + n, XCHAR_RBSIZ, 3072);
	KUNIT_EXPECT_EQ(test, rr2e_deliver(test, sv, msg, n, out, &olen),
			RPCRDMA2_XCH_ANSWER | RPCRDMA2_XCH_APPLIED);
	rr2e_decode(test, out, olen, &h);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_XCH_RESPXCH);
	KUNIT_EXPECT_EQ(test, h.xid, 0xabcdU);
	KUNIT_EXPECT_EQ(test, h.xch.subset[0][0], 0x8U);	/* done */
	KUNIT_EXPECT_EQ(test, h.xch.subset[1][0], 0x7U);	/* rej */
	KUNIT_EXPECT_EQ(test, h.xch.subset[2][0], 0x0U);	/* pend */
	KUNIT_EXPECT_EQ(test, sv->xch.local.rbsiz, 3072U);
	KUNIT_EXPECT_EQ(test, sv->recv_inline, 3072U);
	KUNIT_EXPECT_EQ(test, sv->send_inline, 4096U);

	/* more than the 4096 octets posted: rejected, nothing changes */
	n = rr2e_hdr(msg, 0xabce, RDMA2_XCH_REQXCH);
	put_unaligned_be32(1, msg + n);
	n += 4;
	n += rr2e_val(msg + n, XCHAR_RBSIZ, 8192);
	KUNIT_EXPECT_EQ(test, rr2e_deliver(test, sv, msg, n, out, &olen),
			RPCRDMA2_XCH_ANSWER);
	rr2e_decode(test, out, olen, &h);
	KUNIT_EXPECT_EQ(test, h.xch.subset[0][0], 0x0U);
	KUNIT_EXPECT_EQ(test, h.xch.subset[1][0], 0x1U);
	KUNIT_EXPECT_EQ(test, sv->recv_inline, 3072U);

	/* 129 elements cannot be answered */
	n = rr2e_hdr(msg, 0xabcf, RDMA2_XCH_REQXCH);
	put_unaligned_be32(129, msg + n);
	n += 4;
	for (i = 0; i < 129; i++)
		n += rr2e_val(msg + n, 0xffffff40, 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_decode_hdr(msg, n, RPCRDMA2_VERS_2,
						  &rr2e_lim, &h),
			RDMA2_ERR_BAD_XDR);
}

/*
 * XCH-INLINE-04, XCH-XOP-12, XCH-XOP-20, XCH-XOP-22, XCH-XOP-24: a
 * requester that asked for a smaller RBSIZ sends no more than that at
 * once; done keeps it, pend keeps it until an UPDXCH with pendclr,
 * rej ends it.  One request at a time.
 */
static void xch_inline_04_request(struct kunit *test)
{
	/*
	 * asserts XCH-XOP-12: the requester takes the RESPXCH (done, pend, rej)
	 */
	struct rpcrdma2_conn *cl = rr2e_conn(test, 2, true, true);
	struct rpcrdma2_conn *sv = rr2e_conn(test, 2, true, false);
	u8 msg[256], out[256];
	u32 n, olen;

	n = rpcrdma2_xch_request_rbsiz(cl, 2048, 1, msg, sizeof(msg));
	KUNIT_ASSERT_NE(test, n, 0U);
	KUNIT_EXPECT_EQ(test, cl->send_inline, 2048U);
	KUNIT_EXPECT_EQ(test, rpcrdma2_xch_request_rbsiz(cl, 3072, 1, out,
							 sizeof(out)), 0U);
	/* the server grants it: done */
	rr2e_deliver(test, sv, msg, n, out, &olen);
	KUNIT_EXPECT_EQ(test, sv->recv_inline, 2048U);
	rr2e_deliver(test, cl, out, olen, msg, &n);
	KUNIT_EXPECT_FALSE(test, cl->xch.req_pending);
	KUNIT_EXPECT_EQ(test, cl->send_inline, 2048U);

	/* pend, then an UPDXCH that settles it */
	n = rpcrdma2_xch_request_rbsiz(cl, 1024, 1, msg, sizeof(msg));
	KUNIT_ASSERT_NE(test, n, 0U);
	n = rr2e_hdr(msg, RPCRDMA2_XCH_XID(RDMA2_XCH_REQXCH),
		     RDMA2_XCH_RESPXCH);
	put_unaligned_be32(0, msg + n);		/* done */
	put_unaligned_be32(0, msg + n + 4);	/* rej */
	put_unaligned_be32(1, msg + n + 8);	/* pend: one word */
	put_unaligned_be32(1, msg + n + 12);
	rr2e_deliver(test, cl, msg, n + 16, out, &olen);
	KUNIT_EXPECT_TRUE(test, cl->xch.req_pending);
	KUNIT_EXPECT_EQ(test, cl->send_inline, 1024U);
	n = rr2e_hdr(msg, 0x99, RDMA2_XCH_UPDXCH);
	n += rr2e_val(msg + n, XCHAR_RBSIZ, 3072);
	put_unaligned_be32(1, msg + n);		/* pendclr */
	rr2e_deliver(test, cl, msg, n + 4, out, &olen);
	KUNIT_EXPECT_FALSE(test, cl->xch.req_pending);
	KUNIT_EXPECT_EQ(test, cl->send_inline, 3072U);

	/* rej ends the request: back to the peer's RBSIZ */
	n = rpcrdma2_xch_request_rbsiz(cl, 1024, 1, msg, sizeof(msg));
	KUNIT_ASSERT_NE(test, n, 0U);
	KUNIT_EXPECT_EQ(test, cl->send_inline, 1024U);
	n = rr2e_hdr(msg, RPCRDMA2_XCH_XID(RDMA2_XCH_REQXCH),
		     RDMA2_XCH_RESPXCH);
	put_unaligned_be32(0, msg + n);
	put_unaligned_be32(1, msg + n + 4);
	put_unaligned_be32(1, msg + n + 8);
	put_unaligned_be32(0, msg + n + 12);
	rr2e_deliver(test, cl, msg, n + 16, out, &olen);
	KUNIT_EXPECT_FALSE(test, cl->xch.req_pending);
	KUNIT_EXPECT_EQ(test, cl->send_inline, 3072U);
	/* a RESPXCH under another xid is stale: ignored */
	put_unaligned_be32(0x1234, msg);
	KUNIT_EXPECT_EQ(test, rr2e_deliver(test, cl, msg, n + 16, out, &olen),
			0);
}

/*
 * XCH-INLINE-02, XCH-INLINE-03, XCH-XOP-10, XCH-XOP-25: our RBSIZ rises
 * unasked only up to the posted Receive size, with pendclr FALSE, and
 * never falls unasked; the peer's send limit follows the rise, still
 * capped by what Version 2 settled.
 */
static void xch_inline_02_update(struct kunit *test)
{
	/*
	 * asserts XCH-XOP-10: an unasked change only raises RBSIZ, within what
	 * is posted
	 */
	struct rpcrdma2_conn *cl = rr2e_conn(test, 2, true, true);
	struct rpcrdma2_conn *sv = rr2e_conn(test, 2, true, false);
	struct rpcrdma2_hdr h;
	u8 msg[256], out[256];
	u32 n, olen;

	/* the client asks for 2048, the server grants it */
	n = rpcrdma2_xch_request_rbsiz(cl, 2048, 1, msg, sizeof(msg));
	rr2e_deliver(test, sv, msg, n, out, &olen);
	rr2e_deliver(test, cl, out, olen, msg, &n);
	KUNIT_EXPECT_EQ(test, cl->send_inline, 2048U);

	KUNIT_EXPECT_EQ(test, rpcrdma2_xch_update_rbsiz(sv, 1024, 1, msg,
							sizeof(msg)), 0U);
	KUNIT_EXPECT_EQ(test, rpcrdma2_xch_update_rbsiz(sv, 8192, 1, msg,
							sizeof(msg)), 0U);
	n = rpcrdma2_xch_update_rbsiz(sv, 4096, 1, msg, sizeof(msg));
	rr2e_decode(test, msg, n, &h);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_XCH_UPDXCH);
	KUNIT_EXPECT_EQ(test, h.xch.chars.rbsiz, 4096U);
	KUNIT_EXPECT_FALSE(test, h.xch.pendclr);
	KUNIT_EXPECT_EQ(test, sv->recv_inline, 4096U);
	KUNIT_EXPECT_EQ(test, rpcrdma2_xch_recv(cl, &h, 1, out, sizeof(out),
						&olen),
			RPCRDMA2_XCH_APPLIED);
	KUNIT_EXPECT_EQ(test, cl->send_inline, 4096U);
}

/*
 * XCH-XOP-11: an INVAL_HTYPE under our INITXCH's xid turns the exchange
 * off and restores the settled limits; later operations are refused
 * by the codec as before.  XCH-XOP-09: under our REQXCH's xid it only
 * ends the request.  Any other error is not the exchange's.
 */
static void xch_xop_11_refused(struct kunit *test)
{
	/*
	 * asserts V2-ERR-19 for the htypes the client sends that a peer
	 * may not take: after INVAL_HTYPE under INITXCH's xid, no REQXCH
	 * is built again (the last check)
	 */
	struct rpcrdma2_conn *sv = rr2e_conn(test, 2, true, false);
	struct rpcrdma2_hdr h;
	u8 msg[256], out[256];
	u32 n, olen;

	n = rpcrdma2_xch_request_rbsiz(sv, 2048, 1, msg, sizeof(msg));
	KUNIT_ASSERT_NE(test, n, 0U);
	n = rpcrdma2_encode_error(msg, sizeof(msg), 2,
				  RPCRDMA2_XCH_XID(RDMA2_XCH_REQXCH), 2, 1,
				  RDMA2_ERR_INVAL_HTYPE, 0, 0);
	rr2e_decode(test, msg, n, &h);
	KUNIT_EXPECT_TRUE(test, rpcrdma2_xch_refused(sv, &h));
	KUNIT_EXPECT_TRUE(test, sv->xch.on);
	KUNIT_EXPECT_FALSE(test, sv->xch.req_pending);
	KUNIT_EXPECT_EQ(test, sv->send_inline, 4096U);

	n = rr2e_initxch(msg, 2048, 1, BKREQSUP_NONE);
	rr2e_deliver(test, sv, msg, n, out, &olen);
	KUNIT_EXPECT_EQ(test, sv->send_inline, 2048U);

	/* an RPC's INVAL_HTYPE, or another error: not ours */
	n = rpcrdma2_encode_error(msg, sizeof(msg), 2, 0x1234, 2, 1,
				  RDMA2_ERR_INVAL_HTYPE, 0, 0);
	rr2e_decode(test, msg, n, &h);
	KUNIT_EXPECT_FALSE(test, rpcrdma2_xch_refused(sv, &h));
	n = rpcrdma2_encode_error(msg, sizeof(msg), 2,
				  RPCRDMA2_XCH_XID(RDMA2_XCH_INITXCH), 2, 1,
				  RDMA2_ERR_BAD_XDR, 0, 0);
	rr2e_decode(test, msg, n, &h);
	KUNIT_EXPECT_FALSE(test, rpcrdma2_xch_refused(sv, &h));
	KUNIT_EXPECT_TRUE(test, sv->xch.on);

	n = rpcrdma2_encode_error(msg, sizeof(msg), 2,
				  RPCRDMA2_XCH_XID(RDMA2_XCH_INITXCH), 2, 1,
				  RDMA2_ERR_INVAL_HTYPE, 0, 0);
	rr2e_decode(test, msg, n, &h);
	KUNIT_EXPECT_TRUE(test, rpcrdma2_xch_refused(sv, &h));
	KUNIT_EXPECT_FALSE(test, sv->xch.on);
	KUNIT_EXPECT_TRUE(test, sv->xch.refused);
	KUNIT_EXPECT_EQ(test, sv->send_inline, 4096U);
	KUNIT_EXPECT_EQ(test, sv->peer_props.brs, (u32)RDMA2_RVRSDIR_SIMPLE);
	KUNIT_EXPECT_FALSE(test, rpcrdma2_xch_no_reminv(sv));
	KUNIT_EXPECT_EQ(test, rpcrdma2_xch_request_rbsiz(sv, 2048, 1, msg,
							 sizeof(msg)), 0U);
}

/*
 * XCH-RDIR-01, XCH-XOP-07: the peer's XCHAR_BRS is INLINE until it
 * says otherwise, so a Version 2 GENL is capped at CONT from the start,
 * and a message that says nothing about it (here a stale RESPXCH,
 * XCH-XOP-20) changes no limit.  Found by the xch fuzz target: the
 * default was applied only at the first exchange message of any kind.
 */
static void xch_rdir_01_default_from_start(struct kunit *test)
{
	struct rpcrdma2_conn *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct rpcrdma2_local l = {
		.max_vers = RPCRDMA2_VERS_2,
		.send_size = 4096,
		.recv_size = 4096,
		.brs = RDMA2_RVRSDIR_GENL,
	};
	struct rpcrdma2_xch_msg m = { };
	struct rpcrdma2_hdr h;
	u8 msg[128], out[128];
	u32 n, olen;

	KUNIT_ASSERT_NOT_NULL(test, c);
	rpcrdma2_conn_init(c, &rr2e_pdata);
	c->vers = RPCRDMA2_VERS_2;
	c->peer_props.brs = RDMA2_RVRSDIR_GENL;
	rpcrdma2_conn_thresholds(c, &l);
	rpcrdma2_xch_start(c, &l, true, false);
	KUNIT_EXPECT_EQ(test, c->peer_props.brs, (u32)RDMA2_RVRSDIR_CONT);

	m.subset[0][0] = 1;
	n = rpcrdma2_encode_xch(msg, sizeof(msg),
				RPCRDMA2_XCH_XID(RDMA2_XCH_REQXCH), 1,
				RDMA2_XCH_RESPXCH, &m);
	rr2e_decode(test, msg, n, &h);
	KUNIT_EXPECT_EQ(test, rpcrdma2_xch_recv(c, &h, 1, out, sizeof(out),
						&olen), 0);
	KUNIT_EXPECT_EQ(test, c->peer_props.brs, (u32)RDMA2_RVRSDIR_CONT);
	KUNIT_EXPECT_EQ(test, c->send_inline, 4096U);

	/* the peer says GENL: Version 2's value again */
	n = rr2e_initxch(msg, 4096, 0, BKREQSUP_GENL);
	rr2e_deliver(test, c, msg, n, out, &olen);
	KUNIT_EXPECT_EQ(test, c->peer_props.brs, (u32)RDMA2_RVRSDIR_GENL);

	/* refused: the settled value, as it was before the exchange */
	n = rpcrdma2_encode_error(msg, sizeof(msg), 2,
				  RPCRDMA2_XCH_XID(RDMA2_XCH_INITXCH), 2, 1,
				  RDMA2_ERR_INVAL_HTYPE, 0, 0);
	rr2e_decode(test, msg, n, &h);
	KUNIT_EXPECT_TRUE(test, rpcrdma2_xch_refused(c, &h));
	KUNIT_EXPECT_EQ(test, c->peer_props.brs, (u32)RDMA2_RVRSDIR_GENL);
}

static struct kunit_case rr2e_cases[] = {
	KUNIT_CASE(xch_xop_11_off_and_never_v1),
	KUNIT_CASE(xch_inline_05_initxch),
	KUNIT_CASE(xch_rinv_01_initxch_applied),
	KUNIT_CASE(xch_xop_21_respxch_covers_request),
	KUNIT_CASE(xch_inline_04_request),
	KUNIT_CASE(xch_inline_02_update),
	KUNIT_CASE(xch_xop_11_refused),
	KUNIT_CASE(xch_rdir_01_default_from_start),
	{ }
};

static struct kunit_suite rr2e_suite = {
	.name		= "rpcrdma2_xch",
	.test_cases	= rr2e_cases,
};

kunit_test_suites(&rr2e_suite);
