#!/usr/bin/env bash
# Stemming as written (issue 13 #6): the inflections of a French verb or
# adjective find each other, typed with accents or without; Russian ё and
# е alike; a database made before schema 11 (rl_stem version 1: accents
# folded before stemming) is read as it is and rebuilt by the upgrade.
#
#   bash tests/cli/test-stemming.sh BUILD/rulings BUILD/rulings_fts.so
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

EXT=${2:-}
case $EXT in
/*) ;;
*) EXT=$PWD/$EXT ;;
esac
LATEST=$(cd "$_lib_dir/../../schema" && ls [0-9][0-9][0-9]-*.sql | tail -n 1 | sed 's/^0*//; s/-.*//')

# A French glossary, one form a page, and a Russian one.
mkdir -p fr ru
i=0
for form in défausse défausser défaussée défaussez défaussées épuisé épuisée épuiser; do
	i=$((i + 1))
	printf '# Entrée %s\n\nLe joueur lit ce mot : %s, et rien de plus.\n' "$i" "$form" >"fr/e$i.md"
done
printf '# Autre\n\nUne carte sans rapport avec le reste.\n' >fr/other.md
printf '# Атака\n\nАтакующий игрок ещё раз наносит удар.\n' >ru/a.md
printf '# Карта\n\nЗелёные карты лежат отдельно, еще одна в руке.\n' >ru/b.md

rl --db s.db import --quiet --no-thesaurus --game Essai --lang fr fr
check_exit "a French glossary imports" 0
rl --db s.db import --quiet --no-thesaurus --game Essai --lang ru ru
check_exit "a Russian one too" 0

# ids WORD...: the ids a search finds, sorted, on one line (ndjson: each
# line starts with its "id")
ids() {
	"$RULINGS" --db s.db search -n 0 --format ndjson "$@" 2>/dev/null |
		sed -n 's/^{"id":\([0-9]*\),.*/\1/p' | sort -n | paste -sd ' '
}

want=$(ids 'lang:fr' '(défausse OR défausser OR défaussée OR défaussez OR défaussées)')
check_eq "the five pages of défausser: five rulings" 5 "$(wc -w <<<"$want")"
for form in défausse défausser défaussée défaussez défaussées DÉFAUSSÉ défaussés; do
	check_eq "'$form' finds all five" "$want" "$(ids "$form")"
done
want=$(ids 'lang:fr' '(épuisé OR épuisée OR épuiser)')
check_eq "the three pages of épuiser: three rulings" 3 "$(wc -w <<<"$want")"
for form in épuisé épuisée épuiser épuisées épuisés; do
	check_eq "'$form' finds all three" "$want" "$(ids "$form")"
done
check_eq "a phrase: \"mot épuiser\" finds the three" "$want" "$(ids '"mot épuiser"')"
check_eq "a prefix typed with its accent: épuis*" "$want" "$(ids 'épuis*')"
check_eq "...and without: epuis*" "$want" "$(ids 'epuis*')"
# typed without accents, a word stems as it is written, and finds at least
# the form it spells (the stem of each accented word's folded form is
# indexed too)
check_eq "'defausser' finds all five" "$(ids défausser)" "$(ids defausser)"
page=$(sqlite3 s.db "SELECT id FROM rulings WHERE body LIKE '%: défaussée,%'")
check_match "'defaussee' finds the page that has 'défaussée'" \
	"(^| )$page( |$)" "$(ids defaussee)"
check_eq "'epuiser' finds all three" "$(ids épuiser)" "$(ids epuiser)"

# Russian: ё and е are one letter
check_eq "'ещё' and 'еще' find the same two" "$(ids 'lang:ru' еще)" "$(ids ещё)"
check_eq "...both rulings" 2 "$(wc -w <<<"$(ids ещё)")"
check_eq "'зеленая' finds 'Зелёные'" "$(ids зелёная)" "$(ids зеленая)"
check_eq "...one ruling" 1 "$(wc -w <<<"$(ids зеленая)")"

