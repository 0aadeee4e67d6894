#!/usr/bin/env python3
"""facets.py -- one-word searches with a filter (--game, --kind, --lang, a
tag) at the text output, whose "20 of N" total is counted: this build
against a baseline build in the same rounds (issue 16 point 1; the counts
per game and kind of schema 18).

Usage:
  bench/facets.py --db DB --rulings BUILD/rulings --baseline OTHER/rulings
                  --baseline-db OTHER.db [--runs 7] --words W1,W2,...
                  [--tag TAG] [--no-check]

Each search is a new process (`rulings search WORD FILTER`, text output,
limit 20); the CPU time (user + system) of each, p50 of --runs runs,
interleaved with the baseline's. The baseline searches its own copy
(--baseline-db: a build of an older schema cannot open DB). Unless
--no-check, each search's answer (--format json: ids, scores and total)
is compared once with the same build's RULINGS_TOPK=off (every match
scored, the total by the join). Prints a Markdown table; read the
ratios (baseline/this), not the milliseconds, on a shared machine.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess


def run(cmd, env=None):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env=env)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, 1):
        raise SystemExit("failed (%d): %s" % (p.returncode, " ".join(cmd)))
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def answer(cmd, env=None):
    p = subprocess.run(cmd + ["--format", "json"], capture_output=True,
                       text=True, env=env)
    if p.returncode not in (0, 1):
        raise SystemExit("failed (%d): %s" % (p.returncode, " ".join(cmd)))
    d = json.loads(p.stdout or '{"results": []}')
    return (d.get("total"), [(r["id"], r.get("score"))
                             for r in d.get("results", [])])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--rulings", required=True)
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--baseline-db", required=True)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--words", required=True)
    ap.add_argument("--tag")
    ap.add_argument("--filters", help="';'-separated filters instead of"
                    " the default ones (each split at spaces, '+' for a"
                    " space in a name)")
    ap.add_argument("--no-check", action="store_true")
    a = ap.parse_args()
    if a.filters:
        filters = [[x.replace("+", " ") for x in f.split()]
                   for f in a.filters.split(";")]
    else:
        filters = [["--game", "Spirit Island"], ["--game", "Generated FAQ"],
                   ["--kind", "faq"], ["--kind", "errata"], ["--lang", "fr"]]
        if a.tag:
            filters.append(["--tag", a.tag])
    off = dict(os.environ, RULINGS_TOPK="off")
    print("| word | filter | total | this ms | baseline ms | baseline/this |"
          " same as RULINGS_TOPK=off |  (CPU ms, p50 of %d)" % a.runs)
    print("|---|---|---:|---:|---:|---:|---|")
    for w in a.words.split(","):
        for f in filters:
            this = [a.rulings, "--db", a.db, "search", w] + f
            base = [a.baseline, "--db", a.baseline_db, "search", w] + f
            x, y = [], []
            for _ in range(a.runs):
                x.append(run(this))
                y.append(run(base))
            total, rows = answer(this)
            same = "-"
            if not a.no_check:
                same = "yes" if answer(this, off) == (total, rows) else "NO"
            fx, fy = (statistics.median(v) * 1e3 for v in (x, y))
            print("| `%s` | `%s` | %s | %.1f | %.1f | %.2f | %s |"
                  % (w, " ".join(f), total, fx, fy, fy / fx, same),
                  flush=True)


if __name__ == "__main__":
    main()
