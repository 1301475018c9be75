// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 server half: sending Replies (->xpo_sendto) and reverse
 * Calls.
 *
 * A Reply goes out in this order, all under xpt_mutex so that no other
 * message comes between the Sends of a continued one (V2-CONT-03):
 *
 *   1. Write chunks.  nfsd marks each data item it may reduce with
 *      ->xpo_result_payload (NFS READ and READLINK data); the n-th one
 *      goes into the Call's n-th Write chunk by RDMA Write straight
 *      from rq_res, never copied (V2-CHUNK-19).  A chunk too small for
 *      its item draws WRITE_RESOURCE instead of the Reply (V2-ERR-40).
 *      The item and its XDR roundup padding leave the inline payload
 *      (V2-CHUNK-10), and every Write chunk of the Call comes back in
 *      the Reply's header with the octets actually written
 *      (V2-CHUNK-20), unused ones with zero lengths.
 *   2. The format (V2-SPEC-06 order).  If what is left fits one Send
 *      it goes inline.  Otherwise a Reply chunk big enough is used
 *      (V2-SPEC-05): the reduced payload is written into it and
 *      the Send carries the header alone (RDMA_NOMSG / RDMA2_NOMSG).
 *      Otherwise Version 2 continues the Reply over several Sends
 *      (V2-CONT-11); Version 1 has no way left and answers with an
 *      error.
 *   3. The Send(s).  RDMA Writes are posted, unsignaled, right before
 *      the Send and overlap it (V2-CHUNK-32); the final Send's
 *      completion releases them and the Reply's pages (rw.c).  A Reply
 *      that ends in an error instead hands them to the error's Send.
 *      The final Send invalidates the client's rkey remotely when the
 *      Call asked for it (Version 2: rdma_inv_handle, V2-RINV-04) or
 *      both ends advertised R and the Call used a single rkey
 *      (Version 1, CMP-RINV-02, CMP-RINV-03).
 *
 * Called by: net/sunrpc (svc_xprt_ops), backchannel.c, the endpoint
 * (Send completions).
 */

#include <linux/slab.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/svc_xprt.h>

#include "rpcrdma2.h"
#include "server/server.h"
#include "shared/fault.h"
#include <trace/events/rpcrdma2.h>

void rr2s_send_done(struct rpcrdma2_send *sd)
{
	struct rr2s_conn *c = sd->ep->priv;
	struct rr2s_wlist *wl = sd->ctx;

	/* a Reply's final Send: its Writes, posted before it, are done */
	sd->ctx = NULL;
	if (wl)
		rr2s_wlist_done(c, wl);
	/* it may post an error that waited for a control buffer */
	if (rpcrdma2_pool_put(&c->link.pool, sd))
		rr2s_close(c);
	if (sd->status != IB_WC_SUCCESS) {
		if (sd->status != IB_WC_WR_FLUSH_ERR)
			trace_rpcrdma2_wc_error(&sd->cid, &c->b.xprt.xpt_remote,
						"send", sd->status);
		rr2s_close(c);
	}
	wake_up(&c->send_wait);
}

/* Room for Send @msgno, or the connection is going: stop waiting. */
static bool rr2s_send_ready(struct rr2s_conn *c, u32 msgno)
{
	if (svc_xprt_is_dead(&c->b.xprt))
		return true;
	/* a hint without tx_lock: the pump looks again under it */
	return data_race(rpcrdma2_link_has_room(&c->link, msgno));
}

/*
 * Post the Sends of @tx (shared/link.c), sleeping for room: the final
 * Send invalidates @inv_rkey (or 0) and takes @wl, the Writes posted
 * before it (or NULL).  Nothing else goes out between the Sends of a
 * continued message (V2-CONT-03); window acknowledgments still do
 * (rpcrdma2_pool_send_ack()).  Returns 0; -EPIPE: the Reply is out and
 * took @wl, but what waited behind it could not go; -ENOTCONN: it is
 * not out, @wl is still the caller's.  Either way the connection is
 * unusable then.
 */
