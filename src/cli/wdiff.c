/* wdiff.c — a word-level diff of two texts, for people: removed words
 * [-like this-], added words {+like this+} (git's word-diff style), or in
 * red and green on a terminal. The comparison is the library's
 * (rl_word_diff()); texts too long for it are shown whole, old then new.
 * Continuation lines are indented like the first. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static bool is_space(char c)
{
	return c == ' ' || c == '\n' || c == '\t';
}

/* Writes runs of words, each run of removed or added words in one pair of
 * marks: [-are cumulative-]{+always stack+}; the white space after a run
 * goes outside its marks. */
struct writer {
	FILE *f;
	const char *indent;       /* after each line break */
	bool color;
	int mark;                 /* of the open run: 0 none, 1 removed, 2 added */
	const char *space;        /* white space owed after the last word */
	size_t nspace;
};

/* White space, with the indent after each line break that is not
 * followed by another. */
static void spaces(struct writer *w, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fputc(s[i], w->f);
		if (s[i] == '\n' && (i + 1 == n || s[i + 1] != '\n'))
			fputs(w->indent, w->f);
	}
}

static void put(struct writer *w, const struct rl_wdiff_op *op)
{
	static const char *const open[] = { "", "[-", "{+" };
	static const char *const close[] = { "", "-]", "+}" };
	static const char *const colors[] = { "", "\033[31m", "\033[32m" };
	if (op->mark != w->mark && w->mark)
		fputs(w->color ? "\033[0m" : close[w->mark], w->f);
	spaces(w, w->space, w->nspace);
	if (op->mark != w->mark && op->mark)
		fputs(w->color ? colors[op->mark] : open[op->mark], w->f);
	w->mark = op->mark;
	/* the words of the run and the space between them; the space after
	 * the last is owed */
	size_t end = op->n;
	while (end && is_space(op->s[end - 1]))
		end--;
	for (size_t i = 0; i < end; ) {
		size_t k = i;
		while (k < end && !is_space(op->s[k]))
			k++;
		fwrite(op->s + i, 1, k - i, w->f);
		size_t sp = k;
		while (sp < end && is_space(op->s[sp]))
			sp++;
		spaces(w, op->s + k, sp - k);
		i = sp;
	}
	w->space = op->s + end;
	w->nspace = op->n - end;
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

void print_word_diff(FILE *f, const char *old, const char *new_text,
                     const char *indent, bool color)
{
	struct rl_wdiff_op *ops;
	size_t nops;
	bool whole;
	if (rl_word_diff(old, new_text, &ops, &nops, &whole) || whole) {
		/* the fallback: old text, an arrow, new text */
		continued(f, old ? old : "", indent);
		fprintf(f, "%s\xE2\x86\x92\n%s", indent, indent);
		continued(f, new_text ? new_text : "", indent);
		free(ops);
		return;
	}
	struct writer w = { f, indent, color, 0, "", 0 };
	for (size_t k = 0; k < nops; k++)
		put(&w, &ops[k]);
	if (w.mark)
		fputs(w.color ? "\033[0m" : (w.mark == 1 ? "-]" : "+}"), w.f);
	fputc('\n', f);
	free(ops);
}
