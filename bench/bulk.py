#!/usr/bin/env python3
"""bulk.py -- bulk import, search, tag and changed benchmarks (issue 5).

Usage: bench/bulk.py [--build DIR] [--sizes 10000,100000] [--runs 11]
                     [--tmp DIR] [--keep] [--dump N=DIR]...
                     [--per-doc-max N] [--changed-size N] [--group-seconds S]

For each size N, in one run, side by side:
  (a) `rulings --db X import --bulk=S DIR --quiet` on a bench/gen_faq.py
      dump of N entries (or the one --dump N=DIR names): wall time, CPU
      time, rulings rows/s, peak RSS (/usr/bin/time -f %M); up to --per-doc-max entries
      also the default import, one transaction per document;
  (b) the floor: the same rulings' (title, body), read back from X, inserted
      with plain SQL (one transaction) into the four rulings_fts_* tables of
      an empty rulings database, in the sqlite3 shell with
      `.load BUILD/rulings_fts`: rows/s;
  (c) ranked search for a rare, a medium and a common word (chosen by their
      document frequency in the dump): `rulings search WORD --limit 20` vs
      the bare top-20 bm25 SQL in the sqlite3 shell (the same UNION ALL over
      the four tables, weights 4/1, joined to rulings) vs the bare SQL plus
      what rulings also computes (snippet() and the count of matches) vs
      `rg -cw WORD DIR`: p50 of --runs runs each, every one a new process;
  (d) `rulings search --tag T` for a typical page tag and the most used tag:
      p50;
  (b') every row the import wrote, copied with INSERT ... SELECT into an
      empty database (the storage alone, no parsing or lookups): wall and
      CPU time, and their ratios to (a);
  (e) at --changed-size entries: a dump mutated by `gen_faq.py --mutate 0.05`
      imported on top, then `rulings changed --between A B` (A = the last
      import of the first dump, B = the last of the second): wall time.
Prints a Markdown table; the raw numbers go to TMP/bulk-results.json.
Temporary data goes under --tmp (default /tmp/rulings-bulk), removed at the
end unless --keep. Not a test: timings depend on the machine.
"""
import argparse
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def timed_cpu(cmd, stdin=None):
    """Wall seconds, peak RSS (KiB) and CPU seconds (user + system) of one
    run of cmd. On a loaded machine the wall time is mostly waiting: the
    CPU time is what compares."""
    t0 = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M %U %S"] + cmd,
                       stdin=stdin, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    dt = time.perf_counter() - t0
    if p.returncode not in (0, 1):   # 1: rulings found nothing / rg no match
        sys.stderr.write(p.stderr.decode())
        raise SystemExit("failed: %s" % " ".join(cmd))
    rss, user, system = p.stderr.decode().strip().splitlines()[-1].split()
    return dt, int(rss), float(user) + float(system)


def timed(cmd, stdin=None):
    """Wall seconds and peak RSS (KiB) of one run of cmd."""
    return timed_cpu(cmd, stdin)[:2]


def p50(cmd, runs):
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        ts.append(time.perf_counter() - t0)
        if p.returncode not in (0, 1):
            raise SystemExit("failed (%d): %s" % (p.returncode, " ".join(cmd)))
    return statistics.median(ts)


def sql_str(s):
    return "'" + s.replace("'", "''") + "'"


BARE = ("SELECT r.id, r.title, m.score FROM ({u}) m JOIN rulings r"
        " ON r.id = m.rid ORDER BY m.score, r.id LIMIT 20;")
BARE_FULL = ("SELECT r.id, r.title, m.score, m.snip FROM ({u}) m JOIN rulings"
             " r ON r.id = m.rid ORDER BY m.score, r.id LIMIT 20;"
             " SELECT count(*) FROM ({c}) m JOIN rulings r ON r.id = m.rid;")


def union(word, scored, snip=False):
    parts = []
    for l in ("en", "fr", "ru", "xx"):
        t = "rulings_fts_" + l
        cols = "rowid AS rid"
        if scored:
            cols += ", bm25(%s, 4.0, 1.0) AS score" % t
        if snip:
            cols += ", snippet(%s, -1, '[', ']', '...', 24) AS snip" % t
        parts.append("SELECT %s FROM %s WHERE %s MATCH '\"%s\"'" % (
            cols, t, t, word))
    return " UNION ALL ".join(parts)


