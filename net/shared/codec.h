/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The rpcrdma2 header codec: one encoder and one decoder for the
 * transport headers of RPC-over-RDMA Version 1 (RFC 8166) and Version 2
 * (draft-ietf-nfsv4-rpcrdma-version-two-01), and for the RFC 8797 CM
 * private data record.
 *
 * The codec is pure: bytes in, a struct or a verdict out.  It allocates
 * nothing, calls no verbs and holds no transport or sunrpc state, so
 * the client half, the server half, KUnit and the userspace fuzzer all
 * run the same code (tools/testing/fuzz builds it with a small shim for
 * the few kernel headers it includes).
 *
 * The decoder never trusts the peer: every count, length and offset is
 * checked against the bytes received and against the caller's limits
 * before it is used, and each rejection is reported as the exact
 * reaction the spec requires (V2-SEC-17).
 */
#ifndef RPCRDMA2_CODEC_H
#define RPCRDMA2_CODEC_H

#include <linux/types.h>

#include <rpcrdma2/wire.h>

/*
 * Decoder verdicts: 0 (accept), RPCRDMA2_DROP (discard silently: the
 * header is too short to trust its xid, V2-ERR-01, or it is an error
 * that must not be answered, such as an unknown rdma_err, V2-ERR-06),
 * or a positive RDMA2_ERR_* code to answer with and then discard the
 * message.  On a Version 1 connection every code but ERR_VERS is
 * answered with ERR_CHUNK (rpcrdma2_v1_errcode()).
 */
#define RPCRDMA2_DROP		(-1)

/* The smallest RSSIZ believed (V2-PROP-19): one 4 KiB page. */
#define RPCRDMA2_MIN_RSSIZ	4096

/*
 * Caps the decoder enforces on chunk lists (V2-ERR-32, V2-ERR-35,
 * V2-ERR-38), and whether the experimental seed 004 header types are
 * accepted.
 */
struct rpcrdma2_limits {
	u32	max_read_chunks;	/* distinct positions in a Read list */
	u32	max_write_chunks;	/* chunks in a Write list */
	u32	max_segments;		/* segments in any one chunk */
	bool	xchar;			/* RDMA2_XCH_* (XCH-XOP-01), off by default */
	/*
	 * A Reply chunk is refused with REPLY_RESOURCE (V2-RDIR-15): a
	 * reverse-direction Responder without chunk support.
	 */
	bool	no_reply_chunk;
};

struct rpcrdma2_segment {
	u32	handle;
	u32	length;
	u64	offset;
};

/*
 * A validated chunk list.  @offset is the octet offset, from the start
 * of the header, of the list's first discriminator; the accessors below
 * walk it again without re-checking.
 */
struct rpcrdma2_chunk_list {
	u32	offset;
	u32	chunks;
	u32	segments;
};

/* Transport properties (V2-PROP-08).  Absent = default. */
struct rpcrdma2_props {
	u32	present;		/* bit (propid - 1) per known property */
	u32	sbsiz;
	u32	rbsiz;
	u32	rssiz;
	u32	rcsiz;
	u32	brs;
	u32	hostauth_offset;	/* octets from the propset start */
	u32	hostauth_len;
	u32	unknown;		/* propvals skipped (V2-PROP-05) */
};

/* Seed 004 characteristics (xcharext.x); absent = default. */
struct rpcrdma2_xchars {
	u32	present;		/* bit (xcharid - 1) */
	u32	rbsiz;
	bool	reqreminv;
	u32	brs;			/* BKREQSUP_* */
	u32	unknown;		/* xcharvals skipped (XCH-XOP-05) */
	/*
	 * Where each known one was in the xcharspec (its last occurrence),
	 * and how many xcharvals it held: a RESPXCH answers by position
	 * (XCH-XOP-06, XCH-XOP-21).
	 */
	u32	count;
	u32	pos[3];			/* by xcharid - 1 */
};

#define RPCRDMA2_XCH_SUBSET_WORDS	4	/* cap on an xcharsubset */

/* The body of one RDMA2_XCH_* message. */
struct rpcrdma2_xch_msg {
	/* INITXCH optixch_start, REQXCH optreqxch_want, UPDXCH now */
	struct rpcrdma2_xchars	chars;
	/* INITXCH nochg in [0]; RESPXCH done, rej, pend */
	u32			subset[3][RPCRDMA2_XCH_SUBSET_WORDS];
	bool			pendclr;	/* UPDXCH */
};

struct rpcrdma2_hdr {
	/* rpcrdma_common: the four words every version starts with */
	u32	xid;
	u32	vers;
	u32	credit;
	u32	htype;
	u32	flags;			/* Version 2 only */
	u32	hdrlen;			/* the payload starts here */

	/* MSG and NOMSG (both versions) */
	u32	inv_handle;		/* Version 2 only; 0 = none */
	struct rpcrdma2_chunk_list reads;
	struct rpcrdma2_chunk_list writes;
	struct rpcrdma2_chunk_list reply;	/* chunks is 0 or 1 */

	/* ERROR (both versions) */
	u32	err;
	u32	err_arg[2];		/* low/high, max, index/length */

