// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 client half: placing a forward Reply.
 *
 * Owns the Reply rebuilt around its chunks: the Write chunk's octets
 * are already in the request's pages, a Reply chunk holds the whole
 * Reply (V2-CHUNK-22, V2-SPEC-01); and the completion of its RPC.
 *
 * A Reply does not complete its RPC at once when the RPC has MRs: the
 * request stays pinned (xprt_pin_rqst) while frwr.c invalidates them,
 * and rr2c_reply_finish() completes it from the LOCAL_INV completion
 * (V2-SEC-08).  The pin keeps the task from releasing the request (and
 * its buffers) meanwhile.  Nothing is written into the request's
 * buffer before its MRs are invalid and DMA-unmapped either: the
 * unmap would overwrite or drop it under swiotlb or on a non-coherent
 * device.  The Receive holding the Reply's last message is kept (not
 * reposted) until then, and the Reply placed from it; it rides the
 * RPC's own credit, which the RPC holds until it completes.  A
 * continued Reply's earlier octets that fall at or past the position
 * of a registered Write chunk's item (or anywhere, with a Reply chunk)
 * wait in the connection's stage (RR2C_STAGE_SIZE): until the final
 * message, which alone carries the chunks (V2-CONT-08), nobody knows
 * whether they are the item or follow it.  rr2c_reply_write() is the
 * one place octets go into a forward request's buffer, and
 * CONFIG_RPCRDMA2_DEBUG_DMA checks the rule there.
 *
 * Concurrency: as reply.c's, in the CQ's work item.
 *
 * Called by: reply.c (a received Reply, its errors and chunks), frwr.c
 * (rr2c_reply_finish(), from the LOCAL_INV completion).
 */

#include <linux/sunrpc/xprt.h>

#include "rpcrdma2.h"
#include "client/client.h"
#include <trace/events/rpcrdma2.h>

/* ---- placing a forward Reply ---- */

/*
 * Every octet the Reply path writes into a forward request's receive
 * buffer goes through here.  None may land in a page that an MR still
 * has DMA-mapped (V2-SEC-08): the unmap (DMA_FROM_DEVICE) comes after,
 * and with swiotlb bouncing or a non-coherent device it overwrites or
 * drops what the CPU wrote.  CONFIG_RPCRDMA2_DEBUG_DMA checks it.
 */
static u32 rr2c_reply_write(struct rr2c *r, struct rr2c_req *req, u32 off,
			    const void *data, u32 len)
{
	struct xdr_buf *xb = &req->rq.rq_private_buf;

	if (IS_ENABLED(CONFIG_RPCRDMA2_DEBUG_DMA) && len &&
	    rr2c_frwr_maps(r, req, xb, off, len)) {
		r->stats.mapped_writes++;
		WARN_ONCE(1, "rpcrdma2: Reply octets written into DMA-mapped pages (xid 0x%08x)\n",
			  be32_to_cpu(req->rq.rq_xid));
	}
	return rpcrdma2_copy_to_xdr(xb, off, data, len);
}

/*
 * Octets [@from, @from + @n) of the held Reply's inline stream, @from
 * at or past rp_pre, to @dst of the receive buffer.  Returns the octets
 * copied.
 */
static u32 rr2c_stream_put(struct rr2c *r, struct rr2c_req *req, u32 from,
			   u32 n, u32 dst)
{
	const u8 *payload = (const u8 *)req->rp_rv->buf + req->rp_off;
	u32 s = from - req->rp_pre, k, done = 0;

	if (s < req->rp_staged) {
		k = min(n, req->rp_staged - s);
		done = rr2c_reply_write(r, req, dst, r->rx_stage + s, k);
		if (done < k || done == n)
			return done;
		s += k;
	}
	s -= req->rp_staged;
	return done + rr2c_reply_write(r, req, dst + done, payload + s,
				       n - done);
}

/*
 * Place the held Reply, its MRs invalid and unmapped (V2-SEC-08).
 * Without Write chunk data the inline stream follows what is already
 * in place.  With it (V2-CHUNK-22) the item sits where the upper layer
 * put its pages: after the head, trimmed to the inline octets that
 * precede it when those are fewer (the pages are not moved); the
 * item's octets are already in the pages, and the inline octets after
 * it follow its XDR pad, which neither the chunk nor the inline stream
 * carries (V2-CHUNK-10, V2-CHUNK-24).  Returns 0 and the Reply's length
 * in *@len, or -EIO.
 */
