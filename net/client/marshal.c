// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 client half: marshaling a Call.
 *
 * Owns the one decision of how each forward RPC travels,
 * rr2c_marshal_policy(), and the building of a Call that carries
 * chunks: the regions to register (through frwr.c), the transport
 * header with its Read list, Write list and Reply chunk (the shared
 * codec's rpcrdma2_encode_msg()), the inline payload, and the chain
 * REG_MR... + Send that goes out in one post.
 *
 * The policy, per RPC (documented in Documentation/protocol.rst,
 * "Chunks and the client's choice"):
 *
 *   Version 1 (RFC 8166).  Chunks are the only way past the inline
 *   thresholds, so the stock client's rules apply.  Reply side: no
 *   chunk when the largest Reply fits the receive threshold
 *   (rq_rcv_buf.buflen); a Write chunk for a DDP-eligible result
 *   (XDRBUF_READ pages) when the rest of the Reply fits inline; a
 *   Reply chunk otherwise.  Call side: inline when it fits; a Read
 *   chunk for DDP-eligible argument pages (XDRBUF_WRITE) when the rest
 *   fits inline; else the whole Call in a Position-Zero Read chunk,
 *   RDMA_NOMSG (V2-SPEC-02).
 *
 *   Version 2.  Message Continuation carries any Call and any Reply,
 *   so chunks are a choice of speed only, made the same way both
 *   ways: a DDP-eligible data item of at least RR2C_V2_DDP_MIN octets
 *   goes in a chunk (a Write chunk for a result, a Read chunk for an
 *   argument), where continuation would cost one Send, one Receive,
 *   one copy and one header per inline-sized piece, plus a window
 *   acknowledgment round trip every RPCRDMA2_SEQ_WINDOW messages
 *   (measured in Documentation/protocol.rst).  Chunks stay within the
 *   peer's RSSIZ and RCSIZ (V2-CHUNK-30, V2-CHUNK-31); when they do not
 *   fit, or the rest of the Call does not fit one Send, the RPC goes
 *   by continuation.
 *
 *   Both.  Under RPCSEC_GSS integrity or privacy no data item is
 *   reduced (V2-SEC-13): the Call goes inline, continued or in Special
 *   Format, the Reply inline, continued or in a Reply chunk.
 *
 * Locking: rr2c_marshal_policy() and rr2c_marshal_prepare() run in the
 * sending task's context without locks (registration may sleep in the
 * provider); rr2c_marshal_post() runs under the transport's tx_lock,
 * which keeps a chunked Call out of a half-cut continued message
 * (V2-CONT-03).  The transmit lock (XPRT_LOCKED) serializes senders.
 *
 * Called by: send.c (rr2c_op_send_request).
 */

#include <linux/sunrpc/auth.h>
#include <linux/sunrpc/xprt.h>

#include "rpcrdma2.h"
#include "client/client.h"
#include <trace/events/rpcrdma2.h>

/* Smallest DDP-eligible result given a Write chunk on Version 2. */
#define RR2C_V2_DDP_MIN		(16 * 1024)

/*
 * V2-SEC-13: nothing is reduced under RPCSEC_GSS integrity or privacy;
 * and GSS protocol elements never are, as they are never in a page
 * list the upper layer marks (V2-SEC-11)
 */
static bool rr2c_ddp_allowed(const struct rpc_rqst *rq)
{
	const struct rpc_cred *cred = rq->rq_cred;

	/* a bit number, as auth_gss sets it, not a mask */
	return !(cred && cred->cr_auth &&
		 test_bit(RPCAUTH_AUTH_DATATOUCH, &cred->cr_auth->au_flags));
}

/*
 * Forget the chunks of the slot's previous Call.  A slot carries one
 * RPC after another, and a Call without chunks, or one that falls back
 * to continuation after -E2BIG, must not leave the last Call's handles
 * and lengths behind: the Reply is checked against them (V2-CHUNK-20),
 * and a server echoing old handles would otherwise have pages nobody
 * wrote taken for its data (V2-SEC-17).
 */
