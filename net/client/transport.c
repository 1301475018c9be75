// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 client half: the sunrpc transport class.
 *
 * Owns the xprt_class that the RPC client looks up for "proto=rdma" and
 * "proto=rdma6" mounts (ident XPRT_TRANSPORT_RDMA) and one connection
 * per rpc_xprt.
 *
 * Connection lifecycle (one delayed work item, on xprtiod):
 *   resolve address and route -> create the endpoint and post every
 *   Receive -> rdma_connect() with the RFC 8797 record -> settle the
 *   version (V2-FRAME-14): a CONNPROP goes first when Version 2 is
 *   offered, and the server's CONNPROP or a Version 1 ERR_VERS decides.
 *   Only then is the transport marked connected, so the RPC layer (and
 *   NFS reading rpc_max_payload()) sees the settled thresholds.  After
 *   one fallback the transport offers Version 1 only, so reconnects do
 *   not negotiate again (V2-FRAME-18).
 *
 * Sending: marshal.c's policy picks the format of each Call.  A Call
 * with chunks goes out as REG_MRs chained before one Send (marshal.c,
 * frwr.c).  Otherwise it is copied into Send buffers, one Send when it
 * fits the inline threshold, else a continued sequence on Version 2
 * (V2-CONT-01).  Credits are the sunrpc congestion window: the server's
 * grant sets cwnd and each RPC holds one credit until its Reply
 * (V2-CRED-02, V2-CRED-04).  Continuation messages after the first use the
 * sequence window of net/shared/xfer.c.  When a Send buffer or window
 * room is missing, ->send_request waits for write space and the next
 * transmit resumes the same request where it stopped; the transmit
 * queue guarantees nothing else is sent in between (V2-CONT-03).
 *
 * Statistics (mountstats and the per-transport debugfs file): stats.c.
 *
 * Receiving: reply.c.  Forward slots are struct rr2c_req, allocated
 * with the transport and handed out by rr2c_op_alloc_slot(); their MRs
 * are invalidated before their buffers are freed (->buf_free,
 * V2-SEC-09).  Teardown: rdma_disconnect(), no more MR work requests,
 * then the endpoint drains and destroys the QP and calls back to free
 * the MRs before the PD goes.
 *
 * Called by: net/sunrpc (xprt_create_transport and the rpc_xprt_ops),
 * the module core.
 */

#include <linux/module.h>
#include <linux/err.h>
#include <linux/jhash.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/sunrpc/addr.h>
#include <linux/sunrpc/bc_xprt.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/sched.h>
#include <linux/sunrpc/xprt.h>
#include <linux/sunrpc/xprtrdma.h>
#include <linux/unaligned.h>

#include "rpcrdma2.h"
#include "client/client.h"
#include "shared/log.h"
#include "shared/fault.h"
#include <trace/events/rpcrdma2.h>

static const struct rpc_xprt_ops rr2c_ops;
static struct xprt_class rpcrdma2_clnt_class;

/* ---- credits ---- */

/*
 * The Receives behind a grant: one per credit granted (V2-CRED-01),
 * plus the reverse-Call and V2-CRED-07 ones, made as the grant grows,
 * so that a server granting fewer credits than the slots asked for
 * costs no memory for the rest.  They are posted before the window
 * opens, so every Reply finds one.  When memory runs short the window
 * opens only as far as the Receives go, and the next grant tries again.
 */
static u32 rr2c_recvs_for(struct rr2c *r, u32 grant)
{
	const u32 extra = RR2C_BC_SLOTS + RPCRDMA2_RECV_EXTRA;
	u32 made;

	/*
	 * The CQ's work item runs this: never wait for reclaim here (a
	 * swap device's writeback may need this very connection), fail
	 * instead and keep the window where the Receives are
	 */
	if (READ_ONCE(r->ep.nr_recv_made) >= grant + extra)
		return grant;
	mutex_lock(&r->recv_lock);
	made = rpcrdma2_ep_grow_recvs(&r->ep, grant + extra,
				      GFP_NOWAIT | __GFP_NOMEMALLOC);
	mutex_unlock(&r->recv_lock);
	/* at least RR2C_RECV_INIT credits' worth: made with the endpoint */
	return made > extra ? min(made - extra, grant) : 1;
}

/**
 * rr2c_credit - the credit word of a message the client sends
 * @r: the transport
 * @vers: the version the message is in
 *
 * On Version 2 each end grants the other Receives (V2-CRED-01): the
 * grant half is the Receives posted for the server's messages, which
 * grow with the server's grant (rr2c_recvs_for()), less the ones kept
 * beyond the credits (V2-CRED-07, the continuation window); the
 * maximum half is the credits asked for (V2-CRED-02).  On Version 1
 * the word is the credits requested (BC1-CRED-01).
 */
u32 rr2c_credit(const struct rr2c *r, u32 vers)
{
	u32 made = READ_ONCE(r->ep.nr_recv_made);

	if (vers == RPCRDMA2_VERS_1)
		return rpcrdma2_credit_out(vers, r->credits);
	made = made > RPCRDMA2_RECV_EXTRA ? made - RPCRDMA2_RECV_EXTRA : 1;
	return rpcrdma2_credit_word(min_t(u32, made, RDMA2_CREDIT_GRANT_MASK),
				    min_t(u32, r->credits,
					  RDMA2_CREDIT_GRANT_MASK));
}

/*
 * Apply the server's grant, from the message @xid (0: not from a
 * message), as the congestion window.  A larger window
 * lets a Call that waits for congestion space go: clear the wait flag,
 * as sunrpc does when a credit is returned, and wake the first waiter
 * on the sending queue, which tries the transport lock again on its
 * own.  The lock itself is never released here: only its holder may do
 * that, and during autoclose that is not a task at all.
 */
void rr2c_set_grant(struct rr2c *r, u32 xid, u32 grant)
{
	struct rpc_xprt *xprt = &r->xprt;
	bool raised = false;

	if (!grant)
		return;			/* V2-CRED-03: keep the previous one */
	grant = rr2c_recvs_for(r, min(grant, r->credits));
	spin_lock(&xprt->transport_lock);
	if (xprt->cwnd != grant << RPC_CWNDSHIFT) {
		raised = xprt->cwnd < grant << RPC_CWNDSHIFT;
		xprt->cwnd = grant << RPC_CWNDSHIFT;
		trace_rpcrdma2_clnt_grant(&xprt->addr, xid, r->conn.vers,
					  grant);
	}
	/* as sunrpc does when a credit comes back: no longer congested */
	if (raised && !RPCXPRT_CONGESTED(xprt))
		clear_bit(XPRT_CWND_WAIT, &xprt->state);
	else
		raised = false;
	spin_unlock(&xprt->transport_lock);
	if (raised)
		rpc_wake_up_next(&xprt->sending);
}

/* ---- connection manager events ---- */

