/* history.c — what changed, and every version of a ruling.
 *
 * The store records a change per ruling for every import after a
 * document's first (schema/004-history.sql); "marked" changes are the
 * source's own ("Changed answer:"), reported at the import that first
 * carries the mark (schema/009-marked.sql). Filters are bound parameters,
 * as in query.c, whose filter builder this shares. */
#include "db.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* The conditions on a change's version, appended to each part of the
 * changes query: when (the time options), --between A B (import numbers
 * compared on id_col, else version times) and --document. */
static void version_conds(struct rl_buf *sql, const struct rl_change_query *q,
                          const char *when, const char *id_col, int p_from,
                          int p_to, int p_doc)
{
	if (when)
		rl_buf_adds(sql, when);
	if (q->from && q->to && id_col)
		rl_buf_addf(sql, " AND %s > ?%d AND %s <= ?%d", id_col, p_from,
		            id_col, p_to);
	else if (q->from && q->to)
		rl_buf_addf(sql, " AND " RL_VERSION_TIME("i") " > ?%d AND "
		            RL_VERSION_TIME("i") " <= ?%d", p_from, p_to);
	if (q->document)
		rl_buf_addf(sql, " AND rl_fold(d.title) = rl_fold(?%d)", p_doc);
}

static int changes_in(rl_db *db, const struct rl_change_query *q,
                      struct rl_change **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	struct rl_query f = q->filter;
	f.include_withdrawn = true;      /* a withdrawal is a change too */
	f.changed_only = false;
	struct rl_buf sql = {0}, where = {0};
	const char **vals = NULL;
	char **owned = NULL;
	int nvals = 0;
	int rc = rl_query_filters(db, &where, &f, false, &vals, &owned,
	                          &nvals);
	/* a date is a day: "--between … 2026-01-16" runs to its end */
	char *to_end = q->to ? rl_day_end(q->to) : NULL;
	/* numbered parameters after the filters' */
	int p_since = nvals + 1, p_from = nvals + 2, p_to = nvals + 3,
	    p_doc = nvals + 4, p_until = nvals + 5, p_isince = nvals + 6,
	    p_iuntil = nvals + 7;
	/* the conditions on the version, the same in both parts */
	struct rl_buf when = {0};
	if (q->since)
		rl_buf_addf(&when, " AND " RL_VERSION_TIME("i") " >= ?%d",
		            p_since);
	if (q->until)
		rl_buf_addf(&when, " AND " RL_VERSION_TIME("i") " <= ?%d",
		            p_until);
	if (q->imported_since)
		rl_buf_addf(&when, " AND i.imported_at >= ?%d", p_isince);
	if (q->imported_until)
		rl_buf_addf(&when, " AND i.imported_at <= ?%d", p_iuntil);
	bool by_id = q->from && q->to && all_digits(q->from) && all_digits(q->to);
	if (q->recorded) {
		rl_buf_addf(&sql,
			"SELECT r.id, c.import_id, c.change, r.kind, g.name, r.lang,"
			" r.rule, r.title, c.old_title, c.old_body, c.new_title,"
			" c.new_body, i.imported_at, d.title, 0 AS marked, i.date,"
			" " RL_VERSION_DAY("i") " AS vtime"
			" FROM changes c JOIN rulings r ON r.id = c.ruling_id"
			" JOIN imports i ON i.id = c.import_id"
			" JOIN documents d ON d.id = i.document_id"
			" LEFT JOIN games g ON g.id = r.game_id WHERE 1%s",
			where.s ? where.s : "");
		version_conds(&sql, q, when.s, by_id ? "c.import_id" : NULL,
		              p_from, p_to, p_doc);
	}
	if (q->marked) {
		if (q->recorded)
			rl_buf_adds(&sql, " UNION ALL ");
		/* a marked ruling, at the import whose version first carries
		 * the mark (schema/009-marked.sql) */
		rl_buf_addf(&sql,
			"SELECT r.id, i.id, 'marked', r.kind, g.name, r.lang, r.rule,"
			" r.title, NULL, NULL, r.title, r.body, i.imported_at, d.title,"
			" 1 AS marked, i.date, " RL_VERSION_DAY("i") " AS vtime"
			" FROM rulings r LEFT JOIN games g ON g.id = r.game_id"
			" JOIN imports i ON i.id = r.marked_import"
			" JOIN documents d ON d.id = i.document_id"
			" WHERE r.changed = 1 AND r.withdrawn_at IS NULL%s",
			where.s ? where.s : "");
		version_conds(&sql, q, when.s, by_id ? "i.id" : NULL,
		              p_from, p_to, p_doc);
	}
	if (!sql.s) {
		/* nothing asked for, or no memory for the first part */
		bool oom = sql.oom || when.oom;
		rl_buf_free(&where);
		rl_buf_free(&when);
		free(to_end);
		for (int i = 0; i < nvals; i++)
			free(owned[i]);
		free(owned);
		free(vals);
		return oom ? RL_ENOMEM : RL_NOTFOUND;
	}
	/* by version (its date, then its import), newest first unless asked
	 * otherwise; in a version the recorded changes, then the marks, by
	 * ruling */
	rl_buf_adds(&sql, q->oldest_first ? " ORDER BY vtime, 2, marked, 1"
	                                  : " ORDER BY vtime DESC, 2 DESC, marked, 1");
	if (when.oom)
		sql.oom = true;
	rl_buf_free(&when);
	if (q->limit > 0)
		rl_buf_addf(&sql, " LIMIT %ld", q->limit);
	char *text = rl_buf_take(&sql);
	rl_buf_free(&where);
	sqlite3_stmt *st = NULL;
	if (!rc && !text)
		rc = RL_ENOMEM;
	if (!rc && !(st = rl_db_prepare(db, text)))
		rc = RL_EINTERNAL;
	for (int i = 0; i < nvals && !rc; i++)
		rl_bind_text(st, i + 1, vals[i]);
	if (!rc) {
		if (q->since)
			rl_bind_text(st, p_since, q->since);
		if (q->until)
			rl_bind_text(st, p_until, q->until);
		if (q->imported_since)
			rl_bind_text(st, p_isince, q->imported_since);
		if (q->imported_until)
			rl_bind_text(st, p_iuntil, q->imported_until);
		if (q->from && q->to) {
			if (by_id) {
				sqlite3_bind_int64(st, p_from, atoll(q->from));
				sqlite3_bind_int64(st, p_to, atoll(q->to));
			} else {
				rl_bind_text(st, p_from, q->from);
				rl_bind_text(st, p_to, to_end);
			}
		}
		if (q->document)
			rl_bind_text(st, p_doc, q->document);
	}
	size_t cap = 0;
	bool oom = false;
	int s;
	while (!rc && (s = sqlite3_step(st)) == SQLITE_ROW) {
		if (!rl_grow(out, &cap, *n + 1, sizeof **out)) {
			oom = true;
			break;
		}
		struct rl_change *c = &(*out)[(*n)++];
		*c = (struct rl_change){0};
		c->id = sqlite3_column_int64(st, 0);
		c->import_id = sqlite3_column_int64(st, 1);
		c->change = rl_column_dup(st, 2, &oom);
		c->kind = rl_column_dup(st, 3, &oom);
		c->game = rl_column_dup(st, 4, &oom);
		c->lang = rl_column_dup(st, 5, &oom);
		c->rule = rl_column_dup(st, 6, &oom);
		c->title = rl_column_dup(st, 7, &oom);
		c->old_title = rl_column_dup(st, 8, &oom);
		c->old_text = rl_column_dup(st, 9, &oom);
		c->new_title = rl_column_dup(st, 10, &oom);
		c->new_text = rl_column_dup(st, 11, &oom);
		c->at = rl_column_dup(st, 12, &oom);
		c->document = rl_column_dup(st, 13, &oom);
		c->date = rl_column_dup(st, 15, &oom);
	}
	if (!rc && !oom && s != SQLITE_DONE)
		rc = rl_db_sqlite_fail(db, s, "changes");
	if (!rc && oom)
		rc = RL_ENOMEM;
	sqlite3_finalize(st);
	free(text);
	free(to_end);
	for (int i = 0; i < nvals; i++)
		free(owned[i]);
	free(owned);
	free(vals);
	if (rc) {
		rl_changes_free(*out, *n);
		*out = NULL;
		*n = 0;
		return rc;
	}
	return *n ? RL_OK : RL_NOTFOUND;
}

