/* store.c — writing a parsed document into the database.
 *
 * One document, one transaction: BEGIN IMMEDIATE takes the write lock up
 * front (so a busy database fails before any work), and any error rolls the
 * whole document back. Each import is a version of its document. Within the
 * transaction the document's previous links (sources, page tags) are
 * replaced by the new ones; a ruling is found by its identity (game, kind,
 * language, key) and updated in place, so an entry seen on many pages is
 * stored once and gathers the tags of every page. What changed is recorded
 * (schema/004-history.sql): rulings added, edited (white space aside) and
 * withdrawn — those no document lists any more, which are kept, with their
 * last links, but hidden from search. A document's first import is its
 * baseline and records no change. Tags that no ruling carries are removed.
 * Versions are ordered by their dates: one dated before the document's
 * newest goes into its place in the history (store_older(),
 * store_order.c), and every version's listing is kept for that
 * (version_rulings). */
#include "schema.h"
#include "store_write.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int exec_id(rl_db *db, const char *sql, const char *a, long long b,
                   const char *c, const char *d, long long *id)
{
	sqlite3_stmt *st = rl_db_prepare(db, sql);
	if (!st)
		return RL_EINTERNAL;
	rl_bind_text(st, 1, a);
	if (b)
		sqlite3_bind_int64(st, 2, b);
	rl_bind_text(st, 3, c);
	rl_bind_text(st, 4, d);
	int rc = rl_store_run_id(db, st, id, "store");
	sqlite3_finalize(st);
	return rc;
}

int rl_store_game_id(rl_db *db, const char *name, long long *id)
{
	*id = 0;
	if (!name)
		return RL_OK;
	int rc = exec_id(db, "SELECT id FROM games WHERE name = ?1", name, 0,
	                 NULL, NULL, id);
	if (rc || *id)
		return rc;
	/* a game of this name but for case and typographic quotes (rl_fold,
	 * as --game and game: select games): that game, not a second one
	 * that every search of the name would select beside it ("spirit
	 * island" given for Spirit Island made a game of 18 rulings again) */
	rc = exec_id(db, "SELECT id FROM games WHERE rl_fold(name) = rl_fold(?1)"
	             " ORDER BY id LIMIT 1", name, 0, NULL, NULL, id);
	if (rc || *id)
		return rc;
	rc = exec_id(db, "INSERT INTO games (name) VALUES (?1) RETURNING id", name,
	             0, NULL, NULL, id);
	return rc;
}

static int document_id(rl_db *db, long long game, const struct rl_doc *doc,
                       long long *id, bool *merged)
{
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT id FROM documents WHERE ifnull(game_id, 0) = ifnull(?2, 0)"
		" AND format = ?3 AND title = ?1");
	if (!st)
		return RL_EINTERNAL;
	rl_bind_text(st, 1, doc->title);
	if (game)
		sqlite3_bind_int64(st, 2, game);
	rl_bind_text(st, 3, doc->format);
	int rc = rl_store_run_id(db, st, id, "find document");
	sqlite3_finalize(st);
	/* a game-less document of an older database, now given its game;
	 * not a thesaurus (no rulings): one of no game is every game's, and
	 * another of the same title may be one game's own */
	if (!rc && game && doc->n)
		rc = rl_store_adopt(db, game, doc->format, doc->title, id, merged);
	if (rc)
		return rc;
	const char *sql = *id
		? "UPDATE documents SET lang = ?4, date = ?6 WHERE id = ?5 RETURNING id"
		: "INSERT INTO documents (title, game_id, format, lang, date)"
		  " VALUES (?1, ?2, ?3, ?4, ?6) RETURNING id";
	st = rl_db_prepare(db, sql);
	if (!st)
		return RL_EINTERNAL;
	if (!*id) {
		rl_bind_text(st, 1, doc->title);
		if (game)
			sqlite3_bind_int64(st, 2, game);
		rl_bind_text(st, 3, doc->format);
	} else {
		sqlite3_bind_int64(st, 5, *id);
	}
	rl_bind_text(st, 4, doc->lang);
	rl_bind_text(st, 6, doc->date);
	rc = rl_store_run_id(db, st, id, "store document");
	sqlite3_finalize(st);
	return rc;
}

