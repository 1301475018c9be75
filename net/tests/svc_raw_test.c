// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rpcrdma2_svc_raw": the server half from a raw client QP
 * (tests/fixture_raw.c), next to the fixture's rpc_clnt: malformed
 * messages get the required error or are dropped while another
 * connection keeps working (V2-SEC-17); rejected parts, XID mismatches,
 * limits and a late CONNPROP; a client beyond its grant; control
 * messages and the server's own sequences; a flood of hostile traffic.
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

/* The next message the server sent, decoded. */
static void rr2r_raw_answer(struct kunit *test, struct rpcrdma2_test_conn *c,
			    u32 vers, struct rpcrdma2_hdr *h)
{
	static const struct rpcrdma2_limits lim = { .max_segments = 1 };
	struct rpcrdma2_test_ep *ep = &c->client;
	int ret;

	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_wait_recv(ep));
	ret = rpcrdma2_decode_hdr(rpcrdma2_test_recv_buf(ep),
				  rpcrdma2_test_recv_len(ep), vers, &lim, h);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_post_recv(ep));
}

/*
 * V2-SEC-17, V2-FRAME-20, V2-FRAME-23, V2-ERR-01, V2-ERR-05, V2-ERR-17, V2-CONT-06:
 * crafted
 * messages get exactly the required answer; a runt is dropped without
 * one; the transport's own client on the same server is undisturbed.
 */
static void rr2r_malformed_from_raw_qp(struct kunit *test)
{
	/*
	 * asserts V2-ERR-01 (the runt draws nothing), V2-ERR-17 (htype 0x77:
	 * INVAL_HTYPE)
	 */
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_local local = {
		.max_vers = RPCRDMA2_VERS_2, .send_size = 4096,
		.recv_size = 4096, .credits = rpcrdma2_credit_word(8, 8),
	};
	struct rpc_clnt *clnt;
	struct page **pages;
	struct rpcrdma2_hdr h;
	u8 msg[128] = { };
	__be32 *words;
	u32 n;

	clnt = rr2r_start(test, RPCRDMA2_VERS_2, RPCRDMA2_VERS_2, NULL);
	pages = rr2r_pages(test);
	raw = rr2r_raw(test);

	/*
	 * version 3 first: ERR_VERS in the Version 2 layout, echoing the
	 * ingress version (V2-ERR-03), with the range 1..2 (V2-ERR-13)
	 */
	n = rr2r_hdr(msg, 0x1111, 3, RDMA2_MSG, 0);
	rr2r_raw_send(test, raw, msg, n + 16);
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_wait_recv(&raw->client));
	words = rpcrdma2_test_recv_buf(&raw->client);
	KUNIT_ASSERT_EQ(test, rpcrdma2_test_recv_len(&raw->client), 32);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&words[0]), 0x1111);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&words[1]), 3);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&words[3]), RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&words[4]), RDMA2_F_RESPONSE);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&words[5]), RDMA2_ERR_VERS);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&words[6]), RPCRDMA2_VERS_1);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&words[7]), RPCRDMA2_VERS_2);
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_post_recv(&raw->client));

	/* settle Version 2 with a CONNPROP; the server answers with its own */
	n = rpcrdma2_nego_client_hello(&local, 0x2222, msg, sizeof(msg));
	KUNIT_ASSERT_NE(test, n, 0);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_raw_answer(test, raw, RPCRDMA2_VERS_2, &h);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_CONNPROP);
	KUNIT_EXPECT_EQ(test, h.props.rbsiz, RPCRDMA2_BUF_SIZE_DEF);

	/* a runt is dropped silently: the next answer is for 0x4444 */
	rr2r_raw_send(test, raw, msg, 6);
	n = rr2r_hdr(msg, 0x4444, RPCRDMA2_VERS_2, 0x77, 0);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_raw_answer(test, raw, RPCRDMA2_VERS_2, &h);
	KUNIT_EXPECT_EQ(test, h.xid, 0x4444);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_INVAL_HTYPE);

	/* a sequence interrupted by another xid: INVAL_CONT */
	memset(msg, 0, sizeof(msg));
	n = rr2r_hdr(msg, 0x5555, RPCRDMA2_VERS_2, RDMA2_MSG, RDMA2_F_MORE);
	put_unaligned_be32(0x5555, msg + n + 16);	/* the RPC XID */
	rr2r_raw_send(test, raw, msg, n + 16 + 8);
	n = rr2r_hdr(msg, 0x6666, RPCRDMA2_VERS_2, RDMA2_MSG, 0);
	rr2r_raw_send(test, raw, msg, n + 16 + 8);
	rr2r_raw_answer(test, raw, RPCRDMA2_VERS_2, &h);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_INVAL_CONT);

	/* and the well-behaved connection never noticed */
	rr2r_roundtrip(test, clnt, pages, 20000);
}

/*
 * V2-ERR-23: a message of an open sequence that the server rejects
 * ends the sequence; the Call retransmitted under the same XID is taken
 * on its own, not appended to the stale fragments.
 */
