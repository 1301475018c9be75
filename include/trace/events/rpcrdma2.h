/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rpcrdma2 trace events: one at each decision an operator may need to
 * see (a connection's life, version settlement, header rejections,
 * chunk choices, credit changes, waits, errors and failed posts), and
 * one at each work request posted and each completion.  Enable with
 *   echo 1 > /sys/kernel/tracing/events/rpcrdma2/enable
 *
 * Every event names the peer; events about an RPC carry its XID.
 * Each class has one DEFINE_RPCRDMA2_*_EVENT() macro for its events.
 *
 * Post and completion events carry a completion ID (struct
 * rpcrdma2_cid, net/shared/ep.h): "cq.id" is the CQ's restrack ID, the
 * one the RDMA core's rdma_core:cq_* events print, and "cid" tells
 * apart the work requests on that CQ.  A post event and the completion
 * of the same work request print the same pair.  Completion status is
 * printed by name.  Documentation/admin-guide.rst, "Tracing one RPC",
 * shows how to follow an RPC with them.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rpcrdma2

#if !defined(_TRACE_RPCRDMA2_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_RPCRDMA2_H

#include <linux/tracepoint.h>
#include <linux/socket.h>
#include <rdma/rdma_cm.h>

#include <linux/unaligned.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_verbs.h>
#include <trace/misc/rdma.h>

#include "shared/codec.h"
#include "shared/ep.h"

/*
 * Every event names the peer: the other end's address and port as the
 * RDMA connection manager sees it (the client's port on the server).
 */
#define RPCRDMA2_PEER_SIZE sizeof(struct sockaddr_in6)

TRACE_EVENT(rpcrdma2_cm_event,
	    TP_PROTO(const void *addr, int event, int status),
	    TP_ARGS(addr, event, status),
	    TP_STRUCT__entry(__sockaddr(addr, RPCRDMA2_PEER_SIZE)
			     __field(int, event)
			     __field(int, status)),
	    TP_fast_assign(__assign_sockaddr(addr, addr, RPCRDMA2_PEER_SIZE);
			   __entry->event = event;
			   __entry->status = status;),
	    TP_printk("peer=%pISpc %s status=%d", __get_sockaddr(addr),
		      rdma_event_msg(__entry->event), __entry->status)
);

/* A failed completion, by kind, where its owner acts on it */
TRACE_EVENT(rpcrdma2_wc_error,
	    TP_PROTO(const struct rpcrdma2_cid *cid, const void *addr,
		     const char *what, int status),
	    TP_ARGS(cid, addr, what, status),
	    TP_STRUCT__entry(__field(u32, cq_id)
			     __field(u32, cid)
			     __sockaddr(addr, RPCRDMA2_PEER_SIZE)
			     __string(what, what)
			     __field(int, status)),
	    TP_fast_assign(__entry->cq_id = cid->cq_id;
			   __entry->cid = cid->id;
			   __assign_sockaddr(addr, addr, RPCRDMA2_PEER_SIZE);
			   __assign_str(what);
			   __entry->status = status;),
	    TP_printk("cq.id=%u cid=%u peer=%pISpc %s completion status=%s (%d)",
		      __entry->cq_id, __entry->cid, __get_sockaddr(addr),
		      __get_str(what), rdma_show_wc_status(__entry->status),
		      __entry->status)
);

/* RDMA devices coming and going (net/shared/dev.c) */
DECLARE_EVENT_CLASS(rpcrdma2_dev_class,
		    TP_PROTO(const char *name),
		    TP_ARGS(name),
		    TP_STRUCT__entry(__string(name, name)),
		    TP_fast_assign(__assign_str(name);),
		    TP_printk("device=%s", __get_str(name))
);

#define DEFINE_RPCRDMA2_DEV_EVENT(ev)					\
	DEFINE_EVENT(rpcrdma2_dev_class, ev,				\
		     TP_PROTO(const char *name), TP_ARGS(name))

DEFINE_RPCRDMA2_DEV_EVENT(rpcrdma2_dev_add);
DEFINE_RPCRDMA2_DEV_EVENT(rpcrdma2_dev_removed);

TRACE_EVENT(rpcrdma2_dev_remove,
	    TP_PROTO(const char *name, unsigned int users),
	    TP_ARGS(name, users),
	    TP_STRUCT__entry(__string(name, name)
			     __field(unsigned int, users)),
	    TP_fast_assign(__assign_str(name);
			   __entry->users = users;),
	    TP_printk("device=%s closing=%u", __get_str(name), __entry->users)
);

/* A listener lost its address or device, or listens again */
TRACE_EVENT(rpcrdma2_svc_listen,
	    TP_PROTO(const void *addr, int status),
	    TP_ARGS(addr, status),
	    TP_STRUCT__entry(__sockaddr(addr, RPCRDMA2_PEER_SIZE)
			     __field(int, status)),
	    TP_fast_assign(__assign_sockaddr(addr, addr, RPCRDMA2_PEER_SIZE);
			   __entry->status = status;),
	    TP_printk("addr=%pISpc status=%d", __get_sockaddr(addr),
		      __entry->status)
);

/* Every received transport header and the codec's verdict on it. */
TRACE_EVENT(rpcrdma2_recv,
	    TP_PROTO(const void *addr, u32 len, int verdict, const struct rpcrdma2_hdr *hdr),
	    TP_ARGS(addr, len, verdict, hdr),
	    TP_STRUCT__entry(__sockaddr(addr, RPCRDMA2_PEER_SIZE)
			     __field(u32, len)
			     __field(int, verdict)
			     __field(u32, xid)
			     __field(u32, vers)
			     __field(u32, credit)
			     __field(u32, htype)
			     __field(u32, flags)),
	    TP_fast_assign(__assign_sockaddr(addr, addr, RPCRDMA2_PEER_SIZE);
			   __entry->len = len;
			   __entry->verdict = verdict;
			   __entry->xid = hdr->xid;
			   __entry->vers = hdr->vers;
			   __entry->credit = hdr->credit;
			   __entry->htype = hdr->htype;
			   __entry->flags = hdr->flags;),
	    TP_printk("peer=%pISpc len=%u verdict=%d xid=0x%08x vers=%u credit=0x%08x htype=%u flags=0x%x",
		      __get_sockaddr(addr), __entry->len, __entry->verdict,
		      __entry->xid, __entry->vers, __entry->credit,
		      __entry->htype, __entry->flags)
);

