#!/bin/sh
# target-sources.sh — the Swift source files of one target of the package, as
# SwiftPM resolves them (its path, excludes and sources rules applied), so that
# a build outside SwiftPM compiles exactly the target and never a file glob.
#
# Usage: scripts/embedded/target-sources.sh TARGET
#   prints one path per line, relative to the package root, in SwiftPM's
#   order; run from anywhere inside the repository.
#
# Reads `swift package describe --type json` (the target's "path" and
# "sources") with jq. Exits 1, saying why, when swift or jq is missing, SwiftPM
# cannot load the package, the package has no such target, the target is not
# a Swift target, or it has no sources.
#
# Environment: SWIFT (default swift; the toolchain's swift next to SWIFTC when
# that is set), JQ (default jq).
set -eu

if [ $# -ne 1 ]; then
    echo "usage: $0 TARGET" >&2
    exit 2
fi
target=$1

cd "$(dirname "$0")/../.."

if [ -z "${SWIFT:-}" ]; then
    if [ -n "${SWIFTC:-}" ] && [ -x "$(dirname "$SWIFTC")/swift" ]; then
        SWIFT=$(dirname "$SWIFTC")/swift
    else
        SWIFT=swift
    fi
fi
JQ=${JQ:-jq}
command -v "$SWIFT" >/dev/null 2>&1 || { echo "target-sources: '$SWIFT' not found (set SWIFT)" >&2; exit 1; }
command -v "$JQ" >/dev/null 2>&1 || { echo "target-sources: '$JQ' not found (install jq or set JQ)" >&2; exit 1; }

log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! description=$("$SWIFT" package describe --type json 2>"$log"); then
    cat "$log" >&2
    echo "target-sources: 'swift package describe' could not load the package (above)" >&2
    exit 1
fi

# One line: the module type, then one line per source under the target's path.
listing=$(printf '%s\n' "$description" | "$JQ" -r --arg name "$target" '
    [.targets[] | select(.name == $name)] | first // empty
    | (.module_type, (.path as $path | .sources[] | $path + "/" + .))') || {
    echo "target-sources: could not read the package description as JSON" >&2
    exit 1
}
if [ -z "$listing" ]; then
    echo "target-sources: the package has no target named '$target'" >&2
    exit 1
fi
kind=$(printf '%s\n' "$listing" | sed -n 1p)
if [ "$kind" != SwiftTarget ]; then
    echo "target-sources: '$target' is a $kind, not a Swift target" >&2
    exit 1
fi
sources=$(printf '%s\n' "$listing" | sed 1d)
if [ -z "$sources" ]; then
    echo "target-sources: '$target' has no source files" >&2
    exit 1
fi
printf '%s\n' "$sources"