static void rr2r_svc_rejected_part_ends_sequence(struct kunit *test)
{
	/* asserts V2-ERR-23; V2-FRAME-08: the Reply carries RESPONSE */
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;
	u8 msg[256], pl[64];
	u32 n, plen;

	raw = rr2r_raw_start(test, 1, RDMA2_RVRSDIR_SIMPLE, &h);

	/* part 1 of a Call to a procedure that does not exist */
	n = rr2r_msg2(msg, 0xa1, RDMA2_F_MORE);
	n += rr2r_rpc_call(msg + n, 0xa1, RR2R_PROG, 99);
	rr2r_raw_send(test, raw, msg, n);
	/* part 2, with a list discriminator of 7: BAD_XDR */
	n = rr2r_msg2(msg, 0xa1, 0);
	put_unaligned_be32(7, msg + 24);
	rr2r_raw_send(test, raw, msg, n + 8);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.xid, 0xa1);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_BAD_XDR);
	/* the retransmission: a whole NULL Call, which succeeds */
	n = rr2r_msg2(msg, 0xa1, 0);
	n += rr2r_rpc_call(msg + n, 0xa1, RR2R_PROG, RR2R_NULL);
	rr2r_raw_send(test, raw, msg, n);
	plen = rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_MSG);
	KUNIT_EXPECT_EQ(test, h.flags & RDMA2_F_RESPONSE, RDMA2_F_RESPONSE);
	KUNIT_ASSERT_GE(test, plen, 24);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl), 0xa1);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 20), RPC_SUCCESS);
}

/*
 * V2-ERR-32, V2-ERR-38: the server's CONNPROP says what it takes
 * (RSSIZ, RCSIZ), and its errors say the same: READ_CHUNKS says the
 * most Read chunks it takes.  V2-PROP-13: a second CONNPROP draws
 * INVAL_HTYPE.
 */
static void rr2r_svc_limits_and_late_connprop(struct kunit *test)
{
	/* asserts V2-ERR-32: READ_CHUNKS with the most the server takes */
	struct rpcrdma2_local local = {
		.max_vers = RPCRDMA2_VERS_2, .send_size = 4096,
		.recv_size = 4096, .credits = rpcrdma2_credit_word(8, 8),
	};
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;
	u8 msg[512];
	u32 n, i;

	raw = rr2r_raw_start(test, 1, RDMA2_RVRSDIR_SIMPLE, &h);
	KUNIT_EXPECT_EQ(test, h.props.rssiz, RDMA2_PROP_RSSIZ_DEFAULT);
	KUNIT_EXPECT_EQ(test, h.props.rcsiz, 32);

	/* nine Read chunks */
	n = rr2r_hdr(msg, 0xc1, RPCRDMA2_VERS_2, RDMA2_MSG, 0);
	put_unaligned_be32(0, msg + n);
	n += 4;
	for (i = 0; i < 9; i++) {
		put_unaligned_be32(1, msg + n);
		put_unaligned_be32(64 + 8 * i, msg + n + 4);
		put_unaligned_be32(0x100 + i, msg + n + 8);
		put_unaligned_be32(8, msg + n + 12);
		put_unaligned_be64(0x1000, msg + n + 16);
		n += 24;
	}
	memset(msg + n, 0, 12);
	n += 12;
	n += rr2r_rpc_call(msg + n, 0xc1, RR2R_PROG, RR2R_NULL);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.xid, 0xc1);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_READ_CHUNKS);
	KUNIT_EXPECT_EQ(test, h.err_arg[0], RR2S_MAX_READ_CHUNKS);

	n = rpcrdma2_nego_client_hello(&local, 0xc2, msg, sizeof(msg));
	rr2r_raw_send(test, raw, msg, n);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.xid, 0xc2);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_INVAL_HTYPE);
}

/* A Version 2 NULL Call with one Write chunk of @nsegs segments. */
static u32 rr2r_null_wchunk(u8 *b, u32 xid, u32 nsegs)
{
	u32 n = rr2r_hdr(b, xid, RPCRDMA2_VERS_2, RDMA2_MSG, 0), i;

	put_unaligned_be32(0, b + n);		/* rdma_inv_handle */
	put_unaligned_be32(0, b + n + 4);	/* no Read list */
	put_unaligned_be32(1, b + n + 8);	/* one Write chunk */
	put_unaligned_be32(nsegs, b + n + 12);
	n += 16;
	for (i = 0; i < nsegs; i++) {
		put_unaligned_be32(0x300 + i, b + n);
		put_unaligned_be32(4096, b + n + 4);
		put_unaligned_be64(0x10000 + 4096 * i, b + n + 8);
		n += 16;
	}
	put_unaligned_be32(0, b + n);		/* end of the Write list */
	put_unaligned_be32(0, b + n + 4);	/* no Reply chunk */
	n += 8;
	return n + rr2r_rpc_call(b + n, xid, RR2R_PROG, RR2R_NULL);
}

/*
 * V2-CHUNK-31, V2-PROP-08, V2-ERR-38: a client that opens with a Call,
 * before the server's CONNPROP went out, knows only the default RCSIZ
 * (16): a chunk of 17 segments draws SEGMENTS saying 16.  Once the
 * server's CONNPROP is out, its own value (32) applies: the same Call
 * is answered.
 */
