#!/usr/bin/env python3
"""listings.py — every code listing of the documentation compiles, and prints what it shows.

Checked documents: README.md, CONTRIBUTING.md, docs/*.md, docs/listings/README.md, every
Sources/**/*.docc/**/*.md, Examples/*/README.md, Integrations/*/README.md, and the fenced blocks
inside the `///` doc comments of Sources/**/*.swift and Integrations/*/Sources/**/*.swift. Not
CHANGELOG.md (history) nor docs/measurements/ (run logs).

Every fenced block carries a language; an unlabelled fence is an error. What each language gets,
the annotations (`<!-- listing: key=value key="quoted value" flag -->` on the lines right before
a fence; in doc comments `/// <!-- listing: … -->`) and the contexts in docs/listings/ are
described in docs/listings/README.md, the one place for these conventions:

  swift   compiled (Swift 6) against the package's products, the built-in catalog and
          Examples/Shop's catalog (through the SwiftErrCatalogPlugin); run when it has
          `// prints "…"` comments, its standard output compared with them exactly
  c       compiled by gcc and clang, -std=c11 -Wall -Wextra -Wpedantic -Werror, against include/;
          linked with build/libcerrcore.a and run when it has `/* prints "…" */` comments
  sh      `$ command` lines run in a copy of the repository, their output compared; a block
          without prompts is a list of commands whose programs, make targets, errcat
          subcommands and repository paths must exist (annotation `run`: run them)
  json    parsed; a catalog (`"format": "swifterr-catalog/…"`, or annotation `catalog`) goes
          through `errcat check`
  python  compiled (syntax)
  text    never checked

Each problem is printed as `DOCUMENT:LINE: listing N …` with the compiler's or the command's
message, and makes the check fail (exit status 1). The summary counts the listings per language
and document, and lists each skipped listing with its reason.

  scripts/docs/listings.py                   check the root package's listings
  scripts/docs/listings.py --package PATH    check the listings of the package at PATH (an
                                             Integrations/* package; repeatable, one generated
                                             package for all): those in its folder and those
                                             annotated package=PATH
  scripts/docs/listings.py --self-test       planted mistakes must each be reported at their line
  options: --scratch-path DIR (SwiftPM build folder; default .build, the one `make check` builds,
           so the products are not compiled twice), -c debug|release (default debug), --jobs N,
           --only DOCUMENT, --exclude DOCUMENT (both repeatable), --file PATH (check a Markdown file of
           the repository, e.g. a draft; repeatable), --list (print the listings and their annotations);
           LISTINGS_VERBOSE=1 prints SwiftPM's output
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONTEXTS = "docs/listings"
WORK = ".build-listings"
LANGUAGES = ("swift", "c", "sh", "json", "python", "text")
KEYS = ("context", "skip", "package", "catalog", "cwd", "setup", "run", "compile-error",
        "journey", "file", "dir", "status", "ci")
# Keys of a newcomer's journey (scripts/docs/journeys.py does those listings as written).
JOURNEY_KEYS = ("file", "dir", "status", "ci")
FLAGS = ("catalog", "run")  # keys without a value
MARKER = {"swift": "// LISTING", "c": "/* LISTING */", "sh": "# LISTING"}
COMMAND_TIMEOUT = 120
# Modules listings import that no package of the repository provides: the generated package depends
# on them when a listing (or its context) imports them. (module: package URL, version, identity)
EXTERNAL_MODULES = {
    "OpenAPIAsyncHTTPClient": ("https://github.com/swift-server/swift-openapi-async-http-client", "1.1.0",
                               "swift-openapi-async-http-client"),
}

FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")
ANNOTATION = re.compile(r"^\s*<!--\s*listing:(?P<body>.*?)-->\s*$")
ANNOTATION_START = re.compile(r"<!--\s*listing\b")
ANNOTATION_ITEM = re.compile(r'\s*([a-z][a-z0-9-]*)(?:=(?:"([^"]*)"|([^\s"]+)))?')
DOC_COMMENT = re.compile(r"^(?P<prefix>\s*///) ?(?P<text>.*)$")
PRINTS = re.compile(r'(?://|/\*)\s*[Pp]rints\s+"(?P<text>.*)"\s*(?:\*/)?\s*$')
SWIFT_IMPORT = re.compile(r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*import\s+(?:[a-z]+\s+)?[A-Za-z_][A-Za-z0-9_.]*\s*$")
DIAGNOSTIC = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?:(?P<column>\d+):)? (?P<kind>error|warning|note|fatal error): (?P<message>.*)$")


class Problem:
    def __init__(self, doc, line, message, details=()):
        self.doc, self.line, self.message, self.details = doc, line, message, list(details)

    def __str__(self):
        return "\n".join([f"{self.doc}:{self.line}: {self.message}"] + ["    " + d for d in self.details])


class Listing:
    """One fenced block: where it is, its language, its lines and its annotation."""

    def __init__(self, doc, number, fence_line, language, lines, numbers, offsets, notes, note_line):
        self.doc, self.number, self.line, self.language = doc, number, fence_line, language
        self.lines, self.numbers, self.offsets = lines, numbers, offsets
        self.notes, self.note_line = notes, note_line

    @property
    def first(self):
        return self.numbers[0] if self.numbers else self.line + 1

    @property
    def name(self):
        return f"listing {self.number}"

    def where(self):
        return f"{self.doc}:{self.line}"

    def contexts(self):
        value = self.notes.get("context")
        return [c for c in value.split(",") if c] if value else []

    def packages(self):
        """The packages whose products the listing compiles against, besides the root package's."""
        if "package" in self.notes:
            return [p.strip().rstrip("/") for p in self.notes["package"].split(",") if p.strip()]
        parts = self.doc.split("/")
        if parts[0] == "Integrations" and len(parts) > 2:
            return ["/".join(parts[:2])]
        return []

    def package(self):
        """The package whose check compiles the listing (the first it names): None for the root's."""
        packages = self.packages()
        return packages[0] if packages else None

    def slug(self):
        base = re.sub(r"[^A-Za-z0-9]+", "_", self.doc.rsplit(".", 1)[0]).strip("_")
        return f"{base}_{self.number}"


# ---- documents and extraction -----------------------------------------------------------------


def tracked_files(root):
    out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True, capture_output=True).stdout
    return sorted(f for f in out.decode("utf-8").split("\0") if f and os.path.isfile(os.path.join(root, f)))


def documents(files):
    """The Markdown documents and the Swift sources whose doc comments are checked."""
    markdown, swift = [], []
    for f in files:
        parts = f.split("/")
        if f.endswith(".md"):
            if f in ("README.md", "CONTRIBUTING.md", CONTEXTS + "/README.md"):
                markdown.append(f)
            elif parts[0] == "docs" and len(parts) == 2:
                markdown.append(f)
            elif parts[0] == "Sources" and any(p.endswith(".docc") for p in parts):
                markdown.append(f)
            elif parts[0] in ("Examples", "Integrations") and len(parts) == 3 and parts[2] == "README.md":
                markdown.append(f)
        elif f.endswith(".swift"):
            if parts[0] == "Sources" or (parts[0] == "Integrations" and len(parts) > 3 and parts[2] == "Sources"):
                swift.append(f)
    return markdown, swift


