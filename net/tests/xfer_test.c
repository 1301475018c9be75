// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rpcrdma2_xfer": the pure parts of net/shared/xfer.c.
 *
 *   - credit words in both versions and the zero grant (V2-CRED-02,
 *   V2-CRED-03);
 *   - the continuation window: how far a sender may go, which grants
 *     are acknowledgments, and that sender and receiver agree on the
 *     number of acknowledgments for every sequence length
 *     (V2-CRED-02, V2-CRED-04, V2-CRED-10, V2-CONT-03);
 *   - cutting a message into Sends and putting it back together with
 *     the codec and the reassembly rules (V2-CONT-01, V2-CONT-02, V2-CONT-03,
 *     V2-INLINE-08);
 *   - and net/shared/log.c: one kernel log line per peer and outcome.
 */

#include <kunit/test.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/slab.h>

#include "shared/cont.h"
#include "shared/log.h"
#include "shared/xfer.h"
#include "tests/hooks.h"

static void rr2x_credit_words(struct kunit *test)
{
	/* V2-CRED-02: grant in the low half, the maximum in the high half */
	KUNIT_EXPECT_EQ(test, rpcrdma2_credit_out(RPCRDMA2_VERS_2, 32),
			(32u << 16) | 32);
	KUNIT_EXPECT_EQ(test, rpcrdma2_credit_in(RPCRDMA2_VERS_2,
						 (64u << 16) | 32), 32);
	/* Version 1: the whole word */
	KUNIT_EXPECT_EQ(test, rpcrdma2_credit_out(RPCRDMA2_VERS_1, 128), 128);
	KUNIT_EXPECT_EQ(test, rpcrdma2_credit_in(RPCRDMA2_VERS_1, 128), 128);
	/* V2-CRED-03: never grant 0; a zero grant reads as "keep yours" */
	KUNIT_EXPECT_EQ(test, rpcrdma2_credit_out(RPCRDMA2_VERS_2, 0) & 0xffff,
			1);
	KUNIT_EXPECT_EQ(test, rpcrdma2_credit_in(RPCRDMA2_VERS_2, 5u << 16), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_credit_in(RPCRDMA2_VERS_1, 0), 0);
}

/*
 * V2-CRED-04, V2-CRED-10: the sender stops at the window and goes on per ack.
 */
static void rr2x_window_blocks_until_ack(struct kunit *test)
{
	/* asserts V2-CRED-04: no Send beyond what the grants allow */
	struct rpcrdma2_seq s = { };
	const u32 w = RPCRDMA2_SEQ_WINDOW;

	rpcrdma2_seq_start(&s, 3 * w + 5);
	KUNIT_EXPECT_TRUE(test, rpcrdma2_seq_may_send(&s, 1));
	KUNIT_EXPECT_TRUE(test, rpcrdma2_seq_may_send(&s, w + 1));
	KUNIT_EXPECT_FALSE(test, rpcrdma2_seq_may_send(&s, w + 2));
	KUNIT_EXPECT_TRUE(test, rpcrdma2_seq_grant(&s));
	KUNIT_EXPECT_TRUE(test, rpcrdma2_seq_may_send(&s, 2 * w + 1));
	KUNIT_EXPECT_FALSE(test, rpcrdma2_seq_may_send(&s, 2 * w + 2));
	KUNIT_EXPECT_TRUE(test, rpcrdma2_seq_grant(&s));
	KUNIT_EXPECT_TRUE(test, rpcrdma2_seq_grant(&s));
	KUNIT_EXPECT_TRUE(test, rpcrdma2_seq_may_send(&s, 3 * w + 5));
	/* owed nothing more: a further grant is only a new credit value */
	KUNIT_EXPECT_FALSE(test, rpcrdma2_seq_grant(&s));
}

/* A late ack for an earlier message does not open the current window. */
static void rr2x_late_ack_counts_for_earlier(struct kunit *test)
{
	struct rpcrdma2_seq s = { };
	const u32 w = RPCRDMA2_SEQ_WINDOW;

	rpcrdma2_seq_start(&s, w + 3);		/* owes one ack, never awaited */
	rpcrdma2_seq_start(&s, 2 * w + 3);	/* owes two more */
	KUNIT_EXPECT_EQ(test, s.acks_owed, 3);
	KUNIT_EXPECT_TRUE(test, rpcrdma2_seq_grant(&s));	/* the late one */
	KUNIT_EXPECT_FALSE(test, rpcrdma2_seq_may_send(&s, w + 2));
	KUNIT_EXPECT_TRUE(test, rpcrdma2_seq_grant(&s));
	KUNIT_EXPECT_TRUE(test, rpcrdma2_seq_may_send(&s, w + 2));
}

