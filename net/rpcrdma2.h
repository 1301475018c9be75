/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rpcrdma2 internal interfaces shared by the client half, the server
 * half and the module core.
 *
 * Prefixes tell the room a symbol lives in:
 *
 *   rpcrdma2_*        net/shared and the module core (net/module.c),
 *                     and the trace events (include/trace/events)
 *   rr2c_*            the client half (net/client)
 *   rr2s_*, rr2b_*    the server half (net/server); rr2b_ is its
 *                     backchannel transport class (backchannel.c)
 *   rpcrdma2_clnt_*,  what a half offers the module core:
 *   rpcrdma2_svc_*    registration, sysctl tables
 *   rpcrdma2_test_*   the KUnit suites' handles on the module
 *                     (net/tests/hooks.h) and their environment
 *                     (net/tests/env.h)
 *
 * Each KUnit file keeps its own static helpers under a short prefix of
 * its own (rr2r_ rpc_test.c, rr2w_ clnt_wire_test.c, rr2t_ env.c and
 * softrdma_test.c, ...); they are never visible outside the file.
 */
#ifndef RPCRDMA2_H
#define RPCRDMA2_H

#include <linux/sysctl.h>
#include <linux/types.h>

struct rpc_xprt;

/*
 * Default size of the Send and Receive buffers of a connection in both
 * roles (rdma_max_inline_read/write, svc_rdma/max_req_size), and so of
 * the inline thresholds each end advertises (RFC 8797 record, SBSIZ and
 * RBSIZ).  Twice the 4096 of the protocol's default threshold
 * (V2-INLINE-02): a 4 KiB READ result or WRITE argument with its RPC
 * and transport headers then travels in one Send, where 4096 would
 * continue it over two messages or register it for a chunk.
 */
#define RPCRDMA2_BUF_SIZE_DEF	8192

enum rpcrdma2_role {
	RPCRDMA2_CLIENT,
	RPCRDMA2_SERVER,
};

/* net/shared/params.c: the highest protocol version @role offers now */
unsigned int rpcrdma2_max_version(enum rpcrdma2_role role);
/* net/shared/params.c: the xchar parameter (seed 004 exchange), per connection */
bool rpcrdma2_xchar_enabled(enum rpcrdma2_role role);
/* net/shared/params.c: the rvrsdir parameter, the BRS level @role advertises */
u32 rpcrdma2_rvrsdir_level(enum rpcrdma2_role role);
/* net/shared/params.c: the hostauth parameter, RPCRDMA2_HOSTAUTH_MAX octets */
u32 rpcrdma2_hostauth_get(u8 *buf);

#if IS_ENABLED(CONFIG_KUNIT)
/* net/shared/params.c: what KUnit sets (tests/hooks.c) */
extern unsigned int rpcrdma2_role_vers[2];
extern unsigned int rpcrdma2_role_rvrsdir[2];
extern bool rpcrdma2_role_xchar_off[2];
extern bool rpcrdma2_xchar;
extern char rpcrdma2_hostauth[];
#endif

/* net/client/transport.c */
int rpcrdma2_clnt_register(void);
void rpcrdma2_clnt_unregister(void);

/* net/server/transport.c */
int rpcrdma2_svc_register(void);
void rpcrdma2_svc_unregister(void);

/* net/server/debugfs.c: the server's directory under the module's */
struct dentry;
void rpcrdma2_svc_debugfs_init(struct dentry *root);

/* net/server/stats.c: /proc/sys/sunrpc/svc_rdma, the module core registers */
extern struct ctl_table rpcrdma2_svc_sysctl[];
extern const size_t rpcrdma2_svc_sysctl_size;

/* net/client/sysctl.c: the rdma_* files of /proc/sys/sunrpc, likewise */
extern struct ctl_table rpcrdma2_clnt_sysctl[];
extern const size_t rpcrdma2_clnt_sysctl_size;

#endif /* RPCRDMA2_H */
