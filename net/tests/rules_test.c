// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rpcrdma2_rules": single mandatory rules of the header
 * codec, the seed 004 characteristics decoder and the RFC 8797 record,
 * one case per requirement, each built from its own octets (not from
 * the shared vectors of codec_vectors.h) so that the case fails when
 * that rule breaks:
 *
 *   - V2-FRAME-12: the four base header types;
 *   - V2-FRAME-13: unknown and unsupported header types;
 *   - V2-FRAME-10: RESPONSE on CONNPROP and the credit grant;
 *   - V2-CONT-07: F_MORE outside MSG and CONNPROP;
 *   - V2-CHUNK-13: Read chunk Positions;
 *   - V2-PROP-04, XCH-XOP-04: values wrong for their type;
 *   - CMP-CMPD-08, CMP-CMPD-09, CMP-CMPD-15: the RFC 8797 record.
 */

#include <kunit/test.h>
#include <linux/unaligned.h>

#include "shared/codec.h"

static const struct rpcrdma2_limits rr2u_lim = {
	.max_read_chunks	= 2,
	.max_write_chunks	= 2,
	.max_segments		= 4,
};

/* Words to a big-endian byte buffer of exactly @n words. */
static u8 *rr2u_bytes(struct kunit *test, const u32 *w, u32 n)
{
	u8 *buf = kunit_kzalloc(test, 4 * n + 4, GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < n; i++)
		put_unaligned_be32(w[i], buf + 4 * i);
	return buf;
}

static int rr2u_decode(struct kunit *test, const u32 *w, u32 n,
		       struct rpcrdma2_hdr *h)
{
	return rpcrdma2_decode_hdr(rr2u_bytes(test, w, n), 4 * n,
				   RPCRDMA2_VERS_2, &rr2u_lim, h);
}

/*
 * V2-FRAME-12: RDMA2_MSG, RDMA2_NOMSG (a Special Call: its Payload in
 * a Position-Zero Read chunk), RDMA2_ERROR and RDMA2_CONNPROP are each
 * encoded and decoded back as themselves.
 */
static void v2_frame_12_base_htypes(struct kunit *test)
{
	static const struct rpcrdma2_segment seg = {
		.handle = 0x55, .length = 4096, .offset = 0x1000,
	};
	const struct rpcrdma2_chunk_out rd = { 1, &seg, 0 };
	struct rpcrdma2_msg_out m = {
		.xid = 7, .vers = RPCRDMA2_VERS_2, .htype = RDMA2_MSG,
		.credit = rpcrdma2_credit_word(8, 8),
	};
	struct rpcrdma2_props p = { };
	struct rpcrdma2_hdr h;
	u8 buf[128];
	u32 len;

	len = rpcrdma2_encode_msg(buf, sizeof(buf), &m);
	KUNIT_ASSERT_EQ(test, len, (u32)RPCRDMA2_HDRLEN_NOCHUNKS);
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode_hdr(buf, len, 2, &rr2u_lim, &h),
			0);
	KUNIT_EXPECT_EQ(test, h.htype, (u32)RDMA2_MSG);
	KUNIT_EXPECT_EQ(test, h.xid, 7U);

	m.htype = RDMA2_NOMSG;
	m.nr_reads = 1;
	m.reads = &rd;
	len = rpcrdma2_encode_msg(buf, sizeof(buf), &m);
	KUNIT_ASSERT_NE(test, len, 0U);
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode_hdr(buf, len, 2, &rr2u_lim, &h),
			0);
	KUNIT_EXPECT_EQ(test, h.htype, (u32)RDMA2_NOMSG);
	KUNIT_EXPECT_EQ(test, h.reads.chunks, 1U);
	KUNIT_EXPECT_EQ(test, h.hdrlen, len);

	len = rpcrdma2_encode_error(buf, sizeof(buf), 2, 7, RPCRDMA2_VERS_2,
				    rpcrdma2_credit_word(8, 8),
				    RDMA2_ERR_BAD_XDR, 0, 0);
	KUNIT_ASSERT_NE(test, len, 0U);
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode_hdr(buf, len, 2, &rr2u_lim, &h),
			0);
	KUNIT_EXPECT_EQ(test, h.htype, (u32)RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.err, (u32)RDMA2_ERR_BAD_XDR);

	len = rpcrdma2_encode_connprop(buf, sizeof(buf),
				       rpcrdma2_credit_word(8, 8), 0, &p, NULL);
	KUNIT_ASSERT_NE(test, len, 0U);
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode_hdr(buf, len, 2, &rr2u_lim, &h),
			0);
	KUNIT_EXPECT_EQ(test, h.htype, (u32)RDMA2_CONNPROP);
}