def parse_annotation(text):
    """`key=value key="quoted value" flag` → dict, or raises ValueError naming what is wrong."""
    notes, pos = {}, 0
    text = text.strip()
    while pos < len(text):
        m = ANNOTATION_ITEM.match(text, pos)
        if not m or m.end() == pos:
            raise ValueError(f"cannot read the annotation from {text[pos:]!r}")
        key, quoted, bare = m.group(1), m.group(2), m.group(3)
        value = quoted if quoted is not None else bare
        if key not in KEYS:
            raise ValueError(f"unknown annotation key {key!r} (known: {', '.join(KEYS)})")
        if key in FLAGS and value is not None:
            raise ValueError(f"{key} takes no value")
        if key not in FLAGS and not value:
            raise ValueError(f"{key} needs a value ({key}=…)")
        if key in notes:
            raise ValueError(f"{key} given twice")
        notes[key] = value if value is not None else True
        pos = m.end()
    return notes


def extract(doc, lines, numbers, offsets, counter):
    """The fenced blocks of Markdown `lines` (line numbers `numbers`, columns shifted by `offsets`).

    `counter` is a one-element list holding the number of the document's previous block, so the
    blocks of a Swift file's doc comments are numbered through the file. Returns (listings, problems).
    """
    listings, problems = [], []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = FENCE.match(line)
        if not m:
            if ANNOTATION_START.search(line):
                # An annotation must be followed by further annotations and then a fence.
                j = i
                while j < len(lines) and ANNOTATION.match(lines[j]):
                    j += 1
                if j == i:
                    problems.append(Problem(doc, numbers[i], "a listing annotation must be one line: <!-- listing: … -->"))
                elif j >= len(lines) or not FENCE.match(lines[j]):
                    problems.append(Problem(doc, numbers[i], "a listing annotation must be right before a fence"))
                i = max(j, i + 1)
                continue
            i += 1
            continue
        indent, fence, info = len(m.group("indent")), m.group("fence"), m.group("info").strip()
        language = info.split()[0] if info else ""
        counter[0] += 1
        number = counter[0]
        # The annotation lines right above the fence.
        notes, note_line = {}, None
        k = i - 1
        while k >= 0 and ANNOTATION.match(lines[k]):
            k -= 1
        for a in range(k + 1, i):
            try:
                for key, value in parse_annotation(ANNOTATION.match(lines[a]).group("body")).items():
                    if key in notes:
                        raise ValueError(f"{key} given twice")
                    notes[key] = value
            except ValueError as error:
                problems.append(Problem(doc, numbers[a], f"listing {number}: {error}"))
            note_line = note_line or numbers[a]
        if "journey" in notes:
            # Done as written, in new folders, by the journey; not compiled again here.
            notes.setdefault("skip", f"done as written by the journey {notes['journey']} (scripts/docs/journeys.py)")
        else:
            for key in JOURNEY_KEYS:
                if key in notes:
                    problems.append(Problem(doc, note_line, f"listing {number}: {key}= belongs to a journey (journey=NAME)"))
        body, body_numbers, body_offsets = [], [], []
        j = i + 1
        closed = False
        while j < len(lines):
            stripped = lines[j].lstrip(" ")
            if stripped.startswith(fence[0] * len(fence)) and not stripped.rstrip().strip(fence[0]):
                closed = True
                break
            text = lines[j]
            removed = min(indent, len(text) - len(text.lstrip(" ")))
            body.append(text[removed:])
            body_numbers.append(numbers[j])
            body_offsets.append(offsets[j] + removed)
            j += 1
        if not closed:
            problems.append(Problem(doc, numbers[i], f"listing {number}: the fence is never closed"))
        listing = Listing(doc, number, numbers[i], language, body, body_numbers, body_offsets, notes, note_line)
        if not language:
            problems.append(
                Problem(doc, numbers[i], f"listing {number}: the fence has no language "
                        f"(give one of {', '.join(LANGUAGES)}; `text` is not checked)"))
        elif language not in LANGUAGES:
            problems.append(
                Problem(doc, numbers[i], f"listing {number}: unknown language {language!r} (known: {', '.join(LANGUAGES)})"))
        listings.append(listing)
        i = j + 1
    return listings, problems


def read_document(root, doc):
    """The listings of one document (Markdown, or a Swift file's doc comments), and its problems."""
    with open(os.path.join(root, doc), encoding="utf-8") as f:
        text = f.read().split("\n")
    counter = [0]
    if doc.endswith(".md"):
        return extract(doc, text, list(range(1, len(text) + 1)), [0] * len(text), counter)
    listings, problems = [], []
    run = []  # (line number, text, prefix length) of consecutive /// lines

    def flush():
        if run:
            found, issues = extract(doc, [r[1] for r in run], [r[0] for r in run], [r[2] for r in run], counter)
            listings.extend(found)
            problems.extend(issues)
            run.clear()

    for n, line in enumerate(text, 1):
        m = DOC_COMMENT.match(line)
        if m:
            prefix = len(line) - len(m.group("text"))
            run.append((n, m.group("text"), prefix))
        else:
            flush()
    flush()
    return listings, problems


def expected_prints(listing):
    """The lines a listing says it prints (`// prints "…"`, `/* prints "…" */`), or None."""
    found = []
    for line in listing.lines:
        m = PRINTS.search(line)
        if m:
            found.append(m.group("text"))
    return found or None


# ---- running commands ---------------------------------------------------------------------------


def run(command, cwd=None, env=None, timeout=None, input=None):
    try:
        p = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, input=input,
                           errors="replace")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as error:
        return 124, error.stdout or "", f"timed out after {timeout} s"


def parallel(function, items, jobs):
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(function, items))


def context_file(root, name, extension):
    return os.path.join(root, CONTEXTS, f"{name}.{extension}")


def relative(root, path):
    path = os.path.abspath(path)
    return os.path.relpath(path, root) if path.startswith(root + os.sep) else path


# ---- Swift --------------------------------------------------------------------------------------


