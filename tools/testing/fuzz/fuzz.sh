#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Fuzz the rpcrdma2 header codec (libFuzzer + ASan + UBSan).
#
#   fuzz.sh replay              run every checked-in input once (CI)
#   fuzz.sh run [-t SECONDS] [TARGET...]
#                               fuzz each target for SECONDS (default 60),
#                               print executions and crashes
#   fuzz.sh campaign [-n RUNS] [TARGET...]
#                               fuzz each target for RUNS executions
#                               (default 10000000), then merge what found
#                               new coverage into corpus-found/TARGET, to
#                               be checked in
# Targets: hdr props cmp first_reply reasm nego xch chunks.  Two corpora
# are checked in: corpus/ is made from the KUnit vectors (mkcorpus) and
# must match them; corpus-found/ holds the merged results of campaigns.  Inputs
# from "run" and "campaign" collect in $RPCRDMA2_CACHE/fuzz/TARGET;
# crashes land in $RPCRDMA2_CACHE/fuzz/crashes.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
targets="hdr props cmp first_reply reasm nego xch chunks"
mode=${1:-replay}
shift || true
secs=60
runs=10000000
if [ "$mode" = run ] || [ "$mode" = campaign ]; then
	while getopts t:n: o; do
		case $o in
		t) secs=$OPTARG ;;
		n) runs=$OPTARG ;;
		*) rr2_die "usage: fuzz.sh run [-t SECONDS] | campaign [-n RUNS] [TARGET...]" ;;
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
	dirs=
	for d in "$here/corpus/$t" "$here/corpus-found/$t"; do
		[ -d "$d" ] && dirs="$dirs $d"
	done
	if [ "$mode" = replay ]; then
		# shellcheck disable=SC2086
		if [ -n "$dirs" ] && "$bin" -runs=0 $dirs > "$RR2_OUT/fuzz-$t.log" 2>&1; then
			rr2_pass "fuzz.replay.$t ($(find $dirs -type f | wc -l) inputs)"
		else
			rr2_fail "fuzz.replay.$t (see $RR2_OUT/fuzz-$t.log)"
			tail -n 20 "$RR2_OUT/fuzz-$t.log" >&2
			rc=1
		fi
		continue
	fi
	work=$RR2_CACHE/fuzz/$t
	mkdir -p "$work" "$RR2_CACHE/fuzz/crashes"
	if [ "$mode" = campaign ]; then
		limit=-runs=$runs
	else
		limit=-max_total_time=$secs
	fi
	# shellcheck disable=SC2086
	"$bin" "$limit" -print_final_stats=1 -timeout=10 \
		-artifact_prefix="$RR2_CACHE/fuzz/crashes/$t-" \
		"$work" $dirs > "$RR2_OUT/fuzz-$t.log" 2>&1
	r=$?
	if [ "$mode" = campaign ] && [ "$r" = 0 ]; then
		mkdir -p "$here/corpus-found/$t"
		"$bin" -merge=1 "$here/corpus-found/$t" "$work" \
			>> "$RR2_OUT/fuzz-$t.log" 2>&1 || r=1
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$RR2_OUT/fuzz-$t.log" | head -n1)
	crashes=$(ls "$RR2_CACHE/fuzz/crashes" | grep -c "^$t-" || true)
	printf '%-12s %12s executions  %d crash files  exit %d\n' \
		"$t" "${execs:-?}" "$crashes" "$r"
	[ "$r" = 0 ] || rc=1
done
exit $rc
