#!/usr/bin/env bash
# The XML interchange format through the binary: `rulings import` of an
# interchange file (rulings of several games and languages in one
# document), its versions, --game, a directory walk, and hostile files
# (external entities, an entity bomb) refused with exit 65 and nothing
# read. xmllint (libxml2-utils), the reference validator, must agree with
# the importer on which files are valid.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

cases=$_lib_dir/../golden/cases
schema=$_lib_dir/../../schema/rulings.rng

# ---- xmllint and the importer agree -----------------------------------------
if command -v xmllint >/dev/null; then
	for c in basic encoding-ascii; do
		run xmllint --noout --nonet --relaxng "$schema" "$cases/xml-$c.txt"
		check_exit "xmllint: xml-$c is valid" 0
	done
	for c in invalid wrong-version not-rulings xinclude; do
		run xmllint --noout --nonet --relaxng "$schema" "$cases/xml-$c.txt"
		check_exit "xmllint: xml-$c is not valid" 3 4
	done
else
	_fail "xmllint is not installed (libxml2-utils; .ci/deps installs it)"
fi

# ---- import ------------------------------------------------------------------
cp "$cases/xml-basic.txt" basic.xml
rl --db x.db import basic.xml
check_exit "an interchange file imports" 0
check_match "four rulings (the withdrawn one left out), as xml-interchange" \
	"^imported basic\.xml: 4 entries, 4 added.*\(xml-interchange, " "$(cat "$OUT")"
check_out_contains "... naming the entries' three languages, not only the first's" \
	"(xml-interchange, en, ru, fr)"

rl --db x.db search --lang any --format json
cp "$OUT" all.json
# (the glossary names no game: the manifest of $T gives it Spirit Island)
check_json "each ruling keeps its own game, language and kind" \
	'sorted((r["game"] or "", r["lang"], r["kind"]) for r in d["results"]) == [("Spirit Island", "en", "errata"), ("Spirit Island", "en", "faq"), ("Spirit Island", "fr", "glossary"), ("Берсерк", "ru", "rule")]' all.json
check_json "texts are read exactly (CDATA, character references)" \
	'[r["text"] for r in d["results"] if r["title"] == "Can I?"] == ["Yes & no: see the rulebook (p. 12). <not markup> & café"]' all.json

rl --db x.db search --tag "Speed (Fast/Slow)" --format json
check_json "tags with qualifiers are tags" '[r["title"] for r in d["results"]] == ["Can I?"]'
rl --db x.db search --kind rule --lang ru --game Берсерк --format json
check_json "the rule number is kept" '[r["rule"] for r in d["results"]] == ["100.1a"]'

# where no manifest names a game, the entry of no game refuses the file
mkdir -p bare
cp basic.xml bare/
rl --db bare.db import bare/basic.xml
check_exit "an interchange file with an entry of no game, no --game: exit 65" 65
check_err_contains "... refused" "bare/basic.xml: does not name its game; give --game"
rl --db x.db import basic.xml
check_exit "the same file again" 0
check_out_contains "changes nothing" "unchanged"

# a new version of the collection (same title): one ruling fewer
awk 'BEGIN{skip=0} /<ruling kind="rule"/{skip=1} !skip{print} /<\/ruling>/{if(skip){skip=0}}' \
	basic.xml >basic2.xml
rl --db x.db import basic2.xml
check_exit "a second version of the collection" 0
check_match "the ruling it no longer lists is withdrawn" "1 withdrawn" "$(cat "$OUT")"

# ---- --game for rulings that name none -----------------------------------------
cat >nogame.xml <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<rulings format_version="1" title="No game">
  <ruling kind="faq" lang="en"><title>Who goes first?</title><text>The youngest.</text></ruling>
  <ruling kind="faq" lang="en" game="Other"><title>And here?</title><text>The oldest.</text></ruling>
</rulings>
XML
rl --db g.db import --game Mine nogame.xml
check_exit "--game with an interchange file" 0
rl --db g.db search --lang any --format json
check_json "--game is the game of rulings that name none, only" \
	'sorted((r["title"], r["game"]) for r in d["results"]) == [("And here?", "Other"), ("Who goes first?", "Mine")]'

# ---- a directory: detected by content -----------------------------------------
faq_dir dir
cp nogame.xml dir/collection.xml
cp "$DATA/000_033b5c31b01b6f02.txt" dir/
rl --db d.db import dir
check_exit "a directory with an interchange file and an FAQ page" 0
check_match "the XML file is detected" "collection\.xml: 2 entries.*xml-interchange" "$(cat "$OUT")"

# ---- hostile files ---------------------------------------------------------------
rl --db x.db stats --format json
cp "$OUT" before.json
cp "$cases/xml-xxe.txt" xxe.xml
rl --db x.db import xxe.xml
check_exit "an external entity: refused" 65
check_err_contains "a DOCTYPE is refused with its line" "xxe.xml:2:1: error: a document type declaration"
check_not_contains "nothing of /etc/passwd is read" "$(cat "$OUT" "$ERR")" "root:"
cp "$cases/xml-bomb.txt" bomb.xml
run timeout 20 "$RULINGS" --db x.db import bomb.xml
check_exit "a billion laughs bomb: refused (and quickly: under timeout 20)" 65
check_err_contains "at its DOCTYPE" "bomb.xml:2:1: error: a document type declaration"
rl --db x.db stats --format json
check_eq "the database is as it was" "$(cat before.json)" "$(cat "$OUT")"

rl --db x.db import --format xml-interchange "$DATA/000_033b5c31b01b6f02.txt"
check_exit "an FAQ page forced as xml-interchange: refused" 65
check_err_contains "as malformed XML" "error: malformed XML"

finish
