/* topk.c — champion lists: the best rulings of each frequent term, by
 * BM25 term weight, beside the full-text tables (schema/014-topk.sql), and
 * the proof that lets a one-word search score only those (search.c).
 *
 * FTS5's bm25 of one word in row d is idf * g(f, D; a), where f is the
 * word's hits weighted by column (4 per hit in the title, 1 in the body),
 * D the row's tokens, a the table's average row length, and
 *     g = f*(k1+1) / (f + k1*(1 - b + b*D/a)),   k1 = 1.2, b = 0.75.
 * idf is the same for every row of the table, so the order of its rows is
 * the order of g. A list holds a term's RL_TOPK_LIST rows of highest g at
 * the average a0 of the time it was built (g0), and tau, the g0 of the
 * best row left out. When a changes, g(a) <= max(1, a/a0) * g(a0) for every
 * row (the length term shrinks by at most a0/a), so a row not in the list
 * and not changed since can score at most idf * max(1, a/a0) * tau, and
 * one further down the list at most that with its own g0. Rows whose text
 * changed since the build (topk_dirty) are always scored. The search scores
 * the list's first rows with FTS5's own bm25 (so its scores are the
 * exhaustive query's, to the bit) and stops when its k-th result beats
 * that bound; otherwise it reads further, and falls back to scoring every
 * match when the list runs out (a filter that keeps few of its rows).
 * Searches of several terms (AND, OR: all-words, thesaurus-widened) sum
 * the terms' bounds: see "answering" below.
 *
 * Rebuild rule (rl_topk_refresh, after each import's indexing; a bulk
 * load's, once with its last group: rl_topk_refresh_later): the lists
 * are built again when a table that has none reaches 2 * RL_TOPK_LIST
 * rows, when the rulings changed since the build are more than an eighth
 * of all, or when a table's row count has halved or doubled or its average
 * length grown by more than 10 %: each makes the bound looser and the
 * changed rows to score more. `rulings reindex` rebuilds them always.
 * The lists per game (below) are built with them, and again when an
 * imported thesaurus binds other terms to games (rl_topk_games). */

#include "doc.h"
#include "ftsseg.h"
#include "query.h"
#include "stemtok.h"
#include "topk.h"
#include "util.h"

#include <sqlite3.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define K1 1.2
#define B 0.75
#define TITLE_W 4.0
#define BODY_W 1.0

static const char *const tbl_name[4] = { "en", "fr", "ru", "xx" };
/* the tokenizer arguments of each table (schema/012-stem-verbs.sql) */
static const char *const tok_lang[4] = { "en", "fr", "en", "none" };

static long long n_fast, n_fallback;

void rl_topk_counts(long long *fast, long long *fallback)
{
	*fast = n_fast;
	*fallback = n_fallback;
}

void rl_topk_count(bool fast)
{
	++*(fast ? &n_fast : &n_fallback);
}

static long long n_facet;

long long rl_topk_facet_totals(void)
{
	return n_facet;
}

void rl_topk_count_facet(void)
{
	n_facet++;
}

static long long n_game;

long long rl_topk_game_searches(void)
{
	return n_game;
}

void rl_topk_count_game(void)
{
	n_game++;
}

static long long n_set;

long long rl_topk_set_searches(void)
{
	return n_set;
}

void rl_topk_count_set(void)
{
	n_set++;
}

bool rl_topk_enabled(void)
{
	const char *e = getenv("RULINGS_TOPK");
	return !e || strcmp(e, "off") != 0;
}

static int count_of(rl_db *db, const char *sql, long long *n);

/* ---- reading FTS5's records ---------------------------------------------- */

/* A table's rows and average length (tokens of all columns), as bm25
 * reads them: the "averages" record (id 1 of its %_data table). */
static int averages(rl_db *db, int t, long long *rows, double *avgdl)
{
	char sql[96];
	snprintf(sql, sizeof sql, "SELECT block FROM rulings_fts_%s_data"
	         " WHERE id = 1", tbl_name[t]);
	sqlite3_stmt *st = rl_db_prepare(db, sql);
	if (!st)
		return RL_EINTERNAL;
	*rows = 0;
	*avgdl = 0;
	int s = sqlite3_step(st);
	if (s == SQLITE_ROW) {
		const unsigned char *p = sqlite3_column_blob(st, 0);
		size_t n = (size_t)sqlite3_column_bytes(st, 0), o;
		unsigned long long v, total = 0;
		if (p && (o = rl_fts_varint(p, n, &v))) {
			*rows = (long long)v;
			for (size_t u; o < n && (u = rl_fts_varint(p + o, n - o, &v)); o += u)
				total += v;
			if (*rows > 0)
				*avgdl = (double)total / (double)*rows;
		}
		s = SQLITE_DONE;
	}
	sqlite3_finalize(st);
	return s == SQLITE_DONE ? RL_OK : rl_db_sqlite_fail(db, s, "averages");
}

static double weight(double f, double dl, double avgdl)
{
	return f * (K1 + 1.0) / (f + K1 * (1.0 - B + B * dl / avgdl));
}

static double idf(long long rows, long long docs)
{
	double v = log(((double)rows - (double)docs + 0.5) / ((double)docs + 0.5));
	return v <= 0.0 ? 1e-6 : v;
}

/* ---- building ----------------------------------------------------------- */

struct tokens {
	int n;
	char *first;
};

static int on_token(void *ctx, int flags, const char *tok, int n, int s, int e)
{
	(void)flags, (void)s, (void)e;
	struct tokens *t = ctx;
	if (t->n++ == 0 && !(t->first = sqlite3_mprintf("%.*s", n, tok)))
		return SQLITE_NOMEM;
	return SQLITE_OK;
}

/* The one term word makes in table t's index, or NULL (*term) when it
 * makes none or several. */
static int term_of(rl_db *db, fts5_api *api, int t, const char *word,
                   char **term)
{
	*term = NULL;
	void *ud = NULL;
	fts5_tokenizer m;
	Fts5Tokenizer *tk = NULL;
	const char *args[] = { "3", tok_lang[t] };
	if (api->xFindTokenizer(api, "rl_stem", &ud, &m) != SQLITE_OK ||
	    m.xCreate(ud, args, 2, &tk) != SQLITE_OK)
		return rl_db_fail(db, RL_EINTERNAL, "cannot open the rl_stem tokenizer");
	struct tokens k = {0};
	int s = m.xTokenize(tk, &k, FTS5_TOKENIZE_QUERY, word, (int)strlen(word),
	                    on_token);
	m.xDelete(tk);
	if (s == SQLITE_OK && k.n == 1 && !(*term = strdup(k.first)))
		s = SQLITE_NOMEM;
	sqlite3_free(k.first);
	return s == SQLITE_OK ? RL_OK : s == SQLITE_NOMEM ? RL_ENOMEM
	       : rl_db_fail(db, RL_EINTERNAL, "cannot tokenize '%s'", word);
}


struct scored {
	long long rid;
	double g;
};

static int by_weight(const void *a, const void *b)
{
	const struct scored *x = a, *y = b;
	if (x->g != y->g)
		return x->g > y->g ? -1 : 1;
	return (x->rid > y->rid) - (x->rid < y->rid);
}

static void swap_scored(struct scored *a, struct scored *b)
{
	struct scored t = *a;
	*a = *b;
	*b = t;
}

/* v[0..k) a heap under by_weight, its worst row at the root: i moves down
 * below any child that sorts after it. */
static void sift_down(struct scored *v, size_t k, size_t i)
{
	for (size_t l; (l = 2 * i + 1) < k; i = l) {
		if (l + 1 < k && by_weight(&v[l + 1], &v[l]) > 0)
			l++;
		if (by_weight(&v[l], &v[i]) <= 0)
			break;
		swap_scored(&v[i], &v[l]);
	}
}

/* A term's k best rows, kept while its rows stream by: v[0..k) filled,
 * then a heap under by_weight with its worst row at the root, which each
 * better row replaces. by_weight is a total order (each row once), so
 * these are the k first rows of the whole term sorted, whatever order they
 * came in, in n log k comparisons; and the memory is k rows, not one per
 * row of the term (729k rows of 16 bytes for a common word at 1M: most of
 * a bulk load's peak RSS above the page cache, bench/RESULTS.md). */
struct best {
	struct scored v[RL_TOPK_LIST + 1];
	size_t n;
};

static void offer(struct best *b, long long rid, double g)
{
	const size_t k = sizeof b->v / sizeof *b->v;
	struct scored x = { rid, g };
	if (b->n < k) {
		b->v[b->n++] = x;
		if (b->n == k)
			for (size_t i = k / 2; i-- > 0;)
				sift_down(b->v, k, i);
		return;
	}
	if (by_weight(&x, &b->v[0]) < 0) {
		b->v[0] = x;
		sift_down(b->v, k, 0);
	}
}

/* Every row's length of table t, by rowid (dl[rowid]; *max the highest). */
static int lengths(rl_db *db, int t, unsigned **dl, long long *max)
{
	char sql[128];
	*dl = NULL;
	snprintf(sql, sizeof sql, "SELECT id, sz FROM rulings_fts_%s_docsize"
	         " ORDER BY id DESC", tbl_name[t]);
	sqlite3_stmt *st = rl_db_prepare(db, sql);
	if (!st)
		return RL_EINTERNAL;
	int s, rc = RL_OK;
	*max = -1;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		long long id = sqlite3_column_int64(st, 0);
		if (!*dl) {
			*max = id;
			if (id < 0 || !(*dl = calloc((size_t)id + 1, sizeof **dl))) {
				rc = id < 0 ? RL_OK : RL_ENOMEM;
				break;
			}
		}
		if (id < 0)
			continue;
		const unsigned char *p = sqlite3_column_blob(st, 1);
		size_t n = (size_t)sqlite3_column_bytes(st, 1), o = 0, u;
		unsigned long long v, sum = 0;
		while (p && o < n && (u = rl_fts_varint(p + o, n - o, &v)))
			o += u, sum += v;
		(*dl)[id] = (unsigned)sum;
	}
	if (!rc && s != SQLITE_DONE && s != SQLITE_ROW)
		rc = rl_db_sqlite_fail(db, s, "lengths");
	sqlite3_finalize(st);
	return rc;
}

/* ---- the lists per game ---- */

/* The terms the thesaurus binds to a game (those of concepts under a
 * "[Game]" line: a search widens a word to them for that game's rulings
 * only, src/qcompile.c), as table t's index holds the single-word ones,
 * each with every game of its concept's name (the search's condition
 * matches games by rl_fold(name)); and which bound game each ruling is
 * of (map[rid]: 1 + its index in gid[], 0 for none). */
