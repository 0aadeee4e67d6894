#!/usr/bin/env bash
# The search query language end to end (man page, SEARCH SYNTAX): what each
# operator and field finds, against the same search written another way;
# rule numbers; "N of M shown"; unknown names. (What a query is made of,
# FTS5 and SQL, is tests/query's golden cases.)
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

seed_db s.db --game "Spirit Island"
cat >rules.txt <<'EOF'
Rules Test

101. General

101.1. The game is for two players.

101.2. See rule 702.19a for trample.

702. Keyword Abilities

702.19. Trample

702.19a. Trample is a static ability.

702.19b. The controller assigns trample damage.

702.190. Not a subrule of 702.19.
EOF
rl --db s.db import --game "Rules Test" --format numbered-rules rules.txt
check_exit "the rules import" 0

# ids ARGS...: the sorted ids `search --format json -n 0 ARGS` finds.
ids() {
	rl --db s.db search --format json -n 0 "$@"
	json_get 'sorted(r["id"] for r in d["results"])'
}
# same DESC "A..." "B...": the two searches find the same rulings, and some.
same() {
	local a b
	eval "a=\$(ids $2)"
	eval "b=\$(ids $3)"
	check_eq "$1" "$a" "$b"
	check_match "$1: not empty" '^\[[0-9]' "$a"
}
# py EXPR: a Python expression over lists a, b, c (ids of three searches).
setop() {
	python3 -c "a, b, c = $2, $3, $4
import sys; sys.exit(0 if ($1) else 1)"
}

# ---- words and operators ---------------------------------------------------------
all_repeat=$(ids repeat)
with_gift=$(ids repeat gift)
without_gift=$(ids -- repeat -gift)
check_match "repeat: some" '^\[[0-9]+, ' "$all_repeat"
check_match "repeat gift: some" '^\[[0-9]' "$with_gift"
if setop 'sorted(b + c) == a and not set(b) & set(c)' "$all_repeat" \
	"$with_gift" "$without_gift"; then
	check_eq "repeat -gift and repeat gift split repeat" 0 0
else
	check_eq "repeat -gift and repeat gift split repeat" "$all_repeat" \
		"$with_gift + $without_gift"
fi
rl --db s.db search --format json -n 0 -- repeat -gift
check_json "repeat -gift: no result says gift" \
	'd["total"] > 0 and not any("gift" in (r["title"] + " " + r["text"]).lower() for r in d["results"])'
same "NOT word is -word" "-- repeat -gift" "repeat NOT gift"
same "-\"phrase\" excludes the phrase" "-- repeat '-\"gift of\"'" \
	"-- repeat '-(\"gift of\")'"

ward=$(ids ward)
isolate=$(ids isolate)
either=$(ids ward OR isolate)
setop 'sorted(set(b) | set(c)) == a' "$either" "$ward" "$isolate"
check_exit "ward OR isolate: the union of ward and isolate" 0
same "OR binds looser than AND: a b OR c is (a b) OR c" \
	"defend damage OR isolate" "'(defend damage) OR isolate'"
fast_power=$(ids "'(fast OR slow) power'")
check_match "(fast OR slow) power: some" '^\[[0-9]' "$fast_power"
rl --db s.db search --format json -n 0 '(fast OR slow) power'
check_json "(fast OR slow) power: each has power and fast or slow" \
	're.search(r"\bpower", (d["results"][0]["title"] + d["results"][0]["text"]).lower()) and all(re.search(r"\b(fast|slow)", (r["title"] + " " + r["text"]).lower()) for r in d["results"])'
same "explicit AND is implicit AND" "defend AND damage" "defend damage"
rl --db s.db search --format json -n 0 '"encompassing ward"'
check_json "a phrase finds its words together" \
	'd["total"] > 0 and all("encompassing ward" in (r["title"] + " " + r["text"]).lower() for r in d["results"])'