DECLARE_EVENT_CLASS(rpcrdma2_settled_class,
		    TP_PROTO(const void *addr, u32 vers, u32 send_inline, u32 recv_inline),
		    TP_ARGS(addr, vers, send_inline, recv_inline),
		    TP_STRUCT__entry(__sockaddr(addr, RPCRDMA2_PEER_SIZE)
				     __field(u32, vers)
				     __field(u32, send_inline)
				     __field(u32, recv_inline)),
		    TP_fast_assign(__assign_sockaddr(addr, addr, RPCRDMA2_PEER_SIZE);
				   __entry->vers = vers;
				   __entry->send_inline = send_inline;
				   __entry->recv_inline = recv_inline;),
		    TP_printk("peer=%pISpc version=%u inline send=%u recv=%u",
			      __get_sockaddr(addr), __entry->vers, __entry->send_inline,
			      __entry->recv_inline)
);

#define DEFINE_RPCRDMA2_SETTLED_EVENT(name)				\
	DEFINE_EVENT(rpcrdma2_settled_class, name,			\
		     TP_PROTO(const void *addr, u32 vers,		\
			      u32 send_inline, u32 recv_inline),	\
		     TP_ARGS(addr, vers, send_inline, recv_inline))

/* a client's connection is up and its version settled: connect done */
DEFINE_RPCRDMA2_SETTLED_EVENT(rpcrdma2_clnt_connected);
DEFINE_RPCRDMA2_SETTLED_EVENT(rpcrdma2_svc_settled);

/*
 * Transport operations: a connection's life at either end.  @status is
 * 0 or a negative errno; for rpcrdma2_clnt_connect, the delay in
 * milliseconds before the attempt starts.
 */
DECLARE_EVENT_CLASS(rpcrdma2_xprt_class,
		    TP_PROTO(const void *addr, int status),
		    TP_ARGS(addr, status),
		    TP_STRUCT__entry(__sockaddr(addr, RPCRDMA2_PEER_SIZE)
				     __field(int, status)),
		    TP_fast_assign(__assign_sockaddr(addr, addr, RPCRDMA2_PEER_SIZE);
				   __entry->status = status;),
		    TP_printk("peer=%pISpc status=%d", __get_sockaddr(addr),
			      __entry->status)
);

#define DEFINE_RPCRDMA2_XPRT_EVENT(name)				\
	DEFINE_EVENT(rpcrdma2_xprt_class, name,				\
		     TP_PROTO(const void *addr, int status),		\
		     TP_ARGS(addr, status))

/* client: ->connect (status: delay in ms), its failure, ->close, ->destroy */
DEFINE_RPCRDMA2_XPRT_EVENT(rpcrdma2_clnt_connect);
DEFINE_RPCRDMA2_XPRT_EVENT(rpcrdma2_clnt_connect_failed);
DEFINE_RPCRDMA2_XPRT_EVENT(rpcrdma2_clnt_close);
DEFINE_RPCRDMA2_XPRT_EVENT(rpcrdma2_clnt_destroy);
/* client: a connected endpoint torn down (a close, a reconnect, destroy) */
DEFINE_RPCRDMA2_XPRT_EVENT(rpcrdma2_clnt_disconnect);
/* server: a connection accepted (or not), detached (closed) and freed */
DEFINE_RPCRDMA2_XPRT_EVENT(rpcrdma2_svc_accept);
DEFINE_RPCRDMA2_XPRT_EVENT(rpcrdma2_svc_close);
DEFINE_RPCRDMA2_XPRT_EVENT(rpcrdma2_svc_free);

/* client: the next reconnect waits @delay ms; the one after, @next ms */
TRACE_EVENT(rpcrdma2_clnt_reconnect,
	    TP_PROTO(const void *addr, unsigned long delay, unsigned long next),
	    TP_ARGS(addr, delay, next),
	    TP_STRUCT__entry(__sockaddr(addr, RPCRDMA2_PEER_SIZE)
			     __field(unsigned long, delay)
			     __field(unsigned long, next)),
	    TP_fast_assign(__assign_sockaddr(addr, addr, RPCRDMA2_PEER_SIZE);
			   __entry->delay = delay;
			   __entry->next = next;),
	    TP_printk("peer=%pISpc delay_ms=%lu next_ms=%lu",
		      __get_sockaddr(addr), __entry->delay, __entry->next)
);

TRACE_EVENT(rpcrdma2_clnt_grant,
	    TP_PROTO(const void *peer, u32 xid, u32 vers, u32 grant),
	    TP_ARGS(peer, xid, vers, grant),
	    TP_STRUCT__entry(__sockaddr(peer, RPCRDMA2_PEER_SIZE)
			     __field(u32, xid)
			     __field(u32, vers)
			     __field(u32, grant)),
	    TP_fast_assign(__assign_sockaddr(peer, peer, RPCRDMA2_PEER_SIZE);
			   __entry->xid = xid;
			   __entry->vers = vers;
			   __entry->grant = grant;),
	    TP_printk("peer=%pISpc xid=0x%08x version=%u credits=%u",
		      __get_sockaddr(peer), __entry->xid, __entry->vers,
		      __entry->grant)
);

/* An RDMA2_ERROR or RDMA_ERROR received (client) or sent (server). */
DECLARE_EVENT_CLASS(rpcrdma2_error_class,
		    TP_PROTO(const void *peer, u32 xid, u32 vers, u32 err),
		    TP_ARGS(peer, xid, vers, err),
		    TP_STRUCT__entry(__sockaddr(peer, RPCRDMA2_PEER_SIZE)
				     __field(u32, xid)
				     __field(u32, vers)
				     __field(u32, err)),
		    TP_fast_assign(__assign_sockaddr(peer, peer, RPCRDMA2_PEER_SIZE);
				   __entry->xid = xid;
				   __entry->vers = vers;
				   __entry->err = err;),
		    TP_printk("peer=%pISpc xid=0x%08x version=%u error=%u",
			      __get_sockaddr(peer), __entry->xid,
			      __entry->vers, __entry->err)
);

#define DEFINE_RPCRDMA2_ERROR_EVENT(name)				\
	DEFINE_EVENT(rpcrdma2_error_class, name,			\
		     TP_PROTO(const void *peer, u32 xid, u32 vers,	\
			      u32 err),					\
		     TP_ARGS(peer, xid, vers, err))

DEFINE_RPCRDMA2_ERROR_EVENT(rpcrdma2_clnt_error);
DEFINE_RPCRDMA2_ERROR_EVENT(rpcrdma2_svc_error);
/* the client answered a message with an error (V2-ERR-21, V2-RDIR-15) */
DEFINE_RPCRDMA2_ERROR_EVENT(rpcrdma2_clnt_error_sent);

