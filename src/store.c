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
 * baseline and records no change. Tags that no ruling carries are removed. */
#include "db.h"
#include "doc.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct stmts {
	sqlite3_stmt *find_ruling, *insert_ruling, *update_ruling, *insert_source,
		*find_tag, *insert_tag, *insert_ruling_tag, *delete_refs,
		*insert_ref, *delete_errata, *insert_errata, *delete_aliases,
		*insert_alias, *insert_change, *insert_version, *revive;
	/* the full-text tables, by language (fts_table()) */
	sqlite3_stmt *fts_add[4], *fts_del[4];
	sqlite3_stmt *fts_later, *fts_pending;
};

/* The tags a document uses, by their exact spelling: most entries of a
 * page carry the same few tags, and each lookup would fold both strings
 * and run a query. */
enum { TAG_CACHE = 64 };
struct tag_cache {
	struct { char *name, *qual; long long id; } v[TAG_CACHE];
	size_t next;
};

static void tag_cache_clear(struct tag_cache *c)
{
	for (size_t i = 0; i < TAG_CACHE; i++) {
		free(c->v[i].name);
		free(c->v[i].qual);
	}
	memset(c, 0, sizeof *c);
}

static const char *const stmt_sql[] = {
	"SELECT id, title, body, ifnull(section, ''), ifnull(category, ''),"
	" changed, ifnull(rule, ''), withdrawn_at IS NOT NULL,"
	" ifnull(date, ''), ifnull(author, '') FROM rulings"
	" WHERE ifnull(game_id, 0) = ifnull(?1, 0) AND kind = ?2 AND lang = ?3"
	" AND key = ?4",
	"INSERT INTO rulings (game_id, kind, key, lang, rule, title, body,"
	" section, category, changed, date, author, marked_import)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,"
	" CASE WHEN ?10 THEN ?13 END)",
	/* a mark belongs to the version that first carries it (schema 9) */
	"UPDATE rulings SET rule = ?2, title = ?3, body = ?4, section = ?5,"
	" category = ?6, changed = ?7, date = ?8, author = ?9,"
	" marked_import = CASE WHEN NOT ?7 THEN NULL"
	"   WHEN changed AND marked_import IS NOT NULL THEN marked_import"
	"   ELSE ?10 END WHERE id = ?1",
	"INSERT OR IGNORE INTO ruling_sources (ruling_id, document_id, import_id,"
	" line, hidden_tags) VALUES (?1, ?2, ?3, ?4, ?5)",
	"SELECT id FROM tags WHERE name_fold = ?1 AND qual_fold = ?2",
	"INSERT INTO tags (name, qualifier, name_fold, qual_fold)"
	" VALUES (?1, ?2, ?3, ?4)",
	"INSERT OR IGNORE INTO ruling_tags (ruling_id, tag_id, document_id, origin)"
	" VALUES (?1, ?2, ?3, ?4)",
	"DELETE FROM refs WHERE ruling_id = ?1",
	"INSERT INTO refs (ruling_id, kind, target) VALUES (?1, ?2, ?3)",
	"DELETE FROM errata WHERE ruling_id = ?1",
	"INSERT INTO errata (ruling_id, product, printing, document, page)"
	" VALUES (?1, ?2, ?3, ?4, ?5)",
	"DELETE FROM ruling_aliases WHERE ruling_id = ?1",
	"INSERT OR IGNORE INTO ruling_aliases (ruling_id, alias_fold)"
	" VALUES (?1, ?2)",
	"INSERT INTO changes (import_id, ruling_id, change, old_title, old_body,"
	" new_title, new_body) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	"INSERT OR REPLACE INTO ruling_versions (ruling_id, import_id, title, body)"
	" VALUES (?1, ?2, ?3, ?4)",
	"UPDATE rulings SET withdrawn_at = NULL WHERE id = ?1",
	"INSERT INTO rulings_fts_en (rowid, title, body) VALUES (?1, ?2, ?3)",
	"INSERT INTO rulings_fts_fr (rowid, title, body) VALUES (?1, ?2, ?3)",
	"INSERT INTO rulings_fts_ru (rowid, title, body) VALUES (?1, ?2, ?3)",
	"INSERT INTO rulings_fts_xx (rowid, title, body) VALUES (?1, ?2, ?3)",
	"INSERT INTO rulings_fts_en (rulings_fts_en, rowid, title, body)"
	" VALUES ('delete', ?1, ?2, ?3)",
	"INSERT INTO rulings_fts_fr (rulings_fts_fr, rowid, title, body)"
	" VALUES ('delete', ?1, ?2, ?3)",
	"INSERT INTO rulings_fts_ru (rulings_fts_ru, rowid, title, body)"
	" VALUES ('delete', ?1, ?2, ?3)",
	"INSERT INTO rulings_fts_xx (rulings_fts_xx, rowid, title, body)"
	" VALUES ('delete', ?1, ?2, ?3)",
	"INSERT OR IGNORE INTO temp.fts_todo (id) VALUES (?1)",
	"SELECT count(*) FROM temp.fts_todo WHERE id = ?1",
};

