#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot Debian's unmodified 6.12 kernel under QEMU (TCG) and run one guest
# scenario, in one guest or in two joined by a QEMU "stream" netdev over
# an AF_UNIX socket (nothing leaves the machine), or in three: a second
# client on a link of its own to the server's second NIC.
#
#   run-scenario.sh [-g 1|2|3] [-c stock|ours] [-C stock|ours]
#                   [-s stock|ours] [-a ARGS] [-t SECONDS] [-n NAME]
#                   [-p OCTETS] [-d] SCENARIO
#
#   -g  guests: 1 (nfsd and client together), 2 (server and client) or
#       3 (server, client and client2)
#   -s  transport module in the server guest (and the single guest)
#   -c  transport module in the client guest
#   -C  transport module in the client2 guest (-g 3; default stock)
#   -a  comma-separated words passed to the scenario (rr2.args=)
#   -t  time limit per run (default 1200 s); with two guests, once one
#       has stopped (finished, or crashed: a panic stops QEMU at once)
#       the other gets 120 s more; with three, the same between server
#       and client, and client2, which may stop first (its scenario can
#       crash it on purpose), gets no longer than they do
#   -n  name used in result lines (default SCENARIO-Ng-SERVER-CLIENT)
#   -p  capture the server's (or the single guest's) NIC, both
#       directions, into $RR2_OUT/NAME/server.pcap, the first OCTETS of
#       each frame (QEMU filter-dump on netdev n0); with -g 3 its second
#       NIC (client2's link) too, into server2.pcap
#   -d  one guest booted by systemd from a copy of the cached disk image
#       (mkroot.sh), again after each power-off, until its scenario has
#       printed RR2: DONE (at most 4 boots, all within -t)
#
# Prints "PASS e2e.NAME.ROLE.CHECK" / "FAIL ..." lines, keeps each
# console in $RR2_OUT/NAME/, and exits non-zero if anything failed or a
# guest did not finish.  A crash of any guest fails the run, except the
# two emulator signatures of crash.sh (crash_verdict): then the run is
# run again, once, a "RETRY e2e.NAME ..." line says so (run-tests.sh
# counts them), and what the first run found before the crash still
# counts (first_run_results).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/crash.sh"

guests=1 cmod=stock c2mod=stock smod=stock args= limit=1200 name= grace=120 disk=
pcap=
# a run that stops early (rr2_die, set -e) still leaves a FAIL line
reported=
trap 'rc=$?; [ "$rc" = 0 ] || [ -n "$reported" ] ||
	echo "FAIL e2e.${name:-${scenario:-run}}.harness (exit $rc)"' EXIT
while getopts g:c:C:s:a:t:n:p:d o; do
	case $o in
	g) guests=$OPTARG ;;
	c) cmod=$OPTARG ;;
	C) c2mod=$OPTARG ;;
	s) smod=$OPTARG ;;
	a) args=$OPTARG ;;
	t) limit=$OPTARG ;;
	n) name=$OPTARG ;;
	p) pcap=$OPTARG ;;
	d) disk=1 ;;
	*) rr2_die "usage: see the head of $0" ;;
	esac
done
shift $((OPTIND - 1))
case $guests in 1|2|3) ;; *) rr2_die "-g: 1, 2 or 3 guests" ;; esac
scenario=${1:?scenario name}
[ -f "$(dirname "$0")/scenarios/$scenario.sh" ] || rr2_die "no scenario $scenario"
[ -z "$pcap" ] || [ "$pcap" -ge 64 ] 2>/dev/null ||
	rr2_die "-p: OCTETS is a number, at least 64"
if [ -n "$disk" ]; then
	[ -z "$pcap" ] || rr2_die "-d: no -p"
	[ "$guests" = 1 ] && [ "$cmod" = stock ] || rr2_die "-d boots one guest: no -g 2 or -c"
	grep -q '^rr2_seed()' "$(dirname "$0")/scenarios/$scenario.sh" ||
		rr2_die "-d: scenario $scenario has no rr2_seed"
fi
if [ -z "$name" ]; then
	name=$scenario-${guests}g-$smod
	[ "$guests" = 1 ] || name=$name-$cmod
	[ "$guests" != 3 ] || name=$name-$c2mod