/*
 * An RPC message sent: the Sends it took and its length.  The last
 * Send's rpcrdma2_post_send has the same xid and peer, and its cq.id
 * and cid.
 */
DECLARE_EVENT_CLASS(rpcrdma2_msg_class,
		    TP_PROTO(const void *peer, u32 xid, u32 vers, u32 nmsgs,
			     u32 len),
		    TP_ARGS(peer, xid, vers, nmsgs, len),
		    TP_STRUCT__entry(__sockaddr(peer, RPCRDMA2_PEER_SIZE)
				     __field(u32, xid)
				     __field(u32, vers)
				     __field(u32, nmsgs)
				     __field(u32, len)),
		    TP_fast_assign(__assign_sockaddr(peer, peer, RPCRDMA2_PEER_SIZE);
				   __entry->xid = xid;
				   __entry->vers = vers;
				   __entry->nmsgs = nmsgs;
				   __entry->len = len;),
		    TP_printk("peer=%pISpc xid=0x%08x version=%u sends=%u rpc_len=%u",
			      __get_sockaddr(peer), __entry->xid,
			      __entry->vers, __entry->nmsgs, __entry->len)
);

#define DEFINE_RPCRDMA2_MSG_EVENT(name)					\
	DEFINE_EVENT(rpcrdma2_msg_class, name,				\
		     TP_PROTO(const void *peer, u32 xid, u32 vers,	\
			      u32 nmsgs, u32 len),			\
		     TP_ARGS(peer, xid, vers, nmsgs, len))

DEFINE_RPCRDMA2_MSG_EVENT(rpcrdma2_clnt_call);
DEFINE_RPCRDMA2_MSG_EVENT(rpcrdma2_clnt_too_big);
/* a Call taken off the transmit queue after some of its Sends went out */
DEFINE_RPCRDMA2_MSG_EVENT(rpcrdma2_clnt_abandon);
DEFINE_RPCRDMA2_MSG_EVENT(rpcrdma2_svc_reply);
/* backchannel: the client's Reply to a reverse Call, the server's Call */
DEFINE_RPCRDMA2_MSG_EVENT(rpcrdma2_clnt_bc_reply);
DEFINE_RPCRDMA2_MSG_EVENT(rpcrdma2_svc_bc_call);

/*
 * Backchannel messages received: a reverse Call at the client (@status
 * -ENOBUFS: no callback slot, dropped), a Reply to one at the server
 * (-ESRCH: it matches no Call, dropped).
 */
DECLARE_EVENT_CLASS(rpcrdma2_bc_recv_class,
		    TP_PROTO(const void *peer, u32 xid, u32 len, int status),
		    TP_ARGS(peer, xid, len, status),
		    TP_STRUCT__entry(__sockaddr(peer, RPCRDMA2_PEER_SIZE)
				     __field(u32, xid)
				     __field(u32, len)
				     __field(int, status)),
		    TP_fast_assign(__assign_sockaddr(peer, peer, RPCRDMA2_PEER_SIZE);
				   __entry->xid = xid;
				   __entry->len = len;
				   __entry->status = status;),
		    TP_printk("peer=%pISpc xid=0x%08x rpc_len=%u status=%d",
			      __get_sockaddr(peer), __entry->xid,
			      __entry->len, __entry->status)
);

#define DEFINE_RPCRDMA2_BC_RECV_EVENT(name)				\
	DEFINE_EVENT(rpcrdma2_bc_recv_class, name,			\
		     TP_PROTO(const void *peer, u32 xid, u32 len,	\
			      int status),				\
		     TP_ARGS(peer, xid, len, status))

DEFINE_RPCRDMA2_BC_RECV_EVENT(rpcrdma2_clnt_bc_call);
DEFINE_RPCRDMA2_BC_RECV_EVENT(rpcrdma2_svc_bc_reply);

/*
 * A continued message of the server's failed after @sent of its @nmsgs
 * Sends: the @dropped control messages held for its end are not sent
 * (V2-CONT-03), and the connection closes.
 */
TRACE_EVENT(rpcrdma2_svc_seq_abort,
	    TP_PROTO(const void *peer, u32 xid, u32 sent, u32 nmsgs, u32 dropped),
	    TP_ARGS(peer, xid, sent, nmsgs, dropped),
	    TP_STRUCT__entry(__sockaddr(peer, RPCRDMA2_PEER_SIZE)
			     __field(u32, xid)
			     __field(u32, sent)
			     __field(u32, nmsgs)
			     __field(u32, dropped)),
	    TP_fast_assign(__assign_sockaddr(peer, peer, RPCRDMA2_PEER_SIZE);
			   __entry->xid = xid;
			   __entry->sent = sent;
			   __entry->nmsgs = nmsgs;
			   __entry->dropped = dropped;),
	    TP_printk("peer=%pISpc xid=0x%08x cut=%u of sends=%u held_dropped=%u",
		      __get_sockaddr(peer), __entry->xid, __entry->sent, __entry->nmsgs,
		      __entry->dropped)
);

/*
 * The backward credits a client's reverse Reply granted (BC1-CRED-04),
 * and the reverse Calls the server may now have outstanding.
 */
TRACE_EVENT(rpcrdma2_svc_bc_grant,
	    TP_PROTO(const void *peer, u32 xid, u32 grant, u32 window),
	    TP_ARGS(peer, xid, grant, window),
	    TP_STRUCT__entry(__sockaddr(peer, RPCRDMA2_PEER_SIZE)
			     __field(u32, xid)
			     __field(u32, grant)
			     __field(u32, window)),
	    TP_fast_assign(__assign_sockaddr(peer, peer, RPCRDMA2_PEER_SIZE);
			   __entry->xid = xid;
			   __entry->grant = grant;
			   __entry->window = window;),
	    TP_printk("peer=%pISpc xid=0x%08x granted=%u window=%u",
		      __get_sockaddr(peer), __entry->xid,
		      __entry->grant, __entry->window)
);

TRACE_EVENT(rpcrdma2_svc_grant,
	    TP_PROTO(const void *peer, u32 old, u32 grant),
	    TP_ARGS(peer, old, grant),
	    TP_STRUCT__entry(__sockaddr(peer, RPCRDMA2_PEER_SIZE)
			     __field(u32, old)
			     __field(u32, grant)),
	    TP_fast_assign(__assign_sockaddr(peer, peer, RPCRDMA2_PEER_SIZE);
			   __entry->old = old;
			   __entry->grant = grant;),
	    TP_printk("peer=%pISpc client ran dry at %u credits: asynchronous grant of %u",
		      __get_sockaddr(peer), __entry->old, __entry->grant)
);

