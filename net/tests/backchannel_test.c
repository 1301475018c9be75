// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rpcrdma2_backchannel": reverse-direction RPC.  nfsd's
 * way of making a callback client on a raw client's connection, the
 * BRS levels with rpcrdma2 at both ends (the client's callback service
 * is the fixture's test service, as the NFS client's is), and Version 1
 * backward Calls (RFC 8167) within their credits.
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

/* The server-side svc_xprt of a raw client's connection, referenced. */
static struct svc_xprt *rr2r_svc_xprt_of(struct rpcrdma2_test_conn *raw)
{
	struct sockaddr *me =
		(struct sockaddr *)&raw->client.id->route.addr.src_addr;
	struct svc_serv *serv = rr2r_svc.serv;
	struct svc_xprt *x, *found = NULL;

	spin_lock_bh(&serv->sv_lock);
	/* the raw client's port is its own (link-local scopes may differ) */
	list_for_each_entry(x, &serv->sv_tempsocks, xpt_list) {
		if (rpc_get_port((struct sockaddr *)&x->xpt_remote) ==
		    rpc_get_port(me)) {
			svc_xprt_get(x);
			found = x;
			break;
		}
	}
	spin_unlock_bh(&serv->sv_lock);
	return found;
}

/* A callback client on the connection @sx (referenced), as nfsd makes. */
static struct rpc_clnt *rr2r_bc_clnt_on(struct kunit *test,
					struct svc_xprt *sx)
{
	struct rpc_create_args args = {
		.net		= &init_net,
		.protocol	= XPRT_TRANSPORT_BC_RDMA,
		.timeout	= &rr2r_timeout,
		.servername	= "rpcrdma2-test-cb",
		.program	= &rr2r_clnt_program,
		.version	= RR2R_VERS,
		.authflavor	= RPC_AUTH_NULL,
		.cred		= current_cred(),
		.flags		= RPC_CLNT_CREATE_NOPING |
				  RPC_CLNT_CREATE_QUIET,
	};
	int ret;

	ret = kunit_add_action_or_reset(test, rr2r_svc_xprt_put, sx);
	KUNIT_ASSERT_EQ(test, ret, 0);
	args.address = (struct sockaddr *)&sx->xpt_remote;
	args.addrsize = sx->xpt_remotelen;
	args.bc_xprt = sx;
	return rpc_create(&args);
}

/* A callback client on the raw client's connection. */
static struct rpc_clnt *rr2r_bc_clnt(struct kunit *test,
				     struct rpcrdma2_test_conn *raw)
{
	struct svc_xprt *sx = NULL;
	int i;

	for (i = 0; i < 100 && !sx; i++) {
		sx = rr2r_svc_xprt_of(raw);
		if (!sx)
			msleep(50);
	}
	KUNIT_ASSERT_NOT_NULL(test, sx);
	return rr2r_bc_clnt_on(test, sx);
}

/* A reverse Call from its own thread: @proc (NULL if 0) with PUT/GET args. */
struct rr2r_bc_call {
	struct rpc_clnt		*clnt;
	u32			proc;
	struct page		**pages;
	u32			len;
	u32			seed;
	struct rr2r_res		res;
	int			status;
	struct completion	done;
};

static int rr2r_bc_caller(void *data)
{
	struct rr2r_bc_call *bc = data;
	struct rr2r_args args = {
		.seed = bc->seed, .len = bc->len, .pages = bc->pages,
	};
	struct rpc_message msg = {
		.rpc_proc = &rr2r_clnt_procs[bc->proc],
		.rpc_argp = &args,
		.rpc_resp = &bc->res,
	};

	if (bc->pages)
		rr2r_fill(bc->pages, bc->len, bc->seed);
	bc->status = rpc_call_sync(bc->clnt, &msg, RPC_TASK_SOFT);
	complete(&bc->done);
	return 0;
}

/*
 * RFC 8167 and the Version 2 reverse direction on the server, over a raw client:
 * a client that advertises BRS NONE gets no callback client at all
 * (V2-RDIR-11); one that advertises SIMPLE gets a reverse Call with a
 * fresh XID in both headers (V2-RDIR-03), the connection's version
 * (V2-RDIR-04), RESPONSE clear (V2-RDIR-05), and its Reply, routed by
 * RESPONSE (V2-RDIR-18), completes it.
 */
