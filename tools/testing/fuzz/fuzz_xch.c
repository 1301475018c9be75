// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for the seed 004 transport-characteristics exchange
 * (xch.c) on a settled connection, in either role, fed a sequence of
 * events: messages received (through the codec, as the halves take
 * them), an INVAL_HTYPE under one of our xids, and our own REQXCH and
 * UPDXCH.
 *
 * Input: two configuration octets, then events (at most 16), each an
 * octet whose low two bits pick the kind:
 *   0: a received message: a two-octet big-endian length and that many
 *      octets, decoded with the extension on only while the exchange is
 *      (XCH-XOP-11); an error goes to rpcrdma2_xch_refused(), an
 *      RDMA2_XCH_* message to rpcrdma2_xch_recv();
 *   1: rpcrdma2_xch_request_rbsiz() with the next four octets;
 *   2: rpcrdma2_xch_update_rbsiz() with the next four octets;
 *   3: an INVAL_HTYPE error whose xid is one of the four RDMA2_XCH_*
 *      types (bits 2-3 of the event octet).
 * Octet 0: bit 0 requester (client), bit 1 the xchar parameter,
 * bit 2 Version 1, bits 3-4 our Receive size (1, 4, 8 or 64 KiB),
 * bits 5-6 our Send size (same), bit 7 the R bit.  Octet 1: bits 0-1
 * the peer's CONNPROP RBSIZ, bits 2-3 its SBSIZ (1, 2, 4 KiB or
 * 1 MiB), bits 4-5 its BRS, bits 6-7 ours.
 *
 * Checked after every event, beyond what the sanitizers see:
 *  - whatever the exchange sends decodes for a peer with the extension
 *    on, as the operation expected: INITXCH within 1024 octets
 *    (XCH-INLINE-05) with RBSIZ the only element that may change
 *    (XCH-XOP-15); a RESPXCH under the REQXCH's xid (XCH-XOP-19)
 *    whose done, rej and pend cover each element of the request
 *    exactly once (XCH-XOP-21); an unsolicited UPDXCH that only raises
 *    RBSIZ up to the posted size (XCH-INLINE-02, XCH-XOP-10) with
 *    pendclr FALSE (XCH-XOP-25);
 *  - the applied limits never exceed what Version 2 settled
 *    (V2-INLINE-08) nor fall below 1024 (V2-PROP-19), and while our
 *    REQXCH is pending we send no more than it asked (XCH-INLINE-04);
 *  - our RBSIZ stays between 1024 and the posted Receive size
 *    (XCH-INLINE-01) and falls only in answer to a REQXCH
 *    (XCH-INLINE-03);
 *  - RPCRDMA2_XCH_APPLIED is returned exactly when a limit changed;
 *  - an error that is not a refusal of ours, and a RESPXCH that does
 *    not answer our pending REQXCH, change nothing (XCH-XOP-20);
 *  - a refused or disabled exchange leaves the settled limits as they
 *    were (XCH-XOP-11), and never comes back on.
 */
#include <string.h>

#include <linux/unaligned.h>

#include "fuzz.h"
#include "shared/nego.h"

#define OUT_SIZE	128	/* as the halves' buffers */
#define CREDIT		0x00200020

static const struct rpcrdma2_limits peer_lim = { .xchar = true };

/* What is compared to tell "nothing changed". */
struct snap {
	u32			send, recv, brs;
	struct rpcrdma2_xch	x;
};

static void take(struct snap *s, const struct rpcrdma2_conn *c)
{
	memset(s, 0, sizeof(*s));
	s->send = c->send_inline;
	s->recv = c->recv_inline;
	s->brs = c->peer_props.brs;
	memcpy(&s->x, &c->xch, sizeof(s->x));
}

static bool limits_changed(const struct snap *a, const struct snap *b)
{
	return a->send != b->send || a->recv != b->recv || a->brs != b->brs;
}

/* Decode what we sent, as the peer with the extension on would. */
static void decode_sent(const u8 *out, u32 len, u32 htype,
			struct rpcrdma2_hdr *h)
{
	RR2_CHECK(len >= RPCRDMA2_HDR_PREFIX_SIZE && len <= OUT_SIZE);
	RR2_CHECK(rpcrdma2_decode_hdr(out, len, RPCRDMA2_VERS_2, &peer_lim,
				      h) == 0);
	RR2_CHECK(h->htype == htype);
	RR2_CHECK(h->hdrlen == len);		/* no RPC payload (XCH-XOP-01) */
}

