/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rpcrdma2 server half: the connection object and the per-Call state
 * shared by its files:
 *
 *   transport.c    the svc_xprt class, listeners, accept, CM events,
 *                  teardown
 *   control.c      control messages: credit grants, errors
 *   park.c         closed connections' cm_ids parked while the port is down
 *   recvfrom.c     the receive side: Receive completions, reassembly,
 *                  ->xpo_recvfrom, pulling Read chunks
 *   exchange.c     the server's side of the seed 004 exchange (shared/xch.c)
 *   sendto.c       ->xpo_sendto: Write chunks, Reply chunk, inline or
 *                  continued Replies, Send With Invalidate
 *   rw.c           RDMA Read and Write through the kernel's rdma_rw API
 *   backchannel.c  reverse-direction RPC (NFSv4.1+ callbacks)
 *   stats.c        the sysctl knobs and the counters
 *   debugfs.c      the per-connection view in debugfs
 */
#ifndef RPCRDMA2_SERVER_H
#define RPCRDMA2_SERVER_H

#include <linux/percpu.h>
#include <linux/sunrpc/svc_xprt.h>
#include <rdma/rw.h>

#include "shared/cont.h"
#include "shared/link.h"
#include "shared/xfer.h"

/*
 * Credits: a connection starts with at most RR2S_CREDITS_INIT and is
 * raised to its max_requests (stats.c; default RR2S_CREDITS, range
 * RR2S_CREDITS_MIN to RR2S_CREDITS_MAX as the stock module's, further
 * capped by the device's queue sizes).
 */
#define RR2S_CREDITS_INIT	32
#define RR2S_CREDITS		64
#define RR2S_CREDITS_MIN	4
#define RR2S_CREDITS_MAX	16384

/* max_req_size: octets per posted Receive, as the stock module allows */
#define RR2S_RECV_SIZE_MIN	4096
#define RR2S_RECV_SIZE_MAX	65536

/* max_outbound_read_requests: RDMA Reads in flight (ORD) */
#define RR2S_ORD_DEFAULT	16
#define RR2S_ORD_MIN		1
#define RR2S_ORD_MAX		255

#define RR2S_BACKLOG		64
/* a listener that lost its device tries again this often */
#define RR2S_RELISTEN_DELAY	(2 * HZ)
#define RR2S_SEND_TIMEOUT	(30 * HZ)

/*
 * Reverse Replies the server keeps Receives for (the client's slots),
 * and so the most reverse Calls it ever has outstanding; fewer when the
 * client grants fewer backward credits (BC1-CRED-04, backchannel.c).
 */
#define RR2S_BC_SLOTS		4
/* Calls a connection may have here per credit granted (recvfrom.c) */
#define RR2S_GRANT_SLACK	2

/*
 * What the server takes from a Requester (V2-ERR-32, V2-ERR-35,
 * V2-ERR-38): these are also what its errors and RCSIZ say.
 */
#define RR2S_MAX_READ_CHUNKS	4
#define RR2S_MAX_WRITE_CHUNKS	8
#define RR2S_MAX_SEGS		32

/*
 * rdma_rw contexts one batch of RDMA Reads or Writes may use, and the
 * Send Queue room reserved for their work requests beyond one each.
 */
#define RR2S_RW_CTXS		64
#define RR2S_RW_EXTRA_WRS	256

/* A Write chunk or the Reply chunk: segments in @segs of rr2s_chunks. */
struct rr2s_wchunk {
	u32			first;		/* index of its first segment */
	u32			nsegs;
	u64			capacity;	/* sum of the segment lengths */
};

/*
 * The chunks of one received Call, copied out of its Receive so the
 * Receive can be reposted.  Read segments are sorted by Position
 * (the order within one Position kept, V2-CHUNK-14).
 */
struct rr2s_chunks {
	bool			nomsg;		/* Special Format Call */
	u32			xid;
	u32			inv_handle;	/* rdma_inv_handle, Version 2 */
	u32			nreads;		/* Read segments */
	struct rpcrdma2_segment	*read_segs;
	u32			*read_pos;
	u32			nwrites;
	struct rr2s_wchunk	writes[RR2S_MAX_WRITE_CHUNKS];
	bool			has_reply;
	struct rr2s_wchunk	reply;
	u32			nsegs;		/* Write and Reply segments */
	struct rpcrdma2_segment	segs[];
};

