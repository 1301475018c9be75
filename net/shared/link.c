// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-connection protocol engine (link.h), the same for both
 * halves:
 *
 * - rpcrdma2_link_recv_done(), the one receive entry: completion status,
 *   DMA sync, negotiation until the version is settled, decoding
 *   within the role's limits, the trace, the version and settled
 *   checks, rejection, window acknowledgments, and dispatch by
 *   message type to the role's callbacks;
 * - rpcrdma2_link_pump(), the one send pump: it cuts a message into
 *   Sends while the Send pool and the continuation window have room,
 *   keeps control messages out of an open sequence (V2-CONT-03), and
 *   says when the caller must wait for room (the client returns to
 *   sunrpc and is called again, the server sleeps).
 *
 * - the control messages a half sends on its own: a CONNPROP, the
 *   exchange's messages, credit grants and errors, posted from the
 *   pool's reserve (xfer.c), the connection closed when one cannot be
 *   posted;
 * - the connection's state, and how its negotiation ended, for a half
 *   that waits for it.
 *
 * The engine calls the role only through its rpcrdma2_link_ops.
 */

#include "shared/link.h"
#include <trace/events/rpcrdma2.h>

/**
 * __rpcrdma2_link_init - make a link ready for its first connection
 * @l: the link, zeroed by its owner
 * @ops: the role's callbacks
 * @peer: the peer's address, for traces; lives as long as @l
 * @tx_key: the lockdep class of its tx_lock (rpcrdma2_link_init())
 */
void __rpcrdma2_link_init(struct rpcrdma2_link *l,
			  const struct rpcrdma2_link_ops *ops,
			  const struct sockaddr_storage *peer,
			  struct lock_class_key *tx_key)
{
	l->ops = ops;
	l->peer = peer;
	spin_lock_init(&l->tx_lock);
	lockdep_set_class(&l->tx_lock, tx_key);
	init_completion(&l->nego_done);
}

/**
 * rpcrdma2_link_open - a new connection, before its first Receive
 * @l: the link, its endpoint made
 * @reasm_max: the largest message it reassembles (V2-SEC-17)
 *
 * Makes the Send pool on the endpoint (its posts fail at the role's
 * ->fail_post site too); the window and reassembly start empty.  The
 * half sets its offer (@l->local) and the negotiated state (@l->conn)
 * unsettled, and destroys the pool with the endpoint.  Returns 0 or
 * -errno.
 */
int rpcrdma2_link_open(struct rpcrdma2_link *l, u32 reasm_max)
{
	int ret;

	ret = rpcrdma2_pool_init(&l->pool, &l->ep);
	if (ret)
		return ret;
	l->pool.fail_post = l->ops->fail_post;
	memset(&l->seq, 0, sizeof(l->seq));
	rpcrdma2_reasm_init(&l->reasm, reasm_max);
	reinit_completion(&l->nego_done);
	l->nego = RPCRDMA2_NEGO_MORE;
	l->nego_lost = false;
	WRITE_ONCE(l->state, RPCRDMA2_LINK_NEGOTIATING);
	return 0;
}

/**
 * rpcrdma2_link_settled - the version is settled: RPCs flow
 * @l: the link, @l->conn.vers set
 *
 * The engine moves a link on itself when a message it took settled the
 * version; a half calls this when it settles one without a message (a
 * client offering Version 1 alone, RFC 8166).
 */
void rpcrdma2_link_settled(struct rpcrdma2_link *l)
{
	if (READ_ONCE(l->state) == RPCRDMA2_LINK_NEGOTIATING && l->conn.vers)
		/* conn before state: pairs with rpcrdma2_link_recv_done() */
		smp_store_release(&l->state, RPCRDMA2_LINK_UP);
}

/**
 * rpcrdma2_link_negotiated - the negotiation ended
 * @l: the link; from the CQ's work item
 * @n: how: RPCRDMA2_NEGO_DONE (settled, @l->conn.vers says on what),
 *	RPCRDMA2_NEGO_NO_VERS (the peer speaks no version we do) or
 *	RPCRDMA2_NEGO_FAIL
 *
 * Wakes a half waiting in rpcrdma2_link_wait_negotiated().  The first
 * end counts, until the link is opened again: a later message or the
 * connection's loss does not undo it.
 */
void rpcrdma2_link_negotiated(struct rpcrdma2_link *l, enum rpcrdma2_nego n)
{
	if (READ_ONCE(l->nego) != RPCRDMA2_NEGO_MORE)
		return;
	/* nego_lost before nego: pairs with the wait's acquire */
	smp_store_release(&l->nego, n);
	complete(&l->nego_done);
}

/*
 * A Receive failed before the negotiation ended: the connection is
 * gone, and with it the answer (V2-FRAME-19 for a client).
 */
