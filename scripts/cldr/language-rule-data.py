#!/usr/bin/env python3
"""language-rule-data.py — prints the CLDR tables of Sources/CErrCore/language_rule.c.

Usage: scripts/cldr/language-rule-data.py CLDR_JSON_DIR          the C tables
       scripts/cldr/language-rule-data.py --facts CLDR_JSON_DIR  the C test's facts
  CLDR_JSON_DIR is a checkout of the cldr-json data (the directory holding cldr-core/).
  The tables replace the part of Sources/CErrCore/language_rule.c between "CLDR data begins"
  and "CLDR data ends" (they name the CLDR version they were made from); the facts are
  Tests/CErrCoreTests/c/cldr_facts.h: for every row of the tables, and every parent of root,
  a tag, a step of its fallback chain and what the step must be, worked out here from the
  CLDR files without the C code's reading of them.

What it reads (all from cldr-core):
  supplemental/likelySubtags.json   the likely script of a language, and of a language in a
                                    region where that differs ("zh-TW": "zh-Hant-TW")
  supplemental/parentLocales.json   parentLocale: parents other than the tag less its last subtag
  supplemental/aliases.json         languageAlias: two-letter codes CLDR replaces ("iw": "he")
  availableLocales.json             full: which languages' locale identifiers carry the script
                                    ("zh-Hans" is a locale: zh is always written with a script)

The languages kept are those CLDR writes in more than one script: the language of every
parentLocale entry whose parent is root ("und", a script other than the likely one), of every
locale identifier with a script, and of every "language-region" likely-subtags entry whose
script differs from the language's own likely script. For every other language a script
subtag is compared as written.
"""
import json
import os
import re
import sys


def load(root, *path):
    with open(os.path.join(root, "cldr-core", *path), encoding="utf-8") as f:
        return json.load(f)


def main():
    facts = len(sys.argv) == 3 and sys.argv[1] == "--facts"
    if len(sys.argv) != 2 and not facts:
        sys.exit(__doc__)
    root = sys.argv[-1]
    likely_file = load(root, "supplemental", "likelySubtags.json")["supplemental"]
    version = likely_file["version"]["_cldrVersion"]
    likely = likely_file["likelySubtags"]
    parents = load(root, "supplemental", "parentLocales.json")["supplemental"]["parentLocales"]["parentLocale"]
    aliases = load(root, "supplemental", "aliases.json")["supplemental"]["metadata"]["alias"]["languageAlias"]
    available = load(root, "availableLocales.json")["availableLocales"]["full"]

    def script_of(tag):
        return tag.split("-")[1]

    multi = set()
    for child, parent in parents.items():
        if parent == "und":
            multi.add(child.split("-")[0])
    for locale in available:
        parts = locale.split("-")
        if len(parts) >= 2 and re.fullmatch(r"[A-Z][a-z]{3}", parts[1]):
            multi.add(parts[0])
    exceptions = {}
    for key, value in likely.items():
        parts = key.split("-")
        if len(parts) == 2 and re.fullmatch(r"[a-z]{2,3}", parts[0]) and parts[0] != "und" and parts[0] in likely:
            if re.fullmatch(r"[A-Z]{2}", parts[1]) and script_of(value) != script_of(likely[parts[0]]):
                exceptions[key] = script_of(value)
                multi.add(parts[0])
    multi = sorted(m for m in multi if m in likely)

    shown = {lang for lang in multi if f"{lang}-{script_of(likely[lang])}" in available}

    # Every parent of "und" must follow from the script rule, or it has to be listed.
    for child, parent in parents.items():
        parts = child.split("-")
        if parent == "und":
            assert len(parts) == 2 and parts[0] in multi and parts[1] != script_of(likely[parts[0]]), child

    if facts:
        print_facts(version, likely, multi, shown, exceptions, parents, aliases, script_of)
        return
    print(f"/* CLDR data begins: CLDR {version}, written by scripts/cldr/language-rule-data.py. */")
    print("/* clang-format off */")
    print()
    print("/* Languages CLDR writes in more than one script: the likely script (likelySubtags.json),")
    print(" * and 1 when CLDR's locale identifiers always carry it (availableLocales.json has")
    print(" * \"<language>-<script>\"). Sorted by language for a binary search: keep it sorted. */")
    print("static const errcore__likely_script errcore__likely_scripts[] = {")
    rows = [f'{{"{m}", "{script_of(likely[m])}", {1 if m in shown else 0}}}' for m in multi]
    print(wrap(rows))
    print("};")
    print()
    print("/* Regions where such a language's likely script is another one (likelySubtags.json,")
    print(" * \"<language>-<region>\"). Sorted by language, then region: keep it sorted. */")
    print("static const errcore__region_script errcore__region_scripts[] = {")
    rows = []
    for key in sorted(exceptions, key=lambda k: (k.split("-")[0], k.split("-")[1])):
        lang, region = key.split("-")
        if lang in multi:
            rows.append(f'{{"{lang}", "{region}", "{exceptions[key]}"}}')
    print(wrap(rows))
    print("};")
    print()
    groups = {}
    singles = []
    for child, parent in parents.items():
        parts = child.split("-")
        if parent == "und":
            continue
        if parent == "-".join(parts[:-1]):
            continue  # the tag less its last subtag: no entry needed
        if len(parts) == 2 and re.fullmatch(r"[A-Z]{2}", parts[1]) and parent.split("-")[0] == parts[0]:
            groups.setdefault((parts[0], parent), []).append(parts[1])
        else:
            singles.append((child, parent))
    print("/* Parents that are not the tag less its last subtag, and are not root")
    print(" * (parentLocales.json). Sorted by child: keep it sorted. */")
    print("static const errcore__parent errcore__parents[] = {")
    print(wrap([f'{{"{c}", "{p}"}}' for c, p in sorted(singles)]))
    print("};")
    print()
    print("/* The same for \"<language>-<region>\" by the dozen: the parent of each listed region")
    print(" * (two-letter codes back to back, sorted: keep them sorted). Sorted by language. */")
    for (lang, parent), regions in sorted(groups.items()):
        name = "errcore__regions_" + parent.replace("-", "_")
        print(f"static const char {name}[] =")
        text = "".join(sorted(regions))
        for i in range(0, len(text), 80):
            print(f'    "{text[i:i + 80]}"')
        print("    ;")
    print("static const errcore__region_parent errcore__region_parents[] = {")
    rows = []
    for (lang, parent), regions in sorted(groups.items()):
        rows.append(f'{{"{lang}", "{parent}", errcore__regions_{parent.replace("-", "_")}}}')
    print(wrap(rows))
    print("};")
    print()
    print("/* Two-letter language codes CLDR replaces (aliases.json languageAlias), and cmn.")
    print(" * Sorted by code: keep it sorted. */")
    print("static const errcore__alias errcore__aliases[] = {")
    rows = []
    for code in sorted(list(k for k in aliases if len(k) == 2) + ["cmn"]):
        rows.append(f'{{"{code}", "{aliases[code]["_replacement"]}"}}')
    print(wrap(rows))
    print("};")
    print()
    print("/* clang-format on */")
    print("/* CLDR data ends. */")


