/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Soft-RDMA test environment for the rpcrdma2 KUnit suites.
 *
 * A test environment is one dummy netdev, brought up, carrying one
 * soft-RDMA device (rxe or siw) created through rdma netlink, exactly as
 * "ip link add ... type dummy" and "rdma link add ... type rxe|siw" would
 * from userspace.  Its address is the netdev's automatic IPv6 link-local
 * address: on 6.12, rdma_cm cannot resolve 127.0.0.1 through rxe or siw.
 *
 * Endpoints are RC queue pairs connected through rdma_cm on that address,
 * with a small set of helpers to post and await Sends and Receives.
 * Everything here is test-only code; it is built only with
 * CONFIG_RPCRDMA2_KUNIT_TEST.
 */
#ifndef RPCRDMA2_TEST_ENV_H
#define RPCRDMA2_TEST_ENV_H

#include <linux/completion.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/netdevice.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#include "shared/dev.h"
#include "shared/ep.h"

enum rpcrdma2_test_link {
	RPCRDMA2_TEST_RXE,
	RPCRDMA2_TEST_SIW,
	RPCRDMA2_TEST_NR_LINKS,
};

struct rpcrdma2_test_env {
	enum rpcrdma2_test_link	link;
	char			ifname[IFNAMSIZ];
	char			ibname[IB_DEVICE_NAME_MAX];
	struct net_device	*ndev;
	struct ib_device	*ibdev;
	union {				/* port 0 */
		struct sockaddr		sa;
		struct sockaddr_in	sin;
		struct sockaddr_in6	sin6;
		struct sockaddr_storage	ss;
	} addr;
	int			err;	/* why setup failed, 0 if it did not */
	const char		*failed_step;
};

const char *rpcrdma2_test_link_name(enum rpcrdma2_test_link link);
void rpcrdma2_test_param_desc(enum rpcrdma2_test_link link,
			      enum rpcrdma2_devclamp clamp, char *desc);
int rpcrdma2_test_env_up(struct rpcrdma2_test_env *env,
			 enum rpcrdma2_test_link link);
void rpcrdma2_test_env_down(struct rpcrdma2_test_env *env);
int rpcrdma2_test_env_remove_device(struct rpcrdma2_test_env *env,
				    unsigned long timeout);
int rpcrdma2_test_env_add_device(struct rpcrdma2_test_env *env);

#define RPCRDMA2_TEST_BUF_SIZE	4096

/* Most Receives a test endpoint keeps posted (rpcrdma2_test_conn.nr_recv). */
#define RPCRDMA2_TEST_MAX_RECV	32

/* Most Send buffers of a test endpoint (rpcrdma2_test_conn.nr_send). */
#define RPCRDMA2_TEST_MAX_SEND	8

/*
 * One side of an RC connection: a production endpoint (net/shared/ep.c)
 * with one Send buffer and one Receive, or a few taken in arrival order,
 * plus what the test waits on.
 */
struct rpcrdma2_test_ep {
	struct rdma_cm_id	*id;
	struct rpcrdma2_ep	ep;

	/*
	 * The Receives in the order they were posted, which is the order
	 * they complete in: @cur is the one rpcrdma2_test_wait_recv()
	 * took last, and the one rpcrdma2_test_post_recv() posts again.
	 */
	u32			nr_recv;
	u32			ring[RPCRDMA2_TEST_MAX_RECV];
	u32			head;
	u32			tail;
	u32			cur;

	struct completion	cm_event;	/* the awaited CM event came */
	enum rdma_cm_event_type	cm_expect;
	int			cm_status;	/* 0, or the failing event */

	struct completion	send_done;	/* once per ->send_done() */
	/* a test's own RDMA Write or Read (rpcrdma2_test_wait_rw()) */
	struct ib_cqe		rw_cqe;
	struct completion	rw_done;
	enum ib_wc_status	rw_status;
	struct completion	recv_done;
	/* every ->send_done(), in order: which buffer, with what status */
	u32			nr_sends_done;
	u32			sends_done[RPCRDMA2_TEST_MAX_SEND];
	enum ib_wc_status	sends_status[RPCRDMA2_TEST_MAX_SEND];

