#!/usr/bin/env bash
# What the command line makes of its arguments: every argument is valid
# UTF-8 or the command stops before doing anything (issue 17 case 2);
# --db before or after the command name (issue 11 point 8); unknown
# commands and options with "did you mean", and rulings help (issue 13
# point 3).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

seed_db s.db
sum_before=$(cksum <s.db)

# bad_utf8 DESC N ARGS...: exit 2, "argument N is not valid UTF-8", nothing
# on standard output, the database untouched.
bad_utf8() {
	local desc=$1 n=$2
	shift 2
	rl "$@"
	check_exit "$desc: exit 2" 2
	check_err_contains "$desc: names the argument" \
		"argument $n is not valid UTF-8"
	check_out_empty "$desc: nothing on standard output"
}

# ---- arguments that are not UTF-8 ------------------------------------------
bad_utf8 "search --tag, a cut sequence" 5 --db s.db search --tag $'\xe2\x82'
bad_utf8 "search, a word with a stray byte" 4 --db s.db search $'fast\xff'
bad_utf8 "an overlong slash" 4 --db s.db search $'\xc0\xaf'
bad_utf8 "a surrogate" 5 --db s.db show --game $'\xed\xa0\x80' 1
bad_utf8 "above U+10FFFF" 4 --db s.db tags $'\xf4\x90\x80\x80'
bad_utf8 "the database's name" 2 --db $'s\xff.db' stats
bad_utf8 "the command's name" 1 $'st\xe4ts'
bad_utf8 "import --game" 5 --db s.db import --game $'Bad\xff' "$SEED_SPEED"
bad_utf8 "import --game into a new database" 5 --db new.db import \
	--game $'Bad\xff' "$SEED_SPEED"
check_eq "...which is not created" no "$([ -e new.db ] && echo yes || echo no)"
bad_utf8 "parse --game" 3 parse --game $'Bad\xff' "$SEED_SPEED"
bad_utf8 "after --" 5 --db s.db search -- $'\x80'
check_eq "the database is untouched" "$sum_before" "$(cksum <s.db)"
rl --db s.db stats --format json
check_json "no game was stored (but the seeds' manifest's)" \
	'd["games"] == [{"name": "Spirit Island", "rulings": 35}]'

# ---- UTF-8 of every length is an argument like any other ---------------------
rl --db s.db search $'D\xc3\xa9fense' $'\xd0\xb0\xd1\x82\xd0\xb0\xd0\xba\xd0\xb0' $'\xe2\x80\xa2' $'\xf0\x9f\x98\x80'
check_exit "valid UTF-8 words search as usual (nothing found)" 1
check_err_empty "...with no message"

# ---- --db before or after the command name ----------------------------------
cp s.db t.db
for args in "search --tag Defend" "tags" "stats" "show 1" "changed" "history 1" \
	"xrefs"; do
	# shellcheck disable=SC2086
	rl --db s.db $args --format json
	before=$(cat "$OUT")
	# shellcheck disable=SC2086
	rl $args --format json --db s.db
	check_eq "$args --db FILE: as with --db before the command" "$before" \
		"$(cat "$OUT")"
done
rl search --db=s.db --tag Defend
check_exit "search --db=FILE" 0
rl import --db after.db --quiet "$SEED_SPEED"
check_exit "import PATH --db FILE" 0
check_eq "...imports into that database" yes \
	"$([ -s after.db ] && [ ! -e "$XDG_DATA_HOME/rulings/rulings.db" ] && echo yes || echo no)"
rl export --tag Defend --format json -o defend.json --db s.db
check_exit "export ... --db FILE" 0
rl --db nowhere.db stats --db s.db
check_exit "--db after the command wins over --db before it" 0

# ---- search words that begin with '-' ----------------------------------------
# Only the exact forms of search's options are options: "-gift" is a word,
# not --game ift (issue 13: search repeat -gift exited 1 with no message,
# search repeat -fast said "unknown format 'ast'").
rl --db s.db search --format json repeat -- -gift
words_after_dashes=$(cat "$OUT")
rl --db s.db search repeat -gift --format json
check_exit "search repeat -gift: not a usage error" 0 1
check_err_empty "...no message"
check_eq "...the same search as with -gift after --" "$words_after_dashes" \
	"$(cat "$OUT")"
rl --db s.db search repeat -fast
check_exit "search repeat -fast: not a usage error" 0 1
check_err_empty "...no 'unknown format'"
rl --db s.db search -t Defend -n 2 -f json
check_exit "search -t T -n N -f F: the short options still are" 0
check_json "...all three applied" 'len(d["results"]) == 2 and all("Defend" in r["tags"] for r in d["results"])'
rl --db s.db search --tag=Defend --limit=1 --format=ndjson
check_ndjson "search --name=VALUE" 'len(rows) == 1'
rl --db s.db search defend --cat x
check_exit "search --cat (not an exact option name): a usage error" 2
check_err_contains "...with a suggestion" "did you mean '--category'?"
rl --db s.db search -z defend
check_exit "search -z defend: -z is a word" 0 1
check_err_empty "...no message"
rl --db s.db tags -z
check_exit "tags -z: an unknown option there" 2

