// SPDX-License-Identifier: GPL-2.0-only
/*
 * rr2_rawk: the raw RDMA link measured from the kernel, as the NFS
 * transports use it.  A benchmark probe (tools/testing/bench), not part
 * of rpcrdma2.ko and never loaded by a test.
 *
 * perftest measures the link from user space: every work request
 * through a system call, every completion through a file-descriptor
 * wake-up (or a spinning vCPU).  The kernel transports post from
 * kernel threads and take completions in a CQ work item
 * (IB_POLL_WORKQUEUE).  So does this probe, so that what it measures
 * bounds what an NFS transport can get from the same link: no
 * registration per I/O, no RPC, no file system.
 *
 * One end listens, the other runs the tests, each on a connection of
 * its own (debugfs, /sys/kernel/debug/rr2_rawk):
 *
 *   echo PORT > listen            this end serves; 0 stops it
 *   echo "ADDR PORT TEST SIZE DEPTH SECONDS" > run
 *   cat run                       the last run's figures
 *
 * TEST is write or read (RDMA Write or Read of SIZE octets, up to
 * 1 MiB, into or out of the listener's buffer, registered once with
 * FRWR as a transport registers a chunk), send (Sends of SIZE octets,
 * up to RAWK_MSG_MAX, into Receives the listener re-posts as it takes
 * them) or lat (one Send of SIZE octets at a time, echoed back by the
 * listener: a round trip).  The writer's thread posts whenever fewer
 * than DEPTH are in flight, as an nfsd thread or an RPC task posts,
 * and the CQ's work item only counts completions and wakes it; after
 * SECONDS it waits for the last ones.  A run prints
 *
 *   TEST SIZE DEPTH OPS BYTES USEC
 *
 * OPS operations (round trips for lat) of SIZE octets, BYTES in all,
 * in USEC microseconds from the first post to the last completion.
 * A failed run prints "error ERRNO" instead.
 */

#include <linux/debugfs.h>
#include <linux/inet.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#define RAWK_BUF_SIZE	(1024 * 1024)	/* RDMA Read and Write, at most */
#define RAWK_MSG_MAX	16384		/* a Send, at most */
#define RAWK_NRECV	128		/* Receives posted at each end */
#define RAWK_MAX_DEPTH	64
#define RAWK_RD_ATOM	16		/* RDMA Reads in flight */
#define RAWK_TIMEOUT_MS	5000

enum rawk_test { RAWK_WRITE, RAWK_READ, RAWK_SEND, RAWK_LAT };
static const char * const rawk_test_names[] = {
	[RAWK_WRITE] = "write", [RAWK_READ] = "read",
	[RAWK_SEND] = "send", [RAWK_LAT] = "lat",
};

/* The first octet of a Send: what the receiving end does with it. */
#define RAWK_MSG_HELLO	'H'	/* the listener's buffer: struct rawk_hello */
#define RAWK_MSG_SINK	'S'	/* taken and dropped */
#define RAWK_MSG_ECHO	'E'	/* sent back as it came */

struct rawk_hello {
	u8	type;
	u8	pad[3];
	__be32	rkey;
	__be64	addr;
	__be32	len;
};

/* One end of one connection. */
struct rawk_conn {
	struct rdma_cm_id	*id;
	struct ib_pd		*pd;
	struct ib_cq		*cq;
	bool			qp_made;

	/* the RDMA buffer: the listener's registered, the runner's local */
	void			*buf;
	u64			buf_dma;
	struct scatterlist	buf_sg;
	struct ib_mr		*mr;		/* listener only */
	struct ib_cqe		reg_cqe;

	/* Receives, and one Send buffer for hello and echo */
	void			*rbuf;
	u64			rbuf_dma;
	struct ib_cqe		recv_cqe[RAWK_NRECV];
	void			*sbuf;
	u64			sbuf_dma;
	struct ib_cqe		echo_cqe;

	/* rdma_cm's events, for the runner's thread */
	struct completion	cm_done;
	int			cm_status;