static int rr2c_reply_place(struct rr2c *r, struct rr2c_req *req, u32 *len)
{
	static const u8 zero[4];
	struct rpc_rqst *rq = &req->rq;
	struct xdr_buf *xb = &rq->rq_private_buf;
	u32 pre = req->rp_pre, wlen = req->rp_wlen;
	u32 total = pre + req->rp_staged + req->rp_plen;
	u32 hl = xb->head[0].iov_len, pos, pad, rest;

	if (!wlen) {
		/* octets beyond the buffer are dropped: the decoder sees */
		*len = pre + rr2c_stream_put(r, req, pre, total - pre, pre);
		return 0;
	}
	pos = min(hl, total);
	if (wlen > xb->page_len || pre > pos)	/* cannot be: checked */
		return -EIO;
	if (pos < hl) {
		u32 delta = hl - pos;

		rq->rq_rcv_buf.head[0].iov_len = pos;
		rq->rq_rcv_buf.buflen -= delta;
		xb->head[0].iov_len = pos;
		xb->buflen -= delta;
	}
	if (rr2c_stream_put(r, req, pre, pos - pre, pre) != pos - pre)
		return -EIO;
	/*
	 * The length counts the item's pad (the RPC layer takes only
	 * whole XDR words): after the item comes its pad, then the rest.
	 */
	pad = xdr_pad_size(wlen);
	*len = pos + wlen + pad;
	rest = total - pos;
	if (pad && rr2c_reply_write(r, req, pos + wlen, zero, pad) != pad)
		return -EIO;
	if (!rest)
		return 0;
	if (rr2c_stream_put(r, req, pos, rest, *len) != rest)
		return -EIO;
	*len += rest;
	r->stats.fixup_octets += rest;
	return 0;
}

/*
 * Place the Reply if it is still to be placed, and complete the RPC.
 * Returns the Receive that held its octets, if any.
 */
static struct rpcrdma2_recv *rr2c_reply_complete(struct rr2c *r,
						 struct rr2c_req *req)
{
	struct rpcrdma2_recv *rv = req->rp_rv;
	struct rpc_xprt *xprt = &r->xprt;
	struct rpc_rqst *rq = &req->rq;
	int ret;

	if (req->rp_place) {
		ret = rr2c_reply_place(r, req, &req->rp_len);
		if (ret) {
			req->rp_status = ret;
			r->stats.bad_chunks++;
			trace_rpcrdma2_clnt_bad_chunks(&xprt->addr,
						       be32_to_cpu(rq->rq_xid),
						       ret);
		}
		if (req->rp_staged)
			r->stage_held = false;
		req->rp_place = false;
	}
	req->rp_rv = NULL;
	if (req->rp_status)
		WRITE_ONCE(req->rp_error, req->rp_status);
	spin_lock(&xprt->queue_lock);
	if (req->rp_status)
		rq->rq_task->tk_status = req->rp_status;
	xprt_complete_rqst(rq->rq_task, req->rp_status ? 0 : req->rp_len);
	/*
	 * Held until the RPC shows it is answered (rq_reply_bytes_recvd
	 * or rp_error): a retransmission being marshaled must see one or
	 * the other, never neither (rr2c_frwr_answered()).
	 */
	smp_store_release(&req->rp_pending, false);
	xprt_unpin_rqst(rq);
	spin_unlock(&xprt->queue_lock);
	return rv;
}

/**
 * rr2c_reply_finish - place and complete a forward RPC's held-back Reply
 * @r: the transport
 * @req: the request, pinned; its rp_* fields are set
 *
 * Called from the LOCAL_INV completion, once the request's MRs are
 * invalid and unmapped (V2-SEC-08): only now do the Reply's inline
 * octets go into its pages.  Unpins the request, and reposts the
 * Receive that held the octets.
 */
void rr2c_reply_finish(struct rr2c *r, struct rr2c_req *req)
{
	struct rpcrdma2_recv *rv = rr2c_reply_complete(r, req);

	/* not while the endpoint drains: its buffers are going */
	if (rv && READ_ONCE(r->frwr.live))
		rr2c_repost(r, rv);
}

/*
 * Find and pin the forward request with @xid.  One whose Reply is
 * already held back is not completed twice.
 */
struct rpc_rqst *rr2c_reply_pin(struct rr2c *r, u32 xid)
{
	struct rpc_xprt *xprt = &r->xprt;
	struct rpc_rqst *rq;

	spin_lock(&xprt->queue_lock);
	rq = xprt_lookup_rqst(xprt, cpu_to_be32(xid));
	if (rq && rr2c_req(rq)->rp_pending)
		rq = NULL;
	if (rq)
		xprt_pin_rqst(rq);
	spin_unlock(&xprt->queue_lock);
	if (!rq)
		r->stats.bad_xids++;
	return rq;
}

static void rr2c_reply_unpin(struct rr2c *r, struct rpc_rqst *rq)
{
	spin_lock(&r->xprt.queue_lock);
	xprt_unpin_rqst(rq);
	spin_unlock(&r->xprt.queue_lock);
}

/*
 * A Receive for pinned request @rq came with Send With Invalidate: the
 * rkey must be one of this XID's (V2-RINV-08, CMP-RINV-06), and is not
 * invalidated again.  A stranger's rkey is a protocol error: the
 * request is unpinned without completing and the connection reset.
 */
bool rr2c_reply_remote_inv(struct rr2c *r, struct rpc_rqst *rq,
			   const struct rpcrdma2_recv *rv)
{
	if (!rv->remote_inv ||
	    !rr2c_frwr_remote_inv(r, rr2c_req(rq), rv->inv_rkey))
		return true;
	r->stats.bad_chunks++;
	trace_rpcrdma2_clnt_bad_chunks(&r->xprt.addr, be32_to_cpu(rq->rq_xid),
				       -EPROTO);
	rr2c_reply_unpin(r, rq);
	xprt_force_disconnect(&r->xprt);
	return false;
}

