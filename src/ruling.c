/* ruling.c — what every query returns: a ruling's columns, its tags,
 * sources and errata, and freeing them. */
#include "query.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

const char rl_ruling_cols[] =
	"r.id, r.kind, g.name, r.lang, r.title, r.body, r.rule, r.category,"
	" r.section, r.changed, r.date, r.author, r.withdrawn_at";
/* The same with the title and text as of a time (temp.asof a). */
const char rl_asof_cols[] =
	"r.id, r.kind, g.name, r.lang, a.title, a.body, r.rule, r.category,"
	" r.section, r.changed, r.date, r.author, r.withdrawn_at";

void rl_fill_base(sqlite3_stmt *st, struct rl_ruling *r, bool *oom)
{
	r->id = sqlite3_column_int64(st, 0);
	r->kind = rl_column_dup(st, 1, oom);
	r->game = rl_column_dup(st, 2, oom);
	r->lang = rl_column_dup(st, 3, oom);
	r->title = rl_column_dup(st, 4, oom);
	r->text = rl_column_dup(st, 5, oom);
	r->rule = rl_column_dup(st, 6, oom);
	r->category = rl_column_dup(st, 7, oom);
	r->section = rl_column_dup(st, 8, oom);
	r->changed = sqlite3_column_int(st, 9) != 0;
	r->date = rl_column_dup(st, 10, oom);
	r->author = rl_column_dup(st, 11, oom);
	r->withdrawn_at = rl_column_dup(st, 12, oom);
	r->hidden_tags = -1;
}

int rl_step_error(rl_db *db, int rc)
{
	return rl_db_sqlite_fail(db, rc, "query");
}

static const char *const details_sql[] = {
	/* the order by the columns made distinct, in their order: one
	 * temporary b-tree for both (the folds are unique: the same order) */
	"SELECT DISTINCT t.name_fold, t.qual_fold, t.name, t.qualifier"
	" FROM ruling_tags rt JOIN tags t ON t.id = rt.tag_id"
	" WHERE rt.ruling_id = ?1"
	" ORDER BY t.name_fold, t.qual_fold, t.name, t.qualifier",
	"SELECT d.title, i.path, s.line, s.hidden_tags, d.date"
	" FROM ruling_sources s JOIN documents d ON d.id = s.document_id"
	" JOIN imports i ON i.id = s.import_id"
	" WHERE s.ruling_id = ?1 ORDER BY d.title, d.id",
	"SELECT product, printing, document, page"
	" FROM errata WHERE ruling_id = ?1",
};

_Static_assert(sizeof(struct rl_details) == sizeof details_sql,
               "one SQL text per details statement");

int rl_details_prepare(rl_db *db, struct rl_details *ds)
{
	sqlite3_stmt **a = (sqlite3_stmt **)ds;
	for (size_t i = 0; i < sizeof details_sql / sizeof *details_sql; i++)
		if (!(a[i] = rl_db_prepare(db, details_sql[i])))
			return RL_EINTERNAL;
	return RL_OK;
}

void rl_details_finalize(struct rl_details *ds)
{
	sqlite3_stmt **a = (sqlite3_stmt **)ds;
	for (size_t i = 0; i < sizeof details_sql / sizeof *details_sql; i++)
		sqlite3_finalize(a[i]);
}

static void tag_row(sqlite3_stmt *st, void *elem, void *ctx, bool *oom)
{
	char **t = elem;
	*t = rl_tag_display((const char *)sqlite3_column_text(st, 2),
	                    (const char *)sqlite3_column_text(st, 3));
	if (!*t)
		*oom = true;
}

/* A source of ruling ctx; the most tags any source hides is the
 * ruling's. */
static void source_row(sqlite3_stmt *st, void *elem, void *ctx, bool *oom)
{
	struct rl_ruling *r = ctx;
	struct rl_source_ref *s = elem;
	s->document = rl_column_dup(st, 0, oom);
	s->path = rl_column_dup(st, 1, oom);
	s->line = (unsigned)sqlite3_column_int(st, 2);
	s->hidden_tags = sqlite3_column_type(st, 3) == SQLITE_NULL
	                 ? -1 : sqlite3_column_int(st, 3);
	s->date = rl_column_dup(st, 4, oom);
	if (s->hidden_tags > r->hidden_tags)
		r->hidden_tags = s->hidden_tags;
}

int rl_fill_details(rl_db *db, struct rl_details *ds, struct rl_ruling *r)
{
	bool oom = false;
	int rc;
	sqlite3_stmt *st = ds->tags;
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, r->id);
	size_t cap = 0;
	rc = rl_db_collect(db, st, &r->tags, &r->ntags, &cap, sizeof *r->tags,
	                   tag_row, NULL, "query");
	sqlite3_reset(st);
	if (rc)
		return rc;

	st = ds->sources;
	sqlite3_bind_int64(st, 1, r->id);
	cap = 0;
	rc = rl_db_collect(db, st, &r->sources, &r->nsources, &cap,
	                   sizeof *r->sources, source_row, r, "query");
	sqlite3_reset(st);
	if (rc)
		return rc;

	st = ds->errata;
	sqlite3_bind_int64(st, 1, r->id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		r->errata = calloc(1, sizeof *r->errata);
		if (!r->errata) {
			oom = true;
		} else {
			r->errata->product = rl_column_dup(st, 0, &oom);
			r->errata->printing = rl_column_dup(st, 1, &oom);
			r->errata->document = rl_column_dup(st, 2, &oom);
			r->errata->page = rl_column_dup(st, 3, &oom);
		}
		rc = SQLITE_DONE;
	}
	sqlite3_reset(st);
	if (oom)
		return RL_ENOMEM;
	return rc == SQLITE_DONE ? RL_OK : rl_step_error(db, rc);
}

void rl_ruling_clear(struct rl_ruling *r)
{
	if (!r)
		return;
	free(r->kind); free(r->game); free(r->lang); free(r->title);
	free(r->text); free(r->rule); free(r->category); free(r->section);
	free(r->date); free(r->author); free(r->withdrawn_at);
	free(r->snippet);
	for (size_t i = 0; i < r->ntags; i++)
		free(r->tags[i]);
	free(r->tags);
	for (size_t i = 0; i < r->nsources; i++) {
		free(r->sources[i].document);
		free(r->sources[i].path);
		free(r->sources[i].date);
	}
	free(r->sources);
	if (r->errata) {
		free(r->errata->product); free(r->errata->printing);
		free(r->errata->document); free(r->errata->page);
		free(r->errata);
	}
	struct rl_ref_out *lists[2] = { r->refs, r->backlinks };
	size_t counts[2] = { r->nrefs, r->nbacklinks };
	for (int l = 0; l < 2; l++) {
		for (size_t i = 0; i < counts[l]; i++) {
			free(lists[l][i].kind); free(lists[l][i].target);
			free(lists[l][i].target_rule); free(lists[l][i].target_title);
		}
		free(lists[l]);
	}
	rl_rule_ref_free(r->parent);
	rl_rule_ref_free(r->previous);
	rl_rule_ref_free(r->next);
	for (size_t i = 0; i < r->nsubrules; i++) {
		free(r->subrules[i].rule);
		free(r->subrules[i].title);
	}
	free(r->subrules);
	*r = (struct rl_ruling){0};
}

void rl_results_free(struct rl_results *res)
{
	if (!res)
		return;
	for (size_t i = 0; i < res->n; i++)
		rl_ruling_clear(&res->v[i]);
	free(res->v);
	free(res->unknown);
	*res = (struct rl_results){0};
}
