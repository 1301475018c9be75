// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 module core: registration of the two halves and of their
 * sysctls.  The module parameters are in net/shared/params.c.
 *
 * The client half registers a sunrpc transport class with ident
 * XPRT_TRANSPORT_RDMA and netids "rdma"/"rdma6"; the server half
 * registers the svc_xprt class "rdma".  The stock rpcrdma module owns
 * the same ident and class name, so only one of the two can be loaded.
 * Registration is all-or-nothing: if either half cannot register, the
 * other is unregistered again and loading fails with a message that
 * names the conflict.
 *
 * The server's knobs and counters (net/server/stats.c) go under
 * /proc/sys/sunrpc/svc_rdma and the client's knobs (net/client/sysctl.c)
 * in /proc/sys/sunrpc itself, next to sunrpc's own, where the stock
 * module puts them; they are registered once both halves are, so that a
 * stock module still loaded is reported as the class conflict, not as a
 * duplicate sysctl.
 *
 * The module's debugfs directory, /sys/kernel/debug/rpcrdma2, is made
 * here, before the halves register, and handed down: the server half
 * puts one entry per connection under "server" (net/server/debugfs.c),
 * and the fault injection its knobs under "fail"
 * (net/shared/fault.c).
 * It goes after both halves are unregistered.  The client's view is a
 * file in sunrpc's own per-transport directory (net/client/stats.c).
 *
 * The module's ib_client (net/shared/dev.c) is registered first and
 * unregistered last: both halves' endpoints are users of their devices.
 * Each rpc_xprt and each svc_xprt holds a reference on the module, so
 * it cannot be unloaded while a mount or an nfsd listener uses it.
 *
 * Called by: the module loader.  Calls: net/client, net/server,
 * net/shared/dev.c, net/shared/params.c, net/server/debugfs.c.
 */

#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/sysctl.h>

#include <rpcrdma2/wire.h>
#include "rpcrdma2.h"
#include "shared/dev.h"
#include "shared/fault.h"
#include "shared/nego.h"

#define CREATE_TRACE_POINTS
#include <trace/events/rpcrdma2.h>

static struct ctl_table_header *rpcrdma2_svc_sysctl_hdr;
static struct dentry *rpcrdma2_debugfs;
static struct ctl_table_header *rpcrdma2_clnt_sysctl_hdr;

static int __init rpcrdma2_init(void)
{
	int ret;

	/* before either half: every endpoint is a user of its device */
	ret = rpcrdma2_dev_register();
	if (ret) {
		pr_err("rpcrdma2: cannot register with the RDMA core (%pe); the module is not loaded: report this with the kernel log\n",
		       ERR_PTR(ret));
		return ret;
	}
	/* before the server half: its connections go in it */
	rpcrdma2_debugfs = debugfs_create_dir("rpcrdma2", NULL);
	rpcrdma2_svc_debugfs_init(rpcrdma2_debugfs);
	rpcrdma2_fail_debugfs_init(rpcrdma2_debugfs);
	ret = rpcrdma2_clnt_register();
	if (ret)
		goto out_conflict;
	ret = rpcrdma2_svc_register();
	if (ret) {
		rpcrdma2_clnt_unregister();
		goto out_conflict;
	}
	rpcrdma2_svc_sysctl_hdr = register_sysctl_sz("sunrpc/svc_rdma",
						     rpcrdma2_svc_sysctl,
						     rpcrdma2_svc_sysctl_size);
	if (!rpcrdma2_svc_sysctl_hdr)
		goto out_sysctl;
	rpcrdma2_clnt_sysctl_hdr = register_sysctl_sz("sunrpc",
						      rpcrdma2_clnt_sysctl,
						      rpcrdma2_clnt_sysctl_size);
	if (!rpcrdma2_clnt_sysctl_hdr) {
		unregister_sysctl_table(rpcrdma2_svc_sysctl_hdr);
		goto out_sysctl;
	}
	pr_info("rpcrdma2: RPC-over-RDMA transport loaded, offering version %u\n",
		rpcrdma2_max_version(RPCRDMA2_CLIENT));
	return 0;

out_sysctl:
	rpcrdma2_svc_unregister();
	rpcrdma2_clnt_unregister();
	debugfs_remove(rpcrdma2_debugfs);
	rpcrdma2_dev_unregister();
	pr_err("rpcrdma2: cannot create its files in /proc/sys/sunrpc (out of memory, or another module owns them: check that rpcrdma is not loaded); the module is not loaded\n");
	return -ENOMEM;

out_conflict:
	if (ret == -EEXIST)
		pr_err("rpcrdma2: another RPC-over-RDMA transport (the stock rpcrdma module?) is loaded; unload it first (modprobe -r rpcrdma)\n");
	else
		pr_err("rpcrdma2: cannot register with sunrpc (%pe); the module is not loaded: report this with the kernel log\n",
		       ERR_PTR(ret));
	debugfs_remove(rpcrdma2_debugfs);
	rpcrdma2_dev_unregister();
	return ret;
}

static void __exit rpcrdma2_exit(void)
{
	unregister_sysctl_table(rpcrdma2_clnt_sysctl_hdr);
	unregister_sysctl_table(rpcrdma2_svc_sysctl_hdr);
	rpcrdma2_svc_unregister();
	rpcrdma2_clnt_unregister();
	debugfs_remove(rpcrdma2_debugfs);	/* no connection is left */
	rpcrdma2_fail_exit();
	rpcrdma2_dev_unregister();
}

module_init(rpcrdma2_init);
module_exit(rpcrdma2_exit);

MODULE_DESCRIPTION("RPC-over-RDMA Version 2 transport for the NFS client and server");
MODULE_LICENSE("GPL");
MODULE_VERSION(RPCRDMA2_VERSION);
/*
 * No MODULE_ALIAS: the names the kernel and rdma-core load the stock
 * module by (rpcrdma6, xprtrdma, svcrdma) are the stock module's
 * aliases too, and modprobe loads every module an alias names.  The
 * modprobe.d file installed with rpcrdma2 (packaging/) routes them.
 */
