/* db.c — opening the database, applying the schema, reporting errors.
 *
 * The schema is the list of migrations compiled from the schema/NNN-name.sql files;
 * PRAGMA user_version records how many have been applied. Opening a database
 * applies the missing ones in one transaction. A database from a newer
 * rulings (user_version above ours) is refused rather than misread. */
#include "db.h"
#include "schema.h"
#include "stemtok.h"
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int rl_db_sqlite_fail(rl_db *db, int rc, const char *what)
{
	const char *msg = db->h ? sqlite3_errmsg(db->h) : sqlite3_errstr(rc);
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

const char *rl_db_errmsg(const rl_db *db)
{
	if (!db || db->errmsg_oom)
		return "out of memory";
	return db->errmsg ? db->errmsg : "no error";
}

int rl_db_schema_version(rl_db *db)
{
	sqlite3_stmt *st = rl_db_prepare(db, "PRAGMA user_version");
	if (!st)
		return -1;
	int v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
	sqlite3_finalize(st);
	return v;
}

/* SQL function rl_fold(text): case folding beyond ASCII, for filters. */
static void fold_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const unsigned char *s = sqlite3_value_text(argv[0]);
	if (!s) {
		sqlite3_result_null(ctx);
		return;
	}
	char *f = rl_fold((const char *)s);
	if (!f) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	sqlite3_result_text(ctx, f, -1, free);
}

/* SQL functions rl_key(text) and rl_key_loose(text): identity keys (see
 * rl_key()). */
static void key_result(sqlite3_context *ctx, sqlite3_value *v,
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

static void key_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	key_result(ctx, argv[0], rl_key);
}

static void key_loose_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	key_result(ctx, argv[0], rl_key_loose);
}

static int register_functions(rl_db *db)
{
	int rc = sqlite3_create_function(db->h, "rl_fold", 1,
		SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
		fold_func, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db->h, "rl_key", 1,
			SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
			NULL, key_func, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db->h, "rl_key_loose", 1,
			SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
			NULL, key_loose_func, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = rl_stemtok_register(db->h);
	return rc == SQLITE_OK ? RL_OK : rl_db_sqlite_fail(db, rc, "register");
}

/* mkdir -p for the directory part of path. */
static int make_parent(const char *path)
{
	char *dir = rl_strdup(path);
	if (!dir)
		return -ENOMEM;
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir) {
		free(dir);
		return 0;
	}
	*slash = '\0';
	for (char *p = dir + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;
			*p = '\0';
			if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
				int e = errno;
				free(dir);
				return -e;
			}
			*p = c;
			if (!c)
				break;
		}
	}
	free(dir);
	return 0;
}

static int migrate(rl_db *db)
{
	int have = rl_db_schema_version(db);
	if (have < 0)
		return rl_db_sqlite_fail(db, sqlite3_errcode(db->h), "read schema version");
	if (have > rl_schema_version)
		return rl_db_fail(db, RL_EINTERNAL,
		                  "database schema version %d is newer than this "
		                  "rulings understands (%d)", have, rl_schema_version);
	if (have == rl_schema_version)
		return RL_OK;
	int rc = rl_db_exec(db, "BEGIN IMMEDIATE");
	if (rc)
		return rc;
	/* Another process may have migrated while we waited for the lock. */
	have = rl_db_schema_version(db);
	if (have < 0)
		rc = rl_db_sqlite_fail(db, sqlite3_errcode(db->h),
		                       "read schema version");
	for (int i = have; i < rl_schema_version && rc == RL_OK; i++) {
		const struct rl_migration *m = &rl_schema_migrations[i];
		int src = sqlite3_exec(db->h, m->sql, NULL, NULL, NULL);
		if (src != SQLITE_OK) {
			rc = rl_db_sqlite_fail(db, src, m->name);
			break;
		}
		char pragma[64];
		snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", m->version);
		rc = rl_db_exec(db, pragma);
	}
	if (rc) {
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	return rl_db_exec(db, "COMMIT");
}

int rl_db_open(const char *path, int flags, rl_db **out)
{
	return rl_db_open_wait(path, flags, RL_BUSY_TIMEOUT_MS, out);
}

int rl_db_open_wait(const char *path, int flags, int busy_ms, rl_db **out)
{
	rl_db *db = calloc(1, sizeof *db);
	*out = db;
	if (!db)
		return RL_ENOMEM;
	db->busy_ms = busy_ms > 0 ? busy_ms : 0;
	bool write = flags & RL_OPEN_WRITE;
	if (!write && access(path, F_OK) != 0)
		return rl_db_fail(db, RL_EIO, "no database at '%s' (import a document "
		                  "first)", path);
	if (write) {
		int e = make_parent(path);
		if (e == -ENOMEM)
			return rl_db_fail(db, RL_ENOMEM, "out of memory");
		if (e < 0)
			return rl_db_fail(db, RL_EIO, "cannot create the directory for "
			                  "'%s': %s", path, strerror(-e));
	}
	int oflags = SQLITE_OPEN_READWRITE | (write ? SQLITE_OPEN_CREATE : 0);
	int rc = sqlite3_open_v2(path, &db->h, oflags, NULL);
	if ((rc & 0xFF) == SQLITE_NOMEM)
		return rl_db_fail(db, RL_ENOMEM, "out of memory");
	if (rc != SQLITE_OK)
		return rl_db_fail(db, RL_EIO, "cannot open database '%s': %s", path,
		                  db->h ? sqlite3_errmsg(db->h) : sqlite3_errstr(rc));
	sqlite3_extended_result_codes(db->h, 1);
	sqlite3_busy_timeout(db->h, db->busy_ms);
	/* WAL lets readers go on while one writer imports; foreign keys keep
	 * the links honest. */
	/* (Temporary tables stay in a temporary file: in memory, a bulk
	 * load's savepoint journals grew its peak RSS from 14 to 28 MB at 30k
	 * rulings and 86 MB at 1M.) */
	int r = rl_db_exec(db, "PRAGMA foreign_keys = ON");
	if (r)
		return r;
	/* rl_fold() for filters, the rl_stem tokenizer for the full-text
	 * tables (the schema needs it, so before any migration). */
	if ((r = register_functions(db)))
		return r;
	sqlite3_stmt *st = NULL;
	rc = sqlite3_prepare_v2(db->h, "PRAGMA journal_mode = WAL", -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return rl_db_sqlite_fail(db, rc, "cannot open database");
	return migrate(db);
}

void rl_db_close(rl_db *db)
{
	if (!db)
		return;
	sqlite3_close(db->h);
	free(db->errmsg);
	free(db);
}
