#!/usr/bin/env bash
# Gateway load test: what classification costs a real service.
#
# Builds the gateway and the canned upstream in release mode, starts the upstream and two gateways
# in front of it on free ports of 127.0.0.1 (one classifying, one passing everything through), and
# loads them with wrk (loadtest.lua). Every request is a GET /api/mix/<0..19>: per 20 requests, 12
# successes, 2 tokenExpire (answered 401 by the classifying gateway), 1 other base code, 3 module
# codes and 1 code outside the catalog (all passed through with 200).
#
# 1. Alone (with --alone N; CI leaves them out, as they gate nothing the side-by-side runs do not):
#    a warm-up each, then N pairs of runs, one gateway at a time, alternating which goes first:
#    each gateway's requests/s and p99 latency alone, for the figures in docs/services.md.
# 2. Side by side: PAIRS runs of SECONDS in which both gateways are loaded at once, each by its own
#    wrk, started in alternating order. The machine's other load (this machine is shared) then
#    falls on both runs alike. What each gateway costs is its CPU time (user and system, from
#    /proc/PID/stat) per request answered in the run: the ratio of the two (classifying ÷ passing
#    through) is what classification costs a service. The ratio of their requests/s is reported
#    too, but not gated: on a machine running more threads than it has cores it measures how the
#    scheduler shared the CPU as much as what either gateway spent (a CI run saw it at 0.75 for 23
#    runs in a row and then at 1.0).
# 3. Counting: COUNT requests to each gateway with a fixed quota per wrk thread, so that none is in
#    flight at the end. The classifying gateway must answer exactly one 401 per tokenExpire request
#    and 200 to all others, and its /metrics must have counted exactly the requests sent, by tier,
#    by code, and in the classification timer; the other gateway must answer 200 to all and have no
#    swifterr series.
#
# Every run fails on a socket error (connect, read, write, timeout) or an answer other than 200 and
# 401; the passing-through gateway must answer no 401, the classifying one a 401 for each
# tokenExpire request sent (up to those in flight when wrk stops). The cost gate: the median of the
# side-by-side CPU-per-request ratios (classifying ÷ passing through) must be at most 1.08 (8 %;
# the product's goal, 5 %, is reported: met on a quiet machine, 2 to 3 %; the gate leaves room for
# what neighbours' load adds on this shared machine, up to 5.6 % measured, and still fails a planted
# 25 µs, measured at 19 %); when it is not, PAIRS more side-by-side runs are made and the median of
# all of them decides (single ratios on a shared machine spread by several per cent).
#
# --self-test: the gate must catch a dearer classification. The script runs itself, short, with the
# classifying gateway burning 25 µs of CPU more per answer (gateway --planted-cost-us; a request
# costs each gateway about 200 µs of CPU here), and passes only if that run fails on the cost gate
# and on nothing else.
#
# Options: --alone N (0), --pairs N (15), --seconds S (3, each run), --warmup S (3), --count N (6000),
# --planted-cost-us U (0), --results FILE (the table, in Markdown). wrk runs 1 thread and 32
# connections per gateway. It prints the table. Every process it starts is stopped on exit, whatever
# the exit; on failure the logs are kept and their folder named.
. "$(dirname "$0")/../lib.sh"
here=$root/scripts/services
runs=0 pairs=15 seconds=3 warmup=3 count_requests=6000 planted=0 results=
connections=32 threads=1 max_cost=8 goal_cost=5
self_test=false
while [ $# -gt 0 ]; do
    case $1 in
    --self-test) self_test=true ;;
    --alone) runs=$2 && shift ;;
    --pairs) pairs=$2 && shift ;;
    --seconds) seconds=$2 && shift ;;
    --warmup) warmup=$2 && shift ;;
    --count) count_requests=$2 && shift ;;
    --planted-cost-us) planted=$2 && shift ;;
    --results) results=$2 && shift ;;
    *) die "unknown option $1 (see the header of $0)" ;;
    esac
    shift
done
log() { echo "loadtest: $*"; }
fail() { die "$@"; }

