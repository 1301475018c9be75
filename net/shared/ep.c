// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 connection endpoint.
 *
 * Owns the verbs resources of one RC connection (V2-FRAME-01), made
 * through the RDMA connection manager, which maps IP addresses and
 * ports to the fabric's own addressing (V2-FRAME-26): a PD,
 * one CQ, the QP on the connection's rdma_cm_id, and fixed arrays of
 * DMA-mapped Receive and Send buffers.  It knows nothing of RPC: the
 * owner (client transport, server transport or a test) supplies
 * completion callbacks, decides what to post and when, and decodes
 * what arrives with the codec.
 *
 * Lifecycle.  rpcrdma2_ep_create() runs on an id whose address and
 * route are resolved (client) or which came with a CONNECT_REQUEST
 * (server), before rdma_connect()/rdma_accept().  rpcrdma2_ep_destroy()
 * drains the QP first, so when it returns no completion is running or
 * will run, and then frees everything; it is safe on a partly created
 * endpoint.  Completions run in the CQ's workqueue context.
 *
 * Sizes come from the owner and are checked against the device's
 * limits: a device that cannot take the queue depths fails creation
 * rather than being silently shortchanged.
 *
 * Send completions.  Not every Send is signaled: one in send_batch is,
 * and any whose owner waits for it (rpcrdma2_ep_post_chain()).  The
 * endpoint lists the Sends it posted in Send-queue order, and a
 * completion gives the owner back that Send and every unsignaled one
 * posted before it, oldest first (rpcrdma2_ep_sends_done()); the drain
 * gives back the rest.  The owner sees one ->send_done() per Send, as
 * if each had been signaled.
 *
 * Tracing.  Each Send and Receive buffer gets a completion ID when it
 * is made (rpcrdma2_ep_cid()); the posts and completions of the
 * buffers are traced here, for both halves, with that ID.  The events
 * cost a static branch when off.
 *
 * Called by: net/client, net/server, net/tests.
 */

#include <linux/slab.h>

#include "shared/ep.h"
#include "shared/fault.h"
#include <trace/events/rpcrdma2.h>

static void rpcrdma2_ep_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rpcrdma2_recv *rv =
		container_of(wc->wr_cqe, struct rpcrdma2_recv, cqe);

	/* the XID, for the event: the owner syncs the rest */
	if (trace_rpcrdma2_recv_done_enabled() &&
	    wc->status == IB_WC_SUCCESS && wc->byte_len >= sizeof(__be32))
		ib_dma_sync_single_for_cpu(rv->ep->id->device, rv->dma,
					   sizeof(__be32), DMA_FROM_DEVICE);
	trace_rpcrdma2_recv_done(rv, wc);
	rv->status = wc->status;
	rv->len = wc->status == IB_WC_SUCCESS ? wc->byte_len : 0;
	rv->remote_inv = wc->status == IB_WC_SUCCESS &&
			 (wc->wc_flags & IB_WC_WITH_INVALIDATE);
	rv->inv_rkey = rv->remote_inv ? wc->ex.invalidate_rkey : 0;
	atomic_dec(&rv->ep->recvs_posted);
	rv->ep->ops->recv_done(rv);
}

/*
 * Hand the owner every posted Send up to and including @last (all of
 * them when @last is NULL), oldest first.  A Send queue completes in
 * the order it was posted, and a work request that fails or is flushed
 * always makes a completion of its own, signaled or not: so the Sends
 * before @last that are still listed went out unsignaled and
 * succeeded.  @wc is @last's completion.
 */
static void rpcrdma2_ep_sends_done(struct rpcrdma2_ep *ep,
				   struct rpcrdma2_send *last,
				   const struct ib_wc *wc)
{
	struct rpcrdma2_send *sd, *tmp;
	LIST_HEAD(done);

	spin_lock(&ep->sq_lock);
	if (!last)
		list_splice_init(&ep->sq_sends, &done);
	else if (!list_empty(&last->sq_node))
		list_cut_position(&done, &ep->sq_sends, &last->sq_node);
	spin_unlock(&ep->sq_lock);
	/* not listed: its post failed, and its owner has it back already */
	if (last && list_empty(&done))
		return;
	list_for_each_entry_safe(sd, tmp, &done, sq_node) {
		list_del_init(&sd->sq_node);
		if (sd == last) {
			trace_rpcrdma2_send_done(sd, wc);
			sd->status = wc->status;
		} else {
			trace_rpcrdma2_send_done(sd, NULL);
			sd->status = IB_WC_SUCCESS;
		}
		ep->ops->send_done(sd);
	}
}

