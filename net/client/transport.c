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

static void rr2c_set_grant(struct rr2c *r, u32 grant)
{
	struct rpc_xprt *xprt = &r->xprt;

	if (!grant)
		return;			/* V2-CRED-03: keep the previous one */
	grant = min_t(u32, grant, RR2C_CREDITS);
	spin_lock(&xprt->transport_lock);
	if (xprt->cwnd != grant << RPC_CWNDSHIFT) {
		xprt->cwnd = grant << RPC_CWNDSHIFT;
		trace_rpcrdma2_clnt_grant(r->conn.vers, grant);
	}
	xprt->ops->release_xprt(xprt, NULL);	/* wake a waiting sender */
	spin_unlock(&xprt->transport_lock);
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
		r->peer_pdata_ok = rpcrdma2_ep_peer_pdata(ev, &r->peer_pdata);
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
	xprt_write_space(&r->xprt);
}

static void rr2c_repost(struct rr2c *r, struct rpcrdma2_recv *rv)
{
	if (rpcrdma2_ep_post_recv(rv))
		xprt_force_disconnect(&r->xprt);
}

/* Send a credit-grant-only message (V2-CRED-08) as a window ack. */
static void rr2c_send_ack(struct rr2c *r)
{
	struct rpcrdma2_send *sd = rpcrdma2_pool_get(&r->pool, true);
	u32 credit = rpcrdma2_credit_out(r->conn.vers, RR2C_CREDITS);
	u32 len;

	if (!sd) {
		xprt_force_disconnect(&r->xprt);
		return;
	}
	len = rpcrdma2_encode_credit_grant(sd->buf, sd->ep->attr.send_size,
					   credit);
	if (!len || rpcrdma2_ep_post_send(sd, len, 0)) {
		rpcrdma2_pool_put(&r->pool, sd);
		xprt_force_disconnect(&r->xprt);
	}
}

/* Finish the request being reassembled with @status (0: its reply). */
static void rr2c_rx_finish(struct rr2c *r, int status)
{
	struct rpc_rqst *req = r->rx_req;
	struct rpc_xprt *xprt = &r->xprt;

	if (!req) {
		r->rx_bc = false;
		return;
	}
	r->rx_req = NULL;
	if (r->rx_bc) {			/* a reverse Call: hand it to NFS */
		r->rx_bc = false;
		if (status)
			rr2c_bc_free_rqst(req);
		else
			rr2c_bc_deliver(r, req, r->rx_off);
		r->rx_off = 0;
		return;
	}
	spin_lock(&xprt->queue_lock);
	if (status)
		req->rq_task->tk_status = status;
	xprt_complete_rqst(req->rq_task, status ? 0 : r->rx_off);
	xprt_unpin_rqst(req);
	spin_unlock(&xprt->queue_lock);
	r->rx_off = 0;
}

static struct rpc_rqst *rr2c_pin(struct rr2c *r, u32 xid)
{
	struct rpc_xprt *xprt = &r->xprt;
	struct rpc_rqst *req;

	spin_lock(&xprt->queue_lock);
	req = xprt_lookup_rqst(xprt, cpu_to_be32(xid));
	if (req)
		xprt_pin_rqst(req);
	spin_unlock(&xprt->queue_lock);
	if (!req)
		r->stats.bad_xids++;
	return req;
}

/* Copy payload octets into the reply buffer, dropping what overflows. */
static void rr2c_rx_copy(struct rr2c *r, const void *data, u32 len)
{
	r->rx_off += rpcrdma2_copy_to_xdr(&r->rx_req->rq_private_buf,
					  r->rx_off, data, len);
}