struct bound {
	struct bterm {
		char *term;
		long long gid;
		unsigned idx;           /* 1 + the game's index in gid[] */
	} *v;
	size_t n, cap;
	long long *gid;
	size_t ngid, capgid;
	unsigned short *map;
	long long maxrid;
};

static void bound_free(struct bound *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->v[i].term);
	free(b->v);
	free(b->gid);
	free(b->map);
	*b = (struct bound){0};
}

static int bound_of(rl_db *db, int t, struct bound *b)
{
	*b = (struct bound){0};
	fts5_api *api = rl_db_fts5(db);
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT DISTINCT t.term, g2.id FROM concept_terms t"
		" JOIN concepts c ON c.id = t.concept_id"
		" JOIN games g ON g.id = c.game_id"
		" JOIN games g2 ON rl_fold(g2.name) = rl_fold(g.name)"
		" ORDER BY g2.id");
	if (!api || !st) {
		sqlite3_finalize(st);
		return api ? RL_EINTERNAL : rl_db_fail(db, RL_EINTERNAL,
		                                       "no FTS5");
	}
	int rc = RL_OK, s;
	while (!rc && (s = sqlite3_step(st)) == SQLITE_ROW) {
		const char *w = (const char *)sqlite3_column_text(st, 0);
		long long gid = sqlite3_column_int64(st, 1);
		char *term = NULL;
		if (!w || (rc = term_of(db, api, t, w, &term)) || !term)
			continue;
		bool dup = false;
		for (size_t i = 0; i < b->n && !dup; i++)
			dup = b->v[i].gid == gid && strcmp(b->v[i].term, term) == 0;
		if (dup) {
			free(term);
			continue;
		}
		if (!b->ngid || b->gid[b->ngid - 1] != gid) {
			if (b->ngid == 0xFFFF) {    /* no list: taken whole */
				free(term);
				continue;
			}
			if (!rl_grow(&b->gid, &b->capgid, b->ngid + 1,
			             sizeof *b->gid)) {
				free(term);
				rc = RL_ENOMEM;
				break;
			}
			b->gid[b->ngid++] = gid;
		}
		if (!rl_grow(&b->v, &b->cap, b->n + 1, sizeof *b->v)) {
			free(term);
			rc = RL_ENOMEM;
			break;
		}
		b->v[b->n++] = (struct bterm){ term, gid, (unsigned)b->ngid };
	}
	if (!rc && s != SQLITE_DONE)
		rc = rl_db_sqlite_fail(db, s, "lists");
	sqlite3_finalize(st);
	if (rc || !b->n)
		return rc;
	/* each bound game's rulings, by the identity index (game first) */
	rc = count_of(db, "SELECT ifnull(max(id), 0) FROM rulings", &b->maxrid);
	if (!rc && !(b->map = calloc((size_t)b->maxrid + 1, sizeof *b->map)))
		rc = RL_ENOMEM;
	sqlite3_stmt *ids = rc ? NULL : rl_db_prepare(db,
		"SELECT id FROM rulings WHERE ifnull(game_id, 0) = ?1");
	if (!rc && !ids)
		rc = RL_EINTERNAL;
	for (size_t g = 0; g < b->ngid && !rc; g++) {
		sqlite3_bind_int64(ids, 1, b->gid[g]);
		while ((s = sqlite3_step(ids)) == SQLITE_ROW) {
			long long id = sqlite3_column_int64(ids, 0);
			if (id >= 0 && id <= b->maxrid)
				b->map[id] = (unsigned short)(g + 1);
		}
		if (s != SQLITE_DONE)
			rc = rl_db_sqlite_fail(db, s, "lists");
		sqlite3_reset(ids);
	}
	sqlite3_finalize(ids);
	return rc;
}

/* ---- the rows per game and kind (schema 18) ---- */

/* Which game and kind each ruling is of: of[rid] is 1 + the index in v[]
 * of its (game, kind), 0 for no ruling; v[] in (game_id, kind) order,
 * game_id 0 for none (topk_gdocs' key order). Read once for the four
 * tables, from the identity index (no ruling's page read). */
struct facets {
	unsigned *of;
	long long maxrid;
	struct facet {
		long long gid;
		char kind[12];
	} *v;
	size_t n, cap;
};

static void facets_free(struct facets *f)
{
	free(f->of);
	free(f->v);
	*f = (struct facets){0};
}

static int facets_of(rl_db *db, struct facets *f)
{
	*f = (struct facets){0};
	int rc = count_of(db, "SELECT count(*) FROM sqlite_schema"
	                  " WHERE name = 'topk_gdocs'", &f->maxrid);
	if (rc || !f->maxrid)   /* before schema 18 (an upgrade's way) */
		return rc;
	rc = count_of(db, "SELECT ifnull(max(id), 0) FROM rulings", &f->maxrid);
	if (!rc && !(f->of = calloc((size_t)f->maxrid + 1, sizeof *f->of)))
		rc = RL_ENOMEM;
	/* every game and none, by every kind (doc.c's names: fixed words,
	 * no quote in them) */
	struct rl_buf ps = {0};
	rl_buf_adds(&ps, "SELECT g.id, k.column1 FROM (SELECT 0 AS id UNION"
	            " SELECT id FROM games) g, (VALUES ");
	for (size_t i = 0; rl_kind_names[i]; i++)
		rl_buf_addf(&ps, "%s('%s')", i ? ", " : "", rl_kind_names[i]);
	rl_buf_adds(&ps, ") k ORDER BY g.id, k.column1");
	if (!rc && ps.oom)
		rc = RL_ENOMEM;
	sqlite3_stmt *pairs = rc ? NULL : rl_db_prepare(db, ps.s);
	rl_buf_free(&ps);
	sqlite3_stmt *ids = rc ? NULL : rl_db_prepare(db,
		"SELECT id FROM rulings WHERE ifnull(game_id, 0) = ?1"
		" AND kind = ?2");
	if (!rc && (!pairs || !ids))
		rc = RL_EINTERNAL;
	int s = SQLITE_DONE;
	while (!rc && (s = sqlite3_step(pairs)) == SQLITE_ROW) {
		long long gid = sqlite3_column_int64(pairs, 0);
		const char *kind = (const char *)sqlite3_column_text(pairs, 1);
		if (!kind || strlen(kind) >= sizeof f->v->kind)
			continue;
		sqlite3_bind_int64(ids, 1, gid);
		sqlite3_bind_text(ids, 2, kind, -1, SQLITE_STATIC);
		bool any = false;
		while ((s = sqlite3_step(ids)) == SQLITE_ROW) {
			long long id = sqlite3_column_int64(ids, 0);
			if (!any) {
				if (f->n >= 0xFFFFFFFEu ||
				    !rl_grow(&f->v, &f->cap, f->n + 1, sizeof *f->v)) {
					rc = RL_ENOMEM;
					break;
				}
				f->v[f->n].gid = gid;
				strcpy(f->v[f->n].kind, kind);
				f->n++;
				any = true;
			}
			if (id >= 0 && id <= f->maxrid)
				f->of[id] = (unsigned)f->n;
		}
		if (!rc && s != SQLITE_DONE)
			rc = rl_db_sqlite_fail(db, s, "lists");
		sqlite3_reset(ids);
		s = SQLITE_DONE;
	}
	if (!rc && s != SQLITE_DONE)
		rc = rl_db_sqlite_fail(db, s, "lists");
	sqlite3_finalize(pairs);
	sqlite3_finalize(ids);
	if (rc)
		facets_free(f);
	return rc;
}

/* One game's list of a term in table tb (term: its gterms or bterms
 * INSERT, row: its glists or blists one): v[0..n) its n best rows sorted
 * by_weight, n = min(docs, RL_TOPK_LIST + 1): docs, the g0 of its first
 * row left out (tau; 0 when none is) and its first RL_TOPK_LIST rows. */
static int put_glist(rl_db *db, sqlite3_stmt *term_st, sqlite3_stmt *row_st,
                     const char *tb, const char *term, long long gid,
                     long long docs, const struct scored *v, size_t n)
{
	rl_bind_text(term_st, 1, tb);
	sqlite3_bind_text(term_st, 2, term, -1, SQLITE_STATIC);
	sqlite3_bind_int64(term_st, 3, gid);
	sqlite3_bind_int64(term_st, 4, docs);
	sqlite3_bind_double(term_st, 5, n > RL_TOPK_LIST ? v[RL_TOPK_LIST].g : 0.0);
	int s = sqlite3_step(term_st), rc = RL_OK;
	if (s != SQLITE_DONE)
		rc = rl_db_sqlite_fail(db, s, "lists");
	sqlite3_reset(term_st);
	for (size_t i = 0; i < n && i < RL_TOPK_LIST && !rc; i++) {
		rl_bind_text(row_st, 1, tb);
		sqlite3_bind_text(row_st, 2, term, -1, SQLITE_STATIC);
		sqlite3_bind_int64(row_st, 3, gid);
		sqlite3_bind_double(row_st, 4, v[i].g);
		sqlite3_bind_int64(row_st, 5, v[i].rid);
		if ((s = sqlite3_step(row_st)) != SQLITE_DONE)
			rc = rl_db_sqlite_fail(db, s, "lists");
		sqlite3_reset(row_st);
	}
	return rc;
}

/* The games holding a large share of the rulings (schema 21): each
 * listed term's rows of each kept in a heap of its best (as the list's),
 * and counted, for its list of that game (topk_bterms, topk_blists). A
 * game of at least 1/64 of the rulings: at 1M, Spirit Island's tenth;
 * and under half of them: the lists over all games are mostly its rows.
 * Of those, the BIGS_MAX largest: a game's lists are written like the
 * lists over all games, and cost their build and file as much (100k
 * rulings in eleven games of 8-10 %, `reindex` user CPU against main's
 * 21.6 s: every game 29.9 s and a file 1.37x; the 4 largest 30.3-31.9 s;
 * the 2 largest 26.2 s; the largest 21.4 s — bench/RESULTS.md). */
enum { BIGS_MAX = 2 };
struct bigs {
	size_t n;
	long long *gid;
	unsigned *of;           /* of[facet]: 1 + the game's index, or 0 */
	struct best *heap;
	long long *docs;
	sqlite3_stmt *term, *row;
};

static void bigs_free(struct bigs *g)
{
	free(g->gid);
	free(g->of);
	free(g->heap);
	free(g->docs);
	sqlite3_finalize(g->term);
	sqlite3_finalize(g->row);
	*g = (struct bigs){0};
}

