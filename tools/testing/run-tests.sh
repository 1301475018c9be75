#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The one test command: everything, in order, each step's results as
# PASS/FAIL lines, and a closing "N passed, N failed, N retried" line.
#
#   1. module build against Debian's 6.12 headers with W=1 and sparse
#      (C=1): any compiler or sparse diagnostic fails it; the same for
#      the benchmark's kernel probe (tools/testing/bench/rawk)
#   2. checkpatch.pl --strict on every source file; the requirement
#      coverage page is current, every MUST row has an implementation
#      citation or a note, and every mandatory row an asserting test or
#      a note (coverage.py --check); the harness's crash
#      verdicts on kept consoles (qemu/crash-selftest.sh); the
#      Wireshark dissector on frames built from the XDR
#      (wireshark/selftest.py)
#   3. KUnit under kunit.py (tools/testing/kunit/run.sh), then again on
#      a lockdep + KASAN kernel (run.sh --debug); a kernel report in
#      either log (lockdep, WARN_ON, BUG, KASAN) fails it
#   4. the codec fuzz corpus replayed under ASan/UBSan (fuzz/fuzz.sh)
#   5. the DKMS install cycle for Debian's headers (install-test.sh)
#   6. QEMU end-to-end scenarios on the unmodified Debian kernel, every
#      one with rpcrdma2 in at least one guest; each guest's whole
#      kernel log is scanned at the end and any report fails the run
#
# The last line is "N passed, N failed, N retried": a run retried for
# one of the emulator's crash signatures (qemu/crash.sh) prints a
# RETRY line and is counted, never hidden.
#
# Runs setup.sh first (quick when the machine is ready), so that a fresh
# machine needs only this command.  Set RR2_SKIP="kunit e2e ..." to leave
# steps out while developing; CI never sets it.  --reference (or
# RR2_REFERENCE=1) adds the stock module's own runs (e2e_reference).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

case ${1:-} in
--reference) RR2_REFERENCE=1 ;;
"") ;;
*) rr2_die "usage: run-tests.sh [--reference]" ;;
esac

results=$(mktemp)
bg=$(mktemp -d)
trap 'rm -rf "$results" "$bg"' EXIT
skip=" ${RR2_SKIP:-} "

# step_end NAME RC SECONDS FAILS: a step's closing line; a step that
# failed without saying which check failed still counts (FAILS: the
# number of FAIL lines before it)
step_end() {
	rr2_log "=== $1: exit $2 after $3 s"
	if [ "$2" != 0 ] && [ "$(grep -c '^FAIL' "$results")" = "$4" ]; then
		rr2_fail "$1 (exit $2)" | tee -a "$results"
	fi
}

step() {
	local name=$1
	shift
	case $skip in *" $name "*) rr2_log "skipping $name"; return 0 ;; esac
	rr2_log "=== $name"
	local t0=$SECONDS fails
	fails=$(grep -c '^FAIL' "$results")
	"$@" | tee -a "$results"
	step_end "$name" "${PIPESTATUS[0]}" $((SECONDS - t0)) "$fails"
}

# quiet NAME CMD...: run CMD as (part of) step NAME with its stdout and
# stderr each kept in a file, for shown NAME to print once every job
# that runs beside it is done: jobs at once must not mix their lines.
# A step run in parts adds their times; its status is its first
# failure's.
quiet() {
	local name=$1 t0=$SECONDS rc r=0 s=0
	shift
	case $skip in *" $name "*) return 0 ;; esac
	# fd 8 is the KUnit lock (steps_at_once): not for CMD to keep
	"$@" >> "$bg/$name.out" 2>> "$bg/$name.err" 8>&-
	rc=$?
	[ ! -f "$bg/$name.rc" ] || read -r r s < "$bg/$name.rc"
	[ "$r" != 0 ] || r=$rc
	echo "$r $((s + SECONDS - t0))" > "$bg/$name.rc"
}

# shown NAME: what quiet kept of step NAME, as step would have printed it
# (its stderr first, then its results), and its closing line with the
# time it ran
shown() {
	local name=$1 rc secs fails
	case $skip in *" $name "*) rr2_log "skipping $name"; return 0 ;; esac
	rr2_log "=== $name"
	read -r rc secs < "$bg/$name.rc"
	fails=$(grep -c '^FAIL' "$results")
	cat "$bg/$name.err" >&2
	tee -a "$results" < "$bg/$name.out"
	step_end "$name" "$rc" "$secs" "$fails"
}

