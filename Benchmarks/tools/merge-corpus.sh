#!/usr/bin/env bash
# merge-corpus.sh — writes COUNT shard summaries for `errcat merge` benchmarks, the same files for
# the same arguments, as DIR/shard-00000.json, DIR/shard-00001.json, … Two kinds:
#
# - multiples (the default): the summary of `errcat sample LINES --seed SEED` (with the defaults,
#   6,718 distinct codes and 89,721 bytes) and its multiples by 2 to 9 (each made by `errcat
#   merge` of that many copies, so every count differs and every file is errcat's own output),
#   in turn: multiple 1, 2, …, 9, 1, 2, … Every summary lists the same codes, as shards of one
#   log do when their unlisted codes repeat.
# - seeds: the summaries of `errcat sample LINES --seed S` for S = SEED, SEED + 1, …,
#   SEED + 199, in turn: summaries of different codes (the sample's unlisted codes are random),
#   200 of them made (about 45 s), then repeated.
#
# usage (from the repository root):
#   Benchmarks/tools/merge-corpus.sh ERRCAT DIR [COUNT] [LINES] [SEED] [KIND]
#     ERRCAT  the errcat executable (e.g. .build/release/errcat)
#     DIR     where the summaries go (created; files of an earlier run are overwritten)
#     COUNT   number of summaries (default 2000)
#     LINES   lines of the sample behind each (default 173735)
#     SEED    the (first) sample's seed (default 1)
#     KIND    multiples or seeds (default multiples)
# Prints the number of files and their total size in bytes.
set -euo pipefail
errcat=$1
dir=$2
count=${3:-2000}
lines=${4:-173735}
seed=${5:-1}
kind=${6:-multiples}
mkdir -p "$dir"
summary() { "$errcat" sample "$lines" --seed "$1" | "$errcat" classify --json --quiet --max-errors 0 - 2>/dev/null; }
case $kind in
    multiples)
        distinct=9
        summary "$seed" >"$dir/distinct-0.summary"
        for multiple in 2 3 4 5 6 7 8 9; do
            copies=()
            for _ in $(seq "$multiple"); do copies+=("$dir/distinct-0.summary"); done
            "$errcat" merge "${copies[@]}" >"$dir/distinct-$((multiple - 1)).summary"
        done
        ;;
    seeds)
        distinct=$((count < 200 ? count : 200))
        for ((index = 0; index < distinct; index++)); do
            summary $((seed + index)) >"$dir/distinct-$index.summary"
        done
        ;;
    *)
        echo "merge-corpus: unknown kind '$kind' (use multiples or seeds)" >&2
        exit 2
        ;;
esac
total=0
for ((index = 0; index < count; index++)); do
    source=$dir/distinct-$((index % distinct)).summary
    cp "$source" "$(printf '%s/shard-%05d.json' "$dir" "$index")"
    total=$((total + $(stat -c %s "$source")))
done
echo "merge-corpus: $count summaries ($kind) in $dir, $total bytes"
