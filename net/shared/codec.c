// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 header codec.  See codec.h for the contract.
 *
 * Decoding works on a reader that knows how many octets were received;
 * every read is checked against that count first, so no path can read
 * past the buffer whatever the peer sends.  Counts taken from the wire
 * are checked against the octets left before anything is multiplied by
 * them, and against the caller's limits before they are accepted.
 *
 * Order of checks (V2-FRAME-22): rdma_vers first, then rdma_htype, then
 * the flags, then the body.  A problem found in a received RDMA2_ERROR
 * or RDMA_ERROR is never answered with another error: such messages are
 * dropped, so two peers cannot ping-pong errors.
 *
 * Called by: the client and server halves, KUnit, the fuzz targets.
 * Calls: nothing but byte-order helpers.
 */

#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include "shared/codec.h"
#include "shared/xdr.h"

/* ---- chunk lists (same layout in both versions) --------------------- */

#define RR2_SEG_SIZE		16	/* handle, length, offset */

/* An XDR optional-data discriminator: only 0 and 1 (V2-ERR-26). */
static int rd_present(struct rr2_rd *r, bool *present)
{
	u32 disc;

	if (!rd_u32(r, &disc) || disc > 1)
		return RDMA2_ERR_BAD_XDR;
	*present = disc;
	return 0;
}

#define RR2_READ_ITEM		24	/* discriminator, position, segment */

/*
 * Items among the first @n of the Read list at @list whose Position is
 * @pos.  The caller bounds @n by its caps, so the scan is short.
 */
static u32 read_list_same_pos(const u8 *list, u32 n, u32 pos)
{
	u32 i, same = 0;

	for (i = 0; i < n; i++)
		same += get_unaligned_be32(list + i * RR2_READ_ITEM + 4) == pos;
	return same;
}

/*
 * Read list: an optional-data list of (position, segment).  Segments
 * with the same Position form one chunk wherever they appear in the
 * list (V2-CHUNK-11), so the chunk count is the number of distinct
 * positions and a chunk's segments are all the items with its
 * Position.  The caps bound the list to max_read_chunks * max_segments
 * items before the next one is looked at, so the quadratic scan over
 * the items already seen stays small and needs no memory.
 */
static int decode_read_list(struct rr2_rd *r, const struct rpcrdma2_limits *lim,
			    struct rpcrdma2_hdr *hdr)
{
	struct rpcrdma2_chunk_list *l = &hdr->reads;
	bool present;
	u32 pos, same;

	l->offset = r->pos;
	for (;;) {
		if (rd_present(r, &present))
			return RDMA2_ERR_BAD_XDR;
		if (!present)
			return 0;
		if (!rd_u32(r, &pos) || !rd_skip(r, RR2_SEG_SIZE))
			return RDMA2_ERR_BAD_XDR;
		if (pos & 3)			/* V2-CHUNK-13 */
			return RDMA2_ERR_BAD_XDR;
		same = read_list_same_pos(r->base + l->offset, l->segments,
					  pos);
		if (!same)			/* a new Position: V2-CHUNK-11 */
			l->chunks++;
		l->segments++;
		/*
		 * The chunk cap first: a Responder that takes no Read chunk
		 * at all says READ_CHUNKS(0) (V2-ERR-33), not that the
		 * chunk's one segment is too many.
		 */
		if (l->chunks > lim->max_read_chunks) {	/* V2-ERR-32 */
			hdr->reject_arg = lim->max_read_chunks;
			return RDMA2_ERR_READ_CHUNKS;
		}
		if (same + 1 > lim->max_segments) {	/* V2-ERR-38 */
			hdr->reject_arg = lim->max_segments;
			return RDMA2_ERR_SEGMENTS;
		}
	}
}

/* One write chunk: a counted array of segments (V2-CHUNK-17). */
static int decode_write_chunk(struct rr2_rd *r, const struct rpcrdma2_limits *lim,
			      struct rpcrdma2_hdr *hdr, u32 *nsegs)
{
	u32 count;

