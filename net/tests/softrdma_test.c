// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rpcrdma2_softrdma": proves that the test kernel can host
 * end-to-end transport tests.  For each soft-RDMA provider (rxe, siw) it
 * creates a device on a dummy netdev, connects an RC queue pair through
 * rdma_cm on the netdev's link-local address, and moves Sends both ways,
 * checking every byte that arrives.
 *
 * It also checks the completion IDs the endpoint gives its Send and
 * Receive buffers, through probes on the trace events.
 *
 * The environments are made once per suite (suite_init) and torn down in
 * suite_exit; every case is run once per provider.
 */

#include <kunit/test.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include "shared/nego.h"
#include "tests/env.h"
#include <trace/events/rpcrdma2.h>

static struct rpcrdma2_test_env rr2t_envs[RPCRDMA2_TEST_NR_LINKS];

static const enum rpcrdma2_test_link rr2t_links[] = {
	RPCRDMA2_TEST_RXE,
	RPCRDMA2_TEST_SIW,
};

static void rr2t_link_desc(const enum rpcrdma2_test_link *link, char *desc)
{
	strscpy(desc, rpcrdma2_test_link_name(*link), KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rr2t_link, rr2t_links, rr2t_link_desc);

/* The environment for this case's provider; fails the case if it is down. */
static struct rpcrdma2_test_env *rr2t_env(struct kunit *test)
{
	const enum rpcrdma2_test_link *link = test->param_value;
	struct rpcrdma2_test_env *env = &rr2t_envs[*link];

	KUNIT_ASSERT_EQ_MSG(test, env->err, 0, "%s setup failed at \"%s\"",
			    rpcrdma2_test_link_name(*link),
			    env->failed_step ?: "?");
	return env;
}

/* A connected pair on this case's provider, or NULL after failing the case. */
static struct rpcrdma2_test_conn *rr2t_connected(struct kunit *test)
{
	struct rpcrdma2_test_env *env = rr2t_env(test);
	struct rpcrdma2_test_conn *conn;

	conn = kunit_kzalloc(test, sizeof(*conn), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, conn);
	if (!rpcrdma2_test_connect(conn, env))
		return conn;
	rpcrdma2_test_disconnect(conn);
	KUNIT_FAIL(test, "connect on %s failed", rpcrdma2_test_link_name(env->link));
	return NULL;
}

/* Fill @buf with a pattern that depends on @seed and the offset. */
static void rr2t_fill(u8 *buf, u32 len, u8 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		buf[i] = seed ^ (u8)(i * 7 + (i >> 8));
}

static bool rr2t_check(const u8 *buf, u32 len, u8 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		if (buf[i] != (u8)(seed ^ (u8)(i * 7 + (i >> 8))))
			return false;
	return true;
}

/* The device exists, its port is active, and it is the expected kind. */
static void rr2t_device_up(struct kunit *test)
{
	struct rpcrdma2_test_env *env = rr2t_env(test);
	struct ib_port_attr attr;

	KUNIT_ASSERT_NOT_NULL(test, env->ibdev);
	KUNIT_ASSERT_EQ(test, ib_query_port(env->ibdev, 1, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.state, IB_PORT_ACTIVE);
	if (env->link == RPCRDMA2_TEST_RXE)
		KUNIT_EXPECT_TRUE(test, rdma_protocol_roce(env->ibdev, 1));
	else
		KUNIT_EXPECT_TRUE(test, rdma_protocol_iwarp(env->ibdev, 1));
	if (env->addr.sa.sa_family == AF_INET6) {
		KUNIT_EXPECT_TRUE(test,
				  ipv6_addr_type(&env->addr.sin6.sin6_addr) &
				  IPV6_ADDR_LINKLOCAL);
		KUNIT_EXPECT_EQ(test, env->addr.sin6.sin6_scope_id,
				env->ndev->ifindex);
	} else {
		KUNIT_EXPECT_EQ(test, env->addr.sa.sa_family, AF_INET);
		KUNIT_EXPECT_NE(test, env->addr.sin.sin_addr.s_addr, 0);
	}
}

/* V2-FRAME-01: the pair is RC, and connects through rdma_cm. */
static void rr2t_rc_connect(struct kunit *test)
{
	/* asserts V2-FRAME-01: both QPs are RC */
	struct rpcrdma2_test_env *env = rr2t_env(test);
	struct rpcrdma2_test_conn *conn;

	conn = kunit_kzalloc(test, sizeof(*conn), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, conn);
	KUNIT_EXPECT_EQ(test, rpcrdma2_test_connect(conn, env), 0);
	if (conn->client.id && conn->client.id->qp) {
		KUNIT_EXPECT_EQ(test, conn->client.id->qp->qp_type, IB_QPT_RC);
		KUNIT_EXPECT_PTR_EQ(test, conn->client.id->device, env->ibdev);
	}
	if (conn->server.id && conn->server.id->qp) {
		KUNIT_EXPECT_EQ(test, conn->server.id->qp->qp_type, IB_QPT_RC);
		KUNIT_EXPECT_PTR_EQ(test, conn->server.id->device, env->ibdev);
	}
	rpcrdma2_test_disconnect(conn);
}

/*
 * CMP-CMPD-02, CMP-CMPD-10, CMP-CMPD-11, CMP-CMPD-12, CMP-CMPD-18: the
 * RFC 8797 record each side put in its connect or accept parameters
 * arrives at the other, through the IB CM (rxe) and through MPA (siw).
 * The client offers R = 1, the server R = 0.
 */
static void cmp_cmpd_private_data_exchange(struct kunit *test)
{
	struct rpcrdma2_test_conn *conn = rr2t_connected(test);

	if (!conn)
		return;
	KUNIT_EXPECT_TRUE(test, conn->server.peer_pdata_found);
	KUNIT_EXPECT_TRUE(test, conn->server.peer_pdata.remote_inv);
	KUNIT_EXPECT_EQ(test, conn->server.peer_pdata.send_size,
			(u32)RPCRDMA2_TEST_BUF_SIZE);
	KUNIT_EXPECT_EQ(test, conn->server.peer_pdata.recv_size,
			(u32)RPCRDMA2_TEST_BUF_SIZE);
	KUNIT_EXPECT_TRUE(test, conn->client.peer_pdata_found);
	KUNIT_EXPECT_FALSE(test, conn->client.peer_pdata.remote_inv);
	KUNIT_EXPECT_EQ(test, conn->client.peer_pdata.recv_size,
			(u32)RPCRDMA2_TEST_BUF_SIZE);
	rpcrdma2_test_disconnect(conn);
}

/* Send @len bytes from @from to @to and check every byte that arrives. */
static void rr2t_one_send(struct kunit *test, struct rpcrdma2_test_ep *from,
			  struct rpcrdma2_test_ep *to, u32 len, u8 seed)
{
	rr2t_fill(rpcrdma2_test_send_buf(from), len, seed);
	KUNIT_ASSERT_EQ(test, rpcrdma2_test_post_send(from, len), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma2_test_wait_recv(to), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma2_test_wait_send(from), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_test_recv_len(to), len);
	KUNIT_EXPECT_TRUE_MSG(test,
			      rr2t_check(rpcrdma2_test_recv_buf(to), len, seed),
			      "payload of %u bytes corrupted", len);
	KUNIT_ASSERT_EQ(test, rpcrdma2_test_post_recv(to), 0);
}

/* Real Sends both ways, from one byte to a full 4 KiB buffer. */
static void rr2t_send_both_ways(struct kunit *test)
{
	static const u32 sizes[] = { 1, 28, 1024, 1025, 4093,
				     RPCRDMA2_TEST_BUF_SIZE };
	struct rpcrdma2_test_conn *conn = rr2t_connected(test);
	unsigned int i;

	if (!conn)
		return;
	for (i = 0; i < ARRAY_SIZE(sizes) && !test->status; i++) {
		rr2t_one_send(test, &conn->client, &conn->server, sizes[i],
			      0x5a + i);
		rr2t_one_send(test, &conn->server, &conn->client, sizes[i],
			      0xa5 + i);
	}
	rpcrdma2_test_disconnect(conn);
}

static void rr2t_local(struct rpcrdma2_local *l, u32 vers)
{
	memset(l, 0, sizeof(*l));
	l->max_vers = vers;
	l->send_size = RPCRDMA2_TEST_BUF_SIZE;
	l->recv_size = RPCRDMA2_TEST_BUF_SIZE;
	l->max_seg_size = 1 << 20;
	l->max_segs = 16;
	l->credits = rpcrdma2_credit_word(1, 1);
}

/* Move one message from @from to @to; returns its length or -errno. */
static int rr2t_xfer(struct kunit *test, struct rpcrdma2_test_ep *from,
		     struct rpcrdma2_test_ep *to, u32 len)
{
	int err;

	err = rpcrdma2_test_post_send(from, len);
	if (!err)
		err = rpcrdma2_test_wait_recv(to);
	if (!err)
		err = rpcrdma2_test_wait_send(from);
	if (err)
		return err;
	len = rpcrdma2_test_recv_len(to);
	return rpcrdma2_test_post_recv(to) ?: len;
}

/* A Version 1 RPC Call header and the RPC xid after it. */
static u32 rr2t_v1_call(u8 *buf)
{
	static const u32 w[] = { 77, 1, 1, RDMA_MSG, 0, 0, 0, 77, 0 };
	u32 i;

	for (i = 0; i < ARRAY_SIZE(w); i++)
		put_unaligned_be32(w[i], buf + 4 * i);
	return sizeof(w);
}

/*
 * One negotiation on a fresh connection, rdmavers @cl for the client
 * and @sl for the server; returns through @cc and @sc what each settled.
 */
static void rr2t_negotiate(struct kunit *test, struct rpcrdma2_test_conn *conn,
			   const struct rpcrdma2_local *cl,
			   const struct rpcrdma2_local *sl,
			   struct rpcrdma2_conn *cc, struct rpcrdma2_conn *sc)
{
	struct rpcrdma2_test_ep *c = &conn->client, *s = &conn->server;
	u8 *c_tx = rpcrdma2_test_send_buf(c), *c_rx = rpcrdma2_test_recv_buf(c);
	u8 *s_tx = rpcrdma2_test_send_buf(s), *s_rx = rpcrdma2_test_recv_buf(s);
	const u32 size = RPCRDMA2_TEST_BUF_SIZE;
	enum rpcrdma2_nego r;
	u32 olen;
	int len;

	rpcrdma2_conn_init(cc, &c->peer_pdata);
	rpcrdma2_conn_init(sc, &s->peer_pdata);
	if (cl->max_vers == 2) {
		len = rpcrdma2_nego_client_hello(cl, 1, c_tx, size);
		len = rr2t_xfer(test, c, s, len);
		KUNIT_ASSERT_GT(test, len, 0);
		r = rpcrdma2_nego_server_recv(sc, sl, s_rx, len, s_tx, size,
					      &olen);
		KUNIT_EXPECT_EQ(test, r, sl->max_vers == 2 ?
				RPCRDMA2_NEGO_REPLY : RPCRDMA2_NEGO_REJECT);
		len = rr2t_xfer(test, s, c, olen);
		KUNIT_ASSERT_GT(test, len, 0);
		r = rpcrdma2_nego_client_recv(cc, cl, c_rx, len, c_tx, size,
					      &olen);
		KUNIT_EXPECT_EQ(test, r, RPCRDMA2_NEGO_DONE);
	} else {
		cc->vers = 1;
		rpcrdma2_conn_thresholds(cc, cl);
	}
	if (cc->vers != 1)
		return;
	/* the RPC goes in Version 1 and settles the server */
	len = rr2t_xfer(test, c, s, rr2t_v1_call(c_tx));
	KUNIT_ASSERT_GT(test, len, 0);
	r = rpcrdma2_nego_server_recv(sc, sl, s_rx, len, s_tx, size, &olen);
	KUNIT_EXPECT_EQ(test, r, RPCRDMA2_NEGO_RPC);
	/* Version 1 thresholds come from the exchanged RFC 8797 records */
	KUNIT_EXPECT_EQ(test, cc->send_inline, size);
	KUNIT_EXPECT_EQ(test, sc->send_inline, size);
}

/*
 * V2-FRAME-14, V2-FRAME-15, V2-FRAME-16, V2-FRAME-17, V2-FRAME-18, V2-FRAME-19,
 * V2-FRAME-20, V2-FRAME-21, V2-FRAME-22, V2-FRAME-23 over real RDMA: the
 * client's first message, the
 * server's answer, the settled version on both ends, for rdmavers
 * pairs (client, server) = (2, 2), (2, 1) and (1, 2).
 */
static void v2_frame_16_negotiation(struct kunit *test)
{
	static const u32 pairs[][3] = { { 2, 2, 2 }, { 2, 1, 1 }, { 1, 2, 1 } };
	struct rpcrdma2_local cl, sl;
	struct rpcrdma2_test_conn *conn;
	struct rpcrdma2_conn *cc, *sc;
	unsigned int i;

	cc = kunit_kzalloc(test, sizeof(*cc), GFP_KERNEL);
	sc = kunit_kzalloc(test, sizeof(*sc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cc);
	KUNIT_ASSERT_NOT_NULL(test, sc);
	for (i = 0; i < ARRAY_SIZE(pairs) && !test->status; i++) {
		rr2t_local(&cl, pairs[i][0]);
		rr2t_local(&sl, pairs[i][1]);
		conn = rr2t_connected(test);
		if (!conn)
			return;
		rr2t_negotiate(test, conn, &cl, &sl, cc, sc);
		KUNIT_EXPECT_EQ_MSG(test, cc->vers, pairs[i][2], "pair %u", i);
		KUNIT_EXPECT_EQ_MSG(test, sc->vers, pairs[i][2], "pair %u", i);
		rpcrdma2_test_disconnect(conn);
	}
}

static int rr2t_suite_init(struct kunit_suite *suite)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rr2t_links); i++) {
		enum rpcrdma2_test_link link = rr2t_links[i];

		if (rpcrdma2_test_env_up(&rr2t_envs[link], link))
			pr_warn("rpcrdma2 test: %s environment: %s failed (%d)\n",
				rpcrdma2_test_link_name(link),
				rr2t_envs[link].failed_step,
				rr2t_envs[link].err);
	}
	return 0;
}

