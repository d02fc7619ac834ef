#!/usr/bin/env bash
# jobs-ratio.sh — `errcat classify --jobs 2` against `--jobs 1` on one file: RUNS alternating
# runs of each (wall and user + sys seconds from /usr/bin/time, `--quiet --max-errors 0`, the
# file in the page cache), medians and the ratio of the median wall times. The load average
# before and after is printed: on a machine whose cores other work holds, the second job has no
# core to run on and the ratio says more about the load than about errcat.
#
# usage (from the repository root):
#   Benchmarks/tools/jobs-ratio.sh ERRCAT FILE [RUNS]     default 9 runs of each
# A 102 MB file: errcat sample 2000000 --seed 7 > FILE
set -euo pipefail
errcat=$1
file=$2
runs=${3:-9}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
cat "$file" >/dev/null
echo "jobs-ratio: $file ($(stat -c %s "$file") bytes); $(date -u '+%Y-%m-%d %H:%M:%S UTC');" \
    "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((run = 1; run <= runs; run++)); do
    for jobs in 1 2; do
        /usr/bin/time -f "$jobs %e %U %S" -a -o "$tmp" \
            "$errcat" classify --jobs "$jobs" --quiet --max-errors 0 "$file" >/dev/null 2>&1
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for jobs in 1 2; do
    echo "--jobs $jobs wall s: $(awk -v j=$jobs '$1 == j { print $2 }' "$tmp" | sort -n | paste -sd' ')," \
        "CPU s: $(awk -v j=$jobs '$1 == j { printf "%.2f\n", $3 + $4 }' "$tmp" | sort -n | paste -sd' ')"
done
one=$(awk '$1 == 1 { print $2 }' "$tmp" | median)
two=$(awk '$1 == 2 { print $2 }' "$tmp" | median)
echo "median wall: --jobs 1 $one s, --jobs 2 $two s; ratio $(awk -v a="$one" -v b="$two" 'BEGIN { printf "%.2f", b / a }') (target <= 0.6)"
