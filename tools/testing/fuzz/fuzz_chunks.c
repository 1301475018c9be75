// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for the chunk-list checks after the codec's decode
 * (shared/chunk.c), driven as the halves drive them: the server taking
 * a Call's chunks (recvfrom.c: copy, sort, wrap checks, the length of
 * the Call rebuilt around its Read chunks), the client taking a
 * Reply's Write chunk and Reply chunk (reply.c: checked against what
 * it offered).
 *
 * Input: four configuration octets, then a transport header and its
 * inline payload.  Octet 0: bit 0 the client, bit 1 a Version 1
 * connection; for the client, bits 2-7 perturb the offer (below).
 * Server: octet 1 is max_read_chunks (bits 0-2) and max_write_chunks
 * (bits 3-5); octet 2 max_segments (bits 0-5); octet 3 the room for
 * the rebuilt Call, in 256-octet units (0: 4 GiB - 1).  Client: the
 * caps are its own (1, 1, 8); octets 1-3 tell how the offered
 * segments differ from the returned ones: the lengths grow by octet 1
 * (bits 0-6; bit 7: shrink instead), octet 2 picks a segment whose
 * handle differs, octet 3 one more or one fewer segment offered.
 *
 * Checked on every input, beyond what the sanitizers see:
 *  - a chunk rejection is READ_CHUNKS, WRITE_CHUNKS or SEGMENTS with
 *    the cap as its argument (V2-ERR-32, V2-ERR-35, V2-ERR-38), and is
 *    answered with ERR_CHUNK on Version 1 (RFC 8166 section 4.5.2);
 *  - an accepted list lies within the caps, every Position is a
 *    multiple of 4 (V2-CHUNK-13), and the segment counts the codec
 *    reports are exactly what the copies hold (the server sizes its
 *    allocation from them);
 *  - the sorted Read segments are the received ones, ascending by
 *    Position and in list order within a Position (V2-CHUNK-14);
 *    BAD_XDR exactly when a segment wraps (V2-SEC-17);
 *  - a chunk's capacity is the sum of its lengths (V2-CHUNK-04), with
 *    no wrap;
 *  - the rebuilt length is accepted exactly when every chunk lies at
 *    its Position in the unreduced stream (V2-CHUNK-12), not past the
 *    inline octets, padded (V2-CHUNK-16), within the room (V2-ERR-51),
 *    and is then the inline octets plus the padded chunks; the
 *    server's u32 pull loop stays within it at every step;
 *  - a Special Format Call is taken only with a Position-Zero Read
 *    chunk (V2-SPEC-02);
 *  - the client takes a returned chunk exactly when it has the offered
 *    segments in order (V2-CHUNK-20), none longer than offered, filled
 *    in order (V2-CHUNK-19), and then takes their sum.
 */
#include <string.h>

#include <linux/errno.h>
#include <linux/kernel.h>

#include "fuzz.h"
#include "shared/chunk.h"

#define MAX_HDR		8192

static u64 padded(u64 len)
{
	return (len + 3) & ~3ull;
}

static bool wraps(const struct rpcrdma2_segment *s)
{
	u64 end;

	return __builtin_add_overflow(s->offset, (u64)s->length, &end);
}

/* A chunk rejection names the cap it hit (V2-ERR-32, -35, -38). */
static void check_rejection(int ret, const struct rpcrdma2_hdr *h,
			    const struct rpcrdma2_limits *lim)
{
	if (ret == RDMA2_ERR_READ_CHUNKS)
		RR2_CHECK(h->reject_arg == lim->max_read_chunks);
	if (ret == RDMA2_ERR_WRITE_CHUNKS)
		RR2_CHECK(h->reject_arg == lim->max_write_chunks);
	if (ret == RDMA2_ERR_SEGMENTS)
		RR2_CHECK(h->reject_arg == lim->max_segments);
	if (ret > 0 && ret != RDMA2_ERR_VERS)
		RR2_CHECK(rpcrdma2_v1_errcode(ret) == ERR_CHUNK);
}