static void rr2t_suite_exit(struct kunit_suite *suite)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rr2t_links); i++)
		rpcrdma2_test_env_down(&rr2t_envs[rr2t_links[i]]);
}

static void rr2t_spare_done(struct ib_cq *cq, struct ib_wc *wc)
{
}

/*
 * The endpoint leaves room for ib_drain_qp(): with every Receive the
 * owner has posted (here the one of the test endpoint), one more can
 * still be posted, as the drain does before teardown.
 */
static void rr2t_room_for_drain(struct kunit *test)
{
	struct rpcrdma2_test_conn *conn = rr2t_connected(test);
	struct ib_cqe *cqe;
	struct ib_recv_wr wr = { };

	if (!conn)
		return;
	cqe = kunit_kzalloc(test, sizeof(*cqe), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cqe);
	cqe->done = rr2t_spare_done;
	wr.wr_cqe = cqe;
	KUNIT_EXPECT_EQ(test, ib_post_recv(conn->client.id->qp, &wr, NULL), 0);
	rpcrdma2_test_disconnect(conn);		/* flushes it */
}

/* The completion IDs the trace events of the last work requests carried */
struct rr2t_cids {
	struct rpcrdma2_cid	post_send;
	struct rpcrdma2_cid	send_done;
	struct rpcrdma2_cid	post_recv;
	struct rpcrdma2_cid	recv_done;
};

