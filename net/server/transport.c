// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 server half: the svc_xprt class "rdma".
 *
 * nfsd creates listeners by class name ("rpc.nfsd --rdma=20049" writes
 * "rdma 20049" to /proc/fs/nfsd/portlist), so owning the name "rdma" is
 * what makes this module the NFS/RDMA server transport.
 *
 * Listener: an rdma_cm_id listening on the address nfsd gives (IPv6
 * listeners are v6-only so that the IPv4 one can share the port).  A
 * CONNECT_REQUEST becomes a connection object queued on the listener;
 * an nfsd thread accepts it in ->xpo_accept, where the endpoint is
 * created, every Receive posted and rdma_accept() sent with the RFC
 * 8797 record.
 *
 * Connection, receive side (the CQ's work item, one completion at a
 * time): the first message settles the version (seed 001 4.2.3; a
 * CONNPROP is answered with ours, a version above rdmavers with
 * ERR_VERS).  After that each message is decoded by the shared codec;
 * rejections are answered with the error the codec names (V2-SEC-17,
 * in the RFC 8166 layout on Version 1) or dropped silently.  A message
 * that is not continued is queued as it is and its Receive is held
 * until an nfsd thread copies it out (at most one per credit).  The
 * parts of a continued message are copied into pages at once and their
 * Receives reposted, so a sequence only ever occupies the window.
 *
 * Connection, nfsd side: ->xpo_recvfrom copies one queued Call into the
 * rqstp's pages; ->xpo_sendto cuts the Reply into Sends under
 * xpt_mutex, which keeps a continued Reply's messages together (E-31)
 * and waits for Send buffers and window acknowledgments.
 *
 * Credits: the server grants RR2S_CREDITS_INIT at first.  When a
 * client has every granted credit in use, a work item raises the grant
 * to RR2S_CREDITS with a credit-grant-only message (RDMA2_NOMSG, xid 0,
 * V2-CRED-05/-08), posted under xpt_mutex so that no Reply overtakes
 * it.  Every message carries the current grant.
 *
 * Called by: net/sunrpc (svc_xprt_create and the svc_xprt_ops), the
 * module core.
 */

#include <linux/module.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/highmem.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/xprtrdma.h>
#include <rdma/ib_cm.h>
#include <rdma/rdma_cm.h>

#include "rpcrdma2.h"
#include "server/server.h"
#include <trace/events/rpcrdma2.h>

/*
 * What the server really takes from a Requester, and so what its
 * errors and its RCSIZ say (V2-ERR-32, V2-ERR-33, V2-ERR-38): no Read
 * chunk (the Call must arrive inline or continued); Write and Reply
 * chunks are accepted, and left unused while the Reply fits inline.
 */
static const struct rpcrdma2_limits rr2s_limits = {
	.max_read_chunks	= 0,
	.max_write_chunks	= 8,
	.max_segments		= 32,
};

static struct svc_xprt_class rpcrdma2_svc_class;

/* Credit grants are sent from here; nfsd may be reclaiming memory. */
static struct workqueue_struct *rr2s_wq;

static struct rr2s_listener *rr2s_listener(struct svc_xprt *xprt)
{
	return container_of(xprt, struct rr2s_listener, b.xprt);
}

u32 rr2s_credit(const struct rr2s_conn *c)
{
	return rpcrdma2_credit_out(c->conn.vers ?: RPCRDMA2_VERS_2,
				   READ_ONCE(c->grant));
}

/* ---- control messages: credit grants and errors ---- */

void rr2s_close(struct rr2s_conn *c)
{
	svc_xprt_deferred_close(&c->b.xprt);
}

static void rr2s_send_ctrl(struct rr2s_conn *c, const void *msg, u32 len)
{
	if (rpcrdma2_pool_send_ctrl(&c->pool, msg, len))
		rr2s_close(c);
}

static void rr2s_send_grant(struct rr2s_conn *c)
{
	u8 msg[RPCRDMA2_HDRLEN_NOCHUNKS];

	u32 len = rpcrdma2_encode_credit_grant(msg, sizeof(msg),
					       rr2s_credit(c));

	rr2s_send_ctrl(c, msg, len);
}

/* Answer a rejected message (V2-SEC-17); never answer an error. */
static void rr2s_send_error(struct rr2s_conn *c, const struct rpcrdma2_hdr *h,
			    int verdict, u32 arg)
{
	u32 vers = c->conn.vers, err = verdict;
	u8 msg[64];

	if (verdict == RPCRDMA2_DROP || h->htype == RDMA2_ERROR)
		return;
	if (vers == RPCRDMA2_VERS_1 && err != RDMA2_ERR_VERS)
		err = rpcrdma2_v1_errcode(verdict);
	trace_rpcrdma2_svc_error(h->xid, vers, err);
	rr2s_send_ctrl(c, msg, rpcrdma2_encode_error(msg, sizeof(msg), vers,
						     h->xid, h->vers,
						     rr2s_credit(c), err, arg,
						     c->local.max_vers));
}

