/* qsql.c — the parts a compiled search is assembled from: its bound
 * parameters (every value from the user is one), its conditions and
 * subselects, and lists joined as balanced trees so that SQLite never
 * sees an expression deeper than it accepts. (filter.c and qcompile.c
 * fill them.) */
#include "query.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* ---- parameters ------------------------------------------------------------- */

int rl_param_own(struct rl_params *p, char *value, int *index)
{
	if (p->n == p->cap) {
		int cap = p->cap ? p->cap * 2 : 16;
		if (cap > 32000) {
			free(value);
			return RL_EUSAGE;   /* SQLite's limit on parameters */
		}
		const char **v = realloc(p->v, (size_t)cap * sizeof *v);
		if (!v) {
			free(value);
			return RL_ENOMEM;
		}
		p->v = v;
		char **o = realloc(p->owned, (size_t)cap * sizeof *o);
		if (!o) {
			free(value);
			return RL_ENOMEM;
		}
		p->owned = o;
		p->cap = cap;
	}
	p->owned[p->n] = value;
	p->v[p->n] = value;
	*index = ++p->n;
	return RL_OK;
}

int rl_param(struct rl_params *p, const char *value, bool fold, int *index)
{
	char *f = NULL;
	if (fold && value && !(f = rl_fold(value)))
		return RL_ENOMEM;
	if (f)
		return rl_param_own(p, f, index);
	char *copy = value ? rl_strdup(value) : NULL;
	if (value && !copy)
		return RL_ENOMEM;
	return rl_param_own(p, copy, index);
}

void rl_params_free(struct rl_params *p)
{
	for (int i = 0; i < p->n; i++)
		free(p->owned[i]);
	free(p->owned);
	free(p->v);
	*p = (struct rl_params){0};
}

/* ---- the list parts of the result ------------------------------------------ */

void rl_cond_free(struct rl_cond *cond)
{
	free(cond->rows);
	free(cond->count);
	free(cond->ids);
	cond->rows = cond->count = cond->ids = NULL;
}

int rl_add_cond(struct rl_compiled *c, struct rl_cond cond)
{
	if (!cond.rows || !rl_grow(&c->conds, &c->capconds, c->nconds + 1,
	                           sizeof *c->conds)) {
		rl_cond_free(&cond);
		return RL_ENOMEM;
	}
	c->conds[c->nconds++] = cond;
	return RL_OK;
}

int rl_add_sub(struct rl_compiled *c, char *fts, int *n)
{
	int param;
	if (!fts)
		return RL_ENOMEM;
	if (!rl_grow(&c->sub, &c->capsub, c->nsub + 1, sizeof *c->sub)) {
		free(fts);
		return RL_ENOMEM;
	}
	int rc = rl_param(&c->p, fts, false, &param);
	if (rc) {
		free(fts);
		return rc;
	}
	c->sub[c->nsub++] = (struct rl_sub){ fts, param };
	*n = (int)c->nsub;
	return RL_OK;
}

void rl_compiled_free(struct rl_compiled *c)
{
	if (!c)
		return;
	free(c->read_as);
	free(c->lang_own);
	free(c->match);
	rl_phrase_games_free(&c->mgames);
	free(c->rank);
	for (size_t i = 0; i < c->nsub; i++)
		free(c->sub[i].fts);
	free(c->sub);
	for (size_t i = 0; i < c->nconds; i++)
		rl_cond_free(&c->conds[i]);
	free(c->conds);
	free(c->first);
	free(c->unknown);
	rl_params_free(&c->p);
	*c = (struct rl_compiled){0};
}

/* Joins items[0..n) with op: a short list as it is, a long one as a
 * balanced tree of parentheses, since SQLite refuses an expression deeper
 * than 1,000 (a chain of a thousand ANDs). Each item must bind at least as
 * tightly as op. */
void rl_join_balanced(struct rl_buf *b, char *const *items, size_t n,
                      const char *op)
{
	if (n <= 16) {
		for (size_t i = 0; i < n; i++) {
			if (i)
				rl_buf_addf(b, " %s ", op);
			rl_buf_adds(b, items[i]);
		}
		return;
	}
	size_t h = n / 2;
	rl_buf_addc(b, '(');
	rl_join_balanced(b, items, h, op);
	rl_buf_addf(b, ") %s (", op);
	rl_join_balanced(b, items + h, n - h, op);
	rl_buf_addc(b, ')');
}