	/* the runner: the listener's buffer, and the run */
	struct completion	hello_done;
	u32			peer_rkey;
	u64			peer_addr;
	u32			peer_len;
	struct rawk_run		*run;

	/* the listener: its list of connections, its teardown (once) */
	struct list_head	node;
	struct work_struct	free_work;
	bool			dying;
};

/* One run, from its first post to its last completion. */
struct rawk_run {
	enum rawk_test		test;
	u32			size;
	u32			depth;
	u64			ops;		/* the CQ work item's */
	int			status;		/* the first failure */
	atomic_t		inflight;
	atomic_t		ended;		/* failed: stop waiting */
	wait_queue_head_t	wait;
	struct ib_cqe		cqe[RAWK_MAX_DEPTH];
};

static struct dentry *rawk_dir;
static struct workqueue_struct *rawk_wq;
static DEFINE_MUTEX(rawk_lock);		/* the listener and the run */
static struct rdma_cm_id *rawk_listen_id;
static LIST_HEAD(rawk_conns);		/* the listener's connections */
static DEFINE_MUTEX(rawk_conns_lock);
static DECLARE_WAIT_QUEUE_HEAD(rawk_conns_wait);
static DEFINE_SPINLOCK(rawk_result_lock);
static char rawk_result[160] = "none\n";

static void rawk_dma_free(struct rawk_conn *c, void **buf, u64 *dma,
			  size_t len, enum dma_data_direction dir)
{
	if (!*buf)
		return;
	if (*dma)
		ib_dma_unmap_single(c->id->device, *dma, len, dir);
	free_pages_exact(*buf, len);
	*buf = NULL;
	*dma = 0;
}

static int rawk_dma_alloc(struct rawk_conn *c, void **buf, u64 *dma,
			  size_t len, enum dma_data_direction dir)
{
	*buf = alloc_pages_exact(len, GFP_KERNEL | __GFP_ZERO);
	if (!*buf)
		return -ENOMEM;
	*dma = ib_dma_map_single(c->id->device, *buf, len, dir);
	if (ib_dma_mapping_error(c->id->device, *dma)) {
		*dma = 0;
		rawk_dma_free(c, buf, dma, len, dir);
		return -ENOMEM;
	}
	return 0;
}

/* ---- Receives and Sends both ends use ---- */

static void rawk_recv_done(struct ib_cq *cq, struct ib_wc *wc);

static int rawk_post_recv(struct rawk_conn *c, u32 i)
{
	struct ib_sge sge = {
		.addr	= c->rbuf_dma + (u64)i * RAWK_MSG_MAX,
		.length	= RAWK_MSG_MAX,
		.lkey	= c->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = {
		.wr_cqe		= &c->recv_cqe[i],
		.sg_list	= &sge,
		.num_sge	= 1,
	};

	c->recv_cqe[i].done = rawk_recv_done;
	return ib_post_recv(c->id->qp, &wr, NULL);
}

static int rawk_post_send(struct rawk_conn *c, struct ib_cqe *cqe, u64 dma,
			  u32 len)
{
	struct ib_sge sge = {
		.addr	= dma,
		.length	= len,
		.lkey	= c->pd->local_dma_lkey,
	};
	struct ib_send_wr wr = {
		.wr_cqe		= cqe,
		.sg_list	= &sge,
		.num_sge	= 1,
		.opcode		= IB_WR_SEND,
		.send_flags	= IB_SEND_SIGNALED,
	};

	ib_dma_sync_single_for_device(c->id->device, dma, len, DMA_TO_DEVICE);
	return ib_post_send(c->id->qp, &wr, NULL);
}

static void rawk_wr_failed(struct rawk_conn *c, struct ib_wc *wc,
			   const char *what)
{
	if (wc->status != IB_WC_WR_FLUSH_ERR)
		pr_info("rr2_rawk: %s failed: %s\n", what,
			ib_wc_status_msg(wc->status));
}

/* The run failed: stop waiting for what is in flight (the drain takes it). */
static void rawk_run_fail(struct rawk_run *run, int status)
{
	WRITE_ONCE(run->status, status);
	if (!atomic_xchg(&run->ended, 1))
		wake_up(&run->wait);
}

/* The listener's Send (hello, echo) completed: nothing to do. */
static void rawk_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	if (wc->status != IB_WC_SUCCESS)
		rawk_wr_failed(cq->cq_context, wc, "send");
}

