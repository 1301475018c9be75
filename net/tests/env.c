// SPDX-License-Identifier: GPL-2.0-only
/*
 * Soft-RDMA test environment for the rpcrdma2 KUnit suites.
 *
 * Setup runs the same netlink requests an administrator's tools send:
 * RTM_NEWLINK for a dummy netdev (created up), then RDMA_NLDEV_CMD_NEWLINK
 * for an rxe or siw device on it.  The requests go through a kernel
 * netlink socket that is given a struct file: netlink_capable() checks
 * the credentials of the socket's file, and a bare kernel socket has
 * none.  Both requests are processed synchronously in the sender's
 * context, so the acknowledgment is already queued when sendmsg returns.
 *
 * Teardown unregisters the RDMA device and deletes the netdev, in that
 * order, so the next suite starts from nothing.
 *
 * Connections use the netdev's IPv6 link-local address and rdma_cm.  CM
 * events are handled in one handler per side; the test thread waits for
 * the event it asked for and sees any other event as a failure.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/file.h>
#include <linux/kthread.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include <net/if_inet6.h>
#include <net/netlink.h>
#include <rdma/rdma_netlink.h>

#include "tests/env.h"
#include "tests/hooks.h"

#define RR2T_NLBUF		512
#define RR2T_CM_TIMEOUT_MS	5000
#define RR2T_WAIT		(20 * HZ)	/* TCG guests are slow */

/* 192.0.2.2: the siw environment's address */
#define RR2T_SIW_ADDR		0xc0000202

const char *rpcrdma2_test_link_name(enum rpcrdma2_test_link link)
{
	return link == RPCRDMA2_TEST_RXE ? "rxe" : "siw";
}

/* A case parameter's name: the provider, and the clamp if there is one. */
void rpcrdma2_test_param_desc(enum rpcrdma2_test_link link,
			      enum rpcrdma2_devclamp clamp, char *desc)
{
	if (clamp == RPCRDMA2_DEVCLAMP_NONE)
		strscpy(desc, rpcrdma2_test_link_name(link),
			KUNIT_PARAM_DESC_SIZE);
	else
		snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s-%s",
			 rpcrdma2_test_link_name(link),
			 rpcrdma2_test_devclamp_name(clamp));
}

/* ---- netlink requests ---------------------------------------------- */

static struct nlattr *rr2t_nla_put(struct nlmsghdr *nlh, int type,
				   const void *data, int len)
{
	struct nlattr *nla;

	if (NLMSG_ALIGN(nlh->nlmsg_len) + nla_total_size(len) > RR2T_NLBUF)
		return NULL;
	nla = (struct nlattr *)((u8 *)nlh + NLMSG_ALIGN(nlh->nlmsg_len));
	nla->nla_type = type;
	nla->nla_len = nla_attr_size(len);
	if (len)
		memcpy(nla_data(nla), data, len);
	nlh->nlmsg_len = NLMSG_ALIGN(nlh->nlmsg_len) + nla_total_size(len);
	return nla;
}

static struct nlattr *rr2t_nla_put_str(struct nlmsghdr *nlh, int type,
				       const char *s)
{
	return rr2t_nla_put(nlh, type, s, strlen(s) + 1);
}