enum { NSTMTS = sizeof stmt_sql / sizeof *stmt_sql };

static sqlite3_stmt **stmt_array(struct stmts *s)
{
	return (sqlite3_stmt **)s;
}

_Static_assert(sizeof(struct stmts) == NSTMTS * sizeof(sqlite3_stmt *),
               "one SQL text per statement");

static int prepare_all(rl_db *db, struct stmts *s)
{
	sqlite3_stmt **a = stmt_array(s);
	for (size_t i = 0; i < NSTMTS; i++)
		if (!(a[i] = rl_db_prepare(db, stmt_sql[i])))
			return RL_EINTERNAL;
	return RL_OK;
}

static void finalize_all(struct stmts *s)
{
	sqlite3_stmt **a = stmt_array(s);
	for (size_t i = 0; i < NSTMTS; i++)
		sqlite3_finalize(a[i]);
}

/* Runs a statement that returns no rows, then resets it. */
static int run(rl_db *db, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? RL_OK : rl_db_sqlite_fail(db, rc, what);
}

/* Runs a statement that returns at most one integer; *id = 0 if no row. */
static int run_id(rl_db *db, sqlite3_stmt *st, long long *id, const char *what)
{
	int rc = sqlite3_step(st);
	*id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return (rc == SQLITE_ROW || rc == SQLITE_DONE)
	       ? RL_OK : rl_db_sqlite_fail(db, rc, what);
}

/* The full-text table of a language: en, fr, ru, or xx for the others
 * (schema/002-languages.sql). */
static int fts_table(const char *lang)
{
	static const char *const langs[] = { "en", "fr", "ru" };
	for (int i = 0; i < 3; i++)
		if (lang && strcmp(lang, langs[i]) == 0)
			return i;
	return 3;
}

/* Adds a ruling's text to (or, with del, removes its old text from) its
 * language's full-text table, at once. New rulings wait in temp.fts_todo
 * for fts_flush(): see there. */
static int fts_put(rl_db *db, struct stmts *s, bool del, const char *lang,
                   long long id, const char *title, const char *body)
{
	sqlite3_stmt *st = (del ? s->fts_del : s->fts_add)[fts_table(lang)];
	sqlite3_bind_int64(st, 1, id);
	rl_bind_text(st, 2, title);
	rl_bind_text(st, 3, body);
	return run(db, st, "index ruling");
}

/* The rulings added in this transaction are indexed together, just
 * before it commits, with one INSERT … SELECT per language: FTS5 keeps
 * the terms of a transaction in memory, but writes them out at every
 * statement savepoint, which most statements of an import open — indexing
 * each ruling as it comes made a small segment per document and cost 2.5
 * times the bare insert (bench/RESULTS.md). CROSS JOIN keeps the planner
 * from scanning all of rulings for the few ids in fts_todo, as it did for
 * every document. */
