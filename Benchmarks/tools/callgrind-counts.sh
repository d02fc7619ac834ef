#!/usr/bin/env bash
# callgrind-counts.sh — instructions and (simulated) mispredicted conditional branches per code
# for every approach of `compare`, one table at a time. Wall-clock time on a shared 2-core
# machine is noisy; these counts are repeatable.
#
# usage (after `swift build -c release --product compare` in Benchmarks/; runs from anywhere):
#   Benchmarks/tools/callgrind-counts.sh [COUNT]        COUNT codes per table (default 100000)
set -euo pipefail
count=${1:-100000}
cd "$(dirname "$0")/../../Benchmarks"
bin=.build/release/compare
[ -x "$bin" ] || { echo "callgrind-counts: build first: swift build -c release --product compare" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "callgrind-counts: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# errcore_classify_batch is also called by the facade batch and by the no-front (index) batch row,
# and cbl_single_classify by the no-front single-call row, so the main pass leaves those out (the
# inclusive counts then belong to the C batch and C single rows alone) and a second pass runs the
# two no-front rows by themselves.
# valgrind 3.19 cannot read the DWARF 5 that clang 21 writes; the symbol table is enough.
objcopy --strip-debug "$bin" "$tmp/compare"
others="c_batch c_single swift_to_c swift_facade swift_facade_batch int_enum dictionary bsearch branchy linear floor copy_floor"
# The batch's paths (errcore_classify_batch_using), each in a pass of its own: they share one function.
paths="scalar avx2 avx512 neon"
path_keys=""
for p in $paths; do path_keys="$path_keys c_batch_$p"; done
for table in default 256 4096; do
    valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file="$tmp/cg.$table" \
        "$tmp/compare" --count "$count" --reps 1 --no-check --no-envelopes --table "$table" --linear-count "$count" \
        --skip swift_facade_batch --skip c_batch_index --skip c_single_index \
        $(for k in $path_keys; do printf ' --skip %s' "$k"; done) >/dev/null 2>"$tmp/log.$table"
    callgrind_annotate --inclusive=yes --threshold=100 --show=Ir,Bc,Bcm "$tmp/cg.$table" >"$tmp/ann.$table" 2>/dev/null
    skips=""
    for key in $others $path_keys; do skips="$skips --skip $key"; done
    # shellcheck disable=SC2086
    valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file="$tmp/cgh.$table" \
        "$tmp/compare" --count "$count" --reps 1 --no-check --no-envelopes --table "$table" $skips \
        >/dev/null 2>"$tmp/logh.$table"
    callgrind_annotate --inclusive=yes --threshold=100 --show=Ir,Bc,Bcm "$tmp/cgh.$table" >"$tmp/annh.$table" 2>/dev/null
    for p in $paths; do
        skips="--skip c_batch_index --skip c_single_index"
        for key in $others $path_keys; do [ "$key" = "c_batch_$p" ] || skips="$skips --skip $key"; done
        # shellcheck disable=SC2086
        valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file="$tmp/cgp.$p.$table" \
            "$tmp/compare" --count "$count" --reps 1 --no-check --no-envelopes --table "$table" $skips \
            >/dev/null 2>"$tmp/logp.$p.$table" || true
        callgrind_annotate --inclusive=yes --threshold=100 --show=Ir,Bc,Bcm "$tmp/cgp.$p.$table" \
            >"$tmp/annp.$p.$table" 2>/dev/null || true
    done
done
python3 - "$tmp" "$count" <<'PY'
import re, sys
tmp, count = sys.argv[1], int(sys.argv[2])
rows = [
    ("C errcore_classify_batch", r":errcore_classify_batch "),
    ("C batch, scalar path", r":errcore_classify_batch_using "),
    ("C batch, avx2 path", r":errcore_classify_batch_using "),
    ("C batch, avx512 path", r":errcore_classify_batch_using "),
    ("C batch, neon path", r":errcore_classify_batch_using "),
    ("C errcore_classify, one call per code", r":cbl_single_classify "),
    ("Swift -> C errcore_classify per code", r"SwiftToCO7resolve"),
    ("Swift facade Catalog.classify", r"FacadeApproachO7resolve"),
    ("Int enums: Base(rawValue:) then Module(rawValue:)", r"IntEnumApproachO\d*resolve(32|256|4096)ySiSRys5Int64VGFZ "),
    ("Swift Dictionary<Int, Entry>", r"DictionaryBaselineV7resolve"),
    ("libc bsearch + comparator", r":cbl_bsearch_classify "),
    ("plain binary search (branchy)", r":cbl_branchy_classify "),
    ("linear scan (early exit)", r":cbl_linear_classify "),
    ("C errcore_classify_batch, no front (index)", r":errcore_classify_batch "),
    ("C errcore_classify, no front (index)", r":cbl_single_classify "),
    ("memory floor: sum of the input", r":cbl_memory_floor "),
    ("copy floor: write each code + 1 to out", r":cbl_copy_floor "),
]
tables = ["default", "256", "4096"]
data = {}
for t in tables:
    main = open(f"{tmp}/ann.{t}").read().splitlines()
    alone = open(f"{tmp}/annh.{t}").read().splitlines()
    for name, pattern in rows:
        path = re.match(r"C batch, (\w+) path", name)
        if path:
            try:
                lines = open(f"{tmp}/annp.{path.group(1)}.{t}").read().splitlines()
            except OSError:
                lines = []  # a path this CPU does not have: compare has no such row
        else:
            lines = alone if "no front" in name else main
        best = None
        for line in lines:
            if re.search(pattern, line):
                nums = re.findall(r"^\s*([\d,]+)\s+\([^)]*\)\s+([\d,]+)\s+\([^)]*\)\s+([\d,]+|0)", line)
                if nums:
                    ir, bc, bcm = (int(x.replace(",", "")) for x in nums[0])
                    if best is None or ir > best[0]:
                        best = (ir, bc, bcm)
        data[(name, t)] = best
print(f"callgrind, {count} codes per table, per code: instructions / mispredicted conditional branches (simulated)")
print(f"{'approach':46}" + "".join(f"{t:>18}" for t in tables))
for name, _ in rows:
    cells = []
    for t in tables:
        v = data[(name, t)]
        cells.append("-" if v is None else f"{v[0] / count:8.1f} / {v[2] / count:5.2f}")
    print(f"{name:46}" + "".join(f"{c:>18}" for c in cells))
PY
