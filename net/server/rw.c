// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 server half: RDMA Read and Write through the kernel's rdma_rw
 * API.
 *
 * Only a Responder initiates RDMA (V2-CHUNK-01): the server pulls a
 * Call's Read chunks from the client's memory and pushes results into
 * its Write and Reply chunks.  Both go through rr2s_rw_segs(), which
 * moves a range of local octets to or from a list of the client's
 * segments, filling each segment in list order (V2-CHUNK-14,
 * V2-CHUNK-19).
 *
 * The local side is either
 *   - an xdr_buf (a Reply, RDMA Write) less its holes: the reduced
 *     payload of a Reply chunk skips what went into Write chunks, or
 *   - the rqstp's page array (a Call, RDMA Read), at a byte offset.
 *
 * Each segment becomes one rdma_rw context over a scatterlist of the
 * local octets; rdma_rw decides the work requests (and registers memory
 * where the device needs it, as iWARP does for RDMA Read sinks).  The
 * contexts of a batch are posted as one chain.
 *
 * RDMA Reads: the chain's last work request is signaled and the caller
 * sleeps until that completion, as nfsd needs the data: the batch is
 * done, or the connection failed under it (a flush), before its memory
 * is unmapped or given back to nfsd.
 *
 * RDMA Writes of a Reply: nothing in the chain is signaled and nobody
 * waits.  The batch joins the Reply's rr2s_wlist, the Reply's Send(s)
 * follow on the same queue at once (V2-CHUNK-32: the Writes may
 * overlap the Send; the receiver sees their data placed before the
 * Send's message), and the final Send's completion, which comes after
 * every work request posted before it, releases the batches and the
 * Reply's pages.  So a Reply never waits for a round trip of its own
 * Writes, and the next Reply on the connection does not either.
 *
 * Concurrency: batches are posted one at a time per connection, under
 * rw_mutex, none larger than RR2S_RW_CTXS contexts; rw_inflight counts
 * the work requests of every batch on the Send Queue and stays within
 * the room the endpoint reserved for them (RR2S_RW_BUDGET): a poster
 * waits for other Replies' Writes to be released.  A Reply whose own
 * unsignaled Writes would pass half the room posts its next batch
 * signaled and waits for it, which retires the earlier ones too.  Callers run in nfsd thread
 * context and may sleep.  Lock order: xpt_mutex (sendto), then
 * rw_mutex.  Nothing is posted once the transport is dead, and
 * ->xpo_detach drains the QP under both, so the drain never races a
 * post.
 *
 * A chain the provider took only in part has no signaled end on the
 * queue, so nothing says when its work requests are done: the batch is
 * parked on the connection until the drain, and the pages an RDMA Read
 * may still write are swapped out of the rqstp, so nfsd never reuses
 * them under the device.
 *
 * Each posting of a batch takes a new completion ID from the endpoint,
 * which its post and completion trace events carry with the Call's XID.
 *
 * Called by: recvfrom.c (Read chunks), sendto.c (Write, Reply chunks).
 */

#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/sunrpc/svc.h>
#include <rdma/rw.h>

#include "server/server.h"
#include "shared/fault.h"
#include <trace/events/rpcrdma2.h>

/*
 * Work requests of batches on the Send Queue at once, at most: the room
 * the endpoint reserved (rdma_rw's per-context one and ours); and of
 * one batch, or of a Reply's unsignaled Writes together.
 */
#define RR2S_RW_BUDGET		(RR2S_RW_CTXS + RR2S_RW_EXTRA_WRS)
#define RR2S_RW_BATCH_MAX	(RR2S_RW_BUDGET / 2)

struct rr2s_rw_batch {
	struct list_head	wl;		/* rr2s_wlist.batches */
	struct ib_cqe		cqe;
	struct completion	done;
	enum ib_wc_status	status;
	u32			n;		/* contexts in use */
	u32			nwrs;		/* their work requests */
	/* a batch posted only in part: kept until the QP is drained */
	struct list_head	orphan;
	enum dma_data_direction	dir;
	struct page		**stolen;	/* Read sinks taken from nfsd */
	u32			nstolen;
	/* for the trace events: one completion ID per posting */
	struct rpcrdma2_cid	cid;
	const struct sockaddr	*peer;
	u32			xid;
	struct {
		struct rdma_rw_ctx	ctx;
		struct scatterlist	*sgl;
		u32			nents;
	} rw[RR2S_RW_CTXS];
};

static void rr2s_rw_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rr2s_rw_batch *b = container_of(wc->wr_cqe, struct rr2s_rw_batch,
					       cqe);

	if (b->dir == DMA_FROM_DEVICE)
		trace_rpcrdma2_svc_read_done(&b->cid, b->peer, b->xid, wc);
	else
		trace_rpcrdma2_svc_write_done(&b->cid, b->peer, b->xid, wc);
	b->status = wc->status;
	complete(&b->done);
}