static int rr2c_cm_event(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct rr2c *r = id->context;
	int status = 0;

	trace_rpcrdma2_cm_event(&r->xprt.addr, ev->event, ev->status);
	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
		status = -EHOSTUNREACH;
		break;
	case RDMA_CM_EVENT_ROUTE_ERROR:
		status = -ENETUNREACH;
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		/* CMP-CMPD-14: no usable record means 1024/1024, R = 0 */
		rpcrdma2_ep_peer_pdata(ev, &r->peer_pdata);
		break;
	case RDMA_CM_EVENT_REJECTED:
		status = -ECONNREFUSED;
		break;
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_CONNECT_ERROR:
		status = -ENOTCONN;
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
	case RDMA_CM_EVENT_ADDR_CHANGE:
	case RDMA_CM_EVENT_DISCONNECTED:
		xprt_force_disconnect(&r->xprt);
		status = -ECONNABORTED;
		break;
	default:
		return 0;
	}
	r->cm_status = status;
	complete(&r->cm_done);
	return 0;
}

/*
 * shared/dev.c: the device is going away, before rdma_cm's own
 * DEVICE_REMOVAL.  Close the connection; a connect in progress stops
 * waiting for the peer (a negotiation under way is left to finish: the
 * device works until we let go).  The RPCs wait for a reconnect, which
 * succeeds once a device with a route to the server is up.
 */
void rr2c_ep_removing(struct rpcrdma2_ep *ep)
{
	struct rr2c *r = ep->priv;

	trace_rpcrdma2_cm_event(&r->xprt.addr, RDMA_CM_EVENT_DEVICE_REMOVAL,
				-ENODEV);
	xprt_force_disconnect(&r->xprt);
	r->cm_status = -ENETUNREACH;
	complete(&r->cm_done);
}

static int rr2c_cm_wait(struct rr2c *r, unsigned long timeout)
{
	if (!wait_for_completion_timeout(&r->cm_done, timeout))
		return -ETIMEDOUT;
	reinit_completion(&r->cm_done);
	return r->cm_status;
}

/*
 * A message was abandoned after some of its Sends went out: the peer
 * holds an open sequence that nothing will finish, and the next message
 * must not be cut into it (V2-CONT-03, V2-CONT-06).  The connection is no
 * longer usable: drop it, as xprtsock does after a partial send.
 */
void rr2c_tx_abandon(struct rr2c *r)
{
	r->tx_req = NULL;
	r->stats.aborted_seqs++;
	trace_rpcrdma2_clnt_abandon(&r->xprt.addr, r->tx.xid, r->tx.vers,
				    r->tx.msgno, r->tx.off);
}

/* ---- connect and close ---- */

static void rr2c_teardown(struct rr2c *r)
{
	if (!r->id)
		return;
	trace_rpcrdma2_clnt_disconnect(&r->xprt.addr, r->cm_status);
	rdma_disconnect(r->id);
	rr2c_frwr_quiesce(r);
	rpcrdma2_ep_destroy(&r->ep);	/* drains; frees the MRs (reply.c) */
	rr2c_rx_drop(r);
	rpcrdma2_pool_destroy(&r->pool);
	rdma_destroy_id(r->id);
	r->id = NULL;
	r->tx_req = NULL;
	memset(&r->conn, 0, sizeof(r->conn));
}

static int rr2c_hello(struct rr2c *r)
{
	struct rpcrdma2_send *sd = rpcrdma2_pool_get(&r->pool, false);
	u32 len;

	if (!sd)
		return -ENOBUFS;
	len = rpcrdma2_nego_client_hello(&r->local, 0, sd->buf,
					 sd->ep->attr.send_size);
	if (!len || rpcrdma2_ep_post_send(sd, len, 0)) {
		rpcrdma2_pool_put(&r->pool, sd);
		return -EIO;
	}
	r->stats.hellos++;
	return 0;
}

/* How long the next connections offer Version 1 after @lost losses. */
static unsigned long rr2c_v2_backoff(u32 lost)
{
	return min_t(unsigned long, RR2C_V2_RETRY << min(lost - 1, 8U),
		     RR2C_V2_RETRY_MAX);
}

/**
 * rr2c_nego_outcome - what a Version 2 negotiation means for later ones
 * @r: the transport
 * @ret: 0 (Version 2 settled), -EPFNOSUPPORT (the server's ERR_VERS
 *	 named 1 and not 2), -EPROTONOSUPPORT (its ERR_VERS named neither
 *	 1 nor 2), or another errno (the first message was lost, dropped,
 *	 timed out or drew nothing that settles)
 *
 * Two kinds of fallback.  The server's own answer binds this transport
 * until it is destroyed (a remount): after ERR_VERS [low, high] no
 * version outside it is sent again (V2-ERR-15), so a range with 1 but
 * not 2 leaves Version 1 only, and a range with neither leaves nothing:
 * the transport makes no connection at all (rr2c_connect()).  Anything
 * else said nothing about the server: the next connections offer
 * Version 1 rather than loop (V2-FRAME-19), and Version 2 again after
 * rr2c_v2_backoff(), which doubles with each loss in a row up to
 * RR2C_V2_RETRY_MAX and never stops.
 */
VISIBLE_IF_KUNIT void rr2c_nego_outcome(struct rr2c *r, int ret)
{
	switch (ret) {
	case 0:
		r->v2_lost = 0;
		r->fallback = RR2C_FB_NONE;
		break;
	case -EPFNOSUPPORT:
		r->vers_cap = RPCRDMA2_VERS_1;
		r->fallback = RR2C_FB_SERVER;
		break;
	case -EPROTONOSUPPORT:
		r->vers_cap = 0;
		r->fallback = RR2C_FB_NO_VERS;
		break;
	default:
		if (r->v2_lost < U8_MAX)
			r->v2_lost++;
		r->v2_retry = jiffies + rr2c_v2_backoff(r->v2_lost);
		r->fallback = RR2C_FB_LOST;
		break;
	}
}

/**
 * rr2c_offer_vers - the highest version the next connection offers
 * @r: the transport
 * @max_vers: the rdmavers module parameter
 *
 * Returns 0 when the server speaks no version this client does.
 */
VISIBLE_IF_KUNIT u32 rr2c_offer_vers(const struct rr2c *r, u32 max_vers)
{
	if (r->vers_cap < max_vers)
		return r->vers_cap;
	if (r->v2_lost && time_before(jiffies, r->v2_retry))
		return min_t(u32, max_vers, RPCRDMA2_VERS_1);
	return max_vers;
}

static int rr2c_settle(struct rr2c *r)
{
	int ret;

	rpcrdma2_conn_init(&r->conn, &r->peer_pdata);
	r->nego_grant = 1;
	if (r->local.max_vers == RPCRDMA2_VERS_1) {
		r->conn.vers = RPCRDMA2_VERS_1;
		rpcrdma2_conn_thresholds(&r->conn, &r->local);
		return 0;
	}
	reinit_completion(&r->nego_done);
	r->nego_lost = false;
	ret = rr2c_hello(r);
	if (ret)
		return ret;
	if (!wait_for_completion_timeout(&r->nego_done, RR2C_NEGO_TIMEOUT) ||
	    r->nego_lost)
		ret = -ETIMEDOUT;
	else if (r->nego == RPCRDMA2_NEGO_DONE)
		ret = r->conn.vers == RPCRDMA2_VERS_2 ? 0 : -EPFNOSUPPORT;
	else if (r->nego == RPCRDMA2_NEGO_NO_VERS)
		ret = -EPROTONOSUPPORT;
	else
		ret = -EPROTO;
	rr2c_nego_outcome(r, ret);
	if (ret == -EPFNOSUPPORT)	/* settled on Version 1 */
		ret = 0;
	if (ret == -EPROTONOSUPPORT)
		pr_warn("rpcrdma2: %s speaks only RPC-over-RDMA versions %u to %u; this client speaks 1 and 2 and will not connect to it again until it is mounted again (V2-ERR-15)\n",
			r->xprt.address_strings[RPC_DISPLAY_ADDR],
			r->conn.peer_vers_low, r->conn.peer_vers_high);
	return ret;
}

