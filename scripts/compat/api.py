#!/usr/bin/env python3
"""api.py — the Swift API check: the public API of every library product, as recorded for the
last release and as the tree builds it, compared declaration by declaration.

  api.py check [--baseline COMMIT]   this tree's API against the recorded release's: prints the
                                     findings (KIND, CHECK, NAMES, TEXT, tab-separated) that
                                     scripts/compat/verdict.py judges; with --baseline, against
                                     that commit's API, built from it (HEAD: 0 changes on a
                                     clean tree)
  api.py record                      writes scripts/compat/api.txt, the API of the commit that
                                     scripts/compat/baseline records, built from that commit
  api.py compare BASE.txt NEW.txt    the findings between two listings
  api.py --self-test                 plants each fault the check exists for in a fixture package
                                     (scripts/compat/fixture) and requires the check to catch it

What an API is. For each package (the root, and each under Integrations/), the library products
of `swift package describe`, and for each of their Swift targets the symbol graph that
`swift package dump-symbol-graph --minimum-access-level public --skip-synthesized-members`
writes (the module's own, and its extensions of other modules' types). A listing holds, sorted:

  symbol       MODULE, kind, path (Type.member(label:)), access and declaration, its USR
  conformance  MODULE, the type, the protocol it conforms to

A listing that names no product, a product's module with no symbol, or a file that is not a
listing does not load: the check stops and says so (exit 2), never reporting "everything
removed" or "nothing changed". A listing is only written once it loads.

What changed, by symbol. Symbols are matched by USR; a symbol whose USR is gone and one that is
new, with the same module, kind and path, are one changed declaration. Breaks: a removed symbol,
a changed declaration (its signature, access, attributes or constraints), a removed conformance,
a case added to an enum the release had (a user's exhaustive switch over it stops compiling: the
package is not built for library evolution, so every public enum is frozen to its users), a
requirement without a default added to a protocol the release had. Additions: every other new
symbol or conformance. NAMES is what users write and what CHANGELOG.md must name for a break:
`Type.member` (the path without argument labels), or the type.

The recorded release. `scripts/compat/api.txt` is written by `api.py record` from the commit of
scripts/compat/baseline, built in a worktree of it (.build-compat/api-baseline), with the
toolchain that wrote it named in its header. `check` loads it when its commit is the recorded
one and the toolchain is this one; otherwise (another toolchain can print declarations
differently) it builds the commit's API the same way, in .build-compat, and keeps it there only
once it loads.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RECORDED = os.path.join(ROOT, "scripts", "compat", "api.txt")
BASELINE = os.path.join(ROOT, "scripts", "compat", "baseline")
FORMAT = "swifterr-api 1"
CHECK = "Swift API"


class LoadError(Exception):
    """An API that could not be read or built: the check cannot run."""


# ---- building and dumping ---------------------------------------------------------------------

def run(command, cwd=None, both=False):
    """The standard output of `command` (and its standard error, with `both`); LoadError when it fails."""
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-25:])
        raise LoadError(f"`{' '.join(command)}` failed (exit {result.returncode}):\n{tail}")
    return result.stdout + result.stderr if both else result.stdout


def toolchain():
    return run(["swift", "--version"]).splitlines()[0].strip()


def packages(tree):
    """The packages whose API counts: the root, and each under Integrations/ (sorted)."""
    found = ["."]
    integrations = os.path.join(tree, "Integrations")
    if os.path.isdir(integrations):
        for name in sorted(os.listdir(integrations)):
            if os.path.isfile(os.path.join(integrations, name, "Package.swift")):
                found.append(f"Integrations/{name}")
    return found


def library_modules(package_dir, scratch):
    """{product: [Swift target, ...]} of the package's library products."""
    description = json.loads(run(["swift", "package", "--package-path", package_dir, "--scratch-path", scratch,
                                  "describe", "--type", "json"]))
    kinds = {t["name"]: t.get("module_type") for t in description.get("targets", [])}
    products = {}
    for product in description.get("products", []):
        if "library" in product.get("type", {}):
            products[product["name"]] = [t for t in product["targets"] if kinds.get(t) == "SwiftTarget"]
    return products


def text_of(fragments):
    return re.sub(r"\s+", " ", "".join(f.get("spelling", "") for f in fragments or [])).strip()