build_w1() {
	local log
	log=$RR2_OUT/build.log
	mkdir -p "$RR2_OUT"
	make -C "$RR2_REPO" clean > /dev/null 2>&1
	if ! make -C "$RR2_REPO" W=1 C=1 KDIR="/usr/src/linux-headers-$(rr2_kver)" > "$log" 2>&1; then
		rr2_fail "build.module (see $log)"
		tail -n 30 "$log" >&2
		return 1
	fi
	rr2_pass build.module
	# sparse reports as "file:line:col: warning|error: ..."
	if grep -E ': (warning|error|note):' "$log" >&2; then
		rr2_fail build.w1-sparse-clean
		return 1
	fi
	rr2_pass build.w1-sparse-clean
	if modinfo -F license "$RR2_REPO/rpcrdma2.ko" | grep -qx GPL; then
		rr2_pass build.license-gpl
	else
		rr2_fail build.license-gpl
	fi
	# the benchmark's kernel probe (bench.sh builds and loads it) is
	# kernel code too: as clean, so that it does not rot unseen
	log=$RR2_OUT/build-rawk.log
	make -C "$RR2_REPO/tools/testing/bench/rawk" clean > /dev/null 2>&1
	if make -C "$RR2_REPO/tools/testing/bench/rawk" W=1 C=1 \
		KDIR="/usr/src/linux-headers-$(rr2_kver)" > "$log" 2>&1 &&
	   ! grep -E ': (warning|error|note):' "$log" >&2; then
		rr2_pass build.rawk-probe
	else
		rr2_fail "build.rawk-probe (see $log)"
		tail -n 30 "$log" >&2
	fi
}

# rr2_faults_table NAME...: the fault soak's stall figures, one line
# per fault and run
rr2_faults_table() {
	local n f
	for n in "$@"; do
		f=$RR2_OUT/$n/client.console
		[ -e "$f" ] || continue
		grep -a 'RR2: INFO fault ' "$f" |
			sed "s|^RR2: INFO fault |[rpcrdma2] stall $(basename "$(dirname "$f")") |" >&2
	done
}

