// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rpcrdma2_faults": failures under real RPC.  Allocation
 * failures injected at each site of shared/fault.c under PUTs and GETs
 * (the transport retries or fails the RPC with an error, never hangs;
 * the leak suite, leak_test.c, runs after), a Send failure that closes
 * the server's connection (V2-ERR-11), and last the devices taken away
 * and brought back.
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

/*
 * V2-ERR-11: a Reply the server cannot send closes the connection.  The
 * Send of the Reply to a raw client's NULL Call is made to fail to
 * post, as it does on a QP already in error; the server closes the
 * connection, so the raw client sees it go (its CM event), and a new
 * connection is served.
 */
static void rr2r_svc_v2_err_11_send_failure_closes(struct kunit *test)
{
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;
	u8 msg[128];
	u32 n;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_send_faults_off,
							   NULL));
	raw = rr2r_raw(test);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	rr2r_null_grant(test, raw, 0xb101);

	rr2s_test_fail_sends(1);
	n = rr2r_msg2(msg, 0xb102, 0);
	n += rr2r_rpc_call(msg + n, 0xb102, RR2R_PROG, RR2R_NULL);
	rr2r_raw_send(test, raw, msg, n);
	/* the connection's end: a CM event (DISCONNECTED) at the raw QP */
	KUNIT_EXPECT_TRUE_MSG(test,
			      wait_for_completion_timeout(&raw->client.cm_event,
							  30 * HZ),
			      "the connection stayed up with a Reply unsent");
	KUNIT_EXPECT_EQ(test, raw->client.cm_status, -ECONNABORTED);
	rr2s_test_fail_sends(0);

	raw = rr2r_raw(test);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	rr2r_null_grant(test, raw, 0xb103);
}

/* ---- device removal ---- */

/* Is this link's listener bound to a device?  -1 if there is none. */
static int rr2r_listener_bound(enum rpcrdma2_test_link link)
{
	const struct sockaddr *want = (struct sockaddr *)&rr2r_svc.addr[link];
	struct svc_serv *serv = rr2r_svc.serv;
	struct rr2s_listener *l;
	struct svc_xprt *x;
	int bound = -1;

	spin_lock_bh(&serv->sv_lock);
	list_for_each_entry(x, &serv->sv_permsocks, xpt_list) {
		if (strcmp(x->xpt_class->xcl_name, "rdma") ||
		    rpc_get_port((struct sockaddr *)&x->xpt_local) !=
		    rpc_get_port(want))
			continue;
		l = container_of(x, struct rr2s_listener, b.xprt);
		spin_lock(&l->lock);
		bound = !!l->b.id;
		spin_unlock(&l->lock);
		break;
	}
	spin_unlock_bh(&serv->sv_lock);
	return bound;
}

/*
 * "rdma link delete" under a mount and an nfsd listener, then "rdma
 * link add" again.  The removal must not block on rpcrdma2: the
 * client's and the server's endpoints on the device let go (the ib_client
 * in shared/dev.c), and the listener, bound to the device's address,
 * gives its rdma_cm id back.  Once the device returns, the listener
 * listens again without nfsd doing anything, and the same rpc_clnt
 * reconnects and moves data.  Before the listener handled
 * DEVICE_REMOVAL, the removal blocked for ever in rdma_cm's wait for
 * the listener's id.
 */
static void rr2r_device_removal_and_return(struct kunit *test)
{
	enum rpcrdma2_test_link link = rr2r_link_of(test);
	struct rpcrdma2_test_env *env = &rr2r_envs[link];
	struct rpc_clnt *clnt, *clnt2;
	struct rpc_xprt *xprt;
	struct page **pages;
	int ret, i;

	clnt = rr2r_start(test, RPCRDMA2_VERS_2, RPCRDMA2_VERS_2, &xprt);
	pages = rr2r_pages(test);
	rr2r_roundtrip(test, clnt, pages, RR2R_MAX);
	KUNIT_ASSERT_EQ(test, rr2r_listener_bound(link), 1);
	KUNIT_EXPECT_GE(test, rpcrdma2_dev_users(), 2U);

	/* a hang detector, not a time limit: removal takes well under 1 s */
	ret = rpcrdma2_test_env_remove_device(env, 120 * HZ);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0,
			    "removing %s blocked (or failed): %d", env->ibname,
			    ret);
	KUNIT_EXPECT_EQ(test, rr2r_listener_bound(link), 0);

	ret = rpcrdma2_test_env_add_device(env);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "rdma link add %s: %d", env->ibname,
			    ret);
	/* the device's arrival wakes the listener's work at once */
	for (i = 0; i < 200 && rr2r_listener_bound(link) != 1; i++)
		msleep(50);
	KUNIT_ASSERT_EQ_MSG(test, rr2r_listener_bound(link), 1,
			    "the listener did not listen again");

	/* the same transport reconnects and carries data */
	rr2r_roundtrip(test, clnt, pages, RR2R_MAX);
	KUNIT_EXPECT_EQ(test, xprt->stat.connect_count, 2);
	/* and a new one connects to the listener */
	clnt2 = rr2r_clnt(test);
	rr2r_roundtrip(test, clnt2, pages, 4096);
}

