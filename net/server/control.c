// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 server half: control messages, credit grants and errors.
 *
 * Owns the messages the server sends on its own rather than as a Reply:
 * the error messages (in the RFC 8166 layout on Version 1) and the
 * credit-grant-only message.  When a client has every granted credit
 * in use, a work item raises the grant to max_requests with a
 * credit-grant-only message (RDMA2_NOMSG, xid 0, V2-CRED-05,
 * V2-CRED-08), posted under xpt_mutex so that no Reply overtakes it.
 * The work item runs on rr2s_wq (transport.c), since nfsd may serve
 * swap.
 *
 * Called by: recvfrom.c (errors, rr2s_queue_grant()), sendto.c,
 * transport.c (rr2s_grant_worker, set up at accept).
 */

#include <linux/sunrpc/svc_xprt.h>

#include "rpcrdma2.h"
#include "server/server.h"
#include <trace/events/rpcrdma2.h>

/* ---- control messages: credit grants and errors ---- */

void rr2s_send_grant(struct rr2s_conn *c)
{
	rr2s_stat_inc(RR2S_STAT_GRANTS);
	rpcrdma2_link_send_grant(&c->link);
}

/**
 * rr2s_send_error_args - answer a message with an error (V2-SEC-17)
 * @c: the connection
 * @h: the message answered; an error is never answered
 * @verdict: RDMA2_ERR_* (ERR_CHUNK on Version 1 for all but ERR_VERS)
 * @arg0: the error's first word, if it has one
 * @arg1: its second word, if it has two
 */
void rr2s_send_error_args(struct rr2s_conn *c, const struct rpcrdma2_hdr *h,
			  int verdict, u32 arg0, u32 arg1)
{
	rr2s_send_error_ctx(c, h, verdict, arg0, arg1, NULL);
}

/**
 * rr2s_send_error_ctx - as rr2s_send_error_args(), the error's Send
 *	completion taking @ctx (rr2s_send_done())
 * @c: the connection
 * @h: the message answered
 * @verdict: RDMA2_ERR_*
 * @arg0: the error's first word
 * @arg1: its second word
 * @ctx: a Reply's RDMA Writes, or NULL
 *
 * Returns true if the error went out with @ctx, which is then no longer
 * the caller's.
 */
bool rr2s_send_error_ctx(struct rr2s_conn *c, const struct rpcrdma2_hdr *h,
			 int verdict, u32 arg0, u32 arg1, void *ctx)
{
	u32 vers = c->link.conn.vers, err = verdict;

	if (verdict == RPCRDMA2_DROP || h->htype == RDMA2_ERROR)
		return false;
	if (vers == RPCRDMA2_VERS_1 && err != RDMA2_ERR_VERS)
		err = rpcrdma2_v1_errcode(verdict);
	trace_rpcrdma2_svc_error(&c->b.xprt.xpt_remote, h->xid, vers, err);
	rr2s_stat_error(verdict);
	return rpcrdma2_link_send_error(&c->link, h, err, arg0, arg1, ctx);
}

/* Answer a rejected message: @arg as the codec gave it. */
void rr2s_send_error(struct rr2s_conn *c, const struct rpcrdma2_hdr *h,
		     int verdict, u32 arg)
{
	/* ERR_VERS carries low and high (V2-ERR-13) */
	rr2s_send_error_args(c, h, verdict, arg, c->link.local.max_vers);
}

void rr2s_grant_worker(struct work_struct *work)
{
	struct rr2s_conn *c = container_of(work, struct rr2s_conn, grant_work);
	struct svc_xprt *xprt = &c->b.xprt;
	u32 old = READ_ONCE(c->grant);

	/*
	 * Under xpt_mutex no Reply is being posted, so the client still
	 * has every credit in use when this grant reaches it, and cannot
	 * mistake it for a window acknowledgment.
	 */
	mutex_lock(&xprt->xpt_mutex);
	if (!svc_xprt_is_dead(xprt) && old < c->max_grant &&
	    atomic_read(&c->outstanding) >= old) {
		WRITE_ONCE(c->grant, c->max_grant);
		trace_rpcrdma2_svc_grant(&xprt->xpt_remote, old, c->max_grant);
		/*
		 * V2-FRAME-24: a Version 1 connection carries no Version 2
		 * message; there the next Reply's credit field says it.
		 */
		if (c->link.conn.vers == RPCRDMA2_VERS_2)
			rr2s_send_grant(c);
	}
	mutex_unlock(&xprt->xpt_mutex);
	svc_xprt_put(xprt);
}

/*
 * A Call was queued: when the client has every granted credit in use,
 * raise the grant from a work item (it takes xpt_mutex).
 */
void rr2s_queue_grant(struct rr2s_conn *c)
{
	struct svc_xprt *xprt = &c->b.xprt;

	if (atomic_inc_return(&c->outstanding) >= READ_ONCE(c->grant) &&
	    READ_ONCE(c->grant) < c->max_grant) {
		svc_xprt_get(xprt);
		if (!queue_work(rr2s_wq, &c->grant_work))
			svc_xprt_put(xprt);
	}
}
