/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rpcrdma2 connection endpoint: the verbs resources of one RC
 * connection, shared by the client half, the server half and the
 * KUnit harness.  See ep.c.
 */
#ifndef RPCRDMA2_EP_H
#define RPCRDMA2_EP_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#include "shared/codec.h"
#include "shared/dev.h"

struct rpcrdma2_ep;

/**
 * struct rpcrdma2_cid - names one work request's completion in traces
 * @cq_id: the CQ's restrack ID, which the RDMA core's rdma_core:cq_*
 *	events print as cq.id
 * @id: from the endpoint's counter (rpcrdma2_ep_cid()), unique on the
 *	CQ; a Send or Receive buffer keeps its ID for each reuse
 *
 * A post event and its completion event carry the same pair.
 */
struct rpcrdma2_cid {
	u32	cq_id;
	u32	id;
};

/* One posted Receive buffer. */
struct rpcrdma2_recv {
	struct ib_cqe		cqe;
	struct rpcrdma2_cid	cid;
	struct rpcrdma2_ep	*ep;
	void			*buf;
	u64			dma;
	u32			len;		/* octets received */
	enum ib_wc_status	status;
	u32			inv_rkey;	/* remote invalidation */
	bool			remote_inv;
};

/* One Send buffer and its work request. */
struct rpcrdma2_send {
	struct ib_cqe		cqe;
	struct rpcrdma2_cid	cid;
	struct rpcrdma2_ep	*ep;
	void			*buf;
	u64			dma;
	enum ib_wc_status	status;
	struct ib_send_wr	wr;	/* see rpcrdma2_ep_send_wr() */
	struct ib_sge		sge;
	void			*ctx;	/* the owner's, until the completion */
	/*
	 * Always signaled (see rpcrdma2_ep_post_chain()): the owner set
	 * this because it needs the buffer back promptly (a small
	 * reserve).  A Send with a @ctx is always signaled too.
	 */
	bool			must_signal;
	struct list_head	sq_node;	/* on ep->sq_sends */
};

struct rpcrdma2_ep_ops {
	/* a Receive completed, or was flushed (status != IB_WC_SUCCESS) */
	void (*recv_done)(struct rpcrdma2_recv *rv);
	/*
	 * A Send completed, or was flushed: once for every Send posted,
	 * in the order they were posted (an unsignaled one when a later
	 * one completes, or when the endpoint is drained: then in the
	 * context of rpcrdma2_ep_drain()'s caller, which may overlap a
	 * ->recv_done() still running in the CQ's work item).  A Send
	 * buffer's cqe belongs to the endpoint: it is posted only through
	 * rpcrdma2_ep_post_chain().
	 */
	void (*send_done)(struct rpcrdma2_send *sd);
	/*
	 * Optional: rpcrdma2_ep_destroy() has destroyed the QP and freed
	 * the CQ (no completion runs or will run) and is about to release
	 * the PD: free what the owner made on it (MRs).
	 */
	void (*release)(struct rpcrdma2_ep *ep);
	/*
	 * Optional: the device is being removed (shared/dev.c); start
	 * closing the connection, without blocking.  The removal waits
	 * until rpcrdma2_ep_destroy() has run.  Without it, the owner
	 * must learn of the removal some other way (rdma_cm's event).
	 */
	void (*removing)(struct rpcrdma2_ep *ep);
};

struct rpcrdma2_ep_attr {
	u32	nr_recv;	/* Receives: credits + 1 (V2-CRED-07) */
	/*
	 * Receive buffers made with the endpoint; 0: all nr_recv.  The
	 * rest are made and posted by rpcrdma2_ep_grow_recvs(), as the
	 * credits they are for are granted.
	 */
	u32	nr_recv_init;
	u32	recv_size;	/* octets per Receive buffer */
	u32	nr_send;
	u32	send_size;	/* octets per Send buffer */
	/*
	 * Work requests on the Send queue besides the Sends (memory
	 * registration, local invalidation), each of which may complete.
	 */
	u32	nr_send_extra;
	/* rdma_rw contexts; the core adds their WRs to the Send queue */
	u32	nr_rw_ctxs;
	/* completions of RDMA Read/Write chains beyond the above */
	u32	nr_cqe_extra;
	/* scatter/gather entries per Send-queue WR (rdma_rw); 0 means 1 */
	u32	max_send_sge;
	/*
	 * Signal at least every send_batch-th Send (0 or 1: every one).
	 * At most send_batch - 1 Send buffers wait for a later Send to
	 * come back; the owner's pool must be larger than that.
	 */
	u32	send_batch;
};

