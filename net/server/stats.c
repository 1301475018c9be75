// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 server half: operator knobs and counters.
 *
 * The table below is what /proc/sys/sunrpc/svc_rdma/ shows, under the
 * names and meanings of the stock svcrdma module, so that scripts and
 * habits written for it keep working:
 *
 *   max_requests                credits granted per connection
 *   max_req_size                octets per posted Receive (RBSIZ)
 *   max_outbound_read_requests  RDMA Reads in flight (ORD) we accept with
 *   rdma_stat_*                 the stock counters
 *
 * and rpcrdma2's own counters, rpcrdma2_*.  The knobs are
 * validated by proc_dointvec_minmax and read once per connection in
 * rr2s_conn_setup(), so a change applies to connections accepted after
 * it; a connection keeps its sizes for its life.
 *
 * Counters are per-CPU and global, as the stock ones are: incremented
 * without locks from any context (rr2s_stat_add()) and summed over the
 * CPUs when read.  Root resets one by writing to it, whatever is
 * written, as the stock svcrdma_counter_handler() does: every CPU's
 * share goes to 0 (an increment racing with the reset may survive it,
 * as with the stock percpu_counter_set()).  The five counters the stock
 * module keeps but never moves are the same in rpcrdma2: they read 0
 * and take a write of 0 only (proc_dointvec_minmax, range 0..0).
 *
 * Owns: the table and the values behind it.  Called by: the module
 * core (registration), the other server files (knobs, counters).
 */

#include <kunit/visibility.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/sysctl.h>

#include <rpcrdma2/wire.h>
#include "rpcrdma2.h"
#include "server/server.h"

DEFINE_PER_CPU(struct rr2s_stats, rr2s_stats);

/* The knobs, with the stock defaults and ranges where they apply. */
VISIBLE_IF_KUNIT int rr2s_max_requests = RR2S_CREDITS;
VISIBLE_IF_KUNIT int rr2s_max_req_size = RPCRDMA2_BUF_SIZE_DEF;
VISIBLE_IF_KUNIT int rr2s_max_ord = RR2S_ORD_DEFAULT;

static int rr2s_min_requests = RR2S_CREDITS_MIN;
static int rr2s_max_requests_max = RR2S_CREDITS_MAX;
static int rr2s_min_req_size = RR2S_RECV_SIZE_MIN;
static int rr2s_max_req_size_max = RR2S_RECV_SIZE_MAX;
static int rr2s_min_ord = RR2S_ORD_MIN;
static int rr2s_max_ord_max = RR2S_ORD_MAX;

/* The counters that never move, and their range */
static int rr2s_stat_unused;
static int rr2s_zero;

/* Credits a new connection offers at most (the device may cap it). */
u32 rr2s_knob_max_requests(void)
{
	return READ_ONCE(rr2s_max_requests);
}

/* Receive buffer size for a new connection, a multiple of 1024 (CMP-CMPD-11). */
u32 rr2s_knob_recv_size(void)
{
	return rounddown(READ_ONCE(rr2s_max_req_size), 1024);
}

/* RDMA Reads in flight a new connection asks for at most. */
u32 rr2s_knob_ord(void)
{
	return READ_ONCE(rr2s_max_ord);
}

static unsigned long rr2s_stat_sum(enum rr2s_stat stat)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu(rr2s_stats.v[stat], cpu));
	return sum;
}

static void rr2s_stat_reset(enum rr2s_stat stat)
{
	int cpu;

	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu(rr2s_stats.v[stat], cpu), 0);
}

/*
 * A counter: read, its sum over the CPUs in decimal; written, whatever
 * the value, reset to 0 (the stock svcrdma_counter_handler()).
 */
