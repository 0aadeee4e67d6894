/* wdiff.c — a word-level diff of two texts, for people: removed words
 * [-like this-], added words {+like this+} (git's word-diff style), or in
 * red and green on a terminal. A longest common subsequence over words;
 * texts too long for that (over WDIFF_MAX_CELLS word pairs) are shown
 * whole, old then new. Continuation lines are indented like the first. */
#include "cli.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

enum { WDIFF_MAX_CELLS = 4000000 };

struct word {
	const char *s;
	size_t n;       /* the word and the white space after it */
	size_t wn;      /* the word alone */
};

static size_t split(const char *s, struct word **out)
{
	size_t n = 0, cap = 0;
	*out = NULL;
	while (*s) {
		const char *w = s;
		while (*s && *s != ' ' && *s != '\n' && *s != '\t')
			s++;
		size_t wn = (size_t)(s - w);
		while (*s == ' ' || *s == '\n' || *s == '\t')
			s++;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			struct word *v = realloc(*out, cap * sizeof *v);
			if (!v) {
				free(*out);
				*out = NULL;
				return 0;
			}
			*out = v;
		}
		(*out)[n++] = (struct word){ w, (size_t)(s - w), wn };
	}
	return n;
}

static bool eq(const struct word *a, const struct word *b)
{
	return a->wn == b->wn && memcmp(a->s, b->s, a->wn) == 0;
}

/* Writes words, grouping a run of removed or added words in one pair of
 * marks: [-are cumulative-]{+always stack+}. */
struct writer {
	FILE *f;
	const char *indent;       /* after each line break */
	bool color;
	int mark;                 /* of the open run: 0 none, 1 removed, 2 added */
	const struct word *space; /* white space owed after the last word */
};

static void flush_space(struct writer *w)
{
	if (w->space)
		for (size_t i = w->space->wn; i < w->space->n; i++) {
			fputc(w->space->s[i], w->f);
			if (w->space->s[i] == '\n' &&
			    (i + 1 == w->space->n || w->space->s[i + 1] != '\n'))
				fputs(w->indent, w->f);
		}
	w->space = NULL;
}

static void put(struct writer *w, const struct word *word, int mark)
{
	static const char *const open[] = { "", "[-", "{+" };
	static const char *const close[] = { "", "-]", "+}" };
	static const char *const colors[] = { "", "\033[31m", "\033[32m" };
	if (mark != w->mark) {
		if (w->mark)
			fputs(w->color ? "\033[0m" : close[w->mark], w->f);
		flush_space(w);
		if (mark)
			fputs(w->color ? colors[mark] : open[mark], w->f);
		w->mark = mark;
	} else {
		flush_space(w);
	}
	fwrite(word->s, 1, word->wn, w->f);
	w->space = word;
}

static void done(struct writer *w)
{
	if (w->mark)
		fputs(w->color ? "\033[0m" : (w->mark == 1 ? "-]" : "+}"), w->f);
	w->mark = 0;
}

/* s, its continuation lines indented (the caller indented the first). */
static void continued(FILE *f, const char *s, const char *indent)
{
	for (; *s; s++) {
		fputc(*s, f);
		if (*s == '\n' && s[1] && s[1] != '\n')
			fputs(indent, f);
	}
	fputc('\n', f);
}

/* The fallback: old text, an arrow, new text. */
static void whole(FILE *f, const char *old, const char *new_text,
                  const char *indent)
{
	continued(f, old ? old : "", indent);
	fprintf(f, "%s\xE2\x86\x92\n%s", indent, indent);
	continued(f, new_text ? new_text : "", indent);
}

