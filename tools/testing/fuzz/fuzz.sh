#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Fuzz the rpcrdma2 header codec (libFuzzer + ASan + UBSan).
#
#   fuzz.sh replay              run every checked-in seed once (CI)
#   fuzz.sh run [-t SECONDS] [TARGET...]
#                               fuzz each target for SECONDS (default 60),
#                               print executions and crashes
# Targets: hdr props cmp first_reply reasm.  New corpus entries from "run" go
# to $RPCRDMA2_CACHE/fuzz/TARGET, not into git; crashes land in
# $RPCRDMA2_CACHE/fuzz/crashes.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
targets="hdr props cmp first_reply reasm"
mode=${1:-replay}
shift || true
secs=60
if [ "$mode" = run ]; then
	while getopts t: o; do
		case $o in
		t) secs=$OPTARG ;;
		*) rr2_die "usage: fuzz.sh run [-t SECONDS] [TARGET...]" ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -gt 0 ] && targets=$*
fi

make -s -C "$here" all > "$RR2_OUT/fuzz-build.log" 2>&1 || {
	cat "$RR2_OUT/fuzz-build.log" >&2
	rr2_fail "fuzz.build"
	exit 1
}
rr2_pass fuzz.build

# The checked-in corpus must be what mkcorpus makes from the vectors.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$here/build/mkcorpus" "$tmp/corpus"
if diff -r "$tmp/corpus" "$here/corpus" > /dev/null; then
	rr2_pass fuzz.corpus-matches-vectors
else
	rr2_fail "fuzz.corpus-matches-vectors (run: make -C tools/testing/fuzz corpus)"
fi

rc=0
for t in $targets; do
	bin=$here/build/fuzz_$t
	if [ "$mode" = replay ]; then
		if "$bin" -runs=0 "$here/corpus/$t" > "$RR2_OUT/fuzz-$t.log" 2>&1; then
			rr2_pass "fuzz.replay.$t ($(ls "$here/corpus/$t" | wc -l) seeds)"
		else
			rr2_fail "fuzz.replay.$t (see $RR2_OUT/fuzz-$t.log)"
			tail -n 20 "$RR2_OUT/fuzz-$t.log" >&2
			rc=1
		fi
		continue
	fi
	work=$RR2_CACHE/fuzz/$t
	mkdir -p "$work" "$RR2_CACHE/fuzz/crashes"
	"$bin" -max_total_time="$secs" -print_final_stats=1 -timeout=10 \
		-artifact_prefix="$RR2_CACHE/fuzz/crashes/$t-" \
		"$work" "$here/corpus/$t" > "$RR2_OUT/fuzz-$t.log" 2>&1
	r=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$RR2_OUT/fuzz-$t.log")
	crashes=$(ls "$RR2_CACHE/fuzz/crashes" | grep -c "^$t-" || true)
	printf '%-12s %12s executions  %d crash files  exit %d\n' \
		"$t" "${execs:-?}" "$crashes" "$r"
	[ "$r" = 0 ] || rc=1
done
exit $rc
