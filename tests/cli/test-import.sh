#!/usr/bin/env bash
# rulings import (and parse): one transaction per file, idempotence, unknown
# formats, missing files, bad input, "--".
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

# ---- the two seed pages -----------------------------------------------------
rl --db seeds.db import "$SEED_SPEED" "$SEED_DEFEND"
check_exit "import of the two seed pages succeeds" 0
check_match "the Speed page is imported with 18 entries" \
	"^imported .*000_033b5c31b01b6f02\.txt: 18 entries, 18 added" "$(cat "$OUT")"
check_match "the Defend page is imported with 17 entries" \
	"^imported .*001_8e68847c21c72d28\.txt: 17 entries, 17 added" "$(cat "$OUT")"
check_match "the new database starts with the shipped thesaurus, first" \
	"^started the new database with the shipped thesaurus, .*/thesaurus\.txt: [1-9][0-9]* concepts$" \
	"$(head -n 1 "$OUT")"
# the thesaurus is not one of the paths given: two files, two documents
# (it was "3 documents: 3 imported")
check_match "a summary line counts the documents given, not the thesaurus" \
	"^2 documents: 2 imported, 0 unchanged, 0 skipped, 0 failed" "$(cat "$OUT")"
check_err_empty "the seed import prints no diagnostics"
rl --db one.db import "$SEED_SPEED"
check_exit "one file into a new database" 0
check_eq "...one line for the thesaurus, one for the file, no summary of '2 documents'" \
	2 "$(wc -l <"$OUT")"
check_not_contains "...no 'imported' line for a file not given" \
	"$(grep '^imported' "$OUT")" "thesaurus"

rl --db seeds.db stats --format json
cp "$OUT" stats1.json
check_json "stats after the first import: 35 rulings" 'd["rulings"] == 35'
rl --db seeds.db search --lang any --limit 0 --format json
cp "$OUT" all1.json

# ---- importing the same bytes again changes nothing ---------------------------
rl --db seeds.db import "$SEED_SPEED" "$SEED_DEFEND"
check_exit "a second import of the same files succeeds" 0
check_match "the Speed page is reported unchanged" \
	"^unchanged .*000_033b5c31b01b6f02\.txt$" "$(cat "$OUT")"
check_match "the Defend page is reported unchanged" \
	"^unchanged .*001_8e68847c21c72d28\.txt$" "$(cat "$OUT")"
check_match "the summary counts 2 unchanged, 0 added" \
	"^2 documents: 0 imported, 2 unchanged, .*rulings: 0 added, 0 edited, 0 withdrawn" \
	"$(cat "$OUT")"
rl --db seeds.db stats --format json
check_eq "stats are identical after the second import" \
	"$(cat stats1.json)" "$(cat "$OUT")"
rl --db seeds.db search --lang any --limit 0 --format json
check_eq "every ruling (ids included) is identical after the second import" \
	"$(cat all1.json)" "$(cat "$OUT")"

# The same bytes under another name are the same document version.
cp "$SEED_SPEED" copy-of-speed.txt
rl --db seeds.db import copy-of-speed.txt
check_exit "importing a renamed copy succeeds" 0
check_out_contains "a renamed copy is reported unchanged" "unchanged copy-of-speed.txt"

# A directory twice: the same.
faq_dir twice
cp "$SEED_SPEED" "$SEED_DEFEND" twice/
rl --db twice.db import twice
check_exit "importing a directory succeeds" 0
rl --db twice.db stats --format json
cp "$OUT" twice1.json
rl --db twice.db import twice
check_exit "importing the directory again succeeds" 0
check_out_contains "the directory's files are reported unchanged" "unchanged twice/"
rl --db twice.db stats --format json
check_eq "stats are identical after importing the directory again" \
	"$(cat twice1.json)" "$(cat "$OUT")"

# ---- one transaction per file: a good file and a bad one ----------------------
faq_dir mixed
cp "$SEED_SPEED" mixed/a-good.txt
# The Defend page with an invalid UTF-8 byte on line 5.
{ sed -n 1,4p "$SEED_DEFEND"; printf 'Effect Rules \377\n'; sed -n '6,$p' "$SEED_DEFEND"; } \
	> mixed/b-bad.txt
rl --db mixed.db import --no-thesaurus mixed
check_exit "a directory with a bad file exits 65" 65
check_match "the bad file gets a FILE:LINE error diagnostic" \
	"^rulings: mixed/b-bad\.txt:5(:[0-9]+)?: error: " "$(cat "$ERR")"
check_out_contains "the good file is imported" "imported mixed/a-good.txt: 18 entries"
check_match "the summary counts 1 imported and 1 failed" \
	"^2 documents: 1 imported, .* 1 failed" "$(cat "$OUT")"
