#!/usr/bin/env bash
# changed --format atom: an Atom 1.0 feed (RFC 4287) valid against the
# RFC's RELAX NG schema (atom.rnc, by jing), one entry per change with an
# id that stays the same across runs and across databases built from the
# same documents, the version's date, the kind of change, the word diff.
# Exits 77 (skipped) without jing (.ci/deps --test installs it).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

RNC=$_lib_dir/atom.rnc
if ! command -v jing >/dev/null; then
	echo "skipped: no jing"
	_finished=1
	exit 77
fi

# Version 2 of the Defend page: one answer edited, one entry gone, one new.
python3 "$_lib_dir/defend-v2.py" "$SEED_DEFEND" v2.txt

# Database a: Defend, then version 2. Database b: Speed first (other row
# ids), then the same two versions of Defend.
"$RULINGS" --db a.db import -q --no-thesaurus --game "Spirit Island" "$SEED_DEFEND" v2.txt
"$RULINGS" --db b.db import -q --no-thesaurus --game "Spirit Island" "$SEED_SPEED"
"$RULINGS" --db b.db import -q --game "Spirit Island" "$SEED_DEFEND"
"$RULINGS" --db b.db import -q --game "Spirit Island" v2.txt

# the feed's facts, as JSON, for check_json
facts() {
	python3 - "$1" >"$2" <<'PY'
import sys, json, xml.etree.ElementTree as ET
A = "{http://www.w3.org/2005/Atom}"
X = "{http://www.w3.org/1999/xhtml}"
f = ET.parse(sys.argv[1]).getroot()
def content(e):
    c = e.find(A + "content")
    div = c.find(X + "div") if c is not None else None
    return {"type": c.get("type") if c is not None else None,
            "xml": ET.tostring(div, encoding="unicode") if div is not None else ""}
L = "{http://www.w3.org/XML/1998/namespace}lang"
d = {"root": f.tag, "id": f.findtext(A + "id"), "title": f.findtext(A + "title"),
     "lang": f.get(L),
     "updated": f.findtext(A + "updated"),
     "feed_authors": len(f.findall(A + "author")),
     "entries": [{"id": e.findtext(A + "id"),
                  "title": "".join(e.find(A + "title").itertext()),
                  "title_lang": [s.get(L) for s in e.find(A + "title").iter(X + "span")],
                  "updated": e.findtext(A + "updated"),
                  "author": e.findtext(A + "author/" + A + "name"),
                  "kind": [c.get("term") for c in e.findall(A + "category")],
                  "links": [l.get("href") for l in e.findall(A + "link")],
                  "text_lang": [p.get(L, "-") for p in e.findall(A + "content/" + X + "div/" + X + "p")][1:],
                  **content(e)} for e in f.findall(A + "entry")]}
json.dump(d, sys.stdout)
PY
}

rl --db a.db changed --format atom
check_exit "changed --format atom: changes found, exit 0" 0
cp "$OUT" a.atom
run jing -c "$RNC" a.atom
check_exit "the feed is valid against RFC 4287's RELAX NG schema" 0
facts a.atom a.json
check_json "an Atom feed with an id, a title and updated" \
	'd["root"] == "{http://www.w3.org/2005/Atom}feed" and d["id"].startswith("urn:uuid:") and d["title"] and d["updated"]' a.json
check_json "one entry per change: withdrawn, edited, added, marked" \
	'sorted(k for e in d["entries"] for k in e["kind"]) == ["added", "edited", "marked", "withdrawn"]' a.json
check_json "entry ids are UUID URNs (version 8), all different" \
	'len({e["id"] for e in d["entries"]}) == 4 and all(__import__("re").fullmatch(r"urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", e["id"]) for e in d["entries"])' a.json
# RFC 4287's Schematron rules, which jing does not check
check_json "every entry has an author (the document) and content" \
	'd["feed_authors"] or all(e["author"] == "Defend" and e["type"] == "xhtml" for e in d["entries"])' a.json
check_json "the edit is a word diff: <del> the old words, <ins> the new" \
	'any("<html:del>are cumulative </html:del><html:ins>always stack </html:ins>" in e["xml"].replace("ns0:", "html:") for e in d["entries"] if e["kind"] == ["edited"])' a.json
check_json "text is escaped, never markup: the added answer's <keyword> & more" \
	'any("No, it is a &lt;keyword&gt; &amp; more." in e["xml"] for e in d["entries"] if e["kind"] == ["added"])' a.json
check_json "the withdrawal shows the old text removed" \
	'any("Yes, if you join" in e["xml"] and "del>" in e["xml"] for e in d["entries"] if e["kind"] == ["withdrawn"])' a.json
