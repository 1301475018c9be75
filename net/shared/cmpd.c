// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 RFC 8797 CM private data: the 8-octet record each end puts
 * in its connection request or accept (Send and Receive buffer sizes,
 * Remote Invalidation), encoded, and found and decoded in what the peer
 * sent.  Part of the codec (see codec.h for the contract): no verbs,
 * no sunrpc state; the fuzz build compiles it with codec.c.
 *
 * Called by: shared/ep.c (the client's connect, the server's accept),
 * client/connect.c (a peer that sent none),
 * KUnit, the fuzz targets.
 * Calls: nothing but byte-order helpers.
 */

#include <linux/kernel.h>
#include <linux/unaligned.h>

#include "shared/codec.h"

/* CMP-CMPD-11: clamp to [1024, 262144] and round down. */
u8 rpcrdma2_cmp_encode_size(u32 octets)
{
	octets = clamp_t(u32, octets, RPCRDMA2_CMP_MIN_BUF,
			 RPCRDMA2_CMP_MAX_BUF);
	return (octets >> 10) - 1;
}

u32 rpcrdma2_cmp_decode_size(u8 field)
{
	return ((u32)field + 1) << 10;
}

/*
 * The 8-octet record, sent at offset 0 (CMP-CMPD-16), reserved bits zero
 * (CMP-CMPD-08).
 */
void rpcrdma2_cmp_encode(u8 out[RPCRDMA2_CMP_SIZE],
			 const struct rpcrdma2_cm_pdata *pd)
{
	put_unaligned_be32(RPCRDMA2_CMP_MAGIC, out);
	out[4] = RPCRDMA2_CMP_VERSION;
	out[5] = pd->remote_inv ? RPCRDMA2_CMP_F_REMOTE_INV : 0;
	out[6] = rpcrdma2_cmp_encode_size(pd->send_size);
	out[7] = rpcrdma2_cmp_encode_size(pd->recv_size);
}

static bool cmp_at(const u8 *p, u32 avail, struct rpcrdma2_cm_pdata *pd)
{
	if (avail < RPCRDMA2_CMP_SIZE ||
	    get_unaligned_be32(p) != RPCRDMA2_CMP_MAGIC ||
	    p[4] != RPCRDMA2_CMP_VERSION)
		return false;
	/* the reserved bits of octet 5 are ignored (CMP-CMPD-09) */
	pd->remote_inv = p[5] & RPCRDMA2_CMP_F_REMOTE_INV;
	pd->send_size = rpcrdma2_cmp_decode_size(p[6]);
	pd->recv_size = rpcrdma2_cmp_decode_size(p[7]);
	return true;
}

/**
 * rpcrdma2_cmp_decode - find and decode an RFC 8797 record
 * @buf: the CM private data received (may be NULL if @len is 0)
 * @len: its length
 * @pd: filled in; the defaults (R = 0, 1024/1024) when not found
 *
 * Checks offset 0 first, then every other offset (CMP-CMPD-16).  Returns true
 * if a Version 1 record was found; when none is, the defaults are those
 * of a peer that sent no private data (CMP-CMPD-15).
 */
bool rpcrdma2_cmp_decode(const void *buf, u32 len,
			 struct rpcrdma2_cm_pdata *pd)
{
	const u8 *p = buf;
	u32 k;

	for (k = 0; k + RPCRDMA2_CMP_SIZE <= len; k++)
		if (cmp_at(p + k, len - k, pd))
			return true;
	pd->remote_inv = false;
	pd->send_size = RPCRDMA2_CMP_MIN_BUF;
	pd->recv_size = RPCRDMA2_CMP_MIN_BUF;
	return false;
}
