# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# How run-scenario.sh reads a guest's console after a crash: sourced by
# it and by crash-selftest.sh, which checks the verdicts on consoles
# kept in testdata/.

# what a crashed kernel prints first (ERE)
crash_re='Kernel panic|BUG:|Oops|general protection'

# tcg_double_fault CONSOLE: the kernel's first crash is a plain double
# fault ("Oops: double fault"; an overflow of a kernel stack says
# "kernel stack overflow (double-fault)") and no frame of rpcrdma2 is
# in what it printed.  Seen twice in CI, both times in rxe's receiver
# work, at kmem_cache_alloc_node_noprof+0x70 the second time: that
# instruction loads through the kmem_cache pointer the same function
# loaded through 18 instructions earlier, after the stack was written
# two instructions before, so neither the pointer nor the stack was
# bad; the exception frame is corrupt.  Once on a client running the
# stock module (8203fda, interop-ours-stock: our server its peer), once
# on a client running rpcrdma2 (57186b5, faults-stock-ours: the stock
# server its peer): neither side's transport is common to both.  Then
# locally with the stock module in both guests (faults-stock, the
# client, same instruction): testdata/double-fault-stock-stock.console.
tcg_double_fault() {
	local c
	c=$(tr -d '\r' < "$1")
	grep -m1 -oE "($crash_re).*" <<< "$c" | grep -q '^Oops: double fault:' &&
		! sed -n '/Oops: double fault:/,$p' <<< "$c" | grep -q '\[rpcrdma2'
}

# crash_verdict CONSOLE MOD: "none" (no crash), "retry" (the run may
# be run again, once) or "fail".  A crash is retried when the guest
# runs only Debian's modules (MOD "stock": the stock transport, no
# rpcrdma2) or took the emulator's double fault above; any other crash
# of a guest running rpcrdma2 is a result.
crash_verdict() {
	if ! grep -qE "$crash_re" < <(tr -d '\r' < "$1"); then
		echo none
	elif [ "$2" = stock ] || tcg_double_fault "$1"; then
		echo retry
	else
		echo fail
	fi
}