/* Sender and receiver agree on the acks of every sequence length. */
static void rr2x_ack_count_agrees(struct kunit *test)
{
	u32 n, k, sent;

	for (n = 1; n <= 10 * RPCRDMA2_SEQ_WINDOW + 3; n++) {
		struct rpcrdma2_seq s = { };

		rpcrdma2_seq_start(&s, n);
		for (sent = 0, k = 1; k <= n; k++)
			sent += rpcrdma2_seq_ack_due(k, k < n);
		KUNIT_EXPECT_EQ_MSG(test, sent, s.acks_owed, "n=%u", n);
		/* and the sender never needs an ack that will not come */
		for (k = 1; k <= n; k++) {
			if (rpcrdma2_seq_may_send(&s, k))
				continue;
			KUNIT_ASSERT_TRUE_MSG(test, rpcrdma2_seq_grant(&s),
					      "n=%u stuck at %u", n, k);
			k--;
		}
	}
}

/* Cut @len octets, decode every Send and reassemble; compare. */
static void rr2x_cut_and_join(struct kunit *test, u32 vers, u32 len,
			      u32 inline_size, u32 want_sends)
{
	static const struct rpcrdma2_limits lim = { };
	struct rpcrdma2_reasm r;
	struct rpcrdma2_hdr h;
	struct xdr_buf xb = { };
	u8 *src, *dst, *send;
	struct rpcrdma2_tx tx = {
		.vers = vers, .xid = 0xabcd, .credit = 1,
		.inline_size = inline_size, .payload = &xb,
	};
	u32 i, n = 0, slen, got = 0;
	int more;

	src = kunit_kmalloc(test, len + 1, GFP_KERNEL);
	dst = kunit_kmalloc(test, len + 1, GFP_KERNEL);
	send = kunit_kmalloc(test, inline_size, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, src && dst && send);
	for (i = 0; i < len; i++)
		src[i] = (u8)(i * 13 + 5);
	xdr_buf_init(&xb, src, len);
	xb.len = len;
	rpcrdma2_reasm_init(&r, len + 1);

	KUNIT_ASSERT_EQ(test, rpcrdma2_tx_nmsgs(&tx), want_sends);
	do {
		more = rpcrdma2_tx_next(&tx, send, &slen);
		KUNIT_ASSERT_GE(test, more, 0);
		KUNIT_ASSERT_LE(test, slen, inline_size);	/* V2-INLINE-08 */
		KUNIT_ASSERT_EQ(test, 0, rpcrdma2_decode_hdr(send, slen, vers,
							     &lim, &h));
		KUNIT_EXPECT_EQ(test, !!(h.flags & RDMA2_F_MORE), more);
		memcpy(dst + got, send + h.hdrlen, slen - h.hdrlen);
		got += slen - h.hdrlen;
		KUNIT_EXPECT_EQ(test, rpcrdma2_reasm_add(&r, &h, slen - h.hdrlen),
				more ? RPCRDMA2_REASM_MORE : RPCRDMA2_REASM_DONE);
		n++;
	} while (more);
	KUNIT_EXPECT_EQ(test, n, want_sends);
	KUNIT_EXPECT_EQ(test, got, len);
	KUNIT_EXPECT_EQ(test, r.len, len);
	KUNIT_EXPECT_EQ(test, memcmp(src, dst, len), 0);
}

/*
 * V2-CONT-01, V2-CONT-02, V2-CONT-03: inline when it fits, a sequence when it
 * does not.
 */
