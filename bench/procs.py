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
import shutil
import statistics
import sys


def run_once(argv):
    # posix_spawn (vfork-like), not fork + exec: a forked child of this
    # Python is charged with copying its page tables and the writes of
    # Python's own code before exec, 6 ms a run on a machine of session
    # 15 (/bin/true 7.4 ms that way, 1.5 ms spawned): every ratio pulled
    # towards 1.
    path = shutil.which(argv[0])
    if path is None:
        sys.exit(f"procs.py: {argv[0]}: not found")
    actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDWR, 0),
               (os.POSIX_SPAWN_DUP2, 0, 1), (os.POSIX_SPAWN_DUP2, 0, 2)]
    pid = os.posix_spawn(path, argv, os.environ, file_actions=actions)
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
