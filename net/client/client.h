/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rpcrdma2 client half: the transport object and the declarations its
 * files share.
 *
 *   transport.c    the xprt class and ops, setup, the forward slots
 *   connect.c      CM events, connect worker, close, teardown, destroy
 *   send.c         the Send path and the credit grant
 *   stats.c        the mountstats line and the per-transport debugfs file
 *   reply.c        the receive path: completions, decoding, reassembly,
 *                  the checks of a Reply's chunks
 *   place.c        the Reply rebuilt around its chunks, its RPC completed
 *   exchange.c     the client's side of the seed 004 exchange (shared/xch.c)
 *   marshal.c      the per-RPC choice of inline, continuation or chunks,
 *                  and the chunk lists of a Call
 *   frwr.c         FRWR memory registration and invalidation
 *   mr.c           the MR pool: allocation, growth, release, quarantine
 *   backchannel.c  reverse-direction RPC (RFC 8167)
 *   sysctl.c       the knobs in /proc/sys/sunrpc (rdma_*)
 */
#ifndef RPCRDMA2_CLIENT_H
#define RPCRDMA2_CLIENT_H

#include <kunit/visibility.h>
#include <linux/scatterlist.h>
#include <linux/sunrpc/xprt.h>
#include <rdma/ib_verbs.h>

#include "shared/cont.h"
#include "shared/link.h"
#include "shared/xfer.h"

#if !IS_ENABLED(CONFIG_SUNRPC_BACKCHANNEL)
#error "rpcrdma2 needs CONFIG_SUNRPC_BACKCHANNEL (NFSv4.1 callbacks)"
#endif

/*
 * Credits: a connection asks for (and grants the server)
 * rdma_slot_table_entries (sysctl.c), at most the transport's RPC slots
 * and what the device's queues hold (rr2c_credits_for()); the slots are
 * rdma_slot_table_entries when the transport is created, by default
 * RR2C_SLOTS, the stock default.  Calls beyond the credits wait for
 * congestion space.
 */
#define RR2C_SLOTS		128
#define RR2C_RESOLVE_MS		5000
#define RR2C_NEGO_TIMEOUT	(10 * HZ)
/*
 * After a Version 2 first message went unanswered, was lost with its
 * connection or drew nothing that settles (V2-FRAME-19), connections
 * offer Version 1 for RR2C_V2_RETRY, doubled for each such failure in
 * a row up to RR2C_V2_RETRY_MAX, then Version 2 again: a flap never
 * pins a transport at Version 1, and a server upgraded to Version 2 is
 * found within RR2C_V2_RETRY_MAX.  Only the server's own answer pins
 * (rr2c_nego_outcome()).
 */
#define RR2C_V2_RETRY		(10 * 60 * HZ)
#define RR2C_V2_RETRY_MAX	(60 * 60 * HZ)
/* Reverse-direction slots: what NFSv4.1 sessions may use at once. */
#define RR2C_BC_SLOTS		4
/*
 * Credits' worth of Receives a connection starts with; the rest are
 * made as the server grants them (rr2c_recvs_for()).
 */
#define RR2C_RECV_INIT		RPCRDMA_MIN_SLOT_TABLE
#define RR2C_INIT_REEST_TO	(5 * HZ)
#define RR2C_IDLE_TO		(5 * 60 * HZ)
#define RR2C_BIND_TO		(60 * HZ)

/*
 * rsize/wsize: on Version 2 always (continuation carries what chunks
 * cannot); on Version 1 as much of it as the connection's chunks can
 * describe (rr2c_marshal_limits()).
 */
#define RR2C_MAX_PAYLOAD	(1024 * 1024)

/*
 * Memory registration.  One MR covers at most RR2C_MR_DEPTH pages (the
 * device may allow fewer: its FRWR depth, its MR size), so a 1 MiB
 * payload takes one or two on most devices and up to 16 on a device
 * with a 16-page depth or a peer with a 64 KiB RSSIZ; an RPC holds at
 * most RR2C_MAX_SEGS of them per chunk (the peer's RCSIZ may lower
 * that).  MRs are scarce on real HCAs and nconnect multiplies them,
 * so a connection starts with what its largest RPC needs and grows on
 * demand, by half again each time, up to RR2C_MRS_PER_CREDIT
 * per credit (never below what one RPC may need, never above the
 * device's MR count): a Call that finds too few free waits for them
 * (mr.c).
 */