dates=$(sqlite3 a.db "SELECT group_concat(DISTINCT date) FROM imports")
check_json "each entry's updated is its version's date (imports.date)" \
	"all(e['updated'] in '$dates'.split(',') for e in d['entries']) and d['updated'] == max(e['updated'] for e in d['entries'])" a.json

# the same ids from another run and from another database
rl --db a.db changed --format atom
check_eq "the same database gives the same feed, byte for byte" \
	"$(cat a.atom)" "$(cat "$OUT")"
rl --db b.db changed --format atom --game "Spirit Island"
cp "$OUT" b.atom
facts b.atom b.json
ida=$(json_get 'sorted(e["id"] for e in d["entries"])' a.json)
idb=$(json_get 'sorted(e["id"] for e in d["entries"] if e["author"] == "Defend")' b.json)
check_eq "another database of the same documents: the same entry ids" "$ida" "$idb"
ra=$(sqlite3 a.db "SELECT group_concat(id) FROM (SELECT id FROM rulings ORDER BY key)")
rb=$(sqlite3 b.db "SELECT group_concat(r.id) FROM (SELECT r.id FROM rulings r JOIN ruling_sources s ON s.ruling_id = r.id JOIN documents d ON d.id = s.document_id WHERE d.title = 'Defend' ORDER BY r.key) r")
check_not_contains "(the two databases number the rulings differently)" "$ra" "$rb"
fa=$(json_get 'd["id"]' a.json)
fb=$(json_get 'd["id"]' b.json)
check_not_contains "a feed's id follows what it covers (--game: another feed)" "$fa" "$fb"

# the feed's language: that of most of its changes, its words from the
# message catalog (po/), the text of an entry in another language marked
check_eq "English changes: an English feed" 'en|Changes to rulings' \
	"$(json_get 'd["lang"] + "|" + d["title"]' a.json)"
printf '%s\n' 'Mixte' '' 'Questions fréquentes' '' \
	'• Est-ce que la carte peut être jouée pendant le tour de l’adversaire ?' \
	'  Oui, mais seulement pendant la phase rapide.' '  Tags: Mixed' >fr.txt
"$RULINGS" --db c.db import -q --no-thesaurus --game "Spirit Island" fr.txt
sed -i 's/phase rapide/phase lente/' fr.txt
"$RULINGS" --db c.db import -q --no-thesaurus --game "Spirit Island" fr.txt "$SEED_DEFEND" v2.txt
rl --db c.db changed --format atom --lang fr
cp "$OUT" fr.atom
facts fr.atom fr.json
check_json "French changes: a French feed, its title and kinds in French" \
	'd["lang"] == "fr" and d["title"] == "Modifications des décisions" and [e["title"].split(" : ")[0] for e in d["entries"]] == ["Modifiée"] and "version du " in d["entries"][0]["xml"] and "français" in d["entries"][0]["xml"]' fr.json
rl --db c.db changed --format atom
cp "$OUT" mixed.atom
facts mixed.atom mixed.json
check_json "... among English ones: an English feed, the French text xml:lang=fr" \
	'd["lang"] == "en" and [e["title"].split(": ")[0] for e in d["entries"] if "fr" in e["text_lang"]] == ["Edited"] and sum(e["text_lang"] == ["fr"] for e in d["entries"]) == 1 and all(e["text_lang"] == ["-"] for e in d["entries"] if "Defend" == e["author"])' mixed.json
check_json "... its title's French words in a span xml:lang=fr, the English ones' titles plain text" \
	'[e["title_lang"] for e in d["entries"] if "fr" in e["text_lang"]] == [["fr"]] and all(e["title_lang"] == [] for e in d["entries"] if "fr" not in e["text_lang"])' mixed.json

# nothing: an empty feed, still valid, exit 1
rl --db a.db changed --format atom --since 2999-01-01
check_exit "no change: exit 1" 1
cp "$OUT" empty.atom
run jing -c "$RNC" empty.atom fr.atom mixed.atom
check_exit "the empty feed is valid too, and the French ones" 0
check_contains "the empty feed still says when it was updated" \
	"$(cat empty.atom)" "<updated>20"

# standard output that cannot be written
rl --db a.db changed --format atom
if [ -w /dev/full ]; then
	run "$RULINGS" --db a.db changed --format atom
	"$RULINGS" --db a.db changed --format atom >/dev/full 2>err.txt
	STATUS=$?
	check_exit "a full disk: exit 74" 74
	check_contains "a full disk: said" "$(cat err.txt)" "write failure on standard output"
fi

rl --db a.db changed --format rss
check_exit "an unknown format is a usage error" 2

finish
