#!/usr/bin/env python3
"""features.py — language features that need a newer Swift runtime than the platforms' floor.

Usage: scripts/platforms/features.py [--package DIR] [--self-test]

Some language features are not symbols: the index store cannot see them, yet the compiler
rejects them below a deployment target because the OS's Swift runtime lacks their support. The
toolchain's diagnostics (usr/share/swift/diagnostics/en.strings, "... is only available in %0
%1 or newer") name every such feature; the versions come from the compiler's feature table
(include/swift/AST/FeatureAvailability.def: the Swift runtime version of each feature) and its
runtime table (RuntimeVersions.def: the OS versions that shipped each Swift runtime). They are
the table RUNTIME_FEATURES below.

For each feature the Swift sources under Sources/ and Tests/ are scanned (comments and string
literals skipped). A use fails the check when the feature's runtime is newer than the floor and
neither an `@available` on an enclosing declaration nor an `if`/`guard #available` around it
raises every platform to that runtime. What the scan matches, per feature:

* isolated deinit (Swift 6.1): `isolated deinit`.
* parameter packs in generic types (5.9): `each` in the generic parameters of a struct, class,
  enum, actor or typealias (packs in generic functions need no runtime support).
* values in generic types (6.2): `let` in the generic parameters of a type.
* @isolated(any) function types (6.0): every `@isolated(any)` written in the code; the runtime
  is needed only for such a type's metadata, which the scan cannot tell apart.
* typed throws function types (6.0): a function type with `throws(E)` used as a generic argument
  (`<`, `,` inside angle brackets), an array or dictionary element type, or the target of a cast
  (`as?`, `as!`, `is`). Functions declared `throws(E)` and closure parameters of such types need
  no runtime support, and are counted only. A typed-throws closure stored into `Any` is not
  visible to the scan; the compiler rejects it when building for an Apple platform below Swift
  6.0's OS versions.
* casting types with noncopyable or nonescapable generic arguments (6.0): every `~Copyable` and
  `~Escapable`.
* parameterized protocol types (5.7), opaque result types (5.1), concurrency (5.5): counted;
  their runtimes are at or below the floor.
Exit status 0 when nothing fails, 1 when a use fails (each printed as file:line), 2 on errors.
"""

import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

from swiftsource import PLATFORMS, SwiftSource, format_version  # noqa: E402

# The OS versions that shipped each Swift runtime (RuntimeVersions.def; tvOS follows iOS,
# Mac Catalyst follows iOS, visionOS 1.0 shipped Swift 5.10's runtime).
RUNTIMES = {
    (5, 0): {"macOS": (10, 14, 4), "iOS": (12, 2), "tvOS": (12, 2), "watchOS": (5, 2), "visionOS": (1, 0)},
    (5, 1): {"macOS": (10, 15), "iOS": (13, 0), "tvOS": (13, 0), "watchOS": (6, 0), "visionOS": (1, 0)},
    (5, 5): {"macOS": (12, 0), "iOS": (15, 0), "tvOS": (15, 0), "watchOS": (8, 0), "visionOS": (1, 0)},
    (5, 7): {"macOS": (13, 0), "iOS": (16, 0), "tvOS": (16, 0), "watchOS": (9, 0), "visionOS": (1, 0)},
    (5, 9): {"macOS": (14, 0), "iOS": (17, 0), "tvOS": (17, 0), "watchOS": (10, 0), "visionOS": (1, 0)},
    (6, 0): {"macOS": (15, 0), "iOS": (18, 0), "tvOS": (18, 0), "watchOS": (11, 0), "visionOS": (2, 0)},
    (6, 1): {"macOS": (15, 4), "iOS": (18, 4), "tvOS": (18, 4), "watchOS": (11, 4), "visionOS": (2, 4)},
    (6, 2): {"macOS": (26, 0), "iOS": (26, 0), "tvOS": (26, 0), "watchOS": (26, 0), "visionOS": (26, 0)},
}
for _versions in RUNTIMES.values():
    _versions["macCatalyst"] = _versions["iOS"]
    for _p in _versions:
        _versions[_p] = (_versions[_p] + (0, 0))[:3]

