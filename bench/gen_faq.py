#!/usr/bin/env python3
"""gen_faq.py -- synthetic FAQ tag-page dumps for the bulk benchmarks (issue 5).

Writes DIR/page-NNNNN.txt files in exactly the format of data/000_*.txt and
data/001_*.txt (importers/faq_tags.c): a title line (the page's tag), section
headings ("Frequently Asked Questions", "Errata / Updates"), category
headings, entries "\u2022 question" with indented multi-paragraph answers
(nested bullets, "Changed answer:" now and then), and an indented line of
"(Discussion elsewhere)" markers and "Tags: A, B (Q), N more...".

Usage:
  bench/gen_faq.py --entries N [--seed S] --out DIR
      N distinct rulings (entries) on tag pages of 50-200 entries each
      (about 8 % of the entries are also listed on a second page of the same
      language, as on the real FAQ site; they are stored once). Pages are
      80 % English, 12 % French, 8 % Russian. Words come from data/*.txt
      (a bigram chain per language) plus a Zipf-distributed pool of invented
      card and spirit names, which gives the rare words real FAQs have.
      DIR/.gen.json (a hidden file: `rulings import DIR` passes it over)
      records the parameters, and DIR/.rulings, a directory manifest
      (rulings(1)), names the pages' game, "Generated FAQ": FAQ pages do
      not name theirs, and rulings refuses a document of no game.
  bench/gen_faq.py --mutate FRACTION [--removed R] [--added A] [--mseed M]
                   --from DIR1 --out DIR2
      The dump of DIR1 (regenerated from DIR1/.gen.json, so it is exact and
      cheap), with FRACTION of the answers edited (one sentence replaced or
      appended), R of the entries removed (default 0.01) and A x N new
      entries added to existing pages (default 0.01). Page titles are kept,
      so importing DIR2 after DIR1 makes new versions of the same documents.
      An edited ruling is edited the same way on every page that lists it.

Options:
  --entries N    distinct entries (rulings) to generate
  --seed S       the seed (default 1); the same seed gives the same bytes
  --out DIR      output directory (created; existing page-*.txt overwritten)
  --data DIR     where the seed documents are (default: data/ beside bench/)
  --mutate F, --from DIR1, --removed R, --added A, --mseed M: see above
  --stats        print entry/page/byte counts on stdout when done

Everything is deterministic: the layout comes from random.Random(seed), each
entry's text from R(seed, entry id), each mutation decision
from R(mseed, entry id); no state is kept in memory beyond one
page, so 1M entries take constant memory.
"""
import argparse
import json
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LANG_SHARE = (("en", 0.80), ("fr", 0.12), ("ru", 0.08))
SEED_FILES = {"en": ("000_", "001_"), "fr": ("002_", "003_"), "ru": ("004_",)}

SECTIONS = {
    "en": ("Frequently Asked Questions", "Errata / Updates"),
    "fr": ("Frequently Asked Questions", "Errata / Updates"),
    "ru": ("Frequently Asked Questions", "Errata / Updates"),
}
CATEGORIES = {
    "en": ["Aspects", "Blighted Island cards", "Effect Rules", "Event Cards",
           "General Play", "Power Cards", "Scenarios",
           "Spirits and Innate Powers", "Fear and Fear Cards",
           "Invader Actions", "Adversaries", "Setup", "Tokens", "Presence"],
    "fr": ["Cartes Pouvoir", "Règles des effets", "Cartes Événement",
           "Jeu général", "Esprits et pouvoirs innés", "Scénarios",
           "Actions des Envahisseurs", "Mise en place"],
    "ru": ["Общие правила", "Карты событий", "Атаки и защита",
           "Особенности", "Этапы хода", "Стек и броски"],
}
QUESTION_STARTS = {
    "en": ["Can", "Does", "If", "When", "How does", "What happens if",
           "Do", "Is", "Which", "Can I", "How many", "Should"],
    "fr": ["Peut-on", "Est-ce que", "Si", "Quand", "Comment", "Que se passe-t-il si",
           "Faut-il", "Une carte peut-elle"],
    "ru": ["Можно ли", "Если", "Когда", "Как", "Что происходит, если",
           "Нужно ли", "Может ли"],
}
ANSWER_STARTS = {
    "en": ["Yes.", "No.", "Yes, but", "No,", "Generally no,", "It depends:"],
    "fr": ["Oui.", "Non.", "Oui, mais", "Non,", "En général, non :"],
    "ru": ["Да.", "Нет.", "Да, но", "Нет,", "Как правило, нет:"],
}
PRODUCTS = ["Branch & Claw", "Jagged Earth", "Nature Incarnate",
            "Feather & Flame", "Horizons", "Core rulebook", "Promo Pack 2"]
