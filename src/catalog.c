/* catalog.c — listings of what the database holds: tags, counts,
 * cross-references. */
#include "query.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static void tag_count_row(sqlite3_stmt *st, void *elem, void *ctx, bool *oom)
{
	struct rl_tag_count *t = elem;
	t->name = rl_tag_display((const char *)sqlite3_column_text(st, 0),
	                         (const char *)sqlite3_column_text(st, 1));
	t->count = sqlite3_column_int64(st, 2);
	if (!t->name)
		*oom = true;
}

static int tags_in(rl_db *db, const char *game, bool by_count,
                   struct rl_tag_count **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	int rc;
	struct rl_buf sql = {0};
	rl_buf_addf(&sql,
		"SELECT t.name, t.qualifier, count(DISTINCT rt.ruling_id)"
		" FROM tags t JOIN ruling_tags rt ON rt.tag_id = t.id"
		" JOIN rulings r ON r.id = rt.ruling_id AND r.withdrawn_at IS NULL"
		"%s GROUP BY t.id ORDER BY %st.name_fold, t.qual_fold",
		game ? " AND r.game_id IN (SELECT id FROM games"
		       " WHERE rl_fold(name) = rl_fold(?1))" : "",
		by_count ? "3 DESC, " : "");
	char *text = rl_buf_take(&sql);
	sqlite3_stmt *st = text ? rl_db_prepare(db, text) : NULL;
	free(text);
	if (!st)
		return text ? RL_EINTERNAL : RL_ENOMEM;
	if (game)
		rl_bind_text(st, 1, game);
	size_t cap = 0;
	rc = rl_db_collect(db, st, out, n, &cap, sizeof **out, tag_count_row,
	                   NULL, "query");
	sqlite3_finalize(st);
	if (rc) {
		rl_tags_free(*out, *n);
		*out = NULL;
		*n = 0;
		return rc;
	}
	return *n ? RL_OK : RL_NOTFOUND;
}

int rl_tags(rl_db *db, const char *game, bool by_count,
            struct rl_tag_count **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	int rc = rl_read_begin(db);
	return rc ? rc : rl_read_end(db, tags_in(db, game, by_count, out, n));
}

void rl_tags_free(struct rl_tag_count *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

static void count_row(sqlite3_stmt *st, void *elem, void *ctx, bool *oom)
{
	struct rl_count *c = elem;
	c->key = rl_column_dup(st, 0, oom);
	c->count = sqlite3_column_int64(st, 1);
}

static int counts(rl_db *db, const char *sql, struct rl_count **v, size_t *n)
{
	sqlite3_stmt *st = rl_db_prepare(db, sql);
	if (!st)
		return RL_EINTERNAL;
	size_t cap = 0;
	int rc = rl_db_collect(db, st, v, n, &cap, sizeof **v, count_row, NULL,
	                       "query");
	sqlite3_finalize(st);
	return rc;
}

static int scalar(rl_db *db, const char *sql, long long *v)
{
	sqlite3_stmt *st = rl_db_prepare(db, sql);
	if (!st)
		return RL_EINTERNAL;
	int rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? RL_OK : rl_step_error(db, rc);
}

static int stats_in(rl_db *db, struct rl_stats *s)
{
	*s = (struct rl_stats){0};
	int rc = scalar(db, "SELECT count(*) FROM rulings WHERE withdrawn_at IS NULL",
	                &s->rulings);
	if (!rc)
		rc = scalar(db, "SELECT count(*) FROM rulings"
		            " WHERE withdrawn_at IS NOT NULL", &s->withdrawn);
	if (!rc)
		rc = scalar(db, "SELECT count(DISTINCT rt.tag_id) FROM ruling_tags rt"
		            " JOIN rulings r ON r.id = rt.ruling_id"
		            " WHERE r.withdrawn_at IS NULL", &s->tags);
	if (!rc)
		rc = scalar(db, "SELECT count(*) FROM documents", &s->sources);
	if (!rc)
		rc = scalar(db, "SELECT count(*) FROM imports", &s->imports);
	if (!rc)
		rc = scalar(db, "SELECT count(*) FROM games", &s->games);
	if (!rc)
		rc = counts(db, "SELECT lang, count(*) FROM rulings"
		            " WHERE withdrawn_at IS NULL GROUP BY lang"
		            " ORDER BY lang", &s->languages, &s->nlanguages);
	if (!rc)
		rc = counts(db, "SELECT kind, count(*) FROM rulings"
		            " WHERE withdrawn_at IS NULL GROUP BY kind"
		            " ORDER BY kind", &s->kinds, &s->nkinds);
	if (!rc)
		rc = counts(db, "SELECT g.name, count(*) FROM rulings r"
		            " LEFT JOIN games g ON g.id = r.game_id"
		            " WHERE r.withdrawn_at IS NULL GROUP BY r.game_id"
		            " ORDER BY g.name IS NULL, g.name",
		            &s->by_game, &s->nby_game);
	if (rc)
		rl_stats_clear(s);
	return rc;
}

int rl_stats(rl_db *db, struct rl_stats *s)
{
	*s = (struct rl_stats){0};
	int rc = rl_read_begin(db);
	return rc ? rc : rl_read_end(db, stats_in(db, s));
}

void rl_stats_clear(struct rl_stats *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nlanguages; i++)
		free(s->languages[i].key);
	for (size_t i = 0; i < s->nkinds; i++)
		free(s->kinds[i].key);
	for (size_t i = 0; i < s->nby_game; i++)
		free(s->by_game[i].key);
	free(s->by_game);
	free(s->languages);
	free(s->kinds);
	*s = (struct rl_stats){0};
}