static int rr2s_post_msg(struct rr2s_conn *c, struct rpcrdma2_tx *tx,
			 u32 nmsgs, u32 inv_rkey, struct rr2s_wlist *wl)
{
	u32 dropped = 0;
	int ret;

	spin_lock(&c->link.tx_lock);
	for (;;) {
		ret = -ENOTCONN;
		if (svc_xprt_is_dead(&c->b.xprt))
			break;
		ret = rpcrdma2_link_pump(&c->link, tx, nmsgs, inv_rkey, wl);
		if (ret != -EAGAIN)
			break;
		spin_unlock(&c->link.tx_lock);
		/* no Send buffer or window room: wait for one */
		rr2s_stat_inc(RR2S_STAT_SQ_STARVE);
		trace_rpcrdma2_svc_wait(&c->b.xprt.xpt_remote, tx->xid,
					"no Send buffer or window room",
					tx->msgno + 1);
		if (!wait_event_timeout(c->send_wait,
					rr2s_send_ready(c, tx->msgno + 1),
					RR2S_SEND_TIMEOUT)) {
			trace_rpcrdma2_svc_wait_timeout(&c->b.xprt.xpt_remote,
							tx->xid,
							"no Send buffer",
							tx->msgno + 1);
			spin_lock(&c->link.tx_lock);
			ret = -ENOTCONN;
			break;
		}
		spin_lock(&c->link.tx_lock);
	}
	if (ret && ret != -EPIPE) {	/* not out: the message is given up */
		ret = -ENOTCONN;
		dropped = rpcrdma2_link_pump_abort(&c->link, tx, nmsgs);
	}
	spin_unlock(&c->link.tx_lock);
	if (ret == -ENOTCONN && nmsgs > 1 && tx->msgno)
		trace_rpcrdma2_svc_seq_abort(&c->b.xprt.xpt_remote, tx->xid,
					     tx->msgno, nmsgs, dropped);
	return ret;
}

/*
 * As rr2s_send_msg(), the final Send invalidating @inv_rkey (or 0) and
 * releasing *@wlp (@wlp may be NULL): when the Reply or the error that
 * replaces it went out, the Send took it and *@wlp is NULL.
 */
static int rr2s_send_inv(struct rr2s_conn *c, struct rpcrdma2_tx *tx,
			 u32 inv_rkey, struct rr2s_wlist **wlp)
{
	struct rr2s_wlist *wl = wlp ? *wlp : NULL;
	u32 nmsgs, need;
	int ret;

	tx->vers = c->link.conn.vers;
	tx->credit = rr2s_credit(c);
	tx->inline_size = c->link.conn.send_inline;
	nmsgs = rpcrdma2_tx_nmsgs(tx);
	if (!nmsgs) {
		/* Version 1 without a usable Reply chunk (RFC 8166 4.5.2) */
		struct rpcrdma2_hdr h = { .xid = tx->xid, .vers = tx->vers };

		/*
		 * V2-ERR-44: neither inline, the Reply chunk nor
		 * continuation can carry it;
		 * V2-ERR-45: REPLY_RESOURCE says how much was needed
		 */
		need = rpcrdma2_tx_len(tx);
		if (!(tx->flags & RDMA2_F_RESPONSE))
			return -EMSGSIZE;
		/*
		 * Writes already posted for the Reply go with the error's
		 * Send, as they would have with the Reply's, and the
		 * connection stays up
		 */
		if (wl)
			rr2s_wlist_seal(wl);
		if (rr2s_send_error_ctx(c, &h, tx->vers == RPCRDMA2_VERS_1 ?
					RDMA2_ERR_BAD_XDR :
					RDMA2_ERR_REPLY_RESOURCE, need,
					c->link.local.max_vers, wl) && wl)
			*wlp = NULL;
		return -EMSGSIZE;
	}
	ret = rr2s_post_msg(c, tx, nmsgs, inv_rkey, wl);
	if ((!ret || ret == -EPIPE) && wl)	/* the final Send took it */
		*wlp = NULL;
	if (ret)
		return -ENOTCONN;
	if (nmsgs > 1)
		rr2s_stat_inc(RR2S_STAT_CONT_SENT);
	if (tx->flags & RDMA2_F_RESPONSE)
		trace_rpcrdma2_svc_reply(&c->b.xprt.xpt_remote, tx->xid,
					 tx->vers, nmsgs, tx->payload->len);
	else
		trace_rpcrdma2_svc_bc_call(&c->b.xprt.xpt_remote, tx->xid,
					   tx->vers, nmsgs, tx->payload->len);
	return 0;
}

