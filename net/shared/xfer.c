// SPDX-License-Identifier: GPL-2.0-only
/*
 * Message transfer over one settled connection.
 *
 * Both halves send RPC messages the same way: take Send buffers from a
 * pool, cut the message into one Send (inline, V2-INLINE-08) or, on a
 * Version 2 connection, a continued sequence (V2-CONT-01, V2-CONT-02,
 * V2-CONT-03), and
 * respect the peer's credits.  What differs is only where the message
 * comes from (an rpc_rqst's send buffer or an svc_rqst's reply) and how
 * the sender waits, so that is left to the callers.
 *
 * Credits (V2-CRED-02): a credit word carries the sender's current absolute
 * grant; Version 2 puts it in the low half and the most it may ever
 * grant in the high half (V2-CRED-02).  A zero grant is a protocol
 * error that leaves the previous grant in force (V2-CRED-03).  This is
 * the one place that knows the encoding.
 *
 * Called by: net/client, net/server.
 */

#include <linux/slab.h>
#include <linux/sunrpc/addr.h>
#include <linux/sunrpc/msg_prot.h>
#include <linux/sunrpc/xprt.h>
#include <linux/unaligned.h>

#include "shared/cont.h"
#include "shared/xfer.h"

/**
 * rpcrdma2_credit_out - the credit word for a message we send
 * @vers: the connection's version
 * @grant: credits we grant the peer (never 0)
 */
u32 rpcrdma2_credit_out(u32 vers, u32 grant)
{
	/* never 0, in either direction (BC1-CRED-06) */
	grant = clamp_t(u32, grant, 1, RDMA2_CREDIT_GRANT_MASK);
	if (vers == RPCRDMA2_VERS_1)
		return grant;
	return rpcrdma2_credit_word(grant, grant);
}

/**
 * rpcrdma2_credit_in - the peer's grant from a received credit word
 * @vers: the connection's version
 * @word: the rdma_credit field
 *
 * Returns the grant, or 0 when the word grants nothing (V2-CRED-03):
 * the caller keeps the grant it had.
 */
u32 rpcrdma2_credit_in(u32 vers, u32 word)
{
	if (vers == RPCRDMA2_VERS_1)
		return min_t(u32, word, RDMA2_CREDIT_GRANT_MASK);
	return word & RDMA2_CREDIT_GRANT_MASK;
}

int rpcrdma2_pool_init(struct rpcrdma2_pool *p, struct rpcrdma2_ep *ep)
{
	u32 i, n = ep->attr.nr_send;

	if (n <= RPCRDMA2_CTRL_SENDS)
		return -EINVAL;
	spin_lock_init(&p->lock);
	spin_lock_init(&p->gate);
	p->fail_post = RPCRDMA2_FAIL_NR;
	p->in_seq = false;
	p->broken = false;
	p->nheld = 0;
	p->ep = ep;
	p->free = kcalloc(n, sizeof(*p->free), GFP_KERNEL);
	if (!p->free)
		return -ENOMEM;
	p->ctrl = p->free + (n - RPCRDMA2_CTRL_SENDS);
	p->nctrl_free = RPCRDMA2_CTRL_SENDS;
	p->nfree = n - RPCRDMA2_CTRL_SENDS;
	/* a reserve this small comes back at once (see ep.h) */
	for (i = 0; i < RPCRDMA2_CTRL_SENDS; i++) {
		p->ctrl[i] = i;
		ep->sends[i].must_signal = true;
	}
	for (i = 0; i < p->nfree; i++)
		p->free[i] = RPCRDMA2_CTRL_SENDS + i;
	return 0;
}

void rpcrdma2_pool_destroy(struct rpcrdma2_pool *p)
{
	kfree(p->free);
	p->free = NULL;
	p->ctrl = NULL;
	p->nfree = 0;
	p->nctrl_free = 0;
}

/**
 * rpcrdma2_pool_get - take a Send buffer
 * @p: the pool
 * @ctrl: from the control reserve (credit grants) rather than data
 *
 * Returns NULL when none is free; the caller waits for a completion.
 */