	if (!rd_u32(r, &count))
		return RDMA2_ERR_BAD_XDR;
	/* the count must fit the octets left before it is used */
	if (count > rd_left(r) / RR2_SEG_SIZE)
		return RDMA2_ERR_BAD_XDR;
	if (count > lim->max_segments) {		/* V2-ERR-38 */
		hdr->reject_arg = lim->max_segments;
		return RDMA2_ERR_SEGMENTS;
	}
	rd_skip(r, count * RR2_SEG_SIZE);
	*nsegs = count;
	return 0;
}

static int decode_write_list(struct rr2_rd *r, const struct rpcrdma2_limits *lim,
			     struct rpcrdma2_hdr *hdr)
{
	struct rpcrdma2_chunk_list *l = &hdr->writes;
	bool present;
	u32 nsegs;
	int ret;

	l->offset = r->pos;
	for (;;) {
		if (rd_present(r, &present))
			return RDMA2_ERR_BAD_XDR;
		if (!present)
			return 0;
		if (++l->chunks > lim->max_write_chunks) {	/* V2-ERR-35 */
			hdr->reject_arg = lim->max_write_chunks;
			return RDMA2_ERR_WRITE_CHUNKS;
		}
		ret = decode_write_chunk(r, lim, hdr, &nsegs);
		if (ret)
			return ret;
		l->segments += nsegs;
	}
}

static int decode_reply_chunk(struct rr2_rd *r, const struct rpcrdma2_limits *lim,
			      struct rpcrdma2_hdr *hdr)
{
	struct rpcrdma2_chunk_list *l = &hdr->reply;
	bool present;
	u32 nsegs;
	int ret;

	l->offset = r->pos;
	if (rd_present(r, &present))
		return RDMA2_ERR_BAD_XDR;
	if (!present)
		return 0;
	if (lim->no_reply_chunk) {			/* V2-RDIR-15 */
		hdr->reject_arg = 0;
		return RDMA2_ERR_REPLY_RESOURCE;
	}
	ret = decode_write_chunk(r, lim, hdr, &nsegs);
	if (ret)
		return ret;
	l->chunks = 1;
	l->segments = nsegs;
	return 0;
}

static int decode_chunk_lists(struct rr2_rd *r,
			      const struct rpcrdma2_limits *lim,
			      struct rpcrdma2_hdr *hdr)
{
	int ret;

	ret = decode_read_list(r, lim, hdr);
	if (!ret)
		ret = decode_write_list(r, lim, hdr);
	if (!ret)
		ret = decode_reply_chunk(r, lim, hdr);
	return ret;
}

bool rpcrdma2_hdr_has_chunks(const struct rpcrdma2_hdr *hdr)
{
	return hdr->reads.chunks || hdr->writes.chunks || hdr->reply.chunks;
}

/* ---- properties ----------------------------------------------------- */

static void props_default(struct rpcrdma2_props *p)
{
	memset(p, 0, sizeof(*p));
	p->sbsiz = RDMA2_PROP_SBSIZ_DEFAULT;
	p->rbsiz = RDMA2_PROP_RBSIZ_DEFAULT;
	p->rssiz = RDMA2_PROP_RSSIZ_DEFAULT;
	p->rcsiz = RDMA2_PROP_RCSIZ_DEFAULT;
	p->brs = RDMA2_RVRSDIR_NONE;
}

/* A uint32-typed property: empty means default (V2-PROP-02). */
static int prop_u32(const u8 *data, u32 dlen, u32 *val, u32 def)
{
	if (dlen == 0) {
		*val = def;
		return 0;
	}
	if (dlen != 4)				/* V2-PROP-04 */
		return RDMA2_ERR_BAD_PROPVAL;
	*val = get_unaligned_be32(data);
	return 0;
}

/*
 * One propval (V2-PROP-01).  Which failures are which: the propset's
 * count and each rdma_which belong to the transport stream, so a
 * message that ends inside them cannot be parsed at all and draws
 * BAD_XDR (V2-ERR-26).  Once rdma_which is whole, anything wrong with
 * rdma_data (its length word missing, its length running past the end,
 * V2-PROP-03; a value wrong for the property's type, V2-PROP-04) is a
 * bad property value and draws BAD_PROPVAL (V2-ERR-29).
 */
