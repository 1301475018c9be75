// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rpcrdma2_codec": the header codec on its own, no device.
 *
 * - every vector in codec_vectors.h decodes to its expected verdict
 *   (one malformed message per rejection rule, named by requirement);
 * - golden encodings worked out by hand from the XDR;
 * - round trips for every message type and both versions;
 * - the first-reply classifier (V2-FRAME-23) on both byte patterns;
 * - RFC 8797 CM private data vectors (Documentation/spec/cm-private-data.md);
 * - the chunk-list checks after the decode (shared/chunk.c).
 * Test names carry the requirement IDs they check.
 */

#include <kunit/test.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include "shared/chunk.h"
#include "shared/codec.h"
#include "tests/codec_vectors.h"

static const struct rpcrdma2_limits rr2d_lim = {
	.max_read_chunks	= RR2V_MAX_READ_CHUNKS,
	.max_write_chunks	= RR2V_MAX_WRITE_CHUNKS,
	.max_segments		= RR2V_MAX_SEGMENTS,
};

/* Words to a big-endian byte buffer, exactly @len octets long. */
static u8 *rr2d_bytes(struct kunit *test, const u32 *w, u32 len)
{
	u8 *buf = kunit_kzalloc(test, len + 4, GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < DIV_ROUND_UP(len, 4); i++)
		put_unaligned_be32(w[i], buf + 4 * i);
	return buf;
}

static void rr2d_vector_desc(const struct rr2_vector *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rr2d_vector, rr2_vectors, rr2d_vector_desc);

/* V2-SEC-17 and the rows of codec_vectors.h: each exact reaction. */
static void v2_sec_17_vectors(struct kunit *test)
{
	const struct rr2_vector *v = test->param_value;
	struct rpcrdma2_limits lim = rr2d_lim;
	struct rpcrdma2_hdr hdr;
	u8 *buf = rr2d_bytes(test, v->w, v->len);
	int ret;

	lim.xchar = v->xchar;
	ret = rpcrdma2_decode_hdr(buf, v->len, v->max_vers, &lim, &hdr);
	KUNIT_EXPECT_EQ_MSG(test, ret, v->verdict, "%s", v->name);
	if (ret == RDMA2_ERR_READ_CHUNKS || ret == RDMA2_ERR_WRITE_CHUNKS ||
	    ret == RDMA2_ERR_SEGMENTS)
		KUNIT_EXPECT_EQ(test, hdr.reject_arg, v->reject_arg);
	if (ret == 0)
		KUNIT_EXPECT_LE(test, hdr.hdrlen, v->len);
	if (ret > 0 && v->len >= 8) {
		/* what the error reply echoes (V2-ERR-02, V2-ERR-03) */
		KUNIT_EXPECT_EQ(test, hdr.xid, v->w[0]);
		KUNIT_EXPECT_EQ(test, hdr.vers, v->w[1]);
	}
}

static void rr2d_expect_bytes(struct kunit *test, const u8 *got, u32 got_len,
			      const u32 *want, u32 want_len)
{
	u32 i;

	KUNIT_ASSERT_EQ(test, got_len, want_len);
	for (i = 0; i < want_len / 4; i++)
		KUNIT_EXPECT_EQ_MSG(test, get_unaligned_be32(got + 4 * i),
				    want[i], "word %u", i);
}

/* V2-FRAME-04, V2-FRAME-05, V2-FRAME-08: a chunk-less Call is 36 octets. */
static void v2_frame_05_msg_golden(struct kunit *test)
{
	/*
	 * asserts V2-FRAME-08: a Call goes out with RESPONSE clear (word 4 is
	 * 0)
	 */
	static const u32 want[] = { 0x11223344, 2, 0x00200020, RDMA2_MSG,
				    0, 0, 0, 0, 0 };
	struct rpcrdma2_msg_out m = {
		.xid = 0x11223344, .vers = 2, .htype = RDMA2_MSG,
		.credit = rpcrdma2_credit_word(32, 32),
	};
	u8 buf[64];

	rr2d_expect_bytes(test, buf, rpcrdma2_encode_msg(buf, sizeof(buf), &m),
			  want, sizeof(want));
	KUNIT_EXPECT_EQ(test, (u32)sizeof(want), RPCRDMA2_HDRLEN_NOCHUNKS);
}

/* RFC 8166: the same Call in Version 1 is 28 octets, no flags word. */
static void rfc8166_msg_golden(struct kunit *test)
{
	static const u32 want[] = { 0x11223344, 1, 32, RDMA_MSG, 0, 0, 0 };
	struct rpcrdma2_msg_out m = {
		.xid = 0x11223344, .vers = 1, .credit = 32, .htype = RDMA_MSG,
		.flags = RDMA2_F_RESPONSE, .inv_handle = 0x1234,
	};
	u8 buf[64];

	rr2d_expect_bytes(test, buf, rpcrdma2_encode_msg(buf, sizeof(buf), &m),
			  want, sizeof(want));
}

/* V2-CRED-08, V2-FRAME-10: the credit grant, and the decoder knows it. */
static void v2_cred_08_credit_grant(struct kunit *test)
{
	static const u32 want[] = { 0, 2, 0x00400010, RDMA2_NOMSG,
				    0, 0, 0, 0, 0 };
	struct rpcrdma2_hdr hdr;
	u8 buf[64];
	u32 len;

	len = rpcrdma2_encode_credit_grant(buf, sizeof(buf),
					   rpcrdma2_credit_word(16, 64));
	rr2d_expect_bytes(test, buf, len, want, sizeof(want));
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode_hdr(buf, len, 2, &rr2d_lim, &hdr),
			0);
	KUNIT_EXPECT_TRUE(test, rpcrdma2_is_credit_grant(&hdr));
	KUNIT_EXPECT_EQ(test, hdr.credit & RDMA2_CREDIT_GRANT_MASK, 16U);
	KUNIT_EXPECT_EQ(test, hdr.credit >> RDMA2_CREDIT_MAX_SHIFT, 64U);
}

