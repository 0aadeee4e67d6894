#!/usr/bin/python3
"""The inflection groups of a corpus, for tests/cli/test-corpus-inflections.sh.

    inflections.py fr PATH...   French: the regular -er verbs and participles
    inflections.py ru PATH...   Russian: adjectives and participles, and the
                                е spelling of every form with ё

Reads each file, and every .md and .rst file under each directory, takes its words (lower case, as
written: accents kept, NFC) and groups the forms of one root that the
corpus holds, by the endings of the paradigm (not by any stemmer):

  fr  a root is a word less -er, -é, -ée, -és or -ées (root of 3 letters or
      more); its forms are root + e, es, ent, er, é, ée, és, ées, ez, those
      the corpus has, and the forms that end as the participle or the
      infinitive and that it does not have (what a player may type:
      'épuiser' where the text says 'épuisée'); a group is kept when it
      holds two forms of the corpus, or one and an accented ending
  ru  a root is a word less an adjective ending (-ая -ое -ой -ом -ую -ый
      -ий -ые -ых -ым -ыми -ого -ому -ее -ей -ие -их -им -ими -его -ему);
      its forms are the root with each ending, those the corpus has, plus
      each form with ё written with е; kept with two forms or more

Each group is then cut into parts by what Snowball (python3-snowballstemmer,
the same algorithms as libstemmer) makes of each form as written, the stem
folded (accents off, ё as е): forms with one folded stem are one part, and
rulings must give them one result set. A group of one part is whole.

Prints one part a line: "GROUP<TAB>CORPUS<TAB>FORM FORM ...", GROUP the
group's number, CORPUS 1 when a form of the part is in the corpus.
"""
import os
import re
import sys
import unicodedata

import snowballstemmer

FR_ENDS = ("ées", "ée", "és", "é", "er")
FR_FORMS = ("e", "es", "ent", "er", "é", "ée", "és", "ées", "ez")
FR_TYPED = ("er", "é", "ée", "és", "ées")
RU_ENDS = ("ыми", "ими", "ого", "ому", "его", "ему", "ая", "ое", "ой", "ом",
           "ую", "ый", "ий", "ые", "ых", "ым", "ее", "ей", "ие", "их", "им")


def paths(args):
    for a in args:
        if not os.path.isdir(a):
            yield a
        for root, _, files in os.walk(a):
            for f in sorted(files):
                if f.endswith((".md", ".rst")):
                    yield os.path.join(root, f)


def words(args):
    out = set()
    for p in paths(args):
        with open(p, encoding="utf-8") as fh:
            t = unicodedata.normalize("NFC", fh.read()).lower()
        out.update(re.findall(r"[^\W\d_]+", t))
    return out


def fold(s):
    s = s.replace("ё", "е")
    # accents off Latin letters only (й keeps its breve, as unicode61 does)
    out = []
    for ch in unicodedata.normalize("NFC", s):
        base = unicodedata.normalize("NFD", ch)
        out.append(base[0] if base[0].isascii() else ch)
    return "".join(out)


def french(ws):
    roots = set()
    for w in ws:
        for end in FR_ENDS:
            if w.endswith(end) and len(w) - len(end) >= 3:
                roots.add(w[:-len(end)])
                break
    groups = []
    for r in sorted(roots):
        have = [r + e for e in FR_FORMS if r + e in ws]
        accented = any(f[len(r):] in ("é", "ée", "és", "ées") for f in have)
        if len(have) < 2 and not accented:
            continue
        typed = [r + e for e in FR_TYPED if r + e not in ws]
        groups.append((have, typed))
    return groups, snowballstemmer.stemmer("french")


def russian(ws):
    roots = set()
    for w in ws:
        for end in RU_ENDS:
            if w.endswith(end) and len(w) - len(end) >= 3:
                roots.add(w[:-len(end)])
                break
    groups = []
    for r in sorted(roots):
        have = [r + e for e in RU_ENDS if r + e in ws]
        if len(have) < 2 and not any("ё" in f for f in have):
            continue
        typed = [f.replace("ё", "е") for f in have if "ё" in f]
        groups.append((have, typed))
    return groups, snowballstemmer.stemmer("russian")


def main(argv):
    lang, dirs = argv[1], argv[2:]
    ws = words(dirs)
    groups, st = (french if lang == "fr" else russian)(ws)
    n = 0
    for have, typed in groups:
        parts = {}
        for f in have + typed:
            parts.setdefault(fold(st.stemWord(f)), []).append(f)
        n += 1
        for forms in parts.values():
            corpus = any(f in have for f in forms)
            print(f"{n}\t{int(corpus)}\t{' '.join(forms)}")


if __name__ == "__main__":
    main(sys.argv)
