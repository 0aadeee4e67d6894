/* store_write.h — the parts of storing a document, shared by store.c (the
 * document, its versions and imports, the transaction), store_stmt.c (the
 * prepared statements, the full-text tables) and store_ruling.c (rulings,
 * their details and tags, concepts). Nothing outside these three includes
 * it. */
#ifndef RL_STORE_WRITE_H
#define RL_STORE_WRITE_H

#include "db.h"
#include "doc.h"

#include <stdbool.h>
#include <stddef.h>

/* ---- store_stmt.c: the statements of one document's import ---- */

struct stmts {
	sqlite3_stmt *find_ruling, *insert_ruling, *update_ruling, *insert_source,
		*find_tag, *insert_tag, *insert_ruling_tag, *delete_refs,
		*insert_ref, *delete_errata, *insert_errata, *delete_aliases,
		*insert_alias, *insert_change, *insert_version, *revive;
	/* the full-text tables, by language (fts_table()) */
	sqlite3_stmt *fts_add[4], *fts_del[4];
	sqlite3_stmt *fts_later, *fts_pending;
	/* what this version lists (schema/013-version-listings.sql) */
	sqlite3_stmt *insert_listing;
	sqlite3_stmt *insert_new_ruling;
	/* insert_version and insert_listing, unless the row exists (see
	 * store_stmt.c) */
	sqlite3_stmt *insert_new_version, *insert_new_listing;
};

/* Prepares every statement of s; RL_OK or RL_EINTERNAL. */
int rl_store_prepare_all(rl_db *db, struct stmts *s);
void rl_store_finalize_all(struct stmts *s);
/* Runs a statement that returns no rows, then resets it. */
int rl_store_run(rl_db *db, sqlite3_stmt *st, const char *what);
/* Runs a statement that returns at most one integer; *id = 0 if no row. */
int rl_store_run_id(rl_db *db, sqlite3_stmt *st, long long *id,
                    const char *what);
/* Adds a ruling's text to (or, with del, removes its old text from) its
 * language's full-text table, at once. */
int rl_store_fts_put(rl_db *db, struct stmts *s, bool del, const char *lang,
                     long long id, const char *title, const char *body);
/* Indexes the rulings waiting in temp.fts_todo, and empties it. */
int rl_store_fts_flush(rl_db *db);

/* ---- store.c: games, documents, imports ---- */

/* The id of the game called name, made if new; 0 for no name. */
int rl_store_game_id(rl_db *db, const char *name, long long *id);

/* ---- store_ruling.c: rulings, tags, concepts ---- */

/* The tags a document uses, by their exact spelling: most entries of a
 * page carry the same few tags, and each lookup would fold both strings
 * and run a query. */
enum { TAG_CACHE = 64 };
struct tag_cache {
	struct { char *name, *qual; long long id; } v[TAG_CACHE];
	size_t next;
};

void rl_store_tag_cache_clear(struct tag_cache *c);
/* Records a change (unless this import is the document's baseline) and,
 * for added and edited, the ruling's new version. */
int rl_store_record(rl_db *db, struct stmts *s, long long import, long long id,
                    const char *change, const char *old_title,
                    const char *old_body, const struct rl_entry *e,
                    bool baseline);
/* Stores entry e of document d (id doc) as a ruling of this import, with
 * its details, source and tags. */
int rl_store_put_entry(rl_db *db, struct stmts *s, struct tag_cache *c,
                       long long game, long long doc, long long import,
                       const struct rl_doc *d, const struct rl_entry *e,
                       struct rl_import_result *res, struct rl_diags *warn);
/* Equal once runs of white space count as one space and the ends are
 * trimmed: what "edited" means. */
bool rl_store_same_folded(const char *a, const char *b);
/* Records in this version's listing that it has ruling id with e's text. */
int rl_store_list(rl_db *db, struct stmts *s, long long import, long long id,
                  const struct rl_entry *e);
/* Stores entry e of a version older than the document's newest: its
 * ruling is found, or added as withdrawn (the newest version does not list
 * it), and put in the version's listing; a ruling that exists keeps its
 * current text. */
int rl_store_put_older_entry(rl_db *db, struct stmts *s, struct tag_cache *c,
                             long long game, long long doc, long long import,
                             const struct rl_doc *d, const struct rl_entry *e);

/* ---- store_order.c: a version older than the newest ---- */

/* After the entries of version import (dated before version next, the
 * document's version dated after it) are stored in its listing: records
 * its changes against the version dated before it, computes those of next
 * again against it, and the marks' versions. */
int rl_store_insert_version(rl_db *db, struct stmts *s, long long docid,
                            long long import, long long next,
                            struct rl_import_result *res);

/* A thesaurus's concepts replace the ones its previous version gave. */
int rl_store_put_concepts(rl_db *db, const struct rl_doc *doc,
                          long long docid);

#endif