def symbol_lines(module, graphs):
    """The listing lines of one module, from its symbol graph files."""
    lines = set()
    paths = {}
    symbols = []
    relationships = []
    for graph in graphs:
        for symbol in graph.get("symbols", []):
            paths[symbol["identifier"]["precise"]] = ".".join(symbol.get("pathComponents", []))
            symbols.append(symbol)
        relationships.extend(graph.get("relationships", []))
    requirements = {r["source"] for r in relationships if r["kind"] in ("requirementOf", "optionalRequirementOf")}
    defaulted = {r["target"] for r in relationships if r["kind"] == "defaultImplementationOf"}
    for symbol in symbols:
        usr = symbol["identifier"]["precise"]
        kind = symbol["kind"]["identifier"]
        if usr in requirements:
            kind += " requirement" + (" defaulted" if usr in defaulted else "")
        declaration = text_of(symbol.get("declarationFragments"))
        constraints = (symbol.get("swiftExtension") or {}).get("constraints") or []
        if constraints:
            declaration += " (in an extension where " + ", ".join(
                f"{c['lhs']} {'==' if c['kind'] == 'sameType' else ':'} {c['rhs']}" for c in constraints) + ")"
        access = symbol.get("accessLevel", "public")
        lines.add("\t".join([module, "symbol", kind, paths[usr], f"{access} {declaration}", usr]))
    for relation in relationships:
        if relation["kind"] != "conformsTo" or relation["source"] not in paths:
            continue
        target = paths.get(relation["target"]) or relation.get("targetFallback") or relation["target"]
        lines.add("\t".join([module, "conformance", paths[relation["source"]], target]))
    return lines


def dump(tree, scratch_of, configuration_of):
    """The listing (header dict, set of lines) of every package of `tree`, built as it is."""
    header = {"swift": toolchain(), "packages": []}
    lines = set()
    for package in packages(tree):
        directory = os.path.join(tree, package)
        scratch = scratch_of(package)
        products = library_modules(directory, scratch)
        if not products:
            raise LoadError(f"{package}: no library product")
        started = time.time() - 1
        command = ["swift", "package", "--package-path", directory, "--scratch-path", scratch,
                   "-c", configuration_of(package), "dump-symbol-graph", "--minimum-access-level", "public",
                   "--skip-synthesized-members"]
        result = subprocess.run(command, capture_output=True, text=True)
        out = result.stdout + result.stderr
        # It builds the package but not its tests, then fails on the test bundles' modules when no
        # earlier build made them; that failure is harmless, any other is not.
        failed = set(re.findall(r"error: Failed to emit symbol graph for '([^']+)'", out))
        needed = {m for modules in products.values() for m in modules}
        m = re.search(r"Files written to (\S+)", out)
        if not m or failed & needed or (result.returncode != 0 and not failed):
            tail = "\n".join(out.strip().splitlines()[-25:])
            raise LoadError(f"{package}: `{' '.join(command)}` failed (exit {result.returncode}):\n{tail}")
        graphs_dir = m.group(1)
        for product, modules in sorted(products.items()):
            for module in modules:
                # Only this run's files: the folder keeps those of earlier runs with other options.
                files = [f for f in os.listdir(graphs_dir)
                         if (f == f"{module}.symbols.json" or f.startswith(f"{module}@"))
                         and os.path.getmtime(os.path.join(graphs_dir, f)) >= started]
                if f"{module}.symbols.json" not in files:
                    raise LoadError(f"{package}: no symbol graph for {module} (product {product}) in {graphs_dir}")
                graphs = []
                for name in files:
                    with open(os.path.join(graphs_dir, name), encoding="utf-8") as handle:
                        graphs.append(json.load(handle))
                module_lines = symbol_lines(module, graphs)
                if not any(line.split("\t")[1] == "symbol" for line in module_lines):
                    raise LoadError(f"{package}: module {module} (product {product}) has no public symbol")
                lines |= module_lines
        header["packages"].append(f"{package} " + ",".join(
            f"{product}={'+'.join(modules)}" for product, modules in sorted(products.items())))
    return header, lines


# ---- listings ------------------------------------------------------------------------------------

