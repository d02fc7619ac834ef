#!/usr/bin/env bash
# bench.sh — errcat on Spark in local[2] mode against `errcat classify --jobs 2`, on the same input.
# A measurement, never a test. Run scripts/spark-check.sh once first: it makes the virtualenv and
# the release build of errcat this uses.
#
#   Benchmarks/tools/spark-bench.sh [FILES] [LINES_PER_FILE] [RUNS]     (default 8 files × 1,000,000 lines, 5 runs)
#
# BENCH_EACH=0 leaves out the --each runs.
#
# Input: FILES files of `errcat sample LINES --seed N` (about 51 MB per million lines). For each
# of these it prints every run and the median of wall and CPU seconds (CPU: user + system time of
# the whole process tree, the JVM, PySpark's Python workers and the errcat processes they start,
# sampled by Benchmarks/tools/cputree.py, since `time` misses the workers):
#   - errcat classify --json --jobs 2 on the files concatenated into one file;
#   - the Spark job (summary) on a one-line input: Spark's fixed cost;
#   - the Spark job (summary) on the files, and with --each.
# Every Spark summary is compared with errcat's: the same bytes, or, when the input has more than
# 65,536 distinct codes without a catalog entry (8 million sample lines have about 69,000), the
# same but for that limit (scripts/spark/check_tools.py summary-beyond-limit). The page cache is
# warmed before the runs. The load average is printed: on a shared machine, quote medians. At the
# end: Spark's fixed cost (the one-line run) and its cost per GB beyond that, against errcat's.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
files=${1:-8}
lines=${2:-1000000}
runs=${3:-5}
scratch=${SPARK_CHECK_SCRATCH:-$root/.build-spark}
venv=$scratch/venv
errcat=$scratch/swift/release/errcat
work=$scratch/bench-run
[ -x "$venv/bin/spark-submit" ] && [ -x "$errcat" ] || {
    echo "bench: run scripts/spark-check.sh first (it makes $venv and $errcat)" >&2
    exit 1
}

rm -rf "$work"
mkdir -p "$work/input" "$work/tiny" "$work/conf" "$work/tmp"
for ((i = 1; i <= files; i++)); do
    "$errcat" sample "$lines" --seed "$i" >"$work/input/part-$i.jsonl"
done
echo 0 >"$work/tiny/one.jsonl"
cat "$work"/input/*.jsonl >"$work/all.jsonl"
bytes=$(stat -c %s "$work/all.jsonl")
echo "input: $files files, $((files * lines)) lines, $bytes bytes ($((bytes / 1000000)) MB)"
cat "$work/all.jsonl" >/dev/null

cat >"$work/conf/log4j2.properties" <<'EOF'
rootLogger.level = error
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n%ex
EOF
export SPARK_LOCAL_IP=127.0.0.1 SPARK_CONF_DIR=$work/conf TMPDIR=$work/tmp
export PYSPARK_PYTHON=$venv/bin/python PYSPARK_DRIVER_PYTHON=$venv/bin/python

# measure NAME SCRIPT: runs the bash SCRIPT $runs times; prints each run and the medians.
measure() {
    local name=$1 script=$2
    local walls=() cpus=()
    for ((run = 1; run <= runs; run++)); do
        rm -rf "$work/out"
        "$venv/bin/python" "$root/Benchmarks/tools/cputree.py" "$work/time" bash -c "$script" >"$work/run.log" 2>&1 || {
            cat "$work/run.log" >&2
            echo "bench: $name failed" >&2
            exit 1
        }
        read -r wall cpu <"$work/time"
        walls+=("$wall")
        cpus+=("$cpu")
        echo "  $name run $run: $wall s wall, $cpu s CPU (load $(cut -d' ' -f1 /proc/loadavg))"
    done
    local wall_median cpu_median
    wall_median=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
    cpu_median=$(printf '%s\n' "${cpus[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
    echo "median $name: $wall_median s wall, $cpu_median s CPU"
    last_wall=$wall_median
    last_cpu=$cpu_median
}

export venv root errcat work
spark() {
    "$venv/bin/spark-submit" --master 'local[2]' --conf spark.ui.enabled=false \
        --conf spark.ui.showConsoleProgress=false "$root/Examples/Spark/errcat_spark.py" \
        --errcat "$errcat" --quiet --output "$work/out" "$@"
}

export -f spark

measure "errcat classify --jobs 2" '"$errcat" classify --json --quiet --max-errors 0 --jobs 2 "$work/all.jsonl" >"$work/errcat.json"'
errcat_wall=$last_wall errcat_cpu=$last_cpu
measure "spark summary, one line" 'spark "$work/tiny"'
fixed_wall=$last_wall fixed_cpu=$last_cpu
measure "spark summary" 'spark "$work/input" && "$venv/bin/python" "$root/scripts/spark/check_tools.py" summary-matches "$work/errcat.json" "$work/out/summary.json"'
summary_wall=$last_wall summary_cpu=$last_cpu
each_wall=0 each_cpu=0
if [ "${BENCH_EACH:-1}" != 0 ]; then
    measure "spark --each" 'spark --each "$work/input"'
    each_wall=$last_wall each_cpu=$last_cpu
fi
awk -v gb="$(echo "$bytes" | awk '{print $1 / 1e9}')" -v ew="$errcat_wall" -v ec="$errcat_cpu" \
    -v fw="$fixed_wall" -v fc="$fixed_cpu" -v sw="$summary_wall" -v sc="$summary_cpu" \
    -v aw="$each_wall" -v ac="$each_cpu" 'BEGIN {
    printf "per GB: errcat %.2f s wall, %.2f s CPU\n", ew / gb, ec / gb
    printf "spark fixed cost: %.1f s wall, %.1f s CPU\n", fw, fc
    printf "spark summary beyond it, per GB: %.1f s wall, %.1f s CPU\n", (sw - fw) / gb, (sc - fc) / gb
    if (aw > 0) printf "spark --each beyond it, per GB: %.1f s wall, %.1f s CPU\n", (aw - fw) / gb, (ac - fc) / gb
}'
rm -rf "$work"