class SwiftBuild:
    """The generated package that gives the listings their modules, and the compiler's flags."""

    def __init__(self, root, work, scratch, configuration, scope=None):
        self.root, self.work, self.scratch, self.configuration, self.scope = root, work, scratch, configuration, scope
        self.identity = os.path.basename(root).lower()
        name = scope_label(scope)
        # The target that depends on every product and context, named per package like the contexts.
        self.support = "ListingSupport" + ("_" + re.sub(r"[^A-Za-z0-9]", "_", name) if scope else "")
        self.dir = os.path.join(work, "swifterr-doc-listings-" + name.lower())
        self.bin = None

    def products(self, manifest):
        with open(manifest, encoding="utf-8") as f:
            return re.findall(r'\.library\(\s*name:\s*"([^"]+)"', f.read())

    def write(self, path, text):
        """Writes only what changed, so SwiftPM rebuilds only what changed."""
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                if f.read() == text:
                    return
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def generate(self, module_contexts, executables, packages=(), external=()):
        """Package.swift, the context modules, and one executable target per listing that runs;
        `packages` are the repository's packages (Integrations/*) whose products they use, and
        `external` the modules of EXTERNAL_MODULES they import."""
        dependencies = [f'.package(path: "{self.root}")']
        products = [(p, self.identity) for p in self.products(os.path.join(self.root, "Package.swift"))]
        for package in sorted(set(packages)):
            path = os.path.join(self.root, package)
            dependencies.append(f'.package(path: "{path}")')
            products += [(p, os.path.basename(path).lower()) for p in self.products(os.path.join(path, "Package.swift"))]
        for module in sorted(set(external)):
            url, version, identity = EXTERNAL_MODULES[module]
            dependencies.append(f'.package(url: "{url}", from: "{version}")')
            products.append((module, identity))
        product_list = ", ".join(f'.product(name: "{p}", package: "{pkg}")' for p, pkg in products)
        targets, support = [], []
        keep = set()
        if not self.scope:
            # Examples/Shop's catalog through the plugin: CartCode, PaymentCode, ShopCatalog, BaseCode.sessionExpired.
            shop = os.path.join(self.root, "Examples/Shop/Sources/ShopErrors")
            for f in sorted(os.listdir(shop)):
                with open(os.path.join(shop, f), encoding="utf-8") as src:
                    self.write(os.path.join(self.dir, "Sources/ShopErrors", f), src.read())
            targets.append(
                f'.target(name: "ShopErrors", dependencies: [.product(name: "SwiftErr", package: "{self.identity}")], '
                f'plugins: [.plugin(name: "SwiftErrCatalogPlugin", package: "{self.identity}")])')
            support.append('"ShopErrors"')
            keep.add("ShopErrors")
        for name in sorted(module_contexts):
            module = context_module(name, self.scope)
            path = context_file(self.root, name, "swift")
            with open(path, encoding="utf-8") as f:
                text = f.read()
            self.write(os.path.join(self.dir, "Sources", module, f"{name}.generated.swift"),
                       f'#sourceLocation(file: "{path}", line: 1)\n{text}')
            targets.append(f'.target(name: "{module}", dependencies: [{product_list}{", " + chr(34) + "ShopErrors" + chr(34) if not self.scope else ""}])')
            support.append(f'"{module}"')
            keep.add(module)
        self.write(os.path.join(self.dir, "Sources", self.support, "Support.swift"),
                   "// Depends on every product, context and catalog the listings use, so one build makes them all.\n")
        targets.append(f'.target(name: "{self.support}", dependencies: [{", ".join(support + [product_list])}])')
        keep.add(self.support)
        for target, filename, source in executables:
            self.write(os.path.join(self.dir, "Sources", target, filename), source)
            targets.append(f'.executableTarget(name: "{target}", dependencies: [{", ".join(support + [product_list])}])')
            keep.add(target)
        # Targets of listings that are gone would still be built: remove their folders.
        sources = os.path.join(self.dir, "Sources")
        for folder in os.listdir(sources):
            if folder not in keep:
                shutil.rmtree(os.path.join(sources, folder))
        manifest = (
            "// swift-tools-version: 6.1\n"
            "// Generated by scripts/docs/listings.py: the modules the documentation's listings compile against.\n"
            "import PackageDescription\n\n"
            "let package = Package(\n"
            '    name: "SwiftErrDocListings",\n'
            "    platforms: [.macOS(.v13), .iOS(.v16), .macCatalyst(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],\n"
            f"    dependencies: [{', '.join(dependencies)}],\n"
            "    targets: [\n        " + ",\n        ".join(targets) + "\n    ],\n"
            "    swiftLanguageModes: [.v6]\n)\n")
        self.write(os.path.join(self.dir, "Package.swift"), manifest)

    def stale(self, module_contexts):
        """The context modules that have no .swiftmodule (the compiler keeps an unchanged module
        file as it was, so its age says nothing)."""
        return [context_module(name, self.scope) for name in sorted(module_contexts)
                if not os.path.exists(os.path.join(self.bin, "Modules", f"{context_module(name, self.scope)}.swiftmodule"))]

    def swift_build(self, *extra):
        command = ["swift", "build", "--package-path", self.dir, "--scratch-path", self.scratch,
                   "-c", self.configuration] + list(extra)
        return run(command)

    def build(self, target=None):
        status, out, err = self.swift_build(*(["--target", target] if target else []))
        if os.environ.get("LISTINGS_VERBOSE"):
            print(out + err)
        if status == 0 and self.bin is None:
            s, bin_path, _ = self.swift_build("--show-bin-path")
            self.bin = bin_path.strip()
        return status, out + err

    def flags(self):
        """The search paths and C module maps SwiftPM compiled the support target with (every module of
        the build: the products' targets, their dependencies' C modules, the contexts), read from
        SwiftPM's build manifest (<scratch>/debug.yaml or release.yaml)."""
        manifest = os.path.join(self.scratch, f"{self.configuration}.yaml")
        args = None
        if os.path.isfile(manifest):
            with open(manifest, encoding="utf-8") as f:
                found = False
                for line in f:
                    if re.match(rf'^\s*"C\.{self.support}-[^"]*-{self.configuration}\.module":', line):
                        found = True
                    elif found and line.strip().startswith("args:"):
                        args = json.loads(line.strip()[len("args:"):])
                        break
        if args is None:
            raise SystemExit(f"listings: no compile command of {self.support} in {manifest}")
        flags = []
        i = 0
        while i < len(args):
            if args[i] in ("-I", "-F", "-Xcc", "-module-cache-path") and i + 1 < len(args):
                flags += args[i:i + 2]
                i += 2
            else:
                i += 1
        return flags


def scope_label(scope):
    """The name of a check's generated package: `root`, or the packages' (`integrations` for several)."""
    if not scope:
        return "root"
    return os.path.basename(scope[0]) if len(scope) == 1 else "integrations"


def context_module(name, scope=None):
    """The module of a context in the generated package of `scope` (None: the root package's).
    Each generated package has its own, as they are built with different dependencies in one
    build folder: with one name, each check would compile the others' out of date."""
    prefix = "ListingContext_" + (re.sub(r"[^A-Za-z0-9]", "_", scope_label(scope)) + "_" if scope else "")
    return prefix + re.sub(r"[^A-Za-z0-9]", "_", name)


def in_scope(listing, scope):
    """Whether this run checks the listing: the root package's run, or one of `scope`'s packages."""
    return listing.package() is None if not scope else listing.package() in scope


def swift_source(root, listing, problems, scope=None):
    """The Swift file of a listing: its contexts' imports and modules, or its wrapper, and the
    document, file and line each line of it comes from (the compiler's lines are mapped back with
    it: #sourceLocation cannot stand inside an expression, where a wrapper may put a listing)."""
    header, wrapper = [], None
    modules = []
    for name in listing.contexts():
        path = context_file(root, name, "swift")
        if not os.path.isfile(path):
            problems.append(Problem(listing.doc, listing.note_line or listing.line,
                                    f"{listing.name}: context {name!r} has no file {relative(root, path)}"))
            return None, [], []
        with open(path, encoding="utf-8") as f:
            text = f.read().split("\n")
        if MARKER["swift"] in [t.strip() for t in text]:
            if wrapper:
                problems.append(Problem(listing.doc, listing.note_line or listing.line,
                                        f"{listing.name}: two wrapping contexts ({wrapper[0]}, {name})"))
                return None, [], []
            wrapper = (name, path, text)
        else:
            modules.append(name)
            header += [t for t in text if SWIFT_IMPORT.match(t)]
            header.append(f"import {context_module(name, scope)}")
    lines = header[:]
    origin = [None] * len(header)  # None: the generated imports
    body = listing.lines
    body_origin = [(listing.doc, n, offset) for n, offset in zip(listing.numbers, listing.offsets)]
    if wrapper:
        name, path, text = wrapper
        at = [t.strip() for t in text].index(MARKER["swift"])
        shown = relative(root, path)
        lines += text[:at] + body + text[at + 1:]
        origin += ([(shown, n + 1, 0) for n in range(at)] + body_origin
                   + [(shown, n + 1, 0) for n in range(at + 1, len(text))])
    else:
        lines += body
        origin += body_origin
    return "\n".join(lines) + "\n", modules, origin


