/* db_open.c — opening the database: whose file it is (db_file.c), reading
 * it read-only, creating and upgrading it (db_schema.c).
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
#include "db_open.h"
#include "schema.h"
#include "sqlmem.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* ---- the process's SQLite ---------------------------------------------- */

int rl_sqlite_setup(void)
{
	/* Debian's SQLite is built without lookaside memory
	 * (SQLITE_OMIT_LOOKASIDE): every allocation of SQLite's goes to
	 * malloc, and with the statistics each took a global mutex and
	 * counted itself: 14 % of a search's instructions on a small
	 * database (bench/RESULTS.md, session 14). Connections are opened
	 * without their own mutex already (open_handle); the global mode
	 * (SQLITE_CONFIG_SINGLETHREAD) saved 0.2 % more, not worth making
	 * a second thread's SQLite unsafe.
	 * No page cache allocated in bulk either: SQLite's first page of
	 * each cache (the main database's, the temporary one's) mallocs
	 * room for 20 pages and writes into each, 80 KB and 20 pages the
	 * kernel faults in per cache whether they are used or not: 1 ms of
	 * a 10 ms search on a small database, 85 page faults of its 426
	 * (bench/RESULTS.md, session 15). Pages then come from malloc one
	 * at a time, as a large query's do past the bulk's 20 anyway.
	 * Those blocks, and the rest of SQLite's up to 64 KB, come from
	 * one 8 MB region the kernel may back with huge pages
	 * (sqlmem.c): 90 fewer page faults a search on a small database. */
	if (rl_sqlmem_setup() != SQLITE_OK)
		return RL_EINTERNAL;
	if (sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)NULL, 0, 0)
	    != SQLITE_OK)
		return RL_EINTERNAL;
	return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK
	       ? RL_OK : RL_EINTERNAL;
}

/* ---- opening ---------------------------------------------------------- */

/* Opens db->h; with setup, the SQL functions and tokenizer are
 * registered, which makes SQLite read the schema: not before the file is
 * known to be ours. */
static int open_handle(rl_db *db, const char *name, int flags, bool setup)
{
	sqlite3_close(db->h);
	db->h = NULL;
	db->fts5 = NULL;
	/* no connection mutex: a handle is never used by two threads at once
	 * (rulings/database.h) */
	int rc = sqlite3_open_v2(name, &db->h, flags | SQLITE_OPEN_NOMUTEX, NULL);
	if ((rc & 0xFF) == SQLITE_NOMEM)
		return rl_db_fail(db, RL_ENOMEM, "out of memory");
	if (rc != SQLITE_OK)
		return rl_db_fail(db, RL_EIO, "cannot open database '%s': %s", name,
		                  db->h ? sqlite3_errmsg(db->h) : sqlite3_errstr(rc));
	sqlite3_extended_result_codes(db->h, 1);
	sqlite3_busy_timeout(db->h, db->busy_ms);
	return setup ? rl_db_register_functions(db) : RL_OK;
}

/* The first read of a reader's connection; on a read-only directory or
 * mount where SQLite cannot make the -shm file of a WAL database, the
 * file is read as immutable, which is safe when there is no -wal file:
 * no writer is at work (it would need one). */
static int first_read(rl_db *db, const char *path, const char *file,
                      const struct rl_db_header *hd, int *version)
{
	int rc = rl_db_register_functions(db);
	if (!rc)
		rc = rl_db_read_version(db, version);
	if (!rc || rc == RL_ENOMEM || !hd->wal)
		return rc;
	/* A -wal file may hold commits the file lacks: not to be read past.
	 * Without its -shm file SQLite cannot read it where it cannot make
	 * one (a copy of the .db and its -wal on a read-only mount), and said
	 * "unable to open database file". */
	if (rl_db_file_exists(file, "-wal"))
		return rl_db_file_exists(file, "-shm") ? rc :
		       rl_db_fail(db, RL_EIO, "cannot read '%s': it has a -wal "
		                  "file (changes not yet in the database file) "
		                  "but no -shm file, and none can be made beside it "
		                  "(copy the -shm file too, or let a command that "
		                  "writes end first: it empties the -wal file)",
		                  path);
	/* (whatever the error: read as immutable, it reads or fails alike) */
	char *uri = rl_db_immutable_uri(file);
	if (!uri)
		return RL_ENOMEM;
	rc = open_handle(db, uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, true);
	free(uri);
	if (!rc)
		rc = rl_db_read_version(db, version);
	if (!rc)
		db->info.immutable = true;
	return rc;
}


