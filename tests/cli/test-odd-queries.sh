#!/usr/bin/env bash
# Any user input is read by the query language, whose every reading is
# valid FTS5 and SQL: never a syntax error. --raw passes FTS5 syntax
# through and reports its errors clearly.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

seed_db s.db

# safe_case DESC WORDS...: exit 0 or 1, nothing on stderr, in every format.
safe_case() {
	local desc=$1
	shift
	rl --db s.db search "$@"
	check_exit "search $desc: exit 0 or 1" 0 1
	check_err_empty "search $desc: nothing on stderr"
	rl --db s.db search --format json "$@"
	check_exit "search --format json $desc: exit 0 or 1" 0 1
	check_json "search --format json $desc: valid JSON, total matches the list" \
		'd["format_version"] == 1 and d["total"] >= len(d["results"]) and (d["total"] == len(d["results"]) or len(d["results"]) == 20)'
	rl --db s.db search --tag Defend "$@"
	check_exit "search --tag Defend $desc: exit 0 or 1" 0 1
	check_err_empty "search --tag Defend $desc: nothing on stderr"
}

safe_case "don't" "don't"
safe_case "702.19a" "702.19a"
safe_case "first-strike" "first-strike"
safe_case "an unbalanced quote" '"unbalanced'
safe_case "a lone double quote" '"'
safe_case "an unbalanced quote after a word" 'defend "ward'
safe_case "a quote inside a word" 'de"fend'
safe_case "a bare NEAR(" 'NEAR('
safe_case "NEAR(a b)" 'NEAR(defend ward)'
safe_case "a bare *" '*'
safe_case "AND" 'AND'
safe_case "OR" 'OR'
safe_case "NOT" 'NOT'
safe_case "defend AND ward" 'defend AND ward'
safe_case "SQL" "'; DROP TABLE rulings; --"
safe_case "a column filter" 'title:defend'
safe_case "an unknown column" 'nosuchcolumn:defend'
safe_case "a leading minus" -- '-defend'
safe_case "a caret" '^defend'
safe_case "braces" '{title body}: defend'
safe_case "parentheses" '(defend)'
safe_case "a plus" 'defend + ward'
safe_case "a lone prefix star on a word" 'ward*'
safe_case "several stars" 'ward**'
safe_case "a percent and underscore" '100%_off'
safe_case "a backslash" 'de\fend'
safe_case "non-ASCII" 'Power’s'
safe_case "Cyrillic" 'защита'
safe_case "an emoji" '🛡️'
safe_case "a tag-like string" 'Speed (Fast/Slow)'
safe_case "a NUL-free control character" $'defend\tward'
safe_case "very long input" "$(printf 'defend %.0s' $(seq 1 300))"
# the query language's own syntax, broken every way
safe_case "an unclosed group" '(defend OR ward'
safe_case "a stray closing parenthesis" 'defend) ward'
safe_case "groups 100 deep" "$(printf '(%.0s' $(seq 1 100))defend"
safe_case "operators only" 'OR AND NOT'
safe_case "NOT at the end" 'defend NOT'
safe_case "an exclusion alone" -- '-defend'
safe_case "exclusions only" -- '-defend -"encompassing ward" -(a OR b)'
safe_case "fields with no value" 'tag: game: title: text:'
safe_case "a field with an unclosed quote" 'title:"encompassing'
safe_case "a column group unclosed" 'title:(defend OR'
safe_case "a prefix field" 'tag:Def*'
safe_case "a rule number" '702.19a'
safe_case "a rule field" 'rule:510'
safe_case "is:" 'is:changed'
safe_case "fields under OR and NOT" -- 'defend OR -(tag:Defend OR title:ward)' 

# A query that holds nothing to find matches nothing (exit 1), as the
# manual says of a lone star and of punctuation: not every ruling
for q in '*' '""' '()' '"*"' '...'; do
	rl --db s.db search --format json -- "$q"
	check_exit "search '$q' holds nothing to find: exit 1" 1
	check_json "search '$q': ...no ruling listed" 'd["total"] == 0'
