// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rpcrdma2_svc_chunks": the server's chunks, from a raw
 * client QP that registers its memory with FRWR as a client does
 * (tests/fixture_raw.c): Write, Read and Reply chunks on both versions,
 * hostile chunk lists, Reads within the ORD, rejected Calls that never
 * run, Send With Invalidate; and the server's counters those move.
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

/*
 * V2-ERR-26 (and RFC 8166 section 4.5.2): rdma_xid must be the XID of
 * the RPC message; BAD_XDR on Version 2, ERR_CHUNK on Version 1.
 */
static void rr2r_svc_xid_mismatch_bad_xdr(struct kunit *test)
{
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;
	u8 msg[128];
	u32 n;

	raw = rr2r_raw_start(test, 1, RDMA2_RVRSDIR_SIMPLE, &h);
	n = rr2r_msg2(msg, 0xb1, 0);
	n += rr2r_rpc_call(msg + n, 0xb2, RR2R_PROG, RR2R_NULL);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.xid, 0xb1);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_BAD_XDR);

	raw = rr2r_raw(test);		/* Version 1: its first message */
	n = rr2r_msg1(msg, 0xb3);
	n += rr2r_rpc_call(msg + n, 0xb4, RR2R_PROG, RR2R_NULL);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_1, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA_ERROR);
	KUNIT_EXPECT_EQ(test, h.xid, 0xb3);
	KUNIT_EXPECT_EQ(test, h.err, ERR_CHUNK);
}

static void rr2r_mr_fill(struct rr2r_mr *m, u32 off, u32 len, u32 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		*rr2r_mr_at(m, off + i) = rr2r_byte(seed, i);
}

/*
 * V2-CHUNK-19, V2-CHUNK-20, V2-CHUNK-24, V2-CHUNK-25, V2-CHUNK-10: the
 * GET data goes into the Write chunk, unpadded, the Reply's Write list
 * says how much, and the inline Reply has neither the data nor its pad.
 * V2-RINV-04 (rdma_inv_handle) and CMP-RINV-03 (Version 1, R set by both
 * ends, one rkey): the Reply is a Send With Invalidate of that rkey.
 */
static void rr2r_svc_write_chunk(struct kunit *test, u32 vers)
{
	const u32 len = 50001, seed = 0x5eed;
	struct rpcrdma2_test_conn *raw = rr2r_raw_vers(test, vers);
	struct rpcrdma2_recv *rv = &raw->client.ep.recvs[0];
	struct rpcrdma2_segment seg, echo;
	struct rpcrdma2_chunk_out w;
	struct rr2r_mr *m;
	struct rpcrdma2_hdr h;
	u8 msg[512], pl[64];
	u32 n, plen, rkey;
	bool inv;

	m = rr2r_mr(test, raw, 65536);
	seg = rr2r_seg(m, 0, 65536);
	rkey = seg.handle;
	w = (struct rpcrdma2_chunk_out){ .nsegs = 1, .segs = &seg };
	n = rr2r_chunk_call(msg, vers, 0xe1, false, rkey, NULL, 0, &w, 1,
			    NULL);
	n += rr2r_rpc_call(msg + n, 0xe1, RR2R_PROG, RR2R_GET);
	n += rr2r_args(msg + n, seed, len);
	rr2r_raw_send(test, raw, msg, n);

	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_wait_recv(&raw->client));
	inv = rv->remote_inv && rv->inv_rkey == rkey;
	n = rpcrdma2_decode_hdr(rv->buf, rv->len, vers, &rr2r_reply_lim, &h);
	KUNIT_ASSERT_EQ(test, n, 0);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
	KUNIT_ASSERT_EQ(test, h.writes.chunks, 1);
	KUNIT_ASSERT_EQ(test, rpcrdma2_write_chunk(rv->buf, &h, 0, 0, &echo),
			1);
	plen = rv->len - h.hdrlen;
	memcpy(pl, (u8 *)rv->buf + h.hdrlen, min_t(u32, plen, sizeof(pl)));
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_post_recv(&raw->client));

	KUNIT_EXPECT_EQ(test, echo.length, len);
	KUNIT_EXPECT_EQ(test, echo.handle, rkey);
	KUNIT_EXPECT_EQ(test, echo.offset, seg.offset);
	/* RPC Reply (24) and the length word: no data, no padding */
	KUNIT_EXPECT_EQ(test, plen, 28);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 20), RPC_SUCCESS);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 24), len);
	KUNIT_EXPECT_TRUE(test, rr2r_mr_verify(m, 0, len, seed));
	KUNIT_EXPECT_EQ(test, *rr2r_mr_at(m, len), 0);	/* V2-CHUNK-24 */
	KUNIT_EXPECT_TRUE_MSG(test, inv, "remote_inv %d rkey %x, want %x",
			      rv->remote_inv, rv->inv_rkey, rkey);
}

