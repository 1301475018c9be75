// SPDX-License-Identifier: GPL-2.0-only
/*
 * The raw peers of the rpcrdma2 suites under real RPC (tests/fixture.h):
 * a raw client QP on the test service's listener, the RPC-over-RDMA and
 * RPC headers it sends, the server's answers it takes, memory it
 * registers with FRWR as a client does, and the sysctls and counters the
 * cases read and set.
 */

#include <kunit/test.h>
#include <linux/kthread.h>
#include <linux/sunrpc/addr.h>
#include <linux/sunrpc/bc_xprt.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/metrics.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/svcsock.h>
#include <linux/sunrpc/xprtrdma.h>
#include <linux/prandom.h>
#include <linux/sysctl.h>
#include <linux/unaligned.h>

#include "rpcrdma2.h"
#include "client/client.h"
#include "server/server.h"
#include "shared/codec.h"
#include "shared/fault.h"
#include "shared/nego.h"
#include "tests/env.h"
#include "tests/hooks.h"
#include "tests/fixture.h"

/* ---- malformed messages from a raw QP ---- */

void rr2r_raw_cleanup(void *data)
{
	rpcrdma2_test_disconnect(data);
}

/*
 * A raw client QP with @nr_recv Receives (0: the default), connected to
 * the listener with the private data @pdata.
 */
struct rpcrdma2_test_conn *rr2r_raw_pdata(struct kunit *test, u32 nr_recv,
					  enum rpcrdma2_test_pdata pdata)
{
	enum rpcrdma2_test_link link = rr2r_link_of(test);
	struct rpcrdma2_test_conn *conn;
	int ret;

	conn = kunit_kzalloc(test, sizeof(*conn), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, conn);
	rpcrdma2_test_conn_init(conn, &rr2r_envs[link]);
	conn->nr_recv = nr_recv;
	conn->pdata = pdata;
	ret = kunit_add_action_or_reset(test, rr2r_raw_cleanup, conn);
	KUNIT_ASSERT_EQ(test, ret, 0);
	ret = rpcrdma2_test_dial(conn, (struct sockaddr *)&rr2r_svc.addr[link]);
	KUNIT_ASSERT_EQ(test, ret, 0);
	return conn;
}

/* A raw client QP with @nr_recv Receives, connected to the listener. */
struct rpcrdma2_test_conn *rr2r_raw_n(struct kunit *test, u32 nr_recv)
{
	return rr2r_raw_pdata(test, nr_recv, 0);
}

struct rpcrdma2_test_conn *rr2r_raw(struct kunit *test)
{
	return rr2r_raw_n(test, 1);
}

/* Post one message from the raw QP. */
void rr2r_raw_send(struct kunit *test, struct rpcrdma2_test_conn *c,
		   const void *msg, u32 len)
{
	struct rpcrdma2_test_ep *ep = &c->client;

	memcpy(rpcrdma2_test_send_buf(ep), msg, len);
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_post_send(ep, len));
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_wait_send(ep));
}

u32 rr2r_hdr(u8 *b, u32 xid, u32 vers, u32 htype, u32 flags)
{
	put_unaligned_be32(xid, b);
	put_unaligned_be32(vers, b + 4);
	put_unaligned_be32(rpcrdma2_credit_word(8, 8), b + 8);
	put_unaligned_be32(htype, b + 12);
	put_unaligned_be32(flags, b + 16);
	return 20;
}

/* ---- the server, from a raw QP ---- */

/* An RPC Call header (AUTH_NULL) for @proc of @prog: 40 octets. */
u32 rr2r_rpc_call(u8 *p, u32 xid, u32 prog, u32 proc)
{
	static const u32 w[] = { 0, RPC_CALL, 2, 0, RR2R_VERS, 0, 0, 0, 0, 0 };
	u32 i;

	for (i = 0; i < ARRAY_SIZE(w); i++)
		put_unaligned_be32(w[i], p + 4 * i);
	put_unaligned_be32(xid, p);
	put_unaligned_be32(prog, p + 12);
	put_unaligned_be32(proc, p + 20);
	return 40;
}