static void rr2c_chunks_forget(struct rr2c_req *req)
{
	req->nr_rsegs = 0;
	req->rpos = 0;
	req->rlen = 0;
	req->nr_wsegs = 0;
	req->wlen = 0;
	req->nr_rpsegs = 0;
	req->rplen = 0;
}

/* ... and the chunk kinds chosen for it. */
static void rr2c_marshal_reset(struct rr2c_req *req)
{
	req->call_ck = RR2C_CALL_NONE;
	req->reply_ck = RR2C_REPLY_NONE;
	rr2c_chunks_forget(req);
}

static u32 rr2c_hdr_min(const struct rr2c *r)
{
	return r->link.conn.vers == RPCRDMA2_VERS_1 ? RPCRDMA1_HDRLEN_MIN :
						 RPCRDMA2_HDRLEN_NOCHUNKS;
}

/* Octets of a message that fit one Send beside the smallest header. */
static u32 rr2c_room(const struct rr2c *r, u32 threshold)
{
	u32 hmin = rr2c_hdr_min(r);

	return threshold > hmin ? threshold - hmin : 0;
}

/* A Version 2 peer that takes at least a chunk's worth of segments. */
static bool rr2c_v2_peer_takes_chunks(const struct rr2c *r)
{
	return r->chunk_segs > 0 && r->seg_size > 0;
}

/*
 * The payload a Version 1 chunk of @nsegs segments of @seg octets
 * describes in any layout: a Reply chunk or Position-Zero Read chunk
 * over a head, pages that start inside a page and a tail takes at most
 * one segment each for the head and the tail and
 * ceil((pages + 1) / pages_per_segment) for the pages.
 */
static u32 rr2c_v1_payload(u32 seg, u32 nsegs)
{
	u32 per = seg >> PAGE_SHIFT, pages;

	if (nsegs < 3 || !per)
		return PAGE_SIZE;
	pages = (nsegs - 2) * per - 1;
	return min_t(u32, RR2C_MAX_PAYLOAD, max_t(u32, pages, 1) << PAGE_SHIFT);
}

/**
 * rr2c_marshal_limits - size the chunks of a connection just settled
 * @r: the transport; its MRs are made and the version settled
 *
 * Segments and their count come from the device (the FRWR
 * depth and MR size of its clamped attributes, shared/dev.c) and, on
 * Version 2, from the peer's RSSIZ and RCSIZ (V2-CHUNK-30: no segment
 * larger than RSSIZ; V2-CHUNK-31: RCSIZ counts the segments of the
 * whole header, so no chunk can have more).  Segments are whole pages,
 * so an RSSIZ below a page allows none: the Calls are then continued.
 *
 * Returns the payload (rsize and wsize) the connection carries: what
 * Version 1 chunks describe on this device (rr2c_v1_payload()), on
 * either version.  Version 2 would carry RR2C_MAX_PAYLOAD by
 * continuation, but the upper layer reads the payload once, at mount,
 * and a later connection may settle Version 1 (a lost negotiation,
 * V2-FRAME-19): the mount must not then ask for more than chunks can
 * describe (#26 review e).  On a device with a FRWR depth of 32 pages
 * or more that is RR2C_MAX_PAYLOAD anyway.
 */
u32 rr2c_marshal_limits(struct rr2c *r)
{
	u32 dev = r->frwr.depth << PAGE_SHIFT;
	u32 seg, nsegs = RR2C_MAX_SEGS;

	if (r->link.ep.dattr.max_mr_size < dev)
		dev = r->link.ep.dattr.max_mr_size;
	dev = round_down(dev, PAGE_SIZE);
	seg = dev;
	if (r->link.conn.vers == RPCRDMA2_VERS_2) {
		seg = min(seg, r->link.conn.peer_props.rssiz);	/* V2-CHUNK-30 */
		nsegs = min(nsegs, r->link.conn.peer_props.rcsiz);	/* V2-CHUNK-31 */
	}
	seg = round_down(seg, PAGE_SIZE);
	if (!seg)
		nsegs = 0;
	r->seg_size = seg;
	r->chunk_segs = nsegs;
	return rr2c_v1_payload(dev, RR2C_MAX_SEGS);
}