PRINTINGS = ["1st printing", "2nd printing", "3rd printing", "4th printing"]
SYL = {
    "lat": ["ka", "ro", "thi", "mur", "vel", "an", "dor", "sel", "quo", "ith",
            "ba", "lun", "gra", "syl", "tor", "ene", "vash", "orn", "pel", "zi"],
    "cyr": ["ка", "ро", "ти", "мур", "вел", "ан", "дор", "сел", "кво", "ит",
            "ба", "лун", "гра", "сил", "тор", "ене", "ваш", "орн", "пел", "зи"],
}
def R(*parts):
    """A random.Random seeded from parts (a str seed: deterministic)."""
    return random.Random(":".join(str(x) for x in parts))


def zipf(r, n):
    """A rank in [0, n) with P(k) ~ 1/(k+1) (log-uniform)."""
    return min(int(n ** r.random()) - 1, n - 1)


WORD_RE = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)*|[.?!;:,]")


def load_vocab(data):
    """Bigram chains per language from the seed documents."""
    chains = {}
    caps = {}
    names = os.listdir(data)
    for lang, prefixes in SEED_FILES.items():
        toks = []
        for n in sorted(names):
            if n.startswith(prefixes):
                with open(os.path.join(data, n), encoding="utf-8") as f:
                    text = f.read()
                # drop the tags lines and markers: they are not prose
                text = "\n".join(l for l in text.splitlines()
                                 if "Tags:" not in l)
                toks += WORD_RE.findall(text)
        words = [t for t in toks if t[0].isalpha()]
        nxt = {}
        for a, b in zip(toks, toks[1:]):
            if a[0].isalpha() and b[0].isalpha():
                nxt.setdefault(a.lower(), []).append(b)
        chains[lang] = (words, nxt)
        caps[lang] = sorted({w for w in words if w[0].isupper() and len(w) > 3})
    return chains, caps


class Names:
    """Invented proper names, drawn Zipf-like: a few common, a long tail."""

    def __init__(self, seed, size=60000):
        r = R("names", seed)
        self.lat, self.cyr = [], []
        seen = set()
        while len(self.lat) < size:
            idx = [r.randrange(20) for _ in range(r.choice((2, 3, 3, 4)))]
            w = "".join(SYL["lat"][i] for i in idx)
            if w in seen:
                continue
            seen.add(w)
            self.lat.append(w.capitalize())
            self.cyr.append("".join(SYL["cyr"][i] for i in idx).capitalize())
        self.size = size

    def pick(self, r, lang):
        # half uniform over the pool (the long tail of rare names), half
        # Zipf-like (a few names everybody mentions)
        if r.random() < 0.5:
            k = r.randrange(self.size)
        else:
            k = zipf(r, self.size)
        return (self.cyr if lang == "ru" else self.lat)[k]


