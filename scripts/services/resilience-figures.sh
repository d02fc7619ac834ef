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
# (c) The upstream goes down (stops listening: connections refused) FIG_DOWN_AFTER_MS after it
#     starts, for FIG_DOWN_MS, then listens again on the same port. Gateway defaults (breaker: 10 %
#     over at least 100 outcomes in 30 s, 5 s break, 1 probe). Aims: the circuit opens within its
#     sampling window, requests are then shed (503) without reaching the upstream, and the gateway
#     answers 200 again within the break plus one probe of the upstream's return. The shed answers'
#     latency is reported (p50, p99, max, measured by the client); it is not a gate, since a shared
#     2-core machine can delay any answer.
#
# Settings (environment): FIG_RUN=abc (the figures to run), FIG_SECONDS=10 (each run of (a) and (b)), FIG_CONCURRENCY=16 ((a), (b)),
# FIG_DOWN_AFTER_MS=3000, FIG_DOWN_MS=10000, FIG_C_SECONDS=20, FIG_C_CONCURRENCY=4,
# SCRATCH_PATH=<repository>/.build-services, FIG_RESULTS=<file> (the table, in Markdown).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
package=$root/Examples/Gateway
scratch=${SCRATCH_PATH:-$root/.build-services}
seconds=${FIG_SECONDS:-10}
concurrency=${FIG_CONCURRENCY:-16}
down_after=${FIG_DOWN_AFTER_MS:-3000}
down_for=${FIG_DOWN_MS:-10000}
c_seconds=${FIG_C_SECONDS:-20}
c_concurrency=${FIG_C_CONCURRENCY:-4}
results=${FIG_RESULTS:-}
run=${FIG_RUN:-abc}

log() { echo "figures: $*"; }
fail() {
    echo "figures: FAIL: $*" >&2
    exit 1
}
# shellcheck source=servers.sh
. "$here/servers.sh"
command -v curl >/dev/null || fail "curl is not installed (Debian: apt-get install curl)"
command -v python3 >/dev/null || fail "python3 is not installed (Debian: apt-get install python3)"

log "building gateway, flaky-upstream and resilience-load (release, scratch path $scratch)"
for product in gateway flaky-upstream resilience-load; do
    swift build -c release --package-path "$package" --scratch-path "$scratch" --product "$product" \
        || fail "swift build of $product failed"
done
bin=$(swift build -c release --package-path "$package" --scratch-path "$scratch" --show-bin-path)

servers_begin resilience-figures
stop() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
series() { awk -v s="$2" 'index($1, s) == 1 { sum += $2 } END { printf "%d", sum }' "$1"; }

# run_a BUDGET: figure (a) with the retry budget on or off; sets $a_requests, $a_reached, $a_result.
run_a() {
    start "upstream-a-$1" "$bin/flaky-upstream" --fail-fraction 0.5 --failure close
    local upstream_pid=$pid upstream_port=$port
    start "gateway-a-$1" "$bin/gateway" --port 0 --upstream "http://127.0.0.1:$upstream_port" \
        --retry-budget "$1" --circuit-breaker off --throttle off
    local gateway_pid=$pid gateway_port=$port
    a_result=$("$bin/resilience-load" --url "http://127.0.0.1:$gateway_port/api/item" \
        --concurrency "$concurrency" --seconds "$seconds" --samples "$work/a-$1.samples" | grep '^RESULT ')
    a_requests=$(field requests "$a_result")
    a_reached=$(curl -sf "http://127.0.0.1:$upstream_port/served") || fail "(a): could not read /served"
    curl -sf "http://127.0.0.1:$gateway_port/metrics" >"$work/a-$1.metrics" || fail "(a): could not read /metrics"
    stop "$gateway_pid"
    stop "$upstream_pid"
}

table=""
if [[ $run == *a* ]]; then
log "(a) upstream failing 50 % with transport errors, retry budget on, then off (${seconds} s each, $concurrency clients)"
run_a on
a_on_requests=$a_requests a_on_reached=$a_reached a_on_result=$a_result
a_on_exhausted=$(series "$work/a-on.metrics" swifterr_retry_budget_exhausted_total)
run_a off
a_off_requests=$a_requests a_off_reached=$a_reached a_off_result=$a_result
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
log "(b) upstream answering business codes 100 % of the time (${seconds} s, $concurrency clients)"
start upstream-b "$bin/flaky-upstream" --answer-code 11210005
b_upstream_pid=$pid b_upstream_port=$port
start gateway-b "$bin/gateway" --port 0 --upstream "http://127.0.0.1:$b_upstream_port"
b_gateway_pid=$pid b_gateway_port=$port
b_result=$("$bin/resilience-load" --url "http://127.0.0.1:$b_gateway_port/api/item" \
    --concurrency "$concurrency" --seconds "$seconds" --samples "$work/b.samples" | grep '^RESULT ')
b_reached=$(curl -sf "http://127.0.0.1:$b_upstream_port/served") || fail "(b): could not read /served"
curl -sf "http://127.0.0.1:$b_gateway_port/metrics" >"$work/b.metrics" || fail "(b): could not read /metrics"
stop "$b_gateway_pid"
stop "$b_upstream_pid"
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
log "(c) upstream down for $((down_for / 1000)) s after $((down_after / 1000)) s, then back (${c_seconds} s, $c_concurrency clients)"
start upstream-c "$bin/flaky-upstream" --down-after-ms "$down_after" --down-for-ms "$down_for"
c_upstream_pid=$pid c_upstream_port=$port
start gateway-c "$bin/gateway" --port 0 --upstream "http://127.0.0.1:$c_upstream_port"
c_gateway_pid=$pid c_gateway_port=$port
"$bin/resilience-load" --url "http://127.0.0.1:$c_gateway_port/api/item" \
    --concurrency "$c_concurrency" --seconds "$c_seconds" --samples "$work/c.samples" >"$work/c.load" &
c_load_pid=$!
pids+=("$c_load_pid")
# wrk on one connection for 3 s inside the first break (from 1.5 s after the upstream went down),
# when every answer is a shed 503: its latency distribution is the shed answers'.
if command -v wrk >/dev/null; then
    sleep "$(awk -v ms="$down_after" 'BEGIN { printf "%.1f", ms / 1000 + 1.5 }')"
    wrk -t1 -c1 -d3s --latency "http://127.0.0.1:$c_gateway_port/api/item" >"$work/c.wrk" 2>&1 || true
fi
wait "$c_load_pid" || fail "(c): resilience-load failed"
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
curl -sf "http://127.0.0.1:$c_gateway_port/metrics" >"$work/c.metrics" || fail "(c): could not read /metrics"
stop "$c_gateway_pid"
stop "$c_upstream_pid"
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