int rl_changes(rl_db *db, const struct rl_change_query *q,
               struct rl_change **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	int rc = rl_read_begin(db);
	return rc ? rc : rl_read_end(db, changes_in(db, q, out, n));
}

void rl_changes_free(struct rl_change *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct rl_change *c = &v[i];
		free(c->change); free(c->kind); free(c->game); free(c->lang);
		free(c->rule); free(c->title); free(c->old_title); free(c->old_text);
		free(c->new_title); free(c->new_text); free(c->at); free(c->document);
		free(c->date);
	}
	free(v);
}

static void version_row(sqlite3_stmt *st, void *elem, void *ctx, bool *oom)
{
	struct rl_version *v = elem;
	v->import_id = sqlite3_column_int64(st, 0);
	v->change = rl_column_dup(st, 1, oom);
	v->at = rl_column_dup(st, 2, oom);
	v->document = rl_column_dup(st, 3, oom);
	v->path = rl_column_dup(st, 4, oom);
	v->title = rl_column_dup(st, 5, oom);
	v->text = rl_column_dup(st, 6, oom);
	v->date = rl_column_dup(st, 8, oom);
}

static int history_in(rl_db *db, long long id, struct rl_version **out,
                      size_t *n)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT i.id, ifnull(c.change, 'baseline'), i.imported_at, d.title,"
		" i.path, v.title, v.body, " RL_VERSION_DAY("i") " AS vt, i.date"
		" FROM ruling_versions v JOIN imports i ON i.id = v.import_id"
		" JOIN documents d ON d.id = i.document_id"
		" LEFT JOIN changes c ON c.ruling_id = v.ruling_id"
		"   AND c.import_id = v.import_id"
		" WHERE v.ruling_id = ?1"
		" UNION ALL"
		" SELECT i.id, c.change, i.imported_at, d.title, i.path, NULL, NULL,"
		" " RL_VERSION_DAY("i") ", i.date"
		" FROM changes c JOIN imports i ON i.id = c.import_id"
		" JOIN documents d ON d.id = i.document_id"
		" WHERE c.ruling_id = ?1 AND c.change = 'withdrawn'"
		/* by version: its date, then its import */
		" ORDER BY 8, 1");
	if (!st)
		return RL_EINTERNAL;
	sqlite3_bind_int64(st, 1, id);
	size_t cap = 0;
	int rc = rl_db_collect(db, st, out, n, &cap, sizeof **out, version_row,
	                       NULL, "history");
	sqlite3_finalize(st);
	if (rc) {
		rl_history_free(*out, *n);
		*out = NULL;
		*n = 0;
		return rc;
	}
	if (*n)
		return RL_OK;
	/* no versions: no such ruling, or one from before history was kept */
	return rl_db_fail(db, RL_NOTFOUND, "no history for ruling %lld", id);
}