static void rawk_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	if (wc->status != IB_WC_SUCCESS)
		rawk_wr_failed(cq->cq_context, wc, "registration");
}

static void rawk_run_slot_done(struct rawk_run *run);

static void rawk_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rawk_conn *c = cq->cq_context;
	u32 i = wc->wr_cqe - c->recv_cqe;
	u8 *msg = c->rbuf + (size_t)i * RAWK_MSG_MAX;
	u64 dma = c->rbuf_dma + (u64)i * RAWK_MSG_MAX;
	const struct rawk_hello *h = (const void *)msg;
	u32 len = wc->byte_len;

	if (wc->status != IB_WC_SUCCESS) {
		rawk_wr_failed(c, wc, "receive");
		if (c->run)		/* a round trip's echo will not come */
			rawk_run_fail(c->run, -EIO);
		return;
	}
	ib_dma_sync_single_for_cpu(c->id->device, dma, len, DMA_FROM_DEVICE);
	switch (len ? msg[0] : 0) {
	case RAWK_MSG_HELLO:
		if (len >= sizeof(*h) && !completion_done(&c->hello_done)) {
			c->peer_rkey = be32_to_cpu(h->rkey);
			c->peer_addr = be64_to_cpu(h->addr);
			c->peer_len = be32_to_cpu(h->len);
			complete(&c->hello_done);
		}
		break;
	case RAWK_MSG_ECHO:
		if (c->run) {			/* the runner: a round trip */
			rawk_run_slot_done(c->run);
			break;
		}
		memcpy(c->sbuf, msg, len);	/* the listener: send it back */
		if (rawk_post_send(c, &c->echo_cqe, c->sbuf_dma, len))
			rdma_disconnect(c->id);
		break;
	default:
		break;
	}
	ib_dma_sync_single_for_device(c->id->device, dma, RAWK_MSG_MAX,
				      DMA_FROM_DEVICE);
	if (rawk_post_recv(c, i))
		rdma_disconnect(c->id);
}

/* ---- a connection's resources ---- */

static int rawk_conn_make(struct rawk_conn *c, bool listener)
{
	struct ib_device *dev = c->id->device;
	struct ib_qp_init_attr attr = { };
	u32 i;
	int ret;

	c->pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(c->pd)) {
		ret = PTR_ERR(c->pd);
		c->pd = NULL;
		return ret;
	}
	c->cq = ib_alloc_cq_any(dev, c, 2 * RAWK_NRECV + 2 * RAWK_MAX_DEPTH,
				IB_POLL_WORKQUEUE);
	if (IS_ERR(c->cq)) {
		ret = PTR_ERR(c->cq);
		c->cq = NULL;
		return ret;
	}
	/*
	 * A Send that finds no Receive is tried again soon, not after
	 * the 655 ms a zero timer means: the listener re-posts from its
	 * CQ work item, which a busy guest may run late.
	 */
	ret = rdma_set_min_rnr_timer(c->id, IB_RNR_TIMER_000_16);
	if (ret)
		return ret;
	attr.send_cq = c->cq;
	attr.recv_cq = c->cq;
	attr.cap.max_send_wr = RAWK_MAX_DEPTH + 4;
	attr.cap.max_recv_wr = RAWK_NRECV + 1;	/* + ib_drain_qp()'s */
	attr.cap.max_send_sge = 1;
	attr.cap.max_recv_sge = 1;
	attr.sq_sig_type = IB_SIGNAL_REQ_WR;
	attr.qp_type = IB_QPT_RC;
	ret = rdma_create_qp(c->id, c->pd, &attr);
	if (ret)
		return ret;
	c->qp_made = true;

	/* the listener's is mapped for its MR (rawk_serve()) */
	if (listener) {
		c->buf = alloc_pages_exact(RAWK_BUF_SIZE, GFP_KERNEL | __GFP_ZERO);
		ret = c->buf ? 0 : -ENOMEM;
	} else {
		ret = rawk_dma_alloc(c, &c->buf, &c->buf_dma, RAWK_BUF_SIZE,
				     DMA_BIDIRECTIONAL);
	}
	if (!ret)
		ret = rawk_dma_alloc(c, &c->rbuf, &c->rbuf_dma,
				     RAWK_NRECV * RAWK_MSG_MAX, DMA_FROM_DEVICE);
	if (!ret)
		ret = rawk_dma_alloc(c, &c->sbuf, &c->sbuf_dma, RAWK_MSG_MAX,
				     DMA_TO_DEVICE);
	if (ret)
		return ret;
	c->echo_cqe.done = rawk_send_done;
	c->reg_cqe.done = rawk_reg_done;
	for (i = 0; i < RAWK_NRECV; i++) {
		ret = rawk_post_recv(c, i);
		if (ret)
			return ret;
	}
	if (!listener)
		return 0;
	c->mr = ib_alloc_mr(c->pd, IB_MR_TYPE_MEM_REG,
			    RAWK_BUF_SIZE >> PAGE_SHIFT);
	if (IS_ERR(c->mr)) {
		ret = PTR_ERR(c->mr);
		c->mr = NULL;
	}
	return ret;
}