# ---- did you mean ---------------------------------------------------------------
# did_you_mean DESC WANT ARGS...: exit 2 and "did you mean WANT?"
did_you_mean() {
	local desc=$1 want=$2
	shift 2
	rl "$@"
	check_exit "$desc: exit 2" 2
	check_err_contains "$desc: did you mean $want?" "did you mean $want?"
	check_out_empty "$desc: nothing on standard output"
}
did_you_mean "serch" "'search'" --db s.db serch defend
did_you_mean "shwo (two letters swapped)" "'show'" --db s.db shwo 1
did_you_mean "hist (the start of a name)" "'history'" --db s.db hist 1
did_you_mean "search --tga" "'--tag'" --db s.db search --tga Defend
did_you_mean "search --limt" "'--limit'" --db s.db search x --limt 2
did_you_mean "changed --sinse" "'--since'" --db s.db changed --sinse 2026-01-01
did_you_mean "xrefs --danglng" "'--dangling'" --db s.db xrefs --danglng
did_you_mean "import --dyr-run" "'--dry-run'" --db s.db import --dyr-run "$SEED_SPEED"
did_you_mean "a global --dbb" "'--db'" --dbb s.db stats
did_you_mean "help serch" "'search'" help serch
rl --db s.db frobnicate
check_exit "a command nothing is near: exit 2" 2
check_not_contains "...and no suggestion" "$(cat "$ERR")" "did you mean"

# ---- values in capitals ----------------------------------------------------------
# lang:EN and kind:FAQ in a query are lang:en and kind:faq; the options
# --lang EN, --kind FAQ and --format JSON were usage errors.
lower=$(rl --db s.db search --format json -n 0 --lang en --kind faq defend; cat "$OUT")
for args in "--lang EN --kind FAQ defend" "--lang En --kind Faq defend"; do
	# shellcheck disable=SC2086
	rl --db s.db search --format JSON -n 0 $args
	check_exit "search --format JSON $args: accepted" 0
	check_eq "...the same as in lower case" "$lower" "$(cat "$OUT")"
done
rl --db s.db search --lang ANY --format json -n 0 defend
check_exit "search --lang ANY: accepted" 0
rl --db s.db changed --lang EN --kind FAQ --format NDJSON
check_exit "changed --lang EN --kind FAQ --format NDJSON: accepted" 0
rl --db s.db tags --sort COUNT
check_exit "tags --sort COUNT: accepted" 0
rl --db caps.db import --lang EN --game "Spirit Island" --format FAQ-TAGS "$SEED_SPEED"
check_exit "import --lang EN --format FAQ-TAGS: accepted" 0
rl --db caps.db documents --format json
check_json "...and stored as en" 'd["documents"][0]["lang"] == "en" or any(x["lang"] == "en" for x in d["documents"])'
rl --db s.db search --lang ENGLISH defend
check_exit "search --lang ENGLISH: still no language code" 2
# a manifest's lang is as --lang gives it (rulings(1) DIRECTORY
# MANIFESTS): 'lang = FR' was stored as FR, in the full-text table of
# other languages, found by no --lang nor lang:; 'lang = french' too.
mkdir -p capsdir
cp "$SEED_SPEED" capsdir/
printf 'game = Spirit Island\nlang = FR\n' >capsdir/.rulings
rl --db capsman.db import --no-thesaurus capsdir
check_exit "a manifest's lang = FR: accepted" 0
rl --db capsman.db search --lang fr -n 0 --format json --tag Speed
check_exit "...its rulings found by --lang fr" 0
check_json "...stored as fr" 'd["total"] > 0 and all(r["lang"] == "fr" for r in d["results"])'
printf 'game = Spirit Island\n\nlang = french\n' >capsdir/.rulings
rl --db capsman2.db import --no-thesaurus capsdir
check_exit "a manifest's lang = french: an error of its documents" 65
check_err_contains "...said at its FILE:LINE" \
	"capsdir/.rulings:3: error: lang 'french' is not a language code"
check_eq "...nothing imported" no "$([ -e capsman2.db ] && sqlite3 capsman2.db 'SELECT 1 FROM rulings LIMIT 1' | grep -q 1 && echo yes || echo no)"
# a document's own "Language: FR" line is fr too: stored as FR, its
# ruling was in no language --lang or lang: could name ("no language
# 'fr'; did you mean 'FR'?", and --lang FR is fr)
mkdir -p capsdoc
printf 'Game: Spirit Island\nLanguage: FR\nRepeat\n\n\xe2\x80\xa2 Puis-je le r\xc3\xa9p\xc3\xa9ter ?\n  Oui, une fois.\n  Tags: Repeat\n' \
	>capsdoc/page.txt
rl --db capsdoc.db import --no-thesaurus capsdoc/page.txt
check_exit "a page whose Language: line is FR: imported" 0
rl --db capsdoc.db search --lang FR --format json répéter
check_exit "...found by --lang FR" 0
check_json "...stored as fr" 'd["total"] == 1 and d["results"][0]["lang"] == "fr"'
rl --db capsdoc.db search 'lang:fr répéter'
check_exit "...and by lang:fr" 0

# ---- rulings help -------------------------------------------------------------
rl --help
main_help=$(cat "$OUT")
rl help
check_exit "rulings help" 0
check_eq "rulings help is rulings --help" "$main_help" "$(cat "$OUT")"
check_out_contains "...which lists help" "help [COMMAND]"
for cmd in search show tags stats changed history xrefs parse import export help; do
	rl "$cmd" --help
	want=$(cat "$OUT")
	rl help "$cmd"
	check_exit "rulings help $cmd" 0
	check_eq "rulings help $cmd is rulings $cmd --help" "$want" "$(cat "$OUT")"
done
rl help search show
check_exit "rulings help with two commands: exit 2" 2
rl --db "$T/no/such/dir/x.db" help search
check_exit "rulings help needs no database" 0

finish
