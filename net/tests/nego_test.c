// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rpcrdma2_nego": connect-time settlement on its own
 * (version negotiation, CONNPROP exchange, inline thresholds), with both
 * ends simulated in memory.  The soft-RDMA suite runs the same exchange
 * over rxe and siw.
 */

#include <kunit/test.h>
#include <linux/unaligned.h>

#include "shared/nego.h"

static const struct rpcrdma2_cm_pdata rr2n_no_pdata = {
	.send_size = RPCRDMA2_V1_DEF_INLINE,
	.recv_size = RPCRDMA2_V1_DEF_INLINE,
};

#define RR2N_BUF	4096

static u8 *rr2n_buf(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, RR2N_BUF, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	return buf;
}

static void rr2n_local(struct rpcrdma2_local *l, u32 vers, u32 size)
{
	memset(l, 0, sizeof(*l));
	l->max_vers = vers;
	l->send_size = size;
	l->recv_size = size;
	l->max_seg_size = 1 << 20;
	l->max_segs = 16;
	l->credits = rpcrdma2_credit_word(32, 32);
}

/* V2-FRAME-15, V2-INLINE-03/05, V2-PROP-10: the client's first message. */
static void v2_inline_03_hello(struct kunit *test)
{
	struct rpcrdma2_local l;
	struct rpcrdma2_hdr hdr;
	struct rpcrdma2_limits lim = { 1, 1, 1 };
	u8 *buf = rr2n_buf(test);
	u32 len;

	rr2n_local(&l, 2, 4096);
	len = rpcrdma2_nego_client_hello(&l, 1, buf, RR2N_BUF);
	KUNIT_ASSERT_GT(test, len, 0U);
	KUNIT_EXPECT_LE(test, len, (u32)RPCRDMA2_V1_DEF_INLINE);
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode_hdr(buf, len, 2, &lim, &hdr), 0);
	KUNIT_EXPECT_EQ(test, hdr.vers, 2U);
	KUNIT_EXPECT_EQ(test, hdr.htype, (u32)RDMA2_CONNPROP);
	KUNIT_EXPECT_EQ(test, hdr.flags, 0U);	/* final, not a response */
	KUNIT_EXPECT_EQ(test, hdr.props.rbsiz, 4096U);
	/* rdmavers=1: no CONNPROP at all */
	rr2n_local(&l, 1, 4096);
	KUNIT_EXPECT_EQ(test, rpcrdma2_nego_client_hello(&l, 1, buf, RR2N_BUF),
			0U);
}

/* V2-FRAME-16, V2-INLINE-06/07/08: Version 2 both ways, props used. */
static void v2_frame_16_v2_both(struct kunit *test)
{
	struct rpcrdma2_local cl, sl;
	struct rpcrdma2_conn cc, sc;
	u8 *hello = rr2n_buf(test), *reply = rr2n_buf(test);
	u32 hlen, rlen;

	rr2n_local(&cl, 2, 4096);
	rr2n_local(&sl, 2, 8192);
	rpcrdma2_conn_init(&cc, &rr2n_no_pdata);
	rpcrdma2_conn_init(&sc, &rr2n_no_pdata);
	hlen = rpcrdma2_nego_client_hello(&cl, 7, hello, RR2N_BUF);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(&sc, &sl, hello, hlen,
							reply, RR2N_BUF, &rlen),
			RPCRDMA2_NEGO_REPLY);
	KUNIT_EXPECT_EQ(test, sc.vers, 2U);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_client_recv(&cc, &cl, reply, rlen),
			RPCRDMA2_NEGO_DONE);
	KUNIT_EXPECT_EQ(test, cc.vers, 2U);
	KUNIT_EXPECT_EQ(test, cc.peer_props.rbsiz, 8192U);
	KUNIT_EXPECT_EQ(test, cc.send_inline, 4096U);
	KUNIT_EXPECT_EQ(test, sc.send_inline, 4096U);	/* client's RBSIZ */
	KUNIT_EXPECT_EQ(test, sc.recv_inline, 4096U);	/* client's SBSIZ */
}

/* V2-FRAME-17/18/23, E-12, E-13: v2 client, v1-only server. */
static void v2_frame_18_fallback_to_v1(struct kunit *test)
{
	struct rpcrdma2_cm_pdata spd = {
		.remote_inv = true, .send_size = 4096, .recv_size = 4096,
	};
	struct rpcrdma2_local cl, sl;
	struct rpcrdma2_conn cc, sc;
	u8 *hello = rr2n_buf(test), *reply = rr2n_buf(test);
	u32 hlen, rlen;

	rr2n_local(&cl, 2, 4096);
	rr2n_local(&sl, 1, 4096);
	rpcrdma2_conn_init(&cc, &spd);
	rpcrdma2_conn_init(&sc, &rr2n_no_pdata);
	hlen = rpcrdma2_nego_client_hello(&cl, 0x1234, hello, RR2N_BUF);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(&sc, &sl, hello, hlen,
							reply, RR2N_BUF, &rlen),
			RPCRDMA2_NEGO_REJECT);
	/* RFC 8166 layout, the ingress vers echoed: 28 octets (E-13) */
	KUNIT_ASSERT_EQ(test, rlen, 28U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(reply), 0x1234U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(reply + 4), 2U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(reply + 16), (u32)ERR_VERS);
	KUNIT_EXPECT_EQ(test, sc.vers, 0U);	/* not settled by an error */
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_client_recv(&cc, &cl, reply, rlen),
			RPCRDMA2_NEGO_DONE);
	KUNIT_EXPECT_EQ(test, cc.vers, 1U);
	/* V2-INLINE-04, CMP: v1 thresholds come from the RFC 8797 record */
	KUNIT_EXPECT_EQ(test, cc.send_inline, 4096U);
	KUNIT_EXPECT_TRUE(test, cc.peer_remote_inv);
}

