#!/usr/bin/env bash
# The fast path (src/topk.c: one word, all words, OR, thesaurus-widened
# words) is exact: a generated FAQ dump of 3,000 rulings imported in bulk (the lists are built at its end), then
# new versions of its pages that edit, withdraw and add rulings (a second
# import, a large change: the lists are built again), then a small one
# (they are not: the changed rulings are scored beside them); after each,
# topk_check compares the top 20 of hundreds of words, word pairs and
# thesaurus words, with and without filters, with the exhaustive ranking's;
# and the terms of a game's concepts, in rulings of that game and others,
# moved between them, and after a thesaurus that binds other terms.
#
#   test-topk.sh RULINGS TOPK_CHECK SOURCE_ROOT [small]
#
# small (the sanitizer build, tests/topk/meson.build): half the words
# of each stage, every stage and query shape kept (ASan+UBSan
# made the full size ~70 s of CPU).
set -u
rulings=$1 check=$2 root=$3 scale=${4:-full}
entries=3000 long=30 w=25 wl=80 every=7
[ "$scale" = small ] && w=12 wl=40 every=61
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
gen() { python3 "$root/bench/gen_faq.py" --data "$root/data" "$@" >/dev/null; }
run() {
	local label=$1; shift
	local out
	out=$("$check" "$tmp/t.db" "$@")
	local last=${out##*$'\n'}
	printf '%s\n' "$out" | grep -v '^[0-9]* passed' | sed "s/^/$label: /"
	passed=$((passed + $(echo "$last" | cut -d' ' -f1)))
	failed=$((failed + $(echo "$last" | cut -d' ' -f3)))
}
lists() { sqlite3 "$tmp/t.db" "SELECT count(*) FROM topk_terms"; }
dirty() { sqlite3 "$tmp/t.db" "SELECT count(*) FROM topk_dirty"; }
ok() { if eval "$2"; then passed=$((passed + 1)); else
	echo "FAIL $1"; failed=$((failed + 1)); fi; }

gen --entries $entries --seed 7 --out "$tmp/v1"
# a group per document (--bulk=0): the lists are built once, with the last
# group, and no ruling is left "changed since" (refreshed at each group's
# commit, 197 were)
"$rulings" --db "$tmp/t.db" import --quiet --bulk=0 "$tmp/v1"
ok "lists built by the bulk import, once at its end" '[ "$(lists)" -gt 20 ] && [ "$(dirty)" = 0 ]'
run first $w 1 40
# ranked before their rulings are read: phrases (no list serves them) in
# over a third of the rulings read a page for a few of their matches, not
# one for most (topk_check --reads)
run reads --reads '"the power"' '"of the"'

gen --mutate 0.2 --removed 0.05 --added 0.1 --mseed 2 --from "$tmp/v1" --out "$tmp/v2"
# a few English rulings withdrawn (a page again, without three of its
# entries): no text changed, so the lists' counts of rows per term still
# hold, and a total subtracts the withdrawn matches one by one (src/search.c
# fts_count_sql)
page=$(python3 - "$tmp/v1" <<'PY'
import os, re, sys
for name in sorted(os.listdir(sys.argv[1])):
    path = os.path.join(sys.argv[1], name)
    if not name.startswith('page-'):
        continue
    parts = re.split(r'(?m)^(?=\u2022 )', open(path, encoding='utf-8').read())
    gone = [i for i in range(1, len(parts))
            if ' the ' in parts[i].split('\n')[0]][:3]
    if len(gone) == 3:
        open(path, 'w', encoding='utf-8').write(
            ''.join(p for i, p in enumerate(parts) if i not in gone))
        print(path)
        break
PY
)
"$rulings" --db "$tmp/t.db" import --quiet --allow-withdraw "$page"
ok "a few English rulings withdrawn, lists unchanged" '[ "$(sqlite3 "$tmp/t.db" "SELECT count(*) FROM rulings WHERE withdrawn_at IS NOT NULL AND lang = '"'en'"'")" -ge 1 ] && [ "$(dirty)" = 0 ]'
run withdrawn $w 5 40
"$rulings" --db "$tmp/t.db" import --quiet --allow-withdraw "$tmp/v2"
ok "withdrawn rulings" '[ "$(sqlite3 "$tmp/t.db" "SELECT count(*) FROM rulings WHERE withdrawn_at IS NOT NULL")" -gt 50 ]'
run edited $w 2 40

# long rulings, few: the average length grows by about 8 % (the lists
# stay; their order is no longer the true one, and the bound must hold)
python3 - "$tmp/v1" "$tmp/long" $long <<'PY'
import os, random, sys
words = []
for name in sorted(os.listdir(sys.argv[1]))[:4]:
    if name.startswith('page-'):
        words += open(os.path.join(sys.argv[1], name), encoding='utf-8').read().split()
rnd = random.Random(5)
os.makedirs(sys.argv[2])
with open(os.path.join(sys.argv[2], '.rulings'), 'w') as f:
    f.write('game = Generated FAQ\n')
with open(os.path.join(sys.argv[2], 'long.txt'), 'w', encoding='utf-8') as f:
    f.write('Long Answers\n\nFrequently Asked Questions\n\nLong\n\n')
    for i in range(int(sys.argv[3])):
        f.write('\u2022 Question %d about %s?\n' % (i, rnd.choice(words)))
        f.write('  ' + ' '.join(rnd.choice(words).strip('\u2022') for _ in range(700)) + '\n')
        f.write('  Tags: Long\n\n')
PY
before=$(sqlite3 "$tmp/t.db" "SELECT avgdl FROM topk_state WHERE tbl = 'en'")
"$rulings" --db "$tmp/t.db" import --quiet "$tmp/long"
ok "long rulings scored beside the lists" '[ "$(dirty)" -ge $long ] &&
	[ "$(sqlite3 "$tmp/t.db" "SELECT count(*) FROM rulings WHERE title LIKE '"'Question %'"'")" = $long ] && [ "$(sqlite3 "$tmp/t.db" "SELECT avgdl FROM topk_state WHERE tbl = '"'en'"'")" = "$before" ]'
run longer $wl 4 40

gen --mutate 0.02 --removed 0.01 --added 0.01 --mseed 3 --from "$tmp/v2" --out "$tmp/v3"
"$rulings" --db "$tmp/t.db" import --quiet --allow-withdraw "$tmp/v3"
ok "changed rulings scored beside the lists" '[ "$(dirty)" -gt 20 ]'
run small-change $w 3 40

# reindex merges each index into one segment (src/refold.c: every
# segment costs a lookup of each word at every seek of a search); the
# answers are the same, to the bit: the same rows, scores and snippets
segments() { sqlite3 "$tmp/t.db" "SELECT count(DISTINCT id >> 37) FROM
	rulings_fts_$1_data WHERE id >> 37 > 0"; }
ok "several segments before reindex" '[ "$(segments en)" -gt 1 ]'
searches() { for q in use damage "power card" Isolate vashseldor; do
	"$rulings" --db "$tmp/t.db" search --format json --limit 30 $q; done; }
searches >"$tmp/before.json"
"$rulings" --db "$tmp/t.db" reindex >/dev/null
ok "reindex rebuilds the lists" '[ "$(dirty)" = 0 ] && [ "$(lists)" -gt 20 ]'
ok "reindex leaves one segment an index" '[ "$(segments en)" = 1 ] &&
	[ "$(segments fr)" = 1 ] && [ "$(segments ru)" -le 1 ]'
ok "the same answers after reindex" 'searches | cmp -s - "$tmp/before.json"'
run reindexed $w 6 40
# a table whose doclists are short beside its candidates is walked, not
# sought at each candidate (each table's own: temp.topk_cand says whose)
run seeks --seeks use card spirit the
# rulings of Spirit Island, the game of the thesaurus's "[Spirit Island]"
# concepts: searched, `Invaders` also finds its "Envahisseurs" there
# only. French rulings (the generator's pages, in French, the invaders
# "Envahisseurs"), and a few long ones of Spirit Island where that word
# weighs too little for its list over all games: before the lists per
# game (schema 15), `Invaders --lang fr` read that list to its end and
# scored every match (topk_check --fast); they answer it, and such words
# in general, exactly, with filters (--bound). After the stages above:
# their rulings are Generated FAQ's alone.
gb=$((w * 2 / 3))
gen --entries $((entries * 3 / 5)) --seed 13 --out "$tmp/fr"
printf 'game = Generated FAQ\nlang = fr\n' >"$tmp/fr/.rulings"
for f in "$tmp/fr"/page-*.txt; do
	sed -E 's/\bInvaders\b/Envahisseurs/g; s/\bInvader\b/Envahisseur/g' "$f" \
		>"${f/page-/pagefr-}" && rm "$f"
done
python3 - "$tmp/v1" "$tmp/sifr" 40 <<'PY'
import os, random, re, sys
words = []
for name in sorted(os.listdir(sys.argv[1]))[:4]:
    if name.startswith('page-'):
        words += [w for w in open(os.path.join(sys.argv[1], name),
                                  encoding='utf-8').read().split()
                  if not re.search(r'(?i)invad|envah|\u2022', w)]
rnd = random.Random(3)
os.makedirs(sys.argv[2])
with open(os.path.join(sys.argv[2], '.rulings'), 'w') as f:
    f.write('game = Spirit Island\nlang = fr\n')
with open(os.path.join(sys.argv[2], 'longues.txt'), 'w', encoding='utf-8') as f:
    f.write('Longues\n\nFrequently Asked Questions\n\nLongues\n\n')
    for i in range(int(sys.argv[3])):
        body = [rnd.choice(words) for _ in range(150)]
        body.insert(rnd.randrange(150), 'Envahisseurs')
        f.write('\u2022 Question %d ?\n  %s\n  Tags: Longues\n\n' % (i, ' '.join(body)))
PY
"$rulings" --db "$tmp/t.db" import --quiet --bulk=0 "$tmp/fr" "$tmp/sifr"
glists() { sqlite3 "$tmp/t.db" "SELECT count(*) FROM topk_gterms g JOIN games s
	ON s.id = g.game_id WHERE s.name = 'Spirit Island' AND g.docs > 0 ${1:-}"; }
ok "game lists of Spirit Island's terms" '[ "$(glists "AND g.tbl = '"'fr'"'")" -ge 1 ] && [ "$(dirty)" = 0 ]'
run games-fr --fast fr Invaders Invader
run games --bound $gb 8 80
# more of its rulings: lists that hold 512 of a game's rows, not all
gen --entries $((entries / 2)) --seed 12 --out "$tmp/si2"
sed -i 's/^game = .*/game = Spirit Island/' "$tmp/si2/.rulings"
"$rulings" --db "$tmp/t.db" import --quiet --bulk=0 "$tmp/si2"
ok "game lists that leave rows out" '[ "$(glists "AND g.tau > 0")" -gt 2 ]'
run games-large --bound $gb 12 80

# rulings moved to the other game (whoever writes: the trigger notes
# them as changed), then a thesaurus whose concepts differ (`power` is no
# longer bound to Spirit Island's "Pouvoir", `card` is to "Carte"): the
# game lists are built again at its import
si=$(sqlite3 "$tmp/t.db" "SELECT id FROM games WHERE name = 'Spirit Island'")
faq=$(sqlite3 "$tmp/t.db" "SELECT id FROM games WHERE name = 'Generated FAQ'")
sqlite3 "$tmp/t.db" "UPDATE OR IGNORE rulings SET game_id = $faq WHERE id IN
	(SELECT id FROM rulings WHERE game_id = $si ORDER BY id % 5, id LIMIT 100);
	UPDATE OR IGNORE rulings SET game_id = $si WHERE id IN
	(SELECT id FROM rulings WHERE game_id = $faq ORDER BY id % 7, id LIMIT 200)"
ok "rulings moved between games noted as changed" '[ "$(dirty)" -ge 150 ]'
run moved --bound $gb 10 80
mkdir "$tmp/th"
sed -e 's/^en:Power = fr:Pouvoir$/en:Card = fr:Carte/' "$root/data/thesaurus.txt" \
	>"$tmp/th/thesaurus.txt"
"$rulings" --db "$tmp/t.db" import --quiet "$tmp/th/thesaurus.txt"
gterm() { sqlite3 "$tmp/t.db" "SELECT count(*) FROM topk_gterms WHERE term = '$1'"; }
ok "a new thesaurus's game lists" '[ "$(gterm card)" -ge 1 ] && [ "$(gterm power)" = 0 ]'
run thesaurus --bound $gb 11 80

# a database of schema 14 (no game lists), opened to read: searched as
# before, the same answers; an upgrade (any command that writes) builds
# its game lists
cp "$tmp/t.db" "$tmp/old.db"
sqlite3 "$tmp/old.db" "DROP TABLE topk_gterms; DROP TABLE topk_glists;
	PRAGMA user_version = 14"
old() { "$rulings" --db "$tmp/old.db" search --format json "$@" 2>/dev/null; }
for q in Invaders Dégâts Card; do
	ok "schema 14: $q" '[ -n "$(old $q)" ] &&
		[ "$(old $q)" = "$(RULINGS_TOPK=off old $q)" ]'
done
mkdir "$tmp/none"
"$rulings" --db "$tmp/old.db" import --quiet "$tmp/none" 2>/dev/null
upgraded() { sqlite3 "$tmp/old.db" "PRAGMA user_version;
	SELECT count(*) > 0 FROM topk_gterms" | tr '\n' ' '; }
# (to the latest schema: 15 or later)
ok "the upgrade to schema 15 builds the game lists" 'u=$(upgraded);
	[ "${u%% *}" -ge 15 ] && [ "${u#* }" = "1 " ]'

# a game of many rulings (a tenth of them moved to Spirit Island, the
# 1M benchmark's case), reindexed: one segment an index, no ruling
# changed since the lists. A widened word's game condition reads which
# phrases a candidate holds from the scoring pass (rl_phrases), each
# table seeks its own candidates only, and the total counts the game's
# rows of the word's other-game term through the game lists: the same
# answers as the exhaustive ranking, with each filter (--bound), and
# from the lists (--fast)
sqlite3 "$tmp/t.db" "UPDATE OR IGNORE rulings SET game_id = $si
	WHERE id % 10 = 0"
"$rulings" --db "$tmp/t.db" reindex >/dev/null
ok "a tenth of the rulings in Spirit Island, reindexed" '[ "$(dirty)" = 0 ] &&
	[ "$(sqlite3 "$tmp/t.db" "SELECT count(*) * 12 >= (SELECT count(*) FROM
	rulings) FROM rulings WHERE game_id = $si")" = 1 ]'
run games-tenth --bound $gb 15 80
run games-tenth-fr --fast fr Invaders Envahisseurs Damage Dégâts
run games-tenth-any --fast any Invaders Envahisseurs Damage Dégâts

# The totals of common words with --game and --kind (schema 18): from the
# lists' counts of each term's rows per game and kind, less the withdrawn
# rulings (some English ones withdrawn above) — one word, and one the
# thesaurus widens to Spirit Island's term (Invaders, Damage) — the same
# as the exhaustive join's; then a change of kind (plain SQL, as a user
# would) and a move to another game: noted as changed, the counts not
# used (they would be wrong: topk_check --facets stale fails if they
# are) until the lists are built again
words="use card power Damage Invaders the Isolate Dégâts"
ok "withdrawn rulings among them" '[ "$(sqlite3 "$tmp/t.db" "SELECT count(*)
	FROM rulings WHERE withdrawn_at IS NOT NULL")" -gt 0 ]'
run facets --facets used $words
# a word with a filter that keeps few rulings (tags, --kind errata, a tag
# with --game): only those scored, the same answers as the exhaustive
# ranking; again while rulings changed since the lists (bm25 then, not
# the lists' counts)
run sets --sets $words
# all words (each row scored for both, from both doclists; `power` is
# no thesaurus term since the new thesaurus above)
run sets-pair --sets "use power"
# the one-term reader of those searches (src/ftsseg.c rl_fts_seg_seek,
# rl_fts_seg_row_in) against fts5vocab: common, rare, absent terms
for l in en fr; do run doclist-$l --doclist rulings_fts_$l; done
# the index of several segments while the lists hold (an import would
# note its rulings changed since): 40 English rows of the middle deleted
# from the index and written again, unchanged, in plain SQL (a segment of
# delete markers, then one of the rows). The searches of a small set read
# only its rows, each segment's long doclists through their doclist
# index (src/ftsseg.c rl_fts_seg_only), merged: the same answers
mid="SELECT id, title, body FROM rulings_text_en ORDER BY id LIMIT 40
	OFFSET (SELECT count(*) / 2 FROM rulings_text_en)"
"$check" "$tmp/t.db" --exec rulings_fts_en "INSERT INTO rulings_fts_en(
	rulings_fts_en, rowid, title, body) SELECT 'delete', * FROM ($mid);
	INSERT INTO rulings_fts_en(rowid, title, body) SELECT * FROM ($mid)" >/dev/null
ok "lists up to date, several segments" '[ "$(dirty)" = 0 ] && [ "$(segments en)" -gt 2 ]'
run sets-listed-several --sets-several $words
run doclist-listed-several --doclist rulings_fts_en every $every
sqlite3 "$tmp/t.db" "UPDATE OR IGNORE rulings SET kind = 'errata' WHERE id IN
	(SELECT id FROM rulings WHERE kind = 'faq' AND withdrawn_at IS NULL
	AND title LIKE '%the%' ORDER BY id % 3, id LIMIT 300)"
ok "a change of kind noted as changed" '[ "$(dirty)" -ge 250 ]'
run facets-kind --facets stale $words
run sets-kind --sets $words
"$rulings" --db "$tmp/t.db" reindex >/dev/null
run facets-reindexed --facets used $words
sqlite3 "$tmp/t.db" "UPDATE OR IGNORE rulings SET game_id = $faq WHERE id IN
	(SELECT id FROM rulings WHERE game_id = $si ORDER BY id % 3, id LIMIT 200)"
ok "a move to another game noted as changed" '[ "$(dirty)" -ge 150 ]'
run facets-moved --facets stale $words
# a page imported again as another game's (new rulings there, by the
# store): changed since, until the lists are built again
"$rulings" --db "$tmp/t.db" reindex >/dev/null
mkdir "$tmp/again"
cp "$(ls "$tmp"/v1/page-*.txt | head -n 1)" "$tmp/again/"
printf 'game = Spirit Island\n' >"$tmp/again/.rulings"
"$rulings" --db "$tmp/t.db" import --quiet "$tmp/again"
ok "a page imported again in another game noted as changed" '[ "$(dirty)" -gt 5 ]'
run facets-again --facets stale $words
# that import (a French page) wrote its index segments of their own
# (a page of 160 rulings took one from 1 to 7 in a trial): the one-term
# reader reads them all, each term's doclists merged as FTS5 merges them
# (src/ftsseg.c), so the searches of a set are still scored from the
# doclist (topk_check --sets-several requires it), with the same answers
segs=$(sqlite3 "$tmp/t.db" "SELECT hex(substr(block, 6, 1)) FROM
	rulings_fts_fr_data WHERE id = 10")
ok "an incremental import leaves several segments ($segs in fr)" '[ "$segs" != 01 ]'
run sets-several --sets-several $words
# new versions of English pages, one import each (a segment each): rulings
# edited (each a row deleted and written again: its terms' entries in the
# new segment carry the delete flag, and positions), withdrawn, added;
# the terms an edit took out leave delete markers (entries without
# positions) over the older segments' rows
gen --mutate 0.4 --removed 0.1 --added 0.1 --mseed 9 --from "$tmp/v3" --out "$tmp/v5"
for f in $(ls "$tmp"/v5/page-*.txt | head -n 4); do
	"$rulings" --db "$tmp/t.db" import --quiet --allow-withdraw "$f"
done
ok "edited English pages leave several segments" '[ "$(segments en)" -gt 2 ]'
# (the sanitizer build: half the words, every 61st term)
ws=$words
[ "$scale" = small ] && ws="use power Damage Dégâts"
run sets-edited --sets-several $ws
run doclist-edited --doclist rulings_fts_en every $every
# a merge under way (FTS5's 'merge' of 2 pages, as automerge leaves one
# after a small write): its input segments trimmed, their first leaf
# rewritten, %_idx naming leaves that are gone
out=$("$check" "$tmp/t.db" --exec rulings_fts_en "INSERT INTO
	rulings_fts_en(rulings_fts_en, rank) VALUES ('merge', 2)")
ok "a merge under way ($out)" 'printf "%s\n" "$out" | grep -q "merging [1-9].*trimmed [1-9]"'
run doclist-merging --doclist rulings_fts_en every $every
run sets-merging --sets-several $ws
# a document deleted in plain SQL (its rulings with it, the triggers
# deleting their rows from the index: delete markers in a new segment,
# which FTS5's automerge may merge with the others)
doc=$(sqlite3 "$tmp/t.db" "SELECT s.document_id FROM ruling_sources s JOIN
	rulings r ON r.id = s.ruling_id WHERE r.lang = 'en' GROUP BY
	s.document_id ORDER BY count(*) DESC LIMIT 1")
n=$(sqlite3 "$tmp/t.db" "SELECT count(*) FROM rulings")
"$check" "$tmp/t.db" --exec rulings_fts_en "DELETE FROM rulings WHERE id IN
	(SELECT ruling_id FROM ruling_sources WHERE document_id = $doc);
	DELETE FROM documents WHERE id = $doc" >/dev/null
ok "a document deleted, its rulings with it" '[ "$(sqlite3 "$tmp/t.db" "SELECT count(*) FROM rulings")" -lt $((n - 20)) ]'
run sets-deleted --sets-several $ws
run doclist-deleted --doclist rulings_fts_en every $every
"$rulings" --db "$tmp/t.db" reindex >/dev/null
run facets-again-reindexed --facets used $words
# a spoilt leaf (the second page of the most common English term's
# doclist, cut short): the reader doubts it, and the search fails
# rather than answer from what it read
cp "$tmp/t.db" "$tmp/c.db"
sqlite3 "$tmp/c.db" "UPDATE rulings_fts_en_data SET block = substr(block, 1, 60)
	WHERE id = (SELECT (segid << 37) + (pgno >> 1) + 1 FROM rulings_fts_en_idx
	WHERE term <= CAST('0' || (SELECT term FROM topk_terms WHERE tbl = 'en'
	ORDER BY docs DESC LIMIT 1) AS BLOB) ORDER BY term DESC LIMIT 1)"
out=$("$check" "$tmp/c.db" --doclist rulings_fts_en doubt)
printf '%s\n' "$out" | grep -v '^[0-9]* passed' | sed 's/^/spoilt: /'
ok "a spoilt leaf doubted" 'printf "%s\n" "$out" | tail -n 1 |
	grep -q "^[1-9][0-9]* passed, 0 failed"'
common=$(sqlite3 "$tmp/t.db" "SELECT term FROM topk_terms WHERE tbl = 'en'
	ORDER BY docs DESC LIMIT 1")
ok "a search of a spoilt index fails" '! "$rulings" --db "$tmp/c.db" search "$common" --kind errata >/dev/null 2>&1'
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
