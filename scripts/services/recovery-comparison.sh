#!/usr/bin/env bash
# Recovery after an outage, in real time and in the simulation: the same figures or a failure.
#
# For each front (the gateway with its defaults; a ResponseClient with the default protections,
# straight to the upstream) at a low and a high rate (10 and 200 requests per second), it starts a
# flaky-upstream that goes down (connections refused) 8 s after it starts, for 10 s, and sends it
# requests at that rate for 30 s with recovery-run, all four runs at once. Each run's outage, as the
# upstream logged it, is then run in the simulation (recovery-run --simulate: PipelineSimulation,
# the same front, rate and script), and the two compared. Every run must have:
#
# - every request ended (none cancelled or left waiting), and none refused before the outage;
# - full admission (SimulationReport.timeToFullAdmission's measure: the last request a protection
#   refused after the upstream's return) within the defaults' bound, the breaker's 5 s break plus
#   one throttle probe interval (10 s), in real time and in the simulation;
# - the real-time figure within 1000 ms of the simulated one (they have been within
#   200 ms of each other; a loaded 2-core machine can delay a request by a few hundred), and the
#   requests refused or failed within a twentieth (10 at least) of the simulated count.
#
# --self-test: the comparison must catch a real front that differs from what the simulation runs. It
# runs the client at the low rate over an HTTPClient that retries refused connections (recovery-run
# --pool-retries on, async-http-client's default, which the SwiftErrAsyncHTTPClient README says to
# turn off): its requests wait out a 6 s outage in the pool, none fails where the simulation's do,
# and the run must fail on the comparison.
#
# --with-self-test runs the self-test beside the four runs (one more upstream and a 10/s client)
# and fails when either fails: CI's form, a minute shorter than one after the other.
#
# Options, for the self-test and for figures: --runs "FRONT-RATE..." (the four above), --pool-retries
# on|off (off), --down-after-ms MS, --down-ms MS, --seconds S, --results FILE (the table, in
# Markdown). It prints the table. Every process it starts is stopped on exit; on failure the logs are
# kept and their folder named.
. "$(dirname "$0")/../lib.sh"
low=10 high=200 down_after=8000 down_for=10000 seconds=30 tolerance=1000 bound=10000 results=
runs_wanted="gateway-$low gateway-$high client-$low client-$high" pool_retries=off mode=check
while [ $# -gt 0 ]; do
    case $1 in
    --self-test) mode=self-test ;;
    --with-self-test) mode=both ;;
    --runs) runs_wanted=$2 && shift ;;
    --pool-retries) pool_retries=$2 && shift ;;
    --down-after-ms) down_after=$2 && shift ;;
    --down-ms) down_for=$2 && shift ;;
    --seconds) seconds=$2 && shift ;;
    --results) results=$2 && shift ;;
    *) die "unknown option $1 (see the header of $0)" ;;
    esac
    shift
done
log() { echo "recovery: $*"; }
fail() { die "$@"; }

if [ "$mode" = self-test ]; then
    out=$(mktemp "${TMPDIR:-/tmp}/recovery-self-test.XXXXXX")
    echo "recovery self-test: a client whose HTTPClient retries refused connections, 6 s outage"
    if "$0" --runs "client-$low" --pool-retries on --down-after-ms 4000 --down-ms 6000 --seconds 15 >"$out" 2>&1; then
        cat "$out"
        rm -f "$out"
        fail "self-test: a client hiding the outage from its protections passed the comparison"
    fi
    if ! grep -q '^recovery-comparison: FAIL: .* apart$' "$out"; then
        cat "$out"
        rm -f "$out"
        fail "self-test: the planted run failed, but not on the comparison"
    fi
    echo "recovery self-test: PASS: $(grep '^recovery-comparison: FAIL: ' "$out" | sed 's/^recovery-comparison: FAIL: //')"
    rm -f "$out"
    exit 0
fi
bin=$(gateway_bin gateway flaky-upstream recovery-run) || fail "Examples/Gateway does not build"
# The self-test beside the runs, once the binaries are built (its own gateway_bin then has nothing to do).
if [ "$mode" = both ]; then
    self_test_out=$(mktemp "${TMPDIR:-/tmp}/recovery-self-test-run.XXXXXX")
    "$0" --self-test >"$self_test_out" 2>&1 &
    self_test_pid=$!
fi

servers_begin recovery-comparison

runs=()
loads=()
for name in $runs_wanted; do
    front=${name%-*}
    rate=${name##*-}
    start "upstream-$name" "$bin/flaky-upstream" --port 0 --down-after-ms "$down_after" --down-for-ms "$down_for"
    url=http://127.0.0.1:$port/api/item
    if [ "$front" = gateway ]; then
        start "gateway-$name" "$bin/gateway" --port 0 --upstream "http://127.0.0.1:$port"
        url=http://127.0.0.1:$port/api/item
    fi
    "$bin/recovery-run" --front "$front" --url "$url" --rate "$rate" --seconds "$seconds" \
        --upstream-log "$work/upstream-$name.out" --pool-retries "$pool_retries" \
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
if [ "$mode" = both ]; then
    status=0
    wait "$self_test_pid" || status=$?
    cat "$self_test_out"
    rm -f "$self_test_out"
    [ "$status" -eq 0 ] || fail "the self-test failed"
fi
