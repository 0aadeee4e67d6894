/* db_open.h — the parts of opening a database, shared by db.c, db_open.c,
 * db_file.c (whose file it is) and db_schema.c (versions, migrations).
 * Nothing outside these four includes it. */
#ifndef RL_DB_OPEN_H
#define RL_DB_OPEN_H

#include "db.h"

#include <stdbool.h>

/* ---- db.c ---- */

/* Registers the SQL functions (rl_fold, rl_key, rl_key_loose,
 * rl_importing) and the rl_stem tokenizer on db->h. */
int rl_db_register_functions(rl_db *db);

/* ---- db_file.c: whose file ---- */

enum rl_db_kind {
	DB_NO_FILE,     /* nothing there (yet) */
	DB_EMPTY,       /* an empty file, or an SQLite file with no schema */
	DB_OURS,        /* our application_id */
	DB_LEGACY,      /* no application_id, a rulings schema of version <= 7 */
	DB_DUMPED,      /* no application_id, user_version 0, and the tables
	                   every rulings schema has: a copy loaded from
	                   sqlite3's .dump, which leaves both pragmas out */
	DB_DUMPED_LATEST, /* ... whose schema is, object for object, the one
	                   this rulings makes */
	DB_FOREIGN,     /* anything else */
};

struct rl_db_header {
	bool wal;       /* the file is in WAL mode */
	unsigned long app_id;
};

/* Reads file's header with read(2), not SQLite; *err is the errno of a
 * failed open or read (the file is then DB_FOREIGN, or DB_NO_FILE). */
enum rl_db_kind rl_db_read_header(const char *file, struct rl_db_header *h,
                                  int *err);
/* Tells a DB_LEGACY file (no application_id) apart: sets *kind to
 * DB_EMPTY, DB_LEGACY, DB_DUMPED, DB_DUMPED_LATEST or DB_FOREIGN; RL_OK
 * or the error. */
int rl_db_classify(rl_db *db, const char *file,
                   const struct rl_db_header *hd, enum rl_db_kind *kind);
/* Whether file + suffix exists. */
bool rl_db_file_exists(const char *file, const char *suffix);
/* The URI that reads file as immutable (no locks, no -wal, no -shm);
 * NULL for want of memory. */
char *rl_db_immutable_uri(const char *file);
/* mkdir -p for the directory part of path: 0 or a negative errno. */
int rl_db_make_parent(const char *path);

/* ---- db_schema.c: versions and migrations ---- */

/* PRAGMA user_version into *v: RL_OK, or the error. */
int rl_db_read_version(rl_db *db, int *v);
/* Creates (create) or upgrades the schema in one transaction. */
int rl_db_migrate(rl_db *db, bool create);
/* A database as it is, for reading: RL_OK for a version this rulings
 * reads, else the error, its message naming path. */
int rl_db_check_version(rl_db *db, const char *path, int version);

#endif