static void rr2t_probe_post_send(void *data, const struct rpcrdma2_send *sd)
{
	((struct rr2t_cids *)data)->post_send = sd->cid;
}

static void rr2t_probe_send_done(void *data, const struct rpcrdma2_send *sd,
				 const struct ib_wc *wc)
{
	((struct rr2t_cids *)data)->send_done = sd->cid;
}

static void rr2t_probe_post_recv(void *data, const struct rpcrdma2_recv *rv)
{
	((struct rr2t_cids *)data)->post_recv = rv->cid;
}

static void rr2t_probe_recv_done(void *data, const struct rpcrdma2_recv *rv,
				 const struct ib_wc *wc)
{
	((struct rr2t_cids *)data)->recv_done = rv->cid;
}

/* Distinct, non-zero IDs on @ep's CQ for every Send and Receive buffer. */
static void rr2t_expect_cids(struct kunit *test, const struct rpcrdma2_ep *ep)
{
	u32 i, j;

	for (i = 0; i < ep->attr.nr_recv; i++) {
		KUNIT_EXPECT_EQ(test, ep->recvs[i].cid.cq_id, ep->cq->res.id);
		KUNIT_EXPECT_NE(test, ep->recvs[i].cid.id, 0);
		for (j = 0; j < ep->attr.nr_send; j++)
			KUNIT_EXPECT_NE(test, ep->recvs[i].cid.id,
					ep->sends[j].cid.id);
	}
	for (j = 0; j < ep->attr.nr_send; j++)
		KUNIT_EXPECT_EQ(test, ep->sends[j].cid.cq_id, ep->cq->res.id);
}

