/* qcompile.c — a search made SQL: the query tree (qparse.c) and the
 * options become an FTS5 expression that finds and ranks rulings, and
 * conditions over rulings r that filter them.
 *
 * The top of the tree is a list of clauses, ANDed. A clause of text alone
 * that FTS5 can say (words, phrases, prefixes, title:/text:, OR, AND and a
 * NOT beside something to keep) goes into the one FTS5 expression that
 * drives the query and ranks it by BM25; an excluded one into its NOT
 * part. Every other clause — a field, a rule number, text mixed with
 * fields, text FTS5 cannot say alone ("-word" with nothing to keep) —
 * becomes an SQL condition, in which text is a subselect fN: the rulings
 * an FTS5 expression finds. Without a driving expression the rulings are
 * ranked by one that only ranks: the words the query looks for.
 *
 * The thesaurus widens each word to its equivalents: those of concepts
 * for every game (or for the game searched) as FTS5 alternatives, those
 * of another game's concept only for the rulings of that game, which an
 * SQL condition says. */
#include "qparse.h"
#include "query.h"
#include "stemtok.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct qc {
	struct rl_filter_ctx f;
	const struct rl_query *q;
	struct rl_tokcount *tok;
	size_t subs;            /* "r.id IN fN" written so far (sub_cond) */
};

/* ---- words: stop words, tokens, the thesaurus ------------------------------ */

/* Words so common in rulings' English, French and Russian that they say
 * nothing about what is asked, and cost the most to rank: every match of
 * every term is scored, and "the" matches nearly every ruling. A query of
 * several words leaves them out. Case-folded, sorted by bytes for
 * bsearch. */