	/* CONNPROP (Version 2), when not continued */
	struct rpcrdma2_props props;

	/* RDMA2_XCH_* (only with rpcrdma2_limits.xchar) */
	struct rpcrdma2_xch_msg xch;

	/* on a rejection: the argument of the error to answer with */
	u32	reject_arg;
};

int rpcrdma2_decode_hdr(const void *buf, u32 len, u32 max_vers,
			const struct rpcrdma2_limits *lim,
			struct rpcrdma2_hdr *hdr);
int rpcrdma2_decode_props(const void *buf, u32 len,
			  struct rpcrdma2_props *props);
u32 rpcrdma2_v1_errcode(int verdict);

bool rpcrdma2_is_credit_grant(const struct rpcrdma2_hdr *hdr);
bool rpcrdma2_hdr_has_chunks(const struct rpcrdma2_hdr *hdr);

/* Accessors for validated lists (i counts from 0). */
void rpcrdma2_read_seg(const void *buf, const struct rpcrdma2_hdr *hdr,
		       u32 i, u32 *position, struct rpcrdma2_segment *seg);
u32 rpcrdma2_write_chunk(const void *buf, const struct rpcrdma2_hdr *hdr,
			 u32 chunk, u32 seg, struct rpcrdma2_segment *out);
u32 rpcrdma2_reply_chunk(const void *buf, const struct rpcrdma2_hdr *hdr,
			 u32 seg, struct rpcrdma2_segment *out);

/*
 * Distinguish a Version 1 ERR_VERS from a Version 2 RDMA2_ERROR in
 * answer to a client's first (Version 2) message (V2-FRAME-23).
 */
enum rpcrdma2_first_reply {
	RPCRDMA2_FIRST_OTHER,		/* not an error: decode normally */
	RPCRDMA2_FIRST_V1_ERR_VERS,	/* fall back to Version 1 */
	RPCRDMA2_FIRST_V2_ERROR,	/* a Version 2 error */
	RPCRDMA2_FIRST_GARBAGE,		/* an error too short to read */
	/* reserved flag bits do not make garbage (V2-FRAME-07) */
};

enum rpcrdma2_first_reply
rpcrdma2_classify_first_reply(const void *buf, u32 len, u32 *low, u32 *high);

bool rpcrdma2_rpc_xid_ok(const struct rpcrdma2_hdr *hdr, const void *payload,
			 u32 plen);

/* ---- Encoding ---- */

/*
 * An encoder writes into @buf of @size octets and returns the octets
 * written, or 0 if they do not fit.
 */
struct rpcrdma2_chunk_out {
	u32				nsegs;
	const struct rpcrdma2_segment	*segs;
	u32				position;	/* Read chunks only */
};

struct rpcrdma2_msg_out {
	u32	xid;
	u32	vers;
	u32	credit;
	u32	htype;			/* MSG or NOMSG */
	u32	flags;			/* Version 2 only */
	u32	inv_handle;		/* Version 2 only */
	u32	nr_reads;
	const struct rpcrdma2_chunk_out *reads;
	u32	nr_writes;
	const struct rpcrdma2_chunk_out *writes;
	const struct rpcrdma2_chunk_out *reply;	/* NULL: none */
};

u32 rpcrdma2_encode_msg(void *buf, u32 size, const struct rpcrdma2_msg_out *m);
u32 rpcrdma2_msg_hdrlen(const struct rpcrdma2_msg_out *m);
u32 rpcrdma2_encode_credit_grant(void *buf, u32 size, u32 credit);
u32 rpcrdma2_encode_error(void *buf, u32 size, u32 layout, u32 xid, u32 vers,
			  u32 credit, u32 err, u32 arg0, u32 arg1);
u32 rpcrdma2_encode_connprop(void *buf, u32 size, u32 credit, u32 flags,
			     const struct rpcrdma2_props *props,
			     const void *hostauth);

static inline u32 rpcrdma2_credit_word(u16 grant, u16 max)
{
	return (u32)max << RDMA2_CREDIT_MAX_SHIFT | grant;
}

/* ---- seed 004 characteristics extension (xchar.c) ---- */

bool rpcrdma2_xch_htype(u32 htype);
int rpcrdma2_decode_xch(const void *buf, u32 len, u32 htype,
			struct rpcrdma2_xch_msg *m);
u32 rpcrdma2_encode_xch(void *buf, u32 size, u32 xid, u32 credit, u32 htype,
			const struct rpcrdma2_xch_msg *m);

/* ---- RFC 8797 CM private data ---- */

struct rpcrdma2_cm_pdata {
	bool	remote_inv;		/* the R bit */
	u32	send_size;		/* octets */
	u32	recv_size;		/* octets */
};

u8 rpcrdma2_cmp_encode_size(u32 octets);
u32 rpcrdma2_cmp_decode_size(u8 field);
void rpcrdma2_cmp_encode(u8 out[RPCRDMA2_CMP_SIZE],
			 const struct rpcrdma2_cm_pdata *pd);
bool rpcrdma2_cmp_decode(const void *buf, u32 len,
			 struct rpcrdma2_cm_pdata *pd);

#endif /* RPCRDMA2_CODEC_H */