def swift_diagnostics(root, listing, output, generated, origin):
    """The compiler's messages, with the generated file's lines mapped back to the document (or
    the wrapping context) and the columns of doc-comment lines shifted past their `///`."""
    mapped = []
    for line in output.splitlines():
        m = DIAGNOSTIC.match(line)
        if m:
            path, n, column = m.group("file"), int(m.group("line")), m.group("column")
            if os.path.abspath(path) == generated:
                source = origin[n - 1] if 0 < n <= len(origin) else None
                if source is None:
                    where = f"{listing.doc}:{listing.line} (the imports of its contexts)"
                else:
                    where = f"{source[0]}:{source[1]}" + (f":{int(column) + source[2]}" if column else "")
            else:
                where = relative(root, path) + f":{n}" + (f":{column}" if column else "")
            line = f"{where}: {m.group('kind')}: {m.group('message')}"
        mapped.append(line)
    return mapped


def swift_job(root, listing, problems, scope=None):
    """(listing, source, is a manifest, has @main, origin), or None when its contexts are wrong."""
    source, modules, origin = swift_source(root, listing, problems, scope)
    if source is None:
        return None, []
    manifest = re.search(r"^\s*import\s+PackageDescription\s*$", source, re.M) is not None
    main = re.search(r"^\s*@main\b", source, re.M) is not None
    return (listing, source, manifest, main, origin), modules


def runs(job):
    listing, source, manifest, main, _ = job
    return bool(expected_prints(listing)) and not manifest and "compile-error" not in listing.notes


def check_swift(root, listings, plan, args, problems, stats):
    """Compiles every Swift listing, then builds and runs those that show what they print.

    The generated package is made from `plan`, every listing of the package being checked (and the
    self-test's), whatever part of them this run checks: so a partial run, the self-test and the
    full check build the same package, and SwiftPM does not plan it again for each of them."""
    swift = [l for l in listings if l.language == "swift"]
    if not swift:
        return
    module_contexts, executables, packages, external = set(), [], set(), set()
    for listing in plan:
        if listing.language != "swift" or "skip" in listing.notes or not in_scope(listing, args.scope):
            continue
        packages.update(listing.packages())
        job, modules = swift_job(root, listing, [], args.scope)
        if job is None:
            continue
        module_contexts.update(modules)
        external.update(m for m in re.findall(r"^\s*import\s+([A-Za-z_][A-Za-z0-9_]*)\s*$", job[1], re.M)
                        if m in EXTERNAL_MODULES)
        if runs(job):
            executables.append((f"Listing_{listing.slug()}", "Listing.swift" if job[3] else "main.swift", job[1]))
    jobs = []
    for listing in swift:
        job, _ = swift_job(root, listing, problems, args.scope)
        if job is not None:
            jobs.append(job)
    work = os.path.join(root, WORK, "swift")
    os.makedirs(work, exist_ok=True)
    build = SwiftBuild(root, os.path.join(root, WORK), args.scratch_path, args.configuration, args.scope)
    build.generate(module_contexts, executables, packages, external)
    started = time.time()
    status, output = build.build(build.support)
    if status == 0 and build.stale(module_contexts):
        # SwiftPM was seen to report a build of a package whose manifest had just changed as
        # complete without building its new targets; a second build builds them.
        status, output = build.build(build.support)
        if status == 0 and build.stale(module_contexts):
            status, output = 1, f"swift build left {', '.join(build.stale(module_contexts))} unbuilt:\n{output}"
    stats["swift build (the products, contexts and catalogs listings use)"] = time.time() - started
    if status != 0:
        problems.append(Problem(relative(root, build.dir), 1, "the listings' modules do not build (a context?):",
                                [l for l in output.splitlines() if ": error:" in l or ": warning:" in l][:40]
                                or output.splitlines()[-40:]))
        return
    flags = build.flags()

    def compile_one(job):
        listing, source, manifest, main, origin = job
        folder = os.path.join(work, listing.slug())
        os.makedirs(folder, exist_ok=True)
        name = "Package.swift" if manifest else ("Listing.swift" if main else "main.swift")
        path = os.path.join(folder, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(source)
        if manifest:
            pm = os.path.join(os.path.dirname(os.path.dirname(shutil.which("swiftc") or "/usr/bin/swiftc")),
                              "lib", "swift", "pm", "ManifestAPI")
            command = ["swiftc", "-typecheck", path, "-I", pm, "-package-description-version", "6.1.0",
                       "-swift-version", "6", "-diagnostic-style", "llvm"]
        else:
            command = ["swiftc", "-c", path, "-o", os.path.join(folder, "listing.o"), "-module-name", "DocListing",
                       "-swift-version", "6", "-diagnostic-style", "llvm"] + flags
            if main:
                command.append("-parse-as-library")
        status, out, err = run(command, cwd=folder, timeout=300)
        return listing, status, out + err, path, origin

    started = time.time()
    results = parallel(compile_one, jobs, args.jobs)
    stats["swiftc, each listing"] = time.time() - started
    compiled = set()
    for listing, status, output, path, origin in results:
        lines = swift_diagnostics(root, listing, output, path, origin)
        expected = listing.notes.get("compile-error")
        if expected:
            if status == 0:
                problems.append(Problem(listing.doc, listing.line,
                                        f"{listing.name} compiles: remove compile-error=\"{expected}\" from its annotation"))
            elif not any(expected in l for l in lines):
                problems.append(Problem(listing.doc, listing.line,
                                        f"{listing.name} fails to compile, but not with \"{expected}\":", lines))
            continue
        if status != 0:
            head = next((l for l in lines if ": error:" in l), "")
            rest = [l for l in lines if l != head]
            if "Stack dump:" in output:
                # Not the listing's mistake as such: say so, and keep the message, not the backtrace.
                head = "the compiler crashed on it (its message below; rewriting the listing may avoid the crash)"
                rest = rest[:rest.index("Stack dump:")] if "Stack dump:" in rest else rest[:20]
            problems.append(Problem(listing.doc, listing.line, f"{listing.name} does not compile: {head}", rest))
        else:
            compiled.add(id(listing))
            stats.setdefault("swift warnings", []).extend(l for l in lines if ": warning:" in l)
    runnable = [(job[0], f"Listing_{job[0].slug()}") for job in jobs if runs(job) and id(job[0]) in compiled]
    if not runnable:
        return
    started = time.time()
    status, output = build.build()
    stats["swift build (listings that run)"] = time.time() - started
    if status != 0:
        problems.append(Problem(relative(root, build.dir), 1, "the listings that run do not build:",
                                [l for l in output.splitlines() if ": error:" in l][:40] or output.splitlines()[-40:]))
        return
    started = time.time()
    for listing, target in runnable:
        compare_output(listing, [os.path.join(build.bin, target)], tempfile.gettempdir(), problems, stats)
    stats["running listings"] = time.time() - started


def compare_output(listing, command, cwd, problems, stats):
    expected = expected_prints(listing)
    status, out, err = run(command, cwd=cwd, timeout=COMMAND_TIMEOUT)
    stats["ran"] = stats.get("ran", 0) + 1
    actual = out.split("\n")
    if actual and actual[-1] == "":
        actual.pop()
    if status != 0:
        problems.append(Problem(listing.doc, listing.line, f"{listing.name} exits with status {status}:",
                                (out + err).splitlines()[-20:]))
    elif actual != expected:
        problems.append(Problem(listing.doc, listing.line,
                                f"{listing.name} prints something else than its `prints` comments show:",
                                difference(expected, actual)))


def difference(expected, actual):
    import difflib
    return list(difflib.unified_diff(expected, actual, "shown", "printed", lineterm="", n=2))[2:] or ["(the same lines)"]


# ---- C ------------------------------------------------------------------------------------------


def c_source(root, listing, problems):
    """The C file of a listing: its leading #include lines, then its context (a wrapper whose
    /* LISTING */ line the listing replaces, or declarations before it), with #line directives."""
    doc_path = os.path.join(root, listing.doc)
    lines = listing.lines
    head = 0
    while head < len(lines) and (lines[head].startswith("#include") or not lines[head].strip()):
        head += 1
    includes = [f'#line {listing.first} "{doc_path}"'] + lines[:head]
    rest = [f'#line {listing.first + head} "{doc_path}"'] + lines[head:]
    before, after = [], []
    for name in listing.contexts():
        path = context_file(root, name, "c")
        if not os.path.isfile(path):
            problems.append(Problem(listing.doc, listing.note_line or listing.line,
                                    f"{listing.name}: context {name!r} has no file {relative(root, path)}"))
            return None
        with open(path, encoding="utf-8") as f:
            text = f.read().split("\n")
        stripped = [t.strip() for t in text]
        if MARKER["c"] in stripped:
            at = stripped.index(MARKER["c"])
            before += [f'#line 1 "{path}"'] + text[:at]
            after = [f'#line {at + 2} "{path}"'] + text[at + 1:] + after
        else:
            before += [f'#line 1 "{path}"'] + text
    return "\n".join(includes + before + rest + after) + "\n"


def check_c(root, listings, args, problems, stats, tools):
    c = [l for l in listings if l.language == "c"]
    if not c:
        return
    work = os.path.join(root, WORK, "c")
    os.makedirs(work, exist_ok=True)
    compilers = [cc for cc in ("gcc", "clang") if shutil.which(cc)]
    if not compilers:
        problems.append(Problem("scripts/docs/listings.py", 1, "neither gcc nor clang is installed"))
        return
    # Examples/Shop's catalog as a C table (`make gen`), for listings that include shop_catalog.h.
    generated = os.path.join(work, "gen")
    os.makedirs(generated, exist_ok=True)
    shop_c = os.path.join(generated, "shop_catalog.c")
    status, out, err = run([tools.errcat(), "gen", "c", os.path.join(root, "Examples/Shop/Sources/ShopErrors/catalog.json"),
                            "--output", shop_c, "--header", os.path.join(generated, "shop_catalog.h")])
    if status != 0:
        problems.append(Problem("Examples/Shop/Sources/ShopErrors/catalog.json", 1, "errcat gen c failed:", (out + err).splitlines()))
        return
    flags = ["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-I", os.path.join(root, "include"), "-I", generated]
    started = time.time()

    def compile_one(listing):
        source = c_source(root, listing, problems)
        if source is None:
            return
        folder = os.path.join(work, listing.slug())
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "listing.c")
        with open(path, "w", encoding="utf-8") as f:
            f.write(source)
        expected = listing.notes.get("compile-error")
        for cc in compilers:
            status, out, err = run([cc] + flags + ["-c", path, "-o", os.path.join(folder, f"{cc}.o")], timeout=120)
            lines = [l.replace(os.path.join(root, ""), "") for l in (out + err).splitlines()]
            if expected:
                if status == 0:
                    problems.append(Problem(listing.doc, listing.line, f"{listing.name} compiles with {cc}: remove compile-error"))
                elif not any(expected in l for l in lines):
                    problems.append(Problem(listing.doc, listing.line, f"{listing.name} fails with {cc}, but not with \"{expected}\":", lines))
                continue
            if status != 0:
                head = next((l for l in lines if "error" in l), lines[0] if lines else "")
                problems.append(Problem(listing.doc, listing.line, f"{listing.name} does not compile with {cc}: {head}",
                                        [l for l in lines if l != head][:30]))
                continue
            if expected_prints(listing):
                library = tools.libcerrcore()
                exe = os.path.join(folder, f"{cc}.out")
                objects = [os.path.join(folder, f"{cc}.o")]
                if "shop_catalog.h" in source:
                    objects.append(shop_c)
                status, out, err = run([cc] + flags + objects + [library, "-o", exe], timeout=120)
                if status != 0:
                    problems.append(Problem(listing.doc, listing.line, f"{listing.name} does not link with {cc}:",
                                            (out + err).splitlines()[:30]))
                    continue
                compare_output(listing, [exe], folder, problems, stats)

    parallel(compile_one, c, args.jobs)
    stats["C listings"] = time.time() - started


