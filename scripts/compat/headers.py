#!/usr/bin/env python3
"""headers.py — source-level differences between two sets of public C headers.

Usage: scripts/compat/headers.py OLD_INCLUDE_DIR NEW_INCLUDE_DIR [--clang CLANG]

Parses each directory's headers (a translation unit including every *.h in it)
with clang twice: `-Xclang -ast-dump=json -fsyntax-only` for the declarations and
`-dM -E` for the macros. Only declarations spelled in the directory's own files
count, and only macros named ERRCORE_* (every public macro has that prefix; include
guards, ERRCORE_*_H with an empty body, are left out). Prints one finding a line,
tab-separated: KIND, the check's name ("C headers") and what was found, where
KIND is

  break     a change that breaks a program written or compiled against the old
            headers: a function, type, typedef, enumerator or macro removed; a
            function's prototype or a typedef's type changed; an enumerator
            renumbered; a struct member added, removed, renamed, retyped or
            moved (users allocate and initialise every public struct, so any
            member change breaks them); a static inline function's body changed
            (it is compiled into the callers); a macro's value changed, except
            the ERRCORE_VERSION_* macros, which must change, and a count macro
            that grows exactly with its enum (below);
  addition  something new that breaks nothing: a function, type, typedef,
            enumerator or macro added; a macro whose value counts an enum's
            enumerators (ERRCORE_STATUS_COUNT) grown by the enumerators added.

Added enumerators are additions: a program must treat a value it does not know
(a newer library's new status) as the headers say, e.g. errcore_status_string()
gives "unknown status". Exit status: 0 (findings or not), 2 when clang fails or
the arguments are wrong.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

CHECK = "C headers"
VERSION_MACROS = {
    "ERRCORE_VERSION_MAJOR",
    "ERRCORE_VERSION_MINOR",
    "ERRCORE_VERSION_PATCH",
    "ERRCORE_VERSION_NUMBER",
    "ERRCORE_VERSION_STRING",
}
FLAGS = ["-x", "c", "-std=c11"]


def fail(message):
    print(f"headers.py: {message}", file=sys.stderr)
    sys.exit(2)


def translation_unit(include_dir, scratch):
    headers = sorted(f for f in os.listdir(include_dir) if f.endswith(".h"))
    if not headers:
        fail(f"no headers in {include_dir}")
    path = os.path.join(scratch, "all_headers.c")
    with open(path, "w") as f:
        for h in headers:
            f.write(f'#include "{h}"\n')
    return path


def run_clang(clang, args):
    result = subprocess.run([clang, *args], capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"{clang} {' '.join(args)} failed:\n{result.stderr}")
    return result.stdout


def tokens_only(text):
    """Source text without comments and without the white space that does not separate two
    words, so that reformatting (a line wrap, `a+b` or `a + b`) changes nothing."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = " ".join(text.split())
    return re.sub(r"(?<=\W) | (?=\W)", "", text)


def normalise_type(qual_type):
    # Unnamed types are printed with the place they were written: drop it.
    return re.sub(r"\((unnamed|anonymous)( (struct|union|enum))? at [^)]*\)", "(unnamed)", qual_type)


class Locations:
    """clang's JSON prints a location's file only when it differs from the last one
    printed; walking the dump in order recovers the file of every location."""

    def __init__(self):
        self.file = None

    def walk(self, node):
        if isinstance(node, dict):
            if "offset" in node or "spellingLoc" in node or "expansionLoc" in node:
                if "file" in node:
                    self.file = node["file"]
                node["_file"] = self.file
            for key, value in node.items():
                if key in ("includedFrom", "_file"):
                    continue
                self.walk(value)
        elif isinstance(node, list):
            for item in node:
                self.walk(item)


def plain_loc(loc):
    """The location itself, or where a macro expanded it."""
    if "offset" in loc:
        return loc
    return loc.get("expansionLoc") or loc.get("spellingLoc") or {}


