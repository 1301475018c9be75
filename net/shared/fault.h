/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fault injection at rpcrdma2's own call sites, a test knob; see
 * fault.c and Documentation/testing.rst.
 */
#ifndef RPCRDMA2_FAULT_H
#define RPCRDMA2_FAULT_H

#include <linux/jump_label.h>
#include <linux/types.h>

/* The named sites; each is a directory under .../rpcrdma2/fail/. */
enum rpcrdma2_fail_site {
	RPCRDMA2_FAIL_CONNECT,		/* "connect": endpoint, QP, buffers */
	RPCRDMA2_FAIL_RECV_REFILL,	/* "recv-refill": Receive buffers, posts */
	RPCRDMA2_FAIL_REG,		/* "reg": MRs, DMA maps, R/W contexts */
	RPCRDMA2_FAIL_REPLY,		/* "reply": Reply path allocations */
	RPCRDMA2_FAIL_SVC_SEND,		/* "svc-send": a server Send post */
	RPCRDMA2_FAIL_SEND_STALL,	/* "send-stall": client Send room */
	RPCRDMA2_FAIL_PORT_DOWN,	/* "port-down": server port state */
	RPCRDMA2_FAIL_NR
};

DECLARE_STATIC_KEY_FALSE(rpcrdma2_fail_armed);

bool __rpcrdma2_fail(enum rpcrdma2_fail_site site);

/*
 * rpcrdma2_fail - should this call at @site fail?
 *
 * A no-op branch until a site is first armed.  Any context.
 */
static inline bool rpcrdma2_fail(enum rpcrdma2_fail_site site)
{
	return static_branch_unlikely(&rpcrdma2_fail_armed) &&
	       __rpcrdma2_fail(site);
}

/*
 * rpcrdma2_fail_opt - as rpcrdma2_fail(), for a site held in a variable
 * that may be RPCRDMA2_FAIL_NR: no site, never fails.
 */
static inline bool rpcrdma2_fail_opt(enum rpcrdma2_fail_site site)
{
	return site < RPCRDMA2_FAIL_NR && rpcrdma2_fail(site);
}

void rpcrdma2_fail_set(enum rpcrdma2_fail_site site, int times, u32 interval,
		       u32 probability);
void rpcrdma2_fail_after(enum rpcrdma2_fail_site site, u32 skip);
void rpcrdma2_fail_reset(void);
u64 rpcrdma2_fail_injected(enum rpcrdma2_fail_site site);
const char *rpcrdma2_fail_name(enum rpcrdma2_fail_site site);

struct dentry;
void rpcrdma2_fail_debugfs_init(struct dentry *root);
void rpcrdma2_fail_exit(void);

#endif /* RPCRDMA2_FAULT_H */
