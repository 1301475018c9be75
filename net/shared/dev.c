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
 * Device limits.  rpcrdma2_dev_attr() is the one place the module reads
 * a device's limits (FRWR depth, SGEs, RDMA Read depths, MR size, queue
 * sizes); the test-only devclamp parameter lowers them to a profile
 * modelled on a real NIC, so that the sizing of chunks, MRs and queues
 * for such a NIC can be tested on rxe and siw.  The
 * profile is read when a connection is made; the parameter can be set
 * only when the module is loaded (KUnit cases switch it with
 * rpcrdma2_test_set_devclamp()).
 *
 * Called by: the module core, shared/ep.c, shared/xfer.c, the client
 * (mr.c, connect.c) and the server (transport.c, notifier).
 */

#include <kunit/visibility.h>
#include <linux/kref.h>
#include <linux/moduleparam.h>
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

/*
 * The profiles: 0 (or a flag mask of 0) leaves the device's value.
 * cx3: mlx4 on a ConnectX-3 (MLX4_MAX_FAST_REG_PAGES 511, 30 SGEs per
 *	RDMA Read, 16 responder and 128 initiator resources).
 * iwarp: cxgb4 on a Chelsio T4 without DSGL fast registration
 *	(T4_MAX_FR_IMMD_DEPTH 32 pages), one SGE per RDMA Read, four per
 *	Send, 8 RDMA Reads each way: the iWARP class.
 * tiny: a 4-page FRWR depth, 64 KiB MRs (so 64 KiB RSSIZ both ways),
 *	one SGE for Reads, two for Sends and Writes, one RDMA Read at a
 *	time.
 */
static const struct rpcrdma2_dev_attr rpcrdma2_devclamps[] = {
	[RPCRDMA2_DEVCLAMP_NONE] = { },
	[RPCRDMA2_DEVCLAMP_CX3] = {
		.max_fast_reg_page_list_len	= 511,
		.max_sge_rd			= 30,
		.max_send_sge			= 32,
		.max_qp_rd_atom			= 16,
		.max_qp_init_rd_atom		= 128,
		.max_qp_wr			= 16351,
		.max_cqe			= 4194303,
	},
	[RPCRDMA2_DEVCLAMP_IWARP] = {
		.max_fast_reg_page_list_len	= 32,
		.max_sge_rd			= 1,
		.max_send_sge			= 4,
		.max_qp_rd_atom			= 8,
		.max_qp_init_rd_atom		= 8,
	},
	[RPCRDMA2_DEVCLAMP_TINY] = {
		.max_fast_reg_page_list_len	= 4,
		.max_sge_rd			= 1,
		.max_send_sge			= 2,
		.max_qp_rd_atom			= 1,
		.max_qp_init_rd_atom		= 1,
		.max_mr_size			= 64 * 1024,
	},
};

VISIBLE_IF_KUNIT const char *const rpcrdma2_devclamp_names[] = {
	[RPCRDMA2_DEVCLAMP_NONE]	= "none",
	[RPCRDMA2_DEVCLAMP_CX3]		= "cx3",
	[RPCRDMA2_DEVCLAMP_IWARP]	= "iwarp",
	[RPCRDMA2_DEVCLAMP_TINY]	= "tiny",
};

VISIBLE_IF_KUNIT unsigned int rpcrdma2_devclamp = RPCRDMA2_DEVCLAMP_NONE;

static int rpcrdma2_devclamp_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(rpcrdma2_devclamp_names, val);

	if (i < 0)
		return -EINVAL;
	WRITE_ONCE(rpcrdma2_devclamp, i);
	return 0;
}

static int rpcrdma2_devclamp_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", rpcrdma2_devclamp_name());
}

static const struct kernel_param_ops rpcrdma2_devclamp_ops = {
	.set	= rpcrdma2_devclamp_set,
	.get	= rpcrdma2_devclamp_get,
};

module_param_cb(devclamp, &rpcrdma2_devclamp_ops, NULL, 0444);
MODULE_PARM_DESC(devclamp,
		 "Test only: lower the RDMA device limits used to a NIC's (none, cx3, iwarp, tiny; default none)");

const char *rpcrdma2_devclamp_name(void)
{
	return rpcrdma2_devclamp_names[READ_ONCE(rpcrdma2_devclamp)];
}

/* The device's value, or the profile's when it has a lower one. */
static u64 rpcrdma2_lower(u64 dev, u64 clamp)
{
	return clamp && clamp < dev ? clamp : dev;
}

/**
 * rpcrdma2_dev_attr - the limits of @dev the module may use
 * @dev: an RDMA device
 * @a: filled in: the device's attributes, lowered to the devclamp
 *     profile's where it has one
 */
void rpcrdma2_dev_attr(const struct ib_device *dev,
		       struct rpcrdma2_dev_attr *a)
{
	const struct ib_device_attr *d = &dev->attrs;
	const struct rpcrdma2_dev_attr *c;

	BUILD_BUG_ON(ARRAY_SIZE(rpcrdma2_devclamps) != RPCRDMA2_DEVCLAMP_NR);
	BUILD_BUG_ON(ARRAY_SIZE(rpcrdma2_devclamp_names) !=
		     RPCRDMA2_DEVCLAMP_NR);
	c = &rpcrdma2_devclamps[READ_ONCE(rpcrdma2_devclamp)];
	a->max_fast_reg_page_list_len =
		rpcrdma2_lower(d->max_fast_reg_page_list_len,
			       c->max_fast_reg_page_list_len);
	a->max_sge_rd = rpcrdma2_lower(d->max_sge_rd, c->max_sge_rd);
	a->max_send_sge = rpcrdma2_lower(d->max_send_sge, c->max_send_sge);
	a->max_qp_rd_atom = rpcrdma2_lower(d->max_qp_rd_atom,
					   c->max_qp_rd_atom);
	a->max_qp_init_rd_atom = rpcrdma2_lower(d->max_qp_init_rd_atom,
						c->max_qp_init_rd_atom);
	a->max_mr_size = rpcrdma2_lower(d->max_mr_size, c->max_mr_size);
	a->max_mr = rpcrdma2_lower(d->max_mr, c->max_mr);
	a->max_qp_wr = rpcrdma2_lower(d->max_qp_wr, c->max_qp_wr);
	a->max_cqe = rpcrdma2_lower(d->max_cqe, c->max_cqe);
	a->device_cap_flags = d->device_cap_flags;
}

/**
 * rpcrdma2_dev_clamp_qp - hold rdma_rw to the clamped SGE limits
 * @qp: a QP just created with cap.max_send_sge from @a
 * @a: the limits it was created under
 *
 * rdma_rw cuts its RDMA Reads and Writes at the QP's max_read_sge and
 * max_write_sge, which the core sets from the device's max_sge_rd and
 * the QP's max_send_sge; lower them to the profile's, so that rdma_rw
 * cuts as it would on that NIC.
 */
void rpcrdma2_dev_clamp_qp(struct ib_qp *qp, const struct rpcrdma2_dev_attr *a)
{
	qp->max_read_sge = max_t(u32, min_t(u32, qp->max_read_sge,
					    a->max_sge_rd), 1);
	qp->max_write_sge = max_t(u32, min_t(u32, qp->max_write_sge,
					     a->max_send_sge), 1);
}

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
