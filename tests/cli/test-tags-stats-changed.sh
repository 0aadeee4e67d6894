#!/usr/bin/env bash
# rulings tags, stats and changed.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

seed_db s.db

# ---- stats --------------------------------------------------------------------
rl --db s.db stats --format json
check_exit "stats --format json succeeds" 0
check_err_empty "stats prints no diagnostics"
check_json "stats JSON has rulings, tags, sources, languages, kinds" \
	'set(d) >= {"rulings", "tags", "sources", "languages", "kinds"} and d.get("format_version") == 1'
check_json "stats: 35 rulings" 'd["rulings"] == 35'
check_json "stats: 2 sources" 'd["sources"] == 2'
check_json "stats: languages maps code to count (en 35)" 'd["languages"] == {"en": 35}'
check_json "stats: kinds maps kind to count (faq 34, errata 1)" \
	'd["kinds"] == {"faq": 34, "errata": 1}'
check_json "stats: counts are integers" \
	'all(isinstance(d[k], int) for k in ("rulings", "tags", "sources"))'
stats_tags=$(json_get 'd["tags"]')

rl --db s.db stats
check_exit "stats (text) succeeds" 0
check_match "stats text: rulings 35" '^rulings +35$' "$(cat "$OUT")"
check_match "stats text: languages en 35" '^languages +en 35$' "$(cat "$OUT")"
check_match "stats text: kinds errata 1, faq 34" '^kinds +errata 1, faq 34$' "$(cat "$OUT")"

# ---- tags ---------------------------------------------------------------------
# The tags the rulings carry, as search reports them: the reference list.
rl --db s.db search --lang any --limit 0 --format json
cp "$OUT" all.json
ref_tags=$(json_get 'len({t.lower() for r in d["results"] for t in r["tags"]})' all.json)

rl --db s.db tags --format json
check_exit "tags --format json succeeds" 0
check_json "tags JSON: {\"tags\": [{name, count}]}" \
	'isinstance(d["tags"], list) and all(set(t) >= {"name", "count"} and isinstance(t["name"], str) and isinstance(t["count"], int) for t in d["tags"])'
check_json "tags JSON: each tag is listed once" \
	'len(d["tags"]) == len({t["name"].lower() for t in d["tags"]})'
check_json "tags JSON: lists every tag the rulings carry" \
	"len(d['tags']) == ${ref_tags:-0}"
check_json "tags JSON: Defend is carried by 17 rulings" \
	'[t["count"] for t in d["tags"] if t["name"] == "Defend"] == [17]'
check_json "tags JSON: Repeat is carried by 4 rulings" \
	'[t["count"] for t in d["tags"] if t["name"] == "Repeat"] == [4]'
check_json "tags JSON: Speed (Fast/Slow) is carried by 18 rulings" \
	'[t["count"] for t in d["tags"] if t["name"] == "Speed (Fast/Slow)"] == [18]'
check_json "tags JSON: Changed rulings is carried by the 2 marked answers" \
	'[t["count"] for t in d["tags"] if t["name"] == "Changed rulings"] == [2]'
cp "$OUT" tags.json
bad=
for name in "Defend" "Repeat" "Timing" "Action Modifiers" "Dahan"; do
	want=$(json_get "[t['count'] for t in d['tags'] if t['name'] == '$name']" tags.json)
	rl --db s.db search --tag "$name" --limit 0 --format json
	got=$(json_get '[d["total"]]')
	[ "$want" = "$got" ] || bad="$bad $name:$want/$got"
done
check_eq "tag counts agree with search --tag totals" "" "$bad"
check_eq "stats' tag count agrees with the tag list" "${ref_tags:-?}" "$stats_tags"

rl --db s.db tags
check_exit "tags (text) succeeds" 0
check_eq "tags text: one line per tag, no duplicates" "$(sort -u "$OUT" | wc -l)" "$(wc -l < "$OUT")"
check_match "tags text: Defend is listed" '^Defend$' "$(cat "$OUT")"
check_match "tags text: qualified tags are shown whole" '^Speed \(Fast/Slow\)$' "$(cat "$OUT")"
rl --db s.db tags --counts
check_exit "tags --counts succeeds" 0
check_match "tags --counts: Defend 17" '^ *17  Defend$' "$(cat "$OUT")"
check_match "tags --counts: Repeat 4" '^ *4  Repeat$' "$(cat "$OUT")"

