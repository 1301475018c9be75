// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 client half: the MR pool of FRWR registration.
 *
 * Owns the MRs of one connection: a pool allocated on the
 * connection's PD when it is made, grown on demand (client.h says how
 * far) and deregistered when it is torn down, so a reconnect always
 * starts from fresh MRs.  An MR is taken for a request
 * (rr2c_frwr_get()), released to the free list after its invalidation
 * or quarantined (never reused) when a REG_MR or LOCAL_INV failed or
 * was flushed.  Registering and invalidating: frwr.c, whose header
 * says how teardown and recovery go.
 *
 * Locking: rr2c_frwr.lock, as in frwr.c; the *_locked functions are
 * called with it held.  The pool grows from its own work item, on
 * xprtiod.
 *
 * Called by: frwr.c, connect.c (connect, teardown), transport.c
 * (setup), send.c (rr2c_frwr_room()), reply.c (rr2c_frwr_destroy(),
 * from the endpoint's release).
 */

#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/sunrpc/xprt.h>

#include "rpcrdma2.h"
#include "client/client.h"
#include "shared/fault.h"
#include <trace/events/rpcrdma2.h>

struct ib_device *rr2c_frwr_dev(struct rr2c *r)
{
	return r->link.ep.id->device;
}

/* Back to the free list: the MR is invalid (or was never posted). */
void rr2c_frwr_release_locked(struct rr2c *r, struct rr2c_mr *mr)
{
	struct rr2c_frwr *f = &r->frwr;

	lockdep_assert_held(&f->lock);
	if (mr->nents)
		ib_dma_unmap_sg(rr2c_frwr_dev(r), mr->sg, mr->nsg, mr->dir);
	mr->nents = 0;
	mr->nsg = 0;
	mr->req = NULL;
	mr->failed = false;
	mr->state = RR2C_MR_FREE;
	list_move(&mr->node, &f->free);
	f->nfree++;
}

/*
 * Out of service until the connection's MRs are deregistered: a WR on
 * it failed or could not be posted.  The QP is in the error state or
 * about to be reset, so the peer cannot reach the pages any more and
 * they may be unmapped.
 */
void rr2c_frwr_quarantine_locked(struct rr2c *r, struct rr2c_mr *mr)
{
	lockdep_assert_held(&r->frwr.lock);
	if (mr->nents)
		ib_dma_unmap_sg(rr2c_frwr_dev(r), mr->sg, mr->nsg, mr->dir);
	mr->nents = 0;
	mr->req = NULL;
	mr->state = RR2C_MR_BAD;
	list_del_init(&mr->node);
	r->stats.mrs_recovered++;
	trace_rpcrdma2_clnt_mr(&mr->cid, &r->xprt.addr, mr->xid, mr->mr->rkey,
			       "quarantine", 0);
}

void rr2c_frwr_wr_failed(struct rr2c_mr *mr, const struct ib_wc *wc,
			 const char *what)
{
	struct rr2c *r = mr->r;

	mr->failed = true;
	if (wc->status != IB_WC_WR_FLUSH_ERR)
		trace_rpcrdma2_wc_error(&mr->cid, &r->xprt.addr, what,
					wc->status);
	xprt_force_disconnect(&r->xprt);
}

/* An unsignaled REG_MR completes only when it failed or was flushed. */
static void rr2c_frwr_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rr2c_mr *mr = container_of(wc->wr_cqe, struct rr2c_mr, reg_cqe);

	trace_rpcrdma2_clnt_reg_done(&mr->cid, &mr->r->xprt.addr, mr->xid, wc);
	rr2c_frwr_wr_failed(mr, wc, "reg_mr");
}

