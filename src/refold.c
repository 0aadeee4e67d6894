/* refold.c — making the stored identity agree with the folding of this
 * rulings (rl_fold, rl_key, rl_key_loose), and rebuilding the full-text
 * tables: the upgrade to schema 8 and `rulings reindex`.
 *
 * A fold column or key is computed when a row is stored; when folding
 * changes (it did: utf8proc's full case folding, apostrophes), rows stored
 * before keep the old form and would no longer meet rows stored since.
 * rl_refold() computes every one again. Where two tags, or two rulings of
 * one game, kind and language (in small letters: "FR" is "fr"), now have
 * the same identity, they are merged into one, the first (a current
 * ruling before a withdrawn one):
 * it gains the other's sources, tags, versions, recorded changes, aliases
 * and errata details, and references to the other point at it. A version
 * both had from the same import keeps the first's text.
 *
 * rl_reindex() also makes the triggers of schema 16 whole again, for
 * whoever dropped one, and the full-text tables that a copy by sqlite3's
 * .clone lacks. */
#include "db.h"
#include "schema.h"
#include "topk.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const rl_fts_tables[4] = {
	"rulings_fts_en", "rulings_fts_fr", "rulings_fts_ru", "rulings_fts_xx",
};

/* The tags: temp.refold_map maps each tag that is merged away to the one
 * that stays. */
static const char tags_sql[] =
	"CREATE TEMP TABLE IF NOT EXISTS refold_tags"
	" (id INTEGER PRIMARY KEY, nf TEXT, qf TEXT);"
	"CREATE TEMP TABLE IF NOT EXISTS refold_map"
	" (old INTEGER PRIMARY KEY, new INTEGER);"
	"DELETE FROM temp.refold_tags; DELETE FROM temp.refold_map;"
	"INSERT INTO temp.refold_tags SELECT id, rl_fold(name), rl_fold(qualifier)"
	" FROM tags;"
	"INSERT INTO temp.refold_map SELECT id, keep FROM (SELECT id, min(id)"
	" OVER (PARTITION BY nf, qf) AS keep FROM temp.refold_tags)"
	" WHERE keep <> id;";

static const char tags_merge_sql[] =
	"INSERT OR IGNORE INTO ruling_tags (ruling_id, tag_id, document_id, origin)"
	" SELECT t.ruling_id, m.new, t.document_id, t.origin FROM ruling_tags t"
	" JOIN temp.refold_map m ON m.old = t.tag_id;"
	"DELETE FROM tags WHERE id IN (SELECT old FROM temp.refold_map);"
	/* a fold that changes goes through a placeholder no fold can be, so
	 * that no two rows meet on the way (UNIQUE (name_fold, qual_fold)) */
	"UPDATE tags SET name_fold = char(1) || id WHERE id IN (SELECT f.id"
	" FROM temp.refold_tags f JOIN tags g ON g.id = f.id"
	" WHERE g.name_fold IS NOT f.nf OR g.qual_fold IS NOT f.qf);"
	"UPDATE tags SET (name_fold, qual_fold) = (SELECT nf, qf"
	" FROM temp.refold_tags f WHERE f.id = tags.id)"
	" WHERE name_fold = char(1) || id;";

/* The rulings, the same way: by game, kind, language and key. */
static const char rulings_sql[] =
	"CREATE TEMP TABLE IF NOT EXISTS refold_rulings"
	" (id INTEGER PRIMARY KEY, k TEXT);"
	"DELETE FROM temp.refold_rulings; DELETE FROM temp.refold_map;"
	"INSERT INTO temp.refold_rulings SELECT id, rl_key(key) FROM rulings;"
	"INSERT INTO temp.refold_map SELECT id, keep FROM (SELECT r.id,"
	" first_value(r.id) OVER (PARTITION BY ifnull(r.game_id, 0), r.kind,"
	" lower(r.lang), f.k ORDER BY r.withdrawn_at IS NOT NULL, r.id) AS keep"
	" FROM rulings r JOIN temp.refold_rulings f ON f.id = r.id)"
	" WHERE keep <> id;";

/* The languages in small letters (lang_sql, after the merge: rulings of
 * "FR" and "fr" of one game, kind and key are merged as above). Before
 * b19e79e and fc08a5c a manifest's "lang = FR" or a page's "Language: FR"
 * was stored as written, and its rulings went to the full-text table of
 * other languages: they move to their language's, here, with the
 * triggers set aside (rl_refold). */
