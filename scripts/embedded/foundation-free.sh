#!/bin/sh
# foundation-free.sh — fails when a Swift file imports Foundation or one of its
# modules (FoundationEssentials, FoundationInternationalization, ...), which
# Embedded Swift does not have.
#
# Usage: scripts/embedded/foundation-free.sh FILE...
#   prints FILE:LINE: TEXT for every such import and exits 1 if there is one.
#        scripts/embedded/foundation-free.sh --self-test FILE...
#   proves the check can fail: copies FILE... into a temporary directory,
#   requires the copies to pass, then plants each spelling of such an import
#   (plain, @_exported, @preconcurrency, an access level, a single declaration,
#   a submodule, inside #if canImport) in turn into one copy and requires the
#   check to reject it and name that copy. Exits 1 if any plant got through.
#
# The scan is textual, so it also sees an import that a build would skip
# (inside `#if canImport(Foundation)`): code compiled for a host must not
# depend on Foundation either. Comment lines are not imports.
set -eu

# scan FILE... -> the offending lines; status 0 when there are none.
scan() {
    # An import declaration: optional attributes (with arguments) and access
    # level, `import`, optional declaration kind, then the module, optionally
    # followed by a submodule or declaration path. Several declarations may
    # share a line after `;`.
    attributes='(@[A-Za-z_]+(\([^)]*\))?[[:space:]]+)*'
    access='((public|package|internal|fileprivate|private|open)[[:space:]]+)?'
    kind='((typealias|struct|class|enum|protocol|let|var|func)[[:space:]]+)?'
    pattern="(^|;)[[:space:]]*${attributes}${access}import[[:space:]]+${kind}Foundation[A-Za-z]*([.[:space:];]|\$)"
    found=$(grep -n -E -H -- "$pattern" "$@" || true)
    if [ -n "$found" ]; then
        printf '%s\n' "$found"
        return 1
    fi
    return 0
}

if [ $# -eq 0 ] || { [ "$1" = --self-test ] && [ $# -eq 1 ]; }; then
    echo "usage: $0 [--self-test] FILE..." >&2
    exit 2
fi

if [ "$1" != --self-test ]; then
    for file in "$@"; do
        [ -f "$file" ] || { echo "foundation-free: no such file: $file" >&2; exit 1; }
    done
    if ! found=$(scan "$@"); then
        printf '%s\n' "$found" >&2
        echo "foundation-free: the lines above import Foundation; these files must build without it" >&2
        exit 1
    fi
    exit 0
fi

shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
i=0
for file in "$@"; do
    [ -f "$file" ] || { echo "foundation-free: no such file: $file" >&2; exit 1; }
    i=$((i + 1))
    cp "$file" "$work/$i-$(basename "$file")"
done
set -- "$work"/*
if ! found=$(scan "$@"); then
    printf '%s\n' "$found" >&2
    echo "foundation-free --self-test: the unmodified copies already fail; fix the files first" >&2
    exit 1
fi

target=$1
pristine=$work/pristine
cp "$target" "$pristine"
failures=0
cases=0

# plant TEXT: the copy $target becomes TEXT followed by the original file.
plant() {
    { printf '%s\n' "$1"; cat "$pristine"; } >"$target"
    cases=$((cases + 1))
}

# Each line is one spelling of an import of a Foundation module.
while IFS= read -r line; do
    plant "$line"
    if found=$(scan "$@"); then
        echo "foundation-free --self-test: FAILED: '$line' planted in $(basename "$target") was not detected" >&2
        failures=$((failures + 1))
    elif ! printf '%s\n' "$found" | grep -q -F -- "$target:1:"; then
        echo "foundation-free --self-test: FAILED: '$line' was reported elsewhere: $found" >&2
        failures=$((failures + 1))
    fi
done <<EOF
import Foundation
@_exported import Foundation
@preconcurrency import FoundationEssentials
public import Foundation
internal import FoundationEssentials
import struct Foundation.Data
import Foundation.NSString
@_spi(Private) import FoundationInternationalization
    import Foundation
import CErrCore; import Foundation
EOF

# An import that a build for a platform without Foundation would skip.
plant "$(printf '#if canImport(Foundation)\n    import Foundation\n#endif')"
if scan "$@" >/dev/null; then
    echo "foundation-free --self-test: FAILED: an import inside #if canImport(Foundation) was not detected" >&2
    failures=$((failures + 1))
fi

# Mentions that are not imports must pass.
plant "$(printf '%s\n' '// import Foundation' '/// import Foundation' 'let text = "import Foundation"')"
if ! found=$(scan "$@"); then
    echo "foundation-free --self-test: FAILED: a comment or string was taken for an import: $found" >&2
    failures=$((failures + 1))
fi

if [ "$failures" -ne 0 ]; then
    echo "foundation-free --self-test: $failures of $cases cases wrong" >&2
    exit 1
fi
echo "foundation-free --self-test: $cases cases right on a copy of $# files (every planted import rejected)"
