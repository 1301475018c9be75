/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The per-connection protocol engine both halves run: one settled (or
 * settling) RPC-over-RDMA connection's endpoint, Send pool, sequence
 * window, reassembly and negotiation state, one receive entry that
 * takes every Receive through the same checks before a role callback
 * sees it, and one send pump for a possibly continued message.  Each
 * half embeds a struct rpcrdma2_link and keeps only what is its own
 * (sunrpc's rpc_xprt on the client, svc_xprt and rdma_rw on the
 * server).  See link.c.
 */
#ifndef RPCRDMA2_LINK_H
#define RPCRDMA2_LINK_H

#include <linux/completion.h>
#include <linux/socket.h>
#include <linux/spinlock.h>

#include "shared/codec.h"
#include "shared/cont.h"
#include "shared/ep.h"
#include "shared/fault.h"
#include "shared/nego.h"
#include "shared/xfer.h"

struct rpcrdma2_link;

/*
 * What a half does with a Receive once the engine has checked it.
 * Every callback runs in the CQ's work item, one Receive at a time, in
 * the order the messages came.
 */
struct rpcrdma2_link_ops {
	/* the Receive failed or was flushed: the connection is gone */
	void (*recv_failed)(struct rpcrdma2_link *l, struct rpcrdma2_recv *rv);
	/*
	 * Before the version is settled: the half negotiates.  True when
	 * the message settled it and is itself an RPC to process.
	 */
	bool (*negotiate)(struct rpcrdma2_link *l, struct rpcrdma2_recv *rv);
	/* the decoder's limits for what this role takes */
	void (*limits)(struct rpcrdma2_link *l, struct rpcrdma2_limits *lim);
	/*
	 * Optional: a second look at a header the limits let through
	 * (@ret 0), with the payload at hand; returns the verdict.
	 */
	int (*recheck)(struct rpcrdma2_link *l, struct rpcrdma2_recv *rv,
		       struct rpcrdma2_hdr *hdr);
	/*
	 * A message not taken: @verdict is an RDMA2_ERR_* to answer with
	 * (the half decides whether it does) or RPCRDMA2_DROP.  The
	 * engine reposts the Receive after.
	 */
	void (*reject)(struct rpcrdma2_link *l, const struct rpcrdma2_hdr *hdr,
		       int verdict);
	/* Optional: every message taken, before it is dispatched */
	void (*taken)(struct rpcrdma2_link *l, const struct rpcrdma2_hdr *hdr,
		      struct rpcrdma2_recv *rv);
	/* a window acknowledgment opened room for our next Send */
	void (*room)(struct rpcrdma2_link *l);
	/*
	 * RDMA2_MSG or RDMA2_NOMSG: a Call or Reply, either direction.
	 * True when the half keeps @rv (and reposts it itself later).
	 */
	bool (*msg)(struct rpcrdma2_link *l, const struct rpcrdma2_hdr *hdr,
		    struct rpcrdma2_recv *rv);
	void (*error)(struct rpcrdma2_link *l, const struct rpcrdma2_hdr *hdr,
		      struct rpcrdma2_recv *rv);
	/* one of the seed 004 exchange's messages (only when it is on) */
	void (*xch)(struct rpcrdma2_link *l, const struct rpcrdma2_hdr *hdr);
	void (*repost)(struct rpcrdma2_link *l, struct rpcrdma2_recv *rv);
	/* the credit field of a message sent now (rpcrdma2_credit_out()) */
	u32 (*credit)(struct rpcrdma2_link *l);
	/* a control message could not be posted: close the connection */
	void (*close)(struct rpcrdma2_link *l);
	/*
	 * Optional: the final Send of a message takes @ctx (its
	 * completion hands it back through the half's ->send_done).
	 */
	void (*seal)(struct rpcrdma2_link *l, void *ctx);

	/*
	 * What a header of another version than the settled one gets:
	 * RDMA2_ERR_VERS (a server answers it, V2-FRAME-20) or
	 * RPCRDMA2_DROP (a client drops it, V2-FRAME-24).
	 */
	int		vers_mismatch;
	/*
	 * Fault-injection sites of this role's send pump (fault.c), or
	 * RPCRDMA2_FAIL_NR: none.  @fail_room finds no room for the next
	 * Send; @fail_post fails its post as a QP in error would.
	 */
	enum rpcrdma2_fail_site fail_room;
	enum rpcrdma2_fail_site fail_post;
};

