// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for rpcrdma2_decode_hdr() and the list accessors.
 *
 * Input: one configuration octet, then the received message.  The
 * octet picks the highest version (bit 0: 1 = Version 1 only), adds
 * 0-3, 0-3 and 0-3 to the read-chunk, write-chunk and segment caps of
 * codec_vectors.h, and bit 7 enables the seed 004 extension, so the
 * corpus decodes each vector exactly as KUnit does.
 *
 * Checked on every input, beyond what the sanitizers see:
 *  - the verdict is 0, RPCRDMA2_DROP or a defined RDMA2_ERR_* code, and
 *    anything shorter than the 20-octet prefix is dropped (V2-ERR-01);
 *  - an accepted error carries a defined rdma_err (V2-ERR-06);
 *  - a cap rejection reports the cap;
 *  - an accepted MSG/NOMSG has hdrlen <= size, every segment can be
 *    read back through the accessors, and encoding the decoded header
 *    gives back the received octets (with reserved flag bits cleared).
 */
#include <string.h>

#include <linux/unaligned.h>

#include "fuzz.h"
#include "tests/codec_vectors.h"

#define MAX_SEGS	64

static void check_reencode(const u8 *msg, u32 len, const struct rpcrdma2_hdr *h)
{
	static struct rpcrdma2_segment rsegs[MAX_SEGS], wsegs[MAX_SEGS],
				       psegs[MAX_SEGS];
	static struct rpcrdma2_chunk_out reads[MAX_SEGS], writes[MAX_SEGS];
	static u8 out[4096];
	struct rpcrdma2_chunk_out reply = { 0 };
	struct rpcrdma2_msg_out m = {
		.xid = h->xid, .vers = h->vers, .credit = h->credit,
		.htype = h->htype, .flags = h->flags,
		.inv_handle = h->inv_handle,
	};
	u32 i, j, n, used = 0, outlen;

	RR2_CHECK(h->reads.segments <= MAX_SEGS);
	RR2_CHECK(h->writes.segments <= MAX_SEGS);
	RR2_CHECK(h->reply.segments <= MAX_SEGS);
	for (i = 0; i < h->reads.segments; i++) {
		rpcrdma2_read_seg(msg, h, i, &reads[i].position, &rsegs[i]);
		RR2_CHECK(!(reads[i].position & 3));
		reads[i].nsegs = 1;
		reads[i].segs = &rsegs[i];
	}
	m.nr_reads = h->reads.segments;
	m.reads = reads;
	for (i = 0; i < h->writes.chunks; i++) {
		n = rpcrdma2_write_chunk(msg, h, i, 0, &wsegs[used]);
		RR2_CHECK(used + n <= h->writes.segments);
		for (j = 0; j < n; j++)
			rpcrdma2_write_chunk(msg, h, i, j, &wsegs[used + j]);
		writes[i].nsegs = n;
		writes[i].segs = &wsegs[used];
		used += n;
	}
	RR2_CHECK(used == h->writes.segments);
	m.nr_writes = h->writes.chunks;
	m.writes = writes;
	if (h->reply.chunks) {
		n = rpcrdma2_reply_chunk(msg, h, 0, &psegs[0]);
		RR2_CHECK(n == h->reply.segments);
		for (j = 0; j < n; j++)
			rpcrdma2_reply_chunk(msg, h, j, &psegs[j]);
		reply.nsegs = n;
		reply.segs = psegs;
		m.reply = &reply;
	}

	outlen = rpcrdma2_encode_msg(out, sizeof(out), &m);
	RR2_CHECK(outlen == h->hdrlen);
	if (h->vers == RPCRDMA2_VERS_2) {
		/* reserved flag bits are not sent back (V2-FRAME-06) */
		RR2_CHECK(memcmp(out, msg, 16) == 0);
		RR2_CHECK(get_unaligned_be32(out + 16) ==
			  (get_unaligned_be32(msg + 16) & ~RDMA2_F_RESERVED_MASK));
		RR2_CHECK(memcmp(out + 20, msg + 20, outlen - 20) == 0);
	} else {
		RR2_CHECK(memcmp(out, msg, outlen) == 0);
	}
	(void)len;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct rpcrdma2_limits lim;
	struct rpcrdma2_hdr h;
	u32 max_vers, len;
	u8 cfg;
	int ret;

	if (size < 1 || size > 65536)
		return 0;
	cfg = data[0];
	data++;
	len = size - 1;
	max_vers = (cfg & 1) ? RPCRDMA2_VERS_1 : RPCRDMA2_VERS_2;
	lim.max_read_chunks = RR2V_MAX_READ_CHUNKS + ((cfg >> 1) & 3);
	lim.max_write_chunks = RR2V_MAX_WRITE_CHUNKS + ((cfg >> 3) & 3);
	lim.max_segments = RR2V_MAX_SEGMENTS + ((cfg >> 5) & 3);
	lim.xchar = cfg & 0x80;
	lim.no_reply_chunk = false;	/* the client's Responder limits only */

	ret = rpcrdma2_decode_hdr(data, len, max_vers, &lim, &h);
	RR2_CHECK(ret == 0 || ret == RPCRDMA2_DROP ||
		  (ret >= RDMA2_ERR_VERS && ret <= RDMA2_ERR_SEGMENTS));
	if (len < RPCRDMA2_HDR_PREFIX_SIZE)
		RR2_CHECK(ret == RPCRDMA2_DROP);
	if (ret == RDMA2_ERR_READ_CHUNKS)
		RR2_CHECK(h.reject_arg == lim.max_read_chunks);
	if (ret == RDMA2_ERR_WRITE_CHUNKS)
		RR2_CHECK(h.reject_arg == lim.max_write_chunks);
	if (ret == RDMA2_ERR_SEGMENTS)
		RR2_CHECK(h.reject_arg == lim.max_segments);
	if (ret)
		return 0;
	RR2_CHECK(h.hdrlen <= len);
	RR2_CHECK(h.vers >= 1 && h.vers <= max_vers);
	if (h.htype == RDMA2_ERROR && h.vers == RPCRDMA2_VERS_2)
		RR2_CHECK((h.err >= RDMA2_ERR_VERS &&
			   h.err <= RDMA2_ERR_REPLY_RESOURCE) ||
			  h.err == RDMA2_ERR_SYSTEM);
	if (h.htype == RDMA_ERROR && h.vers == RPCRDMA2_VERS_1)
		RR2_CHECK(h.err == ERR_VERS || h.err == ERR_CHUNK);
	RR2_CHECK(h.reads.chunks <= h.reads.segments);
	if (h.htype == RDMA2_MSG || h.htype == RDMA2_NOMSG) {
		RR2_CHECK(h.reads.chunks <= lim.max_read_chunks);
		RR2_CHECK(h.writes.chunks <= lim.max_write_chunks);
		check_reencode(data, len, &h);
	}
	return 0;
}
