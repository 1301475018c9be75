// SPDX-License-Identifier: GPL-2.0-only
/*
 * Connect-time protocol settlement, pure.
 *
 * Client.  With rdmavers=2 its first message is an RDMA2_CONNPROP of at
 * most 1024 octets (V2-FRAME-14/15, V2-INLINE-03/05, E-11), and it then
 * waits for the server:
 *   - the server's CONNPROP (final: TPMORE clear) settles Version 2;
 *   - a Version 1 ERR_VERS (28 octets, E-13) settles Version 1, the one
 *     permitted change of version (E-12, V2-FRAME-18/23);
 *   - a Version 2 BAD_PROPVAL settles Version 2 with our properties
 *     treated as not sent (E-35, V2-ERR-31);
 *   - anything else fails the connection.
 * With rdmavers=1 the client settles Version 1 at once and sends RPCs.
 *
 * Server.  The client's first message decides (V2-FRAME-20): a version
 * above rdmavers draws ERR_VERS, in the Version 1 layout when this
 * server speaks only Version 1 (as RFC 8166 servers do, E-13) and in the
 * Version 2 layout otherwise; a Version 1 message settles Version 1 and
 * is an RPC to process; a Version 2 CONNPROP settles Version 2 and is
 * answered with our CONNPROP (<= 4096, E-11).  A Version 2 RPC with no
 * CONNPROP before it settles Version 2 with default properties.
 *
 * Thresholds (V2-INLINE-*): this end sends at most min(its own send
 * size, the peer's receive size) and lets the peer send at most
 * min(its own receive size, the peer's send size).  The peer's sizes
 * are its CONNPROP SBSIZ/RBSIZ on Version 2 (default 4096, V2-INLINE-02)
 * and its RFC 8797 record on Version 1 (default 1024, CMP-INLINE-01).
 * Peer values below 1024 are not believed (V2-PROP-19).
 *
 * Called by: the client and server halves, KUnit.
 */

#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include "shared/nego.h"

#define RR2_NEGO_MIN_INLINE	RPCRDMA2_V1_DEF_INLINE

static void props_default(struct rpcrdma2_props *p)
{
	static const u8 empty[4];

	rpcrdma2_decode_props(empty, sizeof(empty), p);
}

void rpcrdma2_conn_init(struct rpcrdma2_conn *c,
			const struct rpcrdma2_cm_pdata *peer_pdata)
{
	memset(c, 0, sizeof(*c));
	c->peer_pdata = *peer_pdata;
	props_default(&c->peer_props);
}

static u32 sane(u32 peer, u32 def)
{
	return peer < RR2_NEGO_MIN_INLINE ? def : peer;	/* V2-PROP-19 */
}

/* Settle the version and work out both thresholds. */
void rpcrdma2_conn_thresholds(struct rpcrdma2_conn *c,
			      const struct rpcrdma2_local *l)
{
	u32 peer_recv, peer_send;

	if (c->vers == RPCRDMA2_VERS_2) {
		peer_recv = sane(c->peer_props.rbsiz, RDMA2_PROP_RBSIZ_DEFAULT);
		peer_send = sane(c->peer_props.sbsiz, RDMA2_PROP_SBSIZ_DEFAULT);
		c->peer_remote_inv = false;	/* per Call on v2 (E-20) */
	} else {
		peer_recv = c->peer_pdata.recv_size;
		peer_send = c->peer_pdata.send_size;
		c->peer_remote_inv = c->peer_pdata.remote_inv;
	}
	c->send_inline = min(l->send_size, peer_recv);	/* V2-INLINE-08 */
	c->recv_inline = min(l->recv_size, peer_send);
}

static void local_props(const struct rpcrdma2_local *l,
			struct rpcrdma2_props *p)
{
	memset(p, 0, sizeof(*p));
	p->present = (1u << (RDMA2_PROPID_SBSIZ - 1)) |
		     (1u << (RDMA2_PROPID_RBSIZ - 1)) |
		     (1u << (RDMA2_PROPID_RSSIZ - 1)) |
		     (1u << (RDMA2_PROPID_RCSIZ - 1)) |
		     (1u << (RDMA2_PROPID_BRS - 1));
	p->sbsiz = l->send_size;
	p->rbsiz = l->recv_size;
	p->rssiz = l->max_seg_size;
	p->rcsiz = l->max_segs;
	p->brs = l->brs;
}

/**
 * rpcrdma2_nego_client_hello - the client's first message (Version 2)
 * @l: what this end offers; must have max_vers 2
 * @xid: unused by CONNPROP's receiver but echoed in an error
 * @buf: output
 * @size: octets available; at most 1024 are used (E-11)
 *
 * Returns the length, or 0.
 */
u32 rpcrdma2_nego_client_hello(const struct rpcrdma2_local *l, u32 xid,
			       void *buf, u32 size)
{
	struct rpcrdma2_props p;
	u32 len;

	if (l->max_vers < RPCRDMA2_VERS_2)
		return 0;
	local_props(l, &p);
	len = rpcrdma2_encode_connprop(buf, min_t(u32, size,
						  RPCRDMA2_V1_DEF_INLINE),
				       l->credits, 0, &p, NULL);
	if (len)	/* CONNPROP carries no RPC: any xid will do */
		put_unaligned_be32(xid, buf);
	return len;
}

