/* ftsquery.c — the text of a query as FTS5 says it.
 *
 * Raw user input in MATCH fails in many ways (FACTS.md): "first-strike" is
 * read as a column filter, "702.19a" and "don't" are syntax errors, a bare
 * "NEAR(" opens a group. So every term becomes an FTS5 string, with inner
 * double quotes doubled (the query reader never leaves one in a term, but
 * a thesaurus term may hold one), and the operators are written here, from
 * the tree, never copied from what was typed. A term is its text ORed with
 * its equivalents from the thesaurus; title: and text: become the column
 * filters "title :" and "body :". */
#include "qparse.h"
#include "query.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void rl_fts_quote(struct rl_buf *b, const char *s, size_t n, bool prefix)
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

static void quote_s(struct rl_buf *b, const char *s)
{
	rl_fts_quote(b, s, strlen(s), false);
}

static void column(struct rl_buf *b, enum qn_col col)
{
	if (col == QC_TITLE)
		rl_buf_adds(b, "title : ");
	else if (col == QC_TEXT)
		rl_buf_adds(b, "body : ");
}

void rl_fts_alts(struct rl_buf *b, enum qn_col col, char *const *v)
{
	column(b, col);
	bool many = v[0] && v[1];
	if (many)
		rl_buf_addc(b, '(');
	for (size_t i = 0; v[i]; i++) {
		if (i)
			rl_buf_adds(b, " OR ");
		quote_s(b, v[i]);
	}
	if (many)
		rl_buf_addc(b, ')');
}

/* Notes the games of the next phrase written (pg may be NULL): every
 * game (gs NULL), or the folded names of those of n->ggame whose galt is
 * t. */
static void note(struct rl_phrase_games *pg, const struct qnode *n,
                 const char *t)
{
	if (!pg || pg->oom)
		return;
	if (!rl_grow(&pg->v, &pg->cap, pg->n + 1, sizeof *pg->v)) {
		pg->oom = true;
		return;
	}
	char **gs = NULL;
	size_t k = 0;
	for (size_t i = 0; t && n->galt[i]; i++) {
		if (strcmp(n->galt[i], t) != 0)
			continue;
		char **g = realloc(gs, (k + 2) * sizeof *g);
		char *f = g ? rl_fold(n->ggame[i]) : NULL;
		if (g)
			gs = g;
		if (!f) {
			pg->oom = true;
			break;
		}
		gs[k++] = f;
		gs[k] = NULL;
	}
	if (pg->oom) {
		rl_strings_free(gs, k);
		return;
	}
	pg->v[pg->n++] = gs;
}

void rl_phrase_games_free(struct rl_phrase_games *pg)
{
	for (size_t i = 0; i < pg->n; i++) {
		size_t k = 0;
		while (pg->v[i] && pg->v[i][k])
			k++;
		rl_strings_free(pg->v[i], k);
	}
	free(pg->v);
	*pg = (struct rl_phrase_games){0};
}

/* A term, its equivalents, and with games those of other games'
 * concepts too (each once); each phrase's games noted in pg. */
static void term(struct rl_buf *b, const struct qnode *n, bool games,
                 struct rl_phrase_games *pg)
{
	size_t alts = 0, galts = 0;
	while (n->alt && n->alt[alts])
		alts++;
	while (games && n->galt && n->galt[galts])
		galts++;
	column(b, n->col);
	note(pg, n, NULL);
	if (!alts && !galts) {
		rl_fts_quote(b, n->text, strlen(n->text), n->prefix);
		return;
	}
	rl_buf_addc(b, '(');
	rl_fts_quote(b, n->text, strlen(n->text), n->prefix);
	for (size_t i = 0; i < alts; i++) {
		rl_buf_adds(b, " OR ");
		quote_s(b, n->alt[i]);
		note(pg, n, NULL);
	}
	struct rl_strset seen = {0};
	for (size_t i = 0; i < galts; i++) {
		const char *t = n->galt[i];
		if (rl_strset_add(&seen, t, strlen(t)) == 0)
			continue;
		rl_buf_adds(b, " OR ");
		quote_s(b, t);
		note(pg, n, t);
	}
	rl_strset_free(&seen);
	rl_buf_addc(b, ')');
}

bool rl_fts_sayable(const struct qnode *n)
{
	switch (n->kind) {
	case QN_TERM:
		return !n->rule;
	case QN_FIELD:
	case QN_NOT:
		return false;
	case QN_OR:
		for (size_t i = 0; i < n->nkid; i++)
			if (!rl_fts_sayable(n->kid[i]))
				return false;
		return true;
	case QN_AND: {
		bool kept = false;
		for (size_t i = 0; i < n->nkid; i++) {
			const struct qnode *k = n->kid[i];
			if (k->kind == QN_NOT)
				k = k->kid[0];
			else
				kept = true;
			if (!rl_fts_sayable(k))
				return false;
		}
		return kept;
	}
	}
	return false;
}

bool rl_fts_has_games(const struct qnode *n)
{
	if (n->kind == QN_TERM)
		return n->galt && n->galt[0];
	for (size_t i = 0; i < n->nkid; i++)
		if (rl_fts_has_games(n->kid[i]))
			return true;
	return false;
}

bool rl_fts_has_not(const struct qnode *n)
{
	if (n->kind == QN_NOT)
		return true;
	for (size_t i = 0; i < n->nkid; i++)
		if (rl_fts_has_not(n->kid[i]))
			return true;
	return false;
}

static void expr(struct rl_buf *b, const struct qnode *n, bool games,
                 struct rl_phrase_games *pg)
{
	if (n->kind == QN_TERM) {
		term(b, n, games, pg);
		return;
	}
	bool and = n->kind == QN_AND, first = true, nots = false;
	for (size_t i = 0; and && i < n->nkid; i++)
		nots |= n->kid[i]->kind == QN_NOT;
	if (nots)
		rl_buf_addc(b, '(');   /* (P) NOT (N), whole */
	rl_buf_addc(b, '(');
	for (size_t i = 0; i < n->nkid; i++) {
		if (n->kid[i]->kind == QN_NOT)
			continue;
		if (!first)
			rl_buf_adds(b, and ? " AND " : " OR ");
		first = false;
		expr(b, n->kid[i], games, pg);
	}
	rl_buf_addc(b, ')');
	first = true;
	for (size_t i = 0; i < n->nkid; i++) {
		if (n->kid[i]->kind != QN_NOT)
			continue;
		rl_buf_adds(b, first ? " NOT (" : " OR ");
		first = false;
		expr(b, n->kid[i]->kid[0], games, pg);
	}
	if (!first)
		rl_buf_adds(b, "))");
}

void rl_fts_expr(struct rl_buf *b, const struct qnode *n, bool games)
{
	expr(b, n, games, NULL);
}

void rl_fts_expr_games(struct rl_buf *b, const struct qnode *n,
                       struct rl_phrase_games *pg)
{
	expr(b, n, true, pg);
}