rl --db mixed.db stats --format json
check_json "only the good file's rulings are stored" \
	'd["rulings"] == 18 and d["sources"] == 1'
rl --db mixed.db search --tag Defend
check_exit "nothing of the bad file is stored" 1

# The bad file alone, named.
rl --db bad-only.db import mixed/b-bad.txt
check_exit "a named file with invalid UTF-8 exits 65" 65
check_match "its diagnostic is FILE:LINE: error: ..." \
	"^rulings: mixed/b-bad\.txt:5(:[0-9]+)?: error: .*UTF-8" "$(cat "$ERR")"

# ---- unknown formats ----------------------------------------------------------
# Prose that no importer recognizes (the seeds 002-004 are all known now).
printf 'Notes from the game night.\n\nWe played two rounds and it rained.\n' > notes.txt
printf 'Liste de courses\n\nDu pain, du fromage et des pommes.\n' > courses.txt
cp notes.txt unknown-fr.txt
rl --db unknown.db import unknown-fr.txt
check_exit "a named file of unknown format exits 65" 65
check_match "it is an error naming the file" \
	"^rulings: unknown-fr\.txt: error: not a document format" "$(cat "$ERR")"

faq_dir walk; mkdir -p walk/sub
cp "$SEED_SPEED" walk/a.txt
cp courses.txt walk/b-fr.txt
cp notes.txt walk/sub/c.txt
# an image beside the documents: binary, skipped (not an encoding error)
printf '\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00' > walk/sub/picture.png
cp "$SEED_DEFEND" walk/sub/d.txt
rl --db walk.db import --no-thesaurus walk
check_exit "a directory walk with unknown formats succeeds" 0
check_match "an unknown format in a walk is skipped with a warning" \
	"^rulings: walk/b-fr\.txt: warning: .*skipped" "$(cat "$ERR")"
check_match "the walk is recursive (subdirectory skipped with a warning)" \
	"^rulings: walk/sub/c\.txt: warning: .*skipped" "$(cat "$ERR")"
check_out_contains "the walk imports the subdirectory's good file" "imported walk/sub/d.txt"
check_match "a binary file in a walk is skipped with a warning" \
	"^rulings: walk/sub/picture\.png: warning: a binary file" "$(cat "$ERR")"
check_match "the summary counts 2 imported and 3 skipped" \
	"^5 documents: 2 imported, 0 unchanged, 3 skipped, 0 failed" "$(cat "$OUT")"
printf 'ab\x00cd\n' > named-binary.txt
rl --db nb.db import named-binary.txt
check_exit "a file with a NUL byte named explicitly is refused: exit 65" 65
rl --db walk.db stats --format json
check_json "the walk stored 35 rulings" 'd["rulings"] == 35'

# Hidden files and directories are passed over.
faq_dir hidden; mkdir -p hidden/.git
cp "$SEED_SPEED" hidden/visible.txt
cp "$SEED_DEFEND" hidden/.hidden.txt
cp "$SEED_DEFEND" hidden/.git/page.txt
rl --db hidden.db import --no-thesaurus hidden
check_exit "a walk with hidden files succeeds" 0
check_not_contains "hidden files are not mentioned" "$(cat "$OUT" "$ERR")" ".hidden"
rl --db hidden.db stats --format json
check_json "only the visible file is imported" 'd["rulings"] == 18 and d["sources"] == 1'

# An empty file named explicitly is bad data.
: > empty.txt
rl --db empty.db import empty.txt
check_exit "an empty file named explicitly exits 65" 65
check_match "...with an error naming it" '^rulings: empty\.txt(:[0-9]+)*: error: ' "$(cat "$ERR")"

# The whole sample data directory.
rl --db data.db import "$DATA"
check_exit "importing the sample data directory succeeds" 0
check_eq "every document in data/ is of a known format" 0 \
	"$(grep -c 'warning: not a document format' "$ERR")"
rl --db data.db stats --format json
check_json "data/ holds English, French and Russian rulings" \
	'd["languages"].get("en") == 35 and d["languages"].get("fr", 0) > 0 and d["languages"].get("ru", 0) > 0'


# ---- symbolic link loops (issue 17 #6) -------------------------------------------
# Each directory is walked once: links back to one (or to one walked
# already) are passed over with a warning.
faq_dir loops one-loop; mkdir -p loops/sub
cp "$SEED_SPEED" loops/a.txt
cp "$SEED_DEFEND" loops/sub/b.txt
ln -s . loops/self1
ln -s . loops/self2
ln -s .. loops/sub/up
ln -s sub loops/sub-again
run timeout 20 "$RULINGS" --db loops.db import --no-thesaurus loops
check_exit "two links to '.', one to '..', one to a sibling: exit 0" 0
check_eq "... each file imported once" 2 "$(grep -c '^imported ' "$OUT")"
check_eq "... each link to a directory walked already passed over with a warning" \
	"loops/self1|loops/self2|loops/sub-again|loops/sub/up" \
	"$(grep 'warning: a directory walked already' "$ERR" | sed 's/^rulings: \([^:]*\):.*/\1/' | sort | paste -sd'|')"
