#!/usr/bin/env python3
"""speed-gate-check.py: judges one `compare --json` run against the levels recorded for this CPU.

Every target `compare` reports (a ratio of two medians of the same process, or an allocation
count) is looked up in the floors file (speed-gate-floors.txt beside this script). The file has
sections:

  [all]                       targets that compare like with like (the Swift facade against the C
                              call it wraps, the envelope parser against JSONDecoder on the same
                              bodies, allocation counts): one floor holds on every CPU
  [VENDOR FAMILY/MODEL VEC]   targets whose ratio depends on the CPU (the C classifier against the
                              Int-enum and bsearch baselines, whose cost is branch mispredictions,
                              and against the memory floor, which depends on the vector path the
                              batch dispatches to): floors for one CPU class, e.g.
                              [AuthenticAMD 25/17 avx512]

A CPU class is /proc/cpuinfo's vendor_id, cpu family and model, and the widest vector extension it
reports (avx512 for avx512f, avx2, or none). A target fails when it is worse than its floor by more
than its noise factor:

  at_least targets (speed-ups): value < floor / noise  fails
  at_most targets (times a reference, allocations): value > floor * noise  fails

So a change that halves a speed-up (or doubles a time ratio) fails whenever the noise factor is
below 2. On a CPU class the file has no section for, the [all] targets are judged and the others
are printed as not judged, with the command that records floors for the class: a gate calibrated on
one CPU never fails another for being another CPU. The goal `compare` states is printed beside each
target; a target below its goal that does not fail is reported as a miss.

usage: speed-gate-check.py FLOORS RUN.json [--only-present] [--expect-fail KEY ...] [--cpu-class C]
       speed-gate-check.py --record FLOORS RUN.json...   this CPU's section, from several runs
       speed-gate-check.py --self-test              the rules above on made-up runs
  --only-present   judge only the targets in the run (the self-test measures a few); otherwise a
                   target the floors file holds for this CPU that the run lacks fails, and so does
                   one the run has that the file has nowhere
  --expect-fail K  exit 0 only when every K fails (and print what the gate said)
  --cpu-class C    judge as if on CPU class C (default: this machine's)

Recording: FLOOR is the median of the runs; NOISE is 1.25 times the worst straying of a run from
that median to the failing side, at least 1.50 and at most 1.80 (so halving always fails; single
runs have strayed 1.3-1.4 times on targets whose recorded runs never did), and 1 for a floor of 0
(an allocation count).

Exit status: 0 when nothing fails (or, with --expect-fail, when the expected targets fail),
1 otherwise, 2 on bad input.
"""

import json
import statistics
import sys

ALL = "all"


def cpu_class(path="/proc/cpuinfo"):
    """This machine's CPU class: vendor, family/model and widest vector extension."""
    fields = {}
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if not line.strip():
                    break  # the first processor is enough
                key, _, value = line.partition(":")
                fields[key.strip()] = value.strip()
    except OSError:
        return "unknown"
    flags = set(fields.get("flags", "").split())
    vector = "avx512" if "avx512f" in flags else "avx2" if "avx2" in flags else "none"
    vendor = fields.get("vendor_id", "unknown")
    return f"{vendor} {fields.get('cpu family', '?')}/{fields.get('model', '?')} {vector}"


def read_floors(path):
    """{section: {key: (floor, noise)}}; section is "all" or a CPU class."""
    sections = {}
    section = None
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            if text.startswith("[") and text.endswith("]"):
                section = " ".join(text[1:-1].split())
                if section in sections:
                    sys.exit(f"speed-gate-check: {path}:{number}: section [{section}] appears twice")
                sections[section] = {}
                continue
            if section is None:
                sys.exit(f"speed-gate-check: {path}:{number}: a target before any [section]: {line.strip()!r}")
            fields = text.split()
            if len(fields) != 3:
                sys.exit(f"speed-gate-check: {path}:{number}: expected KEY FLOOR NOISE, found {line.strip()!r}")
            key, floor, noise = fields
            try:
                value = (float(floor), float(noise))
            except ValueError:
                sys.exit(f"speed-gate-check: {path}:{number}: FLOOR and NOISE must be numbers: {line.strip()!r}")
            if value[1] < 1:
                sys.exit(f"speed-gate-check: {path}:{number}: NOISE is a factor of at least 1")
            if key in sections[section]:
                sys.exit(f"speed-gate-check: {path}:{number}: {key} appears twice in [{section}]")
            sections[section][key] = value
    for section, keys in sections.items():
        if section != ALL:
            both = set(keys) & set(sections.get(ALL, {}))
            if both:
                sys.exit(f"speed-gate-check: {path}: {', '.join(sorted(both))} in both [all] and [{section}]")
    return sections


