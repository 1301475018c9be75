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
exec 9> "$RR2_CACHE/.kunit.lock"
flock 9

"$here/prepare-tree.sh"
mkdir -p "$build" "$RR2_OUT"
# The cache is shared by every checkout of the repository, and
# prepare-tree.sh points net/rpcrdma2 at this one: objects built from
# another checkout can be newer than this checkout's files, and make
# would keep them.  Rebuild our part when the checkout changed.
if [ "$(cat "$build/.rr2-repo" 2>/dev/null)" != "$RR2_REPO" ]; then
	rm -rf "$build/net/rpcrdma2"
	echo "$RR2_REPO" > "$build/.rr2-repo"
fi
log=$RR2_OUT/$prefix.log

rm -f "$build/test.log"
cd "$RR2_SRC"
set +e
python3 tools/testing/kunit/kunit.py run \
	--arch=x86_64 \
	--build_dir="$build" \
	"${configs[@]}" \
	--jobs="$(nproc)" \
	--timeout=1200 \
	"$@" 2>&1 | tee "$log" | grep -vE '^\[[0-9:]+\] (\$ make|  [A-Z]+ )' >&2
rc=${PIPESTATUS[0]}
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
