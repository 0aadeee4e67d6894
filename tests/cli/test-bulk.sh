#!/usr/bin/env bash
# import --bulk: documents committed in groups give the same database as
# one transaction per document — rulings, tags, links, references,
# versions and changes — with full-text tables that pass FTS5's own
# integrity check; a refused document in a group leaves the others.
# Arguments: the rulings binary, the rulings_fts extension (for the
# sqlite3 shell's integrity checks).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

EXT=${2:-}
GEN=$_lib_dir/../../bench/gen_faq.py
if ! command -v sqlite3 >/dev/null || [ ! -f "$EXT" ]; then
	echo "SKIP: needs the sqlite3 shell and the rulings_fts extension"
	exit 77
fi

# The content of a database, without ids of imports and times: what two
# ways of importing the same documents must agree on.
content() {
	sqlite3 "$1" <<'SQL'
SELECT 'R', id, kind, key, lang, rule, title, body, section, category,
  changed, withdrawn_at IS NOT NULL FROM rulings ORDER BY id;
SELECT 'T', t.name, t.qualifier, rt.ruling_id, rt.origin, d.title
  FROM ruling_tags rt JOIN tags t ON t.id = rt.tag_id
  JOIN documents d ON d.id = rt.document_id ORDER BY 2, 3, 4, 5, 6;
SELECT 'S', ruling_id, d.title, line, hidden_tags FROM ruling_sources s
  JOIN documents d ON d.id = s.document_id ORDER BY 2, 3, 4;
SELECT 'F', ruling_id, kind, target, target_id FROM refs ORDER BY 2, 3, 4;
SELECT 'E', ruling_id, product, printing, document, page FROM errata
  ORDER BY 2;
SELECT 'V', ruling_id, title, body FROM ruling_versions ORDER BY 2, import_id;
SELECT 'C', c.ruling_id, c.change, c.old_body, c.new_body, d.title
  FROM changes c JOIN imports i ON i.id = c.import_id
  JOIN documents d ON d.id = i.document_id ORDER BY 2, 3, 6;
SQL
}

fts_check() {
	local db=$1 what=$2 t out
	for t in en fr ru xx; do
		out=$(ext_sqlite3 "$EXT" -cmd ".load ${EXT%.so}" "$db" \
			"INSERT INTO rulings_fts_$t(rulings_fts_$t) VALUES('integrity-check')" 2>&1)
		check_eq "$what: rulings_fts_$t passes FTS5's integrity check" "" "$out"
	done
	check_eq "$what: integrity_check" "ok" "$(sqlite3 "$db" 'PRAGMA integrity_check')"
}

load_seeds() {
	local db=$1; shift
	"$RULINGS" --db "$db" import -q "$@" --game "Spirit Island" \
		"$DATA"/000_*.txt "$DATA"/001_*.txt &&
	"$RULINGS" --db "$db" import -q "$@" --game Berserk "$DATA"/004_*.txt &&
	"$RULINGS" --db "$db" import -q "$@" "$DATA"
}

# 1. The sample data, document by document and in bulk.
load_seeds one.db
check_exit "the seeds import one document at a time" 0
load_seeds bulk.db --bulk
check_exit "the seeds import in bulk" 0
content one.db >one.txt
content bulk.db >bulk.txt
check_eq "bulk gives the same rulings, tags, sources, references, versions" \
	"$(cat one.txt)" "$(cat bulk.txt)"
check_match "the comparison saw rulings and resolved references" \
	'^F\|[0-9]+\|term\|.*\|[0-9]+$' "$(cat bulk.txt)"
fts_check bulk.db "seeds in bulk"
rl --db bulk.db search --tag Repeat --format json
check_json "search --tag Repeat answers from the bulk database" \
	'd["total"] == 4'
rl --db bulk.db search --format json encompassing ward
check_json "full-text search finds what bulk indexed" \
	'"Encompassing Ward" in d["results"][0]["title"]'
