// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 client half: the sunrpc transport class.
 *
 * Owns the xprt_class that the RPC client looks up for "proto=rdma" and
 * "proto=rdma6" mounts (ident XPRT_TRANSPORT_RDMA) and one connection
 * per rpc_xprt.
 *
 * Connection lifecycle (one delayed work item, on xprtiod):
 *   resolve address and route -> create the endpoint and post every
 *   Receive -> rdma_connect() with the RFC 8797 record -> settle the
 *   version (seed 001 4.2.3): a CONNPROP goes first when Version 2 is
 *   offered, and the server's CONNPROP or a Version 1 ERR_VERS decides.
 *   Only then is the transport marked connected, so the RPC layer (and
 *   NFS reading rpc_max_payload()) sees the settled thresholds.  After
 *   one fallback the transport offers Version 1 only, so reconnects do
 *   not negotiate again (E-12, V2-FRAME-18).
 *
 * Sending: an RPC Call is copied into Send buffers, one Send when it
 * fits the inline threshold, else a continued sequence on Version 2
 * (V2-CONT-01).  Credits are the sunrpc congestion window: the server's
 * grant sets cwnd and each RPC holds one credit until its Reply
 * (V2-CRED-04, E-14).  Continuation messages after the first use the
 * sequence window of net/shared/xfer.c.  When a Send buffer or window
 * room is missing, ->send_request waits for write space and the next
 * transmit resumes the same request where it stopped; the transmit
 * queue guarantees nothing else is sent in between (E-31).
 *
 * Receiving: completions run in the CQ's workqueue, one at a time.
 * Each message is decoded with the shared codec, its credit word
 * applied, and its payload copied into the matching request's receive
 * buffer; the Receive is reposted at once.
 *
 * Called by: net/sunrpc (xprt_create_transport and the rpc_xprt_ops),
 * the module core.
 */

#include <linux/module.h>
#include <linux/err.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/sunrpc/addr.h>
#include <linux/sunrpc/bc_xprt.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/sched.h>
#include <linux/sunrpc/xprt.h>
#include <linux/sunrpc/xprtrdma.h>
#include <linux/unaligned.h>

#include "rpcrdma2.h"
#include "client/client.h"
#include <trace/events/rpcrdma2.h>

static const struct rpc_xprt_ops rr2c_ops;
static struct xprt_class rpcrdma2_clnt_class;

/* ---- credits ---- */

/*
 * Apply the server's grant as the congestion window.  A larger window
 * lets a Call that waits for congestion space go: clear the wait flag,
 * as sunrpc does when a credit is returned, and wake the first waiter
 * on the sending queue, which tries the transport lock again on its
 * own.  The lock itself is never released here: only its holder may do
 * that, and during autoclose that is not a task at all.
 */
static void rr2c_set_grant(struct rr2c *r, u32 grant)
{
	struct rpc_xprt *xprt = &r->xprt;
	bool raised = false;

	if (!grant)
		return;			/* V2-CRED-03: keep the previous one */
	grant = min_t(u32, grant, RR2C_CREDITS);
	spin_lock(&xprt->transport_lock);
	if (xprt->cwnd != grant << RPC_CWNDSHIFT) {
		raised = xprt->cwnd < grant << RPC_CWNDSHIFT;
		xprt->cwnd = grant << RPC_CWNDSHIFT;
		trace_rpcrdma2_clnt_grant(r->conn.vers, grant);
	}
	/* as sunrpc does when a credit comes back: no longer congested */
	if (raised && !RPCXPRT_CONGESTED(xprt))
		clear_bit(XPRT_CWND_WAIT, &xprt->state);
	else
		raised = false;
	spin_unlock(&xprt->transport_lock);
	if (raised)
		rpc_wake_up_next(&xprt->sending);
}

/* ---- connection manager events ---- */

static int rr2c_cm_event(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct rr2c *r = id->context;
	int status = 0;

	trace_rpcrdma2_cm_event(&r->xprt.addr, ev->event, ev->status);
	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
		status = -EHOSTUNREACH;
		break;
	case RDMA_CM_EVENT_ROUTE_ERROR:
		status = -ENETUNREACH;
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		/* CMP-CMPD-14: no usable record means 1024/1024, R = 0 */
		rpcrdma2_ep_peer_pdata(ev, &r->peer_pdata);
		break;
	case RDMA_CM_EVENT_REJECTED:
		status = -ECONNREFUSED;
		break;
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_CONNECT_ERROR:
		status = -ENOTCONN;
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
	case RDMA_CM_EVENT_ADDR_CHANGE:
	case RDMA_CM_EVENT_DISCONNECTED:
		xprt_force_disconnect(&r->xprt);
		status = -ECONNABORTED;
		break;
	default:
		return 0;
	}
	r->cm_status = status;
	complete(&r->cm_done);
	return 0;
}

static int rr2c_cm_wait(struct rr2c *r, unsigned long timeout)
{
	if (!wait_for_completion_timeout(&r->cm_done, timeout))
		return -ETIMEDOUT;
	reinit_completion(&r->cm_done);
	return r->cm_status;
}

/* ---- completions ---- */

static void rr2c_send_done(struct rpcrdma2_send *sd)
{
	struct rr2c *r = sd->ep->priv;

	rpcrdma2_pool_put(&r->pool, sd);
	if (sd->status != IB_WC_SUCCESS) {
		if (sd->status != IB_WC_WR_FLUSH_ERR)
			trace_rpcrdma2_wc_error(&r->xprt.addr, "send",
						sd->status);
		xprt_force_disconnect(&r->xprt);
	}
	/* pairs with the barrier in rr2c_wait_room() */
	smp_mb();
	xprt_write_space(&r->xprt);
}

