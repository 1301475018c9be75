// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 server half: parked cm_ids.
 *
 * Owns the cm_ids of closed connections whose port was down when they
 * closed: the list, its lock and worker, and whether a port may send a
 * DREQ now (rr2s_port_active()).  The worker runs on rr2s_wq
 * (transport.c).
 *
 * Called by: transport.c (rr2s_disconnect(), rr2s_conn_free(), the
 * connection manager's events for a parked id, module unload),
 * stats.c (rr2s_parked_count()).
 */

#include <linux/netdevice.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include <rdma/rdma_cm.h>

#include "rpcrdma2.h"
#include "server/server.h"
#include "shared/fault.h"
#include <trace/events/rpcrdma2.h>

/*
 * Parking a closed connection's cm_id while its port is down (IB and
 * RoCE).
 *
 * Tearing down a connected cm_id sends a DREQ: rdma_disconnect() does,
 * and so does rdma_destroy_id() on an established one.  While the port
 * is down that MAD cannot go out, and on 6.12 rxe then puts the
 * device's GSI QP in the error state for good: no connection can be
 * made through the device again (the fault soak's link flap showed it,
 * a DREQ sent 1 s into a 3 s flap).  So a connection closed while its
 * port is not ACTIVE moves its QP to the error state without a DREQ,
 * and its cm_id is parked once the connection is freed: destroyed,
 * DREQ and all, when the port is ACTIVE again, after RR2S_PARK_MAX at
 * the latest, and by rdma_cm itself if the device goes away first.
 */
#define RR2S_PARK_MAX		(30 * HZ)
#define RR2S_PARK_POLL		(HZ / 2)

struct rr2s_parked {
	struct list_head	entry;
	struct rdma_cm_id	*id;
	unsigned long		deadline;
};

static LIST_HEAD(rr2s_parked);
/*
 * A mutex: rr2s_port_active() may sleep in a driver's get_netdev.
 * Taken inside rdma_cm's handler lock (rr2s_park(), the event), never
 * around rdma_destroy_id(), which waits for that lock.
 */
static DEFINE_MUTEX(rr2s_parked_lock);	/* protects rr2s_parked */
/* what a parked cm_id's context points to, for rr2s_cm_event() */
static struct rr2s_base rr2s_parked_ctx = { .kind = RR2S_PARKED };

static void rr2s_parked_worker(struct work_struct *work);
static DECLARE_DELAYED_WORK(rr2s_parked_work, rr2s_parked_worker);

/*
 * May a DREQ go out now?  iWARP has no MADs (its disconnect is the TCP
 * stream's), so there it always may.
 */
bool rr2s_port_active(const struct rdma_cm_id *id)
{
	enum ib_port_state state;
	struct net_device *ndev;
	bool up;

	if (!id->device)
		return false;
	if (rdma_protocol_iwarp(id->device, id->port_num))
		return true;
	if (rpcrdma2_fail(RPCRDMA2_FAIL_PORT_DOWN))	/* injected */
		return false;
	if (ib_get_cached_port_state(id->device, id->port_num, &state) ||
	    state != IB_PORT_ACTIVE)
		return false;
	/*
	 * RoCE: the cached state follows the netdev a work item later,
	 * and the QP errors that close connections come at once
	 */
	ndev = ib_device_get_netdev(id->device, id->port_num);
	if (!ndev)
		return true;
	up = netif_running(ndev) && netif_carrier_ok(ndev);
	dev_put(ndev);
	return up;
}

void rr2s_park(struct rr2s_conn *c)
{
	struct rdma_cm_id *id = c->b.id;
	struct rr2s_parked *p;

	p = kmalloc(sizeof(*p), GFP_KERNEL);
	if (!p) {
		rdma_destroy_id(id);
		return;
	}
	p->id = id;
	p->deadline = jiffies + RR2S_PARK_MAX;
	trace_rpcrdma2_svc_park(&c->b.xprt.xpt_remote, 1);
	rdma_lock_handler(id);
	id->context = &rr2s_parked_ctx;
	mutex_lock(&rr2s_parked_lock);
	list_add_tail(&p->entry, &rr2s_parked);
	mutex_unlock(&rr2s_parked_lock);
	rdma_unlock_handler(id);
	mod_delayed_work(rr2s_wq, &rr2s_parked_work, RR2S_PARK_POLL);
}

static void rr2s_parked_worker(struct work_struct *work)
{
	struct rr2s_parked *p, *tmp;
	LIST_HEAD(done);
	bool more;

	mutex_lock(&rr2s_parked_lock);
	list_for_each_entry_safe(p, tmp, &rr2s_parked, entry)
		if (rr2s_port_active(p->id) ||
		    time_after(jiffies, p->deadline))
			list_move_tail(&p->entry, &done);
	more = !list_empty(&rr2s_parked);
	mutex_unlock(&rr2s_parked_lock);
	list_for_each_entry_safe(p, tmp, &done, entry) {
		trace_rpcrdma2_svc_park(&p->id->route.addr.dst_addr, 0);
		rdma_destroy_id(p->id);
		kfree(p);
	}
	if (more)
		mod_delayed_work(rr2s_wq, &rr2s_parked_work, RR2S_PARK_POLL);
}

/*
 * An event for a parked cm_id: only DEVICE_REMOVAL matters.  Returning
 * non-zero has rdma_cm destroy the id itself, which the removal needs
 * at once; one the worker already took is destroyed there.
 */
int rr2s_parked_event(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct rr2s_parked *p;

	if (ev->event != RDMA_CM_EVENT_DEVICE_REMOVAL)
		return 0;
	mutex_lock(&rr2s_parked_lock);
	list_for_each_entry(p, &rr2s_parked, entry) {
		if (p->id == id) {
			list_del(&p->entry);
			mutex_unlock(&rr2s_parked_lock);
			kfree(p);
			return 1;
		}
	}
	mutex_unlock(&rr2s_parked_lock);
	return 0;
}

/* Module unload: whatever is still parked goes now. */
void rr2s_parked_flush(void)
{
	struct rr2s_parked *p, *tmp;
	LIST_HEAD(all);

	cancel_delayed_work_sync(&rr2s_parked_work);
	mutex_lock(&rr2s_parked_lock);
	list_splice_init(&rr2s_parked, &all);
	mutex_unlock(&rr2s_parked_lock);
	list_for_each_entry_safe(p, tmp, &all, entry) {
		rdma_destroy_id(p->id);
		kfree(p);
	}
}

/* The cm_ids parked now (the rpcrdma2_parked_ids file). */
u32 rr2s_parked_count(void)
{
	struct rr2s_parked *p;
	u32 n = 0;

	mutex_lock(&rr2s_parked_lock);
	list_for_each_entry(p, &rr2s_parked, entry)
		n++;
	mutex_unlock(&rr2s_parked_lock);
	return n;
}
