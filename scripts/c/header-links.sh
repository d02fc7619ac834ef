#!/bin/sh
# header-links.sh — SwiftPM's view of the C headers is the one copy in include/.
#
# Usage: scripts/c/header-links.sh [ROOT]        (ROOT: the repository, . by default)
#        scripts/c/header-links.sh --self-test
#
# The C library's public headers live in ROOT/include. SwiftPM compiles the core against
# ROOT/Sources/CErrCore/include and the built-in catalog against
# ROOT/Sources/CErrDefaultCatalog/include; each header there must be a symbolic link to
# ../../../include/NAME, and every header of include/ must have its link (errcore_default_catalog.h
# in CErrDefaultCatalog, every other one in CErrCore). A copy instead of a link lets the Swift
# package compile against a header that the C library no longer has. Prints each problem and
# exits 1 when there is one. --self-test runs the check on a copy of the repository's headers with
# each kind of fault planted (a copy for a link, a missing link, a link elsewhere, a stray file)
# and fails unless every one is caught and the intact copy passes.
set -u

check() {
    root=$1
    problems=0
    for header in "$root"/include/*.h; do
        name=$(basename "$header")
        target=CErrCore
        [ "$name" = errcore_default_catalog.h ] && target=CErrDefaultCatalog
        link="$root/Sources/$target/include/$name"
        if [ ! -L "$link" ]; then
            if [ -e "$link" ]; then
                echo "header-links: Sources/$target/include/$name is a copy, not a link to include/$name"
            else
                echo "header-links: Sources/$target/include/$name is missing (a link to include/$name)"
            fi
            problems=$((problems + 1))
        elif [ "$(readlink "$link")" != "../../../include/$name" ]; then
            echo "header-links: Sources/$target/include/$name links to $(readlink "$link"), not ../../../include/$name"
            problems=$((problems + 1))
        fi
    done
    for target in CErrCore CErrDefaultCatalog; do
        for file in "$root/Sources/$target/include"/*; do
            [ -e "$file" ] || [ -L "$file" ] || continue
            name=$(basename "$file")
            if [ ! -e "$root/include/$name" ]; then
                echo "header-links: Sources/$target/include/$name has no header include/$name"
                problems=$((problems + 1))
            fi
        done
    done
    [ "$problems" -eq 0 ]
}

self_test() {
    here=$(cd "$(dirname "$0")/../.." && pwd)
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT INT TERM
    fresh() {
        rm -rf "$work/tree"
        mkdir -p "$work/tree/Sources/CErrCore" "$work/tree/Sources/CErrDefaultCatalog"
        cp -R "$here/include" "$work/tree/include"
        cp -RP "$here/Sources/CErrCore/include" "$work/tree/Sources/CErrCore/include"
        cp -RP "$here/Sources/CErrDefaultCatalog/include" "$work/tree/Sources/CErrDefaultCatalog/include"
    }
    failed=0
    fresh
    if ! check "$work/tree" >/dev/null; then
        echo "header-links self-test: the repository's own headers fail the check" >&2
        failed=1
    fi
    links="$work/tree/Sources/CErrCore/include"
    for fault in copy missing elsewhere stray; do
        fresh
        case $fault in
            copy) rm "$links/errcore_table.h" && cp "$work/tree/include/errcore_table.h" "$links/" ;;
            missing) rm "$links/errcore_text.h" ;;
            elsewhere) rm "$links/errcore_status.h" && ln -s ../../../include/errcore_text.h "$links/errcore_status.h" ;;
            stray) echo '/* stray */' >"$links/errcore_stray.h" ;;
        esac
        if check "$work/tree" >/dev/null; then
            echo "header-links self-test: a planted fault ($fault) passed the check" >&2
            failed=1
        fi
    done
    [ "$failed" -eq 0 ] && echo "header-links self-test: the intact headers pass; copy, missing, elsewhere and stray are caught"
    return "$failed"
}

if [ "${1:-}" = --self-test ]; then
    self_test
    exit $?
fi
check "${1:-.}"
