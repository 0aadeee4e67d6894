#!/usr/bin/env bash
# The champion lists built two ways are the same: read straight from an
# index of one segment (src/ftsseg.c) and through fts5vocab (the reader's
# fallback, forced with RULINGS_TOPK_BUILD=vocab). Two databases get the
# same imports: a (RULINGS_TOPK_BUILD=direct where each index is one
# segment — a bulk load's end, reindex: then the reader must read it, or
# the command fails; the usual choice elsewhere) and b (vocab); after each
# step topk_lists, topk_terms, topk_gterms, topk_glists, topk_gdocs (the
# rows per game and kind, schema 18), topk_bterms and topk_blists (every
# listed term's list of a game of many rulings, schema 21) must be equal.
# English, French and Russian rulings (Cyrillic terms), then edited,
# withdrawn and added ones, then a tenth of them moved to Spirit Island
# (the game lists of the thesaurus's terms, and of every listed term); and a first import that is
# not a bulk load (the lists built while FTS5 still holds new terms in
# memory).
#
#   test-build.sh RULINGS SOURCE_ROOT
set -u
rulings=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
gen() { python3 "$root/bench/gen_faq.py" --data "$root/data" "$@" >/dev/null; }
ok() { if eval "$2"; then passed=$((passed + 1)); else
	echo "FAIL $1"; failed=$((failed + 1)); fi; }
# each table's rows, in order, as one digest (and how many)
lists() {
	local t
	for t in "topk_lists ORDER BY 1, 2, 3, 4" "topk_terms ORDER BY 1, 2" \
		"topk_gterms ORDER BY 1, 2, 3" "topk_glists ORDER BY 1, 2, 3, 4, 5" \
		"topk_gdocs ORDER BY 1, 2, 3, 4" "topk_bterms ORDER BY 1, 2, 3" \
		"topk_blists ORDER BY 1, 2, 3, 4, 5"; do
		printf '%s %s ' "${t%% *}" "$(sqlite3 "$1" "SELECT count(*) FROM ${t%% *}")"
		sqlite3 "$1" "SELECT * FROM $t" | sha1sum | cut -d' ' -f1
	done
}
same() { [ "$(lists "$tmp/a.db")" = "$(lists "$tmp/b.db")" ]; }
count() { sqlite3 "$tmp/$1" "$2"; }
segments() { count a.db "SELECT hex(substr(block, 6, 1))
	FROM rulings_fts_$1_data WHERE id = 10"; }
a() { RULINGS_TOPK_BUILD=${mode:-} "$rulings" --db "$tmp/a.db" "$@"; }
b() { RULINGS_TOPK_BUILD=vocab "$rulings" --db "$tmp/b.db" "$@"; }

gen --entries 3000 --seed 7 --out "$tmp/v1"
gen --entries 1500 --seed 16 --out "$tmp/fr"
printf 'game = Generated FAQ\nlang = fr\n' >"$tmp/fr/.rulings"
gen --entries 1500 --seed 25 --out "$tmp/ru"
printf 'game = Generated FAQ\nlang = ru\n' >"$tmp/ru/.rulings"
# its pages are Russian in a fifth; the others' questions and answers
# spelt in Cyrillic letters, so that Cyrillic terms are common enough
# for lists
python3 - "$tmp/ru" <<'PY'
import os, sys
lat = "abcdefghijklmnopqrstuvwxyz"
m = str.maketrans(lat + lat.upper(), "абцдефгхийклмнопярстувшхыз" +
                  "АБЦДЕФГХИЙКЛМНОПЯРСТУВШХЫЗ")
for name in os.listdir(sys.argv[1]):
    if not name.startswith('page-'):
        continue
    p = os.path.join(sys.argv[1], name)
    out = []
    for line in open(p, encoding='utf-8'):
        s = line.lstrip(' ')
        if line.startswith('  ') and not s.startswith(('Tags:', '(Discussion')):
            line = line.translate(m)
        elif line.startswith('\u2022 '):
            line = '\u2022 ' + line[2:].translate(m)
        out.append(line)
    open(p, 'w', encoding='utf-8').write(''.join(out))
PY

# a bulk load: each index merged into one segment at its end, the lists
# read from it
mode=direct a import --quiet --bulk=0 "$tmp/v1" "$tmp/fr" "$tmp/ru" ||
	echo "FAIL the bulk load, lists read from the index"
b import --quiet --bulk=0 "$tmp/v1" "$tmp/fr" "$tmp/ru"
ok "one segment an index" '[ "$(segments en)$(segments fr)$(segments ru)" = 010101 ]'
ok "lists in en, fr, ru" '[ "$(count a.db "SELECT count(DISTINCT tbl)
	FROM topk_terms WHERE tbl IN ('"'en', 'fr', 'ru'"')")" = 3 ]'
ok "Cyrillic terms listed" '[ "$(count a.db "SELECT count(*) FROM topk_terms
	WHERE tbl = '"'ru'"' AND term GLOB '"'*[^ -~]*'"'")" -gt 0 ]'
ok "the same lists after the bulk load" same

# edited, withdrawn and added rulings (the lists built again: several
# segments, read through fts5vocab in both), then reindex (one segment)
gen --mutate 0.2 --removed 0.05 --added 0.1 --mseed 2 --from "$tmp/v1" \
	--out "$tmp/v2"
