// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fixture of the rpcrdma2 suites that run the transport under real
 * RPC (rpc_test.c, svc_raw_test.c, svc_chunks_test.c, backchannel_test.c,
 * knobs_test.c, exchange_test.c, fault_test.c) and of clnt_wire_test.c:
 * the soft-RDMA environments, one test RPC program (RR2R_PROG) served on
 * an svc_serv with an rpcrdma2 listener on each device, and an rpc_clnt
 * with XPRT_TRANSPORT_RDMA that calls it.  Each of those suites brings it
 * up in its suite_init (rr2r_suite_init()) and down in its suite_exit.
 *
 *   PUT  (seed, opaque data)  -> (ok, length): the server checks every byte
 *   GET  (seed, length)       -> opaque data:   the client checks every byte
 *   HOLD ()                   -> ():             waits until the test says
 *
 * The service is also the client's callback service (set_bc_enabled), as
 * the NFS client's is; clnt_wire_test.c's reverse Calls go to its NULL.
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

/* ---- the service ---- */

struct rr2r_service rr2r_svc;

struct rpcrdma2_test_env rr2r_envs[RPCRDMA2_TEST_NR_LINKS];

u8 rr2r_byte(u32 seed, u32 i)
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

void rr2r_enc_void(struct rpc_rqst *req, struct xdr_stream *xdr,
		   const void *data)
{
}