/**
 * rr2c_marshal_policy - how this Call and its Reply travel
 * @r: the transport, connected
 * @req: the forward request; call_ck and reply_ck are set
 *
 * Returns RR2C_FMT_CHUNKS when a chunk is wanted (rr2c_marshal_chunks()
 * then builds the Call), else RR2C_FMT_INLINE or RR2C_FMT_CONT.
 */
enum rr2c_format rr2c_marshal_policy(struct rr2c *r, struct rr2c_req *req)
{
	const struct rpc_rqst *rq = &req->rq;
	const struct xdr_buf *snd = &rq->rq_snd_buf;
	const struct xdr_buf *rcv = &rq->rq_rcv_buf;
	u32 send_room = rr2c_room(r, r->link.conn.send_inline);
	u32 recv_room = rr2c_room(r, r->link.conn.recv_inline);
	bool ddp = rr2c_ddp_allowed(rq);
	bool fits = snd->len <= send_room;

	/*
	 * Only what the upper layer marks is reduced (V2-CHUNK-03): the
	 * page list of one opaque data item (XDRBUF_READ / XDRBUF_WRITE),
	 * whose length word stays inline (V2-CHUNK-06), one item per chunk
	 * (V2-CHUNK-09).  A Write chunk covers the whole page list, the
	 * most the item can be (V2-CHUNK-18).  Nothing of the slot's
	 * last Call is kept.
	 */
	rr2c_marshal_reset(req);
	if (r->link.conn.vers == RPCRDMA2_VERS_2) {
		if (!ddp || !rr2c_v2_peer_takes_chunks(r))
			return fits ? RR2C_FMT_INLINE : RR2C_FMT_CONT;
		if (fits && (rcv->flags & XDRBUF_READ) &&
		    rcv->page_len >= RR2C_V2_DDP_MIN)
			req->reply_ck = RR2C_REPLY_WRITE;
		/*
		 * A large DDP-eligible argument goes in a Read chunk: one
		 * RDMA Read instead of a Send, a Receive, a copy and a
		 * header per inline-sized piece and a window round trip per
		 * RPCRDMA2_SEQ_WINDOW of them.  When the rest of the Call
		 * does not fit one Send it is continued instead.
		 */
		if (!fits && (snd->flags & XDRBUF_WRITE) &&
		    snd->page_len >= RR2C_V2_DDP_MIN &&
		    !(snd->head[0].iov_len & 3))	/* V2-CHUNK-13 */
			req->call_ck = RR2C_CALL_READ;
		if (req->reply_ck != RR2C_REPLY_NONE ||
		    req->call_ck != RR2C_CALL_NONE)
			return RR2C_FMT_CHUNKS;
		return fits ? RR2C_FMT_INLINE : RR2C_FMT_CONT;
	}

	/* Version 1: the stock client's rule for the Reply */
	if (rcv->buflen > recv_room) {
		if (ddp && (rcv->flags & XDRBUF_READ) && rcv->page_len &&
		    rcv->head[0].iov_len + rcv->tail[0].iov_len < recv_room)
			req->reply_ck = RR2C_REPLY_WRITE;
		else
			req->reply_ck = RR2C_REPLY_CHUNK;
	}
	if (!fits) {
		/* V2-CHUNK-13: a Read chunk's Position is a multiple of 4 */
		if (ddp && (snd->flags & XDRBUF_WRITE) && snd->page_len &&
		    !(snd->head[0].iov_len & 3))
			req->call_ck = RR2C_CALL_READ;
		else
			req->call_ck = RR2C_CALL_PZRC;
	}
	if (req->call_ck == RR2C_CALL_NONE && req->reply_ck == RR2C_REPLY_NONE)
		return RR2C_FMT_INLINE;
	return RR2C_FMT_CHUNKS;
}

static u32 rr2c_xb_len(const struct xdr_buf *xb)
{
	return xb->head[0].iov_len + xb->page_len + xb->tail[0].iov_len;
}