struct rpcrdma2_send *rpcrdma2_pool_get(struct rpcrdma2_pool *p, bool ctrl)
{
	struct rpcrdma2_send *sd = NULL;
	unsigned long flags;

	spin_lock_irqsave(&p->lock, flags);
	if (ctrl && p->nctrl_free)
		sd = &p->ep->sends[p->ctrl[--p->nctrl_free]];
	else if (!ctrl && p->nfree)
		sd = &p->ep->sends[p->free[--p->nfree]];
	spin_unlock_irqrestore(&p->lock, flags);
	return sd;
}

/* Give @sd back; true if it is a control buffer. */
static bool pool_put_buf(struct rpcrdma2_pool *p, struct rpcrdma2_send *sd)
{
	u32 idx = sd - p->ep->sends;
	unsigned long flags;

	spin_lock_irqsave(&p->lock, flags);
	if (idx < RPCRDMA2_CTRL_SENDS)
		p->ctrl[p->nctrl_free++] = idx;
	else
		p->free[p->nfree++] = idx;
	spin_unlock_irqrestore(&p->lock, flags);
	return idx < RPCRDMA2_CTRL_SENDS;
}

/* Post a control message from the reserve, now. */
static int pool_post_ctrl(struct rpcrdma2_pool *p, const void *msg, u32 len,
			  void *ctx)
{
	struct rpcrdma2_send *sd;

	if (!len)
		return -EINVAL;
	sd = rpcrdma2_pool_get(p, true);
	if (!sd)
		return -ENOBUFS;
	memcpy(sd->buf, msg, len);
	sd->ctx = ctx;
	if (rpcrdma2_fail_opt(p->fail_post) ||
	    rpcrdma2_ep_post_send(sd, len, 0)) {
		sd->ctx = NULL;
		pool_put_buf(p, sd);	/* under the gate: no flush */
		return -EIO;
	}
	return 0;
}

/*
 * Hold a control message until it may go and a control buffer is free.
 * Under the gate.
 */
static int pool_hold(struct rpcrdma2_pool *p, const void *msg, u32 len)
{
	struct rpcrdma2_ctrl_held *held;

	if (p->nheld == ARRAY_SIZE(p->held) || len > sizeof(held->buf))
		return -ENOBUFS;	/* V2-SEC-17: a peer piling them up */
	held = &p->held[p->nheld++];
	memcpy(held->buf, msg, len);
	held->len = len;
	return 0;
}

/*
 * Post what is held, oldest first, as far as control buffers go; the
 * rest stays held for the next buffer that comes back
 * (rpcrdma2_pool_put()).  Under the gate.  Returns 0, or a negative
 * errno when a post failed: the connection is broken, what was held is
 * dropped, and the caller closes the connection.
 */
static int pool_flush_held(struct rpcrdma2_pool *p)
{
	u32 i;
	int ret;

	if (p->in_seq || !p->nheld)
		return 0;
	for (i = 0; i < p->nheld; i++) {
		ret = pool_post_ctrl(p, p->held[i].buf, p->held[i].len, NULL);
		if (ret == -ENOBUFS)
			break;
		if (ret) {
			p->nheld = 0;
			WRITE_ONCE(p->broken, true);
			return ret;
		}
	}
	p->nheld -= i;
	memmove(p->held, p->held + i, p->nheld * sizeof(p->held[0]));
	return 0;
}

/**
 * rpcrdma2_pool_send_ctrl - post a control message from the reserve
 * @p: the pool
 * @msg: the encoded message (an error or an exchange message)
 * @len: its length; 0 means it could not be encoded
 *
 * Inside one of our sequences the message is held and goes out right
 * after the sequence's final Send (rpcrdma2_pool_seq_end()).  One that
 * finds every control buffer taken (window acknowledgments take them
 * too, even inside a sequence) is held until one comes back, and never
 * overtakes one held before it.
 *
 * Returns 0, or a negative errno after which the caller closes the
 * connection: a peer that is owed a control message and cannot get it
 * would wait for ever.  After rpcrdma2_pool_seq_abort() nothing is
 * posted any more (-ENOTCONN).
 */
