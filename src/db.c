/* db.c — the database handle: errors and their messages, statements,
 * read transactions, the SQL functions rulings registers, closing.
 *
 * Opening is db_open.c (whose file it is: db_file.c; the schema and its
 * migrations: db_schema.c). */
#include "db.h"
#include "db_open.h"
#include "schema.h"
#include "stemtok.h"
#include "topk.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rl_db_fail(rl_db *db, int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *msg = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (msg) {
		va_start(ap, fmt);
		vsnprintf(msg, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	free(db->errmsg);
	db->errmsg = msg;
	db->errmsg_oom = !msg;
	return status;
}

/* The first full-text table missing from db, or NULL: a copy made by a
 * program without the rulings_fts extension (sqlite3's .clone creates
 * each table anew, which needs the extension's tokenizer; without it
 * only the tables' shadow tables come across). */
static const char *fts_missing(rl_db *db)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db->h, "SELECT 1 FROM sqlite_schema WHERE"
	                       " type = 'table' AND name = ?1", -1, &st,
	                       NULL) != SQLITE_OK)
		return NULL;
	const char *missing = NULL;
	for (size_t i = 0; i < 4 && !missing; i++) {
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, rl_fts_tables[i], -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_DONE)
			missing = rl_fts_tables[i];
	}
	sqlite3_finalize(st);
	return missing;
}

int rl_db_sqlite_fail(rl_db *db, int rc, const char *what)
{
	const char *msg = db->h ? sqlite3_errmsg(db->h) : sqlite3_errstr(rc);
	/* SQLite's "no such table: rulings_fts_en" is true but says neither
	 * why nor what to do */
	const char *gone;
	if (db->h && (rc & 0xFF) == SQLITE_ERROR &&
	    strncmp(msg, "no such table: ", 15) == 0 &&
	    strstr(msg, "rulings_fts_") && (gone = fts_missing(db)))
		return rl_db_fail(db, RL_EDATA, "%s: the full-text table %s is "
		                  "missing: the database is a copy made without "
		                  "the rulings_fts extension (sqlite3's .clone "
		                  "cannot make the table without it); 'rulings "
		                  "reindex' makes the full-text tables again from "
		                  "the rulings (sqlite3's .backup, VACUUM INTO and "
		                  "'rulings publish' make copies that keep them)",
		                  what, gone);
	switch (rc & 0xFF) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return rl_db_fail(db, RL_EBUSY,
		                  "database is locked by another process; gave up "
		                  "after waiting %d ms (try again)", db->busy_ms);
	case SQLITE_NOMEM:
		return rl_db_fail(db, RL_ENOMEM, "out of memory");
	case SQLITE_IOERR:
	case SQLITE_CANTOPEN:
	case SQLITE_READONLY:
	case SQLITE_FULL:
	case SQLITE_PERM:
		return rl_db_fail(db, RL_EIO, "%s: %s", what, msg);
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		return rl_db_fail(db, RL_EIO, "%s: %s (not a rulings database?)",
		                  what, msg);
	default:
		return rl_db_fail(db, RL_EINTERNAL, "%s: %s", what, msg);
	}
}

sqlite3_stmt *rl_db_prepare(rl_db *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
	if (rc != SQLITE_OK) {
		rl_db_sqlite_fail(db, rc, "prepare");
		sqlite3_finalize(st);
		return NULL;
	}
	return st;
}

int rl_db_exec(rl_db *db, const char *sql)
{
	int rc = sqlite3_exec(db->h, sql, NULL, NULL, NULL);
	return rc == SQLITE_OK ? RL_OK : rl_db_sqlite_fail(db, rc, "sql");
}

/* SQLITE_STATIC, not SQLITE_TRANSIENT: a copy can fail for want of memory,
 * and a failed bind leaves the parameter NULL, which the statement would
 * then store (or trip over as a constraint) unless every caller checked. */
int rl_bind_text(sqlite3_stmt *st, int i, const char *s)
{
	return s ? sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC)
	         : sqlite3_bind_null(st, i);
}

char *rl_column_dup(sqlite3_stmt *st, int i, bool *oom)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	if (!s)
		return NULL;
	char *d = rl_strdup((const char *)s);
	if (!d)
		*oom = true;
	return d;
}

int rl_db_collect(rl_db *db, sqlite3_stmt *st, void *v, size_t *n,
                  size_t *cap, size_t size,
                  void (*fill)(sqlite3_stmt *st, void *elem, void *ctx,
                               bool *oom),
                  void *ctx, const char *what)
{
	bool oom = false;
	int rc = SQLITE_DONE;
	while (!oom && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!rl_grow(v, cap, *n + 1, size))
			return RL_ENOMEM;
		char *elem = *(char **)v + *n * size;
		memset(elem, 0, size);
		++*n;
		fill(st, elem, ctx, &oom);
	}
	if (oom)
		return RL_ENOMEM;
	return rc == SQLITE_DONE ? RL_OK : rl_db_sqlite_fail(db, rc, what);
}

