/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The shared fixture of the rpcrdma2 suites under real RPC: the test
 * RPC program and its service, the rpc_clnt on rpcrdma2, the cases'
 * parameters (tests/fixture.c), and the raw client peer
 * (tests/fixture_raw.c).  Test-only, built with
 * CONFIG_RPCRDMA2_KUNIT_TEST.
 */
#ifndef RPCRDMA2_TEST_FIXTURE_H
#define RPCRDMA2_TEST_FIXTURE_H

#include <kunit/test.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/svc.h>

#include "rpcrdma2.h"
#include "client/client.h"
#include "server/server.h"
#include "shared/codec.h"
#include "tests/env.h"
#include "tests/hooks.h"

#define RR2R_PROG	0x2000f0a1

#define RR2R_VERS	1

#define RR2R_MAX	(1024 * 1024)

#define RR2R_NPAGES	(RR2R_MAX >> PAGE_SHIFT)

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
/*
 * client-only, for clnt_wire_test.c's raw servers, which answer what the
 * case scripts: READ, GET's way without a seed, and WRITE, PUT's
 */
#define RR2R_READ	(RR2R_NPROCS + 2)
#define RR2R_WRITE	(RR2R_NPROCS + 3)
#define RR2R_CLNT_NPROCS (RR2R_NPROCS + 4)

/* the rsize and wsize of a default mount */
#define RR2W_BIG	(1024 * 1024)

/* READ: (length) -> (length, opaque data into pages, XDRBUF_READ) */
struct rr2w_read {
	struct page	**pages;
	u32		len;		/* asked for; then what came */
	bool		no_ddp;		/* not XDRBUF_READ: a Reply chunk */
};

/* WRITE: (length, opaque data from pages; XDRBUF_WRITE unless no_ddp) */
struct rr2w_write {
	struct page	**pages;
	u32		len;
	bool		no_ddp;		/* not marked DDP-eligible */
};

struct rr2r_service {
	struct svc_serv		*serv;
	struct sockaddr_storage	addr[RPCRDMA2_TEST_NR_LINKS];
	int			err[RPCRDMA2_TEST_NR_LINKS];
	struct completion	release;	/* HOLD returns */
	atomic_t		held;
};

struct rr2r_args {
	u32		seed;
	u32		len;
	struct page	**pages;
};

