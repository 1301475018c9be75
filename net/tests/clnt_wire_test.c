// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rpcrdma2_clnt_wire": the client half against a raw
 * server.  An rpc_clnt on rpcrdma2 connects to a listener of the test's
 * own (tests/env.c), which answers whatever the case scripts: byte
 * patterns a real server would not send, or would send only in rare
 * states.  Each case checks what the client does on the wire (the next
 * message it sends) and to the RPC waiting on it.
 *
 *   - CMP-CMPD-14: no RFC 8797 record means 1024/1024 thresholds;
 *   - V2-FRAME-17, V2-FRAME-18: a Version 2 ERR_VERS [1, 1] falls back;
 *   - V2-FRAME-19: a first reply that settles nothing makes the next
 *     connection open in Version 1, with no second CONNPROP;
 *   - the errors a client must answer or drop, and the routing of
 *     reverse Calls (V2-RDIR-18); see rr2w_client_answers_and_drops();
 *   - chunks on Version 1: the Write chunk a READ-like Call offers, a
 *     hostile returned length, an unused chunk, a short one, Send With
 *     Invalidate of the offered rkey; the MR pool is full again after
 *     each (rr2w_v1_write_chunk()); data RDMA-written into a Write chunk
 *     and a Reply chunk (RDMA_NOMSG) reaches the caller, a Reply chunk
 *     longer than offered fails the RPC (rr2w_v1_rdma_placed()); Send
 *     With Invalidate of another XID's rkey resets the connection
 *     (rr2w_v1_foreign_rkey()).
 *
 * Cases run once per provider (rxe, siw).
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/ctype.h>
#include <linux/highmem.h>
#include <linux/seq_file.h>
#include <linux/sunrpc/bc_xprt.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/xprtrdma.h>
#include <linux/sysctl.h>
#include <linux/unaligned.h>

#include "rpcrdma2.h"
#include "client/client.h"
#include "shared/codec.h"
#include "shared/dev.h"
#include "tests/env.h"
#include "tests/hooks.h"
#include "tests/fixture.h"

static void rr2w_devclamp(struct kunit *test, enum rpcrdma2_devclamp p);

/* READ (tests/fixture.h) of up to this, into pages */
#define RR2W_READ_MAX	(64 * 1024)

static const struct rpc_timeout rr2w_timeout = {
	.to_initval	= 60 * HZ,
	.to_maxval	= 60 * HZ,
	.to_retries	= 1,
};

/* ---- the raw server and the client under test ---- */

struct rr2w {
	struct kunit			*test;
	struct rpcrdma2_test_conn	srv;
	struct rpc_clnt			*clnt;
	struct completion		done;
	int				status;
};

static void rr2w_cleanup(void *data)
{
	struct rr2w *w = data;

	if (w->clnt)
		rpc_shutdown_client(w->clnt);
	rpcrdma2_test_disconnect(&w->srv);
}

static struct rr2w *rr2w_start_n(struct kunit *test,
				 enum rpcrdma2_test_pdata pdata, u32 nr_recv)
{
	const struct rr2r_param *param = test->param_value;
	const enum rpcrdma2_test_link *link = &param->link;
	struct rpcrdma2_test_env *env = &rr2r_envs[*link];
	struct sockaddr_storage dst;
	struct rpc_create_args args = {
		.net		= &init_net,
		.protocol	= XPRT_TRANSPORT_RDMA,
		.address	= (struct sockaddr *)&dst,
		.timeout	= &rr2w_timeout,
		.servername	= "rpcrdma2-wire",
		.program	= &rr2r_clnt_program,
		.version	= RR2R_VERS,
		.authflavor	= RPC_AUTH_NULL,
		.cred		= current_cred(),
		.flags		= RPC_CLNT_CREATE_NOPING,
	};
	struct rr2w *w;

	KUNIT_ASSERT_EQ_MSG(test, env->err, 0, "%s setup failed at \"%s\"",
			    rpcrdma2_test_link_name(*link),
			    env->failed_step ?: "?");
	rpcrdma2_test_cap_version(RPCRDMA2_CLIENT, RPCRDMA2_VERS_2);
	if (param->clamp != RPCRDMA2_DEVCLAMP_NONE)
		rr2w_devclamp(test, param->clamp);
	w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	w->test = test;
	init_completion(&w->done);
	rpcrdma2_test_conn_init(&w->srv, env);
	w->srv.pdata = pdata;
	w->srv.nr_recv = nr_recv;
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, rr2w_cleanup,
							   w));
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_listen(&w->srv, &dst));
	args.addrsize = dst.ss_family == AF_INET6 ?
			sizeof(struct sockaddr_in6) :
			sizeof(struct sockaddr_in);
	w->clnt = rpc_create(&args);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(w->clnt), "rpc_create: %ld",
			       PTR_ERR(w->clnt));
	return w;
}

static struct rr2w *rr2w_start(struct kunit *test,
			       enum rpcrdma2_test_pdata pdata)
{
	return rr2w_start_n(test, pdata, 1);
}

static struct rpc_xprt *rr2w_xprt(struct rr2w *w)
{
	return rcu_access_pointer(w->clnt->cl_xprt);
}

static void rr2w_call_done(struct rpc_task *task, void *data)
{
	struct rr2w *w = data;

	w->status = task->tk_status;
}

static void rr2w_call_release(void *data)
{
	struct rr2w *w = data;

	complete(&w->done);
}

static const struct rpc_call_ops rr2w_call_ops = {
	.rpc_call_done	= rr2w_call_done,
	.rpc_release	= rr2w_call_release,
};

/* Start a NULL Call; the raw server sees it as the client sends it. */
static void rr2w_call(struct rr2w *w)
{
	struct rpc_message msg = { .rpc_proc = &rr2r_clnt_procs[RR2R_NULL] };

	reinit_completion(&w->done);
	w->status = 1;
	KUNIT_ASSERT_EQ(w->test, 0, rpc_call_async(w->clnt, &msg,
						   RPC_TASK_SOFT,
						   &rr2w_call_ops, w));
}

static int rr2w_wait_call(struct rr2w *w)
{
	KUNIT_ASSERT_TRUE(w->test, wait_for_completion_timeout(&w->done,
							       150 * HZ));
	return w->status;
}

/*
 * The next message the client sent: decoded as a @vers peer, with its
 * payload's first words copied to @pl.  Returns the payload length.
 */
static u32 rr2w_take(struct rr2w *w, u32 vers, struct rpcrdma2_hdr *h,
		     u8 pl[64])
{
	static const struct rpcrdma2_limits lim = {
		.max_segments = 1,
		.xchar = true,		/* the client's, when it runs it */
	};
	struct rpcrdma2_test_ep *ep = &w->srv.server;
	u32 len, plen;

	KUNIT_ASSERT_EQ(w->test, 0, rpcrdma2_test_wait_recv(ep));
	len = rpcrdma2_test_recv_len(ep);
	KUNIT_ASSERT_EQ(w->test, 0,
			rpcrdma2_decode_hdr(rpcrdma2_test_recv_buf(ep), len,
					    vers, &lim, h));
	plen = len - h->hdrlen;
	memset(pl, 0, 64);
	memcpy(pl, (u8 *)rpcrdma2_test_recv_buf(ep) + h->hdrlen,
	       min_t(u32, plen, 64));
	/* repost before anything can make the client send again */
	KUNIT_ASSERT_EQ(w->test, 0, rpcrdma2_test_post_recv(ep));
	return plen;
}

static void rr2w_send(struct rr2w *w, const void *msg, u32 len)
{
	struct rpcrdma2_test_ep *ep = &w->srv.server;

	memcpy(rpcrdma2_test_send_buf(ep), msg, len);
	KUNIT_ASSERT_EQ(w->test, 0, rpcrdma2_test_post_send(ep, len));
	KUNIT_ASSERT_EQ(w->test, 0, rpcrdma2_test_wait_send(ep));
}

static void rr2w_accept(struct rr2w *w)
{
	KUNIT_ASSERT_EQ(w->test, 0, rpcrdma2_test_wait_accept(&w->srv));
}

/* The four common words, and the flags word on Version 2. */
static u32 rr2w_hdr(u8 *b, u32 xid, u32 vers, u32 htype, u32 flags)
{
	put_unaligned_be32(xid, b);
	put_unaligned_be32(vers, b + 4);
	put_unaligned_be32(vers == RPCRDMA2_VERS_2 ?
			   rpcrdma2_credit_word(32, 32) : 32, b + 8);
	put_unaligned_be32(htype, b + 12);
	if (vers == RPCRDMA2_VERS_1) {
		memset(b + 16, 0, 12);	/* three empty lists */
		return 28;
	}
	put_unaligned_be32(flags, b + 16);
	return 20;
}

/* A whole MSG without chunks: Version 1 (28 octets) or 2 (36). */
static u32 rr2w_msg(u8 *b, u32 xid, u32 vers, u32 flags)
{
	u32 n = rr2w_hdr(b, xid, vers, RDMA2_MSG, flags);

	if (vers == RPCRDMA2_VERS_2) {
		memset(b + n, 0, 16);
		n += 16;
	}
	return n;
}

/* A Call of the test program's NULL procedure (tests/fixture.c): 40 octets. */
static u32 rr2w_rpc_call(u8 *p, u32 xid)
{
	return rr2r_rpc_call(p, xid, RR2R_PROG, RR2R_NULL);
}

/* The client's first message: its CONNPROP (V2-FRAME-15). */
static void rr2w_take_connprop(struct rr2w *w)
{
	struct rpcrdma2_hdr h;
	u8 pl[64];

	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_ASSERT_EQ(w->test, h.vers, RPCRDMA2_VERS_2);
	KUNIT_ASSERT_EQ(w->test, h.htype, RDMA2_CONNPROP);
}

/* Take the client's Version 1 NULL Call and answer it: it succeeds. */
static void rr2w_v1_null(struct rr2w *w)
{
	struct rpcrdma2_hdr h;
	u8 pl[64], msg[64];
	u32 n, plen;

	plen = rr2w_take(w, RPCRDMA2_VERS_1, &h, pl);
	KUNIT_EXPECT_EQ(w->test, h.vers, RPCRDMA2_VERS_1);
	KUNIT_EXPECT_EQ(w->test, h.htype, RDMA_MSG);
	KUNIT_ASSERT_GE(w->test, plen, 40);
	KUNIT_EXPECT_EQ(w->test, get_unaligned_be32(pl), h.xid);
	n = rr2w_msg(msg, h.xid, RPCRDMA2_VERS_1, 0);
	n += rr2r_rpc_reply(msg + n, h.xid, RPC_SUCCESS);
	rr2w_send(w, msg, n);
	KUNIT_EXPECT_EQ(w->test, rr2w_wait_call(w), 0);
}

/*
 * CMP-CMPD-14: the server sent no private data.  The client falls back
 * to Version 1 on the server's RFC 8166 ERR_VERS (V2-FRAME-23) and
 * then uses 1024-octet thresholds both ways, not 0.
 */
static void rr2w_no_cm_record_means_1024(struct kunit *test)
{
	/* asserts CMP-CMPD-14 */
	struct rr2w *w = rr2w_start(test, RPCRDMA2_TEST_PDATA_NONE);
	struct rr2c *r = rr2c(rr2w_xprt(w));
	struct rpcrdma2_hdr h;
	u8 msg[64], pl[64];

	rr2w_call(w);
	rr2w_accept(w);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_CONNPROP);
	/* as svcrdma answers: v1 layout, echoing version 2 (V2-FRAME-23) */
	rr2w_hdr(msg, h.xid, RPCRDMA2_VERS_2, RDMA2_ERROR, 0);
	put_unaligned_be32(32, msg + 8);
	put_unaligned_be32(ERR_VERS, msg + 16);
	put_unaligned_be32(1, msg + 20);
	put_unaligned_be32(1, msg + 24);
	rr2w_send(w, msg, 28);
	rr2w_v1_null(w);
	KUNIT_EXPECT_EQ(test, r->link.conn.vers, RPCRDMA2_VERS_1);
	KUNIT_EXPECT_EQ(test, r->link.conn.send_inline, 1024);
	KUNIT_EXPECT_EQ(test, r->link.conn.recv_inline, 1024);
}

/*
 * V2-FRAME-17, V2-FRAME-18: a Version 2 server that does not offer
 * Version 2 here answers with a Version 2 layout ERR_VERS [1, 1]; the
 * client re-sends in Version 1 on the same connection.
 */
static void rr2w_v2_err_vers_falls_back(struct kunit *test)
{
	/*
	 * asserts V2-ERR-15: after ERR_VERS [1, 1] the next message is
	 * Version 1 (rr2w_v1_null checks its rdma_vers)
	 */
	struct rr2w *w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	struct rpcrdma2_hdr h;
	u8 msg[64], pl[64];

	rr2w_call(w);
	rr2w_accept(w);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_CONNPROP);
	rr2w_hdr(msg, h.xid, RPCRDMA2_VERS_2, RDMA2_ERROR, RDMA2_F_RESPONSE);
	put_unaligned_be32(RDMA2_ERR_VERS, msg + 20);
	put_unaligned_be32(1, msg + 24);
	put_unaligned_be32(1, msg + 28);
	rr2w_send(w, msg, 32);
	rr2w_v1_null(w);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_version(rr2w_xprt(w)),
			RPCRDMA2_VERS_1);
}

/*
 * V2-FRAME-19: a first reply that settles nothing (here a Version 2
 * BAD_XDR) fails the connection; the next one opens in Version 1 at
 * once, instead of offering Version 2 again in a loop.
 */
/*
 * A NULL Call whose connection's negotiation is lost (a Version 2
 * BAD_XDR answers the client's CONNPROP); the client backs off before
 * reconnecting, and the next connection opens in Version 1, where the
 * NULL is answered.
 */
static void rr2w_lose_negotiation(struct rr2w *w)
{
	u8 msg[64];

	rr2w_call(w);
	rr2w_accept(w);
	rr2w_take_connprop(w);
	rr2w_hdr(msg, 0, RPCRDMA2_VERS_2, RDMA2_ERROR, RDMA2_F_RESPONSE);
	put_unaligned_be32(RDMA2_ERR_BAD_XDR, msg + 20);
	rr2w_send(w, msg, 24);
	rpcrdma2_test_server_reset(&w->srv);
	rr2w_accept(w);
	rr2w_v1_null(w);
}

static void rr2w_bad_first_reply_no_loop(struct kunit *test)
{
	struct rr2w *w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);

	rr2w_lose_negotiation(w);
	KUNIT_EXPECT_EQ(test, rr2c(rr2w_xprt(w))->stats.hellos, 1);
}

/*
 * While the client negotiates, the raw server sends what every receiver
 * discards before its CONNPROP; the client keeps waiting and settles
 * Version 2 on this connection, with one CONNPROP of its own:
 *   V2-ERR-01: a runt; V2-ERR-06: an error with an unknown code;
 *   V2-CONT-07: an error with F_MORE; V2-PROP-12, V2-ERR-21: a MSG with
 *   TPMORE, which draws INVAL_HTYPE.
 */
static void rr2w_v2_err_06_nego_discards(struct kunit *test)
{
	struct rr2w *w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	struct rr2c *r = rr2c(rr2w_xprt(w));
	struct rpcrdma2_props p = {
		.present = (1u << (RDMA2_PROPID_SBSIZ - 1)) |
			   (1u << (RDMA2_PROPID_RBSIZ - 1)),
		.sbsiz = 4096,
		.rbsiz = 4096,
	};
	struct rpcrdma2_hdr h;
	u8 msg[128], pl[64];
	u32 n;

	rr2w_call(w);
	rr2w_accept(w);
	rr2w_take_connprop(w);
	memset(msg, 0, sizeof(msg));
	rr2w_hdr(msg, 0x61, RPCRDMA2_VERS_2, RDMA2_MSG, RDMA2_F_RESPONSE);
	rr2w_send(w, msg, 12);
	rr2w_hdr(msg, 0x62, RPCRDMA2_VERS_2, RDMA2_ERROR, RDMA2_F_RESPONSE);
	put_unaligned_be32(77, msg + 20);
	rr2w_send(w, msg, 24);
	rr2w_hdr(msg, 0x63, RPCRDMA2_VERS_2, RDMA2_ERROR,
		 RDMA2_F_RESPONSE | RDMA2_F_MORE);
	put_unaligned_be32(RDMA2_ERR_BAD_XDR, msg + 20);
	rr2w_send(w, msg, 24);
	n = rr2w_msg(msg, 0x64, RPCRDMA2_VERS_2, RDMA2_F_TPMORE);
	n += rr2w_rpc_call(msg + n, 0x64);
	rr2w_send(w, msg, n);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.xid, 0x64);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_INVAL_HTYPE);

	n = rpcrdma2_encode_connprop(msg, sizeof(msg),
				     rpcrdma2_credit_word(32, 32), 0, &p,
				     NULL);
	KUNIT_ASSERT_NE(test, n, 0);
	rr2w_send(w, msg, n);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
	n = rr2w_msg(msg, h.xid, RPCRDMA2_VERS_2, RDMA2_F_RESPONSE);
	n += rr2r_rpc_reply(msg + n, h.xid, RPC_SUCCESS);
	rr2w_send(w, msg, n);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), 0);
	KUNIT_EXPECT_EQ(test, r->link.conn.vers, RPCRDMA2_VERS_2);
	KUNIT_EXPECT_EQ(test, r->stats.hellos, 1);
}

/*
 * V2-FRAME-19: a Version 2 offer that was lost or settled nothing makes
 * the next connections offer Version 1, and Version 2 again after a
 * while, a bounded number of times; V2-ERR-15: a server that said it
 * has no Version 2 is never offered it again.
 */
static void rr2w_v2_frame_19_retry_v2_later(struct kunit *test)
{
	struct rr2c *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->vers_cap = RPCRDMA2_VERS_2;
	KUNIT_EXPECT_EQ(test, rr2c_offer_vers(r, RPCRDMA2_VERS_2), 2);
	KUNIT_EXPECT_EQ(test, rr2c_offer_vers(r, RPCRDMA2_VERS_1), 1);

	/* lost: Version 1 for now, Version 2 again later */
	rr2c_nego_outcome(r, -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, rr2c_offer_vers(r, RPCRDMA2_VERS_2), 1);
	r->v2_retry = jiffies - 1;
	KUNIT_EXPECT_EQ(test, rr2c_offer_vers(r, RPCRDMA2_VERS_2), 2);
	for (i = 0; i < 3; i++)
		rr2c_nego_outcome(r, -EPROTO);
	KUNIT_EXPECT_EQ(test, rr2c_offer_vers(r, RPCRDMA2_VERS_2), 1);
	/* a Version 2 settlement starts over */
	rr2c_nego_outcome(r, 0);
	KUNIT_EXPECT_EQ(test, rr2c_offer_vers(r, RPCRDMA2_VERS_2), 2);
	/* no Version 2 there: never again */
	rr2c_nego_outcome(r, -EPFNOSUPPORT);
	r->v2_retry = jiffies - 1;
	KUNIT_EXPECT_EQ(test, rr2c_offer_vers(r, RPCRDMA2_VERS_2), 1);
}

