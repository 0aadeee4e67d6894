#!/usr/bin/env bash
# The glossary importers on the real corpora (../shared/corpora beside the
# source root, read in place; see each folder's PROVENANCE.md): what the
# database holds is checked against counts computed here from the raw
# files, independently of rulings.
#
#   bash tests/cli/test-corpus-glossaries.sh BUILD/rulings CORPORA
#
# Exits 77 (skipped) when the corpora are not there.
#
#   berserk-heroes-ru/dictionary_*.rst   rst-glossary: one glossary entry per
#       distinct bold term, its letter heading its section; every :term: reference
#       resolves, or is listed by xrefs --dangling
#   berserk-heroes-ru/c1_rules.rst       numbered-rules (RST): the set of rule
#       numbers is the one a regular expression finds in the text
#   marvel-champions-fr/docs/            markdown-glossary: one entry per
#       file; wikilinks resolve by file name and by title; xrefs --dangling
#       lists exactly the links whose target no file has as name or title
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

CORPORA=${RULINGS_CORPORA:-${2:-}}
if [ -z "$CORPORA" ] || [ ! -d "$CORPORA/berserk-heroes-ru" ] ||
   [ ! -d "$CORPORA/marvel-champions-fr/docs" ]; then
	echo "skipped: no corpora at '${CORPORA:-}'"
	_finished=1
	exit 77
fi
CORPORA=$(cd "$CORPORA" && pwd)
BH=$CORPORA/berserk-heroes-ru
MC=$CORPORA/marvel-champions-fr/docs

# fold: the identity keys, as rl_key_loose() makes them (case, ё, accents on
# Latin letters, curly quotes and dashes, blanks), for the expectations.
PYFOLD='
import re, unicodedata
def fold(s):
    s = s.translate({0x2018: "\x27", 0x2019: "\x27", 0x201B: "\x27", 0x2032: "\x27",
                     0x60: "\x27", 0x201C: "\"", 0x201D: "\"", 0x201E: "\"",
                     0x2033: "\"", 0xAB: "\"", 0xBB: "\"", 0x2010: "-",
                     0x2011: "-", 0x2012: "-", 0x2013: "-", 0x2014: "-",
                     0x2212: "-", 0x2026: "..."})
    s = s.lower().replace("ё", "е")
    out = []
    for ch in s:
        if 0xC0 <= ord(ch) <= 0x17F:
            base = unicodedata.normalize("NFD", ch)[0]
            ch = base if base.isascii() else ch
        out.append(ch)
    return " ".join("".join(out).replace("\u00a0", " ").replace("\u202f", " ").split())
'

# ---- rst-glossary: the three versions of the dictionary ----------------------------
for f in "$BH"/dictionary_*.rst; do
	v=$(basename "$f" .rst)
	db=$v.db
	rl --db "$db" import --game "Берсерк. Герои" "$f"
	check_exit "$v: imports" 0
	check_match "$v: detected as rst-glossary" "\(rst-glossary, ru\)$" "$(cat "$OUT")"

	# The expectations, from the raw file: a term is an indented line that
	# starts with "**"; its name is what the bold holds, without the final
	# period; terms that differ only in case are one.
	python3 - "$f" >"$v.expect.json" <<EOF
$PYFOLD
import json, sys
text = open(sys.argv[1], encoding="utf-8").read()
lines = text.split("\n")
terms, letters = {}, {}
letter = None
for i, l in enumerate(lines):
    if re.match(r"^\S", l) and i + 1 < len(lines) and re.match(r"^([-=~^])\1{2,}\s*$", lines[i + 1]):
        letter = l.strip().strip("*")
    m = re.match(r"^\s+\*\*(.+?)\*\*", l)
    if m:
        name = m.group(1).strip()
        name = name[:-1].strip() if name.endswith(".") else name
        terms.setdefault(fold(name), name)
        letters.setdefault(fold(name), letter)
