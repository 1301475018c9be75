// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 client half: the receive path.
 *
 * Owns everything that happens when a message arrives on the client's
 * connection: the Send and Receive completions, decoding with the
 * shared codec, the credit word, version settlement messages, errors,
 * reassembly of a continued Reply or reverse Call, and the checks of a
 * Reply's chunks against its Call's offer.  Every length the server
 * reports is checked against what the Call registered before anything
 * is copied or completed.  Placing a forward Reply in its request's
 * buffer and completing its RPC: place.c.  The seed 004 exchange's
 * messages: exchange.c.
 *
 * Concurrency: completions run in the CQ's work item, one at a time, so
 * the rx_* and reasm state of struct rr2c need no lock; tx_lock is
 * taken for the sequence window, the xprt's queue_lock for request
 * lookup and completion.
 *
 * Called by: the endpoint's completion callbacks (rr2c_ep_ops);
 * place.c (rr2c_repost()).
 */

#include <linux/sunrpc/bc_xprt.h>
#include <linux/sunrpc/xprt.h>
#include <linux/unaligned.h>

#include "rpcrdma2.h"
#include "client/client.h"
#include "shared/chunk.h"
#include <trace/events/rpcrdma2.h>

/* ---- completions ---- */

static void rr2c_send_done(struct rpcrdma2_send *sd)
{
	struct rr2c *r = sd->ep->priv;

	rpcrdma2_pool_put(&r->link.pool, sd);
	if (sd->status != IB_WC_SUCCESS) {
		if (sd->status != IB_WC_WR_FLUSH_ERR)
			trace_rpcrdma2_wc_error(&sd->cid, &r->xprt.addr, "send",
						sd->status);
		xprt_force_disconnect(&r->xprt);
	}
	/* pairs with the barrier in rr2c_wait_room() */
	smp_mb();
	xprt_write_space(&r->xprt);
}

void rr2c_repost(struct rr2c *r, struct rpcrdma2_recv *rv)
{
	if (rpcrdma2_ep_post_recv(rv))
		xprt_force_disconnect(&r->xprt);
}

/*
 * Answer a received message with RDMA2_ERROR where the spec makes the
 * receiving peer answer whatever its role: misuse of F_TPMORE and a
 * CONNPROP after the final one (V2-PROP-12, V2-PROP-13, V2-ERR-21), an
 * unknown header type (V2-FRAME-13).  Errors are never answered
 * (codec), and a Requester drops every other rejection (V2-ERR-24).
 */
static void rr2c_send_error(struct rr2c *r, const struct rpcrdma2_hdr *hdr,
			    u32 err)
{
	if (r->link.conn.vers != RPCRDMA2_VERS_2 || hdr->htype == RDMA2_ERROR)
		return;
	r->stats.errors_sent++;
	trace_rpcrdma2_clnt_error_sent(&r->xprt.addr, hdr->xid, r->link.conn.vers,
				       err);
	rpcrdma2_link_send_error(&r->link, hdr, err, 0, 0, NULL);
}

/* The message being received is over: forget it. */
void rr2c_rx_reset(struct rr2c *r)
{
	r->rx_active = false;
	r->rx_bc = false;
	r->rx_bc_req = NULL;
	r->rx_off = 0;
	r->rx_pre = 0;
	r->rx_staged = 0;
}

/*
 * Give up on the message being received without completing anything:
 * a forward Reply's RPC times out and is retransmitted, a reverse
 * Call's slot goes back to the pool.
 */
void rr2c_rx_drop(struct rr2c *r)
{
	if (r->rx_active && r->rx_bc && r->rx_bc_req)
		rr2c_bc_free_rqst(r->rx_bc_req);
	rr2c_rx_reset(r);
}