# ---- fields --------------------------------------------------------------------------
same "tag: is --tag" "tag:Repeat" "--tag Repeat"
same "tag:\"Name (Qualifier)\" is --tag" "'tag:\"Speed (Fast/Slow)\"'" \
	"--tag 'Speed (Fast/Slow)'"
same "tag:Name (Qualifier) as the shell leaves it" "'tag:Speed (Fast/Slow)'" \
	"--tag 'Speed (Fast/Slow)'"
same "tag:Repea* finds Repeat (prefix)" "'tag:Repea*'" "--tag Repeat"
same "-tag: excludes a tag" "-- power -tag:Repeat" "power -- '-tag:repeat'"
rl --db s.db search --format json -n 0 -- power -tag:Repeat
check_json "power -tag:Repeat: none tagged Repeat" \
	'd["total"] > 0 and not any("repeat" in tagset(r) for r in d["results"])'
same "game: is --game" "'game:\"Spirit Island\"' ward" "--game 'Spirit Island' ward"
same "kind: is --kind" "kind:errata" "--kind errata"
same "lang: is --lang" "lang:en ward" "--lang en ward"
# A whole query in one argument, as README and the manual write them
# ('tag:"Speed (Fast/Slow)" phase'): a field of one-word values (lang:,
# kind:, is:, rule:) ends at its word, as when the shell splits it; only
# tag: and game: values may hold blanks unquoted.
same "'lang:en ward' as one argument is lang:en ward" "'lang:en ward'" \
	"--lang en ward"
same "'kind:faq ward' as one argument is kind:faq ward" "'kind:faq ward'" \
	"--kind faq ward"
same "'is:changed phase' as one argument is is:changed phase" \
	"'is:changed phase'" "is:changed phase"
same "'rule:702.19 trample' as one argument is rule:702.19 trample" \
	"'rule:702.19 trample'" "rule:702.19 trample"
same "'-is:changed ward' as one argument" "'-is:changed ward'" \
	"-- -is:changed ward"
same "'-kind:errata ward' as one argument" "'-kind:errata ward'" \
	"-- -kind:errata ward"
# ... and its dash excludes the field only, as -tag:Repeat fast does
same "'-tag:Repeat fast' as one argument is -tag:Repeat fast" \
	"'-tag:Repeat fast'" "-- -tag:Repeat fast"
same "NOT '-tag:Repeat fast' is NOT (-tag:Repeat fast)" \
	"NOT '-tag:Repeat fast'" "NOT '(' -- -tag:Repeat fast ')'"
rl --db s.db search --format json -n 0 is:changed
check_json "is:changed: the rulings the source marks changed" \
	'd["total"] > 0 and all(r["changed"] for r in d["results"])'
rl --db s.db search --format json -n 0 title:defend
check_json "title: matches the title" \
	'd["total"] > 0 and all("defend" in r["title"].lower() for r in d["results"])'
rl --db s.db search --format json -n 0 text:phase
check_json "text: matches the answer" \
	'd["total"] > 0 and all("phase" in r["text"].lower() for r in d["results"])'
rl --db s.db search --format json -n 0 text:encompassing
check_exit "text: only: Encompassing Ward is in questions alone" 1
same "fields and options AND" "tag:Defend --kind faq" "--tag Defend --kind faq"
rl --db s.db search --format json -n 0 'foo:bar'
check_exit "an unknown field name is a word (nothing has foo:bar)" 1
check_err_empty "an unknown field name is no error"

# ---- rule numbers -----------------------------------------------------------------------
rl --db s.db search --format json 702.19a
check_exit "search 702.19a finds it" 0
check_json "search 702.19a: rule 702.19a first, then what cites it (101.2)" \
	'[r["rule"] for r in d["results"]] == ["702.19a", "101.2"]'
rl --db s.db search --format json 'rule:702.19'
check_json "rule:702.19: the rule and its subrules, not 702.190" \
	'sorted(r["rule"] for r in d["results"]) == ["702.19", "702.19a", "702.19b"]'