static void rr2s_grant_worker(struct work_struct *work)
{
	struct rr2s_conn *c = container_of(work, struct rr2s_conn, grant_work);
	struct svc_xprt *xprt = &c->b.xprt;
	u32 old = READ_ONCE(c->grant);

	/*
	 * Under xpt_mutex no Reply is being posted, so the client still
	 * has every credit in use when this grant reaches it, and cannot
	 * mistake it for a window acknowledgment.
	 */
	mutex_lock(&xprt->xpt_mutex);
	if (!svc_xprt_is_dead(xprt) && old < RR2S_CREDITS &&
	    atomic_read(&c->outstanding) >= old) {
		WRITE_ONCE(c->grant, RR2S_CREDITS);
		trace_rpcrdma2_svc_grant(old, RR2S_CREDITS);
		/*
		 * V2-FRAME-24: a Version 1 connection carries no Version 2
		 * message; there the next Reply's credit field says it.
		 */
		if (c->conn.vers == RPCRDMA2_VERS_2)
			rr2s_send_grant(c);
	}
	mutex_unlock(&xprt->xpt_mutex);
	svc_xprt_put(xprt);
}

/* ---- receive side: the CQ work item ---- */

static void rr2s_repost(struct rr2s_conn *c, struct rpcrdma2_recv *rv)
{
	if (rpcrdma2_ep_post_recv(rv))
		rr2s_close(c);
}

static void rr2s_free_pages(struct rr2s_msg *m)
{
	u32 i;

	for (i = 0; i < m->npages; i++)
		put_page(m->pages[i]);
	kfree(m->pages);
	kfree(m);
}

/* Append a continuation part to the message being reassembled. */
static int rr2s_asm_append(struct rr2s_conn *c, const u8 *src, u32 len)
{
	struct rr2s_msg *m = c->asm_msg;

	if (!m) {
		m = kzalloc(sizeof(*m), GFP_KERNEL);
		if (!m)
			return -ENOMEM;
		m->pages = kcalloc(DIV_ROUND_UP(c->asm_max, PAGE_SIZE),
				   sizeof(*m->pages), GFP_KERNEL);
		if (!m->pages) {
			kfree(m);
			return -ENOMEM;
		}
		c->asm_msg = m;
	}
	while (len) {
		u32 pg = m->len >> PAGE_SHIFT, off = offset_in_page(m->len);
		u32 n = min_t(u32, len, PAGE_SIZE - off);

		if (pg == m->npages) {
			m->pages[pg] = alloc_page(GFP_KERNEL);
			if (!m->pages[pg])
				return -ENOMEM;
			m->npages++;
		}
		memcpy_to_page(m->pages[pg], off, src, n);
		m->len += n;
		src += n;
		len -= n;
	}
	return 0;
}

static void rr2s_asm_drop(struct rr2s_conn *c)
{
	if (c->asm_msg)
		rr2s_free_pages(c->asm_msg);
	c->asm_msg = NULL;
}

static void rr2s_queue(struct rr2s_conn *c, struct rr2s_msg *m)
{
	struct svc_xprt *xprt = &c->b.xprt;

	spin_lock(&c->rq_lock);
	list_add_tail(&m->list, &c->ready);
	spin_unlock(&c->rq_lock);
	if (atomic_inc_return(&c->outstanding) >= READ_ONCE(c->grant) &&
	    READ_ONCE(c->grant) < RR2S_CREDITS) {
		svc_xprt_get(xprt);
		if (!queue_work(rr2s_wq, &c->grant_work))
			svc_xprt_put(xprt);
	}
	set_bit(XPT_DATA, &xprt->xpt_flags);
	svc_xprt_enqueue(xprt);
}

/* Forget the message being reassembled (V2-ERR-23). */
static void rr2s_asm_abort(struct rr2s_conn *c, const struct rpcrdma2_hdr *h)
{
	rpcrdma2_reasm_abort(&c->reasm, h);
	rr2s_asm_drop(c);
	c->asm_call = false;
}

/*
 * The first message of an RPC message.  Returns 0, or the error to
 * answer it with: BAD_XDR when rdma_xid is not the RPC XID (V2-ERR-26;
 * ERR_CHUNK on Version 1, RFC 8166 section 4.5.2) or when the flags
 * contradict the payload.
 */