/* Server: one batch of RDMA Reads (a Call's Read chunks) or Writes. */
TRACE_EVENT(rpcrdma2_svc_rw,
	    TP_PROTO(const struct rpcrdma2_cid *cid, const void *addr, u32 xid,
		     int dir, u32 nctxs, u32 nwrs, int status),
	    TP_ARGS(cid, addr, xid, dir, nctxs, nwrs, status),
	    TP_STRUCT__entry(__field(u32, cq_id)
			     __field(u32, cid)
			     __sockaddr(addr, RPCRDMA2_PEER_SIZE)
			     __field(u32, xid)
			     __field(int, dir)
			     __field(u32, nctxs)
			     __field(u32, nwrs)
			     __field(int, status)),
	    TP_fast_assign(__entry->cq_id = cid->cq_id;
			   __entry->cid = cid->id;
			   __assign_sockaddr(addr, addr, RPCRDMA2_PEER_SIZE);
			   __entry->xid = xid;
			   __entry->dir = dir;
			   __entry->nctxs = nctxs;
			   __entry->nwrs = nwrs;
			   __entry->status = status;),
	    TP_printk("cq.id=%u cid=%u peer=%pISpc xid=0x%08x %s segments=%u wrs=%u status=%d",
		      __entry->cq_id, __entry->cid, __get_sockaddr(addr),
		      __entry->xid,
		      __entry->dir == DMA_FROM_DEVICE ? "read" : "write",
		      __entry->nctxs, __entry->nwrs, __entry->status)
);

/* Server: how a Call's chunks were used. */
TRACE_EVENT(rpcrdma2_svc_chunks,
	    TP_PROTO(const void *peer, u32 xid, u32 reads, u32 writes, bool reply,
		     u32 pulled),
	    TP_ARGS(peer, xid, reads, writes, reply, pulled),
	    TP_STRUCT__entry(__sockaddr(peer, RPCRDMA2_PEER_SIZE)
			     __field(u32, xid)
			     __field(u32, reads)
			     __field(u32, writes)
			     __field(bool, reply)
			     __field(u32, pulled)),
	    TP_fast_assign(__assign_sockaddr(peer, peer, RPCRDMA2_PEER_SIZE);
			   __entry->xid = xid;
			   __entry->reads = reads;
			   __entry->writes = writes;
			   __entry->reply = reply;
			   __entry->pulled = pulled;),
	    TP_printk("peer=%pISpc xid=0x%08x read_segments=%u write_chunks=%u reply_chunk=%d pulled=%u",
		      __get_sockaddr(peer), __entry->xid, __entry->reads, __entry->writes,
		      __entry->reply, __entry->pulled)
);

/* Server: how a Reply went (format, octets written, invalidation). */
TRACE_EVENT(rpcrdma2_svc_reply_chunks,
	    TP_PROTO(const void *peer, u32 xid, const char *format, u32 written,
		     u32 inv_rkey),
	    TP_ARGS(peer, xid, format, written, inv_rkey),
	    TP_STRUCT__entry(__sockaddr(peer, RPCRDMA2_PEER_SIZE)
			     __field(u32, xid)
			     __string(format, format)
			     __field(u32, written)
			     __field(u32, inv_rkey)),
	    TP_fast_assign(__assign_sockaddr(peer, peer, RPCRDMA2_PEER_SIZE);
			   __entry->xid = xid;
			   __assign_str(format);
			   __entry->written = written;
			   __entry->inv_rkey = inv_rkey;),
	    TP_printk("peer=%pISpc xid=0x%08x %s rdma_written=%u inv_rkey=0x%08x",
		      __get_sockaddr(peer), __entry->xid, __get_str(format), __entry->written,
		      __entry->inv_rkey)
);

/*
 * The client's per-RPC format decision (net/client/marshal.c): Call
 * side none/read/pzrc, Reply side none/write/reply, and the segments.
 */
TRACE_EVENT(rpcrdma2_clnt_chunks,
	    TP_PROTO(const void *peer, u32 xid, u32 vers, const char *call,
		     const char *reply, u32 nsegs, u32 len),
	    TP_ARGS(peer, xid, vers, call, reply, nsegs, len),
	    TP_STRUCT__entry(__sockaddr(peer, RPCRDMA2_PEER_SIZE)
			     __field(u32, xid)
			     __field(u32, vers)
			     __string(call, call)
			     __string(reply, reply)
			     __field(u32, nsegs)
			     __field(u32, len)),
	    TP_fast_assign(__assign_sockaddr(peer, peer, RPCRDMA2_PEER_SIZE);
			   __entry->xid = xid;
			   __entry->vers = vers;
			   __assign_str(call);
			   __assign_str(reply);
			   __entry->nsegs = nsegs;
			   __entry->len = len;),
	    TP_printk("peer=%pISpc xid=0x%08x version=%u call=%s reply=%s segments=%u rpc_len=%u",
		      __get_sockaddr(peer), __entry->xid, __entry->vers, __get_str(call),
		      __get_str(reply), __entry->nsegs, __entry->len)
);

/* MR registration and invalidation (net/client/frwr.c) */
TRACE_EVENT(rpcrdma2_clnt_mr,
	    TP_PROTO(const struct rpcrdma2_cid *cid, const void *peer, u32 xid,
		     u32 handle, const char *what, u32 len),
	    TP_ARGS(cid, peer, xid, handle, what, len),
	    TP_STRUCT__entry(__field(u32, cq_id)
			     __field(u32, cid)
			     __sockaddr(peer, RPCRDMA2_PEER_SIZE)
			     __field(u32, xid)
			     __field(u32, handle)
			     __string(what, what)
			     __field(u32, len)),
	    TP_fast_assign(__entry->cq_id = cid->cq_id;
			   __entry->cid = cid->id;
			   __assign_sockaddr(peer, peer, RPCRDMA2_PEER_SIZE);
			   __entry->xid = xid;
			   __entry->handle = handle;
			   __assign_str(what);
			   __entry->len = len;),
	    TP_printk("cq.id=%u cid=%u peer=%pISpc xid=0x%08x handle=0x%08x %s length=%u",
		      __entry->cq_id, __entry->cid, __get_sockaddr(peer),
		      __entry->xid, __entry->handle, __get_str(what),
		      __entry->len)
);