#define RR2C_MR_DEPTH		256
#define RR2C_MAX_SEGS		16
#define RR2C_MRS_PER_CREDIT	4

/*
 * Inline octets of a continued Reply that belong after the position of
 * a registered Write chunk's item are held here until the final message
 * says where they go, and the chunk's pages are unmapped (place.c).  As
 * large as the longest sequence the client reassembles (V2-CONT-09: the
 * protocol sets no limit below the receiver's maximum RPC size), and
 * allocated before the transport's first Version 2 Call with a Write
 * chunk (only Version 2 continues Replies, V2-CONT-01).
 */
#define RR2C_STAGE_SIZE		RPCRDMA2_MAX_CONT_MSG

struct rr2c_stats {
	u64	sends;			/* Sends posted */
	u64	cont_msgs;		/* RPC messages sent as sequences */
	u64	bad_hdrs;		/* dropped: the codec refused them */
	u64	errors;			/* RDMA2_ERROR / RDMA_ERROR received */
	u64	grants;			/* credit-grant-only messages */
	u64	bad_xids;		/* replies matching no request */
	u64	write_waits;		/* ->send_request waited for room */
	u64	hellos;			/* CONNPROPs sent to open a connection */
	u64	too_big;		/* Calls and reverse Replies too large to send */
	u64	bc_calls;		/* reverse-direction Calls received */
	u64	bc_dropped;		/* ... dropped: no slot, no service, too long */
	u64	aborted_seqs;		/* Calls abandoned mid-sequence */
	u64	errors_sent;		/* RDMA2_ERRORs we answered with */

	/* chunks (mountstats' stock columns and the debugfs file) */
	u64	read_chunks;		/* Calls with a Read chunk */
	u64	write_chunks;		/* Calls with a Write chunk */
	u64	reply_chunks;		/* Calls with a Reply chunk */
	u64	nomsg_calls;		/* Calls in Special Format */
	u64	rdma_call_octets;	/* registered for the server to read */
	u64	rdma_reply_octets;	/* the server wrote into Write/Reply chunks */
	u64	fixup_octets;		/* Reply octets copied around a chunk */
	u64	pullup_octets;		/* Call octets past the head copied into Sends */
	u64	bad_chunks;		/* Replies with an impossible chunk */
	u64	mrs_registered;
	u64	mrs_remote_inv;		/* invalidated by Send With Invalidate */
	u64	mrs_local_inv;		/* invalidated by LOCAL_INV */
	u64	mrs_recovered;		/* quarantined after a failed WR */
	u64	mrs_allocated;		/* MRs ever made, all connections */
	u64	mrs_orphaned;		/* deregistered still mapped or registered */
	u64	mr_waits;		/* Calls waited for a free MR */
	u64	stage_busy;		/* Replies dropped: stage in use */
	u64	mapped_writes;		/* RPCRDMA2_DEBUG_DMA: see place.c */
};

struct rr2c;
struct rr2c_req;

/* The states of one MR (frwr.c, mr.c); changed under rr2c_frwr.lock. */
enum rr2c_mr_state {
	RR2C_MR_FREE,		/* on the free list, not DMA-mapped */
	RR2C_MR_MAPPED,		/* mapped for a Call not yet posted */
	RR2C_MR_REG,		/* REG_MR posted: valid for the peer */
	RR2C_MR_INV,		/* LOCAL_INV posted */
	RR2C_MR_BAD,		/* a WR failed: never reused (quarantine) */
};

struct rr2c_mr {
	struct list_head	node;		/* free list or req->mrs */
	struct list_head	all;		/* rr2c_frwr.all */
	struct rr2c		*r;
	struct rr2c_req		*req;		/* owner while not free */
	struct ib_mr		*mr;
	struct scatterlist	*sg;
	u32			nsg;		/* entries filled */
	int			nents;		/* DMA-mapped; 0: unmapped */
	enum dma_data_direction	dir;
	enum rr2c_mr_state	state;
	bool			failed;		/* its REG or LOCAL_INV */
	struct ib_reg_wr	reg_wr;
	struct ib_send_wr	inv_wr;
	struct ib_cqe		reg_cqe;
	struct ib_cqe		inv_cqe;
	struct rpcrdma2_cid	cid;		/* its REG_MR and LOCAL_INV */
	u32			xid;		/* of its last REG_MR, traces */
};

