// SPDX-License-Identifier: GPL-2.0-only
/*
 * Checks on received chunk lists, after the codec's decode.
 *
 * The codec bounds every count by the caller's caps (V2-ERR-32,
 * V2-ERR-35, V2-ERR-38), checks each Position is XDR-aligned
 * (V2-CHUNK-13) and leaves the lists where they were received.  What
 * is here is the arithmetic a half does on the segments before it
 * posts any RDMA (V2-SEC-17):
 *
 *  - a Responder (server/recvfrom.c) copies a Call's Read segments out
 *    ordered by Position, stable within one Position (V2-CHUNK-14),
 *    and its Write and Reply chunks with their capacities; a segment
 *    whose offset + length wraps the Requester's address space draws
 *    BAD_XDR.  Before pulling the Read chunks it works out the length
 *    of the rebuilt Call: each chunk lies at its Position in the
 *    unreduced stream (V2-CHUNK-12), never before what is already
 *    rebuilt nor past the inline octets, its XDR pad restored
 *    (V2-CHUNK-16), all within the room the caller has (V2-ERR-51).
 *    Every sum is a u64 of at most a few hundred u32 lengths, so none
 *    can wrap.
 *  - a Requester (client/reply.c) checks each returned Write chunk and
 *    Reply chunk against what it offered: the same segments in the
 *    same order (V2-CHUNK-20), none longer than offered, filled in
 *    order (V2-CHUNK-19), and takes their sum as the octets written.
 *
 * Called by: the server and client halves, KUnit, the chunks fuzz target.
 * Calls: the codec's list accessors only.
 */

#include <linux/errno.h>
#include <linux/kernel.h>

#include "shared/chunk.h"

/**
 * rpcrdma2_seg_wraps - would a segment's octets wrap the address space?
 * @seg: a segment as received
 */
bool rpcrdma2_seg_wraps(const struct rpcrdma2_segment *seg)
{
	return seg->offset + seg->length < seg->offset;
}

/**
 * rpcrdma2_read_list_sort - copy a Call's Read segments, by Position
 * @buf: the received header
 * @hdr: as the codec decoded it
 * @pos: out: hdr->reads.segments Positions, ascending
 * @segs: out: the segments, in that order; list order within a
 *	Position (V2-CHUNK-14)
 *
 * Returns 0, or RDMA2_ERR_BAD_XDR if a segment wraps (the copy is
 * complete either way).
 */
int rpcrdma2_read_list_sort(const void *buf, const struct rpcrdma2_hdr *hdr,
			    u32 *pos, struct rpcrdma2_segment *segs)
{
	u32 i, j, p;
	int err = 0;

	for (i = 0; i < hdr->reads.segments; i++) {
		struct rpcrdma2_segment seg;

		rpcrdma2_read_seg(buf, hdr, i, &p, &seg);
		if (rpcrdma2_seg_wraps(&seg))
			err = RDMA2_ERR_BAD_XDR;
		/* insertion by Position, stable: at most a few dozen */
		for (j = i; j && pos[j - 1] > p; j--) {
			pos[j] = pos[j - 1];
			segs[j] = segs[j - 1];
		}
		pos[j] = p;
		segs[j] = seg;
	}
	return err;
}

/**
 * rpcrdma2_counted_chunk_copy - copy a Write chunk or the Reply chunk
 * @buf: the received header
 * @hdr: as the codec decoded it
 * @which: the Write chunk (< hdr->writes.chunks), or -1 for the Reply
 *	chunk (hdr->reply.chunks must be 1)
 * @segs: out: its segments (at most the codec's max_segments)
 * @nsegs: out: how many
 * @capacity: out: the sum of their lengths (V2-CHUNK-04)
 *
 * Returns 0, or RDMA2_ERR_BAD_XDR at the first segment that wraps.
 */
int rpcrdma2_counted_chunk_copy(const void *buf,
				const struct rpcrdma2_hdr *hdr, int which,
				struct rpcrdma2_segment *segs, u32 *nsegs,
				u64 *capacity)
{
	struct rpcrdma2_segment seg;
	u32 i, n;

	n = which < 0 ? rpcrdma2_reply_chunk(buf, hdr, 0, &seg) :
			rpcrdma2_write_chunk(buf, hdr, which, 0, &seg);
	*nsegs = n;
	*capacity = 0;
	for (i = 0; i < n; i++) {
		if (which < 0)
			rpcrdma2_reply_chunk(buf, hdr, i, &segs[i]);
		else
			rpcrdma2_write_chunk(buf, hdr, which, i, &segs[i]);
		if (rpcrdma2_seg_wraps(&segs[i]))
			return RDMA2_ERR_BAD_XDR;
		*capacity += segs[i].length;
	}
	return 0;
}