/* Send one request to the kernel and return the error its ACK carries. */
static int rr2t_nl_request(int protocol, struct nlmsghdr *nlh)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct msghdr msg = { .msg_name = &sa, .msg_namelen = sizeof(sa) };
	struct kvec iov = { .iov_base = nlh, .iov_len = nlh->nlmsg_len };
	struct nlmsghdr *ack;
	struct socket *sock;
	struct file *file;
	struct kvec riov;
	int err;

	err = sock_create_kern(&init_net, AF_NETLINK, SOCK_RAW, protocol,
			       &sock);
	if (err)
		return err;
	file = sock_alloc_file(sock, 0, NULL);	/* releases sock on error */
	if (IS_ERR(file))
		return PTR_ERR(file);

	ack = kzalloc(RR2T_NLBUF, GFP_KERNEL);
	if (!ack) {
		err = -ENOMEM;
		goto out;
	}
	nlh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = 1;
	err = kernel_sendmsg(sock, &msg, &iov, 1, iov.iov_len);
	if (err < 0)
		goto out;

	memset(&msg, 0, sizeof(msg));
	riov.iov_base = ack;
	riov.iov_len = RR2T_NLBUF;
	err = kernel_recvmsg(sock, &msg, &riov, 1, RR2T_NLBUF, MSG_DONTWAIT);
	if (err < 0)
		goto out;
	if (err < NLMSG_HDRLEN + (int)sizeof(struct nlmsgerr) ||
	    ack->nlmsg_type != NLMSG_ERROR) {
		err = -EPROTO;
		goto out;
	}
	err = ((struct nlmsgerr *)nlmsg_data(ack))->error;
out:
	kfree(ack);
	fput(file);
	return err;
}

/* A zeroed request of @type with a @hdrsize family header; kfree() it. */
static struct nlmsghdr *rr2t_nlmsg_new(u16 type, u16 flags, size_t hdrsize)
{
	struct nlmsghdr *nlh = kzalloc(RR2T_NLBUF, GFP_KERNEL);

	if (nlh) {
		nlh->nlmsg_len = NLMSG_LENGTH(hdrsize);
		nlh->nlmsg_type = type;
		nlh->nlmsg_flags = flags;
	}
	return nlh;
}

static int rr2t_dummy_newlink(const char *ifname)
{
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;
	struct nlattr *linkinfo;
	int err = -EMSGSIZE;

	nlh = rr2t_nlmsg_new(RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL,
			     sizeof(*ifm));
	if (!nlh)
		return -ENOMEM;
	ifm = nlmsg_data(nlh);
	ifm->ifi_family = AF_UNSPEC;
	ifm->ifi_flags = IFF_UP;
	ifm->ifi_change = IFF_UP;

	if (!rr2t_nla_put_str(nlh, IFLA_IFNAME, ifname))
		goto out;
	linkinfo = rr2t_nla_put(nlh, IFLA_LINKINFO | NLA_F_NESTED, NULL, 0);
	if (!linkinfo || !rr2t_nla_put_str(nlh, IFLA_INFO_KIND, "dummy"))
		goto out;
	linkinfo->nla_len = (u8 *)nlh + nlh->nlmsg_len - (u8 *)linkinfo;
	err = rr2t_nl_request(NETLINK_ROUTE, nlh);
out:
	kfree(nlh);
	return err;
}

/*
 * Bring up "lo".  Nothing else does in a KUnit kernel, and traffic to
 * a host's own addresses (siw's TCP connections) is delivered through it.
 */
static int rr2t_loopback_up(void)
{
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;
	int err;

	nlh = rr2t_nlmsg_new(RTM_NEWLINK, 0, sizeof(*ifm));
	if (!nlh)
		return -ENOMEM;
	ifm = nlmsg_data(nlh);
	ifm->ifi_family = AF_UNSPEC;
	ifm->ifi_index = init_net.loopback_dev->ifindex;
	ifm->ifi_flags = IFF_UP;
	ifm->ifi_change = IFF_UP;
	err = rr2t_nl_request(NETLINK_ROUTE, nlh);
	kfree(nlh);
	return err;
}

static int rr2t_dummy_dellink(const char *ifname)
{
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;
	int err = -EMSGSIZE;

	nlh = rr2t_nlmsg_new(RTM_DELLINK, 0, sizeof(*ifm));
	if (!nlh)
		return -ENOMEM;
	ifm = nlmsg_data(nlh);
	ifm->ifi_family = AF_UNSPEC;
	if (rr2t_nla_put_str(nlh, IFLA_IFNAME, ifname))
		err = rr2t_nl_request(NETLINK_ROUTE, nlh);
	kfree(nlh);
	return err;
}

