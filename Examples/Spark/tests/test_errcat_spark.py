"""Unit tests of errcat_spark.py's pieces that need no JVM: errcat's command lines, how a
partition's rows are cut into splits and numbered, the bytes fed to errcat (byte order marks
put back), the decoding of `--each` rows, the tree merge's shape, error messages, and the two
per-partition functions run on hand-made Arrow batches against the real errcat binary.

errcat is taken from $ERRCAT, else from PATH (scripts/spark-check.sh sets ERRCAT to the release
build it made)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import errcat_spark as job  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def errcat() -> str:
    path = os.environ.get("ERRCAT") or shutil.which("errcat")
    if not path or not os.path.isfile(path):
        pytest.fail("set ERRCAT to an errcat binary (swift build -c release --product errcat)")
    return path


@pytest.fixture(scope="session")
def other_catalog(tmp_path_factory) -> Path:
    """The default catalog with one more module: another catalog hash."""
    catalog = json.loads((ROOT / "catalog" / "default.json").read_text())
    catalog["name"] = "billing"
    catalog["modules"].append(
        {
            "name": "billing",
            "ranges": [[11300000, 11309999]],
            "codes": [{"code": 11300001, "name": "cardDeclined", "message": {"en": "The card was declined."}}],
        }
    )
    path = tmp_path_factory.mktemp("catalog") / "billing.json"
    path.write_text(json.dumps(catalog))
    return path


def errcat_out(errcat: str, args: list[str], data: bytes) -> bytes:
    done = subprocess.run([errcat, *args], input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
    return done.stdout


def make_batch(lines: list[bytes], path: str, start: int) -> pa.RecordBatch:
    """A batch as the job's read_lines() gives it: each line with its LF, the file, the split start."""
    return pa.RecordBatch.from_pydict(
        {
            "line": pa.array([line + b"\n" for line in lines], pa.binary()),
            "path": pa.array([path] * len(lines), pa.string()),
            "start": pa.array([start] * len(lines), pa.int64()),
        }
    )


def concat_batches(*batches: pa.RecordBatch) -> pa.RecordBatch:
    return pa.Table.from_batches(batches).combine_chunks().to_batches()[0]


def settings_for(errcat: str, bom_files=frozenset(), **options) -> job.TaskSettings:
    return job.TaskSettings(
        errcat_name=errcat,
        errcat_is_shipped=False,
        catalog_name=None,
        options=job.ClassifyOptions(**options),
        jobs=1,
        bom_files=frozenset(bom_files),
    )


# -- command lines


def test_classify_summary_command_passes_every_option_in_order():
    options = job.ClassifyOptions(
        format="jsonl",
        keys="code",
        code_key="c",
        message_key="m",
        data_key="d",
        max_line_bytes="64K",
        lang="zh-Hans",
        top="5",
    )
    argv = job.ErrcatCommand("/bin/errcat", "/x/cat.json").classify_summary(options, 2)
    assert argv == [
        "/bin/errcat", "classify", "--json", "--quiet", "--no-progress", "--max-errors", "0", "--jobs", "2",
        "--catalog", "/x/cat.json",
        "--format", "jsonl", "--keys", "code", "--code-key", "c", "--message-key", "m", "--data-key", "d",
        "--max-line-bytes", "64K", "--lang", "zh-Hans", "--top", "5", "-",
    ]  # fmt: skip


def test_each_and_merge_commands():
    options = job.ClassifyOptions(lang="en", top="3", format="codes")
    each = job.ErrcatCommand("e").classify_each(options, 1)
    assert each[:4] == ["e", "classify", "--each", "--json"]
    assert "--top" not in each and each[-3:] == ["--lang", "en", "-"]
    assert ["--format", "codes"] == each[each.index("--format") : each.index("--format") + 2]
    merge = job.ErrcatCommand("e", "c.json").merge(options, ["a", "b"], text=True)
    assert merge == ["e", "merge", "--text", "--catalog", "c.json", "--lang", "en", "--top", "3", "a", "b"]


