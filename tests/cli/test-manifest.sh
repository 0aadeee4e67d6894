#!/usr/bin/env bash
# The game of a document (issue 12): its own words, else --game, else a
# directory manifest (.rulings); a bulk import of several games'
# folders, each named by its manifest, over a temporary copy of part of
# ../shared/corpora (read in place, never copied into the repository;
# skipped, 77, without it); an older import's game-less document merged
# into its game; --game none; the Berserk: Heroes rules and glossary name
# their game, and their words win over a name given, which is warned about.
#
#   bash tests/cli/test-manifest.sh BUILD/rulings CORPORA
#
# The expected documents per game are counted here from the files copied,
# not by rulings.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

CORPORA=${RULINGS_CORPORA:-${2:-}}
if [ -z "$CORPORA" ] || [ ! -d "$CORPORA/berserk-heroes-ru" ] ||
   [ ! -d "$CORPORA/codex-rulings" ] ||
   [ ! -d "$CORPORA/marvel-champions-fr/docs/Glossaire/S" ]; then
	echo "skipped: no corpora at '${CORPORA:-}'"
	_finished=1
	exit 77
fi

# ---- several games' folders in one bulk import ----------------------------

C=$T/corpora
mkdir -p "$C/berserk-heroes-ru" "$C/codex-rulings" \
	"$C/marvel-champions-fr/docs/Glossaire/S" "$C/named" "$C/loose"
cp "$CORPORA"/berserk-heroes-ru/{FAQ12.rst,c1_rules.rst,dictionary_2024-01-17_*.rst} \
	"$C/berserk-heroes-ru/"
