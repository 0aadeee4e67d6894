#!/usr/bin/env python3
"""corpus-cr.py — what a Comprehensive Rules file holds, read independently
of rulings, and the comparisons test-corpus-cr.sh makes with what rulings
stored.

    corpus-cr.py expect FILE OUT.json
        reads FILE's bytes (BOM / UTF-16 / Windows-1252 decoded here, line
        breaks CRLF, CR, LF) and writes what the file holds: its encoding,
        rule numbers (with their line and how they are written), glossary
        terms, rule references, Example: lines, the text of each rule.
    corpus-cr.py COMPARISON EXPECT.json DIR
        DIR holds what rulings and the sqlite3 shell printed (rules.txt,
        rows.json, xrefs.json, dangling.json, ...). Prints what differs and
        exits 1 when the comparison fails, 0 when it holds.

The reading follows the document's own layout, not rulings' code: the
table of contents runs from "Contents" to the first "Credits" line, the
body from there to "Glossary", the glossary from there to the next
"Credits"; numbered lines are chapters "1. Game Concepts", sections
"100. General", rules "100.1. Text" and subrules "100.1a Text".
"""
import bisect
import collections
import json
import os
import re
import sys
import unicodedata

# ---- reading the file ------------------------------------------------------


def decode(raw):
    """The text and the encoding's name as rulings names it."""
    if raw[:2] == b"\xfe\xff":
        return raw[2:].decode("utf-16-be"), "utf-16be"
    if raw[:2] == b"\xff\xfe":
        return raw[2:].decode("utf-16-le"), "utf-16le"
    if raw[:3] == b"\xef\xbb\xbf":
        return raw[3:].decode("utf-8"), "utf-8-bom"
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return raw.decode("cp1252"), "windows-1252"


# The canonical forms, and the slips the published files have in a few
# places (a rule number is still a rule number when the typesetter dropped
# a period or a space): group 1 is the number.
FORMS = [
    (re.compile(r"^(\d)\.\s+\S"), ""),                     # 1. Game Concepts
    (re.compile(r"^(\d{3})\.\s+\S"), ""),                  # 100. General
    (re.compile(r"^(\d{3}\.\d+)\.\s+\S"), ""),             # 100.1. Text
    (re.compile(r"^(\d{3}\.\d+[a-z])\s+\S"), ""),          # 100.1a Text
    (re.compile(r"^(\d{3}\.\d+[a-z])\.\s+\S"),
     "a subrule number followed by a period"),             # 119.1d. Text
    (re.compile(r"^(\d{3}\.\d+)\s+\S"),
     "a rule number without its period"),                  # 606.5 Text
    (re.compile(r"^(\d{3}\.\d+)\.(?=[^\s\d])"),
     "a rule number with no space after its period"),      # 901.4.All
]


def numbered(line):
    """(number, slip, rest of the line) or None."""
    for rx, slip in FORMS:
        m = rx.match(line)
        if m:
            return m.group(1), slip, line[m.end(1):].lstrip(". \t")
    return None


def index_of(lines, word, start):
    for i in range(start, len(lines)):
        if lines[i] == word:
            return i
    raise SystemExit("corpus-cr.py: no line %r after line %d" % (word, start))


# ---- references -------------------------------------------------------------

KEYWORD = re.compile(r"\b(?:[Rr]ules?|[Ss]ections?)[ \t\u00a0]+(?=\d)")
ITEM = re.compile(r"(\d{1,3})(?!\d)(?:\.(\d+)([a-z])?)?(?![\w.]\d)")
DASH = re.compile(r"\s*[-\u2013]\s*")
SEP = re.compile(r"\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+")
LETTERS = [c for c in "abcdefghijklmnopqrstuvwxyz" if c not in "lo"]


def letter_range(a, b):
    return [c for c in LETTERS if a <= c <= b]


FULL = re.compile(r"(\d{1,3})\.(\d+)([a-z]?)(?![\w.]\d)")
NUM = re.compile(r"(\d+)(?![\w.]\d)")
LETTER = re.compile(r"([a-z])(?!\w)")
LATER_LETTER = re.compile(r"([b-z])(?!\w)")