static int bigs_of(rl_db *db, const struct facets *f, struct bigs *g)
{
	*g = (struct bigs){0};
	long long n;
	int rc = count_of(db, "SELECT count(*) FROM sqlite_schema"
	                  " WHERE name = 'topk_bterms'", &n);
	if (rc || !n || !f->of || !f->n)  /* before schema 21, or no rulings */
		return rc;
	long long *cnt = calloc(f->n + 1, sizeof *cnt);
	if (!cnt)
		return RL_ENOMEM;
	long long all = 0;
	for (long long id = 0; id <= f->maxrid; id++)
		if (f->of[id]) {
			cnt[f->of[id]]++;
			all++;
		}
	if (!(g->of = calloc(f->n + 1, sizeof *g->of)) ||
	    !(g->gid = malloc(f->n * sizeof *g->gid)))
		rc = RL_ENOMEM;
	/* kept: the sizes of the BIGS_MAX largest games in the share, in
	 * descending order; then those games of at least the last size are
	 * taken (ties: the first in game order) */
	long long kept[BIGS_MAX] = {0};
	size_t nkept = 0;
	for (int pass = 0; pass < 2 && !rc; pass++) {
		/* v[] is in game order: a game's kinds are together */
		for (size_t i = 0; i < f->n; ) {
			size_t j = i;
			long long in = 0;
			while (j < f->n && f->v[j].gid == f->v[i].gid)
				in += cnt[1 + j++];
			bool share = f->v[i].gid && in * 64 >= all && in * 2 < all;
			if (share && pass == 0) {
				size_t at = nkept < BIGS_MAX ? nkept++ : BIGS_MAX;
				while (at > 0 && kept[at - 1] < in) {
					if (at < BIGS_MAX)
						kept[at] = kept[at - 1];
					at--;
				}
				if (at < BIGS_MAX)
					kept[at] = in;
			} else if (share && g->n < nkept &&
			           in >= kept[nkept - 1]) {
				g->gid[g->n++] = f->v[i].gid;
				for (size_t x = i; x < j; x++)
					g->of[1 + x] = (unsigned)g->n;
			}
			i = j;
		}
	}
	free(cnt);
	if (!rc && g->n && (!(g->heap = malloc(g->n * sizeof *g->heap)) ||
	                    !(g->docs = calloc(g->n, sizeof *g->docs))))
		rc = RL_ENOMEM;
	if (!rc && g->n) {
		g->term = rl_db_prepare(db, "INSERT INTO topk_bterms (tbl, term,"
		                        " game_id, docs, tau) VALUES (?1, ?2, ?3,"
		                        " ?4, ?5)");
		g->row = rl_db_prepare(db, "INSERT INTO topk_blists (tbl, term,"
		                       " game_id, g0, rid) VALUES (?1, ?2, ?3, ?4,"
		                       " ?5)");
		if (!g->term || !g->row)
			rc = RL_EINTERNAL;
	}
	if (rc || !g->n)
		bigs_free(g);
	return rc;
}

/* A listed term's list of each game of many rulings (bigs_of). */
static int put_bigs(rl_db *db, struct bigs *g, const char *tb,
                    const char *term)
{
	int rc = RL_OK;
	for (size_t i = 0; i < g->n && !rc; i++) {
		struct best *h = &g->heap[i];
		if (h->n > 1)
			qsort(h->v, h->n, sizeof *h->v, by_weight);
		rc = put_glist(db, g->term, g->row, tb, term, g->gid[i], g->docs[i],
		               h->v, h->n);
	}
	return rc;
}

struct gput {
	sqlite3_stmt *term, *row;
	struct scored *w;
	size_t cap;
};

/* The lists per game of term in table tb, from v[0..n): its weighed rows
 * of a bound game (term_rows keeps them). */
static int put_game_lists(rl_db *db, struct gput *p, const struct bound *b,
                          const char *tb, const char *term,
                          const struct scored *v, size_t n)
{
	int rc = RL_OK;
	for (size_t j = 0; j < b->n && !rc; j++) {
		const struct bterm *x = &b->v[j];
		if (strcmp(x->term, term) != 0)
			continue;
		size_t m = 0;
		for (size_t i = 0; i < n; i++) {
			long long id = v[i].rid;
			if (id < 0 || id > b->maxrid || b->map[id] != x->idx)
				continue;
			if (!rl_grow(&p->w, &p->cap, m + 1, sizeof *p->w))
				return RL_ENOMEM;
			p->w[m++] = v[i];
		}
		if (m > 1)      /* (no rows: p->w may be NULL) */
			qsort(p->w, m, sizeof *p->w, by_weight);
		rc = put_glist(db, p->term, p->row, tb, term, x->gid,
		               (long long)m, p->w, m);
	}
	return rc;
}

static int gput_open(rl_db *db, struct gput *p)
{
	*p = (struct gput){0};
	p->term = rl_db_prepare(db, "INSERT INTO topk_gterms (tbl, term, game_id,"
	                        " docs, tau) VALUES (?1, ?2, ?3, ?4, ?5)");
	p->row = rl_db_prepare(db, "INSERT INTO topk_glists (tbl, term, game_id,"
	                       " g0, rid) VALUES (?1, ?2, ?3, ?4, ?5)");
	return p->term && p->row ? RL_OK : RL_EINTERNAL;
}

static void gput_close(struct gput *p)
{
	sqlite3_finalize(p->term);
	sqlite3_finalize(p->row);
	free(p->w);
	*p = (struct gput){0};
}

/* Whether term is one of b's. */
static bool is_bound(const struct bound *b, const char *term)
{
	for (size_t i = 0; i < b->n; i++)
		if (strcmp(b->v[i].term, term) == 0)
			return true;
	return false;
}

/* A term's row, weighed: its best rows (the list's heap) and, for a term
 * the thesaurus binds to games, its rows of a bound game (for the lists
 * per game: put_game_lists). */
struct rows_to {
	struct best *best;              /* NULL: none kept */
	const struct bound *bd;         /* NULL: no row of a game kept */
	struct scored *gv;
	size_t gn, gcap;
	/* the term's rows per game and kind (NULL: not counted):
	 * fcnt[1 + facet], the facets counted so far in touched[] */
	const struct facets *fac;
	unsigned *fcnt, *touched;
	size_t ntouched;
	/* its rows of each game of many rulings (NULL: none kept) */
	struct bigs *big;
};

static int keep_row(struct rows_to *to, long long rid, double g)
{
	if (to->best)
		offer(to->best, rid, g);
	const struct facets *fac = to->fac;
	if (fac && rid >= 0 && rid <= fac->maxrid) {
		unsigned f = fac->of[rid];
		if (f && to->fcnt[f]++ == 0)
			to->touched[to->ntouched++] = f;
		unsigned bi = f && to->big ? to->big->of[f] : 0;
		if (bi) {
			to->big->docs[bi - 1]++;
			offer(&to->big->heap[bi - 1], rid, g);
		}
	}
	const struct bound *bd = to->bd;
	if (!bd || rid < 0 || rid > bd->maxrid || !bd->map[rid])
		return RL_OK;
	if (!rl_grow(&to->gv, &to->gcap, to->gn + 1, sizeof *to->gv))
		return RL_ENOMEM;
	to->gv[to->gn++] = (struct scored){ rid, g };
	return RL_OK;
}

/* The rows of table t holding term (inst: its fts5vocab 'instance'
 * statement), each weighed at average length avgdl (f summed over its
 * instances) and kept as to says, as they stream by: no array of every
 * row (729k for a common word at 1M). *n: how many rows. */
static int term_rows(rl_db *db, sqlite3_stmt *inst, const char *term,
                     const unsigned *dl, long long maxid, double avgdl,
                     struct rows_to *to, size_t *n)
{
	*n = 0;
	long long rid = 0;
	double f = 0;           /* the hits in row rid so far, weighted */
	int rc = RL_OK, si;
	sqlite3_bind_text(inst, 1, term, -1, SQLITE_STATIC);
	for (;;) {
		si = sqlite3_step(inst);
		/* a row's hits come together (the instances are in rowid
		 * order): it is scored at the first hit of the next */
		long long next = si == SQLITE_ROW ? sqlite3_column_int64(inst, 0) : 0;
		if (*n && (si != SQLITE_ROW || next != rid)) {
			double len = rid >= 0 && rid <= maxid ? dl[rid] : 0;
			if ((rc = keep_row(to, rid, weight(f, len, avgdl))))
				break;
		}
		if (si != SQLITE_ROW)
			break;
		const char *col = (const char *)sqlite3_column_text(inst, 1);
		double w = col && strcmp(col, "title") == 0 ? TITLE_W : BODY_W;
		if (*n && next == rid) {
			f += w;
			continue;
		}
		++*n;
		rid = next;
		f = w;
	}
	if (!rc && si != SQLITE_DONE)
		rc = rl_db_sqlite_fail(db, si, "lists");
	sqlite3_reset(inst);
	return rc;
}

/* The statements and buffers of a table's lists' build. */
struct build {
	const char *tb;
	double avgdl;
	unsigned *dl;           /* each row's length (lengths()) */
	long long maxid;
	struct bound bd;
	struct gput gp;
	sqlite3_stmt *put_term, *put, *put_gdocs;
	struct best *b;
	struct rows_to to;
};

/* A term's rows begin (term_rows, or the segment's reader). */
static void term_begin(struct build *w, const char *term)
{
	bool bound = is_bound(&w->bd, term);
	w->b->n = 0;
	w->to.gn = 0;
	for (size_t i = 0; i < w->to.ntouched; i++)
		w->to.fcnt[w->to.touched[i]] = 0;
	w->to.ntouched = 0;
	w->to.bd = bound ? &w->bd : NULL;
	for (size_t i = 0; w->to.big && i < w->to.big->n; i++) {
		w->to.big->heap[i].n = 0;
		w->to.big->docs[i] = 0;
	}
}

static int by_facet(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return (x > y) - (x < y);
}