/* The MRs of one connection (mr.c). */
struct rr2c_frwr {
	spinlock_t		lock;		/* MR states and lists */
	bool			live;		/* WRs may be posted */
	bool			growing;	/* grow work queued or running */
	struct list_head	all;		/* every MR of the connection */
	u32			nr;		/* on all */
	struct list_head	free;
	u32			nfree;
	u32			depth;		/* pages per MR */
	u32			first;		/* MRs one RPC may need */
	u32			cap;		/* most MRs of the connection */
	u32			peak;		/* most in use at once */
	struct work_struct	grow;		/* rr2c_frwr_grow_work() */
};

/* What a Call carries besides its inline payload (marshal.c). */
enum rr2c_format {
	RR2C_FMT_INLINE,	/* one Send */
	RR2C_FMT_CONT,		/* Version 2 continuation */
	RR2C_FMT_CHUNKS,	/* one Send with chunk lists */
};

enum rr2c_call_ck {
	RR2C_CALL_NONE,
	RR2C_CALL_READ,		/* a Read chunk for the argument pages */
	RR2C_CALL_PZRC,		/* the whole Call: Position-Zero Read chunk */
};

enum rr2c_reply_ck {
	RR2C_REPLY_NONE,
	RR2C_REPLY_WRITE,	/* a Write chunk for the result pages */
	RR2C_REPLY_CHUNK,	/* a Reply chunk for the whole Reply */
};

/*
 * A forward-direction slot: the rpc_rqst sunrpc sees and the chunk
 * state of its current transmission.  Slots live as long as the
 * transport (nr_slots of them) and come from rr2c_op_alloc_slot().
 */
struct rr2c_req {
	struct rpc_rqst		rq;
	struct list_head	free;		/* on rr2c.req_free */
	struct list_head	mrs;		/* under rr2c_frwr.lock */

	/* the Call as marshaled */
	enum rr2c_call_ck	call_ck;
	enum rr2c_reply_ck	reply_ck;
	u32			nr_rsegs;	/* Read chunk */
	u32			rpos;
	u32			rlen;
	u32			nr_wsegs;	/* Write chunk */
	u32			wlen;
	u32			nr_rpsegs;	/* Reply chunk */
	u32			rplen;
	struct rpcrdma2_segment	rsegs[RR2C_MAX_SEGS];
	struct rpcrdma2_segment	wsegs[RR2C_MAX_SEGS];
	struct rpcrdma2_segment	rpsegs[RR2C_MAX_SEGS];

	/*
	 * A Reply held back until its MRs are invalidated and unmapped
	 * (V2-SEC-08), and placed only then (place.c): with rp_place, its
	 * inline stream is the rp_pre octets already in place, rp_staged
	 * octets in rr2c.rx_stage and the rp_plen octets at rp_off of the
	 * held Receive rp_rv, around rp_wlen octets of Write chunk data.
	 */
	struct rpcrdma2_recv	*rp_rv;
	/* the Reply came; completing (set under rr2c_frwr.lock) */
	bool			rp_pending;
	bool			rp_place;
	u32			rp_off;
	u32			rp_plen;
	u32			rp_pre;
	u32			rp_staged;
	u32			rp_wlen;
	int			rp_status;
	/*
	 * The error a Reply failed the RPC with, for ->send_request to
	 * return if the task comes back to transmit: a task that was
	 * still finishing its transmission when the Reply came overwrites
	 * tk_status, finds no reply octets and sends again.
	 */
	int			rp_error;
	u32			rp_len;
	bool			inv_sync;	/* a task waits on inv_done */
	/* ... and the held Reply on the same completion (frwr.c) */
	bool			rp_wait_sync;
	struct completion	inv_done;
};

static inline struct rr2c_req *rr2c_req(struct rpc_rqst *rq)
{
	return container_of(rq, struct rr2c_req, rq);
}

/* Why a transport offers less than rdmavers (debugfs, the log). */
enum rr2c_fallback {
	RR2C_FB_NONE,
	RR2C_FB_LOST,		/* V2-FRAME-19: retried later */
	RR2C_FB_SERVER,		/* ERR_VERS naming 1, not 2: until remount */
	RR2C_FB_NO_VERS,	/* ERR_VERS naming neither: no connects */
};

struct rr2c {
	struct rpc_xprt		xprt;
	struct delayed_work	connect_work;
	/* 2; 1: the server has no v2; 0: it has neither (V2-ERR-15) */
	u32			vers_cap;
	u32			v2_lost;	/* v2 offers that settled nothing */
	unsigned long		v2_retry;	/* no v2 offer before this */
	enum rr2c_fallback	fallback;
	u32			nr_slots;	/* rr2c_req in reqs */
	bool			ever_failed;
	bool			dbg_added;	/* rr2c_debugfs_add() ran */

