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
# rvrsdir=N (reverse-direction level) with brs=CLIENT:SERVER (the
# levels, by name, that Version 2 mounts must show; default cont:cont),
# hostauth=TEXT (both ends send it; one guest: each end got it),
# xch=on|off|refused (rpcrdma2 client: check the exchange's state on
# each mount; "on" also needs a characteristic received), trace=0
# (skip the trace check: rpcrdma2 at both ends of one guest traces 1 MiB
# written and read back and checks that each Send, Receive, RDMA Read,
# RDMA Write and FRWR work request has a post and a completion event
# with the same completion ID), allocfail=1 (rpcrdma2 at both ends of
# one guest: allocation failures injected at each site under I/O, see
# rr2_alloc_faults).
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
		rr2_info "v$vers mountstats: $(rr2_mount_xprts "$dir" | head -n1)"
		rr2_check "mountstats.v$vers.xprt-stock-shape" \
			rr2_xprt_stock_shape "$dir"
		rr2_check_rdma_version "$dir" "$vers"
		rr2_check_xch "$dir" "$vers"
		rr2_check "mountstats-tool.v$vers" rr2_mountstats_tools "$dir"
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
		rr2_check "mountstats.v$vers.write-chunks-counted" \
			rr2_xprt_chunks_counted "$dir"
		rr2_check "metadata.v$vers" rr2_metadata "$dir/meta"
		rr2_check_transport "$dir" "$vers"
		# NFSv4.1+: nfsd reached the client's callback service over
		# the same connection (RFC 8167); otherwise every SEQUENCE
		# reply says "callback path down" and the client answers
		# each with BIND_CONN_TO_SESSION
		[ "$vers" = 3 ] || rr2_check "callback-path-up.v$vers" \
			test "$(rr2_op_count "$dir" BIND_CONN_TO_SESSION)" = 0
		# in one guest with rpcrdma2 at both ends; across two,
		# whichever module each end runs (the server guest makes
		# the conflicting write: rr2_recall_responder)
		[ "$vers" != 3 ] && { [ "$RR2_ROLE" = client ] ||
			{ [ "$RR2_MOD" = ours ] && [ "$RR2_ROLE" = single ]; }; } &&
			rr2_check "callback-recall.v$vers" rr2_deleg_recall \
				"$dir" "/export/v$vers"
		rr2_info "v$vers after I/O: $(rr2_mount_rdma2 "$dir")"
		rr2_info "v$vers mountstats after I/O: $(rr2_mount_xprts "$dir" | head -n1)"
		rr2_server_view_up "$dir" "$vers"
		rr2_check "umount.v$vers" umount "$dir" &&
			rr2_server_view_gone "$vers"
	done
	rr2_extra_versions
	rr2_nconnect_pass
	[ "$RR2_MOD" = ours ] && rr2_client_knobs
}

# ---- Deployments: IPv6, nconnect, NFSv4.0 and NFSv4.1 ----

# rr2_mount_xprts DIR: the mount's "xprt:" lines in /proc/self/mountstats,
# one per connection (nconnect=N makes N)
rr2_mount_xprts() {
	awk -v d="$1" '$1 == "device" { m = ($5 == d) }
		m && $1 == "xprt:"' /proc/self/mountstats
}

# rr2_spread DIR N: the mount at DIR has N connections, every one of
# them carried Calls (the "sends" column, the sixth number of a stock
# rdma xprt line), and with rpcrdma2 as the client each settled the
# version rr2.args expect=N names (its debugfs file, "vers")
rr2_spread() {
	local dir=$1 n=$2 want
	want=$(rr2_arg expect "")
	rr2_mount_xprts "$dir" > /tmp/xprts
	rr2_mount_rdma2_all "$dir" > /tmp/xprts-rdma2
	echo "connections $(wc -l < /tmp/xprts); sends of each:" \
		"$(awk '{ printf "%s ", $8 }' /tmp/xprts)versions:" \
		"$(awk '{ for (i = 1; i < NF; i++) if ($i == "vers")
			printf "v%s ", $(i + 1) }' /tmp/xprts-rdma2)"
	[ "$(wc -l < /tmp/xprts)" = "$n" ] || return 1
	awk '$2 != "rdma" || $8 == 0 { bad = 1 } END { exit bad }' /tmp/xprts ||
		return 1
	[ -z "$want" ] || [ "$RR2_MOD" != ours ] || {
		[ "$(wc -l < /tmp/xprts-rdma2)" = "$n" ] &&
		awk -v w="$want" '{ v = ""
			for (i = 1; i < NF; i++) if ($i == "vers") v = $(i + 1)
			if (v != w) bad = 1 } END { exit bad }' /tmp/xprts-rdma2
	}
}

# ---- Operability: mountstats' shape, rpcrdma2's debugfs views ----

# rr2_xprt_stock_shape DIR: every "xprt:" line of the mount at DIR is
# exactly the stock module's (6.12 xprt_rdma_print_stats()): a tab,
# "xprt:", a tab, "rdma", 27 unsigned integers each after one space, and
# nothing after them.  Parsers of mountstats (node_exporter's procfs,
# collectd, PCP) take the line by position and refuse any other shape.
rr2_xprt_stock_shape() {
	rr2_mount_xprts "$1" > /tmp/xprt-lines
	cat /tmp/xprt-lines
	[ -s /tmp/xprt-lines ] &&
		! grep -qvE $'^\txprt:\trdma( [0-9]+){27}$' /tmp/xprt-lines
}

