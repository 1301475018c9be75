// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpcrdma2 module parameters: rdmavers, xchar, rvrsdir and hostauth
 * (Documentation/admin-guide.rst), and what each half reads of them.
 *
 * Both halves read the parameters here; the module core (net/module.c)
 * registers the halves and never the other way round, so the call graph
 * has no loop through it.  Each accessor takes the role asking, so that
 * KUnit can cap or set one half without the other (the test hooks at the
 * end).
 *
 * Called by: net/client, net/server, net/module.c.  Calls: nothing of
 * rpcrdma2.
 */

#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include <rpcrdma2/wire.h>
#include "rpcrdma2.h"
#include "shared/nego.h"

static unsigned int rpcrdma2_rdmavers = RPCRDMA2_VERS_2;

/* An unsigned int parameter that takes only [@min, @max]. */
static int rpcrdma2_param_set_range(const char *val,
				    const struct kernel_param *kp,
				    unsigned int min, unsigned int max)
{
	unsigned int n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	if (n < min || n > max)
		return -EINVAL;
	WRITE_ONCE(*(unsigned int *)kp->arg, n);
	return 0;
}

static int rpcrdma2_set_rdmavers(const char *val, const struct kernel_param *kp)
{
	return rpcrdma2_param_set_range(val, kp, RPCRDMA2_VERS_1,
					RPCRDMA2_VERS_2);
}

static const struct kernel_param_ops rpcrdma2_rdmavers_ops = {
	.set	= rpcrdma2_set_rdmavers,
	.get	= param_get_uint,
};

module_param_cb(rdmavers, &rpcrdma2_rdmavers_ops, &rpcrdma2_rdmavers, 0644);
MODULE_PARM_DESC(rdmavers,
		 "Highest RPC-over-RDMA version offered and accepted on new connections (1 or 2, default 2)");

/*
 * The seed 004 characteristics exchange (net/shared/xch.c): off by
 * default, read once per connection when it settles Version 2.
 */
VISIBLE_IF_KUNIT bool rpcrdma2_xchar;
module_param_named(xchar, rpcrdma2_xchar, bool, 0644);
MODULE_PARM_DESC(xchar,
		 "Run the experimental seed 004 transport-characteristics exchange on new Version 2 connections (0 or 1, default 0)");

/*
 * The BRS level each half advertises on Version 2 (V2-RDIR-10, V2-RDIR-12):
 * CONT, since both halves reassemble continued reverse-direction
 * messages; neither does reverse-direction chunks (V2-RDIR-13).
 */
static unsigned int rpcrdma2_rvrsdir = RDMA2_RVRSDIR_CONT;

static int rpcrdma2_set_rvrsdir(const char *val, const struct kernel_param *kp)
{
	return rpcrdma2_param_set_range(val, kp, RDMA2_RVRSDIR_NONE,
					RDMA2_RVRSDIR_CONT);
}

static const struct kernel_param_ops rpcrdma2_rvrsdir_ops = {
	.set	= rpcrdma2_set_rvrsdir,
	.get	= param_get_uint,
};

module_param_cb(rvrsdir, &rpcrdma2_rvrsdir_ops, &rpcrdma2_rvrsdir, 0644);
MODULE_PARM_DESC(rvrsdir,
		 "Reverse-direction (callback) level advertised on new Version 2 connections: 0 none, 1 simple, 2 continued (default 2)");

/*
 * Per role, a limit below the parameters: rdmavers, rvrsdir, xchar.
 * Both stay at their defaults (no limit) except under KUnit, which runs
 * both halves in one kernel and sets each on its own (tests/hooks.c).
 */
VISIBLE_IF_KUNIT unsigned int rpcrdma2_role_vers[2] = {
	RPCRDMA2_VERS_2, RPCRDMA2_VERS_2
};

VISIBLE_IF_KUNIT unsigned int rpcrdma2_role_rvrsdir[2] = {
	RDMA2_RVRSDIR_CONT, RDMA2_RVRSDIR_CONT
};

VISIBLE_IF_KUNIT bool rpcrdma2_role_xchar_off[2];

/**
 * rpcrdma2_rvrsdir_level - BRS to advertise on a new connection
 * @role: the client or the server half
 *
 * The client's level governs the reverse Calls it is sent, the
 * server's the reverse Replies (V2-RDIR-10).  Read once per connection.
 */
u32 rpcrdma2_rvrsdir_level(enum rpcrdma2_role role)
{
	u32 level = READ_ONCE(rpcrdma2_rvrsdir);

	return min(level, READ_ONCE(rpcrdma2_role_rvrsdir[role]));
}

/*
 * HOSTAUTH material to send (V2-PROP-09): opaque to the protocol, text
 * here.  Root-only to read, though it crosses the fabric in the clear.
 */
VISIBLE_IF_KUNIT char rpcrdma2_hostauth[RPCRDMA2_HOSTAUTH_MAX + 1];
module_param_string(hostauth, rpcrdma2_hostauth, sizeof(rpcrdma2_hostauth),
		    0600);
MODULE_PARM_DESC(hostauth,
		 "Host authentication material sent as the HOSTAUTH property on new Version 2 connections (up to 256 characters, sent as they are; default none). rpcrdma2 does not check what peers send");

/**
 * rpcrdma2_hostauth_get - the HOSTAUTH material for a new connection
 * @buf: RPCRDMA2_HOSTAUTH_MAX octets
 *
 * Returns its length, 0 for none.  A newline that ends it (echo) is
 * not part of it.
 */
u32 rpcrdma2_hostauth_get(u8 *buf)
{
	u32 len;

	kernel_param_lock(THIS_MODULE);
	len = strnlen(rpcrdma2_hostauth, RPCRDMA2_HOSTAUTH_MAX);
	if (len && rpcrdma2_hostauth[len - 1] == '\n')
		len--;
	memcpy(buf, rpcrdma2_hostauth, len);
	kernel_param_unlock(THIS_MODULE);
	return len;
}

/**
 * rpcrdma2_xchar_enabled - may new connections run the exchange?
 * @role: the client or the server half
 *
 * Read once per connection; a change applies to connections settled
 * after it.
 */
bool rpcrdma2_xchar_enabled(enum rpcrdma2_role role)
{
	bool on = READ_ONCE(rpcrdma2_xchar);

	return on && !READ_ONCE(rpcrdma2_role_xchar_off[role]);
}

/**
 * rpcrdma2_max_version - highest protocol version new connections may use
 * @role: the client or the server half
 *
 * Read once per connection; a change applies to connections made after it.
 */
unsigned int rpcrdma2_max_version(enum rpcrdma2_role role)
{
	unsigned int vers = READ_ONCE(rpcrdma2_rdmavers);

	return min(vers, READ_ONCE(rpcrdma2_role_vers[role]));
}
