#!/usr/bin/env bash
# Plain SQL keeps the index true (issue 11, point 4): INSERT, UPDATE and
# DELETE on rulings through the sqlite3 shell and through Python's sqlite3
# module, with the rulings_fts extension loaded, keep the full-text tables
# in step (search finds the new words, not the old ones; check says ok);
# without the extension they fail and change nothing. rulings check finds
# a damaged full-text table (exit 65) where FTS5's own integrity-check
# finds it too, and rulings reindex repairs it.
#
#   bash tests/cli/test-plain-sql.sh BUILD/rulings BUILD/rulings_fts.so
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"
need_extension

# sq DB SQL: the sqlite3 shell with the extension loaded; sq_bare: without.
sq() {
	local db=$1
	shift
	run ext_sqlite3 "$EXT" -batch -bail "$db" ".load $EXT_BASE" "$@"
}
sq_bare() {
	run sqlite3 -batch -bail "$@"
}

seed_db p.db
ids_for() {
	rl --db p.db search "$@" --format json
	json_get '" ".join(str(r["id"]) for r in d["results"])' 2>/dev/null
}

# ---- with the extension ---------------------------------------------------------
sq p.db "UPDATE rulings SET body = 'A quagga answer.' WHERE id = 3"
check_exit "sqlite3 + extension: UPDATE a ruling's body" 0
check_eq "search finds the new word" 3 "$(ids_for quagga)"
check_eq "...and not the words only the old text had" "" \
	"$(ids_for thresholds --limit 0 | tr ' ' '\n' | grep -x 3)"
sq p.db "INSERT INTO rulings (kind, key, lang, title, body)
	VALUES ('faq', 'a zebra question?', 'en', 'A zebra question?', 'Zebras answer.')"
check_exit "sqlite3 + extension: INSERT a ruling" 0
zebra=$(sqlite3 p.db "SELECT id FROM rulings WHERE key = 'a zebra question?'")
sq p.db "INSERT INTO ruling_sources (ruling_id, document_id, import_id, line)
	SELECT $zebra, document_id, import_id, 1 FROM ruling_sources LIMIT 1"
check_eq "search finds the inserted ruling" "$zebra" "$(ids_for zebras)"
sq p.db "UPDATE rulings SET lang = 'fr' WHERE id = $zebra"
check_exit "UPDATE its language" 0
check_eq "it moved to the French table" "$zebra" "$(ids_for zebras --lang fr)"
check_eq "...and left the English one" "" "$(ids_for zebras --lang en)"
# (with foreign keys on, as SQL on this database should run: the rows
# that belong to the ruling go with it)
sq p.db "PRAGMA foreign_keys = ON; DELETE FROM rulings WHERE id = $zebra"
check_exit "sqlite3 + extension: DELETE it" 0
check_eq "search no longer finds it" "" "$(ids_for zebras)"
# A search leaves out the full-text tables that hold no row (issue 16):
# which ones hold a row is read at each search, so a language that plain
# SQL brings in, or takes out, is searched at once, without --lang too.
check_eq "the seeds hold English rulings only" "en" \
	"$(sqlite3 p.db "SELECT group_concat(DISTINCT lang) FROM rulings")"
check_eq "no ruling of another language yet" "" "$(ids_for quokka)"
# --explain names the tables the search reads
tables_for() {
	rl --db p.db search --explain "$@"
	grep '^tables:' "$OUT"
}
check_eq "--explain: the English table alone" "tables: rulings_fts_en" \
	"$(tables_for quokka)"
sq p.db "INSERT INTO rulings (kind, key, lang, title, body)
	VALUES ('faq', 'ein quokka?', 'de', 'Ein Quokka?', 'Quokkas antworten.');
	INSERT INTO rulings (kind, key, lang, title, body)
	VALUES ('faq', 'un quokka ?', 'fr', 'Un quokka ?', 'Les quokkas répondent.')"
check_exit "sqlite3 + extension: INSERT a German and a French ruling" 0
de=$(sqlite3 p.db "SELECT id FROM rulings WHERE key = 'ein quokka?'")
fr=$(sqlite3 p.db "SELECT id FROM rulings WHERE key = 'un quokka ?'")
check_eq "a search without --lang finds both new languages' rulings" \
	"$(printf '%s\n' "$de" "$fr" | sort -n | xargs)" \
	"$(ids_for quokka | tr ' ' '\n' | sort -n | xargs)"