/* A listed term's rows per game and kind (topk_gdocs), in key order. */
static int put_gdocs(rl_db *db, struct build *w, const char *term)
{
	struct rows_to *to = &w->to;
	int rc = RL_OK;
	if (to->ntouched > 1)
		qsort(to->touched, to->ntouched, sizeof *to->touched, by_facet);
	for (size_t i = 0; i < to->ntouched && !rc; i++) {
		unsigned f = to->touched[i];
		const struct facet *x = &to->fac->v[f - 1];
		rl_bind_text(w->put_gdocs, 1, w->tb);
		sqlite3_bind_text(w->put_gdocs, 2, term, -1, SQLITE_STATIC);
		sqlite3_bind_int64(w->put_gdocs, 3, x->gid);
		sqlite3_bind_text(w->put_gdocs, 4, x->kind, -1, SQLITE_STATIC);
		sqlite3_bind_int64(w->put_gdocs, 5, to->fcnt[f]);
		int si = sqlite3_step(w->put_gdocs);
		if (si != SQLITE_DONE)
			rc = rl_db_sqlite_fail(db, si, "lists");
		sqlite3_reset(w->put_gdocs);
	}
	return rc;
}

/* A term's rows have all been kept (n of them): its list, tau's row, its
 * lists per game and its rows per game and kind. */
static int term_put(rl_db *db, struct build *w, const char *term, size_t n)
{
	int rc = RL_OK, si;
	if (n <= RL_TOPK_LIST)
		return RL_OK;
	if (w->to.fac && (rc = put_gdocs(db, w, term)))
		return rc;
	if (w->to.big && (rc = put_bigs(db, w->to.big, w->tb, term)))
		return rc;
	if (w->to.bd && (rc = put_game_lists(db, &w->gp, &w->bd, w->tb, term,
	                                     w->to.gv, w->to.gn)))
		return rc;
	struct best *b = w->b;
	qsort(b->v, b->n, sizeof *b->v, by_weight);
	struct scored *v = b->v;
	rl_bind_text(w->put_term, 1, w->tb);
	sqlite3_bind_text(w->put_term, 2, term, -1, SQLITE_STATIC);
	sqlite3_bind_int64(w->put_term, 3, (sqlite3_int64)n);
	sqlite3_bind_double(w->put_term, 4, v[RL_TOPK_LIST].g);
	if ((si = sqlite3_step(w->put_term)) != SQLITE_DONE)
		rc = rl_db_sqlite_fail(db, si, "lists");
	sqlite3_reset(w->put_term);
	for (size_t i = 0; i < RL_TOPK_LIST && !rc; i++) {
		rl_bind_text(w->put, 1, w->tb);
		sqlite3_bind_text(w->put, 2, term, -1, SQLITE_STATIC);
		sqlite3_bind_double(w->put, 3, v[i].g);
		sqlite3_bind_int64(w->put, 4, v[i].rid);
		if ((si = sqlite3_step(w->put)) != SQLITE_DONE)
			rc = rl_db_sqlite_fail(db, si, "lists");
		sqlite3_reset(w->put);
	}
	return rc;
}

/* The lists of table t through fts5vocab: 'row' for the terms in more
 * than RL_TOPK_LIST rows, 'instance' for each one's rows. */
static int lists_vocab(rl_db *db, int t, struct build *w)
{
	const char *tb = tbl_name[t];
	char sql[256];
	snprintf(sql, sizeof sql,
	         "CREATE VIRTUAL TABLE IF NOT EXISTS temp.topk_row_%s USING"
	         " fts5vocab(main, rulings_fts_%s, row);"
	         "CREATE VIRTUAL TABLE IF NOT EXISTS temp.topk_inst_%s USING"
	         " fts5vocab(main, rulings_fts_%s, instance);", tb, tb, tb, tb);
	int rc = rl_db_exec(db, sql);
	char q1[128], q2[128];
	snprintf(q1, sizeof q1, "SELECT term, doc FROM temp.topk_row_%s"
	         " WHERE doc > %d", tb, RL_TOPK_LIST);
	snprintf(q2, sizeof q2, "SELECT doc, col FROM temp.topk_inst_%s"
	         " WHERE term = ?1", tb);
	sqlite3_stmt *terms = rc ? NULL : rl_db_prepare(db, q1);
	sqlite3_stmt *inst = rc ? NULL : rl_db_prepare(db, q2);
	if (!rc && (!terms || !inst))
		rc = RL_EINTERNAL;
	int s = SQLITE_DONE;
	while (!rc && (s = sqlite3_step(terms)) == SQLITE_ROW) {
		const char *term = (const char *)sqlite3_column_text(terms, 0);
		size_t n;
		term_begin(w, term);
		rc = term_rows(db, inst, term, w->dl, w->maxid, w->avgdl, &w->to,
		               &n);
		if (!rc)
			rc = term_put(db, w, term, n);
	}
	if (!rc && s != SQLITE_DONE)
		rc = rl_db_sqlite_fail(db, s, "lists");
	sqlite3_finalize(terms);
	sqlite3_finalize(inst);
	return rc;
}

/* The lists of table t read straight from its index when it is one
 * segment (ftsseg.c): the same rows, weighed the same (f = 4 per title
 * hit + 1 per body hit, exact in a double whatever the order of the
 * sum). RL_FTS_SEG_DOUBT when the reader cannot read it (also when it is
 * not one segment): then nothing here is to be kept. */
static int lists_direct(rl_db *db, int t, struct build *w)
{
	char name[32];
	snprintf(name, sizeof name, "rulings_fts_%s", tbl_name[t]);
	struct rl_fts_seg *r;
	int rc = rl_fts_seg_open(db, name, &r);
	if (!rc && !r)
		rc = RL_FTS_SEG_DOUBT;
	const char *term;
	while (!rc && rl_fts_seg_term(r, &term)) {
		long long rid;
		unsigned hits[2];
		size_t n = 0;
		term_begin(w, term);
		while (!rc && rl_fts_seg_row(r, &rid, hits)) {
			/* a row of the index has a length (it holds a token) */
			if (rid < 0 || rid > w->maxid || !w->dl[rid]) {
				rc = RL_FTS_SEG_DOUBT;
				break;
			}
			double f = TITLE_W * hits[0] + BODY_W * hits[1];
			rc = keep_row(&w->to, rid, weight(f, w->dl[rid], w->avgdl));
			n++;
		}
		if (!rc && !(rc = rl_fts_seg_status(r)))
			rc = term_put(db, w, term, n);
	}
	if (!rc)
		rc = rl_fts_seg_status(r);
	rl_fts_seg_close(r);
	return rc;
}

/* Deletes table tb's lists. */
static int clear_lists(rl_db *db, const char *tb)
{
	static const char *const clear[] = {
		"DELETE FROM topk_lists WHERE tbl = ?1",
		"DELETE FROM topk_terms WHERE tbl = ?1",
		"DELETE FROM topk_glists WHERE tbl = ?1",
		"DELETE FROM topk_gterms WHERE tbl = ?1",
		"DELETE FROM topk_gdocs WHERE tbl = ?1",
		"DELETE FROM topk_bterms WHERE tbl = ?1",
		"DELETE FROM topk_blists WHERE tbl = ?1",
	};
	int rc = RL_OK;
	for (size_t k = 0; k < sizeof clear / sizeof *clear && !rc; k++) {
		/* schema 18's and 20's tables (not on an upgrade's way) */
		if (k >= 4) {
			char sql[96];
			long long n;
			const char *name = clear[k] + strlen("DELETE FROM ");
			snprintf(sql, sizeof sql, "SELECT count(*) FROM sqlite_schema"
			         " WHERE name = '%.*s'", (int)strcspn(name, " "), name);
			if ((rc = count_of(db, sql, &n)))
				break;
			if (!n)
				continue;
		}
		sqlite3_stmt *del = rl_db_prepare(db, clear[k]);
		if (!del)
			return RL_EINTERNAL;
		rl_bind_text(del, 1, tb);
		int s = sqlite3_step(del);
		if (s != SQLITE_DONE)
			rc = rl_db_sqlite_fail(db, s, "lists");
		sqlite3_finalize(del);
	}
	return rc;
}

/* How the lists are read: RULINGS_TOPK_BUILD=vocab always through
 * fts5vocab, =direct only from the index itself (an error when the
 * reader cannot: for tests that compare the two), else the index when
 * the reader can read it and fts5vocab otherwise. */
static int build_mode(void)
{
	const char *e = getenv("RULINGS_TOPK_BUILD");
	return !e ? 0 : strcmp(e, "vocab") == 0 ? 1 : strcmp(e, "direct") == 0 ? 2
	       : 0;
}

static int build_table(rl_db *db, int t, const struct facets *fac)
{
	const char *tb = tbl_name[t];
	long long rows;
	struct build w = { .tb = tb, .maxid = -1 };
	int rc = averages(db, t, &rows, &w.avgdl);
	sqlite3_stmt *state = NULL;
	if (!rc)
		rc = clear_lists(db, tb);
	if (!rc && !(state = rl_db_prepare(db, "INSERT OR REPLACE INTO topk_state"
	                                   " (tbl, rows, avgdl) VALUES (?1, ?2, ?3)")))
		rc = RL_EINTERNAL;
	if (!rc) {
		rl_bind_text(state, 1, tb);
		sqlite3_bind_int64(state, 2, rows);
		sqlite3_bind_double(state, 3, w.avgdl);
		int s = sqlite3_step(state);
		if (s != SQLITE_DONE)
			rc = rl_db_sqlite_fail(db, s, "lists");
	}
	sqlite3_finalize(state);
	if (rc || rows < 2 * RL_TOPK_LIST || w.avgdl <= 0)
		return rc;

	rc = lengths(db, t, &w.dl, &w.maxid);
	if (!rc)
		rc = bound_of(db, t, &w.bd);
	if (!rc && w.bd.n)
		rc = gput_open(db, &w.gp);
	w.put_term = rc ? NULL : rl_db_prepare(db,
		"INSERT INTO topk_terms (tbl, term, docs, tau) VALUES (?1, ?2, ?3, ?4)");
	w.put = rc ? NULL : rl_db_prepare(db,
		"INSERT INTO topk_lists (tbl, term, g0, rid) VALUES (?1, ?2, ?3, ?4)");
	if (!rc && (!w.put_term || !w.put))
		rc = RL_EINTERNAL;
	if (!rc && !(w.b = malloc(sizeof *w.b)))
		rc = RL_ENOMEM;
	w.to.best = w.b;
	if (!rc && fac->of && fac->n) {
		w.put_gdocs = rl_db_prepare(db, "INSERT INTO topk_gdocs (tbl, term,"
		                            " game_id, kind, docs) VALUES (?1, ?2,"
		                            " ?3, ?4, ?5)");
		w.to.fcnt = calloc(fac->n + 1, sizeof *w.to.fcnt);
		w.to.touched = malloc(fac->n * sizeof *w.to.touched);
		if (!w.put_gdocs)
			rc = RL_EINTERNAL;
		else if (!w.to.fcnt || !w.to.touched)
			rc = RL_ENOMEM;
		else
			w.to.fac = fac;
	}
	struct bigs big = {0};
	if (!rc && w.to.fac && !(rc = bigs_of(db, fac, &big)) && big.n)
		w.to.big = &big;
	int mode = build_mode();
	if (!rc && mode != 1) {
		rc = lists_direct(db, t, &w);
		if (rc == RL_FTS_SEG_DOUBT)
			rc = mode == 2 ? rl_db_fail(db, RL_EINTERNAL, "the lists:"
			                            " rulings_fts_%s's index is not"
			                            " one segment the reader can"
			                            " read", tb)
			   : (rc = clear_lists(db, tb)) ? rc : lists_vocab(db, t, &w);
	} else if (!rc) {
		rc = lists_vocab(db, t, &w);
	}
	gput_close(&w.gp);
	bigs_free(&big);
	bound_free(&w.bd);
	free(w.to.gv);
	free(w.to.fcnt);
	free(w.to.touched);
	free(w.b);
	free(w.dl);
	sqlite3_finalize(w.put_term);
	sqlite3_finalize(w.put);
	sqlite3_finalize(w.put_gdocs);
	return rc;
}