/* V2-FRAME-06: reserved flag bits are never sent. */
static void v2_frame_06_reserved_flags_zero_on_send(struct kunit *test)
{
	struct rpcrdma2_msg_out m = {
		.vers = 2, .htype = RDMA2_MSG, .flags = 0xffffffff,
	};
	u8 buf[64];

	KUNIT_ASSERT_EQ(test, rpcrdma2_encode_msg(buf, sizeof(buf), &m), 36U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + 16), 7U);
}

/*
 * V2-ERR-02, V2-ERR-03, V2-ERR-04, V2-ERR-05, V2-FRAME-11: error
 * layouts and lengths.
 */
static void v2_err_05_error_golden(struct kunit *test)
{
	/* asserts V2-FRAME-11: every error layout below has RESPONSE set */
	static const struct {
		u32	layout, vers, err, arg0, arg1;
		u32	len;
		u32	want[8];
	} v[] = {
		{ 2, 2, RDMA2_ERR_VERS, 1, 2, 32,
		  { 0xaa, 2, 5, RDMA2_ERROR, RDMA2_F_RESPONSE, RDMA2_ERR_VERS,
		    1, 2 } },
		{ 2, 2, RDMA2_ERR_READ_CHUNKS, 0, 0, 28,
		  { 0xaa, 2, 5, RDMA2_ERROR, RDMA2_F_RESPONSE,
		    RDMA2_ERR_READ_CHUNKS, 0 } },
		{ 2, 2, RDMA2_ERR_WRITE_RESOURCE, 3, 8192, 32,
		  { 0xaa, 2, 5, RDMA2_ERROR, RDMA2_F_RESPONSE,
		    RDMA2_ERR_WRITE_RESOURCE, 3, 8192 } },
		{ 2, 2, RDMA2_ERR_BAD_XDR, 0, 0, 24,
		  { 0xaa, 2, 5, RDMA2_ERROR, RDMA2_F_RESPONSE,
		    RDMA2_ERR_BAD_XDR } },
		/* a v1-only server echoes vers 2 in v1 layout (V2-ERR-03) */
		{ 1, 2, ERR_VERS, 1, 1, 28,
		  { 0xaa, 2, 5, RDMA_ERROR, ERR_VERS, 1, 1 } },
		{ 1, 1, ERR_CHUNK, 0, 0, 20,
		  { 0xaa, 1, 5, RDMA_ERROR, ERR_CHUNK } },
	};
	unsigned int i;
	u8 buf[64];

	for (i = 0; i < ARRAY_SIZE(v); i++)
		rr2d_expect_bytes(test, buf,
				  rpcrdma2_encode_error(buf, sizeof(buf),
							v[i].layout, 0xaa,
							v[i].vers, 5, v[i].err,
							v[i].arg0, v[i].arg1),
				  v[i].want, v[i].len);
	KUNIT_EXPECT_EQ(test, rpcrdma2_v1_errcode(RDMA2_ERR_BAD_XDR),
			(u32)ERR_CHUNK);
	KUNIT_EXPECT_EQ(test, rpcrdma2_v1_errcode(RDMA2_ERR_VERS),
			(u32)ERR_VERS);
}

/* Encode into too small a buffer: 0, and nothing past @size touched. */
static void v2_sec_01_encode_never_overruns(struct kunit *test)
{
	struct rpcrdma2_segment seg = { .handle = 1, .length = 2 };
	struct rpcrdma2_chunk_out chunk = { .nsegs = 1, .segs = &seg };
	struct rpcrdma2_msg_out m = {
		.vers = 2, .htype = RDMA2_MSG, .nr_writes = 1, .writes = &chunk,
		.reply = &chunk,
	};
	u8 buf[128];
	u32 size, full;

	full = rpcrdma2_encode_msg(buf, sizeof(buf), &m);
	KUNIT_ASSERT_GT(test, full, 0U);
	for (size = 0; size < full; size++) {
		memset(buf, 0xa5, sizeof(buf));
		KUNIT_EXPECT_EQ(test, rpcrdma2_encode_msg(buf, size, &m), 0U);
		KUNIT_EXPECT_EQ(test, buf[size], 0xa5);
	}
}

