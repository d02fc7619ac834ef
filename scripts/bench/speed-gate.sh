#!/usr/bin/env bash
# speed-gate.sh — the speed gate of CI: every target `compare` reports (the classification
# targets and envelope -> Result against JSONDecoder) measured as ratios of medians in one process
# and held to the level recorded in speed-gate-floors.txt beside this script, within the noise
# measured for each (speed-gate-check.py says how). It builds `compare` from the Benchmarks
# package in release, in Benchmarks/.build, the folder `swift package benchmark` uses in CI.
#
# usage (from anywhere in the repository):
#   scripts/bench/speed-gate.sh              the gate: exit 1 when a target fails
#   scripts/bench/speed-gate.sh --self-test  plants a 2x slowdown of the failure path (compare
#                                            --plant-slowdown failure-path: each failure body is
#                                            decoded twice per timed iteration) and exits 0 only
#                                            when the gate fails on it
# Environment: SPEED_GATE_COUNT (codes per table, default 2000000), SPEED_GATE_REPS (repetitions,
# default 7), SPEED_GATE_KEEP (a folder to keep the JSON of the run in).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/scripts/bench"
count=${SPEED_GATE_COUNT:-2000000}
reps=${SPEED_GATE_REPS:-7}
mode=gate
case "${1:-}" in
"") ;;
--self-test) mode=self-test ;;
*)
    echo "usage: scripts/bench/speed-gate.sh [--self-test]" >&2
    exit 2
    ;;
esac

start=$(date +%s)
cd "$root/Benchmarks"
swift build -c release --product compare >&2
compare="$(swift build -c release --show-bin-path)/compare"
built=$(date +%s)
echo "speed gate: compare built in $((built - start)) s" >&2

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if [ "$mode" = gate ]; then
    "$compare" --json --count "$count" --reps "$reps" >"$out/run.json"
    status=0
    python3 "$here/speed-gate-check.py" "$here/speed-gate-floors.txt" "$out/run.json" || status=$?
else
    # Only the failure bodies are measured: the plant touches nothing else.
    "$compare" --json --envelopes-only --envelope small_failure --envelope 64KB_failure --reps "$reps" \
        --plant-slowdown failure-path >"$out/run.json"
    status=0
    python3 "$here/speed-gate-check.py" "$here/speed-gate-floors.txt" "$out/run.json" --only-present \
        --expect-fail envelope_small_failure || status=$?
fi
if [ -n "${SPEED_GATE_KEEP:-}" ]; then
    mkdir -p "$SPEED_GATE_KEEP"
    cp "$out/run.json" "$SPEED_GATE_KEEP/speed-gate-$mode-$(date -u +%Y%m%dT%H%M%SZ).json"
fi
echo "speed gate ($mode): measured in $(($(date +%s) - built)) s, load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
exit "$status"
