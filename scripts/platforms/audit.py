#!/usr/bin/env python3
"""audit.py — every Apple-platform API our Swift code uses above the declared platforms.

Usage: scripts/platforms/audit.py [--package DIR] [--scratch-path DIR] [--cache-dir DIR] [--verbose]
       scripts/platforms/audit.py --self-test

Joins two things the Linux toolchain has:

* what the code references: the index store of the package's debug build (`swift build
  --build-tests` writes it to <scratch>/<triple>/debug/index/store), read through
  libIndexStore: every occurrence of every symbol (by USR) in every file under Sources/ and
  Tests/, with the declaration that contains it;
* what each API needs: `swift-symbolgraph-extract` of the modules an Apple platform ships or
  Xcode provides (Swift, _Concurrency, _StringProcessing, RegexBuilder, Synchronization,
  Observation, Dispatch, Foundation, FoundationEssentials, FoundationInternationalization,
  FoundationNetworking, XCTest, Testing) gives each public symbol's Apple availability by USR,
  inherited from the enclosing type or extension as the compiler does, and its @backDeployed
  version; `swift-api-digester -dump-sdk -abi` adds what symbol graphs leave out (underscored
  declarations and their members). Both are cached in <scratch>/platforms-audit per toolchain.

A use is reported when the API is introduced above the floor (`platforms:` of the package's
manifest) on macOS, iOS, Mac Catalyst, tvOS, watchOS or visionOS, or is obsoleted or
unavailable there, and neither the declarations enclosing the use (`@available` on the
function, its type, the type an extension extends, the extension, ...: found through the
index's containment relations) nor an `if #available`, `guard #available` or
`if #unavailable ... else` around it raises that platform high enough. Uses of the package's own
`@available` declarations are checked the same way. As the compiler does for an older target,
a back-deployed API counts from its @available version, a newer protocol requirement with a
default implementation the floor has resolves to that implementation, and `for await` uses
next() where next(isolation:) is newer. Targets that no library product reaches (errcat's)
and their tests are checked for macOS only.

What the symbol graphs cannot say is not taken as "available":
* declarations of swift-corelibs-foundation (Foundation, FoundationNetworking), Dispatch and
  XCTest carry no Apple availability on Linux, and the toolchain's build of swift-foundation
  maps every `FoundationPreview` availability macro to macOS 15, iOS 18, tvOS 18, watchOS 11,
  whatever Apple's Foundation says. Such a use passes only when its USR is listed in
  scripts/platforms/reviewed.txt with the availability someone looked up; otherwise it is
  reported as unknown.

--self-test builds scripts/platforms/selftest (planted uses, each marked with what must be
reported) at the package's floor, audits it, and fails unless exactly the marked uses are.

Not covered (README, "Platforms"): code in `#if` branches not compiled on Linux (`#if
canImport(Darwin)`, `os(iOS)`, ...: listed for review by hand), C declarations (CErrCore, the C
library), and language features that need a newer runtime (scripts/platforms/features.py).
Exit status: 0 when nothing is reported, 1 when something is, 2 when the audit could not run.
"""

import argparse
import glob
import hashlib
import json
import os
import re
import subprocess
import sys
import time
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

import indexstore  # noqa: E402
from swiftsource import PLATFORMS, UNAVAILABLE, SwiftSource, derived, format_version, parse_version  # noqa: E402

SDK_MODULES = (
    "Swift", "_Concurrency", "_StringProcessing", "RegexBuilder", "Synchronization", "Observation",
    "Dispatch", "Foundation", "FoundationEssentials", "FoundationInternationalization",
    "FoundationNetworking", "XCTest", "Testing",
)
# Modules whose declarations carry no Apple availability on Linux: a use needs a review entry.
UNANNOTATED_MODULES = {"Foundation", "FoundationNetworking", "Dispatch", "XCTest"}
# swift-foundation's modules: a FoundationPreview macro shows as exactly this availability.
SWIFT_FOUNDATION = {"FoundationEssentials", "FoundationInternationalization"}
MACRO_AVAILABILITY = {"macOS": (15,), "iOS": (18,), "tvOS": (18,), "watchOS": (11,)}