static const char *const stop_words[] = {
	"a", "an", "and", "are", "as", "at", "au", "aux", "be", "but", "by",
	"can", "ce", "ces", "cette", "dans", "de", "des", "do", "does", "du",
	"elle", "en", "est", "et", "for", "from", "has", "have", "how", "i",
	"if", "il", "in", "into", "is", "it", "its", "la", "le", "les", "leur",
	"leurs", "ne", "of", "on", "or", "ou", "par", "pas", "pour", "qu",
	"que", "qui", "sa", "se", "ses", "son", "sont", "sur", "than", "that",
	"the", "their", "then", "there", "these", "this", "to", "un", "une",
	"was", "what", "when", "where", "which", "who", "why", "will", "with",
	"you", "your", "à",
	"а", "бы", "в", "во", "для", "до", "же", "за", "и", "из", "к", "как",
	"ли", "на", "не", "но", "о", "об", "от", "по", "при", "с", "со", "то",
	"у", "что", "это",
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* 1 when the term is a stop word, 0 when not, -1 out of memory. */
static int is_stop_word(const char *term)
{
	char *f = rl_fold(term);
	if (!f)
		return -1;
	const char *k = f;
	bool stop = bsearch(&k, stop_words, sizeof stop_words / sizeof *stop_words,
	                    sizeof *stop_words, cmp_str) != NULL;
	free(f);
	return stop;
}

static int tokens(struct qc *x, const char *s)
{
	int n = rl_tokcount(x->tok, s, (int)strlen(s));
	return n < 0 ? rl_db_fail(x->f.db, RL_EINTERNAL, "cannot tokenize '%s'", s)
	             : n;
}

/* Keeps the terms of a NULL-terminated list that hold a token. */
static int keep_tokens(struct qc *x, char **v, char **pair)
{
	size_t o = 0;
	for (size_t i = 0; v && v[i]; i++) {
		int t = tokens(x, v[i]);
		if (t < 0)
			return RL_EINTERNAL;
		if (t > 0) {
			v[o] = v[i];
			if (pair)
				pair[o] = pair[i];
			o++;
		} else {
			free(v[i]);
			if (pair)
				free(pair[i]);
		}
	}
	if (v)
		v[o] = NULL;
	if (pair)
		pair[o] = NULL;
	return RL_OK;
}

/* A positive word other than a stop word, with something to find. */
static int other_word(struct qc *x, const struct qnode *n, bool neg)
{
	if (n->kind == QN_TERM) {
		if (neg || n->prefix)
			return !neg;
		int s = is_stop_word(n->text);
		if (s < 0)
			return -1;
		return !s && tokens(x, n->text) > 0;
	}
	for (size_t i = 0; i < n->nkid; i++) {
		int r = other_word(x, n->kid[i], neg || n->kind == QN_NOT);
		if (r)
			return r;
	}
	return 0;
}

/* An argument read as one field value ("tag:Speed (Fast/Slow)") whose
 * value names no tag or game the database knows ('tag:Repeat fast'), or
 * is more than the one word of a lang:, kind:, rule: or is: value
 * ('lang:en ward'), is words after all: it is read again. */
static int resolve_whole(struct qc *x, struct qnode **np)
{
	struct qnode *n = *np, *field = n;
	int rc = RL_OK;
	/* '-tag:Repeat fast' read again is -tag:Repeat fast: the NOT its
	 * dash made goes with the field it wrapped */
	bool dashed_not = n->kind == QN_NOT && n->nkid == 1 && n->kid[0] &&
	                  n->kid[0]->kind == QN_FIELD && n->kid[0]->whole &&
	                  n->kid[0]->whole[0] == '-';
	if (dashed_not) {
		field = n->kid[0];
	} else if (n->kind != QN_FIELD) {
		for (size_t i = 0; i < n->nkid && !rc; i++)
			if (n->kid[i])
				rc = resolve_whole(x, &n->kid[i]);
		return rc;
	}
	if (!field->whole)
		return RL_OK;
	bool found;
	if ((rc = rl_field_known(&x->f, field, &found)) || found)
		return rc;
	struct qnode *w;
	const char *word = field->whole;
	if ((rc = rl_qparse_as(&word, 1, false, &w)))
		return rc;
	if (!dashed_not && *word == '-' && w) {
		/* a NOT outside cancelled the dash: NOT of the argument */
		struct qnode *not = calloc(1, sizeof *not);
		struct qnode **kid = not ? malloc(sizeof *kid) : NULL;
		if (!kid) {
			free(not);
			rl_qnode_free(w);
			return RL_ENOMEM;
		}
		not->kind = QN_NOT;
		not->kid = kid;
		not->kid[0] = w;
		not->nkid = not->capkid = 1;
		w = not;
	}
	rl_qnode_free(n);
	*np = w;
	return RL_OK;
}

/* French elision, as Lucene's ElisionFilter does it in its French
 * analyzer: a term that begins with an elided article or pronoun — l' d'
 * j' m' n' s' t' c' qu' jusqu' lorsqu' puisqu', with ', ’ or ʼ, in any
 * case — before a vowel or h loses it: "l’allié" is the word "allié", not
 * the phrase "l allié" (the index keeps "l" as a token of its own: a
 * phrase with the article inside still matches). Only before a vowel or h,
 * as French elides: English words are left alone ("o'clock", "player's",
 * "c'mon", "don't"). Every table, since one expression searches them all. */
static void drop_elision(char *text)
{
	static const char *const elided[] = {
		"jusqu", "lorsqu", "puisqu", "qu", "l", "d", "j", "m", "n", "s",
		"t", "c",
	};
	static const char *const apostrophes[] = {
		"'", "\xE2\x80\x99", "\xCA\xBC",
	};
	for (size_t i = 0; i < sizeof elided / sizeof *elided; i++) {
		size_t k = strlen(elided[i]);
		if (strncasecmp(text, elided[i], k) != 0)
			continue;
		for (size_t a = 0; a < sizeof apostrophes / sizeof *apostrophes; a++) {
			size_t m = strlen(apostrophes[a]);
			const unsigned char *r = (const unsigned char *)text + k + m;
			if (strncmp(text + k, apostrophes[a], m) != 0)
				continue;
			/* a vowel, h, or a Latin-1 letter (é, à, î...), œ, Œ */
			bool vowel = (*r < 0x80 && strchr("aeiouyhAEIOUYH", *r) &&
			              *r) || (r[0] == 0xC3 && r[1] >= 0x80) ||
			             (r[0] == 0xC5 && (r[1] == 0x92 || r[1] == 0x93));
			if (vowel)
				memmove(text, r, strlen((const char *)r) + 1);
			return;
		}
		return;
	}
}

/* Every term of the tree without its elision, before stop words are
 * judged ("d’une" is the stop word "une"). */
static void elide(struct qnode *n)
{
	if (!n || n->kind == QN_FIELD)
		return;
	if (n->kind == QN_TERM) {
		drop_elision(n->text);
		return;
	}
	for (size_t i = 0; i < n->nkid; i++)
		elide(n->kid[i]);
}

/* Drops terms that hold no token (and, when stop, the unquoted stop words
 * among the top clauses); fills in the thesaurus and rule numbers. top:
 * a clause of the top AND (or the root). */
/* The term spelt with its ligatures the other way, or NULL when it has
 * none (*oom when memory ran out). French writes œ ("cœur", "sœur",
 * "œil") where a keyboard without it gives "oe": a word with œ or æ is
 * also looked for with oe or ae, and one with "oeu" or "oei" (where
 * French has œ; hardly an English word has either) with œu, œi. The index
 * keeps the words as written, so both spellings are looked for in the
 * query, in every database as it is. */
static char *ligature_variant(const char *s, bool *oom)
{
	static const struct { const char *lig, *plain; } pairs[] = {
		{ "\xC5\x93", "oe" }, { "\xC5\x92", "OE" },
		{ "\xC3\xA6", "ae" }, { "\xC3\x86", "AE" },
	};
	struct rl_buf b = {0};
	bool changed = false;
	for (const char *p = s; *p; ) {
		size_t k = 0;
		while (k < sizeof pairs / sizeof *pairs &&
		       strncmp(p, pairs[k].lig, 2) != 0)
			k++;
		if (k < sizeof pairs / sizeof *pairs) {
			rl_buf_adds(&b, pairs[k].plain);
			p += 2;
			changed = true;
		} else {
			rl_buf_addc(&b, *p++);
		}
	}
	if (!changed) {
		/* oe before u or i: œ */
		rl_buf_free(&b);
		b = (struct rl_buf){0};
		for (const char *p = s; *p; ) {
			bool o = *p == 'o' || *p == 'O';
			bool e = o && (p[1] == 'e' || p[1] == 'E');
			bool ui = e && (p[2] == 'u' || p[2] == 'U' || p[2] == 'i' ||
			                p[2] == 'I');
			if (ui) {
				rl_buf_adds(&b, *p == 'O' ? "\xC5\x92" : "\xC5\x93");
				p += 2;
				changed = true;
			} else {
				rl_buf_addc(&b, *p++);
			}
		}
	}
	if (b.oom || !changed) {
		*oom = b.oom;
		rl_buf_free(&b);
		return NULL;
	}
	return rl_buf_take(&b);
}

/* Whether one of v[0..n) (up to a NULL; v may be NULL), of the game
 * game when games is given, has the key key, as the thesaurus compares
 * terms (rl_key_loose: case, accents, apostrophes): the same words to
 * the full-text index. -1: out of memory. */
static int has_key(char *const *v, char *const *games, const char *game,
                   size_t n, const char *key)
{
	for (size_t i = 0; v && i < n && v[i]; i++) {
		if (games && strcmp(games[i], game) != 0)
			continue;
		char *k = rl_key_loose(v[i]);
		if (!k)
			return -1;
		int same = strcmp(k, key) == 0;
		free(k);
		if (same)
			return 1;
	}
	return 0;
}

/* Adds v (taken) to the term's alternatives, unless one of them, from
 * the thesaurus or added before, is already v (a user's thesaurus may
 * list "cœur = coeur"). */
static int add_alt(struct qnode *n, char *v)
{
	char *key = rl_key_loose(v);
	int had = key ? has_key(n->alt, NULL, NULL, SIZE_MAX, key) : -1;
	free(key);
	if (had) {
		free(v);
		return had < 0 ? RL_ENOMEM : RL_OK;
	}
	size_t k = 0;
	while (n->alt && n->alt[k])
		k++;
	char **a = realloc(n->alt, (k + 2) * sizeof *a);
	if (!a) {
		free(v);
		return RL_ENOMEM;
	}
	a[k] = v;
	a[k + 1] = NULL;
	n->alt = a;
	return RL_OK;
}

/* Adds the term's other spelling (ligature_variant()). */
static int add_ligature(struct qnode *n)
{
	bool oom = false;
	char *v = ligature_variant(n->text, &oom);
	if (!v)
		return oom ? RL_ENOMEM : RL_OK;
	return add_alt(n, v);
}

/* A French noun in -ât ("dégât", "appât", "mât") is stemmed by Snowball
 * as a verb in the imperfect subjunctive ("qu'il aimât"): "dégât" is
 * "deg", while its plural "dégâts" is "degat", and neither found the
 * other. A word (not a phrase) ending in -ât is also looked for with -âts,
 * and one in -âts with -ât: the index keeps the words as written, so
 * this holds in every database as it is. NULL when the term is not such
 * a word (*oom when memory ran out). */
static char *circumflex_variant(const char *s, bool *oom)
{
	size_t n = strlen(s);
	if (strpbrk(s, " \t-'") || n < 4)
		return NULL;
	/* â, Â: C3 A2, C3 82 */
	bool plural = s[n - 1] == 's' || s[n - 1] == 'S';
	size_t end = n - plural;
	if (end < 4 || (unsigned char)s[end - 3] != 0xC3 ||
	    ((unsigned char)s[end - 2] != 0xA2 &&
	     (unsigned char)s[end - 2] != 0x82) ||
	    (s[end - 1] != 't' && s[end - 1] != 'T'))
		return NULL;
	char *v = plural ? rl_strndup(s, n - 1) : malloc(n + 2);
	if (v && !plural) {
		memcpy(v, s, n);
		v[n] = s[n - 1] == 'T' ? 'S' : 's';
		v[n + 1] = '\0';
	}
	*oom = !v;
	return v;
}

static int add_circumflex(struct qnode *n)
{
	bool oom = false;
	char *v = circumflex_variant(n->text, &oom);
	if (!v)
		return oom ? RL_ENOMEM : RL_OK;
	return add_alt(n, v);
}

/* Leaves out of v (NULL-ended, may be NULL; pair beside it, the
 * games of galt) each term with the key of one kept before it, or, for
 * a game's (pair), of an equivalent for every game (n->alt). */
static int drop_dups(struct qnode *n, char **v, char **pair)
{
	size_t w = 0;
	int rc = RL_OK;
	for (size_t i = 0; v && v[i]; i++) {
		char *key = rc ? NULL : rl_key_loose(v[i]);
		int dup = !key ? -1
		          : pair ? has_key(n->alt, NULL, NULL, SIZE_MAX, key)
		          : 0;
		if (!dup)
			dup = has_key(v, pair, pair ? pair[i] : NULL, w, key);
		free(key);
		if (dup < 0)
			rc = RL_ENOMEM;
		if (dup > 0) {
			free(v[i]);
			if (pair)
				free(pair[i]);
			continue;
		}
		v[w] = v[i];
		if (pair)
			pair[w] = pair[i];
		w++;
	}
	if (v)
		v[w] = NULL;
	if (pair)
		pair[w] = NULL;
	return rc;
}

static int annotate(struct qc *x, struct qnode **np, bool top, bool stop,
                    bool *positive_text)
{
	struct qnode *n = *np;
	int rc = RL_OK;
	if (n->kind == QN_FIELD)
		return RL_OK;
	if (n->kind != QN_TERM) {
		for (size_t i = 0; i < n->nkid && !rc; i++)
			rc = annotate(x, &n->kid[i], top && n->kind == QN_AND, stop,
			              n->kind == QN_NOT ? NULL : positive_text);
		return rc;
	}
	if (positive_text)
		*positive_text = true;
	int t = tokens(x, n->text);
	if (t < 0)
		return RL_EINTERNAL;
	int s = top && stop && !n->quoted && !n->prefix ? is_stop_word(n->text) : 0;
	if (s < 0)
		return RL_ENOMEM;
	if (t == 0 || s) {
		rl_qnode_free(n);
		*np = NULL;
		return RL_OK;
	}
	size_t len;
	n->rule = !n->quoted && !n->prefix && n->col == QC_ANY &&
	          rl_rule_like(n->text, strlen(n->text), &len);
	if (n->rule)
		n->text[len] = '\0';          /* "702.19a." is 702.19a */
	if (n->prefix)
		return RL_OK;
	rc = rl_thesaurus_terms(&x->f, n->text, &n->alt, &n->galt, &n->ggame);
	if (!rc)
		rc = keep_tokens(x, n->alt, NULL);
	if (!rc)
		rc = keep_tokens(x, n->galt, n->ggame);
	/* each phrase once: a phrase twice in the query counts twice in
	 * its BM25 score (a thesaurus may list "Cœur" and "cœur", or the
	 * ligature's other spelling, or one term for every game and for
	 * a game) */
	if (!rc)
		rc = drop_dups(n, n->alt, NULL);
	if (!rc)
		rc = add_ligature(n);
	if (!rc)
		rc = add_circumflex(n);
	if (!rc)
		rc = drop_dups(n, n->galt, n->ggame);
	return rc;
}

/* ---- SQL -------------------------------------------------------------------- */

/* "r.id IN fN": the rulings the FTS5 expression in e finds. */
static int sub_cond(struct qc *x, struct rl_buf *e, struct rl_buf *out)
{
	int k, rc = e->oom ? RL_ENOMEM : rl_add_sub(x->f.c, rl_buf_take(e), &k);
	rl_buf_free(e);
	if (!rc) {
		rl_buf_addf(out, "r.id IN f%d", k);
		x->subs++;
	}
	return rc;
}

static int sql_of(struct qc *x, const struct qnode *n, struct rl_buf *out);

/* A term FTS5 cannot say alone: the text (and its equivalents for every
 * game), each other game's equivalents for that game's rulings, and for a
 * rule number the rule itself. */
static int term_sql(struct qc *x, const struct qnode *n, struct rl_buf *out)
{
	struct rl_buf e = {0};
	char *part[3] = {0};
	size_t np = 0;
	struct rl_buf one = {0};
	rl_fts_expr(&e, n, false);
	int rc = sub_cond(x, &e, &one);
	if (!rc)
		part[np++] = rl_buf_take(&one);
	size_t ng = 0;
	while (n->galt && n->galt[ng])
		ng++;
	struct rl_buf games = {0};
	for (size_t k = 0; k < ng && !rc; ) {
		size_t end = k;
		while (end < ng && strcmp(n->ggame[end], n->ggame[k]) == 0)
			end++;
		int gi;
		rc = rl_param(&x->f.c->p, n->ggame[k], true, &gi);
		if (rc)
			break;
		char **v = malloc((end - k + 1) * sizeof *v);
		if (!v) {
			rc = RL_ENOMEM;
			break;
		}
		memcpy(v, n->galt + k, (end - k) * sizeof *v);
		v[end - k] = NULL;
		struct rl_buf ge = {0};
		rl_fts_alts(&ge, n->col, v);
		free(v);
		rl_buf_addf(&games, "%s(r.game_id IN (SELECT id FROM games WHERE"
		            " rl_fold(name) = ?%d) AND ", games.len ? " OR " : "", gi);
		rc = sub_cond(x, &ge, &games);
		rl_buf_addc(&games, ')');
		k = end;
	}
	if (!rc && games.len)
		part[np++] = rl_buf_take(&games);
	rl_buf_free(&games);
	if (!rc && n->rule) {
		int ri;
		if (!(rc = rl_param(&x->f.c->p, n->text, false, &ri))) {
			struct rl_buf r = {0};
			rl_buf_addf(&r, "r.rule = ?%d", ri);
			part[np++] = rl_buf_take(&r);
		}
	}
	for (size_t i = 0; i < np && !rc; i++)
		if (!part[i])
			rc = RL_ENOMEM;
	if (!rc && np > 1)
		rl_buf_addc(out, '(');
	if (!rc)
		rl_join_balanced(out, part, np, "OR");
	if (!rc && np > 1)
		rl_buf_addc(out, ')');
	for (size_t i = 0; i < np; i++)
		free(part[i]);
	return rc;
}

static int sql_of(struct qc *x, const struct qnode *n, struct rl_buf *out)
{
	int rc = RL_OK;
	if (n->kind == QN_FIELD) {
		struct rl_cond f;
		rc = rl_field_sql(&x->f, n, false, &f);
		if (!rc)
			rl_buf_adds(out, f.rows);
		rl_cond_free(&f);
		return rc;
	}
	if (n->kind == QN_NOT) {
		rl_buf_adds(out, "NOT (");
		rc = sql_of(x, n->kid[0], out);
		rl_buf_addc(out, ')');
		return rc;
	}
	if (rl_fts_sayable(n) && !rl_fts_has_games(n)) {
		struct rl_buf e = {0};
		rl_fts_expr(&e, n, false);
		return sub_cond(x, &e, out);
	}
	if (n->kind == QN_TERM)
		return term_sql(x, n, out);
	char **items = calloc(n->nkid, sizeof *items);
	if (!items)
		return RL_ENOMEM;
	for (size_t i = 0; i < n->nkid && !rc; i++) {
		struct rl_buf b = {0};
		rc = sql_of(x, n->kid[i], &b);
		if (!rc && !(items[i] = rl_buf_take(&b)))
			rc = RL_ENOMEM;
		rl_buf_free(&b);
	}
	if (!rc) {
		rl_buf_addc(out, '(');
		rl_join_balanced(out, items, n->nkid, n->kind == QN_AND ? "AND" : "OR");
		rl_buf_addc(out, ')');
	}
	for (size_t i = 0; i < n->nkid; i++)
		free(items[i]);
	free(items);
	return rc;
}

/* A clause as SQL, which says no more than that (RL_COND_OTHER): a field
 * in it is a part of the clause's meaning, not the whole. */
static int add_sql_cond(struct qc *x, const struct qnode *n, bool games)
{
	struct rl_buf b = {0};
	size_t subs = x->subs;
	int rc = sql_of(x, n, &b);
	if (!rc && b.oom)
		rc = RL_ENOMEM;
	if (rc) {
		rl_buf_free(&b);
		return rc;
	}
	return rl_add_cond(x->f.c, (struct rl_cond){ .rows = rl_buf_take(&b),
		.subs = x->subs != subs, .games = games });
}

/* The positive terms, for ranking (into rank) and rule numbers (into
 * first, as parameters). */
static int positives(struct qc *x, const struct qnode *n, struct rl_buf *rank,
                     struct rl_buf *first)
{
	if (n->kind == QN_NOT || n->kind == QN_FIELD)
		return RL_OK;
	if (n->kind == QN_TERM) {
		if (rank) {
			if (rank->len)
				rl_buf_adds(rank, " OR ");
			rl_fts_expr(rank, n, true);
		}
		int i, rc = RL_OK;
		if (n->rule && !(rc = rl_param(&x->f.c->p, n->text, false, &i)))
			rl_buf_addf(first, "%s?%d", first->len ? ", " : "", i);
		return rc;
	}
	int rc = RL_OK;
	for (size_t i = 0; i < n->nkid && !rc; i++)
		rc = positives(x, n->kid[i], rank, first);
	return rc;
}

/* The clauses of the top AND into the driving expression (match), its NOT
 * part, or conditions; then what ranks and what comes first. */
static int compile_tree(struct qc *x, struct qnode *root)
{
	struct rl_compiled *c = x->f.c;
	struct qnode **cl = root->kind == QN_AND ? root->kid : &root;
	size_t ncl = root->kind == QN_AND ? root->nkid : 1;
	struct rl_buf pos = {0}, neg = {0};
	int rc = RL_OK;
	for (size_t i = 0; i < ncl && !rc; i++) {
		const struct qnode *k = cl[i];
		bool isnot = k->kind == QN_NOT;
		const struct qnode *in = isnot ? k->kid[0] : k;
		bool games = rl_fts_has_games(in);
		if (!isnot && rl_fts_sayable(k) && !(games && rl_fts_has_not(k))) {
			if (pos.len)
				rl_buf_adds(&pos, " AND ");
			rl_fts_expr_games(&pos, k, &c->mgames);
			/* other games' equivalents drive, the condition decides */
			if (games)
				rc = add_sql_cond(x, k, true);
		} else if (isnot && rl_fts_sayable(in) && !games) {
			if (neg.len)
				rl_buf_adds(&neg, " OR ");
			rl_fts_expr(&neg, in, false);
		} else if (k->kind == QN_FIELD) {
			struct rl_cond f;
			if (!(rc = rl_field_sql(&x->f, k, true, &f)))
				rc = rl_add_cond(c, f);
		} else {
			rc = add_sql_cond(x, k, false);
		}
	}
	/* (a buffer whose first allocation failed is empty: read as no
	 * words, it searched every ruling) */
	if (!rc && (c->mgames.oom || pos.oom || neg.oom))
		rc = RL_ENOMEM;
	if (!rc && pos.len) {
		struct rl_buf m = {0};
		if (neg.len)
			rl_buf_addf(&m, "(%s) NOT (%s)", pos.s, neg.s);
		else
			rl_buf_adds(&m, pos.s);
		if (m.oom || !(c->match = rl_buf_take(&m)))
			rc = RL_ENOMEM;
		else
			rc = rl_param(&c->p, c->match, false, &c->match_i);
	} else if (!rc && neg.len) {
		struct rl_buf b = {0};
		if (!(rc = sub_cond(x, &neg, &b))) {
			char *s = rl_buf_take(&b);
			struct rl_buf nb = {0};
			rl_buf_addf(&nb, "NOT (%s)", s ? s : "");
			free(s);
			rc = rl_add_cond(c, (struct rl_cond){
				.rows = rl_buf_take(&nb), .subs = true });
		}
	}
	struct rl_buf rank = {0}, first = {0};
	if (!rc)
		rc = positives(x, root, c->match ? NULL : &rank, &first);
	if (!rc && rank.len) {
		if (rank.oom || !(c->rank = rl_buf_take(&rank)))
			rc = RL_ENOMEM;
		else
			rc = rl_param(&c->p, c->rank, false, &c->rank_i);
	}
	if (!rc && first.len) {
		struct rl_buf f = {0};
		rl_buf_addf(&f, "r.rule IN (%s)", first.s);
		if (f.oom || !(c->first = rl_buf_take(&f)))
			rc = RL_ENOMEM;
	}
	rl_buf_free(&pos);
	rl_buf_free(&neg);
	rl_buf_free(&rank);
	rl_buf_free(&first);
	return rc;
}

/* ---- the whole query ---------------------------------------------------------- */

/* The value of a field that the whole query requires (a top clause), or
 * NULL: game: scopes the thesaurus, lang: picks the full-text tables. */
static const char *required(const struct qnode *root, enum qn_field f)
{
	if (!root)
		return NULL;
	const struct qnode *const *cl = root->kind == QN_AND
		? (const struct qnode *const *)root->kid : &root;
	size_t n = root->kind == QN_AND ? root->nkid : 1;
	const char *v = NULL;
	for (size_t i = 0; i < n; i++)
		if (cl[i]->kind == QN_FIELD && cl[i]->field == f && !cl[i]->prefix) {
			if (v)
				return NULL;   /* two: they say nothing simple */
			v = cl[i]->text;
		}
	return v;
}

int rl_compile_check(rl_db *db, const struct rl_query *q, bool by_id,
                     bool check, struct rl_compiled *c)
{
	*c = (struct rl_compiled){0};
	struct qc x = { .q = q };
	x.f = (struct rl_filter_ctx){ .db = db, .c = c, .scope = q->game,
		.no_thesaurus = q->no_thesaurus, .by_id = by_id, .check = check };
	c->lang = q->lang && strcmp(q->lang, "any") != 0 ? q->lang : NULL;
	struct qnode *root = NULL;
	int rc = RL_OK;
	if (q->nwords && q->raw) {
		struct rl_buf b = {0};
		for (size_t i = 0; i < q->nwords; i++) {
			if (i)
				rl_buf_addc(&b, ' ');
			rl_buf_adds(&b, q->words[i]);
		}
		if (b.oom || !(c->match = rl_buf_take(&b)))
			rc = RL_ENOMEM;
		else
			rc = rl_param(&c->p, c->match, false, &c->match_i);
	} else if (q->nwords && !(rc = rl_qparse(q->words, q->nwords, &root))) {
		/* words that parse to nothing at all ('*', '""', '()') hold
		 * nothing to find, as a word of punctuation does: they match
		 * nothing rather than everything */
		bool empty = !root;
		if (root && !(rc = resolve_whole(&x, &root)))
			root = rl_qnormalize(root);
		if (!x.f.scope)
			x.f.scope = required(root, QF_GAME);
		const char *lang = c->lang ? NULL : required(root, QF_LANG);
		if (lang && strcmp(lang, "any") != 0) {
			if (!(c->lang_own = rl_fold(lang)))
				rc = RL_ENOMEM;
			c->lang = c->lang_own;
		}
		if (root && !(x.tok = rl_tokcount_open(rl_db_fts5(db))))
			rc = rl_db_fail(db, RL_EINTERNAL, "cannot open a tokenizer");
		bool positive_text = false;
		elide(root);
		int other = rc || !root ? 0 : other_word(&x, root, false);
		if (other < 0)
			rc = RL_ENOMEM;
		if (!rc && root)
			rc = annotate(&x, &root, true, other > 0, &positive_text);
		root = rc ? root : rl_qnormalize(root);
		c->nothing = !rc && !root && (positive_text || empty);
		if (!rc && root) {
			struct rl_buf b = {0};
			rl_qnode_print(&b, root);
			if (b.oom || !(c->read_as = rl_buf_take(&b)))
				rc = RL_ENOMEM;
		}
		if (!rc && root)
			rc = compile_tree(&x, root);
	}
	/* after the words, so that an unknown name in them is said first */
	if (!rc || rc == RL_NOTFOUND) {
		int orc = rl_option_conds(&x.f, q);
		if (!rc)
			rc = orc;
	}
	if (!rc && !q->include_withdrawn && !q->as_of && !c->withdrawn)
		rc = rl_add_cond(c, (struct rl_cond){
			.rows = rl_strdup("r.withdrawn_at IS NULL"),
			.kind = RL_COND_SHOWN });
	if (rc == RL_EUSAGE && !q->raw)
		rc = rl_db_fail(db, RL_EUSAGE, "the query is too long (SQLite takes"
		                " at most 32,000 values)");
	rl_qnode_free(root);
	rl_tokcount_close(x.tok);
	sqlite3_finalize(x.f.syn);
	return rc;
}

int rl_compile(rl_db *db, const struct rl_query *q, bool by_id,
               struct rl_compiled *c)
{
	return rl_compile_check(db, q, by_id, true, c);
}