	/* one connection: valid while the transport is connected */
	struct rdma_cm_id	*id;
	u32			credits;	/* asked for (rr2c_credits_for()) */
	/* endpoint, Send pool, window, reassembly: shared/link.h */
	struct rpcrdma2_link	link;
	struct completion	cm_done;
	int			cm_status;
	struct rpcrdma2_cm_pdata peer_pdata;
	u32			nego_grant;

	/*
	 * Send side, under tx_lock.  A message being cut is identified
	 * by its rpc_rqst, XID and connection, never by the rpc_rqst
	 * alone: the slot allocator reuses rpc_rqsts.
	 */
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
	u32			rx_xid;
	u32			rx_off;
	u32			rx_pre;		/* ... copied in place */
	u32			rx_staged;	/* ... held in rx_stage */
	bool			rx_active;	/* a message is being received */
	bool			rx_bc;		/* ... and it is a reverse Call */
	struct rpc_rqst		*rx_bc_req;	/* its slot, or NULL: dropped */
	u8			*rx_stage;	/* RR2C_STAGE_SIZE octets */
	bool			stage_held;	/* by a Reply not yet placed */
	/* serializes the making of Receives as grants grow */
	struct mutex		recv_lock;

	/* MRs of the current connection */
	struct rr2c_frwr	frwr;
	/*
	 * Chunks of the current connection (rr2c_marshal_limits()): the
	 * most octets per segment and segments per chunk the device and
	 * the peer allow; 0 segments: no chunks.
	 */
	u32			seg_size;
	u32			chunk_segs;

	/* forward slots */
	spinlock_t		req_lock;
	struct list_head	req_free;
	struct rr2c_req		*reqs;

	struct rr2c_stats	stats;
};

static inline struct rr2c *rr2c(struct rpc_xprt *xprt)
{
	return container_of(xprt, struct rr2c, xprt);
}

/* connect.c */
#if IS_ENABLED(CONFIG_KUNIT)
u32 rr2c_offer_vers(const struct rr2c *r, u32 max_vers);
void rr2c_nego_outcome(struct rr2c *r, int ret);
bool rr2c_queues_fit(u32 c, const struct rpcrdma2_dev_attr *dev,
		     u32 nr_send);
#endif
void rr2c_ep_removing(struct rpcrdma2_ep *ep);
void rr2c_ep_queues(struct rpcrdma2_ep_attr *attr, u32 credits);
u32 rr2c_credits_fit(u32 want, const struct rpcrdma2_dev_attr *dev,
		     u32 nr_send);
void rr2c_connect_worker(struct work_struct *work);
void rr2c_op_connect(struct rpc_xprt *xprt, struct rpc_task *task);
void rr2c_op_close(struct rpc_xprt *xprt);
void rr2c_op_destroy(struct rpc_xprt *xprt);

/* send.c */
#if IS_ENABLED(CONFIG_KUNIT)
int rr2c_fail_rqst(struct rr2c *r, struct rpc_rqst *rq, int err);
#endif
void rr2c_set_grant(struct rr2c *r, u32 xid, u32 grant);
u32 rr2c_credit(const struct rr2c *r, u32 vers);
void rr2c_tx_abandon(struct rr2c *r);
int rr2c_wait_room(struct rr2c *r);
int rr2c_op_send_request(struct rpc_rqst *req);
void rr2c_op_abort_send_request(struct rpc_rqst *req);

/* reply.c */
extern const struct rpcrdma2_ep_ops rr2c_ep_ops;
extern const struct rpcrdma2_link_ops rr2c_link_ops;
extern const struct rpcrdma2_limits rr2c_limits;
void rr2c_rx_reset(struct rr2c *r);
void rr2c_rx_drop(struct rr2c *r);
void rr2c_repost(struct rr2c *r, struct rpcrdma2_recv *rv);

/* place.c */
void rr2c_reply_finish(struct rr2c *r, struct rr2c_req *req);
struct rpc_rqst *rr2c_reply_pin(struct rr2c *r, u32 xid);
bool rr2c_reply_remote_inv(struct rr2c *r, struct rpc_rqst *rq,
			   const struct rpcrdma2_recv *rv);
