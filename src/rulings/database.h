/*
 * rulings/database.h — part of the public interface of librulings (rulings.h
 * includes every part; include rulings.h, not this file).
 * The database, its maintenance, storing and importing files.
 */
#ifndef RULINGS_DATABASE_H
#define RULINGS_DATABASE_H

#include "document.h"

/* ---- The database ------------------------------------------------------ */

/* A handle to one database. One thread at a time may use it: its SQLite
 * connections are opened without their mutex (SQLITE_OPEN_NOMUTEX), so
 * two threads that share a handle must take turns under a lock of their
 * own. Separate handles may be used by separate threads at once. */
typedef struct rl_db rl_db;

enum {
	RL_OPEN_READ = 0,       /* read only (SQLITE_OPEN_READONLY): never
	                           creates, upgrades or writes the file */
	RL_OPEN_WRITE = 1,      /* create it (and its directory) if missing,
	                           upgrade an older schema */
	RL_OPEN_FILE = 2,       /* refuse an in-memory or temporary database
	                           ('', ':memory:'): RL_EUSAGE */
	RL_OPEN_NO_UPGRADE = 4, /* with RL_OPEN_WRITE: neither create nor
	                           upgrade; use an older schema as it is
	                           (dry runs, whose writes are rolled back) */
	RL_OPEN_EXISTING = 8,   /* with RL_OPEN_WRITE: refuse a missing or
	                           empty file as a reader does (RL_EIO), not
	                           make a database there (reindex) */
};

/* SQLite set up for a program of rulings, before SQLite's first use:
 * without its memory statistics (SQLITE_CONFIG_MEMSTATUS 0), which cost
 * every allocation of SQLite's a global lock and 14 % of a search's
 * instructions; sqlite3_memory_used(), sqlite3_status() of memory and
 * the soft heap limit then say nothing; and without a page cache
 * allocated in bulk (SQLITE_CONFIG_PAGECACHE NULL, 0, 0), which made
 * the kernel fault in 20 pages per cache at the start; and with its
 * blocks of up to 64 KB from one 8 MB region the kernel may back with
 * transparent huge pages (SQLITE_CONFIG_MALLOC, src/sqlmem.c; not in a
 * build with AddressSanitizer): one page fault where malloc's heap took
 * one per 4 KB. Optional; process-wide: called by
 * the program itself (the rulings command does) before anything else of
 * rulings or SQLite. RL_EINTERNAL when SQLite is already in use. */
int rl_sqlite_setup(void);

/* Opens the database at path (a file name, or a "file:" URI such as
 * "file:rulings.db?immutable=1"). A file that is not a rulings database
 * (another application_id, or a schema that is not ours, or not SQLite)
 * is refused with RL_EIO and not changed at all. A reader reads a WAL
 * database in a read-only directory or mount as immutable when it has no
 * -wal file. With RL_OPEN_WRITE, a missing or empty database is created
 * and an older one upgraded, in one transaction (rl_db_info() says so).
 * On failure *out is a handle whose only use is rl_db_errmsg() and
 * rl_db_close(), or NULL when memory ran out. */
int rl_db_open(const char *path, int flags, rl_db **out);
/* How long a command waits for a lock another process holds, by default. */
enum { RL_BUSY_TIMEOUT_MS = 5000 };
/* rl_db_open() waiting busy_ms milliseconds (0: not at all) for a lock
 * another process holds before it fails with RL_EBUSY. */
int rl_db_open_wait(const char *path, int flags, int busy_ms, rl_db **out);
void rl_db_close(rl_db *db);
const char *rl_db_errmsg(const rl_db *db);
/* PRAGMA user_version; -1 when it cannot be read. */
int rl_db_schema_version(rl_db *db);
/* The schema version this rulings makes (and upgrades to). */
int rl_schema_latest(void);

