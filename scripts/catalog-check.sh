#!/usr/bin/env bash
# catalog-check.sh — CI stage: an app's own catalog through the SwiftErrCatalogPlugin, from outside
# the package, as a user builds it.
#
#   1. Examples/Shop (depends on the SwiftErr product and the plugin only) builds, its tests pass, and
#      shop-demo classifies its own codes (and not the built-in catalog's).
#   2. Incremental: a second build does not run the plugin's command again (the example, and a copy
#      of it); a changed catalog does, and the generated file holds the change.
#   3. With the modules of that build (a package depending on SwiftErr and the plugin only), a file
#      that imports only SwiftErr does not see the built-in catalog (StudyGroupCode,
#      BaseCode.tokenExpire, Catalog.builtIn do not type-check); importing SwiftErrDefaultCatalog
#      too, it does.
#   4. A copy of Examples/Shop with a duplicate code planted in catalog.json fails to build, and
#      swift build prints the located error: <copy>/Sources/ShopErrors/catalog.json:42:19: error:
#      duplicate code 20001 ... (see <copy>/Sources/ShopErrors/catalog.json:36:19), the entry it
#      repeats (last: a failed build leaves the folder's plan half done).
#
# Everything builds in one scratch folder of its own (.build-catalog, so that step 3 sees only what
# the example's build made), and the root package is compiled once there; copies live in a temporary directory that is removed at the end. Prints
# the seconds of each step. Exit status: 0 all held, 1 a check failed.
. "$(dirname "$0")/lib.sh"
scratch=$root/.build-catalog
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { die "$@"; }
started=$(date +%s)

# ---- 1. the example builds, tests and classifies ------------------------------------------------
shop=$root/Examples/Shop
# settled PACKAGE [OPTIONS]: builds PACKAGE until SwiftPM has settled its plan. SwiftPM 6.3.1 plans
# the second build of a package in a build folder again and relinks the plugin's tool (errcat, an
# input of the plugin's command), which runs the command once more; from the third build on, a build
# with nothing changed runs nothing. (Building another package in the folder starts this over.)
settled() {
    swift build --package-path "$@" --scratch-path "$scratch" 2>&1 | tail -3
    swift build --package-path "$@" --scratch-path "$scratch" >/dev/null 2>&1
}
# unchanged PACKAGE [OPTIONS]: fails when a build of the settled PACKAGE generates anything.
unchanged() {
    local again
    again=$(swift build --package-path "$@" --scratch-path "$scratch" 2>&1)
    if grep -q "Generating Swift from catalog.json" <<<"$again"; then
        echo "$again"
        fail "a build of $1 with its catalog unchanged ran the plugin's command again"
    fi
}
settled "$shop" --build-tests
step "building Examples/Shop (the plugin, errcat and SwiftErr included)"
unchanged "$shop" --build-tests
swift test --package-path "$shop" --scratch-path "$scratch" --skip-build 2>&1 | tail -3
step "testing Examples/Shop"
demo=$("$scratch/debug/shop-demo")
echo "$demo"
grep -qx '20001  module cart.itemOutOfStock \[showUser\]  This item is out of stock.' <<<"$demo" ||
    fail "shop-demo does not classify 20001 as cart.itemOutOfStock"
grep -qx '11001  unknown  Unknown response code 11001' <<<"$demo" ||
    fail "shop-demo classifies 11001, a code of the built-in catalog, as something"

# ---- 2. incremental, on a copy whose catalog is changed ---------------------------------------------
copy=$work/ShopCopy
mkdir -p "$copy"
cp -R "$shop/Package.swift" "$shop/Sources" "$shop/Tests" "$copy/"
# The copy depends on this checkout by its absolute path.
sed -i "s|path: \"../..\"|path: \"$root\"|" "$copy/Package.swift"
first=$(swift build --package-path "$copy" --scratch-path "$scratch" 2>&1) || {
    echo "$first"
    fail "the copy of Examples/Shop does not build"
}
grep -q "Generating Swift from catalog.json" <<<"$first" || {
    echo "$first"
    fail "the copy's first build did not run the plugin"
}
swift build --package-path "$copy" --scratch-path "$scratch" >/dev/null 2>&1
unchanged "$copy"
sed -i 's/"This item is out of stock."/"This item is sold out."/' "$copy/Sources/ShopErrors/catalog.json"
changed=$(swift build --package-path "$copy" --scratch-path "$scratch" 2>&1) || {
    echo "$changed"
    fail "the copy with a changed message does not build"
}
grep -q "Generating Swift from catalog.json" <<<"$changed" || {
    echo "$changed"
    fail "a changed catalog was not generated again"
}
grep -q '"This item is sold out."' "$scratch"/plugins/outputs/shopcopy/ShopErrors/destination/SwiftErrCatalogPlugin/catalog.generated.swift ||
    fail "the generated file does not hold the changed message"
