/* db.c — opening the database: whose file it is, reading it read-only,
 * creating and upgrading it; read transactions; reporting errors.
 *
 * A file is looked at before SQLite may change anything in it: its header
 * is read with read(2). A rulings database carries PRAGMA application_id
 * RL_APPLICATION_ID; a file with another one, or with none and a schema
 * that is not a rulings schema (one from before version 8 had no
 * application_id), or that is not an SQLite file at all, is "not a
 * rulings database" and stays byte for byte as it was: no table, no
 * journal mode, no -wal file (a file in WAL mode is looked into as an
 * immutable one then).
 *
 * Reading commands open the file with SQLITE_OPEN_READONLY and never
 * create, upgrade or write it. When the file is in WAL mode and its
 * directory cannot take the -wal and -shm files (a read-only directory or
 * mount), and there is no -wal file — so no writer can be at work — it is
 * read as immutable.
 *
 * The schema is the list of migrations compiled from schema/NNN-name.sql;
 * PRAGMA user_version records how many have been applied. A command that
 * writes creates a missing database, and upgrades an older one, in one
 * transaction (rl_db_info() says what it did). A database from a newer
 * rulings is refused rather than misread. */
#include "db.h"
#include "schema.h"
#include "stemtok.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The oldest schema the reading commands understand as it is. */
enum { SCHEMA_READABLE = 7 };

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

const struct rl_open_info *rl_db_info(const rl_db *db)
{
	return &db->info;
}

/* PRAGMA user_version into *v: RL_OK, or the error. */
static int read_version(rl_db *db, int *v)
{
	sqlite3_stmt *st = rl_db_prepare(db, "PRAGMA user_version");
	if (!st)
		return RL_EINTERNAL;
	int rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? RL_OK : rl_db_sqlite_fail(db, rc,
	                                                    "read schema version");
}

int rl_db_schema_version(rl_db *db)
{
	int v;
	return read_version(db, &v) ? -1 : v;
}

int rl_schema_latest(void)
{
	return rl_schema_version;
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

/* rl_importing(): 1 while rulings itself writes (the triggers stand
 * aside); the extension's says 0. */
static void importing_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const rl_db *db = sqlite3_user_data(ctx);
	sqlite3_result_int(ctx, db->importing);
}

static int register_functions(rl_db *db)
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
		{ "rl_importing", importing_func, 0, false },
	};
	int rc = SQLITE_OK;
	for (size_t i = 0; i < sizeof fns / sizeof *fns && rc == SQLITE_OK; i++)
		rc = sqlite3_create_function(db->h, fns[i].name, fns[i].argc,
			SQLITE_UTF8 | SQLITE_INNOCUOUS |
			(fns[i].deterministic ? SQLITE_DETERMINISTIC : 0),
			db, fns[i].fn, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = rl_stemtok_register(db->h);
	return rc == SQLITE_OK ? RL_OK : rl_db_sqlite_fail(db, rc, "register");
}

/* ---- whose file ------------------------------------------------------- */

enum kind {
	NO_FILE,        /* nothing there (yet) */
	EMPTY,          /* an empty file, or an SQLite file with no schema */
	OURS,           /* our application_id */
	LEGACY,         /* no application_id, a rulings schema of version <= 7 */
	FOREIGN,        /* anything else */
};

struct header {
	bool wal;       /* the file is in WAL mode */
	unsigned long app_id;
};

static unsigned long be32(const unsigned char *p)
{
	return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 |
	       (unsigned long)p[2] << 8 | p[3];
}

/* Reads the 100-byte header of file with read(2): NO_FILE, EMPTY (no
 * bytes), FOREIGN (not SQLite, or another application's id), OURS, or
 * LEGACY when there is no application_id (to be told apart from
 * FOREIGN by the schema). */
