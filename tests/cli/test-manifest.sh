#!/usr/bin/env bash
# The game of a document that does not name its own (issue 12): --game,
# else a directory manifest (.rulings); a bulk import of several games'
# folders, each named by its manifest, over a temporary copy of part of
# ../shared/corpora (read in place, never copied into the repository;
# skipped, 77, without it); an older import's game-less document merged
# into its game; --game none.
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

# FAQ12.rst is of no format rulings reads (skipped with a warning)
n_berserk=$(ls "$C"/berserk-heroes-ru/{c1_rules,dictionary_*}.rst | wc -l)
n_codex=$(ls "$C"/codex-rulings/*.json | wc -l)
n_marvel=$(ls "$C"/marvel-champions-fr/docs/Glossaire/S/*.md | wc -l)

rl --db mix.db import --no-thesaurus --bulk "$C"
check_exit "a mixed bulk import of four games' folders and a page of none" 65
check_match "...every document imported but the page no manifest names, refused" \
	"^$((n_berserk + n_codex + n_marvel + 3)) documents: $((n_berserk + n_codex + n_marvel + 1)) imported, 0 unchanged, 1 skipped, 1 refused, 0 failed" \
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

# --game wins over every manifest
rl --db game.db import --no-thesaurus --game Other "$C/berserk-heroes-ru" "$C/named"
check_exit "--game over the manifests" 0
rl --db game.db documents --format json
cp "$OUT" game.json
check_eq "...every document of that game but the one that names its own" \
	"Other=$n_berserk Spirit Island=1" "$(games game.json)"

# a manifest is read strictly: a typo is not a game-less import
printf 'game = Codex\ngmae = Codex\n' >"$C/codex-rulings/.rulings"
rl --db typo.db import --no-thesaurus "$C/codex-rulings" "$C/named"
check_exit "a manifest with an unknown key: exit 65" 65
check_err_contains "...at its line" \
	"$C/codex-rulings/.rulings:2: unknown key 'gmae' (known: game, lang, date)"
check_out_contains "...the other folders go on" "1 imported"
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