/*
 * V2-FRAME-19: losses never pin Version 1.  However many Version 2
 * negotiations in a row were lost or settled nothing, Version 2 is
 * offered again once the wait has passed, and the wait is bounded by
 * RR2C_V2_RETRY_MAX (a server upgraded to Version 2 is found).
 */
static void rr2w_v2_frame_19_lost_never_pins(struct kunit *test)
{
	struct rr2c *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->vers_cap = RPCRDMA2_VERS_2;
	for (i = 0; i < 12; i++) {
		rr2c_nego_outcome(r, i & 1 ? -ETIMEDOUT : -EPROTO);
		KUNIT_EXPECT_EQ(test, rr2c_offer_vers(r, RPCRDMA2_VERS_2), 1);
		KUNIT_EXPECT_LE(test, r->v2_retry - jiffies,
				(unsigned long)RR2C_V2_RETRY_MAX);
		r->v2_retry = jiffies - 1;
		KUNIT_EXPECT_EQ(test, rr2c_offer_vers(r, RPCRDMA2_VERS_2), 2);
	}
	KUNIT_EXPECT_EQ(test, r->vers_cap, RPCRDMA2_VERS_2);
}

/*
 * V2-ERR-15: after an ERR_VERS naming neither 1 nor 2 the client sends
 * that server no version at all: no later connection is offered one.
 */
static void rr2w_v2_err_15_no_version_never_offered(struct kunit *test)
{
	struct rr2c *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->vers_cap = RPCRDMA2_VERS_2;
	rr2c_nego_outcome(r, -EPROTONOSUPPORT);
	KUNIT_EXPECT_EQ(test, rr2c_offer_vers(r, RPCRDMA2_VERS_2), 0);
	KUNIT_EXPECT_EQ(test, rr2c_offer_vers(r, RPCRDMA2_VERS_1), 0);
	/* nothing afterwards brings one back */
	rr2c_nego_outcome(r, -ETIMEDOUT);
	r->v2_retry = jiffies - 1;
	KUNIT_EXPECT_EQ(test, rr2c_offer_vers(r, RPCRDMA2_VERS_2), 0);
}

/*
 * V2-ERR-15 on the wire: the raw server answers the CONNPROP with a
 * Version 2 ERR_VERS [3, 4].  The Call fails with EPROTONOSUPPORT; a
 * second Call fails the same way without a second connection or
 * CONNPROP: the client does not offer Version 2 (or 1) again.
 */
static void rr2w_v2_err_15_err_vers_3_4_no_reconnect(struct kunit *test)
{
	struct rr2w *w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	struct rr2c *r = rr2c(rr2w_xprt(w));
	struct rpcrdma2_hdr h;
	u8 msg[64], pl[64];

	rr2w_call(w);
	rr2w_accept(w);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_CONNPROP);
	rr2w_hdr(msg, h.xid, RPCRDMA2_VERS_2, RDMA2_ERROR, RDMA2_F_RESPONSE);
	put_unaligned_be32(RDMA2_ERR_VERS, msg + 20);
	put_unaligned_be32(3, msg + 24);
	put_unaligned_be32(4, msg + 28);
	rr2w_send(w, msg, 32);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), -EPROTONOSUPPORT);
	KUNIT_EXPECT_EQ(test, r->fallback, RR2C_FB_NO_VERS);

	/* the listener would take another connection: none comes */
	rpcrdma2_test_server_reset(&w->srv);
	rr2w_call(w);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), -EPROTONOSUPPORT);
	KUNIT_EXPECT_FALSE(test, completion_done(&w->srv.server_ready));
	KUNIT_EXPECT_EQ(test, r->stats.hellos, 1);
}

/* The server's CONNPROP: 4 KiB buffers, a grant of 32. */
static void rr2w_answer_connprop(struct rr2w *w)
{
	struct rpcrdma2_props p = {
		.present = (1u << (RDMA2_PROPID_SBSIZ - 1)) |
			   (1u << (RDMA2_PROPID_RBSIZ - 1)),
		.sbsiz = 4096,
		.rbsiz = 4096,
	};
	u8 msg[128];
	u32 n;

	n = rpcrdma2_encode_connprop(msg, sizeof(msg),
				     rpcrdma2_credit_word(32, 32), 0, &p,
				     NULL);
	KUNIT_ASSERT_NE(w->test, n, 0);
	rr2w_send(w, msg, n);
}

/* Settle Version 2: our CONNPROP in answer to the client's. */
static void rr2w_settle_v2(struct rr2w *w)
{
	rr2w_take_connprop(w);
	rr2w_answer_connprop(w);
}

/*
 * Send a TPMORE-flagged MSG (V2-PROP-12) with xid @marker and take the
 * client's next message, which must be the INVAL_HTYPE answering it
 * (V2-ERR-21): so nothing was sent in between.
 */
static void rr2w_expect_marker(struct rr2w *w, u32 marker)
{
	struct rpcrdma2_hdr h;
	u8 msg[128], pl[64];
	u32 n;

	n = rr2w_msg(msg, marker, RPCRDMA2_VERS_2, RDMA2_F_TPMORE);
	n += rr2w_rpc_call(msg + n, marker);
	rr2w_send(w, msg, n);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_EXPECT_EQ(w->test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(w->test, h.xid, marker);
	KUNIT_EXPECT_EQ(w->test, h.err, RDMA2_ERR_INVAL_HTYPE);
	KUNIT_EXPECT_EQ(w->test, h.flags & RDMA2_F_RESPONSE,
			RDMA2_F_RESPONSE);
}

/*
 * With a Call outstanding, the raw server sends what a client must
 * drop or answer, then the Reply in two parts with an unrelated error
 * in between; the Call completes with that Reply.
 *   V2-ERR-26: a Reply whose rdma_xid is not its RPC XID is dropped.
 *   V2-ERR-06: an RDMA2_ERROR with an unknown code is dropped.
 *   V2-ERR-24: a continuation fault is dropped, not answered.
 *   V2-PROP-13: a CONNPROP after settlement draws INVAL_HTYPE.
 *   V2-RDIR-18: RESPONSE routes: clear is a reverse Call whatever the
 *   RPC layer would find, set with a Call payload is dropped.
 *   An error for another XID does not end the Reply being received.
 */
static void rr2w_client_answers_and_drops(struct kunit *test)
{
	/*
	 * asserts V2-ERR-06, V2-ERR-24; rr2w_expect_marker: V2-PROP-12,
	 * V2-ERR-21
	 */
	struct rr2w *w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	struct rr2c *r = rr2c(rr2w_xprt(w));
	struct rpcrdma2_props p = { };
	struct rpcrdma2_hdr h;
	u8 msg[128], pl[64], reply[24];
	u64 bc_calls;
	u32 n, xid;

	rr2w_call(w);
	rr2w_accept(w);
	rr2w_settle_v2(w);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
	KUNIT_EXPECT_EQ(test, h.flags & RDMA2_F_RESPONSE, 0);
	xid = h.xid;

	/* a Reply under the right rdma_xid but another RPC XID */
	n = rr2w_msg(msg, xid, RPCRDMA2_VERS_2, RDMA2_F_RESPONSE);
	n += rr2r_rpc_reply(msg + n, xid + 1, RPC_PROG_UNAVAIL);
	rr2w_send(w, msg, n);
	/* an error code nobody defined */
	rr2w_hdr(msg, xid, RPCRDMA2_VERS_2, RDMA2_ERROR, RDMA2_F_RESPONSE);
	put_unaligned_be32(77, msg + 20);
	rr2w_send(w, msg, 24);
	/* a sequence interrupted by another xid */
	n = rr2w_msg(msg, 0x5151, RPCRDMA2_VERS_2,
		     RDMA2_F_RESPONSE | RDMA2_F_MORE);
	n += rr2r_rpc_reply(msg + n, 0x5151, RPC_SUCCESS);
	rr2w_send(w, msg, n);
	n = rr2w_msg(msg, 0x5252, RPCRDMA2_VERS_2, RDMA2_F_RESPONSE);
	n += rr2r_rpc_reply(msg + n, 0x5252, RPC_SUCCESS);
	rr2w_send(w, msg, n);
	rr2w_expect_marker(w, 0x7001);
	KUNIT_EXPECT_EQ(test, w->status, 1);	/* still waiting */

	/* CONNPROP after settlement */
	n = rpcrdma2_encode_connprop(msg, sizeof(msg),
				     rpcrdma2_credit_word(32, 32), 0, &p,
				     NULL);
	put_unaligned_be32(0x7002, msg);
	rr2w_send(w, msg, n);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_EXPECT_EQ(test, h.xid, 0x7002);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_INVAL_HTYPE);

	/* routing by RESPONSE */
	bc_calls = r->stats.bc_calls;
	n = rr2w_msg(msg, 0x7003, RPCRDMA2_VERS_2, RDMA2_F_RESPONSE);
	n += rr2w_rpc_call(msg + n, 0x7003);
	rr2w_send(w, msg, n);
	n = rr2w_msg(msg, 0x7004, RPCRDMA2_VERS_2, 0);
	n += rr2w_rpc_call(msg + n, 0x7004);
	rr2w_send(w, msg, n);
	rr2w_expect_marker(w, 0x7005);
	KUNIT_EXPECT_EQ(test, r->stats.bc_calls, bc_calls + 1);

	/* the Reply in two parts, an unrelated error between them */
	rr2r_rpc_reply(reply, xid, RPC_SUCCESS);
	n = rr2w_msg(msg, xid, RPCRDMA2_VERS_2,
		     RDMA2_F_RESPONSE | RDMA2_F_MORE);
	memcpy(msg + n, reply, 12);
	rr2w_send(w, msg, n + 12);
	rr2w_hdr(msg, 0x7006, RPCRDMA2_VERS_2, RDMA2_ERROR, RDMA2_F_RESPONSE);
	put_unaligned_be32(RDMA2_ERR_SYSTEM, msg + 20);
	rr2w_send(w, msg, 24);
	n = rr2w_msg(msg, xid, RPCRDMA2_VERS_2, RDMA2_F_RESPONSE);
	memcpy(msg + n, reply + 12, 12);
	rr2w_send(w, msg, n + 12);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), 0);
}

/* ---- chunks ---- */

/* Start a READ of @len octets into @rd's pages. */
static void rr2w_call_read(struct rr2w *w, struct rr2w_read *rd, u32 len)
{
	struct rpc_message msg = {
		.rpc_proc	= &rr2r_clnt_procs[RR2R_READ],
		.rpc_argp	= rd,
		.rpc_resp	= rd,
	};

	rd->len = len;
	reinit_completion(&w->done);
	w->status = 1;
	KUNIT_ASSERT_EQ(w->test, 0, rpc_call_async(w->clnt, &msg,
						   RPC_TASK_SOFT,
						   &rr2w_call_ops, w));
}

/* The client's next message, whole, decoded with room for chunks. */
static u8 *rr2w_take_full(struct rr2w *w, u32 vers, struct rpcrdma2_hdr *h)
{
	static const struct rpcrdma2_limits lim = {
		.max_read_chunks = 4, .max_write_chunks = 4,
		.max_segments = RR2C_MAX_SEGS,
	};
	struct rpcrdma2_test_ep *ep = &w->srv.server;
	u8 *buf = kunit_kzalloc(w->test, RPCRDMA2_TEST_BUF_SIZE, GFP_KERNEL);
	u32 len;

	KUNIT_ASSERT_NOT_NULL(w->test, buf);
	KUNIT_ASSERT_EQ(w->test, 0, rpcrdma2_test_wait_recv(ep));
	len = rpcrdma2_test_recv_len(ep);
	memcpy(buf, rpcrdma2_test_recv_buf(ep), len);
	KUNIT_ASSERT_EQ(w->test, 0, rpcrdma2_test_post_recv(ep));
	KUNIT_ASSERT_EQ(w->test, 0,
			rpcrdma2_decode_hdr(buf, len, vers, &lim, h));
	return buf;
}

/*
 * A Version 1 RDMA_MSG Reply echoing the Write chunk @segs with the
 * lengths @lens, then an RPC Reply whose result is a length word
 * @dlen and @inl inline octets of data.
 */
static u32 rr2w_v1_write_reply(u8 *b, u32 xid,
			       const struct rpcrdma2_segment *segs, u32 nsegs,
			       const u32 *lens, u32 dlen, const char *inl)
{
	u32 n = 16, i, ilen = inl ? strlen(inl) : 0;

	put_unaligned_be32(xid, b);
	put_unaligned_be32(RPCRDMA2_VERS_1, b + 4);
	put_unaligned_be32(32, b + 8);
	put_unaligned_be32(RDMA_MSG, b + 12);
	put_unaligned_be32(0, b + n);		/* no Read list */
	put_unaligned_be32(1, b + n + 4);	/* one Write chunk */
	put_unaligned_be32(nsegs, b + n + 8);
	n += 12;
	for (i = 0; i < nsegs; i++) {
		put_unaligned_be32(segs[i].handle, b + n);
		put_unaligned_be32(lens[i], b + n + 4);
		put_unaligned_be64(segs[i].offset, b + n + 8);
		n += 16;
	}
	put_unaligned_be32(0, b + n);		/* end of the Write list */
	put_unaligned_be32(0, b + n + 4);	/* no Reply chunk */
	n += 8;
	n += rr2r_rpc_reply(b + n, xid, RPC_SUCCESS);
	put_unaligned_be32(dlen, b + n);
	n += 4;
	memset(b + n, 0, round_up(ilen, 4));
	memcpy(b + n, inl ?: "", ilen);
	return n + round_up(ilen, 4);
}

/* The client's READ Call: a Write chunk of @len octets, nothing else. */
static u32 rr2w_take_read(struct rr2w *w, u32 len,
			  struct rpcrdma2_segment *segs, u32 *nsegs)
{
	struct rpcrdma2_hdr h;
	u32 i, n, total = 0;
	u8 *buf;

	buf = rr2w_take_full(w, RPCRDMA2_VERS_1, &h);
	KUNIT_EXPECT_EQ(w->test, h.htype, RDMA_MSG);
	KUNIT_EXPECT_EQ(w->test, h.reads.chunks, 0);
	KUNIT_EXPECT_EQ(w->test, h.reply.chunks, 0);
	KUNIT_ASSERT_EQ(w->test, h.writes.chunks, 1);
	n = rpcrdma2_write_chunk(buf, &h, 0, 0, &segs[0]);
	KUNIT_ASSERT_GE(w->test, n, 1);
	KUNIT_ASSERT_LE(w->test, n, RR2C_MAX_SEGS);
	for (i = 0; i < n; i++) {
		rpcrdma2_write_chunk(buf, &h, 0, i, &segs[i]);
		KUNIT_EXPECT_NE(w->test, segs[i].handle, 0);
		total += segs[i].length;
	}
	/* V2-CHUNK-23: exactly the result's pages, no pad */
	KUNIT_EXPECT_EQ(w->test, total, len);
	*nsegs = n;
	return h.xid;
}

/*
 * The transport's "xprt:" line of /proc/self/mountstats, parsed as the
 * stock module's (xprt_rdma_print_stats() in 6.12): a tab, "xprt:", a
 * tab, "rdma", then exactly RR2W_XPRT_COLS unsigned integers each after
 * one space, and the newline that ends the output.  Returns false, with
 * the reason logged, for anything else; @col[i] is column i + 1.
 */
#define RR2W_XPRT_COLS	27

static bool rr2w_xprt_line(struct kunit *test, struct rpc_xprt *xprt,
			   u64 *col)
{
	static const char lead[] = "\txprt:\trdma";
	struct seq_file seq = { .size = PAGE_SIZE };
	const char *p;
	u32 n = 0;

	seq.buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seq.buf);
	xprt->ops->print_stats(xprt, &seq);
	KUNIT_ASSERT_LT(test, seq.count, (size_t)PAGE_SIZE);
	kunit_info(test, "mountstats: %s", seq.buf);
	if (strncmp(seq.buf, lead, sizeof(lead) - 1)) {
		kunit_err(test, "does not begin with \"xprt: rdma\"");
		return false;
	}
	p = seq.buf + sizeof(lead) - 1;
	while (*p == ' ') {
		if (!isdigit(*++p) || n == RR2W_XPRT_COLS) {
			kunit_err(test, "field %u is not a counter", n + 1);
			return false;
		}
		for (col[n] = 0; isdigit(*p); p++)
			col[n] = col[n] * 10 + (*p - '0');
		n++;
	}
	if (n != RR2W_XPRT_COLS || strcmp(p, "\n")) {
		kunit_err(test, "%u counters, then \"%s\"", n, p);
		return false;
	}
	return true;
}

/*
 * After rr2w_v1_write_chunk()'s RPCs: the line has the stock shape and
 * its chunk and MR columns count what happened.
 */
static void rr2w_expect_xprt_line(struct kunit *test, struct rr2c *r)
{
	u64 col[RR2W_XPRT_COLS];

	KUNIT_ASSERT_TRUE(test, rr2w_xprt_line(test, &r->xprt, col));
	KUNIT_EXPECT_EQ(test, col[1 - 1], 0);		/* local port */
	KUNIT_EXPECT_EQ(test, col[3 - 1], r->xprt.stat.connect_count);
	KUNIT_EXPECT_EQ(test, col[6 - 1], r->xprt.stat.sends);
	KUNIT_EXPECT_GE(test, col[12 - 1], 5);		/* Write chunks */
	KUNIT_EXPECT_EQ(test, col[12 - 1], r->stats.write_chunks);
	KUNIT_EXPECT_EQ(test, col[18 - 1], 0);		/* hardway */
	KUNIT_EXPECT_GE(test, col[20 - 1], 1);		/* the bad chunk */
	KUNIT_EXPECT_GE(test, col[24 - 1], r->frwr.nr);	/* a running total */
	KUNIT_EXPECT_GT(test, col[24 - 1], 0);
	KUNIT_EXPECT_EQ(test, col[25 - 1], r->stats.mrs_local_inv);
	KUNIT_EXPECT_GT(test, col[25 - 1], 0);
	KUNIT_EXPECT_EQ(test, col[27 - 1], 0);		/* no Reply waits */
}

