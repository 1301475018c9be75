// SPDX-License-Identifier: GPL-2.0-only
/*
 * Write the seed corpus of the fuzz targets from codec_vectors.h, so
 * that every golden and malformed vector the KUnit suite checks is also
 * replayed under the sanitizers.  Usage: mkcorpus DIR
 * (the checked-in corpus is tools/testing/fuzz/corpus).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <linux/kernel.h>
#include <linux/unaligned.h>

#include "shared/codec.h"
#include "tests/codec_vectors.h"

static void put(const char *dir, const char *target, unsigned int i,
		const u8 *pre, size_t prelen, const u8 *buf, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, target);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s/seed-%03u", dir, target, i);
	f = fopen(path, "wb");
	if (!f || fwrite(pre, 1, prelen, f) != prelen ||
	    fwrite(buf, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* A MSG or NOMSG with chunks and @plen octets of payload. */
static void put_msg(const char *dir, unsigned int i, const u8 cfg[4],
		    const struct rpcrdma2_msg_out *m, u32 plen)
{
	u8 buf[1024];
	u32 n = rpcrdma2_encode_msg(buf, sizeof(buf) - plen, m);

	if (!n) {
		fprintf(stderr, "mkcorpus: chunks seed %u does not encode\n", i);
		exit(1);
	}
	memset(buf + n, 0x5a, plen);
	put(dir, "chunks", i, cfg, 4, buf, n + plen);
}

/*
 * The chunks target: every vector as the server and as the client
 * takes it, then Calls and Replies with Read, Write and Reply chunks.
 */
static void put_chunks(const char *dir)
{
	static const u8 srv[4] = { 0, 4 | 7 << 3, 32, 0x40 };
	static const u8 cli[4] = { 1, 0, 0, 0 };
	static const struct rpcrdma2_segment segs[] = {
		{ 0x11, 100, 0x10000 }, { 0x12, 50, 0x20000 },
		{ 0x13, 3, 0x30000 }, { 0x14, 4096, 0x40000 },
	};
	const struct rpcrdma2_chunk_out reads[] = {
		{ 1, &segs[2], 16 }, { 2, &segs[0], 8 },
	};
	const struct rpcrdma2_chunk_out pz = { 2, &segs[0], 0 };
	const struct rpcrdma2_chunk_out wr = { 2, &segs[0], 0 };
	const struct rpcrdma2_chunk_out rp = { 1, &segs[3], 0 };
	struct rpcrdma2_msg_out m = {
		.xid = 0x1234, .vers = RPCRDMA2_VERS_2,
		.credit = 0x00200020, .htype = RDMA2_MSG,
	};
	u8 buf[sizeof(rr2_vectors[0].w)];
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(rr2_vectors); i++) {
		const struct rr2_vector *v = &rr2_vectors[i];
		u8 cfg[4] = { v->max_vers == 1 ? 2 : 0, 2 | 2 << 3, 3, 0 };

		for (j = 0; j < ARRAY_SIZE(v->w); j++)
			put_unaligned_be32(v->w[j], buf + 4 * j);
		put(dir, "chunks", i, cfg, 4, buf, v->len);
	}
	/* a Call: Read chunks at 16 and 8 (two segments), Write, Reply */
	m.nr_reads = 2;
	m.reads = reads;
	m.nr_writes = 1;
	m.writes = &wr;
	m.reply = &rp;
	put_msg(dir, 200, srv, &m, 24);
	/* a Special Format Call: the Position-Zero chunk */
	m.htype = RDMA2_NOMSG;
	m.nr_reads = 1;
	m.reads = &pz;
	m.nr_writes = 0;
	put_msg(dir, 201, srv, &m, 0);
	/* a Reply with its Write chunk filled, one with its Reply chunk */
	m.htype = RDMA2_MSG;
	m.nr_reads = 0;
	m.nr_writes = 1;
	m.reply = NULL;
	put_msg(dir, 202, cli, &m, 40);
	m.htype = RDMA2_NOMSG;
	m.nr_writes = 0;
	m.reply = &rp;
	put_msg(dir, 203, cli, &m, 0);
}

/* One received message of the xch target: event 0, length, octets. */
static size_t xch_msg(u8 *p, u32 htype, u32 xid,
		      const struct rpcrdma2_xch_msg *m)
{
	u32 len = rpcrdma2_encode_xch(p + 3, 256, xid, 0x00200020, htype, m);

	p[0] = 0;
	p[1] = len >> 8;
	p[2] = len;
	return 3 + len;
}

/* An event with a four-octet argument: 1 REQXCH, 2 UPDXCH. */
static size_t xch_op(u8 *p, u8 op, u32 v)
{
	p[0] = op;
	put_unaligned_be32(v, p + 1);
	return 5;
}

