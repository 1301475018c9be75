#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Fail a test run on the kernel's own reports in its log.

Usage: scan-kernel-log.py PREFIX < LOG

A KUnit case can pass every assertion and still leave a lockdep splat,
a WARN_ON, a KASAN report or a "sleeping function called from invalid
context" in the kernel log; that is a failure too.  This reads a raw
kernel log (kunit.py's test.log, or a QEMU guest console) and prints

  FAIL PREFIX.kernel-log.KIND (N reports; first: HEADLINE)

for each kind of report found, or "PASS PREFIX.no-kernel-warnings" if
there is none.  The first report's excerpt (its headline and the lines
after it, up to the end of its call trace) goes to stderr.
Exit status: 0 if the log is clean, 1 otherwise.
"""
import re
import sys

# (kind, pattern) in order of precedence: a line is counted once, under
# the first kind that matches.  Lockdep and KASAN print "WARNING:" and
# "BUG:" headlines of their own, so they come before the generic ones.
KINDS = [
    ('lockdep-circular', r'WARNING: possible circular locking dependency'),
    ('lockdep-recursive', r'WARNING: possible recursive locking'),
    ('lockdep', r'WARNING: (inconsistent lock state|bad unlock balance|'
                r'lock held when returning to user space|'
                r'held lock freed|'
                r'(HARDIRQ|SOFTIRQ)-(safe|READ-safe)|'
                r'possible irq lock inversion|'
                r'[Nn]ested lock was not taken)'),
    ('rcu', r'WARNING: suspicious RCU usage'),
    ('atomic-sleep', r'BUG: (sleeping function called from invalid context|'
                     r'scheduling while atomic|'
                     r'using .* in preemptible)'),
    ('kasan', r'BUG: KASAN:|KASAN: '),
    ('kfence', r'BUG: KFENCE:'),
    ('ubsan', r'UBSAN: '),
    # An object's own report, not kmemleak's summary line ("N new
    # suspected memory leaks"), which counts every leak in the kernel:
    # rpcrdma2_zz_leaks prints the reports of rpcrdma2's own objects.
    ('kmemleak', r'unreferenced object 0x'),
    ('hung-task', r'INFO: task .* blocked for more than'),
    ('rcu-stall', r'rcu: INFO: .* detected stall|'
                  r'rcu_.* self-detected stall'),
    ('oops', r'Oops: |general protection fault|'
             r'BUG: (kernel NULL pointer dereference|unable to handle)'),
    ('bug', r'BUG: |kernel BUG at'),
    ('warning', r'WARNING: '),
    ('panic', r'Kernel panic - not syncing'),
]
HEADLINE = re.compile('|'.join(f'(?P<k{i}>{p})' for i, (_, p) in enumerate(KINDS)))

# "------------[ cut here ]------------" precedes a WARN()'s
# "WARNING: CPU: N PID: N at FILE:LINE FUNC" line, which the generic
# "WARNING: " pattern already counts.
CUT = '------------[ cut here ]------------'
# A WARN() or an oops ends with "---[ end trace ... ]---"; lockdep and
# RCU reports have no footer.  The excerpt is cut at 40 lines.
END = re.compile(r'---\[ end (trace|Kernel panic)')
RULE = re.compile(r'^(=+|-+)$')
# kunit.py's test.log may carry printk timestamps; strip them.
STAMP = re.compile(r'^\[\s*\d+\.\d+\]\s?')


def main():
    prefix = sys.argv[1] if len(sys.argv) > 1 else 'kernel'
    lines = [STAMP.sub('', line) for line in sys.stdin.read().splitlines()]
    found = {}
    first = None
    for i, line in enumerate(lines):
        m = HEADLINE.search(line)
        if not m:
            continue
        kind = KINDS[int(m.lastgroup[1:])][0]
        head = line.strip()
        n, h = found.get(kind, (0, head))
        found[kind] = (n + 1, h)
        if first is None:
            start = i
            if i > 0 and (CUT in lines[i - 1] or RULE.match(lines[i - 1])):
                start = i - 1
            first = (start, kind)

    if not found:
        print(f'PASS {prefix}.no-kernel-warnings')
        return 0
    for kind, _ in KINDS:
        if kind in found:
            n, head = found[kind]
            s = '' if n == 1 else 's'
            print(f'FAIL {prefix}.kernel-log.{kind} '
                  f'({n} report{s}; first: {head[:120]})')
    start, kind = first
    excerpt = []
    for line in lines[start:start + 40]:
        excerpt.append(line)
        if len(excerpt) > 3 and END.search(line):
            break
    print(f'--- {prefix}: first kernel report ({kind}), log line {start + 1}:',
          file=sys.stderr)
    for line in excerpt:
        print(f'    {line}', file=sys.stderr)
    print('---', file=sys.stderr)
    return 1


if __name__ == '__main__':
    sys.exit(main())
