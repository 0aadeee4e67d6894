/* export_select.c — the rulings an export writes: the selection of a
 * search (rl_search() as `search --limit 0` runs it), kept
 * small (export.h, struct export_ruling).
 *
 * Planning needs of each ruling its id, language, game, section,
 * category and tags, not its text: a page of 200 000 rulings is planned
 * in a few megabytes, and each ruling is loaded again when it is written.
 * Without words the selection is read row by row with the search's own
 * filters (rl_query_filters(): the same rulings, in the same order, id by
 * id); with words it is rl_search()'s ranking, its results freed one by
 * one as they are taken. A format that reads whole records (the command
 * line's json) keeps rl_search()'s results as they are.
 *
 * Strings that repeat over thousands of rulings (languages, games,
 * sections, categories, tags) are kept once each. */
#include "export.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* ---- interned strings -------------------------------------------------- */

static size_t hash(const char *s)
{
	size_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

const char *export_intern(struct export_strings *t, const char *s, bool *oom)
{
	if (!s || *oom)
		return NULL;
	if (2 * (t->n + 1) > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		char **slot = calloc(cap, sizeof *slot);
		if (!slot) {
			*oom = true;
			return NULL;
		}
		for (size_t i = 0; i < t->cap; i++)
			if (t->slot[i]) {
				size_t j = hash(t->slot[i]) & (cap - 1);
				while (slot[j])
					j = (j + 1) & (cap - 1);
				slot[j] = t->slot[i];
			}
		free(t->slot);
		t->slot = slot;
		t->cap = cap;
	}
	size_t j = hash(s) & (t->cap - 1);
	for (; t->slot[j]; j = (j + 1) & (t->cap - 1))
		if (strcmp(t->slot[j], s) == 0)
			return t->slot[j];
	if (!(t->slot[j] = strdup(s))) {
		*oom = true;
		return NULL;
	}
	t->n++;
	return t->slot[j];
}

void export_strings_free(struct export_strings *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->slot[i]);
	free(t->slot);
	*t = (struct export_strings){0};
}

/* ---- the selection ------------------------------------------------------- */

static bool add_ruling(struct rl_export *x, long long id, const char *lang,
                       const char *game, const char *section,
                       const char *category)
{
	bool oom = !rl_grow(&x->v, &x->vcap, x->n + 1, sizeof *x->v);
	if (oom)
		return false;
	struct export_ruling *r = &x->v[x->n];
	*r = (struct export_ruling){
		.id = id, .lang = export_intern(&x->strings, lang ? lang : "", &oom),
		.game = export_intern(&x->strings, game, &oom),
		.section = export_intern(&x->strings, section, &oom),
		.category = export_intern(&x->strings, category, &oom),
		.tag0 = x->ntagv,
	};
	x->n += !oom;
	return !oom;
}

/* A tag of the ruling added last. */
static bool add_tag(struct rl_export *x, const char *tag)
{
	bool oom = false;
	const char *t = export_intern(&x->strings, tag, &oom);
	if (oom || !rl_grow(&x->tagv, &x->tagcap, x->ntagv + 1, sizeof *x->tagv))
		return false;
	x->tagv[x->ntagv++] = t;
	x->v[x->n - 1].ntags++;
	return true;
}

/* The selection through rl_search(): ranked by words, or whole records. */
static int by_search(struct rl_export *x, const struct rl_query *q,
                     bool *unknown)
{
	int rc = rl_search(x->db, q, &x->sel);
	*unknown = rc == RL_NOTFOUND && x->sel.unknown;  /* its message set */
	for (size_t i = 0; i < x->sel.n && !rc; i++) {
		struct rl_ruling *r = &x->sel.v[i];
		bool ok = add_ruling(x, r->id, r->lang, r->game, r->section,
		                     r->category);
		for (size_t k = 0; ok && k < r->ntags; k++)
			ok = add_tag(x, r->tags[k]);
		if (!ok)
			rc = rl_db_fail(x->db, RL_ENOMEM, "out of memory");
		if (!x->format->records)
			rl_ruling_clear(r);
	}
	if (!x->format->records || rc)
		rl_results_free(&x->sel);
	return rc;
}

/* Its tags, as rl_search() gives them: display forms, by folded name and
 * qualifier. */
static const char tags_sql[] =
	"SELECT DISTINCT t.name, t.qualifier, t.name_fold, t.qual_fold"
	" FROM ruling_tags rt JOIN tags t ON t.id = rt.tag_id"
	" WHERE rt.ruling_id = ?1 ORDER BY t.name_fold, t.qual_fold";

static int step_tags(struct rl_export *x, sqlite3_stmt *st, long long id)
{
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, id);
	int s;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		char *t = rl_tag_display((const char *)sqlite3_column_text(st, 0),
		                         (const char *)sqlite3_column_text(st, 1));
		bool ok = t && add_tag(x, t);
		free(t);
		if (!ok)
			return rl_db_fail(x->db, RL_ENOMEM, "out of memory");
	}
	return s == SQLITE_DONE ? RL_OK : rl_db_sqlite_fail(x->db, s, "query");
}

/* The selection without words, row by row: rl_search()'s filters, in
 * id order as rl_search() lists them. */