# The QEMU scenarios.  Every run with rpcrdma2 in it says which version
# each half must settle on (expect=N for our client, server.expect=N for
# our server): the guest checks every connection rpcrdma2 logged, and a
# run that connected without saying fails.
e2e() {
	local q=$RR2_REPO/tools/testing/qemu/run-scenario.sh rc=0 reboot capture
	local v2=expect=2,server.expect=2 v1=rdmavers=1,expect=1,server.expect=1
	local v2_kinds=call,reply,connprop-c2s,connprop-s2c,grant,initxch-c2s,initxch-s2c,cont-c2s,cont-s2c,read-chunk,write-chunk
	# Two single-guest runs at once: reboot's three boots of a disk
	# (2 GiB) beside install's and acl-swap's boots, one after the
	# other; reboot's output is printed whole after theirs.
	# A Debian machine booted by systemd from a disk: install, reboot,
	# rpcrdma2 loaded at boot and nfsd on rdma; uninstall, reboot, stock
	"$q" -d -s ours -t 900 -a "$v2" reboot > "$bg/reboot.out" \
		2> "$bg/reboot.err" &
	reboot=$!
	# make install in a guest: every transport name loads rpcrdma2;
	# first, in the same boot, scenario "module"'s checks (rpcrdma2.ko
	# loads, owns the transports, checks rdmavers, refuses to load
	# beside the stock module)
	"$q" -g 1 -s ours -a "$v2" install || rc=1
	# getfacl of a 60-entry ACL over v3 and swapon of a file on a v4.2
	# mount, rpcrdma2 at both ends in one guest (with the stock server
	# they ride in interop-stock-ours, aclswap=1: across two guests a
	# run of their own costs a boot, in one guest the swap is fast)
	"$q" -g 1 -s ours -t 600 -a "$v2" acl-swap || rc=1
	wait "$reboot" || rc=1
	cat "$bg/reboot.err" >&2
	cat "$bg/reboot.out"
	# rpcrdma2 to rpcrdma2 in one guest: Version 2, 1 MiB rsize/wsize by
	# continuation, the seed 004 exchange on (xchar=1), callbacks at BRS
	# CONT, NFSv4.0 and NFSv4.1 besides 3 and 4.2 with a delegation
	# recalled on each NFSv4 version (over TCP on 4.0), the trace check,
	# rmmod refused while a mount or nfsd uses it, allocation failures
	# injected at each site under I/O (allocfail=1), and the unload
	"$q" -g 1 -s ours -a "$v2,xchar=1,xch=on,extravers=4.0:4.1,allocfail=1" \
		-n v2-ours-ours baseline || rc=1
	# one boot per configuration from here on: baseline's checks, then
	# chunks' (scenario "combined", chunks' results named "chunks.")
	# rpcrdma2 to rpcrdma2 across two kernels on Version 2: the seed 004
	# exchange, Write chunks for READ data, reverse-direction level
	# SIMPLE at both ends (rvrsdir=1), HOSTAUTH sent both ways, and both
	# halves held to an iWARP NIC's limits (devclamp=iwarp: one SGE per
	# RDMA Read, 32-page MRs), every mount with nconnect=4 (each
	# connection settles Version 2 and carries Calls); and (krb5=1, here
	# and in the interop runs) Kerberos: sec=krb5, krb5i and krb5p
	# mounts with a KDC in the server guest, fio verified, no chunks
	# under krb5i and krb5p (V2-SEC-11, V2-SEC-13) where sec=krb5 uses
	# them; and first (fleet=1, a third guest) a mixed fleet: the stock
	# client at Version 1 beside ours at Version 2, fio on both at
	# once, the stock one reconnecting and crashing without disturbing
	# ours, the server counting each client's connections under its
	# version.
	# The server's NICs are captured (-p: the first 256 octets of every
	# frame) and the server half prints its counters once quiet
	# (svcstats=1): the Wireshark dissector decodes every Version 2
	# message in the capture, finds nothing malformed, each kind of
	# message this run sends, and as many Calls (with client2's
	# Version 1 ones), continued messages, credit grants and
	# connections as the server counted (wireshark/check-capture.py).
	"$q" -g 3 -s ours -c ours -C stock -p 256 \
		-a "$v2,xchar=1,xch=on,rvrsdir=1,brs=simple:simple,hostauth=rr2-e2e-key,devclamp=iwarp,mountopts=nconnect=4,krb5=1,fleet=1,client2.expect=1,svcstats=1" \
		-n v2-ours-ours-2g combined || rc=1
	# the capture's check (about 25 s of one core) runs beside the next
	# run; its output is printed whole after that run's
	python3 "$RR2_REPO/tools/testing/wireshark/check-capture.py" \
		--expect "$v2_kinds" v2-ours-ours-2g > "$bg/capture.out" \
		2> "$bg/capture.err" &
	capture=$!
	# ... and with rdmavers=1
	"$q" -g 2 -s ours -c ours -a "$v1" -n v1-ours-ours-2g combined || rc=1
	wait "$capture" || rc=1
	cat "$bg/capture.err" >&2
	cat "$bg/capture.out"
	# interop: our client falls back to Version 1 with the stock server
	# and uses chunks there, at default mount options; over IPv6 (netid
	# rdma6), with NFSv4.0 and NFSv4.1 too, one mount at nconnect=16
	# (one of its connections dropped: it reconnects alone, the others
	# carry Calls meanwhile), and Kerberos (krb5=1); last, acl-swap's
	# ACL and swap phases (aclswap=1: swap pages go by Read chunks)
	local deploy=ipv6=1,extravers=4.0:4.1,nconnect=16,krb5=1
	"$q" -g 2 -s stock -c ours -a "expect=1,$deploy,aclswap=1" \
		-n interop-stock-ours combined || rc=1
	# interop: the stock client on our server at default mount options:
	# 1 MiB rsize/wsize by Read, Write and Reply chunks; the same
	# deployments
	"$q" -g 2 -s ours -c stock -a "server.expect=1,$deploy" \
		-n interop-ours-stock combined || rc=1
	# iWARP (siw, built by setup.sh): the same chunks both ways between
	# rpcrdma2 and the stock module, where the server registers its
	# RDMA Read sinks and a Send to a QP with no Receive posted is fatal
	"$q" -g 2 -s ours -c stock -a server.expect=1,dev=siw,fsxops=200 \
		-n chunks-ours-stock-siw chunks || rc=1
	"$q" -g 2 -s stock -c ours -a expect=1,dev=siw,fsxops=200 \
		-n chunks-stock-ours-siw chunks || rc=1
	# the fault soak: verified I/O through nfsd restart, rxe device
	# removal, a link flap (rpcrdma2 as the server: see faults.sh), a
	# client-side disconnect and device removal on the client; the
	# version settled must hold through every reconnect
	"$q" -g 2 -s ours -c ours -t 900 -n faults-ours-ours \
		-a "$v2,faults=nfsd-restart:rxe-readd:link-flap:client-drop:client-rxe-readd" \
		faults || rc=1
	# our server under the stock client
	"$q" -g 2 -s ours -c stock -t 900 -n faults-ours-stock \
		-a server.expect=1,faults=nfsd-restart:rxe-readd:link-flap:client-drop \
		faults || rc=1
	# our client on the stock server, its device removed too
	"$q" -g 2 -s stock -c ours -t 900 -n faults-stock-ours \
		-a expect=1,faults=nfsd-restart:rxe-readd:client-drop:client-rxe-readd \
		faults || rc=1
	rr2_faults_table faults-ours-ours faults-ours-stock faults-stock-ours
	return $rc
}

