/* topk_bm25.c — rl_bm25(), FTS5's bm25() with each phrase's row count
 * given rather than counted.
 *
 * FTS5's bm25 (fts5_aux.c, fts5Bm25GetData / fts5Bm25Function, unchanged
 * from 3.40 on) counts the rows holding each phrase with xQueryPhrase, a
 * walk of the phrase's whole doclist, once per cursor: at 1M rulings 1,740
 * page reads for `use` (in 560k rulings), where reading the 21 candidates
 * the champion lists name takes 81 (bench/RESULTS.md). And a cursor that
 * seeks its rows one by one (rowid IN (...)) is filtered again for each,
 * so that walk would be made once per candidate. The champion lists
 * already store each listed term's count (topk_terms.docs, FTS5's own at
 * the build), exact while no ruling's text changed since (topk_dirty
 * empty): the search passes it here.
 *
 *     rl_bm25(table, w_0, ..., w_{C-1}, n_0, ..., n_{P-1})
 *
 * w_c the weight of column c (all C given), n_p the rows holding phrase
 * p (in the expression's order, as FTS5 numbers them), or NULL to count
 * them as bm25 does. Every other step is bm25's, with the same
 * floating-point operations in the same order (GCC in ISO C mode does not
 * contract them into fused multiply-adds), so that the scores are equal
 * to the bit: tests/topk compares the two on every row of many words. */

#include "stemtok.h"
#include "topk.h"

#include <sqlite3.h>

#include <math.h>
#include <string.h>

struct bm25_data {
	int nphrase;
	double avgdl;           /* tokens per row, all columns */
	double *idf;            /* per phrase */
	double *freq;           /* per phrase, the current row's */
};

static int count_row(const Fts5ExtensionApi *api, Fts5Context *fts, void *ud)
{
	(void)api, (void)fts;
	++*(sqlite3_int64 *)ud;
	return SQLITE_OK;
}

/* The query's constants, computed at its cursor's first row (again after
 * each xFilter: FTS5 frees a cursor's auxiliary data then). */
static int bm25_data(const Fts5ExtensionApi *api, Fts5Context *fts, int ncol,
                     int nval, sqlite3_value **val, struct bm25_data **out)
{
	struct bm25_data *p = api->xGetAuxdata(fts, 0);
	*out = p;
	if (p)
		return SQLITE_OK;
	int nphrase = api->xPhraseCount(fts);
	if (nval != ncol + nphrase)
		return SQLITE_MISUSE;
	sqlite3_int64 bytes = (sqlite3_int64)sizeof *p +
	                      (sqlite3_int64)nphrase * 2 * (sqlite3_int64)sizeof(double);
	if (!(p = sqlite3_malloc64((sqlite3_uint64)bytes)))
		return SQLITE_NOMEM;
	memset(p, 0, (size_t)bytes);
	p->nphrase = nphrase;
	p->idf = (double *)&p[1];
	p->freq = &p->idf[nphrase];
	sqlite3_int64 rows = 0, tokens = 0;
	int rc = api->xRowCount(fts, &rows);
	if (rc == SQLITE_OK)
		rc = api->xColumnTotalSize(fts, -1, &tokens);
	if (rc == SQLITE_OK)
		p->avgdl = (double)tokens / (double)rows;
	for (int i = 0; rc == SQLITE_OK && i < nphrase; i++) {
		sqlite3_value *n = val[ncol + i];
		sqlite3_int64 hit = 0;
		if (sqlite3_value_type(n) == SQLITE_NULL)
			rc = api->xQueryPhrase(fts, i, &hit, count_row);
		else
			hit = sqlite3_value_int64(n);
		if (rc == SQLITE_OK)
			p->idf[i] = rl_bm25_idf(rows, hit);
	}
	if (rc == SQLITE_OK) {
		rc = api->xSetAuxdata(fts, p, sqlite3_free);
		if (rc != SQLITE_OK)
			p = NULL;       /* freed by xSetAuxdata */
	} else {
		sqlite3_free(p);
		p = NULL;
	}
	*out = p;
	return rc;
}