static int by_rows(struct rl_export *x, const struct rl_query *q,
                   bool *unknown)
{
	struct rl_buf where = {0}, sql = {0};
	const char **vals = NULL;
	char **owned = NULL;
	int nvals = 0;
	int rc = rl_query_filters(x->db, &where, q, true, &vals, &owned,
	                          &nvals);
	*unknown = rc == RL_NOTFOUND;    /* an unknown tag: its message set */
	rl_buf_addf(&sql, "SELECT r.id, r.lang, g.name, r.section, r.category"
	            " FROM rulings r LEFT JOIN games g ON g.id = r.game_id"
	            " WHERE 1%s ORDER BY r.id", where.s ? where.s : "");
	char *text = rl_buf_take(&sql);
	if (!rc && (!text || where.oom))
		rc = rl_db_fail(x->db, RL_ENOMEM, "out of memory");
	sqlite3_stmt *st = rc ? NULL : rl_db_prepare(x->db, text);
	sqlite3_stmt *tags = st ? rl_db_prepare(x->db, tags_sql) : NULL;
	if (!rc && !tags)
		rc = RL_EINTERNAL;
	for (int i = 0; i < nvals && !rc; i++)
		rl_bind_text(st, i + 1, vals[i]);
	while (!rc) {
		int s = sqlite3_step(st);
		if (s == SQLITE_DONE)
			break;
		if (s != SQLITE_ROW) {
			rc = rl_db_sqlite_fail(x->db, s, "query");
		} else if (!add_ruling(x, sqlite3_column_int64(st, 0),
		                       (const char *)sqlite3_column_text(st, 1),
		                       (const char *)sqlite3_column_text(st, 2),
		                       (const char *)sqlite3_column_text(st, 3),
		                       (const char *)sqlite3_column_text(st, 4))) {
			rc = rl_db_fail(x->db, RL_ENOMEM, "out of memory");
		} else {
			rc = step_tags(x, tags, x->v[x->n - 1].id);
		}
	}
	sqlite3_finalize(st);
	sqlite3_finalize(tags);
	free(text);
	rl_buf_free(&where);
	for (int i = 0; i < nvals; i++)
		free(owned[i]);
	free(owned);
	free(vals);
	return rc;
}

/* Keeps the rulings that carry the tag option itself. */
static int keep_exact(struct rl_export *x)
{
	char *want = export_tag_key(x->tag);
	if (!want)
		return rl_db_fail(x->db, RL_ENOMEM, "out of memory");
	size_t kept = 0;
	bool records = x->sel.n == x->n;
	int rc = RL_OK;
	for (size_t i = 0; i < x->n && !rc; i++) {
		const struct export_ruling *r = &x->v[i];
		bool has = false;
		for (size_t k = 0; k < r->ntags && !has && !rc; k++) {
			char *key = export_tag_key(x->tagv[r->tag0 + k]);
			rc = key ? RL_OK : RL_ENOMEM;
			has = key && strcmp(key, want) == 0;
			free(key);
		}
		if (records && has)
			x->sel.v[kept] = x->sel.v[i];
		else if (records)
			rl_ruling_clear(&x->sel.v[i]);
		if (has)
			x->v[kept++] = x->v[i];
	}
	free(want);
	if (rc)
		return rl_db_fail(x->db, rc, "out of memory");
	x->n = kept;
	if (records) {
		x->sel.n = kept;
		x->sel.total = (long long)kept;
	}
	if (!kept)
		return rl_db_fail(x->db, RL_NOTFOUND, "no ruling carries the tag "
		                  "'%s' itself (a %s page is one tag: give it with "
		                  "its qualifier)", x->tag, x->format->name);
	return RL_OK;
}

int export_select(struct rl_export *x, const struct rl_export_opts *o)
{
	const char *tags[1] = { o->tag };
	struct rl_query q = {
		.words = o->words, .nwords = o->nwords,
		.tags = tags, .ntags = o->tag ? 1 : 0,
		.lang = o->lang, .game = o->game, .no_thesaurus = o->no_thesaurus,
	};
	bool unknown = false;
	int rc = o->nwords || x->format->records ? by_search(x, &q, &unknown)
	                                          : by_rows(x, &q, &unknown);
	if (rc == RL_NOTFOUND && unknown)
		return rc;      /* "no tag 'x'; did you mean ...", as search says */
	if (rc == RL_NOTFOUND || (!rc && !x->n))
		return rl_db_fail(x->db, RL_NOTFOUND, "no ruling matches");
	if (!rc && x->tag && x->format->exact_tag)
		rc = keep_exact(x);
	if (rc)
		return rc;
	x->report.rulings = x->n;
	if (!(x->ids = malloc((x->n ? x->n : 1) * sizeof *x->ids)))
		return rl_db_fail(x->db, RL_ENOMEM, "out of memory");
	for (size_t i = 0; i < x->n; i++)
		x->ids[i] = x->v[i].id;
	return RL_OK;
}

int export_title(struct rl_export *x, size_t i, char **title)
{
	*title = NULL;
	sqlite3_stmt *st = rl_db_prepare(x->db,
		"SELECT title FROM rulings WHERE id = ?1");
	if (!st)
		return RL_EINTERNAL;
	sqlite3_bind_int64(st, 1, x->ids[i]);
	int s = sqlite3_step(st);
	bool oom = false;
	if (s == SQLITE_ROW)
		*title = rl_column_dup(st, 0, &oom);
	sqlite3_finalize(st);
	if (s != SQLITE_ROW)
		return s == SQLITE_DONE ? rl_db_fail(x->db, RL_NOTFOUND, "no ruling "
		                                     "%lld", x->ids[i])
		                        : rl_db_sqlite_fail(x->db, s, "query");
	return oom || !*title ? rl_db_fail(x->db, RL_ENOMEM, "out of memory")
	                      : RL_OK;
}