static int rr2s_msg_start(struct rr2s_conn *c, const struct rpcrdma2_hdr *h,
			  const void *payload, u32 plen)
{
	bool ok;

	c->asm_call = rpcrdma2_rpc_msg_is_call(h, payload, plen, &ok);
	if (!ok || !rpcrdma2_rpc_xid_ok(h, payload, plen))
		return RDMA2_ERR_BAD_XDR;
	return 0;
}

/*
 * An RDMA_MSG / RDMA2_MSG Call.  Returns true if the Receive was kept
 * (queued for nfsd), false if the caller reposts it.
 */
static bool rr2s_recv_call(struct rr2s_conn *c, struct rpcrdma2_recv *rv,
			   const struct rpcrdma2_hdr *h)
{
	const u8 *payload = (const u8 *)rv->buf + h->hdrlen;
	u32 plen = rv->len - h->hdrlen;
	bool more = h->flags & RDMA2_F_MORE;
	enum rpcrdma2_reasm_verdict v;
	struct rr2s_msg *m;
	int err;

	v = rpcrdma2_reasm_add(&c->reasm, h, plen);
	switch (v) {
	case RPCRDMA2_REASM_DISCARD:
		return false;
	case RPCRDMA2_REASM_FAULT:			/* V2-ERR-22 */
		rr2s_asm_drop(c);
		rr2s_send_error(c, h, RDMA2_ERR_INVAL_CONT, 0);
		return false;
	default:
		break;
	}
	if (c->reasm.nmsgs == 1) {
		err = rr2s_msg_start(c, h, payload, plen);
		if (err) {
			rr2s_asm_abort(c, h);
			rr2s_send_error(c, h, err, 0);
			return false;
		}
	}
	if (v == RPCRDMA2_REASM_DONE && c->reasm.nmsgs == 1) {
		if (!c->asm_call) {
			/* a Reply to one of our reverse Calls (RFC 8167) */
			rr2s_bc_reply(c, payload, plen, NULL);
			return false;
		}
		m = &c->slots[rv - c->ep.recvs];
		m->rv = rv;
		m->off = h->hdrlen;
		m->len = plen;
		rr2s_queue(c, m);
		return true;
	}
	if (rr2s_asm_append(c, payload, plen)) {
		rr2s_asm_abort(c, h);
		rr2s_close(c);
		return false;
	}
	if (rpcrdma2_seq_ack_due(c->reasm.nmsgs, more))
		rr2s_send_grant(c);
	if (!more) {
		m = c->asm_msg;
		c->asm_msg = NULL;
		if (c->asm_call) {
			rr2s_queue(c, m);
		} else {
			rr2s_bc_reply(c, NULL, m->len, m->pages);
			rr2s_free_pages(m);
		}
	}
	return false;
}

/*
 * The first message(s) of a connection settle its version.  Returns
 * true when the message is an RPC to process as usual.
 */
static bool rr2s_negotiate(struct rr2s_conn *c, struct rpcrdma2_recv *rv)
{
	u8 out[RPCRDMA2_V1_DEF_INLINE];
	enum rpcrdma2_nego n;
	u32 outlen;

	n = rpcrdma2_nego_server_recv(&c->conn, &c->local, rv->buf, rv->len,
				      out, sizeof(out), &outlen);
	if (n == RPCRDMA2_NEGO_REPLY || n == RPCRDMA2_NEGO_REJECT ||
	    n == RPCRDMA2_NEGO_REJECT_REPLY)
		rr2s_send_ctrl(c, out, outlen);
	if (n == RPCRDMA2_NEGO_REJECT_REPLY)	/* E-35: then our CONNPROP */
		rr2s_send_ctrl(c, out, rpcrdma2_nego_server_hello(&c->local, out,
								  sizeof(out)));
	else if (n == RPCRDMA2_NEGO_FAIL)
		rr2s_close(c);
	if (c->conn.vers && n != RPCRDMA2_NEGO_MORE) {
		trace_rpcrdma2_svc_settled(&c->b.xprt.xpt_remote,
					   c->conn.vers, c->conn.send_inline,
					   c->conn.recv_inline);
		pr_info_ratelimited("rpcrdma2: client %pISpc settled RPC-over-RDMA version %u, inline %u/%u\n",
				    &c->b.xprt.xpt_remote, c->conn.vers,
				    c->conn.send_inline, c->conn.recv_inline);
	}
	return n == RPCRDMA2_NEGO_RPC;
}

