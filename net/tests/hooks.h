/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the KUnit suites set and read inside the module: state the
 * production files keep VISIBLE_IF_KUNIT, and the fault sites of
 * shared/fault.h under the names the cases use.  See hooks.c.
 */
#ifndef RPCRDMA2_TESTS_HOOKS_H
#define RPCRDMA2_TESTS_HOOKS_H

#include <linux/types.h>

#include "rpcrdma2.h"
#include "shared/dev.h"

struct rpc_xprt;

/* the module parameters, per role (KUnit runs both halves) */
void rpcrdma2_test_cap_version(enum rpcrdma2_role role, unsigned int vers);
void rpcrdma2_test_set_xchar(bool clnt, bool svc);
void rpcrdma2_test_set_rvrsdir(u32 clnt, u32 svc);
void rpcrdma2_test_set_hostauth(const char *val);
void rpcrdma2_test_set_devclamp(enum rpcrdma2_devclamp p);
enum rpcrdma2_devclamp rpcrdma2_test_devclamp(void);
const char *rpcrdma2_test_devclamp_name(enum rpcrdma2_devclamp p);
void rpcrdma2_log_test_reset(void);
void rr2c_knobs_reset(void);
void rr2s_knobs_reset(void);

/* a client transport */
u32 rpcrdma2_clnt_test_version(struct rpc_xprt *xprt);
u32 rpcrdma2_clnt_test_grant(struct rpc_xprt *xprt);
u64 rpcrdma2_clnt_test_hellos(struct rpc_xprt *xprt);
void rpcrdma2_clnt_test_stall(struct rpc_xprt *xprt, u32 msgno);
u32 rpcrdma2_clnt_test_tx_msgno(struct rpc_xprt *xprt);
void rpcrdma2_clnt_test_set_grant(struct rpc_xprt *xprt, u32 grant);

/* the server */
void rr2s_test_set_port_down(bool down);
void rr2s_test_fail_sends(int n);

#endif /* RPCRDMA2_TESTS_HOOKS_H */
