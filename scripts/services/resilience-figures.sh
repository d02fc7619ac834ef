#!/usr/bin/env bash
# Resilience figures: the gateway in front of an upstream on 127.0.0.1 that fails on purpose
# (flaky-upstream), loaded by resilience-load, both in Examples/Gateway. Prints a Markdown table and
# exits non-zero when a figure misses its aim.
#
# (a) The upstream drops the connection without answering on exactly half of its requests (a
#     transport failure). The gateway retries GETs (3 attempts) with its retry budget, then without
#     it; the breaker and the throttle are off in both runs so that the budget alone is measured.
#     Aim: upstream requests per client request ≤ 1.2 with the budget.
# (b) The upstream answers every request with a business code (11210005, wrong team code) and
#     HTTP 200. The gateway runs its defaults (budget, breaker, throttle). Aim: the breaker stays
#     closed and nothing is shed or retried.
# (c) The upstream goes down (stops listening: connections refused) 3 s after it
#     starts, for 10 s, then listens again on the same port. Gateway defaults (breaker: 10 %
#     over at least 100 outcomes in 30 s, 5 s break, 1 probe). Aims: the circuit opens within its
#     sampling window, requests are then shed (503) without reaching the upstream, and the gateway
#     answers 200 again within the break plus one probe of the upstream's return. The shed answers'
#     latency is reported (p50, p99, max, measured by the client, while (a) and (b) still run); it
#     is not a gate, since a shared 2-core machine can delay any answer.
#
# The three figures run at once (each with its own upstream and gateway; (c)'s upstream comes back
# after (a) and (b) have ended, so its timings are measured on a machine as loaded as alone).
# Options: --only FIGURES (abc), --results FILE (the table, in Markdown). It prints the table.
. "$(dirname "$0")/../lib.sh"
seconds=10 concurrency=16 down_after=3000 down_for=10000 c_seconds=20 c_concurrency=4 results= run=abc
while [ $# -gt 0 ]; do
    case $1 in
    --only) run=$2 && shift ;;
    --results) results=$2 && shift ;;
    *) die "unknown option $1 (see the header of $0)" ;;
    esac
    shift
done
log() { echo "figures: $*"; }
fail() { die "$@"; }
need_debian curl

bin=$(gateway_bin gateway flaky-upstream resilience-load) || fail "Examples/Gateway does not build"

servers_begin resilience-figures
stop() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
series() { awk -v s="$2" 'index($1, s) == 1 { sum += $2 } END { printf "%d", sum }' "$1"; }

# run_loaded NAME "UPSTREAM OPTIONS" "GATEWAY OPTIONS": in the background, a flaky-upstream and a
# gateway in front of it, loaded by resilience-load for $seconds with $concurrency clients; writes
# $work/NAME.vars (result=, reached=: requests the upstream served, upstream_port=) and
# $work/NAME.metrics (the gateway's /metrics after the run).
run_loaded() {
    (
        trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT
        # shellcheck disable=SC2086 # the options are words
        start "upstream-$1" "$bin/flaky-upstream" $2
        local upstream_pid=$pid upstream_port=$port
        # shellcheck disable=SC2086
        start "gateway-$1" "$bin/gateway" --port 0 --upstream "http://127.0.0.1:$upstream_port" $3
        local gateway_pid=$pid gateway_port=$port result reached
        result=$("$bin/resilience-load" --url "http://127.0.0.1:$gateway_port/api/item" \
            --concurrency "$concurrency" --seconds "$seconds" --samples "$work/$1.samples" | grep '^RESULT ')
        reached=$(curl -sf "http://127.0.0.1:$upstream_port/served") || fail "$1: could not read /served"
        curl -sf "http://127.0.0.1:$gateway_port/metrics" >"$work/$1.metrics" || fail "$1: could not read /metrics"
        stop "$gateway_pid"
        stop "$upstream_pid"
        printf 'result=%q\nreached=%q\nupstream_port=%q\n' "$result" "$reached" "$upstream_port" >"$work/$1.vars"
    ) &
}

# run_c: figure (c) in the background: writes $work/c.load, c.wrk, c.metrics and c.vars.
run_c() {
    (
        trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT
        start upstream-c "$bin/flaky-upstream" --down-after-ms "$down_after" --down-for-ms "$down_for"
        local upstream_pid=$pid upstream_port=$port
        start gateway-c "$bin/gateway" --port 0 --upstream "http://127.0.0.1:$upstream_port"
        local gateway_pid=$pid gateway_port=$port
        "$bin/resilience-load" --url "http://127.0.0.1:$gateway_port/api/item" \
            --concurrency "$c_concurrency" --seconds "$c_seconds" --samples "$work/c.samples" >"$work/c.load" &
        local load_pid=$!
        pids+=("$load_pid")
        # wrk on one connection for 3 s inside the first break (from 1.5 s after the upstream went
        # down), when every answer is a shed 503: its latency distribution is the shed answers'.
        sleep "$(awk -v ms="$down_after" 'BEGIN { printf "%.1f", ms / 1000 + 1.5 }')"
        wrk -t1 -c1 -d3s --latency "http://127.0.0.1:$gateway_port/api/item" >"$work/c.wrk" 2>&1 || true
        wait "$load_pid" || fail "(c): resilience-load failed"
        curl -sf "http://127.0.0.1:$gateway_port/metrics" >"$work/c.metrics" || fail "(c): could not read /metrics"
        stop "$gateway_pid"
        stop "$upstream_pid"
        echo done >"$work/c.vars"
    ) &
}

