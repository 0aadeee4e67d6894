#!/usr/bin/env bash
# rulings search: tags, filters, ranking, limits and the output formats.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

seed_db s.db
S=(--db s.db search)

# ---- --tag Repeat: exactly four entries ---------------------------------------
rl "${S[@]}" --tag Repeat --format json
check_exit "search --tag Repeat finds something" 0
check_err_empty "search --tag Repeat prints no diagnostics"
check_json "search JSON has format_version 1, total and results" \
	'set(d) >= {"format_version", "total", "results"} and d["format_version"] == 1'
check_json "--tag Repeat: total is 4" 'd["total"] == 4'
check_json "--tag Repeat: 4 results, each tagged Repeat" \
	'len(d["results"]) == 4 and all("repeat" in tagset(r) for r in d["results"])'
check_json "--tag Repeat: 4 distinct rulings" 'len({r["id"] for r in d["results"]}) == 4'
check_json "--tag Repeat: the four questions of the Speed page that list Repeat" \
	'all(any(r["title"].startswith(p) for r in d["results"]) for p in [
	  "If you change a Power'"'"'s speed",
	  "Can Gift of Strength or Powerstorm",
	  "Can Sky Stretches to Shore let you",
	  "When you use a Power outside"])'
check_json "every result has the documented members" \
	'all(set(r) >= {"id", "kind", "game", "lang", "title", "text", "rule", "category", "section", "tags", "changed", "sources"} for r in d["results"])'
check_json "members have the documented types" \
	'all(isinstance(r["id"], int) and isinstance(r["tags"], list) and isinstance(r["changed"], bool) and isinstance(r["sources"], list) and len(r["sources"]) >= 1 and r["rule"] is None and r["kind"] == "faq" and r["lang"] == "en" and isinstance(r["title"], str) and isinstance(r["text"], str) for r in d["results"])'
check_json "each source names the document, path and line" \
	'all(set(s) >= {"document", "path", "line"} and s["path"].endswith("000_033b5c31b01b6f02.txt") and s["document"] == "Speed (Fast/Slow)" and s["line"] > 0 for r in d["results"] for s in r["sources"])'
check_json "section and category come from the page's headings" \
	'all(r["section"] == "Frequently Asked Questions" and r["category"] for r in d["results"])'
# The page's own tag is a tag of every entry on it, even when the entry's
# tag line hides it in "N more...".
check_json "every Repeat result carries the page tag Speed (Fast/Slow)" \
	'all("speed (fast/slow)" in tagset(r) for r in d["results"])'
check_json "...including the entry whose tag line hides it in '9 more...'" \
	'[r for r in d["results"] if r["title"].startswith("When you use a Power outside") and "Speed (Fast/Slow)" in r["tags"]] != []'
check_json "the marked answer among them has changed == true, the others false" \
	'sorted(r["changed"] for r in d["results"]) == [False, False, False, True]'

# ---- --tag Defend: 17 = 16 faq + 1 errata -------------------------------------
rl "${S[@]}" --tag Defend --limit 0 --format json
check_exit "search --tag Defend finds something" 0
check_json "--tag Defend: total is 17" 'd["total"] == 17 and len(d["results"]) == 17'
check_json "--tag Defend: 16 faq and 1 errata" \
	'sorted(r["kind"] for r in d["results"]) == ["errata"] + ["faq"] * 16'
check_json "--tag Defend: all carry the page tag Defend" \
	'all("defend" in tagset(r) for r in d["results"])'
check_json "--tag Defend: all come from the Defend page" \
	'all(r["sources"][0]["document"] == "Defend" for r in d["results"])'

rl "${S[@]}" --tag "Speed (Fast/Slow)" --limit 0 --format json
check_json "every entry of the Speed page carries its page tag (18)" \
	'd["total"] == 18 and len(d["results"]) == 18'

# ---- tag matching: exact, case-insensitive, with or without the qualifier ------
for t in speed SPEED Speed "Speed (Fast/Slow)" "speed (fast/slow)" "SPEED (FAST/SLOW)"; do
	rl "${S[@]}" --tag "$t" --limit 0 --format json
	check_json "--tag '$t' matches the 18 Speed (Fast/Slow) entries" 'd["total"] == 18'
