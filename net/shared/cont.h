/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Message Continuation (V2-CONT-04): the receiver's
 * reassembly rules and the sender's arithmetic, kept pure so both
 * halves share them and KUnit and the fuzzer drive them directly.
 *
 * The transport owns the payload octets (it copies each message's
 * payload into the RPC buffer); this state machine only says what to do
 * with each message: keep it and wait, deliver the whole, drop it
 * silently, or drop it and (as a Responder) answer INVAL_CONT.
 */
#ifndef RPCRDMA2_CONT_H
#define RPCRDMA2_CONT_H

#include "shared/codec.h"

enum rpcrdma2_reasm_verdict {
	RPCRDMA2_REASM_DONE,	/* with what was kept: one whole message */
	RPCRDMA2_REASM_MORE,	/* keep this payload, wait for the next */
	RPCRDMA2_REASM_DISCARD,	/* drop silently (V2-CONT-10) */
	RPCRDMA2_REASM_FAULT,	/* drop what was kept; Responder: INVAL_CONT */
};

struct rpcrdma2_reasm {
	u32	max;		/* largest reassembled payload (V2-SEC-17) */
	bool	active;		/* inside a sequence */
	u32	xid;		/* of the sequence */
	u32	htype;
	u32	len;		/* payload octets kept so far */
	u32	nmsgs;
	u32	discard[2];	/* xids whose messages are dropped */
	u32	ndiscard;
};

void rpcrdma2_reasm_init(struct rpcrdma2_reasm *r, u32 max);
enum rpcrdma2_reasm_verdict
rpcrdma2_reasm_add(struct rpcrdma2_reasm *r, const struct rpcrdma2_hdr *hdr,
		   u32 payload_len);

void rpcrdma2_reasm_abort(struct rpcrdma2_reasm *r,
			  const struct rpcrdma2_hdr *hdr);

u32 rpcrdma2_cont_sends(u32 len, u32 inline_size, u32 final_hdrlen);

#endif /* RPCRDMA2_CONT_H */