/* An accepted RPC Reply with accept_stat @stat: 24 octets. */
u32 rr2r_rpc_reply(u8 *p, u32 xid, u32 stat)
{
	memset(p, 0, 24);
	put_unaligned_be32(xid, p);
	put_unaligned_be32(RPC_REPLY, p + 4);
	put_unaligned_be32(stat, p + 20);
	return 24;
}

/* A Version 2 MSG header without chunks: 36 octets. */
u32 rr2r_msg2(u8 *b, u32 xid, u32 flags)
{
	u32 n = rr2r_hdr(b, xid, RPCRDMA2_VERS_2, RDMA2_MSG, flags);

	memset(b + n, 0, 16);
	return n + 16;
}

/* A Version 1 RDMA_MSG header without chunks: 28 octets. */
u32 rr2r_msg1(u8 *b, u32 xid)
{
	put_unaligned_be32(xid, b);
	put_unaligned_be32(RPCRDMA2_VERS_1, b + 4);
	put_unaligned_be32(32, b + 8);
	put_unaligned_be32(RDMA_MSG, b + 12);
	memset(b + 16, 0, 12);
	return 28;
}

/*
 * The next message @ep received, decoded as a @vers peer, its payload
 * copied to @pl (up to 64 octets).  Returns the payload length.
 */
u32 rr2r_take(struct kunit *test, struct rpcrdma2_test_ep *ep,
	      u32 vers, struct rpcrdma2_hdr *h, u8 *pl)
{
	static const struct rpcrdma2_limits lim = {
		.max_write_chunks = RR2S_MAX_WRITE_CHUNKS,
		.max_segments = 64,
		.xchar = true,		/* the server's, when it runs it */
	};
	u32 len, plen = 0;
	int ret;

	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_wait_recv(ep));
	len = rpcrdma2_test_recv_len(ep);
	ret = rpcrdma2_decode_hdr(rpcrdma2_test_recv_buf(ep), len, vers,
				  &lim, h);
	KUNIT_ASSERT_EQ(test, ret, 0);
	if (pl) {
		plen = len - h->hdrlen;
		memcpy(pl, (u8 *)rpcrdma2_test_recv_buf(ep) + h->hdrlen,
		       min_t(u32, plen, 64));
	}
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_post_recv(ep));
	return plen;
}

/* Settle Version 2 from the raw client; the server's CONNPROP in @h. */
void rr2r_raw_settle_v2(struct kunit *test, struct rpcrdma2_test_conn *c,
			u32 brs, struct rpcrdma2_hdr *h)
{
	struct rpcrdma2_local local = {
		.max_vers = RPCRDMA2_VERS_2, .send_size = 4096,
		.recv_size = 4096, .brs = brs,
		.credits = rpcrdma2_credit_word(8, 8),
	};
	u8 msg[128];
	u32 n;

	n = rpcrdma2_nego_client_hello(&local, 0x2222, msg, sizeof(msg));
	KUNIT_ASSERT_NE(test, n, 0);
	rr2r_raw_send(test, c, msg, n);
	rr2r_take(test, &c->client, RPCRDMA2_VERS_2, h, NULL);
	KUNIT_ASSERT_EQ(test, h->htype, RDMA2_CONNPROP);
}

/*
 * The prologue of the raw client's cases: both roles capped at
 * Version 2, a raw client with @nr_recv Receives that
 * settles Version 2 with @brs; the server's CONNPROP in @h.
 */
struct rpcrdma2_test_conn *rr2r_raw_start(struct kunit *test, u32 nr_recv,
					  u32 brs, struct rpcrdma2_hdr *h)
{
	struct rpcrdma2_test_conn *raw;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	raw = rr2r_raw_n(test, nr_recv);
	rr2r_raw_settle_v2(test, raw, brs, h);
	return raw;
}

/* ---- chunks, from a raw QP that registers memory as a client does ---- */