/* What opening did. */
struct rl_open_info {
	int version;            /* the schema version the database has */
	bool created;           /* a new database was made */
	bool fresh;             /* no document has been imported into it yet
	                           (RL_OPEN_WRITE) */
	int upgraded_from;      /* the version it was upgraded from, or 0 */
	long long merged_rulings; /* rulings, and tags, the upgrade merged: */
	long long merged_tags;    /* equal under the new folding (see rl_fold) */
	bool immutable;         /* read as an unchanging file (no -wal, on a
	                           read-only directory or mount) */
};
const struct rl_open_info *rl_db_info(const rl_db *db);

/* A snapshot: the reads between rl_read_begin() and rl_read_end() see one
 * state of the database, whatever another process commits meanwhile.
 * Every read function below takes one for itself; a caller that reads
 * with several (an export: a selection, then each ruling) takes one
 * around them. They nest. rl_read_end() returns status, or the error of
 * ending the transaction when status was RL_OK. */
int rl_read_begin(rl_db *db);
int rl_read_end(rl_db *db, int status);

/* ---- Maintenance -------------------------------------------------------- */

/* Checks the database: PRAGMA integrity_check and foreign_key_check; that
 * every full-text table holds exactly the rulings of its language with
 * their present text (every token at its place, read-only, walking the
 * whole index); and rulings' invariants: every ruling has a source, no
 * reference points at a missing or withdrawn ruling, every fold column
 * and key is what this rulings' folding makes of its text. Each problem
 * found is passed to problem(ctx, message); *problems counts them. RL_OK
 * once the checks have run, whatever they found. */
int rl_check(rl_db *db, void (*problem)(void *ctx, const char *message),
             void *ctx, size_t *problems);
/* Recomputes the fold columns and keys (merging rulings and tags that
 * have become equal, counted in *merged_rulings and *merged_tags) and
 * rebuilds every full-text table, in one transaction. First, the rows a
 * DELETE run with foreign keys off left behind, pointing at rows that are
 * gone, are deleted or their references cleared, as their keys' ON DELETE
 * says (counted in *dangling_rows). */
int rl_reindex(rl_db *db, long long *merged_rulings, long long *merged_tags,
               long long *dangling_rows);
/* Writes a copy of the database to path, made to be served read-only:
 * compacted (VACUUM INTO, the full-text indexes merged into one segment
 * each), self-contained (journal_mode=DELETE: no -wal or -shm file is
 * needed to read it), checked (PRAGMA integrity_check), written whole or
 * not at all (a temporary file beside path, renamed over it). An existing
 * path is replaced only when it is a rulings database; a symbolic link is
 * followed. *bytes is the copy's size. Reads the database only. */
int rl_publish(rl_db *db, const char *path, long long *bytes);

/* What importing one source did. */
struct rl_import_result {
	bool unchanged;         /* the same bytes are already an import of
	                           the document: nothing was written (but
	                           the merge below) */
	bool merged;            /* the document of no game with this title
	                           and format (an older database's) was merged
	                           into the document's game */
	long long import_id;
	size_t entries;         /* entries in the document */
	bool baseline;          /* the document's first import: no changes */
	bool older;             /* a version dated after it was there: it went
	                           into its place in the history, the current
	                           texts stay the newest version's */
	size_t added;           /* rulings new to the database (or back) */
	size_t edited;          /* rulings whose text changed (white space aside) */
	size_t withdrawn;       /* rulings no document lists any more */
	size_t before;          /* rulings the document listed until then */
	size_t shortened;       /* of the edited: answers now only the
	                           beginning of their earlier text (a warning
	                           on each, when the caller asks) */
};

/* Stores a parsed document in one transaction: either all of it is stored
 * or nothing is. The document is identified by its game, format and title;
 * when one of its imports has the same checksum (its latest or an older
 * version), nothing is written and res->unchanged is set. */
int rl_store(rl_db *db, const struct rl_source *src, const struct rl_doc *doc,
             struct rl_import_result *res);
/* The same, but the transaction is rolled back: what storing would do,
 * with nothing written. */
int rl_store_dry(rl_db *db, const struct rl_source *src,
                 const struct rl_doc *doc, struct rl_import_result *res);
