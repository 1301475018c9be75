/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Header vectors for the codec: golden encodings worked out by hand
 * from Documentation/spec/rpcrdma1.x and rpcrdma2.x, and one malformed
 * message per rejection rule.  Each names the requirement it checks.
 *
 * Included by the KUnit codec suite (which asserts each verdict) and by
 * the fuzz corpus generator (tools/testing/fuzz/mkcorpus.c), so every
 * vector here is also a seed the fuzzers replay in CI.  Data only.
 */
#ifndef RPCRDMA2_CODEC_VECTORS_H
#define RPCRDMA2_CODEC_VECTORS_H

/* Limits the vectors are decoded with. */
#define RR2V_MAX_READ_CHUNKS	2
#define RR2V_MAX_WRITE_CHUNKS	2
#define RR2V_MAX_SEGMENTS	3

struct rr2_vector {
	const char	*name;		/* requirement ID first */
	u32		max_vers;
	u32		len;		/* octets used from @w */
	int		verdict;	/* 0, RPCRDMA2_DROP or RDMA2_ERR_* */
	u32		reject_arg;	/* for READ/WRITE_CHUNKS, SEGMENTS */
	u32		w[56];		/* the message, as big-endian words */
	bool		xchar;		/* decode with the seed 004 extension */
};

#define XID	0x11223344
#define CRED	0x00200020	/* v2: max 32, grant 32 */

/*
 * Written out word by word: a v2 prefix is XID, 2, CRED, htype, flags;
 * a segment is handle, length, offset (two words).
 */