void print_word_diff(FILE *f, const char *old, const char *new_text,
                     const char *indent, bool color)
{
	struct word *a, *b;
	size_t na = split(old ? old : "", &a), nb = split(new_text ? new_text : "", &b);
	if ((na && !a) || (nb && !b) || (na + 1) * (nb + 1) > WDIFF_MAX_CELLS) {
		whole(f, old, new_text, indent);
		free(a);
		free(b);
		return;
	}
	/* lcs[i][j]: common words of a[i..] and b[j..] */
	unsigned *lcs = calloc((na + 1) * (nb + 1), sizeof *lcs);
	if (!lcs) {
		whole(f, old, new_text, indent);
		free(a);
		free(b);
		return;
	}
#define L(i, j) lcs[(i) * (nb + 1) + (j)]
	for (size_t i = na; i-- > 0; )
		for (size_t j = nb; j-- > 0; )
			L(i, j) = eq(&a[i], &b[j]) ? L(i + 1, j + 1) + 1
			        : L(i + 1, j) > L(i, j + 1) ? L(i + 1, j) : L(i, j + 1);
	size_t i = 0, j = 0;
	struct writer w = { f, indent, color, 0, NULL };
	while (i < na || j < nb) {
		if (i < na && j < nb && eq(&a[i], &b[j])) {
			put(&w, &b[j], 0);
			i++;
			j++;
		} else if (i < na && (j == nb || L(i + 1, j) >= L(i, j + 1))) {
			put(&w, &a[i++], 1);      /* removals before additions */
		} else {
			put(&w, &b[j++], 2);
		}
	}
	done(&w);
#undef L
	fputc('\n', f);
	free(lcs);
	free(a);
	free(b);
}

/* The same comparison as runs of words for other renderers (export to
 * HTML): each op is a span of old (removed) or new text (kept, added),
 * white space after its words included. Too long texts give the old text
 * removed and the new added, whole. */
int word_diff_ops(const char *old, const char *new_text, struct wdiff_op **ops,
                  size_t *nops)
{
	*ops = NULL;
	*nops = 0;
	old = old ? old : "";
	new_text = new_text ? new_text : "";
	struct word *a, *b;
	size_t na = split(old, &a), nb = split(new_text, &b);
	size_t cap = 0;
	int rc = 0;
	unsigned *lcs = NULL;
	if ((na && !a) || (nb && !b))
		rc = -1;
	else if ((na + 1) * (nb + 1) <= WDIFF_MAX_CELLS)
		lcs = calloc((na + 1) * (nb + 1), sizeof *lcs);
	/* appends a word to the run of its mark, or opens a run */
#define ADD(w, m) do { \
		struct wdiff_op *last_ = *nops ? &(*ops)[*nops - 1] : NULL; \
		if (last_ && last_->mark == (m) && last_->s + last_->n == (w)->s) { \
			last_->n += (w)->n; \
		} else if (!rl_grow(ops, &cap, *nops + 1, sizeof **ops)) { \
			rc = -1; \
		} else { \
			(*ops)[(*nops)++] = (struct wdiff_op){ (m), (w)->s, (w)->n }; \
		} \
	} while (0)
	if (!rc && !lcs) {
		/* whole: too long for the table, or no memory for it */
		struct word wo = { old, strlen(old), 0 }, wn = { new_text, strlen(new_text), 0 };
		if (wo.n)
			ADD(&wo, 1);
		if (!rc && wn.n)
			ADD(&wn, 2);
	} else if (!rc) {
#define L(i, j) lcs[(i) * (nb + 1) + (j)]
		for (size_t i = na; i-- > 0; )
			for (size_t j = nb; j-- > 0; )
				L(i, j) = eq(&a[i], &b[j]) ? L(i + 1, j + 1) + 1
				        : L(i + 1, j) > L(i, j + 1) ? L(i + 1, j) : L(i, j + 1);
		size_t i = 0, j = 0;
		while (!rc && (i < na || j < nb)) {
			if (i < na && j < nb && eq(&a[i], &b[j])) {
				ADD(&b[j], 0);
				i++;
				j++;
			} else if (i < na && (j == nb || L(i + 1, j) >= L(i, j + 1))) {
				ADD(&a[i], 1);
				i++;
			} else {
				ADD(&b[j], 2);
				j++;
			}
		}
#undef L
	}
#undef ADD
	free(lcs);
	free(a);
	free(b);
	if (rc) {
		free(*ops);
		*ops = NULL;
		*nops = 0;
	}
	return rc;
}
