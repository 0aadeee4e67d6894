#!/usr/bin/env python3
"""export-norm.py RULINGS DB TAG — the rulings of tag TAG in database DB as
one normalized JSON document, for comparing two databases: each ruling as
`show --format json` gives it, without what differs between databases (ids,
file paths, lines, back-links), tags as a sorted list, sorted by title."""
import json
import subprocess
import sys

rulings, db, tag = sys.argv[1:4]


def run(*args):
    p = subprocess.run([rulings, '--db', db, *args], capture_output=True,
                       text=True)
    if p.returncode != 0:
        sys.exit(f'{args}: exit {p.returncode}: {p.stderr}')
    return json.loads(p.stdout)


found = run('search', '--tag', tag, '--no-thesaurus', '--limit', '0',
            '--format', 'json')['results']
out = []
for r in found:
    d = run('show', str(r['id']), '--format', 'json')
    for k in ('id', 'sources', 'backlinks', 'snippet', 'score', 'withdrawn'):
        d.pop(k, None)
    d['tags'] = sorted(d['tags'])
    d['refs'] = [(x['kind'], x['target'], x['resolved']) for x in d['refs']]
    out.append(d)
out.sort(key=lambda d: (d['title'], d['text']))
json.dump(out, sys.stdout, ensure_ascii=False, indent=1, sort_keys=True)
print()
