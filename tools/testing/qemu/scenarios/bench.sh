# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Scenario "bench": the same workloads over each transport named in
# rr2.args (tcp, stock, ours), in one guest and one boot, NFSv4.2 over
# rxe or TCP to the guest's own nfsd.  Prints one line per figure:
#   RR2: BENCH <transport> <test> <value> <unit> <round>
# and, once per transport, the work each NFS operation cost the RDMA
# device (both ends together: client and server share rxe0 here):
#   RR2: WORK <transport> <workload> <counter> <per-op value>
# Nothing is asserted on the figures (they are not tests).  Setup steps
# still report PASS/FAIL so a broken run is not mistaken for a slow one.
# Role: single.  Extra words: runtime=SECONDS (default 10), rounds=N
# (default 1): the transports take turns, round after round, so that a
# slow spell of the host hits each of them alike; profile=WORKLOAD (one
# of the fio workloads below): in every round, after the timed figures,
# that workload again, sampled by perf (run-scenario puts perf in the
# guest), printed as milliseconds per operation:
#   RR2: PROF <transport> <workload> <what> <ms> <round>
# what: wall, busy (not idle), or comp:<component> (rr2_profile says
# what a component is); and in round 1 the symbols with most self time:
#   RR2: PROFSYM <transport> <workload> <share%> <symbol>

RR2_BENCH_RUNTIME=10
RR2_BENCH_ROUND=1
RR2_BENCH_READDIR=10000
RR2_BENCH_PROFILE=
RR2_BENCH_ROUNDS=1
RR2_BENCH_TRANSPORTS="tcp stock"

# The timed fio workloads, in order: name, rw, block size, queue depth
# (profile= names one of them)
RR2_BENCH_JOBS='seqwrite-1m write 1m 4
seqread-1m read 1m 4
randread-4k-qd1 randread 4k 1
randread-4k-qd16 randread 4k 16
randwrite-4k-qd1 randwrite 4k 1
randwrite-4k-qd16 randwrite 4k 16'
# What every fio job here runs on: the benchmark's file on /mnt/b
RR2_FIO_FILE=(--directory=/mnt/b --filename=fio.dat --size=256m
	      --ioengine=libaio --direct=1)

rr2_bench() { echo "RR2: BENCH $* $RR2_BENCH_ROUND"; }

# rr2_fio NAME RW BS DEPTH: one fio job on /mnt/b, figure in MiB/s or IOPS
rr2_fio() {
	local t=$1 name=$2 rw=$3 bs=$4 qd=$5 out
	out=$(fio --name="$name" "${RR2_FIO_FILE[@]}" \
		--rw="$rw" --bs="$bs" --iodepth="$qd" --time_based \
		--runtime="$RR2_BENCH_RUNTIME" --ramp_time=1 \
		--output-format=terse --terse-version=3 2>/dev/null < /dev/null) || {
		rr2_fail "bench.$t.$name"
		return
	}
	# terse v3: field 7/8 read KiB/s and IOPS, 48/49 write KiB/s and IOPS
	case $rw in
	read)      rr2_bench "$t" "$name" "$(echo "$out" | awk -F';' '{ printf "%.1f", $7 / 1024 }')" MiB/s ;;
	write)     rr2_bench "$t" "$name" "$(echo "$out" | awk -F';' '{ printf "%.1f", $48 / 1024 }')" MiB/s ;;
	randread)  rr2_bench "$t" "$name" "$(echo "$out" | awk -F';' '{ print $8 }')" IOPS ;;
	randwrite) rr2_bench "$t" "$name" "$(echo "$out" | awk -F';' '{ print $49 }')" IOPS ;;
	esac
}

# rr2_fio_jobs T: every timed workload of RR2_BENCH_JOBS over T
rr2_fio_jobs() {
	local name rw bs qd
	while read -r name rw bs qd; do
		rr2_fio "$1" "$name" "$rw" "$bs" "$qd"
	done <<< "$RR2_BENCH_JOBS"
}

