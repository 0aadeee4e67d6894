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

/* Calls fn for each paragraph (blank-line separated) after the first line. */
struct para {
	const char *s;
	size_t n;
	unsigned line;
};

static int paragraphs(const struct rl_source *src, struct para **out, size_t *n,
                      struct rl_line *title)
{
	struct rl_line *lines;
	size_t nl;
	int rc = rl_split_lines(src, &lines, &nl);
	if (rc)
		return rc;
	*out = NULL;
	*n = 0;
	size_t cap = 0, i = 0;
	while (i < nl && rl_is_blank_line(lines[i].s, lines[i].n))
		i++;
	if (i == nl) {
		free(lines);
		return RL_EDATA;
	}
	*title = lines[i++];
	while (i < nl) {
		if (rl_is_blank_line(lines[i].s, lines[i].n)) {
			i++;
			continue;
		}
		size_t j = i;
		while (j < nl && !rl_is_blank_line(lines[j].s, lines[j].n))
			j++;
		if (!rl_grow(out, &cap, *n + 1, sizeof **out)) {
			free(lines);
			free(*out);
			return RL_ENOMEM;
		}
		const char *end = lines[j - 1].s + lines[j - 1].n;
		(*out)[(*n)++] = (struct para){ lines[i].s, (size_t)(end - lines[i].s),
		                                lines[i].no };
		i = j;
	}
	free(lines);
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

static int parse(const struct rl_source *src, const struct rl_import_opts *opts,
                 struct rl_doc *doc, struct rl_diags *d)
{
	struct para *ps;
	size_t n;
	struct rl_line title;
	int rc = paragraphs(src, &ps, &n, &title);
	if (rc == RL_EDATA)
		rl_diag_add(d, RL_ERROR, 0, 0, "empty document");
	if (rc)
		return rc;
	doc->title = rl_strtrim(title.s, title.n);
	if (!doc->title) {
		free(ps);
		return RL_ENOMEM;
	}
	/* "Game: Expansion" names the game; the expansion is the section. */
	char *section = NULL;
	const char *colon = strstr(doc->title, ": ");
	if (colon) {
		doc->game = rl_strtrim(doc->title, (size_t)(colon - doc->title));
		section = rl_strtrim(colon + 2, strlen(colon + 2));
		if (!doc->game || !section)
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
		rc = rl_diag_add(d, RL_WARNING, title.no, 0, "summary has no paragraphs");
	free(section);
	free(ps);
	return rc;
}

/* A short first line, then paragraphs most of which cite a page. */
static int probe(const char *text, size_t len)
{
	struct rl_source src = { .text = (char *)text, .len = len };
	struct para *ps;
	size_t n;
	struct rl_line title;
	int rc = paragraphs(&src, &ps, &n, &title);
	if (rc)
		return rc == RL_ENOMEM ? -1 : 0;
	size_t citing = 0;
	for (size_t i = 0; i < n; i++)
		citing += cites_page(ps[i].s, ps[i].n);
	free(ps);
	if (title.n > 120 || n == 0)
		return 0;
	return citing * 2 > n ? 75 : 0;
}

const struct rl_importer rl_importer_rules_summary = {
	.name = "rules-summary",
	.description = "rules summary: a title naming the game, then paragraphs "
	               "citing rulebook pages \"(p. 10)\"",
	.probe = probe,
	.parse = parse,
};