static void rr2s_recv_done(struct rpcrdma2_recv *rv)
{
	struct rr2s_conn *c = rv->ep->priv;
	struct rpcrdma2_hdr h;
	int ret;

	if (rv->status != IB_WC_SUCCESS) {
		if (rv->status != IB_WC_WR_FLUSH_ERR)
			trace_rpcrdma2_wc_error(&c->b.xprt.xpt_remote, "recv",
						rv->status);
		rr2s_close(c);
		return;
	}
	rpcrdma2_ep_recv_sync(rv);
	if (!c->conn.vers && !rr2s_negotiate(c, rv))
		goto repost;
	ret = rpcrdma2_decode_hdr(rv->buf, rv->len, c->conn.vers,
				  &rr2s_limits, &h);
	trace_rpcrdma2_recv(&c->b.xprt.xpt_remote, rv->len, ret, &h);
	if (!ret && h.vers != c->conn.vers)
		ret = RDMA2_ERR_VERS;			/* V2-FRAME-20 */
	if (!ret)		/* V2-PROP-13: CONNPROP is once per connection */
		ret = rpcrdma2_nego_settled_check(&c->conn, &h);
	if (ret) {
		/*
		 * A rejected message ends any open sequence (E-31), so a
		 * retransmission starts afresh, and the rest of its own
		 * sequence is dropped unread (V2-ERR-23).
		 */
		rr2s_asm_abort(c, &h);
		rr2s_send_error(c, &h, ret, ret == RDMA2_ERR_VERS ?
				RPCRDMA2_VERS_1 : h.reject_arg);
		goto repost;
	}
	if (rpcrdma2_is_credit_grant(&h)) {
		bool ack;

		spin_lock(&c->tx_lock);
		ack = rpcrdma2_seq_grant(&c->seq);
		spin_unlock(&c->tx_lock);
		if (ack)
			wake_up(&c->send_wait);
		goto repost;
	}
	switch (h.htype) {
	case RDMA2_MSG:
		if (rr2s_recv_call(c, rv, &h))
			return;
		break;
	case RDMA2_NOMSG:	/* the Call is in a Read chunk */
		rr2s_send_error(c, &h, RDMA2_ERR_READ_CHUNKS, 0);
		break;
	default:		/* RDMA2_ERROR: never answered */
		break;
	}
repost:
	rr2s_repost(c, rv);
}

static void rr2s_send_done(struct rpcrdma2_send *sd)
{
	struct rr2s_conn *c = sd->ep->priv;

	rpcrdma2_pool_put(&c->pool, sd);
	if (sd->status != IB_WC_SUCCESS) {
		if (sd->status != IB_WC_WR_FLUSH_ERR)
			trace_rpcrdma2_wc_error(&c->b.xprt.xpt_remote, "send",
						sd->status);
		rr2s_close(c);
	}
	wake_up(&c->send_wait);
}

static const struct rpcrdma2_ep_ops rr2s_ep_ops = {
	.recv_done	= rr2s_recv_done,
	.send_done	= rr2s_send_done,
};

/* ---- nfsd side ---- */

/* Copy @len octets from a queued Call into the rqstp's argument pages. */
static int rr2s_fill_arg(struct svc_rqst *rqstp, struct rr2s_msg *m)
{
	struct xdr_buf *arg = &rqstp->rq_arg;
	u32 cap = arg->len, done = 0, pg = 0;

	if (m->len > cap || m->len < 8)
		return -EMSGSIZE;
	while (done < m->len) {
		u32 n = min_t(u32, m->len - done, PAGE_SIZE);
		void *dst = page_address(rqstp->rq_pages[pg]);

		if (m->rv)
			memcpy(dst, (u8 *)m->rv->buf + m->off + done, n);
		else
			memcpy_from_page(dst, m->pages[pg], 0, n);
		done += n;
		pg++;
	}
	arg->len = m->len;
	arg->page_base = 0;
	arg->head[0].iov_base = page_address(rqstp->rq_pages[0]);
	arg->head[0].iov_len = min_t(u32, m->len, PAGE_SIZE);
	arg->page_len = m->len - arg->head[0].iov_len;
	arg->buflen = cap;
	arg->tail[0].iov_base = NULL;
	arg->tail[0].iov_len = 0;
	rqstp->rq_respages = &rqstp->rq_pages[pg];
	rqstp->rq_next_page = rqstp->rq_respages + 1;
	return 0;
}

static void rr2s_msg_done(struct rr2s_conn *c, struct rr2s_msg *m)
{
	if (m->rv) {
		rr2s_repost(c, m->rv);
		m->rv = NULL;
	} else {
		rr2s_free_pages(m);
	}
}