static void bm25(const Fts5ExtensionApi *api, Fts5Context *fts,
                 sqlite3_context *ctx, int nval, sqlite3_value **val)
{
	int ncol = api->xColumnCount(fts);
	struct bm25_data *p;
	int rc = bm25_data(api, fts, ncol, nval, val, &p);
	if (rc == SQLITE_MISUSE) {
		sqlite3_result_error(ctx, "rl_bm25: a weight for each column and"
		                     " a count (or NULL) for each phrase", -1);
		return;
	}
	int ninst = 0;
	if (rc == SQLITE_OK) {
		memset(p->freq, 0, sizeof(double) * (size_t)p->nphrase);
		rc = api->xInstCount(fts, &ninst);
	}
	for (int i = 0; rc == SQLITE_OK && i < ninst; i++) {
		int ip, ic, io;
		rc = api->xInst(fts, i, &ip, &ic, &io);
		if (rc == SQLITE_OK)
			p->freq[ip] += sqlite3_value_double(val[ic]);
	}
	double d = 0.0;
	if (rc == SQLITE_OK) {
		int ntok;
		rc = api->xColumnSize(fts, -1, &ntok);
		d = (double)ntok;
	}
	if (rc != SQLITE_OK) {
		sqlite3_result_error_code(ctx, rc);
		return;
	}
	sqlite3_result_double(ctx, rl_bm25_score(p->nphrase, p->idf, p->freq,
	                                         d, p->avgdl));
}

double rl_bm25_idf(long long rows, long long hit)
{
	/* bm25's expression: the difference in integers, then the 0.5 in
	 * doubles; floored at 1e-6 */
	double idf = log((rows - hit + 0.5) / (hit + 0.5));
	return idf <= 0.0 ? 1e-6 : idf;
}

double rl_bm25_score(int n, const double *idf, const double *freq,
                     double d, double avgdl)
{
	/* bm25()'s operations, in its order */
	const double k1 = 1.2;
	const double b = 0.75;
	double score = 0.0;
	for (int i = 0; i < n; i++)
		score += idf[i] * ((freq[i] * (k1 + 1.0)) /
		                   (freq[i] + k1 * (1 - b + b * d / avgdl)));
	return -1.0 * score;
}

/* rl_phrases(table): which of the expression's first 63 phrases the
 * current row holds, bit p for phrase p (FTS5 reports a phrase's
 * instances in a row only when its part of the expression stands at that
 * row: an OR's other branch has none there). */
static void phrases(const Fts5ExtensionApi *api, Fts5Context *fts,
                    sqlite3_context *ctx, int nval, sqlite3_value **val)
{
	(void)val;
	if (nval != 0) {
		sqlite3_result_error(ctx, "rl_phrases: no argument after the"
		                     " table", -1);
		return;
	}
	int n = api->xPhraseCount(fts);
	sqlite3_int64 mask = 0;
	for (int i = 0; i < n && i < 63; i++) {
		Fts5PhraseIter it;
		int col = -1, off = -1;
		int rc = api->xPhraseFirst(fts, i, &it, &col, &off);
		if (rc != SQLITE_OK) {
			sqlite3_result_error_code(ctx, rc);
			return;
		}
		if (col >= 0)
			mask |= (sqlite3_int64)1 << i;
	}
	sqlite3_result_int64(ctx, mask);
}

/* rl_insts(table): how many phrase instances the current row holds, or
 * the error counting them met. FTS5's snippet() of SQLite 3.40 loses an
 * out-of-memory error of that count (the next call's result replaces it)
 * and answers the text's start as if nothing matched: called before it,
 * this counts them (snippet() then reads the count FTS5 keeps for the
 * row) and fails the statement when counting fails. (Its first
 * allocation, a byte per phrase, it loses the same way: tests/faults.) */
static void insts(const Fts5ExtensionApi *api, Fts5Context *fts,
                  sqlite3_context *ctx, int nval, sqlite3_value **val)
{
	(void)nval; (void)val;
	int n = 0;
	int rc = api->xInstCount(fts, &n);
	if (rc != SQLITE_OK)
		sqlite3_result_error_code(ctx, rc);
	else
		sqlite3_result_int(ctx, n);
}

int rl_topk_bm25_register(sqlite3 *h)
{
	fts5_api *api = rl_fts5_api(h);
	if (!api)
		return SQLITE_ERROR;
	int rc = api->xCreateFunction(api, "rl_bm25", NULL, bm25, NULL);
	if (rc == SQLITE_OK)
		rc = api->xCreateFunction(api, "rl_phrases", NULL, phrases, NULL);
	if (rc == SQLITE_OK)
		rc = api->xCreateFunction(api, "rl_insts", NULL, insts, NULL);
	return rc;
}

static long long n_seg;

long long rl_topk_seg_searches(void)
{
	return n_seg;
}

void rl_topk_count_seg(void)
{
	n_seg++;
}

static long long n_seg_games;

long long rl_topk_seg_games(void)
{
	return n_seg_games;
}

void rl_topk_count_seg_games(void)
{
	n_seg_games++;
}