static const char fts_flush_sql[] =
	"INSERT INTO rulings_fts_en (rowid, title, body) SELECT r.id, r.title,"
	" r.body FROM temp.fts_todo t CROSS JOIN rulings r ON r.id = t.id"
	" WHERE r.lang = 'en' ORDER BY r.id;"
	"INSERT INTO rulings_fts_fr (rowid, title, body) SELECT r.id, r.title,"
	" r.body FROM temp.fts_todo t CROSS JOIN rulings r ON r.id = t.id"
	" WHERE r.lang = 'fr' ORDER BY r.id;"
	"INSERT INTO rulings_fts_ru (rowid, title, body) SELECT r.id, r.title,"
	" r.body FROM temp.fts_todo t CROSS JOIN rulings r ON r.id = t.id"
	" WHERE r.lang = 'ru' ORDER BY r.id;"
	"INSERT INTO rulings_fts_xx (rowid, title, body) SELECT r.id, r.title,"
	" r.body FROM temp.fts_todo t CROSS JOIN rulings r ON r.id = t.id"
	" WHERE r.lang NOT IN ('en', 'fr', 'ru') ORDER BY r.id;"
	"DELETE FROM temp.fts_todo;";

static int fts_flush(rl_db *db)
{
	return rl_db_exec(db, fts_flush_sql);
}

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
	int rc = run_id(db, st, id, "store");
	sqlite3_finalize(st);
	return rc;
}

static int game_id(rl_db *db, const char *name, long long *id)
{
	*id = 0;
	if (!name)
		return RL_OK;
	int rc = exec_id(db, "SELECT id FROM games WHERE name = ?1", name, 0,
	                 NULL, NULL, id);
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
	int rc = run_id(db, st, id, "find document");
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
	rc = run_id(db, st, id, "store document");
	sqlite3_finalize(st);
	return rc;
}

static int tag_id(rl_db *db, struct stmts *s, const char *name,
                  const char *qual, long long *id)
{
	char *nf = rl_fold(name), *qf = rl_fold(qual ? qual : "");
	int rc = RL_ENOMEM;
	if (!nf || !qf)
		goto out;
	rl_bind_text(s->find_tag, 1, nf);
	rl_bind_text(s->find_tag, 2, qf);
	rc = run_id(db, s->find_tag, id, "find tag");
	if (rc || *id)
		goto out;
	rl_bind_text(s->insert_tag, 1, name);
	rl_bind_text(s->insert_tag, 2, qual ? qual : "");
	rl_bind_text(s->insert_tag, 3, nf);
	rl_bind_text(s->insert_tag, 4, qf);
	rc = run(db, s->insert_tag, "store tag");
	*id = sqlite3_last_insert_rowid(db->h);
out:
	free(nf);
	free(qf);
	return rc;
}

static int cached_tag_id(rl_db *db, struct stmts *s, struct tag_cache *c,
                         const char *name, const char *qual, long long *id)
{
	const char *q = qual ? qual : "";
	for (size_t i = 0; i < TAG_CACHE && c->v[i].name; i++)
		if (strcmp(c->v[i].name, name) == 0 && strcmp(c->v[i].qual, q) == 0) {
			*id = c->v[i].id;
			return RL_OK;
		}
	int rc = tag_id(db, s, name, qual, id);
	if (rc)
		return rc;
	char *n = rl_strdup(name), *qq = rl_strdup(q);
	if (!n || !qq) {        /* only the cache is lost */
		free(n);
		free(qq);
		return RL_OK;
	}
	size_t k = c->next++ % TAG_CACHE;
	free(c->v[k].name);
	free(c->v[k].qual);
	c->v[k].name = n;
	c->v[k].qual = qq;
	c->v[k].id = *id;
	return RL_OK;
}

static int link_tag(rl_db *db, struct stmts *s, struct tag_cache *c,
                    long long ruling, long long doc, const char *name,
                    const char *qual, const char *origin)
{
	long long tag;
	int rc = cached_tag_id(db, s, c, name, qual, &tag);
	if (rc)
		return rc;
	sqlite3_bind_int64(s->insert_ruling_tag, 1, ruling);
	sqlite3_bind_int64(s->insert_ruling_tag, 2, tag);
	sqlite3_bind_int64(s->insert_ruling_tag, 3, doc);
	rl_bind_text(s->insert_ruling_tag, 4, origin);
	return run(db, s->insert_ruling_tag, "store tag link");
}

static bool same(const unsigned char *a, const char *b)
{
	return strcmp((const char *)a, b ? b : "") == 0;
}

