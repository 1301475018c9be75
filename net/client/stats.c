// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 client half: what a transport shows an operator.
 *
 * /proc/self/mountstats has one "xprt: rdma" line per transport, in
 * exactly the shape of the stock rpcrdma module (6.12's
 * xprt_rdma_print_stats()): the word "rdma", 27 unsigned integers and
 * the end of the line, because mountstats(8), nfsiostat(8) and
 * exporters such as node_exporter parse it by position and refuse a
 * line with more fields.  Each column means what it means there:
 *
 *    1-10  sunrpc's generic ten (local port, always 0; binds; connects;
 *          connect time; idle seconds; Sends; Receives; bad XIDs;
 *          request queue and backlog sums)
 *   11-13  Calls with a Read chunk, a Write chunk, a Reply chunk
 *   14-15  octets registered for the server to read; octets it wrote
 *          into Write and Reply chunks
 *      16  pull-up octets: Call octets past the head copied into Sends
 *      17  fix-up octets: Reply octets copied around a chunk
 *      18  hardway registrations: 0, rpcrdma2 registers no buffer on
 *          the fly (Calls are copied into the endpoint's Send buffers)
 *      19  Calls that could not be marshaled
 *      20  bad Replies: undecodable, RDMA_ERROR, impossible chunks
 *      21  Special Format Calls
 *      22  MRs recycled: taken out of service after a failed WR
 *      23  MRs orphaned: still mapped or registered when the connection
 *          went, released by deregistration instead of invalidation
 *      24  MRs allocated, a running total over the transport's life
 *      25  LOCAL_INVs needed: MRs the server did not invalidate
 *      26  empty Send queue: a Call waited for a Send buffer or window
 *      27  Replies that waited for their Send: 0, a Call is copied into
 *          its Send buffer, so its Reply never waits for that Send
 *
 * rpcrdma2's own figures go to a file of sunrpc's per-transport debugfs
 * directory, /sys/kernel/debug/sunrpc/rpc_xprt/<id>/rpcrdma2, one
 * "name value" per line (Documentation/admin-guide.rst lists them);
 * sunrpc has that directory with CONFIG_SUNRPC_DEBUG (Debian's kernels).
 * sunrpc makes that directory after ->setup returns, so the file is
 * added from the first connect, by the connect worker, which holds the
 * transport's XPRT_LOCKED.  xprt_destroy() takes XPRT_LOCKED before it
 * queues xprt_destroy_cb(), which removes the directory, and the file
 * with it, before ->destroy frees the transport: the file is made
 * before that removal or not at all, and debugfs's removal waits for
 * a read in progress, so a read never sees a freed transport.  Values
 * are read without locks, as the counters are kept: a read racing with
 * a reconnect may show a mix of two connections' settings.
 *
 * Owns: nothing.  Called by: sunrpc (->print_stats, debugfs reads),
 * connect.c (rr2c_debugfs_add()).
 */

#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/sunrpc/xprt.h>

#include "rpcrdma2.h"
#include "client/client.h"

void rr2c_op_print_stats(struct rpc_xprt *xprt, struct seq_file *seq)
{
	struct rr2c *r = rr2c(xprt);
	struct rr2c_stats *st = &r->stats;
	long idle = 0;

	if (xprt_connected(xprt))
		idle = (long)(jiffies - xprt->last_used) / HZ;
	seq_printf(seq, "\txprt:\trdma %u %lu %lu %lu %ld %lu %lu %lu %llu %llu ",
		   0, xprt->stat.bind_count, xprt->stat.connect_count,
		   xprt->stat.connect_time / HZ, idle, xprt->stat.sends,
		   xprt->stat.recvs, xprt->stat.bad_xids, xprt->stat.req_u,
		   xprt->stat.bklog_u);
	seq_printf(seq, "%llu %llu %llu %llu %llu %llu %llu %u %llu %llu %llu ",
		   st->read_chunks, st->write_chunks, st->reply_chunks,
		   st->rdma_call_octets, st->rdma_reply_octets,
		   st->pullup_octets, st->fixup_octets, 0, st->too_big,
		   st->bad_hdrs + st->errors + st->bad_chunks,
		   st->nomsg_calls);
	seq_printf(seq, "%llu %llu %llu %llu %llu %u\n",
		   st->mrs_recovered, st->mrs_orphaned, st->mrs_allocated,
		   st->mrs_local_inv, st->write_waits, 0);
}

#if IS_ENABLED(CONFIG_SUNRPC_DEBUG)
static const char *rr2c_fallback_name(enum rr2c_fallback fb)
{
	switch (fb) {
	case RR2C_FB_LOST:
		return "lost";
	case RR2C_FB_SERVER:
		return "server";
	case RR2C_FB_NO_VERS:
		return "noversion";
	default:
		return "none";
	}
}

static const char *rr2c_xch_name(const struct rr2c *r)
{
	if (r->link.conn.xch.on)
		return "on";
	return r->link.conn.xch.refused ? "refused" : "off";
}

static void rr2c_show_conn(struct seq_file *m, struct rr2c *r)
{
	struct rpc_xprt *xprt = &r->xprt;

	seq_printf(m, "peer %s\n", xprt->address_strings[RPC_DISPLAY_ADDR]);
	seq_printf(m, "connected %d\n", xprt_connected(xprt) ? 1 : 0);
	seq_printf(m, "state %s\n", rpcrdma2_link_state_name(&r->link));
	seq_printf(m, "vers %u\n", READ_ONCE(r->link.conn.vers));
	seq_printf(m, "inline %u/%u\n", READ_ONCE(r->link.conn.send_inline),
		   READ_ONCE(r->link.conn.recv_inline));
	seq_printf(m, "max_payload %zu\n", READ_ONCE(xprt->max_payload));
	/* asked for; granted by the server (the window); in use now */
	seq_printf(m, "credits %u\n", READ_ONCE(r->credits));
	seq_printf(m, "credits_granted %lu\n",
		   READ_ONCE(xprt->cwnd) >> RPC_CWNDSHIFT);
	seq_printf(m, "credits_in_use %lu\n",
		   READ_ONCE(xprt->cong) >> RPC_CWNDSHIFT);
	/* Receives made: one per credit granted, and the extra ones */
	seq_printf(m, "receives %u\n", READ_ONCE(r->link.ep.nr_recv_made));
	seq_printf(m, "slots %u\n", r->nr_slots);
	/* the seed 004 exchange on this connection (xchar=1) */
	seq_printf(m, "xch %s\n", rr2c_xch_name(r));
	seq_printf(m, "xch_sent %u\n", READ_ONCE(r->link.conn.xch.sent));
	seq_printf(m, "xch_received %u\n", READ_ONCE(r->link.conn.xch.received));
	/*
	 * Reverse direction: the level this end takes reverse Calls at
	 * and the one the server takes reverse Replies at (BRS, V2-RDIR-10);
	 * Version 1 has RFC 8167's, inline only
	 */
	if (READ_ONCE(r->link.conn.vers) == RPCRDMA2_VERS_2) {
		seq_printf(m, "brs %s\n", rpcrdma2_rvrsdir_name(r->link.local.brs));
		seq_printf(m, "peer_brs %s\n",
			   rpcrdma2_rvrsdir_name(r->link.conn.peer_props.brs));
	} else {
		seq_puts(m, "brs rfc8167\npeer_brs rfc8167\n");
	}
	/* octets of HOSTAUTH the server sent (V2-PROP-09), 0 for none */
	seq_printf(m, "hostauth %u\n", READ_ONCE(r->link.conn.peer_hostauth_len));
	/* why this transport offers less than rdmavers (V2-FRAME-19) */
	seq_printf(m, "fallback %s\n", rr2c_fallback_name(r->fallback));
	seq_printf(m, "v2_lost %u\n", READ_ONCE(r->v2_lost));
}

static void rr2c_show_counters(struct seq_file *m, struct rr2c *r)
{
	const struct rr2c_stats *st = &r->stats;
	const struct {
		const char	*name;
		u64		val;
	} c[] = {
		{ "sends", st->sends },
		{ "continued", st->cont_msgs },
		{ "recvs", r->link.recvs },
		{ "grants", st->grants },
		{ "errors", st->errors },
		{ "bad_hdrs", st->bad_hdrs },
		{ "bad_xids", st->bad_xids },
		{ "hellos", st->hellos },
		{ "bc_calls", st->bc_calls },
		{ "bc_dropped", st->bc_dropped },
		{ "aborted", st->aborted_seqs },
		{ "errors_sent", st->errors_sent },
		{ "too_big", st->too_big },
		{ "write_waits", st->write_waits },
		{ "stage_busy", st->stage_busy },
		{ "read_chunks", st->read_chunks },
		{ "write_chunks", st->write_chunks },
		{ "reply_chunks", st->reply_chunks },
		{ "nomsg_calls", st->nomsg_calls },
		{ "rdma_call_octets", st->rdma_call_octets },
		{ "rdma_reply_octets", st->rdma_reply_octets },
		{ "pullup_octets", st->pullup_octets },
		{ "fixup_octets", st->fixup_octets },
		{ "bad_chunks", st->bad_chunks },
		{ "mrs_allocated", st->mrs_allocated },
		{ "mrs_registered", st->mrs_registered },
		{ "mrs_remote_inv", st->mrs_remote_inv },
		{ "mrs_local_inv", st->mrs_local_inv },
		{ "mrs_recovered", st->mrs_recovered },
		{ "mrs_orphaned", st->mrs_orphaned },
		{ "mr_waits", st->mr_waits },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c); i++)
		seq_printf(m, "%s %llu\n", c[i].name, c[i].val);
	/* the MR pool of the current connection */
	seq_printf(m, "mrs %u\n", READ_ONCE(r->frwr.nr));
	seq_printf(m, "mrs_free %u\n", READ_ONCE(r->frwr.nfree));
	seq_printf(m, "mrs_peak %u\n", READ_ONCE(r->frwr.peak));
	seq_printf(m, "mrs_cap %u\n", READ_ONCE(r->frwr.cap));
}

static int rr2c_dbg_show(struct seq_file *m, void *unused)
{
	struct rr2c *r = m->private;

	rr2c_show_conn(m, r);
	rr2c_show_counters(m, r);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rr2c_dbg);

/**
 * rr2c_debugfs_add - add the transport's "rpcrdma2" debugfs file
 * @r: the transport; the caller holds its XPRT_LOCKED
 *
 * Once per transport; sunrpc removes the file with its directory.
 * A kernel without CONFIG_SUNRPC_DEBUG has no such directory, and
 * the transport no file.
 */
void rr2c_debugfs_add(struct rr2c *r)
{
	struct dentry *dir = r->xprt.debugfs;

	if (r->dbg_added || IS_ERR_OR_NULL(dir))
		return;
	r->dbg_added = true;
	debugfs_create_file("rpcrdma2", 0400, dir, r, &rr2c_dbg_fops);
}
#else
void rr2c_debugfs_add(struct rr2c *r)
{
}
#endif