static void rr2r_backchannel_brs(struct kunit *test)
{
	/*
	 * asserts V2-RDIR-03, V2-RDIR-04, V2-RDIR-05 (the reverse Call's
	 * header), V2-RDIR-11
	 * (none with BRS NONE)
	 */
	struct rpcrdma2_test_conn *raw;
	struct rr2r_bc_call *bc;
	struct task_struct *t;
	struct rpc_clnt *clnt;
	struct rpcrdma2_hdr h;
	u8 msg[128], pl[64];
	u32 n, plen, xid;

	raw = rr2r_raw_start(test, 1, RDMA2_RVRSDIR_NONE, &h);
	clnt = rr2r_bc_clnt(test, raw);
	KUNIT_EXPECT_TRUE(test, IS_ERR(clnt));
	if (!IS_ERR(clnt))
		rpc_shutdown_client(clnt);

	raw = rr2r_raw(test);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	clnt = rr2r_bc_clnt(test, raw);
	KUNIT_ASSERT_FALSE(test, IS_ERR(clnt));
	n = kunit_add_action_or_reset(test, rr2r_clnt_cleanup, clnt);
	KUNIT_ASSERT_EQ(test, n, 0);
	bc = kunit_kzalloc(test, sizeof(*bc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bc);
	bc->clnt = clnt;
	init_completion(&bc->done);
	t = kthread_run(rr2r_bc_caller, bc, "rr2r-bc");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));

	plen = rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_EXPECT_EQ(test, h.vers, RPCRDMA2_VERS_2);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_MSG);
	KUNIT_EXPECT_EQ(test, h.flags & RDMA2_F_RESPONSE, 0);
	KUNIT_ASSERT_GE(test, plen, 24);
	xid = get_unaligned_be32(pl);
	KUNIT_EXPECT_EQ(test, h.xid, xid);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 4), RPC_CALL);

	n = rr2r_msg2(msg, xid, RDMA2_F_RESPONSE);
	n += rr2r_rpc_reply(msg + n, xid, RPC_SUCCESS);
	rr2r_raw_send(test, raw, msg, n);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&bc->done,
							    60 * HZ));
	KUNIT_EXPECT_EQ(test, bc->status, 0);
}

/* ---- reverse-direction levels (BRS), rpcrdma2 at both ends ---- */

static void rr2r_bc_serv_off(void *data)
{
	struct rpc_xprt *xprt = data;

	WRITE_ONCE(xprt->bc_serv, NULL);
}

static void rr2r_rvrsdir_reset(void *data)
{
	rpcrdma2_test_set_rvrsdir(RDMA2_RVRSDIR_CONT, RDMA2_RVRSDIR_CONT);
}

/*
 * rpcrdma2 at both ends, the client with 1024-octet buffers (so each
 * end's sends toward the other are 1024 octets at most), the client's
 * callback
 * service the test service (as the NFS client's is), and a callback
 * client on the server's end of the connection, as nfsd makes.
 */