/* Encode a header with every kind of chunk, decode it, compare. */
static void rr2d_round_trip(struct kunit *test, u32 vers)
{
	const struct rpcrdma2_segment rs[] = {
		{ 0x100, 512, 0x1000 }, { 0x101, 100, 0x2000 },
		{ 0x102, 64, 0xffffffff00000000ULL },
	};
	const struct rpcrdma2_segment ws[] = {
		{ 0x200, 4096, 0x3000 }, { 0x201, 4096, 0x4000 },
		{ 0x202, 1024, 0x5000 },
	};
	const struct rpcrdma2_segment ps[] = { { 0x300, 65536, 0x6000 } };
	const struct rpcrdma2_chunk_out reads[] = {
		{ .nsegs = 2, .segs = rs, .position = 0 },
		{ .nsegs = 1, .segs = rs + 2, .position = 132 },
	};
	const struct rpcrdma2_chunk_out writes[] = {
		{ .nsegs = 2, .segs = ws },
		{ .nsegs = 1, .segs = ws + 2 },
	};
	const struct rpcrdma2_chunk_out reply = { .nsegs = 1, .segs = ps };
	struct rpcrdma2_msg_out m = {
		.xid = 0xcafe, .vers = vers, .credit = 7, .htype = RDMA2_MSG,
		.inv_handle = vers == 2 ? 0x300 : 0,
		.nr_reads = 2, .reads = reads, .nr_writes = 2, .writes = writes,
		.reply = &reply,
	};
	struct rpcrdma2_segment seg;
	struct rpcrdma2_hdr hdr;
	u32 len, pos, i;
	u8 *buf;

	buf = kunit_kzalloc(test, 512, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	len = rpcrdma2_encode_msg(buf, 512, &m);
	KUNIT_ASSERT_GT(test, len, 0U);
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode_hdr(buf, len, 2, &rr2d_lim, &hdr),
			0);
	KUNIT_EXPECT_EQ(test, hdr.hdrlen, len);
	KUNIT_EXPECT_EQ(test, hdr.xid, 0xcafeU);
	KUNIT_EXPECT_EQ(test, hdr.vers, vers);
	KUNIT_EXPECT_EQ(test, hdr.inv_handle, m.inv_handle);
	KUNIT_EXPECT_EQ(test, hdr.reads.chunks, 2U);
	KUNIT_EXPECT_EQ(test, hdr.reads.segments, 3U);
	for (i = 0; i < 3; i++) {
		rpcrdma2_read_seg(buf, &hdr, i, &pos, &seg);
		KUNIT_EXPECT_EQ(test, pos, i < 2 ? 0U : 132U);
		KUNIT_EXPECT_EQ(test, seg.handle, rs[i].handle);
		KUNIT_EXPECT_EQ(test, seg.length, rs[i].length);
		KUNIT_EXPECT_EQ(test, seg.offset, rs[i].offset);
	}
	KUNIT_EXPECT_EQ(test, hdr.writes.chunks, 2U);
	KUNIT_EXPECT_EQ(test, hdr.writes.segments, 3U);
	KUNIT_EXPECT_EQ(test, rpcrdma2_write_chunk(buf, &hdr, 0, 1, &seg), 2U);
	KUNIT_EXPECT_EQ(test, seg.handle, ws[1].handle);
	KUNIT_EXPECT_EQ(test, rpcrdma2_write_chunk(buf, &hdr, 1, 0, &seg), 1U);
	KUNIT_EXPECT_EQ(test, seg.handle, ws[2].handle);
	KUNIT_EXPECT_EQ(test, seg.offset, ws[2].offset);
	KUNIT_EXPECT_EQ(test, rpcrdma2_reply_chunk(buf, &hdr, 0, &seg), 1U);
	KUNIT_EXPECT_EQ(test, seg.length, ps[0].length);
}

/* V2-CHUNK-11, V2-CHUNK-14, V2-CHUNK-17, V2-FRAME-12: all lists, v2. */
static void v2_chunk_11_round_trip(struct kunit *test)
{
	rr2d_round_trip(test, 2);
}

/* RFC 8166: the same in Version 1 (no flags word, no inv_handle). */
static void rfc8166_round_trip(struct kunit *test)
{
	rr2d_round_trip(test, 1);
}

/*
 * RFC 8166 interop: what the stock client and server sent decodes to
 * the header they meant, and encodes back to the same octets.
 */
static void rfc8166_stock_captures(struct kunit *test)
{
	const struct rr2_stock_vector *v = rr2_stock_vectors;
	struct rpcrdma2_limits lim = {
		.max_read_chunks = 8, .max_write_chunks = 8, .max_segments = 16,
	};
	struct rpcrdma2_segment seg;
	struct rpcrdma2_hdr hdr;
	unsigned int i;
	u32 pos;
	u8 *buf;

	for (i = 0; i < ARRAY_SIZE(rr2_stock_vectors); i++, v++) {
		buf = rr2d_bytes(test, v->w, v->len);
		KUNIT_ASSERT_EQ_MSG(test,
				    rpcrdma2_decode_hdr(buf, v->len, 2, &lim, &hdr),
				    0, "%s", v->name);
		KUNIT_EXPECT_EQ_MSG(test, hdr.vers, 1U, "%s", v->name);
		KUNIT_EXPECT_EQ_MSG(test, hdr.htype, v->htype, "%s", v->name);
		KUNIT_EXPECT_EQ_MSG(test, hdr.hdrlen, v->hdrlen, "%s", v->name);
		KUNIT_EXPECT_EQ_MSG(test, hdr.reads.segments, v->read_segs,
				    "%s", v->name);
		KUNIT_EXPECT_EQ_MSG(test, hdr.writes.chunks, v->write_chunks,
				    "%s", v->name);
		KUNIT_EXPECT_EQ_MSG(test, hdr.writes.segments, v->write_segs,
				    "%s", v->name);
		KUNIT_EXPECT_EQ_MSG(test, hdr.reply.segments, v->reply_segs,
				    "%s", v->name);
		/* an RDMA_MSG's payload starts with the RPC xid (V2-ERR-26) */
		if (hdr.htype == RDMA_MSG)
			KUNIT_EXPECT_EQ_MSG(test,
					    get_unaligned_be32(buf + hdr.hdrlen),
					    hdr.xid, "%s", v->name);
		if (hdr.reads.segments) {
			rpcrdma2_read_seg(buf, &hdr, 0, &pos, &seg);
			KUNIT_EXPECT_EQ(test, pos & 3, 0U);
			KUNIT_EXPECT_GT(test, seg.length, 0U);
		}
	}
}

