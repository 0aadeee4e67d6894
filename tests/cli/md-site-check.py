#!/usr/bin/env python3
"""Checks a Markdown site (rulings export --all --format md) against the
database it was exported from (issue 14, point 1: md books).

    md-site-check.py SITE DB [PO-DIRECTORY]

Prints one line per finding, and a few facts:
  broken: PAGE -> LINK        a relative link whose file or #anchor is not there
                              (anchors: <a id="..."> and nothing else)
  anchored-links: N           how many links to an #anchor resolve
  unreached: PAGE             a page no link from index.md leads to
  max-clicks: N               the most links from index.md to any page
  largest: BYTES PAGE         the largest page
  order: BOOK: A after B      rules in a book's reading order (its contents,
                              then each "Next" page) not in number order
  toc: BOOK: ...              the contents' sections not in that order, or not
                              leading to their page's #anchor
  missing: BOOK: N            a ruling of a book on none of its pages
  twice: BOOK: N              ... on more than one place of them
  stray: BOOK: N              a rule anchor of a book that is no ruling of it
                              (other than a section's heading with no rule)
  untagged: TITLE             a book's ruling on untagged.md
  untagged-count: N M         untagged.md holds N entries, the database M
                              rulings with no tag outside the books
  books: N                    how many books (tables of contents)
  entry-links: N              links from a book's pages to an entry of a tag
                              page (its "r" and id anchor) that resolve
  english: PAGE LANG TEXT     with PO-DIRECTORY: an English interface word
                              (site-crawl.py's patterns from the catalog) on a
                              tag page whose language (most of its entries',
                              from the database) is LANG, not English
  interface: LANG N           the interface texts of LANG's tag pages checked
Exits 0 (findings are for the caller to judge).
"""
import html
import os
import re
import sqlite3
import sys
import urllib.parse
from collections import Counter, deque

site, dbpath = sys.argv[1], sys.argv[2]

ANCHOR = re.compile(r'<a id="([^"]*)"></a>')
# [text](dest): text with escaped brackets, dest <...> or no space/paren
LINK = re.compile(r'\[(?:[^\]\\]|\\.)*\]\((<[^>\n]*>|[^)\s]*)\)')

pages = {}
for name in sorted(os.listdir(site)):
    if name.endswith(".md"):
        with open(os.path.join(site, name), encoding="utf-8") as f:
            pages[name] = f.read()

anchors = {n: {html.unescape(a) for a in ANCHOR.findall(t)} for n, t in pages.items()}
links = {}
anchored = 0
for name, text in pages.items():
    out = []
    for dest in LINK.findall(text):
        dest = dest.strip("<>")
        if re.match(r"[a-z]+:", dest):
            continue                     # a web link
        file, _, frag = dest.partition("#")
        target = file or name
        out.append(target)
        if target not in pages:
            print(f"broken: {name} -> {dest}")
        elif frag and urllib.parse.unquote(frag) not in anchors[target]:
            print(f"broken: {name} -> {dest}")
        else:
            anchored += bool(frag)
    links[name] = out

print(f"anchored-links: {anchored}")

# clicks from the index
depth = {"index.md": 0} if "index.md" in pages else {}
queue = deque(depth)
while queue:
    p = queue.popleft()
    for q in links[p]:
        if q in pages and q not in depth:
            depth[q] = depth[p] + 1
            queue.append(q)
for name in pages:
    if name not in depth:
        print(f"unreached: {name}")
print(f"max-clicks: {max(depth.values()) if depth else -1}")
big = max(pages, key=lambda n: len(pages[n].encode("utf-8")))
print(f"largest: {len(pages[big].encode('utf-8'))} {big}")


# ---- rule order (export_book.c: by chapter, then part by part) -------------
def parts(num):
    """A rule number part by part: digit runs by value, other bytes as
    they are, '.' before digits before letters; a prefix first."""
    return tuple((0x30, int(t)) if t.isdigit() else (ord(t), 0)
                 for t in re.findall(r"\d+|\D", num))


