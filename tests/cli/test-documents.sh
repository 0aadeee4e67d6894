#!/usr/bin/env bash
# rulings documents (issue 12 #4): every document and its versions, with
# each version's date and where it came from. The expected dates are read
# from the files here, not from the importers.
CASES=$(cd "$(dirname "${BASH_SOURCE[0]}")/../golden/cases" && pwd) || exit 2
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

# two releases of one rulebook, each stating its date
CR1=$CASES/cr-ref-ranges.txt
CR2=$CASES/cr-duplicate-rule.txt
# the Defend page, then a version with one answer edited and one entry gone
python3 - "$SEED_DEFEND" <<'PY'
import sys
text = open(sys.argv[1], encoding="utf-8").read()
v2 = text.replace("Effects of innate powers are cumulative",
                  "Effects of innate powers always stack")
start = v2.index("• Do Defend effects stack normally")
end = v2.index("• If you use Encompassing Ward")
open("v2.txt", "w", encoding="utf-8").write(v2[:start] + v2[end:])
PY
# "These rules are effective as of January 16, 2026." -> 2026-01-16
stated() {
	python3 - "$1" <<'PY'
import re, sys, datetime
m = re.search(r"effective as of (\w+ \d+, \d{4})", open(sys.argv[1], encoding="utf-8").read())
print(datetime.datetime.strptime(m.group(1), "%B %d, %Y").date().isoformat())
PY
}
d1=$(stated "$CR1")
d2=$(stated "$CR2")
entries=$(grep -c '^•' "$SEED_DEFEND")

rl --db d.db import --no-thesaurus --game "Spirit Island" "$SEED_DEFEND"
rl --db d.db import --game "Spirit Island" v2.txt
# (the second release withdraws 7 of the first's 8 rules: past the safety net)
rl --db d.db import --allow-withdraw "$CR1" "$CR2"
check_exit "(the documents import)" 0

rl --db d.db documents --format json
check_exit "documents --format json" 0
check_json "format_version 1, two documents by title" \
	'd["format_version"] == 1 and [x["title"] for x in d["documents"]] == ["Defend", "Magic: The Gathering Comprehensive Rules"]'
check_json "a document has title, game, format, lang and versions" \
	'all(set(x) == {"title", "game", "format", "lang", "versions"} for x in d["documents"])'
check_json "a version has the issue's members" \
	'all(set(v) == {"version", "date", "date_source", "imported_at", "path", "added", "edited", "withdrawn", "unchanged"} for x in d["documents"] for v in x["versions"])'
check_json "Defend: its game, format and language" \
	'(d["documents"][0]["game"], d["documents"][0]["format"], d["documents"][0]["lang"]) == ("Spirit Island", "faq-tags", "en")'
check_json "Defend states no date: each version's is its import time" \
	'all(v["date"] == v["imported_at"] and v["date_source"] == "imported" and v["date"][:2] == "20" for v in d["documents"][0]["versions"])'
check_json "Defend: version 1 brings every entry, version 2 edits one and withdraws one" \
	"[(v['version'], v['path'], v['added'], v['edited'], v['withdrawn'], v['unchanged']) for v in d['documents'][0]['versions']] == [(1, '$SEED_DEFEND', $entries, 0, 0, 0), (2, 'v2.txt', 0, 1, 1, $entries - 2)]"
check_json "the rulebook: each version with the date it states" \
	"[(v['version'], v['date'], v['date_source'], v['path']) for v in d['documents'][1]['versions']] == [(3, '$d1', 'document', '$CR1'), (4, '$d2', 'document', '$CR2')]"

# issue 12 #3, in part: a change carries its version's date and its import time
rl --db d.db changed --format json
check_json "changed JSON: each change has the version's date and imported_at" \
	"all(c['date'] == ('$d2' if c['import'] == 4 else c['imported_at']) and c['imported_at'] == c['at'] for c in d['changes'])"
check_json "...the rulebook's changes carry its stated date" \
	"any(c['import'] == 4 and c['date'] == '$d2' for c in d['changes'])"

rl --db d.db documents
check_exit "documents (text)" 0
check_match "text: a line for a document" \
	"^Defend · Spirit Island · faq-tags · en\$" "$(cat "$OUT")"
check_match "...and one for each version, with date and source" \
	"^    import 4 · $d2 \\(document\\) · $CR2: " "$(cat "$OUT")"
check_eq "...two documents, four versions" "2 4" \
	"$(grep -c '^[^ ]' "$OUT") $(grep -c '^    import ' "$OUT")"

rl --db d.db documents --game "spirit island" --format json
check_json "--game (any case): that game's documents only" \
	'[x["title"] for x in d["documents"]] == ["Defend"]'
rl --db d.db documents --game Nothing --format json
check_exit "--game of no document: exit 1" 1
check_json "...and an empty list" 'd["documents"] == []'
check_err_contains "...and the game it does not know said, with the games it knows" \
	"documents: no game 'Nothing' (there are "
rl --db d.db documents --game "Spirit Islnd"
check_exit "--game misspelt: exit 1" 1
check_err_contains "...the nearest name said" \
	"documents: no game 'Spirit Islnd'; did you mean 'Spirit Island'?"
rl --db d.db documents extra
check_exit "an operand: usage error" 2

finish
