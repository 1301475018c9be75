#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (not a test): run the same workloads over several NFS
# transports in one QEMU guest and one boot, print every figure, its
# median and spread over the rounds, the ratios of the medians between
# transports, and the work each NFS operation cost the RDMA device.
# Nothing here passes or fails on a figure.
#
#   bench.sh [-g 1|2|3] [-n ROUNDS] [-r SECONDS] [-p WORKLOAD] [TRANSPORT...]
#                                        (default: -n 3, tcp stock)
#
# -g 1 (default): client and server in one guest (scenario "bench");
# -g 2: client and server in two guests joined by one link (scenario
# "bench2"), the figures that matter across hosts; -g 3: scale, one
# server and two client guests, each client on a link of its own
# (scenario "bench3"): both clients run the same job at once, 4 KiB
# random reads (queue depth 16) and 1 MiB sequential reads (depth 4),
# at nconnect=1 and nconnect=4; printed are each client's figure (c1,
# c2), their sum, fairness (fair: the smaller over the larger) and the
# server's CPU time per READ it served (srvcpu, ms/op).
# -n: rounds; the transports take turns round after round, so a slow
# spell of the host hits each alike.  The median is what the ratios
# use; the spread is (max - min) / median.
#
# TRANSPORT is tcp (NFS over TCP), stock (the in-kernel rpcrdma.ko) or
# ours (rpcrdma2.ko, built first with make).  Also measured: the raw
# soft-RDMA link of the same rxe device (perftest; with -g 2 and -g 3
# between the server and the first client, the way NFS uses the link:
# scenarios/bench.sh, RR2_RAW_TESTS), and with -g 2 and -g 3 from the
# kernel, as the NFS transports post and complete (transport "kraw":
# rawk/rr2_rawk.c, built here, RR2_RAWK_TESTS), the ceiling the NFS
# figures are printed against.
# -p: also profile a fio workload (e.g. randread-4k-qd1) over each
# transport with perf (linux-perf on the host): CPU time per operation
# and where it goes, both ends together in one guest, each end in its
# own table with -g 2.
# Under TCG every figure is far below real hardware; only the ratios
# between transports in the same run mean anything.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

runtime=10
profile=
guests=1
rounds=3
while getopts g:n:p:r: o; do
	case $o in
	g) guests=$OPTARG ;;
	n) rounds=$OPTARG ;;
	p) profile=$OPTARG ;;
	r) runtime=$OPTARG ;;
	*) rr2_die "usage: bench.sh [-g 1|2|3] [-n ROUNDS] [-r SECONDS] [-p WORKLOAD] [tcp|stock|ours]..." ;;
	esac
done
shift $((OPTIND - 1))
transports=${*:-tcp stock}
mod=stock
case " $transports " in *" ours "*) mod=ours ;; esac

args=$(echo "$transports runtime=$runtime rounds=$rounds" | tr ' ' ',')
# rpcrdma2 at both ends settles Version 2 (every guest's /init checks it)
[ "$mod" != ours ] || args=$args,expect=2,server.expect=2,client2.expect=2
case $guests in 1|2|3) ;; *) rr2_die "-g: 1, 2 or 3 guests" ;; esac
if [ -n "$profile" ]; then
	[ "$guests" != 3 ] || rr2_die "-p: not with -g 3"
	# the workloads the guest knows (its script only defines things)
	jobs=$(bash -c '. "$1" && echo "$RR2_BENCH_JOBS"' _ \
		"$(dirname "$0")/../qemu/scenarios/bench.sh" | awk '{ print $1 }')
	echo "$jobs" | grep -qxF -- "$profile" ||
		rr2_die "-p: one of" $jobs
	command -v perf > /dev/null || rr2_die "-p: no perf on the host (apt-get install linux-perf)"
	args=$args,profile=$profile
fi
# across guests, the raw link from the kernel too (rawk/rr2_rawk.c)
if [ "$guests" != 1 ]; then
	make -s -C "$(dirname "$0")/rawk" > /dev/null ||
		rr2_die "cannot build the raw probe (tools/testing/bench/rawk)"
	args=$args,rawk=1
fi
if [ "$guests" = 3 ]; then
	"$(dirname "$0")/../qemu/run-scenario.sh" -g 3 -s "$mod" -c "$mod" \
		-C "$mod" -a "$args" -t 30000 -n bench3 bench3 > /dev/null || true
	# the server prints the figures; the clients' raw ones go with them
	con=$RR2_OUT/bench3/figures.console
	tr -d '\r' < "$RR2_OUT/bench3/client2.console" | grep -E '^RR2: FAIL' >&2 || true
	cat "$RR2_OUT/bench3/server.console" "$RR2_OUT/bench3/client.console" > "$con"
