/* store_ruling.c — a document's entries as rulings: found by identity or
 * added, what changed recorded, their references, aliases, errata and tags;
 * a thesaurus's concepts (see store.c). */
#include "store_write.h"
#include "topk.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rl_store_tag_cache_clear(struct tag_cache *c)
{
	for (size_t i = 0; i < TAG_CACHE; i++) {
		free(c->v[i].name);
		free(c->v[i].qual);
	}
	memset(c, 0, sizeof *c);
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
	rc = rl_store_run_id(db, s->find_tag, id, "find tag");
	if (rc || *id)
		goto out;
	rl_bind_text(s->insert_tag, 1, name);
	rl_bind_text(s->insert_tag, 2, qual ? qual : "");
	rl_bind_text(s->insert_tag, 3, nf);
	rl_bind_text(s->insert_tag, 4, qf);
	rc = rl_store_run(db, s->insert_tag, "store tag");
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
	return rl_store_run(db, s->insert_ruling_tag, "store tag link");
}

static bool same(const unsigned char *a, const char *b)
{
	return strcmp((const char *)a, b ? b : "") == 0;
}

/* Equal once runs of white space count as one space and the ends are
 * trimmed: what "edited" means (a new line-break style is no edit). */
bool rl_store_same_folded(const char *a, const char *b)
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
int rl_store_record(rl_db *db, struct stmts *s, long long import, long long id,
                    const char *change, const char *old_title,
                    const char *old_body, const struct rl_entry *e,
                    bool baseline)
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
		rc = rl_store_run(db, c, "record change");
	}
	/* the row is new (no journal), else replaced */
	for (int k = 0; k < 2 && !rc && e; k++) {
		sqlite3_stmt *v = k ? s->insert_version : s->insert_new_version;
		sqlite3_bind_int64(v, 1, id);
		sqlite3_bind_int64(v, 2, import);
		rl_bind_text(v, 3, e->title);
		rl_bind_text(v, 4, e->text);
		rc = rl_store_run(db, v, "record version");
		if (sqlite3_changes(db->h))
			break;
	}
	return rc;
}

/* The ruling's content, bound from parameter first on in the order both
 * the INSERT and the UPDATE of a ruling list it (store_stmt.c): rule,
 * title, body, section, category, changed, date, author, then the import
 * its "Changed answer:" mark belongs to. */
static void bind_content(sqlite3_stmt *st, int first, const struct rl_entry *e,
                         long long import)
{
	rl_bind_text(st, first, e->rule);
	rl_bind_text(st, first + 1, e->title);
	rl_bind_text(st, first + 2, e->text);
	rl_bind_text(st, first + 3, e->section);
	rl_bind_text(st, first + 4, e->category);
	sqlite3_bind_int(st, first + 5, e->changed);
	rl_bind_text(st, first + 6, e->date);
	rl_bind_text(st, first + 7, e->author);
	sqlite3_bind_int64(st, first + 8, import);
}

int rl_store_list(rl_db *db, struct stmts *s, long long import, long long id,
                  const struct rl_entry *e)
{
	/* the row is new (no journal), else replaced */
	int rc = RL_OK;
	for (int k = 0; k < 2 && !rc; k++) {
		sqlite3_stmt *l = k ? s->insert_listing : s->insert_new_listing;
		sqlite3_bind_int64(l, 1, import);
		sqlite3_bind_int64(l, 2, id);
		rl_bind_text(l, 3, e->title ? e->title : "");
		rl_bind_text(l, 4, e->text ? e->text : "");
		sqlite3_bind_int(l, 5, e->changed);
		rc = rl_store_run(db, l, "list ruling");
		if (sqlite3_changes(db->h))
			break;
	}
	return rc;
}

/* A ruling new to the database, with the entry's content; its full-text
 * row written when the document is finished. With i s->insert_new_ruling,
 * nothing is written if the ruling exists: *id is then 0. */
