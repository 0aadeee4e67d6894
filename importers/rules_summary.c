/* rules_summary.c — a rules summary: a title line that names the game (and
 * the expansion), then paragraphs, each one ruling, that cite rulebook
 * pages.
 *
 *   Spirit Island: Terre Fracturée       game "Spirit Island", section
 *                                        "Terre Fracturée"
 *   Isoler empêche les Envahisseurs …    a ruling; "(p. 10)", "(p. 7–8)",
 *   … (p. 10)                            "(p. 10, 24)" are page references
 *
 * Page references are found by the shared table in xref.c. */
#include "importer.h"
#include "doc.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

enum { TITLE_MAX = 100 };

/* Does the paragraph cite a rulebook page, "(p. …)" or "[p. …]"? */
static bool cites_page(const char *s, size_t n)
{
	for (size_t i = 0; i + 2 < n; i++)
		if ((s[i] == '(' || s[i] == '[') && s[i + 1] == 'p' && s[i + 2] == '.')
			return true;
	return false;
}

/* A paragraph: lines up to a blank line, as one range of the text. */
struct para {
	const char *s;
	size_t n;
	unsigned line;
};

/* The first non-blank line (the title), then the paragraphs after it;
 * RL_EDATA when there is no line at all. */
static int paragraphs(const struct rl_blocks *b, struct para **out, size_t *n,
                      const struct rl_block **title)
{
	*out = NULL;
	*n = 0;
	size_t cap = 0, i = 0, nl = b->n;
	const struct rl_block *v = b->v;
	while (i < nl && v[i].type == RL_BLOCK_BLANK)
		i++;
	if (i == nl)
		return RL_EDATA;
	*title = &v[i++];
	while (i < nl) {
		if (v[i].type == RL_BLOCK_BLANK) {
			i++;
			continue;
		}
		size_t j = i;
		while (j < nl && v[j].type != RL_BLOCK_BLANK)
			j++;
		if (!rl_grow(out, &cap, *n + 1, sizeof **out)) {
			/* none: the callers read *out[0..*n) and free *out */
			free(*out);
			*out = NULL;
			*n = 0;
			return RL_ENOMEM;
		}
		const char *end = v[j - 1].raw + v[j - 1].raw_len;
		(*out)[(*n)++] = (struct para){ v[i].raw, (size_t)(end - v[i].raw),
		                                v[i].line };
		i = j;
	}
	return RL_OK;
}

/* Joins the lines of a paragraph with spaces. */
static char *join(const char *s, size_t n)
{
	struct rl_buf b = {0};
	const char *e = s + n;
	while (s < e) {
		const char *nl = memchr(s, '\n', (size_t)(e - s));
		size_t len = nl ? (size_t)(nl - s) : (size_t)(e - s);
		char *t = rl_strtrim(s, len);
		if (!t) {
			rl_buf_free(&b);
			return NULL;
		}
		if (b.len && *t)
			rl_buf_addc(&b, ' ');
		rl_buf_adds(&b, t);
		free(t);
		s += len + (nl != NULL);
	}
	return rl_buf_take(&b);
}

static int recognize(const struct rl_blocks *b, struct rl_input *in)
{
	struct rl_doc *doc = in->doc;
	struct rl_diags *d = in->d;
	struct para *ps;
	size_t n;
	const struct rl_block *title;
	int rc = paragraphs(b, &ps, &n, &title);
	if (rc == RL_EDATA)
		rl_diag_add(d, RL_ERROR, 0, 0, "empty document");
	if (rc)
		return rc;
	doc->title = rl_strtrim(title->raw, title->raw_len);
	if (!doc->title) {
		free(ps);
		return RL_ENOMEM;
	}
	/* "Game: Expansion" names the game; the expansion is the section. */
	char *section = NULL;
	const char *colon = strstr(doc->title, ": ");
	if (colon) {
		rc = rl_doc_set_game(doc, doc->title, (size_t)(colon - doc->title));
		section = rl_strtrim(colon + 2, strlen(colon + 2));
		if (!section)
			rc = RL_ENOMEM;
	}
	for (size_t i = 0; i < n && !rc; i++) {
		struct rl_entry *e = rl_doc_add_entry(doc);
		if (!e) {
			rc = RL_ENOMEM;
			break;
		}
		e->kind = RL_KIND_RULE;
		e->line = ps[i].line;
		e->text = join(ps[i].s, ps[i].n);
		e->title = e->text ? rl_title_from_text(e->text, TITLE_MAX) : NULL;
		e->section = rl_strdup(section);
		if (!e->text || !e->title || (section && !e->section)) {
			rc = RL_ENOMEM;
			break;
		}
		/* Two paragraphs may open alike: the key is the whole text's
		 * start, not the title. */
		char *k = rl_strndup(e->text, rl_cut_at_word(e->text,
		                                              strlen(e->text), 200));
		e->key = k ? rl_key(k) : NULL;
		free(k);
		if (!e->key)
			rc = RL_ENOMEM;
		else if (!cites_page(ps[i].s, ps[i].n))
			rc = rl_diag_add(d, RL_WARNING, ps[i].line, 0,
			                 "paragraph cites no rulebook page");
	}
	if (!rc && n == 0)
		rc = rl_diag_add(d, RL_WARNING, title->line, 0,
		                 "summary has no paragraphs");
	free(section);
	free(ps);
	return rc;
}

/* A short first line, then paragraphs most of which cite a page. */
static enum rl_confidence probe(const char *text, size_t len)
{
	struct rl_source src = { .text = (char *)text, .len = len };
	struct rl_blocks b = {0};
	struct para *ps = NULL;
	size_t n = 0;
	const struct rl_block *title = NULL;
	int rc = rl_read_lines(&src, &b);
	if (!rc)
		rc = paragraphs(&b, &ps, &n, &title);
	size_t citing = 0, title_len = title ? title->raw_len : 0;
	for (size_t i = 0; i < n; i++)
		citing += cites_page(ps[i].s, ps[i].n);
	free(ps);
	rl_blocks_free(&b);
	if (rc)
		return rc == RL_ENOMEM ? RL_PROBE_ENOMEM : RL_PROBE_NO;
	if (title_len > 120 || n == 0)
		return RL_PROBE_NO;
	return citing * 2 > n ? RL_PROBE_LIKELY : RL_PROBE_NO;
}

const struct rl_recognizer rl_format_rules_summary = {
	.description = "rules summary: a title naming the game, then paragraphs "
	               "citing rulebook pages \"(p. 10)\"",
	.probe = probe,
	.recognize = recognize,
};