static int rr2s_stat_handler(const struct ctl_table *table, int write,
			     void *buffer, size_t *lenp, loff_t *ppos)
{
	enum rr2s_stat stat = (unsigned long)table->extra1;
	unsigned long val;
	struct ctl_table t = {
		.procname	= table->procname,
		.data		= &val,
		.maxlen		= sizeof(val),
		.mode		= 0444,
	};

	if (write) {
		rr2s_stat_reset(stat);
		return 0;
	}
	val = rr2s_stat_sum(stat);
	return proc_doulongvec_minmax(&t, 0, buffer, lenp, ppos);
}

/* A gauge, read-only: the cm_ids of closed connections parked now. */
static int rr2s_parked_handler(const struct ctl_table *table, int write,
			       void *buffer, size_t *lenp, loff_t *ppos)
{
	unsigned long val = rr2s_parked_count();
	struct ctl_table t = {
		.procname	= table->procname,
		.data		= &val,
		.maxlen		= sizeof(val),
		.mode		= 0444,
	};

	if (write)
		return -EPERM;
	return proc_doulongvec_minmax(&t, 0, buffer, lenp, ppos);
}

#define RR2S_KNOB(_name, _var, _min, _max)			\
	{							\
		.procname	= _name,			\
		.data		= &(_var),			\
		.maxlen		= sizeof(int),			\
		.mode		= 0644,				\
		.proc_handler	= proc_dointvec_minmax,		\
		.extra1		= &(_min),			\
		.extra2		= &(_max),			\
	}

#define RR2S_COUNTER(_name, _stat)				\
	{							\
		.procname	= _name,			\
		.mode		= 0644,				\
		.proc_handler	= rr2s_stat_handler,		\
		.extra1		= (void *)(unsigned long)(_stat), \
	}

#define RR2S_UNUSED(_name)					\
	RR2S_KNOB(_name, rr2s_stat_unused, rr2s_zero, rr2s_zero)

struct ctl_table rpcrdma2_svc_sysctl[] = {
	RR2S_KNOB("max_requests", rr2s_max_requests, rr2s_min_requests,
		  rr2s_max_requests_max),
	RR2S_KNOB("max_req_size", rr2s_max_req_size, rr2s_min_req_size,
		  rr2s_max_req_size_max),
	RR2S_KNOB("max_outbound_read_requests", rr2s_max_ord, rr2s_min_ord,
		  rr2s_max_ord_max),

	/* the stock counters */
	RR2S_COUNTER("rdma_stat_read", RR2S_STAT_READ),
	RR2S_COUNTER("rdma_stat_recv", RR2S_STAT_RECV),
	RR2S_COUNTER("rdma_stat_write", RR2S_STAT_WRITE),
	RR2S_COUNTER("rdma_stat_sq_starve", RR2S_STAT_SQ_STARVE),
	RR2S_UNUSED("rdma_stat_rq_starve"),
	RR2S_UNUSED("rdma_stat_rq_poll"),
	RR2S_UNUSED("rdma_stat_rq_prod"),
	RR2S_UNUSED("rdma_stat_sq_poll"),
	RR2S_UNUSED("rdma_stat_sq_prod"),

