#!/usr/bin/env bash
# bench.sh — errcat on Spark in local[2] mode against `errcat classify --jobs 2`, on the same input.
# A measurement, never a test. Run scripts/spark-check.sh once first: it makes the virtualenv and
# the release build of errcat this uses.
#
#   scripts/spark/bench.sh [FILES] [LINES_PER_FILE] [RUNS]     (default 8 files × 1,000,000 lines, 5 runs)
#
# Input: FILES files of `errcat sample LINES --seed N` (about 51 MB per million lines). For each
# of these it prints every run and the median (wall and CPU seconds, user + sys of the process and
# its children):
#   - errcat classify --json --jobs 2 on the files concatenated into one file;
#   - the Spark job (summary) on a one-line input: Spark's fixed cost;
#   - the Spark job (summary) on the files, and with --each.
# Every Spark summary is compared with errcat's: the same bytes, or, when the input has more than
# 65,536 distinct codes without a catalog entry (8 million sample lines have about 69,000), the
# same but for that limit (scripts/spark/check_tools.py summary-beyond-limit). The page cache is
# warmed before the runs. The load average is printed: on a shared machine, quote medians.
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
        /usr/bin/time -f "%e %U %S" -o "$work/time" bash -c "$script" >"$work/run.log" 2>&1 || {
            cat "$work/run.log" >&2
            echo "bench: $name failed" >&2
            exit 1
        }
        read -r wall user sys <"$work/time"
        cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.2f", u + s}')
        walls+=("$wall")
        cpus+=("$cpu")
        echo "  $name run $run: $wall s wall, $cpu s CPU (load $(cut -d' ' -f1 /proc/loadavg))"
    done
    local wall_median cpu_median
    wall_median=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
    cpu_median=$(printf '%s\n' "${cpus[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
    echo "median $name: $wall_median s wall, $cpu_median s CPU"
}

export venv root errcat work
spark() {
    "$venv/bin/spark-submit" --master 'local[2]' --conf spark.ui.enabled=false \
        --conf spark.ui.showConsoleProgress=false "$root/Examples/Spark/errcat_spark.py" \
        --errcat "$errcat" --quiet --output "$work/out" "$@"
}

export -f spark

measure "errcat classify --jobs 2" '"$errcat" classify --json --quiet --max-errors 0 --jobs 2 "$work/all.jsonl" >"$work/errcat.json"'
measure "spark summary, one line" 'spark "$work/tiny"'
measure "spark summary" 'spark "$work/input" && "$venv/bin/python" "$root/scripts/spark/check_tools.py" summary-matches "$work/errcat.json" "$work/out/summary.json"'
measure "spark --each" 'spark --each "$work/input"'
rm -rf "$work"
