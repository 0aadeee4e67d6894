#!/usr/bin/env bash
# The Berserk: Heroes card FAQs (card-faq) on the real corpus
# (../shared/corpora/berserk-heroes-ru, read in place, never copied into the
# repository; see its PROVENANCE.md), end to end, against an independent
# reading of the raw .rst files by python3:
#
#   FAQ12.rst        numbered entries "1.  Name" (or "5." and a picture
#                    alone) over ".. image::" lines, then the answer: one
#                    ruling per entry that has an answer, titled by its name
#                    or "DOCUMENT, N", tagged by its name; the others warned
#                    about at their lines and left out
#   heroes_faq.rst   a section per hero: the card text (a glossary entry)
#                    and the ".. admonition:: Комьюнити FAQ" (the ruling);
#                    the text under the title, a ruling titled by it
#
# Then the whole folder imported as a user would (every file: the glossaries,
# the numbered rules and both card FAQs, changelist.rst and PROVENANCE.md of
# no format), imported again (the card FAQs unchanged), a word of FAQ12
# searched in another form with --lang ru, and the site exported: a page for
# every card, no picture reference or markup in any page.
#
#   bash tests/cli/test-corpus-cardfaq.sh BUILD/rulings CORPORA
#
# Exits 77 (skipped) when the corpus is not there.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

CORPORA=${RULINGS_CORPORA:-${2:-}}
if [ -z "$CORPORA" ] || [ ! -f "$CORPORA/berserk-heroes-ru/FAQ12.rst" ] ||
   [ ! -f "$CORPORA/berserk-heroes-ru/heroes_faq.rst" ]; then
	echo "skipped: no corpora at '${CORPORA:-}'"
	_finished=1
	exit 77
fi
BH=$(cd "$CORPORA/berserk-heroes-ru" && pwd)
G="Берсерк. Герои"

# ---- the independent reading ----------------------------------------------
python3 - "$BH/FAQ12.rst" "$BH/heroes_faq.rst" >expect.json <<'PY'
import json, re, sys

def plain(s):
    # the markup these files use: **bold**; a "\" that ends a line
    s = re.sub(r"\*\*(\S(?:.*?\S)?)\*\*", r"\1", s, flags=re.S)
    return s

def paragraphs(lines):
    """Lines (already stripped of markup lines) as the text: the lines of
    a paragraph joined by a space (as reStructuredText reads them), a line
    break after a line that ends with a "\\", runs of blank lines one
    paragraph break."""
    paras, cur = [], ""
    for l in lines:
        l = l.strip()
        brk = l.endswith("\\") and not l.endswith("\\\\")
        if brk:
            l = l[:-1].rstrip()
        if l:
            cur += l + ("\n" if brk else " ")
        elif cur:
            paras.append(cur.strip())
            cur = ""
    if cur:
        paras.append(cur.strip())
    return plain("\n\n".join(paras)).strip()

