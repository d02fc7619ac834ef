#!/bin/sh
# version.sh — the version of CErrCore, read from include/errcore_version.h,
# the one place it is written.
#
# Usage: scripts/c/version.sh [--fields|--number|--soname] [HEADER]
#   (none)    MAJOR.MINOR.PATCH, e.g. 0.3.0
#   --fields  MAJOR MINOR PATCH, e.g. 0 3 0
#   --number  ERRCORE_VERSION_NUMBER, e.g. 3000
#   --soname  the shared library's soname: libcerrcore.so.MAJOR.MINOR before
#             1.0.0 (a minor bump is a breaking change then), libcerrcore.so.MAJOR
#             from 1.0.0 on
# HEADER defaults to include/errcore_version.h of this repository.
#
# Fails (exit 1, with the reason on stderr) when a macro is missing or not a
# plain decimal literal, when a part is 1000 or more, or when
# ERRCORE_VERSION_NUMBER or ERRCORE_VERSION_STRING disagrees with the three
# parts, so nothing downstream ever builds with a half-read version.
set -u

mode=version
case "${1:-}" in
--fields | --number | --soname) mode=${1#--}; shift ;;
-*) echo "usage: $0 [--fields|--number|--soname] [HEADER]" >&2; exit 2 ;;
esac
header=${1:-$(dirname "$0")/../../include/errcore_version.h}

fail() {
    echo "version.sh: $header: $*" >&2
    exit 1
}
[ -r "$header" ] || fail "cannot read the version header"

# The value of `#define NAME VALUE` (one such line; trailing spaces allowed).
macro() {
    n=$(grep -c "^#define $1[[:space:]]" "$header")
    [ "$n" = 1 ] || fail "expected one '#define $1', found $n"
    sed -n "s/^#define $1[[:space:]][[:space:]]*\\(.*[^[:space:]]\\)[[:space:]]*\$/\\1/p" "$header"
}
number_macro() {
    v=$(macro "$1") || exit 1
    case "$v" in
    '' | *[!0-9]*) fail "$1 is '$v', not a decimal integer literal" ;;
    esac
    # Leading zeros would read as octal in C.
    case "$v" in 0?*) fail "$1 is '$v': no leading zeros" ;; esac
    echo "$v"
}

major=$(number_macro ERRCORE_VERSION_MAJOR) || exit 1
minor=$(number_macro ERRCORE_VERSION_MINOR) || exit 1
patch=$(number_macro ERRCORE_VERSION_PATCH) || exit 1
number=$(number_macro ERRCORE_VERSION_NUMBER) || exit 1
string=$(macro ERRCORE_VERSION_STRING) || exit 1

[ "$minor" -lt 1000 ] && [ "$patch" -lt 1000 ] ||
    fail "MINOR and PATCH must be below 1000 (ERRCORE_VERSION_NUMBER holds three digits for each)"
expect_number=$((major * 1000000 + minor * 1000 + patch))
[ "$number" = "$expect_number" ] ||
    fail "ERRCORE_VERSION_NUMBER is $number, but $major.$minor.$patch gives $expect_number"
[ "$string" = "\"$major.$minor.$patch\"" ] ||
    fail "ERRCORE_VERSION_STRING is $string, but the parts give \"$major.$minor.$patch\""

case $mode in
version) echo "$major.$minor.$patch" ;;
fields) echo "$major $minor $patch" ;;
number) echo "$number" ;;
soname)
    if [ "$major" = 0 ]; then
        echo "libcerrcore.so.$major.$minor"
    else
        echo "libcerrcore.so.$major"
    fi
    ;;
esac