# rr2_xprt_chunks_counted DIR: after the mount read its 16 MiB back, the
# Write chunk column (12) counted the READs that carried one, with
# either client; with rpcrdma2 as the client the Read, Write and Reply
# chunk columns (11-13) are what its debugfs files count.  Both summed
# over the mount's connections.
rr2_xprt_chunks_counted() {
	local ms mine
	ms=$(rr2_mount_xprts "$1" |
		awk '{ r += $13; w += $14; p += $15 } END { print r + 0, w + 0, p + 0 }')
	echo "read, write, reply chunks: mountstats $ms"
	[ "$(echo "$ms" | cut -d' ' -f2)" -gt 0 ] || return 1
	[ "$RR2_MOD" = ours ] || return 0
	mine=$(rr2_mount_rdma2_all "$1" | awk '{ for (i = 1; i < NF; i++) {
			if ($i == "read_chunks") r += $(i + 1)
			if ($i == "write_chunks") w += $(i + 1)
			if ($i == "reply_chunks") p += $(i + 1) } }
		END { print r + 0, w + 0, p + 0 }')
	echo "read, write, reply chunks: debugfs $mine"
	[ "$ms" = "$mine" ]
}

# rr2_mountstats_tools DIR: nfs-utils' mountstats(8) and nfsiostat(8)
# read the mount: each exits 0, "mountstats --xprt" prints the rdma
# transport section down to its last counter (printed only when the
# line has all 27) and nfsiostat the mount's figures (a python start
# each: about 1.5 s on TCG)
rr2_mountstats_tools() {
	mountstats --xprt "$1" > /tmp/mountstats-xprt.out &&
		grep -q 'Transport protocol: rdma' /tmp/mountstats-xprt.out &&
		grep -q 'Replies that waited for Send completion: ' \
			/tmp/mountstats-xprt.out &&
		nfsiostat "$1" > /tmp/nfsiostat.out &&
		grep -q "mounted on $1:" /tmp/nfsiostat.out &&
		grep -q 'ops/s' /tmp/nfsiostat.out && return 0
	cat /tmp/mountstats-xprt.out /tmp/nfsiostat.out 2> /dev/null
	return 1
}

# rr2_srv_conns ADDR: the ids of rpcrdma2's server connections from
# ADDR that are up (/sys/kernel/debug/rpcrdma2/server/ID/info)
rr2_srv_conns() {
	local f
	for f in /sys/kernel/debug/rpcrdma2/server/*/info; do
		[ -e "$f" ] || continue
		awk -v a="$1" '$1 == "peer" { p = $2 } $1 == "state" { s = $2 }
			END { sub(/:[0-9]+$/, "", p); gsub(/[][]/, "", p)
			      exit !(p == a && s == "up") }' "$f" &&
			basename "$(dirname "$f")"
	done
}

# rr2_srv_view_is DIR ADDR WANT: one connection up from ADDR per
# transport of the mount at DIR, each settled on version WANT
rr2_srv_view_is() {
	local n ids id
	n=$(rr2_mount_xprts "$1" | wc -l)
	ids=$(rr2_srv_conns "$2")
	[ "$n" -ge 1 ] && [ "$(echo "$ids" | wc -w)" = "$n" ] || return 1
	for id in $ids; do
		awk -v w="$3" '$1 == "vers" { v = $2 } END { exit v != w }' \
			"/sys/kernel/debug/rpcrdma2/server/$id/info" || return 1
	done
	echo "$ids" > /tmp/srv-view-ids
}

# One guest, rpcrdma2 as the server: while the mount at DIR is up its
# debugfs view shows the mount's connections, from the client's
# address (this guest's), at the version rr2.args server.expect=N
# names.  A connection just closed may still be listed until nfsd
# tears it down; the view is read until it settles, for at most 5 s.
rr2_server_view_up() {
	local dir=$1 vers=$2 want addr=$RR2_SERVER_IP i
	want=$(rr2_arg server.expect "")
	[ "$RR2_ROLE" = single ] && [ "$RR2_MOD" = ours ] && [ -n "$want" ] ||
		return 0
	[ "$RR2_IPV6" = 0 ] || addr=$(rr2_ip6 "$RR2_SERVER_IP")
	rm -f /tmp/srv-view-ids
	for i in $(seq 10); do
		rr2_srv_view_is "$dir" "$addr" "$want" && break
		sleep 0.5
	done
	for i in /sys/kernel/debug/rpcrdma2/server/*/info; do
		[ -e "$i" ] && rr2_info "v$vers server view ${i%/info}: $(tr '\n' ' ' < "$i")"
	done
	rr2_check "server-view.v$vers.conns" test -s /tmp/srv-view-ids
}

# ... and after the umount, nfsd lets those connections go and their
# entries go with them (within 10 s)
rr2_server_view_gone() {
	local id i left ids
	[ -s /tmp/srv-view-ids ] || return 0
	for i in $(seq 20); do
		left=
		ids=$(cat /tmp/srv-view-ids)
		for id in $ids; do
			[ -e "/sys/kernel/debug/rpcrdma2/server/$id" ] && left="$left $id"
		done
		[ -z "$left" ] && break
		sleep 0.5
	done
	rr2_check "server-view.v$1.gone" test -z "$left"
	rm -f /tmp/srv-view-ids
}

# rr2_on_ipv6 DIR: the mount went over netid rdma6 to the server's IPv6
# address
rr2_on_ipv6() {
	grep " $1 " /proc/mounts | grep "proto=rdma6," |
		grep -q ",addr=$(rr2_ip6 "$RR2_SERVER_IP")\( \|,\|\$\)"
}

# The mount at DIR after its I/O: with ipv6=1 it went over IPv6, and
# with mountopts=nconnect:N every one of its N connections carried
# Calls and settled the expected version.
rr2_check_transport() {
	local dir=$1 vers=$2 n
	[ "$RR2_IPV6" = 0 ] || rr2_check "ipv6.v$vers.rdma6" rr2_on_ipv6 "$dir"
	n=$(echo ",$RR2_MOUNTOPTS," | sed -n 's/.*,nconnect=\([0-9]*\),.*/\1/p')
	[ -z "$n" ] || rr2_check "nconnect.v$vers.spread-$n" rr2_spread "$dir" "$n"
}

# rr2_io_back DIR: 4 MiB written, read back from the server after a
# remount (DIR must be mounted from /export/v4.2 at version $2)
rr2_io_back() {
	local dir=$1 vers=$2
	head -c $((4 << 20)) /dev/urandom > /tmp/io.data &&
	cp /tmp/io.data "$dir/io-$vers.data" &&
	umount "$dir" && rr2_mount "$vers" "$dir" /export/v4.2 &&
	cmp /tmp/io.data "$dir/io-$vers.data" &&
	rm -f "$dir/io-$vers.data"
}

