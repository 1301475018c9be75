// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 client half: the sunrpc transport class.
 *
 * Owns the xprt_class that the RPC client looks up for "proto=rdma" and
 * "proto=rdma6" mounts (ident XPRT_TRANSPORT_RDMA), the rpc_xprt_ops
 * and one connection per rpc_xprt, which rpcrdma2_clnt_setup() makes.
 *
 * Forward slots are struct rr2c_req, allocated with the transport and
 * handed out by rr2c_op_alloc_slot(); their MRs are invalidated before
 * their buffers are freed (->buf_free, V2-SEC-09).
 *
 * Connecting, closing and destroying a connection: connect.c.
 * Sending Calls and the credits: send.c.  Receiving: reply.c.
 * Statistics (mountstats and the per-transport debugfs file): stats.c.
 *
 * Called by: net/sunrpc (xprt_create_transport and the rpc_xprt_ops),
 * the module core.
 */

#include <linux/module.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/sunrpc/addr.h>
#include <linux/sunrpc/bc_xprt.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/sched.h>
#include <linux/sunrpc/xprt.h>
#include <linux/sunrpc/xprtrdma.h>

#include "rpcrdma2.h"
#include "client/client.h"

static const struct rpc_xprt_ops rr2c_ops;
static struct xprt_class rpcrdma2_clnt_class;

/* ---- forward slots ---- */

/*
 * Slots are struct rr2c_req, all allocated with the transport, so a
 * swap-out never allocates one.  A task that finds none waits on the
 * backlog; a freed slot goes straight to the first waiter.
 */
static struct rr2c_req *rr2c_req_get(struct rr2c *r)
{
	struct rr2c_req *req = NULL;

	spin_lock(&r->req_lock);
	if (!list_empty(&r->req_free)) {
		req = list_first_entry(&r->req_free, struct rr2c_req, free);
		list_del_init(&req->free);
	}
	spin_unlock(&r->req_lock);
	return req;
}

static void rr2c_req_put(struct rr2c *r, struct rr2c_req *req)
{
	memset(&req->rq, 0, sizeof(req->rq));
	req->rp_error = 0;
	spin_lock(&r->req_lock);
	list_add(&req->free, &r->req_free);
	spin_unlock(&r->req_lock);
}

static void rr2c_op_alloc_slot(struct rpc_xprt *xprt, struct rpc_task *task)
{
	struct rr2c *r = rr2c(xprt);
	struct rr2c_req *req = rr2c_req_get(r);

	if (req) {
		task->tk_rqstp = &req->rq;
		task->tk_status = 0;
		return;
	}
	task->tk_status = -EAGAIN;
	xprt_add_backlog_noncongested(xprt, task);
	/* a slot freed before the task slept found no waiter */
	req = rr2c_req_get(r);
	if (req && !xprt_wake_up_backlog(xprt, &req->rq))
		rr2c_req_put(r, req);
}

static void rr2c_op_free_slot(struct rpc_xprt *xprt, struct rpc_rqst *rq)
{
	rr2c_req(rq)->rp_error = 0;
	if (!xprt_wake_up_backlog(xprt, rq))
		rr2c_req_put(rr2c(xprt), rr2c_req(rq));
}

/*
 * V2-SEC-09: an RPC that ends without its Reply (signal, timeout) still
 * has its MRs registered; the peer must lose access before the buffers
 * and pages are reused.
 */
static void rr2c_op_buf_free(struct rpc_task *task)
{
	struct rpc_rqst *rq = task->tk_rqstp;

	if (!bc_prealloc(rq))
		rr2c_frwr_unmap_sync(rr2c(rq->rq_xprt), rr2c_req(rq));
	rpc_free(task);
}

static int rr2c_reqs_alloc(struct rr2c *r)
{
	u32 i;

	r->reqs = kvcalloc(r->nr_slots, sizeof(*r->reqs), GFP_KERNEL);
	if (!r->reqs)
		return -ENOMEM;
	for (i = 0; i < r->nr_slots; i++) {
		struct rr2c_req *req = &r->reqs[i];

		INIT_LIST_HEAD(&req->mrs);
		init_completion(&req->inv_done);
		list_add_tail(&req->free, &r->req_free);
	}
	return 0;
}

/*
 * Swap over NFS/RDMA.  Receive buffers are preallocated and Send
 * buffers are pooled, so the data path allocates nothing; what is left
 * is to count the swap users, which makes the RPC layer mark this
 * transport's tasks RPC_TASK_SWAPPER and the connect worker run with
 * PF_MEMALLOC.
 */
static int rr2c_op_enable_swap(struct rpc_xprt *xprt)
{
	atomic_inc(&xprt->swapper);
	return 0;
}

static void rr2c_op_disable_swap(struct rpc_xprt *xprt)
{
	atomic_dec(&xprt->swapper);
}

/* Fault injection (sunrpc's "disconnect" fault): drop the connection. */
static void rr2c_op_inject_disconnect(struct rpc_xprt *xprt)
{
	struct rr2c *r = rr2c(xprt);

	if (xprt_connected(xprt) && r->id)
		rdma_disconnect(r->id);
}

static void rr2c_op_set_port(struct rpc_xprt *xprt, unsigned short port)
{
	rpcrdma2_xprt_set_port(xprt, port);
}

static void rr2c_op_timer(struct rpc_xprt *xprt, struct rpc_task *task)
{
	xprt_force_disconnect(xprt);
}