/**
 * rr2s_send_msg - send one RPC message, inline or continued
 * @c: the connection; the caller holds its xpt_mutex (V2-CONT-03)
 * @tx: the message: xid, flags (RDMA2_F_RESPONSE for a Reply, 0 for a
 *	reverse Call), payload and any chunk lists; the rest is set here
 *
 * Waits for Send buffers and window acknowledgments.  Returns 0,
 * -EMSGSIZE (answered with an error when it was a Reply), or
 * -ENOTCONN when the connection is going away.
 */
int rr2s_send_msg(struct rr2s_conn *c, struct rpcrdma2_tx *tx)
{
	return rr2s_send_inv(c, tx, 0, NULL);
}

/* ---- chunks ---- */

/**
 * rr2s_result_payload - nfsd marks a data item it may reduce
 * @rqstp: the Call
 * @offset: where the item starts in rq_res
 * @length: its length, without XDR padding
 *
 * The n-th item goes into the n-th Write chunk (V2-CHUNK-19); an item
 * beyond the Call's Write chunks stays inline.  Always 0: a chunk that
 * is too small is answered in ->xpo_sendto (V2-ERR-40).
 */
int rr2s_result_payload(struct svc_rqst *rqstp, unsigned int offset,
			unsigned int length)
{
	struct rr2s_rctx *x = rqstp->rq_xprt_ctxt;
	u32 i;

	if (!x || !x->ch || !length || x->nres >= x->ch->nwrites)
		return 0;
	i = x->nres++;
	x->res[i].off = offset;
	x->res[i].len = round_up(length, 4);	/* V2-CHUNK-10 */
	x->res_len[i] = length;
	if (length > x->ch->writes[i].capacity && !x->short_chunk) {
		x->short_chunk = i + 1;			/* V2-ERR-41 */
		x->short_len = length;			/* V2-ERR-42 */
	}
	return 0;
}

/*
 * Set each segment's length to what was written into it: the chunk is
 * filled in order (V2-CHUNK-19, V2-CHUNK-20, V2-CHUNK-25).
 */
static void rr2s_echo_lengths(struct rpcrdma2_segment *segs, u32 nsegs,
			      u32 written)
{
	u32 i;

	for (i = 0; i < nsegs; i++) {
		segs[i].length = min(segs[i].length, written);
		written -= segs[i].length;
	}
}

static bool rr2s_call_has_handle(const struct rr2s_chunks *ch, u32 handle)
{
	u32 i;

	for (i = 0; i < ch->nreads; i++)
		if (ch->read_segs[i].handle == handle)
			return true;
	for (i = 0; i < ch->nsegs; i++)
		if (ch->segs[i].handle == handle)
			return true;
	return false;
}

/* The only rkey of the Call's chunks, or 0 when it has several. */
static u32 rr2s_single_handle(const struct rr2s_chunks *ch)
{
	u32 rkey = 0, i;

	for (i = 0; i < ch->nreads + ch->nsegs; i++) {
		u32 h = i < ch->nreads ? ch->read_segs[i].handle :
					 ch->segs[i - ch->nreads].handle;

		if (rkey && h != rkey)
			return 0;
		rkey = h;
	}
	return rkey;
}

