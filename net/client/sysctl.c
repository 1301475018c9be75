// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 client half: operator knobs.
 *
 * The table below is what the stock xprtrdma module puts in
 * /proc/sys/sunrpc/, under the same names, defaults and ranges, so that
 * sysctl.d settings written for it keep working:
 *
 *   rdma_slot_table_entries  RPC slots of a new transport (mount); the
 *                            credits a new connection asks for, at most
 *                            its transport's slots and what the device
 *                            holds
 *   rdma_max_inline_read     octets per posted Receive of a new
 *                            connection: the Receive Size of its RFC 8797
 *                            record and its Version 2 RBSIZ
 *   rdma_max_inline_write    octets per Send buffer: the record's Send
 *                            Size and SBSIZ
 *
 * The knobs are validated by proc_dointvec_minmax and read once per
 * connection in rr2c_connect() (the slot count once per transport, in
 * rpcrdma2_clnt_setup()): a change applies to connections made after
 * it, and a live connection keeps its sizes and credits for its life.
 *
 * The stock module's rdma_memreg_strategy, rdma_pad_optimize and
 * rdma_inline_write_padding are not provided: in 6.12 it accepts them
 * and ignores them, and rpcrdma2 has only one registration method
 * (FRWR) and never pads.
 *
 * Owns: the table and the values behind it.  Called by: the module
 * core (registration), transport.c and connect.c (the knobs).
 */

#include <kunit/visibility.h>
#include <linux/kernel.h>
#include <linux/sysctl.h>
#include <linux/sunrpc/xprtrdma.h>

#include <rpcrdma2/wire.h>
#include "rpcrdma2.h"
#include "client/client.h"

VISIBLE_IF_KUNIT int rr2c_slot_table_entries = RR2C_SLOTS;
VISIBLE_IF_KUNIT int rr2c_max_inline_read = RPCRDMA2_BUF_SIZE_DEF;
VISIBLE_IF_KUNIT int rr2c_max_inline_write = RPCRDMA2_BUF_SIZE_DEF;

static int rr2c_min_slots = RPCRDMA_MIN_SLOT_TABLE;
static int rr2c_max_slots = RPCRDMA_MAX_SLOT_TABLE;
static int rr2c_min_inline = RPCRDMA_MIN_INLINE;
static int rr2c_max_inline = RPCRDMA_MAX_INLINE;

/* RPC slots for a new transport. */
u32 rr2c_knob_slots(void)
{
	return READ_ONCE(rr2c_slot_table_entries);
}

/*
 * Receive and Send buffer sizes for a new connection: multiples of 1024,
 * as the RFC 8797 record encodes them (CMP-CMPD-11), so that what
 * is advertised is what is posted.
 */
u32 rr2c_knob_recv_size(void)
{
	return rounddown(READ_ONCE(rr2c_max_inline_read), 1024);
}

u32 rr2c_knob_send_size(void)
{
	return rounddown(READ_ONCE(rr2c_max_inline_write), 1024);
}

#define RR2C_KNOB(_name, _var, _min, _max)			\
	{							\
		.procname	= _name,			\
		.data		= &(_var),			\
		.maxlen		= sizeof(int),			\
		.mode		= 0644,				\
		.proc_handler	= proc_dointvec_minmax,		\
		.extra1		= &(_min),			\
		.extra2		= &(_max),			\
	}

struct ctl_table rpcrdma2_clnt_sysctl[] = {
	RR2C_KNOB("rdma_slot_table_entries", rr2c_slot_table_entries,
		  rr2c_min_slots, rr2c_max_slots),
	RR2C_KNOB("rdma_max_inline_read", rr2c_max_inline_read,
		  rr2c_min_inline, rr2c_max_inline),
	RR2C_KNOB("rdma_max_inline_write", rr2c_max_inline_write,
		  rr2c_min_inline, rr2c_max_inline),
};

const size_t rpcrdma2_clnt_sysctl_size = ARRAY_SIZE(rpcrdma2_clnt_sysctl);