static int rr2t_rdma_newlink(const char *ibname, const char *type,
			     const char *ifname)
{
	struct nlmsghdr *nlh;
	int err = -EMSGSIZE;

	nlh = rr2t_nlmsg_new(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
					      RDMA_NLDEV_CMD_NEWLINK), 0, 0);
	if (!nlh)
		return -ENOMEM;
	if (rr2t_nla_put_str(nlh, RDMA_NLDEV_ATTR_DEV_NAME, ibname) &&
	    rr2t_nla_put_str(nlh, RDMA_NLDEV_ATTR_LINK_TYPE, type) &&
	    rr2t_nla_put_str(nlh, RDMA_NLDEV_ATTR_NDEV_NAME, ifname))
		err = rr2t_nl_request(NETLINK_RDMA, nlh);
	kfree(nlh);
	return err;
}

/* Give @ndev the IPv4 address @addr/32. */
static int rr2t_add_addr4(struct net_device *ndev, __be32 addr)
{
	struct nlmsghdr *nlh;
	struct ifaddrmsg *ifa;
	int err = -EMSGSIZE;

	nlh = rr2t_nlmsg_new(RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL,
			     sizeof(*ifa));
	if (!nlh)
		return -ENOMEM;
	ifa = nlmsg_data(nlh);
	ifa->ifa_family = AF_INET;
	ifa->ifa_prefixlen = 32;
	ifa->ifa_scope = RT_SCOPE_UNIVERSE;
	ifa->ifa_index = ndev->ifindex;
	if (rr2t_nla_put(nlh, IFA_LOCAL, &addr, sizeof(addr)) &&
	    rr2t_nla_put(nlh, IFA_ADDRESS, &addr, sizeof(addr)))
		err = rr2t_nl_request(NETLINK_ROUTE, nlh);
	kfree(nlh);
	return err;
}

/* The link-local address of @ndev, once usable. */
static bool rr2t_get_lladdr(struct net_device *ndev, struct in6_addr *addr)
{
	struct inet6_ifaddr *ifp;
	struct inet6_dev *idev;
	bool found = false;

	rcu_read_lock();
	idev = __in6_dev_get(ndev);
	if (idev) {
		read_lock_bh(&idev->lock);
		list_for_each_entry(ifp, &idev->addr_list, if_list) {
			if (ifp->scope == IFA_LINK &&
			    !(ifp->flags & (IFA_F_TENTATIVE | IFA_F_DADFAILED))) {
				*addr = ifp->addr;
				found = true;
				break;
			}
		}
		read_unlock_bh(&idev->lock);
	}
	rcu_read_unlock();
	return found;
}

/**
 * rpcrdma2_test_env_up - create a dummy netdev with a soft-RDMA device
 * @env: environment to fill in
 * @link: rxe or siw
 *
 * On failure, @env->failed_step names the step and the environment is
 * left torn down.  Returns 0 or a negative errno.
 */
int rpcrdma2_test_env_up(struct rpcrdma2_test_env *env,
			 enum rpcrdma2_test_link link)
{
	const char *type = rpcrdma2_test_link_name(link);
	int i, err;

	memset(env, 0, sizeof(*env));
	env->link = link;
	snprintf(env->ifname, sizeof(env->ifname), "rr2t_%s", type);
	snprintf(env->ibname, sizeof(env->ibname), "rr2t_%s0", type);

	env->failed_step = "bring up lo";
	err = rr2t_loopback_up();
	if (err)
		goto fail;
	env->failed_step = "create dummy netdev";
	err = rr2t_dummy_newlink(env->ifname);
	if (err)
		goto fail;
	env->ndev = dev_get_by_name(&init_net, env->ifname);
	if (!env->ndev) {
		err = -ENODEV;
		goto fail;
	}