static void rpcrdma2_ep_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rpcrdma2_send *sd =
		container_of(wc->wr_cqe, struct rpcrdma2_send, cqe);

	rpcrdma2_ep_sends_done(sd->ep, sd, wc);
}

static void rpcrdma2_ep_removing(struct rpcrdma2_dev_user *u)
{
	struct rpcrdma2_ep *ep = container_of(u, struct rpcrdma2_ep, dev);

	if (ep->ops->removing)
		ep->ops->removing(ep);
}

static int rpcrdma2_ep_map(struct rpcrdma2_ep *ep, void **buf, u64 *dma,
			   u32 size, enum dma_data_direction dir, gfp_t gfp)
{
	struct ib_device *dev = ep->id->device;

	*buf = kzalloc(size, gfp);
	if (!*buf)
		return -ENOMEM;
	*dma = ib_dma_map_single(dev, *buf, size, dir);
	if (ib_dma_mapping_error(dev, *dma)) {
		trace_rpcrdma2_dma_map_err(rpcrdma2_ep_peer(ep), 0,
					   dir == DMA_TO_DEVICE ?
					   "send buffer" : "receive buffer",
					   size, -EIO);
		*dma = 0;
		return -EIO;
	}
	return 0;
}

static void rpcrdma2_ep_unmap(struct ib_device *dev, void **buf, u64 *dma,
			      u32 size, enum dma_data_direction dir)
{
	if (*dma)
		ib_dma_unmap_single(dev, *dma, size, dir);
	kfree(*buf);
	*buf = NULL;
	*dma = 0;
}

static int rpcrdma2_ep_buffers(struct rpcrdma2_ep *ep)
{
	struct ib_device *dev = ep->id->device;
	u32 i;
	int err;

	ep->recvs = kcalloc(ep->attr.nr_recv, sizeof(*ep->recvs), GFP_KERNEL);
	ep->sends = kcalloc(ep->attr.nr_send, sizeof(*ep->sends), GFP_KERNEL);
	if (!ep->recvs || !ep->sends)
		return -ENOMEM;
	for (i = 0; i < ep->attr.nr_recv; i++) {
		struct rpcrdma2_recv *rv = &ep->recvs[i];

		rv->ep = ep;
		rv->cqe.done = rpcrdma2_ep_recv_done;
		rpcrdma2_ep_cid(ep, &rv->cid);
	}
	for (i = 0; i < (ep->attr.nr_recv_init ?: ep->attr.nr_recv); i++) {
		struct rpcrdma2_recv *rv = &ep->recvs[i];

		if (rpcrdma2_fail(RPCRDMA2_FAIL_CONNECT))
			return -ENOMEM;
		err = rpcrdma2_ep_map(ep, &rv->buf, &rv->dma,
				      ep->attr.recv_size, DMA_FROM_DEVICE,
				      GFP_KERNEL);
		if (err) {
			rpcrdma2_ep_unmap(dev, &rv->buf, &rv->dma,
					  ep->attr.recv_size, DMA_FROM_DEVICE);
			return err;
		}
		ep->nr_recv_made = i + 1;
	}
	for (i = 0; i < ep->attr.nr_send; i++) {
		struct rpcrdma2_send *sd = &ep->sends[i];

		sd->ep = ep;
		sd->cqe.done = rpcrdma2_ep_send_done;
		INIT_LIST_HEAD(&sd->sq_node);
		rpcrdma2_ep_cid(ep, &sd->cid);
		err = rpcrdma2_ep_map(ep, &sd->buf, &sd->dma,
				      ep->attr.send_size, DMA_TO_DEVICE,
				      GFP_KERNEL);
		if (err)
			return err;
	}
	return 0;
}

/*
 * One Receive, one Send and their completions beyond what the owner
 * posts: ib_drain_qp() posts a marker on each queue when every Receive
 * is posted and Sends may be outstanding.
 */
static u64 rr2_ep_nsend(const struct rpcrdma2_ep_attr *attr)
{
	return (u64)attr->nr_send + attr->nr_send_extra + 1;
}

