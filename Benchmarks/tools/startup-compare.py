#!/usr/bin/env python3
"""Start-up time of whole commands, side by side.

usage: Benchmarks/tools/startup-compare.py [--runs N] [--warmup N] LABEL=COMMAND...

Each COMMAND is run N times (30 by default), the commands taking turns so that machine noise
falls on all of them alike; stdout and stderr go to /dev/null. Prints, per command, the median
and the quartiles of the wall time in milliseconds, and each median's ratio to the first one's.
A command that exits non-zero stops the comparison.
"""
import shlex
import statistics
import subprocess
import sys
import time


def main(argv):
    runs, warmup, commands = 30, 3, []
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg in ("--runs", "--warmup"):
            if not args or not args[0].isdigit():
                sys.exit(f"startup-compare: {arg} needs a count")
            value = int(args.pop(0))
            if arg == "--runs":
                runs = value
            else:
                warmup = value
        elif "=" in arg:
            label, command = arg.split("=", 1)
            commands.append((label, shlex.split(command)))
        else:
            sys.exit(__doc__.strip())
    if not commands or runs < 1:
        sys.exit(__doc__.strip())
    times = {label: [] for label, _ in commands}
    for index in range(warmup + runs):
        for label, command in commands:
            start = time.perf_counter()
            status = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
            elapsed = (time.perf_counter() - start) * 1000
            if status != 0:
                sys.exit(f"startup-compare: {label} exited with {status}: {shlex.join(command)}")
            if index >= warmup:
                times[label].append(elapsed)
    first = statistics.median(times[commands[0][0]])
    print(f"{'command':<24} {'median ms':>10} {'p25':>8} {'p75':>8} {'ratio':>7}   ({runs} runs each, alternating)")
    for label, _ in commands:
        samples = sorted(times[label])
        median = statistics.median(samples)
        q = statistics.quantiles(samples, n=4) if len(samples) > 1 else [median, median, median]
        print(f"{label:<24} {median:>10.2f} {q[0]:>8.2f} {q[2]:>8.2f} {median / first:>7.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
