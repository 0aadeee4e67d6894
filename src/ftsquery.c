/* ftsquery.c — turning what a user typed into a safe FTS5 query.
 *
 * Raw user input in MATCH fails in many ways (FACTS.md): "first-strike" is
 * read as a column filter, "702.19a" and "don't" are syntax errors, a bare
 * "NEAR(" opens a group. So every word becomes an FTS5 string, with inner
 * double quotes doubled; the strings are ANDed. Two conveniences survive the
 * quoting: text between balanced double quotes is a phrase, and a word that
 * ends in '*' is a prefix query. Words with nothing to index (only
 * punctuation) are dropped. */
#include "rulings.h"
#include "utf8.h"
#include "util.h"

#include <string.h>

/* Would the unicode61 tokenizer find a token in s[0..n)? */
static bool searchable(const char *s, size_t n)
{
	for (size_t i = 0; i < n; ) {
		uint32_t cp;
		size_t k = rl_utf8_decode(s + i, &cp);
		i += k;
		if (cp < 0x80) {
			if ((cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') ||
			    (cp >= 'A' && cp <= 'Z'))
				return true;
			continue;
		}
		if (cp <= 0xBF || cp == 0xD7 || cp == 0xF7)
			continue;                 /* Latin-1 punctuation and signs */
		if (cp >= 0x2000 && cp <= 0x2BFF)
			continue;                 /* punctuation, symbols, arrows */
		if (cp >= 0x3000 && cp <= 0x303F)
			continue;                 /* CJK punctuation */
		return true;
	}
	return false;
}

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
		if (searchable(start, (size_t)(end - start)))
			add_term(&q, start, (size_t)(end - start), prefix);
	}
	rl_buf_free(&all);
	if (q.oom) {
		rl_buf_free(&q);
		return RL_ENOMEM;
	}
	*out = q.s;   /* NULL when nothing was searchable */
	return RL_OK;
}
