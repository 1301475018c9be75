// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 client half: sending Calls, and the credits.
 *
 * Sending: marshal.c's policy picks the format of each Call.  A Call
 * with chunks goes out as REG_MRs chained before one Send (marshal.c,
 * frwr.c).  Otherwise it is copied into Send buffers, one Send when it
 * fits the inline threshold, else a continued sequence on Version 2
 * (V2-CONT-01).  Credits are the sunrpc congestion window: the server's
 * grant sets cwnd and each RPC holds one credit until its Reply
 * (V2-CRED-02, V2-CRED-04).  Continuation messages after the first use the
 * sequence window of net/shared/xfer.c.  When a Send buffer or window
 * room is missing, ->send_request waits for write space and the next
 * transmit resumes the same request where it stopped; the transmit
 * queue guarantees nothing else is sent in between (V2-CONT-03).
 *
 * Called by: net/sunrpc through the rpc_xprt_ops ->send_request and
 * ->abort_send_request (transport.c); reply.c, exchange.c and
 * connect.c (the credit grant, rr2c_credit(), rr2c_tx_abandon());
 * marshal.c.
 */

#include <linux/module.h>
#include <linux/err.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/sunrpc/bc_xprt.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/sched.h>
#include <linux/sunrpc/xprt.h>
#include <linux/sunrpc/xprtrdma.h>

#include "rpcrdma2.h"
#include "client/client.h"
#include "shared/fault.h"
#include <trace/events/rpcrdma2.h>

/* ---- credits ---- */

/*
 * The Receives behind a grant: one per credit granted (V2-CRED-01),
 * plus the reverse-Call and V2-CRED-07 ones, made as the grant grows,
 * so that a server granting fewer credits than the slots asked for
 * costs no memory for the rest.  They are posted before the window
 * opens, so every Reply finds one.  When memory runs short the window
 * opens only as far as the Receives go, and the next grant tries again.
 */
static u32 rr2c_recvs_for(struct rr2c *r, u32 grant)
{
	const u32 extra = RR2C_BC_SLOTS + RPCRDMA2_RECV_EXTRA;
	u32 made;

	/*
	 * The CQ's work item runs this: never wait for reclaim here (a
	 * swap device's writeback may need this very connection), fail
	 * instead and keep the window where the Receives are
	 */
	if (READ_ONCE(r->link.ep.nr_recv_made) >= grant + extra)
		return grant;
	mutex_lock(&r->recv_lock);
	made = rpcrdma2_ep_grow_recvs(&r->link.ep, grant + extra,
				      GFP_NOWAIT | __GFP_NOMEMALLOC);
	mutex_unlock(&r->recv_lock);
	/* at least RR2C_RECV_INIT credits' worth: made with the endpoint */
	return made > extra ? min(made - extra, grant) : 1;
}

/**
 * rr2c_credit - the credit word of a message the client sends
 * @r: the transport
 * @vers: the version the message is in
 *
 * On Version 2 each end grants the other Receives (V2-CRED-01): the
 * grant half is the Receives posted for the server's messages, which
 * grow with the server's grant (rr2c_recvs_for()), less the ones kept
 * beyond the credits (V2-CRED-07, the continuation window); the
 * maximum half is the credits asked for (V2-CRED-02).  On Version 1
 * the word is the credits requested (BC1-CRED-01).
 */
u32 rr2c_credit(const struct rr2c *r, u32 vers)
{
	u32 made = READ_ONCE(r->link.ep.nr_recv_made);

	if (vers == RPCRDMA2_VERS_1)
		return rpcrdma2_credit_out(vers, r->credits);
	made = made > RPCRDMA2_RECV_EXTRA ? made - RPCRDMA2_RECV_EXTRA : 1;
	return rpcrdma2_credit_word(min_t(u32, made, RDMA2_CREDIT_GRANT_MASK),
				    min_t(u32, r->credits,
					  RDMA2_CREDIT_GRANT_MASK));
}

/*
 * Apply the server's grant, from the message @xid (0: not from a
 * message), as the congestion window.  A larger window
 * lets a Call that waits for congestion space go: clear the wait flag,
 * as sunrpc does when a credit is returned, and wake the first waiter
 * on the sending queue, which tries the transport lock again on its
 * own.  The lock itself is never released here: only its holder may do
 * that, and during autoclose that is not a task at all.
 */
