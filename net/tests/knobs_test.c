// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rpcrdma2_knobs": the sysctls of both halves
 * (/proc/sys/sunrpc, /proc/sys/sunrpc/svc_rdma) apply to new
 * connections only; a port going down parks the server's cm_ids; the
 * connections per version add up.
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

static void rr2r_port_up(void *data)
{
	rr2s_test_set_port_down(false);
}

/* Wait up to 10 s for @n parked cm_ids. */
static bool rr2r_wait_parked(u32 n)
{
	int i;

	for (i = 0; i < 200 && rr2s_parked_count() != n; i++)
		msleep(50);
	return rr2s_parked_count() == n;
}

/* Wait up to 10 s for @xprt to see its connection go. */
static bool rr2r_wait_disconnected(struct rpc_xprt *xprt)
{
	int i;

	for (i = 0; i < 200 && xprt_connected(xprt); i++)
		msleep(50);
	return !xprt_connected(xprt);
}

/*
 * A connection the server closes while its port is down sends no DREQ,
 * which on 6.12 rxe would leave the device's GSI QP in error for good
 * (the fault soak's link flap): its QP goes to the error state, its
 * cm_id is parked, and the client hears nothing yet.  Once the port is
 * up again the cm_id is destroyed, the DREQ goes out, the client sees
 * the disconnect and reconnects.  "Down" is a test hook here: the
 * device's port state is what the module reads otherwise.  On iWARP
 * (siw) nothing is parked: its disconnect is the TCP stream's.
 */
static void rr2r_svc_close_port_down_parks(struct kunit *test)
{
	struct page **pages = rr2r_pages(test);
	struct rpc_xprt *xprt;
	struct rpc_clnt *clnt;
	struct rr2s_conn *c;
	struct rr2c *r;

	clnt = rr2r_start(test, RPCRDMA2_VERS_2, RPCRDMA2_VERS_2, &xprt);
	r = rr2c(xprt);
	c = rr2r_svc_conn_from(test, (struct sockaddr *)
			       &r->id->route.addr.src_addr);
	KUNIT_ASSERT_EQ(test, rr2s_parked_count(), 0);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, rr2r_port_up,
							   NULL));
	rr2s_test_set_port_down(true);
	svc_xprt_deferred_close(&c->b.xprt);	/* @c is gone after this */
	if (rr2r_link_of(test) == RPCRDMA2_TEST_SIW) {
		/* iWARP: no MAD, the disconnect is TCP's and goes at once */
		KUNIT_EXPECT_TRUE(test, rr2r_wait_disconnected(xprt));
		KUNIT_EXPECT_EQ(test, rr2s_parked_count(), 0);
		rr2r_roundtrip(test, clnt, pages, 4096);
		return;
	}
	KUNIT_EXPECT_TRUE(test, rr2r_wait_parked(1));
	msleep(1000);
	KUNIT_EXPECT_EQ(test, rr2s_parked_count(), 1);
	KUNIT_EXPECT_TRUE(test, xprt_connected(xprt));	/* no DREQ came */

	rr2s_test_set_port_down(false);
	KUNIT_EXPECT_TRUE(test, rr2r_wait_parked(0));
	KUNIT_EXPECT_TRUE(test, rr2r_wait_disconnected(xprt));
	rr2r_roundtrip(test, clnt, pages, 4096);
	KUNIT_EXPECT_GE(test, xprt->stat.connect_count, 2);
}

/*
 * max_requests and max_req_size: out-of-range writes are refused and
 * change nothing; a change applies to the next connection, whose
 * CONNPROP grant (V2-CRED-02), Receive count (V2-CRED-07), RBSIZ
 * (V2-INLINE-07) and RFC 8797 Receive size (CMP-CMPD-02) follow it,
 * while a connection made before keeps what it had (CMP-CMPD-04).
 */