static u64 rr2_ep_ncqe(const struct rpcrdma2_ep_attr *attr)
{
	return (u64)attr->nr_recv + rr2_ep_nsend(attr) + 1 +
	       attr->nr_rw_ctxs + attr->nr_cqe_extra;
}

/**
 * rpcrdma2_ep_attr_fits - whether a device's queues hold an endpoint
 * @attr: what the endpoint is asked to hold
 * @dattr: the device's limits
 *
 * The rule rpcrdma2_ep_create() applies, for owners that size their
 * endpoint to the device first.  rdma_rw adds up to three WRs per
 * context (registration, the operation, invalidation) and silently
 * clamps the Send Queue to the device's limit: refuse rather than be
 * shortchanged.
 */
bool rpcrdma2_ep_attr_fits(const struct rpcrdma2_ep_attr *attr,
			   const struct rpcrdma2_dev_attr *dattr)
{
	return attr->nr_recv && attr->nr_send &&
	       (u64)attr->nr_recv + 1 <= dattr->max_qp_wr &&
	       rr2_ep_nsend(attr) + 3ULL * attr->nr_rw_ctxs <=
	       dattr->max_qp_wr &&
	       rr2_ep_ncqe(attr) <= dattr->max_cqe;
}

/**
 * rpcrdma2_ep_create - set up the verbs resources on a cm_id
 * @ep: endpoint to fill in (zeroed here)
 * @id: resolved or incoming rdma_cm_id; the endpoint takes no reference
 * @attr: queue depths and buffer sizes
 * @ops: completion callbacks
 * @priv: the owner's cookie
 *
 * On failure the endpoint is already released.
 */
int rpcrdma2_ep_create(struct rpcrdma2_ep *ep, struct rdma_cm_id *id,
		       const struct rpcrdma2_ep_attr *attr,
		       const struct rpcrdma2_ep_ops *ops, void *priv)
{
	const struct rpcrdma2_dev_attr *dattr = &ep->dattr;
	struct ib_qp_init_attr qp = { };
	u32 nsend, ncqe;
	int err;

	memset(ep, 0, sizeof(*ep));
	spin_lock_init(&ep->sq_lock);
	INIT_LIST_HEAD(&ep->sq_sends);
	ep->id = id;
	ep->attr = *attr;
	ep->ops = ops;
	ep->priv = priv;
	rpcrdma2_dev_attr(id->device, &ep->dattr);
	if (!rpcrdma2_ep_attr_fits(attr, dattr))
		return -EINVAL;
	nsend = rr2_ep_nsend(attr);
	ncqe = rr2_ep_ncqe(attr);
	/* nothing is made on a device being removed (shared/dev.c) */
	err = rpcrdma2_dev_get(&ep->dev, id->device, rpcrdma2_ep_removing);
	if (err)
		return err;
	if (rpcrdma2_fail(RPCRDMA2_FAIL_CONNECT)) {
		err = -ENOMEM;
		goto out;
	}

	ep->pd = ib_alloc_pd(id->device, 0);
	if (IS_ERR(ep->pd)) {
		err = PTR_ERR(ep->pd);
		ep->pd = NULL;
		goto out;
	}
	ep->cq = ib_alloc_cq_any(id->device, ep, ncqe, IB_POLL_WORKQUEUE);
	if (IS_ERR(ep->cq)) {
		err = PTR_ERR(ep->cq);
		ep->cq = NULL;
		goto out;
	}
	qp.qp_context = ep;
	qp.send_cq = ep->cq;
	qp.recv_cq = ep->cq;
	qp.qp_type = IB_QPT_RC;			/* V2-FRAME-01 */
	qp.sq_sig_type = IB_SIGNAL_REQ_WR;
	qp.cap.max_send_wr = nsend;
	qp.cap.max_recv_wr = attr->nr_recv + 1;
	qp.cap.max_send_sge = clamp_t(u32, attr->max_send_sge, 1,
				      max_t(u32, dattr->max_send_sge, 1));
	qp.cap.max_recv_sge = 1;
	/* rdma_rw sizes its own WRs from these (rdma_rw_init_qp) */
	qp.cap.max_rdma_ctxs = attr->nr_rw_ctxs;
	qp.port_num = id->port_num;
	err = rdma_create_qp(id, ep->pd, &qp);
	if (err)
		goto out;
	rpcrdma2_dev_clamp_qp(id->qp, dattr);
	err = rpcrdma2_ep_buffers(ep);
out:
	if (err)
		rpcrdma2_ep_destroy(ep);
	return err;
}