# (name, Swift runtime); the names are the compiler's own diagnostics.
RUNTIME_FEATURES = {
    "isolated-deinit": ("isolated deinit", (6, 1)),
    "packs-in-types": ("parameter packs in generic types", (5, 9)),
    "value-generics": ("values in generic types", (6, 2)),
    "isolated-any": ("runtime support for '@isolated(any)' function types", (6, 0)),
    "typed-throws-metadata": ("runtime support for typed throws function types", (6, 0)),
    "noncopyable-generics": ("runtime support for casting types with noncopyable or nonescapable "
                             "generic arguments", (6, 0)),
    "parameterized-protocols": ("runtime support for parameterized protocol types", (5, 7)),
    "opaque-results": ("'some' return types", (5, 1)),
    "typed-throws": ("typed throws in declarations and parameter types (no runtime support)", (5, 0)),
    "concurrency": ("concurrency", (5, 5)),
}
TYPE_KEYWORDS = {"struct", "class", "enum", "actor", "typealias"}


def uses(src):
    """[(feature, token index)] of every use the scan matches in one file."""
    toks = src.tokens
    found = []
    for i, t in enumerate(toks):
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if t.kind == "word" and t.text == "isolated" and nxt is not None and nxt.text == "deinit":
            found.append(("isolated-deinit", i))
        elif t.kind == "word" and t.text in TYPE_KEYWORDS and i + 2 < len(toks) and toks[i + 2].text == "<":
            for j in _angle_clause(toks, i + 2):
                if toks[j].kind == "word" and toks[j].text == "each":
                    found.append(("packs-in-types", j))
                elif toks[j].kind == "word" and toks[j].text == "let":
                    found.append(("value-generics", j))
        elif t.kind == "attr" and t.text == "@isolated" and i + 2 < len(toks) and toks[i + 2].text == "any":
            found.append(("isolated-any", i))
        elif t.kind == "punct" and t.text == "~" and nxt is not None and nxt.text in ("Copyable", "Escapable"):
            found.append(("noncopyable-generics", i))
        elif t.kind == "word" and t.text == "throws" and nxt is not None and nxt.text == "(":
            found.append(("typed-throws-metadata" if _typed_throws_needs_metadata(src, i) else "typed-throws", i))
        elif t.kind == "word" and t.text in ("any", "some") and i + 2 < len(toks) and toks[i + 2].text == "<":
            found.append(("parameterized-protocols", i))
        elif t.kind == "word" and t.text == "some":
            found.append(("opaque-results", i))
        elif t.kind == "word" and t.text in ("async", "await", "actor"):
            found.append(("concurrency", i))
    return found


def _angle_clause(toks, start):
    """Token indexes inside the `<...>` that opens at start."""
    depth, j = 0, start
    while j < len(toks):
        if toks[j].text == "<":
            depth += 1
        elif toks[j].text == ">":
            depth -= 1
            if depth == 0:
                return range(start + 1, j)
        elif toks[j].text in ("{", ";"):
            break
        j += 1
    return range(start + 1, j)


def _typed_throws_needs_metadata(src, i):
    """True when the `throws(` at i belongs to a function type written as a generic argument,
    a collection element type or a cast's target type."""
    toks = src.tokens
    j = i - 1
    if j >= 0 and toks[j].text == "async":
        j -= 1
    if j < 0 or toks[j].text != ")" or j not in src.match:
        return False
    opener = src.match[j]
    before = toks[opener - 1] if opener > 0 else None
    if before is None:
        return False
    if before.kind == "word" and before.text in ("as", "is"):
        return True
    if before.text in ("?", "!") and opener > 1 and toks[opener - 2].text == "as":
        return True
    if before.text == "[":
        return True
    if before.text == "<" or (before.text == "," and _inside_angles(toks, opener - 1)):
        return True
    if before.text == ":" and opener > 1 and _inside_brackets(src, opener - 1):
        return True  # [Key: () throws(E) -> Value]
    return False