int rpcrdma2_pool_send_ctrl(struct rpcrdma2_pool *p, const void *msg, u32 len)
{
	return rpcrdma2_pool_send_ctrl_ctx(p, msg, len, NULL);
}

/**
 * rpcrdma2_pool_send_ctrl_ctx - as rpcrdma2_pool_send_ctrl(), and the
 *	Send's completion gets @ctx (in its ->ctx)
 * @p: the pool
 * @msg: the encoded message
 * @len: its length; 0 means it could not be encoded
 * @ctx: the owner's; still the caller's when this fails.  Only the
 *	sender of our sequences passes one, between them, so a message
 *	with @ctx is never held: it is posted now or fails with -ENOBUFS.
 */
int rpcrdma2_pool_send_ctrl_ctx(struct rpcrdma2_pool *p, const void *msg,
				u32 len, void *ctx)
{
	int ret;

	if (!len)
		return -EINVAL;
	spin_lock(&p->gate);
	if (p->broken) {
		ret = -ENOTCONN;	/* it would land in a broken message */
		goto out;
	}
	if (!p->in_seq || WARN_ON_ONCE(ctx)) {
		ret = pool_flush_held(p);
		if (ret)
			goto out;
		if (!p->nheld || ctx) {
			ret = pool_post_ctrl(p, msg, len, ctx);
			if (ret != -ENOBUFS || ctx)
				goto out;
		}
	}
	ret = pool_hold(p, msg, len);
out:
	spin_unlock(&p->gate);
	return ret;
}

/**
 * rpcrdma2_pool_send_ack - post a window acknowledgment at once
 * @p: the pool
 * @msg: the encoded credit grant (RDMA2_NOMSG, xid 0)
 * @len: its length; 0 means it could not be encoded
 *
 * The exception to the gate: the peer's sequence waits for it, and the
 * peer may be waiting for that sequence to end before it acknowledges
 * ours, so holding it until our sequence ends could stall both for
 * good.  A credit grant is no RPC message and carries no Payload
 * stream, so no stream is interleaved (V2-CONT-03), and every receiver
 * takes a grant at any time (V2-CRED-05).
 */
int rpcrdma2_pool_send_ack(struct rpcrdma2_pool *p, const void *msg, u32 len)
{
	if (READ_ONCE(p->broken))
		return -ENOTCONN;
	return pool_post_ctrl(p, msg, len, NULL);
}

/**
 * rpcrdma2_pool_seq_begin - one of our sequences opens: hold control
 *	messages from now (V2-CONT-03)
 * @p: the pool; called before the sequence's first Send is posted
 */
void rpcrdma2_pool_seq_begin(struct rpcrdma2_pool *p)
{
	spin_lock(&p->gate);
	p->in_seq = true;
	spin_unlock(&p->gate);
}

/**
 * rpcrdma2_pool_seq_end - the sequence's final Send is posted: post
 *	what was held, in order, before anything else
 * @p: the pool
 *
 * What finds no control buffer (window acknowledgments may hold them
 * all) stays held and goes out, in order, as they come back: never
 * dropped, and no reason to close the connection.
 *
 * Returns 0, or a negative errno after which the caller closes the
 * connection.
 */
int rpcrdma2_pool_seq_end(struct rpcrdma2_pool *p)
{
	int ret;

	spin_lock(&p->gate);
	p->in_seq = false;
	ret = pool_flush_held(p);
	spin_unlock(&p->gate);
	return ret;
}

/**
 * rpcrdma2_pool_seq_abort - the sequence failed part way: drop what was
 *	held, and post no control message from now on
 * @p: the pool; instead of rpcrdma2_pool_seq_end(), and safe without
 *	rpcrdma2_pool_seq_begin()
 *
 * The peer is reassembling a message that will never be finished, so
 * anything sent after the Sends that went out would be read as part of
 * it (V2-CONT-03).  The caller closes the connection, and the peer
 * learns of the failure from that; window acknowledgments stop too.
 *
 * Returns the number of held messages dropped.
 */
