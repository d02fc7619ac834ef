#!/usr/bin/env bash
# merge-tree.sh — a fleet's last step: COUNT shard summaries (Benchmarks/tools/merge-corpus.sh)
# added up by `errcat merge` in a tree, groups of GROUP files merged by one process each, then
# the group results by one more; run one process at a time and two at a time (xargs -P 2), and
# against one flat merge of all the files. The three results must be the same bytes. CPU time
# is user + sys of all the processes (from /usr/bin/time around the whole tree), MB/s the
# summary JSON read (shards and group results) per CPU second. The files are in the page cache.
#
# usage (from the repository root):
#   Benchmarks/tools/merge-tree.sh ERRCAT [COUNT] [GROUP]     default 10000 summaries, groups of 100
# The corpus is kept in build/merge-corpus-COUNT (made again when missing; 10,000 summaries take
# 900 MB).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
errcat=$1
count=${2:-10000}
group=${3:-100}
corpus=build/merge-corpus-$count
if [ ! -f "$corpus/shard-$(printf '%05d' $((count - 1))).json" ]; then
    Benchmarks/tools/merge-corpus.sh "$errcat" "$corpus" "$count" >&2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/groups" "$tmp/serial" "$tmp/parallel"
for ((start = 0; start < count; start += group)); do
    list=$(printf '%s/groups/%05d.list' "$tmp" "$start")
    for ((index = start; index < start + group && index < count; index++)); do
        printf '%s/shard-%05d.json\n' "$corpus" "$index"
    done >"$list"
done
shard_bytes=$(cat "$corpus"/shard-*.json | wc -c)

# timed NAME COMMAND...: one run; user, sys and wall seconds in $tmp/NAME.time.
timed() {
    local name=$1
    shift
    /usr/bin/time -f "%U %S %e" -o "$tmp/$name.time" "$@"
}
# Each group's paths are read from its list by xargs (a group is far below the argument limit).
timed serial bash -c '
    errcat=$1 tmp=$2
    for list in "$tmp"/groups/*.list; do
        name=$(basename "$list" .list)
        xargs -a "$list" "$errcat" merge >"$tmp/serial/$name.json"
    done
    "$errcat" merge "$tmp"/serial/*.json >"$tmp/serial.json"' tree "$errcat" "$tmp"
timed parallel bash -c '
    errcat=$1 tmp=$2
    ls "$tmp"/groups/*.list | xargs -P 2 -I{} sh -c '\''xargs -a "$2" "$1" merge >"$3/parallel/$(basename "$2" .list).json"'\'' sh "$errcat" {} "$tmp"
    "$errcat" merge "$tmp"/parallel/*.json >"$tmp/parallel.json"' tree "$errcat" "$tmp"
timed flat bash -c 'mapfile -t files < <(cat "$2"/groups/*.list) && "$1" merge "${files[@]}" >"$2/flat.json"' \
    flat "$errcat" "$tmp"
for name in parallel flat; do
    cmp -s "$tmp/serial.json" "$tmp/$name.json" || {
        echo "merge-tree: the $name merge differs from the tree merge" >&2
        exit 1
    }
done
group_bytes=$(cat "$tmp"/serial/*.json | wc -c)
groups=$(ls "$tmp"/groups | wc -l)

row() {
    read -r user sys wall <"$tmp/$2.time"
    awk -v label="$1" -v u="$user" -v s="$sys" -v w="$wall" -v b="$3" 'BEGIN {
        cpu = u + s
        printf "| %s | %.2f | %.2f | %s |\n", label, cpu, w, (cpu > 0 ? sprintf("%.0f", b / 1e6 / cpu) : "-")
    }'
}
echo "merge-tree: $count summaries ($shard_bytes bytes) in $groups groups of $group," \
    "the group results $group_bytes bytes; $(date -u '+%Y-%m-%d %H:%M UTC'); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| merge | CPU s | wall s | MB/s of summary JSON per CPU s |"
echo "|---|---:|---:|---:|"
row "tree, one process at a time ($groups + 1 processes)" serial $((shard_bytes + group_bytes))
row "tree, two at a time (\`xargs -P 2\`)" parallel $((shard_bytes + group_bytes))
row "flat: one \`errcat merge\` of all $count" flat "$shard_bytes"
