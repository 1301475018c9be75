#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Checks crash.sh's verdicts on kept consoles (testdata/): which crash
# of a guest lets run-scenario.sh run a scenario again, and which is a
# failure.  One PASS/FAIL line per case; no guest is booted.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/crash.sh"

data=$(dirname "$0")/testdata
rc=0
# console, verdict
while read -r con want; do
	got=$(crash_verdict "$data/$con.console")
	if [ "$got" = "$want" ]; then
		rr2_pass "crash-verdict.$con"
	else
		rr2_fail "crash-verdict.$con (got $got, want $want)"
		rc=1
	fi
done <<'CASES'
clean none
double-fault-stock-stock retry
double-fault-rxe-requester retry
double-fault-rxe fail
double-fault-rpcrdma2 fail
double-fault-tainted-w fail
double-fault-other-rip fail
double-fault-sane-eflags fail
warning-then-double-fault fail
stack-overflow fail
gpf-after-warning fail
boot-int3 retry
insmod-crash fail
insmod-int3 fail
CASES
exit $rc