done
rl --db s.db search --format json 'tag:Defend *'
check_exit "search 'tag:Defend *': the star is passed over, the tag's rulings found" 0
check_json "...every one tagged Defend" \
	'd["total"] > 0 and all("Defend" in r["tags"] for r in d["results"])'

# Searched as text means the words are found.
rl --db s.db search "don't" --format json
check_exit "don't is found as text" 0
check_json "don't: every result contains don't" \
	'd["total"] > 0 and all("don" in (r["title"] + r["text"]).lower() for r in d["results"])'
rl --db s.db search AND --format json
check_exit "AND is searched as the word 'and' and found" 0
rl --db s.db search defend AND ward --format json
check_exit "'defend AND ward': AND between words is the operator" 0
check_json "'defend AND ward': every result has both words" \
	'all(all(w in (r["title"] + " " + r["text"]).lower() for w in ("defend", "ward")) for r in d["results"])'
defend_ward=$(json_get 'sorted(r["id"] for r in d["results"])')
rl --db s.db search defend ward --format json
check_json "'defend AND ward' is 'defend ward'" \
	"sorted(r['id'] for r in d['results']) == ${defend_ward:-None}"
rl --db s.db search "'; DROP TABLE rulings; --"
rl --db s.db stats --format json
check_json "SQL in the query is not executed: 35 rulings remain" 'd["rulings"] == 35'
rl --db s.db search '"Encompassing Ward'  --format json
check_exit "an unbalanced quote still finds the words" 0
check_json "...the Encompassing Ward entries" \
	'all("encompassing ward" in (r["title"] + " " + r["text"]).lower() for r in d["results"])'

# ---- --raw: FTS5 syntax ----------------------------------------------------------
rl --db s.db search --raw 'defend AND ward' --format json
check_exit "--raw 'defend AND ward' works" 0
check_err_empty "--raw 'defend AND ward': nothing on stderr"
check_json "--raw 'defend AND ward': results have both words" \
	'd["total"] >= 1 and all("defend" in (r["title"] + r["text"]).lower() and "ward" in (r["title"] + r["text"]).lower() for r in d["results"])'
rl --db s.db search --raw 'ward OR repeat' --format json
check_exit "--raw OR works" 0
n_or=$(json_get 'd["total"]')
rl --db s.db search --raw 'ward' --format json
n_ward=$(json_get 'd["total"]')
check_json "--raw OR finds more than one of its words" "${n_or:-0} > ${n_ward:-0}"
rl --db s.db search --raw 'defend NOT ward' --format json
check_json "--raw NOT excludes" \
	'd["total"] > 0 and not any(re.search(r"\bward\b", r["title"] + " " + r["text"], re.I) for r in d["results"])'
rl --db s.db search --raw 'NEAR(encompassing ward, 2)' --format json
check_exit "--raw NEAR(...) works" 0
rl --db s.db search --raw 'title:encompassing' --format json
check_exit "--raw column filter works" 0
check_json "--raw title: matches in the title only" \
	'all("encompassing" in r["title"].lower() for r in d["results"])'

rl --db s.db search --raw 'NEAR('
check_exit "--raw 'NEAR(' exits 2" 2
check_eq "--raw 'NEAR(': exactly one error line" 1 "$(wc -l < "$ERR")"
check_match "--raw 'NEAR(': the line starts with 'rulings: '" '^rulings: ' "$(cat "$ERR")"
check_contains "--raw 'NEAR(': the line names the query" "$(cat "$ERR")" "NEAR("
check_out_empty "--raw 'NEAR(': nothing on stdout"
rl --db s.db search --raw '"unbalanced'
check_exit "--raw unbalanced quote exits 2" 2
check_eq "--raw unbalanced quote: exactly one error line" 1 "$(wc -l < "$ERR")"
rl --db s.db search --raw 'nosuchcolumn:defend'
check_exit "--raw unknown column exits 2" 2
check_eq "--raw unknown column: exactly one error line" 1 "$(wc -l < "$ERR")"
rl --db s.db search --raw 'NEAR(' --format json
check_exit "--raw 'NEAR(' --format json exits 2" 2
check_out_empty "--raw error with --format json: nothing on stdout"

finish
