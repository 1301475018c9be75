/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rpcrdma2 server half: the connection object shared by transport.c
 * (listeners, forward RPC for nfsd) and backchannel.c (reverse-direction
 * RPC, the NFSv4.1+ callback channel).
 */
#ifndef RPCRDMA2_SERVER_H
#define RPCRDMA2_SERVER_H

#include <linux/sunrpc/svc_xprt.h>

#include "shared/cont.h"
#include "shared/xfer.h"

#define RR2S_CREDITS_INIT	32
#define RR2S_CREDITS		64
#define RR2S_BACKLOG		64
#define RR2S_SEND_TIMEOUT	(30 * HZ)

/* Reverse Replies the server keeps Receives for (the client's slots). */
#define RR2S_BC_SLOTS		4

enum rr2s_kind { RR2S_LISTENER, RR2S_CONN };

/* The head of both objects, so the CM handler can tell them apart. */
struct rr2s_base {
	struct svc_xprt		xprt;
	enum rr2s_kind		kind;
	struct rdma_cm_id	*id;
};

struct rr2s_listener {
	struct rr2s_base	b;
	spinlock_t		lock;		/* protects pending */
	struct list_head	pending;	/* rr2s_conn to accept */
};

/* One received Call, queued for an nfsd thread. */
struct rr2s_msg {
	struct list_head	list;
	struct rpcrdma2_recv	*rv;	/* not continued: held Receive */
	u32			off;	/* payload offset in rv->buf */
	u32			len;	/* payload octets */
	struct page		**pages; /* continued: the reassembled payload */
	u32			npages;
};

struct rr2s_conn {
	struct rr2s_base	b;
	struct list_head	accept_entry;
	struct rpcrdma2_cm_pdata peer_pdata;
	bool			ep_up;
	struct rpcrdma2_ep	ep;
	struct rpcrdma2_pool	pool;
	struct rpcrdma2_local	local;
	struct rpcrdma2_conn	conn;

	/* queued Calls (CQ work item -> nfsd), under rq_lock */
	spinlock_t		rq_lock;
	struct list_head	ready;
	struct rr2s_msg		*slots;		/* one per Receive */

	/* reassembly: the CQ work item only */
	struct rpcrdma2_reasm	reasm;
	struct rr2s_msg		*asm_msg;
	u32			asm_max;
	bool			asm_call;	/* a Call, not a reverse Reply */

	/* sending: tx_lock for the window, xpt_mutex for whole Replies */
	spinlock_t		tx_lock;
	struct rpcrdma2_seq	seq;
	wait_queue_head_t	send_wait;
	u32			grant;
	atomic_t		outstanding;	/* Calls without a Reply */
	struct work_struct	grant_work;

	u64			bc_calls;	/* reverse Calls sent */
};

static inline struct rr2s_conn *rr2s_conn(struct svc_xprt *xprt)
{
	return container_of(xprt, struct rr2s_conn, b.xprt);
}

/* transport.c */
u32 rr2s_credit(const struct rr2s_conn *c);
int rr2s_send_msg(struct rr2s_conn *c, struct xdr_buf *payload, u32 xid,
		  u32 flags);
void rr2s_close(struct rr2s_conn *c);

/* backchannel.c */
int rr2s_bc_register(void);
void rr2s_bc_unregister(void);
void rr2s_bc_reply(struct rr2s_conn *c, const void *data, u32 len,
		   struct page **pages);

#endif /* RPCRDMA2_SERVER_H */