/* Resolves references to rulings that now exist: rule numbers to rules of
 * the same game, terms to glossary entries. */
/* The references to resolve after a document is stored (temp.todo): those
 * of its rulings, and those that resolved to nothing before (their target
 * may be among its rulings now) — not every reference in the database, so
 * an import costs what its document holds, not what the database does. */
static const char todo_sql[] =
	"INSERT OR IGNORE INTO temp.todo SELECT f.id FROM refs f"
	" JOIN ruling_sources s ON s.ruling_id = f.ruling_id"
	" WHERE s.document_id = %lld AND f.kind IN ('rule', 'term', 'ruling');";

static const char todo_reset_sql[] =
	"CREATE TEMP TABLE IF NOT EXISTS todo (id INTEGER PRIMARY KEY);"
	"DELETE FROM temp.todo;"
	"CREATE TEMP TABLE IF NOT EXISTS fts_todo (id INTEGER PRIMARY KEY);"
	"DELETE FROM temp.fts_todo;";

static const char resolve_sql[] =
	/* rules by number: the index on rulings(rule) answers each */
	"UPDATE refs SET target_id = (SELECT t.id FROM rulings t, rulings s"
	"  WHERE s.id = refs.ruling_id AND t.rule = refs.target"
	"  AND t.withdrawn_at IS NULL"
	"  AND ifnull(t.game_id, 0) = ifnull(s.game_id, 0)"
	"  ORDER BY t.lang = s.lang DESC, t.id LIMIT 1)"
	" WHERE kind = 'rule' AND id IN (SELECT id FROM temp.todo);"
	/* terms: glossary entries by key, title or alias (case and accents
	 * aside), the first in the reference's language, else the first; a
	 * key before a title before an alias (a term "Амулет" of the
	 * dictionary before a card text titled "Амулет", keyed "card:
	 * амулет", whichever was imported first). The
	 * keys of every glossary title and every target are computed once
	 * (the materialized tables) and matched by equality: comparing each
	 * reference with each entry through rl_key_loose() took 24 s for a
	 * directory of 207 glossary files with 1,131 links. */
	"UPDATE refs SET target_id = NULL"
	" WHERE kind = 'term' AND id IN (SELECT id FROM temp.todo)"
	" AND target_id IS NOT NULL;"
	"WITH t AS MATERIALIZED (SELECT id, ifnull(game_id, 0) AS g, lang, key,"
	"    rl_key_loose(title) AS tloose FROM rulings WHERE kind = 'glossary'"
	"    AND withdrawn_at IS NULL AND EXISTS (SELECT 1 FROM refs"
	"    WHERE kind = 'term' AND id IN (SELECT id FROM temp.todo))),"
	"  r AS MATERIALIZED (SELECT f.id, ifnull(s.game_id, 0) AS g, s.lang,"
	"    rl_key(f.target) AS k, rl_key_loose(f.target) AS kl"
	"    FROM refs f JOIN rulings s ON s.id = f.ruling_id"
	"    WHERE f.kind = 'term' AND f.id IN (SELECT id FROM temp.todo)),"
	"  c (ref, tid, same, how) AS ("
	"    SELECT r.id, t.id, t.lang = r.lang, 0 FROM r JOIN t"
	"      ON t.g = r.g AND t.key = r.k"
	"    UNION ALL SELECT r.id, t.id, t.lang = r.lang, 1 FROM r JOIN t"
	"      ON t.g = r.g AND t.tloose = r.kl"
	"    UNION ALL SELECT r.id, t.id, t.lang = r.lang, 2 FROM r"
	"      JOIN ruling_aliases a ON a.alias_fold = r.kl"
	"      JOIN t ON t.id = a.ruling_id AND t.g = r.g),"
	"  best AS (SELECT ref, tid FROM (SELECT ref, tid, row_number() OVER"
	"    (PARTITION BY ref ORDER BY same DESC, how, tid) AS n FROM c)"
	"    WHERE n = 1)"
	" UPDATE refs SET target_id = best.tid FROM best WHERE best.ref = refs.id;"
	/* other rulings by title */
	"UPDATE refs SET target_id = (SELECT t.id FROM rulings t, rulings s"
	"  WHERE s.id = refs.ruling_id AND t.id <> s.id AND t.withdrawn_at IS NULL"
	"  AND ifnull(t.game_id, 0) = ifnull(s.game_id, 0)"
	"  AND rl_key(t.title) = rl_key(refs.target)"
	"  ORDER BY t.lang = s.lang DESC, t.id LIMIT 1)"
	" WHERE kind = 'ruling' AND id IN (SELECT id FROM temp.todo);";

