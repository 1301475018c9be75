# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# The kernel's own reports in a guest's log: sourced by the guest (its
# whole dmesg, at the end of every scenario and every disk boot) and by
# run-scenario.sh (the console of a guest that stopped).  Any report
# fails the run; the only exceptions are the named emulator artefacts
# of kernel-log-allow.txt, each documented there.

# what the kernel prints when something is wrong (ERE): warnings, BUG,
# oops and panics, lockdep, hung tasks, sanitizers, list and refcount
# corruption, RCU stalls, stack dumps
rr2_kernel_report_re='WARNING:|BUG:|Oops|general protection|Kernel panic|cut here|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|blocked for more than [0-9]+ seconds|KASAN:|UBSAN:|KFENCE:|kmemleak:|list_add corruption|list_del corruption|refcount_t:|detected stall|self-detected stall|stack-protector|Call Trace:'

# rr2_kernel_reports ALLOW-FILE: the report lines of the kernel log
# (dmesg, or a console: only its printk lines, "[  12.345678] ...") on
# stdin, timestamps removed, without the allowed ones
rr2_kernel_reports() {
	local allow=${1:-/dev/null} re
	re=$(grep -vE '^[[:space:]]*(#|$)' "$allow" 2>/dev/null | cut -f2 | paste -sd'|')
	tr -d '\r' | sed -n 's/^\[ *[0-9]*\.[0-9]*\] //p' |
		grep -E "$rr2_kernel_report_re" |
		{ if [ -n "$re" ]; then grep -vE "$re"; else cat; fi; } || true
}
