/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rpcrdma2 kernel log: at most one line per peer and outcome.  See log.c.
 */
#ifndef RPCRDMA2_LOG_H
#define RPCRDMA2_LOG_H

#include <linux/socket.h>
#include <linux/types.h>

#include "rpcrdma2.h"

/* What a per-peer line reports; each has its own memory per peer. */
enum rpcrdma2_log_event {
	RPCRDMA2_LOG_SETTLED,		/* a connection settled its version */
	RPCRDMA2_LOG_FAILED,		/* a connection could not be made */
	RPCRDMA2_LOG_NR_EVENTS,
};

bool rpcrdma2_log_peer(enum rpcrdma2_role role, const struct sockaddr *sa,
		       enum rpcrdma2_log_event event, u32 detail);
/* the outcomes remembered, hashed by peer and event */
#define RPCRDMA2_LOG_SLOTS	256

#if IS_ENABLED(CONFIG_KUNIT)
/* what KUnit clears between cases (tests/hooks.c) */
struct ratelimit_state;
extern u32 rpcrdma2_log_seen[RPCRDMA2_LOG_SLOTS];
extern struct ratelimit_state rpcrdma2_log_rs;
#endif

#endif /* RPCRDMA2_LOG_H */