/* Resolves the references in temp.todo, and those that resolved to
 * nothing before (their target may have arrived), then empties it. */
static int resolve(rl_db *db)
{
	int rc = rl_db_exec(db,
		"INSERT OR IGNORE INTO temp.todo SELECT id FROM refs"
		" WHERE target_id IS NULL AND kind IN ('rule', 'term', 'ruling');");
	if (!rc)
		rc = rl_db_exec(db, resolve_sql);
	if (!rc)
		rc = rl_db_exec(db, "DELETE FROM temp.todo");
	return rc;
}

/* After a document is stored: its references to resolve, resolved now
 * and its full-text rows written — in a bulk load, once, at its end. */
static int finish_document(rl_db *db, long long docid)
{
	char todo[sizeof todo_sql + 32];
	snprintf(todo, sizeof todo, todo_sql, docid);
	int rc = rl_db_exec(db, todo);
	if (rc || db->bulk)
		return rc;
	if (!(rc = resolve(db)))
		rc = rl_store_fts_flush(db);
	return rc;
}

/* Rulings this document listed that no document lists now are withdrawn:
 * kept with the links they had, hidden from search, recorded as a
 * change. */
static int withdraw(rl_db *db, struct stmts *s, long long import,
                    struct rl_import_result *res)
{
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT r.id, r.title, r.body FROM rulings r"
		" WHERE r.id IN (SELECT ruling_id FROM temp.prev_sources)"
		" AND r.withdrawn_at IS NULL"
		" AND NOT EXISTS (SELECT 1 FROM ruling_sources s"
		"   WHERE s.ruling_id = r.id)");
	if (!st)
		return RL_EINTERNAL;
	int rc = RL_OK, step;
	while ((step = sqlite3_step(st)) == SQLITE_ROW && !rc) {
		long long id = sqlite3_column_int64(st, 0);
		rc = rl_store_record(db, s, import, id, "withdrawn",
		                     (const char *)sqlite3_column_text(st, 1),
		                     (const char *)sqlite3_column_text(st, 2), NULL,
		                     false);
		res->withdrawn++;
	}
	sqlite3_finalize(st);
	if (!rc && step != SQLITE_DONE && step != SQLITE_ROW)
		rc = rl_db_sqlite_fail(db, step, "withdraw");
	if (rc)
		return rc;
	return rl_db_exec(db,
		"CREATE TEMP TABLE IF NOT EXISTS gone (id INTEGER PRIMARY KEY);"
		"DELETE FROM temp.gone;"
		"INSERT INTO temp.gone SELECT r.id FROM rulings r"
		" WHERE r.id IN (SELECT ruling_id FROM temp.prev_sources)"
		" AND r.withdrawn_at IS NULL"
		" AND NOT EXISTS (SELECT 1 FROM ruling_sources s"
		"   WHERE s.ruling_id = r.id);"
		"UPDATE rulings SET withdrawn_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"
		" WHERE id IN (SELECT id FROM temp.gone);"
		/* references to a withdrawn ruling resolve again, elsewhere or
		 * not at all */
		"UPDATE refs SET target_id = NULL"
		" WHERE target_id IN (SELECT id FROM temp.gone);"
		/* withdrawn now or before: its last links stay, also when a
		 * later version is imported (or an older one inserted) */
		"INSERT OR IGNORE INTO ruling_sources SELECT p.* FROM"
		" temp.prev_sources p JOIN rulings r ON r.id = p.ruling_id"
		" WHERE r.withdrawn_at IS NOT NULL;"
		"INSERT OR IGNORE INTO ruling_tags SELECT p.* FROM"
		" temp.prev_tags p JOIN rulings r ON r.id = p.ruling_id"
		" WHERE r.withdrawn_at IS NOT NULL;");
}

