#!/usr/bin/env bash
# c-check.sh — the C part of the compatibility check: the library and headers of
# OLD_TREE against those of NEW_TREE.
#
# Usage: scripts/compat/c-check.sh OLD_TREE NEW_TREE WORK_DIR
#
# Each tree is a source tree of this repository (its Makefile, include/ and
# Sources/CErrCore at some commit). Prints findings on stdout, one a line
# (KIND<TAB>CHECK<TAB>TEXT, KIND: break, addition or note), and its progress on
# stderr:
#   1. builds WORK_DIR/{old,new}/lib/libcerrcore.so with each tree's own Makefile,
#      CFLAGS=-g (abidiff needs the debug information);
#   2. abi.py: abidiff over both libraries, with each tree's include/ as the public
#      headers (the full report: WORK_DIR/abidiff.txt);
#   3. headers.py: the source-level changes between both include/ directories;
#   4. the old tree's C test runner, compiled against the old headers, run against
#      the new shared library (an old program on the new library, which shows a
#      behaviour change of existing functions that neither 2 nor 3 can see, e.g. a
#      new status for an old input): each failing check is a break. Only when 2
#      and 3 found no break, since after a layout change its results mean nothing,
#      and only when the old tree has the runner (Tests/CErrCoreTests/c or Tests/c).
# Environment: COMPAT_OLD_TESTS=0 skips step 4; COMPAT_MAKE_ARGS, extra arguments for both builds (e.g. WARN= to build
# a tree that no longer compiles with -Werror); CC (default cc); CLANG (for
# headers.py; default /opt/swift/usr/bin/clang).
# Exit status: 0 with the findings printed; 2 when a step could not run.
set -euo pipefail

if [ $# -ne 3 ]; then
    echo "usage: $0 OLD_TREE NEW_TREE WORK_DIR" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
old_tree=$(cd "$1" && pwd)
new_tree=$(cd "$2" && pwd)
mkdir -p "$3"
work=$(cd "$3" && pwd)
CC=${CC:-cc}
read -r -a make_args <<<"${COMPAT_MAKE_ARGS:-}"

step() { echo "compat: C: $*" >&2; }
die() {
    echo "compat: C: $*" >&2
    exit 2
}

build_lib() { # TREE OUT_DIR
    local log=$2.log
    mkdir -p "$2"
    if ! make -s -C "$1" BUILD="$2" CFLAGS=-g "${make_args[@]}" "$2/libcerrcore.so" >"$log" 2>&1; then
        cat "$log" >&2
        die "building $1 failed"
    fi
}

step "building both libraries with -g ($old_tree, $new_tree)"
build_lib "$old_tree" "$work/old/lib"
build_lib "$new_tree" "$work/new/lib"

findings=$work/findings.tsv
step "abidiff (report: $work/abidiff.txt)"
python3 "$here/abi.py" "$work/old/lib/libcerrcore.so" "$old_tree/include" \
    "$work/new/lib/libcerrcore.so" "$new_tree/include" "$work/abidiff.txt" >"$findings" ||
    die "abidiff could not compare the libraries"
step "public headers (clang's AST and macros)"
python3 "$here/headers.py" "$old_tree/include" "$new_tree/include" >>"$findings" ||
    die "the header check could not run"

old_tests=
for d in Tests/CErrCoreTests/c Tests/c; do
    if [ -f "$old_tree/$d/main.c" ]; then
        old_tests=$old_tree/$d
        break
    fi
done
if grep -q '^break' "$findings"; then
    printf 'note\tC behaviour (old tests, new library)\tnot run: the ABI or the headers changed, so an old program cannot run on the new library\n' >>"$findings"
elif [ "${COMPAT_OLD_TESTS:-1}" = 0 ]; then
    printf 'note\tC behaviour (old tests, new library)\tnot run (COMPAT_OLD_TESTS=0)\n' >>"$findings"
elif [ -z "$old_tests" ]; then
    printf 'note\tC behaviour (old tests, new library)\tnot run: the old tree has no C test runner\n' >>"$findings"
else
    step "the old tree's C tests, compiled against its headers, run against the new libcerrcore.so"
    objs=$work/old-tests
    rm -rf "$objs"
    mkdir -p "$objs"
    for src in "$old_tests"/*.c; do
        "$CC" -std=c11 -O2 -w -I"$old_tree/include" -I"$old_tests" -c "$src" -o "$objs/$(basename "$src" .c).o" ||
            die "compiling $src failed"
    done
    soname=$(readelf -d "$work/new/lib/libcerrcore.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p')
    [ -n "$soname" ] || die "$work/new/lib/libcerrcore.so has no soname"
    ln -sf libcerrcore.so "$work/new/lib/$soname"
    if ! "$CC" -o "$objs/c-tests" "$objs"/*.o -L"$work/new/lib" -lcerrcore >"$objs/link.log" 2>&1; then
        sed 's/^/    /' "$objs/link.log" >&2
        printf 'break\tC behaviour (old tests, new library)\tthe old C tests do not link against the new library: %s\n' \
            "$(grep -o "undefined reference to [^ ]*" "$objs/link.log" | sort -u | tr '\n' ' ')" >>"$findings"
    else
        set +e
        LD_LIBRARY_PATH=$work/new/lib "$objs/c-tests" >"$objs/run.out" 2>"$objs/run.err"
        status=$?
        set -e
        summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$objs/run.out" | tail -1)
        step "old tests on the new library: ${summary:-no summary line} (exit $status)"
        { grep '^FAIL ' "$objs/run.err" || true; } | while IFS= read -r line; do
            line=${line#FAIL }
            printf 'break\tC behaviour (old tests, new library)\tbaseline test %s\n' "${line#"$old_tree"/}"
        done >>"$findings"
        if [ "$status" -ne 0 ] && ! grep -q '^FAIL ' "$objs/run.err"; then
            printf 'break\tC behaviour (old tests, new library)\tthe old C tests exit %s with no failed check (a crash?): %s\n' \
                "$status" "$(tail -3 "$objs/run.err" | tr '\n' ' ')" >>"$findings"
        fi
    fi
fi
cat "$findings"
