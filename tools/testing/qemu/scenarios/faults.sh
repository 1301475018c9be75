# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Scenario "faults": the fault soak (issue #10).  Two guests; NFSv4.2
# over RDMA carries verified I/O while, one after the other:
#
#   nfsd-restart   the server stops nfsd and starts it again
#   rxe-readd      the server deletes its rxe device and adds it again
#   link-flap      the server's link goes down for 3 s and up again
#                  (only with faults=..., see RR2_FAULTS)
#   client-drop    the client drops its own connection (sysfs dstaddr,
#                  which makes sunrpc disconnect the transport)
#   client-rxe-readd  the client deletes its rxe device under the mount
#                  and adds it again (only with faults=...)
#
# Data: fio writes a file and verifies it (crc32c), over and over, for
# the whole run; a probe loop writes a 64 KiB block with O_DIRECT and
# reads it back, and logs the time of each good round.  For each fault
# the longest gap between good rounds, from the moment the client asks
# for the fault until the mount is usable again, at least 6 s after the
# fault is done, is the stall:
#
#   RR2: INFO fault <name> stall=<seconds> rounds=<n>
#
# Checks per fault: the mount is usable afterwards and no probe round
# read back wrong data; at the end: fio found no verification error,
# no hung task was reported, and after umount and "rpc.nfsd 0" no QP,
# CQ, MR or PD of the transport is left on either side's device.  With
# rpcrdma2 as the client, client-drop must show in its trace events: a
# close or disconnect toward the server, then a connection settled.
#
# The guests take turns through files in the server's export reached
# over NFS/TCP (as in bench2): the client asks for fault F
# (.fault-want-F), the server makes it and says so (.fault-done-F).
# The figures are printed, never asserted on.
#
# rr2.args words: faults=a:b (a subset, in order), settle=SECONDS (the
# window after each fault, default 6), rdmavers=N as in baseline.

# shellcheck disable=SC1091
. /rr2/scenarios/baseline.sh

RR2_CTL=/mnt/ctl
# link-flap is not in the default list: on 6.12, a MAD that rxe fails to
# send while its netdev is down puts the device's GSI QP (QP1) in the
# error state for good (rxe_requester() errors every QP type), and from
# then on rdma_cm cannot connect through that device at all.  A server
# that closes a connection during the 3 s sends such a MAD (its DREQ)
# unless it waits for the link: rpcrdma2 does (it parks the cm_id,
# net/server/transport.c), the stock module does not, so the runs with
# the stock server leave it out and those with rpcrdma2's name it
# (faults=nfsd-restart:rxe-readd:link-flap:client-drop).
RR2_FAULTS="nfsd-restart rxe-readd client-drop"

rr2_faults_list() {
	local f
	f=$(rr2_arg faults "")
	if [ -n "$f" ]; then echo "${f//:/ }"; else echo "$RR2_FAULTS"; fi
}

rr2_server_fault() {
	local f=$1
	case $f in
	nfsd-restart)
		rpc.nfsd 0 && sleep 1 &&
			rpc.nfsd --grace-time 10 --lease-time 10 \
				--rdma="$RR2_PORT" 4
		;;
	rxe-readd)
		rdma link delete rxe0 && sleep 1 &&
			rdma link add rxe0 type rxe netdev eth0 && rr2_rxe_active 100
		;;
	link-flap)
		ip link set eth0 down && sleep 3 && ip link set eth0 up &&
			rr2_rxe_active 100
		;;
	client-drop|client-rxe-readd)
		: ;;
	esac
}

# What the transport holds on the RDMA devices, one count per line: its
# RC QPs, rdma_cm IDs, CQs, MRs and PDs.  Restrack names a kernel user
# after its module, but a QP made through rdma_cm after rdma_cm
# ("comm [rdma_cm]"), so QPs are counted by type: in these guests only
# the transport makes RC QPs.  Fails, printing nothing, when rdma(8)
# cannot tell: an answer it did not give is not "none".
rr2_rdma_leftovers() {
	local mod t out
	case $RR2_MOD in ours) mod=rpcrdma2 ;; *) mod=rpcrdma ;; esac
	out=$(rdma resource show qp) || return 1
	# grep -c prints 0 and exits 1 when it counts none
	printf '%s\n' "$out" | grep -c " type RC " || true
	for t in cm_id cq mr pd; do
		out=$(rdma resource show "$t") || return 1
		printf '%s\n' "$out" | grep -c "\[$mod\]" || true
	done
}

