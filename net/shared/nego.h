/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Connect-time protocol settlement: version negotiation (V2-FRAME-18),
 * the Transport Properties exchange and the inline thresholds.
 * Pure, like the codec it drives; the client and server halves feed it
 * the messages they receive and send what it encodes.  See nego.c.
 */
#ifndef RPCRDMA2_NEGO_H
#define RPCRDMA2_NEGO_H

#include "shared/codec.h"
#include "shared/cont.h"
#include "shared/xch.h"

/*
 * Largest propset reassembled from a continued CONNPROP (V2-PROP-16).
 * A longer sequence is a continuation fault (V2-CONT-09, V2-SEC-17).
 */
#define RPCRDMA2_PROPSET_MAX	4096

/*
 * HOSTAUTH material (V2-PROP-09) this end sends at most, and keeps of
 * what the peer sent: enough for a key identifier or a certificate
 * fingerprint, and small enough that the client's first CONNPROP stays
 * within 1024 octets (V2-INLINE-05).
 */
#define RPCRDMA2_HOSTAUTH_MAX	256

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
	u32	hostauth_len;	/* 0: no HOSTAUTH property */
	u8	hostauth[RPCRDMA2_HOSTAUTH_MAX];
};

/* What the connection settled on. */
struct rpcrdma2_conn {
	u32			vers;		/* 0 until settled */
	u32			send_inline;	/* this end's Send limit */
	u32			recv_inline;	/* what the peer may send */
	struct rpcrdma2_cm_pdata peer_pdata;	/* RFC 8797 */
	/* Version 2: the union of the peer's CONNPROPs (V2-PROP-11) */
	struct rpcrdma2_props	peer_props;
	bool			peer_props_done; /* its final one came */
	bool			peer_props_seen; /* a CONNPROP came */
	bool			own_props_rejected; /* BAD_PROPVAL (V2-ERR-31) */
	bool			peer_remote_inv;
	/* the range of an ERR_VERS that ended the negotiation (client) */
	u32			peer_vers_low;
	u32			peer_vers_high;
	/*
	 * The peer's HOSTAUTH (V2-PROP-09), as received: its length (0 if
	 * absent) and its first RPCRDMA2_HOSTAUTH_MAX octets.  Nothing
	 * here checks it; see Documentation/protocol.rst.
	 */
	u32			peer_hostauth_len;
	u8			peer_hostauth[RPCRDMA2_HOSTAUTH_MAX];

	/* the seed 004 exchange, opt-in (xch.c); off when zeroed */
	struct rpcrdma2_xch	xch;

	/* a continued CONNPROP being reassembled (V2-PROP-16) */
	struct rpcrdma2_reasm	props_reasm;
	u8			props_buf[RPCRDMA2_PROPSET_MAX];
};

enum rpcrdma2_nego {
	RPCRDMA2_NEGO_MORE,	/* not settled yet: wait for the next message */
	RPCRDMA2_NEGO_DONE,	/* settled; nothing to send */
	RPCRDMA2_NEGO_REPLY,	/* settled; send what was encoded */
	RPCRDMA2_NEGO_REJECT,	/* not settled; send the encoded error */
	RPCRDMA2_NEGO_RPC,	/* settled; this message is an RPC: process it */
	RPCRDMA2_NEGO_FAIL,	/* protocol failure: disconnect */
	/*
	 * Server only: settled on Version 2; send the encoded error, then
	 * this end's CONNPROP (rpcrdma2_nego_server_hello()), V2-ERR-31.
	 */
	RPCRDMA2_NEGO_REJECT_REPLY,
	/*
	 * Client only: ERR_VERS naming neither 1 nor 2 (peer_vers_low and
	 * peer_vers_high say what): nothing to speak, fail the connection.
	 */
	RPCRDMA2_NEGO_NO_VERS,
};

void rpcrdma2_conn_init(struct rpcrdma2_conn *c,
			const struct rpcrdma2_cm_pdata *peer_pdata);
u32 rpcrdma2_nego_client_hello(const struct rpcrdma2_local *l, u32 xid,
			       void *buf, u32 size);
u32 rpcrdma2_nego_server_hello(const struct rpcrdma2_local *l,
			       void *buf, u32 size);
enum rpcrdma2_nego rpcrdma2_nego_client_recv(struct rpcrdma2_conn *c,
					     const struct rpcrdma2_local *l,
					     const void *buf, u32 len,
					     void *out, u32 size, u32 *outlen);
enum rpcrdma2_nego rpcrdma2_nego_server_recv(struct rpcrdma2_conn *c,
					     const struct rpcrdma2_local *l,
					     const void *buf, u32 len,
					     void *out, u32 size, u32 *outlen);
int rpcrdma2_nego_settled_check(const struct rpcrdma2_conn *c,
				const struct rpcrdma2_hdr *hdr);
void rpcrdma2_conn_thresholds(struct rpcrdma2_conn *c,
			      const struct rpcrdma2_local *l);
bool rpcrdma2_rdir_single(const struct rpcrdma2_conn *c);
const char *rpcrdma2_rvrsdir_name(u32 level);

#endif /* RPCRDMA2_NEGO_H */
