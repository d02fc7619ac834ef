#!/usr/bin/env python3
"""errcat on Apache Spark: classify JSONL response logs spread over many machines.

Every Spark partition is classified by the real `errcat classify`, fed the partition's lines
through a pipe; the partitions' summaries are added up by `errcat merge` in a tree (groups of
`--fan-in` summaries merged on the executors, the last group on the driver), so there is one
implementation of classification and of merging: errcat's. The result is the summary JSON that
one `errcat classify --json` over the same files prints, plus a per-module table written by
Spark as Parquet and CSV. `--each` writes one row per input line instead (file, line number
within the file, code, tier, module, name, or the reason the line is invalid) as Parquet, for
joins in Spark SQL.

How lines reach errcat unchanged. Spark's text source is read with `lineSep` "\\n", so a line is
cut only at LF, exactly as errcat cuts it: a CR before the LF, a lone CR, empty lines, a last
line without a newline and bytes that are not UTF-8 all reach errcat as they are in the file
(the line is cast to binary before it leaves the JVM, so no decoding happens). Hadoop's line
reader drops a UTF-8 byte order mark at the start of a file; the driver looks at the first four
bytes of every input file and the executors put the mark back on the first line (a file that is
only a byte order mark gets its one line back too), so byte offsets in `--each` reasons stay
those of errcat reading the file. Hadoop splits a file at byte offsets and gives each line to
the split in which it starts, so a line longer than a split is still read whole, once.

Line numbers (`--each`). A file may be read as several splits, by different tasks. A first pass
counts the lines of each split (in the JVM, no Python); the driver turns the counts into the
number of each split's first line; the second pass numbers the lines of a split from there and
checks that each split still has the lines the first pass counted (a file that changed between
the passes is an error, never a wrong number).

Run with spark-submit (see README.md); `python errcat_spark.py --help` lists the options.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import queue
import re
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Optional, Sequence

import numpy
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pajson

PROGRAM = "errcat-spark"

#: The byte order mark that Hadoop's line reader drops from the start of a file.
BOM = b"\xef\xbb\xbf"

#: Columns of the `--each` table, in order.
EACH_COLUMNS = ("file", "line", "code", "tier", "module", "name", "error")
EACH_SCHEMA_DDL = "file string, line long, code long, tier string, module string, name string, error string"

#: What is read from each line of `errcat classify --each --json`: the explain object plus
#: "line", or {"line": N, "error": "..."} for an invalid line. Other members are ignored.
ERRCAT_EACH_SCHEMA = pa.schema(
    [
        ("line", pa.int64()),
        ("code", pa.int64()),
        ("tier", pa.string()),
        ("module", pa.string()),
        ("name", pa.string()),
        ("error", pa.string()),
    ]
)

#: Schema of the rows the summary pass yields, one per non-empty partition.
SUMMARY_ROWS_DDL = "partition int, source string, summary binary"


class PhaseClock:
    """Prints how long each phase of the job took (with --timings), on stderr."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.started = self.last = time.monotonic()

    def lap(self, phase: str) -> None:
        now = time.monotonic()
        if self.enabled:
            print(f"{PROGRAM}: {phase}: {now - self.last:.2f} s", file=sys.stderr, flush=True)
        self.last = now

    def total(self) -> None:
        if self.enabled:
            print(f"{PROGRAM}: total: {time.monotonic() - self.started:.2f} s", file=sys.stderr, flush=True)


class ErrcatSparkError(Exception):
    """A problem this job reports in one line and ends on: status 1, or 2 for a usage error."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


# ---------------------------------------------------------------------------------------------
# errcat's command lines


@dataclass(frozen=True)
class ClassifyOptions:
    """The `errcat classify` options the job passes on, as given on its command line."""

    format: Optional[str] = None
    keys: Optional[str] = None
    code_key: Optional[str] = None
    message_key: Optional[str] = None
    data_key: Optional[str] = None
    max_line_bytes: Optional[str] = None
    lang: Optional[str] = None
    top: Optional[str] = None

    def classify_args(self) -> list[str]:
        """Options that change what `classify` counts or prints for a line."""
        args: list[str] = []
        for flag, value in (
            ("--format", self.format),
            ("--keys", self.keys),
            ("--code-key", self.code_key),
            ("--message-key", self.message_key),
            ("--data-key", self.data_key),
            ("--max-line-bytes", self.max_line_bytes),
            ("--lang", self.lang),
        ):
            if value is not None:
                args += [flag, value]
        return args

    def report_args(self) -> list[str]:
        """Options that change how a summary is written (`classify` and `merge` alike)."""
        args: list[str] = []
        if self.lang is not None:
            args += ["--lang", self.lang]
        if self.top is not None:
            args += ["--top", self.top]
        return args


@dataclass(frozen=True)
class ErrcatCommand:
    """An errcat binary and the catalog file it is given (None: the built-in catalog)."""

    binary: str
    catalog: Optional[str] = None

    def _catalog_args(self) -> list[str]:
        return ["--catalog", self.catalog] if self.catalog else []

    def classify_summary(self, options: ClassifyOptions, jobs: int) -> list[str]:
        """`classify --json` on stdin: the summary of the lines fed to it."""
        return (
            [self.binary, "classify", "--json", "--quiet", "--no-progress", "--max-errors", "0", "--jobs", str(jobs)]
            + self._catalog_args()
            + options.classify_args()
            + (["--top", options.top] if options.top is not None else [])
            + ["-"]
        )

    def classify_each(self, options: ClassifyOptions, jobs: int) -> list[str]:
        """`classify --each --json` on stdin: one JSON object per line fed to it, in order."""
        return (
            [self.binary, "classify", "--each", "--json", "--quiet", "--no-progress", "--max-errors", "0"]
            + ["--jobs", str(jobs)]
            + self._catalog_args()
            + options.classify_args()
            + ["-"]
        )

    def merge(self, options: ClassifyOptions, paths: Sequence[str], text: bool = False) -> list[str]:
        """`merge` of summary files (JSON, or the readable table with `text`)."""
        return (
            [self.binary, "merge"]
            + (["--text"] if text else [])
            + self._catalog_args()
            + options.report_args()
            + list(paths)
        )


def run_errcat(argv: Sequence[str], what: str, stdin: Optional[bytes] = None) -> bytes:
    """Runs errcat to its end and returns its stdout; a failure raises ErrcatSparkError with
    errcat's own stderr (its messages say what and where)."""
    try:
        done = subprocess.run(
            list(argv),
            input=stdin if stdin is not None else b"",
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            check=False,
        )
    except OSError as error:
        raise ErrcatSparkError(f"{what}: cannot run {argv[0]}: {error.strerror or error}") from None
    if done.returncode != 0:
        # errcat's status 2 is a usage error: an option value it does not accept.
        raise ErrcatSparkError(
            f"{what}: {describe_exit(argv, done.returncode, done.stderr)}", status=2 if done.returncode == 2 else 1
        )
    return done.stdout