# ---- changed ------------------------------------------------------------------
rl --db s.db changed --format json
check_exit "changed --format json succeeds" 0
check_err_empty "changed prints no diagnostics"
check_json "changed JSON: {format_version: 1, changes: [...]}" \
	'd["format_version"] == 1 and isinstance(d["changes"], list)'
check_json "changed: the 2 marked answers" 'len(d["changes"]) == 2'
check_json "changed: each has change == marked and changed == true" \
	'all(c["change"] == "marked" and c["changed"] is True for c in d["changes"])'
check_json "changed: the Encompassing Ward and Rouse the Spirits answers" \
	'sorted(c["title"][:22] for c in d["changes"]) == ["If you use Encompassin", "When you use a Power o"]'
check_json "changed: entries carry the ruling members" \
	'all(set(c) >= {"id", "kind", "title", "text", "tags", "sources"} for c in d["changes"])'
check_json "changed: the 'Changed answer:' prefix is not part of the text" \
	'all(not c["text"].startswith("Changed answer") for c in d["changes"])'
changed_ids=$(json_get 'sorted(c["id"] for c in d["changes"])')
rl --db s.db search --lang any --limit 0 --format json
check_json "changed lists exactly the rulings search reports as changed" \
	"sorted(r['id'] for r in d['results'] if r['changed']) == ${changed_ids:-None}"

rl --db s.db changed --format ndjson
check_exit "changed --format ndjson succeeds" 0
check_ndjson "changed ndjson: 2 lines, each marked" \
	'len(rows) == 2 and all(r["change"] == "marked" for r in rows)'
rl --db s.db changed
check_exit "changed (text) succeeds" 0
check_eq "changed text: 2 rulings" 2 "$(grep -c '^#[0-9][0-9]* ' "$OUT")"

rl --db s.db changed --tag Defend --format json
check_json "changed --tag Defend: the Encompassing Ward answer" \
	'len(d["changes"]) == 1 and "Encompassing Ward" in d["changes"][0]["title"]'
rl --db s.db changed --tag repeat --format json
check_json "changed --tag repeat: the Speed page's answer" \
	'len(d["changes"]) == 1 and "speed (fast/slow)" in tagset(d["changes"][0])'
rl --db s.db changed --kind errata --format json
check_exit "changed --kind errata: none (exit 1)" 1
check_json "changed with none: an empty list" 'd["changes"] == []'
rl --db s.db changed --lang fr
check_exit "changed --lang fr: none" 1
rl --db s.db changed extra
check_exit "changed with an operand is a usage error" 2
# a name the database does not know is said so, as search says it (a
# misspelt game is not "nothing changed")
rl --db s.db changed --game "Spirit Islnd"
check_exit "changed --game of an unknown game: exit 1" 1
check_err_contains "...said, with the nearest name" \
	"changed: no game 'Spirit Islnd'; did you mean 'Spirit Island'?"
rl --db s.db changed --tag Defnd --format json
check_exit "changed --tag of an unknown tag: exit 1" 1
check_err_contains "...said, with the nearest name" \
	"changed: no tag 'Defnd'; did you mean 'Defend'?"
check_json "...and an empty list, as search gives" 'd["changes"] == []'
rl --db s.db changed --lang xx
check_exit "changed --lang of an unknown language: exit 1" 1
check_err_contains "...said" "changed: no language 'xx'"
rl --db s.db changed --document "Defnd"
check_exit "changed --document of an unknown document: exit 1" 1
check_err_contains "...said, with the nearest title" \
	"changed: no document 'Defnd'; did you mean 'Defend'?"
rl --db s.db changed --game "spirit island" --tag defend --format json
check_exit "changed --game and --tag it knows (any case): exit 0" 0
check_err_empty "...and nothing said"

# ---- an empty database ----------------------------------------------------------
mkdir -p only-unknown
printf 'Notes from the game night.\n\nWe played two rounds.\n' > only-unknown/notes.txt
rl --db empty.db import only-unknown
check_exit "importing only unknown formats creates an empty database" 0
rl --db empty.db stats --format json
check_exit "stats on an empty database succeeds" 0
check_json "stats on an empty database: 0 rulings, empty maps" \
	'd["rulings"] == 0 and d["tags"] == 0 and d["languages"] == {} and d["kinds"] == {}'
rl --db empty.db tags --format json
check_exit "tags on an empty database exits 1" 1
check_json "tags on an empty database: an empty list" 'd["tags"] == []'
rl --db empty.db changed
check_exit "changed on an empty database exits 1" 1

finish