# rr2_meta T: create, stat and unlink rates over 500 files, and a
# readdir of the RR2_BENCH_READDIR entries the server made in
# /export/rd.  Each phase is one process (fork+exec under TCG costs
# more than an NFS round trip), and caches are dropped first so that
# every phase reaches the server.
rr2_meta() {
	local t=$1 d=/mnt/b/meta n=500 t0 t1 op i
	mkdir -p "$d"
	for op in create stat unlink readdir; do
		sync
		echo 3 > /proc/sys/vm/drop_caches
		t0=$(date +%s%N)
		case $op in
		create) for i in $(seq $n); do : > "$d/f$i"; done ;;
		stat) stat "$d"/f* > /dev/null ;;
		unlink) rm -f "$d"/f* ;;
		readdir) i=$(ls -f /mnt/b/rd | wc -l) ;;
		esac
		t1=$(date +%s%N)
		if [ "$op" = readdir ]; then
			[ "$i" -ge "$RR2_BENCH_READDIR" ] ||
				rr2_fail "bench.$t.readdir-count"
			rr2_bench "$t" "readdir-10k" \
				"$(( i * 1000000000 / (t1 - t0) ))" entries/s
		else
			rr2_bench "$t" "$op" "$(( n * 1000000000 / (t1 - t0) ))" ops/s
		fi
	done
	rmdir "$d"
}

# rr2_readdir_dir DIR: the directory the readdir figure lists (rd at
# the top of the mount), made on the server's side of the export in no
# transport's time
rr2_readdir_dir() {
	mkdir -p "$1" &&
		(cd "$1" && seq -f 'entry%05g' "$RR2_BENCH_READDIR" | xargs touch)
}

# rr2_counters: "sends recvs pkts completions wakeups" so far on rxe0:
# Sends and Receives completed and packets sent by the device (its hw
# counters), completions reaped from CQs and CQ wake-ups (the RDMA
# core's cq_poll and cq_schedule events; a wake-up stands for the
# interrupt of a hardware device).
rr2_counters() {
	local tr=/sys/kernel/tracing
	rdma statistic show link rxe0/1 | awk -v tr="$tr" '
	{ for (i = 1; i < NF; i++) c[$i] = $(i + 1) }
	END {
		comp = 0; wake = 0
		while ((getline l < (tr "/trace")) > 0) {
			if (l ~ / cq_poll: /) { sub(/.*returned /, "", l); comp += l }
			else if (l ~ / cq_schedule: /) wake++
		}
		print c["rdma_sends"] + 0, c["rdma_recvs"] + 0, c["sent_pkts"] + 0, comp, wake
	}'
}

# rr2_work_begin / rr2_work_end T WORKLOAD OPS: per-operation work of
# what ran in between
rr2_work_begin() {
	local tr=/sys/kernel/tracing
	echo 0 > $tr/tracing_on
	echo > $tr/trace
	echo 1 > $tr/tracing_on
	RR2_WORK0=$(rr2_counters)
}

rr2_work_end() {
	local t=$1 w=$2 ops=$3
	echo "$RR2_WORK0 $(rr2_counters)" | awk -v t="$t" -v w="$w" -v n="$ops" '{
		split("sends recvs pkts completions cq-wakeups", k, " ")
		for (i = 1; i <= 5; i++)
			printf "RR2: WORK %s %s %s %.2f\n", t, w, k[i], ($(i + 5) - $i) / n
	}'
}