int rl_topk_rebuild(rl_db *db)
{
	/* FTS5 keeps a transaction's new terms in memory until a savepoint
	 * (or the commit) writes them to the index: written out here, the
	 * index the reader reads is the whole of it (fts5vocab reads the
	 * memory too) */
	int rc = rl_db_exec(db, "SAVEPOINT topk_build; RELEASE topk_build");
	struct facets fac = {0};
	if (!rc)
		rc = facets_of(db, &fac);
	for (int t = 0; t < 4 && !rc; t++)
		rc = build_table(db, t, &fac);
	facets_free(&fac);
	if (!rc)
		rc = rl_db_exec(db, "DELETE FROM topk_dirty");
	return rc;
}

/* The game lists again, from the index as it is, at the averages of the
 * lists' build (topk_state: the weights are the other lists'; a ruling
 * changed since is scored anyway, topk_dirty), when a thesaurus changed
 * which terms are bound to which games (rl_topk_thesaurus_key). */
int rl_topk_games(rl_db *db)
{
	int rc = RL_OK;
	sqlite3_stmt *state = rl_db_prepare(db, "SELECT avgdl FROM topk_state"
	                                    " WHERE tbl = ?1 AND rows >= ?2");
	sqlite3_stmt *listed = rl_db_prepare(db, "SELECT 1 FROM topk_terms"
	                                     " WHERE tbl = ?1 AND term = ?2");
	sqlite3_stmt *del[2] = {
		rl_db_prepare(db, "DELETE FROM topk_glists WHERE tbl = ?1"),
		rl_db_prepare(db, "DELETE FROM topk_gterms WHERE tbl = ?1"),
	};
	if (!state || !listed || !del[0] || !del[1])
		rc = RL_EINTERNAL;
	for (int t = 0; t < 4 && !rc; t++) {
		const char *tb = tbl_name[t];
		for (int i = 0; i < 2 && !rc; i++) {
			rl_bind_text(del[i], 1, tb);
			int s = sqlite3_step(del[i]);
			if (s != SQLITE_DONE)
				rc = rl_db_sqlite_fail(db, s, "lists");
			sqlite3_reset(del[i]);
		}
		rl_bind_text(state, 1, tb);
		sqlite3_bind_int(state, 2, 2 * RL_TOPK_LIST);
		int s = rc ? SQLITE_DONE : sqlite3_step(state);
		double a0 = s == SQLITE_ROW ? sqlite3_column_double(state, 0) : 0;
		if (s != SQLITE_ROW && s != SQLITE_DONE)
			rc = rl_db_sqlite_fail(db, s, "lists");
		sqlite3_reset(state);
		if (rc || a0 <= 0)
			continue;
		struct bound bd = {0};
		struct gput gp = {0};
		unsigned *dl = NULL;
		long long maxid = -1;
		sqlite3_stmt *inst = NULL;
		struct rows_to to = { .bd = &bd };
		size_t n;
		rc = bound_of(db, t, &bd);
		if (!rc && bd.n) {
			char sql[192];
			snprintf(sql, sizeof sql, "CREATE VIRTUAL TABLE IF NOT EXISTS"
			         " temp.topk_inst_%s USING fts5vocab(main,"
			         " rulings_fts_%s, instance)", tb, tb);
			rc = rl_db_exec(db, sql);
			if (!rc)
				rc = gput_open(db, &gp);
			if (!rc)
				rc = lengths(db, t, &dl, &maxid);
			snprintf(sql, sizeof sql, "SELECT doc, col FROM temp.topk_inst_%s"
			         " WHERE term = ?1", tb);
			if (!rc && !(inst = rl_db_prepare(db, sql)))
				rc = RL_EINTERNAL;
		}
		for (size_t j = 0; j < bd.n && !rc; j++) {
			const char *term = bd.v[j].term;
			bool seen = false;
			for (size_t i = 0; i < j && !seen; i++)
				seen = strcmp(bd.v[i].term, term) == 0;
			if (seen)
				continue;
			rl_bind_text(listed, 1, tb);
			rl_bind_text(listed, 2, term);
			s = sqlite3_step(listed);
			sqlite3_reset(listed);
			if (s == SQLITE_DONE)
				continue;       /* no list: its rows are taken whole */
			if (s != SQLITE_ROW) {
				rc = rl_db_sqlite_fail(db, s, "lists");
				break;
			}
			to.gn = 0;
			rc = term_rows(db, inst, term, dl, maxid, a0, &to, &n);
			if (!rc)
				rc = put_game_lists(db, &gp, &bd, tb, term, to.gv,
				                    to.gn);
		}
		free(to.gv);
		free(dl);
		sqlite3_finalize(inst);
		gput_close(&gp);
		bound_free(&bd);
	}
	sqlite3_finalize(state);
	sqlite3_finalize(listed);
	sqlite3_finalize(del[0]);
	sqlite3_finalize(del[1]);
	return rc;
}

int rl_topk_thesaurus_key(rl_db *db, char **key)
{
	*key = NULL;
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT group_concat(x, char(10)) FROM (SELECT DISTINCT"
		" t.term || char(9) || rl_fold(g.name) AS x FROM concept_terms t"
		" JOIN concepts c ON c.id = t.concept_id"
		" JOIN games g ON g.id = c.game_id ORDER BY x)");
	if (!st)
		return RL_EINTERNAL;
	int s = sqlite3_step(st);
	const char *v = s == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0)
	                                : NULL;
	int rc = s == SQLITE_ROW ? RL_OK : rl_db_sqlite_fail(db, s, "lists");
	if (!rc && !(*key = strdup(v ? v : "")))
		rc = RL_ENOMEM;
	sqlite3_finalize(st);
	return rc;
}

/* ---- keeping them current ----------------------------------------------- */

int rl_topk_note(rl_db *db, long long id)
{
	sqlite3_stmt *st = rl_db_prepare(db,
		"INSERT OR IGNORE INTO topk_dirty (rid) VALUES (?1)");
	if (!st)
		return RL_EINTERNAL;
	sqlite3_bind_int64(st, 1, id);
	int s = sqlite3_step(st);
	sqlite3_finalize(st);
	return s == SQLITE_DONE ? RL_OK : rl_db_sqlite_fail(db, s, "note change");
}

int rl_topk_note_pending(rl_db *db)
{
	return rl_db_exec(db, "INSERT OR IGNORE INTO topk_dirty (rid)"
	                  " SELECT id FROM temp.fts_todo");
}

static int count_of(rl_db *db, const char *sql, long long *n)
{
	sqlite3_stmt *st = rl_db_prepare(db, sql);
	if (!st)
		return RL_EINTERNAL;
	int s = sqlite3_step(st);
	*n = s == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return s == SQLITE_ROW || s == SQLITE_DONE ? RL_OK
	       : rl_db_sqlite_fail(db, s, "lists");
}

