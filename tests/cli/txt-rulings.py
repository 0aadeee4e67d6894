#!/usr/bin/env python3
"""txt-rulings.py DB... — for each database, the current rulings that carry
a tag (those an `export --all --format txt` writes) as one line: their
number, then how many differ from the first database's. A ruling is its
game, language, kind, title, text, headings (section and category) and
sorted tags; a txt page gives a ruling of another kind than FAQ or errata
(a tagged rule or glossary entry) back as FAQ, the section of its own a
category: it counts as FAQ, its headings as a set. Read with Python's
sqlite3 module, not with rulings."""
import collections
import sqlite3
import sys


def rulings(path):
    db = sqlite3.connect(f'file:{path}?mode=ro', uri=True)
    tags = collections.defaultdict(list)
    for rid, name, qual in db.execute(
            'SELECT rt.ruling_id, t.name, t.qualifier FROM ruling_tags rt '
            'JOIN tags t ON t.id = rt.tag_id'):
        tags[rid].append(f'{name} ({qual})' if qual else name)
    out = collections.Counter()
    for rid, game, lang, kind, title, body, sec, cat in db.execute(
            'SELECT r.id, g.name, r.lang, r.kind, r.title, r.body, r.section, '
            'r.category FROM rulings r LEFT JOIN games g ON g.id = r.game_id '
            'WHERE r.withdrawn_at IS NULL'):
        if rid in tags:
            if kind not in ('faq', 'errata'):
                kind = 'faq'
            heads = tuple(sorted(h for h in (sec, cat) if h))
            out[(game, lang, kind, title, body, heads,
                 tuple(sorted(set(tags[rid]))))] += 1
    db.close()
    return out


first = None
for path in sys.argv[1:]:
    r = rulings(path)
    first = first if first is not None else r
    diff = (first - r) + (r - first)
    print(sum(r.values()), sum(diff.values()))
    for k in list(diff)[:3]:
        print('  differs:', k[:4], file=sys.stderr)
