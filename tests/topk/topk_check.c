/* topk_check.c — the fast path (src/topk.c) against the
 * exhaustive ranking, in one process: many words drawn from the rulings'
 * own text, each searched with and without filters, once with the
 * champion lists (RULINGS_TOPK unset) and once scoring every match
 * (RULINGS_TOPK=off); the results must be the same rulings in the same
 * order with the same scores, the same total, and "more" alike.
 *
 *   topk_check DB WORDS SEED MIN_FAST
 *
 * WORDS words, WORDS pairs of words (all-words: "a b"; one in four
 * "a OR b") and WORDS/2 words of the thesaurus (widened: ("a" OR "b"),
 * half of them beside another word) from a generator seeded with SEED.
 * Fails when fewer than MIN_FAST percent of the one-word searches, or
 * than MIN_FAST/4 percent of the several-term ones, that the lists could
 * take were answered by them (rl_topk_counts), so that a fast path that
 * never runs cannot pass.
 *
 * And rl_bm25 (src/topk_bm25.c) against FTS5's bm25 on every row of
 * WORDS words and WORDS/2 pairs, in each table where a word has a list:
 * with the lists' counts of rows (while no ruling changed since they
 * were built), with the counts left to it (NULL), equal as doubles (==);
 * with a count one too many, different (for a word under half of the
 * rows: bm25 floors the idf of more). Prints "N passed, N failed".
 *
 *   topk_check DB --reads QUERY...   (reads(), below)
 *   topk_check DB --seeks WORD...    (seeks(), below)
 *   topk_check DB --bound WORDS SEED MIN_FAST   (bound(), below)
 *   topk_check DB --fast LANG WORD...   (fast_words(), below)
 *   topk_check DB --facets used|stale WORD...   (facets(), below)
 *   topk_check DB --sets WORD...                (sets(), below)
 *   topk_check DB --sets-several WORD...        (sets(), below)
 *   topk_check DB --doclist TABLE [doubt|every N]   (doclist(), below)
 *   topk_check DB --exec TABLE SQL              (exec_sql(), below) */
#include "db.h"
#include "ftsseg.h"
#include "topk.h"

#include <sqlite3.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long rng_state;