static const char lang_sql[] =
	"CREATE TEMP TABLE IF NOT EXISTS refold_lang (id INTEGER PRIMARY KEY);"
	"DELETE FROM temp.refold_lang;"
	"INSERT INTO temp.refold_lang SELECT id FROM rulings"
	" WHERE lang <> lower(lang);"
	"UPDATE rulings SET lang = lower(lang)"
	" WHERE id IN (SELECT id FROM temp.refold_lang);"
	"INSERT INTO rulings_fts_xx (rulings_fts_xx, rowid, title, body)"
	" SELECT 'delete', id, title, body FROM rulings"
	" WHERE id IN (SELECT id FROM temp.refold_lang)"
	" AND lang IN ('en', 'fr', 'ru');"
	"INSERT INTO rulings_fts_en (rowid, title, body) SELECT id, title, body"
	" FROM rulings WHERE id IN (SELECT id FROM temp.refold_lang)"
	" AND lang = 'en';"
	"INSERT INTO rulings_fts_fr (rowid, title, body) SELECT id, title, body"
	" FROM rulings WHERE id IN (SELECT id FROM temp.refold_lang)"
	" AND lang = 'fr';"
	"INSERT INTO rulings_fts_ru (rowid, title, body) SELECT id, title, body"
	" FROM rulings WHERE id IN (SELECT id FROM temp.refold_lang)"
	" AND lang = 'ru';"
	"DELETE FROM temp.refold_lang;";

/* the versions' listings (schema 13; a refold during an upgrade from
 * before it has none) */
static const char listings_merge_sql[] =
	"INSERT OR IGNORE INTO version_rulings (import_id, ruling_id, title,"
	" body, marked) SELECT v.import_id, m.new, v.title, v.body, v.marked"
	" FROM version_rulings v JOIN temp.refold_map m ON m.old = v.ruling_id";

static bool has_listings(rl_db *db)
{
	sqlite3_stmt *st = NULL;
	bool has = sqlite3_prepare_v2(db->h, "SELECT 1 FROM sqlite_master"
	                              " WHERE name = 'version_rulings'", -1, &st,
	                              NULL) == SQLITE_OK
	           && sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return has;
}

/* A ruling withdrawn by the very import that added the one it is merged
 * into was that ruling under its old identity (a document imported
 * again once its "FR" was read as "fr", or its keys folded anew): the
 * two changes are one, an edit from the withdrawn text to the added one,
 * or none when the text stayed. */
static const char changes_merge_sql[] =
	"CREATE TEMP TABLE IF NOT EXISTS refold_pairs"
	" (added INTEGER PRIMARY KEY, withdrawn INTEGER);"
	"DELETE FROM temp.refold_pairs;"
	"INSERT OR IGNORE INTO temp.refold_pairs SELECT a.id, w.id FROM changes w"
	" JOIN temp.refold_map m ON m.old = w.ruling_id"
	" JOIN changes a ON a.ruling_id = m.new AND a.import_id = w.import_id"
	" AND a.change = 'added' WHERE w.change = 'withdrawn';"
	"UPDATE changes SET change = 'edited', (old_title, old_body) ="
	" (SELECT w.old_title, w.old_body FROM temp.refold_pairs p"
	" JOIN changes w ON w.id = p.withdrawn WHERE p.added = changes.id)"
	" WHERE id IN (SELECT added FROM temp.refold_pairs);"
	"DELETE FROM changes WHERE id IN (SELECT withdrawn FROM temp.refold_pairs)"
	" OR (id IN (SELECT added FROM temp.refold_pairs)"
	" AND old_title IS new_title AND old_body IS new_body);"
	"DELETE FROM temp.refold_pairs;";