static void rr2c_repost(struct rr2c *r, struct rpcrdma2_recv *rv)
{
	if (rpcrdma2_ep_post_recv(rv))
		xprt_force_disconnect(&r->xprt);
}

/* Post a control message (credit grant or error) from the reserve. */
static void rr2c_send_ctrl(struct rr2c *r, const void *msg, u32 len)
{
	if (rpcrdma2_pool_send_ctrl(&r->pool, msg, len))
		xprt_force_disconnect(&r->xprt);
}

/* Send a credit-grant-only message (V2-CRED-08) as a window ack. */
static void rr2c_send_ack(struct rr2c *r)
{
	u32 credit = rpcrdma2_credit_out(r->conn.vers, RR2C_CREDITS);
	u8 msg[RPCRDMA2_HDRLEN_NOCHUNKS];

	rr2c_send_ctrl(r, msg,
		       rpcrdma2_encode_credit_grant(msg, sizeof(msg), credit));
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
	u32 credit = rpcrdma2_credit_out(r->conn.vers, RR2C_CREDITS);
	u8 msg[64];
	u32 len;

	if (r->conn.vers != RPCRDMA2_VERS_2 || hdr->htype == RDMA2_ERROR)
		return;
	r->stats.errors_sent++;
	trace_rpcrdma2_clnt_error_sent(hdr->xid, r->conn.vers, err);
	len = rpcrdma2_encode_error(msg, sizeof(msg), RPCRDMA2_VERS_2,
				    hdr->xid, hdr->vers, credit, err, 0, 0);
	rr2c_send_ctrl(r, msg, len);
}

/* The message being received is over: forget it. */
static void rr2c_rx_reset(struct rr2c *r)
{
	r->rx_active = false;
	r->rx_bc = false;
	r->rx_bc_req = NULL;
	r->rx_off = 0;
}

/*
 * Give up on the message being received without completing anything:
 * a forward Reply's RPC times out and is retransmitted, a reverse
 * Call's slot goes back to the pool.
 */
static void rr2c_rx_drop(struct rr2c *r)
{
	if (r->rx_active && r->rx_bc && r->rx_bc_req)
		rr2c_bc_free_rqst(r->rx_bc_req);
	rr2c_rx_reset(r);
}

/*
 * Copy Reply octets to the request with XID @xid at *@off and, on the
 * last message, complete it with @status (0: the whole Reply arrived).
 * The request is pinned only for the copy.
 */
static void rr2c_reply_copy(struct rr2c *r, u32 xid, const void *data,
			    u32 len, u32 *off, bool last, int status)
{
	struct rpc_xprt *xprt = &r->xprt;
	struct rpc_rqst *req;

	spin_lock(&xprt->queue_lock);
	req = xprt_lookup_rqst(xprt, cpu_to_be32(xid));
	if (!req) {
		spin_unlock(&xprt->queue_lock);
		r->stats.bad_xids++;
		return;
	}
	xprt_pin_rqst(req);
	spin_unlock(&xprt->queue_lock);

	if (len)
		*off += rpcrdma2_copy_to_xdr(&req->rq_private_buf, *off, data,
					     len);

	spin_lock(&xprt->queue_lock);
	if (last) {
		if (status)
			req->rq_task->tk_status = status;
		xprt_complete_rqst(req->rq_task, status ? 0 : *off);
	}
	xprt_unpin_rqst(req);
	spin_unlock(&xprt->queue_lock);
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
		rpcrdma2_reasm_abort(&r->reasm, hdr);
		r->rx_bc = false;
		return;
	}
	r->rx_active = true;
	r->rx_xid = hdr->xid;
	if (r->rx_bc)			/* RFC 8167: the server calls us */
		r->rx_bc_req = rr2c_bc_take(r, hdr->xid);
}

/* An RPC message, or one part of a continued one. */
static void rr2c_recv_msg(struct rr2c *r, const struct rpcrdma2_hdr *hdr,
			  const void *buf, u32 len)
{
	const u8 *payload = (const u8 *)buf + hdr->hdrlen;
	u32 plen = len - hdr->hdrlen;
	bool more = hdr->flags & RDMA2_F_MORE;

	switch (rpcrdma2_reasm_add(&r->reasm, hdr, plen)) {
	case RPCRDMA2_REASM_DISCARD:
		return;
	case RPCRDMA2_REASM_FAULT:
		/* V2-ERR-24: a Requester drops, answers nothing */
		rr2c_rx_drop(r);
		r->stats.bad_hdrs++;
		return;
	default:
		break;
	}
	if (r->reasm.nmsgs == 1) {
		rr2c_rx_start(r, hdr, payload, plen);
		if (!r->rx_active)
			return;
	}
	if (rpcrdma2_seq_ack_due(r->reasm.nmsgs, more))
		rr2c_send_ack(r);
	if (!r->rx_bc) {
		rr2c_reply_copy(r, r->rx_xid, payload, plen, &r->rx_off, !more,
				0);
	} else if (r->rx_bc_req) {
		r->rx_off += rpcrdma2_copy_to_xdr(&r->rx_bc_req->rq_private_buf,
						  r->rx_off, payload, plen);
		if (!more)
			rr2c_bc_deliver(r, r->rx_bc_req, r->rx_off);
	}
	if (!more)
		rr2c_rx_reset(r);
}

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
 * A message was abandoned after some of its Sends went out: the peer
 * holds an open sequence that nothing will finish, and the next message
 * must not be cut into it (V2-CONT-06, E-31).  The connection is no
 * longer usable: drop it, as xprtsock does after a partial send.
 */