if $self_test; then
    planted_out=$(mktemp "${TMPDIR:-/tmp}/gateway-load-self-test.XXXXXX")
    echo "loadtest self-test: the classifying gateway burns 25 µs more CPU per answer"
    if "$0" --planted-cost-us 25 --pairs 3 --seconds 2 --warmup 1 --count 1000 >"$planted_out" 2>&1; then
        cat "$planted_out"
        rm -f "$planted_out"
        fail "self-test: the planted cost passed the gate"
    fi
    if ! grep -q '^gateway-loadtest: FAIL: classification costs' "$planted_out"; then
        cat "$planted_out"
        rm -f "$planted_out"
        fail "self-test: the run with the planted cost failed, but not on the cost gate"
    fi
    echo "loadtest self-test: PASS: $(grep '^gateway-loadtest: FAIL: classification costs' "$planted_out" | sed 's/^gateway-loadtest: FAIL: //')"
    rm -f "$planted_out"
    exit 0
fi

need_debian wrk curl

bin=$(gateway_bin gateway upstream) || fail "Examples/Gateway does not build"
load_before=$(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || echo '?')

servers_begin gateway-load

start upstream "$bin/upstream" --port 0
upstream_port=$port
start gateway-on "$bin/gateway" --port 0 --upstream "http://127.0.0.1:$upstream_port" --classification on \
    --planted-cost-us "$planted"
on_port=$port
on_server=$pid
start gateway-off "$bin/gateway" --port 0 --upstream "http://127.0.0.1:$upstream_port" --classification off
off_port=$port
off_server=$pid
log "upstream :$upstream_port, gateway classifying :$on_port, gateway passing through :$off_port"

# The mix, one slot a line: slot code tier module name.
curl -sf "http://127.0.0.1:$upstream_port/mix" >"$work/mix.txt" || fail "could not read the upstream's /mix"
mapfile -t mix <"$work/mix.txt"
[ "${#mix[@]}" -eq 20 ] || fail "the upstream's mix has ${#mix[@]} slots, not 20"

# check MODE LABEL: the checks every run gets, on $result; sets $expected401 and $slots.
check() {
    local mode=$1 label=$2 k code errors
    errors=$(($(field connect "$result") + $(field read "$result") + $(field write "$result") + $(field timeout "$result")))
    [ "$errors" -eq 0 ] || fail "$label: $errors socket errors ($result)"
    [ "$(field other "$result")" -eq 0 ] || fail "$label: $(field other "$result") answers were neither 200 nor 401 ($result)"
    [ "$(field answered "$result")" -gt 0 ] || fail "$label: no request was answered ($result)"
    IFS=, read -r -a slots <<<"$(field slots "$result")"
    expected401=0
    for k in $(seq 0 19); do
        read -r _ code _ <<<"${mix[$k]}"
        if [ "$code" = 11001 ]; then expected401=$((expected401 + slots[k])); fi
    done
    if [ "$mode" = off ] && [ "$(field status401 "$result")" -ne 0 ]; then
        fail "$label: the gateway passing through answered $(field status401 "$result") times 401"
    fi
}

# launch PORT SECONDS LABEL: one wrk run of a fixed duration, in the background; sets $launched.
launch() {
    wrk -t"$threads" -c"$connections" -d"${2}s" --timeout 10s -s "$here/gateway-loadtest.lua" \
        "http://127.0.0.1:$1" >"$work/$3.txt" 2>&1 &
    launched=$!
    wrk_pids+=("$launched")
}

# finish MODE LABEL PID: waits for a launched run and checks it; sets $result.
finish() {
    local mode=$1 label=$2 out="$work/$2.txt"
    wait "$3" || fail "wrk failed on $label: $(cat "$out")"
    result=$(grep '^RESULT ' "$out") || fail "wrk printed no RESULT line on $label: $(cat "$out")"
    check "$mode" "$label"
    local s401 inflight
    s401=$(field status401 "$result")
    inflight=$(($(field sent "$result") - $(field answered "$result")))
    if [ "$mode" = on ] && { [ "$s401" -gt "$expected401" ] || [ "$s401" -lt $((expected401 - inflight)) ]; }; then
        fail "$label: $s401 answers were 401, but $expected401 tokenExpire requests were sent ($inflight still in flight)"
    fi
}

# timed MODE PORT SECONDS LABEL: one run on one gateway alone; sets $result.
timed() {
    launch "$2" "$3" "$4"
    finish "$1" "$4" "$launched"
    wrk_pids=()
}

# ticks PID: the CPU time a process has used, user and system, in clock ticks (fields 14 and 15
# of /proc/PID/stat; the command name, field 2, is "gateway", without spaces).
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
tick_us=$((1000000 / $(getconf CLK_TCK)))