/* ---- allocation-failure injection (shared/fault.c) ---- */

static void rr2r_fail_off(void *data)
{
	rpcrdma2_fail_reset();
}

/*
 * What an RPC may end with while an allocation fails under it: done
 * (0, the transport retried: a reconnect, a retransmission, a wait),
 * or an error the RPC client hands its caller.  A timeout is not one of
 * them: it is what a hang looks like.
 */
static bool rr2r_fail_status_ok(int ret)
{
	switch (ret) {
	case 0:
	case -ENOMEM:
	case -ENOBUFS:
	case -EIO:
	case -EAGAIN:
	case -ENOTCONN:
	case -ECONNRESET:
	case -ECONNABORTED:
		return true;
	default:
		return false;
	}
}

/*
 * Arm @site (@times failures, every @interval'th call) under a working
 * connection, optionally dropped first so that it is made again under
 * the injection, then PUT and GET @len octets: each completes with
 * every octet right or fails with an error (@completes: it completes,
 * the transport retried), none hangs, and the site was reached.
 * Disarmed, the same client PUTs and GETs again and every MR is back
 * in the pool.  The leak suite (leak_test.c) runs after.
 */
static void rr2r_fail_io(struct kunit *test, struct rpc_clnt *clnt,
			 enum rpcrdma2_fail_site site, int times, u32 interval,
			 bool reconnect, bool completes, u32 len)
{
	struct rpc_xprt *xprt = rr2r_xprt(clnt);
	struct page **pages = rr2r_pages(test);
	struct rr2r_res res;
	u64 before;
	int ret, put;

	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, rr2r_fail_off, NULL));
	rr2r_roundtrip(test, clnt, pages, len);
	before = rpcrdma2_fail_injected(site);
	rpcrdma2_fail_set(site, times, interval, 100);
	if (reconnect)
		xprt_force_disconnect(xprt);

	ret = rr2r_put(clnt, pages, len, 0x5eed, &res);
	KUNIT_EXPECT_TRUE_MSG(test, completes ? !ret : rr2r_fail_status_ok(ret),
			      "%s: PUT ended with %d", rpcrdma2_fail_name(site),
			      ret);
	if (!ret) {
		KUNIT_EXPECT_EQ(test, res.ok, 1);
		KUNIT_EXPECT_EQ(test, res.len, len);
	}
	put = ret;
	ret = rr2r_get(clnt, pages, len, 0x5eed, &res);
	KUNIT_EXPECT_TRUE_MSG(test, completes ? !ret : rr2r_fail_status_ok(ret),
			      "%s: GET ended with %d", rpcrdma2_fail_name(site),
			      ret);
	if (!ret)
		KUNIT_EXPECT_TRUE(test, rr2r_verify(pages, len, 0x5eed));
	KUNIT_EXPECT_GT_MSG(test, rpcrdma2_fail_injected(site), before,
			    "%s: no failure was injected",
			    rpcrdma2_fail_name(site));
	kunit_info(test, "%s: %llu failures, PUT %d, GET %d\n",
		   rpcrdma2_fail_name(site),
		   rpcrdma2_fail_injected(site) - before, put, ret);

	rpcrdma2_fail_reset();
	rr2r_roundtrip(test, clnt, pages, len);
	rr2r_expect_pool_full(test, xprt);
}

/*
 * The knobs mean what fault_attr's do, and a disarmed site costs
 * nothing: the static branch is off once every site is disarmed (no
 * other case leaves one armed), on while one is, and stays on when
 * "times" has run out (the hot path cannot switch it) until the site
 * is set again.
 */