static void rr2x_v2_cut_and_join(struct kunit *test)
{
	/*
	 * asserts V2-CONT-02, V2-INLINE-08 (rr2x_cut_and_join): pieces join in
	 * stream order, none over the threshold;
	 * V2-FRAME-02: each Send decodes as a Version 2 header
	 */
	rr2x_cut_and_join(test, RPCRDMA2_VERS_2, 0, 4096, 1);
	rr2x_cut_and_join(test, RPCRDMA2_VERS_2, 4096 - 36, 4096, 1);
	rr2x_cut_and_join(test, RPCRDMA2_VERS_2, 4096 - 35, 4096, 2);
	rr2x_cut_and_join(test, RPCRDMA2_VERS_2, 100000, 4096, 25);
	rr2x_cut_and_join(test, RPCRDMA2_VERS_2, 5000, 1024, 6);
}

/*
 * V2-CHUNK-10: octets moved into Write chunks (with their padding) are
 * skipped by the Sends and by a Reply chunk alike; one map serves both.
 */
static void rr2x_holes_map(struct kunit *test)
{
	/*
	 * asserts V2-CHUNK-10: a reduced item's padding leaves the Payload
	 * stream too
	 */
	static const struct rpcrdma2_hole holes[] = {
		{ .off = 4, .len = 8 }, { .off = 20, .len = 4 },
	};
	u32 run;

	KUNIT_EXPECT_EQ(test, rpcrdma2_holes_map(holes, 2, 32, 0, &run), 0);
	KUNIT_EXPECT_EQ(test, run, 4);
	KUNIT_EXPECT_EQ(test, rpcrdma2_holes_map(holes, 2, 32, 4, &run), 12);
	KUNIT_EXPECT_EQ(test, run, 8);
	KUNIT_EXPECT_EQ(test, rpcrdma2_holes_map(holes, 2, 32, 11, &run), 19);
	KUNIT_EXPECT_EQ(test, run, 1);
	KUNIT_EXPECT_EQ(test, rpcrdma2_holes_map(holes, 2, 32, 12, &run), 24);
	KUNIT_EXPECT_EQ(test, run, 8);
	KUNIT_EXPECT_EQ(test, rpcrdma2_holes_map(holes, 2, 32, 20, &run), 32);
	KUNIT_EXPECT_EQ(test, run, 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_holes_map(NULL, 0, 32, 5, &run), 5);
	KUNIT_EXPECT_EQ(test, run, 27);
}

/* Version 1 has no continuation: too big is refused, never cut. */
static void rr2x_v1_inline_only(struct kunit *test)
{
	struct xdr_buf xb = { };
	static u8 buf[4096];
	struct rpcrdma2_tx tx = {
		.vers = RPCRDMA2_VERS_1, .inline_size = 1024, .payload = &xb,
	};
	u32 len;

	rr2x_cut_and_join(test, RPCRDMA2_VERS_1, 1024 - 28, 1024, 1);
	xdr_buf_init(&xb, buf, sizeof(buf));
	xb.len = 1024 - 27;
	KUNIT_EXPECT_EQ(test, rpcrdma2_tx_nmsgs(&tx), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_tx_next(&tx, buf, &len), -EMSGSIZE);
}

/*
 * V2-RDIR-12, V2-RDIR-14: a reverse-direction message to a peer below
 * BRS CONT goes in one Send or not at all; rpcrdma2_rdir_single() says
 * which peers those are.
 */
static void rr2x_rdir_single(struct kunit *test)
{
	struct rpcrdma2_conn *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct xdr_buf xb = { };
	static u8 buf[4096];
	struct rpcrdma2_tx tx = {
		.vers = RPCRDMA2_VERS_2, .flags = 0, .inline_size = 1024,
		.single = true, .payload = &xb,
	};
	static const bool single[] = {
		[RDMA2_RVRSDIR_NONE] = true, [RDMA2_RVRSDIR_SIMPLE] = true,
		[RDMA2_RVRSDIR_CONT] = false, [RDMA2_RVRSDIR_GENL] = false,
	};
	u32 len, i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->vers = RPCRDMA2_VERS_2;
	for (i = 0; i < ARRAY_SIZE(single); i++) {
		c->peer_props.brs = i;
		KUNIT_EXPECT_EQ(test, rpcrdma2_rdir_single(c), single[i]);
	}
	xdr_buf_init(&xb, buf, sizeof(buf));
	xb.len = 1024 - 36;		/* the Version 2 header is 36 octets */
	KUNIT_EXPECT_EQ(test, rpcrdma2_tx_nmsgs(&tx), 1);
	xb.len = 1024 - 35;
	KUNIT_EXPECT_EQ(test, rpcrdma2_tx_nmsgs(&tx), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_tx_next(&tx, buf, &len), -EMSGSIZE);
	tx.single = false;
	KUNIT_EXPECT_EQ(test, rpcrdma2_tx_nmsgs(&tx), 2);
}

