/* stemtok.c — the rl_stem FTS5 tokenizer: unicode61 plus Snowball stemming
 * for English, French and Russian.
 *
 *   tokenize = 'rl_stem LANG'       LANG: en, fr or none (for Latin script)
 *   tokenize = 'rl_stem en fr'      both: each Latin word indexed under the
 *                                   stems of both languages (colocated)
 *
 * unicode61 (remove_diacritics 2, and U+02BC as a separator) splits the
 * text, folds case and removes diacritics; then each token is stemmed by its script: Cyrillic tokens by
 * the Russian stemmer (after ё→е), Latin tokens by the stemmer of LANG, the
 * language of the table (one FTS table per language, see schema/), other
 * tokens are left alone. Folding comes before stemming, for documents and
 * queries alike, so "désolées" and "desolees" meet at one stem.
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
};

struct call {
	struct stemtok *t;
	void *ctx;
	int (*xToken)(void *, int, const char *, int, int, int);
	int flags;
	char *buf;
	size_t cap;
};

/* unicode61 as rl_stem wraps it: diacritics removed, and U+02BC, the
 * modifier letter apostrophe (a letter to Unicode), a separator as ' and
 * ’ are, since identity folds it to ' (rl_fold). */
static const char *const unicode61_args[] = {
	"remove_diacritics", "2", "separators", "\xCA\xBC",
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
	const char *lang = argc > 0 ? argv[0] : "none";
	const char *lang2 = argc > 1 ? argv[1] : NULL;
	if (argc > 2 || (strcmp(lang, "none") != 0 && !algorithm(lang)) ||
	    (lang2 && (!algorithm(lang) || !algorithm(lang2))))
		return SQLITE_ERROR;
	struct stemtok *t = sqlite3_malloc(sizeof *t);
	if (!t)
		return SQLITE_NOMEM;
	memset(t, 0, sizeof *t);
	void *udata = NULL;
	int rc = api->xFindTokenizer(api, "unicode61", &udata, &t->inner_api);
	if (rc == SQLITE_OK) {
		rc = t->inner_api.xCreate(udata, (const char **)unicode61_args,
		                          UNICODE61_ARGC, &t->inner);
	}
	if (rc == SQLITE_OK) {
		const char *alg = algorithm(lang);
		t->cyrillic = sb_stemmer_new("russian", "UTF_8");
		if (alg)
			t->latin = sb_stemmer_new(alg, "UTF_8");
		if (lang2)
			t->latin2 = sb_stemmer_new(algorithm(lang2), "UTF_8");
		if (!t->cyrillic || (alg && !t->latin) || (lang2 && !t->latin2))
			rc = SQLITE_NOMEM;
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

static int on_token(void *p, int tflags, const char *tok, int n, int start,
                    int end)
{
	struct call *c = p;
	if (n <= 0)
		return SQLITE_OK;
	if ((size_t)n + 1 > c->cap) {
		size_t cap = (size_t)n * 2 + 16;
		char *b = sqlite3_realloc64(c->buf, cap);
		if (!b)
			return SQLITE_NOMEM;
		c->buf = b;
		c->cap = cap;
	}
	/* ё (D1 91) → е (D0 B5); unicode61 keeps them apart. */
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

static int tokenize(Fts5Tokenizer *p, void *ctx, int flags, const char *text,
                    int n, int (*xToken)(void *, int, const char *, int, int, int))
{
	struct stemtok *t = (struct stemtok *)p;
	struct call c = { t, ctx, xToken, flags, NULL, 0 };
	int rc = t->inner_api.xTokenize(t->inner, &c, flags, text, n, on_token);
	sqlite3_free(c.buf);
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

int rl_stemtok_register(sqlite3 *db)
{
	static fts5_tokenizer methods = { create, destroy, tokenize };
	fts5_api *api = rl_fts5_api(db);
	if (!api)
		return SQLITE_ERROR;
	return api->xCreateTokenizer(api, "rl_stem", api, &methods, NULL);
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

struct rl_tokcount *rl_tokcount_open(sqlite3 *db)
{
	fts5_api *api = rl_fts5_api(db);
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
	struct rl_tokcount *c = rl_tokcount_open(db);
	if (!c)
		return -1;
	int count = rl_tokcount(c, text, n);
	rl_tokcount_close(c);
	return count;
}