/* ---- the local octets as a scatterlist ---- */

struct rr2s_sgb {
	struct scatterlist	*sgl;
	u32			n;
	u32			max;
};

static int sgb_add(struct rr2s_sgb *sb, struct page *page, u32 off, u32 len)
{
	if (sb->n == sb->max)
		return -EIO;
	sg_set_page(&sb->sgl[sb->n++], page, len, off);
	return 0;
}

/* Kernel virtual memory (an xdr_buf's head or tail), cut at pages. */
static int sgb_add_kvec(struct rr2s_sgb *sb, const u8 *p, u32 len)
{
	while (len) {
		u32 n = min_t(u32, len, PAGE_SIZE - offset_in_page(p));

		if (sgb_add(sb, virt_to_page(p), offset_in_page(p), n))
			return -EIO;
		p += n;
		len -= n;
	}
	return 0;
}

static int sgb_add_pages(struct rr2s_sgb *sb, struct page **pages, u32 off,
			 u32 len)
{
	while (len) {
		u32 po = offset_in_page(off);
		u32 n = min_t(u32, len, PAGE_SIZE - po);

		if (!pages[off >> PAGE_SHIFT] ||
		    sgb_add(sb, pages[off >> PAGE_SHIFT], po, n))
			return -EIO;
		off += n;
		len -= n;
	}
	return 0;
}

/* [@off, @off + @len) of @xb's unreduced octets. */
static int sgb_add_xdr(struct rr2s_sgb *sb, const struct xdr_buf *xb, u32 off,
		       u32 len)
{
	const struct kvec *head = &xb->head[0], *tail = &xb->tail[0];
	u32 n;

	if (off < head->iov_len) {
		n = min_t(u32, len, head->iov_len - off);
		if (sgb_add_kvec(sb, (u8 *)head->iov_base + off, n))
			return -EIO;
		off += n;
		len -= n;
	}
	off -= min_t(u32, off, head->iov_len);
	if (len && off < xb->page_len) {
		n = min_t(u32, len, xb->page_len - off);
		if (sgb_add_pages(sb, xb->pages, xb->page_base + off, n))
			return -EIO;
		off += n;
		len -= n;
	}
	off -= min_t(u32, off, xb->page_len);
	if (len) {
		if (off + len > tail->iov_len)
			return -EIO;
		if (sgb_add_kvec(sb, (u8 *)tail->iov_base + off, len))
			return -EIO;
	}
	return 0;
}

/* [@off, @off + @len) of the reduced stream: @d's holes are skipped. */
static int sgb_add_reduced(struct rr2s_sgb *sb, const struct rr2s_rw_dir *d,
			   u32 off, u32 len)
{
	while (len) {
		u32 orig, run, n;

		orig = rpcrdma2_holes_map(d->holes, d->nholes, d->xb->len, off,
					  &run);
		if (!run)
			return -EIO;
		n = min(len, run);
		if (sgb_add_xdr(sb, d->xb, orig, n))
			return -EIO;
		off += n;
		len -= n;
	}
	return 0;
}

/* Entries a range of @len octets can need: pages, plus head and tail. */
static u32 sgb_bound(const struct rr2s_rw_dir *d, u32 len)
{
	return (len >> PAGE_SHIFT) + 4 + (d->xb ? 3 * (d->nholes + 1) : 0);
}

/* ---- batches ---- */

static void rr2s_rw_release(struct rr2s_conn *c, struct rr2s_rw_batch *b,
			    enum dma_data_direction dir)
{
	struct rdma_cm_id *id = c->b.id;
	u32 i;

	for (i = 0; i < b->n; i++) {
		rdma_rw_ctx_destroy(&b->rw[i].ctx, id->qp, id->port_num,
				    b->rw[i].sgl, b->rw[i].nents, dir);
		kfree(b->rw[i].sgl);
	}
	b->n = 0;
	b->nwrs = 0;
}