static void rr2c_op_set_connect_timeout(struct rpc_xprt *xprt,
					unsigned long connect_timeout,
					unsigned long reconnect_timeout)
{
	spin_lock(&xprt->transport_lock);
	if (connect_timeout < xprt->connect_timeout)
		xprt->connect_timeout = connect_timeout;
	if (reconnect_timeout < xprt->max_reconnect_timeout)
		xprt->max_reconnect_timeout = reconnect_timeout;
	spin_unlock(&xprt->transport_lock);
}

static const struct rpc_timeout rr2c_timeout = {
	.to_initval	= 60 * HZ,
	.to_maxval	= 60 * HZ,
};

static const struct rpc_xprt_ops rr2c_ops = {
	.reserve_xprt		= xprt_reserve_xprt_cong,
	.release_xprt		= xprt_release_xprt_cong,
	.alloc_slot		= rr2c_op_alloc_slot,
	.free_slot		= rr2c_op_free_slot,
	.release_request	= xprt_release_rqst_cong,
	.wait_for_reply_request	= xprt_wait_for_reply_request_def,
	.timer			= rr2c_op_timer,
	.rpcbind		= rpcb_getport_async,
	.set_port		= rr2c_op_set_port,
	.connect		= rr2c_op_connect,
	.buf_alloc		= rpc_malloc,
	.buf_free		= rr2c_op_buf_free,
	.send_request		= rr2c_op_send_request,
	.abort_send_request	= rr2c_op_abort_send_request,
	.close			= rr2c_op_close,
	.destroy		= rr2c_op_destroy,
	.set_connect_timeout	= rr2c_op_set_connect_timeout,
	.print_stats		= rr2c_op_print_stats,
	.enable_swap		= rr2c_op_enable_swap,
	.disable_swap		= rr2c_op_disable_swap,
	.inject_disconnect	= rr2c_op_inject_disconnect,
	.bc_setup		= rr2c_bc_setup,
	.bc_maxpayload		= rr2c_bc_maxpayload,
	.bc_num_slots		= rr2c_bc_num_slots,
	.bc_free_rqst		= rr2c_bc_free_rqst,
	.bc_destroy		= rr2c_bc_destroy,
};

static struct rpc_xprt *rpcrdma2_clnt_setup(struct xprt_create *args)
{
	/* rdma_slot_table_entries: read once, for the transport's life */
	u32 nr_slots = rr2c_knob_slots();
	struct rpc_xprt *xprt;
	struct rr2c *r;

	if (args->addrlen > sizeof(xprt->addr))
		return ERR_PTR(-EBADF);
	if (args->dstaddr->sa_family != AF_INET &&
	    args->dstaddr->sa_family != AF_INET6)
		return ERR_PTR(-EAFNOSUPPORT);
	if (!try_module_get(THIS_MODULE))
		return ERR_PTR(-EIO);
	xprt = xprt_alloc(args->net, sizeof(*r), 0, nr_slots);
	if (!xprt) {
		module_put(THIS_MODULE);
		return ERR_PTR(-ENOMEM);
	}
	r = rr2c(xprt);
	r->nr_slots = nr_slots;
	r->credits = nr_slots;
	spin_lock_init(&r->req_lock);
	INIT_LIST_HEAD(&r->req_free);
	rr2c_frwr_init(r);
	if (rr2c_reqs_alloc(r)) {
		xprt_free(xprt);
		module_put(THIS_MODULE);
		return ERR_PTR(-ENOMEM);
	}
	xprt->timeout = &rr2c_timeout;
	xprt->connect_timeout = xprt->timeout->to_initval;
	xprt->max_reconnect_timeout = xprt->timeout->to_maxval;
	xprt->bind_timeout = RR2C_BIND_TO;
	xprt->reestablish_timeout = RR2C_INIT_REEST_TO;
	xprt->idle_timeout = RR2C_IDLE_TO;
	xprt->resvport = 0;
	xprt->ops = &rr2c_ops;
	xprt->prot = IPPROTO_TCP;	/* side protocols peek at it */
	xprt->xprt_class = &rpcrdma2_clnt_class;
	xprt->addrlen = args->addrlen;
	memcpy(&xprt->addr, args->dstaddr, args->addrlen);
	if (rpc_get_port((struct sockaddr *)&xprt->addr))
		xprt_set_bound(xprt);
	rpcrdma2_xprt_addresses(xprt);
	xprt->max_payload = RR2C_MAX_PAYLOAD;
	xprt->cwnd = RPC_CWNDSCALE;	/* one credit until granted */

	r->vers_cap = RPCRDMA2_VERS_2;
	rpcrdma2_link_init(&r->link, &rr2c_link_ops, &r->xprt.addr);
	mutex_init(&r->recv_lock);
	init_completion(&r->cm_done);
	INIT_DELAYED_WORK(&r->connect_work, rr2c_connect_worker);
	return xprt;
}

static struct xprt_class rpcrdma2_clnt_class = {
	.list	= LIST_HEAD_INIT(rpcrdma2_clnt_class.list),
	.name	= "rpcrdma2",
	.owner	= THIS_MODULE,
	.ident	= XPRT_TRANSPORT_RDMA,
	.setup	= rpcrdma2_clnt_setup,
	.netid	= { "rdma", "rdma6", "" },
};

int rpcrdma2_clnt_register(void)
{
	return xprt_register_transport(&rpcrdma2_clnt_class);
}

void rpcrdma2_clnt_unregister(void)
{
	xprt_unregister_transport(&rpcrdma2_clnt_class);
}