static int decode_propval(struct rr2_rd *r, struct rpcrdma2_props *props)
{
	static const u32 defaults[] = {
		RDMA2_PROP_SBSIZ_DEFAULT, RDMA2_PROP_RBSIZ_DEFAULT,
		RDMA2_PROP_RSSIZ_DEFAULT, RDMA2_PROP_RCSIZ_DEFAULT,
		RDMA2_RVRSDIR_NONE,
	};
	u32 *const fields[] = {		/* indexed by propid - 1 */
		&props->sbsiz, &props->rbsiz, &props->rssiz, &props->rcsiz,
		&props->brs,
	};
	const u8 *data;
	u32 which, dlen;
	int ret;

	if (!rd_u32(r, &which))
		return RDMA2_ERR_BAD_XDR;		/* V2-ERR-26 */
	if (!rd_opaque(r, &data, &dlen))
		return RDMA2_ERR_BAD_PROPVAL;		/* V2-PROP-03 */

	switch (which) {
	case RDMA2_PROPID_SBSIZ ... RDMA2_PROPID_BRS:
		ret = prop_u32(data, dlen, fields[which - 1],
			       defaults[which - 1]);
		if (ret)
			return ret;
		if (which == RDMA2_PROPID_BRS &&
		    props->brs > RDMA2_RVRSDIR_GENL)
			return RDMA2_ERR_BAD_PROPVAL;	/* V2-PROP-04 */
		/*
		 * V2-PROP-19: a segment smaller than a page, or no
		 * segments at all, is not believed: the default stands
		 * (RBSIZ is bounded where thresholds are set, nego.c)
		 */
		if (which == RDMA2_PROPID_RSSIZ &&
		    props->rssiz < RPCRDMA2_MIN_RSSIZ)
			props->rssiz = RDMA2_PROP_RSSIZ_DEFAULT;
		if (which == RDMA2_PROPID_RCSIZ && !props->rcsiz)
			props->rcsiz = RDMA2_PROP_RCSIZ_DEFAULT;
		break;
	case RDMA2_PROPID_HOSTAUTH:
		props->hostauth_offset = data - r->base;
		props->hostauth_len = dlen;
		break;
	default:
		props->unknown++;			/* V2-PROP-05 */
		return 0;
	}
	props->present |= 1u << (which - 1);
	return 0;
}

/**
 * rpcrdma2_decode_props - decode an rpcrdma2_propset
 * @buf: the propset (the body of a CONNPROP, or a reassembled one)
 * @len: octets in @buf
 * @props: filled in; defaults for what is absent
 *
 * Unknown properties are skipped (V2-PROP-05, V2-PROP-15, V2-PROP-17).
 * Returns 0, RDMA2_ERR_BAD_XDR when the count or an rdma_which is cut
 * short (V2-ERR-26), or RDMA2_ERR_BAD_PROPVAL for a bad rdma_data
 * (V2-PROP-03, V2-PROP-04); the first failure in the stream decides.
 * All or nothing: on an error, @props holds only defaults and the
 * caller applies none of the message's properties (V2-PROP-18).
 *
 * Every propval that is read takes at least 8 octets, so the loop ends
 * within @len / 8 rounds whatever the count says (V2-SEC-17).
 */
int rpcrdma2_decode_props(const void *buf, u32 len,
			  struct rpcrdma2_props *props)
{
	struct rr2_rd r = { .base = buf, .len = len };
	u32 count, i;
	int ret = 0;

	props_default(props);
	if (!rd_u32(&r, &count))
		return RDMA2_ERR_BAD_XDR;		/* V2-ERR-26 */
	for (i = 0; i < count && !ret; i++)
		ret = decode_propval(&r, props);
	if (ret)
		props_default(props);
	return ret;
}

/* ---- Version 2 ------------------------------------------------------ */

/*
 * Words in the body of error @err after the code itself, in the
 * @layout version's error union (rpcrdma2.x, rpcrdma1.x).  Void codes
 * and unknown ones (V2-ERR-06: the receiver discards those) have none.
 */
