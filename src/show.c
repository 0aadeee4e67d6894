/* show.c — one ruling whole (rl_show), and rulings by rule number. */
#include "query.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static void link_row(sqlite3_stmt *st, void *elem, void *ctx, bool *oom)
{
	struct rl_ref_out *o = elem;
	o->kind = rl_column_dup(st, 0, oom);
	o->target = rl_column_dup(st, 1, oom);
	o->target_id = sqlite3_column_int64(st, 2);
	o->target_rule = rl_column_dup(st, 3, oom);
	o->target_title = rl_column_dup(st, 4, oom);
}

const char *rl_ref_shown(const struct rl_ref_out *x)
{
	if (x->target_id && x->target_title && *x->target_title &&
	    strcmp(x->kind, "term") == 0)
		return x->target_title;
	return x->target;
}

/* Reads rows of (kind, target, id, rule, title) into a list. */
static int read_links(rl_db *db, const char *sql, long long id,
                      struct rl_ref_out **v, size_t *n)
{
	sqlite3_stmt *st = rl_db_prepare(db, sql);
	if (!st)
		return RL_EINTERNAL;
	sqlite3_bind_int64(st, 1, id);
	size_t cap = 0;
	int rc = rl_db_collect(db, st, v, n, &cap, sizeof **v, link_row, NULL,
	                       "query");
	sqlite3_finalize(st);
	return rc;
}

static int show_in(rl_db *db, long long id, struct rl_ruling *out,
                   bool relations)
{
	*out = (struct rl_ruling){0};
	struct rl_buf sql = {0};
	rl_buf_addf(&sql, "SELECT %s FROM rulings r LEFT JOIN games g"
	            " ON g.id = r.game_id WHERE r.id = ?1", rl_ruling_cols);
	char *text = rl_buf_take(&sql);
	if (!text)
		return RL_ENOMEM;
	sqlite3_stmt *st = rl_db_prepare(db, text);
	free(text);
	if (!st)
		return RL_EINTERNAL;
	sqlite3_bind_int64(st, 1, id);
	int s = sqlite3_step(st);
	bool oom = false;
	if (s == SQLITE_ROW)
		rl_fill_base(st, out, &oom);
	sqlite3_finalize(st);
	if (s == SQLITE_DONE)
		return rl_db_fail(db, RL_NOTFOUND, "no ruling with id %lld", id);
	int rc = s != SQLITE_ROW ? rl_step_error(db, s) : oom ? RL_ENOMEM : RL_OK;
	struct rl_details ds = {0};
	if (!rc)
		rc = rl_details_prepare(db, &ds);
	if (!rc)
		rc = rl_fill_details(db, &ds, out);
	rl_details_finalize(&ds);
	if (!rc)
		rc = read_links(db,
			"SELECT f.kind, f.target, ifnull(f.target_id, 0), t.rule, t.title"
			" FROM refs f LEFT JOIN rulings t ON t.id = f.target_id"
			" WHERE f.ruling_id = ?1 ORDER BY f.id",
			id, &out->refs, &out->nrefs);
	if (!rc)
		rc = read_links(db,
			"SELECT s.kind, f.kind, s.id, s.rule, s.title"
			" FROM refs f JOIN rulings s ON s.id = f.ruling_id"
			" WHERE f.target_id = ?1 AND s.withdrawn_at IS NULL"
			" GROUP BY s.id ORDER BY s.id",
			id, &out->backlinks, &out->nbacklinks);
	if (!rc && relations)
		rc = rl_rule_relations(db, out);
	if (rc)
		rl_ruling_clear(out);
	return rc;
}

static int show(rl_db *db, long long id, struct rl_ruling *out, bool relations)
{
	*out = (struct rl_ruling){0};
	int rc = rl_read_begin(db);
	if (rc)
		return rc;
	/* the read can fail after the ruling was read: nothing is kept then */
	rc = rl_read_end(db, show_in(db, id, out, relations));
	if (rc)
		rl_ruling_clear(out);
	return rc;
}

int rl_show(rl_db *db, long long id, struct rl_ruling *out)
{
	return show(db, id, out, true);
}

int rl_show_unrelated(rl_db *db, long long id, struct rl_ruling *out)
{
	return show(db, id, out, false);
}

