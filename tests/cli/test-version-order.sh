#!/usr/bin/env bash
# Versions in date order (issue 12 point 2): a document's versions imported
# out of the order of their dates record the same changes, between
# neighbours by date, and leave the same current texts as imported in
# order.
#
#   (a) three versions of an FAQ page given dates with import --date and
#       imported 2, 1, 3: an answer edited, one added, one withdrawn, a
#       "Changed answer:" mark that version 2 adds; against the same three
#       imported in order; and an older database (schema 12, no listings)
#       that gets version 1 last.
#   (b) the Comprehensive Rules pairs 2022-06-10/07-08 and
#       2025-11-14/2026-01-16 of ../shared/corpora/mtg-cr, each imported
#       newer first: the changes are those version-order.py reads from the
#       files (corpus-cr.py's reading of them, not rulings'), and changed,
#       documents, search, show and their --as-of equal those of the pair
#       imported in order. Skipped without the corpus; under ASan only the
#       second pair.
#
#   bash tests/cli/test-version-order.sh BUILD/rulings /work/shared/corpora
CORPORA=${RULINGS_CORPORA:-${2:-}}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

PY=$_lib_dir/version-order.py
G="Spirit Island"

# same DESC A.json B.json: the two outputs are equal, stamps aside
same() {
	local desc=$1 msg
	if msg=$(python3 "$PY" same "$2" "$3" 2>&1); then
		_pass "$desc"
	else
		local lines
		mapfile -t lines <<<"$msg"
		_fail "$desc" "${lines[@]}"
	fi
}

# ---- (a) an FAQ page -------------------------------------------------------
# v1: the page without the mark; v2: an answer edited, an entry gone, one
# new, the mark; v3: the new answer edited.
python3 - "$SEED_DEFEND" <<'PY'
import sys
text = open(sys.argv[1], encoding="utf-8").read()
mark = "Changed answer: Yes. The Power modifies"
assert mark in text
v1 = text.replace(mark, "Yes. The Power modifies")
v2 = text.replace("Effects of innate powers are cumulative",
                  "Effects of innate powers always stack")
start = v2.index("• Do Defend effects stack normally")
end = v2.index("• If you use Encompassing Ward")
v2 = v2[:start] + v2[end:]
v2 = v2.rstrip("\n") + "\n• Is Defend a Power?\n  No, it is a keyword.\n  Tags: Defend\n"
v3 = v2.replace("No, it is a keyword.", "No, Defend is a keyword.")
for n, t in (("v1", v1), ("v2", v2), ("v3", v3)):
    open(n + ".txt", "w", encoding="utf-8").write(t)
PY

rl --db r.db import --no-thesaurus --game "$G" --date 2024-02-01 v2.txt
check_out_contains "(a) version 2 first: its baseline" \
	"17 entries, 17 added, 0 edited, 0 withdrawn"
rl --db r.db import --game "$G" --date 2024-01-01 v1.txt
check_exit "(a) version 1 after it imports" 0
check_out_contains "(a) version 1 is the baseline now: no change of its own" \
	"17 entries, 0 added, 0 edited, 0 withdrawn"
rl --db r.db search --format json always stack
check_json "(a) the current answer is still version 2's" \
	'd["total"] == 1 and "always stack" in d["results"][0]["text"]'
edited=$(json_get 'd["results"][0]["id"]')
rl --db r.db search are cumulative
check_exit "(a) version 1's older answer is not the current one" 1
rl --db r.db search stack normally
check_exit "(a) the entry only version 1 lists is not current" 1
rl --db r.db search --include-withdrawn --format json stack normally
check_json "(a) ...it is stored as withdrawn" \
	'd["total"] == 1 and d["results"][0]["withdrawn"]'
rl --db r.db changed --format json
check_json "(a) version 2's changes are now against version 1" \
	'sorted((c["date"], c["change"], c["title"][:22]) for c in d["changes"]) == [
	 ("2024-02-01", "added", "Is Defend a Power?"),
	 ("2024-02-01", "edited", "If Downpour Drenches t"),
	 ("2024-02-01", "marked", "If you use Encompassin"),
	 ("2024-02-01", "withdrawn", "Do Defend effects stac")]'