u32 rpcrdma2_pool_seq_abort(struct rpcrdma2_pool *p)
{
	u32 dropped;

	spin_lock(&p->gate);
	p->in_seq = false;
	WRITE_ONCE(p->broken, true);
	dropped = p->nheld;
	p->nheld = 0;
	spin_unlock(&p->gate);
	return dropped;
}

/* Is a data Send buffer free right now? */
bool rpcrdma2_pool_avail(struct rpcrdma2_pool *p)
{
	unsigned long flags;
	bool avail;

	spin_lock_irqsave(&p->lock, flags);
	avail = p->nfree;
	spin_unlock_irqrestore(&p->lock, flags);
	return avail;
}

/**
 * rpcrdma2_pool_put - a Send buffer comes back
 * @p: the pool
 * @sd: the buffer, from its completion or a post that failed
 *
 * A control buffer whose Send succeeded posts the control messages
 * held for want of one, oldest first, if no sequence of ours is open.
 * Never called under the gate or a lock taken inside it (the pool's
 * lock, the endpoint's sq_lock).
 *
 * Returns 0, or a negative errno when a held message could not be
 * posted: the caller closes the connection.
 */
int rpcrdma2_pool_put(struct rpcrdma2_pool *p, struct rpcrdma2_send *sd)
{
	int ret;

	/* a failed control Send: the connection is closing anyway */
	if (!pool_put_buf(p, sd) || sd->status != IB_WC_SUCCESS)
		return 0;
	/* under the gate: a message held right now is seen here */
	spin_lock(&p->gate);
	ret = pool_flush_held(p);
	spin_unlock(&p->gate);
	return ret;
}

/* Acknowledgments a receiver sends for a sequence of @nmsgs messages. */
static u32 seq_acks(u32 nmsgs)
{
	return nmsgs < 2 ? 0 : (nmsgs - 2) / RPCRDMA2_SEQ_WINDOW;
}

/**
 * rpcrdma2_seq_start - the sender begins a message of @nmsgs Sends
 * @s: the sender's window state
 * @nmsgs: Sends in the message (1 when not continued)
 */
void rpcrdma2_seq_start(struct rpcrdma2_seq *s, u32 nmsgs)
{
	s->base_owed = s->acks_owed;
	s->acks_seen = 0;
	s->acks_owed += seq_acks(nmsgs);
}

/**
 * rpcrdma2_seq_may_send - may message @msgno (1-based) be posted now?
 * @s: the sender's window state
 * @msgno: the message's place in its sequence
 */
bool rpcrdma2_seq_may_send(const struct rpcrdma2_seq *s, u32 msgno)
{
	return msgno <= 1 ||
	       msgno - 1 <= RPCRDMA2_SEQ_WINDOW * (s->acks_seen + 1);
}

/**
 * rpcrdma2_seq_grant - the sender received a credit grant (xid 0)
 * @s: the sender's window state
 *
 * Returns true if it was an acknowledgment the sender was owed.
 */
bool rpcrdma2_seq_grant(struct rpcrdma2_seq *s)
{
	if (!s->acks_owed)
		return false;		/* unsolicited: only a new grant */
	s->acks_owed--;
	if (s->base_owed)
		s->base_owed--;		/* a late one for an earlier message */
	else
		s->acks_seen++;
	return true;
}

/**
 * rpcrdma2_seq_ack_due - does the receiver owe an acknowledgment now?
 * @nmsgs_seen: messages of the open sequence consumed, this one included
 * @more: this message has RDMA2_F_MORE (the sequence is still open)
 */
bool rpcrdma2_seq_ack_due(u32 nmsgs_seen, bool more)
{
	return more && nmsgs_seen >= 2 &&
	       (nmsgs_seen - 1) % RPCRDMA2_SEQ_WINDOW == 0;
}

/* The final message's header, with the chunk lists if there are any. */
static void tx_final_hdr(const struct rpcrdma2_tx *tx,
			 struct rpcrdma2_msg_out *m)
{
	*m = (struct rpcrdma2_msg_out){
		.xid		= tx->xid,
		.vers		= tx->vers,
		.credit		= tx->credit,
		.htype		= tx->nomsg ? RDMA2_NOMSG : RDMA2_MSG,
		.flags		= tx->flags,
		.inv_handle	= tx->inv_handle,
		.nr_reads	= tx->nr_reads,
		.reads		= tx->reads,
		.nr_writes	= tx->nr_writes,
		.writes		= tx->writes,
		.reply		= tx->reply,
	};
}