def probe_errcat(errcat: ErrcatCommand, options: ClassifyOptions) -> dict:
    """The summary of no lines, from `errcat` with the job's options: checks that errcat runs and
    accepts the options (a usage error stops the job before Spark starts any work) and tells the
    catalog (name and hash) every partition must be classified with."""
    return json.loads(run_errcat(errcat.classify_summary(options, 1), "errcat on the driver"))


def describe_exit(argv: Sequence[str], status: int, stderr: bytes) -> str:
    """One message for an errcat run that failed: its stderr up to the first blank line (a usage
    error is followed by the whole usage), or how it ended."""
    text = stderr.decode("utf-8", "replace").strip().split("\n\n")[0].strip()
    how = f"killed by signal {-status}" if status < 0 else f"exit status {status}"
    if text:
        return f"{text} ({os.path.basename(argv[0])} {argv[1] if len(argv) > 1 else ''}, {how})"
    return f"{os.path.basename(argv[0])} {argv[1] if len(argv) > 1 else ''} ended ({how}) with no message"


def merge_summaries(
    errcat: ErrcatCommand, options: ClassifyOptions, summaries: Sequence[tuple[str, bytes]], workdir: str
) -> bytes:
    """Adds summaries with one `errcat merge`. Each summary is written to a file named after its
    label, and errcat's message (which names the file) is given back with the label in place of
    the file name, so a refused summary is named by the partitions it came from."""
    if not summaries:
        raise ValueError("no summaries to merge")
    paths = []
    names = {}
    with tempfile.TemporaryDirectory(prefix="errcat-merge-", dir=workdir) as folder:
        for index, (label, summary) in enumerate(summaries):
            path = os.path.join(folder, f"summary-{index:05d}.json")
            with open(path, "wb") as handle:
                handle.write(summary)
            paths.append(path)
            names[path] = label
        argv = errcat.merge(options, paths)
        done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
        if done.returncode != 0:
            message = describe_exit(argv, done.returncode, done.stderr)
            for path, label in names.items():
                message = message.replace(path, label)
            raise ErrcatSparkError(f"errcat merge refused the summaries: {message}")
        return done.stdout


# ---------------------------------------------------------------------------------------------
# Following the splits a partition's rows come from


@dataclass
class Run:
    """Consecutive rows of one batch that come from one split (file, start byte)."""

    begin: int
    end: int
    path: str
    start: int
    #: Rows of the same split before this run (in earlier batches).
    before: int

    @property
    def opens_file(self) -> bool:
        """The run holds the first line of its file."""
        return self.start == 0 and self.before == 0


@dataclass
class SplitWalker:
    """Follows, batch after batch, the splits one partition's rows come from.

    Spark reads a partition's splits one after another, each from its start, so the rows of one
    split are consecutive and in file order. The walker cuts each batch into runs of one split,
    counts the rows of each split and, when `expected` is given (`--each`), checks each count
    against the first pass's once the split is over.
    """

    expected: Optional[dict[tuple[str, int], int]] = None
    splits: list[tuple[str, int, int]] = field(default_factory=list)

    def runs(self, paths: pa.Array, starts: pa.Array) -> list[Run]:
        """Cuts a batch (its file and split-start columns) into runs."""
        count = len(paths)
        if count == 0:
            return []
        if paths.null_count or starts.null_count:
            raise ErrcatSparkError("a row without its file name or split offset (input_file_name() was empty)")
        cuts = [0]
        if count > 1:
            changed = pc.or_(
                pc.not_equal(paths.slice(1), paths.slice(0, count - 1)),
                pc.not_equal(starts.slice(1), starts.slice(0, count - 1)),
            )
            cuts += [index + 1 for index in pc.indices_nonzero(changed).to_pylist()]
        cuts.append(count)
        result = []
        for begin, end in zip(cuts, cuts[1:]):
            path = paths[begin].as_py()
            start = starts[begin].as_py()
            if self.splits and self.splits[-1][0] == path and self.splits[-1][1] == start:
                before = self.splits[-1][2]
                self.splits[-1] = (path, start, before + end - begin)
            else:
                self._check_last()
                if any(s[0] == path and s[1] == start for s in self.splits):
                    raise ErrcatSparkError(
                        f"the rows of {path} from byte {start} are not consecutive in their partition"
                    )
                before = 0
                self.splits.append((path, start, end - begin))
            result.append(Run(begin, end, path, start, before))
        return result

    def finish(self) -> None:
        """Checks the partition's last split (call once its rows are all seen)."""
        self._check_last()

    def _check_last(self) -> None:
        if self.expected is None or not self.splits:
            return
        path, start, seen = self.splits[-1]
        wanted = self.expected.get((path, start))
        if wanted is None:
            raise ErrcatSparkError(
                f"{path} from byte {start} was not a split when the lines were counted: the input changed while the job ran"
            )
        if wanted != seen:
            raise ErrcatSparkError(
                f"{path} from byte {start} had {wanted} lines when they were counted and {seen} now: "
                "the input changed while the job ran"
            )

    def describe(self, limit: int = 3) -> str:
        """The splits seen, for messages: "file:/a.jsonl from byte 0, … (and N more)"."""
        shown = [f"{path} from byte {start}" for path, start, _ in self.splits[:limit]]
        more = len(self.splits) - limit
        return ", ".join(shown) + (f" and {more} more splits" if more > 0 else "")