static const struct rr2_vector rr2_vectors[] = {
	/* ---- accepted ---- */
	{ "V2-FRAME-05 msg without chunks", 2, 40, 0, 0,
	  { XID, 2, CRED, RDMA2_MSG, 0, 0, 0, 0, 0, XID } },
	{ "V2-FRAME-07 reserved flag bits ignored", 2, 40, 0, 0,
	  { XID, 2, CRED, RDMA2_MSG, 0xfffffff8, 0, 0, 0, 0, XID } },
	{ "V2-CRED-08 credit grant", 2, 36, 0, 0,
	  { 0, 2, CRED, RDMA2_NOMSG, 0, 0, 0, 0, 0 } },
	{ "V2-CHUNK-11 read list, two segments one chunk", 2, 96, 0, 0,
	  { XID, 2, CRED, RDMA2_MSG, 0, 0,
	    1, 8, 0x101, 100, 0, 0x1000, 1, 8, 0x102, 200, 0, 0x1000, 0,
	    0, 0, XID, 0, 0 } },
	{ "V2-CHUNK-17 write list and reply chunk", 2, 96, 0, 0,
	  { XID, 2, CRED, RDMA2_NOMSG, RDMA2_F_RESPONSE, 0x77, 0,
	    1, 2, 0x201, 4096, 0, 0x1000, 0x202, 4096, 0, 0x1000, 0,
	    1, 1, 0x301, 8192, 0, 0x1000 } },
	{ "V2-FRAME-12 error VERS", 2, 32, 0, 0,
	  { XID, 2, CRED, RDMA2_ERROR, RDMA2_F_RESPONSE,
	    RDMA2_ERR_VERS, 1, 2 } },
	{ "V2-FRAME-07 reserved flag bits on an error ignored", 2, 24, 0, 0,
	  { XID, 2, CRED, RDMA2_ERROR, 0xfffffff9, RDMA2_ERR_BAD_XDR } },
	{ "V2-FRAME-07 reserved flag bits on error VERS ignored", 2, 32, 0, 0,
	  { XID, 2, CRED, RDMA2_ERROR, 0x80000001, RDMA2_ERR_VERS, 1, 1 } },
	{ "V2-ERR-06 error SYSTEM is known", 2, 24, 0, 0,
	  { XID, 2, CRED, RDMA2_ERROR, RDMA2_F_RESPONSE, RDMA2_ERR_SYSTEM } },
	{ "V2-CHUNK-11 read list, interleaved positions two chunks", 2, 132,
	  0, 0,
	  { XID, 2, CRED, RDMA2_MSG, 0, 0,
	    1, 0, 0x101, 100, 0, 0x1000, 1, 116, 0x102, 200, 0, 0x2000,
	    1, 0, 0x103, 300, 0, 0x3000, 1, 116, 0x104, 400, 0, 0x4000,
	    0, 0, 0, XID, 0, 0 } },
	{ "E-07 v1 NOMSG with a reply chunk", 2, 48, 0, 0,
	  { XID, 1, 32, RDMA_NOMSG, 0, 0, 1, 1, 0x301, 8192, 0, 0x1000 } },
	{ "V2-PROP-05 connprop, unknown propid skipped", 2, 48, 0, 0,
	  { 0, 2, CRED, RDMA2_CONNPROP, 0, 2,
	    RDMA2_PROPID_RBSIZ, 4, 8192, 0x999, 4, 0xdeadbeef } },
	{ "V2-PROP-16 continued connprop left to the caller", 2, 28, 0, 0,
	  { 0, 2, CRED, RDMA2_CONNPROP, RDMA2_F_MORE | RDMA2_F_TPMORE,
	    5, RDMA2_PROPID_SBSIZ } },
	{ "RFC8166 v1 msg without chunks", 2, 32, 0, 0,
	  { XID, 1, 32, RDMA_MSG, 0, 0, 0, XID } },
	{ "RFC8166 v1 error CHUNK", 1, 20, 0, 0,
	  { XID, 1, 32, RDMA_ERROR, ERR_CHUNK } },

	/* ---- silent discard ---- */
	{ "V2-ERR-01 empty message", 2, 0, RPCRDMA2_DROP, 0, { 0 } },
	{ "V2-ERR-01 four octets", 2, 4, RPCRDMA2_DROP, 0, { XID } },
	{ "V2-ERR-01 nineteen octets", 2, 19, RPCRDMA2_DROP, 0,
	  { XID, 2, CRED, RDMA2_MSG, 0 } },
	{ "RFC8166 v1 DONE is dropped", 2, 16, RPCRDMA2_DROP, 0,
	  { XID, 1, 32, RDMA_DONE } },
	{ "V2-ERR-01 version 0, sixteen octets", 2, 16, RPCRDMA2_DROP, 0,
	  { XID, 0, CRED, RDMA2_MSG } },
	{ "V2-ERR-01 version 7, nineteen octets", 2, 19, RPCRDMA2_DROP, 0,
	  { XID, 7, CRED, RDMA2_MSG, 0 } },
	{ "V2-ERR-01 v1 msg, sixteen octets", 2, 16, RPCRDMA2_DROP, 0,
	  { XID, 1, 32, RDMA_MSG } },
	{ "V2-ERR-06 unknown error code dropped", 2, 24, RPCRDMA2_DROP, 0,
	  { XID, 2, CRED, RDMA2_ERROR, RDMA2_F_RESPONSE, 77 } },
	{ "V2-ERR-06 error code 0 dropped", 2, 24, RPCRDMA2_DROP, 0,
	  { XID, 2, CRED, RDMA2_ERROR, RDMA2_F_RESPONSE, 0 } },
	{ "V2-ERR-06 error code 11 dropped", 2, 28, RPCRDMA2_DROP, 0,
	  { XID, 2, CRED, RDMA2_ERROR, RDMA2_F_RESPONSE, 11, 0 } },
	{ "V2-ERR-06 unknown v1 error code dropped", 1, 20, RPCRDMA2_DROP, 0,
	  { XID, 1, 32, RDMA_ERROR, 3 } },
	{ "V2-ERR-01 truncated error is dropped", 2, 20, RPCRDMA2_DROP, 0,
	  { XID, 2, CRED, RDMA2_ERROR, RDMA2_F_RESPONSE } },
	{ "V2-ERR-01 error VERS without its range", 2, 28, RPCRDMA2_DROP, 0,
	  { XID, 2, CRED, RDMA2_ERROR, RDMA2_F_RESPONSE, RDMA2_ERR_VERS, 1 } },
	{ "RFC8166 v1 error VERS without its range", 2, 24, RPCRDMA2_DROP, 0,
	  { XID, 1, 32, RDMA_ERROR, ERR_VERS, 1 } },

	/* ---- ERR_VERS ---- */
	{ "V2-ERR-13 version 3", 2, 36, RDMA2_ERR_VERS, 0,
	  { XID, 3, CRED, RDMA2_MSG, 0, 0, 0, 0, 0 } },
	{ "V2-ERR-13 version 0", 2, 20, RDMA2_ERR_VERS, 0,
	  { XID, 0, CRED, RDMA2_MSG, 0 } },
	{ "V2-FRAME-17 version 2 to a v1-only peer", 1, 40, RDMA2_ERR_VERS, 0,
	  { XID, 2, CRED, RDMA2_MSG, 0, 0, 0, 0, 0, XID } },

	/* ---- INVAL_HTYPE ---- */
	{ "V2-ERR-17 htype 2 (v1 MSGP)", 2, 36, RDMA2_ERR_INVAL_HTYPE, 0,
	  { XID, 2, CRED, 2, 0, 0, 0, 0, 0 } },
	{ "V2-ERR-17 htype 3 (v1 DONE)", 2, 36, RDMA2_ERR_INVAL_HTYPE, 0,
	  { XID, 2, CRED, 3, 0, 0, 0, 0, 0 } },
	{ "V2-ERR-17 htype 6", 2, 36, RDMA2_ERR_INVAL_HTYPE, 0,
	  { XID, 2, CRED, 6, 0, 0, 0, 0, 0 } },
	{ "V2-ERR-17 htype 0xffffffff", 2, 36, RDMA2_ERR_INVAL_HTYPE, 0,
	  { XID, 2, CRED, 0xffffffff, 0, 0, 0, 0, 0 } },
	{ "V2-PROP-12 TPMORE on a MSG", 2, 40, RDMA2_ERR_INVAL_HTYPE, 0,
	  { XID, 2, CRED, RDMA2_MSG, RDMA2_F_TPMORE, 0, 0, 0, 0, XID } },
	{ "RFC8166 v1 MSGP answered with ERR_CHUNK", 2, 36,
	  RDMA2_ERR_INVAL_HTYPE, 0,
	  { XID, 1, 32, RDMA_MSGP, 0, 0, 0, 0, 0 } },

	/* ---- INVAL_CONT ---- */
	{ "V2-CONT-07 MORE on a NOMSG", 2, 36, RDMA2_ERR_INVAL_CONT, 0,
	  { XID, 2, CRED, RDMA2_NOMSG, RDMA2_F_MORE, 0, 0, 0, 0 } },
	{ "V2-CONT-08 MORE with a write chunk", 2, 64, RDMA2_ERR_INVAL_CONT, 0,
	  { XID, 2, CRED, RDMA2_MSG, RDMA2_F_MORE, 0, 0,
	    1, 1, 0x201, 4096, 0, 0x1000, 0, 0, XID } },

	/* ---- BAD_XDR ---- */
	{ "V2-ERR-26 body truncated", 2, 24, RDMA2_ERR_BAD_XDR, 0,
	  { XID, 2, CRED, RDMA2_MSG, 0, 0 } },
	{ "V2-ERR-26 list discriminator 2", 2, 40, RDMA2_ERR_BAD_XDR, 0,
	  { XID, 2, CRED, RDMA2_MSG, 0, 0, 2, 0, 0, XID } },
	{ "V2-ERR-26 read segment truncated", 2, 40, RDMA2_ERR_BAD_XDR, 0,
	  { XID, 2, CRED, RDMA2_MSG, 0, 0, 1, 0, 0x101, 100 } },
	{ "V2-ERR-26 write count past the end", 2, 52, RDMA2_ERR_BAD_XDR, 0,
	  { XID, 2, CRED, RDMA2_MSG, 0,
	    0, 0, 1, 0x10000000, 1, 2, 0, 0x1000 } },
	{ "V2-ERR-26 reply count past the end", 2, 40, RDMA2_ERR_BAD_XDR, 0,
	  { XID, 2, CRED, RDMA2_MSG, 0, 0, 0, 0, 1, 0xffffffff } },
	{ "V2-CHUNK-13 misaligned position", 2, 64, RDMA2_ERR_BAD_XDR, 0,
	  { XID, 2, CRED, RDMA2_MSG, 0,
	    0, 1, 6, 0x101, 100, 0, 0x1000, 0, 0, 0, XID } },
	{ "E-07 empty NOMSG with a non-zero xid", 2, 36, RDMA2_ERR_BAD_XDR, 0,
	  { XID, 2, CRED, RDMA2_NOMSG, 0, 0, 0, 0, 0 } },
	{ "RFC8166 v1 truncated lists (ERR_CHUNK)", 2, 20, RDMA2_ERR_BAD_XDR, 0,
	  { XID, 1, 32, RDMA_MSG, 0 } },
	{ "E-07 v1 NOMSG without chunks (ERR_CHUNK)", 2, 28, RDMA2_ERR_BAD_XDR,
	  0, { XID, 1, 32, RDMA_NOMSG, 0, 0, 0 } },
	{ "V2-ERR-26 connprop without a propset count", 2, 20,
	  RDMA2_ERR_BAD_XDR, 0,
	  { 0, 2, CRED, RDMA2_CONNPROP, 0 } },
	{ "V2-ERR-26 connprop propset count cut short", 2, 22,
	  RDMA2_ERR_BAD_XDR, 0,
	  { 0, 2, CRED, RDMA2_CONNPROP, 0, 0x00010000 } },
	{ "V2-ERR-26 propset count past the end", 2, 24, RDMA2_ERR_BAD_XDR, 0,
	  { 0, 2, CRED, RDMA2_CONNPROP, 0, 0x40000000 } },
	{ "V2-ERR-26 rdma_which cut short", 2, 26, RDMA2_ERR_BAD_XDR, 0,
	  { 0, 2, CRED, RDMA2_CONNPROP, 0, 1, 0x00010000 } },
	{ "V2-ERR-26 second rdma_which missing", 2, 32, RDMA2_ERR_BAD_XDR, 0,
	  { 0, 2, CRED, RDMA2_CONNPROP, 0, 2, RDMA2_PROPID_SBSIZ, 0 } },

	/* ---- chunk limits ---- */
	{ "V2-ERR-32 three read chunks", 2, 112, RDMA2_ERR_READ_CHUNKS,
	  RR2V_MAX_READ_CHUNKS,
	  { XID, 2, CRED, RDMA2_MSG, 0,
	    0, 1, 0, 1, 4, 0, 0x1000, 1, 8, 2, 4, 0, 0x1000,
	    1, 16, 3, 4, 0, 0x1000, 0, 0, 0, XID } },
	{ "V2-ERR-35 three write chunks", 2, 108, RDMA2_ERR_WRITE_CHUNKS,
	  RR2V_MAX_WRITE_CHUNKS,
	  { XID, 2, CRED, RDMA2_MSG, 0,
	    0, 0, 1, 1, 1, 4, 0, 0x1000, 1, 1, 2, 4, 0, 0x1000,
	    1, 1, 3, 4, 0, 0x1000, 0, 0 } },
	{ "V2-ERR-38 four segments in a write chunk", 2, 108, RDMA2_ERR_SEGMENTS,
	  RR2V_MAX_SEGMENTS,
	  { XID, 2, CRED, RDMA2_MSG, 0,
	    0, 0, 1, 4, 1, 4, 0, 0x1000, 2, 4, 0, 0x1000, 3, 4, 0, 0x1000,
	    4, 4, 0, 0x1000, 0, 0 } },
	{ "V2-ERR-38 four segments in a read chunk", 2, 132, RDMA2_ERR_SEGMENTS,
	  RR2V_MAX_SEGMENTS,
	  { XID, 2, CRED, RDMA2_MSG, 0,
	    0, 1, 0, 1, 4, 0, 0x1000, 1, 0, 2, 4, 0, 0x1000,
	    1, 0, 3, 4, 0, 0x1000, 1, 0, 4, 4, 0, 0x1000, 0, 0, 0 } },
	{ "V2-ERR-38 four interleaved segments in a read chunk", 2, 204,
	  RDMA2_ERR_SEGMENTS, RR2V_MAX_SEGMENTS,
	  { XID, 2, CRED, RDMA2_MSG, 0, 0,
	    1, 0, 1, 4, 0, 0x1000, 1, 116, 2, 4, 0, 0x1000,
	    1, 0, 3, 4, 0, 0x1000, 1, 116, 4, 4, 0, 0x1000,
	    1, 0, 5, 4, 0, 0x1000, 1, 116, 6, 4, 0, 0x1000,
	    1, 0, 7, 4, 0, 0x1000, 0, 0, 0, XID } },
	{ "V2-ERR-32 three interleaved read positions", 2, 132,
	  RDMA2_ERR_READ_CHUNKS, RR2V_MAX_READ_CHUNKS,
	  { XID, 2, CRED, RDMA2_MSG, 0, 0,
	    1, 0, 1, 4, 0, 0x1000, 1, 116, 2, 4, 0, 0x1000,
	    1, 0, 3, 4, 0, 0x1000, 1, 232, 4, 4, 0, 0x1000,
	    0, 0, 0, XID } },

	/* ---- BAD_PROPVAL ---- */
	{ "V2-PROP-03 propval runs past the end", 2, 36,
	  RDMA2_ERR_BAD_PROPVAL, 0,
	  { 0, 2, CRED, RDMA2_CONNPROP, 0, 1, RDMA2_PROPID_SBSIZ, 8, 4096 } },
	{ "V2-PROP-03 count past the end, rdma_data length missing", 2, 28,
	  RDMA2_ERR_BAD_PROPVAL, 0,
	  { 0, 2, CRED, RDMA2_CONNPROP, 0, 0x40000000, 1 } },
	{ "V2-PROP-03 unknown propid's data past the end", 2, 36,
	  RDMA2_ERR_BAD_PROPVAL, 0,
	  { 0, 2, CRED, RDMA2_CONNPROP, 0, 1, 0x999, 8, 1 } },
	{ "V2-PROP-04 three-octet SBSIZ", 2, 36, RDMA2_ERR_BAD_PROPVAL, 0,
	  { 0, 2, CRED, RDMA2_CONNPROP, 0, 1, RDMA2_PROPID_SBSIZ, 3,
	    0x10000000 } },
	{ "V2-PROP-04 BRS out of range", 2, 36, RDMA2_ERR_BAD_PROPVAL, 0,
	  { 0, 2, CRED, RDMA2_CONNPROP, 0, 1, RDMA2_PROPID_BRS, 4, 7 } },

	/* ---- seed 004 extension on experimental header types (XCH-XOP-01) ---- */
	{ "XCH-XOP-11 INITXCH to a peer without the extension", 2, 40,
	  RDMA2_ERR_INVAL_HTYPE, 0,
	  { 0, 2, CRED, RDMA2_XCH_INITXCH, 0, 1, XCHAR_RBSIZ, 4, 8192, 0 } },
	{ "XCH-XOP-02 INITXCH accepted when enabled", 2, 48, 0, 0,
	  { 0, 2, CRED, RDMA2_XCH_INITXCH, 0, 1, XCHAR_RBSIZ, 4, 8192,
	    1, 0x4 }, true },
	{ "XCH-XOP-03 xcharval runs past the end", 2, 36, RDMA2_ERR_BAD_XDR, 0,
	  { 0, 2, CRED, RDMA2_XCH_REQXCH, 0, 1, XCHAR_RBSIZ, 8, 8192 }, true },
	{ "XCH-XOP-04 REQREMINV is not a bool", 2, 36, RDMA2_ERR_BAD_XDR, 0,
	  { 0, 2, CRED, RDMA2_XCH_REQXCH, 0, 1, XCHAR_REQREMINV, 4, 2 }, true },
	{ "XCH-XOP-05 unknown xcharid skipped", 2, 36, 0, 0,
	  { 0, 2, CRED, RDMA2_XCH_REQXCH, 0, 1, 0xffffff10, 4, 1 }, true },
	{ "XCH-XOP-23 UPDXCH with pendclr", 2, 36, 0, 0,
	  { 0, 2, CRED, RDMA2_XCH_UPDXCH, 0, XCHAR_BRS, 4, BKREQSUP_GENL, 1 },
	  true },
	{ "V2-SEC-17 RESPXCH subset over the cap", 2, 28, RDMA2_ERR_BAD_XDR, 0,
	  { XID, 2, CRED, RDMA2_XCH_RESPXCH, 0, 5, 1 }, true },
	{ "XCH-XOP-11 MORE on an xchar operation", 2, 36,
	  RDMA2_ERR_INVAL_HTYPE, 0,
	  { 0, 2, CRED, RDMA2_XCH_REQXCH, RDMA2_F_MORE, 1, 0x99, 0, 0 },
	  true },
};