static int insert_ruling(rl_db *db, struct stmts *s, sqlite3_stmt *i,
                         long long game, const char *lang, long long import,
                         const struct rl_entry *e, long long *id)
{
	if (game)
		sqlite3_bind_int64(i, 1, game);
	rl_bind_text(i, 2, rl_kind_name(e->kind));
	rl_bind_text(i, 3, e->key);
	rl_bind_text(i, 4, lang);
	bind_content(i, 5, e, import);
	int rc = rl_store_run(db, i, "insert ruling");
	*id = !rc && sqlite3_changes(db->h) ? sqlite3_last_insert_rowid(db->h) : 0;
	if (!rc && *id) {
		sqlite3_bind_int64(s->fts_later, 1, *id);
		rc = rl_store_run(db, s->fts_later, "index ruling");
	}
	return rc;
}

/* The ruling for e is new to the database: inserted (with st, unless
 * st is insert_new_ruling and it exists: *id 0) and recorded as added. */
static int add_ruling(rl_db *db, struct stmts *s, sqlite3_stmt *st,
                      long long game, const char *lang, long long import,
                      const struct rl_entry *e, long long *id, bool *fresh,
                      struct rl_import_result *res)
{
	int rc = insert_ruling(db, s, st, game, lang, import, e, id);
	if (rc || !*id)
		return rc;
	*fresh = true;
	res->added++;
	return rl_store_record(db, s, import, *id, "added", NULL, NULL, e,
	                       res->baseline);
}

/* The identity look-up of e's ruling (game, kind, language, key), bound. */
static sqlite3_stmt *find_ruling(struct stmts *s, long long game,
                                 const char *lang, const struct rl_entry *e)
{
	sqlite3_stmt *f = s->find_ruling;
	if (game)
		sqlite3_bind_int64(f, 1, game);
	rl_bind_text(f, 2, rl_kind_name(e->kind));
	rl_bind_text(f, 3, lang);
	rl_bind_text(f, 4, e->key);
	return f;
}

/* Finds or creates the ruling for e; sets *id; records what changed. */
static int put_ruling(rl_db *db, struct stmts *s, long long game,
                      const char *lang, long long import,
                      const struct rl_entry *e, long long *id, bool *fresh,
                      struct rl_import_result *res, struct rl_diags *warn)
{
	*fresh = false;
	/* A document's first import brings mostly rulings new to the
	 * database (a bulk load into a new one, all of them): each is
	 * inserted at once and looked up only if it exists — one descent of
	 * the identity index instead of two. Later imports look up first. */
	int rc;
	if (res->baseline &&
	    ((rc = add_ruling(db, s, s->insert_new_ruling, game, lang, import, e,
	                      id, fresh, res)) || *id))
		return rc;
	sqlite3_stmt *f = find_ruling(s, game, lang, e);
	rc = sqlite3_step(f);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(f, 0);
		const char *ot = (const char *)sqlite3_column_text(f, 1);
		const char *ob = (const char *)sqlite3_column_text(f, 2);
		bool text_same = same((const unsigned char *)ot, e->title) &&
		                 same((const unsigned char *)ob, e->text);
		bool folded_same = text_same || (rl_store_same_folded(ot, e->title) &&
		                                 rl_store_same_folded(ob, e->text));
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
			rc = rl_store_run(db, s->revive, "revive ruling");
			/* a return is a change even in another document's
			 * first import */
			if (!rc)
				rc = rl_store_record(db, s, import, *id, "added",
				                     old_title, old_body, e, false);
			res->added++;
		} else if (!folded_same) {
			rc = rl_store_record(db, s, import, *id, "edited",
			                     old_title, old_body, e, res->baseline);
			if (!res->baseline)
				res->edited++;
			if (!rc && !res->baseline && cut_short(old_body, e->text)) {
				res->shortened++;
				rc = warn_cut(warn, e);
			}
		}
		if (!rc && !text_same) {
			/* one added earlier in this transaction is not indexed
			 * yet: rl_store_fts_flush() reads its new text */
			long long pending;
			sqlite3_bind_int64(s->fts_pending, 1, *id);
			rc = rl_store_run_id(db, s->fts_pending, &pending,
			                     "index ruling");
			if (!rc && !pending)
				rc = rl_store_fts_put(db, s, true, lang, *id,
				                      old_title, old_body);
			if (!rc && !pending)
				rc = rl_store_fts_put(db, s, false, lang, *id,
				                      e->title, e->text);
		}
		free(old_title);
		free(old_body);
		if (rc || (text_same && rest_same))
			return rc;
		sqlite3_stmt *u = s->update_ruling;
		sqlite3_bind_int64(u, 1, *id);
		bind_content(u, 2, e, import);
		return rl_store_run(db, u, "update ruling");
	}
	sqlite3_reset(f);
	sqlite3_clear_bindings(f);
	if (rc != SQLITE_DONE)
		return rl_db_sqlite_fail(db, rc, "find ruling");
	return add_ruling(db, s, s->insert_ruling, game, lang, import, e, id,
	                  fresh, res);
}

