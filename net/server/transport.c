// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 server half: the svc_xprt class "rdma".
 *
 * nfsd creates listeners by class name ("rpc.nfsd --rdma=20049" writes
 * "rdma 20049" to /proc/fs/nfsd/portlist), so owning the name "rdma" is
 * what makes this module the NFS/RDMA server transport.
 *
 * Listener: an rdma_cm_id listening on the address nfsd gives (IPv6
 * listeners are v6-only so that the IPv4 one can share the port).  A
 * CONNECT_REQUEST becomes a connection object queued on the listener;
 * an nfsd thread accepts it in ->xpo_accept, where the endpoint is
 * created, every Receive posted and rdma_accept() sent with the RFC
 * 8797 record.  A listener on a specific address that loses its device
 * (or whose address moves) gives its id back and listens again when it
 * can; nfsd never sees it go.
 *
 * Device removal: every connection's endpoint is a user of its device
 * (shared/dev.c), closed when the device goes and freed by nfsd; only
 * then does the removal go on.
 *
 * Connection: the receive side (Receive completions, reassembly,
 * ->xpo_recvfrom and Read chunks) is recvfrom.c; Replies, Write and
 * Reply chunks and Send With Invalidate are sendto.c; RDMA Read and
 * Write go through rw.c; credit grants and error messages are
 * control.c; a closed connection's cm_id parked while its port is down
 * is park.c.  For the accept, the server takes as many RDMA Reads in
 * flight as the client offered, the device allows and
 * max_outbound_read_requests says (its ORD), and advertises R in the
 * RFC 8797 record when the device can Send With Invalidate.
 *
 * Credits: each connection takes the max_requests knob (stats.c) when
 * it is accepted, capped so that its Receives and completions fit the
 * device, and sizes its Receive Queue by it: one Receive per credit,
 * plus the credit-grant-only one (V2-CRED-07), the continuation window
 * and the backchannel's.  The server grants RR2S_CREDITS_INIT (or
 * max_requests if smaller) at first, and raises the grant later
 * (control.c).  Every message carries the current grant.  The Send
 * Queue does not grow with the credits: Replies wait for a Send buffer
 * (rdma_stat_sq_starve).
 *
 * The Receive buffer size (max_req_size) and the RDMA Reads in flight
 * (max_outbound_read_requests) are also read once, at accept.
 *
 * Called by: net/sunrpc (svc_xprt_create and the svc_xprt_ops), the
 * module core.
 */

#include <linux/module.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/highmem.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/xprtrdma.h>
#include <rdma/ib_cm.h>
#include <rdma/rdma_cm.h>

#include "rpcrdma2.h"
#include "server/server.h"
#include "shared/log.h"
#include <trace/events/rpcrdma2.h>

/*
 * What the server really takes from a Requester, and so what its
 * errors and its RCSIZ say (V2-ERR-32, V2-ERR-35, V2-ERR-38).
 */
const struct rpcrdma2_limits rr2s_limits = {
	.max_read_chunks	= RR2S_MAX_READ_CHUNKS,
	.max_write_chunks	= RR2S_MAX_WRITE_CHUNKS,
	.max_segments		= RR2S_MAX_SEGS,
};

static struct svc_xprt_class rpcrdma2_svc_class;

/* Credit grants are sent from here; nfsd may be reclaiming memory. */
struct workqueue_struct *rr2s_wq;

static struct rr2s_listener *rr2s_listener(struct svc_xprt *xprt)
{
	return container_of(xprt, struct rr2s_listener, b.xprt);
}

u32 rr2s_credit(const struct rr2s_conn *c)
{
	return rpcrdma2_credit_out(c->link.conn.vers ?: RPCRDMA2_VERS_2,
				   READ_ONCE(c->grant));
}

void rr2s_close(struct rr2s_conn *c)
{
	svc_xprt_deferred_close(&c->b.xprt);
}

/*
 * shared/dev.c: the device is going away.  Close as for rdma_cm's
 * DEVICE_REMOVAL, which comes only after this; an nfsd thread then
 * destroys the endpoint and the removal goes on.  During ->xpo_accept
 * the new xprt is XPT_BUSY, and svc_xprt_received() enqueues the close.
 */