/* Equal once runs of white space count as one space and the ends are
 * trimmed: what "edited" means (a new line-break style is no edit). */
static bool same_folded(const char *a, const char *b)
{
	for (;;) {
		while (*a == ' ' || *a == '\t' || *a == '\n')
			a++;
		while (*b == ' ' || *b == '\t' || *b == '\n')
			b++;
		if (!*a || !*b)
			return !*a && !*b;
		bool wa = false, wb = false;
		while (*a && *a == *b && *a != ' ' && *a != '\t' && *a != '\n') {
			a++;
			b++;
		}
		wa = !*a || *a == ' ' || *a == '\t' || *a == '\n';
		wb = !*b || *b == ' ' || *b == '\t' || *b == '\n';
		if (!(wa && wb))
			return false;
	}
}

static bool space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* Is now, white space aside (as in same_folded()), the beginning of was
 * and shorter: an answer cut off where the text was, the classic mark of a
 * truncated file? */
static bool cut_short(const char *was, const char *now)
{
	const char *a = was ? was : "", *b = now ? now : "";
	while (space(*a))
		a++;
	while (space(*b))
		b++;
	for (;;) {
		if (!*b) {
			while (space(*a))
				a++;
			return *a != '\0';
		}
		if (space(*a) && space(*b)) {
			while (space(*a))
				a++;
			while (space(*b))
				b++;
			continue;
		}
		if (*a != *b)
			return false;
		a++;
		b++;
	}
}

/* A warning on the ruling of e: its answer is cut short. The title is
 * quoted up to about 60 bytes, cut at a character boundary. */
static int warn_cut(struct rl_diags *d, const struct rl_entry *e)
{
	if (!d)
		return RL_OK;
	const char *t = e->title ? e->title : "";
	size_t n = strlen(t);
	bool clipped = n > 60;
	if (clipped) {
		n = 60;
		while (n > 0 && ((unsigned char)t[n] & 0xC0) == 0x80)
			n--;
	}
	return rl_diag_add(d, RL_WARNING, e->line, 0, "the answer to \"%.*s%s\" "
	                   "is now only the beginning of its earlier text "
	                   "(truncated?)", (int)n, t, clipped ? "..." : "");
}

/* Records a change (unless this import is the document's baseline) and,
 * for added and edited, the ruling's new version. */
static int record(rl_db *db, struct stmts *s, long long import, long long id,
                  const char *change, const char *old_title,
                  const char *old_body, const struct rl_entry *e, bool baseline)
{
	int rc = RL_OK;
	if (!baseline) {
		sqlite3_stmt *c = s->insert_change;
		sqlite3_bind_int64(c, 1, import);
		sqlite3_bind_int64(c, 2, id);
		rl_bind_text(c, 3, change);
		rl_bind_text(c, 4, old_title);
		rl_bind_text(c, 5, old_body);
		rl_bind_text(c, 6, e ? e->title : NULL);
		rl_bind_text(c, 7, e ? e->text : NULL);
		rc = run(db, c, "record change");
	}
	if (!rc && e) {
		sqlite3_stmt *v = s->insert_version;
		sqlite3_bind_int64(v, 1, id);
		sqlite3_bind_int64(v, 2, import);
		rl_bind_text(v, 3, e->title);
		rl_bind_text(v, 4, e->text);
		rc = run(db, v, "record version");
	}
	return rc;
}