static u32 tx_final_hdrlen(const struct rpcrdma2_tx *tx)
{
	struct rpcrdma2_msg_out m;

	tx_final_hdr(tx, &m);
	return rpcrdma2_msg_hdrlen(&m);
}

/**
 * rpcrdma2_tx_len - payload octets that travel in the message's Sends
 * @tx: the message
 *
 * The whole RPC message less what moves by RDMA: nothing in Special
 * Format, else the message without its holes.
 */
u32 rpcrdma2_tx_len(const struct rpcrdma2_tx *tx)
{
	u32 len = tx->payload->len, i;

	if (tx->nomsg)
		return 0;
	for (i = 0; i < tx->nholes; i++)
		len -= min(len, tx->holes[i].len);
	return len;
}

/* Version 1, Special Format and @single messages are never continued. */
static bool tx_one_send(const struct rpcrdma2_tx *tx)
{
	return tx->vers == RPCRDMA2_VERS_1 || tx->nomsg || tx->single;
}

/**
 * rpcrdma2_tx_nmsgs - Sends needed for the whole message, or 0 if it
 * cannot go without (more) chunks (one Send only, and larger than the
 * threshold)
 * @tx: the message
 */
u32 rpcrdma2_tx_nmsgs(const struct rpcrdma2_tx *tx)
{
	u32 len = rpcrdma2_tx_len(tx), hlen = tx_final_hdrlen(tx);

	if (tx_one_send(tx))
		return len + hlen <= tx->inline_size ? 1 : 0;
	return rpcrdma2_cont_sends(len, tx->inline_size, hlen);
}

/**
 * rpcrdma2_holes_map - where an octet of a reduced message really is
 * @holes: the octets moved by RDMA, sorted and disjoint
 * @nholes: how many
 * @len: the unreduced message's length
 * @off: an offset in the reduced message (the holes skipped)
 * @run: set to the octets that follow it without a hole, 0 past the end
 *
 * Returns @off's offset in the unreduced message.
 */
u32 rpcrdma2_holes_map(const struct rpcrdma2_hole *holes, u32 nholes,
		       u32 len, u32 off, u32 *run)
{
	u32 orig = off, end = len, i;

	for (i = 0; i < nholes; i++) {
		if (orig < holes[i].off) {
			end = holes[i].off;
			break;
		}
		orig += holes[i].len;
	}
	*run = orig < end ? end - orig : 0;
	return orig;
}

/*
 * Copy @len octets of the reduced payload, from reduced offset @off:
 * the holes are skipped as if they had never been there.
 */
static int tx_read(const struct rpcrdma2_tx *tx, u32 off, u8 *dst, u32 len)
{
	while (len) {
		u32 orig, run, n;

		orig = rpcrdma2_holes_map(tx->holes, tx->nholes,
					  tx->payload->len, off, &run);
		if (!run)
			return -EIO;
		n = min(len, run);
		if (read_bytes_from_xdr_buf(tx->payload, orig, dst, n))
			return -EIO;
		off += n;
		dst += n;
		len -= n;
	}
	return 0;
}

/**
 * rpcrdma2_tx_next - cut the next Send of a message
 * @tx: the message; off and msgno advance
 * @buf: a Send buffer of at least tx->inline_size octets
 * @len: octets to post
 *
 * Every Send of the message carries its rdma_xid and htype
 * (V2-CONT-05) and RDMA2_F_RESPONSE as the RPC msg_type, from tx->flags
 * (V2-FRAME-09).  Only the final one carries chunk lists (V2-CONT-08),
 * and it is the one that fits in what is left; every earlier one is
 * filled to the threshold but leaves the final at least one octet, so
 * the count always agrees with rpcrdma2_tx_nmsgs().
 *
 * Returns 1 if more Sends follow, 0 for the last one, or a negative
 * errno if the header or payload cannot be written.
 */
