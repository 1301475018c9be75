#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Checks crash.sh's verdicts on kept consoles (testdata/): which crash
# of a guest lets run-scenario.sh run a scenario again, and which is a
# failure; and kernel-log.sh's scan on the kernel's report formats.
# One PASS/FAIL line per case; no guest is booted.
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

# kernel-log.sh: what the scan at the end of a scenario calls a report
# (the formats of Linux 6.12), and what it leaves alone
n=0
while IFS='|' read -r want line; do
	n=$((n + 1))
	got=$(printf '[   12.345678] %s\n' "$line" |
		rr2_kernel_reports "$(dirname "$0")/kernel-log-allow.txt")
	if { [ "$want" = report ] && [ -n "$got" ]; } ||
	   { [ "$want" = clean ] && [ -z "$got" ]; }; then
		rr2_pass "kernel-log-scan.$n.$want"
	else
		rr2_fail "kernel-log-scan.$n.$want (${line:0:50}: got '${got:0:40}')"
		rc=1
	fi
done <<'LINES'
report|WARNING: CPU: 1 PID: 107 at net/rpcrdma2/net/client/reply.c:512 rr2c_recv_done+0x2c4/0x6a0 [rpcrdma2]
report|BUG: KASAN: slab-use-after-free in rr2s_recv_done+0x1c/0x1a0 [rpcrdma2]
report|BUG: kernel NULL pointer dereference, address: 0000000000000010
report|INFO: task kworker/u8:2:32 blocked for more than 120 seconds.
report|rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:
report|rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks: { 1-... }
report|WARNING: possible circular locking dependency detected
report|UBSAN: array-index-out-of-bounds in net/rpcrdma2/net/shared/codec.c:88:9
report|list_add corruption. prev->next should be next (ff1e...), but was 0000000000000000.
report|refcount_t: underflow; use-after-free.
report|BUG kmalloc-64 (Tainted: G    B      ): Poison overwritten
report|watchdog: BUG: soft lockup - CPU#0 stuck for 26s! [kworker/0:1:12]
report|Call Trace:
clean|rpcrdma2: connected to 10.111.0.1, RPC-over-RDMA version 2, inline 4096/4096
clean|rpcrdma2: listener on 10.111.0.1:20049 lost its RDMA device; it listens again when a device with that address is up
clean|DEBUG: nothing wrong here
clean|nfsd: last server has exited, flushing export cache
LINES
# a scenario line is not a kernel line, and a broken allow-list entry
# does not allow everything
if [ -z "$(echo 'RR2: INFO WARNING: in a scenario line' | rr2_kernel_reports)" ]; then
	rr2_pass kernel-log-scan.scenario-line-not-kernel
else
	rr2_fail kernel-log-scan.scenario-line-not-kernel; rc=1
fi
bad=$(mktemp)
printf 'broken\tfoo(\n' > "$bad"
if [ -n "$(printf '[ 1.0] WARNING: x\n' | rr2_kernel_reports "$bad" 2>/dev/null)" ]; then
	rr2_pass kernel-log-scan.bad-allow-pattern-allows-nothing
else
	rr2_fail kernel-log-scan.bad-allow-pattern-allows-nothing; rc=1
fi
rm -f "$bad"
exit $rc
