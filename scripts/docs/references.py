#!/usr/bin/env python3
"""references.py — every repository path and API symbol a document names must exist.

Scans the user-facing documents (README.md, docs/**/*.md, Sources/**/*.docc/**/*.md,
Examples/*/README.md, Integrations/*/README.md, Benchmarks/README.md; not CHANGELOG.md, which
names removed things on purpose, nor docs/measurements/, whose records name the tree of their
commit) for inline code spans outside fenced blocks and checks:

  paths    a span that looks like a path of this repository: its first component is a
           tracked file or folder (from the repository root or from the document's folder),
           or it is a bare file name with a source extension. It must be tracked by git
           (`git ls-files`, folders included). URLs, globs, placeholders (FILE, DIR,
           <target>), absolute paths, options and build folders are not paths.
  symbols  a span that looks like API: `errcore_…`/`ERRCORE_…`/`cbl_…` C names, `TypeName`,
           `TypeName.member`, `TypeName/member` (DocC), `name(label:…)`, `camelCaseName`. Each name
           in it must
           be declared in the repository's Swift or C sources (a grep-based index of
           struct/enum/class/protocol/actor/typealias/func/var/let/case/associatedtype names and
           parameter labels, C identifiers, Package.swift target and product names, benchmark
           names, the names in catalog files), or be listed in
           scripts/docs/external-symbols.txt (other libraries' names, with a reason per group).

Relative Markdown links (`[text](path)`) must lead to a tracked file or folder as well.

A path that a journey of the same document writes (a listing annotation's `file=PATH`, read by
scripts/docs/journeys.py) is the journey's file, made in the journey's own directory, not one of
the repository's: it is not checked.

Prints `FILE:LINE: \\`name\\` not found` for each miss and exits 1 when there is one.
  scripts/docs/references.py              check the documents
  scripts/docs/references.py --self-test  a planted missing path, symbol and link must be reported
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ALLOWLIST = os.path.join(ROOT, "scripts", "docs", "external-symbols.txt")

SOURCE_EXTENSIONS = (".swift", ".c", ".h", ".cpp", ".py", ".sh", ".lua", ".mk", ".md", ".dict")
PATH_EXTENSIONS = SOURCE_EXTENSIONS + (".json", ".jsonl", ".txt", ".in", ".yml", ".yaml", ".docc", ".pc")
BUILD_FOLDERS = ("build/", ".build", "Benchmarks/.build")

SWIFT_DECLARATION = re.compile(
    r"\b(?:struct|enum|class|protocol|actor|typealias|func|var|let|case|associatedtype|macro)\s+"
    r"`?([A-Za-z_][A-Za-z0-9_]*)`?")
SWIFT_CASE_LIST = re.compile(r"^\s*(?:(?:public|package|internal|indirect)\s+)*case\s+([^:=(/{]+)$")
SWIFT_PARAMETER = re.compile(r"[(,]\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:[A-Za-z_][A-Za-z0-9_]*\s*)?:")
BENCHMARK_NAME = re.compile(r'Benchmark\(\s*"([A-Za-z0-9_]+)"')
SWIFT_PARAMETER_LINE = re.compile(r"^\s*(?:_\s+)?([a-z][A-Za-z0-9_]*)(?:\s+[a-z][A-Za-z0-9_]*)?\s*:\s*[@(\[A-Z]")
CATALOG_NAME = re.compile(r'"name"\s*:\s*"([A-Za-z_][A-Za-z0-9_]*)"')
PACKAGE_NAME = re.compile(r'name:\s*"([A-Za-z_][A-Za-z0-9_]*)"')
C_IDENTIFIER = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
JOURNEY_FILE = re.compile(r"<!--\s*listing:[^>]*?\bfile=([^\s>]+)")

C_PREFIXES = ("errcore_", "ERRCORE_", "cbl_", "errcore__")
SYMBOL_PART = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(\((?:[A-Za-z0-9_]*:|…|\.\.\.)*\))?(-[A-Za-z0-9_.]+)?$")


def git_files():
    out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], check=True, capture_output=True).stdout
    files = [f for f in out.decode("utf-8").split("\0") if f]
    folders = set()
    for f in files:
        parts = f.split("/")
        for i in range(1, len(parts)):
            folders.add("/".join(parts[:i]))
    return set(files), folders


def documents(files):
    docs = []
    for f in sorted(files):
        # The changelog and the measurement records name what existed when they were written.
        if not f.endswith(".md") or f == "CHANGELOG.md" or f.startswith("docs/measurements/"):
            continue
        parts = f.split("/")
        if f == "README.md" or parts[0] == "docs":
            docs.append(f)
        elif parts[0] == "Sources" and any(p.endswith(".docc") for p in parts):
            docs.append(f)
        elif parts[0] in ("Examples", "Integrations") and len(parts) == 3 and parts[2] == "README.md":
            docs.append(f)
        elif f == "Benchmarks/README.md":
            docs.append(f)
    return docs


def declarations(files):
    """Names declared in the repository's Swift and C sources, and its package names."""
    names = set()
    for f in files:
        if f.endswith(".swift"):
            try:
                text = open(os.path.join(ROOT, f), encoding="utf-8").read()
            except (OSError, UnicodeDecodeError):
                continue
            names.update(SWIFT_DECLARATION.findall(text))
            for line in text.split("\n"):
                m = SWIFT_CASE_LIST.match(line)
                if m:
                    for case in m.group(1).split(","):
                        case = case.strip().strip("`")
                        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", case):
                            names.add(case)
                if "func " in line or "init(" in line or "subscript(" in line:
                    names.update(SWIFT_PARAMETER.findall(line))
                m = SWIFT_PARAMETER_LINE.match(line)
                if m:
                    names.add(m.group(1))
            if os.path.basename(f) == "Package.swift":
                names.update(PACKAGE_NAME.findall(text))
            names.update(BENCHMARK_NAME.findall(text))
        elif f.endswith("catalog.json") or f.startswith(("catalog/", "Tests/Fixtures/")) and f.endswith(".json"):
            try:
                names.update(CATALOG_NAME.findall(open(os.path.join(ROOT, f), encoding="utf-8").read()))
            except (OSError, UnicodeDecodeError):
                continue
        elif f.startswith("Benchmarks/Thresholds/") and f.endswith(".json"):
            names.add(os.path.basename(f).split(".")[1])  # Suite.Benchmark_name.p90.json
        elif f.endswith((".h", ".c", ".cpp")):
            try:
                text = open(os.path.join(ROOT, f), encoding="utf-8", errors="replace").read()
            except OSError:
                continue
            names.update(C_IDENTIFIER.findall(text))
    return names