static u32 err_nargs(u32 layout, u32 err)
{
	if (err == RDMA2_ERR_VERS)		/* ERR_VERS in both versions */
		return 2;
	if (layout == RPCRDMA2_VERS_1)
		return 0;
	switch (err) {
	case RDMA2_ERR_WRITE_RESOURCE:
		return 2;
	case RDMA2_ERR_READ_CHUNKS:
	case RDMA2_ERR_WRITE_CHUNKS:
	case RDMA2_ERR_SEGMENTS:
	case RDMA2_ERR_REPLY_RESOURCE:
		return 1;
	default:
		return 0;
	}
}

/* The rdma_err codes of the @layout version's error union. */
static bool err_known(u32 layout, u32 err)
{
	if (layout == RPCRDMA2_VERS_1)
		return err == ERR_VERS || err == ERR_CHUNK;
	return (err >= RDMA2_ERR_VERS && err <= RDMA2_ERR_REPLY_RESOURCE) ||
	       err == RDMA2_ERR_SYSTEM;
}

static int decode_v2_error(struct rr2_rd *r, struct rpcrdma2_hdr *hdr)
{
	u32 nargs, i;

	if (!rd_u32(r, &hdr->err))
		return RPCRDMA2_DROP;
	if (!err_known(RPCRDMA2_VERS_2, hdr->err))
		return RPCRDMA2_DROP;			/* V2-ERR-06 */
	nargs = err_nargs(RPCRDMA2_VERS_2, hdr->err);
	for (i = 0; i < nargs; i++)
		if (!rd_u32(r, &hdr->err_arg[i]))
			return RPCRDMA2_DROP;
	return 0;
}

static int decode_v2(struct rr2_rd *r, const struct rpcrdma2_limits *lim,
		     struct rpcrdma2_hdr *hdr)
{
	int ret;

	if (!rd_u32(r, &hdr->flags))
		return RPCRDMA2_DROP;			/* V2-ERR-01 */
	/* reserved flag bits are ignored (V2-FRAME-07) */

	switch (hdr->htype) {
	case RDMA2_ERROR:
		/*
		 * Never answer an error with an error.  Reserved flag bits
		 * are ignored here too (V2-FRAME-07, erratum E-02); the defined
		 * continuation flags make no sense on an error.
		 */
		if (hdr->flags & (RDMA2_F_MORE | RDMA2_F_TPMORE))
			return RPCRDMA2_DROP;
		ret = decode_v2_error(r, hdr);
		break;
	case RDMA2_MSG:
	case RDMA2_NOMSG:
		if (hdr->flags & RDMA2_F_TPMORE)	/* V2-PROP-12 */
			return RDMA2_ERR_INVAL_HTYPE;
		if (hdr->htype == RDMA2_NOMSG &&
		    (hdr->flags & RDMA2_F_MORE))	/* V2-CONT-07 */
			return RDMA2_ERR_INVAL_CONT;
		if (!rd_u32(r, &hdr->inv_handle))
			return RDMA2_ERR_BAD_XDR;
		ret = decode_chunk_lists(r, lim, hdr);
		if (ret)
			return ret;
		if ((hdr->flags & RDMA2_F_MORE) &&
		    rpcrdma2_hdr_has_chunks(hdr))	/* V2-CONT-08 */
			return RDMA2_ERR_INVAL_CONT;
		/* V2-SPEC-11: only the credit grant may be an empty NOMSG */
		if (hdr->htype == RDMA2_NOMSG && !rpcrdma2_hdr_has_chunks(hdr) &&
		    hdr->xid != 0)
			return RDMA2_ERR_BAD_XDR;
		break;
	case RDMA2_CONNPROP:
		if (hdr->flags & RDMA2_F_MORE) {	/* V2-PROP-16 */
			props_default(&hdr->props);
			ret = 0;	/* the caller reassembles the propset */
			break;
		}
		ret = rpcrdma2_decode_props(r->base + r->pos, rd_left(r),
					    &hdr->props);
		if (!ret)
			r->pos = r->len;
		break;
	default:
		/* the experimental seed 004 operations, when enabled */
		if (lim->xchar && rpcrdma2_xch_htype(hdr->htype)) {
			if (hdr->flags & (RDMA2_F_MORE | RDMA2_F_TPMORE))
				return RDMA2_ERR_INVAL_HTYPE;
			ret = rpcrdma2_decode_xch(r->base + r->pos, rd_left(r),
						  hdr->htype, &hdr->xch);
			if (!ret)
				r->pos = r->len;
			break;
		}
		/*
		 * v1's MSGP and DONE too (V2-FRAME-13, V2-ERR-17, XCH-XOP-11):
		 * a known version with an htype we do not take draws
		 * INVAL_HTYPE (V2-ERR-17)
		 */
		return RDMA2_ERR_INVAL_HTYPE;
	}
	hdr->hdrlen = r->pos;
	return ret;
}