static int rr2s_recvfrom(struct svc_rqst *rqstp)
{
	struct svc_xprt *xprt = rqstp->rq_xprt;
	struct rr2s_conn *c = rr2s_conn(xprt);
	struct rr2s_msg *m;
	int ret;

	clear_bit(XPT_DATA, &xprt->xpt_flags);
	spin_lock(&c->rq_lock);
	m = list_first_entry_or_null(&c->ready, struct rr2s_msg, list);
	if (m)
		list_del(&m->list);
	if (!list_empty(&c->ready))
		set_bit(XPT_DATA, &xprt->xpt_flags);
	spin_unlock(&c->rq_lock);
	if (!m) {
		svc_xprt_received(xprt);
		return 0;
	}
	ret = rr2s_fill_arg(rqstp, m);
	rr2s_msg_done(c, m);
	if (ret) {
		atomic_dec(&c->outstanding);
		svc_xprt_received(xprt);
		return 0;
	}
	rqstp->rq_xprt_ctxt = c;	/* one outstanding Call: see release */
	rqstp->rq_prot = IPPROTO_MAX;
	svc_xprt_copy_addrs(rqstp, xprt);
	set_bit(RQ_SECURE, &rqstp->rq_flags);
	svc_xprt_received(xprt);
	return rqstp->rq_arg.len;
}

static void rr2s_release_ctxt(struct svc_xprt *xprt, void *ctxt)
{
	struct rr2s_conn *c = ctxt;

	if (c)
		atomic_dec(&c->outstanding);
}

static bool rr2s_may_send(struct rr2s_conn *c, struct rpcrdma2_send **sd,
			  u32 msgno)
{
	bool ok;

	if (svc_xprt_is_dead(&c->b.xprt))
		return true;
	spin_lock(&c->tx_lock);
	ok = rpcrdma2_seq_may_send(&c->seq, msgno);
	spin_unlock(&c->tx_lock);
	if (ok)
		*sd = rpcrdma2_pool_get(&c->pool, false);
	return ok && *sd;
}

/**
 * rr2s_send_msg - send one RPC message, inline or continued
 * @c: the connection; the caller holds its xpt_mutex (E-31)
 * @payload: the RPC message
 * @xid: its XID
 * @flags: RDMA2_F_RESPONSE for a Reply, 0 for a reverse Call
 *
 * Waits for Send buffers and window acknowledgments.  Returns 0,
 * -EMSGSIZE (answered with an error when it was a Reply), or
 * -ENOTCONN when the connection is going away.
 */
int rr2s_send_msg(struct rr2s_conn *c, struct xdr_buf *payload, u32 xid,
		  u32 flags)
{
	struct rpcrdma2_tx tx = {
		.vers		= c->conn.vers,
		.xid		= xid,
		.credit		= rr2s_credit(c),
		.flags		= flags,
		.inline_size	= c->conn.send_inline,
		.payload	= payload,
	};
	struct rpcrdma2_send *sd;
	u32 nmsgs, len;
	int more, ret;

	nmsgs = rpcrdma2_tx_nmsgs(&tx);
	if (!nmsgs) {
		/* Version 1 without a usable Reply chunk (RFC 8166 4.5.2). */
		struct rpcrdma2_hdr h = { .xid = tx.xid, .vers = tx.vers };

		/* V2-ERR-45: REPLY_RESOURCE says how much was needed */
		if (flags & RDMA2_F_RESPONSE)
			rr2s_send_error(c, &h, tx.vers == RPCRDMA2_VERS_1 ?
					RDMA2_ERR_BAD_XDR :
					RDMA2_ERR_REPLY_RESOURCE,
					payload->len);
		return -EMSGSIZE;
	}
	spin_lock(&c->tx_lock);
	rpcrdma2_seq_start(&c->seq, nmsgs);
	spin_unlock(&c->tx_lock);
	do {
		sd = NULL;
		if (!wait_event_timeout(c->send_wait,
					rr2s_may_send(c, &sd, tx.msgno + 1),
					RR2S_SEND_TIMEOUT) ||
		    !sd) {
			if (sd)
				rpcrdma2_pool_put(&c->pool, sd);
			return -ENOTCONN;
		}
		more = rpcrdma2_tx_next(&tx, sd->buf, &len);
		ret = more < 0 ? more : rpcrdma2_ep_post_send(sd, len, 0);
		if (ret) {
			rpcrdma2_pool_put(&c->pool, sd);
			return -ENOTCONN;
		}
	} while (more);
	trace_rpcrdma2_svc_reply(tx.xid, tx.vers, nmsgs, payload->len);
	return 0;
}