static void rr2r_svc_v2_chunk_31_rcsiz_before_connprop(struct kunit *test)
{
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;
	u8 *msg, pl[64];
	u32 n, plen;

	msg = kunit_kzalloc(test, 1024, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);

	/* the Call first: no CONNPROP either way */
	raw = rr2r_raw(test);
	n = rr2r_null_wchunk(msg, 0xe1, RDMA2_PROP_RCSIZ_DEFAULT + 1);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.xid, 0xe1);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_SEGMENTS);
	KUNIT_EXPECT_EQ(test, h.err_arg[0], RDMA2_PROP_RCSIZ_DEFAULT);
	/* 16 are taken */
	n = rr2r_null_wchunk(msg, 0xe2, RDMA2_PROP_RCSIZ_DEFAULT);
	rr2r_raw_send(test, raw, msg, n);
	plen = rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_MSG);
	KUNIT_EXPECT_EQ(test, h.xid, 0xe2);
	KUNIT_ASSERT_GE(test, plen, 24);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 20), RPC_SUCCESS);

	/* after the CONNPROP exchange: the server's RCSIZ */
	raw = rr2r_raw(test);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	KUNIT_EXPECT_EQ(test, h.props.rcsiz, RR2S_MAX_SEGS);
	n = rr2r_null_wchunk(msg, 0xe3, RDMA2_PROP_RCSIZ_DEFAULT + 1);
	rr2r_raw_send(test, raw, msg, n);
	plen = rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_MSG);
	KUNIT_EXPECT_EQ(test, h.xid, 0xe3);
	KUNIT_ASSERT_GE(test, plen, 24);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 20), RPC_SUCCESS);
}

/*
 * CMP-CMPD-14, CMP-CMPD-17: a client whose connection request carries
 * no RFC 8797 record, or one with a version the server does not know,
 * gets 1024-octet thresholds both ways, not 0: a Version 1 NULL Call
 * is answered with its Reply.
 */
static void rr2r_svc_no_cm_record(struct kunit *test)
{
	/*
	 * asserts CMP-CMPD-14: no record is 1024/1024, and a NULL Call is
	 * answered
	 */
	static const enum rpcrdma2_test_pdata modes[] = {
		RPCRDMA2_TEST_PDATA_NONE, RPCRDMA2_TEST_PDATA_BAD,
	};
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;
	u8 msg[128], pl[64];
	u32 n, i, plen;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		raw = rr2r_raw_pdata(test, 0, modes[i]);
		n = rr2r_msg1(msg, 0xd1 + i);
		n += rr2r_rpc_call(msg + n, 0xd1 + i, RR2R_PROG, RR2R_NULL);
		rr2r_raw_send(test, raw, msg, n);
		plen = rr2r_take(test, &raw->client, RPCRDMA2_VERS_1, &h, pl);
		KUNIT_EXPECT_EQ_MSG(test, h.htype, RDMA_MSG, "pdata mode %u",
				    modes[i]);
		KUNIT_ASSERT_GE(test, plen, 24);
		KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 20),
				RPC_SUCCESS);
	}
}

/* ---- a flood of malformed traffic ---- */

#define RR2R_FLOOD_MSGS		800

#define RR2R_FLOOD_RECONNECTS	100

/* Live rpcrdma2 connections of the test server. */
static unsigned int rr2r_svc_conns(void)
{
	struct svc_serv *serv = rr2r_svc.serv;
	unsigned int n = 0;
	struct svc_xprt *x;

	spin_lock_bh(&serv->sv_lock);
	list_for_each_entry(x, &serv->sv_tempsocks, xpt_list)
		if (!strcmp(x->xpt_class->xcl_name, "rdma") &&
		    !test_bit(XPT_DEAD, &x->xpt_flags))
			n++;
	spin_unlock_bh(&serv->sv_lock);
	return n;
}

/* One hostile message, of kind @i % 8; returns its length. */
static u32 rr2r_flood_msg(struct rnd_state *rs, u32 i, u8 *msg, u32 max)
{
	u32 n, k, xid = 0xf1000000 | i;

	memset(msg, 0, max);
	switch (i % 8) {
	case 0:		/* a good inline Call: answered with a Reply */
	case 1:		/* the same with up to three words changed */
		n = rr2r_chunk_call(msg, RPCRDMA2_VERS_2, xid, false, 0, NULL,
				    0, NULL, 0, NULL);
		n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_NULL);
		if (i % 8 == 1)
			for (k = prandom_u32_state(rs) % 3 + 1; k; k--)
				put_unaligned_be32(prandom_u32_state(rs),
						   msg + 4 * (prandom_u32_state(rs) %
							      (n / 4)));
		return n;
	case 2:		/* noise */
		n = prandom_u32_state(rs) % 200;
		prandom_bytes_state(rs, msg, n);
		return n;
	case 3:		/* a continued sequence that never ends */
		n = rr2r_hdr(msg, 0xc0de0000, RPCRDMA2_VERS_2, RDMA2_MSG,
			     RDMA2_F_MORE);
		put_unaligned_be32(0xc0de0000, msg + n);
		return min_t(u32, max, 3000);
	case 4:		/* CONNPROP again and again */
		return rr2r_hdr(msg, xid, RPCRDMA2_VERS_2, RDMA2_CONNPROP, 0) +
		       4;
	case 5:		/* a version nobody speaks, or Version 1 */
		return rr2r_hdr(msg, xid, i & 8 ? 7 : RPCRDMA2_VERS_1,
				RDMA2_MSG, 0) + 16;
	case 6:		/* lying chunk counts */
		n = rr2r_hdr(msg, xid, RPCRDMA2_VERS_2, RDMA2_MSG, 0);
		put_unaligned_be32(1, msg + n);		/* a Read chunk */
		put_unaligned_be32(0xffffffff, msg + n + 4);
		put_unaligned_be32(0xffffffff, msg + n + 8);
		return n + 64;
	default:	/* an error from a Requester, and garbage after it */
		n = rr2r_hdr(msg, xid, RPCRDMA2_VERS_2, RDMA2_ERROR, 0);
		put_unaligned_be32(prandom_u32_state(rs), msg + n);
		return n + 8;
	}
}