static void rr2r_svc_knobs_apply_to_new_connections(struct kunit *test)
{
	static const char * const refused[][2] = {
		{ "max_requests", "3" },
		{ "max_requests", "16385" },
		{ "max_requests", "-1" },
		{ "max_req_size", "4095" },
		{ "max_req_size", "65537" },
		{ "max_outbound_read_requests", "0" },
		{ "max_outbound_read_requests", "256" },
	};
	struct rpcrdma2_test_conn *old, *raw;
	struct rr2s_conn *c;
	struct rpcrdma2_hdr h;
	u32 i;

	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, rr2r_knobs_reset, NULL));
	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "max_requests"),
			RR2S_CREDITS);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "max_req_size"),
			RPCRDMA2_BUF_SIZE_DEF);
	KUNIT_EXPECT_EQ(test,
			rr2r_sysctl_read(test, "max_outbound_read_requests"),
			RR2S_ORD_DEFAULT);

	old = rr2r_raw(test);
	rr2r_raw_settle_v2(test, old, RDMA2_RVRSDIR_SIMPLE, &h);
	KUNIT_EXPECT_EQ(test, rpcrdma2_credit_in(RPCRDMA2_VERS_2, h.credit),
			RR2S_CREDITS_INIT);
	KUNIT_EXPECT_EQ(test, old->client.peer_pdata.recv_size,
			RPCRDMA2_BUF_SIZE_DEF);

	KUNIT_EXPECT_EQ(test, 0, rr2r_sysctl_write(test, "max_requests", "16"));
	KUNIT_EXPECT_EQ(test, 0,
			rr2r_sysctl_write(test, "max_req_size", "16384"));
	KUNIT_EXPECT_EQ(test, 0,
			rr2r_sysctl_write(test, "max_outbound_read_requests",
					  "1"));
	for (i = 0; i < ARRAY_SIZE(refused); i++)
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    rr2r_sysctl_write(test, refused[i][0],
						      refused[i][1]),
				    "%s=%s", refused[i][0], refused[i][1]);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "max_requests"), 16);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "max_req_size"), 16384);
	KUNIT_EXPECT_EQ(test,
			rr2r_sysctl_read(test, "max_outbound_read_requests"),
			1);
	/* the connection made before keeps its grant */
	KUNIT_EXPECT_EQ(test, rr2r_null_grant(test, old, 0xd1),
			RR2S_CREDITS_INIT);
	c = rr2r_svc_conn(test, old);
	KUNIT_EXPECT_EQ(test, c->max_grant, RR2S_CREDITS);
	KUNIT_EXPECT_EQ(test, c->link.ep.attr.recv_size, RPCRDMA2_BUF_SIZE_DEF);

	raw = rr2r_raw(test);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	KUNIT_EXPECT_EQ(test, rpcrdma2_credit_in(RPCRDMA2_VERS_2, h.credit),
			16);
	KUNIT_EXPECT_EQ(test, h.props.rbsiz, 16384);
	KUNIT_EXPECT_TRUE(test, raw->client.peer_pdata_found);
	KUNIT_EXPECT_EQ(test, raw->client.peer_pdata.recv_size, 16384);
	KUNIT_EXPECT_EQ(test, rr2r_null_grant(test, raw, 0xd2), 16);
	c = rr2r_svc_conn(test, raw);
	KUNIT_EXPECT_EQ(test, c->max_grant, 16);
	KUNIT_EXPECT_EQ(test, READ_ONCE(c->grant), 16);
	KUNIT_EXPECT_EQ(test, c->link.ep.attr.nr_recv,
			16 + RR2S_BC_SLOTS + RPCRDMA2_RECV_EXTRA);
	KUNIT_EXPECT_EQ(test, c->link.ep.attr.recv_size, 16384);
	KUNIT_EXPECT_LE(test, c->ord, 1);
}