# ---- JSON and Python ----------------------------------------------------------------------------


def check_json(root, listings, problems, tools):
    for listing in (l for l in listings if l.language == "json"):
        text = "\n".join(listing.lines)
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            problems.append(Problem(listing.doc, listing.numbers[error.lineno - 1] if error.lineno <= len(listing.numbers) else listing.line,
                                    f"{listing.name} is not JSON: {error.msg} (column {error.colno})"))
            continue
        is_catalog = isinstance(value, dict) and str(value.get("format", "")).startswith("swifterr-catalog/")
        if listing.notes.get("catalog") or is_catalog:
            with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
                f.write(text)
            status, out, err = run([tools.errcat(), "check", f.name])
            os.unlink(f.name)
            if status != 0:
                # errcat names the temporary file's line: the document's line is that plus the fence's.
                lines = []
                for l in (out + err).splitlines():
                    m = re.match(re.escape(f.name) + r":(\d+):(\d+): (.*)$", l)
                    lines.append(f"{listing.doc}:{listing.first + int(m.group(1)) - 1}:{m.group(2)}: {m.group(3)}" if m else l)
                problems.append(Problem(listing.doc, listing.line, f"{listing.name} is not a valid catalog (errcat check):", lines))


def check_python(listings, problems):
    for listing in (l for l in listings if l.language == "python"):
        try:
            compile("\n".join(listing.lines) + "\n", listing.doc, "exec")
        except SyntaxError as error:
            line = listing.numbers[error.lineno - 1] if error.lineno and error.lineno <= len(listing.numbers) else listing.line
            problems.append(Problem(listing.doc, line, f"{listing.name} is not Python: {error.msg}"))


# ---- shell --------------------------------------------------------------------------------------


class Tools:
    """errcat and libcerrcore.a from the repository's build, built when missing."""

    def __init__(self, root, args):
        self.root, self.args = root, args
        self._errcat = None
        self._library = None

    def errcat(self):
        if self._errcat is None:
            command = ["swift", "build", "--package-path", self.root, "--scratch-path", self.args.root_scratch,
                       "--product", "errcat"]
            s, bin_path, _ = run(command + ["--show-bin-path"])
            path = os.path.join(bin_path.strip(), "errcat")
            if not os.access(path, os.X_OK):
                status, out, err = run(command)
                if status != 0:
                    raise SystemExit(f"listings: cannot build errcat:\n{out}{err}")
            self._errcat = path
        return self._errcat

    def libcerrcore(self):
        if self._library is None:
            path = os.path.join(self.root, "build", "libcerrcore.a")
            if not os.path.isfile(path):
                status, out, err = run(["make", "-C", self.root, "build/libcerrcore.a"])
                if status != 0:
                    raise SystemExit(f"listings: cannot build build/libcerrcore.a:\n{out}{err}")
            self._library = path
        return self._library