refs = [t.strip() for t in re.findall(r":term:\`([^\`]*)\`", text)]
refs = [t[:-1].strip() if t.endswith(".") else t for t in refs]
print(json.dumps({"lines": sum(1 for l in lines if re.match(r"^\s+\*\*", l)),
                  "terms": terms,
                  "letters": {terms[k]: v for k, v in letters.items()},
                  "refs": refs},
                 ensure_ascii=False))
EOF
	nterms=$(json_get 'len(d["terms"])' "$v.expect.json")
	nlines=$(json_get 'd["lines"]' "$v.expect.json")
	echo "# $v: $nlines bold term lines, $nterms distinct terms"
	rl --db "$db" search --kind glossary --limit 0 --format json
	cp "$OUT" "$v.all.json"
	check_json "$v: the glossary count ($nterms) is the distinct bold-term count" \
		"d['total'] == $nterms and len(d['results']) == $nterms" "$v.all.json"
	check_json "$v: the entries are the raw file's terms, bold and final period gone" \
		"sorted(r['title'] for r in d['results']) == sorted(__import__('json').load(open('$v.expect.json'))['terms'].values())" \
		"$v.all.json"
	check_json "$v: each entry's section is its letter heading, not a tag (issue 14)" \
		"all(r['section'] == __import__('json').load(open('$v.expect.json'))['letters'][r['title']] and r['tags'] == [] for r in d['results'])" \
		"$v.all.json"
	check_json "$v: no inline markup is left in the texts" \
		"not any('**' in r['text'] or ':term:' in r['text'] or '\`' in r['text'] for r in d['results'])" \
		"$v.all.json"

	rl --db "$db" xrefs --kind term --format json
	cp "$OUT" "$v.xrefs.json"
	rl --db "$db" xrefs --dangling --format json
	if [ "$STATUS" = 1 ]; then
		echo '{"dangling": []}' >"$v.dangling.json"
	else
		cp "$OUT" "$v.dangling.json"
	fi
	check_json "$v: the term references are the raw file's :term: roles" \
		"sorted(set(x['target'] for x in d['xrefs'])) == sorted(set(__import__('json').load(open('$v.expect.json'))['refs']))" \
		"$v.xrefs.json"
	check_json "$v: every :term: reference resolves, or is listed by xrefs --dangling" \
		"all(x['resolved'] or (x['from'], x['target']) in [(y['from'], y['target']) for y in __import__('json').load(open('$v.dangling.json'))['dangling']] for x in d['xrefs'])" \
		"$v.xrefs.json"
	check_json "$v: a resolved reference names the term it resolves to" \
		"all(x['target'] == {r['id']: r['title'] for r in __import__('json').load(open('$v.all.json'))['results']}[x['id']] for x in d['xrefs'] if x['resolved'])" \
		"$v.xrefs.json"
done

# ---- numbered rules in RST: c1_rules.rst -------------------------------------------
rl --db c1.db import --game "Берсерк. Герои" "$BH/c1_rules.rst"
check_exit "c1_rules.rst: imports" 0
check_match "c1_rules.rst: as numbered-rules" "\(numbered-rules, ru\)$" "$(cat "$OUT")"
python3 - "$BH/c1_rules.rst" >c1.expect.json <<'EOF'
import json, re, sys
nums = re.findall(r"(?m)^(\d{1,4}(?:\.\d{1,4})*)\.?[ \t]+\S", open(sys.argv[1], encoding="utf-8").read())
print(json.dumps(sorted(set(nums))))
EOF
echo "# c1_rules.rst: rule numbers $(cat c1.expect.json)"
rl --db c1.db search --kind rule --limit 0 --format json
check_json "c1_rules.rst: the rule numbers are exactly those of the raw text" \
	"sorted(set(r['rule'] for r in d['results'])) == __import__('json').load(open('c1.expect.json')) and len(d['results']) == len(__import__('json').load(open('c1.expect.json')))"
check_json "c1_rules.rst: sections 101–105 are entries with their headings' titles" \
	"sorted((r['rule'], r['title']) for r in d['results'] if '.' not in r['rule']) == [('101', 'Общие сведения об игре'), ('102', 'Объекты игры'), ('103', 'Карты'), ('104', 'Свойства карт'), ('105', 'Названия карт')]"