/*
 * The client's MR pool: MRs now (@nr), free (@nfree) and its cap.
 * rpcrdma2_clnt_mr_pool: it grew or was made; rpcrdma2_clnt_mr_exhausted:
 * a Call's chunks found no free MR (the Call waits; growth starts if
 * below the cap); rpcrdma2_clnt_mr_reset: every MR deregistered with
 * its connection, quarantined ones (a failed or flushed REG_MR or
 * LOCAL_INV) recovered that way (@nfree: how many were).
 */
DECLARE_EVENT_CLASS(rpcrdma2_mr_pool_class,
		    TP_PROTO(const void *addr, u32 xid, u32 nr, u32 nfree,
			     u32 cap),
		    TP_ARGS(addr, xid, nr, nfree, cap),
		    TP_STRUCT__entry(__sockaddr(addr, RPCRDMA2_PEER_SIZE)
				     __field(u32, xid)
				     __field(u32, nr)
				     __field(u32, nfree)
				     __field(u32, cap)),
		    TP_fast_assign(__assign_sockaddr(addr, addr, RPCRDMA2_PEER_SIZE);
				   __entry->xid = xid;
				   __entry->nr = nr;
				   __entry->nfree = nfree;
				   __entry->cap = cap;),
		    TP_printk("peer=%pISpc xid=0x%08x mrs=%u free=%u cap=%u",
			      __get_sockaddr(addr), __entry->xid, __entry->nr,
			      __entry->nfree, __entry->cap)
);

#define DEFINE_RPCRDMA2_MR_POOL_EVENT(name)				\
	DEFINE_EVENT(rpcrdma2_mr_pool_class, name,			\
		     TP_PROTO(const void *addr, u32 xid, u32 nr,	\
			      u32 nfree, u32 cap),			\
		     TP_ARGS(addr, xid, nr, nfree, cap))

DEFINE_RPCRDMA2_MR_POOL_EVENT(rpcrdma2_clnt_mr_pool);
DEFINE_RPCRDMA2_MR_POOL_EVENT(rpcrdma2_clnt_mr_exhausted);
DEFINE_RPCRDMA2_MR_POOL_EVENT(rpcrdma2_clnt_mr_reset);

/* A Reply whose chunks contradict what the Call offered */
TRACE_EVENT(rpcrdma2_clnt_bad_chunks,
	    TP_PROTO(const void *peer, u32 xid, int status),
	    TP_ARGS(peer, xid, status),
	    TP_STRUCT__entry(__sockaddr(peer, RPCRDMA2_PEER_SIZE)
			     __field(u32, xid)
			     __field(int, status)),
	    TP_fast_assign(__assign_sockaddr(peer, peer, RPCRDMA2_PEER_SIZE);
			   __entry->xid = xid;
			   __entry->status = status;),
	    TP_printk("peer=%pISpc xid=0x%08x status=%d", __get_sockaddr(peer),
		      __entry->xid, __entry->status)
);

/*
 * Decisions on the way to a post, with the reason: a Call waiting for
 * room (Send buffers, the continuation window, MRs) before it is tried
 * again, a Reply waiting for a Send buffer, chunks that need more
 * segments than the connection allows.  @what says which; @n is the
 * Send about to go out (counted from 1) or the segments wanted.
 */
DECLARE_EVENT_CLASS(rpcrdma2_wait_class,
		    TP_PROTO(const void *peer, u32 xid, const char *what, u32 n),
		    TP_ARGS(peer, xid, what, n),
		    TP_STRUCT__entry(__sockaddr(peer, RPCRDMA2_PEER_SIZE)
				     __field(u32, xid)
				     __string(what, what)
				     __field(u32, n)),
		    TP_fast_assign(__assign_sockaddr(peer, peer, RPCRDMA2_PEER_SIZE);
				   __entry->xid = xid;
				   __assign_str(what);
				   __entry->n = n;),
		    TP_printk("peer=%pISpc xid=0x%08x %s n=%u",
			      __get_sockaddr(peer), __entry->xid,
			      __get_str(what), __entry->n)
);

#define DEFINE_RPCRDMA2_WAIT_EVENT(name)				\
	DEFINE_EVENT(rpcrdma2_wait_class, name,				\
		     TP_PROTO(const void *peer, u32 xid,		\
			      const char *what, u32 n),			\
		     TP_ARGS(peer, xid, what, n))

DEFINE_RPCRDMA2_WAIT_EVENT(rpcrdma2_clnt_wait);
DEFINE_RPCRDMA2_WAIT_EVENT(rpcrdma2_svc_wait);
/* a Reply's wait ended without a Send buffer: the connection closes */
DEFINE_RPCRDMA2_WAIT_EVENT(rpcrdma2_svc_wait_timeout);
DEFINE_RPCRDMA2_WAIT_EVENT(rpcrdma2_clnt_too_many_segs);
/* a server's RDMA Read or Write needs more SGEs than it may use */
DEFINE_RPCRDMA2_WAIT_EVENT(rpcrdma2_svc_too_many_sges);

/*
 * Local memory that could not be DMA-mapped or described to the device
 * (@what: which buffer), with its length and the errno.
 */
TRACE_EVENT(rpcrdma2_dma_map_err,
	    TP_PROTO(const void *peer, u32 xid, const char *what, u32 len,
		     int status),
	    TP_ARGS(peer, xid, what, len, status),
	    TP_STRUCT__entry(__sockaddr(peer, RPCRDMA2_PEER_SIZE)
			     __field(u32, xid)
			     __string(what, what)
			     __field(u32, len)
			     __field(int, status)),
	    TP_fast_assign(__assign_sockaddr(peer, peer, RPCRDMA2_PEER_SIZE);
			   __entry->xid = xid;
			   __assign_str(what);
			   __entry->len = len;
			   __entry->status = status;),
	    TP_printk("peer=%pISpc xid=0x%08x %s len=%u status=%d",
		      __get_sockaddr(peer), __entry->xid, __get_str(what),
		      __entry->len, __entry->status)
);

/*
 * The seed 004 characteristics exchange (net/shared/xch.c): an
 * operation sent or received, and the peer refusing the exchange
 * (INVAL_HTYPE, XCH-XOP-11) under the xid of the operation refused.
 */