TABLE_FORMAT = "2"  # the cached table's layout: a new value rebuilds the cache

SWIFTPM_PLATFORM = {
    "macos": "macOS", "ios": "iOS", "maccatalyst": "macCatalyst", "tvos": "tvOS",
    "watchos": "watchOS", "visionos": "visionOS",
}
ACCESSOR = re.compile(r"^(.*)(v|ci)(g|s|M|r|w|W|a|l|x|y|i|u|Y)(Z?)$")


def fail(message):
    print(f"platforms: {message}", file=sys.stderr)
    sys.exit(2)


def toolchain_bin():
    swift = subprocess.run(["swift", "-print-target-info"], capture_output=True, text=True)
    if swift.returncode != 0:
        fail("swift -print-target-info failed")
    info = json.loads(swift.stdout)
    runtime_paths = info["paths"]["runtimeLibraryPaths"]
    resource = info["paths"]["runtimeResourcePath"]  # <toolchain>/usr/lib/swift
    usr = os.path.dirname(os.path.dirname(resource))
    return usr, info["target"]["triple"], runtime_paths


# --- the floor ---------------------------------------------------------------------------

def read_manifest(package):
    """(floor {platform: version}, {target: platforms it is built for}).

    Targets that a library product reaches, and test targets of only such targets, are built for
    every Apple platform; the command-line tool's targets (an executable product and what only
    it uses) and their tests are built for macOS alone."""
    dump = subprocess.run(["swift", "package", "--package-path", package, "dump-package"],
                          capture_output=True, text=True)
    if dump.returncode != 0:
        fail(f"swift package dump-package failed:\n{dump.stderr}")
    manifest = json.loads(dump.stdout)
    dependencies = {t["name"]: [d.get("byName", d.get("target", [None]))[0] for d in t["dependencies"]]
                    for t in manifest["targets"]}
    library = set()
    pending = [t for p in manifest["products"] if "library" in p["type"] for t in p["targets"]]
    while pending:
        name = pending.pop()
        if name in library or name not in dependencies:
            continue
        library.add(name)
        pending.extend(dependencies[name])
    built_for = {}
    for t in manifest["targets"]:
        everywhere = t["name"] in library or (
            t["type"] == "test" and all(d in library for d in dependencies[t["name"]]))
        built_for[t["name"]] = PLATFORMS if everywhere else ("macOS",)
    return read_floor(package, manifest), built_for


def read_floor(package, manifest):
    declared = {}
    for entry in manifest.get("platforms") or []:
        name = SWIFTPM_PLATFORM.get(entry["platformName"])
        if name:
            declared[name] = parse_version(entry["version"])
    missing = [p for p in PLATFORMS if p not in declared and derived(p, declared) is None]
    if missing:
        fail(f"{package}/Package.swift declares no platforms: for {', '.join(missing)}; "
             "the audit needs a floor for every Apple platform")
    return {p: declared[p] if p in declared else derived(p, declared) for p in PLATFORMS}


# --- what the SDK's APIs need -------------------------------------------------------------

