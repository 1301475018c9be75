/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Connect-time protocol settlement: version negotiation (seed 001
 * 4.2.3), the Transport Properties exchange and the inline thresholds.
 * Pure, like the codec it drives; the client and server halves feed it
 * the messages they receive and send what it encodes.  See nego.c.
 */
#ifndef RPCRDMA2_NEGO_H
#define RPCRDMA2_NEGO_H

#include "shared/codec.h"

/* What this end offers. */
struct rpcrdma2_local {
	u32	max_vers;	/* the rdmavers module parameter */
	u32	send_size;	/* largest Send this end posts (SBSIZ) */
	u32	recv_size;	/* its posted Receive buffers (RBSIZ) */
	u32	max_seg_size;	/* RSSIZ */
	u32	max_segs;	/* RCSIZ */
	u32	brs;		/* RDMA2_RVRSDIR_* */
	bool	remote_inv;	/* R bit / Send With Invalidate */
	u32	credits;	/* credit word for our CONNPROP */
};

/* What the connection settled on. */
struct rpcrdma2_conn {
	u32			vers;		/* 0 until settled */
	u32			send_inline;	/* this end's Send limit */
	u32			recv_inline;	/* what the peer may send */
	struct rpcrdma2_cm_pdata peer_pdata;	/* RFC 8797 */
	struct rpcrdma2_props	peer_props;	/* Version 2 */
	bool			peer_props_done;
	bool			peer_remote_inv;
};

enum rpcrdma2_nego {
	RPCRDMA2_NEGO_MORE,	/* not settled yet: wait for the next message */
	RPCRDMA2_NEGO_DONE,	/* settled; nothing to send */
	RPCRDMA2_NEGO_REPLY,	/* settled; send what was encoded */
	RPCRDMA2_NEGO_REJECT,	/* not settled; send the encoded error */
	RPCRDMA2_NEGO_RPC,	/* settled; this message is an RPC: process it */
	RPCRDMA2_NEGO_FAIL,	/* protocol failure: disconnect */
};

void rpcrdma2_conn_init(struct rpcrdma2_conn *c,
			const struct rpcrdma2_cm_pdata *peer_pdata);
u32 rpcrdma2_nego_client_hello(const struct rpcrdma2_local *l, u32 xid,
			       void *buf, u32 size);
enum rpcrdma2_nego rpcrdma2_nego_client_recv(struct rpcrdma2_conn *c,
					     const struct rpcrdma2_local *l,
					     const void *buf, u32 len);
enum rpcrdma2_nego rpcrdma2_nego_server_recv(struct rpcrdma2_conn *c,
					     const struct rpcrdma2_local *l,
					     const void *buf, u32 len,
					     void *out, u32 size, u32 *outlen);
void rpcrdma2_conn_thresholds(struct rpcrdma2_conn *c,
			      const struct rpcrdma2_local *l);

#endif /* RPCRDMA2_NEGO_H */
