// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rpcrdma2_link": what net/shared/link.c decides without a
 * device, on a link no endpoint backs.
 *
 *   - how a negotiation ended, as the client's connect worker waits for
 *     it: a connection lost before the end ends the wait as lost
 *     (V2-FRAME-19), the first end counts (V2-ERR-15), and a link
 *     in any other state is not lost by a failed Receive;
 *   - the receive entry gives every failed Receive to the role, in
 *     every state.
 *
 * The paths with a device (decoding, dispatch, the send pump, control
 * messages on the wire) run in the suites under real RPC and in
 * rpcrdma2_clnt_wire.
 */

#include <kunit/test.h>
#include <linux/socket.h>

#include "shared/link.h"

struct rr2g_role {
	struct rpcrdma2_link	link;
	struct sockaddr_storage	peer;
	u32			failed;		/* ->recv_failed calls */
};

static struct rr2g_role *rr2g_of(struct rpcrdma2_link *l)
{
	return container_of(l, struct rr2g_role, link);
}

static void rr2g_failed(struct rpcrdma2_link *l, struct rpcrdma2_recv *rv)
{
	rr2g_of(l)->failed++;
}

/* Only what a link without a device reaches; the rest would oops. */
static const struct rpcrdma2_link_ops rr2g_ops = {
	.recv_failed	= rr2g_failed,
	.vers_mismatch	= RPCRDMA2_DROP,
	.fail_room	= RPCRDMA2_FAIL_NR,
	.fail_post	= RPCRDMA2_FAIL_NR,
};

/* A link as rpcrdma2_link_open() leaves it, without its Send pool. */
static struct rr2g_role *rr2g_open(struct kunit *test)
{
	struct rr2g_role *g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, g);
	rpcrdma2_link_init(&g->link, &rr2g_ops, &g->peer);
	g->link.nego = RPCRDMA2_NEGO_MORE;
	g->link.state = RPCRDMA2_LINK_NEGOTIATING;
	return g;
}

/* A Receive of @g's endpoint completing with @status. */
static void rr2g_complete(struct rr2g_role *g, enum ib_wc_status status)
{
	struct rpcrdma2_recv rv = {
		.ep	= &g->link.ep,
		.status	= status,
	};

	rpcrdma2_link_recv_done(&rv);
}

/* The negotiation's end as the waiting half sees it, or -ETIMEDOUT. */
static int rr2g_wait(struct rr2g_role *g)
{
	enum rpcrdma2_nego n;
	int ret;

	ret = rpcrdma2_link_wait_negotiated(&g->link, 1, &n);
	return ret ?: n;
}

/*
 * V2-FRAME-19: the connection dies while the client waits for the
 * server's first message.  The engine ends the wait (the completion is
 * done, with no timeout needed), as lost, and the role hears of the
 * failure.
 */
static void rr2g_v2_frame_19_lost_ends_wait(struct kunit *test)
{
	struct rr2g_role *g = rr2g_open(test);

	KUNIT_EXPECT_EQ(test, rr2g_wait(g), -ETIMEDOUT);
	KUNIT_EXPECT_FALSE(test, completion_done(&g->link.nego_done));

	rr2g_complete(g, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, g->failed, 1);
	KUNIT_EXPECT_TRUE(test, completion_done(&g->link.nego_done));
	KUNIT_EXPECT_TRUE(test, g->link.nego_lost);
	KUNIT_EXPECT_EQ(test, rr2g_wait(g), -ETIMEDOUT);
}

/*
 * V2-ERR-15: the first end counts.  An ERR_VERS naming no version we
 * speak stays what the connect worker reads, though another end is
 * reported after it and the connection is lost after the worker woke
 * (and took the completion's count).
 */
static void rr2g_v2_err_15_first_end_counts(struct kunit *test)
{
	struct rr2g_role *g = rr2g_open(test);

	rpcrdma2_link_negotiated(&g->link, RPCRDMA2_NEGO_NO_VERS);
	rpcrdma2_link_negotiated(&g->link, RPCRDMA2_NEGO_DONE);
	KUNIT_EXPECT_EQ(test, rr2g_wait(g), RPCRDMA2_NEGO_NO_VERS);
	KUNIT_EXPECT_FALSE(test, completion_done(&g->link.nego_done));

	rr2g_complete(g, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, g->failed, 1);
	KUNIT_EXPECT_FALSE(test, g->link.nego_lost);
	KUNIT_EXPECT_EQ(test, rr2g_wait(g), RPCRDMA2_NEGO_NO_VERS);
}

/*
 * A link past its negotiation (up, draining) or never opened (down) is
 * not "lost during negotiation" when a Receive fails; the role hears of
 * every failed Receive.
 */
static void rr2g_failed_recv_each_state(struct kunit *test)
{
	static const enum rpcrdma2_link_state states[] = {
		RPCRDMA2_LINK_UP, RPCRDMA2_LINK_DRAINING, RPCRDMA2_LINK_DOWN,
	};
	struct rr2g_role *g;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(states); i++) {
		g = rr2g_open(test);
		g->link.state = states[i];
		rr2g_complete(g, IB_WC_GENERAL_ERR);
		KUNIT_EXPECT_EQ(test, g->failed, 1);
		KUNIT_EXPECT_FALSE(test, g->link.nego_lost);
		KUNIT_EXPECT_EQ(test, g->link.nego, RPCRDMA2_NEGO_MORE);
	}
	/* settled by a half without a message: up */
	g = rr2g_open(test);
	g->link.conn.vers = RPCRDMA2_VERS_1;
	rpcrdma2_link_settled(&g->link);
	KUNIT_EXPECT_STREQ(test, rpcrdma2_link_state_name(&g->link), "up");
	rpcrdma2_link_drain(&g->link);
	KUNIT_EXPECT_STREQ(test, rpcrdma2_link_state_name(&g->link),
			   "draining");
}

static struct kunit_case rr2g_cases[] = {
	KUNIT_CASE(rr2g_v2_frame_19_lost_ends_wait),
	KUNIT_CASE(rr2g_v2_err_15_first_end_counts),
	KUNIT_CASE(rr2g_failed_recv_each_state),
	{}
};

static struct kunit_suite rr2g_suite = {
	.name		= "rpcrdma2_link",
	.test_cases	= rr2g_cases,
};

kunit_test_suite(rr2g_suite);
