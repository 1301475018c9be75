// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rpcrdma2_exchange": host authentication with both halves,
 * and the seed 004 characteristics exchange (xchar=1) from a raw client
 * and rpcrdma2 to rpcrdma2.
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

static void rr2r_hostauth_reset(void *data)
{
	rpcrdma2_test_set_hostauth("");
}

/*
 * V2-PROP-09: with the hostauth parameter set, each half sends it as
 * HOSTAUTH in its CONNPROP and the other keeps what it received (a
 * trailing newline, as echo leaves, is not sent); the server counts
 * the client.  Nothing checks it: the connection carries on.
 */
static void rr2r_hostauth_both_halves(struct kunit *test)
{
	struct rpc_clnt *clnt;
	struct rr2s_conn *c;
	struct rr2c *r;
	unsigned long before;

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_hostauth_reset,
							   NULL));
	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	before = rr2r_sysctl_read(test, "rpcrdma2_hostauth");
	rpcrdma2_test_set_hostauth("kunit-host-key\n");
	clnt = rr2r_clnt(test);
	r = rr2c(rr2r_xprt(clnt));
	c = rr2r_svc_conn_from(test, (struct sockaddr *)
			       &r->id->route.addr.src_addr);
	KUNIT_EXPECT_EQ(test, c->link.conn.peer_hostauth_len, 14);
	KUNIT_EXPECT_EQ(test, memcmp(c->link.conn.peer_hostauth, "kunit-host-key",
				     14), 0);
	KUNIT_EXPECT_EQ(test, r->link.conn.peer_hostauth_len, 14);
	KUNIT_EXPECT_EQ(test, memcmp(r->link.conn.peer_hostauth, "kunit-host-key",
				     14), 0);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "rpcrdma2_hostauth"),
			before + 1);
	rr2r_roundtrip(test, clnt, rr2r_pages(test), 5000);
}

/* ---- the seed 004 characteristics exchange (xchar=1) ---- */

static void rr2r_xchar_off(void *data)
{
	rpcrdma2_test_set_xchar(false, false);
}

static void rr2r_xchar(struct kunit *test, bool clnt, bool svc)
{
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, rr2r_xchar_off, NULL));
	rpcrdma2_test_set_xchar(clnt, svc);
}

static u32 rr2r_xch_hdr(u8 *b, u32 xid, u32 htype)
{
	return rr2r_hdr(b, xid, RPCRDMA2_VERS_2, htype, 0);
}

static u32 rr2r_xch_val(u8 *b, u32 which, u32 v)
{
	put_unaligned_be32(which, b);
	put_unaligned_be32(4, b + 4);
	put_unaligned_be32(v, b + 8);
	return 12;
}

/* An INITXCH as a raw client: RBSIZ, REQREMINV, BRS; empty nochg. */
static u32 rr2r_xch_init(u8 *b, u32 rbsiz, u32 reqreminv, u32 brs)
{
	u32 n = rr2r_xch_hdr(b, 0x51, RDMA2_XCH_INITXCH);

	put_unaligned_be32(3, b + n);
	n += 4;
	n += rr2r_xch_val(b + n, XCHAR_RBSIZ, rbsiz);
	n += rr2r_xch_val(b + n, XCHAR_REQREMINV, reqreminv);
	n += rr2r_xch_val(b + n, XCHAR_BRS, brs);
	put_unaligned_be32(0, b + n);
	return n + 4;
}

/* A REQXCH for one RBSIZ. */
static u32 rr2r_xch_req(u8 *b, u32 xid, u32 rbsiz)
{
	u32 n = rr2r_xch_hdr(b, xid, RDMA2_XCH_REQXCH);

	put_unaligned_be32(1, b + n);
	return n + 4 + rr2r_xch_val(b + n + 4, XCHAR_RBSIZ, rbsiz);
}

/*
 * The server half with the exchange, against a raw client.
 * XCH-XOP-11: with xchar off the server sends no INITXCH and answers
 * one with INVAL_HTYPE, exactly as any unknown header type.
 * XCH-XOP-16, XCH-XOP-14, XCH-XOP-15: with it on, its INITXCH follows
 * its CONNPROP.  Applied: the client's RBSIZ lowers the server's send
 * limit, BRS NONE stops reverse Calls (XCH-RDIR-01), REQREMINV
 * FALSE stops Send With Invalidate (XCH-RINV-01).  XCH-XOP-18, XCH-XOP-19,
 * XCH-XOP-21:
 * a REQXCH gets one RESPXCH under its xid, RBSIZ done, and the
 * server's receive limit follows (XCH-INLINE-03).  XCH-INLINE-02: a
 * max_req_size change lets it rise again by UPDXCH, before the next
 * Reply.  V2-SEC-17, XCH-XOP-03: a REQXCH that runs past its end is
 * BAD_XDR and the connection carries on.
 */