static int rr2s_sendto(struct svc_rqst *rqstp)
{
	struct svc_xprt *xprt = rqstp->rq_xprt;
	struct rr2s_conn *c = rr2s_conn(xprt);
	int ret;

	rr2s_release_ctxt(xprt, rqstp->rq_xprt_ctxt);
	rqstp->rq_xprt_ctxt = NULL;
	if (rqstp->rq_res.head[0].iov_len < 4)
		return -EIO;
	mutex_lock(&xprt->xpt_mutex);
	ret = -ENOTCONN;
	if (!svc_xprt_is_dead(xprt))
		ret = rr2s_send_msg(c, &rqstp->rq_res,
				    be32_to_cpup(rqstp->rq_res.head[0].iov_base),
				    RDMA2_F_RESPONSE);
	mutex_unlock(&xprt->xpt_mutex);
	if (ret && ret != -EMSGSIZE) {
		rr2s_close(c);
		return -ENOTCONN;
	}
	return ret ? 0 : rqstp->rq_res.len;
}

static int rr2s_result_payload(struct svc_rqst *rqstp, unsigned int offset,
			       unsigned int length)
{
	return 0;	/* results travel inline: nothing to move by RDMA */
}

static int rr2s_has_wspace(struct svc_xprt *xprt)
{
	return 1;
}

/* ---- connections: accept and teardown ---- */

static void rr2s_conn_free(struct rr2s_conn *c)
{
	struct rr2s_msg *m, *tmp;

	list_for_each_entry_safe(m, tmp, &c->ready, list) {
		list_del(&m->list);
		if (!m->rv)
			rr2s_free_pages(m);
	}
	rr2s_asm_drop(c);
	if (c->ep_up)
		rpcrdma2_ep_destroy(&c->ep);
	c->ep_up = false;
	rpcrdma2_pool_destroy(&c->pool);
	if (c->b.id)
		rdma_destroy_id(c->b.id);
	kfree(c->slots);
	kfree(c);
}

static int rr2s_conn_setup(struct rr2s_conn *c)
{
	struct rpcrdma2_ep_attr attr = {
		.nr_recv	= RR2S_CREDITS + RR2S_BC_SLOTS +
				  RPCRDMA2_RECV_EXTRA,
		.recv_size	= RPCRDMA2_V2_DEF_INLINE,
		.nr_send	= RPCRDMA2_CTRL_SENDS + 2 * RPCRDMA2_SEQ_WINDOW,
		.send_size	= RPCRDMA2_V2_DEF_INLINE,
	};
	struct rdma_conn_param param;
	u8 pdata[RPCRDMA2_CMP_SIZE];
	u32 i;
	int ret;

	c->slots = kcalloc(attr.nr_recv, sizeof(*c->slots), GFP_KERNEL);
	if (!c->slots)
		return -ENOMEM;
	ret = rpcrdma2_ep_create(&c->ep, c->b.id, &attr, &rr2s_ep_ops, c);
	if (ret)
		return ret;
	c->ep_up = true;
	ret = rpcrdma2_pool_init(&c->pool, &c->ep);
	if (ret)
		return ret;

	c->local.max_vers = rpcrdma2_max_version(RPCRDMA2_SERVER);
	c->local.send_size = attr.send_size;
	c->local.recv_size = attr.recv_size;
	c->local.brs = RDMA2_RVRSDIR_SIMPLE;	/* reverse Replies inline */
	rpcrdma2_local_segments(&c->local, c->b.id->device, &rr2s_limits);
	c->grant = RR2S_CREDITS_INIT;
	c->local.credits = rpcrdma2_credit_out(RPCRDMA2_VERS_2, c->grant);
	rpcrdma2_conn_init(&c->conn, &c->peer_pdata);
	c->asm_max = min_t(u32, RPCRDMA2_MAX_CONT_MSG,
			   (RPCSVC_MAXPAGES - 2) << PAGE_SHIFT);
	rpcrdma2_reasm_init(&c->reasm, c->asm_max);

	for (i = 0; i < attr.nr_recv; i++) {
		ret = rpcrdma2_ep_post_recv(&c->ep.recvs[i]);
		if (ret)
			return ret;
	}
	rpcrdma2_ep_conn_param(&c->ep, &param, pdata, false);
	param.initiator_depth = 0;
	return rdma_accept(c->b.id, &param);
}

static struct svc_xprt *rr2s_accept(struct svc_xprt *lxprt)
{
	struct rr2s_listener *l = rr2s_listener(lxprt);
	struct rr2s_conn *c;
	struct sockaddr *sa;
	int ret;