check_json "(a) ...the edit from version 1's text to version 2's" \
	'[(c["old"], c["new"]) for c in d["changes"] if c["change"] == "edited"] == [("Yes. Effects of innate powers are cumulative unless otherwise specified.", "Yes. Effects of innate powers always stack unless otherwise specified.")]'

rl --db r.db import --game "$G" --date 2024-03-01 v3.txt
check_out_contains "(a) version 3, the newest, against version 2" \
	"17 entries, 0 added, 1 edited, 0 withdrawn"
rl --db r.db changed --format json
cp "$OUT" r.changed.json
check_json "(a) changed: version 3's edit, version 2's four, none at version 1" \
	'[(c["date"], c["change"]) for c in d["changes"]] == [("2024-03-01", "edited"),
	 ("2024-02-01", "added"), ("2024-02-01", "edited"), ("2024-02-01", "withdrawn"),
	 ("2024-02-01", "marked")] or sorted((c["date"], c["change"]) for c in d["changes"]) == [
	 ("2024-02-01", "added"), ("2024-02-01", "edited"), ("2024-02-01", "marked"),
	 ("2024-02-01", "withdrawn"), ("2024-03-01", "edited")]'
rl --db r.db check
check_exit "(a) check: the database holds together" 0
rl --db r.db search --format json Is Defend a Power
check_json "(a) the current text is version 3's" \
	'any(r["text"] == "No, Defend is a keyword." for r in d["results"])'
rl --db r.db show --as-of 2024-01-15 "$edited"
check_out_contains "(a) show --as-of version 1's date: version 1's answer" \
	"are cumulative"
rl --db r.db search --as-of 2024-01-15 --format json stack normally
check_json "(a) search --as-of version 1's date finds the entry only it lists" \
	'd["total"] == 1'
rl --db r.db history "$edited" --format json
check_json "(a) history: the versions by date, version 1 the baseline" \
	'[(v["change"], v["path"]) for v in d["versions"]] == [("baseline", "v1.txt"), ("edited", "v2.txt")]'
check_json "(a) history: each version's date, its import time beside it" \
	'[v["date"] for v in d["versions"]] == ["2024-01-01", "2024-02-01"] and all(v["imported_at"] == v["at"] and v["at"][:4] != "2024" for v in d["versions"])'
rl --db r.db history "$edited"
check_out_contains "(a) history's text says the version's date" \
	"2024-01-01 · baseline"

# the same three in order
rl --db o.db import --no-thesaurus --game "$G" --date 2024-01-01 v1.txt
rl --db o.db import --game "$G" --date 2024-02-01 v2.txt
check_out_contains "(a) in order, version 2's counts are the same" \
	"17 entries, 1 added, 1 edited, 1 withdrawn"
rl --db o.db import --game "$G" --date 2024-03-01 v3.txt
rl --db o.db changed --format json
cp "$OUT" o.changed.json
same "(a) changed: imported 2, 1, 3 = imported 1, 2, 3" o.changed.json r.changed.json
for db in o r; do
	rl --db $db.db documents --format json && cp "$OUT" $db.documents.json
	rl --db $db.db search --format json Defend && cp "$OUT" $db.search.json
	rl --db $db.db search --as-of 2024-01-15 --format json Defend &&
		cp "$OUT" $db.asof.json
done
same "(a) documents: the same versions and counts" o.documents.json r.documents.json
same "(a) search: the same current texts" o.search.json r.search.json
same "(a) search --as-of version 1's date: the same texts" o.asof.json r.asof.json

# An older database (schema 12: no listings) that gets version 1 last:
# the listings of its versions are worked out from its recorded changes.
rl --db m.db import --no-thesaurus --game "$G" --date 2024-02-01 v2.txt
rl --db m.db import --game "$G" --date 2024-03-01 v3.txt
sqlite3 m.db "DROP TABLE version_rulings; PRAGMA user_version = 12;"
rl --db m.db import --game "$G" --date 2024-01-01 v1.txt
check_exit "(a) an older database: version 1 imports last" 0
check_err_contains "(a) ...upgrading it" "from schema version 12 to"
rl --db m.db changed --format json
cp "$OUT" m.changed.json
same "(a) ...and records what imported in order does" o.changed.json m.changed.json