# rr2_work T: count what fixed numbers of 4 KiB and 1 MiB I/Os and of
# file creations cost; tracing is on only here, not while timing
rr2_work() {
	local t=$1 d=/mnt/b/work i tr=/sys/kernel/tracing job
	[ -d $tr/events ] || mount -t tracefs nodev $tr || return
	echo 16384 > $tr/buffer_size_kb
	echo 1 > $tr/events/rdma_core/cq_poll/enable
	echo 1 > $tr/events/rdma_core/cq_schedule/enable
	for job in "read-4k randread 4k 2000" "write-4k randwrite 4k 2000" \
		   "read-1m read 1m 100" "write-1m write 1m 100"; do
		# shellcheck disable=SC2086
		set -- $job
		rr2_work_begin
		fio --name="$1" "${RR2_FIO_FILE[@]}" \
			--rw="$2" --bs="$3" --iodepth=1 --number_ios="$4" \
			> /dev/null 2>&1 || rr2_fail "bench.$t.work-$1"
		rr2_work_end "$t" "$1" "$4"
	done
	mkdir -p "$d"
	sync
	rr2_work_begin
	for i in $(seq 200); do : > "$d/f$i"; done
	rr2_work_end "$t" create 200
	rm -rf "$d"
	echo 0 > $tr/events/rdma_core/enable
	echo 0 > $tr/tracing_on
	echo > $tr/trace
}

# rr2_nfsops OP...: how many calls of the OPs the /mnt/b mount made
# (reads: READ, or READ_PLUS, which NFSv4.2 uses over TCP only)
rr2_nfsops() {
	awk -v ops=" $* " '/ mounted on \/mnt\/b / { on = 1; next }
		/^device / { on = 0 }
		on && $1 ~ /:$/ && index(ops, " " substr($1, 1, length($1) - 1) " ") { n += $2 }
		END { print n + 0 }' /proc/self/mountstats
}

# The profile of RR2_BENCH_PROFILE, a workload of RR2_BENCH_JOBS: fio
# runs it time-based, and in its steady state perf samples every vCPU
# for RR2_PROF_SECS (cpu-clock at 1 kHz, one millisecond a sample: TCG
# has no PMU); the operations are the READ or WRITE calls made (client)
# or served (server) in that window.  Each sample goes to:
#   idle     a halt or idle routine at the leaf
#   perf     perf's own work
#   user     a user-space leaf
#   MODULE   the module (by address, /proc/modules) of the kernel frame
#            nearest the leaf that is in one: rdma_rxe, rpcrdma2,
#            rpcrdma, sunrpc, nfsd, nfs...: time that module spent, the
#            core kernel code it called included
#   kernel   no module on the stack
#   unknown  no call chain
# Printed per operation: the wall time, the busy (non-idle) time and
# each bucket's; in round 1 also the 15 symbols with most self time.
RR2_PROF_SECS=5
RR2_PERF_CMD="env LD_LIBRARY_PATH=/rr2/perf/lib /rr2/perf/perf"

# rr2_prof_job: "rw bs qd" of the profiled workload, nothing if unknown
# (no process substitution: the guest has no /dev/fd)
rr2_prof_job() {
	awk -v w="$RR2_BENCH_PROFILE" '$1 == w { print $2, $3, $4 }' \
		<<< "$RR2_BENCH_JOBS"
}

# rr2_prof_ready T: perf runs here and may sample the kernel
rr2_prof_ready() {
	if ! $RR2_PERF_CMD --version > /tmp/perf.err 2>&1; then
		rr2_fail "bench.$1.profile-perf"
		head -n 5 /tmp/perf.err
		return 1
	fi
	echo 0 > /proc/sys/kernel/kptr_restrict
	echo -1 > /proc/sys/kernel/perf_event_paranoid
}

# rr2_prof_sample COUNT...: RR2_PROF_SECS of samples into
# /tmp/perf.data.  Sets RR2_PROF_OPS, how far COUNT (a command that
# prints a running total of operations) moved meanwhile, and
# RR2_PROF_MS, over how many milliseconds.
rr2_prof_sample() {
	local n0 t0
	n0=$("$@") t0=$(date +%s%N)
	$RR2_PERF_CMD record -q -a -g -e cpu-clock -F 1000 -o /tmp/perf.data -- \
		sleep "$RR2_PROF_SECS" > /tmp/perf.err 2>&1
	RR2_PROF_OPS=$(( $("$@") - n0 ))
	RR2_PROF_MS=$(( ($(date +%s%N) - t0) / 1000000 ))
}