/* Whether the lists should be built again (see the top of this file). */
static int drifted(rl_db *db, bool *yes)
{
	*yes = false;
	long long dirty, all = 0;
	int rc = count_of(db, "SELECT count(*) FROM topk_dirty", &dirty);
	if (rc || dirty == 0)
		return rc;
	sqlite3_stmt *st = rl_db_prepare(db, "SELECT rows, avgdl FROM topk_state"
	                                 " WHERE tbl = ?1");
	if (!st)
		return RL_EINTERNAL;
	for (int t = 0; t < 4 && !rc && !*yes; t++) {
		long long rows;
		double avgdl;
		if ((rc = averages(db, t, &rows, &avgdl)))
			break;
		all += rows;
		rl_bind_text(st, 1, tbl_name[t]);
		int s = sqlite3_step(st);
		if (s == SQLITE_ROW) {
			long long rows0 = sqlite3_column_int64(st, 0);
			double a0 = sqlite3_column_double(st, 1);
			bool listed = rows0 >= 2 * RL_TOPK_LIST;
			*yes = listed ? rows > 2 * rows0 || 2 * rows < rows0 ||
			                avgdl > 1.1 * a0
			              : rows >= 2 * RL_TOPK_LIST;
		} else if (s == SQLITE_DONE) {
			*yes = rows >= 2 * RL_TOPK_LIST;
		} else {
			rc = rl_db_sqlite_fail(db, s, "lists");
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	if (!rc && !*yes)
		*yes = dirty > all / 8 && all >= 2 * RL_TOPK_LIST;
	return rc;
}

int rl_topk_refresh(rl_db *db)
{
	bool yes;
	int rc = drifted(db, &yes);
	return rc || !yes ? rc : rl_topk_rebuild(db);
}

/* A bulk load refreshes the lists once, with its last group (import.c):
 * refreshed at each group's commit, they were built again at each
 * doubling of the rulings (about twice the last build's cost in all), and
 * the last groups' rulings stayed "changed since" (9,072 of 100k). When
 * the load stopped before its last group, that is done here. */
int rl_topk_refresh_later(rl_db *db)
{
	if (!db->topk_later)
		return RL_OK;
	db->topk_later = false;
	int rc = rl_db_exec(db, "BEGIN IMMEDIATE");
	if (!rc)
		rc = rl_topk_refresh(db);
	if (!rc)
		rc = rl_db_exec(db, "COMMIT");
	if (rc)
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/* A bulk load's index merge. FTS5 writes what a transaction indexed as a
 * segment per megabyte of terms and merges them only part of the way
 * (automerge): a bulk load into an empty database left 3 to 12 segments
 * per index, and a search looks each of its words up in every segment, at
 * each candidate's seek and snippet again (1M: 10.7-17.9 ms of CPU a
 * search before the merge, 6.8-8.2 ms after; bench/RESULTS.md). Merging
 * costs about a rewrite of the index (1M: 2.3 % of the load's CPU), so it
 * is done when the load has made an index at least twice as large as it
 * was — a first load, or one as large as all before it — and left to
 * automerge for smaller loads, whose new segments are few beside the
 * index. */
void rl_fts_note_rows(rl_db *db)
{
	double avgdl;
	db->fts_merge = false;
	for (int t = 0; t < 4; t++)
		if (averages(db, t, &db->fts_rows0[t], &avgdl))
			return;     /* (no merge: the load goes on as before) */
	db->fts_merge = true;
}

int rl_fts_merge_grown(rl_db *db)
{
	if (!db->fts_merge)
		return RL_OK;
	db->fts_merge = false;
	int rc = RL_OK;
	for (int t = 0; t < 4 && !rc; t++) {
		long long rows;
		double avgdl;
		rc = averages(db, t, &rows, &avgdl);
		if (rc || rows <= 0 || rows < 2 * db->fts_rows0[t])
			continue;
		char sql[128];
		snprintf(sql, sizeof sql, "INSERT INTO rulings_fts_%s"
		         " (rulings_fts_%s) VALUES ('optimize')", tbl_name[t],
		         tbl_name[t]);
		rc = rl_db_exec(db, sql);
	}
	return rc;
}

/* ---- answering ---------------------------------------------------------- */

/* A search of several terms (all-words: "a" AND "b"; a word the thesaurus
 * widened: ("a" OR "b")) is bm25's sum over the expression's phrases of
 * idf(p) * g_p(d), 0 for a phrase the row does not hold. A row outside
 * every list's prefix read so far and not changed since the build holds
 * each listed phrase at most at its cut (idf * c * g0 of the next row, or
 * tau), so it scores at most the sum of those over the listed phrases.
 * A phrase whose term has no list (it is in few rows) has all its rows
 * taken as candidates: a row left out does not hold it, so its part is 0,
 * and an AND that needs it cannot match a row left out at all (bound 0).
 * Expressions of anything else (phrases of several tokens, NEAR, NOT,
 * column filters, prefixes) are not taken: they are scored exhaustively.
 *
 * A phrase of other games' concepts (`power` widened to Spirit Island's
 * "Pouvoir": the search's condition lets it match in those games only,
 * rl_phrase_games) still scores in any row that holds it: bm25 scores
 * the whole expression whatever made the row match. For such a phrase the
 * candidates are the prefixes of its list over all games and of its list
 * in each of its games (topk_glists, schema 15: a game's best rows, all
 * of them when fewer than RL_TOPK_LIST; built with the other lists, at
 * the same averages). A row left out is of one of its games or of
 * another, and the bound is the largest over those cases: in the case
 * of game G, the expression must be able to hold with each restricted
 * phrase false unless G is one of its games, and a phrase counts with
 * its cut there (below both its lists' cuts in its games; below its list
 * over all games' elsewhere). Before the game lists, the rows read from
 * "Pouvoir"'s list were other games' and matched nothing, and the bound
 * never fell below the results: every match of `power` was scored, 5.5 s
 * at 1M rulings. */

/* ---- the expression: strings, AND, OR, parentheses ---- */

enum { OP_AND = RL_TOPK_AND, OP_OR = RL_TOPK_OR };

struct parse {
	const char *s;
	struct rl_topk *k;
	bool bad;                       /* not a form the lists can take */
	bool oom;
	int depth;                      /* of parentheses */
};

static void skip_space(struct parse *p)
{
	while (*p->s == ' ')
		p->s++;
}

static bool keyword(struct parse *p, const char *kw)
{
	skip_space(p);
	size_t n = strlen(kw);
	if (strncmp(p->s, kw, n) != 0 || (p->s[n] != ' ' && p->s[n] != '"' &&
	                                  p->s[n] != '('))
		return false;
	p->s += n;
	return true;
}

static void emit(struct parse *p, int op)
{
	struct rl_topk *k = p->k;
	if (!rl_grow(&k->prog, &k->cprog, k->nprog + 1, sizeof *k->prog))
		p->oom = true;
	else
		k->prog[k->nprog++] = op;
}

static void parse_or(struct parse *p);

/* A string ("word", "" for a quote in it) or an expression in
 * parentheses. */
static void parse_primary(struct parse *p)
{
	skip_space(p);
	if (*p->s == '(') {
		if (++p->depth > 64) {
			p->bad = true;      /* deeper than the search builds */
			return;
		}
		p->s++;
		parse_or(p);
		p->depth--;
		skip_space(p);
		if (*p->s != ')')
			p->bad = true;
		else
			p->s++;
		return;
	}
	if (*p->s != '"') {
		p->bad = true;
		return;
	}
	const char *start = p->s++;
	struct rl_buf w = {0};
	for (;; p->s++) {
		if (!*p->s) {
			p->bad = true;
			break;
		}
		if (*p->s == '"') {
			if (p->s[1] != '"')
				break;
			p->s++;
		}
		rl_buf_addc(&w, *p->s);
	}
	if (p->bad) {
		rl_buf_free(&w);
		return;
	}
	p->s++;
	struct rl_topk *k = p->k;
	char *word = rl_buf_take(&w), *raw = strndup(start, (size_t)(p->s - start));
	if (!word || !raw ||
	    !rl_grow(&k->ph, &k->cph, k->nph + 1, sizeof *k->ph)) {
		free(word);
		free(raw);
		p->oom = true;
		return;
	}
	k->ph[k->nph] = (struct rl_topk_phrase){ .word = word, .raw = raw };
	emit(p, (int)k->nph++);
}

static void parse_and(struct parse *p)
{
	parse_primary(p);
	while (!p->bad && !p->oom && keyword(p, "AND")) {
		parse_primary(p);
		emit(p, OP_AND);
	}
}

static void parse_or(struct parse *p)
{
	parse_and(p);
	while (!p->bad && !p->oom && keyword(p, "OR")) {
		parse_and(p);
		emit(p, OP_OR);
	}
}

/* Whether a row outside the candidates can match the expression, when
 * phrase i may be held by such a row only where avail[i]: not when an AND
 * needs a phrase all of whose rows are candidates (one without a list),
 * or one that makes a ruling match in other games only. */
static bool can_match(const struct rl_topk *k, const bool *avail)
{
	bool stack[64];
	size_t n = 0;
	for (size_t i = 0; i < k->nprog; i++) {
		int op = k->prog[i];
		if (op >= 0) {
			if (n == sizeof stack / sizeof *stack)
				return true;    /* deeper than ever built: no proof */
			stack[n++] = avail[op];
		} else if (n >= 2) {
			bool b = stack[--n];
			stack[n - 1] = op == OP_AND ? stack[n - 1] && b
			                            : stack[n - 1] || b;
		}
	}
	return n == 1 ? stack[0] : true;
}

/* The game ids of the phrases that games restricts (by folded name). */
static int restrict_games(rl_db *db, const struct rl_phrase_games *games,
                          struct rl_topk *k)
{
	sqlite3_stmt *st = rl_db_prepare(db, "SELECT id FROM games"
	                                 " WHERE rl_fold(name) = ?1");
	if (!st)
		return RL_EINTERNAL;
	int rc = RL_OK;
	size_t cap = 0;
	for (size_t i = 0; i < k->nph && !rc; i++) {
		struct rl_topk_phrase *ph = &k->ph[i];
		char *const *names = games->v[i];
		if (!names)
			continue;
		ph->restricted = true;
		cap = 0;
		for (size_t j = 0; names[j] && !rc; j++) {
			rl_bind_text(st, 1, names[j]);
			int s;
			while (!rc && (s = sqlite3_step(st)) == SQLITE_ROW) {
				long long id = sqlite3_column_int64(st, 0);
				bool dup = false;
				for (size_t g = 0; g < ph->ngid && !dup; g++)
					dup = ph->gid[g] == id;
				if (dup)
					continue;
				if (!rl_grow(&ph->gid, &cap, ph->ngid + 1,
				             sizeof *ph->gid))
					rc = RL_ENOMEM;
				else
					ph->gid[ph->ngid++] = id;
			}
			if (!rc && s != SQLITE_DONE)
				rc = rl_db_sqlite_fail(db, s, "lists");
			sqlite3_reset(st);
		}
	}
	sqlite3_finalize(st);
	return rc;
}

/* Phrase ph's lists per game in table t (restricted, listed there). */
static int game_lists_of(rl_db *db, sqlite3_stmt *st, int t,
                         struct rl_topk_phrase *ph)
{
	if (!(ph->gl[t] = calloc(ph->ngid ? ph->ngid : 1, sizeof *ph->gl[t])))
		return RL_ENOMEM;
	for (size_t g = 0; g < ph->ngid && st; g++) {
		rl_bind_text(st, 1, tbl_name[t]);
		rl_bind_text(st, 2, ph->term[t]);
		sqlite3_bind_int64(st, 3, ph->gid[g]);
		int s = sqlite3_step(st);
		struct rl_topk_glist *l = &ph->gl[t][g];
		if (s == SQLITE_ROW) {
			l->listed = true;
			l->docs = sqlite3_column_int64(st, 0);
			l->tau = sqlite3_column_double(st, 1);
		}
		sqlite3_reset(st);
		if (s != SQLITE_ROW && s != SQLITE_DONE)
			return rl_db_sqlite_fail(db, s, "lists");
	}
	return RL_OK;
}

int rl_topk_game(rl_db *db, struct rl_topk *k, long long gid)
{
	k->fgid = 0;
	/* a database of schema 14, opened to read: no game lists */
	if (gid <= 0 || sqlite3_table_column_metadata(db->h, "main",
	    "topk_gterms", "tau", NULL, NULL, NULL, NULL, NULL) != SQLITE_OK)
		return RL_OK;
	sqlite3_stmt *st = rl_db_prepare(db, "SELECT docs, tau FROM topk_gterms"
	                                 " WHERE tbl = ?1 AND term = ?2"
	                                 " AND game_id = ?3");
	/* schema 21's lists of the games of many rulings, every listed term */
	sqlite3_stmt *bst = NULL;
	if (st && sqlite3_table_column_metadata(db->h, "main", "topk_bterms",
	    "tau", NULL, NULL, NULL, NULL, NULL) == SQLITE_OK &&
	    !(bst = rl_db_prepare(db, "SELECT docs, tau FROM topk_bterms"
	                          " WHERE tbl = ?1 AND term = ?2"
	                          " AND game_id = ?3"))) {
		sqlite3_finalize(st);
		return RL_EINTERNAL;
	}
	if (!st)
		return RL_EINTERNAL;
	int rc = RL_OK;
	for (int t = 0; t < 4 && !rc; t++) {
		for (size_t i = 0; i < k->nph && !rc; i++) {
			struct rl_topk_phrase *ph = &k->ph[i];
			struct rl_topk_glist *l = &ph->fl[t];
			*l = (struct rl_topk_glist){0};
			if (!k->t[t].wanted || !k->t[t].listed || !ph->listed[t])
				continue;
			for (int b = 0; b < 2 && !l->listed && !rc; b++) {
				sqlite3_stmt *q = b ? bst : st;
				if (!q)
					break;
				rl_bind_text(q, 1, tbl_name[t]);
				rl_bind_text(q, 2, ph->term[t]);
				sqlite3_bind_int64(q, 3, gid);
				int s = sqlite3_step(q);
				if (s == SQLITE_ROW) {
					l->listed = true;
					l->big = b;
					l->docs = sqlite3_column_int64(q, 0);
					l->tau = sqlite3_column_double(q, 1);
				} else if (s != SQLITE_DONE) {
					rc = rl_db_sqlite_fail(db, s, "lists");
				}
				sqlite3_reset(q);
			}
		}
	}
	sqlite3_finalize(st);
	sqlite3_finalize(bst);
	/* used when each table read from lists has them for each of its
	 * listed phrases: a table of the game's lists beside one of all
	 * games' can fill the candidates with the game's weak rows (`Dégâts`
	 * in Spirit Island: English rows of "Damage", whose idf is bm25's
	 * floor) while the other still bounds far above them, and the
	 * search gives up on the lists */
	bool all = !rc;
	for (int t = 0; t < 4 && all; t++)
		for (size_t i = 0; i < k->nph && all && k->t[t].wanted &&
		     k->t[t].listed; i++)
			all = !k->ph[i].listed[t] || k->ph[i].fl[t].listed;
	if (all)
		k->fgid = gid;
	return rc;
}

int rl_topk_plan(rl_db *db, const char *match,
                 const struct rl_phrase_games *games, const bool wanted[4],
                 struct rl_topk *k, bool *usable)
{
	*k = (struct rl_topk){0};
	*usable = false;
	/* a database of an older schema, opened to read: no lists */
	if (sqlite3_table_column_metadata(db->h, "main", "topk_terms", "tau",
	                                  NULL, NULL, NULL, NULL, NULL) != SQLITE_OK)
		return RL_OK;
	fts5_api *api = rl_db_fts5(db);
	if (!api)
		return RL_OK;
	struct parse p = { .s = match, .k = k };
	parse_or(&p);
	skip_space(&p);
	if (p.oom)
		return RL_ENOMEM;
	if (p.bad || *p.s || !k->nph)
		return RL_OK;
	k->parsed = true;
	/* the phrases of other games' concepts (written in the same order);
	 * were they not known, taking them as matching in any game would
	 * only make the bound looser */
	int rc = RL_OK;
	if (games && !games->oom && games->n == k->nph)
		rc = restrict_games(db, games, k);
	sqlite3_stmt *st = rc ? NULL : rl_db_prepare(db,
		"SELECT t.docs, t.tau, s.avgdl"
		" FROM topk_terms t JOIN topk_state s ON s.tbl = t.tbl"
		" WHERE t.tbl = ?1 AND t.term = ?2");
	/* a database of schema 14 has no game lists: their phrases' rows
	 * are taken whole */
	sqlite3_stmt *gst = NULL;
	if (!rc && sqlite3_table_column_metadata(db->h, "main", "topk_gterms",
	    "tau", NULL, NULL, NULL, NULL, NULL) == SQLITE_OK &&
	    !(gst = rl_db_prepare(db, "SELECT docs, tau FROM topk_gterms"
	                          " WHERE tbl = ?1 AND term = ?2 AND game_id = ?3")))
		rc = RL_EINTERNAL;
	if (!rc && !st)
		rc = RL_EINTERNAL;
	for (int t = 0; t < 4 && !rc; t++) {
		struct rl_topk_table *x = &k->t[t];
		if (!(x->wanted = wanted[t]))
			continue;
		/* the table is restricted to candidates when each phrase is
		 * one term there and one of them has a list */
		bool all_terms = true, some_list = false;
		for (size_t i = 0; i < k->nph && !rc && all_terms; i++) {
			struct rl_topk_phrase *ph = &k->ph[i];
			if ((rc = term_of(db, api, t, ph->word, &ph->term[t])))
				break;
			if (!ph->term[t]) {
				all_terms = false;
				break;
			}
			rl_bind_text(st, 1, tbl_name[t]);
			rl_bind_text(st, 2, ph->term[t]);
			int s = sqlite3_step(st);
			if (s == SQLITE_ROW) {
				ph->listed[t] = some_list = true;
				ph->docs0[t] = sqlite3_column_int64(st, 0);
				ph->tau[t] = sqlite3_column_double(st, 1);
				x->avgdl0 = sqlite3_column_double(st, 2);
			} else if (s != SQLITE_DONE) {
				rc = rl_db_sqlite_fail(db, s, "lists");
			}
			sqlite3_reset(st);
			if (!rc && ph->restricted && ph->listed[t])
				rc = game_lists_of(db, gst, t, ph);
		}
		x->listed = !rc && all_terms && some_list;
		*usable |= x->listed;
	}
	sqlite3_finalize(st);
	sqlite3_finalize(gst);
	if (!rc && *usable)
		rc = count_of(db, "SELECT count(*) FROM topk_dirty", &k->dirty);
	if (!rc && *usable)
		rc = rl_db_exec(db, "CREATE TEMP TABLE IF NOT EXISTS topk_cand"
		                " (rid INTEGER PRIMARY KEY, tabs INTEGER NOT NULL)");
	return rc;
}

/* The rows of table t holding term now: as built when nothing changed
 * since, else counted (FTS5's own count, which bm25's idf uses). */
static int docs_now(rl_db *db, int t, const char *term, long long docs0,
                    long long dirty, long long *docs)
{
	*docs = docs0;
	if (!dirty)
		return RL_OK;
	char sql[192];
	snprintf(sql, sizeof sql,
	         "CREATE VIRTUAL TABLE IF NOT EXISTS temp.topk_row_%s USING"
	         " fts5vocab(main, rulings_fts_%s, row)", tbl_name[t], tbl_name[t]);
	int rc = rl_db_exec(db, sql);
	snprintf(sql, sizeof sql, "SELECT doc FROM temp.topk_row_%s"
	         " WHERE term = ?1", tbl_name[t]);
	sqlite3_stmt *st = rc ? NULL : rl_db_prepare(db, sql);
	if (!st)
		return rc ? rc : RL_EINTERNAL;
	rl_bind_text(st, 1, term);
	int s = sqlite3_step(st);
	*docs = s == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return s == SQLITE_ROW || s == SQLITE_DONE ? RL_OK
	       : rl_db_sqlite_fail(db, s, "lists");
}

/* The statements reading one kind of list: all games' (topk_lists), or
 * one game's (topk_glists, ?4 the game). */
struct list_stmts {
	sqlite3_stmt *ins, *at, *upto;
};

struct cand_stmts {
	struct list_stmts all, game, big;
};

static int open_lists(rl_db *db, struct list_stmts *l, const char *table,
                      const char *game)
{
	char sql[384];
	snprintf(sql, sizeof sql, "INSERT INTO temp.topk_cand (rid, tabs)"
	         " SELECT rid, ?5 FROM %s WHERE tbl = ?1 AND term = ?2%s"
	         " ORDER BY g0 DESC, rid LIMIT ?3" RL_CAND_UPSERT, table, game);
	l->ins = rl_db_prepare(db, sql);
	snprintf(sql, sizeof sql, "SELECT g0 FROM %s WHERE tbl = ?1"
	         " AND term = ?2%s ORDER BY g0 DESC, rid LIMIT 1 OFFSET ?3",
	         table, game);
	l->at = rl_db_prepare(db, sql);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM %s"
	         " WHERE tbl = ?1 AND term = ?2%s AND g0 >= ?3", table, game);
	l->upto = rl_db_prepare(db, sql);
	return l->ins && l->at && l->upto ? RL_OK : RL_EINTERNAL;
}

static void close_lists(struct list_stmts *l)
{
	sqlite3_finalize(l->ins);
	sqlite3_finalize(l->at);
	sqlite3_finalize(l->upto);
}

static void bind_list(sqlite3_stmt *st, int t, const char *term,
                      long long gid)
{
	rl_bind_text(st, 1, tbl_name[t]);
	rl_bind_text(st, 2, term);
	if (gid)
		sqlite3_bind_int64(st, 4, gid);
}

/* The weight at position `at` of a list (*found false past its end). */
static int weight_at(rl_db *db, sqlite3_stmt *st, int t, const char *term,
                     long long gid, size_t at, bool *found, double *g)
{
	bind_list(st, t, term, gid);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)at);
	int s = sqlite3_step(st);
	*found = s == SQLITE_ROW;
	if (*found)
		*g = sqlite3_column_double(st, 0);
	sqlite3_reset(st);
	return s == SQLITE_ROW || s == SQLITE_DONE ? RL_OK
	       : rl_db_sqlite_fail(db, s, "candidates");
}