/*
 * V2-FRAME-13, V2-ERR-17: a Version 2 header whose htype is not one we
 * take (v1's MSGP 2 and DONE 3, an unassigned 6, 0x77, a seed 004
 * operation while the exchange is off) is rejected with INVAL_HTYPE,
 * and the xid and version to answer with are kept.
 */
static void v2_frame_13_unknown_htype(struct kunit *test)
{
	static const u32 htypes[] = {
		2, 3, 6, 0x77, RDMA2_XCH_INITXCH, RDMA2_XCH_REQXCH,
	};
	struct rpcrdma2_hdr h;
	u32 w[9] = { 0x1234, RPCRDMA2_VERS_2, 0x00080008, 0, 0 };
	u32 i;

	for (i = 0; i < ARRAY_SIZE(htypes); i++) {
		w[3] = htypes[i];
		KUNIT_EXPECT_EQ_MSG(test, rr2u_decode(test, w, 9, &h),
				    RDMA2_ERR_INVAL_HTYPE, "htype %#x",
				    htypes[i]);
		KUNIT_EXPECT_EQ(test, h.xid, 0x1234U);
		KUNIT_EXPECT_EQ(test, h.vers, (u32)RPCRDMA2_VERS_2);
	}
	/* and the same octets with a known htype are taken */
	w[3] = RDMA2_MSG;
	KUNIT_EXPECT_EQ(test, rr2u_decode(test, w, 9, &h), 0);
}

/*
 * V2-FRAME-10: CONNPROP and the credit grant carry no RPC payload and
 * go out with RESPONSE clear; a receiver ignores the flag on them (a
 * grant with RESPONSE set is still a grant, a CONNPROP still decodes).
 */
static void v2_frame_10_response_without_payload(struct kunit *test)
{
	struct rpcrdma2_props p = { };
	struct rpcrdma2_hdr h;
	u8 buf[64];
	u32 len;

	len = rpcrdma2_encode_credit_grant(buf, sizeof(buf),
					   rpcrdma2_credit_word(16, 64));
	KUNIT_ASSERT_NE(test, len, 0U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + 16) &
			RDMA2_F_RESPONSE, 0U);
	put_unaligned_be32(RDMA2_F_RESPONSE, buf + 16);
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode_hdr(buf, len, 2, &rr2u_lim, &h),
			0);
	KUNIT_EXPECT_TRUE(test, rpcrdma2_is_credit_grant(&h));

	len = rpcrdma2_encode_connprop(buf, sizeof(buf),
				       rpcrdma2_credit_word(8, 8), 0, &p, NULL);
	KUNIT_ASSERT_NE(test, len, 0U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + 16) &
			RDMA2_F_RESPONSE, 0U);
	put_unaligned_be32(RDMA2_F_RESPONSE, buf + 16);
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode_hdr(buf, len, 2, &rr2u_lim, &h),
			0);
	KUNIT_EXPECT_EQ(test, h.htype, (u32)RDMA2_CONNPROP);
}

/*
 * V2-CONT-07: F_MORE is taken on MSG and CONNPROP only.  A NOMSG with
 * F_MORE draws INVAL_CONT; an RDMA2_ERROR with F_MORE is dropped (an
 * error is never answered with an error).
 */
static void v2_cont_07_more_only_on_msg(struct kunit *test)
{
	/* 1234 NOMSG MORE: a Position-Zero Read chunk, as a Special Call */
	static const u32 nomsg[] = {
		0x1234, RPCRDMA2_VERS_2, 0x00080008, RDMA2_NOMSG, RDMA2_F_MORE,
		0, 1, 0, 0x55, 64, 0, 0x1000, 0, 0, 0,
	};
	static const u32 error[] = {
		0x1234, RPCRDMA2_VERS_2, 0x00080008, RDMA2_ERROR,
		RDMA2_F_RESPONSE | RDMA2_F_MORE, RDMA2_ERR_BAD_XDR,
	};
	static const u32 msg[] = {
		0x1234, RPCRDMA2_VERS_2, 0x00080008, RDMA2_MSG, RDMA2_F_MORE,
		0, 0, 0, 0, 0x1234,
	};
	struct rpcrdma2_hdr h;
	u32 w[ARRAY_SIZE(nomsg)];

	KUNIT_EXPECT_EQ(test, rr2u_decode(test, nomsg, ARRAY_SIZE(nomsg), &h),
			RDMA2_ERR_INVAL_CONT);
	KUNIT_EXPECT_EQ(test, h.xid, 0x1234U);
	/* without F_MORE the same Special Call is taken */
	memcpy(w, nomsg, sizeof(w));
	w[4] = 0;
	KUNIT_EXPECT_EQ(test, rr2u_decode(test, w, ARRAY_SIZE(w), &h), 0);
	KUNIT_EXPECT_EQ(test, rr2u_decode(test, error, ARRAY_SIZE(error), &h),
			RPCRDMA2_DROP);
	KUNIT_EXPECT_EQ(test, rr2u_decode(test, msg, ARRAY_SIZE(msg), &h), 0);
	KUNIT_EXPECT_TRUE(test, h.flags & RDMA2_F_MORE);
}