/*
 * Park a batch that was posted in part.  A Read sink belongs to nfsd:
 * each page of the rqstp is swapped for a fresh one (when one can be
 * had) and kept with the batch.
 */
static void rr2s_rw_orphan(struct rr2s_conn *c, struct rr2s_rw_batch *b,
			   const struct rr2s_rw_dir *d)
{
	struct svc_rqst *rqstp = d->rqstp;
	struct page *fresh;
	u32 i;

	b->dir = d->dir;
	if (rqstp)
		b->stolen = kcalloc(ARRAY_SIZE(rqstp->rq_pages),
				    sizeof(*b->stolen), GFP_KERNEL);
	for (i = 0; b->stolen && i < ARRAY_SIZE(rqstp->rq_pages); i++) {
		if (!rqstp->rq_pages[i])
			continue;
		fresh = alloc_page(GFP_KERNEL);
		if (!fresh)
			break;
		b->stolen[b->nstolen++] = rqstp->rq_pages[i];
		rqstp->rq_pages[i] = fresh;
	}
	list_add(&b->orphan, &c->rw_orphans);
}

static void rr2s_wlist_free(struct rr2s_conn *c, struct rr2s_wlist *wl);

/**
 * rr2s_rw_drained - the QP is drained: release parked batches
 * @c: the connection; the caller holds rw_mutex
 */
void rr2s_rw_drained(struct rr2s_conn *c)
{
	struct rr2s_wlist *wl, *wtmp;
	struct rr2s_rw_batch *b, *tmp;
	u32 i;

	lockdep_assert_held(&c->rw_mutex);
	list_for_each_entry_safe(wl, wtmp, &c->wl_orphans, orphan) {
		list_del(&wl->orphan);
		rr2s_wlist_free(c, wl);
	}
	list_for_each_entry_safe(b, tmp, &c->rw_orphans, orphan) {
		list_del(&b->orphan);
		rr2s_rw_release(c, b, b->dir);
		for (i = 0; i < b->nstolen; i++)
			put_page(b->stolen[i]);
		kfree(b->stolen);
		kfree(b);
	}
}

/* A new completion ID for each posting of a batch, and its event. */
static void rr2s_rw_trace_post(struct rr2s_conn *c, struct rr2s_rw_batch *b,
			       const struct rr2s_rw_dir *d)
{
	rpcrdma2_ep_cid(&c->link.ep, &b->cid);
	b->peer = (const struct sockaddr *)&c->b.xprt.xpt_remote;
	b->xid = d->xid;
	if (b->dir == DMA_FROM_DEVICE)
		trace_rpcrdma2_svc_read_post(&b->cid, b->peer, b->xid, b->n,
					     b->nwrs);
	else
		trace_rpcrdma2_svc_write_post(&b->cid, b->peer, b->xid, b->n,
					      b->nwrs);
}

/* Release the batches of @wl, whose work requests are all done. */
static void rr2s_wlist_release(struct rr2s_conn *c, struct rr2s_wlist *wl)
{
	struct rr2s_rw_batch *b, *tmp;

	list_for_each_entry_safe(b, tmp, &wl->batches, wl) {
		list_del(&b->wl);
		rr2s_rw_release(c, b, DMA_TO_DEVICE);
		kfree(b);
	}
	atomic_sub(wl->nwrs, &c->rw_inflight);
	wl->nwrs = 0;
}

/*
 * Wait for room on the Send Queue for @nwrs more work requests.  Other
 * Replies' Writes are released by their Sends' completions, and the
 * caller's own unsignaled Writes plus a batch never exceed the room
 * (RR2S_RW_BATCH_MAX), so the room comes.  Returns 0, or -ENOTCONN.
 */
static int rr2s_rw_room(struct rr2s_conn *c, u32 nwrs)
{
	long left;

	left = wait_event_timeout(c->send_wait,
				  svc_xprt_is_dead(&c->b.xprt) ||
				  atomic_read(&c->rw_inflight) + nwrs <=
					RR2S_RW_BUDGET,
				  RR2S_SEND_TIMEOUT);
	return !left || svc_xprt_is_dead(&c->b.xprt) ? -ENOTCONN : 0;
}

/* The chain's last work request, which rdma_rw signals, is not. */
static void rr2s_rw_unsignal(struct ib_send_wr *wr)
{
	while (wr->next)
		wr = wr->next;
	wr->send_flags &= ~IB_SEND_SIGNALED;
	wr->wr_cqe = NULL;
}