def order_key(num, chapters):
    head = num.split(".")[0]
    chap = max((c for c in chapters if head.startswith(c)), key=len, default=head)
    return (parts(chap), parts(num))


def next_page(text):
    """The page a book page's "Next" link leads to: the last link of its
    first pager line (the line before the first blank after the title)."""
    lines = text.split("\n")
    pager = lines[2] if len(lines) > 2 else ""
    found = LINK.findall(pager)
    if not found:
        return None
    dest = found[-1].strip("<>").partition("#")[0]
    # the pager's last link is "Next" unless it is the contents
    return dest if not dest.startswith("contents-") else None


db = sqlite3.connect(f"file:{dbpath}?mode=ro", uri=True)
rows = db.execute("""
    SELECT r.id, r.kind, r.rule, r.title,
           (SELECT d.title FROM ruling_sources s JOIN documents d
              ON d.id = s.document_id WHERE s.ruling_id = r.id
            ORDER BY s.import_id DESC LIMIT 1),
           (SELECT s.document_id FROM ruling_sources s WHERE s.ruling_id = r.id
            ORDER BY s.import_id DESC LIMIT 1),
           EXISTS (SELECT 1 FROM ruling_tags t WHERE t.ruling_id = r.id),
           r.game_id, r.lang
    FROM rulings r WHERE r.withdrawn_at IS NULL ORDER BY r.id""").fetchall()
# the books: documents with a numbered rule, or only glossary entries; the
# documents of one game and language that hold only glossary entries (a
# glossary in a file per term) are one book, titled with the catalog's
# "Glossary" in that language, when there are several
kinds, first = {}, {}
for rid, kind, rule, title, doc_title, doc, tagged, game, lang in rows:
    k = "r" if kind == "rule" and rule else "g" if kind == "glossary" else "o"
    kinds.setdefault(doc, Counter())[k] += 1
    first.setdefault(doc, (game, lang))
book_docs = {d for d, c in kinds.items() if d and (c["r"] or (c["g"] and not c["o"]))}
gloss_docs = Counter(first[d] for d in book_docs
                     if not kinds[d]["r"] and not kinds[d]["o"])


def glossary_word(lang):
    po = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                      "po", f"{lang}.po")
    if not os.path.exists(po):
        po = os.path.join(os.path.dirname(po), "en.po")
    text = open(po, encoding="utf-8").read()
    return re.search(r'msgid "Glossary"\nmsgstr "([^"]*)"', text).group(1)


def book_title(doc, doc_title):
    if not kinds[doc]["r"] and not kinds[doc]["o"] and gloss_docs[first[doc]] > 1:
        return glossary_word(first[doc][1])
    return doc_title


want = {}          # book title -> Counter of its rule numbers and r<id>
untagged_want = 0
book_titles = set()
for rid, kind, rule, title, doc_title, doc, tagged, game, lang in rows:
    inbook = doc in book_docs and (kind == "glossary" or (kind == "rule" and rule))
    if inbook:
        want.setdefault(book_title(doc, doc_title), Counter())[rule if kind == "rule" else f"r{rid}"] += 1
        book_titles.add(title)
    elif not tagged:
        untagged_want += 1

tocs = [n for n in pages if n.startswith("contents-")]
print(f"books: {len(tocs)}")
seen = {}
for toc in tocs:
    text = pages[toc]
    title = html.unescape(re.sub(r"\\(.)", r"\1", text.split("\n", 1)[0][2:]))
    chain, p = [toc], next_page(text)
    while p and p in pages and p not in chain:
        chain.append(p)
        p = next_page(pages[p])
    found = Counter()
    nums = []          # the rule anchors in reading order
    heads_only = set()
    for p in chain:
        for line in pages[p].split("\n"):
            for a in ANCHOR.findall(line):
                a = html.unescape(a)
                found[a] += 1
                if not re.fullmatch(r"r\d+", a):
                    nums.append(a)
                    if line.startswith("#"):
                        heads_only.add(a)
    w = want.get(title, Counter())
    seen.setdefault(title, Counter()).update(found)
    chapters = {n for n in nums if "." not in n and
                any(m != n and "." not in m and m.startswith(n) for m in nums)}
    # the contents' own rules (the chapters'), then the pages', each in
    # number order
    ntoc = sum(1 for a in ANCHOR.findall(text) if not re.fullmatch(r"r\d+", a))
    for run in (nums[:ntoc], nums[ntoc:]):
        keys = [order_key(n, chapters) for n in run]
        for k in range(1, len(run)):
            if keys[k] <= keys[k - 1]:
                print(f"order: {title}: {run[k]} after {run[k - 1]}")
                break
    # the contents' sections: in order, each to its page's #anchor
    toc_heads = [urllib.parse.unquote(d.partition("#")[2])
                 for d in LINK.findall(text) if "#" in d]
    heads = [n for n in nums if "." not in n and n not in chapters]
    if toc_heads != heads:
        print(f"toc: {title}: {toc_heads[:5]} ... is not {heads[:5]} ...")