static void check_hello(const struct rpcrdma2_conn *c, const u8 *out,
			u32 len)
{
	struct rpcrdma2_hdr h;

	RR2_CHECK(len <= RPCRDMA2_V1_DEF_INLINE);	/* XCH-INLINE-05 */
	decode_sent(out, len, RDMA2_XCH_INITXCH, &h);
	RR2_CHECK(h.xid == RPCRDMA2_XCH_XID(RDMA2_XCH_INITXCH));
	/* XCH-XOP-14: every characteristic we have, as we hold them */
	RR2_CHECK(h.xch.chars.present == c->xch.local.present);
	RR2_CHECK(h.xch.chars.rbsiz == c->xch.local.rbsiz);
	RR2_CHECK(h.xch.chars.brs == c->xch.local.brs);
	/* XCH-XOP-15: RBSIZ (element 0) alone may change */
	RR2_CHECK(!(h.xch.subset[0][0] & 1));
}

/* Our RESPXCH to the REQXCH @req (XCH-XOP-19, XCH-XOP-21). */
static void check_answer(const struct rpcrdma2_hdr *req, const u8 *out,
			 u32 len)
{
	struct rpcrdma2_hdr h;
	u32 i, want, d, r, p;

	decode_sent(out, len, RDMA2_XCH_RESPXCH, &h);
	RR2_CHECK(h.xid == req->xid);
	for (i = 0; i < RPCRDMA2_XCH_SUBSET_WORDS; i++) {
		if (req->xch.chars.count >= 32 * (i + 1))
			want = ~0u;
		else if (req->xch.chars.count <= 32 * i)
			want = 0;
		else
			want = (1u << (req->xch.chars.count - 32 * i)) - 1;
		d = h.xch.subset[0][i];
		r = h.xch.subset[1][i];
		p = h.xch.subset[2][i];
		RR2_CHECK(!(d & r) && !(d & p) && !(r & p));
		RR2_CHECK((d | r | p) == want);
	}
}

static void check_limits(const struct rpcrdma2_conn *c,
			 const struct rpcrdma2_local *l, const struct snap *nego)
{
	const struct rpcrdma2_xch *x = &c->xch;

	/* V2-INLINE-08: never above what Version 2 settled */
	RR2_CHECK(c->send_inline <= nego->send && c->send_inline <= l->send_size);
	RR2_CHECK(c->recv_inline <= nego->recv && c->recv_inline <= l->recv_size);
	RR2_CHECK(c->peer_props.brs <= nego->brs);
	/* V2-PROP-19, as for RBSIZ: nothing below 1024 is believed */
	RR2_CHECK(c->send_inline >= 1024 && c->recv_inline >= 1024);
	/* XCH-INLINE-01: what we announce, our Receives hold */
	RR2_CHECK(x->local.rbsiz >= RPCRDMA2_XCH_MIN_RBSIZ &&
		  x->local.rbsiz <= x->rbsiz_max &&
		  x->rbsiz_max == l->recv_size);
	if (x->on && x->req_pending)			/* XCH-INLINE-04 */
		RR2_CHECK(c->send_inline <= x->req_rbsiz);
	if (!x->on) {					/* XCH-XOP-11 */
		RR2_CHECK(c->send_inline == nego->send &&
			  c->recv_inline == nego->recv &&
			  c->peer_props.brs == nego->brs);
		RR2_CHECK(!rpcrdma2_xch_no_reminv(c));
	}
}

/* Nothing goes backwards: off stays off, counters only grow. */
static void check_progress(const struct snap *b, const struct rpcrdma2_conn *c)
{
	const struct rpcrdma2_xch *x = &c->xch;

	if (!b->x.on)
		RR2_CHECK(!x->on);
	if (b->x.refused)
		RR2_CHECK(x->refused && !x->on);
	if (b->x.peer_init)
		RR2_CHECK(x->peer_init);
	RR2_CHECK(x->sent >= b->x.sent && x->received >= b->x.received);
	RR2_CHECK(x->applied >= b->x.applied);
}