static struct rpc_clnt *rr2r_bc_setup(struct kunit *test, u32 clnt_brs,
				      u32 svc_brs, struct rr2c **rp,
				      struct rr2s_conn **cp)
{
	struct rpc_xprt *xprt;
	struct rpc_clnt *clnt;
	struct rr2s_conn *c;
	struct rr2c *r;
	int ret;

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_clnt_knobs_reset,
							   NULL));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_rvrsdir_reset,
							   NULL));
	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	rpcrdma2_test_set_rvrsdir(clnt_brs, svc_brs);
	KUNIT_ASSERT_EQ(test, 0, rr2r_sysctl_write(test, "rdma_max_inline_read",
						   "1024"));
	KUNIT_ASSERT_EQ(test, 0, rr2r_sysctl_write(test,
						   "rdma_max_inline_write",
						   "1024"));
	clnt = rr2r_clnt(test);
	xprt = rr2r_xprt(clnt);
	r = rr2c(xprt);
	KUNIT_ASSERT_EQ(test, rpcrdma2_clnt_test_version(xprt),
			RPCRDMA2_VERS_2);
	KUNIT_ASSERT_EQ(test, 0, xprt_setup_backchannel(xprt, 2));
	WRITE_ONCE(xprt->bc_serv, rr2r_svc.serv);
	ret = kunit_add_action_or_reset(test, rr2r_bc_serv_off, xprt);
	KUNIT_ASSERT_EQ(test, ret, 0);

	c = rr2r_svc_conn_from(test, (struct sockaddr *)
			       &r->id->route.addr.src_addr);
	/* V2-RDIR-10: each end advertised its level, and each heard it */
	KUNIT_EXPECT_EQ(test, r->link.local.brs, clnt_brs);
	KUNIT_EXPECT_EQ(test, c->link.local.brs, svc_brs);
	KUNIT_EXPECT_EQ(test, c->link.conn.peer_props.brs, clnt_brs);
	KUNIT_EXPECT_EQ(test, r->link.conn.peer_props.brs, svc_brs);
	KUNIT_EXPECT_EQ(test, c->link.conn.send_inline, 1024);
	KUNIT_EXPECT_EQ(test, r->link.conn.send_inline, 1024);
	*rp = r;
	*cp = c;
	return clnt;
}

/* As rr2r_bc_setup(), and the server's callback client. */
static struct rpc_clnt *rr2r_bc_loop(struct kunit *test, u32 clnt_brs,
				     u32 svc_brs, struct rr2c **rp,
				     struct rr2s_conn **cp)
{
	struct rpc_clnt *bc;
	int ret;

	rr2r_bc_setup(test, clnt_brs, svc_brs, rp, cp);
	svc_xprt_get(&(*cp)->b.xprt);
	bc = rr2r_bc_clnt_on(test, &(*cp)->b.xprt);
	KUNIT_ASSERT_FALSE(test, IS_ERR(bc));
	ret = kunit_add_action_or_reset(test, rr2r_clnt_cleanup, bc);
	KUNIT_ASSERT_EQ(test, ret, 0);
	return bc;
}

/* Wait up to 10 s for *@counter to pass @old. */
static bool rr2r_counter_moves(const u64 *counter, u64 old)
{
	int i;

	for (i = 0; i < 200 && READ_ONCE(*counter) == old; i++)
		msleep(50);
	return READ_ONCE(*counter) != old;
}

/*
 * Start a reverse Call in its own thread: @proc on @clnt with @len
 * octets of @pages.  @bc is kzalloc()ed and owned by the test until
 * rr2r_bc_abandon(): the thread may outlive a failed case.
 */
static struct rr2r_bc_call *rr2r_bc_start(struct kunit *test,
					  struct rpc_clnt *clnt, u32 proc,
					  struct page **pages, u32 len, u32 seed)
{
	struct rr2r_bc_call *bc = kzalloc(sizeof(*bc), GFP_KERNEL);
	struct task_struct *t;

	KUNIT_ASSERT_NOT_NULL(test, bc);
	*bc = (struct rr2r_bc_call){
		.clnt = clnt, .proc = proc, .pages = pages, .len = len,
		.seed = seed,
	};
	init_completion(&bc->done);
	t = kthread_run(rr2r_bc_caller, bc, "rr2r-bc");
	if (IS_ERR(t))
		kfree(bc);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	return bc;
}

/*
 * A reverse Call that cannot complete: let it go, and its thread end.
 * If the thread does not, @bc is left to it (leaked), never freed under it.
 */
static void rr2r_bc_abandon(struct kunit *test, struct rr2r_bc_call *bc)
{
	rpc_killall_tasks(bc->clnt);
	if (wait_for_completion_timeout(&bc->done, 60 * HZ))
		kfree(bc);
	else
		KUNIT_FAIL(test, "an abandoned reverse Call did not end");
}

/*
 * A reverse GET of 3000 octets whose Reply the client cannot send in
 * one Send: the client counts it too big, and the Call is let go.
 */