/* An import i of a thesaurus that is not its document's latest: its
 * concepts are not the ones in force (each version replaces them all,
 * rl_store_put_concepts), so the same bytes again are not unchanged but
 * that version again — v1, v2, then v1 again answers as v1. A document
 * of rulings keeps every version's (withdrawn ones too): its older bytes
 * again are unchanged. */
#define THESAURUS_BEHIND \
	"((i.format = 'thesaurus' OR i.format LIKE 'thesaurus/%')" \
	" AND i.id < (SELECT max(id) FROM imports l" \
	" WHERE l.document_id = i.document_id))"

/* Records an import of the document in *import, unless one of its imports
 * is of the same bytes read the same way (by the same revision of its
 * format, read_as), a thesaurus's its latest: then it is unchanged, and
 * *import is 0. The version's
 * date is the one the document states, else the one given (may be NULL),
 * else the import time; date_source says which. */
static int record_import(rl_db *db, const struct rl_source *src,
                         const struct rl_doc *doc, const char *read_as,
                         const char *given, long long docid,
                         struct rl_import_result *res, long long *import)
{
	*import = 0;
	/* The same bytes as one of this document's imports, read the same
	 * way (by the same revision of its format): nothing to do (a
	 * directory that holds two versions of a document imports again as
	 * unchanged, whichever is the latest). */
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT 1 FROM imports i WHERE document_id = ?1 AND sha256 = ?2"
		" AND format = ?3 AND NOT " THESAURUS_BEHIND " LIMIT 1");
	if (!st)
		return RL_EINTERNAL;
	sqlite3_bind_int64(st, 1, docid);
	rl_bind_text(st, 2, src->sha256);
	rl_bind_text(st, 3, read_as);
	long long same_bytes;
	int rc = rl_store_run_id(db, st, &same_bytes, "find last import");
	sqlite3_finalize(st);
	if (rc || same_bytes) {
		res->unchanged = same_bytes != 0;
		return rc;
	}

	/* The document's first import is its baseline. */
	st = rl_db_prepare(db, "SELECT count(*) FROM imports WHERE document_id = ?1");
	if (!st)
		return RL_EINTERNAL;
	sqlite3_bind_int64(st, 1, docid);
	long long earlier;
	rc = rl_store_run_id(db, st, &earlier, "count imports");
	sqlite3_finalize(st);
	if (rc)
		return rc;
	res->baseline = earlier == 0;

	st = rl_db_prepare(db,
		"INSERT INTO imports (document_id, path, sha256, size, format, lang,"
		" entries, imported_at, date, date_source) VALUES (?1, ?2, ?3, ?4,"
		" ?5, ?6, ?7, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'),"
		" coalesce(?8, ?9, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),"
		" CASE WHEN ?8 IS NOT NULL THEN 'document'"
		" WHEN ?9 IS NOT NULL THEN 'given' ELSE 'imported' END)"
		" RETURNING id");
	if (!st)
		return RL_EINTERNAL;
	sqlite3_bind_int64(st, 1, docid);
	rl_bind_text(st, 2, src->name);
	rl_bind_text(st, 3, src->sha256);
	sqlite3_bind_int64(st, 4, (long long)src->raw_size);
	rl_bind_text(st, 5, read_as);
	rl_bind_text(st, 6, doc->lang);
	sqlite3_bind_int64(st, 7, (long long)doc->n);
	rl_bind_text(st, 8, doc->date);   /* the version's date, if it says */
	rl_bind_text(st, 9, given);
	rc = rl_store_run_id(db, st, import, "record import");
	sqlite3_finalize(st);
	return rc;
}

/* The version of the document dated after import (a newer release
 * imported before it); 0 when import is the newest, the usual case. */