#define RR2C_WHY_SERVER " (fallback: the server answered that it has no Version 2; not offered again until remount)"
#define RR2C_WHY_LOST " (fallback: a Version 2 negotiation was lost or settled nothing; Version 2 is offered again later)"

/* The log: why a connection speaks Version 1 (V2-FRAME-19, V2-ERR-15). */
static const char *rr2c_fallback_why(const struct rr2c *r)
{
	if (r->conn.vers != RPCRDMA2_VERS_1 ||
	    rpcrdma2_max_version(RPCRDMA2_CLIENT) < RPCRDMA2_VERS_2)
		return "";
	switch (r->fallback) {
	case RR2C_FB_SERVER:
		return RR2C_WHY_SERVER;
	case RR2C_FB_LOST:
		return RR2C_WHY_LOST;
	default:
		return "";
	}
}

/**
 * rr2c_ep_queues - the queues of a connection asking for @credits
 * @attr: its endpoint's attributes; the queue sizes are set
 * @credits: the credits asked for
 *
 * A Receive per credit plus the reverse-Call and V2-CRED-07 ones, made
 * as the server grants credits (rr2c_recvs_for()) from RR2C_RECV_INIT
 * credits' worth; a REG_MR and a LOCAL_INV per MR of a full pool
 * (rr2c_frwr_nr_wrs(), never below one RPC's worst case) on the Send
 * Queue beside the Sends.
 */
void rr2c_ep_queues(struct rpcrdma2_ep_attr *attr, u32 credits)
{
	const u32 extra = RR2C_BC_SLOTS + RPCRDMA2_RECV_EXTRA;

	attr->nr_recv = credits + extra;
	attr->nr_recv_init = min(credits, RR2C_RECV_INIT) + extra;
	attr->nr_send_extra = rr2c_frwr_nr_wrs(credits);
}

/* Whether rpcrdma2_ep_create() takes a connection asking for @c credits */
VISIBLE_IF_KUNIT bool rr2c_queues_fit(u32 c,
				      const struct rpcrdma2_dev_attr *dev,
				      u32 nr_send)
{
	struct rpcrdma2_ep_attr attr = { .nr_send = nr_send };

	rr2c_ep_queues(&attr, c);
	return rpcrdma2_ep_attr_fits(&attr, dev);
}

/**
 * rr2c_credits_fit - the most credits up to @want that a device holds
 * @want: the credits asked for
 * @dev: the device's limits
 * @nr_send: the connection's Send buffers
 *
 * Returns 0 when not even RPCRDMA_MIN_SLOT_TABLE credits fit.  The
 * closed form below is exact for a pool of RR2C_MRS_PER_CREDIT MRs per
 * credit; under the pool's floor (few credits) the queues need more,
 * and the count goes down until they fit.
 */
u32 rr2c_credits_fit(u32 want, const struct rpcrdma2_dev_attr *dev,
		     u32 nr_send)
{
	const long per_credit = 2 * RR2C_MRS_PER_CREDIT;
	const long extra = RR2C_BC_SLOTS + RPCRDMA2_RECV_EXTRA;
	long room;
	u32 c;

	room = (long)dev->max_qp_wr - 1 - extra;
	room = min(room, ((long)dev->max_qp_wr - nr_send - 1) / per_credit);
	room = min(room, ((long)dev->max_cqe - extra - nr_send - 2) /
			 (1 + per_credit));
	if (room < RPCRDMA_MIN_SLOT_TABLE)
		return 0;
	c = min_t(long, want, room);
	while (c >= RPCRDMA_MIN_SLOT_TABLE && !rr2c_queues_fit(c, dev, nr_send))
		c--;
	return c >= RPCRDMA_MIN_SLOT_TABLE ? c : 0;
}

/*
 * The credits a new connection asks for: the transport's slots, which
 * rdma_slot_table_entries set when the mount made it, as the stock
 * client asks for (a later write of the knob changes new mounts, not
 * the reconnects of this one), lowered to what the device's queues
 * hold.  A device that cannot hold RPCRDMA_MIN_SLOT_TABLE gets what was
 * asked for, and rpcrdma2_ep_create() refuses it.
 */
static u32 rr2c_credits_for(const struct rr2c *r, struct ib_device *device,
			    const struct rpcrdma2_ep_attr *attr)
{
	struct rpcrdma2_dev_attr dev;

	rpcrdma2_dev_attr(device, &dev);
	return rr2c_credits_fit(r->nr_slots, &dev, attr->nr_send) ?:
	       r->nr_slots;
}

