// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rpcrdma2_nego": connect-time settlement on its own
 * (version negotiation, CONNPROP exchange, inline thresholds), with both
 * ends simulated in memory: TPMORE sequences that accumulate, continued
 * (F_MORE) CONNPROPs, a CONNPROP after the final one, BAD_PROPVAL in
 * both directions, and the fallback on either ERR_VERS layout.  The
 * soft-RDMA suite runs the plain exchange over rxe and siw.
 */

#include <kunit/test.h>
#include <linux/unaligned.h>

#include "shared/nego.h"

static const struct rpcrdma2_cm_pdata rr2n_no_pdata = {
	.send_size = RPCRDMA2_V1_DEF_INLINE,
	.recv_size = RPCRDMA2_V1_DEF_INLINE,
};

#define RR2N_BUF	8192

static u8 *rr2n_buf(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, RR2N_BUF, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	return buf;
}

/* A connection state, on the heap: it holds the propset buffer. */
static struct rpcrdma2_conn *rr2n_conn(struct kunit *test,
				       const struct rpcrdma2_cm_pdata *pd)
{
	struct rpcrdma2_conn *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	rpcrdma2_conn_init(c, pd);
	return c;
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

/* V2-FRAME-15, V2-INLINE-03, V2-INLINE-05, V2-PROP-10: the first message. */
static void v2_inline_03_hello(struct kunit *test)
{
	/* asserts V2-INLINE-05: the client's CONNPROP fits in 1024 octets */
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
	/*
	 * V2-PROP-19: an end that takes no chunks (the client as a
	 * Responder) still says RCSIZ 1, which a receiver believes
	 */
	l.max_segs = 0;
	len = rpcrdma2_nego_client_hello(&l, 1, buf, RR2N_BUF);
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode_hdr(buf, len, 2, &lim, &hdr), 0);
	KUNIT_EXPECT_TRUE(test,
			  hdr.props.present & (1u << (RDMA2_PROPID_RCSIZ - 1)));
	KUNIT_EXPECT_EQ(test, hdr.props.rcsiz, 1U);
	/* rdmavers=1: no CONNPROP at all */
	rr2n_local(&l, 1, 4096);
	KUNIT_EXPECT_EQ(test, rpcrdma2_nego_client_hello(&l, 1, buf, RR2N_BUF),
			0U);
}

/* V2-FRAME-16, V2-INLINE-06, V2-INLINE-07, V2-INLINE-08: v2, props used. */
static void v2_frame_16_v2_both(struct kunit *test)
{
	/* asserts V2-INLINE-08: each end sends no more than the peer's RBSIZ */
	struct rpcrdma2_conn *cc = rr2n_conn(test, &rr2n_no_pdata);
	struct rpcrdma2_conn *sc = rr2n_conn(test, &rr2n_no_pdata);
	u8 *hello = rr2n_buf(test), *reply = rr2n_buf(test);
	struct rpcrdma2_local cl, sl;
	u32 hlen, rlen, olen;
	u8 out[64];

	rr2n_local(&cl, 2, 4096);
	rr2n_local(&sl, 2, 8192);
	hlen = rpcrdma2_nego_client_hello(&cl, 7, hello, RR2N_BUF);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, hello, hlen,
							reply, RR2N_BUF, &rlen),
			RPCRDMA2_NEGO_REPLY);
	KUNIT_EXPECT_EQ(test, sc->vers, 2U);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_client_recv(cc, &cl, reply, rlen,
							out, sizeof(out),
							&olen),
			RPCRDMA2_NEGO_DONE);
	KUNIT_EXPECT_EQ(test, olen, 0U);
	KUNIT_EXPECT_EQ(test, cc->vers, 2U);
	KUNIT_EXPECT_EQ(test, cc->peer_props.rbsiz, 8192U);
	KUNIT_EXPECT_EQ(test, cc->send_inline, 4096U);
	KUNIT_EXPECT_EQ(test, sc->send_inline, 4096U);	/* client's RBSIZ */
	KUNIT_EXPECT_EQ(test, sc->recv_inline, 4096U);	/* client's SBSIZ */
}

/* V2-FRAME-17, V2-FRAME-18, V2-FRAME-23: v1-only server. */
static void v2_frame_18_fallback_to_v1(struct kunit *test)
{
	/*
	 * asserts V2-FRAME-17: the v1-only server answers ERR_VERS with the
	 * first XID
	 */
	struct rpcrdma2_cm_pdata spd = {
		.remote_inv = true, .send_size = 4096, .recv_size = 4096,
	};
	struct rpcrdma2_conn *cc = rr2n_conn(test, &spd);
	struct rpcrdma2_conn *sc = rr2n_conn(test, &rr2n_no_pdata);
	u8 *hello = rr2n_buf(test), *reply = rr2n_buf(test);
	struct rpcrdma2_local cl, sl;
	u32 hlen, rlen, olen;
	u8 out[64];

	rr2n_local(&cl, 2, 4096);
	rr2n_local(&sl, 1, 4096);
	hlen = rpcrdma2_nego_client_hello(&cl, 0x1234, hello, RR2N_BUF);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, hello, hlen,
							reply, RR2N_BUF, &rlen),
			RPCRDMA2_NEGO_REJECT);
	/* RFC 8166 layout, the ingress vers echoed: 28 octets (V2-FRAME-17) */
	KUNIT_ASSERT_EQ(test, rlen, 28U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(reply), 0x1234U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(reply + 4), 2U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(reply + 16), (u32)ERR_VERS);
	KUNIT_EXPECT_EQ(test, sc->vers, 0U);	/* not settled by an error */
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_client_recv(cc, &cl, reply, rlen,
							out, sizeof(out),
							&olen),
			RPCRDMA2_NEGO_DONE);
	KUNIT_EXPECT_EQ(test, cc->vers, 1U);
	/* V2-INLINE-04, CMP: v1 thresholds come from the RFC 8797 record */
	KUNIT_EXPECT_EQ(test, cc->send_inline, 4096U);
	KUNIT_EXPECT_TRUE(test, cc->peer_remote_inv);
}

