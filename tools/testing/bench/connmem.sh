#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (not a test): what one NFS connection costs the client and
# the server, idle and busy, for rpcrdma2, the stock rpcrdma.ko and NFS
# over TCP, in the same two guests and the same boot (scenario
# "connmem").  Prints a table: kernel KiB and RDMA MRs per connection,
# each end, and the ratio of rpcrdma2's to the stock module's; then
# rpcrdma2's own view of its client MR pools.  Nothing passes or fails
# on a figure.
#
#   connmem.sh [-c NCONNECT] [TRANSPORT...]     (default: -c 4 stock ours tcp)
#
# Each figure is the change over NCONNECT connections divided by
# NCONNECT: memory from /proc/meminfo (the scenario says which fields),
# MRs from "rdma res show".  One run; the figures are counts, not
# times, so TCG's speed does not move them much.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

nconn=4
while getopts c: o; do
	case $o in
	c) nconn=$OPTARG ;;
	*) rr2_die "usage: connmem.sh [-c NCONNECT] [tcp|stock|ours]..." ;;
	esac
done
shift $((OPTIND - 1))
transports=${*:-stock ours tcp}
args=$(echo "$transports nconnect=$nconn expect=2 server.expect=2" | tr ' ' ',')

make -C "$RR2_REPO" -s > /dev/null
"$(dirname "$0")/../qemu/run-scenario.sh" -g 2 -s ours -c ours \
	-a "$args" -t 1800 -n connmem connmem > /dev/null || true
out=$RR2_OUT/connmem
cat "$out/server.console" "$out/client.console" | tr -d '\r' |
	grep -E '^RR2: FAIL' >&2 || true

cat "$out/server.console" "$out/client.console" | tr -d '\r' |
	awk -v order="$transports" -v n="$nconn" '
$1 == "RR2:" && $2 == "MEM" { kib[$3, $4, $5] = $6; mrs[$3, $4, $5] = $7; seen[$3, $4, $5] = 1 }
$1 == "RR2:" && $2 == "MRPOOL" { pool[$4] = $5 " made, " $6 " in use at most, cap " $7 }
function ratio(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "-" }
END {
	k = split(order, t, " ")
	printf "per connection (nconnect=%d): kernel KiB, RDMA MRs\n", n
	printf "%-7s %-5s", "end", "state"
	for (i = 1; i <= k; i++) printf " %14s", t[i]
	printf " %16s\n", "ours/stock KiB"
	split("client server", role, " ")
	split("idle busy", state, " ")
	for (r = 1; r <= 2; r++) for (s = 1; s <= 2; s++) {
		printf "%-7s %-5s", role[r], state[s]
		for (i = 1; i <= k; i++) {
			key = role[r] SUBSEP t[i] SUBSEP state[s]
			if (key in seen)
				printf " %7d KiB %3.0f", kib[key], mrs[key]
			else
				printf " %14s", "?"
		}
		printf " %16s\n", ratio(kib[role[r], "ours", state[s]],
					kib[role[r], "stock", state[s]])
	}
	for (s = 1; s <= 2; s++)
		if (state[s] in pool)
			printf "rpcrdma2 client MR pools, %s: %s (all %d connections)\n",
				state[s], pool[state[s]], n
}'
