// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seed 004 (draft-dnoveck-nfsv4-rpcrdma-xcharext-02) characteristic
 * operations, as an opt-in experimental extension of Version 2.
 *
 * Seed 001 superseded this draft with RDMA2_CONNPROP, and its ROPT_*
 * codes collide with seed 001 header types (XCH-XOP-01), so the operations
 * are carried on header types 0xFFFFFF01-04 from the experimental range
 * and are decoded only when the caller sets rpcrdma2_limits.xchar.  A
 * peer that has not opted in answers them with RDMA2_ERR_INVAL_HTYPE
 * (XCH-XOP-11).  Part of the codec: pure, no transport state.
 *
 * Called by: codec.c (decode), the transport (encode), KUnit, fuzzing.
 */

#include <linux/kernel.h>
#include <linux/string.h>

#include "shared/codec.h"
#include "shared/xdr.h"

bool rpcrdma2_xch_htype(u32 htype)
{
	return htype >= RDMA2_XCH_INITXCH && htype <= RDMA2_XCH_UPDXCH;
}

static void xchars_default(struct rpcrdma2_xchars *c)
{
	memset(c, 0, sizeof(*c));
	c->rbsiz = XCHAR_RBSIZ_DEFAULT;
	c->brs = BKREQSUP_INLINE;		/* XCH-XOP-07 */
}

/*
 * One xcharval, element @pos of its xcharspec; unknown ids are skipped
 * (XCH-XOP-05, XCH-XOP-26).
 */
static int decode_xcharval(struct rr2_rd *r, struct rpcrdma2_xchars *c,
			   u32 pos)
{
	const u8 *data;
	u32 which, dlen, v;

	if (!rd_u32(r, &which) || !rd_opaque(r, &data, &dlen))
		return RDMA2_ERR_BAD_XDR;		/* XCH-XOP-03 */
	if (which < XCHAR_RBSIZ || which > XCHAR_BRS) {
		c->unknown++;
		return 0;
	}
	if (dlen != 4)					/* XCH-XOP-04 */
		return RDMA2_ERR_BAD_XDR;
	v = get_unaligned_be32(data);
	switch (which) {
	case XCHAR_RBSIZ:
		c->rbsiz = v;
		break;
	case XCHAR_REQREMINV:
		if (v > 1)				/* XDR bool */
			return RDMA2_ERR_BAD_XDR;
		c->reqreminv = v;
		break;
	case XCHAR_BRS:
		if (v > BKREQSUP_GENL)
			return RDMA2_ERR_BAD_XDR;
		c->brs = v;
		break;
	}
	c->present |= 1u << (which - 1);
	c->pos[which - 1] = pos;
	return 0;
}

/*
 * An xcharspec of at most @max elements: a REQXCH's is answered by a
 * RESPXCH whose subsets must cover every element (XCH-XOP-21), so it
 * may not hold more than those can name.
 */
static int decode_xcharspec(struct rr2_rd *r, struct rpcrdma2_xchars *c,
			    u32 max)
{
	u32 count, i;
	int ret;

	if (!rd_u32(r, &count) || count > rd_left(r) / 8 || count > max)
		return RDMA2_ERR_BAD_XDR;
	c->count = count;
	for (i = 0; i < count; i++) {
		ret = decode_xcharval(r, c, i);
		if (ret)
			return ret;
	}
	return 0;
}

/* xcharsubset: uint32<>, LSB-0 bit order (XCH-XOP-06), capped. */
static int decode_subset(struct rr2_rd *r, u32 *words)
{
	u32 count, i;

	if (!rd_u32(r, &count) || count > RPCRDMA2_XCH_SUBSET_WORDS)
		return RDMA2_ERR_BAD_XDR;
	for (i = 0; i < count; i++)
		if (!rd_u32(r, &words[i]))
			return RDMA2_ERR_BAD_XDR;
	return 0;
}

/**
 * rpcrdma2_decode_xch - decode the body of an RDMA2_XCH_* message
 * @buf: the body (after the 20-octet prefix)
 * @len: its length
 * @htype: which operation
 * @m: filled in
 *
 * Returns 0 or RDMA2_ERR_BAD_XDR.
 */