check_json "c1_rules.rst: the rules' section is their heading" \
	"all(r['section'].startswith(r['rule'].split('.')[0] + '. ') for r in d['results'] if '.' in r['rule'])"
check_json "c1_rules.rst: no underline is left in a text" \
	"not any(re.search(r'(?m)^(-{3,}|={3,})$', r['text']) for r in d['results'])"
rl --db c1.db show 104
check_exit "c1_rules.rst: show 104 (a section)" 0
check_out_contains "c1_rules.rst: show 104 is «Свойства карт»" "Свойства карт"
rl --db c1.db show 102.1 --format json
check_json "c1_rules.rst: rule 102.1 holds its three bullets" \
	"d['text'].count('\n• ') == 3"

# ---- markdown-glossary: the Marvel Champions vault ------------------------------------
python3 - "$MC" >mc.expect.json <<EOF
$PYFOLD
import json, os, sys
root = sys.argv[1]
files = []
for d, dirs, names in os.walk(root):
    dirs[:] = [x for x in dirs if not x.startswith(".")]
    files += [os.path.join(d, n) for n in names if n.endswith(".md") and not n.startswith(".")]
def plain(s):
    s = re.sub(r"\[\[([^\]|]*)\|([^\]]*)\]\]", r"\2", s)
    s = re.sub(r"\[\[([^\]]*)\]\]", r"\1", s)
    s = re.sub(r"[\ue000-\uf8ff]", "", s).replace("()", "")
    return " ".join(s.replace("**", "").split())
titles, h1 = {}, 0
links = []
for p in files:
    lines = open(p, encoding="utf-8").read().split("\n")
    stem = os.path.splitext(os.path.basename(p))[0]
    body = [l for l in lines if l.strip()]
    first = body[0] if body else ""
    heads = [l for l in lines if re.match(r"^#+ ", l)]
    if any(l.startswith("# ") for l in lines):
        title = [l[2:] for l in lines if l.startswith("# ")][0]
        h1 += 1
    elif re.match(r"^##+ ", first) and sum(1 for l in heads if len(l) - len(l.lstrip("#")) <= len(first) - len(first.lstrip("#"))) == 1:
        title = first.lstrip("#")
    elif len(first.strip()) <= 100 and not re.match(r"^[-*+>\[!|\`#0-9]", first.strip()) \
            and not re.search(r"[.,;:!?]$", first.strip()) and len(body) > 1 \
            and lines[lines.index(first) + 1].strip():
        title = first
    else:
        title = stem
    titles[p] = (plain(title), stem)
    for m in re.finditer(r"(!?)\[\[([^\]]*)\]\]", "\n".join(lines)):
        if m.group(1):
            continue
        target = m.group(2).split("|")[0].split("#")[0].strip()
        if target:
            links.append((p, target))
names = {}
for p, (title, stem) in titles.items():
    names.setdefault(fold(stem), p)
for p, (title, stem) in titles.items():
    names.setdefault(fold(title), p)
seen, refs = set(), []
for p, t in links:
    if (p, fold(t)) not in seen:
        seen.add((p, fold(t)))
        refs.append((p, t))
print(json.dumps({
    "files": len(files), "h1": h1,
    "titles": sorted(t for t, s in titles.values()),
    "by_stem": sorted([p, t, [q for q, (tt, s) in titles.items() if s == t][0]] for p, t in refs
                      if t in [s for tt, s in titles.values()]),
    "by_title_only": sorted([p, t, names[fold(t)]] for p, t in refs
                            if fold(t) in names and fold(t) not in [fold(s) for tt, s in titles.values()]),
    "dangling": sorted([p, t] for p, t in refs if fold(t) not in names),
}, ensure_ascii=False))
EOF
nfiles=$(json_get 'd["files"]' mc.expect.json)
echo "# marvel-champions-fr: $nfiles .md files, $(json_get 'd["h1"]' mc.expect.json) with a '# ' title," \
	"$(json_get 'len(d["by_stem"])' mc.expect.json) links by file name," \
	"$(json_get 'len(d["by_title_only"])' mc.expect.json) by title only," \
	"$(json_get 'len(d["dangling"])' mc.expect.json) to nothing"
