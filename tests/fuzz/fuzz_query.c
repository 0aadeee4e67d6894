/* fuzz_query.c — the libFuzzer target for the query builder. The input is
 * split at NUL bytes into the words a user typed; the first byte chooses
 * rl_fts_query() (even) or rl_fts_query_expand() (odd), whose expansion, as
 * search's does, drops terms with no token (asking the rl_stem tokenizer)
 * and adds alternatives (here: the term's bytes reversed and the term with
 * a double quote, which must be quoted too). Whatever the builder makes is
 * run as a MATCH against a small in-memory FTS5 table with the real
 * tokenizer: SQLite must accept every query we produce, so an SQLite error
 * is a bug (abort). */
#include "rulings.h"
#include "stemtok.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static sqlite3 *db;
static sqlite3_stmt *match;

static void setup(void)
{
	if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
	    rl_stemtok_register(db) != SQLITE_OK ||
	    sqlite3_exec(db,
	        "CREATE VIRTUAL TABLE t USING fts5(title, body, "
	        "  tokenize = 'rl_stem en');"
	        "INSERT INTO t VALUES ('Speed (Fast)', 'A fast unit attacks "
	        "  first: first-strike, 702.19a, don''t');"
	        "INSERT INTO t VALUES ('Défendre', 'Une unité défend; ёлка и "
	        "  атака');", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT rowid, bm25(t), snippet(t, 1, '[', "
	                       "']', '…', 8) FROM t WHERE t MATCH ?1 "
	                       "ORDER BY bm25(t)", -1, &match, NULL) != SQLITE_OK) {
		fprintf(stderr, "fuzz_query: setup: %s\n", sqlite3_errmsg(db));
		abort();
	}
}

static char *dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

static int expand(void *ctx, const char *term, size_t len, char ***alts,
                  bool *drop)
{
	(void)ctx;
	int tokens = rl_stemtok_count(db, term, (int)len);
	if (tokens < 0)
		return RL_EINTERNAL;
	*drop = tokens == 0;
	if (*drop || !alts)
		return RL_OK;
	char **v = calloc(3, sizeof *v);
	if (!v)
		return RL_ENOMEM;
	v[0] = dup_n(term, len);
	v[1] = malloc(len + 2);
	if (!v[0] || !v[1]) {
		free(v[0]);
		free(v[1]);
		free(v);
		return RL_ENOMEM;
	}
	for (size_t i = 0; i < len; i++)
		v[0][i] = term[len - 1 - i];
	memcpy(v[1], term, len);
	v[1][len] = '"';
	v[1][len + 1] = '\0';
	*alts = v;
	return RL_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!db)
		setup();
	if (size == 0 || size > 4096)
		return 0;
	bool with_expand = data[0] & 1;
	const char *text = (const char *)data + 1;
	size_t n = size - 1;
	/* the words: NUL-separated strings (the last one NUL-terminated here) */
	char *buf = dup_n(text, n);
	const char **words = calloc(n + 1, sizeof *words);
	if (!buf || !words)
		abort();
	size_t nw = 0;
	for (size_t i = 0; i <= n; ) {
		words[nw++] = buf + i;
		i += strlen(buf + i) + 1;
	}
	char *q = NULL;
	int rc = with_expand
	         ? rl_fts_query_expand(words, nw, expand, NULL, &q)
	         : rl_fts_query(words, nw, &q);
	if (rc != RL_OK)
		abort();
	if (q) {
		sqlite3_bind_text(match, 1, q, -1, SQLITE_STATIC);
		int s;
		while ((s = sqlite3_step(match)) == SQLITE_ROW)
			;
		if (s != SQLITE_DONE) {
			fprintf(stderr, "fuzz_query: SQLite rejects %s: %s\n", q,
			        sqlite3_errmsg(db));
			abort();
		}
		sqlite3_reset(match);
		sqlite3_clear_bindings(match);
	}
	free(q);
	free(words);
	free(buf);
	return 0;
}