check_eq "...the French one by its French form" "$fr" "$(ids_for répondent)"
check_eq "--explain: the tables that hold rows now" \
	"tables: rulings_fts_en rulings_fts_fr rulings_fts_xx" "$(tables_for quokka)"
sq p.db "PRAGMA foreign_keys = ON; DELETE FROM rulings WHERE id = $de;
	UPDATE rulings SET lang = 'en' WHERE id = $fr"
check_exit "DELETE the German one, move the French one to English" 0
check_eq "the other languages' tables empty again: still found" "$fr" \
	"$(ids_for quokka)"
check_eq "--explain: the English table alone again" "tables: rulings_fts_en" \
	"$(tables_for quokka)"
rl --db p.db search quokka --lang de
check_exit "--lang de, no German ruling left: no match" 1
rl --db p.db search defend --limit 1
check_exit "a search of the English table alone still answers" 0
sq p.db "PRAGMA foreign_keys = ON; DELETE FROM rulings WHERE id = $fr"
rl --db p.db check
check_exit "after INSERT, UPDATE, DELETE by hand: check says ok" 0
check_out_contains "...ok" "ok"
sq p.db "INSERT INTO rulings_fts_en (rulings_fts_en) VALUES ('integrity-check');
	INSERT INTO rulings_fts_fr (rulings_fts_fr) VALUES ('integrity-check')"
check_exit "...and so does FTS5's integrity-check" 0

# Python's sqlite3 module (Debian's; the pyenv one cannot load extensions);
# an extension built with AddressSanitizer needs the sanitizer runtimes preloaded
# (as ext_sqlite3 does for the shell), and Python's own allocations are no
# leaks of ours
py_ext() {
	local rt
	rt=$(sanitizer_preload "$EXT")
	if [ -n "$rt" ]; then
		LD_PRELOAD="$rt" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			/usr/bin/python3 "$@"
	else
		/usr/bin/python3 "$@"
	fi
}
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c \
	'import sqlite3; sqlite3.connect(":memory:").enable_load_extension(True)' 2>/dev/null; then
	run py_ext - p.db "$EXT_BASE" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.enable_load_extension(True)
c.load_extension(sys.argv[2])
c.execute("UPDATE rulings SET title = 'Okapi question' WHERE id = 4")
c.commit()
print(c.execute("SELECT rowid FROM rulings_fts_en WHERE rulings_fts_en MATCH 'okapi'").fetchall())
PY
	check_exit "Python + extension: UPDATE a title" 0
	check_out_contains "...its MATCH finds it" "[(4,)]"
	check_eq "rulings search finds it" 4 "$(ids_for okapi)"
	run /usr/bin/python3 - p.db <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
try:
    c.execute("UPDATE rulings SET title = 'Wombat' WHERE id = 4")
    c.commit()
    print("written")
except sqlite3.Error as e:
    print("refused:", e)
PY
	check_out_contains "Python without the extension: the UPDATE is refused" "refused"
	check_out_contains "...with a message that says what to do" \
		"no such function: load the rulings_fts extension to write to rulings"
	check_eq "...and changed nothing" 4 "$(ids_for okapi)"
else
	echo "# /usr/bin/python3 cannot load SQLite extensions: its part skipped"
fi

# ---- without the extension: the write fails and changes nothing -----------------
sum=$(sqlite3 p.db 'SELECT group_concat(title || body) FROM rulings')
sq_bare p.db "UPDATE rulings SET body = 'stale words' WHERE id = 5"
check_exit "sqlite3 without the extension: UPDATE of a body fails" 1
# (SQLite's message, the name of the function the triggers call: what to
# load, true for any install; the manual's FILES says where it is)
WANT='no such function: load the rulings_fts extension to write to rulings (rulings_fts.so, installed with rulings; man rulings, FILES)'
check_err_contains "...saying what to do" "$WANT"
sq_bare p.db "INSERT INTO rulings (kind, key, lang, title, body)
	VALUES ('faq', 'x', 'en', 'X', 'Y')"
check_exit "...INSERT fails" 1
check_err_contains "...saying the same" "$WANT"
sq_bare p.db "DELETE FROM rulings WHERE id = 6"
check_exit "...DELETE fails" 1
check_err_contains "...saying the same" "$WANT"
check_eq "...and nothing changed" "$sum" \
	"$(sqlite3 p.db 'SELECT group_concat(title || body) FROM rulings')"
sq_bare p.db "UPDATE rulings SET changed = 1 WHERE id = 5"
check_exit "an UPDATE of other columns works without it" 0
rl --db p.db check
check_exit "check: still ok" 0

