#!/usr/bin/env bash
# Recovery after an outage, in real time and in the simulation: the same figures or a failure.
#
# For each front (the gateway with its defaults; a ResponseClient with the default protections,
# straight to the upstream) at a low and a high rate (REC_LOW_RATE=10 and REC_HIGH_RATE=200
# requests per second), it starts a flaky-upstream that goes down (connections refused)
# REC_DOWN_AFTER_MS (8000) after it starts, for REC_DOWN_MS (10000), and sends it requests at that
# rate for REC_SECONDS (30) with recovery-run, all four runs at once. Each run's outage, as the
# upstream logged it, is then run in the simulation (recovery-run --simulate: PipelineSimulation,
# the same front, rate and script), and the two compared. Every run must have:
#
# - every request ended (none cancelled or left waiting), and none refused before the outage;
# - full admission (SimulationReport.timeToFullAdmission's measure: the last request a protection
#   refused after the upstream's return) within the defaults' bound, the breaker's 5 s break plus
#   one throttle probe interval (10 s), in real time and in the simulation;
# - the real-time figure within REC_TOLERANCE_MS (1000) of the simulated one (they have been within
#   200 ms of each other; a loaded 2-core machine can delay a request by a few hundred), and the
#   requests refused or failed within a twentieth (10 at least) of the simulated count.
#
# REC_RUNS chooses the runs (all four by default: "gateway-LOW gateway-HIGH client-LOW client-HIGH").
#
# --self-test: the comparison must catch a real front that differs from what the simulation runs. It
# runs the client at the low rate over an HTTPClient that retries refused connections (recovery-run
# --pool-retries on, async-http-client's default, which the SwiftErrAsyncHTTPClient README says to
# turn off): its requests wait out a 6 s outage in the pool, none fails where the simulation's do,
# and the run must fail on the comparison.
#
# It prints a Markdown table (and writes it to REC_RESULTS when set). Every process it starts is
# stopped on exit; on failure the logs are kept and their folder named.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
package=$root/Examples/Gateway
scratch=${SCRATCH_PATH:-$root/.build-services}
low=${REC_LOW_RATE:-10}
high=${REC_HIGH_RATE:-200}
down_after=${REC_DOWN_AFTER_MS:-8000}
down_for=${REC_DOWN_MS:-10000}
seconds=${REC_SECONDS:-30}
tolerance=${REC_TOLERANCE_MS:-1000}
bound=10000
results=${REC_RESULTS:-}

log() { echo "recovery: $*"; }
fail() {
    echo "recovery: FAIL: $*" >&2
    exit 1
}
# shellcheck source=servers.sh
. "$here/servers.sh"

if [ "${1:-}" = --self-test ]; then
    out=$(mktemp "${TMPDIR:-/tmp}/recovery-self-test.XXXXXX")
    echo "recovery self-test: a client whose HTTPClient retries refused connections, 6 s outage"
    if REC_RUNS="client-$low" REC_POOL_RETRIES=on REC_DOWN_AFTER_MS=4000 REC_DOWN_MS=6000 REC_SECONDS=15 REC_RESULTS= \
        "$0" >"$out" 2>&1; then
        cat "$out"
        rm -f "$out"
        fail "self-test: a client hiding the outage from its protections passed the comparison"
    fi
    if ! grep -q '^recovery: FAIL: .* apart$' "$out"; then
        cat "$out"
        rm -f "$out"
        fail "self-test: the planted run failed, but not on the comparison"
    fi
    echo "recovery self-test: PASS: $(grep '^recovery: FAIL: ' "$out" | sed 's/^recovery: FAIL: //')"
    rm -f "$out"
    exit 0
fi

log "building gateway, flaky-upstream and recovery-run (release, scratch path $scratch)"
for product in gateway flaky-upstream recovery-run; do
    swift build -c release --package-path "$package" --scratch-path "$scratch" --product "$product" \
        || fail "swift build of $product failed"
done
bin=$(swift build -c release --package-path "$package" --scratch-path "$scratch" --show-bin-path)

servers_begin recovery-comparison