/* ---- Version 1 ------------------------------------------------------ */

static int decode_v1(struct rr2_rd *r, const struct rpcrdma2_limits *lim,
		     struct rpcrdma2_hdr *hdr)
{
	int ret = 0;
	u32 i;

	switch (hdr->htype) {
	case RDMA_MSG:
	case RDMA_NOMSG:
		ret = decode_chunk_lists(r, lim, hdr);
		/* erratum E-07: a v1 NOMSG carries its payload in a chunk */
		if (!ret && hdr->htype == RDMA_NOMSG &&
		    !rpcrdma2_hdr_has_chunks(hdr))
			ret = RDMA2_ERR_BAD_XDR;
		break;
	case RDMA_ERROR:
		if (!rd_u32(r, &hdr->err))
			return RPCRDMA2_DROP;
		if (!err_known(RPCRDMA2_VERS_1, hdr->err))
			return RPCRDMA2_DROP;		/* V2-ERR-06 */
		for (i = 0; i < err_nargs(RPCRDMA2_VERS_1, hdr->err); i++)
			if (!rd_u32(r, &hdr->err_arg[i]))
				return RPCRDMA2_DROP;
		break;
	case RDMA_DONE:
		/* obsolete notification; nothing to answer (as svcrdma) */
		return RPCRDMA2_DROP;
	default:
		/* RDMA_MSGP and unknown procs: ERR_CHUNK on the wire */
		return RDMA2_ERR_INVAL_HTYPE;
	}
	hdr->hdrlen = r->pos;
	return ret;
}

/**
 * rpcrdma2_decode_hdr - decode and check one received transport header
 * @buf: the received message
 * @len: octets received
 * @max_vers: highest version this end speaks (1 or 2)
 * @lim: caps on chunk lists
 * @hdr: filled in; on a rejection, xid/vers/credit for the error reply
 *
 * Returns 0, RPCRDMA2_DROP, or the RDMA2_ERR_* code to answer with.
 * RDMA2_ERR_VERS means @hdr->vers is outside [1, @max_vers].
 */
int rpcrdma2_decode_hdr(const void *buf, u32 len, u32 max_vers,
			const struct rpcrdma2_limits *lim,
			struct rpcrdma2_hdr *hdr)
{
	struct rr2_rd r = { .base = buf, .len = len };

	memset(hdr, 0, sizeof(*hdr));
	/*
	 * Shorter than the prefix: too short to trust even the xid, so
	 * drop silently whatever rdma_vers says (V2-ERR-01).  No Version 1
	 * message is shorter either (RFC 8166: ERR_CHUNK is 20 octets).
	 */
	if (len < RPCRDMA2_HDR_PREFIX_SIZE)
		return RPCRDMA2_DROP;
	rd_u32(&r, &hdr->xid);
	rd_u32(&r, &hdr->vers);
	rd_u32(&r, &hdr->credit);
	rd_u32(&r, &hdr->htype);

	if (hdr->vers == RPCRDMA2_VERS_1 && max_vers >= RPCRDMA2_VERS_1)
		return decode_v1(&r, lim, hdr);
	if (hdr->vers == RPCRDMA2_VERS_2 && max_vers >= RPCRDMA2_VERS_2)
		return decode_v2(&r, lim, hdr);
	return RDMA2_ERR_VERS;				/* V2-ERR-13 */
}