def line_bytes(values: pa.Array, bom_rows: Sequence[int]) -> list[memoryview]:
    """The bytes to feed errcat for a batch of lines (each already ends with LF), as slices of the
    Arrow data buffer (no copy), with a byte order mark put back before the rows `bom_rows`."""
    if values.null_count:
        raise ErrcatSparkError("a line came through as null")
    if not (pa.types.is_binary(values.type) or pa.types.is_large_binary(values.type)):
        raise TypeError(f"lines must be binary, not {values.type}")
    count = len(values)
    if count == 0:
        return []
    _, offset_buffer, data = values.buffers()
    width = numpy.int64 if pa.types.is_large_binary(values.type) else numpy.int32
    offsets = numpy.frombuffer(offset_buffer, dtype=width, count=values.offset + count + 1)[values.offset :]
    view = memoryview(data) if data is not None else memoryview(b"")
    first = int(offsets[0])
    last = int(offsets[count])
    pieces = []
    position = first
    for row in sorted(bom_rows):
        at = int(offsets[row])
        if at > position:
            pieces.append(view[position:at])
        pieces.append(memoryview(BOM))
        position = at
    if last > position:
        pieces.append(view[position:last])
    return pieces


def bom_rows(runs: Iterable[Run], bom_files: frozenset[str]) -> list[int]:
    """Rows that are the first line of a file that starts with a byte order mark."""
    return [run.begin for run in runs if run.opens_file and run.path in bom_files]


def first_line_numbers(split_counts: Iterable[tuple[str, int, int]]) -> dict[tuple[str, int], int]:
    """From (file, split start, lines) of every split, the 1-based number within its file of each
    split's first line: 1 plus the lines of the same file's splits that start before it."""
    by_file: dict[str, list[tuple[int, int]]] = {}
    for path, start, lines in split_counts:
        by_file.setdefault(path, []).append((start, lines))
    numbers = {}
    for path, splits in by_file.items():
        splits.sort()
        line = 1
        for index, (start, lines) in enumerate(splits):
            if index and splits[index - 1][0] == start:
                raise ValueError(f"{path}: two splits start at byte {start}")
            numbers[(path, start)] = line
            line += lines
    return numbers


class EachDecoder:
    """Decodes the stdout of `errcat classify --each --json`, a chunk at a time, into Arrow
    tables of ERRCAT_EACH_SCHEMA, checking that errcat numbered the rows 1, 2, 3, … in order."""

    def __init__(self) -> None:
        self._pending = bytearray()
        self.rows = 0

    def feed(self, chunk: bytes) -> Optional[pa.Table]:
        """Adds stdout bytes; returns the complete lines decoded so far, or None."""
        self._pending += chunk
        end = self._pending.rfind(b"\n")
        if end < 0:
            return None
        complete = bytes(self._pending[: end + 1])
        del self._pending[: end + 1]
        return self._decode(complete)

    def finish(self) -> None:
        """Checks that errcat's output ended with a whole line."""
        if self._pending:
            raise ErrcatSparkError(f"errcat's output ended inside a line: {bytes(self._pending[:80])!r}")

    def _decode(self, lines: bytes) -> pa.Table:
        try:
            table = pajson.read_json(
                pa.BufferReader(lines),
                read_options=pajson.ReadOptions(use_threads=False, block_size=max(len(lines), 1 << 16)),
                parse_options=pajson.ParseOptions(
                    explicit_schema=ERRCAT_EACH_SCHEMA, unexpected_field_behavior="ignore", newlines_in_values=False
                ),
            )
        except (pa.ArrowInvalid, pa.ArrowTypeError) as error:
            raise ErrcatSparkError(f"cannot read errcat's --each output: {error}") from None
        table = table.select(list(ERRCAT_EACH_SCHEMA.names)).cast(ERRCAT_EACH_SCHEMA)
        numbers = table.column("line")
        expected = pa.array(range(self.rows + 1, self.rows + 1 + table.num_rows), pa.int64())
        if numbers.null_count or not pc.all(pc.equal(numbers, expected)).as_py():
            raise ErrcatSparkError(f"errcat's --each rows are not numbered in order after row {self.rows}")
        self.rows += table.num_rows
        return table


def tree_levels(count: int, fan_in: int) -> list[int]:
    """How many summaries remain after each executor level of the tree merge: groups of `fan_in`
    are merged until at most `fan_in` are left, which the driver merges. [] when count ≤ fan_in."""
    if fan_in < 2:
        raise ValueError("fan-in must be at least 2")
    levels = []
    while count > fan_in:
        count = math.ceil(count / fan_in)
        levels.append(count)
    return levels


def spark_error_message(error: BaseException) -> str:
    """The one-line reason of a failed Spark action: this job's own message when a task raised
    ErrcatSparkError (Spark wraps it in a Java stack trace), else the first line."""
    text = str(error)
    found = re.findall(r"ErrcatSparkError: (.+)", text)
    if found:
        return found[-1].strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    # A Python exception in a task: its traceback's last line ("KeyError: 'x'") says what.
    tracebacks = [index for index, line in enumerate(lines) if line.startswith("Traceback (most recent call last)")]
    if tracebacks:
        for line in lines[tracebacks[-1] + 1 :]:
            if re.match(r"^[A-Za-z_][\w.]*(Error|Exception|Interrupt|Exit)\b", line):
                return line
    return lines[0] if lines else type(error).__name__


# ---------------------------------------------------------------------------------------------
# On the executors