static void rr2c_tx_abandon(struct rr2c *r)
{
	r->tx_req = NULL;
	r->stats.aborted_seqs++;
	trace_rpcrdma2_clnt_abandon(r->tx.xid, r->tx.vers, r->tx.msgno,
				    r->tx.off);
}

/*
 * An error fails the Call with its XID (V2-ERR-16, V2-ERR-28).  It ends
 * a Reply being received only if that Reply has the same XID: an error
 * never aborts another request's reassembly.
 */
static void rr2c_recv_error(struct rr2c *r, const struct rpcrdma2_hdr *hdr)
{
	bool cut = false;
	u32 off = 0;

	r->stats.errors++;
	trace_rpcrdma2_clnt_error(hdr->xid, hdr->vers, hdr->err);
	/*
	 * The server refused a Call we are still cutting: it discards the
	 * rest (V2-ERR-23) and acknowledges nothing more, so the sequence
	 * cannot finish on this connection.
	 */
	spin_lock(&r->tx_lock);
	if (r->tx_req && r->tx.msgno && r->tx.xid == hdr->xid) {
		rr2c_tx_abandon(r);
		cut = true;
	}
	spin_unlock(&r->tx_lock);
	if (cut)
		xprt_force_disconnect(&r->xprt);
	if (r->rx_active && !r->rx_bc && r->rx_xid == hdr->xid) {
		rpcrdma2_reasm_abort(&r->reasm, hdr);
		rr2c_rx_reset(r);
	}
	rr2c_reply_copy(r, hdr->xid, NULL, 0, &off, true, rr2c_errno(hdr));
}

static void rr2c_negotiate(struct rr2c *r, const void *buf, u32 len)
{
	u8 out[RPCRDMA2_HDRLEN_ERR_MAX];
	enum rpcrdma2_nego n;
	u32 outlen;

	n = rpcrdma2_nego_client_recv(&r->conn, &r->local, buf, len,
				      out, sizeof(out), &outlen);
	if (outlen)
		rr2c_send_ctrl(r, out, outlen);	/* E-35: BAD_PROPVAL */
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
	r->nego = n;
	complete(&r->nego_done);
}

/*
 * What the client takes as a Responder (reverse-direction Calls): no
 * chunks at all (V2-RDIR-15, V2-ERR-33), so its errors say 0.
 */
static const struct rpcrdma2_limits rr2c_limits = {
	.max_read_chunks	= 0,
	.max_write_chunks	= 0,
	.max_segments		= 0,
};

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
	 * Nothing may come between a sequence's messages (E-31), and the
	 * rest of a rejected one is dropped unread (V2-ERR-23).
	 */
	if (r->reasm.active)
		rr2c_rx_drop(r);
	rpcrdma2_reasm_abort(&r->reasm, hdr);
	switch (verdict) {
	case RDMA2_ERR_INVAL_HTYPE:
		rr2c_send_error(r, hdr, verdict);
		break;
	case RDMA2_ERR_READ_CHUNKS:
	case RDMA2_ERR_WRITE_CHUNKS:
	case RDMA2_ERR_SEGMENTS:
		if (!(hdr->flags & RDMA2_F_RESPONSE))
			rr2c_send_error(r, hdr, verdict);
		break;
	default:
		break;
	}
}

static void rr2c_recv_done(struct rpcrdma2_recv *rv)
{
	struct rr2c *r = rv->ep->priv;
	struct rpcrdma2_hdr hdr;
	int ret;

	if (rv->status != IB_WC_SUCCESS) {
		if (rv->status != IB_WC_WR_FLUSH_ERR)
			trace_rpcrdma2_wc_error(&r->xprt.addr, "recv",
						rv->status);
		rr2c_rx_drop(r);
		if (!r->conn.vers && !completion_done(&r->nego_done)) {
			r->nego = RPCRDMA2_NEGO_FAIL;
			r->nego_lost = true;
			complete(&r->nego_done);
		}
		xprt_force_disconnect(&r->xprt);
		return;
	}
	rpcrdma2_ep_recv_sync(rv);
	r->stats.recvs++;
	if (!r->conn.vers) {
		rr2c_negotiate(r, rv->buf, rv->len);
		goto repost;
	}
	ret = rpcrdma2_decode_hdr(rv->buf, rv->len, r->conn.vers,
				  &rr2c_limits, &hdr);
	trace_rpcrdma2_recv(&r->xprt.addr, rv->len, ret, &hdr);
	if (!ret && hdr.vers != r->conn.vers)		/* V2-FRAME-24 */
		ret = RPCRDMA2_DROP;
	if (!ret)		/* V2-PROP-13: CONNPROP is once per connection */
		ret = rpcrdma2_nego_settled_check(&r->conn, &hdr);
	if (ret) {
		rr2c_recv_rejected(r, &hdr, ret);
		goto repost;
	}
	/* a reverse Call's credit word is not a grant for our Calls */
	if (hdr.htype != RDMA2_MSG ||
	    (hdr.vers == RPCRDMA2_VERS_2 ? hdr.flags & RDMA2_F_RESPONSE :
	     !(r->reasm.active ? r->rx_bc :
	       rpcrdma2_rpc_is_call((u8 *)rv->buf + hdr.hdrlen,
				    rv->len - hdr.hdrlen))))
		rr2c_set_grant(r, rpcrdma2_credit_in(hdr.vers, hdr.credit));
	if (rpcrdma2_is_credit_grant(&hdr)) {
		bool ack;

		r->stats.grants++;
		spin_lock(&r->tx_lock);
		ack = rpcrdma2_seq_grant(&r->seq);
		spin_unlock(&r->tx_lock);
		if (ack)
			xprt_write_space(&r->xprt);
		goto repost;
	}
	switch (hdr.htype) {
	case RDMA2_MSG:
		rr2c_recv_msg(r, &hdr, rv->buf, rv->len);
		break;
	case RDMA2_ERROR:
		rr2c_recv_error(r, &hdr);
		break;
	default:
		/* NOMSG needs a Reply chunk, which we never offer */
		r->stats.bad_hdrs++;
		break;
	}
repost:
	rr2c_repost(r, rv);
}