/*
 * V2-SEC-17 under load: a raw client floods the server with malformed
 * and mutated messages, never-ending continuations, CONNPROP after
 * CONNPROP and lying lengths, as fast as its single Receive lets it
 * (it waits briefly for an answer, and sends on when none comes).  A
 * connection the server drops is made again.  The server answers or
 * drops each message, never more; the transport's own client on the
 * same server completes every RPC meanwhile; and afterwards the server
 * has no connection left over.  The debug KUnit kernel adds KASAN and
 * kmemleak over all of it.
 */
static void rr2r_svc_flood(struct kunit *test)
{
	struct rpcrdma2_test_conn *raw = NULL;
	u32 i, len, sent = 0, answers = 0, drops = 0;
	unsigned int before;
	struct rnd_state rs;
	struct rpc_clnt *clnt;
	struct page **pages;
	u8 *msg;
	int ret;

	clnt = rr2r_start(test, RPCRDMA2_VERS_2, RPCRDMA2_VERS_2, NULL);
	pages = rr2r_pages(test);
	msg = kunit_kzalloc(test, RPCRDMA2_TEST_BUF_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	prandom_seed_state(&rs, 0x20261124);
	before = rr2r_svc_conns();

	for (i = 0; i < RR2R_FLOOD_MSGS; i++) {
		if (!raw) {
			if (drops >= RR2R_FLOOD_RECONNECTS)
				break;
			raw = rr2r_raw_vers(test, RPCRDMA2_VERS_2);
		}
		len = rr2r_flood_msg(&rs, i, msg, RPCRDMA2_TEST_BUF_SIZE);
		memcpy(rpcrdma2_test_send_buf(&raw->client), msg, len);
		ret = rpcrdma2_test_post_send(&raw->client, len);
		if (!ret)
			ret = rpcrdma2_test_wait_send(&raw->client);
		if (!ret) {
			sent++;
			if (wait_for_completion_timeout(&raw->client.recv_done,
							msecs_to_jiffies(20))) {
				if (raw->client.ep.recvs[0].status ==
				    IB_WC_SUCCESS)
					ret = rpcrdma2_test_post_recv(&raw->client);
				else
					ret = -ECONNRESET;
				answers += !ret;
			}
		}
		if (ret) {	/* the server dropped it: a new one */
			rpcrdma2_test_disconnect(raw);
			raw = NULL;
			drops++;
		}
		if (i % 50 == 49)
			rr2r_roundtrip(test, clnt, pages, 5000 + i);
	}
	if (raw)
		rpcrdma2_test_disconnect(raw);
	kunit_info(test, "flood: %u sent, %u answered, %u connections dropped",
		   sent, answers, drops);
	KUNIT_EXPECT_EQ_MSG(test, i, RR2R_FLOOD_MSGS,
			    "the server dropped %u connections in a row", drops);
	KUNIT_EXPECT_GT(test, answers, 0U);

	/* every raw connection is gone on the server too */
	for (i = 0; i < 200 && rr2r_svc_conns() > before; i++)
		msleep(50);
	KUNIT_EXPECT_LE(test, rr2r_svc_conns(), before);
	rr2r_roundtrip(test, clnt, pages, RR2R_MAX);
}

/* ---- a client beyond its grant ---- */

/* Poll @name until it is past @old; false if it never moves. */
static bool rr2r_sysctl_moves(struct kunit *test, const char *name,
			      unsigned long old)
{
	int i;

	for (i = 0; i < 200 && rr2r_sysctl_read(test, name) == old; i++)
		msleep(50);
	return rr2r_sysctl_read(test, name) != old;
}

/*
 * V2-CRED-04, V2-SEC-17: a raw client with a grant of 4 (max_requests)
 * sends a HOLD Call, which takes the service's only thread, then
 * RR2R_OVER more HOLD Calls than the bound (twice the grant: a
 * retransmission rides its original's credit, RR2S_GRANT_SLACK) lets
 * it have, without waiting for a Reply: as Special Format Calls
 * (Position-Zero Read chunk) or as continued Calls (two Sends each).
 * Neither keeps a Receive, so only the grant bounds them.  The server
 * queues no more Calls than the bound (rdma_stat_recv), closes the
 * connection at the first Call beyond it (rpcrdma2_over_grant), never
 * before (a polite client's retransmissions), and frees it all (the debug
 * kernel's kmemleak and KASAN watch); the transport's own client on the
 * same server carries on.
 */
#define RR2R_OVER	3

/* Twice the grant taken, and the connection still open. */
static void rr2r_within_bound(struct kunit *test, unsigned long recv0,
			      unsigned long over0, u32 grant)
{
	unsigned long want = RR2S_GRANT_SLACK * grant;
	u32 i;

	for (i = 0; i < 200 &&
	     rr2r_sysctl_read(test, "rdma_stat_recv") - recv0 < want; i++)
		msleep(50);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "rdma_stat_recv") - recv0,
			want);
	KUNIT_EXPECT_EQ_MSG(test, rr2r_sysctl_read(test, "rpcrdma2_over_grant"),
			    over0, "closed within twice the grant");
}

