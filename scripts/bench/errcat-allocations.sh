#!/usr/bin/env bash
# errcat-allocations.sh — errcat classify allocates per read chunk (1 MiB), never per line: the
# allocation calls of a whole `errcat classify --jobs 1` process over LINES lines and over
# LINES/100 lines (the same sample generator and seed) may differ by at most LINES/100, where one
# allocation per line would add 0.99 × LINES. Start-up, catalog and output allocations are the
# same in both runs and cancel out.
#
# usage: scripts/bench/errcat-allocations.sh [ERRCAT] [LINES]
#   ERRCAT  the errcat executable (default: build it with swift build -c release)
#   LINES   lines of the larger input (default 1000000)
# Counts with scripts/bench/malloc-count.c (LD_PRELOAD). Exits 1 when the bound is broken.
. "$(dirname "$0")/../lib.sh"
errcat=${1:-}
lines=${2:-1000000}
if [ -z "$errcat" ]; then
    swift build -c release --product errcat >/dev/null
    errcat=$(swift build -c release --show-bin-path)/errcat
fi
work=build/errcat-allocations
mkdir -p "$work"
cc -O2 -shared -fPIC scripts/bench/malloc-count.c -o "$work/malloc-count.so" -ldl
small=$((lines / 100))
"$errcat" sample "$lines" --seed 7 >"$work/large.jsonl"
"$errcat" sample "$small" --seed 7 >"$work/small.jsonl"
count() {
    MALLOC_COUNT_FILE="$work/count" LD_PRELOAD="$root/$work/malloc-count.so" \
        "$errcat" classify --jobs 1 --quiet --max-errors 0 "$1" >/dev/null 2>&1
    cat "$work/count"
}
large=$(count "$work/large.jsonl")
small_count=$(count "$work/small.jsonl")
[ "$small_count" -gt 0 ] || die "the counter saw no allocation (LD_PRELOAD not applied?)"
difference=$((large - small_count))
bound=$((lines / 100))
echo "errcat classify allocation calls: $small_count for $small lines, $large for $lines lines;" \
    "difference $difference (bound $bound)"
rm -f "$work/large.jsonl" "$work/small.jsonl"
[ "$difference" -le "$bound" ] || die "classify allocates with the number of lines"