def references(line):
    """The rule numbers a line cites: "See rule 510", "rules 601.2a–d and
    601.2f", "section 8", and the forms "rules 119.7–8", "rules
    903.6–903.11", "rules 608.3a and b". A list of (target, the words
    cited, form): form is "" for a number written out, a letter range or a
    list of those; else it names the form ("a numeric range" for 119.8 in
    "rules 119.7–8", "a bare letter" for 608.3b in "rules 608.3a and b",
    "after a numeric range" for 712.18 in "rules 712.9–10, and 712.18")."""
    out = []
    for k in KEYWORD.finditer(line):
        pos = k.end()
        after_range = False          # a numeric range came earlier in the list
        while True:
            m = ITEM.match(line, pos)
            if not m:
                break
            sec, rule, letter = m.group(1), m.group(2), m.group(3)
            pos = m.end()
            first = sec + ("." + rule if rule else "") + (letter or "")
            targets = [(first, "after a numeric range" if after_range else "")]
            d = DASH.match(line, pos)
            if d:
                e = d.end()
                full, num, let = FULL.match(line, e), NUM.match(line, e), \
                    LETTER.match(line, e)
                last = None
                if letter and let and let.group(1) > letter:
                    targets = [("%s.%s%s" % (sec, rule, c), targets[0][1])
                               for c in letter_range(letter, let.group(1))]
                    pos = let.end()
                elif rule and not letter and full and full.group(1) == sec \
                        and not full.group(3) and int(full.group(2)) > int(rule):
                    last, pos = int(full.group(2)), full.end()
                elif rule and not letter and num and int(num.group(1)) > int(rule):
                    last, pos = int(num.group(1)), num.end()
                if last is not None:
                    targets += [("%s.%d" % (sec, n), "a numeric range")
                                for n in range(int(rule) + 1, last + 1)]
                    after_range = True
            for t, form in targets:
                out.append((t, line[k.start():pos], form))
            s = SEP.match(line, pos)
            if not s:
                break
            # "rules 608.3a and b": a later letter of the same rule
            b = LATER_LETTER.match(line, s.end())
            if b and letter and b.group(1) > letter and b.group(1) not in "lo":
                out.append(("%s.%s%s" % (sec, rule, b.group(1)),
                            line[k.start():b.end()], "a bare letter"))
                pos = b.end()
                s = SEP.match(line, pos)
                if not s:
                    break
            if not ITEM.match(line, s.end()):
                break
            pos = s.end()
    return out


# ---- expect -----------------------------------------------------------------


def expect(path, out):
    with open(path, "rb") as f:
        raw = f.read()
    text, encoding = decode(raw)
    text = unicodedata.normalize("NFC", text)
    lines = [l.strip() for l in re.split(r"\r\n|\r|\n", text)]
    contents = index_of(lines, "Contents", 0)
    toc_end = index_of(lines, "Credits", contents + 1)
    glossary = index_of(lines, "Glossary", toc_end + 1)
    end = index_of(lines, "Credits", glossary + 1)

    rules, examples, refs = [], 0, []
    for i in range(toc_end + 1, glossary):
        l = lines[i]
        n = numbered(l)
        if n:
            rules.append({"rule": n[0], "line": i + 1, "slip": n[1],
                          "written": l[:60], "text": n[2]})
        elif l.startswith("Example:"):
            examples += 1
        for t, words, form in references(l):
            refs.append({"line": i + 1, "target": t, "words": words,
                         "form": form})

    terms, definitions, in_term = [], [], False
    for i in range(glossary + 1, end):
        l = lines[i]
        if not l:
            in_term = False
            continue
        if not in_term:
            terms.append(l)           # a term: its definition follows
            definitions.append([])
            in_term = True
            continue
        definitions[-1].append(l)
        for t, words, form in references(l):
            refs.append({"line": i + 1, "target": t, "words": words,
                         "form": form})

    with open(out, "w", encoding="utf-8") as f:
        json.dump({
            "file": os.path.basename(path),
            "encoding": encoding,
            "lines": {"contents": contents + 1, "toc_end": toc_end + 1,
                      "glossary": glossary + 1, "credits": end + 1},
            "rules": rules,
            "examples": examples,
            "terms": terms,
            "definitions": ["\n".join(x) for x in definitions],
            "refs": refs,
        }, f, ensure_ascii=False, indent=0)


# ---- comparisons ------------------------------------------------------------

def load(d, name):
    with open(os.path.join(d, name), encoding="utf-8") as f:
        if name.endswith(".json"):
            t = f.read()
            return json.loads(t) if t.strip() else []
        return [l for l in f.read().split("\n") if l != ""]


def show(items, limit=40):
    items = list(items)
    for x in items[:limit]:
        print("    " + x)
    if len(items) > limit:
        print("    … and %d more" % (len(items) - limit))