static void rr2w_expect_pool_full(struct kunit *test, struct rr2c *r)
{
	KUNIT_EXPECT_EQ(test, READ_ONCE(r->frwr.nfree), READ_ONCE(r->frwr.nr));
}

static void rr2w_send_inv(struct rr2w *w, const void *msg, u32 len, u32 rkey)
{
	struct rpcrdma2_test_ep *ep = &w->srv.server;

	memcpy(rpcrdma2_test_send_buf(ep), msg, len);
	reinit_completion(&ep->send_done);
	KUNIT_ASSERT_EQ(w->test, 0,
			rpcrdma2_ep_post_send(&ep->ep.sends[0], len, rkey));
	KUNIT_ASSERT_EQ(w->test, 0, rpcrdma2_test_wait_send(ep));
}

/*
 * Version 1 (after an ERR_VERS fallback): a READ beyond the receive
 * threshold offers a Write chunk for exactly its pages, and the Reply's
 * chunk is checked against it.
 *   V2-CHUNK-20: a returned segment longer than offered fails the RPC.
 *   V2-CHUNK-21: an unused chunk: the result comes inline.
 *   V2-CHUNK-22: a short chunk: the result is the chunk's octets.
 *   V2-RINV-08: Send With Invalidate of the offered rkey is accepted and
 *   that MR not invalidated again.
 *   V2-SEC-08: every MR is back in the pool when the RPC completes.
 *   V2-SEC-09: a killed RPC's MRs are invalidated before it is gone.
 */
static void rr2w_v1_write_chunk(struct kunit *test)
{
	/*
	 * asserts V2-CHUNK-23 (rr2w_take_read): the Write chunk is the result's
	 * length, no pad; V2-CHUNK-09, V2-CHUNK-18: one Write chunk, for the
	 * one result item, as large as the most the READ can return
	 */
	struct rr2w *w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	struct rpcrdma2_segment segs[RR2C_MAX_SEGS];
	u32 lens[RR2C_MAX_SEGS] = { };
	struct rr2w_read rd = { };
	struct rpcrdma2_hdr h;
	struct rr2c *r;
	u8 *msg, pl[64];
	u64 before;
	u32 xid, n, nsegs;
	char *data;

	msg = kunit_kzalloc(test, RPCRDMA2_TEST_BUF_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	rd.pages = kunit_kcalloc(test, RR2W_READ_MAX >> PAGE_SHIFT,
				 sizeof(*rd.pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rd.pages);
	for (n = 0; n < RR2W_READ_MAX >> PAGE_SHIFT; n++) {
		rd.pages[n] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		KUNIT_ASSERT_NOT_NULL(test, rd.pages[n]);
	}
	r = rr2c(rr2w_xprt(w));

	/* settle Version 1 as in rr2w_v2_err_vers_falls_back() */
	rr2w_call_read(w, &rd, RR2W_READ_MAX);
	rr2w_accept(w);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_CONNPROP);
	rr2w_hdr(msg, h.xid, RPCRDMA2_VERS_2, RDMA2_ERROR, RDMA2_F_RESPONSE);
	put_unaligned_be32(RDMA2_ERR_VERS, msg + 20);
	put_unaligned_be32(1, msg + 24);
	put_unaligned_be32(1, msg + 28);
	rr2w_send(w, msg, 32);

	/* a returned length beyond the registration: -EIO, no overflow */
	xid = rr2w_take_read(w, RR2W_READ_MAX, segs, &nsegs);
	lens[0] = segs[0].length + 1;
	before = r->stats.bad_chunks;
	n = rr2w_v1_write_reply(msg, xid, segs, nsegs, lens, lens[0], NULL);
	rr2w_send(w, msg, n);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), -EIO);
	KUNIT_EXPECT_EQ(test, r->stats.bad_chunks, before + 1);
	rr2w_expect_pool_full(test, r);

	/* unused: the data inline */
	rr2w_call_read(w, &rd, RR2W_READ_MAX);
	xid = rr2w_take_read(w, RR2W_READ_MAX, segs, &nsegs);
	memset(lens, 0, sizeof(lens));
	n = rr2w_v1_write_reply(msg, xid, segs, nsegs, lens, 8, "abcdefgh");
	rr2w_send(w, msg, n);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), 0);
	KUNIT_EXPECT_EQ(test, rd.len, 8);
	data = kmap_local_page(rd.pages[0]);
	KUNIT_EXPECT_EQ(test, memcmp(data, "abcdefgh", 8), 0);
	kunmap_local(data);
	rr2w_expect_pool_full(test, r);

	/* short: 100 octets in the first segment */
	before = r->stats.mrs_local_inv;
	rr2w_call_read(w, &rd, RR2W_READ_MAX);
	xid = rr2w_take_read(w, RR2W_READ_MAX, segs, &nsegs);
	lens[0] = 100;
	n = rr2w_v1_write_reply(msg, xid, segs, nsegs, lens, 100, NULL);
	rr2w_send(w, msg, n);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), 0);
	KUNIT_EXPECT_EQ(test, rd.len, 100);
	KUNIT_EXPECT_GT(test, r->stats.mrs_local_inv, before);
	rr2w_expect_pool_full(test, r);

	/* Send With Invalidate of the offered rkey */
	before = r->stats.mrs_remote_inv;
	rr2w_call_read(w, &rd, RR2W_READ_MAX);
	xid = rr2w_take_read(w, RR2W_READ_MAX, segs, &nsegs);
	memset(lens, 0, sizeof(lens));
	n = rr2w_v1_write_reply(msg, xid, segs, nsegs, lens, 0, NULL);
	rr2w_send_inv(w, msg, n, segs[0].handle);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), 0);
	KUNIT_EXPECT_EQ(test, r->stats.mrs_remote_inv, before + 1);
	rr2w_expect_pool_full(test, r);

	/* V2-SEC-09: an RPC killed before its Reply invalidates its MRs */
	before = r->stats.mrs_local_inv;
	rr2w_call_read(w, &rd, RR2W_READ_MAX);
	rr2w_take_read(w, RR2W_READ_MAX, segs, &nsegs);
	rpc_killall_tasks(w->clnt);
	KUNIT_EXPECT_LT(test, rr2w_wait_call(w), 0);
	KUNIT_EXPECT_EQ(test, r->stats.mrs_local_inv, before + nsegs);
	rr2w_expect_pool_full(test, r);
	rr2w_expect_xprt_line(test, r);
	for (n = 0; n < RR2W_READ_MAX >> PAGE_SHIFT; n++)
		__free_page(rd.pages[n]);
}

/*
 * RDMA Write @len octets of @data into the chunk @segs, filling its
 * segments in order, as a server does (V2-CHUNK-19).  Returns the
 * octets that went into each segment in @lens.
 */
static void rr2w_chunk_write(struct rr2w *w, const struct rpcrdma2_segment *segs,
			     u32 nsegs, const u8 *data, u32 len, u32 *lens)
{
	struct rpcrdma2_test_ep *ep = &w->srv.server;
	struct rpcrdma2_send *sd = &ep->ep.sends[0];
	u32 i, done = 0, in_seg, n;

	for (i = 0; i < nsegs; i++) {
		lens[i] = 0;
		for (in_seg = 0; done < len && in_seg < segs[i].length;) {
			struct ib_rdma_wr wr = { };
			struct ib_sge sge;

			n = min3(len - done, segs[i].length - in_seg,
				 (u32)RPCRDMA2_TEST_BUF_SIZE);
			memcpy(sd->buf, data + done, n);
			ib_dma_sync_single_for_device(ep->id->device, sd->dma, n,
						      DMA_TO_DEVICE);
			sge.addr = sd->dma;
			sge.length = n;
			sge.lkey = ep->ep.pd->local_dma_lkey;
			wr.wr.opcode = IB_WR_RDMA_WRITE;
			wr.wr.wr_cqe = &ep->rw_cqe;
			wr.wr.sg_list = &sge;
			wr.wr.num_sge = 1;
			wr.wr.send_flags = IB_SEND_SIGNALED;
			wr.remote_addr = segs[i].offset + in_seg;
			wr.rkey = segs[i].handle;
			reinit_completion(&ep->rw_done);
			KUNIT_ASSERT_EQ(w->test, 0,
					ib_post_send(ep->id->qp, &wr.wr, NULL));
			KUNIT_ASSERT_EQ(w->test, 0, rpcrdma2_test_wait_rw(ep));
			in_seg += n;
			done += n;
			lens[i] += n;
		}
	}
	KUNIT_ASSERT_EQ(w->test, done, len);
}

/* A Version 1 RDMA_NOMSG Reply: the Reply chunk @segs with @lens. */
static u32 rr2w_v1_nomsg_reply(u8 *b, u32 xid,
			       const struct rpcrdma2_segment *segs, u32 nsegs,
			       const u32 *lens)
{
	u32 n = 16, i;

	put_unaligned_be32(xid, b);
	put_unaligned_be32(RPCRDMA2_VERS_1, b + 4);
	put_unaligned_be32(32, b + 8);
	put_unaligned_be32(RDMA_NOMSG, b + 12);
	put_unaligned_be32(0, b + n);		/* no Read list */
	put_unaligned_be32(0, b + n + 4);	/* no Write list */
	put_unaligned_be32(1, b + n + 8);	/* a Reply chunk */
	put_unaligned_be32(nsegs, b + n + 12);
	n += 16;
	for (i = 0; i < nsegs; i++) {
		put_unaligned_be32(segs[i].handle, b + n);
		put_unaligned_be32(lens[i], b + n + 4);
		put_unaligned_be64(segs[i].offset, b + n + 8);
		n += 16;
	}
	return n;
}

/* Settle Version 1 with a READ of @len as the first Call. */
static void rr2w_settle_v1_read(struct rr2w *w, struct rr2w_read *rd,
				u32 len)
{
	struct rpcrdma2_hdr h;
	u8 msg[64], pl[64];

	rr2w_call_read(w, rd, len);
	rr2w_accept(w);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_ASSERT_EQ(w->test, h.htype, RDMA2_CONNPROP);
	rr2w_hdr(msg, h.xid, RPCRDMA2_VERS_2, RDMA2_ERROR, RDMA2_F_RESPONSE);
	put_unaligned_be32(RDMA2_ERR_VERS, msg + 20);
	put_unaligned_be32(1, msg + 24);
	put_unaligned_be32(1, msg + 28);
	rr2w_send(w, msg, 32);
}

static struct page **rr2w_read_pages(struct kunit *test)
{
	struct page **pages;
	u32 i;

	pages = kunit_kcalloc(test, RR2W_READ_MAX >> PAGE_SHIFT,
			      sizeof(*pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pages);
	for (i = 0; i < RR2W_READ_MAX >> PAGE_SHIFT; i++) {
		pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
	}
	return pages;
}

static void rr2w_free_read_pages(struct page **pages)
{
	u32 i;

	for (i = 0; i < RR2W_READ_MAX >> PAGE_SHIFT; i++)
		__free_page(pages[i]);
}

static bool rr2w_pages_hold(struct page **pages, const u8 *data, u32 len)
{
	u32 i, n;
	bool same = true;

	for (i = 0; same && len; i++, data += n, len -= n) {
		u8 *p = kmap_local_page(pages[i]);

		n = min_t(u32, len, PAGE_SIZE);
		same = !memcmp(p, data, n);
		kunmap_local(p);
	}
	return same;
}

/*
 * V2-CHUNK-22: octets the server RDMA-writes into the Write chunk are
 * the result, with an odd length (the XDR pad is the client's to add).
 * V2-SPEC-01: an RDMA_NOMSG Reply is the Reply chunk's octets.
 * V2-SEC-17: a Reply chunk returned longer than offered fails the RPC.
 */
static void rr2w_v1_rdma_placed(struct kunit *test)
{
	struct rr2w *w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	struct rpcrdma2_segment segs[RR2C_MAX_SEGS];
	u32 lens[RR2C_MAX_SEGS] = { };
	struct rr2w_read rd = { };
	struct rpcrdma2_hdr h;
	u32 xid, n, nsegs, i, total;
	struct rr2c *r;
	u8 *msg, *data, *buf;

	msg = kunit_kzalloc(test, RPCRDMA2_TEST_BUF_SIZE, GFP_KERNEL);
	data = kunit_kzalloc(test, 6000, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	KUNIT_ASSERT_NOT_NULL(test, data);
	rd.pages = rr2w_read_pages(test);
	r = rr2c(rr2w_xprt(w));

	/* a Write chunk, 5001 octets of data written into it */
	rr2w_settle_v1_read(w, &rd, 8192);
	xid = rr2w_take_read(w, 8192, segs, &nsegs);
	for (i = 0; i < 5001; i++)
		data[i] = i * 7 + 1;
	rr2w_chunk_write(w, segs, nsegs, data, 5001, lens);
	n = rr2w_v1_write_reply(msg, xid, segs, nsegs, lens, 5001, NULL);
	rr2w_send(w, msg, n);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), 0);
	KUNIT_EXPECT_EQ(test, rd.len, 5001);
	KUNIT_EXPECT_TRUE(test, rr2w_pages_hold(rd.pages, data, 5001));
	rr2w_expect_pool_full(test, r);

	/* a Reply chunk: the whole Reply written into it, RDMA_NOMSG */
	rd.no_ddp = true;
	rr2w_call_read(w, &rd, 5000);
	buf = rr2w_take_full(w, RPCRDMA2_VERS_1, &h);
	KUNIT_EXPECT_EQ(test, h.writes.chunks, 0);
	KUNIT_ASSERT_EQ(test, h.reply.chunks, 1);
	nsegs = rpcrdma2_reply_chunk(buf, &h, 0, &segs[0]);
	KUNIT_ASSERT_GE(test, nsegs, 1);
	KUNIT_ASSERT_LE(test, nsegs, RR2C_MAX_SEGS);
	for (total = 0, i = 0; i < nsegs; i++) {
		rpcrdma2_reply_chunk(buf, &h, i, &segs[i]);
		total += segs[i].length;
	}
	KUNIT_EXPECT_GE(test, total, 28 + 5000);
	xid = h.xid;
	n = rr2r_rpc_reply(data, xid, RPC_SUCCESS);
	put_unaligned_be32(5000, data + n);
	for (i = 0; i < 5000; i++)
		data[n + 4 + i] = i * 3 + 5;
	rr2w_chunk_write(w, segs, nsegs, data, n + 4 + 5000, lens);
	n = rr2w_v1_nomsg_reply(msg, xid, segs, nsegs, lens);
	rr2w_send(w, msg, n);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), 0);
	KUNIT_EXPECT_EQ(test, rd.len, 5000);
	KUNIT_EXPECT_TRUE(test, rr2w_pages_hold(rd.pages, data + 28, 5000));
	rr2w_expect_pool_full(test, r);

	/* a Reply chunk returned longer than offered */
	rr2w_call_read(w, &rd, 5000);
	buf = rr2w_take_full(w, RPCRDMA2_VERS_1, &h);
	KUNIT_ASSERT_EQ(test, h.reply.chunks, 1);
	nsegs = rpcrdma2_reply_chunk(buf, &h, 0, &segs[0]);
	KUNIT_ASSERT_LE(test, nsegs, RR2C_MAX_SEGS);
	for (i = 0; i < nsegs; i++) {
		rpcrdma2_reply_chunk(buf, &h, i, &segs[i]);
		lens[i] = segs[i].length;
	}
	lens[nsegs - 1]++;
	n = rr2w_v1_nomsg_reply(msg, h.xid, segs, nsegs, lens);
	rr2w_send(w, msg, n);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), -EIO);
	rr2w_expect_pool_full(test, r);
	rr2w_free_read_pages(rd.pages);
}

/*
 * V2-CHUNK-20, V2-SEC-17: a Reply's Write chunk is checked against the
 * chunks of the Call it answers, never against those of an earlier
 * Call on the same slot.  A READ with a Write chunk completes; the next
 * READ on the slot is small enough to go without chunks, and the
 * server answers it echoing the first Call's Write chunk as if it had
 * written 100 octets there: the RPC fails, no page is taken for data.
 */
static void rr2w_v2_chunk_20_stale_write_chunk(struct kunit *test)
{
	struct rr2w *w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	struct rpcrdma2_segment segs[RR2C_MAX_SEGS];
	u32 lens[RR2C_MAX_SEGS] = { };
	struct rr2w_read rd = { };
	struct rpcrdma2_hdr h;
	u32 xid, n, nsegs;
	struct rr2c *r;
	u64 before;
	u8 *msg;

	msg = kunit_kzalloc(test, RPCRDMA2_TEST_BUF_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	rd.pages = rr2w_read_pages(test);
	r = rr2c(rr2w_xprt(w));

	/* a Write chunk, answered unused with the data inline */
	rr2w_settle_v1_read(w, &rd, RR2W_READ_MAX);
	xid = rr2w_take_read(w, RR2W_READ_MAX, segs, &nsegs);
	n = rr2w_v1_write_reply(msg, xid, segs, nsegs, lens, 8, "abcdefgh");
	rr2w_send(w, msg, n);
	KUNIT_ASSERT_EQ(test, rr2w_wait_call(w), 0);
	rr2w_expect_pool_full(test, r);

	/* the same slot, no chunks; the Reply echoes the old Write chunk */
	rr2w_call_read(w, &rd, 100);
	rr2w_take_full(w, RPCRDMA2_VERS_1, &h);
	KUNIT_EXPECT_EQ(test, h.writes.chunks, 0);
	KUNIT_EXPECT_EQ(test, h.reply.chunks, 0);
	lens[0] = 100;
	before = r->stats.bad_chunks;
	n = rr2w_v1_write_reply(msg, h.xid, segs, nsegs, lens, 100, NULL);
	rr2w_send(w, msg, n);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), -EIO);
	KUNIT_EXPECT_EQ(test, r->stats.bad_chunks, before + 1);
	rr2w_expect_pool_full(test, r);
	rr2w_free_read_pages(rd.pages);
}

/* Do @pages hold @data at @off of their stream? */
static bool rr2w_pages_hold_at(struct page **pages, u32 off, const u8 *data,
			       u32 len)
{
	bool same = true;
	u32 n;

	while (same && len) {
		u8 *p = kmap_local_page(pages[off >> PAGE_SHIFT]);

		n = min_t(u32, len, PAGE_SIZE - offset_in_page(off));
		same = !memcmp(p + offset_in_page(off), data, n);
		kunmap_local(p);
		off += n;
		data += n;
		len -= n;
	}
	return same;
}

