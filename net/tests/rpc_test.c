// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rpcrdma2_rpc": the transport under real RPC, both halves
 * in one kernel.  A test RPC service (program RR2R_PROG) runs on an
 * svc_serv with an rpcrdma2 listener on each soft-RDMA device; an
 * rpc_clnt with XPRT_TRANSPORT_RDMA calls it.
 *
 *   PUT  (seed, opaque data)  -> (ok, length): the server checks every byte
 *   GET  (seed, length)       -> opaque data:   the client checks every byte
 *   HOLD ()                   -> ():             waits until the test says
 *
 * Cases run once per provider (rxe, siw):
 *   - sizes from 0 to 1 MiB each way, Version 2, continuation beyond the
 *     4096-octet threshold (V2-CONT-01, V2-CONT-02, V2-CONT-03, V2-INLINE-02);
 *   - the version matrix by per-role cap: v2/v2, v1 client/v2 server,
 *     v2 client/v1 server (fallback on ERR_VERS, V2-FRAME-18, V2-FRAME-23);
 *   - Version 1 beyond the inline thresholds: chunks (a Position-Zero
 *     Read chunk for PUT, a Write chunk for GET), which need the server
 *     half's chunk support;
 *   - a dropped connection is re-established under the same client, and
 *     after a fallback without negotiating again (V2-FRAME-19);
 *   - credit exhaustion: a client that has every credit in use gets the
 *     asynchronous grant (V2-CRED-05, V2-CRED-07, V2-CRED-08) and all Calls
 *     complete;
 *   - malformed messages from a raw QP get the required error or are
 *     dropped, while another connection keeps working (V2-SEC-17).
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

#define RR2R_PROG	0x2000f0a1
#define RR2R_VERS	1
#define RR2R_MAX	(1024 * 1024)
#define RR2R_NPAGES	(RR2R_MAX >> PAGE_SHIFT)
#define RR2R_HOLDERS	40
/* a GET with this seed waits as HOLD does before it answers */
#define RR2R_SEED_HOLD	0x484f4c44
/*
 * a GET with this seed answers its data twice: first inline, then as
 * the item a Write chunk may take, so a Reply with Writes is continued
 */
#define RR2R_SEED_TWICE	0x54574943

enum { RR2R_NULL, RR2R_PUT, RR2R_GET, RR2R_HOLD, RR2R_NPROCS };

/* client-only: GET into pages the transport must allocate */
#define RR2R_GET_SPARSE	RR2R_NPROCS
/* client-only: PUT whose data is not DDP-eligible (always continued) */
#define RR2R_PUT_CONT	(RR2R_NPROCS + 1)
#define RR2R_CLNT_NPROCS (RR2R_NPROCS + 2)

/* ---- the service ---- */

struct rr2r_service {
	struct svc_serv		*serv;
	struct sockaddr_storage	addr[RPCRDMA2_TEST_NR_LINKS];
	int			err[RPCRDMA2_TEST_NR_LINKS];
	struct completion	release;	/* HOLD returns */
	atomic_t		held;
};

static struct rr2r_service rr2r_svc;
static struct rpcrdma2_test_env rr2r_envs[RPCRDMA2_TEST_NR_LINKS];

static u8 rr2r_byte(u32 seed, u32 i)
{
	return (u8)(seed ^ (i * 7) ^ (i >> 9));
}

static __be32 rr2r_proc_null(struct svc_rqst *rqstp)
{
	return rpc_success;
}

static __be32 rr2r_proc_put(struct svc_rqst *rqstp)
{
	struct xdr_stream *xdr = &rqstp->rq_arg_stream;
	u32 seed, len, pos, i, k, n, ok = 1;
	u8 chunk[256];
	__be32 *p;

	if (xdr_stream_decode_u32(xdr, &seed) ||
	    xdr_stream_decode_u32(xdr, &len))
		return rpc_garbage_args;
	pos = xdr_stream_pos(xdr);
	if (len > rqstp->rq_arg.len - pos)
		return rpc_garbage_args;
	for (i = 0; i < len && ok; i += n) {
		n = min_t(u32, len - i, sizeof(chunk));
		if (read_bytes_from_xdr_buf(&rqstp->rq_arg, pos + i, chunk, n))
			return rpc_garbage_args;
		for (k = 0; k < n && ok; k++)
			ok = chunk[k] == rr2r_byte(seed, i + k);
	}
	p = xdr_reserve_space(&rqstp->rq_res_stream, 8);
	if (!p)
		return rpc_system_err;
	*p++ = cpu_to_be32(ok);
	*p = cpu_to_be32(len);
	return rpc_success;
}

static __be32 rr2r_proc_hold(struct svc_rqst *rqstp);

/* Encode @len octets of @seed's pattern as an opaque; its data's start. */
static int rr2r_encode_data(struct xdr_stream *xdr, u32 seed, u32 len)
{
	u32 i, n, k, pos;
	u8 *p;

	if (xdr_stream_encode_u32(xdr, len) < 0)
		return -EMSGSIZE;
	pos = xdr_stream_pos(xdr);
	for (i = 0; i < len; i += n) {
		n = min_t(u32, len - i, PAGE_SIZE);
		p = (u8 *)xdr_reserve_space(xdr, xdr_align_size(n));
		if (!p)
			return -EMSGSIZE;
		for (k = 0; k < n; k++)
			p[k] = rr2r_byte(seed, i + k);
		memset(p + n, 0, xdr_align_size(n) - n);
	}
	xdr_commit_encode(xdr);		/* the last piece may straddle pages */
	return pos;
}

static __be32 rr2r_proc_get(struct svc_rqst *rqstp)
{
	struct xdr_stream *xdr = &rqstp->rq_res_stream;
	u32 seed, len;
	int pos;

	if (xdr_stream_decode_u32(&rqstp->rq_arg_stream, &seed) ||
	    xdr_stream_decode_u32(&rqstp->rq_arg_stream, &len) ||
	    len > RR2R_MAX || (seed == RR2R_SEED_TWICE && len > RR2R_MAX / 2))
		return rpc_garbage_args;
	if (seed == RR2R_SEED_HOLD)
		rr2r_proc_hold(rqstp);
	if (seed == RR2R_SEED_TWICE && rr2r_encode_data(xdr, seed, len) < 0)
		return rpc_system_err;
	pos = rr2r_encode_data(xdr, seed, len);
	if (pos < 0)
		return rpc_system_err;
	/*
	 * the data may go in a Write chunk, as nfsd's READ data does; run
	 * as a callback (svc_process_bc) there is no transport to tell
	 */
	if (rqstp->rq_xprt && svc_encode_result_payload(rqstp, pos, len))
		return rpc_system_err;
	return rpc_success;
}

static __be32 rr2r_proc_hold(struct svc_rqst *rqstp)
{
	atomic_inc(&rr2r_svc.held);
	wait_for_completion_timeout(&rr2r_svc.release, 60 * HZ);
	return rpc_success;
}

static int rr2r_dispatch(struct svc_rqst *rqstp)
{
	*rqstp->rq_accept_statp = rqstp->rq_procinfo->pc_func(rqstp);
	return 1;
}

/* pc_func encodes the results itself; svc only needs pc_encode set. */
static bool rr2r_encode_done(struct svc_rqst *rqstp, struct xdr_stream *xdr)
{
	return true;
}

#define RR2R_SVC_PROC(fn, words) {				\
	.pc_func	= fn,					\
	.pc_encode	= rr2r_encode_done,			\
	.pc_xdrressize	= words,				\
	.pc_name	= #fn,					\
}

static const struct svc_procedure rr2r_svc_procs[RR2R_NPROCS] = {
	[RR2R_NULL] = RR2R_SVC_PROC(rr2r_proc_null, 1),
	[RR2R_PUT]  = RR2R_SVC_PROC(rr2r_proc_put, 2),
	[RR2R_GET]  = RR2R_SVC_PROC(rr2r_proc_get, 2 + RR2R_MAX / 4),
	[RR2R_HOLD] = RR2R_SVC_PROC(rr2r_proc_hold, 1),
};

static DEFINE_PER_CPU_ALIGNED(unsigned long, rr2r_svc_count[RR2R_NPROCS]);

static const struct svc_version rr2r_svc_version = {
	.vs_vers		= RR2R_VERS,
	.vs_nproc		= RR2R_NPROCS,
	.vs_proc		= rr2r_svc_procs,
	.vs_count		= rr2r_svc_count,
	.vs_xdrsize		= 8 + RR2R_MAX,
	.vs_dispatch		= rr2r_dispatch,
	.vs_hidden		= true,
	.vs_need_cong_ctrl	= true,
};

static const struct svc_version *rr2r_svc_versions[] = {
	[RR2R_VERS] = &rr2r_svc_version,
};

static enum svc_auth_status rr2r_authenticate(struct svc_rqst *rqstp)
{
	rqstp->rq_auth_stat = rpc_auth_ok;
	return SVC_OK;
}

static struct svc_program rr2r_svc_program = {
	.pg_prog		= RR2R_PROG,
	.pg_nvers		= ARRAY_SIZE(rr2r_svc_versions),
	.pg_vers		= rr2r_svc_versions,
	.pg_name		= "rpcrdma2-test",
	.pg_class		= "rpcrdma2-test",
	.pg_authenticate	= rr2r_authenticate,
	.pg_init_request	= svc_generic_init_request,
	.pg_rpcbind_set		= svc_generic_rpcbind_set,
};

static int rr2r_svc_thread(void *data)
{
	struct svc_rqst *rqstp = data;

	svc_thread_init_status(rqstp, 0);
	while (!svc_thread_should_stop(rqstp))
		svc_recv(rqstp);
	svc_exit_thread(rqstp);
	return 0;
}

/* ---- the client side ---- */

struct rr2r_args {
	u32		seed;
	u32		len;
	struct page	**pages;
};

struct rr2r_res {
	u32		ok;
	u32		len;
};

static void rr2r_enc_void(struct rpc_rqst *req, struct xdr_stream *xdr,
			  const void *data)
{
}

static int rr2r_dec_void(struct rpc_rqst *req, struct xdr_stream *xdr,
			 void *data)
{
	return 0;
}

static void rr2r_enc_put(struct rpc_rqst *req, struct xdr_stream *xdr,
			 const void *data)
{
	const struct rr2r_args *a = data;

	xdr_stream_encode_u32(xdr, a->seed);
	xdr_stream_encode_u32(xdr, a->len);
	xdr_write_pages(xdr, a->pages, 0, a->len);
	/* DDP-eligible, as NFS WRITE data is (Read chunks) */
	req->rq_snd_buf.flags |= XDRBUF_WRITE;
}

/* The same, not DDP-eligible: Version 2 continues it. */
static void rr2r_enc_put_cont(struct rpc_rqst *req, struct xdr_stream *xdr,
			      const void *data)
{
	const struct rr2r_args *a = data;

	xdr_stream_encode_u32(xdr, a->seed);
	xdr_stream_encode_u32(xdr, a->len);
	xdr_write_pages(xdr, a->pages, 0, a->len);
}

static int rr2r_dec_put(struct rpc_rqst *req, struct xdr_stream *xdr,
			void *data)
{
	struct rr2r_res *r = data;

	if (xdr_stream_decode_u32(xdr, &r->ok) ||
	    xdr_stream_decode_u32(xdr, &r->len))
		return -EIO;
	return 0;
}

static void rr2r_enc_get(struct rpc_rqst *req, struct xdr_stream *xdr,
			 const void *data)
{
	const struct rr2r_args *a = data;

	xdr_stream_encode_u32(xdr, a->seed);
	xdr_stream_encode_u32(xdr, a->len);
	rpc_prepare_reply_pages(req, a->pages, 0, a->len, 1);
	/* DDP-eligible, as NFS READ data: a Write chunk when offered */
	req->rq_rcv_buf.flags |= XDRBUF_READ;
}

/*
 * As NFSv3 GETACL does: hand the transport a page array with no pages
 * and XDRBUF_SPARSE_PAGES, for it to allocate what the Reply needs.
 */
static void rr2r_enc_get_sparse(struct rpc_rqst *req, struct xdr_stream *xdr,
				const void *data)
{
	rr2r_enc_get(req, xdr, data);
	req->rq_rcv_buf.flags |= XDRBUF_SPARSE_PAGES;
}

static int rr2r_dec_get(struct rpc_rqst *req, struct xdr_stream *xdr,
			void *data)
{
	struct rr2r_res *r = data;

	if (xdr_stream_decode_u32(xdr, &r->len))
		return -EIO;
	if (xdr_read_pages(xdr, r->len) != r->len)
		return -EIO;
	r->ok = 1;
	return 0;
}

static const struct rpc_procinfo rr2r_clnt_procs[RR2R_CLNT_NPROCS] = {
	[RR2R_NULL] = {
		.p_proc		= RR2R_NULL,
		.p_encode	= rr2r_enc_void,
		.p_decode	= rr2r_dec_void,
		.p_statidx	= RR2R_NULL,
		.p_name		= "NULL",
	},
	[RR2R_PUT] = {
		.p_proc		= RR2R_PUT,
		.p_encode	= rr2r_enc_put,
		.p_decode	= rr2r_dec_put,
		.p_arglen	= 2,
		.p_replen	= 2,
		.p_statidx	= RR2R_PUT,
		.p_name		= "PUT",
	},
	[RR2R_GET] = {
		.p_proc		= RR2R_GET,
		.p_encode	= rr2r_enc_get,
		.p_decode	= rr2r_dec_get,
		.p_arglen	= 2,
		.p_replen	= 1,
		.p_statidx	= RR2R_GET,
		.p_name		= "GET",
	},
	[RR2R_HOLD] = {
		.p_proc		= RR2R_HOLD,
		.p_encode	= rr2r_enc_void,
		.p_decode	= rr2r_dec_void,
		.p_statidx	= RR2R_HOLD,
		.p_name		= "HOLD",
	},
	[RR2R_GET_SPARSE] = {
		.p_proc		= RR2R_GET,
		.p_encode	= rr2r_enc_get_sparse,
		.p_decode	= rr2r_dec_get,
		.p_arglen	= 2,
		.p_replen	= 1,
		.p_statidx	= RR2R_GET_SPARSE,
		.p_name		= "GET_SPARSE",
	},
	[RR2R_PUT_CONT] = {
		.p_proc		= RR2R_PUT,
		.p_encode	= rr2r_enc_put_cont,
		.p_decode	= rr2r_dec_put,
		.p_arglen	= 2,
		.p_replen	= 2,
		.p_statidx	= RR2R_PUT_CONT,
		.p_name		= "PUT_CONT",
	},
};

static unsigned int rr2r_clnt_counts[RR2R_CLNT_NPROCS];

static const struct rpc_version rr2r_clnt_version = {
	.number		= RR2R_VERS,
	.nrprocs	= RR2R_CLNT_NPROCS,
	.procs		= rr2r_clnt_procs,
	.counts		= rr2r_clnt_counts,
};

static const struct rpc_version *rr2r_clnt_versions[] = {
	[RR2R_VERS] = &rr2r_clnt_version,
};

static struct rpc_stat rr2r_clnt_stats;

static const struct rpc_program rr2r_clnt_program = {
	.name		= "rpcrdma2-test",
	.number		= RR2R_PROG,
	.nrvers		= ARRAY_SIZE(rr2r_clnt_versions),
	.version	= rr2r_clnt_versions,
	.stats		= &rr2r_clnt_stats,
};

static const struct rpc_timeout rr2r_timeout = {
	.to_initval	= 30 * HZ,
	.to_maxval	= 30 * HZ,
	.to_retries	= 2,
};

/*
 * A case's parameter: the provider, and the device limits clamp both
 * halves' connections are made under (shared/dev.c).  The
 * chunk and size cases run under the iwarp and tiny profiles too.
 */
struct rr2r_param {
	enum rpcrdma2_test_link	link;		/* first: read as the link */
	enum rpcrdma2_devclamp	clamp;
};

static const struct rr2r_param rr2r_links[] = {
	{ RPCRDMA2_TEST_RXE, RPCRDMA2_DEVCLAMP_NONE },
	{ RPCRDMA2_TEST_SIW, RPCRDMA2_DEVCLAMP_NONE },
};

static const struct rr2r_param rr2r_clamped[] = {
	{ RPCRDMA2_TEST_RXE, RPCRDMA2_DEVCLAMP_NONE },
	{ RPCRDMA2_TEST_SIW, RPCRDMA2_DEVCLAMP_NONE },
	{ RPCRDMA2_TEST_RXE, RPCRDMA2_DEVCLAMP_IWARP },
	{ RPCRDMA2_TEST_SIW, RPCRDMA2_DEVCLAMP_IWARP },
	{ RPCRDMA2_TEST_RXE, RPCRDMA2_DEVCLAMP_TINY },
	{ RPCRDMA2_TEST_SIW, RPCRDMA2_DEVCLAMP_TINY },
};

static void rr2r_link_desc(const struct rr2r_param *p, char *desc)
{
	rpcrdma2_test_param_desc(p->link, p->clamp, desc);
}

KUNIT_ARRAY_PARAM(rr2r_link, rr2r_links, rr2r_link_desc);
KUNIT_ARRAY_PARAM(rr2r_clamped, rr2r_clamped, rr2r_link_desc);

static void rr2r_devclamp_none(void *data)
{
	rpcrdma2_test_set_devclamp(RPCRDMA2_DEVCLAMP_NONE);
}

/* The case's provider; its clamp applies from now on, to both halves. */
static enum rpcrdma2_test_link rr2r_link_of(struct kunit *test)
{
	const struct rr2r_param *param = test->param_value;
	const enum rpcrdma2_test_link *link = &param->link;

	if (param->clamp != RPCRDMA2_DEVCLAMP_NONE &&
	    rpcrdma2_test_devclamp() != param->clamp) {
		rpcrdma2_test_set_devclamp(param->clamp);
		KUNIT_ASSERT_EQ(test, 0,
				kunit_add_action_or_reset(test,
							  rr2r_devclamp_none,
							  NULL));
	}

	KUNIT_ASSERT_EQ_MSG(test, rr2r_envs[*link].err, 0,
			    "%s environment failed at %s",
			    rpcrdma2_test_link_name(*link),
			    rr2r_envs[*link].failed_step ?: "?");
	KUNIT_ASSERT_EQ_MSG(test, rr2r_svc.err[*link], 0,
			    "no rpcrdma2 listener on %s",
			    rpcrdma2_test_link_name(*link));
	return *link;
}

static void rr2r_caps(u32 clnt, u32 svc)
{
	rpcrdma2_test_cap_version(RPCRDMA2_CLIENT, clnt);
	rpcrdma2_test_cap_version(RPCRDMA2_SERVER, svc);
}

static void rr2r_clnt_cleanup(void *data)
{
	rpc_shutdown_client(data);
}

/* An rpc_clnt on rpcrdma2 to this case's listener, connected (NULL ping). */
static struct rpc_clnt *rr2r_clnt(struct kunit *test)
{
	enum rpcrdma2_test_link link = rr2r_link_of(test);
	struct sockaddr *sa = (struct sockaddr *)&rr2r_svc.addr[link];
	struct rpc_create_args args = {
		.net		= &init_net,
		.protocol	= XPRT_TRANSPORT_RDMA,
		.address	= sa,
		.addrsize	= sa->sa_family == AF_INET6 ?
				  sizeof(struct sockaddr_in6) :
				  sizeof(struct sockaddr_in),
		.timeout	= &rr2r_timeout,
		.servername	= "rpcrdma2-test",
		.program	= &rr2r_clnt_program,
		.version	= RR2R_VERS,
		.authflavor	= RPC_AUTH_NULL,
		.cred		= current_cred(),
	};
	struct rpc_clnt *clnt;
	int ret;

	clnt = rpc_create(&args);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(clnt), "rpc_create: %ld",
			       PTR_ERR(clnt));
	ret = kunit_add_action_or_reset(test, rr2r_clnt_cleanup, clnt);
	KUNIT_ASSERT_EQ(test, ret, 0);
	return clnt;
}

static struct rpc_xprt *rr2r_xprt(struct rpc_clnt *clnt)
{
	return rcu_access_pointer(clnt->cl_xprt);
}

/* V2-SEC-08: every MR is free again once the RPCs have completed. */
static void rr2r_expect_pool_full(struct kunit *test, struct rpc_xprt *xprt)
{
	struct rr2c *r = rr2c(xprt);

	KUNIT_EXPECT_EQ(test, READ_ONCE(r->frwr.nfree), READ_ONCE(r->frwr.nr));
}

static void rr2r_free_pages(void *data)
{
	struct page **pages = data;
	u32 i;

	for (i = 0; i < RR2R_NPAGES; i++)
		if (pages[i])
			__free_page(pages[i]);
	kfree(pages);
}

/* An array of RR2R_NPAGES page pointers, the first @n with a page. */
static struct page **rr2r_pages_n(struct kunit *test, u32 n)
{
	struct page **pages;
	u32 i;
	int ret;

	pages = kcalloc(RR2R_NPAGES, sizeof(*pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pages);
	ret = kunit_add_action_or_reset(test, rr2r_free_pages, pages);
	KUNIT_ASSERT_EQ(test, ret, 0);
	for (i = 0; i < n; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
	}
	return pages;
}

static struct page **rr2r_pages(struct kunit *test)
{
	return rr2r_pages_n(test, RR2R_NPAGES);
}

static void rr2r_fill(struct page **pages, u32 len, u32 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		((u8 *)page_address(pages[i >> PAGE_SHIFT]))
			[offset_in_page(i)] = rr2r_byte(seed, i);
}

static bool rr2r_verify(struct page **pages, u32 len, u32 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		if (((u8 *)page_address(pages[i >> PAGE_SHIFT]))
			[offset_in_page(i)] != rr2r_byte(seed, i))
			return false;
	return true;
}

/* PUT or PUT_CONT (@proc) @len octets of pattern @seed */
static int rr2r_put_proc(struct rpc_clnt *clnt, u32 proc, struct page **pages,
			 u32 len, u32 seed, struct rr2r_res *res)
{
	struct rr2r_args args = { .seed = seed, .len = len, .pages = pages };
	struct rpc_message msg = {
		.rpc_proc	= &rr2r_clnt_procs[proc],
		.rpc_argp	= &args,
		.rpc_resp	= res,
	};

	rr2r_fill(pages, len, seed);
	memset(res, 0, sizeof(*res));
	return rpc_call_sync(clnt, &msg, RPC_TASK_SOFT);
}

static int rr2r_put(struct rpc_clnt *clnt, struct page **pages, u32 len,
		    u32 seed, struct rr2r_res *res)
{
	return rr2r_put_proc(clnt, RR2R_PUT, pages, len, seed, res);
}

static int rr2r_get(struct rpc_clnt *clnt, struct page **pages, u32 len,
		    u32 seed, struct rr2r_res *res)
{
	struct rr2r_args args = { .seed = seed, .len = len, .pages = pages };
	struct rpc_message msg = {
		.rpc_proc	= &rr2r_clnt_procs[RR2R_GET],
		.rpc_argp	= &args,
		.rpc_resp	= res,
	};
	u32 i;

	for (i = 0; i < RR2R_NPAGES; i++)
		memset(page_address(pages[i]), 0xee, PAGE_SIZE);
	memset(res, 0, sizeof(*res));
	return rpc_call_sync(clnt, &msg, RPC_TASK_SOFT);
}

/* PUT and GET @len octets, checking every byte each way. */
static void rr2r_roundtrip(struct kunit *test, struct rpc_clnt *clnt,
			   struct page **pages, u32 len)
{
	struct rr2r_res res;
	u32 seed = len * 2654435761u;

	KUNIT_EXPECT_EQ_MSG(test, 0, rr2r_put(clnt, pages, len, seed, &res),
			    "PUT of %u octets", len);
	KUNIT_EXPECT_EQ_MSG(test, res.ok, 1, "server saw bad data at %u", len);
	KUNIT_EXPECT_EQ_MSG(test, res.len, len, "server saw the wrong length");

	KUNIT_EXPECT_EQ_MSG(test, 0, rr2r_get(clnt, pages, len, seed, &res),
			    "GET of %u octets", len);
	KUNIT_EXPECT_EQ(test, res.len, len);
	KUNIT_EXPECT_TRUE_MSG(test, rr2r_verify(pages, len, seed),
			      "client got bad data in a %u-octet reply", len);
}

static const u32 rr2r_sizes[] = {
	0, 1, 3, 100, 1000, 3900, 4000, 4096, 4097, 8192, 12345, 65536,
	300001, 524288, RR2R_MAX,
};

/*
 * Per-operation statistics (mountstats, nfsiostat) come from what the
 * transport records at transmission: the octets sent, and the send
 * time from which the round trip is measured, which cannot exceed the
 * whole execution time.
 */
static void rr2r_check_iostats(struct kunit *test, struct rpc_clnt *clnt)
{
	const struct rpc_iostats *put = &clnt->cl_metrics[RR2R_PUT];
	u64 sent = 0;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(rr2r_sizes); i++)
		sent += rr2r_sizes[i];
	KUNIT_EXPECT_EQ(test, put->om_ops, ARRAY_SIZE(rr2r_sizes));
	KUNIT_EXPECT_GT(test, put->om_bytes_sent, sent);
	KUNIT_EXPECT_LE(test, ktime_to_ns(put->om_rtt),
			ktime_to_ns(put->om_execute));
}

/*
 * V2-CONT-01, V2-CONT-02, V2-CONT-03, V2-INLINE-02, V2-INLINE-08, V2-FRAME-14:
 * 0 to 1 MiB over v2.
 */
static void rr2r_v2_sizes_0_to_1m(struct kunit *test)
{
	/*
	 * asserts V2-CONT-02: continued messages arrive whole, every byte
	 * checked
	 */
	struct rpc_clnt *clnt;
	struct page **pages;
	u32 i;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	clnt = rr2r_clnt(test);
	pages = rr2r_pages(test);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_version(rr2r_xprt(clnt)),
			RPCRDMA2_VERS_2);
	for (i = 0; i < ARRAY_SIZE(rr2r_sizes); i++)
		rr2r_roundtrip(test, clnt, pages, rr2r_sizes[i]);
	rr2r_check_iostats(test, clnt);
	rr2r_expect_pool_full(test, rr2r_xprt(clnt));
}

/*
 * Drop the connection under a mounted client: the next Call reconnects
 * and succeeds.  After a fallback the reconnect opens in Version 1 at
 * once, with no second CONNPROP (V2-FRAME-19).
 */
static void rr2r_reconnect(struct kunit *test, u32 svc_vers)
{
	struct rpc_xprt *xprt;
	struct rpc_clnt *clnt;
	struct page **pages;
	u64 hellos;
	u32 vers;

	rr2r_caps(RPCRDMA2_VERS_2, svc_vers);
	clnt = rr2r_clnt(test);
	pages = rr2r_pages(test);
	xprt = rr2r_xprt(clnt);
	rr2r_roundtrip(test, clnt, pages, 1000);
	vers = rpcrdma2_clnt_test_version(xprt);
	hellos = rpcrdma2_clnt_test_hellos(xprt);
	KUNIT_EXPECT_EQ(test, xprt->stat.connect_count, 1);

	xprt_force_disconnect(xprt);
	rr2r_roundtrip(test, clnt, pages, 1000);
	KUNIT_EXPECT_EQ(test, xprt->stat.connect_count, 2);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_version(xprt), vers);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_hellos(xprt),
			vers == RPCRDMA2_VERS_2 ? hellos + 1 : hellos);
}