elif [ "$guests" = 2 ]; then
	"$(dirname "$0")/../qemu/run-scenario.sh" -g 2 -s "$mod" -c "$mod" \
		-a "$args" -t 20000 -n bench2 bench2 > /dev/null || true
	# the client prints the figures, the server the kernel probe's
	con=$RR2_OUT/bench2/figures.console
	tr -d '\r' < "$RR2_OUT/bench2/server.console" | grep -E '^RR2: FAIL' >&2 || true
	cat "$RR2_OUT/bench2/client.console" "$RR2_OUT/bench2/server.console" > "$con"
else
	"$(dirname "$0")/../qemu/run-scenario.sh" -g 1 -s "$mod" -a "$args" \
		-t 20000 -n bench bench > /dev/null || true
	con=$RR2_OUT/bench/single.console
fi
tr -d '\r' < "$con" | grep -E '^RR2: FAIL' >&2 || true

tr -d '\r' < "$con" | awk -v order="$transports" '
function median(t, n,    m, i, j, x, a) {
	m = cnt[t, n]
	for (i = 1; i <= m; i++) a[i] = val[t, n, i]
	for (i = 2; i <= m; i++) {
		x = a[i]
		for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]
		a[j + 1] = x
	}
	lo[t, n] = a[1]; hi[t, n] = a[m]
	return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
}
$1 == "RR2:" && $2 == "BENCH" {
	t = $3; n = $4; u[n] = $6
	val[t, n, ++cnt[t, n]] = $5
	if (!(n in seen)) { seen[n] = 1; names[++nn] = n }
	if (!(t in tseen)) { tseen[t] = 1; tl[++nt] = t }
}
$1 == "RR2:" && $2 == "WORK" {
	t = $3; w = $4; c = $5; work[t, w, c] = $6
	if (!(w in wseen)) { wseen[w] = 1; wl[++nw] = w }
	if (!(c in cseen)) { cseen[c] = 1; cl[++nc] = c }
	if (!(t in wtseen)) { wtseen[t] = 1; wtl[++nwt] = t }
}
END {
	k = split(order, ts, " ")
	printf "%-6s %-28s %10s %8s %6s  %s\n", "", "test", "median", "spread", "runs", "unit"
	for (x = 1; x <= nt; x++) for (y = 1; y <= nn; y++) {
		t = tl[x]; n = names[y]
		if (!cnt[t, n]) continue
		med[t, n] = median(t, n)
		printf "%-6s %-28s " (med[t, n] < 10 ? "%10.3f" : "%10.1f") " %7.0f%% %6d  %s\n", t, n, med[t, n],
			med[t, n] ? 100 * (hi[t, n] - lo[t, n]) / med[t, n] : 0,
			cnt[t, n], u[n]
	}
	print ""
	# usec and ms/op: lower is better, so the inverse (above 1: the
	# first transport is better, as for the others)
	printf "%-28s", "ratio of medians"
	for (i = 1; i <= k; i++) for (j = 1; j <= k; j++) if (i != j && ts[j] != "ours" && ts[i] != "tcp")
		printf " %14s", ts[i] "/" ts[j]
	print ""
	for (x = 1; x <= nn; x++) {
		n = names[x]
		if (n ~ /^(ib_|rdma-|send-)/ || n ~ /-nc[0-9]+-c[0-9]$/) continue
		printf "%-28s", n
		for (i = 1; i <= k; i++) for (j = 1; j <= k; j++) if (i != j && ts[j] != "ours" && ts[i] != "tcp") {
			a = med[ts[i], n]; b = med[ts[j], n]
			if (a == "" || b == "" || b + 0 == 0) printf " %14s", "-"
			else if (u[n] == "usec" || u[n] == "ms/op") printf " %14.2f", b / a
			else printf " %14.2f", a / b
		}
		print ""
	}
	# -g 3: nconnect=4 against nconnect=1, each transport
	m = 0
	for (x = 1; x <= nn; x++) {
		n = names[x]
		if (n !~ /-nc4-/ || n ~ /-c[0-9]$/) continue
		n1 = n; sub(/-nc4-/, "-nc1-", n1)
		if (!m++) {
			print ""
			printf "%-28s", "nconnect=4 / nconnect=1"
			for (i = 1; i <= k; i++) printf " %14s", ts[i]
			print ""
		}
		lab = n; sub(/-nc4/, "", lab)
		printf "%-28s", lab
		for (i = 1; i <= k; i++) {
			a = med[ts[i], n]; b = med[ts[i], n1]
			if (a == "" || b == "" || b + 0 == 0 || a + 0 == 0) printf " %14s", "-"
			else if (u[n] == "ms/op") printf " %14.2f", b / a
			else printf " %14.2f", a / b
		}
		print ""
	}
	# the 1 MiB figures against raw 1 MiB one-sided transfers at the
	# same depth, completions by event: RDMA Reads (as in a WRITE of
	# a Read chunk; a READ of a Write chunk is RDMA Writes, which have
	# no event-mode raw figure, and the raw Reads move data the same
	# way, server to client)
	if (cnt["raw", "rdma-read-1m"]) {
		r = median("raw", "rdma-read-1m")
		print ""
		printf "%-28s", "of raw rdma-read-1m"
		for (i = 1; i <= k; i++) printf " %14s", ts[i]
		print ""
		for (x = 1; x <= nn; x++) {
			n = names[x]
			if (u[n] != "MiB/s" || n ~ /^(ib_|rdma-|send-)/ || n ~ /-(c1|c2)$/) continue
			printf "%-28s", n
			for (i = 1; i <= k; i++)
				if (med[ts[i], n] == "" || !r) printf " %14s", "-"
				else printf " %14.2f", med[ts[i], n] / r
			print ""
		}
	}
	# ... and against the kernel probe, which moves data as NFS does:
	# the Write chunk of a READ is RDMA Writes (kraw rdma-write-1m),
	# the Read chunk of a WRITE RDMA Reads (kraw rdma-read-1m); above
	# 1, the NFS transport beat the raw link as the kernel sees it
	if (cnt["kraw", "rdma-write-1m"] && cnt["kraw", "rdma-read-1m"]) {
		kw = median("kraw", "rdma-write-1m")
		kr = median("kraw", "rdma-read-1m")
		print ""
		printf "%-28s", "of kraw (read: rdma-write,"
		for (i = 1; i <= k; i++) printf " %14s", ts[i]
		print ""
		print "  write: rdma-read)"
		for (x = 1; x <= nn; x++) {
			n = names[x]
			if (u[n] != "MiB/s" || n ~ /^(ib_|rdma-|send-)/ || n ~ /-(c1|c2)$/) continue
			r = n ~ /write/ ? kr : kw
			printf "%-28s", n
			for (i = 1; i <= k; i++)
				if (med[ts[i], n] == "" || !r) printf " %14s", "-"
				else printf " %14.2f", med[ts[i], n] / r
			print ""
		}
	}
	if (!nw) exit
	print ""
	print "work per operation (RDMA device counters and CQ events, round 1)"
	printf "%-10s %-12s", "workload", "counter"
	for (x = 1; x <= nwt; x++) printf " %10s", wtl[x]
	print ""
	for (y = 1; y <= nw; y++) for (z = 1; z <= nc; z++) {
		printf "%-10s %-12s", wl[y], cl[z]
		for (x = 1; x <= nwt; x++) printf " %10s", work[wtl[x], wl[y], cl[z]]
		print ""
	}
}'
# rr2_prof_table CONSOLE: the profile a guest printed, as a table
rr2_prof_table() {
	tr -d '\r' < "$1" | awk -v order="$transports" '
	$1 == "RR2:" && $2 == "PROF" {
		t = $3; k = $5; v[t, k, ++c[t, k]] = $6
		if (!(k in ks)) { ks[k] = 1; kl[++nk] = k }
	}
	$1 == "RR2:" && $2 == "PROFSYM" { $1 = $2 = ""; sub(/^  /, ""); sym[++ns] = $0 }
	# a bucket missing from a round counts 0 ms in it
	function median(t, k,    m, i, j, x, a, md) {
		m = c[t, "wall"]
		if (!m || !c[t, k]) return "-"
		for (i = 1; i <= m; i++) a[i] = i <= c[t, k] ? v[t, k, i] : 0
		for (i = 2; i <= m; i++) {
			x = a[i]
			for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]
			a[j + 1] = x
		}
		md = m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
		return sprintf("%.3f (%d%%)", md, md ? 100 * (a[m] - a[1]) / md : 0)
	}
	END {
		n = split(order, ts, " ")
		printf "%-22s", ""
		for (i = 1; i <= n; i++) printf " %15s", ts[i]
		print ""
		for (y = 1; y <= nk; y++) {
			printf "%-22s", kl[y]
			for (i = 1; i <= n; i++) printf " %15s", median(ts[i], kl[y])
			print ""
		}
		print ""
		print "symbols with most self time, round 1 (share of all samples)"
		for (i = 1; i <= ns; i++) print sym[i]
	}'
}

if [ -n "$profile" ]; then
	echo
	echo "profile of $profile: milliseconds per operation, median of the rounds (spread)"
	echo "(comp: time spent in that module, core kernel code it called included)"
	if [ "$guests" = 2 ]; then
		echo
		echo "client guest (both vCPUs; operations it made)"
		rr2_prof_table "$RR2_OUT/bench2/client.console"
		echo
		echo "server guest (both vCPUs; operations nfsd served)"
		rr2_prof_table "$RR2_OUT/bench2/server.console"
	else
		echo "(perf on both vCPUs of the guest, client and server together)"
		rr2_prof_table "$con"
	fi
fi
