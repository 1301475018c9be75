// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for the first messages of a connection: the client's and
 * the server's negotiation state machines (nego.c), fed a sequence of
 * received messages until they settle or give up.
 *
 * Input: one configuration octet, then messages, each a two-octet
 * big-endian length and that many octets (at most 8 messages).  The
 * octet picks the role (bit 0: server), the server's highest version
 * (bit 1: Version 1 only), the R bit (bit 2) and the peer's RFC 8797 record
 * (bits 3-4: 1 KiB, as when none came (CMP-INLINE-01), 2, 4 or 32 KiB).
 *
 * Checked on every input, beyond what the sanitizers see:
 *  - every message the machine asks us to send fits the buffer and
 *    decodes as a valid Version 2 header of the expected type (our own
 *    CONNPROP, or an error);
 *  - once settled, the version is 1 or 2 and at most rdmavers, the
 *    thresholds are at least 1024 (V2-PROP-19) and at most our buffer
 *    sizes (V2-INLINE-08), and the version never changes again;
 *  - after FAIL nothing more is processed.
 */
#include <string.h>

#include <linux/unaligned.h>

#include "fuzz.h"
#include "shared/nego.h"

#define OUT_SIZE	8192

enum expect { EXPECT_CONNPROP, EXPECT_ERROR, EXPECT_EITHER };

static void check_sent(const u8 *out, u32 outlen, enum expect want)
{
	struct rpcrdma2_limits lim = { 0, 0, 0, false };
	struct rpcrdma2_hdr h;
	u32 low, high;

	RR2_CHECK(outlen >= RPCRDMA2_HDR_PREFIX_SIZE && outlen <= OUT_SIZE);
	if (want != EXPECT_CONNPROP) {
		/* a Version 1 ERR_VERS, whose vers word echoes the Call (V2-ERR-03) */
		if (rpcrdma2_classify_first_reply(out, outlen, &low, &high) ==
		    RPCRDMA2_FIRST_V1_ERR_VERS)
			return;
		/* an error echoes the ingress rdma_vers (V2-ERR-03) */
		if (get_unaligned_be32(out + 4) != RPCRDMA2_VERS_2) {
			RR2_CHECK(get_unaligned_be32(out + 12) == RDMA2_ERROR);
			return;
		}
	}
	RR2_CHECK(rpcrdma2_decode_hdr(out, outlen, RPCRDMA2_VERS_2, &lim,
				      &h) == 0);
	if (want == EXPECT_CONNPROP)
		RR2_CHECK(h.htype == RDMA2_CONNPROP);
	else if (want == EXPECT_ERROR)
		RR2_CHECK(h.htype == RDMA2_ERROR);
	else
		RR2_CHECK(h.htype == RDMA2_CONNPROP || h.htype == RDMA2_ERROR);
}

static void check_settled(const struct rpcrdma2_conn *c,
			  const struct rpcrdma2_local *l)
{
	RR2_CHECK(c->vers >= RPCRDMA2_VERS_1 && c->vers <= l->max_vers);
	RR2_CHECK(c->send_inline >= 1024 && c->send_inline <= l->send_size);
	RR2_CHECK(c->recv_inline >= 1024 && c->recv_inline <= l->recv_size);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static const u32 pdata_sizes[] = { 1024, 2048, 4096, 32768 };
	static struct rpcrdma2_conn c;
	static u8 out[OUT_SIZE];
	struct rpcrdma2_cm_pdata pd = { 0 };
	struct rpcrdma2_local l = {
		.send_size = 4096, .recv_size = 4096,
		.max_seg_size = 1 << 20, .max_segs = 16,
		.brs = 0, .credits = rpcrdma2_credit_word(32, 64),
	};
	enum rpcrdma2_nego r;
	u32 settled = 0, outlen, len, n;
	bool server;
	u8 cfg;

	if (size < 1 || size > 65536)
		return 0;
	cfg = *data++;
	size--;
	server = cfg & 1;
	/* a client with rdmavers=1 settles at once, without nego.c */
	l.max_vers = (server && (cfg & 2)) ? RPCRDMA2_VERS_1 : RPCRDMA2_VERS_2;
	l.remote_inv = cfg & 4;
	pd.send_size = pdata_sizes[(cfg >> 3) & 3];
	pd.recv_size = pd.send_size;
	rpcrdma2_conn_init(&c, &pd);

	if (!server) {
		outlen = rpcrdma2_nego_client_hello(&l, 1, out, sizeof(out));
		RR2_CHECK(outlen <= 1024);	/* V2-FRAME-15 */
		check_sent(out, outlen, EXPECT_CONNPROP);
	}

	for (n = 0; n < 8 && size >= 2; n++) {
		len = (u32)data[0] << 8 | data[1];
		data += 2;
		size -= 2;
		if (len > size)
			len = size;
		outlen = 0;
		if (server)
			r = rpcrdma2_nego_server_recv(&c, &l, data, len, out,
						      sizeof(out), &outlen);
		else
			r = rpcrdma2_nego_client_recv(&c, &l, data, len, out,
						      sizeof(out), &outlen);
		data += len;
		size -= len;
		RR2_CHECK(r <= RPCRDMA2_NEGO_NO_VERS);
		/* the client-only verdicts settle nothing */
		if (r == RPCRDMA2_NEGO_NO_VERS)
			RR2_CHECK(!server && !c.vers);
		/* the client settles on a bad final CONNPROP with BAD_PROPVAL */
		if (r == RPCRDMA2_NEGO_REPLY)
			check_sent(out, outlen, EXPECT_EITHER);
		if (r == RPCRDMA2_NEGO_REJECT || r == RPCRDMA2_NEGO_REJECT_REPLY)
			check_sent(out, outlen, EXPECT_ERROR);
		if (r == RPCRDMA2_NEGO_REJECT_REPLY) {
			RR2_CHECK(server);
			outlen = rpcrdma2_nego_server_hello(&l, out, sizeof(out));
			check_sent(out, outlen, EXPECT_CONNPROP);
		}
		if (r == RPCRDMA2_NEGO_FAIL || r == RPCRDMA2_NEGO_NO_VERS)
			break;
		if (r == RPCRDMA2_NEGO_MORE || r == RPCRDMA2_NEGO_REJECT)
			continue;
		/* DONE, REPLY, RPC, REJECT_REPLY: settled */
		check_settled(&c, &l);
		if (settled)
			RR2_CHECK(c.vers == settled);
		settled = c.vers;
		break;	/* later messages go through the settled path */
	}
	return 0;
}