/*
 * Where a link is.  Moved on by the CQ's work item (NEGOTIATING to UP,
 * to DRAINING), by a client settling Version 1 without a message (to
 * UP, rpcrdma2_link_settled(), with a release), and by the client's
 * connect and teardown (to NEGOTIATING, to DOWN) when no completion
 * runs; read anywhere.  A server link is freed with its connection.
 */
enum rpcrdma2_link_state {
	RPCRDMA2_LINK_DOWN,		/* no endpoint */
	RPCRDMA2_LINK_NEGOTIATING,	/* connected, version not settled */
	RPCRDMA2_LINK_UP,		/* settled: RPCs flow */
	RPCRDMA2_LINK_DRAINING,		/* closing: Receives reposted unread */
};

struct rpcrdma2_link {
	const struct rpcrdma2_link_ops *ops;
	enum rpcrdma2_link_state state;
	/* the peer, for traces; the half's own address storage */
	const struct sockaddr_storage *peer;

	struct rpcrdma2_ep	ep;
	struct rpcrdma2_pool	pool;
	struct rpcrdma2_local	local;
	struct rpcrdma2_conn	conn;
	/*
	 * How the negotiation ended (rpcrdma2_link_negotiated(); MORE: it
	 * has not), for a half that waits for it (the client's connect
	 * worker); lost: the connection died before it ended.  Written by
	 * the CQ's work item, once per connection.
	 */
	struct completion	nego_done;
	enum rpcrdma2_nego	nego;
	bool			nego_lost;
	/* the CQ's work item only */
	struct rpcrdma2_reasm	reasm;
	u64			recvs;		/* Receives completed */
	u64			sends;		/* Sends the pump posted */

	/* the send side's window, under tx_lock */
	spinlock_t		tx_lock;
	struct rpcrdma2_seq	seq;
};

void __rpcrdma2_link_init(struct rpcrdma2_link *l,
			  const struct rpcrdma2_link_ops *ops,
			  const struct sockaddr_storage *peer,
			  struct lock_class_key *tx_key);
/*
 * One lockdep class of tx_lock per call site, as spin_lock_init() has:
 * the client's and the server's are told apart.
 */
#define rpcrdma2_link_init(l, ops, peer)				\
do {									\
	static struct lock_class_key __tx_key;				\
									\
	__rpcrdma2_link_init(l, ops, peer, &__tx_key);			\
} while (0)
int rpcrdma2_link_open(struct rpcrdma2_link *l, u32 reasm_max);
void rpcrdma2_link_settled(struct rpcrdma2_link *l);
void rpcrdma2_link_negotiated(struct rpcrdma2_link *l, enum rpcrdma2_nego n);
int rpcrdma2_link_wait_negotiated(struct rpcrdma2_link *l,
				  unsigned long timeout,
				  enum rpcrdma2_nego *n);
void rpcrdma2_link_drain(struct rpcrdma2_link *l);
void rpcrdma2_link_down(struct rpcrdma2_link *l);
const char *rpcrdma2_link_state_name(const struct rpcrdma2_link *l);
void rpcrdma2_link_recv_done(struct rpcrdma2_recv *rv);
bool rpcrdma2_link_has_room(struct rpcrdma2_link *l, u32 msgno);
int rpcrdma2_link_pump(struct rpcrdma2_link *l, struct rpcrdma2_tx *tx,
		       u32 nmsgs, u32 inv_rkey, void *ctx);
u32 rpcrdma2_link_pump_abort(struct rpcrdma2_link *l,
			     const struct rpcrdma2_tx *tx, u32 nmsgs);
void rpcrdma2_link_send_ctrl(struct rpcrdma2_link *l, const void *msg, u32 len);
void rpcrdma2_link_send_grant(struct rpcrdma2_link *l);
bool rpcrdma2_link_send_error(struct rpcrdma2_link *l,
			      const struct rpcrdma2_hdr *h, u32 err,
			      u32 arg0, u32 arg1, void *ctx);

#endif /* RPCRDMA2_LINK_H */