static const char rulings_merge_sql[] =
	"INSERT OR IGNORE INTO ruling_sources (ruling_id, document_id, import_id,"
	" line, hidden_tags) SELECT m.new, s.document_id, s.import_id, s.line,"
	" s.hidden_tags FROM ruling_sources s"
	" JOIN temp.refold_map m ON m.old = s.ruling_id;"
	"INSERT OR IGNORE INTO ruling_tags (ruling_id, tag_id, document_id, origin)"
	" SELECT m.new, t.tag_id, t.document_id, t.origin FROM ruling_tags t"
	" JOIN temp.refold_map m ON m.old = t.ruling_id;"
	"INSERT OR IGNORE INTO ruling_versions (ruling_id, import_id, title, body)"
	" SELECT m.new, v.import_id, v.title, v.body FROM ruling_versions v"
	" JOIN temp.refold_map m ON m.old = v.ruling_id;"
	"INSERT OR IGNORE INTO ruling_aliases (ruling_id, alias_fold)"
	" SELECT m.new, a.alias_fold FROM ruling_aliases a"
	" JOIN temp.refold_map m ON m.old = a.ruling_id;"
	"INSERT OR IGNORE INTO errata (ruling_id, product, printing, document, page)"
	" SELECT m.new, e.product, e.printing, e.document, e.page FROM errata e"
	" JOIN temp.refold_map m ON m.old = e.ruling_id;"
	"UPDATE changes SET ruling_id = (SELECT new FROM temp.refold_map"
	" WHERE old = changes.ruling_id)"
	" WHERE ruling_id IN (SELECT old FROM temp.refold_map);"
	"UPDATE refs SET target_id = (SELECT new FROM temp.refold_map"
	" WHERE old = refs.target_id)"
	" WHERE target_id IN (SELECT old FROM temp.refold_map);"
	/* the rest goes with the ruling (ON DELETE CASCADE), and its text
	 * leaves the full-text table (the delete trigger) */
	"DELETE FROM rulings WHERE id IN (SELECT old FROM temp.refold_map);"
	"UPDATE rulings SET key = char(1) || id WHERE id IN (SELECT f.id"
	" FROM temp.refold_rulings f JOIN rulings r ON r.id = f.id"
	" WHERE r.key IS NOT f.k);"
	"UPDATE rulings SET key = (SELECT k FROM temp.refold_rulings f"
	" WHERE f.id = rulings.id) WHERE key = char(1) || id;";

/* Thesaurus terms and aliases are looked up by their loose key: those
 * that meet within a concept or a ruling become one. */
static const char loose_sql[] =
	"CREATE TEMP TABLE IF NOT EXISTS refold_terms"
	" (concept_id INTEGER, term TEXT, f TEXT, lang TEXT);"
	"DELETE FROM temp.refold_terms;"
	"INSERT INTO temp.refold_terms SELECT concept_id, term,"
	" rl_key_loose(term), lang FROM concept_terms"
	" WHERE EXISTS (SELECT 1 FROM concept_terms"
	"   WHERE term_fold IS NOT rl_key_loose(term));"
	"DELETE FROM concept_terms WHERE EXISTS (SELECT 1 FROM temp.refold_terms);"
	"INSERT OR IGNORE INTO concept_terms (concept_id, term, term_fold, lang)"
	" SELECT concept_id, term, f, lang FROM temp.refold_terms"
	" ORDER BY concept_id, term;"
	"CREATE TEMP TABLE IF NOT EXISTS refold_aliases (ruling_id INTEGER, f TEXT);"
	"DELETE FROM temp.refold_aliases;"
	"INSERT INTO temp.refold_aliases SELECT ruling_id,"
	" rl_key_loose(alias_fold) FROM ruling_aliases"
	" WHERE EXISTS (SELECT 1 FROM ruling_aliases"
	"   WHERE alias_fold IS NOT rl_key_loose(alias_fold));"
	"DELETE FROM ruling_aliases"
	" WHERE EXISTS (SELECT 1 FROM temp.refold_aliases);"
	"INSERT OR IGNORE INTO ruling_aliases (ruling_id, alias_fold)"
	" SELECT ruling_id, f FROM temp.refold_aliases;";

static int count_map(rl_db *db, long long *n)
{
	sqlite3_stmt *st = rl_db_prepare(db, "SELECT count(*) FROM temp.refold_map");
	if (!st)
		return RL_EINTERNAL;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*n += sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? RL_OK : rl_db_sqlite_fail(db, rc, "refold");
}

/* Each full-text table given FTS5 command what ('rebuild', 'optimize'). */
static int fts_command(rl_db *db, const char *what)
{
	int rc = RL_OK;
	for (size_t i = 0; i < 4 && !rc; i++) {
		char sql[128];
		snprintf(sql, sizeof sql, "INSERT INTO %s (%s) VALUES ('%s')",
		         rl_fts_tables[i], rl_fts_tables[i], what);
		rc = rl_db_exec(db, sql);
	}
	return rc;
}

static int rebuild(rl_db *db)
{
	return fts_command(db, "rebuild");
}

