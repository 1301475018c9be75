#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the KUnit x86_64 kernel (Debian's linux-source-6.12 with rpcrdma2
# built in) and run every rpcrdma2 suite under kunit.py in QEMU.
# The build directory lives in the cache and is reused, so a second run
# rebuilds incrementally.  Extra arguments go to "kunit.py run".
#
# kunit.py output goes to stderr; stdout gets one PASS/FAIL line per case.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

"$(dirname "$0")/prepare-tree.sh"
mkdir -p "$RR2_KUNIT_BUILD" "$RR2_OUT"
log=$RR2_OUT/kunit.log

rm -f "$RR2_KUNIT_BUILD/test.log"
cd "$RR2_SRC"
set +e
python3 tools/testing/kunit/kunit.py run \
	--arch=x86_64 \
	--build_dir="$RR2_KUNIT_BUILD" \
	--kunitconfig="$RR2_REPO/tools/testing/kunit/rpcrdma2.kunitconfig" \
	--jobs="$(nproc)" \
	--timeout=1200 \
	"$@" 2>&1 | tee "$log" | grep -vE '^\[[0-9:]+\] (\$ make|  [A-Z]+ )' >&2
rc=${PIPESTATUS[0]}
set -e

# kunit.py keeps the raw kernel log in the build directory as test.log.
results=0
if [ -f "$RR2_KUNIT_BUILD/test.log" ]; then
	"$RR2_REPO/tools/testing/kunit/ktap2results.py" "$RR2_SRC" \
		< "$RR2_KUNIT_BUILD/test.log" || results=$?
else
	rr2_fail "kunit.build (kunit.py exit $rc, see $log)"
	exit 1
fi
# Our own code must build without a warning in the KUnit kernel too.
if grep -E 'net/rpcrdma2/.*(warning|error):' "$log" >&2; then
	rr2_fail kunit.build-warnings
	results=1
else
	rr2_pass kunit.build-warnings
fi
[ $rc -eq 0 ] && [ $results -eq 0 ]