def write_listing(path, header, lines):
    body = [f"# {FORMAT}"]
    for key in ("commit", "version", "swift"):
        if key in header:
            body.append(f"# {key} {header[key]}")
    body += [f"# package {p}" for p in header["packages"]]
    body += sorted(lines)
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path + ".partial", "w", encoding="utf-8") as handle:
        handle.write("\n".join(body) + "\n")
    os.replace(path + ".partial", path)


def load_listing(path):
    """(header, lines) of a listing, or LoadError saying why it does not load."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as error:
        raise LoadError(f"{path}: {error.strerror}")
    header, lines, modules_seen = {"packages": []}, set(), set()
    rows = text.splitlines()
    if not rows or rows[0] != f"# {FORMAT}":
        raise LoadError(f"{path}: not an API listing (its first line is not '# {FORMAT}')")
    for number, row in enumerate(rows[1:], 2):
        if row.startswith("# "):
            key, _, value = row[2:].partition(" ")
            if key == "package":
                header["packages"].append(value)
            else:
                header[key] = value
            continue
        fields = row.split("\t")
        if (fields[1:2] == ["symbol"] and len(fields) == 6) or (fields[1:2] == ["conformance"] and len(fields) == 4):
            lines.add(row)
            if fields[1] == "symbol":
                modules_seen.add(fields[0])
            continue
        raise LoadError(f"{path}:{number}: not a line of an API listing: {row[:120]!r}")
    if not header["packages"]:
        raise LoadError(f"{path}: names no package")
    for package in header["packages"]:
        name, _, products = package.partition(" ")
        if not products:
            raise LoadError(f"{path}: package {name} names no library product")
        for product in products.split(","):
            for module in product.partition("=")[2].split("+"):
                if module not in modules_seen:
                    raise LoadError(f"{path}: module {module} of {name} has no symbol")
    return header, lines


# ---- comparing -----------------------------------------------------------------------------------

def user_name(path):
    """What users write for a path: Type.member without argument labels."""
    return re.sub(r"\([^()]*\)$", "", path)


def compare(base_lines, new_lines):
    """Findings: (kind, names, text), breaks first."""
    def symbols(lines):
        table = {}
        for line in lines:
            fields = line.split("\t")
            if fields[1] == "symbol":
                module, _, kind, path, declaration, usr = fields
                table[(module, usr)] = (kind, path, declaration)
        return table

    def conformances(lines):
        return {tuple(line.split("\t")[i] for i in (0, 2, 3)) for line in lines if line.split("\t")[1] == "conformance"}

    old, new = symbols(base_lines), symbols(new_lines)
    breaks, additions = [], []
    removed = {key: old[key] for key in old.keys() - new.keys()}
    added = {key: new[key] for key in new.keys() - old.keys()}
    for key in sorted(old.keys() & new.keys()):
        if old[key] != new[key]:
            kind, path, declaration = new[key]
            breaks.append((user_name(path), f"{key[0]}: {path} changed: `{old[key][2]}` is now `{declaration}`"))
    # A symbol whose USR changed (its signature did) but whose module, kind and path did not.
    by_place = {}
    for (module, usr), (kind, path, declaration) in removed.items():
        by_place.setdefault((module, kind, path), []).append((usr, declaration))
    for (module, usr), (kind, path, declaration) in sorted(added.items(), key=lambda item: item[1][1]):
        place = (module, kind, path)
        if by_place.get(place):
            old_usr, old_declaration = by_place[place].pop(0)
            del removed[(module, old_usr)]
            breaks.append((user_name(path), f"{module}: {path} changed: `{old_declaration}` is now `{declaration}`"))
            continue
        parent = path.rsplit(".", 1)[0] if "." in path else None
        parent_existed = parent is not None and any(
            p == parent and m == module for (m, _), (_, p, _) in old.items())
        if kind == "swift.enum.case" and parent_existed:
            breaks.append((user_name(path), f"{module}: case {path} added to public enum {parent}: a switch over "
                                             f"{parent} without a default no longer compiles"))
        elif kind.endswith(" requirement") and parent_existed:
            breaks.append((user_name(path), f"{module}: requirement {path} added to protocol {parent} without a "
                                             f"default: a type that conforms to {parent} no longer compiles"))
        else:
            additions.append((user_name(path), f"{module}: {kind.split()[0]} {path} added: `{declaration}`"))
    for (module, usr), (kind, path, declaration) in sorted(removed.items(), key=lambda item: item[1][1]):
        breaks.append((user_name(path), f"{module}: {kind.split()[0]} {path} removed (was `{declaration}`)"))
    old_c, new_c = conformances(base_lines), conformances(new_lines)
    for module, type_path, protocol in sorted(old_c - new_c):
        breaks.append((user_name(type_path), f"{module}: {type_path} no longer conforms to {protocol}"))
    for module, type_path, protocol in sorted(new_c - old_c):
        additions.append((user_name(type_path), f"{module}: {type_path} now conforms to {protocol}"))
    return [("break", n, t) for n, t in breaks] + [("addition", n, t) for n, t in additions]


def print_findings(findings, header_note=None):
    for kind, name, text in findings:
        print(f"{kind}\t{CHECK}\t{name}\t{text}")
    if header_note:
        print(f"note\t{CHECK}\t\t{header_note}")


# ---- the baseline --------------------------------------------------------------------------------

def recorded_baseline():
    values = {}
    with open(BASELINE, encoding="utf-8") as handle:
        for line in handle:
            line = line.split("#", 1)[0].strip()
            if "=" in line:
                key, value = line.split("=", 1)
                values[key.strip()] = value.strip()
    if "commit" not in values or "version" not in values:
        raise LoadError(f"{BASELINE} has no commit= and version=")
    return values["commit"], values["version"]


def build_commit(repo, commit, work):
    """The API of `commit` of the git repository `repo`, built in a worktree under `work`."""
    full = run(["git", "-C", repo, "rev-parse", "--verify", f"{commit}^{{commit}}"]).strip()
    source = os.path.join(work, "src")
    if os.path.isdir(source):
        subprocess.run(["git", "-C", repo, "worktree", "remove", "--force", source], capture_output=True)
        shutil.rmtree(source, ignore_errors=True)
    subprocess.run(["git", "-C", repo, "worktree", "prune"], capture_output=True)
    run(["git", "-C", repo, "worktree", "add", "--detach", source, full])
    try:
        # As the tree is built: the root in debug, the Integrations packages in release in one
        # folder, so that their dependencies are compiled once.
        header, lines = dump(source, lambda p: os.path.join(work, "root" if p == "." else "services"),
                             lambda p: "debug" if p == "." else "release")
    finally:
        subprocess.run(["git", "-C", repo, "worktree", "remove", "--force", source], capture_output=True)
    header["commit"] = full
    return header, lines


def baseline_api(repo, commit, version, recorded, cache_dir):
    """(header, lines, where) of the baseline: the recorded listing when it is this commit's and
    this toolchain's, else a cached build of it, else built now and cached once it loads."""
    full = run(["git", "-C", repo, "rev-parse", "--verify", f"{commit}^{{commit}}"]).strip()
    swift = toolchain()
    if recorded and os.path.exists(recorded):
        header, lines = load_listing(recorded)
        if header.get("commit") == full and header.get("swift") == swift:
            return header, lines, os.path.relpath(recorded, repo)
    cached = os.path.join(cache_dir, f"api-{full[:12]}.txt")
    if os.path.exists(cached):
        header, lines = load_listing(cached)
        if header.get("swift") == swift:
            return header, lines, cached
    header, lines = build_commit(repo, full, os.path.join(cache_dir, "api-baseline"))
    header["version"] = version
    write_listing(cached, header, lines)
    load_listing(cached)
    return header, lines, f"{cached} (built from {full[:12]})"


