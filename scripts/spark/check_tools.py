#!/usr/bin/env python3
"""Helpers of scripts/spark-check.sh: the test input, the reference the Spark job is compared
with, and the comparisons. Standard library and pyarrow only (no Spark).

  check_tools.py inputs DIR ERRCAT           writes the multi-file test input into DIR
  check_tools.py catalog OUT                 writes a catalog that is not the default one
  check_tools.py stream DIR OUT              writes every file of DIR (decompressed) one after
                                             another into OUT, each ending with a newline
  check_tools.py overflow DIR                writes an input with more than 65,536 distinct codes
  check_tools.py same-summary EXPECTED ACTUAL
  check_tools.py summary-beyond-limit EXPECTED ACTUAL
  check_tools.py summary-matches EXPECTED ACTUAL   (either, as EXPECTED's "untracked" says)
  check_tools.py same-each PARQUET DIR ERRCAT [CLASSIFY OPTION...]
"""

from __future__ import annotations

import gzip
import json
import os
import random
import subprocess
import sys
import urllib.parse
from pathlib import Path

MIB = 1 << 20
BOM = b"\xef\xbb\xbf"
#: errcat's default --max-line-bytes (16M).
MAX_LINE = 16 * MIB

#: Codes drawn for filler lines: every tier, module codes with and without an entry, unknown ones.
CODES = [0, 0, 0, 0, 11001, 11002, 11006, 11010017, 11020005, 11210005, 11219999, 11160003, -1, 4294978297, 77]


def envelope(code: int, message: str = "m") -> bytes:
    return b'{"ret":%d,"msg":"%s","data":null}' % (code, message.encode())


def filler(rng: random.Random) -> bytes:
    """An ordinary line: mostly envelopes, some plain codes, now and then an invalid line."""
    roll = rng.random()
    code = rng.choice(CODES)
    if roll < 0.80:
        return envelope(code, "x" * rng.randrange(0, 40))
    if roll < 0.90:
        return b"%d" % code
    return rng.choice(
        [b"", b"abc", b'{"ret":"11001"}', b'{"ret":1.5}', b"{", b"<html>502</html>", b"99999999999999999999"]
    )


def boundary_file(rng: random.Random) -> bytes:
    """Lines placed around errcat's 1 MiB read chunks: at each multiple of 1 MiB one case starts a
    few bytes before the boundary, so the chunk ends inside it (or exactly after it)."""
    cases = [
        # (bytes before the boundary at which the case starts, the case's bytes)
        (20, envelope(11210005, "straddles the first boundary") + b"\n"),
        # CR as the last byte before the boundary, LF as the first after it.
        (len(envelope(11001)) + 1, envelope(11001) + b"\r\n"),
        # LF as the last byte before the boundary, then an empty line right at it.
        (len(b"11002\n"), b"11002\n\n"),
        # A two-byte UTF-8 character cut by the boundary, then invalid UTF-8 across the next.
        (len(b'{"ret":0,"msg":"caf') + 1, b'{"ret":0,"msg":"caf\xc3\xa9 au lait"}\n'),
        (10, b'{"ret":0,"msg":"bad \xff\xfe bytes"}\n'),
        # An invalid line that starts exactly at the boundary.
        (0, b'{"ret":"11001"}\n'),
        # A byte order mark at the start of a line in the middle of a file (errcat skips it).
        (2, BOM + b"11003\n"),
        # Blanks, a lone CR and a NUL inside lines.
        (5, b"\t 11004 \t\n" + b"abc\rdef\n" + b'{"ret":0,"msg":"nul\x00"}\n'),
    ]
    out = bytearray()
    for number, (before, case) in enumerate(cases, start=1):
        target = number * MIB - before
        while len(out) < target - 200:
            out += filler(rng) + b"\n"
        gap = target - len(out)
        # One padding line fills the gap exactly ("0" padded with blanks is a valid code).
        out += b"0" + b" " * (gap - 2) + b"\n"
        assert len(out) == target
        out += case
    # The cases sit where their comments say (a wrong offset would test nothing).
    assert out[2 * MIB - 1 : 2 * MIB + 1] == b"\r\n"
    assert out[3 * MIB - 1 : 3 * MIB + 1] == b"\n\n"
    assert out[4 * MIB - 1 : 4 * MIB + 1] == b"\xc3\xa9"
    assert out[6 * MIB : 6 * MIB + 2] == b'{"'
    for _ in range(2000):
        out += filler(rng) + b"\n"
    return bytes(out)


