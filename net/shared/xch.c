// SPDX-License-Identifier: GPL-2.0-only
/*
 * The seed 004 transport-characteristics exchange (xcharext-02), opt-in.
 *
 * Pure, like nego.c: no verbs and no sunrpc state.  The state lives in
 * struct rpcrdma2_conn, and the halves call in when a Version 2
 * connection has settled, when an RDMA2_XCH_* message or an error
 * comes, and when they want to ask or tell the peer something.  The
 * codec (xchar.c) carries the four operations on header types from the
 * experimental range (XCH-XOP-01, XCH-XOP-27) and decodes them only while the
 * exchange is on for the connection; otherwise they draw INVAL_HTYPE,
 * as any unknown header type does (XCH-XOP-11).  All four are taken
 * whenever it is on (XCH-XOP-13).  Characteristics travel in the clear
 * like the rest of the header (XCH-SEC-01): a man in the middle could
 * lower the thresholds, never raise them above what Version 2 settled.
 *
 * When.  The exchange is off unless the xchar module parameter was on
 * when the connection settled, and never on Version 1.  The first
 * message of a Version 2 connection is the client's CONNPROP
 * (V2-FRAME-15), so each end's ROPT_INITXCH comes right after the
 * CONNPROP exchange: the server sends it after its own CONNPROP, the
 * client once it has the server's, before any RPC (XCH-XOP-16).  It
 * fits the first-message size, 1024 octets (XCH-INLINE-05, erratum E-33).
 *
 * What.  INITXCH lists every characteristic this end has (XCH-XOP-14):
 * XCHAR_RBSIZ (its posted Receive size), XCHAR_BRS (BRS mapped as
 * XCH-RDIR-01: NONE, SIMPLE or CONT as INLINE, GENL) and, from the requester
 * only, XCHAR_REQREMINV; all but RBSIZ are in optixch_nochg
 * (XCH-XOP-15).  A REQXCH is answered with one RESPXCH under its xid
 * (XCH-XOP-18, XCH-XOP-19) whose done and rej subsets cover every
 * element exactly once (XCH-XOP-21): RBSIZ is granted when it lies
 * between 1024 and the posted Receive size, so our Receives stay at
 * least as large as what we announce (XCH-INLINE-01, XCH-INLINE-03);
 * everything else is rejected (XCH-XOP-08, XCH-XOP-20).  Our own RBSIZ
 * rises unasked only up to the posted size, so no Receive posted at an
 * older size is left (XCH-INLINE-02), and never falls unasked
 * (XCH-XOP-10); an unsolicited UPDXCH has pendclr FALSE (XCH-XOP-25).
 *
 * Applied.  What the peer says can only lower what Version 2 settled:
 * the send limit becomes min(settled, peer RBSIZ, our pending REQXCH's
 * RBSIZ) (V2-INLINE-08, XCH-INLINE-04), the receive limit
 * min(settled, our RBSIZ), and the peer's BRS min(settled, its XCHAR_BRS
 * mapped back: INLINE as CONT, XCH-RDIR-01).  On Version 2, remote
 * invalidation is per Call (rdma_inv_handle, XCH-RINV-02); a requester that
 * explicitly says XCHAR_REQREMINV = FALSE vetoes Send With Invalidate
 * for its Replies (XCH-RINV-01), and TRUE adds nothing to the per-Call
 * rules (XCH-RINV-02).  An RBSIZ below 1024 is not believed.
 *
 * Refused.  An INVAL_HTYPE answering our INITXCH or UPDXCH means the
 * peer does not take the exchange (XCH-XOP-11): it goes off for the
 * connection and the settled limits are restored, nothing else
 * changes.  One answering our REQXCH means the peer takes no change
 * requests, the same as rejecting them (XCH-XOP-09).
 *
 * Called by: the client and server halves, KUnit.
 * Calls: the codec only.
 */

#include <linux/kernel.h>
#include <linux/string.h>

#include "shared/nego.h"

#define XBIT(id)	(1u << ((id) - 1))

static void xchars_default(struct rpcrdma2_xchars *c)
{
	memset(c, 0, sizeof(*c));
	c->rbsiz = XCHAR_RBSIZ_DEFAULT;		/* XCH-XOP-07 */
	c->brs = BKREQSUP_INLINE;
}

/* XCH-RDIR-01 (E-19): BRS as a characteristic, and back. */
static u32 brs_to_xch(u32 rvrsdir)
{
	switch (rvrsdir) {
	case RDMA2_RVRSDIR_NONE:
		return BKREQSUP_NONE;
	case RDMA2_RVRSDIR_GENL:
		return BKREQSUP_GENL;
	default:
		return BKREQSUP_INLINE;
	}
}

