/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Wire constants of RPC-over-RDMA Version 1 (RFC 8166), Version 2
 * (draft-ietf-nfsv4-rpcrdma-version-two-01,
 * Documentation/spec/rpcrdma2.x) and the RDMA-CM private data record
 * (RFC 8797).
 *
 * Shared by the kernel module and the userspace fuzzing build: it
 * includes nothing and defines only numbers.  Sizes are in octets.
 */
#ifndef RPCRDMA2_WIRE_H
#define RPCRDMA2_WIRE_H

/* rdma_vers (V2-FRAME-15) */
#define RPCRDMA2_VERS_1			1
#define RPCRDMA2_VERS_2			2

/* NFS/RDMA service port (V2-FRAME-27) */
#define RPCRDMA2_NFS_PORT		20049

/* Default inline thresholds (V2-INLINE-02, CMP-INLINE-01) */
#define RPCRDMA2_V1_DEF_INLINE		1024
#define RPCRDMA2_V2_DEF_INLINE		4096

/* ---- Version 1 (RFC 8166) ---- */

/* rdma_proc */
#define RDMA_MSG			0
#define RDMA_NOMSG			1
#define RDMA_MSGP			2	/* not to be used */
#define RDMA_DONE			3	/* not to be used */
#define RDMA_ERROR			4

/* rdma_err */
#define ERR_VERS			1
#define ERR_CHUNK			2

#define RPCRDMA1_HDRLEN_MIN		28	/* 4 words + 3 empty lists */
#define RPCRDMA1_HDRLEN_ERR_CHUNK	20
#define RPCRDMA1_HDRLEN_ERR_VERS	28

/* ---- Version 2 ---- */

/* rdma_htype (V2-FRAME-12) */
#define RDMA2_MSG			0
#define RDMA2_NOMSG			1
#define RDMA2_ERROR			4
#define RDMA2_CONNPROP			5

/* rdma_flags (V2-FRAME-06, V2-PROP-11, erratum E-02) */
#define RDMA2_F_RESPONSE		0x00000001
#define RDMA2_F_MORE			0x00000002
#define RDMA2_F_TPMORE			0x00000004
#define RDMA2_F_RESERVED_MASK		0xfffffff8

#define RPCRDMA2_HDR_PREFIX_SIZE	20	/* shorter: drop (V2-ERR-01) */
#define RPCRDMA2_HDRLEN_NOCHUNKS	36	/* prefix + inv + 3 lists */
#define RPCRDMA2_HDRLEN_ERR_MAX		32	/* ERR_VERS, WRITE_RESOURCE */

/* rdma_credit (V2-CRED-02) */
#define RDMA2_CREDIT_GRANT_MASK		0x0000ffff
#define RDMA2_CREDIT_MAX_SHIFT		16

/* rdma_err */
#define RDMA2_ERR_VERS			1
#define RDMA2_ERR_BAD_XDR		2
#define RDMA2_ERR_BAD_PROPVAL		3
#define RDMA2_ERR_INVAL_HTYPE		4
#define RDMA2_ERR_INVAL_CONT		5
#define RDMA2_ERR_READ_CHUNKS		6
#define RDMA2_ERR_WRITE_CHUNKS		7
#define RDMA2_ERR_SEGMENTS		8
#define RDMA2_ERR_WRITE_RESOURCE	9
#define RDMA2_ERR_REPLY_RESOURCE	10
#define RDMA2_ERR_SYSTEM		100

/* Transport properties (V2-PROP-08) */
#define RDMA2_PROPID_SBSIZ		1
#define RDMA2_PROPID_RBSIZ		2
#define RDMA2_PROPID_RSSIZ		3
#define RDMA2_PROPID_RCSIZ		4
#define RDMA2_PROPID_BRS		5
#define RDMA2_PROPID_HOSTAUTH		6

#define RDMA2_PROP_SBSIZ_DEFAULT	4096
#define RDMA2_PROP_RBSIZ_DEFAULT	4096
#define RDMA2_PROP_RSSIZ_DEFAULT	1048576
#define RDMA2_PROP_RCSIZ_DEFAULT	16

/* RDMA2_PROPID_BRS values (erratum E-03: CONT is 2) */
#define RDMA2_RVRSDIR_NONE		0
#define RDMA2_RVRSDIR_SIMPLE		1
#define RDMA2_RVRSDIR_CONT		2
#define RDMA2_RVRSDIR_GENL		3

/*
 * ---- Seed 004 characteristics extension (experimental, XCH-XOP-01) ----
 * The 2016 ROPT_* codes 1-4 collide with seed 001 header types, so the
 * four operations live on header types from the experimental range
 * 0xFFFFFF00-0xFFFFFFFF, and only between rpcrdma2 peers that opted in.
 */
#define RDMA2_XCH_INITXCH		0xffffff01
#define RDMA2_XCH_REQXCH		0xffffff02
#define RDMA2_XCH_RESPXCH		0xffffff03
#define RDMA2_XCH_UPDXCH		0xffffff04

#define XCHAR_RBSIZ			1
#define XCHAR_REQREMINV			2
#define XCHAR_BRS			3

#define BKREQSUP_NONE			0
#define BKREQSUP_INLINE			1
#define BKREQSUP_GENL			2

#define XCHAR_RBSIZ_DEFAULT		4096

/* ---- RFC 8797 CM private data ---- */
#define RPCRDMA2_CMP_MAGIC		0xf6ab0e18
#define RPCRDMA2_CMP_VERSION		1
#define RPCRDMA2_CMP_SIZE		8
#define RPCRDMA2_CMP_F_REMOTE_INV	0x01	/* octet 5 (CMP-CMPD-10) */
#define RPCRDMA2_CMP_MIN_BUF		1024
#define RPCRDMA2_CMP_MAX_BUF		262144

#endif /* RPCRDMA2_WIRE_H */