/*
 * V2-SEC-08: the client writes a Reply's octets into the request's
 * buffer only once the RPC's MRs are invalid and DMA-unmapped; the
 * unmap (DMA_FROM_DEVICE) would otherwise overwrite or drop them under
 * swiotlb or on a non-coherent device.  With CONFIG_RPCRDMA2_DEBUG_DMA
 * (the KUnit debug run) every write into a page still mapped is
 * counted in mapped_writes, and WARNs.  On Version 1:
 *   - a READ offered a Reply chunk (no DDP) is answered inline
 *     (RDMA_MSG, no chunks): the whole receive buffer is registered;
 *   - a READ with a Write chunk is answered with 5001 octets written
 *     into it and 8 inline octets after the item (V2-CHUNK-22): the
 *     XDR pad and those octets go into the chunk's pages.
 */
static void rr2w_v2_sec_08_reply_after_unmap(struct kunit *test)
{
	struct rr2w *w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	struct rpcrdma2_segment segs[RR2C_MAX_SEGS];
	u32 lens[RR2C_MAX_SEGS] = { };
	struct rr2w_read rd = { };
	struct rpcrdma2_hdr h;
	u32 xid, n, nsegs, i;
	struct rr2c *r;
	u8 *msg, *data;
	u64 before;

	msg = kunit_kzalloc(test, RPCRDMA2_TEST_BUF_SIZE, GFP_KERNEL);
	data = kunit_kzalloc(test, 6000, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	KUNIT_ASSERT_NOT_NULL(test, data);
	rd.pages = rr2w_read_pages(test);
	r = rr2c(rr2w_xprt(w));
	before = r->stats.mapped_writes;

	/* a Reply chunk offered, the Reply inline */
	rd.no_ddp = true;
	rr2w_settle_v1_read(w, &rd, 5000);
	rr2w_take_full(w, RPCRDMA2_VERS_1, &h);
	KUNIT_ASSERT_EQ(test, h.reply.chunks, 1);
	n = rr2w_msg(msg, h.xid, RPCRDMA2_VERS_1, 0);
	n += rr2r_rpc_reply(msg + n, h.xid, RPC_SUCCESS);
	put_unaligned_be32(100, msg + n);
	n += 4;
	for (i = 0; i < 100; i++)
		data[i] = i + 1;
	memcpy(msg + n, data, 100);
	rr2w_send(w, msg, n + 100);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), 0);
	KUNIT_EXPECT_EQ(test, rd.len, 100);
	KUNIT_EXPECT_TRUE(test, rr2w_pages_hold(rd.pages, data, 100));
	KUNIT_EXPECT_EQ(test, r->stats.mapped_writes, before);
	rr2w_expect_pool_full(test, r);

	/* a Write chunk: the pad and the inline octets after the item */
	rd.no_ddp = false;
	rr2w_call_read(w, &rd, 8192);
	xid = rr2w_take_read(w, 8192, segs, &nsegs);
	for (i = 0; i < 5001; i++)
		data[i] = i * 7 + 1;
	rr2w_chunk_write(w, segs, nsegs, data, 5001, lens);
	n = rr2w_v1_write_reply(msg, xid, segs, nsegs, lens, 5001, "trailing");
	rr2w_send(w, msg, n);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), 0);
	KUNIT_EXPECT_EQ(test, rd.len, 5001);
	KUNIT_EXPECT_TRUE(test, rr2w_pages_hold(rd.pages, data, 5001));
	KUNIT_EXPECT_TRUE(test, rr2w_pages_hold_at(rd.pages, 5004,
						   (const u8 *)"trailing", 8));
	KUNIT_EXPECT_EQ(test, r->stats.mapped_writes, before);
	rr2w_expect_pool_full(test, r);
	rr2w_free_read_pages(rd.pages);
}

/*
 * V2-CONT-08, V2-CONT-11: a Version 2 server whose Write chunk cannot
 * hold the whole Reply continues it, the chunks in the final message.
 * The READ's data is RDMA-written into the Write chunk first; the
 * inline stream (RPC header, the item's length word, 8 octets after
 * the item) comes in two messages, the first reaching past the
 * item's position.  The client takes it: the data is the chunk's, the
 * octets after the item follow its pad (V2-CHUNK-22), nothing went
 * into a page still mapped (V2-SEC-08).
 */
static void rr2w_v2_cont_08_continued_reply_with_chunks(struct kunit *test)
{
	struct rr2w *w = rr2w_start_n(test, RPCRDMA2_TEST_PDATA_RFC8797, 4);
	struct rpcrdma2_segment segs[RR2C_MAX_SEGS], echo[RR2C_MAX_SEGS];
	u32 lens[RR2C_MAX_SEGS] = { };
	struct rpcrdma2_chunk_out wr = { .segs = echo };
	struct rpcrdma2_msg_out m = {
		.vers	= RPCRDMA2_VERS_2,
		.credit	= rpcrdma2_credit_word(32, 32),
		.htype	= RDMA2_MSG,
		.flags	= RDMA2_F_RESPONSE,
		.nr_writes = 1,
		.writes	= &wr,
	};
	struct rr2w_read rd = { };
	u8 *msg, *data, *buf, stream[36];
	struct rpcrdma2_hdr h;
	u32 n, nsegs, i;
	struct rr2c *r;
	u64 before;

	msg = kunit_kzalloc(test, RPCRDMA2_TEST_BUF_SIZE, GFP_KERNEL);
	data = kunit_kzalloc(test, 20001, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	KUNIT_ASSERT_NOT_NULL(test, data);
	rd.pages = rr2w_read_pages(test);
	r = rr2c(rr2w_xprt(w));
	before = r->stats.mapped_writes;

	rr2w_call_read(w, &rd, RR2W_READ_MAX);
	rr2w_accept(w);
	rr2w_settle_v2(w);
	buf = rr2w_take_full(w, RPCRDMA2_VERS_2, &h);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
	KUNIT_ASSERT_EQ(test, h.writes.chunks, 1);
	nsegs = rpcrdma2_write_chunk(buf, &h, 0, 0, &segs[0]);
	KUNIT_ASSERT_GE(test, nsegs, 1);
	KUNIT_ASSERT_LE(test, nsegs, RR2C_MAX_SEGS);
	for (i = 0; i < nsegs; i++)
		rpcrdma2_write_chunk(buf, &h, 0, i, &segs[i]);
	m.xid = h.xid;

	for (i = 0; i < 20001; i++)
		data[i] = i * 5 + 3;
	rr2w_chunk_write(w, segs, nsegs, data, 20001, lens);
	rr2r_rpc_reply(stream, h.xid, RPC_SUCCESS);
	put_unaligned_be32(20001, stream + 24);
	memcpy(stream + 28, "TAILDATA", 8);

	/* 32 octets: past the item's position (28) */
	n = rr2w_msg(msg, h.xid, RPCRDMA2_VERS_2,
		     RDMA2_F_RESPONSE | RDMA2_F_MORE);
	memcpy(msg + n, stream, 32);
	rr2w_send(w, msg, n + 32);
	/* the final one: the Write list as written, the last 4 octets */
	for (i = 0; i < nsegs; i++) {
		echo[i] = segs[i];
		echo[i].length = lens[i];
	}
	wr.nsegs = nsegs;
	n = rpcrdma2_encode_msg(msg, RPCRDMA2_TEST_BUF_SIZE, &m);
	KUNIT_ASSERT_NE(test, n, 0);
	memcpy(msg + n, stream + 32, 4);
	rr2w_send(w, msg, n + 4);

	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&w->done,
							    30 * HZ));
	KUNIT_EXPECT_EQ(test, w->status, 0);
	KUNIT_EXPECT_EQ(test, rd.len, 20001);
	KUNIT_EXPECT_TRUE(test, rr2w_pages_hold(rd.pages, data, 20001));
	KUNIT_EXPECT_TRUE(test, rr2w_pages_hold_at(rd.pages, 20004,
						   (const u8 *)"TAILDATA", 8));
	KUNIT_EXPECT_EQ(test, r->stats.mapped_writes, before);
	rr2w_expect_pool_full(test, r);
	rr2w_free_read_pages(rd.pages);
}

struct rr2w_second {
	struct completion	done;
	int			status;
};

static void rr2w_second_done(struct rpc_task *task, void *data)
{
	struct rr2w_second *c = data;

	c->status = task->tk_status;
}

static void rr2w_second_release(void *data)
{
	struct rr2w_second *c = data;

	complete(&c->done);
}

static const struct rpc_call_ops rr2w_second_ops = {
	.rpc_call_done	= rr2w_second_done,
	.rpc_release	= rr2w_second_release,
};

/*
 * V2-RINV-08, CMP-RINV-06: a Reply sent with Invalidate of a handle that
 * belongs to another outstanding RPC is a protocol error: the first RPC
 * is not completed by it, and the connection is reset (the client comes
 * back and sends again).
 */
static void rr2w_v1_foreign_rkey(struct kunit *test)
{
	struct rr2w *w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	struct rpcrdma2_segment segs_a[RR2C_MAX_SEGS], segs_b[RR2C_MAX_SEGS];
	u32 lens[RR2C_MAX_SEGS] = { };
	struct rr2w_read a = { }, b = { };
	struct rr2w_second *second;
	struct rpc_message msg_b = {
		.rpc_proc	= &rr2r_clnt_procs[RR2R_READ],
		.rpc_argp	= &b,
		.rpc_resp	= &b,
	};
	struct rpcrdma2_hdr h;
	u32 xid_a, n, nsegs_a, nsegs_b;
	struct rr2c *r;
	u64 before;
	u8 *msg;

	msg = kunit_kzalloc(test, RPCRDMA2_TEST_BUF_SIZE, GFP_KERNEL);
	second = kunit_kzalloc(test, sizeof(*second), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	KUNIT_ASSERT_NOT_NULL(test, second);
	init_completion(&second->done);
	a.pages = rr2w_read_pages(test);
	b.pages = rr2w_read_pages(test);
	r = rr2c(rr2w_xprt(w));

	rr2w_settle_v1_read(w, &a, RR2W_READ_MAX);
	xid_a = rr2w_take_read(w, RR2W_READ_MAX, segs_a, &nsegs_a);
	b.len = RR2W_READ_MAX;
	KUNIT_ASSERT_EQ(test, 0, rpc_call_async(w->clnt, &msg_b, RPC_TASK_SOFT,
						&rr2w_second_ops, second));
	rr2w_take_read(w, RR2W_READ_MAX, segs_b, &nsegs_b);

	before = r->stats.bad_chunks;
	n = rr2w_v1_write_reply(msg, xid_a, segs_a, nsegs_a, lens, 0, NULL);
	rr2w_send_inv(w, msg, n, segs_b[0].handle);
	/* the connection is reset: the client comes back with a Call */
	rpcrdma2_test_server_reset(&w->srv);
	rr2w_accept(w);
	rr2w_take_full(w, RPCRDMA2_VERS_1, &h);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA_MSG);
	KUNIT_EXPECT_EQ(test, r->stats.bad_chunks, before + 1);
	KUNIT_EXPECT_EQ(test, w->status, 1);	/* A did not complete */

	/* shut the client down here: the pages go after its tasks */
	rpc_shutdown_client(w->clnt);
	w->clnt = NULL;
	wait_for_completion(&second->done);
	rr2w_free_read_pages(a.pages);
	rr2w_free_read_pages(b.pages);
}

/* ---- held Replies, the stage and retransmission ---- */

static void rr2w_knobs_reset(void *data);

/* Version 2 is settled and @rd's READ Call taken: its Write chunk. */
static u32 rr2w_v2_take_read(struct rr2w *w, struct rpcrdma2_segment *segs,
			     u32 *nsegs)
{
	struct rpcrdma2_hdr h;
	u32 i, n;
	u8 *buf;

	buf = rr2w_take_full(w, RPCRDMA2_VERS_2, &h);
	KUNIT_ASSERT_EQ(w->test, h.htype, RDMA2_MSG);
	KUNIT_ASSERT_EQ(w->test, h.writes.chunks, 1);
	n = rpcrdma2_write_chunk(buf, &h, 0, 0, &segs[0]);
	KUNIT_ASSERT_GE(w->test, n, 1);
	KUNIT_ASSERT_LE(w->test, n, RR2C_MAX_SEGS);
	for (i = 0; i < n; i++)
		rpcrdma2_write_chunk(buf, &h, 0, i, &segs[i]);
	*nsegs = n;
	return h.xid;
}

/*
 * A Version 2 READ Reply to @xid whose @dlen data octets come inline
 * after the result's position, the Write chunk @segs returned unused
 * (V2-CHUNK-21), cut into Sends of at most @piece payload octets: the
 * earlier ones with F_MORE, the final one with the Write list
 * (V2-CONT-08).
 */
static void rr2w_v2_inline_read_reply(struct rr2w *w, u32 xid,
				      const struct rpcrdma2_segment *segs,
				      u32 nsegs, const u8 *data, u32 dlen,
				      u32 piece)
{
	struct rpcrdma2_segment echo[RR2C_MAX_SEGS];
	struct rpcrdma2_chunk_out wr = { .segs = echo, .nsegs = nsegs };
	struct rpcrdma2_msg_out m = {
		.vers	= RPCRDMA2_VERS_2,
		.credit	= rpcrdma2_credit_word(32, 32),
		.htype	= RDMA2_MSG,
		.flags	= RDMA2_F_RESPONSE,
		.xid	= xid,
		.nr_writes = 1,
		.writes	= &wr,
	};
	u32 total = 28 + dlen, off = 0, n, k, i;
	u8 *stream, *msg;

	stream = kunit_kzalloc(w->test, total, GFP_KERNEL);
	msg = kunit_kzalloc(w->test, RPCRDMA2_TEST_BUF_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(w->test, stream);
	KUNIT_ASSERT_NOT_NULL(w->test, msg);
	rr2r_rpc_reply(stream, xid, RPC_SUCCESS);
	put_unaligned_be32(dlen, stream + 24);
	memcpy(stream + 28, data, dlen);
	for (i = 0; i < nsegs; i++) {
		echo[i] = segs[i];
		echo[i].length = 0;
	}
	/* every message but the last holds @piece octets, all past 28 */
	while (total - off > piece) {
		n = rr2w_msg(msg, xid, RPCRDMA2_VERS_2,
			     RDMA2_F_RESPONSE | RDMA2_F_MORE);
		memcpy(msg + n, stream + off, piece);
		rr2w_send(w, msg, n + piece);
		off += piece;
	}
	n = rpcrdma2_encode_msg(msg, RPCRDMA2_TEST_BUF_SIZE, &m);
	KUNIT_ASSERT_NE(w->test, n, 0);
	k = total - off;
	memcpy(msg + n, stream + off, k);
	rr2w_send(w, msg, n + k);
}

/*
 * V2-CONT-09: the protocol sets no limit on a sequence below the
 * receiver's maximum RPC size.  A READ's 40000 data octets come inline
 * in eleven Version 2 messages after the result's position, the Write
 * chunk unused: all of them wait in the stage until the final message
 * (V2-CONT-08), and the RPC gets every octet rather than EIO (the stage
 * was 32 KiB).
 */
static void rr2w_v2_cont_09_long_staged_reply(struct kunit *test)
{
	struct rr2w *w = rr2w_start_n(test, RPCRDMA2_TEST_PDATA_RFC8797, 4);
	struct rpcrdma2_segment segs[RR2C_MAX_SEGS];
	struct rr2w_read rd = { };
	u32 nsegs, xid, i;
	struct rr2c *r;
	u8 *data;

	data = kunit_kzalloc(test, 40000, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, data);
	for (i = 0; i < 40000; i++)
		data[i] = i * 7 + 1;
	rd.pages = rr2w_read_pages(test);
	r = rr2c(rr2w_xprt(w));

	rr2w_call_read(w, &rd, RR2W_READ_MAX);
	rr2w_accept(w);
	rr2w_settle_v2(w);
	xid = rr2w_v2_take_read(w, segs, &nsegs);
	rr2w_v2_inline_read_reply(w, xid, segs, nsegs, data, 40000, 3900);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&w->done,
							    30 * HZ));
	KUNIT_EXPECT_EQ(test, w->status, 0);
	KUNIT_EXPECT_EQ(test, rd.len, 40000);
	KUNIT_EXPECT_TRUE(test, rr2w_pages_hold(rd.pages, data, 40000));
	rr2w_expect_pool_full(test, r);
	/* shut the client down here: the pages go after its tasks */
	rpc_shutdown_client(w->clnt);
	w->clnt = NULL;
	rr2w_free_read_pages(rd.pages);
}

/*
 * V2-SEC-08: while a Reply is held for its MRs' invalidation
 * (rp_pending, as rr2c_reply_done() leaves it), ->send_request does not
 * send the Call again nor marshal it: no Send, no new Write chunk, no
 * new MR; the MRs the held Reply waits for stay as they are.  Then the
 * Reply to the one transmission completes the RPC.
 */
static void rr2w_v2_sec_08_no_resend_while_reply_held(struct kunit *test)
{
	struct rr2w *w = rr2w_start_n(test, RPCRDMA2_TEST_PDATA_RFC8797, 4);
	struct rpcrdma2_segment segs[RR2C_MAX_SEGS];
	struct rr2w_read rd = { };
	u64 sends, chunks, mrs;
	struct rpc_xprt *xprt;
	struct rpc_rqst *rq;
	u32 xid, nsegs;
	struct rr2c *r;
	int ret;

	rd.pages = rr2w_read_pages(test);
	xprt = rr2w_xprt(w);
	r = rr2c(xprt);
	rr2w_call_read(w, &rd, RR2W_READ_MAX);
	rr2w_accept(w);
	rr2w_settle_v2(w);
	xid = rr2w_v2_take_read(w, segs, &nsegs);

	spin_lock(&xprt->queue_lock);
	rq = xprt_lookup_rqst(xprt, cpu_to_be32(xid));
	if (rq)
		xprt_pin_rqst(rq);
	spin_unlock(&xprt->queue_lock);
	KUNIT_ASSERT_NOT_NULL(test, rq);
	sends = r->stats.sends;
	chunks = r->stats.write_chunks;
	mrs = r->stats.mrs_registered;
	rr2c_req(rq)->rp_pending = true;
	ret = xprt->ops->send_request(rq);
	rr2c_req(rq)->rp_pending = false;
	spin_lock(&xprt->queue_lock);
	xprt_unpin_rqst(rq);
	spin_unlock(&xprt->queue_lock);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, r->stats.sends, sends);
	KUNIT_EXPECT_EQ(test, r->stats.write_chunks, chunks);
	KUNIT_EXPECT_EQ(test, r->stats.mrs_registered, mrs);

	rr2w_v2_inline_read_reply(w, xid, segs, nsegs,
				  (const u8 *)"SAMECALL", 8, 3900);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&w->done,
							    30 * HZ));
	KUNIT_EXPECT_EQ(test, w->status, 0);
	KUNIT_EXPECT_EQ(test, rd.len, 8);
	rpc_shutdown_client(w->clnt);
	w->clnt = NULL;
	rr2w_free_read_pages(rd.pages);
}