static void rr2r_over_grant(struct kunit *test, bool nomsg)
{
	unsigned long recv0, over0;
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_chunk_out rd;
	struct rpcrdma2_segment seg;
	struct rpc_clnt *clnt;
	struct rpcrdma2_hdr h;
	struct page **pages;
	u32 n, i, grant, xid = 0xc4000;
	unsigned int conns;
	struct rr2r_mr *m;
	u8 *msg, call[40];

	msg = kunit_kzalloc(test, 1024, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	clnt = rr2r_start(test, RPCRDMA2_VERS_2, RPCRDMA2_VERS_2, NULL);
	pages = rr2r_pages(test);
	rr2r_roundtrip(test, clnt, pages, 20000);	/* connected first */
	conns = rr2r_svc_conns();

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_knobs_reset,
							   NULL));
	KUNIT_ASSERT_EQ(test, 0, rr2r_sysctl_write(test, "max_requests", "4"));
	rr2r_hold_calls(test);
	raw = rr2r_raw(test);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	grant = rpcrdma2_credit_in(RPCRDMA2_VERS_2, h.credit);
	KUNIT_ASSERT_EQ(test, grant, 4);
	m = rr2r_mr(test, raw, 4096);
	recv0 = rr2r_sysctl_read(test, "rdma_stat_recv");
	over0 = rr2r_sysctl_read(test, "rpcrdma2_over_grant");

	/* one HOLD takes the only service thread */
	n = rr2r_msg2(msg, xid, 0);
	n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_HOLD);
	rr2r_raw_send(test, raw, msg, n);
	for (i = 0; i < 200 && !atomic_read(&rr2r_svc.held); i++)
		msleep(50);
	KUNIT_ASSERT_EQ(test, atomic_read(&rr2r_svc.held), 1);

	/* then 2 * grant - 1 Calls it may have, and RR2R_OVER it may not */
	for (i = 1; i < RR2S_GRANT_SLACK * grant + RR2R_OVER; i++) {
		if (i == RR2S_GRANT_SLACK * grant)
			rr2r_within_bound(test, recv0, over0, grant);
		xid++;
		rr2r_rpc_call(call, xid, RR2R_PROG, RR2R_HOLD);
		if (nomsg) {
			rr2r_mr_put(m, 0, call, sizeof(call));
			seg = rr2r_seg(m, 0, sizeof(call));
			rd = (struct rpcrdma2_chunk_out){ .nsegs = 1,
							  .segs = &seg };
			n = rr2r_chunk_call(msg, RPCRDMA2_VERS_2, xid, true, 0,
					    &rd, 1, NULL, 0, NULL);
			rr2r_raw_send(test, raw, msg, n);
			continue;
		}
		n = rr2r_msg2(msg, xid, RDMA2_F_MORE);
		memcpy(msg + n, call, 20);
		rr2r_raw_send(test, raw, msg, n + 20);
		n = rr2r_msg2(msg, xid, 0);
		memcpy(msg + n, call + 20, 20);
		rr2r_raw_send(test, raw, msg, n + 20);
	}

	KUNIT_EXPECT_TRUE_MSG(test,
			      rr2r_sysctl_moves(test, "rpcrdma2_over_grant",
						over0),
			      "a Call beyond the grant left the connection open");
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "rpcrdma2_over_grant"),
			over0 + 1);
	KUNIT_EXPECT_LE_MSG(test,
			    rr2r_sysctl_read(test, "rdma_stat_recv") - recv0,
			    (unsigned long)RR2S_GRANT_SLACK * grant,
			    "more Calls queued than twice the %u credits granted",
			    grant);

	/* the thread comes back and closes it; all of it is freed */
	complete_all(&rr2r_svc.release);
	for (i = 0; i < 200 && rr2r_svc_conns() > conns; i++)
		msleep(50);
	KUNIT_EXPECT_LE(test, rr2r_svc_conns(), conns);
	rr2r_roundtrip(test, clnt, pages, 20000);
	rr2r_roundtrip(test, clnt, pages, RR2R_MAX);
}

static void rr2r_svc_v2_cred_04_nomsg_over_grant_closes(struct kunit *test)
{
	rr2r_over_grant(test, true);
}

static void rr2r_svc_v2_cred_04_continued_over_grant_closes(struct kunit *test)
{
	rr2r_over_grant(test, false);
}

/* ---- control messages and our sequences ---- */

/*
 * After message @seen of a continued Reply from the server: at the end
 * of each window, the acknowledgment it waits for (V2-CRED-08); at the
 * end of the first, before it, a message with an unknown htype
 * (xid 0x4444), whose INVAL_HTYPE the server owes while its Reply is
 * still continued (V2-CONT-03), and then @arm runs (or NULL).
 */
static void rr2r_window_step(struct kunit *test,
			     struct rpcrdma2_test_conn *raw, u32 seen,
			     void (*arm)(u32 skip), u32 skip)
{
	u8 msg[64];
	u32 n;

	if (seen < 2 || (seen - 1) % RPCRDMA2_SEQ_WINDOW)
		return;
	if (seen == 1 + RPCRDMA2_SEQ_WINDOW) {
		n = rr2r_hdr(msg, 0x4444, RPCRDMA2_VERS_2, 0x77, 0);
		rr2r_raw_send(test, raw, msg, n);
		if (arm)
			arm(skip);
	}
	n = rpcrdma2_encode_credit_grant(msg, sizeof(msg),
					 rpcrdma2_credit_word(8, 8));
	rr2r_raw_send(test, raw, msg, n);
}