static void rr2r_svc_write_chunk_v1(struct kunit *test)
{
	/*
	 * asserts rr2r_svc_write_chunk: V2-CHUNK-10, V2-CHUNK-24, V2-CHUNK-25,
	 * CMP-RINV-03 (Version
	 * 1, R set)
	 */
	rr2r_svc_write_chunk(test, RPCRDMA2_VERS_1);
}

static void rr2r_svc_write_chunk_v2(struct kunit *test)
{
	/*
	 * asserts rr2r_svc_write_chunk: V2-CHUNK-10, V2-CHUNK-24, V2-CHUNK-25,
	 * V2-RINV-04
	 */
	rr2r_svc_write_chunk(test, RPCRDMA2_VERS_2);
}

/* Send a PUT Call and expect its Reply to say (ok, @len). */
static void rr2r_expect_put_ok(struct kunit *test,
			       struct rpcrdma2_test_conn *raw, u32 vers,
			       const u8 *msg, u32 n, u32 xid, u32 len)
{
	struct rpcrdma2_hdr h;
	u8 pl[64];
	u32 plen;

	rr2r_raw_send(test, raw, msg, n);
	plen = rr2r_take(test, &raw->client, vers, &h, pl);
	KUNIT_ASSERT_EQ_MSG(test, h.htype, RDMA2_MSG, "err %u", h.err);
	KUNIT_EXPECT_EQ(test, h.xid, xid);
	KUNIT_ASSERT_EQ(test, plen, 32);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 20), RPC_SUCCESS);
	KUNIT_EXPECT_EQ_MSG(test, get_unaligned_be32(pl + 24), 1,
			    "the server saw other octets than were sent");
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 28), len);
}

/*
 * V2-CHUNK-14, V2-CHUNK-15, V2-CHUNK-16: PUT data of odd length in a
 * Read chunk at its Position, pulled and padded by the server; then
 * V2-SPEC-01, V2-SPEC-02, V2-SPEC-07: a Special Format Call (NOMSG)
 * whose whole RPC message is a Position-Zero Read chunk of two
 * segments, which the server joins in list order; and a Call with two
 * Read chunks at two Positions.
 */
static void rr2r_svc_read_chunks(struct kunit *test, u32 vers)
{
	const u32 len = 10001, seed = 0xfeed, pz_len = 3001;
	struct rpcrdma2_test_conn *raw = rr2r_raw_vers(test, vers);
	struct rpcrdma2_chunk_out rd, rds[2];
	struct rpcrdma2_segment segs[2];
	struct rr2r_mr *m;
	u8 msg[512], call[48];
	u32 n, pz;

	/* a Version 1 Reply may invalidate it: one MR per Call */
	m = rr2r_mr(test, raw, 16384);
	rr2r_mr_fill(m, 0, len, seed);
	segs[0] = rr2r_seg(m, 0, len);
	rd = (struct rpcrdma2_chunk_out){ .nsegs = 1, .segs = segs,
					  .position = 48 };
	n = rr2r_chunk_call(msg, vers, 0xe2, false, 0, &rd, 1, NULL, 0, NULL);
	n += rr2r_rpc_call(msg + n, 0xe2, RR2R_PROG, RR2R_PUT);
	n += rr2r_args(msg + n, seed, len);
	rr2r_expect_put_ok(test, raw, vers, msg, n, 0xe2, len);

	/* the whole Call at 4096: header, arguments, data, padding */
	m = rr2r_mr(test, raw, 16384);
	pz = 4096;
	rr2r_rpc_call(call, 0xe3, RR2R_PROG, RR2R_PUT);
	rr2r_args(call + 40, seed, pz_len);
	rr2r_mr_put(m, pz, call, sizeof(call));
	rr2r_mr_fill(m, pz + 48, pz_len, seed);
	segs[0] = rr2r_seg(m, pz, 1000);
	segs[1] = rr2r_seg(m, pz + 1000, 48 + round_up(pz_len, 4) - 1000);
	rd = (struct rpcrdma2_chunk_out){ .nsegs = 2, .segs = segs };
	n = rr2r_chunk_call(msg, vers, 0xe3, true, 0, &rd, 1, NULL, 0, NULL);
	rr2r_expect_put_ok(test, raw, vers, msg, n, 0xe3, pz_len);

	/*
	 * V2-CHUNK-12: two Read chunks.  The second one's Position counts
	 * the first chunk and its padding, which are not inline: 48 +
	 * 1004, while the inline octets end at 48.  The PUT reads only
	 * the first; the second must be pulled all the same.
	 */
	m = rr2r_mr(test, raw, 16384);
	rr2r_mr_fill(m, 0, 1001, seed);
	segs[0] = rr2r_seg(m, 0, 1001);
	segs[1] = rr2r_seg(m, 8192, 500);
	rds[0] = (struct rpcrdma2_chunk_out){ .nsegs = 1, .segs = &segs[0],
					      .position = 48 };
	rds[1] = (struct rpcrdma2_chunk_out){ .nsegs = 1, .segs = &segs[1],
					      .position = 48 + 1004 };
	n = rr2r_chunk_call(msg, vers, 0xe5, false, 0, rds, 2, NULL, 0, NULL);
	n += rr2r_rpc_call(msg + n, 0xe5, RR2R_PROG, RR2R_PUT);
	n += rr2r_args(msg + n, seed, 1001);
	rr2r_expect_put_ok(test, raw, vers, msg, n, 0xe5, 1001);
}

