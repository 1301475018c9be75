// SPDX-License-Identifier: GPL-2.0-only
/*
 * Connect-time protocol settlement, pure.
 *
 * Client.  With rdmavers=2 its first message is an RDMA2_CONNPROP of at
 * most 1024 octets (V2-FRAME-14, V2-FRAME-15, V2-INLINE-03, V2-INLINE-05), and
 * it then waits for the server:
 *   - the server's CONNPROPs settle Version 2 when the final one (TPMORE
 *     clear) has come; their properties accumulate, a later part adding
 *     to or overriding the earlier ones (V2-PROP-11), and a continued
 *     CONNPROP (F_MORE) is reassembled first (V2-PROP-16);
 *   - a bad value in one of them is answered with BAD_PROPVAL and none
 *     of that message's properties are used (V2-ERR-29, V2-ERR-30); on
 *     the final one the client still settles Version 2;
 *   - an ERR_VERS in answer to the first message whose range holds 1,
 *     in the Version 1 layout (28 octets, V2-FRAME-23) or the Version 2 one
 *     (32 octets, V2-FRAME-17), settles Version 1: the one permitted
 *     change of version (V2-FRAME-18, V2-FRAME-23);
 *   - a Version 2 BAD_PROPVAL means the server uses defaults for all we
 *     sent; we do not re-send after our final CONNPROP and keep waiting
 *     for the server's (V2-ERR-31);
 *   - an ERR_VERS whose range holds neither 1 nor 2 ends it with
 *     RPCRDMA2_NEGO_NO_VERS (V2-ERR-15);
 *   - any other Version 1 message is discarded: it answers nothing we
 *     sent (no RPC went out yet), so it says nothing about the server's
 *     versions, and one stray or hostile message must not cost Version
 *     2 (V2-FRAME-24: a connection's messages all carry its version);
 *   - what the receiver of any message discards silently is discarded
 *     and the client keeps waiting: runts (V2-ERR-01), errors with an
 *     unknown code or a continuation flag (V2-ERR-06, V2-CONT-07), a
 *     malformed MSG or NOMSG (V2-ERR-24: a Requester only drops); an
 *     unknown htype or TPMORE on a MSG or NOMSG is answered with
 *     INVAL_HTYPE (V2-FRAME-13, V2-PROP-12, V2-ERR-21) and discarded;
 *   - anything else fails the connection (a Requester that cannot
 *     settle has nothing better to do; the transport reconnects).
 * With rdmavers=1 the client settles Version 1 at once and sends RPCs.
 *
 * Server.  The client's first message decides (V2-FRAME-20): a version
 * above rdmavers draws ERR_VERS, in the Version 1 layout when this
 * server speaks only Version 1 (as RFC 8166 servers do, V2-FRAME-17) and in the
 * Version 2 layout otherwise; a Version 1 message settles Version 1 and
 * is an RPC to process.  Version 2 CONNPROPs accumulate like the
 * client's; the server settles Version 2 and answers with its own
 * CONNPROP (<= 4096, V2-INLINE-05) only after the client's final one.  A
 * CONNPROP the codec rejects draws its error (BAD_PROPVAL, V2-ERR-29;
 * BAD_XDR, V2-ERR-26) and none of its properties apply (V2-PROP-18); on
 * the client's final CONNPROP the server then settles anyway and sends
 * its own CONNPROP after the error, because the client will not
 * re-send (V2-ERR-31).  A CONNPROP after the client's final one draws
 * INVAL_HTYPE (V2-PROP-13), here and, once settled, through
 * rpcrdma2_nego_settled_check().  A Version 2 RPC with no CONNPROP
 * before it settles Version 2 with the properties seen so far.
 *
 * A continued CONNPROP goes through the Message Continuation rules of
 * cont.c (V2-CONT-06): its parts must share xid and htype, and the
 * propset may not pass RPCRDMA2_PROPSET_MAX (V2-CONT-09, V2-SEC-17).  A
 * fault is answered with INVAL_CONT by the server (V2-ERR-22), whose
 * later parts are then dropped (V2-CONT-10), and fails the connection
 * at the client (V2-ERR-24: a Requester sends no error).
 *
 * Thresholds (V2-INLINE-08): this end sends at most min(its own send
 * size, the peer's receive size) and lets the peer send at most
 * min(its own receive size, the peer's send size).  The peer's sizes
 * are its CONNPROP SBSIZ/RBSIZ on Version 2 (default 4096, V2-INLINE-02)
 * and its RFC 8797 record on Version 1 (default 1024, CMP-INLINE-01).
 * Peer values below 1024 are not believed (V2-PROP-19).
 *
 * Called by: the client and server halves, KUnit.
 * Calls: the codec and the continuation rules only.
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
	rpcrdma2_reasm_init(&c->props_reasm, RPCRDMA2_PROPSET_MAX);
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
		c->peer_remote_inv = false;	/* per Call on v2 (erratum E-20) */
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
	/*
	 * At least 1: a receiver does not believe 0 (V2-PROP-19).  An end
	 * that takes no chunks in reverse Calls says so by its BRS (erratum E-21)
	 */
	p->rcsiz = max_t(u32, l->max_segs, 1);
	p->brs = l->brs;
	if (l->hostauth_len) {		/* V2-PROP-09: opaque, as given */
		p->present |= 1u << (RDMA2_PROPID_HOSTAUTH - 1);
		p->hostauth_len = min_t(u32, l->hostauth_len,
					RPCRDMA2_HOSTAUTH_MAX);
	}
}