	/* rpcrdma2's own */
	RR2S_COUNTER("rpcrdma2_conns_accepted", RR2S_STAT_CONNS_ACCEPTED),
	RR2S_COUNTER("rpcrdma2_conns_v1", RR2S_STAT_CONNS_V1),
	RR2S_COUNTER("rpcrdma2_conns_v2", RR2S_STAT_CONNS_V2),
	RR2S_COUNTER("rpcrdma2_hostauth", RR2S_STAT_HOSTAUTH),
	RR2S_COUNTER("rpcrdma2_cont_recv", RR2S_STAT_CONT_RECV),
	RR2S_COUNTER("rpcrdma2_cont_sent", RR2S_STAT_CONT_SENT),
	RR2S_COUNTER("rpcrdma2_grants_sent", RR2S_STAT_GRANTS),
	RR2S_COUNTER("rpcrdma2_read_chunks", RR2S_STAT_READ_CHUNKS),
	RR2S_COUNTER("rpcrdma2_nomsg_calls", RR2S_STAT_NOMSG_CALLS),
	RR2S_COUNTER("rpcrdma2_write_chunks", RR2S_STAT_WRITE_CHUNKS),
	RR2S_COUNTER("rpcrdma2_reply_chunks", RR2S_STAT_REPLY_CHUNKS),
	RR2S_COUNTER("rpcrdma2_rdma_read_bytes", RR2S_STAT_READ_BYTES),
	RR2S_COUNTER("rpcrdma2_rdma_write_bytes", RR2S_STAT_WRITE_BYTES),
	RR2S_COUNTER("rpcrdma2_send_inv", RR2S_STAT_SEND_INV),
	RR2S_COUNTER("rpcrdma2_err_vers", RR2S_STAT_ERR_VERS),
	RR2S_COUNTER("rpcrdma2_err_bad_xdr", RR2S_STAT_ERR_BAD_XDR),
	RR2S_COUNTER("rpcrdma2_err_bad_propval", RR2S_STAT_ERR_BAD_PROPVAL),
	RR2S_COUNTER("rpcrdma2_err_inval_htype", RR2S_STAT_ERR_INVAL_HTYPE),
	RR2S_COUNTER("rpcrdma2_err_inval_cont", RR2S_STAT_ERR_INVAL_CONT),
	RR2S_COUNTER("rpcrdma2_err_read_chunks", RR2S_STAT_ERR_READ_CHUNKS),
	RR2S_COUNTER("rpcrdma2_err_write_chunks", RR2S_STAT_ERR_WRITE_CHUNKS),
	RR2S_COUNTER("rpcrdma2_err_segments", RR2S_STAT_ERR_SEGMENTS),
	RR2S_COUNTER("rpcrdma2_err_write_resource",
		     RR2S_STAT_ERR_WRITE_RESOURCE),
	RR2S_COUNTER("rpcrdma2_err_reply_resource",
		     RR2S_STAT_ERR_REPLY_RESOURCE),
	RR2S_COUNTER("rpcrdma2_err_system", RR2S_STAT_ERR_SYSTEM),
	RR2S_COUNTER("rpcrdma2_over_grant", RR2S_STAT_OVER_GRANT),
	{
		.procname	= "rpcrdma2_parked_ids",
		.mode		= 0444,
		.proc_handler	= rr2s_parked_handler,
	},
};

const size_t rpcrdma2_svc_sysctl_size = ARRAY_SIZE(rpcrdma2_svc_sysctl);

/* Count an error sent, by its Version 2 reason (RDMA2_ERR_*). */
void rr2s_stat_error(u32 verdict)
{
	static const u8 map[] = {
		[RDMA2_ERR_VERS]		= RR2S_STAT_ERR_VERS,
		[RDMA2_ERR_BAD_XDR]		= RR2S_STAT_ERR_BAD_XDR,
		[RDMA2_ERR_BAD_PROPVAL]		= RR2S_STAT_ERR_BAD_PROPVAL,
		[RDMA2_ERR_INVAL_HTYPE]		= RR2S_STAT_ERR_INVAL_HTYPE,
		[RDMA2_ERR_INVAL_CONT]		= RR2S_STAT_ERR_INVAL_CONT,
		[RDMA2_ERR_READ_CHUNKS]		= RR2S_STAT_ERR_READ_CHUNKS,
		[RDMA2_ERR_WRITE_CHUNKS]	= RR2S_STAT_ERR_WRITE_CHUNKS,
		[RDMA2_ERR_SEGMENTS]		= RR2S_STAT_ERR_SEGMENTS,
		[RDMA2_ERR_WRITE_RESOURCE]	= RR2S_STAT_ERR_WRITE_RESOURCE,
		[RDMA2_ERR_REPLY_RESOURCE]	= RR2S_STAT_ERR_REPLY_RESOURCE,
	};

	if (verdict < ARRAY_SIZE(map) && map[verdict])
		rr2s_stat_inc(map[verdict]);
	else
		rr2s_stat_inc(RR2S_STAT_ERR_SYSTEM);
}
