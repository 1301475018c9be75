#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the KUnit x86_64 kernel (Debian's linux-source-6.12 with rpcrdma2
# built in) and run every rpcrdma2 suite under kunit.py in QEMU.
# The build directory lives in the cache and is reused, so a second run
# rebuilds incrementally.  Extra arguments go to "kunit.py run".
#
#   run.sh [--debug] [kunit.py run arguments]
#
# --debug (or RR2_KUNIT_DEBUG=1) adds rpcrdma2-debug.kunitconfig (lockdep,
# atomic-sleep checks, KASAN) and builds in its own directory,
# $RR2_CACHE/kunit-build-debug; its results are named "kunit-debug.*"
# and its kunit.py output is kept in $RR2_OUT/kunit-debug.log.
#
# --build (configure and build only) and then --exec (run the tests in
# QEMU, then everything below) split one run in two, so that
# run-tests.sh can build both kernels and then run their tests at once.
# Both take the cache's lock unless RR2_KUNIT_LOCKED=1 says the caller
# holds it (from the first build to the last run).
#
# kunit.py output goes to stderr; stdout gets one PASS/FAIL line per case,
# then the kernel log scan (scan-kernel-log.py): a lockdep report, a
# WARN_ON, a BUG or a KASAN report anywhere in the kernel log fails the
# run even when every assertion passed.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

here=$RR2_REPO/tools/testing/kunit
debug=${RR2_KUNIT_DEBUG:-0}
if [ "${1:-}" = --debug ]; then
	debug=1
	shift
fi
phase=run
case ${1:-} in
--build) phase="build"; shift ;;
--exec) phase="exec"; shift ;;
esac
configs=(--kunitconfig="$here/rpcrdma2.kunitconfig")
if [ "$debug" = 1 ]; then
	build=$RR2_KUNIT_DEBUG_BUILD
	prefix=kunit-debug
	# kunit.py merges the two; the second only adds debug options
	configs+=(--kunitconfig="$here/rpcrdma2-debug.kunitconfig")
else
	build=$RR2_KUNIT_BUILD
	prefix=kunit
fi

# One run at a time per cache: prepare-tree.sh points the shared kernel
# source at this checkout, and the build directory is shared too.
mkdir -p "$RR2_CACHE"
if [ "${RR2_KUNIT_LOCKED:-0}" != 1 ]; then
	exec 9> "$RR2_CACHE/.kunit.lock"
	flock 9
fi

"$here/prepare-tree.sh"
mkdir -p "$build" "$RR2_OUT"
# The cache is shared by every checkout of the repository, and
# prepare-tree.sh points net/rpcrdma2 at this one: objects built from
# another checkout can be newer than this checkout's files, and make
# would keep them.  Rebuild our part when the checkout changed.
if [ "$phase" != exec ] &&
	[ "$(cat "$build/.rr2-repo" 2>/dev/null)" != "$RR2_REPO" ]; then
	rm -rf "$build/net/rpcrdma2"
	echo "$RR2_REPO" > "$build/.rr2-repo"
fi
# --build's mark for --exec: which checkout built the kernel, and that
# the build succeeded; any other build makes it stale
[ "$phase" = exec ] || rm -f "$build/.rr2-built"
log=$RR2_OUT/$prefix.log

rm -f "$build/test.log"
cd "$RR2_SRC"
# kunit.py SUBCOMMAND [OPTION...]: its output into $log (after what the
# build wrote, for --exec) and, but for make's lines, to stderr
kunit() {
	local cmd=$1 tee=(tee "$log")
	shift
	[ "$phase" != exec ] || tee=(tee -a "$log")
	python3 tools/testing/kunit/kunit.py "$cmd" \
		--arch=x86_64 \
		--build_dir="$build" \
		"${configs[@]}" \
		"$@" 2>&1 | "${tee[@]}" | grep -vE '^\[[0-9:]+\] (\$ make|  [A-Z]+ )' >&2
	return "${PIPESTATUS[0]}"
}
set +e
case $phase in
run) kunit run --jobs="$(nproc)" --timeout=1200 "$@" ;;
build)
	# the tests and the checks below wait for --exec; a build that
	# failed says so now, as "run" would, and --exec then says nothing
	if kunit build --jobs="$(nproc)" "$@"; then
		echo "$RR2_REPO" > "$build/.rr2-built"
		exit 0
	fi
	rr2_fail "$prefix.build (kunit.py exit 1, see $log)"
	exit 1
	;;
exec)
	# this checkout's --build, and it succeeded
	[ "$(cat "$build/.rr2-built" 2>/dev/null)" = "$RR2_REPO" ] || exit 1
	kunit exec --timeout=1200 "$@"
	;;
esac
rc=$?
set -e

# kunit.py keeps the raw kernel log in the build directory as test.log.
results=0
if [ -f "$build/test.log" ]; then
	"$here/ktap2results.py" "$RR2_SRC" "$prefix" "$RR2_REPO/net/tests" \
		< "$build/test.log" || results=$?
	# Lockdep, WARN_ON, BUG, KASAN...: the kernel's own reports fail
	# the run too, wherever they are in the log.
	"$here/scan-kernel-log.py" "$prefix" < "$build/test.log" || results=1
else
	rr2_fail "$prefix.build (kunit.py exit $rc, see $log)"
	exit 1
fi
# Our own code must build without a warning in the KUnit kernel too.
if grep -E 'net/rpcrdma2/.*(warning|error):' "$log" >&2; then
	rr2_fail "$prefix.build-warnings"
	results=1
else
	rr2_pass "$prefix.build-warnings"
fi
[ $rc -eq 0 ] && [ $results -eq 0 ]