/*
 * V2-CONT-03 (E-31): an error the server owes while one of its Replies
 * is continued goes out after the Reply's final Send, never between
 * its Sends; window acknowledgments are the exception (xfer.c).  A raw
 * client asks for a GET whose Reply takes more Sends than one window,
 * so the server stops after the first window and waits for an
 * acknowledgment.  Only then does the client send a message with an
 * unknown htype, which draws INVAL_HTYPE, and the acknowledgment after
 * it: the server handles the two in that order, so without the rule
 * the error would be on the wire before the Reply's next Send.
 */
static void rr2r_svc_v2_cont_03_error_after_reply_sequence(struct kunit *test)
{
	const u32 xid = 0xc3000, len = 18 * 4060 + 1000;
	u32 n, seen = 0, err_at = 0, final_at = 0, k;
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;
	u8 msg[128];

	raw = rr2r_raw_start(test, 24, RDMA2_RVRSDIR_SIMPLE, &h);
	n = rr2r_msg2(msg, xid, 0);
	n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_GET);
	n += rr2r_args(msg + n, 0x5eed, len);
	rr2r_raw_send(test, raw, msg, n);

	/* at most 64 messages: the Reply, the error and nothing else */
	for (k = 1; k <= 64 && !(err_at && final_at); k++) {
		rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
		if (h.htype == RDMA2_ERROR) {
			KUNIT_EXPECT_EQ(test, h.xid, 0x4444);
			KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_INVAL_HTYPE);
			err_at = k;
			continue;
		}
		KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
		KUNIT_ASSERT_EQ(test, h.xid, xid);
		seen++;
		if (!(h.flags & RDMA2_F_MORE)) {
			final_at = k;
			continue;
		}
		rr2r_window_step(test, raw, seen, NULL, 0);
	}
	KUNIT_EXPECT_GT(test, seen, 1 + RPCRDMA2_SEQ_WINDOW);
	KUNIT_EXPECT_NE(test, final_at, 0);
	KUNIT_EXPECT_GT_MSG(test, err_at, final_at,
			    "the error was message %u, the Reply's final one %u",
			    err_at, final_at);
}

/*
 * V2-CONT-03: an error held for the end of a continued Reply is never
 * sent after a Reply that ends part way.  As in the case above, the
 * server waits for the first window's acknowledgment with an
 * INVAL_HTYPE held; then the Reply's next Send is made to fail to post
 * (as on a QP in error) and the acknowledgment is sent.  The client
 * would read anything after the partial Reply as part of it: the
 * server drops the held error and closes the connection, so the raw
 * client sees no RDMA2_ERROR before the connection goes.
 */
static void rr2r_svc_v2_cont_03_failed_sequence_drops_held(struct kunit *test)
{
	const u32 xid = 0xc3100, len = 18 * 4060 + 1000;
	u32 n, seen = 0, errors = 0, k;
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;
	u8 msg[128], *b;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_send_faults_off,
							   NULL));
	raw = rr2r_raw_n(test, 24);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	n = rr2r_msg2(msg, xid, 0);
	n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_GET);
	n += rr2r_args(msg + n, 0x5eed, len);
	rr2r_raw_send(test, raw, msg, n);

	/* the first window, up to where the server waits for its ack */
	for (k = 1; k <= 1 + RPCRDMA2_SEQ_WINDOW; k++) {
		rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
		KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
		KUNIT_ASSERT_EQ(test, h.xid, xid);
		KUNIT_ASSERT_TRUE(test, h.flags & RDMA2_F_MORE);
	}
	/* an error is held; then the Reply's next Send fails */
	n = rr2r_hdr(msg, 0x4444, RPCRDMA2_VERS_2, 0x77, 0);
	rr2r_raw_send(test, raw, msg, n);
	rr2s_test_fail_sends(1);
	n = rpcrdma2_encode_credit_grant(msg, sizeof(msg),
					 rpcrdma2_credit_word(8, 8));
	rr2r_raw_send(test, raw, msg, n);

	/*
	 * The connection goes; then whatever arrived before it.  (On siw
	 * a Send posted just before the disconnect may not be delivered,
	 * so rxe is the link that sees a held error go out.)
	 */
	KUNIT_EXPECT_TRUE_MSG(test,
			      wait_for_completion_timeout(&raw->client.cm_event,
							  30 * HZ),
			      "the connection stayed up after a partial Reply");
	msleep(200);
	while (completion_done(&raw->client.recv_done) &&
	       !rpcrdma2_test_wait_recv(&raw->client)) {
		b = rpcrdma2_test_recv_buf(&raw->client);
		if (rpcrdma2_test_recv_len(&raw->client) >= 16 &&
		    get_unaligned_be32(b + 12) == RDMA2_ERROR)
			errors++;
		else
			seen++;
		if (rpcrdma2_test_post_recv(&raw->client))
			break;
	}
	KUNIT_EXPECT_EQ_MSG(test, errors, 0,
			    "a held error went out after a partial Reply");
	KUNIT_EXPECT_EQ(test, seen, 0);
}