/* Every error body decodes to what was encoded (V2-FRAME-12). */
static void v2_err_round_trip(struct kunit *test)
{
	/* asserts V2-FRAME-11: RESPONSE is set on every RDMA2_ERROR */
	static const u32 codes[] = {
		RDMA2_ERR_VERS, RDMA2_ERR_BAD_XDR, RDMA2_ERR_BAD_PROPVAL,
		RDMA2_ERR_INVAL_HTYPE, RDMA2_ERR_INVAL_CONT,
		RDMA2_ERR_READ_CHUNKS, RDMA2_ERR_WRITE_CHUNKS,
		RDMA2_ERR_SEGMENTS, RDMA2_ERR_WRITE_RESOURCE,
		RDMA2_ERR_REPLY_RESOURCE, RDMA2_ERR_SYSTEM,
	};
	struct rpcrdma2_hdr hdr;
	u8 buf[64];
	u32 i, len;

	for (i = 0; i < ARRAY_SIZE(codes); i++) {
		len = rpcrdma2_encode_error(buf, sizeof(buf), 2, 9, 2, 1,
					    codes[i], 11, 22);
		KUNIT_ASSERT_GT(test, len, 0U);
		KUNIT_ASSERT_EQ(test,
				rpcrdma2_decode_hdr(buf, len, 2, &rr2d_lim, &hdr),
				0);
		KUNIT_EXPECT_EQ(test, hdr.htype, (u32)RDMA2_ERROR);
		KUNIT_EXPECT_EQ(test, hdr.flags, (u32)RDMA2_F_RESPONSE);
		KUNIT_EXPECT_EQ(test, hdr.err, codes[i]);
		KUNIT_EXPECT_EQ(test, hdr.hdrlen, len);
		if (len >= 28)
			KUNIT_EXPECT_EQ(test, hdr.err_arg[0], 11U);
		if (len >= 32)
			KUNIT_EXPECT_EQ(test, hdr.err_arg[1], 22U);
	}
}

/*
 * V2-PROP-01, V2-PROP-02, V2-PROP-08, V2-INLINE-05: CONNPROP round trip,
 * HOSTAUTH padded.
 */
static void v2_prop_08_connprop_round_trip(struct kunit *test)
{
	static const u8 auth[5] = { 1, 2, 3, 4, 5 };
	struct rpcrdma2_props in = {
		.present = 0x3f, .sbsiz = 8192, .rbsiz = 16384, .rssiz = 65536,
		.rcsiz = 8, .brs = RDMA2_RVRSDIR_CONT, .hostauth_len = 5,
	};
	struct rpcrdma2_hdr hdr;
	u8 buf[256];
	u32 len;

	len = rpcrdma2_encode_connprop(buf, sizeof(buf), 0x00100010,
				       RDMA2_F_TPMORE | RDMA2_F_RESPONSE, &in,
				       auth);
	/* prefix 20 + count 4 + 5 * 12 + 8 + 8 (5 octets padded) */
	KUNIT_ASSERT_EQ(test, len, 100U);
	KUNIT_EXPECT_LE(test, len, (u32)RPCRDMA2_V1_DEF_INLINE);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + 16),
			(u32)RDMA2_F_TPMORE);	/* V2-FRAME-10: RESPONSE clear */
	KUNIT_EXPECT_EQ(test, buf[len - 3], 0);	/* padding is zero */
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode_hdr(buf, len, 2, &rr2d_lim, &hdr),
			0);
	KUNIT_EXPECT_EQ(test, hdr.props.present, 0x3fU);
	KUNIT_EXPECT_EQ(test, hdr.props.sbsiz, 8192U);
	KUNIT_EXPECT_EQ(test, hdr.props.rbsiz, 16384U);
	KUNIT_EXPECT_EQ(test, hdr.props.rssiz, 65536U);
	KUNIT_EXPECT_EQ(test, hdr.props.rcsiz, 8U);
	KUNIT_EXPECT_EQ(test, hdr.props.brs, (u32)RDMA2_RVRSDIR_CONT);
	KUNIT_ASSERT_EQ(test, hdr.props.hostauth_len, 5U);
	KUNIT_EXPECT_EQ(test,
			memcmp(buf + 20 + hdr.props.hostauth_offset, auth, 5),
			0);
}

/* V2-PROP-18: one bad propval, and none of the others apply. */
static void v2_prop_18_all_or_nothing(struct kunit *test)
{
	static const u32 w[] = { 2, RDMA2_PROPID_RBSIZ, 4, 65536,
				 RDMA2_PROPID_SBSIZ, 2, 0 };
	struct rpcrdma2_props p;
	u8 *buf = rr2d_bytes(test, w, sizeof(w));

	KUNIT_EXPECT_EQ(test, rpcrdma2_decode_props(buf, sizeof(w), &p),
			RDMA2_ERR_BAD_PROPVAL);
	KUNIT_EXPECT_EQ(test, p.present, 0U);
	KUNIT_EXPECT_EQ(test, p.rbsiz, (u32)RDMA2_PROP_RBSIZ_DEFAULT);
}

/* V2-PROP-02: an empty value means the default. */
static void v2_prop_02_empty_is_default(struct kunit *test)
{
	static const u32 w[] = { 1, RDMA2_PROPID_RSSIZ, 0 };
	struct rpcrdma2_props p;
	u8 *buf = rr2d_bytes(test, w, sizeof(w));

	KUNIT_ASSERT_EQ(test, rpcrdma2_decode_props(buf, sizeof(w), &p), 0);
	KUNIT_EXPECT_EQ(test, p.rssiz, (u32)RDMA2_PROP_RSSIZ_DEFAULT);
	KUNIT_EXPECT_TRUE(test, p.present & (1u << (RDMA2_PROPID_RSSIZ - 1)));
}

/*
 * V2-PROP-19: an RSSIZ under a page or an RCSIZ of 0 is not believed:
 * the default stands, and the property counts as received.
 */
static void v2_prop_19_segment_bounds(struct kunit *test)
{
	static const u32 w[] = { 2, RDMA2_PROPID_RSSIZ, 4, 4095,
				 RDMA2_PROPID_RCSIZ, 4, 0 };
	static const u32 ok[] = { 2, RDMA2_PROPID_RSSIZ, 4, 4096,
				  RDMA2_PROPID_RCSIZ, 4, 1 };
	struct rpcrdma2_props p;
	u8 *buf = rr2d_bytes(test, w, sizeof(w));

	KUNIT_ASSERT_EQ(test, rpcrdma2_decode_props(buf, sizeof(w), &p), 0);
	KUNIT_EXPECT_EQ(test, p.rssiz, (u32)RDMA2_PROP_RSSIZ_DEFAULT);
	KUNIT_EXPECT_EQ(test, p.rcsiz, (u32)RDMA2_PROP_RCSIZ_DEFAULT);
	KUNIT_EXPECT_TRUE(test, p.present & (1u << (RDMA2_PROPID_RCSIZ - 1)));
	buf = rr2d_bytes(test, ok, sizeof(ok));
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode_props(buf, sizeof(ok), &p), 0);
	KUNIT_EXPECT_EQ(test, p.rssiz, 4096U);
	KUNIT_EXPECT_EQ(test, p.rcsiz, 1U);
}

