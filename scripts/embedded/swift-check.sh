#!/bin/sh
# swift-check.sh — the SwiftErrCore target compiled as Embedded Swift with the
# CErrCore clang module, and the built-in catalog's target
# (SwiftErrDefaultCatalog, with the CErrDefaultCatalog clang module) on top of
# it, used by a firmware-style client, linked for microcontrollers and held to
# a size budget (run by `make cross-swift-check`).
#
# 1. The targets' files are the package's, as SwiftPM resolves them (its path,
#    excludes and sources rules applied), never a file glob: the path and
#    sources of SwiftErrCore and SwiftErrDefaultCatalog from
#    `swift package describe --type json`, read with jq.
# 2. foundation-free.sh requires the files to import no Foundation module;
#    foundation-free.sh --self-test then plants such imports in a temporary
#    copy of the files and requires each to be rejected, so the check is known
#    to be able to fail.
# 3. For each target (armv7em-none-none-eabi and riscv32-none-none-eabi):
#    a. swiftc -enable-experimental-feature Embedded -wmo -parse-as-library
#       -Osize compiles the files as module SwiftErrCore (CErrCore through
#       Embedded/CErrCore/module.modulemap, which names include/CErrCore.h),
#       then SwiftErrDefaultCatalog's as module SwiftErrDefaultCatalog
#       (CErrDefaultCatalog through Embedded/CErrDefaultCatalog/module.modulemap);
#    b. Embedded/Probe/*.swift, importing SwiftErrCore, SwiftErrDefaultCatalog,
#       CErrCore and CErrDefaultCatalog, is compiled against those modules;
#    c. the C core and the built-in catalog's table are compiled freestanding
#       for the matching C target;
#    d. ld.lld --gc-sections links two firmwares from the probe's @_cdecl entry
#       points, each with a map file:
#         firmware-probe.elf  every entry point (typed and flag classification
#                             through SwiftErrCore, and the C API directly);
#         classify-only.elf   only the entry points that classify through
#                             SwiftErrCore with the built-in catalog
#                             (StudyGroupCode.classify, a Catalog.builtIn
#                             classification and its flags).
#       The toolchain's libswiftUnicodeDataTables.a is on the link line, so
#       whatever needs the Unicode tables gets them and is measured.
# 4. Prints the sizes of both firmwares with the catalog's share separated
#    (firmware-budget.sh) and the symbols a firmware must still provide.
#
# Exits non-zero when a step fails, when classify-only.elf links anything of
# libswiftUnicodeDataTables.a, or when classify-only.elf for armv7em has more
# than 8192 bytes of text or of rodata beyond the catalog. The toolchain is the
# one of the swiftc on PATH (its clang and ld.lld).
set -eu

cd "$(dirname "$0")/../.."
scripts=scripts/embedded

SWIFTC=$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)
[ -x "$SWIFTC" ] || { echo "swift-check: no swiftc on PATH" >&2; exit 1; }
bindir=$(dirname "$SWIFTC")
CLANG=$bindir/clang
LLD=$bindir/ld.lld
READELF=readelf
TARGETS="armv7em-none-none-eabi riscv32-none-none-eabi"
OUT=build/embedded-swift
C_SRC_DIR=Sources/CErrCore
CATALOG_SRC=Sources/CErrDefaultCatalog/default_catalog.c
BUDGET_TARGET=armv7em-none-none-eabi
TEXT_BUDGET=8192
RODATA_BUDGET=8192

# target_sources TARGET: the Swift files of a target of the package, one a line,
# in SwiftPM's order; exits when SwiftPM cannot load the package, or the target
# is missing, not a Swift target, or empty.
command -v jq >/dev/null 2>&1 || { echo "swift-check: jq not found (Debian: jq)" >&2; exit 1; }
description=$("$bindir/swift" package describe --type json) ||
    { echo "swift-check: 'swift package describe' could not load the package (above)" >&2; exit 1; }
