#!/usr/bin/env bash
# spark-check.sh — Examples/Spark (errcat on Apache Spark) built, unit-tested and run end to end in
# local[2] mode against errcat itself.
#
# Installs what it needs: Java 17 from Debian (openjdk-17-jre-headless) when `java` is missing or
# older than 17, and the pinned Python packages of Examples/Spark/requirements*.txt in a virtualenv
# under the scratch folder (nothing global changes; the virtualenv is rebuilt when the pins change).
# Builds errcat in release mode in the repository's own .build, as the README's recipe does (in CI
# the README journey has built it already). Then:
#   1. the job's unit tests (pytest, no JVM: errcat's command lines, splits and line numbers,
#      byte order marks, --each decoding, the per-partition functions on hand-made batches);
#   2. writes a multi-file input (scripts/spark/check_tools.py inputs): errcat samples, invalid
#      lines, lines around errcat's 1 MiB read chunks, CRLF, a last line without a newline, empty
#      files and lines, byte order marks, invalid UTF-8, a line of exactly 16 MiB and one a byte
#      longer, a gzip file, a file name with a space and a '%';
#   3. the summary, with splits of 1 MiB and a merge fan-in of 3 (so files are split in the middle
#      and errcat merge runs on the executors, in a tree): it must equal one
#      `errcat classify --json` over the same files, every key and every byte;
#   4. --each with splits of 1 MiB: every row (file, line, code, tier, module, name, error) must
#      equal `errcat classify --each --json` reading each file itself;
#   5. --catalog with another catalog, --top and --lang hi: equal to errcat with the same options;
#   6. the one-machine recipe of Examples/Spark/README.md, run as written by scripts/docs/journeys.py
#      (its commands, from the repository root, with a new HOME): the summary it prints on standard
#      output must be, byte for byte, the one the README shows (the job's messages and Spark's
#      logging go to standard error), and its --each run must succeed;
#   7. 70,000 distinct codes without a catalog entry: one errcat run tracks 65,536 of them one by
#      one, the merged partitions all; every other key must be equal, and the difference exactly
#      that (scripts/spark/check_tools.py summary-beyond-limit);
#   8. a catalog mix (one executor's errcat classifying with another catalog) is refused, with
#      errcat merge's reason and the partition named, and no summary written.
# It prints the seconds each step took and the total, and stops at the first failure with a
# non-zero status, keeping the scratch files of the failed run.
#
# --prepare installs Java and the virtualenv and stops there (.ci/run's setup stage runs it in the
# background); both forms hold a lock on .build-spark/prepare.lock while they install, so a run that
# starts meanwhile waits for the packages instead of installing them beside it.
. "$(dirname "$0")/lib.sh"
scratch=$root/.build-spark
work=$scratch/check
venv=$scratch/venv
example=$root/Examples/Spark
step_limit=600
fail() {
    echo "spark-check: the run's files are in $work" >&2
    die "$@"
}
started=$(date +%s)

# -- what it needs

java_major() {
    # "openjdk version "17.0.15" 2025-04-15" → 17; "1.8.0_392" → 8
    local version
    version=$(java -version 2>&1 | sed -n 's/.* version "\([^"]*\)".*/\1/p' | head -n 1)
    case $version in
        1.*) echo "${version#1.}" | cut -d. -f1 ;;
        *) echo "$version" | cut -d. -f1 ;;
    esac
}
mkdir -p "$scratch"
exec 9>"$scratch/prepare.lock"
flock 9
if ! command -v java >/dev/null || [ "$(java_major)" -lt 17 ] 2>/dev/null; then
    need_debian /usr/lib/jvm/java-17-openjdk-amd64/bin/java=openjdk-17-jre-headless
fi
python3 -c 'import venv, ensurepip' 2>/dev/null || need_debian /usr/share/doc/python3-venv=python3-venv
if ! command -v java >/dev/null || [ "$(java_major)" -lt 17 ]; then
    # Debian installs Java 17 as an alternative; use it when another java comes first on PATH.
    for candidate in /usr/lib/jvm/java-17-openjdk-*/bin/java; do
        [ -x "$candidate" ] && export JAVA_HOME=${candidate%/bin/java} && export PATH=$JAVA_HOME/bin:$PATH
    done
fi
[ "$(java_major)" -ge 17 ] || fail "Java 17 or later is needed, and java -version says $(java -version 2>&1 | head -n 1)"
echo "spark-check: $(java -version 2>&1 | head -n 1)"

stamp=$(cat "$example/requirements.txt" "$example/requirements-test.txt" | sha256sum | cut -c1-16)
if [ "$(cat "$venv/.pins" 2>/dev/null)" != "$stamp" ]; then
    echo "== virtualenv $venv: pip install the pinned requirements"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check \
        -r "$example/requirements.txt" -r "$example/requirements-test.txt" \
        || fail "pip install of Examples/Spark/requirements*.txt failed"
    echo "$stamp" >"$venv/.pins"
    step "pip install"
