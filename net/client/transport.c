// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 client half: the sunrpc transport class.
 *
 * Owns the xprt_class that the RPC client looks up for "proto=rdma" and
 * "proto=rdma6" mounts (ident XPRT_TRANSPORT_RDMA).  The connection
 * machinery (rdma_cm, negotiation, send and receive paths) lands behind
 * ->setup; until it does, ->setup refuses the transport with
 * -EPROTONOSUPPORT so a mount fails at once and says why, instead of
 * hanging.
 *
 * Called by: net/sunrpc (xprt_create_transport), the module core.
 */

#include <linux/module.h>
#include <linux/err.h>
#include <linux/sunrpc/xprt.h>
#include <linux/sunrpc/xprtrdma.h>

#include "rpcrdma2.h"

static struct rpc_xprt *rpcrdma2_clnt_setup(struct xprt_create *args)
{
	pr_notice_ratelimited("rpcrdma2: client transport is not available in this build\n");
	return ERR_PTR(-EPROTONOSUPPORT);
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