/* The first `take` rows of term's list in table t (all games', or game
 * gid's: gid not 0) into the candidates (and those that weigh as much as
 * the last one, to the float's margin: rulings of equal weight are ranked
 * by id, and a bound equal to the last result's score proves nothing);
 * *g the weight of the first row left out, tau when none is (the list
 * ran out: *exhausted, unless it holds every row, tau 0). */
static int take_prefix(rl_db *db, const struct list_stmts *c, int t,
                       const char *term, long long gid, double tau,
                       size_t take, double *g, bool *exhausted)
{
	bool found;
	size_t n = take;
	*g = tau;
	int rc = weight_at(db, c->at, t, term, gid, take, &found, g);
	if (!rc && found) {
		bind_list(c->upto, t, term, gid);
		sqlite3_bind_double(c->upto, 3, *g * (1.0 - 1e-9));
		int s = sqlite3_step(c->upto);
		if (s == SQLITE_ROW)
			n = (size_t)sqlite3_column_int64(c->upto, 0);
		else
			rc = rl_db_sqlite_fail(db, s, "candidates");
		sqlite3_reset(c->upto);
		if (!rc)
			rc = weight_at(db, c->at, t, term, gid, n, &found, g);
	}
	if (!rc && !found) {
		*g = tau;
		if (tau > 0)
			*exhausted = true;
	}
	if (rc)
		return rc;
	bind_list(c->ins, t, term, gid);
	sqlite3_bind_int64(c->ins, 3, (sqlite3_int64)n);
	sqlite3_bind_int(c->ins, 5, 1 << t);
	int s = sqlite3_step(c->ins);
	sqlite3_reset(c->ins);
	return s == SQLITE_DONE ? RL_OK : rl_db_sqlite_fail(db, s, "candidates");
}