static void rr2r_svc_read_chunks_v1(struct kunit *test)
{
	/* asserts rr2r_svc_read_chunks: V2-SPEC-02, V2-SPEC-07 */
	rr2r_svc_read_chunks(test, RPCRDMA2_VERS_1);
}

static void rr2r_svc_read_chunks_v2(struct kunit *test)
{
	/* asserts rr2r_svc_read_chunks: V2-SPEC-02, V2-SPEC-07 */
	rr2r_svc_read_chunks(test, RPCRDMA2_VERS_2);
}

/*
 * V2-SPEC-05: a Reply beyond the inline threshold goes into the
 * Reply chunk the Call provided (not continued, on Version 2 either),
 * as RDMA_NOMSG / RDMA2_NOMSG with the Reply chunk's length written.
 */
static void rr2r_svc_reply_chunk(struct kunit *test, u32 vers)
{
	const u32 len = 6000, seed = 0xbeef;
	struct rpcrdma2_test_conn *raw = rr2r_raw_vers(test, vers);
	struct rpcrdma2_segment seg, echo;
	struct rpcrdma2_chunk_out rc;
	struct rr2r_mr *m;
	struct rpcrdma2_hdr h;
	u8 msg[512], head[28];
	u32 n;

	m = rr2r_mr(test, raw, 16384);
	seg = rr2r_seg(m, 0, 16384);
	rc = (struct rpcrdma2_chunk_out){ .nsegs = 1, .segs = &seg };
	n = rr2r_chunk_call(msg, vers, 0xe4, false, 0, NULL, 0, NULL, 0, &rc);
	n += rr2r_rpc_call(msg + n, 0xe4, RR2R_PROG, RR2R_GET);
	n += rr2r_args(msg + n, seed, len);
	rr2r_raw_send(test, raw, msg, n);
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_wait_recv(&raw->client));
	n = rpcrdma2_decode_hdr(rpcrdma2_test_recv_buf(&raw->client),
				rpcrdma2_test_recv_len(&raw->client), vers,
				&rr2r_reply_lim, &h);
	KUNIT_ASSERT_EQ(test, n, 0);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_NOMSG);
	KUNIT_ASSERT_EQ(test, h.reply.chunks, 1);
	rpcrdma2_reply_chunk(rpcrdma2_test_recv_buf(&raw->client), &h, 0,
			     &echo);
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_post_recv(&raw->client));
	KUNIT_EXPECT_EQ(test, echo.length, 28 + len);
	memcpy(head, rr2r_mr_at(m, 0), sizeof(head));
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(head), 0xe4);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(head + 20), RPC_SUCCESS);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(head + 24), len);
	KUNIT_EXPECT_TRUE(test, rr2r_mr_verify(m, 28, len, seed));
}

static void rr2r_svc_reply_chunk_v1(struct kunit *test)
{
	/* asserts rr2r_svc_reply_chunk: V2-SPEC-05 */
	rr2r_svc_reply_chunk(test, RPCRDMA2_VERS_1);
}

