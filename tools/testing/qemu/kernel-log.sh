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
rr2_kernel_report_re='WARNING:|(^|[^A-Z])BUG:|^BUG [a-z]|Oops|general protection|Kernel panic|cut here|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|blocked for more than [0-9]+ seconds|KASAN:|UBSAN:|KFENCE:|kmemleak:|list_add corruption|list_del corruption|list_add double add|refcount_t:|detected (expedited )?stalls?|rcu: INFO:|hard LOCKUP|soft lockup|stack-protector|Call Trace:'

# rr2_kernel_reports ALLOW-FILE: the report lines of the kernel log
# (dmesg, or a console: only its printk lines, "[  12.345678] ...") on
# stdin, timestamps removed, without the allowed ones
rr2_kernel_reports() {
	local allow=${1:-/dev/null} re
	# NAME<TAB>ERE lines; a line without a tab or an ERE allows nothing
	re=$(grep -vE '^[[:space:]]*(#|$)' "$allow" 2>/dev/null | cut -sf2 |
		grep -v '^[[:space:]]*$' | paste -sd'|')
	tr -d '\r' | sed -n 's/^\[ *[0-9]*\.[0-9]*\] //p' |
		{ grep -E "$rr2_kernel_report_re" || [ $? = 1 ]; } |
		if [ -n "$re" ]; then
			# a broken pattern (exit 2) must not drop every report
			grep -vE -- "$re" || { rc=$?; [ $rc = 1 ] || echo "kernel-log-allow.txt: bad pattern (grep exit $rc)"; }
		else
			cat
		fi
}