	/*
	 * rxe loops traffic to its own address back inside the device, so
	 * the automatic IPv6 link-local address does.  siw goes through the
	 * TCP stack: give its netdev an IPv4 address (192.0.2.2, from the
	 * documentation range; the test kernel has no network at all).  The
	 * TCP stack delivers a host's traffic to itself through "lo", which
	 * is down in a kernel with no init scripts, so setup brings it up.
	 */
	if (link == RPCRDMA2_TEST_SIW) {
		env->failed_step = "add IPv4 address";
		err = rr2t_add_addr4(env->ndev, htonl(RR2T_SIW_ADDR));
		if (err)
			goto fail;
		env->addr.sin.sin_family = AF_INET;
		env->addr.sin.sin_addr.s_addr = htonl(RR2T_SIW_ADDR);
	} else {
		env->failed_step = "wait for IPv6 link-local address";
		err = -EADDRNOTAVAIL;
		for (i = 0; i < 100; i++) {
			if (rr2t_get_lladdr(env->ndev,
					    &env->addr.sin6.sin6_addr)) {
				err = 0;
				break;
			}
			msleep(50);
		}
		if (err)
			goto fail;
		env->addr.sin6.sin6_family = AF_INET6;
		env->addr.sin6.sin6_scope_id = env->ndev->ifindex;
	}

	env->failed_step = "rdma link add";
	err = rr2t_rdma_newlink(env->ibname, type, env->ifname);
	if (err)
		goto fail;
	env->ibdev = ib_device_get_by_name(env->ibname, RDMA_DRIVER_UNKNOWN);
	if (!env->ibdev) {
		err = -ENODEV;
		goto fail;
	}
	env->failed_step = NULL;
	return 0;

fail:
	env->err = err;
	rpcrdma2_test_env_down(env);
	return err;
}

void rpcrdma2_test_env_down(struct rpcrdma2_test_env *env)
{
	if (env->ibdev) {
		ib_unregister_device_and_put(env->ibdev);
		env->ibdev = NULL;
	}
	if (env->ndev) {
		dev_put(env->ndev);
		env->ndev = NULL;
		rr2t_dummy_dellink(env->ifname);
	}
}

struct rr2t_removal {
	struct ib_device	*ibdev;
	struct completion	done;
};

static int rr2t_removal_thread(void *data)
{
	struct rr2t_removal *rm = data;

	/* what "rdma link delete" does */
	ib_unregister_device_and_put(rm->ibdev);
	complete(&rm->done);
	return 0;
}

/**
 * rpcrdma2_test_env_remove_device - unregister the soft-RDMA device
 * @env: a working environment; its netdev and address stay
 * @timeout: how long the removal may block (jiffies)
 *
 * The removal runs in a thread of its own, so that a removal that
 * never finishes fails the case instead of hanging the test kernel.
 * Returns 0 when the device is gone, -ETIMEDOUT if it still blocks (the
 * thread and its state are then left behind, on purpose).
 */
int rpcrdma2_test_env_remove_device(struct rpcrdma2_test_env *env,
				    unsigned long timeout)
{
	struct rr2t_removal *rm;
	struct task_struct *t;

	if (!env->ibdev)
		return -ENODEV;
	rm = kzalloc(sizeof(*rm), GFP_KERNEL);
	if (!rm)
		return -ENOMEM;
	rm->ibdev = env->ibdev;
	init_completion(&rm->done);
	t = kthread_run(rr2t_removal_thread, rm, "rr2t_remove");
	if (IS_ERR(t)) {
		kfree(rm);
		return PTR_ERR(t);
	}
	env->ibdev = NULL;
	if (!wait_for_completion_timeout(&rm->done, timeout))
		return -ETIMEDOUT;
	kfree(rm);
	return 0;
}

