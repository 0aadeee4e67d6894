/* stemtok.c — the rl_stem FTS5 tokenizer: unicode61 plus Snowball stemming
 * for English, French and Russian.
 *
 *   tokenize = 'rl_stem 3 LANG'     LANG: en, fr or none (for Latin script)
 *   tokenize = 'rl_stem 3 en fr'    both: each Latin word indexed under the
 *                                   stems of both languages (colocated)
 *   tokenize = 'rl_stem 2 LANG'     version 2, as databases of schema 11 and
 *                                   12 declare it (see below)
 *   tokenize = 'rl_stem LANG'       version 1, as databases before schema
 *                                   11 declare it
 *
 * unicode61 (U+02BC as a separator) splits the text and folds case; each
 * token is stemmed by its script: Cyrillic tokens by the Russian stemmer
 * (after ё→е), Latin tokens by the stemmer of LANG, the language of the
 * table (one FTS table per language, see schema/); other tokens are left
 * alone.
 *
 * Version 2 stems the word as written, accents kept, and then folds the
 * stem (diacritics removed, as unicode61's remove_diacritics 2 does): the
 * French stemmer knows its accented endings, so "défausse", "défausser",
 * "défaussée" and "défaussez" all become "defauss", and "épuisé",
 * "épuisée" and "épuiser" "epuis". In documents a Latin word with an
 * accent is also indexed under the stem of its folded form, at the same
 * position: a query typed without accents ("defaussee", stemmed as it is)
 * finds what it found before. Version 1 folded first and stemmed the
 * folded word, which hid the endings from the stemmer ("défaussée" became
 * "defaussee", then "defausse"; "épuiser" "epuis" but "épuisée" "epuise").
 * The version is part of the table's declaration, so a database keeps the
 * tokenizer its index was made with until schema 11 rebuilds it.
 *
 * Version 3 is version 2 and, for French words, one more form in
 * documents: the root of a first-group verb's paradigm (see verb_root());
 * in a query a word that has such a root is that root alone. Snowball
 * leaves some inflections of one verb apart — the third person plural
 * ("défaussent" stays "défaussent"), verbs in -ier ("modifie" "modif",
 * "modifier" "modifi"), -yer ("paye" "pay", "payer" "pai"), words too
 * short for its rules ("entre", "entrer") — and their roots meet. For
 * other languages version 3 is version 2; schema 12 declares it for the
 * French table only.
 *
 * In documents the unstemmed (folded) token is indexed too, at the same
 * position (FTS5_TOKEN_COLOCATED), so that prefix queries — which are not
 * stemmed — match the words as written: "атакую*" finds "атакующий". Query
 * terms are stemmed unless they are a prefix.
 *
 * The same file builds into the library and into the loadable extension
 * (RL_EXTENSION), so the sqlite3 shell can query a rulings database. */
#ifdef RL_EXTENSION
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#else
#include <sqlite3.h>
#endif

#include "stemtok.h"

#include <libstemmer.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct stemtok {
	fts5_tokenizer inner_api;
	Fts5Tokenizer *inner;
	struct sb_stemmer *latin;   /* NULL: Latin script is not stemmed */
	struct sb_stemmer *latin2;  /* a second Latin language, or NULL */
	struct sb_stemmer *cyrillic;
	int version;                /* 1: fold, then stem; 2: stem, then fold;
	                             * 3: 2 and French verb roots */
	struct sb_stemmer *french;  /* version 3: latin or latin2 when it is
	                             * French, or NULL */
	Fts5Tokenizer *fold;        /* version 2: unicode61 folding a stem */
};

/* A growing byte buffer of a tokenize call. */
struct bytes {
	char *p;
	size_t len, cap;
};

enum { MAX_FORMS = 7 };