/* Sets out's title and text to those the ruling had at time t. */
static int as_of_in(rl_db *db, long long id, const char *t,
                    struct rl_ruling *out)
{
	sqlite3_stmt *st = rl_db_prepare(db,
		"WITH v AS (SELECT v.title, v.body, v.import_id,"
		"   " RL_VERSION_DAY("i") " AS t"
		"   FROM ruling_versions v JOIN imports i ON i.id = v.import_id"
		"   WHERE v.ruling_id = ?1 AND " RL_VERSION_TIME("i") " <= ?2"
		"   ORDER BY t DESC, v.import_id DESC LIMIT 1)"
		" SELECT v.title, v.body FROM v WHERE NOT EXISTS (SELECT 1"
		"   FROM changes c JOIN imports i3 ON i3.id = c.import_id"
		"   WHERE c.ruling_id = ?1 AND c.change = 'withdrawn'"
		"   AND " RL_VERSION_TIME("i3") " <= ?2"
		"   AND (" RL_VERSION_DAY("i3") " > v.t"
		"     OR (" RL_VERSION_DAY("i3") " = v.t"
		"         AND c.import_id > v.import_id)))");
	if (!st)
		return RL_EINTERNAL;
	sqlite3_bind_int64(st, 1, id);
	rl_bind_text(st, 2, t);
	int s = sqlite3_step(st);
	bool oom = false;
	if (s == SQLITE_ROW) {
		char *title = rl_column_dup(st, 0, &oom);
		char *text = rl_column_dup(st, 1, &oom);
		if (oom) {
			free(title);
			free(text);
		} else {
			free(out->title);
			free(out->text);
			free(out->withdrawn_at);
			out->title = title;
			out->text = text;
			out->withdrawn_at = NULL;
		}
	}
	sqlite3_finalize(st);
	if (s == SQLITE_DONE)
		return rl_db_fail(db, RL_NOTFOUND, "ruling %lld did not stand at "
		                  "%s", id, t);
	return s != SQLITE_ROW ? rl_step_error(db, s) : oom ? RL_ENOMEM : RL_OK;
}

int rl_show_as_of(rl_db *db, long long id, const char *when,
                  struct rl_ruling *out)
{
	*out = (struct rl_ruling){0};
	char t[RL_WHEN_SIZE];
	if (rl_when_parse(when, true, t))
		return rl_db_fail(db, RL_EUSAGE, "--as-of takes %s, not '%s'",
		                  rl_when_forms, when);
	int rc = rl_read_begin(db);
	if (rc)
		return rc;
	rc = show_in(db, id, out, true);
	if (!rc)
		rc = as_of_in(db, id, t, out);
	rc = rl_read_end(db, rc);
	if (rc)
		rl_ruling_clear(out);
	return rc;
}

static int find_rule_in(rl_db *db, const char *rule, const char *game,
                        long long **ids, char ***games, size_t *n)
{
	*ids = NULL;
	*games = NULL;
	*n = 0;
	/* one current ruling per game: the most recently stored (the highest
	 * id); withdrawn ones are reached by their ID */
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT max(r.id), g.name FROM rulings r"
		" LEFT JOIN games g ON g.id = r.game_id"
		" WHERE r.rule = ?1 AND r.withdrawn_at IS NULL"
		" AND (?2 IS NULL OR rl_fold(g.name) = rl_fold(?2)"
		"  OR (rl_fold(?2) = 'none' AND r.game_id IS NULL))"
		" GROUP BY ifnull(r.game_id, 0) ORDER BY g.name");
	if (!st)
		return RL_EINTERNAL;
	rl_bind_text(st, 1, rule);
	rl_bind_text(st, 2, game);
	size_t cap = 0, gcap = 0;
	bool oom = false;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!rl_grow(ids, &cap, *n + 1, sizeof **ids) ||
		    !rl_grow(games, &gcap, *n + 1, sizeof **games)) {
			oom = true;
			break;
		}
		(*ids)[*n] = sqlite3_column_int64(st, 0);
		(*games)[(*n)++] = rl_column_dup(st, 1, &oom);
	}
	sqlite3_finalize(st);
	if (oom || (rc != SQLITE_DONE && rc != SQLITE_ROW)) {
		free(*ids);
		rl_strings_free(*games, *n);
		*ids = NULL;
		*games = NULL;
		*n = 0;
		return oom ? RL_ENOMEM : rl_step_error(db, rc);
	}
	return *n ? RL_OK : RL_NOTFOUND;
}

int rl_find_rule(rl_db *db, const char *rule, const char *game,
                 long long **ids, char ***games, size_t *n)
{
	*ids = NULL;
	*games = NULL;
	*n = 0;
	int rc = rl_read_begin(db);
	return rc ? rc : rl_read_end(db, find_rule_in(db, rule, game, ids, games, n));
}