/* V2-FRAME-23: tell a v1 ERR_VERS from v2 errors. */
static void v2_frame_23_first_reply(struct kunit *test)
{
	static const u32 v1vers[] = { 1, 2, 1, RDMA_ERROR, ERR_VERS, 1, 1 };
	static const u32 v2segs[] = { 1, 2, 1, RDMA2_ERROR, RDMA2_F_RESPONSE,
				      RDMA2_ERR_SEGMENTS, 4 };
	static const u32 v2vers[] = { 1, 2, 1, RDMA2_ERROR, RDMA2_F_RESPONSE,
				      RDMA2_ERR_VERS, 1, 1 };
	static const u32 msg[] = { 1, 2, 1, RDMA2_MSG, 1, 0, 0, 0, 0 };
	u32 low = 0, high = 0;

	KUNIT_EXPECT_EQ(test,
			rpcrdma2_classify_first_reply(rr2d_bytes(test, v1vers, 28),
						      28, &low, &high),
			RPCRDMA2_FIRST_V1_ERR_VERS);
	KUNIT_EXPECT_EQ(test, low, 1U);
	KUNIT_EXPECT_EQ(test, high, 1U);
	KUNIT_EXPECT_EQ(test,
			rpcrdma2_classify_first_reply(rr2d_bytes(test, v2segs, 28),
						      28, &low, &high),
			RPCRDMA2_FIRST_V2_ERROR);
	KUNIT_EXPECT_EQ(test,
			rpcrdma2_classify_first_reply(rr2d_bytes(test, v2vers, 32),
						      32, &low, &high),
			RPCRDMA2_FIRST_V2_ERROR);
	KUNIT_EXPECT_EQ(test,
			rpcrdma2_classify_first_reply(rr2d_bytes(test, msg, 36),
						      36, &low, &high),
			RPCRDMA2_FIRST_OTHER);
	KUNIT_EXPECT_EQ(test,
			rpcrdma2_classify_first_reply(rr2d_bytes(test, v1vers, 20),
						      20, &low, &high),
			RPCRDMA2_FIRST_GARBAGE);
}

/* V2-FRAME-07, erratum E-02: reserved flag bits do not make an error garbage. */
static void v2_frame_07_first_reply_reserved_flags(struct kunit *test)
{
	static const u32 v2segs[] = { 1, 2, 1, RDMA2_ERROR, 0xfffffff9,
				      RDMA2_ERR_SEGMENTS, 4 };
	static const u32 v2vers[] = { 1, 2, 1, RDMA2_ERROR, 0x80000001,
				      RDMA2_ERR_VERS, 1, 1 };
	u32 low = 0, high = 0;

	KUNIT_EXPECT_EQ(test,
			rpcrdma2_classify_first_reply(rr2d_bytes(test, v2segs, 28),
						      28, &low, &high),
			RPCRDMA2_FIRST_V2_ERROR);
	KUNIT_EXPECT_EQ(test,
			rpcrdma2_classify_first_reply(rr2d_bytes(test, v2vers, 32),
						      32, &low, &high),
			RPCRDMA2_FIRST_V2_ERROR);
}

/* V2-ERR-26: the payload of an RPC message starts with rdma_xid. */
static void v2_err_26_rpc_xid_ok(struct kunit *test)
{
	static const u8 payload[] = { 0x11, 0x22, 0x33, 0x44, 0, 0, 0, 0 };
	struct rpcrdma2_hdr hdr = { .xid = 0x11223344, .vers = 2 };

	KUNIT_EXPECT_TRUE(test, rpcrdma2_rpc_xid_ok(&hdr, payload, 8));
	KUNIT_EXPECT_TRUE(test, rpcrdma2_rpc_xid_ok(&hdr, payload, 4));
	/* shorter than an xid: not ok */
	KUNIT_EXPECT_FALSE(test, rpcrdma2_rpc_xid_ok(&hdr, payload, 3));
	KUNIT_EXPECT_FALSE(test, rpcrdma2_rpc_xid_ok(&hdr, payload, 0));
	hdr.xid = 0x11223345;
	KUNIT_EXPECT_FALSE(test, rpcrdma2_rpc_xid_ok(&hdr, payload, 8));
	/* RFC 8166 section 4.5.2: the same rule on Version 1 */
	hdr.xid = 0x11223344;
	hdr.vers = 1;
	KUNIT_EXPECT_TRUE(test, rpcrdma2_rpc_xid_ok(&hdr, payload, 8));
}

/*
 * V2-CHUNK-11: Read segments with one Position are one chunk wherever
 * they are in the list; positions 0, 116, 0, 116 are two chunks of two.
 */
static void v2_chunk_11_interleaved_positions(struct kunit *test)
{
	const struct rr2_vector *v = NULL;
	struct rpcrdma2_segment seg;
	struct rpcrdma2_hdr hdr;
	unsigned int i;
	u32 pos;
	u8 *buf;

	for (i = 0; i < ARRAY_SIZE(rr2_vectors); i++)
		if (!strcmp(rr2_vectors[i].name,
			    "V2-CHUNK-11 read list, interleaved positions two chunks"))
			v = &rr2_vectors[i];
	KUNIT_ASSERT_NOT_NULL(test, v);
	buf = rr2d_bytes(test, v->w, v->len);
	KUNIT_ASSERT_EQ(test,
			rpcrdma2_decode_hdr(buf, v->len, 2, &rr2d_lim, &hdr), 0);
	KUNIT_EXPECT_EQ(test, hdr.reads.chunks, 2U);
	KUNIT_EXPECT_EQ(test, hdr.reads.segments, 4U);
	KUNIT_EXPECT_EQ(test, hdr.hdrlen, 132U);
	rpcrdma2_read_seg(buf, &hdr, 3, &pos, &seg);
	KUNIT_EXPECT_EQ(test, pos, 116U);
	KUNIT_EXPECT_EQ(test, seg.handle, 0x104U);
}