int rr2r_dec_void(struct rpc_rqst *req, struct xdr_stream *xdr,
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

static void rr2w_enc_read(struct rpc_rqst *req, struct xdr_stream *xdr,
			  const void *data)
{
	const struct rr2w_read *a = data;

	xdr_stream_encode_u32(xdr, a->len);
	rpc_prepare_reply_pages(req, a->pages, 0, a->len, 1);
	if (!a->no_ddp)
		req->rq_rcv_buf.flags |= XDRBUF_READ;
}

static int rr2w_dec_read(struct rpc_rqst *req, struct xdr_stream *xdr,
			 void *data)
{
	struct rr2w_read *res = data;
	u32 len;

	if (xdr_stream_decode_u32(xdr, &len) < 0 || len > RR2W_BIG)
		return -EIO;
	if (xdr_read_pages(xdr, len) != len)
		return -EIO;
	res->len = len;
	return 0;
}

static void rr2w_enc_write(struct rpc_rqst *req, struct xdr_stream *xdr,
			   const void *data)
{
	const struct rr2w_write *a = data;

	xdr_stream_encode_u32(xdr, a->len);
	xdr_write_pages(xdr, a->pages, 0, a->len);
	if (!a->no_ddp)
		req->rq_snd_buf.flags |= XDRBUF_WRITE;
}

const struct rpc_procinfo rr2r_clnt_procs[RR2R_CLNT_NPROCS] = {
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
	[RR2R_READ] = {
		.p_proc		= RR2R_GET,
		.p_encode	= rr2w_enc_read,
		.p_decode	= rr2w_dec_read,
		.p_arglen	= 1,
		.p_replen	= 1,
		.p_statidx	= RR2R_READ,
		.p_name		= "READ",
	},
	[RR2R_WRITE] = {
		.p_proc		= RR2R_PUT,
		.p_encode	= rr2w_enc_write,
		.p_decode	= rr2r_dec_void,
		.p_arglen	= 1,
		.p_statidx	= RR2R_WRITE,
		.p_name		= "WRITE",
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

const struct rpc_program rr2r_clnt_program = {
	.name		= "rpcrdma2-test",
	.number		= RR2R_PROG,
	.nrvers		= ARRAY_SIZE(rr2r_clnt_versions),
	.version	= rr2r_clnt_versions,
	.stats		= &rr2r_clnt_stats,
};

const struct rpc_timeout rr2r_timeout = {
	.to_initval	= 30 * HZ,
	.to_maxval	= 30 * HZ,
	.to_retries	= 2,
};

const struct rr2r_param rr2r_links[] = {
	{ RPCRDMA2_TEST_RXE, RPCRDMA2_DEVCLAMP_NONE },
	{ RPCRDMA2_TEST_SIW, RPCRDMA2_DEVCLAMP_NONE },
};

const struct rr2r_param rr2r_clamped[] = {
	{ RPCRDMA2_TEST_RXE, RPCRDMA2_DEVCLAMP_NONE },
	{ RPCRDMA2_TEST_SIW, RPCRDMA2_DEVCLAMP_NONE },
	{ RPCRDMA2_TEST_RXE, RPCRDMA2_DEVCLAMP_IWARP },
	{ RPCRDMA2_TEST_SIW, RPCRDMA2_DEVCLAMP_IWARP },
	{ RPCRDMA2_TEST_RXE, RPCRDMA2_DEVCLAMP_TINY },
	{ RPCRDMA2_TEST_SIW, RPCRDMA2_DEVCLAMP_TINY },
};

void rr2r_link_desc(const struct rr2r_param *p, char *desc)
{
	rpcrdma2_test_param_desc(p->link, p->clamp, desc);
}

static void rr2r_devclamp_none(void *data)
{
	rpcrdma2_test_set_devclamp(RPCRDMA2_DEVCLAMP_NONE);
}

/* The case's provider; its clamp applies from now on, to both halves. */
enum rpcrdma2_test_link rr2r_link_of(struct kunit *test)
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

void rr2r_caps(u32 clnt, u32 svc)
{
	rpcrdma2_test_cap_version(RPCRDMA2_CLIENT, clnt);
	rpcrdma2_test_cap_version(RPCRDMA2_SERVER, svc);
}

void rr2r_clnt_cleanup(void *data)
{
	rpc_shutdown_client(data);
}

/* An rpc_clnt on rpcrdma2 to this case's listener, connected (NULL ping). */
struct rpc_clnt *rr2r_clnt(struct kunit *test)
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

struct rpc_xprt *rr2r_xprt(struct rpc_clnt *clnt)
{
	return rcu_access_pointer(clnt->cl_xprt);
}

/*
 * The prologue of most cases: the versions each role offers (@clnt_vers,
 * @svc_vers), then an rpc_clnt on rpcrdma2 to this case's listener,
 * connected; its transport in *@xprt unless @xprt is NULL.
 */
struct rpc_clnt *rr2r_start(struct kunit *test, u32 clnt_vers, u32 svc_vers,
			    struct rpc_xprt **xprt)
{
	struct rpc_clnt *clnt;

	rr2r_caps(clnt_vers, svc_vers);
	clnt = rr2r_clnt(test);
	if (xprt)
		*xprt = rr2r_xprt(clnt);
	return clnt;
}

/* V2-SEC-08: every MR is free again once the RPCs have completed. */
void rr2r_expect_pool_full(struct kunit *test, struct rpc_xprt *xprt)
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
struct page **rr2r_pages_n(struct kunit *test, u32 n)
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

struct page **rr2r_pages(struct kunit *test)
{
	return rr2r_pages_n(test, RR2R_NPAGES);
}

void rr2r_fill(struct page **pages, u32 len, u32 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		((u8 *)page_address(pages[i >> PAGE_SHIFT]))
			[offset_in_page(i)] = rr2r_byte(seed, i);
}

bool rr2r_verify(struct page **pages, u32 len, u32 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		if (((u8 *)page_address(pages[i >> PAGE_SHIFT]))
			[offset_in_page(i)] != rr2r_byte(seed, i))
			return false;
	return true;
}

/* PUT or PUT_CONT (@proc) @len octets of pattern @seed */
int rr2r_put_proc(struct rpc_clnt *clnt, u32 proc, struct page **pages,
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

int rr2r_put(struct rpc_clnt *clnt, struct page **pages, u32 len,
	     u32 seed, struct rr2r_res *res)
{
	return rr2r_put_proc(clnt, RR2R_PUT, pages, len, seed, res);
}

int rr2r_get(struct rpc_clnt *clnt, struct page **pages, u32 len,
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
void rr2r_roundtrip(struct kunit *test, struct rpc_clnt *clnt,
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

/* ---- transport fixes, through the RPC client ---- */

/*
 * A Reply into XDRBUF_SPARSE_PAGES (NFSv3 GETACL's way): the transport
 * allocates the pages before the Call goes out, and every octet lands.
 * Inline on Version 1, continued on Version 2.
 */
void rr2r_sparse(struct kunit *test, u32 vers, u32 len)
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

	clnt = rr2r_start(test, vers, RPCRDMA2_VERS_2, NULL);
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

/* ---- suite setup: environments, service, listeners ---- */

int rr2r_suite_init(struct kunit_suite *suite)
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

void rr2r_suite_exit(struct kunit_suite *suite)
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
