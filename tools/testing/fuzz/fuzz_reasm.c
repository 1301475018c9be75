// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for the Message Continuation state machine (cont.c).
 *
 * Input: a cap octet, then 4-octet records, one per received message:
 * xid (0-3, so sequences collide), htype (MSG, NOMSG or CONNPROP),
 * F_MORE, and a payload length in 16-octet units.  Checked: the kept
 * length never passes the cap, a whole message is only delivered on a
 * final message, and a fault leaves nothing kept.
 */
#include "fuzz.h"
#include "shared/cont.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static const u32 htypes[] = { RDMA2_MSG, RDMA2_NOMSG, RDMA2_CONNPROP };
	struct rpcrdma2_reasm r;
	struct rpcrdma2_hdr h = { .vers = 2 };
	enum rpcrdma2_reasm_verdict v;
	size_t i;

	if (size < 1)
		return 0;
	rpcrdma2_reasm_init(&r, (u32)data[0] * 256);
	for (i = 1; i + 4 <= size; i += 4) {
		u32 len = (u32)data[i + 3] * 16;

		h.xid = data[i] & 3;
		h.htype = htypes[data[i + 1] % 3];
		h.flags = data[i + 2] & 1 ? RDMA2_F_MORE : 0;
		v = rpcrdma2_reasm_add(&r, &h, len);
		RR2_CHECK(r.len <= r.max);
		RR2_CHECK(r.ndiscard <= 2);
		switch (v) {
		case RPCRDMA2_REASM_DONE:
			RR2_CHECK(!(h.flags & RDMA2_F_MORE) && !r.active);
			RR2_CHECK(r.nmsgs >= 1);
			break;
		case RPCRDMA2_REASM_MORE:
			RR2_CHECK(r.active && r.xid == h.xid);
			break;
		case RPCRDMA2_REASM_FAULT:
			RR2_CHECK(!r.active && r.len == 0);
			break;
		case RPCRDMA2_REASM_DISCARD:
			break;
		default:
			RR2_CHECK(0);
		}
	}
	return 0;
}