def test_probe_reports_the_catalog_and_refuses_bad_options_as_usage(errcat, other_catalog):
    default = job.probe_errcat(job.ErrcatCommand(errcat), job.ClassifyOptions())
    assert default["total"] == 0 and default["catalog"]["name"] == "default"
    other = job.probe_errcat(job.ErrcatCommand(errcat, str(other_catalog)), job.ClassifyOptions())
    assert other["catalog"]["name"] == "billing" and other["catalog"]["hash"] != default["catalog"]["hash"]
    with pytest.raises(job.ErrcatSparkError) as raised:
        job.probe_errcat(job.ErrcatCommand(errcat), job.ClassifyOptions(max_line_bytes="0"))
    assert raised.value.status == 2
    assert "--max-line-bytes must be at least 1" in str(raised.value)


@pytest.mark.parametrize("tag", ["en", "hi", "zh-Hant", "zh-Hant-TW", "sr-Latn-RS", "pt-BR", "fr", "zh_TW", "", "en-", "e"])
def test_lang_takes_the_tags_errcat_takes_and_refuses_the_others_before_spark(errcat, tag, tmp_path, capsys):
    """--lang is passed to errcat as given: the job accepts a tag exactly when errcat classify does,
    and a tag errcat refuses stops the job with errcat's message and status 2 before Spark starts."""
    reference = subprocess.run(
        [errcat, "classify", "--json", "--quiet", "--lang", tag, "-"],
        input=b"",
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        check=False,
    )
    assert reference.returncode in (0, 2)
    args = job.argument_parser().parse_args(["in/", "--output", "out", "--lang", tag])
    assert args.lang == tag
    if reference.returncode == 0:
        summary = job.probe_errcat(job.ErrcatCommand(errcat), job.ClassifyOptions(lang=args.lang))
        assert summary["total"] == 0
    else:
        status = job.main(["--errcat", errcat, "--lang", tag, "--output", str(tmp_path / "out"), str(tmp_path)])
        assert status == 2
        reason = reference.stderr.decode().split("\n")[0]
        assert f"malformed language tag '{tag}'" in reason
        assert reason in capsys.readouterr().err
        assert not (tmp_path / "out").exists()


def test_under_spark_submit_stderr_is_the_jvm_s_standard_error(monkeypatch):
    """spark-submit merges the Python driver's stderr into its stdout; the job's stderr writes to
    the JVM's System.err instead (flushed at each newline), falling back to the process's stderr."""

    class PrintStream:
        def __init__(self) -> None:
            self.printed: list[str] = []
            self.flushes = 0

        def print(self, text: str) -> None:
            self.printed.append(text)

        def flush(self) -> None:
            self.flushes += 1

    class GoneGateway:
        def print(self, text: str) -> None:
            raise ConnectionError("the gateway is gone")

        def flush(self) -> None:
            raise ConnectionError("the gateway is gone")

    class Fallback:
        def __init__(self) -> None:
            self.text = ""

        def write(self, text: str) -> None:
            self.text += text

        def flush(self) -> None:
            pass

    jvm = PrintStream()
    stream = job.JvmStandardError(jvm, Fallback())
    print("errcat-spark: partial", end="", file=stream)
    assert jvm.printed == ["errcat-spark: partial"] and jvm.flushes == 0
    print(" and the rest", file=stream)
    assert "".join(jvm.printed) == "errcat-spark: partial and the rest\n" and jvm.flushes == 1
    fallback = Fallback()
    print("errcat-spark: kept", file=job.JvmStandardError(GoneGateway(), fallback))
    assert fallback.text == "errcat-spark: kept\n"

    # Run as a plain Python program (no spark-submit gateway), stderr stays as it is.
    monkeypatch.delenv("PYSPARK_GATEWAY_PORT", raising=False)
    before = sys.stderr
    job.keep_stdout_for_the_summary()
    assert sys.stderr is before


def test_run_errcat_names_a_missing_binary():
    with pytest.raises(job.ErrcatSparkError, match="cannot run /no/such/errcat"):
        job.run_errcat(["/no/such/errcat", "classify"], "errcat on the driver")


# -- splits, runs and line numbers