/* A new MR of @depth pages on @pd, not yet on any list. */
static struct rr2c_mr *rr2c_frwr_alloc(struct rr2c *r, struct ib_pd *pd,
				       u32 depth)
{
	struct rr2c_mr *mr;

	if (rpcrdma2_fail(RPCRDMA2_FAIL_REG))
		return NULL;
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return NULL;
	mr->sg = kcalloc(depth, sizeof(*mr->sg), GFP_KERNEL);
	if (!mr->sg)
		goto fail;
	mr->mr = ib_alloc_mr(pd, IB_MR_TYPE_MEM_REG, depth);
	if (IS_ERR(mr->mr))
		goto fail;
	mr->r = r;
	mr->reg_cqe.done = rr2c_frwr_reg_done;
	rpcrdma2_ep_cid(&r->link.ep, &mr->cid);
	mr->state = RR2C_MR_FREE;
	INIT_LIST_HEAD(&mr->node);
	return mr;
fail:
	kfree(mr->sg);
	kfree(mr);
	return NULL;
}

static void rr2c_frwr_free(struct rr2c_mr *mr)
{
	ib_dereg_mr(mr->mr);
	kfree(mr->sg);
	kfree(mr);
}

/*
 * Allocate up to @n MRs and put them in service.  Returns how many
 * were added: none when the connection went meanwhile (or memory or
 * the device ran out), which the Calls waiting for them see as no
 * growth; the pool never shrinks below what the connection started with.
 */
static u32 rr2c_frwr_add(struct rr2c *r, u32 n)
{
	struct rr2c_frwr *f = &r->frwr;
	struct rr2c_mr *mr, *tmp;
	unsigned int nofs;
	LIST_HEAD(new);
	u32 i, added = 0;

	/* MRs are made while the client may be writing back pages */
	nofs = memalloc_nofs_save();
	for (i = 0; i < n; i++) {
		mr = rr2c_frwr_alloc(r, r->link.ep.pd, f->depth);
		if (!mr)
			break;
		list_add_tail(&mr->all, &new);
	}
	memalloc_nofs_restore(nofs);

	spin_lock(&f->lock);
	if (f->live || !f->nr) {
		list_for_each_entry(mr, &new, all) {
			list_add_tail(&mr->node, &f->free);
			added++;
		}
		list_splice_tail_init(&new, &f->all);
		f->nr += added;
		f->nfree += added;
		r->stats.mrs_allocated += added;
	}
	spin_unlock(&f->lock);
	list_for_each_entry_safe(mr, tmp, &new, all)
		rr2c_frwr_free(mr);
	if (added)
		trace_rpcrdma2_clnt_mr_pool(&r->xprt.addr, 0, f->nr, f->nfree,
					    f->cap);
	return added;
}

/*
 * The pool ran dry with room to grow: add half as many MRs again as
 * there are (at least what one RPC needs), then wake the Calls that
 * wait for MRs (rr2c_wait_chunks()).
 */
static void rr2c_frwr_grow_work(struct work_struct *work)
{
	struct rr2c_frwr *f = container_of(work, struct rr2c_frwr, grow);
	struct rr2c *r = container_of(f, struct rr2c, frwr);

	u32 n, added = 0;

	spin_lock(&f->lock);
	n = f->cap - min(f->nr, f->cap);
	n = min(n, max(f->first, f->nr / 2));
	/* the connection is going: teardown waits for this work */
	if (!f->live)
		n = 0;
	spin_unlock(&f->lock);
	if (n)
		added = rr2c_frwr_add(r, n);
	spin_lock(&f->lock);
	/*
	 * The device or memory ran out: grow no further than one RPC's
	 * worst case (which must stay reachable), so that Calls waiting
	 * for MRs wait for MRs in use instead of asking again and again.
	 */
	if (n && added < n)
		f->cap = max(f->nr, min(f->cap, 2 * RR2C_MAX_SEGS));
	f->growing = false;
	spin_unlock(&f->lock);
	xprt_write_space(&r->xprt);
}

/**
 * rr2c_frwr_init - set up the MR pool of a transport (no MRs yet)
 * @r: the transport
 */