static bool is_uri(const char *path)
{
	return strncmp(path, "file:", 5) == 0;
}

/* A command that writes needs to write the file and its directory (the
 * -wal, -shm and journal files go there): said plainly before a byte is
 * written, rather than SQLite's "attempt to write a readonly database"
 * half-way, or a -wal file left beside a file it could not write. (As
 * root, access(2) grants what the mode bits deny, as SQLite would.) */
static int check_writable(rl_db *db, const char *path, const char *file)
{
	if (access(file, W_OK) != 0)
		return rl_db_fail(db, RL_EIO, "cannot write '%s': %s", path,
		                  strerror(errno));
	char *dir = rl_strdup(file);
	if (!dir)
		return RL_ENOMEM;
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir] = '\0';
	int rc = RL_OK;
	if (access(slash ? dir : ".", W_OK) != 0)
		rc = rl_db_fail(db, RL_EIO, "cannot write in the directory of "
		                "'%s' (its -wal and -shm files go there): %s",
		                path, strerror(errno));
	free(dir);
	return rc;
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
	struct stat sb;
	if (!uri && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		return rl_db_fail(db, RL_EIO, "'%s' is a directory, not a "
		                  "database file", path);

	/* A read-only connection first: it opens the file (or fails to)
	 * without reading or writing a byte, and names it. */
	int rc = open_handle(db, path, SQLITE_OPEN_READONLY | uri, false);
	const char *file = rc ? NULL : sqlite3_db_filename(db->h, "main");
	if (!rc && !*file && (flags & RL_OPEN_FILE))
		return rl_db_fail(db, RL_EUSAGE, "'%s' is not a database file: "
		                  "nothing written there would be kept", path);
	struct rl_db_header hd = {0};
	enum rl_db_kind kind = DB_EMPTY; /* an in-memory or temporary database */
	int err = 0;
	char *name = NULL;           /* the file's name, while db->h changes */
	if (rc == RL_EIO && ((write && uri) || (!uri && access(path, F_OK) != 0 &&
	                                        errno == ENOENT))) {
		kind = DB_NO_FILE;    /* (with a URI, or one SQLite cannot open) */
		rc = RL_OK;
	} else if (rc)
		return rc;
	else if (*file && !(name = rl_strdup(file)))
		return RL_ENOMEM;
	if (name) {
		kind = rl_db_read_header(name, &hd, &err);
		if (kind == DB_FOREIGN && err)
			rc = rl_db_fail(db, RL_EIO, "cannot read '%s': %s", path,
			                strerror(err));
		else if (kind == DB_LEGACY)
			rc = rl_db_classify(db, name, &hd, &kind);
	}
	if (!rc && kind == DB_FOREIGN)
		rc = rl_db_fail(db, RL_EIO, "'%s' is not a rulings database", path);
	/* A copy loaded from sqlite3's .dump (or made by .clone, which also
	 * leaves out the full-text tables): every table, neither pragma.
	 * Refused like a foreign file (nothing tells its schema version for
	 * sure), with the two pragmas that mark it again. */
	if (!rc && kind == DB_DUMPED_LATEST)
		rc = rl_db_fail(db, RL_EIO, "'%s' is not marked as a rulings "
		                "database: it has the tables of one, those of "
		                "schema version %d, but neither its application_id "
		                "nor its schema version, which sqlite3's .dump "
		                "and .clone leave out; mark it: sqlite3 '%s' 'PRAGMA "
		                "application_id = %d; PRAGMA user_version = %d', "
		                "then run 'rulings check' (rulings publish and "
		                "sqlite3's .backup make copies that keep them)",
		                path, rl_schema_version, name, RL_APPLICATION_ID,
		                rl_schema_version);
	if (!rc && kind == DB_DUMPED)
		rc = rl_db_fail(db, RL_EIO, "'%s' is not marked as a rulings "
		                "database: it has the tables of one, of an older "
		                "schema than this rulings' (%d) or changed, but "
		                "neither its application_id nor its schema version, "
		                "which sqlite3's .dump and .clone leave out; mark "
		                "it with those of the database it was copied from "
		                "(sqlite3 ORIGINAL 'PRAGMA user_version' says the "
		                "version): sqlite3 '%s' 'PRAGMA application_id = %d; "
		                "PRAGMA user_version = VERSION', then run 'rulings "
		                "reindex' (a .clone also leaves out the full-text "
		                "tables, which it makes again) and 'rulings check'",
		                path, rl_schema_version, name, RL_APPLICATION_ID);
	if (rc == RL_OK && (kind == DB_NO_FILE || kind == DB_EMPTY) &&
	    (!write || (flags & RL_OPEN_EXISTING)))
		rc = rl_db_fail(db, RL_EIO, kind == DB_NO_FILE
		                ? "no database at '%s' (import a document first)"
		                : "'%s' holds no rulings yet (import a document "
		                  "first)", path);
	/* (an in-memory database is made even for a dry run: nothing of it
	 * is kept) */
	bool memory = kind == DB_EMPTY && !name;
	if (!rc && (kind == DB_NO_FILE || kind == DB_EMPTY) && !upgrade && !memory)
		rc = rl_db_fail(db, RL_EIO, "'%s' holds no rulings yet", path);
	if (memory && write)
		upgrade = true;
	if (rc) {
		free(name);
		return rc;
	}

	if (!write) {
		rc = first_read(db, path, name, &hd, &db->info.version);
		free(name);
		return rc ? rc : rl_db_check_version(db, path, db->info.version);
	}

	db->write = true;
	if (name && kind != DB_NO_FILE && !memory)
		rc = check_writable(db, path, name);
	if (!rc && kind == DB_NO_FILE && !uri) {
		int e = rl_db_make_parent(path);
		if (e == -ENOMEM)
			rc = rl_db_fail(db, RL_ENOMEM, "out of memory");
		else if (e < 0)
			rc = rl_db_fail(db, RL_EIO, "cannot create the directory for "
			                "'%s': %s", path, strerror(-e));
	}
	if (!rc)
		rc = open_handle(db, path, SQLITE_OPEN_READWRITE | uri |
		                 (kind == DB_NO_FILE ? SQLITE_OPEN_CREATE : 0), true);
	free(name);
	/* a URI can open it read-only (mode=ro, immutable=1): said now, not
	 * as each document's "attempt to write a readonly database" */
	if (!rc && sqlite3_db_readonly(db->h, "main") == 1)
		rc = rl_db_fail(db, RL_EIO, "cannot write '%s': it is opened "
		                "read-only", path);
	/* foreign keys keep the links honest */
	if (!rc)
		rc = rl_db_exec(db, "PRAGMA foreign_keys = ON");
	if (!rc)
		rc = rl_db_read_version(db, &db->info.version);
	if (!rc && upgrade && db->info.version != rl_schema_version)
		rc = rl_db_migrate(db, kind == DB_NO_FILE || kind == DB_EMPTY);
	if (!rc && !upgrade)
		rc = rl_db_check_version(db, path, db->info.version);
	/* WAL lets readers go on while one writer imports. (Temporary tables
	 * stay in a temporary file: in memory, a bulk load's savepoint
	 * journals grew its peak RSS from 14 to 28 MB at 30k rulings and 86
	 * MB at 1M.) */
	if (!rc && upgrade)
		rc = ensure_wal(db);
	/* A writer's page cache: 16 MB instead of SQLite's 2 MB. An import
	 * walks the rulings, sources and full-text b-trees again and again;
	 * with 2 MB each walk read its pages back with pread(2) (a fifth of an
	 * import's CPU in the kernel's copy). Importing two CR releases: 3.3 s
	 * of CPU before, 2.5 s after; peak RSS +2 MB (16.3 MB at 1M before,
	 * bench/RESULTS.md: the cache is filled only as far as it is used). */
	if (!rc && upgrade)
		rc = rl_db_exec(db, "PRAGMA cache_size = -16384");
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