static unsigned long long rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* A random word of a random ruling's text (title and body). */
static char *random_word(sqlite3 *h, long long maxid)
{
	sqlite3_stmt *st;
	char *w = NULL;
	if (sqlite3_prepare_v2(h, "SELECT title || ' ' || body FROM rulings"
	                       " WHERE id >= ?1 ORDER BY id LIMIT 1", -1, &st,
	                       NULL) != SQLITE_OK)
		return NULL;
	for (int tries = 0; !w && tries < 20; tries++) {
		sqlite3_bind_int64(st, 1, 1 + (long long)(rng() % (unsigned long long)maxid));
		if (sqlite3_step(st) == SQLITE_ROW) {
			const unsigned char *t = sqlite3_column_text(st, 0);
			size_t n = strlen((const char *)t);
			size_t at = n ? rng() % n : 0;
			/* back to the start of the word around at */
			#define LETTER(c) ((c) >= 0x80 || ((c) >= 'a' && (c) <= 'z') || \
			                   ((c) >= 'A' && (c) <= 'Z'))
			while (at > 0 && LETTER(t[at - 1]))
				at--;
			size_t e = at;
			while (e < n && LETTER(t[e]))
				e++;
			if (e - at >= 2)
				w = strndup((const char *)t + at, e - at);
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return w;
}

static char *first_text(sqlite3 *h, const char *sql)
{
	sqlite3_stmt *st;
	char *v = NULL;
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		v = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v;
}

/* A one-word term of the thesaurus (data/thesaurus.txt, imported with
 * the first import), at random. */
static char *thesaurus_word(sqlite3 *h)
{
	sqlite3_stmt *st;
	char *w = NULL;
	if (sqlite3_prepare_v2(h, "SELECT term FROM concept_terms"
	                       " WHERE term NOT LIKE '% %' ORDER BY term"
	                       " LIMIT 1 OFFSET ?1 % (SELECT count(*)"
	                       " FROM concept_terms WHERE term NOT LIKE '% %')",
	                       -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_int64(st, 1, (long long)(rng() % 1000000));
	if (sqlite3_step(st) == SQLITE_ROW)
		w = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return w;
}

static int passed, failed;

/* A tag on a fair share of the rulings: a filter that keeps some. */
static const char tag_sql[] = "SELECT t.name FROM tags t JOIN ruling_tags rt"
	" ON rt.tag_id = t.id GROUP BY t.id ORDER BY count(*) DESC LIMIT 1 OFFSET 3";

static rl_db *open_read(const char *path)
{
	rl_db *db;
	if (rl_db_open(path, RL_OPEN_READ, &db) == RL_OK)
		return db;
	fprintf(stderr, "topk_check: %s\n", rl_db_errmsg(db));
	return NULL;
}

static long long max_id(sqlite3 *h)
{
	sqlite3_stmt *st;
	long long maxid = 1;
	if (sqlite3_prepare_v2(h, "SELECT max(id) FROM rulings", -1, &st, NULL)
	    == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		maxid = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return maxid;
}

static void compare(rl_db *db, const struct rl_query *q, const char *what)
{
	struct rl_results a, b;
	unsetenv("RULINGS_TOPK");
	int ra = rl_search(db, q, &a);
	setenv("RULINGS_TOPK", "off", 1);
	int rb = rl_search(db, q, &b);
	unsetenv("RULINGS_TOPK");
	bool same = ra == rb && a.n == b.n && a.total == b.total;
	size_t at = 0;
	for (; same && at < a.n; at++)
		same = a.v[at].id == b.v[at].id && a.v[at].score == b.v[at].score;
	if (same) {
		passed++;
	} else {
		failed++;
		printf("FAIL %s: status %d/%d, %zu/%zu rows, total %lld/%lld",
		       what, ra, rb, a.n, b.n, a.total, b.total);
		if (at && at <= a.n && at <= b.n)
			printf(", row %zu: %lld (%.17g) vs %lld (%.17g)", at,
			       a.v[at - 1].id, a.v[at - 1].score, b.v[at - 1].id,
			       b.v[at - 1].score);
		printf("\n");
	}
	if (ra == RL_OK || ra == RL_NOTFOUND)
		rl_results_free(&a);
	if (rb == RL_OK || rb == RL_NOTFOUND)
		rl_results_free(&b);
}

/* "a" AND "b", "a" OR "b" or "a": the expression the search makes. */
static char *expression(const char *a, const char *b, bool or)
{
	size_t n = strlen(a) + (b ? strlen(b) : 0) + 16;
	char *e = malloc(n);
	if (e && b)
		snprintf(e, n, "\"%s\" %s \"%s\"", a, or ? "OR" : "AND", b);
	else if (e)
		snprintf(e, n, "\"%s\"", a);
	return e;
}

static const char *const tables[4] = { "en", "fr", "ru", "xx" };

/* bm25 and rl_bm25 with the counts args on every row of expression e in
 * table t (each in a statement of its own: the calls of one function in
 * a statement share the data of its first); *rows compared; *differ
 * rows where the two differ. */
static bool run_bm25(sqlite3 *h, int t, const char *e, const char *args,
                     long long *rows, long long *differ, long long *all)
{
	char *sql = sqlite3_mprintf("SELECT bm25(rulings_fts_%s, 4.0, 1.0),"
		" rl_bm25(rulings_fts_%s, 4.0, 1.0%s),"
		" (SELECT count(*) FROM rulings_fts_%s)"
		" FROM rulings_fts_%s WHERE rulings_fts_%s MATCH ?1",
		tables[t], tables[t], args, tables[t], tables[t], tables[t]);
	sqlite3_stmt *st;
	bool ok = sql && sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK;
	sqlite3_free(sql);
	if (!ok) {
		printf("FAIL rl_bm25 on '%s' in %s: %s\n", e, tables[t],
		       sqlite3_errmsg(h));
		return false;
	}
	sqlite3_bind_text(st, 1, e, -1, SQLITE_STATIC);
	int s;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		++*rows;
		*differ += sqlite3_column_double(st, 0) !=
		           sqlite3_column_double(st, 1);
		*all = sqlite3_column_int64(st, 2);
	}
	if (s != SQLITE_DONE) {
		printf("FAIL rl_bm25 on '%s' in %s: %s\n", e, tables[t],
		       sqlite3_errmsg(h));
		ok = false;
	}
	sqlite3_finalize(st);
	return ok;
}

/* rl_bm25 against bm25 on every row of expression e in table t: given
 * the lists' counts (NULL for a phrase without), and counting them; a
 * count one too many for the first phrase must change a score where bm25
 * does not floor its idf. *rows compared, *sensitive when it did. */
static bool same_bm25(sqlite3 *h, const struct rl_topk *k, int t,
                      const char *e, long long *rows, bool *sensitive)
{
	struct { char *p; size_t n; } given = {0}, none = {0}, plus = {0};
	FILE *fg = open_memstream(&given.p, &given.n);
	FILE *fn = open_memstream(&none.p, &none.n);
	FILE *fp = open_memstream(&plus.p, &plus.n);
	for (size_t i = 0; i < k->nph; i++) {
		if (k->dirty == 0 && k->ph[i].listed[t]) {
			fprintf(fg, ", %lld", k->ph[i].docs0[t]);
			fprintf(fp, ", %lld", k->ph[i].docs0[t] + (i == 0));
		} else {
			fputs(", NULL", fg);
			fputs(", NULL", fp);
		}
		fputs(", NULL", fn);
	}
	fclose(fg);
	fclose(fn);
	fclose(fp);
	long long n = 0, d1 = 0, d2 = 0, d3 = 0, all = 0;
	bool ok = run_bm25(h, t, e, given.p, rows, &d1, &all) &&
	          run_bm25(h, t, e, none.p, &n, &d2, &all) &&
	          run_bm25(h, t, e, plus.p, &n, &d3, &all);
	free(given.p);
	free(none.p);
	free(plus.p);
	if (ok && (d1 || d2)) {
		printf("FAIL rl_bm25 on '%s' in %s: %lld of %lld scores differ"
		       " from bm25's given the counts, %lld counting them\n",
		       e, tables[t], d1, *rows, d2);
		ok = false;
	}
	*sensitive = d3 > 0;
	long long docs = k->ph[0].docs0[t];
	if (ok && k->dirty == 0 && k->ph[0].listed[t] &&
	    2 * (docs + 1) < all && !d3) {
		printf("FAIL rl_bm25 on '%s' in %s: a count one too many (%lld)"
		       " changed no score\n", e, tables[t], docs + 1);
		ok = false;
	}
	return ok;
}

static void check_bm25(rl_db *db, int nwords, long long maxid)
{
	long long rows = 0, sensitive = 0, listed = 0;
	const bool all[4] = { true, true, true, true };
	for (int i = 0; i < nwords + nwords / 2; i++) {
		char *a = random_word(db->h, maxid);
		char *b = i >= nwords ? random_word(db->h, maxid) : NULL;
		char *e = a ? expression(a, b, i % 3 == 0) : NULL;
		struct rl_topk k;
		bool usable = false;
		if (e && rl_topk_plan(db, e, NULL, all, &k, &usable) != RL_OK) {
			printf("FAIL the plan of '%s': %s\n", e, rl_db_errmsg(db));
			failed++;
			usable = false;
		}
		for (int t = 0; usable && t < 4; t++) {
			if (!k.t[t].listed)
				continue;
			bool sens = false;
			listed++;
			if (same_bm25(db->h, &k, t, e, &rows, &sens))
				passed++;
			else
				failed++;
			sensitive += sens;
		}
		if (e)
			rl_topk_free(&k);
		free(a);
		free(b);
		free(e);
	}
	printf("rl_bm25: %lld rows of %lld searches with lists, %lld where a"
	       " count one too many showed\n", rows, listed, sensitive);
	/* a check that compared nothing cannot pass */
	if (rows < 100 * nwords) {
		printf("FAIL rl_bm25 compared on %lld rows only\n", rows);
		failed++;
	}
}

/* topk_check DB --reads QUERY...: each query (a phrase, which no list
 * serves: every match is ranked) searched in a new connection; the
 * pages it read (SQLite's cache misses) must be fewer than a quarter of
 * its matches when it has 400 or more. The rulings of the first 21 by
 * score are read, not every match's (src/search.c, from()): joined
 * first, a phrase in 1,075 of 3,000 rulings read 645 pages; ranked
 * first, 113. */
static int reads(const char *path, int n, char **queries)
{
	passed = failed = 0;
	for (int i = 0; i < n; i++) {
		rl_db *db = open_read(path);
		if (!db)
			return 1;
		const char *w[] = { queries[i] };
		struct rl_query q = { .limit = 20, .words = w, .nwords = 1 };
		struct rl_results r;
		int rc = rl_search(db, &q, &r);
		int misses = 0, hi;
		sqlite3_db_status(db->h, SQLITE_DBSTATUS_CACHE_MISS, &misses, &hi, 0);
		if (rc || r.total < 400 || misses * 4 >= r.total) {
			printf("FAIL reads: %s: %d pages read for %lld matches "
			       "(rc %d)\n", queries[i], misses, r.total, rc);
			failed++;
		} else {
			passed++;
		}
		rl_results_free(&r);
		rl_db_close(db);
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}

static int lookups;

static int count_lookups(unsigned t, void *ctx, void *p, void *x)
{
	const char *sql = sqlite3_sql(p);
	if (sql && strstr(sql, "_idx' WHERE segid"))
		lookups++;
	return 0;
}

/* topk_check DB --seeks WORD...: each word searched in a new connection
 * of a database whose indexes have one segment each (after reindex); the
 * lists must answer it, and FTS5 look its word up (a statement on a
 * table's %_idx) at most limit+2 + 8 times: once for each row's snippet,
 * a few for each table. Every table's candidates were sought in every
 * table where the lists scored them (src/search.c fast_rows): 46 look-ups
 * for `use` at 3,000 rulings; its tables walked, 25. */
static int seeks(const char *path, int n, char **words)
{
	passed = failed = 0;
	for (int i = 0; i < n; i++) {
		rl_db *db = open_read(path);
		if (!db)
			return 1;
		sqlite3_trace_v2(db->h, SQLITE_TRACE_STMT, count_lookups, NULL);
		lookups = 0;
		long long f0, f1, fb;
		rl_topk_counts(&f0, &fb);
		const char *w[] = { words[i] };
		struct rl_query q = { .limit = 20, .words = w, .nwords = 1 };
		struct rl_results r;
		int rc = rl_search(db, &q, &r);
		rl_topk_counts(&f1, &fb);
		if (rc || f1 != f0 + 1 || lookups > 20 + 2 + 8) {
			printf("FAIL seeks: %s: %d look-ups (%s; rc %d)\n", words[i],
			       lookups, f1 != f0 + 1 ? "not from the lists"
			       : "from the lists", rc);
			failed++;
		} else {
			passed++;
		}
		rl_results_free(&r);
		rl_db_close(db);
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}

/* A single-word term of a concept of a game's, at random: searched, it
 * is widened to the concept's other terms for that game's rulings
 * only. */
static char *bound_word(sqlite3 *h)
{
	sqlite3_stmt *st;
	char *w = NULL;
	static const char *const from = " FROM concept_terms t JOIN concepts c"
		" ON c.id = t.concept_id WHERE c.game_id IS NOT NULL"
		" AND t.term NOT LIKE '% %'";
	char sql[512];
	snprintf(sql, sizeof sql, "SELECT t.term%s ORDER BY t.term LIMIT 1"
	         " OFFSET ?1 %% (SELECT count(*)%s)", from, from);
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_int64(st, 1, (long long)(rng() % 1000000));
	if (sqlite3_step(st) == SQLITE_ROW)
		w = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return w;
}

/* topk_check DB --bound WORDS SEED MIN_FAST: WORDS terms of games'
 * concepts (bound_word), each alone and one in three beside a random
 * word, plain and with filters (each game, each language, a tag), the
 * lists against the exhaustive ranking; and at least MIN_FAST percent of
 * those the lists could take must be answered by them (the game lists,
 * schema 15: before them, a term of another game's concept left the
 * bound hopeless, and every match was scored). */
static int bound(const char *path, int nwords, int min_fast)
{
	rl_db *db = open_read(path);
	if (!db)
		return 1;
	sqlite3 *h = db->h;
	long long maxid = max_id(h);
	char *g1 = first_text(h, "SELECT name FROM games ORDER BY id LIMIT 1");
	char *g2 = first_text(h, "SELECT name FROM games ORDER BY id LIMIT 1"
	                      " OFFSET 1");
	char *tag = first_text(h, tag_sql);
	long long fast = 0, all = 0, plain[2] = {0};
	passed = failed = 0;
	for (int i = 0; i < nwords; i++) {
		char *w = bound_word(h), *w2 = NULL;
		if (!w)
			continue;
		const char *words[2] = { w, NULL };
		size_t nw = 1;
		if (i % 3 == 2 && (w2 = random_word(h, maxid)))
			words[nw++] = w2;
		long long f0, b0, f1, b1;
		rl_topk_counts(&f0, &b0);
		for (int f = 0; f < 7; f++) {
			long long pf, pb;
			rl_topk_counts(&pf, &pb);
			struct rl_query q = { .words = words, .nwords = nw,
			                      .limit = 20 };
			const char *tags[1] = { tag };
			switch (f) {
			case 1: q.lang = "en"; break;
			case 2: q.lang = "fr"; break;
			case 3: q.game = g1; break;
			case 4: q.game = g2; break;
			case 5: if (tag) q.tags = tags, q.ntags = 1; break;
			case 6: q.limit = 5; break;
			}
			char what[256];
			snprintf(what, sizeof what, "'%s%s%s' filter %d", w,
			         w2 ? " " : "", w2 ? w2 : "", f);
			compare(db, &q, what);
			if (f == 0) {
				long long qf, qb;
				rl_topk_counts(&qf, &qb);
				plain[0] += qf - pf;
				plain[1] += qf - pf + qb - pb;
				if (qb > pb)
					printf("scored whole: %s\n", what);
			}
		}
		rl_topk_counts(&f1, &b1);
		fast += f1 - f0;
		all += f1 - f0 + b1 - b0;
		free(w);
		free(w2);
	}
	printf("fast path: %lld of %lld searches of games' terms with lists,"
	       " %lld of %lld without filters\n", fast, all, plain[0], plain[1]);
	if (plain[0] * 100 < plain[1] * min_fast || plain[0] == 0) {
		printf("FAIL the fast path answered under %d %% of those without"
		       " filters\n", min_fast);
		failed++;
	} else {
		passed++;
	}
	free(g1);
	free(g2);
	free(tag);
	rl_db_close(db);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}

/* topk_check DB --fast LANG WORD...: each word searched in the table of
 * LANG ("any": all) must be answered by the lists (rl_topk_counts), the
 * same as the exhaustive ranking: words whose equivalent of another
 * game's concept has a list there, which only the game lists prove. */
static int fast_words(const char *path, const char *lang, int n, char **words)
{
	rl_db *db = open_read(path);
	if (!db)
		return 1;
	passed = failed = 0;
	for (int i = 0; i < n; i++) {
		const char *w[] = { words[i] };
		struct rl_query q = { .limit = 20, .words = w, .nwords = 1,
		                      .lang = lang };
		long long f0, b0, f1, b1;
		rl_topk_counts(&f0, &b0);
		compare(db, &q, words[i]);
		rl_topk_counts(&f1, &b1);
		if (f1 != f0 + 1) {
			printf("FAIL %s (--lang %s): not from the lists\n", words[i],
			       lang);
			failed++;
		} else {
			passed++;
		}
	}
	rl_db_close(db);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}

/* topk_check DB --facets used|stale WORD...: each word searched with
 * each game (and "none"), each kind, and the first game with each kind,
 * the same as the exhaustive ranking (rows, scores and total). used: the
 * totals of the searches with more rows than the limit must come from
 * the lists' counts per game and kind (rl_topk_facet_totals, schema 18),
 * some of them at least; stale (rulings changed since the lists were
 * built): none may. Either way some of the searches with a game must have
 * read their candidates from the lists of that game's rows
 * (rl_topk_game_searches; topk.c rl_topk_game), which a change since
 * does not stop (the rulings changed are scored beside them). */
static int facets(const char *path, const char *expect, int n, char **words)
{
	rl_db *db = open_read(path);
	if (!db)
		return 1;
	passed = failed = 0;
	static const char *const kinds[] = { "faq", "errata", "rule", "glossary" };
	sqlite3_stmt *st;
	char *games[16];
	int ng = 0;
	games[ng++] = strdup("none");
	if (sqlite3_prepare_v2(db->h, "SELECT name FROM games ORDER BY"
	                       " id LIMIT 15", -1, &st, NULL) == SQLITE_OK)
		while (sqlite3_step(st) == SQLITE_ROW)
			games[ng++] = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	long long used = 0, counted = 0, in_game = 0;
	for (int i = 0; i < n; i++) {
		const char *w[] = { words[i] };
		for (int j = 0; j < ng + 4 + 4; j++) {
			struct rl_query q = { .limit = 20, .words = w, .nwords = 1 };
			if (j < ng) {
				q.game = games[j];
			} else if (j < ng + 4) {
				q.kind = kinds[j - ng];
			} else {
				q.game = games[ng > 1 ? 1 : 0];
				q.kind = kinds[j - ng - 4];
			}
			char what[256];
			snprintf(what, sizeof what, "%s --game %s --kind %s", words[i],
			         q.game ? q.game : "-", q.kind ? q.kind : "-");
			long long f0 = rl_topk_facet_totals();
			long long g0 = rl_topk_game_searches();
			struct rl_results a;
			int ra = rl_search(db, &q, &a);
			long long f1 = rl_topk_facet_totals();
			in_game += rl_topk_game_searches() - g0;
			bool more = ra == RL_OK && a.total > (long long)a.n;
			if (ra == RL_OK || ra == RL_NOTFOUND)
				rl_results_free(&a);
			compare(db, &q, what);
			counted += more;
			used += f1 - f0;
			if (strcmp(expect, "stale") == 0 && f1 != f0) {
				printf("FAIL %s: the counts per game and kind used while"
				       " rulings changed since\n", what);
				failed++;
			}
		}
	}
	printf("counts per game and kind: %lld of %lld totals\n", used, counted);
	/* rulings changed since the lists do not stop a game's lists */
	printf("searches answered from the lists of the game: %lld\n", in_game);
	if (in_game == 0) {
		printf("FAIL no search answered from the lists of the game\n");
		failed++;
	} else {
		passed++;
	}
	if (strcmp(expect, "used") == 0 && (used == 0 || used * 2 < counted)) {
		printf("FAIL the counts per game and kind served under half of"
		       " the totals\n");
		failed++;
	} else {
		passed++;
	}
	for (int g = 0; g < ng; g++)
		free(games[g]);
	rl_db_close(db);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}

/* topk_check DB --sets WORD...: each word searched with filters that keep
 * few rulings — the tags of fewest and most rulings and one between, each
 * alone, with the first game and with --kind faq; each kind; the first
 * game with --kind errata — the same as the exhaustive ranking (rows,
 * scores, total; withdrawn rulings hidden, and shown). At least half of
 * them must have scored only the rulings the filter keeps
 * (rl_topk_set_searches; search.c set_rows): a word without a list, or a
 * filter of more rulings than it takes, goes on as before; and at least
 * half of those from the word's doclist (search.c seg_rows).
 * --sets-several: the same, where the English or the French index is of
 * several segments (an incremental import's; src/ftsseg.c merges their
 * doclists), which it checks first. */
static int sets(const char *path, bool several, int n, char **words)
{
	rl_db *db = open_read(path);
	if (!db)
		return 1;
	passed = failed = 0;
	static const char *const kinds[] = { "faq", "errata", "rule", "glossary" };
	static const char *const order[] = { "count(*), t.id", "count(*) DESC, t.id",
	                                     "count(*) % 7, t.id" };
	char *tags[3];
	for (int i = 0; i < 3; i++) {
		char sql[256];
		snprintf(sql, sizeof sql, "SELECT t.name FROM tags t JOIN"
		         " ruling_tags rt ON rt.tag_id = t.id GROUP BY t.id"
		         " ORDER BY %s LIMIT 1", order[i]);
		tags[i] = first_text(db->h, sql);
	}
	char *game = first_text(db->h, "SELECT name FROM games ORDER BY id"
	                        " LIMIT 1");
	long long used = 0, all = 0, seg = 0, games = 0, skips = 0;
	bool widened = false;
	int many = 0;
	for (int t = 0; several && t < 2; t++) {
		char sql[128];
		snprintf(sql, sizeof sql, "SELECT count(DISTINCT id >> 37) FROM"
		         " rulings_fts_%s_data WHERE id >> 37 > 0",
		         t ? "fr" : "en");
		char *c = first_text(db->h, sql);
		printf("segments of rulings_fts_%s: %s\n", t ? "fr" : "en",
		       c ? c : "?");
		many += c && atoi(c) > 1;
		free(c);
	}
	if (several && !many) {
		printf("FAIL neither index of several segments\n");
		failed++;
	}
	for (int i = 0; i < n; i++) {
		const char *w[] = { words[i] };
		/* a word the thesaurus widens to other games' terms: its
		 * explanation names the subselects of their condition */
		struct rl_query eq = { .words = w, .nwords = 1 };
		char *ex = NULL;
		if (rl_search_explain(db, &eq, &ex) == RL_OK && ex &&
		    strstr(ex, "\nf1: "))
			widened = true;
		free(ex);
		for (int j = 0; j < 3 * 3 + 4 + 1; j++) {
			for (int shown = 0; shown < 2; shown++) {
				struct rl_query q = { .limit = 10, .words = w,
				                      .nwords = 1,
				                      .include_withdrawn = shown };
				const char *tag[1];
				if (j < 9) {
					if (!tags[j / 3])
						continue;
					tag[0] = tags[j / 3];
					q.tags = tag;
					q.ntags = 1;
					q.game = j % 3 == 1 ? game : NULL;
					q.kind = j % 3 == 2 ? "faq" : NULL;
				} else if (j < 13) {
					q.kind = kinds[j - 9];
				} else {
					q.game = game;
					q.kind = "errata";
				}
				char what[512];
				snprintf(what, sizeof what, "%s --tag %s --game %s"
				         " --kind %s%s", words[i], q.ntags ? tag[0] : "-",
				         q.game ? q.game : "-", q.kind ? q.kind : "-",
				         shown ? " --include-withdrawn" : "");
				long long l0, j0, l1, j1;
				rl_fts_seg_skipped(&l0, &j0);
				long long s0 = rl_topk_set_searches();
				long long d0 = rl_topk_seg_searches();
				long long g0 = rl_topk_seg_games();
				compare(db, &q, what);
				used += rl_topk_set_searches() - s0;
				seg += rl_topk_seg_searches() - d0;
				games += rl_topk_seg_games() - g0;
				rl_fts_seg_skipped(&l1, &j1);
				skips += l1 > l0;
				all++;
			}
		}
	}
	printf("only the filter's rulings scored: %lld of %lld searches\n",
	       used, all);
	if (used * 2 < all) {
		printf("FAIL under half of the searches scored only the"
		       " filter's rulings\n");
		failed++;
	} else {
		passed++;
	}
	printf("scored from the word's doclist: %lld of them\n", seg);
	if (seg == 0 || seg * 2 < used) {
		printf("FAIL under half of those scored from the word's"
		       " doclist (search.c seg_rows)\n");
		failed++;
	} else {
		passed++;
	}
	/* a word's rows known from the lists (up to date), a set small
	 * beside them: only the set's rows read, leaves of a long doclist
	 * passed over through its doclist index (search.c seg_table,
	 * rl_fts_seg_only); never while rulings changed since the lists */
	char *dirty = first_text(db->h, "SELECT count(*) FROM topk_dirty");
	bool clean = dirty && atoi(dirty) == 0;
	free(dirty);
	printf("leaves passed over through a doclist index: in %lld of"
	       " them (the lists %s)\n", skips, clean ? "up to date"
	       : "not up to date: never");
	if (clean ? seg && !skips : skips) {
		printf("FAIL %s\n", skips ? "leaves passed over while rulings"
		       " changed since the lists" : "no search passed over a"
		       " leaf through a doclist index");
		failed++;
	} else {
		passed++;
	}
	/* a widened word's rows of other games holding only their
	 * phrases, left out by their ruling's game (search.c seg_games):
	 * the comparisons above cover that case only if it happened */
	printf("rows of other games left out before the rows statement:"
	       " in %lld of them\n", games);
	if (!several && seg && widened && !games) {
		printf("FAIL no search of a widened word left out a row by"
		       " its game (search.c seg_games)\n");
		failed++;
	} else {
		passed++;
	}
	for (int i = 0; i < 3; i++)
		free(tags[i]);
	free(game);
	rl_db_close(db);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}

/* The first rowid of every leaf of the index that has one (whole, at
 * the offset its header gives: the rowid a doclist goes on with over a
 * page boundary), ascending: the rows around which doclist_term's third
 * want list is made. */
static long long *page_firsts;
static size_t npage_firsts;

static int by_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

static int boundary_terms;      /* terms with rows about a boundary */

static bool page_first(long long rid)
{
	return bsearch(&rid, page_firsts, npage_firsts, sizeof rid, by_ll);
}

static void read_page_firsts(sqlite3 *h, const char *tbl)
{
	char sql[160];
	sqlite3_stmt *st;
	free(page_firsts);
	page_firsts = NULL;
	npage_firsts = 0;
	/* leaves: (segid << 37) + pgno, not the doclist indexes (bit 36) */
	snprintf(sql, sizeof sql, "SELECT block FROM %s_data WHERE id >="
	         " 1 << 37 AND (id >> 36) & 1 = 0", tbl);
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL))
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *a = sqlite3_column_blob(st, 0);
		size_t n = (size_t)sqlite3_column_bytes(st, 0), off;
		unsigned long long v;
		if (n < 4 || !(off = (size_t)a[0] << 8 | a[1]) || off >= n ||
		    !rl_fts_varint(a + off, n - off, &v))
			continue;
		long long *p = realloc(page_firsts, (npage_firsts + 1) *
		                       sizeof *p);
		if (!p)
			break;
		page_firsts = p;
		page_firsts[npage_firsts++] = (long long)v;
	}
	sqlite3_finalize(st);
	if (npage_firsts)
		qsort(page_firsts, npage_firsts, sizeof *page_firsts, by_ll);
}

/* One term's rows in table tbl read by the one-term reader
 * (rl_fts_seg_seek, rl_fts_seg_row_in: search.c seg_rows) against
 * fts5vocab 'instance' (temp.vi): every row with its hits per column,
 * and with a wanted subset only those read, the others passed over: (1)
 * every third row of it, and rowids it does not hold; (2) the rows about
 * the page boundaries (a page's first rowid, the rows before and after
 * it, and the rowid before it when the term does not hold it: a wanted
 * row last on its page, first on the next, the run of passed rows cut
 * there), few and far between. *doubt when the reader doubted (or does
 * not read the index). 0 when equal. */
static int doclist_term(rl_db *db, const char *tbl, const char *term,
                        bool *doubt)
{
	sqlite3_stmt *st;
	*doubt = false;
	if (sqlite3_prepare_v2(db->h, "SELECT doc, sum(col = 'title'),"
	                       " sum(col = 'body') FROM temp.vi WHERE term = ?1"
	                       " GROUP BY doc ORDER BY doc", -1, &st, NULL))
		return 1;
	sqlite3_bind_text(st, 1, term, -1, SQLITE_STATIC);
	long long (*v)[3] = NULL;
	size_t n = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		v = realloc(v, (n + 1) * sizeof *v);
		for (int i = 0; i < 3; i++)
			v[n][i] = sqlite3_column_int64(st, i);
		n++;
	}
	sqlite3_finalize(st);
	/* wanted: every third row, and the rowid after each (seldom one) */
	long long *want = malloc((7 * n + 4) * sizeof *want);
	size_t nw = 0;
	for (size_t i = 0; i < n; i += 3) {
		want[nw++] = v[i][0];
		if (i + 1 >= n || v[i + 1][0] != v[i][0] + 1)
			want[nw++] = v[i][0] + 1;
	}
	size_t nw1 = nw;
	for (size_t i = 0; i < n; i++)
		if (page_first(v[i][0])) {
			if (i)
				want[nw++] = v[i - 1][0];
			else if (v[i][0] > 1)
				want[nw++] = v[i][0] - 1;
			want[nw++] = v[i][0];
			if (i + 1 < n)
				want[nw++] = v[i + 1][0];
		}
	if (nw > nw1) {
		qsort(want + nw1, nw - nw1, sizeof *want, by_ll);
		size_t m = nw1 + 1;
		for (size_t j = nw1 + 1; j < nw; j++)
			if (want[j] != want[m - 1])
				want[m++] = want[j];
		nw = m;
		boundary_terms++;
	}
	/* (3) a few rows far apart (a long doclist's leaves between them):
	 * every 37th from the 5th, or a sixth of the rows apart */
	size_t nw2 = nw, step = n / 6 > 37 ? n / 6 : 37;
	for (size_t i = 5; i < n; i += step)
		want[nw++] = v[i][0];
	int bad = 0;
	/* passes 3 to 5: the same lists, and (3), with only the wanted
	 * rows read (rl_fts_seg_only: a doclist index's leaves skipped) */
	for (int pass = 0; pass < 6 && !*doubt; pass++) {
		int l = pass < 3 ? pass : pass - 2;
		const long long *wv = l == 3 ? want + nw2 : l == 2 ? want + nw1
		                    : want;
		size_t wn = l == 3 ? nw - nw2 : l == 2 ? nw2 - nw1 : nw1;
		bool only = pass >= 3;
		struct rl_fts_seg *r;
		if (rl_fts_seg_open(db, tbl, &r) || !r) {
			*doubt = true;
			break;
		}
		bool found;
		size_t i = 0, got = 0, held = 0;
		struct rl_fts_want w = { wv, wn, 0 };
		int rc = rl_fts_seg_seek(r, term, &found);
		if (rc == RL_OK && found && only)
			rc = rl_fts_seg_only(r, &w);
		if (rc == RL_OK && found) {
			long long rid;
			unsigned hits[2];
			bool in = true;
			while (pass ? rl_fts_seg_row_in(r, &rid, hits, &w, &in)
			            : rl_fts_seg_row(r, &rid, hits)) {
				bool want_it = wn && bsearch(&rid, wv, wn,
				                             sizeof *wv, by_ll);
				/* only: the wanted rows alone, in order */
				while (only && i < n && v[i][0] < rid)
					i++;
				if (i >= n || rid != v[i][0] ||
				    (pass && in != want_it) ||
				    (in && (hits[0] != v[i][1] || hits[1] != v[i][2])))
					bad = 1;
				i++;
				got++;
			}
		}
		for (size_t j = 0; only && wn && j < n; j++)
			held += bsearch(&v[j][0], wv, wn, sizeof *wv, by_ll) != NULL;
		if (rl_fts_seg_status(r) == RL_FTS_SEG_DOUBT)
			*doubt = true;
		else if (only ? got != held : i != n)
			bad = 1;
		rl_fts_seg_close(r);
	}
	free(want);
	free(v);
	return *doubt ? 0 : bad;
}

/* topk_check DB --doclist TABLE [doubt|every N]: the terms of TABLE (the
 * most common, some rare ones, one between, one not held, the first and
 * last; with every N, every Nth term of it too) read by the one-term
 * reader, equal to fts5vocab's (doclist_term), whether the index is one
 * segment or several (merged as FTS5 merges them, a merge under way or
 * not); with doubt (a page of the index spoilt), each of the common terms
 * read must be doubted or equal, and at least one doubted. */
static int doclist(const char *path, const char *tbl, const char *how,
                   int every)
{
	bool spoilt = how && strcmp(how, "doubt") == 0;
	rl_db *db = open_read(path);
	if (!db)
		return 1;
	passed = failed = 0;
	char sql[512];
	snprintf(sql, sizeof sql, "CREATE VIRTUAL TABLE temp.vi USING"
	         " fts5vocab(main, %s, 'instance');"
	         "CREATE VIRTUAL TABLE temp.vr USING fts5vocab(main, %s, 'row')",
	         tbl, tbl);
	if (sqlite3_exec(db->h, sql, NULL, NULL, NULL) != SQLITE_OK) {
		printf("FAIL fts5vocab of %s\n", tbl);
		rl_db_close(db);
		return 1;
	}
	read_page_firsts(db->h, tbl);
	sqlite3_stmt *st;
	int doubts = 0;
	/* of a spoilt index, the lists' most common terms (fts5vocab's
	 * walk of the index fails) */
	if (sqlite3_prepare_v2(db->h, spoilt ?
	    "SELECT term FROM topk_terms WHERE 'rulings_fts_' || tbl = ?1"
	    " ORDER BY docs DESC LIMIT 8" :
	    "SELECT * FROM (SELECT term FROM temp.vr WHERE ?2 > 0 AND"
	    " rowid % ?2 = 0) UNION ALL SELECT * FROM (SELECT term FROM temp.vr ORDER BY doc DESC LIMIT 8)"
	    " UNION ALL SELECT * FROM (SELECT term FROM temp.vr WHERE doc = 1"
	    " ORDER BY term LIMIT 5) UNION ALL SELECT * FROM (SELECT term FROM"
	    " temp.vr WHERE doc BETWEEN 20 AND 40 LIMIT 5) UNION ALL SELECT"
	    " min(term) FROM temp.vr UNION ALL SELECT max(term) FROM temp.vr"
	    " UNION ALL VALUES ('zzzzqq'), ('a'), ('')", -1, &st, NULL)) {
		rl_db_close(db);
		return 1;
	}
	if (spoilt)
		sqlite3_bind_text(st, 1, tbl, -1, SQLITE_STATIC);
	else
		sqlite3_bind_int(st, 2, every);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *term = (const char *)sqlite3_column_text(st, 0);
		bool doubt;
		if (!term)
			continue;
		if (doclist_term(db, tbl, term, &doubt) || (doubt && !spoilt)) {
			printf("FAIL %s '%s'%s\n", tbl, term, doubt ? " doubted" : "");
			failed++;
		} else {
			passed++;
		}
		doubts += doubt;
	}
	sqlite3_finalize(st);
	if (spoilt && !doubts) {
		printf("FAIL no term of the spoilt index doubted\n");
		failed++;
	}
	if (!spoilt && !boundary_terms) {
		printf("FAIL no term's rows go on over a page boundary\n");
		failed++;
	}
	/* a doclist index in the table: some leaves passed over through it
	 * (rl_fts_seg_only), each answer the same as above */
	snprintf(sql, sizeof sql, "SELECT count(*) FROM %s_data WHERE"
	         " id >= 1 << 37 AND (id >> 36) & 1 = 1", tbl);
	char *dl = first_text(db->h, sql);
	long long leaves, jumps;
	rl_fts_seg_skipped(&leaves, &jumps);
	printf("doclist indexes %s; leaves passed over through them %lld,"
	       " jumps %lld\n", dl ? dl : "?", leaves, jumps);
	if (!spoilt && dl && atoi(dl) > 0 && !leaves) {
		printf("FAIL no leaf passed over through a doclist index\n");
		failed++;
	}
	free(dl);
	free(page_firsts);
	page_firsts = NULL;
	npage_firsts = 0;
	boundary_terms = 0;
	rl_db_close(db);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}