# rr2.args extravers=4.0:4.1: NFS versions beside 3 and 4.2, a lighter
# pass each: the mount, the version settled, 4 MiB read back from the
# server, 100 files through the metadata operations, and callbacks.
# NFSv4.1 calls back over the mount's own connection (RFC 8167), so
# SEQUENCE never reports the callback path down; NFSv4.0 has no
# backchannel over RDMA, nfsd calls back over TCP to the client's
# callback service.  In one guest a recalled delegation shows that
# either path works; over RDMA, with rpcrdma2 at both ends, the
# reverse Call and its Reply must show in the trace events of both
# halves under one XID.
rr2_extra_versions() {
	local vers dir bc_traced
	for vers in $(rr2_arg extravers "" | tr : ' '); do
		dir=/mnt/v$vers
		rr2_check "mount.v$vers" rr2_mount "$vers" "$dir" /export/v4.2 ||
			continue
		rr2_check_rdma_version "$dir" "$vers"
		rr2_check "readback.v$vers" rr2_io_back "$dir" "$vers"
		rr2_check "metadata.v$vers" rr2_metadata "$dir/meta-$vers"
		rr2_check_transport "$dir" "$vers"
		[ "$vers" = 4.0 ] || rr2_check "callback-path-up.v$vers" \
			test "$(rr2_op_count "$dir" BIND_CONN_TO_SESSION)" = 0
		bc_traced=
		if [ "$vers" != 4.0 ] && rr2_trace_bc_wanted; then
			bc_traced=1
			rr2_trace_bc 1
		fi
		[ "$RR2_MOD" = ours ] && [ "$RR2_ROLE" = single ] &&
			rr2_check "callback-recall.v$vers" rr2_deleg_recall \
				"$dir" /export/v4.2 "$([ "$vers" = 4.0 ] && echo tcp)"
		if [ -n "$bc_traced" ]; then
			rr2_trace_bc 0
			rr2_check "trace.backchannel.v$vers" rr2_trace_bc_check
			grep -E ' rpcrdma2_(svc|clnt)_bc_' "$RR2_TR/trace" |
				head -n 8 | sed 's/^ *//' > /tmp/trace.bc
			while read -r line; do
				rr2_info "trace.bc: $line"
			done < /tmp/trace.bc
		fi
		rr2_check "umount.v$vers" umount "$dir"
	done
}

# rr2.args nconnect=N: one NFSv4.2 mount with nconnect=N (16 is the
# most the NFS client takes): 2 MiB of 4 KiB random writes and reads
# with verification spread over all N connections, each settling the
# expected version
rr2_nconnect_pass() {
	local n dir=/mnt/nconnect
	n=$(rr2_arg nconnect "")
	[ -n "$n" ] || return 0
	# over IPv4: 6.12's sysfs "dstaddr" store parses the address into a
	# struct sockaddr, too small for IPv6, so drop-one needs IPv4
	RR2_IPV6=0 RR2_MOUNTOPTS=${RR2_MOUNTOPTS:+$RR2_MOUNTOPTS,}nconnect=$n \
		rr2_check "nconnect-$n.mount" rr2_mount 4.2 "$dir" /export/v4.2 ||
		return
	rr2_check "nconnect-$n.fio" fio --name=nconnect --directory="$dir" \
		--ioengine=psync --direct=1 --rw=randwrite --bs=4k --size=2M \
		--verify=crc32c --do_verify=1 --verify_fatal=1 \
		--output-format=terse
	rr2_check "nconnect-$n.spread" rr2_spread "$dir" "$n"
	rr2_info "nconnect-$n: $(rr2_spread "$dir" "$n" | head -n1)"
	rr2_check "nconnect-$n.drop-one" rr2_nconnect_drop_one "$dir" "$n"
	rm -f "$dir"/nconnect.*
	rr2_check "nconnect-$n.umount" umount "$dir"
}

# rr2_nconnect_drop_one DIR N: one of the N connections of the mount at
# DIR is dropped (its sysfs "dstaddr" written back, which makes sunrpc
# disconnect that transport alone) and 2 MiB of verified writes run at
# once.  That connection reconnects exactly once; the other N - 1 never
# reconnect, and they carry Calls while it does.  The connect count and
# the sends are the third and sixth numbers of each "xprt:" line.
rr2_nconnect_drop_one() {
	local dir=$1 n=$2 sw x
	for sw in /sys/kernel/sunrpc/xprt-switches/switch-*; do
		[ "$(find "$sw" -maxdepth 1 -name 'xprt-*' | wc -l)" = "$n" ] &&
			grep -qs "^dst_port=$RR2_PORT\$" "$sw"/xprt-*/xprt_info &&
			break
		sw=
	done
	[ -n "$sw" ] || { rr2_info "drop-one: no switch of $n transports"; return 1; }
	rr2_mount_xprts "$dir" | awk '{ print $5, $8 }' > /tmp/drop.before
	x=$(find "$sw" -maxdepth 1 -name 'xprt-*' | sort | head -n1)
	rr2_xprt_drop "$x" || return 1
	fio --name=dropone --directory="$dir" --ioengine=psync --direct=1 \
		--rw=randwrite --bs=4k --size=2M --verify=crc32c --do_verify=1 \
		--verify_fatal=1 --output-format=terse > /dev/null || return 1
	rm -f "$dir"/dropone.*
	rr2_mount_xprts "$dir" | awk '{ print $5, $8 }' > /tmp/drop.after
	rr2_info "drop-one: connects/sends before $(tr '\n' ' ' < /tmp/drop.before)after $(tr '\n' ' ' < /tmp/drop.after)"
	# line by line: one transport reconnected once, the rest did not
	# and sent more Calls
	paste -d ' ' /tmp/drop.before /tmp/drop.after | awk -v n="$n" '
		$3 == $1 + 1 { again++; next }
		$3 == $1 && $4 > $2 { moved++; next }
		{ bad = 1 }
		END { exit bad || NR != n || again != 1 || moved != n - 1 }'
}