static const struct rpcrdma2_ep_ops rr2c_ep_ops = {
	.recv_done	= rr2c_recv_done,
	.send_done	= rr2c_send_done,
};

/* ---- connect and close ---- */

static void rr2c_teardown(struct rr2c *r)
{
	if (!r->id)
		return;
	rdma_disconnect(r->id);
	rpcrdma2_ep_destroy(&r->ep);	/* drains: no completion after this */
	rr2c_rx_drop(r);
	rpcrdma2_pool_destroy(&r->pool);
	rdma_destroy_id(r->id);
	r->id = NULL;
	r->tx_req = NULL;
	memset(&r->conn, 0, sizeof(r->conn));
}

/* rsize/wsize this connection supports without chunks. */
static size_t rr2c_max_payload(const struct rr2c *r)
{
	u32 inline_size;

	if (r->conn.vers == RPCRDMA2_VERS_2)
		return RPCRDMA2_MAX_CONT_MSG - 8192;
	/* Room for the RPC and NFS headers around the data. */
	inline_size = min(r->conn.send_inline, r->conn.recv_inline);
	if (inline_size <= 2048)
		return 1024;
	return rounddown_pow_of_two(inline_size - 1024);
}

static int rr2c_hello(struct rr2c *r)
{
	struct rpcrdma2_send *sd = rpcrdma2_pool_get(&r->pool, false);
	u32 len;

	if (!sd)
		return -ENOBUFS;
	len = rpcrdma2_nego_client_hello(&r->local, 0, sd->buf,
					 sd->ep->attr.send_size);
	if (!len || rpcrdma2_ep_post_send(sd, len, 0)) {
		rpcrdma2_pool_put(&r->pool, sd);
		return -EIO;
	}
	r->stats.hellos++;
	return 0;
}

static int rr2c_settle(struct rr2c *r)
{
	int ret;

	rpcrdma2_conn_init(&r->conn, &r->peer_pdata);
	r->nego_grant = 1;
	if (r->local.max_vers == RPCRDMA2_VERS_1) {
		r->conn.vers = RPCRDMA2_VERS_1;
		rpcrdma2_conn_thresholds(&r->conn, &r->local);
		return 0;
	}
	reinit_completion(&r->nego_done);
	r->nego_lost = false;
	ret = rr2c_hello(r);
	if (ret)
		return ret;
	if (!wait_for_completion_timeout(&r->nego_done, RR2C_NEGO_TIMEOUT) ||
	    r->nego_lost) {
		/*
		 * V2-FRAME-19: the first message went unanswered or the
		 * connection died under it; assume a server without
		 * Version 2 from now on rather than loop.
		 */
		r->vers_cap = RPCRDMA2_VERS_1;
		return -ETIMEDOUT;
	}
	/*
	 * V2-FRAME-18, V2-FRAME-19: whatever ended the negotiation other
	 * than a Version 2 settlement (a fallback, or a first reply that
	 * made no sense), later connections of this transport offer
	 * Version 1 at once instead of negotiating in a loop.
	 */
	if (r->nego != RPCRDMA2_NEGO_DONE || r->conn.vers != RPCRDMA2_VERS_2)
		r->vers_cap = RPCRDMA2_VERS_1;
	if (r->nego != RPCRDMA2_NEGO_DONE)
		return -EPROTO;
	return 0;
}