def rules_canonical(e, d):
    """The rule numbers written in the canonical forms are all in the DB,
    and the DB has none the file does not have."""
    rows = load(d, "rules.txt")
    db = set(rows)
    dup = sorted(r for r, n in collections.Counter(rows).items() if n > 1)
    want = {r["rule"]: r for r in e["rules"] if not r["slip"]}
    every = {r["rule"] for r in e["rules"]}
    missing = [r for r in want if r not in db]
    extra = sorted(db - every)
    print("%d rule numbers in the file (%d in canonical forms), %d in the DB"
          % (len(every), len(want), len(db)))
    if missing:
        print("  in the file, not in the DB:")
        show("%s (line %d: %r)" % (r, want[r]["line"], want[r]["written"])
             for r in missing)
    if extra:
        print("  in the DB, not in the file:")
        show(extra)
    if dup:
        print("  twice in the DB: " + " ".join(dup))
    return not (missing or extra or dup)


def rules_slips(e, d):
    """Rule numbers written with a slip ("119.1d.", "606.5 If", "901.4.All")
    are rules of their own too, not text of the rule above them."""
    db = set(load(d, "rules.txt"))
    rows = {r["rule"]: r for r in load(d, "rows.json") if r["rule"]}
    slips = [r for r in e["rules"] if r["slip"]]
    bad = [r for r in slips if r["rule"] not in db]
    print("%d numbered lines written with a slip: %s" % (
        len(slips), " ".join(r["rule"] for r in slips) or "none"))
    if bad:
        print("  not in the DB:")
        for r in bad:
            where = [k for k, v in rows.items()
                     if any(p.endswith(r["text"]) and p != r["text"]
                            for p in v["body"].split("\n"))]
            print("    %s (line %d: %r — %s)%s" % (
                r["rule"], r["line"], r["written"], r["slip"],
                "; its text is in the body of " + ", ".join(where)
                if where else ""))
    return not bad


def glossary(e, d):
    """The glossary's terms: one entry for each term block, its definition
    the block's other lines (one paragraph each)."""
    db = load(d, "terms.txt")
    rows = [r for r in load(d, "rows.json") if r["kind"] == "glossary"]
    want = e["terms"]
    print("%d term blocks between Glossary (line %d) and Credits (line %d), "
          "%d glossary entries in the DB" % (len(want), e["lines"]["glossary"],
                                             e["lines"]["credits"], len(db)))
    ok = len(db) == len(want)
    missing = sorted(set(want) - set(db))
    extra = sorted(set(db) - set(want))
    if missing:
        print("  terms not in the DB:")
        show(missing)
    if extra:
        print("  entries the glossary does not have:")
        show(extra)
    defs = {}
    for t, x in zip(want, e["definitions"]):
        defs.setdefault(t, set()).add(x)
    bad = ["%s:\n      file: %r\n      DB:   %r" % (r["title"], sorted(
        defs[r["title"]])[0][:100], r["body"][:100])
        for r in rows if r["title"] in defs and r["body"] not in defs[r["title"]]]
    if bad:
        print("  definitions that differ:")
        show(bad, 10)
    return ok and not missing and not extra and not bad


def texts(e, d):
    """Each rule's own line is, character for character, the start of its
    text in the DB (no mojibake, no lost or doubled character anywhere),
    and every Example: line is in the DB."""
    rows = {r["rule"]: r for r in load(d, "rows.json") if r["rule"]}
    bad = []
    for r in e["rules"]:
        row = rows.get(r["rule"])
        if not row or r["slip"]:
            continue
        if "." in r["rule"]:
            got = row["body"].split("\n")[0]
        else:
            got = row["title"]        # a chapter or section: its name
        if got != r["text"]:
            bad.append("%s (line %d):\n      file: %r\n      DB:   %r"
                       % (r["rule"], r["line"], r["text"][:120], got[:120]))
    examples = sum(p.startswith("Example:")
                   for r in rows.values() for p in r["body"].split("\n"))
    print("%d rules compared, %d differ; Example: lines: %d in the file, "
          "%d in the DB" % (len(rows), len(bad), e["examples"], examples))
    if bad:
        show(bad, 20)
    return not bad and examples == e["examples"]