static void rr2r_reconnect_v2(struct kunit *test)
{
	rr2r_reconnect(test, RPCRDMA2_VERS_2);
}

static void rr2r_reconnect_after_fallback_stays_v1(struct kunit *test)
{
	rr2r_reconnect(test, RPCRDMA2_VERS_1);
}

/*
 * Version 1 both ways when only one side offers it: inline sizes, then
 * beyond the thresholds by chunks (V2-SPEC-02, V2-CHUNK-22).
 */
static void rr2r_version_matrix(struct kunit *test, u32 clnt_vers,
				u32 svc_vers)
{
	static const u32 sizes[] = { 0, 1, 100, 1000, 2000, 65536 + 3 };
	struct rpc_clnt *clnt;
	struct page **pages;
	u32 i;

	rr2r_caps(clnt_vers, svc_vers);
	clnt = rr2r_clnt(test);
	pages = rr2r_pages(test);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_version(rr2r_xprt(clnt)),
			RPCRDMA2_VERS_1);
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		rr2r_roundtrip(test, clnt, pages, sizes[i]);
	rr2r_expect_pool_full(test, rr2r_xprt(clnt));
}

/* V2-FRAME-20: a v1-capped client's first message settles Version 1. */
static void rr2r_v1_client_v2_server(struct kunit *test)
{
	rr2r_version_matrix(test, RPCRDMA2_VERS_1, RPCRDMA2_VERS_2);
}

/*
 * V2-FRAME-18, V2-FRAME-23: ERR_VERS from a v1 server, then Version 1.
 */
static void rr2r_v2_client_v1_server_falls_back(struct kunit *test)
{
	rr2r_version_matrix(test, RPCRDMA2_VERS_2, RPCRDMA2_VERS_1);
}

struct rr2r_async {
	atomic_t		done;
	atomic_t		failed;
	struct completion	all;
};

static void rr2r_async_done(struct rpc_task *task, void *data)
{
	struct rr2r_async *a = data;

	if (task->tk_status)
		atomic_inc(&a->failed);
}

static void rr2r_async_release(void *data)
{
	struct rr2r_async *a = data;

	if (atomic_inc_return(&a->done) == RR2R_HOLDERS)
		complete(&a->all);
}

static const struct rpc_call_ops rr2r_async_ops = {
	.rpc_call_done	= rr2r_async_done,
	.rpc_release	= rr2r_async_release,
};

/*
 * V2-CRED-04, V2-CRED-05, V2-CRED-07, V2-CRED-08: the server grants 32 at
 * first; with 40 HOLD Calls
 * queued the client has all 32 in use, the server raises the grant to 64
 * with a credit-grant-only message, the client sends the other 8, and
 * every Call completes once released.
 */
static void rr2r_credit_exhaustion_async_grant(struct kunit *test)
{
	/*
	 * asserts V2-CRED-07: the grant-only message is taken with every credit
	 * in use
	 */
	struct rpc_message msg = {
		.rpc_proc = &rr2r_clnt_procs[RR2R_HOLD],
	};
	struct rr2r_async *a;
	struct rpc_clnt *clnt;
	int i;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	clnt = rr2r_clnt(test);
	a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	init_completion(&a->all);
	reinit_completion(&rr2r_svc.release);
	atomic_set(&rr2r_svc.held, 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_grant(rr2r_xprt(clnt)), 32);

	for (i = 0; i < RR2R_HOLDERS; i++) {
		KUNIT_ASSERT_EQ(test, 0, rpc_call_async(clnt, &msg,
							RPC_TASK_SOFT,
							&rr2r_async_ops, a));
	}
	for (i = 0; i < 200 &&
	     rpcrdma2_clnt_test_grant(rr2r_xprt(clnt)) != 64; i++)
		msleep(100);
	KUNIT_EXPECT_EQ_MSG(test, rpcrdma2_clnt_test_grant(rr2r_xprt(clnt)),
			    64, "no asynchronous grant arrived");
	complete_all(&rr2r_svc.release);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&a->all,
							    120 * HZ));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->failed), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rr2r_svc.held), RR2R_HOLDERS);
}

/* ---- malformed messages from a raw QP ---- */

static void rr2r_raw_cleanup(void *data)
{
	rpcrdma2_test_disconnect(data);
}

/* A raw client QP with @nr_recv Receives, connected to the listener. */
static struct rpcrdma2_test_conn *rr2r_raw_n(struct kunit *test, u32 nr_recv)
{
	enum rpcrdma2_test_link link = rr2r_link_of(test);
	struct rpcrdma2_test_conn *conn;
	int ret;

	conn = kunit_kzalloc(test, sizeof(*conn), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, conn);
	rpcrdma2_test_conn_init(conn, &rr2r_envs[link]);
	conn->nr_recv = nr_recv;
	ret = kunit_add_action_or_reset(test, rr2r_raw_cleanup, conn);
	KUNIT_ASSERT_EQ(test, ret, 0);
	ret = rpcrdma2_test_dial(conn, (struct sockaddr *)&rr2r_svc.addr[link]);
	KUNIT_ASSERT_EQ(test, ret, 0);
	return conn;
}

static struct rpcrdma2_test_conn *rr2r_raw(struct kunit *test)
{
	return rr2r_raw_n(test, 1);
}

/* Post one message from the raw QP. */
static void rr2r_raw_send(struct kunit *test, struct rpcrdma2_test_conn *c,
			  const void *msg, u32 len)
{
	struct rpcrdma2_test_ep *ep = &c->client;

	memcpy(rpcrdma2_test_send_buf(ep), msg, len);
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_post_send(ep, len));
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_wait_send(ep));
}

/* The next message the server sent, decoded. */
static void rr2r_raw_answer(struct kunit *test, struct rpcrdma2_test_conn *c,
			    u32 vers, struct rpcrdma2_hdr *h)
{
	static const struct rpcrdma2_limits lim = { .max_segments = 1 };
	struct rpcrdma2_test_ep *ep = &c->client;
	int ret;

	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_wait_recv(ep));
	ret = rpcrdma2_decode_hdr(rpcrdma2_test_recv_buf(ep),
				  rpcrdma2_test_recv_len(ep), vers, &lim, h);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_post_recv(ep));
}

static u32 rr2r_hdr(u8 *b, u32 xid, u32 vers, u32 htype, u32 flags)
{
	put_unaligned_be32(xid, b);
	put_unaligned_be32(vers, b + 4);
	put_unaligned_be32(rpcrdma2_credit_word(8, 8), b + 8);
	put_unaligned_be32(htype, b + 12);
	put_unaligned_be32(flags, b + 16);
	return 20;
}

/*
 * V2-SEC-17, V2-FRAME-20, V2-FRAME-23, V2-ERR-01, V2-ERR-05, V2-ERR-17, V2-CONT-06:
 * crafted
 * messages get exactly the required answer; a runt is dropped without
 * one; the transport's own client on the same server is undisturbed.
 */
static void rr2r_malformed_from_raw_qp(struct kunit *test)
{
	/*
	 * asserts V2-ERR-01 (the runt draws nothing), V2-ERR-17 (htype 0x77:
	 * INVAL_HTYPE)
	 */
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_local local = {
		.max_vers = RPCRDMA2_VERS_2, .send_size = 4096,
		.recv_size = 4096, .credits = rpcrdma2_credit_word(8, 8),
	};
	struct rpc_clnt *clnt;
	struct page **pages;
	struct rpcrdma2_hdr h;
	u8 msg[128] = { };
	__be32 *words;
	u32 n;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	clnt = rr2r_clnt(test);
	pages = rr2r_pages(test);
	raw = rr2r_raw(test);

	/*
	 * version 3 first: ERR_VERS in the Version 2 layout, echoing the
	 * ingress version (V2-ERR-03), with the range 1..2 (V2-ERR-13)
	 */
	n = rr2r_hdr(msg, 0x1111, 3, RDMA2_MSG, 0);
	rr2r_raw_send(test, raw, msg, n + 16);
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_wait_recv(&raw->client));
	words = rpcrdma2_test_recv_buf(&raw->client);
	KUNIT_ASSERT_EQ(test, rpcrdma2_test_recv_len(&raw->client), 32);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&words[0]), 0x1111);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&words[1]), 3);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&words[3]), RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&words[4]), RDMA2_F_RESPONSE);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&words[5]), RDMA2_ERR_VERS);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&words[6]), RPCRDMA2_VERS_1);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&words[7]), RPCRDMA2_VERS_2);
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_post_recv(&raw->client));

	/* settle Version 2 with a CONNPROP; the server answers with its own */
	n = rpcrdma2_nego_client_hello(&local, 0x2222, msg, sizeof(msg));
	KUNIT_ASSERT_NE(test, n, 0);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_raw_answer(test, raw, RPCRDMA2_VERS_2, &h);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_CONNPROP);
	KUNIT_EXPECT_EQ(test, h.props.rbsiz, RPCRDMA2_BUF_SIZE_DEF);

	/* a runt is dropped silently: the next answer is for 0x4444 */
	rr2r_raw_send(test, raw, msg, 6);
	n = rr2r_hdr(msg, 0x4444, RPCRDMA2_VERS_2, 0x77, 0);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_raw_answer(test, raw, RPCRDMA2_VERS_2, &h);
	KUNIT_EXPECT_EQ(test, h.xid, 0x4444);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_INVAL_HTYPE);

	/* a sequence interrupted by another xid: INVAL_CONT */
	memset(msg, 0, sizeof(msg));
	n = rr2r_hdr(msg, 0x5555, RPCRDMA2_VERS_2, RDMA2_MSG, RDMA2_F_MORE);
	put_unaligned_be32(0x5555, msg + n + 16);	/* the RPC XID */
	rr2r_raw_send(test, raw, msg, n + 16 + 8);
	n = rr2r_hdr(msg, 0x6666, RPCRDMA2_VERS_2, RDMA2_MSG, 0);
	rr2r_raw_send(test, raw, msg, n + 16 + 8);
	rr2r_raw_answer(test, raw, RPCRDMA2_VERS_2, &h);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_INVAL_CONT);

	/* and the well-behaved connection never noticed */
	rr2r_roundtrip(test, clnt, pages, 20000);
}

/* ---- transport fixes, through the RPC client ---- */

/*
 * A Reply into XDRBUF_SPARSE_PAGES (NFSv3 GETACL's way): the transport
 * allocates the pages before the Call goes out, and every octet lands.
 * Inline on Version 1, continued on Version 2.
 */
static void rr2r_sparse(struct kunit *test, u32 vers, u32 len)
{
	struct page **pages;
	struct rr2r_args args = { .seed = 77, .len = len };
	struct rr2r_res res = { };
	struct rpc_message msg = {
		.rpc_proc	= &rr2r_clnt_procs[RR2R_GET_SPARSE],
		.rpc_argp	= &args,
		.rpc_resp	= &res,
	};
	struct rpc_clnt *clnt;
	u32 i;

	rr2r_caps(vers, RPCRDMA2_VERS_2);
	clnt = rr2r_clnt(test);
	/* no page at all: rr2r_free_pages() frees what the transport made */
	pages = kcalloc(RR2R_NPAGES, sizeof(*pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pages);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_free_pages,
							   pages));
	args.pages = pages;
	KUNIT_ASSERT_EQ(test, 0, rpc_call_sync(clnt, &msg, RPC_TASK_SOFT));
	KUNIT_EXPECT_EQ(test, res.len, len);
	for (i = 0; i < DIV_ROUND_UP(len, PAGE_SIZE); i++)
		KUNIT_ASSERT_NOT_NULL_MSG(test, pages[i], "page %u", i);
	KUNIT_EXPECT_TRUE(test, rr2r_verify(pages, len, 77));
}

static void rr2r_sparse_reply_pages_v2(struct kunit *test)
{
	rr2r_sparse(test, RPCRDMA2_VERS_2, 3 * PAGE_SIZE + 100);
}

static void rr2r_sparse_reply_pages_v1(struct kunit *test)
{
	rr2r_sparse(test, RPCRDMA2_VERS_1, 700);
}

struct rr2r_one {
	struct completion	done;
	int			status;
};

static void rr2r_one_done(struct rpc_task *task, void *data)
{
	struct rr2r_one *o = data;

	o->status = task->tk_status;
}

static void rr2r_one_release(void *data)
{
	struct rr2r_one *o = data;

	complete(&o->done);
}

static const struct rpc_call_ops rr2r_one_ops = {
	.rpc_call_done	= rr2r_one_done,
	.rpc_release	= rr2r_one_release,
};

/* The send-stall site disarmed whatever the case ended with. */
static void rr2r_stall_off(void *xprt)
{
	rpcrdma2_clnt_test_stall(xprt, 0);
}

/*
 * V2-CONT-06: a Call abandoned after some of its Sends went out (here:
 * killed while it waits for room before Send @stall_before) leaves the
 * server holding an open sequence.  The transport drops the connection
 * rather than cut the next Call into that sequence, and the next Call
 * goes through whole.  Abandoned before its first Send, it owes the
 * window nothing: the next Call, long enough to need acknowledgments,
 * is not held back by ones that will never come.
 */
static void rr2r_abandon(struct kunit *test, u32 stall_before)
{
	struct rr2r_args args = { .seed = 5, .len = 200000 };
	struct rr2r_res res = { };
	struct rpc_message msg = {
		.rpc_proc	= &rr2r_clnt_procs[RR2R_PUT_CONT],
		.rpc_argp	= &args,
		.rpc_resp	= &res,
	};
	struct rpc_xprt *xprt;
	struct rpc_clnt *clnt;
	struct rr2r_one *o;
	struct page **pages;
	int i;

	o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, o);
	init_completion(&o->done);
	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	clnt = rr2r_clnt(test);
	xprt = rr2r_xprt(clnt);
	pages = rr2r_pages(test);
	args.pages = pages;
	rr2r_fill(pages, args.len, args.seed);

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, rr2r_stall_off,
							   xprt));
	rpcrdma2_clnt_test_stall(xprt, stall_before);
	KUNIT_ASSERT_EQ(test, 0, rpc_call_async(clnt, &msg, RPC_TASK_SOFT,
						&rr2r_one_ops, o));
	for (i = 0; i < 200 && (rr2c(xprt)->stats.write_waits == 0 ||
				rpcrdma2_clnt_test_tx_msgno(xprt) !=
				stall_before - 1); i++)
		msleep(50);
	KUNIT_ASSERT_EQ(test, rpcrdma2_clnt_test_tx_msgno(xprt),
			stall_before - 1);
	rpc_killall_tasks(clnt);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&o->done,
							    60 * HZ));
	KUNIT_EXPECT_NE(test, o->status, 0);
	rpcrdma2_clnt_test_stall(xprt, 0);
	KUNIT_EXPECT_EQ(test, rr2c(xprt)->stats.aborted_seqs,
			stall_before > 1 ? 1 : 0);

	/* the next Call goes through intact: 50 Sends, 3 acknowledgments */
	args.seed = 6;
	rr2r_roundtrip(test, clnt, pages, 200000);
	KUNIT_EXPECT_EQ(test, xprt->stat.connect_count,
			stall_before > 1 ? 2 : 1);
}

static void rr2r_abandoned_sequence_is_not_resumed(struct kunit *test)
{
	rr2r_abandon(test, 5);
}

static void rr2r_abandoned_before_first_send_owes_nothing(struct kunit *test)
{
	rr2r_abandon(test, 1);
}

/*
 * The send-stall site disarmed as debugfs disarms it, with no wake-up:
 * the stalled Call goes on by itself and completes whole.  Stalled
 * before its first Send, nothing is in flight whose completion, grant
 * or acknowledgment could wake it.
 */
static void rr2r_stall_disarmed_goes_on(struct kunit *test)
{
	struct rr2r_args args = { .seed = 8, .len = 200000 };
	struct rr2r_res res = { };
	struct rpc_message msg = {
		.rpc_proc	= &rr2r_clnt_procs[RR2R_PUT_CONT],
		.rpc_argp	= &args,
		.rpc_resp	= &res,
	};
	struct rpc_xprt *xprt;
	struct rpc_clnt *clnt;
	struct rr2r_one *o;
	bool done;
	int i;

	o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, o);
	init_completion(&o->done);
	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	clnt = rr2r_clnt(test);
	xprt = rr2r_xprt(clnt);
	args.pages = rr2r_pages(test);
	rr2r_fill(args.pages, args.len, args.seed);

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, rr2r_stall_off,
							   xprt));
	rpcrdma2_fail_after(RPCRDMA2_FAIL_SEND_STALL, 0);
	KUNIT_ASSERT_EQ(test, 0, rpc_call_async(clnt, &msg, RPC_TASK_SOFT,
						&rr2r_one_ops, o));
	for (i = 0; i < 200 && !rr2c(xprt)->stats.write_waits; i++)
		msleep(50);
	KUNIT_EXPECT_GT(test, rr2c(xprt)->stats.write_waits, 0);
	msleep(500);
	rpcrdma2_fail_set(RPCRDMA2_FAIL_SEND_STALL, 0, 1, 0);
	done = wait_for_completion_timeout(&o->done, 30 * HZ);
	if (!done) {		/* never let the task outlive @o */
		rpc_killall_tasks(clnt);
		wait_for_completion(&o->done);
	}
	KUNIT_EXPECT_TRUE_MSG(test, done, "the disarmed stall was not left");
	KUNIT_EXPECT_EQ(test, o->status, 0);
	KUNIT_EXPECT_EQ(test, res.ok, 1);
	KUNIT_EXPECT_EQ(test, res.len, args.len);
}

/*
 * A grant that raises the window wakes a waiting sender, but never
 * takes the transport lock from its holder: here the holder is not a
 * task, as during autoclose (XPRT_LOCKED with no snd_task).
 */
static void rr2r_grant_keeps_autoclose_lock(struct kunit *test)
{
	struct rpc_xprt *xprt;
	struct rpc_clnt *clnt;
	bool held;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	clnt = rr2r_clnt(test);
	xprt = rr2r_xprt(clnt);
	KUNIT_ASSERT_FALSE(test, test_and_set_bit(XPRT_LOCKED, &xprt->state));
	KUNIT_ASSERT_NULL(test, xprt->snd_task);
	rpcrdma2_clnt_test_set_grant(xprt, 8);
	rpcrdma2_clnt_test_set_grant(xprt, 40);
	held = test_bit(XPRT_LOCKED, &xprt->state);
	clear_bit_unlock(XPRT_LOCKED, &xprt->state);
	KUNIT_EXPECT_TRUE(test, held);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_grant(xprt), 40);
}

/*
 * Swap over NFS/RDMA (->enable_swap, ->disable_swap) and sunrpc's
 * disconnect fault (->inject_disconnect), which the RPC layer calls
 * without checking for NULL.
 */
static void rr2r_swap_and_inject_disconnect(struct kunit *test)
{
	struct rpc_xprt *xprt;
	struct rpc_clnt *clnt;
	struct page **pages;
	int i;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	clnt = rr2r_clnt(test);
	xprt = rr2r_xprt(clnt);
	pages = rr2r_pages(test);

	KUNIT_EXPECT_EQ(test, 0, rpc_clnt_swap_activate(clnt));
	KUNIT_EXPECT_EQ(test, atomic_read(&xprt->swapper), 1);
	rr2r_roundtrip(test, clnt, pages, 9000);
	rpc_clnt_swap_deactivate(clnt);
	KUNIT_EXPECT_EQ(test, atomic_read(&xprt->swapper), 0);

	xprt->ops->inject_disconnect(xprt);
	for (i = 0; i < 200 && xprt_connected(xprt); i++)
		msleep(50);
	KUNIT_EXPECT_FALSE(test, xprt_connected(xprt));
	rr2r_roundtrip(test, clnt, pages, 9000);
	KUNIT_EXPECT_EQ(test, xprt->stat.connect_count, 2);
}

/*
 * V2-FRAME-24: on a Version 1 connection the server raises its grant
 * in Reply credit fields, never with a Version 2 credit-grant message,
 * which a Version 1 client would have to throw away.
 */
static void rr2r_v1_no_v2_grant(struct kunit *test)
{
	/*
	 * asserts V2-FRAME-24: no Version 2 grant message on a Version 1
	 * connection
	 */
	struct rpc_message msg = {
		.rpc_proc = &rr2r_clnt_procs[RR2R_HOLD],
	};
	struct rr2r_async *a;
	struct rpc_xprt *xprt;
	struct rpc_clnt *clnt;
	int i;

	rr2r_caps(RPCRDMA2_VERS_1, RPCRDMA2_VERS_2);
	clnt = rr2r_clnt(test);
	xprt = rr2r_xprt(clnt);
	a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	init_completion(&a->all);
	reinit_completion(&rr2r_svc.release);
	atomic_set(&rr2r_svc.held, 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_version(xprt),
			RPCRDMA2_VERS_1);

	for (i = 0; i < RR2R_HOLDERS; i++)
		KUNIT_ASSERT_EQ(test, 0, rpc_call_async(clnt, &msg,
							RPC_TASK_SOFT,
							&rr2r_async_ops, a));
	/* every credit in use: the point where a grant would be sent */
	for (i = 0; i < 200 && xprt->stat.sends < 1 + 32; i++)
		msleep(50);
	KUNIT_EXPECT_GE(test, xprt->stat.sends, 1 + 32);
	msleep(500);		/* room for a grant message to arrive */
	complete_all(&rr2r_svc.release);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&a->all,
							    120 * HZ));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->failed), 0);
	KUNIT_EXPECT_EQ(test, rr2c(xprt)->stats.bad_hdrs, 0);
	KUNIT_EXPECT_EQ(test, rr2c(xprt)->stats.grants, 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_grant(xprt), 64);
}

/*
 * A connection starts with the MRs its largest RPC may
 * need, not RR2C_MRS_PER_CREDIT per credit, and no reassembly stage
 * until a Call has a Write chunk; the pool grows on demand: with
 * RR2R_HOLDERS GETs held by the server, each with its Write chunk
 * registered, the pool grows past what it started with but not past
 * its cap, and every GET completes with its data.
 */
#define RR2R_GROW_LEN	(64 * 1024)

static void rr2r_mr_pool_grows_on_demand(struct kunit *test)
{
	struct rr2r_args *args;
	struct rr2r_res *res;
	struct rr2r_async *a;
	struct rpc_xprt *xprt;
	struct rpc_clnt *clnt;
	struct page **pages;
	struct rr2c *r;
	u32 i, nr, peak, n = RR2R_GROW_LEN >> PAGE_SHIFT;
	unsigned long sends;
	u64 chunks;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	clnt = rr2r_clnt(test);
	xprt = rr2r_xprt(clnt);
	r = rr2c(xprt);
	a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	args = kunit_kcalloc(test, RR2R_HOLDERS, sizeof(*args), GFP_KERNEL);
	res = kunit_kcalloc(test, RR2R_HOLDERS, sizeof(*res), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, args);
	KUNIT_ASSERT_NOT_NULL(test, res);
	init_completion(&a->all);
	reinit_completion(&rr2r_svc.release);
	atomic_set(&rr2r_svc.held, 0);

	/* connect: the pool holds what one RPC needs, and no more */
	KUNIT_ASSERT_EQ(test, rpcrdma2_clnt_test_version(xprt),
			RPCRDMA2_VERS_2);
	nr = READ_ONCE(r->frwr.nr);
	KUNIT_EXPECT_EQ(test, nr, r->frwr.first);
	KUNIT_EXPECT_LE(test, r->frwr.first, 2 * RR2C_MAX_SEGS);
	KUNIT_EXPECT_GE(test, r->frwr.cap,
			r->credits * RR2C_MRS_PER_CREDIT);
	/* no Write chunk yet: no stage either (client.h) */
	KUNIT_EXPECT_NULL(test, READ_ONCE(r->rx_stage));
	chunks = r->stats.write_chunks;
	sends = xprt->stat.sends;

	for (i = 0; i < RR2R_HOLDERS; i++) {
		struct rpc_message msg = {
			.rpc_proc	= &rr2r_clnt_procs[RR2R_GET],
			.rpc_argp	= &args[i],
			.rpc_resp	= &res[i],
		};

		pages = rr2r_pages_n(test, n);
		args[i] = (struct rr2r_args){ .seed = RR2R_SEED_HOLD,
					      .len = RR2R_GROW_LEN,
					      .pages = pages };
		KUNIT_ASSERT_EQ(test, 0, rpc_call_async(clnt, &msg,
							RPC_TASK_SOFT,
							&rr2r_async_ops, a));
	}
	/*
	 * The server's one thread holds the first GET and the rest wait
	 * in its queue, unanswered: once all are sent, every one has its
	 * Write chunk registered at once.
	 */
	for (i = 0; i < 400 && xprt->stat.sends < sends + RR2R_HOLDERS; i++)
		msleep(50);
	KUNIT_EXPECT_GE(test, xprt->stat.sends, sends + RR2R_HOLDERS);
	peak = READ_ONCE(r->frwr.peak);
	nr = READ_ONCE(r->frwr.nr);
	KUNIT_EXPECT_GE(test, peak, RR2R_HOLDERS);
	KUNIT_EXPECT_GT(test, nr, r->frwr.first);
	KUNIT_EXPECT_LE(test, nr, r->frwr.cap);
	KUNIT_EXPECT_GT(test, r->stats.mr_waits, 0);
	KUNIT_EXPECT_GE(test, r->stats.write_chunks, chunks + RR2R_HOLDERS);
	KUNIT_EXPECT_NOT_NULL(test, READ_ONCE(r->rx_stage));

	complete_all(&rr2r_svc.release);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&a->all,
							    120 * HZ));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->failed), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rr2r_svc.held), RR2R_HOLDERS);
	for (i = 0; i < RR2R_HOLDERS; i++) {
		KUNIT_EXPECT_EQ(test, res[i].len, RR2R_GROW_LEN);
		KUNIT_EXPECT_TRUE_MSG(test, rr2r_verify(args[i].pages,
							RR2R_GROW_LEN,
							RR2R_SEED_HOLD),
				      "GET %u", i);
	}
	nr = READ_ONCE(r->frwr.nr);
	KUNIT_EXPECT_LE(test, nr, r->frwr.cap);
	rr2r_expect_pool_full(test, xprt);
}

/*
 * V2-SEC-08, #26 review (a): a retransmission that is marshaled after
 * the Reply to an earlier transmission was placed must not map the
 * RPC's receive pages again (the task may be decoding them; on bounced
 * or non-coherent DMA the unmap would write over them).  The window is
 * between ->send_request's look for a held Reply and its first MR:
 * reproduced here by marshaling the answered RPC from its own
 * rpc_call_done, where the Reply is placed and decoded.
 */
struct rr2r_answered {
	struct completion	done;
	int			status;
	int			ret;
	u32			mapped;
};