void rr2c_frwr_init(struct rr2c *r)
{
	spin_lock_init(&r->frwr.lock);
	INIT_LIST_HEAD(&r->frwr.all);
	INIT_LIST_HEAD(&r->frwr.free);
	INIT_WORK(&r->frwr.grow, rr2c_frwr_grow_work);
}

/**
 * rr2c_frwr_create - allocate the first MRs of a new connection
 * @r: the transport; its endpoint is created and r->credits set
 *
 * The pool starts with what the largest RPC may need (a Call-side and
 * a Reply-side chunk of a maximal payload, head and tail included) and
 * may grow to RR2C_MRS_PER_CREDIT per credit, within the device's MR
 * count.
 */
int rr2c_frwr_create(struct rr2c *r)
{
	const struct rpcrdma2_dev_attr *da = &r->link.ep.dattr;
	struct rr2c_frwr *f = &r->frwr;
	u32 per_chunk;

	f->depth = min_t(u32, da->max_fast_reg_page_list_len, RR2C_MR_DEPTH);
	/* V2-RINV-05: only FRWR STags can be invalidated remotely */
	if (!(da->device_cap_flags & IB_DEVICE_MEM_MGT_EXTENSIONS) ||
	    f->depth < 2)
		return -EOPNOTSUPP;
	per_chunk = DIV_ROUND_UP(RR2C_MAX_PAYLOAD >> PAGE_SHIFT, f->depth) + 2;
	f->first = 2 * min_t(u32, per_chunk, RR2C_MAX_SEGS);
	f->cap = r->credits * RR2C_MRS_PER_CREDIT;
	if (da->max_mr)
		f->cap = min(f->cap, da->max_mr);
	/* never below what one RPC may need: two chunks of RR2C_MAX_SEGS */
	f->cap = max3(f->cap, f->first, (u32)(2 * RR2C_MAX_SEGS));
	f->peak = 0;
	f->growing = false;
	if (rr2c_frwr_add(r, f->first) < f->first)
		return -ENOMEM;
	spin_lock(&f->lock);
	f->live = true;
	spin_unlock(&f->lock);
	return 0;
}

/**
 * rr2c_frwr_nr_wrs - the REG_MR and LOCAL_INV WRs a connection may post
 * @credits: the credits the connection asks for
 *
 * A REG_MR and a LOCAL_INV per MR the pool may grow to, for the Send
 * queue's size, before the device is known: the cap without the
 * device's MR count, and never below one RPC's worst case.
 */
u32 rr2c_frwr_nr_wrs(u32 credits)
{
	return 2 * max_t(u32, credits * RR2C_MRS_PER_CREDIT,
			 2 * RR2C_MAX_SEGS);
}

/*
 * No more REG_MR or LOCAL_INV on this connection: it is going away.  A
 * growth under way finishes first: it allocates on the endpoint the
 * caller is about to destroy (its PD, its CQ's ID).
 */
void rr2c_frwr_quiesce(struct rr2c *r)
{
	might_sleep();
	spin_lock(&r->frwr.lock);
	r->frwr.live = false;
	spin_unlock(&r->frwr.lock);
	cancel_work_sync(&r->frwr.grow);
}

/**
 * rr2c_frwr_destroy - unmap and deregister every MR of the connection
 * @r: the transport
 *
 * Called from the endpoint's release hook: the QP is destroyed and the
 * CQ freed, so no completion runs and no WR is outstanding; the PD is
 * still there.  A growth still running finishes first (its MRs are on
 * this PD).  Requests that still list MRs forget them.
 */