def judge(sections, run, cpu, only_present=False):
    """(lines, failed, missed, unjudged) for one run on CPU class `cpu`."""
    floors = dict(sections.get(ALL, {}))
    recorded = cpu in sections
    floors.update(sections.get(cpu, {}))
    everywhere = set().union(*sections.values()) if sections else set()
    failed, missed, unjudged, lines = [], [], [], []
    seen = set()
    for target in run["targets"]:
        key, value, goal, kind = target["key"], target["value"], target["bound"], target["kind"]
        seen.add(key)
        if key not in floors:
            if key in everywhere and not recorded:
                unjudged.append(key)
                lines.append(f"  -      {key}: {value:.3g}, goal {goal:g}: not judged (no floors for this CPU class)")
            else:
                failed.append(key)
                lines.append(f"  FAIL   {key}: {value:g}, goal {goal:g}: no floor recorded in the floors file")
            continue
        floor, noise = floors[key]
        if kind == "at_least":
            limit, fails, below_goal, relation = floor / noise, not value >= floor / noise, value < goal, f">= {goal:g}"
            floor_missing_goal = floor < goal
        else:
            limit, fails, below_goal, relation = floor * noise, not value <= floor * noise, value > goal, f"<= {goal:g}"
            floor_missing_goal = floor > goal
        status = "FAIL" if fails else ("miss" if below_goal else "ok")
        note = f"goal {relation}"
        if floor_missing_goal:
            note += f" (not met today: gated at the level held, {floor:g})"
        side = "below" if kind == "at_least" else "above"
        lines.append(f"  {status:<6} {key}: {value:.3g}, floor {floor:g}, fails {side} {limit:.3g}; {note}")
        if fails:
            failed.append(key)
        elif below_goal:
            missed.append(key)
    if not only_present:
        for key in sorted(set(floors) - seen):
            failed.append(key)
            lines.append(f"  FAIL   {key}: the floors file has it, the run does not")
    return lines, failed, missed, unjudged


def check(floors_path, run_path, cpu, only_present, expected_failures):
    sections = read_floors(floors_path)
    with open(run_path, encoding="utf-8") as handle:
        run = json.load(handle)
    if run.get("planted") and not expected_failures:
        print(f"speed-gate-check: the run has a planted slowdown ({run['planted']}); only a self-test judges it")
        return 1
    lines, failed, missed, unjudged = judge(sections, run, cpu, only_present)
    print("\n".join(lines))
    recorded = "floors recorded for it" if cpu in sections else "no floors recorded for it: only [all] is judged"
    print(f"speed gate: CPU class [{cpu}], {recorded}")
    print(
        f"speed gate: {len(lines)} targets, {len(failed)} failed, {len(missed)} below the goal within the noise"
        + (f", {len(unjudged)} not judged" if unjudged else "")
        + (f" (planted: {run['planted']})" if run.get("planted") else "")
    )
    if unjudged:
        print("speed gate: to judge them here, record this CPU's floors: scripts/bench/speed-gate.sh --record 6")
    if expected_failures:
        caught = [key for key in expected_failures if key in failed]
        if len(caught) == len(expected_failures):
            print(f"speed gate self-test: the planted slowdown fails {', '.join(caught)}, as it must")
            return 0
        print(f"speed gate self-test: FAILED: the plant should fail {', '.join(expected_failures)}; failed: {failed}")
        return 1
    return 1 if failed else 0


def record(run_paths, cpu, portable):
    """A floors section for `cpu` from several runs (targets of [all] left out)."""
    runs = []
    for path in run_paths:
        with open(path, encoding="utf-8") as handle:
            runs.append(json.load(handle))
    if len(runs) < 3:
        sys.exit("speed-gate-check: --record needs at least three runs")
    values, kinds = {}, {}
    for run in runs:
        if run.get("planted"):
            sys.exit("speed-gate-check: --record: a run with a planted slowdown cannot set floors")
        for target in run["targets"]:
            values.setdefault(target["key"], []).append(target["value"])
            kinds[target["key"]] = (target["kind"], target["bound"])
    out = [f"[{cpu}]"]
    for key, series in values.items():
        if key in portable:
            continue
        if len(series) != len(runs):
            sys.exit(f"speed-gate-check: --record: {key} is missing from some runs")
        median = statistics.median(series)
        kind, goal = kinds[key]
        if median == 0:
            worst = 0.8  # an exact count: noise 1
        elif kind == "at_least":
            worst = max(median / value if value > 0 else float("inf") for value in series)
        else:
            worst = max(value / median for value in series)
        noise = 1.0 if median == 0 else min(1.80, max(1.50, 1.25 * worst))
        shown = " ".join(f"{value:.3g}" for value in series)
        out.append(f"{key:<32} {median:<8.3g} {noise:<6.2f} # {kind} goal {goal:g}; {len(series)} runs: {shown}")
    return "\n".join(out)