/*
 * A Reply with chunks is held in its Receive until the RPC's MRs are
 * invalid (V2-SEC-08), and the Receive goes back to the receive queue
 * then.  With the fewest slots (4 credits: 26 Receives), 32 READs in a
 * row each have their Reply held: were one Receive not reposted, the
 * client would run out of Receives before the last Reply and the raw
 * server's Send would fail.
 */
static void rr2w_v1_held_receives_reposted(struct kunit *test)
{
	struct rpcrdma2_segment segs[RR2C_MAX_SEGS];
	u32 lens[RR2C_MAX_SEGS] = { };
	struct ctl_table *t = NULL;
	struct rr2w_read rd = { };
	u32 i, n, xid, nsegs;
	struct rr2w *w;
	u8 *msg;

	for (i = 0; i < rpcrdma2_clnt_sysctl_size; i++)
		if (!strcmp(rpcrdma2_clnt_sysctl[i].procname,
			    "rdma_slot_table_entries"))
			t = &rpcrdma2_clnt_sysctl[i];
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2w_knobs_reset,
							   NULL));
	WRITE_ONCE(*(int *)t->data, RPCRDMA_MIN_SLOT_TABLE);
	msg = kunit_kzalloc(test, RPCRDMA2_TEST_BUF_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	rd.pages = rr2w_read_pages(test);
	w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);

	rr2w_settle_v1_read(w, &rd, RR2W_READ_MAX);
	for (i = 0; i < 32; i++) {
		if (i)
			rr2w_call_read(w, &rd, RR2W_READ_MAX);
		xid = rr2w_take_read(w, RR2W_READ_MAX, segs, &nsegs);
		n = rr2w_v1_write_reply(msg, xid, segs, nsegs, lens, 0, NULL);
		rr2w_send(w, msg, n);
		KUNIT_ASSERT_EQ(test, rr2w_wait_call(w), 0);
	}
	KUNIT_EXPECT_EQ(test, rr2c(rr2w_xprt(w))->credits,
			RPCRDMA_MIN_SLOT_TABLE);
	rpc_shutdown_client(w->clnt);
	w->clnt = NULL;
	rr2w_free_read_pages(rd.pages);
}

/* ---- the seed 004 characteristics exchange (xchar=1) ---- */

static void rr2w_xchar_off(void *data)
{
	rpcrdma2_test_set_xchar(false, false);
}

static u32 rr2w_xch_val(u8 *b, u32 which, u32 v)
{
	put_unaligned_be32(which, b);
	put_unaligned_be32(4, b + 4);
	put_unaligned_be32(v, b + 8);
	return 12;
}

/* An INITXCH from the raw server: RBSIZ and BRS; empty nochg. */
static u32 rr2w_xch_init(u8 *b, u32 rbsiz, u32 brs)
{
	u32 n = rr2w_hdr(b, 0x52, RPCRDMA2_VERS_2, RDMA2_XCH_INITXCH, 0);

	put_unaligned_be32(2, b + n);
	n += 4;
	n += rr2w_xch_val(b + n, XCHAR_RBSIZ, rbsiz);
	n += rr2w_xch_val(b + n, XCHAR_BRS, brs);
	put_unaligned_be32(0, b + n);
	return n + 4;
}

/* Answer the Call with @xid and wait for it to succeed. */
static void rr2w_xch_reply(struct rr2w *w, u32 xid)
{
	u8 msg[128];
	u32 n;

	n = rr2w_msg(msg, xid, RPCRDMA2_VERS_2, RDMA2_F_RESPONSE);
	n += rr2r_rpc_reply(msg + n, xid, RPC_SUCCESS);
	rr2w_send(w, msg, n);
	KUNIT_EXPECT_EQ(w->test, rr2w_wait_call(w), 0);
}

/*
 * The client half with the exchange, against a raw server.
 * XCH-XOP-16, XCH-XOP-14, XCH-INLINE-05: its INITXCH comes right after
 * the CONNPROP exchange, before its first Call, with REQREMINV TRUE.
 * Applied (XCH-INLINE-04, V2-INLINE-08): the server's RBSIZ lowers the
 * Send threshold, and granting its REQXCH the receive one; its BRS
 * never raises what Version 2 settled (V2-RDIR-10: absent is NONE).
 * XCH-XOP-18, XCH-XOP-19: a REQXCH gets one RESPXCH under its xid.  XCH-XOP-11:
 * an INVAL_HTYPE for its INITXCH turns the exchange off, restores the
 * settled threshold and fails no RPC; then an INITXCH draws
 * INVAL_HTYPE as before.
 */
static void rr2w_xch_client(struct kunit *test)
{
	struct rr2w *w;
	struct rr2c *r;
	struct rpcrdma2_hdr h;
	u8 msg[128], pl[64];
	u32 n, xid;

	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, rr2w_xchar_off, NULL));
	rpcrdma2_test_set_xchar(true, false);
	w = rr2w_start_n(test, RPCRDMA2_TEST_PDATA_RFC8797, 4);
	r = rr2c(rr2w_xprt(w));
	rr2w_call(w);
	rr2w_accept(w);
	rr2w_settle_v2(w);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_XCH_INITXCH);
	KUNIT_EXPECT_EQ(test, h.xid, RPCRDMA2_XCH_XID(RDMA2_XCH_INITXCH));
	KUNIT_EXPECT_EQ(test, h.xch.chars.present, 0x7);
	KUNIT_EXPECT_EQ(test, h.xch.chars.rbsiz, RPCRDMA2_BUF_SIZE_DEF);
	KUNIT_EXPECT_TRUE(test, h.xch.chars.reqreminv);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
	xid = h.xid;

	n = rr2w_xch_init(msg, 1024, BKREQSUP_GENL);
	rr2w_send(w, msg, n);
	n = rr2w_hdr(msg, 0x71, RPCRDMA2_VERS_2, RDMA2_XCH_REQXCH, 0);
	put_unaligned_be32(1, msg + n);
	n += 4;
	n += rr2w_xch_val(msg + n, XCHAR_RBSIZ, 2048);
	rr2w_send(w, msg, n);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_XCH_RESPXCH);
	KUNIT_EXPECT_EQ(test, h.xid, 0x71);
	KUNIT_EXPECT_EQ(test, h.xch.subset[0][0], 1);
	rr2w_xch_reply(w, xid);
	KUNIT_EXPECT_EQ(test, r->link.conn.xch.received, 2);
	KUNIT_EXPECT_EQ(test, r->link.conn.send_inline, 1024);
	KUNIT_EXPECT_EQ(test, r->link.conn.recv_inline, 2048);
	KUNIT_EXPECT_EQ(test, r->link.conn.peer_props.brs, RDMA2_RVRSDIR_NONE);

	/* refused: off again, 4096 again, no RPC error */
	rr2w_hdr(msg, RPCRDMA2_XCH_XID(RDMA2_XCH_INITXCH), RPCRDMA2_VERS_2,
		 RDMA2_ERROR, RDMA2_F_RESPONSE);
	put_unaligned_be32(RDMA2_ERR_INVAL_HTYPE, msg + 20);
	rr2w_send(w, msg, 24);
	n = rr2w_xch_init(msg, 1024, BKREQSUP_GENL);
	rr2w_send(w, msg, n);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.xid, 0x52);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_INVAL_HTYPE);
	KUNIT_EXPECT_FALSE(test, r->link.conn.xch.on);
	KUNIT_EXPECT_TRUE(test, r->link.conn.xch.refused);
	KUNIT_EXPECT_EQ(test, r->link.conn.send_inline, 4096);
	KUNIT_EXPECT_EQ(test, r->link.conn.recv_inline, 4096);
	KUNIT_EXPECT_EQ(test, r->stats.errors, 0);

	/* and Calls go on */
	rr2w_call(w);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
	rr2w_xch_reply(w, h.xid);
}

/* ---- the Requester's side of errors and resets (coverage, #23) ---- */

/*
 * An RDMA2_ERROR for the outstanding Call ends that RPC with an error
 * rather than a re-send, and the connection carries on: the client's
 * next message is the answer to a marker, never the same Call again.
 *   V2-ERR-34: READ_CHUNKS;  V2-ERR-37: WRITE_CHUNKS;
 *   V2-ERR-39: SEGMENTS;  V2-ERR-43: WRITE_RESOURCE with index and
 *   length 0, which must terminate;  V2-ERR-46: REPLY_RESOURCE;
 *   V2-ERR-49: SYSTEM terminates the RPC with that XID.
 */
static void rr2w_v2_errors_end_the_call(struct kunit *test)
{
	static const struct {
		u32	err, arg0, arg1;
		int	status;
	} v[] = {
		{ RDMA2_ERR_READ_CHUNKS, 0, 0, -EIO },		/* V2-ERR-34 */
		{ RDMA2_ERR_WRITE_CHUNKS, 0, 0, -EIO },		/* V2-ERR-37 */
		{ RDMA2_ERR_SEGMENTS, 1, 0, -EIO },		/* V2-ERR-39 */
		{ RDMA2_ERR_WRITE_RESOURCE, 0, 0, -EMSGSIZE },	/* V2-ERR-43 */
		{ RDMA2_ERR_REPLY_RESOURCE, 8192, 0, -EMSGSIZE }, /* V2-ERR-46 */
		{ RDMA2_ERR_SYSTEM, 0, 0, -EIO },		/* V2-ERR-49 */
		{ RDMA2_ERR_VERS, 1, 1, -EPROTONOSUPPORT },
	};
	struct rr2w *w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	struct rpcrdma2_hdr h;
	u8 msg[128], pl[64];
	u32 i, n;

	rr2w_call(w);
	rr2w_accept(w);
	rr2w_settle_v2(w);
	for (i = 0; i < ARRAY_SIZE(v); i++) {
		if (i)
			rr2w_call(w);
		rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
		KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
		n = rpcrdma2_encode_error(msg, sizeof(msg), RPCRDMA2_VERS_2,
					  h.xid, RPCRDMA2_VERS_2,
					  rpcrdma2_credit_word(32, 32), v[i].err,
					  v[i].arg0, v[i].arg1);
		KUNIT_ASSERT_NE(test, n, 0);
		rr2w_send(w, msg, n);
		KUNIT_EXPECT_EQ_MSG(test, rr2w_wait_call(w), v[i].status,
				    "rdma_err %u", v[i].err);
		/* not re-sent: the next message answers the marker */
		rr2w_expect_marker(w, 0x7100 + i);
	}
	/*
	 * the connection still carries a Call to its Reply, and in the
	 * version it settled, ERR_VERS [1, 1] or not (V2-FRAME-21)
	 */
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_version(rr2w_xprt(w)),
			RPCRDMA2_VERS_2);
	rr2w_call(w);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_EXPECT_EQ(test, h.vers, RPCRDMA2_VERS_2);
	n = rr2w_msg(msg, h.xid, RPCRDMA2_VERS_2, RDMA2_F_RESPONSE);
	n += rr2r_rpc_reply(msg + n, h.xid, RPC_SUCCESS);
	rr2w_send(w, msg, n);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), 0);
}

/*
 * V2-FRAME-14: on a new connection the client sends its CONNPROP and
 * then nothing, although a Call is waiting, until the server's first
 * message grants it credits; then the Call goes out.
 */
static void rr2w_v2_frame_14_one_message_until_granted(struct kunit *test)
{
	struct rr2w *w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	struct rpcrdma2_props p = { };
	struct rpcrdma2_hdr h;
	u8 msg[128], pl[64];
	unsigned long left;
	u32 n;

	rr2w_call(w);
	rr2w_accept(w);
	rr2w_take_connprop(w);
	left = wait_for_completion_timeout(&w->srv.server.recv_done, 3 * HZ);
	KUNIT_EXPECT_EQ_MSG(test, left, 0, "a second message before any grant");
	n = rpcrdma2_encode_connprop(msg, sizeof(msg),
				     rpcrdma2_credit_word(32, 32), 0, &p,
				     NULL);
	KUNIT_ASSERT_NE(test, n, 0);
	rr2w_send(w, msg, n);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_MSG);
	n = rr2w_msg(msg, h.xid, RPCRDMA2_VERS_2, RDMA2_F_RESPONSE);
	n += rr2r_rpc_reply(msg + n, h.xid, RPC_SUCCESS);
	rr2w_send(w, msg, n);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), 0);
}

/*
 * V2-CRED-01, V2-CRED-02: the client's credit word grants the server
 * the Receives the client has posted for it, not the credits it asks
 * for: at first the Receives the connection starts with, then, once
 * the server's grant of 32 has made more, 32 credits' worth.  The
 * maximum half stays the credits asked for.
 */
static void rr2w_v2_cred_01_grant_is_receives_posted(struct kunit *test)
{
	struct rr2w *w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	const u32 first = RR2C_RECV_INIT + RR2C_BC_SLOTS;
	struct rpcrdma2_hdr h;
	u8 msg[64], pl[64];
	struct rr2c *r;
	u32 n;

	rr2w_call(w);
	rr2w_accept(w);
	r = rr2c(rr2w_xprt(w));
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_CONNPROP);
	KUNIT_EXPECT_EQ(test, h.credit & RDMA2_CREDIT_GRANT_MASK, first);
	KUNIT_EXPECT_EQ(test, h.credit >> RDMA2_CREDIT_MAX_SHIFT, RR2C_SLOTS);
	KUNIT_EXPECT_EQ(test, r->link.ep.nr_recv_made, first + RPCRDMA2_RECV_EXTRA);

	rr2w_answer_connprop(w);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
	KUNIT_EXPECT_EQ(test, h.credit & RDMA2_CREDIT_GRANT_MASK,
			32 + RR2C_BC_SLOTS);
	KUNIT_EXPECT_EQ(test, h.credit >> RDMA2_CREDIT_MAX_SHIFT, RR2C_SLOTS);
	KUNIT_EXPECT_EQ(test, r->link.ep.nr_recv_made,
			32 + RR2C_BC_SLOTS + RPCRDMA2_RECV_EXTRA);
	n = rr2w_msg(msg, h.xid, RPCRDMA2_VERS_2, RDMA2_F_RESPONSE);
	n += rr2r_rpc_reply(msg + n, h.xid, RPC_SUCCESS);
	rr2w_send(w, msg, n);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), 0);
}

/*
 * A READ whose completion notes whether the connection was closing:
 * a close asked for and not yet begun (XPRT_CLOSE_WAIT), begun (the
 * connect cookie moves first), or done.
 */
struct rr2w_probe {
	struct rr2w	*w;
	struct rpc_xprt	*xprt;
	unsigned int	cookie;		/* while the Call was out */
	bool		closing;
};

static void rr2w_probe_done(struct rpc_task *task, void *data)
{
	struct rr2w_probe *p = data;

	p->closing = test_bit(XPRT_CLOSE_WAIT, &p->xprt->state) ||
		     READ_ONCE(p->xprt->connect_cookie) != p->cookie ||
		     !xprt_connected(p->xprt);
	p->w->status = task->tk_status;
}

static void rr2w_probe_release(void *data)
{
	struct rr2w_probe *p = data;

	complete(&p->w->done);
}

static const struct rpc_call_ops rr2w_probe_ops = {
	.rpc_call_done	= rr2w_probe_done,
	.rpc_release	= rr2w_probe_release,
};

/*
 * V2-ERR-10: a LOCAL_INV that fails (injected: the test changes the
 * key the client will invalidate to one no MR has) closes the
 * connection before the RPC completes, and the MR is never reused.
 */
static void rr2w_v1_local_inv_failure_closes_first(struct kunit *test)
{
	struct rr2w *w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	struct rpcrdma2_segment segs[RR2C_MAX_SEGS];
	u32 lens[RR2C_MAX_SEGS] = { };
	struct rr2w_read rd = { .len = 8192 };
	struct rpc_message m = {
		.rpc_proc	= &rr2r_clnt_procs[RR2R_READ],
		.rpc_argp	= &rd,
		.rpc_resp	= &rd,
	};
	struct rr2w_probe *p;
	struct rr2c_mr *mr = NULL, *it;
	struct rpcrdma2_hdr h;
	struct rr2c *r;
	u8 *msg, pl[64];
	u32 xid, n, nsegs, i;
	u64 recovered;

	msg = kunit_kzalloc(test, RPCRDMA2_TEST_BUF_SIZE, GFP_KERNEL);
	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	rd.pages = kunit_kcalloc(test, 2, sizeof(*rd.pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, rd.pages);
	for (i = 0; i < 2; i++) {
		rd.pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		KUNIT_ASSERT_NOT_NULL(test, rd.pages[i]);
	}
	p->w = w;
	p->xprt = rr2w_xprt(w);
	r = rr2c(p->xprt);

	/* settle Version 1 as in rr2w_v1_write_chunk(), then the READ */
	reinit_completion(&w->done);
	w->status = 1;
	KUNIT_ASSERT_EQ(test, 0, rpc_call_async(w->clnt, &m, RPC_TASK_SOFT,
						&rr2w_probe_ops, p));
	rr2w_accept(w);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_CONNPROP);
	rr2w_hdr(msg, h.xid, RPCRDMA2_VERS_2, RDMA2_ERROR, RDMA2_F_RESPONSE);
	put_unaligned_be32(RDMA2_ERR_VERS, msg + 20);
	put_unaligned_be32(1, msg + 24);
	put_unaligned_be32(1, msg + 28);
	rr2w_send(w, msg, 32);
	xid = rr2w_take_read(w, 8192, segs, &nsegs);

	/* V2-ERR-10, injected: LOCAL_INV of a key no MR has */
	list_for_each_entry(it, &r->frwr.all, all)
		if (it->mr->rkey == segs[0].handle)
			mr = it;
	KUNIT_ASSERT_NOT_NULL(test, mr);
	KUNIT_ASSERT_EQ(test, mr->state, RR2C_MR_REG);
	mr->mr->rkey |= 0xfff00000;
	recovered = r->stats.mrs_recovered;
	p->cookie = READ_ONCE(p->xprt->connect_cookie);

	/* a plain Send: the client has to invalidate by itself */
	lens[0] = 100;
	n = rr2w_v1_write_reply(msg, xid, segs, nsegs, lens, 100, NULL);
	rr2w_send(w, msg, n);
	rr2w_wait_call(w);
	KUNIT_EXPECT_TRUE_MSG(test, p->closing,
			      "the RPC completed on a connection still up");
	/*
	 * quarantined (RR2C_MR_BAD, never reused): that is what counts
	 * mrs_recovered.  The MR itself is not looked at: the close may
	 * already have freed the connection's MRs (KASAN saw it on siw).
	 */
	KUNIT_EXPECT_GE(test, r->stats.mrs_recovered, recovered + 1);
	/* and the close is carried out */
	for (i = 0; i < 100 && xprt_connected(p->xprt); i++)
		msleep(100);
	KUNIT_EXPECT_FALSE(test, xprt_connected(p->xprt));
	for (i = 0; i < 2; i++)
		__free_page(rd.pages[i]);
}