def test_runs_cut_a_batch_at_each_new_split_and_continue_across_batches():
    walker = job.SplitWalker()
    first = concat_batches(
        make_batch([b"1", b"2"], "f:/a", 0), make_batch([b"3"], "f:/a", 100), make_batch([b"4"], "f:/b", 100)
    )
    runs = walker.runs(first.column("path"), first.column("start"))
    assert [(r.begin, r.end, r.path, r.start, r.before) for r in runs] == [
        (0, 2, "f:/a", 0, 0),
        (2, 3, "f:/a", 100, 0),
        (3, 4, "f:/b", 100, 0),
    ]
    assert runs[0].opens_file and not runs[1].opens_file
    second = concat_batches(make_batch([b"5", b"6"], "f:/b", 100), make_batch([b"7"], "f:/c", 0))
    runs = walker.runs(second.column("path"), second.column("start"))
    assert [(r.begin, r.end, r.path, r.before) for r in runs] == [(0, 2, "f:/b", 1), (2, 3, "f:/c", 0)]
    assert walker.splits == [("f:/a", 0, 2), ("f:/a", 100, 1), ("f:/b", 100, 3), ("f:/c", 0, 1)]
    assert walker.describe(limit=2) == "f:/a from byte 0, f:/a from byte 100 and 2 more splits"


def test_a_split_seen_twice_in_a_partition_is_an_error():
    walker = job.SplitWalker()
    rows = concat_batches(make_batch([b"1"], "f:/a", 0), make_batch([b"2"], "f:/b", 0), make_batch([b"3"], "f:/a", 0))
    with pytest.raises(job.ErrcatSparkError, match="not consecutive"):
        walker.runs(rows.column("path"), rows.column("start"))


def test_split_counts_are_checked_against_the_first_pass():
    walker = job.SplitWalker(expected={("f:/a", 0): 2, ("f:/b", 0): 1})
    rows = concat_batches(make_batch([b"1", b"2", b"3"], "f:/a", 0), make_batch([b"4"], "f:/b", 0))
    with pytest.raises(job.ErrcatSparkError, match="had 2 lines when they were counted and 3 now"):
        walker.runs(rows.column("path"), rows.column("start"))
    walker = job.SplitWalker(expected={("f:/a", 0): 1})
    rows = make_batch([b"1"], "f:/z", 0)
    walker.runs(rows.column("path"), rows.column("start"))
    with pytest.raises(job.ErrcatSparkError, match="was not a split when the lines were counted"):
        walker.finish()
    walker = job.SplitWalker(expected={("f:/a", 0): 3})
    for part in ([b"1"], [b"2", b"3"]):
        rows = make_batch(part, "f:/a", 0)
        walker.runs(rows.column("path"), rows.column("start"))
    walker.finish()  # 3 lines over two batches: as counted


def test_first_line_numbers_add_up_earlier_splits_of_the_same_file():
    counts = [("b", 0, 5), ("a", 300, 7), ("a", 0, 10), ("a", 100, 0), ("a", 200, 3)]
    assert job.first_line_numbers(counts) == {
        ("a", 0): 1,
        ("a", 100): 11,
        ("a", 200): 11,
        ("a", 300): 14,
        ("b", 0): 1,
    }
    with pytest.raises(ValueError, match="two splits start at byte 0"):
        job.first_line_numbers([("a", 0, 1), ("a", 0, 2)])


# -- the bytes errcat is fed


def joined(pieces) -> bytes:
    return b"".join(bytes(piece) for piece in pieces)


def test_line_bytes_are_the_lines_with_their_newlines_without_copying():
    values = pa.array([b"a\r\n", b"\n", b"\xff\xfe\n", b"{}\n"], pa.binary())
    pieces = job.line_bytes(values, [])
    assert joined(pieces) == b"a\r\n\n\xff\xfe\n{}\n"
    assert len(pieces) == 1 and pieces[0].obj is not None  # a view of the Arrow buffer
    assert joined(job.line_bytes(values.slice(1, 2), [])) == b"\n\xff\xfe\n"
    large = pa.array([b"x\n", b"y\n"], pa.large_binary())
    assert joined(job.line_bytes(large, [1])) == b"x\n\xef\xbb\xbfy\n"
    assert job.line_bytes(values.slice(0, 0), []) == []


