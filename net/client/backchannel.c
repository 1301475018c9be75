// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 client half: reverse-direction RPC (RFC 8167, seed 002; seed
 * 001 on Version 2), the NFSv4.1+ callback channel.
 *
 * The server sends a reverse Call as an ordinary RDMA_MSG / RDMA2_MSG
 * without chunks whose payload is an RPC Call; the receive path tells
 * it from a Reply by the RPC msg_type.  Each reverse Call lands in one
 * of RR2C_BC_SLOTS preallocated rpc_rqsts (one page for the Call, one
 * for the Reply: callbacks are small, and the slot count is what the
 * NFS session advertises, so the server never sends more at once).  The
 * rqst goes to the NFS callback service's queue; its Reply comes back
 * through ->send_request like any message, marked RESPONSE and without
 * a forward credit, and ->bc_free_rqst returns the slot.
 *
 * On Version 2 the client advertises BRS = SIMPLE in its CONNPROP
 * (V2-RDIR-10, V2-RDIR-12): reverse Calls in one message, no chunks.
 *
 * Called by: net/sunrpc (the bc_* rpc_xprt_ops, svc_process_bc) and the
 * client's receive path.
 */

#include <linux/slab.h>
#include <linux/sunrpc/bc_xprt.h>
#include <linux/sunrpc/svc.h>

#include "client/client.h"
#include <trace/events/rpcrdma2.h>

static void rr2c_bc_release(struct rpc_rqst *req)
{
	if (req->rq_rcv_buf.head[0].iov_base)
		free_page((unsigned long)req->rq_rcv_buf.head[0].iov_base);
	if (req->rq_snd_buf.head[0].iov_base)
		free_page((unsigned long)req->rq_snd_buf.head[0].iov_base);
	kfree(req);
}

/* Point a slot's buffers back at their whole pages. */
static void rr2c_bc_reset(struct rpc_rqst *req)
{
	xdr_buf_init(&req->rq_rcv_buf, req->rq_rcv_buf.head[0].iov_base,
		     PAGE_SIZE);
	xdr_buf_init(&req->rq_snd_buf, req->rq_snd_buf.head[0].iov_base,
		     PAGE_SIZE);
	req->rq_private_buf = req->rq_rcv_buf;
}

static struct rpc_rqst *rr2c_bc_alloc(struct rpc_xprt *xprt)
{
	struct rpc_rqst *req;
	void *rcv, *snd;

	req = kzalloc(sizeof(*req), GFP_KERNEL);
	rcv = (void *)__get_free_page(GFP_KERNEL);
	snd = (void *)__get_free_page(GFP_KERNEL);
	if (!req || !rcv || !snd) {
		free_page((unsigned long)rcv);
		free_page((unsigned long)snd);
		kfree(req);
		return NULL;
	}
	req->rq_xprt = xprt;
	xdr_buf_init(&req->rq_rcv_buf, rcv, PAGE_SIZE);
	xdr_buf_init(&req->rq_snd_buf, snd, PAGE_SIZE);
	rr2c_bc_reset(req);
	return req;
}

/**
 * rr2c_bc_setup - the NFS client opens a session with a back channel
 * @xprt: the transport
 * @min_reqs: slots it wants at least
 *
 * Slots are made once, RR2C_BC_SLOTS of them (or @min_reqs if more);
 * later sessions on the same transport share them.
 */
int rr2c_bc_setup(struct rpc_xprt *xprt, unsigned int min_reqs)
{
	unsigned int want = max_t(unsigned int, min_reqs, RR2C_BC_SLOTS);
	struct rpc_rqst *req;

	while (READ_ONCE(xprt->bc_alloc_max) < want) {
		req = rr2c_bc_alloc(xprt);
		if (!req)
			return -ENOMEM;
		spin_lock_bh(&xprt->bc_pa_lock);
		list_add_tail(&req->rq_bc_pa_list, &xprt->bc_pa_list);
		xprt->bc_alloc_count++;
		xprt->bc_alloc_max++;
		atomic_inc(&xprt->bc_slot_count);
		spin_unlock_bh(&xprt->bc_pa_lock);
	}
	return 0;
}

