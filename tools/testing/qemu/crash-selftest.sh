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
# console, module of the guest, verdict
while read -r con mod want; do
	got=$(crash_verdict "$data/$con.console" "$mod")
	if [ "$got" = "$want" ]; then
		rr2_pass "crash-verdict.$con.$mod"
	else
		rr2_fail "crash-verdict.$con.$mod (got $got, want $want)"
		rc=1
	fi
done <<'CASES'
clean ours none
clean stock none
double-fault-rxe ours retry
double-fault-rxe stock retry
double-fault-stock-stock stock retry
double-fault-stock-stock ours retry
double-fault-rxe-requester ours retry
double-fault-rpcrdma2 ours fail
double-fault-rpcrdma2 stock retry
stack-overflow ours fail
stack-overflow stock retry
gpf-after-warning ours fail
CASES
exit $rc
