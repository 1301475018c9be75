# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Scenario "bench2": the bench workloads across two guests (client and
# server on different hosts joined by one link), for each transport in
# rr2.args (tcp, stock, ours) in one boot of each guest, each round
# beginning with the raw link the way NFS uses it (rr2_raw_clients; with
# rawk=1 first the kernel probe, rr2_rawk_run, from the server).  Prints
#   RR2: BENCH <transport> <test> <value> <unit> <round>
#   RR2: WORK <transport> <workload> <counter> <per-op value>
# on the client (WORK: the client's end only; BENCH kraw: the server)
# and asserts nothing on the figures.
#
# The guests take turns through files in the server's export, reached
# over NFS/TCP (which stays up while the RDMA transports change):
# the client asks for transport T (.bench-want-T), the server loads it
# and listens (.bench-ready-T), the client measures and says so
# (.bench-done-T), the server unloads it; T carries the round number.
# Extra words: runtime=SECONDS (default 10), rounds=N (default 1),
# profile=WORKLOAD (bench.sh's rr2_profile at each end: the client
# touches .bench-prof-T as it starts sampling, and the server samples
# its own vCPUs from then on; each prints its own RR2: PROF lines).

# shellcheck disable=SC1091
. /rr2/scenarios/bench.sh

RR2_CTL=/mnt/ctl

# rr2_server_profile T START DONE: the server's end of the client's
# profile, from the moment the client touches START (looked for once a
# second, as the other files here, so that the server starts no more
# processes during the timed figures than before; the client samples
# for RR2_PROF_SECS inside a fio run 8 s longer, so the server's window
# falls inside it too).  DONE: the client finished without profiling.
# The operations are those nfsd served in the server's own window
# (/proc/net/rpc/nfsd "proc4ops": the count of NFSv4 operation N is
# field N + 3; READ 25, WRITE 38, READ_PLUS 68).
rr2_server_profile() {
	local t=$1 rw qd ops='25 68'
	read -r rw _ qd <<< "$(rr2_prof_job)"
	[ -n "$qd" ] || { rr2_fail "bench.$t.profile-workload"; return; }
	case $rw in *write) ops=38 ;; esac
	rr2_prof_ready "$t" || return
	for _ in $(seq 3600); do
		[ -e "$2" ] || [ -e "$3" ] && break
		sleep 1
	done
	if [ ! -e "$2" ]; then
		rr2_fail "bench.$t.profile-start"
		return
	fi
	# shellcheck disable=SC2086
	rr2_prof_sample rr2_nfsd_ops $ops
	rr2_prof_finish "$t"
}

# rr2_nfsd_ops N...: how many NFSv4 operations N... nfsd has served
rr2_nfsd_ops() {
	awk -v ops="$*" '$1 == "proc4ops" {
		k = split(ops, o, " ")
		for (i = 1; i <= k; i++) n += $(o[i] + 3)
	} END { print n + 0 }' /proc/net/rpc/nfsd
}

rr2_server_transport() {
	local t=$1 f=$1.$RR2_BENCH_ROUND raw=
	rr2_check "bench.$t.server-asked" rr2_wait_file "/export/.bench-want-$f" || return 1
	case $t in
	stock|ours)
		RR2_MOD=$t
		rpc.nfsd 0
		rr2_check "bench.$t.server-load" rr2_load_transport || return 1
		rr2_check "bench.$t.listen" rpc.nfsd --rdma="$RR2_PORT" 4 || return 1
		sleep 11	# the new grace period ends before timing
		;;
	raw)
		# the kernel's raw figures first, alone on the link
		! rr2_rawk_on || rr2_rawk_run "$RR2_CLIENT_IP"
		rr2_raw_servers &
		raw=$!
		;;
	esac
	touch "/export/.bench-ready-$f"
	[ -z "$RR2_BENCH_PROFILE" ] ||
		rr2_server_profile "$t" "/export/.bench-prof-$f" "/export/.bench-done-$f"
	rr2_check "bench.$t.client-done" rr2_wait_file "/export/.bench-done-$f"
	case $t in
	raw)
		rr2_raw_servers_stop "$raw"
		;;
	stock|ours)
		rpc.nfsd 0
		if [ "$t" = stock ]; then modprobe -r rpcrdma; else rmmod rpcrdma2; fi
		rpc.nfsd 4
		;;
	esac
}

rr2_client_transport() {
	local t=$1 f=$1.$RR2_BENCH_ROUND opts
	touch "$RR2_CTL/.bench-want-$f"
	rr2_check "bench.$t.server-ready" rr2_wait_file "$RR2_CTL/.bench-ready-$f" || return 1
	if [ "$t" = raw ]; then
		rr2_raw_clients
		touch "$RR2_CTL/.bench-done-$f"
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
	if rr2_check "bench.$t.mount" mount -t nfs -o "$opts" \
			"$RR2_SERVER_IP:/export/bench" /mnt/b; then
		[ "$RR2_BENCH_ROUND" != 1 ] ||
			rr2_info "bench $t: $(grep -A1 'mounted on /mnt/b' /proc/self/mountstats | tail -n1)"
		rr2_fio_jobs "$t"
		rr2_meta "$t"
		[ "$RR2_BENCH_ROUND" != 1 ] || [ "$t" = tcp ] || rr2_work "$t"
		[ -z "$RR2_BENCH_PROFILE" ] || rr2_profile "$t" "$RR2_CTL/.bench-prof-$f"
		rm -f /mnt/b/fio.dat
		rr2_check "bench.$t.umount" umount /mnt/b
	fi
	case $t in
	stock) modprobe -r rpcrdma ;;
	ours) rmmod rpcrdma2 ;;
	esac
	touch "$RR2_CTL/.bench-done-$f"
}

rr2_main() {
	local t
	rr2_bench_args
	case $RR2_ROLE in
	server)
		rr2_check setup.rdma rr2_setup_rdma "$RR2_SERVER_IP" || return
		rr2_check setup.nfsd rr2_start_nfsd || return
		mkdir -p /export/bench
		rr2_check setup.readdir-dir rr2_readdir_dir /export/bench/rd || return
		for RR2_BENCH_ROUND in $(seq "$RR2_BENCH_ROUNDS"); do
			for t in raw $RR2_BENCH_TRANSPORTS; do
				rr2_server_transport "$t" || break 2
			done
		done
		;;
	client)
		rr2_check setup.rdma rr2_setup_rdma "$RR2_CLIENT_IP" || return
		! rr2_rawk_on || rr2_check setup.rawk rr2_rawk_listen || return
		modprobe -a sunrpc nfs nfsv4 || return
		rr2_control_mount "$RR2_CTL" || return
		for RR2_BENCH_ROUND in $(seq "$RR2_BENCH_ROUNDS"); do
			for t in raw $RR2_BENCH_TRANSPORTS; do
				rr2_client_transport "$t"
			done
		done
		umount "$RR2_CTL"
		;;
	esac
}
