#!/usr/bin/env python3
"""topk.py -- top-20 searches with and without the champion lists (issue 16
point 1), against `rg -cw` over the same dump, in one run.

Usage:
  bench/topk.py --db DB --dump DIR [--rulings BUILD/rulings] [--runs 11]
                [--words W1,W2,...] [--baseline OTHER/rulings]
                [--baseline-db OTHER.db]

DB is a database the dump DIR was imported into (bench/gen_faq.py, then
`rulings import --bulk DIR`). Words: the most common content word of the
English table (the term in most rulings that is not a stop word), and a
word in about 2 % of the rulings, neither widened by the thesaurus; then
several terms: the most common word the thesaurus widens (`power`: also
Spirit Island's "Pouvoir") and the most common one in fewer than half of
the rulings (`damage`: "Dégâts"), and pairs (all words: both required):
that one with the ~2 % word, the two most common plain words in fewer
than half of the rulings, the common word with it; or the words --words
names (a rare word has no list: FTS5 scores its few matches). Each
search is a new process (`rulings search WORDS`, text output, limit 20): with the lists (the
default) and with RULINGS_TOPK=off (every match scored), `rg -cw WORD
DIR` (one -e per term of the search: every term's lines, what an
all-words search must at least read), the bare SQL of FTS5's own top 20 in the sqlite3 shell (the
English table, the extension loaded, the search's own MATCH expression
as `--explain` shows it: `SELECT rowid ... ORDER BY
bm25(...) LIMIT 20`, which scores every match and reads no ruling) and
`sqlite3 DB 'select 1'` (a process that opens the database); the CPU time (user + system) of each process, p50 of --runs runs,
interleaved so that the machine's load falls on all three alike. With
--baseline, the same search by another build (main's release build, say:
`git archive main` built apart) is run in the same rounds too, and its
CPU p50 and its ratio to this build's are added; with --baseline-db,
the baseline searches that database instead (a copy of DB as it was
before a change to the database itself, such as `rulings reindex`
merging the indexes into one segment each). Prints a Markdown
table; ratios are what to read on a shared machine.
"""
import argparse
import os
import resource
import sqlite3
import statistics
import subprocess
import time

wall = {}   # the wall times of each program, for the lists and rg columns

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
STOP = set("a an and are as at be but by can do does for from has have how i "
           "if in into is it its of on or than that the their then there these "
           "this to was what when where which who why will with you your "
           "not no any all each one may other".split())


def thesaurus(rulings, db, word):
    """Whether the search of word is more than one FTS5 string (the
    thesaurus widens it): the lists do not answer those."""
    out = subprocess.run([rulings, "--db", db, "search", "--explain", word],
                         capture_output=True, text=True).stdout
    return 'match: "%s"' % word not in out


def match_of(rulings, db, ws):
    """The FTS5 expression the search of ws runs (--explain)."""
    out = subprocess.run([rulings, "--db", db, "search", "--explain"] + ws,
                         capture_output=True, text=True).stdout
    return next(l[7:] for l in out.splitlines() if l.startswith("match: "))


def words(rulings, db):
    c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    n = c.execute("SELECT rows FROM topk_state WHERE tbl = 'en'").fetchone()[0]
    terms = c.execute("SELECT term, docs FROM topk_terms WHERE tbl = 'en'"
                      " ORDER BY docs DESC").fetchall()
    content = [(t, d) for t, d in terms if t not in STOP and t.isalpha()]
    plain = [(t, d) for t, d in content[:40] if not thesaurus(rulings, db, t)]
    common = plain[0]
    medium = min((t for t in terms if t[0].isalpha() and t[0] not in STOP
                  and abs(t[1] - 0.02 * n) < 0.01 * n
                  and not thesaurus(rulings, db, t[0])),
                 key=lambda t: abs(t[1] - 0.02 * n))
    # the most common widened word, and the most common one in fewer than
    # half of the rulings (bm25's idf is floored at 1e-6 above: all such
    # words score near 0 and nearly tie)
    widened = next((t, d) for t, d in content if thesaurus(rulings, db, t))
    wide2 = next((t, d) for t, d in content
                 if d < n / 2 and thesaurus(rulings, db, t))
    half = [(t, d) for t, d in plain if d < n / 2]
    pair = lambda x, y: ("%s %s" % (x[0], y[0]), None)
    return n, [("common", common), ("~2 %", medium),
               ("widened", widened), ("widened", wide2),
               ("all words", pair(wide2, medium)),
               ("all words", pair(half[0], half[1])),
               ("all words", pair(common, wide2))]