/**
 * rpcrdma2_ep_drain - wait until no work request of the QP is pending
 * @ep: an endpoint whose QP exists
 *
 * Moves the QP to the error state and waits for the flushes.  Then the
 * owner is given back the Sends that went out unsignaled after the last
 * completion (->send_done(), with success): none is pending any more.
 * Process context; no completion runs after this.
 */
void rpcrdma2_ep_drain(struct rpcrdma2_ep *ep)
{
	ib_drain_qp(ep->id->qp);
	rpcrdma2_ep_sends_done(ep, NULL, NULL);
}

/**
 * rpcrdma2_ep_destroy - drain the QP and free the endpoint's resources
 * @ep: endpoint; the cm_id itself stays with the owner
 */
void rpcrdma2_ep_destroy(struct rpcrdma2_ep *ep)
{
	struct ib_device *dev = ep->id ? ep->id->device : NULL;
	u32 i;

	if (!dev)
		return;
	if (ep->id->qp) {
		rpcrdma2_ep_drain(ep);
		rdma_destroy_qp(ep->id);
	}
	/*
	 * A completion handled during the drain may have reposted a
	 * Receive, whose flush then follows the drain marker: free the CQ
	 * (which stops its work item) before any buffer goes away.
	 */
	if (ep->cq)
		ib_free_cq(ep->cq);
	ep->cq = NULL;
	if (ep->ops && ep->ops->release)
		ep->ops->release(ep);
	for (i = 0; ep->recvs && i < ep->nr_recv_made; i++)
		rpcrdma2_ep_unmap(dev, &ep->recvs[i].buf, &ep->recvs[i].dma,
				  ep->attr.recv_size, DMA_FROM_DEVICE);
	for (i = 0; ep->sends && i < ep->attr.nr_send; i++)
		rpcrdma2_ep_unmap(dev, &ep->sends[i].buf, &ep->sends[i].dma,
				  ep->attr.send_size, DMA_TO_DEVICE);
	kfree(ep->recvs);
	kfree(ep->sends);
	if (ep->pd)
		ib_dealloc_pd(ep->pd);
	/* nothing of ours is left on the device: its removal may go on */
	rpcrdma2_dev_put(&ep->dev);
	memset(ep, 0, sizeof(*ep));
}