@dataclass(frozen=True)
class TaskSettings:
    """What every task needs, shipped with the functions."""

    errcat_name: str
    errcat_is_shipped: bool
    catalog_name: Optional[str]
    options: ClassifyOptions
    jobs: int
    bom_files: frozenset[str]


def executable_file(name: str, shipped: bool) -> str:
    """The path of a file on this executor: shipped with the job (SparkFiles; on YARN also the
    container's working directory), or, not shipped, `name` as it is."""
    if not shipped:
        if not os.path.isfile(name):
            raise ErrcatSparkError(f"{name} is not a file on this executor")
        return name
    from pyspark import SparkFiles

    for candidate in (SparkFiles.get(name), os.path.join(os.getcwd(), name)):
        if os.path.isfile(candidate):
            return candidate
    raise ErrcatSparkError(f"{name} was not shipped to this executor (SparkFiles has no such file)")


def ensure_executable(path: str) -> str:
    """`path`, made executable (a fetched file may have lost the bit); a copy when it cannot be."""
    if os.access(path, os.X_OK):
        return path
    try:
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        return path
    except OSError:
        folder = tempfile.mkdtemp(prefix="errcat-bin-")
        copy = os.path.join(folder, os.path.basename(path))
        shutil.copyfile(path, copy)
        os.chmod(copy, 0o755)
        return copy


def task_errcat(settings: TaskSettings) -> ErrcatCommand:
    binary = ensure_executable(executable_file(settings.errcat_name, settings.errcat_is_shipped))
    catalog = executable_file(settings.catalog_name, True) if settings.catalog_name else None
    return ErrcatCommand(binary, catalog)


def partition_label(partition: int, walker: SplitWalker) -> str:
    """ "partition 3 on host worker-7 (file:///logs/a.jsonl from byte 0, …)": the host says which
    executor's errcat ran, the splits what it read."""
    return f"partition {partition} on host {socket.gethostname()} ({walker.describe()})"


def current_partition() -> int:
    """The Spark partition this task works on (0 outside a Spark task, as in unit tests)."""
    from pyspark import TaskContext

    context = TaskContext.get()
    return context.partitionId() if context is not None else 0


def classify_summaries(settings: TaskSettings) -> Callable[[Iterator[pa.RecordBatch]], Iterator[pa.RecordBatch]]:
    """The summary pass: one `errcat classify --json` per partition, fed the partition's lines."""

    def classify(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        partition = current_partition()
        walker = SplitWalker()
        process = None
        errors = None
        argv: list[str] = []
        try:
            for batch in batches:
                if batch.num_rows == 0:
                    continue
                runs = walker.runs(batch.column("path"), batch.column("start"))
                pieces = line_bytes(batch.column("line"), bom_rows(runs, settings.bom_files))
                if process is None:
                    errcat = task_errcat(settings)
                    argv = errcat.classify_summary(settings.options, settings.jobs)
                    errors = tempfile.TemporaryFile()
                    process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors)
                try:
                    for piece in pieces:
                        process.stdin.write(piece)
                except BrokenPipeError:
                    break  # errcat ended early; its status and stderr say why, below
            if process is None:
                return  # an empty partition: nothing to add
            try:
                process.stdin.close()
            except BrokenPipeError:
                pass
            summary = process.stdout.read()
            status = process.wait()
            if status != 0:
                errors.seek(0)
                raise ErrcatSparkError(
                    f"{partition_label(partition, walker)}: {describe_exit(argv, status, errors.read())}"
                )
            yield pa.RecordBatch.from_pydict(
                {
                    "partition": pa.array([partition], pa.int32()),
                    "source": pa.array([partition_label(partition, walker)], pa.string()),
                    "summary": pa.array([summary], pa.binary()),
                }
            )
        finally:
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()
            if errors is not None:
                errors.close()

    return classify