def external_symbols():
    names = set()
    with open(ALLOWLIST, encoding="utf-8") as handle:
        for line in handle:
            line = line.split("#", 1)[0].strip()
            names.update(line.split())
    return names


def code_spans(text):
    """(line number, span) for every inline code span outside fenced code blocks."""
    spans = []
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip()
        if fence:
            if stripped.startswith(fence):
                fence = None
            continue
        if stripped.startswith("```") or stripped.startswith("~~~"):
            fence = stripped[:3]
            continue
        for m in re.finditer(r"(`+)(.+?)\1", line):
            spans.append((number, m.group(2).strip()))
    return spans


def relative_links(text):
    """(line number, target) for every Markdown link to a file of the repository."""
    links = []
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip()
        if fence:
            fence = None if stripped.startswith(fence) else fence
            continue
        if stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
            continue
        for m in re.finditer(r"\]\(([^()\s#]+)(?:#[^()\s]*)?\)", line):
            target = m.group(1)
            if "://" not in target and not target.startswith(("mailto:", "doc:", "/")):
                links.append((number, target))
    return links


def path_candidate(span, doc_folder, files, folders):
    """The path a span names (relative to the root), None when it is not a repository path."""
    if not span or any(c in span for c in " \t*?[]{}<>$=|'\"\\,;()@#!") or "://" in span:
        return None
    if span.startswith(("/", "-", "~", "http")) or span.endswith((":",)):
        return None
    candidate = span.rstrip("/")
    if candidate.startswith(BUILD_FOLDERS) or "/.build" in candidate:
        return None
    parts = candidate.split("/")
    if re.fullmatch(r"[A-Z][A-Z0-9_]*(\.[a-z]+)?", parts[0]):  # FILE, DIR/…, OUTPUT/…, NAME.json
        return None
    exists = lambda p: p in files or p in folders
    anchored = None
    for base in ([doc_folder] if doc_folder else []) + [""]:
        joined = os.path.normpath(os.path.join(base, candidate))
        if joined.startswith(".."):
            continue
        if exists(joined):
            return joined
        # Meant as a path when its first component exists where it is looked up from.
        depth = len(base.split("/")) if base else 0
        anchor = "/".join(joined.split("/")[: depth + 1])
        if len(parts) > 1 and anchored is None and exists(anchor) and anchor != base:
            anchored = joined
    if anchored is not None:
        return anchored
    if len(parts) == 1 and candidate.endswith(SOURCE_EXTENSIONS) and "." in candidate[1:]:
        return "*/" + candidate
    if len(parts) > 1 and candidate.endswith(PATH_EXTENSIONS) and parts[0] in ("Sources", "Tests"):
        return candidate
    return None


def path_exists(path, files, folders, basenames):
    if path.startswith("*/"):
        return path[2:] in basenames
    return path in files or path in folders