/* Finds or creates the ruling for e; sets *id; records what changed. */
static int put_ruling(rl_db *db, struct stmts *s, long long game,
                      const char *lang, long long import,
                      const struct rl_entry *e, long long *id, bool *fresh,
                      struct rl_import_result *res, struct rl_diags *warn)
{
	*fresh = false;
	sqlite3_stmt *f = s->find_ruling;
	if (game)
		sqlite3_bind_int64(f, 1, game);
	rl_bind_text(f, 2, rl_kind_name(e->kind));
	rl_bind_text(f, 3, lang);
	rl_bind_text(f, 4, e->key);
	int rc = sqlite3_step(f);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(f, 0);
		const char *ot = (const char *)sqlite3_column_text(f, 1);
		const char *ob = (const char *)sqlite3_column_text(f, 2);
		bool text_same = same((const unsigned char *)ot, e->title) &&
		                 same((const unsigned char *)ob, e->text);
		bool folded_same = text_same || (same_folded(ot, e->title) &&
		                                 same_folded(ob, e->text));
		bool rest_same = same(sqlite3_column_text(f, 3), e->section) &&
		                 same(sqlite3_column_text(f, 4), e->category) &&
		                 sqlite3_column_int(f, 5) == e->changed &&
		                 same(sqlite3_column_text(f, 6), e->rule) &&
		                 same(sqlite3_column_text(f, 8), e->date) &&
		                 same(sqlite3_column_text(f, 9), e->author);
		bool withdrawn = sqlite3_column_int(f, 7) != 0;
		char *old_title = rl_strdup(ot), *old_body = rl_strdup(ob);
		sqlite3_reset(f);
		sqlite3_clear_bindings(f);
		if (!old_title || !old_body) {
			free(old_title);
			free(old_body);
			return RL_ENOMEM;
		}
		rc = RL_OK;
		if (withdrawn) {
			/* back in a document: added again */
			sqlite3_bind_int64(s->revive, 1, *id);
			rc = run(db, s->revive, "revive ruling");
			/* a return is a change even in another document's
			 * first import */
			if (!rc)
				rc = record(db, s, import, *id, "added", old_title,
				            old_body, e, false);
			res->added++;
		} else if (!folded_same) {
			rc = record(db, s, import, *id, "edited", old_title, old_body,
			            e, res->baseline);
			if (!res->baseline)
				res->edited++;
			if (!rc && !res->baseline && cut_short(old_body, e->text)) {
				res->shortened++;
				rc = warn_cut(warn, e);
			}
		}
		if (!rc && !text_same) {
			/* one added earlier in this transaction is not indexed
			 * yet: fts_flush() reads its new text */
			long long pending;
			sqlite3_bind_int64(s->fts_pending, 1, *id);
			rc = run_id(db, s->fts_pending, &pending, "index ruling");
			if (!rc && !pending)
				rc = fts_put(db, s, true, lang, *id, old_title, old_body);
			if (!rc && !pending)
				rc = fts_put(db, s, false, lang, *id, e->title, e->text);
		}
		free(old_title);
		free(old_body);
		if (rc || (text_same && rest_same))
			return rc;
		sqlite3_stmt *u = s->update_ruling;
		sqlite3_bind_int64(u, 1, *id);
		rl_bind_text(u, 2, e->rule);
		rl_bind_text(u, 3, e->title);
		rl_bind_text(u, 4, e->text);
		rl_bind_text(u, 5, e->section);
		rl_bind_text(u, 6, e->category);
		sqlite3_bind_int(u, 7, e->changed);
		rl_bind_text(u, 8, e->date);
		rl_bind_text(u, 9, e->author);
		sqlite3_bind_int64(u, 10, import);
		return run(db, u, "update ruling");
	}
	sqlite3_reset(f);
	sqlite3_clear_bindings(f);
	if (rc != SQLITE_DONE)
		return rl_db_sqlite_fail(db, rc, "find ruling");
	sqlite3_stmt *i = s->insert_ruling;
	if (game)
		sqlite3_bind_int64(i, 1, game);
	rl_bind_text(i, 2, rl_kind_name(e->kind));
	rl_bind_text(i, 3, e->key);
	rl_bind_text(i, 4, lang);
	rl_bind_text(i, 5, e->rule);
	rl_bind_text(i, 6, e->title);
	rl_bind_text(i, 7, e->text);
	rl_bind_text(i, 8, e->section);
	rl_bind_text(i, 9, e->category);
	sqlite3_bind_int(i, 10, e->changed);
	rl_bind_text(i, 11, e->date);
	rl_bind_text(i, 12, e->author);
	sqlite3_bind_int64(i, 13, import);
	rc = run(db, i, "insert ruling");
	*id = sqlite3_last_insert_rowid(db->h);
	*fresh = true;
	res->added++;
	if (!rc) {
		sqlite3_bind_int64(s->fts_later, 1, *id);
		rc = run(db, s->fts_later, "index ruling");
	}
	if (!rc)
		rc = record(db, s, import, *id, "added", NULL, NULL, e, res->baseline);
	return rc;
}