static int next_version(rl_db *db, long long import, long long *next)
{
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT n.id FROM imports n JOIN imports v ON v.id = ?1"
		" AND n.document_id = v.document_id AND n.id <> v.id"
		" WHERE " RL_VERSION_DAY("n") " > " RL_VERSION_DAY("v")
		" ORDER BY " RL_VERSION_DAY("n") ", n.id LIMIT 1");
	if (!st)
		return RL_EINTERNAL;
	sqlite3_bind_int64(st, 1, import);
	int rc = rl_store_run_id(db, st, next, "find the next version");
	sqlite3_finalize(st);
	return rc;
}

/* A version older than the document's newest: its entries go into its
 * listing (rulings new to the database as withdrawn ones), the history
 * is put in date order around it (store_order.c); the current texts,
 * links and concepts stay the newest version's. */
static int store_older(rl_db *db, struct stmts *s, const struct rl_doc *doc,
                       long long game, long long docid, long long import,
                       long long next, struct rl_import_result *res)
{
	struct tag_cache tags = {0};
	int rc = RL_OK;
	for (size_t i = 0; i < doc->n && !rc; i++)
		rc = rl_store_put_older_entry(db, s, &tags, game, docid, import,
		                              doc, &doc->entries[i]);
	rl_store_tag_cache_clear(&tags);
	if (!rc)
		rc = rl_store_insert_version(db, s, docid, import, next, res);
	if (rc)
		return rc;
	return finish_document(db, docid);
}

/* In a bulk load each document is a savepoint of the group's transaction,
 * so that one that fails or is refused leaves the others. But while a
 * savepoint is open SQLite copies every page a write touches for the first
 * time since it began to a temporary file (the sub-journal), to undo it:
 * the tails of the tables and a leaf of each index an entry lands in — 127k
 * pwrite(2) calls, 260 MB, at 20k entries (bench/RESULTS.md); the
 * storage-only copy writes none. A document that cannot be refused — one
 * that lists no ruling yet (it withdraws none), whose check refuses only
 * for withdrawals — has nothing to undo but an error, so its savepoint is
 * released before its entries are stored; should it fail then, the whole
 * group's transaction is rolled back (db->bulk_lost) and the import stores
 * the group's documents again one by one, as after a full disk
 * (import.c end_group). Each document is still whole or not at all. */
static bool release_savepoint(const struct rl_import_result *res,
                              long long before)
{
	return !res->unchanged && before == 0;
}

static int store_doc(rl_db *db, struct stmts *s, const struct rl_source *src,
                     const struct rl_doc *doc, const char *given,
                     struct rl_import_result *res, struct rl_diags *warn,
                     bool may_release, bool *released)
{
	long long game, docid, import = 0;
	int rc = rl_store_game_id(db, doc->game, &game);
	if (!rc)
		rc = document_id(db, game, doc, &docid, &res->merged);
	if (rc)
		return rc;

	char *read_as = rl_doc_read_as(doc);
	if (!read_as)
		return RL_ENOMEM;
	rc = record_import(db, src, doc, read_as, given, docid, res, &import);
	free(read_as);
	if (rc || res->unchanged)
		return rc;
	res->import_id = import;
	long long next;
	if ((rc = next_version(db, import, &next)))
		return rc;
	if (next) {
		res->older = true;
		return store_older(db, s, doc, game, docid, import, next, res);
	}

	/* The document's links are replaced by what this version says; the
	 * old ones are kept aside for the rulings it withdraws. */
	char sql[640];
	snprintf(sql, sizeof sql,
	         "CREATE TEMP TABLE IF NOT EXISTS prev_sources AS"
	         " SELECT * FROM ruling_sources WHERE 0;"
	         "CREATE TEMP TABLE IF NOT EXISTS prev_tags AS"
	         " SELECT * FROM ruling_tags WHERE 0;"
	         "DELETE FROM temp.prev_sources; DELETE FROM temp.prev_tags;"
	         "INSERT INTO temp.prev_sources"
	         " SELECT * FROM ruling_sources WHERE document_id = %lld;"
	         "INSERT INTO temp.prev_tags"
	         " SELECT * FROM ruling_tags WHERE document_id = %lld;"
	         "DELETE FROM ruling_tags WHERE document_id = %lld;"
	         "DELETE FROM ruling_sources WHERE document_id = %lld;",
	         docid, docid, docid, docid);
	if ((rc = rl_db_exec(db, sql)))
		return rc;
	/* the rulings the document listed until now, for the withdraw limit */
	sqlite3_stmt *st = rl_db_prepare(db, "SELECT count(DISTINCT p.ruling_id)"
	                                 " FROM temp.prev_sources p JOIN rulings r"
	                                 " ON r.id = p.ruling_id"
	                                 " WHERE r.withdrawn_at IS NULL");
	if (!st)
		return RL_EINTERNAL;
	long long before;
	rc = rl_store_run_id(db, st, &before, "count rulings");
	sqlite3_finalize(st);
	if (rc)
		return rc;
	res->before = (size_t)before;
	if (may_release && release_savepoint(res, before)) {
		if ((rc = rl_db_exec(db, "RELEASE document")))
			return rc;
		*released = true;
	}

	struct tag_cache tags = {0};
	for (size_t i = 0; i < doc->n && !rc; i++)
		rc = rl_store_put_entry(db, s, &tags, game, docid, import, doc,
		                        &doc->entries[i], res, warn);
	rl_store_tag_cache_clear(&tags);
	if (!rc)
		rc = rl_store_put_concepts(db, doc, docid);
	if (rc)
		return rc;

	if ((rc = withdraw(db, s, import, res)))
		return rc;
	/* tags this document gave that nobody carries now */
	if ((rc = rl_db_exec(db, "DELETE FROM tags WHERE id IN"
	                     " (SELECT tag_id FROM temp.prev_tags) AND NOT EXISTS"
	                     " (SELECT 1 FROM ruling_tags rt WHERE rt.tag_id = tags.id)")))
		return rc;
	return finish_document(db, docid);
}