static enum kind read_header(const char *file, struct header *h, int *err)
{
	*h = (struct header){0};
	*err = 0;
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = errno;
		return errno == ENOENT ? NO_FILE : FOREIGN;
	}
	unsigned char b[100];
	ssize_t n = 0, r;
	while (n < (ssize_t)sizeof b &&
	       (r = read(fd, b + n, sizeof b - (size_t)n)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			*err = errno;
			close(fd);
			return FOREIGN;
		}
		n += r;
	}
	close(fd);
	if (n == 0)
		return EMPTY;
	if (n < 100 || memcmp(b, "SQLite format 3", 16) != 0)
		return FOREIGN;
	h->wal = b[18] == 2;
	h->app_id = be32(b + 68);
	if (h->app_id == RL_APPLICATION_ID)
		return OURS;
	return h->app_id ? FOREIGN : LEGACY;
}

static bool exists(const char *file, const char *suffix)
{
	struct rl_buf b = {0};
	rl_buf_adds(&b, file);
	rl_buf_adds(&b, suffix);
	char *p = rl_buf_take(&b);
	bool e = p && access(p, F_OK) == 0;
	free(p);
	return e;
}

/* "file:" + file, percent-encoded, + "?immutable=1": the file read with
 * neither locks nor -wal and -shm files. */
static char *immutable_uri(const char *file)
{
	struct rl_buf b = {0};
	rl_buf_adds(&b, "file:");
	for (const unsigned char *p = (const unsigned char *)file; *p; p++) {
		if (*p == '%' || *p == '?' || *p == '#' || *p <= ' ' || *p >= 0x7F)
			rl_buf_addf(&b, "%%%02X", *p);
		else
			rl_buf_addc(&b, (char)*p);
	}
	rl_buf_adds(&b, "?immutable=1");
	return rl_buf_take(&b);
}

/* The tables every rulings schema has had since version 1. */
static const char legacy_sql[] =
	"SELECT count(*) = 9 FROM sqlite_schema WHERE type = 'table' AND name IN"
	" ('games', 'documents', 'imports', 'rulings', 'ruling_sources', 'tags',"
	" 'ruling_tags', 'refs', 'errata')";

/* A file with no application_id: EMPTY (no schema, user_version 0), LEGACY
 * (a rulings schema of version 1 to 7) or FOREIGN. Looked at through its
 * own read-only connection; a file in WAL mode whose -wal file is
 * missing, through an immutable one, so that no -wal or -shm is made. */
static int classify(rl_db *db, const char *file, const struct header *hd,
                    enum kind *kind)
{
	char *uri = NULL;
	int flags = SQLITE_OPEN_READONLY;
	if (hd->wal && !(exists(file, "-wal") && exists(file, "-shm"))) {
		if (!(uri = immutable_uri(file)))
			return RL_ENOMEM;
		flags |= SQLITE_OPEN_URI;
	}
	sqlite3 *h = NULL;
	int rc = sqlite3_open_v2(uri ? uri : file, &h, flags, NULL);
	free(uri);
	int objects = -1, version = 0, legacy = 0;
	sqlite3_stmt *st = NULL;
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(h, db->busy_ms);
		struct rl_buf b = {0};
		rl_buf_addf(&b, "SELECT (SELECT count(*) FROM sqlite_schema),"
		            " (SELECT user_version FROM pragma_user_version), (%s)",
		            legacy_sql);
		char *sql = rl_buf_take(&b);
		rc = sql ? sqlite3_prepare_v2(h, sql, -1, &st, NULL) : SQLITE_NOMEM;
		free(sql);
	}
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		objects = sqlite3_column_int(st, 0);
		version = sqlite3_column_int(st, 1);
		legacy = sqlite3_column_int(st, 2);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	sqlite3_close(h);
	if ((rc & 0xFF) == SQLITE_NOMEM)
		return RL_ENOMEM;
	if (rc != SQLITE_OK && (rc & 0xFF) != SQLITE_NOTADB &&
	    (rc & 0xFF) != SQLITE_CORRUPT)
		return rl_db_fail(db, RL_EIO, "cannot read '%s': %s", file,
		                  sqlite3_errstr(rc));
	if (rc != SQLITE_OK)
		*kind = FOREIGN;
	else if (objects == 0 && version == 0)
		*kind = EMPTY;
	else if (legacy && version >= 1 && version < 8)
		*kind = LEGACY;
	else
		*kind = FOREIGN;
	return RL_OK;
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