/* An RPC Reply message, or one part of a continued one. */
static void rr2c_recv_msg(struct rr2c *r, const struct rpcrdma2_hdr *hdr,
			  const void *buf, u32 len)
{
	u32 plen = len - hdr->hdrlen;
	bool more = hdr->flags & RDMA2_F_MORE;

	switch (rpcrdma2_reasm_add(&r->reasm, hdr, plen)) {
	case RPCRDMA2_REASM_DISCARD:
		return;
	case RPCRDMA2_REASM_FAULT:	/* V2-CONT-06/09: a Requester drops */
		rr2c_rx_finish(r, -EIO);
		r->stats.bad_hdrs++;
		return;
	default:
		break;
	}
	if (r->reasm.nmsgs == 1) {
		r->rx_off = 0;
		r->rx_bc = rpcrdma2_rpc_is_call((const u8 *)buf + hdr->hdrlen,
						plen);
		if (r->rx_bc)		/* RFC 8167: the server calls us */
			r->rx_req = rr2c_bc_take(r, hdr->xid);
		else
			r->rx_req = rr2c_pin(r, hdr->xid);
	}
	if (r->rx_req)
		rr2c_rx_copy(r, (const u8 *)buf + hdr->hdrlen, plen);
	if (rpcrdma2_seq_ack_due(r->reasm.nmsgs, more))
		rr2c_send_ack(r);
	if (!more)
		rr2c_rx_finish(r, 0);
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

static void rr2c_recv_error(struct rr2c *r, const struct rpcrdma2_hdr *hdr)
{
	r->stats.errors++;
	trace_rpcrdma2_clnt_error(hdr->xid, hdr->vers, hdr->err);
	rr2c_rx_finish(r, -EIO);
	r->rx_req = rr2c_pin(r, hdr->xid);
	rr2c_rx_finish(r, rr2c_errno(hdr));
}

/* A control message negotiation asks for (E-35: BAD_PROPVAL). */
static void rr2c_send_nego(struct rr2c *r, const void *msg, u32 len)
{
	struct rpcrdma2_send *sd = rpcrdma2_pool_get(&r->pool, true);

	if (!sd) {
		xprt_force_disconnect(&r->xprt);
		return;
	}
	memcpy(sd->buf, msg, len);
	if (rpcrdma2_ep_post_send(sd, len, 0)) {
		rpcrdma2_pool_put(&r->pool, sd);
		xprt_force_disconnect(&r->xprt);
	}
}

static void rr2c_negotiate(struct rr2c *r, const void *buf, u32 len)
{
	u8 out[RPCRDMA2_HDRLEN_ERR_MAX];
	enum rpcrdma2_nego n;
	u32 outlen;

	n = rpcrdma2_nego_client_recv(&r->conn, &r->local, buf, len,
				      out, sizeof(out), &outlen);
	if (outlen)
		rr2c_send_nego(r, out, outlen);
	if (n == RPCRDMA2_NEGO_MORE || n == RPCRDMA2_NEGO_REJECT)
		return;
	if (n == RPCRDMA2_NEGO_REPLY)
		n = RPCRDMA2_NEGO_DONE;		/* settled; the error is sent */
	if (n == RPCRDMA2_NEGO_DONE && len >= 12) {
		u32 word = get_unaligned_be32((const u8 *)buf + 8);

		r->nego_grant = rpcrdma2_credit_in(r->conn.vers, word);
	}
	r->nego = n;
	complete(&r->nego_done);
}

static const struct rpcrdma2_limits rr2c_limits = {
	.max_read_chunks	= 0,
	.max_write_chunks	= 0,
	.max_segments		= 0,
};

static void rr2c_recv_done(struct rpcrdma2_recv *rv)
{
	struct rr2c *r = rv->ep->priv;
	struct rpcrdma2_hdr hdr;
	int ret;

	if (rv->status != IB_WC_SUCCESS) {
		if (rv->status != IB_WC_WR_FLUSH_ERR)
			trace_rpcrdma2_wc_error(&r->xprt.addr, "recv",
						rv->status);
		rr2c_rx_finish(r, -ECONNABORTED);
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
	if (ret) {
		/* A Requester never answers an error with an error. */
		r->stats.bad_hdrs++;
		goto repost;
	}
	if (hdr.vers != r->conn.vers) {		/* V2-FRAME-20 */
		r->stats.bad_hdrs++;
		goto repost;
	}
	/* a reverse Call's credit word is not a grant for our Calls */
	if (hdr.htype != RDMA2_MSG ||
	    !(r->reasm.active ? r->rx_bc :
	      rpcrdma2_rpc_is_call((u8 *)rv->buf + hdr.hdrlen,
				   rv->len - hdr.hdrlen)))
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
		/* NOMSG needs a Reply chunk, which we never offer; a late
		 * CONNPROP changes nothing once settled.
		 */
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
	rr2c_rx_finish(r, -ECONNABORTED);
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
	if (r->nego != RPCRDMA2_NEGO_DONE)
		return -EPROTO;
	if (r->conn.vers == RPCRDMA2_VERS_1)
		r->vers_cap = RPCRDMA2_VERS_1;	/* no loop on reconnect */
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
	r->local.credits = rpcrdma2_credit_out(RPCRDMA2_VERS_2, RR2C_CREDITS);
	memset(&r->seq, 0, sizeof(r->seq));
	rpcrdma2_reasm_init(&r->reasm, RPCRDMA2_MAX_CONT_MSG);
	memset(&r->conn, 0, sizeof(r->conn));	/* unsettled: vers 0 */

	r->peer_pdata_ok = false;
	rpcrdma2_ep_conn_param(&r->ep, &param, pdata, false);
	ret = rdma_connect(id, &param);
	if (!ret)
		ret = rr2c_cm_wait(r, xprt->connect_timeout);
	if (ret)
		goto fail;
	if (!r->peer_pdata_ok)
		memset(&r->peer_pdata, 0, sizeof(r->peer_pdata));
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
	int ret;

	rr2c_teardown(r);
	ret = rr2c_connect(r);
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

/* No room: ask to be woken by a Send completion or an acknowledgment. */
static int rr2c_wait_room(struct rr2c *r)
{
	r->stats.write_waits++;
	xprt_wait_for_buffer_space(&r->xprt);
	return -EAGAIN;
}

static int rr2c_op_send_request(struct rpc_rqst *req)
{
	struct rpc_xprt *xprt = req->rq_xprt;
	struct rr2c *r = rr2c(xprt);
	struct rpcrdma2_send *sd;
	u32 len, nmsgs;
	int more, ret;

	if (!xprt_connected(xprt))
		return -ENOTCONN;
	/* a Reply to a reverse Call uses no forward credit (RFC 8167) */
	if (!bc_prealloc(req) && !xprt_request_get_cong(xprt, req))
		return -EBADSLT;

	spin_lock(&r->tx_lock);
	if (r->tx_req != req || r->tx_cookie != xprt->connect_cookie) {
		r->tx = (struct rpcrdma2_tx){
			.vers		= r->conn.vers,
			.xid		= be32_to_cpu(req->rq_xid),
			.credit		= rpcrdma2_credit_out(r->conn.vers,
							      RR2C_CREDITS),
			.flags		= bc_prealloc(req) ?
					  RDMA2_F_RESPONSE : 0,
			.inline_size	= r->conn.send_inline,
			.payload	= &req->rq_snd_buf,
		};
		nmsgs = rpcrdma2_tx_nmsgs(&r->tx);
		if (!nmsgs) {
			r->stats.too_big++;
			spin_unlock(&r->tx_lock);
			trace_rpcrdma2_clnt_too_big(r->tx.xid, r->tx.vers, 0,
						    req->rq_snd_buf.len);
			return -EMSGSIZE;
		}
		if (nmsgs > 1)
			r->stats.cont_msgs++;
		rpcrdma2_seq_start(&r->seq, nmsgs);
		r->tx_req = req;
		r->tx_cookie = xprt->connect_cookie;
		req->rq_xtime = ktime_get();	/* per-op RTT in mountstats */
	}
	do {
		if (!rpcrdma2_seq_may_send(&r->seq, r->tx.msgno + 1))
			goto wait;
		sd = rpcrdma2_pool_get(&r->pool, false);
		if (!sd)
			goto wait;
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
	seq_printf(seq, "rpcrdma2 vers %u inline %u/%u sends %llu continued %llu recvs %llu grants %llu errors %llu bad_hdrs %llu bad_xids %llu hellos %llu bc_calls %llu bc_dropped %llu\n",
		   r->conn.vers, r->conn.send_inline, r->conn.recv_inline,
		   r->stats.sends, r->stats.cont_msgs, r->stats.recvs,
		   r->stats.grants, r->stats.errors, r->stats.bad_hdrs,
		   r->stats.bad_xids, r->stats.hellos, r->stats.bc_calls,
		   r->stats.bc_dropped);
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
	.close			= rr2c_op_close,
	.destroy		= rr2c_op_destroy,
	.set_connect_timeout	= rr2c_op_set_connect_timeout,
	.print_stats		= rr2c_op_print_stats,
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