/*
 * One Send, client to server, with probes on the four events; returns
 * 0 or an errno.  No assertion: the connection must be torn down after
 * (an endpoint left behind holds up the device's removal).  @seen is
 * static so that no probe can ever write to freed memory.
 */
static int rr2t_traced_send(struct rpcrdma2_test_conn *conn,
			    struct rr2t_cids *seen)
{
	int err;

	memset(seen, 0, sizeof(*seen));
	err = register_trace_rpcrdma2_post_send(rr2t_probe_post_send, seen) ?:
	      register_trace_rpcrdma2_send_done(rr2t_probe_send_done, seen) ?:
	      register_trace_rpcrdma2_post_recv(rr2t_probe_post_recv, seen) ?:
	      register_trace_rpcrdma2_recv_done(rr2t_probe_recv_done, seen);
	if (!err)
		err = rpcrdma2_test_post_send(&conn->client, 64) ?:
		      rpcrdma2_test_wait_recv(&conn->server) ?:
		      rpcrdma2_test_wait_send(&conn->client) ?:
		      rpcrdma2_test_post_recv(&conn->server);
	/* a probe that was not registered: -ENOENT, nothing done */
	unregister_trace_rpcrdma2_recv_done(rr2t_probe_recv_done, seen);
	unregister_trace_rpcrdma2_post_recv(rr2t_probe_post_recv, seen);
	unregister_trace_rpcrdma2_send_done(rr2t_probe_send_done, seen);
	unregister_trace_rpcrdma2_post_send(rr2t_probe_post_send, seen);
	tracepoint_synchronize_unregister();
	return err;
}