def classify_each(
    settings: TaskSettings, first_lines: dict[tuple[str, int], int], expected: dict[tuple[str, int], int]
) -> Callable[[Iterator[pa.RecordBatch]], Iterator[pa.RecordBatch]]:
    """The `--each` pass: one `errcat classify --each --json` per partition.

    This thread reads the partition's batches, queues each line's file and line number and feeds
    the lines to errcat; a second thread reads errcat's rows as they come and pairs them with the
    queued origins (errcat answers in input order, one row per line, so its i-th row belongs to
    the i-th line fed). Finished batches are handed back here and yielded between writes, so
    Spark's input and output streams are used from this thread only, and errcat never waits on a
    full stdout pipe while this thread waits on its full stdin pipe."""

    def classify(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        partition = current_partition()
        walker = SplitWalker(expected=expected)
        errcat = task_errcat(settings)
        argv = errcat.classify_each(settings.options, settings.jobs)
        errors = tempfile.TemporaryFile()
        process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors)
        origins: "queue.Queue[tuple[pa.Array, pa.Array]]" = queue.Queue()
        finished: "queue.Queue[Optional[pa.RecordBatch]]" = queue.Queue()
        failure: list[BaseException] = []
        decoder = EachDecoder()
        unmatched = [0]

        def read() -> None:
            files: list[pa.Array] = []
            numbers: list[pa.Array] = []
            queued = 0
            try:
                while True:
                    chunk = process.stdout.read1(1 << 20)
                    if not chunk:
                        break
                    table = decoder.feed(chunk)
                    if table is None or table.num_rows == 0:
                        continue
                    while queued < table.num_rows:
                        paths, lines = origins.get()
                        files.append(paths)
                        numbers.append(lines)
                        queued += len(paths)
                    all_files = pa.concat_arrays(files)
                    all_numbers = pa.concat_arrays(numbers)
                    count = table.num_rows
                    files = [all_files.slice(count)]
                    numbers = [all_numbers.slice(count)]
                    queued -= count
                    finished.put(
                        pa.RecordBatch.from_arrays(
                            [all_files.slice(0, count).cast(pa.string()), all_numbers.slice(0, count)]
                            + [table.column(name).combine_chunks() for name in EACH_COLUMNS[2:]],
                            names=list(EACH_COLUMNS),
                        )
                    )
                decoder.finish()
                unmatched[0] = queued
            except BaseException as error:
                failure.append(error)
                process.kill()  # the feeding thread may be blocked on a full stdin: end errcat
            finally:
                finished.put(None)

        reader = threading.Thread(target=read, name="errcat-each-reader", daemon=True)
        reader.start()
        done = False

        def ready(block: bool) -> Iterator[pa.RecordBatch]:
            nonlocal done
            while not done:
                try:
                    batch = finished.get(block=block)
                except queue.Empty:
                    return
                if batch is None:
                    done = True
                    return
                yield batch

        try:
            try:
                for batch in batches:
                    if batch.num_rows == 0:
                        continue
                    paths = batch.column("path")
                    runs = walker.runs(paths, batch.column("start"))
                    numbers = []
                    for run in runs:
                        first = first_lines.get((run.path, run.start))
                        if first is None:
                            raise ErrcatSparkError(
                                f"{run.path} from byte {run.start} was not a split when the lines were counted: "
                                "the input changed while the job ran"
                            )
                        begin = first + run.before
                        numbers.append(pa.array(numpy.arange(begin, begin + run.end - run.begin, dtype=numpy.int64)))
                    origins.put((paths, pa.concat_arrays(numbers)))
                    for piece in line_bytes(batch.column("line"), bom_rows(runs, settings.bom_files)):
                        process.stdin.write(piece)
                    yield from ready(block=False)
                walker.finish()
                process.stdin.close()
            except BrokenPipeError:
                pass  # errcat ended early; its status and stderr say why, below
            yield from ready(block=True)
            status = process.wait()
            reader.join()
            if status != 0:
                errors.seek(0)
                raise ErrcatSparkError(
                    f"{partition_label(partition, walker)}: {describe_exit(argv, status, errors.read())}"
                )
            if failure:
                raise failure[0]
            if unmatched[0]:
                raise ErrcatSparkError(
                    f"{partition_label(partition, walker)}: errcat gave {decoder.rows} rows "
                    f"for {decoder.rows + unmatched[0]} lines"
                )
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            reader.join(timeout=60)
            errors.close()

    return classify


def merge_group(
    settings: TaskSettings, level: int
) -> Callable[[int, Iterator[tuple[int, tuple[str, bytes]]]], Iterator[tuple[str, bytes]]]:
    """One executor level of the tree merge: the summaries of a group, merged by one `errcat merge`."""

    def merge(group: int, items: Iterator[tuple[int, tuple[str, bytes]]]) -> Iterator[tuple[str, bytes]]:
        summaries = [summary for _, summary in items]
        if not summaries:
            return
        errcat = task_errcat(settings)
        merged = merge_summaries(errcat, settings.options, summaries, tempfile.gettempdir())
        yield (f"merge {group} of level {level} ({len(summaries)} summaries)", merged)

    return merge


# ---------------------------------------------------------------------------------------------
# On the driver