/* Which chunk list a reverse Call from the raw server carries. */
enum rr2w_chunk_kind {
	RR2W_READ_CHUNK,
	RR2W_WRITE_CHUNK,
	RR2W_REPLY_CHUNK,
};

/* One segment: handle, length, offset (16 octets at @b). */
static void rr2w_segment(u8 *b, u32 handle, u32 len, u64 off)
{
	put_unaligned_be32(handle, b);
	put_unaligned_be32(len, b + 4);
	put_unaligned_be64(off, b + 8);
}

/*
 * A reverse-direction Call (RESPONSE clear) from the raw server with a
 * Read chunk, a Write chunk or a Reply chunk of one segment, at @xid.
 */
static u32 rr2w_reverse_call_with_chunk(u8 *b, u32 xid,
					enum rr2w_chunk_kind kind)
{
	u32 n = rr2w_hdr(b, xid, RPCRDMA2_VERS_2, RDMA2_MSG, 0);

	put_unaligned_be32(0, b + n);			/* inv_handle */
	n += 4;
	if (kind == RR2W_READ_CHUNK) {
		put_unaligned_be32(1, b + n);		/* a Read segment */
		put_unaligned_be32(40, b + n + 4);	/* after the Call */
		rr2w_segment(b + n + 8, 0x99, 8, 0x1000);
		n += 24;
	}
	put_unaligned_be32(0, b + n);			/* end of Reads */
	n += 4;
	if (kind == RR2W_WRITE_CHUNK) {
		put_unaligned_be32(1, b + n);		/* a Write chunk */
		put_unaligned_be32(1, b + n + 4);
		rr2w_segment(b + n + 8, 0x98, 4096, 0x2000);
		n += 24;
	}
	put_unaligned_be32(0, b + n);			/* end of Writes */
	n += 4;
	if (kind == RR2W_REPLY_CHUNK) {
		put_unaligned_be32(1, b + n);		/* a Reply chunk */
		put_unaligned_be32(1, b + n + 4);
		rr2w_segment(b + n + 8, 0x97, 4096, 0x3000);
		n += 24;
	} else {
		put_unaligned_be32(0, b + n);		/* no Reply chunk */
		n += 4;
	}
	return n + rr2w_rpc_call(b + n, xid);
}

/* Send a reverse Call with @kind of chunk; the client answers @err(0). */
static void rr2w_expect_chunk_refused(struct rr2w *w, u32 xid,
				      enum rr2w_chunk_kind kind, u32 err)
{
	struct kunit *test = w->test;
	struct rpcrdma2_hdr h;
	u8 msg[256], pl[64];
	u32 n;

	n = rr2w_reverse_call_with_chunk(msg, xid, kind);
	rr2w_send(w, msg, n);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.xid, xid);
	KUNIT_EXPECT_EQ(test, h.err, err);
	KUNIT_EXPECT_EQ(test, h.err_arg[0], 0);
}

/*
 * The client is a reverse-direction Responder without chunk support:
 * a reverse Call that carries chunks draws the section 7.3 error that
 * says it takes none, and the forward Call is not disturbed.
 *   V2-RDIR-15: a Write chunk: WRITE_CHUNKS with max 0; a Reply chunk:
 *   REPLY_RESOURCE (not SEGMENTS, which once came of max_segments 0).
 *   V2-ERR-33: a Read chunk: READ_CHUNKS with max 0, not SEGMENTS(0)
 *   (decode_read_list() once tested the segment cap first).
 */
static void rr2w_v2_rdir_15_reverse_call_with_chunks(struct kunit *test)
{
	struct rr2w *w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	struct rpcrdma2_hdr h;
	u8 msg[256], pl[64];
	u32 n, xid;

	rr2w_call(w);
	rr2w_accept(w);
	rr2w_settle_v2(w);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
	xid = h.xid;

	rr2w_expect_chunk_refused(w, 0x7400, RR2W_WRITE_CHUNK,
				  RDMA2_ERR_WRITE_CHUNKS);
	/* V2-ERR-33 */
	rr2w_expect_chunk_refused(w, 0x7401, RR2W_READ_CHUNK,
				  RDMA2_ERR_READ_CHUNKS);
	rr2w_expect_chunk_refused(w, 0x7402, RR2W_REPLY_CHUNK,
				  RDMA2_ERR_REPLY_RESOURCE);

	n = rr2w_msg(msg, xid, RPCRDMA2_VERS_2, RDMA2_F_RESPONSE);
	n += rr2r_rpc_reply(msg + n, xid, RPC_SUCCESS);
	rr2w_send(w, msg, n);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), 0);
}

/* Start a WRITE of @a on @w's client; @cb's status and done say how. */
static void rr2w_write_async(struct rr2w *w, struct rr2w *cb,
			     struct rr2w_write *a)
{
	struct rpc_message msg = {
		.rpc_proc	= &rr2r_clnt_procs[RR2R_WRITE],
		.rpc_argp	= a,
	};

	reinit_completion(&cb->done);
	cb->status = 1;
	KUNIT_ASSERT_EQ(w->test, 0, rpc_call_async(w->clnt, &msg,
						   RPC_TASK_SOFT,
						   &rr2w_call_ops, cb));
}

/* Start a WRITE of @a; the raw server sees it as the client sends it. */
static void rr2w_call_write(struct rr2w *w, struct rr2w_write *a)
{
	rr2w_write_async(w, w, a);
}

/* The sum of the Read segments' lengths; each Position in @pos0. */
static u32 rr2w_read_total(struct rr2w *w, const u8 *buf,
			   const struct rpcrdma2_hdr *h, bool pos0)
{
	struct rpcrdma2_segment seg;
	u32 i, pos, total = 0;

	for (i = 0; i < h->reads.segments; i++) {
		rpcrdma2_read_seg(buf, h, i, &pos, &seg);
		KUNIT_EXPECT_EQ(w->test, pos == 0, pos0);
		total += seg.length;
	}
	return total;
}

/* Answer the Version 1 Call @xid with an empty success Reply. */
static void rr2w_v1_reply_ok(struct rr2w *w, u32 xid)
{
	u8 msg[64];
	u32 n;

	n = rr2w_msg(msg, xid, RPCRDMA2_VERS_1, 0);
	n += rr2r_rpc_reply(msg + n, xid, RPC_SUCCESS);
	rr2w_send(w, msg, n);
	KUNIT_EXPECT_EQ(w->test, rr2w_wait_call(w), 0);
}

/*
 * Version 1, a WRITE of 5001 octets from pages, beyond the 1024-octet
 * threshold: marked DDP-eligible, only the data item moves, into a
 * Read chunk of its unpadded length; not marked, nothing is reduced
 * and the whole Call goes in a Position-Zero Read chunk instead.
 */
static void rr2w_v1_write_args_reduced_only_if_marked(struct kunit *test)
{
	struct rr2w *w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	struct rr2w_write wr = { .len = 5001 };
	struct rpcrdma2_hdr h;
	u8 msg[64], pl[64];
	u32 i;
	u8 *buf;

	wr.pages = kunit_kcalloc(test, 2, sizeof(*wr.pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, wr.pages);
	for (i = 0; i < 2; i++) {
		wr.pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		KUNIT_ASSERT_NOT_NULL(test, wr.pages[i]);
	}
	rr2w_call_write(w, &wr);
	rr2w_accept(w);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_CONNPROP);
	rr2w_hdr(msg, h.xid, RPCRDMA2_VERS_2, RDMA2_ERROR, RDMA2_F_RESPONSE);
	put_unaligned_be32(RDMA2_ERR_VERS, msg + 20);
	put_unaligned_be32(1, msg + 24);
	put_unaligned_be32(1, msg + 28);
	rr2w_send(w, msg, 32);

	/* V2-CHUNK-16: one Read chunk, the item without its XDR pad */
	buf = rr2w_take_full(w, RPCRDMA2_VERS_1, &h);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA_MSG);
	KUNIT_EXPECT_EQ(test, h.reads.chunks, 1);
	KUNIT_EXPECT_EQ(test, rr2w_read_total(w, buf, &h, false), 5001);
	rr2w_v1_reply_ok(w, h.xid);

	/* V2-CHUNK-03: not marked, the data item is not reduced */
	wr.no_ddp = true;
	rr2w_call_write(w, &wr);
	buf = rr2w_take_full(w, RPCRDMA2_VERS_1, &h);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA_NOMSG);
	KUNIT_EXPECT_EQ(test, h.reads.chunks, 1);
	KUNIT_EXPECT_GT(test, rr2w_read_total(w, buf, &h, true), 5001);
	rr2w_v1_reply_ok(w, h.xid);
	for (i = 0; i < 2; i++)
		__free_page(wr.pages[i]);
}

static void rr2w_datatouch_off(void *data)
{
	struct rpc_auth *auth = data;

	clear_bit(RPCAUTH_AUTH_DATATOUCH, &auth->au_flags);
}

/*
 * V2-SEC-13: under RPCSEC_GSS integrity or privacy nothing is reduced.
 * The client's credential is made to say what a krb5i or krb5p one
 * says (RPCAUTH_AUTH_DATATOUCH: the auth flavor reads and checksums or
 * wraps the arguments); a WRITE of 5001 octets beyond the Version 1
 * threshold, marked DDP-eligible, then goes whole in a Position-Zero
 * Read chunk (Special Format), with no Read chunk holding the data
 * item alone.  Without the flag the same WRITE is reduced (checked
 * first, so the flag is what changes it).
 */
static void rr2w_v2_sec_13_no_reduction_under_datatouch(struct kunit *test)
{
	struct rr2w *w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	struct rr2w_write wr = { .len = 5001 };
	struct rpc_auth *auth = w->clnt->cl_auth;
	struct rpcrdma2_hdr h;
	u8 msg[64], pl[64];
	u32 i;
	u8 *buf;

	wr.pages = kunit_kcalloc(test, 2, sizeof(*wr.pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, wr.pages);
	for (i = 0; i < 2; i++) {
		wr.pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		KUNIT_ASSERT_NOT_NULL(test, wr.pages[i]);
	}
	rr2w_call_write(w, &wr);
	rr2w_accept(w);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_CONNPROP);
	rr2w_hdr(msg, h.xid, RPCRDMA2_VERS_2, RDMA2_ERROR, RDMA2_F_RESPONSE);
	put_unaligned_be32(RDMA2_ERR_VERS, msg + 20);
	put_unaligned_be32(1, msg + 24);
	put_unaligned_be32(1, msg + 28);
	rr2w_send(w, msg, 32);

	/* without the flag: the data item alone in a Read chunk */
	buf = rr2w_take_full(w, RPCRDMA2_VERS_1, &h);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA_MSG);
	KUNIT_EXPECT_EQ(test, h.reads.chunks, 1);
	KUNIT_EXPECT_EQ(test, rr2w_read_total(w, buf, &h, false), 5001);
	rr2w_v1_reply_ok(w, h.xid);

	/* the same WRITE with a data-touching credential: not reduced */
	KUNIT_ASSERT_NOT_NULL(test, auth);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2w_datatouch_off,
							   auth));
	set_bit(RPCAUTH_AUTH_DATATOUCH, &auth->au_flags);
	rr2w_call_write(w, &wr);
	buf = rr2w_take_full(w, RPCRDMA2_VERS_1, &h);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA_NOMSG);
	KUNIT_EXPECT_EQ(test, h.reads.chunks, 1);
	KUNIT_EXPECT_EQ(test, h.writes.chunks, 0);
	KUNIT_EXPECT_GT(test, rr2w_read_total(w, buf, &h, true), 5001);
	rr2w_v1_reply_ok(w, h.xid);
	for (i = 0; i < 2; i++)
		__free_page(wr.pages[i]);
}

/*
 * Two WRITEs beyond the inline threshold and not DDP-eligible, queued
 * at once on Version 2: each is a continuation sequence of two Sends,
 * and the second's messages come only after the first's last one.
 */
static void rr2w_v2_cont_03_sequences_not_interleaved(struct kunit *test)
{
	struct rr2w *w = rr2w_start_n(test, RPCRDMA2_TEST_PDATA_RFC8797,
				      RPCRDMA2_TEST_MAX_RECV);
	struct rr2w_write wr = { .len = 6000, .no_ddp = true };
	struct rr2w *cb;
	struct rpcrdma2_hdr h;
	u32 xid[4], more[4], i, n;
	u8 msg[64], pl[64];

	cb = kunit_kzalloc(test, sizeof(*cb), GFP_KERNEL);
	wr.pages = kunit_kcalloc(test, 2, sizeof(*wr.pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cb);
	KUNIT_ASSERT_NOT_NULL(test, wr.pages);
	cb->test = test;
	init_completion(&cb->done);
	for (i = 0; i < 2; i++) {
		wr.pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		KUNIT_ASSERT_NOT_NULL(test, wr.pages[i]);
	}
	rr2w_call_write(w, &wr);
	rr2w_write_async(w, cb, &wr);
	rr2w_accept(w);
	rr2w_settle_v2(w);
	for (i = 0; i < 4; i++) {
		rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
		KUNIT_EXPECT_EQ(test, h.htype, RDMA2_MSG);
		xid[i] = h.xid;
		more[i] = !!(h.flags & RDMA2_F_MORE);
	}
	/* V2-CONT-03: A, A (last), B, B (last): never A, B, ... */
	KUNIT_EXPECT_EQ(test, xid[1], xid[0]);
	KUNIT_EXPECT_EQ(test, more[0], 1);
	KUNIT_EXPECT_EQ(test, more[1], 0);
	KUNIT_EXPECT_NE(test, xid[2], xid[0]);
	KUNIT_EXPECT_EQ(test, xid[3], xid[2]);
	KUNIT_EXPECT_EQ(test, more[2], 1);
	KUNIT_EXPECT_EQ(test, more[3], 0);
	for (i = 0; i < 4; i += 2) {
		n = rr2w_msg(msg, xid[i], RPCRDMA2_VERS_2, RDMA2_F_RESPONSE);
		n += rr2r_rpc_reply(msg + n, xid[i], RPC_SUCCESS);
		rr2w_send(w, msg, n);
	}
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), 0);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(cb), 0);
	for (i = 0; i < 2; i++)
		__free_page(wr.pages[i]);
}

/*
 * V2-CONT-03 (E-31): an error the client owes while one of its Calls is
 * continued goes out after the Call's final Send, never between its
 * Sends; window acknowledgments are the exception (shared/xfer.c).  A
 * WRITE that is not DDP-eligible takes more Sends than one window, so
 * the client stops after the first window.  Only then does the raw
 * server send a MSG with TPMORE, which draws INVAL_HTYPE (V2-PROP-12),
 * and the acknowledgment after it: the client handles the two in that
 * order, so without the rule the error would be on the wire before the
 * Call's next Send.
 */
static void rr2w_v2_cont_03_error_after_call_sequence(struct kunit *test)
{
	struct rr2w *w = rr2w_start_n(test, RPCRDMA2_TEST_PDATA_RFC8797, 24);
	struct rr2w_write wr = { .len = 18 * 4060 + 1000, .no_ddp = true };
	u32 i, n, xid = 0, seen = 0, err_at = 0, final_at = 0, npages;
	struct rpcrdma2_hdr h;
	u8 msg[128], pl[64];

	npages = DIV_ROUND_UP(wr.len, PAGE_SIZE);
	wr.pages = kunit_kcalloc(test, npages, sizeof(*wr.pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, wr.pages);
	for (i = 0; i < npages; i++) {
		wr.pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		KUNIT_ASSERT_NOT_NULL(test, wr.pages[i]);
	}
	rr2w_call_write(w, &wr);
	rr2w_accept(w);
	rr2w_settle_v2(w);
	/* at most 64 messages: the Call, the error and nothing else */
	for (i = 1; i <= 64 && !(err_at && final_at); i++) {
		rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
		if (h.htype == RDMA2_ERROR) {
			KUNIT_EXPECT_EQ(test, h.xid, 0x7e57);
			KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_INVAL_HTYPE);
			err_at = i;
			continue;
		}
		KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
		if (!seen)
			xid = h.xid;
		KUNIT_ASSERT_EQ(test, h.xid, xid);
		seen++;
		if (!(h.flags & RDMA2_F_MORE)) {
			final_at = i;
			continue;
		}
		if (seen < 2 || (seen - 1) % RPCRDMA2_SEQ_WINDOW)
			continue;
		/* the client waits for this window's acknowledgment */
		if (seen == 1 + RPCRDMA2_SEQ_WINDOW) {
			n = rr2w_msg(msg, 0x7e57, RPCRDMA2_VERS_2,
				     RDMA2_F_TPMORE);
			n += rr2w_rpc_call(msg + n, 0x7e57);
			rr2w_send(w, msg, n);
		}
		n = rpcrdma2_encode_credit_grant(msg, sizeof(msg),
						 rpcrdma2_credit_word(32, 32));
		rr2w_send(w, msg, n);
	}
	KUNIT_EXPECT_GT(test, seen, 1 + RPCRDMA2_SEQ_WINDOW);
	KUNIT_EXPECT_NE(test, final_at, 0);
	KUNIT_EXPECT_GT_MSG(test, err_at, final_at,
			    "the error was message %u, the Call's final one %u",
			    err_at, final_at);
	n = rr2w_msg(msg, xid, RPCRDMA2_VERS_2, RDMA2_F_RESPONSE);
	n += rr2r_rpc_reply(msg + n, xid, RPC_SUCCESS);
	rr2w_send(w, msg, n);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), 0);
	for (i = 0; i < npages; i++)
		__free_page(wr.pages[i]);
}