/*
 * Every Send and Receive carries a completion ID on its endpoint's CQ,
 * and the post and completion events of one Send, and of one Receive,
 * carry the same ID.  The second half needs a kernel with tracepoints
 * (the KUnit configuration has none; the module's own build does).
 */
static void rr2t_completion_ids(struct kunit *test)
{
	struct rpcrdma2_test_conn *conn = rr2t_connected(test);
	static struct rr2t_cids seen;
	struct rpcrdma2_cid want;
	int err;

	if (!conn)
		return;
	KUNIT_EXPECT_NE(test, conn->client.ep.cq->res.id,
			conn->server.ep.cq->res.id);
	rr2t_expect_cids(test, &conn->client.ep);
	rr2t_expect_cids(test, &conn->server.ep);
	if (!IS_ENABLED(CONFIG_TRACEPOINTS)) {
		rpcrdma2_test_disconnect(conn);
		return;
	}
	err = rr2t_traced_send(conn, &seen);
	KUNIT_EXPECT_EQ(test, err, 0);
	if (!err) {
		want = conn->client.ep.sends[0].cid;
		KUNIT_EXPECT_EQ(test, seen.post_send.cq_id, want.cq_id);
		KUNIT_EXPECT_EQ(test, seen.post_send.id, want.id);
		KUNIT_EXPECT_EQ(test, seen.send_done.cq_id, want.cq_id);
		KUNIT_EXPECT_EQ(test, seen.send_done.id, want.id);
		/* the Receive that took it, posted again after */
		want = conn->server.ep.recvs[conn->server.cur].cid;
		KUNIT_EXPECT_EQ(test, seen.recv_done.cq_id, want.cq_id);
		KUNIT_EXPECT_EQ(test, seen.recv_done.id, want.id);
		KUNIT_EXPECT_EQ(test, seen.post_recv.cq_id, want.cq_id);
		KUNIT_EXPECT_EQ(test, seen.post_recv.id, want.id);
	}
	rpcrdma2_test_disconnect(conn);
}

/* Wait for @n more ->send_done() calls on @ep; false on a timeout. */
static bool rr2t_sends_back(struct rpcrdma2_test_ep *ep, u32 n)
{
	while (n--)
		if (!wait_for_completion_timeout(&ep->send_done, 10 * HZ))
			return false;
	return true;
}

static void rr2t_expect_sends_done(struct kunit *test,
				   const struct rpcrdma2_test_ep *ep, u32 from,
				   u32 to)
{
	u32 i;

	for (i = from; i < to; i++) {
		KUNIT_EXPECT_EQ_MSG(test, ep->sends_done[i], i,
				    "Send buffer %u came back out of order", i);
		KUNIT_EXPECT_EQ(test, ep->sends_status[i], IB_WC_SUCCESS);
	}
}

/*
 * Send completions in batches: with send_batch 4, the
 * fourth Send is the first signaled one, and its completion gives back
 * the three before it too, in the order posted; the next two wait.  A
 * Send whose owner must have it back (must_signal) is signaled at
 * once, and brings back the two before it.  One left unsignaled at the
 * end comes back from the drain.  Each buffer comes back exactly once.
 */