def print_facts(version, likely, multi, shown, exceptions, parents, aliases, script_of):
    def tag(lang, script, rest=""):
        """lang's tag with `script` as CLDR writes it (the likely script only where shown)."""
        hidden = lang in multi and lang not in shown and script == script_of(likely[lang])
        return lang + ("" if hidden or not script else "-" + script) + rest

    rows = []
    for lang in multi:
        own = script_of(likely[lang])
        rows.append((lang, 0, tag(lang, own)))
        # A script other than the likely one, with no parent of its own in parentLocales.
        other = next(x for x in ("Latn", "Cyrl", "Grek") if x != own and parents.get(f"{lang}-{x}", "und") == "und")
        rows.append((f"{lang}-{other}", 0, f"{lang}-{other}"))
        rows.append((f"{lang}-{other}", 1, ""))  # a script other than the likely one: root
    for key, script in sorted(exceptions.items()):
        lang, region = key.split("-")
        if lang in multi:
            rows.append((key, 0, tag(lang, script, "-" + region)))
    for child, parent in sorted(parents.items()):
        rows.append((child, 1, "" if parent == "und" else parent))  # "und": the root, no step 1
    for code in sorted(list(k for k in aliases if len(k) == 2) + ["cmn"]):
        replacement = aliases[code]["_replacement"]
        lang = replacement.split("-")[0]
        script = replacement.split("-")[1] if "-" in replacement else (
            script_of(likely[lang]) if lang in multi else "")
        rows.append((code, 0, tag(lang, script)))
    print("/* cldr_facts.h — what CLDR " + version + " says of every row of the language rule's data")
    print(" * (Sources/CErrCore/language_rule.c): a tag, a step of its fallback chain, and that step (\"\": the")
    print(" * chain has no such step). Written by scripts/cldr/language-rule-data.py --facts. */")
    print("#ifndef ERRCORE_TEST_CLDR_FACTS_H")
    print("#define ERRCORE_TEST_CLDR_FACTS_H")
    print()
    print("#include <stddef.h>")
    print()
    print("typedef struct cldr_fact {")
    print("    const char *tag;")
    print("    size_t step;")
    print("    const char *expected;")
    print("} cldr_fact;")
    print()
    print("/* clang-format off */")
    print("static const cldr_fact cldr_facts[] = {")
    print(wrap([f'{{"{t}", {st}, "{e}"}}' for t, st, e in rows]))
    print("};")
    print("/* clang-format on */")
    print()
    print("#endif")


def wrap(items, width=116):
    lines, line = [], "    "
    for item in items:
        piece = item + ","
        if len(line) + len(piece) + 1 > width and line.strip():
            lines.append(line.rstrip())
            line = "    "
        line += piece + " "
    if line.strip():
        lines.append(line.rstrip())
    return "\n".join(lines)


if __name__ == "__main__":
    main()