/* Every row of table t holding a phrase that has no list there: few. */
static int take_all(rl_db *db, int t, const struct rl_topk_phrase *ph)
{
	char sql[256];
	snprintf(sql, sizeof sql, "INSERT INTO temp.topk_cand (rid, tabs)"
	         " SELECT rowid, %d FROM rulings_fts_%s WHERE rulings_fts_%s"
	         " MATCH ?1" RL_CAND_UPSERT, 1 << t, tbl_name[t], tbl_name[t]);
	sqlite3_stmt *st = rl_db_prepare(db, sql);
	if (!st)
		return RL_EINTERNAL;
	rl_bind_text(st, 1, ph->raw);
	int s = sqlite3_step(st);
	sqlite3_finalize(st);
	return s == SQLITE_DONE ? RL_OK : rl_db_sqlite_fail(db, s, "candidates");
}

/* What each phrase can add to the score of a row of table t left out
 * (its weight w times its cut, and at the lists' ends times tau), and
 * whether the row can hold it at all. */
struct part {
	double w;
	double cut, end;        /* all games' list: its cut, and tau */
	bool whole;             /* every row holding it is a candidate */
};

/* The bound of table t over its cases (see "answering" above): each
 * game some phrase is restricted to, and any other game. */
static void table_bound(const struct rl_topk *k, int t, const struct part *pt,
                        bool *avail, double *bound, double *least)
{
	/* the cases: gid 0 stands for "any other game" */
	for (size_t ci = 0, cj = 0;; ) {
		long long gid = 0;
		bool last = true;
		/* the next game, as (phrase ci, its game cj) */
		for (; ci < k->nph; ci++, cj = 0) {
			const struct rl_topk_phrase *ph = &k->ph[ci];
			if (ph->restricted && !pt[ci].whole && cj < ph->ngid) {
				gid = ph->gid[cj++];
				last = false;
				break;
			}
		}
		double sum = 0, end = 0;
		for (size_t i = 0; i < k->nph; i++) {
			const struct rl_topk_phrase *ph = &k->ph[i];
			const struct part *p = &pt[i];
			avail[i] = false;
			if (p->whole)
				continue;
			if (!ph->restricted) {
				avail[i] = true;
				sum += p->w * p->cut;
				end += p->w * p->end;
				continue;
			}
			size_t g = 0;
			while (g < ph->ngid && (last || ph->gid[g] != gid))
				g++;
			if (g == ph->ngid) {
				/* no match by it here, but it scores where held:
				 * below its list over all games' cut */
				sum += p->w * p->cut;
				end += p->w * p->end;
				continue;
			}
			/* below both its lists' cuts */
			const struct rl_topk_glist *l = &ph->gl[t][g];
			avail[i] = l->cut > 0;
			sum += p->w * (l->cut < p->cut ? l->cut : p->cut);
			end += p->w * (l->tau < p->end ? l->tau : p->end);
		}
		if (can_match(k, avail)) {
			if (sum > *bound)
				*bound = sum;
			if (end > *least)
				*least = end;
		}
		if (last)
			break;
	}
}

/* Whether table t's candidates are read from the lists of the one game
 * the filter keeps: each phrase listed there has such a list. */
static bool in_game(const struct rl_topk *k, int t)
{
	if (!k->fgid)
		return false;
	for (size_t i = 0; i < k->nph; i++)
		if (k->ph[i].listed[t] && !k->ph[i].fl[t].listed)
			return false;
	return true;
}

/* Table t's candidates when the filter keeps the rulings of game
 * k->fgid alone (ANDed with the rest of the search): no other ruling can
 * be an answer, so each phrase's first `take` rows of that game (its list
 * of the game, topk_glists) are the candidates, and a ruling of the game
 * left out weighs below each phrase's cut there. A phrase that makes a
 * ruling match in other games only still scores where a ruling of this
 * game holds it; every row of a phrase without a list is a candidate. */
static int game_candidates(rl_db *db, struct rl_topk *k, int t,
                           const struct cand_stmts *c, long long rows,
                           double cf, size_t take, struct part *pt,
                           bool *avail, double *bound, double *least,
                           bool *exhausted)
{
	int rc = RL_OK;
	double sum = 0, end = 0;
	for (size_t i = 0; i < k->nph && !rc; i++) {
		struct rl_topk_phrase *ph = &k->ph[i];
		struct rl_topk_glist *l = &ph->fl[t];
		avail[i] = false;
		pt[i] = (struct part){0};
		if (!ph->listed[t]) {
			rc = take_all(db, t, ph);
			continue;
		}
		long long docs;
		rc = docs_now(db, t, ph->term[t], ph->docs0[t], k->dirty, &docs);
		double w = rc ? 0 : idf(rows, docs) * cf;
		if (!rc)
			rc = take_prefix(db, l->big ? &c->big : &c->game, t,
			                 ph->term[t], k->fgid, l->tau, take, &l->cut,
			                 exhausted);
		bool here = !ph->restricted;
		for (size_t g = 0; !here && g < ph->ngid; g++)
			here = ph->gid[g] == k->fgid;
		avail[i] = here && l->cut > 0;
		sum += w * l->cut;
		end += w * l->tau;
	}
	if (!rc && can_match(k, avail)) {
		if (sum > *bound)
			*bound = sum;
		if (end > *least)
			*least = end;
	}
	return rc;
}

int rl_topk_candidates(rl_db *db, struct rl_topk *k, size_t take,
                       double *bound, double *least, bool *exhausted)
{
	*bound = -1;
	*least = 0;
	*exhausted = false;
	int rc = rl_db_exec(db, "DELETE FROM temp.topk_cand;"
	                    "INSERT INTO temp.topk_cand (rid, tabs)"
	                    " SELECT rid, 15 FROM topk_dirty WHERE 1"
	                    RL_CAND_UPSERT);
	struct cand_stmts c = {0};
	/* (a database of schema 14, opened to read, has no game lists) */
	bool games = false, big = false;
	for (size_t i = 0; i < k->nph; i++)
		for (int t = 0; t < 4; t++) {
			const struct rl_topk_glist *l = &k->ph[i].fl[t];
			for (size_t g = 0; k->ph[i].gl[t] && g < k->ph[i].ngid; g++)
				games |= k->ph[i].gl[t][g].listed;
			games |= k->fgid && l->listed && !l->big;
			big |= k->fgid && l->listed && l->big;
		}
	if (!rc)
		rc = open_lists(db, &c.all, "topk_lists", "");
	if (!rc && games)
		rc = open_lists(db, &c.game, "topk_glists", " AND game_id = ?4");
	if (!rc && big)
		rc = open_lists(db, &c.big, "topk_blists", " AND game_id = ?4");
	struct part *pt = rc ? NULL : calloc(k->nph, sizeof *pt);
	bool *avail = rc ? NULL : calloc(k->nph, sizeof *avail);
	if (!rc && (!pt || !avail))
		rc = RL_ENOMEM;
	for (int t = 0; t < 4 && !rc; t++) {
		struct rl_topk_table *x = &k->t[t];
		if (!x->wanted || !x->listed)
			continue;
		long long rows;
		double avgdl;
		if ((rc = averages(db, t, &rows, &avgdl)))
			break;
		double cf = avgdl > x->avgdl0 ? avgdl / x->avgdl0 : 1.0;
		if (in_game(k, t)) {
			rc = game_candidates(db, k, t, &c, rows, cf, take, pt,
			                     avail, bound, least, exhausted);
			continue;
		}
		for (size_t i = 0; i < k->nph && !rc; i++) {
			struct rl_topk_phrase *ph = &k->ph[i];
			struct part *p = &pt[i];
			*p = (struct part){0};
			bool whole = !ph->listed[t];
			for (size_t g = 0; ph->restricted && !whole && g < ph->ngid; g++)
				whole = !ph->gl[t][g].listed;
			if (whole) {
				p->whole = true;
				rc = take_all(db, t, ph);
				continue;
			}
			long long docs;
			rc = docs_now(db, t, ph->term[t], ph->docs0[t], k->dirty, &docs);
			p->w = rc ? 0 : idf(rows, docs) * cf;
			/* a restricted phrase's too: outside its games, a row
			 * left out holds it below that cut, not its best */
			if (!rc)
				rc = take_prefix(db, &c.all, t, ph->term[t], 0, ph->tau[t],
				                 take, &p->cut, exhausted);
			p->end = ph->tau[t];
			for (size_t g = 0; ph->restricted && g < ph->ngid && !rc; g++) {
				struct rl_topk_glist *l = &ph->gl[t][g];
				rc = take_prefix(db, &c.game, t, ph->term[t], ph->gid[g],
				                 l->tau, take, &l->cut, exhausted);
			}
		}
		if (!rc)
			table_bound(k, t, pt, avail, bound, least);
	}
	free(pt);
	free(avail);
	close_lists(&c.all);
	close_lists(&c.game);
	close_lists(&c.big);
	return rc;
}

bool rl_topk_counted(const struct rl_topk *k, int t)
{
	if (k->dirty || !k->t[t].listed)
		return false;
	for (size_t i = 0; i < k->nph; i++)
		if (k->ph[i].listed[t])
			return true;
	return false;
}

void rl_topk_free(struct rl_topk *k)
{
	for (size_t i = 0; i < k->nph; i++) {
		free(k->ph[i].word);
		free(k->ph[i].raw);
		for (int t = 0; t < 4; t++) {
			free(k->ph[i].term[t]);
			free(k->ph[i].gl[t]);
		}
		free(k->ph[i].gid);
	}
	free(k->ph);
	free(k->prog);
	*k = (struct rl_topk){0};
}