static void rr2s_ep_removing(struct rpcrdma2_ep *ep)
{
	struct rr2s_conn *c = ep->priv;

	if (!test_bit(XPT_DEAD, &c->b.xprt.xpt_flags))
		rr2s_close(c);
}

static const struct rpcrdma2_ep_ops rr2s_ep_ops = {
	.recv_done	= rpcrdma2_link_recv_done,
	.send_done	= rr2s_send_done,
	.removing	= rr2s_ep_removing,
};

static int rr2s_has_wspace(struct svc_xprt *xprt)
{
	return 1;
}

/* ---- connections: accept and teardown ---- */

/*
 * Disconnect @c: with a DREQ when its port is up, else by moving the QP
 * to the error state alone (the flushes wake Reply senders either way)
 * and parking the cm_id when the connection is freed.
 */
static void rr2s_disconnect(struct rr2s_conn *c)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };

	if (rr2s_port_active(c->b.id)) {
		rdma_disconnect(c->b.id);
		return;
	}
	WRITE_ONCE(c->park, true);
	if (c->ep_up)
		ib_modify_qp(c->b.id->qp, &attr, IB_QP_STATE);
}

static void rr2s_conn_free(struct rr2s_conn *c)
{
	struct rr2s_msg *m, *tmp;

	rr2s_debugfs_del(c);	/* first: waits for a read of it */
	list_for_each_entry_safe(m, tmp, &c->ready, list) {
		list_del(&m->list);
		if (m->rv) {		/* a Receive slot: the ep frees it */
			kfree(m->ch);
			m->ch = NULL;
		} else {
			rr2s_msg_free(m);
		}
	}
	rr2s_asm_drop(c);
	if (c->ep_up)
		rpcrdma2_ep_destroy(&c->link.ep);
	c->ep_up = false;
	rpcrdma2_pool_destroy(&c->link.pool);
	if (c->b.id && READ_ONCE(c->park) && !rr2s_port_active(c->b.id))
		rr2s_park(c);
	else if (c->b.id)
		rdma_destroy_id(c->b.id);
	kfree(c->slots);
	kfree(c);
}

/*
 * The credits a connection can have on @dev: its Receives (one per
 * credit and the extra ones) must fit the Receive Queue, and with the
 * Send Queue's completions the CQ (see rpcrdma2_ep_create()).
 */
static u32 rr2s_credits_for(const struct rpcrdma2_dev_attr *dev,
			    const struct rpcrdma2_ep_attr *attr, u32 want)
{
	long extra = RR2S_BC_SLOTS + RPCRDMA2_RECV_EXTRA;
	long nsend = attr->nr_send + attr->nr_send_extra + 1;
	long room;

	room = min_t(long, (long)dev->max_qp_wr - 1,
		     (long)dev->max_cqe - nsend - 1 - attr->nr_rw_ctxs);
	room -= extra;
	if (room < RR2S_CREDITS_MIN)
		return want;		/* rpcrdma2_ep_create() refuses */
	return min_t(u32, want, room);
}

