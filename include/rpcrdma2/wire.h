/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Wire constants of RPC-over-RDMA Version 1 (RFC 8166) and Version 2
 * (draft-ietf-nfsv4-rpcrdma-version-two-01, shared/spec/rpcrdma2.x).
 *
 * This header is shared by the kernel module and the userspace fuzzing
 * build: it includes nothing and defines only numbers.
 */
#ifndef RPCRDMA2_WIRE_H
#define RPCRDMA2_WIRE_H

/* rdma_vers values (V2-FRAME-15) */
#define RPCRDMA2_VERS_1			1
#define RPCRDMA2_VERS_2			2

/* NFS/RDMA service port (V2-FRAME-27) */
#define RPCRDMA2_NFS_PORT		20049

/* Default inline thresholds (V2-INLINE-02, CMP-INLINE-01) */
#define RPCRDMA2_V1_DEF_INLINE		1024
#define RPCRDMA2_V2_DEF_INLINE		4096

#endif /* RPCRDMA2_WIRE_H */
