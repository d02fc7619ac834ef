#!/usr/bin/env bash
# speed-gate.sh — the speed gate of CI: every target `compare` reports (the classification
# targets, envelope -> Result against JSONDecoder, and the string-code lookup) measured as ratios
# of medians in one process and held to the floors recorded in speed-gate-floors.txt beside this
# script for this machine's CPU class, within the noise measured for each (speed-gate-check.py says
# how). It builds `compare` from the Benchmarks package in release.
#
# usage (from anywhere in the repository):
#   scripts/bench/speed-gate.sh              the gate: exit 1 when a target fails, in a second run
#                                            made after a first that failed
#   scripts/bench/speed-gate.sh --self-test  the judging rules on made-up runs, then a planted 2x
#                                            slowdown of the failure path (compare --plant-slowdown
#                                            failure-path: each failure body is decoded twice per
#                                            timed iteration) and one of the string lookup
#                                            (--plant-slowdown string-lookup: each string classified
#                                            twice); exits 0 only when the gate fails on both
#   scripts/bench/speed-gate.sh --record N   N gate runs, then the floors section of this CPU class
#                                            to paste into speed-gate-floors.txt (and each run's JSON
#                                            in build/speed-gate/)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
here=$root/scripts/bench
check=(python3 "$here/speed-gate-check.py")
floors=$here/speed-gate-floors.txt

case "${1:-}" in
"" | --self-test) ;;
--record) [[ "${2:-}" =~ ^[0-9]+$ ]] || die "usage: scripts/bench/speed-gate.sh --record N" ;;
*) die "usage: scripts/bench/speed-gate.sh [--self-test | --record N]" ;;
esac

compare=$(build_compare)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
started=$(date +%s)
gate_run() { "$compare" --json --count 2000000 --reps 7 >"$1"; }
status=0
case "${1:-}" in
"")
    # A failure must hold in a second run: one slow moment of a shared machine can halve a ratio
    # (beyond the noise a floor allows), a slowdown of the code halves it in both runs.
    gate_run "$out/run.json"
    if ! "${check[@]}" "$floors" "$out/run.json"; then
        echo "speed gate: a target failed; measuring once more, and judging that run" >&2
        gate_run "$out/run-again.json"
        "${check[@]}" "$floors" "$out/run-again.json" || status=$?
    fi
    ;;
--self-test)
    "${check[@]}" --self-test || status=$?
    # Only the failure bodies are measured: the plant touches nothing else.
    "$compare" --json --envelopes-only --envelope small_failure --envelope 64KB_failure --reps 7 \
        --plant-slowdown failure-path >"$out/run.json"
    "${check[@]}" "$floors" "$out/run.json" --only-present --expect-fail envelope_small_failure || status=$?
    # The string lookup's floors are a CPU class's: judged as that class, so that the plant is
    # caught on any machine (doubling a time ratio fails within every noise factor).
    "$compare" --json --strings-only --reps 7 --plant-slowdown string-lookup >"$out/strings.json"
    "${check[@]}" "$floors" "$out/strings.json" --only-present --cpu-class "AuthenticAMD 25/17 avx512" \
        --expect-fail string_over_int_call_1000 || status=$?
    ;;
--record)
    mkdir -p "$root/build/speed-gate"
    runs=()
    for i in $(seq "$2"); do
        gate_run "$root/build/speed-gate/run-$i.json"
        runs+=("$root/build/speed-gate/run-$i.json")
        echo "speed gate: run $i of $2 done, load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    done
    "${check[@]}" --record "$floors" "${runs[@]}"
    ;;
esac
echo "speed gate (${1:-gate}): measured in $(($(date +%s) - started)) s, load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
exit "$status"