def symbol_table(usr_dir, triple, cache_dir):
    """{usr: [module, name, availability, back_deployed_before]} and {requirement: [defaults]}."""
    version = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout
    key = hashlib.sha256((TABLE_FORMAT + version + triple + ",".join(SDK_MODULES)).encode()).hexdigest()[:16]
    path = os.path.join(cache_dir, f"sdk-availability-{key}.json")
    if os.path.exists(path):
        with open(path) as f:
            data = json.load(f)
        return data["symbols"], data["defaults"]
    extractor = os.path.join(usr_dir, "bin", "swift-symbolgraph-extract")
    work = os.path.join(cache_dir, f"symbolgraphs-{key}")
    os.makedirs(work, exist_ok=True)
    for module in SDK_MODULES:
        out = os.path.join(work, module)
        os.makedirs(out, exist_ok=True)
        run = subprocess.run([extractor, "-module-name", module, "-target", triple,
                              "-output-dir", out, "-minimum-access-level", "public"],
                             capture_output=True, text=True)
        if run.returncode != 0 or not glob.glob(os.path.join(out, "*.symbols.json")):
            fail(f"swift-symbolgraph-extract {module} failed:\n{run.stderr}")
    symbols, defaults = {}, defaultdict(list)
    for module in SDK_MODULES:
        for graph in sorted(glob.glob(os.path.join(work, module, "*.symbols.json"))):
            with open(graph) as f:
                data = json.load(f)
            for s in data["symbols"]:
                usr = s["identifier"]["precise"]
                if "::SYNTHESIZED::" in usr:
                    continue
                fragments = "".join(f.get("spelling", "") for f in s.get("declarationFragments", []))
                back = re.search(r"@backDeployed\(before: ([^)]*)\)", fragments)
                symbols[usr] = [module, ".".join(s["pathComponents"]),
                                _availability(s.get("availability")),
                                _short_form(back.group(1)) if back else None]
            for r in data["relationships"]:
                if r["kind"] == "defaultImplementationOf" and "::SYNTHESIZED::" not in r["source"]:
                    defaults[r["target"]].append(r["source"])
    # Declarations a symbol graph leaves out (underscored names and their members, macros,
    # some extension members): swift-api-digester's ABI dump lists them with their availability.
    digester = os.path.join(usr_dir, "bin", "swift-api-digester")
    resource = os.path.join(usr_dir, "lib", "swift")
    for module in SDK_MODULES:
        out = os.path.join(work, f"{module}.abi.json")
        run = subprocess.run([digester, "-dump-sdk", "-abi", "-module", module, "-o", out,
                              "-target", triple, "-resource-dir", resource], capture_output=True, text=True)
        if run.returncode != 0 or not os.path.exists(out):
            fail(f"swift-api-digester -dump-sdk {module} failed:\n{run.stderr}")
        with open(out) as f:
            _walk_digest(json.load(f)["ABIRoot"], module, None, symbols)
    os.makedirs(cache_dir, exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump({"symbols": symbols, "defaults": defaults}, f)
    os.replace(path + ".tmp", path)
    return symbols, dict(defaults)


_DIGEST_PLATFORMS = {"intro_Macosx": "macOS", "intro_iOS": "iOS", "intro_tvOS": "tvOS",
                     "intro_watchOS": "watchOS", "intro_visionOS": "visionOS"}


def _walk_digest(node, module, inherited, symbols):
    """Adds what the symbol graphs lack from an api-digester dump; a declaration inherits the
    availability of the declarations it is nested in."""
    own = {}
    for key, platform in _DIGEST_PLATFORMS.items():
        if key in node:
            v = parse_version(node[key])
            own[platform] = {"introduced": list(v) + [0] * (3 - len(v)), "written_minor": True}
    availability = dict(inherited or {})
    for platform, entry in own.items():
        if platform not in availability or entry["introduced"] > availability[platform]["introduced"]:
            availability[platform] = entry
    usr = node.get("usr")
    if usr and usr not in symbols and node.get("moduleName", module) == module:
        symbols[usr] = [module, node.get("printedName", ""), availability or None, None]
    for child in node.get("children", []) + node.get("accessors", []):
        if isinstance(child, dict):
            _walk_digest(child, module, availability, symbols)


def _availability(entries):
    """Symbol-graph availability -> {platform: {"introduced": [..], "obsoleted": [..],
    "unavailable": bool, "minor": bool}} for the Apple platforms, or None when it has none."""
    if not entries:
        return None
    result = {}
    for a in entries:
        domain = a.get("domain")
        if domain == "*" and a.get("isUnconditionallyUnavailable"):
            for p in PLATFORMS:
                result.setdefault(p, {})["unavailable"] = True
            continue
        if domain not in PLATFORMS:
            continue
        entry = result.setdefault(domain, {})
        for field in ("introduced", "obsoleted"):
            if field in a:
                v = a[field]
                entry[field] = [v["major"], v.get("minor", 0), v.get("patch", 0)]
                if field == "introduced":
                    entry["written_minor"] = "minor" in v
        if a.get("isUnconditionallyUnavailable"):
            entry["unavailable"] = True
    return result or None


def _short_form(text):
    out = {}
    for part in text.split(","):
        words = part.split()
        if len(words) == 2 and words[0] in PLATFORMS:
            out[words[0]] = list(parse_version(words[1]))
    return out


def required(availability, platform):
    """(introduced, obsoleted, unavailable) of one platform, with Mac Catalyst and visionOS
    derived from iOS when the API does not name them."""
    if not availability:
        return None, None, False
    entry = availability.get(platform)
    if entry is None and platform in ("macCatalyst", "visionOS"):
        ios = availability.get("iOS")
        if ios is not None:
            entry = dict(ios)
            if platform == "visionOS" and "introduced" in entry:
                v = tuple(entry["introduced"])
                entry["introduced"] = [1, 0, 0] if v[0] <= 17 else [v[0] - 16] + list(v[1:])
            if platform == "visionOS":
                entry.pop("obsoleted", None)
    if entry is None:
        return None, None, False
    intro = tuple(entry["introduced"]) if "introduced" in entry else None
    obsolete = tuple(entry["obsoleted"]) if "obsoleted" in entry else None
    return intro, obsolete, bool(entry.get("unavailable"))


def looks_like_macro(availability):
    """True when the availability is exactly what the FoundationPreview macros expand to."""
    if not availability:
        return False
    for platform, version in MACRO_AVAILABILITY.items():
        entry = availability.get(platform)
        if not entry or "introduced" not in entry or entry.get("written_minor"):
            return False
        if tuple(v for v in entry["introduced"] if v) != version:
            return False
    return True


# --- review entries for what the symbol graphs cannot say ----------------------------------

def read_reviewed(path):
    """{usr: (availability {platform: version}, note)} from reviewed.txt lines
    `USR | macOS 10.0, iOS 2.0, ... | note`."""
    reviewed = {}
    if not os.path.exists(path):
        return reviewed
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split("|")]
            if len(parts) != 3:
                fail(f"{path}:{number}: expected 'USR | availability | note'")
            versions = {}
            for item in parts[1].split(","):
                words = item.split()
                if len(words) != 2 or words[0] not in PLATFORMS:
                    fail(f"{path}:{number}: '{item.strip()}' is not 'Platform version'")
                versions[words[0]] = parse_version(words[1])
            for p in ("macCatalyst", "visionOS"):
                value = derived(p, versions)
                if value is not None:
                    versions[p] = value
            reviewed[parts[0]] = (versions, parts[2])
    return reviewed


