/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rpcrdma2 client half: the transport object shared by transport.c
 * (connection, forward RPC) and backchannel.c (reverse-direction RPC).
 */
#ifndef RPCRDMA2_CLIENT_H
#define RPCRDMA2_CLIENT_H

#include <linux/sunrpc/xprt.h>

#include "shared/cont.h"
#include "shared/xfer.h"

#if !IS_ENABLED(CONFIG_SUNRPC_BACKCHANNEL)
#error "rpcrdma2 needs CONFIG_SUNRPC_BACKCHANNEL (NFSv4.1 callbacks)"
#endif

#define RR2C_CREDITS		64	/* most RPCs in flight; also our grant */
#define RR2C_SLOTS		128
#define RR2C_RESOLVE_MS		5000
#define RR2C_NEGO_TIMEOUT	(10 * HZ)
#define RR2C_INIT_REEST_TO	(5 * HZ)
#define RR2C_IDLE_TO		(5 * 60 * HZ)
#define RR2C_BIND_TO		(60 * HZ)

struct rr2c_stats {
	u64	sends;			/* Sends posted */
	u64	cont_msgs;		/* RPC messages sent as sequences */
	u64	recvs;			/* messages received */
	u64	bad_hdrs;		/* dropped: the codec refused them */
	u64	errors;			/* RDMA2_ERROR / RDMA_ERROR received */
	u64	grants;			/* credit-grant-only messages */
	u64	bad_xids;		/* replies matching no request */
	u64	write_waits;		/* ->send_request waited for room */
	u64	hellos;			/* CONNPROPs sent to open a connection */
	u64	too_big;		/* Calls refused: no chunks yet (v1) */
	u64	bc_calls;		/* reverse-direction Calls received */
	u64	bc_dropped;		/* ... dropped: no slot or no service */
	u64	aborted_seqs;		/* Calls abandoned mid-sequence */
	u64	errors_sent;		/* RDMA2_ERRORs we answered with */
};

struct rr2c {
	struct rpc_xprt		xprt;
	struct delayed_work	connect_work;
	u32			vers_cap;	/* 1 after a fallback */
	bool			ever_failed;

	/* one connection: valid while the transport is connected */
	struct rdma_cm_id	*id;
	struct rpcrdma2_ep	ep;
	struct rpcrdma2_pool	pool;
	struct rpcrdma2_local	local;
	struct rpcrdma2_conn	conn;
	struct completion	cm_done;
	int			cm_status;
	struct rpcrdma2_cm_pdata peer_pdata;
	struct completion	nego_done;
	enum rpcrdma2_nego	nego;
	bool			nego_lost;	/* connection died first */
	u32			nego_grant;

	/*
	 * Send side, under tx_lock.  A message being cut is identified
	 * by its rpc_rqst, XID and connection, never by the rpc_rqst
	 * alone: the slot allocator reuses rpc_rqsts.
	 */
	spinlock_t		tx_lock;
	struct rpcrdma2_seq	seq;
	struct rpc_rqst		*tx_req;	/* the message being cut */
	__be32			tx_xid;
	u32			tx_nmsgs;
	unsigned long		tx_cookie;
	struct rpcrdma2_tx	tx;

	/*
	 * Receive side: only the CQ's work item touches these.  A Reply
	 * being reassembled is found again by XID for every message and
	 * pinned only while its octets are copied, so a task that exits
	 * mid-sequence never waits on a Receive that may not come.
	 */
	struct rpcrdma2_reasm	reasm;
	u32			rx_xid;
	u32			rx_off;
	bool			rx_active;	/* a message is being received */
	bool			rx_bc;		/* ... and it is a reverse Call */
	struct rpc_rqst		*rx_bc_req;	/* its slot, or NULL: dropped */

	struct rr2c_stats	stats;
#if IS_ENABLED(CONFIG_RPCRDMA2_KUNIT_TEST)
	u32			test_stall_at;	/* see rr2c_test_stalled() */
#endif
};

static inline struct rr2c *rr2c(struct rpc_xprt *xprt)
{
	return container_of(xprt, struct rr2c, xprt);
}

/* Reverse-direction slots: what NFSv4.1 sessions may use at once. */
#define RR2C_BC_SLOTS		4

/* backchannel.c */
int rr2c_bc_setup(struct rpc_xprt *xprt, unsigned int min_reqs);
size_t rr2c_bc_maxpayload(struct rpc_xprt *xprt);
unsigned int rr2c_bc_num_slots(struct rpc_xprt *xprt);
void rr2c_bc_free_rqst(struct rpc_rqst *req);
void rr2c_bc_destroy(struct rpc_xprt *xprt, unsigned int max_reqs);
struct rpc_rqst *rr2c_bc_take(struct rr2c *r, u32 xid);
void rr2c_bc_deliver(struct rr2c *r, struct rpc_rqst *req, u32 len);

#endif /* RPCRDMA2_CLIENT_H */
