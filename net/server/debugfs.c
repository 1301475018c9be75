// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 server half: the per-connection view in debugfs.
 *
 * Each accepted connection has a directory
 * /sys/kernel/debug/rpcrdma2/server/<id>/ (<id> counts connections
 * from 1 since the module was loaded) with one file, "info": one
 * "name value" per line, what the connection settled and what it holds
 * (Documentation/admin-guide.rst lists the names).  A directory per
 * connection, not one file for all, so that a read never walks a list
 * of connections that nfsd may be freeing: each file reads one
 * connection and debugfs keeps that connection's teardown from passing
 * the read.
 *
 * Lifetime: rr2s_debugfs_add() runs once the connection is accepted;
 * rr2s_debugfs_del() runs first in rr2s_conn_free(), before anything of
 * the connection is freed.  debugfs_remove() waits for a read in
 * progress (the proxied file operations of debugfs_create_file()) and
 * makes later reads fail with -EIO, so a read sees the connection whole
 * or not at all.  Values are read without the connection's locks, as
 * its counters are kept, except the queue of Calls (rq_lock).
 *
 * Owns: the "server" directory under the module's debugfs root (made
 * by the module core, which removes it with the root at unload, when
 * no connection is left).  Called by: the module core, transport.c.
 */

#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/sunrpc/svc_xprt.h>
#include <net/net_namespace.h>

#include <rpcrdma2/wire.h>
#include "rpcrdma2.h"
#include "server/server.h"
#include "shared/nego.h"

static struct dentry *rr2s_dbg_dir;
static atomic_t rr2s_dbg_ids = ATOMIC_INIT(0);

/**
 * rpcrdma2_svc_debugfs_init - make the server's debugfs directory
 * @root: the module's debugfs directory
 */
void rpcrdma2_svc_debugfs_init(struct dentry *root)
{
	rr2s_dbg_dir = debugfs_create_dir("server", root);
}

static const char *rr2s_dbg_state(const struct rr2s_conn *c)
{
	const unsigned long *flags = &c->b.xprt.xpt_flags;

	if (test_bit(XPT_DEAD, flags))
		return "dead";
	if (test_bit(XPT_CLOSE, flags))
		return "closing";
	return rpcrdma2_link_state_name(&c->link);
}

static const char *rr2s_dbg_xch(const struct rr2s_conn *c)
{
	if (c->link.conn.xch.on)
		return "on";
	return c->link.conn.xch.refused ? "refused" : "off";
}

static u32 rr2s_dbg_queued(struct rr2s_conn *c)
{
	struct rr2s_msg *m;
	u32 n = 0;

	spin_lock(&c->rq_lock);
	list_for_each_entry(m, &c->ready, list)
		n++;
	spin_unlock(&c->rq_lock);
	return n;
}

static void rr2s_dbg_show_conn(struct seq_file *m, struct rr2s_conn *c)
{
	struct svc_xprt *xprt = &c->b.xprt;
	u32 vers = READ_ONCE(c->link.conn.vers);

	seq_printf(m, "peer %pISpc\n", &xprt->xpt_remote);
	seq_printf(m, "local %pISpc\n", &xprt->xpt_local);
	/* svc_xprt_free() drops the netns before ->xpo_free removes this */
	seq_printf(m, "netns %u\n", c->dbg_netns);
	seq_printf(m, "state %s\n", rr2s_dbg_state(c));
	seq_printf(m, "vers %u\n", vers);
	seq_printf(m, "inline %u/%u\n", READ_ONCE(c->link.conn.send_inline),
		   READ_ONCE(c->link.conn.recv_inline));
	/* the largest Call this end reassembles */
	seq_printf(m, "max_call %u\n", c->asm_max);
	seq_printf(m, "send_inv %d\n", c->snd_w_inv ? 1 : 0);
	seq_printf(m, "ord %u\n", c->ord);
	if (vers == RPCRDMA2_VERS_2) {
		seq_printf(m, "brs %s\n", rpcrdma2_rvrsdir_name(c->link.local.brs));
		seq_printf(m, "peer_brs %s\n", rr2s_bc_level(c));
	} else {
		seq_puts(m, "brs rfc8167\npeer_brs rfc8167\n");
	}
	seq_printf(m, "xch %s\n", rr2s_dbg_xch(c));
	seq_printf(m, "xch_sent %u\n", READ_ONCE(c->link.conn.xch.sent));
	seq_printf(m, "xch_received %u\n", READ_ONCE(c->link.conn.xch.received));
	/* octets of HOSTAUTH the client sent, 0 for none */
	seq_printf(m, "hostauth %u\n", READ_ONCE(c->link.conn.peer_hostauth_len));
}

static void rr2s_dbg_show_work(struct seq_file *m, struct rr2s_conn *c)
{
	/* the grant, its ceiling, and Calls not yet answered */
	seq_printf(m, "credits %u\n", READ_ONCE(c->grant));
	seq_printf(m, "credits_max %u\n", c->max_grant);
	seq_printf(m, "credits_in_use %d\n", atomic_read(&c->outstanding));
	seq_printf(m, "queued %u\n", rr2s_dbg_queued(c));
	seq_printf(m, "reassembling %d\n", READ_ONCE(c->asm_msg) ? 1 : 0);
	seq_printf(m, "rw_inflight %d\n", atomic_read(&c->rw_inflight));
	seq_printf(m, "read_chunks %llu\n", READ_ONCE(c->read_chunks));
	seq_printf(m, "write_chunks %llu\n", READ_ONCE(c->write_chunks));
	seq_printf(m, "reply_chunks %llu\n", READ_ONCE(c->reply_chunks));
	seq_printf(m, "rdma_octets %llu\n", READ_ONCE(c->rdma_octets));
	seq_printf(m, "inv_sends %llu\n", READ_ONCE(c->inv_sends));
	seq_printf(m, "bc_calls %llu\n", READ_ONCE(c->bc_calls));
}

static int rr2s_dbg_show(struct seq_file *m, void *unused)
{
	struct rr2s_conn *c = m->private;

	rr2s_dbg_show_conn(m, c);
	rr2s_dbg_show_work(m, c);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rr2s_dbg);

/**
 * rr2s_debugfs_add - show an accepted connection in debugfs
 * @c: the connection
 */
void rr2s_debugfs_add(struct rr2s_conn *c)
{
	char name[12];

	if (IS_ERR_OR_NULL(rr2s_dbg_dir))
		return;
	c->dbg_netns = c->b.xprt.xpt_net->ns.inum;
	snprintf(name, sizeof(name), "%u",
		 (u32)atomic_inc_return(&rr2s_dbg_ids));
	c->dbg = debugfs_create_dir(name, rr2s_dbg_dir);
	debugfs_create_file("info", 0400, c->dbg, c, &rr2s_dbg_fops);
}

/**
 * rr2s_debugfs_del - remove a connection's debugfs entry
 * @c: the connection, about to be freed
 *
 * Returns once no read of the entry is in progress.
 */
void rr2s_debugfs_del(struct rr2s_conn *c)
{
	debugfs_remove(c->dbg);
	c->dbg = NULL;
}
