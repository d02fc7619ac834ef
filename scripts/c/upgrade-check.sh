#!/bin/sh
# upgrade-check.sh — the mistakes a C program written for 0.2.0 makes under this version are
# compile errors, never a program that crashes or answers wrongly, and their documented fixes
# compile cleanly and run.
#
# Usage: scripts/c/upgrade-check.sh LIBRARY
#   LIBRARY is the libcerrcore.a to link the programs that must build (make upgrade-check passes
#   build/libcerrcore.a). CC (default cc) is the compiler; `make check` runs it with gcc and clang.
#
# The planted mistakes (scripts/c/upgrade/):
#   default_table_0_2_0.c     errcore_default_table() with CErrCore.h alone (its declaration is in
#                             errcore_default_catalog.h): must not compile with no flags at all,
#                             and the error must name errcore_default_catalog.h
#   table_positional_0_2_0.c  a positional errcore_table initializer ending at the front: must not
#                             compile under -Wall -Wextra -Werror, and the error must name the
#                             `languages` member; without -Werror it must run and classify as
#                             0.2.0 did (the new members zero: nothing mis-assigned)
# The fixes, under -Wall -Wextra -Wpedantic -Werror, built and run:
#   default_table_included.c  errcore_default_catalog.h included after CErrCore.h, and before it
#   table_designated.c        the designated initializer errcore_table.h documents
# Last line: "N passed, N failed"; exits 1 when anything failed.
set -u
cd "$(dirname "$0")/../.."

if [ $# -ne 1 ] || [ ! -f "$1" ]; then
    echo "usage: $0 LIBRARY (libcerrcore.a; make upgrade-check builds it)" >&2
    exit 2
fi
library=$1
CC=${CC:-cc}
dir=scripts/c/upgrade
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
strict="-std=c11 -Wall -Wextra -Wpedantic -Werror"
passed=0
failed=0

pass() { passed=$((passed + 1)); echo "ok: $1"; }
fail() { failed=$((failed + 1)); echo "FAIL: $1"; }

# must_not_compile NAME FILE WORD FLAGS...: compiling FILE fails, with WORD in the diagnostics.
must_not_compile() {
    name=$1 file=$2 word=$3
    shift 3
    # shellcheck disable=SC2086 # the flags are words on purpose
    if "$CC" "$@" -Iinclude -c "$dir/$file" -o "$work/planted.o" >"$work/log" 2>&1; then
        fail "$name compiles ($CC $*): a 0.2.0 program would build and misbehave"
    elif grep -q "$word" "$work/log"; then
        pass "$name is a compile error naming $word ($CC $*)"
    else
        fail "$name fails to compile but its diagnostics do not name $word ($CC $*):"
        cat "$work/log"
    fi
}

# must_run NAME FILE EXPECTED FLAGS...: FILE compiles and links with FLAGS and prints EXPECTED.
must_run() {
    name=$1 file=$2 expected=$3
    shift 3
    if ! "$CC" "$@" -Iinclude "$dir/$file" "$library" -o "$work/program" >"$work/log" 2>&1; then
        fail "$name does not build ($CC $*):"
        cat "$work/log"
    elif output=$("$work/program") && [ "$output" = "$expected" ]; then
        pass "$name builds and prints \"$expected\" ($CC $*)"
    else
        fail "$name printed \"$output\", not \"$expected\" ($CC $*)"
    fi
}

must_not_compile "errcore_default_table() with CErrCore.h alone" default_table_0_2_0.c \
    errcore_default_catalog_h -std=c11
must_not_compile "errcore_default_table() with CErrCore.h alone, gnu11" default_table_0_2_0.c \
    errcore_default_catalog_h -std=gnu11 -w
must_not_compile "the 0.2.0 positional errcore_table" table_positional_0_2_0.c \
    languages -std=c11 -Wall -Wextra -Werror
# shellcheck disable=SC2086
must_run "the 0.2.0 positional errcore_table without -Werror" table_positional_0_2_0.c \
    "classified as 0.2.0 did" -std=c11 -w
# shellcheck disable=SC2086
must_run "errcore_default_catalog.h after CErrCore.h" default_table_included.c classified $strict
# shellcheck disable=SC2086
must_run "errcore_default_catalog.h before CErrCore.h" default_table_included.c classified $strict \
    -DUPGRADE_HEADERS_REVERSED
# shellcheck disable=SC2086
must_run "the designated errcore_table" table_designated.c classified $strict

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
