#!/usr/bin/env python3
"""import_copy.py -- an import against the storage-only copy of its rows
(issue 16 point 2), interleaved, on a loaded machine.

Usage: bench/import_copy.py --dump DIR [--rulings BUILD/rulings]
                            [--baseline OTHER/rulings] [--runs 3]
                            [--tmp DIR] [--group-seconds 86400]

Each run, one after the other: `rulings --db X import --bulk=S DIR --quiet`
with --baseline's binary (if given), then with --rulings', then
bench/bulk.py's (b'), its copy_cmd(): every row of the latter's database
copied with INSERT ... SELECT into an empty rulings database (one
transaction, the four full-text tables last), in the sqlite3 shell with
the rulings_fts extension beside --rulings. Prints CPU (user + system), wall and peak RSS
of each, and copy/import by CPU: the ratio the issue's target is set in
(>= 0.8x). One group (--group-seconds 86400) makes the work the same
whatever the load. The databases are removed after each run.
"""
import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bulk import copy_cmd  # noqa: E402  (b'), the one storage-only copy


def timed(cmd):
    t0 = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M %U %S"] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.stderr.write(p.stderr.decode())
        raise SystemExit("failed: %s" % " ".join(cmd))
    rss, user, system = p.stderr.decode().strip().splitlines()[-1].split()
    return dict(wall=wall, cpu=float(user) + float(system), user=float(user),
                sys=float(system), rss=int(rss) / 1024)


def rm(db):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dump", required=True)
    ap.add_argument("--rulings", default="build-rel/rulings")
    ap.add_argument("--baseline")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--tmp", default="/tmp/rulings-import-copy")
    ap.add_argument("--group-seconds", type=int, default=86400)
    a = ap.parse_args()
    os.makedirs(a.tmp, exist_ok=True)
    ours = os.path.abspath(a.rulings)
    empty = os.path.join(a.tmp, "empty")
    os.makedirs(empty, exist_ok=True)
    print("| run | what | wall s | CPU s (user+sys) | peak RSS MB |"
          " copy/import CPU |")
    print("|---:|---|---:|---:|---:|---:|")
    for run in range(1, a.runs + 1):
        rows = []
        out = {}
        for name, binary in (("baseline", a.baseline), ("import", ours)):
            if not binary:
                continue
            db = os.path.join(a.tmp, name + ".db")
            rm(db)
            out[name] = timed([os.path.abspath(binary), "--db", db, "import",
                               "--bulk=%d" % a.group_seconds, a.dump,
                               "--quiet"])
            if name == "baseline":
                rm(db)
        src = os.path.join(a.tmp, "import.db")
        dst = os.path.join(a.tmp, "copy.db")
        rm(dst)
        subprocess.run([ours, "--db", dst, "import", "--quiet", empty],
                       check=True)
        out["copy"] = timed(copy_cmd(
            os.path.join(os.path.dirname(ours), "rulings_fts"), src, dst))
        rm(dst)
        rm(src)
        for name in ("baseline", "import", "copy"):
            if name not in out:
                continue
            r = out[name]
            ratio = "%.2fx" % (out["copy"]["cpu"] / r["cpu"])
            print("| %d | %s | %.1f | %.2f (%.2f+%.2f) | %.1f | %s |" % (
                run, name, r["wall"], r["cpu"], r["user"], r["sys"], r["rss"],
                ratio), flush=True)


if __name__ == "__main__":
    main()
