#!/usr/bin/env bash
# rulings show ID: one ruling whole, as text and JSON, with its references.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

seed_db s.db

# Ids are looked up, never assumed.
rl --db s.db search Encompassing Ward presence moves --format json
ward=$(json_get 'd["results"][0]["id"]')
rl --db s.db search Gift Strength Powerstorm Slow power card --format json
gift=$(json_get '[r["id"] for r in d["results"] if r["title"].startswith("Can Gift of Strength or Powerstorm")][0]')
rl --db s.db search --kind errata --format json
errata=$(json_get 'd["results"][0]["id"]')
check_match "the ids to show were found" '^[0-9]+ [0-9]+ [0-9]+$' "$ward $gift $errata"

# ---- JSON ---------------------------------------------------------------------
rl --db s.db show "$ward" --format json
check_exit "show ID --format json succeeds" 0
check_err_empty "show prints no diagnostics"
check_json "show JSON is one object with format_version 1" \
	'isinstance(d, dict) and d["format_version"] == 1'
check_json "show JSON has the ruling's members" \
	'set(d) >= {"id", "kind", "game", "lang", "title", "text", "rule", "category", "section", "tags", "changed", "sources", "refs", "backlinks"}'
check_json "show JSON is the ruling asked for" "d['id'] == $ward"
check_json "show JSON: the Encompassing Ward answer, marked changed" \
	'd["title"].startswith("If you use Encompassing Ward") and d["changed"] is True and d["kind"] == "faq" and d["lang"] == "en" and d["rule"] is None'
check_json "show JSON: the changed marker is not part of the text" \
	'd["text"].startswith("Yes. The Power modifies") and "Changed answer" not in d["text"]'
check_json "show JSON: the whole answer, all three paragraphs" \
	'd["text"].count("\n\n") == 2 and d["text"].endswith("until the Ravage happens.")'
check_json "show JSON: listed tags and the page tag" \
	'{"defend", "changed rulings", "encompassing ward", "bargains of power and protection"} <= tagset(d)'
check_json "show JSON: the source is the Defend page, with its line" \
	'len(d["sources"]) == 1 and d["sources"][0]["document"] == "Defend" and d["sources"][0]["path"].endswith("001_8e68847c21c72d28.txt") and d["sources"][0]["line"] == 88'
check_json "show JSON: refs and backlinks are lists" \
	'isinstance(d["refs"], list) and isinstance(d["backlinks"], list)'

rl --db s.db show "$gift" --format json
check_exit "show of the Gift of Strength entry succeeds" 0
check_json "refs have kind, target, resolved and id" \
	'len(d["refs"]) >= 1 and all(set(r) >= {"kind", "target", "resolved", "id"} for r in d["refs"])'
check_json "the rulebook page reference [p. 19] is a ref of kind page" \
	'any(r["kind"] == "page" and r["target"] == "19" for r in d["refs"])'
check_json "an unresolved ref has resolved false and id null" \
	'all(r["resolved"] is False and r["id"] is None for r in d["refs"] if r["kind"] == "page")'
check_json "resolved is a bool, id an int exactly when resolved" \
	'all(isinstance(r["resolved"], bool) and ((r["id"] is None) != r["resolved"]) for r in d["refs"])'
check_json "backlinks entries (if any) have id, kind and title" \
	'all(set(b) >= {"id", "kind", "title"} for b in d["backlinks"])'
check_json "the page tag hidden in the listing is a tag" \
	'"speed (fast/slow)" in tagset(d)'

rl --db s.db show "$errata" --format json
check_exit "show of the errata succeeds" 0
check_json "the errata: kind errata with product, printing, document, page" \
	'd["kind"] == "errata" and d["errata"] == {"product": "Branch & Claw", "printing": "3rd printing", "document": "B&C rulebook", "page": "15"}'
check_json "the errata is in the errata section" 'd["section"] == "Errata / Updates"'

# Every ruling can be shown and has the format.
rl --db s.db search --lang any --limit 0 --format json
all_ids=$(json_get '" ".join(str(r["id"]) for r in d["results"])')
n=0 bad=
for id in $all_ids; do
	rl --db s.db show "$id" --format json
	n=$((n + 1))
	if [ "$STATUS" != 0 ] || ! python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format_version"] == 1 and d["id"] == int(sys.argv[2])
assert all(set(r) >= {"kind", "target", "resolved", "id"} for r in d["refs"])
assert isinstance(d["backlinks"], list)' "$OUT" "$id" 2>/dev/null; then
		bad="$bad $id"
	fi