static void xref_row(sqlite3_stmt *st, void *elem, void *ctx, bool *oom)
{
	struct rl_xref *x = elem;
	x->from_id = sqlite3_column_int64(st, 0);
	x->from_title = rl_column_dup(st, 1, oom);
	x->from_rule = rl_column_dup(st, 2, oom);
	x->kind = rl_column_dup(st, 3, oom);
	x->target = rl_column_dup(st, 4, oom);
	x->target_id = sqlite3_column_int64(st, 5);
	x->path = rl_column_dup(st, 6, oom);
	x->line = (unsigned)sqlite3_column_int(st, 7);
}

static int xrefs_in(rl_db *db, bool dangling_only, const char *kind,
                    struct rl_xref **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	/* Page numbers and discussions point outside the database: they are
	 * never "dangling". */
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT f.ruling_id, s.title, s.rule, f.kind, f.target,"
		" ifnull(f.target_id, 0), i.path, src.line"
		" FROM refs f JOIN rulings s ON s.id = f.ruling_id"
		" LEFT JOIN ruling_sources src ON src.ruling_id = s.id"
		"   AND src.document_id = (SELECT min(document_id) FROM ruling_sources"
		"     WHERE ruling_id = s.id)"
		" LEFT JOIN imports i ON i.id = src.import_id"
		" WHERE s.withdrawn_at IS NULL AND (?1 = 0 OR (f.target_id IS NULL"
		"   AND f.kind IN ('rule', 'ruling', 'term')))"
		" AND (?2 IS NULL OR f.kind = ?2)"
		" ORDER BY f.ruling_id, f.id");
	if (!st)
		return RL_EINTERNAL;
	sqlite3_bind_int(st, 1, dangling_only);
	rl_bind_text(st, 2, kind);
	size_t cap = 0;
	int rc = rl_db_collect(db, st, out, n, &cap, sizeof **out, xref_row, NULL,
	                       "query");
	sqlite3_finalize(st);
	if (rc) {
		rl_xrefs_free(*out, *n);
		*out = NULL;
		*n = 0;
		return rc;
	}
	return *n ? RL_OK : RL_NOTFOUND;
}

int rl_xrefs(rl_db *db, bool dangling_only, const char *kind,
             struct rl_xref **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	int rc = rl_read_begin(db);
	return rc ? rc : rl_read_end(db, xrefs_in(db, dangling_only, kind, out, n));
}

void rl_xrefs_free(struct rl_xref *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].from_title);
		free(v[i].from_rule);
		free(v[i].kind);
		free(v[i].target);
		free(v[i].path);
	}
	free(v);
}