static void rr2r_mr_free(void *data)
{
	struct rr2r_mr *m = data;
	u32 i;

	if (m->mr)
		ib_dereg_mr(m->mr);
	if (m->nents > 0)
		ib_dma_unmap_sg(m->dev, m->sgl, m->npages, DMA_BIDIRECTIONAL);
	for (i = 0; m->pages && i < m->npages; i++)
		if (m->pages[i])
			__free_page(m->pages[i]);
	kfree(m->pages);
	kfree(m->sgl);
}

/*
 * @len zeroed octets registered for remote Read and Write on the raw
 * client's QP (FRWR); the REG_MR work request goes out ahead of the
 * next Send.  The cleanup runs before the connection's.
 */
struct rr2r_mr *rr2r_mr(struct kunit *test,
			struct rpcrdma2_test_conn *raw, u32 len)
{
	struct rpcrdma2_test_ep *ep = &raw->client;
	struct ib_reg_wr reg = { };
	struct rr2r_mr *m;
	u32 i;
	int n;

	m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m);
	m->dev = ep->id->device;
	m->npages = DIV_ROUND_UP(len, PAGE_SIZE);
	m->pages = kcalloc(m->npages, sizeof(*m->pages), GFP_KERNEL);
	m->sgl = kcalloc(m->npages, sizeof(*m->sgl), GFP_KERNEL);
	n = kunit_add_action_or_reset(test, rr2r_mr_free, m);
	KUNIT_ASSERT_EQ(test, n, 0);
	KUNIT_ASSERT_TRUE(test, m->pages && m->sgl);
	sg_init_table(m->sgl, m->npages);
	for (i = 0; i < m->npages; i++) {
		m->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		KUNIT_ASSERT_NOT_NULL(test, m->pages[i]);
		sg_set_page(&m->sgl[i], m->pages[i], PAGE_SIZE, 0);
	}
	m->nents = ib_dma_map_sg(m->dev, m->sgl, m->npages, DMA_BIDIRECTIONAL);
	KUNIT_ASSERT_GT(test, m->nents, 0);
	m->mr = ib_alloc_mr(ep->ep.pd, IB_MR_TYPE_MEM_REG, m->npages);
	if (IS_ERR(m->mr)) {
		n = PTR_ERR(m->mr);
		m->mr = NULL;
		KUNIT_FAIL_AND_ABORT(test, "ib_alloc_mr: %d", n);
	}
	n = ib_map_mr_sg(m->mr, m->sgl, m->nents, NULL, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, n, m->nents);
	reg.wr.opcode = IB_WR_REG_MR;
	reg.mr = m->mr;
	reg.key = m->mr->rkey;
	reg.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ |
		     IB_ACCESS_REMOTE_WRITE;
	KUNIT_ASSERT_EQ(test, 0, ib_post_send(ep->id->qp, &reg.wr, NULL));
	return m;
}

/* What a Requester takes in a Reply: Write list and Reply chunk. */
const struct rpcrdma2_limits rr2r_reply_lim = {
	.max_write_chunks	= RR2S_MAX_WRITE_CHUNKS,
	.max_segments		= RR2S_MAX_SEGS,
};

/* A segment of @len octets at @off of @m. */
struct rpcrdma2_segment rr2r_seg(const struct rr2r_mr *m, u32 off,
				 u32 len)
{
	return (struct rpcrdma2_segment){
		.handle	= m->mr->rkey,
		.length	= len,
		.offset	= m->mr->iova + off,
	};
}

u8 *rr2r_mr_at(struct rr2r_mr *m, u32 off)
{
	return (u8 *)page_address(m->pages[off >> PAGE_SHIFT]) +
	       offset_in_page(off);
}

void rr2r_mr_put(struct rr2r_mr *m, u32 off, const u8 *src, u32 len)
{
	for (; len; len--)
		*rr2r_mr_at(m, off++) = *src++;
}

bool rr2r_mr_verify(struct rr2r_mr *m, u32 off, u32 len, u32 seed)
{
	u32 i;

	/* rxe and siw use virtual DMA: no sync stands between */
	for (i = 0; i < len; i++)
		if (*rr2r_mr_at(m, off + i) != rr2r_byte(seed, i))
			return false;
	return true;
}