/* References, aliases and errata belong to the ruling's content: replaced
 * whole. */
static int put_details(rl_db *db, struct stmts *s, long long id,
                       const struct rl_entry *e, bool fresh)
{
	int rc = RL_OK;
	if (!fresh) {
		sqlite3_bind_int64(s->delete_refs, 1, id);
		rc = rl_store_run(db, s->delete_refs, "store references");
	}
	for (size_t i = 0; i < e->nrefs && !rc; i++) {
		sqlite3_bind_int64(s->insert_ref, 1, id);
		rl_bind_text(s->insert_ref, 2, rl_ref_kind_name(e->refs[i].kind));
		rl_bind_text(s->insert_ref, 3, e->refs[i].target);
		rc = rl_store_run(db, s->insert_ref, "store reference");
	}
	if (rc)
		return rc;
	if (!fresh) {
		sqlite3_bind_int64(s->delete_aliases, 1, id);
		rc = rl_store_run(db, s->delete_aliases, "store aliases");
	}
	for (size_t i = 0; i < e->naliases && !rc; i++) {
		char *fold = rl_key_loose(e->aliases[i]);
		if (!fold)
			return RL_ENOMEM;
		sqlite3_bind_int64(s->insert_alias, 1, id);
		rl_bind_text(s->insert_alias, 2, fold);
		rc = rl_store_run(db, s->insert_alias, "store alias");
		free(fold);
	}
	if (rc)
		return rc;
	if (!fresh) {
		sqlite3_bind_int64(s->delete_errata, 1, id);
		rc = rl_store_run(db, s->delete_errata, "store errata");
	}
	if (rc || !e->errata)
		return rc;
	sqlite3_bind_int64(s->insert_errata, 1, id);
	rl_bind_text(s->insert_errata, 2, e->errata->product);
	rl_bind_text(s->insert_errata, 3, e->errata->printing);
	rl_bind_text(s->insert_errata, 4, e->errata->document);
	rl_bind_text(s->insert_errata, 5, e->errata->page);
	return rl_store_run(db, s->insert_errata, "store errata");
}

/* What a version's entry links to its ruling: the source (document, import,
 * line), the version's listing, and the tags it and its page give. */
static int link_entry(rl_db *db, struct stmts *s, struct tag_cache *c,
                      long long id, long long doc, long long import,
                      const struct rl_doc *d, const struct rl_entry *e)
{
	sqlite3_stmt *src = s->insert_source;
	sqlite3_bind_int64(src, 1, id);
	sqlite3_bind_int64(src, 2, doc);
	sqlite3_bind_int64(src, 3, import);
	sqlite3_bind_int64(src, 4, e->line);
	if (e->hidden_tags >= 0)
		sqlite3_bind_int(src, 5, e->hidden_tags);
	int rc = rl_store_run(db, src, "store source");
	if (!rc)
		rc = rl_store_list(db, s, import, id, e);
	for (size_t i = 0; i < e->ntags && !rc; i++)
		rc = link_tag(db, s, c, id, doc, e->tags[i].name,
		              e->tags[i].qualifier, "listed");
	if (!rc && d->page_tag)
		rc = link_tag(db, s, c, id, doc, d->page_tag->name,
		              d->page_tag->qualifier, "page");
	return rc;
}