/* V2-FRAME-20, CMP-INLINE-01: a v1 client's RPC settles Version 1. */
static void v2_frame_20_v1_client(struct kunit *test)
{
	static const u32 call[] = { 5, 1, 32, RDMA_MSG, 0, 0, 0, 5, 0 };
	/* no private data */
	struct rpcrdma2_conn *sc = rr2n_conn(test, &rr2n_no_pdata);
	struct rpcrdma2_local sl;
	u8 msg[sizeof(call)], out[64];
	u32 i, olen;

	for (i = 0; i < ARRAY_SIZE(call); i++)
		put_unaligned_be32(call[i], msg + 4 * i);
	rr2n_local(&sl, 2, 8192);
	KUNIT_EXPECT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, msg,
							sizeof(msg), out,
							sizeof(out), &olen),
			RPCRDMA2_NEGO_RPC);
	KUNIT_EXPECT_EQ(test, sc->vers, 1U);
	KUNIT_EXPECT_EQ(test, sc->send_inline, 1024U);
	KUNIT_EXPECT_EQ(test, sc->recv_inline, 1024U);
}

/* V2-ERR-13: an unknown version gets the supported range, v2 layout. */
static void v2_err_13_unknown_version(struct kunit *test)
{
	static const u32 msg3[] = { 9, 3, 1, RDMA2_MSG, 0, 0, 0, 0, 0 };
	struct rpcrdma2_conn *sc = rr2n_conn(test, &rr2n_no_pdata);
	struct rpcrdma2_local sl;
	u8 msg[sizeof(msg3)], out[64];
	u32 i, olen;

	for (i = 0; i < ARRAY_SIZE(msg3); i++)
		put_unaligned_be32(msg3[i], msg + 4 * i);
	rr2n_local(&sl, 2, 4096);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, msg,
							sizeof(msg), out,
							sizeof(out), &olen),
			RPCRDMA2_NEGO_REJECT);
	KUNIT_ASSERT_EQ(test, olen, 32U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(out + 4), 3U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(out + 20), (u32)RDMA2_ERR_VERS);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(out + 24), 1U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(out + 28), 2U);
}

/* V2-ERR-31: BAD_PROPVAL leaves the client waiting, not failed. */
static void v2_err_31_bad_propval(struct kunit *test)
{
	struct rpcrdma2_conn *cc = rr2n_conn(test, &rr2n_no_pdata);
	struct rpcrdma2_local cl;
	u8 err[64], out[64];
	u32 len, olen;

	rr2n_local(&cl, 2, 4096);
	len = rpcrdma2_encode_error(err, sizeof(err), 2, 1, 2, 1,
				    RDMA2_ERR_BAD_PROPVAL, 0, 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_nego_client_recv(cc, &cl, err, len, out,
							sizeof(out), &olen),
			RPCRDMA2_NEGO_MORE);
	KUNIT_EXPECT_EQ(test, olen, 0U);
	KUNIT_EXPECT_EQ(test, cc->vers, 0U);
	/* any other error, or a non-CONNPROP, fails the connection */
	len = rpcrdma2_encode_error(err, sizeof(err), 2, 1, 2, 1,
				    RDMA2_ERR_INVAL_HTYPE, 0, 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_nego_client_recv(cc, &cl, err, len, out,
							sizeof(out), &olen),
			RPCRDMA2_NEGO_FAIL);
	len = rpcrdma2_encode_credit_grant(err, sizeof(err), 1);
	KUNIT_EXPECT_EQ(test, rpcrdma2_nego_client_recv(cc, &cl, err, len, out,
							sizeof(out), &olen),
			RPCRDMA2_NEGO_FAIL);
}

/* V2-PROP-19: a peer RBSIZ below 1024 is not believed. */
static void v2_prop_19_sanity(struct kunit *test)
{
	struct rpcrdma2_conn *c = rr2n_conn(test, &rr2n_no_pdata);
	struct rpcrdma2_local l;

	rr2n_local(&l, 2, 8192);
	c->vers = 2;
	c->peer_props.rbsiz = 100;
	c->peer_props.sbsiz = 2048;
	rpcrdma2_conn_thresholds(c, &l);
	KUNIT_EXPECT_EQ(test, c->send_inline, 4096U);
	KUNIT_EXPECT_EQ(test, c->recv_inline, 2048U);
}

/* A CONNPROP carrying the properties set in @present, with @flags. */
static u32 rr2n_connprop(u8 *buf, u32 flags, u32 present, u32 sbsiz,
			 u32 rbsiz, u32 brs)
{
	struct rpcrdma2_props p = {
		.present = present, .sbsiz = sbsiz, .rbsiz = rbsiz,
		.brs = brs,
	};

	return rpcrdma2_encode_connprop(buf, RR2N_BUF,
					rpcrdma2_credit_word(32, 32), flags,
					&p, NULL);
}

#define RR2N_SB		(1u << (RDMA2_PROPID_SBSIZ - 1))
#define RR2N_RB		(1u << (RDMA2_PROPID_RBSIZ - 1))
#define RR2N_BRS	(1u << (RDMA2_PROPID_BRS - 1))

/*
 * Cut the CONNPROP @msg of @len octets into two parts (V2-PROP-16): the
 * first, F_MORE set, carries @cut octets of the propset; the second the
 * rest, with @msg's own flags.
 */