/* Create the soft-RDMA device again, as "rdma link add" would. */
int rpcrdma2_test_env_add_device(struct rpcrdma2_test_env *env)
{
	int err;

	if (env->ibdev)
		return -EEXIST;
	err = rr2t_rdma_newlink(env->ibname, rpcrdma2_test_link_name(env->link),
				env->ifname);
	if (err)
		return err;
	env->ibdev = ib_device_get_by_name(env->ibname, RDMA_DRIVER_UNKNOWN);
	return env->ibdev ? 0 : -ENODEV;
}

/* ---- RC endpoints ---------------------------------------------------- */

static void rr2t_send_done(struct rpcrdma2_send *sd)
{
	struct rpcrdma2_test_ep *ep = sd->ep->priv;
	u32 n = ep->nr_sends_done++;

	if (n < RPCRDMA2_TEST_MAX_SEND) {
		ep->sends_done[n] = sd - sd->ep->sends;
		ep->sends_status[n] = sd->status;
	}
	complete(&ep->send_done);
}

static void rr2t_recv_done(struct rpcrdma2_recv *rv)
{
	struct rpcrdma2_test_ep *ep = rv->ep->priv;

	complete(&ep->recv_done);
}

static const struct rpcrdma2_ep_ops rr2t_ep_ops = {
	.recv_done	= rr2t_recv_done,
	.send_done	= rr2t_send_done,
};

static const struct rpcrdma2_ep_attr rr2t_ep_attr = {
	.nr_recv	= 1,
	.recv_size	= RPCRDMA2_TEST_BUF_SIZE,
	.nr_send	= 1,
	.send_size	= RPCRDMA2_TEST_BUF_SIZE,
};

static int rr2t_post_one(struct rpcrdma2_test_ep *ep, u32 i)
{
	ep->ring[ep->tail++ % RPCRDMA2_TEST_MAX_RECV] = i;
	return rpcrdma2_ep_post_recv(&ep->ep.recvs[i]);
}

/* Post every Receive of a new endpoint. */
static int rr2t_post_all(struct rpcrdma2_test_ep *ep)
{
	int err = 0;
	u32 i;

	reinit_completion(&ep->recv_done);
	ep->head = 0;
	ep->tail = 0;
	ep->cur = 0;
	for (i = 0; !err && i < ep->nr_recv; i++)
		err = rr2t_post_one(ep, i);
	return err;
}

static void rr2t_rw_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rpcrdma2_test_ep *ep =
		container_of(wc->wr_cqe, struct rpcrdma2_test_ep, rw_cqe);

	ep->rw_status = wc->status;
	complete(&ep->rw_done);
}

static void rr2t_ep_init(struct rpcrdma2_test_ep *ep)
{
	memset(ep, 0, sizeof(*ep));
	init_completion(&ep->cm_event);
	init_completion(&ep->send_done);
	init_completion(&ep->recv_done);
	init_completion(&ep->rw_done);
	ep->rw_cqe.done = rr2t_rw_done;
}

static int rr2t_ep_create(struct rpcrdma2_test_ep *ep, struct rdma_cm_id *id,
			  const struct rpcrdma2_test_conn *conn)
{
	struct rpcrdma2_ep_attr attr = rr2t_ep_attr;

	ep->id = id;
	ep->nr_recv = clamp_t(u32, conn->nr_recv, 1, RPCRDMA2_TEST_MAX_RECV);
	attr.nr_recv = ep->nr_recv;
	attr.nr_send = clamp_t(u32, conn->nr_send, 1, RPCRDMA2_TEST_MAX_SEND);
	attr.send_batch = conn->send_batch;
	return rpcrdma2_ep_create(&ep->ep, id, &attr, &rr2t_ep_ops, ep);
}

static void rr2t_ep_release(struct rpcrdma2_test_ep *ep)
{
	rpcrdma2_ep_destroy(&ep->ep);
}