int rl_store_put_entry(rl_db *db, struct stmts *s, struct tag_cache *c,
                       long long game, long long doc, long long import,
                       const struct rl_doc *d, const struct rl_entry *e,
                       struct rl_import_result *res, struct rl_diags *warn)
{
	long long id = 0;
	bool fresh = false;
	int rc = RL_OK;
	/* an entry may name its own game and language (interchange files) */
	if (e->game)
		rc = rl_store_game_id(db, e->game, &game);
	if (!rc)
		rc = put_ruling(db, s, game, e->lang ? e->lang : d->lang, import, e,
		                &id, &fresh, res, warn);
	/* a ruling new to the database has no details to replace */
	if (!rc)
		rc = put_details(db, s, id, e, fresh);
	if (rc)
		return rc;
	return link_entry(db, s, c, id, doc, import, d, e);
}

int rl_store_put_older_entry(rl_db *db, struct stmts *s, struct tag_cache *c,
                             long long game, long long doc, long long import,
                             const struct rl_doc *d, const struct rl_entry *e)
{
	int rc = RL_OK;
	if (e->game)
		rc = rl_store_game_id(db, e->game, &game);
	if (rc)
		return rc;
	const char *lang = e->lang ? e->lang : d->lang;
	sqlite3_stmt *f = find_ruling(s, game, lang, e);
	long long id;
	rc = rl_store_run_id(db, f, &id, "find ruling");
	sqlite3_clear_bindings(f);
	if (rc || id)
		return rc ? rc : rl_store_list(db, s, import, id, e);
	/* new to the database, but not in the newest version: withdrawn,
	 * with this version's text and links */
	rc = insert_ruling(db, s, s->insert_ruling, game, lang, import, e, &id);
	if (!rc)
		rc = put_details(db, s, id, e, true);
	if (rc)
		return rc;
	char sql[160];
	snprintf(sql, sizeof sql, "UPDATE rulings SET withdrawn_at ="
	         " strftime('%%Y-%%m-%%dT%%H:%%M:%%SZ', 'now') WHERE id = %lld", id);
	if ((rc = rl_db_exec(db, sql)))
		return rc;
	return link_entry(db, s, c, id, doc, import, d, e);
}

/* A thesaurus's concepts replace the ones its previous version gave;
 * when that changes which terms are bound to which games, the champion
 * lists per game are built again (topk.c). */
static int put_concepts(rl_db *db, const struct rl_doc *doc,
                        long long docid);

int rl_store_put_concepts(rl_db *db, const struct rl_doc *doc,
                          long long docid)
{
	bool had = false;
	sqlite3_stmt *st = rl_db_prepare(db, "SELECT 1 FROM concepts"
	                                 " WHERE document_id = ?1");
	if (!st)
		return RL_EINTERNAL;
	sqlite3_bind_int64(st, 1, docid);
	int s = sqlite3_step(st);
	had = s == SQLITE_ROW;
	sqlite3_finalize(st);
	if (s != SQLITE_ROW && s != SQLITE_DONE)
		return rl_db_sqlite_fail(db, s, "store concepts");
	if (!had && !doc->nconcepts)
		return RL_OK;           /* not a thesaurus: nothing to replace */
	char *before = NULL, *after = NULL;
	int rc = rl_topk_thesaurus_key(db, &before);
	if (!rc)
		rc = put_concepts(db, doc, docid);
	if (!rc)
		rc = rl_topk_thesaurus_key(db, &after);
	if (!rc && strcmp(before, after) != 0)
		rc = rl_topk_games(db);
	free(before);
	free(after);
	return rc;
}

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
		rc = rl_store_game_id(db, k->game, &game);
		if (rc)
			break;
		sqlite3_bind_int64(c, 1, docid);
		if (game)
			sqlite3_bind_int64(c, 2, game);
		sqlite3_bind_int(c, 3, (int)k->line);
		if ((rc = rl_store_run(db, c, "store concept")))
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
			rc = rl_store_run(db, t, "store concept term");
			free(fold);
		}
	}
	sqlite3_finalize(c);
	sqlite3_finalize(t);
	return rc;
}