fi
[ -f "$RR2_GUEST/base.cpio" ] || rr2_die "no guest image: run tools/testing/setup.sh"

kver=$(cat "$RR2_GUEST/kver")
run=$RR2_OUT/$name
rm -rf "$run" && mkdir -p "$run/overlay/rr2"

# Per-run overlay: /init, the scenario scripts and our module, appended
# to the cached root filesystem (the kernel unpacks both archives).
install -m 0755 "$(dirname "$0")/guest/init" "$run/overlay/init"
cp "$(dirname "$0")/guest/lib.sh" "$(dirname "$0")/guest/disk-run" \
	"$(dirname "$0")/kernel-log.sh" "$(dirname "$0")/kernel-log-allow.txt" \
	"$run/overlay/rr2/"
cp -r "$(dirname "$0")/scenarios" "$run/overlay/rr2/"
cp -r "$RR2_REPO/packaging" "$run/overlay/rr2/"
# Guest tools: built statically on the host, so the image needs none.
mkdir -p "$run/overlay/rr2/bin" "$RR2_CACHE/guest-tools"
for src in "$(dirname "$0")"/guest-tools/*.c; do
	bin=$RR2_CACHE/guest-tools/$(basename "$src" .c)
	if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
		gcc -static -O2 -Wall -Wextra -o "$bin" "$src" ||
			rr2_die "cannot build $src"
	fi
	cp "$bin" "$run/overlay/rr2/bin/"
done
# perf, for a benchmark's profile=: the host's binary and the libraries
# the guest root lacks; the libraries it has must be the same release
case ",$args," in
*,profile=*)
	perf=$(command -v perf) && [ -f "$perf" ] ||
		rr2_die "profile=: no perf on the host (apt-get install linux-perf)"
	[ "$(cut -d. -f1 /etc/debian_version)" = \
	  "$(cut -d. -f1 "$RR2_GUEST/rootfs/etc/debian_version")" ] ||
		rr2_die "profile=: the host's perf needs a host of the guest's Debian release"
	libs=$(ldd "$perf") || rr2_die "profile=: ldd $perf failed"
	mkdir -p "$run/overlay/rr2/perf/lib"
	cp "$perf" "$run/overlay/rr2/perf/perf"
	for lib in $(echo "$libs" | awk '$3 ~ /^\// { print $3 }'); do
		[ -e "$RR2_GUEST/rootfs/usr/lib/x86_64-linux-gnu/${lib##*/}" ] ||
			cp -L "$lib" "$run/overlay/rr2/perf/lib/"
	done ;;
esac
# siw.ko (setup.sh builds it) for the iWARP runs
case ",$args," in
*,dev=siw,*)
	[ -f "$RR2_CACHE/siw/$kver/siw.ko" ] ||
		rr2_die "dev=siw: no siw.ko for $kver: run tools/testing/setup.sh"
	cp "$RR2_CACHE/siw/$kver/siw.ko" "$run/overlay/rr2/" ;;
esac
# the benchmark's kernel probe (bench.sh builds it for rawk=1)
case ",$args," in
*,rawk=1,*)
	ko=$RR2_REPO/tools/testing/bench/rawk/rr2_rawk.ko
	[ -f "$ko" ] || rr2_die "rawk=1: rr2_rawk.ko not built (make -C tools/testing/bench/rawk)"
	modinfo -F vermagic "$ko" | grep -q "^$kver " ||
		rr2_die "rr2_rawk.ko was not built for $kver"
	cp "$ko" "$run/overlay/rr2/" ;;
esac
if [ "$cmod" = ours ] || [ "$smod" = ours ] ||
   { [ "$guests" = 3 ] && [ "$c2mod" = ours ]; }; then
	ko=$RR2_REPO/rpcrdma2.ko
	[ -f "$ko" ] || rr2_die "rpcrdma2.ko not built (make)"
	modinfo -F vermagic "$ko" | grep -q "^$kver " ||
		rr2_die "rpcrdma2.ko was not built for $kver"
	cp "$ko" "$run/overlay/rr2/"
fi
(cd "$run/overlay" && find . -mindepth 1 | cpio -o -H newc --quiet) > "$run/overlay.cpio"
cat "$RR2_GUEST/base.cpio" "$run/overlay.cpio" > "$run/initrd.cpio"