int rl_store_with(rl_db *db, const struct rl_source *src,
                  const struct rl_doc *doc, const struct store_opts *o,
                  struct rl_import_result *res)
{
	bool dry = o->dry;
	*res = (struct rl_import_result){ .entries = doc->n };
	/* In a bulk load the document is a savepoint inside the load's
	 * transaction: it is still stored whole or not at all. */
	if (db->bulk_lost)
		return rl_db_fail(db, RL_EIO, "the bulk load was rolled back by an "
		                  "earlier error");
	if (db->bulk && dry)
		return rl_db_fail(db, RL_EUSAGE, "a dry run cannot be part of a "
		                  "bulk load");
	if (!db->write)
		return rl_db_fail(db, RL_EUSAGE, "the database is open for reading");
	bool nested = db->bulk;
	/* the triggers stand aside: this feeds the full-text tables itself */
	db->importing = true;
	int rc = rl_db_exec(db, nested ? "SAVEPOINT document" : "BEGIN IMMEDIATE");
	if (!rc && !nested)
		rc = rl_db_exec(db, todo_reset_sql);
	/* a dry run leaves an older schema as it is (RL_OPEN_NO_UPGRADE):
	 * upgraded here, it is rolled back with the rest */
	if (!rc && dry)
		rc = rl_db_upgrade_within(db);
	if (rc) {
		if (!nested)
			sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		db->importing = db->bulk;
		return rc;
	}
	struct stmts s = {0};
	bool released = false;
	rc = rl_store_prepare_all(db, &s);
	if (!rc)
		rc = store_doc(db, &s, src, doc, o->date, res, o->warn,
		               nested && (!o->check || o->check_withdrawals_only),
		               &released);
	rl_store_finalize_all(&s);
	/* the caller's last word, before anything is committed */
	if (!rc && !res->unchanged && o->check)
		rc = o->check(o->ctx, res);
	/* our own allocations leave no message behind */
	if (rc == RL_ENOMEM)
		rl_db_fail(db, RL_ENOMEM, "out of memory");
	if (rc || (res->unchanged && !res->merged) || dry) {
		if (nested && (released || sqlite3_get_autocommit(db->h))) {
			/* SQLite rolled the whole transaction back (disk full, out
			 * of memory), or the document had no savepoint left: the
			 * load's earlier documents are gone too */
			if (!sqlite3_get_autocommit(db->h))
				sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
			db->bulk = false;
			db->bulk_lost = true;
		} else {
			sqlite3_exec(db->h, nested ? "ROLLBACK TO document;"
			             " RELEASE document" : "ROLLBACK", NULL, NULL, NULL);
		}
		db->importing = db->bulk;
		return rc;
	}
	rc = released ? RL_OK
	     : rl_db_exec(db, nested ? "RELEASE document" : "COMMIT");
	db->importing = db->bulk;
	return rc;
}