static void rr2r_bc_reply_too_big(struct kunit *test, struct rpc_clnt *clnt,
				  struct rr2c *r, struct page **pages, u32 seed)
{
	u64 too_big = r->stats.too_big;
	struct rr2r_bc_call *bc;

	bc = rr2r_bc_start(test, clnt, RR2R_GET, pages, 3000, seed);
	KUNIT_EXPECT_TRUE(test, rr2r_counter_moves(&r->stats.too_big,
						   too_big));
	rr2r_bc_abandon(test, bc);
}

/*
 * V2-RDIR-12, V2-RDIR-14: reverse-direction messages stay within the
 * level the receiving end advertised in BRS (V2-RDIR-10), rpcrdma2 at both
 * ends and 1024-octet inline thresholds both ways.  At CONT, a 3000-octet
 * reverse Call and a 3000-octet reverse Reply each go as a continued
 * message without chunks and arrive whole: the callback service checks
 * every byte of the one, the server's callback client every byte of
 * the other.  A reverse Call longer than a callback slot
 * (bc_maxpayload) is dropped by the client, not delivered cut short.
 */
static void rr2r_backchannel_cont(struct kunit *test)
{
	struct page **pages = rr2r_pages(test);
	u64 cont, dropped, calls;
	struct rr2r_bc_call *bc;
	struct rpc_clnt *clnt;
	struct rr2s_conn *c;
	struct rr2r_res res;
	struct rr2c *r;

	clnt = rr2r_bc_loop(test, RDMA2_RVRSDIR_CONT, RDMA2_RVRSDIR_CONT,
			    &r, &c);
	cont = r->stats.cont_msgs;
	calls = r->stats.bc_calls;
	KUNIT_EXPECT_EQ(test, rr2r_put_proc(clnt, RR2R_PUT_CONT, pages, 3000,
					    0x31, &res), 0);
	KUNIT_EXPECT_EQ(test, res.ok, 1);
	KUNIT_EXPECT_EQ(test, res.len, 3000);
	KUNIT_EXPECT_EQ(test, r->stats.bc_calls, calls + 1);
	KUNIT_EXPECT_EQ(test, c->bc_calls, 1);

	KUNIT_EXPECT_EQ(test, rr2r_get(clnt, pages, 3000, 0x32, &res), 0);
	KUNIT_EXPECT_EQ(test, res.ok, 1);
	KUNIT_EXPECT_EQ(test, res.len, 3000);
	KUNIT_EXPECT_TRUE(test, rr2r_verify(pages, 3000, 0x32));
	/* the reverse Reply was the client's only continued message */
	KUNIT_EXPECT_EQ(test, r->stats.cont_msgs, cont + 1);

	/* more than a slot holds: dropped whole */
	dropped = r->stats.bc_dropped;
	bc = rr2r_bc_start(test, clnt, RR2R_PUT_CONT, pages, PAGE_SIZE + 1000,
			   0x33);
	KUNIT_EXPECT_TRUE(test, rr2r_counter_moves(&r->stats.bc_dropped,
						   dropped));
	rr2r_bc_abandon(test, bc);
	/* and the connection carries on */
	KUNIT_EXPECT_EQ(test, rr2r_put_proc(clnt, RR2R_PUT_CONT, pages, 2000,
					    0x34, &res), 0);
	KUNIT_EXPECT_EQ(test, res.ok, 1);
}

/*
 * V2-RDIR-12, V2-RDIR-14: at SIMPLE (or NONE), nothing is continued
 * toward that end.  A client at SIMPLE: the server fails a reverse Call that
 * does
 * not fit one Send (-EMSGSIZE) without sending any of it, and a small
 * one still works.  A server at SIMPLE: the client does not send a
 * reverse Reply that does not fit one Send (counted as too big), and a
 * small one still works.
 */
