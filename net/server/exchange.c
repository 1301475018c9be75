// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 server half: the seed 004 characteristics exchange, opt-in.
 *
 * Owns the server's side of the exchange whose state machine is
 * shared/xch.c (and whose messages shared/xchar.c codes): our INITXCH
 * once the version settles, an UPDXCH when max_req_size rose since
 * (XCH-INLINE-02), the answers to the client's RDMA2_XCH_* messages,
 * and the client's refusal of the exchange.  Runs in the CQ's work
 * item, as recvfrom.c's receive side does.
 *
 * Called by: recvfrom.c (rr2s_negotiate() starts it; the link's
 * callbacks hand it every message taken, RDMA2_XCH_* messages and
 * errors).
 */

#include <linux/unaligned.h>

#include "rpcrdma2.h"
#include "server/server.h"
#include <trace/events/rpcrdma2.h>

/* ---- the seed 004 characteristics exchange (shared/xch.c), opt-in ---- */

static void rr2s_xch_send(struct rr2s_conn *c, u32 htype, const void *msg,
			  u32 len)
{
	if (!len)
		return;
	trace_rpcrdma2_xch_sent(&c->b.xprt.xpt_remote, htype,
				get_unaligned_be32(msg));
	rpcrdma2_link_send_ctrl(&c->link, msg, len);
}

static void rr2s_xch_applied(struct rr2s_conn *c)
{
	const struct rpcrdma2_conn *conn = &c->link.conn;

	trace_rpcrdma2_xch_applied(&c->b.xprt.xpt_remote, conn->send_inline,
				   conn->recv_inline, conn->peer_props.brs,
				   rpcrdma2_xch_no_reminv(conn));
}

/*
 * The version is settled and our CONNPROP, if any, is sent: with the
 * xchar parameter on and Version 2, our INITXCH follows (XCH-XOP-16).
 */
void rr2s_xch_start(struct rr2s_conn *c)
{
	u8 msg[128];

	rpcrdma2_xch_start(&c->link.conn, &c->link.local,
			   rpcrdma2_xchar_enabled(RPCRDMA2_SERVER), false);
	c->xch_knob = rr2s_knob_recv_size();
	rr2s_xch_send(c, RDMA2_XCH_INITXCH, msg,
		      rpcrdma2_xch_hello(&c->link.conn, rr2s_credit(c), msg,
					 sizeof(msg)));
}

/*
 * max_req_size changed since the last message: an RBSIZ that a REQXCH
 * lowered may rise again, up to the posted Receive size, with an
 * UPDXCH (XCH-INLINE-02).  A smaller knob lowers nothing on an open
 * connection (XCH-INLINE-03).
 */
void rr2s_xch_knob(struct rr2s_conn *c)
{
	u32 knob = rr2s_knob_recv_size(), len;
	u8 msg[64];

	if (!c->link.conn.xch.on || knob == c->xch_knob)
		return;
	c->xch_knob = knob;
	len = rpcrdma2_xch_update_rbsiz(&c->link.conn,
					min(knob, c->link.conn.xch.rbsiz_max),
					rr2s_credit(c), msg, sizeof(msg));
	if (!len)
		return;
	rr2s_xch_send(c, RDMA2_XCH_UPDXCH, msg, len);
	rr2s_xch_applied(c);
}

/* An RDMA2_XCH_* message, accepted because the exchange is on. */
void rr2s_xch_recv(struct rr2s_conn *c, const struct rpcrdma2_hdr *h)
{
	u8 out[128];
	u32 outlen;
	int act;

	trace_rpcrdma2_xch_received(&c->b.xprt.xpt_remote, h->htype, h->xid);
	act = rpcrdma2_xch_recv(&c->link.conn, h, rr2s_credit(c), out,
				sizeof(out), &outlen);
	if (act & RPCRDMA2_XCH_ANSWER)
		rr2s_xch_send(c, RDMA2_XCH_RESPXCH, out, outlen);
	if (act & RPCRDMA2_XCH_APPLIED)
		rr2s_xch_applied(c);
}

/* An error: the client refusing the exchange (XCH-XOP-11)? */
void rr2s_xch_error(struct rr2s_conn *c, const struct rpcrdma2_hdr *h)
{
	if (!rpcrdma2_xch_refused(&c->link.conn, h))
		return;				/* else never answered */
	/* our xid names the operation refused (RPCRDMA2_XCH_XID) */
	trace_rpcrdma2_xch_refused(&c->b.xprt.xpt_remote, h->xid, h->xid);
	rr2s_xch_applied(c);
}