static int rr2c_connect(struct rr2c *r)
{
	struct rpc_xprt *xprt = &r->xprt;
	struct rpcrdma2_ep_attr attr = {
		.nr_recv	= RR2C_CREDITS + RR2C_BC_SLOTS +
				  RPCRDMA2_RECV_EXTRA,
		.recv_size	= RPCRDMA2_V2_DEF_INLINE,
		.nr_send	= RPCRDMA2_CTRL_SENDS + 2 * RPCRDMA2_SEQ_WINDOW,
		.send_size	= RPCRDMA2_V2_DEF_INLINE,
	};
	struct rdma_conn_param param;
	u8 pdata[RPCRDMA2_CMP_SIZE];
	struct rdma_cm_id *id;
	u32 i;
	int ret;

	init_completion(&r->cm_done);
	id = rdma_create_id(xprt->xprt_net, rr2c_cm_event, r, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);
	r->id = id;
	ret = rdma_resolve_addr(id, NULL, (struct sockaddr *)&xprt->addr,
				RR2C_RESOLVE_MS);
	if (!ret)
		ret = rr2c_cm_wait(r, msecs_to_jiffies(2 * RR2C_RESOLVE_MS));
	if (!ret)
		ret = rdma_resolve_route(id, RR2C_RESOLVE_MS);
	if (!ret)
		ret = rr2c_cm_wait(r, msecs_to_jiffies(2 * RR2C_RESOLVE_MS));
	if (ret)
		goto fail_id;

	ret = rpcrdma2_ep_create(&r->ep, id, &attr, &rr2c_ep_ops, r);
	if (ret)
		goto fail_id;
	ret = rpcrdma2_pool_init(&r->pool, &r->ep);
	for (i = 0; !ret && i < attr.nr_recv; i++)
		ret = rpcrdma2_ep_post_recv(&r->ep.recvs[i]);
	if (ret)
		goto fail;

	memset(&r->local, 0, sizeof(r->local));
	r->local.max_vers = rpcrdma2_max_version(RPCRDMA2_CLIENT);
	r->local.max_vers = min(r->local.max_vers, r->vers_cap);
	r->local.send_size = attr.send_size;
	r->local.recv_size = attr.recv_size;
	r->local.brs = RDMA2_RVRSDIR_SIMPLE;	/* V2-RDIR-10: callbacks */
	rpcrdma2_local_segments(&r->local, id->device, &rr2c_limits);
	r->local.credits = rpcrdma2_credit_out(RPCRDMA2_VERS_2, RR2C_CREDITS);
	memset(&r->seq, 0, sizeof(r->seq));
	rpcrdma2_reasm_init(&r->reasm, RPCRDMA2_MAX_CONT_MSG);
	rr2c_rx_reset(r);
	memset(&r->conn, 0, sizeof(r->conn));	/* unsettled: vers 0 */

	/* CMP-CMPD-05, CMP-CMPD-14: the peer's record, per connection */
	rpcrdma2_cmp_decode(NULL, 0, &r->peer_pdata);
	rpcrdma2_ep_conn_param(&r->ep, &param, pdata, false);
	ret = rdma_connect(id, &param);
	if (!ret)
		ret = rr2c_cm_wait(r, xprt->connect_timeout);
	if (ret)
		goto fail;
	ret = rr2c_settle(r);
	if (ret)
		goto fail;

	xprt->max_payload = rr2c_max_payload(r);
	rr2c_set_grant(r, r->nego_grant);
	trace_rpcrdma2_clnt_connected(&xprt->addr, r->conn.vers,
				      r->conn.send_inline,
				      r->conn.recv_inline);
	pr_info_ratelimited("rpcrdma2: connected to %s, RPC-over-RDMA version %u, inline %u/%u\n",
			    xprt->address_strings[RPC_DISPLAY_ADDR],
			    r->conn.vers, r->conn.send_inline,
			    r->conn.recv_inline);
	return 0;

fail:
	rr2c_teardown(r);
	return ret;
fail_id:
	rdma_destroy_id(id);
	r->id = NULL;
	return ret;
}

static void rr2c_connect_worker(struct work_struct *work)
{
	struct rr2c *r = container_of(to_delayed_work(work), struct rr2c,
				      connect_work);
	struct rpc_xprt *xprt = &r->xprt;
	bool swapper = atomic_read(&xprt->swapper);
	unsigned int noreclaim = 0;
	int ret;

	/* a swap device's transport must connect under memory pressure */
	if (swapper)
		noreclaim = memalloc_noreclaim_save();
	rr2c_teardown(r);
	ret = rr2c_connect(r);
	if (swapper)
		memalloc_noreclaim_restore(noreclaim);
	xprt_clear_connecting(xprt);
	if (!ret) {
		xprt->connect_cookie++;
		xprt->stat.connect_count++;
		xprt->stat.connect_time += (long)jiffies -
					   xprt->stat.connect_start;
		xprt_set_connected(xprt);
		r->ever_failed = false;
		ret = -EAGAIN;
	} else {
		trace_rpcrdma2_clnt_connect_failed(&xprt->addr, ret);
		pr_info_ratelimited("rpcrdma2: cannot connect to %s: error %d\n",
				    xprt->address_strings[RPC_DISPLAY_ADDR],
				    ret);
		r->ever_failed = true;
	}
	xprt_unlock_connect(xprt, r);
	xprt_wake_pending_tasks(xprt, ret);
}

static void rr2c_op_connect(struct rpc_xprt *xprt, struct rpc_task *task)
{
	struct rr2c *r = rr2c(xprt);
	unsigned long delay = 0;

	WARN_ON_ONCE(!xprt_lock_connect(xprt, task, r));
	if (r->ever_failed) {
		delay = xprt_reconnect_delay(xprt);
		xprt_reconnect_backoff(xprt, RR2C_INIT_REEST_TO);
	}
	xprt->stat.connect_start = jiffies;
	queue_delayed_work(xprtiod_workqueue, &r->connect_work, delay);
}

static void rr2c_op_close(struct rpc_xprt *xprt)
{
	struct rr2c *r = rr2c(xprt);

	rr2c_teardown(r);
	xprt->reestablish_timeout = 0;
	++xprt->connect_cookie;
	xprt_disconnect_done(xprt);
}

static void rr2c_op_destroy(struct rpc_xprt *xprt)
{
	struct rr2c *r = rr2c(xprt);

	cancel_delayed_work_sync(&r->connect_work);
	rr2c_teardown(r);
	rr2c_bc_destroy(xprt, UINT_MAX);
	rpcrdma2_xprt_free_addresses(xprt);
	xprt_free(xprt);
	module_put(THIS_MODULE);
}

/* ---- sending ---- */

/*
 * KUnit: stop cutting after a given number of Sends, as if room never
 * came back, so a test can abandon a Call in the middle of its sequence.
 */
static bool rr2c_test_stalled(const struct rr2c *r)
{
#if IS_ENABLED(CONFIG_RPCRDMA2_KUNIT_TEST)
	return r->test_stall_at && r->tx.msgno + 1 >= r->test_stall_at;
#else
	return false;
#endif
}