/**
 * rpcrdma2_nego_client_hello - the client's first message (Version 2)
 * @l: what this end offers; must have max_vers 2
 * @xid: unused by CONNPROP's receiver but echoed in an error
 * @buf: output
 * @size: octets available; at most 1024 are used (V2-INLINE-03)
 *
 * Returns the length, or 0.
 */
u32 rpcrdma2_nego_client_hello(const struct rpcrdma2_local *l, u32 xid,
			       void *buf, u32 size)
{
	struct rpcrdma2_props p;
	u32 len;

	/*
	 * V2-INLINE-03: the largest CONNPROP (prefix, count, five uint32 props,
	 * HOSTAUTH at its longest) fits the 1024-octet first message
	 */
	BUILD_BUG_ON(RPCRDMA2_HDR_PREFIX_SIZE + 4 + 5 * 12 + 8 +
		     RPCRDMA2_HOSTAUTH_MAX > RPCRDMA2_V1_DEF_INLINE);

	if (l->max_vers < RPCRDMA2_VERS_2)
		return 0;
	local_props(l, &p);
	len = rpcrdma2_encode_connprop(buf, min_t(u32, size,
						  RPCRDMA2_V1_DEF_INLINE),
				       l->credits, 0, &p, l->hostauth);
	if (len)	/* CONNPROP carries no RPC: any xid will do */
		put_unaligned_be32(xid, buf);
	return len;
}

/**
 * rpcrdma2_nego_server_hello - the server's CONNPROP (Version 2)
 * @l: what this end offers
 * @buf: output
 * @size: octets available; at most 4096 are used (V2-INLINE-05)
 *
 * Returns the length, or 0.
 */
u32 rpcrdma2_nego_server_hello(const struct rpcrdma2_local *l,
			       void *buf, u32 size)
{
	struct rpcrdma2_props p;

	local_props(l, &p);
	return rpcrdma2_encode_connprop(buf, min_t(u32, size,
						   RPCRDMA2_V2_DEF_INLINE),
					l->credits, 0, &p, l->hostauth);
}

static const struct rpcrdma2_limits rr2_nego_lim = {
	.max_read_chunks = 1, .max_write_chunks = 1, .max_segments = 1,
};

/*
 * Add the properties @p carries to the peer's (V2-PROP-11); @pset is
 * the propset @p was decoded from, where its HOSTAUTH is.
 */
static void props_merge(struct rpcrdma2_conn *c,
			const struct rpcrdma2_props *p, const u8 *pset)
{
	struct rpcrdma2_props *dst = &c->peer_props;
	u32 *const to[] = { &dst->sbsiz, &dst->rbsiz, &dst->rssiz,
			    &dst->rcsiz, &dst->brs };
	const u32 from[] = { p->sbsiz, p->rbsiz, p->rssiz, p->rcsiz, p->brs };
	u32 i;

	for (i = 0; i < ARRAY_SIZE(from); i++)
		if (p->present & (1u << i))
			*to[i] = from[i];
	if (p->present & (1u << (RDMA2_PROPID_HOSTAUTH - 1))) {
		/*
		 * V2-PROP-09: kept as received, the last one if several
		 * came; the codec bounded it within @pset (its offset is
		 * from the propset's start, which nego_props_part() gives)
		 */
		dst->hostauth_len = p->hostauth_len;
		c->peer_hostauth_len = p->hostauth_len;
		memcpy(c->peer_hostauth, pset + p->hostauth_offset,
		       min_t(u32, p->hostauth_len, RPCRDMA2_HOSTAUTH_MAX));
	}
	dst->present |= p->present;
	dst->unknown += p->unknown;
}