static int rr2s_conn_setup(struct rr2s_conn *c)
{
	struct rpcrdma2_dev_attr dev;
	struct rpcrdma2_ep_attr attr = {
		.nr_send	= RPCRDMA2_CTRL_SENDS + 2 * RPCRDMA2_SEQ_WINDOW,
		.send_batch	= RPCRDMA2_SEND_BATCH,
		/* rw.c: one batch of RDMA Reads or Writes at a time */
		.nr_send_extra	= RR2S_RW_EXTRA_WRS,
		.nr_rw_ctxs	= RR2S_RW_CTXS,
	};
	struct rdma_conn_param param;
	u8 pdata[RPCRDMA2_CMP_SIZE];
	u32 i;
	int ret;

	/*
	 * max_req_size, read once for the life of the connection, sizes
	 * both kinds of buffer, as on the stock server: the RFC 8797
	 * record and the CONNPROP advertise it both ways.
	 */
	rpcrdma2_dev_attr(c->b.id->device, &dev);
	attr.max_send_sge = min_t(u32, dev.max_send_sge, 16);
	attr.recv_size = rr2s_knob_recv_size();
	attr.send_size = attr.recv_size;
	/* V2-CRED-01: one Receive per credit, plus V2-CRED-07's */
	c->max_grant = rr2s_credits_for(&dev, &attr, rr2s_knob_max_requests());
	attr.nr_recv = c->max_grant + RR2S_BC_SLOTS + RPCRDMA2_RECV_EXTRA;
	c->slots = kcalloc(attr.nr_recv, sizeof(*c->slots), GFP_KERNEL);
	if (!c->slots)
		return -ENOMEM;
	ret = rpcrdma2_ep_create(&c->link.ep, c->b.id, &attr, &rr2s_ep_ops, c);
	if (ret)
		return ret;
	c->ep_up = true;
	c->asm_max = min_t(u32, RPCRDMA2_MAX_CONT_MSG,
			   (RPCSVC_MAXPAGES - 2) << PAGE_SHIFT);
	ret = rpcrdma2_link_open(&c->link, c->asm_max);
	if (ret)
		return ret;

	c->link.local.max_vers = rpcrdma2_max_version(RPCRDMA2_SERVER);
	c->link.local.send_size = attr.send_size;
	c->link.local.recv_size = attr.recv_size;
	/*
	 * V2-RDIR-10, V2-RDIR-12: the reverse Replies this server takes
	 */
	c->link.local.brs = rpcrdma2_rvrsdir_level(RPCRDMA2_SERVER);
	c->link.local.hostauth_len = rpcrdma2_hostauth_get(c->link.local.hostauth);
	rpcrdma2_local_segments(&c->link.local, c->b.id->device, &rr2s_limits);
	c->grant = min_t(u32, RR2S_CREDITS_INIT, c->max_grant);
	c->link.local.credits = rpcrdma2_credit_out(RPCRDMA2_VERS_2, c->grant);
	rpcrdma2_conn_init(&c->link.conn, &c->peer_pdata);

	for (i = 0; i < attr.nr_recv; i++) {
		ret = rpcrdma2_ep_post_recv(&c->link.ep.recvs[i]);
		if (ret)
			return ret;
	}
	/* CMP-RINV-01: R only when the device can Send With Invalidate */
	c->snd_w_inv = c->link.ep.dattr.device_cap_flags &
		       IB_DEVICE_MEM_MGT_EXTENSIONS;
	rpcrdma2_ep_conn_param(&c->link.ep, &param, pdata, c->snd_w_inv);
	/*
	 * RDMA Reads in flight (V2-CRED-06): what the client takes, what
	 * we can issue, and no more than max_outbound_read_requests
	 */
	c->ord = min3(c->ord, c->link.ep.dattr.max_qp_init_rd_atom,
		      rr2s_knob_ord());
	param.initiator_depth = c->ord;
	param.responder_resources = 0;	/* the client never reads from us */
	return rdma_accept(c->b.id, &param);
}

/* What the operator can do about a connection that could not be set up. */
#define RR2S_HINT_NO_MEM "the server is short of memory: lower /proc/sys/sunrpc/svc_rdma/max_requests or max_req_size"
#define RR2S_HINT_QUEUES "the RDMA device cannot hold the connection's queues: check its limits (ibv_devinfo -v: max_qp_wr, max_cqe)"
#define RR2S_HINT_OTHER "check the RDMA device (rdma link show; rdma resource show) and the client"

static const char *rr2s_accept_hint(int err)
{
	switch (err) {
	case -ENOMEM:
		return RR2S_HINT_NO_MEM;
	case -EINVAL:
		return RR2S_HINT_QUEUES;
	default:
		return RR2S_HINT_OTHER;
	}
}

static struct svc_xprt *rr2s_accept(struct svc_xprt *lxprt)
{
	struct rr2s_listener *l = rr2s_listener(lxprt);
	struct rr2s_conn *c;
	struct sockaddr *sa;
	int ret;

	clear_bit(XPT_CONN, &lxprt->xpt_flags);
	spin_lock(&l->lock);
	c = list_first_entry_or_null(&l->pending, struct rr2s_conn,
				     accept_entry);
	if (c)
		list_del_init(&c->accept_entry);
	if (!list_empty(&l->pending))
		set_bit(XPT_CONN, &lxprt->xpt_flags);
	spin_unlock(&l->lock);
	if (!c)
		return NULL;