runs=()
loads=()
for name in ${REC_RUNS:-gateway-$low gateway-$high client-$low client-$high}; do
    front=${name%-*}
    rate=${name##*-}
    start "upstream-$name" "$bin/flaky-upstream" --port 0 --down-after-ms "$down_after" --down-for-ms "$down_for"
    url=http://127.0.0.1:$port/api/item
    if [ "$front" = gateway ]; then
        start "gateway-$name" "$bin/gateway" --port 0 --upstream "http://127.0.0.1:$port"
        url=http://127.0.0.1:$port/api/item
    fi
    "$bin/recovery-run" --front "$front" --url "$url" --rate "$rate" --seconds "$seconds" \
        --upstream-log "$work/upstream-$name.out" --pool-retries "${REC_POOL_RETRIES:-off}" \
        >"$work/$name.result" 2>"$work/$name.err" &
    loads+=("$!")
    runs+=("$name")
done
log "${#runs[@]} runs at once (${runs[*]}): upstream down $((down_after / 1000)) s after it starts, for $((down_for / 1000)) s; $seconds s of requests"
for index in "${!loads[@]}"; do
    wait "${loads[$index]}" || fail "${runs[$index]}: recovery-run failed: $(cat "$work/${runs[$index]}.err")"
done

rows=()
for name in "${runs[@]}"; do
    front=${name%-*}
    rate=${name##*-}
    real=$(grep '^RESULT ' "$work/$name.result") || fail "$name: recovery-run printed no RESULT"
    simulated=$("$bin/recovery-run" --simulate --front "$front" --rate "$rate" --seconds "$seconds" \
        --down-after-ms "$(field down_after_ms "$real")" --down-for-ms "$(field down_for_ms "$real")") \
        || fail "$name: the simulation failed"
    log "$name real:      $real"
    log "$name simulated: $simulated"
    for which in real simulated; do
        line=${!which}
        [ "$(field cancelled "$line")" -eq 0 ] || fail "$name ($which): $(field cancelled "$line") requests never ended"
        [ "$(field refused_before_outage "$line")" -eq 0 ] \
            || fail "$name ($which): $(field refused_before_outage "$line") requests refused before the outage"
        [ "$(field full_admission_ms "$line")" -le "$bound" ] \
            || fail "$name ($which): full admission $(field full_admission_ms "$line") ms after the return, over $bound ms"
    done
    difference=$(($(field full_admission_ms "$real") - $(field full_admission_ms "$simulated")))
    [ "${difference#-}" -le "$tolerance" ] \
        || fail "$name: full admission $(field full_admission_ms "$real") ms in real time, $(field full_admission_ms "$simulated") ms in the simulation: more than $tolerance ms apart"
    # The requests that did not succeed (refused or failed), which recovery keeps few: within a
    # twentieth of the simulated count (10 at least) of each other.
    real_lost=$(($(field refused "$real") + $(field failed "$real")))
    simulated_lost=$(($(field refused "$simulated") + $(field failed "$simulated")))
    lost_tolerance=$((simulated_lost / 20 > 10 ? simulated_lost / 20 : 10))
    difference=$((real_lost - simulated_lost))
    [ "${difference#-}" -le "$lost_tolerance" ] \
        || fail "$name: $real_lost requests refused or failed in real time, $simulated_lost in the simulation: more than $lost_tolerance apart"
    rows+=("| $front | $rate/s | $(field down_for_ms "$real") ms | $(field full_admission_ms "$real") ms | $(field full_admission_ms "$simulated") ms | $(field refused "$real") / $(field refused "$simulated") | $(field failed "$real") / $(field failed "$simulated") | $(field requests "$real") / $(field requests "$simulated") |")
done

table=$(
    cat <<EOF
| front | rate | outage | full admission after the return: real time | simulation | refused: real / simulated | failed: real / simulated | requests: real / simulated |
|---|---|---|---|---|---|---|---|
$(printf '%s\n' "${rows[@]}")

- Every request ended in both, none was refused before the outage; full admission within $bound ms (the break plus one probe interval) in both, and within $tolerance ms of each other; refused and failed requests within a twentieth of the simulated count.
- $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ); \`bash scripts/services/recovery-comparison.sh\`.
EOF
)
echo
echo "$table"
echo
if [ -n "$results" ]; then echo "$table" >"$results"; fi
log "PASS: real time and simulation agree on recovery for ${#runs[@]} runs"