# ---- schema 8's triggers: upgraded, a user's own kept ----------------------------
# A database as the schema before 016-plain-sql.sql left it (15): the triggers of schema/008-identity.sql
# (calling rl_importing()), one of them rewritten by its user to also note
# each update; its first writing command upgrades it.
SCHEMA=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../schema" && pwd)
# (the version before the migration's, by its file's name)
BEFORE=$(($(cd "$SCHEMA" && ls [0-9][0-9][0-9]-plain-sql.sql | sed 's/^0*//; s/-.*//') - 1))
seed_db u.db
sqlite3 u.db <"$SCHEMA/008-identity.sql"
own="CREATE TRIGGER rulings_fts_update AFTER UPDATE OF id, title, body, lang
ON rulings WHEN NOT rl_importing() BEGIN
  INSERT INTO edits (id) VALUES (new.id);
  INSERT INTO rulings_fts_en(rulings_fts_en, rowid, title, body)
    SELECT 'delete', old.id, old.title, old.body WHERE old.lang = 'en';
  INSERT INTO rulings_fts_en(rowid, title, body)
    SELECT new.id, new.title, new.body WHERE new.lang = 'en';
END"
sqlite3 u.db "CREATE TABLE edits (id INTEGER); DROP TRIGGER rulings_fts_update;
	$own; PRAGMA user_version = $BEFORE"
sq_bare u.db "UPDATE rulings SET body = 'x' WHERE id = 5"
check_err_contains "(a schema $BEFORE database without the extension: rl_importing)" \
	"no such function: rl_importing"
rl --db u.db import --quiet "$SEED_SPEED"
check_exit "an import upgrades it" 0
check_eq "...to the latest version" "$(cd "$SCHEMA" && ls [0-9][0-9][0-9]-*.sql |
	tail -n 1 | sed 's/^0*//; s/-.*//')" "$(sqlite3 u.db 'PRAGMA user_version')"
check_eq "...the user's own trigger kept, as written" "$own" \
	"$(sqlite3 u.db "SELECT sql FROM sqlite_schema WHERE name = 'rulings_fts_update'")"
check_eq "...the schema's two replaced" 2 "$(sqlite3 u.db "SELECT count(*)
	FROM sqlite_schema WHERE name IN ('rulings_fts_insert', 'rulings_fts_delete')
	AND instr(sql, 'load the rulings_fts extension')")"
sq_bare u.db "DELETE FROM rulings WHERE id = 6"
check_err_contains "...without the extension a DELETE says what to do" "$WANT"
sq u.db "UPDATE rulings SET body = 'An ibex answer.' WHERE id = 5"
check_exit "with it, the user's trigger (rl_importing()) runs" 0
check_eq "...its note made" 5 "$(sqlite3 u.db 'SELECT group_concat(id) FROM edits')"
rl --db u.db search ibex --format json
check_json "...and the index kept" '[r["id"] for r in d["results"]] == [5]'
rl --db u.db reindex
check_exit "reindex" 0
check_eq "...keeps the user's own trigger" "$own" \
	"$(sqlite3 u.db "SELECT sql FROM sqlite_schema WHERE name = 'rulings_fts_update'")"
sqlite3 u.db "DROP TRIGGER rulings_fts_insert"
rl --db u.db reindex
check_eq "...and restores a dropped one, as the schema gives it" 1 \
	"$(sqlite3 u.db "SELECT count(*) FROM sqlite_schema WHERE name =
	'rulings_fts_insert' AND instr(sql, 'load the rulings_fts extension')")"
rl --db u.db check
check_exit "check: ok" 0

# ---- schema 16's triggers (a "LIBDIR/..." in their function's name): upgraded ---
# A database as schema 16 to 19 left it: the triggers of 016-plain-sql.sql;
# its first writing command gives it those of trigger-words, whose message
# names no directory that is no install's. A user's trigger copied from
# schema 16's, calling its function, runs with the extension.
OLD16='load the rulings_fts extension to write to rulings (LIBDIR/rulings/rulings_fts.so; man rulings)'
BEFORE20=$(($(cd "$SCHEMA" && ls [0-9][0-9][0-9]-trigger-words.sql | sed 's/^0*//; s/-.*//') - 1))
seed_db s16.db
sqlite3 s16.db "DROP TRIGGER rulings_fts_insert; DROP TRIGGER rulings_fts_update;
	DROP TRIGGER rulings_fts_delete"