static u32 brs_from_xch(u32 bkreqsup)
{
	switch (bkreqsup) {
	case BKREQSUP_NONE:
		return RDMA2_RVRSDIR_NONE;
	case BKREQSUP_GENL:
		return RDMA2_RVRSDIR_GENL;
	default:
		return RDMA2_RVRSDIR_CONT;	/* inline: no chunks */
	}
}

/*
 * Recompute the connection's limits from what Version 2 settled and
 * what the exchange knows.  Returns true if any changed.
 */
static bool xch_apply(struct rpcrdma2_conn *c)
{
	struct rpcrdma2_xch *x = &c->xch;
	u32 send = x->nego_send, recv = x->nego_recv, brs = x->nego_brs;
	bool changed;

	if (x->on) {
		if (x->peer.present & XBIT(XCHAR_RBSIZ))
			send = min(send, x->peer.rbsiz);
		if (x->req_pending)			/* XCH-INLINE-04 */
			send = min(send, x->req_rbsiz);
		recv = min(recv, x->local.rbsiz);
		brs = min(brs, brs_from_xch(x->peer.brs));
	}
	changed = send != c->send_inline || recv != c->recv_inline ||
		  brs != c->peer_props.brs;
	WRITE_ONCE(c->send_inline, send);
	WRITE_ONCE(c->recv_inline, recv);
	WRITE_ONCE(c->peer_props.brs, brs);
	if (changed)
		x->applied++;
	return changed;
}

/*
 * Take the characteristics the peer announced; unknown ones were
 * skipped by the codec (XCH-XOP-05, XCH-XOP-17).
 */
static void xch_merge(struct rpcrdma2_xch *x, const struct rpcrdma2_xchars *in)
{
	if ((in->present & XBIT(XCHAR_RBSIZ)) &&
	    in->rbsiz >= RPCRDMA2_XCH_MIN_RBSIZ) {	/* cf. V2-PROP-19 */
		x->peer.rbsiz = in->rbsiz;
		x->peer.present |= XBIT(XCHAR_RBSIZ);
	}
	if (in->present & XBIT(XCHAR_REQREMINV)) {
		x->peer.reqreminv = in->reqreminv;
		x->peer.present |= XBIT(XCHAR_REQREMINV);
	}
	if (in->present & XBIT(XCHAR_BRS)) {
		x->peer.brs = in->brs;
		x->peer.present |= XBIT(XCHAR_BRS);
	}
	x->peer.unknown += in->unknown;
}

/**
 * rpcrdma2_xch_start - set the exchange up on a settled connection
 * @c: the connection, settled (c->vers set, thresholds worked out)
 * @l: what this end offers
 * @enabled: the xchar module parameter, read once per connection
 * @requester: the client; it alone announces XCHAR_REQREMINV
 *
 * The exchange is on only with @enabled on a Version 2 connection.
 */
void rpcrdma2_xch_start(struct rpcrdma2_conn *c,
			const struct rpcrdma2_local *l, bool enabled,
			bool requester)
{
	struct rpcrdma2_xch *x = &c->xch;

	memset(x, 0, sizeof(*x));
	x->on = enabled && c->vers == RPCRDMA2_VERS_2;
	x->nego_send = c->send_inline;
	x->nego_recv = c->recv_inline;
	x->nego_brs = c->peer_props.brs;
	xchars_default(&x->peer);
	x->rbsiz_max = l->recv_size;
	x->local.present = XBIT(XCHAR_RBSIZ) | XBIT(XCHAR_BRS);
	x->local.rbsiz = l->recv_size;
	x->local.brs = brs_to_xch(l->brs);
	if (requester) {
		x->local.present |= XBIT(XCHAR_REQREMINV);
		x->local.reqreminv = l->remote_inv;
	}
	/*
	 * Until its INITXCH comes the peer's characteristics are the
	 * defaults (XCH-XOP-07, XCH-RDIR-01): apply them now, not at the
	 * first message of any kind, so that a message saying nothing
	 * about them (a stale RESPXCH, a REQXCH) changes no limit.
	 */
	xch_apply(c);
}

/**
 * rpcrdma2_xch_hello - this end's INITXCH
 * @c: the connection, after rpcrdma2_xch_start()
 * @credit: the credit word to send
 * @buf: output
 * @size: octets available; at most 1024 are used (XCH-INLINE-05)
 *
 * Returns the length, or 0 when the exchange is off.
 */
u32 rpcrdma2_xch_hello(struct rpcrdma2_conn *c, u32 credit, void *buf,
		       u32 size)
{
	struct rpcrdma2_xch *x = &c->xch;
	struct rpcrdma2_xch_msg m = { .chars = x->local };
	u32 n = hweight32(x->local.present), len;

	if (!x->on)
		return 0;
	/*
	 * XCH-XOP-15: the encoder writes them in xcharid order, so RBSIZ
	 * is element 0 and every other one will not change.
	 */
	m.subset[0][0] = ((1u << n) - 1) & ~1u;
	len = rpcrdma2_encode_xch(buf, min_t(u32, size, RPCRDMA2_V1_DEF_INLINE),
				  RPCRDMA2_XCH_XID(RDMA2_XCH_INITXCH), credit,
				  RDMA2_XCH_INITXCH, &m);
	if (len)
		x->sent++;
	return len;
}

