#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (not a test): run the same workloads over several NFS
# transports in one QEMU guest and one boot, print one line per figure
# and the ratios between transports.  Nothing here passes or fails on a
# figure.
#
#   bench.sh [-g 1|2] [-r SECONDS] [TRANSPORT...]   (default: tcp stock)
#
# -g 1 (default): client and server in one guest (scenario "bench");
# -g 2: client and server in two guests joined by one link (scenario
# "bench2"), the figures that matter across hosts.
#
# TRANSPORT is tcp (NFS over TCP), stock (the in-kernel rpcrdma.ko) or
# ours (rpcrdma2.ko, built first with make).  Also measured: the raw
# soft-RDMA limit of the same rxe device (ib_write_bw, ib_send_lat).
# Under TCG every figure is far below real hardware; only the ratios
# between transports in the same run mean anything.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

runtime=10
guests=1
while getopts g:r: o; do
	case $o in
	g) guests=$OPTARG ;;
	r) runtime=$OPTARG ;;
	*) rr2_die "usage: bench.sh [-g 1|2] [-r SECONDS] [tcp|stock|ours]..." ;;
	esac
done
shift $((OPTIND - 1))
transports=${*:-tcp stock}
mod=stock
case " $transports " in *" ours "*) mod=ours ;; esac

args=$(echo "$transports runtime=$runtime" | tr ' ' ',')
if [ "$guests" = 2 ]; then
	"$(dirname "$0")/../qemu/run-scenario.sh" -g 2 -s "$mod" -c "$mod" \
		-a "$args" -t 3000 -n bench2 bench2 > /dev/null || true
	con=$RR2_OUT/bench2/client.console
	tr -d '\r' < "$RR2_OUT/bench2/server.console" | grep -E '^RR2: FAIL' >&2 || true
else
	"$(dirname "$0")/../qemu/run-scenario.sh" -g 1 -s "$mod" -a "$args" \
		-t 3000 -n bench bench > /dev/null || true
	con=$RR2_OUT/bench/single.console
fi
tr -d '\r' < "$con" | grep -E '^RR2: (FAIL|INFO)' >&2 || true

tr -d '\r' < "$con" | awk -v order="$transports" '
$1 == "RR2:" && $2 == "BENCH" {
	t = $3; n = $4; v[t, n] = $5; u[n] = $6
	if (!(n in seen)) { seen[n] = 1; names[++nn] = n }
	printf "%-6s %-20s %12s %s\n", t, n, $5, $6
}
END {
	k = split(order, ts, " ")
	print ""
	printf "%-20s", "ratio"
	for (i = 1; i <= k; i++) for (j = 1; j <= k; j++) if (i != j && ts[j] != "ours" && ts[i] != "tcp")
		printf " %14s", ts[i] "/" ts[j]
	print ""
	for (x = 1; x <= nn; x++) {
		n = names[x]
		if (n ~ /^ib_/) continue
		printf "%-20s", n
		for (i = 1; i <= k; i++) for (j = 1; j <= k; j++) if (i != j && ts[j] != "ours" && ts[i] != "tcp") {
			a = v[ts[i], n]; b = v[ts[j], n]
			if (a == "" || b == "" || b + 0 == 0) printf " %14s", "-"
			else printf " %14.2f", a / b
		}
		print ""
	}
}'