size_t rr2c_bc_maxpayload(struct rpc_xprt *xprt)
{
	return PAGE_SIZE;
}

unsigned int rr2c_bc_num_slots(struct rpc_xprt *xprt)
{
	return RR2C_BC_SLOTS;
}

/* A reverse Call (or its Reply) is finished with: back to the pool. */
void rr2c_bc_free_rqst(struct rpc_rqst *req)
{
	struct rpc_xprt *xprt = req->rq_xprt;
	bool delivered = test_and_clear_bit(RPC_BC_PA_IN_USE,
					    &req->rq_bc_pa_state);

	rr2c_bc_reset(req);
	spin_lock_bh(&xprt->bc_pa_lock);
	list_add_tail(&req->rq_bc_pa_list, &xprt->bc_pa_list);
	xprt->bc_alloc_count++;
	if (delivered)		/* svc_process_bc() counted it out */
		atomic_inc(&xprt->bc_slot_count);
	spin_unlock_bh(&xprt->bc_pa_lock);
	if (delivered)
		xprt_put(xprt);		/* taken in rr2c_bc_deliver() */
}

/* Free idle slots: the session is gone, or the transport is. */
void rr2c_bc_destroy(struct rpc_xprt *xprt, unsigned int max_reqs)
{
	struct rpc_rqst *req, *tmp;
	LIST_HEAD(doomed);

	spin_lock_bh(&xprt->bc_pa_lock);
	list_for_each_entry_safe(req, tmp, &xprt->bc_pa_list, rq_bc_pa_list) {
		if (!max_reqs--)
			break;
		list_move(&req->rq_bc_pa_list, &doomed);
		xprt->bc_alloc_count--;
		xprt->bc_alloc_max--;
		atomic_dec(&xprt->bc_slot_count);
	}
	spin_unlock_bh(&xprt->bc_pa_lock);
	list_for_each_entry_safe(req, tmp, &doomed, rq_bc_pa_list)
		rr2c_bc_release(req);
}

/**
 * rr2c_bc_take - a slot for the reverse Call @xid that is arriving
 * @r: the transport
 * @xid: the Call's XID
 *
 * Returns NULL (the Call is dropped and counted) when the NFS client
 * runs no callback service or every slot is busy; the server then
 * times the callback out, as it would on a lost message.
 */
struct rpc_rqst *rr2c_bc_take(struct rr2c *r, u32 xid)
{
	struct rpc_xprt *xprt = &r->xprt;
	struct rpc_rqst *req = NULL;

	r->stats.bc_calls++;
	spin_lock_bh(&xprt->bc_pa_lock);
	if (xprt->bc_serv)
		req = list_first_entry_or_null(&xprt->bc_pa_list,
					       struct rpc_rqst, rq_bc_pa_list);
	if (req) {
		list_del(&req->rq_bc_pa_list);
		xprt->bc_alloc_count--;
	}
	spin_unlock_bh(&xprt->bc_pa_lock);
	if (!req) {
		r->stats.bc_dropped++;
		trace_rpcrdma2_clnt_bc_call(&xprt->addr, xid, 0, -ENOBUFS);
		return NULL;
	}
	req->rq_xid = cpu_to_be32(xid);
	req->rq_connect_cookie = xprt->connect_cookie;
	req->rq_bytes_sent = 0;
	return req;
}

/* The whole reverse Call is in @req: queue it for the callback service. */
void rr2c_bc_deliver(struct rr2c *r, struct rpc_rqst *req, u32 len)
{
	struct rpc_xprt *xprt = &r->xprt;
	struct svc_serv *serv = xprt->bc_serv;

	trace_rpcrdma2_clnt_bc_call(&xprt->addr, be32_to_cpu(req->rq_xid), len,
				    0);
	req->rq_private_buf.len = len;
	req->rq_rcv_buf.len = len;
	set_bit(RPC_BC_PA_IN_USE, &req->rq_bc_pa_state);
	xprt_get(xprt);			/* put in rr2c_bc_free_rqst() */
	lwq_enqueue(&req->rq_bc_list, &serv->sv_cb_list);
	svc_pool_wake_idle_thread(&serv->sv_pools[0]);
}