	/*
	 * Under the id's CM handler lock, as the RDMA CM API requires for
	 * rdma_accept() and rdma_reject(); it also keeps rr2s_cm_event()
	 * from looking at the svc_xprt while it is being set up.
	 */
	rdma_lock_handler(c->b.id);
	svc_xprt_init(lxprt->xpt_net, &rpcrdma2_svc_class, &c->b.xprt,
		      lxprt->xpt_server);
	/* credits are congestion control: NFSv4 requires it (RFC 7530 3.1) */
	set_bit(XPT_CONG_CTRL, &c->b.xprt.xpt_flags);
	sa = (struct sockaddr *)&c->b.id->route.addr.dst_addr;
	svc_xprt_set_remote(&c->b.xprt, sa, svc_addr_len(sa));
	sa = (struct sockaddr *)&c->b.id->route.addr.src_addr;
	svc_xprt_set_local(&c->b.xprt, sa, svc_addr_len(sa));
	ret = rr2s_conn_setup(c);
	if (ret)
		rdma_reject(c->b.id, NULL, 0, IB_CM_REJ_CONSUMER_DEFINED);
	rdma_unlock_handler(c->b.id);
	trace_rpcrdma2_svc_accept(&c->b.xprt.xpt_remote, ret);
	if (ret && rpcrdma2_log_peer(RPCRDMA2_SERVER,
				     (struct sockaddr *)&c->b.xprt.xpt_remote,
				     RPCRDMA2_LOG_FAILED, -ret))
		pr_warn("rpcrdma2: cannot accept a connection from %pISc (%pe): %s\n",
			&c->b.xprt.xpt_remote, ERR_PTR(ret),
			rr2s_accept_hint(ret));
	if (ret) {
		/* svc_xprt_init() took a reference on the namespace */
		put_net_track(c->b.xprt.xpt_net, &c->b.xprt.ns_tracker);
		rr2s_conn_free(c);
		return NULL;
	}
	rr2s_stat_inc(RR2S_STAT_CONNS_ACCEPTED);
	rr2s_debugfs_add(c);
	return &c->b.xprt;
}

static void rr2s_detach(struct svc_xprt *xprt)
{
	struct rr2s_conn *c = rr2s_conn(xprt);

	if (cancel_work_sync(&c->grant_work))
		svc_xprt_put(xprt);	/* the reference the work held */
	rr2s_disconnect(c);		/* flushes wake Reply senders */
	wake_up_all(&c->send_wait);	/* ... and so does XPT_DEAD */
	mutex_lock(&xprt->xpt_mutex);	/* no Reply is being sent */
	mutex_lock(&c->rw_mutex);	/* ... and no Read chunk pulled */
	if (c->ep_up) {
		rpcrdma2_ep_drain(&c->link.ep);	/* no completion after this */
		rr2s_rw_drained(c);
	}
	mutex_unlock(&c->rw_mutex);
	mutex_unlock(&xprt->xpt_mutex);
	trace_rpcrdma2_svc_close(&xprt->xpt_remote, 0);
}

static void rr2s_free(struct svc_xprt *xprt)
{
	trace_rpcrdma2_svc_free(&xprt->xpt_remote, 0);
	rr2s_conn_free(rr2s_conn(xprt));
}

static void rr2s_kill_temp(struct svc_xprt *xprt)
{
	rr2s_disconnect(rr2s_conn(xprt));
}

/* ---- the connection manager ---- */

static int rr2s_cm_event(struct rdma_cm_id *id, struct rdma_cm_event *ev);

/*
 * Listeners on a specific address are bound to the device that has it;
 * a listener on the wildcard address is not, and rdma_cm itself listens
 * on every device that comes and goes for it.  Every listener is on
 * rr2s_listeners so that a new device can wake the ones that lost
 * theirs.
 */
static LIST_HEAD(rr2s_listeners);
static DEFINE_MUTEX(rr2s_listeners_lock);

static struct rdma_cm_id *rr2s_listen_id(struct rr2s_listener *l)
{
	struct sockaddr *sa = (struct sockaddr *)&l->addr;
	struct rdma_cm_id *id;
	int ret;