int rl_refold(rl_db *db, bool fts, long long *rulings, long long *tags)
{
	/* a rebuilt index first: the delete trigger then works on a sound
	 * one, even where the old one was damaged */
	int rc = fts ? rebuild(db) : RL_OK;
	if (!rc)
		rc = rl_db_exec(db, tags_sql);
	if (!rc)
		rc = count_map(db, tags);
	if (!rc)
		rc = rl_db_exec(db, tags_merge_sql);
	if (!rc)
		rc = rl_db_exec(db, rulings_sql);
	if (!rc)
		rc = count_map(db, rulings);
	if (!rc && has_listings(db))
		rc = rl_db_exec(db, listings_merge_sql);
	if (!rc)
		rc = rl_db_exec(db, changes_merge_sql);
	if (!rc)
		rc = rl_db_exec(db, rulings_merge_sql);
	if (!rc) {
		/* (the full-text tables fed here, as an import feeds them) */
		bool importing = db->importing;
		db->importing = true;
		rc = rl_db_exec(db, lang_sql);
		db->importing = importing;
	}
	if (!rc)
		rc = rl_db_exec(db, loose_sql);
	if (!rc)
		rc = rl_db_exec(db, "DELETE FROM temp.refold_map;"
		                "DELETE FROM temp.refold_tags;"
		                "DELETE FROM temp.refold_rulings;"
		                "DELETE FROM temp.refold_terms;"
		                "DELETE FROM temp.refold_aliases;");
	return rc;
}

/* The keys a row can be left dangling under, with what SQLite does to it
 * when its parent row is deleted with PRAGMA foreign_keys = ON: its
 * table, column, parent table and column, ON DELETE action (the keys
 * are of one column each). */
static const char dangling_sql[] =
	"SELECT DISTINCT c.\"table\", l.\"from\", l.\"table\", l.\"to\","
	" l.on_delete = 'CASCADE'"
	" FROM pragma_foreign_key_check c,"
	" pragma_foreign_key_list(c.\"table\") l"
	" WHERE l.id = c.fkid AND l.\"to\" IS NOT NULL"
	" AND l.on_delete IN ('CASCADE', 'SET NULL')"
	" AND NOT EXISTS (SELECT 1 FROM pragma_foreign_key_list(c.\"table\") m"
	" WHERE m.id = l.id AND m.seq > 0)";

/* What a DELETE run without PRAGMA foreign_keys = ON (the sqlite3 shell's
 * default, and Python's) left undone, done as SQLite does it with them
 * on: each row whose parent row is gone deleted (ON DELETE CASCADE) or
 * its reference cleared (SET NULL); again while a pass changes rows. A
 * row under a NO ACTION key (a game deleted under its rulings) is left
 * for check to report. *n counts the rows. */
static int dangling(rl_db *db, long long *n)
{
	int rc = RL_OK;
	for (int pass = 0; pass < 16 && !rc; pass++) {
		/* the statements first, then run: no table is written while
		 * the check reads it */
		sqlite3_stmt *st = rl_db_prepare(db, dangling_sql);
		if (!st)
			return RL_EINTERNAL;
		char *sql[64];
		size_t k = 0;
		int s = SQLITE_DONE;
		while (!rc && k < sizeof sql / sizeof *sql &&
		       (s = sqlite3_step(st)) == SQLITE_ROW) {
			const char *t = (const char *)sqlite3_column_text(st, 0);
			const char *col = (const char *)sqlite3_column_text(st, 1);
			const char *p = (const char *)sqlite3_column_text(st, 2);
			const char *pc = (const char *)sqlite3_column_text(st, 3);
			char *cond = sqlite3_mprintf("\"%w\" IS NOT NULL AND NOT"
				" EXISTS (SELECT 1 FROM \"%w\" p WHERE p.\"%w\" ="
				" \"%w\".\"%w\")", col, p, pc, t, col);
			sql[k] = !cond ? NULL : sqlite3_column_int(st, 4)
				? sqlite3_mprintf("DELETE FROM \"%w\" WHERE %s", t, cond)
				: sqlite3_mprintf("UPDATE \"%w\" SET \"%w\" = NULL"
				                  " WHERE %s", t, col, cond);
			sqlite3_free(cond);
			if (!sql[k])
				rc = RL_ENOMEM;
			else
				k++;
		}
		if (!rc && k < sizeof sql / sizeof *sql && s != SQLITE_DONE)
			rc = rl_db_sqlite_fail(db, s, "reindex");
		sqlite3_finalize(st);
		long long before = *n;
		for (size_t i = 0; i < k; i++) {
			if (!rc && !(rc = rl_db_exec(db, sql[i])))
				*n += sqlite3_changes(db->h);
			sqlite3_free(sql[i]);
		}
		if (*n == before)
			break;
	}
	return rc;
}