rl --db bulk.db import --bulk "$DATA"
check_exit "importing the same files again in bulk" 0
check_out_contains "nothing changes" "0 imported"
# A bulk load drops the INSERT triggers on rulings while it stores and
# creates them again before it commits (src/store.c, set_aside): the
# schema is as a load document by document leaves it, row for row in
# sqlite_schema's order (the order .dump lists it in).
schema_rows() {
	sqlite3 "$1" "SELECT rowid, type, name, sql FROM sqlite_schema
		WHERE sql IS NOT NULL ORDER BY rowid"
}
check_eq "bulk leaves the schema, its triggers in place" \
	"$(schema_rows one.db)" "$(schema_rows bulk.db)"
check_match "...which has the INSERT triggers" \
	'[0-9]+\|trigger\|topk_insert\|' "$(schema_rows bulk.db)"

# 2. Two versions of a synthetic dump: the changes bulk records are the
# ones a document at a time records.
python3 "$GEN" --entries 1500 --seed 7 --out v1 >/dev/null &&
python3 "$GEN" --mutate 0.1 --from v1 --mseed 3 --out v2 >/dev/null
check_exit "two versions of a synthetic dump" 0
for m in one bulk; do
	opt=; [ $m = bulk ] && opt=--bulk
	"$RULINGS" --db gen-$m.db import -q $opt v1 &&
	"$RULINGS" --db gen-$m.db import $opt v2 >gen-$m.out
	check_exit "$m: both versions import" 0
done
check_eq "bulk counts the same changes" \
	"$(tail -n 1 gen-one.out)" "$(tail -n 1 gen-bulk.out)"
check_match "and there are edits and withdrawals to count" \
	'[1-9][0-9]* edited, [1-9][0-9]* withdrawn' "$(tail -n 1 gen-bulk.out)"
content gen-one.db >gen-one.txt
content gen-bulk.db >gen-bulk.txt
check_eq "bulk gives the same versions and changes" \
	"$(cat gen-one.txt)" "$(cat gen-bulk.txt)"
fts_check gen-bulk.db "edited in bulk"
fts_check gen-one.db "edited one by one"

# 7. A bulk load that at least doubles an index ends with it merged into
# one segment, as reindex leaves it (src/topk.c, rl_fts_merge_grown): FTS5
# wrote this load's 4,000 entries as 3 segments of the English index. A
# smaller load on top of it is left to FTS5's automerge.
segments() {
	sqlite3 "$1" "SELECT count(DISTINCT segid) FROM rulings_fts_$2_idx"
}
python3 "$GEN" --entries 4000 --seed 5 --out v4 >/dev/null
check_exit "a larger synthetic dump" 0
"$RULINGS" --db merged.db import -q --bulk v4
check_exit "it imports in bulk" 0
check_eq "the English index is one segment after the load" 1 \
	"$(segments merged.db en)"
fts_check merged.db "merged after a bulk load"
"$RULINGS" --db merged.db import -q --bulk v1
check_exit "a smaller dump imports in bulk on top" 0
check_match "its index is not merged again" '^[2-9]' "$(segments merged.db en)"
fts_check merged.db "a smaller load on top"

# 3. One entry on two pages of one group, with different answers: the
# second page edits a ruling that is not indexed yet.
cat >p1.txt <<'TXT'
Alpha

Questions
• Does the ward hold against floods?
  Yes, the ward holds against quartzfloods.
  Tags: Alpha
TXT
cat >p2.txt <<'TXT'
Beta

Questions
• Does the ward hold against floods?
  No, the ward breaks under emberfloods.
  Tags: Beta
TXT
rl --db pair.db import --bulk p1.txt p2.txt
check_exit "two pages, one entry, one group" 0
fts_check pair.db "an entry edited within its group"
rl --db pair.db search --format json emberfloods
check_json "the later answer is found" 'd["total"] == 1'
rl --db pair.db search --format json quartzfloods
check_json "the earlier answer is not" 'd["total"] == 0'