/* Is there room for the next Send of the message being cut? */
static bool rr2c_has_room(struct rr2c *r)
{
	return rpcrdma2_seq_may_send(&r->seq, r->tx.msgno + 1) &&
	       rpcrdma2_pool_avail(&r->pool);
}

/*
 * No room: ask to be woken by a Send completion or an acknowledgment.
 * Room that came back between the caller's check and the flag being
 * set would wake nobody, so look once more after setting it.  Called
 * under tx_lock, which the acknowledgment path takes too.
 */
static int rr2c_wait_room(struct rr2c *r)
{
	r->stats.write_waits++;
	xprt_wait_for_buffer_space(&r->xprt);
	/* the flag before the look: pairs with rr2c_send_done() */
	smp_mb__after_atomic();
	if (rr2c_has_room(r))
		xprt_write_space(&r->xprt);
	return -EAGAIN;
}

/*
 * XDRBUF_SPARSE_PAGES (NFSv3 GETACL, for one): the upper layer leaves
 * the Reply's pages for the transport to allocate.  Do it before the
 * Call goes out, as the receive path cannot sleep for them.
 */
static int rr2c_alloc_sparse_pages(struct xdr_buf *buf)
{
	struct page **ppages = buf->pages + (buf->page_base >> PAGE_SHIFT);
	u32 n = DIV_ROUND_UP(offset_in_page(buf->page_base) + buf->page_len,
			     PAGE_SIZE);

	if (!(buf->flags & XDRBUF_SPARSE_PAGES) || !buf->page_len)
		return 0;
	for (; n; n--, ppages++) {
		if (!*ppages)
			*ppages = alloc_page(GFP_NOWAIT | __GFP_NOWARN);
		if (!*ppages)
			return -ENOBUFS;	/* retried after a delay */
	}
	return 0;
}

/* Is @req the message whose cutting is under way on this connection? */
static bool rr2c_tx_is(const struct rr2c *r, const struct rpc_rqst *req)
{
	return r->tx_req == req && r->tx_xid == req->rq_xid &&
	       r->tx_cookie == r->xprt.connect_cookie;
}

/* Begin cutting @req.  Returns the number of Sends or a negative errno. */
static int rr2c_tx_begin(struct rr2c *r, struct rpc_rqst *req)
{
	struct rpc_xprt *xprt = &r->xprt;
	u32 nmsgs;

	r->tx = (struct rpcrdma2_tx){
		.vers		= r->conn.vers,
		.xid		= be32_to_cpu(req->rq_xid),
		.credit		= rpcrdma2_credit_out(r->conn.vers,
						      RR2C_CREDITS),
		/* V2-FRAME-08: RESPONSE is the msg_type; V2-RDIR-09 */
		.flags		= bc_prealloc(req) ? RDMA2_F_RESPONSE : 0,
		.inline_size	= r->conn.send_inline,
		.payload	= &req->rq_snd_buf,
	};
	nmsgs = rpcrdma2_tx_nmsgs(&r->tx);
	if (!nmsgs) {
		r->stats.too_big++;
		trace_rpcrdma2_clnt_too_big(r->tx.xid, r->tx.vers, 0,
					    req->rq_snd_buf.len);
		return -EMSGSIZE;
	}
	if (nmsgs > 1)
		r->stats.cont_msgs++;
	r->tx_nmsgs = nmsgs;	/* the window opens with the first Send */
	r->tx_req = req;
	r->tx_xid = req->rq_xid;
	r->tx_cookie = xprt->connect_cookie;
	req->rq_xtime = ktime_get();	/* per-op RTT in mountstats */
	return nmsgs;
}

static int rr2c_op_send_request(struct rpc_rqst *req)
{
	struct rpc_xprt *xprt = req->rq_xprt;
	struct rr2c *r = rr2c(xprt);
	struct rpcrdma2_send *sd;
	int more, ret;
	u32 len;

	if (!xprt_connected(xprt))
		return -ENOTCONN;
	ret = rr2c_alloc_sparse_pages(&req->rq_rcv_buf);
	if (ret)
		return ret;
	/* a Reply to a reverse Call uses no forward credit (RFC 8167) */
	if (!bc_prealloc(req) && !xprt_request_get_cong(xprt, req))
		return -EBADSLT;

	spin_lock(&r->tx_lock);
	if (!rr2c_tx_is(r, req)) {
		if (r->tx_req && r->tx.msgno &&
		    r->tx_cookie == xprt->connect_cookie) {
			/* another message was left half cut */
			rr2c_tx_abandon(r);
			spin_unlock(&r->tx_lock);
			xprt_force_disconnect(xprt);
			return -ENOTCONN;
		}
		ret = rr2c_tx_begin(r, req);
		if (ret < 0) {
			spin_unlock(&r->tx_lock);
			return ret;
		}
	}
	do {
		if (rr2c_test_stalled(r))
			goto stall;
		if (!rpcrdma2_seq_may_send(&r->seq, r->tx.msgno + 1))
			goto wait;
		sd = rpcrdma2_pool_get(&r->pool, false);
		if (!sd)
			goto wait;
		/*
		 * Count the acknowledgments owed only once something is
		 * sent: a message dropped before its first Send owes none.
		 */
		if (!r->tx.msgno)
			rpcrdma2_seq_start(&r->seq, r->tx_nmsgs);
		more = rpcrdma2_tx_next(&r->tx, sd->buf, &len);
		ret = more < 0 ? more : rpcrdma2_ep_post_send(sd, len, 0);
		if (ret) {
			rpcrdma2_pool_put(&r->pool, sd);
			r->tx_req = NULL;
			spin_unlock(&r->tx_lock);
			xprt_force_disconnect(xprt);
			return -ENOTCONN;
		}
		r->stats.sends++;
		req->rq_bytes_sent = r->tx.off + 1;	/* in progress */
	} while (more);
	r->tx_req = NULL;
	spin_unlock(&r->tx_lock);
	req->rq_bytes_sent = 0;
	req->rq_xmit_bytes_sent += req->rq_snd_buf.len;
	trace_rpcrdma2_clnt_call(r->tx.xid, r->conn.vers, r->tx.msgno,
				 req->rq_snd_buf.len);
	return 0;

wait:
	ret = rr2c_wait_room(r);
	spin_unlock(&r->tx_lock);
	return ret;
stall:
	r->stats.write_waits++;
	xprt_wait_for_buffer_space(xprt);
	spin_unlock(&r->tx_lock);
	return -EAGAIN;
}