static void rr2r_backchannel_simple(struct kunit *test)
{
	struct page **pages = rr2r_pages(test);
	struct rpc_clnt *clnt;
	struct rr2s_conn *c;
	struct rr2r_res res;
	struct rr2c *r;
	u64 recvs;

	clnt = rr2r_bc_loop(test, RDMA2_RVRSDIR_SIMPLE, RDMA2_RVRSDIR_CONT,
			    &r, &c);
	recvs = r->link.recvs;
	KUNIT_EXPECT_EQ(test, rr2r_put_proc(clnt, RR2R_PUT_CONT, pages, 3000,
					    0x41, &res), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, r->link.recvs, recvs);
	KUNIT_EXPECT_EQ(test, rr2r_put_proc(clnt, RR2R_PUT_CONT, pages, 500,
					    0x42, &res), 0);
	KUNIT_EXPECT_EQ(test, res.ok, 1);

	clnt = rr2r_bc_loop(test, RDMA2_RVRSDIR_CONT, RDMA2_RVRSDIR_SIMPLE,
			    &r, &c);
	rr2r_bc_reply_too_big(test, clnt, r, pages, 0x43);
	KUNIT_EXPECT_EQ(test, rr2r_get(clnt, pages, 500, 0x44, &res), 0);
	KUNIT_EXPECT_TRUE(test, rr2r_verify(pages, 500, 0x44));
}

/*
 * A server at NONE takes no reverse Replies, so it makes no reverse
 * Calls (V2-RDIR-10, V2-RDIR-11): nfsd gets no callback transport.  A client
 * still answers a server that calls anyway inline, as at SIMPLE
 * (XCH-RDIR-02): seen with the server's own level forced back up
 * after the connection settled.
 */
static void rr2r_backchannel_server_none(struct kunit *test)
{
	/* asserts V2-RDIR-11 */
	struct page **pages = rr2r_pages(test);
	struct rpc_clnt *bc;
	struct rr2s_conn *c;
	struct rr2r_res res;
	struct rr2c *r;

	rr2r_bc_setup(test, RDMA2_RVRSDIR_CONT, RDMA2_RVRSDIR_NONE, &r, &c);
	svc_xprt_get(&c->b.xprt);
	bc = rr2r_bc_clnt_on(test, &c->b.xprt);
	KUNIT_EXPECT_TRUE(test, IS_ERR(bc));
	if (!IS_ERR(bc))
		rpc_shutdown_client(bc);
	c->link.local.brs = RDMA2_RVRSDIR_CONT;	/* a server that calls anyway */
	svc_xprt_get(&c->b.xprt);
	bc = rr2r_bc_clnt_on(test, &c->b.xprt);
	KUNIT_ASSERT_FALSE(test, IS_ERR(bc));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_clnt_cleanup,
							   bc));
	rr2r_bc_reply_too_big(test, bc, r, pages, 0x45);
	KUNIT_EXPECT_EQ(test, rr2r_get(bc, pages, 500, 0x46, &res), 0);
	KUNIT_EXPECT_TRUE(test, rr2r_verify(pages, 500, 0x46));
	KUNIT_EXPECT_EQ(test, r->stats.cont_msgs, 0);
}

/*
 * Receives posted at each end of a connection with a back channel,
 * rpcrdma2 at both ends, as each endpoint counts them (posted and not
 * yet completed):
 *   BC1-CRED-08: the client keeps one per forward credit plus its
 *   backward set (the callback slots it advertises) posted, after
 *   forward Calls, reverse Calls and their Replies;
 *   BC1-CRED-11: the server keeps one per forward credit plus one per
 *   backward Call it may have out, while one is out and after;
 *   BC1-CRED-09, BC1-CRED-12: after the connection is dropped and made
 *   again, both new endpoints have the full set posted again (it does
 *   not depend on what was outstanding: every credit and every
 *   backward slot has its Receive).
 */
