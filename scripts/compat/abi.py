#!/usr/bin/env python3
"""abi.py — the ABI of two builds of libcerrcore.so compared by libabigail's abidiff.

Usage: scripts/compat/abi.py OLD.so OLD_INCLUDE_DIR NEW.so NEW_INCLUDE_DIR [REPORT_FILE]

Runs `abidiff --headers-dir1 OLD_INCLUDE_DIR --headers-dir2 NEW_INCLUDE_DIR OLD.so
NEW.so`, so only the types of the public headers count. Both libraries must carry
debug information (-g): without it abidiff compares symbol names alone and misses
every layout change, so a library without a .debug_info section is an error here.
abidiff's full report goes to REPORT_FILE when given.

abidiff's exit status is a bit set: 1 error, 2 usage error, 4 an ABI change,
8 an incompatible ABI change. Bits 1 and 2 make this script fail (exit 2). Bits 4
and 8 are not used as the verdict, because abidiff sets 8 for a changed SONAME too,
which is what a breaking release must do; instead the report is read and each
function or variable it lists becomes one finding line, tab-separated: KIND,
"C ABI (abidiff)", what changed:

  break     [D] removed function or variable, a removed ELF symbol, or [C] changed
            one: a parameter, return or pointed-to type whose layout changed (a
            struct grew, a member moved): every public struct is allocated by users;
  addition  [A] added function or variable, or ELF symbol;
  note      the SONAME change, which the version rule checks separately.

abidiff's default suppression of "harmless" changes stays on: it filters added
enumerators (the header check, headers.py, reports those as additions) and renamed
typedefs of the same type. Exit status: 0 (findings or not), 2 when abidiff fails.
"""

import re
import shutil
import subprocess
import sys

CHECK = "C ABI (abidiff)"


def fail(message):
    print(f"abi.py: {message}", file=sys.stderr)
    sys.exit(2)


def has_debug_info(lib):
    result = subprocess.run(["readelf", "-S", "-W", lib], capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"readelf -S {lib} failed: {result.stderr.strip()}")
    return ".debug_info" in result.stdout


def clean(line):
    """One line of abidiff's report without its indentation and source positions."""
    return re.sub(r" at [\w./-]+:\d+:\d+", "", line).strip().rstrip(":")


def identifier(what):
    """The C identifier abidiff's "'function errcore_status errcore_build(...)'" or "'struct
    errcore_table'" names: the function's name, or the type's."""
    m = re.search(r"(\w+)\s*\(", what)
    return m.group(1) if m else what.split()[-1]


def findings(report):
    found = []
    lines = report.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^\s+\[([DAC])\] '([^']*)'(.*)$", line)
        if m:
            tag, what, rest = m.group(1), m.group(2), m.group(3)
            what = re.sub(r"\s+\{[^}]*\}$", "", what)
            names = identifier(what)
            if tag == "A":
                found.append(("addition", names, f"{what} added"))
            elif tag == "D":
                found.append(("break", names, f"{what} removed"))
            else:
                detail = []
                j = i + 1
                while j < len(lines) and lines[j].strip() and not re.match(r"^\s+\[[DAC]\] ", lines[j]):
                    detail.append(clean(lines[j]))
                    j += 1
                rest = clean(rest)
                # A change reached through a type (a parameter's struct grew) is named by that type too.
                types = re.findall(r"'(?:struct|union|enum|typedef) (\w+)'", " ".join(detail))
                names = ",".join(dict.fromkeys([names, *types]))
                found.append(("break", names, f"{what} {rest}: " + "; ".join(detail) if detail else f"{what} {rest}"))
                i = j
                continue
        m = re.match(r"^\s+\[([DA])\] ([\w.@]+)", line)  # an ELF symbol without debug information
        if m:
            removed = m.group(1) == "D"
            found.append(("break" if removed else "addition", m.group(2).split("@")[0],
                          f"ELF symbol {m.group(2)} {'removed' if removed else 'added'}"))
        m = re.match(r"^SONAME changed from '([^']*)' to '([^']*)'", line)
        if m:
            found.append(("note", "", f"SONAME changed from {m.group(1)} to {m.group(2)}"))
        i += 1
    return found


def main(argv):
    if len(argv) not in (4, 5):
        print("usage: abi.py OLD.so OLD_INCLUDE_DIR NEW.so NEW_INCLUDE_DIR [REPORT_FILE]", file=sys.stderr)
        sys.exit(2)
    old_lib, old_inc, new_lib, new_inc = argv[:4]
    abidiff = shutil.which("abidiff")
    if not abidiff:
        fail("abidiff not found (Debian: apt-get install abigail-tools)")
    for lib in (old_lib, new_lib):
        if not has_debug_info(lib):
            fail(f"{lib} has no debug information: build it with -g, or abidiff compares symbol names only")
    result = subprocess.run(
        [abidiff, "--headers-dir1", old_inc, "--headers-dir2", new_inc, old_lib, new_lib],
        capture_output=True,
        text=True,
    )
    if len(argv) == 5:
        with open(argv[4], "w") as f:
            f.write(result.stdout)
    if result.returncode & 3:
        fail(f"abidiff failed (exit {result.returncode}):\n{result.stderr}{result.stdout}")
    found = findings(result.stdout)
    if result.returncode & 12 and not found:
        fail(f"abidiff reports a change (exit {result.returncode}) that this script cannot read:\n{result.stdout}")
    for kind, names, text in found:
        print(f"{kind}\t{CHECK}\t{names}\t{text}")


if __name__ == "__main__":
    main(sys.argv[1:])