def symbol_names(span):
    """The names a span that looks like API consists of, or None when it does not look like API."""
    s = span
    if s.startswith(("``", "`")):
        s = s.strip("`")
    s = re.sub(r"<[^<>]*>", "", re.sub(r"<[^<>]*>", "", s))  # generic arguments
    s = s.replace("().", ".")
    if not s or s.startswith(".") or " " in s or re.search(r"_<|>_|>[A-Za-z0-9]", span):
        return None  # a placeholder inside a name: errcore_<name>_table()
    if re.search(r"\.(o|a|so|json|jsonl|txt|csv|parquet|log|html)$", s):
        return None  # a file name, not a member
    separators = "/" if "/" in s else "."
    parts = s.split(separators) if separators == "/" else re.split(r"\.(?![^()]*\))", s)
    names = []
    for part in parts:
        m = SYMBOL_PART.match(part)
        if not m:
            return None
        names.append((m.group(1), m.group(2) is not None))
    first, first_called = names[0]
    if first.startswith(C_PREFIXES):
        return [n for n, _ in names[:1]] if len(names) == 1 else None
    if first[0].isupper():
        if not re.search(r"[a-z]", first) or len(first) < 3:
            return None  # GET, JSON, OK: words, not types
        if len(names) == 1 and not re.search(r"[a-z][A-Z]|[A-Z]{2}[a-z]", first) and not first_called:
            return None  # a capitalised word ("Spark"), not a CamelCase type name
        return [n for n, _ in names]
    if first_called and len(names) == 1:
        return [first]
    if len(names) == 1 and re.fullmatch(r"[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*", first):
        return [first]  # a camelCase member or case: `maxAttempts`, `itemOutOfStock`
    return None


def check(docs, files, folders, declared, external, out):
    basenames = {os.path.basename(f) for f in files}
    misses = 0
    for doc in docs:
        path = doc if os.path.isabs(doc) else os.path.join(ROOT, doc)
        text = open(path, encoding="utf-8").read()
        folder = "" if os.path.isabs(doc) else os.path.dirname(doc)
        written = set(JOURNEY_FILE.findall(text))
        shown = doc
        for number, target in relative_links(text):
            if os.path.isabs(doc):  # a document outside the repository (the self-test's)
                found = os.path.exists(os.path.join(os.path.dirname(doc), target))
            else:
                found = path_exists(os.path.normpath(os.path.join(folder, target)), files, folders, basenames)
            if not found:
                out.write(f"{shown}:{number}: `{target}` not found\n")
                misses += 1
        for number, span in code_spans(text):
            target = path_candidate(span, folder, files, folders)
            if target is not None:
                if span.rstrip("/") in written:
                    continue
                if not path_exists(target, files, folders, basenames) and span not in external:
                    out.write(f"{shown}:{number}: `{span}` not found\n")
                    misses += 1
                continue
            names = symbol_names(span)
            if names is None:
                continue
            for name in names:
                if name in declared or name in external or name == "init":
                    continue
                out.write(f"{shown}:{number}: `{name}` not found\n")
                misses += 1
    return misses


def self_test(files, folders, declared, external):
    import io
    with tempfile.TemporaryDirectory() as tmp:
        doc = os.path.join(tmp, "planted.md")
        with open(doc, "w", encoding="utf-8") as handle:
            handle.write(
                "# Planted\n\n"
                "The stress tests live in `Tests/NoSuchFolderAnywhere/Stress.swift` and\n"
                "`ErrorChannel` is fine, but `NoSuchTypeAnywhere.member` is not.\n"
                "`scripts/docs-check.sh` and `RetryPolicy.plainExponential` exist; `makeNoSuchDecoder` does not.\n"
                "```sh\n`Tests/InsideAFence` is not checked\n```\n"
                "A [link to nothing](no-such-page.md#anchor) and one to [itself](planted.md).\n"
                "<!-- listing: journey=planted file=Sources/Planted/made.swift -->\n"
                "The journey writes `Sources/Planted/made.swift`, which the repository does not hold.\n")
        buffer = io.StringIO()
        misses = check([doc], files, folders, declared, external, buffer)
        report = buffer.getvalue()
        expected = [f"{doc}:3: `Tests/NoSuchFolderAnywhere/Stress.swift` not found",
                    f"{doc}:4: `NoSuchTypeAnywhere` not found",
                    f"{doc}:5: `makeNoSuchDecoder` not found",
                    f"{doc}:9: `no-such-page.md` not found"]
        problems = [e for e in expected if e not in report]
        if misses != len(expected):
            problems.append(f"expected {len(expected)} misses, got {misses}")
        if problems:
            sys.stderr.write("references self-test failed:\n  " + "\n  ".join(problems) + "\n" + report)
            return 1
    print("references self-test: the planted path, symbols and link are reported, nothing else")
    return 0


def main(argv):
    files, folders = git_files()
    declared = declarations(files)
    external = external_symbols()
    if argv[1:] == ["--self-test"]:
        return self_test(files, folders, declared, external)
    if argv[1:]:
        sys.stderr.write("usage: scripts/docs/references.py [--self-test]\n")
        return 2
    docs = documents(files)
    misses = check(docs, files, folders, declared, external, sys.stdout)
    if misses:
        sys.stdout.write(f"references: {misses} names not found in {len(docs)} documents\n")
        return 1
    print(f"references: every path and symbol named in {len(docs)} documents exists")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