/*
 * A message came to @ep, or its connection went (a CM event): true for
 * a message.  A closed connection's Receives are not always flushed, so
 * waiting for one alone would take the whole RR2T_WAIT.
 */
static bool rr2r_recv_or_gone(struct rpcrdma2_test_ep *ep)
{
	unsigned long end = jiffies + 20 * HZ;

	while (!completion_done(&ep->recv_done)) {
		if (completion_done(&ep->cm_event) || time_after(jiffies, end))
			return false;
		msleep(20);
	}
	return true;
}

/*
 * A GET (RR2R_SEED_TWICE) whose Reply posts RDMA Writes into @m and is
 * continued: the messages of its Reply are taken, each window
 * acknowledged; after the first window an INVAL_HTYPE is sent, which
 * the server holds for the Reply's end, and then @arm runs (or NULL).
 * Returns how many Reply messages came, the final one counted, or 0 if
 * the connection went before the final one; *@errors counts the
 * RDMA2_ERRORs seen before the final one (V2-CONT-03: none).
 */
static u32 rr2r_twice_get(struct kunit *test, struct rpcrdma2_test_conn *raw,
			  struct rr2r_mr *m, u32 xid, u32 len,
			  void (*arm)(u32 skip), u32 skip, u32 *errors)
{
	struct rpcrdma2_segment seg = rr2r_seg(m, 0, m->npages * PAGE_SIZE);
	struct rpcrdma2_chunk_out w = { .nsegs = 1, .segs = &seg };
	struct rpcrdma2_hdr h;
	u32 n, seen = 0;
	u8 msg[512];

	n = rr2r_chunk_call(msg, RPCRDMA2_VERS_2, xid, false, 0, NULL, 0, &w,
			    1, NULL);
	n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_GET);
	n += rr2r_args(msg + n, RR2R_SEED_TWICE, len);
	rr2r_raw_send(test, raw, msg, n);
	*errors = 0;
	while (seen < 64) {
		if (!rr2r_recv_or_gone(&raw->client) ||
		    rpcrdma2_test_wait_recv(&raw->client))
			return 0;	/* the connection went */
		n = rpcrdma2_test_recv_len(&raw->client);
		KUNIT_ASSERT_EQ(test, 0,
				rpcrdma2_decode_hdr(rpcrdma2_test_recv_buf(&raw->client),
						    n, RPCRDMA2_VERS_2,
						    &rr2r_reply_lim, &h));
		KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_post_recv(&raw->client));
		if (h.htype == RDMA2_ERROR) {
			(*errors)++;
			continue;
		}
		KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
		KUNIT_ASSERT_EQ(test, h.xid, xid);
		seen++;
		if (!(h.flags & RDMA2_F_MORE))
			return seen;
		rr2r_window_step(test, raw, seen, arm, skip);
	}
	KUNIT_FAIL(test, "the Reply did not end within 64 messages");
	return 0;
}

/* svc-send passes @skip posts, then fails every one */
static void rr2r_fail_sends_after(u32 skip)
{
	rpcrdma2_fail_after(RPCRDMA2_FAIL_SVC_SEND, skip);
}

/*
 * V2-CONT-03, V2-CHUNK-10: a continued Reply whose RDMA Writes went
 * ahead of it reaches its final Send, but the error held behind it
 * cannot be posted (as on a QP gone into error just then).  The final
 * Send owns the Reply's Write list and releases it when it completes;
 * the server must not also keep the list as an orphan of a Reply never
 * sent (the debug run's KASAN sees the list used after it was freed
 * if it does).  The held error is never seen, the connection closes
 * (its last Sends may be flushed on the way), and a new one is served.
 * A first GET, not faulted, counts the Reply's messages, so the fault
 * can let exactly those pass.
 */
static void rr2r_svc_v2_cont_03_held_post_fails_after_writes(struct kunit *test)
{
	const u32 len = 20 * 4096;
	struct rpcrdma2_test_conn *raw;
	u32 nmsgs, errors, got;
	struct rpcrdma2_hdr h;
	struct rr2r_mr *m;
	u64 injected;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_send_faults_off,
							   NULL));
	raw = rr2r_raw_n(test, 24);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	m = rr2r_mr(test, raw, len);

	nmsgs = rr2r_twice_get(test, raw, m, 0xc3300, len, NULL, 0, &errors);
	KUNIT_ASSERT_GT(test, nmsgs, 1 + RPCRDMA2_SEQ_WINDOW);
	KUNIT_ASSERT_LE(test, nmsgs, 1 + 2 * RPCRDMA2_SEQ_WINDOW);
	KUNIT_EXPECT_EQ(test, errors, 0);
	KUNIT_EXPECT_TRUE(test, rr2r_mr_verify(m, 0, len, RR2R_SEED_TWICE));
	/* the held error, after the Reply */
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_INVAL_HTYPE);

	/*
	 * Again: the Reply's remaining Sends pass, the held error fails.
	 * The server closes at once, so the last Sends may be flushed
	 * before they arrive.
	 */
	injected = rpcrdma2_fail_injected(RPCRDMA2_FAIL_SVC_SEND);
	got = rr2r_twice_get(test, raw, m, 0xc3301, len, rr2r_fail_sends_after,
			     nmsgs - 1 - RPCRDMA2_SEQ_WINDOW, &errors);
	KUNIT_EXPECT_LE(test, got, nmsgs);
	KUNIT_EXPECT_EQ(test, errors, 0);
	KUNIT_EXPECT_TRUE_MSG(test,
			      wait_for_completion_timeout(&raw->client.cm_event,
							  30 * HZ),
			      "the connection stayed up, an error owed");
	rr2s_test_fail_sends(0);
	KUNIT_EXPECT_GT(test, rpcrdma2_fail_injected(RPCRDMA2_FAIL_SVC_SEND),
			injected);
	/* nothing after the Reply, the held error least */
	msleep(200);
	if (completion_done(&raw->client.recv_done))
		KUNIT_EXPECT_NE_MSG(test,
				    rpcrdma2_test_wait_recv(&raw->client), 0,
				    "a held error went out after its post failed");

	raw = rr2r_raw(test);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	rr2r_null_grant(test, raw, 0xc3302);
}

