#!/usr/bin/env bash
# products-check.sh — CI stage: what an app that imports a product really loads.
#
# A one-line app that imports only SwiftErr must load neither FoundationNetworking nor libcurl
# (readelf -d: not NEEDED; ldd: not loaded); the same app importing SwiftErrURLSession must load
# both, which proves the check can see them. errcat must not need FoundationNetworking either.
# The apps are built in debug mode (what is linked does not depend on it); the size figures in
# CHANGELOG.md come from release builds (scripts/bench/footprint.sh).
. "$(dirname "$0")/lib.sh"
fail() { die "$@"; }

plain=$(scripts/bench/footprint.sh . SwiftErr debug "$root/.build")
echo "$plain"
grep -q "NEEDED:.*libFoundationNetworking" <<<"$plain" && fail "SwiftErr makes an app need libFoundationNetworking"
grep -q "  no libFoundationNetworking" <<<"$plain" || fail "SwiftErr makes an app load libFoundationNetworking"
grep -q "  no libcurl" <<<"$plain" || fail "SwiftErr makes an app load libcurl"

networking=$(scripts/bench/footprint.sh . SwiftErrURLSession debug "$root/.build")
echo "$networking"
grep -q "  loads libFoundationNetworking" <<<"$networking" ||
    fail "the check did not see FoundationNetworking in an app that imports SwiftErrURLSession"

swift build --product errcat >/dev/null
errcat=$(swift build --show-bin-path)/errcat
readelf -d "$errcat" | grep -q "libFoundationNetworking" && fail "errcat needs libFoundationNetworking"
echo "errcat: $(ldd "$errcat" | wc -l) libraries, no FoundationNetworking"
step "the three builds and their checks"