# Each figure's background job: its process id, waited for before its figures are read.
figure_pids=()
if [[ $run == *a* ]]; then
    log "(a) upstream failing 50 % with transport errors, retry budget on and off (${seconds} s each, $concurrency clients)"
    run_loaded a-on "--fail-fraction 0.5 --failure close" "--retry-budget on --circuit-breaker off --throttle off"
    figure_pids+=($!)
    run_loaded a-off "--fail-fraction 0.5 --failure close" "--retry-budget off --circuit-breaker off --throttle off"
    figure_pids+=($!)
fi
if [[ $run == *b* ]]; then
    log "(b) upstream answering business codes 100 % of the time (${seconds} s, $concurrency clients)"
    run_loaded b "--answer-code 11210005" ""
    figure_pids+=($!)
fi
if [[ $run == *c* ]]; then
    log "(c) upstream down for $((down_for / 1000)) s after $((down_after / 1000)) s, then back (${c_seconds} s, $c_concurrency clients)"
    run_c
    figure_pids+=($!)
fi
pids+=("${figure_pids[@]}")
for figure_pid in "${figure_pids[@]}"; do wait "$figure_pid" || fail "a figure's run failed (above)"; done

table=""
if [[ $run == *a* ]]; then
. "$work/a-on.vars"
a_on_requests=$(field requests "$result") a_on_reached=$reached a_on_result=$result
a_on_exhausted=$(series "$work/a-on.metrics" swifterr_retry_budget_exhausted_total)
. "$work/a-off.vars"
a_off_requests=$(field requests "$result") a_off_reached=$reached a_off_result=$result
a_on_ratio=$(ratio "$a_on_reached" "$a_on_requests")
a_off_ratio=$(ratio "$a_off_reached" "$a_off_requests")
log "(a) budget on: $a_on_reached upstream requests for $a_on_requests client requests ($a_on_ratio); off: $a_off_reached for $a_off_requests ($a_off_ratio)"
awk -v r="$a_on_ratio" 'BEGIN { exit !(r <= 1.2) }' || fail "(a): $a_on_ratio upstream requests per client request with the budget, over 1.2"
table+="| figure | run | client requests | answers | reached the upstream | per client request | retries sent | retries the budget refused |
|---|---|---|---|---|---|---|---|
| (a) 50 % transport failures | budget on | $a_on_requests | 200: $(field status200 "$a_on_result"), 502: $(field status502 "$a_on_result") | $a_on_reached | **$a_on_ratio** | $((a_on_reached - a_on_requests)) | $a_on_exhausted |
| (a) 50 % transport failures | budget off | $a_off_requests | 200: $(field status200 "$a_off_result"), 502: $(field status502 "$a_off_result") | $a_off_reached | **$a_off_ratio** | $((a_off_reached - a_off_requests)) | — |
"
fi

if [[ $run == *b* ]]; then
. "$work/b.vars"
b_result=$result b_reached=$reached b_upstream_port=$upstream_port
b_requests=$(field requests "$b_result")
b_closed=$(series "$work/b.metrics" 'swifterr_circuit_state{upstream="127.0.0.1:'"$b_upstream_port"'",state="closed"}')
b_shed=$(series "$work/b.metrics" swifterr_shed_requests_total)
b_retries=$(series "$work/b.metrics" swifterr_retries_total)
b_codes=$(series "$work/b.metrics" 'swifterr_codes_total{tier="module",module="studyGroup",name="wrongTeamCode"}')
log "(b) $b_requests requests, $(field status200 "$b_result") answered 200, $b_reached reached the upstream, circuit closed=$b_closed, shed $b_shed, retries $b_retries"
[ "$b_closed" -eq 1 ] && [ "$b_shed" -eq 0 ] && [ "$b_retries" -eq 0 ] \
    || fail "(b): business answers opened the circuit, were shed or retried (closed=$b_closed shed=$b_shed retries=$b_retries)"