/* The received Read list, and its sorted copy. */
static void check_reads(const u8 *buf, const struct rpcrdma2_hdr *h,
			const struct rpcrdma2_limits *lim, const u32 *pos,
			const struct rpcrdma2_segment *segs, int err)
{
	u32 n = h->reads.segments, i, j, k, p, distinct = 0;
	struct rpcrdma2_segment s;
	bool wrap = false;
	u32 *seen = calloc(n + 1, sizeof(*seen));

	RR2_CHECK(seen);
	RR2_CHECK(h->reads.chunks <= lim->max_read_chunks);	/* V2-ERR-32 */
	RR2_CHECK(n <= lim->max_read_chunks * lim->max_segments);
	for (i = 0; i < n; i++) {
		RR2_CHECK(pos[i] % 4 == 0);			/* V2-CHUNK-13 */
		if (i)
			RR2_CHECK(pos[i - 1] <= pos[i]);	/* V2-CHUNK-14 */
		distinct += !i || pos[i - 1] != pos[i];
		wrap |= wraps(&segs[i]);
	}
	RR2_CHECK(distinct == h->reads.chunks);			/* V2-CHUNK-11 */
	RR2_CHECK(err == (wrap ? RDMA2_ERR_BAD_XDR : 0));	/* V2-SEC-17 */
	/* each sorted entry is the next received one at its Position */
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && pos[j] == pos[i]; j++)
			;
		RR2_CHECK(j - i <= lim->max_segments);		/* V2-ERR-38 */
		k = 0;
		for (j = i; j < n && pos[j] == pos[i]; j++) {
			do {
				RR2_CHECK(k < n);
				rpcrdma2_read_seg(buf, h, k++, &p, &s);
			} while (p != pos[i]);
			RR2_CHECK(!memcmp(&s, &segs[j], sizeof(s)));
			seen[k - 1]++;
		}
	}
	for (i = 0; i < n; i++)
		RR2_CHECK(seen[i] == 1);
	free(seen);
}

/*
 * The rebuilt Call's length, worked out again in closed form: chunk k
 * at Position p_k, after the inline octets before it and the padded
 * chunks before it.  Returns 0 when it cannot be rebuilt.
 */
static u64 model_pull_len(const u32 *pos, const struct rpcrdma2_segment *segs,
			  u32 n, u32 inline_len, u32 room)
{
	u64 before = 0, out = 0, len, total;
	u32 i, j;

	for (i = 0; i < n; i = j) {
		len = 0;
		for (j = i; j < n && pos[j] == pos[i]; j++)
			len += segs[j].length;
		/* V2-CHUNK-12: nothing rebuilt lies past its Position */
		if (pos[i] < out || pos[i] - before > inline_len)
			return 0;
		out = pos[i] + padded(len);			/* V2-CHUNK-16 */
		before += padded(len);
		if (out > room)					/* V2-ERR-51 */
			return 0;
	}
	total = (u64)inline_len + before;
	return total > room ? 0 : total;
}

/* The server's pull loop (recvfrom.c), in its own u32 arithmetic. */
static void check_pull_loop(const u32 *pos, const struct rpcrdma2_segment *segs,
			    u32 n, u32 inline_len, u32 total)
{
	u32 in = 0, out = 0, i, j, chunk;
	u64 len;
	int gap;

	for (i = 0; i < n; i = j) {
		gap = rpcrdma2_read_gap(pos[i], out, in, inline_len);
		RR2_CHECK(gap >= 0 && (u64)out + gap <= total);
		out += gap;
		in += gap;
		len = rpcrdma2_read_chunk_len(pos, segs, n, i, &j);
		RR2_CHECK(j > i && len <= U32_MAX);
		chunk = len;
		RR2_CHECK((u64)out + padded(chunk) <= total);
		out += padded(chunk);
	}
	RR2_CHECK(in <= inline_len && (u64)out + inline_len - in == total);
}