# rr2_prof_finish T: rr2_prof_report of the samples just taken, or a
# failed check bench.T.profile saying why there is nothing to report
rr2_prof_finish() {
	if [ ! -s /tmp/perf.data ] || [ "$RR2_PROF_OPS" -le 0 ]; then
		rr2_fail "bench.$1.profile"
		echo "$(stat -c %s /tmp/perf.data 2> /dev/null) octets of samples, $RR2_PROF_OPS operations"
		head -n 5 /tmp/perf.err
		return
	fi
	rr2_prof_report "$1" "$RR2_BENCH_PROFILE" "$RR2_PROF_OPS" "$RR2_PROF_MS"
}

# rr2_prof_report T W OPS MS: the samples of /tmp/perf.data, taken over
# MS milliseconds in which OPS operations were made, per operation
rr2_prof_report() {
	local t=$1 w=$2 name size addr
	while read -r name size _ _ _ addr _; do
		printf '%016x %016x %s\n' $(( addr )) $(( addr + size )) "$name"
	done < /proc/modules > /tmp/modranges
	$RR2_PERF_CMD script -i /tmp/perf.data -F comm,ip,sym 2> /dev/null |
	awk -v t="$t" -v w="$w" -v ops="$3" \
	    -v ms="$4" -v r="$RR2_BENCH_ROUND" '
	FILENAME != "-" { lo[++nm] = $1; hi[nm] = $2; mn[nm] = $3; next }
	function module(a,    i) {
		for (i = 1; i <= nm; i++) if (a >= lo[i] && a < hi[i]) return mn[i]
		return ""
	}
	function kern(a) { return length(a) == 16 && a ~ /^ffff/ }
	function flush(    c, i, m) {
		if (!pending) return
		if (!nf) c = "unknown"
		else if (comm == "perf") c = "perf"
		else if (!kern(ip[1])) c = "user"
		else if (sy[1] ~ /^(pv_native_safe_halt|native_safe_halt|acpi_safe_halt|default_idle|default_idle_call|do_idle|arch_cpu_idle|cpu_idle_poll|poll_idle|amd_e400_idle|cpuidle_.*|intel_idle.*|acpi_idle.*|mwait_idle.*)$/) c = "idle"
		else {
			c = "kernel"
			# kernel frames only: a chain goes on into user space
			for (i = 1; i <= nf && kern(ip[i]); i++)
				if ((m = module(ip[i])) != "") { c = m; break }
		}
		if (!(c in n)) cl[++nc] = c
		n[c]++; all++; nf = 0; pending = 0
	}
	/^\t/ { ip[++nf] = $1; sy[nf] = $2; next }
	NF { flush(); pending = 1; comm = $1 }
	END {
		flush()
		if (!all) exit 1
		p = "RR2: PROF " t " " w
		printf "%s wall %.3f %d\n", p, ms / ops, r
		printf "%s busy %.3f %d\n", p, (all - n["idle"]) / ops, r
		for (i = 1; i <= nc; i++) if (cl[i] != "idle")
			printf "%s comp:%s %.3f %d\n", p, cl[i], n[cl[i]] / ops, r
	}' /tmp/modranges - || rr2_fail "bench.$t.profile-report"
	[ "$RR2_BENCH_ROUND" = 1 ] &&
	$RR2_PERF_CMD report -i /tmp/perf.data --stdio -q --no-children -g none \
		--sort sym 2> /dev/null | awk -v t="$t" -v w="$w" '
	$1 ~ /%$/ && $2 ~ /^\[[k.]\]$/ && k < 15 {
		$2 = ""; k++; print "RR2: PROFSYM " t " " w " " $0 }'
	rm -f /tmp/perf.data /tmp/modranges /tmp/perf.err
}