/*
 * Post the batch.  A Write batch of a Reply (@d->wl) goes unsignaled
 * and joins the Reply (*@bp becomes NULL: no longer the caller's)
 * unless the room is full of the Reply's own Writes; anything else is
 * signaled and waited for, and then the Reply's earlier Writes are done
 * too.  Returns 0, or -ENOTCONN when the transport is dead or a work
 * request failed or was flushed: the connection is lost.  A batch
 * posted in part is parked (or, a Reply's, kept with the Reply for the
 * caller to abort), and no longer the caller's.
 */
static int rr2s_rw_run(struct rr2s_conn *c, struct rr2s_rw_batch **bp,
		       const struct rr2s_rw_dir *d)
{
	struct rr2s_rw_batch *b = *bp;
	enum dma_data_direction dir = d->dir;
	struct rr2s_wlist *wl = d->wl;
	struct rdma_cm_id *id = c->b.id;
	const struct ib_send_wr *bad_wr;
	struct ib_send_wr *first = NULL;
	struct ib_cqe *cqe = &b->cqe;
	bool defer;
	u32 i;
	int ret;

	lockdep_assert_held(&c->rw_mutex);
	if (!b->n)
		return 0;
	/*
	 * A Reply's own Writes stay within half the room, each batch too;
	 * and none that holds memory registrations (rdma_rw's force_mr)
	 * is left unsignaled, as the QP's MR pool would run dry under
	 * Replies not yet sent.  Reads are waited for under rw_mutex, so
	 * any MR in use now is this batch's.
	 */
	defer = wl && wl->nwrs + b->nwrs <= RR2S_RW_BATCH_MAX &&
		!READ_ONCE(id->qp->mrs_used);
	ret = rr2s_rw_room(c, b->nwrs);
	if (ret) {
		rr2s_rw_release(c, b, dir);
		return -ENOTCONN;
	}
	for (i = 0; i < b->n; i++) {
		first = rdma_rw_ctx_wrs(&b->rw[i].ctx, id->qp, id->port_num,
					cqe, first);
		cqe = NULL;		/* only the last one is signaled */
	}
	if (defer)		/* ... or none: rdma_rw signals the last one */
		rr2s_rw_unsignal(first);
	reinit_completion(&b->done);
	b->dir = dir;
	rr2s_rw_trace_post(c, b, d);
	atomic_add(b->nwrs, &c->rw_inflight);
	ret = ib_post_send(id->qp, first, &bad_wr);
	if (ret) {
		trace_rpcrdma2_svc_rw(&b->cid, b->peer, b->xid, dir, b->n,
				      b->nwrs, ret);
		rr2s_close(c);
		if (bad_wr != first) {
			if (wl) {
				/* the caller aborts the Reply, and this */
				list_add_tail(&b->wl, &wl->batches);
				wl->nwrs += b->nwrs;
			} else {
				atomic_sub(b->nwrs, &c->rw_inflight);
				rr2s_rw_orphan(c, b, d);
			}
			*bp = NULL;
			return -ENOTCONN;
		}
		atomic_sub(b->nwrs, &c->rw_inflight);
		rr2s_rw_release(c, b, dir);
		return -ENOTCONN;
	}
	/* rdma_stat_read/_write count contexts, one per segment piece */
	rr2s_stat_add(dir == DMA_FROM_DEVICE ? RR2S_STAT_READ : RR2S_STAT_WRITE,
		      b->n);
	if (defer) {
		trace_rpcrdma2_svc_rw(&b->cid, b->peer, b->xid, dir, b->n,
				      b->nwrs, IB_WC_SUCCESS);
		list_add_tail(&b->wl, &wl->batches);
		wl->nwrs += b->nwrs;
		*bp = NULL;
		return 0;
	}
	wait_for_completion(&b->done);
	trace_rpcrdma2_svc_rw(&b->cid, b->peer, b->xid, dir, b->n, b->nwrs,
			      b->status);
	atomic_sub(b->nwrs, &c->rw_inflight);
	rr2s_rw_release(c, b, dir);
	if (b->status != IB_WC_SUCCESS) {
		rr2s_close(c);
		return -ENOTCONN;
	}
	if (wl)		/* the queue completes in order: they are done */
		rr2s_wlist_release(c, wl);
	return 0;
}

