/* db.h — the database handle, shared by db.c, store.c, query.c and the
 * maintenance commands (refold.c, check.c, publish.c). */
#ifndef RL_DB_H
#define RL_DB_H

#include "rulings.h"

#include <sqlite3.h>
#include <stdbool.h>

typedef struct fts5_api fts5_api;

struct rl_db {
	sqlite3 *h;
	char *errmsg;
	bool bulk;      /* in rl_bulk_begin(): documents share one transaction */
	bool bulk_lost; /* an error rolled that transaction back */
	/* rl_import's bulk load: more groups follow, the champion lists are
	 * refreshed at its end only (rl_topk_refresh_later) */
	bool topk_later;
	/* rl_import's bulk load: each full-text table's rows when it began;
	 * with its last group, an index whose rows have at least doubled is
	 * merged into one segment (topk.c, rl_fts_merge_grown) */
	long long fts_rows0[4];
	bool fts_merge;
	/* the INSERT triggers on rulings a bulk load sets aside (store.c),
	 * put back, where they were, before it commits */
	struct rl_aside { long long rowid; char *sql; } aside[2];
	int naside;
	int busy_ms;     /* how long it waits for another process's lock */
	bool errmsg_oom;   /* the last message could not be allocated */
	bool write;        /* opened to write (else SQLITE_OPEN_READONLY) */
	/* RL_TRIGGER_FN() in the triggers (schema/016-plain-sql.sql): rulings'
	 * own writes feed the full-text tables themselves */
	bool importing;
	int reading;       /* rl_read_begin() depth */
	bool read_txn;     /* ... and it began a transaction */
	struct rl_open_info info;
	/* h's FTS5 API, asked once (rl_db_fts5); NULL until then, and again
	 * whenever h is opened anew */
	fts5_api *fts5;
};

