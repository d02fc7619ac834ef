#!/usr/bin/env bash
# fuzz-run.sh — runs one libFuzzer binary over its committed corpus and reports the result.
#
#   scripts/fuzz/run.sh BINARY CORPUS_DIR WORK_DIR SECONDS [TIMEOUT]   fuzz for SECONDS over a scratch copy
#   scripts/fuzz/run.sh BINARY CORPUS_DIR WORK_DIR regress [TIMEOUT]   run every corpus input once (-runs=0)
#
# The committed corpus is never written: fuzzing runs over a copy in WORK_DIR/corpus, and new
# crash, timeout and out-of-memory inputs go to WORK_DIR/{crash,timeout,oom}-*. One process
# (-jobs/-workers are not used: `make -j2 fuzz` runs two targets at once instead). An input that
# runs longer than TIMEOUT seconds (default 10) is a finding, a hang. fuzz/<name>.dict, when present, is
# passed as -dict. Prints one line:
#   "<name>: <execs> execs in <s> s (<rate> exec/s), cov <n>, ft <n>, corpus <n> -> <n>"
# and exits non-zero when the target crashed or hung, with the log's tail and the input's path.
set -euo pipefail
bin=$1 corpus=$2 work=$3 mode=$4 timeout=${5:-10}
name=$(basename "$bin")
rm -rf "$work"
mkdir -p "$work/corpus"
log="$work/log.txt"
seeds=$(find "$corpus" -type f | wc -l)
common=(-print_final_stats=1 -timeout="$timeout" -rss_limit_mb=2048 -artifact_prefix="$work/")
dict="fuzz/${name}.dict"
[[ -f $dict ]] && common+=(-dict="$dict")
start=$(date +%s)
status=0
if [[ $mode == regress ]]; then
  "$bin" "${common[@]}" -runs=0 "$corpus" >"$log" 2>&1 || status=$?
else
  cp -R "$corpus/." "$work/corpus/"
  "$bin" "${common[@]}" -max_total_time="$mode" "$work/corpus" >"$log" 2>&1 || status=$?
fi
elapsed=$(($(date +%s) - start))
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
# libFuzzer's progress lines look like "#1234 DONE cov: 310 ft: 1290 corp: 97/3Kb ...".
progress=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$progress")
ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$progress")
after=$(find "$work/corpus" -type f | wc -l)
[[ $mode == regress ]] && after=$seeds
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
echo "$name: ${execs:-?} execs in ${elapsed} s (${rate:-?} exec/s), cov ${cov:-?}, ft ${ft:-?}, corpus $seeds -> $after"
if ((status != 0)); then
  echo "$name: FAILED (exit $status); log: $log" >&2
  grep -E 'fuzz check failed|envelope_fuzz:|catalog_fuzz:|ERROR|SUMMARY|Fatal error|timeout' "$log" | head -20 >&2 || true
  ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* 2>/dev/null >&2 || true
  exit 1
fi