/* What a client connection uses, and what the server sees of it. */
static void rr2r_expect_clnt_conn(struct kunit *test, struct rpc_clnt *clnt,
				  u32 slots, u32 credits, u32 rsize, u32 ssize)
{
	struct rr2c *r = rr2c(rr2r_xprt(clnt));
	struct rr2s_conn *c;

	KUNIT_ASSERT_NOT_NULL(test, r->id);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_version(&r->xprt),
			RPCRDMA2_VERS_2);
	KUNIT_EXPECT_EQ(test, r->nr_slots, slots);
	KUNIT_EXPECT_EQ(test, r->xprt.max_reqs, slots);
	/* V2-CRED-01: a Receive per credit, plus the extra ones */
	KUNIT_EXPECT_EQ(test, r->credits, credits);
	KUNIT_EXPECT_EQ(test, r->link.ep.attr.nr_recv,
			credits + RR2C_BC_SLOTS + RPCRDMA2_RECV_EXTRA);
	/*
	 * V2-CRED-02: the CONNPROP grants the Receives the connection
	 * starts with and asks for the credits
	 */
	KUNIT_EXPECT_EQ(test, r->link.local.credits,
			rpcrdma2_credit_word(min_t(u32, credits,
						   RR2C_RECV_INIT) +
					     RR2C_BC_SLOTS, credits));
	/* the server grants 32 at first: the client uses no more than asked */
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_grant(&r->xprt),
			min_t(u32, credits, RR2S_CREDITS_INIT));
	/* V2-CRED-01: a Receive per credit granted, not per credit asked */
	KUNIT_EXPECT_TRUE_MSG(test,
			      rr2r_posted_settles(&r->link.ep,
						  min_t(u32, credits,
							RR2S_CREDITS_INIT) +
						  RR2C_BC_SLOTS +
						  RPCRDMA2_RECV_EXTRA),
			      "%d Receives posted",
			      atomic_read(&r->link.ep.recvs_posted));
	KUNIT_EXPECT_EQ(test, r->link.ep.attr.recv_size, rsize);
	KUNIT_EXPECT_EQ(test, r->link.ep.attr.send_size, ssize);
	/*
	 * V2-INLINE-08: the server's Send size and Receive size are
	 * max_req_size
	 */
	KUNIT_EXPECT_EQ(test, r->link.conn.recv_inline, min_t(u32, rsize, RPCRDMA2_BUF_SIZE_DEF));
	KUNIT_EXPECT_EQ(test, r->link.conn.send_inline, min_t(u32, ssize, RPCRDMA2_BUF_SIZE_DEF));

	/*
	 * CMP-CMPD-11, CMP-CMPD-12 and V2-INLINE-06, V2-INLINE-07, as the
	 * server received them
	 */
	c = rr2r_svc_conn_from(test, (struct sockaddr *)
			       &r->id->route.addr.src_addr);
	KUNIT_EXPECT_EQ(test, c->link.conn.peer_pdata.recv_size, rsize);
	KUNIT_EXPECT_EQ(test, c->link.conn.peer_pdata.send_size, ssize);
	KUNIT_EXPECT_EQ(test, c->link.conn.peer_props.rbsiz, rsize);
	KUNIT_EXPECT_EQ(test, c->link.conn.peer_props.sbsiz, ssize);
	KUNIT_EXPECT_EQ(test, c->link.conn.send_inline, min_t(u32, rsize, RPCRDMA2_BUF_SIZE_DEF));
}

/* The client's slots and inline thresholds, as from /proc/sys/sunrpc. */
static void rr2r_clnt_knobs_set(struct kunit *test, const char *slots,
				const char *read, const char *write)
{
	KUNIT_EXPECT_EQ(test, 0, rr2r_sysctl_write(test,
						   "rdma_slot_table_entries",
						   slots));
	KUNIT_EXPECT_EQ(test, 0, rr2r_sysctl_write(test, "rdma_max_inline_read",
						   read));
	KUNIT_EXPECT_EQ(test, 0, rr2r_sysctl_write(test,
						   "rdma_max_inline_write",
						   write));
}

/*
 * rdma_slot_table_entries, rdma_max_inline_read, rdma_max_inline_write:
 * out-of-range writes are refused and change nothing.  A change applies
 * to the next connection: the credits it asks for and takes
 * (V2-CRED-01), its Receives, and the sizes of its Receive and Send
 * buffers, which its RFC 8797 record (CMP-CMPD-11) and CONNPROP
 * (V2-INLINE-06, V2-INLINE-07) tell the server, who keeps its Sends
 * within them (V2-INLINE-08).  The slot count is the transport's, from
 * its creation, and so are the credits every connection of it asks for,
 * as the stock client's (128 by default).  A connection made before
 * keeps what it had (CMP-CMPD-04); when it reconnects, it takes the new
 * sizes (CMP-CMPD-05) and keeps its credits.  The smallest values (4 slots,
 * 1024 octets) carry
 * every size too.
 */
