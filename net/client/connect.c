// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 client half: connecting and closing.
 *
 * Owns the connection manager events of a client connection and its
 * lifecycle (one delayed work item, on xprtiod):
 *   resolve address and route -> create the endpoint and post every
 *   Receive -> rdma_connect() with the RFC 8797 record -> settle the
 *   version (V2-FRAME-14): a CONNPROP goes first when Version 2 is
 *   offered, and the server's CONNPROP or a Version 1 ERR_VERS decides.
 *   Only then is the transport marked connected, so the RPC layer (and
 *   NFS reading rpc_max_payload()) sees the settled thresholds.  After
 *   one fallback the transport offers Version 1 only, so reconnects do
 *   not negotiate again (V2-FRAME-18).
 *
 * Also the queue sizes and credits a connection asks of its device, the
 * reconnect backoff, the log line and hint of a failed connect.
 * Teardown: rdma_disconnect(), no more MR work requests, then the
 * endpoint drains and destroys the QP and calls back to free the MRs
 * before the PD goes.
 *
 * Called by: net/sunrpc through the rpc_xprt_ops ->connect, ->close and
 * ->destroy (transport.c), rdma_cm (rr2c_cm_event), shared/dev.c
 * (rr2c_ep_removing, through the endpoint).
 */

#include <linux/module.h>
#include <linux/err.h>
#include <linux/jhash.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/sched.h>
#include <linux/sunrpc/xprt.h>
#include <linux/sunrpc/xprtrdma.h>

#include "rpcrdma2.h"
#include "client/client.h"
#include "shared/log.h"
#include <trace/events/rpcrdma2.h>

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

/* ---- connect and close ---- */

static void rr2c_teardown(struct rr2c *r)
{
	if (!r->id)
		return;
	trace_rpcrdma2_clnt_disconnect(&r->xprt.addr, r->cm_status);
	rdma_disconnect(r->id);
	rr2c_frwr_quiesce(r);
	rpcrdma2_ep_destroy(&r->link.ep);	/* drains; frees the MRs (mr.c) */
	rr2c_rx_drop(r);
	rpcrdma2_pool_destroy(&r->link.pool);
	rdma_destroy_id(r->id);
	r->id = NULL;
	r->tx_req = NULL;
	memset(&r->link.conn, 0, sizeof(r->link.conn));
	rpcrdma2_link_down(&r->link);
}