sed -n '/^CREATE TRIGGER/,$p' "$SCHEMA"/[0-9][0-9][0-9]-plain-sql.sql | sqlite3 s16.db
sqlite3 s16.db "PRAGMA user_version = $BEFORE20"
check_eq "(a schema $BEFORE20 database: schema 16's three triggers)" 3 "$(sqlite3 s16.db \
	"SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND instr(sql, '$OLD16')")"
sq_bare s16.db "DELETE FROM rulings WHERE id = 6"
check_err_contains "...without the extension: schema 16's message" "no such function: $OLD16"
rl --db s16.db import --quiet "$SEED_SPEED"
check_exit "an import upgrades it" 0
check_eq "...its triggers now call the function of the words true for any install" 3 \
	"$(sqlite3 s16.db "SELECT count(*) FROM sqlite_schema WHERE type = 'trigger'
	AND instr(sql, 'installed with rulings; man rulings, FILES')")"
sq_bare s16.db "DELETE FROM rulings WHERE id = 6"
check_err_contains "...and say so without the extension" "$WANT"
sqlite3 s16.db "CREATE TABLE notes (id INTEGER);
	CREATE TRIGGER my_note AFTER UPDATE OF changed ON rulings
	WHEN NOT \"$OLD16\"() BEGIN INSERT INTO notes VALUES (new.id); END"
sq s16.db "UPDATE rulings SET changed = 1 WHERE id = 5"
check_exit "a user's trigger calling schema 16's function runs with the extension" 0
check_eq "...its note made" 5 "$(sqlite3 s16.db 'SELECT group_concat(id) FROM notes')"
rl --db s16.db check
check_exit "check: ok" 0

# ---- a damaged full-text table: check finds it, reindex repairs it --------------
# Without the trigger (as a tool that drops it would leave it), an UPDATE
# leaves the index stale.
cp p.db d.db
sqlite3 d.db "DROP TRIGGER rulings_fts_update;
	UPDATE rulings SET body = 'giraffe' WHERE id = 7;
	UPDATE rulings SET title = 'Narwhal' WHERE id = 8;"
rl --db d.db check
check_exit "check on a stale index: exit 65" 65
check_out_contains "...names the table and the ruling" \
	"rulings_fts_en: ruling 7 is in its index with text it does not have"
check_out_contains "...and the other" "ruling 8"
check_err_contains "...and counts the problems" "problems found"
rl --db d.db check --format json
check_exit "check --format json: exit 65 too" 65
check_json "...lists the problems" 'not d["ok"] and len(d["problems"]) >= 2'
# damage inside the index itself (the segments' pages)
cp p.db c.db
sqlite3 c.db "UPDATE rulings_fts_en_data SET block = zeroblob(length(block))
	WHERE id > 10"
rl --db c.db check
check_exit "check on a corrupt index: exit 65" 65
check_out_contains "...says the index cannot be read" "rulings_fts_en: its index cannot be read"
sq c.db "INSERT INTO rulings_fts_en (rulings_fts_en) VALUES ('integrity-check')"
check_eq "(FTS5's integrity-check agrees)" yes "$([ "$STATUS" != 0 ] && echo yes)"
rl --db c.db reindex
check_exit "reindex" 0
check_out_contains "...says what it did" "reindexed"
rl --db c.db check
check_exit "check after reindex: ok" 0
sq c.db "INSERT INTO rulings_fts_en (rulings_fts_en) VALUES ('integrity-check')"
check_exit "FTS5's integrity-check after reindex: ok" 0
rl --db d.db reindex
rl --db d.db check
check_exit "the stale index after reindex: ok" 0
rl --db d.db search giraffe --format json
check_json "search finds the text the ruling has now" 'd["results"][0]["id"] == 7'

# a fold that does not match its text (stored by hand), and a ruling
# without a source
sqlite3 d.db "UPDATE tags SET name_fold = 'something else' WHERE id = 1;
	INSERT INTO ruling_aliases (ruling_id, alias_fold) VALUES (7, 'ÉCLAIR')"