/* One context: @len local octets at @off <-> segment @seg. */
static int rr2s_rw_ctx(struct rr2s_conn *c, struct rr2s_rw_batch *b,
		       const struct rr2s_rw_dir *d, u32 off, u32 len,
		       const struct rpcrdma2_segment *seg)
{
	struct rdma_cm_id *id = c->b.id;
	struct rr2s_sgb sb = { .max = sgb_bound(d, len) };
	int ret;

	sb.sgl = rpcrdma2_fail(RPCRDMA2_FAIL_REG) ? NULL :
		 kmalloc_array(sb.max, sizeof(*sb.sgl), GFP_KERNEL);
	if (!sb.sgl)
		return -ENOMEM;
	sg_init_table(sb.sgl, sb.max);
	ret = d->xb ? sgb_add_reduced(&sb, d, off, len) :
		      sgb_add_pages(&sb, d->pages, off, len);
	if (ret || !sb.n) {
		if (sb.n == sb.max)
			trace_rpcrdma2_svc_too_many_sges(&c->b.xprt.xpt_remote,
							 d->xid, "rdma_rw context",
							 sb.max);
		else
			trace_rpcrdma2_dma_map_err(&c->b.xprt.xpt_remote, d->xid,
						   "rdma_rw pages", len, -EIO);
		kfree(sb.sgl);
		return -EIO;
	}
	sg_mark_end(&sb.sgl[sb.n - 1]);
	ret = rdma_rw_ctx_init(&b->rw[b->n].ctx, id->qp, id->port_num, sb.sgl,
			       sb.n, 0, seg->offset, seg->handle, d->dir);
	if (ret < 0) {
		trace_rpcrdma2_dma_map_err(&c->b.xprt.xpt_remote, d->xid,
					   "rdma_rw context", len, ret);
		kfree(sb.sgl);
		return ret;
	}
	b->rw[b->n].sgl = sb.sgl;
	b->rw[b->n].nents = sb.n;
	b->n++;
	b->nwrs += ret;
	return ret;
}

static struct rr2s_rw_batch *rr2s_rw_batch_new(void)
{
	struct rr2s_rw_batch *b = kzalloc(sizeof(*b), GFP_KERNEL);

	if (b) {
		b->cqe.done = rr2s_rw_done;
		init_completion(&b->done);
	}
	return b;
}

/* Run @*bp and have a batch again for what follows; see rr2s_rw_run(). */
static int rr2s_rw_next(struct rr2s_conn *c, struct rr2s_rw_batch **bp,
			const struct rr2s_rw_dir *d)
{
	int ret = rr2s_rw_run(c, bp, d);

	if (!ret && !*bp) {
		*bp = rr2s_rw_batch_new();
		if (!*bp)
			ret = -ENOMEM;
	}
	return ret;
}

/**
 * rr2s_rw_segs - move octets between local memory and client segments
 * @c: the connection
 * @d: the direction and the local side
 * @local_off: first local octet (of the reduced stream for an xdr_buf)
 * @segs: the client's segments, filled in order
 * @nsegs: how many
 * @len: octets to move; the caller has checked that @segs hold them
 *
 * Sleeps.  Returns 0, -ENOTCONN (the connection is closing), -ENOMEM
 * or -EIO (local memory could not be mapped).
 */
int rr2s_rw_segs(struct rr2s_conn *c, const struct rr2s_rw_dir *d,
		 u32 local_off, const struct rpcrdma2_segment *segs,
		 u32 nsegs, u32 len)
{
	struct rr2s_rw_batch *b;
	u32 i, n, moved = 0;
	int ret = 0;

	might_sleep();
	/* the Reply's Writes (Write and Reply chunks) or a Read chunk's pull */
	if (rpcrdma2_fail(d->dir == DMA_TO_DEVICE ? RPCRDMA2_FAIL_REPLY :
			  RPCRDMA2_FAIL_REG))
		return -ENOMEM;
	b = rr2s_rw_batch_new();
	if (!b)
		return -ENOMEM;

	mutex_lock(&c->rw_mutex);
	for (i = 0; i < nsegs && len; i++) {
		n = min(segs[i].length, len);
		if (!n)
			continue;		/* an empty segment */
		ret = rr2s_rw_ctx(c, b, d, local_off, n, &segs[i]);
		if (ret > 0 && b->n > 1 && b->nwrs > RR2S_RW_BATCH_MAX) {
			/* over the room: run what came before, then retry */
			b->n--;
			b->nwrs -= ret;
			rdma_rw_ctx_destroy(&b->rw[b->n].ctx, c->b.id->qp,
					    c->b.id->port_num, b->rw[b->n].sgl,
					    b->rw[b->n].nents, d->dir);
			kfree(b->rw[b->n].sgl);
			ret = rr2s_rw_next(c, &b, d);
			if (ret)
				break;
			i--;
			continue;
		}
		if (ret == -EAGAIN && b->n) {
			/* the QP's MR pool is used up by this batch */
			ret = rr2s_rw_next(c, &b, d);
			if (ret)
				break;
			i--;
			continue;
		}
		if (ret < 0)
			break;
		ret = 0;
		local_off += n;
		len -= n;
		moved += n;
		if (b->n == RR2S_RW_CTXS) {
			ret = rr2s_rw_next(c, &b, d);
			if (ret)
				break;
		}
	}
	if (!ret)
		ret = rr2s_rw_run(c, &b, d);
	else if (b)
		rr2s_rw_release(c, b, d->dir);	/* never posted */
	mutex_unlock(&c->rw_mutex);
	kfree(b);
	if (!ret) {
		c->rdma_octets += moved;
		rr2s_stat_add(d->dir == DMA_FROM_DEVICE ? RR2S_STAT_READ_BYTES :
			      RR2S_STAT_WRITE_BYTES, moved);
	}
	return ret;
}