/*
 * V2-CHUNK-13: a Read segment's Position is a multiple of 4 (else
 * BAD_XDR), and segments of one chunk share a Position even when their
 * lengths are odd: two segments at Position 8 are one chunk.
 */
static void v2_chunk_13_position_multiple_of_4(struct kunit *test)
{
	u32 w[] = {
		0x99, RPCRDMA2_VERS_2, 0x00080008, RDMA2_MSG, 0, 0,
		1, 8, 0x51, 5, 0, 0x1000,
		1, 8, 0x52, 3, 0, 0x2000,
		0, 0, 0,
		0x99, 0, 0,
	};
	struct rpcrdma2_hdr h;
	u32 pos;

	KUNIT_ASSERT_EQ(test, rr2u_decode(test, w, ARRAY_SIZE(w), &h), 0);
	KUNIT_EXPECT_EQ(test, h.reads.chunks, 1U);
	KUNIT_EXPECT_EQ(test, h.reads.segments, 2U);
	w[7] = 6;
	KUNIT_EXPECT_EQ(test, rr2u_decode(test, w, ARRAY_SIZE(w), &h),
			RDMA2_ERR_BAD_XDR);
	w[7] = 8;
	for (pos = 9; pos <= 11; pos++) {
		w[13] = pos;
		KUNIT_EXPECT_EQ_MSG(test,
				    rr2u_decode(test, w, ARRAY_SIZE(w), &h),
				    RDMA2_ERR_BAD_XDR, "position %u", pos);
	}
}

/*
 * V2-PROP-04: a known property whose rdma_data is too short, too long
 * or out of its type's range is BAD_PROPVAL; an unknown one is skipped.
 */
static void v2_prop_04_value_wrong_for_type(struct kunit *test)
{
	static const struct {
		u32	w[5];
		u32	n;
		int	verdict;
	} v[] = {
		{ { 1, RDMA2_PROPID_RBSIZ, 4, 8192 }, 4, 0 },
		{ { 1, RDMA2_PROPID_RBSIZ, 2, 0x20000000 }, 4,
		  RDMA2_ERR_BAD_PROPVAL },
		{ { 1, RDMA2_PROPID_SBSIZ, 8, 8192, 0 }, 5,
		  RDMA2_ERR_BAD_PROPVAL },
		{ { 1, RDMA2_PROPID_BRS, 4, RDMA2_RVRSDIR_GENL + 1 }, 4,
		  RDMA2_ERR_BAD_PROPVAL },
		{ { 1, 0x4242, 2, 0 }, 4, 0 },
	};
	struct rpcrdma2_props p;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(v); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    rpcrdma2_decode_props(rr2u_bytes(test,
								     v[i].w,
								     v[i].n),
							  4 * v[i].n, &p),
				    v[i].verdict, "case %u", i);
}

/*
 * XCH-XOP-04: a known characteristic whose xchv_data is not the size
 * of its type, or a value its type does not have, is an XDR error.
 */
static void xch_xop_04_value_wrong_for_type(struct kunit *test)
{
	static const struct {
		u32	w[4];
		int	verdict;
	} v[] = {
		{ { XCHAR_RBSIZ, 4, 8192, 0 }, 0 },
		{ { XCHAR_RBSIZ, 2, 0x20000000, 0 }, RDMA2_ERR_BAD_XDR },
		{ { XCHAR_REQREMINV, 4, 2, 0 }, RDMA2_ERR_BAD_XDR },
		{ { XCHAR_BRS, 4, BKREQSUP_GENL + 1, 0 }, RDMA2_ERR_BAD_XDR },
		{ { XCHAR_BRS, 4, BKREQSUP_GENL, 0 }, 0 },
	};
	struct rpcrdma2_xch_msg m;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(v); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    rpcrdma2_decode_xch(rr2u_bytes(test, v[i].w,
								   4),
							16, RDMA2_XCH_UPDXCH,
							&m),
				    v[i].verdict, "case %u", i);
}