static int rr2c_connect(struct rr2c *r)
{
	struct rpc_xprt *xprt = &r->xprt;
	struct rpcrdma2_ep_attr attr = {
		/*
		 * rdma_max_inline_read and rdma_max_inline_write: read
		 * once, for the life of the connection.  They are what the
		 * RFC 8797 record (CMP-CMPD-11) and the CONNPROP (SBSIZ,
		 * RBSIZ: V2-INLINE-06, V2-INLINE-07) advertise.
		 */
		.recv_size	= rr2c_knob_recv_size(),
		.nr_send	= RPCRDMA2_CTRL_SENDS + 2 * RPCRDMA2_SEQ_WINDOW,
		.send_batch	= RPCRDMA2_SEND_BATCH,
		.send_size	= rr2c_knob_send_size(),
	};
	struct rdma_conn_param param;
	u8 pdata[RPCRDMA2_CMP_SIZE];
	struct rdma_cm_id *id;
	u32 i;
	int ret;

	/* V2-ERR-15: the server named no version we speak: send nothing */
	if (!r->vers_cap)
		return -EPROTONOSUPPORT;
	init_completion(&r->cm_done);
	id = rdma_create_id(xprt->xprt_net, rr2c_cm_event, r, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);
	r->id = id;
	ret = rdma_resolve_addr(id, NULL, (struct sockaddr *)&xprt->addr,
				RR2C_RESOLVE_MS);
	if (!ret)
		ret = rr2c_cm_wait(r, msecs_to_jiffies(2 * RR2C_RESOLVE_MS));
	if (!ret)
		ret = rdma_resolve_route(id, RR2C_RESOLVE_MS);
	if (!ret)
		ret = rr2c_cm_wait(r, msecs_to_jiffies(2 * RR2C_RESOLVE_MS));
	if (ret)
		goto fail_id;

	/*
	 * rdma_slot_table_entries, read once per connection: the credits
	 * asked for and granted (V2-CRED-01), a Receive for each plus the
	 * callback ones and V2-CRED-07's, and a REG_MR and a LOCAL_INV per
	 * MR the pool may grow to.
	 */
	r->credits = rr2c_credits_for(r, id->device, &attr);
	rr2c_ep_queues(&attr, r->credits);
	ret = rpcrdma2_ep_create(&r->ep, id, &attr, &rr2c_ep_ops, r);
	if (ret)
		goto fail_id;
	ret = rpcrdma2_pool_init(&r->pool, &r->ep);
	if (!ret)
		ret = rr2c_frwr_create(r);
	for (i = 0; !ret && i < r->ep.nr_recv_made; i++)
		ret = rpcrdma2_ep_post_recv(&r->ep.recvs[i]);
	if (ret)
		goto fail;

	memset(&r->local, 0, sizeof(r->local));
	r->local.max_vers = rr2c_offer_vers(r,
					    rpcrdma2_max_version(RPCRDMA2_CLIENT));
	r->local.send_size = attr.send_size;
	r->local.recv_size = attr.recv_size;
	/* V2-RDIR-10, V2-RDIR-12: the reverse Calls this client takes */
	r->local.brs = rpcrdma2_rvrsdir_level(RPCRDMA2_CLIENT);
	r->local.hostauth_len = rpcrdma2_hostauth_get(r->local.hostauth);
	r->local.remote_inv = true;
	rpcrdma2_local_segments(&r->local, id->device, &rr2c_limits);
	r->local.credits = rr2c_credit(r, RPCRDMA2_VERS_2);
	memset(&r->seq, 0, sizeof(r->seq));
	rpcrdma2_reasm_init(&r->reasm, RPCRDMA2_MAX_CONT_MSG);
	rr2c_rx_reset(r);
	memset(&r->conn, 0, sizeof(r->conn));	/* unsettled: vers 0 */

	/* CMP-CMPD-05, CMP-CMPD-14: the peer's record, per connection */
	rpcrdma2_cmp_decode(NULL, 0, &r->peer_pdata);
	/* CMP-RINV-05: every STag we expose is an FRWR one, per RPC */
	rpcrdma2_ep_conn_param(&r->ep, &param, pdata, true);
	/* the server RDMA Reads our Read chunks */
	param.responder_resources = min_t(u32, r->ep.dattr.max_qp_rd_atom,
					  U8_MAX);
	ret = rdma_connect(id, &param);
	if (!ret)
		ret = rr2c_cm_wait(r, xprt->connect_timeout);
	if (ret)
		goto fail;
	ret = rr2c_settle(r);
	if (ret)
		goto fail;

	/* no RPC larger than the chunks can carry */
	xprt->max_payload = rr2c_marshal_limits(r);
	rr2c_set_grant(r, 0, r->nego_grant);
	trace_rpcrdma2_clnt_connected(&xprt->addr, r->conn.vers,
				      r->conn.send_inline,
				      r->conn.recv_inline);
	if (r->conn.peer_hostauth_len)
		trace_rpcrdma2_hostauth(&xprt->addr, r->conn.peer_hostauth_len,
					r->conn.peer_hostauth);
	/* once per server and outcome, not per connection */
	if (rpcrdma2_log_peer(RPCRDMA2_CLIENT, (struct sockaddr *)&xprt->addr,
			      RPCRDMA2_LOG_SETTLED,
			      jhash_3words(r->conn.vers, r->conn.send_inline,
					   r->conn.recv_inline, r->fallback)))
		pr_info("rpcrdma2: connected to %s, RPC-over-RDMA version %u, inline %u/%u%s\n",
			xprt->address_strings[RPC_DISPLAY_ADDR], r->conn.vers,
			r->conn.send_inline, r->conn.recv_inline,
			rr2c_fallback_why(r));
	return 0;

fail:
	rr2c_teardown(r);
	return ret;
fail_id:
	rdma_destroy_id(id);
	r->id = NULL;
	return ret;
}

/* What the operator can do about a connection that could not be made. */
#define RR2C_HINT_NO_DEVICE "no RDMA device reaches this address: check that the interface towards the server is an RDMA one and up (rdma link show)"
#define RR2C_HINT_NO_SERVER "check that the server is up and its nfsd listens for RDMA on this port (rpc.nfsd --rdma=20049, or rdma=y in /etc/nfs.conf)"
#define RR2C_HINT_NEGO "the server's Version 2 negotiation failed; the next attempts offer Version 1, and Version 2 again later"
#define RR2C_HINT_NO_VERS "the server speaks neither RPC-over-RDMA version 1 nor 2; no connection is tried again until the file system is mounted again"
#define RR2C_HINT_NO_FRWR "the RDMA device cannot do FRWR memory registration, which rpcrdma2 needs: use another device or the stock rpcrdma module"
#define RR2C_HINT_NO_MEM "out of memory: lower /proc/sys/sunrpc/rdma_slot_table_entries or rdma_max_inline_read"
#define RR2C_HINT_OTHER "check the RDMA device (rdma link show) and the server"

static const char *rr2c_connect_hint(int err)
{
	switch (err) {
	case -EADDRNOTAVAIL:
	case -ENODEV:
	case -EHOSTUNREACH:
	case -ENETUNREACH:
		return RR2C_HINT_NO_DEVICE;
	case -ECONNREFUSED:
	case -ETIMEDOUT:
	case -ENOTCONN:
		return RR2C_HINT_NO_SERVER;
	case -EPROTO:
		return RR2C_HINT_NEGO;
	case -EPROTONOSUPPORT:
		return RR2C_HINT_NO_VERS;
	case -EOPNOTSUPP:
		return RR2C_HINT_NO_FRWR;
	case -ENOMEM:
	case -ENOBUFS:
		return RR2C_HINT_NO_MEM;
	default:
		return RR2C_HINT_OTHER;
	}
}

static void rr2c_connect_worker(struct work_struct *work)
{
	struct rr2c *r = container_of(to_delayed_work(work), struct rr2c,
				      connect_work);
	struct rpc_xprt *xprt = &r->xprt;
	bool swapper = atomic_read(&xprt->swapper);
	unsigned int noreclaim = 0;
	int ret;

	/* a swap device's transport must connect under memory pressure */
	rr2c_debugfs_add(r);
	if (swapper)
		noreclaim = memalloc_noreclaim_save();
	rr2c_teardown(r);
	ret = rr2c_connect(r);
	if (swapper)
		memalloc_noreclaim_restore(noreclaim);
	xprt_clear_connecting(xprt);
	if (!ret) {
		xprt->connect_cookie++;
		xprt->stat.connect_count++;
		xprt->stat.connect_time += (long)jiffies -
					   xprt->stat.connect_start;
		xprt_set_connected(xprt);
		r->ever_failed = false;
		ret = -EAGAIN;
	} else {
		trace_rpcrdma2_clnt_connect_failed(&xprt->addr, ret);
		/* once per server and error until it connects again */
		if (rpcrdma2_log_peer(RPCRDMA2_CLIENT,
				      (struct sockaddr *)&xprt->addr,
				      RPCRDMA2_LOG_FAILED, -ret))
			pr_warn("rpcrdma2: cannot connect to %s (%pe): %s\n",
				xprt->address_strings[RPC_DISPLAY_ADDR],
				ERR_PTR(ret), rr2c_connect_hint(ret));
		r->ever_failed = true;
		/*
		 * Memory ran short: the waiting tasks try again after the
		 * reconnect delay (call_connect_status() retries -ENOBUFS),
		 * where -ENOMEM would end each RPC with that error, a hard
		 * NFS mount's WRITE included
		 */
		if (ret == -ENOMEM)
			ret = -ENOBUFS;
	}
	xprt_unlock_connect(xprt, r);
	xprt_wake_pending_tasks(xprt, ret);
}