/* The first message of a forward Reply or a reverse Call. */
static void rr2c_rx_start(struct rr2c *r, const struct rpcrdma2_hdr *hdr,
			  const void *payload, u32 plen)
{
	bool ok;

	rr2c_rx_drop(r);		/* nothing is left of an earlier one */
	r->rx_bc = rpcrdma2_rpc_msg_is_call(hdr, payload, plen, &ok);
	/* V2-ERR-26: rdma_xid is the XID of the RPC message it carries */
	if (!ok || !rpcrdma2_rpc_xid_ok(hdr, payload, plen)) {
		r->stats.bad_hdrs++;
		rpcrdma2_reasm_abort(&r->link.reasm, hdr);
		r->rx_bc = false;
		return;
	}
	r->rx_active = true;
	r->rx_xid = hdr->xid;
	if (r->rx_bc)			/* RFC 8167: the server calls us */
		r->rx_bc_req = rr2c_bc_take(r, hdr->xid);
}

/*
 * An RPC message, or one part of a continued one.  Returns true when
 * @rv is held until the Reply is placed (rr2c_reply_done()).
 */
static bool rr2c_recv_msg(struct rr2c *r, const struct rpcrdma2_hdr *hdr,
			  struct rpcrdma2_recv *rv)
{
	const void *buf = rv->buf;
	u32 len = rv->len;
	const u8 *payload = (const u8 *)buf + hdr->hdrlen;
	u32 plen = len - hdr->hdrlen;
	bool more = hdr->flags & RDMA2_F_MORE;
	int held = 0;

	switch (rpcrdma2_reasm_add(&r->link.reasm, hdr, plen)) {
	case RPCRDMA2_REASM_DISCARD:
		return false;
	case RPCRDMA2_REASM_FAULT:
		/* V2-ERR-24: a Requester drops, answers nothing */
		rr2c_rx_drop(r);
		r->stats.bad_hdrs++;
		return false;
	default:
		break;
	}
	if (r->link.reasm.nmsgs == 1) {
		rr2c_rx_start(r, hdr, payload, plen);
		if (!r->rx_active)
			return false;
	}
	if (rpcrdma2_seq_ack_due(r->link.reasm.nmsgs, more))
		rpcrdma2_link_send_grant(&r->link);
	if (!r->rx_bc) {
		held = rr2c_reply_part(r, rv, payload, plen, !more);
		if (held < 0) {
			/* nothing more of it completes the RPC */
			rpcrdma2_reasm_abort(&r->link.reasm, hdr);
			rr2c_rx_drop(r);
			return false;
		}
	} else if (r->rx_bc_req) {
		u32 n = rpcrdma2_copy_to_xdr(&r->rx_bc_req->rq_private_buf,
					     r->rx_off, payload, plen);

		r->rx_off += n;
		if (n < plen) {
			/*
			 * Longer than a slot (bc_maxpayload): dropped whole,
			 * never handed on cut short; the rest of it is
			 * read and ignored
			 */
			trace_rpcrdma2_clnt_bc_call(&r->xprt.addr, r->rx_xid,
						    r->rx_off, -EMSGSIZE);
			rr2c_bc_free_rqst(r->rx_bc_req);
			r->rx_bc_req = NULL;
			r->stats.bc_dropped++;
		} else if (!more) {
			rr2c_bc_deliver(r, r->rx_bc_req, r->rx_off);
		}
	}
	if (!more)
		rr2c_rx_reset(r);
	return held > 0;
}

/*
 * The Requester ends the RPC with an error rather than re-send it:
 * after a resource error (V2-ERR-37, V2-ERR-39, V2-ERR-43, V2-ERR-46)
 * and after SYSTEM (V2-ERR-49).
 */
static int rr2c_errno(const struct rpcrdma2_hdr *hdr)
{
	switch (hdr->err) {
	case RDMA2_ERR_VERS:
		return -EPROTONOSUPPORT;
	case RDMA2_ERR_REPLY_RESOURCE:
	case RDMA2_ERR_WRITE_RESOURCE:
		return -EMSGSIZE;
	default:
		return -EIO;
	}
}

/*
 * An error fails the Call with its XID (V2-ERR-16, V2-ERR-28).  It ends
 * a Reply being received only if that Reply has the same XID: an error
 * never aborts another request's reassembly.
 */