/*
 * V2-ERR-26, V2-PROP-03: a propset whose count or rdma_which is cut
 * short is BAD_XDR; a bad rdma_data is BAD_PROPVAL; defaults either way.
 */
static void v2_err_26_propset_framing(struct kunit *test)
{
	/* asserts V2-PROP-03: rdma_data running past the end is BAD_PROPVAL */
	static const u32 w[] = { 2, RDMA2_PROPID_RBSIZ, 4, 65536,
				 RDMA2_PROPID_SBSIZ, 8 };
	struct rpcrdma2_props p;
	u8 *buf = rr2d_bytes(test, w, sizeof(w));

	KUNIT_EXPECT_EQ(test, rpcrdma2_decode_props(buf, 0, &p),
			RDMA2_ERR_BAD_XDR);
	KUNIT_EXPECT_EQ(test, rpcrdma2_decode_props(buf, 3, &p),
			RDMA2_ERR_BAD_XDR);
	/* the second rdma_which is cut short */
	KUNIT_EXPECT_EQ(test, rpcrdma2_decode_props(buf, 18, &p),
			RDMA2_ERR_BAD_XDR);
	KUNIT_EXPECT_EQ(test, p.present, 0U);
	KUNIT_EXPECT_EQ(test, p.rbsiz, (u32)RDMA2_PROP_RBSIZ_DEFAULT);
	/* whole rdma_which, its rdma_data length missing or past the end */
	KUNIT_EXPECT_EQ(test, rpcrdma2_decode_props(buf, 20, &p),
			RDMA2_ERR_BAD_PROPVAL);
	KUNIT_EXPECT_EQ(test, rpcrdma2_decode_props(buf, sizeof(w), &p),
			RDMA2_ERR_BAD_PROPVAL);
	KUNIT_EXPECT_EQ(test, p.present, 0U);
}

/*
 * CMP-CMPD-06, CMP-CMPD-07, CMP-CMPD-09, CMP-CMPD-10, CMP-CMPD-12,
 * CMP-CMPD-14, CMP-CMPD-16, CMP-CMPD-17: the vectors of
 * cm-private-data.md section 6.
 */
static void cmp_cmpd_vectors(struct kunit *test)
{
	const struct rr2_cmp_vector *v = rr2_cmp_vectors;
	struct rpcrdma2_cm_pdata pd;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rr2_cmp_vectors); i++) {
		KUNIT_EXPECT_EQ_MSG(test,
				    rpcrdma2_cmp_decode(v[i].in, v[i].len, &pd),
				    v[i].found, "vector %u", i);
		KUNIT_EXPECT_EQ_MSG(test, pd.remote_inv, v[i].r, "vector %u", i);
		KUNIT_EXPECT_EQ_MSG(test, pd.send_size, v[i].send, "vector %u", i);
		KUNIT_EXPECT_EQ_MSG(test, pd.recv_size, v[i].recv, "vector %u", i);
	}
}

/* CMP-CMPD-11: sizes clamp to [1 KiB, 256 KiB] and round down. */
static void cmp_cmpd_encode_clamps(struct kunit *test)
{
	struct rpcrdma2_cm_pdata pd = {
		.remote_inv = true, .send_size = 300 * 1024, .recv_size = 512,
	};
	u8 out[RPCRDMA2_CMP_SIZE];

	KUNIT_EXPECT_EQ(test, rpcrdma2_cmp_encode_size(300 * 1024), 0xff);
	KUNIT_EXPECT_EQ(test, rpcrdma2_cmp_encode_size(4096 + 1023), 3);
	KUNIT_EXPECT_EQ(test, rpcrdma2_cmp_encode_size(0), 0);
	rpcrdma2_cmp_encode(out, &pd);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(out), RPCRDMA2_CMP_MAGIC);
	KUNIT_EXPECT_EQ(test, out[4], 1);
	KUNIT_EXPECT_EQ(test, out[5], 1);	/* R, reserved bits zero */
	KUNIT_EXPECT_EQ(test, out[6], 0xff);
	KUNIT_EXPECT_EQ(test, out[7], 0);
}

/*
 * CMP-CMPD-18: the record shares the private data with another user's.
 * An iWARP MPA v2 peer in enhanced mode (RFC 6581 section 5) puts its
 * IRD/ORD word, 4 octets with the control flags in the top bits, in
 * front of the ULP's data when a provider passes it through; other
 * users may append theirs.  The record is found where it is, with its
 * values, and not at offset 0 in either buffer.
 */
static void cmp_cmpd_18_shared_private_data(struct kunit *test)
{
	static const u8 mpa_v2_ird_ord[4] = {
		0x80, 0x10,		/* IRD 16, I (peer-to-peer) */
		0x40, 0x10,		/* ORD 16, L (zero-length Write) */
	};
	static const u8 other[6] = { 'o', 't', 'h', 'e', 'r', 0 };
	struct rpcrdma2_cm_pdata pd = {
		.remote_inv = true, .send_size = 8192, .recv_size = 16384,
	}, got;
	u8 buf[4 + RPCRDMA2_CMP_SIZE + sizeof(other)];
	u32 n = 0;

	memcpy(buf, mpa_v2_ird_ord, sizeof(mpa_v2_ird_ord));
	n += sizeof(mpa_v2_ird_ord);
	rpcrdma2_cmp_encode(buf + n, &pd);
	n += RPCRDMA2_CMP_SIZE;
	memcpy(buf + n, other, sizeof(other));
	n += sizeof(other);

	KUNIT_EXPECT_TRUE(test, rpcrdma2_cmp_decode(buf, n, &got));
	KUNIT_EXPECT_TRUE(test, got.remote_inv);
	KUNIT_EXPECT_EQ(test, got.send_size, 8192);
	KUNIT_EXPECT_EQ(test, got.recv_size, 16384);

	/* the other user first and no MPA word: found one octet in */
	memset(buf, 0, sizeof(buf));
	buf[0] = 0x5a;
	pd.remote_inv = false;
	pd.send_size = 4096;
	rpcrdma2_cmp_encode(buf + 1, &pd);
	KUNIT_EXPECT_TRUE(test, rpcrdma2_cmp_decode(buf, 1 + RPCRDMA2_CMP_SIZE,
						    &got));
	KUNIT_EXPECT_FALSE(test, got.remote_inv);
	KUNIT_EXPECT_EQ(test, got.send_size, 4096);
	KUNIT_EXPECT_EQ(test, got.recv_size, 16384);
}