def docs(db, word, ext):
    """The English rulings that hold word (FTS5's count)."""
    c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    r = c.execute("SELECT docs FROM topk_terms WHERE tbl = 'en' AND term = ?",
                  (word.lower(),)).fetchone()
    if r:
        return r[0]
    out = subprocess.run(["sqlite3", db, ".load " + ext,
                          "SELECT count(*) FROM rulings_fts_en WHERE"
                          " rulings_fts_en MATCH '\"%s\"'" % word],
                         capture_output=True, text=True).stdout.strip()
    return int(out or 0)


def run(cmd, env=None):
    """CPU seconds (user + system) of one run of cmd: on a shared machine
    the wall clock measures the other processes too."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env=env)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall.setdefault(cmd[0] + (" off" if env else ""), []).append(
        time.monotonic() - t0)
    if p.returncode not in (0, 1):
        raise SystemExit("failed (%d): %s" % (p.returncode, " ".join(cmd)))
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--dump", required=True)
    ap.add_argument("--rulings", default=os.path.join(ROOT, "build", "rulings"))
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--sqlite3", default="sqlite3")
    ap.add_argument("--words", help="comma-separated words instead of the"
                    " common and the ~2 %% word")
    ap.add_argument("--baseline", help="another build's rulings, run with"
                    " the lists too (CPU p50 and baseline/lists added)")
    ap.add_argument("--baseline-db", help="the database the baseline"
                    " searches (default: DB)")
    a = ap.parse_args()
    ext = os.path.join(os.path.dirname(os.path.abspath(a.rulings)),
                       "rulings_fts")
    if a.words:
        c = sqlite3.connect("file:%s?mode=ro" % a.db, uri=True)
        n = c.execute("SELECT rows FROM topk_state WHERE tbl = 'en'"
                      ).fetchone()[0]
        ws = [("", (w, None if " " in w else docs(a.db, w, ext)))
              for w in a.words.split(",")]
    else:
        n, ws = words(a.rulings, a.db)
    off = dict(os.environ, RULINGS_TOPK="off")
    print("English rulings: %d\n" % n)
    print("| word | rulings holding it (en) | lists ms | exhaustive ms |"
          " `rg -cw` ms | bare SQL ms | `select 1` ms | exhaustive/lists |"
          " rg/lists | lists wall ms | rg wall ms | rg/lists wall |"
          + (" baseline ms | baseline/lists |" if a.baseline else "")
          + "  (CPU ms, p50; wall p50)")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
          + ("---:|---:|" if a.baseline else ""))
    for label, (w, d) in ws:
        fast, slow, rg, sql, one, base = [], [], [], [], [], []
        wall.clear()
        search = [a.rulings, "--db", a.db, "search"] + w.split()
        m = match_of(a.rulings, a.db, w.split())
        pats = [x for x in m.replace("(", " ").replace(")", " ").split()
                if x.startswith('"')]
        grep = ["rg", "-cw"] + [y for x in pats for y in ("-e", x.strip('"'))]
        bare = [a.sqlite3, a.db, ".load " + ext,
                "SELECT rowid FROM rulings_fts_en WHERE rulings_fts_en MATCH"
                " '%s' ORDER BY bm25(rulings_fts_en, 4.0, 1.0) LIMIT 20"
                % m.replace("'", "''")]
        for _ in range(a.runs):
            fast.append(run(search))
            slow.append(run(search, off))
            rg.append(run(grep + [a.dump]))
            sql.append(run(bare))
            one.append(run([a.sqlite3, a.db, "select 1"]))
            if a.baseline:
                base.append(run([a.baseline, "--db", a.baseline_db or a.db]
                                + search[3:]))
        f, s, r, q, o = (statistics.median(x) * 1e3
                         for x in (fast, slow, rg, sql, one))
        fw = statistics.median(wall[a.rulings]) * 1e3
        rw = statistics.median(wall["rg"]) * 1e3
        b = (" %.1f | %.2f |" % (statistics.median(base) * 1e3,
                                 statistics.median(base) * 1e3 / f)
             if a.baseline else "")
        print("| %s `%s` | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f"
              " | %.1f | %.1f | %.2f |%s"
              % (label, w, "-" if d is None else d, f, s, r, q, o, s / f,
                 r / f, fw, rw, rw / fw, b))


if __name__ == "__main__":
    main()