/* ---- schema ----------------------------------------------------------- */

/* Applies the migrations after version have, then sets the
 * application_id, in the caller's transaction. Version 8 also refolds
 * (rl_refold()), rebuilding the full-text tables when a ruling holds
 * U+02BC, which the tokenizer now takes as a separator. */
static int apply_migrations(rl_db *db, int have)
{
	int rc = RL_OK;
	for (int i = have; i < rl_schema_version && rc == RL_OK; i++) {
		const struct rl_migration *m = &rl_schema_migrations[i];
		int src = sqlite3_exec(db->h, m->sql, NULL, NULL, NULL);
		if (src != SQLITE_OK) {
			rc = rl_db_sqlite_fail(db, src, m->name);
			break;
		}
		if (m->version == 8 && have > 0) {
			sqlite3_stmt *st = rl_db_prepare(db,
				"SELECT 1 FROM rulings WHERE instr(title, char(700))"
				" OR instr(body, char(700)) LIMIT 1");
			if (!st)
				return RL_EINTERNAL;
			int step = sqlite3_step(st);
			sqlite3_finalize(st);
			if (step != SQLITE_ROW && step != SQLITE_DONE)
				return rl_db_sqlite_fail(db, step, m->name);
			rc = rl_refold(db, step == SQLITE_ROW,
			               &db->info.merged_rulings, &db->info.merged_tags);
		}
		if (!rc) {
			char pragma[64];
			snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d",
			         m->version);
			rc = rl_db_exec(db, pragma);
		}
	}
	if (!rc) {
		char pragma[64];
		snprintf(pragma, sizeof pragma, "PRAGMA application_id = %d",
		         RL_APPLICATION_ID);
		rc = rl_db_exec(db, pragma);
	}
	return rc;
}

int rl_db_upgrade_within(rl_db *db)
{
	int have = 0;
	int rc = read_version(db, &have);
	if (rc || have <= 0 || have >= rl_schema_version)
		return rc;
	long long merged_rulings = db->info.merged_rulings,
	          merged_tags = db->info.merged_tags;
	rc = apply_migrations(db, have);
	db->info.merged_rulings = merged_rulings;
	db->info.merged_tags = merged_tags;
	return rc;
}

/* In one transaction: creates the schema in an EMPTY database, or
 * upgrades an older one — unless another process did so while this one
 * waited for the lock. */
static int migrate(rl_db *db, bool create)
{
	int rc = rl_db_exec(db, "BEGIN IMMEDIATE");
	if (rc)
		return rc;
	int have = 0;
	rc = read_version(db, &have);
	if (!rc && have < 0)
		rc = rl_db_fail(db, RL_EIO, "not a rulings database (schema "
		                "version %d)", have);
	if (!rc && have > rl_schema_version)
		rc = rl_db_fail(db, RL_EINTERNAL, "database schema version %d is "
		                "newer than this rulings understands (%d)", have,
		                rl_schema_version);
	if (!rc && have < rl_schema_version) {
		rc = apply_migrations(db, have);
		if (!rc && have > 0)
			db->info.upgraded_from = have;
		if (!rc && have == 0)
			db->info.created = create;
	}
	if (rc) {
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		db->info.upgraded_from = 0;
		db->info.created = false;
		db->info.merged_rulings = db->info.merged_tags = 0;
		return rc;
	}
	rc = rl_db_exec(db, "COMMIT");
	if (!rc)
		db->info.version = rl_schema_version;
	return rc;
}

/* The journal mode of a database rulings writes: WAL, so that readers go
 * on while it imports. */
static int ensure_wal(rl_db *db)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db->h, "PRAGMA journal_mode = WAL", -1, &st,
	                            NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? RL_OK
	                        : rl_db_sqlite_fail(db, rc, "cannot open database");
}

/* ---- opening ---------------------------------------------------------- */

/* Opens db->h; with setup, the SQL functions and tokenizer are
 * registered, which makes SQLite read the schema: not before the file is
 * known to be ours. */