static void rr2r_svc_reply_chunk_v2(struct kunit *test)
{
	/* asserts rr2r_svc_reply_chunk: V2-SPEC-05 */
	rr2r_svc_reply_chunk(test, RPCRDMA2_VERS_2);
}

/* Expect the next message to be RDMA2_ERROR @err for @xid. */
static void rr2r_expect_err(struct kunit *test, struct rpcrdma2_test_conn *raw,
			    u32 xid, u32 err, u32 arg0, u32 arg1)
{
	struct rpcrdma2_hdr h;

	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.xid, xid);
	KUNIT_EXPECT_EQ_MSG(test, h.err, err, "xid 0x%x", xid);
	KUNIT_EXPECT_EQ_MSG(test, h.err_arg[0], arg0, "xid 0x%x", xid);
	KUNIT_EXPECT_EQ_MSG(test, h.err_arg[1], arg1, "xid 0x%x", xid);
}

/*
 * Hostile chunk lists (V2-SEC-17): each gets the protocol's error and
 * the connection carries on; a handle that was never registered costs
 * only that connection (V2-ERR-50), and another client of the same
 * server is not disturbed.
 *   V2-ERR-38: a Write chunk of RCSIZ + 1 segments -> SEGMENTS(32);
 *   V2-ERR-40, V2-ERR-41, V2-ERR-42: a Write chunk too small for the
 *     data -> WRITE_RESOURCE(index 1, length needed);
 *   V2-ERR-51: a Read chunk Position past the inline octets, a Read
 *     chunk longer than any Call, a segment whose offset wraps ->
 *     BAD_XDR.
 */
static void rr2r_svc_hostile_chunks(struct kunit *test)
{
	/*
	 * asserts V2-ERR-38 (SEGMENTS), V2-ERR-40, V2-ERR-41, V2-ERR-42
	 * (WRITE_RESOURCE, index,
	 * length)
	 */
	const u32 nsegs = RR2S_MAX_SEGS + 1;
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_segment *segs;
	struct rpcrdma2_chunk_out ck;
	struct rpc_clnt *clnt;
	struct page **pages;
	struct rr2r_mr *m;
	u32 n, i;
	u8 *msg;

	/* off the stack: the KASAN kernel's frames are small */
	segs = kunit_kcalloc(test, nsegs, sizeof(*segs), GFP_KERNEL);
	msg = kunit_kzalloc(test, 1024, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, segs && msg);
	raw = rr2r_raw_vers(test, RPCRDMA2_VERS_2);
	m = rr2r_mr(test, raw, 8192);
	for (i = 0; i < nsegs; i++)
		segs[i] = rr2r_seg(m, 0, 8);
	ck = (struct rpcrdma2_chunk_out){ .nsegs = nsegs, .segs = segs };
	n = rr2r_chunk_call(msg, RPCRDMA2_VERS_2, 0xf1, false, 0, NULL, 0,
			    &ck, 1, NULL);
	n += rr2r_rpc_call(msg + n, 0xf1, RR2R_PROG, RR2R_GET);
	n += rr2r_args(msg + n, 1, 100);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_expect_err(test, raw, 0xf1, RDMA2_ERR_SEGMENTS, RR2S_MAX_SEGS, 0);

	segs[0] = rr2r_seg(m, 0, 4000);
	ck = (struct rpcrdma2_chunk_out){ .nsegs = 1, .segs = segs };
	n = rr2r_chunk_call(msg, RPCRDMA2_VERS_2, 0xf2, false, 0, NULL, 0,
			    &ck, 1, NULL);
	n += rr2r_rpc_call(msg + n, 0xf2, RR2R_PROG, RR2R_GET);
	n += rr2r_args(msg + n, 1, 5000);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_expect_err(test, raw, 0xf2, RDMA2_ERR_WRITE_RESOURCE, 1, 5000);

	segs[0] = rr2r_seg(m, 0, 100);
	ck = (struct rpcrdma2_chunk_out){ .nsegs = 1, .segs = segs,
					  .position = 4096 };
	n = rr2r_chunk_call(msg, RPCRDMA2_VERS_2, 0xf3, false, 0, &ck, 1,
			    NULL, 0, NULL);
	n += rr2r_rpc_call(msg + n, 0xf3, RR2R_PROG, RR2R_PUT);
	n += rr2r_args(msg + n, 1, 100);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_expect_err(test, raw, 0xf3, RDMA2_ERR_BAD_XDR, 0, 0);

	segs[0] = rr2r_seg(m, 0, 0x7fffffff);
	ck.position = 48;
	n = rr2r_chunk_call(msg, RPCRDMA2_VERS_2, 0xf4, false, 0, &ck, 1,
			    NULL, 0, NULL);
	n += rr2r_rpc_call(msg + n, 0xf4, RR2R_PROG, RR2R_PUT);
	n += rr2r_args(msg + n, 1, 0x7fffffff);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_expect_err(test, raw, 0xf4, RDMA2_ERR_BAD_XDR, 0, 0);

	segs[0] = rr2r_seg(m, 0, 100);
	segs[0].offset = U64_MAX - 10;
	n = rr2r_chunk_call(msg, RPCRDMA2_VERS_2, 0xf5, false, 0, &ck, 1,
			    NULL, 0, NULL);
	n += rr2r_rpc_call(msg + n, 0xf5, RR2R_PROG, RR2R_PUT);
	n += rr2r_args(msg + n, 1, 100);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_expect_err(test, raw, 0xf5, RDMA2_ERR_BAD_XDR, 0, 0);

	/* an rkey that was never registered: the RDMA Read fails */
	segs[0] = rr2r_seg(m, 0, 100);
	segs[0].handle ^= 0x5a5a5a00;
	n = rr2r_chunk_call(msg, RPCRDMA2_VERS_2, 0xf6, false, 0, &ck, 1,
			    NULL, 0, NULL);
	n += rr2r_rpc_call(msg + n, 0xf6, RR2R_PROG, RR2R_PUT);
	n += rr2r_args(msg + n, 1, 100);
	memcpy(rpcrdma2_test_send_buf(&raw->client), msg, n);
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_post_send(&raw->client, n));
	/* the failed Read breaks the QP at both ends: the Send may flush */
	rpcrdma2_test_wait_send(&raw->client);
	KUNIT_EXPECT_NE_MSG(test, 0, rpcrdma2_test_wait_recv(&raw->client),
			    "the connection outlived a bad rkey");

	clnt = rr2r_clnt(test);
	pages = rr2r_pages(test);
	rr2r_roundtrip(test, clnt, pages, 100000);
}

