/* ftsquery.c — turning what a user typed into a safe FTS5 query.
 *
 * Raw user input in MATCH fails in many ways (FACTS.md): "first-strike" is
 * read as a column filter, "702.19a" and "don't" are syntax errors, a bare
 * "NEAR(" opens a group. So every word becomes an FTS5 string, with inner
 * double quotes doubled; the strings are ANDed. Two conveniences survive the
 * quoting: text between balanced double quotes is a phrase, and a word that
 * ends in '*' is a prefix query.
 *
 * Without an expansion callback nothing is dropped: whether a word holds
 * anything to index is the tokenizer's business, and FTS5 already does the
 * right thing with a string that yields no token — alone it matches
 * nothing, next to other terms (implicit AND) it is passed over. Only empty
 * terms ("", a lone "*") are left out. With the callback (search), terms
 * are joined by an explicit AND, and the callback, which can ask the
 * tokenizer, drops the terms that hold no token. */
#include "rulings.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static void quote(struct rl_buf *b, const char *s, size_t n, bool prefix)
{
	rl_buf_addc(b, '"');
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			rl_buf_addc(b, '"');
		rl_buf_addc(b, s[i]);
	}
	rl_buf_addc(b, '"');
	if (prefix)
		rl_buf_adds(b, " *");
}

static int add_term(struct rl_buf *b, const char *s, size_t n, bool prefix,
                    rl_expand_fn expand, void *ctx)
{
	char **alts = NULL;
	bool drop = false;
	if (expand) {
		int rc = expand(ctx, s, n, prefix ? NULL : &alts, &drop);
		if (rc)
			return rc;
		if (drop)
			return RL_OK;
	}
	/* With expansion the terms are joined by an explicit AND: FTS5 does
	 * not take a parenthesized group next to a phrase. */
	if (b->len)
		rl_buf_adds(b, expand ? " AND " : " ");
	if (!alts || !alts[0]) {
		free(alts);
		quote(b, s, n, prefix);
		return RL_OK;
	}
	rl_buf_addc(b, '(');
	quote(b, s, n, false);
	for (char **a = alts; *a; a++) {
		rl_buf_adds(b, " OR ");
		quote(b, *a, strlen(*a), false);
		free(*a);
	}
	rl_buf_addc(b, ')');
	free(alts);
	return RL_OK;
}

int rl_fts_query(const char *const *words, size_t n, char **out)
{
	return rl_fts_query_expand(words, n, NULL, NULL, out);
}

int rl_fts_query_expand(const char *const *words, size_t n, rl_expand_fn expand,
                        void *ctx, char **out)
{
	*out = NULL;
	struct rl_buf all = {0};
	for (size_t i = 0; i < n; i++) {
		if (i)
			rl_buf_addc(&all, ' ');
		rl_buf_adds(&all, words[i]);
	}
	/* typeset apostrophes and quotes are the plain ones: “a b” is a
	 * phrase (rl_fold_quotes()) */
	char *plain = all.oom ? NULL : rl_fold_quotes(all.s ? all.s : "");
	rl_buf_free(&all);
	if (!plain)
		return RL_ENOMEM;
	const char *s = plain;
	size_t quotes = 0;
	for (const char *p = s; *p; p++)
		quotes += *p == '"';
	bool phrases = quotes % 2 == 0;

	struct rl_buf q = {0};
	const char *p = s;
	int rc = RL_OK;
	while (*p && !rc) {
		if (*p == ' ' || *p == '\t' || *p == '\n') {
			p++;
			continue;
		}
		const char *start = p, *end;
		if (*p == '"' && phrases) {
			start = ++p;
			while (*p && *p != '"')
				p++;
			end = p;
			if (*p)
				p++;
		} else {
			while (*p && *p != ' ' && *p != '\t' && *p != '\n' &&
			       !(*p == '"' && phrases))
				p++;
			end = p;
		}
		bool prefix = false;
		if (end > start && end[-1] == '*') {
			prefix = true;
			while (end > start && end[-1] == '*')
				end--;
		}
		/* Inside a term a stray quote is text: add_term() doubles it. */
		if (end > start)
			rc = add_term(&q, start, (size_t)(end - start), prefix, expand,
			              ctx);
	}
	free(plain);
	if (!rc && q.oom)
		rc = RL_ENOMEM;
	if (rc) {
		rl_buf_free(&q);
		return rc;
	}
	*out = q.s;   /* NULL when there was no term at all */
	return RL_OK;
}
