# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Scenario "bench3": scale.  One server guest and two client guests
# (run-scenario.sh -g 3: role "client" on the server's first link,
# "client2" on its second), both clients running the same fio job at
# the same time, for each transport in rr2.args (tcp, stock, ours), at
# nconnect=1 and nconnect=4, round after round.  Each round begins
# with the raw link between the server and the first client
# (rr2_raw_clients, client2 idle).  The server prints every figure:
#   RR2: BENCH <transport> <job>-nc<N>-<what> <value> <unit> <round>
# what: c1 and c2, each client's own figure; sum, the aggregate; fair,
# the smaller client's figure over the larger's; srvcpu, the server's
# busy CPU time (both vCPUs, /proc/stat: all but idle and iowait) per
# NFS READ or WRITE operation nfsd served (/proc/net/rpc/nfsd
# proc4ops), from the moment it lets both clients go until both are
# done.  Nothing is asserted on the figures.
#
# The guests take turns through files in the server's /export/.b3,
# reached over each client's NFSv3/TCP control mount: the server says a
# transport is up (T.R.up), each client mounts and says so for each job
# (JOB.ready-ROLE), the server snapshots its counters and lets both go
# at once (JOB.go), each client writes its figure (JOB.res-ROLE), and
# once both have the server prints; each client then unmounts
# (T.R.off-ROLE) and the server unloads the transport.  A round's raw
# tests: raw.R.up, raw.R.off-client.
# Extra words: runtime=SECONDS (default 10), rounds=N (default 1).

# shellcheck disable=SC1091
. /rr2/scenarios/bench.sh

RR2_B3_SRV=/export/.b3
RR2_B3_CTL=/mnt/ctl/.b3
RR2_B3_NCONNECT='1 4'
# name rw bs iodepth unit: what both clients run at once
RR2_B3_JOBS='randread-4k-qd16 randread 4k 16 IOPS
seqread-1m read 1m 4 MiB/s'

# rr2_b3_wait FILE [SECONDS]: wait for FILE, looking five times a second
# (default 900 s), so that both clients start within a fifth of a second
rr2_b3_wait() {
	for _ in $(seq $(( ${2:-900} * 5 ))); do
		[ -e "$1" ] && return 0
		sleep 0.2
	done
	return 1
}

# rr2_b3_cpu: busy jiffies of all CPUs so far (user nice system irq
# softirq steal: all but idle and iowait)
rr2_b3_cpu() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}

# rr2_b3_ops: NFSv4 READ, WRITE and READ_PLUS operations nfsd has
# served (proc4ops: operation N is field N + 3)
rr2_b3_ops() {
	awk '$1 == "proc4ops" { print $28 + $41 + $71 }' /proc/net/rpc/nfsd
}

# ---- the server ----

# rr2_b3_server_job T NC JOB UNIT: both clients' run of JOB, timed
rr2_b3_server_job() {
	local t=$1 nc=$2 job=$3 unit=$4 k c0 o0 c1 o1 hz v1 v2 role
	k=$RR2_B3_SRV/$t.$RR2_BENCH_ROUND.$nc.$job
	for role in client client2; do
		rr2_check "bench.$t.nc$nc.$job.$role-ready" \
			rr2_b3_wait "$k.ready-$role" || return 1
	done
	c0=$(rr2_b3_cpu) o0=$(rr2_b3_ops)
	touch "$k.go"
	for role in client client2; do
		rr2_check "bench.$t.nc$nc.$job.$role-done" \
			rr2_b3_wait "$k.res-$role" || return 1
	done
	c1=$(rr2_b3_cpu) o1=$(rr2_b3_ops)
	hz=$(getconf CLK_TCK)
	v1=$(cat "$k.res-client") v2=$(cat "$k.res-client2")
	k=$job-nc$nc
	if [ -n "$v1" ] && [ -n "$v2" ]; then
		rr2_bench "$t" "$k-c1" "$v1" "$unit"
		rr2_bench "$t" "$k-c2" "$v2" "$unit"
		rr2_bench "$t" "$k-sum" "$(awk -v a="$v1" -v b="$v2" 'BEGIN { printf "%.1f", a + b }')" "$unit"
		rr2_bench "$t" "$k-fair" "$(awk -v a="$v1" -v b="$v2" 'BEGIN {
			if (a > b) { x = a; a = b; b = x }
			printf "%.3f", (b > 0 ? a / b : 0) }')" min/max
	else
		rr2_fail "bench.$t.nc$nc.$job.figures"
	fi
	if [ $((o1 - o0)) -gt 0 ]; then
		rr2_bench "$t" "$k-srvcpu" "$(awk -v c=$((c1 - c0)) -v o=$((o1 - o0)) -v hz="$hz" \
			'BEGIN { printf "%.3f", 1000 * c / hz / o }')" ms/op
	fi
}