/*
 * Version 1 headers the stock Linux client (rpcrdma.ko) and server
 * (svcrdma) really sent over rxe, recorded by the "capture" QEMU
 * scenario (tools/testing/qemu/scenarios/capture.sh) on Debian's
 * 6.12.117 kernel: the header and the first words of the RPC message.
 */
struct rr2_stock_vector {
	const char	*name;
	u32		len;
	u32		htype;
	u32		hdrlen;
	u32		read_segs;
	u32		write_chunks;
	u32		write_segs;
	u32		reply_segs;
	u32		w[36];
};

static const struct rr2_stock_vector rr2_stock_vectors[] = {
	{ "RFC8166 stock client NFSv3 NULL call", 68, 0, 28, 0, 0, 0, 0,
	  { 0xf1489710, 0x00000001, 0x00000080, 0x00000000, 0x00000000, 0x00000000,
	    0x00000000, 0xf1489710, 0x00000000, 0x00000002, 0x000186a3, 0x00000003,
	    0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000 } },
	{ "RFC8166 stock client NFSv3 READ call, write chunk",
	  80, 0, 52, 0, 1, 1, 0,
	  { 0xeb9be3e1, 0x00000001, 0x00000080, 0x00000000, 0x00000000, 0x00000001,
	    0x00000001, 0x0000242e, 0x00001000, 0xeb9be3e1, 0x11002000, 0x00000000,
	    0x00000000, 0xeb9be3e1, 0x00000000, 0x00000002, 0x000186a3, 0x00000003,
	    0x00000006, 0x00000001 } },
	{ "RFC8166 stock client NFSv3 WRITE call, read chunk at 116",
	  80, 0, 52, 1, 0, 0, 0,
	  { 0x4ef0442f, 0x00000001, 0x00000080, 0x00000000, 0x00000001, 0x00000074,
	    0x00001503, 0x00010000, 0x4ef0442f, 0x11bac000, 0x00000000, 0x00000000,
	    0x00000000, 0x4ef0442f, 0x00000000, 0x00000002, 0x000186a3, 0x00000003,
	    0x00000007, 0x00000001 } },
	{ "RFC8166 stock client NFSACL call, 3-segment reply chunk",
	  100, 0, 80, 0, 0, 0, 3,
	  { 0x4af0442f, 0x00000001, 0x00000080, 0x00000000, 0x00000000, 0x00000000,
	    0x00000001, 0x00000003, 0x0000184b, 0x00000100, 0x4af0442f, 0x44c87800,
	    0x000017b7, 0x00007000, 0x4af0442f, 0x443c4000, 0x00001682, 0x00000004,
	    0x4af0442f, 0x44c87900, 0x4af0442f, 0x00000000, 0x00000002, 0x00018783,
	    0x00000003 } },
	{ "RFC8166 stock client NFSv4 COMPOUND, read chunk at 184",
	  76, 0, 52, 1, 0, 0, 0,
	  { 0x3e73aac6, 0x00000001, 0x00000080, 0x00000000, 0x00000001, 0x000000b8,
	    0x00002d60, 0x00010000, 0x3e73aac6, 0x1100c000, 0x00000000, 0x00000000,
	    0x00000000, 0x3e73aac6, 0x00000000, 0x00000002, 0x000186a3, 0x00000004,
	    0x00000001 } },
	{ "RFC8166 stock svcrdma reply without chunks", 52, 0, 28, 0, 0, 0, 0,
	  { 0x42f0442f, 0x00000001, 0x00000040, 0x00000000, 0x00000000, 0x00000000,
	    0x00000000, 0x42f0442f, 0x00000001, 0x00000000, 0x00000000, 0x00000000,
	    0x00000000 } },
	{ "RFC8166 stock svcrdma NOMSG, reply chunk lengths returned",
	  80, 1, 80, 0, 0, 0, 3,
	  { 0x4af0442f, 0x00000001, 0x00000040, 0x00000001, 0x00000000, 0x00000000,
	    0x00000001, 0x00000003, 0x0000184b, 0x00000088, 0x4af0442f, 0x44c87800,
	    0x000017b7, 0x00000000, 0x4af0442f, 0x443c4000, 0x00001682, 0x00000000,
	    0x4af0442f, 0x44c87900 } },
	{ "RFC8166 stock svcrdma NOMSG by Send With Invalidate",
	  48, 1, 48, 0, 0, 0, 1,
	  { 0x2273aac6, 0x00000001, 0x00000040, 0x00000001, 0x00000000, 0x00000000,
	    0x00000001, 0x00000001, 0x00003073, 0x0000006c, 0x2273aac6, 0x44cba000 } },
	{ "RFC8166 stock svcrdma READ reply, write chunk of 200",
	  68, 0, 52, 0, 1, 1, 0,
	  { 0x87954ead, 0x00000001, 0x00000040, 0x00000000, 0x00000000, 0x00000001,
	    0x00000001, 0x00003a80, 0x000000c8, 0x87954ead, 0x10fb3000, 0x00000000,
	    0x00000000, 0x87954ead, 0x00000001, 0x00000000, 0x00000000 } },
};