/* Post again the Receive that rpcrdma2_test_wait_recv() took. */
int rpcrdma2_test_post_recv(struct rpcrdma2_test_ep *ep)
{
	/* one Receive: forget a completion nobody waited for, as ever */
	if (ep->nr_recv == 1)
		reinit_completion(&ep->recv_done);
	return rr2t_post_one(ep, ep->cur);
}

int rpcrdma2_test_post_send(struct rpcrdma2_test_ep *ep, u32 len)
{
	reinit_completion(&ep->send_done);
	return rpcrdma2_ep_post_send(&ep->ep.sends[0], len, 0);
}

int rpcrdma2_test_wait_send(struct rpcrdma2_test_ep *ep)
{
	if (!wait_for_completion_timeout(&ep->send_done, RR2T_WAIT))
		return -ETIMEDOUT;
	return ep->ep.sends[0].status == IB_WC_SUCCESS ? 0 : -EIO;
}

/*
 * Wait for the completion of a signaled work request the test posted
 * itself with wr_cqe = &ep->rw_cqe (re-arm ep->rw_done before posting).
 */
int rpcrdma2_test_wait_rw(struct rpcrdma2_test_ep *ep)
{
	if (!wait_for_completion_timeout(&ep->rw_done, RR2T_WAIT))
		return -ETIMEDOUT;
	return ep->rw_status == IB_WC_SUCCESS ? 0 : -EIO;
}

int rpcrdma2_test_wait_recv(struct rpcrdma2_test_ep *ep)
{
	struct rpcrdma2_recv *rv;

	if (!wait_for_completion_timeout(&ep->recv_done, RR2T_WAIT))
		return -ETIMEDOUT;
	/* each completion counts once: the oldest Receive posted is done */
	if (ep->head != ep->tail)
		ep->cur = ep->ring[ep->head++ % RPCRDMA2_TEST_MAX_RECV];
	rv = &ep->ep.recvs[ep->cur];
	if (rv->status != IB_WC_SUCCESS)
		return -EIO;
	rpcrdma2_ep_recv_sync(rv);
	return 0;
}

/* ---- rdma_cm --------------------------------------------------------- */

static void rr2t_ep_event(struct rpcrdma2_test_ep *ep,
			  struct rdma_cm_event *event)
{
	if (event->event == ep->cm_expect)
		ep->cm_status = 0;
	else
		ep->cm_status = -ECONNABORTED;
	complete(&ep->cm_event);
}

static int rr2t_client_handler(struct rdma_cm_id *id,
			       struct rdma_cm_event *event)
{
	struct rpcrdma2_test_conn *conn = id->context;
	struct rpcrdma2_test_ep *ep = &conn->client;

	if (event->event == RDMA_CM_EVENT_ESTABLISHED)
		ep->peer_pdata_found = rpcrdma2_ep_peer_pdata(event,
							      &ep->peer_pdata);
	rr2t_ep_event(ep, event);
	return 0;
}

/*
 * What this end puts in its CM private data: the RFC 8797 record, or,
 * to play a peer without one, nothing or a record no receiver may use
 * (a Version 2 record, CMP-CMPD-17).
 */
static void rr2t_pdata_mode(struct rpcrdma2_test_conn *conn,
			    struct rdma_conn_param *param, u8 *pdata)
{
	switch (conn->pdata) {
	case RPCRDMA2_TEST_PDATA_NONE:
		param->private_data = NULL;
		param->private_data_len = 0;
		break;
	case RPCRDMA2_TEST_PDATA_BAD:
		pdata[4] = 2;
		break;
	default:
		break;
	}
}

static int rr2t_server_accept(struct rpcrdma2_test_conn *conn,
			      struct rdma_cm_id *id,
			      struct rdma_cm_event *event)
{
	struct rpcrdma2_test_ep *ep = &conn->server;
	struct rdma_conn_param param;
	int err;