SHELL_PRELUDE = r"""
# `swift run [-c CONFIGURATION] errcat ARGS` runs the repository's errcat; other swift commands
# are not run by the listings check.
swift() {
    if [ "$1" = run ]; then
        shift
        while [ $# -gt 0 ]; do
            case $1 in -c|--configuration) shift 2 ;; -*) shift ;; *) break ;; esac
        done
        if [ "$1" = errcat ]; then shift; errcat "$@"; return; fi
    fi
    echo "listings: 'swift $*' is not run by the listings check: mark the listing skip=\"…\"" >&2
    return 127
}
"""


class Shell:
    def __init__(self, root, tools, problems):
        self.root, self.tools, self.problems = root, tools, problems
        self.copy = None

    def repository(self):
        """A copy of the repository's tracked files, with errcat on PATH."""
        if self.copy is None:
            self.temp = tempfile.mkdtemp(prefix="listings-sh-")
            self.copy = os.path.join(self.temp, "repository")
            for f in tracked_files(self.root):
                target = os.path.join(self.copy, f)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copy2(os.path.join(self.root, f), target, follow_symlinks=False)
            bindir = os.path.join(self.temp, "bin")
            os.makedirs(bindir)
            os.symlink(self.tools.errcat(), os.path.join(bindir, "errcat"))
            self.env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""),
                            LC_ALL="C.UTF-8", LANG="C.UTF-8", LANGUAGE="")
        return self.copy

    def cleanup(self):
        if self.copy is not None:
            shutil.rmtree(self.temp, ignore_errors=True)

    def setup_lines(self, listing):
        lines = []
        for name in listing.contexts():
            path = context_file(self.root, name, "sh")
            if not os.path.isfile(path):
                self.problems.append(Problem(listing.doc, listing.note_line or listing.line,
                                             f"{listing.name}: context {name!r} has no file {relative(self.root, path)}"))
                return None
            lines.append(f". {shlex.quote(path)}")
        if "setup" in listing.notes:
            lines.append(listing.notes["setup"])
        return lines

    def cwd(self, listing):
        folder = os.path.join(self.repository(), listing.notes.get("cwd", "."))
        if not os.path.isdir(folder):
            self.problems.append(Problem(listing.doc, listing.note_line or listing.line,
                                         f"{listing.name}: cwd={listing.notes['cwd']} is not a folder of the repository"))
            return None
        return folder

    def session(self, listing):
        """`$ command` lines and the output each shows, up to the next `$` line."""
        commands = []  # (line number, command, expected lines)
        i = 0
        lines = listing.lines
        while i < len(lines):
            if lines[i].startswith("$ "):
                number, command = listing.numbers[i], lines[i][2:]
                while command.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    command = command[:-1] + "\n" + lines[i]
                expected = []
                i += 1
                while i < len(lines) and not lines[i].startswith("$ "):
                    expected.append(lines[i])
                    i += 1
                while expected and not expected[-1].strip():
                    expected.pop()
                commands.append((number, command, expected))
            elif not lines[i].strip():
                i += 1
            else:
                self.problems.append(Problem(listing.doc, listing.numbers[i],
                                             f"{listing.name}: a session's first line must be a `$ command`"))
                return
        setup = self.setup_lines(listing)
        cwd = self.cwd(listing)
        if setup is None or cwd is None:
            return
        marker = "@@listings-" + hashlib.sha1(listing.where().encode()).hexdigest()[:12]
        script = [SHELL_PRELUDE]
        script += [f"{{ {s}\n}} >/dev/null 2>&1 || {{ echo '{marker} setup failed'; exit 97; }}" for s in setup]
        for n, (number, command, _) in enumerate(commands):
            script.append(f"echo '{marker} {n}'")
            script.append(f"{{ {command}\n}} 2>&1")
            script.append(f"echo \"{marker} status $?\"")
        status, out, err = run(["bash", "-c", "\n".join(script)], cwd=cwd, env=self.env, timeout=COMMAND_TIMEOUT)
        if f"{marker} setup failed" in out:
            self.problems.append(Problem(listing.doc, listing.note_line or listing.line,
                                         f"{listing.name}: its setup or context fails"))
            return
        pieces = re.split(rf"^{re.escape(marker)} (\d+)\n", out, flags=re.M)
        outputs = {}
        for k in range(1, len(pieces) - 1, 2):
            body = pieces[k + 1]
            m = re.search(rf"^{re.escape(marker)} status (\d+)\n?\Z", body, flags=re.M)
            code = int(m.group(1)) if m else None
            if m:
                body = body[:m.start()]
            outputs[int(pieces[k])] = (body.split("\n")[:-1] if body.endswith("\n") else body.split("\n") if body else [], code)
        for n, (number, command, expected) in enumerate(commands):
            if n not in outputs:
                self.problems.append(Problem(listing.doc, number, f"{listing.name}: `{command}` did not run "
                                             f"(status {status}){': ' + err.strip() if err.strip() else ''}"))
                break
            actual, code = outputs[n]
            if code is None:
                self.problems.append(Problem(listing.doc, number, f"{listing.name}: `{command}` did not finish", actual[-10:]))
                break
            if expected:
                if not matches(expected, actual):
                    self.problems.append(Problem(listing.doc, number,
                                                 f"{listing.name}: `{command}` prints something else than shown:",
                                                 difference(expected, actual)))
            elif code != 0:
                self.problems.append(Problem(listing.doc, number,
                                             f"{listing.name}: `{command}` exits with status {code}:", actual[-15:]))

    def commands(self, listing):
        """A command list, run (annotation `run`: each command must succeed) or checked."""
        setup = self.setup_lines(listing)
        cwd = self.cwd(listing)
        if setup is None or cwd is None:
            return
        text = "\n".join(listing.lines)
        status, out, err = run(["bash", "-n"], input=text)
        if status != 0:
            self.problems.append(Problem(listing.doc, listing.line, f"{listing.name} is not valid shell:",
                                         err.strip().splitlines()))
            return
        if listing.notes.get("run"):
            script = SHELL_PRELUDE + "\n".join(setup) + "\nset -e\n" + text + "\n"
            status, out, err = run(["bash", "-c", script], cwd=cwd, env=self.env, timeout=COMMAND_TIMEOUT)
            if status != 0:
                self.problems.append(Problem(listing.doc, listing.line, f"{listing.name} fails (status {status}):",
                                             (out + err).splitlines()[-20:]))
            return
        for number, words in shell_commands(listing):
            problem = self.check_command(words, cwd)
            if problem:
                self.problems.append(Problem(listing.doc, number, f"{listing.name}: {problem}"))
            if words and words[0] == "cd" and len(words) > 1 and os.path.isdir(os.path.join(cwd, words[1])):
                cwd = os.path.normpath(os.path.join(cwd, words[1]))

    def errcat_commands(self):
        if not hasattr(self, "_subcommands"):
            status, out, err = run([self.tools.errcat(), "--help"])
            self._subcommands = set(re.findall(r"^  ([a-z]+) ", out, flags=re.M))
        return self._subcommands

    def make_targets(self, cwd):
        status, out, err = run(["make", "-C", cwd, "-pRrq", ":"])
        targets = set()
        for line in out.splitlines():
            m = re.match(r"^([A-Za-z0-9_][A-Za-z0-9_./-]*):(?!=)", line)
            if m:
                targets.add(m.group(1))
        return targets

    def check_command(self, words, cwd):
        """What is wrong with one command of a list: a missing program, target, subcommand or path."""
        if not words:
            return None
        program, args = words[0], words[1:]
        if program == "cd":
            return None if args and os.path.isdir(os.path.join(cwd, args[0])) else f"`cd {' '.join(args)}`: no such folder"
        if program == "make":
            targets = self.make_targets(cwd)
            for a in args:
                if not a.startswith("-") and "=" not in a and a not in targets:
                    return f"`make {a}`: no such target in {relative(self.copy, os.path.join(cwd, 'Makefile'))}"
            return None
        if program == "swift" and args[:1] == ["run"]:
            rest = args[1:]
            while rest and rest[0].startswith("-"):
                rest = rest[2:] if rest[0] in ("-c", "--configuration") else rest[1:]
            if not rest:
                return None
            product = rest[0]
            manifest = os.path.join(cwd, "Package.swift")
            text = open(manifest, encoding="utf-8").read() if os.path.isfile(manifest) else ""
            if not re.search(rf'(?:executable|executableTarget)\(\s*name:\s*"{re.escape(product)}"', text):
                return f"`swift run {product}`: no executable {product!r} in {relative(self.copy, manifest)}"
            program, args = product, rest[1:]
        if os.path.basename(program) == "errcat":
            if args and not args[0].startswith("-") and args[0] not in self.errcat_commands():
                return f"`errcat {args[0]}`: errcat has no such command"
        elif "/" in program and not program.startswith((".build", "$", "/")) and ".build" not in program.split("/"):
            path = os.path.join(cwd, program)
            if not os.path.isfile(path) or not os.access(path, os.X_OK):
                return f"`{program}`: no such executable file"
        for a in args:
            value = a.split("=", 1)[1] if a.startswith("-") and "=" in a else a
            if "/" not in value or re.search(r"[*?<>{}$@:~]|^\.build|/\.build", value) or value.startswith(("/", "-")):
                continue
            first = value.split("/")[0]
            if os.path.exists(os.path.join(cwd, first)) and not os.path.exists(os.path.join(cwd, value)):
                return f"`{value}`: no such file or folder"
        return None