def tree_api(tree):
    return dump(tree, lambda p: os.path.join(tree, ".build" if p == "." else ".build-services"),
                lambda p: "debug" if p == "." else "release")


# ---- the self-test -------------------------------------------------------------------------------

FIXTURE = os.path.join(ROOT, "scripts", "compat", "fixture")


def self_test():
    """Each fault, planted on its own in a copy of the fixture, must be reported as it is."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import verdict

    problems, passed = [], 0

    def expect(what, condition, detail=""):
        nonlocal passed
        if condition:
            passed += 1
            print(f"api self-test: ok: {what}")
        else:
            problems.append(f"{what}{': ' + detail if detail else ''}")
            print(f"api self-test: FAILED: {what}{': ' + detail if detail else ''}")

    with tempfile.TemporaryDirectory() as scratch:
        repo = os.path.join(scratch, "repo")
        shutil.copytree(FIXTURE, repo)
        source = os.path.join(repo, "Sources", "Fixture", "Fixture.swift")
        pristine = open(source, encoding="utf-8").read()

        def git(*args):
            run(["git", "-C", repo, "-c", "user.name=self-test", "-c", "user.email=self-test@invalid", *args])

        git("init", "-q")
        git("add", "-A")
        git("commit", "-q", "-m", "1.0.0")
        build = os.path.join(scratch, "build")
        fixture_dump = lambda: dump(repo, lambda p: build, lambda p: "debug")

        header, release = build_commit(repo, "HEAD", os.path.join(scratch, "baseline"))
        header["version"] = "1.0.0"
        listing = os.path.join(scratch, "api.txt")
        write_listing(listing, header, release)
        loaded_header, loaded = load_listing(listing)
        expect("the release's API is written and loads again", loaded == release and loaded_header["commit"] == header["commit"])

        _, tree = fixture_dump()
        expect("the tree against its own HEAD (built in a worktree): 0 changes", compare(release, tree) == [],
               str(compare(release, tree)))

        def planted(old, new, *more):
            """The findings of the fixture with `old` replaced by `new` (and each further pair)."""
            text = pristine.replace(old, new)
            for before, after in zip(more[::2], more[1::2]):
                text = text.replace(before, after)
            with open(source, "w", encoding="utf-8") as handle:
                handle.write(text)
            try:
                return compare(release, fixture_dump()[1])
            finally:
                with open(source, "w", encoding="utf-8") as handle:
                    handle.write(pristine)

        found = planted("/// The value itself.\npublic func measure(_ value: Int) -> Int { value }\n", "")
        expect("(a) a removed public function is a break named measure",
               [(k, n) for k, n, _ in found] == [("break", "measure")], str(found))
        found = planted("public func reading(scale: Int) -> Int { level * scale }",
                        "public func reading(scale: Double) -> Int { level * Int(scale) }")
        expect("(b) a changed signature is one break, named Gauge.reading",
               [(k, n) for k, n, _ in found] == [("break", "Gauge.reading")] and "scale: Double" in found[0][2],
               str(found))
        found = planted("    case failure(code: Int)\n", "    case failure(code: Int)\n    /// Stopped.\n    case stopped\n")
        expect("(c) a case added to a public enum is a break named Outcome.stopped",
               [(k, n) for k, n, _ in found] == [("break", "Outcome.stopped")], str(found))
        found = planted("    func probe() -> Int\n", "    func probe() -> Int\n    /// Its name.\n    var name: String { get }\n",
                        "    public func probe() -> Int { level }\n",
                        "    public func probe() -> Int { level }\n    /// Its name.\n    public var name: String { \"gauge\" }\n")
        expect("a requirement added to a protocol without a default is a break",
               ("break", "Probe.name") in [(k, n) for k, n, _ in found], str(found))
        found = planted("/// The value itself.", "/// Twice the value.\npublic func double(_ value: Int) -> Int { 2 * value }\n\n/// The value itself.")
        expect("a new public function is an addition, not a break",
               [(k, n) for k, n, _ in found] == [("addition", "double")], str(found))
        # A scratch commit that makes a public function internal and raises the version, through the
        # whole check: the release's recorded API, the tree's, and the CHANGELOG's 2.0.0 section.
        with open(source, "w", encoding="utf-8") as handle:
            handle.write(pristine.replace("public func measure(", "func measure("))
        changelog = os.path.join(repo, "CHANGELOG.md")
        with open(changelog, "w", encoding="utf-8") as handle:
            handle.write("## [2.0.0] - 2026-12-07\n\n### Changed\n- `Gauge.reading(scale:)` is faster.\n\n"
                         "## [1.0.0]\n\n- `measure(_:)` added.\n")
        git("add", "-A")
        git("commit", "-q", "-m", "2.0.0: measure is internal")
        release_commit = run(["git", "-C", repo, "rev-parse", "HEAD~1"]).strip()

        def verdict_of_tree():
            _, base_lines, _ = baseline_api(repo, release_commit, "1.0.0", listing, os.path.join(scratch, "cache"))
            findings = [(k, CHECK, n, t) for k, n, t in compare(base_lines, fixture_dump()[1])]
            with open(changelog, encoding="utf-8") as handle:
                return findings, verdict.judge(findings, (1, 0, 0), (2, 0, 0), handle.read())[0]

        findings, found_problems = verdict_of_tree()
        expect("a scratch commit making a public function internal is one break, named measure",
               [(k, n) for k, _, n, _ in findings] == [("break", "measure")], str(findings))
        expect("with the version raised and a CHANGELOG section that does not name it, the check fails naming measure "
               "(a mention in an older section does not count)",
               any("does not name" in p and "measure" in p for p in found_problems), str(found_problems))
        with open(changelog, "w", encoding="utf-8") as handle:
            handle.write("## [2.0.0] - 2026-12-07\n\n### Removed\n- `measure(_:)`: use `Gauge.reading(scale:)`.\n\n"
                         "## [1.0.0]\n\n- `measure(_:)` added.\n")
        git("commit", "-q", "-am", "2.0.0: measure is internal, and the CHANGELOG says so")
        findings, found_problems = verdict_of_tree()
        expect("the same commit with measure named in its section passes", found_problems == [], str(found_problems))

        # (d) baselines that do not load, and are never cached.
        for name, text in [("empty", ""), ("not a listing", "{}\n"), ("no package", f"# {FORMAT}\n# swift x\n"),
                           ("a product without symbols", f"# {FORMAT}\n# package . Fixture=Fixture\n")]:
            path = os.path.join(scratch, "bad.txt")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
            try:
                load_listing(path)
                expect(f"(d) a baseline listing that is {name} does not load", False, "it loaded")
            except LoadError as error:
                expect(f"(d) a baseline listing that is {name} does not load: {error}", str(error) != "")
        with open(os.path.join(repo, "Package.swift"), "a", encoding="utf-8") as handle:
            handle.write("this is not Swift\n")
        git("commit", "-q", "-am", "a release that does not build")
        cache = os.path.join(scratch, "cache")
        for attempt in ("first", "second"):
            try:
                baseline_api(repo, "HEAD", "1.1.0", None, cache)
                expect(f"(d) a baseline commit that does not build fails on the {attempt} run", False, "it loaded")
            except LoadError as error:
                written = [f for f in os.listdir(cache) if f.endswith(".txt")] if os.path.isdir(cache) else []
                expect(f"(d) a baseline commit that does not build fails on the {attempt} run, saying so, "
                       "and caches nothing", "failed" in str(error) and not written, f"{error}; cached: {written}")

    print(f"api self-test: {passed} passed, {len(problems)} failed")
    return 1 if problems else 0


# ---- main ----------------------------------------------------------------------------------------

def main(argv):
    try:
        if argv == ["--self-test"]:
            return self_test()
        if argv[:1] == ["compare"] and len(argv) == 3:
            print_findings(compare(load_listing(argv[1])[1], load_listing(argv[2])[1]))
            return 0
        if argv == ["record"]:
            commit, version = recorded_baseline()
            header, lines = build_commit(ROOT, commit, os.path.join(ROOT, ".build-compat", "api-baseline"))
            header["version"] = version
            write_listing(RECORDED, header, lines)
            load_listing(RECORDED)
            print(f"api: wrote {os.path.relpath(RECORDED, ROOT)}: {len(lines)} lines, {header['commit'][:12]} as {version}",
                  file=sys.stderr)
            return 0
        if argv[:1] == ["check"] and len(argv) in (1, 3) and (len(argv) == 1 or argv[1] == "--baseline"):
            if len(argv) == 3:
                commit, version, recorded = argv[2], "its own", None
            else:
                (commit, version), recorded = recorded_baseline(), RECORDED
            base_header, base_lines, where = baseline_api(ROOT, commit, version, recorded,
                                                          os.path.join(ROOT, ".build-compat"))
            _, tree_lines = tree_api(ROOT)
            findings = compare(base_lines, tree_lines)
            print(f"api: the baseline ({where}) against this tree: "
                  f"{sum(1 for f in findings if f[0] == 'break')} breaks, "
                  f"{sum(1 for f in findings if f[0] == 'addition')} additions", file=sys.stderr)
            print_findings(findings)
            return 0
    except LoadError as error:
        print(f"api: the API does not load, so nothing was compared: {error}", file=sys.stderr)
        return 2
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
