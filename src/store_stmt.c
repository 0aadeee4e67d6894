/* store_stmt.c — the prepared statements of one document's import, and
 * the full-text tables they feed (see store.c). */
#include "store_write.h"
#include "topk.h"
#include "util.h"

#include <string.h>

/* the content from ?5 (INSERT) and ?2 (UPDATE) on in one order:
 * store_ruling.c's bind_content() */
#define INSERT_RULING \
	"INSERT INTO rulings (game_id, kind, key, lang, rule, title, body," \
	" section, category, changed, date, author, marked_import)" \
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12," \
	" CASE WHEN ?10 THEN ?13 END)"

static const char *const stmt_sql[] = {
	/* +?2, not ?2: compared with the partial index rulings_glossary's
	 * "kind = 'glossary'", a bare parameter makes SQLite's plan depend on
	 * its value, and every new binding then prepares the statement again
	 * (sqlite3Reprepare: 9 % of a bulk import's samples). The identity
	 * index is used all the same. */
	"SELECT id, title, body, ifnull(section, ''), ifnull(category, ''),"
	" changed, ifnull(rule, ''), withdrawn_at IS NOT NULL,"
	" ifnull(date, ''), ifnull(author, '') FROM rulings"
	" WHERE ifnull(game_id, 0) = ifnull(?1, 0) AND kind = +?2 AND lang = ?3"
	" AND key = ?4",
	INSERT_RULING,
	/* a mark belongs to the version that first carries it (schema 9) */
	"UPDATE rulings SET rule = ?2, title = ?3, body = ?4, section = ?5,"
	" category = ?6, changed = ?7, date = ?8, author = ?9,"
	" marked_import = CASE WHEN NOT ?7 THEN NULL"
	"   WHEN changed AND marked_import IS NOT NULL THEN marked_import"
	"   ELSE ?10 END WHERE id = ?1",
	"INSERT OR IGNORE INTO ruling_sources (ruling_id, document_id, import_id,"
	" line, hidden_tags) VALUES (?1, ?2, ?3, ?4, ?5)",
	"SELECT id FROM tags WHERE name_fold = ?1 AND qual_fold = ?2",
	"INSERT INTO tags (name, qualifier, name_fold, qual_fold)"
	" VALUES (?1, ?2, ?3, ?4)",
	"INSERT OR IGNORE INTO ruling_tags (ruling_id, tag_id, document_id, origin)"
	" VALUES (?1, ?2, ?3, ?4)",
	"DELETE FROM refs WHERE ruling_id = ?1",
	"INSERT INTO refs (ruling_id, kind, target) VALUES (?1, ?2, ?3)",
	"DELETE FROM errata WHERE ruling_id = ?1",
	"INSERT INTO errata (ruling_id, product, printing, document, page)"
	" VALUES (?1, ?2, ?3, ?4, ?5)",
	"DELETE FROM ruling_aliases WHERE ruling_id = ?1",
	"INSERT OR IGNORE INTO ruling_aliases (ruling_id, alias_fold)"
	" VALUES (?1, ?2)",
	"INSERT INTO changes (import_id, ruling_id, change, old_title, old_body,"
	" new_title, new_body) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	"INSERT OR REPLACE INTO ruling_versions (ruling_id, import_id, title, body)"
	" VALUES (?1, ?2, ?3, ?4)",
	"UPDATE rulings SET withdrawn_at = NULL WHERE id = ?1",
	"INSERT INTO rulings_fts_en (rowid, title, body) VALUES (?1, ?2, ?3)",
	"INSERT INTO rulings_fts_fr (rowid, title, body) VALUES (?1, ?2, ?3)",
	"INSERT INTO rulings_fts_ru (rowid, title, body) VALUES (?1, ?2, ?3)",
	"INSERT INTO rulings_fts_xx (rowid, title, body) VALUES (?1, ?2, ?3)",
	"INSERT INTO rulings_fts_en (rulings_fts_en, rowid, title, body)"
	" VALUES ('delete', ?1, ?2, ?3)",
	"INSERT INTO rulings_fts_fr (rulings_fts_fr, rowid, title, body)"
	" VALUES ('delete', ?1, ?2, ?3)",
	"INSERT INTO rulings_fts_ru (rulings_fts_ru, rowid, title, body)"
	" VALUES ('delete', ?1, ?2, ?3)",
	"INSERT INTO rulings_fts_xx (rulings_fts_xx, rowid, title, body)"
	" VALUES ('delete', ?1, ?2, ?3)",
	"INSERT OR IGNORE INTO temp.fts_todo (id) VALUES (?1)",
	"SELECT count(*) FROM temp.fts_todo WHERE id = ?1",
	"INSERT OR REPLACE INTO version_rulings (import_id, ruling_id, title,"
	" body, marked) VALUES (?1, ?2, ?3, ?4, ?5)",
	/* insert_ruling, unless the ruling exists (store_ruling.c put_ruling:
	 * a document's first import tries this before looking it up) */
	INSERT_RULING
	" ON CONFLICT (ifnull(game_id, 0), kind, lang, key) DO NOTHING",
	/* insert_version and insert_listing where the row is new, as it
	 * nearly always is (the same ruling twice in one version is the
	 * exception: then the REPLACE above). An INSERT OR REPLACE into a
	 * table with foreign keys may delete a row, so SQLite keeps a
	 * statement journal for it: every page it touches that existed
	 * before copied to a temporary file first, for each row — 4.9 pages
	 * a ruling at 20k (bench/RESULTS.md). This cannot delete, and keeps
	 * none. */
	"INSERT INTO ruling_versions (ruling_id, import_id, title, body)"
	" VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING",
	"INSERT INTO version_rulings (import_id, ruling_id, title,"
	" body, marked) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING",
};

