#!/usr/bin/env python3
"""startup.py -- the cost of starting rulings as a whole process (issue 16,
point 3).

Usage: bench/startup.py [--build DIR] [--runs 200] [--db FILE] [--word W]
                        [--tag T] [--other NAME=PATH]...

Side by side in one run, each command --runs times, every run a new
process, the commands interleaved (one run of each in turn, so that the
machine's load falls on all of them alike):
  sqlite3 DB 'select 1'                  the baseline: SQLite's own shell
  rulings --version                      start and exit
  rulings --db DB search WORD            a search on a small database
  rulings --db DB export --tag T --format txt -o -   a text export
  rulings --db DB export --all --format xml -o -   the XML module opened
  NAME --version, NAME search WORD       --other's binary, likewise
For each: the mean CPU time (user + system, of the child, from wait4),
the median wall time, the mean minor page faults, and the ratio of CPU
and wall to the baseline's. DB defaults to the seed documents (data/)
imported into a new database under a temporary directory.
Not a test: timings depend on the machine; compare ratios of one run.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run_once(argv):
    # posix_spawn, not fork + exec: see bench/procs.py
    actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDWR, 0),
               (os.POSIX_SPAWN_DUP2, 0, 1), (os.POSIX_SPAWN_DUP2, 0, 2)]
    t0 = time.perf_counter()
    pid = os.posix_spawn(shutil.which(argv[0]) or argv[0], argv, os.environ,
                         file_actions=actions)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    return code, ru.ru_utime + ru.ru_stime, wall, ru.ru_minflt


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--build", default=os.path.join(root, "build"))
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--db")
    ap.add_argument("--word", default="defend")
    ap.add_argument("--tag", default="Repeat")
    ap.add_argument("--other", action="append", default=[],
                    metavar="NAME=PATH",
                    help="another rulings binary (an older build) whose "
                         "--version and search run beside")
    a = ap.parse_args()
    rulings = os.path.join(a.build, "rulings")
    sqlite3 = shutil.which("sqlite3")
    if not sqlite3:
        sys.exit("startup.py: sqlite3 (the shell) is needed for the baseline")
    tmp = tempfile.mkdtemp(prefix="rulings-startup-")
    try:
        db = a.db
        if not db:
            db = os.path.join(tmp, "small.db")
            subprocess.run([rulings, "--db", db, "import",
                            os.path.join(root, "data")],
                           check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        cmds = [
            ("sqlite3 DB 'select 1'", [sqlite3, db, "select 1"]),
            ("rulings --version", [rulings, "--version"]),
            ("rulings search " + a.word,
             [rulings, "--db", db, "search", a.word]),
            ("rulings export --tag " + a.tag + " --format txt",
             [rulings, "--db", db, "export", "--tag", a.tag, "--format",
              "txt", "-o", "-"]),
            ("rulings export --format xml",
             [rulings, "--db", db, "export", "--all", "--format", "xml",
              "-o", "-"]),
        ]
        for other in a.other:
            name, _, path = other.partition("=")
            cmds += [(name + " --version", [path, "--version"]),
                     (name + " search " + a.word,
                      [path, "--db", db, "search", a.word])]
        res = {name: [] for name, _ in cmds}
        for name, argv in cmds:          # warm the page cache
            code = run_once(argv)[0]
            if code != 0:
                sys.exit(f"startup.py: {name} exited {code}")
        for _ in range(a.runs):
            for name, argv in cmds:
                res[name].append(run_once(argv)[1:])
        base_cpu = statistics.mean(r[0] for r in res[cmds[0][0]])
        base_wall = statistics.median(r[1] for r in res[cmds[0][0]])
        print(f"{a.runs} runs each, interleaved; DB {db}")
        print()
        print("| command | CPU ms (mean) | wall ms (p50) | minor faults "
              "| CPU / sqlite3 | wall / sqlite3 |")
        print("|---|---:|---:|---:|---:|---:|")
        for name, _ in cmds:
            cpu = statistics.mean(r[0] for r in res[name])
            wall = statistics.median(r[1] for r in res[name])
            flt = statistics.mean(r[2] for r in res[name])
            print(f"| `{name}` | {cpu * 1000:.2f} | {wall * 1000:.2f} "
                  f"| {flt:.0f} | {cpu / base_cpu:.2f}x "
                  f"| {wall / base_wall:.2f}x |")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