# The stock module alone, in both roles: the harness and the
# expectations checked on what rpcrdma2 replaces, and the fault soak's
# stall figures side by side.  No rpcrdma2 in them, so not part of the
# gate: run-tests.sh --reference (or RR2_REFERENCE=1) runs them after
# the gate's steps, and the benchmark measures the stock module anyway.
e2e_reference() {
	local q=$RR2_REPO/tools/testing/qemu/run-scenario.sh rc=0
	"$q" -g 1 -s stock baseline || rc=1
	"$q" -g 1 -s stock -n chunks-stock chunks || rc=1
	"$q" -g 1 -s stock -t 600 acl-swap || rc=1
	"$q" -g 2 -s stock -c stock -t 900 -n faults-stock faults || rc=1
	rr2_faults_table faults-stock
	return $rc
}

# Steps 2 to 5 run two jobs at once, on the two cores the command is
# budgeted for: the two KUnit kernels are built one after the other
# (each build uses every core), then the debug kernel's tests (one vCPU,
# the longest job) run beside the other kernel's tests and then
# checkpatch, coverage, crash-verdicts, wireshark, fuzz and install, one
# after the other and niced: the debug kernel's run is the one to wait
# for.  The KUnit cache's lock (kunit/run.sh) is held from the first
# build to the last test.  Every step's output (kept by quiet) is
# printed when all are done, in the steps' order, with the time the
# step itself ran.
steps_at_once() {
	local k=$RR2_REPO/tools/testing/kunit/run.sh t=$RR2_REPO/tools/testing
	local pid n
	rr2_log "=== kunit kunit-debug, beside the debug run checkpatch coverage crash-verdicts wireshark fuzz install: output when all are done"
	mkdir -p "$RR2_CACHE"
	exec 8> "$RR2_CACHE/.kunit.lock"
	flock 8
	export RR2_KUNIT_LOCKED=1
	quiet kunit "$k" --build
	quiet kunit-debug "$k" --debug --build
	quiet kunit-debug "$k" --debug --exec &
	pid=$!
	quiet kunit "$k" --exec
	quiet checkpatch nice "$t/checkpatch.sh"
	quiet coverage nice python3 "$t/coverage.py" --check
	quiet crash-verdicts nice "$t/qemu/crash-selftest.sh"
	quiet wireshark nice python3 "$t/wireshark/selftest.py"
	quiet fuzz nice "$t/fuzz/fuzz.sh" replay
	quiet install nice "$t/install-test.sh"
	wait "$pid"
	exec 8>&-
	unset RR2_KUNIT_LOCKED
	for n in checkpatch coverage crash-verdicts wireshark kunit kunit-debug fuzz install; do
		shown "$n"
	done
}

step setup "$RR2_REPO/tools/testing/setup.sh"
step build build_w1
steps_at_once
step e2e e2e
[ "${RR2_REFERENCE:-0}" = 0 ] || step e2e-reference e2e_reference

passed=$(grep -c '^PASS' "$results")
failed=$(grep -c '^FAIL' "$results")
retried=$(grep -c '^RETRY' "$results")
grep -E '^(FAIL|RETRY)' "$results" | sed 's/^/  /' >&2
echo "$passed passed, $failed failed, $retried retried"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