/* References, aliases and errata belong to the ruling's content: replaced
 * whole. */
static int put_details(rl_db *db, struct stmts *s, long long id,
                       const struct rl_entry *e, bool fresh)
{
	int rc = RL_OK;
	if (!fresh) {
		sqlite3_bind_int64(s->delete_refs, 1, id);
		rc = run(db, s->delete_refs, "store references");
	}
	for (size_t i = 0; i < e->nrefs && !rc; i++) {
		sqlite3_bind_int64(s->insert_ref, 1, id);
		rl_bind_text(s->insert_ref, 2, rl_ref_kind_name(e->refs[i].kind));
		rl_bind_text(s->insert_ref, 3, e->refs[i].target);
		rc = run(db, s->insert_ref, "store reference");
	}
	if (rc)
		return rc;
	if (!fresh) {
		sqlite3_bind_int64(s->delete_aliases, 1, id);
		rc = run(db, s->delete_aliases, "store aliases");
	}
	for (size_t i = 0; i < e->naliases && !rc; i++) {
		char *fold = rl_key_loose(e->aliases[i]);
		if (!fold)
			return RL_ENOMEM;
		sqlite3_bind_int64(s->insert_alias, 1, id);
		rl_bind_text(s->insert_alias, 2, fold);
		rc = run(db, s->insert_alias, "store alias");
		free(fold);
	}
	if (rc)
		return rc;
	if (!fresh) {
		sqlite3_bind_int64(s->delete_errata, 1, id);
		rc = run(db, s->delete_errata, "store errata");
	}
	if (rc || !e->errata)
		return rc;
	sqlite3_bind_int64(s->insert_errata, 1, id);
	rl_bind_text(s->insert_errata, 2, e->errata->product);
	rl_bind_text(s->insert_errata, 3, e->errata->printing);
	rl_bind_text(s->insert_errata, 4, e->errata->document);
	rl_bind_text(s->insert_errata, 5, e->errata->page);
	return run(db, s->insert_errata, "store errata");
}

static int put_entry(rl_db *db, struct stmts *s, struct tag_cache *c,
                     long long game, long long doc, long long import,
                     const struct rl_doc *d, const struct rl_entry *e,
                     struct rl_import_result *res, struct rl_diags *warn)
{
	long long id = 0;
	bool fresh = false;
	int rc = RL_OK;
	/* an entry may name its own game and language (interchange files) */
	if (e->game)
		rc = game_id(db, e->game, &game);
	if (!rc)
		rc = put_ruling(db, s, game, e->lang ? e->lang : d->lang, import, e,
		                &id, &fresh, res, warn);
	/* a ruling new to the database has no details to replace */
	if (!rc)
		rc = put_details(db, s, id, e, fresh);
	if (rc)
		return rc;
	sqlite3_stmt *src = s->insert_source;
	sqlite3_bind_int64(src, 1, id);
	sqlite3_bind_int64(src, 2, doc);
	sqlite3_bind_int64(src, 3, import);
	sqlite3_bind_int64(src, 4, e->line);
	if (e->hidden_tags >= 0)
		sqlite3_bind_int(src, 5, e->hidden_tags);
	rc = run(db, src, "store source");
	for (size_t i = 0; i < e->ntags && !rc; i++)
		rc = link_tag(db, s, c, id, doc, e->tags[i].name,
		              e->tags[i].qualifier, "listed");
	if (!rc && d->page_tag)
		rc = link_tag(db, s, c, id, doc, d->page_tag->name,
		              d->page_tag->qualifier, "page");
	return rc;
}