/* Register what call_ck and reply_ck ask for. */
static int rr2c_marshal_map(struct rr2c *r, struct rr2c_req *req)
{
	struct xdr_buf *snd = &req->rq.rq_snd_buf;
	struct xdr_buf *rcv = &req->rq.rq_rcv_buf;
	u32 hl = snd->head[0].iov_len;
	int ret = 0;

	/* mapped again after a fallback to a Position-Zero Read chunk */
	rr2c_chunks_forget(req);
	switch (req->call_ck) {
	case RR2C_CALL_READ:
		/* V2-CHUNK-12: the data item's offset in the XDR stream */
		req->rpos = hl;
		/* V2-CHUNK-16: the item without its XDR pad */
		req->rlen = snd->page_len;
		ret = rr2c_frwr_map(r, req, snd, hl, snd->page_len, false,
				    req->rsegs, &req->nr_rsegs);
		break;
	case RR2C_CALL_PZRC:
		/* V2-SPEC-07: the whole stream, pads included */
		req->rlen = snd->len;
		ret = rr2c_frwr_map(r, req, snd, 0, snd->len, false,
				    req->rsegs, &req->nr_rsegs);
		break;
	default:
		break;
	}
	if (ret)
		return ret;
	switch (req->reply_ck) {
	case RR2C_REPLY_WRITE:
		/* V2-CHUNK-23: no room for the XDR pad */
		req->wlen = rcv->page_len;
		ret = rr2c_frwr_map(r, req, rcv, rcv->head[0].iov_len,
				    rcv->page_len, true, req->wsegs,
				    &req->nr_wsegs);
		break;
	case RR2C_REPLY_CHUNK:
		/* V2-SPEC-03: room for the largest Reply */
		req->rplen = rr2c_xb_len(rcv);
		ret = rr2c_frwr_map(r, req, rcv, 0, req->rplen, true,
				    req->rpsegs, &req->nr_rpsegs);
		break;
	default:
		break;
	}
	if (ret)
		return ret;
	/* V2-CHUNK-31: within the peer's RCSIZ */
	if (r->link.conn.vers == RPCRDMA2_VERS_2 &&
	    req->nr_rsegs + req->nr_wsegs + req->nr_rpsegs >
	    r->link.conn.peer_props.rcsiz)
		return -E2BIG;
	return 0;
}

/*
 * V2-RINV-01: name one of the Call's handles for Send With Invalidate,
 * the one the Reply is most likely to have used: the Write chunk's,
 * else the Reply chunk's, else the Read chunk's.
 */
static u32 rr2c_inv_handle(const struct rr2c_req *req)
{
	if (req->nr_wsegs)
		return req->wsegs[0].handle;
	if (req->nr_rpsegs)
		return req->rpsegs[0].handle;
	if (req->nr_rsegs)
		return req->rsegs[0].handle;
	return 0;				/* V2-RINV-02 */
}

/*
 * Header and inline payload into @sd.  Returns 0 and the octets to send
 * in *@len, or -E2BIG when they do not fit one Send.
 */
static int rr2c_marshal_encode(struct rr2c *r, struct rr2c_req *req,
			       struct rpcrdma2_send *sd, u32 *len)
{
	struct xdr_buf *snd = &req->rq.rq_snd_buf;
	struct rpcrdma2_chunk_out rd = {
		.nsegs = req->nr_rsegs, .segs = req->rsegs,
		.position = req->rpos,
	};
	struct rpcrdma2_chunk_out wr = {
		.nsegs = req->nr_wsegs, .segs = req->wsegs,
	};
	struct rpcrdma2_chunk_out rp = {
		.nsegs = req->nr_rpsegs, .segs = req->rpsegs,
	};
	struct rpcrdma2_msg_out m = {
		.xid	= be32_to_cpu(req->rq.rq_xid),
		.vers	= r->link.conn.vers,
		.credit	= rr2c_credit(r, r->link.conn.vers),
		.htype	= req->call_ck == RR2C_CALL_PZRC ? RDMA2_NOMSG :
							   RDMA2_MSG,
		.nr_reads = req->nr_rsegs ? 1 : 0,
		.reads	= &rd,
		.nr_writes = req->nr_wsegs ? 1 : 0,
		.writes	= &wr,
		.reply	= req->nr_rpsegs ? &rp : NULL,
	};
	u32 size = min(r->link.conn.send_inline, sd->ep->attr.send_size);
	u32 hl = snd->head[0].iov_len, hlen, tail_off, tail_len;
	u8 *p = sd->buf;