cmdline() {
	# loglevel=5: warnings reach the console too; a large log buffer,
	# so the scan at the end of a scenario reads the whole boot
	echo "console=ttyS0 rdinit=/init loglevel=5 log_buf_len=8M panic=-1 oops=panic" \
	     "modprobe.blacklist=crc32_pclmul" \
	     "rr2.scenario=$scenario rr2.role=$1 rr2.mod=$2 rr2.args=$args" \
	     ${disk:+rr2.disk=1 systemd.show_status=0 net.ifnames=0}
}

# qemu ROLE MOD MAC NETDEV-ARGS...: start one guest in the background;
# with -p, the server's (or single guest's) netdev n0 is dumped
qemu() {
	local role=$1 mod=$2 mac=$3
	shift 3
	if [ -n "$pcap" ] && { [ "$role" = server ] || [ "$role" = single ]; }; then
		set -- "$@" -object \
			"filter-dump,id=pcap0,netdev=n0,file=$run/server.pcap,maxlen=$pcap"
		# -g 3: client2's link, the server's second NIC, too
		[ "$guests" != 3 ] || set -- "$@" -object \
			"filter-dump,id=pcap1,netdev=n1,file=$run/server2.pcap,maxlen=$pcap"
	fi
	timeout --kill-after=10 "$limit" qemu-system-x86_64 \
		-accel tcg -cpu max -smp 2 -m "$mem" \
		-nodefaults -no-reboot -display none -monitor none \
		-serial "file:$run/$role.console" \
		-kernel "$RR2_GUEST/vmlinuz" -initrd "$run/initrd.cpio" \
		-append "$(cmdline "$role" "$mod")" \
		${disk:+-drive "file=$run/disk.img,if=virtio,format=raw"} \
		"$@" -device "virtio-net-pci,netdev=n0,mac=$mac,romfile=" &
}

# run_disk: boot a copy of the disk until the scenario is done, a boot
# prints nothing of the scenario or fails its setup, a kernel crashes,
# or 4 boots in all; the consoles of all boots, in order, make
# single.console.  The copy is kept only when the run failed (its
# journal says what systemd did).
run_disk() {
	local boot end=$(( $(date +%s) + limit )) con=$run/single.console
	local limit b
	[ -f "$RR2_GUEST/disk.img" ] || rr2_die "no disk image: run tools/testing/setup.sh"
	cp --sparse=always "$RR2_GUEST/disk.img" "$run/disk.img"
	rm -f "$run"/single.boot[0-9].console
	: > "$con.tmp"
	for boot in 1 2 3 4; do
		limit=$(( end - $(date +%s) ))
		[ "$limit" -gt 0 ] || break
		mem=2G
		qemu single "$smod" 52:54:00:72:32:01 \
			-netdev hubport,id=n0,hubid=0 -netdev hubport,id=n1,hubid=0
		wait $! || true
		# qemu's -serial file: is per boot
		b=$run/single.boot$boot.console
		touch "$run/single.console"
		mv "$run/single.console" "$b"
		cat "$run"/single.boot[0-9].console > "$con.tmp"
		grep -q '^RR2: ' "$b" || break
		grep -qE "^RR2: (DONE|FAIL setup\\.)|$crash_re" \
			< <(tr -d '\r' < "$b") && break
	done
	mv "$con.tmp" "$con"
	roles=single
}