for title, w in want.items():
    f = seen.get(title, Counter())
    for num, n in sorted(w.items()):
        if f[num] < n:
            print(f"missing: {title}: {num}")
        elif f[num] > n:
            print(f"twice: {title}: {num}")
    for num in f:
        if num not in w and not re.fullmatch(r"r\d+", num) and \
                not re.fullmatch(r"[^.]+", num):
            print(f"stray: {title}: {num}")

untagged = pages.get("untagged.md", "")
entries = [ANCHOR.sub("", l[5:]) for l in untagged.split("\n") if l.startswith("#### ")]
for e in entries:
    if re.sub(r"\\(.)", r"\1", e) in book_titles:
        print(f"untagged: {e}")
print(f"untagged-count: {len(entries)} {untagged_want}")

# tag pages: their entries' anchors, the links from books to them, their
# interface words in their language
ENTRY = re.compile(r'^#### <a id="r(\d+)"></a>', re.M)
tag_pages = {n: [int(i) for i in ENTRY.findall(t)] for n, t in pages.items()}
tag_pages = {n: v for n, v in tag_pages.items() if v or n == "untagged.md"}
entry_links = 0
for name, text in pages.items():
    if name in tag_pages:
        continue
    for dest in LINK.findall(text):
        file, _, frag = dest.strip("<>").partition("#")
        if file in tag_pages and re.fullmatch(r"r\d+", frag) and \
                frag in anchors[file]:
            entry_links += 1
print(f"entry-links: {entry_links}")

if len(sys.argv) > 3:
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "site_crawl_words", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                         "site-crawl.py"))
    crawl = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(crawl)
    patterns = crawl.english_patterns(sys.argv[3])
    # the texts a tag page's own words are in: its title when it is
    # untagged.md, labels "*Tags:* ", "**Changed answer.**", "*(…)*", and
    # what follows the last tag link ("and 2 more")
    LABEL = re.compile(r"^\*\*(.+?)\*\*$|^\*([^*\n]+)\*(?: |  $|$)", re.M)
    checked = Counter()
    for name, ids in sorted(tag_pages.items()):
        langs = Counter(db.execute(
            "SELECT lang FROM rulings WHERE id = ?", (i,)).fetchone()[0] for i in ids)
        top = langs.most_common(2)
        if not top or (len(top) > 1 and top[0][1] == top[1][1]):
            continue                      # no entry, or a tie: no language to hold it to
        lang = top[0][0].split("-")[0]
        pats = patterns.get(lang)
        if not pats:
            continue
        text = pages[name]
        texts = [a or b for a, b in LABEL.findall(text)]
        if name == "untagged.md":
            texts.append(text.split("\n", 1)[0][2:])
        for line in text.split("\n"):
            if line.startswith("*") and "](" in line:
                texts.append(line.rsplit(")", 1)[1])
        for s in texts:
            for part in crawl.PARTS.split(re.sub(r"\\(.)", r"\1", s)):
                part = part.strip(" :,\n")
                if not part:
                    continue
                checked[lang] += 1
                if any(p.match(part) for p in pats):
                    print(f"english: {name} {lang} {part}")
    for lang in sorted(checked):
        print(f"interface: {lang} {checked[lang]}")