static void rpcrdma2_link_lost(struct rpcrdma2_link *l)
{
	if (READ_ONCE(l->state) != RPCRDMA2_LINK_NEGOTIATING ||
	    READ_ONCE(l->nego) != RPCRDMA2_NEGO_MORE)
		return;
	l->nego_lost = true;
	rpcrdma2_link_negotiated(l, RPCRDMA2_NEGO_FAIL);
}

/**
 * rpcrdma2_link_wait_negotiated - wait for the negotiation's end
 * @l: the link, opened; its first message sent
 * @timeout: in jiffies
 * @n: how it ended: RPCRDMA2_NEGO_DONE, _NO_VERS or _FAIL
 *
 * Returns 0 and @n, or -ETIMEDOUT when nothing ended it in time or the
 * connection was lost first: the peer's answer never came.
 */
int rpcrdma2_link_wait_negotiated(struct rpcrdma2_link *l,
				  unsigned long timeout,
				  enum rpcrdma2_nego *n)
{
	enum rpcrdma2_nego end;

	wait_for_completion_timeout(&l->nego_done, timeout);
	/* nego_lost as it was when nego was written */
	end = smp_load_acquire(&l->nego);
	if (end == RPCRDMA2_NEGO_MORE || l->nego_lost)
		return -ETIMEDOUT;
	*n = end;
	return 0;
}

/**
 * rpcrdma2_link_drain - take nothing more from the peer
 * @l: the link; from the CQ's work item
 *
 * The connection is closing (a Call beyond the grant came, V2-CRED-04):
 * every Receive from now on is reposted unread.
 */
void rpcrdma2_link_drain(struct rpcrdma2_link *l)
{
	WRITE_ONCE(l->state, RPCRDMA2_LINK_DRAINING);
}

/**
 * rpcrdma2_link_down - the endpoint is gone
 * @l: the link; no completion runs any more
 */
void rpcrdma2_link_down(struct rpcrdma2_link *l)
{
	WRITE_ONCE(l->state, RPCRDMA2_LINK_DOWN);
}

/**
 * rpcrdma2_link_state_name - @l's state, for debugfs
 * @l: the link
 */
const char *rpcrdma2_link_state_name(const struct rpcrdma2_link *l)
{
	switch (READ_ONCE(l->state)) {
	case RPCRDMA2_LINK_NEGOTIATING:
		return "negotiating";
	case RPCRDMA2_LINK_UP:
		return "up";
	case RPCRDMA2_LINK_DRAINING:
		return "draining";
	default:
		return "down";
	}
}

/*
 * Until the version is settled every message goes to the half's
 * negotiation; true when the one that settled it is itself an RPC.
 */
static bool rpcrdma2_link_negotiate(struct rpcrdma2_link *l,
				    struct rpcrdma2_recv *rv)
{
	bool rpc = l->ops->negotiate(l, rv);

	rpcrdma2_link_settled(l);
	return rpc;
}

/*
 * A window acknowledgment (V2-CRED-08): the sender of a continued
 * message may go on.  The window is the send side's, so under tx_lock.
 */
static void rpcrdma2_link_ack(struct rpcrdma2_link *l)
{
	bool room;

	spin_lock(&l->tx_lock);
	room = rpcrdma2_seq_grant(&l->seq);
	spin_unlock(&l->tx_lock);
	if (room)
		l->ops->room(l);
}

/* Decode @rv within the role's limits and check it against the link. */
static int rpcrdma2_link_check(struct rpcrdma2_link *l,
			       struct rpcrdma2_recv *rv,
			       struct rpcrdma2_hdr *hdr)
{
	struct rpcrdma2_limits lim;
	int ret;

	l->ops->limits(l, &lim);
	lim.xchar = l->conn.xch.on;	/* else INVAL_HTYPE (XCH-XOP-11) */
	ret = rpcrdma2_decode_hdr(rv->buf, rv->len, l->conn.vers, &lim, hdr);
	if (!ret && l->ops->recheck)
		ret = l->ops->recheck(l, rv, hdr);
	trace_rpcrdma2_recv(l->peer, rv->len, ret, hdr);
	/* V2-FRAME-20 (server), V2-FRAME-24 (client) */
	if (!ret && hdr->vers != l->conn.vers)
		ret = l->ops->vers_mismatch;
	if (!ret)		/* V2-PROP-13: CONNPROP is once per connection */
		ret = rpcrdma2_nego_settled_check(&l->conn, hdr);
	return ret;
}

/**
 * rpcrdma2_link_recv_done - take one completed Receive
 * @rv: the Receive, flushed or not, of the endpoint a link embeds
 *
 * Both halves' struct rpcrdma2_ep_ops ->recv_done: the CQ's work item,
 * one Receive at a time.  Every Receive that completed is reposted here
 * unless the role's ->msg kept it; a failed one is the role's.
 */