static void rr2r_xch_svc(struct kunit *test)
{
	/*
	 * asserts XCH-XOP-03: a REQXCH running past its end draws an XDR error
	 */
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;
	struct rr2s_conn *c;
	u8 msg[256];
	u32 n;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, rr2r_knobs_reset, NULL));
	/* the 4096-octet Receives this case reasons in */
	KUNIT_ASSERT_EQ(test, 0,
			rr2r_sysctl_write(test, "max_req_size", "4096"));
	rr2r_xchar(test, true, false);

	/* off */
	raw = rr2r_raw_n(test, 4);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	n = rr2r_xch_init(msg, 2048, 0, BKREQSUP_NONE);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.xid, 0x51);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_INVAL_HTYPE);
	c = rr2r_svc_conn(test, raw);
	KUNIT_EXPECT_FALSE(test, c->link.conn.xch.on);
	KUNIT_EXPECT_EQ(test, c->link.conn.send_inline, 4096);
	rr2r_null_grant(test, raw, 0x50);

	/* on */
	rpcrdma2_test_set_xchar(false, true);
	raw = rr2r_raw_n(test, 4);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_XCH_INITXCH);
	KUNIT_EXPECT_EQ(test, h.xid, RPCRDMA2_XCH_XID(RDMA2_XCH_INITXCH));
	KUNIT_EXPECT_EQ(test, h.xch.chars.present, 0x5);
	KUNIT_EXPECT_EQ(test, h.xch.chars.rbsiz, 4096);
	KUNIT_EXPECT_EQ(test, h.xch.chars.brs, BKREQSUP_INLINE);
	KUNIT_EXPECT_EQ(test, h.xch.subset[0][0], 0x2);

	n = rr2r_xch_init(msg, 2048, 0, BKREQSUP_NONE);
	rr2r_raw_send(test, raw, msg, n);
	n = rr2r_xch_req(msg, 0x61, 2048);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_XCH_RESPXCH);
	KUNIT_EXPECT_EQ(test, h.xid, 0x61);
	KUNIT_EXPECT_EQ(test, h.xch.subset[0][0], 1);	/* done */
	KUNIT_EXPECT_EQ(test, h.xch.subset[1][0], 0);
	c = rr2r_svc_conn(test, raw);
	KUNIT_EXPECT_TRUE(test, c->link.conn.xch.on);
	KUNIT_EXPECT_EQ(test, c->link.conn.xch.received, 2);
	KUNIT_EXPECT_EQ(test, c->link.conn.send_inline, 2048);
	KUNIT_EXPECT_EQ(test, c->link.conn.recv_inline, 2048);
	KUNIT_EXPECT_EQ(test, c->link.conn.peer_props.brs, RDMA2_RVRSDIR_NONE);
	KUNIT_EXPECT_TRUE(test, rpcrdma2_xch_no_reminv(&c->link.conn));

	/* the knob: an UPDXCH back to the posted 4096, then the Reply */
	KUNIT_EXPECT_EQ(test, 0,
			rr2r_sysctl_write(test, "max_req_size", "8192"));
	n = rr2r_msg2(msg, 0x62, 0);
	n += rr2r_rpc_call(msg + n, 0x62, RR2R_PROG, RR2R_NULL);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_XCH_UPDXCH);
	KUNIT_EXPECT_EQ(test, h.xch.chars.present, 0x1);
	KUNIT_EXPECT_EQ(test, h.xch.chars.rbsiz, 4096);
	KUNIT_EXPECT_FALSE(test, h.xch.pendclr);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_MSG);
	KUNIT_EXPECT_EQ(test, h.xid, 0x62);
	KUNIT_EXPECT_EQ(test, c->link.conn.recv_inline, 4096);

	/* hostile: an xcharval longer than the message */
	n = rr2r_xch_hdr(msg, 0x63, RDMA2_XCH_REQXCH);
	put_unaligned_be32(1, msg + n);
	put_unaligned_be32(XCHAR_RBSIZ, msg + n + 4);
	put_unaligned_be32(400, msg + n + 8);
	rr2r_raw_send(test, raw, msg, n + 16);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.xid, 0x63);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_BAD_XDR);
	rr2r_null_grant(test, raw, 0x64);
	KUNIT_EXPECT_TRUE(test, c->link.conn.xch.on);
}