@dataclass
class Job:
    """One run of the job on a SparkSession."""

    spark: "object"
    inputs: list[str]
    errcat: ErrcatCommand
    options: ClassifyOptions
    executor_errcat: Optional[str] = None
    recursive: bool = False
    fan_in: int = 32
    bom_check: bool = True
    log: Callable[[str], None] = lambda message: print(f"{PROGRAM}: {message}", file=sys.stderr)

    def __post_init__(self) -> None:
        self.sc = self.spark.sparkContext
        self._settings: Optional[TaskSettings] = None
        self._bom_files: Optional[frozenset[str]] = None
        self._text = None
        #: After summary(): the partitions classified and the merge levels run on the executors.
        self.shape: tuple[int, int] = (0, 0)

    # -- what the executors get

    def _ship(self, path: str) -> str:
        """Ships a driver file to the executors (SparkContext.addFile) unless a file of that name
        is already shipped (spark-submit --files); returns the name executors look it up by."""
        from pyspark import SparkFiles

        name = os.path.basename(path)
        shipped = SparkFiles.get(name)
        if os.path.isfile(shipped) and os.path.realpath(shipped) == os.path.realpath(path):
            return name
        listed = [item for item in self.sc.getConf().get("spark.files", "").split(",") if item]
        if any(os.path.basename(item) == name for item in listed) and os.path.isfile(shipped):
            return name
        self.sc.addFile(os.path.abspath(path))
        return name

    def settings(self) -> TaskSettings:
        if self._settings is None:
            if self.executor_errcat:
                errcat_name, shipped = self.executor_errcat, False
            else:
                errcat_name, shipped = self._ship(self.errcat.binary), True
            catalog_name = self._ship(self.errcat.catalog) if self.errcat.catalog else None
            jobs = int(self.sc.getConf().get("spark.task.cpus", "1"))
            self._settings = TaskSettings(
                errcat_name, shipped, catalog_name, self.options, max(jobs, 1), self.bom_files()
            )
        return self._settings

    # -- the input

    def read_lines(self):
        """The input's lines: a DataFrame of (line: binary ending with LF, path: the file as
        input_file_name() gives it, start: the byte its split starts at), in file order within
        each split."""
        from pyspark.sql import functions as F

        lines = self.text().select(
            F.concat(F.col("value").cast("binary"), F.lit(bytearray(b"\n"))).alias("line"),
            F.input_file_name().alias("path"),
            F.input_file_block_start().alias("start"),
        )
        bom_only = self._bom_only_files()
        if bom_only:
            # Hadoop's reader gives no line at all for a file that is only a byte order mark;
            # errcat reads one (an empty line once the mark is skipped). Its row is added here
            # empty, and the mark is put back like any first line's.
            extra = self.spark.createDataFrame(
                [(bytearray(b"\n"), path, 0) for path in sorted(bom_only)], "line binary, path string, start long"
            )
            lines = lines.unionByName(extra)
        return lines

    def text(self):
        """Spark's text source over the inputs, lines cut at LF only (made once: creating it lists
        the files, which on an object store takes time)."""
        if self._text is None:
            reader = self.spark.read.option("lineSep", "\n")
            if self.recursive:
                reader = reader.option("recursiveFileLookup", "true")
            try:
                self._text = reader.text(self.inputs)
            except Exception as error:  # AnalysisException: a path that does not exist, …
                raise ErrcatSparkError(f"cannot read the input: {spark_error_message(error)}") from None
        return self._text

    def input_files(self) -> list[str]:
        """Every input file, named as input_file_name() names its lines."""
        return list(self.text().inputFiles())

    def unread_subdirectories(self) -> list[str]:
        """Subdirectories of input directories that Spark does not read without --recursive
        (names starting with '_' or '.' left out, as Spark leaves them out)."""
        if self.recursive:
            return []
        jvm = self.sc._jvm
        conf = self.sc._jsc.hadoopConfiguration()
        found = []
        for given in self.inputs:
            path = jvm.org.apache.hadoop.fs.Path(given)
            system = path.getFileSystem(conf)
            for status in system.globStatus(path) or []:
                if not status.isDirectory():
                    continue
                for child in system.listStatus(status.getPath()):
                    name = child.getPath().getName()
                    if child.isDirectory() and not name.startswith(("_", ".")):
                        found.append(child.getPath().toString())
        return found

    def _file_starts(self) -> dict[str, bytes]:
        """The first four bytes of every input file (decompressed when Hadoop has a codec for its
        name, as the text source reads it), read through Hadoop's FileSystem on the driver, 16
        files at a time (one open and one small read each: on an object store the latency of
        opening, not the bytes, is what costs)."""
        from concurrent.futures import ThreadPoolExecutor

        jvm = self.sc._jvm
        conf = self.sc._jsc.hadoopConfiguration()
        codecs = jvm.org.apache.hadoop.io.compress.CompressionCodecFactory(conf)

        def head(name: str) -> tuple[str, bytes]:
            path = jvm.org.apache.hadoop.fs.Path(jvm.java.net.URI(name))
            stream = path.getFileSystem(conf).open(path)
            try:
                codec = codecs.getCodec(path)
                if codec is not None:
                    stream = codec.createInputStream(stream)
                data = bytearray()
                while len(data) < 4:
                    byte = stream.read()
                    if byte < 0:
                        break
                    data.append(byte)
                return name, bytes(data)
            finally:
                stream.close()

        try:
            with ThreadPoolExecutor(max_workers=16) as pool:
                return dict(pool.map(head, self.input_files()))
        except Exception as error:
            raise ErrcatSparkError(f"cannot read the start of an input file: {spark_error_message(error)}") from None

    def bom_files(self) -> frozenset[str]:
        """Input files that start with a UTF-8 byte order mark (none looked for with --no-bom-check)."""
        if self._bom_files is None:
            self._starts = self._file_starts() if self.bom_check else {}
            self._bom_files = frozenset(name for name, head in self._starts.items() if head.startswith(BOM))
        return self._bom_files

    def _bom_only_files(self) -> list[str]:
        self.bom_files()
        return [name for name, head in self._starts.items() if head == BOM]

    # -- the two passes

    def summary(self) -> bytes:
        """The summary of the whole input, merged by errcat."""
        settings = self.settings()
        rows = self.read_lines().mapInArrow(classify_summaries(settings), SUMMARY_ROWS_DDL)
        partitions = rows.rdd.getNumPartitions()
        levels = tree_levels(partitions, self.fan_in)
        self.shape = (partitions, len(levels))
        try:
            if not levels:
                # At most fan-in summaries: the driver merges them all at once.
                collected = [(row.source, bytes(row.summary)) for row in rows.collect()]
            else:
                items = rows.rdd.map(lambda row: (row.source, bytes(row.summary)))
                for level, groups in enumerate(levels, start=1):
                    # Level by level, groups of fan-in neighbouring partitions become one summary.
                    fan_in = self.fan_in
                    items = (
                        items.mapPartitionsWithIndex(
                            lambda index, entries, fan_in=fan_in: ((index // fan_in, entry) for entry in entries)
                        )
                        .partitionBy(groups, lambda group: group)
                        .mapPartitionsWithIndex(merge_group(settings, level))
                    )
                collected = items.collect()
        except Exception as error:
            raise ErrcatSparkError(spark_error_message(error)) from None
        if not collected:
            return run_errcat(self.errcat.classify_summary(self.options, 1), "errcat on the driver")
        with tempfile.TemporaryDirectory(prefix="errcat-spark-") as folder:
            return merge_summaries(self.errcat, self.options, collected, folder)

    def each(self):
        """The `--each` DataFrame: one row per input line (EACH_COLUMNS)."""
        settings = self.settings()
        lines = self.read_lines()
        try:
            counted = lines.groupBy("path", "start").count().collect()
        except Exception as error:
            raise ErrcatSparkError(f"cannot count the lines of the splits: {spark_error_message(error)}") from None
        counts = [(row["path"], row["start"], row["count"]) for row in counted]
        first_lines = first_line_numbers(counts)
        expected = {(path, start): lines_ for path, start, lines_ in counts}
        shared = self.sc.broadcast((first_lines, expected))

        def each_partition(batches):
            first, wanted = shared.value
            return classify_each(settings, first, wanted)(batches)

        return lines.mapInArrow(each_partition, EACH_SCHEMA_DDL)


# ---------------------------------------------------------------------------------------------
# Writing the results


def hadoop_path(spark, location: str):
    jvm = spark.sparkContext._jvm
    path = jvm.org.apache.hadoop.fs.Path(location)
    return path, path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())


def refuse_existing(spark, locations: Sequence[str]) -> None:
    """Stops before any work when an output is already there (give --overwrite to replace it)."""
    for location in locations:
        path, system = hadoop_path(spark, location)
        if system.exists(path):
            raise ErrcatSparkError(f"{location} exists (give --overwrite to replace it)")


def write_bytes(spark, location: str, data: bytes) -> None:
    """Writes one file through Hadoop's FileSystem (local, HDFS, S3, … alike)."""
    path, system = hadoop_path(spark, location)
    stream = system.create(path, True)
    try:
        stream.write(bytearray(data))
    finally:
        stream.close()


def module_rows(summary: dict) -> list[tuple[str, int, int]]:
    """(module, lines, unrecognised) for every module of the summary's catalog, in catalog order."""
    modules = summary["modules"]
    unrecognised = summary["unrecognised"]
    if list(modules) != list(unrecognised):
        raise ErrcatSparkError('the summary\'s "modules" and "unrecognised" name different modules')
    return [(name, int(modules[name]), int(unrecognised[name])) for name in modules]


# ---------------------------------------------------------------------------------------------
# Command line


def argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="errcat_spark.py",
        description=(
            "Classify JSONL response logs with errcat on Apache Spark. Writes OUTPUT/summary.json (the summary "
            "of all lines, as one 'errcat classify --json' over the same files prints it), OUTPUT/modules.parquet "
            "and OUTPUT/modules.csv (lines and unrecognised codes per module), and prints the readable summary; "
            "with --each, OUTPUT/each.parquet (one row per line)."
        ),
    )
    parser.add_argument("inputs", nargs="+", metavar="INPUT", help="a file, directory or glob (any Hadoop file system)")
    parser.add_argument("--output", required=True, metavar="DIR", help="where the results are written")
    parser.add_argument("--each", action="store_true", help="one row per input line instead of the summary")
    parser.add_argument(
        "--errcat",
        metavar="PATH",
        help="the errcat binary on the driver, shipped to the executors (default: errcat shipped with "
        "spark-submit --files, else errcat on PATH)",
    )
    parser.add_argument(
        "--executor-errcat",
        metavar="PATH",
        help="errcat is already at PATH on every executor (a container image, a package): nothing is shipped",
    )
    parser.add_argument("--catalog", metavar="FILE", help="a catalog file instead of the built-in catalog (shipped)")
    parser.add_argument("--format", choices=("auto", "codes", "jsonl"), help="as errcat classify --format")
    parser.add_argument("--keys", choices=("ret", "code"), help="as errcat classify --keys")
    parser.add_argument("--code-key", metavar="KEY", help="as errcat classify --code-key")
    parser.add_argument("--message-key", metavar="KEY", help="as errcat classify --message-key")
    parser.add_argument("--data-key", metavar="KEY", help="as errcat classify --data-key")
    parser.add_argument("--max-line-bytes", metavar="N", help="as errcat classify --max-line-bytes (default 16M)")
    parser.add_argument(
        "--lang",
        metavar="TAG",
        help="message language of the top codes, any BCP 47 tag (en, zh-Hant, hi, pt-BR, ...): as errcat classify "
        "--lang, which checks the tag before Spark starts",
    )
    parser.add_argument("--top", metavar="N", help="codes listed in the summary's top (default 10)")
    parser.add_argument("--recursive", action="store_true", help="read directories recursively")
    parser.add_argument(
        "--no-bom-check",
        action="store_true",
        help="do not open every input file on the driver to find byte order marks (see README.md)",
    )
    parser.add_argument(
        "--fan-in", type=int, default=32, metavar="N", help="summaries added by one errcat merge (default 32)"
    )
    parser.add_argument("--overwrite", action="store_true", help="replace outputs that exist")
    parser.add_argument("--strict", action="store_true", help="exit with status 1 when any line is invalid")
    parser.add_argument("--quiet", action="store_true", help="do not print the readable summary")
    parser.add_argument("--timings", action="store_true", help="print the seconds each phase took on stderr")
    return parser