/* The header of a Call with chunks, then its inline payload. */
u32 rr2r_chunk_call(u8 *b, u32 vers, u32 xid, bool nomsg, u32 inv,
		    const struct rpcrdma2_chunk_out *reads, u32 nr,
		    const struct rpcrdma2_chunk_out *writes, u32 nw,
		    const struct rpcrdma2_chunk_out *reply)
{
	struct rpcrdma2_msg_out m = {
		.xid		= xid,
		.vers		= vers,
		.credit		= rpcrdma2_credit_out(vers, 8),
		.htype		= nomsg ? RDMA2_NOMSG : RDMA2_MSG,
		.inv_handle	= inv,
		.nr_reads	= nr,
		.reads		= reads,
		.nr_writes	= nw,
		.writes		= writes,
		.reply		= reply,
	};

	return rpcrdma2_encode_msg(b, 1024, &m);
}

/* PUT or GET arguments after a 40-octet Call header: seed, length. */
u32 rr2r_args(u8 *p, u32 seed, u32 len)
{
	put_unaligned_be32(seed, p);
	put_unaligned_be32(len, p + 4);
	return 8;
}

/*
 * A raw client of @vers on a fresh connection: Version 2 is settled
 * first, Version 1 needs nothing.
 */
struct rpcrdma2_test_conn *rr2r_raw_vers(struct kunit *test, u32 vers)
{
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	raw = rr2r_raw(test);
	if (vers == RPCRDMA2_VERS_2)
		rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	return raw;
}

void rr2r_svc_xprt_put(void *data)
{
	svc_xprt_put(data);
}

/* ---- knobs and counters (/proc/sys/sunrpc, /proc/sys/sunrpc/svc_rdma) ---- */

/* The server's file @name, or the client's: the names do not overlap. */
struct ctl_table *rr2r_sysctl(struct kunit *test, const char *name)
{
	size_t i;

	for (i = 0; i < rpcrdma2_svc_sysctl_size; i++)
		if (!strcmp(rpcrdma2_svc_sysctl[i].procname, name))
			return &rpcrdma2_svc_sysctl[i];
	for (i = 0; i < rpcrdma2_clnt_sysctl_size; i++)
		if (!strcmp(rpcrdma2_clnt_sysctl[i].procname, name))
			return &rpcrdma2_clnt_sysctl[i];
	KUNIT_FAIL(test, "no sysctl %s", name);
	return NULL;
}

/* Write @val to a sysctl as "echo val > /proc/sys/..." would. */
int rr2r_sysctl_write(struct kunit *test, const char *name,
		      const char *val)
{
	struct ctl_table *t = rr2r_sysctl(test, name);
	char buf[32];
	size_t len;
	loff_t pos = 0;

	KUNIT_ASSERT_NOT_NULL(test, t);
	len = strscpy(buf, val, sizeof(buf));
	return t->proc_handler(t, 1, buf, &len, &pos);
}

unsigned long rr2r_sysctl_read(struct kunit *test, const char *name)
{
	struct ctl_table *t = rr2r_sysctl(test, name);
	char buf[32] = { };
	size_t len = sizeof(buf) - 1;
	unsigned long val;
	loff_t pos = 0;

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, 0, t->proc_handler(t, 0, buf, &len, &pos));
	buf[len] = '\0';
	KUNIT_ASSERT_EQ_MSG(test, 0, kstrtoul(strim(buf), 10, &val),
			    "%s reads \"%s\"", name, buf);
	return val;
}

void rr2r_knobs_reset(void *data)
{
	rr2s_knobs_reset();
}

void rr2r_clnt_knobs_reset(void *data)
{
	rr2c_knobs_reset();
}

/*
 * The server's connection for a client whose end is @sa, found by its
 * port, which the rdma_cm port space keeps unique: the address as the
 * two ends see it did not compare equal over rxe.
 */