rr2_hostauth_seen() {
	local a
	a=$(rr2_arg hostauth "")
	[ "$(rr2_mount_field "$1" hostauth)" = "${#a}" ] &&
		[ "$(cat /proc/sys/sunrpc/svc_rdma/rpcrdma2_hostauth)" -ge 1 ]
}

# A delegation that a write on the server's own file system recalls
# reaches the client as a reverse Call (CB_RECALL) on the mount's
# connection, at the settled level (RFC 8167; V2-RDIR-12 on Version 2),
# and is answered: the client returns the delegation (DELEGRETURN) and
# the write finishes within 5 s, well before nfsd (lease time 10 s)
# would revoke it.  In one guest the write is made here; across two
# the server guest makes it when asked (rr2_recall_at_server).
#
# Whether nfsd grants the delegation is its own policy, not the
# transport's: none in the grace period, none while it counts another
# writer of the file (nfsd4_check_conflicting_opens), none after a
# conflict on it.  A missing recall and a delegation never granted
# look the same from the client (bc_calls and DELEGRETURN unchanged),
# so the server first sees the delegation held in
# /proc/fs/nfsd/clients/*/states, on a fresh file, up to three tries;
# the recall is checked on the one nfsd holds.
#
# rr2_deleg_recall DIR EXPORT [tcp]: with "tcp" (NFSv4.0, which has no
# backchannel over RDMA) the recall comes over TCP instead, to the
# client's callback service: the transport's reverse Calls stay at
# what they were.  bc_calls is rpcrdma2's (all of the mount's
# transports); with the stock client only DELEGRETURN is checked.
rr2_deleg_recall() {
	local dir=$1 exp=$2 path=${3:-rdma} calls rets f try held=0 late=1 v
	mkdir -p "$dir/data" || return 1
	for try in 1 2 3; do
		f=deleg$try-${dir##*/}
		echo one > "$dir/data/$f" || return 1
		sleep 1
		exec 3< "$dir/data/$f"
		cat <&3 > /dev/null
		calls=$(rr2_bc_calls "$dir")
		rets=$(rr2_op_count "$dir" DELEGRETURN)
		v=$(rr2_recall_at_server "$exp" "$f") || { exec 3<&-; return 1; }
		held=${v% *} late=${v#* }
		exec 3<&-
		[ "$held" -ge 1 ] && break
		echo "try $try: nfsd granted no delegation on $f"
		sleep 2
	done
	[ "$RR2_ROLE" = single ] && grep -h "callback" /proc/fs/nfsd/clients/*/info
	echo "$f: delegations held $held, write on the server timed out: $late," \
		"bc_calls $calls -> $(rr2_bc_calls "$dir")," \
		"DELEGRETURN $rets -> $(rr2_op_count "$dir" DELEGRETURN)"
	[ "$held" -ge 1 ] && [ "$late" = 0 ] &&
		[ "$(rr2_op_count "$dir" DELEGRETURN)" -gt "$rets" ] || return 1
	# no bc_calls: only the stock client may lack the counter
	[ -n "$calls" ] || { [ "$RR2_MOD" = stock ]; return; }
	if [ "$path" = tcp ]; then
		[ "$(rr2_bc_calls "$dir")" = "$calls" ]
	else
		[ "$(rr2_bc_calls "$dir")" -gt "$calls" ]
	fi
}

# rr2_bc_calls DIR: reverse Calls received by all of the mount's
# rpcrdma2 transports; nothing when the client is the stock module
rr2_bc_calls() {
	rr2_mount_rdma2_all "$1" | awk '{ for (i = 1; i < NF; i++)
		if ($i == "bc_calls") { n += $(i + 1); seen = 1 } }
		END { if (seen) print n }'
}

# rr2_recall_at_server EXPORT NAME: "HELD LATE" from the server's
# rr2_recall_here, made here in one guest; in a client guest asked for
# through a control mount (rr2_control_mount_once) and answered by the
# server guest's rr2_recall_responder within 20 s.
rr2_recall_at_server() {
	local ctl=/mnt/ctl
	if [ "$RR2_ROLE" = single ]; then
		rr2_recall_here "$1" "$2"
		return
	fi
	rr2_control_mount_once "$ctl" || return 1
	rm -f "$ctl/.rr2-recall-ack"
	echo "$1 $2" > "$ctl/.rr2-recall-req" || return 1
	rr2_wait_file "$ctl/.rr2-recall-ack" 20 || return 1
	cat "$ctl/.rr2-recall-ack" && rm -f "$ctl/.rr2-recall-ack"
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

# The mount at $1 uses the values rr2_client_knobs wrote: its credits
# follow rdma_slot_table_entries, as the stock client's do.
rr2_knobs_applied() {
	[ "$(rr2_mount_field "$1" inline)" = 2048/2048 ] &&
		[ "$(rr2_mount_field "$1" credits)" = 100 ] &&
		[ "$(rr2_mount_field "$1" slots)" = 100 ]
}

# /proc/sys/sunrpc/rdma_*: a mount made after a write uses the values.
rr2_client_knobs() {
	local dir=/mnt/knobs
	rr2_check knobs.defaults test "$(rr2_knobs)" = "128 8192 8192 "
	rr2_check knobs.out-of-range-refused sh -c \
		'! echo 65537 > /proc/sys/sunrpc/rdma_max_inline_read &&
		 ! echo 3 > /proc/sys/sunrpc/rdma_slot_table_entries'
	rr2_check knobs.write rr2_knobs_set 100 2048 2048
	rr2_check knobs.read-back test "$(rr2_knobs)" = "100 2048 2048 "
	if rr2_check knobs.mount rr2_mount 4.2 "$dir" /export/v4.2; then
		rr2_info "knobs: $(rr2_mount_rdma2 "$dir")"
		rr2_check knobs.applied rr2_knobs_applied "$dir"
		rr2_check knobs.io rr2_io_back "$dir" 4.2
		umount "$dir"
	fi
	rr2_check knobs.reset rr2_knobs_set 128 8192 8192
}

# With rpcrdma2 as the client, the version it settled on shows in its
# debugfs file; rr2.args=rdmavers=N says which one to expect.
rr2_check_rdma_version() {
	local dir=$1 vers=$2 want
	want=$(rr2_arg expect "")
	[ -n "$want" ] || return 0
	rr2_info "v$vers rpcrdma2: $(rr2_mount_rdma2 "$dir")"
	rr2_check "rdma-version.v$vers.is-$want" \
		test "$(rr2_mount_field "$dir" vers)" = "$want"
	# Version 2 at both ends: the reverse-direction levels each end
	# advertised, CONT by default (V2-RDIR-10, V2-RDIR-12); rr2.args
	# brs=LEVEL:PEER_LEVEL says otherwise (with rvrsdir=N)
	[ "$want" = 2 ] || return 0
	# hostauth=TEXT at both ends: the client kept what the server sent
	# (V2-PROP-09), and the server counted the client
	[ -z "$(rr2_arg hostauth "")" ] || [ "$RR2_ROLE" != single ] ||
		rr2_check "rdma-version.v$vers.hostauth" rr2_hostauth_seen "$dir"
	want=$(rr2_arg brs cont:cont)
	rr2_check "rdma-version.v$vers.brs-${want/:/-}" test "$(rr2_mount_rdma2 "$dir" |
		awk '{ for (i = 1; i < NF; i++)
			if ($i == "brs" || $i == "peer_brs") printf "%s ", $(i + 1) }')" = "${want/:/ } "
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

# create, stat, rename, list and unlink 100 files, every step checked
# (guest-tools/rr2meta.c)
rr2_metadata() {
	/rr2/bin/rr2meta "$1" 100
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
	rr2_info "server: $(rr2_settled_lines | tail -n1)"
	# with ipv6=1 the client came from its IPv6 address
	[ "$RR2_IPV6" = 0 ] || rr2_check server.ipv6-client sh -c \
		"dmesg | grep -q 'rpcrdma2: client $(rr2_ip6 "$RR2_CLIENT_IP") settled'"
	rr2_check "server.rdma-version.is-$want" rr2_settled_all "version $want,"
	# and callbacks go to those clients at their BRS (V2-RDIR-12)
	case $want in
	2) want=$(rr2_arg brs cont:cont) want=${want%%:*} ;;
	*) want=rfc8167 ;;
	esac
	rr2_check "server.callbacks.$want" rr2_settled_all "callbacks $want\$"
}

# The server's "client ADDR settled" lines, but for a three-guest
# run's client2 (fleet.sh checks its own)
rr2_settled_lines() {
	dmesg | grep 'rpcrdma2: client .* settled' |
		grep -vE "rpcrdma2: client $RR2_CLIENT2_RE settled"
}

# rr2_settled_all RE: there are such lines, and every one matches RE
rr2_settled_all() {
	local l
	l=$(rr2_settled_lines)
	[ -n "$l" ] && ! printf '%s\n' "$l" | grep -v -- "$1"
}

# Module lifecycle: while a mount or nfsd uses rpcrdma2, rmmod is
# refused and nothing stops working; with every mount gone and nfsd
# stopped it unloads (once nfsd's NFSv4.1 callback client, whose
# transport pins the module, is gone) and nothing of it runs afterwards.
rr2_rmmod_retry() {
	local i
	for i in $(seq 60); do
		rmmod rpcrdma2 2>/dev/null && return 0
		sleep 0.5
	done
	rmmod rpcrdma2
}

# rmmod while rpcrdma2 is in use: refused at once ("in use"), and the
# module stays loaded
rr2_rmmod_refused() {
	! timeout 30 rmmod rpcrdma2 2> /tmp/rmmod.err || return 1
	cat /tmp/rmmod.err
	grep -q 'in use' /tmp/rmmod.err && [ -d /sys/module/rpcrdma2 ]
}

rr2_unload_after_nfs() {
	local dir=/mnt/life
	# a live mount holds the module: rmmod is refused and the mount
	# goes on moving data; with the mount gone nfsd's rdma listener
	# still holds it
	if rr2_check module.mount rr2_mount 4.2 "$dir" /export/v4.2; then
		rr2_check module.rmmod-refused-mounted rr2_rmmod_refused
		rr2_check module.io-after-refused rr2_io_back "$dir" 4.2
		rr2_check module.umount umount "$dir"
	fi
	rr2_check module.rmmod-refused-nfsd rr2_rmmod_refused
	rr2_check module.nfsd-listens-after-refused \
		grep -q "^rdma $RR2_PORT\$" /proc/fs/nfsd/portlist
	rr2_check module.nfsd-stop rpc.nfsd 0
	rr2_check module.unload-after-nfs rr2_rmmod_retry
	sleep 2
	rr2_check module.no-oops-after-unload sh -c \
		'! dmesg | grep -E "BUG:|Oops|general protection|Call Trace"'
}

# ---- Fault injection, the allocation sites (net/shared/fault.c) ----

# rr2.args allocfail=1 (rpcrdma2 at both ends of one guest): each site
# of /sys/kernel/debug/rpcrdma2/fail armed in turn (TIMES failures,
# every INTERVAL'th call) under O_DIRECT I/O on an NFSv4.2 mount, so
# that every write and read is an RPC; connect and recv-refill after
# the client's transports are dropped, so that the connection is made
# again under the injection.  Per site: the I/O ends within 60 s
# (errors allowed: a hang is not), a failure was injected, and once the
# site is disarmed 4 MiB written and read back from the server match.
# Then (rr2_unload_after_nfs) the module unloads: nothing is held.
rr2_fail_site() {
	local site=$1 times=$2 interval=$3 drop=$4 dir=/mnt/fail
	local d=/sys/kernel/debug/rpcrdma2/fail/$1 before after rc
	before=$(cat "$d/injected") || return 1
	echo "$interval" > "$d/interval" && echo "$times" > "$d/times" &&
		echo 100 > "$d/probability" || return 1
	[ "$drop" = 0 ] || rr2_client_drop
	timeout 60 sh -c "dd if=/dev/urandom of=$dir/f-$site bs=256k count=8 \
		oflag=direct && dd if=$dir/f-$site of=/dev/null bs=256k \
		iflag=direct" > /dev/null 2>&1
	rc=$?
	echo 0 > "$d/probability"
	after=$(cat "$d/injected")
	echo "$site: I/O ended $rc, $((after - before)) failures injected"
	[ "$rc" != 124 ] || { echo "$site: I/O hung"; return 1; }
	[ "$after" -gt "$before" ] || return 1
	rr2_io_back "$dir" 4.2
}

rr2_alloc_faults() {
	local dir=/mnt/fail
	[ "$(rr2_arg allocfail 0)" = 1 ] || return 0
	rr2_check allocfail.mount rr2_mount 4.2 "$dir" /export/v4.2 || return
	# once each: the reconnect's endpoint, its first Receive post (a
	# connection that fails costs the reconnect delay, 5 s and more)
	rr2_check allocfail.connect rr2_fail_site connect 1 1 1
	rr2_check allocfail.recv-refill rr2_fail_site recv-refill 1 1 1
	# registration and the Reply path: every third call, twice (the
	# server closes the connection of a Call it cannot pull or answer,
	# and a reconnect whose first MRs fail waits the delay)
	rr2_check allocfail.reg rr2_fail_site reg 2 3 0
	rr2_check allocfail.reply rr2_fail_site reply 6 3 0
	rr2_check allocfail.umount umount "$dir"
	# V2-SEC-01: no oops, BUG, WARN or lockdep report on any of it
	rr2_check allocfail.kernel-log-clean rr2_kernel_log_clean
}

# ---- Tracing: post and completion events joined by completion ID ----

RR2_TR=/sys/kernel/tracing
RR2_TR_EVENTS="post_send send_done post_recv recv_done svc_read_post
	svc_read_done svc_write_post svc_write_done clnt_reg_post clnt_reg_done
	clnt_inv_post clnt_inv_done
	clnt_call recv svc_reply clnt_chunks svc_chunks clnt_pullup
	clnt_connect clnt_connected clnt_disconnect clnt_close clnt_destroy
	svc_accept svc_close svc_free"

# rr2_trace_set 0|1: rpcrdma2's post and completion events, the
# decisions of one RPC on both hosts, the transport operations, and
# the RDMA core's CQ allocations (whose cq.id our events must carry)
rr2_trace_set() {
	local e
	for e in $RR2_TR_EVENTS; do
		echo "$1" > "$RR2_TR/events/rpcrdma2/rpcrdma2_$e/enable" || return
	done
	echo "$1" > "$RR2_TR/events/rdma_core/cq_alloc/enable"
}

# 1 MiB written and read back on a fresh mount: in both versions an
# RPC with a Read chunk (the server's RDMA Read) and one with a Write
# chunk (its RDMA Write)
rr2_trace_io() {
	local dir=/mnt/trace rc=0
	head -c $((1 << 20)) /dev/urandom > /tmp/trace.data
	rr2_mount 4.2 "$dir" /export/v4.2 || return
	cp /tmp/trace.data "$dir/" && umount "$dir" &&
		rr2_mount 4.2 "$dir" /export/v4.2 &&
		cmp /tmp/trace.data "$dir/trace.data" || rc=1
	rm -f "$dir/trace.data"
	umount "$dir" || rc=1
	return $rc
}

# The awk function the trace checks read an event's "NAME=VALUE" field
# with: field(LINE, NAME) is VALUE, or "" when LINE has no such field.
RR2_AWK_FIELD='
function field(l, name) {
	if (!match(l, " " name "=[^ ]+"))
		return ""
	return substr(l, RSTART + length(name) + 2, RLENGTH - length(name) - 2)
}'

# Reads the trace; prints "CHECK ok|fail|info DETAIL" lines.  A post event
# and a completion event of one work request carry the same cq.id and
# cid: every completion must follow its post (with the same XID where
# the post knows it).  Only the CQs rdma_core:cq_alloc printed while
# tracing count, which also shows that our cq.id is the RDMA core's.
rr2_trace_verdicts() {
	awk "$RR2_AWK_FIELD"'
	/ cq_alloc: / {
		sub(/.*cq\.id=/, ""); sub(/ .*/, "")
		if (!($0 in cqs))
			ncq++
		cqs[$0] = 1
		next
	}
	/ rpcrdma2_[a-z_]+: / {
		match($0, / rpcrdma2_[a-z_]+: /)
		ev = substr($0, RSTART + 10, RLENGTH - 12)
		# only work requests and their completions from here
		if (ev !~ /^post_|_post$|_done$/ || ev ~ /_err$/)
			next
		kind = ev
		sub(/^post_/, "", kind); sub(/_(post|done)$/, "", kind)
		cq = field($0, "cq.id"); k = cq ":" field($0, "cid")
		xid = field($0, "xid")
		# a connection made before the trace began (one of the
		# earlier mounts, closing): its posts were not seen
		if (!(cq in cqs)) {
			older++
			next
		}
		known++
		if (ev ~ /^post_|_post$/) {
			posted[kind, k] = xid; npost[kind]++
			if (kind == "send")
				sent[xid] = cq
			next
		}
		ndone[kind]++
		if (!((kind, k) in posted)) {
			orphan[kind]++
			if (orphans < 3)
				print "unposted-example info " $0
			orphans++
			next
		}
		paired[kind]++
		if (kind != "recv" && posted[kind, k] != xid)
			xidmis[kind]++
		if (field($0, "status") == "SUCCESS")
			good[kind]++
		if (kind == "recv" && xid != "0x00000000" && (xid in sent) &&
		    sent[xid] != cq)
			cross++
		if (kind == "recv" && field($0, "inv_rkey") != "0x00000000")
			reminv++
	}
	function verdict(name, ok, detail) {
		print name " " (ok ? "ok" : "fail") " " detail
	}
	END {
		verdict("cq-ids-from-rdma-core", ncq > 0 && known > 0,
			"cqs=" ncq + 0 " events=" known + 0 \
			" on-older-cqs=" older + 0)
		# a batch of RDMA Writes may go unsignaled (the Reply'"'"'s Send
		# completes it): its posts are enough; and with Send With
		# Invalidate there may be no LOCAL_INV at all
		split("send recv svc_read svc_write clnt_inv", ks, " ")
		for (i = 1; i in ks; i++) {
			t = ks[i]
			verdict(t "-post-and-completion", !orphan[t] && !xidmis[t] &&
				(npost[t] > 0 || t == "clnt_inv") &&
				(good[t] > 0 || t == "svc_write" || !npost[t]),
				"posts=" npost[t] + 0 \
				" completions=" ndone[t] + 0 " paired=" paired[t] + 0 \
				" success=" good[t] + 0 " unposted=" orphan[t] + 0 \
				" xid-mismatch=" xidmis[t] + 0)
		}
		verdict("clnt_reg-post", npost["clnt_reg"] > 0 && !orphan["clnt_reg"],
			"posts=" npost["clnt_reg"] + 0 " failed=" ndone["clnt_reg"] + 0)
		verdict("xid-on-both-ends", cross > 0, "calls-and-replies=" cross + 0)
		verdict("mrs-invalidated", npost["clnt_inv"] > 0 || reminv > 0,
			"local=" npost["clnt_inv"] + 0 " remote=" reminv + 0)
	}' "$RR2_TR/trace"
}