static void rr2x_log_reset(void *data)
{
	rpcrdma2_log_test_reset();
}

/*
 * A line about a peer is printed once per outcome, whatever the port
 * and however often the same outcome comes back; a new outcome, the
 * other event or the other half prints again, and after the other
 * event the first one is reported again.
 */
static void rr2x_log_once_per_peer_and_outcome(struct kunit *test)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(0xc0000207),
				 .sin_port = htons(700) };
	struct sockaddr_in a2 = a, b = a;
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6 };
	struct sockaddr *sa = (struct sockaddr *)&a;
	const enum rpcrdma2_role srv = RPCRDMA2_SERVER;

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, rr2x_log_reset,
							   NULL));
	rpcrdma2_log_test_reset();
	a2.sin_port = htons(701);
	b.sin_addr.s_addr = htonl(0xc0000208);
	a6.sin6_addr.s6_addr[15] = 7;

	KUNIT_EXPECT_TRUE(test, rpcrdma2_log_peer(srv, sa,
						  RPCRDMA2_LOG_SETTLED, 2));
	KUNIT_EXPECT_FALSE(test, rpcrdma2_log_peer(srv, sa,
						   RPCRDMA2_LOG_SETTLED, 2));
	/* another connection from the same client: another port */
	KUNIT_EXPECT_FALSE(test, rpcrdma2_log_peer(srv, (struct sockaddr *)&a2,
						   RPCRDMA2_LOG_SETTLED, 2));
	/* another client, the other half, an IPv6 peer */
	KUNIT_EXPECT_TRUE(test, rpcrdma2_log_peer(srv, (struct sockaddr *)&b,
						  RPCRDMA2_LOG_SETTLED, 2));
	KUNIT_EXPECT_TRUE(test, rpcrdma2_log_peer(RPCRDMA2_CLIENT, sa,
						  RPCRDMA2_LOG_SETTLED, 2));
	KUNIT_EXPECT_TRUE(test, rpcrdma2_log_peer(srv, (struct sockaddr *)&a6,
						  RPCRDMA2_LOG_SETTLED, 2));
	/* a new outcome */
	KUNIT_EXPECT_TRUE(test, rpcrdma2_log_peer(srv, sa,
						  RPCRDMA2_LOG_SETTLED, 1));
	KUNIT_EXPECT_FALSE(test, rpcrdma2_log_peer(srv, sa,
						   RPCRDMA2_LOG_SETTLED, 1));
	/* a failure, once; then the next success is reported again */
	KUNIT_EXPECT_TRUE(test, rpcrdma2_log_peer(srv, sa,
						  RPCRDMA2_LOG_FAILED, ENOMEM));
	KUNIT_EXPECT_FALSE(test, rpcrdma2_log_peer(srv, (struct sockaddr *)&a2,
						   RPCRDMA2_LOG_FAILED, ENOMEM));
	KUNIT_EXPECT_TRUE(test, rpcrdma2_log_peer(srv, sa,
						  RPCRDMA2_LOG_SETTLED, 1));
	KUNIT_EXPECT_TRUE(test, rpcrdma2_log_peer(srv, sa,
						  RPCRDMA2_LOG_FAILED, ENOMEM));
}

static struct kunit_case rr2x_cases[] = {
	KUNIT_CASE(rr2x_credit_words),
	KUNIT_CASE(rr2x_window_blocks_until_ack),
	KUNIT_CASE(rr2x_late_ack_counts_for_earlier),
	KUNIT_CASE(rr2x_ack_count_agrees),
	KUNIT_CASE(rr2x_v2_cut_and_join),
	KUNIT_CASE(rr2x_v1_inline_only),
	KUNIT_CASE(rr2x_rdir_single),
	KUNIT_CASE(rr2x_holes_map),
	KUNIT_CASE(rr2x_log_once_per_peer_and_outcome),
	{}
};

static struct kunit_suite rr2x_suite = {
	.name		= "rpcrdma2_xfer",
	.test_cases	= rr2x_cases,
};

kunit_test_suite(rr2x_suite);