def local_errcat(given: Optional[str]) -> Optional[str]:
    """The driver's errcat before Spark starts: --errcat, else errcat on PATH, else None."""
    if given:
        if not os.path.isfile(given):
            raise ErrcatSparkError(f"--errcat {given}: no such file", status=2)
        return given
    return shutil.which("errcat")


def shipped_errcat() -> str:
    """The driver's errcat when neither --errcat nor PATH has one: a file shipped as 'errcat' with
    spark-submit --files (on Kubernetes, in SparkFiles; on YARN, the working directory)."""
    from pyspark import SparkFiles

    for candidate in (SparkFiles.get("errcat"), os.path.join(os.getcwd(), "errcat")):
        if os.path.isfile(candidate):
            return ensure_executable(candidate)
    raise ErrcatSparkError("no errcat: give --errcat PATH, ship it with spark-submit --files errcat, or put it on PATH")


class JvmStandardError(io.TextIOBase):
    """The driver's sys.stderr under spark-submit: text handed to the JVM's System.err.

    spark-submit runs a Python driver with its standard error merged into its standard output
    (Spark's PythonRunner starts it with redirectErrorStream), so whatever the driver writes to
    stderr would land in the readable summary on spark-submit's standard output. This stream writes
    through the Py4J gateway spark-submit already runs to the JVM's own System.err, which is
    spark-submit's standard error. Should the gateway fail, text goes to the process's stderr
    (merged with stdout, but not lost)."""

    def __init__(self, stream, fallback) -> None:
        super().__init__()
        self._stream = stream
        self._fallback = fallback

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not text:
            return 0
        try:
            self._stream.print(text)
            if "\n" in text:
                self._stream.flush()
        except Exception:
            self._fallback.write(text)
        return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except Exception:
            self._fallback.flush()


def keep_stdout_for_the_summary() -> None:
    """Under spark-submit (which sets PYSPARK_GATEWAY_PORT for the Python driver), points
    sys.stderr at the JVM's System.err (JvmStandardError), so that the job's messages, Python's
    warnings and tracebacks reach spark-submit's standard error, and its standard output carries
    only the readable summary. Run as a plain Python program, nothing changes."""
    if "PYSPARK_GATEWAY_PORT" not in os.environ or isinstance(sys.stderr, JvmStandardError):
        return
    from pyspark import SparkContext

    SparkContext._ensure_initialized()
    sys.stderr = JvmStandardError(SparkContext._jvm.java.lang.System.err, sys.__stderr__)