/* The rkey the Reply's Send may invalidate, or 0 for a plain Send. */
static u32 rr2s_inv_rkey(const struct rr2s_conn *c, const struct rr2s_chunks *ch)
{
	if (!c->snd_w_inv)				/* CMP-RINV-01 */
		return 0;
	if (rpcrdma2_xch_no_reminv(&c->link.conn))		/* XCH-RINV-01 */
		return 0;
	if (c->link.conn.vers == RPCRDMA2_VERS_2) {
		/* V2-RINV-01: only a handle of this very Call */
		if (ch->inv_handle && rr2s_call_has_handle(ch, ch->inv_handle))
			return ch->inv_handle;		/* V2-RINV-04 */
		return 0;				/* V2-RINV-03 */
	}
	if (!c->peer_pdata.remote_inv)			/* CMP-RINV-04 */
		return 0;
	return rr2s_single_handle(ch);			/* CMP-RINV-03 */
}

/* A Write chunk too small for its item (V2-ERR-40); v1: ERR_CHUNK. */
static void rr2s_write_resource(struct rr2s_conn *c, const struct rr2s_rctx *x,
				u32 xid)
{
	struct rpcrdma2_hdr h = { .xid = xid, .vers = c->link.conn.vers };

	rr2s_send_error_args(c, &h, RDMA2_ERR_WRITE_RESOURCE, x->short_chunk,
			     x->short_len);
}

/*
 * A Reply to a Call with chunks.  The caller holds xpt_mutex.  Returns
 * as rr2s_send_msg().  The RDMA Writes are not waited for: *@wlp takes
 * them to the final Send (rw.c), which then owns it (*@wlp is NULL).
 */
static int rr2s_reply_chunks(struct rr2s_conn *c, struct rr2s_rctx *x,
			     struct rpcrdma2_tx *tx, struct rr2s_wlist **wlp)
{
	struct rr2s_wlist *wl = *wlp;
	struct rpcrdma2_chunk_out wout[RR2S_MAX_WRITE_CHUNKS], rout;
	struct rr2s_chunks *ch = x->ch;
	struct xdr_buf *res = tx->payload;
	struct rr2s_rw_dir d = {
		.dir	= DMA_TO_DEVICE,
		.xb	= res,
		.wl	= wl,
		.xid	= ch->xid,
	};
	const char *format = "inline";
	u32 i, written = 0, len;
	int ret;

	if (x->short_chunk) {
		rr2s_write_resource(c, x, tx->xid);
		return -EMSGSIZE;
	}
	/* 1. the result payloads, each into its Write chunk */
	for (i = 0; i < ch->nwrites; i++) {
		struct rr2s_wchunk *w = &ch->writes[i];
		u32 n = 0;

		if (i < x->nres) {
			n = x->res_len[i];
			if (x->res[i].off > res->len ||
			    n > res->len - x->res[i].off)
				return -EIO;	/* not in the Reply: a bug */
			ret = rr2s_rw_segs(c, &d, x->res[i].off,
					   &ch->segs[w->first], w->nsegs, n);
			if (ret)
				return ret;
			c->write_chunks++;
			rr2s_stat_inc(RR2S_STAT_WRITE_CHUNKS);
			written += n;
		}
		rr2s_echo_lengths(&ch->segs[w->first], w->nsegs, n);
		wout[i].nsegs = w->nsegs;
		wout[i].segs = &ch->segs[w->first];
	}
	for (i = 0; i < x->nres; i++) {
		x->res[i].len = min(x->res[i].len, res->len - x->res[i].off);
		/* the holes must be in order and apart (nfsd encodes so) */
		if (i && x->res[i].off < x->res[i - 1].off + x->res[i - 1].len)
			return -EIO;
	}
	tx->nr_writes = ch->nwrites;
	tx->writes = wout;
	tx->holes = x->res;
	tx->nholes = x->nres;