def _inside_angles(toks, k):
    depth = 0
    while k >= 0:
        t = toks[k].text
        if t == ">":
            depth += 1
        elif t == "<":
            if depth == 0:
                return True
            depth -= 1
        elif t in ("{", "}", ";", "(", ")"):
            return False
        k -= 1
    return False


def _inside_brackets(src, k):
    depth = 0
    while k >= 0:
        t = src.tokens[k].text
        if t in ("]", ")"):
            depth += 1
        elif t in ("[", "("):
            if depth == 0:
                return t == "["
            depth -= 1
        elif t in ("{", "}", ";"):
            return False
        k -= 1
    return False


def enclosing_availability(src, i):
    """What `@available` on the declarations around token i and `#available` around it give."""
    toks = src.tokens
    versions = {}

    def merge(more):
        for p, v in more.items():
            if p not in versions or v > versions[p]:
                versions[p] = v

    # The declaration the token is in (its own header) and every declaration whose body holds it.
    k = i
    while k >= 0:
        start = _header_start(toks, src.match, k)
        merge(_leading_attributes(src, start))
        opener = _enclosing_open_brace(toks, src.match, start - 1)
        if opener is None:
            break
        k = opener - 1
    for scope in src.scope_versions_at(toks[i].line, toks[i].column):
        merge(scope)
    return versions


def _header_start(toks, match, k):
    """The first token of the statement or declaration header that token k belongs to."""
    while k > 0:
        t = toks[k - 1]
        if t.kind == "punct" and t.text in ("{", "}", ";"):
            if t.text == "}" and (k - 1) in match:
                # A closure or accessor body inside the header (a default argument, a property
                # initializer) is part of it; a block that ended a previous statement is not.
                opener = match[k - 1]
                if opener > 0 and toks[opener - 1].kind in ("word", "punct") and toks[opener - 1].text in ("=", "(", ","):
                    k = opener
                    continue
            return k
        if t.kind == "punct" and t.text in (")", "]") and (k - 1) in match:
            k = match[k - 1]
            continue
        k -= 1
    return 0


def _enclosing_open_brace(toks, match, k):
    depth = 0
    while k >= 0:
        t = toks[k]
        if t.kind == "punct" and t.text == "}":
            depth += 1
        elif t.kind == "punct" and t.text == "{":
            if depth == 0:
                return k
            depth -= 1
        k -= 1
    return None


def _leading_attributes(src, start):
    """@available attributes at the start of a header, before its first other token."""
    from swiftsource import _parse_available_attribute, _merge
    toks = src.tokens
    versions = {}
    k = start
    while k < len(toks) and toks[k].kind == "attr":
        if k + 1 < len(toks) and toks[k + 1].text == "(" and (k + 1) in src.match:
            if toks[k].text == "@available":
                _merge(versions, _parse_available_attribute(toks[k + 2:src.match[k + 1]]))
            k = src.match[k + 1] + 1
        else:
            k += 1
    return versions


def check(files, floor, root):
    failures, counts = [], {}
    for path in files:
        with open(path, encoding="utf-8") as f:
            src = SwiftSource(f.read())
        for feature, i in uses(src):
            counts[feature] = counts.get(feature, 0) + 1
            name, runtime = RUNTIME_FEATURES[feature]
            need = RUNTIMES[runtime]
            if all(floor[p] >= need[p] for p in PLATFORMS):
                continue
            have = dict(floor)
            for p, v in enclosing_availability(src, i).items():
                if v > have[p]:
                    have[p] = v
            short = [f"{p} {format_version(need[p])}" for p in PLATFORMS if have[p] < need[p]]
            if short:
                t = src.tokens[i]
                failures.append(f"{os.path.relpath(path, root)}:{t.line}:{t.column}: {name} "
                                f"(Swift {runtime[0]}.{runtime[1]} runtime) needs {', '.join(short)}")
    return failures, counts


def swift_files(package):
    return sorted(glob.glob(os.path.join(package, "Sources", "**", "*.swift"), recursive=True)
                  + glob.glob(os.path.join(package, "Tests", "**", "*.swift"), recursive=True))