void rpcrdma2_link_recv_done(struct rpcrdma2_recv *rv)
{
	struct rpcrdma2_link *l = container_of(rv->ep, struct rpcrdma2_link, ep);
	const struct rpcrdma2_link_ops *ops = l->ops;
	struct rpcrdma2_hdr hdr;
	bool held = false;
	int ret;

	if (rv->status != IB_WC_SUCCESS) {
		if (rv->status != IB_WC_WR_FLUSH_ERR)
			trace_rpcrdma2_wc_error(&rv->cid, l->peer, "recv",
						rv->status);
		rpcrdma2_link_lost(l);
		ops->recv_failed(l, rv);
		return;
	}
	rpcrdma2_ep_recv_sync(rv);
	l->recvs++;
	/* conn as it was settled: pairs with rpcrdma2_link_settled() */
	switch (smp_load_acquire(&l->state)) {
	case RPCRDMA2_LINK_UP:
		break;
	case RPCRDMA2_LINK_NEGOTIATING:
		if (rpcrdma2_link_negotiate(l, rv))
			break;
		goto repost;
	default:		/* draining (or down: nothing is taken) */
		goto repost;
	}

	ret = rpcrdma2_link_check(l, rv, &hdr);
	if (ret) {
		/*
		 * The message is discarded, never given to the RPC layer
		 * (V2-ERR-14, V2-ERR-18, V2-ERR-27, V2-ERR-34); the role
		 * answers it where the spec says a receiver does.
		 */
		ops->reject(l, &hdr, ret);
		goto repost;
	}
	if (ops->taken)
		ops->taken(l, &hdr, rv);
	if (rpcrdma2_is_credit_grant(&hdr)) {
		rpcrdma2_link_ack(l);
		goto repost;
	}
	switch (hdr.htype) {
	case RDMA2_MSG:
	case RDMA2_NOMSG:	/* V2-SPEC-01: the message is in a chunk */
		held = ops->msg(l, &hdr, rv);
		break;
	case RDMA2_ERROR:
		ops->error(l, &hdr, rv);
		break;
	default:	/* the codec lets through only RDMA2_XCH_* more */
		if (rpcrdma2_xch_htype(hdr.htype))
			ops->xch(l, &hdr);
		break;
	}
repost:
	if (!held)
		ops->repost(l, rv);
}

/**
 * rpcrdma2_link_has_room - may Send @msgno of the current message go?
 * @l: the link
 * @msgno: 1 for a message's first Send
 *
 * A Send buffer is free and the continuation window (V2-CONT-05) has
 * room for it.  Any context; a hint unless the caller holds tx_lock.
 */
bool rpcrdma2_link_has_room(struct rpcrdma2_link *l, u32 msgno)
{
	return rpcrdma2_seq_may_send(&l->seq, msgno) &&
	       rpcrdma2_pool_avail(&l->pool);
}

/**
 * rpcrdma2_link_pump - post the Sends of a message while there is room
 * @l: the link; the caller holds tx_lock and sends one message at a
 *	time (V2-CONT-03)
 * @tx: the message, cut from @tx->msgno on: a pump that returned
 *	-EAGAIN or -ENOBUFS is called again with the same @tx
 * @nmsgs: how many Sends it takes (rpcrdma2_tx_nmsgs())
 * @inv_rkey: Send With Invalidate of this rkey on the final Send, or 0
 * @ctx: taken by the final Send (->seal), or NULL
 *
 * The acknowledgments a continued message owes are counted at its
 * first Send, so a message dropped before it owes none (V2-CONT-05);
 * from then until its final Send, control messages wait (V2-CONT-03,
 * rpcrdma2_pool_seq_begin()).
 *
 * Returns 0 when the final Send is posted (it took @ctx); -EPIPE when
 * it is, but what waited behind the sequence could not go (the peer
 * waits for it: the connection is unusable); -EAGAIN when Send
 * @tx->msgno + 1 has no room (wait for a Send completion or a window
 * acknowledgment, ->room, and call again); -ENOBUFS when the role's
 * room fault is injected (try again later: nothing will wake the
 * caller); -ENOTCONN when a Send could not be posted (@ctx is still
 * the caller's): the connection is unusable, and the caller gives the
 * message up (rpcrdma2_link_pump_abort()).
 */
