#!/usr/bin/env python3
"""cputree.py OUT COMMAND...: runs COMMAND and writes "WALL CPU" (seconds) to OUT, where CPU is
the user + system time of COMMAND and of every process below it.

`time` cannot say this for Spark: PySpark's Python workers (and the errcat processes they start)
are children of a daemon that the JVM ends without waiting for it, so their CPU time never
reaches the JVM's rusage. This samples /proc every 100 ms instead: for every process that
descends from COMMAND, the largest own utime + stime seen. What a process spends after the last
sample before it ends (at most 100 ms each) and processes that live less than 100 ms are missed,
so the figure is a slight undercount. The larger of that sum and COMMAND's own rusage (exact, with
the children it waited for: all of it for a command without a daemon) is written. Linux only.
COMMAND's exit status is passed on.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

TICKS = os.sysconf("SC_CLK_TCK")


def snapshot() -> dict[int, tuple[int, int, int]]:
    """pid → (parent pid, start time, own utime + stime in ticks) of every process."""
    table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        # After the command name: state, ppid, … (stat fields 3, 4, …): utime and stime are
        # fields 14 and 15, the start time field 22.
        table[int(name)] = (int(fields[1]), int(fields[19]), int(fields[11]) + int(fields[12]))
    return table


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    out, command = argv[1], argv[2:]
    started = time.monotonic()
    process = subprocess.Popen(command)
    ended = threading.Event()
    result: list = []

    def wait() -> None:
        # Blocks until the command ends, so the wall time is exact, not rounded to a sample.
        _, status, usage = os.wait4(process.pid, 0)
        result.extend([time.monotonic(), status, usage])
        ended.set()

    threading.Thread(target=wait, daemon=True).start()
    # Processes are told apart by (pid, start time), so a pid used again by another process later
    # is not counted.
    family: set[tuple[int, int]] = set()
    cpu: dict[tuple[int, int], int] = {}
    while True:
        table = snapshot()
        if process.pid in table:
            family.add((process.pid, table[process.pid][1]))
        grew = True
        while grew:  # parents are often listed after their children: repeat until stable
            grew = False
            for pid, (parent, start, _) in table.items():
                if (pid, start) not in family and parent in table and (parent, table[parent][1]) in family:
                    family.add((pid, start))
                    grew = True
        for pid, (_, start, ticks) in table.items():
            if (pid, start) in family:
                cpu[(pid, start)] = max(cpu.get((pid, start), 0), ticks)
        if ended.wait(0.1):
            break
    finished, status, usage = result
    wall = finished - started
    # The command's own rusage, with the children it waited for, is exact; it is all there is for
    # a short command (errcat alone), and less than the samples' sum for Spark (no workers in it).
    exact = usage.ru_utime + usage.ru_stime + 0.0
    sampled = sum(cpu.values()) / TICKS
    with open(out, "w") as handle:
        handle.write(f"{wall:.2f} {max(exact, sampled):.2f}\n")
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
