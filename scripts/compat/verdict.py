#!/usr/bin/env python3
"""verdict.py — the version rule of scripts/compat-check.sh, applied to its findings.

Usage: scripts/compat/verdict.py FINDINGS BASELINE_VERSION VERSION CHANGELOG

FINDINGS holds one finding a line, tab-separated: KIND (break, addition, note), the check that
found it, NAMES (what users write for what changed: a C identifier, `Type.member`, a type; several
separated by commas, any one of which counts; empty when nothing can be named) and what it found.
BASELINE_VERSION is the version the baseline release is recorded as, VERSION the one
include/errcore_version.h says now, both MAJOR.MINOR.PATCH.

The rule (semantic versioning; "from 1.0" means the baseline is 1.0.0 or later):
  - any break needs a major bump from 1.0, a minor (or major) bump before 1.0;
  - otherwise any addition needs a minor (or major) bump from 1.0, at least a patch bump before 1.0;
  - the version never goes backwards;
  - CHANGELOG has a section for VERSION (a heading "## [VERSION]"), and that section names every
    break: one of its NAMES appears in it as a whole name (`measure` in "`measure(_:)` is gone"
    counts, in "`measurement`" or "`Gauge.measure`" it does not).
When it holds, prints what was found as "admitted by BASELINE -> VERSION" and exits 0; otherwise
prints each break (or addition) that needs the bump it did not get, and each break the section
does not name, and exits 1.
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


def section(changelog_text, version):
    """The text of the section headed "## [version]", or None."""
    heading = re.compile(r"^## \[" + re.escape(show(version)) + r"\]", re.M)
    m = heading.search(changelog_text)
    if not m:
        return None
    rest = changelog_text[m.end():]
    end = re.search(r"^## \[", rest, re.M)
    return rest[: end.start()] if end else rest


def names_in(text, name):
    """Whether `name` appears in `text` as a whole name (not part of a longer one)."""
    return re.search(r"(?<![\w.])" + re.escape(name) + r"(?![\w])", text) is not None


def judge(findings, base, cur, changelog_text):
    """The problems (empty when the rule holds) for findings (kind, check, names, text)."""
    problems = []
    stable = base[0] >= 1
    major_bump = cur[0] > base[0]
    minor_bump = major_bump or (cur[0] == base[0] and cur[1] > base[1])
    any_bump = cur > base
    breaks = [f for f in findings if f[0] == "break"]
    additions = [f for f in findings if f[0] == "addition"]
    if cur < base:
        problems.append(f"the version went backwards: {show(base)} → {show(cur)}")
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
            + "".join(f"\n    {check}: {text}" for _, check, _, text in items)
        )
    text = section(changelog_text, cur)
    if text is None:
        problems.append(f"CHANGELOG has no section for {show(cur)} (a heading '## [{show(cur)}]')")
    elif cur != base:
        unnamed = [f for f in breaks if f[2] and not any(names_in(text, n) for n in f[2].split(","))]
        if unnamed:
            problems.append(
                f"the {show(cur)} section of CHANGELOG does not name {len(unnamed)} break"
                f"{'s' if len(unnamed) != 1 else ''}; name each by what users write:"
                + "".join(f"\n    {names.split(',')[0]}  ({check}: {text})" for _, check, names, text in unnamed)
            )
    return problems, need


def read_findings(path):
    found = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            parts = line.split("\t", 3)
            if len(parts) != 4 or parts[0] not in ("break", "addition", "note"):
                print(f"compat: a finding this script cannot read: {line!r}", file=sys.stderr)
                sys.exit(2)
            found.append(tuple(parts))
    return found


def main(argv):
    if len(argv) != 4:
        print("usage: verdict.py FINDINGS BASELINE_VERSION VERSION CHANGELOG", file=sys.stderr)
        sys.exit(2)
    findings_path, base_text, cur_text, changelog = argv
    base = parse_version(base_text, "the baseline version")
    cur = parse_version(cur_text, "the version")
    findings = read_findings(findings_path)
    try:
        with open(changelog, encoding="utf-8") as f:
            changelog_text = f.read()
    except OSError as e:
        print(f"compat: FAIL: cannot read {changelog}: {e.strerror}")
        sys.exit(1)
    problems, need = judge(findings, base, cur, changelog_text)

    for kind, title in (("break", "breaking changes"), ("addition", "additions")):
        items = [f for f in findings if f[0] == kind]
        print(f"compat: {title}: {len(items) if items else 'none'}")
        for _, check, _, text in items:
            print(f"    {check}: {text}")
    for _, check, _, text in (f for f in findings if f[0] == "note"):
        print(f"compat: note: {check}: {text}")

    if problems:
        for p in problems:
            print(f"compat: FAIL: {p}")
        sys.exit(1)
    breaks = any(f[0] == "break" for f in findings)
    kinds = "breaking changes" if breaks else "additions" if any(f[0] == "addition" for f in findings) else "no changes"
    print(f"compat: OK: {kinds} admitted by {show(base)} → {show(cur)} ({need} needed); "
          f"{changelog}'s {show(cur)} section" + (" names every break" if breaks else " is there"))


if __name__ == "__main__":
    main(sys.argv[1:])