[ "$b_codes" -eq "$b_reached" ] || fail "(b): /metrics counted $b_codes wrong team codes, the upstream answered $b_reached"
table+="
| figure | client requests | answers | reached the upstream | per client request | retries | shed | circuit |
|---|---|---|---|---|---|---|---|
| (b) 100 % business answers (11210005), gateway defaults | $b_requests | 200: $(field status200 "$b_result") | $b_reached | $(ratio "$b_reached" "$b_requests") | $b_retries | $b_shed | closed (\`swifterr_circuit_state{state=\"closed\"}\` = $b_closed); $b_codes counted as studyGroup.wrongTeamCode |
"
fi

if [[ $run == *c* ]]; then
c_result=$(grep '^RESULT ' "$work/c.load") || fail "(c): resilience-load printed no RESULT"
wrk_line=""
if [ -s "$work/c.wrk" ]; then
    wrk_p50=$(awk '$1 == "50%" { print $2 }' "$work/c.wrk")
    wrk_p99=$(awk '$1 == "99%" { print $2 }' "$work/c.wrk")
    wrk_requests=$(awk '/requests in/ { print $1 }' "$work/c.wrk")
    wrk_non2xx=$(awk '/Non-2xx/ { print $5 }' "$work/c.wrk")
    wrk_line="wrk, 1 connection, 3 s inside the break: $wrk_requests answers, ${wrk_non2xx:-0} of them not 2xx (503), latency p50 $wrk_p50, **p99 $wrk_p99**."
    log "(c) $wrk_line"
fi
down_at=$(sed -n 's/^flaky-upstream down at \([0-9]*\)$/\1/p' "$work/upstream-c.out")
up_at=$(sed -n 's/^flaky-upstream up at \([0-9]*\)$/\1/p' "$work/upstream-c.out")
[ -n "$down_at" ] && [ -n "$up_at" ] || fail "(c): the upstream did not go down and come back within the run"
c_figures=$(python3 - "$work/c.samples" "$down_at" "$up_at" <<'PY'
import sys
path, down, up = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = [tuple(map(int, line.split())) for line in open(path) if line.strip()]
def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))] if values else -1
first_shed = next((t for t, s, _ in rows if s == 503 and t >= down), None)
shed = [us for t, s, us in rows if s == 503]
failed_before_open = sum(1 for t, s, _ in rows if s == 502 and t >= down and (first_shed is None or t <= first_shed))
recovered = next((t for t, s, _ in rows if s == 200 and t >= up), None)
ok_before = sum(1 for t, s, _ in rows if s == 200 and t < down)
print(" ".join([
    f"open_after_ms={first_shed - down if first_shed else -1}",
    f"failed_before_open={failed_before_open}",
    f"shed={len(shed)}",
    f"shed_p50_us={pct(shed, 0.5)}", f"shed_p99_us={pct(shed, 0.99)}", f"shed_max_us={max(shed) if shed else -1}",
    f"recovered_after_ms={recovered - up if recovered else -1}",
    f"ok_before={ok_before}",
]))
PY
)
c_transitions=$(grep '^swifterr_circuit_transitions_total' "$work/c.metrics" | awk '$2 > 0' \
    | sed -E 's/.*from="([a-z_]+)",to="([a-z_]+)"\} ([0-9]+).*/\1 → \2: \3/' | paste -sd ';' - | sed 's/;/, /g')
log "(c) $c_figures; transitions: $c_transitions"

us_ms() { awk -v u="$1" 'BEGIN { printf "%.3f ms", u / 1000 }'; }
open_after=$(field open_after_ms " $c_figures")
recovered_after=$(field recovered_after_ms " $c_figures")
[ "$open_after" -ge 0 ] && [ "$open_after" -le 30000 ] || fail "(c): the circuit did not open within its 30 s window ($open_after ms)"
[ "$recovered_after" -ge 0 ] && [ "$recovered_after" -le 6000 ] \
    || fail "(c): 200 again $recovered_after ms after the upstream came back, over the 5 s break plus a probe"
table+="
(c) upstream down for $((down_for / 1000)) s, then back; gateway defaults, $c_concurrency clients for $c_seconds s: $(field requests "$c_result") requests (200: $(field status200 "$c_result"), 502: $(field status502 "$c_result"), 503: $(field status503 "$c_result")).

| circuit opened after the upstream went down | 502 before it opened | shed answers (503) | shed latency p50 / p99 / max (client) | first 200 after the upstream came back |
|---|---|---|---|---|
| $open_after ms | $(field failed_before_open " $c_figures") | $(field shed " $c_figures") | $(us_ms "$(field shed_p50_us " $c_figures")") / **$(us_ms "$(field shed_p99_us " $c_figures")")** / $(us_ms "$(field shed_max_us " $c_figures")") | $recovered_after ms |

$wrk_line

Transitions in /metrics: $c_transitions
"
fi

table+="
- $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || echo '?')."
echo
echo "$table"
echo
if [ -n "$results" ]; then echo "$table" >"$results"; fi
log "PASS"