# --- the join ----------------------------------------------------------------------------

def module_of_usr(usr):
    m = re.match(r"s:(\d+)", usr)
    if m:
        n = int(m.group(1))
        return usr[2 + len(m.group(1)):2 + len(m.group(1)) + n]
    if usr.startswith(("s:S", "s:s")):
        return "Swift"
    return None


def audit(package, scratch, verbose, cache_dir=None):
    started = time.monotonic()
    package = os.path.abspath(package)
    usr_dir, triple, _ = toolchain_bin()
    floor, built_for = read_manifest(package)
    store_path = os.path.join(scratch, triple, "debug", "index", "store")
    if not os.path.isdir(store_path):
        fail(f"no index store at {store_path}: run `swift build --build-tests` first")
    cache_dir = cache_dir or os.path.join(scratch, "platforms-audit")
    symbols, defaults = symbol_table(usr_dir, triple, cache_dir)
    reviewed = read_reviewed(os.path.join(HERE, "reviewed.txt"))
    library = os.path.join(usr_dir, "lib", "libIndexStore.so")
    store = indexstore.IndexStore(store_path, library)

    # The newest unit of every Swift file under Sources/ and Tests/.
    units = {}
    for unit in store.units():
        if not unit.main_file.endswith(".swift"):
            continue
        rel = os.path.relpath(unit.main_file, package)
        if not unit.main_file.endswith(".swift") or not rel.startswith(("Sources/", "Tests/")):
            continue
        if not os.path.exists(unit.main_file):
            continue
        if rel not in units or unit.modified > units[rel].modified:
            units[rel] = unit
    sources = sorted(glob.glob(os.path.join(package, "Sources", "**", "*.swift"), recursive=True)
                     + glob.glob(os.path.join(package, "Tests", "**", "*.swift"), recursive=True))
    missing, stale = [], []
    for path in sources:
        rel = os.path.relpath(path, package)
        if rel not in units:
            missing.append(rel)
        elif os.path.getmtime(path) > units[rel].modified + 1:
            stale.append(rel)
    # A file in a folder no target compiles (fixtures) has no unit; every target's file has.
    compiled_dirs = {os.path.dirname(r) for r in units}
    unindexed = [r for r in missing if os.path.dirname(r) in compiled_dirs]
    if unindexed or stale:
        fail("the index store does not match the sources (run `swift build --build-tests`): "
             + ", ".join(unindexed + stale)[:2000])

    # Pass 1: every occurrence, and where each of our declarations is defined.
    occurrences = {}
    definitions = {}  # usr -> (rel, line, column, parents)
    extended = {}  # extension usr -> the type it extends: its members inherit the type's @available
    platforms_of = {rel: built_for.get(unit.module, PLATFORMS) for rel, unit in units.items()}
    for rel, unit in sorted(units.items()):
        found = []
        for record in unit.records:
            found.extend(store.occurrences(record))
        occurrences[rel] = found
        for o in found:
            for roles, related in o.relations:
                if roles & indexstore.REL_EXTENDEDBY:
                    extended[related] = o.usr
            if o.roles & indexstore.ROLE_DEFINITION:
                parents = [usr for roles, usr in o.relations
                           if roles & (indexstore.REL_CHILDOF | indexstore.REL_ACCESSOROF)]
                definitions.setdefault(o.usr, (rel, o.line, o.column, parents))
    store.close()

    texts = {}

    def source(rel):
        if rel not in texts:
            with open(os.path.join(package, rel), encoding="utf-8") as f:
                texts[rel] = SwiftSource(f.read())
        return texts[rel]

    declared_cache = {}

    def declaration_availability(usr, seen=()):
        """The availability @available gives a declaration of ours, its parents' included."""
        if usr in declared_cache:
            return declared_cache[usr]
        if usr not in definitions or usr in seen:
            return {}
        rel, line, column, parents = definitions[usr]
        versions = dict(source(rel).declaration_attributes(line, column))
        for parent in parents + ([extended[usr]] if usr in extended else []):
            for platform, version in declaration_availability(parent, seen + (usr,)).items():
                if platform not in versions or version > versions[platform]:
                    versions[platform] = version
        declared_cache[usr] = versions
        return versions

    findings, unknown = [], []
    back_deployed, via_default, via_review, c_symbols = {}, {}, {}, set()
    checked = 0
    for rel, found in occurrences.items():
        for o in found:
            if o.roles & (indexstore.ROLE_DEFINITION | indexstore.ROLE_DECLARATION):
                continue
            if not o.roles & indexstore.ROLE_REFERENCE:
                continue
            usr = o.usr
            if usr.startswith("c:") or usr.startswith(("s:So", "s:SC")):
                c_symbols.add(o.name)
                continue
            if usr.endswith("mfp"):
                continue  # a generic parameter (Task's Success): no availability of its own, its type's is checked where it is named
            entry = symbols.get(usr)
            key = usr  # what reviewed.txt names: an accessor is reviewed as its property
            m = ACCESSOR.match(usr)
            if m and m.group(1) + m.group(2) + "p" + m.group(4) in symbols:
                key = m.group(1) + m.group(2) + "p" + m.group(4)
                if entry is None or not entry[2]:
                    entry = symbols[key]
            own = usr in definitions  # declared in this package (an extension of an SDK type included)
            if own and any(roles & indexstore.REL_EXTENDEDBY for roles, _ in o.relations):
                continue  # `extension T` of our T: the extension takes T's availability
            if own:
                declared = declaration_availability(usr)
                if not declared:
                    continue
                module, name, back = units[definitions[usr][0]].module, o.name, None
                availability = {p: ({"unavailable": True} if v == UNAVAILABLE else {"introduced": list(v)})
                                for p, v in declared.items()}
            else:
                module = entry[0] if entry else module_of_usr(usr)
                if module not in SDK_MODULES:
                    continue  # a symbol of a module no Apple platform ships
                if entry is None:
                    unknown.append((rel, o, module, key, "in neither the symbol graph nor the ABI dump"))
                    continue
                name, availability, back = entry[1], entry[2], entry[3]
            checked += 1
            if (o.roles & indexstore.ROLE_IMPLICIT) and name.endswith("next(isolation:)"):
                # `for await` calls next(isolation:) only where it is available and next()
                # below that: the compiler picks by the deployment target.
                continue
            if back:
                back_deployed[name] = back
            review = None if own else reviewed.get(key)
            if review is not None:
                via_review[name] = review[1]
                need = {p: (review[0][p], None, False) if p in review[0] else (None, None, True)
                        for p in PLATFORMS}
            elif not own and module in UNANNOTATED_MODULES and not availability:
                unknown.append((rel, o, module, key, f"{module} declares no Apple availability on Linux"))
                continue
            elif not own and module in SWIFT_FOUNDATION and looks_like_macro(availability):
                unknown.append((rel, o, module, key, "macOS 15, iOS 18, tvOS 18, watchOS 11 is what the "
                                "FoundationPreview macro becomes on Linux, not Apple's availability"))
                continue
            else:
                need = {p: required(availability, p) for p in PLATFORMS}
            context = None
            short = []
            for platform in platforms_of[rel]:
                intro, obsolete, unavailable = need[platform]
                if intro is None and obsolete is None and not unavailable:
                    continue
                if context is None:
                    context = dict(floor)
                    container = [usr2 for roles, usr2 in o.relations
                                 if roles & (indexstore.REL_CONTAINEDBY | indexstore.REL_CHILDOF
                                             | indexstore.REL_BASEOF | indexstore.REL_ACCESSOROF)]
                    for c in container:
                        for p, v in declaration_availability(c).items():
                            if v > context[p]:
                                context[p] = v
                    for versions in source(rel).scope_versions_at(o.line, o.column):
                        for p, v in versions.items():
                            if v > context[p]:
                                context[p] = v
                have = context[platform]
                if have == UNAVAILABLE:
                    continue
                if unavailable:
                    short.append((f"{platform} unavailable", f"{platform} {format_version(have)}"))
                elif obsolete is not None:
                    short.append((f"{platform} obsoleted in {format_version(obsolete)}",
                                  f"{platform} {format_version(have)}"))
                elif intro is not None and _padded(intro) > _padded(have):
                    short.append((f"{platform} {format_version(intro)}", f"{platform} {format_version(have)}"))
            if not short:
                continue
            # A protocol requirement with a default implementation that the floor allows: the
            # compiler resolves the call to that implementation where the requirement is
            # unavailable (as for FixedWidthInteger.&*, a requirement since Swift 6).
            fallback = [d for d in defaults.get(usr, []) if d in symbols
                        and all(_within(required(symbols[d][2], p), floor[p]) for p in PLATFORMS)]
            if fallback:
                via_default[name] = symbols[fallback[0]][1]
                continue
            findings.append((rel, o.line, o.column, name, module, short))

    findings.sort()
    for rel, line, column, name, module, short in findings:
        print(f"{rel}:{line}:{column}: {name} ({module}) needs {', '.join(n for n, _ in short)}; "
              f"here only {', '.join(h for _, h in short)}")
    unknown.sort(key=lambda u: (u[0], u[1].line, u[1].column))
    for rel, o, module, key, why in unknown:
        print(f"{rel}:{o.line}:{o.column}: {o.name} ({module}, {key}): availability unknown ({why}); "
              "look it up and add it to scripts/platforms/reviewed.txt")

    floor_text = ", ".join(f"{p} {format_version(floor[p])}" for p in PLATFORMS)
    print(f"platforms audit: floor {floor_text}", file=sys.stderr)
    print(f"  {len(units)} Swift files indexed, {checked} references to "
          f"{len(SDK_MODULES)} Apple-shipped modules checked", file=sys.stderr)
    if back_deployed:
        print(f"  back-deployed APIs used (usable below their @backDeployed version): "
              f"{', '.join(sorted(back_deployed))}", file=sys.stderr)
    if via_default:
        print("  requirements newer than the floor, resolved to their default implementation: "
              + ", ".join(sorted(via_default)), file=sys.stderr)
    if via_review:
        print(f"  {len(via_review)} APIs taken from scripts/platforms/reviewed.txt", file=sys.stderr)
    if verbose:
        for name, note in sorted(via_review.items()):
            print(f"    {name}: {note}", file=sys.stderr)
        print(f"  C declarations not audited (CErrCore, the C library): {', '.join(sorted(c_symbols))}",
              file=sys.stderr)
    darwin_only = darwin_branches(package)
    if darwin_only:
        print("  not compiled on Linux, so not indexed (review by hand): "
              + ", ".join(darwin_only), file=sys.stderr)
    print(f"  {len(findings)} uses above the floor, {len(unknown)} of unknown availability "
          f"({time.monotonic() - started:.1f} s)", file=sys.stderr)
    return 1 if findings or unknown else 0