static void rr2c_recv_error(struct rr2c *r, const struct rpcrdma2_hdr *hdr,
			    const struct rpcrdma2_recv *rv)
{
	struct rpc_rqst *rq;
	bool cut = false;

	r->stats.errors++;
	trace_rpcrdma2_clnt_error(&r->xprt.addr, hdr->xid, hdr->vers,
				  hdr->err);
	/*
	 * The server refused a Call we are still cutting: it discards the
	 * rest (V2-ERR-23) and acknowledges nothing more, so the sequence
	 * cannot finish on this connection.
	 */
	spin_lock(&r->link.tx_lock);
	if (r->tx_req && r->tx.msgno && r->tx.xid == hdr->xid) {
		rr2c_tx_abandon(r);
		cut = true;
	}
	spin_unlock(&r->link.tx_lock);
	if (cut)
		xprt_force_disconnect(&r->xprt);
	if (r->rx_active && !r->rx_bc && r->rx_xid == hdr->xid) {
		rpcrdma2_reasm_abort(&r->link.reasm, hdr);
		rr2c_rx_reset(r);
	}
	rq = rr2c_reply_pin(r, hdr->xid);
	if (rq && rr2c_reply_remote_inv(r, rq, rv))
		rr2c_reply_done(r, rq, rr2c_errno(hdr), 0);
}

static void rr2c_negotiate(struct rr2c *r, const void *buf, u32 len)
{
	u8 out[RPCRDMA2_HDRLEN_ERR_MAX];
	enum rpcrdma2_nego n;
	u32 outlen;

	n = rpcrdma2_nego_client_recv(&r->link.conn, &r->link.local, buf, len,
				      out, sizeof(out), &outlen);
	if (outlen)
		rpcrdma2_link_send_ctrl(&r->link, out, outlen);	/* V2-ERR-31: BAD_PROPVAL */
	if (n == RPCRDMA2_NEGO_MORE || n == RPCRDMA2_NEGO_REJECT)
		return;
	if (n == RPCRDMA2_NEGO_REPLY)
		n = RPCRDMA2_NEGO_DONE;		/* settled; the error is sent */
	if (n == RPCRDMA2_NEGO_DONE && len >= 12) {
		u32 word = get_unaligned_be32((const u8 *)buf + 8);

		/*
		 * The settling message is a Version 2 CONNPROP or an
		 * ERR_VERS in either layout.  A Version 1 grant is a small
		 * number and a Version 2 word has it in the low half, so
		 * the low half is right for all of them.
		 */
		r->nego_grant = rpcrdma2_credit_in(RPCRDMA2_VERS_2, word);
	}
	if (n == RPCRDMA2_NEGO_DONE)
		rr2c_xch_start(r);
	rpcrdma2_link_negotiated(&r->link, n);
}

/*
 * What the client takes as a Responder (reverse-direction Calls): no
 * chunks at all (V2-RDIR-15, V2-ERR-33), so its errors say 0.
 */
const struct rpcrdma2_limits rr2c_limits = {
	.max_read_chunks	= 0,
	.max_write_chunks	= 0,
	.max_segments		= 0,
	.no_reply_chunk		= true,
};

/*
 * What the client takes in a Reply: the Write chunk and the Reply chunk
 * its Calls offer, each echoed with at most the segments it had; a
 * Read list is decoded only to fail its RPC (V2-CHUNK-26).
 */
static const struct rpcrdma2_limits rr2c_reply_limits = {
	.max_read_chunks	= 1,
	.max_write_chunks	= 1,
	.max_segments		= RR2C_MAX_SEGS,
};

/*
 * Is this message with chunk lists a reverse-direction Call?  On
 * Version 2 the flag says so (V2-RDIR-18); on Version 1 only an
 * RDMA_MSG's payload can, and an RDMA_NOMSG is taken for a Reply: its
 * XID then matches no forward request if it was not one.
 */
