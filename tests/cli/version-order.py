#!/usr/bin/env python3
"""version-order.py — what changed between two Comprehensive Rules files,
read from the files themselves (with corpus-cr.py's decoding and its
reading of numbered lines, not rulings'), and the comparisons
test-version-order.sh makes.

    version-order.py expect OLD.txt NEW.txt
        prints the changes from OLD to NEW as sorted lines
        "CHANGE KIND KEY": a rule (its number) or glossary term of NEW
        only is added, of OLD only withdrawn, and edited when its text
        (the rule's line and the lines up to the next numbered one; a
        term's definition) differs once runs of white space are one space.
    version-order.py changes CHANGED.json
        the same lines from `rulings changed --format json` (marks left out).
    version-order.py same A.json B.json
        two JSON outputs hold the same items once what an import numbers or
        stamps (ids, import numbers, import times, paths, scores) is left
        out; exits 1 and prints the first difference otherwise.
"""
import importlib.util
import json
import os
import re
import sys
import unicodedata

_spec = importlib.util.spec_from_file_location(
    "corpus_cr", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                              "corpus-cr.py"))
cr = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cr)


def fold(s):
    return " ".join(s.split())


def read(path):
    """{(kind, key): folded text} of a CR file."""
    with open(path, "rb") as f:
        text, _ = cr.decode(f.read())
    text = unicodedata.normalize("NFC", text)
    lines = [l.strip() for l in re.split(r"\r\n|\r|\n", text)]
    contents = cr.index_of(lines, "Contents", 0)
    toc_end = cr.index_of(lines, "Credits", contents + 1)
    glossary = cr.index_of(lines, "Glossary", toc_end + 1)
    end = cr.index_of(lines, "Credits", glossary + 1)
    out, key, body = {}, None, []
    for i in range(toc_end + 1, glossary):
        n = cr.numbered(lines[i])
        if n:
            if key:
                out[key] = fold(" ".join(body))
            key, body = ("rule", n[0]), [n[2]]
        elif key:
            body.append(lines[i])
    if key:
        out[key] = fold(" ".join(body))
    key, body = None, []
    for i in range(glossary + 1, end + 1):
        l = lines[i] if i < end else ""
        if not l:
            if key:
                out[key] = fold(" ".join(body))
            key, body = None, []
        elif key is None:
            key = ("glossary", l)
        else:
            body.append(l)
    return out


def expect(old, new):
    a, b = read(old), read(new)
    rows = ["added %s %s" % k for k in b.keys() - a.keys()]
    rows += ["withdrawn %s %s" % k for k in a.keys() - b.keys()]
    rows += ["edited %s %s" % k for k in a.keys() & b.keys() if a[k] != b[k]]
    return sorted(rows)


def changes(path):
    d = json.load(open(path, encoding="utf-8"))
    return sorted("%s %s %s" % (c["change"], c["kind"],
                                c["rule"] if c["kind"] == "rule" else c["title"])
                  for c in d["changes"] if c["change"] != "marked")


STAMPS = {"id", "import", "version", "at", "imported_at", "path", "score",
          "rank", "from", "to", "target_id"}


def strip(x):
    if isinstance(x, dict):
        # when a ruling was withdrawn is an import time: whether it was
        return {k: bool(v) if k == "withdrawn" else strip(v)
                for k, v in x.items() if k not in STAMPS}
    if isinstance(x, list):
        return sorted((strip(v) for v in x), key=lambda v: json.dumps(
            v, sort_keys=True, ensure_ascii=False))
    return x


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "expect":
        print("\n".join(expect(sys.argv[2], sys.argv[3])))
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "changes":
        print("\n".join(changes(sys.argv[2])))
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "same":
        a, b = (strip(json.load(open(p, encoding="utf-8")))
                for p in sys.argv[2:])
        if a == b:
            return 0
        sa = json.dumps(a, sort_keys=True, ensure_ascii=False, indent=0)
        sb = json.dumps(b, sort_keys=True, ensure_ascii=False, indent=0)
        for x, y in zip(sa.splitlines(), sb.splitlines()):
            if x != y:
                print("  %s\n  %s" % (x[:200], y[:200]))
                break
        return 1
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