def pick_words(db, n):
    """Rare, medium and common ASCII words by document frequency."""
    df = {}
    con = sqlite3.connect(db)
    wre = re.compile(r"[A-Za-z]{4,}")
    for title, body in con.execute("SELECT title, body FROM rulings"):
        for w in set(wre.findall(title + " " + body)):
            df[w] = df.get(w, 0) + 1
    con.close()
    want = {"rare": max(3, n // 5000), "medium": n // 50, "common": n // 4}
    out = {}
    for k, target in want.items():
        # lower-case words for medium/common, a name for rare; closest DF
        cands = [(abs(c - target), w) for w, c in df.items()
                 if (w[0].isupper() and w[1:].islower()) == (k == "rare")
                 and (k == "rare" or w.islower())]
        d, w = min(cands)
        out[k] = (w, df[w])
    return out


def copy_cmd(ext, src, dst):
    """(b'), the storage-only copy: the sqlite3 command that copies every
    row of rulings database src with INSERT ... SELECT into dst, an empty
    rulings database (`rulings --db DST import EMPTY_DIR`), in one
    transaction, the four full-text tables last; ext is the rulings_fts
    extension (BUILD/rulings_fts). Also bench/import_copy.py's baseline."""
    tables = [t for (t,) in sqlite3.connect(src).execute(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT"
        " LIKE 'sqlite_%' AND name NOT LIKE 'rulings_fts_%'"
        " AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY rootpage")]
    sql = ["ATTACH '%s' AS src;" % src, "BEGIN;"]
    # a new database already has some rows (the games table's, the
    # thesaurus'): the copy replaces them
    sql += ["DELETE FROM main.%s; INSERT INTO main.%s SELECT * FROM src.%s;"
            % (t, t, t) for t in tables]
    for l in ("en", "fr", "ru", "xx"):
        cond = ("lang = '%s'" % l if l != "xx"
                else "lang NOT IN ('en', 'fr', 'ru')")
        sql.append("INSERT INTO rulings_fts_%s(rowid, title, body) SELECT"
                   " id, title, body FROM main.rulings WHERE %s;" % (l, cond))
    sql.append("COMMIT;")
    return ["sqlite3", "-bail", "-cmd", ".load " + ext, dst, "\n".join(sql)]


def bench_size(a, n, res):
    tmp = a.tmp
    rulings = os.path.join(a.build, "rulings")
    ext = os.path.join(a.build, "rulings_fts")
    d1 = os.path.join(tmp, "dump-%d" % n)
    db = os.path.join(tmp, "r-%d.db" % n)
    floor_db = os.path.join(tmp, "floor-%d.db" % n)
    r = res.setdefault(str(n), {})
    t0 = time.perf_counter()
    given = a.dump.get(n)
    if given:
        d1 = given
    else:
        sh([sys.executable, os.path.join(HERE, "gen_faq.py"), "--entries",
            str(n), "--seed", "1", "--out", d1])
    r["gen_s"] = time.perf_counter() - t0
    r["dump_mb"] = sum(os.path.getsize(os.path.join(d1, f))
                       for f in os.listdir(d1)) / 1e6
    r["pages"] = len([f for f in os.listdir(d1) if f.endswith(".txt")])
    sh(["sync"])

    # (a) import
    for f in (db, floor_db):
        if os.path.exists(f):
            os.remove(f)
    if n <= a.per_doc_max:
        # one transaction per document, the default
        one_db = db + ".one"
        dt1, rss1 = timed([rulings, "--db", one_db, "import", d1, "--quiet"])
        r.update(one_s=dt1, one_rss_mb=rss1 / 1024)
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(one_db + suffix):
                os.remove(one_db + suffix)
    dt, rss, cpu = timed_cpu([rulings, "--db", db, "import", "--bulk=%d"
                              % a.group_seconds, d1, "--quiet"])
    con = sqlite3.connect(db)
    rows = con.execute("SELECT count(*) FROM rulings").fetchone()[0]
    last_import = con.execute("SELECT max(id) FROM imports").fetchone()[0]
    top_tag = con.execute(
        "SELECT t.name || CASE t.qualifier WHEN '' THEN '' ELSE"
        " ' (' || t.qualifier || ')' END, count(*) FROM ruling_tags rt"
        " JOIN tags t ON t.id = rt.tag_id GROUP BY rt.tag_id"
        " ORDER BY 2 DESC LIMIT 1").fetchone()
    page_tag = con.execute(
        "SELECT title FROM documents ORDER BY id LIMIT 1 OFFSET ?",
        (r["pages"] // 2,)).fetchone()[0]
    page_tag_n = con.execute(
        "SELECT count(DISTINCT rt.ruling_id) FROM ruling_tags rt JOIN"
        " tags t ON t.id = rt.tag_id WHERE t.name_fold || CASE t.qual_fold"
        " WHEN '' THEN '' ELSE ' (' || t.qual_fold || ')' END = lower(?)",
        (page_tag,)).fetchone()[0]
    r.update(rows=rows, import_s=dt, import_cpu_s=cpu, import_rows_s=rows / dt,
             import_rss_mb=rss / 1024, db_mb=os.path.getsize(db) / 1e6)

    # (b) the floor: an empty rulings database, plain INSERTs, one transaction
    sh([rulings, "--db", floor_db, "import", os.path.join(ROOT, "data",
        "thesaurus.txt"), "--quiet"])
    sql = os.path.join(tmp, "floor-%d.sql" % n)
    with open(sql, "w", encoding="utf-8") as f:
        f.write("BEGIN;\n")
        for rid, lang, title, body in con.execute(
                "SELECT id, lang, title, body FROM rulings ORDER BY id"):
            t = "rulings_fts_" + (lang if lang in ("en", "fr", "ru") else "xx")
            f.write("INSERT INTO %s(rowid, title, body) VALUES (%d, %s, %s);\n"
                    % (t, rid, sql_str(title), sql_str(body)))
        f.write("COMMIT;\n")
    con.close()
    with open(sql, "rb") as fin:
        fdt, frss = timed(["sqlite3", "-bail", "-cmd", ".load " + ext,
                           floor_db], stdin=fin)
    r.update(floor_s=fdt, floor_rows_s=rows / fdt, floor_rss_mb=frss / 1024,
             load_ratio=(rows / dt) / (rows / fdt))
    if "one_s" in r:
        r["one_ratio"] = fdt / r["one_s"]
    os.remove(sql)

    # (b') every row the import wrote, copied with plain INSERT … SELECT
    # from the imported database into an empty one (one transaction):
    # the cost of the storage alone, without parsing, lookups and change
    # detection.
    all_db = os.path.join(tmp, "all-%d.db" % n)
    empty = os.path.join(tmp, "empty")
    os.makedirs(empty, exist_ok=True)
    sh([rulings, "--db", all_db, "import", "--quiet", empty])
    adt, arss, acpu = timed_cpu(copy_cmd(ext, db, all_db))
    r.update(all_s=adt, all_rss_mb=arss / 1024, all_ratio=adt / dt,
             all_cpu_s=acpu, all_cpu_ratio=acpu / cpu)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(all_db + suffix):
            os.remove(all_db + suffix)

    # (c) ranked search
    words = pick_words(db, rows)
    r["search"] = {}
    for kind, (w, df) in words.items():
        ours = p50([rulings, "--db", db, "search", w, "--limit", "20"], a.runs)
        bare = p50(["sqlite3", "-cmd", ".load " + ext, db,
                    BARE.format(u=union(w, True))], a.runs)
        full = p50(["sqlite3", "-cmd", ".load " + ext, db,
                    BARE_FULL.format(u=union(w, True, True),
                                     c=union(w, False))], a.runs)
        rg = p50(["rg", "-cw", w, d1], a.runs)
        r["search"][kind] = dict(word=w, df=df, ours=ours, bare=bare,
                                 bare_full=full, rg=rg,
                                 ours_bare=ours / bare, rg_ours=rg / ours)

    # (d) tag query
    r["tag"] = {}
    for kind, t, cnt in (("page tag", page_tag, page_tag_n),
                         ("most used tag", top_tag[0], top_tag[1])):
        r["tag"][kind] = dict(tag=t, rulings=cnt, p50=p50(
            [rulings, "--db", db, "search", "--tag", t], a.runs))

    # (e) changed between two dumps
    if n == a.changed_size:
        d2 = os.path.join(tmp, "dump-%d-b" % n)
        sh([sys.executable, os.path.join(HERE, "gen_faq.py"), "--mutate",
            "0.05", "--from", d1, "--out", d2])
        dt2, rss2 = timed([rulings, "--db", db, "import", "--bulk", d2,
                           "--quiet"])
        con = sqlite3.connect(db)
        b = con.execute("SELECT max(id) FROM imports").fetchone()[0]
        ch = dict(con.execute("SELECT change, count(*) FROM changes"
                              " GROUP BY 1").fetchall())
        con.close()
        cdt, crss = timed([rulings, "--db", db, "changed", "--between",
                           str(last_import), str(b)])
        cjs, _ = timed([rulings, "--db", db, "changed", "--between",
                        str(last_import), str(b), "--format", "json"])
        r["changed"] = dict(reimport_s=dt2, reimport_rss_mb=rss2 / 1024,
                            changes=ch, changed_s=cdt, changed_json_s=cjs,
                            changed_rss_mb=crss / 1024)
        shutil.rmtree(d2)
    if not given:
        shutil.rmtree(d1)
    for f in (db, floor_db):
        os.remove(f)


def report(res):
    out = []
    for n, r in res.items():
        out.append("\n### N = %s (%s rulings, %d pages, %.1f MB of text)\n"
                   % (n, "{:,}".format(r["rows"]), r["pages"], r["dump_mb"]))
        out.append("| measure | rulings | bare | ratio |")
        out.append("|---|---:|---:|---:|")
        out.append("| load (--bulk) rows/s | %s | %s | %.2f× bare |" % (
            "{:,.0f}".format(r["import_rows_s"]),
            "{:,.0f}".format(r["floor_rows_s"]), r["load_ratio"]))
        out.append("| load (--bulk) wall s | %.1f | %.1f | |" % (
            r["import_s"], r["floor_s"]))
        if "one_s" in r:
            out.append("| load, a transaction per document, wall s | %.1f |"
                       " %.1f | %.2f× bare |" % (r["one_s"], r["floor_s"],
                                                r["one_ratio"]))
        out.append("| every row copied with INSERT … SELECT (storage only),"
                   " wall s | %.1f | %.1f | %.2f× |" % (
                       r["import_s"], r["all_s"], r["all_ratio"]))
        out.append("| the same, CPU s (user + system) | %.1f | %.1f |"
                   " %.2f× |" % (r["import_cpu_s"], r["all_cpu_s"],
                                 r["all_cpu_ratio"]))
        out.append("| peak RSS MB (--bulk) | %.1f | %.1f | |" % (
            r["import_rss_mb"], r["floor_rss_mb"]))
        out.append("| DB MB | %.1f | | |" % r["db_mb"])
        out.append("\n| search (p50 ms) | word | matches (DF) | rulings |"
                   " bare SQL | bare+snippet+count | rg -cw | ours/bare |"
                   " rg/ours |")
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|")
        for k, s in r["search"].items():
            out.append("| %s | %s | %d | %.1f | %.1f | %.1f | %.1f | %.2f |"
                       " %.1f |" % (k, s["word"], s["df"], s["ours"] * 1e3,
                                   s["bare"] * 1e3, s["bare_full"] * 1e3,
                                   s["rg"] * 1e3, s["ours_bare"],
                                   s["rg_ours"]))
        for k, t in r["tag"].items():
            out.append("\n`search --tag \"%s\"` (%s, %d rulings): p50 %.1f ms"
                       % (t["tag"], k, t["rulings"], t["p50"] * 1e3))
        if "changed" in r:
            c = r["changed"]
            out.append("\nmutated dump imported on top: %.1f s (peak RSS"
                       " %.1f MB), changes %s; `changed --between`: %.2f s"
                       " (json %.2f s, peak RSS %.1f MB)" % (
                           c["reimport_s"], c["reimport_rss_mb"],
                           c["changes"], c["changed_s"], c["changed_json_s"],
                           c["changed_rss_mb"]))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build-bench"))
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--tmp", default="/tmp/rulings-bulk")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--dump", action="append", default=[],
                    help="N=DIR: use the dump in DIR (gen_faq.py --entries N"
                    " --seed 1) instead of generating it; kept")
    ap.add_argument("--per-doc-max", type=int, default=100000,
                    help="also time the default import (a transaction per"
                    " document) up to this size")
    ap.add_argument("--changed-size", type=int, default=100000,
                    help="the size at which a mutated dump is imported on"
                    " top and `changed` timed")
    ap.add_argument("--group-seconds", type=int, default=10,
                    help="import --bulk=S: how long a group stays open (10,"
                    " the default; 86400: one group, the same work whatever"
                    " the machine's load)")
    a = ap.parse_args()
    a.dump = {int(k): os.path.abspath(v)
              for k, v in (x.split("=", 1) for x in a.dump)}
    a.build = os.path.abspath(a.build)
    os.makedirs(a.tmp, exist_ok=True)
    sizes = [int(x) for x in a.sizes.split(",")]
    res = {}
    try:
        for n in sizes:
            bench_size(a, n, res)
            print(report({str(n): res[str(n)]}), flush=True)
    finally:
        with open(os.path.join(a.tmp, "bulk-results.json"), "w") as f:
            json.dump(res, f, indent=1)
        print("\nraw: %s" % os.path.join(a.tmp, "bulk-results.json"))
        if not a.keep:
            for f in os.listdir(a.tmp):
                if f != "bulk-results.json":
                    p = os.path.join(a.tmp, f)
                    shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)


if __name__ == "__main__":
    main()