class Refs:
    """The references the text makes and the ones the DB holds, keyed by
    (the ruling whose text holds the reference, target). A reference at a
    line belongs to the ruling that starts at or before it (the DB's own
    division into rulings, checked by rules-*)."""

    def __init__(self, e, d):
        rows = load(d, "rows.json")
        self.xrefs = [x for x in load(d, "xrefs.json")["xrefs"]
                      if x["kind"] == "rule"]
        dl = load(d, "dangling.json")
        self.dangling = [x for x in (dl["dangling"] if dl else [])
                         if x["kind"] == "rule"]
        self.by_id = {r["id"]: r for r in rows}
        self.db_rules = {r["rule"] for r in rows if r["rule"]}
        starts = sorted((r["line"], r["id"]) for r in rows)
        lines = [s for s, _ in starts]
        self.want = {}
        for r in e["refs"]:
            k = bisect.bisect_right(lines, r["line"]) - 1
            owner = starts[k][1] if k >= 0 else None
            self.want.setdefault((owner, r["target"]), r)
        self.have = {(x["from"], x["target"]): x for x in self.xrefs}
        print("%d rule references in the text (%d distinct ruling → target),"
              " %d stored; %d dangling" % (len(e["refs"]), len(self.want),
                                           len(self.have), len(self.dangling)))

    def name(self, i):
        r = self.by_id.get(i)
        if not r:
            return "#%s" % i
        return r["rule"] or "glossary '%s'" % r["title"]


def refs_found(e, d, forms=False):
    """Every rule reference the text makes is stored, from the ruling whose
    text holds it: those written out, in letter ranges and in lists (or,
    with forms, those in the other forms: "rules 119.7–8" names 119.8)."""
    x = Refs(e, d)
    keys = [k for k, r in x.want.items() if bool(r["form"]) == forms]
    missing = [k for k in keys if k not in x.have]
    print("  %d of them %s" % (len(keys), "in other forms: " + ", ".join(
        sorted({r["form"] for r in x.want.values() if r["form"]}))
        if forms else "written out, in letter ranges or in lists"))
    if missing:
        print("  references in the text that are not stored:")
        show("line %d %r → %s (in %s)%s" % (
            x.want[k]["line"], x.want[k]["words"], k[1], x.name(k[0]),
            " — " + x.want[k]["form"] if x.want[k]["form"] else "")
            for k in missing)
    return not missing


def refs_found_forms(e, d):
    return refs_found(e, d, True)


def refs_extra(e, d):
    """No rule reference is stored that the text does not make."""
    x = Refs(e, d)
    extra = [k for k in x.have if k not in x.want]
    if extra:
        print("  stored references the text does not make:")
        show("%s → %s (ruling at line %d)" % (x.name(k[0]), k[1],
                                              x.have[k]["line"])
             for k in extra)
    return not extra


def refs_resolved(e, d):
    """Each stored rule reference resolves to the rule it names, or is
    listed by xrefs --dangling, and the dangling ones are really missing."""
    x = Refs(e, d)
    wrong = []
    for r in x.xrefs:
        if r["resolved"]:
            t = x.by_id.get(r["id"])
            if not t or t["rule"] != r["target"]:
                wrong.append("%s → %s resolved to #%s (rule %s)" % (
                    x.name(r["from"]), r["target"], r["id"], t and t["rule"]))
        elif r["target"] in x.db_rules:
            wrong.append("%s → %s unresolved, but the DB has rule %s" % (
                x.name(r["from"]), r["target"], r["target"]))
    dkeys = {(r["from"], r["target"]) for r in x.dangling}
    ukeys = {(r["from"], r["target"]) for r in x.xrefs if not r["resolved"]}
    for k in sorted(ukeys - dkeys, key=str):
        wrong.append("%s → %s unresolved, not listed by xrefs --dangling"
                     % (x.name(k[0]), k[1]))
    for r in x.dangling:
        if r["resolved"] or r["target"] in x.db_rules:
            wrong.append("%s → %s listed as dangling, but the DB has it" % (
                x.name(r["from"]), r["target"]))
        if (r["from"], r["target"]) not in x.have:
            wrong.append("%s → %s listed as dangling, not a stored reference"
                         % (x.name(r["from"]), r["target"]))
    if wrong:
        show(wrong)
    print("  dangling: " + (", ".join(
        "%s → %s" % (x.name(r["from"]), r["target"]) for r in x.dangling)
        or "none"))
    return not wrong


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "expect":
        expect(sys.argv[2], sys.argv[3])
        return 0
    checks = {"rules-canonical": rules_canonical, "rules-slips": rules_slips,
              "glossary": glossary, "texts": texts, "refs-found": refs_found,
              "refs-found-forms": refs_found_forms,
              "refs-extra": refs_extra, "refs-resolved": refs_resolved}
    if len(sys.argv) != 4 or sys.argv[1] not in checks:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    with open(sys.argv[2], encoding="utf-8") as f:
        e = json.load(f)
    return 0 if checks[sys.argv[1]](e, sys.argv[3]) else 1


if __name__ == "__main__":
    sys.exit(main())