int rpcrdma2_decode_xch(const void *buf, u32 len, u32 htype,
			struct rpcrdma2_xch_msg *m)
{
	struct rr2_rd r = { .base = buf, .len = len };
	u32 pendclr;
	int ret, i;

	memset(m, 0, sizeof(*m));
	xchars_default(&m->chars);
	switch (htype) {
	case RDMA2_XCH_INITXCH:
		ret = decode_xcharspec(&r, &m->chars, ~0U);
		if (!ret)
			ret = decode_subset(&r, m->subset[0]);
		return ret;
	case RDMA2_XCH_REQXCH:
		return decode_xcharspec(&r, &m->chars,
					32 * RPCRDMA2_XCH_SUBSET_WORDS);
	case RDMA2_XCH_RESPXCH:
		for (i = 0; i < 3; i++) {
			ret = decode_subset(&r, m->subset[i]);
			if (ret)
				return ret;
		}
		return 0;
	case RDMA2_XCH_UPDXCH:			/* XCH-XOP-23 */
		ret = decode_xcharval(&r, &m->chars, 0);
		if (ret)
			return ret;
		if (!rd_u32(&r, &pendclr) || pendclr > 1)
			return RDMA2_ERR_BAD_XDR;
		m->pendclr = pendclr;
		return 0;
	}
	return RDMA2_ERR_INVAL_HTYPE;
}

static void wr_xcharval(struct rr2_wr *w, u32 which, u32 val)
{
	wr_u32(w, which);
	wr_u32(w, 4);
	wr_u32(w, val);
}

static void wr_xcharspec(struct rr2_wr *w, const struct rpcrdma2_xchars *c,
			 bool just_one)
{
	const u32 vals[] = { c->rbsiz, c->reqreminv, c->brs };
	u32 i, count = 0;

	for (i = 0; i < ARRAY_SIZE(vals); i++)
		count += !!(c->present & (1u << i));
	if (!just_one)
		wr_u32(w, count);
	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		if (!(c->present & (1u << i)))
			continue;
		wr_xcharval(w, i + 1, vals[i]);
		if (just_one)
			return;
	}
}

/* Trailing zero words are not sent (XCH-XOP-06: missing words are 0). */
static void wr_subset(struct rr2_wr *w, const u32 *words)
{
	u32 n = RPCRDMA2_XCH_SUBSET_WORDS, i;

	while (n && !words[n - 1])
		n--;
	wr_u32(w, n);
	for (i = 0; i < n; i++)
		wr_u32(w, words[i]);
}

/**
 * rpcrdma2_encode_xch - encode an RDMA2_XCH_* message
 * @buf: output
 * @size: octets available
 * @xid: for RESPXCH, the REQXCH's xid (XCH-XOP-19)
 * @credit: credit word
 * @htype: which operation
 * @m: the body; UPDXCH sends the lowest characteristic in @m->chars
 *
 * Returns the length, or 0 if it does not fit or @htype is not one of
 * the four.
 */
u32 rpcrdma2_encode_xch(void *buf, u32 size, u32 xid, u32 credit, u32 htype,
			const struct rpcrdma2_xch_msg *m)
{
	struct rr2_wr w = { .base = buf, .size = size };
	int i;

	if (!rpcrdma2_xch_htype(htype))
		return 0;
	wr_u32(&w, xid);
	wr_u32(&w, RPCRDMA2_VERS_2);
	wr_u32(&w, credit);
	wr_u32(&w, htype);
	wr_u32(&w, 0);					/* no RPC payload */
	switch (htype) {
	case RDMA2_XCH_INITXCH:
		wr_xcharspec(&w, &m->chars, false);
		wr_subset(&w, m->subset[0]);
		break;
	case RDMA2_XCH_REQXCH:
		wr_xcharspec(&w, &m->chars, false);
		break;
	case RDMA2_XCH_RESPXCH:
		for (i = 0; i < 3; i++)
			wr_subset(&w, m->subset[i]);
		break;
	case RDMA2_XCH_UPDXCH:
		if (!m->chars.present)
			return 0;
		wr_xcharspec(&w, &m->chars, true);
		wr_u32(&w, m->pendclr);
		break;
	}
	return wr_done(&w);
}