/*
 * V2-CRED-06: the server keeps its RDMA Reads in flight within the
 * provider's limits: its QP's ORD is what the connection negotiated
 * (the raw client's IRD, 1: rpcrdma2_ep_conn_param()), not the
 * device's, so the RNIC holds back the Reads beyond it; and a PUT
 * whose Read chunk has 8 segments, 8 Reads, arrives whole.  (siw
 * reports its ORQ size as max_dest_rd_atomic, rxe its ORD as
 * max_rd_atomic.)
 */
static void rr2r_svc_v2_cred_06_reads_within_ord(struct kunit *test)
{
	const u32 nsegs = 8, piece = 1000, len = nsegs * piece, seed = 0xc06;
	struct rpcrdma2_segment segs[8];
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_chunk_out rd;
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;
	struct rr2s_conn *c;
	struct rr2r_mr *m;
	u8 msg[512];
	u32 i, n, ord;

	raw = rr2r_raw_vers(test, RPCRDMA2_VERS_2);
	c = rr2r_svc_conn(test, raw);
	KUNIT_EXPECT_EQ(test, c->ord, 1);
	KUNIT_ASSERT_EQ(test, 0, ib_query_qp(c->b.id->qp, &attr,
					     IB_QP_MAX_QP_RD_ATOMIC |
					     IB_QP_MAX_DEST_RD_ATOMIC, &init));
	ord = rr2r_link_of(test) == RPCRDMA2_TEST_SIW ?
	      attr.max_dest_rd_atomic : attr.max_rd_atomic;
	KUNIT_EXPECT_EQ(test, ord, c->ord);

	m = rr2r_mr(test, raw, 16384);
	rr2r_mr_fill(m, 0, len, seed);
	for (i = 0; i < nsegs; i++)
		segs[i] = rr2r_seg(m, i * piece, piece);
	rd = (struct rpcrdma2_chunk_out){ .nsegs = nsegs, .segs = segs,
					  .position = 48 };
	n = rr2r_chunk_call(msg, RPCRDMA2_VERS_2, 0xc601, false, 0, &rd, 1,
			    NULL, 0, NULL);
	n += rr2r_rpc_call(msg + n, 0xc601, RR2R_PROG, RR2R_PUT);
	n += rr2r_args(msg + n, seed, len);
	rr2r_expect_put_ok(test, raw, RPCRDMA2_VERS_2, msg, n, 0xc601, len);
}