step "incremental builds (unchanged: no generation; changed: generated again)"

# ---- 3. SwiftErr alone shows no type of the built-in catalog ------------------------------------------
# A file using the built-in catalog, type-checked with the modules of Examples/Shop's build (a
# package that depends on SwiftErr and the plugin only: its target modules hold no
# SwiftErrDefaultCatalog; the plugin's tool, errcat, is built apart, in Modules-tool). Type-checked
# with swiftc rather than built as a package of its own in this folder: SwiftPM 6.3.1, given another
# root package in a build folder it has used, was seen to report "Build complete" without compiling it.
modules=$scratch/debug/Modules
[ -f "$modules/SwiftErr.swiftmodule" ] || fail "no SwiftErr.swiftmodule in $modules"
[ ! -e "$modules/SwiftErrDefaultCatalog.swiftmodule" ] ||
    fail "Examples/Shop's build has a SwiftErrDefaultCatalog module for its own targets"
cat >"$work/module.modulemap" <<MAP
module CErrCore {
    umbrella header "$root/Sources/CErrCore/include/CErrCore.h"
    export *
}
module CErrDefaultCatalog {
    header "$root/Sources/CErrDefaultCatalog/include/errcore_default_catalog.h"
    export *
}
MAP
uses='let group: StudyGroupCode? = nil
let expired = BaseCode.tokenExpire
let table = Catalog.builtIn
print(group as Any, expired, table.name)'
typecheck() { # IMPORTS MODULE_DIR
    printf '%s\n%s\n' "$1" "$uses" >"$work/probe.swift"
    swiftc -typecheck -I "$2" -Xcc -fmodule-map-file="$work/module.modulemap" \
        -Xcc -I"$root/Sources/CErrCore/include" "$work/probe.swift" 2>&1
}
set +e
alone=$(typecheck 'import SwiftErr' "$modules")
status=$?
set -e
[ "$status" -ne 0 ] || fail "a file importing only SwiftErr type-checks with StudyGroupCode, BaseCode.tokenExpire, Catalog.builtIn"
for message in "cannot find type 'StudyGroupCode' in scope" "type 'BaseCode' has no member 'tokenExpire'" \
    "type 'Catalog' has no member 'builtIn'"; do
    grep -q "error: $message" <<<"$alone" || {
        echo "$alone"
        fail "importing only SwiftErr: no \"$message\""
    }
done
echo "catalog-check: importing only SwiftErr: StudyGroupCode, BaseCode.tokenExpire and Catalog.builtIn are unknown"
with=$(typecheck "$(printf 'import SwiftErr\nimport SwiftErrDefaultCatalog')" "$scratch/debug/Modules-tool") || {
    echo "$with"
    fail "the same file importing SwiftErrDefaultCatalog too does not type-check (with errcat's modules)"
}
step "SwiftErr alone shows no type of the built-in catalog; SwiftErrDefaultCatalog does"

# ---- 4. a broken catalog is a located build error --------------------------------------------------
catalog=$copy/Sources/ShopErrors/catalog.json
sed -n 42p "$catalog" | grep -q '"code": 20002,' || fail "line 42 of the example's catalog is not cartFull's code"
sed -i '42s/"code": 20002/"code": 20001/' "$catalog"
set +e
broken=$(swift build --package-path "$copy" --scratch-path "$scratch" 2>&1)
status=$?
set -e
echo "$broken" | grep -v '^\['
[ "$status" -ne 0 ] || fail "a catalog with a duplicate code built"
grep -q "^$catalog:42:19: error: duplicate code 20001: module \"cart\" entry \"cartFull\" repeats module \"cart\" entry \"itemOutOfStock\" (see $catalog:36:19)$" <<<"$broken" ||
    fail "swift build did not print the located error $catalog:42:19: error: duplicate code 20001 ..."
step "a broken catalog fails the build at its line and column"

echo "catalog-check: passed in $(($(date +%s) - started)) s"