/* Everything of @c but its cm_id and itself; the QP drained first. */
static void rawk_conn_release(struct rawk_conn *c)
{
	if (c->qp_made) {
		ib_drain_qp(c->id->qp);
		rdma_destroy_qp(c->id);
		c->qp_made = false;
	}
	if (c->mr) {
		if (sg_dma_len(&c->buf_sg))
			ib_dma_unmap_sg(c->id->device, &c->buf_sg, 1,
					DMA_BIDIRECTIONAL);
		ib_dereg_mr(c->mr);
		c->mr = NULL;
	}
	rawk_dma_free(c, &c->buf, &c->buf_dma, RAWK_BUF_SIZE,
		      DMA_BIDIRECTIONAL);
	rawk_dma_free(c, &c->rbuf, &c->rbuf_dma, RAWK_NRECV * RAWK_MSG_MAX,
		      DMA_FROM_DEVICE);
	rawk_dma_free(c, &c->sbuf, &c->sbuf_dma, RAWK_MSG_MAX, DMA_TO_DEVICE);
	if (c->cq)
		ib_free_cq(c->cq);
	c->cq = NULL;
	if (c->pd)
		ib_dealloc_pd(c->pd);
	c->pd = NULL;
}

static void rawk_conn_destroy(struct rawk_conn *c)
{
	rawk_conn_release(c);
	rdma_destroy_id(c->id);
	kfree(c);
}

/* ---- the listener ---- */

/*
 * The connection is up: register the buffer (FRWR, as a transport
 * registers a chunk) and tell the runner where it is.  The Send follows
 * the registration on the Send queue, so the runner cannot touch the
 * buffer before it is registered.
 */
static int rawk_serve(struct rawk_conn *c)
{
	struct rawk_hello *h = c->sbuf;
	struct ib_reg_wr reg = { };
	int n;

	sg_init_one(&c->buf_sg, c->buf, RAWK_BUF_SIZE);
	if (!ib_dma_map_sg(c->id->device, &c->buf_sg, 1, DMA_BIDIRECTIONAL))
		return -ENOMEM;
	n = ib_map_mr_sg(c->mr, &c->buf_sg, 1, NULL, PAGE_SIZE);
	if (n != 1)
		return -EIO;
	ib_update_fast_reg_key(c->mr, ib_inc_rkey(c->mr->rkey));
	reg.wr.opcode = IB_WR_REG_MR;
	reg.wr.wr_cqe = &c->reg_cqe;
	reg.wr.send_flags = IB_SEND_SIGNALED;
	reg.mr = c->mr;
	reg.key = c->mr->rkey;
	reg.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ |
		     IB_ACCESS_REMOTE_WRITE;
	if (ib_post_send(c->id->qp, &reg.wr, NULL))
		return -EIO;
	memset(h, 0, sizeof(*h));
	h->type = RAWK_MSG_HELLO;
	h->rkey = cpu_to_be32(c->mr->rkey);
	h->addr = cpu_to_be64(c->mr->iova);
	h->len = cpu_to_be32(RAWK_BUF_SIZE);
	return rawk_post_send(c, &c->echo_cqe, c->sbuf_dma, sizeof(*h));
}