rl --db d.db check
check_exit "a wrong fold and alias: exit 65" 65
check_out_contains "...the tag's fold" "tag 1 ("
check_out_contains "...the alias" "alias 'ÉCLAIR'"
rl --db d.db reindex
rl --db d.db check
check_exit "...reindex recomputes them" 0
sqlite3 d.db "DELETE FROM ruling_sources WHERE ruling_id = 9"
rl --db d.db check
check_exit "a ruling without a source: exit 65" 65
check_out_contains "...named" "ruling 9 ("
# a ruling deleted with foreign keys off (the sqlite3 shell's default)
# leaves rows that point at it: check finds them and says what repairs
# them; reindex deletes them, or clears a reference to it, as the
# DELETE would have with foreign keys on (the same rows as a copy
# deleted so)
# (data/: rules that name rules, errata)
rl --db o.db import "$DATA"
cp o.db o-fk.db
# the rulings most referred to, one of them with errata if any: every
# kind of row a ruling has
gone=$(sqlite3 o.db "SELECT target_id FROM refs WHERE target_id IS NOT NULL
	GROUP BY target_id ORDER BY count(*) DESC LIMIT 3" | tr '\n' ' ')
gone="$gone $(sqlite3 o.db "SELECT ruling_id FROM errata LIMIT 1")"
gone=$(echo $gone | tr ' ' ',')
sq o.db "DELETE FROM rulings WHERE id IN ($gone)"
sq o-fk.db "PRAGMA foreign_keys = ON; DELETE FROM rulings WHERE id IN ($gone)"
rl --db o.db check
check_exit "rows left by a DELETE without foreign keys: exit 65" 65
check_out_contains "...found by the foreign key check, with the repair" \
	"a ruling_sources row refers to a rulings row that does not exist; 'rulings reindex' deletes it, as a DELETE with PRAGMA foreign_keys = ON would have"
check_out_contains "...a reference to a deleted ruling too" \
	"'rulings reindex' clears the reference, as a DELETE with PRAGMA foreign_keys = ON would have"
rl --db o.db reindex
check_exit "reindex" 0
check_out_contains "...removes or unlinks them, saying how many" \
	"rows of deleted rulings removed or unlinked (a DELETE without PRAGMA foreign_keys = ON leaves them)"
rl --db o.db check
check_exit "...then check passes" 0
rows() {
	local t
	for t in ruling_sources ruling_tags refs errata changes ruling_versions \
		version_rulings ruling_aliases; do
		printf '%s ' "$t" && sqlite3 "$1" "SELECT count(*) FROM $t"
	done
	printf 'unresolved ' && sqlite3 "$1" "SELECT count(*) FROM refs WHERE target_id IS NULL"
}
check_eq "...the rows a DELETE with foreign keys on leaves" "$(rows o-fk.db)" "$(rows o.db)"
rl --db o.db reindex
check_not_contains "...and nothing more the next time" "$(cat "$OUT")" "removed or unlinked"

# ---- a copy by sqlite3's .clone: its full-text tables missing ----------------------
# .clone makes each table anew in a new connection, which has not the
# rl_stem tokenizer (the extension loaded into the shell's own connection
# or not): of the full-text tables only their shadow tables come across,
# nor does the schema version. rulings says what happened and reindex
# makes them again.
sq_bare p.db ".clone cl.db" >/dev/null
check_eq ".clone without the extension: no rulings_fts_en" 0 \
	"$(sqlite3 cl.db "SELECT count(*) FROM sqlite_schema WHERE name = 'rulings_fts_en'")"
sqlite3 cl.db "PRAGMA application_id = $(sqlite3 p.db 'PRAGMA application_id');
	PRAGMA user_version = $(sqlite3 p.db 'PRAGMA user_version')"
rl --db cl.db search answer
check_exit "search on it: exit 65" 65
check_err_contains "...says which table is missing and why" \
	"the full-text table rulings_fts_"
check_err_contains "...a copy made without the extension" \
	"is missing: the database is a copy made without the rulings_fts extension (sqlite3's .clone cannot make the table without it)"
check_err_contains "...and the way out" "'rulings reindex' makes the full-text tables again"
rl --db cl.db check
check_exit "check on it: exit 70" 70
check_err_contains "...names the missing table and reindex" \
	"the full-text table rulings_fts_en is missing (a copy made without the rulings_fts extension, as sqlite3's .clone makes): 'rulings reindex' makes it again from the rulings"
rl --db cl.db reindex
check_exit "reindex on it" 0
rl --db cl.db check
check_exit "...then check passes" 0
check_eq "...and search finds what the original finds" \
	"$(rl --db p.db search answer --limit 0 --format json && json_get 'sorted(r["id"] for r in d["results"])')" \
	"$(rl --db cl.db search answer --limit 0 --format json && json_get 'sorted(r["id"] for r in d["results"])')"

# check reads only: a sound database passes, on a read-only file too
chmod 444 p.db
rl --db p.db check
check_exit "check on a read-only file" 0
chmod 644 p.db

finish
