// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 client half: the seed 004 characteristics exchange, opt-in.
 *
 * Owns the client's side of the exchange whose state machine is
 * shared/xch.c (and whose messages shared/xchar.c codes): our INITXCH
 * once the version settles, the answers to the server's RDMA2_XCH_*
 * messages, and the server's refusal of the exchange.  Runs in the
 * CQ's work item, as reply.c does.
 *
 * Called by: reply.c (rr2c_negotiate() starts it; the receive path
 * hands it RDMA2_XCH_* messages and INVAL_HTYPE errors).
 */

#include <linux/unaligned.h>

#include "rpcrdma2.h"
#include "client/client.h"
#include <trace/events/rpcrdma2.h>

/* ---- the seed 004 characteristics exchange (shared/xch.c), opt-in ---- */

static void rr2c_xch_send(struct rr2c *r, u32 htype, const void *msg, u32 len)
{
	if (!len)
		return;
	trace_rpcrdma2_xch_sent(&r->xprt.addr, htype, get_unaligned_be32(msg));
	rpcrdma2_link_send_ctrl(&r->link, msg, len);
}

static void rr2c_xch_applied(struct rr2c *r)
{
	trace_rpcrdma2_xch_applied(&r->xprt.addr, r->link.conn.send_inline,
				   r->link.conn.recv_inline, r->link.conn.peer_props.brs,
				   rpcrdma2_xch_no_reminv(&r->link.conn));
}

/*
 * The version has just settled, in this work item, so no message of
 * the server's is taken before the exchange is set up.  With the xchar
 * parameter on and Version 2, our INITXCH goes before any RPC
 * (XCH-XOP-16).
 */
void rr2c_xch_start(struct rr2c *r)
{
	u8 msg[128];

	rpcrdma2_xch_start(&r->link.conn, &r->link.local,
			   rpcrdma2_xchar_enabled(RPCRDMA2_CLIENT), true);
	rr2c_xch_send(r, RDMA2_XCH_INITXCH, msg,
		      rpcrdma2_xch_hello(&r->link.conn,
					 rr2c_credit(r, RPCRDMA2_VERS_2),
					 msg, sizeof(msg)));
}

/* An RDMA2_XCH_* message, accepted because the exchange is on. */
void rr2c_xch_recv(struct rr2c *r, const struct rpcrdma2_hdr *hdr)
{
	u32 credit = rr2c_credit(r, r->link.conn.vers);
	u8 out[128];
	u32 outlen;
	int act;

	trace_rpcrdma2_xch_received(&r->xprt.addr, hdr->htype, hdr->xid);
	act = rpcrdma2_xch_recv(&r->link.conn, hdr, credit, out, sizeof(out),
				&outlen);
	if (act & RPCRDMA2_XCH_ANSWER)
		rr2c_xch_send(r, RDMA2_XCH_RESPXCH, out, outlen);
	if (act & RPCRDMA2_XCH_APPLIED)
		rr2c_xch_applied(r);
}

/*
 * An INVAL_HTYPE for one of our exchange messages: the server does not
 * take the exchange (XCH-XOP-11), no RPC failed.  Returns true if so.
 */
bool rr2c_xch_refused(struct rr2c *r, const struct rpcrdma2_hdr *hdr)
{
	if (!rpcrdma2_xch_refused(&r->link.conn, hdr))
		return false;
	/* our xid names the operation refused (RPCRDMA2_XCH_XID) */
	trace_rpcrdma2_xch_refused(&r->xprt.addr, hdr->xid, hdr->xid);
	rr2c_xch_applied(r);
	return true;
}
