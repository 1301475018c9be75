// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 client half: FRWR memory registration.
 *
 * Owns what is done with the MRs of one connection: mapping a region
 * of an RPC's xdr_buf and registering it, and invalidating it when the
 * Reply comes or the task leaves.  An MR exposes part of one RPC's
 * xdr_buf (a chunk's segment) from the Call's REG_MR until its
 * invalidation, and nothing else.  The MRs themselves (the pool, its
 * growth, an MR's release and quarantine, teardown) are mr.c's.
 *
 * Normal operation.  The marshaling code (marshal.c, under the
 * transport's tx_lock) maps a region with rr2c_frwr_map(): MRs are
 * taken from the free list, their pages DMA-mapped and loaded with
 * ib_map_mr_sg(), the rkey's low byte bumped (V2-SEC-05), and an
 * unsignaled REG_MR prepared for each; rr2c_frwr_reg_chain() links
 * them in front of the Call's Send.  When the Reply arrives (reply.c
 * and place.c, the CQ's work item), an rkey the server invalidated
 * with Send With Invalidate is checked against the XID's MRs
 * (V2-RINV-08) and simply released; every other MR gets a LOCAL_INV,
 * chained, the last one signaled, and the RPC's Reply is placed and
 * the RPC completed from that completion, after the pages are
 * DMA-unmapped (V2-SEC-08).  Nothing waits in the CQ's context.
 *
 * Abnormal termination.  A task that leaves with MRs still registered
 * (signal, timeout: ->buf_free) invalidates them synchronously before
 * its buffers are freed (V2-SEC-09).  The rpc_rqst is pinned while a
 * Reply is being processed, so that path and the Reply path never run
 * for one request at once.
 *
 * Transport recovery.  A REG_MR or LOCAL_INV that fails or is flushed
 * leaves its MR in an unknown state: the MR is quarantined (never
 * reused) and the connection is reset.  Teardown first stops new posts
 * (rr2c_frwr_quiesce(), after rdma_disconnect() moved the QP to the
 * error state, so the peer can no longer reach any MR), then the
 * endpoint drains and destroys the QP and frees the CQ, and only then
 * does rr2c_frwr_destroy() unmap and deregister every MR, quarantined
 * or not, before the PD goes.
 *
 * Tracing: each MR has a completion ID from the endpoint, which the
 * trace events of its REG_MR and LOCAL_INV posts and completions carry
 * with the XID of the request that registered it.
 *
 * Locking: rr2c_frwr.lock (a spinlock, taken in process context and in
 * the CQ's work item) guards every MR's state, the free list and each
 * request's MR list.  WRs are posted under it, so a post never races
 * with teardown.
 *
 * Called by: marshal.c, place.c, send.c, transport.c (->buf_free).
 */

#include <linux/mm.h>
#include <linux/vmalloc.h>
#include <linux/sunrpc/xprt.h>

#include "rpcrdma2.h"
#include "client/client.h"
#include "shared/fault.h"
#include <trace/events/rpcrdma2.h>

/* ... and so does a LOCAL_INV that is not the last of its chain. */
static void rr2c_frwr_inv_failed(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rr2c_mr *mr = container_of(wc->wr_cqe, struct rr2c_mr, inv_cqe);

	trace_rpcrdma2_clnt_inv_done(&mr->cid, &mr->r->xprt.addr, mr->xid, wc);
	rr2c_frwr_wr_failed(mr, wc, "local_inv");
}

/*
 * The last LOCAL_INV of a request's chain completed: every earlier one
 * has too (a Send queue completes in order).  Unmap and free the MRs,
 * quarantine those whose invalidation failed, then let the waiter or
 * the held-back Reply go.
 */
static void rr2c_frwr_inv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rr2c_mr *last = container_of(wc->wr_cqe, struct rr2c_mr,
					    inv_cqe);
	struct rr2c *r = last->r;
	struct rr2c_req *req = last->req;
	struct rr2c_frwr *f = &r->frwr;
	struct rr2c_mr *mr, *tmp;
	bool bad = false, sync, finish;

	trace_rpcrdma2_clnt_inv_done(&last->cid, &r->xprt.addr, last->xid, wc);
	if (wc->status != IB_WC_SUCCESS)
		rr2c_frwr_wr_failed(last, wc, "local_inv");
	spin_lock(&f->lock);
	list_for_each_entry_safe(mr, tmp, &req->mrs, node) {
		if (mr->state != RR2C_MR_INV)
			continue;
		trace_rpcrdma2_clnt_mr(&mr->cid, &r->xprt.addr, mr->xid,
				       mr->mr->rkey, "local_inv",
				       mr->mr->length);
		if (mr->failed) {
			bad = true;
			rr2c_frwr_quarantine_locked(r, mr);
		} else {
			r->stats.mrs_local_inv++;
			rr2c_frwr_release_locked(r, mr);
		}
	}
	sync = req->inv_sync;
	/* a Reply came while ->send_request's invalidation was in flight */
	finish = !sync || req->rp_wait_sync;
	req->rp_wait_sync = false;
	spin_unlock(&f->lock);
	/* V2-ERR-10: not invalidated: close before the RPC completes */
	if (bad)
		xprt_force_disconnect(&r->xprt);
	if (sync)
		complete(&req->inv_done);	/* the pin keeps req */
	if (finish)
		rr2c_reply_finish(r, req);	/* req may be gone after this */
	xprt_write_space(&r->xprt);		/* MRs are back */
}

/* The octets of @xb's stream: head, pages, tail. */
static u32 rr2c_xb_capacity(const struct xdr_buf *xb)
{
	return xb->head[0].iov_len + xb->page_len + xb->tail[0].iov_len;
}

static struct page *rr2c_kva_page(const void *p)
{
	return is_vmalloc_addr(p) ? vmalloc_to_page(p) : virt_to_page(p);
}

/*
 * The piece of @xb's stream at @off: at most @max octets, within one
 * page.  Returns its length, or 0 if @off is past the stream or its
 * page is missing.
 */
static u32 rr2c_xb_piece(const struct xdr_buf *xb, u32 off, u32 max,
			 struct page **page, u32 *poff)
{
	u32 hl = xb->head[0].iov_len, pl = xb->page_len;
	u32 tl = xb->tail[0].iov_len, n;
	const u8 *kva;

	if (off < hl) {
		kva = (const u8 *)xb->head[0].iov_base + off;
		n = hl - off;
	} else if (off < hl + pl) {
		u32 pg = xb->page_base + off - hl;

		*page = xb->pages[pg >> PAGE_SHIFT];
		*poff = offset_in_page(pg);
		if (!*page)
			return 0;
		return min3(max, (u32)PAGE_SIZE - *poff, hl + pl - off);
	} else if (off < hl + pl + tl) {
		kva = (const u8 *)xb->tail[0].iov_base + off - hl - pl;
		n = hl + pl + tl - off;
	} else {
		return 0;
	}
	if (!kva)
		return 0;
	*page = rr2c_kva_page(kva);
	*poff = offset_in_page(kva);
	return min3(max, (u32)PAGE_SIZE - *poff, n);
}

/* DMA-map and load one MR; describe it as a segment. */
static int rr2c_frwr_load(struct rr2c *r, struct rr2c_mr *mr, bool writing,
			  struct rpcrdma2_segment *seg)
{
	struct ib_device *dev = rr2c_frwr_dev(r);
	int n;

	sg_mark_end(&mr->sg[mr->nsg - 1]);
	n = rpcrdma2_fail(RPCRDMA2_FAIL_REG) ? 0 :
	    ib_dma_map_sg(dev, mr->sg, mr->nsg, mr->dir);
	if (!n) {
		trace_rpcrdma2_dma_map_err(&r->xprt.addr,
					   be32_to_cpu(mr->req->rq.rq_xid),
					   "mr sg", mr->nsg, -ENOMEM);
		return -ENOMEM;	/* mapping space (IOMMU, bounce) ran out */
	}
	mr->nents = n;
	if (ib_map_mr_sg(mr->mr, mr->sg, n, NULL, PAGE_SIZE) != n) {
		trace_rpcrdma2_dma_map_err(&r->xprt.addr,
					   be32_to_cpu(mr->req->rq.rq_xid),
					   "mr map", n, -EIO);
		return -EIO;
	}
	/* V2-SEC-05: a new key for every registration */
	ib_update_fast_reg_key(mr->mr, ib_inc_rkey(mr->mr->rkey));
	memset(&mr->reg_wr, 0, sizeof(mr->reg_wr));
	mr->reg_wr.wr.opcode = IB_WR_REG_MR;
	mr->reg_wr.wr.wr_cqe = &mr->reg_cqe;
	mr->reg_wr.mr = mr->mr;
	mr->reg_wr.key = mr->mr->rkey;
	mr->reg_wr.access = writing ?
		IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE :
		IB_ACCESS_REMOTE_READ;
	seg->handle = mr->mr->rkey;
	seg->length = mr->mr->length;
	seg->offset = mr->mr->iova;
	trace_rpcrdma2_clnt_mr(&mr->cid, &r->xprt.addr,
			       be32_to_cpu(mr->req->rq.rq_xid), seg->handle,
			       writing ? "reg_write" : "reg_read", seg->length);
	return 0;
}

/**
 * rr2c_frwr_map - register part of an xdr_buf as one chunk
 * @r: the transport
 * @req: the request the MRs belong to
 * @xb: the buffer
 * @off: where the chunk starts in the buffer's stream
 * @len: its octets (none: no segments)
 * @writing: the peer writes it (Write and Reply chunks)
 * @segs: RR2C_MAX_SEGS segments, filled in
 * @nsegs: set to the segments used
 *
 * An MR covers contiguous pages: a piece that starts inside a page, or
 * follows one that ends inside a page, starts a new MR, as does a full
 * one or one of the connection's segment size, which is within the
 * device's MR size and the peer's RSSIZ (V2-CHUNK-30).  The MRs stay
 * on @req->mrs, mapped but not posted, until rr2c_frwr_reg_chain(); on
 * failure the caller releases them with rr2c_frwr_unmap_unposted().
 *
 * Returns 0, -EAGAIN (no free MR: wait for one), -E2BIG (the region
 * needs more segments than the connection's chunks may have: the
 * caller continues the RPC or makes it smaller instead),
 * -EALREADY (the RPC is answered: rr2c_frwr_get()), -ENOMEM (a DMA
 * mapping failed: try again later), or a negative errno.
 */
int rr2c_frwr_map(struct rr2c *r, struct rr2c_req *req, struct xdr_buf *xb,
		  u32 off, u32 len, bool writing,
		  struct rpcrdma2_segment *segs, u32 *nsegs)
{
	u32 max_seg = r->seg_size, end = off + len, prev_end = 0, mrlen = 0;
	struct rr2c_mr *mr = NULL;
	struct page *page;
	u32 poff, n;
	int ret;

	*nsegs = 0;
	if (!len)
		return 0;
	if (end < off || end > rr2c_xb_capacity(xb))
		return -EINVAL;
	if (!max_seg || !r->chunk_segs)
		return -E2BIG;
	while (off < end) {
		n = rr2c_xb_piece(xb, off, end - off, &page, &poff);
		if (!n)
			return -EIO;
		if (mr && (mr->nsg == r->frwr.depth || prev_end != PAGE_SIZE ||
			   poff || mrlen == max_seg)) {
			ret = rr2c_frwr_load(r, mr, writing, &segs[*nsegs]);
			if (ret)
				return ret;
			(*nsegs)++;
			mr = NULL;
		}
		if (!mr) {
			if (*nsegs == min_t(u32, r->chunk_segs,
					    RR2C_MAX_SEGS)) {
				trace_rpcrdma2_clnt_too_many_segs(&r->xprt.addr,
								  be32_to_cpu(req->rq.rq_xid),
								  "chunk needs more segments",
								  *nsegs);
				return -E2BIG;
			}
			mr = rr2c_frwr_get(r, req);
			if (IS_ERR(mr))
				return PTR_ERR(mr);
			if (!mr)
				return -EAGAIN;
			mr->dir = writing ? DMA_FROM_DEVICE : DMA_TO_DEVICE;
			sg_init_table(mr->sg, r->frwr.depth);
			mrlen = 0;
		}
		n = min(n, max_seg - mrlen);
		sg_set_page(&mr->sg[mr->nsg++], page, n, poff);
		prev_end = poff + n;
		mrlen += n;
		off += n;
	}
	ret = rr2c_frwr_load(r, mr, writing, &segs[*nsegs]);
	if (!ret)
		(*nsegs)++;
	return ret;
}

/**
 * rr2c_frwr_reg_chain - put the REG_MRs of @req's new MRs before @last
 * @r: the transport
 * @req: the request
 * @last: the Call's Send
 *
 * Returns the first work request of the chain.
 */
struct ib_send_wr *rr2c_frwr_reg_chain(struct rr2c *r, struct rr2c_req *req,
				       struct ib_send_wr *last)
{
	struct ib_send_wr *first = last, **pp = &first;
	struct rr2c_mr *mr;

	spin_lock(&r->frwr.lock);
	list_for_each_entry(mr, &req->mrs, node) {
		if (mr->state != RR2C_MR_MAPPED)
			continue;
		mr->state = RR2C_MR_REG;
		mr->xid = be32_to_cpu(req->rq.rq_xid);
		r->stats.mrs_registered++;
		trace_rpcrdma2_clnt_reg_post(&mr->cid, &r->xprt.addr, mr->xid,
					     mr->mr->rkey, mr->mr->length);
		*pp = &mr->reg_wr.wr;
		pp = &mr->reg_wr.wr.next;
	}
	*pp = last;
	spin_unlock(&r->frwr.lock);
	return first;
}

/* Release the MRs of a Call that was not posted. */
void rr2c_frwr_unmap_unposted(struct rr2c *r, struct rr2c_req *req)
{
	struct rr2c_mr *mr, *tmp;

	spin_lock(&r->frwr.lock);
	list_for_each_entry_safe(mr, tmp, &req->mrs, node)
		if (mr->state == RR2C_MR_MAPPED)
			rr2c_frwr_release_locked(r, mr);
	spin_unlock(&r->frwr.lock);
}

/**
 * rr2c_frwr_owns - is @handle one of @req's registered MRs?
 * @r: the transport
 * @req: the request
 * @handle: an rkey from the wire
 */
bool rr2c_frwr_owns(struct rr2c *r, struct rr2c_req *req, u32 handle)
{
	struct rr2c_mr *mr;
	bool found = false;

	spin_lock(&r->frwr.lock);
	list_for_each_entry(mr, &req->mrs, node)
		if (mr->state == RR2C_MR_REG && mr->mr->rkey == handle)
			found = true;
	spin_unlock(&r->frwr.lock);
	return found;
}

/**
 * rr2c_frwr_maps - does part of @xb lie in a page an MR maps for writing?
 * @r: the transport
 * @req: the request
 * @xb: one of its buffers
 * @off: where in @xb's stream
 * @len: how many octets
 *
 * For the check that nothing is written into pages still DMA-mapped
 * for the device (place.c, CONFIG_RPCRDMA2_DEBUG_DMA).
 */
bool rr2c_frwr_maps(struct rr2c *r, struct rr2c_req *req,
		    const struct xdr_buf *xb, u32 off, u32 len)
{
	struct scatterlist *sg;
	struct rr2c_mr *mr;
	struct page *page;
	bool found = false;
	u32 poff, n;
	int i;

	spin_lock(&r->frwr.lock);
	while (!found && len) {
		n = rr2c_xb_piece(xb, off, len, &page, &poff);
		if (!n)
			break;
		list_for_each_entry(mr, &req->mrs, node) {
			/* only a device-to-memory unmap writes the pages */
			if (!mr->nents || mr->dir == DMA_TO_DEVICE)
				continue;
			for_each_sg(mr->sg, sg, mr->nsg, i)
				if (sg_page(sg) == page)
					found = true;
		}
		off += n;
		len -= n;
	}
	spin_unlock(&r->frwr.lock);
	return found;
}

/**
 * rr2c_frwr_remote_inv - the server invalidated @rkey with its Reply
 * @r: the transport
 * @req: the request the Reply is for
 * @rkey: the invalidated rkey (IB_WC_WITH_INVALIDATE)
 *
 * Returns 0, or -EPROTO if @rkey is not one of @req's registered MRs:
 * a protocol error (V2-RINV-08, CMP-RINV-06).
 */
int rr2c_frwr_remote_inv(struct rr2c *r, struct rr2c_req *req, u32 rkey)
{
	struct rr2c_mr *mr, *tmp;
	int ret = -EPROTO;

	spin_lock(&r->frwr.lock);
	list_for_each_entry_safe(mr, tmp, &req->mrs, node) {
		if (mr->state != RR2C_MR_REG || mr->mr->rkey != rkey)
			continue;
		trace_rpcrdma2_clnt_mr(&mr->cid, &r->xprt.addr, mr->xid, rkey,
				       "remote_inv", mr->mr->length);
		r->stats.mrs_remote_inv++;
		rr2c_frwr_release_locked(r, mr);
		ret = 0;
		break;
	}
	spin_unlock(&r->frwr.lock);
	if (!ret)
		xprt_write_space(&r->xprt);	/* an MR is back */
	return ret;
}

/*
 * Post LOCAL_INV for every registered MR of @req, the last signaled.
 * Returns true if posted: rr2c_frwr_inv_done() follows.  When nothing
 * can be posted (the connection is going, or the post failed) the MRs
 * are quarantined: the QP is in the error state, so the peer cannot
 * reach them, and teardown deregisters them.
 */
static bool rr2c_frwr_post_inv_locked(struct rr2c *r, struct rr2c_req *req,
				      bool sync)
{
	struct ib_send_wr *first = NULL, **pp = &first;
	const struct ib_send_wr *bad;
	struct rr2c_mr *mr, *tmp, *last = NULL;

	lockdep_assert_held(&r->frwr.lock);
	list_for_each_entry_safe(mr, tmp, &req->mrs, node) {
		if (mr->state == RR2C_MR_MAPPED) {
			rr2c_frwr_release_locked(r, mr);
			continue;
		}
		if (mr->state != RR2C_MR_REG)
			continue;
		mr->state = RR2C_MR_INV;
		memset(&mr->inv_wr, 0, sizeof(mr->inv_wr));
		mr->inv_wr.opcode = IB_WR_LOCAL_INV;
		mr->inv_wr.ex.invalidate_rkey = mr->mr->rkey;
		mr->inv_wr.wr_cqe = &mr->inv_cqe;
		mr->inv_cqe.done = rr2c_frwr_inv_failed;
		trace_rpcrdma2_clnt_inv_post(&mr->cid, &r->xprt.addr, mr->xid,
					     mr->mr->rkey, mr->mr->length);
		*pp = &mr->inv_wr;
		pp = &mr->inv_wr.next;
		last = mr;
	}
	if (!last)
		return false;
	req->inv_sync = sync;
	last->inv_cqe.done = rr2c_frwr_inv_done;
	last->inv_wr.send_flags = IB_SEND_SIGNALED;
	if (r->frwr.live && !ib_post_send(r->link.ep.id->qp, first, &bad))
		return true;
	if (r->frwr.live)
		xprt_force_disconnect(&r->xprt);
	list_for_each_entry_safe(mr, tmp, &req->mrs, node)
		if (mr->state == RR2C_MR_INV)
			rr2c_frwr_quarantine_locked(r, mr);
	return false;
}

/**
 * rr2c_frwr_reply_inv - invalidate @req's MRs after its Reply
 * @r: the transport
 * @req: the request, pinned by the caller
 *
 * The Reply is held (rp_pending) from here on, so that ->send_request
 * does not send the Call again (rr2c_op_send_request()).  Two states
 * of a retransmission in progress decide otherwise, seen under the
 * same lock: MRs mapped but not yet registered mean a new transmission
 * is being marshaled, and the Reply (to the earlier one) is dropped;
 * a synchronous invalidation in flight (->send_request's) is waited
 * for, and its completion finishes the Reply too.
 *
 * Returns 1 if rr2c_reply_finish() follows from a LOCAL_INV completion,
 * 0 if nothing is left registered (finish now), or -EBUSY (drop).
 */
int rr2c_frwr_reply_inv(struct rr2c *r, struct rr2c_req *req)
{
	bool in_flight = false;
	struct rr2c_mr *mr;
	int ret;

	spin_lock(&r->frwr.lock);
	list_for_each_entry(mr, &req->mrs, node) {
		if (mr->state == RR2C_MR_MAPPED) {
			spin_unlock(&r->frwr.lock);
			return -EBUSY;
		}
		if (mr->state == RR2C_MR_INV)
			in_flight = true;
	}
	req->rp_pending = true;
	if (in_flight && req->inv_sync) {
		req->rp_wait_sync = true;
		ret = 1;
	} else {
		ret = rr2c_frwr_post_inv_locked(r, req, false);
	}
	spin_unlock(&r->frwr.lock);
	return ret;
}

/**
 * rr2c_frwr_reply_held - is a Reply to @req held for its invalidation?
 * @r: the transport
 * @req: a forward request
 */
bool rr2c_frwr_reply_held(struct rr2c *r, struct rr2c_req *req)
{
	bool held;

	spin_lock(&r->frwr.lock);
	held = req->rp_pending;
	spin_unlock(&r->frwr.lock);
	return held;
}

/**
 * rr2c_frwr_unmap_sync - invalidate @req's MRs and wait (V2-SEC-09)
 * @r: the transport
 * @req: a request no Reply path holds (the caller owns it)
 *
 * For an RPC that ends without its Reply, and for a retransmission on
 * the same connection: the memory is not reused until the peer can no
 * longer reach it.
 */
void rr2c_frwr_unmap_sync(struct rr2c *r, struct rr2c_req *req)
{
	bool posted;

	might_sleep();
	spin_lock(&r->frwr.lock);
	if (list_empty(&req->mrs)) {
		spin_unlock(&r->frwr.lock);
		return;
	}
	reinit_completion(&req->inv_done);
	posted = rr2c_frwr_post_inv_locked(r, req, true);
	spin_unlock(&r->frwr.lock);
	if (posted)
		wait_for_completion(&req->inv_done);
	xprt_write_space(&r->xprt);
}
