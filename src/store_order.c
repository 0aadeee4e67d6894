/* store_order.c — a version of a document older than its newest one.
 *
 * A document's versions are ordered by their days (RL_VERSION_DAY), then
 * by import. A version imported after a newer-dated one goes into its place
 * in the history: its changes are recorded against the version dated
 * before it, those of the version dated after it are computed again
 * against it, and the rulings' current texts, sources and tags stay the
 * newest version's (store.c stores its entries through
 * rl_store_put_older_entry()). Every version keeps its listing
 * (version_rulings, schema/013-version-listings.sql), so any two
 * neighbours can be compared. */
#include "store_write.h"
#include "util.h"

#include <stdio.h>

/* Records, at import to, what changed since import from (0: none, to is
 * the document's baseline: only its texts are kept): rulings added,
 * edited (white space aside) and withdrawn, and the new texts in
 * ruling_versions. Counts them in res when not NULL. */
static int diff(rl_db *db, struct stmts *s, long long from, long long to,
                struct rl_import_result *res)
{
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT coalesce(a.ruling_id, b.ruling_id), a.title, a.body,"
		" b.title, b.body, a.ruling_id IS NOT NULL, b.ruling_id IS NOT NULL"
		" FROM (SELECT * FROM version_rulings WHERE import_id = ?1) a"
		" FULL JOIN (SELECT * FROM version_rulings WHERE import_id = ?2) b"
		" ON b.ruling_id = a.ruling_id ORDER BY 1");
	if (!st)
		return RL_EINTERNAL;
	sqlite3_bind_int64(st, 1, from);
	sqlite3_bind_int64(st, 2, to);
	int rc = RL_OK, step;
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		long long id = sqlite3_column_int64(st, 0);
		const char *ot = (const char *)sqlite3_column_text(st, 1);
		const char *ob = (const char *)sqlite3_column_text(st, 2);
		struct rl_entry e = {
			.title = (char *)sqlite3_column_text(st, 3),
			.text = (char *)sqlite3_column_text(st, 4),
		};
		bool was = sqlite3_column_int(st, 5), is = sqlite3_column_int(st, 6);
		if (!from) {
			rc = rl_store_record(db, s, to, id, "added", NULL, NULL, &e,
			                     true);
		} else if (!was) {
			rc = rl_store_record(db, s, to, id, "added", NULL, NULL, &e,
			                     false);
			if (res)
				res->added++;
		} else if (!is) {
			rc = rl_store_record(db, s, to, id, "withdrawn", ot, ob, NULL,
			                     false);
			if (res)
				res->withdrawn++;
		} else if (!rl_store_same_folded(ot, e.title) ||
		           !rl_store_same_folded(ob, e.text)) {
			rc = rl_store_record(db, s, to, id, "edited", ot, ob, &e,
			                     false);
			if (res)
				res->edited++;
		}
	}
	if (!rc && step != SQLITE_DONE)
		rc = rl_db_sqlite_fail(db, step, "compare versions");
	sqlite3_finalize(st);
	return rc;
}

/* The version of the document dated before import (ties: imported
 * before it); 0 if none. */
static int previous(rl_db *db, long long import, long long *prev)
{
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT p.id FROM imports p JOIN imports v ON v.id = ?1"
		" AND p.document_id = v.document_id AND p.id <> v.id"
		" WHERE " RL_VERSION_DAY("p") " < " RL_VERSION_DAY("v")
		" OR (" RL_VERSION_DAY("p") " = " RL_VERSION_DAY("v")
		"     AND p.id < v.id)"
		" ORDER BY " RL_VERSION_DAY("p") " DESC, p.id DESC LIMIT 1");
	if (!st)
		return RL_EINTERNAL;
	sqlite3_bind_int64(st, 1, import);
	int rc = rl_store_run_id(db, st, prev, "find the previous version");
	sqlite3_finalize(st);
	return rc;
}

/* The marks of the rulings import lists: a mark belongs to the first
 * version, by date, of the run of versions that carry it up to the
 * newest (one that lists the ruling without the mark ends a run). */
static const char marks_sql[] =
	"WITH l AS (SELECT l.ruling_id, l.marked, l.import_id AS id,"
	"   row_number() OVER (PARTITION BY l.ruling_id"
	"     ORDER BY " RL_VERSION_DAY("i") ", i.id) AS n"
	"   FROM version_rulings l JOIN imports i ON i.id = l.import_id"
	"   WHERE i.document_id = ?1 AND l.ruling_id IN"
	"     (SELECT ruling_id FROM version_rulings WHERE import_id = ?2)),"
	" stop AS (SELECT ruling_id, max(n) AS n FROM l WHERE NOT marked"
	"   GROUP BY ruling_id)"
	" UPDATE rulings SET marked_import = (SELECT l.id FROM l"
	"   WHERE l.ruling_id = rulings.id AND l.marked AND l.n > ifnull((SELECT"
	"     stop.n FROM stop WHERE stop.ruling_id = rulings.id), 0)"
	"   ORDER BY l.n LIMIT 1)"
	" WHERE changed = 1"
	" AND id IN (SELECT ruling_id FROM version_rulings WHERE import_id = ?2)";

int rl_store_insert_version(rl_db *db, struct stmts *s, long long docid,
                            long long import, long long next,
                            struct rl_import_result *res)
{
	long long prev;
	int rc = previous(db, import, &prev);
	if (rc)
		return rc;
	res->baseline = prev == 0;
	if (prev) {
		sqlite3_stmt *st = rl_db_prepare(db, "SELECT count(*) FROM"
		                                 " version_rulings WHERE import_id = ?1");
		if (!st)
			return RL_EINTERNAL;
		sqlite3_bind_int64(st, 1, prev);
		long long before;
		rc = rl_store_run_id(db, st, &before, "count rulings");
		sqlite3_finalize(st);
		res->before = (size_t)before;
	}
	if (!rc)
		rc = diff(db, s, prev, import, res);
	if (rc)
		return rc;
	/* the next version's changes are now those since this one */
	char sql[160];
	snprintf(sql, sizeof sql, "DELETE FROM changes WHERE import_id = %lld;"
	         "DELETE FROM ruling_versions WHERE import_id = %lld;", next, next);
	if (!(rc = rl_db_exec(db, sql)))
		rc = diff(db, s, import, next, NULL);
	if (rc)
		return rc;
	sqlite3_stmt *st = rl_db_prepare(db, marks_sql);
	if (!st)
		return RL_EINTERNAL;
	sqlite3_bind_int64(st, 1, docid);
	sqlite3_bind_int64(st, 2, import);
	rc = rl_store_run(db, st, "date the marks");
	sqlite3_finalize(st);
	if (rc)
		return rc;
	/* the document's language and stated date stay the newest version's */
	char upd[512];
	snprintf(upd, sizeof upd, "UPDATE documents SET (lang, date) ="
	         " (SELECT lang, CASE WHEN date_source = 'document' THEN date END"
	         " FROM imports i WHERE document_id = %lld ORDER BY "
	         RL_VERSION_DAY("i") " DESC, id DESC LIMIT 1) WHERE id = %lld",
	         docid, docid);
	return rl_db_exec(db, upd);
}