static void rr2n_split(const u8 *msg, u32 len, u32 cut, u8 *p1, u32 *l1,
		       u8 *p2, u32 *l2)
{
	u32 flags = get_unaligned_be32(msg + 16);

	memcpy(p1, msg, 20 + cut);
	put_unaligned_be32(flags | RDMA2_F_MORE, p1 + 16);
	*l1 = 20 + cut;
	memcpy(p2, msg, 20);
	memcpy(p2 + 20, msg + 20 + cut, len - 20 - cut);
	*l2 = len - cut;
}

static void rr2n_expect_error(struct kunit *test, const u8 *out, u32 olen,
			      u32 err)
{
	KUNIT_ASSERT_GE(test, olen, 24U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(out + 4), 2U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(out + 12), (u32)RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(out + 20), err);
}

/* V2-PROP-11: the server's CONNPROPs accumulate at the client. */
static void v2_prop_11_client_accumulates(struct kunit *test)
{
	struct rpcrdma2_conn *cc = rr2n_conn(test, &rr2n_no_pdata);
	u8 *msg = rr2n_buf(test), out[64];
	struct rpcrdma2_local cl;
	u32 len, olen;

	rr2n_local(&cl, 2, 16384);
	len = rr2n_connprop(msg, RDMA2_F_TPMORE, RR2N_SB | RR2N_RB, 8192,
			    8192, 0);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_client_recv(cc, &cl, msg, len, out,
							sizeof(out), &olen),
			RPCRDMA2_NEGO_MORE);
	KUNIT_EXPECT_EQ(test, cc->vers, 0U);
	/* the final part overrides SBSIZ and leaves RBSIZ alone */
	len = rr2n_connprop(msg, 0, RR2N_SB, 16384, 0, 0);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_client_recv(cc, &cl, msg, len, out,
							sizeof(out), &olen),
			RPCRDMA2_NEGO_DONE);
	KUNIT_EXPECT_EQ(test, cc->vers, 2U);
	KUNIT_EXPECT_EQ(test, cc->peer_props.rbsiz, 8192U);
	KUNIT_EXPECT_EQ(test, cc->peer_props.sbsiz, 16384U);
	KUNIT_EXPECT_EQ(test, cc->send_inline, 8192U);
	KUNIT_EXPECT_EQ(test, cc->recv_inline, 16384U);
}

/*
 * V2-PROP-11: the client's CONNPROPs accumulate at the server, which
 * answers only after the final one.
 */
static void v2_prop_11_server_accumulates(struct kunit *test)
{
	struct rpcrdma2_conn *sc = rr2n_conn(test, &rr2n_no_pdata);
	u8 *msg = rr2n_buf(test), *out = rr2n_buf(test);
	struct rpcrdma2_local sl;
	u32 len, olen;

	rr2n_local(&sl, 2, 16384);
	len = rr2n_connprop(msg, RDMA2_F_TPMORE, RR2N_RB, 0, 8192, 0);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, msg, len, out,
							RR2N_BUF, &olen),
			RPCRDMA2_NEGO_MORE);
	KUNIT_EXPECT_EQ(test, olen, 0U);
	KUNIT_EXPECT_EQ(test, sc->vers, 0U);
	len = rr2n_connprop(msg, 0, RR2N_SB, 8192, 0, 0);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, msg, len, out,
							RR2N_BUF, &olen),
			RPCRDMA2_NEGO_REPLY);
	KUNIT_EXPECT_GT(test, olen, 20U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(out + 12),
			(u32)RDMA2_CONNPROP);
	KUNIT_EXPECT_EQ(test, sc->vers, 2U);
	KUNIT_EXPECT_EQ(test, sc->peer_props.rbsiz, 8192U);
	KUNIT_EXPECT_EQ(test, sc->peer_props.sbsiz, 8192U);
	KUNIT_EXPECT_EQ(test, sc->send_inline, 8192U);
}

/* V2-PROP-16: a continued CONNPROP is reassembled, both directions. */
static void v2_prop_16_continued_connprop(struct kunit *test)
{
	struct rpcrdma2_conn *cc = rr2n_conn(test, &rr2n_no_pdata);
	struct rpcrdma2_conn *sc = rr2n_conn(test, &rr2n_no_pdata);
	u8 *msg = rr2n_buf(test), *p1 = rr2n_buf(test), *p2 = rr2n_buf(test);
	u8 *out = rr2n_buf(test);
	struct rpcrdma2_local cl, sl;
	u32 len, l1, l2, olen;

	rr2n_local(&cl, 2, 16384);
	rr2n_local(&sl, 2, 8192);
	/* the client's: cut inside the second propval */
	len = rpcrdma2_nego_client_hello(&cl, 0, msg, RR2N_BUF);
	rr2n_split(msg, len, 18, p1, &l1, p2, &l2);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, p1, l1, out,
							RR2N_BUF, &olen),
			RPCRDMA2_NEGO_MORE);
	KUNIT_EXPECT_EQ(test, sc->vers, 0U);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, p2, l2, out,
							RR2N_BUF, &olen),
			RPCRDMA2_NEGO_REPLY);
	KUNIT_EXPECT_EQ(test, sc->peer_props.rbsiz, 16384U);
	KUNIT_EXPECT_EQ(test, sc->peer_props.sbsiz, 16384U);
	KUNIT_EXPECT_EQ(test, sc->send_inline, 8192U);
	/* the server's: cut inside the first value */
	len = rpcrdma2_nego_server_hello(&sl, msg, RR2N_BUF);
	rr2n_split(msg, len, 10, p1, &l1, p2, &l2);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_client_recv(cc, &cl, p1, l1, out,
							64, &olen),
			RPCRDMA2_NEGO_MORE);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_client_recv(cc, &cl, p2, l2, out,
							64, &olen),
			RPCRDMA2_NEGO_DONE);
	KUNIT_EXPECT_EQ(test, cc->vers, 2U);
	KUNIT_EXPECT_EQ(test, cc->peer_props.rbsiz, 8192U);
}