cp "$CORPORA"/codex-rulings/rulings_2016-03-19_*.json "$C/codex-rulings/"
cp "$CORPORA"/marvel-champions-fr/docs/Glossaire/S/*.md \
	"$C/marvel-champions-fr/docs/Glossaire/S/"
cp "$DATA/003_ec034672c1b9d987.txt" "$C/named/"      # names Spirit Island
cp "$DATA/000_033b5c31b01b6f02.txt" "$C/loose/"      # names no game
cat >"$C/.rulings" <<'EOF'
# the folders' games, where the folder has no manifest of its own
[codex-rulings/*.json]
game = Codex

# a nearer manifest wins over this
[berserk-heroes-ru/*]
game = Not Berserk
EOF
printf 'game = Берсерк. Герои\n' >"$C/berserk-heroes-ru/.rulings"
printf '# found from docs/Glossaire/S, two levels down\ngame = Marvel Champions\nlang = fr\n' \
	>"$C/marvel-champions-fr/.rulings"
# a document's own words win over a manifest
printf 'game = Not Spirit Island\n' >"$C/named/.rulings"

# FAQ12.rst, a card FAQ, names no game: its folder's manifest gives it
# (it was of no format rulings read, skipped, before card-faq)
n_berserk=$(ls "$C"/berserk-heroes-ru/{FAQ12,c1_rules,dictionary_*}.rst | wc -l)
n_codex=$(ls "$C"/codex-rulings/*.json | wc -l)
n_marvel=$(ls "$C"/marvel-champions-fr/docs/Glossaire/S/*.md | wc -l)

rl --db mix.db import --no-thesaurus --bulk "$C"
check_exit "a mixed bulk import of four games' folders and a page of none" 65
check_match "...every document imported but the page no manifest names, refused" \
	"^$((n_berserk + n_codex + n_marvel + 2)) documents: $((n_berserk + n_codex + n_marvel + 1)) imported, 0 unchanged, 0 skipped, 1 refused, 0 failed" \
	"$(cat "$OUT")"
check_err_contains "...which is said" \
	"rulings: $C/loose/000_033b5c31b01b6f02.txt: does not name its game; give --game (games in this database: "
check_eq "...and listed alone among the refused" \
	"  $C/loose/000_033b5c31b01b6f02.txt: does not name its game (give --game or a .rulings manifest)" \
	"$(sed -n '/^refused, nothing stored:$/,$p' "$OUT" | sed 1d)"
rl --db mix.db documents --format json
cp "$OUT" mix.json
games() {    # the documents of each game, as "game=count" lines
	python3 -c '
import collections, json, sys
d = json.load(open(sys.argv[1]))
c = collections.Counter(str(x["game"]) for x in d["documents"])
print(" ".join("%s=%d" % kv for kv in sorted(c.items())))' "$1"
}
check_eq "each folder's documents in the game its manifest names, none of no game" \
	"Codex=$n_codex Marvel Champions=$n_marvel Spirit Island=1 Берсерк. Герои=$n_berserk" \
	"$(games mix.json)"
check_json "...Marvel Champions in the manifest's language" \
	'all(x["lang"] == "fr" for x in d["documents"] if x["game"] == "Marvel Champions")' mix.json
check_json "...and nothing of the refused page" \
	'[x for x in d["documents"] if x["title"] == "Speed (Fast/Slow)"] == []' mix.json
rl --db mix.db search --game none --format json ''
check_exit "search --game none: no ruling of no game" 1

# --game wins over every manifest, not over the documents' own words
sed -i '0,/В ККИ «Берсерк. Герои»/s//В ККИ «Берсерк»/' \
	"$C"/berserk-heroes-ru/dictionary_*.rst    # now names two: none
sed -i 's/^101\.1\. «Берсерк\. Герои» –/101.1. Берсерк. Герои –/' \
	"$C/berserk-heroes-ru/c1_rules.rst"       # no longer names it
rl --db game.db import --no-thesaurus --game Other "$C/berserk-heroes-ru" "$C/named"
check_exit "--game over the manifests" 0
check_err_contains "...not over a document's words, which is said" \
	"$C/named/003_ec034672c1b9d987.txt: warning: the document names its game 'Spirit Island'; the game given, 'Other', is not used"
rl --db game.db documents --format json
cp "$OUT" game.json
check_eq "...every document of that game but the one that names its own" \
	"Other=$n_berserk Spirit Island=1" "$(games game.json)"

# ---- the game in the document's own words --------------------------------

# The Berserk: Heroes rules ("101.1. «Берсерк. Герои» – коллекционная
# карточная игра, …") and glossaries ("В ККИ «Берсерк. Герои» …") name
# their game: imported with no --game and no manifest, not refused.
W=$T/words
mkdir -p "$W/bh" "$W/given"
cp "$CORPORA"/berserk-heroes-ru/{c1_rules.rst,dictionary_*.rst} "$W/bh/"
rl --db words.db import --no-thesaurus "$W/bh"
check_exit "the Berserk: Heroes rules and glossaries, no --game, no manifest" 0
rl --db words.db documents --format json
cp "$OUT" words.json
check_eq "...each in the game its words name (the glossaries: one document)" \
	"Берсерк. Герои=2" "$(games words.json)"
check_json "...the glossary's three versions" \
	'sorted(len(x["versions"]) for x in d["documents"]) == [1, 3]' words.json
rl parse "$W/bh/c1_rules.rst"
check_json "parse says the rules' game" 'd["game"] == "Берсерк. Герои"'
# the words win over a name given, as a date the document states does: a
# manifest that says Berserk (as data/.rulings does for data/004, classic
# Berserk) leaves the documents whose words say «Берсерк. Герои» (another
# game, Berserk: Heroes) in that game, and says so
cp "$W"/bh/{c1_rules.rst,dictionary_2025-*.rst} "$DATA"/004_*.txt "$W/given/"
printf 'game = Berserk\n' >"$W/given/.rulings"
rl --db given.db import --no-thesaurus "$W/given"
check_exit "a manifest's game and documents that name another" 0
check_err_contains "...said for each document that names its own" \
	"$W/given/c1_rules.rst: warning: the document names its game 'Берсерк. Герои'; the game given, 'Berserk', is not used"
check_eq "...twice" 2 "$(grep -c "warning: the document names its game" "$ERR")"
rl --db given.db documents --format json
cp "$OUT" given.json
check_eq "...the manifest's game for the document that names none" \
	"Berserk=1 Берсерк. Герои=2" "$(games given.json)"
rl parse --game "Berserk" "$W/bh/c1_rules.rst"
check_json "...as in parse with --game" 'd["game"] == "Берсерк. Герои"'
# a glossary that names two games names none: refused without a manifest
sed '0,/В ККИ «Берсерк. Герои»/s//В ККИ «Берсерк»/' \
	"$W/bh/dictionary_2025-06-19_rules-v17.0_7c7e2d8.rst" >"$W/two.rst"
grep -q 'В ККИ «Берсерк»' "$W/two.rst" || echo "# the sed did not edit the glossary"
rl --db two.db import --no-thesaurus "$W/two.rst"
check_exit "a glossary whose words name two games: refused" 65
check_err_contains "...for want of a game" "does not name its game"

# a manifest is read strictly: a typo is not a game-less import
printf 'game = Codex\ngmae = Codex\n' >"$C/codex-rulings/.rulings"
rl --db typo.db import --no-thesaurus "$C/codex-rulings" "$C/named"
check_exit "a manifest with an unknown key: exit 65" 65
check_err_contains "...at its line, an error like any other" \
	"rulings: $C/codex-rulings/.rulings:2: error: unknown key 'gmae' (known: game, lang, date)"
check_eq "...said once, however many documents it stops" 1 \
	"$(grep -c "unknown key 'gmae'" "$ERR")"
check_err_contains "...each of them not imported, said so" \
	"error: not imported: its manifest $C/codex-rulings/.rulings has an error at line 2"
check_out_contains "...the other folders go on" "1 imported"
rl --db typo-bulk.db import --bulk --no-thesaurus "$C/codex-rulings"
check_exit "...import --bulk: exit 65 too" 65
check_err_contains "...the same error, labelled" \
	"rulings: $C/codex-rulings/.rulings:2: error: unknown key 'gmae'"
rm "$C/codex-rulings/.rulings"

# ---- an older database's documents of no game -----------------------------

# Made as rulings before issue 12 stored them: the Speed page once with its
# game, and a later copy once without (two documents, every ruling twice).
cp "$DATA/000_033b5c31b01b6f02.txt" page.txt
printf '\n' >>page.txt
rl --db old.db import --no-thesaurus --game "Spirit Island" "$DATA/000_033b5c31b01b6f02.txt"
rl --db old.db import --no-thesaurus --game Scratch page.txt
sqlite3 old.db "UPDATE rulings SET game_id = NULL WHERE game_id = (SELECT id FROM games WHERE name = 'Scratch');
                UPDATE documents SET game_id = NULL WHERE game_id = (SELECT id FROM games WHERE name = 'Scratch');
                DELETE FROM games WHERE name = 'Scratch'" 2>/dev/null
if [ $? != 0 ]; then
	echo "skipped: the older-database checks need the sqlite3 shell"
else
	rl --db old.db search --game none --format json ''
	check_json "--game none selects the rulings of no game" 'd["total"] == 18'
	rl --db old.db documents --game none
	check_out_contains "...and their document" "Speed (Fast/Slow) · (no game)"
	rl --db old.db tags --game none
	check_out_contains "tags --game none: its tags" "Speed (Fast/Slow)"
	rl --db old.db search --format json 'game:none'
	check_json "...and game:none in a query" 'd["total"] == 18'
	rl --db old.db export --all --game none --format xml -o -
	check_exit "export --game none" 0
	check_eq "...its 18 rulings" 18 "$(grep -c '<ruling[ >]' "$OUT" || true)"
	rl --db old.db import --no-thesaurus --game "Spirit Island" page.txt
	check_exit "importing it again with its game" 0
	check_out_contains "...merges it" "merged page.txt: the game-less \"Speed (Fast/Slow)\" into its game"
	rl --db old.db search --game none --format json ''
	check_exit "...no ruling of no game is left" 1
	rl --db old.db search --game "Spirit Island" --format json ''
	check_json "...the rulings once each" 'd["total"] == 18'
	rl --db old.db documents --format json
	check_json "...one document, both versions" \
		'[(x["game"], len(x["versions"])) for x in d["documents"]] == [("Spirit Island", 2)]'
	rl --db old.db check
	check_exit "...and the database checks sound" 0
fi

finish