static bool rr2c_is_reverse_call(const struct rpcrdma2_hdr *hdr,
				 const struct rpcrdma2_recv *rv)
{
	if (hdr->vers == RPCRDMA2_VERS_2)
		return !(hdr->flags & RDMA2_F_RESPONSE);
	return hdr->htype == RDMA_MSG &&
	       rpcrdma2_rpc_is_call((const u8 *)rv->buf + hdr->hdrlen,
				    rv->len - hdr->hdrlen);
}

/*
 * Check a Reply's chunk lists against what @req's Call offered.
 * Returns 0, with the Write chunk's octets in *@wlen and, for a Reply
 * in Special Format, its length in *@len; or -EIO when the chunks
 * contradict the offer: the RPC fails, and nothing is written.
 */
static int rr2c_reply_chunks(struct rr2c *r, struct rr2c_req *req,
			     const struct rpcrdma2_hdr *hdr, const void *buf,
			     u32 *wlen, u32 *len)
{
	int w = 0, rplen = 0;

	if (hdr->reads.chunks)			/* V2-CHUNK-26 */
		return -EIO;
	if (hdr->writes.chunks) {
		w = rpcrdma2_returned_chunk_len(buf, hdr, false, req->wsegs,
						req->nr_wsegs);
		if (w < 0 || w > req->wlen ||
		    w > req->rq.rq_private_buf.page_len)
			return -EIO;
	}
	if (hdr->reply.chunks) {
		rplen = rpcrdma2_returned_chunk_len(buf, hdr, true,
						    req->rpsegs,
						    req->nr_rpsegs);
		if (rplen < 0 || rplen > req->rplen)
			return -EIO;
	}
	r->stats.rdma_reply_octets += w + rplen;
	*wlen = w;
	if (hdr->htype == RDMA2_NOMSG) {
		/* V2-SPEC-01: the whole Reply is in the Reply chunk */
		if (!rplen || w)
			return -EIO;
		*len = rplen;
		return 0;
	}
	if (rplen)		/* the Reply is inline: no octets in the chunk */
		return -EIO;
	return 0;
}

/*
 * A forward Reply with chunk lists, or in Special Format.  Chunks come
 * only in the final message of a sequence (V2-CONT-08), and a Responder
 * whose Write list and Reply chunk cannot hold a Reply continues it
 * (V2-CONT-11): the earlier messages, taken by rr2c_recv_msg(), begin
 * the inline stream this one ends.  Returns true when @rv is held until
 * the Reply is placed.
 */
static bool rr2c_recv_chunks(struct rr2c *r, const struct rpcrdma2_hdr *hdr,
			     struct rpcrdma2_recv *rv)
{
	const u8 *payload = (const u8 *)rv->buf + hdr->hdrlen;
	u32 plen = rv->len - hdr->hdrlen, len = 0, wlen = 0;
	struct rpc_rqst *rq;
	bool held = false;
	int status;

	switch (rpcrdma2_reasm_add(&r->link.reasm, hdr, plen)) {
	case RPCRDMA2_REASM_DISCARD:
		return false;
	case RPCRDMA2_REASM_DONE:
		break;
	default:
		rpcrdma2_reasm_abort(&r->link.reasm, hdr);
		rr2c_rx_drop(r);
		r->stats.bad_hdrs++;
		return false;
	}
	if (r->link.reasm.nmsgs > 1) {
		/* the end of the forward Reply being received */
		if (!r->rx_active || r->rx_bc || r->rx_xid != hdr->xid) {
			rr2c_rx_drop(r);
			r->stats.bad_hdrs++;
			return false;
		}
	} else {
		rr2c_rx_drop(r);
		/* V2-ERR-26: rdma_xid is the XID of the RPC it carries */
		if (hdr->htype == RDMA2_MSG &&
		    !rpcrdma2_rpc_xid_ok(hdr, payload, plen)) {
			r->stats.bad_hdrs++;
			return false;
		}
	}
	rq = rr2c_reply_pin(r, hdr->xid);
	if (!rq || !rr2c_reply_remote_inv(r, rq, rv))
		goto out;
	status = rr2c_reply_chunks(r, rr2c_req(rq), hdr, rv->buf, &wlen,
				   &len);
	if (status) {
		r->stats.bad_chunks++;
		trace_rpcrdma2_clnt_bad_chunks(&r->xprt.addr, hdr->xid, status);
		rr2c_reply_done(r, rq, status, 0);
	} else if (hdr->htype == RDMA2_NOMSG) {
		rr2c_reply_done(r, rq, 0, len);
	} else {
		held = rr2c_reply_last(r, rq, rv, payload, plen, wlen);
	}
out:
	rr2c_rx_reset(r);
	return held;
}