	id = rdma_create_id(l->b.xprt.xpt_net, rr2s_cm_event, l, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id))
		return id;
	/*
	 * Held until the caller has published the id in l->b.id: a
	 * DEVICE_REMOVAL or ADDR_CHANGE that comes in between must find
	 * the id it is about in rr2s_listener_lost(), or the listener
	 * would keep a dead id and the removal wait for it.
	 */
	rdma_lock_handler(id);
	/* v6-only, so that the IPv4 listener can share the port */
	ret = sa->sa_family == AF_INET6 ? rdma_set_afonly(id, 1) : 0;
	if (!ret)
		ret = rdma_bind_addr(id, sa);
	if (!ret)
		ret = rdma_listen(id, RR2S_BACKLOG);
	if (ret) {
		rdma_unlock_handler(id);
		rdma_destroy_id(id);
		return ERR_PTR(ret);
	}
	return id;
}

/*
 * The device under a listener went away, or its address moved to
 * another one.  Give the id back to rdma_cm (a handler's return of 1
 * destroys it, so the removal does not wait for us) unless
 * ->xpo_free() already owns it, and listen again from a work item.  The
 * listener stays in nfsd's list all the while, so "rpc.nfsd" and
 * /proc/fs/nfsd/portlist see no change.
 */
static int rr2s_listener_lost(struct rr2s_listener *l, struct rdma_cm_id *id)
{
	spin_lock(&l->lock);
	if (l->dying || l->b.id != id) {
		spin_unlock(&l->lock);
		return 0;
	}
	l->b.id = NULL;
	/* rdma_cm destroys the old id after we return: give it a moment */
	mod_delayed_work(rr2s_wq, &l->relisten, HZ / 10);
	spin_unlock(&l->lock);
	trace_rpcrdma2_svc_listen(&l->addr, -ENODEV);
	pr_warn_ratelimited("rpcrdma2: listener on %pISpc lost its RDMA device; it listens again when a device with that address is up\n",
			    &l->addr);
	return 1;
}

static void rr2s_relisten_worker(struct work_struct *work)
{
	struct rr2s_listener *l = container_of(to_delayed_work(work),
					       struct rr2s_listener, relisten);
	struct rdma_cm_id *id;

	id = rr2s_listen_id(l);
	if (IS_ERR(id)) {
		trace_rpcrdma2_svc_listen(&l->addr, PTR_ERR(id));
		spin_lock(&l->lock);
		if (!l->dying)
			mod_delayed_work(rr2s_wq, &l->relisten,
					 RR2S_RELISTEN_DELAY);
		spin_unlock(&l->lock);
		return;
	}
	spin_lock(&l->lock);
	if (l->dying || l->b.id) {
		spin_unlock(&l->lock);
		rdma_unlock_handler(id);
		rdma_destroy_id(id);
		return;
	}
	l->b.id = id;
	spin_unlock(&l->lock);
	rdma_unlock_handler(id);
	trace_rpcrdma2_svc_listen(&l->addr, 0);
	pr_info("rpcrdma2: listening again on %pISpc (%s)\n", &l->addr,
		id->device ? dev_name(&id->device->dev) : "any device");
}

/* shared/dev.c: a device arrived; it may carry a lost listener's address */
static int rr2s_dev_event(struct notifier_block *nb, unsigned long event,
			  void *data)
{
	struct rr2s_listener *l;

	if (event != RPCRDMA2_DEV_ADDED)
		return NOTIFY_DONE;
	mutex_lock(&rr2s_listeners_lock);
	list_for_each_entry(l, &rr2s_listeners, entry) {
		spin_lock(&l->lock);
		if (!l->dying && !l->b.id)
			mod_delayed_work(rr2s_wq, &l->relisten, 0);
		spin_unlock(&l->lock);
	}
	mutex_unlock(&rr2s_listeners_lock);
	return NOTIFY_OK;
}

static struct notifier_block rr2s_dev_nb = {
	.notifier_call	= rr2s_dev_event,
};