struct call {
	struct stemtok *t;
	void *ctx;
	int (*xToken)(void *, int, const char *, int, int, int);
	int flags;
	char *buf;
	size_t cap;
	/* version 2: the token's forms given so far (offsets into seen),
	 * the folding's output, and the token's place */
	struct bytes seen, folded;
	size_t off[MAX_FORMS];
	int len[MAX_FORMS], nforms;
	int tflags, start, end;
};

/* unicode61 as rl_stem wraps it: diacritics removed, and U+02BC, the
 * modifier letter apostrophe (a letter to Unicode), a separator as ' and
 * ’ are, since identity folds it to ' (rl_fold). */
static const char *const unicode61_args[] = {
	"remove_diacritics", "2", "separators", "\xCA\xBC",
};
static const char *const unicode61_v2_args[] = {
	"remove_diacritics", "0", "separators", "\xCA\xBC",
};
enum { UNICODE61_ARGC = 4 };

static const char *algorithm(const char *lang)
{
	if (strcmp(lang, "en") == 0)
		return "english";
	if (strcmp(lang, "fr") == 0)
		return "french";
	if (strcmp(lang, "ru") == 0)
		return "russian";
	return NULL;
}

static void destroy(Fts5Tokenizer *p)
{
	struct stemtok *t = (struct stemtok *)p;
	if (!t)
		return;
	if (t->inner)
		t->inner_api.xDelete(t->inner);
	if (t->fold)
		t->inner_api.xDelete(t->fold);
	if (t->latin)
		sb_stemmer_delete(t->latin);
	if (t->latin2)
		sb_stemmer_delete(t->latin2);
	if (t->cyrillic)
		sb_stemmer_delete(t->cyrillic);
	sqlite3_free(t);
}

static int create(void *api_ptr, const char **argv, int argc, Fts5Tokenizer **out)
{
	fts5_api *api = api_ptr;
	*out = NULL;
	/* a first argument "1", "2" or "3" is the version; without, 1 */
	int version = 1;
	if (argc > 0 && (strcmp(argv[0], "1") == 0 || strcmp(argv[0], "2") == 0 ||
	                 strcmp(argv[0], "3") == 0)) {
		version = argv[0][0] - '0';
		argv++;
		argc--;
	}
	const char *lang = argc > 0 ? argv[0] : "none";
	const char *lang2 = argc > 1 ? argv[1] : NULL;
	if (argc > 2 || (strcmp(lang, "none") != 0 && !algorithm(lang)) ||
	    (lang2 && (!algorithm(lang) || !algorithm(lang2))))
		return SQLITE_ERROR;
	struct stemtok *t = sqlite3_malloc(sizeof *t);
	if (!t)
		return SQLITE_NOMEM;
	memset(t, 0, sizeof *t);
	t->version = version;
	void *udata = NULL;
	int rc = api->xFindTokenizer(api, "unicode61", &udata, &t->inner_api);
	if (rc == SQLITE_OK) {
		rc = t->inner_api.xCreate(udata, (const char **)(version >= 2
		                          ? unicode61_v2_args : unicode61_args),
		                          UNICODE61_ARGC, &t->inner);
	}
	if (rc == SQLITE_OK && version >= 2)
		rc = t->inner_api.xCreate(udata, (const char **)unicode61_args,
		                          UNICODE61_ARGC, &t->fold);
	if (rc == SQLITE_OK) {
		const char *alg = algorithm(lang);
		t->cyrillic = sb_stemmer_new("russian", "UTF_8");
		if (alg)
			t->latin = sb_stemmer_new(alg, "UTF_8");
		if (lang2)
			t->latin2 = sb_stemmer_new(algorithm(lang2), "UTF_8");
		if (!t->cyrillic || (alg && !t->latin) || (lang2 && !t->latin2))
			rc = SQLITE_NOMEM;
		if (version >= 3)
			t->french = strcmp(lang, "fr") == 0 ? t->latin
			            : lang2 && strcmp(lang2, "fr") == 0 ? t->latin2
			            : NULL;
	}
	if (rc != SQLITE_OK) {
		destroy((Fts5Tokenizer *)t);
		return rc;
	}
	*out = (Fts5Tokenizer *)t;
	return SQLITE_OK;
}