static void rr2c_op_connect(struct rpc_xprt *xprt, struct rpc_task *task)
{
	struct rr2c *r = rr2c(xprt);
	unsigned long delay = 0;

	WARN_ON_ONCE(!xprt_lock_connect(xprt, task, r));
	if (r->ever_failed) {
		delay = xprt_reconnect_delay(xprt);
		xprt_reconnect_backoff(xprt, RR2C_INIT_REEST_TO);
		trace_rpcrdma2_clnt_reconnect(&xprt->addr,
					      jiffies_to_msecs(delay),
					      jiffies_to_msecs(xprt->reestablish_timeout));
	}
	trace_rpcrdma2_clnt_connect(&xprt->addr, jiffies_to_msecs(delay));
	xprt->stat.connect_start = jiffies;
	queue_delayed_work(xprtiod_workqueue, &r->connect_work, delay);
}

static void rr2c_op_close(struct rpc_xprt *xprt)
{
	struct rr2c *r = rr2c(xprt);

	trace_rpcrdma2_clnt_close(&xprt->addr, 0);
	rr2c_teardown(r);
	xprt->reestablish_timeout = 0;
	++xprt->connect_cookie;
	xprt_disconnect_done(xprt);
}

static void rr2c_op_destroy(struct rpc_xprt *xprt)
{
	struct rr2c *r = rr2c(xprt);

	trace_rpcrdma2_clnt_destroy(&xprt->addr, 0);
	cancel_delayed_work_sync(&r->connect_work);
	rr2c_teardown(r);
	rr2c_bc_destroy(xprt, UINT_MAX);
	rpcrdma2_xprt_free_addresses(xprt);
	kvfree(r->reqs);
	kvfree(r->rx_stage);
	xprt_free(xprt);
	module_put(THIS_MODULE);
}

/* ---- sending ---- */

/* Is there room for the next Send of the message being cut? */
static bool rr2c_has_room(struct rr2c *r)
{
	return rpcrdma2_seq_may_send(&r->seq, r->tx.msgno + 1) &&
	       rpcrdma2_pool_avail(&r->pool);
}

/*
 * No room: ask to be woken by a Send completion or an acknowledgment.
 * Room that came back between the caller's check and the flag being
 * set would wake nobody, so look once more after setting it.  Called
 * under tx_lock, which the acknowledgment path takes too.
 */
int rr2c_wait_room(struct rr2c *r)
{
	if (trace_rpcrdma2_clnt_wait_enabled())
		trace_rpcrdma2_clnt_wait(&r->xprt.addr, r->tx.xid,
					 rpcrdma2_seq_may_send(&r->seq,
							       r->tx.msgno + 1) ?
					 "no Send buffer" :
					 "continuation window full",
					 r->tx.msgno + 1);
	r->stats.write_waits++;
	xprt_wait_for_buffer_space(&r->xprt);
	/* the flag before the look: pairs with rr2c_send_done() */
	smp_mb__after_atomic();
	if (rr2c_has_room(r))
		xprt_write_space(&r->xprt);
	return -EAGAIN;
}

/*
 * XDRBUF_SPARSE_PAGES (NFSv3 GETACL, for one): the upper layer leaves
 * the Reply's pages for the transport to allocate.  Do it before the
 * Call goes out, as the receive path cannot sleep for them.
 */
static int rr2c_alloc_sparse_pages(struct xdr_buf *buf)
{
	struct page **ppages = buf->pages + (buf->page_base >> PAGE_SHIFT);
	u32 n = DIV_ROUND_UP(offset_in_page(buf->page_base) + buf->page_len,
			     PAGE_SIZE);

	if (!(buf->flags & XDRBUF_SPARSE_PAGES) || !buf->page_len)
		return 0;
	for (; n; n--, ppages++) {
		if (!*ppages && !rpcrdma2_fail(RPCRDMA2_FAIL_REPLY))
			*ppages = alloc_page(GFP_NOWAIT | __GFP_NOWARN);
		if (!*ppages)
			return -ENOBUFS;	/* retried after a delay */
	}
	return 0;
}

/*
 * A chunked Call found no Send buffer or no free MR: wait for either to
 * come back (a Send completion or a LOCAL_INV completion calls
 * xprt_write_space()).  As in rr2c_wait_room(), look once more after
 * the flag is set.
 */
static int rr2c_wait_chunks(struct rr2c *r, struct rr2c_req *req)
{
	if (trace_rpcrdma2_clnt_wait_enabled())
		trace_rpcrdma2_clnt_wait(&r->xprt.addr,
					 be32_to_cpu(req->rq.rq_xid),
					 rpcrdma2_pool_avail(&r->pool) ?
					 "no free MR" : "no Send buffer", 1);
	r->stats.write_waits++;
	xprt_wait_for_buffer_space(&r->xprt);
	/* the flag before the look: pairs with the completions' wakeups */
	smp_mb__after_atomic();
	if (rpcrdma2_pool_avail(&r->pool) && rr2c_frwr_room(r))
		xprt_write_space(&r->xprt);
	return -EAGAIN;
}

/*
 * The stage (client.h) holds inline octets of a continued Version 2
 * Reply that follow a Write chunk's position, so only a Call with a
 * Write chunk on Version 2 needs it: it is made before the first such
 * Call, not for every connection, and kept with the
 * transport.  Only the task that holds the transport gets here.
 * Returns 0, or -ENOBUFS (no memory: ->send_request is retried later).
 */
static int rr2c_stage_alloc(struct rr2c *r, struct rr2c_req *req)
{
	unsigned int nofs;
	u8 *stage;

	if (req->reply_ck != RR2C_REPLY_WRITE ||
	    r->conn.vers != RPCRDMA2_VERS_2 || READ_ONCE(r->rx_stage))
		return 0;
	/* the client may be writing back pages */
	nofs = memalloc_nofs_save();
	stage = kvmalloc(RR2C_STAGE_SIZE, GFP_KERNEL);
	memalloc_nofs_restore(nofs);
	if (!stage)
		return -ENOBUFS;
	/* the Receive side reads it after the Call is posted */
	WRITE_ONCE(r->rx_stage, stage);
	return 0;
}

/* Is @req the message whose cutting is under way on this connection? */
static bool rr2c_tx_is(const struct rr2c *r, const struct rpc_rqst *req)
{
	return r->tx_req == req && r->tx_xid == req->rq_xid &&
	       r->tx_cookie == r->xprt.connect_cookie;
}

/*
 * @rq has failed, or cannot be sent: fail it, and only it.
 * The task that holds the transport drains the transmit queue, and
 * xprt_transmit() hands an error from ->send_request to that task,
 * which may belong to another RPC queued behind @rq.  So the error is
 * kept for @rq's own task (rp_error), which gets it when it comes to
 * transmit with the transport in hand, and any other transmitting task
 * only waits a moment (-ENOBUFS) and lets the transport go to the next
 * task that waits for it.
 */