/*
 * A Version 2 message that belongs to the CONNPROP exchange: a CONNPROP,
 * or anything that arrives inside a continued one (V2-CONT-06).
 */
static bool nego_connprop_part(const struct rpcrdma2_conn *c,
			       const struct rpcrdma2_hdr *hdr, int ret)
{
	if (ret == RPCRDMA2_DROP || ret == RDMA2_ERR_VERS ||
	    hdr->vers != RPCRDMA2_VERS_2)
		return false;
	return hdr->htype == RDMA2_CONNPROP || c->props_reasm.active;
}

/*
 * Apply one CONNPROP part to the propset being gathered.  @ret is the
 * codec's verdict on the message alone, which holds only when it is not
 * part of a continued sequence.  Returns the reassembly verdict; on
 * RPCRDMA2_REASM_DONE, *@err is the verdict on the whole propset and
 * @p its properties (defaults on an error, V2-PROP-18).
 */
static enum rpcrdma2_reasm_verdict
nego_props_part(struct rpcrdma2_conn *c, const struct rpcrdma2_hdr *hdr,
		int ret, const u8 *buf, u32 len, int *err,
		struct rpcrdma2_props *p, const u8 **pset)
{
	struct rpcrdma2_reasm *r = &c->props_reasm;
	u32 plen = len - RPCRDMA2_HDR_PREFIX_SIZE;
	enum rpcrdma2_reasm_verdict v;

	*err = 0;
	if (hdr->htype != RDMA2_CONNPROP)	/* V2-CONT-06: not a part */
		return rpcrdma2_reasm_add(r, hdr, 0);
	v = rpcrdma2_reasm_add(r, hdr, plen);	/* V2-CONT-09: capped */
	if (v != RPCRDMA2_REASM_MORE && v != RPCRDMA2_REASM_DONE)
		return v;
	if (v == RPCRDMA2_REASM_DONE && r->nmsgs == 1) {
		*err = ret;		/* one message: the codec decoded it */
		*p = hdr->props;
		*pset = buf + RPCRDMA2_HDR_PREFIX_SIZE;
		return v;
	}
	*pset = c->props_buf;
	/* plen fits: reasm_add kept r->len <= RPCRDMA2_PROPSET_MAX */
	memcpy(c->props_buf + r->len - plen, buf + RPCRDMA2_HDR_PREFIX_SIZE,
	       plen);
	if (v == RPCRDMA2_REASM_DONE)		/* V2-PROP-16 */
		*err = rpcrdma2_decode_props(c->props_buf, r->len, p);
	return v;
}

/* Settle Version 2 with the peer's properties gathered so far. */
static void nego_settle_v2(struct rpcrdma2_conn *c,
			   const struct rpcrdma2_local *l)
{
	c->peer_props_done = true;
	c->vers = RPCRDMA2_VERS_2;
	rpcrdma2_conn_thresholds(c, l);
}

static u32 nego_error(const struct rpcrdma2_local *l,
		      const struct rpcrdma2_hdr *hdr, u32 err,
		      void *out, u32 size)
{
	return rpcrdma2_encode_error(out, size, RPCRDMA2_VERS_2, hdr->xid,
				     RPCRDMA2_VERS_2, l->credits, err, 0, 0);
}

/* ---- client ---------------------------------------------------------- */

/* ERR_VERS in answer to our first message (V2-FRAME-18). */
static enum rpcrdma2_nego client_vers(struct rpcrdma2_conn *c,
				      const struct rpcrdma2_local *l,
				      u32 low, u32 high)
{
	if (c->peer_props_seen)		/* not the answer to our first */
		return RPCRDMA2_NEGO_FAIL;
	if (low > RPCRDMA2_VERS_1 || high < RPCRDMA2_VERS_1) {
		/* refusing 2 while naming it makes no sense */
		if (low <= RPCRDMA2_VERS_2 && high >= RPCRDMA2_VERS_2)
			return RPCRDMA2_NEGO_FAIL;
		c->peer_vers_low = low;
		c->peer_vers_high = high;
		return RPCRDMA2_NEGO_NO_VERS;
	}
	c->vers = RPCRDMA2_VERS_1;	/* V2-FRAME-18: the one change */
	rpcrdma2_conn_thresholds(c, l);
	return RPCRDMA2_NEGO_DONE;
}