/* The stemmer for a folded token by its script, or NULL. */
static struct sb_stemmer *pick(const struct stemtok *t, const char *s, int n)
{
	for (int i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == 0xD0 || c == 0xD1)
			return t->cyrillic;   /* U+0400..U+047F */
		if ((c >= 'a' && c <= 'z'))
			return t->latin;
	}
	return NULL;
}

/* Copies the token to c->buf with ё (D1 91) as е (D0 B5), which
 * unicode61 keeps apart; its length, or -1 out of memory. */
static int copy_word(struct call *c, const char *tok, int n)
{
	if ((size_t)n + 1 > c->cap) {
		size_t cap = (size_t)n * 2 + 16;
		char *b = sqlite3_realloc64(c->buf, cap);
		if (!b)
			return -1;
		c->buf = b;
		c->cap = cap;
	}
	int m = 0;
	for (int i = 0; i < n; i++) {
		if ((unsigned char)tok[i] == 0xD1 && i + 1 < n &&
		    (unsigned char)tok[i + 1] == 0x91) {
			c->buf[m++] = (char)0xD0;
			c->buf[m++] = (char)0xB5;
			i++;
		} else {
			c->buf[m++] = tok[i];
		}
	}
	c->buf[m] = '\0';
	return m;
}

static int on_token_v2(struct call *c, int m);

static int on_token(void *p, int tflags, const char *tok, int n, int start,
                    int end)
{
	struct call *c = p;
	if (n <= 0)
		return SQLITE_OK;
	int m = copy_word(c, tok, n);
	if (m < 0)
		return SQLITE_NOMEM;
	if (c->t->version >= 2) {
		c->tflags = tflags;
		c->start = start;
		c->end = end;
		return on_token_v2(c, m);
	}
	struct sb_stemmer *st = pick(c->t, c->buf, m);
	bool prefix = (c->flags & FTS5_TOKENIZE_PREFIX) != 0;
	if (!st || prefix)
		return c->xToken(c->ctx, tflags, c->buf, m, start, end);
	const sb_symbol *stem = sb_stemmer_stem(st, (const sb_symbol *)c->buf, m);
	if (!stem)
		return SQLITE_NOMEM;
	int sn = sb_stemmer_length(st);
	int rc = c->xToken(c->ctx, tflags, (const char *)stem, sn, start, end);
	if (rc == SQLITE_OK && st == c->t->latin && c->t->latin2) {
		/* The second language's stem, at the same place (a copy: the
		 * stemmer's buffer is its own). */
		const sb_symbol *s2 = sb_stemmer_stem(c->t->latin2,
		                                      (const sb_symbol *)c->buf, m);
		if (!s2)
			return SQLITE_NOMEM;
		int n2 = sb_stemmer_length(c->t->latin2);
		if (n2 != sn || memcmp(s2, stem, (size_t)sn) != 0)
			rc = c->xToken(c->ctx, tflags | FTS5_TOKEN_COLOCATED,
			               (const char *)s2, n2, start, end);
	}
	if (rc == SQLITE_OK && (c->flags & FTS5_TOKENIZE_DOCUMENT) &&
	    (sn != m || memcmp(stem, c->buf, (size_t)m) != 0))
		rc = c->xToken(c->ctx, tflags | FTS5_TOKEN_COLOCATED, c->buf, m,
		               start, end);
	return rc;
}

/* ---- version 2: stem the word as written, then fold the stem ---------- */

static bool is_ascii(const char *s, int n)
{
	for (int i = 0; i < n; i++)
		if ((unsigned char)s[i] >= 0x80)
			return false;
	return true;
}

static int bytes_add(struct bytes *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n) * 2 + 32;
		char *p = sqlite3_realloc64(b->p, cap);
		if (!p)
			return SQLITE_NOMEM;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return SQLITE_OK;
}

