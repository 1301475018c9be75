// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 server half: reverse-direction RPC (RFC 8167, seed 002; seed
 * 001 on Version 2), the NFSv4.1+ callback channel.
 *
 * nfsd sends callbacks through an rpc_clnt whose transport is looked up
 * by ident XPRT_TRANSPORT_BC_RDMA with the forward connection's svc_xprt
 * attached; this file registers that class.  Its rpc_xprt belongs to
 * one connection: a reverse Call goes out on the connection's Send path
 * as an RDMA_MSG / RDMA2_MSG without chunks (RESPONSE clear), under the
 * same send mutex as the forward Replies (V2-CONT-03).  On Version 2 it is
 * sent only if the client advertised BRS above NONE (V2-RDIR-11).  The
 * client's Reply arrives on the connection's receive path, which tells
 * it from a forward Call by the RPC msg_type and hands it here to be
 * matched by XID.
 *
 * Backward credits (BC1-CRED-04): the client
 * says how many reverse Calls it takes at once in the credit word of
 * each of its reverse Replies (BC1-RDIR-11; on Version 2 the
 * grant half, V2-CRED-02).  The rpc_xprt's congestion window is that number, as
 * the stock svcrdma keeps it: a Call takes a slot of the window when
 * it is sent and gives it back when its Reply is taken or it is let
 * go, so the Calls outstanding never exceed the client's last grant.
 * Until its first Reply the client has granted nothing, and one Call at
 * a time goes out; never more than RR2S_BC_SLOTS, the Receives kept for
 * the Replies (BC1-CRED-11).
 *
 * Called by: net/sunrpc (xprt_create_transport and the rpc_xprt_ops for
 * nfsd's callback client), the server's receive path.
 */

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/xprt.h>
#include <linux/sunrpc/xprtrdma.h>
#include <linux/unaligned.h>

#include "server/server.h"
#include <trace/events/rpcrdma2.h>

static struct xprt_class rr2b_class;

/*
 * V2-RDIR-11: reverse Calls go only to a client that said it takes
 * them.  On Version 2 that is its BRS property (absent = NONE, V2-RDIR-10),
 * and a server that advertised NONE itself takes no reverse Replies,
 * so it makes no Calls either; Version 1 has no such property, and
 * NFSv4.1 sessions say it instead (BC1-RDIR-02).
 */
static bool rr2s_bc_allowed(const struct rr2s_conn *c)
{
	return c->link.conn.vers != RPCRDMA2_VERS_2 ||
	       (READ_ONCE(c->link.conn.peer_props.brs) != RDMA2_RVRSDIR_NONE &&
		c->link.local.brs != RDMA2_RVRSDIR_NONE);
}

/**
 * rr2s_bc_level - how reverse Calls go to this client, for the log
 * @c: a settled connection
 *
 * "rfc8167" on Version 1; on Version 2, the client's BRS, which the
 * reverse Calls stay within (V2-RDIR-12).
 */
const char *rr2s_bc_level(const struct rr2s_conn *c)
{
	if (c->link.conn.vers != RPCRDMA2_VERS_2)
		return "rfc8167";
	return rpcrdma2_rvrsdir_name(c->link.conn.peer_props.brs);
}

static int rr2b_send_request(struct rpc_rqst *req)
{
	struct svc_xprt *sx = req->rq_xprt->bc_xprt;
	/*
	 * A reverse Call: the RPC client's new XID in rdma_xid as in the
	 * RPC header (V2-RDIR-03, BC1-RDIR-10), the connection's version
	 * (V2-RDIR-04, BC1-RDIR-06), RESPONSE clear (V2-RDIR-05), an
	 * RDMA_MSG without chunks (BC1-RDIR-08, BC1-RDIR-09).
	 */
	struct rpcrdma2_tx tx = {
		.xid		= be32_to_cpu(req->rq_xid),
		.payload	= &req->rq_snd_buf,
	};
	struct rr2s_conn *c;
	int ret = -ENOTCONN;

	if (!sx || svc_xprt_is_dead(sx))
		return -ENOTCONN;
	c = rr2s_conn(sx);
	if (!rr2s_bc_allowed(c))
		return -ENOTCONN;		/* V2-RDIR-11 */
	/* BC1-CRED-04: within the client's backward credits, or wait */
	if (!xprt_request_get_cong(req->rq_xprt, req))
		return -EBADSLT;
	/* continued only to a client at BRS CONT or above (V2-RDIR-12) */
	tx.single = rpcrdma2_rdir_single(&c->link.conn);
	mutex_lock(&sx->xpt_mutex);
	if (!svc_xprt_is_dead(sx))
		ret = rr2s_send_msg(c, &tx);
	mutex_unlock(&sx->xpt_mutex);
	if (ret == -ENOTCONN)
		rr2s_close(c);
	else if (!ret)
		c->bc_calls++;
	return ret;
}

/* A backchannel is connected for as long as its connection is. */
static void rr2b_connect(struct rpc_xprt *xprt, struct rpc_task *task)
{
	xprt_clear_connecting(xprt);
	xprt_wake_pending_tasks(xprt, -ENOTCONN);
}

static void rr2b_close(struct rpc_xprt *xprt)
{
	xprt_disconnect_done(xprt);
}

static void rr2b_destroy(struct rpc_xprt *xprt)
{
	rpcrdma2_xprt_free_addresses(xprt);
	xprt_free(xprt);
	module_put(THIS_MODULE);	/* taken in rr2b_setup() */
}

/* the _cong variants keep the Calls within the window (BC1-CRED-04) */
static const struct rpc_xprt_ops rr2b_ops = {
	.reserve_xprt		= xprt_reserve_xprt_cong,
	.release_xprt		= xprt_release_xprt_cong,
	.alloc_slot		= xprt_alloc_slot,
	.free_slot		= xprt_free_slot,
	.release_request	= xprt_release_rqst_cong,
	.buf_alloc		= rpc_malloc,
	.buf_free		= rpc_free,
	.send_request		= rr2b_send_request,
	.wait_for_reply_request	= xprt_wait_for_reply_request_def,
	.connect		= rr2b_connect,
	.close			= rr2b_close,
	.destroy		= rr2b_destroy,
};

static const struct rpc_timeout rr2b_timeout = {
	.to_initval	= 60 * HZ,
	.to_maxval	= 60 * HZ,
};

static struct rpc_xprt *rr2b_setup(struct xprt_create *args)
{
	struct svc_xprt *sx = args->bc_xprt;
	struct rpc_xprt *xprt;

	if (!sx || args->addrlen > sizeof(xprt->addr) ||
	    sx->xpt_class->xcl_ident != XPRT_TRANSPORT_RDMA)
		return ERR_PTR(-EINVAL);
	if (!rr2s_bc_allowed(rr2s_conn(sx)))
		return ERR_PTR(-EPROTONOSUPPORT);	/* V2-RDIR-11 */
	/*
	 * The rpc_xprt outlives nfsd's use of this module's listener and
	 * runs rr2b_destroy() from this module's text: pin it.
	 */
	if (!try_module_get(THIS_MODULE))
		return ERR_PTR(-EIO);
	xprt = xprt_alloc(args->net, sizeof(*xprt), RR2S_BC_SLOTS,
			  RR2S_BC_SLOTS);
	if (!xprt) {
		module_put(THIS_MODULE);
		return ERR_PTR(-ENOMEM);
	}
	xprt->timeout = &rr2b_timeout;
	xprt->ops = &rr2b_ops;
	xprt->xprt_class = &rr2b_class;
	xprt->prot = XPRT_TRANSPORT_BC_RDMA;
	xprt->addrlen = args->addrlen;
	memcpy(&xprt->addr, args->dstaddr, args->addrlen);
	rpcrdma2_xprt_addresses(xprt);
	xprt->max_payload = PAGE_SIZE;	/* what clients take in callbacks */
	xprt->cwnd = RPC_CWNDSCALE;	/* one Call until the client grants */
	xprt_set_bound(xprt);
	xprt_set_connected(xprt);

	/* one reference for sx->xpt_bc_xprt, put by svc_xprt_free() */
	xprt_get(xprt);
	sx->xpt_bc_xprt = xprt;
	xprt->bc_xprt = sx;
	return xprt;
}

/*
 * BC1-CRED-04: the client's backward credits, from its Reply's credit
 * word, become the window of Calls outstanding: at most RR2S_BC_SLOTS
 * (the rpc_xprt's slots).  A word that grants nothing (0, which
 * BC1-CRED-06 forbids) leaves the window as it was (V2-CRED-03), so it
 * never drops below one Call.
 */
static void rr2b_set_credits(struct rpc_xprt *xprt, __be32 xid, u32 grant)
{
	u32 window = min_t(u32, grant, xprt->max_reqs);

	trace_rpcrdma2_svc_bc_grant(&xprt->addr, be32_to_cpu(xid), grant,
				    window);
	if (!window)
		return;
	spin_lock(&xprt->transport_lock);
	xprt->cwnd = window << RPC_CWNDSHIFT;
	spin_unlock(&xprt->transport_lock);
}

/**
 * rr2s_bc_reply - a Reply to a reverse Call arrived
 * @c: the connection
 * @grant: the backward credits its header grants (rpcrdma2_credit_in())
 * @data: the RPC Reply, or NULL when it was reassembled into @pages
 * @len: its length
 * @pages: the reassembled Reply, or NULL
 *
 * Called from the receive path; a Reply that matches nothing is dropped,
 * its credit word too.
 */
void rr2s_bc_reply(struct rr2s_conn *c, u32 grant, const void *data, u32 len,
		   struct page **pages)
{
	struct rpc_xprt *xprt = READ_ONCE(c->b.xprt.xpt_bc_xprt);
	struct rpc_rqst *req;
	u32 off, n, copied = 0;
	__be32 xid;

	if (!xprt || len < 8)
		return;
	xid = *(const __be32 *)(data ?: page_address(pages[0]));
	spin_lock(&xprt->queue_lock);
	req = xprt_lookup_rqst(xprt, xid);
	if (req)
		xprt_pin_rqst(req);
	spin_unlock(&xprt->queue_lock);
	trace_rpcrdma2_svc_bc_reply(&c->b.xprt.xpt_remote, be32_to_cpu(xid),
				    len, req ? 0 : -ESRCH);
	if (!req)
		return;
	/* before the Call completes and gives back its slot of the window */
	rr2b_set_credits(xprt, xid, grant);
	if (data) {
		copied = rpcrdma2_copy_to_xdr(&req->rq_private_buf, 0, data,
					      len);
	} else {
		for (off = 0; off < len; off += n) {
			n = min_t(u32, len - off, PAGE_SIZE);
			copied += rpcrdma2_copy_to_xdr(&req->rq_private_buf, off,
				page_address(pages[off >> PAGE_SHIFT]), n);
		}
	}
	spin_lock(&xprt->queue_lock);
	xprt_complete_rqst(req->rq_task, copied);
	xprt_unpin_rqst(req);
	spin_unlock(&xprt->queue_lock);
}

static struct xprt_class rr2b_class = {
	.list	= LIST_HEAD_INIT(rr2b_class.list),
	.name	= "rpcrdma2 backchannel",
	.owner	= THIS_MODULE,
	.ident	= XPRT_TRANSPORT_BC_RDMA,
	.setup	= rr2b_setup,
};

int rr2s_bc_register(void)
{
	return xprt_register_transport(&rr2b_class);
}

void rr2s_bc_unregister(void)
{
	xprt_unregister_transport(&rr2b_class);
}
