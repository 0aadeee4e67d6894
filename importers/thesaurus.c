/* thesaurus.c — the thesaurus: terms that mean the same across languages.
 * data/thesaurus.txt documents the format for its users.
 *
 *   # rulings thesaurus                      the signature (first line)
 *   # comments start with '#'
 *   en:Speed (Fast/Slow) = fr:Swift (rapide) = ru:Быстрые и медленные атаки
 *   [Spirit Island]                          concepts below are that game's
 *   Isolate = fr:Isoler                      "xx:" names a term's language
 *   [*]                                      back to every game
 *
 * One concept a line, its terms separated by "=". A term is a tag name
 * (with its qualifier) or a game term. The file is imported like any
 * document; importing a new version replaces its concepts. */
#include "importer.h"
#include "doc.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static const char SIGNATURE[] = "# rulings thesaurus";
static const char SEPARATOR = '=';

static int add_term(struct rl_concept *c, const char *s, size_t n)
{
	char *t = rl_strtrim(s, n);
	if (!t)
		return RL_ENOMEM;
	char *lang = NULL;
	/* "fr:Isoler": two or three lower-case letters and a colon */
	size_t k = 0;
	while (k < 4 && t[k] >= 'a' && t[k] <= 'z')
		k++;
	if ((k == 2 || k == 3) && t[k] == ':') {
		lang = rl_strndup(t, k);
		char *rest = rl_strtrim(t + k + 1, strlen(t + k + 1));
		free(t);
		t = rest;
		if (!lang || !t) {
			free(lang);
			free(t);
			return RL_ENOMEM;
		}
	}
	if (!*t) {
		free(t);
		free(lang);
		return RL_EDATA;
	}
	size_t cap = c->nterms;
	if (!rl_grow(&c->terms, &cap, c->nterms + 1, sizeof *c->terms)) {
		free(t);
		free(lang);
		return RL_ENOMEM;
	}
	c->terms[c->nterms++] = (struct rl_term){ t, lang };
	return RL_OK;
}

static void drop_concept(struct rl_doc *doc)
{
	struct rl_concept *c = &doc->concepts[--doc->nconcepts];
	for (size_t k = 0; k < c->nterms; k++) {
		free(c->terms[k].term);
		free(c->terms[k].lang);
	}
	free(c->terms);
	free(c->game);
}

static int concept_line(struct rl_doc *doc, const char *s, size_t n,
                        unsigned line, const char *game, size_t *cap,
                        struct rl_diags *d)
{
	if (!memchr(s, SEPARATOR, n))
		return rl_diag_add(d, RL_WARNING, line, 0,
		                   "not a concept (terms are separated by '='); "
		                   "ignored");
	if (!rl_grow(&doc->concepts, cap, doc->nconcepts + 1, sizeof *doc->concepts))
		return RL_ENOMEM;
	struct rl_concept *c = &doc->concepts[doc->nconcepts++];
	*c = (struct rl_concept){ .line = line };
	if (game && !(c->game = rl_strdup(game)))
		return RL_ENOMEM;
	const char *e = s + n;
	for (;;) {
		const char *sep = memchr(s, SEPARATOR, (size_t)(e - s));
		const char *end = sep ? sep : e;
		int rc = add_term(c, s, (size_t)(end - s));
		if (rc == RL_EDATA)
			rc = rl_diag_add(d, RL_WARNING, line, 0, "empty term; ignored");
		if (rc)
			return rc;
		if (!sep)
			break;
		s = sep + 1;
	}
	if (c->nterms < 2) {
		drop_concept(doc);
		return rl_diag_add(d, RL_WARNING, line, 0,
		                   "a concept needs two terms or more; ignored");
	}
	return RL_OK;
}

static int recognize(const struct rl_blocks *b, struct rl_input *in)
{
	struct rl_doc *doc = in->doc;
	struct rl_diags *d = in->d;
	int rc = RL_OK;
	doc->title = rl_strdup("rulings thesaurus");
	doc->lang = rl_strdup("mul");     /* ISO 639-2: several languages */
	if (!doc->title || !doc->lang)
		rc = RL_ENOMEM;
	char *game = NULL;
	bool every_game = false;   /* after an explicit [*] */
	size_t cap = 0;
	for (size_t i = 0; i < b->n && !rc; i++) {
		char *t = rl_strtrim(b->v[i].raw, b->v[i].raw_len);
		if (!t) {
			rc = RL_ENOMEM;
			break;
		}
		size_t len = strlen(t);
		if (len == 0 || t[0] == '#') {
			/* blank or comment */
		} else if (t[0] == '[' && t[len - 1] == ']') {
			free(game);
			game = NULL;
			char *g = rl_strtrim(t + 1, len - 2);
			every_game = g && (strcmp(g, "*") == 0 || !*g);
			if (!g)
				rc = RL_ENOMEM;
			else if (every_game)
				free(g);
			else
				game = g;
		} else {
			/* --game names the game of a file without sections */
			rc = concept_line(doc, t, len, b->v[i].line, game ? game
			                  : every_game ? NULL : in->opts->game, &cap, d);
		}
		free(t);
	}
	if (!rc && doc->nconcepts == 0)
		rc = rl_diag_add(d, RL_WARNING, 0, 0, "the thesaurus has no concepts");
	free(game);
	return rc;
}

static enum rl_confidence probe(const char *text, size_t len)
{
	size_t k = sizeof SIGNATURE - 1;
	return len >= k && strncmp(text, SIGNATURE, k) == 0 ? RL_PROBE_CERTAIN
	                                                     : RL_PROBE_NO;
}

const struct rl_recognizer rl_format_thesaurus = {
	.description = "thesaurus: \"# rulings thesaurus\", then concepts, one a "
	               "line, terms separated by \"=\"",
	.probe = probe,
	.recognize = recognize,
};
