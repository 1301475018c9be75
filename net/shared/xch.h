/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The seed 004 transport-characteristics exchange on one Version 2
 * connection (opt-in, experimental: XCH-XOP-01).  Pure, like nego.c: the
 * halves feed it what they receive and send what it encodes.  See
 * xch.c.
 */
#ifndef RPCRDMA2_XCH_H
#define RPCRDMA2_XCH_H

#include <linux/types.h>

#include "shared/codec.h"

/*
 * Our messages carry their own header type as rdma_xid (XCH-XOP-23: the
 * xid of INITXCH and UPDXCH is unrelated to anything), so an error
 * answering one names the operation the peer refused.  At most one
 * REQXCH is outstanding, and its RESPXCH echoes this xid (XCH-XOP-19).
 */
#define RPCRDMA2_XCH_XID(htype)	(htype)

/* The smallest RBSIZ believed or granted (as V2-PROP-19 for RBSIZ). */
#define RPCRDMA2_XCH_MIN_RBSIZ	1024

struct rpcrdma2_xch {
	bool			on;		/* in use on this connection */
	bool			refused;	/* INVAL_HTYPE came (XCH-XOP-11) */
	/* ours: what we announced, and our posted Receive size */
	struct rpcrdma2_xchars	local;
	u32			rbsiz_max;	/* XCH-INLINE-01 */
	/* the peer's, as announced or updated; defaults (XCH-XOP-07) */
	struct rpcrdma2_xchars	peer;
	bool			peer_init;	/* its INITXCH came */
	/* what Version 2 settled: the exchange never goes above it */
	u32			nego_send;
	u32			nego_recv;
	u32			nego_brs;
	/* our one REQXCH, for a smaller or larger peer RBSIZ */
	bool			req_pending;
	u32			req_rbsiz;
	/* counters, for tests and statistics */
	u32			sent;
	u32			received;
	u32			applied;
};

struct rpcrdma2_conn;
struct rpcrdma2_local;

/* What rpcrdma2_xch_recv() did; the caller sends @out on ANSWER. */
#define RPCRDMA2_XCH_APPLIED	0x1	/* the connection's limits changed */
#define RPCRDMA2_XCH_ANSWER	0x2	/* a RESPXCH is encoded */

void rpcrdma2_xch_start(struct rpcrdma2_conn *c,
			const struct rpcrdma2_local *l, bool enabled,
			bool requester);
u32 rpcrdma2_xch_hello(struct rpcrdma2_conn *c, u32 credit, void *buf,
		       u32 size);
int rpcrdma2_xch_recv(struct rpcrdma2_conn *c, const struct rpcrdma2_hdr *hdr,
		      u32 credit, void *out, u32 size, u32 *outlen);
bool rpcrdma2_xch_refused(struct rpcrdma2_conn *c,
			  const struct rpcrdma2_hdr *hdr);
u32 rpcrdma2_xch_request_rbsiz(struct rpcrdma2_conn *c, u32 want, u32 credit,
			       void *buf, u32 size);
u32 rpcrdma2_xch_update_rbsiz(struct rpcrdma2_conn *c, u32 rbsiz, u32 credit,
			      void *buf, u32 size);
bool rpcrdma2_xch_no_reminv(const struct rpcrdma2_conn *c);

#endif /* RPCRDMA2_XCH_H */