done
for t in Spee "Speed (Fast" "Speed (Other)" "Fast/Slow" Repeats "peat"; do
	rl "${S[@]}" --tag "$t" --format json
	check_exit "--tag '$t' matches no tag (exact match only)" 1
	check_json "--tag '$t': total 0, empty results" 'd["total"] == 0 and d["results"] == []'
done
rl "${S[@]}" --tag "wind aspect" --format json
check_json "--tag 'wind aspect' matches a qualified tag by name" \
	'd["total"] == 1 and "Wind Aspect (Lightning'"'"'s Swift Strike)" in d["results"][0]["tags"]'
rl "${S[@]}" --tag "Wind Aspect (Lightning's Swift Strike)" --format json
check_json "--tag with the full qualified name matches it" 'd["total"] == 1'
rl "${S[@]}" --tag "Wind Aspect (Other Spirit)" --format json
check_exit "--tag with another qualifier matches nothing" 1

# ---- several --tag options AND together ---------------------------------------
rl "${S[@]}" --tag Repeat --tag "Sky Stretches to Shore" --format json
check_json "--tag Repeat --tag 'Sky Stretches to Shore': the two entries with both" \
	'd["total"] == 2 and all({"repeat", "sky stretches to shore"} <= tagset(r) for r in d["results"])'
rl "${S[@]}" --tag Speed --tag Timing --tag Events --format json
check_json "three --tag options: only the entry with all three" \
	'd["total"] == 1 and {"speed (fast/slow)", "timing", "events"} <= tagset(d["results"][0])'
rl "${S[@]}" --tag Repeat --tag Defend --format json
check_exit "--tag Repeat --tag Defend: no entry has both" 1
check_json "--tag Repeat --tag Defend: total 0" 'd["total"] == 0 and d["results"] == []'
rl "${S[@]}" --tag defend --tag "changed rulings" --format json
check_json "--tag defend --tag 'changed rulings': the marked Encompassing Ward answer" \
	'd["total"] == 1 and d["results"][0]["changed"] is True and "Encompassing Ward" in d["results"][0]["title"]'

# ---- --category, --kind, --lang -----------------------------------------------
rl "${S[@]}" --category "Power Cards" --limit 0 --format json
check_exit "--category 'Power Cards' finds entries" 0
check_json "--category 'Power Cards': every result is in that category" \
	'd["total"] == len(d["results"]) > 0 and all(r["category"] == "Power Cards" for r in d["results"])'
n_cat=$(json_get 'd["total"]')
rl "${S[@]}" --category "power cards" --limit 0 --format json
check_json "--category is case-insensitive" "d['total'] == ${n_cat:-0}"
rl "${S[@]}" --category "Power" --format json
check_exit "--category matches whole names only" 1
rl "${S[@]}" --tag Defend --category "Power Cards" --limit 0 --format json
check_json "--tag and --category AND together" \
	'd["total"] > 0 and all(r["category"] == "Power Cards" and "defend" in tagset(r) for r in d["results"])'

rl "${S[@]}" --kind errata --format json
check_exit "--kind errata finds the errata" 0
check_json "--kind errata: exactly the one errata, from the Defend page" \
	'd["total"] == 1 and d["results"][0]["kind"] == "errata" and "defend" in tagset(d["results"][0])'
rl "${S[@]}" --kind faq --limit 0 --format json
check_json "--kind faq: 34 faq entries" \
	'd["total"] == 34 and all(r["kind"] == "faq" for r in d["results"])'
rl "${S[@]}" --kind rule --format json
check_exit "--kind rule: none in the seeds" 1
rl "${S[@]}" --kind glossary
check_exit "--kind glossary: none in the seeds" 1
rl "${S[@]}" --tag Defend --kind faq --format json
check_json "--tag Defend --kind faq: 16" 'd["total"] == 16'

rl "${S[@]}" --lang en --limit 0 --format json
check_json "--lang en: all 35" 'd["total"] == 35 and all(r["lang"] == "en" for r in d["results"])'
rl "${S[@]}" --lang any --limit 0 --format json
check_json "--lang any: all 35" 'd["total"] == 35'
rl "${S[@]}" --lang fr --format json
check_exit "--lang fr: nothing in the seeds" 1
rl "${S[@]}" defend --lang ru
check_exit "words with --lang ru: nothing" 1