rl --db s.db search --format json -n 0 'rule:7'
check_json "rule:7: chapter 7, every rule numbered 7..." \
	'sorted(r["rule"] for r in d["results"]) == ["702.19", "702.190", "702.19a", "702.19b"]'
rl --db s.db search --format json trample 702.19a
check_json "trample 702.19a: the rule first" \
	'd["results"][0]["rule"] == "702.19a"'

# ---- show: a rule among its neighbours -------------------------------------------------
rl --db s.db show 702.19 --format json
check_exit "show 702.19" 0
check_json "show 702.19: its subrules, in order, not 702.190" \
	'[(x["rule"], x["title"]) for x in d["subrules"]] == [("702.19a", "Trample is a static ability."), ("702.19b", "The controller assigns trample damage.")] and all(set(x) == {"id", "rule", "title"} for x in d["subrules"])'
check_json "show 702.19: previous none (702 is a heading, not a rule), next 702.19a" \
	'd["previous"]["rule"] == "101.2" and d["next"]["rule"] == "702.19a"'
check_json "show 702.19: no parent (no rule 702, no chapter 7)" 'd["parent"] is None'
rl --db s.db show 702.19b --format json
check_json "show 702.19b: parent 702.19, previous 702.19a, next 702.190" \
	'd["parent"]["rule"] == "702.19" and d["previous"]["rule"] == "702.19a" and d["next"]["rule"] == "702.190" and d["subrules"] == []'
rl --db s.db show 702.19
check_out_contains "show 702.19 (text): subrules" "subrules: #"
check_out_contains "show 702.19 (text): 702.19a listed" "702.19a Trample is a static ability."
check_out_contains "show 702.19 (text): next" "next:     #"
rl --db s.db search --format json -n 1 --tag Repeat
rid=$(json_get 'd["results"][0]["id"]')
rl --db s.db show "$rid" --format json
check_json "show of an FAQ entry: no rule neighbours" \
	'd["parent"] is None and d["previous"] is None and d["next"] is None and d["subrules"] == []'

# ---- tags --game --sort, stats names the games ------------------------------------------
rl --db s.db tags --counts
check_match "tags: by name (case aside)" '^ +1  Absolute Stasis' "$(head -n 1 "$OUT")"
rl --db s.db tags --sort count --counts
check_match "tags --sort count: the most carried first" '^ +18  Speed \(Fast/Slow\)$' \
	"$(head -n 1 "$OUT")"
check_match "tags --sort count: then Defend" '^ +17  Defend$' "$(sed -n 2p "$OUT")"
rl --db s.db tags --sort count --format json
check_json "tags --sort count (JSON): counts never grow" \
	'[t["count"] for t in d["tags"]] == sorted((t["count"] for t in d["tags"]), reverse=True)'
rl --db s.db tags --sort size
check_exit "tags --sort size: a usage error" 2
rl --db s.db tags --game "rules test"
check_eq "tags --game 'Rules Test': the tag of its page only" "Rules Test" "$(cat "$OUT")"
rl --db s.db tags --game "spirit island" --format json
check_json "tags --game 'Spirit Island': all of them there" 'len(d["tags"]) > 10'
rl --db s.db tags --game 'Spirit Islnd'
check_exit "tags --game of an unknown game: exit 1" 1
check_err_contains "tags --game 'Spirit Islnd': did you mean" \
	"no game 'Spirit Islnd'; did you mean 'Spirit Island'?"
rl --db s.db tags --game Gloomhaven
check_err_contains "tags --game Gloomhaven: none near, the games listed" \
	"no game 'Gloomhaven' (there are 'Rules Test', 'Spirit Island')"
rl --db s.db stats --format json
check_json "stats: the games, by name, with their rulings" \
	'd["games"] == [{"name": "Rules Test", "rulings": 7}, {"name": "Spirit Island", "rulings": 35}]'
rl --db s.db stats
check_out_contains "stats (text): the games named" "games     Rules Test 7, Spirit Island 35"