/*
 * One Call between ->xpo_recvfrom and ->xpo_sendto (rq_xprt_ctxt):
 * its chunks and the result payloads nfsd handed to its Write chunks.
 */
struct rr2s_rctx {
	struct rr2s_conn	*c;
	struct rr2s_chunks	*ch;		/* NULL: no chunks */
	u32			nres;
	struct rpcrdma2_hole	res[RR2S_MAX_WRITE_CHUNKS];
	u32			res_len[RR2S_MAX_WRITE_CHUNKS];
	u32			short_chunk;	/* 1-based; 0: all fit */
	u32			short_len;
};

/* RR2S_PARKED: the context of a closed connection's parked cm_id */
enum rr2s_kind { RR2S_LISTENER, RR2S_CONN, RR2S_PARKED };

/* The head of both objects, so the CM handler can tell them apart. */
struct rr2s_base {
	struct svc_xprt		xprt;
	enum rr2s_kind		kind;
	struct rdma_cm_id	*id;
};

/*
 * A listener's b.id is NULL while it has no device: rdma_cm took its id
 * away (DEVICE_REMOVAL, ADDR_CHANGE) and ->relisten tries again, when a
 * device arrives and every RR2S_RELISTEN_DELAY.
 */
struct rr2s_listener {
	struct rr2s_base	b;
	spinlock_t		lock;		/* pending, b.id, dying */
	struct list_head	pending;	/* rr2s_conn to accept */
	bool			dying;		/* ->xpo_free has begun */
	struct sockaddr_storage	addr;		/* what nfsd asked for */
	struct delayed_work	relisten;
	struct list_head	entry;		/* on rr2s_listeners */
};

/* One received Call, queued for an nfsd thread. */
struct rr2s_msg {
	struct list_head	list;
	struct rpcrdma2_recv	*rv;	/* not continued: held Receive */
	u32			off;	/* payload offset in rv->buf */
	u32			len;	/* payload octets */
	struct page		**pages; /* continued: the reassembled payload */
	u32			npages;
	struct rr2s_chunks	*ch;	/* NULL: no chunks */
};

struct rr2s_conn {
	struct rr2s_base	b;
	struct list_head	accept_entry;
	struct rpcrdma2_cm_pdata peer_pdata;
	bool			ep_up;
	bool			park;		/* closed with its port down */
	/* endpoint, Send pool, window, reassembly: shared/link.h */
	struct rpcrdma2_link	link;
	/*
	 * Our CONNPROP has gone out (CQ work item only): until then the
	 * client knows only the default properties (V2-PROP-08).
	 */
	bool			props_sent;

	/* queued Calls (CQ work item -> nfsd), under rq_lock */
	spinlock_t		rq_lock;
	struct list_head	ready;
	struct rr2s_msg		*slots;		/* one per Receive */

	/* reassembly (with link.reasm): the CQ work item only */
	struct rr2s_msg		*asm_msg;
	u32			asm_max;
	bool			asm_call;	/* a Call, not a reverse Reply */

	/* sending: link.tx_lock for the window, xpt_mutex for whole Replies */
	wait_queue_head_t	send_wait;
	u32			grant;
	atomic_t		outstanding;	/* Calls without a Reply */
	struct work_struct	grant_work;

	u64			bc_calls;	/* reverse Calls sent */
	u32			max_grant;	/* max_requests, at accept */

	/* RDMA Read and Write batches (rw.c): posted one at a time */
	struct mutex		rw_mutex;
	struct list_head	rw_orphans;	/* posted in part, see rw.c */
	struct list_head	wl_orphans;	/* Writes of a Reply never sent */
	atomic_t		rw_inflight;	/* their WRs on the Send Queue */
	u32			ord;		/* RDMA Reads in flight (IRD) */
	bool			snd_w_inv;	/* Send With Invalidate allowed */
	u32			xch_knob;	/* max_req_size last seen (xch) */

