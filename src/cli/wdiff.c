/* wdiff.c — a word-level diff of two texts: one longest common subsequence
 * over words gives runs of kept, removed and added words (word_diff_ops),
 * which export draws as HTML and render_word_diff for people: removed
 * words [-like this-], added words {+like this+} (git's word-diff style),
 * or in red and green on a terminal. Texts too long for the table (over
 * WDIFF_MAX_CELLS word pairs) are compared whole: old removed, new added. */
#include "cli.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

enum { WDIFF_MAX_CELLS = 4000000 };

#define SPACE " \n\t"

struct word {
	const char *s;
	size_t n;       /* the word and the white space after it */
	size_t wn;      /* the word alone */
};

/* The words of s: a new array (NULL when memory ran out), *n of them. */
static struct word *split(const char *s, size_t *n)
{
	struct word *v = NULL;
	size_t cap = 0;
	*n = 0;
	while (*s) {
		size_t wn = strcspn(s, SPACE);
		size_t n_all = wn + strspn(s + wn, SPACE);
		if (!rl_grow(&v, &cap, *n + 1, sizeof *v)) {
			free(v);
			return NULL;
		}
		v[(*n)++] = (struct word){ s, n_all, wn };
		s += n_all;
	}
	return v ? v : calloc(1, sizeof *v);
}

static bool eq(const struct word *a, const struct word *b)
{
	return a->wn == b->wn && memcmp(a->s, b->s, a->wn) == 0;
}

struct diff {
	struct wdiff_op *ops;
	size_t n, cap;
	bool whole;           /* compared whole, not word by word */
};

/* Appends s[0..n) to the run of its mark, or opens a run. */
static int add(struct diff *d, int mark, const char *s, size_t n)
{
	struct wdiff_op *last = d->n ? &d->ops[d->n - 1] : NULL;
	if (last && last->mark == mark && last->s + last->n == s) {
		last->n += n;
		return 0;
	}
	if (!rl_grow(&d->ops, &d->cap, d->n + 1, sizeof *d->ops))
		return -1;
	d->ops[d->n++] = (struct wdiff_op){ mark, s, n };
	return 0;
}

static int diff(const char *old, const char *new_text, struct diff *d)
{
	*d = (struct diff){ 0 };
	size_t na, nb;
	struct word *a = split(old, &na), *b = split(new_text, &nb);
	unsigned *lcs = NULL;
	int rc = a && b ? 0 : -1;
	if (!rc && (na + 1) * (nb + 1) <= WDIFF_MAX_CELLS)
		lcs = calloc((na + 1) * (nb + 1), sizeof *lcs);
	if (!rc && !lcs) {
		/* too long for the table, or no memory for it */
		d->whole = true;
		if (*old)
			rc = add(d, 1, old, strlen(old));
		if (!rc && *new_text)
			rc = add(d, 2, new_text, strlen(new_text));
	} else if (!rc) {
		/* L(i, j): the common words of a[i..] and b[j..] */
#define L(i, j) lcs[(i) * (nb + 1) + (j)]
		for (size_t i = na; i-- > 0; )
			for (size_t j = nb; j-- > 0; )
				L(i, j) = eq(&a[i], &b[j]) ? L(i + 1, j + 1) + 1
				        : L(i + 1, j) > L(i, j + 1) ? L(i + 1, j) : L(i, j + 1);
		size_t i = 0, j = 0;
		while (!rc && (i < na || j < nb)) {
			if (i < na && j < nb && eq(&a[i], &b[j])) {
				rc = add(d, 0, b[j].s, b[j].n);
				i++;
				j++;
			} else if (i < na && (j == nb || L(i + 1, j) >= L(i, j + 1))) {
				rc = add(d, 1, a[i].s, a[i].n);     /* removals first */
				i++;
			} else {
				rc = add(d, 2, b[j].s, b[j].n);
				j++;
			}
		}
#undef L
	}
	free(lcs);
	free(a);
	free(b);
	if (rc) {
		free(d->ops);
		*d = (struct diff){ 0 };
	}
	return rc;
}

int word_diff_ops(const char *old, const char *new_text, struct wdiff_op **ops,
                  size_t *nops)
{
	struct diff d;
	int rc = diff(old ? old : "", new_text ? new_text : "", &d);
	*ops = d.ops;
	*nops = d.n;
	return rc;
}

/* ---- for people ------------------------------------------------------------ */

/* s[0..n), each line break followed by indent unless another line break
 * follows it. */
static void spaced(struct out *o, const char *s, size_t n, const char *indent)
{
	const char *end = s + n;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = nl ? (size_t)(nl - s) + 1 : (size_t)(end - s);
		out_putn(o, s, len);
		s += len;
		if (nl && (s == end || *s != '\n'))
			out_puts(o, indent);
	}
}

/* s, its continuation lines indented (the caller indented the first). */
static void continued(struct out *o, const char *s, const char *indent)
{
	for (const char *p = s; *p; ) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
		out_putn(o, p, len);
		p += len;
		if (nl && *p && *p != '\n')
			out_puts(o, indent);
	}
	out_puts(o, "\n");
}

static void mark(struct out *o, int m, bool open)
{
	static const char *const opens[] = { "", "[-", "{+" };
	static const char *const closes[] = { "", "-]", "+}" };
	if (!m)
		return;
	if (!o->color)
		out_puts(o, open ? opens[m] : closes[m]);
	else if (open)
		out_style(o, m == 1 ? STYLE_REMOVED : STYLE_ADDED);
	else
		out_style_end(o);
}

void render_word_diff(struct out *o, const char *old, const char *new_text,
                      const char *indent)
{
	old = old ? old : "";
	new_text = new_text ? new_text : "";
	struct diff d;
	if (diff(old, new_text, &d) != 0) {
		out_fail(o, RL_ENOMEM, "out of memory");
		return;
	}
	if (d.whole) {
		/* old text, an arrow, new text */
		continued(o, old, indent);
		out_printf(o, "%s\xE2\x86\x92\n%s", indent, indent);
		continued(o, new_text, indent);
		free(d.ops);
		return;
	}
	/* The white space after a run is written before the next run, after
	 * its mark is closed: [-are cumulative-] {+always stack+}; after the
	 * last run, none. */
	const char *owed = NULL;
	size_t nowed = 0;
	int open = 0;
	for (size_t i = 0; i < d.n; i++) {
		const struct wdiff_op *op = &d.ops[i];
		size_t body = op->n;
		while (body > 0 && strchr(SPACE, op->s[body - 1]))
			body--;
		if (op->mark != open)
			mark(o, open, false);
		spaced(o, owed, nowed, indent);
		if (op->mark != open)
			mark(o, op->mark, true);
		open = op->mark;
		spaced(o, op->s, body, indent);
		owed = op->s + body;
		nowed = op->n - body;
	}
	mark(o, open, false);
	out_puts(o, "\n");
	free(d.ops);
}
