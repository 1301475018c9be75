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
 * contexts are posted as one chain whose last work request is signaled,
 * and the caller sleeps until that completion: a batch is done, or the
 * connection failed under it (a flush), before its memory is unmapped
 * or given back to nfsd.
 *
 * Concurrency: one batch at a time per connection, under rw_mutex, and
 * no batch larger than RR2S_RW_CTXS contexts or the Send Queue room the
 * endpoint reserved for them; a longer transfer is cut into several
 * batches.  Callers run in nfsd thread context and may sleep.  Lock
 * order: xpt_mutex (sendto), then rw_mutex.  Nothing is posted once the
 * transport is dead, and ->xpo_detach drains the QP under both, so the
 * drain never races a post.
 *
 * A chain the provider took only in part has no signaled end on the
 * queue, so nothing says when its work requests are done: the batch is
 * parked on the connection until the drain, and the pages an RDMA Read
 * may still write are swapped out of the rqstp, so nfsd never reuses
 * them under the device.
 *
 * Called by: recvfrom.c (Read chunks), sendto.c (Write, Reply chunks).
 */

#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/sunrpc/svc.h>
#include <rdma/rw.h>

#include "server/server.h"
#include <trace/events/rpcrdma2.h>

struct rr2s_rw_batch {
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

/**
 * rr2s_rw_drained - the QP is drained: release parked batches
 * @c: the connection; the caller holds rw_mutex
 */
void rr2s_rw_drained(struct rr2s_conn *c)
{
	struct rr2s_rw_batch *b, *tmp;
	u32 i;

	lockdep_assert_held(&c->rw_mutex);
	list_for_each_entry_safe(b, tmp, &c->rw_orphans, orphan) {
		list_del(&b->orphan);
		rr2s_rw_release(c, b, b->dir);
		for (i = 0; i < b->nstolen; i++)
			put_page(b->stolen[i]);
		kfree(b->stolen);
		kfree(b);
	}
}

/*
 * Post the batch and wait for it.  Returns 0, or -ENOTCONN when the
 * transport is dead or a work request failed or was flushed: the
 * connection is lost.  A batch posted in part is parked, and no longer
 * the caller's (@b is set to NULL).
 */
static int rr2s_rw_run(struct rr2s_conn *c, struct rr2s_rw_batch **bp,
		       const struct rr2s_rw_dir *d)
{
	struct rr2s_rw_batch *b = *bp;
	enum dma_data_direction dir = d->dir;
	struct rdma_cm_id *id = c->b.id;
	const struct ib_send_wr *bad_wr;
	struct ib_send_wr *first = NULL;
	struct ib_cqe *cqe = &b->cqe;
	u32 i;
	int ret;

	lockdep_assert_held(&c->rw_mutex);
	if (!b->n)
		return 0;
	if (svc_xprt_is_dead(&c->b.xprt)) {
		rr2s_rw_release(c, b, dir);
		return -ENOTCONN;
	}
	for (i = 0; i < b->n; i++) {
		first = rdma_rw_ctx_wrs(&b->rw[i].ctx, id->qp, id->port_num,
					cqe, first);
		cqe = NULL;		/* only the last one is signaled */
	}
	reinit_completion(&b->done);
	ret = ib_post_send(id->qp, first, &bad_wr);
	if (ret) {
		trace_rpcrdma2_svc_rw(&c->b.xprt.xpt_remote, dir, b->n,
				      b->nwrs, ret);
		rr2s_close(c);
		if (bad_wr != first) {
			rr2s_rw_orphan(c, b, d);
			*bp = NULL;
			return -ENOTCONN;
		}
		rr2s_rw_release(c, b, dir);
		return -ENOTCONN;
	}
	/* rdma_stat_read/_write count contexts, one per segment piece */
	rr2s_stat_add(dir == DMA_FROM_DEVICE ? RR2S_STAT_READ : RR2S_STAT_WRITE,
		      b->n);
	wait_for_completion(&b->done);
	trace_rpcrdma2_svc_rw(&c->b.xprt.xpt_remote, dir, b->n, b->nwrs,
			      b->status);
	rr2s_rw_release(c, b, dir);
	if (b->status != IB_WC_SUCCESS) {
		rr2s_close(c);
		return -ENOTCONN;
	}
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

	sb.sgl = kmalloc_array(sb.max, sizeof(*sb.sgl), GFP_KERNEL);
	if (!sb.sgl)
		return -ENOMEM;
	sg_init_table(sb.sgl, sb.max);
	ret = d->xb ? sgb_add_reduced(&sb, d, off, len) :
		      sgb_add_pages(&sb, d->pages, off, len);
	if (ret || !sb.n) {
		kfree(sb.sgl);
		return -EIO;
	}
	sg_mark_end(&sb.sgl[sb.n - 1]);
	ret = rdma_rw_ctx_init(&b->rw[b->n].ctx, id->qp, id->port_num, sb.sgl,
			       sb.n, 0, seg->offset, seg->handle, d->dir);
	if (ret < 0) {
		kfree(sb.sgl);
		return ret;
	}
	b->rw[b->n].sgl = sb.sgl;
	b->rw[b->n].nents = sb.n;
	b->n++;
	b->nwrs += ret;
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
	const u32 budget = RR2S_RW_CTXS + RR2S_RW_EXTRA_WRS;
	struct rr2s_rw_batch *b;
	u32 i, n, moved = 0;
	int ret = 0;

	might_sleep();
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	b->cqe.done = rr2s_rw_done;
	init_completion(&b->done);

	mutex_lock(&c->rw_mutex);
	for (i = 0; i < nsegs && len; i++) {
		n = min(segs[i].length, len);
		if (!n)
			continue;		/* an empty segment */
		ret = rr2s_rw_ctx(c, b, d, local_off, n, &segs[i]);
		if (ret > 0 && b->n > 1 && b->nwrs > budget) {
			/* over the room: run what came before, then retry */
			b->n--;
			b->nwrs -= ret;
			rdma_rw_ctx_destroy(&b->rw[b->n].ctx, c->b.id->qp,
					    c->b.id->port_num, b->rw[b->n].sgl,
					    b->rw[b->n].nents, d->dir);
			kfree(b->rw[b->n].sgl);
			ret = rr2s_rw_run(c, &b, d);
			if (ret)
				break;
			i--;
			continue;
		}
		if (ret == -EAGAIN && b->n) {
			/* the QP's MR pool is used up by this batch */
			ret = rr2s_rw_run(c, &b, d);
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
			ret = rr2s_rw_run(c, &b, d);
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