static void rr2r_bc1_cred_08_receives_posted(struct kunit *test)
{
	/* asserts BC1-CRED-08, BC1-CRED-09, BC1-CRED-11, BC1-CRED-12 */
	struct page **pages = rr2r_pages(test);
	struct rr2r_bc_call *hold;
	struct rpc_clnt *clnt, *bc;
	struct rpc_xprt *xprt;
	struct rr2s_conn *c;
	struct rr2r_res res;
	struct rr2c *r;
	u32 cwant, swant;
	int i;

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_release_holders,
							   NULL));
	clnt = rr2r_bc_setup(test, RDMA2_RVRSDIR_CONT, RDMA2_RVRSDIR_CONT,
			     &r, &c);
	xprt = rr2r_xprt(clnt);
	svc_xprt_get(&c->b.xprt);
	bc = rr2r_bc_clnt_on(test, &c->b.xprt);
	KUNIT_ASSERT_FALSE(test, IS_ERR(bc));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_clnt_cleanup,
							   bc));

	swant = c->max_grant + RR2S_BC_SLOTS + RPCRDMA2_RECV_EXTRA;
	rr2r_roundtrip(test, clnt, pages, 500);
	/* the client: a Receive per credit the server granted (V2-CRED-01) */
	cwant = rpcrdma2_clnt_test_grant(xprt) + RR2C_BC_SLOTS +
		RPCRDMA2_RECV_EXTRA;
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_grant(xprt),
			min_t(u32, r->credits, RR2S_CREDITS_INIT));
	KUNIT_EXPECT_EQ(test, rr2r_get(bc, pages, 500, 0x51, &res), 0);
	KUNIT_EXPECT_TRUE(test, rr2r_verify(pages, 500, 0x51));
	KUNIT_EXPECT_TRUE(test, rr2r_posted_settles(&r->link.ep, cwant));
	KUNIT_EXPECT_TRUE(test, rr2r_posted_settles(&c->link.ep, swant));

	/* a reverse Call out: its Reply has a Receive at the server */
	reinit_completion(&rr2r_svc.release);
	atomic_set(&rr2r_svc.held, 0);
	hold = rr2r_bc_start(test, bc, RR2R_HOLD, NULL, 0, 0);
	for (i = 0; i < 200 && !atomic_read(&rr2r_svc.held); i++)
		msleep(50);
	KUNIT_EXPECT_EQ(test, atomic_read(&rr2r_svc.held), 1);
	KUNIT_EXPECT_TRUE(test, rr2r_posted_settles(&c->link.ep, swant));
	KUNIT_EXPECT_TRUE(test, rr2r_posted_settles(&r->link.ep, cwant));
	complete_all(&rr2r_svc.release);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&hold->done,
							    60 * HZ));
	KUNIT_EXPECT_EQ(test, hold->status, 0);
	kfree(hold);
	KUNIT_EXPECT_TRUE(test, rr2r_posted_settles(&c->link.ep, swant));
	KUNIT_EXPECT_TRUE(test, rr2r_posted_settles(&r->link.ep, cwant));

	/* dropped and made again by the next forward Call */
	xprt_force_disconnect(xprt);
	for (i = 0; i < 200 && xprt_connected(xprt); i++)
		msleep(50);
	rr2r_roundtrip(test, clnt, pages, 500);
	KUNIT_EXPECT_GE(test, xprt->stat.connect_count, 2);
	r = rr2c(xprt);
	c = rr2r_svc_conn_from(test, (struct sockaddr *)
			       &r->id->route.addr.src_addr);
	cwant = rpcrdma2_clnt_test_grant(xprt) + RR2C_BC_SLOTS +
		RPCRDMA2_RECV_EXTRA;
	swant = c->max_grant + RR2S_BC_SLOTS + RPCRDMA2_RECV_EXTRA;
	KUNIT_EXPECT_TRUE(test, rr2r_posted_settles(&r->link.ep, cwant));
	KUNIT_EXPECT_TRUE(test, rr2r_posted_settles(&c->link.ep, swant));
}

/* ---- a Version 1 backward Call; rejected Calls never run (#23) ---- */

/*
 * RFC 8167 on a Version 1 connection, the server calling a raw client:
 * the backward Call's header and what follows it.
 */
