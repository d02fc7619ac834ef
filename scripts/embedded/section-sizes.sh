#!/bin/sh
# section-sizes.sh — section sizes and external symbols of the freestanding
# cross build of the C core (run by `make cross`).
#
# Usage: scripts/embedded/section-sizes.sh BUILD_DIR TARGET...
#   BUILD_DIR/TARGET/*.o  the objects of one target (one per core .c file)
#        scripts/embedded/section-sizes.sh --linked ELF...
#   one line per linked file: text, rodata, data+bss, other (no checks)
#
# Prints, per target, one row per object and a total row with the bytes of
#   text    allocated, executable sections           (.text.*)
#   rodata  allocated, read-only .rodata*/.srodata*   (tables, strings)
#   data    allocated, writable, with contents        (.data*, .sdata*, ...)
#   bss     allocated, writable, no contents          (.bss*, .sbss*, ...)
#   other   any other allocated read-only section     (.ARM.exidx unwind index)
# (counted by elf-sizes.awk), then the symbols the core needs from outside
# itself (stack use: stack-usage.sh).
#
# Exits 1 when any object has data or bss (the core must have no writable
# globals), when an external symbol is not one the compiler or a minimal C
# runtime provides (the <string.h> functions of Embedded/freestanding/string.h
# and the compiler's own helper routines), or when a target has no objects.
#
# Environment: READELF (default readelf), NM (default llvm-nm, else nm).
set -eu

if [ $# -lt 2 ]; then
    echo "usage: $0 BUILD_DIR TARGET... | $0 --linked ELF..." >&2
    exit 2
fi
dir=$1
shift
targets=$*

here=$(dirname "$0")
READELF=${READELF:-readelf}
if [ -z "${NM:-}" ]; then
    if command -v llvm-nm >/dev/null 2>&1; then NM=llvm-nm; else NM=nm; fi
fi

# External symbols a freestanding core may need: the string functions the
# shim header declares, and the compiler's runtime helpers (ARM EABI
# __aeabi_*, and libgcc/compiler-rt names such as __udivdi3).
allowed='^(memcpy|memmove|memset|memcmp|strlen|strcmp|strncmp|__aeabi_[a-z0-9_]+'
allowed=$allowed'|__(u?(div|mod)|udivmod|divmod|mul|ashl|ashr|lshr|clz|ctz|popcount)[sd]i[34])$'

status=0

# sizes OBJ -> "text rodata data bss other"
sizes() {
    sections=$("$READELF" -S -W "$1") || return 1
    printf '%s\n' "$sections" | awk -f "$here/elf-sizes.awk"
}

if [ "$dir" = --linked ]; then
    for elf in $targets; do
        counts=$(sizes "$elf") || { echo "error: could not read the sections of $elf with $READELF" >&2; exit 1; }
        set -- $counts
        printf '%-50s text %6d  rodata %6d  data+bss %4d  other %4d\n' "$elf" "$1" "$2" $(($3 + $4)) "$5"
    done
    exit 0
fi

printf '%-22s %-22s %7s %7s %7s %7s %7s\n' target object text rodata data bss other
for target in $targets; do
    objs=$(ls "$dir/$target"/*.o 2>/dev/null || true)
    if [ -z "$objs" ]; then
        echo "error: no objects in $dir/$target" >&2
        status=1
        continue
    fi
    tt=0 tr=0 td=0 tb=0 to=0
    for obj in $objs; do
        if ! counts=$(sizes "$obj"); then
            echo "error: could not read the sections of $obj with $READELF" >&2
            status=1
            continue
        fi
        set -- $counts
        printf '%-22s %-22s %7d %7d %7d %7d %7d\n' "$target" "$(basename "$obj")" "$1" "$2" "$3" "$4" "$5"
        if [ "$3" -ne 0 ] || [ "$4" -ne 0 ]; then
            echo "error: $obj has writable data (.data $3 bytes, .bss $4 bytes); the core must have none" >&2
            status=1
        fi
        tt=$((tt + $1)) tr=$((tr + $2)) td=$((td + $3)) tb=$((tb + $4)) to=$((to + $5))
    done
    printf '%-22s %-22s %7d %7d %7d %7d %7d\n' "$target" TOTAL "$tt" "$tr" "$td" "$tb" "$to"
done

echo
for target in $targets; do
    objs=$(ls "$dir/$target"/*.o 2>/dev/null || true)
    [ -n "$objs" ] || continue
    defined=$("$NM" -g --defined-only $objs | awk 'NF >= 3 { print $3 }' | sort -u)
    needed=$("$NM" -u $objs | awk 'NF >= 2 { print $2 }' | sort -u)
    external=$(printf '%s\n' "$needed" | while read -r sym; do
        [ -n "$sym" ] || continue
        printf '%s\n' "$defined" | grep -qx -- "$sym" || printf '%s\n' "$sym"
    done)
    echo "$target external symbols: $(printf '%s ' $external)"
    for sym in $external; do
        if ! printf '%s\n' "$sym" | grep -Eq "$allowed"; then
            echo "error: $target: the core needs '$sym', which is not a <string.h> function or a compiler helper" >&2
            status=1
        fi
    done
done

exit $status