/* A message received: errors and RDMA2_XCH_* go to the exchange. */
static void recv_msg(struct rpcrdma2_conn *c, const u8 *msg, u32 len)
{
	struct rpcrdma2_limits lim = { .xchar = c->xch.on };
	static u8 out[OUT_SIZE];
	struct rpcrdma2_hdr h;
	struct snap b, a;
	u32 outlen = ~0u;
	int act;

	if (rpcrdma2_decode_hdr(msg, len, c->vers, &lim, &h))
		return;
	take(&b, c);
	if (h.htype == RDMA2_ERROR) {
		if (!rpcrdma2_xch_refused(c, &h)) {
			take(&a, c);
			RR2_CHECK(!memcmp(&a, &b, sizeof(a)));
		}
		return;
	}
	if (!rpcrdma2_xch_htype(h.htype))
		return;
	RR2_CHECK(lim.xchar);			/* else INVAL_HTYPE */
	act = rpcrdma2_xch_recv(c, &h, CREDIT, out, sizeof(out), &outlen);
	take(&a, c);
	RR2_CHECK(!(act & ~(RPCRDMA2_XCH_APPLIED | RPCRDMA2_XCH_ANSWER)));
	RR2_CHECK(!!(act & RPCRDMA2_XCH_APPLIED) == limits_changed(&b, &a));
	RR2_CHECK(a.x.received == b.x.received + 1);
	/* XCH-XOP-18: each REQXCH, and only a REQXCH, is answered */
	RR2_CHECK(!!(act & RPCRDMA2_XCH_ANSWER) ==
		  (h.htype == RDMA2_XCH_REQXCH));
	RR2_CHECK((act & RPCRDMA2_XCH_ANSWER) ? outlen > 0 : outlen == 0);
	if (act & RPCRDMA2_XCH_ANSWER) {
		check_answer(&h, out, outlen);
		RR2_CHECK(a.x.sent == b.x.sent + 1);
	}
	if (h.htype != RDMA2_XCH_REQXCH)	/* XCH-INLINE-03 */
		RR2_CHECK(a.x.local.rbsiz == b.x.local.rbsiz);
	if (h.htype == RDMA2_XCH_RESPXCH &&
	    (!b.x.req_pending ||
	     h.xid != RPCRDMA2_XCH_XID(RDMA2_XCH_REQXCH))) {
		/* not an answer to ours: stale, nothing changes */
		b.x.received++;
		RR2_CHECK(!memcmp(&a, &b, sizeof(a)));
	}
}

static void request(struct rpcrdma2_conn *c, u32 want)
{
	static u8 out[OUT_SIZE];
	struct rpcrdma2_hdr h;
	struct snap b;
	u32 len;

	take(&b, c);
	len = rpcrdma2_xch_request_rbsiz(c, want, CREDIT, out, sizeof(out));
	if (!len) {
		struct snap a;

		take(&a, c);
		RR2_CHECK(!memcmp(&a, &b, sizeof(a)));
		return;
	}
	RR2_CHECK(b.x.on && !b.x.req_pending);	/* one at a time */
	decode_sent(out, len, RDMA2_XCH_REQXCH, &h);
	RR2_CHECK(h.xid == RPCRDMA2_XCH_XID(RDMA2_XCH_REQXCH));
	RR2_CHECK(h.xch.chars.present == 1u << (XCHAR_RBSIZ - 1) &&
		  h.xch.chars.count == 1 && h.xch.chars.rbsiz == want);
	RR2_CHECK(c->xch.req_pending && c->xch.req_rbsiz == want);
}

static void update(struct rpcrdma2_conn *c, u32 rbsiz)
{
	static u8 out[OUT_SIZE];
	struct rpcrdma2_hdr h;
	struct snap b;
	u32 len;

	take(&b, c);
	len = rpcrdma2_xch_update_rbsiz(c, rbsiz, CREDIT, out, sizeof(out));
	if (!len) {
		struct snap a;

		take(&a, c);
		RR2_CHECK(!memcmp(&a, &b, sizeof(a)));
		return;
	}
	/* XCH-INLINE-02, XCH-XOP-10: only a rise, up to the posted size */
	RR2_CHECK(b.x.on && rbsiz > b.x.local.rbsiz &&
		  rbsiz <= b.x.rbsiz_max);
	decode_sent(out, len, RDMA2_XCH_UPDXCH, &h);
	RR2_CHECK(h.xid == RPCRDMA2_XCH_XID(RDMA2_XCH_UPDXCH));
	RR2_CHECK(h.xch.chars.present == 1u << (XCHAR_RBSIZ - 1) &&
		  h.xch.chars.rbsiz == rbsiz);
	RR2_CHECK(!h.xch.pendclr);		/* XCH-XOP-25 */
	RR2_CHECK(c->xch.local.rbsiz == rbsiz);
}