	clear_bit(XPT_CONN, &lxprt->xpt_flags);
	spin_lock(&l->lock);
	c = list_first_entry_or_null(&l->pending, struct rr2s_conn,
				     accept_entry);
	if (c)
		list_del_init(&c->accept_entry);
	if (!list_empty(&l->pending))
		set_bit(XPT_CONN, &lxprt->xpt_flags);
	spin_unlock(&l->lock);
	if (!c)
		return NULL;

	/*
	 * Under the id's CM handler lock, as the RDMA CM API requires for
	 * rdma_accept() and rdma_reject(); it also keeps rr2s_cm_event()
	 * from looking at the svc_xprt while it is being set up.
	 */
	rdma_lock_handler(c->b.id);
	svc_xprt_init(lxprt->xpt_net, &rpcrdma2_svc_class, &c->b.xprt,
		      lxprt->xpt_server);
	/* credits are congestion control: NFSv4 requires it (RFC 7530 3.1) */
	set_bit(XPT_CONG_CTRL, &c->b.xprt.xpt_flags);
	sa = (struct sockaddr *)&c->b.id->route.addr.dst_addr;
	svc_xprt_set_remote(&c->b.xprt, sa, svc_addr_len(sa));
	sa = (struct sockaddr *)&c->b.id->route.addr.src_addr;
	svc_xprt_set_local(&c->b.xprt, sa, svc_addr_len(sa));
	ret = rr2s_conn_setup(c);
	if (ret)
		rdma_reject(c->b.id, NULL, 0, IB_CM_REJ_CONSUMER_DEFINED);
	rdma_unlock_handler(c->b.id);
	trace_rpcrdma2_svc_accept(&c->b.xprt.xpt_remote, ret);
	if (ret) {
		/* svc_xprt_init() took a reference on the namespace */
		put_net_track(c->b.xprt.xpt_net, &c->b.xprt.ns_tracker);
		rr2s_conn_free(c);
		return NULL;
	}
	return &c->b.xprt;
}

static void rr2s_detach(struct svc_xprt *xprt)
{
	struct rr2s_conn *c = rr2s_conn(xprt);

	if (cancel_work_sync(&c->grant_work))
		svc_xprt_put(xprt);	/* the reference the work held */
	rdma_disconnect(c->b.id);	/* flushes wake Reply senders */
	wake_up_all(&c->send_wait);	/* ... and so does XPT_DEAD */
	mutex_lock(&xprt->xpt_mutex);	/* no Reply is being sent */
	if (c->ep_up)
		ib_drain_qp(c->b.id->qp);	/* no completion after this */
	mutex_unlock(&xprt->xpt_mutex);
	trace_rpcrdma2_svc_close(&xprt->xpt_remote, 0);
}

static void rr2s_free(struct svc_xprt *xprt)
{
	rr2s_conn_free(rr2s_conn(xprt));
}

static void rr2s_kill_temp(struct svc_xprt *xprt)
{
	rdma_disconnect(rr2s_conn(xprt)->b.id);
}

/* ---- the connection manager ---- */

static int rr2s_listener_event(struct rr2s_listener *l,
			       struct rdma_cm_id *id,
			       struct rdma_cm_event *ev)
{
	struct rr2s_conn *c;

	if (ev->event != RDMA_CM_EVENT_CONNECT_REQUEST)
		return 0;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;		/* rdma_cm rejects and destroys id */
	c->b.kind = RR2S_CONN;
	c->b.id = id;
	id->context = c;
	INIT_LIST_HEAD(&c->ready);
	spin_lock_init(&c->rq_lock);
	spin_lock_init(&c->tx_lock);
	init_waitqueue_head(&c->send_wait);
	INIT_WORK(&c->grant_work, rr2s_grant_worker);
	/* CMP-CMPD-14: no usable record means 1024/1024, R = 0 */
	rpcrdma2_ep_peer_pdata(ev, &c->peer_pdata);
	spin_lock(&l->lock);
	list_add_tail(&c->accept_entry, &l->pending);
	spin_unlock(&l->lock);
	set_bit(XPT_CONN, &l->b.xprt.xpt_flags);
	svc_xprt_enqueue(&l->b.xprt);
	return 0;
}

static int rr2s_cm_event(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct rr2s_base *b = id->context;
	struct rr2s_conn *c;

	trace_rpcrdma2_cm_event(&id->route.addr.dst_addr, ev->event,
				ev->status);
	if (b->kind == RR2S_LISTENER)
		return rr2s_listener_event(container_of(b, struct rr2s_listener,
							b), id, ev);
	c = container_of(b, struct rr2s_conn, b);
	switch (ev->event) {
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
		if (!test_bit(XPT_DEAD, &c->b.xprt.xpt_flags) &&
		    c->b.xprt.xpt_server)
			rr2s_close(c);
		break;
	default:
		break;
	}
	return 0;
}