# ---- say what happened ----------------------------------------------------------------------
rl --db s.db search power
check_exit "search power finds more than 20" 0
total=$(grep -c '^#[0-9]' "$OUT")
check_eq "20 shown" 20 "$total"
check_match "the last line says how many are not shown" \
	'^20 of [0-9]+ shown \(--limit 0 for all\)$' "$(tail -n 1 "$OUT")"
n=$(tail -n 1 "$OUT" | sed 's/^20 of \([0-9]*\) .*/\1/')
rl --db s.db search power -n 0
check_eq "--limit 0 shows them all" "$n" "$(grep -c '^#[0-9]' "$OUT")"
check_not_contains "...and says nothing more" "$(tail -n 1 "$OUT")" "shown"
rl --db s.db search --tag Defend -n 5
check_match "--tag Defend -n 5: 5 of 17" '^5 of 17 shown \(--limit 0 for all\)$' \
	"$(tail -n 1 "$OUT")"
rl --db s.db search --tag Repeat
check_not_contains "all 4 of --tag Repeat shown: nothing said" "$(cat "$OUT")" " shown"
rl --db s.db search --format json power
check_json "JSON: total counts beyond the limit" 'd["total"] == '"$n"' and len(d["results"]) == 20'
rl --db s.db search power -n 3 --format ndjson
check_eq "NDJSON: only the rulings" 3 "$(wc -l <"$OUT")"

for q in "--tag Repeet" "tag:Repeet" "tag:Repeet power"; do
	eval "rl --db s.db search $q"
	check_exit "search $q: exit 1" 1
	check_err_contains "search $q: names the tag and the nearest one" \
		"no tag 'Repeet'; did you mean 'Repeat'?"
	check_out_empty "search $q: nothing on stdout"
done
rl --db s.db search --game 'Spirt Island'
check_exit "an unknown game: exit 1" 1
check_err_contains "an unknown game: did you mean" \
	"no game 'Spirt Island'; did you mean 'Spirit Island'?"
rl --db s.db search lang:de ward
check_exit "an unknown language: exit 1" 1
check_err_contains "an unknown language: the known ones" "no language 'de' (there are 'en')"
rl --db s.db search kind:rules
check_exit "an unknown kind: exit 1" 1
check_err_contains "an unknown kind: did you mean" "no kind 'rules'; did you mean 'rule'?"
rl --db s.db search --format json tag:Repeet
check_exit "unknown with --format json: exit 1" 1
check_json "...and an empty answer" 'd["total"] == 0 and d["results"] == []'

# ---- --explain ----------------------------------------------------------------------------
rl --db s.db search --explain -- 'tag:Repeat -fast'
check_exit "--explain succeeds" 0
check_out_contains "--explain: the query as read" "query: tag:Repeat -fast"
check_out_contains "--explain: the subselect" 'f1: "fast"'
check_out_contains "--explain: the tag condition" "t.name_fold IN ('repeat')"

# ---- long queries (issue 17): no "Expression tree is too large", no exit 70 ---------------
one=$(ids --tag Repeat)
many=(); for i in $(seq 1 1000); do many+=(--tag=Repeat); done
check_eq "1,000 --tag options: what one finds" "$one" "$(ids "${many[@]}")"
rl --db s.db search -n 1 -- $(printf 'power %.0s' $(seq 1 1000))
check_exit "a word 1,000 times: found as once" 0
rl --db s.db search -- $(seq -f 'w%g OR' 1 999) w1000
check_exit "1,000 words ORed: nothing, not an error" 1
check_err_empty "...and no message"
{ printf '# rulings thesaurus\n[Spirit Island]\nen:Defend'
  for i in $(seq 1 600); do printf ' = fr:Defterm%d' "$i"; done; echo; } >big-thesaurus.txt
rl --db s.db import big-thesaurus.txt
check_exit "a thesaurus concept of 601 terms imports" 0
rl --db s.db search -n 0 --format json defend
check_exit "search defend with a 601-term concept: found" 0
rl --db s.db search -n 0 --format json --tag Defend
check_exit "--tag Defend with a 601-term concept: found" 0

finish