# ---- a database from before schema 11 -----------------------------------------------
# What an older rulings made: the same tables declared 'rl_stem LANG'
# (version 1) and indexed by it, schema version 10.
cp s.db old.db
ext_sqlite3 "$EXT" -batch -bail old.db ".load '${EXT%.so}'" "
	PRAGMA user_version = 10; DROP TABLE version_rulings;
	DROP TABLE rulings_fts_en; DROP TABLE rulings_fts_fr;
	DROP TABLE rulings_fts_ru; DROP TABLE rulings_fts_xx;
	CREATE VIRTUAL TABLE rulings_fts_en USING fts5(title, body,
	  content = 'rulings_text_en', content_rowid = 'id', tokenize = 'rl_stem en');
	CREATE VIRTUAL TABLE rulings_fts_fr USING fts5(title, body,
	  content = 'rulings_text_fr', content_rowid = 'id', tokenize = 'rl_stem fr');
	CREATE VIRTUAL TABLE rulings_fts_ru USING fts5(title, body,
	  content = 'rulings_text_ru', content_rowid = 'id', tokenize = 'rl_stem en');
	CREATE VIRTUAL TABLE rulings_fts_xx USING fts5(title, body,
	  content = 'rulings_text_xx', content_rowid = 'id', tokenize = 'rl_stem none');
	INSERT INTO rulings_fts_en(rulings_fts_en) VALUES ('rebuild');
	INSERT INTO rulings_fts_fr(rulings_fts_fr) VALUES ('rebuild');
	INSERT INTO rulings_fts_ru(rulings_fts_ru) VALUES ('rebuild');
	INSERT INTO rulings_fts_xx(rulings_fts_xx) VALUES ('rebuild');
	PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null 2>sq.err
check_eq "(a version 10 database made)" "" "$(cat sq.err)"
sum=$(sha256sum <old.db)

oldids() {
	"$RULINGS" --db old.db search -n 0 --format ndjson "$@" 2>/dev/null |
		sed -n 's/^{"id":\([0-9]*\),.*/\1/p' | sort -n | paste -sd ' '
}
rl --db old.db search défausser
check_exit "a reader reads the version 10 database" 0
check_err_contains "...warning that it is older" "schema version 10, older"
# read with the tokenizer its index was made with: as before schema 11
check_eq "...as it was: 'défausser' finds 3 of the 5" 3 "$(wc -w <<<"$(oldids défausser)")"
check_eq "...'défaussée' 3, not the same" 3 "$(wc -w <<<"$(oldids défaussée)")"
check_eq "...'épuiser' 2 of the 3" 2 "$(wc -w <<<"$(oldids épuiser)")"
check_eq "...and does not write it" "$sum" "$(sha256sum <old.db)"
rl --db old.db check
check_exit "check reports the older schema" 65
check_out_contains "...as its one problem" "schema is version 10, older"
check_err_contains "...one" "check: 1 problem found"
# (its index is sound: made by the tokenizer its tables declare)

rl --db old.db reindex
check_exit "reindex upgrades it" 0
check_err_contains "...saying so" "upgraded the database from schema version 10 to $LATEST"
check_eq "...to version $LATEST" "$LATEST" "$(sqlite3 old.db 'PRAGMA user_version')"
check_eq "...its tables declare rl_stem version 2, the French one 3" \
	"rulings_fts_en 2 en rulings_fts_fr 3 fr rulings_fts_ru 2 en rulings_fts_xx 2 none" \
	"$(sqlite3 old.db "SELECT name, replace(sql, char(10), ' ') FROM sqlite_schema
		WHERE name LIKE 'rulings_fts___' ORDER BY name" |
		sed -n "s/^\(rulings_fts_..\)|.*tokenize = 'rl_stem \([^']*\)'.*/\1 \2/p" | paste -sd ' ')"
for form in défausse défausser défaussée défaussez épuisé épuisée épuiser; do
	check_eq "upgraded: '$form' finds what it finds in a new database" "$(ids "$form")" "$(oldids "$form")"
done
rl --db old.db check
check_exit "the upgraded database passes check" 0
rl --db old.db search 'défaussée'
check_err_empty "...and is read without a warning"

# ---- a language stored in capitals ("FR", before b19e79e and fc08a5c):
# its rulings were in the full-text table of other languages, and neither
# --lang fr nor lang:fr found them. The upgrade to schema 17 gives them
# their language: a ruling alone is moved; where the same ruling is there
# in "fr" too (the document imported again since), the two are merged.
# (the version before the migration's, by its file's name)
BEFORE_CAPS=$(($(cd "$_lib_dir/../../schema" && ls [0-9][0-9][0-9]-lang-case.sql | sed 's/^0*//; s/-.*//') - 1))
mkdir caps1 caps2 nocaps
printf '# Dégâts\n\nLes dégâts des attaquants sont réduits.\n' >caps1/a.md
printf '# Défense\n\nLa défense protège les terres.\n' >caps1/b.md
cp caps1/a.md caps2/a.md
printf '# Défense\n\nLa défense protège les terres, toujours.\n' >caps2/b.md
rl --db caps.db import --quiet --no-thesaurus --game Caps --lang fr caps1
# (as an older rulings stored them: FR, in the table of other languages)
ext_sqlite3 "$EXT" -batch -bail caps.db ".load '${EXT%.so}'" \
	"UPDATE rulings SET lang = 'FR'; UPDATE documents SET lang = 'FR';
	UPDATE imports SET lang = 'FR'"