static enum rpcrdma2_nego client_error(struct rpcrdma2_conn *c,
				       const struct rpcrdma2_local *l,
				       const struct rpcrdma2_hdr *hdr)
{
	switch (hdr->err) {
	case RDMA2_ERR_VERS:		/* V2-FRAME-17: the v2 layout */
		return client_vers(c, l, hdr->err_arg[0], hdr->err_arg[1]);
	case RDMA2_ERR_BAD_PROPVAL:
		/* V2-ERR-31: the server uses defaults for ours */
		c->own_props_rejected = true;
		return RPCRDMA2_NEGO_MORE;
	default:
		return RPCRDMA2_NEGO_FAIL;
	}
}

static enum rpcrdma2_nego client_connprop(struct rpcrdma2_conn *c,
					  const struct rpcrdma2_local *l,
					  const struct rpcrdma2_hdr *hdr,
					  int ret, const u8 *buf, u32 len,
					  void *out, u32 size, u32 *outlen)
{
	enum rpcrdma2_reasm_verdict v;
	struct rpcrdma2_props p;
	const u8 *pset;
	int err;

	v = nego_props_part(c, hdr, ret, buf, len, &err, &p, &pset);
	if (v == RPCRDMA2_REASM_MORE)
		return RPCRDMA2_NEGO_MORE;
	/* a Requester sends no INVAL_CONT (V2-ERR-24), but cannot settle */
	if (v != RPCRDMA2_REASM_DONE)
		return RPCRDMA2_NEGO_FAIL;
	if (err == RDMA2_ERR_BAD_XDR)
		return RPCRDMA2_NEGO_FAIL;
	c->peer_props_seen = true;
	if (err) {
		/* V2-ERR-29: either peer answers BAD_PROPVAL; V2-ERR-30 */
		*outlen = nego_error(l, hdr, RDMA2_ERR_BAD_PROPVAL, out, size);
		if (!*outlen)
			return RPCRDMA2_NEGO_FAIL;
	} else {
		props_merge(c, &p, pset);		/* V2-PROP-11 */
	}
	if (hdr->flags & RDMA2_F_TPMORE)
		return err ? RPCRDMA2_NEGO_REJECT : RPCRDMA2_NEGO_MORE;
	nego_settle_v2(c, l);
	return err ? RPCRDMA2_NEGO_REPLY : RPCRDMA2_NEGO_DONE;
}

/**
 * rpcrdma2_nego_client_recv - a message the client got before settling
 * @c: the connection
 * @l: what this end offers
 * @buf: the message
 * @len: its length
 * @out: where a message to send is encoded (an error: 32 octets do)
 * @size: octets available at @out
 * @outlen: octets encoded at @out; 0 when there is nothing to send
 *
 * Returns RPCRDMA2_NEGO_MORE (wait), _REJECT (send @out, wait), _DONE
 * (settled), _REPLY (send @out; settled), _NO_VERS (disconnect; it
 * speaks neither version) or _FAIL (disconnect).
 */
enum rpcrdma2_nego rpcrdma2_nego_client_recv(struct rpcrdma2_conn *c,
					     const struct rpcrdma2_local *l,
					     const void *buf, u32 len,
					     void *out, u32 size, u32 *outlen)
{
	struct rpcrdma2_hdr hdr;
	u32 low, high;
	int ret;

	*outlen = 0;
	switch (rpcrdma2_classify_first_reply(buf, len, &low, &high)) {
	case RPCRDMA2_FIRST_V1_ERR_VERS:
		return client_vers(c, l, low, high);
	case RPCRDMA2_FIRST_GARBAGE:
		return RPCRDMA2_NEGO_MORE;	/* a runt error: V2-ERR-01 */
	default:
		break;
	}
	ret = rpcrdma2_decode_hdr(buf, len, RPCRDMA2_VERS_2, &rr2_nego_lim,
				  &hdr);
	if (nego_connprop_part(c, &hdr, ret))
		return client_connprop(c, l, &hdr, ret, buf, len, out, size,
				       outlen);
	switch (ret) {
	case 0:
		break;
	case RPCRDMA2_DROP:	/* runts, unknown or flagged errors */
		return RPCRDMA2_NEGO_MORE;
	case RDMA2_ERR_VERS:	/* a version above 2: nothing to settle */
		return RPCRDMA2_NEGO_FAIL;
	case RDMA2_ERR_INVAL_HTYPE:
		/* V2-FRAME-13, V2-PROP-12, V2-ERR-21: answered, discarded */
		*outlen = nego_error(l, &hdr, RDMA2_ERR_INVAL_HTYPE, out, size);
		return *outlen ? RPCRDMA2_NEGO_REJECT : RPCRDMA2_NEGO_MORE;
	default:
		return RPCRDMA2_NEGO_MORE;	/* V2-ERR-24: only dropped */
	}
	/* not the answer to our CONNPROP: only ERR_VERS is (V2-FRAME-24) */
	if (hdr.vers != RPCRDMA2_VERS_2)
		return RPCRDMA2_NEGO_MORE;
	if (hdr.htype == RDMA2_ERROR)
		return client_error(c, l, &hdr);
	return RPCRDMA2_NEGO_FAIL;
}

