#!/bin/sh
# docs-check.sh — builds the DocC documentation of the library targets with the toolchain's
# `docc` and fails on any warning (a broken symbol link, an undocumented parameter, …).
#
# Each target with a .docc catalog is converted on its own symbol graphs (SwiftPM writes one
# directory for all modules; `docc` takes one module per conversion), plus the graphs of the
# extensions it declares on other modules (SwiftErr@SwiftErrCore: Catalog.register, …).
#
# First, scripts/docs/references.py: every repository path and API symbol the documents name
# exists (its self-test, then the documents); a miss fails the check after the DocC builds.
#
# The toolchain's docc (next to swiftc); the archives and logs go to build/docs.
set -eu
cd "$(dirname "$0")/.."

SWIFTC=$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)
DOCC=$(dirname "$SWIFTC")/docc
OUT=build/docs

swift package dump-symbol-graph --minimum-access-level public --emit-extension-block-symbols >/dev/null
graphs=$(find .build -path '*/symbolgraph' -type d | head -n 1)
[ -n "$graphs" ] || { echo "docs-check: no symbol graphs under .build" >&2; exit 1; }

status=0
python3 scripts/docs/references.py --self-test
python3 scripts/docs/references.py || status=1

# Targets in dependency order: a later target's documentation links to the earlier archives.
dependencies=""
for target in SwiftErrCore SwiftErrDefaultCatalog SwiftErr; do
    catalog="Sources/$target/$target.docc"
    dir="$OUT/graphs/$target"
    rm -rf "$dir" && mkdir -p "$dir"
    cp "$graphs/$target.symbols.json" "$dir/"
    for extension in "$graphs/$target@"*.symbols.json; do
        [ -e "$extension" ] && cp "$extension" "$dir/"
    done
    log="$OUT/$target.log"
    # shellcheck disable=SC2086 # $dependencies is a list of --dependency options
    if ! "$DOCC" convert "$catalog" --additional-symbol-graph-dir "$dir" --analyze \
        --fallback-display-name "$target" --fallback-bundle-identifier "org.swifterr.$target" \
        --enable-experimental-external-link-support $dependencies \
        --output-path "$OUT/$target.doccarchive" >"$log" 2>&1; then
        echo "docs-check: docc failed for $target:" >&2
        cat "$log" >&2
        status=1
        continue
    fi
    if grep -q "warning:" "$log"; then
        echo "docs-check: $target has documentation warnings:" >&2
        grep -A3 "warning:" "$log" >&2
        status=1
    else
        echo "docs-check: $target: no warnings"
    fi
    dependencies="$dependencies --dependency $OUT/$target.doccarchive"
done
exit $status