# run_guests: boot the guest(s) and wait for them; sets roles
run_guests() {
	if [ -n "$disk" ]; then
		run_disk
	elif [ "$guests" = 1 ]; then
		mem=5G		# nfsd offers a 1 MiB rsize only with >= 4.5 GiB
		# A lone NIC needs a second, peerless hub port or its TX queue stalls.
		qemu single "$smod" 52:54:00:72:32:01 \
			-netdev hubport,id=n0,hubid=0 -netdev hubport,id=n1,hubid=0
		wait $! || true
		roles=single
	else
		mem=5G
		sock=$run/link.sock sock2=$run/link2.sock
		rm -f "$sock" "$sock2"	# a first boot's, when booting again
		# -g 3: the server's second NIC, client2's link (PCI slot 16,
		# after the first NIC's, so eth0 stays the first)
		nic2=()
		[ "$guests" != 3 ] || nic2=(
			-netdev "stream,id=n1,server=on,addr.type=unix,addr.path=$sock2"
			-device "virtio-net-pci,netdev=n1,mac=52:54:00:72:32:11,addr=0x10,romfile=")
		qemu server "$smod" 52:54:00:72:32:01 "${nic2[@]}" \
			-netdev "stream,id=n0,server=on,addr.type=unix,addr.path=$sock"
		spid=$!
		for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done
		qemu client "$cmod" 52:54:00:72:32:02 \
			-netdev "stream,id=n0,server=off,addr.type=unix,addr.path=$sock"
		cpid=$!
		c2pid=
		if [ "$guests" = 3 ]; then
			for _ in $(seq 100); do [ -S "$sock2" ] && break; sleep 0.1; done
			mem=2G	qemu client2 "$c2mod" 52:54:00:72:32:12 \
				-netdev "stream,id=n0,server=off,addr.type=unix,addr.path=$sock2"
			c2pid=$!
		fi
		# A crashed client would leave the server waiting for it, and a
		# crashed server the client's hard mount: once either guest has
		# stopped, the other gets "grace" seconds to finish.
		while kill -0 $cpid 2>/dev/null && kill -0 $spid 2>/dev/null; do
			sleep 1
		done
		# how far each console had got when the first guest stopped:
		# what a guest printed after that may be the other's crash
		# seen from outside (first_run_results)
		cut_server=$(stat -c %s "$run/server.console" 2>/dev/null || echo 0)
		cut_client=$(stat -c %s "$run/client.console" 2>/dev/null || echo 0)
		[ -z "$c2pid" ] ||
			cut_client2=$(stat -c %s "$run/client2.console" 2>/dev/null || echo 0)
		for _ in $(seq "$grace"); do
			kill -0 $cpid 2>/dev/null || kill -0 $spid 2>/dev/null ||
				{ [ -n "$c2pid" ] && kill -0 "$c2pid" 2>/dev/null; } ||
				break
			sleep 1
		done
		for p in $cpid $spid $c2pid; do
			if kill -0 "$p" 2>/dev/null; then
				rr2_log "$name: stopping a guest still running ${grace} s after the other"
				kill "$p" 2>/dev/null || true
			fi
		done
		wait $cpid || true
		wait $spid || true
		roles="server client"
		if [ -n "$c2pid" ]; then
			wait "$c2pid" || true
			roles="$roles client2"
		fi
	fi
}

# crash_verdicts: "retry" when at least one guest crashed and every
# crash is one of the emulator signatures of crash.sh, "fail" when any
# other crash happened, "none" without a crash
crash_verdicts() {
	local role v out=none
	for role in $roles; do
		v=$(crash_verdict "$run/$role.console")
		case $v in
		fail) echo fail; return ;;
		retry) out=retry ;;
		esac
	done
	echo $out
}

# first_run_results: the result lines of a run about to be run again.
# A FAIL of a guest that crashed came before its crash, and so does a
# FAIL the other guest printed before the first one stopped: both are
# results and count, and so does a kernel report either printed then.
# What the other guest printed after that can be the crash seen from
# outside (a hung mount): INFO, not counted.
first_run_results() {
	local role con cut src r
	for role in $roles; do
		con=$run/$role.retried-crash.console
		cut=
		if [ "$(crash_verdict "$con")" = none ]; then
			eval "cut=\${cut_$role:-}"
		fi
		if [ -n "$cut" ]; then
			src=$(head -c "$cut" "$con")
		else
			src=$(tr -d '\r' < "$con" | sed -E "/$crash_re/,\$d")
		fi
		r=$(printf '%s\n' "$src" |
			rr2_kernel_reports "$(dirname "$0")/kernel-log-allow.txt" | head -n1)
		[ -z "$r" ] ||
			echo "FAIL e2e.$name.$role.kernel-log (first run: ${r:0:100})"
		if [ -n "$cut" ]; then
			head -c "$cut" "$con" | tr -d '\r' |
				sed -n 's/^RR2: FAIL \(.*\)$/FAIL e2e.'"$name.$role"'.\1 (first run, before the other guest crashed)/p'
			tail -c +"$((cut + 1))" "$con" | tr -d '\r' |
				sed -n 's/^RR2: FAIL \(.*\)$/INFO '"$role"': first run, after the other guest crashed: FAIL \1/p' >&2
		else
			tr -d '\r' < "$con" |
				sed -n 's/^RR2: FAIL \(.*\)$/FAIL e2e.'"$name.$role"'.\1 (first run, before its crash)/p'
		fi
	done
}