# Each plant: (feature, code that must fail at the floor, the same code that must pass).
_NEWEST = "@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)"
PLANTS = [
    ("isolated-deinit", "actor A { isolated deinit {} }", f"{_NEWEST}\nactor A {{ isolated deinit {{}} }}"),
    ("packs-in-types", "struct P<each T> { var v: (repeat each T) }",
     f"{_NEWEST} struct P<each T> {{ var v: (repeat each T) }}"),
    ("value-generics", "struct V<let N: Int> {}", f"{_NEWEST}\nstruct V<let N: Int> {{}}"),
    ("isolated-any", "func f(_ g: @isolated(any) () -> Void) {}",
     f"{_NEWEST}\nfunc f(_ g: @isolated(any) () -> Void) {{}}"),
    ("typed-throws-metadata", "let fs: [() throws(E) -> Void] = []",
     f"func f() {{\n    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {{\n"
     f"        let fs: [() throws(E) -> Void] = []\n    }}\n}}"),
    ("typed-throws-metadata", "func f(_ x: Any) -> Bool { x is () throws(E) -> Void }",
     f"{_NEWEST}\nextension S {{\n    func f(_ x: Any) -> Bool {{ x is () throws(E) -> Void }}\n}}"),
    ("typed-throws-metadata", "let b: Box<(Int) async throws(E) -> Int>",
     f"func f() {{\n    guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else {{ return }}\n"
     f"    let b: Box<(Int) async throws(E) -> Int>\n}}"),
    ("noncopyable-generics", "struct Box<T: ~Copyable>: ~Copyable { var v: T }",
     f"{_NEWEST}\nstruct Box<T: ~Copyable>: ~Copyable {{ var v: T }}"),
]
# Code that must pass at any floor: declarations with typed throws, closure parameters of
# typed-throws function types, the spellings above in comments and strings.
PASSING = """
func parse() throws(E) -> Int { 0 }
func run(_ body: (Int) throws(E) -> Int32) rethrows {}
let r = Result { () throws(E) -> Int in try parse() }
// isolated deinit, struct P<each T>, struct V<let N: Int>, @isolated(any), ~Copyable
let s = "isolated deinit struct P<each T> @isolated(any) [() throws(E) -> Void] ~Copyable"
func g<each T>(_ v: repeat each T) {}
"""


def self_test(floor):
    import tempfile
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "Planted.swift")

        def run(text):
            with open(path, "w") as f:
                f.write(text)
            return check([path], floor, work)[0]

        for feature, failing, passing in PLANTS:
            name = RUNTIME_FEATURES[feature][0]
            found = run(failing + "\n")
            if not any(name in line for line in found):
                print(f"features --self-test: FAILED: '{failing}' was not reported", file=sys.stderr)
                failures += 1
            found = run(passing + "\n")
            if found:
                print(f"features --self-test: FAILED: reported under @available/#available: {found}",
                      file=sys.stderr)
                failures += 1
        found = run(PASSING)
        if found:
            print(f"features --self-test: FAILED: reported in code that needs no new runtime: {found}",
                  file=sys.stderr)
            failures += 1
    cases = 2 * len(PLANTS) + 1
    if failures:
        print(f"features --self-test: {failures} of {cases} cases wrong", file=sys.stderr)
        return 1
    print(f"features --self-test: {cases} cases right ({len(PLANTS)} planted uses rejected at the floor, "
          "each accepted under @available or #available, and code needing no new runtime accepted)",
          file=sys.stderr)
    return 0


def main():
    import argparse
    from audit import read_manifest
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", default=os.path.join(HERE, "..", ".."))
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    package = os.path.abspath(args.package)
    floor, _ = read_manifest(package)
    if args.self_test:
        sys.exit(self_test(floor))
    failures, counts = check(swift_files(package), floor, package)
    for line in failures:
        print(line)
    summary = ", ".join(f"{RUNTIME_FEATURES[k][0]} {v}" for k, v in sorted(counts.items()))
    print(f"runtime features: {len(failures)} uses above the floor; uses found: {summary or 'none'}",
          file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