/* Records a message for rl_db_errmsg(); returns the status. */
int rl_db_fail(rl_db *db, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Maps an SQLite result code to a status, recording the message. */
int rl_db_sqlite_fail(rl_db *db, int sqlite_rc, const char *what);
/* Prepares sql; on failure records the message and returns NULL. */
sqlite3_stmt *rl_db_prepare(rl_db *db, const char *sql);
/* The connection's FTS5 API (SELECT fts5(?1) the first time), or NULL. */
fts5_api *rl_db_fts5(rl_db *db);
int rl_db_exec(rl_db *db, const char *sql);
/* Brings an older database's schema up to date in the caller's
 * transaction, which a dry run then rolls back: the store's statements
 * need the latest schema. Nothing to do for a current one. */
int rl_db_upgrade_within(rl_db *db);
/* Whether sql is the text sqlite_schema holds for trigger name as the
 * schema's migrations made it: the last CREATE TRIGGER of that name in
 * them (the one that stands), or, with any, one of them. */
bool rl_schema_trigger(const char *name, const char *sql, bool any);
/* The full-text triggers as schema/020-trigger-words.sql gives them, in the
 * caller's transaction: each created where missing, or put in place of
 * one a migration made; a user's own of that name (another text) is
 * left as it is. */
int rl_schema_triggers(rl_db *db);

/* How rl_store_with() stores a document (rl_store() and rl_store_dry()
 * are its plain forms; import.c passes the import layer's checks). */
struct store_opts {
	bool dry;               /* roll back: what storing would do */
	/* Called once the document is in place, before it is committed,
	 * with what it did (res->unchanged aside): a status other than RL_OK
	 * rolls the document back and is returned. */
	int (*check)(void *ctx, const struct rl_import_result *res);
	void *ctx;
	/* check refuses a document only for the rulings it withdraws: one
	 * that withdraws none passes. In a bulk load, a document that then
	 * cannot be refused is stored without a savepoint of its own (see
	 * store.c). */
	bool check_withdrawals_only;
	/* warnings on rulings (answers cut short), at their entries' lines;
	 * may be NULL */
	struct rl_diags *warn;
	/* the version's date (YYYY-MM-DD) when the document states none:
	 * recorded with date_source 'given'; may be NULL */
	const char *date;
};
int rl_store_with(rl_db *db, const struct rl_source *src,
                  const struct rl_doc *doc, const struct store_opts *o,
                  struct rl_import_result *res);

/* Merges the document of no game with format and title, if there is one,
 * into game (store_adopt.c says how): into the game's document *docid, or
 * (*docid 0) by making it the game's, *docid then its id. *merged tells
 * whether there was one. */
int rl_store_adopt(rl_db *db, long long game, const char *format,
                   const char *title, long long *docid, bool *merged);

/* SQL: the time of the version an import (the table alias t) stored, in
 * rl_when_parse()'s UTC form: its date, a day standing for its first
 * second, else its import time. Versions and the times users give compare
 * as text. */
#define RL_VERSION_TIME(t) \
	"ifnull(CASE WHEN length(" t ".date) = 10 THEN " t ".date ||" \
	" 'T00:00:00Z' ELSE " t ".date END, " t ".imported_at)"
/* SQL: the day of that version, by which a document's versions are
 * ordered, then by import: a date (a day) and an import's time that day
 * are one day, and the later import is the newer version (a page imported
 * at 10:37, then its next version given that day's date with import
 * --date, which stood at 00:00, would otherwise come first). */
#define RL_VERSION_DAY(t) "substr(" RL_VERSION_TIME(t) ", 1, 10)"

/* SQL: the names of the games the database holds something of — a
 * ruling, or a document other than a thesaurus — by name. A game that
 * only a thesaurus's concepts name (the shipped one names Spirit Island,
 * NeuroScape and Berserk in a database of any game) is not one to offer
 * a user who mistyped a name or forgot --game. (The "+" keeps g.id's
 * affinity off, so that the identity indexes on ifnull(game_id, 0)
 * answer.) */
#define RL_GAMES_HELD \
	"SELECT name FROM games g WHERE EXISTS (SELECT 1 FROM rulings" \
	" WHERE ifnull(game_id, 0) = +g.id) OR EXISTS (SELECT 1 FROM" \
	" documents WHERE ifnull(game_id, 0) = +g.id AND format <> 'thesaurus')"

/* The application_id of a rulings database: "RULG". */
#define RL_APPLICATION_ID 0x52554C47

/* Recomputes the fold columns and keys with this rulings' folding,
 * merging the rulings and tags that have become equal (counts added to
 * *rulings and *tags), and rebuilds the full-text tables when rebuild is
 * set (refold.c). Runs inside the caller's write transaction. */
int rl_refold(rl_db *db, bool rebuild, long long *rulings, long long *tags);
/* The full-text tables, by language, and their tokenizer arguments, as
 * the schema declares them (refold.c). */
extern const char *const rl_fts_tables[4];

struct rl_buf;
/* The filters of q as SQL conditions over rulings r and games g
 * (filter.c): the parameters are handed over — values[i] binds ?i+1;
 * owned[i] is to be freed, and both arrays. With check, a name the
 * database does not know is RL_NOTFOUND, its message set ("no tag 'x';
 * did you mean ..."); without, it matches nothing. */
int rl_query_filters(rl_db *db, struct rl_buf *sql, const struct rl_query *q,
                     bool check, const char ***values, char ***owned, int *n);

/* Binds a C string or NULL, without copying it: s must stay valid until
 * the statement is stepped and then reset with its bindings cleared, or
 * finalized. (Never fails for want of memory.) */
int rl_bind_text(sqlite3_stmt *st, int i, const char *s);
/* Copies a column: NULL stays NULL. Sets *oom when a copy fails. */
char *rl_column_dup(sqlite3_stmt *st, int i, bool *oom);
/* Steps st to its end, appending one element of size bytes a row to the
 * array *v (*n elements, capacity *cap): the element is zeroed, then
 * fill(st, element, ctx, &oom) sets it from the row, setting oom when a
 * copy fails for want of memory (the element counts all the same: the
 * caller frees what it holds). Returns RL_OK, RL_ENOMEM, or the failed
 * step's error, its message naming what. st is neither reset nor
 * finalized: the caller's. */
int rl_db_collect(rl_db *db, sqlite3_stmt *st, void *v, size_t *n,
                  size_t *cap, size_t size,
                  void (*fill)(sqlite3_stmt *st, void *elem, void *ctx,
                               bool *oom),
                  void *ctx, const char *what);

#endif