struct rr2r_res {
	u32		ok;
	u32		len;
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

struct rr2r_mr {
	struct ib_device	*dev;
	struct ib_mr		*mr;
	struct page		**pages;
	struct scatterlist	*sgl;
	u32			npages;
	int			nents;
};

enum {
	RR2R_C_READ, RR2R_C_RECV, RR2R_C_WRITE, RR2R_C_READ_CHUNKS,
	RR2R_C_WRITE_CHUNKS, RR2R_C_READ_BYTES, RR2R_C_WRITE_BYTES,
	RR2R_C_SEND_INV, RR2R_C_V1, RR2R_C_V2, RR2R_C_BAD_XDR,
	RR2R_C_RQ_POLL, RR2R_C_NOMSG, RR2R_C_ACCEPTED, RR2R_NR_C
};

/* fixture.c */
extern struct rr2r_service rr2r_svc;
extern struct rpcrdma2_test_env rr2r_envs[RPCRDMA2_TEST_NR_LINKS];
u8 rr2r_byte(u32 seed, u32 i);
void rr2r_enc_void(struct rpc_rqst *req, struct xdr_stream *xdr,
		   const void *data);
int rr2r_dec_void(struct rpc_rqst *req, struct xdr_stream *xdr,
		  void *data);
extern const struct rpc_procinfo rr2r_clnt_procs[RR2R_CLNT_NPROCS];
extern const struct rpc_program rr2r_clnt_program;
extern const struct rpc_timeout rr2r_timeout;
extern const struct rr2r_param rr2r_links[2];
extern const struct rr2r_param rr2r_clamped[6];
void rr2r_link_desc(const struct rr2r_param *p, char *desc);
enum rpcrdma2_test_link rr2r_link_of(struct kunit *test);
void rr2r_caps(u32 clnt, u32 svc);
void rr2r_clnt_cleanup(void *data);
struct rpc_clnt *rr2r_clnt(struct kunit *test);
struct rpc_xprt *rr2r_xprt(struct rpc_clnt *clnt);
struct rpc_clnt *rr2r_start(struct kunit *test, u32 clnt_vers, u32 svc_vers,
			    struct rpc_xprt **xprt);
void rr2r_expect_pool_full(struct kunit *test, struct rpc_xprt *xprt);
struct page **rr2r_pages_n(struct kunit *test, u32 n);
struct page **rr2r_pages(struct kunit *test);
void rr2r_fill(struct page **pages, u32 len, u32 seed);
bool rr2r_verify(struct page **pages, u32 len, u32 seed);
int rr2r_put_proc(struct rpc_clnt *clnt, u32 proc, struct page **pages,
		  u32 len, u32 seed, struct rr2r_res *res);
int rr2r_put(struct rpc_clnt *clnt, struct page **pages, u32 len,
	     u32 seed, struct rr2r_res *res);
int rr2r_get(struct rpc_clnt *clnt, struct page **pages, u32 len,
	     u32 seed, struct rr2r_res *res);
void rr2r_roundtrip(struct kunit *test, struct rpc_clnt *clnt,
		    struct page **pages, u32 len);
void rr2r_sparse(struct kunit *test, u32 vers, u32 len);
int rr2r_suite_init(struct kunit_suite *suite);
void rr2r_suite_exit(struct kunit_suite *suite);
/* fixture_raw.c */
void rr2r_raw_cleanup(void *data);
struct rpcrdma2_test_conn *rr2r_raw_pdata(struct kunit *test, u32 nr_recv,
					  enum rpcrdma2_test_pdata pdata);
struct rpcrdma2_test_conn *rr2r_raw_n(struct kunit *test, u32 nr_recv);
struct rpcrdma2_test_conn *rr2r_raw(struct kunit *test);
void rr2r_raw_send(struct kunit *test, struct rpcrdma2_test_conn *c,
		   const void *msg, u32 len);
u32 rr2r_hdr(u8 *b, u32 xid, u32 vers, u32 htype, u32 flags);
u32 rr2r_rpc_call(u8 *p, u32 xid, u32 prog, u32 proc);
u32 rr2r_rpc_reply(u8 *p, u32 xid, u32 stat);
u32 rr2r_msg2(u8 *b, u32 xid, u32 flags);
u32 rr2r_msg1(u8 *b, u32 xid);
u32 rr2r_take(struct kunit *test, struct rpcrdma2_test_ep *ep,
	      u32 vers, struct rpcrdma2_hdr *h, u8 *pl);
void rr2r_raw_settle_v2(struct kunit *test, struct rpcrdma2_test_conn *c,
			u32 brs, struct rpcrdma2_hdr *h);
struct rpcrdma2_test_conn *rr2r_raw_start(struct kunit *test, u32 nr_recv,
					  u32 brs, struct rpcrdma2_hdr *h);
struct rr2r_mr *rr2r_mr(struct kunit *test,
			struct rpcrdma2_test_conn *raw, u32 len);
extern const struct rpcrdma2_limits rr2r_reply_lim;
struct rpcrdma2_segment rr2r_seg(const struct rr2r_mr *m, u32 off,
				 u32 len);
u8 *rr2r_mr_at(struct rr2r_mr *m, u32 off);
void rr2r_mr_put(struct rr2r_mr *m, u32 off, const u8 *src, u32 len);
bool rr2r_mr_verify(struct rr2r_mr *m, u32 off, u32 len, u32 seed);
u32 rr2r_chunk_call(u8 *b, u32 vers, u32 xid, bool nomsg, u32 inv,
		    const struct rpcrdma2_chunk_out *reads, u32 nr,
		    const struct rpcrdma2_chunk_out *writes, u32 nw,
		    const struct rpcrdma2_chunk_out *reply);
u32 rr2r_args(u8 *p, u32 seed, u32 len);
struct rpcrdma2_test_conn *rr2r_raw_vers(struct kunit *test, u32 vers);
void rr2r_svc_xprt_put(void *data);
struct ctl_table *rr2r_sysctl(struct kunit *test, const char *name);
int rr2r_sysctl_write(struct kunit *test, const char *name,
		      const char *val);
unsigned long rr2r_sysctl_read(struct kunit *test, const char *name);
void rr2r_knobs_reset(void *data);
void rr2r_clnt_knobs_reset(void *data);
struct rr2s_conn *rr2r_svc_conn_from(struct kunit *test,
				     struct sockaddr *sa);
struct rr2s_conn *rr2r_svc_conn(struct kunit *test,
				struct rpcrdma2_test_conn *raw);
u32 rr2r_null_grant(struct kunit *test,
		    struct rpcrdma2_test_conn *raw, u32 xid);
bool rr2r_posted_settles(struct rpcrdma2_ep *ep, u32 want);
void rr2r_send_faults_off(void *data);
extern const char * const rr2r_counters[RR2R_NR_C];
void rr2r_counters_read(struct kunit *test, unsigned long *v);
void rr2r_release_holders(void *data);
void rr2r_hold_calls(struct kunit *test);
void rr2r_expect_null_reply_next(struct kunit *test,
				 struct rpcrdma2_test_conn *raw,
				 u8 *msg, u32 xid);

#endif /* RPCRDMA2_TEST_FIXTURE_H */