target_sources() {
    listing=$(printf '%s\n' "$description" | jq -r --arg name "$1" '
        [.targets[] | select(.name == $name)] | first // empty
        | (.module_type, (.path as $path | .sources[] | $path + "/" + .))')
    kind=$(printf '%s\n' "$listing" | sed -n 1p)
    [ "$kind" = SwiftTarget ] || { echo "swift-check: '$1' is no Swift target of the package (${kind:-missing})" >&2; exit 1; }
    listed=$(printf '%s\n' "$listing" | sed 1d)
    [ -n "$listed" ] || { echo "swift-check: '$1' has no source files" >&2; exit 1; }
    printf '%s\n' "$listed"
}

# The probe's entry points: all of them, and the ones that classify through
# SwiftErrCore alone.
probe_entries="firmware_action firmware_study_group firmware_module firmware_tally"
classify_entries="firmware_action firmware_study_group"

sources=$(target_sources SwiftErrCore)
catalog_sources=$(target_sources SwiftErrDefaultCatalog)
if printf '%s\n' "$sources" "$catalog_sources" | grep -q '[[:space:]]'; then
    echo "swift-check: a source path contains white space, which this script cannot pass on:" >&2
    printf '%s\n' "$sources" "$catalog_sources" | grep '[[:space:]]' >&2
    exit 1
fi
# shellcheck disable=SC2086
set -- $catalog_sources
echo "== SwiftErrDefaultCatalog: the target's $# files, as swift package describe lists them"
# shellcheck disable=SC2086
set -- $sources
echo "== SwiftErrCore: the target's $# files, as swift package describe lists them"

echo "== SwiftErrCore and SwiftErrDefaultCatalog import no Foundation module"
# shellcheck disable=SC2086
sh "$scripts/foundation-free.sh" "$@" $catalog_sources
# shellcheck disable=SC2086
sh "$scripts/foundation-free.sh" --self-test "$@" $catalog_sources

probe=$(ls Embedded/Probe/*.swift)
csrcs="$(ls "$C_SRC_DIR"/*.c) $CATALOG_SRC"

# The C triple and code generation flags matching each Embedded Swift target.
c_target_flags() {
    case $1 in
        armv7em-none-none-eabi) echo "--target=thumbv7em-none-eabi -mcpu=cortex-m4 -mthumb -mfloat-abi=soft" ;;
        riscv32-none-none-eabi) echo "--target=riscv32-unknown-elf -march=rv32imac -mabi=ilp32" ;;
        *) return 1 ;;
    esac
}

# link ELF ENTRY... : the probe, SwiftErrCore and the C core, kept from ENTRY...
link() {
    elf=$1
    shift
    roots="-e $1"
    shift
    for entry in "$@"; do roots="$roots -u $entry"; done
    # shellcheck disable=SC2086
    "$LLD" -static -z norelro --gc-sections --warn-unresolved-symbols $roots -Map="$elf.map" \
        -o "$elf" "$dir/FirmwareProbe.o" "$dir/SwiftErrCore.o" "$dir/SwiftErrDefaultCatalog.o" "$dir"/c/*.o \
        "$unicode" \
        2>"$elf.log" || { cat "$elf.log" >&2; echo "swift-check: linking $elf failed" >&2; exit 1; }
}

table=$OUT/sizes.txt
mkdir -p "$OUT"
sh "$scripts/firmware-budget.sh" --header >"$table"
status=0
for target in $TARGETS; do
    dir=$OUT/$target
    rm -rf "$dir"
    mkdir -p "$dir/c"
    cflags=$(c_target_flags "$target") || {
        echo "swift-check: no C target known for $target" >&2
        exit 1
    }
    swiftflags="-enable-experimental-feature Embedded -target $target -wmo -parse-as-library -Osize
                -Xfrontend -function-sections -I Embedded/CErrCore -I Embedded/CErrDefaultCatalog
                -Xcc -ISources/CErrCore/include -module-cache-path $OUT/module-cache -package-name SwiftErr"

    echo "== $target: SwiftErrCore as Embedded Swift"
    # shellcheck disable=SC2086
    "$SWIFTC" $swiftflags -module-name SwiftErrCore \
        -emit-module -emit-module-path "$dir/SwiftErrCore.swiftmodule" \
        -c "$@" -o "$dir/SwiftErrCore.o"
    [ -f "$dir/SwiftErrCore.o" ] && [ -f "$dir/SwiftErrCore.swiftmodule" ] || {
        echo "swift-check: swiftc wrote no SwiftErrCore.o / SwiftErrCore.swiftmodule" >&2
        exit 1
    }

    echo "== $target: SwiftErrDefaultCatalog as Embedded Swift"
    # shellcheck disable=SC2086
    "$SWIFTC" $swiftflags -I "$dir" -module-name SwiftErrDefaultCatalog \
        -emit-module -emit-module-path "$dir/SwiftErrDefaultCatalog.swiftmodule" \
        -c $catalog_sources -o "$dir/SwiftErrDefaultCatalog.o"
    [ -f "$dir/SwiftErrDefaultCatalog.o" ] && [ -f "$dir/SwiftErrDefaultCatalog.swiftmodule" ] || {
        echo "swift-check: swiftc wrote no SwiftErrDefaultCatalog.o / SwiftErrDefaultCatalog.swiftmodule" >&2
        exit 1
    }

    echo "== $target: firmware probe importing SwiftErrCore, SwiftErrDefaultCatalog and the C modules: $(echo $probe)"
    # shellcheck disable=SC2086
    "$SWIFTC" $swiftflags -I "$dir" -module-name FirmwareProbe -c $probe -o "$dir/FirmwareProbe.o"
    [ -f "$dir/FirmwareProbe.o" ] || { echo "swift-check: swiftc wrote no FirmwareProbe.o" >&2; exit 1; }

    echo "== $target: C core and the built-in catalog's table ($cflags -ffreestanding -Os) and links"
    for src in $csrcs; do
        # shellcheck disable=SC2086
        "$CLANG" $cflags -std=c11 -ffreestanding -Os -Wall -Wextra -Wpedantic -Werror \
            -ffunction-sections -fdata-sections -isystem Embedded/freestanding -Iinclude \
            -c "$src" -o "$dir/c/$(basename "$src" .c).o"
    done
    unicode=$bindir/../lib/swift/embedded/$target/libswiftUnicodeDataTables.a
    [ -f "$unicode" ] || {
        echo "swift-check: the toolchain has no $unicode; without it the check cannot see" \
            "whether a firmware needs the Unicode tables" >&2
        exit 1
    }
    # shellcheck disable=SC2086
    link "$dir/firmware-probe.elf" $probe_entries
    # shellcheck disable=SC2086
    link "$dir/classify-only.elf" $classify_entries

    # Input sections the firmware keeps from the Unicode tables' archive. An
    # archive member is loaded when anything, live or not, names one of its
    # symbols; --gc-sections then drops its sections but keeps the 20-byte
    # .eh_frame header, which is no table.
    tables=$(grep 'libswiftUnicodeDataTables\.a(' "$dir/classify-only.elf.map" | grep -v ':(\.eh_frame' || true)
    if [ -n "$tables" ]; then
        echo "swift-check: $dir/classify-only.elf links $(printf '%s\n' "$tables" | wc -l | tr -d ' ')" \
            "sections of the standard library's Unicode tables, among them:" >&2
        printf '%s\n' "$tables" | sed -e 's/^ */    /' -e 10q >&2
        echo "    something on the classification path compares, hashes or normalises a String;" \
            "find it with: $LLD ... --why-live='_swift_stdlib_*' (see docs/embedded.md)" >&2
        status=1
    fi

    sh "$scripts/firmware-budget.sh" "$target" "$dir/firmware-probe.elf" "$dir/firmware-probe.elf.map" >>"$table"
    if [ "$target" = "$BUDGET_TARGET" ]; then
        sh "$scripts/firmware-budget.sh" "$target" "$dir/classify-only.elf" "$dir/classify-only.elf.map" \
            "$TEXT_BUDGET" "$RODATA_BUDGET" >>"$table" || status=1
    else
        sh "$scripts/firmware-budget.sh" "$target" "$dir/classify-only.elf" "$dir/classify-only.elf.map" >>"$table"
    fi
    for elf in firmware-probe classify-only; do
        undefined=$(sed -n 's/.*undefined symbol: \([^ ]*\).*/\1/p' "$dir/$elf.elf.log" | sort -u | tr '\n' ' ')
        echo "   $elf.elf: symbols the firmware must provide: ${undefined:-none}"
    done
done

echo
echo "== sizes in bytes (catalog: the part of text and rodata from default_catalog.o; beyond: the rest)"
cat "$table"
case " $TARGETS " in
    *" $BUDGET_TARGET "*) ;;
    *) echo "swift-check: the budget applies to $BUDGET_TARGET, which was not built: not checked" ;;
esac
if [ "$status" -ne 0 ]; then
    echo "swift-check: FAILED (above)" >&2
    exit 1
fi
echo "swift-check: OK ($TARGETS)"
