#!/usr/bin/env bash
# swift-check.sh — the Swift part of the compatibility check: the public API of
# this package's library products against those of a baseline commit.
#
# Usage: scripts/compat/swift-check.sh BASELINE_COMMIT BASELINE_TREE SCRATCH
#
# Run from the package root. BASELINE_TREE is the baseline commit's files (read
# for its manifest); SCRATCH a SwiftPM scratch path (git-ignored; kept between
# runs, which makes later runs faster). Prints findings on stdout, one a line
# (KIND<TAB>CHECK<TAB>TEXT), and its progress on stderr:
#   1. the library products of both manifests (swift package describe --type json,
#      products.py); the lists are read, never written down here, so products that
#      come and go need no change to this script;
#   2. a library product of the baseline that is gone is a break;
#   3. `swift package diagnose-api-breaking-changes BASELINE_COMMIT --products ...`
#      over the library products both have: each "API breakage" it reports is a
#      break, named with its module. The tool builds both trees (the baseline in
#      SCRATCH/<triple>/apidiff, its API kept in SCRATCH/api-baseline/<commit>) and
#      reports only breaks: an addition to the Swift API is not reported, so it
#      does not ask for a bump here (the C checks report C additions).
# The baseline commit must be in this repository's git history.
# Exit status: 0 with the findings printed; 2 when a step could not run.
set -euo pipefail

if [ $# -ne 3 ]; then
    echo "usage: $0 BASELINE_COMMIT BASELINE_TREE SCRATCH" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
commit=$1
base_tree=$(cd "$2" && pwd)
mkdir -p "$3"
scratch=$(cd "$3" && pwd)

step() { echo "compat: Swift: $*" >&2; }
die() {
    echo "compat: Swift: $*" >&2
    exit 2
}

products_of() { # DIR SCRATCH
    local json
    json=$(cd "$1" && swift package --scratch-path "$2" describe --type json) || die "swift package describe failed in $1"
    printf '%s\n' "$json" | python3 "$here/products.py" || die "cannot read the products of $1"
}

step "library products of the baseline and of this tree"
base_products=$(products_of "$base_tree" "$scratch/baseline-describe")
cur_products=$(products_of . "$scratch")
common=()
findings=$scratch/findings.tsv
: >"$findings"
while IFS= read -r p; do
    [ -n "$p" ] || continue
    if printf '%s\n' "$cur_products" | grep -qxF -- "$p"; then
        common+=("$p")
    else
        printf 'break\tSwift products\tlibrary product %s removed (it is in the baseline)\n' "$p" >>"$findings"
    fi
done <<<"$base_products"
while IFS= read -r p; do
    [ -n "$p" ] || continue
    if ! printf '%s\n' "$base_products" | grep -qxF -- "$p"; then
        printf 'note\tSwift products\tlibrary product %s is new (the API tool does not compare it)\n' "$p" >>"$findings"
    fi
done <<<"$cur_products"

if [ ${#common[@]} -eq 0 ]; then
    printf 'note\tSwift API\tno library product in both the baseline and this tree: nothing to compare\n' >>"$findings"
else
    step "diagnose-api-breaking-changes against ${commit:0:12} for ${common[*]}"
    log=$scratch/diagnose.log
    set +e
    swift package --scratch-path "$scratch" diagnose-api-breaking-changes "$commit" \
        --products "${common[@]}" --baseline-dir "$scratch/api-baseline/$commit" >"$log" 2>&1
    status=$?
    set -e
    # "N breaking changes detected in MODULE:" heads the breaks of that module.
    awk '
        /breaking changes? detected in / {
            module = $0
            sub(/.*detected in /, "", module)
            sub(/:[[:space:]]*$/, "", module)
        }
        /API breakage: / {
            text = $0
            sub(/.*API breakage: /, "", text)
            printf "break\tSwift API (%s)\t%s\n", module, text
        }
    ' "$log" >>"$findings"
    breaks=$(grep -c "API breakage: " "$log" || true)
    step "the tool exited $status with $breaks API breakage(s) (log: $log)"
    if [ "$status" -ne 0 ] && [ "$breaks" -eq 0 ]; then
        tail -40 "$log" >&2
        die "diagnose-api-breaking-changes failed without naming a breaking change"
    fi
    if [ "$status" -eq 0 ] && [ "$breaks" -ne 0 ]; then
        die "diagnose-api-breaking-changes exited 0 but listed breaking changes: read $log"
    fi
fi
cat "$findings"
