#!/usr/bin/env bash
# rulings export: txt round trips for every FAQ tag page of the seed data,
# md and json contents, the output directory's rules, usage errors.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

NORM=$_lib_dir/export-norm.py

# Every seed document, as the README imports them.
cp "$DATA"/*.txt seeds/
rl --db s.db import seeds
check_exit "the seed data imports" 0

# ---- txt: every FAQ tag page of data/ round-trips --------------------------
pages=0
for f in "$DATA"/*.txt; do
	rl parse "$f"
	[ "$(json_get 'd["format"]')" = faq-tags ] || continue
	pages=$((pages + 1))
	tag=$(json_get 'd["title"]')
	name=$(basename "$f" .txt)
	rl --db s.db export --tag "$tag" --format txt -o "$name.txt"
	check_exit "$name: export --tag '$tag' --format txt" 0
	check_eq "$name: the page names its game and language, then its tag" \
		"Game: Spirit Island|Language: en||$tag" "$(head -n 4 "$name.txt" | paste -sd'|')"
	rl --db "rt-$name.db" import "$name.txt"
	check_exit "$name: the exported page imports into an empty database" 0
	check_err_empty "$name: ... without a diagnostic"
	check_eq "$name: the importer reads it as an FAQ tag page" faq-tags \
		"$("$RULINGS" parse "$name.txt" | python3 -c 'import json,sys; print(json.load(sys.stdin)["format"])')"
	python3 "$NORM" "$RULINGS" s.db "$tag" >"$name.orig.json"
	python3 "$NORM" "$RULINGS" "rt-$name.db" "$tag" >"$name.rt.json"
	n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$name.orig.json")
	check_match "$name: the tag has rulings to compare ($n)" '^[1-9][0-9]*$' "$n"
	if cmp -s "$name.orig.json" "$name.rt.json"; then
		_pass "$name: same rulings, tags, texts, sections, errata, refs after the round trip"
	else
		_fail "$name: the round trip changed rulings" \
			"$(diff "$name.orig.json" "$name.rt.json" | head -n 20)"
	fi
	# and the round trip is a fixed point: exporting again gives the same page
	"$RULINGS" --db "rt-$name.db" export --tag "$tag" --format txt -o "$name.2.txt"
	if cmp -s "$name.txt" "$name.2.txt"; then
		_pass "$name: exporting the re-imported page gives the same text"
	else
		_fail "$name: the second export differs" "$(diff "$name.txt" "$name.2.txt" | head -n 10)"
	fi
done
check_eq "the seed data holds two FAQ tag pages" 2 "$pages"

# The changed marker and the errata survive (checked in the JSON above too,
# here by name so that a wrong normalization cannot hide them).
rl --db rt-001_8e68847c21c72d28.db search --kind errata --format json
check_json "errata details come back" \
	'd["results"][0]["errata"]["document"] == "B&C rulebook" and d["results"][0]["errata"]["page"] == "15" and d["results"][0]["section"] == "Errata / Updates"'
rl --db rt-001_8e68847c21c72d28.db search Encompassing Ward presence moves --format json
check_json "the changed marker comes back" \
	'd["results"][0]["changed"] is True and "Changed answer" not in d["results"][0]["text"]'
check_contains "Changed answer: is written before a changed answer" \
	"$(cat 001_8e68847c21c72d28.txt)" "  Changed answer: Yes. The Power modifies"
check_contains "discussion markers and hidden tags are written" \
	"$(cat 001_8e68847c21c72d28.txt)" "(Discussion elsewhere) (Discussion elsewhere)  Tags: "

# A txt page is one tag: the importer gives it to every entry. A bare name
# matches every qualifier in a search, but no ruling carries "Speed" itself.
rl --db s.db export --tag Speed --format txt -o speed.txt
check_exit "txt --tag with a name no ruling carries itself: exit 1" 1
check_err_contains "... saying why" "no ruling carries the tag 'Speed' itself"
rl --db s.db export --tag Speed --format md -o speed.md
check_exit "md --tag Speed takes every qualifier, as search does" 0
check_match "... under the name given" '^# Speed$' "$(head -n 1 speed.md)"

# ---- json: the records search gives ------------------------------------------
rl --db s.db export --tag Defend --format json -o defend.json
check_exit "export --format json" 0
"$RULINGS" --db s.db search --tag Defend --no-thesaurus --limit 0 --format json >search.json
if cmp -s defend.json search.json; then
	_pass "export json is byte for byte search --format json"
else
	_fail "export json differs from search" "$(diff defend.json search.json | head)"
fi
rl --db s.db export --query 'Dahan damage' --lang en --format json -o -
check_exit "export --query --format json -o - writes standard output" 0
"$RULINGS" --db s.db search Dahan damage --lang en --no-thesaurus --limit 0 --format json >search2.json
check_eq "export --query json is search's, snippets and scores included" \
	"$(cat search2.json)" "$(cat "$OUT")"
rl --db s.db export --all --format json -o all.json
check_json "export --all json holds every ruling" \
	'd["total"] == len(d["results"]) == 58' all.json

# ---- md ------------------------------------------------------------------------
rl --db s.db export --tag defend --format md -o -
check_exit "export --format md to standard output" 0
md=$(cat "$OUT")
check_match "md: the page's title is the stored tag" '^# Defend$' "$md"
check_match "md: sections and categories are headings" '^## Errata / Updates$' "$md"
check_match "md: categories" '^### Event Cards$' "$md"
check_match "md: entries are headings, each with its anchor" '^#### <a id="r[0-9]+"></a>When an Event deals damage to Dahan' "$md"
check_contains "md: ampersands are escaped" "$md" 'Branch \& Claw'
check_contains "md: asterisks in the data are escaped" "$md" '\*(In each land, 1 Defense per Dahan)\*'
check_match "md: nested bullets are list items" '^- If an Event causes a Ravage' "$md"
check_contains "md: the changed marker" "$md" '**Changed answer.**'
check_contains "md: hidden tags are counted" "$md" 'and 10 more'
rl --db s.db export --all --format md -o md
check_exit "export --all --format md writes a directory" 0
speed=$(ls md | grep '^speed-fast-slow-[0-9a-f]\{12\}\.md$')
check_match "md: one file per tag, named slug-hash.md" '^speed-fast-slow-[0-9a-f]{12}\.md$' "$speed"
check_match "md: tags link to their pages" '\[Repeat\]\(repeat-[0-9a-f]{12}\.md\)' "$(cat md/$speed)"

# ---- tag identity: one page a tag, whatever its spelling (issue 17 #12) ----------
# An interchange file can spell one tag several ways: "A (B)" as a name,
# "A" qualified "B", "A(B)"; a ruling can carry two spellings of one tag.
cat >tags.xml <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<rulings format_version="1">
  <ruling kind="faq" lang="en" key="one"><title>One?</title><text>First.</text>
    <tag name="A (B)"/></ruling>
  <ruling kind="faq" lang="en" key="two"><title>Two?</title><text>Second.</text>
    <tag name="A" qualifier="B"/></ruling>
  <ruling kind="faq" lang="en" key="three"><title>Three?</title><text>Third.</text>
    <tag name="A(B)"/></ruling>
  <ruling kind="faq" lang="en" key="four"><title>Four?</title><text>Fourth.</text>
    <tag name="x" qualifier="y) (z"/><tag name="x (y)" qualifier="z"/></ruling>
</rulings>
XML
rl --db tags.db import tags.xml
check_exit "an interchange file with four spellings of two tags imports" 0
rl --db tags.db export --all --format html -o tag-site
check_exit "... and exports as a site" 0
# (and its game's page: $T's manifest names Spirit Island)
check_eq "one page a tag: A (B) and x (y) (z), and the index" \
	"a-b-bd84f706a00f.html game-spirit-island-62a31843f9b1.html index.html x-y-z-a39b71c01c8e.html" \
	"$(ls tag-site | grep -v '\.atom$\|^changes\.html$' | paste -sd' ')"
if command -v xmllint >/dev/null; then
	check_eq "... the page of A (B) holds its three rulings" 3 \
		"$(xmllint --html --xpath 'count(//div[@class="entry"])' tag-site/a-b-*.html 2>/dev/null)"
	check_eq "... a ruling with two spellings of a tag is on its page once" 1 \
		"$(xmllint --html --xpath 'count(//div[@class="entry"])' tag-site/x-y-z-*.html 2>/dev/null)"
fi

# ---- the output directory -------------------------------------------------------
mkdir full
echo keep >full/mine.txt
rl --db s.db export --all --format txt -o full
check_exit "a non-empty directory that is no export is refused" 2
check_err_contains "... and the message says why" "not empty"
check_eq "... and nothing was written into it" "mine.txt" "$(ls full)"
rl --db s.db export --all --format txt -o full --force
check_exit "--force writes into it" 0
check_eq "... keeping the other files" keep "$(cat full/mine.txt)"
rl --db s.db export --all --format txt -o site
check_exit "export --all --format txt" 0
check_contains "a warning names the rulings no tag page holds" "$(cat "$ERR")" "with no tag"
before=$(ls site | wc -l)
rl --db s.db export --all --format txt -o site
check_exit "a previous export is written again" 0
check_eq "... with the same files" "$before" "$(ls site | wc -l)"
rl --db s.db export --query Defend --format txt -o site
check_exit "a smaller export into a previous one" 0
check_match "... removes the pages of tags it no longer has" '^[0-9]+$' "$(ls site | wc -l)"
[ "$(ls site | wc -l)" -lt "$before" ] && _pass "... fewer files now" || _fail "... fewer files now" "$(ls site | wc -l) >= $before"
check_eq "... and lists what it wrote" "$(ls site | sort)" \
	"$(grep -v '^#' site/.rulings-export | sort)"
check_eq "no temporary file is left" "" "$(ls -A site | grep rulings-tmp)"
touch plain
rl --db s.db export --all --format html -o plain
check_exit "a file where a directory is needed is a usage error" 2

# ---- usage ----------------------------------------------------------------------
rl --db s.db export --format txt -o x.txt
check_exit "no selection is a usage error" 2
rl --db s.db export --tag Defend --all --format txt -o x.txt
check_exit "two selections are a usage error" 2
rl --db s.db export --tag Defend --format pdf -o x.pdf
check_exit "an unknown format is a usage error" 2
check_err_contains "... naming the formats" "txt, md, html, json, xml"
rl --db s.db export --tag Defend --format txt
check_exit "a missing -o is a usage error" 2
rl --db s.db export --all --format html -o -
check_exit "a directory export to standard output is a usage error" 2
rl --db s.db export --tag 'No Such Tag' --format txt -o none.txt
check_exit "nothing to export: exit 1" 1
check_eq "... and no file" "" "$(ls none.txt 2>/dev/null)"
rl --db s.db export --tag Defend --format txt -o no/such/dir/x.txt
check_exit "an unwritable path is an i/o error" 74
rl --db missing.db export --all --format json -o x.json
check_exit "a missing database is an i/o error" 74
rl export --help
check_exit "export --help" 0
check_out_contains "--help lists --format" "--format F"

# ---- xml: the interchange document, through the command -------------------
RNG=$_lib_dir/../../schema/rulings.rng
rl --db s.db export --all --format xml -o all.xml
check_exit "export --all --format xml" 0
if command -v xmllint >/dev/null; then
	run xmllint --noout --relaxng "$RNG" all.xml
	check_exit "the export is valid against schema/rulings.rng (xmllint)" 0
fi
rl --db s.db export --all --format xml -o -
check_exit "export --format xml -o - writes to standard output" 0
check_eq "... the same document" "$(cat all.xml)" "$(cat "$OUT")"
check_eq "... and leaves no temporary file" "" \
	"$(ls "${TMPDIR:-/tmp}" 2>/dev/null | grep '^rulings-export-' | head -n 1)"
rl --db xml-rt.db import all.xml
check_exit "the XML export imports into an empty database" 0
n_orig=$(sqlite3 s.db "SELECT count(*) FROM rulings WHERE withdrawn_at IS NULL")
n_rt=$(sqlite3 xml-rt.db "SELECT count(*) FROM rulings")
check_eq "... every ruling comes back" "$n_orig" "$n_rt"
q="SELECT group_concat(x, char(10)) FROM (SELECT kind || '|' || lang || '|'
  || title || '|' || body AS x FROM rulings ORDER BY 1)"
check_eq "... with the same kinds, languages, titles and texts" \
	"$(sqlite3 s.db "$q")" "$(sqlite3 xml-rt.db "$q")"
rl --db s.db export --tag Defend --format xml -o defend.xml
check_exit "export --tag Defend --format xml" 0
check_eq "... one entry per ruling of the tag" \
	"$(rl --db s.db search --tag Defend --no-thesaurus --limit 0 --format json >/dev/null; json_get 'd["total"]')" \
	"$(grep -c '<ruling ' defend.xml)"

# ---- txt: the pages of several games and languages import back --------------
# A hand-written page names its game and language before its tag, and a
# "Language:" line gives the entries after it their own; a directory of no
# manifest, imported with no --game.
mkdir handpages
cat >handpages/defend.txt <<'PAGE'
Game: Autre Jeu
Language: fr

Defend

Foire aux questions

• Peut-on se défendre deux fois au même tour ?
  Non : une seule fois.
  Tags: Defend, Tour
Language: en
• Can a player defend twice in one turn of Autre Jeu?
  No, once.
  Tags: Defend
PAGE
rl --db s.db import handpages
check_exit "a hand-written page with Game and Language lines imports without --game" 0
check_err_empty "... without a diagnostic"
rl --db s.db search --tag Defend --game 'Autre Jeu' --no-thesaurus --format json
check_json "... into its game, each entry in its language" \
	'sorted(r["lang"] for r in d["results"]) == ["en", "fr"] and all(r["game"] == "Autre Jeu" for r in d["results"])'
printf 'Game:\n\nDefend\n\n• Q?\n  A.\n  Tags: Defend\n' >handpages/empty-game.txt
rl --db s.db import --game 'Autre Jeu' handpages/empty-game.txt
check_err_contains "a Game line naming nothing is a warning" \
	"empty-game.txt:1: warning: 'Game:' line names nothing; ignored"
printf 'Game: Autre Jeu\n\nDefend\n\n• Q2?\n  A.\n  Tags: Defend\n' >handpages/named.txt
rl --db s.db import --game 'Spirit Island' handpages/named.txt
check_err_contains "the page's game wins over --game, with a warning" \
	"names its game 'Autre Jeu'; the game given, 'Spirit Island', is not used"
# A tag with a comma in its name (Codex: "Jade Fox, Den's Headmistress"):
# on its own page it is one tag, not two.
printf "Game: Autre Jeu\n\nJade Fox, Den's Headmistress\n\n• Q3?\n  A.\n  Tags: Jade Fox, Den's Headmistress, Ninja\n" \
	>handpages/comma.txt
rl --db s.db import handpages/comma.txt
check_exit "a page whose tag has a comma imports" 0
rl --db s.db search Q3 --format json
check_json "... the entry carries the page's tag whole, and the other" \
	'sorted(d["results"][0]["tags"]) == ["Jade Fox, Den\x27s Headmistress", "Ninja"]'
# Every tag page of a database of four games and three languages (a tag,
# Defend, of two games and languages) into a new database: the same rulings
# (tests/cli/txt-rulings.py: games, languages, texts, headings, tags),
# with a plain import.
rl --db s.db export --all --format txt -o multi
check_exit "export --all --format txt of several games" 0
check_contains "... the Defend page names a game before a ruling of another" \
	"$(cat multi/defend-*.txt)" "Game: Autre Jeu"
rl --db multi.db import --no-thesaurus multi
check_exit "... and a plain import of the pages (no --game, no manifest) takes them all" 0
check_not_contains "... refusing none" "$(cat "$ERR")" "does not name its game"
run python3 "$_lib_dir/txt-rulings.py" s.db multi.db
check_eq "... the same rulings of the same games and languages, texts, tags" \
	"$(sed -n 1p "$OUT")" "$(sed -n 2p "$OUT")"
check_match "... (some to compare, none differs)" '^[1-9][0-9]* 0$' "$(sed -n 2p "$OUT")"

finish