/**
 * rr2s_wlist_new - a Reply's RDMA Writes, none yet
 * @rqstp: the request whose rq_res the Writes read
 *
 * Returns NULL without memory: the Writes are then waited for.
 */
struct rr2s_wlist *rr2s_wlist_new(struct svc_rqst *rqstp)
{
	struct rr2s_wlist *wl;

	if (rpcrdma2_fail(RPCRDMA2_FAIL_REPLY))
		return NULL;
	wl = kzalloc(sizeof(*wl), GFP_KERNEL);
	if (wl) {
		INIT_LIST_HEAD(&wl->batches);
		INIT_LIST_HEAD(&wl->orphan);
		wl->rqstp = rqstp;
	}
	return wl;
}

/**
 * rr2s_wlist_seal - take the Reply's pages for its Writes
 * @wl: the Writes; the Reply has been copied into its Send buffers
 *
 * The pages of rq_res stay with the Writes until they are done; nfsd
 * fills the rqstp with fresh pages for its next request (svc_alloc_arg)
 * and does not release these (rq_next_page), as on the stock server.
 */
void rr2s_wlist_seal(struct rr2s_wlist *wl)
{
	struct svc_rqst *rqstp = wl->rqstp;
	u32 i, n;

	if (!rqstp)
		return;
	n = min_t(u32, rqstp->rq_next_page - rqstp->rq_respages,
		  ARRAY_SIZE(wl->pages));
	for (i = 0; i < n; i++) {
		wl->pages[i] = rqstp->rq_respages[i];
		rqstp->rq_respages[i] = NULL;
	}
	wl->npages = n;
	rqstp->rq_next_page = rqstp->rq_respages;
	wl->rqstp = NULL;
}

static void rr2s_wlist_free(struct rr2s_conn *c, struct rr2s_wlist *wl)
{
	u32 i;

	rr2s_wlist_release(c, wl);
	for (i = 0; i < wl->npages; i++)
		if (wl->pages[i])
			put_page(wl->pages[i]);
	kfree(wl);
}

/**
 * rr2s_wlist_done - the Reply's final Send completed (or was flushed)
 * @c: the connection
 * @wl: its Writes, all done since; freed here
 *
 * Called in CQ context.
 */
void rr2s_wlist_done(struct rr2s_conn *c, struct rr2s_wlist *wl)
{
	rr2s_wlist_free(c, wl);
}

/**
 * rr2s_wlist_drop - no Send will release these Writes
 * @c: the connection
 * @wl: the Writes; freed here when none was posted; else the Reply
 *	failed, the connection closes, and they are kept with the
 *	Reply's pages until the QP is drained (rr2s_rw_drained), as
 *	nothing else says when posted work requests are done
 */
void rr2s_wlist_drop(struct rr2s_conn *c, struct rr2s_wlist *wl)
{
	if (list_empty(&wl->batches)) {
		rr2s_wlist_free(c, wl);
		return;
	}
	rr2s_close(c);
	rr2s_wlist_seal(wl);
	mutex_lock(&c->rw_mutex);
	list_add(&wl->orphan, &c->wl_orphans);
	mutex_unlock(&c->rw_mutex);
}