/* Mark @rq's Reply as held for its invalidation, or not any more. */
static void rr2w_hold_reply(struct rr2w *w, struct rpc_rqst *rq, bool held)
{
	struct rr2c *r = rr2c(rr2w_xprt(w));

	spin_lock(&r->frwr.lock);
	rr2c_req(rq)->rp_pending = held;
	spin_unlock(&r->frwr.lock);
}

/*
 * V2-CONT-03, #26 review (b): a continued Call stopped by the window
 * is finished when the window opens, even if a Reply to its XID is
 * being held meanwhile (a Reply to an earlier transmission: its
 * LOCAL_INV in flight).  Returning "sent" there would leave the
 * sequence cut part way, and the next Call would find it and reset the
 * connection.  The hold is set by hand while the client waits for the
 * window's acknowledgment, and cleared before the Reply.
 */
static void rr2w_v2_cont_03_resumed_call_ignores_held_reply(struct kunit *test)
{
	struct rr2w *w = rr2w_start_n(test, RPCRDMA2_TEST_PDATA_RFC8797, 24);
	struct rr2w_write wr = { .len = 18 * 4060 + 1000, .no_ddp = true };
	u32 i, n, xid = 0, seen = 0, npages;
	struct rpc_rqst *rq = NULL;
	struct rpcrdma2_hdr h;
	bool final = false;
	u8 msg[64], pl[64];
	struct rr2c *r;

	npages = DIV_ROUND_UP(wr.len, PAGE_SIZE);
	wr.pages = kunit_kcalloc(test, npages, sizeof(*wr.pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, wr.pages);
	for (i = 0; i < npages; i++) {
		wr.pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		KUNIT_ASSERT_NOT_NULL(test, wr.pages[i]);
	}
	rr2w_call_write(w, &wr);
	r = rr2c(rr2w_xprt(w));
	rr2w_accept(w);
	rr2w_settle_v2(w);
	while (!final && seen < 64) {
		rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
		KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
		if (!seen)
			xid = h.xid;
		KUNIT_ASSERT_EQ(test, h.xid, xid);
		seen++;
		final = !(h.flags & RDMA2_F_MORE);
		if (final || seen < 2 || (seen - 1) % RPCRDMA2_SEQ_WINDOW)
			continue;
		/* the client waits for this window's acknowledgment */
		if (seen == 1 + RPCRDMA2_SEQ_WINDOW) {
			spin_lock(&r->link.tx_lock);
			rq = r->tx_req;
			spin_unlock(&r->link.tx_lock);
			KUNIT_ASSERT_NOT_NULL(test, rq);
			rr2w_hold_reply(w, rq, true);
		}
		n = rpcrdma2_encode_credit_grant(msg, sizeof(msg),
						 rpcrdma2_credit_word(32, 32));
		rr2w_send(w, msg, n);
	}
	KUNIT_EXPECT_GT(test, seen, 1 + RPCRDMA2_SEQ_WINDOW);
	KUNIT_EXPECT_TRUE(test, final);
	KUNIT_ASSERT_NOT_NULL(test, rq);
	rr2w_hold_reply(w, rq, false);
	n = rr2w_msg(msg, xid, RPCRDMA2_VERS_2, RDMA2_F_RESPONSE);
	n += rr2r_rpc_reply(msg + n, xid, RPC_SUCCESS);
	rr2w_send(w, msg, n);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), 0);
	for (i = 0; i < npages; i++)
		__free_page(wr.pages[i]);
}

static void rr2w_knobs_reset(void *data)
{
	rr2c_knobs_reset();
}

/*
 * BC1-INLINE-03: a backward-direction Call larger than the client's
 * Receive buffers (1024 octets here: rdma_max_inline_read) makes the
 * client drop the connection.  (Only the oversized case: a message
 * too short for a header is dropped silently, V2-ERR-01.)
 */
static void rr2w_bc1_inline_03_oversized_backward_call(struct kunit *test)
{
	struct ctl_table *t = NULL;
	struct rpcrdma2_hdr h;
	struct rpc_xprt *xprt;
	struct rr2w *w;
	u8 *msg, pl[64];
	u32 i, n;

	for (i = 0; i < rpcrdma2_clnt_sysctl_size; i++)
		if (!strcmp(rpcrdma2_clnt_sysctl[i].procname,
			    "rdma_max_inline_read"))
			t = &rpcrdma2_clnt_sysctl[i];
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2w_knobs_reset,
							   NULL));
	WRITE_ONCE(*(int *)t->data, 1024);
	msg = kunit_kzalloc(test, RPCRDMA2_TEST_BUF_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	xprt = rr2w_xprt(w);

	/* Version 1, and a NULL Call done: nothing waits on the client */
	rr2w_call(w);
	rr2w_accept(w);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_CONNPROP);
	rr2w_hdr(msg, h.xid, RPCRDMA2_VERS_2, RDMA2_ERROR, RDMA2_F_RESPONSE);
	put_unaligned_be32(RDMA2_ERR_VERS, msg + 20);
	put_unaligned_be32(1, msg + 24);
	put_unaligned_be32(1, msg + 28);
	rr2w_send(w, msg, 32);
	rr2w_v1_null(w);
	KUNIT_ASSERT_TRUE(test, xprt_connected(xprt));

	/* a backward Call of 2048 octets: RDMA_MSG and an RPC Call */
	memset(msg, 0, 2048);
	n = rr2w_hdr(msg, 0x7300, RPCRDMA2_VERS_1, RDMA_MSG, 0);
	rr2w_rpc_call(msg + n, 0x7300);
	memcpy(rpcrdma2_test_send_buf(&w->srv.server), msg, 2048);
	KUNIT_ASSERT_EQ(test, 0,
			rpcrdma2_test_post_send(&w->srv.server, 2048));
	/* the Send itself may fail: that is the raw server's side */
	rpcrdma2_test_wait_send(&w->srv.server);
	for (i = 0; i < 200 && xprt_connected(xprt); i++)
		msleep(100);
	KUNIT_EXPECT_FALSE_MSG(test, xprt_connected(xprt),
			       "the client kept a connection that overran it");
}

/*
 * ---- the client's callback service ----
 *
 * The fixture's test service (tests/fixture.c), on which set_bc_enabled()
 * runs reverse Calls through svc_process_bc(), as the NFS client's
 * callback service does; rr2w_rpc_call() names its NULL procedure.
 */

static void rr2w_cb_serv_off(void *data)
{
	struct rpc_xprt *xprt = data;

	WRITE_ONCE(xprt->bc_serv, NULL);
}

/* Give @w's transport two callback slots and the callback service. */
static void rr2w_cb_on(struct rr2w *w)
{
	struct rpc_xprt *xprt = rr2w_xprt(w);

	KUNIT_ASSERT_NOT_NULL(w->test, rr2r_svc.serv);
	KUNIT_ASSERT_EQ(w->test, 0, xprt_setup_backchannel(xprt, 2));
	WRITE_ONCE(xprt->bc_serv, rr2r_svc.serv);
	KUNIT_ASSERT_EQ(w->test, 0,
			kunit_add_action_or_reset(w->test, rr2w_cb_serv_off,
						  xprt));
}

/*
 * The raw server sends the reverse NULL Call @cxid on @vers; the
 * client's Reply comes back through the callback service.  Check its
 * transport header and the start of its RPC header.
 */
static void rr2w_expect_reverse_reply(struct rr2w *w, u32 vers, u32 cxid)
{
	struct kunit *test = w->test;
	struct rpcrdma2_hdr h;
	u8 msg[128], pl[64];
	u32 n, plen;

	n = rr2w_msg(msg, cxid, vers, 0);
	n += rr2w_rpc_call(msg + n, cxid);
	rr2w_send(w, msg, n);
	plen = rr2w_take(w, vers, &h, pl);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_MSG);
	/* V2-RDIR-07, BC1-RDIR-12: rdma_xid is the Call's XID */
	KUNIT_EXPECT_EQ(test, h.xid, cxid);
	/* V2-RDIR-08: the connection's version */
	KUNIT_EXPECT_EQ(test, h.vers, vers);
	/* V2-RDIR-09: RESPONSE set */
	if (vers == RPCRDMA2_VERS_2)
		KUNIT_EXPECT_EQ(test, h.flags & RDMA2_F_RESPONSE,
				RDMA2_F_RESPONSE);
	KUNIT_ASSERT_GE(test, plen, 24);
	/* the RPC header follows and starts with the same XID, a REPLY */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl), cxid);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 4), RPC_REPLY);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 8), RPC_MSG_ACCEPTED);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 20), RPC_SUCCESS);
}

/*
 * V2-RDIR-07, V2-RDIR-08, V2-RDIR-09: on Version 2, the client's Reply
 * to a reverse-direction Call has the Call's XID in rdma_xid and in the
 * RPC header, rdma_vers 2 and RESPONSE set; a forward Call outstanding
 * meanwhile completes.
 */
static void rr2w_v2_rdir_07_reverse_reply_header(struct kunit *test)
{
	/* asserts V2-RDIR-07, V2-RDIR-08, V2-RDIR-09 */
	struct rr2w *w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	struct rpcrdma2_hdr h;
	u8 msg[128], pl[64];
	u32 n, xid;

	rr2w_cb_on(w);
	rr2w_call(w);
	rr2w_accept(w);
	rr2w_settle_v2(w);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
	xid = h.xid;

	rr2w_expect_reverse_reply(w, RPCRDMA2_VERS_2, 0x7600);
	/* another XID, so the header cannot be a constant */
	rr2w_expect_reverse_reply(w, RPCRDMA2_VERS_2, 0x7601);

	n = rr2w_msg(msg, xid, RPCRDMA2_VERS_2, RDMA2_F_RESPONSE);
	n += rr2r_rpc_reply(msg + n, xid, RPC_SUCCESS);
	rr2w_send(w, msg, n);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), 0);
}

/*
 * BC1-RDIR-12 (and V2-RDIR-08 on the other version): after a fallback
 * to Version 1, the backward Reply is an RDMA_MSG in Version 1 whose
 * RPC header follows at once with the Call's XID and msg_type REPLY.
 */
static void rr2w_bc1_rdir_12_backward_reply_header(struct kunit *test)
{
	/* asserts BC1-RDIR-12, V2-RDIR-08 */
	struct rr2w *w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	struct rpcrdma2_hdr h;
	u8 msg[64], pl[64];

	rr2w_cb_on(w);
	rr2w_call(w);
	rr2w_accept(w);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_CONNPROP);
	rr2w_hdr(msg, h.xid, RPCRDMA2_VERS_2, RDMA2_ERROR, RDMA2_F_RESPONSE);
	put_unaligned_be32(RDMA2_ERR_VERS, msg + 20);
	put_unaligned_be32(1, msg + 24);
	put_unaligned_be32(1, msg + 28);
	rr2w_send(w, msg, 32);
	rr2w_v1_null(w);

	rr2w_expect_reverse_reply(w, RPCRDMA2_VERS_1, 0x7700);
	rr2w_expect_reverse_reply(w, RPCRDMA2_VERS_1, 0x7701);
}

/* ---- chunks sized from the device and the peer ---- */

static struct page **rr2w_pages(struct kunit *test, u32 n)
{
	struct page **pages;
	u32 i;

	pages = kunit_kcalloc(test, n, sizeof(*pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pages);
	for (i = 0; i < n; i++) {
		pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
	}
	return pages;
}

static void rr2w_free_pages(struct page **pages, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		__free_page(pages[i]);
}

static void rr2w_devclamp_none(void *data)
{
	rpcrdma2_test_set_devclamp(RPCRDMA2_DEVCLAMP_NONE);
}

/* The device limits of the connections made from now on: a real NIC's. */
static void rr2w_devclamp(struct kunit *test, enum rpcrdma2_devclamp p)
{
	rpcrdma2_test_set_devclamp(p);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2w_devclamp_none,
							   NULL));
}

/* Settle Version 2 with a CONNPROP saying RSSIZ @rssiz, RCSIZ @rcsiz. */
static void rr2w_settle_v2_segs(struct rr2w *w, u32 rssiz, u32 rcsiz)
{
	struct rpcrdma2_props p = {
		.present = (1u << (RDMA2_PROPID_SBSIZ - 1)) |
			   (1u << (RDMA2_PROPID_RBSIZ - 1)) |
			   (1u << (RDMA2_PROPID_RSSIZ - 1)) |
			   (1u << (RDMA2_PROPID_RCSIZ - 1)),
		.sbsiz = 4096,
		.rbsiz = 4096,
		.rssiz = rssiz,
		.rcsiz = rcsiz,
	};
	u8 msg[128];
	u32 n;

	rr2w_take_connprop(w);
	n = rpcrdma2_encode_connprop(msg, sizeof(msg),
				     rpcrdma2_credit_word(32, 32), 0, &p,
				     NULL);
	KUNIT_ASSERT_NE(w->test, n, 0);
	rr2w_send(w, msg, n);
}

/*
 * The segments of a chunk: every one within @max octets (the peer's
 * RSSIZ or the device's MR), handles set.  Returns their total.
 */
static u32 rr2w_segs_within(struct rr2w *w,
			    const struct rpcrdma2_segment *segs, u32 nsegs,
			    u32 max)
{
	u32 i, total = 0;

	for (i = 0; i < nsegs; i++) {
		KUNIT_EXPECT_LE(w->test, segs[i].length, max);
		KUNIT_EXPECT_NE(w->test, segs[i].handle, 0);
		total += segs[i].length;
	}
	return total;
}

/*
 * Answer a Version 2 READ whose Write chunk is @segs: @dlen octets of
 * @data RDMA-written into it, the Write list saying so.
 */
static void rr2w_v2_write_reply(struct rr2w *w, u32 xid,
				const struct rpcrdma2_segment *segs,
				u32 nsegs, const u8 *data, u32 dlen)
{
	struct rpcrdma2_segment echo[RR2C_MAX_SEGS];
	u32 lens[RR2C_MAX_SEGS] = { };
	struct rpcrdma2_chunk_out wr = { .segs = echo, .nsegs = nsegs };
	struct rpcrdma2_msg_out m = {
		.xid	= xid,
		.vers	= RPCRDMA2_VERS_2,
		.credit	= rpcrdma2_credit_word(32, 32),
		.htype	= RDMA2_MSG,
		.flags	= RDMA2_F_RESPONSE,
		.nr_writes = 1,
		.writes	= &wr,
	};
	u8 *msg = kunit_kzalloc(w->test, RPCRDMA2_TEST_BUF_SIZE, GFP_KERNEL);
	u32 n, i;

	KUNIT_ASSERT_NOT_NULL(w->test, msg);
	rr2w_chunk_write(w, segs, nsegs, data, dlen, lens);
	for (i = 0; i < nsegs; i++) {
		echo[i] = segs[i];
		echo[i].length = lens[i];
	}
	n = rpcrdma2_encode_msg(msg, RPCRDMA2_TEST_BUF_SIZE, &m);
	KUNIT_ASSERT_NE(w->test, n, 0);
	n += rr2r_rpc_reply(msg + n, xid, RPC_SUCCESS);
	put_unaligned_be32(dlen, msg + n);
	rr2w_send(w, msg, n + 4);
}

/*
 * V2-CHUNK-30, V2-CHUNK-31: a Version 2 server advertising
 * RSSIZ 64 KiB (legal; the default is 1 MiB).  A 1 MiB READ offers a
 * Write chunk whose segments are all within 64 KiB, no more of them
 * than RCSIZ, for the whole result, and the RPC completes: it used to
 * fail with EIO, its chunk needing more than a constant 8 segments.
 */
static void rr2w_v2_chunk_30_rssiz_64k_1m_read(struct kunit *test)
{
	struct rr2w *w = rr2w_start_n(test, RPCRDMA2_TEST_PDATA_RFC8797, 4);
	struct rpcrdma2_segment segs[RR2C_MAX_SEGS];
	struct rr2w_read rd = { };
	struct rpcrdma2_hdr h;
	u32 nsegs, i;
	u8 *buf, *data;

	data = kunit_kzalloc(test, 5001, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, data);
	rd.pages = rr2w_pages(test, RR2W_BIG >> PAGE_SHIFT);
	rr2w_call_read(w, &rd, RR2W_BIG);
	rr2w_accept(w);
	rr2w_settle_v2_segs(w, 65536, 16);
	buf = rr2w_take_full(w, RPCRDMA2_VERS_2, &h);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
	KUNIT_ASSERT_EQ(test, h.writes.chunks, 1);
	nsegs = rpcrdma2_write_chunk(buf, &h, 0, 0, &segs[0]);
	KUNIT_ASSERT_GE(test, nsegs, 1);
	KUNIT_ASSERT_LE(test, nsegs, 16);
	for (i = 0; i < nsegs; i++)
		rpcrdma2_write_chunk(buf, &h, 0, i, &segs[i]);
	KUNIT_EXPECT_EQ(test, rr2w_segs_within(w, segs, nsegs, 65536),
			RR2W_BIG);
	for (i = 0; i < 5001; i++)
		data[i] = i * 11 + 7;
	rr2w_v2_write_reply(w, h.xid, segs, nsegs, data, 5001);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), 0);
	KUNIT_EXPECT_EQ(test, rd.len, 5001);
	KUNIT_EXPECT_TRUE(test, rr2w_pages_hold(rd.pages, data, 5001));
	rr2w_expect_pool_full(test, rr2c(rr2w_xprt(w)));
	rr2w_free_pages(rd.pages, RR2W_BIG >> PAGE_SHIFT);
}

/*
 * V2-CHUNK-30, V2-CHUNK-31: the same server, a 1 MiB WRITE:
 * its data in a Read chunk of segments within 64 KiB, RCSIZ at most.
 */
