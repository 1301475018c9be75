// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 kernel log: at most one line per peer and outcome.
 *
 * A busy server accepts connections all day and a client reconnects
 * after every idle timeout, so nothing is logged per connection.  What
 * the halves report about a connection at info or warning level (the
 * version it settled, or why it could not be made) is logged once per
 * peer address and outcome.  The port is ignored, and the client and
 * the server half count apart, as both may talk to one address.  A
 * small table keeps, for each peer and event, a hash of the last
 * outcome logged, and a line is printed only when the outcome differs
 * from it.  Logging one event forgets the other for that peer, so a
 * connection that fails and later works again (or the reverse) is
 * reported once each time it changes.  On top of that all such lines
 * share one rate limit; a line it holds back is not remembered, so the
 * next connection of that peer tries again.
 *
 * Peers that share a bucket of the table may each print again when the
 * other has printed; that costs a line, never a lost one.  The table is
 * updated without locks: a race costs at most a repeated line.
 *
 * Called by: net/client (connect), net/server (settlement, accept).
 */

#include <kunit/visibility.h>
#include <linux/hash.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/jhash.h>
#include <linux/log2.h>
#include <linux/ratelimit.h>

#include "shared/log.h"

VISIBLE_IF_KUNIT u32 rpcrdma2_log_seen[RPCRDMA2_LOG_SLOTS];
VISIBLE_IF_KUNIT struct ratelimit_state rpcrdma2_log_rs =
	RATELIMIT_STATE_INIT(rpcrdma2_log_rs, DEFAULT_RATELIMIT_INTERVAL,
			     DEFAULT_RATELIMIT_BURST);

static u32 rr2_log_addr(enum rpcrdma2_role role, const struct sockaddr *sa)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)sa;
	const struct sockaddr_in *sin = (const struct sockaddr_in *)sa;

	switch (sa->sa_family) {
	case AF_INET:
		return jhash_2words((__force u32)sin->sin_addr.s_addr, role,
				    AF_INET);
	case AF_INET6:
		return jhash(&sin6->sin6_addr, sizeof(sin6->sin6_addr),
			     AF_INET6 << 8 | role);
	default:
		return role;
	}
}

static u32 *rr2_log_slot(u32 addr, enum rpcrdma2_log_event event)
{
	u32 h = hash_32(jhash_1word(addr, event), ilog2(RPCRDMA2_LOG_SLOTS));

	BUILD_BUG_ON(!is_power_of_2(RPCRDMA2_LOG_SLOTS));
	return &rpcrdma2_log_seen[h];
}

/**
 * rpcrdma2_log_peer - may a line about this peer be printed now?
 * @role: the half that prints
 * @sa: the peer's address
 * @event: what the line reports
 * @detail: the outcome (a version and sizes, an errno); lines about the
 *	same peer and event are printed again only when it changes
 *
 * Returns true when the caller should print its line: the outcome is
 * new for this peer and the rate limit allows it.  It is then recorded
 * and the other events of the peer are forgotten.
 */
bool rpcrdma2_log_peer(enum rpcrdma2_role role, const struct sockaddr *sa,
		       enum rpcrdma2_log_event event, u32 detail)
{
	u32 addr = rr2_log_addr(role, sa);
	u32 key = jhash_2words(addr, detail, event) | 1;	/* 0: empty */
	u32 *slot = rr2_log_slot(addr, event);
	int other;

	if (READ_ONCE(*slot) == key || !__ratelimit(&rpcrdma2_log_rs))
		return false;
	WRITE_ONCE(*slot, key);
	for (other = 0; other < RPCRDMA2_LOG_NR_EVENTS; other++)
		if (other != event)
			WRITE_ONCE(*rr2_log_slot(addr, other), 0);
	return true;
}

