// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 server half: the svc_xprt class "rdma".
 *
 * nfsd creates listeners by class name ("rpc.nfsd --rdma=20049" writes
 * "rdma 20049" to /proc/fs/nfsd/portlist), so owning the name "rdma" is
 * what makes this module the NFS/RDMA server transport.  Listener and
 * connection objects land behind ->xpo_create; until they do, creating
 * a listener fails with -EPROTONOSUPPORT and nfsd reports it.
 *
 * Called by: net/sunrpc (svc_xprt_create), the module core.
 */

#include <linux/module.h>
#include <linux/err.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/xprtrdma.h>

#include "rpcrdma2.h"

static struct svc_xprt *rpcrdma2_svc_create(struct svc_serv *serv,
					    struct net *net,
					    struct sockaddr *sa, int salen,
					    int flags)
{
	pr_notice_ratelimited("rpcrdma2: server transport is not available in this build\n");
	return ERR_PTR(-EPROTONOSUPPORT);
}

static const struct svc_xprt_ops rpcrdma2_svc_ops = {
	.xpo_create	= rpcrdma2_svc_create,
};

static struct svc_xprt_class rpcrdma2_svc_class = {
	.xcl_name	= "rdma",
	.xcl_owner	= THIS_MODULE,
	.xcl_ops	= &rpcrdma2_svc_ops,
	.xcl_max_payload = RPCSVC_MAXPAYLOAD,
	.xcl_ident	= XPRT_TRANSPORT_RDMA,
};

int rpcrdma2_svc_register(void)
{
	return svc_reg_xprt_class(&rpcrdma2_svc_class);
}

void rpcrdma2_svc_unregister(void)
{
	svc_unreg_xprt_class(&rpcrdma2_svc_class);
}