/*
 * V2-PROP-09: HOSTAUTH travels as opaque material, both ways, in one
 * CONNPROP or split across a continued one, and the receiver keeps it
 * as it came: its length, and its first RPCRDMA2_HOSTAUTH_MAX octets
 * of a longer one.  The client's first message still fits 1024 octets
 * with the most it sends (V2-INLINE-03); absent, nothing is kept.
 */
static void v2_prop_09_hostauth(struct kunit *test)
{
	struct rpcrdma2_conn *cc = rr2n_conn(test, &rr2n_no_pdata);
	struct rpcrdma2_conn *sc = rr2n_conn(test, &rr2n_no_pdata);
	u8 *msg = rr2n_buf(test), *p1 = rr2n_buf(test), *p2 = rr2n_buf(test);
	u8 *out = rr2n_buf(test), *big = rr2n_buf(test);
	struct rpcrdma2_props p = { };
	struct rpcrdma2_local cl, sl;
	u32 len, l1, l2, olen, i;

	rr2n_local(&cl, 2, 4096);
	rr2n_local(&sl, 2, 8192);
	cl.hostauth_len = RPCRDMA2_HOSTAUTH_MAX;
	for (i = 0; i < cl.hostauth_len; i++)
		cl.hostauth[i] = (u8)(i * 3 + 1);
	memcpy(sl.hostauth, "server-key", 10);
	sl.hostauth_len = 10;

	/* the client's, the most it sends, continued: cut inside it */
	len = rpcrdma2_nego_client_hello(&cl, 0, msg, RR2N_BUF);
	KUNIT_ASSERT_GT(test, len, 0U);
	KUNIT_EXPECT_LE(test, len, (u32)RPCRDMA2_V1_DEF_INLINE);
	rr2n_split(msg, len, len - 100, p1, &l1, p2, &l2);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, p1, l1, out,
							RR2N_BUF, &olen),
			RPCRDMA2_NEGO_MORE);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, p2, l2, out,
							RR2N_BUF, &olen),
			RPCRDMA2_NEGO_REPLY);
	KUNIT_EXPECT_EQ(test, sc->peer_hostauth_len, RPCRDMA2_HOSTAUTH_MAX);
	KUNIT_EXPECT_EQ(test, memcmp(sc->peer_hostauth, cl.hostauth,
				     RPCRDMA2_HOSTAUTH_MAX), 0);
	KUNIT_EXPECT_EQ(test, sc->peer_props.rbsiz, 4096U);

	/* the server's, in its one CONNPROP */
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_client_recv(cc, &cl, out, olen,
							msg, 64, &len),
			RPCRDMA2_NEGO_DONE);
	KUNIT_EXPECT_EQ(test, cc->peer_hostauth_len, 10U);
	KUNIT_EXPECT_EQ(test, memcmp(cc->peer_hostauth, "server-key", 10), 0);

	/* longer than is kept: its length, and the start of it */
	for (i = 0; i < 1000; i++)
		big[i] = (u8)(i ^ 0x5a);
	p.present = 1u << (RDMA2_PROPID_HOSTAUTH - 1);
	p.hostauth_len = 1000;
	len = rpcrdma2_encode_connprop(msg, RR2N_BUF,
				       rpcrdma2_credit_word(8, 8), 0, &p, big);
	KUNIT_ASSERT_GT(test, len, 1000U);
	cc = rr2n_conn(test, &rr2n_no_pdata);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_client_recv(cc, &cl, msg, len,
							out, 64, &olen),
			RPCRDMA2_NEGO_DONE);
	KUNIT_EXPECT_EQ(test, cc->peer_hostauth_len, 1000U);
	KUNIT_EXPECT_EQ(test, memcmp(cc->peer_hostauth, big,
				     RPCRDMA2_HOSTAUTH_MAX), 0);

	/* none: nothing kept, and none sent */
	sc = rr2n_conn(test, &rr2n_no_pdata);
	cl.hostauth_len = 0;
	len = rpcrdma2_nego_client_hello(&cl, 0, msg, RR2N_BUF);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, msg, len, out,
							RR2N_BUF, &olen),
			RPCRDMA2_NEGO_REPLY);
	KUNIT_EXPECT_EQ(test, sc->peer_hostauth_len, 0U);
	KUNIT_EXPECT_FALSE(test, sc->peer_props.present &
			   (1u << (RDMA2_PROPID_HOSTAUTH - 1)));
}

/* V2-CONT-06: the parts of a continued CONNPROP share their xid. */
static void v2_cont_06_connprop_xid(struct kunit *test)
{
	struct rpcrdma2_conn *sc = rr2n_conn(test, &rr2n_no_pdata);
	u8 *msg = rr2n_buf(test), *p1 = rr2n_buf(test), *p2 = rr2n_buf(test);
	u8 *out = rr2n_buf(test);
	struct rpcrdma2_local sl;
	u32 len, l1, l2, olen;

	rr2n_local(&sl, 2, 8192);
	len = rr2n_connprop(msg, 0, RR2N_SB | RR2N_RB, 8192, 8192, 0);
	rr2n_split(msg, len, 12, p1, &l1, p2, &l2);
	put_unaligned_be32(5, p2);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, p1, l1, out,
							RR2N_BUF, &olen),
			RPCRDMA2_NEGO_MORE);
	/* INVAL_CONT (V2-ERR-22); the final part still ends the exchange */
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, p2, l2, out,
							RR2N_BUF, &olen),
			RPCRDMA2_NEGO_REJECT_REPLY);
	rr2n_expect_error(test, out, olen, RDMA2_ERR_INVAL_CONT);
	KUNIT_EXPECT_EQ(test, sc->vers, 2U);
	KUNIT_EXPECT_EQ(test, sc->peer_props.rbsiz,
			(u32)RDMA2_PROP_RBSIZ_DEFAULT);
}