/*
 * XCH-XOP-01, XCH-XOP-02, XCH-XOP-06, XCH-XOP-19, XCH-XOP-23: the four
 * operations round trip.
 */
static void xch_xop_round_trip(struct kunit *test)
{
	static const u32 ops[] = { RDMA2_XCH_INITXCH, RDMA2_XCH_REQXCH,
				   RDMA2_XCH_RESPXCH, RDMA2_XCH_UPDXCH };
	struct rpcrdma2_limits lim = rr2d_lim;
	struct rpcrdma2_xch_msg m = {
		.chars = { .present = 0x7, .rbsiz = 16384, .reqreminv = true,
			   .brs = BKREQSUP_GENL },
		.pendclr = true,
	};
	struct rpcrdma2_hdr hdr;
	u8 buf[256];
	u32 i, len;

	/* element N is bit N % 32 of word N / 32, LSB first (XCH-XOP-06) */
	m.subset[0][0] = 1u << 0;
	m.subset[0][1] = 1u << 1;		/* element 33 */
	m.subset[2][0] = 0x5;
	lim.xchar = true;
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		len = rpcrdma2_encode_xch(buf, sizeof(buf), 0x77, 1, ops[i], &m);
		KUNIT_ASSERT_GT(test, len, 20U);
		KUNIT_ASSERT_EQ(test,
				rpcrdma2_decode_hdr(buf, len, 2, &lim, &hdr), 0);
		KUNIT_EXPECT_EQ(test, hdr.htype, ops[i]);
		KUNIT_EXPECT_EQ(test, hdr.xid, 0x77U);	/* XCH-XOP-19 */
		switch (ops[i]) {
		case RDMA2_XCH_INITXCH:
			KUNIT_EXPECT_EQ(test, hdr.xch.chars.present, 0x7U);
			KUNIT_EXPECT_EQ(test, hdr.xch.chars.rbsiz, 16384U);
			KUNIT_EXPECT_TRUE(test, hdr.xch.chars.reqreminv);
			KUNIT_EXPECT_EQ(test, hdr.xch.chars.brs,
					(u32)BKREQSUP_GENL);
			KUNIT_EXPECT_EQ(test, hdr.xch.subset[0][1], 2U);
			/* count 2: the trailing zero words are not sent */
			KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + len - 12),
					2U);
			break;
		case RDMA2_XCH_REQXCH:
			KUNIT_EXPECT_EQ(test, hdr.xch.chars.present, 0x7U);
			break;
		case RDMA2_XCH_RESPXCH:
			KUNIT_EXPECT_EQ(test, hdr.xch.subset[0][0], 1U);
			KUNIT_EXPECT_EQ(test, hdr.xch.subset[0][1], 2U);
			KUNIT_EXPECT_EQ(test, hdr.xch.subset[1][0], 0U);
			KUNIT_EXPECT_EQ(test, hdr.xch.subset[2][0], 5U);
			break;
		case RDMA2_XCH_UPDXCH:
			/* one xcharval: the lowest one present */
			KUNIT_EXPECT_EQ(test, hdr.xch.chars.present, 0x1U);
			KUNIT_EXPECT_EQ(test, hdr.xch.chars.rbsiz, 16384U);
			KUNIT_EXPECT_TRUE(test, hdr.xch.pendclr);
			KUNIT_EXPECT_EQ(test, len, 36U);
			break;
		}
	}
	/* not one of the four: nothing is encoded (XCH-XOP-01) */
	KUNIT_EXPECT_EQ(test, rpcrdma2_encode_xch(buf, sizeof(buf), 0, 1,
						  RDMA2_CONNPROP, &m), 0U);
}

/*
 * V2-CHUNK-12, V2-CHUNK-14, V2-CHUNK-16, V2-SEC-17 (shared/chunk.c):
 * Read segments sorted by Position, stable within one; the Call
 * rebuilt around them is the inline octets plus each chunk padded, and
 * a Position before what is rebuilt or past the inline octets, or a
 * Call larger than the room, cannot be rebuilt.  A wrapping segment is
 * BAD_XDR.
 */