def shell_commands(listing):
    """(line number, words) of each simple command of a command list; comments removed."""
    found = []
    pending, start = "", None
    for number, line in zip(listing.numbers, listing.lines):
        text = strip_comment(line)
        if start is None:
            start = number
        pending += text
        if pending.endswith("\\"):
            pending = pending[:-1] + " "
            continue
        for part in re.split(r"&&|\|\||;|\||&(?!>)", pending):
            try:
                words = shlex.split(part, comments=False)
            except ValueError:
                words = part.split()
            while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
                words = words[1:]
            if words and words[0] in ("export", "then", "do", "else", "time", "exec"):
                words = []
            if words:
                found.append((start, words))
        pending, start = "", None
    return found


def strip_comment(line):
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i].rstrip()
    return line.rstrip()


def matches(expected, actual):
    """Exact match, where a line `…` or `...` stands for any number of lines."""
    if not expected:
        return not actual
    if expected[0].strip() in ("…", "..."):
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])


def check_sh(root, listings, problems, tools, stats):
    shell = [l for l in listings if l.language == "sh"]
    if not shell:
        return
    started = time.time()
    runner = Shell(root, tools, problems)
    try:
        runner.repository()
        for listing in shell:
            if any(l.startswith("$ ") for l in listing.lines):
                runner.session(listing)
            else:
                runner.commands(listing)
    finally:
        runner.cleanup()
    stats["shell listings"] = time.time() - started


# ---- the check ----------------------------------------------------------------------------------


def collect(root, only=None):
    markdown, swift = documents(tracked_files(root))
    if os.path.isfile(os.path.join(root, "CONTRIBUTING.md")) and "CONTRIBUTING.md" not in markdown:
        markdown.insert(0, "CONTRIBUTING.md")
    listings, problems = [], []
    for doc in markdown + swift:
        if only and doc not in only:
            continue
        found, issues = read_document(root, doc)
        listings += found
        problems += issues
    return listings, problems


def check(root, listings, problems, args, plan):
    """Runs every checker over `listings` (of this run's package); `plan` is every listing of the
    package, from which the generated Swift package is made. Returns the timing stats."""
    stats = {}
    tools = Tools(root, args)
    active = []
    for listing in listings:
        if listing.language not in LANGUAGES or listing.language == "text" or "skip" in listing.notes:
            continue
        if not in_scope(listing, args.scope):
            continue
        missing = [p for p in listing.packages() if not os.path.isfile(os.path.join(root, p, "Package.swift"))]
        if missing:
            problems.append(Problem(listing.doc, listing.note_line or listing.line,
                                    f"{listing.name}: package={missing[0]} is not a package of the repository"))
            continue
        active.append(listing)
    check_json(root, active, problems, tools)
    check_python(active, problems)
    check_swift(root, active, plan, args, problems, stats)
    check_c(root, active, args, problems, stats, tools)
    if not args.scope:
        check_sh(root, active, problems, tools, stats)
    return stats, active


def summary(listings, active, args, out):
    if args.scope:
        listings = [l for l in listings if set(args.scope) & set(l.packages())]
    per_doc = {}
    for listing in listings:
        per_doc.setdefault(listing.doc, {}).setdefault(listing.language or "(none)", []).append(listing)
    totals = {}
    for listing in listings:
        totals[listing.language or "(none)"] = totals.get(listing.language or "(none)", 0) + 1
    print("listings: " + ", ".join(f"{n} {k}" for k, n in sorted(totals.items(), key=lambda kv: -kv[1])), file=out)
    active_ids = {id(l) for l in active}
    for doc in sorted(per_doc):
        parts = []
        for language, items in sorted(per_doc[doc].items()):
            notes = []
            skipped = sum(1 for l in items if "skip" in l.notes)
            elsewhere = sum(1 for l in items if not in_scope(l, args.scope) and "skip" not in l.notes and language != "text")
            ran = sum(1 for l in items if id(l) in active_ids and expected_prints(l) and language in ("swift", "c"))
            sessions = sum(1 for l in items if id(l) in active_ids and language == "sh" and any(x.startswith("$ ") for x in l.lines))
            if ran:
                notes.append(f"{ran} run")
            if sessions:
                notes.append(f"{sessions} session{'s' if sessions > 1 else ''}")
            if skipped:
                notes.append(f"{skipped} skipped")
            if elsewhere:
                notes.append(f"{elsewhere} checked {'with their package' if not args.scope else 'elsewhere'}")
            parts.append(f"{language} {len(items)}" + (f" ({', '.join(notes)})" if notes else ""))
        print(f"  {doc}: " + ", ".join(parts), file=out)
    skipped = [l for l in listings if "skip" in l.notes]
    if skipped:
        print(f"listings: {len(skipped)} skipped:", file=out)
        for l in skipped:
            print(f"  {l.where()}: {l.name} ({l.language or 'no language'}): {l.notes['skip']}", file=out)
    expected = [l for l in active if "compile-error" in l.notes]
    for l in expected:
        print(f"listings: {l.where()}: {l.name} is expected not to compile: {l.notes['compile-error']}", file=out)