DECLARE_EVENT_CLASS(rpcrdma2_xch_class,
		    TP_PROTO(const void *addr, u32 htype, u32 xid),
		    TP_ARGS(addr, htype, xid),
		    TP_STRUCT__entry(__sockaddr(addr, RPCRDMA2_PEER_SIZE)
				     __field(u32, htype)
				     __field(u32, xid)),
		    TP_fast_assign(__assign_sockaddr(addr, addr, RPCRDMA2_PEER_SIZE);
				   __entry->htype = htype;
				   __entry->xid = xid;),
		    TP_printk("peer=%pISpc op=%s xid=0x%08x", __get_sockaddr(addr),
			      __print_symbolic(__entry->htype,
					       { RDMA2_XCH_INITXCH, "INITXCH" },
					       { RDMA2_XCH_REQXCH, "REQXCH" },
					       { RDMA2_XCH_RESPXCH, "RESPXCH" },
					       { RDMA2_XCH_UPDXCH, "UPDXCH" }),
			      __entry->xid)
);

#define DEFINE_RPCRDMA2_XCH_EVENT(name)					\
	DEFINE_EVENT(rpcrdma2_xch_class, name,				\
		     TP_PROTO(const void *addr, u32 htype, u32 xid),	\
		     TP_ARGS(addr, htype, xid))

DEFINE_RPCRDMA2_XCH_EVENT(rpcrdma2_xch_sent);
DEFINE_RPCRDMA2_XCH_EVENT(rpcrdma2_xch_received);
DEFINE_RPCRDMA2_XCH_EVENT(rpcrdma2_xch_refused);

/* What the exchange changed on the connection. */
TRACE_EVENT(rpcrdma2_xch_applied,
	    TP_PROTO(const void *addr, u32 send_inline, u32 recv_inline, u32 brs,
		     bool no_reminv),
	    TP_ARGS(addr, send_inline, recv_inline, brs, no_reminv),
	    TP_STRUCT__entry(__sockaddr(addr, RPCRDMA2_PEER_SIZE)
			     __field(u32, send_inline)
			     __field(u32, recv_inline)
			     __field(u32, brs)
			     __field(bool, no_reminv)),
	    TP_fast_assign(__assign_sockaddr(addr, addr, RPCRDMA2_PEER_SIZE);
			   __entry->send_inline = send_inline;
			   __entry->recv_inline = recv_inline;
			   __entry->brs = brs;
			   __entry->no_reminv = no_reminv;),
	    TP_printk("peer=%pISpc inline send=%u recv=%u peer_brs=%u remote_inv=%s",
		      __get_sockaddr(addr), __entry->send_inline,
		      __entry->recv_inline, __entry->brs,
		      __entry->no_reminv ? "off" : "per-call")
);

/*
 * A closed connection's cm_id parked while its port is down (parked=1),
 * and destroyed, with its DREQ, once the port is back or the wait is
 * over (parked=0).
 */
TRACE_EVENT(rpcrdma2_svc_park,
	    TP_PROTO(const void *addr, bool parked),
	    TP_ARGS(addr, parked),
	    TP_STRUCT__entry(__sockaddr(addr, RPCRDMA2_PEER_SIZE)
			     __field(bool, parked)),
	    TP_fast_assign(__assign_sockaddr(addr, addr, RPCRDMA2_PEER_SIZE);
			   __entry->parked = parked;),
	    TP_printk("peer=%pISpc %s", __get_sockaddr(addr),
		      __entry->parked ? "parked: port down, no DREQ yet" :
		      "destroyed")
);

/*
 * V2-PROP-09: a peer's HOSTAUTH property, as received: its length and
 * up to its first 32 octets.  rpcrdma2 checks nothing in it.
 */
TRACE_EVENT(rpcrdma2_hostauth,
	    TP_PROTO(const void *addr, u32 len, const u8 *material),
	    TP_ARGS(addr, len, material),
	    TP_STRUCT__entry(__sockaddr(addr, RPCRDMA2_PEER_SIZE)
			     __field(u32, len)
			     __dynamic_array(u8, head, min_t(u32, len, 32))),
	    TP_fast_assign(__assign_sockaddr(addr, addr, RPCRDMA2_PEER_SIZE);
			   __entry->len = len;
			   memcpy(__get_dynamic_array(head), material,
				  __get_dynamic_array_len(head));),
	    TP_printk("peer=%pISpc len=%u head=%s", __get_sockaddr(addr),
		      __entry->len,
		      __print_hex(__get_dynamic_array(head),
				  __get_dynamic_array_len(head)))
);

/*
 * Work requests and their completions.  The fast-path events take the
 * context and do every dereference in TP_fast_assign, so that nothing
 * is loaded while the event is off.  An XID is the first word of every
 * transport header, the same in both versions; 0 where there is none.
 */

/* The peer of an endpoint: the cm_id's destination, either role. */
#define rpcrdma2_ep_peer(ep) (&(ep)->id->route.addr.dst_addr)

TRACE_EVENT(rpcrdma2_post_send,
	    TP_PROTO(const struct rpcrdma2_send *sd),
	    TP_ARGS(sd),
	    TP_STRUCT__entry(__field(u32, cq_id)
			     __field(u32, cid)
			     __sockaddr(peer, RPCRDMA2_PEER_SIZE)
			     __field(u32, xid)
			     __field(u32, len)
			     __field(u32, inv_rkey)
			     __field(bool, signaled)),
	    TP_fast_assign(__entry->cq_id = sd->cid.cq_id;
			   __entry->cid = sd->cid.id;
			   __assign_sockaddr(peer, rpcrdma2_ep_peer(sd->ep),
					     RPCRDMA2_PEER_SIZE);
			   __entry->xid = get_unaligned_be32(sd->buf);
			   __entry->len = sd->sge.length;
			   __entry->inv_rkey = sd->wr.opcode == IB_WR_SEND_WITH_INV ?
					       sd->wr.ex.invalidate_rkey : 0;
			   __entry->signaled = sd->wr.send_flags & IB_SEND_SIGNALED;),
	    TP_printk("cq.id=%u cid=%u peer=%pISpc xid=0x%08x len=%u inv_rkey=0x%08x%s",
		      __entry->cq_id, __entry->cid, __get_sockaddr(peer),
		      __entry->xid, __entry->len, __entry->inv_rkey,
		      __entry->signaled ? "" : " unsignaled")
);

