#!/usr/bin/env bash
# listings-check.sh — CI stage: every code listing of the documentation compiles, and prints what
# it shows (scripts/docs/listings.py; conventions in docs/listings/README.md).
#
#   1. scripts/docs/listings.py --self-test: a misspelt API, a wrong shown output, a C listing that
#      does not compile under -Werror, a failing shell command, an unlabelled fence and a listing
#      marked compile-error that compiles, planted in a document of their own, must each be
#      reported at their line.
#   2. scripts/docs/listings.py: the root package's listings (README.md, docs/*.md, the DocC
#      articles, the doc comments of Sources/, the READMEs of Examples/*). The listings of the
#      packages under Integrations/ are checked by scripts/services-check.sh, which builds them.
#
# The Swift listings build in the repository's debug build folder (LISTINGS_SCRATCH, default
# .build), the one `make check` leaves: run after it, SwiftErr is not compiled again. Prints the
# seconds of each step. Exit status: 0 every listing holds, 1 a listing (or the self-test) failed.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${LISTINGS_SCRATCH:-$PWD/.build}

started=$(date +%s)
step_started=$started
step() {
    local now
    now=$(date +%s)
    echo "listings-check: $1 took $((now - step_started)) s"
    step_started=$now
}

python3 scripts/docs/listings.py --self-test --scratch-path "$scratch"
step "the self-test"
status=0
python3 scripts/docs/listings.py --scratch-path "$scratch" || status=1
step "the listings"
echo "listings-check: $([ "$status" -eq 0 ] && echo PASS || echo FAIL) in $(($(date +%s) - started)) s"
exit "$status"
