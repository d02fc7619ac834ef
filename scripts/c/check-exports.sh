#!/bin/sh
# check-exports.sh — the shared library must export exactly the public API.
#
# Usage: scripts/c/check-exports.sh [--linker-symbols] LIBRARY.so HEADER...
#
# Compares the defined symbols of the library's dynamic symbol table
# (nm -D --defined-only) with the functions the public headers declare: every
# declaration that starts at the beginning of a line (not static, not a
# typedef, not a preprocessor line, not a comment) and names an errcore_
# function. Prints both lists' differences and exits 1 when they differ, or
# when either list is empty. --linker-symbols also accepts the section and
# init symbols a linker adds on its own (__bss_start, _edata, _end, _init,
# _fini), for a library linked without a version script.
# Environment: NM (default nm).
set -u

linker_symbols=
if [ "${1:-}" = --linker-symbols ]; then
    linker_symbols='^(__bss_start|_edata|_end|_init|_fini)$'
    shift
fi
if [ $# -lt 2 ]; then
    echo "usage: $0 [--linker-symbols] LIBRARY.so HEADER..." >&2
    exit 2
fi
lib=$1
shift
NM=${NM:-nm}

tmp=${TMPDIR:-/tmp}/check-exports.$$
trap 'rm -f "$tmp".declared "$tmp".exported' EXIT INT TERM

# Declarations: a line at column 0 that is neither a comment, a preprocessor
# line, a typedef, a static (inline) definition nor a closing brace, holding
# `errcore_name(`; the first such name on the line is the function.
awk '
    /^[ \t]/ || /^\/\*/ || /^\*/ || /^#/ || /^typedef/ || /^static/ || /^}/ { next }
    match($0, /errcore_[a-z0-9_]+[ \t]*\(/) {
        name = substr($0, RSTART, RLENGTH)
        sub(/[ \t]*\($/, "", name)
        print name
    }
' "$@" | sort -u > "$tmp".declared

"$NM" -D --defined-only "$lib" | awk -v skip="$linker_symbols" '
    NF >= 3 && (skip == "" || $3 !~ skip) { print $3 }
' | sort -u > "$tmp".exported

status=0
if [ ! -s "$tmp".declared ]; then
    echo "check-exports: no function declarations found in $*" >&2
    status=1
fi
if [ ! -s "$tmp".exported ]; then
    echo "check-exports: $lib exports nothing" >&2
    status=1
fi
extra=$(comm -13 "$tmp".declared "$tmp".exported)
missing=$(comm -23 "$tmp".declared "$tmp".exported)
if [ -n "$extra" ]; then
    echo "check-exports: $lib exports symbols the public headers do not declare:" >&2
    echo "$extra" | sed 's/^/  /' >&2
    status=1
fi
if [ -n "$missing" ]; then
    echo "check-exports: $lib lacks functions the public headers declare:" >&2
    echo "$missing" | sed 's/^/  /' >&2
    status=1
fi
if [ $status -eq 0 ]; then
    echo "check-exports: $lib exports exactly the $(wc -l < "$tmp".declared | tr -d ' ') functions of the public headers"
fi
exit $status