static void rr2r_clnt_knobs_apply_to_new_connections(struct kunit *test)
{
	/*
	 * asserts CMP-CMPD-05: a reconnect takes the new sizes; V2-INLINE-08
	 * (rr2r_expect_clnt_conn)
	 */
	static const char * const refused[][2] = {
		{ "rdma_slot_table_entries", "3" },
		{ "rdma_slot_table_entries", "16385" },
		{ "rdma_max_inline_read", "1023" },
		{ "rdma_max_inline_read", "65537" },
		{ "rdma_max_inline_write", "-1" },
		{ "rdma_max_inline_write", "65537" },
	};
	static const u32 sizes[] = { 0, 1000, 2100, 3500, 9000, 70000 };
	struct rpc_clnt *old, *new;
	struct page **pages;
	u32 i;

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_clnt_knobs_reset,
							   NULL));
	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "rdma_slot_table_entries"),
			128);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "rdma_max_inline_read"),
			RPCRDMA2_BUF_SIZE_DEF);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "rdma_max_inline_write"),
			RPCRDMA2_BUF_SIZE_DEF);

	pages = rr2r_pages(test);
	old = rr2r_clnt(test);
	rr2r_roundtrip(test, old, pages, 1000);
	rr2r_expect_clnt_conn(test, old, RR2C_SLOTS, RR2C_SLOTS,
			      RPCRDMA2_BUF_SIZE_DEF, RPCRDMA2_BUF_SIZE_DEF);

	/*
	 * the write threshold is rounded down to what the RFC 8797 record
	 * can say (CMP-CMPD-11)
	 */
	rr2r_clnt_knobs_set(test, "16", "2048", "3100");
	for (i = 0; i < ARRAY_SIZE(refused); i++)
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    rr2r_sysctl_write(test, refused[i][0],
						      refused[i][1]),
				    "%s=%s", refused[i][0], refused[i][1]);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "rdma_slot_table_entries"),
			16);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "rdma_max_inline_read"),
			2048);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "rdma_max_inline_write"),
			3100);

	/* the live connection keeps what it had, and works */
	rr2r_expect_clnt_conn(test, old, RR2C_SLOTS, RR2C_SLOTS,
			      RPCRDMA2_BUF_SIZE_DEF, RPCRDMA2_BUF_SIZE_DEF);
	rr2r_roundtrip(test, old, pages, 9000);

	/* a new transport: its slots, credits and sizes follow the knobs */
	new = rr2r_clnt(test);
	rr2r_expect_clnt_conn(test, new, 16, 16, 2048, 3072);
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		rr2r_roundtrip(test, new, pages, sizes[i]);

	/*
	 * the old transport's next connection takes the sizes; its slots
	 * and the credits it asks for stay what its mount made them
	 */
	xprt_force_disconnect(rr2r_xprt(old));
	rr2r_roundtrip(test, old, pages, 1000);
	KUNIT_EXPECT_EQ(test, rr2r_xprt(old)->stat.connect_count, 2);
	rr2r_expect_clnt_conn(test, old, RR2C_SLOTS, RR2C_SLOTS, 2048, 3072);
	rr2r_expect_pool_full(test, rr2r_xprt(new));

	/*
	 * more slots than the default: a new transport asks for them all,
	 * an older one for its own
	 */
	KUNIT_EXPECT_EQ(test, 0, rr2r_sysctl_write(test,
						   "rdma_slot_table_entries",
						   "200"));
	new = rr2r_clnt(test);
	rr2r_expect_clnt_conn(test, new, 200, 200, 2048, 3072);
	rr2r_roundtrip(test, new, pages, 9000);
	/*
	 * V2-CRED-01: a larger grant brings its Receives before the window
	 * opens; a smaller one later keeps them posted
	 */
	rpcrdma2_clnt_test_set_grant(rr2r_xprt(new), 150);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_grant(rr2r_xprt(new)), 150);
	KUNIT_EXPECT_TRUE_MSG(test,
			      rr2r_posted_settles(&rr2c(rr2r_xprt(new))->link.ep,
						  150 + RR2C_BC_SLOTS +
						  RPCRDMA2_RECV_EXTRA),
			      "%d Receives posted",
			      atomic_read(&rr2c(rr2r_xprt(new))->link.ep.recvs_posted));
	rr2r_roundtrip(test, new, pages, 9000);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_grant(rr2r_xprt(new)),
			RR2S_CREDITS_INIT);
	KUNIT_EXPECT_TRUE(test,
			  rr2r_posted_settles(&rr2c(rr2r_xprt(new))->link.ep,
					      150 + RR2C_BC_SLOTS +
					      RPCRDMA2_RECV_EXTRA));
	xprt_force_disconnect(rr2r_xprt(old));
	rr2r_roundtrip(test, old, pages, 1000);
	KUNIT_EXPECT_EQ(test, rr2r_xprt(old)->stat.connect_count, 3);
	rr2r_expect_clnt_conn(test, old, RR2C_SLOTS, RR2C_SLOTS, 2048, 3072);

	/* the smallest values work too: 4 slots, 1024-octet messages */
	rr2r_clnt_knobs_set(test, "4", "1024", "1024");
	new = rr2r_clnt(test);
	rr2r_expect_clnt_conn(test, new, 4, 4, 1024, 1024);
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		rr2r_roundtrip(test, new, pages, sizes[i]);
	rr2r_expect_pool_full(test, rr2r_xprt(new));
}