	/* counters (read without locks, for the trace and tests) */
	u64			read_chunks;	/* Read chunks pulled */
	u64			write_chunks;	/* Write chunks filled */
	u64			reply_chunks;	/* Replies in a Reply chunk */
	u64			rdma_octets;	/* moved by RDMA Read and Write */
	u64			inv_sends;	/* Send With Invalidate */

	struct dentry		*dbg;		/* debugfs.c */
	u32			dbg_netns;	/* ... its netns, kept at add */
};

static inline struct rr2s_conn *rr2s_conn(struct svc_xprt *xprt)
{
	return container_of(xprt, struct rr2s_conn, b.xprt);
}

extern const struct rpcrdma2_limits rr2s_limits;
extern const struct rpcrdma2_link_ops rr2s_link_ops;

/* transport.c */
extern struct workqueue_struct *rr2s_wq;
u32 rr2s_credit(const struct rr2s_conn *c);
void rr2s_close(struct rr2s_conn *c);

/* control.c */
void rr2s_send_grant(struct rr2s_conn *c);
void rr2s_send_error(struct rr2s_conn *c, const struct rpcrdma2_hdr *h,
		     int verdict, u32 arg);
void rr2s_send_error_args(struct rr2s_conn *c, const struct rpcrdma2_hdr *h,
			  int verdict, u32 arg0, u32 arg1);
bool rr2s_send_error_ctx(struct rr2s_conn *c, const struct rpcrdma2_hdr *h,
			 int verdict, u32 arg0, u32 arg1, void *ctx);
void rr2s_queue_grant(struct rr2s_conn *c);
void rr2s_grant_worker(struct work_struct *work);

/* recvfrom.c */
int rr2s_recvfrom(struct svc_rqst *rqstp);
void rr2s_release_ctxt(struct svc_xprt *xprt, void *ctxt);
void rr2s_msg_free(struct rr2s_msg *m);
void rr2s_asm_drop(struct rr2s_conn *c);

/* exchange.c */
void rr2s_xch_start(struct rr2s_conn *c);
void rr2s_xch_knob(struct rr2s_conn *c);
void rr2s_xch_recv(struct rr2s_conn *c, const struct rpcrdma2_hdr *h);
void rr2s_xch_error(struct rr2s_conn *c, const struct rpcrdma2_hdr *h);

/* sendto.c */
void rr2s_send_done(struct rpcrdma2_send *sd);
int rr2s_send_msg(struct rr2s_conn *c, struct rpcrdma2_tx *tx);
int rr2s_sendto(struct svc_rqst *rqstp);
int rr2s_result_payload(struct svc_rqst *rqstp, unsigned int offset,
			unsigned int length);

/* rw.c */

/*
 * The RDMA Writes of one Reply (Write chunks, Reply chunk).  They go on
 * the Send Queue unsignaled, ahead of the Reply's Send(s), and are done
 * when its final Send is (the queue completes in order): that Send's
 * completion releases them, with the Reply's pages, which the Writes
 * read and which rr2s_wlist_seal() took from nfsd.
 */
struct rr2s_wlist {
	struct list_head	batches;
	u32			nwrs;		/* their work requests */
	struct svc_rqst		*rqstp;		/* until sealed */
	struct list_head	orphan;		/* c->wl_orphans */
	u32			npages;
	struct page		*pages[RPCSVC_MAXPAGES]; /* once sealed */
};

struct rr2s_rw_dir {
	enum dma_data_direction	dir;	/* FROM_DEVICE: RDMA Read */
	/* the local side: an xdr_buf less its holes, or rq_pages */
	const struct xdr_buf	*xb;
	const struct rpcrdma2_hole *holes;
	u32			nholes;
	struct page		**pages;
	struct svc_rqst		*rqstp;	/* whose pages are a Read sink */
	struct rr2s_wlist	*wl;	/* Writes: left to the final Send */
	u32			xid;	/* of the Call, for the trace events */
};

int rr2s_rw_segs(struct rr2s_conn *c, const struct rr2s_rw_dir *d,
		 u32 local_off, const struct rpcrdma2_segment *segs,
		 u32 nsegs, u32 len);