int rpcrdma2_tx_next(struct rpcrdma2_tx *tx, void *buf, u32 *len)
{
	u32 final_hlen = tx_final_hdrlen(tx);
	u32 left = rpcrdma2_tx_len(tx) - tx->off;
	struct rpcrdma2_msg_out m;
	u32 chunk, hlen;
	int more;

	if (tx->inline_size <= final_hlen)
		return -EMSGSIZE;
	more = left > tx->inline_size - final_hlen;
	if (more && tx_one_send(tx))
		return -EMSGSIZE;
	if (more) {
		/* a continued message: no chunks, F_MORE (V2-CONT-08) */
		m = (struct rpcrdma2_msg_out){
			.xid	= tx->xid,
			.vers	= tx->vers,
			.credit	= tx->credit,
			.htype	= RDMA2_MSG,
			.flags	= tx->flags | RDMA2_F_MORE,
		};
		if (tx->inline_size <= RPCRDMA2_HDRLEN_NOCHUNKS)
			return -EMSGSIZE;
		chunk = min(left - 1,
			    tx->inline_size - RPCRDMA2_HDRLEN_NOCHUNKS);
	} else {
		tx_final_hdr(tx, &m);
		chunk = left;
	}
	hlen = rpcrdma2_encode_msg(buf, tx->inline_size, &m);
	if (!hlen || hlen + chunk > tx->inline_size)
		return -EIO;
	if (chunk && tx_read(tx, tx->off, (u8 *)buf + hlen, chunk))
		return -EIO;
	tx->off += chunk;
	tx->msgno++;
	*len = hlen + chunk;
	return more;
}

/*
 * Octets of [@off, @off + @len) that land before the first missing page
 * of a buffer whose pages the upper layer left sparse; the transport
 * allocates them before sending the Call, so none should be missing,
 * but a NULL page is never written through.
 */
static u32 xdr_sparse_room(const struct xdr_buf *xb, u32 off, u32 len)
{
	u32 hl = xb->head[0].iov_len, pos, end, idx;

	if (!(xb->flags & XDRBUF_SPARSE_PAGES) || !xb->page_len ||
	    off + len <= hl || off >= hl + xb->page_len)
		return len;
	pos = max(off, hl) - hl;
	end = min(off + len, hl + xb->page_len) - hl;
	while (pos < end) {
		idx = (xb->page_base + pos) >> PAGE_SHIFT;
		if (!xb->pages[idx])
			return hl + pos - off;
		pos += PAGE_SIZE - offset_in_page(xb->page_base + pos);
	}
	return len;
}

/**
 * rpcrdma2_copy_to_xdr - copy received payload into a receive buffer
 * @xb: the buffer (head, pages, tail), filled in order
 * @off: where in it
 * @data: the octets
 * @len: how many
 *
 * Octets beyond the buffer's capacity are dropped: the RPC layer's
 * decoder then finds the message short.  Returns the octets copied.
 */
u32 rpcrdma2_copy_to_xdr(struct xdr_buf *xb, u32 off, const void *data,
			 u32 len)
{
	unsigned int saved = xb->len;

	if (off >= xb->buflen)
		return 0;
	len = xdr_sparse_room(xb, off, min(len, xb->buflen - off));
	if (!len)
		return 0;
	xb->len = xb->buflen;	/* the capacity, for the bounds checks */
	if (write_bytes_to_xdr_buf(xb, off, (void *)data, len))
		len = 0;
	xb->len = saved;
	return len;
}

/* Is this RPC message a Call (RFC 5531 msg_type, the second word)? */
bool rpcrdma2_rpc_is_call(const void *payload, u32 len)
{
	return len >= 8 && get_unaligned_be32((const u8 *)payload + 4) ==
			   RPC_CALL;
}

/**
 * rpcrdma2_rpc_msg_is_call - is this RPC message a Call or a Reply?
 * @hdr: the header of its first message
 * @payload: the payload of that message
 * @plen: its length
 * @ok: set false when the message contradicts itself
 *
 * On Version 2 RDMA2_F_RESPONSE says so without an XID lookup
 * (V2-RDIR-18), and it must agree with the RPC msg_type (V2-FRAME-08);
 * Version 1 has only the msg_type (RFC 8167).  Both halves route
 * reverse-direction traffic with this.
 */
