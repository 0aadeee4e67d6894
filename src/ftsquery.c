/* ftsquery.c — turning what a user typed into a safe FTS5 query.
 *
 * Raw user input in MATCH fails in many ways (FACTS.md): "first-strike" is
 * read as a column filter, "702.19a" and "don't" are syntax errors, a bare
 * "NEAR(" opens a group. So every word becomes an FTS5 string, with inner
 * double quotes doubled; the strings are ANDed. Two conveniences survive the
 * quoting: text between balanced double quotes is a phrase, and a word that
 * ends in '*' is a prefix query.
 *
 * Nothing is dropped: whether a word holds anything to index is the
 * tokenizer's business, and FTS5 already does the right thing with a
 * string that yields no token — alone it matches nothing, next to other
 * terms it is passed over. Only empty terms ("", a lone "*") are left out. */
#include "rulings.h"
#include "util.h"

#include <string.h>

static void add_term(struct rl_buf *b, const char *s, size_t n, bool prefix)
{
	if (b->len)
		rl_buf_addc(b, ' ');
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

int rl_fts_query(const char *const *words, size_t n, char **out)
{
	*out = NULL;
	struct rl_buf all = {0};
	for (size_t i = 0; i < n; i++) {
		if (i)
			rl_buf_addc(&all, ' ');
		rl_buf_adds(&all, words[i]);
	}
	if (all.oom)
		return RL_ENOMEM;
	const char *s = all.s ? all.s : "";
	size_t quotes = 0;
	for (const char *p = s; *p; p++)
		quotes += *p == '"';
	bool phrases = quotes % 2 == 0;

	struct rl_buf q = {0};
	const char *p = s;
	while (*p) {
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
			add_term(&q, start, (size_t)(end - start), prefix);
	}
	rl_buf_free(&all);
	if (q.oom) {
		rl_buf_free(&q);
		return RL_ENOMEM;
	}
	*out = q.s;   /* NULL when there was no term at all */
	return RL_OK;
}