/*
 * Pinned request @rq's Reply is all here, or failed with @status (0:
 * @len octets in place, unless rp_place says it is still to be placed):
 * complete it once its MRs are invalid and unmapped.  Returns true when
 * the Receive with the Reply's last octets is kept until then: the
 * caller does not repost it, rr2c_reply_finish() does.
 */
bool rr2c_reply_done(struct rr2c *r, struct rpc_rqst *rq, int status,
		     u32 len)
{
	struct rr2c_req *req = rr2c_req(rq);
	bool held = req->rp_place;
	int ret;

	req->rp_status = status;
	req->rp_len = len;
	if (!held)
		req->rp_rv = NULL;
	ret = rr2c_frwr_reply_inv(r, req);
	if (ret < 0) {
		/*
		 * ->send_request is marshaling the Call again: this Reply,
		 * to the earlier transmission, cannot be placed in buffers
		 * being mapped; the Reply to the new one completes the RPC
		 */
		req->rp_place = false;
		req->rp_rv = NULL;
		r->stats.bad_xids++;
		rr2c_reply_unpin(r, rq);
		return false;
	}
	if (held && req->rp_staged)
		r->stage_held = true;
	if (ret)
		return held;
	rr2c_reply_complete(r, req);
	return false;
}

/*
 * The last message of pinned @rq's Reply, in @rv: its @plen octets at
 * @payload end the inline stream, around @wlen octets of Write chunk
 * data.  They are placed once the RPC's MRs are unmapped.
 */
bool rr2c_reply_last(struct rr2c *r, struct rpc_rqst *rq,
		     struct rpcrdma2_recv *rv, const u8 *payload,
		     u32 plen, u32 wlen)
{
	struct rr2c_req *req = rr2c_req(rq);

	req->rp_rv = rv;
	req->rp_place = true;
	req->rp_off = payload - (const u8 *)rv->buf;
	req->rp_plen = plen;
	req->rp_pre = r->rx_pre;
	req->rp_staged = r->rx_staged;
	req->rp_wlen = wlen;
	return rr2c_reply_done(r, rq, 0, 0);
}

/*
 * Below this offset a continued Reply's octets go straight into place;
 * from it on they may land where a Write or Reply chunk's pages are
 * still DMA-mapped, or belong after an item whose length only the
 * final message tells (V2-CONT-08), so they are staged.
 */
static u32 rr2c_direct_limit(const struct rr2c_req *req)
{
	if (req->nr_rpsegs)
		return 0;
	if (req->nr_wsegs)
		return req->rq.rq_private_buf.head[0].iov_len;
	return U32_MAX;
}

/* A message of a continued Reply before the last: in place or staged. */
static int rr2c_reply_stream(struct rr2c *r, struct rr2c_req *req,
			     const u8 *data, u32 len)
{
	u32 lim = rr2c_direct_limit(req), n;

	if (!r->rx_staged && r->rx_pre < lim) {
		n = min(len, lim - r->rx_pre);
		r->rx_pre += rr2c_reply_write(r, req, r->rx_pre, data, n);
		data += n;
		len -= n;
	}
	if (!len)
		return 0;
	/* another Reply's octets wait there for their pages */
	if (r->stage_held)
		return -EBUSY;
	/*
	 * Made before a Call with a Write chunk went out (send.c),
	 * and never too small: it is as large as the reassembly cap
	 * (V2-CONT-09), which rpcrdma2_reasm_add() enforced first
	 */
	if (WARN_ON_ONCE(!READ_ONCE(r->rx_stage) ||
			 len > RR2C_STAGE_SIZE - r->rx_staged))
		return -EMSGSIZE;
	memcpy(r->rx_stage + r->rx_staged, data, len);
	r->rx_staged += len;
	return 0;
}

/*
 * One message of a forward Reply without chunk lists; the request is
 * found and pinned again for each.  Returns 1 when @rv is held (the
 * last message, placed once the MRs are unmapped), 0, or a negative
 * errno: the rest of the Reply is to be dropped.
 */
int rr2c_reply_part(struct rr2c *r, struct rpcrdma2_recv *rv,
		    const u8 *payload, u32 plen, bool last)
{
	struct rpc_rqst *rq = rr2c_reply_pin(r, r->rx_xid);
	int ret;

	if (!rq)
		return 0;
	if (!rr2c_reply_remote_inv(r, rq, rv))
		return -EPROTO;
	if (last)
		return rr2c_reply_last(r, rq, rv, payload, plen, 0);
	ret = rr2c_reply_stream(r, rr2c_req(rq), payload, plen);
	if (ret == -EBUSY)
		r->stats.stage_busy++;
	else if (ret)		/* dropped as a continuation fault (V2-ERR-24) */
		r->stats.bad_hdrs++;
	rr2c_reply_unpin(r, rq);
	return ret;
}