rr2_no_leftovers() {
	local i n
	for i in $(seq 60); do
		n=$(rr2_rdma_leftovers) || { echo "rdma resource show failed"; return 1; }
		[ "$(printf '%s\n' "$n" | sort -u)" = 0 ] && return 0
		sleep 1
	done
	rdma resource show 2>&1
	return 1
}

# The control for rr2_no_leftovers: while the soak mount is up, the
# same count sees the transport's QP, rdma_cm ID, CQ and PD (so "none"
# afterwards is an answer, not a count that cannot see anything).
rr2_rdma_in_use() {
	local n
	n=$(rr2_rdma_leftovers) || { echo "rdma resource show failed"; return 1; }
	echo "qp cm_id cq mr pd: $(printf '%s\n' "$n" | tr '\n' ' ')"
	[ "$(printf '%s\n' "$n" | sed -n 1p)" -ge 1 ] &&
		[ "$(printf '%s\n' "$n" | sed -n 2p)" -ge 1 ] &&
		[ "$(printf '%s\n' "$n" | sed -n 3p)" -ge 1 ] &&
		[ "$(printf '%s\n' "$n" | sed -n 5p)" -ge 1 ]
}

rr2_no_hung_tasks() {
	! dmesg | grep -E "blocked for more than|BUG:|Oops|general protection"
}

# With rr2.args word diag=1: what nfsd's threads and the RDMA device
# hold 40 s after a fault.
rr2_server_diag() {
	local p
	for p in $(pgrep -x nfsd); do
		rr2_info "after $1: nfsd $p: $(tr '\n' ' ' < "/proc/$p/stack")"
	done
	rdma resource show qp | sed "s/^/RR2: INFO after $1: /"
	dmesg | tail -n 15 | sed "s/^/RR2: INFO after $1: dmesg /"
	[ -e /sys/kernel/tracing/trace ] &&
		grep -E 'cm_event|icm_|cma_|wc_error|close|disconn|dev_' \
			/sys/kernel/tracing/trace | tail -n 60 |
		sed "s/^/RR2: INFO after $1: trace /"
}

# With diag=1: the connection manager's events (rdma_cm, ib_cm) and
# rpcrdma2's, for rr2_server_diag
rr2_diag_trace() {
	local t=/sys/kernel/tracing/events
	[ -d $t ] || mount -t tracefs nodev /sys/kernel/tracing || return
	echo 4096 > /sys/kernel/tracing/buffer_size_kb
	for s in rdma_cma ib_cma rpcrdma2; do
		[ -e "$t/$s/enable" ] && echo 1 > "$t/$s/enable"
	done
}

rr2_server() {
	local f
	rr2_server_setup || return
	[ -n "$(rr2_arg diag "")" ] && rr2_diag_trace
	mkdir -p /export/soak
	chmod 1777 /export/soak
	local first=1
	for f in $(rr2_faults_list); do
		rr2_check "fault.$f.asked" rr2_wait_file "/export/.fault-want-$f" 900 ||
			return
		# the client's soak mount is up now
		[ -z "$first" ] || rr2_check server.rdma-resources-seen rr2_rdma_in_use
		first=
		rr2_check "fault.$f.made" rr2_server_fault "$f"
		touch "/export/.fault-done-$f"
		[ -n "$(rr2_arg diag "")" ] && (sleep 40; rr2_server_diag "$f") &
	done
	rr2_server_wait_client
	rr2_check server.nfsd-stop rpc.nfsd 0
	rr2_check server.no-rdma-leftovers rr2_no_leftovers
	rr2_check server.no-hung-task rr2_no_hung_tasks
}

# The probe: write a 64 KiB block with O_DIRECT, read it back with
# O_DIRECT, compare; log the time of each good round, count bad ones
# and failed ones (a hard mount retries through a fault: an I/O error
# reached the application).
rr2_probe() {
	local dir=$1 n=0 err
	head -c 65536 /dev/urandom > /tmp/probe.pat
	: > /tmp/probe.ticks
	: > /tmp/probe.bad
	: > /tmp/probe.err
	while [ ! -e /tmp/probe.stop ]; do
		n=$((n + 1))
		if err=$(dd if=/tmp/probe.pat of="$dir/probe" bs=64k count=1 \
			oflag=direct conv=notrunc status=none 2>&1 &&
		   dd if="$dir/probe" of=/tmp/probe.got bs=64k count=1 \
			iflag=direct status=none 2>&1); then
			if cmp -s /tmp/probe.pat /tmp/probe.got; then
				date +%s.%N >> /tmp/probe.ticks
			else
				echo "$n" >> /tmp/probe.bad
			fi
		else
			echo "$n $(date +%s.%N) $err" >> /tmp/probe.err
		fi
	done
}