static void rawk_free_work(struct work_struct *work)
{
	struct rawk_conn *c = container_of(work, struct rawk_conn, free_work);

	mutex_lock(&rawk_conns_lock);
	list_del(&c->node);
	mutex_unlock(&rawk_conns_lock);
	rawk_conn_destroy(c);
	wake_up(&rawk_conns_wait);
}

static int rawk_accept(struct rdma_cm_id *id,
		       const struct rdma_conn_param *req)
{
	const struct ib_device_attr *da = &id->device->attrs;
	struct rdma_conn_param param = {
		.rnr_retry_count	= 7,
	};
	struct rawk_conn *c;
	int ret;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->id = id;
	id->context = c;
	init_completion(&c->hello_done);
	INIT_WORK(&c->free_work, rawk_free_work);
	/* what the runner reads from us, what we could read from it */
	param.responder_resources = min3(RAWK_RD_ATOM, da->max_qp_rd_atom,
					 (int)req->initiator_depth);
	param.initiator_depth = min3(RAWK_RD_ATOM, da->max_qp_init_rd_atom,
				     (int)req->responder_resources);
	ret = rawk_conn_make(c, true);
	if (!ret)
		ret = rdma_accept(id, &param);
	if (ret) {
		/* rdma_cm destroys the id when the handler fails */
		rawk_conn_release(c);
		kfree(c);
		return ret;
	}
	mutex_lock(&rawk_conns_lock);
	list_add(&c->node, &rawk_conns);
	mutex_unlock(&rawk_conns_lock);
	return 0;
}

static int rawk_listen_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct rawk_conn *c = id->context;

	switch (ev->event) {
	case RDMA_CM_EVENT_CONNECT_REQUEST:
		return rawk_accept(id, &ev->param.conn);
	case RDMA_CM_EVENT_ESTABLISHED:
		if (rawk_serve(c))
			rdma_disconnect(id);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
		/* events of one id come one at a time */
		if (c && !c->dying) {	/* else the listener's own id */
			c->dying = true;
			queue_work(rawk_wq, &c->free_work);
		}
		break;
	default:
		break;
	}
	return 0;
}

static void rawk_listen_stop(void)
{
	if (rawk_listen_id) {
		rdma_destroy_id(rawk_listen_id);
		rawk_listen_id = NULL;
	}
}

static int rawk_listen_start(u16 port)
{
	struct sockaddr_in sin = {
		.sin_family	= AF_INET,
		.sin_port	= htons(port),
	};
	struct rdma_cm_id *id;
	int ret;

	id = rdma_create_id(&init_net, rawk_listen_handler, NULL, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);
	ret = rdma_bind_addr(id, (struct sockaddr *)&sin);
	if (!ret)
		ret = rdma_listen(id, 8);
	if (ret) {
		rdma_destroy_id(id);
		return ret;
	}
	rawk_listen_id = id;
	return 0;
}

/* ---- the runner ---- */

static void rawk_run_done(struct ib_cq *cq, struct ib_wc *wc);

/* One work request of the run is done (a round trip: its echo came). */
static void rawk_run_slot_done(struct rawk_run *run)
{
	run->ops++;
	/* ops before inflight: the runner reads it once inflight is 0 */
	smp_mb__before_atomic();
	atomic_dec(&run->inflight);
	wake_up(&run->wait);
}