static void rr2r_answered_done(struct rpc_task *task, void *data)
{
	struct rr2r_answered *x = data;
	struct rpc_rqst *rq = task->tk_rqstp;
	struct rr2c *r = rr2c(rq->rq_xprt);
	struct rr2c_req *req = rr2c_req(rq);
	struct rr2c_mr *mr;

	x->status = task->tk_status;
	x->ret = rr2c_marshal_prepare(r, req);
	spin_lock(&r->frwr.lock);
	list_for_each_entry(mr, &req->mrs, node)
		x->mapped++;
	spin_unlock(&r->frwr.lock);
	rr2c_frwr_unmap_unposted(r, req);
}

static void rr2r_answered_release(void *data)
{
	complete(&((struct rr2r_answered *)data)->done);
}

static const struct rpc_call_ops rr2r_answered_ops = {
	.rpc_call_done	= rr2r_answered_done,
	.rpc_release	= rr2r_answered_release,
};

static void rr2r_v2_sec_08_answered_not_mapped(struct kunit *test)
{
	struct rr2r_args args = { .seed = 99, .len = RR2R_GROW_LEN };
	struct rr2r_res res = { };
	struct rpc_message msg = {
		.rpc_proc	= &rr2r_clnt_procs[RR2R_GET],
		.rpc_argp	= &args,
		.rpc_resp	= &res,
	};
	struct rr2r_answered *x;
	struct rpc_clnt *clnt;
	struct rr2c *r;
	u64 chunks;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	clnt = rr2r_clnt(test);
	r = rr2c(rr2r_xprt(clnt));
	x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, x);
	init_completion(&x->done);
	args.pages = rr2r_pages_n(test, RR2R_GROW_LEN >> PAGE_SHIFT);
	chunks = r->stats.write_chunks;

	KUNIT_ASSERT_EQ(test, 0, rpc_call_async(clnt, &msg, RPC_TASK_SOFT,
						&rr2r_answered_ops, x));
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&x->done,
							    60 * HZ));
	KUNIT_EXPECT_EQ(test, x->status, 0);
	/* the GET had a Write chunk: there were pages to map again */
	KUNIT_EXPECT_EQ(test, r->stats.write_chunks, chunks + 1);
	KUNIT_EXPECT_EQ(test, x->ret, -EALREADY);
	KUNIT_EXPECT_EQ(test, x->mapped, 0);
	KUNIT_EXPECT_EQ(test, res.len, RR2R_GROW_LEN);
	KUNIT_EXPECT_TRUE(test, rr2r_verify(args.pages, RR2R_GROW_LEN, 99));
	rr2r_expect_pool_full(test, rr2r_xprt(clnt));
}

/* ---- the server, from a raw QP ---- */

/* An RPC Call header (AUTH_NULL) for @proc of @prog: 40 octets. */
static u32 rr2r_rpc_call(u8 *p, u32 xid, u32 prog, u32 proc)
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
static u32 rr2r_rpc_reply(u8 *p, u32 xid, u32 stat)
{
	memset(p, 0, 24);
	put_unaligned_be32(xid, p);
	put_unaligned_be32(RPC_REPLY, p + 4);
	put_unaligned_be32(stat, p + 20);
	return 24;
}

/* A Version 2 MSG header without chunks: 36 octets. */
static u32 rr2r_msg2(u8 *b, u32 xid, u32 flags)
{
	u32 n = rr2r_hdr(b, xid, RPCRDMA2_VERS_2, RDMA2_MSG, flags);

	memset(b + n, 0, 16);
	return n + 16;
}

/* A Version 1 RDMA_MSG header without chunks: 28 octets. */
static u32 rr2r_msg1(u8 *b, u32 xid)
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
static u32 rr2r_take(struct kunit *test, struct rpcrdma2_test_ep *ep,
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
static void rr2r_raw_settle_v2(struct kunit *test, struct rpcrdma2_test_conn *c,
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
 * V2-ERR-23: a message of an open sequence that the server rejects
 * ends the sequence; the Call retransmitted under the same XID is taken
 * on its own, not appended to the stale fragments.
 */
static void rr2r_svc_rejected_part_ends_sequence(struct kunit *test)
{
	/* asserts V2-ERR-23; V2-FRAME-08: the Reply carries RESPONSE */
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;
	u8 msg[256], pl[64];
	u32 n, plen;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	raw = rr2r_raw(test);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);

	/* part 1 of a Call to a procedure that does not exist */
	n = rr2r_msg2(msg, 0xa1, RDMA2_F_MORE);
	n += rr2r_rpc_call(msg + n, 0xa1, RR2R_PROG, 99);
	rr2r_raw_send(test, raw, msg, n);
	/* part 2, with a list discriminator of 7: BAD_XDR */
	n = rr2r_msg2(msg, 0xa1, 0);
	put_unaligned_be32(7, msg + 24);
	rr2r_raw_send(test, raw, msg, n + 8);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.xid, 0xa1);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_BAD_XDR);
	/* the retransmission: a whole NULL Call, which succeeds */
	n = rr2r_msg2(msg, 0xa1, 0);
	n += rr2r_rpc_call(msg + n, 0xa1, RR2R_PROG, RR2R_NULL);
	rr2r_raw_send(test, raw, msg, n);
	plen = rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_MSG);
	KUNIT_EXPECT_EQ(test, h.flags & RDMA2_F_RESPONSE, RDMA2_F_RESPONSE);
	KUNIT_ASSERT_GE(test, plen, 24);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl), 0xa1);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 20), RPC_SUCCESS);
}

/*
 * V2-ERR-26 (and RFC 8166 section 4.5.2): rdma_xid must be the XID of
 * the RPC message; BAD_XDR on Version 2, ERR_CHUNK on Version 1.
 */
static void rr2r_svc_xid_mismatch_bad_xdr(struct kunit *test)
{
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;
	u8 msg[128];
	u32 n;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	raw = rr2r_raw(test);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	n = rr2r_msg2(msg, 0xb1, 0);
	n += rr2r_rpc_call(msg + n, 0xb2, RR2R_PROG, RR2R_NULL);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.xid, 0xb1);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_BAD_XDR);

	raw = rr2r_raw(test);		/* Version 1: its first message */
	n = rr2r_msg1(msg, 0xb3);
	n += rr2r_rpc_call(msg + n, 0xb4, RR2R_PROG, RR2R_NULL);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_1, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA_ERROR);
	KUNIT_EXPECT_EQ(test, h.xid, 0xb3);
	KUNIT_EXPECT_EQ(test, h.err, ERR_CHUNK);
}

/*
 * V2-ERR-32, V2-ERR-38: the server's CONNPROP says what it takes
 * (RSSIZ, RCSIZ), and its errors say the same: READ_CHUNKS says the
 * most Read chunks it takes.  V2-PROP-13: a second CONNPROP draws
 * INVAL_HTYPE.
 */
static void rr2r_svc_limits_and_late_connprop(struct kunit *test)
{
	/* asserts V2-ERR-32: READ_CHUNKS with the most the server takes */
	struct rpcrdma2_local local = {
		.max_vers = RPCRDMA2_VERS_2, .send_size = 4096,
		.recv_size = 4096, .credits = rpcrdma2_credit_word(8, 8),
	};
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;
	u8 msg[512];
	u32 n, i;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	raw = rr2r_raw(test);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	KUNIT_EXPECT_EQ(test, h.props.rssiz, RDMA2_PROP_RSSIZ_DEFAULT);
	KUNIT_EXPECT_EQ(test, h.props.rcsiz, 32);

	/* nine Read chunks */
	n = rr2r_hdr(msg, 0xc1, RPCRDMA2_VERS_2, RDMA2_MSG, 0);
	put_unaligned_be32(0, msg + n);
	n += 4;
	for (i = 0; i < 9; i++) {
		put_unaligned_be32(1, msg + n);
		put_unaligned_be32(64 + 8 * i, msg + n + 4);
		put_unaligned_be32(0x100 + i, msg + n + 8);
		put_unaligned_be32(8, msg + n + 12);
		put_unaligned_be64(0x1000, msg + n + 16);
		n += 24;
	}
	memset(msg + n, 0, 12);
	n += 12;
	n += rr2r_rpc_call(msg + n, 0xc1, RR2R_PROG, RR2R_NULL);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.xid, 0xc1);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_READ_CHUNKS);
	KUNIT_EXPECT_EQ(test, h.err_arg[0], RR2S_MAX_READ_CHUNKS);

	n = rpcrdma2_nego_client_hello(&local, 0xc2, msg, sizeof(msg));
	rr2r_raw_send(test, raw, msg, n);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.xid, 0xc2);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_INVAL_HTYPE);
}

/* A Version 2 NULL Call with one Write chunk of @nsegs segments. */
static u32 rr2r_null_wchunk(u8 *b, u32 xid, u32 nsegs)
{
	u32 n = rr2r_hdr(b, xid, RPCRDMA2_VERS_2, RDMA2_MSG, 0), i;

	put_unaligned_be32(0, b + n);		/* rdma_inv_handle */
	put_unaligned_be32(0, b + n + 4);	/* no Read list */
	put_unaligned_be32(1, b + n + 8);	/* one Write chunk */
	put_unaligned_be32(nsegs, b + n + 12);
	n += 16;
	for (i = 0; i < nsegs; i++) {
		put_unaligned_be32(0x300 + i, b + n);
		put_unaligned_be32(4096, b + n + 4);
		put_unaligned_be64(0x10000 + 4096 * i, b + n + 8);
		n += 16;
	}
	put_unaligned_be32(0, b + n);		/* end of the Write list */
	put_unaligned_be32(0, b + n + 4);	/* no Reply chunk */
	n += 8;
	return n + rr2r_rpc_call(b + n, xid, RR2R_PROG, RR2R_NULL);
}

/*
 * V2-CHUNK-31, V2-PROP-08, V2-ERR-38: a client that opens with a Call,
 * before the server's CONNPROP went out, knows only the default RCSIZ
 * (16): a chunk of 17 segments draws SEGMENTS saying 16.  Once the
 * server's CONNPROP is out, its own value (32) applies: the same Call
 * is answered.
 */
static void rr2r_svc_v2_chunk_31_rcsiz_before_connprop(struct kunit *test)
{
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;
	u8 *msg, pl[64];
	u32 n, plen;

	msg = kunit_kzalloc(test, 1024, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);

	/* the Call first: no CONNPROP either way */
	raw = rr2r_raw(test);
	n = rr2r_null_wchunk(msg, 0xe1, RDMA2_PROP_RCSIZ_DEFAULT + 1);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.xid, 0xe1);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_SEGMENTS);
	KUNIT_EXPECT_EQ(test, h.err_arg[0], RDMA2_PROP_RCSIZ_DEFAULT);
	/* 16 are taken */
	n = rr2r_null_wchunk(msg, 0xe2, RDMA2_PROP_RCSIZ_DEFAULT);
	rr2r_raw_send(test, raw, msg, n);
	plen = rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_MSG);
	KUNIT_EXPECT_EQ(test, h.xid, 0xe2);
	KUNIT_ASSERT_GE(test, plen, 24);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 20), RPC_SUCCESS);

	/* after the CONNPROP exchange: the server's RCSIZ */
	raw = rr2r_raw(test);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	KUNIT_EXPECT_EQ(test, h.props.rcsiz, RR2S_MAX_SEGS);
	n = rr2r_null_wchunk(msg, 0xe3, RDMA2_PROP_RCSIZ_DEFAULT + 1);
	rr2r_raw_send(test, raw, msg, n);
	plen = rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_MSG);
	KUNIT_EXPECT_EQ(test, h.xid, 0xe3);
	KUNIT_ASSERT_GE(test, plen, 24);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 20), RPC_SUCCESS);
}

/*
 * CMP-CMPD-14, CMP-CMPD-17: a client whose connection request carries
 * no RFC 8797 record, or one with a version the server does not know,
 * gets 1024-octet thresholds both ways, not 0: a Version 1 NULL Call
 * is answered with its Reply.
 */
static void rr2r_svc_no_cm_record(struct kunit *test)
{
	/*
	 * asserts CMP-CMPD-14: no record is 1024/1024, and a NULL Call is
	 * answered
	 */
	static const enum rpcrdma2_test_pdata modes[] = {
		RPCRDMA2_TEST_PDATA_NONE, RPCRDMA2_TEST_PDATA_BAD,
	};
	enum rpcrdma2_test_link link = rr2r_link_of(test);
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;
	u8 msg[128], pl[64];
	u32 n, i, plen;
	int ret;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		raw = kunit_kzalloc(test, sizeof(*raw), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, raw);
		rpcrdma2_test_conn_init(raw, &rr2r_envs[link]);
		raw->pdata = modes[i];
		ret = kunit_add_action_or_reset(test, rr2r_raw_cleanup, raw);
		KUNIT_ASSERT_EQ(test, ret, 0);
		ret = rpcrdma2_test_dial(raw,
					 (struct sockaddr *)&rr2r_svc.addr[link]);
		KUNIT_ASSERT_EQ(test, ret, 0);
		n = rr2r_msg1(msg, 0xd1 + i);
		n += rr2r_rpc_call(msg + n, 0xd1 + i, RR2R_PROG, RR2R_NULL);
		rr2r_raw_send(test, raw, msg, n);
		plen = rr2r_take(test, &raw->client, RPCRDMA2_VERS_1, &h, pl);
		KUNIT_EXPECT_EQ_MSG(test, h.htype, RDMA_MSG, "pdata mode %u",
				    modes[i]);
		KUNIT_ASSERT_GE(test, plen, 24);
		KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 20),
				RPC_SUCCESS);
	}
}

/* ---- chunks, from a raw QP that registers memory as a client does ---- */

struct rr2r_mr {
	struct ib_device	*dev;
	struct ib_mr		*mr;
	struct page		**pages;
	struct scatterlist	*sgl;
	u32			npages;
	int			nents;
};

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
static struct rr2r_mr *rr2r_mr(struct kunit *test,
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
static const struct rpcrdma2_limits rr2r_reply_lim = {
	.max_write_chunks	= RR2S_MAX_WRITE_CHUNKS,
	.max_segments		= RR2S_MAX_SEGS,
};

/* A segment of @len octets at @off of @m. */
static struct rpcrdma2_segment rr2r_seg(const struct rr2r_mr *m, u32 off,
					u32 len)
{
	return (struct rpcrdma2_segment){
		.handle	= m->mr->rkey,
		.length	= len,
		.offset	= m->mr->iova + off,
	};
}

static u8 *rr2r_mr_at(struct rr2r_mr *m, u32 off)
{
	return (u8 *)page_address(m->pages[off >> PAGE_SHIFT]) +
	       offset_in_page(off);
}

static void rr2r_mr_put(struct rr2r_mr *m, u32 off, const u8 *src, u32 len)
{
	for (; len; len--)
		*rr2r_mr_at(m, off++) = *src++;
}

static void rr2r_mr_fill(struct rr2r_mr *m, u32 off, u32 len, u32 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		*rr2r_mr_at(m, off + i) = rr2r_byte(seed, i);
}

static bool rr2r_mr_verify(struct rr2r_mr *m, u32 off, u32 len, u32 seed)
{
	u32 i;

	/* rxe and siw use virtual DMA: no sync stands between */
	for (i = 0; i < len; i++)
		if (*rr2r_mr_at(m, off + i) != rr2r_byte(seed, i))
			return false;
	return true;
}

/* The header of a Call with chunks, then its inline payload. */
static u32 rr2r_chunk_call(u8 *b, u32 vers, u32 xid, bool nomsg, u32 inv,
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
static u32 rr2r_args(u8 *p, u32 seed, u32 len)
{
	put_unaligned_be32(seed, p);
	put_unaligned_be32(len, p + 4);
	return 8;
}

/*
 * A raw client of @vers on a fresh connection: Version 2 is settled
 * first, Version 1 needs nothing.
 */
static struct rpcrdma2_test_conn *rr2r_raw_vers(struct kunit *test, u32 vers)
{
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	raw = rr2r_raw(test);
	if (vers == RPCRDMA2_VERS_2)
		rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	return raw;
}

/*
 * V2-CHUNK-19, V2-CHUNK-20, V2-CHUNK-24, V2-CHUNK-25, V2-CHUNK-10: the
 * GET data goes into the Write chunk, unpadded, the Reply's Write list
 * says how much, and the inline Reply has neither the data nor its pad.
 * V2-RINV-04 (rdma_inv_handle) and CMP-RINV-03 (Version 1, R set by both
 * ends, one rkey): the Reply is a Send With Invalidate of that rkey.
 */
static void rr2r_svc_write_chunk(struct kunit *test, u32 vers)
{
	const u32 len = 50001, seed = 0x5eed;
	struct rpcrdma2_test_conn *raw = rr2r_raw_vers(test, vers);
	struct rpcrdma2_recv *rv = &raw->client.ep.recvs[0];
	struct rpcrdma2_segment seg, echo;
	struct rpcrdma2_chunk_out w;
	struct rr2r_mr *m;
	struct rpcrdma2_hdr h;
	u8 msg[512], pl[64];
	u32 n, plen, rkey;
	bool inv;

	m = rr2r_mr(test, raw, 65536);
	seg = rr2r_seg(m, 0, 65536);
	rkey = seg.handle;
	w = (struct rpcrdma2_chunk_out){ .nsegs = 1, .segs = &seg };
	n = rr2r_chunk_call(msg, vers, 0xe1, false, rkey, NULL, 0, &w, 1,
			    NULL);
	n += rr2r_rpc_call(msg + n, 0xe1, RR2R_PROG, RR2R_GET);
	n += rr2r_args(msg + n, seed, len);
	rr2r_raw_send(test, raw, msg, n);

	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_wait_recv(&raw->client));
	inv = rv->remote_inv && rv->inv_rkey == rkey;
	n = rpcrdma2_decode_hdr(rv->buf, rv->len, vers, &rr2r_reply_lim, &h);
	KUNIT_ASSERT_EQ(test, n, 0);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
	KUNIT_ASSERT_EQ(test, h.writes.chunks, 1);
	KUNIT_ASSERT_EQ(test, rpcrdma2_write_chunk(rv->buf, &h, 0, 0, &echo),
			1);
	plen = rv->len - h.hdrlen;
	memcpy(pl, (u8 *)rv->buf + h.hdrlen, min_t(u32, plen, sizeof(pl)));
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_post_recv(&raw->client));

	KUNIT_EXPECT_EQ(test, echo.length, len);
	KUNIT_EXPECT_EQ(test, echo.handle, rkey);
	KUNIT_EXPECT_EQ(test, echo.offset, seg.offset);
	/* RPC Reply (24) and the length word: no data, no padding */
	KUNIT_EXPECT_EQ(test, plen, 28);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 20), RPC_SUCCESS);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 24), len);
	KUNIT_EXPECT_TRUE(test, rr2r_mr_verify(m, 0, len, seed));
	KUNIT_EXPECT_EQ(test, *rr2r_mr_at(m, len), 0);	/* V2-CHUNK-24 */
	KUNIT_EXPECT_TRUE_MSG(test, inv, "remote_inv %d rkey %x, want %x",
			      rv->remote_inv, rv->inv_rkey, rkey);
}

static void rr2r_svc_write_chunk_v1(struct kunit *test)
{
	/*
	 * asserts rr2r_svc_write_chunk: V2-CHUNK-10, V2-CHUNK-24, V2-CHUNK-25,
	 * CMP-RINV-03 (Version
	 * 1, R set)
	 */
	rr2r_svc_write_chunk(test, RPCRDMA2_VERS_1);
}

static void rr2r_svc_write_chunk_v2(struct kunit *test)
{
	/*
	 * asserts rr2r_svc_write_chunk: V2-CHUNK-10, V2-CHUNK-24, V2-CHUNK-25,
	 * V2-RINV-04
	 */
	rr2r_svc_write_chunk(test, RPCRDMA2_VERS_2);
}

/* Send a PUT Call and expect its Reply to say (ok, @len). */
static void rr2r_expect_put_ok(struct kunit *test,
			       struct rpcrdma2_test_conn *raw, u32 vers,
			       const u8 *msg, u32 n, u32 xid, u32 len)
{
	struct rpcrdma2_hdr h;
	u8 pl[64];
	u32 plen;

	rr2r_raw_send(test, raw, msg, n);
	plen = rr2r_take(test, &raw->client, vers, &h, pl);
	KUNIT_ASSERT_EQ_MSG(test, h.htype, RDMA2_MSG, "err %u", h.err);
	KUNIT_EXPECT_EQ(test, h.xid, xid);
	KUNIT_ASSERT_EQ(test, plen, 32);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 20), RPC_SUCCESS);
	KUNIT_EXPECT_EQ_MSG(test, get_unaligned_be32(pl + 24), 1,
			    "the server saw other octets than were sent");
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 28), len);
}

/*
 * V2-CHUNK-14, V2-CHUNK-15, V2-CHUNK-16: PUT data of odd length in a
 * Read chunk at its Position, pulled and padded by the server; then
 * V2-SPEC-01, V2-SPEC-02, V2-SPEC-07: a Special Format Call (NOMSG)
 * whose whole RPC message is a Position-Zero Read chunk of two
 * segments, which the server joins in list order; and a Call with two
 * Read chunks at two Positions.
 */
static void rr2r_svc_read_chunks(struct kunit *test, u32 vers)
{
	const u32 len = 10001, seed = 0xfeed, pz_len = 3001;
	struct rpcrdma2_test_conn *raw = rr2r_raw_vers(test, vers);
	struct rpcrdma2_chunk_out rd, rds[2];
	struct rpcrdma2_segment segs[2];
	struct rr2r_mr *m;
	u8 msg[512], call[48];
	u32 n, pz;

	/* a Version 1 Reply may invalidate it: one MR per Call */
	m = rr2r_mr(test, raw, 16384);
	rr2r_mr_fill(m, 0, len, seed);
	segs[0] = rr2r_seg(m, 0, len);
	rd = (struct rpcrdma2_chunk_out){ .nsegs = 1, .segs = segs,
					  .position = 48 };
	n = rr2r_chunk_call(msg, vers, 0xe2, false, 0, &rd, 1, NULL, 0, NULL);
	n += rr2r_rpc_call(msg + n, 0xe2, RR2R_PROG, RR2R_PUT);
	n += rr2r_args(msg + n, seed, len);
	rr2r_expect_put_ok(test, raw, vers, msg, n, 0xe2, len);

	/* the whole Call at 4096: header, arguments, data, padding */
	m = rr2r_mr(test, raw, 16384);
	pz = 4096;
	rr2r_rpc_call(call, 0xe3, RR2R_PROG, RR2R_PUT);
	rr2r_args(call + 40, seed, pz_len);
	rr2r_mr_put(m, pz, call, sizeof(call));
	rr2r_mr_fill(m, pz + 48, pz_len, seed);
	segs[0] = rr2r_seg(m, pz, 1000);
	segs[1] = rr2r_seg(m, pz + 1000, 48 + round_up(pz_len, 4) - 1000);
	rd = (struct rpcrdma2_chunk_out){ .nsegs = 2, .segs = segs };
	n = rr2r_chunk_call(msg, vers, 0xe3, true, 0, &rd, 1, NULL, 0, NULL);
	rr2r_expect_put_ok(test, raw, vers, msg, n, 0xe3, pz_len);

	/*
	 * V2-CHUNK-12: two Read chunks.  The second one's Position counts
	 * the first chunk and its padding, which are not inline: 48 +
	 * 1004, while the inline octets end at 48.  The PUT reads only
	 * the first; the second must be pulled all the same.
	 */
	m = rr2r_mr(test, raw, 16384);
	rr2r_mr_fill(m, 0, 1001, seed);
	segs[0] = rr2r_seg(m, 0, 1001);
	segs[1] = rr2r_seg(m, 8192, 500);
	rds[0] = (struct rpcrdma2_chunk_out){ .nsegs = 1, .segs = &segs[0],
					      .position = 48 };
	rds[1] = (struct rpcrdma2_chunk_out){ .nsegs = 1, .segs = &segs[1],
					      .position = 48 + 1004 };
	n = rr2r_chunk_call(msg, vers, 0xe5, false, 0, rds, 2, NULL, 0, NULL);
	n += rr2r_rpc_call(msg + n, 0xe5, RR2R_PROG, RR2R_PUT);
	n += rr2r_args(msg + n, seed, 1001);
	rr2r_expect_put_ok(test, raw, vers, msg, n, 0xe5, 1001);
}

static void rr2r_svc_read_chunks_v1(struct kunit *test)
{
	/* asserts rr2r_svc_read_chunks: V2-SPEC-02, V2-SPEC-07 */
	rr2r_svc_read_chunks(test, RPCRDMA2_VERS_1);
}

static void rr2r_svc_read_chunks_v2(struct kunit *test)
{
	/* asserts rr2r_svc_read_chunks: V2-SPEC-02, V2-SPEC-07 */
	rr2r_svc_read_chunks(test, RPCRDMA2_VERS_2);
}

/*
 * V2-SPEC-05: a Reply beyond the inline threshold goes into the
 * Reply chunk the Call provided (not continued, on Version 2 either),
 * as RDMA_NOMSG / RDMA2_NOMSG with the Reply chunk's length written.
 */
static void rr2r_svc_reply_chunk(struct kunit *test, u32 vers)
{
	const u32 len = 6000, seed = 0xbeef;
	struct rpcrdma2_test_conn *raw = rr2r_raw_vers(test, vers);
	struct rpcrdma2_segment seg, echo;
	struct rpcrdma2_chunk_out rc;
	struct rr2r_mr *m;
	struct rpcrdma2_hdr h;
	u8 msg[512], head[28];
	u32 n;

	m = rr2r_mr(test, raw, 16384);
	seg = rr2r_seg(m, 0, 16384);
	rc = (struct rpcrdma2_chunk_out){ .nsegs = 1, .segs = &seg };
	n = rr2r_chunk_call(msg, vers, 0xe4, false, 0, NULL, 0, NULL, 0, &rc);
	n += rr2r_rpc_call(msg + n, 0xe4, RR2R_PROG, RR2R_GET);
	n += rr2r_args(msg + n, seed, len);
	rr2r_raw_send(test, raw, msg, n);
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_wait_recv(&raw->client));
	n = rpcrdma2_decode_hdr(rpcrdma2_test_recv_buf(&raw->client),
				rpcrdma2_test_recv_len(&raw->client), vers,
				&rr2r_reply_lim, &h);
	KUNIT_ASSERT_EQ(test, n, 0);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA2_NOMSG);
	KUNIT_ASSERT_EQ(test, h.reply.chunks, 1);
	rpcrdma2_reply_chunk(rpcrdma2_test_recv_buf(&raw->client), &h, 0,
			     &echo);
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_post_recv(&raw->client));
	KUNIT_EXPECT_EQ(test, echo.length, 28 + len);
	memcpy(head, rr2r_mr_at(m, 0), sizeof(head));
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(head), 0xe4);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(head + 20), RPC_SUCCESS);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(head + 24), len);
	KUNIT_EXPECT_TRUE(test, rr2r_mr_verify(m, 28, len, seed));
}

static void rr2r_svc_reply_chunk_v1(struct kunit *test)
{
	/* asserts rr2r_svc_reply_chunk: V2-SPEC-05 */
	rr2r_svc_reply_chunk(test, RPCRDMA2_VERS_1);
}

static void rr2r_svc_reply_chunk_v2(struct kunit *test)
{
	/* asserts rr2r_svc_reply_chunk: V2-SPEC-05 */
	rr2r_svc_reply_chunk(test, RPCRDMA2_VERS_2);
}