cp caps.db alone.db
sqlite3 alone.db "PRAGMA user_version = $BEFORE_CAPS"
capsids() {
	"$RULINGS" --db "$1" search -n 0 --format ndjson "${@:2}" 2>/dev/null |
		sed -n 's/^{"id":\([0-9]*\),.*/\1/p' | sort -n | paste -sd ' '
}
check_eq "(a database of schema $BEFORE_CAPS with FR: --lang fr finds nothing)" "" \
	"$(capsids alone.db --lang fr dégâts)"
rl --db alone.db import --quiet nocaps
check_exit "an upgrade (a command that writes)" 0
check_eq "...to the latest schema" "$LATEST" "$(sqlite3 alone.db 'PRAGMA user_version')"
check_eq "...every language in small letters" "fr fr fr" \
	"$(sqlite3 alone.db "SELECT (SELECT group_concat(DISTINCT lang) FROM rulings),
	(SELECT group_concat(DISTINCT lang) FROM documents),
	(SELECT group_concat(DISTINCT lang) FROM imports)" | tr '|' ' ')"
check_eq "...--lang fr finds its rulings, stemmed as French" "1 2" \
	"$(capsids alone.db --lang fr 'dégâts OR protéger')"
check_eq "...and lang:fr" "1" "$(capsids alone.db 'lang:fr dégâts')"
rl --db alone.db check
check_exit "...check: ok" 0
# the same ruling in FR (withdrawn) and in fr (current): the document
# imported again, as fr, before the upgrade
rl --db caps.db import --quiet --no-thesaurus --game Caps --lang fr caps2
sqlite3 caps.db "PRAGMA user_version = $BEFORE_CAPS"
check_eq "(FR and fr: three rulings, one FR withdrawn)" "1|FR|0 2|FR|1 3|fr|0" \
	"$(sqlite3 caps.db "SELECT id, lang, withdrawn_at IS NOT NULL FROM rulings" | paste -sd ' ')"
rl --db caps.db import nocaps
check_exit "the upgrade" 0
check_err_contains "...says it merged one" "1 rulings and 0 tags merged"
check_eq "...the current one kept, the withdrawn one merged into it" "1|fr|0 3|fr|0" \
	"$(sqlite3 caps.db "SELECT id, lang, withdrawn_at IS NOT NULL FROM rulings" | paste -sd ' ')"
rl --db caps.db history 3
check_out_contains "...its history: both versions" "La défense protège les terres."
check_out_contains "...the second an edit, not an addition" "edited · Défense"
check_eq "...no withdrawal left" 0 "$(sqlite3 caps.db "SELECT count(*) FROM changes WHERE change = 'withdrawn'")"
check_eq "...found in French" "1 3" "$(capsids caps.db --lang fr 'dégâts OR protéger')"
rl --db caps.db check
check_exit "...check: ok" 0
rl --db caps.db reindex
check_exit "reindex after it" 0
rl --db caps.db check
check_exit "...check: ok" 0
# The upgrade finds a language in capitals by walking the languages of
# each game and kind in rulings_identity, not by reading every ruling:
# one in the last game's last kind, after others in small letters.
rl --db late.db import --quiet --no-thesaurus --game Caps --lang fr caps1
rl --db late.db import --quiet --no-thesaurus --game Zed --lang fr caps2/b.md
ext_sqlite3 "$EXT" -batch -bail late.db ".load '${EXT%.so}'" \
	"UPDATE rulings SET lang = 'FR' WHERE game_id = (SELECT id FROM games WHERE name = 'Zed');
	PRAGMA user_version = $BEFORE_CAPS"
rl --db late.db import --quiet nocaps
check_exit "a language in capitals in the last game: the upgrade" 0
check_eq "...puts it in small letters" "fr" \
	"$(sqlite3 late.db "SELECT group_concat(DISTINCT lang) FROM rulings")"
check_eq "...found in French" "3" "$(capsids late.db --lang fr --game Zed protéger)"

# ---- French elision in a query (as Lucene's ElisionFilter): "l’allié" is
# the word "allié", not the phrase "l allié"; English apostrophes stay.
mkdir el el-en
printf '# Allié\n\nUn allié est un personnage.\n' >el/a.md
printf '# Soin\n\nLe joueur soigne l’allié blessé.\n' >el/b.md
printf '# Clock\n\nAt five o%sclock the player%ss turn ends.\n' "'" "'" >el-en/c.md
rl --db s.db import --quiet --no-thesaurus --game Elision --lang fr el
rl --db s.db import --quiet --no-thesaurus --game Elision --lang en el-en
check_exit "the elision pages import" 0
elided() {
	"$RULINGS" --db s.db search --game Elision --limit 0 --format json "$@" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])'
}
check_eq "'l’allié' finds both rulings of 'allié'" 2 "$(elided 'l’allié')"
check_eq "... with an ASCII apostrophe and capitals too" 2 "$(elided "L'Allié")"
check_eq "... 'd’allié' and 'qu’allié' as well" "2 2" "$(elided 'd’allié') $(elided 'qu’allié')"
check_eq "... 'l’allié blessé': the one with both words" 1 "$(elided 'l’allié' 'blessé')"
check_eq "... 'd’un' is the stop word 'un' beside another word" 1 "$(elided 'd’un' 'personnage')"
check_eq "English o'clock and player's are not elided" "1 1" \
	"$(elided "o'clock") $(elided "player's")"