static void rr2r_bc1_rdir_backward_call_v1(struct kunit *test)
{
	struct rpcrdma2_test_conn *raw;
	struct rr2r_bc_call *bc;
	struct page **pages;
	struct rr2r_res res;
	struct task_struct *t;
	struct rpc_clnt *clnt;
	struct rpcrdma2_hdr h;
	u8 msg[128], pl[64];
	u32 n, plen, xid;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	raw = rr2r_raw(test);
	/* a Version 1 NULL Call settles Version 1 */
	n = rr2r_msg1(msg, 0xb101);
	n += rr2r_rpc_call(msg + n, 0xb101, RR2R_PROG, RR2R_NULL);
	rr2r_raw_send(test, raw, msg, n);
	plen = rr2r_take(test, &raw->client, RPCRDMA2_VERS_1, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA_MSG);
	KUNIT_ASSERT_GE(test, plen, 24);
	KUNIT_ASSERT_EQ(test, get_unaligned_be32(pl + 20), RPC_SUCCESS);

	clnt = rr2r_bc_clnt(test, raw);
	KUNIT_ASSERT_FALSE(test, IS_ERR(clnt));
	n = kunit_add_action_or_reset(test, rr2r_clnt_cleanup, clnt);
	KUNIT_ASSERT_EQ(test, n, 0);
	bc = kunit_kzalloc(test, sizeof(*bc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bc);
	bc->clnt = clnt;
	init_completion(&bc->done);
	t = kthread_run(rr2r_bc_caller, bc, "rr2r-bc1");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));

	plen = rr2r_take(test, &raw->client, RPCRDMA2_VERS_1, &h, pl);
	KUNIT_EXPECT_EQ(test, h.vers, RPCRDMA2_VERS_1);	/* BC1-RDIR-06 */
	KUNIT_EXPECT_EQ(test, h.htype, RDMA_MSG);		/* BC1-RDIR-08 */
	/* BC1-RDIR-09: no chunks, a 28-octet header, msg_type at 32 */
	KUNIT_EXPECT_EQ(test, h.reads.chunks, 0);
	KUNIT_EXPECT_EQ(test, h.writes.chunks, 0);
	KUNIT_EXPECT_EQ(test, h.reply.chunks, 0);
	KUNIT_EXPECT_EQ(test, h.hdrlen, 28);
	KUNIT_EXPECT_NE(test, h.credit, 0);			/* BC1-CRED-06 */
	/*
	 * BC1-RDIR-10: the RPC Call follows, under the same XID; V2-FRAME-03:
	 * right after the header, with no record mark before it
	 */
	KUNIT_ASSERT_GE(test, plen, 24);
	xid = get_unaligned_be32(pl);
	KUNIT_EXPECT_EQ(test, h.xid, xid);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 4), RPC_CALL);

	/* the client's Reply completes it */
	n = rr2r_msg1(msg, xid);
	n += rr2r_rpc_reply(msg + n, xid, RPC_SUCCESS);
	rr2r_raw_send(test, raw, msg, n);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&bc->done,
							    60 * HZ));
	KUNIT_EXPECT_EQ(test, bc->status, 0);

	/*
	 * BC1-INLINE-01: inline only, so a backward Call larger than the
	 * client's Receive buffers is refused, not sent
	 */
	pages = rr2r_pages(test);
	KUNIT_EXPECT_EQ(test, rr2r_put_proc(clnt, RR2R_PUT_CONT, pages, 6000,
					    0x51, &res), -EMSGSIZE);
}

/* A Version 1 backward Reply to @xid granting @credit backward credits. */
static void rr2r_bc1_reply(struct kunit *test, struct rpcrdma2_test_conn *raw,
			   u32 xid, u32 credit)
{
	u8 msg[64];
	u32 n;

	n = rr2r_msg1(msg, xid);
	put_unaligned_be32(credit, msg + 8);
	n += rr2r_rpc_reply(msg + n, xid, RPC_SUCCESS);
	rr2r_raw_send(test, raw, msg, n);
}

/* The next backward Call from the server; its XID. */
static u32 rr2r_bc1_take_call(struct kunit *test,
			      struct rpcrdma2_test_conn *raw)
{
	struct rpcrdma2_hdr h;
	u8 pl[64];
	u32 plen;

	plen = rr2r_take(test, &raw->client, RPCRDMA2_VERS_1, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA_MSG);
	KUNIT_ASSERT_GE(test, plen, 24);
	KUNIT_ASSERT_EQ(test, get_unaligned_be32(pl + 4), RPC_CALL);
	return h.xid;
}

