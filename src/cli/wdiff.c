/* wdiff.c — a word-level diff of two texts, for people: removed words
 * [-like this-], added words {+like this+} (git's word-diff style), or in
 * red and green on a terminal. The comparison is the library's
 * (rl_word_diff(), which the HTML export also draws); texts too long for
 * it are shown whole: old text, an arrow, new text. Continuation lines are
 * indented like the first. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#define SPACE " \n\t"

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
	struct rl_wdiff_op *ops;
	size_t nops;
	bool whole;
	int rc = rl_word_diff(old, new_text, &ops, &nops, &whole);
	if (rc != RL_OK) {
		out_fail(o, rc, "out of memory");
		return;
	}
	if (whole) {
		/* old text, an arrow, new text */
		continued(o, old, indent);
		out_printf(o, "%s\xE2\x86\x92\n%s", indent, indent);
		continued(o, new_text, indent);
		free(ops);
		return;
	}
	/* The white space after a run is written before the next run, after
	 * its mark is closed: [-are cumulative-] {+always stack+}; after the
	 * last run, none. */
	const char *owed = NULL;
	size_t nowed = 0;
	int open = 0;
	for (size_t i = 0; i < nops; i++) {
		const struct rl_wdiff_op *op = &ops[i];
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
	free(ops);
}