bool rr2c_reply_done(struct rr2c *r, struct rpc_rqst *rq, int status,
		     u32 len);
bool rr2c_reply_last(struct rr2c *r, struct rpc_rqst *rq,
		     struct rpcrdma2_recv *rv, const u8 *payload,
		     u32 plen, u32 wlen);
int rr2c_reply_part(struct rr2c *r, struct rpcrdma2_recv *rv,
		    const u8 *payload, u32 plen, bool last);

/* exchange.c */
void rr2c_xch_start(struct rr2c *r);
void rr2c_xch_recv(struct rr2c *r, const struct rpcrdma2_hdr *hdr);
bool rr2c_xch_refused(struct rr2c *r, const struct rpcrdma2_hdr *hdr);

/* marshal.c */
enum rr2c_format rr2c_marshal_policy(struct rr2c *r, struct rr2c_req *req);
int rr2c_marshal_prepare(struct rr2c *r, struct rr2c_req *req);
int rr2c_marshal_post(struct rr2c *r, struct rr2c_req *req);
u32 rr2c_marshal_limits(struct rr2c *r);

/* mr.c */
void rr2c_frwr_init(struct rr2c *r);
int rr2c_frwr_create(struct rr2c *r);
u32 rr2c_frwr_nr_wrs(u32 credits);
bool rr2c_frwr_room(struct rr2c *r);
void rr2c_frwr_quiesce(struct rr2c *r);
void rr2c_frwr_destroy(struct rr2c *r);
struct ib_device *rr2c_frwr_dev(struct rr2c *r);
void rr2c_frwr_release_locked(struct rr2c *r, struct rr2c_mr *mr);
void rr2c_frwr_quarantine_locked(struct rr2c *r, struct rr2c_mr *mr);
void rr2c_frwr_wr_failed(struct rr2c_mr *mr, const struct ib_wc *wc,
			 const char *what);
struct rr2c_mr *rr2c_frwr_get(struct rr2c *r, struct rr2c_req *req);

/* frwr.c */
int rr2c_frwr_map(struct rr2c *r, struct rr2c_req *req, struct xdr_buf *xb,
		  u32 off, u32 len, bool writing,
		  struct rpcrdma2_segment *segs, u32 *nsegs);
struct ib_send_wr *rr2c_frwr_reg_chain(struct rr2c *r, struct rr2c_req *req,
				       struct ib_send_wr *last);
void rr2c_frwr_unmap_unposted(struct rr2c *r, struct rr2c_req *req);
int rr2c_frwr_remote_inv(struct rr2c *r, struct rr2c_req *req, u32 rkey);
int rr2c_frwr_reply_inv(struct rr2c *r, struct rr2c_req *req);
bool rr2c_frwr_reply_held(struct rr2c *r, struct rr2c_req *req);
void rr2c_frwr_unmap_sync(struct rr2c *r, struct rr2c_req *req);
bool rr2c_frwr_owns(struct rr2c *r, struct rr2c_req *req, u32 handle);
bool rr2c_frwr_maps(struct rr2c *r, struct rr2c_req *req,
		    const struct xdr_buf *xb, u32 off, u32 len);

/* stats.c */
void rr2c_op_print_stats(struct rpc_xprt *xprt, struct seq_file *seq);
void rr2c_debugfs_add(struct rr2c *r);

/* sysctl.c */
u32 rr2c_knob_slots(void);
u32 rr2c_knob_recv_size(void);
u32 rr2c_knob_send_size(void);
#if IS_ENABLED(CONFIG_KUNIT)
/* the knobs, which KUnit sets back (tests/hooks.c) */
extern int rr2c_slot_table_entries;
extern int rr2c_max_inline_read;
extern int rr2c_max_inline_write;
#endif

/* backchannel.c */
int rr2c_bc_setup(struct rpc_xprt *xprt, unsigned int min_reqs);
size_t rr2c_bc_maxpayload(struct rpc_xprt *xprt);
unsigned int rr2c_bc_num_slots(struct rpc_xprt *xprt);
void rr2c_bc_free_rqst(struct rpc_rqst *req);
void rr2c_bc_destroy(struct rpc_xprt *xprt, unsigned int max_reqs);
struct rpc_rqst *rr2c_bc_take(struct rr2c *r, u32 xid);
void rr2c_bc_deliver(struct rr2c *r, struct rpc_rqst *req, u32 len);

#endif /* RPCRDMA2_CLIENT_H */