static int rr2c_hello(struct rr2c *r)
{
	struct rpcrdma2_send *sd = rpcrdma2_pool_get(&r->link.pool, false);
	u32 len;

	if (!sd)
		return -ENOBUFS;
	len = rpcrdma2_nego_client_hello(&r->link.local, 0, sd->buf,
					 sd->ep->attr.send_size);
	if (!len || rpcrdma2_ep_post_send(sd, len, 0)) {
		rpcrdma2_pool_put(&r->link.pool, sd);
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
	enum rpcrdma2_nego n;
	int ret;

	rpcrdma2_conn_init(&r->link.conn, &r->peer_pdata);
	r->nego_grant = 1;
	if (r->link.local.max_vers == RPCRDMA2_VERS_1) {
		r->link.conn.vers = RPCRDMA2_VERS_1;
		rpcrdma2_conn_thresholds(&r->link.conn, &r->link.local);
		rpcrdma2_link_settled(&r->link);
		return 0;
	}
	ret = rr2c_hello(r);
	if (ret)
		return ret;
	/* -ETIMEDOUT: lost, or no answer */
	ret = rpcrdma2_link_wait_negotiated(&r->link, RR2C_NEGO_TIMEOUT, &n);
	if (!ret && n == RPCRDMA2_NEGO_DONE)
		ret = r->link.conn.vers == RPCRDMA2_VERS_2 ? 0 : -EPFNOSUPPORT;
	else if (!ret)
		ret = n == RPCRDMA2_NEGO_NO_VERS ? -EPROTONOSUPPORT : -EPROTO;
	rr2c_nego_outcome(r, ret);
	if (ret == -EPFNOSUPPORT)	/* settled on Version 1 */
		ret = 0;
	if (ret == -EPROTONOSUPPORT)
		pr_warn("rpcrdma2: %s speaks only RPC-over-RDMA versions %u to %u; this client speaks 1 and 2 and will not connect to it again until it is mounted again (V2-ERR-15)\n",
			r->xprt.address_strings[RPC_DISPLAY_ADDR],
			r->link.conn.peer_vers_low, r->link.conn.peer_vers_high);
	return ret;
}

#define RR2C_WHY_SERVER " (fallback: the server answered that it has no Version 2; not offered again until remount)"
#define RR2C_WHY_LOST " (fallback: a Version 2 negotiation was lost or settled nothing; Version 2 is offered again later)"

/* The log: why a connection speaks Version 1 (V2-FRAME-19, V2-ERR-15). */
static const char *rr2c_fallback_why(const struct rr2c *r)
{
	if (r->link.conn.vers != RPCRDMA2_VERS_1 ||
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
	ret = rpcrdma2_ep_create(&r->link.ep, id, &attr, &rr2c_ep_ops, r);
	if (ret)
		goto fail_id;
	ret = rpcrdma2_link_open(&r->link, RPCRDMA2_MAX_CONT_MSG);
	if (!ret)
		ret = rr2c_frwr_create(r);
	for (i = 0; !ret && i < r->link.ep.nr_recv_made; i++)
		ret = rpcrdma2_ep_post_recv(&r->link.ep.recvs[i]);
	if (ret)
		goto fail;

	memset(&r->link.local, 0, sizeof(r->link.local));
	r->link.local.max_vers =
		rr2c_offer_vers(r, rpcrdma2_max_version(RPCRDMA2_CLIENT));
	r->link.local.send_size = attr.send_size;
	r->link.local.recv_size = attr.recv_size;
	/* V2-RDIR-10, V2-RDIR-12: the reverse Calls this client takes */
	r->link.local.brs = rpcrdma2_rvrsdir_level(RPCRDMA2_CLIENT);
	r->link.local.hostauth_len = rpcrdma2_hostauth_get(r->link.local.hostauth);
	r->link.local.remote_inv = true;
	rpcrdma2_local_segments(&r->link.local, id->device, &rr2c_limits);
	r->link.local.credits = rr2c_credit(r, RPCRDMA2_VERS_2);
	rr2c_rx_reset(r);
	memset(&r->link.conn, 0, sizeof(r->link.conn));	/* unsettled: vers 0 */

	/* CMP-CMPD-05, CMP-CMPD-14: the peer's record, per connection */
	rpcrdma2_cmp_decode(NULL, 0, &r->peer_pdata);
	/* CMP-RINV-05: every STag we expose is an FRWR one, per RPC */
	rpcrdma2_ep_conn_param(&r->link.ep, &param, pdata, true);
	/* the server RDMA Reads our Read chunks */
	param.responder_resources = min_t(u32, r->link.ep.dattr.max_qp_rd_atom,
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
	trace_rpcrdma2_clnt_connected(&xprt->addr, r->link.conn.vers,
				      r->link.conn.send_inline,
				      r->link.conn.recv_inline);
	if (r->link.conn.peer_hostauth_len)
		trace_rpcrdma2_hostauth(&xprt->addr, r->link.conn.peer_hostauth_len,
					r->link.conn.peer_hostauth);
	/* once per server and outcome, not per connection */
	if (rpcrdma2_log_peer(RPCRDMA2_CLIENT, (struct sockaddr *)&xprt->addr,
			      RPCRDMA2_LOG_SETTLED,
			      jhash_3words(r->link.conn.vers, r->link.conn.send_inline,
					   r->link.conn.recv_inline, r->fallback)))
		pr_info("rpcrdma2: connected to %s, RPC-over-RDMA version %u, inline %u/%u%s\n",
			xprt->address_strings[RPC_DISPLAY_ADDR], r->link.conn.vers,
			r->link.conn.send_inline, r->link.conn.recv_inline,
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

void rr2c_connect_worker(struct work_struct *work)
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

void rr2c_op_connect(struct rpc_xprt *xprt, struct rpc_task *task)
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

void rr2c_op_close(struct rpc_xprt *xprt)
{
	struct rr2c *r = rr2c(xprt);

	trace_rpcrdma2_clnt_close(&xprt->addr, 0);
	rr2c_teardown(r);
	xprt->reestablish_timeout = 0;
	++xprt->connect_cookie;
	xprt_disconnect_done(xprt);
}

void rr2c_op_destroy(struct rpc_xprt *xprt)
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