fi
flock -u 9
[ "${1:-}" != --prepare ] || exit 0
python=$venv/bin/python
echo "spark-check: $("$python" -c 'import pyspark, pyarrow, pandas; print("pyspark", pyspark.__version__, "pyarrow", pyarrow.__version__, "pandas", pandas.__version__)')"

# The repository's own release build (.build), as the README's recipe builds it: after the README
# journey of .ci/run it is up to date, and nothing is built twice.
echo "== errcat: swift build -c release --product errcat"
bounded "$step_limit" swift build -c release --product errcat || fail "errcat does not build"
errcat=$(swift build -c release --product errcat --show-bin-path)/errcat
[ -x "$errcat" ] || fail "no errcat at $errcat after the build"
export ERRCAT=$errcat
step "errcat build"

echo "== Examples/Spark unit tests (pytest, no JVM)"
"$python" -m pytest -q -p no:cacheprovider "$example/tests" || fail "the unit tests failed"
step "unit tests"

# -- the end-to-end runs

rm -rf "$work"
mkdir -p "$work"
tools=("$python" "$root/scripts/spark/check_tools.py")
"${tools[@]}" inputs "$work/input" "$errcat" || fail "cannot write the test input"
"${tools[@]}" catalog "$work/billing.json" || fail "cannot write the second catalog"
"$errcat" check --quiet "$work/billing.json" || fail "the second catalog is not valid"
"${tools[@]}" stream "$work/input" "$work/stream.jsonl" || fail "cannot write the reference stream"
echo "spark-check: input: $(find "$work/input" -type f | wc -l) files, $(du -sh "$work/input" | cut -f1)"
step "test input"

# Spark: loopback only, the example's logging (warnings and errors, on stderr), the virtualenv's
# Python everywhere.
export SPARK_LOCAL_IP=127.0.0.1 SPARK_CONF_DIR=$example/conf
export PYSPARK_PYTHON=$python PYSPARK_DRIVER_PYTHON=$python
# The JVM with its quick compiler only (C1) and the serial collector: these runs are short, and on
# 2 cores the optimising compiler's and the parallel collector's threads cost more than they give
# back (measured on a one-line input: 11-12 s of the JVM's user CPU instead of 19-20 s). In local
# mode the executors live in the driver's JVM, so the driver's options are all there is.
spark_job() {
    timeout "$step_limit" "$venv/bin/spark-submit" --master 'local[2]' \
        --driver-java-options "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Djava.io.tmpdir=$work/spark-tmp" \
        --conf spark.ui.enabled=false --conf spark.ui.showConsoleProgress=false \
        --conf "spark.local.dir=$work/spark-tmp" \
        "$@"
}
mkdir -p "$work/spark-tmp" "$work/tmp"
export TMPDIR=$work/tmp
job=$example/errcat_spark.py

echo "== summary: splits of 1 MiB, errcat merge in a tree of fan-in 3, against one errcat classify --json"
spark_job --conf spark.sql.files.maxPartitionBytes=1048576 --conf spark.sql.files.openCostInBytes=0 \
    "$job" --errcat "$errcat" --fan-in 3 --quiet --timings --output "$work/out-summary" "$work/input" \
    >"$work/summary.log" 2>&1 || { cat "$work/summary.log" >&2; fail "the summary job failed"; }
grep '^errcat-spark: ' "$work/summary.log"
grep -q 'merging (levels on the executors: [1-9]' "$work/summary.log" \
    || fail "errcat merge did not run on the executors (the tree was not tested)"
"$errcat" classify --json --quiet --max-errors 0 "$work/stream.jsonl" >"$work/expected-summary.json" \
    || fail "errcat classify on the reference stream failed"
"${tools[@]}" same-summary "$work/expected-summary.json" "$work/out-summary/summary.json" \
    || fail "the Spark summary is not errcat's"
"$python" - "$work/out-summary" <<'EOF' || fail "the module table is not the summary's"
import csv, glob, json, sys
import pyarrow.parquet as pq
out = sys.argv[1]
summary = json.load(open(f"{out}/summary.json"))
want = [(name, summary["modules"][name], summary["unrecognised"][name]) for name in summary["modules"]]
parquet = [(r["module"], r["lines"], r["unrecognised"]) for r in pq.read_table(f"{out}/modules.parquet").to_pylist()]
rows = [row for path in sorted(glob.glob(f"{out}/modules.csv/part-*.csv")) for row in csv.DictReader(open(path))]
csv_rows = [(r["module"], int(r["lines"]), int(r["unrecognised"])) for r in rows]
assert parquet == want, (parquet, want)
assert csv_rows == want, (csv_rows, want)
print(f"module table (Parquet and CSV): {len(want)} modules, as in the summary")
EOF
step "summary job"