def _padded(version):
    return tuple(version) + (0,) * (3 - len(version))


def _within(need, floor_version):
    intro, obsolete, unavailable = need
    if unavailable or obsolete is not None:
        return False
    return intro is None or _padded(intro) <= _padded(floor_version)


def darwin_branches(package):
    """file:line of every `#if` branch that only an Apple platform compiles and that holds more
    than imports (an `import Darwin` branch has nothing to audit)."""
    found = []
    pattern = re.compile(r"^\s*#(?:if|elseif)\b.*\b(?:canImport\((?:Darwin|ObjectiveC|UIKit|AppKit)\)"
                         r"|os\((?:macOS|iOS|tvOS|watchOS|visionOS)\)|_runtime\(_ObjC\))")
    for path in sorted(glob.glob(os.path.join(package, "Sources", "**", "*.swift"), recursive=True)
                       + glob.glob(os.path.join(package, "Tests", "**", "*.swift"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        for number, line in enumerate(lines, 1):
            if not pattern.search(line):
                continue
            body = []
            for following in lines[number:]:
                if re.match(r"^\s*#(?:elseif|else|endif)\b", following):
                    break
                if following.strip():
                    body.append(following.strip())
            if any(not b.startswith("import ") for b in body):
                found.append(f"{os.path.relpath(path, package)}:{number}")
    return found


SWIFTPM_NAME = {"macOS": "macOS", "iOS": "iOS", "macCatalyst": "macCatalyst", "tvOS": "tvOS",
                "watchOS": "watchOS", "visionOS": "visionOS"}


def self_test(package, scratch):
    """Builds scripts/platforms/selftest (planted uses, each marked with what must be reported)
    at the package's floor, audits it and requires exactly the marked reports."""
    import shutil
    import tempfile
    floor, _ = read_manifest(package)
    work = tempfile.mkdtemp(prefix="platforms-selftest-")
    try:
        fixture = os.path.join(work, "Planted")
        shutil.copytree(os.path.join(HERE, "selftest"), fixture)
        platforms = ", ".join(f'.{SWIFTPM_NAME[p]}("{format_version(floor[p])}")' for p in PLATFORMS)
        with open(os.path.join(fixture, "Package.swift"), "w") as f:
            f.write("// swift-tools-version: 6.1\n"
                    "import PackageDescription\n\n"
                    f'let package = Package(name: "Planted", platforms: [{platforms}],\n'
                    '    products: [.library(name: "Planted", targets: ["Planted"])],\n'
                    '    targets: [.target(name: "Planted")], swiftLanguageModes: [.v6])\n')
        build = subprocess.run(["swift", "build", "--package-path", fixture], capture_output=True, text=True)
        if build.returncode != 0:
            fail(f"self-test: the fixture did not build:\n{build.stdout}{build.stderr}")
        run = subprocess.run([sys.executable, os.path.abspath(__file__), "--package", fixture,
                              "--cache-dir", os.path.join(scratch, "platforms-audit")],
                             capture_output=True, text=True)
        source = os.path.join(fixture, "Sources", "Planted", "Planted.swift")
        expected = {}
        with open(source) as f:
            for number, line in enumerate(f, 1):
                m = re.search(r"// expect(-unknown)?: (\S+)(?: -(\w+))?$", line.rstrip())
                if m and not line.lstrip().startswith("//"):
                    expected[number] = (bool(m.group(1)), m.group(2), m.group(3))
        reported = defaultdict(list)
        for line in run.stdout.splitlines():
            m = re.match(r"Sources/Planted/Planted\.swift:(\d+):\d+: (.*)$", line)
            if m:
                reported[int(m.group(1))].append(m.group(2))
        problems = []
        if run.returncode != 1:
            problems.append(f"the audit exited {run.returncode}, not 1:\n{run.stderr}")
        for number, (unknown, name, absent) in sorted(expected.items()):
            texts = reported.get(number, [])
            hit = [t for t in texts if name in _names(t) and ("availability unknown" in t) == unknown]
            if not hit:
                problems.append(f"line {number}: {name} was not reported ({texts or 'nothing'})")
            elif absent and any(re.search(rf"needs [^;]*\b{absent} ", t) for t in hit):
                problems.append(f"line {number}: {absent} was reported: {hit}")
        for number in sorted(set(reported) - set(expected)):
            problems.append(f"line {number}: reported but not planted: {reported[number]}")
        if run.stdout:
            print(run.stdout, end="")
        if problems:
            for p in problems:
                print(f"platforms --self-test: FAILED: {p}", file=sys.stderr)
            return 1
        print(f"platforms --self-test: {len(expected)} planted uses reported, "
              f"{sum(1 for _ in open(source)) - len(expected)} other lines not", file=sys.stderr)
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _names(report):
    """The names a self-test marker may use for a reported API: `Mutex.withLock(_:)` is
    `Mutex.withLock(_:)`, `withLock(_:)` or `withLock`."""
    full = report.split(" (")[0]
    last = re.sub(r"^.*\.(?=[^.]*\()", "", full)
    return {full, last, last.split("(")[0]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", default=os.path.join(HERE, "..", ".."))
    parser.add_argument("--scratch-path", default=None)
    parser.add_argument("--cache-dir", default=None)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    package = os.path.abspath(args.package)
    scratch = os.path.abspath(args.scratch_path or os.path.join(package, ".build"))
    if args.self_test:
        sys.exit(self_test(package, scratch))
    sys.exit(audit(package, scratch, args.verbose, args.cache_dir))


if __name__ == "__main__":
    main()
