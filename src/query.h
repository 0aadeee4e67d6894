/* query.h — what the reading side of the library shares: ruling.c (the
 * columns and details of a ruling), filter.c (a query's filters as SQL),
 * search.c, show.c and catalog.c. */
#ifndef RL_QUERY_H
#define RL_QUERY_H

#include "db.h"

/* The columns every ruling query selects first, for rl_fill_base(): of
 * rulings r and games g, or with the title and text as of a time (temp.asof
 * a). */
extern const char rl_ruling_cols[];
extern const char rl_asof_cols[];

/* Fills r from the columns of rl_ruling_cols (from column 0); sets *oom
 * when a copy fails. */
void rl_fill_base(sqlite3_stmt *st, struct rl_ruling *r, bool *oom);
/* A failed sqlite3_step() of a query, recorded: the status. */
int rl_step_error(rl_db *db, int rc);

/* The statements that fill in each result's details (tags, sources,
 * errata), prepared once for all the results of a query: preparing them
 * for each of 20 results cost more than running them. */
struct rl_details {
	sqlite3_stmt *tags, *sources, *errata;
};
int rl_details_prepare(rl_db *db, struct rl_details *ds);
void rl_details_finalize(struct rl_details *ds);
int rl_fill_details(rl_db *db, struct rl_details *ds, struct rl_ruling *r);

/* Parameters collected while a WHERE clause is built: v[i] binds ?i+1;
 * owned[i] (a folded copy, or NULL) is freed with them. */
struct rl_params {
	const char **v;
	char **owned;
	int n, cap;
};
/* Adds value (folded with rl_fold() when fold) as the next parameter;
 * *index is its number. */
int rl_param(struct rl_params *p, const char *value, bool fold, int *index);
void rl_params_free(struct rl_params *p);

/* The filters of q (tags, category, kind, lang, game, changed, withdrawn)
 * as " AND ..." conditions over rulings r and games g. by_id: the query
 * lists rulings by id up to a limit and counts no total. */
int rl_add_filters(rl_db *db, struct rl_buf *sql, struct rl_params *p,
                   const struct rl_query *q, bool by_id);

#endif