/* The Version 1 error code for a decoder verdict (RFC 8166 has two). */
u32 rpcrdma2_v1_errcode(int verdict)
{
	return verdict == RDMA2_ERR_VERS ? ERR_VERS : ERR_CHUNK;
}

/* V2-CRED-08: NOMSG, all lists empty, xid 0. */
bool rpcrdma2_is_credit_grant(const struct rpcrdma2_hdr *hdr)
{
	return hdr->vers == RPCRDMA2_VERS_2 && hdr->htype == RDMA2_NOMSG &&
	       hdr->xid == 0 && !rpcrdma2_hdr_has_chunks(hdr);
}

/* ---- accessors for validated lists ---------------------------------- */

static void seg_at(const u8 *p, struct rpcrdma2_segment *seg)
{
	seg->handle = get_unaligned_be32(p);
	seg->length = get_unaligned_be32(p + 4);
	seg->offset = get_unaligned_be64(p + 8);
}

/* Read segment @i (< hdr->reads.segments): 24 octets per list item. */
void rpcrdma2_read_seg(const void *buf, const struct rpcrdma2_hdr *hdr,
		       u32 i, u32 *position, struct rpcrdma2_segment *seg)
{
	const u8 *p = (const u8 *)buf + hdr->reads.offset + i * 24;

	*position = get_unaligned_be32(p + 4);
	seg_at(p + 8, seg);
}

/* Segment @seg of the counted array at @p; returns the segment count. */
static u32 counted_seg(const u8 *p, u32 seg, struct rpcrdma2_segment *out)
{
	u32 count = get_unaligned_be32(p);

	if (seg < count)
		seg_at(p + 4 + seg * RR2_SEG_SIZE, out);
	return count;
}

/*
 * Segment @seg of Write chunk @chunk (< hdr->writes.chunks); returns
 * that chunk's segment count, and fills @out only if @seg is below it.
 */
u32 rpcrdma2_write_chunk(const void *buf, const struct rpcrdma2_hdr *hdr,
			 u32 chunk, u32 seg, struct rpcrdma2_segment *out)
{
	const u8 *p = (const u8 *)buf + hdr->writes.offset + 4;

	while (chunk--)
		p += 4 + get_unaligned_be32(p) * RR2_SEG_SIZE + 4;
	return counted_seg(p, seg, out);
}

u32 rpcrdma2_reply_chunk(const void *buf, const struct rpcrdma2_hdr *hdr,
			 u32 seg, struct rpcrdma2_segment *out)
{
	if (!hdr->reply.chunks)
		return 0;
	return counted_seg((const u8 *)buf + hdr->reply.offset + 4, seg, out);
}

/* ---- first reply classification (V2-FRAME-23)----------------------- */

enum rpcrdma2_first_reply
rpcrdma2_classify_first_reply(const void *buf, u32 len, u32 *low, u32 *high)
{
	const u8 *p = buf;
	u32 w4, w5;

	if (len < 16 || get_unaligned_be32(p + 12) != RDMA2_ERROR)
		return RPCRDMA2_FIRST_OTHER;
	if (len < 24)
		return RPCRDMA2_FIRST_GARBAGE;
	w4 = get_unaligned_be32(p + 16);
	w5 = get_unaligned_be32(p + 20);
	if (len == RPCRDMA1_HDRLEN_ERR_VERS && w4 == ERR_VERS && w5 == 1) {
		*low = w5;
		*high = get_unaligned_be32(p + 24);
		return RPCRDMA2_FIRST_V1_ERR_VERS;
	}
	/* reserved flag bits are ignored (V2-FRAME-07, erratum E-02) */
	return RPCRDMA2_FIRST_V2_ERROR;
}

/**
 * rpcrdma2_rpc_xid_ok - does the payload start with the header's xid?
 * @hdr: the decoded header of the first message of an RPC message
 * @payload: the payload after the header
 * @plen: octets of payload
 *
 * An RPC message begins with its xid, which rdma_xid must repeat
 * (V2-ERR-26; RFC 8166 section 4.5.2 for Version 1).  A payload too
 * short to hold the xid does not match.
 */