/* Wait for a backward Call's thread, then free it. */
static void rr2r_bc_done(struct kunit *test, struct rr2r_bc_call *bc)
{
	if (!wait_for_completion_timeout(&bc->done, 60 * HZ)) {
		rr2r_bc_abandon(test, bc);
		KUNIT_FAIL(test, "a backward Call did not complete");
		return;
	}
	KUNIT_EXPECT_EQ(test, bc->status, 0);
	kfree(bc);
}

/*
 * BC1-CRED-04: the server keeps its outstanding backward Calls within
 * the backward credits the client grants in its backward Replies
 * (RFC 8167 section 2.5).  A Version 1 raw client answers the first
 * backward Call with a credit of 1: of two Calls started together,
 * the second goes out only after the first's Reply, which grants 2;
 * then two Calls are outstanding at once, and no more.
 */
static void rr2r_bc1_cred_04_backward_calls_within_credit(struct kunit *test)
{
	/* asserts BC1-CRED-04 */
	struct rr2r_bc_call *a, *b, *d;
	struct rpcrdma2_test_conn *raw;
	struct rpc_clnt *clnt;
	struct rpcrdma2_hdr h;
	u32 n, x1, x2, x3;
	u8 msg[128], pl[64];

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	raw = rr2r_raw_n(test, 4);
	n = rr2r_msg1(msg, 0xb401);
	n += rr2r_rpc_call(msg + n, 0xb401, RR2R_PROG, RR2R_NULL);
	rr2r_raw_send(test, raw, msg, n);
	n = rr2r_take(test, &raw->client, RPCRDMA2_VERS_1, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA_MSG);
	clnt = rr2r_bc_clnt(test, raw);
	KUNIT_ASSERT_FALSE(test, IS_ERR(clnt));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_clnt_cleanup,
							   clnt));

	/* the first Call; its Reply grants one backward credit */
	a = rr2r_bc_start(test, clnt, RR2R_NULL, NULL, 0, 0);
	x1 = rr2r_bc1_take_call(test, raw);
	rr2r_bc1_reply(test, raw, x1, 1);
	rr2r_bc_done(test, a);

	/* two at once: one goes out, the other waits for its Reply */
	a = rr2r_bc_start(test, clnt, RR2R_NULL, NULL, 0, 0);
	b = rr2r_bc_start(test, clnt, RR2R_NULL, NULL, 0, 0);
	x1 = rr2r_bc1_take_call(test, raw);
	msleep(1000);
	KUNIT_EXPECT_FALSE_MSG(test, completion_done(&raw->client.recv_done),
			       "2 backward Calls outstanding with 1 credit");
	rr2r_bc1_reply(test, raw, x1, 2);
	x2 = rr2r_bc1_take_call(test, raw);
	KUNIT_EXPECT_NE(test, x1, x2);

	/* now 2 may be outstanding: a third goes out before any Reply */
	d = rr2r_bc_start(test, clnt, RR2R_NULL, NULL, 0, 0);
	x3 = rr2r_bc1_take_call(test, raw);
	KUNIT_EXPECT_NE(test, x3, x2);
	rr2r_bc1_reply(test, raw, x2, 2);
	rr2r_bc1_reply(test, raw, x3, 2);
	rr2r_bc_done(test, a);
	rr2r_bc_done(test, b);
	rr2r_bc_done(test, d);
}

static struct kunit_case rr2r_cases[] = {
	KUNIT_CASE_PARAM(rr2r_backchannel_brs, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_backchannel_cont, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_backchannel_simple, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_backchannel_server_none, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_bc1_cred_08_receives_posted,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_bc1_rdir_backward_call_v1, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_bc1_cred_04_backward_calls_within_credit,
			 rr2r_link_gen_params),
	{}
};

static struct kunit_suite rr2r_suite = {
	.name		= "rpcrdma2_backchannel",
	.suite_init	= rr2r_suite_init,
	.suite_exit	= rr2r_suite_exit,
	.test_cases	= rr2r_cases,
};

kunit_test_suite(rr2r_suite);