# ---- (b) the Comprehensive Rules pairs ---------------------------------
CR_DIR=${CORPORA:+$CORPORA/mtg-cr}
if [ -z "$CR_DIR" ] || [ ! -f "$CR_DIR/CR-2026-01-16.txt" ]; then
	echo "# no corpus folder ${CR_DIR:-(none given)}: (b) skipped"
	finish
fi

# current rulings, as the sqlite3 shell reads them
content() {
	sqlite3 -batch "$1" "SELECT kind, key, lang, ifnull(rule, '-'), title, body,
		ifnull(section, '-'), ifnull(category, '-'), changed
		FROM rulings WHERE withdrawn_at IS NULL ORDER BY kind, key"
}

pairs=("2022-06-10 2022-07-08" "2025-11-14 2026-01-16")
# under AddressSanitizer one pair is enough (each costs 4 imports of 1 MB)
if ldd "$RULINGS" 2>/dev/null | grep -q libasan; then
	pairs=("2025-11-14 2026-01-16")
fi
for pair in "${pairs[@]}"; do
	set -- $pair
	old=$CR_DIR/CR-$1.txt new=$CR_DIR/CR-$2.txt
	p="(b) $1/$2"
	rl --db "in$1.db" import --no-thesaurus "$old" "$new"
	rl --db "rev$1.db" import --no-thesaurus "$new"
	rl --db "rev$1.db" import --no-thesaurus "$old"
	check_exit "$p: the older release imports after the newer" 0
	for db in in rev; do
		rl --db "$db$1.db" changed --format json && cp "$OUT" "$db$1.changed.json"
	done
	check_eq "$p: newer first, the changes are those the files make" \
		"$(python3 "$PY" expect "$old" "$new")" \
		"$(python3 "$PY" changes "rev$1.changed.json")"
	same "$p: changed equals the pair's in order" "in$1.changed.json" "rev$1.changed.json"
	rl --db "rev$1.db" check
	check_exit "$p: check: the database holds together" 0
	if [ "$(content "in$1.db" | sha256sum)" = "$(content "rev$1.db" | sha256sum)" ]; then
		_pass "$p: the current rulings are the newer release's, as in order"
	else
		_fail "$p: the current rulings are the newer release's, as in order" \
			"$(diff <(content "in$1.db") <(content "rev$1.db") | head -10)"
	fi
	# the first rule the newer release edits, and a word of its old text
	rule=$(python3 "$PY" expect "$old" "$new" | awk '$1 == "edited" && $2 == "rule" { print $3; exit }')
	for db in in rev; do
		rl --db "$db$1.db" documents --format json && cp "$OUT" "$db.documents.json"
		rl --db "$db$1.db" show --format json "$rule" && cp "$OUT" "$db.show.json"
		rl --db "$db$1.db" show --as-of "$1" --format json "$rule" &&
			cp "$OUT" "$db.showasof.json"
		rl --db "$db$1.db" search --format json combat damage trample &&
			cp "$OUT" "$db.search.json"
		rl --db "$db$1.db" search --as-of "$1" --format json combat damage trample &&
			cp "$OUT" "$db.asof.json"
	done
	same "$p: documents: the same versions and counts" in.documents.json rev.documents.json
	same "$p: show $rule: the newer text" in.show.json rev.show.json
	same "$p: show --as-of $1 $rule: the older text" in.showasof.json rev.showasof.json
	check_eq "$p: ...which is not the newer one" 1 \
		"$(python3 -c 'import json,sys; a, b = (json.load(open(f))["text"] for f in sys.argv[1:]); print(int(a != b))' in.show.json rev.showasof.json)"
	same "$p: search: the same results" in.search.json rev.search.json
	same "$p: search --as-of $1: the same results" in.asof.json rev.asof.json
done
finish
