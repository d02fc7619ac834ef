#!/usr/bin/env bash
# c-check.sh — the C part of the compatibility check: the library and headers of
# OLD_TREE against those of NEW_TREE.
#
# Usage: scripts/compat/c-check.sh OLD_TREE NEW_TREE WORK_DIR [--make-args ARGS] [--no-old-tests]
#   --make-args ARGS  extra make arguments for both library builds (WARN= to try a header change
#                     before the sources that use it compile with -Werror)
#   --no-old-tests    leaves out step 4
#
# Each tree is a source tree of this repository (its Makefile, include/ and
# Sources/CErrCore at some commit). Prints findings on stdout, one a line
# (KIND<TAB>CHECK<TAB>NAMES<TAB>TEXT, KIND: break, addition or note; NAMES the C
# identifiers users write for it), and its progress on
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
# headers.py runs the toolchain's clang (/opt/swift/usr/bin/clang, or CLANG).
# Exit status: 0 with the findings printed; 2 when a step could not run.
set -euo pipefail

if [ $# -lt 3 ]; then
    echo "usage: $0 OLD_TREE NEW_TREE WORK_DIR [--make-args ARGS] [--no-old-tests]" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
old_tree=$(cd "$1" && pwd)
new_tree=$(cd "$2" && pwd)
mkdir -p "$3"
work=$(cd "$3" && pwd)
shift 3
make_args=() old_tests_run=true
while [ $# -gt 0 ]; do
    case $1 in
    --make-args) read -r -a make_args <<<"$2" && shift ;;
    --no-old-tests) old_tests_run=false ;;
    *) echo "c-check: unknown option $1" >&2 && exit 2 ;;
    esac
    shift
done
CC=cc

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
    printf 'note\tC behaviour (old tests, new library)\t\tnot run: the ABI or the headers changed, so an old program cannot run on the new library\n' >>"$findings"
elif ! $old_tests_run; then
    printf 'note\tC behaviour (old tests, new library)\t\tnot run (--no-old-tests)\n' >>"$findings"
elif [ -z "$old_tests" ]; then
    printf 'note\tC behaviour (old tests, new library)\t\tnot run: the old tree has no C test runner\n' >>"$findings"
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
        printf 'break\tC behaviour (old tests, new library)\t\tthe old C tests do not link against the new library: %s\n' \
            "$(grep -o "undefined reference to [^ ]*" "$objs/link.log" | sort -u | tr '\n' ' ')" >>"$findings"
    else
        set +e
        LD_LIBRARY_PATH=$work/new/lib "$objs/c-tests" >"$objs/run.out" 2>"$objs/run.err"
        status=$?
        set -e
        summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$objs/run.out" | tail -1)
        step "old tests on the new library: ${summary:-no summary line} (exit $status)"
        # Two kinds of old check hold only within one build, and fail by design when the version
        # or the statuses grew: the library reporting its header's version (ERRCORE_VERSION_*),
        # and a status value past the old ERRCORE_STATUS_COUNT having no name. They are notes when
        # the version moved or the count grew (additions the header check reports); breaks otherwise.
        macro() { sed -n "s/^#define $1 *\([0-9\"][^ ]*\).*/\1/p" "$2"/include/errcore_*.h | head -1; }
        version_moved=false count_grew=false
        [ "$(macro ERRCORE_VERSION_NUMBER "$old_tree")" = "$(macro ERRCORE_VERSION_NUMBER "$new_tree")" ] ||
            version_moved=true
        [ "$(macro ERRCORE_STATUS_COUNT "$old_tree")" -ge "$(macro ERRCORE_STATUS_COUNT "$new_tree")" ] ||
            count_grew=true
        { grep '^FAIL ' "$objs/run.err" || true; } | while IFS= read -r line; do
            line=${line#FAIL }
            kind=break
            case $line in
            *ERRCORE_VERSION_*) ! $version_moved || kind=note ;;
            *ERRCORE_STATUS_COUNT*) ! $count_grew || kind=note ;;
            esac
            printf '%s\tC behaviour (old tests, new library)\t\tbaseline test %s%s\n' "$kind" "${line#"$old_tree"/}" \
                "$([ "$kind" = note ] && echo " (expected: it holds within one version and one set of statuses)")"
        done >>"$findings"
        if [ "$status" -ne 0 ] && ! grep -q '^FAIL ' "$objs/run.err"; then
            printf 'break\tC behaviour (old tests, new library)\t\tthe old C tests exit %s with no failed check (a crash?): %s\n' \
                "$status" "$(tail -3 "$objs/run.err" | tr '\n' ' ')" >>"$findings"
        fi
    fi
fi
cat "$findings"
