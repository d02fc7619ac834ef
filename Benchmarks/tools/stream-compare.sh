#!/usr/bin/env bash
# stream-compare.sh — errcat classify against what a user would pick instead, on one JSONL file:
# a C++ program with simdjson On-Demand (Benchmarks/Stream/simdjson_lines.cpp, against Debian's
# libsimdjson-dev), `jq -R 'fromjson? | .ret'` and `wc -l` (the read floor). Each tool runs once,
# on a file in the page cache; CPU time is user + sys from /usr/bin/time.
#
# usage (from the repository root):
#   Benchmarks/tools/stream-compare.sh [LINES] [SEED]     default 2000000 lines, seed 7
#
# Installs libsimdjson-dev, jq and time with apt-get when they are missing (needs root), builds
# errcat in release mode, and prints a Markdown table with CPU-time ratios against simdjson.
# Then the step after classifying a fleet's shards: MERGE_SUMMARIES (default 10,000) shard
# summaries added up by `errcat merge` in a tree of groups of 100 (Benchmarks/tools/merge-tree.sh,
# which keeps its 900 MB corpus in build/).
set -euo pipefail
lines=${1:-2000000}
seed=${2:-7}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

need=()
[ -f /usr/include/simdjson.h ] || need+=(libsimdjson-dev)
command -v jq >/dev/null || need+=(jq)
[ -x /usr/bin/time ] || need+=(time)
command -v g++ >/dev/null || need+=(g++)
if ((${#need[@]})); then
    echo "stream-compare: installing ${need[*]}" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >&2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
swift build -c release --product errcat >&2
errcat=$root/.build/release/errcat
g++ -O3 -std=c++17 -Wall -Wextra -o "$tmp/simdjson_lines" Benchmarks/Stream/simdjson_lines.cpp -lsimdjson
input=$tmp/sample.jsonl
"$errcat" sample "$lines" --seed "$seed" >"$input"
cat "$input" >/dev/null

# run NAME COMMAND...: one run; records user, sys, wall seconds and peak RSS (KB).
declare -A user sys wall rss
run() {
    local name=$1
    shift
    /usr/bin/time -f "%U %S %e %M" -o "$tmp/time" "$@" >"$tmp/out.$name" 2>"$tmp/err.$name" || {
        echo "stream-compare: $name failed:" >&2
        cat "$tmp/err.$name" >&2
        exit 1
    }
    read -r user[$name] sys[$name] wall[$name] rss[$name] <"$tmp/time"
}
run wc wc -l "$input"
run simdjson "$tmp/simdjson_lines" "$input"
run errcat "$errcat" classify --jobs 1 --quiet --max-errors 0 "$input"
run errcat_jobs2 "$errcat" classify --jobs 2 --quiet --max-errors 0 "$input"
run jq jq -R 'fromjson? | .ret' "$input"

# The two tools must agree on the lines and on the count of valid codes.
simd_valid=$(sed -n 's/^lines \([0-9]*\), errors \([0-9]*\).*/\1 \2/p' "$tmp/out.simdjson" | awk '{print $1 - $2}')
errcat_valid=$(awk '$1 == "valid" {print $2}' "$tmp/out.errcat")

cpu() { awk -v u="${user[$1]}" -v s="${sys[$1]}" 'BEGIN { printf "%.2f", u + s }'; }
ratio() { awk -v a="$(cpu "$1")" -v b="$(cpu "$2")" 'BEGIN { if (b == 0) print "-"; else printf "%.2f", a / b }'; }

bytes=$(stat -c %s "$input")
echo "input: errcat sample $lines --seed $seed ($bytes bytes, in the page cache); $(date -u '+%Y-%m-%d %H:%M UTC');" \
    "load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "valid lines: errcat $errcat_valid, simdjson program $simd_valid (lines it parsed with an integer ret)"
echo
echo "| tool | user s | sys s | CPU s | wall s | peak RSS MB | CPU / simdjson |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for name in wc simdjson errcat errcat_jobs2 jq; do
    case $name in
        wc) label='`wc -l` (read floor)' ;;
        simdjson) label='C++ simdjson On-Demand (`ret` as int64, histogram)' ;;
        errcat) label='`errcat classify --jobs 1` (full validation, reasons)' ;;
        errcat_jobs2) label='`errcat classify --jobs 2`' ;;
        jq) label="\`jq -R 'fromjson? \\| .ret'\`" ;;
    esac
    printf '| %s | %s | %s | %s | %s | %.1f | %s |\n' "$label" "${user[$name]}" "${sys[$name]}" "$(cpu $name)" \
        "${wall[$name]}" "$(awk -v k="${rss[$name]}" 'BEGIN { print k / 1024 }')" "$(ratio $name simdjson)"
done
echo
echo "errcat --jobs 1 CPU / simdjson CPU: $(ratio errcat simdjson) (target <= 1.0)"
echo "jq CPU / errcat --jobs 1 CPU: $(ratio jq errcat)"
jobs_ratio=$(awk -v a="${wall[errcat_jobs2]}" -v b="${wall[errcat]}" 'BEGIN { printf "%.2f", a / b }')
echo "errcat --jobs 2 wall / --jobs 1 wall: $jobs_ratio (one run each; compare medians of several for --jobs)"
echo
echo "errcat merge of the shards' summaries:"
Benchmarks/tools/merge-tree.sh "$errcat" "${MERGE_SUMMARIES:-10000}" 100
