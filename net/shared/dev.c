// SPDX-License-Identifier: GPL-2.0-only
/*
 * RDMA device lifetime for rpcrdma2: the module's ib_client (see dev.h).
 *
 * One struct rpcrdma2_dev per RDMA device, made by the client's add
 * callback and kept as the device's client data.  Its users (endpoints)
 * sit in an allocating xarray; each holds a reference on it.  Removal
 * marks the device, tells every user, drops the device's own reference
 * and waits for the last user's: ib_unregister_device() returns only
 * once no QP, CQ, PD or MR of ours is left on the device, which is what
 * the RDMA core needs before rdma_cm's own removal and the driver's.
 *
 * Users tear down from their own contexts (the client's xprt close, an
 * nfsd thread for the server), so the wait is as short as their
 * teardown; a user that takes longer than RPCRDMA2_DEV_NAG is named in
 * the log every RPCRDMA2_DEV_NAG, so that a stuck removal is visible.
 *
 * Called by: the module core, shared/ep.c, the server half (notifier).
 */

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "shared/dev.h"
#include <trace/events/rpcrdma2.h>

#define RPCRDMA2_DEV_NAG	(30 * HZ)

struct rpcrdma2_dev {
	struct ib_device	*device;
	struct kref		ref;		/* the device's, and a user's each */
	struct xarray		users;
	bool			removing;	/* under rpcrdma2_dev_mutex */
	struct completion	gone;		/* the last reference dropped */
};

static struct ib_client rpcrdma2_ib_client;
static BLOCKING_NOTIFIER_HEAD(rpcrdma2_dev_chain);
static atomic_t rpcrdma2_dev_nr_users = ATOMIC_INIT(0);
/* serializes a user's arrival with the start of its device's removal */
static DEFINE_MUTEX(rpcrdma2_dev_mutex);

static void rpcrdma2_dev_release(struct kref *ref)
{
	struct rpcrdma2_dev *d = container_of(ref, struct rpcrdma2_dev, ref);

	complete(&d->gone);
}

/**
 * rpcrdma2_dev_get - become a user of an RDMA device
 * @u: the user, not yet registered
 * @device: the device its endpoint is created on
 * @removing: called (from the removal, not blocking) when @device goes
 *
 * Returns 0, or -ENETUNREACH when @device is being removed (or was never
 * seen by the client): the caller must not create anything on it.
 */
int rpcrdma2_dev_get(struct rpcrdma2_dev_user *u, struct ib_device *device,
		     void (*removing)(struct rpcrdma2_dev_user *u))
{
	struct rpcrdma2_dev *d;
	int ret = -ENETUNREACH;

	u->dev = NULL;
	u->removing = removing;
	/* the removal clears the client data under it before freeing */
	mutex_lock(&rpcrdma2_dev_mutex);
	d = ib_get_client_data(device, &rpcrdma2_ib_client);
	if (d && !d->removing) {
		ret = xa_alloc(&d->users, &u->index, u, xa_limit_32b,
			       GFP_KERNEL);
		if (!ret)
			kref_get(&d->ref);
	}
	mutex_unlock(&rpcrdma2_dev_mutex);
	if (ret)
		return ret;
	u->dev = d;
	atomic_inc(&rpcrdma2_dev_nr_users);
	return 0;
}

/**
 * rpcrdma2_dev_put - stop being a user, once nothing is left on the device
 * @u: a registered user, or one whose rpcrdma2_dev_get() failed
 */
void rpcrdma2_dev_put(struct rpcrdma2_dev_user *u)
{
	struct rpcrdma2_dev *d = u->dev;

	if (!d)
		return;
	u->dev = NULL;
	xa_erase(&d->users, u->index);
	atomic_dec(&rpcrdma2_dev_nr_users);
	kref_put(&d->ref, rpcrdma2_dev_release);
}

unsigned int rpcrdma2_dev_users(void)
{
	return atomic_read(&rpcrdma2_dev_nr_users);
}

int rpcrdma2_dev_notifier_register(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&rpcrdma2_dev_chain, nb);
}

void rpcrdma2_dev_notifier_unregister(struct notifier_block *nb)
{
	blocking_notifier_chain_unregister(&rpcrdma2_dev_chain, nb);
}

static int rpcrdma2_dev_add(struct ib_device *device)
{
	struct rpcrdma2_dev *d;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->device = device;
	kref_init(&d->ref);
	xa_init_flags(&d->users, XA_FLAGS_ALLOC);
	init_completion(&d->gone);
	ib_set_client_data(device, &rpcrdma2_ib_client, d);
	trace_rpcrdma2_dev_add(device->name);
	blocking_notifier_call_chain(&rpcrdma2_dev_chain, RPCRDMA2_DEV_ADDED,
				     device);
	return 0;
}

static void rpcrdma2_dev_remove(struct ib_device *device, void *data)
{
	struct rpcrdma2_dev *d = data;
	struct rpcrdma2_dev_user *u;
	unsigned long index, waited = 0;
	unsigned int n = 0;

	mutex_lock(&rpcrdma2_dev_mutex);
	d->removing = true;
	ib_set_client_data(device, &rpcrdma2_ib_client, NULL);
	mutex_unlock(&rpcrdma2_dev_mutex);
	xa_lock(&d->users);
	/* ->removing only queues work; a user may put itself meanwhile */
	xa_for_each(&d->users, index, u) {
		u->removing(u);
		n++;
	}
	xa_unlock(&d->users);
	trace_rpcrdma2_dev_remove(device->name, n);
	if (n)
		pr_info("rpcrdma2: %s is going away: closing %u connection(s) on it\n",
			device->name, n);

	kref_put(&d->ref, rpcrdma2_dev_release);
	while (!wait_for_completion_timeout(&d->gone, RPCRDMA2_DEV_NAG)) {
		waited += RPCRDMA2_DEV_NAG / HZ;
		n = 0;
		xa_lock(&d->users);
		xa_for_each(&d->users, index, u)
			n++;
		xa_unlock(&d->users);
		pr_warn("rpcrdma2: removal of %s still waits for %u connection(s) after %lu s; check for a hung nfsd thread or RPC task\n",
			device->name, n, waited);
	}
	trace_rpcrdma2_dev_removed(device->name);
	xa_destroy(&d->users);
	kfree(d);
}

static struct ib_client rpcrdma2_ib_client = {
	.name	= "rpcrdma2",
	.add	= rpcrdma2_dev_add,
	.remove	= rpcrdma2_dev_remove,
};

int rpcrdma2_dev_register(void)
{
	return ib_register_client(&rpcrdma2_ib_client);
}

void rpcrdma2_dev_unregister(void)
{
	ib_unregister_client(&rpcrdma2_ib_client);
}