/* Expect the next message to be RDMA2_ERROR @err for @xid. */
static void rr2r_expect_err(struct kunit *test, struct rpcrdma2_test_conn *raw,
			    u32 xid, u32 err, u32 arg0, u32 arg1)
{
	struct rpcrdma2_hdr h;

	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.xid, xid);
	KUNIT_EXPECT_EQ_MSG(test, h.err, err, "xid 0x%x", xid);
	KUNIT_EXPECT_EQ_MSG(test, h.err_arg[0], arg0, "xid 0x%x", xid);
	KUNIT_EXPECT_EQ_MSG(test, h.err_arg[1], arg1, "xid 0x%x", xid);
}

/*
 * Hostile chunk lists (V2-SEC-17): each gets the protocol's error and
 * the connection carries on; a handle that was never registered costs
 * only that connection (V2-ERR-50), and another client of the same
 * server is not disturbed.
 *   V2-ERR-38: a Write chunk of RCSIZ + 1 segments -> SEGMENTS(32);
 *   V2-ERR-40, V2-ERR-41, V2-ERR-42: a Write chunk too small for the
 *     data -> WRITE_RESOURCE(index 1, length needed);
 *   V2-ERR-51: a Read chunk Position past the inline octets, a Read
 *     chunk longer than any Call, a segment whose offset wraps ->
 *     BAD_XDR.
 */
static void rr2r_svc_hostile_chunks(struct kunit *test)
{
	/*
	 * asserts V2-ERR-38 (SEGMENTS), V2-ERR-40, V2-ERR-41, V2-ERR-42
	 * (WRITE_RESOURCE, index,
	 * length)
	 */
	const u32 nsegs = RR2S_MAX_SEGS + 1;
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_segment *segs;
	struct rpcrdma2_chunk_out ck;
	struct rpc_clnt *clnt;
	struct page **pages;
	struct rr2r_mr *m;
	u32 n, i;
	u8 *msg;

	/* off the stack: the KASAN kernel's frames are small */
	segs = kunit_kcalloc(test, nsegs, sizeof(*segs), GFP_KERNEL);
	msg = kunit_kzalloc(test, 1024, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, segs && msg);
	raw = rr2r_raw_vers(test, RPCRDMA2_VERS_2);
	m = rr2r_mr(test, raw, 8192);
	for (i = 0; i < nsegs; i++)
		segs[i] = rr2r_seg(m, 0, 8);
	ck = (struct rpcrdma2_chunk_out){ .nsegs = nsegs, .segs = segs };
	n = rr2r_chunk_call(msg, RPCRDMA2_VERS_2, 0xf1, false, 0, NULL, 0,
			    &ck, 1, NULL);
	n += rr2r_rpc_call(msg + n, 0xf1, RR2R_PROG, RR2R_GET);
	n += rr2r_args(msg + n, 1, 100);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_expect_err(test, raw, 0xf1, RDMA2_ERR_SEGMENTS, RR2S_MAX_SEGS, 0);

	segs[0] = rr2r_seg(m, 0, 4000);
	ck = (struct rpcrdma2_chunk_out){ .nsegs = 1, .segs = segs };
	n = rr2r_chunk_call(msg, RPCRDMA2_VERS_2, 0xf2, false, 0, NULL, 0,
			    &ck, 1, NULL);
	n += rr2r_rpc_call(msg + n, 0xf2, RR2R_PROG, RR2R_GET);
	n += rr2r_args(msg + n, 1, 5000);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_expect_err(test, raw, 0xf2, RDMA2_ERR_WRITE_RESOURCE, 1, 5000);

	segs[0] = rr2r_seg(m, 0, 100);
	ck = (struct rpcrdma2_chunk_out){ .nsegs = 1, .segs = segs,
					  .position = 4096 };
	n = rr2r_chunk_call(msg, RPCRDMA2_VERS_2, 0xf3, false, 0, &ck, 1,
			    NULL, 0, NULL);
	n += rr2r_rpc_call(msg + n, 0xf3, RR2R_PROG, RR2R_PUT);
	n += rr2r_args(msg + n, 1, 100);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_expect_err(test, raw, 0xf3, RDMA2_ERR_BAD_XDR, 0, 0);

	segs[0] = rr2r_seg(m, 0, 0x7fffffff);
	ck.position = 48;
	n = rr2r_chunk_call(msg, RPCRDMA2_VERS_2, 0xf4, false, 0, &ck, 1,
			    NULL, 0, NULL);
	n += rr2r_rpc_call(msg + n, 0xf4, RR2R_PROG, RR2R_PUT);
	n += rr2r_args(msg + n, 1, 0x7fffffff);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_expect_err(test, raw, 0xf4, RDMA2_ERR_BAD_XDR, 0, 0);

	segs[0] = rr2r_seg(m, 0, 100);
	segs[0].offset = U64_MAX - 10;
	n = rr2r_chunk_call(msg, RPCRDMA2_VERS_2, 0xf5, false, 0, &ck, 1,
			    NULL, 0, NULL);
	n += rr2r_rpc_call(msg + n, 0xf5, RR2R_PROG, RR2R_PUT);
	n += rr2r_args(msg + n, 1, 100);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_expect_err(test, raw, 0xf5, RDMA2_ERR_BAD_XDR, 0, 0);

	/* an rkey that was never registered: the RDMA Read fails */
	segs[0] = rr2r_seg(m, 0, 100);
	segs[0].handle ^= 0x5a5a5a00;
	n = rr2r_chunk_call(msg, RPCRDMA2_VERS_2, 0xf6, false, 0, &ck, 1,
			    NULL, 0, NULL);
	n += rr2r_rpc_call(msg + n, 0xf6, RR2R_PROG, RR2R_PUT);
	n += rr2r_args(msg + n, 1, 100);
	memcpy(rpcrdma2_test_send_buf(&raw->client), msg, n);
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_post_send(&raw->client, n));
	/* the failed Read breaks the QP at both ends: the Send may flush */
	rpcrdma2_test_wait_send(&raw->client);
	KUNIT_EXPECT_NE_MSG(test, 0, rpcrdma2_test_wait_recv(&raw->client),
			    "the connection outlived a bad rkey");

	clnt = rr2r_clnt(test);
	pages = rr2r_pages(test);
	rr2r_roundtrip(test, clnt, pages, 100000);
}

/* The server-side svc_xprt of a raw client's connection, referenced. */
static struct svc_xprt *rr2r_svc_xprt_of(struct rpcrdma2_test_conn *raw)
{
	struct sockaddr *me =
		(struct sockaddr *)&raw->client.id->route.addr.src_addr;
	struct svc_serv *serv = rr2r_svc.serv;
	struct svc_xprt *x, *found = NULL;

	spin_lock_bh(&serv->sv_lock);
	/* the raw client's port is its own (link-local scopes may differ) */
	list_for_each_entry(x, &serv->sv_tempsocks, xpt_list) {
		if (rpc_get_port((struct sockaddr *)&x->xpt_remote) ==
		    rpc_get_port(me)) {
			svc_xprt_get(x);
			found = x;
			break;
		}
	}
	spin_unlock_bh(&serv->sv_lock);
	return found;
}

static void rr2r_svc_xprt_put(void *data)
{
	svc_xprt_put(data);
}

/* A callback client on the connection @sx (referenced), as nfsd makes. */
static struct rpc_clnt *rr2r_bc_clnt_on(struct kunit *test,
					struct svc_xprt *sx)
{
	struct rpc_create_args args = {
		.net		= &init_net,
		.protocol	= XPRT_TRANSPORT_BC_RDMA,
		.timeout	= &rr2r_timeout,
		.servername	= "rpcrdma2-test-cb",
		.program	= &rr2r_clnt_program,
		.version	= RR2R_VERS,
		.authflavor	= RPC_AUTH_NULL,
		.cred		= current_cred(),
		.flags		= RPC_CLNT_CREATE_NOPING |
				  RPC_CLNT_CREATE_QUIET,
	};
	int ret;

	ret = kunit_add_action_or_reset(test, rr2r_svc_xprt_put, sx);
	KUNIT_ASSERT_EQ(test, ret, 0);
	args.address = (struct sockaddr *)&sx->xpt_remote;
	args.addrsize = sx->xpt_remotelen;
	args.bc_xprt = sx;
	return rpc_create(&args);
}

/* A callback client on the raw client's connection. */
static struct rpc_clnt *rr2r_bc_clnt(struct kunit *test,
				     struct rpcrdma2_test_conn *raw)
{
	struct svc_xprt *sx = NULL;
	int i;

	for (i = 0; i < 100 && !sx; i++) {
		sx = rr2r_svc_xprt_of(raw);
		if (!sx)
			msleep(50);
	}
	KUNIT_ASSERT_NOT_NULL(test, sx);
	return rr2r_bc_clnt_on(test, sx);
}

/* A reverse Call from its own thread: @proc (NULL if 0) with PUT/GET args. */
struct rr2r_bc_call {
	struct rpc_clnt		*clnt;
	u32			proc;
	struct page		**pages;
	u32			len;
	u32			seed;
	struct rr2r_res		res;
	int			status;
	struct completion	done;
};

static int rr2r_bc_caller(void *data)
{
	struct rr2r_bc_call *bc = data;
	struct rr2r_args args = {
		.seed = bc->seed, .len = bc->len, .pages = bc->pages,
	};
	struct rpc_message msg = {
		.rpc_proc = &rr2r_clnt_procs[bc->proc],
		.rpc_argp = &args,
		.rpc_resp = &bc->res,
	};

	if (bc->pages)
		rr2r_fill(bc->pages, bc->len, bc->seed);
	bc->status = rpc_call_sync(bc->clnt, &msg, RPC_TASK_SOFT);
	complete(&bc->done);
	return 0;
}

/*
 * RFC 8167 and the Version 2 reverse direction on the server, over a raw client:
 * a client that advertises BRS NONE gets no callback client at all
 * (V2-RDIR-11); one that advertises SIMPLE gets a reverse Call with a
 * fresh XID in both headers (V2-RDIR-03), the connection's version
 * (V2-RDIR-04), RESPONSE clear (V2-RDIR-05), and its Reply, routed by
 * RESPONSE (V2-RDIR-18), completes it.
 */
static void rr2r_backchannel_brs(struct kunit *test)
{
	/*
	 * asserts V2-RDIR-03, V2-RDIR-04, V2-RDIR-05 (the reverse Call's
	 * header), V2-RDIR-11
	 * (none with BRS NONE)
	 */
	struct rpcrdma2_test_conn *raw;
	struct rr2r_bc_call *bc;
	struct task_struct *t;
	struct rpc_clnt *clnt;
	struct rpcrdma2_hdr h;
	u8 msg[128], pl[64];
	u32 n, plen, xid;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	raw = rr2r_raw(test);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_NONE, &h);
	clnt = rr2r_bc_clnt(test, raw);
	KUNIT_EXPECT_TRUE(test, IS_ERR(clnt));
	if (!IS_ERR(clnt))
		rpc_shutdown_client(clnt);

	raw = rr2r_raw(test);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	clnt = rr2r_bc_clnt(test, raw);
	KUNIT_ASSERT_FALSE(test, IS_ERR(clnt));
	n = kunit_add_action_or_reset(test, rr2r_clnt_cleanup, clnt);
	KUNIT_ASSERT_EQ(test, n, 0);
	bc = kunit_kzalloc(test, sizeof(*bc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bc);
	bc->clnt = clnt;
	init_completion(&bc->done);
	t = kthread_run(rr2r_bc_caller, bc, "rr2r-bc");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));

	plen = rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, pl);
	KUNIT_EXPECT_EQ(test, h.vers, RPCRDMA2_VERS_2);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_MSG);
	KUNIT_EXPECT_EQ(test, h.flags & RDMA2_F_RESPONSE, 0);
	KUNIT_ASSERT_GE(test, plen, 24);
	xid = get_unaligned_be32(pl);
	KUNIT_EXPECT_EQ(test, h.xid, xid);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 4), RPC_CALL);

	n = rr2r_msg2(msg, xid, RDMA2_F_RESPONSE);
	n += rr2r_rpc_reply(msg + n, xid, RPC_SUCCESS);
	rr2r_raw_send(test, raw, msg, n);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&bc->done,
							    60 * HZ));
	KUNIT_EXPECT_EQ(test, bc->status, 0);
}

/* ---- knobs and counters (/proc/sys/sunrpc, /proc/sys/sunrpc/svc_rdma) ---- */

/* The server's file @name, or the client's: the names do not overlap. */
static struct ctl_table *rr2r_sysctl(struct kunit *test, const char *name)
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
static int rr2r_sysctl_write(struct kunit *test, const char *name,
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

static unsigned long rr2r_sysctl_read(struct kunit *test, const char *name)
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

static void rr2r_knobs_reset(void *data)
{
	rr2s_knobs_reset();
}

static void rr2r_clnt_knobs_reset(void *data)
{
	rr2c_knobs_reset();
}

/*
 * The server's connection for a client whose end is @sa, found by its
 * port, which the rdma_cm port space keeps unique: the address as the
 * two ends see it did not compare equal over rxe.
 */
static struct rr2s_conn *rr2r_svc_conn_from(struct kunit *test,
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
static struct rr2s_conn *rr2r_svc_conn(struct kunit *test,
				       struct rpcrdma2_test_conn *raw)
{
	return rr2r_svc_conn_from(test, (struct sockaddr *)
				  &raw->client.id->route.addr.src_addr);
}

/* A NULL Call from @raw (Version 2, settled); its Reply's grant. */
static u32 rr2r_null_grant(struct kunit *test,
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

static void rr2r_hostauth_reset(void *data)
{
	rpcrdma2_test_set_hostauth("");
}

/*
 * V2-PROP-09: with the hostauth parameter set, each half sends it as
 * HOSTAUTH in its CONNPROP and the other keeps what it received (a
 * trailing newline, as echo leaves, is not sent); the server counts
 * the client.  Nothing checks it: the connection carries on.
 */
static void rr2r_hostauth_both_halves(struct kunit *test)
{
	struct rpc_clnt *clnt;
	struct rr2s_conn *c;
	struct rr2c *r;
	unsigned long before;

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_hostauth_reset,
							   NULL));
	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	before = rr2r_sysctl_read(test, "rpcrdma2_hostauth");
	rpcrdma2_test_set_hostauth("kunit-host-key\n");
	clnt = rr2r_clnt(test);
	r = rr2c(rr2r_xprt(clnt));
	c = rr2r_svc_conn_from(test, (struct sockaddr *)
			       &r->id->route.addr.src_addr);
	KUNIT_EXPECT_EQ(test, c->link.conn.peer_hostauth_len, 14);
	KUNIT_EXPECT_EQ(test, memcmp(c->link.conn.peer_hostauth, "kunit-host-key",
				     14), 0);
	KUNIT_EXPECT_EQ(test, r->link.conn.peer_hostauth_len, 14);
	KUNIT_EXPECT_EQ(test, memcmp(r->link.conn.peer_hostauth, "kunit-host-key",
				     14), 0);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "rpcrdma2_hostauth"),
			before + 1);
	rr2r_roundtrip(test, clnt, rr2r_pages(test), 5000);
}

static void rr2r_port_up(void *data)
{
	rr2s_test_set_port_down(false);
}

/* Wait up to 10 s for @n parked cm_ids. */
static bool rr2r_wait_parked(u32 n)
{
	int i;

	for (i = 0; i < 200 && rr2s_parked_count() != n; i++)
		msleep(50);
	return rr2s_parked_count() == n;
}

/* Wait up to 10 s for @xprt to see its connection go. */
static bool rr2r_wait_disconnected(struct rpc_xprt *xprt)
{
	int i;

	for (i = 0; i < 200 && xprt_connected(xprt); i++)
		msleep(50);
	return !xprt_connected(xprt);
}

/*
 * A connection the server closes while its port is down sends no DREQ,
 * which on 6.12 rxe would leave the device's GSI QP in error for good
 * (the fault soak's link flap): its QP goes to the error state, its
 * cm_id is parked, and the client hears nothing yet.  Once the port is
 * up again the cm_id is destroyed, the DREQ goes out, the client sees
 * the disconnect and reconnects.  "Down" is a test hook here: the
 * device's port state is what the module reads otherwise.  On iWARP
 * (siw) nothing is parked: its disconnect is the TCP stream's.
 */
static void rr2r_svc_close_port_down_parks(struct kunit *test)
{
	struct page **pages = rr2r_pages(test);
	struct rpc_xprt *xprt;
	struct rpc_clnt *clnt;
	struct rr2s_conn *c;
	struct rr2c *r;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	clnt = rr2r_clnt(test);
	xprt = rr2r_xprt(clnt);
	r = rr2c(xprt);
	c = rr2r_svc_conn_from(test, (struct sockaddr *)
			       &r->id->route.addr.src_addr);
	KUNIT_ASSERT_EQ(test, rr2s_parked_count(), 0);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, rr2r_port_up,
							   NULL));
	rr2s_test_set_port_down(true);
	svc_xprt_deferred_close(&c->b.xprt);	/* @c is gone after this */
	if (rr2r_link_of(test) == RPCRDMA2_TEST_SIW) {
		/* iWARP: no MAD, the disconnect is TCP's and goes at once */
		KUNIT_EXPECT_TRUE(test, rr2r_wait_disconnected(xprt));
		KUNIT_EXPECT_EQ(test, rr2s_parked_count(), 0);
		rr2r_roundtrip(test, clnt, pages, 4096);
		return;
	}
	KUNIT_EXPECT_TRUE(test, rr2r_wait_parked(1));
	msleep(1000);
	KUNIT_EXPECT_EQ(test, rr2s_parked_count(), 1);
	KUNIT_EXPECT_TRUE(test, xprt_connected(xprt));	/* no DREQ came */

	rr2s_test_set_port_down(false);
	KUNIT_EXPECT_TRUE(test, rr2r_wait_parked(0));
	KUNIT_EXPECT_TRUE(test, rr2r_wait_disconnected(xprt));
	rr2r_roundtrip(test, clnt, pages, 4096);
	KUNIT_EXPECT_GE(test, xprt->stat.connect_count, 2);
}

/* ---- reverse-direction levels (BRS), rpcrdma2 at both ends ---- */

static void rr2r_bc_serv_off(void *data)
{
	struct rpc_xprt *xprt = data;

	WRITE_ONCE(xprt->bc_serv, NULL);
}

static void rr2r_rvrsdir_reset(void *data)
{
	rpcrdma2_test_set_rvrsdir(RDMA2_RVRSDIR_CONT, RDMA2_RVRSDIR_CONT);
}

/*
 * rpcrdma2 at both ends, the client with 1024-octet buffers (so each
 * end's sends toward the other are 1024 octets at most), the client's
 * callback
 * service the test service (as the NFS client's is), and a callback
 * client on the server's end of the connection, as nfsd makes.
 */
static struct rpc_clnt *rr2r_bc_setup(struct kunit *test, u32 clnt_brs,
				      u32 svc_brs, struct rr2c **rp,
				      struct rr2s_conn **cp)
{
	struct rpc_xprt *xprt;
	struct rpc_clnt *clnt;
	struct rr2s_conn *c;
	struct rr2c *r;
	int ret;

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_clnt_knobs_reset,
							   NULL));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_rvrsdir_reset,
							   NULL));
	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	rpcrdma2_test_set_rvrsdir(clnt_brs, svc_brs);
	KUNIT_ASSERT_EQ(test, 0, rr2r_sysctl_write(test, "rdma_max_inline_read",
						   "1024"));
	KUNIT_ASSERT_EQ(test, 0, rr2r_sysctl_write(test,
						   "rdma_max_inline_write",
						   "1024"));
	clnt = rr2r_clnt(test);
	xprt = rr2r_xprt(clnt);
	r = rr2c(xprt);
	KUNIT_ASSERT_EQ(test, rpcrdma2_clnt_test_version(xprt),
			RPCRDMA2_VERS_2);
	KUNIT_ASSERT_EQ(test, 0, xprt_setup_backchannel(xprt, 2));
	WRITE_ONCE(xprt->bc_serv, rr2r_svc.serv);
	ret = kunit_add_action_or_reset(test, rr2r_bc_serv_off, xprt);
	KUNIT_ASSERT_EQ(test, ret, 0);

	c = rr2r_svc_conn_from(test, (struct sockaddr *)
			       &r->id->route.addr.src_addr);
	/* V2-RDIR-10: each end advertised its level, and each heard it */
	KUNIT_EXPECT_EQ(test, r->link.local.brs, clnt_brs);
	KUNIT_EXPECT_EQ(test, c->link.local.brs, svc_brs);
	KUNIT_EXPECT_EQ(test, c->link.conn.peer_props.brs, clnt_brs);
	KUNIT_EXPECT_EQ(test, r->link.conn.peer_props.brs, svc_brs);
	KUNIT_EXPECT_EQ(test, c->link.conn.send_inline, 1024);
	KUNIT_EXPECT_EQ(test, r->link.conn.send_inline, 1024);
	*rp = r;
	*cp = c;
	return clnt;
}

/* As rr2r_bc_setup(), and the server's callback client. */
static struct rpc_clnt *rr2r_bc_loop(struct kunit *test, u32 clnt_brs,
				     u32 svc_brs, struct rr2c **rp,
				     struct rr2s_conn **cp)
{
	struct rpc_clnt *bc;
	int ret;

	rr2r_bc_setup(test, clnt_brs, svc_brs, rp, cp);
	svc_xprt_get(&(*cp)->b.xprt);
	bc = rr2r_bc_clnt_on(test, &(*cp)->b.xprt);
	KUNIT_ASSERT_FALSE(test, IS_ERR(bc));
	ret = kunit_add_action_or_reset(test, rr2r_clnt_cleanup, bc);
	KUNIT_ASSERT_EQ(test, ret, 0);
	return bc;
}

/* Wait up to 10 s for *@counter to pass @old. */
static bool rr2r_counter_moves(const u64 *counter, u64 old)
{
	int i;

	for (i = 0; i < 200 && READ_ONCE(*counter) == old; i++)
		msleep(50);
	return READ_ONCE(*counter) != old;
}

/*
 * Start a reverse Call in its own thread: @proc on @clnt with @len
 * octets of @pages.  @bc is kzalloc()ed and owned by the test until
 * rr2r_bc_abandon(): the thread may outlive a failed case.
 */
static struct rr2r_bc_call *rr2r_bc_start(struct kunit *test,
					  struct rpc_clnt *clnt, u32 proc,
					  struct page **pages, u32 len, u32 seed)
{
	struct rr2r_bc_call *bc = kzalloc(sizeof(*bc), GFP_KERNEL);
	struct task_struct *t;

	KUNIT_ASSERT_NOT_NULL(test, bc);
	*bc = (struct rr2r_bc_call){
		.clnt = clnt, .proc = proc, .pages = pages, .len = len,
		.seed = seed,
	};
	init_completion(&bc->done);
	t = kthread_run(rr2r_bc_caller, bc, "rr2r-bc");
	if (IS_ERR(t))
		kfree(bc);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	return bc;
}

/*
 * A reverse Call that cannot complete: let it go, and its thread end.
 * If the thread does not, @bc is left to it (leaked), never freed under it.
 */
static void rr2r_bc_abandon(struct kunit *test, struct rr2r_bc_call *bc)
{
	rpc_killall_tasks(bc->clnt);
	if (wait_for_completion_timeout(&bc->done, 60 * HZ))
		kfree(bc);
	else
		KUNIT_FAIL(test, "an abandoned reverse Call did not end");
}

/*
 * A reverse GET of 3000 octets whose Reply the client cannot send in
 * one Send: the client counts it too big, and the Call is let go.
 */
static void rr2r_bc_reply_too_big(struct kunit *test, struct rpc_clnt *clnt,
				  struct rr2c *r, struct page **pages, u32 seed)
{
	u64 too_big = r->stats.too_big;
	struct rr2r_bc_call *bc;

	bc = rr2r_bc_start(test, clnt, RR2R_GET, pages, 3000, seed);
	KUNIT_EXPECT_TRUE(test, rr2r_counter_moves(&r->stats.too_big,
						   too_big));
	rr2r_bc_abandon(test, bc);
}

/*
 * V2-RDIR-12, V2-RDIR-14: reverse-direction messages stay within the
 * level the receiving end advertised in BRS (V2-RDIR-10), rpcrdma2 at both
 * ends and 1024-octet inline thresholds both ways.  At CONT, a 3000-octet
 * reverse Call and a 3000-octet reverse Reply each go as a continued
 * message without chunks and arrive whole: the callback service checks
 * every byte of the one, the server's callback client every byte of
 * the other.  A reverse Call longer than a callback slot
 * (bc_maxpayload) is dropped by the client, not delivered cut short.
 */
static void rr2r_backchannel_cont(struct kunit *test)
{
	struct page **pages = rr2r_pages(test);
	u64 cont, dropped, calls;
	struct rr2r_bc_call *bc;
	struct rpc_clnt *clnt;
	struct rr2s_conn *c;
	struct rr2r_res res;
	struct rr2c *r;

	clnt = rr2r_bc_loop(test, RDMA2_RVRSDIR_CONT, RDMA2_RVRSDIR_CONT,
			    &r, &c);
	cont = r->stats.cont_msgs;
	calls = r->stats.bc_calls;
	KUNIT_EXPECT_EQ(test, rr2r_put_proc(clnt, RR2R_PUT_CONT, pages, 3000,
					    0x31, &res), 0);
	KUNIT_EXPECT_EQ(test, res.ok, 1);
	KUNIT_EXPECT_EQ(test, res.len, 3000);
	KUNIT_EXPECT_EQ(test, r->stats.bc_calls, calls + 1);
	KUNIT_EXPECT_EQ(test, c->bc_calls, 1);

	KUNIT_EXPECT_EQ(test, rr2r_get(clnt, pages, 3000, 0x32, &res), 0);
	KUNIT_EXPECT_EQ(test, res.ok, 1);
	KUNIT_EXPECT_EQ(test, res.len, 3000);
	KUNIT_EXPECT_TRUE(test, rr2r_verify(pages, 3000, 0x32));
	/* the reverse Reply was the client's only continued message */
	KUNIT_EXPECT_EQ(test, r->stats.cont_msgs, cont + 1);

	/* more than a slot holds: dropped whole */
	dropped = r->stats.bc_dropped;
	bc = rr2r_bc_start(test, clnt, RR2R_PUT_CONT, pages, PAGE_SIZE + 1000,
			   0x33);
	KUNIT_EXPECT_TRUE(test, rr2r_counter_moves(&r->stats.bc_dropped,
						   dropped));
	rr2r_bc_abandon(test, bc);
	/* and the connection carries on */
	KUNIT_EXPECT_EQ(test, rr2r_put_proc(clnt, RR2R_PUT_CONT, pages, 2000,
					    0x34, &res), 0);
	KUNIT_EXPECT_EQ(test, res.ok, 1);
}

/*
 * V2-RDIR-12, V2-RDIR-14: at SIMPLE (or NONE), nothing is continued
 * toward that end.  A client at SIMPLE: the server fails a reverse Call that
 * does
 * not fit one Send (-EMSGSIZE) without sending any of it, and a small
 * one still works.  A server at SIMPLE: the client does not send a
 * reverse Reply that does not fit one Send (counted as too big), and a
 * small one still works.
 */