/* ---- the INSERT triggers a bulk load sets aside ------------------------ */

/* Any trigger on INSERT makes each INSERT into rulings keep a statement
 * journal (SQLite cannot undo a statement with triggers otherwise): every
 * page the insert touches that existed before it — the table's last leaf,
 * a leaf of each index — is copied to a temporary file first, again for
 * each ruling. At 100k rulings that was 5.4 GB in 2.77 million pwrite(2)
 * calls, the largest part of an import's system time (bench/RESULTS.md);
 * the storage-only copy writes none of it. Within a bulk load's
 * transaction these two triggers do nothing that is not done otherwise:
 * rulings_fts_insert is silent while rulings imports (RL_TRIGGER_FN),
 * and the ruling topk_insert would note as changed is noted by
 * rl_store_fts_flush() (every new ruling passes through temp.fts_todo).
 * So they are dropped after BEGIN and created again, with the same text
 * and at the same place in sqlite_schema (its rowid: .dump lists them in
 * that order), before COMMIT, from the very text sqlite_schema held. No
 * other process sees them missing: the transaction holds the write lock,
 * and readers see the last commit. They are found by name, and set aside
 * only when their text is the one the schema's migrations give them (the
 * last CREATE TRIGGER of that name in schema/ *.sql, embedded: no copy in
 * C that a change to schema/016-plain-sql.sql or schema/014-topk.sql would
 * leave behind); what they do must stay what the bulk load does itself
 * (see above). A trigger of that name with another text is a user's own:
 * what it does is not known to be done otherwise, so it stays, and runs
 * for each ruling as it does outside a bulk load. */
static const char *const aside_names[] = {
	"rulings_fts_insert",   /* schema/016-plain-sql.sql */
	"topk_insert",          /* schema/014-topk.sql */
};

enum { NASIDE = sizeof aside_names / sizeof *aside_names };
_Static_assert(NASIDE <= sizeof ((rl_db *)0)->aside /
               sizeof ((rl_db *)0)->aside[0], "room for the triggers");

static void forget_aside(rl_db *db)
{
	for (int i = 0; i < db->naside; i++)
		free(db->aside[i].sql);
	db->naside = 0;
}

static int set_aside(rl_db *db)
{
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT rowid, name, sql FROM sqlite_schema WHERE type = 'trigger'"
		" AND tbl_name = 'rulings' ORDER BY rowid");
	if (!st)
		return RL_EINTERNAL;
	int rc = RL_OK, step;
	char drop[128] = "";
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 1);
		const char *sql = (const char *)sqlite3_column_text(st, 2);
		for (int i = 0; name && sql && i < NASIDE; i++) {
			if (strcmp(name, aside_names[i]) != 0 ||
			    !rl_schema_trigger(name, sql, false))
				continue;
			struct rl_aside *a = &db->aside[db->naside];
			if (!(a->sql = strdup(sql))) {
				rc = rl_db_fail(db, RL_ENOMEM, "out of memory");
				break;
			}
			a->rowid = sqlite3_column_int64(st, 0);
			db->naside++;
			/* (names of the schema's own: no quoting needed) */
			size_t n = strlen(drop);
			snprintf(drop + n, sizeof drop - n, "DROP TRIGGER %s;", name);
		}
	}
	if (!rc && step != SQLITE_DONE)
		rc = rl_db_sqlite_fail(db, step, "bulk load");
	sqlite3_finalize(st);
	if (!rc && *drop)
		rc = rl_db_exec(db, drop);
	return rc;
}

