// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 server half: the receive side.
 *
 * Receive completions (the CQ's work item, one at a time): the first
 * message settles the version (V2-FRAME-20; a CONNPROP is answered
 * with ours, a version above rdmavers with ERR_VERS).  After that each
 * message is decoded by the shared codec; rejections are answered with
 * the error the codec names (V2-SEC-17, in the RFC 8166 layout on
 * Version 1) or dropped silently.  A Call's chunk lists are copied out
 * of its Receive and checked.  A message that is not continued is
 * queued as it is and its Receive is held until an nfsd thread copies
 * it out (at most one per credit); the parts of a continued message are
 * copied into pages at once and their Receives reposted, so a sequence
 * only ever occupies the window.  A Special Format Call (RDMA_NOMSG /
 * RDMA2_NOMSG) has no inline payload at all: only its chunks are kept.
 *
 * ->xpo_recvfrom (an nfsd thread): takes one queued Call.  Without
 * Read chunks its octets are copied into the rqstp's pages.  With Read
 * chunks the Call is rebuilt there: the inline octets up to each
 * chunk's Position, the chunk pulled by RDMA Read, its XDR roundup
 * padding (the Requester leaves it out, V2-CHUNK-16), then the rest
 * (V2-CHUNK-14, V2-CHUNK-15).  Every Position and length was checked
 * against the message and the rqstp's room before any RDMA is posted
 * (V2-SEC-17).  The Call's Write and Reply chunks travel on to
 * ->xpo_sendto in the per-Call context (struct rr2s_rctx).
 *
 * Called by: the endpoint (completions), net/sunrpc (svc_xprt_ops).
 */

#include <linux/highmem.h>
#include <linux/jhash.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/unaligned.h>

#include "rpcrdma2.h"
#include "server/server.h"
#include "shared/chunk.h"
#include "shared/log.h"
#include "shared/fault.h"
#include <trace/events/rpcrdma2.h>

/* ---- receive side: the CQ work item ---- */

static void rr2s_repost(struct rr2s_conn *c, struct rpcrdma2_recv *rv)
{
	if (rpcrdma2_ep_post_recv(rv))
		rr2s_close(c);
}

/* A queued message that is not a Receive slot: its pages and itself. */
void rr2s_msg_free(struct rr2s_msg *m)
{
	u32 i;

	for (i = 0; i < m->npages; i++)
		put_page(m->pages[i]);
	kfree(m->pages);
	kfree(m->ch);
	kfree(m);
}

/* Append a continuation part to the message being reassembled. */
static int rr2s_asm_append(struct rr2s_conn *c, const u8 *src, u32 len)
{
	struct rr2s_msg *m = c->asm_msg;

	if (!m) {
		if (rpcrdma2_fail(RPCRDMA2_FAIL_RECV_REFILL))
			return -ENOMEM;
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

void rr2s_asm_drop(struct rr2s_conn *c)
{
	if (c->asm_msg)
		rr2s_msg_free(c->asm_msg);
	c->asm_msg = NULL;
}

static void rr2s_queue(struct rr2s_conn *c, struct rr2s_msg *m)
{
	struct svc_xprt *xprt = &c->b.xprt;

	spin_lock(&c->rq_lock);
	list_add_tail(&m->list, &c->ready);
	spin_unlock(&c->rq_lock);
	rr2s_stat_inc(RR2S_STAT_RECV);
	rr2s_queue_grant(c);
	set_bit(XPT_DATA, &xprt->xpt_flags);
	svc_xprt_enqueue(xprt);
}

/* Forget the message being reassembled (V2-ERR-23). */
static void rr2s_asm_abort(struct rr2s_conn *c, const struct rpcrdma2_hdr *h)
{
	rpcrdma2_reasm_abort(&c->link.reasm, h);
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

/* Copy one counted array (a Write chunk or the Reply chunk). */
static int rr2s_copy_wchunk(struct rr2s_chunks *ch, struct rr2s_wchunk *w,
			    const void *buf, const struct rpcrdma2_hdr *h,
			    int which)
{
	int err;

	w->first = ch->nsegs;
	err = rpcrdma2_counted_chunk_copy(buf, h, which, &ch->segs[ch->nsegs],
					  &w->nsegs, &w->capacity);
	ch->nsegs += w->nsegs;
	return err;
}

/*
 * Copy a Call's chunk lists out of its Receive.  The codec has already
 * bounded every count by rr2s_limits; here (shared/chunk.c) each
 * segment is checked for an offset that wraps, and the Read segments
 * are ordered by Position, keeping the list order within a Position
 * (V2-CHUNK-14).
 * Returns 0 or the error to answer with.
 */
static int rr2s_chunks_copy(const void *buf, const struct rpcrdma2_hdr *h,
			    struct rr2s_chunks **out)
{
	u32 nws = h->writes.segments + h->reply.segments;
	u32 nrs = h->reads.segments, i;
	struct rr2s_chunks *ch;
	int err;

	ch = kzalloc(struct_size(ch, segs, nws) +
		     nrs * (sizeof(*ch->read_segs) + sizeof(*ch->read_pos)),
		     GFP_KERNEL);
	if (!ch)
		return -ENOMEM;
	ch->nomsg = h->htype == RDMA2_NOMSG;
	ch->xid = h->xid;
	ch->inv_handle = h->inv_handle;
	ch->read_segs = (struct rpcrdma2_segment *)&ch->segs[nws];
	ch->read_pos = (u32 *)&ch->read_segs[nrs];
	/* by Position, stable within one (V2-CHUNK-14); wraps: BAD_XDR */
	err = rpcrdma2_read_list_sort(buf, h, ch->read_pos, ch->read_segs);
	ch->nreads = nrs;
	for (i = 0; !err && i < h->writes.chunks; i++)
		err = rr2s_copy_wchunk(ch, &ch->writes[i], buf, h, i);
	ch->nwrites = h->writes.chunks;
	ch->has_reply = h->reply.chunks;
	if (!err && ch->has_reply)
		err = rr2s_copy_wchunk(ch, &ch->reply, buf, h, -1);
	if (err) {
		kfree(ch);
		return err;
	}
	*out = ch;
	return 0;
}

/*
 * V2-CRED-04, V2-SEC-17: may the first message of a new RPC message be
 * taken?  Every Call the client has outstanding holds one of the
 * credits granted to it until its Reply (the first message of a
 * sequence rides an RPC credit, xfer.h); c->outstanding counts the
 * Calls queued or with nfsd, and is lowered before their Reply or error
 * goes out.  A client that keeps to its grant can still have more Calls
 * here than it has credits: sunrpc sends a Call again on the same
 * connection when its timer expires (the copy rides the original's
 * credit), and takes a credit back when it abandons an RPC (a signal, a
 * soft timeout) whose Call nfsd still has.  So the bound is
 * RR2S_GRANT_SLACK times the grant.  A Special Format or continued Call
 * no longer holds a Receive, so without this check nothing would bound
 * them; with it the Calls queued or being reassembled on one connection
 * are at most twice its grant, and the octets reassembled at most that
 * times c->asm_max.  A client that goes over has its connection closed
 * (V2-CRED-04 allows it): the message is dropped before anything is
 * allocated for it, and so is every message after it.  Other
 * connections keep their own counts and grants.
 */
static bool rr2s_over_grant(struct rr2s_conn *c, const struct rpcrdma2_hdr *h,
			    const void *payload, u32 plen)
{
	u32 grant = READ_ONCE(c->grant);
	bool ok;

	if (atomic_read(&c->outstanding) < RR2S_GRANT_SLACK * grant)
		return false;
	/* a reverse Reply holds no credit (and is bounded by our Calls) */
	if (h->htype != RDMA2_NOMSG &&
	    !rpcrdma2_rpc_msg_is_call(h, payload, plen, &ok))
		return false;
	rpcrdma2_link_drain(&c->link);	/* closing: take nothing more */
	rr2s_stat_inc(RR2S_STAT_OVER_GRANT);
	pr_warn_ratelimited("rpcrdma2: client %pISc sent a Call beyond the %u credits granted (xid 0x%08x): closing the connection\n",
			    &c->b.xprt.xpt_remote, grant, h->xid);
	rr2s_close(c);
	return true;
}

/*
 * An RDMA_MSG / RDMA2_MSG Call, or a Special Format one (NOMSG).
 * Returns true if the Receive was kept (queued for nfsd), false if the
 * caller reposts it.
 */
static bool rr2s_recv_call(struct rr2s_conn *c, struct rpcrdma2_recv *rv,
			   const struct rpcrdma2_hdr *h)
{
	bool nomsg = h->htype == RDMA2_NOMSG;
	const u8 *payload = (const u8 *)rv->buf + h->hdrlen;
	u32 plen = nomsg ? 0 : rv->len - h->hdrlen;
	bool more = h->flags & RDMA2_F_MORE;
	struct rr2s_chunks *ch = NULL;
	enum rpcrdma2_reasm_verdict v;
	struct rr2s_msg *m;
	int err;

	v = rpcrdma2_reasm_add(&c->link.reasm, h, plen);
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
	/* V2-CRED-04: before anything is allocated for a new message */
	if (c->link.reasm.nmsgs == 1 && rr2s_over_grant(c, h, payload, plen)) {
		rr2s_asm_abort(c, h);
		return false;
	}
	/* only a final message has chunks (V2-CONT-08, the codec) */
	err = rpcrdma2_hdr_has_chunks(h) ? rr2s_chunks_copy(rv->buf, h, &ch) :
					   0;
	if (!err && nomsg && (!ch || !ch->nreads || ch->read_pos[0]))
		err = RDMA2_ERR_BAD_XDR;	/* V2-SPEC-02: no PZ chunk */
	if (!err && !nomsg && c->link.reasm.nmsgs == 1)
		err = rr2s_msg_start(c, h, payload, plen);
	if (err) {
		kfree(ch);
		rr2s_asm_abort(c, h);
		if (err == -ENOMEM)
			rr2s_close(c);
		else
			rr2s_send_error(c, h, err, 0);
		return false;
	}
	if (nomsg) {
		/* V2-SPEC-01: the whole Call is in its Read chunks */
		m = kzalloc(sizeof(*m), GFP_KERNEL);
		if (!m) {
			kfree(ch);
			rr2s_close(c);
			return false;
		}
		m->ch = ch;
		rr2s_queue(c, m);
		return false;
	}
	if (v == RPCRDMA2_REASM_DONE && c->link.reasm.nmsgs == 1) {
		if (!c->asm_call) {
			/* a Reply to one of our reverse Calls (RFC 8167) */
			kfree(ch);
			rr2s_bc_reply(c, rpcrdma2_credit_in(c->link.conn.vers,
							    h->credit),
				      payload, plen, NULL);
			return false;
		}
		m = &c->slots[rv - c->link.ep.recvs];
		m->rv = rv;
		m->off = h->hdrlen;
		m->len = plen;
		m->ch = ch;
		rr2s_queue(c, m);
		return true;
	}
	if (rr2s_asm_append(c, payload, plen)) {
		kfree(ch);
		rr2s_asm_abort(c, h);
		rr2s_close(c);
		return false;
	}
	if (rpcrdma2_seq_ack_due(c->link.reasm.nmsgs, more))
		rr2s_send_grant(c);
	if (!more) {
		rr2s_stat_inc(RR2S_STAT_CONT_RECV);
		m = c->asm_msg;
		c->asm_msg = NULL;
		m->ch = ch;
		if (c->asm_call) {
			rr2s_queue(c, m);
		} else {
			rr2s_bc_reply(c, rpcrdma2_credit_in(c->link.conn.vers,
							    h->credit),
				      NULL, m->len, m->pages);
			rr2s_msg_free(m);
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

	n = rpcrdma2_nego_server_recv(&c->link.conn, &c->link.local, rv->buf, rv->len,
				      out, sizeof(out), &outlen);
	if (n == RPCRDMA2_NEGO_REPLY || n == RPCRDMA2_NEGO_REJECT ||
	    n == RPCRDMA2_NEGO_REJECT_REPLY)
		rpcrdma2_link_send_ctrl(&c->link, out, outlen);
	/* a server's REPLY is its CONNPROP (nego.c, server_settle) */
	if (n == RPCRDMA2_NEGO_REPLY || n == RPCRDMA2_NEGO_REJECT_REPLY)
		c->props_sent = true;
	if (n == RPCRDMA2_NEGO_REJECT_REPLY)	/* V2-ERR-31: then our CONNPROP */
		rpcrdma2_link_send_ctrl(&c->link, out,
					rpcrdma2_nego_server_hello(&c->link.local,
								   out,
								   sizeof(out)));
	else if (n == RPCRDMA2_NEGO_FAIL)
		rr2s_close(c);
	if (c->link.conn.vers && n != RPCRDMA2_NEGO_MORE) {
		rr2s_xch_start(c);
		rr2s_stat_inc(c->link.conn.vers == RPCRDMA2_VERS_1 ?
			      RR2S_STAT_CONNS_V1 : RR2S_STAT_CONNS_V2);
		trace_rpcrdma2_svc_settled(&c->b.xprt.xpt_remote,
					   c->link.conn.vers, c->link.conn.send_inline,
					   c->link.conn.recv_inline);
		if (c->link.conn.peer_hostauth_len) {	/* V2-PROP-09 */
			rr2s_stat_inc(RR2S_STAT_HOSTAUTH);
			trace_rpcrdma2_hostauth(&c->b.xprt.xpt_remote,
						c->link.conn.peer_hostauth_len,
						c->link.conn.peer_hostauth);
		}
		/* once per client and outcome, not per connection */
		if (rpcrdma2_log_peer(RPCRDMA2_SERVER,
				      (struct sockaddr *)&c->b.xprt.xpt_remote,
				      RPCRDMA2_LOG_SETTLED,
				      jhash_3words(c->link.conn.vers,
						   c->link.conn.send_inline,
						   c->link.conn.recv_inline,
						   c->link.conn.peer_props.brs)))
			pr_info("rpcrdma2: client %pISc settled RPC-over-RDMA version %u, inline %u/%u, callbacks %s\n",
				&c->b.xprt.xpt_remote, c->link.conn.vers,
				c->link.conn.send_inline, c->link.conn.recv_inline,
				rr2s_bc_level(c));
	}
	return n == RPCRDMA2_NEGO_RPC;
}

/* ---- the link's callbacks (shared/link.c) ---- */

static struct rr2s_conn *rr2s_of(struct rpcrdma2_link *l)
{
	return container_of(l, struct rr2s_conn, link);
}

static void rr2s_link_failed(struct rpcrdma2_link *l, struct rpcrdma2_recv *rv)
{
	rr2s_close(rr2s_of(l));
}

static bool rr2s_link_negotiate(struct rpcrdma2_link *l,
				struct rpcrdma2_recv *rv)
{
	return rr2s_negotiate(rr2s_of(l), rv);
}

static void rr2s_link_limits(struct rpcrdma2_link *l,
			     struct rpcrdma2_limits *lim)
{
	*lim = rr2s_limits;
	/*
	 * V2-CHUNK-31, V2-PROP-08: a client that opened with a Call
	 * before our CONNPROP went out has only the default RCSIZ to
	 * stay within, so that is what we take from it, and what SEGMENTS
	 * says (V2-ERR-38), until it has seen ours.
	 */
	if (l->conn.vers == RPCRDMA2_VERS_2 && !rr2s_of(l)->props_sent)
		lim->max_segments = min_t(u32, lim->max_segments,
					  RDMA2_PROP_RCSIZ_DEFAULT);
}

static void rr2s_link_reject(struct rpcrdma2_link *l,
			     const struct rpcrdma2_hdr *h, int verdict)
{
	struct rr2s_conn *c = rr2s_of(l);

	/*
	 * A rejected message ends any open sequence (erratum E-31), so a
	 * retransmission starts afresh, and the rest of its own sequence
	 * is dropped unread (V2-ERR-23).
	 */
	rr2s_asm_abort(c, h);
	rr2s_send_error(c, h, verdict, verdict == RDMA2_ERR_VERS ?
			RPCRDMA2_VERS_1 : h->reject_arg);
}

static void rr2s_link_taken(struct rpcrdma2_link *l,
			    const struct rpcrdma2_hdr *h,
			    struct rpcrdma2_recv *rv)
{
	rr2s_xch_knob(rr2s_of(l));
}

static void rr2s_link_room(struct rpcrdma2_link *l)
{
	wake_up(&rr2s_of(l)->send_wait);
}

/* a Call, NOMSG too (V2-SPEC-01: the Call is in a Read chunk) */
static bool rr2s_link_msg(struct rpcrdma2_link *l,
			  const struct rpcrdma2_hdr *h,
			  struct rpcrdma2_recv *rv)
{
	return rr2s_recv_call(rr2s_of(l), rv, h);
}

static void rr2s_link_error(struct rpcrdma2_link *l,
			    const struct rpcrdma2_hdr *h,
			    struct rpcrdma2_recv *rv)
{
	rr2s_xch_error(rr2s_of(l), h);
}

static void rr2s_link_xch(struct rpcrdma2_link *l,
			  const struct rpcrdma2_hdr *h)
{
	rr2s_xch_recv(rr2s_of(l), h);
}

static void rr2s_link_repost(struct rpcrdma2_link *l, struct rpcrdma2_recv *rv)
{
	rr2s_repost(rr2s_of(l), rv);
}

/* a Reply's final Send: the Reply is copied, its Writes go with it */
static void rr2s_link_seal(struct rpcrdma2_link *l, void *ctx)
{
	rr2s_wlist_seal(ctx);
}

static u32 rr2s_link_credit(struct rpcrdma2_link *l)
{
	return rr2s_credit(rr2s_of(l));
}

static void rr2s_link_close(struct rpcrdma2_link *l)
{
	rr2s_close(rr2s_of(l));
}

const struct rpcrdma2_link_ops rr2s_link_ops = {
	.recv_failed	= rr2s_link_failed,
	.negotiate	= rr2s_link_negotiate,
	.limits		= rr2s_link_limits,
	.reject		= rr2s_link_reject,
	.taken		= rr2s_link_taken,
	.room		= rr2s_link_room,
	.msg		= rr2s_link_msg,
	.error		= rr2s_link_error,
	.xch		= rr2s_link_xch,
	.repost		= rr2s_link_repost,
	.seal		= rr2s_link_seal,
	.credit		= rr2s_link_credit,
	.close		= rr2s_link_close,
	.vers_mismatch	= RDMA2_ERR_VERS,		/* V2-FRAME-20 */
	.fail_room	= RPCRDMA2_FAIL_NR,
	.fail_post	= RPCRDMA2_FAIL_SVC_SEND,	/* as a dead QP */
};

/* ---- nfsd side ---- */

/* Copy @len octets of a queued Call from @soff to rq_pages at @doff. */
static void rr2s_copy_in(struct page **dst, u32 doff, const struct rr2s_msg *m,
			 u32 soff, u32 len)
{
	while (len) {
		u8 *d = (u8 *)page_address(dst[doff >> PAGE_SHIFT]) +
			offset_in_page(doff);
		u32 n = min_t(u32, len, PAGE_SIZE - offset_in_page(doff));

		if (m->rv) {
			memcpy(d, (u8 *)m->rv->buf + m->off + soff, n);
		} else {
			n = min_t(u32, n, PAGE_SIZE - offset_in_page(soff));
			memcpy_from_page(d, m->pages[soff >> PAGE_SHIFT],
					 offset_in_page(soff), n);
		}
		doff += n;
		soff += n;
		len -= n;
	}
}

/* Point rq_arg at the first @len octets of rq_pages. */
static void rr2s_set_arg(struct svc_rqst *rqstp, u32 len)
{
	struct xdr_buf *arg = &rqstp->rq_arg;
	u32 npages = DIV_ROUND_UP(len, PAGE_SIZE) ?: 1;

	arg->head[0].iov_base = page_address(rqstp->rq_pages[0]);
	arg->head[0].iov_len = min_t(u32, len, PAGE_SIZE);
	arg->pages = rqstp->rq_pages + 1;
	arg->page_base = 0;
	arg->page_len = len - arg->head[0].iov_len;
	arg->tail[0].iov_base = NULL;
	arg->tail[0].iov_len = 0;
	arg->len = len;
	rqstp->rq_respages = &rqstp->rq_pages[npages];
	rqstp->rq_next_page = rqstp->rq_respages + 1;
}

/* A Call without Read chunks: copy it into the rqstp's pages. */
static int rr2s_fill_arg(struct svc_rqst *rqstp, struct rr2s_msg *m)
{
	struct xdr_buf *arg = &rqstp->rq_arg;

	if (m->len > arg->len || m->len < 8)
		return -EMSGSIZE;
	rr2s_copy_in(rqstp->rq_pages, 0, m, 0, m->len);
	rr2s_set_arg(rqstp, m->len);
	return 0;
}

/*
 * A Call with Read chunks: rebuild it in the rqstp's pages, pulling
 * each chunk by RDMA Read at its Position (V2-CHUNK-14, V2-CHUNK-15).
 * Returns 0, -EMSGSIZE (answer BAD_XDR), or another errno.
 */
static int rr2s_pull_call(struct rr2s_conn *c, struct svc_rqst *rqstp,
			  struct rr2s_msg *m)
{
	const struct rr2s_chunks *ch = m->ch;
	struct rr2s_rw_dir d = {
		.dir	= DMA_FROM_DEVICE,
		.pages	= rqstp->rq_pages,
		.rqstp	= rqstp,
		.xid	= ch->xid,
	};
	u32 total, in = 0, out = 0, i, j, pad, chunk;
	static const u8 zero[4];
	int ret, gap;

	/*
	 * Every Position and length against the inline octets and the
	 * rqstp's room (V2-SEC-17, V2-ERR-51, shared/chunk.c)
	 */
	total = rpcrdma2_read_pull_len(ch->read_pos, ch->read_segs,
				       ch->nreads, m->len, rqstp->rq_arg.len);
	if (total < 8)
		return -EMSGSIZE;
	for (i = 0; i < ch->nreads; i = j) {
		/* rpcrdma2_read_pull_len() checked every step */
		gap = rpcrdma2_read_gap(ch->read_pos[i], out, in, m->len);
		rr2s_copy_in(rqstp->rq_pages, out, m, in, gap);
		out += gap;
		in += gap;
		chunk = rpcrdma2_read_chunk_len(ch->read_pos, ch->read_segs,
						ch->nreads, i, &j);
		ret = rr2s_rw_segs(c, &d, out, &ch->read_segs[i], j - i, chunk);
		if (ret)
			return ret;
		out += chunk;
		pad = round_up(chunk, 4) - chunk;
		if (pad) {
			memcpy_to_page(rqstp->rq_pages[out >> PAGE_SHIFT],
				       offset_in_page(out), zero, pad);
			out += pad;
		}
		c->read_chunks++;
		rr2s_stat_inc(RR2S_STAT_READ_CHUNKS);
	}
	rr2s_copy_in(rqstp->rq_pages, out, m, in, m->len - in);
	out += m->len - in;
	rr2s_set_arg(rqstp, out);
	/* V2-SPEC-09: in Special Format rdma_xid is the RPC XID */
	if (ch->nomsg &&
	    (get_unaligned_be32(rqstp->rq_arg.head[0].iov_base) != ch->xid ||
	     !rpcrdma2_rpc_is_call(rqstp->rq_arg.head[0].iov_base,
				   rqstp->rq_arg.head[0].iov_len)))
		return -EMSGSIZE;
	/*
	 * its Position-Zero Read chunk is one of the Read chunks counted
	 * above, but reduces no data item: under RPCSEC_GSS integrity or
	 * privacy a client may send a Call so, not reduce one
	 */
	if (ch->nomsg)
		rr2s_stat_inc(RR2S_STAT_NOMSG_CALLS);
	trace_rpcrdma2_svc_chunks(&c->b.xprt.xpt_remote, ch->xid, ch->nreads,
				  ch->nwrites, ch->has_reply, total - m->len);
	return 0;
}

/* Answer a Call that could not be rebuilt: BAD_XDR (ERR_CHUNK on v1). */
static void rr2s_pull_failed(struct rr2s_conn *c, const struct rr2s_chunks *ch)
{
	struct rpcrdma2_hdr h = {
		.xid	= ch->xid,
		.vers	= c->link.conn.vers,
		.htype	= ch->nomsg ? RDMA2_NOMSG : RDMA2_MSG,
	};

	/* no Reply of another thread is cut in two by it (V2-CONT-03) */
	mutex_lock(&c->b.xprt.xpt_mutex);
	if (!svc_xprt_is_dead(&c->b.xprt))
		rr2s_send_error(c, &h, RDMA2_ERR_BAD_XDR, 0);
	mutex_unlock(&c->b.xprt.xpt_mutex);
}

static void rr2s_msg_done(struct rr2s_conn *c, struct rr2s_msg *m)
{
	struct rpcrdma2_recv *rv = m->rv;

	if (!rv) {
		rr2s_msg_free(m);
		return;
	}
	/*
	 * The slot belongs to the Receive: once it is reposted, its next
	 * completion may fill the slot again, so let go of it first.
	 */
	kfree(m->ch);
	m->ch = NULL;
	m->rv = NULL;
	rr2s_repost(c, rv);
}

int rr2s_recvfrom(struct svc_rqst *rqstp)
{
	struct svc_xprt *xprt = rqstp->rq_xprt;
	struct rr2s_conn *c = rr2s_conn(xprt);
	bool released = false;
	struct rr2s_rctx *x;
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
	/* other threads may take the next Call while this one is pulled */
	svc_xprt_received(xprt);
	if (!m)
		return 0;

	x = kzalloc(sizeof(*x), GFP_KERNEL);
	if (!x) {
		ret = -ENOMEM;
	} else if (m->ch && m->ch->nreads) {
		ret = rr2s_pull_call(c, rqstp, m);
		if (ret == -EMSGSIZE) {
			/* its credit is back before the error says so */
			atomic_dec(&c->outstanding);
			released = true;
			rr2s_pull_failed(c, m->ch);
		} else if (ret) {	/* nothing would answer: start over */
			rr2s_close(c);
		}
	} else {
		ret = rr2s_fill_arg(rqstp, m);
	}
	if (!ret) {
		x->c = c;
		x->ch = m->ch;		/* the Write and Reply chunks */
		m->ch = NULL;
	}
	rr2s_msg_done(c, m);
	if (ret) {
		kfree(x);
		if (!released)
			atomic_dec(&c->outstanding);
		return 0;
	}
	rqstp->rq_xprt_ctxt = x;
	rqstp->rq_prot = IPPROTO_MAX;
	svc_xprt_copy_addrs(rqstp, xprt);
	set_bit(RQ_SECURE, &rqstp->rq_flags);
	return rqstp->rq_arg.len;
}

/* A Call that gets no Reply (dropped, or its deferral given up). */
void rr2s_release_ctxt(struct svc_xprt *xprt, void *ctxt)
{
	struct rr2s_rctx *x = ctxt;

	if (!x)
		return;
	atomic_dec(&x->c->outstanding);
	kfree(x->ch);
	kfree(x);
}