static void rr2r_backchannel_simple(struct kunit *test)
{
	struct page **pages = rr2r_pages(test);
	struct rpc_clnt *clnt;
	struct rr2s_conn *c;
	struct rr2r_res res;
	struct rr2c *r;
	u64 recvs;

	clnt = rr2r_bc_loop(test, RDMA2_RVRSDIR_SIMPLE, RDMA2_RVRSDIR_CONT,
			    &r, &c);
	recvs = r->link.recvs;
	KUNIT_EXPECT_EQ(test, rr2r_put_proc(clnt, RR2R_PUT_CONT, pages, 3000,
					    0x41, &res), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, r->link.recvs, recvs);
	KUNIT_EXPECT_EQ(test, rr2r_put_proc(clnt, RR2R_PUT_CONT, pages, 500,
					    0x42, &res), 0);
	KUNIT_EXPECT_EQ(test, res.ok, 1);

	clnt = rr2r_bc_loop(test, RDMA2_RVRSDIR_CONT, RDMA2_RVRSDIR_SIMPLE,
			    &r, &c);
	rr2r_bc_reply_too_big(test, clnt, r, pages, 0x43);
	KUNIT_EXPECT_EQ(test, rr2r_get(clnt, pages, 500, 0x44, &res), 0);
	KUNIT_EXPECT_TRUE(test, rr2r_verify(pages, 500, 0x44));
}

/*
 * A server at NONE takes no reverse Replies, so it makes no reverse
 * Calls (V2-RDIR-10, V2-RDIR-11): nfsd gets no callback transport.  A client
 * still answers a server that calls anyway inline, as at SIMPLE
 * (XCH-RDIR-02): seen with the server's own level forced back up
 * after the connection settled.
 */
static void rr2r_backchannel_server_none(struct kunit *test)
{
	/* asserts V2-RDIR-11 */
	struct page **pages = rr2r_pages(test);
	struct rpc_clnt *bc;
	struct rr2s_conn *c;
	struct rr2r_res res;
	struct rr2c *r;

	rr2r_bc_setup(test, RDMA2_RVRSDIR_CONT, RDMA2_RVRSDIR_NONE, &r, &c);
	svc_xprt_get(&c->b.xprt);
	bc = rr2r_bc_clnt_on(test, &c->b.xprt);
	KUNIT_EXPECT_TRUE(test, IS_ERR(bc));
	if (!IS_ERR(bc))
		rpc_shutdown_client(bc);
	c->link.local.brs = RDMA2_RVRSDIR_CONT;	/* a server that calls anyway */
	svc_xprt_get(&c->b.xprt);
	bc = rr2r_bc_clnt_on(test, &c->b.xprt);
	KUNIT_ASSERT_FALSE(test, IS_ERR(bc));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_clnt_cleanup,
							   bc));
	rr2r_bc_reply_too_big(test, bc, r, pages, 0x45);
	KUNIT_EXPECT_EQ(test, rr2r_get(bc, pages, 500, 0x46, &res), 0);
	KUNIT_EXPECT_TRUE(test, rr2r_verify(pages, 500, 0x46));
	KUNIT_EXPECT_EQ(test, r->stats.cont_msgs, 0);
}

/* Wait up to 10 s for @ep to have @want Receives posted. */
static bool rr2r_posted_settles(struct rpcrdma2_ep *ep, u32 want)
{
	int i;

	for (i = 0; i < 200 && atomic_read(&ep->recvs_posted) != want; i++)
		msleep(50);
	return atomic_read(&ep->recvs_posted) == want;
}

static void rr2r_release_holds(void *data)
{
	complete_all(&rr2r_svc.release);
}

/*
 * Receives posted at each end of a connection with a back channel,
 * rpcrdma2 at both ends, as each endpoint counts them (posted and not
 * yet completed):
 *   BC1-CRED-08: the client keeps one per forward credit plus its
 *   backward set (the callback slots it advertises) posted, after
 *   forward Calls, reverse Calls and their Replies;
 *   BC1-CRED-11: the server keeps one per forward credit plus one per
 *   backward Call it may have out, while one is out and after;
 *   BC1-CRED-09, BC1-CRED-12: after the connection is dropped and made
 *   again, both new endpoints have the full set posted again (it does
 *   not depend on what was outstanding: every credit and every
 *   backward slot has its Receive).
 */
static void rr2r_bc1_cred_08_receives_posted(struct kunit *test)
{
	/* asserts BC1-CRED-08, BC1-CRED-09, BC1-CRED-11, BC1-CRED-12 */
	struct page **pages = rr2r_pages(test);
	struct rr2r_bc_call *hold;
	struct rpc_clnt *clnt, *bc;
	struct rpc_xprt *xprt;
	struct rr2s_conn *c;
	struct rr2r_res res;
	struct rr2c *r;
	u32 cwant, swant;
	int i;

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_release_holds,
							   NULL));
	clnt = rr2r_bc_setup(test, RDMA2_RVRSDIR_CONT, RDMA2_RVRSDIR_CONT,
			     &r, &c);
	xprt = rr2r_xprt(clnt);
	svc_xprt_get(&c->b.xprt);
	bc = rr2r_bc_clnt_on(test, &c->b.xprt);
	KUNIT_ASSERT_FALSE(test, IS_ERR(bc));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_clnt_cleanup,
							   bc));

	swant = c->max_grant + RR2S_BC_SLOTS + RPCRDMA2_RECV_EXTRA;
	rr2r_roundtrip(test, clnt, pages, 500);
	/* the client: a Receive per credit the server granted (V2-CRED-01) */
	cwant = rpcrdma2_clnt_test_grant(xprt) + RR2C_BC_SLOTS +
		RPCRDMA2_RECV_EXTRA;
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_grant(xprt),
			min_t(u32, r->credits, RR2S_CREDITS_INIT));
	KUNIT_EXPECT_EQ(test, rr2r_get(bc, pages, 500, 0x51, &res), 0);
	KUNIT_EXPECT_TRUE(test, rr2r_verify(pages, 500, 0x51));
	KUNIT_EXPECT_TRUE(test, rr2r_posted_settles(&r->link.ep, cwant));
	KUNIT_EXPECT_TRUE(test, rr2r_posted_settles(&c->link.ep, swant));

	/* a reverse Call out: its Reply has a Receive at the server */
	reinit_completion(&rr2r_svc.release);
	atomic_set(&rr2r_svc.held, 0);
	hold = rr2r_bc_start(test, bc, RR2R_HOLD, NULL, 0, 0);
	for (i = 0; i < 200 && !atomic_read(&rr2r_svc.held); i++)
		msleep(50);
	KUNIT_EXPECT_EQ(test, atomic_read(&rr2r_svc.held), 1);
	KUNIT_EXPECT_TRUE(test, rr2r_posted_settles(&c->link.ep, swant));
	KUNIT_EXPECT_TRUE(test, rr2r_posted_settles(&r->link.ep, cwant));
	complete_all(&rr2r_svc.release);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&hold->done,
							    60 * HZ));
	KUNIT_EXPECT_EQ(test, hold->status, 0);
	kfree(hold);
	KUNIT_EXPECT_TRUE(test, rr2r_posted_settles(&c->link.ep, swant));
	KUNIT_EXPECT_TRUE(test, rr2r_posted_settles(&r->link.ep, cwant));

	/* dropped and made again by the next forward Call */
	xprt_force_disconnect(xprt);
	for (i = 0; i < 200 && xprt_connected(xprt); i++)
		msleep(50);
	rr2r_roundtrip(test, clnt, pages, 500);
	KUNIT_EXPECT_GE(test, xprt->stat.connect_count, 2);
	r = rr2c(xprt);
	c = rr2r_svc_conn_from(test, (struct sockaddr *)
			       &r->id->route.addr.src_addr);
	cwant = rpcrdma2_clnt_test_grant(xprt) + RR2C_BC_SLOTS +
		RPCRDMA2_RECV_EXTRA;
	swant = c->max_grant + RR2S_BC_SLOTS + RPCRDMA2_RECV_EXTRA;
	KUNIT_EXPECT_TRUE(test, rr2r_posted_settles(&r->link.ep, cwant));
	KUNIT_EXPECT_TRUE(test, rr2r_posted_settles(&c->link.ep, swant));
}

/*
 * V2-CRED-06: the server keeps its RDMA Reads in flight within the
 * provider's limits: its QP's ORD is what the connection negotiated
 * (the raw client's IRD, 1: rpcrdma2_ep_conn_param()), not the
 * device's, so the RNIC holds back the Reads beyond it; and a PUT
 * whose Read chunk has 8 segments, 8 Reads, arrives whole.  (siw
 * reports its ORQ size as max_dest_rd_atomic, rxe its ORD as
 * max_rd_atomic.)
 */
static void rr2r_svc_v2_cred_06_reads_within_ord(struct kunit *test)
{
	const u32 nsegs = 8, piece = 1000, len = nsegs * piece, seed = 0xc06;
	struct rpcrdma2_segment segs[8];
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_chunk_out rd;
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;
	struct rr2s_conn *c;
	struct rr2r_mr *m;
	u8 msg[512];
	u32 i, n, ord;

	raw = rr2r_raw_vers(test, RPCRDMA2_VERS_2);
	c = rr2r_svc_conn(test, raw);
	KUNIT_EXPECT_EQ(test, c->ord, 1);
	KUNIT_ASSERT_EQ(test, 0, ib_query_qp(c->b.id->qp, &attr,
					     IB_QP_MAX_QP_RD_ATOMIC |
					     IB_QP_MAX_DEST_RD_ATOMIC, &init));
	ord = rr2r_link_of(test) == RPCRDMA2_TEST_SIW ?
	      attr.max_dest_rd_atomic : attr.max_rd_atomic;
	KUNIT_EXPECT_EQ(test, ord, c->ord);

	m = rr2r_mr(test, raw, 16384);
	rr2r_mr_fill(m, 0, len, seed);
	for (i = 0; i < nsegs; i++)
		segs[i] = rr2r_seg(m, i * piece, piece);
	rd = (struct rpcrdma2_chunk_out){ .nsegs = nsegs, .segs = segs,
					  .position = 48 };
	n = rr2r_chunk_call(msg, RPCRDMA2_VERS_2, 0xc601, false, 0, &rd, 1,
			    NULL, 0, NULL);
	n += rr2r_rpc_call(msg + n, 0xc601, RR2R_PROG, RR2R_PUT);
	n += rr2r_args(msg + n, seed, len);
	rr2r_expect_put_ok(test, raw, RPCRDMA2_VERS_2, msg, n, 0xc601, len);
}

static void rr2r_send_faults_off(void *data)
{
	rr2s_test_fail_sends(0);
}

/*
 * V2-ERR-11: a Reply the server cannot send closes the connection.  The
 * Send of the Reply to a raw client's NULL Call is made to fail to
 * post, as it does on a QP already in error; the server closes the
 * connection, so the raw client sees it go (its CM event), and a new
 * connection is served.
 */
static void rr2r_svc_v2_err_11_send_failure_closes(struct kunit *test)
{
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;
	u8 msg[128];
	u32 n;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_send_faults_off,
							   NULL));
	raw = rr2r_raw(test);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	rr2r_null_grant(test, raw, 0xb101);

	rr2s_test_fail_sends(1);
	n = rr2r_msg2(msg, 0xb102, 0);
	n += rr2r_rpc_call(msg + n, 0xb102, RR2R_PROG, RR2R_NULL);
	rr2r_raw_send(test, raw, msg, n);
	/* the connection's end: a CM event (DISCONNECTED) at the raw QP */
	KUNIT_EXPECT_TRUE_MSG(test,
			      wait_for_completion_timeout(&raw->client.cm_event,
							  30 * HZ),
			      "the connection stayed up with a Reply unsent");
	KUNIT_EXPECT_EQ(test, raw->client.cm_status, -ECONNABORTED);
	rr2s_test_fail_sends(0);

	raw = rr2r_raw(test);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	rr2r_null_grant(test, raw, 0xb103);
}

/*
 * max_requests and max_req_size: out-of-range writes are refused and
 * change nothing; a change applies to the next connection, whose
 * CONNPROP grant (V2-CRED-02), Receive count (V2-CRED-07), RBSIZ
 * (V2-INLINE-07) and RFC 8797 Receive size (CMP-CMPD-02) follow it,
 * while a connection made before keeps what it had (CMP-CMPD-04).
 */
static void rr2r_svc_knobs_apply_to_new_connections(struct kunit *test)
{
	static const char * const refused[][2] = {
		{ "max_requests", "3" },
		{ "max_requests", "16385" },
		{ "max_requests", "-1" },
		{ "max_req_size", "4095" },
		{ "max_req_size", "65537" },
		{ "max_outbound_read_requests", "0" },
		{ "max_outbound_read_requests", "256" },
	};
	struct rpcrdma2_test_conn *old, *raw;
	struct rr2s_conn *c;
	struct rpcrdma2_hdr h;
	u32 i;

	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, rr2r_knobs_reset, NULL));
	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "max_requests"),
			RR2S_CREDITS);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "max_req_size"),
			RPCRDMA2_BUF_SIZE_DEF);
	KUNIT_EXPECT_EQ(test,
			rr2r_sysctl_read(test, "max_outbound_read_requests"),
			RR2S_ORD_DEFAULT);

	old = rr2r_raw(test);
	rr2r_raw_settle_v2(test, old, RDMA2_RVRSDIR_SIMPLE, &h);
	KUNIT_EXPECT_EQ(test, rpcrdma2_credit_in(RPCRDMA2_VERS_2, h.credit),
			RR2S_CREDITS_INIT);
	KUNIT_EXPECT_EQ(test, old->client.peer_pdata.recv_size,
			RPCRDMA2_BUF_SIZE_DEF);

	KUNIT_EXPECT_EQ(test, 0, rr2r_sysctl_write(test, "max_requests", "16"));
	KUNIT_EXPECT_EQ(test, 0,
			rr2r_sysctl_write(test, "max_req_size", "16384"));
	KUNIT_EXPECT_EQ(test, 0,
			rr2r_sysctl_write(test, "max_outbound_read_requests",
					  "1"));
	for (i = 0; i < ARRAY_SIZE(refused); i++)
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    rr2r_sysctl_write(test, refused[i][0],
						      refused[i][1]),
				    "%s=%s", refused[i][0], refused[i][1]);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "max_requests"), 16);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "max_req_size"), 16384);
	KUNIT_EXPECT_EQ(test,
			rr2r_sysctl_read(test, "max_outbound_read_requests"),
			1);
	/* the connection made before keeps its grant */
	KUNIT_EXPECT_EQ(test, rr2r_null_grant(test, old, 0xd1),
			RR2S_CREDITS_INIT);
	c = rr2r_svc_conn(test, old);
	KUNIT_EXPECT_EQ(test, c->max_grant, RR2S_CREDITS);
	KUNIT_EXPECT_EQ(test, c->link.ep.attr.recv_size, RPCRDMA2_BUF_SIZE_DEF);

	raw = rr2r_raw(test);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	KUNIT_EXPECT_EQ(test, rpcrdma2_credit_in(RPCRDMA2_VERS_2, h.credit),
			16);
	KUNIT_EXPECT_EQ(test, h.props.rbsiz, 16384);
	KUNIT_EXPECT_TRUE(test, raw->client.peer_pdata_found);
	KUNIT_EXPECT_EQ(test, raw->client.peer_pdata.recv_size, 16384);
	KUNIT_EXPECT_EQ(test, rr2r_null_grant(test, raw, 0xd2), 16);
	c = rr2r_svc_conn(test, raw);
	KUNIT_EXPECT_EQ(test, c->max_grant, 16);
	KUNIT_EXPECT_EQ(test, READ_ONCE(c->grant), 16);
	KUNIT_EXPECT_EQ(test, c->link.ep.attr.nr_recv,
			16 + RR2S_BC_SLOTS + RPCRDMA2_RECV_EXTRA);
	KUNIT_EXPECT_EQ(test, c->link.ep.attr.recv_size, 16384);
	KUNIT_EXPECT_LE(test, c->ord, 1);
}

/* What a client connection uses, and what the server sees of it. */
static void rr2r_expect_clnt_conn(struct kunit *test, struct rpc_clnt *clnt,
				  u32 slots, u32 credits, u32 rsize, u32 ssize)
{
	struct rr2c *r = rr2c(rr2r_xprt(clnt));
	struct rr2s_conn *c;

	KUNIT_ASSERT_NOT_NULL(test, r->id);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_version(&r->xprt),
			RPCRDMA2_VERS_2);
	KUNIT_EXPECT_EQ(test, r->nr_slots, slots);
	KUNIT_EXPECT_EQ(test, r->xprt.max_reqs, slots);
	/* V2-CRED-01: a Receive per credit, plus the extra ones */
	KUNIT_EXPECT_EQ(test, r->credits, credits);
	KUNIT_EXPECT_EQ(test, r->link.ep.attr.nr_recv,
			credits + RR2C_BC_SLOTS + RPCRDMA2_RECV_EXTRA);
	/*
	 * V2-CRED-02: the CONNPROP grants the Receives the connection
	 * starts with and asks for the credits
	 */
	KUNIT_EXPECT_EQ(test, r->link.local.credits,
			rpcrdma2_credit_word(min_t(u32, credits,
						   RR2C_RECV_INIT) +
					     RR2C_BC_SLOTS, credits));
	/* the server grants 32 at first: the client uses no more than asked */
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_grant(&r->xprt),
			min_t(u32, credits, RR2S_CREDITS_INIT));
	/* V2-CRED-01: a Receive per credit granted, not per credit asked */
	KUNIT_EXPECT_TRUE_MSG(test,
			      rr2r_posted_settles(&r->link.ep,
						  min_t(u32, credits,
							RR2S_CREDITS_INIT) +
						  RR2C_BC_SLOTS +
						  RPCRDMA2_RECV_EXTRA),
			      "%d Receives posted",
			      atomic_read(&r->link.ep.recvs_posted));
	KUNIT_EXPECT_EQ(test, r->link.ep.attr.recv_size, rsize);
	KUNIT_EXPECT_EQ(test, r->link.ep.attr.send_size, ssize);
	/*
	 * V2-INLINE-08: the server's Send size and Receive size are
	 * max_req_size
	 */
	KUNIT_EXPECT_EQ(test, r->link.conn.recv_inline, min_t(u32, rsize, RPCRDMA2_BUF_SIZE_DEF));
	KUNIT_EXPECT_EQ(test, r->link.conn.send_inline, min_t(u32, ssize, RPCRDMA2_BUF_SIZE_DEF));

	/*
	 * CMP-CMPD-11, CMP-CMPD-12 and V2-INLINE-06, V2-INLINE-07, as the
	 * server received them
	 */
	c = rr2r_svc_conn_from(test, (struct sockaddr *)
			       &r->id->route.addr.src_addr);
	KUNIT_EXPECT_EQ(test, c->link.conn.peer_pdata.recv_size, rsize);
	KUNIT_EXPECT_EQ(test, c->link.conn.peer_pdata.send_size, ssize);
	KUNIT_EXPECT_EQ(test, c->link.conn.peer_props.rbsiz, rsize);
	KUNIT_EXPECT_EQ(test, c->link.conn.peer_props.sbsiz, ssize);
	KUNIT_EXPECT_EQ(test, c->link.conn.send_inline, min_t(u32, rsize, RPCRDMA2_BUF_SIZE_DEF));
}

/*
 * rdma_slot_table_entries, rdma_max_inline_read, rdma_max_inline_write:
 * out-of-range writes are refused and change nothing.  A change applies
 * to the next connection: the credits it asks for and takes
 * (V2-CRED-01), its Receives, and the sizes of its Receive and Send
 * buffers, which its RFC 8797 record (CMP-CMPD-11) and CONNPROP
 * (V2-INLINE-06, V2-INLINE-07) tell the server, who keeps its Sends
 * within them (V2-INLINE-08).  The slot count is the transport's, from
 * its creation, and so are the credits every connection of it asks for,
 * as the stock client's (128 by default).  A connection made before
 * keeps what it had (CMP-CMPD-04); when it reconnects, it takes the new
 * sizes (CMP-CMPD-05) and keeps its credits.  The smallest values (4 slots,
 * 1024 octets) carry
 * every size too.
 */
static void rr2r_clnt_knobs_apply_to_new_connections(struct kunit *test)
{
	/*
	 * asserts CMP-CMPD-05: a reconnect takes the new sizes; V2-INLINE-08
	 * (rr2r_expect_clnt_conn)
	 */
	static const char * const refused[][2] = {
		{ "rdma_slot_table_entries", "3" },
		{ "rdma_slot_table_entries", "16385" },
		{ "rdma_max_inline_read", "1023" },
		{ "rdma_max_inline_read", "65537" },
		{ "rdma_max_inline_write", "-1" },
		{ "rdma_max_inline_write", "65537" },
	};
	static const u32 sizes[] = { 0, 1000, 2100, 3500, 9000, 70000 };
	struct rpc_clnt *old, *new;
	struct page **pages;
	u32 i;

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_clnt_knobs_reset,
							   NULL));
	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "rdma_slot_table_entries"),
			128);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "rdma_max_inline_read"),
			RPCRDMA2_BUF_SIZE_DEF);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "rdma_max_inline_write"),
			RPCRDMA2_BUF_SIZE_DEF);

	pages = rr2r_pages(test);
	old = rr2r_clnt(test);
	rr2r_roundtrip(test, old, pages, 1000);
	rr2r_expect_clnt_conn(test, old, RR2C_SLOTS, RR2C_SLOTS,
			      RPCRDMA2_BUF_SIZE_DEF, RPCRDMA2_BUF_SIZE_DEF);

	KUNIT_EXPECT_EQ(test, 0, rr2r_sysctl_write(test,
						   "rdma_slot_table_entries",
						   "16"));
	KUNIT_EXPECT_EQ(test, 0, rr2r_sysctl_write(test, "rdma_max_inline_read",
						   "2048"));
	/* rounded down to what the RFC 8797 record can say (CMP-CMPD-11) */
	KUNIT_EXPECT_EQ(test, 0, rr2r_sysctl_write(test,
						   "rdma_max_inline_write",
						   "3100"));
	for (i = 0; i < ARRAY_SIZE(refused); i++)
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    rr2r_sysctl_write(test, refused[i][0],
						      refused[i][1]),
				    "%s=%s", refused[i][0], refused[i][1]);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "rdma_slot_table_entries"),
			16);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "rdma_max_inline_read"),
			2048);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "rdma_max_inline_write"),
			3100);

	/* the live connection keeps what it had, and works */
	rr2r_expect_clnt_conn(test, old, RR2C_SLOTS, RR2C_SLOTS,
			      RPCRDMA2_BUF_SIZE_DEF, RPCRDMA2_BUF_SIZE_DEF);
	rr2r_roundtrip(test, old, pages, 9000);

	/* a new transport: its slots, credits and sizes follow the knobs */
	new = rr2r_clnt(test);
	rr2r_expect_clnt_conn(test, new, 16, 16, 2048, 3072);
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		rr2r_roundtrip(test, new, pages, sizes[i]);

	/*
	 * the old transport's next connection takes the sizes; its slots
	 * and the credits it asks for stay what its mount made them
	 */
	xprt_force_disconnect(rr2r_xprt(old));
	rr2r_roundtrip(test, old, pages, 1000);
	KUNIT_EXPECT_EQ(test, rr2r_xprt(old)->stat.connect_count, 2);
	rr2r_expect_clnt_conn(test, old, RR2C_SLOTS, RR2C_SLOTS, 2048, 3072);
	rr2r_expect_pool_full(test, rr2r_xprt(new));

	/*
	 * more slots than the default: a new transport asks for them all,
	 * an older one for its own
	 */
	KUNIT_EXPECT_EQ(test, 0, rr2r_sysctl_write(test,
						   "rdma_slot_table_entries",
						   "200"));
	new = rr2r_clnt(test);
	rr2r_expect_clnt_conn(test, new, 200, 200, 2048, 3072);
	rr2r_roundtrip(test, new, pages, 9000);
	/*
	 * V2-CRED-01: a larger grant brings its Receives before the window
	 * opens; a smaller one later keeps them posted
	 */
	rpcrdma2_clnt_test_set_grant(rr2r_xprt(new), 150);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_grant(rr2r_xprt(new)), 150);
	KUNIT_EXPECT_TRUE_MSG(test,
			      rr2r_posted_settles(&rr2c(rr2r_xprt(new))->link.ep,
						  150 + RR2C_BC_SLOTS +
						  RPCRDMA2_RECV_EXTRA),
			      "%d Receives posted",
			      atomic_read(&rr2c(rr2r_xprt(new))->link.ep.recvs_posted));
	rr2r_roundtrip(test, new, pages, 9000);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_grant(rr2r_xprt(new)),
			RR2S_CREDITS_INIT);
	KUNIT_EXPECT_TRUE(test,
			  rr2r_posted_settles(&rr2c(rr2r_xprt(new))->link.ep,
					      150 + RR2C_BC_SLOTS +
					      RPCRDMA2_RECV_EXTRA));
	xprt_force_disconnect(rr2r_xprt(old));
	rr2r_roundtrip(test, old, pages, 1000);
	KUNIT_EXPECT_EQ(test, rr2r_xprt(old)->stat.connect_count, 3);
	rr2r_expect_clnt_conn(test, old, RR2C_SLOTS, RR2C_SLOTS, 2048, 3072);

	/* the smallest values work too: 4 slots, 1024-octet messages */
	KUNIT_EXPECT_EQ(test, 0, rr2r_sysctl_write(test,
						   "rdma_slot_table_entries",
						   "4"));
	KUNIT_EXPECT_EQ(test, 0, rr2r_sysctl_write(test, "rdma_max_inline_read",
						   "1024"));
	KUNIT_EXPECT_EQ(test, 0, rr2r_sysctl_write(test,
						   "rdma_max_inline_write",
						   "1024"));
	new = rr2r_clnt(test);
	rr2r_expect_clnt_conn(test, new, 4, 4, 1024, 1024);
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		rr2r_roundtrip(test, new, pages, sizes[i]);
	rr2r_expect_pool_full(test, rr2r_xprt(new));
}

static const char * const rr2r_counters[] = {
	"rdma_stat_read", "rdma_stat_recv", "rdma_stat_write",
	"rpcrdma2_read_chunks", "rpcrdma2_write_chunks",
	"rpcrdma2_rdma_read_bytes", "rpcrdma2_rdma_write_bytes",
	"rpcrdma2_send_inv", "rpcrdma2_conns_v1", "rpcrdma2_conns_v2",
	"rpcrdma2_err_bad_xdr", "rdma_stat_rq_poll", "rpcrdma2_nomsg_calls",
	"rpcrdma2_conns_accepted",
};

enum {
	RR2R_C_READ, RR2R_C_RECV, RR2R_C_WRITE, RR2R_C_READ_CHUNKS,
	RR2R_C_WRITE_CHUNKS, RR2R_C_READ_BYTES, RR2R_C_WRITE_BYTES,
	RR2R_C_SEND_INV, RR2R_C_V1, RR2R_C_V2, RR2R_C_BAD_XDR,
	RR2R_C_RQ_POLL, RR2R_C_NOMSG, RR2R_C_ACCEPTED, RR2R_NR_C
};