def main(argv: Optional[Sequence[str]] = None) -> int:
    keep_stdout_for_the_summary()
    args = argument_parser().parse_args(argv)
    if args.fan_in < 2:
        argument_parser().error("--fan-in must be at least 2")
    options = ClassifyOptions(
        format=args.format,
        keys=args.keys,
        code_key=args.code_key,
        message_key=args.message_key,
        data_key=args.data_key,
        max_line_bytes=args.max_line_bytes,
        lang=args.lang,
        top=args.top,
    )
    clock = PhaseClock(args.timings)
    try:
        if args.catalog and not os.path.isfile(args.catalog):
            raise ErrcatSparkError(f"--catalog {args.catalog}: no such file", status=2)
        binary = local_errcat(args.errcat)
        # Options errcat refuses stop the job here, before Spark starts.
        empty = probe_errcat(ErrcatCommand(binary, args.catalog), options) if binary else None
    except ErrcatSparkError as error:
        print(f"{PROGRAM}: {error}", file=sys.stderr)
        return error.status
    from pyspark.sql import SparkSession

    clock.lap("errcat on the driver")
    spark = SparkSession.builder.appName("errcat").getOrCreate()
    clock.lap("Spark session")
    try:
        if binary is None:
            binary = shipped_errcat()
            empty = probe_errcat(ErrcatCommand(binary, args.catalog), options)
        return run(spark, args, options, ErrcatCommand(binary, args.catalog), empty, clock)
    except ErrcatSparkError as error:
        print(f"{PROGRAM}: {error}", file=sys.stderr)
        return error.status
    finally:
        spark.stop()
        clock.lap("Spark stop")
        clock.total()


def run(spark, args, options: ClassifyOptions, errcat: ErrcatCommand, empty: dict, clock: PhaseClock) -> int:
    job = Job(
        spark,
        args.inputs,
        errcat,
        options,
        executor_errcat=args.executor_errcat,
        recursive=args.recursive,
        fan_in=args.fan_in,
        bom_check=not args.no_bom_check,
    )
    output = args.output.rstrip("/")
    unread = job.unread_subdirectories()
    if not job.input_files():
        raise ErrcatSparkError(
            "no input files in "
            + ", ".join(args.inputs)
            + (" (their subdirectories are read only with --recursive)" if unread else "")
        )
    if unread:
        job.log(
            f"note: {len(unread)} subdirector{'y' if len(unread) == 1 else 'ies'} not read (give --recursive to read "
            f"them): {', '.join(unread[:3])}{' …' if len(unread) > 3 else ''}"
        )
    job.bom_files()
    clock.lap("listing the input, reading the first bytes of each file")
    if args.each:
        target = f"{output}/each.parquet"
        if not args.overwrite:
            refuse_existing(spark, [target])
        rows = job.each()
        clock.lap("counting the lines of each split")
        try:
            rows.write.mode("overwrite" if args.overwrite else "errorifexists").parquet(target)
            clock.lap("classifying and writing each.parquet")
            total, invalid = spark.read.parquet(target).selectExpr("count(*)", "count(error)").first()
        except Exception as error:
            raise ErrcatSparkError(spark_error_message(error)) from None
        clock.lap("counting the rows written")
        print(f"{PROGRAM}: {total} lines, {invalid} invalid, written to {target}", file=sys.stderr)
        return 1 if args.strict and invalid else 0

    targets = [f"{output}/summary.json", f"{output}/modules.parquet", f"{output}/modules.csv"]
    if not args.overwrite:
        refuse_existing(spark, targets)
    summary_bytes = job.summary()
    partitions = f"{job.shape[0]} partition" + ("" if job.shape[0] == 1 else "s")
    clock.lap(f"classifying {partitions} and merging (levels on the executors: {job.shape[1]})")
    summary = json.loads(summary_bytes)
    if summary["catalog"] != empty["catalog"]:
        raise ErrcatSparkError(f"the merged summary's catalog {summary['catalog']} is not the job's {empty['catalog']}")
    write_bytes(spark, targets[0], summary_bytes)
    modules = spark.createDataFrame(module_rows(summary), "module string, lines long, unrecognised long")
    mode = "overwrite" if args.overwrite else "errorifexists"
    try:
        modules.coalesce(1).write.mode(mode).parquet(targets[1])
        modules.coalesce(1).write.mode(mode).option("header", "true").csv(targets[2])
    except Exception as error:
        raise ErrcatSparkError(f"cannot write the module table: {spark_error_message(error)}") from None
    clock.lap("writing summary.json and the module table")
    if not args.quiet:
        with tempfile.TemporaryDirectory(prefix="errcat-spark-") as folder:
            path = os.path.join(folder, "summary.json")
            with open(path, "wb") as handle:
                handle.write(summary_bytes)
            sys.stdout.write(run_errcat(errcat.merge(options, [path], text=True), "errcat merge --text").decode())
            sys.stdout.flush()
    if len(summary["codes"]) > 65536 or summary["untracked"]:
        job.log(
            f"note: {len(summary['codes'])} distinct codes, {summary['untracked']} lines untracked. One 'errcat "
            "classify' run counts the lines of codes without a catalog entry one by one for the first 65,536 such "
            "codes only (the rest in \"untracked\"); partitions each track their own and 'errcat merge' keeps them "
            'all, so "codes", "untracked" and "top" here may hold more than one run over the same files '
            "would; every other count is the same."
        )
    print(
        f"{PROGRAM}: {summary['total']} lines, {summary['invalid']} invalid, written to {targets[0]}", file=sys.stderr
    )
    return 1 if args.strict and summary["invalid"] else 0


if __name__ == "__main__":
    sys.exit(main())