done
check_eq "all 35 rulings can be shown as JSON" 35 "$n"
check_eq "every show JSON has format_version, refs and backlinks" "" "$bad"

# ---- text -------------------------------------------------------------------------
rl --db s.db show "$ward"
check_exit "show ID (text) succeeds" 0
check_match "text: '#ID title' first" "^#$ward If you use Encompassing Ward" "$(head -n 1 "$OUT")"
check_out_contains "text: the whole answer" "until the Ravage happens."
check_out_contains "text: the tags" "tags: "
check_out_contains "text: marked changed" "changed"
check_match "text: the source with its line" "source: Defend \(.*001_8e68847c21c72d28\.txt:88" \
	"$(cat "$OUT")"
check_not_contains "text piped: no escape codes" "$(cat "$OUT")" $'\033'

rl --db s.db show "#$ward"
check_exit "show '#ID' (as search prints it) works" 0

rl --db s.db show "$errata"
check_out_contains "text: errata details" "errata: Branch & Claw, 3rd printing; B&C rulebook, p. 15"

rl --db s.db show "$gift"
check_match "text: the page reference" "page 19" "$(cat "$OUT")"

# ---- not found and usage ----------------------------------------------------------
rl --db s.db show 99999
check_exit "show 99999 exits 1" 1
check_out_empty "show 99999 prints nothing on standard output"
check_err_contains "show 99999 says there is no such ruling" "99999"
rl --db s.db show 99999 --format json
check_exit "show 99999 --format json exits 1" 1
rl --db s.db show
check_exit "show without ID is a usage error" 2
rl --db s.db show abc
check_exit "show abc is a usage error" 2
check_err_contains "show abc names the bad ID" "abc"
# 0 and 1.5 are rule numbers in form; no ruling has them
rl --db s.db show 0
check_exit "show 0: no such rule, exit 1" 1
check_err_contains "show 0 says which rule is missing" "no rule 0"
rl --db s.db show '#0'
check_exit "show #0 (an ID, and IDs start at 1) is a usage error" 2
rl --db s.db show -- -5
check_exit "show -5 is a usage error" 2
rl --db s.db show "$ward" "$gift"
check_exit "show with two IDs is a usage error" 2
rl --db s.db show "$ward" --format ndjson
check_exit "show --format ndjson is a usage error" 2
rl --db s.db show "$ward" --format xml
check_exit "show --format xml is a usage error" 2

# ---- rules by number, in one game or several ----------------------------------
printf 'Rules of A\n\n101.1. Alpha rule.\n101.2. See rule 101.1 (п.101.1).\n' > rules-a.txt
printf 'Rules of B\n\n101.1. Beta rule.\n101.3. Another.\n' > rules-b.txt
rl --db games.db import --game "Game A" rules-a.txt
rl --db games.db show 101.2 --format json
check_exit "show 101.2: one game has it" 0
check_json "show 101.2: its reference to 101.1 resolves" \
	'any(r["target"] == "101.1" and r["resolved"] for r in d["refs"])'
rl --db games.db import --game "Game B" rules-b.txt
check_exit "the second game's rules import" 0
rl --db games.db show 101.1
check_exit "show 101.1 when two games have it: exit 2" 2
check_err_contains "...naming both games" "Game A"
check_err_contains "...and asking for --game" "--game"
rl --db games.db show 101.1 --game "game b" --format json
check_exit "show 101.1 --game 'game b' (any case)" 0
check_json "--game picks B's rule" 'd["text"] == "Beta rule." and d["game"] == "Game B"'
# a rule number as the rulebook writes it, with its final period
# ("101.1." "702.19."), as search reads it: the same rule
want=$(rl --db games.db show 101.1 --game "Game A" --format json; cat "$OUT")
rl --db games.db show 101.1. --game "Game A" --format json
check_exit "show 101.1. (the rulebook's own spelling): found" 0
check_eq "...the rule 101.1" "$want" "$(cat "$OUT")"
rl --db games.db show 101.9
check_exit "show 101.9: no such rule, exit 1" 1
rl --db games.db show 101.1 --game "Game C"
check_exit "show 101.1 in a game without it: exit 1" 1
check_err_contains "...a game the database does not know is said so" \
	"show: no game 'Game C'"
id=$(rl --db games.db show 101.1 --game "Game A" --format json >/dev/null; json_get 'd["id"]' "$OUT")
rl --db games.db show "#$id" --format json
check_json "#ID shows the same ruling" "d['id'] == $id"

finish