classified() { awk '/^swifterr_responses_total\{/ { sum += $2 } END { printf "%d", sum }' "$1"; }
unclassified() { awk '/^gateway_upstream_unclassified_total\{/ { sum += $2 } END { printf "%d", sum }' "$1"; }
series() { awk -v s="$2" '$1 == s { printf "%d", $2; found = 1 } END { if (!found) printf "0" }' "$1"; }

# counted MODE PORT LABEL: a run of exactly --count /api requests, none left in flight;
# checks the answers, and the gateway's /metrics against what was sent.
counted() {
    local mode=$1 port=$2 label=$3 out="$work/$3.txt"
    local quota=$(((count_requests + threads - 1) / threads))
    local total=$((quota * threads))
    curl -sf "http://127.0.0.1:$port/metrics" >"$work/$label-before.txt" || fail "could not read /metrics"
    local before unclassified_before served_before
    before=$(classified "$work/$label-before.txt")
    unclassified_before=$(unclassified "$work/$label-before.txt")
    served_before=$(curl -sf "http://127.0.0.1:$upstream_port/served") || fail "could not read the upstream's /served"
    wrk -t"$threads" -c"$connections" -d120s --timeout 10s -s "$here/gateway-loadtest.lua" \
        "http://127.0.0.1:$port" -- "$quota" >"$out" 2>&1 &
    local wrk_pid=$!
    wrk_pids=("$wrk_pid")
    # Each wrk thread stops itself once its quota is answered, but wrk then waits for -d: it is
    # ended with SIGINT (which makes it print its results) once the upstream has answered every
    # request the gateway forwarded, and a second later, when the gateway's answers are in.
    local waited=0 served
    while kill -0 "$wrk_pid" 2>/dev/null && [ "$waited" -lt 1100 ]; do
        served=$(curl -sf "http://127.0.0.1:$upstream_port/served") || fail "could not read the upstream's /served"
        [ $((served - served_before)) -ge "$total" ] && break
        sleep 0.1
        waited=$((waited + 1))
    done
    sleep 1
    kill -INT "$wrk_pid" 2>/dev/null || true
    wait "$wrk_pid" || fail "wrk failed on $label: $(cat "$out")"
    wrk_pids=()
    result=$(grep '^RESULT ' "$out") || fail "wrk printed no RESULT line on $label: $(cat "$out")"
    check "$mode" "$label"
    [ "$(field sent "$result")" -eq "$total" ] || fail "$label: sent $(field sent "$result") requests, not $total"
    [ "$(field answered "$result")" -eq "$total" ] \
        || fail "$label: $(field answered "$result") of $total requests answered within 110 s"
    if [ "$mode" = on ]; then
        [ "$(field status401 "$result")" -eq "$expected401" ] \
            || fail "$label: $(field status401 "$result") answers were 401, $expected401 tokenExpire requests were sent"
        [ "$(field status200 "$result")" -eq $((total - expected401)) ] \
            || fail "$label: $(field status200 "$result") answers were 200, expected $((total - expected401))"
    else
        [ "$(field status200 "$result")" -eq "$total" ] || fail "$label: $(field status200 "$result") of $total answers were 200"
    fi
    curl -sf "http://127.0.0.1:$port/metrics" >"$work/$label-after.txt" || fail "could not read /metrics"
    if [ "$mode" = off ]; then
        ! grep -q '^swifterr_\|^gateway_' "$work/$label-after.txt" \
            || fail "$label: the gateway passing through has swifterr_ or gateway_ series"
        return 0
    fi
    local k tier module name key now was
    declare -A expected=()
    for k in $(seq 0 19); do
        read -r _ _ tier module name <<<"${mix[$k]}"
        key="swifterr_responses_total{tier=\"$tier\"}"
        expected[$key]=$((${expected[$key]:-0} + slots[k]))
        key="swifterr_codes_total{tier=\"$tier\",module=\"$module\",name=\"$name\"}"
        expected[$key]=$((${expected[$key]:-0} + slots[k]))
    done
    expected[swifterr_classification_duration_seconds_count]=$total
    for key in "${!expected[@]}"; do
        now=$(series "$work/$label-after.txt" "$key")
        was=$(series "$work/$label-before.txt" "$key")
        [ $((now - was)) -eq "${expected[$key]}" ] \
            || fail "$label: /metrics $key went up by $((now - was)), ${expected[$key]} such requests were sent"
    done
    counted_total=$(($(classified "$work/$label-after.txt") - before))
    [ "$counted_total" -eq "$total" ] || fail "$label: /metrics counted $counted_total answers, $total requests were sent"
    local unclassified_delta=$(($(unclassified "$work/$label-after.txt") - unclassified_before))
    [ "$unclassified_delta" -eq 0 ] \
        || fail "$label: /metrics counted $unclassified_delta upstream answers as unclassified, every one was a 200 envelope"
    counted_401=$expected401
    log "$label: $total requests sent, $total answered ($expected401 × 401), /metrics counted $counted_total, by tier and code as sent"
}

