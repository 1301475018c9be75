# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Scenario "baseline": NFS over RPC-over-RDMA on rxe, NFSv3 and NFSv4.2.
# With rr2.mod=stock it checks the harness itself against the stock
# rpcrdma.ko; with rr2.mod=ours it runs the same checks on rpcrdma2.
#
# rr2.args words: expect=N (rpcrdma2 client: check the settled version),
# server.expect=N (rpcrdma2 server: every client settled version N),
# big=MiB (size of the large file, default 16), mountopts=A:B (extra
# mount options), rdmavers=N / server.rdmavers=N / client.rdmavers=N,
# xchar=N / server.xchar=N / client.xchar=N (the seed 004 exchange),
# xch=on|off|refused (rpcrdma2 client: check the exchange's state on
# each mount; "on" also needs a characteristic received).
#
# With rpcrdma2 as the client, the client knobs are checked last: their
# defaults, an out-of-range write refused, and a mount made after a
# write using the new values (mountstats) and moving data.
#
# Roles:  single  nfsd and the client in one guest, over one rxe device
#         server  nfsd; waits for the client, then verifies on its own
#                 disk what the client wrote
#         client  mounts the server, writes, reads back, compares

rr2_client_run() {
	local vers dir n
	for vers in 3 4.2; do
		dir=/mnt/v$vers
		rr2_check "mount.v$vers" rr2_mount "$vers" "$dir" "/export/v$vers" || continue
		rr2_check "mountstats.v$vers.xprt-rdma" \
			test "$(rr2_mount_xprt "$dir")" = rdma
		rr2_info "v$vers mountstats: $(grep -A1 "mounted on $dir" /proc/self/mountstats | tail -n1)"
		rr2_check_rdma_version "$dir" "$vers"
		rr2_check_xch "$dir" "$vers"
		rr2_check "mountstats-tool.v$vers" sh -c "mountstats $dir > /dev/null"
		mkdir -p "$dir/data" /tmp/v$vers
		head -c $(($(rr2_arg big 16) << 20)) /dev/urandom > /tmp/v$vers/big
		for n in $(seq 1 100); do
			head -c $(((n * 97) % 4096 + 1)) /dev/urandom > /tmp/v$vers/small$n
		done
		(cd /tmp/v$vers && sha256sum big small* > SHA256SUMS)
		rr2_check "write.v$vers" cp /tmp/v$vers/big /tmp/v$vers/SHA256SUMS \
			/tmp/v$vers/small1 /tmp/v$vers/small2 "$dir/data/"
		for n in $(seq 3 100); do
			cp /tmp/v$vers/small$n "$dir/data/" || rr2_fail "write.v$vers.small$n"
		done
		# Read back from the server, not from the page cache.
		umount "$dir" && rr2_mount "$vers" "$dir" "/export/v$vers" || rr2_fail "remount.v$vers"
		rr2_check "readback.v$vers" sh -c "cd $dir/data && sha256sum -c --quiet SHA256SUMS"
		rr2_check "metadata.v$vers" rr2_metadata "$dir/meta"
		# NFSv4.1+: nfsd reached the client's callback service over
		# the same connection (RFC 8167); otherwise every SEQUENCE
		# reply says "callback path down" and the client answers
		# each with BIND_CONN_TO_SESSION
		[ "$vers" = 3 ] || rr2_check "callback-path-up.v$vers" \
			test "$(rr2_op_count "$dir" BIND_CONN_TO_SESSION)" = 0
		rr2_info "v$vers after I/O: $(rr2_mount_rdma2 "$dir")"
		rr2_check "umount.v$vers" umount "$dir"
	done
	[ "$RR2_MOD" = ours ] && rr2_client_knobs
}

RR2_KNOBS="rdma_slot_table_entries rdma_max_inline_read rdma_max_inline_write"

# The client knobs' values, on one line.
rr2_knobs() {
	local k
	for k in $RR2_KNOBS; do printf "%s " "$(cat "/proc/sys/sunrpc/$k")"; done
}

rr2_knobs_set() {
	local k v
	for k in $RR2_KNOBS; do
		v=$1 && shift
		echo "$v" > "/proc/sys/sunrpc/$k" || return 1
	done
}

# The mount at $1 uses the values rr2_client_knobs wrote.
rr2_knobs_applied() {
	rr2_mount_rdma2 "$1" | grep -q ' inline 2048/2048 credits 16 slots 16 '
}

# 4 MiB through the mount at $1, read back from the server.
rr2_knobs_io() {
	local dir=$1
	head -c $((4 << 20)) /dev/urandom > /tmp/knobs.data &&
	mkdir -p "$dir/knobs" && cp /tmp/knobs.data "$dir/knobs/" &&
	umount "$dir" && rr2_mount 4.2 "$dir" /export/v4.2 &&
	cmp /tmp/knobs.data "$dir/knobs/knobs.data" &&
	rm -rf "$dir/knobs"
}