def numbered(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    title = lines[0].strip()
    entries, cur = [], None
    for no, l in enumerate(lines[2:], 3):
        m = re.match(r"^(\d+)\.(?:\s+(.*?))?\s*$", l)
        if m:
            cur = {"n": int(m.group(1)), "name": (m.group(2) or "").strip(),
                   "line": no, "body": [], "picture": None}
            entries.append(cur)
        elif cur is not None and not re.match(r"^\s*\.\. ", l):
            cur["body"].append(l)
        elif cur is not None and not cur["picture"]:
            m = re.match(r"^\s*\.\. (?:image|figure)::\s*(\S+)", l)
            cur["picture"] = m and m.group(1)
    rulings, alone = [], []
    for e in entries:
        text = paragraphs(e["body"])
        if not text:
            alone.append([e["n"], e["line"], e["picture"]])
            continue
        t = e["name"] or "%s, %d" % (title, e["n"])
        rulings.append({"kind": "faq", "title": t, "text": text,
                        "category": None,
                        "tags": [e["name"]] if e["name"] else []})
    return {"title": title, "rulings": rulings, "alone": alone}

def heroes(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    title = lines[0].strip()
    out, i, intro = [], 2, []
    sections = []
    while i < len(lines):
        if (i + 1 < len(lines) and lines[i].strip() and
                re.match(r"^-{3,}\s*$", lines[i + 1])):
            sections.append({"name": lines[i].strip(), "card": [],
                             "faq": [], "label": None})
            i += 2
            continue
        l = lines[i]
        if not sections:
            intro.append(l)
        elif l.startswith(".. admonition::"):
            sections[-1]["label"] = l.split("::", 1)[1].strip()
        elif l.startswith(".. image::"):
            pass
        elif sections[-1]["label"] and (l[:1] in (" ", "") ):
            sections[-1]["faq"].append(l)
        else:
            sections[-1]["card"].append(l)
        i += 1
    out.append({"kind": "faq", "title": title, "text": paragraphs(intro),
                "category": None, "tags": []})
    for s in sections:
        out.append({"kind": "glossary", "title": s["name"],
                    "text": paragraphs(s["card"]), "category": None,
                    "tags": [s["name"]]})
        out.append({"kind": "faq", "title": s["name"],
                    "text": paragraphs(s["faq"]), "category": s["label"],
                    "tags": [s["name"]]})
    return {"title": title, "rulings": out, "alone": []}

print(json.dumps({"faq12": numbered(sys.argv[1]),
                  "heroes": heroes(sys.argv[2])}, ensure_ascii=False))
PY
check_eq "the independent reading of the two card FAQs" 0 "$?"
n12=$(json_get 'len(d["faq12"]["rulings"])' expect.json)
nalone=$(json_get 'len(d["faq12"]["alone"])' expect.json)
nheroes=$(json_get 'len(d["heroes"]["rulings"])' expect.json)
echo "# FAQ12.rst: $n12 entries with an answer, $nalone a picture alone; heroes_faq.rst: $nheroes rulings"
check_eq "...FAQ12.rst has entries of both kinds (PROVENANCE.md: names, and '5.' with a picture alone)" \
	1 "$([ "$n12" -gt 10 ] && [ "$nalone" -gt 0 ] && echo 1)"

# ---- parse: each file against the reading ---------------------------------
for f in FAQ12:faq12 heroes_faq:heroes; do
	file=${f%%:*} key=${f#*:}
	rl parse "$BH/$file.rst"
	check_exit "$file.rst: parses" 0
	cp "$OUT" "$key.json"
	check_json "$file.rst: detected as card-faq, its title its heading" \
		"d['format'] == 'card-faq' and d['title'] == __import__('json').load(open('expect.json'))['$key']['title']" \
		"$key.json"
	check_json "$file.rst: every ruling as the raw text has it (kind, title, text, category, tags), in order" \
		"[{'kind': e['kind'], 'title': e['title'], 'text': e['text'], 'category': e['category'], 'tags': [t['name'] for t in e['tags']]} for e in d['entries']] == __import__('json').load(open('expect.json'))['$key']['rulings']" \
		"$key.json"
	check_json "$file.rst: no picture reference or RST markup in any title or text" \
		"not [e for e in d['entries'] for s in (e['title'], e['text']) if re.search(r'image::|\\.png|\\*\\*|\\\\\$', s, re.M)]" \
		"$key.json"
done
# each entry with a picture alone: a warning at its line, nothing else
expected_warnings=$(python3 -c '
import json, sys
d = json.load(open("expect.json"))["faq12"]
for n, line, picture in d["alone"]:
    print("rulings: %s:%d: warning: entry %d has no text (a picture alone: %s); left out" % (sys.argv[1], line, n, picture))
' "$BH/FAQ12.rst")
rl parse "$BH/FAQ12.rst"
check_eq "FAQ12.rst: a warning at FILE:LINE for each entry with a picture alone, naming it, and no other" \
	"$expected_warnings" "$(cat "$ERR")"
check_json "heroes_faq.rst: each hero's ruling refers to its card text as a term, 'card: NAME'" \
	"all(e['refs'] == [{'kind': 'term', 'target': 'card: ' + e['title']}] for e in d['entries'] if e['category'])" \
	heroes.json
check_json "heroes_faq.rst: a card text's key is 'card: NAME' (not a term's: see cli-glossaries)" \
	"[e['key'] for e in d['entries'] if e['kind'] == 'glossary'] == ['card: ваэгар', 'card: дартарион', 'card: сайконо', 'card: тилия']" \
	heroes.json

# ---- the whole folder, as a user imports it -------------------------------
rl --db bh.db import --game "$G" "$BH"/*
check_exit "the whole folder: two files of no format fail, exit 65" 65
for f in FAQ12:card-faq heroes_faq:card-faq c1_rules:numbered-rules \
         dictionary_2024-01-17_rules-v14.2_0bb565d:rst-glossary \
         dictionary_2024-06-04_rules-v15.0_5d0d7f7:rst-glossary \
         dictionary_2025-06-19_rules-v17.0_7c7e2d8:rst-glossary; do
	check_match "...${f%%:*}.rst imported as ${f#*:}" \
		"^imported $BH/${f%%:*}\\.rst: .*\\(${f#*:}, ru\\)\$" "$(cat "$OUT")"
done
check_match "...FAQ12.rst's rulings" \
	"^imported $BH/FAQ12\\.rst: $n12 entries, $n12 added," "$(cat "$OUT")"
check_match "...heroes_faq.rst's" \
	"^imported $BH/heroes_faq\\.rst: $nheroes entries, $nheroes added," "$(cat "$OUT")"
for f in changelist.rst PROVENANCE.md; do
	check_err_contains "...$f is of no format, as before" \
		"rulings: $BH/$f: error: not a document format rulings recognizes"
done
check_match "...the summary" \
	"^8 documents: 6 imported, 0 unchanged, 0 skipped, 2 failed;" "$(cat "$OUT")"

# the folder itself, as the README shows it: the files of no format skipped
rl --db dir.db import --game "$G" "$BH"
check_exit "the folder given: imported" 0
check_match "...six documents, the two of no format skipped" \
	"^8 documents: 6 imported, 0 unchanged, 2 skipped, 0 failed;" "$(cat "$OUT")"

rl --db bh.db import --game "$G" "$BH/FAQ12.rst" "$BH/heroes_faq.rst"
check_exit "the card FAQs imported again" 0
check_out_contains "...FAQ12.rst unchanged" "unchanged $BH/FAQ12.rst"
check_out_contains "...heroes_faq.rst unchanged" "unchanged $BH/heroes_faq.rst"
check_match "...nothing changed" \
	"^2 documents: 0 imported, 2 unchanged, 0 skipped, 0 failed; rulings: 0 added, 0 edited, 0 withdrawn" \
	"$(cat "$OUT")"

# a word of FAQ12 in another form ("Перемешивания" written; "перемешивание"
# searched): the FAQ12 rulings that say it, by the reading
want=$(python3 -c '
import json
d = json.load(open("expect.json"))["faq12"]
print(sorted(r["title"] for r in d["rulings"] if "еремешивани" in r["text"]))')
rl --db bh.db search --lang ru --limit 100 --format json перемешивание
check_exit "search --lang ru перемешивание: found" 0
cp "$OUT" search.json
check_json "...the FAQ12 rulings whose text says the word, in any form" \
	"str(sorted(r['title'] for r in d['results'] if any(s['document'] == 'FAQ Возвращения древних' for s in r['sources']))) == '''$want'''" \
	search.json
check_json "...three of them" \
	"sum(1 for r in d['results'] if any(s['document'] == 'FAQ Возвращения древних' for s in r['sources'])) == 3" \
	search.json
rl --db bh.db search --lang ru --format json 'Зардагор'
check_json "a card by its name: its ruling, tagged with it" \
	"d['results'][0]['title'] == 'Зардагор, Кровавый' and d['results'][0]['tags'] == ['Зардагор, Кровавый']"

rl --db bh.db xrefs --dangling
check_not_contains "the heroes' rulings' references to their card texts resolve" \
	"$(cat "$OUT")" "Ваэгар"

# ---- the site ---------------------------------------------------------------
rl --db bh.db export --all --format html -o site
check_exit "export --all --format html: the site" 0
python3 - site expect.json >site.check 2>&1 <<'PY'
import glob, html, json, os, re, sys
site, expect = sys.argv[1], json.load(open(sys.argv[2]))
pages = {}
for p in glob.glob(os.path.join(site, "*.html")):
    t = open(p, encoding="utf-8").read()
    m = re.search(r"<title>([^<]*)</title>", t)
    pages[html.unescape(m.group(1)) if m else os.path.basename(p)] = t
problems = []
for key in ("faq12", "heroes"):
    for r in expect[key]["rulings"]:
        if r["tags"]:
            page = pages.get(r["tags"][0])
            if page is None:
                problems.append("no page for the card %r" % r["tags"][0])
            elif html.escape(r["text"].split("\n")[0], quote=False) not in page:
                problems.append("the page of %r lacks its text" % r["title"])
        elif not any(html.escape(r["title"], quote=False) in t and
                     html.escape(r["text"].split("\n")[0], quote=False) in t
                     for t in pages.values()):
            problems.append("no page holds the untagged %r" % r["title"])
for name, t in pages.items():
    if re.search(r"image::|images/|\*\*", t):
        problems.append("a picture reference or markup in the page %r" % name)
print("\n".join(problems) if problems else "ok")
PY
check_eq "...a page for every card, holding its rulings (a wrapped paragraph whole, no <br> where the source wrapped); the untagged ones listed; no picture reference or markup in any page" \
	"ok" "$(cat site.check)"

finish