log "warm-up: ${warmup} s each"
timed on "$on_port" "$warmup" warmup-on
timed off "$off_port" "$warmup" warmup-off

rps_on=()
rps_off=()
p99_on=()
p99_off=()
alone_ratios=()
answers_on=0
answers_off=0
[ "$runs" -eq 0 ] || log "alone: $runs pairs of ${seconds} s runs, one gateway at a time"
for i in $(seq 1 "$runs"); do
    if [ $((i % 2)) -eq 1 ]; then order="on off"; else order="off on"; fi
    for mode in $order; do
        if [ "$mode" = on ]; then port=$on_port; else port=$off_port; fi
        timed "$mode" "$port" "$seconds" "alone$i-$mode"
        log "alone $i classification=$mode: $(field rps "$result") requests/s, p99 $(field p99_us "$result") µs, $(field status401 "$result") × 401"
        if [ "$mode" = on ]; then
            rps_on+=("$(field rps "$result")")
            p99_on+=("$(field p99_us "$result")")
            answers_on=$((answers_on + $(field answered "$result")))
        else
            rps_off+=("$(field rps "$result")")
            p99_off+=("$(field p99_us "$result")")
            answers_off=$((answers_off + $(field answered "$result")))
        fi
    done
    alone_ratios+=("$(awk -v a="${rps_on[$((i - 1))]}" -v b="${rps_off[$((i - 1))]}" 'BEGIN { printf "%.3f", a / b }')")
done

side_on=()
side_off=()
side_p99_on=()
side_p99_off=()
side_ratios=()
cpu_on=()
cpu_off=()
cpu_ratios=()
# side_by_side FIRST LAST: side-by-side runs FIRST to LAST, appended to the side_* arrays.
side_by_side() {
    local i
    log "side by side: runs $1 to $2 of ${seconds} s, both gateways loaded at once"
    for i in $(seq "$1" "$2"); do
        local on_ticks off_ticks
        on_ticks=$(ticks "$on_server")
        off_ticks=$(ticks "$off_server")
        # Which wrk starts first alternates, so that neither gateway always gets the head start.
        if [ $((i % 2)) -eq 1 ]; then
            launch "$on_port" "$seconds" "side$i-on"
            on_pid=$launched
            launch "$off_port" "$seconds" "side$i-off"
            off_pid=$launched
        else
            launch "$off_port" "$seconds" "side$i-off"
            off_pid=$launched
            launch "$on_port" "$seconds" "side$i-on"
            on_pid=$launched
        fi
        finish on "side$i-on" "$on_pid"
        on_result=$result
        finish off "side$i-off" "$off_pid"
        wrk_pids=()
        # Both wrk runs have ended: both gateways have answered all they will of this run.
        on_ticks=$(($(ticks "$on_server") - on_ticks))
        off_ticks=$(($(ticks "$off_server") - off_ticks))
        cpu_on+=("$(awk -v t="$on_ticks" -v u="$tick_us" -v n="$(field answered "$on_result")" 'BEGIN { printf "%.1f", t * u / n }')")
        cpu_off+=("$(awk -v t="$off_ticks" -v u="$tick_us" -v n="$(field answered "$result")" 'BEGIN { printf "%.1f", t * u / n }')")
        cpu_ratios+=("$(awk -v a="${cpu_on[$((i - 1))]}" -v b="${cpu_off[$((i - 1))]}" 'BEGIN { printf "%.3f", a / b }')")
        side_on+=("$(field rps "$on_result")")
        side_off+=("$(field rps "$result")")
        side_p99_on+=("$(field p99_us "$on_result")")
        side_p99_off+=("$(field p99_us "$result")")
        answers_on=$((answers_on + $(field answered "$on_result")))
        answers_off=$((answers_off + $(field answered "$result")))
        side_ratios+=("$(awk -v a="$(field rps "$on_result")" -v b="$(field rps "$result")" 'BEGIN { printf "%.3f", a / b }')")
        log "side by side $i: classification on $(field rps "$on_result") requests/s at ${cpu_on[$((i - 1))]} µs CPU each, off $(field rps "$result") at ${cpu_off[$((i - 1))]} µs: CPU per request ${cpu_ratios[$((i - 1))]}, requests/s ${side_ratios[$((i - 1))]}"
    done
}