/* A round trip's Send: only its failure matters (the echo counts). */
static void rawk_lat_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rawk_conn *c = cq->cq_context;

	if (wc->status == IB_WC_SUCCESS)
		return;
	rawk_wr_failed(c, wc, "lat send");
	rawk_run_fail(c->run, -EIO);
}

/* Post the work request of the run's slot @slot. */
static int rawk_run_post(struct rawk_conn *c, u32 slot)
{
	struct rawk_run *run = c->run;
	struct ib_cqe *cqe = &run->cqe[slot];
	/* each slot its own part of both buffers, as chunks are */
	u64 off = (u64)(slot % (RAWK_BUF_SIZE / run->size)) * run->size;
	struct ib_sge sge = {
		.lkey	= c->pd->local_dma_lkey,
		.length	= run->size,
	};
	struct ib_rdma_wr wr = {
		.wr.wr_cqe	= cqe,
		.wr.sg_list	= &sge,
		.wr.num_sge	= 1,
		.wr.send_flags	= IB_SEND_SIGNALED,
	};

	cqe->done = rawk_run_done;
	switch (run->test) {
	case RAWK_WRITE:
	case RAWK_READ:
		sge.addr = c->buf_dma + off;
		wr.wr.opcode = run->test == RAWK_WRITE ? IB_WR_RDMA_WRITE :
							 IB_WR_RDMA_READ;
		wr.remote_addr = c->peer_addr + off;
		wr.rkey = c->peer_rkey;
		break;
	case RAWK_SEND:
	case RAWK_LAT:
		sge.addr = c->sbuf_dma;
		wr.wr.opcode = IB_WR_SEND;
		/* a round trip ends with the echo: its Send is not counted */
		if (run->test == RAWK_LAT)
			cqe->done = rawk_lat_send_done;
		break;
	}
	return ib_post_send(c->id->qp, &wr.wr, NULL);
}

static void rawk_run_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rawk_conn *c = cq->cq_context;
	struct rawk_run *run = c->run;

	if (wc->status != IB_WC_SUCCESS) {
		rawk_wr_failed(c, wc, rawk_test_names[run->test]);
		rawk_run_fail(run, -EIO);
		return;
	}
	rawk_run_slot_done(run);
}

static int rawk_runner_event(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct rawk_conn *c = id->context;
	int status;

	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
	case RDMA_CM_EVENT_ESTABLISHED:
		status = 0;
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		/* the QP to error: what is in flight flushes at once */
		rdma_disconnect(id);
		if (c->run)
			rawk_run_fail(c->run, -ECONNRESET);
		status = -ECONNRESET;
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
		status = -ECONNREFUSED;
		break;
	default:
		return 0;
	}
	c->cm_status = status;
	complete(&c->cm_done);
	return 0;
}

static int rawk_cm_wait(struct rawk_conn *c)
{
	if (!wait_for_completion_timeout(&c->cm_done,
					 msecs_to_jiffies(RAWK_TIMEOUT_MS)))
		return -ETIMEDOUT;
	reinit_completion(&c->cm_done);
	return c->cm_status;
}

static int rawk_connect(struct rawk_conn *c, struct sockaddr_in *sin)
{
	struct rdma_conn_param param = {
		.retry_count		= 7,
		.rnr_retry_count	= 7,
	};
	int ret;

	ret = rdma_resolve_addr(c->id, NULL, (struct sockaddr *)sin,
				RAWK_TIMEOUT_MS);
	if (!ret)
		ret = rawk_cm_wait(c);
	if (!ret)
		ret = rdma_resolve_route(c->id, RAWK_TIMEOUT_MS);
	if (!ret)
		ret = rawk_cm_wait(c);
	if (!ret)
		ret = rawk_conn_make(c, false);
	if (ret)
		return ret;
	param.initiator_depth = min_t(u32, RAWK_RD_ATOM,
				      c->id->device->attrs.max_qp_init_rd_atom);
	param.responder_resources = min_t(u32, RAWK_RD_ATOM,
					  c->id->device->attrs.max_qp_rd_atom);
	ret = rdma_connect(c->id, &param);
	if (!ret)
		ret = rawk_cm_wait(c);
	if (!ret &&
	    !wait_for_completion_timeout(&c->hello_done,
					 msecs_to_jiffies(RAWK_TIMEOUT_MS)))
		ret = -ETIMEDOUT;
	return ret;
}