cp "$SEED_SPEED" one-loop/a.txt
ln -s . one-loop/again
run timeout 20 "$RULINGS" --db one-loop.db import one-loop
check_exit "one link to '.': exit 0 (no walk down to the depth limit)" 0
check_out_contains "... its file imported" "imported one-loop/a.txt"

# ---- missing files ------------------------------------------------------------
rl --db missing.db import no-such-file.txt
check_exit "a missing file exits 74" 74
check_match "a missing file is reported by name" \
	"^rulings: no-such-file\.txt: .*(No such file|cannot open)" "$(cat "$ERR")"

check_eq "...and no database is created for it (nothing can be imported)" \
	"" "$(ls missing.db* 2>/dev/null)"
rl --db missing3.db import --game X no-such-file.txt no-such-dir/
check_exit "two missing paths exit 74" 74
check_eq "...each reported" 2 "$(grep -c ': error: cannot open: No such file or directory$' "$ERR")"
check_eq "...and no database created" "" "$(ls missing3.db* 2>/dev/null)"

# a directory with nothing to import says so (it was a silent success)
mkdir -p nothing-here/sub && echo x >nothing-here/.hidden
rl --db nothing.db import nothing-here
check_exit "a directory with nothing to import: exit 0" 0
check_err_contains "...with a warning" "warning: no file to import in nothing-here"
rl --db nothing.db import nothing-here "$SEED_SPEED"
check_err_empty "...no warning when another path has a file"

rl --db missing2.db import no-such-file.txt "$SEED_SPEED"
check_exit "a missing file among good ones still exits 74" 74
rl --db missing2.db stats --format json
check_json "the good file beside a missing one is imported" 'd["rulings"] == 18'

# ---- "--" ends the options ----------------------------------------------------
cp "$SEED_SPEED" ./-x.txt
rl --db dash.db import -- -x.txt
check_exit "import -- -x.txt imports a file named -x.txt" 0
check_out_contains "the file named -x.txt is reported imported" "imported -x.txt: 18 entries"
rl --db dash2.db import -x.txt
check_exit "import -x.txt without -- is an unknown option (usage error)" 2
check_err_contains "the unknown option is named" "unknown option"

# ---- options ------------------------------------------------------------------
rl --db quiet.db import --quiet "$SEED_SPEED"
check_exit "import --quiet succeeds" 0
check_out_empty "import --quiet prints nothing"

rl --db game.db import --game "Spirit Island" "$SEED_SPEED"
check_exit "import --game succeeds" 0
rl --db game.db stats --format json
check_json "import --game records one game" \
	'd["rulings"] == 18 and d["games"] == [{"name": "Spirit Island", "rulings": 18}]'

rl --db nothing.db import
check_exit "import without a path is a usage error" 2

# ---- a document that names no game is refused (issue 12) ----------------------
# nogame/ has no manifest: the FAQ page there names no game, the Spirit
# Island rules page (data/003) names its own in its title.
mkdir -p nogame
cp "$SEED_SPEED" nogame/a-speed.txt
cp "$DATA/003_ec034672c1b9d987.txt" nogame/b-rules.txt
rl --db nogame.db import --no-thesaurus --game Scratch "$SEED_DEFEND"
rl --db nogame.db import nogame
check_exit "a walk with a game-less document exits 65" 65
check_err_contains "the refusal names the file and lists the database's games" \
	"rulings: nogame/a-speed.txt: does not name its game; give --game (games in this database: Scratch); refused, nothing stored"
check_out_contains "the other document of the run is imported" "imported nogame/b-rules.txt"
check_match "the summary counts it refused" \
	"^2 documents: 1 imported, 0 unchanged, 0 skipped, 1 refused, 0 failed" "$(cat "$OUT")"
check_contains "the summary lists it under the refused" "$(sed -n '/^refused, nothing stored:$/,$p' "$OUT")" \
	"  nogame/a-speed.txt: does not name its game"
rl --db nogame.db stats --format json
check_json "nothing of it is stored (Scratch's Defend page and the rules page only)" \
	'd["imports"] == 2 and d["sources"] == 2 and sorted(g["name"] for g in d["games"]) == ["Scratch", "Spirit Island"]'
rl --db nogame.db search --game none speed
check_exit "no ruling of no game" 1
rl --db nogame.db import --bulk nogame
check_exit "in a bulk load too: exit 65" 65
check_match "... the rest of the group committed, the refused listed" \
	"^2 documents: 0 imported, 1 unchanged, 0 skipped, 1 refused, 0 failed" "$(cat "$OUT")"