enum { NSTMTS = sizeof stmt_sql / sizeof *stmt_sql };

static sqlite3_stmt **stmt_array(struct stmts *s)
{
	return (sqlite3_stmt **)s;
}

_Static_assert(sizeof(struct stmts) == NSTMTS * sizeof(sqlite3_stmt *),
               "one SQL text per statement");

int rl_store_prepare_all(rl_db *db, struct stmts *s)
{
	sqlite3_stmt **a = stmt_array(s);
	for (size_t i = 0; i < NSTMTS; i++)
		if (!(a[i] = rl_db_prepare(db, stmt_sql[i])))
			return RL_EINTERNAL;
	return RL_OK;
}

void rl_store_finalize_all(struct stmts *s)
{
	sqlite3_stmt **a = stmt_array(s);
	for (size_t i = 0; i < NSTMTS; i++)
		sqlite3_finalize(a[i]);
}

/* Runs a statement that returns no rows, then resets it. */
int rl_store_run(rl_db *db, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? RL_OK : rl_db_sqlite_fail(db, rc, what);
}

/* Runs a statement that returns at most one integer; *id = 0 if no row. */
int rl_store_run_id(rl_db *db, sqlite3_stmt *st, long long *id,
                    const char *what)
{
	int rc = sqlite3_step(st);
	*id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return (rc == SQLITE_ROW || rc == SQLITE_DONE)
	       ? RL_OK : rl_db_sqlite_fail(db, rc, what);
}

/* The full-text table of a language: en, fr, ru, or xx for the others
 * (schema/002-languages.sql). */
static int fts_table(const char *lang)
{
	static const char *const langs[] = { "en", "fr", "ru" };
	for (int i = 0; i < 3; i++)
		if (lang && strcmp(lang, langs[i]) == 0)
			return i;
	return 3;
}

/* Adds a ruling's text to (or, with del, removes its old text from) its
 * language's full-text table, at once. New rulings wait in temp.fts_todo
 * for rl_store_fts_flush(): see there. */
int rl_store_fts_put(rl_db *db, struct stmts *s, bool del, const char *lang,
                     long long id, const char *title, const char *body)
{
	sqlite3_stmt *st = (del ? s->fts_del : s->fts_add)[fts_table(lang)];
	int rc = del ? rl_topk_note(db, id) : RL_OK;   /* its lists' bound */
	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	rl_bind_text(st, 2, title);
	rl_bind_text(st, 3, body);
	return rl_store_run(db, st, "index ruling");
}

/* The rulings added in this transaction are indexed together, just
 * before it commits, with one INSERT … SELECT per language: FTS5 keeps
 * the terms of a transaction in memory, but writes them out at every
 * statement savepoint, which most statements of an import open — indexing
 * each ruling as it comes made a small segment per document and cost 2.5
 * times the bare insert (bench/RESULTS.md). CROSS JOIN keeps the planner
 * from scanning all of rulings for the few ids in fts_todo, as it did for
 * every document. ORDER BY t.id, not r.id: the same order, which the scan
 * of fts_todo (by its rowid) already gives; ordered by r.id, SQLite sorted
 * every ruling's text in a temporary b-tree first (up to the 16 MB page
 * cache of it in memory: a bulk load's peak RSS, bench/RESULTS.md). */
static const char fts_flush_sql[] =
	"INSERT INTO rulings_fts_en (rowid, title, body) SELECT r.id, r.title,"
	" r.body FROM temp.fts_todo t CROSS JOIN rulings r ON r.id = t.id"
	" WHERE r.lang = 'en' ORDER BY t.id;"
	"INSERT INTO rulings_fts_fr (rowid, title, body) SELECT r.id, r.title,"
	" r.body FROM temp.fts_todo t CROSS JOIN rulings r ON r.id = t.id"
	" WHERE r.lang = 'fr' ORDER BY t.id;"
	"INSERT INTO rulings_fts_ru (rowid, title, body) SELECT r.id, r.title,"
	" r.body FROM temp.fts_todo t CROSS JOIN rulings r ON r.id = t.id"
	" WHERE r.lang = 'ru' ORDER BY t.id;"
	"INSERT INTO rulings_fts_xx (rowid, title, body) SELECT r.id, r.title,"
	" r.body FROM temp.fts_todo t CROSS JOIN rulings r ON r.id = t.id"
	" WHERE r.lang NOT IN ('en', 'fr', 'ru') ORDER BY t.id;"
	"DELETE FROM temp.fts_todo;";

int rl_store_fts_flush(rl_db *db)
{
	/* the champion lists (topk.c) score these until rebuilt */
	int rc = rl_topk_note_pending(db);
	if (!rc)
		rc = rl_db_exec(db, fts_flush_sql);
	/* a bulk import's last group: the indexes it has grown, merged */
	if (!rc && !db->topk_later)
		rc = rl_fts_merge_grown(db);
	return rc || db->topk_later ? rc : rl_topk_refresh(db);
}