void rr2c_set_grant(struct rr2c *r, u32 xid, u32 grant)
{
	struct rpc_xprt *xprt = &r->xprt;
	bool raised = false;

	if (!grant)
		return;			/* V2-CRED-03: keep the previous one */
	grant = rr2c_recvs_for(r, min(grant, r->credits));
	spin_lock(&xprt->transport_lock);
	if (xprt->cwnd != grant << RPC_CWNDSHIFT) {
		raised = xprt->cwnd < grant << RPC_CWNDSHIFT;
		xprt->cwnd = grant << RPC_CWNDSHIFT;
		trace_rpcrdma2_clnt_grant(&xprt->addr, xid, r->link.conn.vers,
					  grant);
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

/* ---- sending ---- */

/*
 * A message was abandoned after some of its Sends went out: the peer
 * holds an open sequence that nothing will finish, and the next message
 * must not be cut into it (V2-CONT-03, V2-CONT-06).  The connection is no
 * longer usable: drop it, as xprtsock does after a partial send.
 */
void rr2c_tx_abandon(struct rr2c *r)
{
	r->tx_req = NULL;
	r->stats.aborted_seqs++;
	trace_rpcrdma2_clnt_abandon(&r->xprt.addr, r->tx.xid, r->tx.vers,
				    r->tx.msgno, r->tx.off);
}

/* Is there room for the next Send of the message being cut? */
static bool rr2c_has_room(struct rr2c *r)
{
	return rpcrdma2_link_has_room(&r->link, r->tx.msgno + 1);
}

/*
 * No room: ask to be woken by a Send completion or an acknowledgment.
 * Room that came back between the caller's check and the flag being
 * set would wake nobody, so look once more after setting it.  Called
 * under tx_lock, which the acknowledgment path takes too.
 */
int rr2c_wait_room(struct rr2c *r)
{
	if (trace_rpcrdma2_clnt_wait_enabled())
		trace_rpcrdma2_clnt_wait(&r->xprt.addr, r->tx.xid,
					 rpcrdma2_seq_may_send(&r->link.seq,
							       r->tx.msgno + 1) ?
					 "no Send buffer" :
					 "continuation window full",
					 r->tx.msgno + 1);
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
		if (!*ppages && !rpcrdma2_fail(RPCRDMA2_FAIL_REPLY))
			*ppages = alloc_page(GFP_NOWAIT | __GFP_NOWARN);
		if (!*ppages)
			return -ENOBUFS;	/* retried after a delay */
	}
	return 0;
}

/*
 * A chunked Call found no Send buffer or no free MR: wait for either to
 * come back (a Send completion or a LOCAL_INV completion calls
 * xprt_write_space()).  As in rr2c_wait_room(), look once more after
 * the flag is set.
 */
static int rr2c_wait_chunks(struct rr2c *r, struct rr2c_req *req)
{
	if (trace_rpcrdma2_clnt_wait_enabled())
		trace_rpcrdma2_clnt_wait(&r->xprt.addr,
					 be32_to_cpu(req->rq.rq_xid),
					 rpcrdma2_pool_avail(&r->link.pool) ?
					 "no free MR" : "no Send buffer", 1);
	r->stats.write_waits++;
	xprt_wait_for_buffer_space(&r->xprt);
	/* the flag before the look: pairs with the completions' wakeups */
	smp_mb__after_atomic();
	if (rpcrdma2_pool_avail(&r->link.pool) && rr2c_frwr_room(r))
		xprt_write_space(&r->xprt);
	return -EAGAIN;
}

/*
 * The stage (client.h) holds inline octets of a continued Version 2
 * Reply that follow a Write chunk's position, so only a Call with a
 * Write chunk on Version 2 needs it: it is made before the first such
 * Call, not for every connection, and kept with the
 * transport.  Only the task that holds the transport gets here.
 * Returns 0, or -ENOBUFS (no memory: ->send_request is retried later).
 */
static int rr2c_stage_alloc(struct rr2c *r, struct rr2c_req *req)
{
	unsigned int nofs;
	u8 *stage;

	if (req->reply_ck != RR2C_REPLY_WRITE ||
	    r->link.conn.vers != RPCRDMA2_VERS_2 || READ_ONCE(r->rx_stage))
		return 0;
	/* the client may be writing back pages */
	nofs = memalloc_nofs_save();
	stage = kvmalloc(RR2C_STAGE_SIZE, GFP_KERNEL);
	memalloc_nofs_restore(nofs);
	if (!stage)
		return -ENOBUFS;
	/* the Receive side reads it after the Call is posted */
	WRITE_ONCE(r->rx_stage, stage);
	return 0;
}

/* Is @req the message whose cutting is under way on this connection? */
static bool rr2c_tx_is(const struct rr2c *r, const struct rpc_rqst *req)
{
	return r->tx_req == req && r->tx_xid == req->rq_xid &&
	       r->tx_cookie == r->xprt.connect_cookie;
}

/*
 * @rq has failed, or cannot be sent: fail it, and only it.
 * The task that holds the transport drains the transmit queue, and
 * xprt_transmit() hands an error from ->send_request to that task,
 * which may belong to another RPC queued behind @rq.  So the error is
 * kept for @rq's own task (rp_error), which gets it when it comes to
 * transmit with the transport in hand, and any other transmitting task
 * only waits a moment (-ENOBUFS) and lets the transport go to the next
 * task that waits for it.
 */
VISIBLE_IF_KUNIT int rr2c_fail_rqst(struct rr2c *r, struct rpc_rqst *rq,
				    int err)
{
	struct rpc_task *task = rq->rq_task;

	if (bc_prealloc(rq))
		return err;
	if (!task || task == READ_ONCE(r->xprt.snd_task)) {
		WRITE_ONCE(rr2c_req(rq)->rp_error, 0);
		return err;
	}
	WRITE_ONCE(rr2c_req(rq)->rp_error, err);
	return -ENOBUFS;
}

static int rr2c_too_big(struct rr2c *r, struct rpc_rqst *rq, int ret)
{
	r->stats.too_big++;
	trace_rpcrdma2_clnt_too_big(&r->xprt.addr, be32_to_cpu(rq->rq_xid),
				    r->link.conn.vers, 0, rq->rq_snd_buf.len);
	return ret == -ENOTCONN ? ret : rr2c_fail_rqst(r, rq, -EMSGSIZE);
}

/*
 * Before anything is locked: does marshal.c's policy give this forward
 * Call chunks, and can they be registered?  Returns 1 (chunks mapped,
 * to be posted), 0 (no chunks: inline or continued), or the errno for
 * ->send_request.
 */
static int rr2c_send_prepare(struct rr2c *r, struct rr2c_req *req)
{
	int ret;

	if (rr2c_marshal_policy(r, req) != RR2C_FMT_CHUNKS)
		return 0;
	ret = rr2c_stage_alloc(r, req);
	if (ret)
		return ret;
	ret = rr2c_marshal_prepare(r, req);
	switch (ret) {
	case 0:
		return 1;
	case -EAGAIN:
		return rr2c_wait_chunks(r, req);
	case -EALREADY:
		/* answered meanwhile: the task has its Reply */
		return ret;
	case -ENOMEM:
		/*
		 * an MR's DMA mapping (or memory) ran short: nothing is
		 * registered, the Call stays queued and sunrpc transmits
		 * it again after a delay (call_transmit_status())
		 */
		return ret;
	case -E2BIG:
		/* Version 2: continuation carries it without chunks */
		if (r->link.conn.vers == RPCRDMA2_VERS_2)
			return 0;
		fallthrough;
	default:
		return rr2c_too_big(r, &req->rq, ret);
	}
}

/* Post a prepared chunked Call; the caller holds tx_lock. */
static int rr2c_send_chunks(struct rr2c *r, struct rr2c_req *req)
{
	struct rpc_rqst *rq = &req->rq;
	int ret;

	rq->rq_xtime = ktime_get();	/* per-op RTT in mountstats */
	ret = rr2c_marshal_post(r, req);
	switch (ret) {
	case 0:
		rpcrdma2_seq_start(&r->link.seq, 1);
		rq->rq_bytes_sent = 0;
		rq->rq_xmit_bytes_sent += rq->rq_snd_buf.len;
		trace_rpcrdma2_clnt_call(&r->xprt.addr, be32_to_cpu(rq->rq_xid),
					 r->link.conn.vers, 1, rq->rq_snd_buf.len);
		return 0;
	case -ENOBUFS:
		return rr2c_wait_chunks(r, req);
	case -ENOTCONN:
		xprt_force_disconnect(&r->xprt);
		fallthrough;
	default:
		return rr2c_too_big(r, rq, ret);
	}
}

/* Begin cutting @req.  Returns the number of Sends or a negative errno. */
static int rr2c_tx_begin(struct rr2c *r, struct rpc_rqst *req)
{
	struct rpc_xprt *xprt = &r->xprt;
	u32 nmsgs, pulled;

	r->tx = (struct rpcrdma2_tx){
		.vers		= r->link.conn.vers,
		.xid		= be32_to_cpu(req->rq_xid),
		.credit		= rr2c_credit(r, r->link.conn.vers),
		/*
		 * V2-FRAME-08: RESPONSE is the msg_type; V2-RDIR-09.  A
		 * reverse Reply has its Call's XID (V2-RDIR-07, BC1-RDIR-12)
		 * and the connection's version (V2-RDIR-08).
		 */
		.flags		= bc_prealloc(req) ? RDMA2_F_RESPONSE : 0,
		.inline_size	= r->link.conn.send_inline,
		/* a reverse Reply within the server's BRS (V2-RDIR-12) */
		.single		= bc_prealloc(req) &&
				  rpcrdma2_rdir_single(&r->link.conn),
		.payload	= &req->rq_snd_buf,
	};
	nmsgs = rpcrdma2_tx_nmsgs(&r->tx);
	if (!nmsgs)
		return rr2c_too_big(r, req, -EMSGSIZE);
	if (nmsgs > 1)
		r->stats.cont_msgs++;
	/*
	 * mountstats' pullup_copy_count: what follows the head is copied,
	 * at each transmission, reverse Replies too, as stock counts it
	 */
	pulled = rpcrdma2_tx_len(&r->tx) -
		 min_t(u32, rpcrdma2_tx_len(&r->tx),
		       req->rq_snd_buf.head[0].iov_len);
	r->stats.pullup_octets += pulled;
	if (pulled)
		trace_rpcrdma2_clnt_pullup(&xprt->addr, r->tx.xid,
					   rpcrdma2_tx_len(&r->tx), pulled);
	r->tx_nmsgs = nmsgs;	/* the window opens with the first Send */
	r->tx_req = req;
	r->tx_xid = req->rq_xid;
	r->tx_cookie = xprt->connect_cookie;
	req->rq_xtime = ktime_get();	/* per-op RTT in mountstats */
	return nmsgs;
}

int rr2c_op_send_request(struct rpc_rqst *req)
{
	struct rpc_xprt *xprt = req->rq_xprt;
	struct rr2c *r = rr2c(xprt);
	int ret, chunks = 0;
	bool resuming;
	u64 sent;

	if (!xprt_connected(xprt))
		return -ENOTCONN;
	ret = rr2c_alloc_sparse_pages(&req->rq_rcv_buf);
	if (ret)
		return ret;
	spin_lock(&r->link.tx_lock);
	resuming = rr2c_tx_is(r, req);
	spin_unlock(&r->link.tx_lock);
	/*
	 * A continued Call cut part way is finished whatever came meanwhile
	 * (V2-CONT-03): its sequence holds the connection's send side, and
	 * a Call that stopped here would strand it.
	 */
	if (!bc_prealloc(req) && !resuming) {
		/*
		 * A Reply to this Call is held for its MRs' invalidation
		 * (V2-SEC-08): it answers the Call, and marshaling again
		 * would unmap and register the buffers it is about to be
		 * placed in.  Report the Call sent: the task waits for the
		 * completion as for any Reply.  Looked at again after the
		 * earlier transmission's MRs are invalidated, in case the
		 * Reply came meanwhile (rr2c_frwr_reply_inv()).
		 */
		if (rr2c_frwr_reply_held(r, rr2c_req(req)))
			return 0;
		/* a Reply already failed this RPC: do not send it again */
		ret = READ_ONCE(rr2c_req(req)->rp_error);
		if (ret)
			return rr2c_fail_rqst(r, req, ret);
		/* MRs of an earlier transmission here (V2-SEC-09) */
		rr2c_frwr_unmap_sync(r, rr2c_req(req));
		if (rr2c_frwr_reply_held(r, rr2c_req(req)))
			return 0;
		chunks = rr2c_send_prepare(r, rr2c_req(req));
		/* as for a held Reply: report the Call sent */
		if (chunks == -EALREADY)
			return 0;
		if (chunks < 0)
			return chunks;
	}
	/* a Reply to a reverse Call uses no forward credit (RFC 8167) */
	if (!bc_prealloc(req) && !xprt_request_get_cong(xprt, req)) {
		if (chunks)
			rr2c_frwr_unmap_unposted(r, rr2c_req(req));
		return -EBADSLT;
	}

	spin_lock(&r->link.tx_lock);
	if (!rr2c_tx_is(r, req)) {
		if (r->tx_req && r->tx.msgno &&
		    r->tx_cookie == xprt->connect_cookie) {
			/* another message was left half cut */
			rr2c_tx_abandon(r);
			spin_unlock(&r->link.tx_lock);
			if (chunks)
				rr2c_frwr_unmap_unposted(r, rr2c_req(req));
			xprt_force_disconnect(xprt);
			return -ENOTCONN;
		}
		if (chunks) {
			ret = rr2c_send_chunks(r, rr2c_req(req));
			spin_unlock(&r->link.tx_lock);
			return ret;
		}
		ret = rr2c_tx_begin(r, req);
		if (ret < 0) {
			spin_unlock(&r->link.tx_lock);
			return ret;
		}
	}
	sent = r->link.sends;
	ret = rpcrdma2_link_pump(&r->link, &r->tx, r->tx_nmsgs, 0, NULL);
	r->stats.sends += r->link.sends - sent;
	/* in progress: every Send cut so far is posted */
	if ((ret == -EAGAIN || ret == -ENOBUFS) && r->tx.msgno)
		req->rq_bytes_sent = r->tx.off + 1;
	switch (ret) {
	case -EAGAIN:
		ret = rr2c_wait_room(r);
		spin_unlock(&r->link.tx_lock);
		return ret;
	case -ENOBUFS:
		/*
		 * injected: no room, as when the peer withholds it; the
		 * task tries again a moment later (call_transmit_status(),
		 * HZ/4), until the site is disarmed, so nothing needs to
		 * wake it
		 */
		r->stats.write_waits++;
		spin_unlock(&r->link.tx_lock);
		return -ENOBUFS;
	case -ENOTCONN:
		rpcrdma2_link_pump_abort(&r->link, &r->tx, r->tx_nmsgs);
		r->tx_req = NULL;
		spin_unlock(&r->link.tx_lock);
		xprt_force_disconnect(xprt);
		return -ENOTCONN;
	}
	r->tx_req = NULL;
	spin_unlock(&r->link.tx_lock);
	/* -EPIPE: the Call is out, what waited behind it is not */
	if (ret)
		xprt_force_disconnect(xprt);
	req->rq_bytes_sent = 0;
	req->rq_xmit_bytes_sent += req->rq_snd_buf.len;
	if (bc_prealloc(req))
		trace_rpcrdma2_clnt_bc_reply(&xprt->addr, r->tx.xid,
					     r->link.conn.vers, r->tx.msgno,
					     req->rq_snd_buf.len);
	else
		trace_rpcrdma2_clnt_call(&xprt->addr, r->tx.xid, r->link.conn.vers,
					 r->tx.msgno, req->rq_snd_buf.len);
	return 0;
}

/*
 * The RPC layer takes @req off the transmit queue before it was sent
 * in full (a soft timeout, a signal, umount -f).  If some of its Sends
 * are already out, the connection cannot carry another message.
 */
void rr2c_op_abort_send_request(struct rpc_rqst *req)
{
	struct rr2c *r = rr2c(req->rq_xprt);
	bool abandoned = false;

	spin_lock(&r->link.tx_lock);
	if (rr2c_tx_is(r, req)) {
		abandoned = r->tx.msgno;
		if (abandoned)
			rr2c_tx_abandon(r);
		r->tx_req = NULL;
	}
	spin_unlock(&r->link.tx_lock);
	if (abandoned)
		xprt_force_disconnect(req->rq_xprt);
}