/* ---- server ---------------------------------------------------------- */

/* The client's final CONNPROP came: settle, answer with ours. */
static enum rpcrdma2_nego server_settle(struct rpcrdma2_conn *c,
					const struct rpcrdma2_local *l,
					const struct rpcrdma2_hdr *hdr,
					u32 err, void *out, u32 size,
					u32 *outlen)
{
	nego_settle_v2(c, l);
	if (err) {
		/* V2-ERR-31: the client will not re-send; ours follows */
		*outlen = nego_error(l, hdr, err, out, size);
		return *outlen ? RPCRDMA2_NEGO_REJECT_REPLY :
		       RPCRDMA2_NEGO_FAIL;
	}
	*outlen = rpcrdma2_nego_server_hello(l, out, size);
	return *outlen ? RPCRDMA2_NEGO_REPLY : RPCRDMA2_NEGO_FAIL;
}

/* The answer to a faulty or discarded part (V2-CONT-06, V2-CONT-10). */
static u32 server_part_err(enum rpcrdma2_reasm_verdict v)
{
	return v == RPCRDMA2_REASM_FAULT ? RDMA2_ERR_INVAL_CONT : 0;
}

static enum rpcrdma2_nego server_connprop(struct rpcrdma2_conn *c,
					  const struct rpcrdma2_local *l,
					  const struct rpcrdma2_hdr *hdr,
					  int ret, const u8 *buf, u32 len,
					  void *out, u32 size, u32 *outlen)
{
	enum rpcrdma2_reasm_verdict v;
	struct rpcrdma2_props p;
	const u8 *pset;
	bool final;
	int err;

	if (hdr->htype == RDMA2_CONNPROP && c->peer_props_done) {
		*outlen = nego_error(l, hdr, RDMA2_ERR_INVAL_HTYPE, out, size);
		return *outlen ? RPCRDMA2_NEGO_REJECT :	/* V2-PROP-13 */
		       RPCRDMA2_NEGO_FAIL;
	}
	v = nego_props_part(c, hdr, ret, buf, len, &err, &p, &pset);
	if (v == RPCRDMA2_REASM_MORE)
		return RPCRDMA2_NEGO_MORE;
	/* the client's last CONNPROP, kept or not, ends the exchange */
	final = hdr->htype == RDMA2_CONNPROP &&
		!(hdr->flags & (RDMA2_F_MORE | RDMA2_F_TPMORE));
	if (v != RPCRDMA2_REASM_DONE)
		err = server_part_err(v);		/* V2-ERR-22 */
	else if (!err)
		props_merge(c, &p, pset);		/* V2-PROP-11 */
	if (final)
		return server_settle(c, l, hdr, err, out, size, outlen);
	if (!err)
		return RPCRDMA2_NEGO_MORE;
	/* V2-ERR-30, V2-ERR-31: the client may send more within TPMORE */
	*outlen = nego_error(l, hdr, err, out, size);
	return *outlen ? RPCRDMA2_NEGO_REJECT : RPCRDMA2_NEGO_FAIL;
}

/* A message the decoder rejected, outside the CONNPROP exchange. */
static enum rpcrdma2_nego server_reject(const struct rpcrdma2_local *l,
					const struct rpcrdma2_hdr *hdr,
					int ret, void *out, u32 size,
					u32 *outlen)
{
	u32 layout;

	/* V2-FRAME-17: a v1-only server answers as RFC 8166 servers do */
	layout = l->max_vers == RPCRDMA2_VERS_1 ? RPCRDMA2_VERS_1 :
		 hdr->vers == RPCRDMA2_VERS_1 ? RPCRDMA2_VERS_1 :
		 RPCRDMA2_VERS_2;
	if (layout == RPCRDMA2_VERS_1 && ret != RDMA2_ERR_VERS)
		ret = rpcrdma2_v1_errcode(ret);
	*outlen = rpcrdma2_encode_error(out, size, layout, hdr->xid,
					hdr->vers, l->credits, ret,
					ret == RDMA2_ERR_VERS ?
					RPCRDMA2_VERS_1 : hdr->reject_arg,
					l->max_vers);
	return *outlen ? RPCRDMA2_NEGO_REJECT : RPCRDMA2_NEGO_FAIL;
}

