#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# checkpatch.pl --strict (from Debian's linux-source-6.12) over every C
# source and header of the module.  One PASS/FAIL line per file.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

cp=$RR2_SRC/scripts/checkpatch.pl
[ -x "$cp" ] || rr2_die "no checkpatch.pl in $RR2_SRC: run tools/testing/setup.sh"
cd "$RR2_REPO" || exit 1
rc=0
for f in $(git ls-files 'net/*.[ch]' 'include/*.[ch]'); do
	if out=$("$cp" --strict --no-tree --quiet --show-types -f "$f" 2>&1) &&
	   [ -z "$out" ]; then
		rr2_pass "checkpatch.$f"
	else
		rr2_fail "checkpatch.$f"
		printf '%s\n' "$out" | head -n 30 >&2
		rc=1
	fi
done
exit $rc
