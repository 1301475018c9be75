#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Turn a KUnit run's kernel log into one PASS/FAIL/SKIP line per test.

Usage: ktap2results.py KERNEL_SRC [PREFIX [TESTS_DIR]] < test.log

Names are PREFIX.SUITE.CASE[.PARAM] (PREFIX defaults to "kunit"; the
debug build's run uses "kunit-debug").

Uses the kernel's own KTAP parser (tools/testing/kunit/kunit_parser.py)
so the reading matches kunit.py's.  A leaf test that is neither SUCCESS
nor SKIPPED counts as a failure, and so does a log with no tests at all.
With TESTS_DIR (net/tests), every suite a test file there declares
(kunit_test_suite(s) of a struct kunit_suite with its .name) must have
run: a suite that dropped out of the build or the run fails as
PREFIX.SUITE.ran.
Exit status: 0 if nothing failed, 1 otherwise.
"""
import contextlib
import glob
import io
import os
import re
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


def declared_suites(tests_dir):
    """Names of the suites the test files register, {name: file}."""
    out = {}
    for path in sorted(glob.glob(os.path.join(tests_dir, '*.c'))):
        with open(path, encoding='utf-8') as f:
            text = f.read()
        regs = set()
        for m in re.finditer(r'kunit_test_suites?\(([^;]*)\);', text):
            regs.update(re.findall(r'&?(\w+)', m.group(1)))
        for m in re.finditer(r'struct kunit_suite (\w+) = \{(.*?)\n\};',
                             text, re.S):
            if m.group(1) not in regs:
                continue
            name = re.search(r'\.name\s*=\s*"([^"]+)"', m.group(2))
            if name:
                out[name.group(1)] = os.path.basename(path)
    return out


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
            elif status == TestStatus.SKIPPED and not (
                    prefix == 'kunit-debug' and '.rpcrdma2_zz_leaks.' in name):
                print(f'SKIP {name}')
            else:
                failed += 1
                print(f'FAIL {name} ({status.name})')
    if count == 0:
        print(f'FAIL {prefix}.no-tests-found')
        failed += 1
    if len(sys.argv) > 3:
        ran = {sub.name for sub in root.subtests}
        declared = declared_suites(sys.argv[3])
        if not declared:
            print(f'FAIL {prefix}.suites-declared (none found in {sys.argv[3]})')
            failed += 1
        for name, path in sorted(declared.items()):
            if name in ran:
                print(f'PASS {prefix}.{name}.ran')
            else:
                print(f'FAIL {prefix}.{name}.ran (declared in {path}, '
                      'not in the log: out of the build or the run)')
                failed += 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