static void rr2r_counters_read(struct kunit *test, unsigned long *v)
{
	u32 i;

	for (i = 0; i < RR2R_NR_C; i++)
		v[i] = rr2r_sysctl_read(test, rr2r_counters[i]);
}

/*
 * The counters move with the traffic that is theirs: the Write chunk
 * Call (V2-CHUNK-19) counts one Write chunk, its RDMA Write and its
 * octets and a Send With Invalidate (V2-RINV-04); the Read chunk Calls
 * (V2-CHUNK-14, V2-SPEC-01) count four Read chunks, one of them a
 * Special Format Call's, and five segments pulled; the XID mismatches
 * count BAD_XDR once per version (V2-ERR-26).  The stock counters
 * without an rpcrdma2 event stay 0.
 *
 * Then the writes, with the stock module's modes and semantics: every
 * counter is 0644 and a write of anything resets it to 0; the ones
 * without an event take 0 and refuse anything else.
 */
static void rr2r_svc_counters_move(struct kunit *test)
{
	unsigned long a[RR2R_NR_C], b[RR2R_NR_C];
	struct ctl_table *t;
	u32 i;

	rr2r_counters_read(test, a);
	rr2r_svc_write_chunk(test, RPCRDMA2_VERS_2);
	rr2r_svc_read_chunks(test, RPCRDMA2_VERS_2);
	rr2r_svc_xid_mismatch_bad_xdr(test);
	rr2r_counters_read(test, b);

	KUNIT_EXPECT_EQ(test, b[RR2R_C_WRITE_CHUNKS] - a[RR2R_C_WRITE_CHUNKS],
			1);
	KUNIT_EXPECT_GE(test, b[RR2R_C_WRITE] - a[RR2R_C_WRITE], 1);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_WRITE_BYTES] - a[RR2R_C_WRITE_BYTES],
			50001);
	KUNIT_EXPECT_GE(test, b[RR2R_C_SEND_INV] - a[RR2R_C_SEND_INV], 1);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_READ_CHUNKS] - a[RR2R_C_READ_CHUNKS],
			4);
	/* one of them a Position-Zero Read chunk, reducing no data item */
	KUNIT_EXPECT_EQ(test, b[RR2R_C_NOMSG] - a[RR2R_C_NOMSG], 1);
	KUNIT_EXPECT_GE(test, b[RR2R_C_READ] - a[RR2R_C_READ], 5);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_READ_BYTES] - a[RR2R_C_READ_BYTES],
			10001 + 48 + round_up(3001, 4) + 1001 + 500);
	/* five Calls answered, one more rejected before it was queued */
	KUNIT_EXPECT_GE(test, b[RR2R_C_RECV] - a[RR2R_C_RECV], 4);
	KUNIT_EXPECT_GE(test, b[RR2R_C_V2] - a[RR2R_C_V2], 3);
	KUNIT_EXPECT_GE(test, b[RR2R_C_V1] - a[RR2R_C_V1], 1);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_BAD_XDR] - a[RR2R_C_BAD_XDR], 2);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_RQ_POLL], 0);

	for (i = 0; i < RR2R_NR_C; i++) {
		t = rr2r_sysctl(test, rr2r_counters[i]);
		KUNIT_ASSERT_NOT_NULL(test, t);
		KUNIT_EXPECT_EQ_MSG(test, t->mode, 0644, "%s",
				    rr2r_counters[i]);
		if (i == RR2R_C_RQ_POLL)
			continue;
		/* the value written does not matter */
		KUNIT_EXPECT_EQ_MSG(test, 0,
				    rr2r_sysctl_write(test, rr2r_counters[i],
						      i & 1 ? "0" : "12345"),
				    "%s", rr2r_counters[i]);
	}
	rr2r_counters_read(test, b);
	for (i = 0; i < RR2R_NR_C; i++)
		KUNIT_EXPECT_EQ_MSG(test, b[i], 0, "%s after a write",
				    rr2r_counters[i]);
	KUNIT_EXPECT_EQ(test, 0, rr2r_sysctl_write(test, "rdma_stat_rq_poll",
						   "0"));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			rr2r_sysctl_write(test, "rdma_stat_rq_poll", "1"));
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "rdma_stat_rq_poll"), 0);
}

/*
 * A mixed fleet on one server: a Version 2 client and a Version 1
 * client connected at once, then the Version 1 client reconnecting.
 * Every connection accepted settles one version and is counted under
 * it alone: the per-version counts add up to the connections accepted,
 * the Version 2 client's connection is under rpcrdma2_conns_v2 only,
 * and the other client's reconnect moves neither it nor the Version 2
 * client's connect count.
 */
static void rr2r_svc_conns_per_version_add_up(struct kunit *test)
{
	unsigned long a[RR2R_NR_C], b[RR2R_NR_C];
	struct rpc_clnt *v2, *v1;
	struct page **pages;

	pages = rr2r_pages(test);
	rr2r_counters_read(test, a);
	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	v2 = rr2r_clnt(test);
	rr2r_roundtrip(test, v2, pages, 1000);
	rr2r_counters_read(test, b);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_ACCEPTED] - a[RR2R_C_ACCEPTED], 1);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_V2] - a[RR2R_C_V2], 1);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_V1] - a[RR2R_C_V1], 0);

	rr2r_caps(RPCRDMA2_VERS_1, RPCRDMA2_VERS_2);
	v1 = rr2r_clnt(test);
	rr2r_roundtrip(test, v1, pages, 1000);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_version(rr2r_xprt(v1)),
			RPCRDMA2_VERS_1);
	xprt_force_disconnect(rr2r_xprt(v1));
	rr2r_roundtrip(test, v1, pages, 1000);
	rr2r_roundtrip(test, v2, pages, 1000);
	KUNIT_EXPECT_EQ(test, rr2r_xprt(v1)->stat.connect_count, 2);
	KUNIT_EXPECT_EQ(test, rr2r_xprt(v2)->stat.connect_count, 1);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_version(rr2r_xprt(v2)),
			RPCRDMA2_VERS_2);

	rr2r_counters_read(test, b);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_ACCEPTED] - a[RR2R_C_ACCEPTED], 3);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_V2] - a[RR2R_C_V2], 1);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_V1] - a[RR2R_C_V1], 2);
	KUNIT_EXPECT_EQ(test, b[RR2R_C_V1] - a[RR2R_C_V1] +
			b[RR2R_C_V2] - a[RR2R_C_V2],
			b[RR2R_C_ACCEPTED] - a[RR2R_C_ACCEPTED]);
}

/* ---- suite setup: environments, service, listeners ---- */

/* ---- a flood of malformed traffic ---- */

#define RR2R_FLOOD_MSGS		800
#define RR2R_FLOOD_RECONNECTS	100

/* Live rpcrdma2 connections of the test server. */
static unsigned int rr2r_svc_conns(void)
{
	struct svc_serv *serv = rr2r_svc.serv;
	unsigned int n = 0;
	struct svc_xprt *x;

	spin_lock_bh(&serv->sv_lock);
	list_for_each_entry(x, &serv->sv_tempsocks, xpt_list)
		if (!strcmp(x->xpt_class->xcl_name, "rdma") &&
		    !test_bit(XPT_DEAD, &x->xpt_flags))
			n++;
	spin_unlock_bh(&serv->sv_lock);
	return n;
}

/* One hostile message, of kind @i % 8; returns its length. */
static u32 rr2r_flood_msg(struct rnd_state *rs, u32 i, u8 *msg, u32 max)
{
	u32 n, k, xid = 0xf1000000 | i;

	memset(msg, 0, max);
	switch (i % 8) {
	case 0:		/* a good inline Call: answered with a Reply */
	case 1:		/* the same with up to three words changed */
		n = rr2r_chunk_call(msg, RPCRDMA2_VERS_2, xid, false, 0, NULL,
				    0, NULL, 0, NULL);
		n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_NULL);
		if (i % 8 == 1)
			for (k = prandom_u32_state(rs) % 3 + 1; k; k--)
				put_unaligned_be32(prandom_u32_state(rs),
						   msg + 4 * (prandom_u32_state(rs) %
							      (n / 4)));
		return n;
	case 2:		/* noise */
		n = prandom_u32_state(rs) % 200;
		prandom_bytes_state(rs, msg, n);
		return n;
	case 3:		/* a continued sequence that never ends */
		n = rr2r_hdr(msg, 0xc0de0000, RPCRDMA2_VERS_2, RDMA2_MSG,
			     RDMA2_F_MORE);
		put_unaligned_be32(0xc0de0000, msg + n);
		return min_t(u32, max, 3000);
	case 4:		/* CONNPROP again and again */
		return rr2r_hdr(msg, xid, RPCRDMA2_VERS_2, RDMA2_CONNPROP, 0) +
		       4;
	case 5:		/* a version nobody speaks, or Version 1 */
		return rr2r_hdr(msg, xid, i & 8 ? 7 : RPCRDMA2_VERS_1,
				RDMA2_MSG, 0) + 16;
	case 6:		/* lying chunk counts */
		n = rr2r_hdr(msg, xid, RPCRDMA2_VERS_2, RDMA2_MSG, 0);
		put_unaligned_be32(1, msg + n);		/* a Read chunk */
		put_unaligned_be32(0xffffffff, msg + n + 4);
		put_unaligned_be32(0xffffffff, msg + n + 8);
		return n + 64;
	default:	/* an error from a Requester, and garbage after it */
		n = rr2r_hdr(msg, xid, RPCRDMA2_VERS_2, RDMA2_ERROR, 0);
		put_unaligned_be32(prandom_u32_state(rs), msg + n);
		return n + 8;
	}
}

/*
 * V2-SEC-17 under load: a raw client floods the server with malformed
 * and mutated messages, never-ending continuations, CONNPROP after
 * CONNPROP and lying lengths, as fast as its single Receive lets it
 * (it waits briefly for an answer, and sends on when none comes).  A
 * connection the server drops is made again.  The server answers or
 * drops each message, never more; the transport's own client on the
 * same server completes every RPC meanwhile; and afterwards the server
 * has no connection left over.  The debug KUnit kernel adds KASAN and
 * kmemleak over all of it.
 */
static void rr2r_svc_flood(struct kunit *test)
{
	struct rpcrdma2_test_conn *raw = NULL;
	u32 i, len, sent = 0, answers = 0, drops = 0;
	unsigned int before;
	struct rnd_state rs;
	struct rpc_clnt *clnt;
	struct page **pages;
	u8 *msg;
	int ret;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	clnt = rr2r_clnt(test);
	pages = rr2r_pages(test);
	msg = kunit_kzalloc(test, RPCRDMA2_TEST_BUF_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	prandom_seed_state(&rs, 0x20261124);
	before = rr2r_svc_conns();

	for (i = 0; i < RR2R_FLOOD_MSGS; i++) {
		if (!raw) {
			if (drops >= RR2R_FLOOD_RECONNECTS)
				break;
			raw = rr2r_raw_vers(test, RPCRDMA2_VERS_2);
		}
		len = rr2r_flood_msg(&rs, i, msg, RPCRDMA2_TEST_BUF_SIZE);
		memcpy(rpcrdma2_test_send_buf(&raw->client), msg, len);
		ret = rpcrdma2_test_post_send(&raw->client, len);
		if (!ret)
			ret = rpcrdma2_test_wait_send(&raw->client);
		if (!ret) {
			sent++;
			if (wait_for_completion_timeout(&raw->client.recv_done,
							msecs_to_jiffies(20))) {
				if (raw->client.ep.recvs[0].status ==
				    IB_WC_SUCCESS)
					ret = rpcrdma2_test_post_recv(&raw->client);
				else
					ret = -ECONNRESET;
				answers += !ret;
			}
		}
		if (ret) {	/* the server dropped it: a new one */
			rpcrdma2_test_disconnect(raw);
			raw = NULL;
			drops++;
		}
		if (i % 50 == 49)
			rr2r_roundtrip(test, clnt, pages, 5000 + i);
	}
	if (raw)
		rpcrdma2_test_disconnect(raw);
	kunit_info(test, "flood: %u sent, %u answered, %u connections dropped",
		   sent, answers, drops);
	KUNIT_EXPECT_EQ_MSG(test, i, RR2R_FLOOD_MSGS,
			    "the server dropped %u connections in a row", drops);
	KUNIT_EXPECT_GT(test, answers, 0U);

	/* every raw connection is gone on the server too */
	for (i = 0; i < 200 && rr2r_svc_conns() > before; i++)
		msleep(50);
	KUNIT_EXPECT_LE(test, rr2r_svc_conns(), before);
	rr2r_roundtrip(test, clnt, pages, RR2R_MAX);
}

/* ---- device removal ---- */

/* Is this link's listener bound to a device?  -1 if there is none. */
static int rr2r_listener_bound(enum rpcrdma2_test_link link)
{
	const struct sockaddr *want = (struct sockaddr *)&rr2r_svc.addr[link];
	struct svc_serv *serv = rr2r_svc.serv;
	struct rr2s_listener *l;
	struct svc_xprt *x;
	int bound = -1;

	spin_lock_bh(&serv->sv_lock);
	list_for_each_entry(x, &serv->sv_permsocks, xpt_list) {
		if (strcmp(x->xpt_class->xcl_name, "rdma") ||
		    rpc_get_port((struct sockaddr *)&x->xpt_local) !=
		    rpc_get_port(want))
			continue;
		l = container_of(x, struct rr2s_listener, b.xprt);
		spin_lock(&l->lock);
		bound = !!l->b.id;
		spin_unlock(&l->lock);
		break;
	}
	spin_unlock_bh(&serv->sv_lock);
	return bound;
}

/*
 * "rdma link delete" under a mount and an nfsd listener, then "rdma
 * link add" again.  The removal must not block on rpcrdma2: the
 * client's and the server's endpoints on the device let go (the ib_client
 * in shared/dev.c), and the listener, bound to the device's address,
 * gives its rdma_cm id back.  Once the device returns, the listener
 * listens again without nfsd doing anything, and the same rpc_clnt
 * reconnects and moves data.  Before the listener handled
 * DEVICE_REMOVAL, the removal blocked for ever in rdma_cm's wait for
 * the listener's id.
 */
static void rr2r_device_removal_and_return(struct kunit *test)
{
	enum rpcrdma2_test_link link = rr2r_link_of(test);
	struct rpcrdma2_test_env *env = &rr2r_envs[link];
	struct rpc_clnt *clnt, *clnt2;
	struct rpc_xprt *xprt;
	struct page **pages;
	int ret, i;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	clnt = rr2r_clnt(test);
	xprt = rr2r_xprt(clnt);
	pages = rr2r_pages(test);
	rr2r_roundtrip(test, clnt, pages, RR2R_MAX);
	KUNIT_ASSERT_EQ(test, rr2r_listener_bound(link), 1);
	KUNIT_EXPECT_GE(test, rpcrdma2_dev_users(), 2U);

	/* a hang detector, not a time limit: removal takes well under 1 s */
	ret = rpcrdma2_test_env_remove_device(env, 120 * HZ);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0,
			    "removing %s blocked (or failed): %d", env->ibname,
			    ret);
	KUNIT_EXPECT_EQ(test, rr2r_listener_bound(link), 0);

	ret = rpcrdma2_test_env_add_device(env);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "rdma link add %s: %d", env->ibname,
			    ret);
	/* the device's arrival wakes the listener's work at once */
	for (i = 0; i < 200 && rr2r_listener_bound(link) != 1; i++)
		msleep(50);
	KUNIT_ASSERT_EQ_MSG(test, rr2r_listener_bound(link), 1,
			    "the listener did not listen again");

	/* the same transport reconnects and carries data */
	rr2r_roundtrip(test, clnt, pages, RR2R_MAX);
	KUNIT_EXPECT_EQ(test, xprt->stat.connect_count, 2);
	/* and a new one connects to the listener */
	clnt2 = rr2r_clnt(test);
	rr2r_roundtrip(test, clnt2, pages, 4096);
}

/* ---- a Version 1 backward Call; rejected Calls never run (#23) ---- */

/*
 * RFC 8167 on a Version 1 connection, the server calling a raw client:
 * the backward Call's header and what follows it.
 */
static void rr2r_bc1_rdir_backward_call_v1(struct kunit *test)
{
	struct rpcrdma2_test_conn *raw;
	struct rr2r_bc_call *bc;
	struct page **pages;
	struct rr2r_res res;
	struct task_struct *t;
	struct rpc_clnt *clnt;
	struct rpcrdma2_hdr h;
	u8 msg[128], pl[64];
	u32 n, plen, xid;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	raw = rr2r_raw(test);
	/* a Version 1 NULL Call settles Version 1 */
	n = rr2r_msg1(msg, 0xb101);
	n += rr2r_rpc_call(msg + n, 0xb101, RR2R_PROG, RR2R_NULL);
	rr2r_raw_send(test, raw, msg, n);
	plen = rr2r_take(test, &raw->client, RPCRDMA2_VERS_1, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA_MSG);
	KUNIT_ASSERT_GE(test, plen, 24);
	KUNIT_ASSERT_EQ(test, get_unaligned_be32(pl + 20), RPC_SUCCESS);

	clnt = rr2r_bc_clnt(test, raw);
	KUNIT_ASSERT_FALSE(test, IS_ERR(clnt));
	n = kunit_add_action_or_reset(test, rr2r_clnt_cleanup, clnt);
	KUNIT_ASSERT_EQ(test, n, 0);
	bc = kunit_kzalloc(test, sizeof(*bc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bc);
	bc->clnt = clnt;
	init_completion(&bc->done);
	t = kthread_run(rr2r_bc_caller, bc, "rr2r-bc1");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));

	plen = rr2r_take(test, &raw->client, RPCRDMA2_VERS_1, &h, pl);
	KUNIT_EXPECT_EQ(test, h.vers, RPCRDMA2_VERS_1);	/* BC1-RDIR-06 */
	KUNIT_EXPECT_EQ(test, h.htype, RDMA_MSG);		/* BC1-RDIR-08 */
	/* BC1-RDIR-09: no chunks, a 28-octet header, msg_type at 32 */
	KUNIT_EXPECT_EQ(test, h.reads.chunks, 0);
	KUNIT_EXPECT_EQ(test, h.writes.chunks, 0);
	KUNIT_EXPECT_EQ(test, h.reply.chunks, 0);
	KUNIT_EXPECT_EQ(test, h.hdrlen, 28);
	KUNIT_EXPECT_NE(test, h.credit, 0);			/* BC1-CRED-06 */
	/*
	 * BC1-RDIR-10: the RPC Call follows, under the same XID; V2-FRAME-03:
	 * right after the header, with no record mark before it
	 */
	KUNIT_ASSERT_GE(test, plen, 24);
	xid = get_unaligned_be32(pl);
	KUNIT_EXPECT_EQ(test, h.xid, xid);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pl + 4), RPC_CALL);

	/* the client's Reply completes it */
	n = rr2r_msg1(msg, xid);
	n += rr2r_rpc_reply(msg + n, xid, RPC_SUCCESS);
	rr2r_raw_send(test, raw, msg, n);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&bc->done,
							    60 * HZ));
	KUNIT_EXPECT_EQ(test, bc->status, 0);

	/*
	 * BC1-INLINE-01: inline only, so a backward Call larger than the
	 * client's Receive buffers is refused, not sent
	 */
	pages = rr2r_pages(test);
	KUNIT_EXPECT_EQ(test, rr2r_put_proc(clnt, RR2R_PUT_CONT, pages, 6000,
					    0x51, &res), -EMSGSIZE);
}

/* A Version 1 backward Reply to @xid granting @credit backward credits. */
static void rr2r_bc1_reply(struct kunit *test, struct rpcrdma2_test_conn *raw,
			   u32 xid, u32 credit)
{
	u8 msg[64];
	u32 n;

	n = rr2r_msg1(msg, xid);
	put_unaligned_be32(credit, msg + 8);
	n += rr2r_rpc_reply(msg + n, xid, RPC_SUCCESS);
	rr2r_raw_send(test, raw, msg, n);
}

/* The next backward Call from the server; its XID. */
static u32 rr2r_bc1_take_call(struct kunit *test,
			      struct rpcrdma2_test_conn *raw)
{
	struct rpcrdma2_hdr h;
	u8 pl[64];
	u32 plen;

	plen = rr2r_take(test, &raw->client, RPCRDMA2_VERS_1, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA_MSG);
	KUNIT_ASSERT_GE(test, plen, 24);
	KUNIT_ASSERT_EQ(test, get_unaligned_be32(pl + 4), RPC_CALL);
	return h.xid;
}

/* Wait for a backward Call's thread, then free it. */
static void rr2r_bc_done(struct kunit *test, struct rr2r_bc_call *bc)
{
	if (!wait_for_completion_timeout(&bc->done, 60 * HZ)) {
		rr2r_bc_abandon(test, bc);
		KUNIT_FAIL(test, "a backward Call did not complete");
		return;
	}
	KUNIT_EXPECT_EQ(test, bc->status, 0);
	kfree(bc);
}

/*
 * BC1-CRED-04: the server keeps its outstanding backward Calls within
 * the backward credits the client grants in its backward Replies
 * (RFC 8167 section 2.5).  A Version 1 raw client answers the first
 * backward Call with a credit of 1: of two Calls started together,
 * the second goes out only after the first's Reply, which grants 2;
 * then two Calls are outstanding at once, and no more.
 */
static void rr2r_bc1_cred_04_backward_calls_within_credit(struct kunit *test)
{
	/* asserts BC1-CRED-04 */
	struct rr2r_bc_call *a, *b, *d;
	struct rpcrdma2_test_conn *raw;
	struct rpc_clnt *clnt;
	struct rpcrdma2_hdr h;
	u32 n, x1, x2, x3;
	u8 msg[128], pl[64];

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	raw = rr2r_raw_n(test, 4);
	n = rr2r_msg1(msg, 0xb401);
	n += rr2r_rpc_call(msg + n, 0xb401, RR2R_PROG, RR2R_NULL);
	rr2r_raw_send(test, raw, msg, n);
	n = rr2r_take(test, &raw->client, RPCRDMA2_VERS_1, &h, pl);
	KUNIT_ASSERT_EQ(test, h.htype, RDMA_MSG);
	clnt = rr2r_bc_clnt(test, raw);
	KUNIT_ASSERT_FALSE(test, IS_ERR(clnt));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_clnt_cleanup,
							   clnt));

	/* the first Call; its Reply grants one backward credit */
	a = rr2r_bc_start(test, clnt, RR2R_NULL, NULL, 0, 0);
	x1 = rr2r_bc1_take_call(test, raw);
	rr2r_bc1_reply(test, raw, x1, 1);
	rr2r_bc_done(test, a);

	/* two at once: one goes out, the other waits for its Reply */
	a = rr2r_bc_start(test, clnt, RR2R_NULL, NULL, 0, 0);
	b = rr2r_bc_start(test, clnt, RR2R_NULL, NULL, 0, 0);
	x1 = rr2r_bc1_take_call(test, raw);
	msleep(1000);
	KUNIT_EXPECT_FALSE_MSG(test, completion_done(&raw->client.recv_done),
			       "2 backward Calls outstanding with 1 credit");
	rr2r_bc1_reply(test, raw, x1, 2);
	x2 = rr2r_bc1_take_call(test, raw);
	KUNIT_EXPECT_NE(test, x1, x2);

	/* now 2 may be outstanding: a third goes out before any Reply */
	d = rr2r_bc_start(test, clnt, RR2R_NULL, NULL, 0, 0);
	x3 = rr2r_bc1_take_call(test, raw);
	KUNIT_EXPECT_NE(test, x3, x2);
	rr2r_bc1_reply(test, raw, x2, 2);
	rr2r_bc1_reply(test, raw, x3, 2);
	rr2r_bc_done(test, a);
	rr2r_bc_done(test, b);
	rr2r_bc_done(test, d);
}

/*
 * CMP-RINV-04, CMP-RINV-01: a client whose connection request carried
 * no RFC 8797 record, or one that is not valid, has not said it takes
 * remote invalidation: the Reply to a Version 1 GET with a Write chunk
 * is a plain Send, though the Call offered an rkey to invalidate.
 */
static void rr2r_cmp_rinv_04_plain_send_without_r(struct kunit *test)
{
	static const enum rpcrdma2_test_pdata modes[] = {
		RPCRDMA2_TEST_PDATA_NONE, RPCRDMA2_TEST_PDATA_BAD,
	};
	enum rpcrdma2_test_link link = rr2r_link_of(test);
	const u32 len = 5000, seed = 0x5eee;
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_segment seg;
	struct rpcrdma2_chunk_out w;
	struct rpcrdma2_recv *rv;
	struct rpcrdma2_hdr h;
	struct rr2r_mr *m;
	u32 i, n, xid;
	u8 msg[512];
	int ret;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		raw = kunit_kzalloc(test, sizeof(*raw), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, raw);
		rpcrdma2_test_conn_init(raw, &rr2r_envs[link]);
		raw->pdata = modes[i];
		ret = kunit_add_action_or_reset(test, rr2r_raw_cleanup, raw);
		KUNIT_ASSERT_EQ(test, ret, 0);
		ret = rpcrdma2_test_dial(raw,
					 (struct sockaddr *)&rr2r_svc.addr[link]);
		KUNIT_ASSERT_EQ(test, ret, 0);

		m = rr2r_mr(test, raw, 8192);
		seg = rr2r_seg(m, 0, 8192);
		w = (struct rpcrdma2_chunk_out){ .nsegs = 1, .segs = &seg };
		xid = 0xd5 + i;
		n = rr2r_chunk_call(msg, RPCRDMA2_VERS_1, xid, false,
				    seg.handle, NULL, 0, &w, 1, NULL);
		n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_GET);
		n += rr2r_args(msg + n, seed, len);
		rr2r_raw_send(test, raw, msg, n);

		KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_wait_recv(&raw->client));
		rv = rpcrdma2_test_recv(&raw->client);
		/* CMP-RINV-01, CMP-RINV-04: not a Send With Invalidate */
		KUNIT_EXPECT_FALSE_MSG(test, rv->remote_inv,
				       "pdata mode %u: invalidated %x",
				       modes[i], rv->inv_rkey);
		ret = rpcrdma2_decode_hdr(rv->buf, rv->len, RPCRDMA2_VERS_1,
					  &rr2r_reply_lim, &h);
		KUNIT_EXPECT_EQ(test, ret, 0);
		KUNIT_EXPECT_EQ(test, h.xid, xid);
		KUNIT_EXPECT_EQ(test, h.htype, RDMA_MSG);
		KUNIT_EXPECT_EQ(test, h.writes.chunks, 1);
		KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_post_recv(&raw->client));
		KUNIT_EXPECT_TRUE(test, rr2r_mr_verify(m, 0, len, seed));
	}
}

static void rr2r_release_holders(void *data)
{
	complete_all(&rr2r_svc.release);
}

/*
 * The next message from the server, read word by word (an ERR_VERS
 * echoes a version the decoder would refuse): an RDMA2_ERROR @err for
 * @xid, with RESPONSE set.
 */