/*
 * The run: this thread posts, as an nfsd thread or an RPC task does,
 * whenever fewer than the run's depth are in flight; the CQ's work item
 * only counts what completed and wakes it.  Then it waits for the last.
 */
static int rawk_run_test(struct rawk_conn *c, struct rawk_run *run,
			 u32 seconds)
{
	u32 slot = 0, depth = run->test == RAWK_LAT ? 1 : run->depth;
	ktime_t t0, end;
	long ret = 1;

	if ((run->test == RAWK_WRITE || run->test == RAWK_READ) &&
	    run->size > c->peer_len)
		return -EINVAL;
	if (run->test == RAWK_SEND || run->test == RAWK_LAT) {
		memset(c->sbuf, 0, run->size);
		*(u8 *)c->sbuf = run->test == RAWK_LAT ? RAWK_MSG_ECHO :
							 RAWK_MSG_SINK;
	}
	init_waitqueue_head(&run->wait);
	c->run = run;
	t0 = ktime_get();
	end = ktime_add_ms(t0, seconds * MSEC_PER_SEC);
	while (!atomic_read(&run->ended) && ktime_before(ktime_get(), end)) {
		ret = wait_event_interruptible_timeout(run->wait,
						       atomic_read(&run->inflight) < depth ||
						       atomic_read(&run->ended),
						       30 * HZ);
		if (ret <= 0)
			break;
		if (atomic_read(&run->ended))
			break;
		/* RC completes in order: the oldest slot is the free one */
		atomic_inc(&run->inflight);
		if (rawk_run_post(c, slot)) {
			atomic_dec(&run->inflight);
			rawk_run_fail(run, -EIO);
			break;
		}
		slot = (slot + 1) % depth;
	}
	if (ret > 0)
		ret = wait_event_interruptible_timeout(run->wait,
						       !atomic_read(&run->inflight) ||
						       atomic_read(&run->ended),
						       30 * HZ);
	if (ret <= 0)
		rawk_run_fail(run, ret ? -EINTR : -ETIMEDOUT);
	spin_lock(&rawk_result_lock);
	snprintf(rawk_result, sizeof(rawk_result), "%s %u %u %llu %llu %lld\n",
		 rawk_test_names[run->test], run->size, depth, run->ops,
		 run->ops * run->size, ktime_us_delta(ktime_get(), t0));
	spin_unlock(&rawk_result_lock);
	return READ_ONCE(run->status);
}

/* "ADDR PORT TEST SIZE DEPTH SECONDS" */
static int rawk_run(const char *line)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	char addr[64], test[16];
	struct rawk_conn *c;
	struct rawk_run *run;
	u32 port, size, depth, secs, t;
	int ret;

	if (sscanf(line, "%63s %u %15s %u %u %u", addr, &port, test, &size,
		   &depth, &secs) != 6)
		return -EINVAL;
	if (!in4_pton(addr, -1, (u8 *)&sin.sin_addr.s_addr, -1, NULL) ||
	    !port || port > 65535 || !depth || depth > RAWK_MAX_DEPTH ||
	    !secs || secs > 600 || !size)
		return -EINVAL;
	sin.sin_port = htons(port);
	for (t = 0; t < ARRAY_SIZE(rawk_test_names); t++)
		if (!strcmp(test, rawk_test_names[t]))
			break;
	if (t == ARRAY_SIZE(rawk_test_names))
		return -EINVAL;
	if (size > (t == RAWK_WRITE || t == RAWK_READ ? RAWK_BUF_SIZE :
							 RAWK_MSG_MAX))
		return -EINVAL;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!c || !run) {
		kfree(c);
		kfree(run);
		return -ENOMEM;
	}
	init_completion(&c->cm_done);
	init_completion(&c->hello_done);
	run->test = t;
	run->size = size;
	run->depth = depth;
	c->id = rdma_create_id(&init_net, rawk_runner_event, c, RDMA_PS_TCP,
			       IB_QPT_RC);
	if (IS_ERR(c->id)) {
		ret = PTR_ERR(c->id);
		kfree(c);
		kfree(run);
		return ret;
	}
	ret = rawk_connect(c, &sin);
	if (!ret)
		ret = rawk_run_test(c, run, secs);
	rdma_disconnect(c->id);
	rawk_conn_destroy(c);		/* drains: no completion is left */
	kfree(run);
	return ret;
}