/*
 * V2-SEC-17, V2-CONT-09: a continued propset past RPCRDMA2_PROPSET_MAX
 * draws INVAL_CONT; its later parts are dropped, and its final part
 * still settles Version 2 with default properties.
 */
static void v2_sec_17_connprop_cap(struct kunit *test)
{
	struct rpcrdma2_conn *sc = rr2n_conn(test, &rr2n_no_pdata);
	u8 *msg = rr2n_buf(test), *out = rr2n_buf(test);
	struct rpcrdma2_local sl;
	u32 olen;

	rr2n_local(&sl, 2, 8192);
	rr2n_connprop(msg, 0, 0, 0, 0, 0);
	put_unaligned_be32(RDMA2_F_MORE, msg + 16);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, msg, 3020,
							out, RR2N_BUF, &olen),
			RPCRDMA2_NEGO_MORE);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, msg, 3020,
							out, RR2N_BUF, &olen),
			RPCRDMA2_NEGO_REJECT);
	rr2n_expect_error(test, out, olen, RDMA2_ERR_INVAL_CONT);
	KUNIT_EXPECT_EQ(test, sc->vers, 0U);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, msg, 100,
							out, RR2N_BUF, &olen),
			RPCRDMA2_NEGO_MORE);	/* dropped: V2-CONT-10 */
	put_unaligned_be32(0, msg + 16);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, msg, 100,
							out, RR2N_BUF, &olen),
			RPCRDMA2_NEGO_REPLY);
	KUNIT_EXPECT_EQ(test, sc->vers, 2U);
	KUNIT_EXPECT_EQ(test, sc->peer_props.present, 0U);
}

/* V2-PROP-13: a CONNPROP after the client's final one: INVAL_HTYPE. */
static void v2_prop_13_connprop_after_final(struct kunit *test)
{
	struct rpcrdma2_conn *sc = rr2n_conn(test, &rr2n_no_pdata);
	u8 *msg = rr2n_buf(test), *out = rr2n_buf(test);
	struct rpcrdma2_local sl;
	struct rpcrdma2_hdr hdr = { .vers = 2, .htype = RDMA2_CONNPROP };
	u32 len, olen;

	rr2n_local(&sl, 2, 8192);
	len = rr2n_connprop(msg, 0, RR2N_SB, 8192, 0, 0);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, msg, len, out,
							RR2N_BUF, &olen),
			RPCRDMA2_NEGO_REPLY);
	/* still in negotiation at the transport: nego answers itself */
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, msg, len, out,
							RR2N_BUF, &olen),
			RPCRDMA2_NEGO_REJECT);
	rr2n_expect_error(test, out, olen, RDMA2_ERR_INVAL_HTYPE);
	/* settled: the transports ask rpcrdma2_nego_settled_check() */
	KUNIT_EXPECT_EQ(test, rpcrdma2_nego_settled_check(sc, &hdr),
			RDMA2_ERR_INVAL_HTYPE);
	hdr.htype = RDMA2_MSG;
	KUNIT_EXPECT_EQ(test, rpcrdma2_nego_settled_check(sc, &hdr), 0);
	sc->vers = 1;
	hdr.vers = 1;
	KUNIT_EXPECT_EQ(test, rpcrdma2_nego_settled_check(sc, &hdr), 0);
}

/*
 * V2-ERR-29, V2-ERR-30, V2-ERR-31, V2-PROP-18: a bad value in the client's
 * final CONNPROP.  The server answers BAD_PROPVAL, applies none of it,
 * settles Version 2 and sends its CONNPROP; the client, told its
 * properties were not taken, waits for that CONNPROP and settles too.
 */
static void v2_err_29_server_bad_propval(struct kunit *test)
{
	struct rpcrdma2_conn *cc = rr2n_conn(test, &rr2n_no_pdata);
	struct rpcrdma2_conn *sc = rr2n_conn(test, &rr2n_no_pdata);
	u8 *msg = rr2n_buf(test), *out = rr2n_buf(test);
	struct rpcrdma2_local cl, sl;
	u32 len, olen, clen;
	u8 cout[64];

	rr2n_local(&cl, 2, 16384);
	rr2n_local(&sl, 2, 8192);
	len = rr2n_connprop(msg, 0, RR2N_RB | RR2N_BRS, 0, 16384, 7);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, msg, len, out,
							RR2N_BUF, &olen),
			RPCRDMA2_NEGO_REJECT_REPLY);
	rr2n_expect_error(test, out, olen, RDMA2_ERR_BAD_PROPVAL);
	KUNIT_EXPECT_EQ(test, sc->vers, 2U);
	KUNIT_EXPECT_EQ(test, sc->peer_props.rbsiz,
			(u32)RDMA2_PROP_RBSIZ_DEFAULT);
	KUNIT_EXPECT_EQ(test, sc->send_inline, 4096U);
	/* the client gets the error, then the server's CONNPROP */
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_client_recv(cc, &cl, out, olen,
							cout, sizeof(cout),
							&clen),
			RPCRDMA2_NEGO_MORE);
	KUNIT_EXPECT_TRUE(test, cc->own_props_rejected);
	len = rpcrdma2_nego_server_hello(&sl, msg, RR2N_BUF);
	KUNIT_ASSERT_GT(test, len, 0U);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_client_recv(cc, &cl, msg, len,
							cout, sizeof(cout),
							&clen),
			RPCRDMA2_NEGO_DONE);
	KUNIT_EXPECT_EQ(test, cc->vers, 2U);
	KUNIT_EXPECT_EQ(test, cc->peer_props.rbsiz, 8192U);
}