# rr2_trace_one_rpc XID: one RPC followed through both halves by its
# XID, as Documentation/admin-guide.rst ("Tracing one RPC") does.  The
# client's call and Send, the server's Receive, header and reply, the
# server's Send and the client's Receive must all be there, in that
# order, the client's naming the server's port as peer and the
# server's the client's, each half's Send and Receive on its own CQ.
rr2_trace_one_rpc() {
	awk -v xid="$1" -v port="$RR2_PORT" "$RR2_AWK_FIELD"'
	function note(key, l) {
		if (!(key in at)) {
			at[key] = NR; peer[key] = field(l, "peer")
			cq[key] = field(l, "cq.id")
		}
	}
	index($0, " xid=" xid " ") == 0 { next }
	/ rpcrdma2_clnt_call: / { note("call", $0); next }
	/ rpcrdma2_svc_reply: / { note("reply", $0); next }
	{
		p = field($0, "peer")
		side = p ~ ":" port "$" ? "c" : "s"
	}
	/ rpcrdma2_post_send: / { note(side "send", $0); next }
	/ rpcrdma2_recv_done: / { note(side "recv", $0); next }
	/ rpcrdma2_recv: / { note(side "hdr", $0); next }
	END {
		pc = peer["call"]; ps = peer["srecv"]
		n = split("call csend srecv shdr reply ssend crecv", k, " ")
		ok = pc ~ ":" port "$" && ps != "" && ps !~ ":" port "$"
		for (i = 1; i <= n; i++) {
			if (!(k[i] in at)) {
				ok = 0; missing = missing " " k[i]
				continue
			}
			want = k[i] ~ /^(call|c)/ ? pc : ps
			if (peer[k[i]] != want)
				ok = 0
		}
		# the call and reply events follow their own Sends
		n = split("csend srecv shdr ssend crecv", o, " ")
		for (i = 2; i <= n; i++)
			if (at[o[i]] < at[o[i - 1]])
				ok = 0
		if (at["call"] < at["csend"] || at["reply"] < at["ssend"])
			ok = 0
		if (cq["csend"] != cq["crecv"] || cq["ssend"] != cq["srecv"] ||
		    cq["csend"] == cq["ssend"])
			ok = 0
		print "one-rpc-both-hosts " (ok ? "ok" : "fail") " xid=" xid \
			" client-peer=" pc " server-peer=" ps \
			" client-cq=" cq["csend"] "/" cq["crecv"] \
			" server-cq=" cq["srecv"] "/" cq["ssend"] \
			" missing=" (missing == "" ? "none" : substr(missing, 2))
	}' "$RR2_TR/trace"
}