# ---- --game ---------------------------------------------------------------------
seed_db g.db --game "Spirit Island"
rl --db g.db search --game "Spirit Island" --limit 0 --format json
check_exit "--game 'Spirit Island' finds the imported rulings" 0
check_json "--game 'Spirit Island': 35, all of that game" \
	'd["total"] == 35 and all(r["game"] == "Spirit Island" for r in d["results"])'
rl --db g.db search --game "spirit island" --tag Repeat --format json
check_json "--game is case-insensitive and ANDs with --tag" 'd["total"] == 4'
rl --db g.db search --game "Gloomhaven" --format json
check_exit "--game of another game: nothing" 1
rl --db g.db search ward --game Gloomhaven
check_exit "words with --game of another game: nothing" 1
rl "${S[@]}" --game Gloomhaven
check_exit "--game of another game than the seeds' manifest names: nothing" 1
rl "${S[@]}" --tag Repeat --format json
check_json "rulings imported without --game have their manifest's game" \
	'd["total"] == 4 and all(r["game"] == "Spirit Island" for r in d["results"])'
rl "${S[@]}" --game none
check_exit "--game none: no ruling of no game" 1

# ---- --limit and total ----------------------------------------------------------
rl "${S[@]}" --tag Defend --limit 3 --format json
check_json "--limit 3: 3 results, total still 17" 'd["total"] == 17 and len(d["results"]) == 3'
first3=$(json_get '[r["id"] for r in d["results"]]')
rl "${S[@]}" --tag Defend --limit 0 --format json
check_json "--limit 0: no limit" 'len(d["results"]) == 17'
check_json "--limit keeps the order (the first 3 of the full list)" \
	"[r['id'] for r in d['results']][:3] == $first3"
rl "${S[@]}" --lang en --format json
check_json "the default limit is 20, total counts all 35" \
	'd["total"] == 35 and len(d["results"]) == 20'
rl "${S[@]}" --tag Defend --limit 1000 --format json
check_json "a limit above the total returns everything" 'len(d["results"]) == 17'
rl "${S[@]}" -n 2 --tag Defend --format json
check_json "-n is --limit" 'len(d["results"]) == 2'

# ---- full text: ranking ---------------------------------------------------------
rl "${S[@]}" --tag "Encompassing Ward" --format json
ward_ids=$(json_get 'sorted(r["id"] for r in d["results"])')
check_json "two entries are tagged Encompassing Ward" 'd["total"] == 2'
rl "${S[@]}" Encompassing Ward --format json
check_exit "search Encompassing Ward finds something" 0
check_json "search Encompassing Ward ranks the Encompassing Ward entries first" \
	"sorted(r['id'] for r in d['results'][:2]) == ${ward_ids:-None}"
check_json "the first result mentions Encompassing Ward" \
	'"encompassing ward" in (d["results"][0]["title"] + d["results"][0]["text"]).lower()'
check_json "results have a snippet and a numeric score" \
	'all("snippet" in r and isinstance(r["score"], (int, float)) for r in d["results"])'
check_json "scores are in ranking order (BM25: lower is better)" \
	'[r["score"] for r in d["results"]] == sorted(r["score"] for r in d["results"])'
rl "${S[@]}" encompassing WARD --format json
check_json "full text is case-insensitive" "sorted(r['id'] for r in d['results'][:2]) == ${ward_ids:-None}"
rl "${S[@]}" '"encompassing ward"' --format json
check_json "a quoted phrase finds the Encompassing Ward entries" \
	"sorted(r['id'] for r in d['results'][:2]) == ${ward_ids:-None}"
rl "${S[@]}" 'encompass*' --format json
check_json "word* is a prefix query" "sorted(r['id'] for r in d['results'][:2]) == ${ward_ids:-None}"
rl "${S[@]}" encompassing ward zzyzzyva --format json
check_exit "all words must match" 1