class Gen:
    def __init__(self, seed, data):
        self.seed = seed
        self.chains, self.caps = load_vocab(data)
        self.names = Names(seed)

    # ---- text ---------------------------------------------------------
    def phrase(self, r, lang, n):
        words, nxt = self.chains[lang]
        w = r.choice(words)
        out = [w]
        for _ in range(n - 1):
            if r.random() < 0.06:
                nm = self.names.pick(r, lang)
                out.append(nm if r.random() < 0.7 else '"%s %s"' % (
                    nm, self.names.pick(r, lang)))
                w = r.choice(words)
                out.append(w)
                continue
            cand = nxt.get(w.lower())
            w = r.choice(cand) if cand and r.random() < 0.85 else r.choice(words)
            out.append(w)
        return out

    def sentence(self, r, lang, lo=8, hi=28, end="."):
        ws = self.phrase(r, lang, r.randint(lo, hi))
        s = " ".join(ws)
        s = s[0].upper() + s[1:]
        if r.random() < 0.15:
            s += " (%s)" % " ".join(self.phrase(r, lang, r.randint(2, 6)))
        return s + end

    def question(self, r, lang, eid):
        q = "%s %s" % (r.choice(QUESTION_STARTS[lang]),
                       " ".join(self.phrase(r, lang, r.randint(6, 22))))
        if r.random() < 0.2:
            q += " (e.g., %s)" % self.names.pick(r, lang)
        return q + "?"

    def paragraph(self, r, lang):
        return " ".join(self.sentence(r, lang) for _ in range(r.randint(1, 3)))

    def answer(self, r, lang):
        """A list of lines (without indentation): paragraphs, blank lines,
        nested bullets."""
        paras = [r.choice(ANSWER_STARTS[lang]) + " " + self.paragraph(r, lang)]
        for _ in range(r.choices((0, 1, 2, 3, 5), (45, 25, 15, 10, 5))[0]):
            if r.random() < 0.25:
                paras.append([self.sentence(r, lang)
                              for _ in range(r.randint(2, 4))])
            else:
                paras.append(self.paragraph(r, lang))
        lines = []
        for p in paras:
            if lines:
                lines.append("")
            if isinstance(p, list):
                lines += ["\u2022 " + s for s in p]
            else:
                lines.append(p)
        return lines

    # ---- entries --------------------------------------------------------
    def entry(self, eid, lang, page_tag, tag_pool):
        r = R(self.seed, "entry", eid)
        e = {"id": eid, "lang": lang}
        e["category"] = r.choice(CATEGORIES[lang])
        e["question"] = self.question(r, lang, eid)
        e["answer"] = self.answer(r, lang)
        e["changed"] = r.random() < 0.03
        e["markers"] = r.choices((0, 1, 2, 3), (50, 38, 9, 3))[0]
        tags = [page_tag]
        for _ in range(r.choices((0, 1, 2, 3, 4), (10, 30, 30, 20, 10))[0]):
            t = tag_pool[zipf(r, len(tag_pool))]
            if r.random() < 0.25:
                t = "%s (%s)" % (t.split(" (")[0], self.names.pick(r, lang))
            if t not in tags:
                r.shuffle(tags)
                tags.append(t)
        e["tags"] = tags
        e["more"] = r.choice((0, 1, 2, 3, 5, 9, 13, 22, 38, 59)) \
            if r.random() < 0.45 else None
        return e

    def errata(self, eid, lang, page_tag):
        r = R(self.seed, "errata", eid)
        prod = r.choice(PRODUCTS)
        return {"id": eid, "lang": lang, "category": "Effect Rules",
                "question": "%s - %s" % (prod, r.choice(PRINTINGS)),
                "answer": ["Errata for %s rulebook, p. %d: -- %s" % (
                    prod, r.randint(1, 64) + 100 * (eid % 997),
                    self.sentence(r, lang))],
                "changed": False, "markers": 0,
                "tags": ["Rulebook", page_tag], "more": None}

    def mutate(self, e, mseed):
        r = R(mseed, "edit", e["id"])
        ans = list(e["answer"])
        i = r.randrange(len(ans))
        while not ans[i]:
            i = r.randrange(len(ans))
        new = self.sentence(r, e["lang"])
        if r.random() < 0.5:
            ans[i] = ans[i] + " " + new              # a sentence added
        else:
            bullet = ans[i].startswith("\u2022 ")
            ans[i] = ("\u2022 " if bullet else "") + new   # replaced
        e = dict(e, answer=ans)
        if r.random() < 0.3:
            e["changed"] = True
        return e


def render_entry(e, out):
    out.append("\u2022 " + e["question"])
    body = list(e["answer"])
    if e["changed"]:
        body[0] = "Changed answer: " + body[0]
    for l in body:
        out.append("  " + l if l else "  " if len(out) % 7 == 0 else "")
    tags = ", ".join(e["tags"])
    if e["more"] is not None:
        tags += ", %d more..." % e["more"]
    marks = " ".join(["(Discussion elsewhere)"] * e["markers"])
    # after nested bullets the real dumps indent the tags line deeper
    ind = "    " if body[-1].startswith("\u2022") else "  "
    out.append(ind + (marks + "  " if marks else "") + "Tags: " + tags)


def layout(seed, entries):
    """Pages: (tag, lang, [entry ids]), errata, shared entries. Uses only
    the layout RNG, so --mutate can redo it."""
    r = R(seed, "layout")
    pages = []
    eid = 0
    used = set()
    names = Names(seed)
    while eid < entries:
        n = min(r.randint(50, 200), entries - eid)
        lang = r.choices([l for l, _ in LANG_SHARE],
                         [w for _, w in LANG_SHARE])[0]
        while True:
            base = names.lat[r.randrange(3000)] + " " + \
                r.choice(("Powers", "Rules", "Cards", "Tokens", "Aspect",
                          "Events", "Damage", "Presence", "Timing"))
            tag = base if r.random() < 0.6 else "%s (%s)" % (
                base, names.lat[r.randrange(3000)])
            if lang == "ru" and r.random() < 0.7:
                tag = names.cyr[r.randrange(3000)] + " " + r.choice(
                    ("атаки", "правила", "карты", "особенности"))
            if tag.lower() not in used:
                used.add(tag.lower())
                break
        nerr = r.choice((0,) * 8 + (1, 2, 3)) if n > 5 else 0
        pages.append({"tag": tag, "lang": lang,
                      "ids": list(range(eid, eid + n)), "errata": nerr})
        eid += n
    # about 8 % of the entries are listed on a second page of their language
    by_lang = {}
    for i, p in enumerate(pages):
        by_lang.setdefault(p["lang"], []).append(i)
    for p in pages:
        p["shared"] = []
    for i, p in enumerate(pages):
        same = by_lang[p["lang"]]
        if len(same) < 2:
            continue
        for e in p["ids"]:
            if r.random() < 0.08:
                j = same[r.randrange(len(same))]
                if j != i:
                    pages[j]["shared"].append(e)
    return pages