static void server(const u8 *cfg, const u8 *buf, u32 len)
{
	struct rpcrdma2_limits lim = {
		.max_read_chunks = cfg[1] & 7,
		.max_write_chunks = (cfg[1] >> 3) & 7,
		.max_segments = cfg[2] & 63,
	};
	u32 vers = (cfg[0] & 2) ? RPCRDMA2_VERS_1 : RPCRDMA2_VERS_2;
	u32 room = cfg[3] ? cfg[3] * 256u : U32_MAX;
	struct rpcrdma2_segment *rsegs, *wsegs;
	u32 *pos, nws, used = 0, i, inline_len, total, n;
	struct rpcrdma2_hdr h;
	u64 cap, sum;
	bool nomsg;
	int ret, err;

	ret = rpcrdma2_decode_hdr(buf, len, vers, &lim, &h);
	check_rejection(ret, &h, &lim);
	if (ret || (h.htype != RDMA2_MSG && h.htype != RDMA2_NOMSG) ||
	    !rpcrdma2_hdr_has_chunks(&h))
		return;
	RR2_CHECK(h.hdrlen <= len);
	nomsg = h.htype == RDMA2_NOMSG;
	inline_len = nomsg ? 0 : len - h.hdrlen;

	/* exactly the sizes recvfrom.c allocates */
	n = h.reads.segments;
	nws = h.writes.segments + h.reply.segments;
	pos = malloc(n * sizeof(*pos) + 1);
	rsegs = malloc(n * sizeof(*rsegs) + 1);
	wsegs = malloc(nws * sizeof(*wsegs) + 1);
	RR2_CHECK(pos && rsegs && wsegs);

	err = rpcrdma2_read_list_sort(buf, &h, pos, rsegs);
	check_reads(buf, &h, &lim, pos, rsegs, err);

	RR2_CHECK(h.writes.chunks <= lim.max_write_chunks);	/* V2-ERR-35 */
	RR2_CHECK(h.reply.chunks <= 1);
	for (i = 0; !err && i <= h.writes.chunks; i++) {
		int which = i < h.writes.chunks ? (int)i : -1;
		u32 k, cnt;
		bool wrap = false;

		if (which < 0 && !h.reply.chunks)
			break;
		err = rpcrdma2_counted_chunk_copy(buf, &h, which,
						  &wsegs[used], &cnt, &cap);
		RR2_CHECK(cnt <= lim.max_segments);		/* V2-ERR-38 */
		RR2_CHECK(used + cnt <= nws);
		sum = 0;
		for (k = 0; k < cnt && !wrap; k++) {
			wrap = wraps(&wsegs[used + k]);
			if (!wrap)
				sum += wsegs[used + k].length;
		}
		RR2_CHECK(err == (wrap ? RDMA2_ERR_BAD_XDR : 0));
		if (!err)
			RR2_CHECK(cap == sum);			/* V2-CHUNK-04 */
		used += cnt;
	}
	if (!err)
		RR2_CHECK(used == nws);
	/* V2-SPEC-02: a Special Call needs its Position-Zero chunk */
	if (!err && nomsg && (!n || pos[0]))
		err = RDMA2_ERR_BAD_XDR;
	if (!err) {
		total = rpcrdma2_read_pull_len(pos, rsegs, n, inline_len,
					       room);
		RR2_CHECK(total == model_pull_len(pos, rsegs, n, inline_len,
						  room));
		RR2_CHECK(total <= room);
		if (total)
			check_pull_loop(pos, rsegs, n, inline_len, total);
	}
	free(pos);
	free(rsegs);
	free(wsegs);
}

