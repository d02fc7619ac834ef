#!/bin/sh
# swift-check.sh — proves that the Foundation-free part of SwiftErr
# (Sources/SwiftErr/Core/*.swift) compiles as Embedded Swift together with the
# CErrCore clang module, and that a firmware-style client can use it.
#
# For each target (EMBEDDED_SWIFT_TARGETS, default armv7em-none-none-eabi and
# riscv32-none-none-eabi):
#   1. swiftc -enable-experimental-feature Embedded -wmo -parse-as-library
#      compiles Sources/SwiftErr/Core/*.swift as module SwiftErr into an
#      object and a .swiftmodule (CErrCore found through
#      Embedded/CErrCore/module.modulemap, which names include/CErrCore.h);
#   2. Embedded/Probe/*.swift, which imports SwiftErr and CErrCore, is
#      compiled against that module;
#   3. the C core is compiled freestanding for the matching C target and
#      linked with both objects (and the toolchain's Embedded Swift Unicode
#      tables) by ld.lld --gc-sections from the probe's C entry points, which
#      shows the firmware footprint and every symbol a firmware must still
#      provide (reported, not an error).
# Exits non-zero when any compile or the link fails.
#
# Environment: SWIFTC, CLANG, LLD (default: the toolchain next to swiftc),
# EMBEDDED_SWIFT_TARGETS, EMBEDDED_SWIFT_OUT (default build/embedded-swift),
# EMBEDDED_C_SRC_DIR (default Sources/CErrCore).
set -eu

cd "$(dirname "$0")/../.."

SWIFTC=${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}
bindir=$(dirname "$SWIFTC")
CLANG=${CLANG:-$bindir/clang}
LLD=${LLD:-$bindir/ld.lld}
TARGETS=${EMBEDDED_SWIFT_TARGETS:-armv7em-none-none-eabi riscv32-none-none-eabi}
OUT=${EMBEDDED_SWIFT_OUT:-build/embedded-swift}

core=$(ls Sources/SwiftErr/Core/*.swift 2>/dev/null || true)
if [ -z "$core" ]; then
    echo "embedded-swift-check: no Sources/SwiftErr/Core/*.swift to check" >&2
    exit 1
fi
if grep -l -E '^[[:space:]]*(@_exported[[:space:]]+)?import[[:space:]]+(Foundation|FoundationEssentials)' $core; then
    echo "embedded-swift-check: the files above import Foundation; Core/ must not" >&2
    exit 1
fi
probe=$(ls Embedded/Probe/*.swift)
csrcs=$(ls "${EMBEDDED_C_SRC_DIR:-Sources/CErrCore}"/*.c)

# The C triple and code generation flags matching each Embedded Swift target.
c_target_flags() {
    case $1 in
        armv7em-none-none-eabi) echo "--target=thumbv7em-none-eabi -mcpu=cortex-m4 -mthumb -mfloat-abi=soft" ;;
        riscv32-none-none-eabi) echo "--target=riscv32-unknown-elf -march=rv32imac -mabi=ilp32" ;;
        *) return 1 ;;
    esac
}

for target in $TARGETS; do
    dir=$OUT/$target
    rm -rf "$dir"
    mkdir -p "$dir/c"
    swiftflags="-enable-experimental-feature Embedded -target $target -wmo -parse-as-library -Osize -Xfrontend -function-sections
                -I Embedded/CErrCore -module-cache-path $OUT/module-cache"

    echo "== $target: SwiftErr core as Embedded Swift"
    echo "   $(echo $core)"
    # shellcheck disable=SC2086
    "$SWIFTC" $swiftflags -module-name SwiftErr \
        -emit-module -emit-module-path "$dir/SwiftErr.swiftmodule" \
        -c $core -o "$dir/SwiftErr.o"
    test -f "$dir/SwiftErr.o" && test -f "$dir/SwiftErr.swiftmodule" || {
        echo "embedded-swift-check: swiftc wrote no SwiftErr.o / SwiftErr.swiftmodule" >&2
        exit 1
    }

    echo "== $target: firmware probe importing SwiftErr and CErrCore"
    echo "   $(echo $probe)"
    # shellcheck disable=SC2086
    "$SWIFTC" $swiftflags -I "$dir" -module-name FirmwareProbe -c $probe -o "$dir/FirmwareProbe.o"
    test -f "$dir/FirmwareProbe.o" || {
        echo "embedded-swift-check: swiftc wrote no FirmwareProbe.o" >&2
        exit 1
    }

    cflags=$(c_target_flags "$target") || {
        echo "embedded-swift-check: no C target known for $target" >&2
        exit 1
    }
    echo "== $target: C core ($cflags -ffreestanding -Os) and link"
    for src in $csrcs; do
        # shellcheck disable=SC2086
        "$CLANG" $cflags -std=c11 -ffreestanding -Os -Wall -Wextra -Wpedantic -Werror \
            -ffunction-sections -fdata-sections -isystem Embedded/freestanding -Iinclude \
            -c "$src" -o "$dir/c/$(basename "$src" .c).o"
    done
    # Keep what the probe's C entry points reach; list what is left undefined.
    # The Embedded Swift stdlib's Unicode tables (String comparison needs
    # them) come with the toolchain as a static library.
    unicode=$bindir/../lib/swift/embedded/$target/libswiftUnicodeDataTables.a
    [ -f "$unicode" ] || unicode=
    "$LLD" -static -z norelro --gc-sections --warn-unresolved-symbols \
        -e firmware_action -u firmware_study_group -u firmware_module -u firmware_tally \
        -o "$dir/firmware-probe.elf" "$dir/FirmwareProbe.o" "$dir/SwiftErr.o" "$dir"/c/*.o $unicode \
        2> "$dir/link.log" || { cat "$dir/link.log" >&2; exit 1; }

    echo "== $target: sizes (bytes)"
    sh Embedded/scripts/section-sizes.sh --linked "$dir/SwiftErr.o" "$dir/FirmwareProbe.o" "$dir/firmware-probe.elf"
    undefined=$(sed -n 's/.*undefined symbol: \([^ ]*\).*/\1/p' "$dir/link.log" | sort -u | tr '\n' ' ')
    echo "   symbols the firmware must provide: ${undefined:-none}"
done
echo "embedded-swift-check: OK ($TARGETS)"
