#!/usr/bin/env python3
"""verdict.py — the version rule of scripts/compat-check.sh, applied to its findings.

Usage: scripts/compat/verdict.py FINDINGS BASELINE_VERSION VERSION CHANGELOG

FINDINGS holds one finding a line, tab-separated: KIND (break, addition, note),
the check that found it, what it found. BASELINE_VERSION is the version the
baseline release is recorded as, VERSION the one include/errcore_version.h says
now, both MAJOR.MINOR.PATCH.

The rule (semantic versioning; "from 1.0" means the baseline is 1.0.0 or later):
  - any break needs a major bump from 1.0, a minor (or major) bump before 1.0;
  - otherwise any addition needs a minor (or major) bump from 1.0, at least a
    patch bump before 1.0;
  - the version never goes backwards;
  - CHANGELOG must have a heading for VERSION: a line starting "## [VERSION]".
When it holds, prints what was found as "admitted by BASELINE -> VERSION" and
exits 0; otherwise prints each break (or addition) that needs the bump it did
not get, and exits 1.
"""

import re
import sys


def parse_version(text, what):
    m = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)", text.strip())
    if not m:
        print(f"compat: {what} '{text}' is not MAJOR.MINOR.PATCH", file=sys.stderr)
        sys.exit(2)
    return tuple(int(g) for g in m.groups())


def show(v):
    return ".".join(str(x) for x in v)


def main(argv):
    if len(argv) != 4:
        print("usage: verdict.py FINDINGS BASELINE_VERSION VERSION CHANGELOG", file=sys.stderr)
        sys.exit(2)
    findings_path, base_text, cur_text, changelog = argv
    base = parse_version(base_text, "the baseline version")
    cur = parse_version(cur_text, "the version")

    found = {"break": [], "addition": [], "note": []}
    with open(findings_path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            parts = line.split("\t", 2)
            if len(parts) != 3 or parts[0] not in found:
                print(f"compat: a finding this script cannot read: {line!r}", file=sys.stderr)
                sys.exit(2)
            found[parts[0]].append((parts[1], parts[2]))

    stable = base[0] >= 1
    major_bump = cur[0] > base[0]
    minor_bump = major_bump or (cur[0] == base[0] and cur[1] > base[1])
    any_bump = cur > base
    problems = []

    if cur < base:
        problems.append(f"the version went backwards: {show(base)} → {show(cur)}")
    breaks, additions = found["break"], found["addition"]
    if breaks:
        ok = major_bump if stable else minor_bump
        need = "a major bump (from 1.0 on)" if stable else "a minor (or major) bump (before 1.0)"
    elif additions:
        ok = minor_bump if stable else any_bump
        need = "a minor (or major) bump (from 1.0 on)" if stable else "at least a patch bump (before 1.0)"
    else:
        ok, need = True, "no bump"
    if not ok:
        what = "breaking change" if breaks else "addition"
        items = breaks or additions
        plural = "s" if len(items) != 1 else ""
        problems.append(
            f"{len(items)} {what}{plural} need{'' if plural else 's'} {need}, "
            f"but the version goes {show(base)} → {show(cur)}:"
            + "".join(f"\n    {check}: {text}" for check, text in items)
        )

    heading = re.compile(r"^## \[" + re.escape(show(cur)) + r"\]")
    try:
        with open(changelog, encoding="utf-8") as f:
            has_heading = any(heading.match(line) for line in f)
    except OSError as e:
        has_heading = False
        problems.append(f"cannot read {changelog}: {e.strerror}")
    if not has_heading and not any(p.startswith("cannot read") for p in problems):
        problems.append(f"{changelog} has no heading for {show(cur)} (a line starting '## [{show(cur)}]')")

    def listing(title, items):
        print(f"compat: {title}: {len(items) if items else 'none'}")
        for check, text in items:
            print(f"    {check}: {text}")

    listing("breaking changes", breaks)
    listing("additions", additions)
    for check, text in found["note"]:
        print(f"compat: note: {check}: {text}")

    if problems:
        for p in problems:
            print(f"compat: FAIL: {p}")
        sys.exit(1)
    kinds = "breaking changes" if breaks else "additions" if additions else "no changes"
    print(f"compat: OK: {kinds} admitted by {show(base)} → {show(cur)} ({need} needed); "
          f"{changelog} has its heading")


if __name__ == "__main__":
    main(sys.argv[1:])