/**
 * rpcrdma2_read_chunk_len - octets of the Read chunk starting at @i
 * @pos: Positions, sorted (rpcrdma2_read_list_sort())
 * @segs: the segments
 * @nsegs: how many
 * @i: the chunk's first segment
 * @j: out: one past its last (the next chunk's first)
 *
 * The chunk is every segment with @pos[@i] (V2-CHUNK-11); a u64, so
 * the sum cannot wrap.
 */
u64 rpcrdma2_read_chunk_len(const u32 *pos,
			    const struct rpcrdma2_segment *segs, u32 nsegs,
			    u32 i, u32 *j)
{
	u64 len = 0;

	for (*j = i; *j < nsegs && pos[*j] == pos[i]; (*j)++)
		len += segs[*j].length;
	return len;
}

/**
 * rpcrdma2_read_gap - inline octets before a Read chunk
 * @pos: the chunk's Position, in the unreduced stream (V2-CHUNK-12)
 * @out: octets of that stream rebuilt so far
 * @in: inline octets used so far
 * @inline_len: inline octets received
 *
 * Returns the inline octets that come before the chunk, or -EMSGSIZE
 * if the Position lies before what is already rebuilt or past the
 * inline octets (V2-SEC-17).
 */
int rpcrdma2_read_gap(u32 pos, u64 out, u32 in, u32 inline_len)
{
	if (pos < out || pos - out > inline_len - in)
		return -EMSGSIZE;
	return pos - out;
}

/**
 * rpcrdma2_read_pull_len - the length of a Call rebuilt around its chunks
 * @pos: Positions, sorted (rpcrdma2_read_list_sort())
 * @segs: the segments
 * @nsegs: how many
 * @inline_len: inline octets received
 * @room: the most the caller can rebuild
 *
 * Each chunk goes in at its Position with its XDR pad restored
 * (V2-CHUNK-14, V2-CHUNK-16).  Returns the length, or 0 if the Call
 * cannot be rebuilt: a Position out of place, or more than @room
 * (V2-SEC-17, V2-ERR-51).
 */
u32 rpcrdma2_read_pull_len(const u32 *pos,
			   const struct rpcrdma2_segment *segs, u32 nsegs,
			   u32 inline_len, u32 room)
{
	u64 out = 0;
	u32 in = 0, i, j;
	int gap;

	for (i = 0; i < nsegs; i = j) {
		gap = rpcrdma2_read_gap(pos[i], out, in, inline_len);
		if (gap < 0)
			return 0;
		in += gap;
		out += gap + round_up(rpcrdma2_read_chunk_len(pos, segs, nsegs,
							      i, &j), 4);
		if (out > room)				/* V2-CHUNK-16 */
			return 0;
	}
	out += inline_len - in;
	return out > room ? 0 : out;
}

/**
 * rpcrdma2_returned_chunk_len - check a returned chunk against the offer
 * @buf: the received Reply's header
 * @hdr: as the codec decoded it
 * @reply: the Reply chunk (else Write chunk 0)
 * @offered: the segments the Call offered
 * @noffered: how many
 *
 * The same segments in the same order (V2-CHUNK-20), none longer than
 * offered, filled in order (V2-CHUNK-19).  Returns the octets the
 * chunk carries, or -EIO.
 */
int rpcrdma2_returned_chunk_len(const void *buf,
				const struct rpcrdma2_hdr *hdr, bool reply,
				const struct rpcrdma2_segment *offered,
				u32 noffered)
{
	struct rpcrdma2_segment seg;
	bool short_seen = false;
	u64 total = 0;
	u32 i, n;

	n = reply ? rpcrdma2_reply_chunk(buf, hdr, 0, &seg) :
		    rpcrdma2_write_chunk(buf, hdr, 0, 0, &seg);
	if (n != noffered)
		return -EIO;
	for (i = 0; i < n; i++) {
		if (reply)
			rpcrdma2_reply_chunk(buf, hdr, i, &seg);
		else
			rpcrdma2_write_chunk(buf, hdr, 0, i, &seg);
		if (seg.handle != offered[i].handle ||
		    seg.length > offered[i].length ||
		    (short_seen && seg.length))
			return -EIO;
		short_seen = seg.length < offered[i].length;
		total += seg.length;
	}
	/* more than an int carries was never offered by this client */
	return total > INT_MAX ? -EIO : total;
}