# /proc/sys/sunrpc/rdma_*: a mount made after a write uses the values.
rr2_client_knobs() {
	local dir=/mnt/knobs
	rr2_check knobs.defaults test "$(rr2_knobs)" = "128 8192 8192 "
	rr2_check knobs.out-of-range-refused sh -c \
		'! echo 65537 > /proc/sys/sunrpc/rdma_max_inline_read &&
		 ! echo 3 > /proc/sys/sunrpc/rdma_slot_table_entries'
	rr2_check knobs.write rr2_knobs_set 16 2048 2048
	rr2_check knobs.read-back test "$(rr2_knobs)" = "16 2048 2048 "
	if rr2_check knobs.mount rr2_mount 4.2 "$dir" /export/v4.2; then
		rr2_info "knobs: $(rr2_mount_rdma2 "$dir")"
		rr2_check knobs.applied rr2_knobs_applied "$dir"
		rr2_check knobs.io rr2_knobs_io "$dir"
		umount "$dir"
	fi
	rr2_check knobs.reset rr2_knobs_set 128 8192 8192
}

# With rpcrdma2 as the client, the version it settled on shows in
# mountstats; rr2.args=rdmavers=N says which one to expect.
rr2_check_rdma_version() {
	local dir=$1 vers=$2 want
	want=$(rr2_arg expect "")
	[ -n "$want" ] || return 0
	rr2_info "v$vers rpcrdma2: $(rr2_mount_rdma2 "$dir")"
	rr2_check "rdma-version.v$vers.is-$want" \
		test "$(rr2_mount_rdma2 "$dir" | awk '{ print $2 }')" = "$want"
}

# With rpcrdma2 as the client, the seed 004 exchange's state on the
# mount's connection; rr2.args=xch=on|off|refused says which to expect.
rr2_check_xch() {
	local dir=$1 vers=$2 want st
	want=$(rr2_arg xch "")
	[ -n "$want" ] || return 0
	st=$(rr2_mount_rdma2 "$dir" | awk '{ for (i = 1; i < NF; i++)
		if ($i == "xch" || $i == "xch_received") printf "%s ", $(i + 1) }')
	rr2_info "v$vers xch (state, received): $st"
	# shellcheck disable=SC2086
	rr2_check "xch.v$vers.is-$want" rr2_xch_is "$want" $st
}

# rr2_xch_is WANT STATE RECEIVED: "on" also needs something received
rr2_xch_is() {
	test "$2" = "$1" || return 1
	[ "$1" != on ] || [ "${3:-0}" -ge 1 ]
}

# rr2_op_count DIR OP: how many OP calls the mount at DIR has made
rr2_op_count() {
	awk -v d="$1" -v op="$2:" '$1 == "device" { m = ($5 == d) }
		m && $1 == op { n = $2 } END { print n + 0 }' /proc/self/mountstats
}

# create, stat, rename and unlink 100 files; every step must succeed
rr2_metadata() {
	local d=$1 i
	mkdir -p "$d" || return 1
	for i in $(seq 100); do : > "$d/f$i" || return 1; done
	for i in $(seq 100); do stat "$d/f$i" > /dev/null || return 1; done
	for i in $(seq 100); do mv "$d/f$i" "$d/g$i" || return 1; done
	[ "$(ls "$d" | wc -l)" = 100 ] || return 1
	rm -f "$d"/g* && rmdir "$d"
}

rr2_server_verify() {
	local vers want
	for vers in 3 4.2; do
		rr2_check "server.verify.v$vers" sh -c \
			"cd /export/v$vers/data && sha256sum -c --quiet SHA256SUMS"
	done
	# rpcrdma2 as the server logs the version each client settled on
	want=$(rr2_arg server.expect "")
	[ -n "$want" ] || return 0
	rr2_info "server: $(dmesg | grep 'rpcrdma2: client .* settled' | tail -n1)"
	rr2_check "server.rdma-version.is-$want" sh -c \
		"dmesg | grep 'rpcrdma2: client .* settled' | grep -qv 'version $want,' && exit 1
		 dmesg | grep -q 'rpcrdma2: client .* settled RPC-over-RDMA version $want,'"
}

# With every mount gone and nfsd stopped, rpcrdma2 unloads (once nfsd's
# NFSv4.1 callback client, whose transport pins the module, is gone)
# and nothing of it runs afterwards.
rr2_rmmod_retry() {
	local i
	for i in $(seq 60); do
		rmmod rpcrdma2 2>/dev/null && return 0
		sleep 0.5
	done
	rmmod rpcrdma2
}

rr2_unload_after_nfs() {
	rr2_check module.nfsd-stop rpc.nfsd 0
	rr2_check module.unload-after-nfs rr2_rmmod_retry
	sleep 2
	rr2_check module.no-oops-after-unload sh -c \
		'! dmesg | grep -E "BUG:|Oops|general protection|Call Trace"'
}

rr2_main() {
	case $RR2_ROLE in
	single)
		RR2_SERVER_IP=10.111.0.1
		rr2_server_setup || return
		rr2_client_run
		rr2_server_verify
		[ "$RR2_MOD" = ours ] && rr2_unload_after_nfs
		;;
	server)
		rr2_server_setup || return
		rr2_info "server ready"
		rr2_server_wait_client
		rr2_server_verify
		;;
	client)
		rr2_client_setup || return
		rr2_client_run
		rr2_client_done
		;;
	esac
}
