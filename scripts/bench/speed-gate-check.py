#!/usr/bin/env python3
"""speed-gate-check.py: judges one `compare --json` run against the levels held today.

Every target `compare` reports (a ratio of two medians of the same process, or an allocation
count) is looked up in the floors file (speed-gate-floors.txt beside this script), which records
for each target the level held today and the noise factor measured for it. A target fails when
it is worse than its floor by more than its noise factor:

  at_least targets (speed-ups): value < floor / noise  fails
  at_most targets (times a reference, allocations): value > floor * noise  fails

So a change that halves a speed-up (or doubles a time ratio) fails whenever the noise factor is
below 2. The goal `compare` states is printed beside each target; a target below its goal that
does not fail is reported as a miss, and so is a floor below the goal (a goal not met today).

usage: speed-gate-check.py FLOORS RESULT.json [--only-present] [--expect-fail KEY ...]
  --only-present   judge only the targets in the run (the self-test measures a few); otherwise a
                   target in the floors file that the run lacks fails, and so does one the run has
                   that the floors file lacks
  --expect-fail K  the self-test: exit 0 only when every K fails (and print what the gate said)

Exit status: 0 when nothing fails (or, with --expect-fail, when the expected targets fail),
1 otherwise, 2 on bad input.
"""

import json
import sys


def read_floors(path):
    floors = {}
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            fields = text.split()
            if len(fields) != 3:
                sys.exit(f"speed-gate-check: {path}:{number}: expected KEY FLOOR NOISE, found {line.strip()!r}")
            key, floor, noise = fields
            try:
                floors[key] = (float(floor), float(noise))
            except ValueError:
                sys.exit(f"speed-gate-check: {path}:{number}: FLOOR and NOISE must be numbers: {line.strip()!r}")
            if floors[key][1] < 1:
                sys.exit(f"speed-gate-check: {path}:{number}: NOISE is a factor of at least 1")
    return floors


def main(argv):
    args = argv[1:]
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
    floors = read_floors(args[0])
    with open(args[1], encoding="utf-8") as handle:
        run = json.load(handle)
    if run.get("planted") and not expected_failures:
        print(f"speed-gate-check: the run has a planted slowdown ({run['planted']}); only a self-test judges it")
        return 1

    failed, missed, lines = [], [], []
    seen = set()
    for target in run["targets"]:
        key, value, goal, kind = target["key"], target["value"], target["bound"], target["kind"]
        seen.add(key)
        if key not in floors:
            failed.append(key)
            lines.append(f"  FAIL   {key}: {value:g}, goal {goal:g}: no floor recorded in the floors file")
            continue
        floor, noise = floors[key]
        if kind == "at_least":
            limit = floor / noise
            fails = not value >= limit
            below_goal = value < goal
            relation = f">= {goal:g}"
        else:
            limit = floor * noise
            fails = not value <= limit
            below_goal = value > goal
            relation = f"<= {goal:g}"
        floor_missing_goal = floor < goal if kind == "at_least" else floor > goal
        status = "FAIL" if fails else ("miss" if below_goal else "ok")
        note = f"goal {relation}"
        if floor_missing_goal:
            note += f" (not met today: gated at the level held, {floor:g})"
        line = f"  {status:<6} {key}: {value:.3g}, floor {floor:g}, fails {'below' if kind == 'at_least' else 'above'} {limit:.3g}; {note}"
        lines.append(line)
        if fails:
            failed.append(key)
        elif below_goal:
            missed.append(key)
    if not only_present:
        for key in sorted(set(floors) - seen):
            failed.append(key)
            lines.append(f"  FAIL   {key}: the floors file has it, the run does not")

    print("\n".join(lines))
    print(
        f"speed gate: {len(seen)} targets, {len(failed)} failed, {len(missed)} below the goal within the noise"
        + (f" (planted: {run['planted']})" if run.get("planted") else "")
    )
    if expected_failures:
        caught = [key for key in expected_failures if key in failed]
        if len(caught) == len(expected_failures):
            print(f"speed gate self-test: the planted slowdown fails {', '.join(caught)}, as it must")
            return 0
        print(f"speed gate self-test: FAILED: the plant should fail {', '.join(expected_failures)}; failed: {failed}")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
