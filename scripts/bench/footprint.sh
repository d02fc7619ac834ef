#!/usr/bin/env bash
# footprint.sh — what a one-line app that imports a SwiftErr product links: the release
# executable's size and sections, its NEEDED libraries, and everything `ldd` loads (is
# FoundationNetworking or libcurl among them?).
#
# usage: scripts/bench/footprint.sh [SWIFTERR_DIR] [PRODUCT] [CONFIGURATION] [SCRATCH]
#   SWIFTERR_DIR  a checkout of SwiftErr (default: this repository)
#   PRODUCT       the product the app depends on and imports (default: SwiftErr)
#   CONFIGURATION  debug or release (default release)
#   SCRATCH        the SwiftPM build folder (default: the app's own); the products check passes the
#                  repository's .build, where `make check` has compiled SwiftErr already
# The app is built under build/footprint/<PRODUCT>; its one line reads the default retry
# policy, so the product's code is really linked. Prints the figures; exits 1 when the build fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
swifterr=$(cd "${1:-$root}" && pwd)
product=${2:-SwiftErr}
configuration=${3:-release}
app=$root/build/footprint/$product
rm -rf "$app"
mkdir -p "$app/Sources/OneLine"
cat >"$app/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "OneLine",
    dependencies: [.package(name: "SwiftErr", path: "$swifterr")],
    targets: [.executableTarget(name: "OneLine", dependencies: [.product(name: "$product", package: "SwiftErr")])]
)
MANIFEST
echo "import $product; print(RetryPolicy.default.maxAttempts)" >"$app/Sources/OneLine/main.swift"
scratch=(--scratch-path "${4:-$app/.build}")
swift build -c "$configuration" --package-path "$app" "${scratch[@]}" >"$app/build.log" 2>&1 || { cat "$app/build.log"; exit 1; }
bin=$(swift build -c "$configuration" --package-path "$app" "${scratch[@]}" --show-bin-path)/OneLine
"$bin" >/dev/null
echo "one-line app importing $product from $swifterr ($configuration)"
echo "executable: $(stat -c %s "$bin") bytes"
size "$bin" | sed 's/^/  /'
echo "NEEDED: $(readelf -d "$bin" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')"
loaded=$(ldd "$bin")
echo "ldd: $(wc -l <<<"$loaded") libraries"
for lib in libFoundationNetworking libcurl; do
    if grep -q "$lib" <<<"$loaded"; then echo "  loads $lib"; else echo "  no $lib"; fi
done