# rr2_stall T0 T1: the longest gap between good probe rounds in [T0,T1]
# (from the last round before T0), and the rounds in the window.
rr2_stall() {
	awk -v t0="$1" -v t1="$2" '
		$1 < t0 { last = $1; next }
		$1 <= t1 { if (last != "" && $1 - last > max) max = $1 - last
			   if (last == "") max = $1 - t0
			   last = $1; n++ }
		END { if (n == 0) max = t1 - t0
		      else if (t1 - last > max) max = t1 - last
		      printf "stall=%.1f rounds=%d\n", max, n }' /tmp/probe.ticks
}

# What the client's transports were doing, when a fault did not heal.
rr2_client_diag() {
	local dir=$1 x
	rr2_info "mountstats: $(grep -A1 "mounted on $dir" /proc/self/mountstats | tail -n1)"
	for x in /sys/kernel/sunrpc/xprt-switches/switch-*/xprt-*; do
		rr2_info "$x: $(tr '\n' ' ' < "$x/xprt_info" 2>/dev/null) state=$(cat "$x/xprt_state" 2>/dev/null)"
	done
	dmesg | tail -n 25 | sed 's/^/RR2: INFO dmesg /'
	rdma link show | sed 's/^/RR2: INFO /'
	ip -br link | sed 's/^/RR2: INFO /'
}

# Device removal on the client: the transport lets go of the device
# (rdma link delete waits for every user), and the mount reconnects
# through the device added again.
rr2_client_rxe_readd() {
	timeout 120 rdma link delete "$RR2_IBDEV" && sleep 1 &&
		rdma link add "$RR2_IBDEV" type rxe netdev eth0 &&
		rr2_rxe_active 100
}

# rpcrdma2 as the client: its transport-operation events around the
# client-drop fault (rr2_drop_trace 1|0)
RR2_DROP_EVENTS="clnt_close clnt_disconnect clnt_connect clnt_connected"
rr2_drop_trace() {
	local t=/sys/kernel/tracing e
	[ -d $t/events ] || mount -t tracefs nodev $t || return
	[ "$1" = 0 ] || echo > $t/trace
	for e in $RR2_DROP_EVENTS; do
		echo "$1" > "$t/events/rpcrdma2/rpcrdma2_$e/enable" || return
	done
}

# The drop is traced: a close or disconnect toward the server's port,
# then a connection that settles again
rr2_drop_traced() {
	awk -v port="$RR2_PORT" '
	/ rpcrdma2_clnt_[a-z]+: / && index($0, ":" port " ") {
		match($0, / rpcrdma2_clnt_[a-z]+: /)
		ev = substr($0, RSTART + 15, RLENGTH - 17)
		if (ev == "close" || ev == "disconnect")
			down++
		else if (ev == "connected" && down)
			up++
	}
	END {
		print "down=" down + 0 " connected-after=" up + 0
		exit !(down && up)
	}' /sys/kernel/tracing/trace
}

# rr2_blocked_tasks: every task in D state and the kernel stack it
# waits in, as INFO lines on the console (a killable wait, such as
# sunrpc's for its transport's lock, never draws a hung-task report)
rr2_blocked_tasks() {
	local d s
	for d in /proc/[0-9]*; do
		s=$(sed -n 's/.*) \(.\) .*/\1/p' "$d/stat" 2>/dev/null)
		[ "$s" = D ] || continue
		rr2_info "blocked ${d#/proc/} $(cat "$d/comm" 2>/dev/null):"
		sed 's/^/RR2: INFO     /' "$d/stack" 2>/dev/null
	done
}

# rr2_watch SECONDS CMD...: CMD (a function too), failing with the
# blocked tasks on the console if it has not ended after SECONDS, so
# that a fault that hangs says where instead of stopping the run until
# its timeout.  CMD's output is kept apart: a CMD still running must
# not hold rr2_check's output open.
rr2_watch() {
	local secs=$1 p
	shift
	"$@" > /tmp/watch.out 2>&1 &
	p=$!
	for _ in $(seq "$secs"); do
		if ! kill -0 "$p" 2> /dev/null; then
			wait "$p"
			p=$?
			cat /tmp/watch.out
			return "$p"
		fi
		sleep 1
	done
	{
		rr2_info "still running after $secs s: $*"
		rr2_blocked_tasks
	} > /dev/console
	return 1
}

