/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Checks on received chunk lists beyond what the codec's decode does:
 * the arithmetic both halves do on segments before any RDMA is posted.
 * Pure, like the codec: no verbs, no sunrpc state, no allocation, so
 * KUnit and the userspace fuzzer run it as the halves do.  See chunk.c.
 */
#ifndef RPCRDMA2_CHUNK_H
#define RPCRDMA2_CHUNK_H

#include "shared/codec.h"

bool rpcrdma2_seg_wraps(const struct rpcrdma2_segment *seg);

/* ---- a Responder taking a Call's chunks (the server) ---- */

int rpcrdma2_read_list_sort(const void *buf, const struct rpcrdma2_hdr *hdr,
			    u32 *pos, struct rpcrdma2_segment *segs);
int rpcrdma2_counted_chunk_copy(const void *buf,
				const struct rpcrdma2_hdr *hdr, int which,
				struct rpcrdma2_segment *segs, u32 *nsegs,
				u64 *capacity);
u64 rpcrdma2_read_chunk_len(const u32 *pos,
			    const struct rpcrdma2_segment *segs, u32 nsegs,
			    u32 i, u32 *j);
int rpcrdma2_read_gap(u32 pos, u64 out, u32 in, u32 inline_len);
u32 rpcrdma2_read_pull_len(const u32 *pos,
			   const struct rpcrdma2_segment *segs, u32 nsegs,
			   u32 inline_len, u32 room);

/* ---- a Requester taking a Reply's chunks (the client) ---- */

int rpcrdma2_returned_chunk_len(const void *buf,
				const struct rpcrdma2_hdr *hdr, bool reply,
				const struct rpcrdma2_segment *offered,
				u32 noffered);

#endif /* RPCRDMA2_CHUNK_H */