# rr2_profile T [START]: the client's end.  START, if given, is a file
# touched as sampling begins (bench2: the server samples too).
rr2_profile() {
	local t=$1 w=$RR2_BENCH_PROFILE rw bs qd op="READ READ_PLUS" pid rc
	read -r rw bs qd <<< "$(rr2_prof_job)"
	[ -n "$qd" ] || { rr2_fail "bench.$t.profile-workload"; return; }
	case $rw in *write) op=WRITE ;; esac
	rr2_prof_ready "$t" || return
	fio --name="$w" "${RR2_FIO_FILE[@]}" \
		--rw="$rw" --bs="$bs" --iodepth="$qd" --time_based \
		--runtime=$(( RR2_PROF_SECS + 8 )) > /dev/null 2>&1 &
	pid=$!
	sleep 3		# past fio's start-up
	[ -z "${2:-}" ] || touch "$2"
	# shellcheck disable=SC2086
	rr2_prof_sample rr2_nfsops $op
	wait "$pid"
	rc=$?
	if [ "$rc" != 0 ]; then
		rr2_fail "bench.$t.profile"
		echo "fio exit $rc"
		return
	fi
	rr2_prof_finish "$t"
}

# The raw link, measured the way NFS traffic uses it (the two- and
# three-guest benchmarks, each round): 1 MiB RDMA Reads and Writes four at a time (a WRITE's Read
# chunk, a READ's Write chunk, fio's 1 MiB jobs at iodepth 4), 8 KiB
# Sends 32 at a time (inline messages and continuation), and Send
# latency at 64 octets and 8 KiB.  Completions come by CQ event
# (perftest -e), as the transports take them: a test that polls its CQ
# in a busy loop keeps a vCPU running, which under TCG is host CPU
# taken from rxe's work in both guests.  perftest's event mode counts
# iterations, not time (it refuses -D), so each test runs PER_S x
# RR2_BENCH_RUNTIME iterations, sized from the rates measured here to
# take at least that long; the client says how long each took.  Two tests
# cannot: ib_write_bw has no event mode, and ib_send_lat's overflows
# rxe's CQ ("rxe_cq_post: queue full") and then refuses connections,
# so those poll (*-polled, the RDMA Write for RR2_BENCH_RUNTIME
# seconds, the latencies 100 round trips per second of it): floors,
# not ceilings.
# "NAME TOOL SIZE DEPTH UNIT PER_S" (PER_S 0: polled)
RR2_RAW_TESTS='rdma-read-1m ib_read_bw 1048576 4 MiB/s 24
rdma-write-1m-polled ib_write_bw 1048576 4 MiB/s 0
send-8k ib_send_bw 8192 32 MiB/s 2000
send-lat-64-polled ib_send_lat 64 1 usec 0
send-lat-8k-polled ib_send_lat 8192 1 usec 0'

# rr2_raw_args TOOL SIZE DEPTH PER_S: perftest's arguments, the same at
# both ends
rr2_raw_args() {
	local n=$(( $4 * RR2_BENCH_RUNTIME ))
	case $1,$4 in
	ib_send_lat,*) echo "-R -d rxe0 -F -s $2 -n $(( 100 * RR2_BENCH_RUNTIME ))" ;;
	*,0) echo "-R -d rxe0 -F -s $2 -t $3 -D $RR2_BENCH_RUNTIME" ;;
	*) echo "-R -e -d rxe0 -F -s $2 -t $3 -n $n" ;;
	esac
}

# rr2_raw_servers_stop: the listeners rr2_raw_servers (job $1) still
# has once the client is done (one whose client gave up waits for it
# until its timeout)
rr2_raw_servers_stop() {
	local tool
	kill "$1" 2> /dev/null
	for tool in $(awk '{ print $2 }' <<< "$RR2_RAW_TESTS"); do
		pkill -x "$tool"
	done
	wait "$1"
}

