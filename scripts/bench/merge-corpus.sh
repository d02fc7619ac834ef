#!/usr/bin/env bash
# merge-corpus.sh — writes COUNT shard summaries for `errcat merge` benchmarks, the same files for
# the same arguments: the summary of `errcat sample LINES --seed SEED` (with the defaults, 6,718
# distinct codes and 89,721 bytes) and its multiples by 2 to 9 (each made by `errcat merge` of
# that many copies, so every count differs and every file is errcat's own output), written in
# turn as DIR/shard-00000.json, DIR/shard-00001.json, … (multiple 1, 2, …, 9, 1, 2, …).
#
# usage (from the repository root):
#   scripts/bench/merge-corpus.sh ERRCAT DIR [COUNT] [LINES] [SEED]
#     ERRCAT  the errcat executable (e.g. .build/release/errcat)
#     DIR     where the summaries go (created; files of an earlier run are overwritten)
#     COUNT   number of summaries (default 2000)
#     LINES   lines of the sample behind them (default 173735)
#     SEED    the sample's seed (default 1)
# Prints the number of files and their total size in bytes.
set -euo pipefail
errcat=$1
dir=$2
count=${3:-2000}
lines=${4:-173735}
seed=${5:-1}
mkdir -p "$dir"
base=$dir/multiple-1.summary
"$errcat" sample "$lines" --seed "$seed" | "$errcat" classify --json --quiet --max-errors 0 - >"$base"
for multiple in 2 3 4 5 6 7 8 9; do
    copies=()
    for _ in $(seq "$multiple"); do copies+=("$base"); done
    "$errcat" merge "${copies[@]}" >"$dir/multiple-$multiple.summary"
done
for ((index = 0; index < count; index++)); do
    cp "$dir/multiple-$((index % 9 + 1)).summary" "$(printf '%s/shard-%05d.json' "$dir" "$index")"
done
total=0
for multiple in 1 2 3 4 5 6 7 8 9; do
    files=$(((count + 9 - multiple) / 9))
    total=$((total + files * $(wc -c <"$dir/multiple-$multiple.summary")))
done
echo "merge-corpus: $count summaries in $dir, $total bytes"