a import --quiet --allow-withdraw "$tmp/v2"
b import --quiet --allow-withdraw "$tmp/v2"
ok "withdrawn rulings" '[ "$(count a.db "SELECT count(*) FROM rulings
	WHERE withdrawn_at IS NOT NULL")" -gt 0 ]'
ok "the same lists after edits" same
mode=direct a reindex >/dev/null || echo "FAIL reindex, lists read from the index"
b reindex >/dev/null
ok "the same lists after reindex" same

# a tenth of the rulings in Spirit Island: its concepts' terms get lists
# of its rulings
for d in a b; do
	sqlite3 "$tmp/$d.db" "UPDATE rulings SET game_id = (SELECT id FROM games
		WHERE name = 'Spirit Island') WHERE id % 10 = 0"
done
mode=direct a reindex >/dev/null || echo "FAIL reindex, lists read from the index"
b reindex >/dev/null
ok "game lists" '[ "$(count a.db "SELECT count(*) FROM topk_glists")" -gt 0 ]'
ok "the same game lists" same
# every listed term has a list of Spirit Island's rows (a tenth: a game
# of many rulings), which holds the game's best rows by the lists' weight
# (the 512 best, or all: tau, below its last row, 0 when it holds them
# all; docs, the game's rows by the counts per game and kind)
ok "every listed term's list of the game" '[ "$(count a.db "SELECT count(*)
	FROM topk_terms t WHERE NOT EXISTS (SELECT 1 FROM topk_bterms b WHERE
	b.tbl = t.tbl AND b.term = t.term AND b.game_id = (SELECT id FROM games
	WHERE name = '"'Spirit Island'"'))")" = 0 ] && [ "$(count a.db "SELECT
	count(*) FROM topk_bterms b WHERE b.docs <> (SELECT total(docs) FROM
	topk_gdocs g WHERE g.tbl = b.tbl AND g.term = b.term AND g.game_id =
	b.game_id) OR (SELECT count(*) FROM topk_blists l WHERE l.tbl = b.tbl
	AND l.term = b.term AND l.game_id = b.game_id) <> min(b.docs, 512) OR
	b.tau > (SELECT min(g0) FROM topk_blists l WHERE l.tbl = b.tbl AND
	l.term = b.term AND l.game_id = b.game_id) OR (b.tau > 0) <> (b.docs >
	512)")" = 0 ] && [ "$(count a.db "SELECT count(*) FROM topk_blists")" -gt 0 ]'
# and none of Generated FAQ's (most of the rulings: the lists over all
# games are mostly its rows)
ok "no list of a game of most rulings" '[ "$(count a.db "SELECT count(*)
	FROM topk_bterms b JOIN games g ON g.id = b.game_id WHERE g.name =
	'"'Generated FAQ'"'")" = 0 ]'
# each listed term's rows per game and kind add up to its rows, and some
# are of Spirit Island
gdocs_ok() { count $1 "SELECT count(*) FROM topk_terms t WHERE t.docs <>
	(SELECT total(docs) FROM topk_gdocs g WHERE g.tbl = t.tbl AND g.term = t.term)"; }
ok "rows per game and kind of every listed term" '[ "$(gdocs_ok a.db)" = 0 ] &&
	[ "$(gdocs_ok b.db)" = 0 ] && [ "$(count a.db "SELECT count(DISTINCT
	game_id) FROM topk_gdocs")" = 2 ] && [ "$(count a.db "SELECT count(*)
	FROM topk_gdocs WHERE kind <> '"'faq'"'")" -gt 0 ]'

# more games in the share (1/64 to 1/2): lists of the two largest only
# (topk.c BIGS_MAX): G1 a fifth, Spirit Island a tenth, G2 a twentieth,
# G3 a fortieth
for d in a b; do
	sqlite3 "$tmp/$d.db" "INSERT INTO games (name) VALUES ('G1'), ('G2'), ('G3');
		UPDATE rulings SET game_id = (SELECT id FROM games WHERE name = 'G1')
		WHERE id % 10 IN (1, 2);
		UPDATE rulings SET game_id = (SELECT id FROM games WHERE name = 'G2')
		WHERE id % 20 = 3;
		UPDATE rulings SET game_id = (SELECT id FROM games WHERE name = 'G3')
		WHERE id % 40 = 5"
done
mode=direct a reindex >/dev/null || echo "FAIL reindex, lists read from the index"
b reindex >/dev/null
ok "lists of the two largest games in the share" '[ "$(count a.db "SELECT
	group_concat(name, '"','"') FROM (SELECT DISTINCT g.name FROM topk_bterms b
	JOIN games g ON g.id = b.game_id ORDER BY 1)")" = "G1,Spirit Island" ]'
ok "the same lists of games" same

# a first import, not bulk: the lists built when the table reaches
# 2 * 512 rows, in the transaction that indexed its last rulings
rm -f "$tmp/a.db" "$tmp/b.db"
a import --quiet "$tmp/v1"
b import --quiet "$tmp/v1"
ok "lists of a plain import" '[ "$(count a.db "SELECT count(*) FROM topk_terms")" -gt 0 ]'
ok "the same lists after a plain import" same

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