# 4. A refused document in the middle of a group: the others stay.
printf 'Gamma\n\nQuestions\n\xe2\x80\xa2 Broken \xff byte?\n  Yes.\n' >bad.txt
rl --db mixed.db import --bulk --no-thesaurus p1.txt bad.txt p2.txt
check_exit "a refused document fails the run" 65
check_err_contains "with its place" "bad.txt:4:"
rl --db mixed.db stats --format json
check_json "the other two documents are imported" 'd["imports"] == 2 and d["rulings"] == 1'
fts_check mixed.db "a group with a refused document"

# 6. A document that fails while its entries are stored, in the middle of
# a group (a trigger of the user's refuses a tag). A new document is stored
# without a savepoint of its own (src/store.c, release_savepoint): its
# failure rolls the group back, and the group's documents are imported
# again one by one; the others stay (p1 and p2 list one ruling), the
# failing one is stored not at all.
printf 'Gamma\n\nQuestions\n\xe2\x80\xa2 Does the ward hold against storms?\n  Only against stormfloods.\n  Tags: Boom\n' >p3.txt
printf 'Delta\n\nQuestions\n\xe2\x80\xa2 Does the ward hold against fire?\n  Never against cinderfloods.\n  Tags: Delta\n' >p4.txt
rl --db boom.db import --no-thesaurus p1.txt
sqlite3 boom.db "CREATE TRIGGER boom BEFORE INSERT ON ruling_tags
  WHEN (SELECT name FROM tags WHERE id = new.tag_id) = 'Boom'
  BEGIN SELECT RAISE(ABORT, 'boom'); END;"
rl --db boom.db import --no-thesaurus --bulk p2.txt p3.txt p4.txt
check_exit "a document failing in a group fails the run" 70
check_err_contains "... with its reason" "p3.txt: store tag link: boom"
check_err_contains "... the group is imported again one by one" \
	"importing the 2 documents of the group one by one"
check_eq "... each other document is reported imported once" \
	"imported p2.txt imported p4.txt" \
	"$(grep -o '^imported p[0-9].txt' "$OUT" | tr '\n' ' ' | sed 's/ $//')"
check_eq "... the others are stored, the failing one not at all" \
	"Alpha Beta Delta|2|0" \
	"$(sqlite3 boom.db "SELECT (SELECT group_concat(title, ' ') FROM
	  (SELECT title FROM documents ORDER BY id)), (SELECT count(*) FROM
	  rulings), (SELECT count(*) FROM tags WHERE name = 'Boom')")"
fts_check boom.db "a group with a failed document"

# 5. A full disk under a group (a 500 kB tmpfs, where mounting is
# permitted): the group is imported again file by file, and each file is
# reported once, with what became of it then (issue 17 #15: the files of
# the group were reported "imported" before the commit failed, and again).
mkdir -p full
# (the script's status is kept: _cleanup exits with the status it is given)
trap '_st=$?; umount "$T/full" 2>/dev/null; (exit "$_st"); _cleanup' EXIT
if mount -t tmpfs -o size=500k tmpfs full 2>/dev/null; then
	python3 "$GEN" --entries 400 --seed 4 --out quad >/dev/null
	rl --db full/x.db import --no-thesaurus --bulk quad
	umount full
	check_exit "a bulk import onto a full disk: an i/o error" 74
	check_err_contains "... the group is imported again one by one" \
		"importing the 4 documents of the group one by one"
	check_eq "... no file is reported imported twice" "" \
		"$(grep '^imported ' "$OUT" | cut -d: -f1 | sort | uniq -d)"
	check_eq "... as many lines say imported as the summary counts" \
		"$(grep -c '^imported ' "$OUT")" \
		"$(sed -n 's/^4 documents: \([0-9]*\) imported.*/\1/p' "$OUT")"
else
	echo "# mounting a tmpfs is not permitted here: the full disk case is skipped"
fi

finish