bool rpcrdma2_rpc_xid_ok(const struct rpcrdma2_hdr *hdr, const void *payload,
			 u32 plen)
{
	return plen >= 4 && get_unaligned_be32(payload) == hdr->xid;
}

/* ---- writer ------------------------------------------------------- */

static void wr_seg(struct rr2_wr *w, const struct rpcrdma2_segment *seg)
{
	wr_u32(w, seg->handle);
	wr_u32(w, seg->length);
	wr_u32(w, upper_32_bits(seg->offset));
	wr_u32(w, lower_32_bits(seg->offset));
}

/* Every message starts with the header prefix (V2-FRAME-02). */
static void wr_common(struct rr2_wr *w, u32 xid, u32 vers, u32 credit,
		      u32 htype, u32 flags)
{
	wr_u32(w, xid);
	wr_u32(w, vers);
	wr_u32(w, credit);
	wr_u32(w, htype);
	if (vers == RPCRDMA2_VERS_2)
		wr_u32(w, flags & ~RDMA2_F_RESERVED_MASK);  /* V2-FRAME-06 */
}

static void wr_counted(struct rr2_wr *w, const struct rpcrdma2_chunk_out *c)
{
	u32 i;

	wr_u32(w, c->nsegs);
	for (i = 0; i < c->nsegs; i++)
		wr_seg(w, &c->segs[i]);
}

/**
 * rpcrdma2_encode_msg - encode an RDMA_MSG/NOMSG or RDMA2_MSG/NOMSG header
 * @buf: output
 * @size: octets available
 * @m: what to encode; @m->vers selects the layout
 *
 * Returns the header length, or 0 if it does not fit.
 */
u32 rpcrdma2_encode_msg(void *buf, u32 size, const struct rpcrdma2_msg_out *m)
{
	struct rr2_wr w = { .base = buf, .size = size };
	u32 i, j;

	wr_common(&w, m->xid, m->vers, m->credit, m->htype, m->flags);
	if (m->vers == RPCRDMA2_VERS_2)
		wr_u32(&w, m->inv_handle);
	for (i = 0; i < m->nr_reads; i++) {
		for (j = 0; j < m->reads[i].nsegs; j++) {
			wr_u32(&w, 1);
			wr_u32(&w, m->reads[i].position);
			wr_seg(&w, &m->reads[i].segs[j]);
		}
	}
	wr_u32(&w, 0);
	for (i = 0; i < m->nr_writes; i++) {
		wr_u32(&w, 1);
		wr_counted(&w, &m->writes[i]);
	}
	wr_u32(&w, 0);
	if (m->reply) {
		wr_u32(&w, 1);
		wr_counted(&w, m->reply);
	} else {
		wr_u32(&w, 0);
	}
	return wr_done(&w);
}

/**
 * rpcrdma2_msg_hdrlen - octets rpcrdma2_encode_msg() writes for @m
 * @m: the header to be encoded
 */
u32 rpcrdma2_msg_hdrlen(const struct rpcrdma2_msg_out *m)
{
	/* the common words, inv_handle on Version 2, three list ends */
	u32 len = m->vers == RPCRDMA2_VERS_2 ? RPCRDMA2_HDRLEN_NOCHUNKS :
					       RPCRDMA1_HDRLEN_MIN;
	u32 i;

	for (i = 0; i < m->nr_reads; i++)
		len += m->reads[i].nsegs * RR2_READ_ITEM;
	for (i = 0; i < m->nr_writes; i++)
		len += 8 + m->writes[i].nsegs * RR2_SEG_SIZE;
	if (m->reply)
		len += 4 + m->reply->nsegs * RR2_SEG_SIZE;
	return len;
}

/*
 * V2-CRED-08: RDMA2_NOMSG, xid 0, RESPONSE clear (V2-FRAME-10),
 * no chunks.
 */