# The server's end of rr2_raw_clients: each test's listener in turn.
rr2_raw_servers() {
	local name tool size depth unit per
	while read -r name tool size depth unit per; do
		# shellcheck disable=SC2046 # the arguments are words
		timeout $((RR2_BENCH_RUNTIME * 8 + 90)) "$tool" \
			$(rr2_raw_args "$tool" "$size" "$depth" "$per") \
			> "/tmp/raw-$name.srv" 2>&1 < /dev/null
	done <<< "$RR2_RAW_TESTS"
}

# The client's end: each test once the server listens (perftest's client
# fails at once when nothing does: tried again for 15 s), its figure as
# "RR2: BENCH raw NAME VALUE UNIT ROUND" (bandwidth: the average;
# latency: the mean), and in round 1 how long it ran, as "RR2: INFO".
rr2_raw_clients() {
	local name tool size depth unit per out v t0
	while read -r name tool size depth unit per; do
		v=
		for _ in $(seq 15); do
			t0=$(date +%s%N)
			# shellcheck disable=SC2046 # the arguments are words
			out=$(timeout $((RR2_BENCH_RUNTIME * 8 + 60)) "$tool" \
				$(rr2_raw_args "$tool" "$size" "$depth" "$per") \
				"$RR2_SERVER_IP" 2>&1 < /dev/null)
			v=$(echo "$out" | awk -v s="$size" -v lat="$unit" '
				$1 == s && lat == "usec" && NF >= 6 { print $6 }
				$1 == s && lat != "usec" && NF >= 4 { printf "%.1f\n", $4 }')
			[ -n "$v" ] && break
			sleep 1
		done
		if [ -n "$v" ]; then
			rr2_bench raw "$name" "$v" "$unit"
			[ "$RR2_BENCH_ROUND" != 1 ] ||
				rr2_info "raw $name: $(( ($(date +%s%N) - t0) / 1000000 )) ms"
		else
			rr2_fail "bench.raw.$name"
			echo "$out" | tail -n 5
		fi
	done <<< "$RR2_RAW_TESTS"
}

# The raw link from the kernel (tools/testing/bench/rawk, rr2_rawk.ko,
# in the guests when bench.sh built it: rawk=1): what a kernel RDMA
# consumer gets from the link, posting from kernel context and taking
# completions in a CQ work item as the NFS transports do, with no
# registration per I/O, no RPC and no file system: a ceiling for them.
# The server's guest runs each test against the client's listener, so
# that data moves as NFS moves it: rdma-write-1m as a READ's Write
# chunk (server to client), rdma-read-1m as a WRITE's Read chunk
# (client to server), send-* as Replies; each test RR2_BENCH_RUNTIME
# seconds.  Latency: half the mean round trip, as perftest's.
# "NAME TEST SIZE DEPTH UNIT"
RR2_RAWK_PORT=20050
RR2_RAWK_TESTS='rdma-write-1m write 1048576 4 MiB/s
rdma-read-1m read 1048576 4 MiB/s
send-8k send 8192 32 MiB/s
send-lat-64 lat 64 1 usec
send-lat-8k lat 8192 1 usec'
RR2_RAWK=/sys/kernel/debug/rr2_rawk

# rr2_rawk_on: this run has the probe (rawk=1)
rr2_rawk_on() { [ -f /rr2/rr2_rawk.ko ]; }

rr2_rawk_load() {
	[ -d "$RR2_RAWK" ] || { modprobe rdma_cm && insmod /rr2/rr2_rawk.ko; }
}

# rr2_rawk_listen: this guest answers the probe (the client's end)
rr2_rawk_listen() {
	rr2_rawk_load && echo "$RR2_RAWK_PORT" > "$RR2_RAWK/listen"
}

# rr2_rawk_run PEER: each test against PEER's listener, its figure as
# "RR2: BENCH kraw NAME VALUE UNIT ROUND"; a test that fails is a FAIL
# line with what the probe said (nothing is tried again)
rr2_rawk_run() {
	local peer=$1 name test size depth unit ops bytes us v
	rr2_check bench.kraw.load rr2_rawk_load || return 1
	while read -r name test size depth unit; do
		ops=
		us=
		echo "$peer $RR2_RAWK_PORT $test $size $depth $RR2_BENCH_RUNTIME" \
			> "$RR2_RAWK/run" &&
			read -r _ _ _ ops bytes us < "$RR2_RAWK/run"
		if [ -z "$us" ] || [ "${ops:-0}" = 0 ]; then
			rr2_fail "bench.kraw.$name"
			cat "$RR2_RAWK/run"
			continue
		fi
		if [ "$unit" = usec ]; then
			v=$(awk -v o="$ops" -v u="$us" 'BEGIN { printf "%.1f", u / o / 2 }')
		else
			v=$(awk -v b="$bytes" -v u="$us" \
				'BEGIN { printf "%.2f", b / 1048576 / (u / 1e6) }')
		fi
		rr2_bench kraw "$name" "$v" "$unit"
	done <<< "$RR2_RAWK_TESTS"
}

rr2_perftest() {
	local out
	ib_write_bw -R -d rxe0 -F -s 65536 -n 3000 > /tmp/wbw.srv 2>&1 &
	sleep 1
	out=$(ib_write_bw -R -d rxe0 -F -s 65536 -n 3000 "$RR2_SERVER_IP" 2>&1)
	wait
	echo "$out" | awk '$1 == 65536 && NF >= 4 { printf "%.1f\n", $4 }' |
		while read -r v; do rr2_bench raw ib_write_bw-64k "$v" MiB/s; done
	ib_send_lat -R -d rxe0 -F -s 64 -n 2000 > /tmp/slat.srv 2>&1 &
	sleep 1
	out=$(ib_send_lat -R -d rxe0 -F -s 64 -n 2000 "$RR2_SERVER_IP" 2>&1)
	wait
	echo "$out" | awk '$1 == 64 && NF >= 6 { print $6 }' |
		while read -r v; do rr2_bench raw ib_send_lat-64 "$v" usec; done
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
	[ "$RR2_BENCH_ROUND" != 1 ] ||
		rr2_info "bench $t: $(grep -A1 'mounted on /mnt/b' /proc/self/mountstats | tail -n1)"
	rr2_fio_jobs "$t"
	rr2_meta "$t"
	[ "$RR2_BENCH_ROUND" != 1 ] || [ "$t" = tcp ] || rr2_work "$t"
	[ -z "$RR2_BENCH_PROFILE" ] || rr2_profile "$t"
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

# rr2_bench_args: a bench scenario's rr2.args: runtime=, rounds= and
# profile= set RR2_BENCH_RUNTIME, RR2_BENCH_ROUNDS (default 1) and
# RR2_BENCH_PROFILE; other words with "=" are /init's (expect=2, for
# its version check); the rest are the transports,
# RR2_BENCH_TRANSPORTS (default "tcp stock").
rr2_bench_args() {
	local w transports=
	for w in $RR2_ARGS; do
		case $w in
		runtime=*) RR2_BENCH_RUNTIME=${w#*=} ;;
		rounds=*) RR2_BENCH_ROUNDS=${w#*=} ;;
		profile=*) RR2_BENCH_PROFILE=${w#*=} ;;
		*=*) ;;
		*) transports="$transports $w" ;;
		esac
	done
	RR2_BENCH_TRANSPORTS=${transports:-$RR2_BENCH_TRANSPORTS}
}

rr2_main() {
	local t
	rr2_bench_args
	RR2_SERVER_IP=10.111.0.1
	rr2_check setup.rdma rr2_setup_rdma "$RR2_SERVER_IP" || return
	rr2_perftest
	# nfsd with TCP only; rdma listeners come and go per transport
	rr2_check setup.nfsd rr2_start_nfsd || return
	rr2_check setup.readdir-dir rr2_readdir_dir /export/rd || return
	for RR2_BENCH_ROUND in $(seq "$RR2_BENCH_ROUNDS"); do
		for t in $RR2_BENCH_TRANSPORTS; do
			rr2_bench_transport "$t"
		done
	done
}