static int put_back(rl_db *db)
{
	int rc = RL_OK;
	for (int i = 0; i < db->naside && !rc; i++)
		rc = rl_db_exec(db, db->aside[i].sql);
	if (rc || !db->naside)
		return rc;
	/* back to their rowids, by way of negative ones (a new trigger may
	 * have been given another's old rowid) */
	int on = 1, off = 0;
	/* (checked when the statement is prepared) */
	sqlite3_db_config(db->h, SQLITE_DBCONFIG_WRITABLE_SCHEMA, on, NULL);
	sqlite3_stmt *st = rl_db_prepare(db,
		"UPDATE sqlite_schema SET rowid = ?1 WHERE type = 'trigger'"
		" AND sql = ?2");
	if (!st) {
		sqlite3_db_config(db->h, SQLITE_DBCONFIG_WRITABLE_SCHEMA, off, NULL);
		return RL_EINTERNAL;
	}
	for (int pass = 0; pass < 2 && !rc; pass++)
		for (int i = 0; i < db->naside && !rc; i++) {
			sqlite3_bind_int64(st, 1, pass ? db->aside[i].rowid
			                               : -db->aside[i].rowid);
			rl_bind_text(st, 2, db->aside[i].sql);
			rc = rl_store_run(db, st, "bulk load");
		}
	sqlite3_db_config(db->h, SQLITE_DBCONFIG_WRITABLE_SCHEMA, off, NULL);
	sqlite3_finalize(st);
	return rc;
}

int rl_bulk_begin(rl_db *db)
{
	if (db->bulk)
		return rl_db_fail(db, RL_EUSAGE, "a bulk load is already open");
	if (!db->write)
		return rl_db_fail(db, RL_EUSAGE, "the database is open for reading");
	int rc = rl_db_exec(db, "BEGIN IMMEDIATE");
	if (!rc)
		rc = rl_db_exec(db, todo_reset_sql);
	if (!rc)
		rc = set_aside(db);
	if (rc) {
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		forget_aside(db);
		return rc;
	}
	db->bulk = true;
	db->importing = true;
	return RL_OK;
}

int rl_bulk_end(rl_db *db, bool commit)
{
	if (db->bulk_lost) {
		db->bulk_lost = false;
		forget_aside(db);    /* (rolled back with the rest) */
		return rl_db_fail(db, RL_EIO, "the bulk load was rolled back by an "
		                  "earlier error");
	}
	if (!db->bulk)
		return rl_db_fail(db, RL_EUSAGE, "no bulk load is open");
	db->bulk = false;
	int rc = commit ? resolve(db) : RL_OK;
	if (!rc && commit)
		rc = rl_store_fts_flush(db);
	if (!rc && commit)
		rc = put_back(db);
	if (!rc && commit)
		rc = rl_db_exec(db, "COMMIT");
	if (rc || !commit)
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	forget_aside(db);
	db->importing = false;
	return rc;
}

int rl_store(rl_db *db, const struct rl_source *src, const struct rl_doc *doc,
             struct rl_import_result *res)
{
	const struct store_opts o = {0};
	return rl_store_with(db, src, doc, &o, res);
}

int rl_store_dry(rl_db *db, const struct rl_source *src,
                 const struct rl_doc *doc, struct rl_import_result *res)
{
	const struct store_opts o = { .dry = true };
	return rl_store_with(db, src, doc, &o, res);
}

int rl_store_seen(rl_db *db, const char *sha256, bool *seen)
{
	/* read by an older revision of its format: to be read again; a
	 * version of a thesaurus of every game behind its latest: to be
	 * stored again (one of a game's, imported with --game, is that
	 * game's document: read without the option it would be another) */
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT format FROM imports i WHERE sha256 = ?1"
		" AND NOT (" THESAURUS_BEHIND " AND (SELECT game_id FROM documents"
		" WHERE id = i.document_id) IS NULL)");
	if (!st)
		return RL_EINTERNAL;
	rl_bind_text(st, 1, sha256);
	*seen = false;
	int step = SQLITE_DONE;
	while (!*seen && (step = sqlite3_step(st)) == SQLITE_ROW)
		*seen = rl_read_as_current((const char *)sqlite3_column_text(st, 0));
	int rc = *seen || step == SQLITE_DONE ? RL_OK
	         : rl_db_sqlite_fail(db, step, "look up checksum");
	sqlite3_finalize(st);
	return rc;
}