static int open_handle(rl_db *db, const char *name, int flags, bool setup)
{
	sqlite3_close(db->h);
	db->h = NULL;
	int rc = sqlite3_open_v2(name, &db->h, flags, NULL);
	if ((rc & 0xFF) == SQLITE_NOMEM)
		return rl_db_fail(db, RL_ENOMEM, "out of memory");
	if (rc != SQLITE_OK)
		return rl_db_fail(db, RL_EIO, "cannot open database '%s': %s", name,
		                  db->h ? sqlite3_errmsg(db->h) : sqlite3_errstr(rc));
	sqlite3_extended_result_codes(db->h, 1);
	sqlite3_busy_timeout(db->h, db->busy_ms);
	return setup ? register_functions(db) : RL_OK;
}

/* The first read of a reader's connection; on a read-only directory or
 * mount where SQLite cannot make the -shm file of a WAL database, the
 * file is read as immutable, which is safe when there is no -wal file:
 * no writer is at work (it would need one). */
static int first_read(rl_db *db, const char *file, const struct header *hd,
                      int *version)
{
	int rc = register_functions(db);
	if (!rc)
		rc = read_version(db, version);
	/* (whatever the error: read as immutable, it reads or fails alike) */
	if (!rc || rc == RL_ENOMEM || !hd->wal || exists(file, "-wal"))
		return rc;
	char *uri = immutable_uri(file);
	if (!uri)
		return RL_ENOMEM;
	rc = open_handle(db, uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, true);
	free(uri);
	if (!rc)
		rc = read_version(db, version);
	if (!rc)
		db->info.immutable = true;
	return rc;
}

/* A database as it is, for reading: a version this rulings reads. */
static int check_version(rl_db *db, const char *path, int version)
{
	if (version > rl_schema_version)
		return rl_db_fail(db, RL_EINTERNAL, "database schema version %d is "
		                  "newer than this rulings understands (%d)",
		                  version, rl_schema_version);
	if (version == 0)
		return rl_db_fail(db, RL_EIO, "'%s' holds no rulings yet (import a "
		                  "document first)", path);
	if (version < 0)
		return rl_db_fail(db, RL_EIO, "'%s' is not a rulings database "
		                  "(schema version %d)", path, version);
	if (version < SCHEMA_READABLE)
		return rl_db_fail(db, RL_EIO, "'%s' has schema version %d, older "
		                  "than this rulings reads: a command that writes "
		                  "(import, reindex) upgrades it", path, version);
	return RL_OK;
}

static bool is_uri(const char *path)
{
	return strncmp(path, "file:", 5) == 0;
}

int rl_db_open(const char *path, int flags, rl_db **out)
{
	return rl_db_open_wait(path, flags, RL_BUSY_TIMEOUT_MS, out);
}

static int open_db(rl_db *db, const char *path, int flags);

int rl_db_open_wait(const char *path, int flags, int busy_ms, rl_db **out)
{
	rl_db *db = calloc(1, sizeof *db);
	*out = db;
	if (!db)
		return RL_ENOMEM;
	db->busy_ms = busy_ms > 0 ? busy_ms : 0;
	int rc = open_db(db, path, flags);
	/* our own allocations leave no message behind */
	if (rc == RL_ENOMEM && !db->errmsg)
		rl_db_fail(db, RL_ENOMEM, "out of memory");
	return rc;
}