static void rr2r_expect_raw_err(struct kunit *test,
				struct rpcrdma2_test_conn *raw, u32 xid,
				u32 err)
{
	u8 *b;

	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_wait_recv(&raw->client));
	b = rpcrdma2_test_recv_buf(&raw->client);
	KUNIT_EXPECT_GE(test, rpcrdma2_test_recv_len(&raw->client), 24);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b), xid);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b + 12), RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b + 16) & RDMA2_F_RESPONSE,
			RDMA2_F_RESPONSE);
	KUNIT_EXPECT_EQ_MSG(test, get_unaligned_be32(b + 20), err,
			    "xid 0x%x", xid);
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_post_recv(&raw->client));
}

/*
 * A whole NULL Call under @xid; the next message from the server must
 * be its Reply: nothing was sent between the error before and it.
 */
static void rr2r_expect_null_reply_next(struct kunit *test,
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

/* A Version 2 MSG header with @nr Read chunks (Positions 64, 72, ...). */
static u32 rr2r_reads2(u8 *b, u32 xid, u32 nr)
{
	u32 n = rr2r_hdr(b, xid, RPCRDMA2_VERS_2, RDMA2_MSG, 0), i;

	put_unaligned_be32(0, b + n);		/* rdma_inv_handle */
	n += 4;
	for (i = 0; i < nr; i++) {
		put_unaligned_be32(1, b + n);
		put_unaligned_be32(64 + 8 * i, b + n + 4);
		put_unaligned_be32(0x100 + i, b + n + 8);
		put_unaligned_be32(8, b + n + 12);
		put_unaligned_be64(0x1000, b + n + 16);
		n += 24;
	}
	memset(b + n, 0, 12);			/* end; no Writes, no Reply */
	return n + 12;
}

/* A Version 2 MSG header with @nr Write chunks of one segment each. */
static u32 rr2r_writes2(u8 *b, u32 xid, u32 nr)
{
	u32 n = rr2r_hdr(b, xid, RPCRDMA2_VERS_2, RDMA2_MSG, 0), i;

	memset(b + n, 0, 8);			/* inv_handle; no Reads */
	n += 8;
	for (i = 0; i < nr; i++) {
		put_unaligned_be32(1, b + n);		/* a chunk */
		put_unaligned_be32(1, b + n + 4);	/* one segment */
		put_unaligned_be32(0x200 + i, b + n + 8);
		put_unaligned_be32(4096, b + n + 12);
		put_unaligned_be64(0x2000, b + n + 16);
		n += 24;
	}
	memset(b + n, 0, 8);			/* end; no Reply chunk */
	return n + 8;
}

/*
 * A Call the server answers with an error is discarded: it never
 * reaches the RPC layer.  Every rejected message below carries a whole
 * HOLD Call, which the service would count (and hold); after each
 * error a NULL Call is answered next, and at the end the service has
 * seen no HOLD at all.
 */
static void rr2r_svc_rejected_calls_never_run(struct kunit *test)
{
	static const u32 htypes[] = { 2, 3, 0x77 };
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;
	u32 n, i, xid = 0xe100;
	u8 *msg;

	msg = kunit_kzalloc(test, 1024, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	reinit_completion(&rr2r_svc.release);
	atomic_set(&rr2r_svc.held, 0);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_release_holders,
							   NULL));
	raw = rr2r_raw(test);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);

	/* V2-ERR-14: a version the connection did not settle: ERR_VERS */
	n = rr2r_hdr(msg, ++xid, 3, RDMA2_MSG, 0);
	memset(msg + n, 0, 16);
	n += 16;
	n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_HOLD);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_expect_raw_err(test, raw, xid, RDMA2_ERR_VERS);
	rr2r_expect_null_reply_next(test, raw, msg, 0xe200);

	/*
	 * V2-FRAME-13, V2-ERR-18: v1's MSGP and DONE and an unknown htype,
	 * each with a Call behind it: INVAL_HTYPE, nothing processed
	 */
	for (i = 0; i < ARRAY_SIZE(htypes); i++) {
		n = rr2r_msg2(msg, ++xid, 0);
		put_unaligned_be32(htypes[i], msg + 12);
		n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_HOLD);
		rr2r_raw_send(test, raw, msg, n);
		rr2r_expect_raw_err(test, raw, xid, RDMA2_ERR_INVAL_HTYPE);
		rr2r_expect_null_reply_next(test, raw, msg, 0xe210 + i);
	}

	/* V2-ERR-27: rdma_xid is not the RPC's XID: BAD_XDR */
	n = rr2r_msg2(msg, ++xid, 0);
	n += rr2r_rpc_call(msg + n, xid + 0x1000, RR2R_PROG, RR2R_HOLD);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_expect_raw_err(test, raw, xid, RDMA2_ERR_BAD_XDR);
	rr2r_expect_null_reply_next(test, raw, msg, 0xe220);

	/* V2-ERR-34: more Read chunks than the server takes */
	n = rr2r_reads2(msg, ++xid, RR2S_MAX_READ_CHUNKS + 1);
	n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_HOLD);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_expect_raw_err(test, raw, xid, RDMA2_ERR_READ_CHUNKS);
	rr2r_expect_null_reply_next(test, raw, msg, 0xe230);

	/* V2-ERR-35 (E-28): more Write chunks than it fills: discarded too */
	n = rr2r_writes2(msg, ++xid, RR2S_MAX_WRITE_CHUNKS + 1);
	n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_HOLD);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.xid, xid);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_WRITE_CHUNKS);
	KUNIT_EXPECT_EQ(test, h.err_arg[0], RR2S_MAX_WRITE_CHUNKS);
	rr2r_expect_null_reply_next(test, raw, msg, 0xe240);

	/* a HOLD dispatched before a NULL would be counted by now */
	msleep(200);
	KUNIT_EXPECT_EQ(test, atomic_read(&rr2r_svc.held), 0);
}

/* ---- a client beyond its grant ---- */

/* Poll @name until it is past @old; false if it never moves. */
static bool rr2r_sysctl_moves(struct kunit *test, const char *name,
			      unsigned long old)
{
	int i;

	for (i = 0; i < 200 && rr2r_sysctl_read(test, name) == old; i++)
		msleep(50);
	return rr2r_sysctl_read(test, name) != old;
}

/*
 * V2-CRED-04, V2-SEC-17: a raw client with a grant of 4 (max_requests)
 * sends a HOLD Call, which takes the service's only thread, then
 * RR2R_OVER more HOLD Calls than the bound (twice the grant: a
 * retransmission rides its original's credit, RR2S_GRANT_SLACK) lets
 * it have, without waiting for a Reply: as Special Format Calls
 * (Position-Zero Read chunk) or as continued Calls (two Sends each).
 * Neither keeps a Receive, so only the grant bounds them.  The server
 * queues no more Calls than the bound (rdma_stat_recv), closes the
 * connection at the first Call beyond it (rpcrdma2_over_grant), never
 * before (a polite client's retransmissions), and frees it all (the debug
 * kernel's kmemleak and KASAN watch); the transport's own client on the
 * same server carries on.
 */
#define RR2R_OVER	3

/* Twice the grant taken, and the connection still open. */
static void rr2r_within_bound(struct kunit *test, unsigned long recv0,
			      unsigned long over0, u32 grant)
{
	unsigned long want = RR2S_GRANT_SLACK * grant;
	u32 i;

	for (i = 0; i < 200 &&
	     rr2r_sysctl_read(test, "rdma_stat_recv") - recv0 < want; i++)
		msleep(50);
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "rdma_stat_recv") - recv0,
			want);
	KUNIT_EXPECT_EQ_MSG(test, rr2r_sysctl_read(test, "rpcrdma2_over_grant"),
			    over0, "closed within twice the grant");
}

static void rr2r_over_grant(struct kunit *test, bool nomsg)
{
	unsigned long recv0, over0;
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_chunk_out rd;
	struct rpcrdma2_segment seg;
	struct rpc_clnt *clnt;
	struct rpcrdma2_hdr h;
	struct page **pages;
	u32 n, i, grant, xid = 0xc4000;
	unsigned int conns;
	struct rr2r_mr *m;
	u8 *msg, call[40];

	msg = kunit_kzalloc(test, 1024, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	clnt = rr2r_clnt(test);
	pages = rr2r_pages(test);
	rr2r_roundtrip(test, clnt, pages, 20000);	/* connected first */
	conns = rr2r_svc_conns();

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_knobs_reset,
							   NULL));
	KUNIT_ASSERT_EQ(test, 0, rr2r_sysctl_write(test, "max_requests", "4"));
	reinit_completion(&rr2r_svc.release);
	atomic_set(&rr2r_svc.held, 0);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_release_holders,
							   NULL));
	raw = rr2r_raw(test);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	grant = rpcrdma2_credit_in(RPCRDMA2_VERS_2, h.credit);
	KUNIT_ASSERT_EQ(test, grant, 4);
	m = rr2r_mr(test, raw, 4096);
	recv0 = rr2r_sysctl_read(test, "rdma_stat_recv");
	over0 = rr2r_sysctl_read(test, "rpcrdma2_over_grant");

	/* one HOLD takes the only service thread */
	n = rr2r_msg2(msg, xid, 0);
	n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_HOLD);
	rr2r_raw_send(test, raw, msg, n);
	for (i = 0; i < 200 && !atomic_read(&rr2r_svc.held); i++)
		msleep(50);
	KUNIT_ASSERT_EQ(test, atomic_read(&rr2r_svc.held), 1);

	/* then 2 * grant - 1 Calls it may have, and RR2R_OVER it may not */
	for (i = 1; i < RR2S_GRANT_SLACK * grant + RR2R_OVER; i++) {
		if (i == RR2S_GRANT_SLACK * grant)
			rr2r_within_bound(test, recv0, over0, grant);
		xid++;
		rr2r_rpc_call(call, xid, RR2R_PROG, RR2R_HOLD);
		if (nomsg) {
			rr2r_mr_put(m, 0, call, sizeof(call));
			seg = rr2r_seg(m, 0, sizeof(call));
			rd = (struct rpcrdma2_chunk_out){ .nsegs = 1,
							  .segs = &seg };
			n = rr2r_chunk_call(msg, RPCRDMA2_VERS_2, xid, true, 0,
					    &rd, 1, NULL, 0, NULL);
			rr2r_raw_send(test, raw, msg, n);
			continue;
		}
		n = rr2r_msg2(msg, xid, RDMA2_F_MORE);
		memcpy(msg + n, call, 20);
		rr2r_raw_send(test, raw, msg, n + 20);
		n = rr2r_msg2(msg, xid, 0);
		memcpy(msg + n, call + 20, 20);
		rr2r_raw_send(test, raw, msg, n + 20);
	}

	KUNIT_EXPECT_TRUE_MSG(test,
			      rr2r_sysctl_moves(test, "rpcrdma2_over_grant",
						over0),
			      "a Call beyond the grant left the connection open");
	KUNIT_EXPECT_EQ(test, rr2r_sysctl_read(test, "rpcrdma2_over_grant"),
			over0 + 1);
	KUNIT_EXPECT_LE_MSG(test,
			    rr2r_sysctl_read(test, "rdma_stat_recv") - recv0,
			    (unsigned long)RR2S_GRANT_SLACK * grant,
			    "more Calls queued than twice the %u credits granted",
			    grant);

	/* the thread comes back and closes it; all of it is freed */
	complete_all(&rr2r_svc.release);
	for (i = 0; i < 200 && rr2r_svc_conns() > conns; i++)
		msleep(50);
	KUNIT_EXPECT_LE(test, rr2r_svc_conns(), conns);
	rr2r_roundtrip(test, clnt, pages, 20000);
	rr2r_roundtrip(test, clnt, pages, RR2R_MAX);
}

static void rr2r_svc_v2_cred_04_nomsg_over_grant_closes(struct kunit *test)
{
	rr2r_over_grant(test, true);
}

static void rr2r_svc_v2_cred_04_continued_over_grant_closes(struct kunit *test)
{
	rr2r_over_grant(test, false);
}

/* ---- control messages and our sequences ---- */

/*
 * V2-CONT-03 (E-31): an error the server owes while one of its Replies
 * is continued goes out after the Reply's final Send, never between
 * its Sends; window acknowledgments are the exception (xfer.c).  A raw
 * client asks for a GET whose Reply takes more Sends than one window,
 * so the server stops after the first window and waits for an
 * acknowledgment.  Only then does the client send a message with an
 * unknown htype, which draws INVAL_HTYPE, and the acknowledgment after
 * it: the server handles the two in that order, so without the rule
 * the error would be on the wire before the Reply's next Send.
 */
static void rr2r_svc_v2_cont_03_error_after_reply_sequence(struct kunit *test)
{
	const u32 xid = 0xc3000, len = 18 * 4060 + 1000;
	u32 n, seen = 0, err_at = 0, final_at = 0, k;
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;
	u8 msg[128];

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	raw = rr2r_raw_n(test, 24);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	n = rr2r_msg2(msg, xid, 0);
	n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_GET);
	n += rr2r_args(msg + n, 0x5eed, len);
	rr2r_raw_send(test, raw, msg, n);

	/* at most 64 messages: the Reply, the error and nothing else */
	for (k = 1; k <= 64 && !(err_at && final_at); k++) {
		rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
		if (h.htype == RDMA2_ERROR) {
			KUNIT_EXPECT_EQ(test, h.xid, 0x4444);
			KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_INVAL_HTYPE);
			err_at = k;
			continue;
		}
		KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
		KUNIT_ASSERT_EQ(test, h.xid, xid);
		seen++;
		if (!(h.flags & RDMA2_F_MORE)) {
			final_at = k;
			continue;
		}
		if (seen < 2 || (seen - 1) % RPCRDMA2_SEQ_WINDOW)
			continue;
		/* the server waits for this window's acknowledgment */
		if (seen == 1 + RPCRDMA2_SEQ_WINDOW) {
			n = rr2r_hdr(msg, 0x4444, RPCRDMA2_VERS_2, 0x77, 0);
			rr2r_raw_send(test, raw, msg, n);
		}
		n = rpcrdma2_encode_credit_grant(msg, sizeof(msg),
						 rpcrdma2_credit_word(8, 8));
		rr2r_raw_send(test, raw, msg, n);
	}
	KUNIT_EXPECT_GT(test, seen, 1 + RPCRDMA2_SEQ_WINDOW);
	KUNIT_EXPECT_NE(test, final_at, 0);
	KUNIT_EXPECT_GT_MSG(test, err_at, final_at,
			    "the error was message %u, the Reply's final one %u",
			    err_at, final_at);
}

/*
 * V2-CONT-03: an error held for the end of a continued Reply is never
 * sent after a Reply that ends part way.  As in the case above, the
 * server waits for the first window's acknowledgment with an
 * INVAL_HTYPE held; then the Reply's next Send is made to fail to post
 * (as on a QP in error) and the acknowledgment is sent.  The client
 * would read anything after the partial Reply as part of it: the
 * server drops the held error and closes the connection, so the raw
 * client sees no RDMA2_ERROR before the connection goes.
 */
static void rr2r_svc_v2_cont_03_failed_sequence_drops_held(struct kunit *test)
{
	const u32 xid = 0xc3100, len = 18 * 4060 + 1000;
	u32 n, seen = 0, errors = 0, k;
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;
	u8 msg[128], *b;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_send_faults_off,
							   NULL));
	raw = rr2r_raw_n(test, 24);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	n = rr2r_msg2(msg, xid, 0);
	n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_GET);
	n += rr2r_args(msg + n, 0x5eed, len);
	rr2r_raw_send(test, raw, msg, n);

	/* the first window, up to where the server waits for its ack */
	for (k = 1; k <= 1 + RPCRDMA2_SEQ_WINDOW; k++) {
		rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
		KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
		KUNIT_ASSERT_EQ(test, h.xid, xid);
		KUNIT_ASSERT_TRUE(test, h.flags & RDMA2_F_MORE);
	}
	/* an error is held; then the Reply's next Send fails */
	n = rr2r_hdr(msg, 0x4444, RPCRDMA2_VERS_2, 0x77, 0);
	rr2r_raw_send(test, raw, msg, n);
	rr2s_test_fail_sends(1);
	n = rpcrdma2_encode_credit_grant(msg, sizeof(msg),
					 rpcrdma2_credit_word(8, 8));
	rr2r_raw_send(test, raw, msg, n);

	/*
	 * The connection goes; then whatever arrived before it.  (On siw
	 * a Send posted just before the disconnect may not be delivered,
	 * so rxe is the link that sees a held error go out.)
	 */
	KUNIT_EXPECT_TRUE_MSG(test,
			      wait_for_completion_timeout(&raw->client.cm_event,
							  30 * HZ),
			      "the connection stayed up after a partial Reply");
	msleep(200);
	while (completion_done(&raw->client.recv_done) &&
	       !rpcrdma2_test_wait_recv(&raw->client)) {
		b = rpcrdma2_test_recv_buf(&raw->client);
		if (rpcrdma2_test_recv_len(&raw->client) >= 16 &&
		    get_unaligned_be32(b + 12) == RDMA2_ERROR)
			errors++;
		else
			seen++;
		if (rpcrdma2_test_post_recv(&raw->client))
			break;
	}
	KUNIT_EXPECT_EQ_MSG(test, errors, 0,
			    "a held error went out after a partial Reply");
	KUNIT_EXPECT_EQ(test, seen, 0);
}

/*
 * A GET (RR2R_SEED_TWICE) whose Reply posts RDMA Writes into @m and is
 * continued: the messages of its Reply are taken, each window
 * acknowledged; after the first window an INVAL_HTYPE is sent, which
 * the server holds for the Reply's end, and then @arm runs (or NULL).
 * Returns how many Reply messages came, the final one counted, or 0 if
 * the connection went before the final one; *@errors counts the
 * RDMA2_ERRORs seen before the final one (V2-CONT-03: none).
 */
static u32 rr2r_twice_get(struct kunit *test, struct rpcrdma2_test_conn *raw,
			  struct rr2r_mr *m, u32 xid, u32 len,
			  void (*arm)(u32 skip), u32 skip, u32 *errors)
{
	struct rpcrdma2_segment seg = rr2r_seg(m, 0, m->npages * PAGE_SIZE);
	struct rpcrdma2_chunk_out w = { .nsegs = 1, .segs = &seg };
	struct rpcrdma2_hdr h;
	u32 n, seen = 0;
	u8 msg[512];

	n = rr2r_chunk_call(msg, RPCRDMA2_VERS_2, xid, false, 0, NULL, 0, &w,
			    1, NULL);
	n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_GET);
	n += rr2r_args(msg + n, RR2R_SEED_TWICE, len);
	rr2r_raw_send(test, raw, msg, n);
	*errors = 0;
	while (seen < 64) {
		if (rpcrdma2_test_wait_recv(&raw->client))
			return 0;	/* the connection went */
		n = rpcrdma2_test_recv_len(&raw->client);
		KUNIT_ASSERT_EQ(test, 0,
				rpcrdma2_decode_hdr(rpcrdma2_test_recv_buf(&raw->client),
						    n, RPCRDMA2_VERS_2,
						    &rr2r_reply_lim, &h));
		KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_post_recv(&raw->client));
		if (h.htype == RDMA2_ERROR) {
			(*errors)++;
			continue;
		}
		KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
		KUNIT_ASSERT_EQ(test, h.xid, xid);
		seen++;
		if (!(h.flags & RDMA2_F_MORE))
			return seen;
		if (seen < 2 || (seen - 1) % RPCRDMA2_SEQ_WINDOW)
			continue;
		/* the server waits for this window's acknowledgment */
		if (seen == 1 + RPCRDMA2_SEQ_WINDOW) {
			n = rr2r_hdr(msg, 0x4444, RPCRDMA2_VERS_2, 0x77, 0);
			rr2r_raw_send(test, raw, msg, n);
			if (arm)
				arm(skip);
		}
		n = rpcrdma2_encode_credit_grant(msg, sizeof(msg),
						 rpcrdma2_credit_word(8, 8));
		rr2r_raw_send(test, raw, msg, n);
	}
	KUNIT_FAIL(test, "the Reply did not end within 64 messages");
	return 0;
}

/* svc-send passes @skip posts, then fails every one */
static void rr2r_fail_sends_after(u32 skip)
{
	rpcrdma2_fail_after(RPCRDMA2_FAIL_SVC_SEND, skip);
}

/*
 * V2-CONT-03, V2-CHUNK-10: a continued Reply whose RDMA Writes went
 * ahead of it reaches its final Send, but the error held behind it
 * cannot be posted (as on a QP gone into error just then).  The final
 * Send owns the Reply's Write list and releases it when it completes;
 * the server must not also keep the list as an orphan of a Reply never
 * sent (the debug run's KASAN sees the list used after it was freed
 * if it does).  The held error is never seen, the connection closes
 * (its last Sends may be flushed on the way), and a new one is served.
 * A first GET, not faulted, counts the Reply's messages, so the fault
 * can let exactly those pass.
 */
static void rr2r_svc_v2_cont_03_held_post_fails_after_writes(struct kunit *test)
{
	const u32 len = 20 * 4096;
	struct rpcrdma2_test_conn *raw;
	u32 nmsgs, errors, got;
	struct rpcrdma2_hdr h;
	struct rr2r_mr *m;
	u64 injected;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_send_faults_off,
							   NULL));
	raw = rr2r_raw_n(test, 24);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	m = rr2r_mr(test, raw, len);

	nmsgs = rr2r_twice_get(test, raw, m, 0xc3300, len, NULL, 0, &errors);
	KUNIT_ASSERT_GT(test, nmsgs, 1 + RPCRDMA2_SEQ_WINDOW);
	KUNIT_ASSERT_LE(test, nmsgs, 1 + 2 * RPCRDMA2_SEQ_WINDOW);
	KUNIT_EXPECT_EQ(test, errors, 0);
	KUNIT_EXPECT_TRUE(test, rr2r_mr_verify(m, 0, len, RR2R_SEED_TWICE));
	/* the held error, after the Reply */
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_INVAL_HTYPE);

	/*
	 * Again: the Reply's remaining Sends pass, the held error fails.
	 * The server closes at once, so the last Sends may be flushed
	 * before they arrive.
	 */
	injected = rpcrdma2_fail_injected(RPCRDMA2_FAIL_SVC_SEND);
	got = rr2r_twice_get(test, raw, m, 0xc3301, len, rr2r_fail_sends_after,
			     nmsgs - 1 - RPCRDMA2_SEQ_WINDOW, &errors);
	KUNIT_EXPECT_LE(test, got, nmsgs);
	KUNIT_EXPECT_EQ(test, errors, 0);
	KUNIT_EXPECT_TRUE_MSG(test,
			      wait_for_completion_timeout(&raw->client.cm_event,
							  30 * HZ),
			      "the connection stayed up, an error owed");
	rr2s_test_fail_sends(0);
	KUNIT_EXPECT_GT(test, rpcrdma2_fail_injected(RPCRDMA2_FAIL_SVC_SEND),
			injected);
	if (got)	/* nothing after the Reply, the held error least */
		KUNIT_EXPECT_NE_MSG(test,
				    rpcrdma2_test_wait_recv(&raw->client), 0,
				    "a held error went out after its post failed");

	raw = rr2r_raw(test);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	rr2r_null_grant(test, raw, 0xc3302);
}

/*
 * V2-CONT-03, V2-SEC-17: an error held for the end of a continued
 * Reply is not lost when the control Send buffers are all taken then
 * (window acknowledgments take them, even inside a sequence): it waits
 * for one to come back, and the connection stays up.  As above, the
 * server waits for the first window's acknowledgment; the test takes
 * every control buffer of the server's pool, as acknowledgments in
 * flight would, the client sends a message with an unknown htype
 * (INVAL_HTYPE is held) and the acknowledgment, and the Reply ends.
 * Only when the buffers come back does the error go out; then a NULL
 * Call is answered on the same connection.
 */
static void rr2r_svc_v2_cont_03_held_waits_for_ctrl_buffer(struct kunit *test)
{
	struct rpcrdma2_send *taken[RPCRDMA2_CTRL_SENDS];
	const u32 xid = 0xc3200, len = 18 * 4060 + 1000;
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_send *sd;
	struct rpcrdma2_hdr h;
	struct rr2s_conn *c;
	u32 n, k, ntaken = 0;
	u8 msg[128], *b;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	raw = rr2r_raw_n(test, 24);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	c = rr2r_svc_conn(test, raw);
	svc_xprt_get(&c->b.xprt);	/* the pool outlives a closed one */
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_svc_xprt_put,
							   &c->b.xprt));
	n = rr2r_msg2(msg, xid, 0);
	n += rr2r_rpc_call(msg + n, xid, RR2R_PROG, RR2R_GET);
	n += rr2r_args(msg + n, 0x5eed, len);
	rr2r_raw_send(test, raw, msg, n);
	for (k = 1; k <= 1 + RPCRDMA2_SEQ_WINDOW; k++) {
		rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
		KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
		KUNIT_ASSERT_TRUE(test, h.flags & RDMA2_F_MORE);
	}

	/* every control buffer taken (the CONNPROP's may be completing) */
	for (k = 0; k < 100 && ntaken < RPCRDMA2_CTRL_SENDS; k++) {
		while (ntaken < RPCRDMA2_CTRL_SENDS &&
		       (sd = rpcrdma2_pool_get(&c->link.pool, true)))
			taken[ntaken++] = sd;
		if (ntaken < RPCRDMA2_CTRL_SENDS)
			msleep(20);
	}
	KUNIT_ASSERT_EQ(test, ntaken, RPCRDMA2_CTRL_SENDS);

	n = rr2r_hdr(msg, 0x4444, RPCRDMA2_VERS_2, 0x77, 0);
	rr2r_raw_send(test, raw, msg, n);
	n = rpcrdma2_encode_credit_grant(msg, sizeof(msg),
					 rpcrdma2_credit_word(8, 8));
	rr2r_raw_send(test, raw, msg, n);
	do {
		rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
		KUNIT_ASSERT_EQ(test, h.htype, RDMA2_MSG);
		KUNIT_ASSERT_EQ(test, h.xid, xid);
	} while (h.flags & RDMA2_F_MORE);
	msleep(200);		/* the Reply's sender has ended its sequence */

	/* the buffers come back, as their completions would bring them */
	while (ntaken)
		rpcrdma2_pool_put(&c->link.pool, taken[--ntaken]);
	KUNIT_ASSERT_EQ_MSG(test, rpcrdma2_test_wait_recv(&raw->client), 0,
			    "the error held for a control buffer was lost");
	b = rpcrdma2_test_recv_buf(&raw->client);
	KUNIT_EXPECT_GE(test, rpcrdma2_test_recv_len(&raw->client), 24);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b), 0x4444);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b + 12), RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b + 20),
			RDMA2_ERR_INVAL_HTYPE);
	KUNIT_ASSERT_EQ(test, 0, rpcrdma2_test_post_recv(&raw->client));
	rr2r_expect_null_reply_next(test, raw, msg, 0xc3201);
}