/* An INVAL_HTYPE under the xid of one of the operations. */
static void refused(struct rpcrdma2_conn *c, u32 which)
{
	u32 xid = RPCRDMA2_XCH_XID(RDMA2_XCH_INITXCH + which);
	struct rpcrdma2_hdr h = {
		.xid = xid, .vers = c->vers, .htype = RDMA2_ERROR,
		.err = RDMA2_ERR_INVAL_HTYPE,
	};
	struct snap b, a;
	bool r;

	take(&b, c);
	r = rpcrdma2_xch_refused(c, &h);
	take(&a, c);
	if (!r) {
		RR2_CHECK(!memcmp(&a, &b, sizeof(a)));
		return;
	}
	RR2_CHECK(b.x.on && c->vers == RPCRDMA2_VERS_2);
	if (xid == RPCRDMA2_XCH_XID(RDMA2_XCH_REQXCH)) {
		RR2_CHECK(c->xch.on && !c->xch.req_pending);	/* XCH-XOP-09 */
	} else {
		RR2_CHECK(xid != RPCRDMA2_XCH_XID(RDMA2_XCH_RESPXCH));
		RR2_CHECK(!c->xch.on && c->xch.refused);	/* XCH-XOP-11 */
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static const u32 ours[] = { 1024, 4096, 8192, 65536 };
	static const u32 theirs[] = { 1024, 2048, 4096, 1 << 20 };
	static const struct rpcrdma2_cm_pdata pd = {
		.send_size = 1024, .recv_size = 1024,
	};
	static struct rpcrdma2_conn c;
	static u8 out[OUT_SIZE];
	struct rpcrdma2_local l = {
		.max_vers = RPCRDMA2_VERS_2,
		.max_seg_size = 1 << 20, .max_segs = 16,
		.credits = CREDIT,
	};
	struct snap nego, b;
	u32 len, n, v;
	u8 cfg, cfg2, ev;

	if (size < 2 || size > 65536)
		return 0;
	cfg = *data++;
	cfg2 = *data++;
	size -= 2;
	l.recv_size = ours[(cfg >> 3) & 3];
	l.send_size = ours[(cfg >> 5) & 3];
	l.remote_inv = cfg & 0x80;
	l.brs = cfg2 >> 6;

	/* a connection settled as nego.c leaves it */
	rpcrdma2_conn_init(&c, &pd);
	c.vers = (cfg & 4) ? RPCRDMA2_VERS_1 : RPCRDMA2_VERS_2;
	c.peer_props.rbsiz = theirs[cfg2 & 3];
	c.peer_props.sbsiz = theirs[(cfg2 >> 2) & 3];
	c.peer_props.brs = (cfg2 >> 4) & 3;
	rpcrdma2_conn_thresholds(&c, &l);
	take(&nego, &c);
	rpcrdma2_xch_start(&c, &l, cfg & 2, cfg & 1);
	RR2_CHECK(c.xch.on == ((cfg & 2) && !(cfg & 4)));

	len = rpcrdma2_xch_hello(&c, CREDIT, out, sizeof(out));
	RR2_CHECK(!len == !c.xch.on);
	if (len)
		check_hello(&c, out, len);
	check_limits(&c, &l, &nego);

	for (n = 0; n < 16 && size >= 1; n++) {
		ev = *data++;
		size--;
		take(&b, &c);
		switch (ev & 3) {
		case 0:
			if (size < 2)
				return 0;
			len = (u32)data[0] << 8 | data[1];
			data += 2;
			size -= 2;
			if (len > size)
				len = size;
			recv_msg(&c, data, len);
			data += len;
			size -= len;
			break;
		case 1:
		case 2:
			if (size < 4)
				return 0;
			v = get_unaligned_be32(data);
			data += 4;
			size -= 4;
			if ((ev & 3) == 1)
				request(&c, v);
			else
				update(&c, v);
			break;
		case 3:
			refused(&c, (ev >> 2) & 3);
			break;
		}
		check_limits(&c, &l, &nego);
		check_progress(&b, &c);
	}
	return 0;
}
