// SPDX-License-Identifier: GPL-2.0-only
/*
 * The KUnit suites' handles on the module, built only with them.
 *
 * The production files keep what a case must set or read
 * VISIBLE_IF_KUNIT (static in a kernel without KUnit) and have no test
 * code of their own; what a case does to them is here.  Faults a case
 * needs (a Send that cannot be posted, a port that reads as down, a
 * Call that finds no room) are sites of shared/fault.c, armed here.
 *
 * Called by: the KUnit suites.
 */

#include <linux/moduleparam.h>
#include <linux/ratelimit.h>
#include <linux/string.h>
#include <linux/sunrpc/xprt.h>

#include <rpcrdma2/wire.h>
#include "rpcrdma2.h"
#include "client/client.h"
#include "server/server.h"
#include "shared/dev.h"
#include "shared/fault.h"
#include "shared/log.h"
#include "shared/nego.h"
#include "tests/hooks.h"

/* ---- the module parameters ---- */

/* One role's cap below rdmavers. */
void rpcrdma2_test_cap_version(enum rpcrdma2_role role, unsigned int vers)
{
	WRITE_ONCE(rpcrdma2_role_vers[role], vers);
}

/* The xchar parameter, per role. */
void rpcrdma2_test_set_xchar(bool clnt, bool svc)
{
	WRITE_ONCE(rpcrdma2_role_xchar_off[RPCRDMA2_CLIENT], !clnt);
	WRITE_ONCE(rpcrdma2_role_xchar_off[RPCRDMA2_SERVER], !svc);
	WRITE_ONCE(rpcrdma2_xchar, clnt || svc);
}

/* The rvrsdir parameter, per role. */
void rpcrdma2_test_set_rvrsdir(u32 clnt, u32 svc)
{
	WRITE_ONCE(rpcrdma2_role_rvrsdir[RPCRDMA2_CLIENT], clnt);
	WRITE_ONCE(rpcrdma2_role_rvrsdir[RPCRDMA2_SERVER], svc);
}

/* Set hostauth as "echo @val > .../parameters/hostauth" would. */
void rpcrdma2_test_set_hostauth(const char *val)
{
	kernel_param_lock(THIS_MODULE);
	strscpy(rpcrdma2_hostauth, val, RPCRDMA2_HOSTAUTH_MAX + 1);
	kernel_param_unlock(THIS_MODULE);
}

/* A devclamp profile for the connections made from now on. */
void rpcrdma2_test_set_devclamp(enum rpcrdma2_devclamp p)
{
	WRITE_ONCE(rpcrdma2_devclamp, p);
}

enum rpcrdma2_devclamp rpcrdma2_test_devclamp(void)
{
	return READ_ONCE(rpcrdma2_devclamp);
}

const char *rpcrdma2_test_devclamp_name(enum rpcrdma2_devclamp p)
{
	return p < RPCRDMA2_DEVCLAMP_NR ? rpcrdma2_devclamp_names[p] : "?";
}

/* Forget every line printed and refill the rate limit. */
void rpcrdma2_log_test_reset(void)
{
	u32 i;

	for (i = 0; i < RPCRDMA2_LOG_SLOTS; i++)
		WRITE_ONCE(rpcrdma2_log_seen[i], 0);
	ratelimit_state_init(&rpcrdma2_log_rs, DEFAULT_RATELIMIT_INTERVAL,
			     DEFAULT_RATELIMIT_BURST);
}

/* The client's sysctl knobs back to their defaults. */
void rr2c_knobs_reset(void)
{
	WRITE_ONCE(rr2c_slot_table_entries, RR2C_SLOTS);
	WRITE_ONCE(rr2c_max_inline_read, RPCRDMA2_BUF_SIZE_DEF);
	WRITE_ONCE(rr2c_max_inline_write, RPCRDMA2_BUF_SIZE_DEF);
}

/* The server's sysctl knobs back to their defaults. */
void rr2s_knobs_reset(void)
{
	WRITE_ONCE(rr2s_max_requests, RR2S_CREDITS);
	WRITE_ONCE(rr2s_max_req_size, RPCRDMA2_BUF_SIZE_DEF);
	WRITE_ONCE(rr2s_max_ord, RR2S_ORD_DEFAULT);
}

/* ---- a client transport ---- */

u32 rpcrdma2_clnt_test_version(struct rpc_xprt *xprt)
{
	return rr2c(xprt)->link.conn.vers;
}

u32 rpcrdma2_clnt_test_grant(struct rpc_xprt *xprt)
{
	return READ_ONCE(xprt->cwnd) >> RPC_CWNDSHIFT;
}

u64 rpcrdma2_clnt_test_hellos(struct rpc_xprt *xprt)
{
	return rr2c(xprt)->stats.hellos;
}

/*
 * Stall before Send @msgno (1-based), as if room never came back: the
 * send-stall site lets @msgno - 1 Sends through, counted over every
 * client transport from now on (inline and continued messages; a Call
 * with chunks does not reach it), so the case sends nothing else
 * meanwhile.  0: room is back, the stalled task goes on at its next
 * try.
 */
void rpcrdma2_clnt_test_stall(struct rpc_xprt *xprt, u32 msgno)
{
	if (msgno)
		rpcrdma2_fail_after(RPCRDMA2_FAIL_SEND_STALL, msgno - 1);
	else
		rpcrdma2_fail_set(RPCRDMA2_FAIL_SEND_STALL, 0, 1, 0);
}

/* Sends made of the Call being sent, 0 when none is. */
u32 rpcrdma2_clnt_test_tx_msgno(struct rpc_xprt *xprt)
{
	struct rr2c *r = rr2c(xprt);
	u32 n;

	spin_lock(&r->link.tx_lock);
	n = r->tx_req ? r->tx.msgno : 0;
	spin_unlock(&r->link.tx_lock);
	return n;
}

void rpcrdma2_clnt_test_set_grant(struct rpc_xprt *xprt, u32 grant)
{
	rr2c_set_grant(rr2c(xprt), 0, grant);
}

/* ---- the server ---- */

/*
 * Every port reads as down (closing connections park their cm_ids), or
 * not; the parked cm_ids are looked at twice a second.
 */
void rr2s_test_set_port_down(bool down)
{
	rpcrdma2_fail_set(RPCRDMA2_FAIL_PORT_DOWN, down ? -1 : 0, 1,
			  down ? 100 : 0);
}

/* The next @n Sends of RPC messages fail to post, as on a dead QP. */
void rr2s_test_fail_sends(int n)
{
	rpcrdma2_fail_set(RPCRDMA2_FAIL_SVC_SEND, n, 1, n ? 100 : 0);
}