/* Bulk loading. Between rl_bulk_begin() and rl_bulk_end(), rl_store()
 * stores each document in a savepoint of one open write transaction: a
 * document that fails is still rolled back alone, but the documents
 * become visible (and durable) together when rl_bulk_end(db, true)
 * commits, and references are resolved once, then. A crash or kill before
 * that leaves the database as it was at rl_bulk_begin(). rl_bulk_end(db,
 * false) rolls every document of the load back. When an error made SQLite
 * roll the whole transaction back (disk full, out of memory), every later
 * rl_store() and rl_bulk_end() fail with RL_EIO: the load's documents are
 * to be stored again. rl_store_dry() cannot be part of a bulk load. */
int rl_bulk_begin(rl_db *db);
int rl_bulk_end(rl_db *db, bool commit);
/* True when bytes with this checksum are an import of a document (its
 * latest version or an older one), read by the format's current revision:
 * importing them again would change
 * nothing. */
int rl_store_seen(rl_db *db, const char *sha256, bool *seen);

/* ---- Importing files (import.c) --------------------------------------- */

/* What became of a file. */
enum rl_file_outcome {
	RL_FILE_IMPORTED,    /* stored (with a dry run: would be) */
	RL_FILE_UNCHANGED,   /* its bytes are already imported: nothing written */
	RL_FILE_SKIPPED,     /* found in a directory and not a document: binary,
	                        or of no format rulings knows */
	RL_FILE_FAILED,      /* not stored: status, diags and error say why */
	RL_FILE_REFUSED,     /* parsed, and not stored as a new version of its
	                        document: refusal says why (status RL_EDATA) */
};

/* Why a document is refused (or, in a dry run, would be). */
enum rl_refusal {
	RL_REFUSED_NONE,
	RL_REFUSED_WITHDRAW,  /* it would withdraw more of the document's
	                         rulings than opts allow (result says how many
	                         of how many) */
	RL_REFUSED_DAMAGED,   /* its text ends inside something unfinished
	                         (end, end_line), and opts do not accept
	                         damaged documents; result says what storing
	                         it would have done */
	RL_REFUSED_NO_GAME,   /* neither its words, the caller (opts->game)
	                         nor a directory manifest name its game (of
	                         the document, or of one of its entries):
	                         error says so and lists the database's
	                         games; rl_store() itself never refuses */
};

/* What the text ends inside, in words: "an entry", "a section", "a
 * rule", "a record"; "" for RL_END_COMPLETE. */
const char *rl_doc_end_name(enum rl_doc_end end);

/* Flags for rl_import_file(). */
enum {
	RL_IMPORT_DRY_RUN = 1,   /* rl_store_dry(): what storing would do */
	RL_IMPORT_FOUND = 2,     /* found in a directory: a binary file or one of
	                            no known format is skipped, not an error */
};

/* One file's import, for the caller's messages. Clear it with
 * rl_file_report_clear(). */
struct rl_file_report {
	char *path;
	bool found;               /* RL_IMPORT_FOUND */
	enum rl_file_outcome outcome;
	int status;               /* RL_OK, or why it failed */
	/* what reading and parsing said, and why a file is skipped; messages
	 * about the whole file have line 0 */
	struct rl_diags diags;
	char *error;              /* a failure the diagnostics do not hold (the
	                             database's message, "out of memory"), or
	                             NULL */
	/* once read */
	const char *encoding;     /* as rl_source's */
	size_t bytes;             /* the file's size */
	char sha256[65];          /* of its bytes, as rl_source's */
	/* once parsed (parsed set) */
	bool parsed;
	char *format, *lang, *title;   /* the document's */
	char *langs;              /* its entries' languages, the document's
	                             first, then as met: "en, fr, ru" */
	size_t concepts;          /* a thesaurus's concepts */
	size_t kinds[4];          /* its entries, by enum rl_kind */
	enum rl_doc_end end;      /* as rl_doc's: damaged unless complete */
	unsigned end_line;
	/* once stored (stored set); result.unchanged is also set for bytes
	 * found already imported before parsing */
	bool stored;
	struct rl_import_result result;
	/* the guard it fails: with RL_FILE_REFUSED, or with RL_FILE_IMPORTED
	 * in a dry run (it would be refused) */
	enum rl_refusal refusal;
	/* seconds from the start of the file to the end of each step */
	double read_seconds, parse_seconds, store_seconds;
};
void rl_file_report_clear(struct rl_file_report *r);