def test_byte_order_marks_go_back_before_the_first_line_of_their_files():
    rows = concat_batches(
        make_batch([b"11001", b"2"], "f:/bom", 0), make_batch([b"3"], "f:/plain", 0), make_batch([b"4"], "f:/bom2", 0)
    )
    walker = job.SplitWalker()
    runs = walker.runs(rows.column("path"), rows.column("start"))
    marked = job.bom_rows(runs, frozenset({"f:/bom", "f:/bom2"}))
    assert marked == [0, 3]
    assert joined(job.line_bytes(rows.column("line"), marked)) == b"\xef\xbb\xbf11001\n2\n3\n\xef\xbb\xbf4\n"
    later = make_batch([b"5"], "f:/bom2", 0)  # the same split, next batch: not a first line
    assert job.bom_rows(walker.runs(later.column("path"), later.column("start")), frozenset({"f:/bom2"})) == []
    middle = make_batch([b"6"], "f:/bom", 4096)  # a later split of a marked file
    assert (
        job.bom_rows(job.SplitWalker().runs(middle.column("path"), middle.column("start")), frozenset({"f:/bom"})) == []
    )


# -- errcat's --each rows


def test_each_decoder_reads_rows_fed_in_pieces_and_checks_their_numbers():
    output = (
        b'{"line":1,"code":11001,"tier":"base","module":null,"name":"tokenExpire","message":"m","flags":["x"],"exact":true}\n'
        b'{"line":2,"error":"empty line"}\n'
        b'{"line":3,"code":-9223372036854775808,"tier":"unknown","module":null,"name":null,"message":"u","flags":[],"exact":false}\n'
        b'{"line":4,"code":11219999,"tier":"module","module":"studyGroup","name":null,"message":"m","flags":[],"exact":false}\n'
    )
    decoder = job.EachDecoder()
    assert decoder.feed(output[:10]) is None
    first = decoder.feed(output[10:150])
    second = decoder.feed(output[150:])
    decoder.finish()
    rows = pa.concat_tables([first, second]).to_pylist()
    assert rows == [
        {"line": 1, "code": 11001, "tier": "base", "module": None, "name": "tokenExpire", "error": None},
        {"line": 2, "code": None, "tier": None, "module": None, "name": None, "error": "empty line"},
        {"line": 3, "code": -9223372036854775808, "tier": "unknown", "module": None, "name": None, "error": None},
        {"line": 4, "code": 11219999, "tier": "module", "module": "studyGroup", "name": None, "error": None},
    ]
    assert decoder.rows == 4
    skipping = job.EachDecoder()
    with pytest.raises(job.ErrcatSparkError, match="not numbered in order"):
        skipping.feed(b'{"line":1,"error":"x"}\n{"line":3,"error":"y"}\n')
    cut = job.EachDecoder()
    cut.feed(b'{"line":1,"error":"x"}\n{"line":2,')
    with pytest.raises(job.ErrcatSparkError, match="ended inside a line"):
        cut.finish()


# -- the tree merge and messages


def test_tree_levels():
    assert job.tree_levels(0, 32) == []
    assert job.tree_levels(32, 32) == []
    assert job.tree_levels(33, 32) == [2]
    assert job.tree_levels(1000, 10) == [100, 10]
    assert job.tree_levels(9, 2) == [5, 3, 2]
    with pytest.raises(ValueError):
        job.tree_levels(5, 1)


def test_spark_error_message_finds_the_job_s_own_message_or_the_python_exception():
    wrapped = (
        "An exception was thrown from the Python worker. Please see the stack trace below.\n"
        "Traceback (most recent call last):\n"
        '  File "x.py", line 3, in classify\n'
        "errcat_spark.ErrcatSparkError: partition 3 (f:/a from byte 0): errcat classify: bad (errcat classify, exit status 1)\n"
        "\tat org.apache.spark.api.python.BasePythonRunner...\n"
    )
    assert job.spark_error_message(Exception(wrapped)) == (
        "partition 3 (f:/a from byte 0): errcat classify: bad (errcat classify, exit status 1)"
    )
    python = (
        "org.apache.spark.SparkException: Job aborted due to stage failure\n"
        "Traceback (most recent call last):\n"
        '  File "x.py", line 9, in f\n'
        "KeyError: 'path'\n"
    )
    assert job.spark_error_message(Exception(python)) == "KeyError: 'path'"
    assert job.spark_error_message(Exception("[PATH_NOT_FOUND] Path does not exist: file:/x.\nmore")) == (
        "[PATH_NOT_FOUND] Path does not exist: file:/x."
    )