struct rr2s_conn *rr2r_svc_conn_from(struct kunit *test,
				     struct sockaddr *sa)
{
	struct svc_serv *serv = rr2r_svc.serv;
	struct rr2s_conn *found = NULL;
	struct svc_xprt *x;

	spin_lock_bh(&serv->sv_lock);
	list_for_each_entry(x, &serv->sv_tempsocks, xpt_list)
		if (!strcmp(x->xpt_class->xcl_name, "rdma") &&
		    x->xpt_remote.ss_family == sa->sa_family &&
		    rpc_get_port((struct sockaddr *)&x->xpt_remote) ==
		    rpc_get_port(sa))
			found = rr2s_conn(x);
	spin_unlock_bh(&serv->sv_lock);
	KUNIT_ASSERT_NOT_NULL_MSG(test, found, "no connection from %pISpc", sa);
	return found;
}

/* The server's connection for a raw client. */
struct rr2s_conn *rr2r_svc_conn(struct kunit *test,
				struct rpcrdma2_test_conn *raw)
{
	return rr2r_svc_conn_from(test, (struct sockaddr *)
				  &raw->client.id->route.addr.src_addr);
}

/* A NULL Call from @raw (Version 2, settled); its Reply's grant. */
u32 rr2r_null_grant(struct kunit *test,
		    struct rpcrdma2_test_conn *raw, u32 xid)
{
	struct rpcrdma2_hdr h;
	u8 msg[128];
	u32 n;

	n = rr2r_msg2(msg, xid, 0);
	n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_NULL);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_MSG);
	KUNIT_EXPECT_EQ(test, h.xid, xid);
	return rpcrdma2_credit_in(RPCRDMA2_VERS_2, h.credit);
}

/* Wait up to 10 s for @ep to have @want Receives posted. */
bool rr2r_posted_settles(struct rpcrdma2_ep *ep, u32 want)
{
	int i;

	for (i = 0; i < 200 && atomic_read(&ep->recvs_posted) != want; i++)
		msleep(50);
	return atomic_read(&ep->recvs_posted) == want;
}

void rr2r_send_faults_off(void *data)
{
	rr2s_test_fail_sends(0);
}

const char * const rr2r_counters[] = {
	"rdma_stat_read", "rdma_stat_recv", "rdma_stat_write",
	"rpcrdma2_read_chunks", "rpcrdma2_write_chunks",
	"rpcrdma2_rdma_read_bytes", "rpcrdma2_rdma_write_bytes",
	"rpcrdma2_send_inv", "rpcrdma2_conns_v1", "rpcrdma2_conns_v2",
	"rpcrdma2_err_bad_xdr", "rdma_stat_rq_poll", "rpcrdma2_nomsg_calls",
	"rpcrdma2_conns_accepted",
};

void rr2r_counters_read(struct kunit *test, unsigned long *v)
{
	u32 i;

	for (i = 0; i < RR2R_NR_C; i++)
		v[i] = rr2r_sysctl_read(test, rr2r_counters[i]);
}

void rr2r_release_holders(void *data)
{
	complete_all(&rr2r_svc.release);
}

/* HOLD, and a GET with RR2R_SEED_HOLD, wait from now until the case ends. */
void rr2r_hold_calls(struct kunit *test)
{
	reinit_completion(&rr2r_svc.release);
	atomic_set(&rr2r_svc.held, 0);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_release_holders,
							   NULL));
}

/*
 * A whole NULL Call under @xid; the next message from the server must
 * be its Reply: nothing was sent between the error before and it.
 */
void rr2r_expect_null_reply_next(struct kunit *test,
				 struct rpcrdma2_test_conn *raw,
				 u8 *msg, u32 xid)
{
	struct rpcrdma2_hdr h;
	u8 pl[64];
	u32 n, plen;

	n = rr2r_msg2(msg, xid, 0);
	n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_NULL);
	rr2r_raw_send(test, raw, msg, n);
	plen = rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_MSG);
	KUNIT_EXPECT_EQ(test, h.xid, xid);
	KUNIT_ASSERT_GE(test, plen, 24);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl), xid);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 20), RPC_SUCCESS);
}
