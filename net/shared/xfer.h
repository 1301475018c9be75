/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Message transfer over one settled connection, shared by the client
 * and server halves: credit words, the Send buffer pool, the sequence
 * window for continued messages and the fragment builder.  See xfer.c.
 */
#ifndef RPCRDMA2_XFER_H
#define RPCRDMA2_XFER_H

#include <linux/spinlock.h>
#include <linux/sunrpc/xdr.h>

#include "shared/ep.h"
#include "shared/fault.h"
#include "shared/nego.h"

/*
 * Receives each end keeps beyond its credits: one for a credit-grant-only
 * message (V2-CRED-07), RPCRDMA2_SEQ_WINDOW for the continuation
 * fragments of one sequence, and one more for a window acknowledgment
 * that crosses a grant.
 */
#define RPCRDMA2_SEQ_WINDOW	16
#define RPCRDMA2_RECV_EXTRA	(RPCRDMA2_SEQ_WINDOW + 2)

/* Send buffers kept for credit grants and window acknowledgments. */
#define RPCRDMA2_CTRL_SENDS	4

/*
 * One data Send in this many is signaled (struct rpcrdma2_ep_attr's
 * send_batch): a quarter of the 2 * RPCRDMA2_SEQ_WINDOW data buffers at
 * most wait for a later completion, so a sender that needs one more
 * always finds it, or a signaled Send in flight that brings it back.
 */
#define RPCRDMA2_SEND_BATCH	(RPCRDMA2_SEQ_WINDOW / 2)

/* Largest RPC message carried without chunks on a Version 2 connection. */
#define RPCRDMA2_MAX_CONT_MSG	(1024 * 1024 + 8192)

u32 rpcrdma2_credit_out(u32 vers, u32 grant);
u32 rpcrdma2_credit_in(u32 vers, u32 word);

/*
 * Control messages (errors, exchange messages) held back while one of
 * our sequences is open, and the most octets one may have.
 */
#define RPCRDMA2_CTRL_HELD	4
#define RPCRDMA2_CTRL_HELD_SIZE	128

struct rpcrdma2_ctrl_held {
	u32	len;
	u8	buf[RPCRDMA2_CTRL_HELD_SIZE];
};

/*
 * Send buffers: the first RPCRDMA2_CTRL_SENDS of an endpoint are for
 * control messages, the rest carry RPC messages.  Each buffer is owned
 * by the pool until taken and comes back from its Send completion.
 *
 * The gate keeps control messages out of our own sequences (V2-CONT-03):
 * between rpcrdma2_pool_seq_begin() and rpcrdma2_pool_seq_end()
 * a control message is held and goes out after the sequence's final
 * Send.  Window acknowledgments are the one exception (see xfer.c).  A
 * control message that finds every control buffer taken is held too,
 * until one comes back (rpcrdma2_pool_put()).  A sequence that fails
 * part way drops what is held, and no control message goes out after
 * it (@broken).
 */
struct rpcrdma2_pool {
	spinlock_t		lock;		/* protects the free lists */
	struct rpcrdma2_ep	*ep;
	u32			*free;		/* indices into ep->sends */
	u32			nfree;
	u32			nctrl_free;
	u32			*ctrl;

	/* a control post fails here too (fault.c), RPCRDMA2_FAIL_NR: no */
	enum rpcrdma2_fail_site	fail_post;

	spinlock_t		gate;		/* in_seq, held; gated posts */
	bool			in_seq;		/* one of our sequences is open */
	bool			broken;		/* one failed part way */
	u32			nheld;
	struct rpcrdma2_ctrl_held held[RPCRDMA2_CTRL_HELD];
};

int rpcrdma2_pool_init(struct rpcrdma2_pool *p, struct rpcrdma2_ep *ep);
void rpcrdma2_pool_destroy(struct rpcrdma2_pool *p);
struct rpcrdma2_send *rpcrdma2_pool_get(struct rpcrdma2_pool *p, bool ctrl);
int rpcrdma2_pool_put(struct rpcrdma2_pool *p, struct rpcrdma2_send *sd);
bool rpcrdma2_pool_avail(struct rpcrdma2_pool *p);
int rpcrdma2_pool_send_ctrl(struct rpcrdma2_pool *p, const void *msg, u32 len);
int rpcrdma2_pool_send_ctrl_ctx(struct rpcrdma2_pool *p, const void *msg,
				u32 len, void *ctx);
