#!/usr/bin/env bash
# What the command line makes of its arguments: every argument is valid
# UTF-8 or the command stops before doing anything (issue 17 case 2).
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
check_json "no game was stored" 'd["games"] == 0'

# ---- UTF-8 of every length is an argument like any other ---------------------
rl --db s.db search $'D\xc3\xa9fense' $'\xd0\xb0\xd1\x82\xd0\xb0\xd0\xba\xd0\xb0' $'\xe2\x80\xa2' $'\xf0\x9f\x98\x80'
check_exit "valid UTF-8 words search as usual (nothing found)" 1
check_err_empty "...with no message"

finish