/*
 * The RPC layer takes @req off the transmit queue before it was sent
 * in full (a soft timeout, a signal, umount -f).  If some of its Sends
 * are already out, the connection cannot carry another message.
 */
static void rr2c_op_abort_send_request(struct rpc_rqst *req)
{
	struct rr2c *r = rr2c(req->rq_xprt);
	bool abandoned = false;

	spin_lock(&r->tx_lock);
	if (rr2c_tx_is(r, req)) {
		abandoned = r->tx.msgno;
		if (abandoned)
			rr2c_tx_abandon(r);
		r->tx_req = NULL;
	}
	spin_unlock(&r->tx_lock);
	if (abandoned)
		xprt_force_disconnect(req->rq_xprt);
}

/*
 * Swap over NFS/RDMA.  Receive buffers are preallocated and Send
 * buffers are pooled, so the data path allocates nothing; what is left
 * is to count the swap users, which makes the RPC layer mark this
 * transport's tasks RPC_TASK_SWAPPER and the connect worker run with
 * PF_MEMALLOC.
 */
static int rr2c_op_enable_swap(struct rpc_xprt *xprt)
{
	atomic_inc(&xprt->swapper);
	return 0;
}

static void rr2c_op_disable_swap(struct rpc_xprt *xprt)
{
	atomic_dec(&xprt->swapper);
}

/* Fault injection (sunrpc's "disconnect" fault): drop the connection. */
static void rr2c_op_inject_disconnect(struct rpc_xprt *xprt)
{
	struct rr2c *r = rr2c(xprt);

	if (xprt_connected(xprt) && r->id)
		rdma_disconnect(r->id);
}

static void rr2c_op_set_port(struct rpc_xprt *xprt, unsigned short port)
{
	rpcrdma2_xprt_set_port(xprt, port);
}

static void rr2c_op_timer(struct rpc_xprt *xprt, struct rpc_task *task)
{
	xprt_force_disconnect(xprt);
}

static void rr2c_op_set_connect_timeout(struct rpc_xprt *xprt,
					unsigned long connect_timeout,
					unsigned long reconnect_timeout)
{
	spin_lock(&xprt->transport_lock);
	if (connect_timeout < xprt->connect_timeout)
		xprt->connect_timeout = connect_timeout;
	if (reconnect_timeout < xprt->max_reconnect_timeout)
		xprt->max_reconnect_timeout = reconnect_timeout;
	spin_unlock(&xprt->transport_lock);
}

/*
 * /proc/self/mountstats: "xprt: rdma" and the 27 counters mountstats(8)
 * and nfsiostat(8) read for it, in their order (those that have no
 * meaning without chunks are 0), then rpcrdma2's own as name/value
 * pairs after the word "rpcrdma2", which those tools ignore.
 */
static void rr2c_op_print_stats(struct rpc_xprt *xprt, struct seq_file *seq)
{
	struct rr2c *r = rr2c(xprt);
	long idle = 0;

	if (xprt_connected(xprt))
		idle = (long)(jiffies - xprt->last_used) / HZ;
	seq_printf(seq, "\txprt:\trdma %u %lu %lu %lu %ld %lu %lu %lu %llu %llu ",
		   0, xprt->stat.bind_count, xprt->stat.connect_count,
		   xprt->stat.connect_time / HZ, idle, xprt->stat.sends,
		   xprt->stat.recvs, xprt->stat.bad_xids, xprt->stat.req_u,
		   xprt->stat.bklog_u);
	/* segments, RDMA octets, pull-up/fix-up/hardway: none without DDP */
	seq_puts(seq, "0 0 0 0 0 0 0 0 ");
	seq_printf(seq, "%llu %llu 0 0 0 0 0 0 %llu ",
		   r->stats.too_big, r->stats.bad_hdrs + r->stats.errors,
		   r->stats.write_waits);
	seq_printf(seq, "rpcrdma2 vers %u inline %u/%u sends %llu continued %llu recvs %llu grants %llu errors %llu bad_hdrs %llu bad_xids %llu hellos %llu bc_calls %llu bc_dropped %llu aborted %llu errors_sent %llu\n",
		   r->conn.vers, r->conn.send_inline, r->conn.recv_inline,
		   r->stats.sends, r->stats.cont_msgs, r->stats.recvs,
		   r->stats.grants, r->stats.errors, r->stats.bad_hdrs,
		   r->stats.bad_xids, r->stats.hellos, r->stats.bc_calls,
		   r->stats.bc_dropped, r->stats.aborted_seqs,
		   r->stats.errors_sent);
}

static const struct rpc_timeout rr2c_timeout = {
	.to_initval	= 60 * HZ,
	.to_maxval	= 60 * HZ,
};