side_by_side 1 "$pairs"

log "counting: $count_requests requests to each gateway, none left in flight"
counted on "$on_port" count-on
counted off "$off_port" count-off

# median VALUES...: their median, or "-" when there are none (no alone runs).
median() {
    [ $# -gt 0 ] || { echo -; return; }
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ms() { if [ "$1" = - ]; then echo -; else awk -v u="$1" 'BEGIN { printf "%.2f ms", u / 1000 }'; fi; }
ratio=$(median "${cpu_ratios[@]}")
cost=$(awk -v r="$ratio" 'BEGIN { printf "%.1f", (r - 1) * 100 }')
if ! awk -v c="$cost" -v m="$max_cost" 'BEGIN { exit !(c <= m) }'; then
    # Single ratios on a shared machine spread by several per cent, about as much as the cost
    # itself: one more set of runs, and the gate takes the median of both sets.
    log "classification cost $cost % over $pairs runs, above $max_cost %: $pairs more runs, then the median of all"
    side_by_side $((pairs + 1)) $((2 * pairs))
    pairs=$((2 * pairs))
    ratio=$(median "${cpu_ratios[@]}")
    cost=$(awk -v r="$ratio" 'BEGIN { printf "%.1f", (r - 1) * 100 }')
fi
throughput_ratio=$(median "${side_ratios[@]}")
alone_ratio=$(median "${alone_ratios[@]}")

table=$(
    cat <<EOF
| classification | alone: requests/s | alone: p99 | side by side: requests/s | side by side: p99 | side by side: CPU per request | /api answers | non-2xx | socket errors |
|---|---|---|---|---|---|---|---|---|
| on | $(median "${rps_on[@]}") | $(ms "$(median "${p99_on[@]}")") | $(median "${side_on[@]}") | $(ms "$(median "${side_p99_on[@]}")") | $(median "${cpu_on[@]}") µs | $answers_on | 401 for each tokenExpire, no other | 0 |
| off | $(median "${rps_off[@]}") | $(ms "$(median "${p99_off[@]}")") | $(median "${side_off[@]}") | $(ms "$(median "${side_p99_off[@]}")") | $(median "${cpu_off[@]}") µs | $answers_off | 0 | 0 |

- Medians: alone over $runs runs of ${seconds} s per gateway, side by side over $pairs runs of ${seconds} s.
- Cost of classification: the gateway's CPU time per request answered, side by side, on ÷ off, median **$ratio** ($cost % more CPU per request; goal $goal_cost %: $(awk -v c="$cost" -v g="$goal_cost" 'BEGIN { print (c <= g ? "met" : "not met in this run") }'); gate $max_cost %); each run: ${cpu_ratios[*]}.
- Requests/s, side by side, on ÷ off (reported, not gated): median $throughput_ratio; each run: ${side_ratios[*]}. Alone, on ÷ off per pair: ${alone_ratios[*]} (median $alone_ratio).
- Counting: $count_requests requests to the classifying gateway, $counted_401 of them tokenExpire, answered 401, the others 200; its /metrics counted $counted_total, each tier and code as sent. The gateway passing through answered 200 to all $count_requests.
- wrk $(wrk --version 2>&1 | head -n 1 | awk '{ print $2 }') -t$threads -c$connections per gateway on 127.0.0.1, $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ), load average before the runs: $load_before.
EOF
)
echo
echo "$table"
echo
if [ -n "$results" ]; then echo "$table" >"$results"; fi
awk -v c="$cost" -v m="$max_cost" 'BEGIN { exit !(c <= m) }' \
    || fail "classification costs $cost % more CPU per request (median side-by-side ratio $ratio), over $max_cost %"
log "PASS: classification costs $cost % more CPU per request (gate $max_cost %, goal $goal_cost %)"