void rr2s_rw_drained(struct rr2s_conn *c);
struct rr2s_wlist *rr2s_wlist_new(struct svc_rqst *rqstp);
void rr2s_wlist_seal(struct rr2s_wlist *wl);
void rr2s_wlist_done(struct rr2s_conn *c, struct rr2s_wlist *wl);
void rr2s_wlist_drop(struct rr2s_conn *c, struct rr2s_wlist *wl);

/* stats.c: counters, global and per CPU (see there) */
enum rr2s_stat {
	RR2S_STAT_NONE,			/* none: rr2s_stat_error()'s map */
	RR2S_STAT_READ,			/* rdma_stat_read */
	RR2S_STAT_RECV,			/* rdma_stat_recv */
	RR2S_STAT_WRITE,		/* rdma_stat_write */
	RR2S_STAT_SQ_STARVE,		/* rdma_stat_sq_starve */
	RR2S_STAT_CONNS_ACCEPTED,	/* rdma_accept() sent */
	RR2S_STAT_CONNS_V1,
	RR2S_STAT_CONNS_V2,
	RR2S_STAT_HOSTAUTH,		/* Version 2 connections whose client sent one */
	RR2S_STAT_CONT_RECV,
	RR2S_STAT_CONT_SENT,
	RR2S_STAT_GRANTS,
	RR2S_STAT_READ_CHUNKS,
	RR2S_STAT_NOMSG_CALLS,		/* Special Format Calls pulled */
	RR2S_STAT_WRITE_CHUNKS,
	RR2S_STAT_REPLY_CHUNKS,
	RR2S_STAT_READ_BYTES,
	RR2S_STAT_WRITE_BYTES,
	RR2S_STAT_SEND_INV,
	RR2S_STAT_ERR_VERS,
	RR2S_STAT_ERR_BAD_XDR,
	RR2S_STAT_ERR_BAD_PROPVAL,
	RR2S_STAT_ERR_INVAL_HTYPE,
	RR2S_STAT_ERR_INVAL_CONT,
	RR2S_STAT_ERR_READ_CHUNKS,
	RR2S_STAT_ERR_WRITE_CHUNKS,
	RR2S_STAT_ERR_SEGMENTS,
	RR2S_STAT_ERR_WRITE_RESOURCE,
	RR2S_STAT_ERR_REPLY_RESOURCE,
	RR2S_STAT_ERR_SYSTEM,
	RR2S_STAT_OVER_GRANT,		/* connections closed: Calls beyond the grant */
	RR2S_NR_STATS
};

struct rr2s_stats {
	unsigned long	v[RR2S_NR_STATS];
};

DECLARE_PER_CPU(struct rr2s_stats, rr2s_stats);

static inline void rr2s_stat_add(enum rr2s_stat stat, unsigned long n)
{
	this_cpu_add(rr2s_stats.v[stat], n);
}

static inline void rr2s_stat_inc(enum rr2s_stat stat)
{
	this_cpu_inc(rr2s_stats.v[stat]);
}

void rr2s_stat_error(u32 verdict);
u32 rr2s_knob_max_requests(void);
u32 rr2s_knob_recv_size(void);
u32 rr2s_knob_ord(void);
#if IS_ENABLED(CONFIG_KUNIT)
/* the knobs, which KUnit sets back (tests/hooks.c) */
extern int rr2s_max_requests;
extern int rr2s_max_req_size;
extern int rr2s_max_ord;
#endif

/* park.c */
bool rr2s_port_active(const struct rdma_cm_id *id);
void rr2s_park(struct rr2s_conn *c);
int rr2s_parked_event(struct rdma_cm_id *id, struct rdma_cm_event *ev);
void rr2s_parked_flush(void);
u32 rr2s_parked_count(void);

/* debugfs.c */
void rr2s_debugfs_add(struct rr2s_conn *c);
void rr2s_debugfs_del(struct rr2s_conn *c);

/* backchannel.c */
int rr2s_bc_register(void);
void rr2s_bc_unregister(void);
const char *rr2s_bc_level(const struct rr2s_conn *c);
void rr2s_bc_reply(struct rr2s_conn *c, u32 grant, const void *data, u32 len,
		   struct page **pages);

#endif /* RPCRDMA2_SERVER_H */