/*
 * The xch target: the peer's INITXCH, a REQXCH to answer, ours with
 * its RESPXCH (done) and an UPDXCH with pendclr, a rise of our own,
 * then an INVAL_HTYPE refusing the exchange.
 */
static void put_xch(const char *dir, unsigned int i, u8 cfg)
{
	struct rpcrdma2_xch_msg m;
	u8 buf[2048], pre[2] = { cfg, 0x22 };
	size_t n = 0;

	memset(&m, 0, sizeof(m));
	m.chars.present = 7;
	m.chars.rbsiz = 2048;
	m.chars.brs = BKREQSUP_GENL;
	m.subset[0][0] = 6;
	n += xch_msg(buf + n, RDMA2_XCH_INITXCH, 1, &m);
	memset(&m, 0, sizeof(m));
	m.chars.present = 1;
	m.chars.rbsiz = 2048;
	n += xch_msg(buf + n, RDMA2_XCH_REQXCH, 77, &m);
	n += xch_op(buf + n, 1, 1500);
	memset(&m, 0, sizeof(m));
	m.subset[0][0] = 1;
	n += xch_msg(buf + n, RDMA2_XCH_RESPXCH, RDMA2_XCH_REQXCH, &m);
	n += xch_op(buf + n, 2, 4096);
	memset(&m, 0, sizeof(m));
	m.chars.present = 1;
	m.chars.rbsiz = 8192;
	m.pendclr = true;
	n += xch_msg(buf + n, RDMA2_XCH_UPDXCH, 5, &m);
	buf[n++] = 3;		/* INVAL_HTYPE under our INITXCH's xid */
	put(dir, "xch", i, pre, sizeof(pre), buf, n);
}

int main(int argc, char **argv)
{
	u8 buf[sizeof(rr2_vectors[0].w)];
	unsigned int i, j;
	u8 cfg;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	mkdir(argv[1], 0755);
	for (i = 0; i < ARRAY_SIZE(rr2_vectors); i++) {
		const struct rr2_vector *v = &rr2_vectors[i];

		for (j = 0; j < ARRAY_SIZE(v->w); j++)
			put_unaligned_be32(v->w[j], buf + 4 * j);
		cfg = (v->max_vers == 1) | (v->xchar ? 0x80 : 0);
		put(argv[1], "hdr", i, &cfg, 1, buf, v->len);
		put(argv[1], "first_reply", i, NULL, 0, buf, v->len);
		if (v->len > RPCRDMA2_HDR_PREFIX_SIZE && v->w[1] == 2 &&
		    v->w[3] == RDMA2_CONNPROP)
			put(argv[1], "props", i, NULL, 0,
			    buf + RPCRDMA2_HDR_PREFIX_SIZE,
			    v->len - RPCRDMA2_HDR_PREFIX_SIZE);
	}
	for (i = 0; i < ARRAY_SIZE(rr2_stock_vectors); i++) {
		const struct rr2_stock_vector *v = &rr2_stock_vectors[i];

		for (j = 0; j < ARRAY_SIZE(v->w); j++)
			put_unaligned_be32(v->w[j], buf + 4 * j);
		cfg = 0x7e;	/* version 2, the largest caps */
		put(argv[1], "hdr", 100 + i, &cfg, 1, buf, v->len);
	}
	/* continuation: a sequence, a fault, a cap overrun (cont_test.c) */
	{
		static const u8 seq[] = { 16, 0, 0, 1, 200, 0, 0, 1, 200,
					  0, 0, 0, 10 };
		static const u8 fault[] = { 255, 0, 0, 1, 50, 1, 0, 1, 50,
					    0, 0, 0, 1, 1, 0, 0, 1 };
		static const u8 cap[] = { 1, 2, 2, 1, 10, 2, 2, 1, 10,
					  2, 2, 0, 10 };

		put(argv[1], "reasm", 0, NULL, 0, seq, sizeof(seq));
		put(argv[1], "reasm", 1, NULL, 0, fault, sizeof(fault));
		put(argv[1], "reasm", 2, NULL, 0, cap, sizeof(cap));
	}
	put_chunks(argv[1]);
	put_xch(argv[1], 0, 0x0b);	/* a client, 4 KiB Receives */
	put_xch(argv[1], 1, 0x1a);	/* a server, 64 KiB Receives */
	for (i = 0; i < ARRAY_SIZE(rr2_cmp_vectors); i++)
		put(argv[1], "cmp", i, NULL, 0, rr2_cmp_vectors[i].in,
		    rr2_cmp_vectors[i].len);
	return 0;
}