/* ---- debugfs ---- */

static ssize_t rawk_run_write(struct file *f, const char __user *ubuf,
			      size_t len, loff_t *pos)
{
	char line[160];
	int ret;

	if (len >= sizeof(line))
		return -EINVAL;
	if (copy_from_user(line, ubuf, len))
		return -EFAULT;
	line[len] = '\0';
	if (mutex_lock_interruptible(&rawk_lock))
		return -EINTR;
	ret = rawk_run(line);
	if (ret) {
		spin_lock(&rawk_result_lock);
		snprintf(rawk_result, sizeof(rawk_result), "error %d\n", ret);
		spin_unlock(&rawk_result_lock);
	}
	mutex_unlock(&rawk_lock);
	return ret ? ret : len;
}

static ssize_t rawk_run_read(struct file *f, char __user *ubuf, size_t len,
			     loff_t *pos)
{
	char out[sizeof(rawk_result)];

	spin_lock(&rawk_result_lock);
	strscpy(out, rawk_result, sizeof(out));
	spin_unlock(&rawk_result_lock);
	return simple_read_from_buffer(ubuf, len, pos, out, strlen(out));
}

static const struct file_operations rawk_run_fops = {
	.owner	= THIS_MODULE,
	.read	= rawk_run_read,
	.write	= rawk_run_write,
	.llseek	= default_llseek,
};

static ssize_t rawk_listen_write(struct file *f, const char __user *ubuf,
				 size_t len, loff_t *pos)
{
	u16 port;
	int ret;

	ret = kstrtou16_from_user(ubuf, len, 10, &port);
	if (ret)
		return ret;
	mutex_lock(&rawk_lock);
	rawk_listen_stop();
	if (port)
		ret = rawk_listen_start(port);
	mutex_unlock(&rawk_lock);
	return ret ? ret : len;
}

static const struct file_operations rawk_listen_fops = {
	.owner	= THIS_MODULE,
	.write	= rawk_listen_write,
	.llseek	= default_llseek,
};

static int __init rawk_init(void)
{
	rawk_wq = alloc_workqueue("rr2_rawk", WQ_UNBOUND, 0);
	if (!rawk_wq)
		return -ENOMEM;
	rawk_dir = debugfs_create_dir("rr2_rawk", NULL);
	debugfs_create_file("run", 0600, rawk_dir, NULL, &rawk_run_fops);
	debugfs_create_file("listen", 0200, rawk_dir, NULL,
			    &rawk_listen_fops);
	return 0;
}

static void __exit rawk_exit(void)
{
	struct rawk_conn *c;

	debugfs_remove_recursive(rawk_dir);
	mutex_lock(&rawk_lock);
	rawk_listen_stop();
	mutex_unlock(&rawk_lock);
	/* each connection frees itself once its disconnection is seen */
	mutex_lock(&rawk_conns_lock);
	list_for_each_entry(c, &rawk_conns, node)
		rdma_disconnect(c->id);
	mutex_unlock(&rawk_conns_lock);
	wait_event(rawk_conns_wait, list_empty_careful(&rawk_conns));
	destroy_workqueue(rawk_wq);
}

module_init(rawk_init);
module_exit(rawk_exit);
MODULE_DESCRIPTION("rpcrdma2 benchmark probe: the raw RDMA link from the kernel");
MODULE_LICENSE("GPL");
