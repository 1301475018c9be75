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
 *     4096-octet threshold (V2-CONT-01..03, V2-INLINE-*);
 *   - the version matrix by per-role cap: v2/v2, v1 client/v2 server,
 *     v2 client/v1 server (fallback on ERR_VERS, V2-FRAME-18/23, E-12);
 *   - a Version 1 Call beyond the inline threshold fails at once;
 *   - a dropped connection is re-established under the same client, and
 *     after a fallback without negotiating again (V2-FRAME-19);
 *   - credit exhaustion: a client that has every credit in use gets the
 *     asynchronous grant (V2-CRED-05/07/08) and all Calls complete;
 *   - malformed messages from a raw QP get the required error or are
 *     dropped, while another connection keeps working (V2-SEC-17).
 */

#include <kunit/test.h>
#include <linux/kthread.h>
#include <linux/sunrpc/addr.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/metrics.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/svcsock.h>
#include <linux/sunrpc/xprtrdma.h>
#include <linux/unaligned.h>

#include "rpcrdma2.h"
#include "shared/codec.h"
#include "shared/nego.h"
#include "tests/env.h"

#define RR2R_PROG	0x2000f0a1
#define RR2R_VERS	1
#define RR2R_MAX	(1024 * 1024)
#define RR2R_NPAGES	(RR2R_MAX >> PAGE_SHIFT)
#define RR2R_HOLDERS	40

enum { RR2R_NULL, RR2R_PUT, RR2R_GET, RR2R_HOLD, RR2R_NPROCS };

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