bool rpcrdma2_rpc_msg_is_call(const struct rpcrdma2_hdr *hdr,
			      const void *payload, u32 plen, bool *ok)
{
	bool call = rpcrdma2_rpc_is_call(payload, plen);

	*ok = true;
	if (hdr->vers != RPCRDMA2_VERS_2)
		return call;
	if (plen >= 8 && call == !!(hdr->flags & RDMA2_F_RESPONSE))
		*ok = false;
	return !(hdr->flags & RDMA2_F_RESPONSE);
}

/*
 * The address strings a transport shows in mountstats and debugfs,
 * shared by the client transport and the server's backchannel.
 */
void rpcrdma2_xprt_addresses(struct rpc_xprt *xprt)
{
	struct sockaddr *sap = (struct sockaddr *)&xprt->addr;
	char buf[128];

	if (sap->sa_family == AF_INET6) {
		snprintf(buf, sizeof(buf), "%pi6",
			 &((struct sockaddr_in6 *)sap)->sin6_addr);
		xprt->address_strings[RPC_DISPLAY_NETID] = RPCBIND_NETID_RDMA6;
	} else {
		snprintf(buf, sizeof(buf), "%08x",
			 ntohl(((struct sockaddr_in *)sap)->sin_addr.s_addr));
		xprt->address_strings[RPC_DISPLAY_NETID] = RPCBIND_NETID_RDMA;
	}
	xprt->address_strings[RPC_DISPLAY_HEX_ADDR] = kstrdup(buf, GFP_KERNEL);
	rpc_ntop(sap, buf, sizeof(buf));
	xprt->address_strings[RPC_DISPLAY_ADDR] = kstrdup(buf, GFP_KERNEL);
	xprt->address_strings[RPC_DISPLAY_PROTO] = "rdma";
	rpcrdma2_xprt_set_port(xprt, rpc_get_port(sap));
}

void rpcrdma2_xprt_set_port(struct rpc_xprt *xprt, unsigned short port)
{
	char buf[8];

	rpc_set_port((struct sockaddr *)&xprt->addr, port);
	kfree(xprt->address_strings[RPC_DISPLAY_PORT]);
	snprintf(buf, sizeof(buf), "%u", port);
	xprt->address_strings[RPC_DISPLAY_PORT] = kstrdup(buf, GFP_KERNEL);
	kfree(xprt->address_strings[RPC_DISPLAY_HEX_PORT]);
	snprintf(buf, sizeof(buf), "%4hx", port);
	xprt->address_strings[RPC_DISPLAY_HEX_PORT] = kstrdup(buf, GFP_KERNEL);
}

void rpcrdma2_xprt_free_addresses(struct rpc_xprt *xprt)
{
	unsigned int i;

	for (i = 0; i < RPC_DISPLAY_MAX; i++) {
		if (i == RPC_DISPLAY_PROTO || i == RPC_DISPLAY_NETID)
			continue;
		kfree(xprt->address_strings[i]);
		xprt->address_strings[i] = NULL;
	}
}

/**
 * rpcrdma2_local_segments - the segment properties this end advertises
 * @l: what this end offers; max_seg_size and max_segs are set
 * @dev: the connection's device
 * @lim: what this end's decoder accepts as a Responder
 *
 * RSSIZ is the largest RDMA segment this end sends or receives: the
 * protocol default, or less if the device cannot register that much.
 * RCSIZ is the most segments it accepts in one chunk of a Requester's
 * header, which is exactly what its decoder enforces (V2-ERR-38), so
 * the property and the errors never disagree.
 */
void rpcrdma2_local_segments(struct rpcrdma2_local *l, struct ib_device *dev,
			     const struct rpcrdma2_limits *lim)
{
	struct rpcrdma2_dev_attr a;

	rpcrdma2_dev_attr(dev, &a);
	l->max_seg_size = min_t(u64, a.max_mr_size, RDMA2_PROP_RSSIZ_DEFAULT);
	l->max_segs = lim->max_segments;
}