rr2_b3_server_transport() {
	local t=$1 k=$RR2_B3_SRV/$1.$RR2_BENCH_ROUND nc job rw bs qd unit role raw
	case $t in
	raw)
		# the kernel's raw figures first, alone on the first link
		! rr2_rawk_on || rr2_rawk_run "$RR2_CLIENT_IP"
		rr2_raw_servers &
		raw=$!
		touch "$k.up"
		rr2_check bench.raw.client-done rr2_b3_wait "$k.off-client"
		rr2_raw_servers_stop "$raw"
		return
		;;
	stock|ours)
		RR2_MOD=$t
		rpc.nfsd 0
		rr2_check "bench.$t.server-load" rr2_load_transport || return 1
		rr2_check "bench.$t.listen" rpc.nfsd --rdma="$RR2_PORT" 8 || return 1
		sleep 11	# the new grace period ends before timing
		;;
	esac
	touch "$k.up"
	for nc in $RR2_B3_NCONNECT; do
		while read -r job rw bs qd unit; do
			rr2_b3_server_job "$t" "$nc" "$job" "$unit" || break
		done <<< "$RR2_B3_JOBS"
	done
	for role in client client2; do
		rr2_check "bench.$t.$role-off" rr2_b3_wait "$k.off-$role"
	done
	case $t in
	stock|ours)
		rpc.nfsd 0
		if [ "$t" = stock ]; then modprobe -r rpcrdma; else rmmod rpcrdma2; fi
		rpc.nfsd 8
		;;
	esac
}

# ---- the clients ----

# rr2_b3_fio JOB RW BS QD: one fio run on /mnt/b, its figure (MiB/s or
# IOPS) on stdout
rr2_b3_fio() {
	local out
	out=$(fio --name="$1" --directory=/mnt/b --filename="$RR2_ROLE.dat" \
		--size=256m --ioengine=libaio --direct=1 \
		--rw="$2" --bs="$3" --iodepth="$4" --time_based \
		--runtime="$RR2_BENCH_RUNTIME" --ramp_time=1 \
		--output-format=terse --terse-version=3 2>/dev/null < /dev/null) || return 1
	# terse v3: field 7/8 read KiB/s and IOPS
	case $2 in
	read) echo "$out" | awk -F';' '{ printf "%.1f\n", $7 / 1024 }' ;;
	randread) echo "$out" | awk -F';' '{ print $8 }' ;;
	esac
}

rr2_b3_client_transport() {
	local t=$1 k=$RR2_B3_CTL/$1.$RR2_BENCH_ROUND opts nc job rw bs qd unit j v
	rr2_check "bench.$t.server-up" rr2_b3_wait "$k.up" || return 1
	if [ "$t" = raw ]; then
		rr2_raw_clients
		touch "$k.off-$RR2_ROLE"
		return
	fi
	case $t in
	tcp)
		opts=vers=4.2,proto=tcp ;;
	stock|ours)
		RR2_MOD=$t
		rr2_check "bench.$t.load" rr2_load_transport || return 1
		opts=vers=4.2,proto=rdma,port=$RR2_PORT ;;
	esac
	mkdir -p /mnt/b
	for nc in $RR2_B3_NCONNECT; do
		rr2_check "bench.$t.nc$nc.mount" mount -t nfs -o "$opts,nconnect=$nc" \
			"$RR2_SERVER_IP:/export/bench" /mnt/b || break
		while read -r job rw bs qd unit; do
			j=$k.$nc.$job
			touch "$j.ready-$RR2_ROLE"
			rr2_check "bench.$t.nc$nc.$job.go" rr2_b3_wait "$j.go" || break
			v=$(rr2_b3_fio "$job" "$rw" "$bs" "$qd") ||
				rr2_fail "bench.$t.nc$nc.$job"
			echo "$v" > "$j.res-$RR2_ROLE.tmp"
			mv "$j.res-$RR2_ROLE.tmp" "$j.res-$RR2_ROLE"
		done <<< "$RR2_B3_JOBS"
		rr2_check "bench.$t.nc$nc.umount" umount /mnt/b
	done
	case $t in
	stock) modprobe -r rpcrdma ;;
	ours) rmmod rpcrdma2 ;;
	esac
	touch "$k.off-$RR2_ROLE"
}

rr2_main() {
	local w t
	rr2_bench_args
	case $RR2_ROLE in
	server)
		rr2_check setup.rdma rr2_setup_rdma "$RR2_SERVER_IP" || return
		rr2_check setup.rdma2 rr2_setup_rdma2 || return
		rr2_check setup.nfsd rr2_start_nfsd || return
		rpc.nfsd 8
		mkdir -p /export/bench "$RR2_B3_SRV"
		# each client's file, written here in no transport's time
		for w in client client2; do
			rr2_check "setup.file-$w" dd if=/dev/zero \
				of="/export/bench/$w.dat" bs=1M count=256 status=none || return
		done
		for RR2_BENCH_ROUND in $(seq "$RR2_BENCH_ROUNDS"); do
			for t in raw $RR2_BENCH_TRANSPORTS; do
				rr2_b3_server_transport "$t" || break 2
			done
		done
		;;
	client|client2)
		rr2_check setup.rdma rr2_setup_rdma "$RR2_CLIENT_IP" || return
		if [ "$RR2_ROLE" = client ] && rr2_rawk_on; then
			rr2_check setup.rawk rr2_rawk_listen || return
		fi
		modprobe -a sunrpc nfs nfsv4 || return
		rr2_control_mount /mnt/ctl || return
		for RR2_BENCH_ROUND in $(seq "$RR2_BENCH_ROUNDS"); do
			for t in raw $RR2_BENCH_TRANSPORTS; do
				[ "$t" != raw ] || [ "$RR2_ROLE" = client ] || continue
				rr2_b3_client_transport "$t"
			done
		done
		umount /mnt/ctl
		;;
	esac
}
