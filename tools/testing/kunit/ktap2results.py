#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Turn a KUnit run's kernel log into one PASS/FAIL/SKIP line per test.

Usage: ktap2results.py KERNEL_SRC [PREFIX] < test.log

Names are PREFIX.SUITE.CASE[.PARAM] (PREFIX defaults to "kunit"; the
debug build's run uses "kunit-debug").

Uses the kernel's own KTAP parser (tools/testing/kunit/kunit_parser.py)
so the reading matches kunit.py's.  A leaf test that is neither SUCCESS
nor SKIPPED counts as a failure, and so does a log with no tests at all.
Exit status: 0 if nothing failed, 1 otherwise.
"""
import contextlib
import io
import sys

sys.path.insert(0, sys.argv[1] + '/tools/testing/kunit')
import kunit_parser  # noqa: E402
import kunit_printer  # noqa: E402
from kunit_parser import TestStatus  # noqa: E402


def leaves(test, prefix):
    name = f'{prefix}.{test.name}' if prefix else test.name
    if not test.subtests:
        yield name, test.status
        return
    if test.status == TestStatus.TEST_CRASHED:
        yield name, test.status
    for sub in test.subtests:
        yield from leaves(sub, name)


def main():
    # the parser prints its own report; kunit.py has shown it already
    kunit_printer.stdout._output = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()):
        root = kunit_parser.parse_run_tests(sys.stdin.read().splitlines())
    prefix = sys.argv[2] if len(sys.argv) > 2 else 'kunit'
    failed = 0
    count = 0
    for sub in root.subtests:
        for name, status in leaves(sub, prefix):
            count += 1
            if status == TestStatus.SUCCESS:
                print(f'PASS {name}')
            elif status == TestStatus.SKIPPED:
                print(f'SKIP {name}')
            else:
                failed += 1
                print(f'FAIL {name} ({status.name})')
    if count == 0:
        print(f'FAIL {prefix}.no-tests-found')
        failed += 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