def write_inputs(folder: Path, errcat: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(20261125)

    def sample(count: int, seed: int) -> bytes:
        return subprocess.run(
            [errcat, "sample", str(count), "--seed", str(seed)], check=True, stdout=subprocess.PIPE
        ).stdout

    (folder / "sample-1.jsonl").write_bytes(sample(60_000, 1))
    (folder / "sample-2.jsonl").write_bytes(sample(45_000, 2))
    (folder / "boundaries.jsonl").write_bytes(boundary_file(rng))
    crlf = b"".join(filler(rng) + b"\r\n" for _ in range(30_000))
    (folder / "crlf.jsonl").write_bytes(crlf + b"11001\r")  # ends with CR and no LF
    (folder / "no-final-newline.jsonl").write_bytes(b"0\n11210005\n11001")
    (folder / "empty.jsonl").write_bytes(b"")
    (folder / "bom.jsonl").write_bytes(BOM + b'{"ret":"11001"}\n' + envelope(0) + b"\n11001\n")
    (folder / "bom-only.jsonl").write_bytes(BOM)
    (folder / "bom-empty-line.jsonl").write_bytes(BOM + b"\n")
    # A line of exactly --max-line-bytes bytes plus CR LF (valid) and one a byte longer (too long),
    # each bigger than a split when the check makes splits of 1 MiB.
    head = b'{"ret":11002,"msg":"'
    tail = b'"}'
    exact = head + b"y" * (MAX_LINE - len(head) - len(tail)) + tail
    assert len(exact) == MAX_LINE
    (folder / "long-lines.jsonl").write_bytes(
        envelope(0) + b"\n" + exact + b"\r\n" + envelope(11001) + b"\n" + exact[:-2] + b'z"}' + b"\n" + b"11002\n"
    )
    with gzip.open(folder / "compressed.jsonl.gz", "wb") as handle:
        handle.write(BOM + b'{"ret":1.5}\n' + sample(20_000, 3))
    (folder / "name with space %41.jsonl").write_bytes(sample(3_000, 4))
    codes = b"".join(b"%d\n" % rng.choice([0, 11001, 11210006, -5, 12345678901]) for _ in range(50_000))
    (folder / "codes.txt").write_bytes(codes + b"n/a\n\n")
    unknown = b"".join(envelope(900_000_000 + index * 7) + b"\n" for index in range(3_000))
    (folder / "many-unknown.jsonl").write_bytes(unknown)


def write_overflow(folder: Path) -> None:
    """Two files with 70,000 distinct codes without a catalog entry between them (more than the
    65,536 one errcat run tracks one by one), some repeated across the files."""
    folder.mkdir(parents=True, exist_ok=True)
    first = b"".join(b"%d\n" % (5_000_000_000 + index) for index in range(40_000))
    second = b"".join(b"%d\n" % (5_000_000_000 + index) for index in range(30_000, 70_000))
    (folder / "a.txt").write_bytes(b"0\n11001\n" + first)
    (folder / "b.txt").write_bytes(second + b"11210005\n")


def write_catalog(out: Path) -> None:
    """The default catalog with one more module: its hash differs from the built-in catalog's."""
    root = Path(__file__).resolve().parents[2]
    catalog = json.loads((root / "catalog" / "default.json").read_text())
    catalog["name"] = "billing"
    catalog["modules"].append(
        {
            "name": "billing",
            "ranges": [[900000000, 900099999]],
            "codes": [{"code": 900000007, "name": "cardDeclined", "message": {"en": "The card was declined."}}],
        }
    )
    out.write_text(json.dumps(catalog, ensure_ascii=False, indent=1))


def read_file(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()


def input_files(folder: Path) -> list[Path]:
    """The files Spark reads from a folder: not those whose names start with '.' or '_'."""
    return sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith((".", "_")))


def write_stream(folder: Path, out: Path) -> None:
    """Every file's lines one after another: a file whose last line has no newline gets one, so
    that its last line stays a line of its own (Spark reads each file on its own)."""
    with open(out, "wb") as handle:
        for path in input_files(folder):
            data = read_file(path)
            handle.write(data)
            if data and not data.endswith(b"\n"):
                handle.write(b"\n")


def same_summary(expected_path: Path, actual_path: Path) -> int:
    expected = expected_path.read_bytes()
    actual = actual_path.read_bytes()
    one, two = json.loads(expected), json.loads(actual)
    problems = []
    for key in sorted(set(one) | set(two)):
        if one.get(key) != two.get(key):
            problems.append(f"  {key}: expected {json.dumps(one.get(key))[:300]}, got {json.dumps(two.get(key))[:300]}")
    if problems or expected != actual:
        print(f"summaries differ ({expected_path} vs {actual_path}):", file=sys.stderr)
        print("\n".join(problems) or "  the same keys and values, written differently", file=sys.stderr)
        return 1
    print(
        f"same summary, every key and byte: {one['total']} lines, {one['invalid']} invalid, "
        f"{len(one['codes'])} distinct codes, catalog {one['catalog']['name']} {one['catalog']['hash']}"
    )
    return 0


def summary_beyond_limit(expected_path: Path, actual_path: Path) -> int:
    """For an input with more than 65,536 distinct codes without a catalog entry: one errcat run
    (EXPECTED) tracks the first 65,536 of them and counts the lines of the others in "untracked";
    the merged partitions (ACTUAL) keep every code. Checks exactly that relation: every other key
    is equal, every code one run tracked has the same count in the merge, and the run's
    "untracked" is the merge's plus the lines of the codes only the merge has."""
    one = json.loads(expected_path.read_bytes())
    two = json.loads(actual_path.read_bytes())
    problems = []
    if not one["untracked"]:
        problems.append("  errcat's summary has no untracked lines: the input does not pass the limit (nothing tested)")
    for key in sorted(set(one) | set(two)):
        if key not in ("codes", "untracked", "top") and one.get(key) != two.get(key):
            problems.append(f"  {key}: expected {json.dumps(one.get(key))[:300]}, got {json.dumps(two.get(key))[:300]}")
    tracked = dict(map(tuple, one["codes"]))
    merged = dict(map(tuple, two["codes"]))
    for code, count in tracked.items():
        if merged.get(code) != count:
            problems.append(f"  code {code}: {count} lines in errcat's summary, {merged.get(code)} in the merge")
            break
    beyond = sum(count for code, count in merged.items() if code not in tracked)
    if len(merged) <= len(tracked):
        problems.append(
            "  the merge tracked no code more than errcat: every partition saw the same codes (nothing tested)"
        )
    if one["untracked"] != two["untracked"] + beyond:
        problems.append(
            f"  untracked: errcat {one['untracked']}, merge {two['untracked']} + {beyond} lines of codes only it tracks"
        )
    if problems:
        print(f"summaries differ beyond the 65,536-code limit ({expected_path} vs {actual_path}):", file=sys.stderr)
        print("\n".join(problems), file=sys.stderr)
        return 1
    print(
        f"same summary but for the 65,536-code limit: {one['total']} lines; errcat tracked {len(tracked)} codes "
        f"and left {one['untracked']} lines untracked, the merge tracked {len(merged)} codes "
        f"({len(merged) - len(tracked)} more, {beyond} lines) and left {two['untracked']} untracked; "
        f"every other key equal; top {'equal' if one['top'] == two['top'] else 'differs'}"
    )
    return 0


def local_path(uri: str) -> Path:
    parsed = urllib.parse.urlparse(uri)
    if parsed.scheme not in ("", "file"):
        raise ValueError(f"not a local file: {uri}")
    return Path(urllib.parse.unquote(parsed.path))


def same_each(parquet: Path, folder: Path, errcat: str, options: list[str]) -> int:
    """Every row of the job's --each table against `errcat classify --each --json` reading each
    file itself (gzip files through a pipe)."""
    import pyarrow.parquet as pq

    table = pq.read_table(parquet)
    columns = ["file", "line", "code", "tier", "module", "name", "error"]
    if table.column_names != columns:
        print(f"--each columns are {table.column_names}, not {columns}", file=sys.stderr)
        return 1
    by_file: dict[Path, list[tuple]] = {}
    for row in table.to_pylist():
        by_file.setdefault(local_path(row["file"]), []).append(tuple(row[c] for c in columns[1:]))
    problems = 0
    files = input_files(folder)
    for path in files:
        command = [errcat, "classify", "--each", "--json", "--quiet", "--max-errors", "0", *options]
        if path.suffix == ".gz":
            done = subprocess.run(
                command + ["-"], input=read_file(path), stdout=subprocess.PIPE, stderr=subprocess.PIPE
            )
        else:
            done = subprocess.run(command + [str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if done.returncode != 0:
            print(f"errcat on {path} failed: {done.stderr.decode(errors='replace')}", file=sys.stderr)
            return 1
        expected = []
        for line in done.stdout.splitlines():
            row = json.loads(line)
            expected.append(tuple(row.get(c) for c in columns[1:]))
        actual = sorted(by_file.pop(path.resolve(), []), key=lambda row: row[0])
        if actual != expected:
            problems += 1
            print(f"{path.name}: {len(expected)} rows expected, {len(actual)} got", file=sys.stderr)
            for want, got in zip(expected, actual):
                if want != got:
                    print(f"  first difference: expected {want}, got {got}", file=sys.stderr)
                    break
    for path in by_file:
        problems += 1
        print(f"rows for a file that is not an input: {path}", file=sys.stderr)
    if problems:
        return 1
    print(f"same --each rows as errcat reading each file: {table.num_rows} rows from {len(files)} files")
    return 0


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    command, args = argv[1], argv[2:]
    if command == "inputs" and len(args) == 2:
        write_inputs(Path(args[0]), args[1])
        return 0
    if command == "catalog" and len(args) == 1:
        write_catalog(Path(args[0]))
        return 0
    if command == "stream" and len(args) == 2:
        write_stream(Path(args[0]), Path(args[1]))
        return 0
    if command == "same-summary" and len(args) == 2:
        return same_summary(Path(args[0]), Path(args[1]))
    if command == "summary-beyond-limit" and len(args) == 2:
        return summary_beyond_limit(Path(args[0]), Path(args[1]))
    if command == "summary-matches" and len(args) == 2:
        # The benchmark's check: exact, or the 65,536-code relation when errcat ran out of room.
        if json.loads(Path(args[0]).read_bytes())["untracked"]:
            return summary_beyond_limit(Path(args[0]), Path(args[1]))
        return same_summary(Path(args[0]), Path(args[1]))
    if command == "overflow" and len(args) == 1:
        write_overflow(Path(args[0]))
        return 0
    if command == "same-each" and len(args) >= 3:
        return same_each(Path(args[0]), Path(args[1]), args[2], args[3:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