/* RFC 8797 CM private data (Documentation/spec/cm-private-data.md sec. 6) */
struct rr2_cmp_vector {
	u8	in[12];
	u32	len;
	bool	found;
	bool	r;
	u32	send;
	u32	recv;
};

static const struct rr2_cmp_vector rr2_cmp_vectors[] = {
	{ { 0xf6, 0xab, 0x0e, 0x18, 1, 1, 0, 0 }, 8, 1, 1, 1024, 1024 },
	{ { 0xf6, 0xab, 0x0e, 0x18, 1, 1, 3, 3 }, 8, 1, 1, 4096, 4096 },
	{ { 0xf6, 0xab, 0x0e, 0x18, 1, 0, 3, 0x3f }, 8, 1, 0, 4096, 65536 },
	{ { 0xf6, 0xab, 0x0e, 0x18, 1, 0xff, 7, 7 }, 8, 1, 1, 8192, 8192 },
	{ { 0xf6, 0xab, 0x0e, 0x18, 1, 0, 0xff, 0xff }, 8, 1, 0, 262144,
	  262144 },
	{ { 0xf6, 0xab, 0x0e, 0x18, 2, 1, 3, 3 }, 8, 0, 0, 1024, 1024 },
	{ { 0, 0, 0, 0xf6, 0xab, 0x0e, 0x18, 1, 1, 3, 3 }, 11, 1, 1, 4096,
	  4096 },
	{ { 0xf6, 0xab, 0x0e, 0x18, 1, 1 }, 6, 0, 0, 1024, 1024 },
	{ { 0 }, 0, 0, 0, 1024, 1024 },
};

#undef XID
#undef CRED

#endif /* RPCRDMA2_CODEC_VECTORS_H */