	ep->peer_pdata_found = rpcrdma2_ep_peer_pdata(event, &ep->peer_pdata);
	err = rr2t_ep_create(ep, id, conn);
	if (!err)
		err = rr2t_post_all(ep);
	if (!err) {
		rpcrdma2_ep_conn_param(&ep->ep, &param, conn->server_pdata,
				       false);
		rr2t_pdata_mode(conn, &param, conn->server_pdata);
		err = rdma_accept(id, &param);
	}
	if (err)
		rr2t_ep_release(ep);
	return err;
}

static int rr2t_server_handler(struct rdma_cm_id *id,
			       struct rdma_cm_event *event)
{
	struct rpcrdma2_test_conn *conn = id->context;
	int err;

	if (id == conn->listen_id)
		return 0;	/* the listener itself has nothing to report */

	switch (event->event) {
	case RDMA_CM_EVENT_CONNECT_REQUEST:
		if (conn->server.id)
			return -EBUSY;	/* one connection per test conn */
		err = rr2t_server_accept(conn, id, event);
		if (err) {
			conn->server.id = NULL;
			conn->server_err = err;
			complete(&conn->server_ready);
			return err;	/* rdma_cm destroys the new id */
		}
		return 0;
	case RDMA_CM_EVENT_ESTABLISHED:
		complete(&conn->server_ready);
		return 0;
	default:
		if (!completion_done(&conn->server_ready)) {
			conn->server_err = -ECONNABORTED;
			complete(&conn->server_ready);
			return 0;
		}
		rr2t_ep_event(&conn->server, event);
		return 0;
	}
}

/* Wait for the CM event that ep->cm_expect names, after a request. */
static int rr2t_client_step(struct rpcrdma2_test_ep *ep, int err)
{
	if (err)
		return err;
	if (!wait_for_completion_timeout(&ep->cm_event, RR2T_WAIT))
		return -ETIMEDOUT;
	reinit_completion(&ep->cm_event);
	return ep->cm_status;
}

static int rr2t_listen(struct rpcrdma2_test_conn *conn,
		       struct sockaddr_storage *dst)
{
	struct rdma_cm_id *id;
	int err;

	id = rdma_create_id(&init_net, rr2t_server_handler, conn,
			    RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);
	conn->listen_id = id;
	*dst = conn->env->addr.ss;
	err = rdma_bind_addr(id, (struct sockaddr *)dst);
	if (!err)
		err = rdma_listen(id, 4);
	if (err)
		return err;
	/* where the listener ended up, with the port rdma_cm chose */
	*dst = id->route.addr.src_addr;
	return 0;
}

/**
 * rpcrdma2_test_connect - listen on @env and connect an RC QP pair to it
 * @conn: connection to set up
 * @env: an environment that is up
 *
 * Both ends have one Receive posted when this returns 0.  Whatever the
 * result, rpcrdma2_test_disconnect() releases everything.
 */
/**
 * rpcrdma2_test_dial - connect conn->client to @dst through rdma_cm
 * @conn: zeroed and initialised by rpcrdma2_test_conn_init()
 * @dst: a listener: the test's own (rpcrdma2_test_connect) or a
 *	transport's, for tests that speak to it from a raw QP
 *
 * The client advertises its RFC 8797 record with the R bit.
 */