static int rr2s_listener_event(struct rr2s_listener *l,
			       struct rdma_cm_id *id,
			       struct rdma_cm_event *ev)
{
	struct rr2s_conn *c;

	switch (ev->event) {
	case RDMA_CM_EVENT_CONNECT_REQUEST:
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
	case RDMA_CM_EVENT_ADDR_CHANGE:
		return rr2s_listener_lost(l, id);
	default:
		return 0;
	}
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;		/* rdma_cm rejects and destroys id */
	c->b.kind = RR2S_CONN;
	c->b.id = id;
	id->context = c;
	INIT_LIST_HEAD(&c->ready);
	spin_lock_init(&c->rq_lock);
	rpcrdma2_link_init(&c->link, &rr2s_link_ops, &c->b.xprt.xpt_remote);
	mutex_init(&c->rw_mutex);
	INIT_LIST_HEAD(&c->rw_orphans);
	INIT_LIST_HEAD(&c->wl_orphans);
	init_waitqueue_head(&c->send_wait);
	INIT_WORK(&c->grant_work, rr2s_grant_worker);
	/* the client's responder resources, seen from here (IRD) */
	c->ord = ev->param.conn.initiator_depth;
	/* CMP-CMPD-14: no usable record means 1024/1024, R = 0 */
	rpcrdma2_ep_peer_pdata(ev, &c->peer_pdata);
	spin_lock(&l->lock);
	list_add_tail(&c->accept_entry, &l->pending);
	spin_unlock(&l->lock);
	set_bit(XPT_CONN, &l->b.xprt.xpt_flags);
	svc_xprt_enqueue(&l->b.xprt);
	return 0;
}

static int rr2s_cm_event(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct rr2s_base *b = id->context;
	struct rr2s_conn *c;

	trace_rpcrdma2_cm_event(&id->route.addr.dst_addr, ev->event,
				ev->status);
	if (b->kind == RR2S_PARKED)
		return rr2s_parked_event(id, ev);
	if (b->kind == RR2S_LISTENER)
		return rr2s_listener_event(container_of(b, struct rr2s_listener,
							b), id, ev);
	c = container_of(b, struct rr2s_conn, b);
	switch (ev->event) {
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
	case RDMA_CM_EVENT_ADDR_CHANGE:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
		if (!test_bit(XPT_DEAD, &c->b.xprt.xpt_flags) &&
		    c->b.xprt.xpt_server)
			rr2s_close(c);
		break;
	default:
		break;
	}
	return 0;
}

/* ---- listeners ---- */

static struct svc_xprt *rr2s_create(struct svc_serv *serv, struct net *net,
				    struct sockaddr *sa, int salen, int flags)
{
	struct rr2s_listener *l;
	struct rdma_cm_id *id;
	int ret;

	if (salen > sizeof(l->addr))
		return ERR_PTR(-EINVAL);
	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return ERR_PTR(-ENOMEM);
	l->b.kind = RR2S_LISTENER;
	spin_lock_init(&l->lock);
	INIT_LIST_HEAD(&l->pending);
	INIT_DELAYED_WORK(&l->relisten, rr2s_relisten_worker);
	memcpy(&l->addr, sa, salen);
	svc_xprt_init(net, &rpcrdma2_svc_class, &l->b.xprt, serv);
	set_bit(XPT_LISTENER, &l->b.xprt.xpt_flags);

	id = rr2s_listen_id(l);
	if (IS_ERR(id)) {
		ret = PTR_ERR(id);
		/*
		 * nfsd tries IPv6 too and expects this error where there is
		 * none
		 */
		if (ret != -EAFNOSUPPORT)
			pr_warn("rpcrdma2: cannot listen on %pISpc (%pe): %s\n", sa,
				id,
				ret == -EADDRINUSE ?
				"the port is taken: stop the other listener (rpc.nfsd 0) first" :
				"check that an RDMA device has this address (rdma link show; ip addr)");
		/* svc_xprt_init() took a reference on the namespace */
		put_net_track(l->b.xprt.xpt_net, &l->b.xprt.ns_tracker);
		kfree(l);
		return ERR_CAST(id);
	}
	/* with the port rdma_cm chose if nfsd asked for none */
	memcpy(&l->addr, &id->route.addr.src_addr, salen);
	spin_lock(&l->lock);
	l->b.id = id;
	spin_unlock(&l->lock);
	rdma_unlock_handler(id);
	svc_xprt_set_local(&l->b.xprt, (struct sockaddr *)&l->addr, salen);
	mutex_lock(&rr2s_listeners_lock);
	list_add(&l->entry, &rr2s_listeners);
	mutex_unlock(&rr2s_listeners_lock);
	pr_info("rpcrdma2: listening on %pISpc\n", sa);
	return &l->b.xprt;
}