def test_module_rows_follow_the_catalog_order():
    summary = {"modules": {"b": 3, "a": 1}, "unrecognised": {"b": 2, "a": 0}}
    assert job.module_rows(summary) == [("b", 3, 2), ("a", 1, 0)]
    with pytest.raises(job.ErrcatSparkError):
        job.module_rows({"modules": {"a": 1}, "unrecognised": {"b": 0}})


def test_merge_names_the_partition_whose_catalog_differs(errcat, other_catalog, tmp_path):
    ours = errcat_out(errcat, ["classify", "--json", "--quiet", "-"], b"11001\n0\n")
    theirs = errcat_out(errcat, ["classify", "--json", "--quiet", "--catalog", str(other_catalog), "-"], b"0\n")
    merged = json.loads(
        job.merge_summaries(
            job.ErrcatCommand(errcat), job.ClassifyOptions(), [("p0", ours), ("p1", ours)], str(tmp_path)
        )
    )
    assert merged["total"] == 4 and merged["tiers"]["base"] == 2
    with pytest.raises(job.ErrcatSparkError) as raised:
        job.merge_summaries(
            job.ErrcatCommand(errcat),
            job.ClassifyOptions(),
            [("partition 0 (f:/a from byte 0)", ours), ("partition 1 (f:/b from byte 0)", theirs)],
            str(tmp_path),
        )
    message = str(raised.value)
    assert "partition 1 (f:/b from byte 0)" in message and "made with another catalog" in message
    assert "billing" in message and str(tmp_path) not in message
    assert list(tmp_path.iterdir()) == []  # the summaries' files are removed


# -- the per-partition functions, without Spark


SAMPLE = [
    b'{"ret":0,"msg":"ok"}',
    b"",
    b'{"ret":"11001"}',
    b"  11210005\t",
    b"11219999\r",
    b'{"ret":1.5}',
    b"abc\rdef",
    b'{"ret":11001,"msg":"\xff"}',
    b"4294978297",
]


def test_summary_of_a_partition_is_errcat_s_summary_of_its_lines(errcat):
    settings = settings_for(errcat, top="3")
    batches = [make_batch(SAMPLE[:4], "f:/a", 0), make_batch(SAMPLE[4:], "f:/a", 0), make_batch([b"11001"], "f:/b", 0)]
    out = list(job.classify_summaries(settings)(iter(batches)))
    assert len(out) == 1 and out[0].column("partition").to_pylist() == [0]
    host = socket.gethostname()
    assert out[0].column("source").to_pylist() == [f"partition 0 on host {host} (f:/a from byte 0, f:/b from byte 0)"]
    expected = errcat_out(
        errcat, ["classify", "--json", "--quiet", "--top", "3", "-"], b"\n".join(SAMPLE + [b"11001"]) + b"\n"
    )
    assert out[0].column("summary")[0].as_py() == expected
    summary = json.loads(expected)
    assert summary["total"] == 10 and summary["invalid"] == 5  # the lines themselves are checked by errcat


def test_an_empty_partition_gives_no_summary(errcat):
    assert list(job.classify_summaries(settings_for(errcat))(iter([]))) == []


def test_a_failing_errcat_is_reported_with_its_partition(errcat):
    settings = settings_for(errcat, format="bogus")
    with pytest.raises(job.ErrcatSparkError) as raised:
        list(job.classify_summaries(settings)(iter([make_batch([b"0"], "f:/a", 0)])))
    message = str(raised.value)
    assert f"partition 0 on host {socket.gethostname()} (f:/a from byte 0)" in message
    assert "unknown format 'bogus'" in message


