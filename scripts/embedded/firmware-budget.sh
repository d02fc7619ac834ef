#!/bin/sh
# firmware-budget.sh — the size of a linked firmware, the share of it that is
# the built-in catalog, and the rest checked against a budget.
#
# Usage: scripts/embedded/firmware-budget.sh --header
#   prints the column names;
#        scripts/embedded/firmware-budget.sh LABEL ELF MAP [TEXT_MAX RODATA_MAX]
#   prints one row for ELF (linked by ld.lld with -Map=MAP):
#     text rodata data+bss other   the whole file (elf-sizes.awk)
#     catalog text rodata          what the input sections of the catalog
#                                  object put into .text and .rodata/.srodata
#                                  (from MAP)
#     beyond text rodata           the difference: everything but the catalog
#   and, with TEXT_MAX and RODATA_MAX, exits 1 when "beyond" exceeds either.
#
# Also exits 1 when the map has no input from the catalog object (the share
# could not be measured) or the ELF cannot be read.
#
# Environment: READELF (default readelf). The catalog's object is default_catalog.o.
set -eu

format='%-22s %-18s %6s %6s %8s %5s | %7s %6s | %6s %6s  %s\n'
if [ "${1:-}" = --header ]; then
    # shellcheck disable=SC2059
    {
        printf "$format" target firmware text rodata data+bss other "catalog" "" beyond "" budget
        printf "$format" "" "" "" "" "" "" text rodata text rodata ""
    } | sed 's/ *$//'
    exit 0
fi
if [ $# -ne 3 ] && [ $# -ne 5 ]; then
    echo "usage: $0 --header | $0 LABEL ELF MAP [TEXT_MAX RODATA_MAX]" >&2
    exit 2
fi
label=$1 elf=$2 map=$3 text_max=${4:-} rodata_max=${5:-}
READELF=${READELF:-readelf}
CATALOG_OBJECT=default_catalog.o
here=$(dirname "$0")

[ -f "$map" ] || { echo "firmware-budget: no map file $map" >&2; exit 1; }
sections=$("$READELF" -S -W "$elf") || { echo "firmware-budget: cannot read the sections of $elf" >&2; exit 1; }
set -- $(printf '%s\n' "$sections" | awk -f "$here/elf-sizes.awk")
text=$1 rodata=$2 databss=$(($3 + $4)) other=$5

# ld.lld's map: VMA, LMA, size (hex), alignment, then the output section at the
# "Out" column, an input section ("file:(section)") 8 columns further in, and
# a symbol 16 columns in.
share=$(awk -v object="$CATALOG_OBJECT" '
    function hex(digits,    i, n) {
        n = 0
        for (i = 1; i <= length(digits); i++) n = n * 16 + index("0123456789abcdef", tolower(substr(digits, i, 1))) - 1
        return n
    }
    NR == 1 { column = index($0, "Out"); next }
    column == 0 { exit 2 }
    {
        rest = substr($0, column)
        if (rest ~ /^[^ ]/) { split(rest, word, " "); out = word[1]; next }
        if (rest !~ /^        [^ ]/) next
        file = substr(rest, 9)
        sub(/:\(.*$/, "", file)
        sub(/^.*\//, "", file)
        if (file != object) next
        seen = 1
        if (out ~ /^\.text/) text += hex($3)
        else if (out ~ /^\.s?rodata/) rodata += hex($3)
    }
    END { if (column == 0) exit 2; printf "%d %d %d\n", seen, text, rodata }' "$map") || {
    echo "firmware-budget: $map is not an ld.lld map file" >&2
    exit 1
}
set -- $share
seen=$1 catalog_text=$2 catalog_rodata=$3
if [ "$seen" -ne 1 ]; then
    echo "firmware-budget: $map has no input section from $CATALOG_OBJECT," \
        "so the catalog's share of $elf is unknown" >&2
    exit 1
fi
beyond_text=$((text - catalog_text)) beyond_rodata=$((rodata - catalog_rodata))

verdict=-
status=0
if [ -n "$text_max" ]; then
    if [ "$beyond_text" -le "$text_max" ] && [ "$beyond_rodata" -le "$rodata_max" ]; then
        verdict="<= $text_max/$rodata_max ok"
    else
        verdict="<= $text_max/$rodata_max EXCEEDED"
        status=1
    fi
fi
# shellcheck disable=SC2059
printf "$format" "$label" "$(basename "$elf")" "$text" "$rodata" "$databss" "$other" \
    "$catalog_text" "$catalog_rodata" "$beyond_text" "$beyond_rodata" "$verdict"
if [ "$status" -ne 0 ]; then
    echo "firmware-budget: $label $(basename "$elf"): $beyond_text bytes of text and $beyond_rodata of rodata" \
        "beyond the catalog; the budget is $text_max and $rodata_max" >&2
fi
exit $status