static int fold_token(void *p, int tflags, const char *tok, int n, int start,
                      int end)
{
	(void)tflags;
	(void)start;
	(void)end;
	return bytes_add(p, tok, (size_t)n);
}

/* s[0..n) folded as unicode61 (remove_diacritics 2) folds it, in
 * c->folded (reset first). */
static int fold(struct call *c, const char *s, int n)
{
	c->folded.len = 0;
	if (is_ascii(s, n))
		return bytes_add(&c->folded, s, (size_t)n);
	int rc = bytes_add(&c->folded, "", 0);
	if (rc == SQLITE_OK)
		rc = c->t->inner_api.xTokenize(c->t->fold, &c->folded,
		                               FTS5_TOKENIZE_DOCUMENT, s, n,
		                               fold_token);
	return rc;
}

/* Gives one form of the current token: the first at its own position,
 * the others colocated; a form given already is not given again. */
static int give(struct call *c, const char *s, int n)
{
	if (n <= 0)
		return SQLITE_OK;
	for (int i = 0; i < c->nforms; i++)
		if (c->len[i] == n && memcmp(c->seen.p + c->off[i], s, (size_t)n) == 0)
			return SQLITE_OK;
	if (c->nforms == MAX_FORMS)
		return SQLITE_OK;
	int flags = c->nforms ? c->tflags | FTS5_TOKEN_COLOCATED : c->tflags;
	c->off[c->nforms] = c->seen.len;
	c->len[c->nforms] = n;
	int rc = bytes_add(&c->seen, s, (size_t)n);
	if (rc != SQLITE_OK)
		return rc;
	c->nforms++;
	return c->xToken(c->ctx, flags, s, n, c->start, c->end);
}

/* The folded stem of c->buf[0..m) by st. */
static int give_stem(struct call *c, struct sb_stemmer *st, const char *w,
                     int m)
{
	const sb_symbol *stem = sb_stemmer_stem(st, (const sb_symbol *)w, m);
	if (!stem)
		return SQLITE_NOMEM;
	int rc = fold(c, (const char *)stem, sb_stemmer_length(st));
	return rc == SQLITE_OK ? give(c, c->folded.p, (int)c->folded.len) : rc;
}

/* ---- version 3: French verb roots ---------------------------------- */

/* Words in -ent that are no verb's third person plural and whose root
 * would meet an unrelated word ("comment" "comme", "présent" "près",
 * "parent" "par", "dément" "demi"), folded: chosen from the -ent words of
 * the Marvel Champions glossary and of the wfrench word list whose root
 * is another word's stem or root. Sorted, for bsearch. */
static const char *const not_plurals[] = {
	"absent", "argent", "ciment", "client", "comment", "content", "decent",
	"dement", "moment", "parent", "patient", "present", "prudent", "recent",
	"regiment", "sergent", "serpent", "souvent", "talent", "urgent",
	"violent",
};

static int cmp_word(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The length of the root of the French word w[0..n), as written (lower
 * case), or 0: the word less the longest ending of a first-group verb's
 * paradigm it has (-ent, -ées, -ée, -és, -er, -ez, -es, -é, -e; and -ees,
 * -ee typed without accents), when three letters or more are left. A word
 * in -ent is no verb when it is written -ement (adverbs and nouns,
 * "seulement", "mouvement"; "sèment" is a verb) or when folded, f, it is
 * one of not_plurals. "après" and "accès" end in no ending. */
static int verb_root(const char *w, int n, const char *f)
{
	static const char *const ends[] = {
		"ent", "\xC3\xA9" "es", "ees", "\xC3\xA9" "e", "ee",
		"\xC3\xA9" "s", "er", "ez", "es", "\xC3\xA9", "e",
	};
	for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
		int e = (int)strlen(ends[i]);
		if (n <= e || memcmp(w + n - e, ends[i], (size_t)e) != 0)
			continue;
		int letters = 0;
		for (int j = 0; j < n - e; j++)
			letters += ((unsigned char)w[j] & 0xC0) != 0x80;
		if (letters < 3)
			continue;
		if (i == 0 && ((n >= 5 && memcmp(w + n - 5, "ement", 5) == 0) ||
		               bsearch(&f, not_plurals, sizeof not_plurals /
		                       sizeof *not_plurals, sizeof *not_plurals,
		                       cmp_word)))
			return 0;
		return n - e;
	}
	return 0;
}