/*
 * Both halves, rpcrdma2 to rpcrdma2.  XCH-XOP-16: both on, each takes
 * the other's INITXCH and RPCs run (XCH-XOP-13).  XCH-XOP-11: with one
 * end off, that end answers the other's INITXCH with INVAL_HTYPE, the
 * exchange goes off on the connection and nothing else changes: no
 * RPC fails, the thresholds are what Version 2 settled.  XCH-XOP-01:
 * never on Version 1.
 */
static void rr2r_xch_both_halves(struct kunit *test)
{
	/* asserts XCH-XOP-13: both halves take the other's INITXCH */
	struct rpc_clnt *clnt;
	struct page **pages;
	struct rr2c *r;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, rr2r_knobs_reset, NULL));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_clnt_knobs_reset,
							   NULL));
	/* the 4096-octet buffers this case reasons in, on both ends */
	KUNIT_ASSERT_EQ(test, 0,
			rr2r_sysctl_write(test, "max_req_size", "4096"));
	KUNIT_ASSERT_EQ(test, 0,
			rr2r_sysctl_write(test, "rdma_max_inline_read", "4096"));
	KUNIT_ASSERT_EQ(test, 0,
			rr2r_sysctl_write(test, "rdma_max_inline_write", "4096"));
	pages = rr2r_pages(test);
	rr2r_xchar(test, true, true);
	clnt = rr2r_clnt(test);
	rr2r_roundtrip(test, clnt, pages, 20000);
	r = rr2c(rr2r_xprt(clnt));
	KUNIT_EXPECT_TRUE(test, r->link.conn.xch.on);
	KUNIT_EXPECT_TRUE(test, r->link.conn.xch.peer_init);
	KUNIT_EXPECT_EQ(test, r->link.conn.xch.sent, 1);
	KUNIT_EXPECT_EQ(test, r->link.conn.xch.received, 1);
	KUNIT_EXPECT_EQ(test, r->link.conn.send_inline, 4096);
	KUNIT_EXPECT_EQ(test, r->stats.errors, 0);

	/* the server off: it refuses the client's INITXCH */
	rpcrdma2_test_set_xchar(true, false);
	clnt = rr2r_clnt(test);
	rr2r_roundtrip(test, clnt, pages, 20000);
	r = rr2c(rr2r_xprt(clnt));
	KUNIT_EXPECT_FALSE(test, r->link.conn.xch.on);
	KUNIT_EXPECT_TRUE(test, r->link.conn.xch.refused);
	KUNIT_EXPECT_EQ(test, r->link.conn.send_inline, 4096);
	KUNIT_EXPECT_EQ(test, r->stats.errors, 0);
	KUNIT_EXPECT_EQ(test, r->stats.bad_xids, 0);

	/* the client off: it refuses the server's */
	rpcrdma2_test_set_xchar(false, true);
	clnt = rr2r_clnt(test);
	rr2r_roundtrip(test, clnt, pages, 20000);
	r = rr2c(rr2r_xprt(clnt));
	KUNIT_EXPECT_FALSE(test, r->link.conn.xch.on);
	KUNIT_EXPECT_EQ(test, r->stats.errors_sent, 1);
	KUNIT_EXPECT_EQ(test, r->link.conn.send_inline, 4096);

	/* Version 1: never */
	rpcrdma2_test_set_xchar(true, true);
	clnt = rr2r_start(test, RPCRDMA2_VERS_1, RPCRDMA2_VERS_2, NULL);
	rr2r_roundtrip(test, clnt, pages, 20000);
	r = rr2c(rr2r_xprt(clnt));
	KUNIT_EXPECT_EQ(test, r->link.conn.vers, RPCRDMA2_VERS_1);
	KUNIT_EXPECT_FALSE(test, r->link.conn.xch.on);
	KUNIT_EXPECT_EQ(test, r->link.conn.xch.sent, 0);
	KUNIT_EXPECT_EQ(test, r->stats.errors_sent, 0);
}

static struct kunit_case rr2r_cases[] = {
	KUNIT_CASE_PARAM(rr2r_hostauth_both_halves, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_xch_svc, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_xch_both_halves, rr2r_link_gen_params),
	{}
};

static struct kunit_suite rr2r_suite = {
	.name		= "rpcrdma2_exchange",
	.suite_init	= rr2r_suite_init,
	.suite_exit	= rr2r_suite_exit,
	.test_cases	= rr2r_cases,
};

kunit_test_suite(rr2r_suite);