/*
 * V2-CONT-03, V2-SEC-17: an error held for the end of a continued
 * Reply is not lost when the control Send buffers are all taken then
 * (window acknowledgments take them, even inside a sequence): it waits
 * for one to come back, and the connection stays up.  As above, the
 * server waits for the first window's acknowledgment; the test takes
 * every control buffer of the server's pool, as acknowledgments in
 * flight would, the client sends a message with an unknown htype
 * (INVAL_HTYPE is held) and the acknowledgment, and the Reply ends.
 * Only when the buffers come back does the error go out; then a NULL
 * Call is answered on the same connection.
 */
static void rr2r_svc_v2_cont_03_held_waits_for_ctrl_buffer(struct kunit *test)
{
	struct rpcrdma2_send *taken[RPCRDMA2_CTRL_SENDS];
	const u32 xid = 0xc3200, len = 18 * 4060 + 1000;
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_send *sd;
	struct rpcrdma2_hdr h;
	struct rr2s_conn *c;
	u32 n, k, ntaken = 0;
	u8 msg[128], *b;

	raw = rr2r_raw_start(test, 24, RDMA2_RVRSDIR_SIMPLE, &h);
	c = rr2r_svc_conn(test, raw);
	svc_xprt_get(&c->b.xprt);	/* the pool outlives a closed one */
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_svc_xprt_put,
							   &c->b.xprt));
	n = rr2r_msg2(msg, xid, 0);
	n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_GET);
	n += rr2r_args(msg + n, 0x5eed, len);
	rr2r_raw_send(test, raw, msg, n);
	for (k = 1; k <= 1 + RPCRDMA2_SEQ_WINDOW; k++) {
		rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
		KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
		KUNIT_ASSERT_TRUE(test, h.flags & RDMA2_F_MORE);
	}

	/* every control buffer taken (the CONNPROP's may be completing) */
	for (k = 0; k < 100 && ntaken < RPCRDMA2_CTRL_SENDS; k++) {
		while (ntaken < RPCRDMA2_CTRL_SENDS &&
		       (sd = rpcrdma2_pool_get(&c->link.pool, true)))
			taken[ntaken++] = sd;
		if (ntaken < RPCRDMA2_CTRL_SENDS)
			msleep(20);
	}
	KUNIT_ASSERT_EQ(test, ntaken, RPCRDMA2_CTRL_SENDS);

	n = rr2r_hdr(msg, 0x4444, RPCRDMA2_VERS_2, 0x77, 0);
	rr2r_raw_send(test, raw, msg, n);
	n = rpcrdma2_encode_credit_grant(msg, sizeof(msg),
					 rpcrdma2_credit_word(8, 8));
	rr2r_raw_send(test, raw, msg, n);
	do {
		rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
		KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
		KUNIT_ASSERT_EQ(test, h.xid, xid);
	} while (h.flags & RDMA2_F_MORE);
	msleep(200);		/* the Reply's sender has ended its sequence */

	/* the buffers come back, as their completions would bring them */
	while (ntaken)
		rpcrdma2_pool_put(&c->link.pool, taken[--ntaken]);
	KUNIT_ASSERT_EQ_MSG(test, rpcrdma2_test_wait_recv(&raw->client), 0,
			    "the error held for a control buffer was lost");
	b = rpcrdma2_test_recv_buf(&raw->client);
	KUNIT_EXPECT_GE(test, rpcrdma2_test_recv_len(&raw->client), 24);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b), 0x4444);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b + 12), RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b + 20),
			RDMA2_ERR_INVAL_HTYPE);
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_post_recv(&raw->client));
	rr2r_expect_null_reply_next(test, raw, msg, 0xc3201);
}

static struct kunit_case rr2r_cases[] = {
	KUNIT_CASE_PARAM(rr2r_malformed_from_raw_qp, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_rejected_part_ends_sequence,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_limits_and_late_connprop,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_no_cm_record, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_v2_chunk_31_rcsiz_before_connprop,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_v2_cred_04_nomsg_over_grant_closes,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_v2_cred_04_continued_over_grant_closes,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_v2_cont_03_error_after_reply_sequence,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_v2_cont_03_failed_sequence_drops_held,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_v2_cont_03_held_post_fails_after_writes,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_v2_cont_03_held_waits_for_ctrl_buffer,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM_ATTR(rr2r_svc_flood, rr2r_link_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static struct kunit_suite rr2r_suite = {
	.name		= "rpcrdma2_svc_raw",
	.suite_init	= rr2r_suite_init,
	.suite_exit	= rr2r_suite_exit,
	.test_cases	= rr2r_cases,
};

kunit_test_suite(rr2r_suite);
