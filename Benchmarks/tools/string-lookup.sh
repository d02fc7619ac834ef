#!/usr/bin/env bash
# string-lookup.sh — the string-code lookup against a sorted-array binary search and
# gperf-generated C, and against the integer single call, at 32, 1,000 and 10,000 keys
# (string_lookup.c says what each column is); then a Swift Dictionary<String, UInt64> on the same
# keys and workload (string_dictionary.swift), when swiftc is on PATH. Needs gperf (Debian: apt-get install gperf);
# gperf takes about 30 s for the 10,000 keys and writes 3.7 MB of C.
#
# usage: Benchmarks/tools/string-lookup.sh [CC]      (CC: cc by default)
set -euo pipefail
cc=${1:-cc}
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v gperf >/dev/null || { echo "string-lookup: gperf is not installed (apt-get install gperf)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" <<'PY'
import random, sys
out = sys.argv[1]
random.seed(7)
alphabet = "abcdefghijklmnopqrstuvwxyz_"
for n in (32, 1000, 10000):
    keys = set()
    while len(keys) < n:
        keys.add("".join(random.choice(alphabet) for _ in range(random.randint(8, 32))))
    keys = sorted(keys)
    with open(f"{out}/keys_{n}.txt", "w") as f:
        f.write("\n".join(keys) + "\n")
    with open(f"{out}/keys_{n}.gperf", "w") as f:
        f.write("%{\n#include <string.h>\n%}\n%language=ANSI-C\n%compare-lengths\n%readonly-tables\n%struct-type\n")
        f.write(f"%define lookup-function-name gp_lookup_{n}\n%define hash-function-name gp_hash_{n}\n")
        f.write("struct gp_entry { const char *name; int index; };\n%%\n")
        for i, key in enumerate(keys):
            f.write(f"{key}, {i}\n")
PY
for n in 32 1000 10000; do
    gperf "$tmp/keys_$n.gperf" > "$tmp/gperf_$n.c"
done
"$cc" -std=c11 -O2 -I "$root/include" -o "$tmp/string_lookup" "$root/Benchmarks/tools/string_lookup.c" \
    "$tmp"/gperf_*.c "$root"/Sources/CErrCore/*.c -Wall -Wno-missing-field-initializers
"$tmp/string_lookup" "$tmp/keys_32.txt" "$tmp/keys_1000.txt" "$tmp/keys_10000.txt"
if command -v swiftc >/dev/null; then
    swiftc -O -o "$tmp/string_dictionary" "$root/Benchmarks/tools/string_dictionary.swift"
    "$tmp/string_dictionary" "$tmp/keys_32.txt" "$tmp/keys_1000.txt" "$tmp/keys_10000.txt"
fi