/* The full-text tables that a copy made by a program without the
 * rulings_fts extension lacks (sqlite3's .clone creates each anew, which
 * needs the rl_stem tokenizer: without it only their shadow tables come
 * across): made again as the last migration that makes each says, their
 * shadow tables dropped first; reindex then fills them from rulings. */
static int fts_restore(rl_db *db)
{
	static const char create[] = "CREATE VIRTUAL TABLE ";
	static const char *const shadows[] = { "data", "idx", "docsize",
		"config", "content" };
	int rc = RL_OK;
	for (size_t t = 0; t < 4 && !rc; t++) {
		const char *name = rl_fts_tables[t];
		sqlite3_stmt *st = rl_db_prepare(db, "SELECT 1 FROM sqlite_schema"
			" WHERE type = 'table' AND name = ?1");
		if (!st)
			return RL_EINTERNAL;
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		int s = sqlite3_step(st);
		sqlite3_finalize(st);
		if (s == SQLITE_ROW)
			continue;
		if (s != SQLITE_DONE)
			return rl_db_sqlite_fail(db, s, "full-text tables");
		/* the schema's statement that makes it, the last one */
		size_t nn = strlen(name);
		const char *ddl = NULL;
		for (int m = 0; m < rl_schema_version; m++)
			for (const char *p = rl_schema_migrations[m].sql;
			     (p = strstr(p, create)); p++)
				if (strncmp(p + sizeof create - 1, name, nn) == 0 &&
				    p[sizeof create - 1 + nn] == ' ')
					ddl = p;
		const char *end = ddl ? strchr(ddl, ';') : NULL;
		if (!end)
			return rl_db_fail(db, RL_EINTERNAL, "no schema for %s", name);
		for (size_t i = 0; i < sizeof shadows / sizeof *shadows && !rc; i++) {
			char drop[96];
			snprintf(drop, sizeof drop, "DROP TABLE IF EXISTS %s_%s", name,
			         shadows[i]);
			rc = rl_db_exec(db, drop);
		}
		char *sql = rc ? NULL : rl_strndup(ddl, (size_t)(end - ddl));
		if (!rc && !sql)
			return rl_db_fail(db, RL_ENOMEM, "out of memory");
		if (!rc)
			rc = rl_db_exec(db, sql);
		free(sql);
	}
	return rc;
}

int rl_reindex(rl_db *db, long long *merged_rulings, long long *merged_tags,
               long long *dangling_rows)
{
	*merged_rulings = *merged_tags = *dangling_rows = 0;
	if (!db->write)
		return rl_db_fail(db, RL_EUSAGE, "the database is open for reading");
	int rc = rl_db_exec(db, "BEGIN IMMEDIATE");
	if (rc)
		return rc;
	/* the full-text tables (a copy by sqlite3's .clone lacks them),
	 * then the triggers, as the schema makes them (one may have been
	 * dropped); a user's own of one of their names is kept */
	rc = fts_restore(db);
	if (!rc)
		rc = rl_schema_triggers(db);
	if (!rc)
		rc = dangling(db, dangling_rows);
	if (!rc)
		rc = rl_refold(db, true, merged_rulings, merged_tags);
	/* Each index merged into one segment. A rebuild leaves several (a
	 * segment per flush of FTS5's in-memory hash, merged four at a time),
	 * and a search reads each: the term looked up in every segment, and
	 * again at each candidate's seek (`rowid IN`) and each snippet
	 * (`rowid =`). At 100k rulings a rebuild left 10, 8 and 7 segments
	 * (en, fr, ru): a one-word search looked its word up 390 times for 39
	 * seeks; after this, 39 (bench/RESULTS.md). */
	if (!rc)
		rc = fts_command(db, "optimize");
	if (!rc)
		rc = rl_topk_rebuild(db);      /* the champion lists (topk.c) */
	if (!rc)
		rc = rl_db_exec(db, "COMMIT");
	if (rc) {
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		*merged_rulings = *merged_tags = *dangling_rows = 0;
	}
	return rc;
}