VISIBLE_IF_KUNIT int rr2c_fail_rqst(struct rr2c *r, struct rpc_rqst *rq,
				    int err)
{
	struct rpc_task *task = rq->rq_task;

	if (bc_prealloc(rq))
		return err;
	if (!task || task == READ_ONCE(r->xprt.snd_task)) {
		WRITE_ONCE(rr2c_req(rq)->rp_error, 0);
		return err;
	}
	WRITE_ONCE(rr2c_req(rq)->rp_error, err);
	return -ENOBUFS;
}

static int rr2c_too_big(struct rr2c *r, struct rpc_rqst *rq, int ret)
{
	r->stats.too_big++;
	trace_rpcrdma2_clnt_too_big(&r->xprt.addr, be32_to_cpu(rq->rq_xid),
				    r->conn.vers, 0, rq->rq_snd_buf.len);
	return ret == -ENOTCONN ? ret : rr2c_fail_rqst(r, rq, -EMSGSIZE);
}

/*
 * Before anything is locked: does marshal.c's policy give this forward
 * Call chunks, and can they be registered?  Returns 1 (chunks mapped,
 * to be posted), 0 (no chunks: inline or continued), or the errno for
 * ->send_request.
 */
static int rr2c_send_prepare(struct rr2c *r, struct rr2c_req *req)
{
	int ret;

	if (rr2c_marshal_policy(r, req) != RR2C_FMT_CHUNKS)
		return 0;
	ret = rr2c_stage_alloc(r, req);
	if (ret)
		return ret;
	ret = rr2c_marshal_prepare(r, req);
	switch (ret) {
	case 0:
		return 1;
	case -EAGAIN:
		return rr2c_wait_chunks(r, req);
	case -EALREADY:
		/* answered meanwhile: the task has its Reply */
		return ret;
	case -ENOMEM:
		/*
		 * an MR's DMA mapping (or memory) ran short: nothing is
		 * registered, the Call stays queued and sunrpc transmits
		 * it again after a delay (call_transmit_status())
		 */
		return ret;
	case -E2BIG:
		/* Version 2: continuation carries it without chunks */
		if (r->conn.vers == RPCRDMA2_VERS_2)
			return 0;
		fallthrough;
	default:
		return rr2c_too_big(r, &req->rq, ret);
	}
}

/* Post a prepared chunked Call; the caller holds tx_lock. */
static int rr2c_send_chunks(struct rr2c *r, struct rr2c_req *req)
{
	struct rpc_rqst *rq = &req->rq;
	int ret;

	rq->rq_xtime = ktime_get();	/* per-op RTT in mountstats */
	ret = rr2c_marshal_post(r, req);
	switch (ret) {
	case 0:
		rpcrdma2_seq_start(&r->seq, 1);
		rq->rq_bytes_sent = 0;
		rq->rq_xmit_bytes_sent += rq->rq_snd_buf.len;
		trace_rpcrdma2_clnt_call(&r->xprt.addr, be32_to_cpu(rq->rq_xid),
					 r->conn.vers, 1, rq->rq_snd_buf.len);
		return 0;
	case -ENOBUFS:
		return rr2c_wait_chunks(r, req);
	case -ENOTCONN:
		xprt_force_disconnect(&r->xprt);
		fallthrough;
	default:
		return rr2c_too_big(r, rq, ret);
	}
}

/* Begin cutting @req.  Returns the number of Sends or a negative errno. */
static int rr2c_tx_begin(struct rr2c *r, struct rpc_rqst *req)
{
	struct rpc_xprt *xprt = &r->xprt;
	u32 nmsgs, pulled;

	r->tx = (struct rpcrdma2_tx){
		.vers		= r->conn.vers,
		.xid		= be32_to_cpu(req->rq_xid),
		.credit		= rr2c_credit(r, r->conn.vers),
		/*
		 * V2-FRAME-08: RESPONSE is the msg_type; V2-RDIR-09.  A
		 * reverse Reply has its Call's XID (V2-RDIR-07, BC1-RDIR-12)
		 * and the connection's version (V2-RDIR-08).
		 */
		.flags		= bc_prealloc(req) ? RDMA2_F_RESPONSE : 0,
		.inline_size	= r->conn.send_inline,
		/* a reverse Reply within the server's BRS (V2-RDIR-12) */
		.single		= bc_prealloc(req) &&
				  rpcrdma2_rdir_single(&r->conn),
		.payload	= &req->rq_snd_buf,
	};
	nmsgs = rpcrdma2_tx_nmsgs(&r->tx);
	if (!nmsgs)
		return rr2c_too_big(r, req, -EMSGSIZE);
	if (nmsgs > 1)
		r->stats.cont_msgs++;
	/*
	 * mountstats' pullup_copy_count: what follows the head is copied,
	 * at each transmission, reverse Replies too, as stock counts it
	 */
	pulled = rpcrdma2_tx_len(&r->tx) -
		 min_t(u32, rpcrdma2_tx_len(&r->tx),
		       req->rq_snd_buf.head[0].iov_len);
	r->stats.pullup_octets += pulled;
	if (pulled)
		trace_rpcrdma2_clnt_pullup(&xprt->addr, r->tx.xid,
					   rpcrdma2_tx_len(&r->tx), pulled);
	r->tx_nmsgs = nmsgs;	/* the window opens with the first Send */
	r->tx_req = req;
	r->tx_xid = req->rq_xid;
	r->tx_cookie = xprt->connect_cookie;
	req->rq_xtime = ktime_get();	/* per-op RTT in mountstats */
	return nmsgs;
}

