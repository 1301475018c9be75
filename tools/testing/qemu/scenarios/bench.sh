# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Scenario "bench": the same workloads over each transport named in
# rr2.args (tcp, stock, ours), in one guest and one boot, NFSv4.2 over
# rxe or TCP to the guest's own nfsd.  Prints one line per figure:
#   RR2: BENCH <transport> <test> <value> <unit>
# and nothing is asserted on the figures (they are not tests).  Setup
# steps still report PASS/FAIL so a broken run is not mistaken for a
# slow one.  Role: single.  Extra words: runtime=SECONDS (default 10).

RR2_BENCH_RUNTIME=10

rr2_bench() { echo "RR2: BENCH $*"; }

# rr2_fio NAME RW BS DEPTH: one fio job on /mnt/b, figure in MiB/s or IOPS
rr2_fio() {
	local t=$1 name=$2 rw=$3 bs=$4 qd=$5 out
	out=$(fio --name="$name" --directory=/mnt/b --filename=fio.dat \
		--size=256m --rw="$rw" --bs="$bs" --iodepth="$qd" \
		--ioengine=libaio --direct=1 --time_based \
		--runtime="$RR2_BENCH_RUNTIME" --ramp_time=1 \
		--output-format=terse --terse-version=3 2>/dev/null) || {
		rr2_fail "bench.$t.$name"
		return
	}
	# terse v3: field 7/8 read KiB/s and IOPS, 48/49 write KiB/s and IOPS
	case $rw in
	read)      echo "$out" | awk -F';' -v t="$t" -v n="$name" \
			'{ printf "RR2: BENCH %s %s %.1f MiB/s\n", t, n, $7 / 1024 }' ;;
	write)     echo "$out" | awk -F';' -v t="$t" -v n="$name" \
			'{ printf "RR2: BENCH %s %s %.1f MiB/s\n", t, n, $48 / 1024 }' ;;
	randread)  echo "$out" | awk -F';' -v t="$t" -v n="$name" \
			'{ printf "RR2: BENCH %s %s %d IOPS\n", t, n, $8 }' ;;
	randwrite) echo "$out" | awk -F';' -v t="$t" -v n="$name" \
			'{ printf "RR2: BENCH %s %s %d IOPS\n", t, n, $49 }' ;;
	esac
}

# rr2_meta T: create, stat and unlink rates over 500 files.  Each phase
# is one process (fork+exec under TCG costs more than an NFS round
# trip), and caches are dropped first so stat and unlink reach the
# server.
rr2_meta() {
	local t=$1 d=/mnt/b/meta n=500 t0 t1 op i
	mkdir -p "$d"
	for op in create stat unlink; do
		sync
		echo 3 > /proc/sys/vm/drop_caches
		t0=$(date +%s%N)
		case $op in
		create) for i in $(seq $n); do : > "$d/f$i"; done ;;
		stat) stat "$d"/f* > /dev/null ;;
		unlink) rm -f "$d"/f* ;;
		esac
		t1=$(date +%s%N)
		rr2_bench "$t" "$op" "$(( n * 1000000000 / (t1 - t0) ))" ops/s
	done
	rmdir "$d"
}

rr2_perftest() {
	local out
	ib_write_bw -R -d rxe0 -F -s 65536 -n 3000 > /tmp/wbw.srv 2>&1 &
	sleep 1
	out=$(ib_write_bw -R -d rxe0 -F -s 65536 -n 3000 "$RR2_SERVER_IP" 2>&1)
	wait
	echo "$out" | awk '$1 == 65536 && NF >= 4 { printf "RR2: BENCH raw ib_write_bw-64k %.1f MiB/s\n", $4 }'
	ib_send_lat -R -d rxe0 -F -s 64 -n 2000 > /tmp/slat.srv 2>&1 &
	sleep 1
	out=$(ib_send_lat -R -d rxe0 -F -s 64 -n 2000 "$RR2_SERVER_IP" 2>&1)
	wait
	echo "$out" | awk '$1 == 64 && NF >= 6 { printf "RR2: BENCH raw ib_send_lat-64 %s usec\n", $6 }'
}

# rr2_bench_transport T: listeners, mount, workloads, unmount
rr2_bench_transport() {
	local t=$1 opts
	case $t in
	tcp)
		opts=vers=4.2,proto=tcp ;;
	stock|ours)
		RR2_MOD=$t
		rpc.nfsd 0
		rr2_check "bench.$t.load" rr2_load_transport || return
		rr2_check "bench.$t.listen" rpc.nfsd --rdma="$RR2_PORT" 4 || return
		sleep 11	# let the new grace period end before timing
		opts=vers=4.2,proto=rdma,port=$RR2_PORT ;;
	esac
	mkdir -p /mnt/b
	rr2_check "bench.$t.mount" mount -t nfs -o "$opts" "$RR2_SERVER_IP:/export" /mnt/b || return
	rr2_info "bench $t: $(grep -A1 'mounted on /mnt/b' /proc/self/mountstats | tail -n1)"
	rr2_fio "$t" seqwrite-1m write 1m 4
	rr2_fio "$t" seqread-1m read 1m 4
	rr2_fio "$t" randread-4k-qd1 randread 4k 1
	rr2_fio "$t" randread-4k-qd16 randread 4k 16
	rr2_fio "$t" randwrite-4k-qd1 randwrite 4k 1
	rr2_fio "$t" randwrite-4k-qd16 randwrite 4k 16
	rr2_meta "$t"
	rm -f /mnt/b/fio.dat
	rr2_check "bench.$t.umount" umount /mnt/b
	case $t in
	stock|ours)
		# drop every listener, unload, and bring TCP back for the next
		rpc.nfsd 0
		if [ "$t" = stock ]; then modprobe -r rpcrdma; else rmmod rpcrdma2; fi
		rpc.nfsd 4
		sleep 11 ;;
	esac
}

rr2_main() {
	local w t transports=
	for w in $RR2_ARGS; do
		case $w in
		runtime=*) RR2_BENCH_RUNTIME=${w#*=} ;;
		*) transports="$transports $w" ;;
		esac
	done
	RR2_SERVER_IP=10.111.0.1
	rr2_check setup.rdma rr2_setup_rdma "$RR2_SERVER_IP" || return
	rr2_perftest
	# nfsd with TCP only; rdma listeners come and go per transport
	rr2_check setup.nfsd rr2_start_nfsd || return
	for t in ${transports:-tcp stock}; do
		rr2_bench_transport "$t"
	done
}