/* Imports one file: reads it (rl_source_load), passes it over when its
 * bytes are the latest import of a document and opts set nothing but
 * defaults (rl_store_seen), parses it (rl_parse) and stores it (rl_store,
 * or rl_store_dry with RL_IMPORT_DRY_RUN). Inside rl_bulk_begin() and
 * rl_bulk_end(), the document is part of the open load. opts may be NULL.
 * A new version of a document that fails opts' guards (limit) is rolled
 * back and refused: RL_FILE_REFUSED, status RL_EDATA; in a dry run it is
 * reported with its refusal and not refused. A document that names no
 * game (neither in its words nor in opts->game; nor, for a file of an
 * interchange dump, in each of its entries) is refused before storing,
 * in a dry run too: RL_FILE_REFUSED, RL_REFUSED_NO_GAME, status RL_EDATA
 * (rl_store() stores it game-less). Answers cut short are
 * warnings in report->diags at their entries' lines. Returns
 * report->status: RL_OK for a file imported, unchanged or skipped. */
int rl_import_file(rl_db *db, const char *path,
                   const struct rl_import_opts *opts, unsigned flags,
                   struct rl_file_report *report);

/* What rl_import_paths() tells its caller as it goes. */
enum rl_import_event {
	RL_IMPORT_WALKED,     /* the paths are walked: files and bytes known */
	RL_IMPORT_READING,    /* path is being read and parsed */
	RL_IMPORT_STORING,    /* path is parsed and being stored */
	RL_IMPORT_DONE,       /* path is through; in a bulk load its report
	                         comes once its group is committed */
	RL_IMPORT_COMMITTING, /* a bulk group of group documents is being
	                         indexed and committed */
	RL_IMPORT_FILE,       /* report: what became of path, for good */
	RL_IMPORT_NOTICE,     /* diag: about path (a problem found walking
	                         it), or, path NULL, about the run */
};

struct rl_import_progress {
	enum rl_import_event event;
	const char *path;
	const struct rl_file_report *report;    /* RL_IMPORT_FILE */
	const struct rl_diag *diag;             /* RL_IMPORT_NOTICE */
	size_t files, files_done;     /* files to import, and done */
	uint64_t bytes, bytes_done;   /* their sizes when walked */
	size_t group;                 /* RL_IMPORT_COMMITTING */
	double elapsed;               /* seconds since the walk ended */
};

struct rl_import_run {
	const struct rl_import_opts *opts;    /* may be NULL */
	bool dry_run;
	bool bulk;                /* commit in groups (not with dry_run) */
	double group_seconds;     /* a group commits once it is this old */
	void (*progress)(void *ctx, const struct rl_import_progress *p);
	void *ctx;
};

/* What rl_import_paths() did. */
struct rl_import_summary {
	size_t imported, unchanged, skipped;
	size_t failed;            /* files, and paths the walk could not read */
	size_t refused;           /* documents refused (RL_FILE_REFUSED) */
	size_t added, edited, withdrawn;   /* rulings, over the files imported */
	size_t shortened;                  /* of the edited */
};

/* Imports files and directories: a directory is walked recursively in
 * byte order of names (hidden names passed over, each directory once
 * whatever symbolic links lead to it, to a depth of 64); each file is
 * imported as rl_import_file() does, one transaction per document, or with
 * bulk in groups (rl_bulk_begin(); a group that cannot be committed is
 * imported again file by file). After a database-busy failure the
 * remaining files are not tried. Returns the worst failure: RL_EBUSY, else
 * RL_EIO, else the first (RL_EDATA for a refused document); RL_OK when
 * every file was imported, unchanged or skipped. */
int rl_import_paths(rl_db *db, const char *const *paths, size_t n,
                    const struct rl_import_run *run,
                    struct rl_import_summary *sum);

#endif