int rpcrdma2_ep_post_recv(struct rpcrdma2_recv *rv)
{
	struct rpcrdma2_ep *ep = rv->ep;
	struct ib_sge sge = {
		.addr	= rv->dma,
		.length	= ep->attr.recv_size,
		.lkey	= ep->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = {
		.wr_cqe		= &rv->cqe,
		.sg_list	= &sge,
		.num_sge	= 1,
	};
	int ret;

	/* before the trace event: a post that fails here was never made */
	if (rpcrdma2_fail(RPCRDMA2_FAIL_RECV_REFILL))
		return -ENOMEM;
	ib_dma_sync_single_for_device(ep->id->device, rv->dma,
				      ep->attr.recv_size, DMA_FROM_DEVICE);
	trace_rpcrdma2_post_recv(rv);
	/* counted first: the completion may run before the post returns */
	atomic_inc(&ep->recvs_posted);
	ret = ib_post_recv(ep->id->qp, &wr, NULL);
	if (ret) {
		trace_rpcrdma2_post_recv_err(rv, ret);
		atomic_dec(&ep->recvs_posted);
	}
	return ret;
}

/**
 * rpcrdma2_ep_grow_recvs - make and post more Receives
 * @ep: a connected endpoint made with attr.nr_recv_init
 * @want: the Receives the owner needs in all
 * @gfp: how the buffers are allocated
 *
 * Buffers are made for recvs[] in order, each posted once made, up to
 * @want or attr.nr_recv, whichever is smaller.  The caller serializes
 * calls for one endpoint; the Receives already posted may complete
 * meanwhile.  Returns how many Receives the endpoint has now: fewer
 * than @want when an allocation, a DMA mapping or a post failed (a
 * buffer that was not posted is freed again).
 */
u32 rpcrdma2_ep_grow_recvs(struct rpcrdma2_ep *ep, u32 want, gfp_t gfp)
{
	struct ib_device *dev = ep->id->device;

	want = min(want, ep->attr.nr_recv);
	while (ep->nr_recv_made < want) {
		struct rpcrdma2_recv *rv = &ep->recvs[ep->nr_recv_made];

		if (rpcrdma2_fail(RPCRDMA2_FAIL_RECV_REFILL) ||
		    rpcrdma2_ep_map(ep, &rv->buf, &rv->dma,
				    ep->attr.recv_size, DMA_FROM_DEVICE,
				    gfp | __GFP_NOWARN) ||
		    rpcrdma2_ep_post_recv(rv)) {
			rpcrdma2_ep_unmap(dev, &rv->buf, &rv->dma,
					  ep->attr.recv_size, DMA_FROM_DEVICE);
			break;
		}
		ep->nr_recv_made++;
	}
	return ep->nr_recv_made;
}

/* Make a completed Receive's octets visible to the CPU. */
void rpcrdma2_ep_recv_sync(struct rpcrdma2_recv *rv)
{
	ib_dma_sync_single_for_cpu(rv->ep->id->device, rv->dma, rv->len,
				   DMA_FROM_DEVICE);
}

/**
 * rpcrdma2_ep_send_wr - prepare the Send of @len octets of sd->buf
 * @sd: the Send buffer, filled in by the caller
 * @len: octets to send, at most the endpoint's send_size
 * @inv_rkey: non-zero: Send With Invalidate of this rkey
 *
 * Returns sd->wr, ready to be posted alone or as the last work request
 * of a chain (memory registration, RDMA Writes) that the caller builds
 * in front of it; NULL if @len does not fit the buffer.
 */
struct ib_send_wr *rpcrdma2_ep_send_wr(struct rpcrdma2_send *sd, u32 len,
				       u32 inv_rkey)
{
	struct rpcrdma2_ep *ep = sd->ep;

	if (len > ep->attr.send_size)
		return NULL;
	sd->sge.addr = sd->dma;
	sd->sge.length = len;
	sd->sge.lkey = ep->pd->local_dma_lkey;
	memset(&sd->wr, 0, sizeof(sd->wr));
	sd->wr.wr_cqe = &sd->cqe;
	sd->wr.sg_list = &sd->sge;
	sd->wr.num_sge = 1;
	sd->wr.opcode = inv_rkey ? IB_WR_SEND_WITH_INV : IB_WR_SEND;
	sd->wr.ex.invalidate_rkey = inv_rkey;	/* signaled or not: at post */
	ib_dma_sync_single_for_device(ep->id->device, sd->dma, len,
				      DMA_TO_DEVICE);
	return &sd->wr;
}

static struct rpcrdma2_send *rpcrdma2_ep_wr_send(const struct ib_send_wr *wr)
{
	if (!wr->wr_cqe || wr->wr_cqe->done != rpcrdma2_ep_send_done)
		return NULL;	/* not a Send: its owner's own work request */
	return container_of(wr->wr_cqe, struct rpcrdma2_send, cqe);
}

/*
 * Is @sd's completion asked for?  Every send_batch-th Send (or
 * unsignaled work request of a chain) is, so that at most send_batch - 1
 * buffers wait for a later one; so are those whose owner waits for
 * them.  Each completion saved is a CQE and often a CQ work item less
 * on this end.  Under sq_lock.
 */
static bool rpcrdma2_ep_signal(struct rpcrdma2_ep *ep,
			       const struct rpcrdma2_send *sd)
{
	if (sd->ctx || sd->must_signal ||
	    ++ep->sq_unsignaled >= ep->attr.send_batch) {
		ep->sq_unsignaled = 0;
		return true;
	}
	return false;
}

/**
 * rpcrdma2_ep_post_chain - post a chain of Send-queue work requests
 * @ep: the endpoint
 * @first: the chain; the Sends in it come from rpcrdma2_ep_send_wr()
 *
 * Each Send is signaled or not here, and listed in the order of the
 * Send queue, under one lock with the post itself.  Returns 0, or the
 * post's errno: the Sends the device did not take are not listed and
 * will not complete, and are the caller's again.
 */
int rpcrdma2_ep_post_chain(struct rpcrdma2_ep *ep, struct ib_send_wr *first)
{
	const struct ib_send_wr *bad = NULL;
	struct rpcrdma2_send *sd;
	struct ib_send_wr *wr;
	int ret;

	spin_lock(&ep->sq_lock);
	for (wr = first; wr; wr = wr->next) {
		sd = rpcrdma2_ep_wr_send(wr);
		if (!sd) {
			/*
			 * An unsignaled registration's Send Queue slot is
			 * reclaimed (on most devices) only when a later
			 * completion is polled: count it toward the batch.
			 */
			if (!(wr->send_flags & IB_SEND_SIGNALED))
				ep->sq_unsignaled++;
			continue;
		}
		/* posted again before it came back: the list would break */
		if (WARN_ON_ONCE(!list_empty(&sd->sq_node)))
			list_del_init(&sd->sq_node);
		if (rpcrdma2_ep_signal(ep, sd))
			wr->send_flags |= IB_SEND_SIGNALED;
		else
			wr->send_flags &= ~IB_SEND_SIGNALED;
		list_add_tail(&sd->sq_node, &ep->sq_sends);
		trace_rpcrdma2_post_send(sd);
	}
	ret = ib_post_send(ep->id->qp, first, &bad);
	if (ret && !bad)
		bad = first;
	/*
	 * From @bad on, nothing was posted; a Send refused there may have
	 * been the one signaled for those before it: signal the next.
	 */
	if (ret)
		ep->sq_unsignaled = ep->attr.send_batch;
	for (wr = ret ? (struct ib_send_wr *)bad : NULL; wr; wr = wr->next) {
		sd = rpcrdma2_ep_wr_send(wr);
		if (sd) {
			trace_rpcrdma2_post_send_err(sd, ret);
			list_del_init(&sd->sq_node);
		}
	}
	spin_unlock(&ep->sq_lock);
	return ret;
}

/**
 * rpcrdma2_ep_post_send - post one Send of @len octets of sd->buf
 * @sd: the Send buffer, filled in by the caller
 * @len: octets to send, at most the endpoint's send_size
 * @inv_rkey: non-zero: Send With Invalidate of this rkey
 */
int rpcrdma2_ep_post_send(struct rpcrdma2_send *sd, u32 len, u32 inv_rkey)
{
	struct ib_send_wr *wr = rpcrdma2_ep_send_wr(sd, len, inv_rkey);

	if (!wr)
		return -EMSGSIZE;
	return rpcrdma2_ep_post_chain(sd->ep, wr);
}

/**
 * rpcrdma2_ep_conn_param - connect/accept parameters with RFC 8797 data
 * @ep: the endpoint; its buffer sizes are what is advertised
 * @param: filled in
 * @pdata: storage for the private data, which @param points at
 * @remote_inv: advertise the R bit (CMP-CMPD-10)
 *
 * The record goes at offset 0 (CMP-CMPD-16); sizes clamp (CMP-CMPD-11).
 */
void rpcrdma2_ep_conn_param(struct rpcrdma2_ep *ep,
			    struct rdma_conn_param *param,
			    u8 pdata[RPCRDMA2_CMP_SIZE], bool remote_inv)
{
	struct rpcrdma2_cm_pdata pd = {
		.remote_inv	= remote_inv,
		.send_size	= ep->attr.send_size,
		.recv_size	= ep->attr.recv_size,
	};

	rpcrdma2_cmp_encode(pdata, &pd);
	memset(param, 0, sizeof(*param));
	param->private_data = pdata;
	param->private_data_len = RPCRDMA2_CMP_SIZE;
	/* the owner raises these when it takes part in RDMA Reads */
	param->responder_resources = 1;
	param->initiator_depth = 1;
	param->retry_count = 6;
	/*
	 * A message with no Receive posted is a peer's bug: with no RNR
	 * retries the QP fails and the connection drops (BC1-CRED-07).
	 * So does one longer than the Receive buffers (BC1-INLINE-03): a
	 * local length error.
	 */
	param->rnr_retry_count = 0;
	param->flow_control = 1;
}

/* The peer's RFC 8797 record from a CONNECT_REQUEST or ESTABLISHED. */
bool rpcrdma2_ep_peer_pdata(const struct rdma_cm_event *event,
			    struct rpcrdma2_cm_pdata *pd)
{
	return rpcrdma2_cmp_decode(event->param.conn.private_data,
				   event->param.conn.private_data_len, pd);
}