static const struct rpc_xprt_ops rr2c_ops = {
	.reserve_xprt		= xprt_reserve_xprt_cong,
	.release_xprt		= xprt_release_xprt_cong,
	.alloc_slot		= xprt_alloc_slot,
	.free_slot		= xprt_free_slot,
	.release_request	= xprt_release_rqst_cong,
	.wait_for_reply_request	= xprt_wait_for_reply_request_def,
	.timer			= rr2c_op_timer,
	.rpcbind		= rpcb_getport_async,
	.set_port		= rr2c_op_set_port,
	.connect		= rr2c_op_connect,
	.buf_alloc		= rpc_malloc,
	.buf_free		= rpc_free,
	.send_request		= rr2c_op_send_request,
	.abort_send_request	= rr2c_op_abort_send_request,
	.close			= rr2c_op_close,
	.destroy		= rr2c_op_destroy,
	.set_connect_timeout	= rr2c_op_set_connect_timeout,
	.print_stats		= rr2c_op_print_stats,
	.enable_swap		= rr2c_op_enable_swap,
	.disable_swap		= rr2c_op_disable_swap,
	.inject_disconnect	= rr2c_op_inject_disconnect,
	.bc_setup		= rr2c_bc_setup,
	.bc_maxpayload		= rr2c_bc_maxpayload,
	.bc_num_slots		= rr2c_bc_num_slots,
	.bc_free_rqst		= rr2c_bc_free_rqst,
	.bc_destroy		= rr2c_bc_destroy,
};

static struct rpc_xprt *rpcrdma2_clnt_setup(struct xprt_create *args)
{
	struct rpc_xprt *xprt;
	struct rr2c *r;

	if (args->addrlen > sizeof(xprt->addr))
		return ERR_PTR(-EBADF);
	if (args->dstaddr->sa_family != AF_INET &&
	    args->dstaddr->sa_family != AF_INET6)
		return ERR_PTR(-EAFNOSUPPORT);
	if (!try_module_get(THIS_MODULE))
		return ERR_PTR(-EIO);
	xprt = xprt_alloc(args->net, sizeof(*r), RR2C_SLOTS, RR2C_SLOTS);
	if (!xprt) {
		module_put(THIS_MODULE);
		return ERR_PTR(-ENOMEM);
	}
	r = rr2c(xprt);
	xprt->timeout = &rr2c_timeout;
	xprt->connect_timeout = xprt->timeout->to_initval;
	xprt->max_reconnect_timeout = xprt->timeout->to_maxval;
	xprt->bind_timeout = RR2C_BIND_TO;
	xprt->reestablish_timeout = RR2C_INIT_REEST_TO;
	xprt->idle_timeout = RR2C_IDLE_TO;
	xprt->resvport = 0;
	xprt->ops = &rr2c_ops;
	xprt->prot = IPPROTO_TCP;	/* side protocols peek at it */
	xprt->xprt_class = &rpcrdma2_clnt_class;
	xprt->addrlen = args->addrlen;
	memcpy(&xprt->addr, args->dstaddr, args->addrlen);
	if (rpc_get_port((struct sockaddr *)&xprt->addr))
		xprt_set_bound(xprt);
	rpcrdma2_xprt_addresses(xprt);
	xprt->max_payload = RPCRDMA2_MAX_CONT_MSG - 8192;
	xprt->cwnd = RPC_CWNDSCALE;	/* one credit until granted */

	r->vers_cap = RPCRDMA2_VERS_2;
	spin_lock_init(&r->tx_lock);
	init_completion(&r->cm_done);
	init_completion(&r->nego_done);
	INIT_DELAYED_WORK(&r->connect_work, rr2c_connect_worker);
	return xprt;
}

#if IS_ENABLED(CONFIG_RPCRDMA2_KUNIT_TEST)
u32 rpcrdma2_clnt_test_version(struct rpc_xprt *xprt)
{
	return rr2c(xprt)->conn.vers;
}

u32 rpcrdma2_clnt_test_grant(struct rpc_xprt *xprt)
{
	return READ_ONCE(xprt->cwnd) >> RPC_CWNDSHIFT;
}

u64 rpcrdma2_clnt_test_hellos(struct rpc_xprt *xprt)
{
	return rr2c(xprt)->stats.hellos;
}

/* Stall before Send @msgno (1-based); 0: room is back, go on. */
void rpcrdma2_clnt_test_stall(struct rpc_xprt *xprt, u32 msgno)
{
	WRITE_ONCE(rr2c(xprt)->test_stall_at, msgno);
	if (!msgno)
		xprt_write_space(xprt);
}

u32 rpcrdma2_clnt_test_tx_msgno(struct rpc_xprt *xprt)
{
	struct rr2c *r = rr2c(xprt);
	u32 n;

	spin_lock(&r->tx_lock);
	n = r->tx_req ? r->tx.msgno : 0;
	spin_unlock(&r->tx_lock);
	return n;
}

void rpcrdma2_clnt_test_set_grant(struct rpc_xprt *xprt, u32 grant)
{
	rr2c_set_grant(rr2c(xprt), grant);
}
#endif

static struct xprt_class rpcrdma2_clnt_class = {
	.list	= LIST_HEAD_INIT(rpcrdma2_clnt_class.list),
	.name	= "rpcrdma2",
	.owner	= THIS_MODULE,
	.ident	= XPRT_TRANSPORT_RDMA,
	.setup	= rpcrdma2_clnt_setup,
	.netid	= { "rdma", "rdma6", "" },
};

int rpcrdma2_clnt_register(void)
{
	return xprt_register_transport(&rpcrdma2_clnt_class);
}

void rpcrdma2_clnt_unregister(void)
{
	xprt_unregister_transport(&rpcrdma2_clnt_class);
}