# The transport operations of the mounts and umounts traced: the
# client connects and tears down toward the server's port, the server
# accepts, closes and frees connections from a client port.
rr2_trace_xprt_verdicts() {
	awk -v port="$RR2_PORT" "$RR2_AWK_FIELD"'
	/ rpcrdma2_(clnt|svc)_[a-z]+: / {
		match($0, / rpcrdma2_[a-z_]+: /)
		ev = substr($0, RSTART + 10, RLENGTH - 12)
		p = field($0, "peer")
		if (ev ~ /^clnt_/ && p ~ ":" port "$")
			n[ev]++
		else if (ev ~ /^svc_/ && p != "" && p !~ ":" port "$" &&
			 (ev != "svc_accept" || field($0, "status") == "0"))
			n[ev]++
	}
	function verdict(name, ok, detail) {
		print name " " (ok ? "ok" : "fail") " " detail
	}
	END {
		verdict("client-connect", n["clnt_connect"] > 0 &&
			n["clnt_connected"] > 0, "connect=" n["clnt_connect"] + 0 \
			" connected=" n["clnt_connected"] + 0)
		verdict("client-disconnect", n["clnt_disconnect"] > 0 &&
			n["clnt_destroy"] + n["clnt_close"] > 0,
			"disconnect=" n["clnt_disconnect"] + 0 \
			" destroy=" n["clnt_destroy"] + 0 \
			" close=" n["clnt_close"] + 0)
		verdict("server-accept", n["svc_accept"] > 0,
			"accept=" n["svc_accept"] + 0)
		verdict("server-close", n["svc_close"] > 0 && n["svc_free"] > 0,
			"close=" n["svc_close"] + 0 " free=" n["svc_free"] + 0)
	}' "$RR2_TR/trace"
}

