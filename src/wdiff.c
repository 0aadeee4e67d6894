/* wdiff.c — the word-level diff of two texts (rl_word_diff()): a longest
 * common subsequence over words, as runs of kept, removed and added words
 * for the renderers (the command line's `changed`, the HTML export). Texts
 * too long for the table (over WDIFF_MAX_CELLS word pairs) give the old
 * text removed and the new added, whole. */
#include "rulings.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

enum { WDIFF_MAX_CELLS = 4000000 };

struct word {
	const char *s;
	size_t n;       /* the word and the white space after it */
	size_t wn;      /* the word alone */
};

static bool is_space(char c)
{
	return c == ' ' || c == '\n' || c == '\t';
}

/* The words of s; false when memory ran out. */
static bool split(const char *s, struct word **out, size_t *n)
{
	size_t cap = 0;
	*out = NULL;
	*n = 0;
	while (*s) {
		const char *w = s;
		while (*s && !is_space(*s))
			s++;
		size_t wn = (size_t)(s - w);
		while (is_space(*s))
			s++;
		if (!rl_grow(out, &cap, *n + 1, sizeof **out)) {
			free(*out);
			*out = NULL;
			return false;
		}
		(*out)[(*n)++] = (struct word){ w, (size_t)(s - w), wn };
	}
	return true;
}

static bool eq(const struct word *a, const struct word *b)
{
	return a->wn == b->wn && memcmp(a->s, b->s, a->wn) == 0;
}

struct ops {
	struct rl_wdiff_op *v;
	size_t n, cap;
	bool oom;
};

/* Appends a span to the run of its mark, or opens a run. */
static void add(struct ops *o, int mark, const char *s, size_t n)
{
	struct rl_wdiff_op *last = o->n ? &o->v[o->n - 1] : NULL;
	if (last && last->mark == mark && last->s + last->n == s)
		last->n += n;
	else if (!rl_grow(&o->v, &o->cap, o->n + 1, sizeof *o->v))
		o->oom = true;
	else
		o->v[o->n++] = (struct rl_wdiff_op){ mark, s, n };
}

int rl_word_diff(const char *old, const char *new_text,
                 struct rl_wdiff_op **ops, size_t *nops, bool *whole)
{
	*ops = NULL;
	*nops = 0;
	*whole = false;
	old = old ? old : "";
	new_text = new_text ? new_text : "";
	struct word *a = NULL, *b = NULL;
	size_t na, nb;
	struct ops o = {0};
	unsigned *lcs = NULL;
	if (!split(old, &a, &na) || !split(new_text, &b, &nb))
		o.oom = true;
	else if ((na + 1) * (nb + 1) <= WDIFF_MAX_CELLS)
		lcs = calloc((na + 1) * (nb + 1), sizeof *lcs);
	if (!o.oom && !lcs) {
		/* whole: too long for the table, or no memory for it */
		*whole = true;
		if (*old)
			add(&o, 1, old, strlen(old));
		if (*new_text)
			add(&o, 2, new_text, strlen(new_text));
	} else if (!o.oom) {
		/* lcs[i][j]: common words of a[i..] and b[j..] */
#define L(i, j) lcs[(i) * (nb + 1) + (j)]
		for (size_t i = na; i-- > 0; )
			for (size_t j = nb; j-- > 0; )
				L(i, j) = eq(&a[i], &b[j]) ? L(i + 1, j + 1) + 1
				        : L(i + 1, j) > L(i, j + 1) ? L(i + 1, j) : L(i, j + 1);
		size_t i = 0, j = 0;
		while (!o.oom && (i < na || j < nb)) {
			if (i < na && j < nb && eq(&a[i], &b[j])) {
				add(&o, 0, b[j].s, b[j].n);
				i++;
				j++;
			} else if (i < na && (j == nb || L(i + 1, j) >= L(i, j + 1))) {
				add(&o, 1, a[i].s, a[i].n);      /* removals first */
				i++;
			} else {
				add(&o, 2, b[j].s, b[j].n);
				j++;
			}
		}
#undef L
	}
	free(lcs);
	free(a);
	free(b);
	if (o.oom) {
		free(o.v);
		*whole = false;
		return RL_ENOMEM;
	}
	*ops = o.v;
	*nops = o.n;
	return RL_OK;
}