/* A thesaurus's concepts replace the ones its previous version gave. */
static int put_concepts(rl_db *db, const struct rl_doc *doc, long long docid)
{
	char sql[96];
	snprintf(sql, sizeof sql, "DELETE FROM concepts WHERE document_id = %lld",
	         docid);
	int rc = rl_db_exec(db, sql);
	sqlite3_stmt *c = NULL, *t = NULL;
	if (!rc && doc->nconcepts) {
		c = rl_db_prepare(db, "INSERT INTO concepts (document_id, game_id,"
		                  " line) VALUES (?1, ?2, ?3)");
		t = rl_db_prepare(db, "INSERT OR IGNORE INTO concept_terms"
		                  " (concept_id, term, term_fold, lang)"
		                  " VALUES (?1, ?2, ?3, ?4)");
		if (!c || !t)
			rc = RL_EINTERNAL;
	}
	for (size_t i = 0; i < doc->nconcepts && !rc; i++) {
		const struct rl_concept *k = &doc->concepts[i];
		long long game;
		rc = game_id(db, k->game, &game);
		if (rc)
			break;
		sqlite3_bind_int64(c, 1, docid);
		if (game)
			sqlite3_bind_int64(c, 2, game);
		sqlite3_bind_int(c, 3, (int)k->line);
		if ((rc = run(db, c, "store concept")))
			break;
		long long cid = sqlite3_last_insert_rowid(db->h);
		for (size_t j = 0; j < k->nterms && !rc; j++) {
			char *fold = rl_key_loose(k->terms[j].term);
			if (!fold) {
				rc = RL_ENOMEM;
				break;
			}
			sqlite3_bind_int64(t, 1, cid);
			rl_bind_text(t, 2, k->terms[j].term);
			rl_bind_text(t, 3, fold);
			rl_bind_text(t, 4, k->terms[j].lang);
			rc = run(db, t, "store concept term");
			free(fold);
		}
	}
	sqlite3_finalize(c);
	sqlite3_finalize(t);
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
	 * aside), the first in the reference's language, else the first. The
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
	"  c (ref, tid, same) AS ("
	"    SELECT r.id, t.id, t.lang = r.lang FROM r JOIN t"
	"      ON t.g = r.g AND t.key = r.k"
	"    UNION ALL SELECT r.id, t.id, t.lang = r.lang FROM r JOIN t"
	"      ON t.g = r.g AND t.tloose = r.kl"
	"    UNION ALL SELECT r.id, t.id, t.lang = r.lang FROM r"
	"      JOIN ruling_aliases a ON a.alias_fold = r.kl"
	"      JOIN t ON t.id = a.ruling_id AND t.g = r.g),"
	"  best AS (SELECT ref, tid FROM (SELECT ref, tid, row_number() OVER"
	"    (PARTITION BY ref ORDER BY same DESC, tid) AS n FROM c) WHERE n = 1)"
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
		rc = record(db, s, import, id, "withdrawn",
		            (const char *)sqlite3_column_text(st, 1),
		            (const char *)sqlite3_column_text(st, 2), NULL, false);
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
		"INSERT OR IGNORE INTO ruling_sources SELECT * FROM temp.prev_sources"
		" WHERE ruling_id IN (SELECT id FROM temp.gone);"
		"INSERT OR IGNORE INTO ruling_tags SELECT * FROM temp.prev_tags"
		" WHERE ruling_id IN (SELECT id FROM temp.gone);");
}

/* Records an import of the document in *import, unless one of its imports
 * is of the same bytes read the same way (by the same revision of its
 * format, read_as): then it is unchanged, and *import is 0. */
static int record_import(rl_db *db, const struct rl_source *src,
                         const struct rl_doc *doc, const char *read_as,
                         long long docid, struct rl_import_result *res,
                         long long *import)
{
	*import = 0;
	/* The same bytes as one of this document's imports, read the same
	 * way (by the same revision of its format): nothing to do (a
	 * directory that holds two versions of a document imports again as
	 * unchanged, whichever is the latest). */
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT 1 FROM imports WHERE document_id = ?1 AND sha256 = ?2"
		" AND format = ?3 LIMIT 1");
	if (!st)
		return RL_EINTERNAL;
	sqlite3_bind_int64(st, 1, docid);
	rl_bind_text(st, 2, src->sha256);
	rl_bind_text(st, 3, read_as);
	long long same_bytes;
	int rc = run_id(db, st, &same_bytes, "find last import");
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
	rc = run_id(db, st, &earlier, "count imports");
	sqlite3_finalize(st);
	if (rc)
		return rc;
	res->baseline = earlier == 0;

	st = rl_db_prepare(db,
		"INSERT INTO imports (document_id, path, sha256, size, format, lang,"
		" entries, imported_at, date, date_source) VALUES (?1, ?2, ?3, ?4,"
		" ?5, ?6, ?7, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'),"
		" ifnull(?8, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),"
		" iif(?8 IS NULL, 'imported', 'document')) RETURNING id");
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
	rc = run_id(db, st, import, "record import");
	sqlite3_finalize(st);
	return rc;
}