# The server closes a connection once the client's DREQ arrives: give
# the last umount's a moment to show (closed as many as accepted)
rr2_trace_settle() {
	local i a c
	for i in 1 2 3 4 5 6 7 8 9 10; do
		a=$(grep -c ' rpcrdma2_svc_accept: ' "$RR2_TR/trace")
		c=$(grep -c ' rpcrdma2_svc_free: ' "$RR2_TR/trace")
		[ "$c" -ge "$a" ] && return
		sleep 0.5
	done
}

# The backchannel events, around one recalled delegation over RDMA,
# with rpcrdma2 at both ends of one guest (rr2_trace_bc 1|0)
RR2_TR_BC="svc_bc_call clnt_bc_call clnt_bc_reply svc_bc_reply"
rr2_trace_bc_wanted() {
	[ "$RR2_MOD" = ours ] && [ "$RR2_ROLE" = single ] &&
		[ "$(rr2_arg trace 1)" = 1 ]
}
rr2_trace_bc() {
	local e
	[ -d "$RR2_TR/events" ] || mount -t tracefs nodev "$RR2_TR" || return
	if [ "$1" = 1 ]; then
		echo 0 > "$RR2_TR/tracing_on"
		echo > "$RR2_TR/trace"
	fi
	for e in $RR2_TR_BC; do
		echo "$1" > "$RR2_TR/events/rpcrdma2/rpcrdma2_$e/enable" || return
	done
	echo "$1" > "$RR2_TR/tracing_on"
}