/*
 * V2-ERR-30, V2-ERR-31: a bad value in a CONNPROP with TPMORE set is answered
 * and the server waits; the client's later parts still count.
 */
static void v2_err_30_bad_propval_tpmore(struct kunit *test)
{
	struct rpcrdma2_conn *sc = rr2n_conn(test, &rr2n_no_pdata);
	u8 *msg = rr2n_buf(test), *out = rr2n_buf(test);
	struct rpcrdma2_local sl;
	u32 len, olen;

	rr2n_local(&sl, 2, 16384);
	len = rr2n_connprop(msg, RDMA2_F_TPMORE, RR2N_RB | RR2N_BRS, 0, 16384,
			    9);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, msg, len, out,
							RR2N_BUF, &olen),
			RPCRDMA2_NEGO_REJECT);
	rr2n_expect_error(test, out, olen, RDMA2_ERR_BAD_PROPVAL);
	KUNIT_EXPECT_EQ(test, sc->vers, 0U);
	len = rr2n_connprop(msg, 0, RR2N_SB, 8192, 0, 0);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, msg, len, out,
							RR2N_BUF, &olen),
			RPCRDMA2_NEGO_REPLY);
	KUNIT_EXPECT_EQ(test, sc->peer_props.sbsiz, 8192U);
	KUNIT_EXPECT_EQ(test, sc->peer_props.rbsiz,
			(u32)RDMA2_PROP_RBSIZ_DEFAULT);
}

/*
 * V2-ERR-29: either peer answers a bad value with BAD_PROPVAL.  The
 * client does so for the server's final CONNPROP and settles Version 2
 * with default server properties (V2-PROP-18).
 */
static void v2_err_29_client_bad_propval(struct kunit *test)
{
	struct rpcrdma2_conn *cc = rr2n_conn(test, &rr2n_no_pdata);
	u8 *msg = rr2n_buf(test), out[RPCRDMA2_HDRLEN_ERR_MAX];
	struct rpcrdma2_local cl;
	u32 len, olen;

	rr2n_local(&cl, 2, 16384);
	len = rr2n_connprop(msg, 0, RR2N_RB | RR2N_SB, 2, 16384, 0);
	put_unaligned_be32(3, msg + 28);	/* SBSIZ three octets long */
	put_unaligned_be32(0x1234, msg);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_client_recv(cc, &cl, msg, len, out,
							sizeof(out), &olen),
			RPCRDMA2_NEGO_REPLY);
	rr2n_expect_error(test, out, olen, RDMA2_ERR_BAD_PROPVAL);
	KUNIT_EXPECT_EQ(test, olen, 24U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(out), 0x1234U);
	KUNIT_EXPECT_EQ(test, cc->vers, 2U);
	KUNIT_EXPECT_EQ(test, cc->peer_props.rbsiz,
			(u32)RDMA2_PROP_RBSIZ_DEFAULT);
	KUNIT_EXPECT_EQ(test, cc->send_inline, 4096U);
}

/*
 * V2-FRAME-17, V2-FRAME-18: a Version 2 layout ERR_VERS (32 octets) with
 * [1, 1] settles Version 1 too; a range without 1, or an ERR_VERS that
 * is not the answer to the first message, fails.
 */
static void v2_frame_18_v2_err_vers(struct kunit *test)
{
	struct rpcrdma2_conn *cc = rr2n_conn(test, &rr2n_no_pdata);
	u8 *msg = rr2n_buf(test), out[64], err[64];
	struct rpcrdma2_local cl;
	u32 len, olen;

	rr2n_local(&cl, 2, 4096);
	len = rpcrdma2_encode_error(err, sizeof(err), 2, 1, 2, 7,
				    RDMA2_ERR_VERS, 1, 1);
	KUNIT_ASSERT_EQ(test, len, 32U);
	KUNIT_EXPECT_EQ(test, rpcrdma2_nego_client_recv(cc, &cl, err, len, out,
							sizeof(out), &olen),
			RPCRDMA2_NEGO_DONE);
	KUNIT_EXPECT_EQ(test, cc->vers, 1U);
	KUNIT_EXPECT_EQ(test, cc->send_inline, 1024U);

	rpcrdma2_conn_init(cc, &rr2n_no_pdata);
	len = rpcrdma2_encode_error(err, sizeof(err), 2, 1, 2, 7,
				    RDMA2_ERR_VERS, 2, 3);
	KUNIT_EXPECT_EQ(test, rpcrdma2_nego_client_recv(cc, &cl, err, len, out,
							sizeof(out), &olen),
			RPCRDMA2_NEGO_FAIL);
	KUNIT_EXPECT_EQ(test, cc->vers, 0U);

	/* after a CONNPROP part, ERR_VERS answers nothing of ours */
	rpcrdma2_conn_init(cc, &rr2n_no_pdata);
	len = rr2n_connprop(msg, RDMA2_F_TPMORE, RR2N_SB, 8192, 0, 0);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_client_recv(cc, &cl, msg, len, out,
							sizeof(out), &olen),
			RPCRDMA2_NEGO_MORE);
	len = rpcrdma2_encode_error(err, sizeof(err), 2, 1, 2, 7,
				    RDMA2_ERR_VERS, 1, 1);
	KUNIT_EXPECT_EQ(test, rpcrdma2_nego_client_recv(cc, &cl, err, len, out,
							sizeof(out), &olen),
			RPCRDMA2_NEGO_FAIL);
}