/* ---- listeners ---- */

static struct svc_xprt *rr2s_create(struct svc_serv *serv, struct net *net,
				    struct sockaddr *sa, int salen, int flags)
{
	struct rr2s_listener *l;
	struct rdma_cm_id *id;
	int ret;

	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return ERR_PTR(-ENOMEM);
	l->b.kind = RR2S_LISTENER;
	spin_lock_init(&l->lock);
	INIT_LIST_HEAD(&l->pending);
	svc_xprt_init(net, &rpcrdma2_svc_class, &l->b.xprt, serv);
	set_bit(XPT_LISTENER, &l->b.xprt.xpt_flags);

	id = rdma_create_id(net, rr2s_cm_event, l, RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(id)) {
		ret = PTR_ERR(id);
		goto out_free;
	}
	l->b.id = id;
	if (sa->sa_family == AF_INET6) {
		ret = rdma_set_afonly(id, 1);
		if (ret)
			goto out_id;
	}
	ret = rdma_bind_addr(id, sa);
	if (!ret)
		ret = rdma_listen(id, RR2S_BACKLOG);
	if (ret)
		goto out_id;
	svc_xprt_set_local(&l->b.xprt,
			   (struct sockaddr *)&id->route.addr.src_addr,
			   salen);
	pr_info("rpcrdma2: listening on %pISpc\n", sa);
	return &l->b.xprt;

out_id:
	rdma_destroy_id(id);
out_free:
	/* svc_xprt_init() took a reference on the namespace */
	put_net_track(l->b.xprt.xpt_net, &l->b.xprt.ns_tracker);
	kfree(l);
	return ERR_PTR(ret);
}

static void rr2s_listener_free(struct rr2s_listener *l)
{
	struct rr2s_conn *c, *tmp;

	rdma_destroy_id(l->b.id);	/* no CONNECT_REQUEST after this */
	list_for_each_entry_safe(c, tmp, &l->pending, accept_entry) {
		list_del(&c->accept_entry);
		rdma_reject(c->b.id, NULL, 0, IB_CM_REJ_CONSUMER_DEFINED);
		rr2s_conn_free(c);
	}
	kfree(l);
}

static void rr2s_xprt_detach(struct svc_xprt *xprt)
{
	if (test_bit(XPT_LISTENER, &xprt->xpt_flags))
		return;
	rr2s_detach(xprt);
}

static void rr2s_xprt_free(struct svc_xprt *xprt)
{
	if (test_bit(XPT_LISTENER, &xprt->xpt_flags))
		rr2s_listener_free(rr2s_listener(xprt));
	else
		rr2s_free(xprt);
}

static const struct svc_xprt_ops rpcrdma2_svc_ops = {
	.xpo_create		= rr2s_create,
	.xpo_accept		= rr2s_accept,
	.xpo_has_wspace		= rr2s_has_wspace,
	.xpo_recvfrom		= rr2s_recvfrom,
	.xpo_sendto		= rr2s_sendto,
	.xpo_result_payload	= rr2s_result_payload,
	.xpo_release_ctxt	= rr2s_release_ctxt,
	.xpo_detach		= rr2s_xprt_detach,
	.xpo_free		= rr2s_xprt_free,
	.xpo_kill_temp_xprt	= rr2s_kill_temp,
};

static struct svc_xprt_class rpcrdma2_svc_class = {
	.xcl_name	= "rdma",
	.xcl_owner	= THIS_MODULE,
	.xcl_ops	= &rpcrdma2_svc_ops,
	.xcl_max_payload = RPCSVC_MAXPAYLOAD,
	.xcl_ident	= XPRT_TRANSPORT_RDMA,
};

int rpcrdma2_svc_register(void)
{
	int ret;

	rr2s_wq = alloc_workqueue("rpcrdma2_svc", WQ_MEM_RECLAIM | WQ_UNBOUND,
				  0);
	if (!rr2s_wq)
		return -ENOMEM;
	ret = rr2s_bc_register();
	if (ret)
		goto out_wq;
	ret = svc_reg_xprt_class(&rpcrdma2_svc_class);
	if (ret)
		goto out_bc;
	return 0;

out_bc:
	rr2s_bc_unregister();
out_wq:
	destroy_workqueue(rr2s_wq);
	return ret;
}

void rpcrdma2_svc_unregister(void)
{
	svc_unreg_xprt_class(&rpcrdma2_svc_class);
	rr2s_bc_unregister();
	destroy_workqueue(rr2s_wq);
}