static void rr2r_fail_knobs(struct kunit *test)
{
	const enum rpcrdma2_fail_site s = RPCRDMA2_FAIL_REPLY;
	u64 before = rpcrdma2_fail_injected(s);
	u32 i, failed = 0, mask = 0;

	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, rr2r_fail_off, NULL));
	rpcrdma2_fail_reset();
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&rpcrdma2_fail_armed));
	KUNIT_EXPECT_FALSE(test, rpcrdma2_fail(s));

	/* every third call, twice: calls 3 and 6 of 12 */
	rpcrdma2_fail_set(s, 2, 3, 100);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&rpcrdma2_fail_armed));
	for (i = 0; i < 12; i++)
		if (rpcrdma2_fail(s))
			mask |= BIT(i);
	KUNIT_EXPECT_EQ(test, mask, BIT(2) | BIT(5));
	KUNIT_EXPECT_EQ(test, rpcrdma2_fail_injected(s), before + 2);
	/* another site is not touched */
	KUNIT_EXPECT_FALSE(test, rpcrdma2_fail(RPCRDMA2_FAIL_REG));

	/* no limit, every call; probability 0 disarms */
	rpcrdma2_fail_set(s, -1, 1, 100);
	for (i = 0; i < 100; i++)
		failed += rpcrdma2_fail(s);
	KUNIT_EXPECT_EQ(test, failed, 100);
	rpcrdma2_fail_set(s, -1, 1, 0);
	KUNIT_EXPECT_FALSE(test, rpcrdma2_fail(s));
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&rpcrdma2_fail_armed));

	/* 50 percent of 400 calls: neither none nor all */
	failed = 0;
	rpcrdma2_fail_set(s, -1, 1, 50);
	for (i = 0; i < 400; i++)
		failed += rpcrdma2_fail(s);
	KUNIT_EXPECT_GT(test, failed, 100);
	KUNIT_EXPECT_LT(test, failed, 300);

	/* after 3 calls that pass, every call fails, with no limit */
	rpcrdma2_fail_after(s, 3);
	mask = 0;
	for (i = 0; i < 8; i++)
		if (rpcrdma2_fail(s))
			mask |= BIT(i);
	KUNIT_EXPECT_EQ(test, mask, GENMASK(7, 3));

	/* two sites armed: the branch stays on until both are disarmed */
	rpcrdma2_fail_set(RPCRDMA2_FAIL_REG, 1, 1, 100);
	rpcrdma2_fail_set(s, 0, 1, 100);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&rpcrdma2_fail_armed));
	KUNIT_EXPECT_FALSE(test, rpcrdma2_fail(s));
	KUNIT_EXPECT_TRUE(test, rpcrdma2_fail(RPCRDMA2_FAIL_REG));
	KUNIT_EXPECT_FALSE(test, rpcrdma2_fail(RPCRDMA2_FAIL_REG));
	rpcrdma2_fail_reset();
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&rpcrdma2_fail_armed));
}

/*
 * connect: the client's endpoint fails on a reconnect, then the
 * server's on the accept after it (the client made its own endpoint,
 * one call, and its first Receive buffers, one call each, before it
 * asks).  Either way the RPC waits and completes on the next
 * connection: the client retries its own -ENOMEM after the reconnect
 * delay, and a refused connection.
 */
static void rr2r_fail_connect(struct kunit *test)
{
	struct rpc_clnt *clnt;
	u32 nr_init;

	clnt = rr2r_start(test, RPCRDMA2_VERS_2, RPCRDMA2_VERS_2, NULL);
	nr_init = rr2c(rr2r_xprt(clnt))->link.ep.attr.nr_recv_init;
	KUNIT_ASSERT_GT(test, nr_init, 0);
	rr2r_fail_io(test, clnt, RPCRDMA2_FAIL_CONNECT, 1, 1, true, true,
		     1000);
	rr2r_fail_io(test, clnt, RPCRDMA2_FAIL_CONNECT, 1, nr_init + 2, true,
		     true, 1000);
}

/*
 * recv-refill: a Receive that cannot be posted (or made) drops the
 * connection at either end; the Call is sent again on the next one.
 */