/* A header prefix: xid, vers, credit, htype (and flags on Version 2). */
static u32 rr2n_prefix(u8 *b, u32 xid, u32 vers, u32 htype, u32 flags)
{
	put_unaligned_be32(xid, b);
	put_unaligned_be32(vers, b + 4);
	put_unaligned_be32(rpcrdma2_credit_word(32, 32), b + 8);
	put_unaligned_be32(htype, b + 12);
	if (vers == RPCRDMA2_VERS_1)
		return 16;
	put_unaligned_be32(flags, b + 16);
	return 20;
}

static enum rpcrdma2_nego rr2n_client(struct rpcrdma2_conn *cc,
				      const struct rpcrdma2_local *cl,
				      const u8 *msg, u32 len, u8 *out,
				      u32 *olen)
{
	return rpcrdma2_nego_client_recv(cc, cl, msg, len, out, 64, olen);
}

/*
 * While negotiating, the client discards what the spec makes every
 * receiver discard, and keeps waiting for the server's CONNPROP:
 *   V2-ERR-01: a runt, and an error too short for its code;
 *   V2-ERR-06: an error with an unknown code;
 *   V2-CONT-07: an error with F_MORE (and TPMORE);
 *   V2-ERR-24: a malformed MSG (a Requester only drops);
 *   V2-PROP-12, V2-ERR-21: a MSG with TPMORE draws INVAL_HTYPE and is
 *   discarded.
 * V2-ERR-15: an ERR_VERS naming neither 1 nor 2 ends it with NO_VERS.
 */
static void v2_err_06_client_nego_discards(struct kunit *test)
{
	struct rpcrdma2_conn *cc = rr2n_conn(test, &rr2n_no_pdata);
	u8 *msg = rr2n_buf(test), out[64];
	struct rpcrdma2_local cl;
	struct rpcrdma2_hdr h;
	u32 n, olen;

	rr2n_local(&cl, 2, 4096);
	/* a runt */
	n = rr2n_prefix(msg, 1, 2, RDMA2_MSG, 0);
	KUNIT_EXPECT_EQ(test, rr2n_client(cc, &cl, msg, 12, out, &olen),
			RPCRDMA2_NEGO_MORE);
	/* an error cut after its flags */
	n = rr2n_prefix(msg, 1, 2, RDMA2_ERROR, RDMA2_F_RESPONSE);
	KUNIT_EXPECT_EQ(test, rr2n_client(cc, &cl, msg, n, out, &olen),
			RPCRDMA2_NEGO_MORE);
	/* an unknown code */
	put_unaligned_be32(77, msg + n);
	KUNIT_EXPECT_EQ(test, rr2n_client(cc, &cl, msg, n + 4, out, &olen),
			RPCRDMA2_NEGO_MORE);
	/* a known code, with F_MORE, then with TPMORE */
	n = rr2n_prefix(msg, 1, 2, RDMA2_ERROR,
			RDMA2_F_RESPONSE | RDMA2_F_MORE);
	put_unaligned_be32(RDMA2_ERR_BAD_XDR, msg + n);
	KUNIT_EXPECT_EQ(test, rr2n_client(cc, &cl, msg, n + 4, out, &olen),
			RPCRDMA2_NEGO_MORE);
	put_unaligned_be32(RDMA2_F_RESPONSE | RDMA2_F_TPMORE, msg + 16);
	KUNIT_EXPECT_EQ(test, rr2n_client(cc, &cl, msg, n + 4, out, &olen),
			RPCRDMA2_NEGO_MORE);
	KUNIT_EXPECT_EQ(test, olen, 0U);
	/* a MSG whose Read list discriminator is 7 */
	n = rr2n_prefix(msg, 1, 2, RDMA2_MSG, 0);
	memset(msg + n, 0, 16);
	put_unaligned_be32(7, msg + n + 4);
	KUNIT_EXPECT_EQ(test, rr2n_client(cc, &cl, msg, n + 16, out, &olen),
			RPCRDMA2_NEGO_MORE);
	KUNIT_EXPECT_EQ(test, olen, 0U);
	/* a MSG with TPMORE: INVAL_HTYPE under its xid */
	n = rr2n_prefix(msg, 0x33, 2, RDMA2_MSG, RDMA2_F_TPMORE);
	memset(msg + n, 0, 16);
	KUNIT_EXPECT_EQ(test, rr2n_client(cc, &cl, msg, n + 16, out, &olen),
			RPCRDMA2_NEGO_REJECT);
	KUNIT_ASSERT_NE(test, olen, 0U);
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode_hdr(out, olen, 2,
						  &(struct rpcrdma2_limits){ },
						  &h), 0);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.xid, 0x33);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_INVAL_HTYPE);
	KUNIT_EXPECT_EQ(test, cc->vers, 0U);
	/* and the server's CONNPROP still settles Version 2 */
	n = rr2n_connprop(msg, 0, RR2N_SB, 8192, 0, 0);
	KUNIT_EXPECT_EQ(test, rr2n_client(cc, &cl, msg, n, out, &olen),
			RPCRDMA2_NEGO_DONE);
	KUNIT_EXPECT_EQ(test, cc->vers, 2U);

	/* ERR_VERS [3, 4]: neither version */
	rpcrdma2_conn_init(cc, &rr2n_no_pdata);
	n = rpcrdma2_encode_error(msg, 64, 2, 1, 2, 7, RDMA2_ERR_VERS, 3, 4);
	KUNIT_EXPECT_EQ(test, rr2n_client(cc, &cl, msg, n, out, &olen),
			RPCRDMA2_NEGO_NO_VERS);
	KUNIT_EXPECT_EQ(test, cc->peer_vers_low, 3U);
	KUNIT_EXPECT_EQ(test, cc->peer_vers_high, 4U);
	KUNIT_EXPECT_EQ(test, cc->vers, 0U);
}