rr2_usable() {
	local dir=$1
	timeout 120 sh -c "echo usable > '$dir/usable' && grep -q usable '$dir/usable'"
}

rr2_client() {
	local dir=/mnt/soak f t0 t1 settle fio_pid probe_pid
	settle=$(rr2_arg settle 6)
	rr2_check setup.rdma rr2_setup_rdma "$RR2_CLIENT_IP" || return
	rr2_check setup.transport rr2_load_transport || return
	rr2_control_mount "$RR2_CTL" || return
	rr2_check mount.soak rr2_mount 4.2 "$dir" /export/soak || return
	rr2_check_rdma_version "$dir" 4.2

	fio --name=soak --directory="$dir" --ioengine=psync --direct=1 \
		--rw=write --bs=256k --size=16M --loops=100000 \
		--verify=crc32c --do_verify=1 --verify_fatal=1 \
		--output-format=terse > /tmp/fio-soak.out 2>&1 &
	fio_pid=$!
	rr2_probe "$dir" &
	probe_pid=$!
	sleep 5

	for f in $(rr2_faults_list); do
		t0=$(date +%s.%N)
		touch "$RR2_CTL/.fault-want-$f"
		[ "$f" = client-drop ] && [ "$RR2_MOD" = ours ] &&
			rr2_watch 120 rr2_drop_trace 1
		[ "$f" = client-drop ] &&
			rr2_check "fault.$f.made" rr2_watch 120 rr2_client_drop
		[ "$f" = client-rxe-readd ] &&
			rr2_check "fault.$f.made" rr2_client_rxe_readd
		rr2_check "fault.$f.done" rr2_wait_file "$RR2_CTL/.fault-done-$f" 300
		sleep "$settle"
		rr2_check "fault.$f.mount-usable" rr2_usable "$dir" ||
			rr2_client_diag "$dir"
		if [ "$f" = client-drop ] && [ "$RR2_MOD" = ours ]; then
			rr2_check "fault.$f.traced" rr2_drop_traced
			rr2_info "fault $f trace: $(rr2_drop_traced)"
			rr2_drop_trace 0
		fi
		t1=$(date +%s.%N)
		rr2_info "fault $f $(rr2_stall "$t0" "$t1") mod=$RR2_MOD"
	done

	rr2_check client.rdma-resources-seen rr2_rdma_in_use
	touch /tmp/probe.stop
	wait "$probe_pid"
	rr2_info "probe: $(wc -l < /tmp/probe.ticks) good rounds, $(wc -l < /tmp/probe.bad) bad, $(wc -l < /tmp/probe.err) failed"
	rr2_check probe.rounds test -s /tmp/probe.ticks
	rr2_check probe.no-bad-data test ! -s /tmp/probe.bad
	rr2_check probe.no-io-errors sh -c '! head -n 5 /tmp/probe.err | grep .'
	rr2_check fio.still-running kill -0 "$fio_pid"
	kill -INT "$fio_pid" 2>/dev/null
	for _ in $(seq 60); do kill -0 "$fio_pid" 2>/dev/null || break; sleep 1; done
	kill -KILL "$fio_pid" 2>/dev/null
	rr2_check fio.no-verify-errors sh -c \
		'! grep -Ei "verify|bad magic|crc32c" /tmp/fio-soak.out'
	rr2_info "fio: $(head -c 300 /tmp/fio-soak.out)"
	rr2_info "after faults: $(rr2_mount_rdma2 "$dir")"
	rr2_check umount.soak timeout 120 umount "$dir" || umount -l "$dir"
	rr2_check client.no-rdma-leftovers rr2_no_leftovers
	rr2_check client.no-hung-task rr2_no_hung_tasks
	touch "$RR2_CTL/.rr2-done"
	# the server powers off once it sees that file: a plain umount
	# racing it can wait forever on the server's mountd (NFSv3 UMNT)
	umount -l "$RR2_CTL"
}

rr2_main() {
	case $RR2_ROLE in
	server) rr2_server ;;
	client) rr2_client ;;
	*) rr2_fail "faults needs two guests (-g 2)" ;;
	esac
}
