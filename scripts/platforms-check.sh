#!/usr/bin/env bash
# platforms-check.sh — CI stage: nothing in the code needs more than the Apple platforms that
# Package.swift declares (`platforms:`), checked on Linux, where no Apple SDK exists.
#
# 1. `swift build --build-tests` (a no-op after `make check`, which built and tested the
#    package in debug) so the index store under .build/<triple>/debug/index/store matches
#    the sources; the audit refuses a store older than a source file.
# 2. scripts/platforms/audit.py: every symbol the code under Sources/ and Tests/ references
#    (the index store, read through the toolchain's libIndexStore) joined with its Apple
#    availability (swift-symbolgraph-extract and swift-api-digester over the modules an Apple
#    platform ships, cached in .build/platforms-audit); each use above the floor that no
#    @available on an enclosing declaration and no if/guard #available raises is printed as
#    file:line:column with what the API needs. APIs whose availability Linux cannot give
#    (swift-corelibs-foundation, Dispatch, XCTest, FoundationPreview macros) pass only when
#    scripts/platforms/reviewed.txt lists them.
# 3. audit.py --self-test: builds scripts/platforms/selftest at the same floor, a package of
#    planted uses (Synchronization.Mutex, Int128, next(isolation:) unguarded, under
#    @available, if/guard #available, #unavailable, in comments and strings; Duration,
#    back-deployed and default-implemented APIs; unreviewed corelibs Foundation) each marked
#    with what must be reported, and requires exactly those reports.
# 4. scripts/platforms/features.py and its --self-test: language features whose runtime
#    support is newer than the floor (isolated deinit, packs and values in generic types,
#    @isolated(any), typed-throws function types as metadata, noncopyable generics).
#
# Exits non-zero when any step fails. Prints the seconds of each step.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
step() { echo "platforms-check: $1 ($(($(date +%s) - start)) s)"; }

swift build --build-tests >/dev/null
step "debug build and index store up to date"
python3 scripts/platforms/audit.py
step "audit passed"
python3 scripts/platforms/audit.py --self-test >/dev/null
step "audit self-test passed"
python3 scripts/platforms/features.py
python3 scripts/platforms/features.py --self-test
step "runtime features passed"