int rpcrdma2_test_dial(struct rpcrdma2_test_conn *conn,
		       const struct sockaddr *dst)
{
	struct rpcrdma2_test_ep *ep = &conn->client;
	struct rdma_conn_param param;
	struct rdma_cm_id *id;
	int err = -EINVAL, tries;

	/* The RoCE GID table fills from a workqueue: retry resolution. */
	for (tries = 0; tries < 20; tries++) {
		id = rdma_create_id(&init_net, rr2t_client_handler, conn,
				    RDMA_PS_TCP, IB_QPT_RC);
		if (IS_ERR(id))
			return PTR_ERR(id);
		ep->id = id;
		ep->cm_expect = RDMA_CM_EVENT_ADDR_RESOLVED;
		err = rdma_resolve_addr(id, NULL, (struct sockaddr *)dst,
					RR2T_CM_TIMEOUT_MS);
		err = rr2t_client_step(ep, err);
		if (!err) {
			ep->cm_expect = RDMA_CM_EVENT_ROUTE_RESOLVED;
			err = rdma_resolve_route(id, RR2T_CM_TIMEOUT_MS);
			err = rr2t_client_step(ep, err);
		}
		if (!err)
			break;
		rdma_destroy_id(id);
		ep->id = NULL;
		msleep(250);
	}
	if (err)
		return err;

	err = rr2t_ep_create(ep, ep->id, conn);
	if (!err)
		err = rr2t_post_all(ep);
	if (err)
		return err;

	rpcrdma2_ep_conn_param(&ep->ep, &param, conn->client_pdata, true);
	rr2t_pdata_mode(conn, &param, conn->client_pdata);
	ep->cm_expect = RDMA_CM_EVENT_ESTABLISHED;
	return rr2t_client_step(ep, rdma_connect(ep->id, &param));
}

void rpcrdma2_test_conn_init(struct rpcrdma2_test_conn *conn,
			     struct rpcrdma2_test_env *env)
{
	memset(conn, 0, sizeof(*conn));
	conn->env = env;
	init_completion(&conn->server_ready);
	rr2t_ep_init(&conn->client);
	rr2t_ep_init(&conn->server);
}

/**
 * rpcrdma2_test_listen - a raw server: listen on @env for one connection
 * @conn: zeroed and initialised by rpcrdma2_test_conn_init()
 * @dst: where the listener is, for the transport under test to connect
 *
 * The connection is accepted with one Receive posted; wait for it with
 * rpcrdma2_test_wait_accept().
 */
int rpcrdma2_test_listen(struct rpcrdma2_test_conn *conn,
			 struct sockaddr_storage *dst)
{
	return rr2t_listen(conn, dst);
}

int rpcrdma2_test_wait_accept(struct rpcrdma2_test_conn *conn)
{
	if (!wait_for_completion_timeout(&conn->server_ready, RR2T_WAIT))
		return -ETIMEDOUT;
	return conn->server_err;
}

/* Drop the raw server's connection and take the next one. */
void rpcrdma2_test_server_reset(struct rpcrdma2_test_conn *conn)
{
	struct rdma_cm_id *id = conn->server.id;

	if (id) {
		rdma_disconnect(id);
		rr2t_ep_release(&conn->server);
		rdma_destroy_id(id);
	}
	rr2t_ep_init(&conn->server);
	conn->server_err = 0;
	reinit_completion(&conn->server_ready);
}

int rpcrdma2_test_connect(struct rpcrdma2_test_conn *conn,
			  struct rpcrdma2_test_env *env)
{
	struct sockaddr_storage dst;
	int err;

	rpcrdma2_test_conn_init(conn, env);
	err = rr2t_listen(conn, &dst);
	if (!err)
		err = rpcrdma2_test_dial(conn, (struct sockaddr *)&dst);
	if (err)
		return err;
	if (!wait_for_completion_timeout(&conn->server_ready, RR2T_WAIT))
		return -ETIMEDOUT;
	return conn->server_err;
}

void rpcrdma2_test_disconnect(struct rpcrdma2_test_conn *conn)
{
	if (conn->client.id && conn->client.id->qp)
		rdma_disconnect(conn->client.id);
	/* the endpoints drain their QPs before freeing anything */
	if (conn->server.id) {
		rdma_disconnect(conn->server.id);
		rr2t_ep_release(&conn->server);
		rdma_destroy_id(conn->server.id);
		conn->server.id = NULL;
	}
	if (conn->client.id) {
		rr2t_ep_release(&conn->client);
		rdma_destroy_id(conn->client.id);
		conn->client.id = NULL;
	}
	if (conn->listen_id) {
		rdma_destroy_id(conn->listen_id);
		conn->listen_id = NULL;
	}
}