int rpcrdma2_pool_send_ack(struct rpcrdma2_pool *p, const void *msg, u32 len);
void rpcrdma2_pool_seq_begin(struct rpcrdma2_pool *p);
int rpcrdma2_pool_seq_end(struct rpcrdma2_pool *p);
u32 rpcrdma2_pool_seq_abort(struct rpcrdma2_pool *p);

/*
 * The sequence window (our reading of V2-CRED-04, V2-CRED-10 under V2-CRED-02): the
 * first message of a sequence rides an RPC credit; messages 2..n use
 * the receiver's RPCRDMA2_SEQ_WINDOW extra Receives.  The receiver
 * acknowledges each RPCRDMA2_SEQ_WINDOW of them it has consumed with a
 * credit grant (RDMA2_NOMSG, xid 0) while the sequence is still open,
 * and the sender counts the grants it is owed so that an unsolicited
 * grant is never mistaken for an acknowledgment.
 */
struct rpcrdma2_seq {
	u32	acks_owed;	/* acknowledgments still to arrive */
	u32	acks_seen;	/* of the current sequence */
	u32	base_owed;	/* owed for earlier sequences at start */
};

void rpcrdma2_seq_start(struct rpcrdma2_seq *s, u32 nmsgs);
bool rpcrdma2_seq_may_send(const struct rpcrdma2_seq *s, u32 msgno);
bool rpcrdma2_seq_grant(struct rpcrdma2_seq *s);
bool rpcrdma2_seq_ack_due(u32 nmsgs_seen, bool more);

/*
 * Octets of an RPC message that travel by RDMA, not in its Sends: a
 * data item reduced into a Write chunk, with its XDR roundup padding
 * (V2-CHUNK-10).
 */
struct rpcrdma2_hole {
	u32	off;		/* in the unreduced message */
	u32	len;		/* padded to a multiple of 4 */
};

/* One RPC message being cut into Sends. */
struct rpcrdma2_tx {
	u32		vers;
	u32		xid;
	u32		credit;		/* credit word to advertise */
	u32		flags;		/* RDMA2_F_RESPONSE or 0 */
	u32		inline_size;	/* octets per Send, header included */
	/*
	 * The message may not be continued: a reverse-direction message
	 * to a peer whose BRS is below CONT (V2-RDIR-12, V2-RDIR-14).
	 */
	bool		single;
	struct xdr_buf	*payload;
	u32		off;		/* reduced payload octets already cut */
	u32		msgno;		/* messages already cut */

	/*
	 * Optional, zero for a message without chunks.  The final message
	 * carries the chunk lists (V2-CONT-08); @nomsg sends the header
	 * alone (Special Format, V2-SPEC-01); @holes, sorted and disjoint,
	 * are left out of the Sends.
	 */
	bool		nomsg;
	u32		inv_handle;
	u32		nr_reads;
	const struct rpcrdma2_chunk_out *reads;
	u32		nr_writes;
	const struct rpcrdma2_chunk_out *writes;
	const struct rpcrdma2_chunk_out *reply;
	u32		nholes;
	const struct rpcrdma2_hole *holes;
};

u32 rpcrdma2_tx_len(const struct rpcrdma2_tx *tx);
u32 rpcrdma2_holes_map(const struct rpcrdma2_hole *holes, u32 nholes,
		       u32 len, u32 off, u32 *run);

u32 rpcrdma2_tx_nmsgs(const struct rpcrdma2_tx *tx);
int rpcrdma2_tx_next(struct rpcrdma2_tx *tx, void *buf, u32 *len);

u32 rpcrdma2_copy_to_xdr(struct xdr_buf *xb, u32 off, const void *data,
			 u32 len);
bool rpcrdma2_rpc_is_call(const void *payload, u32 len);
bool rpcrdma2_rpc_msg_is_call(const struct rpcrdma2_hdr *hdr,
			      const void *payload, u32 plen, bool *ok);

void rpcrdma2_local_segments(struct rpcrdma2_local *l, struct ib_device *dev,
			     const struct rpcrdma2_limits *lim);

struct rpc_xprt;
void rpcrdma2_xprt_addresses(struct rpc_xprt *xprt);
void rpcrdma2_xprt_set_port(struct rpc_xprt *xprt, unsigned short port);
void rpcrdma2_xprt_free_addresses(struct rpc_xprt *xprt);

#endif /* RPCRDMA2_XFER_H */