def test_each_rows_carry_file_and_line_across_splits_and_batches(errcat):
    a_first = [b'{"ret":0}', b"", b"11001"]
    a_second = [b'{"ret":"x"}', b"11210005\r", b"abc", b"7"]
    b_lines = [b'{"ret":"1"}', b"11002"]  # b starts with a byte order mark
    counts = [("f:/a", 0, len(a_first)), ("f:/a", 4096, len(a_second)), ("f:/b", 0, len(b_lines))]
    first_lines = job.first_line_numbers(counts)
    expected_counts = {(path, start): count for path, start, count in counts}
    settings = settings_for(errcat, bom_files={"f:/b"})
    batches = [
        make_batch(a_first, "f:/a", 0),
        concat_batches(make_batch(a_second[:2], "f:/a", 4096)),
        concat_batches(make_batch(a_second[2:], "f:/a", 4096), make_batch(b_lines, "f:/b", 0)),
    ]
    rows = pa.Table.from_batches(
        list(job.classify_each(settings, first_lines, expected_counts)(iter(batches)))
    ).to_pylist()

    def reference(data: bytes, path: str) -> list[dict]:
        out = errcat_out(errcat, ["classify", "--each", "--json", "--quiet", "-"], data)
        result = []
        for line in out.splitlines():
            row = json.loads(line)
            result.append({"file": path, **{key: row.get(key) for key in job.EACH_COLUMNS[1:]}})
        return result

    a_bytes = b"\n".join(a_first + a_second) + b"\n"
    b_bytes = job.BOM + b"\n".join(b_lines) + b"\n"
    assert rows == reference(a_bytes, "f:/a") + reference(b_bytes, "f:/b")
    assert [row["line"] for row in rows] == [1, 2, 3, 4, 5, 6, 7, 1, 2]
    # The mark is put back: errcat counts byte offsets from the start of the line, mark included.
    assert rows[7]["error"].endswith("(byte 10)")


def test_each_refuses_a_split_whose_line_count_changed(errcat):
    settings = settings_for(errcat)
    first_lines = {("f:/a", 0): 1}
    with pytest.raises(job.ErrcatSparkError, match="input changed"):
        list(job.classify_each(settings, first_lines, {("f:/a", 0): 5})(iter([make_batch([b"0", b"1"], "f:/a", 0)])))
    with pytest.raises(job.ErrcatSparkError, match="was not a split when the lines were counted"):
        list(job.classify_each(settings, first_lines, {("f:/a", 0): 1})(iter([make_batch([b"0"], "f:/new", 0)])))


def test_argument_parser_defaults_and_refusals():
    args = job.argument_parser().parse_args(["in/", "--output", "out"])
    assert args.inputs == ["in/"] and args.fan_in == 32 and not args.each and not args.no_bom_check
    with pytest.raises(SystemExit) as raised:
        job.argument_parser().parse_args(["in/", "--output", "o", "--format", "xml"])
    assert raised.value.code == 2
    with pytest.raises(SystemExit):
        job.argument_parser().parse_args(["in/"])  # --output is required


def test_an_executor_merge_level_adds_its_group_with_errcat_merge(errcat):
    one = errcat_out(errcat, ["classify", "--json", "--quiet", "-"], b"11001\n0\n\n")
    two = errcat_out(errcat, ["classify", "--json", "--quiet", "-"], b"0\n11210005\n")
    merged = list(job.merge_group(settings_for(errcat, top="2"), 2)(7, iter([(7, ("p0", one)), (7, ("p1", two))])))
    assert len(merged) == 1 and merged[0][0] == "merge 7 of level 2 (2 summaries)"
    expected = errcat_out(errcat, ["classify", "--json", "--quiet", "--top", "2", "-"], b"11001\n0\n\n0\n11210005\n")
    assert merged[0][1] == expected
    assert list(job.merge_group(settings_for(errcat), 1)(0, iter([]))) == []


def test_describe_exit_keeps_errcat_s_message_without_the_usage_after_it():
    stderr = (
        b"errcat classify: --max-line-bytes must be at least 1\n\nUSAGE: errcat classify [options]\n\nOPTIONS: ...\n"
    )
    message = job.describe_exit(["/x/errcat", "classify"], 2, stderr)
    assert message == "errcat classify: --max-line-bytes must be at least 1 (errcat classify, exit status 2)"
    assert (
        job.describe_exit(["/x/errcat", "merge"], -9, b"") == "errcat merge ended (killed by signal 9) with no message"
    )