static int rr2r_suite_init(struct kunit_suite *suite)
{
	int i, port;

	init_completion(&rr2r_svc.release);
	rr2r_svc.serv = svc_create(&rr2r_svc_program, RR2R_MAX + PAGE_SIZE,
				   rr2r_svc_thread);
	if (!rr2r_svc.serv)
		return -ENOMEM;
	/* the client's callback service too, as the NFS client's is */
	set_bc_enabled(rr2r_svc.serv);
	if (svc_set_num_threads(rr2r_svc.serv, NULL, 1))
		return -ENOMEM;
	for (i = 0; i < RPCRDMA2_TEST_NR_LINKS; i++) {
		rpcrdma2_test_env_up(&rr2r_envs[i], i);
		rr2r_svc.err[i] = rr2r_envs[i].err;
		if (rr2r_svc.err[i])
			continue;
		rr2r_svc.addr[i] = rr2r_envs[i].addr.ss;
		port = svc_xprt_create_from_sa(rr2r_svc.serv, "rdma", &init_net,
					       &rr2r_envs[i].addr.sa,
					       SVC_SOCK_ANONYMOUS,
					       current_cred());
		if (port <= 0) {
			rr2r_svc.err[i] = port ?: -EINVAL;
			continue;
		}
		rpc_set_port((struct sockaddr *)&rr2r_svc.addr[i], port);
	}
	return 0;
}

/* ---- the seed 004 characteristics exchange (xchar=1) ---- */

static void rr2r_xchar_off(void *data)
{
	rpcrdma2_test_set_xchar(false, false);
}

static void rr2r_xchar(struct kunit *test, bool clnt, bool svc)
{
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, rr2r_xchar_off, NULL));
	rpcrdma2_test_set_xchar(clnt, svc);
}

static u32 rr2r_xch_hdr(u8 *b, u32 xid, u32 htype)
{
	return rr2r_hdr(b, xid, RPCRDMA2_VERS_2, htype, 0);
}

static u32 rr2r_xch_val(u8 *b, u32 which, u32 v)
{
	put_unaligned_be32(which, b);
	put_unaligned_be32(4, b + 4);
	put_unaligned_be32(v, b + 8);
	return 12;
}

/* An INITXCH as a raw client: RBSIZ, REQREMINV, BRS; empty nochg. */
static u32 rr2r_xch_init(u8 *b, u32 rbsiz, u32 reqreminv, u32 brs)
{
	u32 n = rr2r_xch_hdr(b, 0x51, RDMA2_XCH_INITXCH);

	put_unaligned_be32(3, b + n);
	n += 4;
	n += rr2r_xch_val(b + n, XCHAR_RBSIZ, rbsiz);
	n += rr2r_xch_val(b + n, XCHAR_REQREMINV, reqreminv);
	n += rr2r_xch_val(b + n, XCHAR_BRS, brs);
	put_unaligned_be32(0, b + n);
	return n + 4;
}

/* A REQXCH for one RBSIZ. */
static u32 rr2r_xch_req(u8 *b, u32 xid, u32 rbsiz)
{
	u32 n = rr2r_xch_hdr(b, xid, RDMA2_XCH_REQXCH);

	put_unaligned_be32(1, b + n);
	return n + 4 + rr2r_xch_val(b + n + 4, XCHAR_RBSIZ, rbsiz);
}

/* A NULL Call from @raw; its Reply must come next. */
static void rr2r_xch_null(struct kunit *test, struct rpcrdma2_test_conn *raw,
			  u32 xid)
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
}

/*
 * The server half with the exchange, against a raw client.
 * XCH-XOP-11: with xchar off the server sends no INITXCH and answers
 * one with INVAL_HTYPE, exactly as any unknown header type.
 * XCH-XOP-16, XCH-XOP-14, XCH-XOP-15: with it on, its INITXCH follows
 * its CONNPROP.  Applied: the client's RBSIZ lowers the server's send
 * limit, BRS NONE stops reverse Calls (XCH-RDIR-01), REQREMINV
 * FALSE stops Send With Invalidate (XCH-RINV-01).  XCH-XOP-18, XCH-XOP-19,
 * XCH-XOP-21:
 * a REQXCH gets one RESPXCH under its xid, RBSIZ done, and the
 * server's receive limit follows (XCH-INLINE-03).  XCH-INLINE-02: a
 * max_req_size change lets it rise again by UPDXCH, before the next
 * Reply.  V2-SEC-17, XCH-XOP-03: a REQXCH that runs past its end is
 * BAD_XDR and the connection carries on.
 */
static void rr2r_xch_svc(struct kunit *test)
{
	/*
	 * asserts XCH-XOP-03: a REQXCH running past its end draws an XDR error
	 */
	struct rpcrdma2_test_conn *raw;
	struct rpcrdma2_hdr h;
	struct rr2s_conn *c;
	u8 msg[256];
	u32 n;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, rr2r_knobs_reset, NULL));
	/* the 4096-octet Receives this case reasons in */
	KUNIT_ASSERT_EQ(test, 0,
			rr2r_sysctl_write(test, "max_req_size", "4096"));
	rr2r_xchar(test, true, false);

	/* off */
	raw = rr2r_raw_n(test, 4);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	n = rr2r_xch_init(msg, 2048, 0, BKREQSUP_NONE);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.xid, 0x51);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_INVAL_HTYPE);
	c = rr2r_svc_conn(test, raw);
	KUNIT_EXPECT_FALSE(test, c->link.conn.xch.on);
	KUNIT_EXPECT_EQ(test, c->link.conn.send_inline, 4096);
	rr2r_xch_null(test, raw, 0x50);

	/* on */
	rpcrdma2_test_set_xchar(false, true);
	raw = rr2r_raw_n(test, 4);
	rr2r_raw_settle_v2(test, raw, RDMA2_RVRSDIR_SIMPLE, &h);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_XCH_INITXCH);
	KUNIT_EXPECT_EQ(test, h.xid, RPCRDMA2_XCH_XID(RDMA2_XCH_INITXCH));
	KUNIT_EXPECT_EQ(test, h.xch.chars.present, 0x5);
	KUNIT_EXPECT_EQ(test, h.xch.chars.rbsiz, 4096);
	KUNIT_EXPECT_EQ(test, h.xch.chars.brs, BKREQSUP_INLINE);
	KUNIT_EXPECT_EQ(test, h.xch.subset[0][0], 0x2);

	n = rr2r_xch_init(msg, 2048, 0, BKREQSUP_NONE);
	rr2r_raw_send(test, raw, msg, n);
	n = rr2r_xch_req(msg, 0x61, 2048);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_XCH_RESPXCH);
	KUNIT_EXPECT_EQ(test, h.xid, 0x61);
	KUNIT_EXPECT_EQ(test, h.xch.subset[0][0], 1);	/* done */
	KUNIT_EXPECT_EQ(test, h.xch.subset[1][0], 0);
	c = rr2r_svc_conn(test, raw);
	KUNIT_EXPECT_TRUE(test, c->link.conn.xch.on);
	KUNIT_EXPECT_EQ(test, c->link.conn.xch.received, 2);
	KUNIT_EXPECT_EQ(test, c->link.conn.send_inline, 2048);
	KUNIT_EXPECT_EQ(test, c->link.conn.recv_inline, 2048);
	KUNIT_EXPECT_EQ(test, c->link.conn.peer_props.brs, RDMA2_RVRSDIR_NONE);
	KUNIT_EXPECT_TRUE(test, rpcrdma2_xch_no_reminv(&c->link.conn));

	/* the knob: an UPDXCH back to the posted 4096, then the Reply */
	KUNIT_EXPECT_EQ(test, 0,
			rr2r_sysctl_write(test, "max_req_size", "8192"));
	n = rr2r_msg2(msg, 0x62, 0);
	n += rr2r_rpc_call(msg + n, 0x62, RR2R_PROG, RR2R_NULL);
	rr2r_raw_send(test, raw, msg, n);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_XCH_UPDXCH);
	KUNIT_EXPECT_EQ(test, h.xch.chars.present, 0x1);
	KUNIT_EXPECT_EQ(test, h.xch.chars.rbsiz, 4096);
	KUNIT_EXPECT_FALSE(test, h.xch.pendclr);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_MSG);
	KUNIT_EXPECT_EQ(test, h.xid, 0x62);
	KUNIT_EXPECT_EQ(test, c->link.conn.recv_inline, 4096);

	/* hostile: an xcharval longer than the message */
	n = rr2r_xch_hdr(msg, 0x63, RDMA2_XCH_REQXCH);
	put_unaligned_be32(1, msg + n);
	put_unaligned_be32(XCHAR_RBSIZ, msg + n + 4);
	put_unaligned_be32(400, msg + n + 8);
	rr2r_raw_send(test, raw, msg, n + 16);
	rr2r_take(test, &raw->client, RPCRDMA2_VERS_2, &h, NULL);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.xid, 0x63);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_BAD_XDR);
	rr2r_xch_null(test, raw, 0x64);
	KUNIT_EXPECT_TRUE(test, c->link.conn.xch.on);
}

/*
 * Both halves, rpcrdma2 to rpcrdma2.  XCH-XOP-16: both on, each takes
 * the other's INITXCH and RPCs run (XCH-XOP-13).  XCH-XOP-11: with one
 * end off, that end answers the other's INITXCH with INVAL_HTYPE, the
 * exchange goes off on the connection and nothing else changes: no
 * RPC fails, the thresholds are what Version 2 settled.  XCH-XOP-01:
 * never on Version 1.
 */
static void rr2r_xch_both_halves(struct kunit *test)
{
	/* asserts XCH-XOP-13: both halves take the other's INITXCH */
	struct rpc_clnt *clnt;
	struct page **pages;
	struct rr2c *r;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, rr2r_knobs_reset, NULL));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rr2r_clnt_knobs_reset,
							   NULL));
	/* the 4096-octet buffers this case reasons in, on both ends */
	KUNIT_ASSERT_EQ(test, 0,
			rr2r_sysctl_write(test, "max_req_size", "4096"));
	KUNIT_ASSERT_EQ(test, 0,
			rr2r_sysctl_write(test, "rdma_max_inline_read", "4096"));
	KUNIT_ASSERT_EQ(test, 0,
			rr2r_sysctl_write(test, "rdma_max_inline_write", "4096"));
	pages = rr2r_pages(test);
	rr2r_xchar(test, true, true);
	clnt = rr2r_clnt(test);
	rr2r_roundtrip(test, clnt, pages, 20000);
	r = rr2c(rr2r_xprt(clnt));
	KUNIT_EXPECT_TRUE(test, r->link.conn.xch.on);
	KUNIT_EXPECT_TRUE(test, r->link.conn.xch.peer_init);
	KUNIT_EXPECT_EQ(test, r->link.conn.xch.sent, 1);
	KUNIT_EXPECT_EQ(test, r->link.conn.xch.received, 1);
	KUNIT_EXPECT_EQ(test, r->link.conn.send_inline, 4096);
	KUNIT_EXPECT_EQ(test, r->stats.errors, 0);

	/* the server off: it refuses the client's INITXCH */
	rpcrdma2_test_set_xchar(true, false);
	clnt = rr2r_clnt(test);
	rr2r_roundtrip(test, clnt, pages, 20000);
	r = rr2c(rr2r_xprt(clnt));
	KUNIT_EXPECT_FALSE(test, r->link.conn.xch.on);
	KUNIT_EXPECT_TRUE(test, r->link.conn.xch.refused);
	KUNIT_EXPECT_EQ(test, r->link.conn.send_inline, 4096);
	KUNIT_EXPECT_EQ(test, r->stats.errors, 0);
	KUNIT_EXPECT_EQ(test, r->stats.bad_xids, 0);

	/* the client off: it refuses the server's */
	rpcrdma2_test_set_xchar(false, true);
	clnt = rr2r_clnt(test);
	rr2r_roundtrip(test, clnt, pages, 20000);
	r = rr2c(rr2r_xprt(clnt));
	KUNIT_EXPECT_FALSE(test, r->link.conn.xch.on);
	KUNIT_EXPECT_EQ(test, r->stats.errors_sent, 1);
	KUNIT_EXPECT_EQ(test, r->link.conn.send_inline, 4096);

	/* Version 1: never */
	rpcrdma2_test_set_xchar(true, true);
	rr2r_caps(RPCRDMA2_VERS_1, RPCRDMA2_VERS_2);
	clnt = rr2r_clnt(test);
	rr2r_roundtrip(test, clnt, pages, 20000);
	r = rr2c(rr2r_xprt(clnt));
	KUNIT_EXPECT_EQ(test, r->link.conn.vers, RPCRDMA2_VERS_1);
	KUNIT_EXPECT_FALSE(test, r->link.conn.xch.on);
	KUNIT_EXPECT_EQ(test, r->link.conn.xch.sent, 0);
	KUNIT_EXPECT_EQ(test, r->stats.errors_sent, 0);
}

static void rr2r_suite_exit(struct kunit_suite *suite)
{
	int i;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	if (rr2r_svc.serv) {
		complete_all(&rr2r_svc.release);
		svc_xprt_destroy_all(rr2r_svc.serv, &init_net);
		svc_set_num_threads(rr2r_svc.serv, NULL, 0);
		svc_destroy(&rr2r_svc.serv);
	}
	for (i = 0; i < RPCRDMA2_TEST_NR_LINKS; i++)
		rpcrdma2_test_env_down(&rr2r_envs[i]);
}

/* ---- allocation-failure injection (shared/fault.c) ---- */

static void rr2r_fail_off(void *data)
{
	rpcrdma2_fail_reset();
}

/*
 * What an RPC may end with while an allocation fails under it: done
 * (0, the transport retried: a reconnect, a retransmission, a wait),
 * or an error the RPC client hands its caller.  A timeout is not one of
 * them: it is what a hang looks like.
 */
static bool rr2r_fail_status_ok(int ret)
{
	switch (ret) {
	case 0:
	case -ENOMEM:
	case -ENOBUFS:
	case -EIO:
	case -EAGAIN:
	case -ENOTCONN:
	case -ECONNRESET:
	case -ECONNABORTED:
		return true;
	default:
		return false;
	}
}

/*
 * Arm @site (@times failures, every @interval'th call) under a working
 * connection, optionally dropped first so that it is made again under
 * the injection, then PUT and GET @len octets: each completes with
 * every octet right or fails with an error (@completes: it completes,
 * the transport retried), none hangs, and the site was reached.
 * Disarmed, the same client PUTs and GETs again and every MR is back
 * in the pool.  The leak suite (leak_test.c) runs after.
 */
static void rr2r_fail_io(struct kunit *test, struct rpc_clnt *clnt,
			 enum rpcrdma2_fail_site site, int times, u32 interval,
			 bool reconnect, bool completes, u32 len)
{
	struct rpc_xprt *xprt = rr2r_xprt(clnt);
	struct page **pages = rr2r_pages(test);
	struct rr2r_res res;
	u64 before;
	int ret, put;

	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, rr2r_fail_off, NULL));
	rr2r_roundtrip(test, clnt, pages, len);
	before = rpcrdma2_fail_injected(site);
	rpcrdma2_fail_set(site, times, interval, 100);
	if (reconnect)
		xprt_force_disconnect(xprt);

	ret = rr2r_put(clnt, pages, len, 0x5eed, &res);
	KUNIT_EXPECT_TRUE_MSG(test, completes ? !ret : rr2r_fail_status_ok(ret),
			      "%s: PUT ended with %d", rpcrdma2_fail_name(site),
			      ret);
	if (!ret) {
		KUNIT_EXPECT_EQ(test, res.ok, 1);
		KUNIT_EXPECT_EQ(test, res.len, len);
	}
	put = ret;
	ret = rr2r_get(clnt, pages, len, 0x5eed, &res);
	KUNIT_EXPECT_TRUE_MSG(test, completes ? !ret : rr2r_fail_status_ok(ret),
			      "%s: GET ended with %d", rpcrdma2_fail_name(site),
			      ret);
	if (!ret)
		KUNIT_EXPECT_TRUE(test, rr2r_verify(pages, len, 0x5eed));
	KUNIT_EXPECT_GT_MSG(test, rpcrdma2_fail_injected(site), before,
			    "%s: no failure was injected",
			    rpcrdma2_fail_name(site));
	kunit_info(test, "%s: %llu failures, PUT %d, GET %d\n",
		   rpcrdma2_fail_name(site),
		   rpcrdma2_fail_injected(site) - before, put, ret);

	rpcrdma2_fail_reset();
	rr2r_roundtrip(test, clnt, pages, len);
	rr2r_expect_pool_full(test, xprt);
}

/*
 * The knobs mean what fault_attr's do, and a disarmed site costs
 * nothing: the static branch is off once every site is disarmed (no
 * other case leaves one armed), on while one is, and stays on when
 * "times" has run out (the hot path cannot switch it) until the site
 * is set again.
 */
static void rr2r_fail_knobs(struct kunit *test)
{
	const enum rpcrdma2_fail_site s = RPCRDMA2_FAIL_REPLY;
	u64 before = rpcrdma2_fail_injected(s);
	u32 i, failed = 0, mask = 0;

	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, rr2r_fail_off, NULL));
	rpcrdma2_fail_reset();
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&rpcrdma2_fail_armed));
	KUNIT_EXPECT_FALSE(test, rpcrdma2_fail(s));

	/* every third call, twice: calls 3 and 6 of 12 */
	rpcrdma2_fail_set(s, 2, 3, 100);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&rpcrdma2_fail_armed));
	for (i = 0; i < 12; i++)
		if (rpcrdma2_fail(s))
			mask |= BIT(i);
	KUNIT_EXPECT_EQ(test, mask, BIT(2) | BIT(5));
	KUNIT_EXPECT_EQ(test, rpcrdma2_fail_injected(s), before + 2);
	/* another site is not touched */
	KUNIT_EXPECT_FALSE(test, rpcrdma2_fail(RPCRDMA2_FAIL_REG));

	/* no limit, every call; probability 0 disarms */
	rpcrdma2_fail_set(s, -1, 1, 100);
	for (i = 0; i < 100; i++)
		failed += rpcrdma2_fail(s);
	KUNIT_EXPECT_EQ(test, failed, 100);
	rpcrdma2_fail_set(s, -1, 1, 0);
	KUNIT_EXPECT_FALSE(test, rpcrdma2_fail(s));
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&rpcrdma2_fail_armed));

	/* 50 percent of 400 calls: neither none nor all */
	failed = 0;
	rpcrdma2_fail_set(s, -1, 1, 50);
	for (i = 0; i < 400; i++)
		failed += rpcrdma2_fail(s);
	KUNIT_EXPECT_GT(test, failed, 100);
	KUNIT_EXPECT_LT(test, failed, 300);

	/* after 3 calls that pass, every call fails, with no limit */
	rpcrdma2_fail_after(s, 3);
	mask = 0;
	for (i = 0; i < 8; i++)
		if (rpcrdma2_fail(s))
			mask |= BIT(i);
	KUNIT_EXPECT_EQ(test, mask, GENMASK(7, 3));

	/* two sites armed: the branch stays on until both are disarmed */
	rpcrdma2_fail_set(RPCRDMA2_FAIL_REG, 1, 1, 100);
	rpcrdma2_fail_set(s, 0, 1, 100);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&rpcrdma2_fail_armed));
	KUNIT_EXPECT_FALSE(test, rpcrdma2_fail(s));
	KUNIT_EXPECT_TRUE(test, rpcrdma2_fail(RPCRDMA2_FAIL_REG));
	KUNIT_EXPECT_FALSE(test, rpcrdma2_fail(RPCRDMA2_FAIL_REG));
	rpcrdma2_fail_reset();
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&rpcrdma2_fail_armed));
}

/*
 * connect: the client's endpoint fails on a reconnect, then the
 * server's on the accept after it (the client made its own endpoint,
 * one call, and its first Receive buffers, one call each, before it
 * asks).  Either way the RPC waits and completes on the next
 * connection: the client retries its own -ENOMEM after the reconnect
 * delay, and a refused connection.
 */
static void rr2r_fail_connect(struct kunit *test)
{
	struct rpc_clnt *clnt;
	u32 nr_init;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	clnt = rr2r_clnt(test);
	nr_init = rr2c(rr2r_xprt(clnt))->link.ep.attr.nr_recv_init;
	KUNIT_ASSERT_GT(test, nr_init, 0);
	rr2r_fail_io(test, clnt, RPCRDMA2_FAIL_CONNECT, 1, 1, true, true,
		     1000);
	rr2r_fail_io(test, clnt, RPCRDMA2_FAIL_CONNECT, 1, nr_init + 2, true,
		     true, 1000);
}

/*
 * recv-refill: a Receive that cannot be posted (or made) drops the
 * connection at either end; the Call is sent again on the next one.
 */
static void rr2r_fail_recv_refill(struct kunit *test)
{
	struct rpc_clnt *clnt;

	rr2r_caps(RPCRDMA2_VERS_2, RPCRDMA2_VERS_2);
	clnt = rr2r_clnt(test);
	rr2r_fail_io(test, clnt, RPCRDMA2_FAIL_RECV_REFILL, 1, 1, false, true,
		     300001);
	/* on a new connection: its 7th post, of the client's first ones */
	rr2r_fail_io(test, clnt, RPCRDMA2_FAIL_RECV_REFILL, 1, 7, true, true,
		     1000);
}

/*
 * reg: Version 1, so that the PUT goes in a Read chunk and the GET's
 * data in a Write chunk.  The client's DMA mapping of an MR fails
 * (first call), then the server's R/W context for the Read chunk (the
 * second: the client registered first).  Both are retried and the RPCs
 * complete: the client transmits the Call again after a delay, rather
 * than fail it as too big (EMSGSIZE); the server closes the connection
 * (V2-ERR-11: nothing would answer the Call) and the client sends it
 * again on the next one.
 */
static void rr2r_fail_reg(struct kunit *test)
{
	struct rpc_clnt *clnt;

	rr2r_caps(RPCRDMA2_VERS_1, RPCRDMA2_VERS_1);
	clnt = rr2r_clnt(test);
	rr2r_fail_io(test, clnt, RPCRDMA2_FAIL_REG, 1, 1, false, true, 65536);
	rr2r_fail_io(test, clnt, RPCRDMA2_FAIL_REG, 4, 1, false, true, 65536);
	rr2r_fail_io(test, clnt, RPCRDMA2_FAIL_REG, 1, 2, false, true, 65536);
}

/*
 * reply: the server's Write list and its RDMA Writes of a Reply with
 * a Write chunk (Version 1, 65536 octets).  Without a Write list the
 * Writes are waited for, and the GET completes on the same connection;
 * V2-ERR-11: a Reply whose Writes cannot be made closes the connection
 * (every second call: the Writes after the Write list), and the Call
 * is retransmitted on the next one.
 */
static void rr2r_fail_reply(struct kunit *test)
{
	struct rpc_xprt *xprt;
	struct rpc_clnt *clnt;
	u32 conns;

	rr2r_caps(RPCRDMA2_VERS_1, RPCRDMA2_VERS_1);
	clnt = rr2r_clnt(test);
	xprt = rr2r_xprt(clnt);
	conns = xprt->stat.connect_count;
	rr2r_fail_io(test, clnt, RPCRDMA2_FAIL_REPLY, 1, 1, false, true,
		     65536);
	KUNIT_EXPECT_EQ(test, xprt->stat.connect_count, conns);
	/* V2-ERR-11: the server closed the connection of a failed Reply */
	rr2r_fail_io(test, clnt, RPCRDMA2_FAIL_REPLY, 2, 2, false, true,
		     65536);
	KUNIT_EXPECT_GT_MSG(test, xprt->stat.connect_count, conns,
			    "the server kept a connection whose Reply failed");
}

/* reply: the client's pages for a sparse Reply buffer come a bit later. */
static void rr2r_fail_reply_sparse_pages(struct kunit *test)
{
	u64 before = rpcrdma2_fail_injected(RPCRDMA2_FAIL_REPLY);

	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, rr2r_fail_off, NULL));
	rpcrdma2_fail_set(RPCRDMA2_FAIL_REPLY, 2, 1, 100);
	rr2r_sparse(test, RPCRDMA2_VERS_2, 3 * PAGE_SIZE + 100);
	KUNIT_EXPECT_EQ(test, rpcrdma2_fail_injected(RPCRDMA2_FAIL_REPLY),
			before + 2);
}

static struct kunit_case rr2r_cases[] = {
	KUNIT_CASE_PARAM(rr2r_v2_sizes_0_to_1m,
			 rr2r_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2r_v1_client_v2_server,
			 rr2r_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2r_v2_client_v1_server_falls_back,
			 rr2r_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2r_reconnect_v2, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_reconnect_after_fallback_stays_v1,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_credit_exhaustion_async_grant,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_malformed_from_raw_qp, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_sparse_reply_pages_v2, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_sparse_reply_pages_v1, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_abandoned_sequence_is_not_resumed,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_abandoned_before_first_send_owes_nothing,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_stall_disarmed_goes_on, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_grant_keeps_autoclose_lock,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_swap_and_inject_disconnect,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_v1_no_v2_grant, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_mr_pool_grows_on_demand,
			 rr2r_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2r_v2_sec_08_answered_not_mapped,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_rejected_part_ends_sequence,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_xid_mismatch_bad_xdr, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_limits_and_late_connprop,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_no_cm_record, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_v2_chunk_31_rcsiz_before_connprop,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_write_chunk_v1,
			 rr2r_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_write_chunk_v2,
			 rr2r_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_read_chunks_v1,
			 rr2r_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_read_chunks_v2,
			 rr2r_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_reply_chunk_v1,
			 rr2r_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_reply_chunk_v2,
			 rr2r_clamped_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_hostile_chunks, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_backchannel_brs, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_backchannel_cont, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_hostauth_both_halves, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_close_port_down_parks, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_backchannel_simple, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_backchannel_server_none, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_bc1_cred_08_receives_posted,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_v2_err_11_send_failure_closes,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_v2_cred_06_reads_within_ord,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_knobs_apply_to_new_connections,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_counters_move, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_conns_per_version_add_up,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_xch_svc, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_xch_both_halves, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_clnt_knobs_apply_to_new_connections,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_rejected_calls_never_run,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_bc1_rdir_backward_call_v1, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_bc1_cred_04_backward_calls_within_credit,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_v2_cred_04_nomsg_over_grant_closes,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_v2_cred_04_continued_over_grant_closes,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_v2_cont_03_error_after_reply_sequence,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_v2_cont_03_failed_sequence_drops_held,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_v2_cont_03_held_post_fails_after_writes,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_svc_v2_cont_03_held_waits_for_ctrl_buffer,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_cmp_rinv_04_plain_send_without_r,
			 rr2r_link_gen_params),
	KUNIT_CASE(rr2r_fail_knobs),
	KUNIT_CASE_PARAM_ATTR(rr2r_fail_connect, rr2r_link_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE_PARAM(rr2r_fail_recv_refill, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_fail_reg, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_fail_reply, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_fail_reply_sparse_pages, rr2r_link_gen_params),
	KUNIT_CASE_PARAM_ATTR(rr2r_svc_flood, rr2r_link_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	/* last: it takes the devices away and brings them back */
	KUNIT_CASE_PARAM_ATTR(rr2r_device_removal_and_return,
			      rr2r_link_gen_params, { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static struct kunit_suite rr2r_suite = {
	.name		= "rpcrdma2_rpc",
	.suite_init	= rr2r_suite_init,
	.suite_exit	= rr2r_suite_exit,
	.test_cases	= rr2r_cases,
};

kunit_test_suite(rr2r_suite);
