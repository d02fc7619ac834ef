#!/usr/bin/env bash
# hostile-catalogs.sh — writes the large hostile catalog files that docs/reliability.md times
# `errcat check` on (they are generated, not committed):
#
#   scripts/catalogs/hostile-catalogs.sh DIR
#
#   DIR/base-zeros.json        66,000,000 bytes: "base": [0, 0, …], 33 million problems
#                              (a base entry must be an object), under the 64 MiB read limit
#   DIR/problems-one-line.json 50,000 problems (an unknown key per base entry) on one 3.4 MB line
#   DIR/modules-65535.json     a valid catalog of 65,535 modules (the most a table holds), one
#                              range and one code each
#   DIR/over-limit.json        64 MiB + 1 byte: refused before it is read
#
# Then, for example: time errcat check --max-problems 10 DIR/base-zeros.json
set -euo pipefail
dir=${1:?usage: scripts/catalogs/hostile-catalogs.sh DIR}
mkdir -p "$dir"
head='{"format":"swifterr-catalog/1","name":"hostile","success":{"code":0,"name":"ok","message":{"en":"ok"}},'

# "base":[0,0,…,0]} padded with spaces to exactly 66,000,000 bytes (`yes` ends by SIGPIPE).
prefix="$head\"base\":["
count=$(((66000000 - ${#prefix} - 2 + 1) / 2))
{
  printf '%s' "$prefix"
  (set +o pipefail; yes 0 | head -n "$count" | paste -sd, - | tr -d '\n')
  printf ']}'
} >"$dir/base-zeros.json"
size=$(wc -c <"$dir/base-zeros.json")
if ((size < 66000000)); then printf ' %.0s' $(seq $((66000000 - size))) >>"$dir/base-zeros.json"; fi

awk -v head="$head" 'BEGIN {
  printf "%s\"base\":[", head
  for (i = 0; i < 50000; i++) {
    printf "%s{\"code\":%d,\"name\":\"name%d\",\"message\":{\"en\":\"message\"},\"bad\":1}", (i ? "," : ""), i + 1, i
  }
  printf "]}"
}' >"$dir/problems-one-line.json"

awk -v head="$head" 'BEGIN {
  printf "%s\"modules\":[\n", head
  for (i = 0; i < 65535; i++) {
    low = 1000000 + i * 10
    printf "%s{\"name\":\"m%d\",\"ranges\":[[%d,%d]],\"codes\":[{\"code\":%d,\"name\":\"a\",\"message\":{\"en\":\"x\"}}]}", (i ? ",\n" : ""), i, low, low + 9, low
  }
  printf "]}\n"
}' >"$dir/modules-65535.json"

truncate -s $((64 * 1024 * 1024 + 1)) "$dir/over-limit.json"
wc -c "$dir"/*.json