check_eq "marvel-champions-fr: the vault has 207 Markdown files" 207 "$nfiles"

rl --db mc.db import --no-thesaurus --game "Marvel Champions" "$MC"
check_exit "marvel-champions-fr: the directory imports" 0
check_match "marvel-champions-fr: every file is imported, none skipped or failed" \
	"^$nfiles documents: $nfiles imported, 0 unchanged, 0 skipped, 0 failed" "$(cat "$OUT")"
check_eq "marvel-champions-fr: every file is read as markdown-glossary" "$nfiles" \
	"$(grep -c '^imported .*(markdown-glossary, ' "$OUT")"

rl --db mc.db search --kind glossary --limit 0 --format json
cp "$OUT" mc.all.json
check_json "marvel-champions-fr: $nfiles glossary entries" \
	"d['total'] == $nfiles" mc.all.json
check_json "marvel-champions-fr: their titles are the files' titles" \
	"sorted(r['title'] for r in d['results']) == __import__('json').load(open('mc.expect.json'))['titles']" mc.all.json
check_json "marvel-champions-fr: each file is its own document, named by its title" \
	"all(len(r['sources']) == 1 and r['sources'][0]['document'] == r['title'] for r in d['results'])" mc.all.json
check_json "marvel-champions-fr: an entry in a letter folder has the letter as its section, not a tag" \
	"all(r['section'] == r['sources'][0]['path'].split('/')[-2] and r['tags'] == [] for r in d['results'] if len(r['sources'][0]['path'].split('/')[-2]) == 1)" \
	mc.all.json
check_json "marvel-champions-fr: no wikilink or bold is left in the texts" \
	"not any('[[' in r['text'] or '**' in r['text'] for r in d['results'])" mc.all.json

rl --db mc.db xrefs --kind term --format json
cp "$OUT" mc.xrefs.json
# (path, target) -> the path of the entry it resolved to
cat >resolved.py <<'EOF'
import json
paths = {r["id"]: r["sources"][0]["path"] for r in __import__('json').load(open("mc.all.json"))["results"]}
def resolved(d):
    return sorted([x["path"], x["target"], paths[x["id"]]] for x in d["xrefs"] if x["resolved"])
EOF
check_json "marvel-champions-fr: links by file name resolve to that file" \
	"all(x in __import__('resolved').resolved(d) for x in __import__('json').load(open('mc.expect.json'))['by_stem']) and len(__import__('json').load(open('mc.expect.json'))['by_stem']) > 100" \
	mc.xrefs.json
check_json "marvel-champions-fr: links by title (not file name) resolve to that title's file" \
	"all(x in __import__('resolved').resolved(d) for x in __import__('json').load(open('mc.expect.json'))['by_title_only']) and len(__import__('json').load(open('mc.expect.json'))['by_title_only']) > 50" \
	mc.xrefs.json
rl --db mc.db xrefs --dangling --format json
cp "$OUT" mc.dangling.json
check_json "marvel-champions-fr: xrefs --dangling lists exactly the links whose target does not exist" \
	"sorted([x['path'], x['target']] for x in d['dangling']) == __import__('json').load(open('mc.expect.json'))['dangling']" \
	mc.dangling.json
check_json "marvel-champions-fr: the dangling ones are term references, unresolved" \
	"d['dangling'] != [] and all(x['kind'] == 'term' and not x['resolved'] for x in d['dangling'])" \
	mc.dangling.json

rl --db mc.db import --game "Marvel Champions" "$MC"
check_match "marvel-champions-fr: a second import changes nothing" \
	"^$nfiles documents: 0 imported, $nfiles unchanged" "$(cat "$OUT")"

finish