int rl_history(rl_db *db, long long id, struct rl_version **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	int rc = rl_read_begin(db);
	return rc ? rc : rl_read_end(db, history_in(db, id, out, n));
}

void rl_history_free(struct rl_version *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].change); free(v[i].at); free(v[i].document);
		free(v[i].path); free(v[i].title); free(v[i].text);
		free(v[i].date);
	}
	free(v);
}

static int documents_in(rl_db *db, const char *game, struct rl_document **out,
                        size_t *n)
{
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT d.id, d.title, g.name, d.format, d.lang, i.id, i.date,"
		" i.date_source, i.imported_at, i.path, i.entries,"
		" i.id = (SELECT f.id FROM imports f WHERE f.document_id = d.id"
		"   ORDER BY " RL_VERSION_DAY("f") ", f.id LIMIT 1),"
		" (SELECT count(*) FROM changes c WHERE c.import_id = i.id"
		"   AND c.change = 'added'),"
		" (SELECT count(*) FROM changes c WHERE c.import_id = i.id"
		"   AND c.change = 'edited'),"
		" (SELECT count(*) FROM changes c WHERE c.import_id = i.id"
		"   AND c.change = 'withdrawn'),"
		/* a first version records no change: its new rulings are
		 * those whose first text it gave, its edits the other texts */
		" (SELECT count(*) FROM ruling_versions v WHERE v.import_id = i.id"
		"   AND NOT EXISTS (SELECT 1 FROM ruling_versions w"
		"     JOIN imports wi ON wi.id = w.import_id"
		"     WHERE w.ruling_id = v.ruling_id AND (" RL_VERSION_DAY("wi")
		"     < " RL_VERSION_DAY("i") " OR (" RL_VERSION_DAY("wi") " = "
		RL_VERSION_DAY("i") " AND w.import_id < i.id)))),"
		" (SELECT count(*) FROM ruling_versions v WHERE v.import_id = i.id)"
		" FROM documents d JOIN imports i ON i.document_id = d.id"
		" LEFT JOIN games g ON g.id = d.game_id"
		" WHERE ?1 IS NULL OR rl_fold(g.name) = rl_fold(?1)"
		"  OR (rl_fold(?1) = 'none' AND d.game_id IS NULL)"
		" ORDER BY rl_fold(d.title), d.id, " RL_VERSION_DAY("i") ", i.id");
	if (!st)
		return RL_EINTERNAL;
	rl_bind_text(st, 1, game);
	size_t cap = 0, vcap = 0;
	long long doc = 0;
	bool oom = false;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!*n || sqlite3_column_int64(st, 0) != doc) {
			if (!rl_grow(out, &cap, *n + 1, sizeof **out)) {
				oom = true;
				break;
			}
			struct rl_document *d = &(*out)[(*n)++];
			*d = (struct rl_document){0};
			doc = sqlite3_column_int64(st, 0);
			d->title = rl_column_dup(st, 1, &oom);
			d->game = rl_column_dup(st, 2, &oom);
			d->format = rl_column_dup(st, 3, &oom);
			d->lang = rl_column_dup(st, 4, &oom);
			vcap = 0;
		}
		struct rl_document *d = &(*out)[*n - 1];
		if (!rl_grow(&d->versions, &vcap, d->nversions + 1,
		             sizeof *d->versions)) {
			oom = true;
			break;
		}
		struct rl_doc_version *v = &d->versions[d->nversions++];
		*v = (struct rl_doc_version){0};
		v->import_id = sqlite3_column_int64(st, 5);
		v->date = rl_column_dup(st, 6, &oom);
		v->date_source = rl_column_dup(st, 7, &oom);
		v->imported_at = rl_column_dup(st, 8, &oom);
		v->path = rl_column_dup(st, 9, &oom);
		long long entries = sqlite3_column_int64(st, 10);
		bool first = sqlite3_column_int(st, 11);
		long long fresh = sqlite3_column_int64(st, 15),
		          texts = sqlite3_column_int64(st, 16);
		v->added = first ? fresh : sqlite3_column_int64(st, 12);
		v->edited = first ? texts - fresh : sqlite3_column_int64(st, 13);
		v->withdrawn = first ? 0 : sqlite3_column_int64(st, 14);
		v->unchanged = entries - v->added - v->edited;
		if (v->unchanged < 0)
			v->unchanged = 0;
	}
	sqlite3_finalize(st);
	if (oom || (rc != SQLITE_DONE && rc != SQLITE_ROW)) {
		rl_documents_free(*out, *n);
		*out = NULL;
		*n = 0;
		return oom ? RL_ENOMEM : rl_db_sqlite_fail(db, rc, "documents");
	}
	return *n ? RL_OK : RL_NOTFOUND;
}

int rl_documents(rl_db *db, const char *game, struct rl_document **out,
                 size_t *n)
{
	*out = NULL;
	*n = 0;
	int rc = rl_read_begin(db);
	return rc ? rc : rl_read_end(db, documents_in(db, game, out, n));
}

void rl_documents_free(struct rl_document *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct rl_document *d = &v[i];
		for (size_t j = 0; j < d->nversions; j++) {
			struct rl_doc_version *x = &d->versions[j];
			free(x->date); free(x->date_source); free(x->imported_at);
			free(x->path);
		}
		free(d->versions);
		free(d->title); free(d->game); free(d->format); free(d->lang);
	}
	free(v);
}