/* Version 3: gives the folded root of a French word (c->buf[0..m)) if it
 * has one, and says whether it has. */
static int give_root(struct call *c, int m, bool *rooted)
{
	int rc = fold(c, c->buf, m);
	if (rc != SQLITE_OK)
		return rc;
	int r = verb_root(c->buf, m, c->folded.p);
	*rooted = r > 0;
	if (r)
		rc = fold(c, c->buf, r);
	return r && rc == SQLITE_OK ? give(c, c->folded.p, (int)c->folded.len)
	                            : rc;
}

/* Versions 2 and 3. The forms of a token, first to last: version 3, for a
 * French word, its verb root; the folded stem (of each Latin language; in
 * a query of version 3 not the French one when there is a root); in
 * documents, for a Latin word with an accent, the stem of the folded
 * word (what a query without accents stems to), then the folded word as
 * written (for prefixes). A prefix query, or a word of no stemmed script,
 * is the folded word alone. */
static int on_token_v2(struct call *c, int m)
{
	c->nforms = 0;
	c->seen.len = 0;
	struct sb_stemmer *st = pick(c->t, c->buf, m);
	bool prefix = (c->flags & FTS5_TOKENIZE_PREFIX) != 0;
	bool doc = (c->flags & FTS5_TOKENIZE_DOCUMENT) != 0;
	int rc = SQLITE_OK;
	if (st && !prefix) {
		/* version 3: a French word's verb root; in a query it stands
		 * alone for the word, the French stem left out (every form of
		 * the paradigm gives that root and nothing else, so each finds
		 * what the others find) */
		bool rooted = false;
		if (c->t->french && st == c->t->latin)
			rc = give_root(c, m, &rooted);
		bool alone = rooted && !doc;
		if (rc == SQLITE_OK && !(alone && c->t->latin == c->t->french))
			rc = give_stem(c, st, c->buf, m);
		if (rc == SQLITE_OK && st == c->t->latin && c->t->latin2 &&
		    !(alone && c->t->latin2 == c->t->french))
			rc = give_stem(c, c->t->latin2, c->buf, m);
	}
	if (rc != SQLITE_OK || (st && !prefix && !doc))
		return rc;
	rc = fold(c, c->buf, m);
	if (rc != SQLITE_OK || !st || prefix)
		return rc == SQLITE_OK ? give(c, c->folded.p, (int)c->folded.len)
		                       : rc;
	if (st == c->t->latin && !is_ascii(c->buf, m)) {
		/* the folded word's stems (a copy of it: give_stem() folds
		 * into c->folded) */
		int fn = (int)c->folded.len;
		char small[64];
		char *w = fn < (int)sizeof small ? small : sqlite3_malloc(fn + 1);
		if (!w)
			return SQLITE_NOMEM;
		memcpy(w, c->folded.p, (size_t)fn);
		rc = give_stem(c, c->t->latin, w, fn);
		if (rc == SQLITE_OK && c->t->latin2)
			rc = give_stem(c, c->t->latin2, w, fn);
		if (rc == SQLITE_OK)
			rc = give(c, w, fn);
		if (w != small)
			sqlite3_free(w);
		return rc;
	}
	return give(c, c->folded.p, (int)c->folded.len);
}