	if (r->link.conn.vers == RPCRDMA2_VERS_2)
		m.inv_handle = rr2c_inv_handle(req);
	hlen = rpcrdma2_encode_msg(p, size, &m);
	if (!hlen)
		return -E2BIG;
	p += hlen;
	switch (req->call_ck) {
	case RR2C_CALL_PZRC:
		*len = hlen;			/* V2-SPEC-01 */
		return 0;
	case RR2C_CALL_READ:
		/* V2-CHUNK-10: the item's pad leaves the stream too */
		tail_off = hl + snd->page_len + xdr_pad_size(snd->page_len);
		tail_len = snd->len > tail_off ? snd->len - tail_off : 0;
		if (hlen + hl + tail_len > size)
			return -E2BIG;
		if (read_bytes_from_xdr_buf(snd, 0, p, hl) ||
		    (tail_len &&
		     read_bytes_from_xdr_buf(snd, tail_off, p + hl, tail_len)))
			return -EIO;
		*len = hlen + hl + tail_len;
		return 0;
	default:
		if (hlen + snd->len > size)
			return -E2BIG;
		if (read_bytes_from_xdr_buf(snd, 0, p, snd->len))
			return -EIO;
		*len = hlen + snd->len;
		return 0;
	}
}

static const char *const rr2c_call_ck_name[] = { "none", "read", "pzrc" };
static const char *const rr2c_reply_ck_name[] = { "none", "write", "reply" };

/*
 * Octets of @req's Call beyond its head that rr2c_marshal_encode()
 * copied into the Send buffer (mountstats' pullup_copy_count).
 */
static u32 rr2c_marshal_pullup(const struct rr2c_req *req)
{
	const struct xdr_buf *snd = &req->rq.rq_snd_buf;
	u32 hl = snd->head[0].iov_len, tail_off;

	switch (req->call_ck) {
	case RR2C_CALL_PZRC:
		return 0;
	case RR2C_CALL_READ:
		tail_off = hl + snd->page_len + xdr_pad_size(snd->page_len);
		return snd->len > tail_off ? snd->len - tail_off : 0;
	default:
		return snd->len > hl ? snd->len - hl : 0;
	}
}

static void rr2c_marshal_count(struct rr2c *r, struct rr2c_req *req)
{
	u32 pulled = rr2c_marshal_pullup(req);

	r->stats.pullup_octets += pulled;
	if (pulled)
		trace_rpcrdma2_clnt_pullup(&r->xprt.addr,
					   be32_to_cpu(req->rq.rq_xid),
					   req->rq.rq_snd_buf.len, pulled);
	if (req->call_ck == RR2C_CALL_READ)
		r->stats.read_chunks++;
	if (req->call_ck == RR2C_CALL_PZRC)
		r->stats.nomsg_calls++;
	if (req->nr_wsegs)
		r->stats.write_chunks++;
	if (req->nr_rpsegs)
		r->stats.reply_chunks++;
	r->stats.rdma_call_octets += req->rlen;
	trace_rpcrdma2_clnt_chunks(&r->xprt.addr, be32_to_cpu(req->rq.rq_xid),
				   r->link.conn.vers,
				   rr2c_call_ck_name[req->call_ck],
				   rr2c_reply_ck_name[req->reply_ck],
				   req->nr_rsegs + req->nr_wsegs +
				   req->nr_rpsegs, req->rq.rq_snd_buf.len);
}

/* The header rpcrdma2_encode_msg() makes for @req's chunks. */
static u32 rr2c_hdr_len(const struct rr2c *r, const struct rr2c_req *req)
{
	u32 len = rr2c_hdr_min(r) + 24 * req->nr_rsegs;

	if (req->nr_wsegs)
		len += 8 + 16 * req->nr_wsegs;
	if (req->nr_rpsegs)
		len += 4 + 16 * req->nr_rpsegs;
	return len;
}