int rpcrdma2_link_pump(struct rpcrdma2_link *l, struct rpcrdma2_tx *tx,
		       u32 nmsgs, u32 inv_rkey, void *ctx)
{
	const struct rpcrdma2_link_ops *ops = l->ops;
	struct rpcrdma2_send *sd;
	int more, ret;
	bool first;
	u32 len;

	lockdep_assert_held(&l->tx_lock);
	do {
		if (!rpcrdma2_seq_may_send(&l->seq, tx->msgno + 1))
			return -EAGAIN;
		sd = rpcrdma2_pool_get(&l->pool, false);
		if (!sd)
			return -EAGAIN;
		if (rpcrdma2_fail_opt(ops->fail_room)) {
			rpcrdma2_pool_put(&l->pool, sd);
			return -ENOBUFS;
		}
		first = !tx->msgno;
		more = rpcrdma2_tx_next(tx, sd->buf, &len);
		/* the sequence opens with its first Send cut */
		if (more >= 0 && first) {
			rpcrdma2_seq_start(&l->seq, nmsgs);
			if (nmsgs > 1)
				rpcrdma2_pool_seq_begin(&l->pool);
		}
		if (!more && ctx) {
			if (ops->seal)
				ops->seal(l, ctx);
			sd->ctx = ctx;
		}
		if (more < 0)
			ret = more;
		else if (rpcrdma2_fail_opt(ops->fail_post))
			ret = -EIO;
		else
			ret = rpcrdma2_ep_post_send(sd, len, more ? 0 : inv_rkey);
		if (ret) {
			sd->ctx = NULL;
			rpcrdma2_pool_put(&l->pool, sd);
			return -ENOTCONN;
		}
		l->sends++;
	} while (more);
	/* what waited goes out now */
	if (nmsgs > 1 && rpcrdma2_pool_seq_end(&l->pool))
		return -EPIPE;
	return 0;
}

/**
 * rpcrdma2_link_pump_abort - give up a message rpcrdma2_link_pump() began
 * @l: the link
 * @tx: the message
 * @nmsgs: its Sends
 *
 * Once a continued message's first Send is cut, what waits behind its
 * sequence is dropped, not posted after a message the peer will never
 * see the end of, and the pool takes no more control messages (the
 * connection is unusable).  Returns how many were dropped.
 */
u32 rpcrdma2_link_pump_abort(struct rpcrdma2_link *l,
			     const struct rpcrdma2_tx *tx, u32 nmsgs)
{
	return nmsgs > 1 && tx->msgno ? rpcrdma2_pool_seq_abort(&l->pool) : 0;
}

/* ---- control messages ---- */

/**
 * rpcrdma2_link_send_ctrl - post a control message from the reserve
 * @l: the link
 * @msg: the encoded message (a CONNPROP, an exchange message)
 * @len: its length
 *
 * Held while a continued message is being sent (V2-CONT-03, xfer.c).
 * A message that cannot be posted closes the connection: the peer
 * would wait for it.
 */
void rpcrdma2_link_send_ctrl(struct rpcrdma2_link *l, const void *msg, u32 len)
{
	if (rpcrdma2_pool_send_ctrl(&l->pool, msg, len))
		l->ops->close(l);
}

/**
 * rpcrdma2_link_send_grant - a credit-grant-only message (V2-CRED-08)
 * @l: the link
 *
 * The window acknowledgment and the raised grant: never held back, even
 * inside a message being sent (V2-CONT-03, xfer.c).
 */
void rpcrdma2_link_send_grant(struct rpcrdma2_link *l)
{
	u8 msg[RPCRDMA2_HDRLEN_NOCHUNKS];
	u32 len = rpcrdma2_encode_credit_grant(msg, sizeof(msg),
					       l->ops->credit(l));

	if (rpcrdma2_pool_send_ack(&l->pool, msg, len))
		l->ops->close(l);
}

/**
 * rpcrdma2_link_send_error - answer @h with an error message
 * @l: the link, its version settled or being settled
 * @h: the message answered (its XID and version)
 * @err: the error code, in the settled version's terms
 * @arg0: the error's first word, if it has one
 * @arg1: its second word, if it has two
 * @ctx: taken by the error's Send (a server's Reply's Writes), or NULL
 *
 * The half decides whether to answer and with what (V2-ERR-24); an
 * error is in the settled version's layout (RFC 8166 on Version 1).
 * Returns true if the error went out, with @ctx, which is then no
 * longer the caller's; a failed post closes the connection.
 */
bool rpcrdma2_link_send_error(struct rpcrdma2_link *l,
			      const struct rpcrdma2_hdr *h, u32 err,
			      u32 arg0, u32 arg1, void *ctx)
{
	u8 msg[64];
	u32 len;

	len = rpcrdma2_encode_error(msg, sizeof(msg), l->conn.vers, h->xid,
				    h->vers, l->ops->credit(l), err, arg0,
				    arg1);
	if (!rpcrdma2_pool_send_ctrl_ctx(&l->pool, msg, len, ctx))
		return true;
	l->ops->close(l);
	return false;
}