rl --db s.db search --game Elision --explain "l’allié"
check_out_contains "--explain shows the word without its article" 'match: "allié"'

# ---- œ and oe (æ and ae): French writes "cœur", "sœur", "œil", but a
# keyboard without œ gives "coeur"; each spelling finds both, typed either
# way, in any case (the index keeps the text as written: no rebuild).
mkdir lig
printf '# Cœur\n\nLe cœur de la sœur, une œuvre : les nœuds et l’œil.\n' >lig/a.md
printf '# Voir\n\nVoir le coeur de la soeur, une oeuvre ; les noeuds, l’oeil.\n' >lig/b.md
printf '# Aether\n\nAn aether counter; shoes and toes.\n' >lig/c.md
printf '# Vial\n\nThe Æther Vial.\n' >lig/d.md
rl --db s.db import --quiet --no-thesaurus --game Ligature --lang fr lig/a.md lig/b.md
rl --db s.db import --quiet --no-thesaurus --game Ligature --lang en lig/c.md lig/d.md
check_exit "the ligature pages import" 0
lig() {
	"$RULINGS" --db s.db search --game Ligature --limit 0 --format json "$@" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])'
}
for w in cœur coeur CŒUR Coeur cœurs coeurs sœur soeur œuvre oeuvre nœud noeuds \
	"l’œil" "l'oeil"; do
	check_eq "'$w' finds both spellings" 2 "$(lig "$w")"
done
check_eq "'\"le coeur de la soeur\"', a phrase, finds both" 2 \
	"$(lig '"le coeur de la soeur"')"
check_eq "æther finds Æther and aether; aether, Æther alone" "2 1" \
	"$(lig 'æther') $(lig 'aether')"
check_eq "English shoes, toes: found as written" "1 1" "$(lig shoes) $(lig toes)"
rl --db s.db search --game Ligature --explain coeur
check_out_contains "--explain shows both spellings" '"cœur"'

# A French noun in -ât: Snowball stems "dégât" as a subjunctive ("deg")
# and "dégâts" as "degat"; each finds both, as do the plurals of appât
# and mât, with and without accents, in any case.
mkdir circ
printf '# Dégât\n\nUn dégât est infligé ; l’appât et le mât restent.\n' >circ/a.md
printf '# Dégâts\n\nLes dégâts sont infligés ; les appâts et les mâts restent.\n' >circ/b.md
rl --db s.db import --quiet --no-thesaurus --game Circumflex --lang fr circ
circ() {
	"$RULINGS" --db s.db search --game Circumflex --limit 0 --format json "$@" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])'
}
for w in dégât dégâts DÉGÂT Dégâts degat degats appât appâts mât mâts; do
	check_eq "'$w' finds the singular and the plural" 2 "$(circ "$w")"
done
check_eq "'\"un dégât\"', a phrase, as written" 1 "$(circ '"un dégât"')"

# A user's thesaurus that lists both spellings does not make one count
# twice in the score: the scores are those without the thesaurus (it
# adds only "heart", found nowhere), with the lists or without; a
# concept of the game, and one of every game beside it, the same.
scores() {
	"$RULINGS" --db "$1" search --game Ligature --format json "${@:2}" |
		python3 -c 'import json,sys
print(" ".join("%d:%.6f" % (r["id"], r["score"]) for r in json.load(sys.stdin)["results"]))'
}
for th in 'fr:cœur = fr:coeur = en:heart' \
	'[Ligature]
fr:cœur = fr:coeur = en:heart' \
	'fr:Cœur = fr:Coeur
[Ligature]
fr:cœur = fr:coeur = en:heart'; do
	cp s.db th.db
	mkdir -p th && printf '# rulings thesaurus\n%s\n' "$th" >th/thesaurus.txt
	rl --db th.db import --quiet th/thesaurus.txt
	for w in coeur cœur; do
		want=$(scores th.db "$w" --no-thesaurus)
		check_eq "thesaurus '${th//$'\n'/ | }': '$w' scores as without it" \
			"$want" "$(scores th.db "$w")"
		check_eq "...and so without the lists" "$want" \
			"$(RULINGS_TOPK=off scores th.db "$w")"
	done
done

finish