static int store_doc(rl_db *db, struct stmts *s, const struct rl_source *src,
                     const struct rl_doc *doc, struct rl_import_result *res,
                     struct rl_diags *warn)
{
	long long game, docid, import = 0;
	int rc = game_id(db, doc->game, &game);
	if (!rc)
		rc = document_id(db, game, doc, &docid, &res->merged);
	if (rc)
		return rc;

	char *read_as = rl_doc_read_as(doc);
	if (!read_as)
		return RL_ENOMEM;
	rc = record_import(db, src, doc, read_as, docid, res, &import);
	free(read_as);
	if (rc || res->unchanged)
		return rc;
	res->import_id = import;

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
	rc = run_id(db, st, &before, "count rulings");
	sqlite3_finalize(st);
	if (rc)
		return rc;
	res->before = (size_t)before;

	struct tag_cache tags = {0};
	for (size_t i = 0; i < doc->n && !rc; i++)
		rc = put_entry(db, s, &tags, game, docid, import, doc,
		               &doc->entries[i], res, warn);
	tag_cache_clear(&tags);
	if (!rc)
		rc = put_concepts(db, doc, docid);
	if (rc)
		return rc;

	if ((rc = withdraw(db, s, import, res)))
		return rc;
	/* tags this document gave that nobody carries now */
	if ((rc = rl_db_exec(db, "DELETE FROM tags WHERE id IN"
	                     " (SELECT tag_id FROM temp.prev_tags) AND NOT EXISTS"
	                     " (SELECT 1 FROM ruling_tags rt WHERE rt.tag_id = tags.id)")))
		return rc;
	/* in a bulk load, references are resolved once, at its end */
	char todo[sizeof todo_sql + 32];
	snprintf(todo, sizeof todo, todo_sql, docid);
	if ((rc = rl_db_exec(db, todo)) || db->bulk)
		return rc;
	if (!(rc = resolve(db)))
		rc = fts_flush(db);
	return rc;
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
	rc = prepare_all(db, &s);
	if (!rc)
		rc = store_doc(db, &s, src, doc, res, o->warn);
	finalize_all(&s);
	/* the caller's last word, before anything is committed */
	if (!rc && !res->unchanged && o->check)
		rc = o->check(o->ctx, res);
	/* our own allocations leave no message behind */
	if (rc == RL_ENOMEM)
		rl_db_fail(db, RL_ENOMEM, "out of memory");
	if (rc || (res->unchanged && !res->merged) || dry) {
		if (nested && sqlite3_get_autocommit(db->h)) {
			/* SQLite rolled the whole transaction back (disk full, out
			 * of memory): the load's earlier documents are gone too */
			db->bulk = false;
			db->bulk_lost = true;
		} else {
			sqlite3_exec(db->h, nested ? "ROLLBACK TO document;"
			             " RELEASE document" : "ROLLBACK", NULL, NULL, NULL);
		}
		db->importing = db->bulk;
		return rc;
	}
	rc = rl_db_exec(db, nested ? "RELEASE document" : "COMMIT");
	db->importing = db->bulk;
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
	if (rc) {
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
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
		return rl_db_fail(db, RL_EIO, "the bulk load was rolled back by an "
		                  "earlier error");
	}
	if (!db->bulk)
		return rl_db_fail(db, RL_EUSAGE, "no bulk load is open");
	db->bulk = false;
	int rc = commit ? resolve(db) : RL_OK;
	if (!rc && commit)
		rc = fts_flush(db);
	if (!rc && commit)
		rc = rl_db_exec(db, "COMMIT");
	if (rc || !commit)
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
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
	/* read by an older revision of its format: to be read again */
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT format FROM imports WHERE sha256 = ?1");
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