start=$(date +%s)
cut_server= cut_client= cut_client2= first=
run_guests
if [ "$(crash_verdicts)" = retry ]; then
	# once: the crash is kept beside the new run's consoles
	why=
	[ ! -f "$run/server.pcap" ] ||
		mv "$run/server.pcap" "$run/server.retried-crash.pcap"
	[ ! -f "$run/server2.pcap" ] ||
		mv "$run/server2.pcap" "$run/server2.retried-crash.pcap"
	for role in $roles; do
		mv "$run/$role.console" "$run/$role.retried-crash.console"
		sig=$(crash_signature "$run/$role.retried-crash.console")
		[ -z "$sig" ] || why="$why${why:+; }$role: $sig"
	done
	echo "RETRY e2e.$name ($why; running again, see $run/*.retried-crash.console)"
	for role in $roles; do
		tr -d '\r' < "$run/$role.retried-crash.console" |
			sed 's/^\[ *[0-9.]*\] //' |
			grep -E "$crash_re|RIP:|EFLAGS:" |
			head -n 3 | sed "s/^/INFO   $role: /" >&2 || true
	done
	first=$(first_run_results)
	[ -z "$first" ] || printf '%s\n' "$first"
	start=$(date +%s)
	cut_server= cut_client= cut_client2=
	run_guests
fi
rr2_log "$name: guests ran for $(( $(date +%s) - start )) s"

failed=0
[ -z "$first" ] || failed=1
for role in $roles; do
	con=$run/$role.console
	tr -d '\r' < "$con" | sed -n 's/^RR2: \(PASS\|FAIL\) \(.*\)$/\1 e2e.'"$name.$role"'.\2/p'
	tr -d '\r' < "$con" | sed -n 's/^RR2: INFO /INFO '"$role"': /p' >&2
	# what a failed check printed (rr2_check: its last lines, indented)
	tr -d '\r' < "$con" | awk -v role="$role" '
		/^RR2: / { f = ($2 == "FAIL") ? $3 : ""; next }
		f != "" && /^    ./ { print "INFO " role ": " f ":" substr($0, 4) }' >&2
	if grep -q '^RR2: FAIL' "$con"; then
		failed=1
	fi
	# the guest counted its FAILs: a line the console mangled (a
	# kernel message printed into it) still counts
	nf=$(tr -d '\r' < "$con" | sed -n 's/^RR2: DONE fails=\([0-9]*\).*/\1/p' | tail -n1)
	if [ -n "$nf" ] && [ "$nf" -gt "$(tr -d '\r' < "$con" | grep -c '^RR2: FAIL')" ]; then
		rr2_fail "e2e.$name.$role.results-intact (the guest counted $nf FAILs, fewer lines reached the host; see $con)"
		failed=1
	fi
	# a crash, or a report the guest could not scan for itself
	report=$(rr2_kernel_reports "$(dirname "$0")/kernel-log-allow.txt" < "$con" |
		head -n1)
	if grep -q '^RR2: DONE' "$con" && [ -z "$report" ]; then
		rr2_pass "e2e.$name.$role.completed"
	else
		# say why: the guest's kernel crashed, or it never finished
		if [ -n "$report" ]; then
			why="kernel: ${report:0:100}"
		elif ! grep -q '^RR2: DONE' "$con"; then
			why="no RR2: DONE, guest timed out or was stopped"
		fi
		rr2_fail "e2e.$name.$role.completed ($why; see $con)"
		# the oops and its call trace, without printk timestamps
		tr -d '\r' < "$con" | sed 's/^\[ *[0-9.]*\] //' |
			grep -E "$crash_re|WARNING:|RIP:|Call Trace:|^ *(\\? )?[A-Za-z_0-9.]+\\+0x" |
			head -n 40 >&2 || true
		failed=1
	fi
done
# what a rerun rebuilds anyway: the 250 MB initramfs of every run, and
# the disk of a run that passed
rm -f "$run/initrd.cpio"
[ "$failed" != 0 ] || rm -f "$run/disk.img"
reported=1
exit $failed