/*
 * The counters move with the traffic that is theirs: the Write chunk
 * Call (V2-CHUNK-19) counts one Write chunk, its RDMA Write and its
 * octets and a Send With Invalidate (V2-RINV-04); the Read chunk Calls
 * (V2-CHUNK-14, V2-SPEC-01) count four Read chunks, one of them a
 * Special Format Call's, and five segments pulled; the XID mismatches
 * count BAD_XDR once per version (V2-ERR-26).  The stock counters
 * without an rpcrdma2 event stay 0.
 *
 * Then the writes, with the stock module's modes and semantics: every
 * counter is 0644 and a write of anything resets it to 0; the ones
 * without an event take 0 and refuse anything else.
 */
static void rr2r_svc_counters_move(struct kunit *test)
{
	unsigned long a[RR2R_NR_C], b[RR2R_NR_C];
	struct ctl_table *t;
	u32 i;

	rr2r_counters_read(test, a);
	rr2r_svc_write_chunk(test, RPCRDMA2_VERS_2);
	rr2r_svc_read_chunks(test, RPCRDMA2_VERS_2);
	rr2r_svc_xid_mismatch_bad_xdr(test);
	rr2r_counters_read(test, b);

	KUNIT_EXPECT_EQ(test, b[RR2R_C_WRITE_CHUNKS] - a[RR2R_C_WRITE_CHUNKS],
			1);
	KUNIT_EXPECT_GE(test, b[RR2R_C_WRITE] - a[RR2R_C_WRITE], 1);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_WRITE_BYTES] - a[RR2R_C_WRITE_BYTES],
			50001);
	KUNIT_EXPECT_GE(test, b[RR2R_C_SEND_INV] - a[RR2R_C_SEND_INV], 1);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_READ_CHUNKS] - a[RR2R_C_READ_CHUNKS],
			4);
	/* one of them a Position-Zero Read chunk, reducing no data item */
	KUNIT_EXPECT_EQ(test, b[RR2R_C_NOMSG] - a[RR2R_C_NOMSG], 1);
	KUNIT_EXPECT_GE(test, b[RR2R_C_READ] - a[RR2R_C_READ], 5);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_READ_BYTES] - a[RR2R_C_READ_BYTES],
			10001 + 48 + round_up(3001, 4) + 1001 + 500);
	/* five Calls answered, one more rejected before it was queued */
	KUNIT_EXPECT_GE(test, b[RR2R_C_RECV] - a[RR2R_C_RECV], 4);
	KUNIT_EXPECT_GE(test, b[RR2R_C_V2] - a[RR2R_C_V2], 3);
	KUNIT_EXPECT_GE(test, b[RR2R_C_V1] - a[RR2R_C_V1], 1);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_BAD_XDR] - a[RR2R_C_BAD_XDR], 2);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_RQ_POLL], 0);

	for (i = 0; i < RR2R_NR_C; i++) {
		t = rr2r_sysctl(test, rr2r_counters[i]);
		KUNIT_ASSERT_NOT_NULL(test, t);
		KUNIT_EXPECT_EQ_MSG(test, t->mode, 0644, "%s",
				    rr2r_counters[i]);
		if (i == RR2R_C_RQ_POLL)
			continue;
		/* the value written does not matter */
		KUNIT_EXPECT_EQ_MSG(test, 0,
				    rr2r_sysctl_write(test, rr2r_counters[i],
						      i & 1 ? "0" : "12345"),
				    "%s", rr2r_counters[i]);
	}
	rr2r_counters_read(test, b);
	for (i = 0; i < RR2R_NR_C; i++)
		KUNIT_EXPECT_EQ_MSG(test, b[i], 0, "%s after a write",
				    rr2r_counters[i]);
	KUNIT_EXPECT_EQ(test, 0, rr2r_sysctl_write(test, "rdma_stat_rq_poll",
						   "0"));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			rr2r_sysctl_write(test, "rdma_stat_rq_poll", "1"));
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "rdma_stat_rq_poll"), 0);
}

/*
 * CMP-RINV-04, CMP-RINV-01: a client whose connection request carried
 * no RFC 8797 record, or one that is not valid, has not said it takes
 * remote invalidation: the Reply to a Version 1 GET with a Write chunk
 * is a plain Send, though the Call offered an rkey to invalidate.
 */