/*
 * A mixed fleet on one server: a Version 2 client and a Version 1
 * client connected at once, then the Version 1 client reconnecting.
 * Every connection accepted settles one version and is counted under
 * it alone: the per-version counts add up to the connections accepted,
 * the Version 2 client's connection is under rpcrdma2_conns_v2 only,
 * and the other client's reconnect moves neither it nor the Version 2
 * client's connect count.
 */
static void rr2r_svc_conns_per_version_add_up(struct kunit *test)
{
	unsigned long a[RR2R_NR_C], b[RR2R_NR_C];
	struct rpc_clnt *v2, *v1;
	struct page **pages;

	pages = rr2r_pages(test);
	rr2r_counters_read(test, a);
	v2 = rr2r_start(test, RPCRDMA2_VERS_2, RPCRDMA2_VERS_2, NULL);
	rr2r_roundtrip(test, v2, pages, 1000);
	rr2r_counters_read(test, b);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_ACCEPTED] - a[RR2R_C_ACCEPTED], 1);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_V2] - a[RR2R_C_V2], 1);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_V1] - a[RR2R_C_V1], 0);

	v1 = rr2r_start(test, RPCRDMA2_VERS_1, RPCRDMA2_VERS_2, NULL);
	rr2r_roundtrip(test, v1, pages, 1000);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_version(rr2r_xprt(v1)),
			RPCRDMA2_VERS_1);
	xprt_force_disconnect(rr2r_xprt(v1));
	rr2r_roundtrip(test, v1, pages, 1000);
	rr2r_roundtrip(test, v2, pages, 1000);
	KUNIT_EXPECT_EQ(test, rr2r_xprt(v1)->stat.connect_count, 2);
	KUNIT_EXPECT_EQ(test, rr2r_xprt(v2)->stat.connect_count, 1);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_version(rr2r_xprt(v2)),
			RPCRDMA2_VERS_2);

	rr2r_counters_read(test, b);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_ACCEPTED] - a[RR2R_C_ACCEPTED], 3);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_V2] - a[RR2R_C_V2], 1);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_V1] - a[RR2R_C_V1], 2);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_V1] - a[RR2R_C_V1] +
			b[RR2R_C_V2] - a[RR2R_C_V2],
			b[RR2R_C_ACCEPTED] - a[RR2R_C_ACCEPTED]);
}

static struct kunit_case rr2r_cases[] = {
	KUNIT_CASE_PARAM(rr2r_svc_close_port_down_parks, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_knobs_apply_to_new_connections,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_conns_per_version_add_up,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_clnt_knobs_apply_to_new_connections,
			 rr2r_link_gen_params),
	{}
};

static struct kunit_suite rr2r_suite = {
	.name		= "rpcrdma2_knobs",
	.suite_init	= rr2r_suite_init,
	.suite_exit	= rr2r_suite_exit,
	.test_cases	= rr2r_cases,
};

kunit_test_suite(rr2r_suite);