/* CMP-CMPD-08: the record we send has octet 5's reserved bits zero. */
static void cmp_cmpd_08_reserved_bits_zero(struct kunit *test)
{
	struct rpcrdma2_cm_pdata pd = {
		.remote_inv = true, .send_size = 4096, .recv_size = 8192,
	};
	u8 out[RPCRDMA2_CMP_SIZE];

	memset(out, 0xff, sizeof(out));
	rpcrdma2_cmp_encode(out, &pd);
	KUNIT_EXPECT_EQ(test, out[5], (u8)RPCRDMA2_CMP_F_REMOTE_INV);
	pd.remote_inv = false;
	memset(out, 0xff, sizeof(out));
	rpcrdma2_cmp_encode(out, &pd);
	KUNIT_EXPECT_EQ(test, out[5], 0);
}

/* CMP-CMPD-09: the receiver ignores octet 5's reserved bits. */
static void cmp_cmpd_09_reserved_bits_ignored(struct kunit *test)
{
	u8 rec[RPCRDMA2_CMP_SIZE] = { 0xf6, 0xab, 0x0e, 0x18, 1, 0xfe, 3, 7 };
	struct rpcrdma2_cm_pdata pd;

	KUNIT_ASSERT_TRUE(test, rpcrdma2_cmp_decode(rec, sizeof(rec), &pd));
	KUNIT_EXPECT_FALSE(test, pd.remote_inv);
	KUNIT_EXPECT_EQ(test, pd.send_size, 4096U);
	KUNIT_EXPECT_EQ(test, pd.recv_size, 8192U);
	rec[5] = 0xff;
	KUNIT_ASSERT_TRUE(test, rpcrdma2_cmp_decode(rec, sizeof(rec), &pd));
	KUNIT_EXPECT_TRUE(test, pd.remote_inv);
	KUNIT_EXPECT_EQ(test, pd.send_size, 4096U);
}

/*
 * CMP-CMPD-15: private data without the Format Identifier anywhere is
 * no record: R = 0 and 1024/1024, as with no private data at all.
 */
static void cmp_cmpd_15_no_identifier(struct kunit *test)
{
	u8 buf[56];
	struct rpcrdma2_cm_pdata pd = {
		.remote_inv = true, .send_size = 1, .recv_size = 1,
	};
	u32 i;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (u8)(i * 37 + 1);
	/* the identifier with its last octet wrong */
	buf[10] = 0xf6;
	buf[11] = 0xab;
	buf[12] = 0x0e;
	buf[13] = 0x19;
	KUNIT_EXPECT_FALSE(test, rpcrdma2_cmp_decode(buf, sizeof(buf), &pd));
	KUNIT_EXPECT_FALSE(test, pd.remote_inv);
	KUNIT_EXPECT_EQ(test, pd.send_size, (u32)RPCRDMA2_CMP_MIN_BUF);
	KUNIT_EXPECT_EQ(test, pd.recv_size, (u32)RPCRDMA2_CMP_MIN_BUF);
	KUNIT_EXPECT_FALSE(test, rpcrdma2_cmp_decode(NULL, 0, &pd));
	KUNIT_EXPECT_EQ(test, pd.send_size, (u32)RPCRDMA2_CMP_MIN_BUF);
	/* the same bytes with the identifier whole: found, off offset 0 */
	buf[13] = 0x18;
	buf[14] = RPCRDMA2_CMP_VERSION;
	KUNIT_EXPECT_TRUE(test, rpcrdma2_cmp_decode(buf, sizeof(buf), &pd));
}

static struct kunit_case rr2u_cases[] = {
	KUNIT_CASE(v2_frame_12_base_htypes),
	KUNIT_CASE(v2_frame_13_unknown_htype),
	KUNIT_CASE(v2_frame_10_response_without_payload),
	KUNIT_CASE(v2_cont_07_more_only_on_msg),
	KUNIT_CASE(v2_chunk_13_position_multiple_of_4),
	KUNIT_CASE(v2_prop_04_value_wrong_for_type),
	KUNIT_CASE(xch_xop_04_value_wrong_for_type),
	KUNIT_CASE(cmp_cmpd_08_reserved_bits_zero),
	KUNIT_CASE(cmp_cmpd_09_reserved_bits_ignored),
	KUNIT_CASE(cmp_cmpd_15_no_identifier),
	{}
};

static struct kunit_suite rr2u_suite = {
	.name = "rpcrdma2_rules",
	.test_cases = rr2u_cases,
};

kunit_test_suites(&rr2u_suite);