/*
 * A message the codec rejected with @verdict.  The client answers only
 * where the spec makes every receiver answer (rr2c_send_error), and
 * as a reverse-direction Responder without chunk support (V2-RDIR-15);
 * every other rejection is dropped (V2-ERR-24).
 */
static void rr2c_recv_rejected(struct rr2c *r, const struct rpcrdma2_hdr *hdr,
			       int verdict)
{
	r->stats.bad_hdrs++;
	/*
	 * Nothing may come between a sequence's messages (V2-CONT-03), and the
	 * rest of a rejected one is dropped unread (V2-ERR-23).
	 */
	if (r->link.reasm.active)
		rr2c_rx_drop(r);
	rpcrdma2_reasm_abort(&r->link.reasm, hdr);
	switch (verdict) {
	case RDMA2_ERR_INVAL_HTYPE:
		rr2c_send_error(r, hdr, verdict);
		break;
	case RDMA2_ERR_READ_CHUNKS:
	case RDMA2_ERR_WRITE_CHUNKS:
	case RDMA2_ERR_SEGMENTS:
	case RDMA2_ERR_REPLY_RESOURCE:
		if (!(hdr->flags & RDMA2_F_RESPONSE))
			rr2c_send_error(r, hdr, verdict);
		break;
	default:
		break;
	}
}

/* ---- the link's callbacks (shared/link.c) ---- */

static struct rr2c *rr2c_of(struct rpcrdma2_link *l)
{
	return container_of(l, struct rr2c, link);
}

static void rr2c_link_failed(struct rpcrdma2_link *l, struct rpcrdma2_recv *rv)
{
	struct rr2c *r = rr2c_of(l);

	rr2c_rx_drop(r);
	xprt_force_disconnect(&r->xprt);
}

/* Settlement messages are the negotiation's alone: never an RPC. */
static bool rr2c_link_negotiate(struct rpcrdma2_link *l,
				struct rpcrdma2_recv *rv)
{
	rr2c_negotiate(rr2c_of(l), rv->buf, rv->len);
	return false;
}

static void rr2c_link_limits(struct rpcrdma2_link *l,
			     struct rpcrdma2_limits *lim)
{
	*lim = rr2c_reply_limits;
}

/* V2-RDIR-15: as a Responder the client takes no chunks */
static int rr2c_link_recheck(struct rpcrdma2_link *l, struct rpcrdma2_recv *rv,
			     struct rpcrdma2_hdr *hdr)
{
	if (!rpcrdma2_hdr_has_chunks(hdr) || !rr2c_is_reverse_call(hdr, rv))
		return 0;
	return rpcrdma2_decode_hdr(rv->buf, rv->len, l->conn.vers,
				   &rr2c_limits, hdr);
}

static void rr2c_link_reject(struct rpcrdma2_link *l,
			     const struct rpcrdma2_hdr *hdr, int verdict)
{
	rr2c_recv_rejected(rr2c_of(l), hdr, verdict);
}

/* a reverse Call's credit word is not a grant for our Calls */
static void rr2c_link_taken(struct rpcrdma2_link *l,
			    const struct rpcrdma2_hdr *hdr,
			    struct rpcrdma2_recv *rv)
{
	struct rr2c *r = rr2c_of(l);