static void rr2r_cmp_rinv_04_plain_send_without_r(struct kunit *test)
{
	static const enum rpcrdma2_test_pdata modes[] = {
		RPCRDMA2_TEST_PDATA_NONE, RPCRDMA2_TEST_PDATA_BAD,
	};
	const u32 len = 5000, seed = 0x5eee;
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_segment seg;
	struct rpcrdma2_chunk_out w;
	struct rpcrdma2_recv *rv;
	struct rpcrdma2_hdr h;
	struct rr2r_mr *m;
	u32 i, n, xid;
	u8 msg[512];
	int ret;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		raw = rr2r_raw_pdata(test, 0, modes[i]);

		m = rr2r_mr(test, raw, 8192);
		seg = rr2r_seg(m, 0, 8192);
		w = (struct rpcrdma2_chunk_out){ .nsegs = 1, .segs = &seg };
		xid = 0xd5 + i;
		n = rr2r_chunk_call(msg, RPCRDMA2_VERS_1, xid, false,
				    seg.handle, NULL, 0, &w, 1, NULL);
		n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_GET);
		n += rr2r_args(msg + n, seed, len);
		rr2r_raw_send(test, raw, msg, n);

		KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_wait_recv(&raw->client));
		rv = rpcrdma2_test_recv(&raw->client);
		/* CMP-RINV-01, CMP-RINV-04: not a Send With Invalidate */
		KUNIT_EXPECT_FALSE_MSG(test, rv->remote_inv,
				       "pdata mode %u: invalidated %x",
				       modes[i], rv->inv_rkey);
		ret = rpcrdma2_decode_hdr(rv->buf, rv->len, RPCRDMA2_VERS_1,
					  &rr2r_reply_lim, &h);
		KUNIT_EXPECT_EQ(test, ret, 0);
		KUNIT_EXPECT_EQ(test, h.xid, xid);
		KUNIT_EXPECT_EQ(test, h.htype, RDMA_MSG);
		KUNIT_EXPECT_EQ(test, h.writes.chunks, 1);
		KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_post_recv(&raw->client));
		KUNIT_EXPECT_TRUE(test, rr2r_mr_verify(m, 0, len, seed));
	}
}

/*
 * The next message from the server, read word by word (an ERR_VERS
 * echoes a version the decoder would refuse): an RDMA2_ERROR @err for
 * @xid, with RESPONSE set.
 */
static void rr2r_expect_raw_err(struct kunit *test,
				struct rpcrdma2_test_conn *raw, u32 xid,
				u32 err)
{
	u8 *b;

	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_wait_recv(&raw->client));
	b = rpcrdma2_test_recv_buf(&raw->client);
	KUNIT_EXPECT_GE(test, rpcrdma2_test_recv_len(&raw->client), 24);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b), xid);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b + 12), RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b + 16) & RDMA2_F_RESPONSE,
			RDMA2_F_RESPONSE);
	KUNIT_EXPECT_EQ_MSG(test, get_unaligned_be32(b + 20), err,
			    "xid 0x%x", xid);
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_post_recv(&raw->client));
}

/* A Version 2 MSG header with @nr Read chunks (Positions 64, 72, ...). */
static u32 rr2r_reads2(u8 *b, u32 xid, u32 nr)
{
	u32 n = rr2r_hdr(b, xid, RPCRDMA2_VERS_2, RDMA2_MSG, 0), i;

	put_unaligned_be32(0, b + n);		/* rdma_inv_handle */
	n += 4;
	for (i = 0; i < nr; i++) {
		put_unaligned_be32(1, b + n);
		put_unaligned_be32(64 + 8 * i, b + n + 4);
		put_unaligned_be32(0x100 + i, b + n + 8);
		put_unaligned_be32(8, b + n + 12);
		put_unaligned_be64(0x1000, b + n + 16);
		n += 24;
	}
	memset(b + n, 0, 12);			/* end; no Writes, no Reply */
	return n + 12;
}

/* A Version 2 MSG header with @nr Write chunks of one segment each. */
static u32 rr2r_writes2(u8 *b, u32 xid, u32 nr)
{
	u32 n = rr2r_hdr(b, xid, RPCRDMA2_VERS_2, RDMA2_MSG, 0), i;

	memset(b + n, 0, 8);			/* inv_handle; no Reads */
	n += 8;
	for (i = 0; i < nr; i++) {
		put_unaligned_be32(1, b + n);		/* a chunk */
		put_unaligned_be32(1, b + n + 4);	/* one segment */
		put_unaligned_be32(0x200 + i, b + n + 8);
		put_unaligned_be32(4096, b + n + 12);
		put_unaligned_be64(0x2000, b + n + 16);
		n += 24;
	}
	memset(b + n, 0, 8);			/* end; no Reply chunk */
	return n + 8;
}

