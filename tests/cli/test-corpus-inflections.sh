#!/usr/bin/env bash
# Inflections on the real corpora (issue 13 #6): the French Marvel Champions
# glossary and the Russian Berserk. Heroes glossary (../shared/corpora,
# read in place), imported; tests/cli/inflections.py finds their inflection
# groups from the raw text (the endings of a paradigm, no stemmer) and cuts
# each into parts by what Snowball makes of each form as written (python3-
# snowballstemmer), which the log shows; every group, whole, must give one
# result set: searched for "(A OR B OR C) -(A B C)", the rulings one form
# finds and another does not are none. Snowball alone cuts a third of the
# French groups (third person plurals in -ent, verbs in -ier and -yer,
# short words): rl_stem version 3's verb roots join them. Ten groups a
# search; a batch that finds something is searched group by group, to name
# the group.
#
#   bash tests/cli/test-corpus-inflections.sh BUILD/rulings CORPORA
#
# Exits 77 (skipped) when the corpora are not there.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

CORPORA=${RULINGS_CORPORA:-${2:-}}
if [ -z "$CORPORA" ] || [ ! -d "$CORPORA/berserk-heroes-ru" ] ||
   [ ! -d "$CORPORA/marvel-champions-fr/docs" ]; then
	echo "skipped: no corpora at '${CORPORA:-}'"
	_finished=1
	exit 77
fi
CORPORA=$(cd "$CORPORA" && pwd)
BH=$CORPORA/berserk-heroes-ru/dictionary_2025-06-19_rules-v17.0_7c7e2d8.rst
MC=$CORPORA/marvel-champions-fr/docs
# Debian's Python, which has python3-snowballstemmer (.ci/deps --test)
PY=/usr/bin/python3

rl --db c.db import --quiet --no-thesaurus --game "Marvel Champions" "$MC"
check_exit "the Marvel Champions glossary imports" 0
rl --db c.db import --quiet --no-thesaurus --game "Берсерк. Герои" "$BH"
check_exit "the Berserk. Heroes glossary imports" 0

# query GROUP...: the search that finds what the forms of each group do not
# all find, for several groups at once
query() {
	local group q= u f
	for group; do
		u=
		for f in $group; do
			u="${u:+$u OR }$f"
		done
		q="${q:+$q OR }(($u) -($group))"
	done
	printf '%s' "$q"
}

# found LANG GROUP...: how many rulings the query finds
found() {
	local lang=$1
	shift
	"$RULINGS" --db c.db search -n 0 --format ndjson "lang:$lang" "($(query "$@"))" 2>/dev/null |
		grep -c '^{'
}

for lang in fr ru; do
	src=$MC
	[ "$lang" = ru ] && src=$BH
	if ! "$PY" "$_lib_dir/inflections.py" "$lang" "$src" >"$lang.parts" 2>"$lang.err"; then
		_fail "$lang: inflections.py" "$(head -c 600 "$lang.err")"
		continue
	fi
	groups=$(cut -f1 "$lang.parts" | sort -u | wc -l)
	whole=$(cut -f1 "$lang.parts" | uniq -c | awk '$1 == 1' | wc -l)
	echo "# $lang: $groups inflection groups, $whole whole (one stem); the parts:"
	sed 's/^/#   /' "$lang.parts"
	if [ "$groups" -ge 20 ]; then
		_pass "$lang: $groups groups found"
	else
		_fail "$lang: only $groups groups found"
	fi
	# the groups, whole (their parts together), ten a search
	mapfile -t groups < <(awk -F'\t' '{ g[$1] = ($1 in g) ? g[$1] " " $3 : $3 }
		END { for (k in g) print k "\t" g[k] }' "$lang.parts" | sort -n | cut -f2)
	bad=()
	for ((i = 0; i < ${#groups[@]}; i += 10)); do
		batch=("${groups[@]:i:10}")
		[ "$(found "$lang" "${batch[@]}")" = 0 ] && continue
		for group in "${batch[@]}"; do
			[ "$(found "$lang" "$group")" = 0 ] || bad+=("$group")
		done
	done
	if [ ${#bad[@]} = 0 ]; then
		_pass "$lang: each of ${#groups[@]} groups finds one result set"
	else
		_fail "$lang: ${#bad[@]} of ${#groups[@]} groups find different rulings form by form" "${bad[@]}"
	fi
done

# The issue's own examples, in the corpus: every form finds what the others do
ids() {
	"$RULINGS" --db c.db search -n 0 --format ndjson "$@" 2>/dev/null |
		sed -n 's/^{"id":\([0-9]*\),.*/\1/p' | sort -n | paste -sd ' '
}
want=$(ids défausser)
# (50 as Snowball stems it, and the one ruling that says only "défaussent")
check_eq "'défausser' finds 51 rulings" 51 "$(wc -w <<<"$want")"
for form in défausse défaussée défaussez défaussés défaussent defaussee; do
	check_eq "'$form' finds the same" "$want" "$(ids "$form")"
done
want=$(ids épuisée)
check_eq "'épuisée' finds its ruling" 1 "$(wc -w <<<"$want")"
check_eq "'épuiser' finds it too" "$want" "$(ids épuiser)"
check_eq "'ещё' and 'еще' find the same" "$(ids ещё)" "$(ids еще)"

finish