static void v2_chunk_12_read_pull_len(struct kunit *test)
{
	static const struct rpcrdma2_segment s[] = {
		{ 1, 5, 0x1000 }, { 2, 3, 0x2000 }, { 3, 8, 0x3000 },
		{ 4, 16, ~0ULL - 8 },
	};
	const struct rpcrdma2_chunk_out rd[] = {
		{ 1, &s[2], 12 }, { 2, &s[0], 4 },
	};
	const struct rpcrdma2_chunk_out wrap = { 1, &s[3], 0 };
	struct rpcrdma2_msg_out m = {
		.xid = 9, .vers = RPCRDMA2_VERS_2, .htype = RDMA2_MSG,
		.nr_reads = 2, .reads = rd,
	};
	struct rpcrdma2_limits lim = { 2, 0, 2, false };
	struct rpcrdma2_segment segs[3];
	struct rpcrdma2_hdr h;
	u8 buf[256];
	u32 pos[3], n;

	n = rpcrdma2_encode_msg(buf, sizeof(buf), &m);
	KUNIT_ASSERT_NE(test, n, 0U);
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode_hdr(buf, n, 2, &lim, &h), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_read_list_sort(buf, &h, pos, segs), 0);
	KUNIT_EXPECT_EQ(test, pos[0], 4U);
	KUNIT_EXPECT_EQ(test, segs[0].handle, 1U);
	KUNIT_EXPECT_EQ(test, segs[1].handle, 2U);
	KUNIT_EXPECT_EQ(test, pos[2], 12U);
	/* 4 inline, 8 read (padded), 4 inline, 8 read, 8 inline */
	KUNIT_EXPECT_EQ(test, rpcrdma2_read_pull_len(pos, segs, 3, 16, 64),
			32U);
	KUNIT_EXPECT_EQ(test, rpcrdma2_read_pull_len(pos, segs, 3, 16, 31),
			0U);
	/* a Position past the inline octets */
	KUNIT_EXPECT_EQ(test, rpcrdma2_read_pull_len(pos, segs, 3, 2, 64),
			0U);
	/* the second chunk's Position lies inside the first */
	pos[2] = 8;
	KUNIT_EXPECT_EQ(test, rpcrdma2_read_pull_len(pos, segs, 3, 16, 64),
			0U);
	KUNIT_EXPECT_EQ(test, rpcrdma2_read_gap(8, 12, 4, 16), -EMSGSIZE);

	/* offset + length past 2^64 */
	m.reads = &wrap;
	m.nr_reads = 1;
	n = rpcrdma2_encode_msg(buf, sizeof(buf), &m);
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode_hdr(buf, n, 2, &lim, &h), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_read_list_sort(buf, &h, pos, segs),
			RDMA2_ERR_BAD_XDR);
}

/*
 * V2-CHUNK-19, V2-CHUNK-20 (shared/chunk.c): a returned Write chunk is
 * taken only with the segments offered, in order, none longer, filled
 * in order; its length is their sum.
 */
static void v2_chunk_20_returned_chunk(struct kunit *test)
{
	static const struct rpcrdma2_segment offered[] = {
		{ 7, 100, 0x1000 }, { 8, 100, 0x2000 },
	};
	struct rpcrdma2_segment back[] = {
		{ 7, 100, 0x1000 }, { 8, 20, 0x2000 },
	};
	const struct rpcrdma2_chunk_out wr = { 2, back, 0 };
	struct rpcrdma2_msg_out m = {
		.xid = 9, .vers = RPCRDMA2_VERS_2, .htype = RDMA2_MSG,
		.nr_writes = 1, .writes = &wr,
	};
	struct rpcrdma2_limits lim = { 1, 1, 8, false };
	struct rpcrdma2_hdr h;
	u8 buf[256];
	u32 n;

	n = rpcrdma2_encode_msg(buf, sizeof(buf), &m);
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode_hdr(buf, n, 2, &lim, &h), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_returned_chunk_len(buf, &h, false,
							  offered, 2), 120);
	KUNIT_EXPECT_EQ(test, rpcrdma2_returned_chunk_len(buf, &h, false,
							  offered, 1), -EIO);

	/* a short segment, then octets after it (V2-CHUNK-19) */
	back[0].length = 20;
	n = rpcrdma2_encode_msg(buf, sizeof(buf), &m);
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode_hdr(buf, n, 2, &lim, &h), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_returned_chunk_len(buf, &h, false,
							  offered, 2), -EIO);

	/* another handle (V2-CHUNK-20) */
	back[0].length = 100;
	back[1].handle = 9;
	n = rpcrdma2_encode_msg(buf, sizeof(buf), &m);
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode_hdr(buf, n, 2, &lim, &h), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_returned_chunk_len(buf, &h, false,
							  offered, 2), -EIO);
}

static struct kunit_case rr2d_cases[] = {
	KUNIT_CASE_PARAM(v2_sec_17_vectors, rr2d_vector_gen_params),
	KUNIT_CASE(v2_frame_05_msg_golden),
	KUNIT_CASE(rfc8166_msg_golden),
	KUNIT_CASE(v2_cred_08_credit_grant),
	KUNIT_CASE(v2_frame_06_reserved_flags_zero_on_send),
	KUNIT_CASE(v2_err_05_error_golden),
	KUNIT_CASE(v2_sec_01_encode_never_overruns),
	KUNIT_CASE(v2_chunk_11_round_trip),
	KUNIT_CASE(rfc8166_round_trip),
	KUNIT_CASE(rfc8166_stock_captures),
	KUNIT_CASE(v2_err_round_trip),
	KUNIT_CASE(v2_prop_08_connprop_round_trip),
	KUNIT_CASE(v2_prop_18_all_or_nothing),
	KUNIT_CASE(v2_prop_02_empty_is_default),
	KUNIT_CASE(v2_prop_19_segment_bounds),
	KUNIT_CASE(v2_frame_23_first_reply),
	KUNIT_CASE(v2_frame_07_first_reply_reserved_flags),
	KUNIT_CASE(v2_err_26_rpc_xid_ok),
	KUNIT_CASE(v2_chunk_11_interleaved_positions),
	KUNIT_CASE(v2_err_26_propset_framing),
	KUNIT_CASE(cmp_cmpd_vectors),
	KUNIT_CASE(cmp_cmpd_encode_clamps),
	KUNIT_CASE(cmp_cmpd_18_shared_private_data),
	KUNIT_CASE(xch_xop_round_trip),
	KUNIT_CASE(v2_chunk_12_read_pull_len),
	KUNIT_CASE(v2_chunk_20_returned_chunk),
	{ }
};

static struct kunit_suite rr2d_suite = {
	.name		= "rpcrdma2_codec",
	.test_cases	= rr2d_cases,
};

kunit_test_suites(&rr2d_suite);