rl "${S[@]}" defend --tag Repeat
check_exit "words AND filters: no Repeat entry mentions defend" 1
rl "${S[@]}" repeat --tag Repeat --format json
check_json "words with --tag: only tagged entries" \
	'd["total"] >= 1 and all("repeat" in tagset(r) for r in d["results"])'

# ---- formats ----------------------------------------------------------------------
rl "${S[@]}" --tag Repeat --format ndjson
check_exit "--format ndjson succeeds" 0
check_eq "ndjson: one line per result" 4 "$(wc -l < "$OUT")"
check_ndjson "ndjson: each line is one complete ruling object" \
	'len(rows) == 4 and all(isinstance(r, dict) and {"id", "kind", "title", "tags", "changed", "sources"} <= set(r) for r in rows)'
check_ndjson "ndjson: no envelope (no format_version/results objects)" \
	'all("results" not in r for r in rows)'
rl "${S[@]}" --tag Repeat --format json
json_ids=$(json_get '[r["id"] for r in d["results"]]')
rl "${S[@]}" --tag Repeat --format ndjson
check_ndjson "ndjson and json list the same rulings in the same order" \
	"[r['id'] for r in rows] == ${json_ids:-None}"
rl "${S[@]}" zzyzzyva --format ndjson
check_exit "ndjson with nothing found exits 1" 1
check_out_empty "ndjson with nothing found prints nothing"
rl "${S[@]}" zzyzzyva --format json
check_exit "json with nothing found exits 1" 1
check_json "json with nothing found: total 0 and an empty list" \
	'd == {"format_version": 1, "total": 0, "results": []}'

rl "${S[@]}" --tag Repeat
check_exit "text format succeeds" 0
check_eq "text format: one '#ID title' line per result" 4 \
	"$(grep -c '^#[0-9][0-9]* ' "$OUT")"
check_out_contains "text format shows the tags" "tags: "
check_not_contains "text format piped: no escape codes" "$(cat "$OUT")" $'\033'
rl "${S[@]}" zzyzzyva
check_exit "text with nothing found exits 1" 1
check_out_empty "text with nothing found prints nothing"
check_err_empty "nothing found is not an error message"

# Stop words: left out of a query with other words, kept when quoted or
# alone.
rl --db s.db search --format json encompassing ward
base=$(json_get 'd["total"]')
rl --db s.db search --format json what does the encompassing ward do
check_exit "a question with stop words finds rulings" 0
check_json "stop words left out: the same rulings as the bare words" \
	"d['total'] == $base"
rl --db s.db search --format json '"the"' encompassing ward
check_json "any double quote keeps every word: fewer or as many" \
	"d['total'] <= $base"
rl --db s.db search --format json the
check_exit "a stop word alone is searched for" 0
check_json "and found" 'd["total"] > 0'
rl --db s.db search --format json '"when does"'
check_exit "a phrase of stop words is searched as written" 0 1

# A tag on thousands of rulings is walked in id order rather than listed
# (text and NDJSON output, which count no total): the same rulings as the
# listed way (JSON), for the dense tag, a qualified form and a rare tag.
python3 - <<'PY'
lines = ["Dense", "", "Questions"]
for i in range(2100):
    q = "Does dense question %d hold?" % i
    tags = "Dense" + (", Sparse" if i % 700 == 3 else "")
    tags += ", Dense (Odd)" if i % 2 else ""
    lines += ["\u2022 " + q, "  Answer %d." % i, "  Tags: " + tags]
open("dense.txt", "w", encoding="utf-8").write("\n".join(lines) + "\n")
PY
rl --db dense.db import dense.txt
check_exit "a page of 2,100 entries imports" 0
for t in Dense "Dense (Odd)" Sparse; do
	for lim in 5 20; do
		rl --db dense.db search --tag "$t" --limit $lim --format json
		want=$(json_get '[r["id"] for r in d["results"]]')
		rl --db dense.db search --tag "$t" --limit $lim --format ndjson
		got=$(python3 -c 'import json, sys
print([json.loads(l)["id"] for l in open(sys.argv[1])])' "$OUT")
		check_eq "--tag '$t' --limit $lim: walked and listed agree" "$want" "$got"
	done
done
rl --db dense.db search --tag Sparse --format json
check_json "the rare tag has its 3 rulings" 'd["total"] == 3'

finish