static void rr2r_fail_recv_refill(struct kunit *test)
{
	struct rpc_clnt *clnt;

	clnt = rr2r_start(test, RPCRDMA2_VERS_2, RPCRDMA2_VERS_2, NULL);
	rr2r_fail_io(test, clnt, RPCRDMA2_FAIL_RECV_REFILL, 1, 1, false, true,
		     300001);
	/* on a new connection: its 7th post, of the client's first ones */
	rr2r_fail_io(test, clnt, RPCRDMA2_FAIL_RECV_REFILL, 1, 7, true, true,
		     1000);
}

/*
 * reg: Version 1, so that the PUT goes in a Read chunk and the GET's
 * data in a Write chunk.  The client's DMA mapping of an MR fails
 * (first call), then the server's R/W context for the Read chunk (the
 * second: the client registered first).  Both are retried and the RPCs
 * complete: the client transmits the Call again after a delay, rather
 * than fail it as too big (EMSGSIZE); the server closes the connection
 * (V2-ERR-11: nothing would answer the Call) and the client sends it
 * again on the next one.
 */
static void rr2r_fail_reg(struct kunit *test)
{
	struct rpc_clnt *clnt;

	clnt = rr2r_start(test, RPCRDMA2_VERS_1, RPCRDMA2_VERS_1, NULL);
	rr2r_fail_io(test, clnt, RPCRDMA2_FAIL_REG, 1, 1, false, true, 65536);
	rr2r_fail_io(test, clnt, RPCRDMA2_FAIL_REG, 4, 1, false, true, 65536);
	rr2r_fail_io(test, clnt, RPCRDMA2_FAIL_REG, 1, 2, false, true, 65536);
}

/*
 * reply: the server's Write list and its RDMA Writes of a Reply with
 * a Write chunk (Version 1, 65536 octets).  Without a Write list the
 * Writes are waited for, and the GET completes on the same connection;
 * V2-ERR-11: a Reply whose Writes cannot be made closes the connection
 * (every second call: the Writes after the Write list), and the Call
 * is retransmitted on the next one.
 */
static void rr2r_fail_reply(struct kunit *test)
{
	struct rpc_xprt *xprt;
	struct rpc_clnt *clnt;
	u32 conns;

	clnt = rr2r_start(test, RPCRDMA2_VERS_1, RPCRDMA2_VERS_1, &xprt);
	conns = xprt->stat.connect_count;
	rr2r_fail_io(test, clnt, RPCRDMA2_FAIL_REPLY, 1, 1, false, true,
		     65536);
	KUNIT_EXPECT_EQ(test, xprt->stat.connect_count, conns);
	/* V2-ERR-11: the server closed the connection of a failed Reply */
	rr2r_fail_io(test, clnt, RPCRDMA2_FAIL_REPLY, 2, 2, false, true,
		     65536);
	KUNIT_EXPECT_GT_MSG(test, xprt->stat.connect_count, conns,
			    "the server kept a connection whose Reply failed");
}

/* reply: the client's pages for a sparse Reply buffer come a bit later. */
static void rr2r_fail_reply_sparse_pages(struct kunit *test)
{
	u64 before = rpcrdma2_fail_injected(RPCRDMA2_FAIL_REPLY);

	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, rr2r_fail_off, NULL));
	rpcrdma2_fail_set(RPCRDMA2_FAIL_REPLY, 2, 1, 100);
	rr2r_sparse(test, RPCRDMA2_VERS_2, 3 * PAGE_SIZE + 100);
	KUNIT_EXPECT_EQ(test, rpcrdma2_fail_injected(RPCRDMA2_FAIL_REPLY),
			before + 2);
}

static struct kunit_case rr2r_cases[] = {
	KUNIT_CASE_PARAM(rr2r_svc_v2_err_11_send_failure_closes,
			 rr2r_link_gen_params),
	KUNIT_CASE(rr2r_fail_knobs),
	KUNIT_CASE_PARAM_ATTR(rr2r_fail_connect, rr2r_link_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE_PARAM(rr2r_fail_recv_refill, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_fail_reg, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_fail_reply, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_fail_reply_sparse_pages, rr2r_link_gen_params),
	/* last: it takes the devices away and brings them back */
	KUNIT_CASE_PARAM_ATTR(rr2r_device_removal_and_return,
			      rr2r_link_gen_params, { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static struct kunit_suite rr2r_suite = {
	.name		= "rpcrdma2_faults",
	.suite_init	= rr2r_suite_init,
	.suite_exit	= rr2r_suite_exit,
	.test_cases	= rr2r_cases,
};

kunit_test_suite(rr2r_suite);