static int rr2c_op_send_request(struct rpc_rqst *req)
{
	struct rpc_xprt *xprt = req->rq_xprt;
	struct rr2c *r = rr2c(xprt);
	struct rpcrdma2_send *sd;
	int more, ret, chunks = 0;
	bool resuming;
	u32 len;

	if (!xprt_connected(xprt))
		return -ENOTCONN;
	ret = rr2c_alloc_sparse_pages(&req->rq_rcv_buf);
	if (ret)
		return ret;
	spin_lock(&r->tx_lock);
	resuming = rr2c_tx_is(r, req);
	spin_unlock(&r->tx_lock);
	/*
	 * A continued Call cut part way is finished whatever came meanwhile
	 * (V2-CONT-03): its sequence holds the connection's send side, and
	 * a Call that stopped here would strand it.
	 */
	if (!bc_prealloc(req) && !resuming) {
		/*
		 * A Reply to this Call is held for its MRs' invalidation
		 * (V2-SEC-08): it answers the Call, and marshaling again
		 * would unmap and register the buffers it is about to be
		 * placed in.  Report the Call sent: the task waits for the
		 * completion as for any Reply.  Looked at again after the
		 * earlier transmission's MRs are invalidated, in case the
		 * Reply came meanwhile (rr2c_frwr_reply_inv()).
		 */
		if (rr2c_frwr_reply_held(r, rr2c_req(req)))
			return 0;
		/* a Reply already failed this RPC: do not send it again */
		ret = READ_ONCE(rr2c_req(req)->rp_error);
		if (ret)
			return rr2c_fail_rqst(r, req, ret);
		/* MRs of an earlier transmission here (V2-SEC-09) */
		rr2c_frwr_unmap_sync(r, rr2c_req(req));
		if (rr2c_frwr_reply_held(r, rr2c_req(req)))
			return 0;
		chunks = rr2c_send_prepare(r, rr2c_req(req));
		/* as for a held Reply: report the Call sent */
		if (chunks == -EALREADY)
			return 0;
		if (chunks < 0)
			return chunks;
	}
	/* a Reply to a reverse Call uses no forward credit (RFC 8167) */
	if (!bc_prealloc(req) && !xprt_request_get_cong(xprt, req)) {
		if (chunks)
			rr2c_frwr_unmap_unposted(r, rr2c_req(req));
		return -EBADSLT;
	}

	spin_lock(&r->tx_lock);
	if (!rr2c_tx_is(r, req)) {
		if (r->tx_req && r->tx.msgno &&
		    r->tx_cookie == xprt->connect_cookie) {
			/* another message was left half cut */
			rr2c_tx_abandon(r);
			spin_unlock(&r->tx_lock);
			if (chunks)
				rr2c_frwr_unmap_unposted(r, rr2c_req(req));
			xprt_force_disconnect(xprt);
			return -ENOTCONN;
		}
		if (chunks) {
			ret = rr2c_send_chunks(r, rr2c_req(req));
			spin_unlock(&r->tx_lock);
			return ret;
		}
		ret = rr2c_tx_begin(r, req);
		if (ret < 0) {
			spin_unlock(&r->tx_lock);
			return ret;
		}
	}
	do {
		if (!rpcrdma2_seq_may_send(&r->seq, r->tx.msgno + 1))
			goto wait;
		sd = rpcrdma2_pool_get(&r->pool, false);
		if (!sd)
			goto wait;
		/* injected: room never comes back (the peer withholds it) */
		if (rpcrdma2_fail(RPCRDMA2_FAIL_SEND_STALL)) {
			rpcrdma2_pool_put(&r->pool, sd);
			goto stall;
		}
		/*
		 * Count the acknowledgments owed only once something is
		 * sent: a message dropped before its first Send owes none.
		 */
		if (!r->tx.msgno) {
			rpcrdma2_seq_start(&r->seq, r->tx_nmsgs);
			/* V2-CONT-03: errors wait for the end (xfer.c) */
			if (r->tx_nmsgs > 1)
				rpcrdma2_pool_seq_begin(&r->pool);
		}
		more = rpcrdma2_tx_next(&r->tx, sd->buf, &len);
		ret = more < 0 ? more : rpcrdma2_ep_post_send(sd, len, 0);
		if (ret) {
			rpcrdma2_pool_put(&r->pool, sd);
			rpcrdma2_pool_seq_abort(&r->pool);
			r->tx_req = NULL;
			spin_unlock(&r->tx_lock);
			xprt_force_disconnect(xprt);
			return -ENOTCONN;
		}
		r->stats.sends++;
		req->rq_bytes_sent = r->tx.off + 1;	/* in progress */
	} while (more);
	r->tx_req = NULL;
	/* what was held goes out now; if it cannot, the peer waits for it */
	ret = r->tx_nmsgs > 1 ? rpcrdma2_pool_seq_end(&r->pool) : 0;
	spin_unlock(&r->tx_lock);
	if (ret)
		xprt_force_disconnect(xprt);
	req->rq_bytes_sent = 0;
	req->rq_xmit_bytes_sent += req->rq_snd_buf.len;
	if (bc_prealloc(req))
		trace_rpcrdma2_clnt_bc_reply(&xprt->addr, r->tx.xid,
					     r->conn.vers, r->tx.msgno,
					     req->rq_snd_buf.len);
	else
		trace_rpcrdma2_clnt_call(&xprt->addr, r->tx.xid, r->conn.vers,
					 r->tx.msgno, req->rq_snd_buf.len);
	return 0;

wait:
	ret = rr2c_wait_room(r);
	spin_unlock(&r->tx_lock);
	return ret;
stall:
	r->stats.write_waits++;
	xprt_wait_for_buffer_space(xprt);
	spin_unlock(&r->tx_lock);
	return -EAGAIN;
}

/*
 * The RPC layer takes @req off the transmit queue before it was sent
 * in full (a soft timeout, a signal, umount -f).  If some of its Sends
 * are already out, the connection cannot carry another message.
 */
static void rr2c_op_abort_send_request(struct rpc_rqst *req)
{
	struct rr2c *r = rr2c(req->rq_xprt);
	bool abandoned = false;

	spin_lock(&r->tx_lock);
	if (rr2c_tx_is(r, req)) {
		abandoned = r->tx.msgno;
		if (abandoned)
			rr2c_tx_abandon(r);
		r->tx_req = NULL;
	}
	spin_unlock(&r->tx_lock);
	if (abandoned)
		xprt_force_disconnect(req->rq_xprt);
}

/* ---- forward slots ---- */

/*
 * Slots are struct rr2c_req, all allocated with the transport, so a
 * swap-out never allocates one.  A task that finds none waits on the
 * backlog; a freed slot goes straight to the first waiter.
 */
static struct rr2c_req *rr2c_req_get(struct rr2c *r)
{
	struct rr2c_req *req = NULL;

	spin_lock(&r->req_lock);
	if (!list_empty(&r->req_free)) {
		req = list_first_entry(&r->req_free, struct rr2c_req, free);
		list_del_init(&req->free);
	}
	spin_unlock(&r->req_lock);
	return req;
}

static void rr2c_req_put(struct rr2c *r, struct rr2c_req *req)
{
	memset(&req->rq, 0, sizeof(req->rq));
	req->rp_error = 0;
	spin_lock(&r->req_lock);
	list_add(&req->free, &r->req_free);
	spin_unlock(&r->req_lock);
}

static void rr2c_op_alloc_slot(struct rpc_xprt *xprt, struct rpc_task *task)
{
	struct rr2c *r = rr2c(xprt);
	struct rr2c_req *req = rr2c_req_get(r);

	if (req) {
		task->tk_rqstp = &req->rq;
		task->tk_status = 0;
		return;
	}
	task->tk_status = -EAGAIN;
	xprt_add_backlog_noncongested(xprt, task);
	/* a slot freed before the task slept found no waiter */
	req = rr2c_req_get(r);
	if (req && !xprt_wake_up_backlog(xprt, &req->rq))
		rr2c_req_put(r, req);
}

static void rr2c_op_free_slot(struct rpc_xprt *xprt, struct rpc_rqst *rq)
{
	rr2c_req(rq)->rp_error = 0;
	if (!xprt_wake_up_backlog(xprt, rq))
		rr2c_req_put(rr2c(xprt), rr2c_req(rq));
}

/*
 * V2-SEC-09: an RPC that ends without its Reply (signal, timeout) still
 * has its MRs registered; the peer must lose access before the buffers
 * and pages are reused.
 */
static void rr2c_op_buf_free(struct rpc_task *task)
{
	struct rpc_rqst *rq = task->tk_rqstp;

	if (!bc_prealloc(rq))
		rr2c_frwr_unmap_sync(rr2c(rq->rq_xprt), rr2c_req(rq));
	rpc_free(task);
}

