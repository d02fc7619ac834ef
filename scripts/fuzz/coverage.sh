#!/usr/bin/env bash
# fuzz-coverage.sh — line and branch coverage of Sources/CErrCore reached by the committed C
# fuzz corpora (each input run once), via clang's source-based coverage.
#
#   scripts/fuzz/coverage.sh [OUT_DIR]     default OUT_DIR: build/fuzz/coverage
#
# Prints llvm-cov's per-file report for the core. Uses the toolchain's clang, llvm-profdata and
# llvm-cov (FUZZ_TOOLCHAIN, default /opt/swift/usr/bin).
set -euo pipefail
cd "$(dirname "$0")/../.."
tc=${FUZZ_TOOLCHAIN:-/opt/swift/usr/bin}
out=${1:-build/fuzz/coverage}
mkdir -p "$out"
flags=(-std=c11 -O0 -g -fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping -fuse-ld=lld -Iinclude -Ifuzz -ITests/CErrCoreTests/c)
profiles=()
objects=()
for t in build_fuzz classify_fuzz; do
  "$tc/clang" "${flags[@]}" "fuzz/$t.c" Sources/CErrCore/*.c -o "$out/$t"
  LLVM_PROFILE_FILE="$out/$t.profraw" "$out/$t" -runs=0 "fuzz/corpus/$t" >"$out/$t.log" 2>&1
  profiles+=("$out/$t.profraw")
  objects+=(-object "$out/$t")
done
"$tc/llvm-profdata" merge -o "$out/fuzz.profdata" "${profiles[@]}"
"$tc/llvm-cov" report -instr-profile="$out/fuzz.profdata" "${objects[@]:1}" \
  $(printf ' %s' Sources/CErrCore/*.c)