/* A REQXCH: grant or reject each element, by position (XCH-XOP-21). */
static int xch_answer(struct rpcrdma2_conn *c, const struct rpcrdma2_hdr *hdr,
		      u32 credit, void *out, u32 size, u32 *outlen)
{
	const struct rpcrdma2_xchars *want = &hdr->xch.chars;
	struct rpcrdma2_xch *x = &c->xch;
	struct rpcrdma2_xch_msg m = { };
	u32 *done = m.subset[0], *rej = m.subset[1];
	u32 i, p;

	/* the codec capped count at 32 * RPCRDMA2_XCH_SUBSET_WORDS */
	for (i = 0; i < want->count; i++)
		rej[i / 32] |= 1u << (i % 32);		/* XCH-XOP-20 */
	if ((want->present & XBIT(XCHAR_RBSIZ)) &&
	    want->rbsiz >= RPCRDMA2_XCH_MIN_RBSIZ &&
	    want->rbsiz <= x->rbsiz_max) {		/* XCH-INLINE-01 */
		p = want->pos[XCHAR_RBSIZ - 1];
		rej[p / 32] &= ~(1u << (p % 32));
		done[p / 32] |= 1u << (p % 32);
		x->local.rbsiz = want->rbsiz;		/* XCH-INLINE-03 */
	}
	/* XCH-XOP-18, XCH-XOP-19: one RESPXCH, under the REQXCH's xid */
	*outlen = rpcrdma2_encode_xch(out, size, hdr->xid, credit,
				      RDMA2_XCH_RESPXCH, &m);
	if (*outlen)
		x->sent++;
	return (*outlen ? RPCRDMA2_XCH_ANSWER : 0) |
	       (xch_apply(c) ? RPCRDMA2_XCH_APPLIED : 0);
}

/* The answer to our REQXCH, which asked for one RBSIZ (element 0). */
static void xch_response(struct rpcrdma2_xch *x, const struct rpcrdma2_hdr *hdr)
{
	if (!x->req_pending ||
	    hdr->xid != RPCRDMA2_XCH_XID(RDMA2_XCH_REQXCH))
		return;					/* not ours: stale */
	if (hdr->xch.subset[0][0] & 1) {		/* XCH-XOP-20: done */
		x->peer.rbsiz = x->req_rbsiz;
		x->peer.present |= XBIT(XCHAR_RBSIZ);
		x->req_pending = false;
	} else if (!(hdr->xch.subset[2][0] & 1)) {
		x->req_pending = false;			/* rejected */
	}
	/* pending: an UPDXCH with pendclr will settle it (XCH-XOP-22) */
}

/**
 * rpcrdma2_xch_recv - an RDMA2_XCH_* message the codec accepted
 * @c: the connection; the exchange is on (else the codec refused it)
 * @hdr: the decoded message
 * @credit: the credit word for an answer
 * @out: where a RESPXCH is encoded
 * @size: octets available at @out
 * @outlen: octets encoded at @out, 0 when there is nothing to send
 *
 * Returns RPCRDMA2_XCH_APPLIED and/or RPCRDMA2_XCH_ANSWER, or 0.
 */
int rpcrdma2_xch_recv(struct rpcrdma2_conn *c, const struct rpcrdma2_hdr *hdr,
		      u32 credit, void *out, u32 size, u32 *outlen)
{
	struct rpcrdma2_xch *x = &c->xch;

	*outlen = 0;
	if (!x->on)
		return 0;
	x->received++;
	switch (hdr->htype) {
	case RDMA2_XCH_INITXCH:
		/* XCH-XOP-14: what it leaves out keeps its default */
		xchars_default(&x->peer);
		xch_merge(x, &hdr->xch.chars);
		x->peer_init = true;
		break;
	case RDMA2_XCH_REQXCH:
		return xch_answer(c, hdr, credit, out, size, outlen);
	case RDMA2_XCH_RESPXCH:
		xch_response(x, hdr);
		break;
	case RDMA2_XCH_UPDXCH:				/* XCH-XOP-23 */
		xch_merge(x, &hdr->xch.chars);
		if (hdr->xch.pendclr && x->req_pending &&	/* XCH-XOP-24 */
		    (hdr->xch.chars.present & XBIT(XCHAR_RBSIZ)))
			x->req_pending = false;
		break;
	default:
		return 0;
	}
	return xch_apply(c) ? RPCRDMA2_XCH_APPLIED : 0;
}