	struct rpcrdma2_cm_pdata peer_pdata;	/* RFC 8797, from the peer */
	bool			peer_pdata_found;
};

static inline void *rpcrdma2_test_send_buf(struct rpcrdma2_test_ep *ep)
{
	return ep->ep.sends[0].buf;
}

/* The Receive rpcrdma2_test_wait_recv() took last. */
static inline struct rpcrdma2_recv *
rpcrdma2_test_recv(struct rpcrdma2_test_ep *ep)
{
	return &ep->ep.recvs[ep->cur];
}

static inline void *rpcrdma2_test_recv_buf(struct rpcrdma2_test_ep *ep)
{
	return rpcrdma2_test_recv(ep)->buf;
}

static inline u32 rpcrdma2_test_recv_len(struct rpcrdma2_test_ep *ep)
{
	return rpcrdma2_test_recv(ep)->len;
}

enum rpcrdma2_test_pdata {
	RPCRDMA2_TEST_PDATA_RFC8797,	/* the record, as rpcrdma2 sends it */
	RPCRDMA2_TEST_PDATA_NONE,	/* no private data at all */
	RPCRDMA2_TEST_PDATA_BAD,	/* a record with Version 2 */
};

/* A listener and the client and server ends of one connection. */
struct rpcrdma2_test_conn {
	struct rpcrdma2_test_env *env;
	enum rpcrdma2_test_pdata pdata;	/* what both raw ends send */
	/*
	 * Receives each raw end keeps posted, 1 (0 means 1) up to
	 * RPCRDMA2_TEST_MAX_RECV: more for a peer that may send several
	 * messages in a row (the QPs take no RNR retries).
	 */
	u32			nr_recv;
	/*
	 * Send buffers of each raw end, 1 (0 means 1) up to
	 * RPCRDMA2_TEST_MAX_SEND, and their endpoints' send_batch (0:
	 * every Send signaled).
	 */
	u32			nr_send;
	u32			send_batch;
	struct rdma_cm_id	*listen_id;
	struct rpcrdma2_test_ep	client;
	struct rpcrdma2_test_ep	server;
	struct completion	server_ready;	/* accepted, or failed */
	int			server_err;
	u8			client_pdata[RPCRDMA2_CMP_SIZE];
	u8			server_pdata[RPCRDMA2_CMP_SIZE];
};

int rpcrdma2_test_connect(struct rpcrdma2_test_conn *conn,
			  struct rpcrdma2_test_env *env);
void rpcrdma2_test_conn_init(struct rpcrdma2_test_conn *conn,
			     struct rpcrdma2_test_env *env);
int rpcrdma2_test_dial(struct rpcrdma2_test_conn *conn,
		       const struct sockaddr *dst);
void rpcrdma2_test_disconnect(struct rpcrdma2_test_conn *conn);
int rpcrdma2_test_listen(struct rpcrdma2_test_conn *conn,
			 struct sockaddr_storage *dst);
int rpcrdma2_test_wait_accept(struct rpcrdma2_test_conn *conn);
void rpcrdma2_test_server_reset(struct rpcrdma2_test_conn *conn);
int rpcrdma2_test_post_recv(struct rpcrdma2_test_ep *ep);
int rpcrdma2_test_post_send(struct rpcrdma2_test_ep *ep, u32 len);
int rpcrdma2_test_wait_send(struct rpcrdma2_test_ep *ep);
int rpcrdma2_test_wait_rw(struct rpcrdma2_test_ep *ep);
int rpcrdma2_test_wait_recv(struct rpcrdma2_test_ep *ep);

#endif /* RPCRDMA2_TEST_ENV_H */