def declarations(include_dir, clang, scratch):
    """Declarations spelled in include_dir's files: {key: description}."""
    tu = translation_unit(include_dir, scratch)
    dump = json.loads(run_clang(clang, [*FLAGS, "-I", include_dir, "-Xclang", "-ast-dump=json", "-fsyntax-only", tu]))
    Locations().walk(dump)
    root = os.path.realpath(include_dir)
    texts = {}

    def in_dir(decl):
        begin = plain_loc(decl.get("range", {}).get("begin", {}))
        path = begin.get("_file")
        if path is None:
            return None
        real = os.path.realpath(path)  # relative paths are relative to the working directory, as clang's
        return real if os.path.dirname(real) == root else None

    def source(path, decl):
        if path not in texts:
            with open(path, encoding="utf-8", errors="replace") as f:
                texts[path] = f.read()
        begin = plain_loc(decl["range"]["begin"])
        end = plain_loc(decl["range"]["end"])
        return texts[path][begin["offset"] : end["offset"] + end.get("tokLen", 0)]

    decls = {}
    for decl in dump.get("inner", []):
        if decl.get("isImplicit"):
            continue
        path = in_dir(decl)
        if path is None:
            continue
        kind, name = decl.get("kind"), decl.get("name")
        if kind == "FunctionDecl":
            d = {"kind": "function", "type": normalise_type(decl["type"]["qualType"])}
            if decl.get("inline") or decl.get("storageClass") == "static":
                d["kind"] = "static inline function"
                if any(n.get("kind") == "CompoundStmt" for n in decl.get("inner", [])):
                    d["body"] = tokens_only(source(path, decl))
            decls[f"function {name}"] = d
        elif kind == "VarDecl":
            decls[f"variable {name}"] = {"kind": "variable", "type": normalise_type(decl["type"]["qualType"])}
        elif kind == "TypedefDecl":
            decls[f"typedef {name}"] = {"kind": "typedef", "type": normalise_type(decl["type"]["qualType"])}
        elif kind == "RecordDecl" and decl.get("completeDefinition") and name:
            members = [
                (f["name"], normalise_type(f["type"]["qualType"]))
                for f in decl.get("inner", [])
                if f.get("kind") == "FieldDecl"
            ]
            decls[f"{decl.get('tagUsed', 'struct')} {name}"] = {"kind": "struct", "members": members}
        elif kind == "EnumDecl" and name:
            values, value = [], -1
            for e in decl.get("inner", []):
                if e.get("kind") != "EnumConstantDecl":
                    continue
                explicit = [c for c in e.get("inner", []) if "value" in c]
                value = int(explicit[0]["value"]) if explicit else value + 1
                values.append((e["name"], value))
            decls[f"enum {name}"] = {"kind": "enum", "values": values}
    return decls


def macros(include_dir, clang, scratch):
    tu = translation_unit(include_dir, scratch)
    found = {}
    for line in run_clang(clang, [*FLAGS, "-I", include_dir, "-dM", "-E", tu]).splitlines():
        m = re.match(r"#define ((ERRCORE|errcore)_\w*)(\([^)]*\))?(?: (.*))?$", line)
        if not m:
            continue
        name, params, body = m.group(1), m.group(3) or "", (m.group(4) or "").strip()
        if name.endswith("_H") and not params and not body:
            continue  # an include guard
        found[name] = params + (" " if params else "") + body
    return found


def as_int(text):
    try:
        return int(text.rstrip("uUlL"), 0)
    except ValueError:
        return None


def name_of(key):
    """The C identifier of a declaration key ("function errcore_build" -> errcore_build)."""
    return key.split()[-1]


