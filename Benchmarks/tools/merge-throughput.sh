#!/usr/bin/env bash
# merge-throughput.sh — how fast `errcat merge` adds up summaries on one core: MB of summary JSON
# per CPU second (user + sys from /usr/bin/time, one process, merge has no threads) over the
# corpus of Benchmarks/tools/merge-corpus.sh (2,000 summaries of 6,718 codes, 179.9 MB), the files
# in the page cache. With a second errcat (another build, say the one before a change) the two
# are run alternately and must print the same bytes. Python's json module parsing the same files
# (nothing added up) is measured once per run as a yardstick.
#
# usage (from the repository root):
#   Benchmarks/tools/merge-throughput.sh [ERRCAT] [RUNS] [OTHER_ERRCAT] [COUNT] [KIND]
#     ERRCAT        the errcat to measure (default: build it with swift build -c release)
#     RUNS          runs of each program (default 7); medians are reported
#     OTHER_ERRCAT  an errcat to compare with (default: none)
#     COUNT         summaries in the corpus (default 2000)
#     KIND          multiples (default: every summary lists the same codes) or seeds (summaries of
#                   different codes), see merge-corpus.sh
# The corpus is kept in build/merge-corpus-COUNT (-seeds for seeds; made again when missing).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
errcat=${1:-}
runs=${2:-7}
other=${3:-}
count=${4:-2000}
kind=${5:-multiples}
if [ -z "$errcat" ]; then
    swift build -c release --product errcat >&2
    errcat=$(swift build -c release --show-bin-path)/errcat
fi
[ -x /usr/bin/time ] || {
    echo "merge-throughput: needs /usr/bin/time (Debian package time)" >&2
    exit 1
}
corpus=build/merge-corpus-$count$([ "$kind" = multiples ] || echo "-$kind")
if [ ! -f "$corpus/shard-$(printf '%05d' $((count - 1))).json" ]; then
    Benchmarks/tools/merge-corpus.sh "$errcat" "$corpus" "$count" 173735 1 "$kind" >&2
fi
files=()
for ((index = 0; index < count; index++)); do files+=("$(printf '%s/shard-%05d.json' "$corpus" "$index")"); done
bytes=$(cat "${files[@]}" | wc -c)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# cpu NAME COMMAND...: runs once, appends user + sys seconds to $tmp/NAME.cpu, output to $tmp/NAME.out.
cpu() {
    local name=$1
    shift
    /usr/bin/time -f "%U %S" -o "$tmp/time" "$@" >"$tmp/$name.out"
    awk '{ printf "%.2f\n", $1 + $2 }' "$tmp/time" >>"$tmp/$name.cpu"
}
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
rate() { awk -v b="$bytes" -v s="$1" 'BEGIN { if (s == 0) print "-"; else printf "%.0f", b / 1e6 / s }'; }

echo "merge-throughput: $count summaries ($kind), $bytes bytes; $(date -u '+%Y-%m-%d %H:%M UTC');" \
    "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((run = 1; run <= runs; run++)); do
    cpu errcat "$errcat" merge "${files[@]}"
    if [ -n "$other" ]; then
        cpu other "$other" merge "${files[@]}"
        cmp -s "$tmp/errcat.out" "$tmp/other.out" || {
            echo "merge-throughput: the two errcats print different summaries" >&2
            exit 1
        }
    fi
    cpu python python3 -c 'import json, sys
for path in sys.argv[1:]:
    with open(path, "rb") as f: json.load(f)' "${files[@]}"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| program | CPU s per run | median CPU s | MB/s of summary JSON |"
echo "|---|---|---:|---:|"
for name in errcat other python; do
    [ -f "$tmp/$name.cpu" ] || continue
    case $name in
        errcat) label="\`$errcat merge\`" ;;
        other) label="\`$other merge\`" ;;
        python) label="Python \`json.load\` of each file (parse only)" ;;
    esac
    m=$(median "$tmp/$name.cpu")
    echo "| $label | $(paste -sd' ' "$tmp/$name.cpu") | $m | $(rate "$m") |"
done