/**
 * rpcrdma2_nego_server_recv - the client's first message(s), at the server
 * @c: the connection
 * @l: what this end offers
 * @buf: the message
 * @len: its length
 * @out: where a reply or error is encoded
 * @size: octets available at @out
 * @outlen: octets encoded, for REPLY, REJECT and REJECT_REPLY
 *
 * On RPCRDMA2_NEGO_REJECT_REPLY, @out holds the error; the caller sends
 * it and then the CONNPROP rpcrdma2_nego_server_hello() encodes.
 */
enum rpcrdma2_nego rpcrdma2_nego_server_recv(struct rpcrdma2_conn *c,
					     const struct rpcrdma2_local *l,
					     const void *buf, u32 len,
					     void *out, u32 size, u32 *outlen)
{
	struct rpcrdma2_limits lim = {
		.max_read_chunks = 16, .max_write_chunks = 16,
		.max_segments = 64,
	};
	struct rpcrdma2_hdr hdr;
	int ret;

	*outlen = 0;
	ret = rpcrdma2_decode_hdr(buf, len, l->max_vers, &lim, &hdr);
	if (ret == RPCRDMA2_DROP)
		return RPCRDMA2_NEGO_MORE;
	if (nego_connprop_part(c, &hdr, ret))
		return server_connprop(c, l, &hdr, ret, buf, len, out, size,
				       outlen);
	if (ret)
		return server_reject(l, &hdr, ret, out, size, outlen);
	c->vers = hdr.vers;				/* V2-FRAME-20 */
	rpcrdma2_conn_thresholds(c, l);
	return RPCRDMA2_NEGO_RPC;
}

/**
 * rpcrdma2_nego_settled_check - a message on a settled connection
 * @c: the connection, settled
 * @hdr: the message's header, accepted by the decoder
 *
 * CONNPROP is once per connection: after the peer's final one, another
 * draws INVAL_HTYPE and is discarded (V2-PROP-13, V2-ERR-21), at either
 * end.  Nothing after settling changes c->vers: the version holds for
 * the life of the connection (V2-FRAME-21).  Returns the RDMA2_ERR_*
 * code to answer with, or 0.
 */
int rpcrdma2_nego_settled_check(const struct rpcrdma2_conn *c,
				const struct rpcrdma2_hdr *hdr)
{
	if (c->vers == RPCRDMA2_VERS_2 && hdr->vers == RPCRDMA2_VERS_2 &&
	    hdr->htype == RDMA2_CONNPROP)
		return RDMA2_ERR_INVAL_HTYPE;
	return 0;
}

/**
 * rpcrdma2_rdir_single - must a reverse-direction message fit one Send?
 * @c: the settled connection
 *
 * The peer's BRS is the level of reverse-direction messages it takes
 * (V2-RDIR-10: the client's for reverse Calls, the server's for reverse
 * Replies).  Below CONT, only Simple Format; CONT and GENL take
 * Continued Format too (V2-RDIR-12, V2-RDIR-14).  A server that said
 * NONE (or nothing) and sends reverse Calls anyway gets its Replies in
 * Simple Format: its Calls without chunks show it takes inline ones
 * (XCH-RDIR-02).  Version 1 never continues anything, whatever this
 * says.
 */
bool rpcrdma2_rdir_single(const struct rpcrdma2_conn *c)
{
	return READ_ONCE(c->peer_props.brs) < RDMA2_RVRSDIR_CONT;
}

/**
 * rpcrdma2_rvrsdir_name - a BRS level for logs and traces
 * @level: RDMA2_RVRSDIR_*
 */
const char *rpcrdma2_rvrsdir_name(u32 level)
{
	static const char * const names[] = {
		[RDMA2_RVRSDIR_NONE]	= "none",
		[RDMA2_RVRSDIR_SIMPLE]	= "simple",
		[RDMA2_RVRSDIR_CONT]	= "cont",
		[RDMA2_RVRSDIR_GENL]	= "genl",
	};

	return level < ARRAY_SIZE(names) ? names[level] : "?";
}