rl --db nogame-dry.db import --dry-run nogame/a-speed.txt
check_exit "a dry run refuses it as well: exit 65" 65
check_err_contains "... saying why, in an empty database" \
	"rulings: nogame/a-speed.txt: does not name its game; give --game (this database has no game yet); refused, nothing stored"
rl --db nogame.db import --game "Spirit Island" nogame/a-speed.txt
check_exit "with --game it is imported" 0
rl --db nogame.db stats --format json
check_json "... into that game" \
	'{g["name"]: g["rulings"] for g in d["games"]}.get("Spirit Island", 0) > 18'

# ---- a new version of a document updates its rulings in place -----------------
rl --db update.db import --quiet "$SEED_DEFEND"
rl --db update.db search Generally since Event dealing damage --format json
old_id=$(json_get 'd["results"][0]["id"]')
sed 's/Generally no, since it is the Event/Generally NOT, since it is the Event/' \
	"$SEED_DEFEND" > defend-v2.txt
rl --db update.db import defend-v2.txt
check_exit "importing a new version of a page succeeds" 0
check_out_contains "one ruling is reported edited" "17 entries, 0 added, 1 edited, 0 withdrawn"
# (NOT in capitals is the query language's operator: the words in quotes)
rl --db update.db search '"Generally NOT"' since Event --format json
check_json "the updated ruling keeps its id and has the new text" \
	"d[\"total\"] == 1 and d[\"results\"][0][\"id\"] == $old_id and 'Generally NOT' in d['results'][0]['text']"
rl --db update.db stats --format json
check_json "the update neither adds nor removes rulings" 'd["rulings"] == 17'

# ---- a game given in another case is the game there is ------------------------
# --game and game: select games by their folded names; an import given a
# game's name in other case letters (or quotes) stores into that game
# rather than beside it as a second one that every search of the name
# would select too, its rulings twice
rl --db case.db import --no-thesaurus --game "Spirit Island" "$SEED_SPEED"
check_exit "a page imported into Spirit Island" 0
rl --db case.db import --no-thesaurus --game "spirit island" "$SEED_SPEED"
check_exit "...again, given 'spirit island'" 0
check_out_contains "...is the same document, unchanged" "unchanged"
rl --db case.db import --no-thesaurus --game "SPIRIT ISLAND" "$SEED_DEFEND"
check_exit "another page, given 'SPIRIT ISLAND'" 0
rl --db case.db stats --format json
check_json "...one game, its name as first written, 35 rulings" \
	'[(g["name"], g["rulings"]) for g in d["games"]] == [("Spirit Island", 35)]'
rl --db case.db search --game "spirit island" --format json --limit 0 Defend
check_json "...and a search of the game finds each ruling once" \
	'len({(r["title"], r["text"]) for r in d["results"]}) == len(d["results"]) == d["total"]'
rl --db case.db import --no-thesaurus --game "Берсерк. Герои" "$SEED_SPEED"
rl --db case.db import --no-thesaurus --game "БЕРСЕРК. ГЕРОИ" "$SEED_DEFEND"
rl --db case.db stats --format json
check_json "...Cyrillic names alike (full case folding)" \
	'[(g["name"], g["rulings"]) for g in d["games"]] == [("Spirit Island", 35), ("Берсерк. Герои", 35)]'

# a page that names its game, given it in other case: no warning that
# the game given is not used (it is that game)
rl --db case.db export --tag Defend --game "Spirit Island" --format txt -o named.txt
check_eq "...a page that names its game" "Game: Spirit Island" "$(head -n 1 named.txt)"
rl --db case2.db import --no-thesaurus --game "SPIRIT island" named.txt
check_exit "a page naming Spirit Island, given 'SPIRIT island'" 0
check_not_contains "...is not warned about as another game" "$(cat "$ERR")" "is not used"
rl --db case2.db import --no-thesaurus --game "Isla Espíritu" named.txt
check_err_contains "...given another game, it is" \
	"the document names its game 'Spirit Island'; the game given, 'Isla Espíritu', is not used"

# ---- parse: the importer's view, no database ----------------------------------
rl parse "$SEED_SPEED"
check_exit "parse of a seed page succeeds without a database" 0
check_json "parse prints the 18 entries and the page tag" \
	'd["format_version"] == 1 and len(d["entries"]) == 18 and d["page_tag"] == {"name": "Speed", "qualifier": "Fast/Slow"} and d["lang"] == "en"'
check_eq "parse creates no database" "" "$(find "$T/xdg" "$T/home" -name '*.db' 2>/dev/null)"
rl parse unknown-fr.txt
check_exit "parse of an unknown format exits 65" 65

finish