/* What the client would have offered, given what came back. */
static u32 offer(const u8 *cfg, const u8 *buf, const struct rpcrdma2_hdr *h,
		 bool reply, struct rpcrdma2_segment *offered)
{
	struct rpcrdma2_segment s;
	u32 n, i, delta = cfg[1] & 0x7f;

	n = reply ? rpcrdma2_reply_chunk(buf, h, 0, &s) :
		    rpcrdma2_write_chunk(buf, h, 0, 0, &s);
	for (i = 0; i < n && i < 9; i++) {
		if (reply)
			rpcrdma2_reply_chunk(buf, h, i, &offered[i]);
		else
			rpcrdma2_write_chunk(buf, h, 0, i, &offered[i]);
		if (cfg[1] & 0x80)
			offered[i].length -= min(offered[i].length, delta);
		else
			offered[i].length += min(U32_MAX - offered[i].length,
						 delta);
		if (cfg[2] == i + 1)
			offered[i].handle ^= 1;
	}
	if (cfg[3] == 1 && n < 8)
		offered[n++] = (struct rpcrdma2_segment){ 7, 4096, 0 };
	if (cfg[3] == 2 && n)
		n--;
	return n;
}

/* rpcrdma2_returned_chunk_len(), judged again segment by segment. */
static void check_returned(const u8 *buf, const struct rpcrdma2_hdr *h,
			   bool reply, const struct rpcrdma2_segment *offered,
			   u32 noffered)
{
	struct rpcrdma2_segment s;
	bool ok, short_seen = false;
	u64 sum = 0, offered_sum = 0;
	u32 n, i;
	int got;

	got = rpcrdma2_returned_chunk_len(buf, h, reply, offered, noffered);
	n = reply ? rpcrdma2_reply_chunk(buf, h, 0, &s) :
		    rpcrdma2_write_chunk(buf, h, 0, 0, &s);
	RR2_CHECK(n <= 8);				/* the client's cap */
	ok = n == noffered;				/* V2-CHUNK-20 */
	for (i = 0; ok && i < n; i++) {
		if (reply)
			rpcrdma2_reply_chunk(buf, h, i, &s);
		else
			rpcrdma2_write_chunk(buf, h, 0, i, &s);
		ok = s.handle == offered[i].handle &&
		     s.length <= offered[i].length &&
		     !(short_seen && s.length);		/* V2-CHUNK-19 */
		short_seen |= s.length < offered[i].length;
		sum += s.length;
		offered_sum += offered[i].length;
	}
	if (ok && sum > INT_MAX)
		ok = false;
	RR2_CHECK(got == (ok ? (int)sum : -EIO));
	if (ok)
		RR2_CHECK(sum <= offered_sum);
}

static void client(const u8 *cfg, const u8 *buf, u32 len)
{
	/* reply.c's rr2c_limits */
	static const struct rpcrdma2_limits lim = {
		.max_read_chunks = 1, .max_write_chunks = 1, .max_segments = 8,
	};
	u32 vers = (cfg[0] & 2) ? RPCRDMA2_VERS_1 : RPCRDMA2_VERS_2;
	struct rpcrdma2_segment offered[9];
	struct rpcrdma2_hdr h;
	u32 n;
	int ret;

	ret = rpcrdma2_decode_hdr(buf, len, vers, &lim, &h);
	check_rejection(ret, &h, &lim);
	if (ret || !rpcrdma2_hdr_has_chunks(&h))
		return;
	RR2_CHECK(h.writes.chunks <= 1 && h.reply.chunks <= 1);
	if (h.writes.chunks) {
		n = offer(cfg, buf, &h, false, offered);
		check_returned(buf, &h, false, offered, n);
	}
	if (h.reply.chunks) {
		n = offer(cfg, buf, &h, true, offered);
		check_returned(buf, &h, true, offered, n);
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	u8 cfg[4];

	if (size < 4 || size - 4 > MAX_HDR)
		return 0;
	memcpy(cfg, data, 4);
	/* libFuzzer's input is its own allocation: ASan sees an overread */
	if (cfg[0] & 1)
		client(cfg, data + 4, size - 4);
	else
		server(cfg, data + 4, size - 4);
	return 0;
}