u32 rpcrdma2_encode_credit_grant(void *buf, u32 size, u32 credit)
{
	struct rpcrdma2_msg_out m = {
		.vers	= RPCRDMA2_VERS_2,
		.credit	= credit,
		.htype	= RDMA2_NOMSG,
	};

	return rpcrdma2_encode_msg(buf, size, &m);
}

/**
 * rpcrdma2_encode_error - encode an error reply
 * @buf: output
 * @size: octets available
 * @layout: RPCRDMA2_VERS_1 (RFC 8166 RDMA_ERROR) or _2 (RDMA2_ERROR)
 * @xid: the ingress rdma_xid (V2-ERR-02)
 * @vers: the ingress rdma_vers, echoed even for ERR_VERS (V2-ERR-03)
 * @credit: the credits in effect (V2-ERR-04)
 * @err: RDMA2_ERR_* for layout 2, ERR_VERS or ERR_CHUNK for layout 1
 * @arg0: first body word (low, max chunks/segments, index, length)
 * @arg1: second body word (high, length needed)
 */
u32 rpcrdma2_encode_error(void *buf, u32 size, u32 layout, u32 xid, u32 vers,
			  u32 credit, u32 err, u32 arg0, u32 arg1)
{
	struct rr2_wr w = { .base = buf, .size = size };
	u32 nargs;

	wr_u32(&w, xid);
	wr_u32(&w, vers);
	wr_u32(&w, credit);
	wr_u32(&w, RDMA2_ERROR);			/* V2-ERR-05 */
	if (layout == RPCRDMA2_VERS_2)
		wr_u32(&w, RDMA2_F_RESPONSE);		/* V2-FRAME-11 */
	wr_u32(&w, err);
	nargs = err_nargs(layout, err);
	if (nargs > 0)
		wr_u32(&w, arg0);
	if (nargs > 1)
		wr_u32(&w, arg1);
	return wr_done(&w);
}

static void wr_prop_u32(struct rr2_wr *w, u32 which, u32 val)
{
	wr_u32(w, which);
	wr_u32(w, 4);
	wr_u32(w, val);
}

/**
 * rpcrdma2_encode_connprop - encode an RDMA2_CONNPROP
 * @buf: output
 * @size: octets available
 * @credit: credit word
 * @flags: RDMA2_F_TPMORE if more CONNPROPs follow (V2-PROP-11)
 * @props: the properties whose bit is set in @props->present
 * @hostauth: @props->hostauth_len octets, if HOSTAUTH is present
 */
u32 rpcrdma2_encode_connprop(void *buf, u32 size, u32 credit, u32 flags,
			     const struct rpcrdma2_props *props,
			     const void *hostauth)
{
	static const u8 zero[4];
	struct rr2_wr w = { .base = buf, .size = size };
	const u32 vals[] = { props->sbsiz, props->rbsiz, props->rssiz,
			     props->rcsiz, props->brs };
	u32 i, count = 0, pad;

	for (i = 0; i < RDMA2_PROPID_HOSTAUTH; i++)
		count += !!(props->present & (1u << i));
	wr_common(&w, 0, RPCRDMA2_VERS_2, credit, RDMA2_CONNPROP,
		  flags & RDMA2_F_TPMORE);	/* RESPONSE 0: V2-FRAME-10 */
	wr_u32(&w, count);
	for (i = 0; i < ARRAY_SIZE(vals); i++)
		if (props->present & (1u << i))
			wr_prop_u32(&w, i + 1, vals[i]);
	if (props->present & (1u << (RDMA2_PROPID_HOSTAUTH - 1))) {
		wr_u32(&w, RDMA2_PROPID_HOSTAUTH);
		wr_u32(&w, props->hostauth_len);
		pad = (4 - (props->hostauth_len & 3)) & 3;
		if (w.overflow || w.size - w.pos < props->hostauth_len + pad)
			return 0;
		memcpy(w.base + w.pos, hostauth, props->hostauth_len);
		memcpy(w.base + w.pos + props->hostauth_len, zero, pad);
		w.pos += props->hostauth_len + pad;
	}
	return wr_done(&w);
}