/* FTS5_TOKENIZE_AUX, versions 2 and 3: a document's text tokenized again
 * for an auxiliary function (snippet(), highlight()), which counts the
 * places of the tokens that are not colocated and reads their offsets,
 * never their text. So one token a place, where a document has one: a
 * document gives a word a place when one of its forms is not empty,
 * which is when the word folded is not (a word of a stemmed script holds
 * a letter that folds to itself, and its folded form is one of its
 * forms; another word's only form is its folded form). The token is the
 * word folded, not stemmed: stemming each word of the 20 texts a search
 * shows was a fifth of a whole search's instructions (bench/RESULTS.md,
 * session 13). */
static int on_token_aux(void *p, int tflags, const char *tok, int n,
                        int start, int end)
{
	struct call *c = p;
	if (n <= 0)
		return SQLITE_OK;
	int rc = fold(c, tok, n);
	if (rc != SQLITE_OK || c->folded.len == 0)
		return rc;
	return c->xToken(c->ctx, tflags, c->folded.p, (int)c->folded.len, start,
	                 end);
}

static int tokenize(Fts5Tokenizer *p, void *ctx, int flags, const char *text,
                    int n, int (*xToken)(void *, int, const char *, int, int, int))
{
	struct stemtok *t = (struct stemtok *)p;
	struct call c = { .t = t, .ctx = ctx, .xToken = xToken, .flags = flags };
	bool aux = (flags & FTS5_TOKENIZE_AUX) && t->version >= 2;
	int rc = t->inner_api.xTokenize(t->inner, &c, flags, text, n,
	                                aux ? on_token_aux : on_token);
	sqlite3_free(c.buf);
	sqlite3_free(c.seen.p);
	sqlite3_free(c.folded.p);
	return rc;
}

fts5_api *rl_fts5_api(sqlite3 *db)
{
	fts5_api *api = NULL;
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_pointer(st, 1, (void *)&api, "fts5_api_ptr", NULL);
	sqlite3_step(st);
	sqlite3_finalize(st);
	return api;
}

int rl_stemtok_register_api(fts5_api *api)
{
	static fts5_tokenizer methods = { create, destroy, tokenize };
	if (!api)
		return SQLITE_ERROR;
	return api->xCreateTokenizer(api, "rl_stem", api, &methods, NULL);
}

int rl_stemtok_register(sqlite3 *db)
{
	return rl_stemtok_register_api(rl_fts5_api(db));
}

static int count_token(void *ctx, int tflags, const char *tok, int n, int start,
                       int end)
{
	if (!(tflags & FTS5_TOKEN_COLOCATED))
		++*(int *)ctx;
	return SQLITE_OK;
}

struct rl_tokcount {
	fts5_tokenizer m;
	Fts5Tokenizer *t;
};

struct rl_tokcount *rl_tokcount_open(fts5_api *api)
{
	void *udata = NULL;
	struct rl_tokcount *c = sqlite3_malloc(sizeof *c);
	if (!c)
		return NULL;
	if (!api || api->xFindTokenizer(api, "unicode61", &udata, &c->m) != SQLITE_OK ||
	    c->m.xCreate(udata, (const char **)unicode61_args, UNICODE61_ARGC,
	                 &c->t) != SQLITE_OK) {
		sqlite3_free(c);
		return NULL;
	}
	return c;
}

int rl_tokcount(struct rl_tokcount *c, const char *text, int n)
{
	int count = 0;
	int rc = c->m.xTokenize(c->t, &count, FTS5_TOKENIZE_QUERY, text, n,
	                        count_token);
	return rc == SQLITE_OK ? count : -1;
}

void rl_tokcount_close(struct rl_tokcount *c)
{
	if (!c)
		return;
	c->m.xDelete(c->t);
	sqlite3_free(c);
}

int rl_stemtok_count(sqlite3 *db, const char *text, int n)
{
	struct rl_tokcount *c = rl_tokcount_open(rl_fts5_api(db));
	if (!c)
		return -1;
	int count = rl_tokcount(c, text, n);
	rl_tokcount_close(c);
	return count;
}