def parse_args(argv):
    parser = argparse.ArgumentParser(description="Compile and run the documentation's code listings.")
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("--package", action="extend", nargs="+",
                        help="check the listings of this package (a folder of the repository; repeatable: one "
                             "generated package for all of them)")
    parser.add_argument("--scratch-path", help="SwiftPM build folder (default: .build)")
    parser.add_argument("-c", "--configuration", default="debug", choices=("debug", "release"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--only", action="append", help="check only this document (repeatable)")
    parser.add_argument("--exclude", action="append", default=[], help="do not check this document (repeatable)")
    parser.add_argument("--list", action="store_true", help="print every listing with its annotation")
    parser.add_argument("--file", action="append",
                        help="check this Markdown file of the repository instead (repeatable), e.g. a draft")
    args = parser.parse_args(argv)
    args.scope = tuple(sorted(os.path.relpath(os.path.abspath(p), ROOT).rstrip("/") for p in args.package or ()))
    args.scratch_path = os.path.abspath(args.scratch_path or os.path.join(ROOT, ".build"))
    # errcat for the shell listings always comes from the root package's debug build.
    args.root_scratch = os.path.abspath(os.path.join(ROOT, ".build")) if args.scope else args.scratch_path
    return args


def main(argv):
    args = parse_args(argv)
    if args.self_test:
        return self_test(args)
    started = time.time()
    everything, problems = collect(ROOT)
    if args.file:
        listings, problems = [], []
        for path in args.file:
            found, issues = read_document(ROOT, os.path.relpath(os.path.abspath(path), ROOT))
            listings += found
            problems += issues
    elif args.only:
        listings = [l for l in everything if l.doc in args.only]
        problems = [p for p in problems if p.doc in args.only]
    else:
        listings = everything
    listings = [l for l in listings if l.doc not in args.exclude]
    problems = [p for p in problems if p.doc not in args.exclude]
    if args.list:
        for l in listings:
            print(f"{l.where()}: {l.name} {l.language or '(none)'} {l.notes}")
        return 0
    if args.scope:
        # The documents' own problems (an unlabelled fence) are the root package's check's.
        problems = [p for p in problems if any(p.doc.startswith(package + "/") for package in args.scope)]
    plan = everything + planted()[0] + (listings if args.file else [])
    stats, active = check(ROOT, listings, problems, args, plan)
    summary(listings, active, args, sys.stdout)
    for key, value in stats.items():
        if isinstance(value, float):
            print(f"listings: {key}: {value:.1f} s")
    warnings = stats.get("swift warnings", [])
    if warnings:
        print(f"listings: {len(warnings)} compiler warnings (not failures):")
        for w in warnings:
            print("  " + w)
    seconds = time.time() - started
    scope = ", ".join(args.scope) or "the root package"
    if problems:
        for p in sorted(problems, key=lambda p: (p.doc, p.line)):
            print(p, file=sys.stderr)
        print(f"listings: FAIL: {len(problems)} problems in the listings of {scope} ({seconds:.0f} s)", file=sys.stderr)
        return 1
    print(f"listings: PASS: {len(active)} listings of {scope} checked in {seconds:.0f} s")
    return 0


# ---- self-test ----------------------------------------------------------------------------------

SELF_TEST_PATH = WORK + "/self-test/planted.md"
SELF_TEST_DOC = """\
# Planted listings

A correct listing, which runs:

<!-- listing: context=self-test -->
```swift
let answer = selfTestAnswer()
print(answer)  // prints "42"
```

A misspelt API:

<!-- listing: context=self-test -->
```swift
let broken = SwiftErrVersion.strnig
```

A wrong shown output:

<!-- listing: context=self-test -->
```swift
print(selfTestAnswer() + 1)  // prints "42"
```

A C function used without its declaration (an implicit declaration, an error under -Werror):

```c
#include <CErrCore.h>

int main(void) {
    return errcore_no_such_function(1);
}
```

A shell command that fails, after one that prints what is shown:

```sh
$ errcat explain 11001
11001: base tokenExpire [reauthenticate, showUser]
  Your session has expired. Please sign in again.
$ errcat explain --no-such-option 11001
```

A fence without a language:

```
a fence without a language
```

A listing marked as not compiling, which does not compile, and one so marked that compiles:

<!-- listing: context=self-test compile-error="cannot find 'selfTestAnswr' in scope" -->
```swift
print(selfTestAnswr())
```

<!-- listing: context=self-test compile-error="cannot find 'selfTestAnswr' in scope" -->
```swift
print(selfTestAnswer())
```

A skipped listing, not compiled:

<!-- listing: skip="planted: a skipped listing is not compiled" -->
```swift
this is not Swift
```
"""


def planted():
    """The self-test's planted document: its listings and their problems."""
    lines = SELF_TEST_DOC.split("\n")
    return extract(SELF_TEST_PATH, lines, list(range(1, len(lines) + 1)), [0] * len(lines), [0])


def self_test(args):
    """Plants a misspelt API, a wrong shown output, a failing C listing, a failing shell command,
    an unlabelled fence and a listing marked compile-error that compiles in a document of its own,
    beside a correct listing, a correctly marked one and a skipped one: each mistake must be
    reported at its line, and nothing else."""
    started = time.time()
    os.makedirs(os.path.join(ROOT, os.path.dirname(SELF_TEST_PATH)), exist_ok=True)
    with open(os.path.join(ROOT, SELF_TEST_PATH), "w", encoding="utf-8") as f:
        f.write(SELF_TEST_DOC)
    listings, problems = read_document(ROOT, SELF_TEST_PATH)
    fence = {l.number: l.line for l in listings}
    failing_command = 1 + SELF_TEST_DOC.split("\n").index("$ errcat explain --no-such-option 11001")
    expected = [
        (fence[2], "listing 2 does not compile", "strnig"),
        (fence[3], "listing 3 prints something else", "+43"),
        (fence[4], "listing 4 does not compile with", "errcore_no_such_function"),
        (failing_command, "`errcat explain --no-such-option 11001` exits with status 2", ""),
        (fence[6], "listing 6: the fence has no language", ""),
        (fence[8], "listing 8 compiles: remove compile-error=", ""),
    ]
    everything, _ = collect(ROOT)
    stats, active = check(ROOT, listings, problems, args, everything + listings)
    failures = []
    reported = [str(p) for p in problems]
    for line, phrase, detail in expected:
        if not any(r.startswith(f"{SELF_TEST_PATH}:{line}: ") and phrase in r and detail in r for r in reported):
            failures.append(f"not reported: {SELF_TEST_PATH}:{line}: {phrase} … {detail}")
    for r in reported:
        if not any(r.startswith(f"{SELF_TEST_PATH}:{line}: ") and phrase in r for line, phrase, _ in expected):
            failures.append(f"reported, but not planted: {r}")
    ran = stats.get("ran", 0)
    if ran < 2:
        failures.append(f"{ran} listings ran; the correct and the wrong output listing should have")
    if failures:
        print("listings --self-test: FAIL", file=sys.stderr)
        for f in failures:
            print("  " + f, file=sys.stderr)
        return 1
    print(f"listings --self-test: PASS: {len(expected)} planted mistakes each reported at their line, "
          f"the correct, the correctly marked and the skipped listing not ({time.time() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