void rr2c_frwr_destroy(struct rr2c *r)
{
	struct rr2c_frwr *f = &r->frwr;
	struct rr2c_mr *mr, *tmp;
	u32 nbad = 0;
	LIST_HEAD(all);

	spin_lock(&f->lock);
	f->live = false;
	spin_unlock(&f->lock);
	cancel_work_sync(&f->grow);

	spin_lock(&f->lock);
	list_for_each_entry(mr, &f->all, all) {
		/* mountstats' mrs_orphaned: released without invalidation */
		if (mr->state != RR2C_MR_FREE && mr->state != RR2C_MR_BAD)
			r->stats.mrs_orphaned++;
		if (mr->state == RR2C_MR_BAD)
			nbad++;
		list_del_init(&mr->node);
		mr->req = NULL;
		if (mr->nents)
			ib_dma_unmap_sg(rr2c_frwr_dev(r), mr->sg, mr->nsg,
					mr->dir);
		mr->nents = 0;
	}
	list_splice_init(&f->all, &all);
	if (f->nr)
		trace_rpcrdma2_clnt_mr_reset(&r->xprt.addr, 0, f->nr, nbad,
					     f->cap);
	INIT_LIST_HEAD(&f->free);
	f->nfree = 0;
	f->nr = 0;
	f->growing = false;
	spin_unlock(&f->lock);
	list_for_each_entry_safe(mr, tmp, &all, all)
		rr2c_frwr_free(mr);
}

/*
 * Has @req's RPC been answered since it was encoded?  Its Reply may be
 * being placed (rp_pending, from rr2c_frwr_reply_inv() under
 * rr2c_frwr.lock until after xprt_complete_rqst()), or be placed and
 * the task decoding it: its receive pages must not be mapped again.
 */
static bool rr2c_frwr_answered(struct rr2c_req *req)
{
	/* pairs with the release in rr2c_reply_complete() */
	return smp_load_acquire(&req->rp_pending) ||
	       READ_ONCE(req->rq.rq_reply_bytes_recvd) ||
	       READ_ONCE(req->rp_error);
}

/*
 * One MR for @req: NULL when none is free (growth is started if the
 * pool may grow) or the connection is going, ERR_PTR(-EALREADY) when
 * @req holds no MR yet and its RPC is answered (V2-SEC-08: a
 * retransmission that raced with the Reply to an earlier one).  Once
 * @req holds a mapped MR, rr2c_frwr_reply_inv() drops a Reply instead.
 */
struct rr2c_mr *rr2c_frwr_get(struct rr2c *r, struct rr2c_req *req)
{
	struct rr2c_frwr *f = &r->frwr;
	struct rr2c_mr *mr = NULL;

	spin_lock(&f->lock);
	if (list_empty(&req->mrs) && rr2c_frwr_answered(req)) {
		spin_unlock(&f->lock);
		return ERR_PTR(-EALREADY);
	}
	if (f->live && !list_empty(&f->free)) {
		mr = list_first_entry(&f->free, struct rr2c_mr, node);
		list_move_tail(&mr->node, &req->mrs);
		f->nfree--;
		f->peak = max(f->peak, f->nr - f->nfree);
		mr->req = req;
		mr->state = RR2C_MR_MAPPED;
		mr->nsg = 0;
		mr->failed = false;
	} else if (f->live) {
		r->stats.mr_waits++;
		trace_rpcrdma2_clnt_mr_exhausted(&r->xprt.addr,
						 be32_to_cpu(req->rq.rq_xid),
						 f->nr, f->nfree, f->cap);
		if (f->nr < f->cap && !f->growing) {
			f->growing = true;
			queue_work(xprtiod_workqueue, &f->grow);
		}
	}
	spin_unlock(&f->lock);
	return mr;
}

/**
 * rr2c_frwr_room - would a Call that found too few MRs find them now?
 * @r: the transport
 *
 * For rr2c_wait_chunks(), after it asked to be woken: true if no wakeup
 * may come.  One comes when MRs in use are released (an invalidation
 * completes) and when a growth ends; so only a pool with nothing in use
 * and no growth under way, or one with plenty free, says yes.
 */
bool rr2c_frwr_room(struct rr2c *r)
{
	struct rr2c_frwr *f = &r->frwr;
	bool room;

	spin_lock(&f->lock);
	room = !f->growing &&
	       (f->nfree == f->nr || f->nfree >= 2 * RR2C_MAX_SEGS);
	spin_unlock(&f->lock);
	return room;
}