# One reverse Call traced at both ends under one XID: the server sent
# it and received the Reply (peer: the client's port), the client took
# it and sent the Reply (peer: the server's port), none dropped
rr2_trace_bc_check() {
	awk -v port="$RR2_PORT" "$RR2_AWK_FIELD"'
	/ rpcrdma2_(svc|clnt)_bc_(call|reply): / {
		match($0, / rpcrdma2_[a-z_]+: /)
		ev = substr($0, RSTART + 10, RLENGTH - 12)
		at_client = field($0, "peer") ~ ":" port "$"
		st = field($0, "status")
		if ((ev ~ /^clnt_/) != at_client || (st != "" && st != "0"))
			next
		seen[ev, field($0, "xid")] = 1
		xids[field($0, "xid")] = 1
	}
	END {
		for (x in xids)
			if (seen["svc_bc_call", x] && seen["clnt_bc_call", x] &&
			    seen["clnt_bc_reply", x] && seen["svc_bc_reply", x]) {
				print "reverse Call xid=" x " traced at both ends"
				exit 0
			}
		print "no reverse Call traced at both ends"
		exit 1
	}' "$RR2_TR/trace"
}

# rpcrdma2 at both ends in one guest: trace a little I/O and check that
# Sends, Receives, RDMA Reads and Writes and FRWR work requests each
# show a post and a completion with matching completion IDs, that one
# RPC can be followed by its XID through both halves, and that the
# mounts' connects and teardowns are traced at both ends.
rr2_trace_check() {
	local name verdict detail xid line
	[ -d "$RR2_TR/events" ] || mount -t tracefs nodev "$RR2_TR" ||
		{ rr2_fail trace.tracefs; return; }
	echo 0 > "$RR2_TR/tracing_on"
	echo 8192 > "$RR2_TR/buffer_size_kb"
	echo > "$RR2_TR/trace"
	rr2_check trace.enable rr2_trace_set 1 || return
	echo 1 > "$RR2_TR/tracing_on"
	rr2_check trace.io rr2_trace_io
	rr2_trace_settle
	echo 0 > "$RR2_TR/tracing_on"
	rr2_trace_set 0
	rr2_info "trace: $(grep -c ' rpcrdma2_' "$RR2_TR/trace") events"
	rr2_info "trace.counts: $(sed -n 's/.* rpcrdma2_\([a-z_]*\): .*/\1/p' \
		"$RR2_TR/trace" | sort | uniq -c | awk '{ printf "%s=%s ", $2, $1 }')"
	# one RPC with a Read chunk, end to end (no /dev/fd here: files)
	xid=$(grep -m1 ' rpcrdma2_svc_read_post: ' "$RR2_TR/trace" |
		sed 's/.* xid=\(0x[0-9a-f]*\).*/\1/')
	grep -E "xid=${xid:-none} |cq_alloc" "$RR2_TR/trace" | head -n 40 |
		sed 's/^ *//' > /tmp/trace.rpc
	while read -r line; do rr2_info "trace.rpc: $line"; done < /tmp/trace.rpc
	grep -E " rpcrdma2_(clnt_(connect|connected|disconnect|close|destroy)|svc_(accept|close|free)): " \
		"$RR2_TR/trace" | head -n 24 | sed 's/^ *//' > /tmp/trace.xprt
	while read -r line; do rr2_info "trace.xprt: $line"; done < /tmp/trace.xprt
	{
		rr2_trace_verdicts
		rr2_trace_one_rpc "${xid:-none}"
		rr2_trace_xprt_verdicts | sed 's/^/xprt-/'
	} > /tmp/trace.verdicts
	rr2_check trace.verdicts test -s /tmp/trace.verdicts
	while read -r name verdict detail; do
		case $verdict in
		ok) rr2_pass "trace.$name" ;;
		fail) rr2_fail "trace.$name" ;;
		esac
		rr2_info "trace.$name: $detail"
	done < /tmp/trace.verdicts
	echo > "$RR2_TR/trace"
}

rr2_main() {
	case $RR2_ROLE in
	single)
		RR2_SERVER_IP=10.111.0.1
		rr2_server_setup || return
		rr2_client_run
		rr2_server_verify
		[ "$RR2_MOD" = ours ] && [ "$(rr2_arg trace 1)" = 1 ] &&
			rr2_trace_check
		[ "$RR2_MOD" = ours ] && rr2_alloc_faults
		[ "$RR2_MOD" = ours ] && rr2_unload_after_nfs
		;;
	server)
		rr2_server_setup || return
		# V2-SEC-12: beside the rdma listener, nfsd offers NFS on TCP
		# port 2049, where RPCSEC_GSS contexts are established
		rr2_check server.tcp-2049 grep -qx "tcp 2049" /proc/fs/nfsd/portlist
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