	/*
	 * 2. inline if it fits, else the Reply chunk if it is big enough
	 * and the header that returns it fits a Send
	 */
	tx->vers = c->link.conn.vers;
	tx->inline_size = c->link.conn.send_inline;
	len = rpcrdma2_tx_len(tx);
	if (ch->has_reply && rpcrdma2_tx_nmsgs(tx) != 1 &&
	    ch->reply.capacity >= len) {
		rout.nsegs = ch->reply.nsegs;
		rout.segs = &ch->segs[ch->reply.first];
		tx->reply = &rout;
		tx->nomsg = true;		/* V2-SPEC-01 */
		if (rpcrdma2_tx_nmsgs(tx) != 1) {
			tx->reply = NULL;	/* cannot say it: not used */
			tx->nomsg = false;
		}
	}
	if (tx->nomsg) {
		d.holes = x->res;
		d.nholes = x->nres;
		ret = rr2s_rw_segs(c, &d, 0, rout.segs, rout.nsegs, len);
		if (ret)
			return ret;
		rr2s_echo_lengths(&ch->segs[ch->reply.first], ch->reply.nsegs,
				  len);
		c->reply_chunks++;
		rr2s_stat_inc(RR2S_STAT_REPLY_CHUNKS);
		written += len;
		format = "reply-chunk";
	}

	/* 3. the Send(s), the last one maybe invalidating */
	i = rr2s_inv_rkey(c, ch);
	/* with no Write posted, nothing for the Send to release */
	ret = rr2s_send_inv(c, tx, i,
			    wl && !list_empty(&wl->batches) ? wlp : NULL);
	if (!ret) {
		if (i) {
			c->inv_sends++;
			rr2s_stat_inc(RR2S_STAT_SEND_INV);
		}
		trace_rpcrdma2_svc_reply_chunks(&c->b.xprt.xpt_remote, tx->xid,
						format, written, i);
	}
	return ret;
}

int rr2s_sendto(struct svc_rqst *rqstp)
{
	struct svc_xprt *xprt = rqstp->rq_xprt;
	struct rr2s_conn *c = rr2s_conn(xprt);
	struct rr2s_rctx *x = rqstp->rq_xprt_ctxt;
	struct rpcrdma2_tx tx = {
		.flags		= RDMA2_F_RESPONSE,
		.payload	= &rqstp->rq_res,
	};
	struct rr2s_wlist *wl = NULL;
	int ret = -EIO;

	/* this Call's credit comes back with its Reply */
	rqstp->rq_xprt_ctxt = NULL;
	if (x)
		atomic_dec(&c->outstanding);
	if (rqstp->rq_res.head[0].iov_len < 4)
		goto out;
	tx.xid = be32_to_cpup(rqstp->rq_res.head[0].iov_base);
	if (x && x->ch && (x->ch->nwrites || x->ch->has_reply))
		wl = rr2s_wlist_new(rqstp);	/* NULL: Writes waited for */
	mutex_lock(&xprt->xpt_mutex);
	ret = -ENOTCONN;
	if (!svc_xprt_is_dead(xprt))
		ret = x && x->ch ? rr2s_reply_chunks(c, x, &tx, &wl) :
				   rr2s_send_msg(c, &tx);
	if (wl)
		rr2s_wlist_drop(c, wl);	/* not the final Send's */
	mutex_unlock(&xprt->xpt_mutex);
	if (ret && ret != -EMSGSIZE) {
		/* V2-ERR-11: no Reply and no error could be sent */
		rr2s_close(c);
		ret = -ENOTCONN;
	} else {
		ret = ret ? 0 : rqstp->rq_res.len;
	}
out:
	if (x) {
		kfree(x->ch);
		kfree(x);
	}
	return ret;
}
