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
 * never runs cannot pass. Prints "N passed, N failed". */
#include "db.h"
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

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: topk_check DB WORDS SEED MIN_FAST\n");
		return 2;
	}
	int nwords = atoi(argv[2]);
	rng_state = strtoull(argv[3], NULL, 10) * 2654435761u + 1;
	int min_fast = atoi(argv[4]);
	rl_db *db;
	if (rl_db_open(argv[1], RL_OPEN_READ, &db) != RL_OK) {
		fprintf(stderr, "topk_check: %s\n", rl_db_errmsg(db));
		return 1;
	}
	sqlite3 *h = db->h;
	sqlite3_stmt *st;
	long long maxid = 1;
	if (sqlite3_prepare_v2(h, "SELECT max(id) FROM rulings", -1, &st, NULL)
	    == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		maxid = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	char *game = first_text(h, "SELECT name FROM games ORDER BY id LIMIT 1");
	/* a tag on a fair share of the rulings: a filter that keeps some */
	char *tag = first_text(h, "SELECT t.name FROM tags t JOIN ruling_tags rt"
	                       " ON rt.tag_id = t.id GROUP BY t.id"
	                       " ORDER BY count(*) DESC LIMIT 1 OFFSET 3");
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