static void rr2w_v2_chunk_30_rssiz_64k_1m_write(struct kunit *test)
{
	struct rr2w *w = rr2w_start_n(test, RPCRDMA2_TEST_PDATA_RFC8797, 4);
	struct rr2w_write wr = { .len = RR2W_BIG };
	struct rpcrdma2_segment seg;
	struct rpcrdma2_hdr h;
	u32 i, pos, total = 0;
	u8 msg[64], *buf;

	wr.pages = rr2w_pages(test, RR2W_BIG >> PAGE_SHIFT);
	rr2w_call_write(w, &wr);
	rr2w_accept(w);
	rr2w_settle_v2_segs(w, 65536, 16);
	buf = rr2w_take_full(w, RPCRDMA2_VERS_2, &h);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
	KUNIT_ASSERT_EQ(test, h.reads.chunks, 1);
	KUNIT_EXPECT_LE(test, h.reads.segments, 16);
	for (i = 0; i < h.reads.segments; i++) {
		rpcrdma2_read_seg(buf, &h, i, &pos, &seg);
		KUNIT_EXPECT_LE(test, seg.length, 65536);
		total += seg.length;
	}
	KUNIT_EXPECT_EQ(test, total, RR2W_BIG);
	i = rr2w_msg(msg, h.xid, RPCRDMA2_VERS_2, RDMA2_F_RESPONSE);
	i += rr2r_rpc_reply(msg + i, h.xid, RPC_SUCCESS);
	rr2w_send(w, msg, i);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), 0);
	rr2w_expect_pool_full(test, rr2c(rr2w_xprt(w)));
	rr2w_free_pages(wr.pages, RR2W_BIG >> PAGE_SHIFT);
}

/*
 * V2-CHUNK-31: a server advertising the least RSSIZ and
 * RCSIZ it may (4096 and 1).  A 1 MiB READ cannot have a Write chunk
 * within them, so it offers none and the Reply comes without one (by
 * continuation, or here inline, short): the RPC completes, no EIO.
 */
static void rr2w_v2_chunk_31_min_rssiz_rcsiz_1m_read(struct kunit *test)
{
	struct rr2w *w = rr2w_start_n(test, RPCRDMA2_TEST_PDATA_RFC8797, 4);
	struct rr2w_read rd = { };
	struct rpcrdma2_hdr h;
	u8 msg[128];
	char *data;
	u32 n;

	rd.pages = rr2w_pages(test, RR2W_BIG >> PAGE_SHIFT);
	rr2w_call_read(w, &rd, RR2W_BIG);
	rr2w_accept(w);
	rr2w_settle_v2_segs(w, 4096, 1);
	rr2w_take_full(w, RPCRDMA2_VERS_2, &h);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
	KUNIT_EXPECT_EQ(test, h.writes.chunks, 0);
	KUNIT_EXPECT_EQ(test, h.reads.chunks, 0);
	n = rr2w_msg(msg, h.xid, RPCRDMA2_VERS_2, RDMA2_F_RESPONSE);
	n += rr2r_rpc_reply(msg + n, h.xid, RPC_SUCCESS);
	put_unaligned_be32(8, msg + n);
	memcpy(msg + n + 4, "abcdefgh", 8);
	rr2w_send(w, msg, n + 12);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), 0);
	KUNIT_EXPECT_EQ(test, rd.len, 8);
	data = kmap_local_page(rd.pages[0]);
	KUNIT_EXPECT_EQ(test, memcmp(data, "abcdefgh", 8), 0);
	kunmap_local(data);
	rr2w_free_pages(rd.pages, RR2W_BIG >> PAGE_SHIFT);
}

/*
 * Version 1: a READ of @len not marked DDP-eligible offers a Reply chunk
 * for the whole Reply, each segment within @max; the server writes a
 * 5000-octet result into it (RDMA_NOMSG) and the RPC completes.
 */
static void rr2w_v1_reply_chunk_within(struct rr2w *w, struct rr2w_read *rd,
				       u32 len, u32 max)
{
	struct rpcrdma2_segment segs[RR2C_MAX_SEGS];
	u32 lens[RR2C_MAX_SEGS] = { };
	struct kunit *test = w->test;
	struct rpcrdma2_hdr h;
	u32 xid, n, nsegs, i;
	u8 *msg, *data, *buf;

	msg = kunit_kzalloc(test, RPCRDMA2_TEST_BUF_SIZE, GFP_KERNEL);
	data = kunit_kzalloc(test, 6000, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	KUNIT_ASSERT_NOT_NULL(test, data);
	buf = rr2w_take_full(w, RPCRDMA2_VERS_1, &h);
	KUNIT_EXPECT_EQ(test, h.writes.chunks, 0);
	KUNIT_ASSERT_EQ(test, h.reply.chunks, 1);
	nsegs = rpcrdma2_reply_chunk(buf, &h, 0, &segs[0]);
	KUNIT_ASSERT_GE(test, nsegs, 1);
	KUNIT_ASSERT_LE(test, nsegs, RR2C_MAX_SEGS);
	for (i = 0; i < nsegs; i++)
		rpcrdma2_reply_chunk(buf, &h, i, &segs[i]);
	KUNIT_EXPECT_GE(test, rr2w_segs_within(w, segs, nsegs, max), 28 + len);
	xid = h.xid;
	n = rr2r_rpc_reply(data, xid, RPC_SUCCESS);
	put_unaligned_be32(5000, data + n);
	for (i = 0; i < 5000; i++)
		data[n + 4 + i] = i * 13 + 1;
	rr2w_chunk_write(w, segs, nsegs, data, n + 4 + 5000, lens);
	n = rr2w_v1_nomsg_reply(msg, xid, segs, nsegs, lens);
	rr2w_send(w, msg, n);
	KUNIT_EXPECT_EQ(test, rr2w_wait_call(w), 0);
	KUNIT_EXPECT_EQ(test, rd->len, 5000);
	KUNIT_EXPECT_TRUE(test, rr2w_pages_hold(rd->pages, data + 28, 5000));
	rr2w_expect_pool_full(test, rr2c(rr2w_xprt(w)));
}

/*
 * An RPC that cannot be sent fails alone.  The task that
 * holds the transport drains the transmit queue; when the request it
 * transmits is another task's, that request's error is kept for its
 * own task and the transmitting one is only told to wait a moment,
 * however often it comes back, until the owner transmits and gets it.
 */
static void rr2w_send_error_stays_with_its_rpc(struct kunit *test)
{
	struct rr2c *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct rr2c_req *req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	struct rpc_task *own = kunit_kzalloc(test, sizeof(*own), GFP_KERNEL);
	struct rpc_task *other = kunit_kzalloc(test, sizeof(*other),
					       GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_NOT_NULL(test, req);
	KUNIT_ASSERT_NOT_NULL(test, own);
	KUNIT_ASSERT_NOT_NULL(test, other);
	req->rq.rq_task = own;
	r->xprt.snd_task = other;
	KUNIT_EXPECT_EQ(test, rr2c_fail_rqst(r, &req->rq, -EMSGSIZE),
			-ENOBUFS);
	KUNIT_EXPECT_EQ(test, req->rp_error, -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, rr2c_fail_rqst(r, &req->rq, req->rp_error),
			-ENOBUFS);
	r->xprt.snd_task = own;
	KUNIT_EXPECT_EQ(test, rr2c_fail_rqst(r, &req->rq, req->rp_error),
			-EMSGSIZE);
	KUNIT_EXPECT_EQ(test, req->rp_error, 0);
}

/*
 * Under the iwarp clamp (a 32-page FRWR depth, one SGE per
 * RDMA Read): Version 1 still carries 1 MiB, and a 1 MiB READ's Reply
 * chunk (a head, 8 MRs of pages, a tail: more than the constant 8
 * segments it used to be refused with, EIO) fits the device's MRs.
 */
static void rr2w_v1_devclamp_iwarp_1m_reply_chunk(struct kunit *test)
{
	struct rr2w *w;
	struct rr2w_read rd = { .no_ddp = true };
	struct rr2c *r;

	rr2w_devclamp(test, RPCRDMA2_DEVCLAMP_IWARP);
	w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	r = rr2c(rr2w_xprt(w));
	rd.pages = rr2w_pages(test, RR2W_BIG >> PAGE_SHIFT);
	rr2w_settle_v1_read(w, &rd, RR2W_BIG);
	rr2w_v1_reply_chunk_within(w, &rd, RR2W_BIG, 32 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, r->frwr.depth, 32);
	KUNIT_EXPECT_EQ(test, rpc_max_payload(w->clnt), RR2W_BIG);
	rr2w_free_pages(rd.pages, RR2W_BIG >> PAGE_SHIFT);
}

/*
 * Under the tiny clamp (4-page MRs): Version 1 has only
 * chunks, and 16 segments of 16 KiB cannot describe a 1 MiB Reply, so
 * the transport offers the upper layer less (rsize and wsize): as much
 * as such a chunk describes in any layout.  A READ of that much, not
 * DDP-eligible, gets a Reply chunk within the MRs and completes.
 */
static void rr2w_v1_devclamp_tiny_caps_payload(struct kunit *test)
{
	struct rr2w *w;
	struct rr2w_read rd = { };
	struct rpcrdma2_segment segs[RR2C_MAX_SEGS];
	u32 xid, nsegs, lens[RR2C_MAX_SEGS] = { };
	size_t max;
	u8 *msg;
	u32 n;

	rr2w_devclamp(test, RPCRDMA2_DEVCLAMP_TINY);
	w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	msg = kunit_kzalloc(test, RPCRDMA2_TEST_BUF_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	rd.pages = rr2w_pages(test, RR2W_BIG >> PAGE_SHIFT);
	/* a small READ settles Version 1; its Write chunk goes unused */
	rr2w_settle_v1_read(w, &rd, 8192);
	xid = rr2w_take_read(w, 8192, segs, &nsegs);
	n = rr2w_v1_write_reply(msg, xid, segs, nsegs, lens, 8, "abcdefgh");
	rr2w_send(w, msg, n);
	KUNIT_ASSERT_EQ(test, rr2w_wait_call(w), 0);

	max = rpc_max_payload(w->clnt);
	KUNIT_EXPECT_LT(test, max, RR2W_BIG);
	KUNIT_EXPECT_GE(test, max, 64 * 1024);
	KUNIT_EXPECT_EQ(test, max & ~PAGE_MASK, 0);
	rd.no_ddp = true;
	rr2w_call_read(w, &rd, max);
	rr2w_v1_reply_chunk_within(w, &rd, max, 4 * PAGE_SIZE);
	rr2w_free_pages(rd.pages, RR2W_BIG >> PAGE_SHIFT);
}

/*
 * #26 review (e): the upper layer reads the payload once, at mount.
 * Under the tiny clamp a Version 2 connection offers no more than
 * Version 1's chunks describe on the same device, so that a later
 * connection that settles Version 1 (here after a lost negotiation,
 * V2-FRAME-19) still serves the rsize and wsize the mount took.
 */
static void rr2w_v2_devclamp_tiny_payload_fits_v1(struct kunit *test)
{
	struct rr2w *w;
	struct rpcrdma2_hdr h;
	u8 msg[64], pl[64];
	size_t v2, v1;
	u32 n;

	rr2w_devclamp(test, RPCRDMA2_DEVCLAMP_TINY);
	w = rr2w_start(test, RPCRDMA2_TEST_PDATA_RFC8797);
	rr2w_call(w);
	rr2w_accept(w);
	rr2w_settle_v2(w);
	rr2w_take(w, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
	n = rr2w_msg(msg, h.xid, RPCRDMA2_VERS_2, RDMA2_F_RESPONSE);
	n += rr2r_rpc_reply(msg + n, h.xid, RPC_SUCCESS);
	rr2w_send(w, msg, n);
	KUNIT_ASSERT_EQ(test, rr2w_wait_call(w), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma2_clnt_test_version(rr2w_xprt(w)),
			RPCRDMA2_VERS_2);
	v2 = rpc_max_payload(w->clnt);

	/* the next connection's negotiation is lost: it settles Version 1 */
	xprt_force_disconnect(rr2w_xprt(w));
	rpcrdma2_test_server_reset(&w->srv);
	rr2w_lose_negotiation(w);
	KUNIT_ASSERT_EQ(test, rpcrdma2_clnt_test_version(rr2w_xprt(w)),
			RPCRDMA2_VERS_1);
	v1 = rpc_max_payload(w->clnt);
	KUNIT_EXPECT_LT(test, v1, RR2W_BIG);
	KUNIT_EXPECT_LE_MSG(test, v2, v1,
			    "the mount took %zu on Version 2, Version 1 carries %zu",
			    v2, v1);
}

/*
 * ... and those whose server says RSSIZ 64 KiB: on the device, and on
 * the iwarp profile's 32-page MRs, which fit it (tiny's 4-page ones
 * would need continuation, which these raw servers do not script).
 */
static const struct rr2r_param rr2w_rssiz64k[] = {
	{ RPCRDMA2_TEST_RXE, RPCRDMA2_DEVCLAMP_NONE },
	{ RPCRDMA2_TEST_SIW, RPCRDMA2_DEVCLAMP_NONE },
	{ RPCRDMA2_TEST_RXE, RPCRDMA2_DEVCLAMP_IWARP },
	{ RPCRDMA2_TEST_SIW, RPCRDMA2_DEVCLAMP_IWARP },
};

KUNIT_ARRAY_PARAM(rr2w_link, rr2r_links, rr2r_link_desc);
KUNIT_ARRAY_PARAM(rr2w_clamped, rr2r_clamped, rr2r_link_desc);
KUNIT_ARRAY_PARAM(rr2w_rssiz64k, rr2w_rssiz64k, rr2r_link_desc);

/*
 * @c is the most credits up to the default that fit, or 0: none fit.
 * The oracle is rr2c_queues_fit(): rpcrdma2_ep_create()'s own rule
 * (rpcrdma2_ep_attr_fits()) on the queues rr2c_connect() asks for.
 */
static bool rr2w_credits_right(const struct rpcrdma2_dev_attr *dev, u32 c,
			       u32 nr_send)
{
	if (!c)
		return !rr2c_queues_fit(RPCRDMA_MIN_SLOT_TABLE, dev, nr_send);
	return c >= RPCRDMA_MIN_SLOT_TABLE && c <= RPCRDMA_DEF_SLOT_TABLE &&
	       rr2c_queues_fit(c, dev, nr_send) &&
	       (c == RPCRDMA_DEF_SLOT_TABLE ||
		!rr2c_queues_fit(c + 1, dev, nr_send));
}

/*
 * Devices with small queues: the credits a connection asks for are the
 * most its queues hold, whether the Send Queue, the Receive Queue or
 * the CQ is the limit and whether the MR pool's floor or its per-credit
 * size dominates; or none (0, and the connection is refused) when not
 * even RPCRDMA_MIN_SLOT_TABLE fit.
 */
static void rr2w_credits_fit_small_devices(struct kunit *test)
{
	static const u32 nr_sends[] = { 8, 36 };
	struct rpcrdma2_dev_attr dev;
	u32 i, lim, c, bad = 0, fits = 0;
	int big;

	for (i = 0; i < ARRAY_SIZE(nr_sends); i++) {
		for (big = 0; big < 2; big++) {
			for (lim = 8; lim <= 2048; lim++) {
				memset(&dev, 0, sizeof(dev));
				/* one queue limit varies, the other is ample */
				dev.max_qp_wr = big ? 1 << 20 : lim;
				dev.max_cqe = big ? lim : 1 << 20;
				c = rr2c_credits_fit(RPCRDMA_DEF_SLOT_TABLE,
						     &dev, nr_sends[i]);
				if (c)
					fits++;
				if (!rr2w_credits_right(&dev, c, nr_sends[i])) {
					if (!bad++)
						kunit_info(test, "nr_send %u max_qp_wr %u max_cqe %u: %u credits",
							   nr_sends[i],
							   dev.max_qp_wr,
							   dev.max_cqe, c);
				}
			}
		}
	}
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_GT(test, fits, 0);
}

static struct kunit_case rr2w_cases[] = {
	KUNIT_CASE(rr2w_credits_fit_small_devices),
	KUNIT_CASE_PARAM(rr2w_no_cm_record_means_1024, rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_v2_err_vers_falls_back, rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_bad_first_reply_no_loop, rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_client_answers_and_drops, rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_v2_err_06_nego_discards, rr2w_link_gen_params),
	KUNIT_CASE(rr2w_v2_frame_19_retry_v2_later),
	KUNIT_CASE(rr2w_v2_frame_19_lost_never_pins),
	KUNIT_CASE(rr2w_v2_err_15_no_version_never_offered),
	KUNIT_CASE_PARAM(rr2w_v2_err_15_err_vers_3_4_no_reconnect,
			 rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_v1_write_chunk,
			 rr2w_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2w_v1_rdma_placed,
			 rr2w_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2w_v1_foreign_rkey,
			 rr2w_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2w_v2_cont_09_long_staged_reply,
			 rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_v2_sec_08_no_resend_while_reply_held,
			 rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_v1_held_receives_reposted,
			 rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_v2_chunk_20_stale_write_chunk,
			 rr2w_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2w_v2_sec_08_reply_after_unmap,
			 rr2w_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2w_v2_cont_08_continued_reply_with_chunks,
			 rr2w_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2w_xch_client, rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_v2_errors_end_the_call, rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_v2_frame_14_one_message_until_granted,
			 rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_v2_cred_01_grant_is_receives_posted,
			 rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_v1_local_inv_failure_closes_first,
			 rr2w_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2w_bc1_inline_03_oversized_backward_call,
			 rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_v2_rdir_15_reverse_call_with_chunks,
			 rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_v2_rdir_07_reverse_reply_header,
			 rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_bc1_rdir_12_backward_reply_header,
			 rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_v1_write_args_reduced_only_if_marked,
			 rr2w_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2w_v2_cont_03_sequences_not_interleaved,
			 rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_v2_sec_13_no_reduction_under_datatouch,
			 rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_v2_chunk_30_rssiz_64k_1m_read,
			 rr2w_rssiz64k_gen_params),
	KUNIT_CASE_PARAM(rr2w_v2_chunk_30_rssiz_64k_1m_write,
			 rr2w_rssiz64k_gen_params),
	KUNIT_CASE_PARAM(rr2w_v2_chunk_31_min_rssiz_rcsiz_1m_read,
			 rr2w_clamped_gen_params),
	KUNIT_CASE(rr2w_send_error_stays_with_its_rpc),
	KUNIT_CASE_PARAM(rr2w_v1_devclamp_iwarp_1m_reply_chunk,
			 rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_v1_devclamp_tiny_caps_payload,
			 rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_v2_devclamp_tiny_payload_fits_v1,
			 rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_v2_cont_03_error_after_call_sequence,
			 rr2w_link_gen_params),
	KUNIT_CASE_PARAM(rr2w_v2_cont_03_resumed_call_ignores_held_reply,
			 rr2w_link_gen_params),
	{}
};

static struct kunit_suite rr2w_suite = {
	.name		= "rpcrdma2_clnt_wire",
	.suite_init	= rr2r_suite_init,
	.suite_exit	= rr2r_suite_exit,
	.test_cases	= rr2w_cases,
};

kunit_test_suite(rr2w_suite);
