// SPDX-License-Identifier: GPL-2.0-only
/*
 * Message Continuation, receiver and sender rules (V2-CONT-04).
 *
 * Receiver.  Every accepted message that carries or continues a payload
 * (RDMA2_MSG, RDMA2_NOMSG, RDMA2_CONNPROP; not credit grants or errors)
 * goes through rpcrdma2_reasm_add() in arrival order.  Inside a
 * sequence, a message with another xid or htype is a fault (V2-CONT-06),
 * and so is a sequence longer than the configured maximum (V2-CONT-09,
 * V2-SEC-17).  After a fault, every later message with the failing xid,
 * or with the abandoned sequence's xid, is dropped without reassembly
 * until a final message (F_MORE clear) with that xid ends it
 * (V2-CONT-10, V2-ERR-23).  Only a Responder answers a fault with
 * RDMA2_ERR_INVAL_CONT; a Requester just drops (V2-ERR-24).
 *
 * Sender.  rpcrdma2_cont_sends() counts the Sends a payload needs when
 * every message but the last carries the 36-octet chunk-less header
 * (chunks travel only in the final message, V2-CONT-08).
 */

#include <linux/kernel.h>
#include <linux/string.h>

#include "shared/cont.h"

void rpcrdma2_reasm_init(struct rpcrdma2_reasm *r, u32 max)
{
	memset(r, 0, sizeof(*r));
	r->max = max;
}

static bool reasm_discarding(const struct rpcrdma2_reasm *r, u32 xid,
			     u32 *slot)
{
	u32 i;

	for (i = 0; i < r->ndiscard; i++) {
		if (r->discard[i] == xid) {
			*slot = i;
			return true;
		}
	}
	return false;
}

static void reasm_discard(struct rpcrdma2_reasm *r, u32 xid)
{
	u32 slot;

	if (reasm_discarding(r, xid, &slot))
		return;
	if (r->ndiscard == ARRAY_SIZE(r->discard))
		r->ndiscard--;		/* forget the oldest */
	memmove(&r->discard[1], &r->discard[0],
		r->ndiscard * sizeof(r->discard[0]));
	r->discard[0] = xid;
	r->ndiscard++;
}

static void reasm_undiscard(struct rpcrdma2_reasm *r, u32 slot)
{
	r->ndiscard--;
	memmove(&r->discard[slot], &r->discard[slot + 1],
		(r->ndiscard - slot) * sizeof(r->discard[0]));
}

/* Abandon what was kept; drop the rest of @xid's messages. */
static enum rpcrdma2_reasm_verdict reasm_fault(struct rpcrdma2_reasm *r,
					       const struct rpcrdma2_hdr *hdr)
{
	if (r->active && (hdr->flags & RDMA2_F_MORE || hdr->xid != r->xid))
		reasm_discard(r, r->xid);
	if (hdr->flags & RDMA2_F_MORE)
		reasm_discard(r, hdr->xid);
	r->active = false;
	r->len = 0;
	r->nmsgs = 0;
	return RPCRDMA2_REASM_FAULT;
}

/**
 * rpcrdma2_reasm_add - apply one received message to the reassembly
 * @r: the connection's reassembly state
 * @hdr: the message's decoded header (the decoder accepted it)
 * @payload_len: octets of payload after the header
 */
enum rpcrdma2_reasm_verdict
rpcrdma2_reasm_add(struct rpcrdma2_reasm *r, const struct rpcrdma2_hdr *hdr,
		   u32 payload_len)
{
	bool more = hdr->flags & RDMA2_F_MORE;
	u32 slot;

	if (reasm_discarding(r, hdr->xid, &slot)) {
		if (!more)
			reasm_undiscard(r, slot);
		return RPCRDMA2_REASM_DISCARD;
	}

	if (r->active) {
		if (hdr->xid != r->xid || hdr->htype != r->htype)
			return reasm_fault(r, hdr);	/* V2-CONT-06 */
	} else {
		r->xid = hdr->xid;
		r->htype = hdr->htype;
		r->len = 0;
		r->nmsgs = 0;
	}
	if (payload_len > r->max - r->len)		/* V2-CONT-09 */
		return reasm_fault(r, hdr);
	r->len += payload_len;
	r->nmsgs++;
	r->active = more;
	return more ? RPCRDMA2_REASM_MORE : RPCRDMA2_REASM_DONE;
}

/**
 * rpcrdma2_cont_sends - Sends needed for a payload (V2-CONT-01, V2-CONT-08)
 * @len: payload octets
 * @inline_size: the peer's inline threshold for this direction
 * @final_hdrlen: header octets of the final message (with its chunks)
 *
 * Returns the number of Sends, or 0 if the threshold cannot carry the
 * headers and at least one payload octet per message.
 */
u32 rpcrdma2_cont_sends(u32 len, u32 inline_size, u32 final_hdrlen)
{
	u32 first_room, room;

	if (inline_size <= final_hdrlen ||
	    inline_size <= RPCRDMA2_HDRLEN_NOCHUNKS)
		return 0;
	first_room = inline_size - final_hdrlen;	/* the final message */
	if (len <= first_room)
		return 1;
	room = inline_size - RPCRDMA2_HDRLEN_NOCHUNKS;
	return 1 + DIV_ROUND_UP(len - first_room, room);
}

/**
 * rpcrdma2_reasm_abort - end the open sequence because of @hdr
 * @r: the connection's reassembly state
 * @hdr: a message that was rejected (answered with an error or
 *	dropped) while a sequence may be open, or the first message of a
 *	sequence that turned out to be unusable
 *
 * What was kept is abandoned, and the rest of the abandoned sequence
 * and of @hdr's own sequence (if @hdr has F_MORE) is dropped without
 * reassembly (V2-ERR-23), so a retransmission with the same xid starts
 * afresh instead of being appended to stale fragments.
 */
void rpcrdma2_reasm_abort(struct rpcrdma2_reasm *r,
			  const struct rpcrdma2_hdr *hdr)
{
	if (r->active || (hdr->flags & RDMA2_F_MORE))
		reasm_fault(r, hdr);
	r->active = false;
	r->len = 0;
	r->nmsgs = 0;
}