/*
 * V2-FRAME-24, V2-ERR-15: while the client negotiates, a Version 1
 * message other than ERR_VERS answers nothing it sent and says nothing
 * about the server's versions: it is discarded (no error answers it,
 * V2-ERR-24), and the server's CONNPROP then settles Version 2.  Only
 * an ERR_VERS takes Version 2 away.
 */
static void v2_frame_24_client_nego_ignores_v1_msg(struct kunit *test)
{
	struct rpcrdma2_conn *cc = rr2n_conn(test, &rr2n_no_pdata);
	u8 *msg = rr2n_buf(test), out[64];
	struct rpcrdma2_local cl;
	u32 n, olen;

	rr2n_local(&cl, 2, 4096);
	n = rr2n_prefix(msg, 1, 1, RDMA_MSG, 0);
	memset(msg + n, 0, 12);
	KUNIT_EXPECT_EQ(test, rr2n_client(cc, &cl, msg, n + 12, out, &olen),
			RPCRDMA2_NEGO_MORE);
	KUNIT_EXPECT_EQ(test, olen, 0U);
	n = rr2n_prefix(msg, 2, 1, RDMA_NOMSG, 0);
	memset(msg + n, 0, 12);
	KUNIT_EXPECT_EQ(test, rr2n_client(cc, &cl, msg, n + 12, out, &olen),
			RPCRDMA2_NEGO_MORE);
	KUNIT_EXPECT_EQ(test, cc->vers, 0U);
	n = rr2n_connprop(msg, 0, RR2N_SB, 8192, 0, 0);
	KUNIT_EXPECT_EQ(test, rr2n_client(cc, &cl, msg, n, out, &olen),
			RPCRDMA2_NEGO_DONE);
	KUNIT_EXPECT_EQ(test, cc->vers, 2U);
}

/*
 * V2-INLINE-02: CONNPROPs that carry no properties leave both
 * thresholds at 4096 at both ends, however large each end's buffers.
 */
static void v2_inline_02_no_props_means_4096(struct kunit *test)
{
	struct rpcrdma2_conn *cc = rr2n_conn(test, &rr2n_no_pdata);
	struct rpcrdma2_conn *sc = rr2n_conn(test, &rr2n_no_pdata);
	u8 *hello = rr2n_buf(test), *reply = rr2n_buf(test);
	const struct rpcrdma2_props none = { };
	struct rpcrdma2_local cl, sl;
	u32 hlen, rlen, olen;
	u8 out[64];

	rr2n_local(&cl, 2, 65536);
	rr2n_local(&sl, 2, 65536);
	hlen = rpcrdma2_encode_connprop(hello, RR2N_BUF, cl.credits, 0, &none,
					NULL);
	KUNIT_ASSERT_NE(test, hlen, 0U);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_server_recv(sc, &sl, hello, hlen,
							reply, RR2N_BUF, &rlen),
			RPCRDMA2_NEGO_REPLY);
	KUNIT_EXPECT_EQ(test, sc->vers, 2U);
	KUNIT_EXPECT_EQ(test, sc->send_inline, 4096U);
	KUNIT_EXPECT_EQ(test, sc->recv_inline, 4096U);

	rlen = rpcrdma2_encode_connprop(reply, RR2N_BUF, sl.credits, 0, &none,
					NULL);
	KUNIT_ASSERT_NE(test, rlen, 0U);
	KUNIT_ASSERT_EQ(test, rpcrdma2_nego_client_recv(cc, &cl, reply, rlen,
							out, sizeof(out),
							&olen),
			RPCRDMA2_NEGO_DONE);
	KUNIT_EXPECT_EQ(test, cc->vers, 2U);
	KUNIT_EXPECT_EQ(test, cc->send_inline, 4096U);
	KUNIT_EXPECT_EQ(test, cc->recv_inline, 4096U);
}

static struct kunit_case rr2n_cases[] = {
	KUNIT_CASE(v2_inline_03_hello),
	KUNIT_CASE(v2_frame_16_v2_both),
	KUNIT_CASE(v2_frame_18_fallback_to_v1),
	KUNIT_CASE(v2_frame_20_v1_client),
	KUNIT_CASE(v2_err_13_unknown_version),
	KUNIT_CASE(v2_err_31_bad_propval),
	KUNIT_CASE(v2_prop_19_sanity),
	KUNIT_CASE(v2_prop_11_client_accumulates),
	KUNIT_CASE(v2_prop_11_server_accumulates),
	KUNIT_CASE(v2_prop_16_continued_connprop),
	KUNIT_CASE(v2_prop_09_hostauth),
	KUNIT_CASE(v2_cont_06_connprop_xid),
	KUNIT_CASE(v2_sec_17_connprop_cap),
	KUNIT_CASE(v2_prop_13_connprop_after_final),
	KUNIT_CASE(v2_err_29_server_bad_propval),
	KUNIT_CASE(v2_err_30_bad_propval_tpmore),
	KUNIT_CASE(v2_err_29_client_bad_propval),
	KUNIT_CASE(v2_frame_18_v2_err_vers),
	KUNIT_CASE(v2_err_06_client_nego_discards),
	KUNIT_CASE(v2_frame_24_client_nego_ignores_v1_msg),
	KUNIT_CASE(v2_inline_02_no_props_means_4096),
	{ }
};

static struct kunit_suite rr2n_suite = {
	.name		= "rpcrdma2_nego",
	.test_cases	= rr2n_cases,
};

kunit_test_suites(&rr2n_suite);
