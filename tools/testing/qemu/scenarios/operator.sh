# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Scenario "operator": what an NFS/RDMA administrator sees of one mount
# with rpcrdma2 at both ends, on two hosts (two guests), printed as
# "RR2: OP <what>: <line>" lines: the mount, its mountstats through
# nfs-utils' nfsiostat and mountstats --xprt, rpcrdma2's own figures
# for the mount (debugfs), the server's per-connection view, and the
# trace of one RPC (one with a chunk: the 1 MiB WRITE or READ) on the
# client and on the server.  tools/testing/qemu/operator.sh runs it and decodes the same
# RPC from the capture of the server's NIC.  The test command does not
# run it; its checks say only that each view was there.
#
# The client asks the server for its side through a control mount
# (NFSv3 over TCP): .rr2-op-req holds the XID, .rr2-op-ack says done.

RR2_TR=/sys/kernel/tracing

rr2_op_trace_on() {
	[ -d "$RR2_TR/events" ] || mount -t tracefs nodev "$RR2_TR" || return 1
	echo 8192 > "$RR2_TR/buffer_size_kb"
	echo > "$RR2_TR/trace"
	echo 1 > "$RR2_TR/events/rpcrdma2/enable" &&
		echo 1 > "$RR2_TR/tracing_on"
}

# rr2_op_print WHAT: stdin as "RR2: OP WHAT: LINE" lines
rr2_op_print() {
	sed "s/^ *//; s/^/RR2: OP $1: /"
}

# rr2_op_trace_of XID: the trace events that name XID (hex, 8 digits)
rr2_op_trace_of() {
	grep -E "rpcrdma2_[a-z0-9_]+: .*xid=0x$1( |$)" "$RR2_TR/trace"
}

rr2_op_server() {
	local xid
	rr2_server_setup || return
	rr2_check op.server-trace rr2_op_trace_on
	rr2_info "server ready"
	for _ in $(seq 900); do
		[ -e /export/.rr2-done ] && break
		if [ -s /export/.rr2-op-req ]; then
			xid=$(cat /export/.rr2-op-req)
			rm -f /export/.rr2-op-req
			echo 0 > "$RR2_TR/tracing_on"
			rr2_check op.server-view sh -c \
				'cat /sys/kernel/debug/rpcrdma2/server/*/info | grep .'
			cat /sys/kernel/debug/rpcrdma2/server/*/info |
				rr2_op_print "server view"
			rr2_check op.server-trace-of-rpc rr2_op_trace_of "$xid"
			rr2_op_trace_of "$xid" | rr2_op_print "server trace"
			touch /export/.rr2-op-ack
		fi
		sleep 1
	done
	rr2_check server.client-finished test -e /export/.rr2-done
}

rr2_op_client() {
	local dir=/mnt/op ctl=/mnt/ctl xid
	rr2_client_setup || return
	rr2_control_mount "$ctl" || return
	rr2_check op.mount rr2_mount 4.2 "$dir" /export/v4.2 || return
	grep " $dir " /proc/mounts | rr2_op_print mount
	head -c 1048576 /dev/urandom > /tmp/op.data
	rr2_check op.client-trace rr2_op_trace_on
	rr2_check op.write dd if=/tmp/op.data of="$dir/file" bs=1M \
		conv=fsync status=none
	echo 3 > /proc/sys/vm/drop_caches
	rr2_check op.read cmp /tmp/op.data "$dir/file"
	echo 0 > "$RR2_TR/tracing_on"
	nfsiostat "$dir" | rr2_op_print nfsiostat
	mountstats --xprt "$dir" | rr2_op_print "mountstats --xprt"
	rr2_mount_rdma2 "$dir" | xargs -n 2 | rr2_op_print "client view"
	# the first Call the client registered memory for: the WRITE's
	# Read chunk, or the READ's Write chunk
	xid=$(grep -m1 -oE 'rpcrdma2_clnt_reg_post: .*xid=0x[0-9a-f]{8}' \
		"$RR2_TR/trace" | grep -oE '[0-9a-f]{8}$')
	rr2_check op.xid test -n "$xid"
	rr2_info "op xid 0x$xid"
	rr2_check op.client-trace-of-rpc rr2_op_trace_of "$xid"
	rr2_op_trace_of "$xid" | rr2_op_print "client trace"
	echo "$xid" > "$ctl/.rr2-op-req"
	rr2_check op.server-answered rr2_wait_file "$ctl/.rr2-op-ack" 60
	rm -f "$ctl/.rr2-op-ack"
	rr2_check op.umount umount "$dir"
	umount "$ctl"
	rr2_client_done
}

rr2_main() {
	case $RR2_ROLE in
	server) rr2_op_server ;;
	client) rr2_op_client ;;
	esac
}