static const struct rpcrdma2_limits rr2_nego_lim = {
	.max_read_chunks = 1, .max_write_chunks = 1, .max_segments = 1,
};

/**
 * rpcrdma2_nego_client_recv - a message the client got before settling
 * @c: the connection
 * @l: what this end offers
 * @buf: the message
 * @len: its length
 */
enum rpcrdma2_nego rpcrdma2_nego_client_recv(struct rpcrdma2_conn *c,
					     const struct rpcrdma2_local *l,
					     const void *buf, u32 len)
{
	struct rpcrdma2_hdr hdr;
	u32 low, high;

	switch (rpcrdma2_classify_first_reply(buf, len, &low, &high)) {
	case RPCRDMA2_FIRST_V1_ERR_VERS:
		if (low > RPCRDMA2_VERS_1 || high < RPCRDMA2_VERS_1)
			return RPCRDMA2_NEGO_FAIL;
		c->vers = RPCRDMA2_VERS_1;	/* E-12: the one change */
		rpcrdma2_conn_thresholds(c, l);
		return RPCRDMA2_NEGO_DONE;
	case RPCRDMA2_FIRST_GARBAGE:
		return RPCRDMA2_NEGO_FAIL;
	default:
		break;
	}
	if (rpcrdma2_decode_hdr(buf, len, RPCRDMA2_VERS_2, &rr2_nego_lim,
				&hdr) || hdr.vers != RPCRDMA2_VERS_2)
		return RPCRDMA2_NEGO_FAIL;
	if (hdr.htype == RDMA2_ERROR) {
		if (hdr.err != RDMA2_ERR_BAD_PROPVAL)
			return RPCRDMA2_NEGO_FAIL;
		/* E-35: the server uses defaults for everything we sent */
		return RPCRDMA2_NEGO_MORE;
	}
	if (hdr.htype != RDMA2_CONNPROP || (hdr.flags & RDMA2_F_MORE))
		return RPCRDMA2_NEGO_FAIL;	/* continued CONNPROP: later */
	c->peer_props = hdr.props;
	if (hdr.flags & RDMA2_F_TPMORE)		/* V2-PROP-11 */
		return RPCRDMA2_NEGO_MORE;
	c->peer_props_done = true;
	c->vers = RPCRDMA2_VERS_2;
	rpcrdma2_conn_thresholds(c, l);
	return RPCRDMA2_NEGO_DONE;
}

/**
 * rpcrdma2_nego_server_recv - the client's first message(s), at the server
 * @c: the connection
 * @l: what this end offers
 * @buf: the message
 * @len: its length
 * @out: where a reply or error is encoded
 * @size: octets available at @out
 * @outlen: octets encoded, for REPLY and REJECT
 */
enum rpcrdma2_nego rpcrdma2_nego_server_recv(struct rpcrdma2_conn *c,
					     const struct rpcrdma2_local *l,
					     const void *buf, u32 len,
					     void *out, u32 size, u32 *outlen)
{
	struct rpcrdma2_limits lim = rr2_nego_lim;
	struct rpcrdma2_props p;
	struct rpcrdma2_hdr hdr;
	u32 layout;
	int ret;

	*outlen = 0;
	lim.max_read_chunks = 16;
	lim.max_write_chunks = 16;
	lim.max_segments = 64;
	ret = rpcrdma2_decode_hdr(buf, len, l->max_vers, &lim, &hdr);
	if (ret == RPCRDMA2_DROP)
		return RPCRDMA2_NEGO_MORE;
	if (ret) {
		/* E-13: a v1-only server answers as RFC 8166 servers do */
		layout = l->max_vers == RPCRDMA2_VERS_1 ? RPCRDMA2_VERS_1 :
			 hdr.vers == RPCRDMA2_VERS_1 ? RPCRDMA2_VERS_1 :
			 RPCRDMA2_VERS_2;
		if (layout == RPCRDMA2_VERS_1 && ret != RDMA2_ERR_VERS)
			ret = rpcrdma2_v1_errcode(ret);
		*outlen = rpcrdma2_encode_error(out, size, layout, hdr.xid,
						hdr.vers, l->credits, ret,
						ret == RDMA2_ERR_VERS ?
						RPCRDMA2_VERS_1 : hdr.reject_arg,
						l->max_vers);
		return *outlen ? RPCRDMA2_NEGO_REJECT : RPCRDMA2_NEGO_FAIL;
	}

	c->vers = hdr.vers;				/* V2-FRAME-20 */
	if (hdr.vers == RPCRDMA2_VERS_1 || hdr.htype != RDMA2_CONNPROP) {
		rpcrdma2_conn_thresholds(c, l);
		return RPCRDMA2_NEGO_RPC;
	}
	if (hdr.flags & RDMA2_F_MORE)
		return RPCRDMA2_NEGO_FAIL;	/* continued CONNPROP: later */
	c->peer_props = hdr.props;
	c->peer_props_done = !(hdr.flags & RDMA2_F_TPMORE);
	rpcrdma2_conn_thresholds(c, l);
	if (!c->peer_props_done)
		return RPCRDMA2_NEGO_MORE;
	local_props(l, &p);
	*outlen = rpcrdma2_encode_connprop(out, min_t(u32, size,
						      RPCRDMA2_V2_DEF_INLINE),
					   l->credits, 0, &p, NULL);
	return *outlen ? RPCRDMA2_NEGO_REPLY : RPCRDMA2_NEGO_FAIL;
}