static int open_db(rl_db *db, const char *path, int flags)
{
	bool write = flags & RL_OPEN_WRITE;
	bool upgrade = write && !(flags & RL_OPEN_NO_UPGRADE);
	int uri = is_uri(path) ? SQLITE_OPEN_URI : 0;

	/* A read-only connection first: it opens the file (or fails to)
	 * without reading or writing a byte, and names it. */
	int rc = open_handle(db, path, SQLITE_OPEN_READONLY | uri, false);
	const char *file = rc ? NULL : sqlite3_db_filename(db->h, "main");
	if (!rc && !*file && (flags & RL_OPEN_FILE))
		return rl_db_fail(db, RL_EUSAGE, "'%s' is not a database file: "
		                  "nothing written there would be kept", path);
	struct header hd = {0};
	enum kind kind = EMPTY;      /* an in-memory or temporary database */
	int err = 0;
	char *name = NULL;           /* the file's name, while db->h changes */
	if (rc == RL_EIO && ((write && uri) || (!uri && access(path, F_OK) != 0 &&
	                                        errno == ENOENT))) {
		kind = NO_FILE;       /* (with a URI, or one SQLite cannot open) */
		rc = RL_OK;
	} else if (rc)
		return rc;
	else if (*file && !(name = rl_strdup(file)))
		return RL_ENOMEM;
	if (name) {
		kind = read_header(name, &hd, &err);
		if (kind == FOREIGN && err)
			rc = rl_db_fail(db, RL_EIO, "cannot read '%s': %s", path,
			                strerror(err));
		else if (kind == LEGACY)
			rc = classify(db, name, &hd, &kind);
	}
	if (!rc && kind == FOREIGN)
		rc = rl_db_fail(db, RL_EIO, "'%s' is not a rulings database", path);
	if (rc == RL_OK && (kind == NO_FILE || kind == EMPTY) && !write)
		rc = rl_db_fail(db, RL_EIO, kind == NO_FILE
		                ? "no database at '%s' (import a document first)"
		                : "'%s' holds no rulings yet (import a document "
		                  "first)", path);
	/* (an in-memory database is made even for a dry run: nothing of it
	 * is kept) */
	bool memory = kind == EMPTY && !name;
	if (!rc && (kind == NO_FILE || kind == EMPTY) && !upgrade && !memory)
		rc = rl_db_fail(db, RL_EIO, "'%s' holds no rulings yet", path);
	if (memory && write)
		upgrade = true;
	if (rc) {
		free(name);
		return rc;
	}

	if (!write) {
		rc = first_read(db, name, &hd, &db->info.version);
		free(name);
		return rc ? rc : check_version(db, path, db->info.version);
	}

	db->write = true;
	if (kind == NO_FILE && !uri) {
		int e = make_parent(path);
		if (e == -ENOMEM)
			rc = rl_db_fail(db, RL_ENOMEM, "out of memory");
		else if (e < 0)
			rc = rl_db_fail(db, RL_EIO, "cannot create the directory for "
			                "'%s': %s", path, strerror(-e));
	}
	if (!rc)
		rc = open_handle(db, path, SQLITE_OPEN_READWRITE | uri |
		                 (kind == NO_FILE ? SQLITE_OPEN_CREATE : 0), true);
	free(name);
	/* foreign keys keep the links honest */
	if (!rc)
		rc = rl_db_exec(db, "PRAGMA foreign_keys = ON");
	if (!rc)
		rc = read_version(db, &db->info.version);
	if (!rc && upgrade && db->info.version != rl_schema_version)
		rc = migrate(db, kind == NO_FILE || kind == EMPTY);
	if (!rc && !upgrade)
		rc = check_version(db, path, db->info.version);
	/* WAL lets readers go on while one writer imports. (Temporary tables
	 * stay in a temporary file: in memory, a bulk load's savepoint
	 * journals grew its peak RSS from 14 to 28 MB at 30k rulings and 86
	 * MB at 1M.) */
	if (!rc && upgrade)
		rc = ensure_wal(db);
	if (!rc) {
		sqlite3_stmt *st = rl_db_prepare(db,
			"SELECT NOT EXISTS (SELECT 1 FROM imports)");
		int step = st ? sqlite3_step(st) : SQLITE_ERROR;
		if (step == SQLITE_ROW)
			db->info.fresh = sqlite3_column_int(st, 0);
		else
			rc = st ? rl_db_sqlite_fail(db, step, "cannot open database")
			        : RL_EINTERNAL;
		sqlite3_finalize(st);
	}
	if (!rc && db->info.upgraded_from)
		sqlite3_wal_checkpoint_v2(db->h, NULL, SQLITE_CHECKPOINT_PASSIVE,
		                          NULL, NULL);
	return rc;
}

void rl_db_close(rl_db *db)
{
	if (!db)
		return;
	sqlite3_close(db->h);
	free(db->errmsg);
	free(db);
}
