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

/*
 * The device limits the module uses, as the device states them or, with
 * the test-only devclamp parameter, lowered to those of a real NIC
 * (Documentation/admin-guide.rst).  Every limit the module takes from a
 * device comes from rpcrdma2_dev_attr(); none from ib_device.attrs.
 */
enum rpcrdma2_devclamp {
	RPCRDMA2_DEVCLAMP_NONE,
	RPCRDMA2_DEVCLAMP_CX3,		/* ConnectX-3 (mlx4) */
	RPCRDMA2_DEVCLAMP_IWARP,	/* Chelsio T4 (cxgb4), no DSGL */
	RPCRDMA2_DEVCLAMP_TINY,		/* the smallest that still works */
	RPCRDMA2_DEVCLAMP_NR,
};

struct rpcrdma2_dev_attr {
	u32	max_fast_reg_page_list_len;	/* pages per FRWR MR */
	u32	max_sge_rd;		/* SGEs per RDMA Read (rdma_rw) */
	u32	max_send_sge;		/* SGEs per Send or RDMA Write */
	u32	max_qp_rd_atom;		/* RDMA Reads we answer at once */
	u32	max_qp_init_rd_atom;	/* RDMA Reads we issue at once */
	u64	max_mr_size;
	u32	max_mr;			/* MRs the device has */
	u32	max_qp_wr;
	u32	max_cqe;
	u64	device_cap_flags;	/* as the device states them */
};

void rpcrdma2_dev_attr(const struct ib_device *dev,
		       struct rpcrdma2_dev_attr *a);
void rpcrdma2_dev_clamp_qp(struct ib_qp *qp, const struct rpcrdma2_dev_attr *a);
const char *rpcrdma2_devclamp_name(void);
#if IS_ENABLED(CONFIG_KUNIT)
/* the devclamp parameter and its names, which KUnit sets (tests/hooks.c) */
extern unsigned int rpcrdma2_devclamp;
extern const char *const rpcrdma2_devclamp_names[];
#endif

#endif /* RPCRDMA2_DEV_H */
