/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * RDMA device lifetime for rpcrdma2: the module's ib_client.
 *
 * Every endpoint (shared/ep.c) is a user of its device from
 * rpcrdma2_ep_create() to the end of rpcrdma2_ep_destroy().  When a
 * device goes away ("rdma link delete", a driver unbound, a hot
 * unplug), the RDMA core calls the ib_client's remove before rdma_cm's:
 * every user is told (its ->removing callback, which must not block),
 * and the removal waits until each has destroyed its endpoint.  A user
 * can no longer be added to a device being removed.
 *
 * A device that arrives is announced on a notifier chain, so that a
 * listener that lost its address can listen again.
 *
 * Called by: the module core (register), shared/ep.c (users), the server
 * half (the notifier).  Calls: nothing above it.
 */
#ifndef RPCRDMA2_DEV_H
#define RPCRDMA2_DEV_H

#include <linux/notifier.h>
#include <rdma/ib_verbs.h>

struct rpcrdma2_dev;

struct rpcrdma2_dev_user {
	struct rpcrdma2_dev	*dev;		/* NULL: not registered */
	u32			index;
	/* the device is going away: start letting go, do not block */
	void			(*removing)(struct rpcrdma2_dev_user *u);
};

int rpcrdma2_dev_get(struct rpcrdma2_dev_user *u, struct ib_device *device,
		     void (*removing)(struct rpcrdma2_dev_user *u));
void rpcrdma2_dev_put(struct rpcrdma2_dev_user *u);

/* Notifier events: the data is the struct ib_device. */
#define RPCRDMA2_DEV_ADDED	1

int rpcrdma2_dev_notifier_register(struct notifier_block *nb);
void rpcrdma2_dev_notifier_unregister(struct notifier_block *nb);

/* live endpoints on every device, for the counters and the tests */
unsigned int rpcrdma2_dev_users(void);

int rpcrdma2_dev_register(void);
void rpcrdma2_dev_unregister(void);

#endif /* RPCRDMA2_DEV_H */