/* topk_check DB --exec TABLE SQL: SQL run on DB opened for writing (the
 * library's tokenizer registered: what a client with the extension
 * loaded writes), e.g. a DELETE, or FTS5's incremental merge of TABLE's
 * index ('merge', N pages of work, as automerge does after a write: a
 * merge it stops part way leaves its input segments trimmed, their leaves
 * up to the term it stopped at deleted, the rest of that leaf written as
 * a new first one). Prints TABLE's segments, the segments of merges
 * under way, and the segments trimmed (first page after 1). */
static int exec_sql(const char *path, const char *tbl, const char *what)
{
	rl_db *db;
	if (rl_db_open(path, RL_OPEN_WRITE, &db) != RL_OK) {
		fprintf(stderr, "topk_check: %s\n", rl_db_errmsg(db));
		return 1;
	}
	char sql[256], *err = NULL;
	int rc = sqlite3_exec(db->h, what, NULL, NULL, &err);
	if (rc != SQLITE_OK)
		fprintf(stderr, "topk_check: %s\n", err ? err : what);
	sqlite3_free(err);
	/* the structure record: levels, segments, the write counter, then
	 * per level the segments of a merge under way and its segments, and
	 * per segment its id, first and last page */
	snprintf(sql, sizeof sql, "SELECT block FROM %s_data WHERE id = 10", tbl);
	sqlite3_stmt *st;
	if (!rc && sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) == SQLITE_OK) {
		unsigned long long v[3 * 200 + 3], nv = 0;
		if (sqlite3_step(st) == SQLITE_ROW) {
			const unsigned char *p = sqlite3_column_blob(st, 0);
			size_t n = (size_t)sqlite3_column_bytes(st, 0), o = 4, u;
			while (p && o < n && nv < sizeof v / sizeof *v &&
			       (u = rl_fts_varint(p + o, n - o, &v[nv])))
				o += u, nv++;
		}
		sqlite3_finalize(st);
		unsigned long long merging = 0, trimmed = 0;
		for (size_t l = 0, o = 3; nv >= 3 && l < v[0] && o + 1 < nv; l++) {
			merging += v[o];
			unsigned long long k = v[o + 1];
			o += 2;
			for (unsigned long long i = 0; i < k && o + 2 < nv; i++, o += 3)
				trimmed += v[o + 1] > 1;
		}
		printf("segments %llu, merging %llu, trimmed %llu\n",
		       nv >= 3 ? v[1] : 0, merging, trimmed);
	}
	rl_db_close(db);
	return rc != SQLITE_OK;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && strcmp(argv[2], "--doclist") == 0)
		return doclist(argv[1], argv[3], argc >= 5 ? argv[4] : NULL,
		               argc >= 6 ? atoi(argv[5]) : 0);
	if (argc == 5 && strcmp(argv[2], "--exec") == 0)
		return exec_sql(argv[1], argv[3], argv[4]);
	if (argc >= 3 && strcmp(argv[2], "--sets") == 0)
		return sets(argv[1], false, argc - 3, argv + 3);
	if (argc >= 3 && strcmp(argv[2], "--sets-several") == 0)
		return sets(argv[1], true, argc - 3, argv + 3);
	if (argc >= 4 && strcmp(argv[2], "--facets") == 0)
		return facets(argv[1], argv[3], argc - 4, argv + 4);
	if (argc >= 4 && strcmp(argv[2], "--fast") == 0)
		return fast_words(argv[1], argv[3], argc - 4, argv + 4);
	if (argc == 6 && strcmp(argv[2], "--bound") == 0) {
		rng_state = strtoull(argv[4], NULL, 10) * 2654435761u + 1;
		return bound(argv[1], atoi(argv[3]), atoi(argv[5]));
	}
	if (argc >= 3 && strcmp(argv[2], "--reads") == 0)
		return reads(argv[1], argc - 3, argv + 3);
	if (argc >= 3 && strcmp(argv[2], "--seeks") == 0)
		return seeks(argv[1], argc - 3, argv + 3);
	if (argc != 5) {
		fprintf(stderr, "usage: topk_check DB WORDS SEED MIN_FAST\n");
		return 2;
	}
	int nwords = atoi(argv[2]);
	rng_state = strtoull(argv[3], NULL, 10) * 2654435761u + 1;
	int min_fast = atoi(argv[4]);
	rl_db *db = open_read(argv[1]);
	if (!db)
		return 1;
	sqlite3 *h = db->h;
	long long maxid = max_id(h);
	char *game = first_text(h, "SELECT name FROM games ORDER BY id LIMIT 1");
	char *tag = first_text(h, tag_sql);
	char *kind = first_text(h, "SELECT kind FROM rulings GROUP BY kind"
	                        " ORDER BY count(*) DESC LIMIT 1");
	long long one[2] = {0}, several[2] = {0};
	for (int i = 0; i < 2 * nwords + nwords / 2; i++) {
		/* a word; a pair; a thesaurus word, alone or paired */
		bool pair = i >= nwords && (i < 2 * nwords || i % 2);
		char *w = i < 2 * nwords ? random_word(h, maxid) : thesaurus_word(h);
		char *w2 = NULL;
		if (!w)
			continue;
		const char *words[3] = { w, NULL, NULL };
		size_t nw = 1;
		if (pair && (w2 = random_word(h, maxid))) {
			if (i % 4 == 0)
				words[nw++] = "OR";
			words[nw++] = w2;
		}
		long long fast0, fallback0;
		rl_topk_counts(&fast0, &fallback0);
		for (int f = 0; f < 8; f++) {
			/* every word plain, and with two of the filters */
			if (f && rng() % 4)
				continue;
			struct rl_query q = { .words = words, .nwords = nw,
			                      .limit = 20 };
			const char *tags[1] = { tag };
			switch (f) {
			case 1: q.lang = "en"; break;
			case 2: q.lang = "fr"; break;
			case 3: q.game = game; break;
			case 4: q.kind = kind; break;
			case 5: if (tag) q.tags = tags, q.ntags = 1; break;
			case 6: q.include_withdrawn = true; break;
			case 7: q.limit = 5; q.no_total = true; break;
			}
			char what[256];
			snprintf(what, sizeof what, "'%s%s%s%s' filter %d", w,
			         nw == 3 ? " OR" : "", w2 ? " " : "", w2 ? w2 : "", f);
			compare(db, &q, what);
		}
		long long fast, fallback;
		rl_topk_counts(&fast, &fallback);
		/* a word the thesaurus widens is several terms too */
		long long *c = i < nwords ? one : several;
		c[0] += fast - fast0;
		c[1] += fast - fast0 + fallback - fallback0;
		free(w);
		free(w2);
	}
	check_bm25(db, nwords, maxid);
	printf("fast path: %lld of %lld one-word searches with lists,"
	       " %lld of %lld several-term ones\n", one[0], one[1], several[0],
	       several[1]);
	if (one[0] * 100 < one[1] * min_fast || one[0] == 0) {
		printf("FAIL the fast path answered under %d %% of one-word"
		       " searches\n", min_fast);
		failed++;
	} else {
		passed++;
	}
	if (several[0] * 400 < several[1] * min_fast || several[0] == 0) {
		printf("FAIL the fast path answered under %d %% of several-term"
		       " searches\n", min_fast / 4);
		failed++;
	} else {
		passed++;
	}
	free(game);
	free(tag);
	free(kind);
	rl_db_close(db);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