static void rr2s_listener_free(struct rr2s_listener *l)
{
	struct rr2s_conn *c, *tmp;
	struct rdma_cm_id *id;

	mutex_lock(&rr2s_listeners_lock);
	list_del(&l->entry);
	mutex_unlock(&rr2s_listeners_lock);
	/* from here rr2s_listener_lost() and the work leave b.id alone */
	spin_lock(&l->lock);
	l->dying = true;
	id = l->b.id;
	l->b.id = NULL;
	spin_unlock(&l->lock);
	cancel_delayed_work_sync(&l->relisten);
	if (id)
		rdma_destroy_id(id);	/* no CONNECT_REQUEST after this */
	list_for_each_entry_safe(c, tmp, &l->pending, accept_entry) {
		list_del(&c->accept_entry);
		rdma_reject(c->b.id, NULL, 0, IB_CM_REJ_CONSUMER_DEFINED);
		rr2s_conn_free(c);
	}
	kfree(l);
}

static void rr2s_xprt_detach(struct svc_xprt *xprt)
{
	if (test_bit(XPT_LISTENER, &xprt->xpt_flags))
		return;
	rr2s_detach(xprt);
}

static void rr2s_xprt_free(struct svc_xprt *xprt)
{
	if (test_bit(XPT_LISTENER, &xprt->xpt_flags))
		rr2s_listener_free(rr2s_listener(xprt));
	else
		rr2s_free(xprt);
}

static const struct svc_xprt_ops rpcrdma2_svc_ops = {
	.xpo_create		= rr2s_create,
	.xpo_accept		= rr2s_accept,
	.xpo_has_wspace		= rr2s_has_wspace,
	.xpo_recvfrom		= rr2s_recvfrom,
	.xpo_sendto		= rr2s_sendto,
	.xpo_result_payload	= rr2s_result_payload,
	.xpo_release_ctxt	= rr2s_release_ctxt,
	.xpo_detach		= rr2s_xprt_detach,
	.xpo_free		= rr2s_xprt_free,
	.xpo_kill_temp_xprt	= rr2s_kill_temp,
};

static struct svc_xprt_class rpcrdma2_svc_class = {
	.xcl_name	= "rdma",
	.xcl_owner	= THIS_MODULE,
	.xcl_ops	= &rpcrdma2_svc_ops,
	.xcl_max_payload = RPCSVC_MAXPAYLOAD,
	.xcl_ident	= XPRT_TRANSPORT_RDMA,
};

int rpcrdma2_svc_register(void)
{
	int ret;

	rr2s_wq = alloc_workqueue("rpcrdma2_svc", WQ_MEM_RECLAIM | WQ_UNBOUND,
				  0);
	if (!rr2s_wq)
		return -ENOMEM;
	ret = rr2s_bc_register();
	if (ret)
		goto out_wq;
	ret = rpcrdma2_dev_notifier_register(&rr2s_dev_nb);
	if (ret)
		goto out_bc;
	ret = svc_reg_xprt_class(&rpcrdma2_svc_class);
	if (ret)
		goto out_nb;
	return 0;

out_nb:
	rpcrdma2_dev_notifier_unregister(&rr2s_dev_nb);
out_bc:
	rr2s_bc_unregister();
out_wq:
	destroy_workqueue(rr2s_wq);
	return ret;
}

void rpcrdma2_svc_unregister(void)
{
	svc_unreg_xprt_class(&rpcrdma2_svc_class);
	rpcrdma2_dev_notifier_unregister(&rr2s_dev_nb);
	rr2s_bc_unregister();
	rr2s_parked_flush();
	destroy_workqueue(rr2s_wq);
}
