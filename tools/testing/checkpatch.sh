#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# checkpatch.pl --strict (from Debian's linux-source-6.12) over every C
# source and header of the module and the benchmark's kernel probe.
# One PASS/FAIL line per file, the findings of a FAIL on stderr.  The
# files are checked on every CPU at once; each file's lines come out in
# one piece.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

cp=$RR2_SRC/scripts/checkpatch.pl
[ -x "$cp" ] || rr2_die "no checkpatch.pl in $RR2_SRC: run tools/testing/setup.sh"
cd "$RR2_REPO" || exit 1

# check_one FILE: exit 1 on any finding (or a checkpatch failure)
check_one() {
	local out
	if out=$("$cp" --strict --no-tree --quiet --show-types -f "$1" 2>&1) &&
	   [ -z "$out" ]; then
		rr2_pass "checkpatch.$1"
		return 0
	fi
	rr2_fail "checkpatch.$1"
	printf '%s\n' "$out" | head -n 30 >&2
	return 1
}
export cp
export -f check_one rr2_pass rr2_fail

# xargs exits 123 if any file failed, 0 if none did
git ls-files -z 'net/*.[ch]' 'include/*.[ch]' 'tools/testing/bench/rawk/*.c' |
	xargs -0 -n 1 -P "$(nproc)" bash -c 'check_one "$1"' _