static __be32 rr2r_proc_get(struct svc_rqst *rqstp)
{
	struct xdr_stream *xdr = &rqstp->rq_res_stream;
	u32 seed, len, i, n, k;
	u8 *p;

	if (xdr_stream_decode_u32(&rqstp->rq_arg_stream, &seed) ||
	    xdr_stream_decode_u32(&rqstp->rq_arg_stream, &len) ||
	    len > RR2R_MAX)
		return rpc_garbage_args;
	if (xdr_stream_encode_u32(xdr, len) < 0)
		return rpc_system_err;
	for (i = 0; i < len; i += n) {
		n = min_t(u32, len - i, PAGE_SIZE);
		p = (u8 *)xdr_reserve_space(xdr, xdr_align_size(n));
		if (!p)
			return rpc_system_err;
		for (k = 0; k < n; k++)
			p[k] = rr2r_byte(seed, i + k);
		memset(p + n, 0, xdr_align_size(n) - n);
	}
	xdr_commit_encode(xdr);		/* the last piece may straddle pages */
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
	[RR2R_GET]  = RR2R_SVC_PROC(rr2r_proc_get, 1 + RR2R_MAX / 4),
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

static const struct rpc_procinfo rr2r_clnt_procs[RR2R_NPROCS] = {
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
};

static unsigned int rr2r_clnt_counts[RR2R_NPROCS];

static const struct rpc_version rr2r_clnt_version = {
	.number		= RR2R_VERS,
	.nrprocs	= RR2R_NPROCS,
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

static const enum rpcrdma2_test_link rr2r_links[] = {
	RPCRDMA2_TEST_RXE,
	RPCRDMA2_TEST_SIW,
};

static void rr2r_link_desc(const enum rpcrdma2_test_link *link, char *desc)
{
	strscpy(desc, rpcrdma2_test_link_name(*link), KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rr2r_link, rr2r_links, rr2r_link_desc);

static enum rpcrdma2_test_link rr2r_link_of(struct kunit *test)
{
	const enum rpcrdma2_test_link *link = test->param_value;

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

static void rr2r_free_pages(void *data)
{
	struct page **pages = data;
	u32 i;

	for (i = 0; i < RR2R_NPAGES; i++)
		if (pages[i])
			__free_page(pages[i]);
	kfree(pages);
}

static struct page **rr2r_pages(struct kunit *test)
{
	struct page **pages;
	u32 i;
	int ret;

	pages = kcalloc(RR2R_NPAGES, sizeof(*pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pages);
	ret = kunit_add_action_or_reset(test, rr2r_free_pages, pages);
	KUNIT_ASSERT_EQ(test, ret, 0);
	for (i = 0; i < RR2R_NPAGES; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
	}
	return pages;
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

static int rr2r_put(struct rpc_clnt *clnt, struct page **pages, u32 len,
		    u32 seed, struct rr2r_res *res)
{
	struct rr2r_args args = { .seed = seed, .len = len, .pages = pages };
	struct rpc_message msg = {
		.rpc_proc	= &rr2r_clnt_procs[RR2R_PUT],
		.rpc_argp	= &args,
		.rpc_resp	= res,
	};

	rr2r_fill(pages, len, seed);
	memset(res, 0, sizeof(*res));
	return rpc_call_sync(clnt, &msg, RPC_TASK_SOFT);
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

/* V2-CONT-01..03, V2-INLINE-02/08, V2-FRAME-14: 0 to 1 MiB over v2. */
static void rr2r_v2_sizes_0_to_1m(struct kunit *test)
{
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
}

/*
 * Drop the connection under a mounted client: the next Call reconnects
 * and succeeds.  After a fallback the reconnect opens in Version 1 at
 * once, with no second CONNPROP (V2-FRAME-19, E-12).
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

/* Version 1 both ways when only one side offers it; inline sizes only. */
static void rr2r_version_matrix(struct kunit *test, u32 clnt_vers,
				u32 svc_vers)
{
	static const u32 sizes[] = { 0, 1, 100, 1000, 2000 };
	struct rpc_clnt *clnt;
	struct page **pages;
	struct rr2r_res res;
	u32 i;

	rr2r_caps(clnt_vers, svc_vers);
	clnt = rr2r_clnt(test);
	pages = rr2r_pages(test);
	KUNIT_EXPECT_EQ(test, rpcrdma2_clnt_test_version(rr2r_xprt(clnt)),
			RPCRDMA2_VERS_1);
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		rr2r_roundtrip(test, clnt, pages, sizes[i]);
	/* no chunks yet: a Call beyond the threshold fails, never hangs */
	KUNIT_EXPECT_NE(test, 0, rr2r_put(clnt, pages, 65536, 7, &res));
}

/* V2-FRAME-20: a v1-capped client's first message settles Version 1. */
static void rr2r_v1_client_v2_server(struct kunit *test)
{
	rr2r_version_matrix(test, RPCRDMA2_VERS_1, RPCRDMA2_VERS_2);
}

/* V2-FRAME-18/23, E-12/13: ERR_VERS from a v1 server, then Version 1. */
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
 * V2-CRED-04/05/07/08: the server grants 32 at first; with 40 HOLD Calls
 * queued the client has all 32 in use, the server raises the grant to 64
 * with a credit-grant-only message, the client sends the other 8, and
 * every Call completes once released.
 */
static void rr2r_credit_exhaustion_async_grant(struct kunit *test)
{
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

static struct rpcrdma2_test_conn *rr2r_raw(struct kunit *test)
{
	enum rpcrdma2_test_link link = rr2r_link_of(test);
	struct rpcrdma2_test_conn *conn;
	int ret;

	conn = kunit_kzalloc(test, sizeof(*conn), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, conn);
	rpcrdma2_test_conn_init(conn, &rr2r_envs[link]);
	ret = kunit_add_action_or_reset(test, rr2r_raw_cleanup, conn);
	KUNIT_ASSERT_EQ(test, ret, 0);
	ret = rpcrdma2_test_dial(conn, (struct sockaddr *)&rr2r_svc.addr[link]);
	KUNIT_ASSERT_EQ(test, ret, 0);
	return conn;
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
 * V2-SEC-17, V2-FRAME-20/23, V2-ERR-01/05, E-29, V2-CONT-06: crafted
 * messages get exactly the required answer; a runt is dropped without
 * one; the transport's own client on the same server is undisturbed.
 */
static void rr2r_malformed_from_raw_qp(struct kunit *test)
{
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
	KUNIT_EXPECT_EQ(test, h.props.rbsiz, 4096);

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
	rr2r_raw_send(test, raw, msg, n + 16 + 8);
	n = rr2r_hdr(msg, 0x6666, RPCRDMA2_VERS_2, RDMA2_MSG, 0);
	rr2r_raw_send(test, raw, msg, n + 16 + 8);
	rr2r_raw_answer(test, raw, RPCRDMA2_VERS_2, &h);
	KUNIT_EXPECT_EQ(test, h.htype, RDMA2_ERROR);
	KUNIT_EXPECT_EQ(test, h.err, RDMA2_ERR_INVAL_CONT);

	/* and the well-behaved connection never noticed */
	rr2r_roundtrip(test, clnt, pages, 20000);
}

/* ---- suite setup: environments, service, listeners ---- */

static int rr2r_suite_init(struct kunit_suite *suite)
{
	int i, port;

	init_completion(&rr2r_svc.release);
	rr2r_svc.serv = svc_create(&rr2r_svc_program, RR2R_MAX + PAGE_SIZE,
				   rr2r_svc_thread);
	if (!rr2r_svc.serv)
		return -ENOMEM;
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

static struct kunit_case rr2r_cases[] = {
	KUNIT_CASE_PARAM(rr2r_v2_sizes_0_to_1m, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_v1_client_v2_server, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_v2_client_v1_server_falls_back,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_reconnect_v2, rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_reconnect_after_fallback_stays_v1,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_credit_exhaustion_async_grant,
			 rr2r_link_gen_params),
	KUNIT_CASE_PARAM(rr2r_malformed_from_raw_qp, rr2r_link_gen_params),
	{}
};

static struct kunit_suite rr2r_suite = {
	.name		= "rpcrdma2_rpc",
	.suite_init	= rr2r_suite_init,
	.suite_exit	= rr2r_suite_exit,
	.test_cases	= rr2r_cases,
};

kunit_test_suite(rr2r_suite);