TRACE_EVENT(rpcrdma2_send_done,
	    TP_PROTO(const struct rpcrdma2_send *sd, const struct ib_wc *wc),
	    TP_ARGS(sd, wc),
	    TP_STRUCT__entry(__field(u32, cq_id)
			     __field(u32, cid)
			     __sockaddr(peer, RPCRDMA2_PEER_SIZE)
			     __field(u32, xid)
			     __field(unsigned int, status)
			     __field(u32, vendor_err)
			     __field(bool, implied)),
	    TP_fast_assign(__entry->cq_id = sd->cid.cq_id;
			   __entry->cid = sd->cid.id;
			   __assign_sockaddr(peer, rpcrdma2_ep_peer(sd->ep),
					     RPCRDMA2_PEER_SIZE);
			   __entry->xid = get_unaligned_be32(sd->buf);
			   __entry->status = wc ? wc->status : IB_WC_SUCCESS;
			   __entry->vendor_err = wc && wc->status ?
						 wc->vendor_err : 0;
			   __entry->implied = !wc;),
	    TP_printk("cq.id=%u cid=%u peer=%pISpc xid=0x%08x status=%s (%u/0x%x)%s",
		      __entry->cq_id, __entry->cid, __get_sockaddr(peer),
		      __entry->xid, rdma_show_wc_status(__entry->status),
		      __entry->status, __entry->vendor_err,
		      __entry->implied ? " unsignaled" : "")
);

TRACE_EVENT(rpcrdma2_post_recv,
	    TP_PROTO(const struct rpcrdma2_recv *rv),
	    TP_ARGS(rv),
	    TP_STRUCT__entry(__field(u32, cq_id)
			     __field(u32, cid)
			     __sockaddr(peer, RPCRDMA2_PEER_SIZE)
			     __field(u32, size)),
	    TP_fast_assign(__entry->cq_id = rv->cid.cq_id;
			   __entry->cid = rv->cid.id;
			   __assign_sockaddr(peer, rpcrdma2_ep_peer(rv->ep),
					     RPCRDMA2_PEER_SIZE);
			   __entry->size = rv->ep->attr.recv_size;),
	    TP_printk("cq.id=%u cid=%u peer=%pISpc size=%u",
		      __entry->cq_id, __entry->cid, __get_sockaddr(peer),
		      __entry->size)
);

/* The caller has made the first word of a received message visible. */
TRACE_EVENT(rpcrdma2_recv_done,
	    TP_PROTO(const struct rpcrdma2_recv *rv, const struct ib_wc *wc),
	    TP_ARGS(rv, wc),
	    TP_STRUCT__entry(__field(u32, cq_id)
			     __field(u32, cid)
			     __sockaddr(peer, RPCRDMA2_PEER_SIZE)
			     __field(u32, xid)
			     __field(u32, len)
			     __field(u32, inv_rkey)
			     __field(unsigned int, status)
			     __field(u32, vendor_err)),
	    TP_fast_assign(__entry->cq_id = rv->cid.cq_id;
			   __entry->cid = rv->cid.id;
			   __assign_sockaddr(peer, rpcrdma2_ep_peer(rv->ep),
					     RPCRDMA2_PEER_SIZE);
			   __entry->status = wc->status;
			   __entry->len = wc->status ? 0 : wc->byte_len;
			   __entry->xid = __entry->len >= 4 ?
					  get_unaligned_be32(rv->buf) : 0;
			   __entry->inv_rkey = !wc->status &&
					       (wc->wc_flags & IB_WC_WITH_INVALIDATE) ?
					       wc->ex.invalidate_rkey : 0;
			   __entry->vendor_err = wc->status ? wc->vendor_err : 0;),
	    TP_printk("cq.id=%u cid=%u peer=%pISpc xid=0x%08x len=%u inv_rkey=0x%08x status=%s (%u/0x%x)",
		      __entry->cq_id, __entry->cid, __get_sockaddr(peer),
		      __entry->xid, __entry->len, __entry->inv_rkey,
		      rdma_show_wc_status(__entry->status), __entry->status,
		      __entry->vendor_err)
);

/*
 * A post the device refused (ib_post_send, ib_post_recv): the work
 * request's completion ID and the errno.  A refused Send, or one after
 * it in the same chain, never completes.
 */
TRACE_EVENT(rpcrdma2_post_send_err,
	    TP_PROTO(const struct rpcrdma2_send *sd, int status),
	    TP_ARGS(sd, status),
	    TP_STRUCT__entry(__field(u32, cq_id)
			     __field(u32, cid)
			     __sockaddr(peer, RPCRDMA2_PEER_SIZE)
			     __field(u32, xid)
			     __field(int, status)),
	    TP_fast_assign(__entry->cq_id = sd->cid.cq_id;
			   __entry->cid = sd->cid.id;
			   __assign_sockaddr(peer, rpcrdma2_ep_peer(sd->ep),
					     RPCRDMA2_PEER_SIZE);
			   __entry->xid = get_unaligned_be32(sd->buf);
			   __entry->status = status;),
	    TP_printk("cq.id=%u cid=%u peer=%pISpc xid=0x%08x status=%d",
		      __entry->cq_id, __entry->cid, __get_sockaddr(peer),
		      __entry->xid, __entry->status)
);

TRACE_EVENT(rpcrdma2_post_recv_err,
	    TP_PROTO(const struct rpcrdma2_recv *rv, int status),
	    TP_ARGS(rv, status),
	    TP_STRUCT__entry(__field(u32, cq_id)
			     __field(u32, cid)
			     __sockaddr(peer, RPCRDMA2_PEER_SIZE)
			     __field(int, status)),
	    TP_fast_assign(__entry->cq_id = rv->cid.cq_id;
			   __entry->cid = rv->cid.id;
			   __assign_sockaddr(peer, rpcrdma2_ep_peer(rv->ep),
					     RPCRDMA2_PEER_SIZE);
			   __entry->status = status;),
	    TP_printk("cq.id=%u cid=%u peer=%pISpc status=%d",
		      __entry->cq_id, __entry->cid, __get_sockaddr(peer),
		      __entry->status)
);

/*
 * The client copies what follows an RPC message's head into its Send
 * buffers (pull-up): @pulled of the message's @len octets.
 */
TRACE_EVENT(rpcrdma2_clnt_pullup,
	    TP_PROTO(const void *peer, u32 xid, u32 len, u32 pulled),
	    TP_ARGS(peer, xid, len, pulled),
	    TP_STRUCT__entry(__sockaddr(peer, RPCRDMA2_PEER_SIZE)
			     __field(u32, xid)
			     __field(u32, len)
			     __field(u32, pulled)),
	    TP_fast_assign(__assign_sockaddr(peer, peer, RPCRDMA2_PEER_SIZE);
			   __entry->xid = xid;
			   __entry->len = len;
			   __entry->pulled = pulled;),
	    TP_printk("peer=%pISpc xid=0x%08x rpc_len=%u pulled=%u",
		      __get_sockaddr(peer), __entry->xid, __entry->len,
		      __entry->pulled)
);

