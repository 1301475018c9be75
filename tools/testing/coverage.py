#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Requirement coverage, generated from the citations in the tree.

Every row of Documentation/spec/requirements.md has an ID (V2-CONT-06,
...).  Code cites the IDs it implements in comments; tests cite the IDs
they check.  This script reads the checklist, finds every citation, and
writes Documentation/coverage.rst: one entry per requirement with where
it is implemented, which asserting tests check it, where else a test
file mentions it, and the notes from Documentation/coverage-notes.txt.

A citation is an ID written in full (V2-CONT-02), so that grep finds
every place that cites it.  A run ("V2-CONT-01..03", "V2-CRED-04/-10")
is still read as the IDs it names, but the tree does not write them.

Only two kinds of citation count as an asserting test:

  - KUnit: the ID is in the name or the body (comments included) of a
    test function of net/tests/*_test.c, that is a function named in a
    KUNIT_CASE*() entry of a kunit_case array.  A function name cites
    the ID it starts or contains as v2_err_14 (V2-ERR-14);
  - QEMU: the ID is in a command of tools/testing/qemu/scenarios/*.sh
    that calls rr2_check, rr2_pass or rr2_fail (the line and its
    continuation lines), or in the comment lines directly above it.

Comments outside test functions, helpers, net/tests/codec_vectors.h
data and the fuzz harnesses are listed as "mentioned in", not as tests.

Documentation/coverage-notes.txt has one note a line, "ID: text":

  ID: text                  why no code cites the ID (shown on the page)
  ID: untestable: text      why no test here can reach it
  ID: not yet tested: text  debt: what a test would need (counted, shown
                            as an INFO line; to be replaced by a test)

  coverage.py [--check]

Without --check the page is rewritten.  With --check nothing is
written; the run fails (one FAIL line each) when the checked-in page
differs from what the tree gives, when a note names an unknown ID or has
an unknown kind, when a mandatory row (MUST, MUST NOT, REQUIRED,
must(lc)) has neither an implementation citation nor a plain note, or
has neither an asserting test nor an untestable or not-yet-tested note.
It prints one INFO line with the number of mandatory rows waiting for a
test, and one PASS line when nothing failed.
"""

import glob
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SPEC = os.path.join(REPO, "Documentation", "spec", "requirements.md")
PAGE = os.path.join(REPO, "Documentation", "coverage.rst")
NOTES = os.path.join(REPO, "Documentation", "coverage-notes.txt")

ROW = re.compile(r"^\| ((?:V2|BC1|CMP|XCH)-[A-Z]+-\d+) \| ([^|]*) \| ([^|]*) \|")
CITE = re.compile(r"\b((?:V2|BC1|CMP|XCH)-[A-Z]+-)(\d+)"
                  r"((?:(?:\.\.|/-?|, ?)\d+)*)")
NAME_CITE = re.compile(r"(?:^|_)(v2|bc1|cmp|xch)_([a-z]+)_(\d+)(?=_|$)")
MANDATORY = re.compile(r"\bMUST\b|\bREQUIRED\b|\bmust\(lc\)")
# the rows that need an implementation citation or a note: as before
# must(lc) was added to the test rule, so that rule's older scope
IMPL_MANDATORY = ("MUST", "MUST NOT", "REQUIRED")
CASE = re.compile(r"\bKUNIT_CASE(?:_SLOW|_ATTR|_PARAM|_PARAM_ATTR)?\s*\(\s*"
                  r"([A-Za-z_]\w*)")
CHECK_CMD = re.compile(r"\brr2_(?:check|pass|fail)\b")
UNTESTABLE = "untestable:"
TODO = "not yet tested:"


def mandatory(lvl):
    return bool(MANDATORY.search(lvl))


def checklist():
    """[(id, src, level, area)] in the checklist's order."""
    rows, area = [], ""
    with open(SPEC, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## ") and line[3:4].isdigit():
                area = line[3:].strip()
                continue
            m = ROW.match(line)
            if m:
                rows.append((m.group(1), m.group(2).strip(),
                             m.group(3).strip(), area))
    return rows


def expand(prefix, first, rest):
    ids = [int(first)]
    for sep, num in re.findall(r"(\.\.|/-?|, ?)(\d+)", rest):
        n = int(num)
        if sep == ".." and n > ids[-1] and n - ids[-1] <= 40:
            ids.extend(range(ids[-1] + 1, n + 1))
        else:
            ids.append(n)
    width = len(first)
    return ["%s%0*d" % (prefix, width, n) for n in ids]


def cited(text):
    """Every ID a text cites, ranges expanded."""
    out = set()
    for m in CITE.finditer(text):
        out.update(expand(m.group(1), m.group(2), m.group(3)))
    return out


def tracked_files():
    out = subprocess.run(["git", "-C", REPO, "ls-files", "net", "include",
                          "tools/testing"], check=True,
                         capture_output=True, text=True).stdout
    return [p for p in out.split("\n")
            if p and os.path.isfile(os.path.join(REPO, p)) and
            "/corpus" not in p and p != "tools/testing/coverage.py"]


def read(path):
    try:
        with open(os.path.join(REPO, path), encoding="utf-8") as f:
            return f.read()
    except UnicodeDecodeError:
        return None


def c_functions(text):
    """{name: (start, end)} of every function definition in C text: the
    span from the name to the closing brace of its body.  Braces in
    comments, strings and character constants are skipped."""
    # blank out comments, strings and char constants, keeping offsets,
    # so that brace matching sees code only
    code = list(text)
    i, n = 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text[i] in "\"'":
            q, j = text[i], i + 1
            while j < n and text[j] != q:
                j += 2 if text[j] == "\\" else 1
            j += 1
        else:
            i += 1
            continue
        for k in range(i, min(j, n)):
            if code[k] != "\n":
                code[k] = " "
        i = j
    code = "".join(code)
    funcs = {}
    head = re.compile(r"^[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\("
                      r"[^;{]*\)\s*\{", re.M)
    for m in head.finditer(code):
        depth, j = 0, m.end() - 1
        while j < n:
            if code[j] == "{":
                depth += 1
            elif code[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        funcs[m.group(1)] = (m.start(1), j + 1)
    return funcs


def kunit_tests(path, text, known):
    """{id: set of "file:function"} for the KUnit test functions of a
    net/tests/*_test.c file."""
    out = {}
    funcs = c_functions(text)
    for name in sorted(set(CASE.findall(text))):
        if name not in funcs:
            continue
        start, end = funcs[name]
        ids = cited(text[start:end])
        for m in NAME_CITE.finditer(name):
            rid = "%s-%s-%s" % (m.group(1).upper(), m.group(2).upper(),
                                m.group(3))
            if rid in known:
                ids.add(rid)
        for rid in ids:
            out.setdefault(rid, set()).add(
                "%s:%s" % (os.path.basename(path), name))
    return out


def qemu_checks(path, text):
    """{id: set of "scenario:check"} for the checks of a QEMU scenario:
    a command calling rr2_check/rr2_pass/rr2_fail (with its continuation
    lines) and the comment lines directly above it."""
    out = {}
    lines = text.split("\n")
    i = 0
    comment = []
    while i < len(lines):
        stripped = lines[i].strip()
        if stripped.startswith("#"):
            comment.append(stripped)
            i += 1
            continue
        cmd = [lines[i]]
        while re.search(r"(\\|\|\||&&|\|)\s*$", cmd[-1]) and \
                i + 1 < len(lines):
            i += 1
            cmd.append(lines[i])
        i += 1
        joined = "\n".join(cmd)
        if CHECK_CMD.search(joined):
            m = re.search(r"\brr2_(?:check|pass|fail)\s+\"?([^\s\"]+)",
                          joined)
            label = "%s:%s" % (os.path.basename(path),
                               m.group(1) if m else "check")
            for rid in cited(joined + "\n" + "\n".join(comment)):
                out.setdefault(rid, set()).add(label)
        comment = []
    return out


def citations(known):
    """{id: (implementing files, asserting tests, other test files)}"""
    cites = {}

    def entry(rid):
        return cites.setdefault(rid, (set(), set(), set()))

    for path in tracked_files():
        text = read(path)
        if text is None:
            continue
        is_test = path.startswith("net/tests/") or \
            path.startswith("tools/testing/")
        if not is_test:
            for rid in cited(text):
                entry(rid)[0].add(path)
            continue
        asserting = {}
        if re.fullmatch(r"net/tests/[^/]+_test\.c", path):
            asserting = kunit_tests(path, text, known)
        elif re.fullmatch(r"tools/testing/qemu/scenarios/[^/]+\.sh", path):
            asserting = qemu_checks(path, text)
        for rid, where in asserting.items():
            entry(rid)[1].update(where)
        for rid in cited(text):
            if rid not in asserting:
                entry(rid)[2].add(path)
    return cites


def notes():
    """({id: text}, {id: text}, {id: text}, [bad lines]): plain notes,
    untestable notes and not-yet-tested notes ("ID: text", # comments)."""
    plain, untestable, todo, bad = {}, {}, {}, []
    if not os.path.exists(NOTES):
        return plain, untestable, todo, bad
    with open(NOTES, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            rid, sep, text = line.partition(":")
            rid, text = rid.strip(), text.strip()
            if not sep or not text:
                bad.append(line)
            elif text.startswith(UNTESTABLE):
                untestable[rid] = text[len(UNTESTABLE):].strip()
            elif text.startswith(TODO):
                todo[rid] = text[len(TODO):].strip()
            else:
                plain[rid] = text
    return plain, untestable, todo, bad


def short(paths):
    names = sorted(p.replace("net/", "").replace("tools/testing/", "t/")
                   for p in paths)
    return ", ".join(names) if names else "--"


def render(rows, cites, note):
    plain, untestable, todo, _ = note
    empty = (set(), set(), set())
    must = [r for r in rows if mandatory(r[2])]

    def count(sel, pred):
        return sum(1 for r in sel if pred(r[0]))

    lines = [
        ".. SPDX-License-Identifier: GPL-2.0-only",
        "",
        "=============================",
        "Requirement coverage",
        "=============================",
        "",
        "Generated by ``tools/testing/coverage.py`` from the citations of",
        "requirement IDs in the tree (``Documentation/spec/requirements.md``)",
        "and the notes in ``Documentation/coverage-notes.txt``; do not edit",
        "by hand.  The test command fails when this page is stale, or when a",
        "mandatory row (MUST, MUST NOT, REQUIRED, must(lc)) has neither an",
        "implementation citation nor a note, or neither an asserting test",
        "nor a note saying why no test here can reach it (*untestable*) or",
        "what a test would need (*not yet tested*: debt, to be paid).",
        "",
        "*Implemented in* lists module sources citing the ID.  *Tested by*",
        "lists asserting tests only: KUnit test functions",
        "(``file:function``, the ID in the function's name or body) and",
        "QEMU scenario checks (``scenario:check``, the ID on the",
        "``rr2_check``/``rr2_pass``/``rr2_fail`` command or in the",
        "comment right above it).  *Mentioned in* lists other test files",
        "citing it (comments outside test functions, helpers, codec",
        "vectors, fuzz targets), which assert nothing by themselves.  A",
        "citation is a claim a reviewer checks against the code, not a",
        "proof.",
        "",
        "%d requirements: %d cited by the implementation, %d by asserting"
        " tests, %d with a note." % (
            len(rows), count(rows, lambda i: cites.get(i, empty)[0]),
            count(rows, lambda i: cites.get(i, empty)[1]),
            count(rows, lambda i: i in plain or i in untestable or
                  i in todo)),
        "",
        "%d mandatory rows: %d cited by asserting tests, %d untestable"
        " here (note), %d not yet tested (debt)." % (
            len(must), count(must, lambda i: cites.get(i, empty)[1]),
            count(must, lambda i: not cites.get(i, empty)[1] and
                  i in untestable),
            count(must, lambda i: not cites.get(i, empty)[1] and
                  i not in untestable and i in todo)),
        "",
    ]
    area = None
    for rid, src, lvl, ar in rows:
        if ar != area:
            area = ar
            title = re.sub(r"^\d+\.\s*", "", ar)
            lines += [title, "=" * len(title), ""]
        impl, test, other = cites.get(rid, empty)
        lines.append("``%s`` (%s, %s)" % (rid, lvl, src))
        lines.append("  implemented in: %s" % short(impl))
        lines.append("  tested by: %s" %
                     (", ".join(sorted(test)) if test else "--"))
        if other:
            lines.append("  mentioned in: %s" % short(other))
        if rid in plain:
            lines.append("  note: %s" % plain[rid])
        if rid in untestable:
            lines.append("  untestable: %s" % untestable[rid])
        if rid in todo:
            lines.append("  not yet tested: %s" % todo[rid])
        lines.append("")
    return "\n".join(lines)


def main():
    check = "--check" in sys.argv[1:]
    rows = checklist()
    cites = citations({r[0] for r in rows})
    note = notes()
    page = render(rows, cites, note)
    if not check:
        with open(PAGE, "w", encoding="utf-8") as f:
            f.write(page)
        return 0
    plain, untestable, todo, bad = note
    failed = 0
    known = {r[0] for r in rows}
    try:
        with open(PAGE, encoding="utf-8") as f:
            current = f.read()
    except FileNotFoundError:
        current = ""
    if current != page:
        print("FAIL coverage.page-current (run tools/testing/coverage.py)")
        failed += 1
    for line in bad:
        print("FAIL coverage.note-malformed (%s)" % line)
        failed += 1
    for rid in sorted((set(plain) | set(untestable) | set(todo)) - known):
        print("FAIL coverage.note-for-unknown-id.%s" % rid)
        failed += 1
    for rid in sorted(set(cites) - known):
        print("FAIL coverage.cited-unknown-id.%s (%s)" %
              (rid, short(cites[rid][0] | cites[rid][2] |
                          {w.split(":")[0] for w in cites[rid][1]})))
        failed += 1
    waiting = []
    for rid, _, lvl, _ in rows:
        if not mandatory(lvl):
            continue
        impl, test, _ = cites.get(rid, (set(), set(), set()))
        if not impl and rid not in plain and \
                any(lvl.startswith(k) for k in IMPL_MANDATORY):
            print("FAIL coverage.mandatory-without-implementation-or-note.%s"
                  % rid)
            failed += 1
        if test and rid in todo:
            print("FAIL coverage.tested-row-still-marked-not-yet-tested.%s"
                  % rid)
            failed += 1
        if not test and rid not in untestable:
            if rid in todo:
                waiting.append(rid)
            else:
                print("FAIL coverage.mandatory-without-asserting-test.%s"
                      % rid)
                failed += 1
    if waiting:
        print("INFO coverage: %d mandatory rows waiting for a test (%s)" %
              (len(waiting), " ".join(waiting)))
    if not failed:
        print("PASS coverage (%d requirements)" % len(rows))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
