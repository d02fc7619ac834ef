#!/usr/bin/env bash
# stream-compare.sh — errcat classify against what a user would pick instead, on one JSONL file:
# a C++ program with simdjson On-Demand (Benchmarks/Stream/simdjson_lines.cpp, against Debian's
# libsimdjson-dev), `jq -R 'fromjson? | .ret'` and `wc -l` (the read floor). Then nested string
# codes: Google's AIP-193 errors and Stripe's, as many lines drawn from the example catalogs'
# corpora (catalog/examples), errcat with that catalog against the simdjson program in that shape.
# Each tool runs once, on a file in the page cache; CPU time is user + sys from /usr/bin/time.
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

# Nested string codes: the same number of lines drawn (fixed seed) from an example catalog's corpus,
# classified by errcat with that catalog and by the simdjson program in that shape.
echo
echo "nested string codes: errcat classify --jobs 1 --catalog catalog/examples/NAME.json against the"
echo "simdjson program in the same shape, on $lines lines drawn from catalog/examples/NAME.jsonl"
echo
echo "| corpus | bytes | simdjson CPU s | errcat CPU s | errcat / simdjson | successes (simdjson, errcat) |"
echo "|---|---:|---:|---:|---:|---|"
for pair in google:aip193 stripe:stripe; do
    name=${pair%%:*}
    shape=${pair#*:}
    corpus=$tmp/$name.jsonl
    python3 - "catalog/examples/$name.jsonl" "$lines" "$seed" >"$corpus" <<'PY'
import random, sys
source, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(source, encoding="utf-8") as handle:
    lines = [line for line in handle if line.strip()]
random.seed(seed)
sys.stdout.writelines(random.choice(lines) for _ in range(count))
PY
    cat "$corpus" >/dev/null
    run "simdjson_$name" "$tmp/simdjson_lines" --shape "$shape" "$corpus"
    run "errcat_$name" "$errcat" classify --jobs 1 --quiet --max-errors 0 --catalog "catalog/examples/$name.json" "$corpus"
    simd_lines=$(sed -n 's/^lines \([0-9]*\),.*/\1/p' "$tmp/out.simdjson_$name")
    simd_ok=$(sed -n 's/.*successes \([0-9]*\),.*/\1/p' "$tmp/out.simdjson_$name")
    errcat_lines=$(awk '$1 == "lines" {print $2}' "$tmp/out.errcat_$name")
    errcat_ok=$(awk '$1 == "success" {print $2; exit}' "$tmp/out.errcat_$name")
    if [ "$simd_lines" != "$errcat_lines" ] || [ "$simd_ok" != "$errcat_ok" ]; then
        echo "stream-compare: on $name, simdjson read $simd_lines lines ($simd_ok successes)," \
            "errcat $errcat_lines ($errcat_ok)" >&2
        exit 1
    fi
    printf '| %s | %s | %s | %s | %s | %s, %s |\n' "$name" "$(stat -c %s "$corpus")" "$(cpu "simdjson_$name")" \
        "$(cpu "errcat_$name")" "$(ratio "errcat_$name" "simdjson_$name")" "$simd_ok" "$errcat_ok"
    rm -f "$corpus"
done
echo "(target: errcat / simdjson <= 1.0 on each)"

echo
echo "errcat merge of the shards' summaries:"
Benchmarks/tools/merge-tree.sh "$errcat" "${MERGE_SUMMARIES:-10000}" 100