	if (hdr->htype != RDMA2_MSG ||
	    (hdr->vers == RPCRDMA2_VERS_2 ? hdr->flags & RDMA2_F_RESPONSE :
	     !(r->link.reasm.active ? r->rx_bc :
	       rpcrdma2_rpc_is_call((u8 *)rv->buf + hdr->hdrlen,
				    rv->len - hdr->hdrlen))))
		rr2c_set_grant(r, hdr->xid,
			       rpcrdma2_credit_in(hdr->vers, hdr->credit));
	if (rpcrdma2_is_credit_grant(hdr))
		r->stats.grants++;
}

static void rr2c_link_room(struct rpcrdma2_link *l)
{
	xprt_write_space(&rr2c_of(l)->xprt);
}

static bool rr2c_link_msg(struct rpcrdma2_link *l,
			  const struct rpcrdma2_hdr *hdr,
			  struct rpcrdma2_recv *rv)
{
	struct rr2c *r = rr2c_of(l);

	if (hdr->htype == RDMA2_NOMSG) {
		/* the codec let through only a NOMSG with chunks (erratum E-07) */
		if (!rr2c_is_reverse_call(hdr, rv))
			return rr2c_recv_chunks(r, hdr, rv);
		r->stats.bad_hdrs++;
		return false;
	}
	if (rpcrdma2_hdr_has_chunks(hdr))
		return rr2c_recv_chunks(r, hdr, rv);
	return rr2c_recv_msg(r, hdr, rv);
}

static void rr2c_link_error(struct rpcrdma2_link *l,
			    const struct rpcrdma2_hdr *hdr,
			    struct rpcrdma2_recv *rv)
{
	struct rr2c *r = rr2c_of(l);

	if (!rr2c_xch_refused(r, hdr))
		rr2c_recv_error(r, hdr, rv);
}

static void rr2c_link_xch(struct rpcrdma2_link *l,
			  const struct rpcrdma2_hdr *hdr)
{
	rr2c_xch_recv(rr2c_of(l), hdr);
}

/* a Receive held for its Reply is reposted by rr2c_reply_finish() */
static void rr2c_link_repost(struct rpcrdma2_link *l, struct rpcrdma2_recv *rv)
{
	rr2c_repost(rr2c_of(l), rv);
}

static u32 rr2c_link_credit(struct rpcrdma2_link *l)
{
	return rr2c_credit(rr2c_of(l), l->conn.vers);
}

static void rr2c_link_close(struct rpcrdma2_link *l)
{
	xprt_force_disconnect(&rr2c_of(l)->xprt);
}

const struct rpcrdma2_link_ops rr2c_link_ops = {
	.recv_failed	= rr2c_link_failed,
	.negotiate	= rr2c_link_negotiate,
	.limits		= rr2c_link_limits,
	.recheck	= rr2c_link_recheck,
	.reject		= rr2c_link_reject,
	.taken		= rr2c_link_taken,
	.room		= rr2c_link_room,
	.msg		= rr2c_link_msg,
	.error		= rr2c_link_error,
	.xch		= rr2c_link_xch,
	.repost		= rr2c_link_repost,
	.credit		= rr2c_link_credit,
	.close		= rr2c_link_close,
	.vers_mismatch	= RPCRDMA2_DROP,		/* V2-FRAME-24 */
	.fail_room	= RPCRDMA2_FAIL_SEND_STALL,
	.fail_post	= RPCRDMA2_FAIL_NR,
};

/* The endpoint is going: its MRs go before the PD. */
static void rr2c_ep_release(struct rpcrdma2_ep *ep)
{
	rr2c_frwr_destroy(ep->priv);
}

const struct rpcrdma2_ep_ops rr2c_ep_ops = {
	.recv_done	= rpcrdma2_link_recv_done,
	.send_done	= rr2c_send_done,
	.release	= rr2c_ep_release,
	.removing	= rr2c_ep_removing,
};