/*
 * A Call the server answers with an error is discarded: it never
 * reaches the RPC layer.  Every rejected message below carries a whole
 * HOLD Call, which the service would count (and hold); after each
 * error a NULL Call is answered next, and at the end the service has
 * seen no HOLD at all.
 */
static void rr2r_svc_rejected_calls_never_run(struct kunit *test)
{
	static const u32 htypes[] = { 2, 3, 0x77 };
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;
	u32 n, i, xid = 0xe100;
	u8 *msg;

	msg = kunit_kzalloc(test, 1024, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	rr2r_hold_calls(test);
	raw = rr2r_raw(test);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);

	/* V2-ERR-14: a version the connection did not settle: ERR_VERS */
	n = rr2r_hdr(msg, ++xid, 3, RDMA2_MSG, 0);
	memset(msg + n, 0, 16);
	n += 16;
	n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_HOLD);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_expect_raw_err(test, raw, xid, RDMA2_ERR_VERS);
	rr2r_expect_null_reply_next(test, raw, msg, 0xe200);

	/*
	 * V2-FRAME-13, V2-ERR-18: v1's MSGP and DONE and an unknown htype,
	 * each with a Call behind it: INVAL_HTYPE, nothing processed
	 */
	for (i = 0; i < ARRAY_SIZE(htypes); i++) {
		n = rr2r_msg2(msg, ++xid, 0);
		put_unaligned_be32(htypes[i], msg + 12);
		n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_HOLD);
		rr2r_raw_send(test, raw, msg, n);
		rr2r_expect_raw_err(test, raw, xid, RDMA2_ERR_INVAL_HTYPE);
		rr2r_expect_null_reply_next(test, raw, msg, 0xe210 + i);
	}

	/* V2-ERR-27: rdma_xid is not the RPC's XID: BAD_XDR */
	n = rr2r_msg2(msg, ++xid, 0);
	n += rr2r_rpc_call(msg + n, xid + 0x1000, RR2R_PROG, RR2R_HOLD);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_expect_raw_err(test, raw, xid, RDMA2_ERR_BAD_XDR);
	rr2r_expect_null_reply_next(test, raw, msg, 0xe220);

	/* V2-ERR-34: more Read chunks than the server takes */
	n = rr2r_reads2(msg, ++xid, RR2S_MAX_READ_CHUNKS + 1);
	n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_HOLD);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_expect_raw_err(test, raw, xid, RDMA2_ERR_READ_CHUNKS);
	rr2r_expect_null_reply_next(test, raw, msg, 0xe230);

	/* V2-ERR-35 (E-28): more Write chunks than it fills: discarded too */
	n = rr2r_writes2(msg, ++xid, RR2S_MAX_WRITE_CHUNKS + 1);
	n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_HOLD);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.xid, xid);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_WRITE_CHUNKS);
	KUNIT_EXPECT_EQ(test, h.err_arg[0], RR2S_MAX_WRITE_CHUNKS);
	rr2r_expect_null_reply_next(test, raw, msg, 0xe240);

	/* a HOLD dispatched before a NULL would be counted by now */
	msleep(200);
	KUNIT_EXPECT_EQ(test, atomic_read(&rr2r_svc.held), 0);
}

static struct kunit_case rr2r_cases[] = {
	KUNIT_CASE_PARAM(rr2r_svc_xid_mismatch_bad_xdr, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_write_chunk_v1,
			 rr2r_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_write_chunk_v2,
			 rr2r_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_read_chunks_v1,
			 rr2r_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_read_chunks_v2,
			 rr2r_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_reply_chunk_v1,
			 rr2r_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_reply_chunk_v2,
			 rr2r_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_hostile_chunks, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_v2_cred_06_reads_within_ord,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_counters_move, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_rejected_calls_never_run,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_cmp_rinv_04_plain_send_without_r,
			 rr2r_link_gen_params),
	{}
};

static struct kunit_suite rr2r_suite = {
	.name		= "rpcrdma2_svc_chunks",
	.suite_init	= rr2r_suite_init,
	.suite_exit	= rr2r_suite_exit,
	.test_cases	= rr2r_cases,
};

kunit_test_suite(rr2r_suite);