const char *rl_db_errmsg(const rl_db *db)
{
	if (!db || db->errmsg_oom)
		return "out of memory";
	return db->errmsg ? db->errmsg : "no error";
}

const struct rl_open_info *rl_db_info(const rl_db *db)
{
	return &db->info;
}

/* ---- read transactions ------------------------------------------------ */

int rl_read_begin(rl_db *db)
{
	if (db->reading++ > 0 || !sqlite3_get_autocommit(db->h))
		return RL_OK;
	int rc = rl_db_exec(db, "BEGIN");
	if (rc)
		db->reading--;
	else
		db->read_txn = true;
	return rc;
}

int rl_read_end(rl_db *db, int status)
{
	if (db->reading == 0 || --db->reading > 0 || !db->read_txn)
		return status;
	db->read_txn = false;
	if (sqlite3_get_autocommit(db->h))
		return status;    /* an error ended it already */
	int rc = sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		if (!status)
			status = rl_db_sqlite_fail(db, rc, "end of read");
	}
	return status;
}

/* ---- SQL functions ---------------------------------------------------- */

/* rl_fold(text), rl_key(text), rl_key_loose(text): the identity folds. */
static void text_result(sqlite3_context *ctx, sqlite3_value *v,
                        char *(*fn)(const char *))
{
	const unsigned char *s = sqlite3_value_text(v);
	if (!s) {
		sqlite3_result_null(ctx);
		return;
	}
	char *k = fn((const char *)s);
	if (!k) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	sqlite3_result_text(ctx, k, -1, free);
}

static void fold_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	text_result(ctx, argv[0], rl_fold);
}

static void key_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	text_result(ctx, argv[0], rl_key);
}

static void key_loose_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	text_result(ctx, argv[0], rl_key_loose);
}

/* RL_TRIGGER_FN() and its old names (RL_TRIGGER_FN_16, rl_importing): 1 while rulings
 * itself writes (the triggers stand aside); the extension's says 0. */
static void importing_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const rl_db *db = sqlite3_user_data(ctx);
	sqlite3_result_int(ctx, db->importing);
}

fts5_api *rl_db_fts5(rl_db *db)
{
	if (!db->fts5)
		db->fts5 = rl_fts5_api(db->h);
	return db->fts5;
}

int rl_db_register_functions(rl_db *db)
{
	static const struct {
		const char *name;
		void (*fn)(sqlite3_context *, int, sqlite3_value **);
		int argc;
		bool deterministic;
	} fns[] = {
		{ "rl_fold", fold_func, 1, true },
		{ "rl_key", key_func, 1, true },
		{ "rl_key_loose", key_loose_func, 1, true },
		{ RL_TRIGGER_FN, importing_func, 0, false },
		{ RL_TRIGGER_FN_16, importing_func, 0, false },
		{ "rl_importing", importing_func, 0, false },
	};
	int rc = SQLITE_OK;
	for (size_t i = 0; i < sizeof fns / sizeof *fns && rc == SQLITE_OK; i++)
		rc = sqlite3_create_function(db->h, fns[i].name, fns[i].argc,
			SQLITE_UTF8 | SQLITE_INNOCUOUS |
			(fns[i].deterministic ? SQLITE_DETERMINISTIC : 0),
			db, fns[i].fn, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = rl_stemtok_register_api(rl_db_fts5(db));
	if (rc == SQLITE_OK)
		rc = rl_topk_bm25_register(db->h);
	return rc == SQLITE_OK ? RL_OK : rl_db_sqlite_fail(db, rc, "register");
}

/* A writer's last act: copy what it committed from the write-ahead log
 * into the database file, so that the file alone holds it. SQLite does
 * that on closing only when no other connection is open; a reader's
 * (another rulings, the sqlite3 shell, a script) kept it from happening,
 * and a read-only connection never checkpoints, so the log could stay
 * with hundreds of MB of commits in it and the .db file alone, copied,
 * be malformed. PASSIVE copies all that no reader's snapshot still
 * needs, without waiting; TRUNCATE then empties the log if nobody reads
 * from it, again without waiting (a reader that still needs frames keeps
 * them: that is what WAL is for). Best effort: a failure changes nothing
 * that was committed. */
static void checkpoint_on_close(rl_db *db)
{
	if (!db->h || !db->write || !sqlite3_get_autocommit(db->h))
		return;
	sqlite3_wal_checkpoint_v2(db->h, NULL, SQLITE_CHECKPOINT_PASSIVE,
	                          NULL, NULL);
	sqlite3_busy_timeout(db->h, 0);
	sqlite3_wal_checkpoint_v2(db->h, NULL, SQLITE_CHECKPOINT_TRUNCATE,
	                          NULL, NULL);
}

void rl_db_close(rl_db *db)
{
	if (!db)
		return;
	checkpoint_on_close(db);
	sqlite3_close(db->h);
	for (int i = 0; i < db->naside; i++)
		free(db->aside[i].sql);
	free(db->errmsg);
	free(db);
}
