/* suggest.c — "no tag 'Repeet'; did you mean 'Repeat'?": the names a
 * database knows that are nearest to one it does not, by edit distance
 * (Damerau-Levenshtein on case-folded code points), as git does for
 * commands. */
#include "query.h"
#include "utf8.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* The edit distance (insertions, deletions, substitutions, transpositions)
 * between a[0..n) and b[0..m), in code points; stops at max + 1. */
static size_t distance(const uint32_t *a, size_t n, const uint32_t *b, size_t m,
                       size_t max)
{
	if ((n > m ? n - m : m - n) > max)
		return max + 1;
	size_t *d = malloc((n + 1) * (m + 1) * sizeof *d);
	if (!d)
		return max + 1;
#define D(i, j) d[(i) * (m + 1) + (j)]
	for (size_t i = 0; i <= n; i++)
		D(i, 0) = i;
	for (size_t j = 0; j <= m; j++)
		D(0, j) = j;
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= m; j++) {
			size_t v = D(i - 1, j - 1) + (a[i - 1] != b[j - 1]);
			if (D(i - 1, j) + 1 < v)
				v = D(i - 1, j) + 1;
			if (D(i, j - 1) + 1 < v)
				v = D(i, j - 1) + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    D(i - 2, j - 2) + 1 < v)
				v = D(i - 2, j - 2) + 1;
			D(i, j) = v;
		}
	size_t r = D(n, m);
#undef D
	free(d);
	return r;
}

/* The code points of s folded; NULL when memory ran out. */
static uint32_t *code_points(const char *s, size_t *n)
{
	char *f = rl_fold(s);
	if (!f)
		return NULL;
	size_t len = strlen(f);
	uint32_t *v = malloc((len + 1) * sizeof *v);
	*n = 0;
	for (const char *p = f; v && *p; )
		p += rl_utf8_decode(p, &v[(*n)++]);
	free(f);
	return v;
}

int rl_unknown_name(struct rl_filter_ctx *f, const char *what, const char *name,
                   const char *sql, const char *const *fixed)
{
	struct rl_buf m = {0};
	/* "no tag 'x'", or for a field value "no is:x" */
	bool field = what[strlen(what) - 1] == ':';
	rl_buf_addf(&m, field ? "no %s%s" : "no %s '%s'", what, name);
	size_t nn;
	uint32_t *want = code_points(name, &nn);
	sqlite3_stmt *st = sql ? rl_db_prepare(f->db, sql) : NULL;
	if (!want || (sql && !st)) {
		free(want);
		sqlite3_finalize(st);
		rl_buf_free(&m);
		return want ? RL_EINTERNAL : RL_ENOMEM;
	}
	size_t max = nn <= 3 ? 1 : nn <= 8 ? 2 : 3, best = max + 1, total = 0;
	char *near[3] = {0}, *few[8] = {0};
	size_t nnear = 0;
	for (size_t i = 0;; i++) {
		const char *cand;
		if (st)
			cand = sqlite3_step(st) == SQLITE_ROW
			       ? (const char *)sqlite3_column_text(st, 0) : NULL;
		else
			cand = fixed[i];
		if (!cand)
			break;
		if (total < 8)
			few[total] = rl_strdup(cand);
		total++;
		size_t cn;
		uint32_t *cp = code_points(cand, &cn);
		size_t d = cp ? distance(want, nn, cp, cn, max) : max + 1;
		free(cp);
		if (d > best || d > max)
			continue;
		if (d < best) {
			for (size_t k = 0; k < nnear; k++)
				free(near[k]);
			nnear = 0;
			best = d;
		}
		if (nnear < 3)
			near[nnear++] = rl_strdup(cand);
	}
	sqlite3_finalize(st);
	free(want);
	if (nnear) {
		rl_buf_adds(&m, "; did you mean ");
		for (size_t k = 0; k < nnear; k++)
			rl_buf_addf(&m, "%s'%s%s'", k == 0 ? "" : k + 1 == nnear ? " or "
			            : ", ", field ? what : "", near[k] ? near[k] : "");
		rl_buf_addc(&m, '?');
	} else if (total && total <= 8) {
		rl_buf_adds(&m, " (there are ");
		for (size_t k = 0; k < total; k++)
			rl_buf_addf(&m, "%s'%s%s'", k ? ", " : "", field ? what : "",
			            few[k] ? few[k] : "");
		rl_buf_addc(&m, ')');
	}
	for (size_t k = 0; k < nnear; k++)
		free(near[k]);
	for (size_t k = 0; k < 8; k++)
		free(few[k]);
	if (f->c->unknown) {          /* the first one is said */
		rl_buf_free(&m);
		return RL_NOTFOUND;
	}
	if (!(f->c->unknown = rl_buf_take(&m)))
		return RL_ENOMEM;
	return RL_NOTFOUND;
}