def compare(old_decls, new_decls, old_macros, new_macros):
    """(breaks, additions): lists of (names, text), names the identifiers users write."""
    breaks, additions = [], []

    for key in sorted(old_decls.keys() - new_decls.keys()):
        breaks.append((name_of(key), f"{key} removed"))
    for key in sorted(new_decls.keys() - old_decls.keys()):
        additions.append((name_of(key), f"{key} added"))

    grown = {}  # enum name -> (old count, new count) when it only grew
    for key in sorted(old_decls.keys() & new_decls.keys()):
        old, new = old_decls[key], new_decls[key]
        if old["kind"] != new["kind"]:
            breaks.append((name_of(key), f"{key}: was a {old['kind']}, now a {new['kind']}"))
            continue
        if old["kind"] in ("function", "static inline function", "variable", "typedef"):
            if old["type"] != new["type"]:
                breaks.append((name_of(key), f"{key}: type changed from '{old['type']}' to '{new['type']}'"))
            if old.get("body") != new.get("body") and "body" in old:
                breaks.append((name_of(key), f"{key}: body changed (a static inline function is compiled into its callers)"))
        elif old["kind"] == "struct":
            breaks.extend(compare_members(key, old["members"], new["members"]))
        elif old["kind"] == "enum":
            old_values, new_values = dict(old["values"]), dict(new["values"])
            only_grew = True
            for name, value in old["values"]:
                if name not in new_values:
                    breaks.append((f"{name},{name_of(key)}", f"{key}: enumerator {name} (= {value}) removed"))
                    only_grew = False
                elif new_values[name] != value:
                    breaks.append((f"{name},{name_of(key)}", f"{key}: enumerator {name} renumbered from {value} to {new_values[name]}"))
                    only_grew = False
            for name, value in new["values"]:
                if name not in old_values:
                    additions.append((name, f"{key}: enumerator {name} = {value} added"))
            if only_grew:
                grown[key] = (len(old["values"]), len(new["values"]))

    for name in sorted(old_macros.keys() - new_macros.keys()):
        breaks.append((name, f"macro {name} removed (was '{old_macros[name]}')"))
    for name in sorted(new_macros.keys() - old_macros.keys()):
        additions.append((name, f"macro {name} added: '{new_macros[name]}'"))
    for name in sorted(old_macros.keys() & new_macros.keys()):
        old, new = old_macros[name], new_macros[name]
        if old == new or name in VERSION_MACROS:
            continue
        old_n, new_n = as_int(old), as_int(new)
        counted = [
            enum for enum, (old_count, new_count) in grown.items()
            if old_n == old_count and new_n == new_count and new_count > old_count
        ]
        if counted:
            additions.append((name, f"macro {name} changed from '{old}' to '{new}': the count of {counted[0]}, which grew"))
        else:
            breaks.append((name, f"macro {name} changed from '{old}' to '{new}'"))
    return breaks, additions


def compare_members(key, old, new):
    found = []
    old_names = [n for n, _ in old]
    new_names = [n for n, _ in new]
    old_types, new_types = dict(old), dict(new)
    for i, (name, typ) in enumerate(new):
        if name not in old_types:
            found.append((f"{name_of(key)}.{name},{name_of(key)}", f"{key}: member '{name}' ({typ}) added, as member {i + 1} of {len(new)}"))
    for name, typ in old:
        if name not in new_types:
            found.append((f"{name_of(key)}.{name},{name_of(key)}", f"{key}: member '{name}' ({typ}) removed"))
        elif new_types[name] != typ:
            found.append((f"{name_of(key)}.{name},{name_of(key)}", f"{key}: member '{name}' retyped from '{typ}' to '{new_types[name]}'"))
    common_old = [n for n in old_names if n in new_types]
    common_new = [n for n in new_names if n in old_types]
    if common_old != common_new:
        found.append((name_of(key), f"{key}: members reordered ({', '.join(common_old)} -> {', '.join(common_new)})"))
    return found


def main(argv):
    args = list(argv)
    clang = os.environ.get("CLANG") or "/opt/swift/usr/bin/clang"
    if "--clang" in args:
        i = args.index("--clang")
        if i + 1 >= len(args):
            fail("--clang needs a path")
        clang = args[i + 1]
        del args[i : i + 2]
    if len(args) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    old_dir, new_dir = args
    for d in (old_dir, new_dir):
        if not os.path.isdir(d):
            fail(f"no directory {d}")
    with tempfile.TemporaryDirectory() as scratch:
        old_s = os.path.join(scratch, "old")
        new_s = os.path.join(scratch, "new")
        os.mkdir(old_s)
        os.mkdir(new_s)
        breaks, additions = compare(
            declarations(old_dir, clang, old_s),
            declarations(new_dir, clang, new_s),
            macros(old_dir, clang, old_s),
            macros(new_dir, clang, new_s),
        )
    for names, text in breaks:
        print(f"break\t{CHECK}\t{names}\t{text}")
    for names, text in additions:
        print(f"addition\t{CHECK}\t{names}\t{text}")


if __name__ == "__main__":
    main(sys.argv[1:])