static void rr2t_send_batch(struct kunit *test)
{
	struct rpcrdma2_test_conn *conn;
	struct sockaddr_storage dst;
	struct rpcrdma2_test_ep *c;
	struct rpcrdma2_ep *ep;
	enum ib_wc_status st;
	u32 i;
	int err;

	conn = kunit_kzalloc(test, sizeof(*conn), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, conn);
	rpcrdma2_test_conn_init(conn, rr2t_env(test));
	conn->nr_recv = RPCRDMA2_TEST_MAX_SEND;	/* the server takes all 8 */
	conn->nr_send = RPCRDMA2_TEST_MAX_SEND;
	conn->send_batch = 4;
	err = rpcrdma2_test_listen(conn, &dst) ?:
	      rpcrdma2_test_dial(conn, (struct sockaddr *)&dst) ?:
	      rpcrdma2_test_wait_accept(conn);
	if (err) {
		rpcrdma2_test_disconnect(conn);
		KUNIT_FAIL(test, "connect: %d", err);
		return;
	}
	c = &conn->client;
	ep = &c->ep;
	KUNIT_EXPECT_EQ(test, ep->attr.send_batch, 4U);

	for (i = 0; i < 6 && !err; i++)
		err = rpcrdma2_ep_post_send(&ep->sends[i], 64, 0);
	KUNIT_EXPECT_EQ(test, err, 0);
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_EQ_MSG(test, !!(ep->sends[i].wr.send_flags &
					     IB_SEND_SIGNALED), i == 3,
				    "Send %u", i);
	KUNIT_EXPECT_TRUE(test, rr2t_sends_back(c, 4));
	/* only a completion gives buffers back: 4 and 5 went unsignaled */
	KUNIT_EXPECT_EQ(test, c->nr_sends_done, 4U);
	rr2t_expect_sends_done(test, c, 0, 4);

	ep->sends[6].must_signal = true;
	KUNIT_EXPECT_EQ(test, rpcrdma2_ep_post_send(&ep->sends[6], 64, 0), 0);
	KUNIT_EXPECT_TRUE(test, rr2t_sends_back(c, 3));
	KUNIT_EXPECT_EQ(test, c->nr_sends_done, 7U);
	rr2t_expect_sends_done(test, c, 4, 7);

	/* the count starts again after a must_signal Send: unsignaled */
	KUNIT_EXPECT_EQ(test, rpcrdma2_ep_post_send(&ep->sends[7], 64, 0), 0);
	KUNIT_EXPECT_EQ(test, ep->sends[7].wr.send_flags & IB_SEND_SIGNALED, 0);
	/* all eight arrived, each once */
	for (i = 0; i < RPCRDMA2_TEST_MAX_SEND; i++)
		KUNIT_EXPECT_EQ(test, rpcrdma2_test_wait_recv(&conn->server), 0);
	KUNIT_EXPECT_EQ(test, c->nr_sends_done, 7U);
	rpcrdma2_test_disconnect(conn);		/* drains: 7 comes back */
	KUNIT_EXPECT_EQ(test, c->nr_sends_done, 8U);
	KUNIT_EXPECT_EQ(test, c->sends_done[7], 7U);
	/* done unsignaled before the drain, or flushed by it */
	st = c->sends_status[7];
	KUNIT_EXPECT_TRUE(test, st == IB_WC_SUCCESS || st == IB_WC_WR_FLUSH_ERR);
}

static struct kunit_case rr2t_cases[] = {
	KUNIT_CASE_PARAM(rr2t_device_up, rr2t_link_gen_params),
	KUNIT_CASE_PARAM(rr2t_rc_connect, rr2t_link_gen_params),
	KUNIT_CASE_PARAM(rr2t_room_for_drain, rr2t_link_gen_params),
	KUNIT_CASE_PARAM(rr2t_send_both_ways, rr2t_link_gen_params),
	KUNIT_CASE_PARAM(cmp_cmpd_private_data_exchange, rr2t_link_gen_params),
	KUNIT_CASE_PARAM(v2_frame_16_negotiation, rr2t_link_gen_params),
	KUNIT_CASE_PARAM(rr2t_completion_ids, rr2t_link_gen_params),
	KUNIT_CASE_PARAM(rr2t_send_batch, rr2t_link_gen_params),
	{ }
};

static struct kunit_suite rr2t_softrdma_suite = {
	.name		= "rpcrdma2_softrdma",
	.suite_init	= rr2t_suite_init,
	.suite_exit	= rr2t_suite_exit,
	.test_cases	= rr2t_cases,
};

kunit_test_suites(&rr2t_softrdma_suite);
