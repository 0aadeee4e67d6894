#!/usr/bin/env bash
# Snippets: each shown ruling's snippet is FTS5's snippet() of that row
# under the search's MATCH, however the search computed it (src/search.c:
# in the rows statement of the fast paths; after the exhaustive ranking,
# one scan of a table for all its shown rows, a query per row for those
# the scan did not reach or when there are too many). The reference is
# the sqlite3 shell with the extension asking FTS5 for each row alone.
# Searches: the sample data (three languages, thesaurus-widened words)
# and a generated dump of 3,000 rulings (common words: rows beyond the
# scan's reach; --limit 100: more rows than one scan takes), with the fast
# path and without it (RULINGS_TOPK=off), in several query shapes.
#
#   bash tests/cli/test-snippets.sh BUILD/rulings BUILD/rulings_fts.so
#
# Skipped (exit 77) without the sqlite3 shell.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"
need_extension
GEN=$_lib_dir/../../bench/gen_faq.py

# snippets_equal DESC DB ARGS...: every snippet of `search ARGS` (JSON)
# equals FTS5's snippet() of its row alone (markers left out: JSON shows
# none), and the search showed at least one row.
snippets_equal() {
	local desc=$1 db=$2
	shift 2
	rl --db "$db" search --format json "$@"
	cp "$OUT" "$T/got.json"
	rl --db "$db" search --explain "$@"
	cp "$OUT" "$T/explain.txt"
	python3 - "$T/got.json" "$T/explain.txt" > "$T/ref.sql" <<'PY'
import json, sys
got = json.load(open(sys.argv[1]))
lines = open(sys.argv[2], encoding="utf-8").read().splitlines()
match = next(l[len("match: "):] for l in lines if l.startswith("match: "))
tables = next(l[len("tables: "):] for l in lines
              if l.startswith("tables: ")).split()
q = "'" + match.replace("'", "''") + "'"
parts = []
for r in got["results"]:
    for t in tables:
        parts.append(f"SELECT {r['id']} AS id, snippet({t}, 1, char(2), "
                     f"char(3), '\u2026', 24) AS s FROM {t} "
                     f"WHERE {t} MATCH {q} AND rowid = {r['id']}")
print(" UNION ALL ".join(parts) + ";" if parts else "SELECT 1 WHERE 0;")
PY
	run ext_sqlite3 "$EXT" -batch -bail -json "$db" ".load '$EXT'" \
		"$(cat "$T/ref.sql")"
	cp "$OUT" "$T/ref.json"
	run python3 - "$T/got.json" "$T/ref.json" <<'PY'
import json, sys
got = json.load(open(sys.argv[1]))["results"]
text = open(sys.argv[2], encoding="utf-8").read().strip()
ref = {r["id"]: r["s"].replace("\x02", "").replace("\x03", "")
       for r in (json.loads(text) if text else [])}
bad = [r["id"] for r in got if ref.get(r["id"]) != r["snippet"]]
print(f"{len(got)} rows, {len(bad)} differ: {bad[:5]}")
sys.exit(1 if bad or not got else 0)
PY
	if [ "$STATUS" = 0 ]; then
		_pass "$desc"
	else
		_fail "$desc" "snippets equal to FTS5's of each row" "$(cat "$OUT")"
	fi
}

rl --db "$T/data.db" import --quiet "$RULINGS_DATA"
check_exit "the sample data imported" 0
run python3 "$GEN" --data "$RULINGS_DATA" --entries 3000 --seed 3 --out "$T/gen"
check_exit "a dump generated" 0
rl --db "$T/gen.db" import --quiet --bulk "$T/gen"
check_exit "the dump imported" 0

for topk in on off; do
	export RULINGS_TOPK=$topk
	for args in "defend" "--limit 3 defend" "--limit 0 damage" \
	            "--lang fr pouvoir" "атака" "dahan OR blight" \
	            "--kind faq invader" '"the land"' "def*"; do
		eval "snippets_equal \"sample data, \$args (\$topk)\" \"\$T/data.db\" $args"
	done
	for args in "power" "--limit 5 the" "--limit 100 power" \
	            "--limit 100 damage land" "--limit 40 use" \
	            "--limit 7 power OR damage" '"the power"' "--limit 0 anlunthika" "--limit 4 assuming"; do
		eval "snippets_equal \"3,000 rulings, \$args (\$topk)\" \"\$T/gen.db\" $args"
	done
done
unset RULINGS_TOPK

finish