/* Do the header and the inline payload fit one Send? */
static bool rr2c_marshal_fits(const struct rr2c *r, const struct rr2c_req *req)
{
	const struct xdr_buf *snd = &req->rq.rq_snd_buf;
	u32 size = min(r->link.conn.send_inline, r->link.ep.attr.send_size);
	u32 hl = snd->head[0].iov_len, ilen, tail_off;

	switch (req->call_ck) {
	case RR2C_CALL_PZRC:
		ilen = 0;
		break;
	case RR2C_CALL_READ:
		tail_off = hl + snd->page_len + xdr_pad_size(snd->page_len);
		ilen = hl + (snd->len > tail_off ? snd->len - tail_off : 0);
		break;
	default:
		ilen = snd->len;
		break;
	}
	return rr2c_hdr_len(r, req) + ilen <= size;
}

/**
 * rr2c_marshal_prepare - register the chunks rr2c_marshal_policy() chose
 * @r: the transport
 * @req: the request
 *
 * Runs in the sending task's context, outside every spinlock: a
 * provider may sleep in ib_map_mr_sg().  On Version 1 a Read chunk
 * whose remaining Call does not fit one Send becomes a Position-Zero
 * Read chunk.
 *
 * Returns 0 (the MRs are mapped, not yet posted), -EAGAIN (no free MR),
 * -E2BIG (the chunks do not fit one Send or the peer's limits; on
 * Version 2 the caller continues instead), -EALREADY (the RPC was
 * answered meanwhile: nothing may be mapped), or another negative errno.
 * On failure nothing stays registered.
 */
int rr2c_marshal_prepare(struct rr2c *r, struct rr2c_req *req)
{
	int ret;

	might_sleep();
	for (;;) {
		ret = rr2c_marshal_map(r, req);
		if (!ret && !rr2c_marshal_fits(r, req))
			ret = -E2BIG;
		if (ret != -E2BIG || req->call_ck != RR2C_CALL_READ ||
		    r->link.conn.vers != RPCRDMA2_VERS_1)
			break;
		/* the rest of the Call does not fit: all of it in a chunk */
		rr2c_frwr_unmap_unposted(r, req);
		req->call_ck = RR2C_CALL_PZRC;
	}
	if (ret) {
		rr2c_frwr_unmap_unposted(r, req);
		/* the Call goes without chunks, or not at all */
		rr2c_marshal_reset(req);
	}
	return ret;
}

/**
 * rr2c_marshal_post - post a Call whose chunks are prepared
 * @r: the transport; the caller holds tx_lock
 * @req: the request, after rr2c_marshal_prepare()
 *
 * Encodes the header and inline payload into a Send buffer and posts
 * the REG_MRs and the Send in one chain.  Returns 0, -ENOBUFS (no Send
 * buffer: wait for one), -ENOTCONN (the post failed) or another
 * negative errno; on failure the MRs are released.
 */
int rr2c_marshal_post(struct rr2c *r, struct rr2c_req *req)
{
	struct rpcrdma2_send *sd;
	struct ib_send_wr *wr = NULL;
	u32 len = 0;
	int ret;

	lockdep_assert_held(&r->link.tx_lock);
	sd = rpcrdma2_pool_get(&r->link.pool, false);
	if (!sd) {
		rr2c_frwr_unmap_unposted(r, req);
		return -ENOBUFS;
	}
	ret = rr2c_marshal_encode(r, req, sd, &len);
	if (!ret)
		wr = rpcrdma2_ep_send_wr(sd, len, 0);
	if (!wr) {
		rr2c_frwr_unmap_unposted(r, req);
		rpcrdma2_pool_put(&r->link.pool, sd);
		return ret ? ret : -EIO;
	}
	rr2c_marshal_count(r, req);
	wr = rr2c_frwr_reg_chain(r, req, wr);
	if (rpcrdma2_ep_post_chain(&r->link.ep, wr)) {
		rpcrdma2_pool_put(&r->link.pool, sd);
		return -ENOTCONN;
	}
	r->stats.sends++;
	return 0;
}