def write_dump(g, pages, out, mut=None, stats=False):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, ".rulings"), "w", encoding="utf-8") as f:
        f.write("# bench/gen_faq.py: the pages name no game\ngame = Generated FAQ\n")
    home = {}
    for p in pages:
        for e in p["ids"]:
            home[e] = p
    tag_pool = [p["tag"] for p in pages]
    counts = {"pages": 0, "listed": 0, "bytes": 0, "edited": 0,
              "removed": 0, "added": 0}
    for n, p in enumerate(pages):
        ids = p["ids"] + p["shared"] + p.get("added", [])
        es = []
        for eid in ids:
            hp = home.get(eid, p)
            e = g.entry(eid, hp["lang"], hp["tag"], tag_pool)
            if mut and eid < mut["entries"]:
                r = R(mut["mseed"], "fate", eid)
                x = r.random()
                if x < mut["removed"]:
                    counts["removed"] += eid in p["ids"]
                    continue
                if x < mut["removed"] + mut["fraction"]:
                    e = g.mutate(e, mut["mseed"])
                    counts["edited"] += eid in p["ids"]
            if mut and eid >= mut["entries"]:
                counts["added"] += 1
            es.append(e)
        # categories in order, entries in their category in id order
        cats = {}
        for e in es:
            cats.setdefault(e["category"], []).append(e)
        lines = [p["tag"], ""]
        if p["errata"]:
            lines += [SECTIONS[p["lang"]][1], "", "Effect Rules", ""]
            for k in range(p["errata"]):
                render_entry(g.errata(n * 8 + k, p["lang"], p["tag"]), lines)
            lines.append("")
        lines += [SECTIONS[p["lang"]][0], ""]
        for c in sorted(cats):
            lines += [c, ""]
            for e in cats[c]:
                render_entry(e, lines)
            lines.append("")
        text = "\n".join(lines).rstrip("\n") + "\n"
        path = os.path.join(out, "page-%05d.txt" % n)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        counts["pages"] += 1
        counts["listed"] += len(es) + p["errata"]
        counts["bytes"] += len(text.encode("utf-8"))
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--entries", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--data", default=os.path.join(HERE, "..", "data"))
    ap.add_argument("--mutate", type=float, metavar="FRACTION")
    ap.add_argument("--from", dest="src")
    ap.add_argument("--removed", type=float, default=0.01)
    ap.add_argument("--added", type=float, default=0.01)
    ap.add_argument("--mseed", type=int, default=2)
    ap.add_argument("--stats", action="store_true")
    a = ap.parse_args()
    mut = None
    if a.mutate is not None:
        if not a.src:
            ap.error("--mutate needs --from DIR1")
        with open(os.path.join(a.src, ".gen.json")) as f:
            meta = json.load(f)
        a.entries, a.seed = meta["entries"], meta["seed"]
        mut = {"fraction": a.mutate, "removed": a.removed, "mseed": a.mseed,
               "entries": a.entries}
    elif not a.entries or a.entries < 1:
        ap.error("--entries N (N >= 1) or --mutate F --from DIR1")
    g = Gen(a.seed, a.data)
    pages = layout(a.seed, a.entries)
    if mut:
        r = R(a.mseed, "added")
        nadd = int(a.entries * a.added)
        for k in range(nadd):
            p = pages[r.randrange(len(pages))]
            p.setdefault("added", []).append(a.entries + k)
    counts = write_dump(g, pages, a.out, mut)
    with open(os.path.join(a.out, ".gen.json"), "w") as f:
        json.dump({"entries": a.entries, "seed": a.seed,
                   "mutate": mut, "counts": counts}, f)
    if a.stats:
        print(json.dumps(counts))


if __name__ == "__main__":
    sys.exit(main())
