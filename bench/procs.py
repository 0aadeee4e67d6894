#!/usr/bin/env python3
"""procs.py -- the CPU time of whole processes, side by side (issue 16,
point 3).

Usage: bench/procs.py RUNS LABEL=COMMAND [LABEL=COMMAND]...

Each COMMAND (split as a shell would, not run by one) is run RUNS times,
every run a new process, the commands interleaved (one run of each in
turn, after one run of each to warm the page cache), its output thrown
away. For each: the mean and median CPU time (user + system of the child,
from wait4, as bench/startup.py counts it) and their ratios to the first
command's. Exit status 0 or 1 (no match) is expected; any other stops it.
Not a test: compare ratios of one run. For instructions, which the
machine's load does not change, see bench/RESULTS.md (callgrind).
"""
import os
import shlex
import statistics
import sys


def run_once(argv):
    pid = os.fork()
    if pid == 0:
        try:
            fd = os.open(os.devnull, os.O_RDWR)
            for i in (0, 1, 2):
                os.dup2(fd, i)
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"procs.py: {' '.join(argv)} exited {code}")
    return (ru.ru_utime + ru.ru_stime) * 1000


def main():
    if len(sys.argv) < 3 or not sys.argv[1].isdigit():
        sys.exit(__doc__.split("\n\n")[1])
    runs = int(sys.argv[1])
    cmds = []
    for spec in sys.argv[2:]:
        label, sep, cmd = spec.partition("=")
        if not sep or not cmd:
            sys.exit(f"procs.py: not LABEL=COMMAND: {spec}")
        cmds.append((label, shlex.split(cmd)))
    res = {label: [] for label, _ in cmds}
    for _, argv in cmds:
        run_once(argv)
    for _ in range(runs):
        for label, argv in cmds:
            res[label].append(run_once(argv))
    first = cmds[0][0]
    b_mean = statistics.mean(res[first])
    b_p50 = statistics.median(res[first])
    print(f"{runs} runs each, interleaved")
    print()
    print(f"| command | CPU ms mean | CPU ms p50 | mean / {first} "
          f"| p50 / {first} |")
    print("|---|---:|---:|---:|---:|")
    for label, _ in cmds:
        m = statistics.mean(res[label])
        p = statistics.median(res[label])
        print(f"| {label} | {m:.2f} | {p:.2f} | {m / b_mean:.2f} "
              f"| {p / b_p50:.2f} |")


if __name__ == "__main__":
    main()