/* The completion of an RDMA Read or Write batch, a REG_MR or a LOCAL_INV */
DECLARE_EVENT_CLASS(rpcrdma2_done_class,
		    TP_PROTO(const struct rpcrdma2_cid *cid, const void *peer,
			     u32 xid, const struct ib_wc *wc),
		    TP_ARGS(cid, peer, xid, wc),
		    TP_STRUCT__entry(__field(u32, cq_id)
				     __field(u32, cid)
				     __sockaddr(peer, RPCRDMA2_PEER_SIZE)
				     __field(u32, xid)
				     __field(unsigned int, status)
				     __field(u32, vendor_err)),
		    TP_fast_assign(__entry->cq_id = cid->cq_id;
				   __entry->cid = cid->id;
				   __assign_sockaddr(peer, peer,
						     RPCRDMA2_PEER_SIZE);
				   __entry->xid = xid;
				   __entry->status = wc->status;
				   __entry->vendor_err = wc->status ?
							 wc->vendor_err : 0;),
		    TP_printk("cq.id=%u cid=%u peer=%pISpc xid=0x%08x status=%s (%u/0x%x)",
			      __entry->cq_id, __entry->cid, __get_sockaddr(peer),
			      __entry->xid, rdma_show_wc_status(__entry->status),
			      __entry->status, __entry->vendor_err)
);

#define DEFINE_RPCRDMA2_DONE_EVENT(name)				\
	DEFINE_EVENT(rpcrdma2_done_class, name,				\
		     TP_PROTO(const struct rpcrdma2_cid *cid,		\
			      const void *peer, u32 xid,		\
			      const struct ib_wc *wc),			\
		     TP_ARGS(cid, peer, xid, wc))

/* Server: a batch of RDMA Reads or Writes (net/server/rw.c) */
DECLARE_EVENT_CLASS(rpcrdma2_rw_post_class,
		    TP_PROTO(const struct rpcrdma2_cid *cid, const void *peer,
			     u32 xid, u32 nctxs, u32 nwrs),
		    TP_ARGS(cid, peer, xid, nctxs, nwrs),
		    TP_STRUCT__entry(__field(u32, cq_id)
				     __field(u32, cid)
				     __sockaddr(peer, RPCRDMA2_PEER_SIZE)
				     __field(u32, xid)
				     __field(u32, nctxs)
				     __field(u32, nwrs)),
		    TP_fast_assign(__entry->cq_id = cid->cq_id;
				   __entry->cid = cid->id;
				   __assign_sockaddr(peer, peer,
						     RPCRDMA2_PEER_SIZE);
				   __entry->xid = xid;
				   __entry->nctxs = nctxs;
				   __entry->nwrs = nwrs;),
		    TP_printk("cq.id=%u cid=%u peer=%pISpc xid=0x%08x segments=%u wrs=%u",
			      __entry->cq_id, __entry->cid, __get_sockaddr(peer),
			      __entry->xid, __entry->nctxs, __entry->nwrs)
);

#define DEFINE_RPCRDMA2_RW_POST_EVENT(name)				\
	DEFINE_EVENT(rpcrdma2_rw_post_class, name,			\
		     TP_PROTO(const struct rpcrdma2_cid *cid,		\
			      const void *peer, u32 xid, u32 nctxs,	\
			      u32 nwrs),				\
		     TP_ARGS(cid, peer, xid, nctxs, nwrs))

DEFINE_RPCRDMA2_RW_POST_EVENT(rpcrdma2_svc_read_post);
DEFINE_RPCRDMA2_RW_POST_EVENT(rpcrdma2_svc_write_post);

DEFINE_RPCRDMA2_DONE_EVENT(rpcrdma2_svc_read_done);
DEFINE_RPCRDMA2_DONE_EVENT(rpcrdma2_svc_write_done);

/*
 * Client: FAST_REG and LOCAL_INV of one MR (net/client/frwr.c).  An MR
 * keeps its completion ID; a REG_MR is unsignaled, so its completion
 * shows only when it failed or was flushed, and so does a LOCAL_INV
 * other than the last of its chain.
 */
DECLARE_EVENT_CLASS(rpcrdma2_mr_post_class,
		    TP_PROTO(const struct rpcrdma2_cid *cid, const void *peer,
			     u32 xid, u32 handle, u32 len),
		    TP_ARGS(cid, peer, xid, handle, len),
		    TP_STRUCT__entry(__field(u32, cq_id)
				     __field(u32, cid)
				     __sockaddr(peer, RPCRDMA2_PEER_SIZE)
				     __field(u32, xid)
				     __field(u32, handle)
				     __field(u32, len)),
		    TP_fast_assign(__entry->cq_id = cid->cq_id;
				   __entry->cid = cid->id;
				   __assign_sockaddr(peer, peer,
						     RPCRDMA2_PEER_SIZE);
				   __entry->xid = xid;
				   __entry->handle = handle;
				   __entry->len = len;),
		    TP_printk("cq.id=%u cid=%u peer=%pISpc xid=0x%08x handle=0x%08x length=%u",
			      __entry->cq_id, __entry->cid, __get_sockaddr(peer),
			      __entry->xid, __entry->handle, __entry->len)
);

#define DEFINE_RPCRDMA2_MR_POST_EVENT(name)				\
	DEFINE_EVENT(rpcrdma2_mr_post_class, name,			\
		     TP_PROTO(const struct rpcrdma2_cid *cid,		\
			      const void *peer, u32 xid, u32 handle,	\
			      u32 len),					\
		     TP_ARGS(cid, peer, xid, handle, len))

DEFINE_RPCRDMA2_MR_POST_EVENT(rpcrdma2_clnt_reg_post);
DEFINE_RPCRDMA2_MR_POST_EVENT(rpcrdma2_clnt_inv_post);

DEFINE_RPCRDMA2_DONE_EVENT(rpcrdma2_clnt_reg_done);
DEFINE_RPCRDMA2_DONE_EVENT(rpcrdma2_clnt_inv_done);

#endif /* _TRACE_RPCRDMA2_H */

#include <trace/define_trace.h>