/**
 * rpcrdma2_xch_refused - is this error the peer refusing the exchange?
 * @c: the connection
 * @hdr: a decoded Version 2 message
 *
 * An INVAL_HTYPE under the xid of our INITXCH or UPDXCH turns the
 * exchange off and restores the settled limits (XCH-XOP-11); under our
 * REQXCH's it ends the request (XCH-XOP-09).  Returns true if @hdr was
 * such an error: the caller does not treat it as an RPC's.
 */
bool rpcrdma2_xch_refused(struct rpcrdma2_conn *c,
			  const struct rpcrdma2_hdr *hdr)
{
	struct rpcrdma2_xch *x = &c->xch;

	if (!x->on || hdr->vers != RPCRDMA2_VERS_2 ||
	    hdr->htype != RDMA2_ERROR || hdr->err != RDMA2_ERR_INVAL_HTYPE)
		return false;
	switch (hdr->xid) {
	case RPCRDMA2_XCH_XID(RDMA2_XCH_REQXCH):
		x->req_pending = false;
		break;
	case RPCRDMA2_XCH_XID(RDMA2_XCH_INITXCH):
	case RPCRDMA2_XCH_XID(RDMA2_XCH_UPDXCH):
		x->on = false;
		x->refused = true;
		break;
	default:
		return false;
	}
	xch_apply(c);
	return true;
}

/**
 * rpcrdma2_xch_request_rbsiz - ask the peer for another RBSIZ
 * @c: the connection
 * @want: the Receive size we would like the peer to take
 * @credit: the credit word to send
 * @buf: output
 * @size: octets available
 *
 * One request at a time.  Until it is settled this end sends no more
 * than @want (XCH-INLINE-04).  Returns the REQXCH's length, or 0.
 */
u32 rpcrdma2_xch_request_rbsiz(struct rpcrdma2_conn *c, u32 want, u32 credit,
			       void *buf, u32 size)
{
	struct rpcrdma2_xch *x = &c->xch;
	struct rpcrdma2_xch_msg m = {
		.chars = {
			.present = XBIT(XCHAR_RBSIZ),
			.rbsiz = want,
		},
	};
	u32 len;

	if (!x->on || x->req_pending || want < RPCRDMA2_XCH_MIN_RBSIZ)
		return 0;
	len = rpcrdma2_encode_xch(buf, size,
				  RPCRDMA2_XCH_XID(RDMA2_XCH_REQXCH), credit,
				  RDMA2_XCH_REQXCH, &m);
	if (!len)
		return 0;
	x->sent++;
	x->req_pending = true;			/* XCH-XOP-12: we take RESPXCH */
	x->req_rbsiz = want;
	xch_apply(c);
	return len;
}

/**
 * rpcrdma2_xch_update_rbsiz - this end's RBSIZ rose: tell the peer
 * @c: the connection
 * @rbsiz: the new receive size
 * @credit: the credit word to send
 * @buf: output
 * @size: octets available
 *
 * Only a rise up to the posted Receive size is sent unasked
 * (XCH-INLINE-01, XCH-INLINE-02); a fall waits for the peer's REQXCH
 * (XCH-INLINE-03, XCH-XOP-10).  Returns the UPDXCH's length, or 0.
 */
u32 rpcrdma2_xch_update_rbsiz(struct rpcrdma2_conn *c, u32 rbsiz, u32 credit,
			      void *buf, u32 size)
{
	struct rpcrdma2_xch *x = &c->xch;
	struct rpcrdma2_xch_msg m = {
		.chars = {
			.present = XBIT(XCHAR_RBSIZ),
			.rbsiz = rbsiz,
		},
		.pendclr = false,			/* XCH-XOP-25 */
	};
	u32 len;

	if (!x->on || rbsiz <= x->local.rbsiz || rbsiz > x->rbsiz_max)
		return 0;
	len = rpcrdma2_encode_xch(buf, size,
				  RPCRDMA2_XCH_XID(RDMA2_XCH_UPDXCH), credit,
				  RDMA2_XCH_UPDXCH, &m);
	if (!len)
		return 0;
	x->sent++;
	x->local.rbsiz = rbsiz;
	xch_apply(c);
	return len;
}

/**
 * rpcrdma2_xch_no_reminv - did the requester ask for plain Sends?
 * @c: the connection
 *
 * XCH-RINV-01: a peer that says XCHAR_REQREMINV = FALSE gets its
 * Replies by plain Send.  Left out, the per-Call rules of Version 2
 * decide (XCH-RINV-02).
 */
bool rpcrdma2_xch_no_reminv(const struct rpcrdma2_conn *c)
{
	const struct rpcrdma2_xch *x = &c->xch;

	return x->on && (x->peer.present & XBIT(XCHAR_REQREMINV)) &&
	       !x->peer.reqreminv;
}
