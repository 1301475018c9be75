# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# How run-scenario.sh reads a guest's console after a crash: sourced by
# it and by crash-selftest.sh, which checks the verdicts on consoles
# kept in testdata/.
#
# A crash fails the run, whatever the guest runs, with two exceptions,
# each recognised by its whole signature and retried once: the
# emulator's double fault in rxe's slab allocation (tcg_double_fault)
# and TCG's int3 while the kernel patches its own text at boot
# (tcg_boot_int3).  Documentation/testing.rst gives the evidence.

# what a crashed kernel prints first (ERE)
crash_re='Kernel panic|BUG:|Oops|general protection'

# shellcheck disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/kernel-log.sh"

# What, printed before a crash, means the kernel was already unwell or
# rpcrdma2 was involved: any report of kernel-log.sh (a warning, a
# sanitizer, a hung task, an RCU stall, a stack dump...) or a frame of
# rpcrdma2.
crash_prior_re="$rr2_kernel_report_re|\\[rpcrdma2\\]"

# The two instructions of SLUB's allocation fast path where the
# emulator's double fault was caught (a load through the kmem_cache
# pointer loaded just before).
tcg_df_rips='kmem_cache_alloc_node_noprof\+0x70/0x330|__kmalloc_node_track_caller_noprof\+0xd5/0x440'

# crash_report CONSOLE: the console without carriage returns and printk
# timestamps, from the first crash line to the end
crash_report() {
	tr -d '\r' < "$1" | sed 's/^\[ *[0-9.]*\] //' |
		sed -En "/$crash_re/,\$p"
}

# crash_before CONSOLE: the kernel's lines before the first crash line
crash_before() {
	tr -d '\r' < "$1" | sed 's/^\[ *[0-9.]*\] //' |
		sed -E "/$crash_re/,\$d"
}

# first_report_eflags REPORT: the EFLAGS value of the first register dump
first_report_eflags() {
	grep -m1 -oE 'EFLAGS: [0-9a-f]+' <<< "$1" | cut -d' ' -f2
}

# tcg_double_fault CONSOLE: the emulator's double fault, all of:
#   - the kernel's first crash message is "Oops: double fault:" (not
#     "kernel stack overflow (double-fault)"), and the kernel was not
#     tainted by an earlier warning or oops ("Tainted:" without W or D);
#   - nothing before it: no warning, report, stack dump or rpcrdma2
#     frame printed before the Oops (crash_prior_re);
#   - RIP at one of the two SLUB fast-path loads (tcg_df_rips), in
#     rxe's work item: "Workqueue: rxe_wq", frames __alloc_skb and
#     do_task [rdma_rxe], and no [rpcrdma2] frame anywhere in the report;
#   - the register evidence: the EFLAGS of the exception frame has bits
#     set above bit 21, which are reserved and always zero on x86, so
#     no CPU wrote that frame (in both captures it holds bits of RAX).
# A console without the register dump (a reconstructed one) is not the
# signature: the evidence is missing.
tcg_double_fault() {
	local r fl
	r=$(crash_report "$1")
	head -n1 <<< "$r" | grep -q '^Oops: double fault:' || return 1
	! crash_before "$1" | grep -qE "$crash_prior_re" || return 1
	! grep -qE '\[rpcrdma2\]' <<< "$r" || return 1
	! grep -m1 -E '^CPU: .*Tainted: ' <<< "$r" | grep -qE 'Tainted: [A-Z ]*[WD]' ||
		return 1
	grep -m1 '^RIP: ' <<< "$r" | grep -qE "^RIP: 0010:($tcg_df_rips)\$" || return 1
	grep -q '^Workqueue: rxe_wq ' <<< "$r" || return 1
	grep -qE '^ *__alloc_skb\+' <<< "$r" || return 1
	grep -qE '^ *do_task\+0x[0-9a-f]+/0x[0-9a-f]+ \[rdma_rxe\]' <<< "$r" || return 1
	fl=$(first_report_eflags "$r")
	[ -n "$fl" ] && [ $((16#$fl & ~16#3fffff)) -ne 0 ]
}

# tcg_boot_int3 CONSOLE: TCG's trip over live text patching at boot:
# the first crash message is "Oops: int3", no scenario line ("RR2: ")
# came before it, rpcrdma2 is neither loaded nor loading ("Modules
# linked in:" does not name it) and nothing of it is in the report, and
# nothing was reported before it.
tcg_boot_int3() {
	local r
	r=$(crash_report "$1")
	head -n1 <<< "$r" | grep -q '^Oops: int3' || return 1
	! crash_before "$1" | grep -qE "^RR2: |$crash_prior_re|rpcrdma2" || return 1
	! grep -q 'rpcrdma2' <<< "$r"
}

# crash_verdict CONSOLE: "none" (no crash), "retry" (one of the two
# emulator signatures above: the run may be run again, once) or "fail".
# What the guest runs does not matter: a crash of a guest running only
# Debian's modules, whose RDMA peer is rpcrdma2, is a result too.
crash_verdict() {
	if ! grep -qE "$crash_re" < <(tr -d '\r' < "$1"); then
		echo none
	elif tcg_double_fault "$1" || tcg_boot_int3 "$1"; then
		echo retry
	else
		echo fail
	fi
}

# crash_signature CONSOLE: which retried signature, for the RETRY line
crash_signature() {
	if tcg_double_fault "$1"; then
		echo "emulator double fault at $(crash_report "$1" | grep -m1 '^RIP: ' | cut -d: -f3)"
	elif tcg_boot_int3 "$1"; then
		echo "emulator int3 at boot"
	fi
}