echo "== --each: splits of 1 MiB, every row against errcat classify --each --json on each file"
spark_job --conf spark.sql.files.maxPartitionBytes=1048576 --conf spark.sql.files.openCostInBytes=0 \
    "$job" --errcat "$errcat" --each --output "$work/out-each" "$work/input" \
    || fail "the --each job failed"
"${tools[@]}" same-each "$work/out-each/each.parquet" "$work/input" "$errcat" \
    || fail "the Spark --each rows are not errcat's"
step "--each job"

echo "== --catalog (shipped to the executors), --top 5, --lang hi"
spark_job "$job" --errcat "$errcat" --catalog "$work/billing.json" --top 5 --lang hi --quiet \
    --output "$work/out-catalog" "$work/input" || fail "the --catalog job failed"
"$errcat" classify --json --quiet --max-errors 0 --catalog "$work/billing.json" --top 5 --lang hi \
    "$work/stream.jsonl" >"$work/expected-catalog.json" || fail "errcat classify --catalog failed"
"${tools[@]}" same-summary "$work/expected-catalog.json" "$work/out-catalog/summary.json" \
    || fail "the Spark summary with --catalog is not errcat's"
grep -q '"name":"billing"' "$work/out-catalog/summary.json" || fail "the --catalog summary does not name the billing catalog"
step "--catalog job"

echo "== the one-machine recipe of Examples/Spark/README.md, as written (scripts/docs/journeys.py)"
# The README's commands run from the repository root with a new HOME; the summary they print on
# standard output must be, byte for byte, the one the README shows: nothing else goes there.
python3 "$root/scripts/docs/journeys.py" "$example/README.md" || fail "the README's recipe does not run as written"
rm -rf "$root/logs" /tmp/errcat-report /tmp/errcat-rows
step "one-machine recipe"

echo "== more than 65,536 distinct unlisted codes: exact but for what one errcat run cannot track"
"${tools[@]}" overflow "$work/overflow" || fail "cannot write the overflow input"
cat "$work/overflow/a.txt" "$work/overflow/b.txt" >"$work/overflow-stream.txt"
spark_job --conf spark.sql.files.maxPartitionBytes=262144 --conf spark.sql.files.openCostInBytes=0 \
    "$job" --errcat "$errcat" --quiet --output "$work/out-overflow" "$work/overflow" \
    >"$work/overflow.log" 2>&1 || { cat "$work/overflow.log" >&2; fail "the overflow job failed"; }
grep -q "^errcat-spark: note: 700[0-9][0-9] distinct codes" "$work/overflow.log" || { cat "$work/overflow.log" >&2; fail "no note about the limit"; }
"$errcat" classify --json --quiet --max-errors 0 "$work/overflow-stream.txt" >"$work/expected-overflow.json" \
    || fail "errcat classify on the overflow stream failed"
"${tools[@]}" summary-beyond-limit "$work/expected-overflow.json" "$work/out-overflow/summary.json" \
    || fail "the Spark summary past the limit is not errcat's but for the limit"
step "65,536-code limit"

echo "== a catalog mix is refused"
# Stands for an executor whose errcat classifies with another catalog (another build, another
# catalog file): the first classify run on the executors uses billing.json, every other run and
# every merge are errcat's as they are.
mkdir -p "$work/mix-state"
cat >"$work/errcat-mixed" <<EOF
#!/bin/sh
if [ "\$1" = classify ] && mkdir "$work/mix-state/first" 2>/dev/null; then
    shift
    exec "$errcat" classify --catalog "$work/billing.json" "\$@"
fi
exec "$errcat" "\$@"
EOF
chmod +x "$work/errcat-mixed"
status=0
spark_job --conf spark.sql.files.maxPartitionBytes=262144 --conf spark.sql.files.openCostInBytes=0 \
    "$job" --errcat "$errcat" --executor-errcat "$work/errcat-mixed" --quiet --output "$work/out-mix" "$work/overflow" \
    >"$work/mix.log" 2>&1 || status=$?
[ -d "$work/mix-state/first" ] || fail "the mixed errcat never classified (the test tested nothing)"
[ "$status" -eq 1 ] || { cat "$work/mix.log" >&2; fail "a catalog mix gave status $status, not 1"; }
# The job's messages go to standard error; mix.log holds both streams.
message=$(grep '^errcat-spark: ' "$work/mix.log" || true)
echo "$message"
case $message in
    *"errcat merge refused the summaries"*"partition "*"made with another catalog"*'"billing"'*) ;;
    *) cat "$work/mix.log" >&2; fail "the refusal does not say which partition and which catalog" ;;
esac
[ ! -e "$work/out-mix/summary.json" ] || fail "a summary was written although the catalogs differ"
step "catalog mix"

rm -rf "$work"
total=$(($(date +%s) - started))
echo "spark-check: PASS in $total s ($((total / 60)) min $((total % 60)) s)"