def self_test():
    """The judging rules on made-up runs: each case must come out as stated."""
    import os
    import tempfile

    floors = (
        "[all]\nfacade 1.0 1.30\n"
        "[Vendor 1/2 avx2]\nbatch_vs_enum 60 1.60\n"
    )

    def target(key, value, kind="at_least", bound=1):
        return {"key": key, "value": value, "kind": kind, "bound": bound}

    cases = [
        ("recorded class, both within", "Vendor 1/2 avx2", [target("facade", 1.1, "at_most"), target("batch_vs_enum", 55)], 0),
        ("recorded class, the CPU target halved", "Vendor 1/2 avx2", [target("facade", 1.0, "at_most"), target("batch_vs_enum", 30)], 1),
        ("unseen class, the CPU target at a third: not judged", "Other 9/9 avx512", [target("facade", 1.0, "at_most"), target("batch_vs_enum", 20)], 0),
        ("unseen class, the portable target doubled", "Other 9/9 avx512", [target("facade", 2.0, "at_most"), target("batch_vs_enum", 60)], 1),
        ("a target no section has", "Other 9/9 avx512", [target("facade", 1.0, "at_most"), target("batch_vs_enum", 60), target("new", 1)], 1),
        ("recorded class, a CPU target missing from the run", "Vendor 1/2 avx2", [target("facade", 1.0, "at_most")], 1),
    ]
    problems = []
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "floors.txt")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(floors)
        sections = read_floors(path)
        for name, cpu, targets, expected in cases:
            _, failed, _, _ = judge(sections, {"targets": targets}, cpu)
            status = 1 if failed else 0
            if status != expected:
                problems.append(f"{name}: exit {status}, expected {expected} (failed: {failed})")
        runs = []
        for index, value in enumerate([10.0, 11.0, 9.0, 12.0, 8.0, 10.5]):
            run_path = os.path.join(scratch, f"run{index}.json")
            with open(run_path, "w", encoding="utf-8") as handle:
                json.dump({"targets": [target("batch_vs_enum", value), target("facade", 1.0, "at_most")]}, handle)
            runs.append(run_path)
        section = record(runs, "Vendor 1/2 avx2", {"facade"})
        line = section.splitlines()[1].split()
        # median 10.25, worst straying 10.25 / 8 = 1.28, times 1.25 = 1.60
        if section.splitlines()[0] != "[Vendor 1/2 avx2]" or line[0] != "batch_vs_enum" or line[1] != "10.2" or line[2] != "1.60":
            problems.append(f"--record wrote {section!r}")
        if "facade" in section:
            problems.append("--record wrote a target of [all]")
    if problems:
        print("speed-gate-check self-test: FAILED:\n  " + "\n  ".join(problems))
        return 1
    print(f"speed-gate-check self-test: {len(cases)} judging cases and the recording rule hold")
    return 0


def main(argv):
    args = argv[1:]
    if args == ["--self-test"]:
        return self_test()
    cpu = cpu_class()
    if "--cpu-class" in args:
        index = args.index("--cpu-class")
        if index + 1 >= len(args):
            print("speed-gate-check: --cpu-class needs a class", file=sys.stderr)
            return 2
        cpu = " ".join(args[index + 1].split())
        del args[index : index + 2]
    if args and args[0] == "--record":
        if len(args) < 3:
            print(__doc__, file=sys.stderr)
            return 2
        print(record(args[2:], cpu, set(read_floors(args[1]).get(ALL, {}))))
        return 0
    only_present = "--only-present" in args
    args = [a for a in args if a != "--only-present"]
    expected_failures = []
    while "--expect-fail" in args:
        index = args.index("--expect-fail")
        if index + 1 >= len(args):
            print("speed-gate-check: --expect-fail needs a target key", file=sys.stderr)
            return 2
        expected_failures.append(args[index + 1])
        del args[index : index + 2]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    return check(args[0], args[1], cpu, only_present, expected_failures)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
