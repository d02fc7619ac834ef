#!/usr/bin/env bash
# self-test.sh — proves that the C part of the compatibility check can fail.
#
# Usage: scripts/compat/self-test.sh WORK_DIR   (from the repository root)
#
# On a scratch copy of this tree (Makefile, include/, scripts/, Sources/CErrCore and
# Sources/CErrDefaultCatalog, the C library's sources)
# in WORK_DIR/tree:
#   1. unchanged: c-check.sh of this tree against the copy must find nothing but
#      notes, and the version rule must pass (no false alarm from the copying);
#   2. with a member added to the end of errcore_table (`uint32_t
#      compat_self_test`) and the version unchanged: the version rule must fail,
#      and both abidiff and the header check must name the member;
#   3. headers.py on a copy of include/ with a changed macro value, a renumbered
#      enumerator, a changed prototype, a removed function and a changed static
#      inline body must name each as a break.
# The copy builds with WARN= (its positional initialisers then lack the new
# member, which -Wextra -Werror would reject before the check could see it).
# Exit status: 0 when both hold; 1 when the check missed the break or raised a
# false alarm; 2 when a step could not run (e.g. errcore_table no longer ends with
# its `titles` member, so the member cannot be planted: update PLANT below).
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 WORK_DIR" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
work=$1
version=$(sh scripts/c/version.sh) || exit 2
say() { echo "compat: self-test: $*"; }

rm -rf "$work"
mkdir -p "$work/tree/Sources"
cp -R Makefile include scripts "$work/tree/"
cp -R Sources/CErrCore Sources/CErrDefaultCatalog "$work/tree/Sources/"

run() { # NAME: c-check.sh and the version rule (the version unchanged) on the copy
    bash "$here/c-check.sh" . "$work/tree" "$work/$1" --no-old-tests --make-args "WARN=" \
        >"$work/$1.tsv" 2>"$work/$1.log" || { cat "$work/$1.log" >&2; exit 2; }
    set +e
    python3 "$here/verdict.py" "$work/$1.tsv" "$version" "$version" CHANGELOG.md >"$work/$1.out" 2>&1
    verdict=$?
    set -e
}

run unchanged
if [ "$verdict" -ne 0 ] || grep -qv '^note' "$work/unchanged.tsv"; then
    cat "$work/unchanged.out"
    say "FAIL: an unchanged copy of the tree is reported as changed (exit $verdict)"
    exit 1
fi
say "an unchanged copy passes (no finding, only notes)"

PLANT='    const uint32_t *titles;\n} errcore_table;'
python3 - "$work/tree/include/errcore_table.h" "$PLANT" <<'PY' || exit 2
import sys
path, plant = sys.argv[1], sys.argv[2].replace("\\n", "\n")
text = open(path).read()
if text.count(plant) != 1:
    sys.exit(f"self-test: {path} has no single '{plant!r}' to plant a member after")
open(path, "w").write(text.replace(plant, plant.replace("\n}", "\n    uint32_t compat_self_test;\n}")))
PY
run member
sed 's/^/    | /' "$work/member.out"
missing=
grep -q "^break	C ABI (abidiff)	.*compat_self_test" "$work/member.tsv" || missing="$missing abidiff"
grep -q "^break	C headers	errcore_table.compat_self_test,errcore_table	struct errcore_table: member 'compat_self_test'" \
    "$work/member.tsv" || missing="$missing headers"
if [ "$verdict" -ne 1 ] || [ -n "$missing" ]; then
    say "FAIL: a member added to errcore_table without a version bump was not caught (exit $verdict;" \
        "not named by:${missing:- -})"
    exit 1
fi
say "a member added to errcore_table with the version unchanged fails the check, named by abidiff and the header check"

# The same break with the version raised: the CHANGELOG section must name errcore_table.
next_version=$(echo "$version" | awk -F. '{ printf "%d.%d.0", $1, $2 + 1 }')
printf '## [%s]\n\n- `errcore_classify` is faster.\n\n## [%s]\n\n- `errcore_table` has a new member.\n' \
    "$next_version" "$version" >"$work/unnamed.md"
set +e
python3 "$here/verdict.py" "$work/member.tsv" "$version" "$next_version" "$work/unnamed.md" >"$work/unnamed.out" 2>&1
unnamed=$?
sed "s/^- \`errcore_classify\` is faster./- \`errcore_table\` has a new member, \`compat_self_test\`./" "$work/unnamed.md" >"$work/named.md"
python3 "$here/verdict.py" "$work/member.tsv" "$version" "$next_version" "$work/named.md" >"$work/named.out" 2>&1
named=$?
set -e
if [ "$unnamed" -ne 1 ] || ! grep -q "does not name .*" "$work/unnamed.out" || ! grep -q "^    errcore_table" "$work/unnamed.out" ||
    [ "$named" -ne 0 ]; then
    sed 's/^/    | /' "$work/unnamed.out" "$work/named.out"
    say "FAIL: with the version raised to $next_version, a CHANGELOG section that does not name errcore_table" \
        "should fail (exit $unnamed) and one that does should pass (exit $named)"
    exit 1
fi
say "with the version raised, a section that does not name errcore_table fails, naming it; one that does passes"

# 3. The header check alone, on a copy of include/ with one break of each other kind planted.
rm -rf "$work/include"
cp -R include "$work/include"
python3 - "$work/include" <<'PY' || exit 2
import os, sys
d = sys.argv[1]
plants = [  # file, text, replacement
    ("errcore_table.h", "#define ERRCORE_FLAG_REAUTH    0x02u ", "#define ERRCORE_FLAG_REAUTH    0x20u "),
    ("errcore_status.h", "ERRCORE_E_DUPLICATE_CODE = 3,", "ERRCORE_E_DUPLICATE_CODE = 30,"),
    ("errcore_text.h", "ERRCORE_API size_t errcore_format_int64(int64_t value,", "ERRCORE_API size_t errcore_format_int64(int32_t value,"),
    ("errcore_text.h", "ERRCORE_API const char *errcore_flag_name(unsigned flag);", ""),
    ("errcore_table.h", "return (size_t)((hi ^ front->buckets[hi >> front->bucket_shift]) & front->slot_mask);",
     "return (size_t)((hi + front->buckets[hi >> front->bucket_shift]) & front->slot_mask);"),
]
for name, old, new in plants:
    path = os.path.join(d, name)
    text = open(path).read()
    if text.count(old) != 1:
        sys.exit(f"self-test: {name} has no single {old!r} to change")
    open(path, "w").write(text.replace(old, new))
PY
python3 "$here/headers.py" include "$work/include" >"$work/headers.tsv" || exit 2
missing=
for want in "macro ERRCORE_FLAG_REAUTH changed" "enumerator ERRCORE_E_DUPLICATE_CODE renumbered" \
    "function errcore_format_int64: type changed" "function errcore_flag_name removed" \
    "function errcore_front_position: body changed"; do
    grep -q "^break	C headers	.*$want" "$work/headers.tsv" || missing="$missing; $want"
done
if [ -n "$missing" ]; then
    sed 's/^/    | /' "$work/headers.tsv"
    say "FAIL: the header check missed${missing#;}"
    exit 1
fi
say "the header check names a changed macro, a renumbered enumerator, a changed prototype, a removed function" \
    "and a changed static inline body"