static int rr2c_reqs_alloc(struct rr2c *r)
{
	u32 i;

	r->reqs = kvcalloc(r->nr_slots, sizeof(*r->reqs), GFP_KERNEL);
	if (!r->reqs)
		return -ENOMEM;
	for (i = 0; i < r->nr_slots; i++) {
		struct rr2c_req *req = &r->reqs[i];

		INIT_LIST_HEAD(&req->mrs);
		init_completion(&req->inv_done);
		list_add_tail(&req->free, &r->req_free);
	}
	return 0;
}

/*
 * Swap over NFS/RDMA.  Receive buffers are preallocated and Send
 * buffers are pooled, so the data path allocates nothing; what is left
 * is to count the swap users, which makes the RPC layer mark this
 * transport's tasks RPC_TASK_SWAPPER and the connect worker run with
 * PF_MEMALLOC.
 */
static int rr2c_op_enable_swap(struct rpc_xprt *xprt)
{
	atomic_inc(&xprt->swapper);
	return 0;
}

static void rr2c_op_disable_swap(struct rpc_xprt *xprt)
{
	atomic_dec(&xprt->swapper);
}

/* Fault injection (sunrpc's "disconnect" fault): drop the connection. */
static void rr2c_op_inject_disconnect(struct rpc_xprt *xprt)
{
	struct rr2c *r = rr2c(xprt);

	if (xprt_connected(xprt) && r->id)
		rdma_disconnect(r->id);
}

static void rr2c_op_set_port(struct rpc_xprt *xprt, unsigned short port)
{
	rpcrdma2_xprt_set_port(xprt, port);
}

static void rr2c_op_timer(struct rpc_xprt *xprt, struct rpc_task *task)
{
	xprt_force_disconnect(xprt);
}

static void rr2c_op_set_connect_timeout(struct rpc_xprt *xprt,
					unsigned long connect_timeout,
					unsigned long reconnect_timeout)
{
	spin_lock(&xprt->transport_lock);
	if (connect_timeout < xprt->connect_timeout)
		xprt->connect_timeout = connect_timeout;
	if (reconnect_timeout < xprt->max_reconnect_timeout)
		xprt->max_reconnect_timeout = reconnect_timeout;
	spin_unlock(&xprt->transport_lock);
}

static const struct rpc_timeout rr2c_timeout = {
	.to_initval	= 60 * HZ,
	.to_maxval	= 60 * HZ,
};

static const struct rpc_xprt_ops rr2c_ops = {
	.reserve_xprt		= xprt_reserve_xprt_cong,
	.release_xprt		= xprt_release_xprt_cong,
	.alloc_slot		= rr2c_op_alloc_slot,
	.free_slot		= rr2c_op_free_slot,
	.release_request	= xprt_release_rqst_cong,
	.wait_for_reply_request	= xprt_wait_for_reply_request_def,
	.timer			= rr2c_op_timer,
	.rpcbind		= rpcb_getport_async,
	.set_port		= rr2c_op_set_port,
	.connect		= rr2c_op_connect,
	.buf_alloc		= rpc_malloc,
	.buf_free		= rr2c_op_buf_free,
	.send_request		= rr2c_op_send_request,
	.abort_send_request	= rr2c_op_abort_send_request,
	.close			= rr2c_op_close,
	.destroy		= rr2c_op_destroy,
	.set_connect_timeout	= rr2c_op_set_connect_timeout,
	.print_stats		= rr2c_op_print_stats,
	.enable_swap		= rr2c_op_enable_swap,
	.disable_swap		= rr2c_op_disable_swap,
	.inject_disconnect	= rr2c_op_inject_disconnect,
	.bc_setup		= rr2c_bc_setup,
	.bc_maxpayload		= rr2c_bc_maxpayload,
	.bc_num_slots		= rr2c_bc_num_slots,
	.bc_free_rqst		= rr2c_bc_free_rqst,
	.bc_destroy		= rr2c_bc_destroy,
};

static struct rpc_xprt *rpcrdma2_clnt_setup(struct xprt_create *args)
{
	/* rdma_slot_table_entries: read once, for the transport's life */
	u32 nr_slots = rr2c_knob_slots();
	struct rpc_xprt *xprt;
	struct rr2c *r;

	if (args->addrlen > sizeof(xprt->addr))
		return ERR_PTR(-EBADF);
	if (args->dstaddr->sa_family != AF_INET &&
	    args->dstaddr->sa_family != AF_INET6)
		return ERR_PTR(-EAFNOSUPPORT);
	if (!try_module_get(THIS_MODULE))
		return ERR_PTR(-EIO);
	xprt = xprt_alloc(args->net, sizeof(*r), 0, nr_slots);
	if (!xprt) {
		module_put(THIS_MODULE);
		return ERR_PTR(-ENOMEM);
	}
	r = rr2c(xprt);
	r->nr_slots = nr_slots;
	r->credits = nr_slots;
	spin_lock_init(&r->req_lock);
	INIT_LIST_HEAD(&r->req_free);
	rr2c_frwr_init(r);
	if (rr2c_reqs_alloc(r)) {
		xprt_free(xprt);
		module_put(THIS_MODULE);
		return ERR_PTR(-ENOMEM);
	}
	xprt->timeout = &rr2c_timeout;
	xprt->connect_timeout = xprt->timeout->to_initval;
	xprt->max_reconnect_timeout = xprt->timeout->to_maxval;
	xprt->bind_timeout = RR2C_BIND_TO;
	xprt->reestablish_timeout = RR2C_INIT_REEST_TO;
	xprt->idle_timeout = RR2C_IDLE_TO;
	xprt->resvport = 0;
	xprt->ops = &rr2c_ops;
	xprt->prot = IPPROTO_TCP;	/* side protocols peek at it */
	xprt->xprt_class = &rpcrdma2_clnt_class;
	xprt->addrlen = args->addrlen;
	memcpy(&xprt->addr, args->dstaddr, args->addrlen);
	if (rpc_get_port((struct sockaddr *)&xprt->addr))
		xprt_set_bound(xprt);
	rpcrdma2_xprt_addresses(xprt);
	xprt->max_payload = RR2C_MAX_PAYLOAD;
	xprt->cwnd = RPC_CWNDSCALE;	/* one credit until granted */

	r->vers_cap = RPCRDMA2_VERS_2;
	spin_lock_init(&r->tx_lock);
	mutex_init(&r->recv_lock);
	init_completion(&r->cm_done);
	init_completion(&r->nego_done);
	INIT_DELAYED_WORK(&r->connect_work, rr2c_connect_worker);
	return xprt;
}

static struct xprt_class rpcrdma2_clnt_class = {
	.list	= LIST_HEAD_INIT(rpcrdma2_clnt_class.list),
	.name	= "rpcrdma2",
	.owner	= THIS_MODULE,
	.ident	= XPRT_TRANSPORT_RDMA,
	.setup	= rpcrdma2_clnt_setup,
	.netid	= { "rdma", "rdma6", "" },
};

int rpcrdma2_clnt_register(void)
{
	return xprt_register_transport(&rpcrdma2_clnt_class);
}

void rpcrdma2_clnt_unregister(void)
{
	xprt_unregister_transport(&rpcrdma2_clnt_class);
}