/* V2-FRAME-20, CMP-INLINE-01: a v1 client's RPC settles Version 1. */
static void v2_frame_20_v1_client(struct kunit *test)
{
	static const u32 call[] = { 5, 1, 32, RDMA_MSG, 0, 0, 0, 5, 0 };
	struct rpcrdma2_local sl;
	struct rpcrdma2_conn sc;
	u8 msg[sizeof(call)], out[64];
	u32 i, olen;

	for (i = 0; i < ARRAY_SIZE(call); i++)
		put_unaligned_be32(call[i], msg + 4 * i);
	rr2n_local(&sl, 2, 8192);
	rpcrdma2_conn_init(&sc, &rr2n_no_pdata);	/* no private data */
	KUNIT_EXPECT_EQ(test, rpcrdma2_nego_server_recv(&sc, &sl, msg,
							sizeof(msg), out,
							sizeof(out), &olen),
			RPCRDMA2_NEGO_RPC);
	KUNIT_EXPECT_EQ(test, sc.vers, 1U);
	KUNIT_EXPECT_EQ(test, sc.send_inline, 1024U);
	KUNIT_EXPECT_EQ(test, sc.recv_inline, 1024U);
}

/* V2-ERR-13: an unknown version gets the supported range, v2 layout. */
static void v2_err_13_unknown_version(struct kunit *test)
{
	static const u32 msg3[] = { 9, 3, 1, RDMA2_MSG, 0, 0, 0, 0, 0 };
	struct rpcrdma2_local sl;
	struct rpcrdma2_conn sc;
	u8 msg[sizeof(msg3)], out[64];
	u32 i, olen;

	for (i = 0; i < ARRAY_SIZE(msg3); i++)
		put_unaligned_be32(msg3[i], msg + 4 * i);
	rr2n_local(&sl, 2, 4096);
	rpcrdma2_conn_init(&sc, &rr2n_no_pdata);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(&sc, &sl, msg,
							sizeof(msg), out,
							sizeof(out), &olen),
			RPCRDMA2_NEGO_REJECT);
	KUNIT_ASSERT_EQ(test, olen, 32U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(out + 4), 3U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(out + 20), (u32)RDMA2_ERR_VERS);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(out + 24), 1U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(out + 28), 2U);
}

/* E-35, V2-ERR-31: BAD_PROPVAL leaves the client waiting, not failed. */
static void v2_err_31_bad_propval(struct kunit *test)
{
	struct rpcrdma2_local cl;
	struct rpcrdma2_conn cc;
	u8 err[64];
	u32 len;

	rr2n_local(&cl, 2, 4096);
	rpcrdma2_conn_init(&cc, &rr2n_no_pdata);
	len = rpcrdma2_encode_error(err, sizeof(err), 2, 1, 2, 1,
				    RDMA2_ERR_BAD_PROPVAL, 0, 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_nego_client_recv(&cc, &cl, err, len),
			RPCRDMA2_NEGO_MORE);
	KUNIT_EXPECT_EQ(test, cc.vers, 0U);
	/* any other error, or a non-CONNPROP, fails the connection */
	len = rpcrdma2_encode_error(err, sizeof(err), 2, 1, 2, 1,
				    RDMA2_ERR_INVAL_HTYPE, 0, 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_nego_client_recv(&cc, &cl, err, len),
			RPCRDMA2_NEGO_FAIL);
	len = rpcrdma2_encode_credit_grant(err, sizeof(err), 1);
	KUNIT_EXPECT_EQ(test, rpcrdma2_nego_client_recv(&cc, &cl, err, len),
			RPCRDMA2_NEGO_FAIL);
}

/* V2-PROP-19: a peer RBSIZ below 1024 is not believed. */
static void v2_prop_19_sanity(struct kunit *test)
{
	struct rpcrdma2_local l;
	struct rpcrdma2_conn c;

	rr2n_local(&l, 2, 8192);
	rpcrdma2_conn_init(&c, &rr2n_no_pdata);
	c.vers = 2;
	c.peer_props.rbsiz = 100;
	c.peer_props.sbsiz = 2048;
	rpcrdma2_conn_thresholds(&c, &l);
	KUNIT_EXPECT_EQ(test, c.send_inline, 4096U);
	KUNIT_EXPECT_EQ(test, c.recv_inline, 2048U);
}

static struct kunit_case rr2n_cases[] = {
	KUNIT_CASE(v2_inline_03_hello),
	KUNIT_CASE(v2_frame_16_v2_both),
	KUNIT_CASE(v2_frame_18_fallback_to_v1),
	KUNIT_CASE(v2_frame_20_v1_client),
	KUNIT_CASE(v2_err_13_unknown_version),
	KUNIT_CASE(v2_err_31_bad_propval),
	KUNIT_CASE(v2_prop_19_sanity),
	{ }
};

static struct kunit_suite rr2n_suite = {
	.name		= "rpcrdma2_nego",
	.test_cases	= rr2n_cases,
};

kunit_test_suites(&rr2n_suite);