struct rpcrdma2_ep {
	struct rdma_cm_id		*id;
	struct ib_pd			*pd;
	struct ib_cq			*cq;
	const struct rpcrdma2_ep_ops	*ops;
	struct rpcrdma2_ep_attr		attr;
	struct rpcrdma2_recv		*recvs;
	struct rpcrdma2_send		*sends;
	void				*priv;
	struct rpcrdma2_dev_user	dev;	/* a user of id->device */
	/* the device's limits, as clamped when the endpoint was made */
	struct rpcrdma2_dev_attr	dattr;
	atomic_t			next_cid; /* see rpcrdma2_ep_cid() */
	spinlock_t			sq_lock; /* the two below, posting */
	struct list_head		sq_sends; /* posted, oldest first */
	u32				sq_unsignaled; /* since the last signaled */
	/*
	 * Receives posted and not yet completed: what the peer may send
	 * right now (BC1-CRED-08, BC1-CRED-09, BC1-CRED-11, BC1-CRED-12); read
	 * by KUnit.
	 */
	atomic_t			recvs_posted;
	/* recvs[0 .. nr_recv_made - 1] have buffers; see nr_recv_init */
	u32				nr_recv_made;
};

/**
 * rpcrdma2_ep_cid - give a work request context its completion ID
 * @ep: an endpoint whose CQ exists
 * @cid: filled in
 *
 * Called when the context is created (Send and Receive buffers, MRs) or
 * each time it is posted (rdma_rw batches); any context.
 */
static inline void rpcrdma2_ep_cid(struct rpcrdma2_ep *ep,
				   struct rpcrdma2_cid *cid)
{
	cid->cq_id = ep->cq->res.id;
	cid->id = atomic_inc_return(&ep->next_cid);
}

bool rpcrdma2_ep_attr_fits(const struct rpcrdma2_ep_attr *attr,
			   const struct rpcrdma2_dev_attr *dattr);
int rpcrdma2_ep_create(struct rpcrdma2_ep *ep, struct rdma_cm_id *id,
		       const struct rpcrdma2_ep_attr *attr,
		       const struct rpcrdma2_ep_ops *ops, void *priv);
void rpcrdma2_ep_drain(struct rpcrdma2_ep *ep);
void rpcrdma2_ep_destroy(struct rpcrdma2_ep *ep);
int rpcrdma2_ep_post_recv(struct rpcrdma2_recv *rv);
u32 rpcrdma2_ep_grow_recvs(struct rpcrdma2_ep *ep, u32 want, gfp_t gfp);
void rpcrdma2_ep_recv_sync(struct rpcrdma2_recv *rv);
int rpcrdma2_ep_post_send(struct rpcrdma2_send *sd, u32 len, u32 inv_rkey);
struct ib_send_wr *rpcrdma2_ep_send_wr(struct rpcrdma2_send *sd, u32 len,
				       u32 inv_rkey);
int rpcrdma2_ep_post_chain(struct rpcrdma2_ep *ep, struct ib_send_wr *first);

/* RFC 8797 private data carried in the connect and accept parameters */
void rpcrdma2_ep_conn_param(struct rpcrdma2_ep *ep,
			    struct rdma_conn_param *param,
			    u8 pdata[RPCRDMA2_CMP_SIZE], bool remote_inv);
bool rpcrdma2_ep_peer_pdata(const struct rdma_cm_event *event,
			    struct rpcrdma2_cm_pdata *pd);

#endif /* RPCRDMA2_EP_H */
