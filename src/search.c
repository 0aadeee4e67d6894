/* search.c — rl_search: full text (BM25-ranked, with snippets) and
 * filters, as of now or of a past time; and what a search is made of
 * (rl_search_explain).
 *
 * The query language becomes SQL in qcompile.c; here that is put
 * together with the full-text tables: the one FTS5 expression that finds
 * and ranks (match), or one that only ranks (rank), the subselects fN,
 * the conditions, the order and the limit. */
#include "ftsseg.h"
#include "query.h"
#include "stemtok.h"
#include "topk.h"
#include "util.h"
#include "utf8.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Column weights for bm25: a match in the title (the question) counts more
 * than one in the answer. One number each gives both the SQL text of the
 * bm25() calls (TITLE_WEIGHT, BODY_WEIGHT: "4.0", "1.0") and the C value
 * seg_table scores with, so the two cannot differ. */
#define TITLE_W 4.0
#define BODY_W 1.0
#define SQL_NUM_(x) #x
#define SQL_NUM(x) SQL_NUM_(x)
#define TITLE_WEIGHT SQL_NUM(TITLE_W)
#define BODY_WEIGHT SQL_NUM(BODY_W)

/* The full-text tables, one per language (schema/002-languages.sql). */
static const char *const fts_langs[] = { "en", "fr", "ru", "xx" };

enum { FTS_ALL = (1u << (sizeof fts_langs / sizeof *fts_langs)) - 1 };

/* Which language filter lang wants table_lang: all for none or "any". */
static bool lang_wants(const char *table_lang, const char *lang)
{
	if (!lang || strcmp(lang, "any") == 0)
		return true;
	bool known = strcmp(lang, "en") == 0 || strcmp(lang, "fr") == 0 ||
	             strcmp(lang, "ru") == 0;
	return known ? strcmp(lang, table_lang) == 0
	             : strcmp(table_lang, "xx") == 0;
}

/* Which tables a search of c reads: those its language filter wants
 * (all for none or "any") less those known to hold no row (c->fts_empty,
 * fts_held_of). */
static bool fts_wanted(const struct rl_compiled *c, const char *table_lang)
{
	for (size_t i = 0; i < sizeof fts_langs / sizeof *fts_langs; i++)
		if (strcmp(fts_langs[i], table_lang) == 0 &&
		    (c->fts_empty & 1u << i))
			return false;
	return lang_wants(table_lang, c->lang);
}

/* The tables that hold a row, into *held: from each table's own %_docsize
 * (a row per ruling indexed, written by FTS5 with the index itself, by
 * rulings, the triggers of plain SQL or a rebuild alike: never stale).
 * When none that lang wants holds one, all (the statements need a table
 * to name, and find nothing in it). */
static int fts_held_of(rl_db *db, const char *lang, unsigned *held)
{
	*held = FTS_ALL;
	sqlite3_stmt *st = NULL;
	int s = sqlite3_prepare_v2(db->h,
		"SELECT EXISTS (SELECT 1 FROM rulings_fts_en_docsize),"
		" EXISTS (SELECT 1 FROM rulings_fts_fr_docsize),"
		" EXISTS (SELECT 1 FROM rulings_fts_ru_docsize),"
		" EXISTS (SELECT 1 FROM rulings_fts_xx_docsize)", -1, &st, NULL);
	if (s != SQLITE_OK) {
		sqlite3_finalize(st);
		return rl_db_sqlite_fail(db, s, "prepare search");
	}
	s = sqlite3_step(st);
	unsigned h = 0;
	for (int i = 0; s == SQLITE_ROW && i < (int)(sizeof fts_langs /
	                                             sizeof *fts_langs); i++)
		if (sqlite3_column_int(st, i) &&
		    lang_wants(fts_langs[i], lang))
			h |= 1u << i;
	sqlite3_finalize(st);
	if (s != SQLITE_ROW)
		return rl_step_error(db, s);
	if (h)
		*held = h;
	return RL_OK;
}

/* c->fts_empty for a search of q (search_in) or its explanation
 * (explain_in): the tables of the language filter that hold no row. Asked
 * only when the search reads full-text tables, without --lang (one table
 * wanted: nothing to leave out; the question costs 0.6 % of a search on
 * the seeds) and not as of a time (temporary tables, all named). */
static int fts_empty_of(rl_db *db, const struct rl_query *q,
                        struct rl_compiled *c)
{
	unsigned held = FTS_ALL;
	int rc = RL_OK;
	if (!q->as_of && (c->match || c->rank || c->nsub) &&
	    (!c->lang || strcmp(c->lang, "any") == 0))
		rc = fts_held_of(db, c->lang, &held);
	c->fts_empty = FTS_ALL & ~held;
	return rc;
}

/* A UNION ALL over the wanted tables of (rid, score, l), or of rid
 * alone for counting; with ph, which phrases of the expression each row
 * holds (rl_phrases: phrase_subs). The MATCH expression is parameter mi.
 * cand: the tables where only the candidates (temp.topk_cand) are
 * scored; k their plan, or NULL. */
static void fts_union(struct rl_buf *b, const struct rl_compiled *c, int mi,
                      bool scored,
                      bool ph, const char *prefix, unsigned cand,
                      const struct rl_topk *k)
{
	bool first = true;
	for (size_t i = 0; i < sizeof fts_langs / sizeof *fts_langs; i++) {
		const char *l = fts_langs[i];
		if (!fts_wanted(c, l))
			continue;
		if (!first)
			rl_buf_adds(b, " UNION ALL ");
		first = false;
		/* candidates scored by rl_bm25 with the lists' counts of the
		 * phrases' rows (topk_bm25.c): bm25's scores, to the bit,
		 * without its walk of each phrase's doclist */
		bool own = scored && (cand & 1u << i) && k &&
		           rl_topk_counted(k, (int)i);
		bool seek = (cand & 1u << i) && k && !k->t[i].walk &&
		            (own || !scored);
		if (own) {
			rl_buf_addf(b, "SELECT rowid AS rid, rl_bm25(%s%s, "
			            TITLE_WEIGHT ", " BODY_WEIGHT, prefix, l);
			for (size_t p = 0; p < k->nph; p++)
				if (k->ph[p].listed[i])
					rl_buf_addf(b, ", %lld", k->ph[p].docs0[i]);
				else
					rl_buf_adds(b, ", NULL");
			rl_buf_addf(b, ") AS score, '%s' AS l", l);
		} else if (scored) {
			rl_buf_addf(b, "SELECT rowid AS rid, bm25(%s%s, "
			            TITLE_WEIGHT ", " BODY_WEIGHT ") AS score,"
			            " '%s' AS l", prefix, l, l);
		} else {
			rl_buf_adds(b, "SELECT rowid AS rid");
		}
		if (ph)
			rl_buf_addf(b, ", rl_phrases(%s%s) AS ph", prefix, l);
		rl_buf_addf(b, " FROM %s%s WHERE %s%s MATCH ?%d",
		            prefix, l, prefix, l, mi);
		/* the fast path: only the candidates are scored. FTS5 seeks
		 * each (rowid IN: the cursor is filtered again per rowid)
		 * when rl_bm25 scores them, or none does (a subselect fN);
		 * bm25 would count each phrase's rows again at each, so there
		 * the + keeps rowid from FTS5 and the doclist is walked once
		 * (fN walked `power`'s 729k rows at 1M, 146 ms, to find its
		 * candidates) */
		if (cand & 1u << i)
			rl_buf_addf(b, " AND %srowid IN (SELECT rid FROM"
			            " temp.topk_cand WHERE tabs & %u)", seek ? "" : "+",
			            1u << i);
	}
}

/* The snippet of the current row of table prefix+l: the best part of its
 * answer (body, column 1): the title is shown anyway. rl_insts() before
 * it: an out-of-memory error of its count of instances, which snippet()
 * loses (answering the text's start), fails the search (tests/faults). */
static void snippet_of(struct rl_buf *b, const char *prefix, const char *l)
{
	rl_buf_addf(b, "CASE WHEN rl_insts(%s%s) >= 0 THEN snippet(%s%s, 1, '"
	            RL_SNIPPET_OPEN "', '" RL_SNIPPET_CLOSE "', "
	            "'\xE2\x80\xA6', 24) END", prefix, l, prefix, l);
}

/* The snippet of the ruling top.id in the table of its language top.l.
 * Computed for the rows a query returns only. snippet() in the ranked
 * UNION ALL ran for every match before the LIMIT, re-tokenizing and
 * stemming each matching text: two thirds of a rare word's query at 1M
 * rulings (bench/RESULTS.md). Each is a query of its own, which parses
 * the MATCH again: the exhaustive ranking leaves them to
 * snippets_after(). */
static void fts_snippet(struct rl_buf *b, const struct rl_compiled *c, int mi,
                        const char *prefix)
{
	rl_buf_adds(b, "CASE top.l");
	for (size_t i = 0; i < sizeof fts_langs / sizeof *fts_langs; i++) {
		const char *l = fts_langs[i];
		if (!fts_wanted(c, l))
			continue;
		rl_buf_addf(b, " WHEN '%s' THEN (SELECT ", l);
		snippet_of(b, prefix, l);
		rl_buf_addf(b, " FROM %s%s WHERE %s%s MATCH ?%d AND rowid = top.id)",
		            prefix, l, prefix, l, mi);
	}
	rl_buf_adds(b, " END");
}

/* temp.asof: each ruling that stood at time when (its latest version by
 * then, not withdrawn since), and, for a full-text query, temporary FTS5
 * tables over those texts, one per language like the real ones. "By
 * then" is by the versions' dates (RL_VERSION_TIME: the date the
 * document states or was given, else its import time), and the latest is
 * by their days, then their imports' order (RL_VERSION_DAY). */
static int build_as_of(rl_db *db, const char *when, bool fts)
{
	char t[RL_WHEN_SIZE];
	if (rl_when_parse(when, true, t))
		return rl_db_fail(db, RL_EUSAGE, "--as-of takes %s, not '%s'",
		                  rl_when_forms, when);
	int rc = rl_db_exec(db,
		"CREATE TEMP TABLE IF NOT EXISTS asof"
		" (id INTEGER PRIMARY KEY, title TEXT, body TEXT, lang TEXT);"
		"DELETE FROM temp.asof;");
	sqlite3_stmt *st = NULL;
	if (!rc && !(st = rl_db_prepare(db,
		"INSERT INTO temp.asof (id, title, body, lang)"
		" SELECT v.ruling_id, v.title, v.body, r.lang"
		" FROM ruling_versions v JOIN rulings r ON r.id = v.ruling_id"
		" JOIN imports iv ON iv.id = v.import_id"
		" WHERE v.import_id = (SELECT v2.import_id"
		"     FROM ruling_versions v2 JOIN imports i2 ON i2.id = v2.import_id"
		"     WHERE v2.ruling_id = v.ruling_id"
		"     AND " RL_VERSION_TIME("i2") " <= ?1"
		"     ORDER BY " RL_VERSION_DAY("i2") " DESC, v2.import_id DESC"
		"     LIMIT 1)"
		" AND NOT EXISTS (SELECT 1 FROM changes c"
		"     JOIN imports i3 ON i3.id = c.import_id"
		"     WHERE c.ruling_id = v.ruling_id AND c.change = 'withdrawn'"
		"     AND " RL_VERSION_TIME("i3") " <= ?1"
		"     AND (" RL_VERSION_DAY("i3") " > " RL_VERSION_DAY("iv")
		"       OR (" RL_VERSION_DAY("i3") " = " RL_VERSION_DAY("iv")
		"           AND c.import_id > v.import_id)))")))
		rc = RL_EINTERNAL;
	if (!rc) {
		rl_bind_text(st, 1, t);
		int s = sqlite3_step(st);
		if (s != SQLITE_DONE)
			rc = rl_db_sqlite_fail(db, s, "as of");
	}
	sqlite3_finalize(st);
	if (rc || !fts)
		return rc;
	/* per table, as in schema/002-languages.sql */
	static const char *const tok[] = { "en", "fr", "en", "none" };
	static const char *const rows[] = {
		"lang = 'en'", "lang = 'fr'", "lang = 'ru'",
		"lang NOT IN ('en', 'fr', 'ru')",
	};
	for (size_t i = 0; i < sizeof fts_langs / sizeof *fts_langs && !rc; i++) {
		const char *l = fts_langs[i];
		char sql[512];
		snprintf(sql, sizeof sql,
		         "CREATE VIRTUAL TABLE IF NOT EXISTS temp.asof_fts_%s USING"
		         " fts5(title, body, tokenize = 'rl_stem 3 %s');"
		         "DELETE FROM temp.asof_fts_%s;"
		         "INSERT INTO temp.asof_fts_%s (rowid, title, body)"
		         " SELECT id, title, body FROM temp.asof WHERE %s;",
		         l, tok[i], l, l, rows[i]);
		rc = rl_db_exec(db, sql);
	}
	return rc;
}

/* The phrase of k's expression that subselect i's expression is alone
 * (the same quoted word: `power`'s "Pouvoir", which the thesaurus lets
 * match in Spirit Island's rulings only), among the first 63; -1 when
 * none. */
static int phrase_sub(const struct rl_compiled *c, size_t i,
                      const struct rl_topk *k)
{
	for (size_t j = 0; k && j < k->nph && j < 63; j++)
		if (k->ph[j].raw && strcmp(k->ph[j].raw, c->sub[i].fts) == 0)
			return (int)j;
	return -1;
}

/* Whether some subselect of c is one phrase of k's expression: then, on
 * the fast path, the matches m are a table of their own (MATERIALIZED)
 * with the phrases each row holds (rl_phrases), and that fN is the rows
 * of m holding its phrase. The same rows where fN is asked: of r, m's
 * rows (r.id = m.rid), and m's row of a ruling is the one full-text row
 * the ruling has (its language's table). Each such fN sought the
 * candidates again in every table, for its phrase, once more than the
 * scoring did (three FTS5 passes over the candidates for `power`, with
 * "Pouvoir"). */
static bool phrase_subs(const struct rl_compiled *c, const struct rl_topk *k)
{
	for (size_t i = 0; i < c->nsub; i++)
		if (phrase_sub(c, i, k) >= 0)
			return true;
	return false;
}

/* fN(rid) AS (...): the rulings each subselect's expression finds; on the
 * fast path only among the candidates of the tables cand restricts (the
 * same answer: a ruling's full-text row is in one table, and the rows
 * tested, m's, are candidates there), or with m (phrase_subs: ph) m's
 * rows holding its phrase. */
static void ctes(struct rl_buf *b, const struct rl_compiled *c,
                 const char *prefix, unsigned cand, const struct rl_topk *k,
                 bool ph)
{
	for (size_t i = 0; i < c->nsub; i++) {
		rl_buf_addf(b, "%sf%zu(rid) AS (", i || ph ? ", " : "", i + 1);
		int j = ph ? phrase_sub(c, i, k) : -1;
		if (j >= 0)
			rl_buf_addf(b, "SELECT rid FROM m WHERE ph & %lld",
			            1LL << j);
		else
			fts_union(b, c, c->sub[i].param, false, false, prefix,
			          cand, k);
		rl_buf_addc(b, ')');
	}
}

/* " AND c1 AND c2 ...", balanced, the rows' or the count's forms. */
static void where(struct rl_buf *b, const struct rl_compiled *c, bool count)
{
	if (!c->nconds)
		return;
	char **v = malloc(c->nconds * sizeof *v);
	if (!v) {
		b->oom = true;
		return;
	}
	for (size_t i = 0; i < c->nconds; i++)
		v[i] = count && c->conds[i].count ? c->conds[i].count
		                                  : c->conds[i].rows;
	rl_buf_adds(b, " AND ");
	rl_join_balanced(b, v, c->nconds, "AND");
	free(v);
}

/* What a condition means is recorded where it is made (struct rl_cond,
 * filter.c and qcompile.c); the functions below read it there, never
 * from the SQL text. */

/* Whether condition d of c asks nothing the full-text tables of c->lang
 * do not already say: "1" (lang:any), or r.lang = the one language whose
 * table alone is searched (the triggers and the import file a ruling of
 * language en, fr or ru in that table and no other). */
static bool in_tables(const struct rl_compiled *c, const struct rl_cond *d)
{
	if (d->kind == RL_COND_ANY)
		return true;
	if (d->kind != RL_COND_LANG || d->param < 1 || d->param > c->p.n ||
	    !c->lang || strcmp(c->p.v[d->param - 1], c->lang) != 0)
		return false;
	return strcmp(c->lang, "en") == 0 || strcmp(c->lang, "fr") == 0 ||
	       strcmp(c->lang, "ru") == 0;
}

/* Whether the conditions of c are only the languages of its tables
 * (in_tables) and withdrawn rulings hidden (*hidden): then which
 * matches qualify is known without reading their rulings. */
static bool table_conds_only(const struct rl_compiled *c, bool *hidden)
{
	*hidden = false;
	for (size_t i = 0; i < c->nconds; i++) {
		if (c->conds[i].kind == RL_COND_SHOWN)
			*hidden = true;
		else if (!in_tables(c, &c->conds[i]))
			return false;
	}
	return true;
}

/* The FROM clause: the driving expression's matches, or every ruling
 * (with the ranking expression's scores when there is one). */
static void from(struct rl_buf *b, const struct rl_compiled *c, bool scored,
                 const char *prefix, bool as_of, unsigned cand,
                 const struct rl_topk *k, long top, bool m_cte)
{
	bool hidden;
	if (c->match && m_cte) {
		rl_buf_adds(b, " FROM m JOIN rulings r ON r.id = m.rid");
	} else if (c->match && top > 0 && table_conds_only(c, &hidden)) {
		/* the first top matches by score, then their rulings: the
		 * join read every match's ruling (a page each: 305 of the 523
		 * pages a search of a word in 237 French and 1,625 English
		 * rulings of 100k read) for the conditions that the tables
		 * and the withdrawn rulings' index answer. The same rows in
		 * the same order: r.id = m.rid, and the conditions stay */
		rl_buf_adds(b, " FROM (SELECT * FROM (");
		fts_union(b, c, c->match_i, scored, false, prefix, cand, k);
		rl_buf_addf(b, ")%s ORDER BY score, rid LIMIT %ld) m"
		            " JOIN rulings r ON r.id = m.rid", hidden ?
		            " WHERE rid NOT IN (SELECT id FROM rulings"
		            " WHERE withdrawn_at IS NOT NULL)" : "", top);
	} else if (c->match) {
		rl_buf_adds(b, " FROM (");
		fts_union(b, c, c->match_i, scored, false, prefix, cand, k);
		rl_buf_adds(b, ") m JOIN rulings r ON r.id = m.rid");
	} else if (c->rank && scored) {
		rl_buf_adds(b, " FROM rulings r LEFT JOIN (");
		fts_union(b, c, c->rank_i, true, false, prefix, 0, NULL);
		rl_buf_adds(b, ") m ON m.rid = r.id");
	} else {
		rl_buf_adds(b, " FROM rulings r");
	}
	if (as_of)
		rl_buf_adds(b, " JOIN temp.asof a ON a.id = r.id");
	rl_buf_adds(b, " LEFT JOIN games g ON g.id = r.game_id WHERE 1");
}

/* The rows: with words, the ranked rows first (top), then their
 * snippets (with snip; else NULL, left to snippets_after()). One row
 * past the limit says whether more match. */
static char *rows_sql(const struct rl_query *q, const struct rl_compiled *c,
                      const char *prefix, unsigned cand,
                      const struct rl_topk *k, bool snip)
{
	struct rl_buf b = {0};
	bool fts = c->match || c->rank;
	bool ph = c->match && k && k->parsed && phrase_subs(c, k);
	rl_buf_adds(&b, "WITH ");
	if (ph) {
		rl_buf_adds(&b, "m AS MATERIALIZED (");
		fts_union(&b, c, c->match_i, true, true, prefix, cand, k);
		rl_buf_addc(&b, ')');
	}
	ctes(&b, c, prefix, cand, k, ph);
	rl_buf_addf(&b, "%stop AS MATERIALIZED (SELECT %s, %s AS score,"
	            " %s AS l, %s%s%s AS first", c->nsub || ph ? ", " : "",
	            q->as_of ? rl_asof_cols : rl_ruling_cols,
	            fts ? "m.score" : "NULL", fts ? "m.l" : "NULL",
	            c->first ? "CASE WHEN " : "0", c->first ? c->first : "",
	            c->first ? " THEN 0 ELSE 1 END" : "");
	/* the matches ranked before their rulings are read: as of now, with
	 * a limit, no rule number first; not with RULINGS_TOPK=off, the
	 * exhaustive ranking tests/topk compares with */
	bool late = !q->as_of && q->limit > 0 && !c->first && !c->nsub &&
	            !q->raw && rl_topk_enabled();
	from(&b, c, true, prefix, q->as_of, cand, k, late ? q->limit + 1 : 0,
	     ph);
	where(&b, c, false);
	rl_buf_adds(&b, c->first ? " ORDER BY first, " : " ORDER BY ");
	rl_buf_adds(&b, c->match ? "m.score, r.id" : c->rank
	                ? "m.score NULLS LAST, r.id" : "r.id");
	if (q->limit > 0)
		rl_buf_addf(&b, " LIMIT %ld", q->limit + 1);
	rl_buf_adds(&b, ") SELECT top.*, ");
	if (fts && snip)
		fts_snippet(&b, c, c->match ? c->match_i : c->rank_i, prefix);
	else
		rl_buf_adds(&b, "NULL");
	rl_buf_adds(&b, " FROM top ORDER BY top.first, top.score NULLS LAST,"
	            " top.id");
	return rl_buf_take(&b);
}

/* The champion lists' plan of a search (rl_topk_plan), made once, when
 * first asked for, and shared by the ranked rows (fast_rows) and the
 * total (known_docs). */
struct plan {
	bool made;
	bool usable;
	struct rl_topk k;
};

static int plan_of(rl_db *db, const struct rl_compiled *c, struct plan *p)
{
	if (p->made)
		return RL_OK;
	bool wanted[4];
	for (int t = 0; t < 4; t++)
		wanted[t] = fts_wanted(c, fts_langs[t]);
	p->made = true;
	int rc = rl_topk_plan(db, c->match, &c->mgames, wanted, &p->k,
	                      &p->usable);
	if (rc)
		p->usable = false;
	return rc;
}

/* The rows of each full-text table that hold one word, known without
 * reading its doclist: a term with a champion list records them
 * (topk_terms.docs, FTS5's own count when the list was built), which are
 * the rows that hold it now when no ruling's text changed since
 * (topk_dirty empty: its triggers note every change to a ruling's text or
 * language, and the lists are built for all tables at once). known[t]
 * false for a table whose count must be read. At 1M rulings, counting a
 * word in 1 of 10 rulings read 100,000 doclist entries. */
static int known_docs(rl_db *db, const struct rl_compiled *c, struct plan *p,
                      const bool wanted[4], long long docs[4], bool known[4])
{
	for (int t = 0; t < 4; t++)
		known[t] = false;
	int rc = plan_of(db, c, p);
	const struct rl_topk *k = &p->k;
	/* the expression is that one word: one phrase, written alone */
	bool one = !rc && p->usable && k->nph == 1 && k->ph[0].raw &&
	           strcmp(k->ph[0].raw, c->match) == 0;
	for (int t = 0; one && k->dirty == 0 && t < 4; t++) {
		known[t] = wanted[t] && k->ph[0].listed[t];
		docs[t] = k->ph[0].docs0[t];
	}
	return rc;
}

/* The withdrawn rulings: few, or none, in most databases. */
static int withdrawn_count(rl_db *db, long long *n)
{
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT count(*) FROM rulings WHERE withdrawn_at IS NOT NULL");
	if (!st)
		return RL_EINTERNAL;
	int s = sqlite3_step(st);
	*n = s == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return s == SQLITE_ROW ? RL_OK : rl_db_sqlite_fail(db, s, "count");
}

/* The exact count of a search of words whose only other conditions are
 * the language of its tables and withdrawn rulings hidden, without
 * joining every match to rulings (one page read per match: 1,887 of the
 * 2,700 pages a search of a word in 2 % of 100k rulings read): per table,
 * the rows that hold the word (known_docs, else FTS5's count from its
 * doclist), less the withdrawn rulings among them: none to subtract when
 * no ruling is withdrawn; each withdrawn ruling looked up in the table
 * (FTS5 seeks the word's doclist to its rowid) when they are under a
 * 64th of the table's matches; else the matches scanned for them (found
 * through their partial index). Exact because each full-text row is a
 * ruling's (rowid = rulings.id; `rulings check` verifies it ruling by
 * ruling). *sql NULL when the search asks more (tags, game, kind, ...
 * need the join) or with RULINGS_TOPK=off (the exhaustive path counts by
 * the join: tests/topk compares the two). */
static int fts_count_sql(rl_db *db, const struct rl_query *q,
                         const struct rl_compiled *c, struct plan *p,
                         char **sql)
{
	*sql = NULL;
	if (!c->match || c->nsub || q->as_of || !rl_topk_enabled())
		return RL_OK;
	bool hidden;
	if (!table_conds_only(c, &hidden))
		return RL_OK;
	bool wanted[4], known[4];
	long long docs[4], gone = 0;
	for (int t = 0; t < 4; t++)
		wanted[t] = fts_wanted(c, fts_langs[t]);
	int rc = known_docs(db, c, p, wanted, docs, known);
	if (!rc && hidden)
		rc = withdrawn_count(db, &gone);
	if (rc)
		return rc;
	struct rl_buf b = {0};
	rl_buf_adds(&b, "SELECT 0");
	for (int t = 0; t < 4; t++) {
		const char *l = fts_langs[t];
		if (!wanted[t])
			continue;
		if (known[t])
			rl_buf_addf(&b, " + %lld", docs[t]);
		else
			rl_buf_addf(&b, " + (SELECT count(*) FROM rulings_fts_%s"
			            " WHERE rulings_fts_%s MATCH ?%d)", l, l,
			            c->match_i);
	}
	bool scan = false;
	for (int t = 0; t < 4 && gone; t++) {
		const char *l = fts_langs[t];
		if (!wanted[t])
			continue;
		if (!known[t] || gone * 64 >= docs[t]) {
			scan = true;
			continue;
		}
		rl_buf_addf(&b, " - (SELECT count(*) FROM rulings r"
		            " WHERE r.withdrawn_at IS NOT NULL AND EXISTS"
		            " (SELECT 1 FROM rulings_fts_%s WHERE rulings_fts_%s"
		            " MATCH ?%d AND rowid = r.id))", l, l, c->match_i);
	}
	if (scan) {
		rl_buf_adds(&b, " - (SELECT count(*) FROM (");
		bool first = true;
		for (int t = 0; t < 4; t++) {
			const char *l = fts_langs[t];
			if (!wanted[t] || (known[t] && gone * 64 < docs[t]))
				continue;
			rl_buf_addf(&b, "%sSELECT rowid AS rid FROM rulings_fts_%s"
			            " WHERE rulings_fts_%s MATCH ?%d",
			            first ? "" : " UNION ALL ", l, l, c->match_i);
			first = false;
		}
		rl_buf_adds(&b, ") WHERE rid IN (SELECT id FROM rulings"
		            " WHERE withdrawn_at IS NOT NULL))");
	}
	*sql = rl_buf_take(&b);
	return *sql ? RL_OK : RL_ENOMEM;
}

/* Whether d is the condition --game (or game:) makes of one game's name
 * (*gi its parameter) or of no game (*gi 0), filter.c game_cond. */
static bool game_cond_of(const struct rl_cond *d, int *gi)
{
	if (d->kind != RL_COND_GAME && d->kind != RL_COND_NO_GAME)
		return false;
	*gi = d->kind == RL_COND_GAME ? d->param : 0;
	return true;
}

/* Whether d is the condition --kind (or kind:) makes (*ki its
 * parameter), filter.c kind_cond. */
static bool kind_cond_of(const struct rl_cond *d, int *ki)
{
	if (d->kind != RL_COND_KIND)
		return false;
	*ki = d->param;
	return true;
}

/* Of table t's rows holding term, those of the game (gi: its name's
 * parameter, 0 for no game, -1 any), kind (ki, -1 any) and, when ids is
 * not NULL, of the games ids lists, from the lists' counts per game and
 * kind (schema 18, topk_gdocs): *ok false when they do not add up to all
 * the term's rows (docs: a database whose lists were built before them,
 * or a build that could not place a row). */
static int gdocs_sum(rl_db *db, const struct rl_compiled *c, const char *tbl,
                     const char *term, long long docs, int gi, int ki,
                     const char *ids, long long *n, bool *ok)
{
	*ok = false;
	*n = 0;
	struct rl_buf b = {0};
	rl_buf_adds(&b, "SELECT total(docs), total(CASE WHEN 1");
	if (ki > 0)
		rl_buf_adds(&b, " AND kind = ?3");
	if (gi > 0)
		rl_buf_adds(&b, " AND game_id IN (SELECT id FROM games"
		            " WHERE rl_fold(name) = ?4)");
	else if (gi == 0)
		rl_buf_adds(&b, " AND game_id = 0");
	if (ids)
		rl_buf_addf(&b, " AND game_id IN %s", ids);
	rl_buf_adds(&b, " THEN docs END) FROM topk_gdocs WHERE tbl = ?1"
	            " AND term = ?2");
	char *sql = rl_buf_take(&b);
	sqlite3_stmt *st = NULL;
	int s = sql ? sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) : SQLITE_NOMEM;
	free(sql);
	/* a database of schema 17 or older, opened to read, has no such
	 * table: the join counts */
	if (s == SQLITE_ERROR &&
	    strstr(sqlite3_errmsg(db->h), "no such table: topk_gdocs"))
		return RL_OK;
	if (s != SQLITE_OK)
		return rl_db_sqlite_fail(db, s, "count");
	rl_bind_text(st, 1, tbl);
	rl_bind_text(st, 2, term);
	if (ki > 0)
		rl_bind_text(st, 3, c->p.v[ki - 1]);
	if (gi > 0)
		rl_bind_text(st, 4, c->p.v[gi - 1]);
	s = sqlite3_step(st);
	if (s == SQLITE_ROW) {
		*ok = (long long)sqlite3_column_double(st, 0) == docs;
		*n = (long long)sqlite3_column_double(st, 1);
	}
	sqlite3_finalize(st);
	return s == SQLITE_ROW ? RL_OK : rl_db_sqlite_fail(db, s, "count");
}

/* s as an SQL string literal. */
static void sql_literal(struct rl_buf *b, const char *s)
{
	rl_buf_addc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			rl_buf_addc(b, '\'');
		rl_buf_addc(b, *s);
	}
	rl_buf_addc(b, '\'');
}

/* How phrase_cond says a phrase holds in a ruling. */
enum how {
	SEEK,           /* sought in the index at each ruling */
	DRIVE,          /* the rulings are the matches' */
	WALK,           /* the matches walked once, each ruling looked up in
	                   them ("+r.id": not the rulings sought at each) */
};

/* Phrase ph holds in ruling r in table l (an SQL condition), as how
 * says; a phrase of other games' concepts only in its games (ids). */
static void phrase_cond(struct rl_buf *b, const struct rl_topk_phrase *ph,
                        const char *l, const char *ids, enum how how)
{
	rl_buf_addc(b, '(');
	if (ph->restricted)
		rl_buf_addf(b, "r.game_id IN %s AND ", ids);
	if (how == SEEK)
		rl_buf_addf(b, "EXISTS (SELECT 1 FROM rulings_fts_%s WHERE"
		            " rulings_fts_%s MATCH ", l, l);
	else
		rl_buf_addf(b, "%sr.id IN (SELECT rowid FROM rulings_fts_%s WHERE"
		            " rulings_fts_%s MATCH ", how == WALK ? "+" : "", l, l);
	sql_literal(b, ph->raw);
	rl_buf_adds(b, how == SEEK ? " AND rowid = r.id))" : "))");
}

/* The phrases of k whose rows in table t are not another's (kp[], at
 * most 3; how many): of phrases that are one term there (`Isolate` and
 * "Isoler" in the English index), one is kept, one that matches in any
 * game rather than one of other games' concepts. */
static size_t kept_phrases(const struct rl_topk *k, int t,
                           const struct rl_topk_phrase *kp[3])
{
	size_t n = 0;
	for (size_t i = 0; i < k->nph && i < 3; i++) {
		const struct rl_topk_phrase *x = &k->ph[i];
		size_t j = 0;
		while (j < n && !(x->term[t] && kp[j]->term[t] &&
		                  strcmp(x->term[t], kp[j]->term[t]) == 0))
			j++;
		if (j == n)
			kp[n++] = x;
		else if (kp[j]->restricted && !x->restricted)
			kp[j] = x;
	}
	return n;
}

/* The exact count of one word, or of a word the thesaurus widens to up to
 * two other terms (`power`, also "Pouvoir": in the game of its concept
 * both match any ruling, elsewhere the term only that game's), searched with
 * --game and/or --kind (each once) and otherwise only the tables'
 * languages and withdrawn rulings hidden. Per table, each phrase's rows
 * of that game and kind (and, for the other game's term, of its games)
 * counted when its list was built (gdocs_sum; while no ruling changed
 * since, as known_docs), less the rows holding both (an FTS5 AND, its
 * few matches read; none when both are one term there, as `Isolate` and
 * "Isoler" in the English index); else, in a table where a phrase has
 * no list (few rows), its matches read. Then the withdrawn rulings of
 * that game and kind holding them, looked up one by one when few beside
 * the rows. The join read every match's ruling: 733k for `power` at 1M
 * rulings, 0.2-0.9 s. *sql NULL when the search is of another form (a
 * tag, several games, a category, --as-of, other words: the join
 * counts) or no table's counts can serve. */
static int facet_count_sql(rl_db *db, const struct rl_query *q,
                           const struct rl_compiled *c, struct plan *p,
                           char **sql)
{
	*sql = NULL;
	if (!c->match || q->as_of || q->raw || !rl_topk_enabled())
		return RL_OK;
	bool hidden = false;
	int gi = -1, ki = -1, x;
	size_t ngames = 0;
	const char *gcond = NULL, *kcond = NULL;
	for (size_t i = 0; i < c->nconds; i++) {
		const struct rl_cond *d = &c->conds[i];
		if (d->games)
			ngames++;
		else if (d->kind == RL_COND_SHOWN)
			hidden = true;
		else if (in_tables(c, d))
			;
		else if (!gcond && game_cond_of(d, &x))
			gi = x, gcond = d->rows;
		else if (!kcond && kind_cond_of(d, &x))
			ki = x, kcond = d->rows;
		else
			return RL_OK;
	}
	if ((!gcond && !kcond) || ngames > 1)
		return RL_OK;
	int rc = plan_of(db, c, p);
	const struct rl_topk *k = &p->k;
	if (rc || !p->usable || k->dirty || k->nph < 1 || k->nph > 3)
		return rc;
	/* one phrase, written alone, or up to three joined by OR, at most
	 * one of them of other games' concepts (the condition of games says
	 * which, and is there only then) */
	if (k->nph == 1 && (!k->ph[0].raw || strcmp(k->ph[0].raw, c->match) != 0))
		return RL_OK;
	for (size_t i = 0; i < k->nprog; i++)
		if (k->prog[i] == RL_TOPK_AND)
			return RL_OK;
	size_t nr = 0;
	const struct rl_topk_phrase *rp = NULL;
	for (size_t i = 0; i < k->nph; i++)
		if (k->ph[i].restricted)
			nr++, rp = &k->ph[i];
	if (nr != ngames || nr > 1)
		return RL_OK;
	struct rl_buf ids = {0};
	if (rp) {
		rl_buf_adds(&ids, "(NULL");
		for (size_t g = 0; g < rp->ngid; g++)
			rl_buf_addf(&ids, ", %lld", rp->gid[g]);
		rl_buf_addc(&ids, ')');
	}
	if (ids.oom)
		return RL_ENOMEM;
	/* per table, its phrases of distinct terms (kept_phrases) and the
	 * rows of each counted (n), or few, to be read (no list there) */
	bool wanted[4], few[4][3] = {{0}}, any = false;
	long long n[4][3] = {{0}}, ns[4][3] = {{0}}, docs[4] = {0}, gone = 0;
	const struct rl_topk_phrase *kp[4][3];
	size_t nk[4] = {0};
	for (int t = 0; t < 4 && !rc; t++) {
		if (!(wanted[t] = fts_wanted(c, fts_langs[t])))
			continue;
		nk[t] = kept_phrases(k, t, kp[t]);
		for (size_t i = 0; i < nk[t] && !rc; i++) {
			const struct rl_topk_phrase *ph = kp[t][i];
			bool ok = false;
			if (!ph->listed[t] || !ph->term[t]) {
				few[t][i] = true;
				docs[t] += RL_TOPK_LIST;
				continue;
			}
			rc = gdocs_sum(db, c, fts_langs[t], ph->term[t], ph->docs0[t],
			               gi, ki, ph->restricted ? ids.s : NULL,
			               &n[t][i], &ok);
			if (!rc && !ok) {
				rl_buf_free(&ids);
				return RL_OK;   /* not counted: the join */
			}
			/* its rows of the games of the other games' term too */
			ns[t][i] = n[t][i];
			if (!rc && rp && !ph->restricted)
				rc = gdocs_sum(db, c, fts_langs[t], ph->term[t],
				               ph->docs0[t], gi, ki, ids.s, &ns[t][i],
				               &ok);
			docs[t] += ph->docs0[t];
			any = true;
		}
	}
	if (!rc && any && hidden)
		rc = withdrawn_count(db, &gone);
	if (rc || !any) {
		rl_buf_free(&ids);
		return rc;
	}
	struct rl_buf conds = {0}, b = {0};
	if (gcond)
		rl_buf_addf(&conds, " AND %s", gcond);
	if (kcond)
		rl_buf_addf(&conds, " AND %s", kcond);
	const char *cs = conds.s ? conds.s : "";
	const char *is = ids.s ? ids.s : "(NULL)";
	rl_buf_adds(&b, "SELECT 0");
	for (int t = 0; t < 4; t++) {
		const char *l = fts_langs[t];
		if (!wanted[t])
			continue;
		/* the union of the phrases' rows, by inclusion and exclusion:
		 * each phrase's, less each two's together, plus all three's
		 * (an FTS5 AND: rows holding several such words, few) */
		for (unsigned set = 1; set < 1u << nk[t]; set++) {
			unsigned m = 0;
			bool empty = false, restricted = false;
			struct rl_buf all = {0};
			for (size_t i = 0; i < nk[t]; i++) {
				if (!(set & 1u << i))
					continue;
				empty |= !few[t][i] && !n[t][i];
				restricted |= kp[t][i]->restricted;
				rl_buf_addf(&all, "%s%s", m++ ? " AND " : "",
				            kp[t][i]->raw);
			}
			if (m == 1) {
				size_t i = 0;
				while (!(set & 1u << i))
					i++;
				if (!few[t][i]) {
					rl_buf_addf(&b, " + %lld", n[t][i]);
				} else {
					/* no list: its few matches read */
					rl_buf_adds(&b, " + (SELECT count(*) FROM rulings r"
					            " WHERE ");
					phrase_cond(&b, kp[t][i], l, is, DRIVE);
					rl_buf_addf(&b, "%s)", cs);
				}
			} else if (!empty) {
				rl_buf_adds(&b, m % 2 ? " + " : " - ");
				/* two listed phrases, one's rows all the other's
				 * ("Dégât" is in 29k French rows at 1M, all of them
				 * holding "Dégâts"): the rows of both are that one's,
				 * counted (the AND's count, from the index, says so;
				 * its rows are not read) */
				size_t i = 0, j;
				while (!(set & 1u << i))
					i++;
				for (j = i + 1; !(set & 1u << j); j++)
					;
				bool pair = m == 2 && !few[t][i] && !few[t][j];
				if (pair) {
					rl_buf_addf(&b, "(SELECT CASE x WHEN %lld THEN %lld"
					            " WHEN %lld THEN %lld ELSE ",
					            kp[t][i]->docs0[t], restricted ? ns[t][i]
					            : n[t][i], kp[t][j]->docs0[t],
					            restricted ? ns[t][j] : n[t][j]);
				}
				rl_buf_addf(&b, "(SELECT count(*) FROM rulings r WHERE"
				            " r.id IN (SELECT rowid FROM rulings_fts_%s"
				            " WHERE rulings_fts_%s MATCH ", l, l);
				sql_literal(&b, all.s ? all.s : "");
				rl_buf_addf(&b, ")%s", cs);
				if (restricted)
					rl_buf_addf(&b, " AND r.game_id IN %s", is);
				rl_buf_addc(&b, ')');
				if (pair) {
					rl_buf_addf(&b, " END FROM (SELECT count(*) AS x FROM"
					            " rulings_fts_%s WHERE rulings_fts_%s"
					            " MATCH ", l, l);
					sql_literal(&b, all.s ? all.s : "");
					rl_buf_adds(&b, "))");
				}
			}
			b.oom |= all.oom;
			rl_buf_free(&all);
		}
		if (!gone)
			continue;
		rl_buf_addf(&b, " - (SELECT count(*) FROM rulings r WHERE"
		            " r.withdrawn_at IS NOT NULL%s AND (", cs);
		for (size_t i = 0; i < nk[t]; i++) {
			if (i)
				rl_buf_adds(&b, " OR ");
			phrase_cond(&b, kp[t][i], l, is, gone * 64 < docs[t] ? SEEK
			            : WALK);
		}
		rl_buf_adds(&b, "))");
	}
	bool oom = conds.oom || ids.oom;
	rl_buf_free(&conds);
	rl_buf_free(&ids);
	if (oom) {
		rl_buf_free(&b);
		return RL_ENOMEM;
	}
	*sql = rl_buf_take(&b);
	if (*sql)
		rl_topk_count_facet();
	return *sql ? RL_OK : RL_ENOMEM;
}

/* An FTS5 expression of the phrases of k that restricted says (OR), as
 * an SQL string literal. */
static void phrases_literal(struct rl_buf *b, const struct rl_topk *k,
                            bool restricted)
{
	bool first = true;
	rl_buf_addc(b, '\'');
	for (size_t i = 0; i < k->nph; i++) {
		if (k->ph[i].restricted != restricted)
			continue;
		if (!first)
			rl_buf_adds(b, " OR ");
		first = false;
		for (const char *s = k->ph[i].raw; *s; s++) {
			if (*s == '\'')
				rl_buf_addc(b, '\'');
			rl_buf_addc(b, *s);
		}
	}
	rl_buf_addc(b, '\'');
}

/* The exact count of a word the thesaurus widens to other games' terms
 * (`power`: "power" for all rulings, "Pouvoir" for Spirit Island's),
 * when its only other conditions are the tables' languages and withdrawn
 * rulings hidden: the expression is an OR of phrases U that match in any
 * game and phrases R that match in the games S only (each the same S).
 * Per table, the rows holding U (its list's count, else FTS5's), plus
 * the rows of S holding R and not U: with a list of R's rows per game
 * (schema 15) and no ruling changed since, their counts less the rows of
 * S holding both (an FTS5 AND, its few matches read in rulings); else
 * the rows of "R NOT U" read in rulings for their game. When a game's
 * list holds all its rows holding R, those holding U too are sought in
 * the index instead (`Isolate` and "Isoler" are one term in the English
 * index: the AND's 49k rows at 1M were each read in rulings). Then the
 * withdrawn rulings among those, when few, looked up one by one. The
 * join counted every match of U or R through rulings: 0.15 s of `power`'s
 * 0.18 at 100k. *sql NULL when the search is of another form. */
static int games_count_sql(rl_db *db, const struct rl_query *q,
                           const struct rl_compiled *c, struct plan *p,
                           char **sql)
{
	*sql = NULL;
	if (!c->match || q->as_of || q->raw || !rl_topk_enabled())
		return RL_OK;
	size_t ngames = 0;
	bool hidden = false;
	for (size_t i = 0; i < c->nconds; i++) {
		if (c->conds[i].games)
			ngames++;
		else if (c->conds[i].kind == RL_COND_SHOWN)
			hidden = true;
		else if (!in_tables(c, &c->conds[i]))
			return RL_OK;
	}
	if (ngames != 1)
		return RL_OK;
	int rc = plan_of(db, c, p);
	const struct rl_topk *k = &p->k;
	if (rc || !k->nph)
		return rc;
	for (size_t i = 0; i < k->nprog; i++)
		if (k->prog[i] == RL_TOPK_AND)      /* OR only */
			return RL_OK;
	const struct rl_topk_phrase *r0 = NULL;
	size_t nu = 0, nr = 0;
	for (size_t i = 0; i < k->nph; i++) {
		const struct rl_topk_phrase *ph = &k->ph[i];
		if (!ph->restricted) {
			nu++;
			continue;
		}
		nr++;
		if (!r0)
			r0 = ph;
		bool same = ph->ngid == r0->ngid;
		for (size_t g = 0; same && g < ph->ngid; g++)
			same = ph->gid[g] == r0->gid[g];
		if (!same)
			return RL_OK;
	}
	if (!nu || !nr)
		return RL_OK;
	long long gone = 0;
	if (hidden && (rc = withdrawn_count(db, &gone)))
		return rc;
	if (gone > 4096)
		return RL_OK;   /* each would be looked up */
	struct rl_buf ids = {0}, u = {0}, rr = {0};
	rl_buf_adds(&ids, r0->ngid ? "(" : "(NULL");
	for (size_t g = 0; g < r0->ngid; g++)
		rl_buf_addf(&ids, "%s%lld", g ? ", " : "", r0->gid[g]);
	rl_buf_addc(&ids, ')');
	phrases_literal(&u, k, false);
	phrases_literal(&rr, k, true);
	struct rl_buf b = {0};
	rl_buf_adds(&b, "SELECT 0");
	for (int t = 0; t < 4; t++) {
		const char *l = fts_langs[t];
		if (!fts_wanted(c, l))
			continue;
		const struct rl_topk_phrase *u0 = NULL, *rp = NULL;
		for (size_t i = 0; i < k->nph; i++)
			*(k->ph[i].restricted ? &rp : &u0) = &k->ph[i];
		if (nu == 1 && !k->dirty && k->t[t].listed && u0->listed[t])
			rl_buf_addf(&b, " + %lld", u0->docs0[t]);
		else
			rl_buf_addf(&b, " + (SELECT count(*) FROM rulings_fts_%s"
			            " WHERE rulings_fts_%s MATCH %s)", l, l, u.s ? u.s : "''");
		bool lists = nr == 1 && !k->dirty && k->t[t].listed &&
		             rp->listed[t] && rp->gl[t];
		for (size_t g = 0; lists && g < rp->ngid; g++)
			lists = rp->gl[t][g].listed;
		long long docs = 0;
		bool complete = true;
		for (size_t g = 0; lists && g < rp->ngid; g++) {
			docs += rp->gl[t][g].docs;
			complete &= rp->gl[t][g].tau == 0;
		}
		/* each phrase of R one of U's terms in this table (`Isolate`
		 * and "Isoler" are both "isol" in the English index): no row
		 * holds R and not U */
		bool same = true;
		for (size_t i = 0; i < k->nph && same; i++) {
			const struct rl_topk_phrase *x = &k->ph[i];
			if (!x->restricted)
				continue;
			bool found = false;
			for (size_t j = 0; j < k->nph && !found; j++)
				found = !k->ph[j].restricted && x->term[t] &&
				        k->ph[j].term[t] &&
				        strcmp(x->term[t], k->ph[j].term[t]) == 0;
			same = found;
		}
		if (same) {
			;
		} else if (lists && docs == 0) {
			;       /* the games' rows hold none of R */
		} else if (lists && complete) {
			/* the lists hold each of the games' rows holding R: those
			 * that hold U too, sought in the index (512 at most), or,
			 * when U's rows are few beside them (a seek costs about
			 * as much as a hundred entries walked: fast_rows), U's
			 * doclist walked once and each of its rows looked up in
			 * the lists (`power` in the French index, rare there:
			 * 403 seeks, 3.2 ms at 100k, for none) */
			long long udocs = 0;
			for (size_t i = 0; i < k->nph; i++)
				if (!k->ph[i].restricted)
					udocs += k->ph[i].listed[t] ? k->ph[i].docs0[t]
					         : RL_TOPK_LIST;
			rl_buf_addf(&b, " + %lld - (SELECT count(*) FROM topk_glists g"
			            " WHERE g.tbl = '%s' AND g.term = '", docs, l);
			for (const char *x = rp->term[t]; *x; x++) {
				if (*x == '\'')
					rl_buf_addc(&b, '\'');
				rl_buf_addc(&b, *x);
			}
			if (udocs <= RL_TOPK_WALK * docs)
				rl_buf_addf(&b, "' AND g.game_id IN %s AND g.rid IN"
				            " (SELECT rowid FROM rulings_fts_%s WHERE"
				            " rulings_fts_%s MATCH %s))",
				            ids.s ? ids.s : "(NULL)", l, l,
				            u.s ? u.s : "''");
			else
				rl_buf_addf(&b, "' AND g.game_id IN %s AND EXISTS"
				            " (SELECT 1 FROM rulings_fts_%s WHERE"
				            " rulings_fts_%s MATCH %s AND rowid = g.rid))",
				            ids.s ? ids.s : "(NULL)", l, l,
				            u.s ? u.s : "''");
		} else if (lists) {
			rl_buf_addf(&b, " + %lld - (SELECT count(*) FROM rulings r"
			            " WHERE r.game_id IN %s AND r.id IN"
			            " (SELECT rowid FROM rulings_fts_%s WHERE"
			            " rulings_fts_%s MATCH '(' || %s || ') AND (' || %s"
			            " || ')'))", docs, ids.s ? ids.s : "(0)", l, l,
			            rr.s ? rr.s : "''", u.s ? u.s : "''");
		} else {
			rl_buf_addf(&b, " + (SELECT count(*) FROM rulings r"
			            " WHERE r.game_id IN %s AND r.id IN"
			            " (SELECT rowid FROM rulings_fts_%s WHERE"
			            " rulings_fts_%s MATCH '(' || %s || ') NOT (' || %s"
			            " || ')'))", ids.s ? ids.s : "(0)", l, l,
			            rr.s ? rr.s : "''", u.s ? u.s : "''");
		}
		if (gone)
			rl_buf_addf(&b, " - (SELECT count(*) FROM rulings r"
			            " WHERE r.withdrawn_at IS NOT NULL AND (EXISTS"
			            " (SELECT 1 FROM rulings_fts_%s WHERE rulings_fts_%s"
			            " MATCH %s AND rowid = r.id) OR (r.game_id"
			            " IN %s AND EXISTS (SELECT 1 FROM rulings_fts_%s"
			            " WHERE rulings_fts_%s MATCH %s AND rowid = r.id))))",
			            l, l, u.s ? u.s : "''", ids.s ? ids.s : "(0)", l, l,
			            rr.s ? rr.s : "''");
	}
	bool oom = ids.oom || u.oom || rr.oom;
	rl_buf_free(&ids);
	rl_buf_free(&u);
	rl_buf_free(&rr);
	if (oom) {
		rl_buf_free(&b);
		return RL_ENOMEM;
	}
	*sql = rl_buf_take(&b);
	return *sql ? RL_OK : RL_ENOMEM;
}

static char *count_sql(const struct rl_query *q, const struct rl_compiled *c,
                       const char *prefix)
{
	struct rl_buf b = {0};
	if (c->nsub) {
		rl_buf_adds(&b, "WITH ");
		ctes(&b, c, prefix, 0, NULL, false);
		rl_buf_addc(&b, ' ');
	}
	rl_buf_adds(&b, "SELECT count(*)");
	from(&b, c, false, prefix, q->as_of, 0, NULL, 0, false);
	where(&b, c, true);
	return rl_buf_take(&b);
}

static sqlite3_stmt *prepare(rl_db *db, const char *sql,
                             const struct rl_compiled *c, int *rc)
{
	sqlite3_stmt *st = NULL;
	int s = sql ? sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) : SQLITE_NOMEM;
	if (s != SQLITE_OK) {
		*rc = rl_db_sqlite_fail(db, s, "prepare search");
		return NULL;
	}
	for (int i = 0; i < c->p.n; i++)
		rl_bind_text(st, i + 1, c->p.v[i]);
	return st;
}

/* Runs the rows statement into out: at most limit rulings, *more when
 * another one matched; with tab, each row's table (an index of
 * fts_langs; 4: none) in (*tab)[i]. */
static int run_rows(rl_db *db, sqlite3_stmt *st, const struct rl_query *q,
                    bool fts, struct rl_results *out, bool *more,
                    unsigned char **tab)
{
	size_t cap = 0, tcap = 0;
	bool oom = false;
	int rc = RL_OK;
	*more = false;
	for (;;) {
		int s = sqlite3_step(st);
		if (s == SQLITE_DONE)
			break;
		if (s != SQLITE_ROW) {
			if (q->raw && (s & 0xFF) == SQLITE_ERROR)
				rc = RL_EUSAGE;     /* rl_search() says what */
			else
				rc = rl_step_error(db, s);
			break;
		}
		if (q->limit > 0 && out->n == (size_t)q->limit) {
			*more = true;
			break;
		}
		if (!rl_grow(&out->v, &cap, out->n + 1, sizeof *out->v)) {
			rc = RL_ENOMEM;
			break;
		}
		if (tab && !rl_grow(tab, &tcap, out->n + 1, 1)) {
			rc = RL_ENOMEM;
			break;
		}
		if (tab) {
			const char *l = (const char *)sqlite3_column_text(st, 14);
			unsigned char t = 0;
			while (t < 4 && (!l || strcmp(l, fts_langs[t]) != 0))
				t++;
			(*tab)[out->n] = t;
		}
		struct rl_ruling *r = &out->v[out->n++];
		*r = (struct rl_ruling){0};
		rl_fill_base(st, r, &oom);
		r->score = sqlite3_column_double(st, 13);
		/* 14 is the table of a match (top.l), 15 first, 16 the snippet */
		r->snippet = fts ? rl_column_dup(st, 16, &oom) : NULL;
		if (oom) {
			rc = RL_ENOMEM;
			break;
		}
	}
	return rc;
}

/* The snippets of the exhaustive ranking's rows (out, each in table
 * tab[i]), which its rows statement leaves out: each a query of its own
 * there, parsing the MATCH again and opening its iterators (a third of
 * the instructions of `search defend` on the seeds past SQLite's
 * start). Of a table holding at most SNIP_SCAN_MAX of them, one MATCH
 * scan of the table in rowid order computes them, reading no more than
 * SNIP_SCAN_ROWS rows a snippet and 16 (on a small database or a rare
 * word every match; the ranking has read each match already); those it
 * did not reach, and those of a table with more, one query each as
 * before. The same snippet() of the same row and MATCH either way. */
enum { SNIP_SCAN_MAX = 64, SNIP_SCAN_ROWS = 4 };

static int snippet_row(rl_db *db, const struct rl_compiled *c, int mi,
                       const char *prefix, int t, sqlite3_stmt **one,
                       struct rl_ruling *r)
{
	int rc = RL_OK;
	if (!*one) {
		struct rl_buf b = {0};
		rl_buf_adds(&b, "SELECT ");
		snippet_of(&b, prefix, fts_langs[t]);
		rl_buf_addf(&b, " FROM %s%s WHERE %s%s MATCH ?%d AND rowid = ?%d",
		            prefix, fts_langs[t], prefix, fts_langs[t], mi,
		            c->p.n + 1);
		char *text = rl_buf_take(&b);
		*one = prepare(db, text, c, &rc);
		free(text);
		if (rc)
			return rc;
	}
	sqlite3_bind_int64(*one, c->p.n + 1, r->id);
	int s = sqlite3_step(*one);
	bool oom = false;
	if (s == SQLITE_ROW)
		r->snippet = rl_column_dup(*one, 0, &oom);
	else if (s != SQLITE_DONE)
		rc = rl_step_error(db, s);
	sqlite3_reset(*one);
	return oom ? RL_ENOMEM : rc;
}

static int snippets_after(rl_db *db, const struct rl_compiled *c, int mi,
                          const char *prefix, struct rl_results *out,
                          const unsigned char *tab)
{
	int rc = RL_OK;
	bool *done = out->n ? calloc(out->n, sizeof *done) : NULL;
	if (out->n && !done)
		return RL_ENOMEM;
	for (int t = 0; t < 4 && !rc; t++) {
		size_t need = 0;
		for (size_t i = 0; i < out->n; i++)
			need += tab[i] == t;
		if (!need)
			continue;
		if (need <= SNIP_SCAN_MAX) {
			struct rl_buf b = {0};
			rl_buf_adds(&b, "SELECT rowid, CASE WHEN rowid IN (");
			const char *sep = "";
			for (size_t i = 0; i < out->n; i++) {
				if (tab[i] != t)
					continue;
				rl_buf_addf(&b, "%s%lld", sep, out->v[i].id);
				sep = ", ";
			}
			rl_buf_adds(&b, ") THEN ");
			snippet_of(&b, prefix, fts_langs[t]);
			rl_buf_addf(&b, " END FROM %s%s WHERE %s%s MATCH ?%d LIMIT %zu",
			            prefix, fts_langs[t], prefix, fts_langs[t], mi,
			            need * SNIP_SCAN_ROWS + 16);
			char *text = rl_buf_take(&b);
			sqlite3_stmt *st = prepare(db, text, c, &rc);
			free(text);
			size_t left = need;
			int s = SQLITE_DONE;
			while (!rc && left && (s = sqlite3_step(st)) == SQLITE_ROW) {
				long long id = sqlite3_column_int64(st, 0);
				for (size_t i = 0; i < out->n; i++) {
					if (tab[i] != t || done[i] ||
					    out->v[i].id != id)
						continue;
					bool oom = false;
					out->v[i].snippet = rl_column_dup(st, 1,
					                                  &oom);
					done[i] = true;
					left--;
					if (oom)
						rc = RL_ENOMEM;
					break;
				}
			}
			if (!rc && s != SQLITE_ROW && s != SQLITE_DONE)
				rc = rl_step_error(db, s);
			sqlite3_finalize(st);
		}
		sqlite3_stmt *one = NULL;
		for (size_t i = 0; i < out->n && !rc; i++)
			if (tab[i] == t && !done[i]) {
				rc = snippet_row(db, c, mi, prefix, t, &one,
				                 &out->v[i]);
				done[i] = true;
			}
		sqlite3_finalize(one);
	}
	free(done);
	return rc;
}

/* ---- the fast path: champion lists (topk.c) ------------------------------ */

/* The statement that drops from temp.topk_cand the candidates failing a
 * condition of c that filters more than the tables do (--game, --kind, a
 * tag: not the tables' languages, withdrawn rulings hidden, nor a
 * subselect's rulings, which need the scoring), each over the ruling r
 * alone as in the WHERE; NULL (*sql) when there is none. The same
 * answers: such a candidate is a row the WHERE drops. Before they are
 * sought: with --game "Spirit Island" (a tenth of 1M rulings) `power`
 * read its lists whole and sought each of their 1,536 rows in FTS5 (~49
 * ms) for the ~150 of that game. */
static char *filter_sql(const struct rl_compiled *c)
{
	bool some = false;
	for (size_t i = 0; i < c->nconds; i++) {
		const struct rl_cond *d = &c->conds[i];
		some |= !d->subs && !in_tables(c, d) && d->kind != RL_COND_SHOWN;
	}
	if (!some)
		return NULL;
	struct rl_buf b = {0};
	rl_buf_adds(&b, "DELETE FROM temp.topk_cand WHERE rid NOT IN"
	            " (SELECT r.id FROM rulings r WHERE r.id IN"
	            " (SELECT rid FROM temp.topk_cand)");
	for (size_t i = 0; i < c->nconds; i++)
		if (!c->conds[i].subs)
			rl_buf_addf(&b, " AND (%s)", c->conds[i].rows);
	rl_buf_addc(&b, ')');
	return rl_buf_take(&b);
}

/* How many rulings temp.topk_cand holds for each table. */
static int candidates_count(rl_db *db, long long n[4])
{
	sqlite3_stmt *st = rl_db_prepare(db, "SELECT total(tabs & 1 != 0),"
		" total(tabs & 2 != 0), total(tabs & 4 != 0), total(tabs & 8 != 0)"
		" FROM temp.topk_cand");
	if (!st)
		return RL_EINTERNAL;
	int s = sqlite3_step(st);
	for (int i = 0; i < 4; i++)
		n[i] = s == SQLITE_ROW ? sqlite3_column_int64(st, i) : 0;
	sqlite3_finalize(st);
	return s == SQLITE_ROW ? RL_OK : rl_db_sqlite_fail(db, s, "count");
}

/* When a condition of c keeps the rulings of one game alone (--game or
 * game: of a name that one game has), the lists of that game's rows are
 * read for the candidates where they are (rl_topk_game): with --game
 * "Spirit Island" (a tenth of 1M rulings) `Isolate` read 52 of its
 * list's 512 rows in that game, and read on. */
static int filter_game(rl_db *db, const struct rl_compiled *c,
                       struct rl_topk *k)
{
	int gi = 0;
	size_t i = 0;
	while (i < c->nconds && !(game_cond_of(&c->conds[i], &gi) && gi > 0))
		i++;
	if (i == c->nconds)
		return RL_OK;
	sqlite3_stmt *st = rl_db_prepare(db, "SELECT id FROM games"
	                                 " WHERE rl_fold(name) = ?1");
	if (!st)
		return RL_EINTERNAL;
	rl_bind_text(st, 1, c->p.v[gi - 1]);
	long long gid = 0;
	int n = 0, s;
	while (n < 2 && (s = sqlite3_step(st)) == SQLITE_ROW) {
		gid = sqlite3_column_int64(st, 0);
		n++;
	}
	sqlite3_finalize(st);
	if (n < 2 && s != SQLITE_DONE)
		return rl_db_sqlite_fail(db, s, "lists");
	return n == 1 ? rl_topk_game(db, k, gid) : RL_OK;
}

/* A search of words joined by AND and OR (all-words, or widened by the
 * thesaurus; with any filters, as of now, ranked by bm25 alone) answered
 * from the lists when they prove the answer: the candidates are scored by
 * the exhaustive query's own SQL, so with its scores and its order; the
 * answer is proven when its (limit+1)-th row beats any ruling left out
 * (rl_topk_candidates' bound). Otherwise more of each list is read, and
 * when a list runs out, *fast stays false: the caller scores every
 * match. */
static int fast_rows(rl_db *db, const struct rl_query *q,
                     const struct rl_compiled *c, struct plan *p,
                     struct rl_results *out, bool *more, bool *fast)
{
	*fast = false;
	if (!rl_topk_enabled() || q->as_of || q->raw || !c->match || c->rank ||
	    c->first || q->limit <= 0)
		return RL_OK;
	int rc = plan_of(db, c, p);
	struct rl_topk *k = &p->k;
	bool usable = !rc && p->usable;
	unsigned cand = 0;
	for (int i = 0; i < 4; i++)
		cand |= k->t[i].listed ? 1u << i : 0;
	struct rl_query q1 = *q;
	q1.limit = q->limit + 1;        /* the row that must beat the bound */
	size_t take = (size_t)q->limit + 1;
	if (usable)
		rc = filter_game(db, c, k);
	usable = usable && !rc;
	char *filter = usable ? filter_sql(c) : NULL;
	while (!rc && usable) {
		double bound, least;
		bool exhausted, m;
		rc = rl_topk_candidates(db, k, take, &bound, &least, &exhausted);
		if (!rc && filter) {
			sqlite3_stmt *fst = prepare(db, filter, c, &rc);
			int s = fst ? sqlite3_step(fst) : SQLITE_DONE;
			if (s != SQLITE_DONE)
				rc = rl_db_sqlite_fail(db, s, "candidates");
			sqlite3_finalize(fst);
		}
		long long n[4] = {0};
		if (!rc)
			rc = candidates_count(db, n);
		/* a table whose phrases' doclists are short beside its
		 * candidates is walked, not sought at each (a seek costs
		 * about 20-60 us, a doclist entry walked 0.2: at 1M,
		 * `vashseldor`'s 2,552 French rows walked in 0.5 ms where 51
		 * seeks took 3.0) */
		for (int i = 0; i < 4; i++) {
			long long docs = 0;
			for (size_t j = 0; j < k->nph; j++)
				docs += k->ph[j].docs0[i];
			k->t[i].walk = docs <= RL_TOPK_WALK * n[i];
		}
		char *text = rc ? NULL : rows_sql(&q1, c, "rulings_fts_", cand, k, true);
		if (!rc && !text)
			rc = RL_ENOMEM;
		sqlite3_stmt *st = rc ? NULL : prepare(db, text, c, &rc);
		free(text);
		struct rl_results r = {0};
		if (!rc)
			rc = run_rows(db, st, &q1, true, &r, &m, NULL);
		sqlite3_finalize(st);
		size_t lim = (size_t)q->limit;
		double kth = r.n == lim + 1 ? -r.v[lim].score : 0;
		/* proven: the (limit+1)-th row beats any ruling left out, or
		 * no ruling left out can match (an AND needing a word whose
		 * every ruling is a candidate: all matches are here) */
		if (!rc && ((r.n == lim + 1 && kth > bound * (1.0 + 1e-9)) ||
		            bound < 0)) {
			*more = r.n == lim + 1;
			if (*more) {
				rl_ruling_clear(&r.v[lim]);
				r.n = lim;
			}
			*out = r;
			*fast = true;
			break;
		}
		/* a k-th row (or none) below what a ruling left out may score
		 * even at the lists' ends (a filter, an AND of words seldom
		 * together, a thesaurus term of another game, a word in most
		 * rulings) reads them whole at once: one more statement, not
		 * four; a thousand times below, none (`power` OR its French
		 * "Pouvoir" of another game: bench/RESULTS.md) */
		size_t r0 = r.n;
		bool far = kth <= least;
		bool hopeless = r.n == lim + 1 && kth * 1e3 < least;
		rl_results_free(&r);
		if (rc || exhausted || hopeless)
			break;
		/* fewer rows than needed, some: a filter kept that share of
		 * the candidates; twice the take that would give enough at that
		 * share, not the lists whole (`Isolate --game "Generated FAQ"`,
		 * 90 % of 1M rulings: 18 rows of 21, then 460 candidates
		 * sought where 49 a list prove it) */
		if (r0 > 0 && r0 <= lim && take < SIZE_MAX / 8 / (lim + 1))
			take = take * (lim + 1) * 2 / r0;
		else
			take = far ? SIZE_MAX / 2 : take * 4;
	}
	free(filter);
	if (!rc && usable)
		rl_topk_count(*fast);
	if (!rc && *fast && k->fgid)
		rl_topk_count_game();
	return rc;
}

/* ---- a filter that keeps few rulings: their rowids given to FTS5 ---------- */

/* The most rulings a filter may keep for their rowids to be given to
 * FTS5 (set_rows): SET_MAX, or more for a word in more rows than
 * RL_TOPK_WALK times that (its rows beyond what a walk of them costs);
 * counted up to one more, which costs a walk of that many index entries
 * (~1.5 ms for 4,097 of rulings_identity at 100k). */
enum { SET_MAX = 4096 };

/* The rulings a condition d keeps, as a SELECT of their ids that an
 * index answers without reading a ruling (malloc'd), or NULL when d is
 * not such a condition: a tag (without game equivalents,
 * listed: RL_COND_TAGS, ruling_tags_tag) or a kind (rulings_identity,
 * whose first columns are sought for each game and none, then the
 * kind). */
static char *set_of(const struct rl_cond *d)
{
	struct rl_buf b = {0};
	int ki;
	if (d->kind == RL_COND_TAGS && d->ids) {
		rl_buf_adds(&b, d->ids);
	} else if (kind_cond_of(d, &ki)) {
		/* a join: with ifnull(r.game_id, 0) IN (...) SQLite scanned
		 * rulings (EXPLAIN QUERY PLAN), every ruling's page read */
		rl_buf_addf(&b, "SELECT r.id FROM (SELECT 0 AS g UNION ALL"
		            " SELECT id FROM games) x JOIN rulings r"
		            " ON ifnull(r.game_id, 0) = x.g WHERE r.kind = ?%d", ki);
	} else {
		return NULL;
	}
	return rl_buf_take(&b);
}

/* Whether condition d is a kind that keeps an eighth or more of the
 * words' rows in the tables of their lists, by the lists' counts per game
 * and kind (topk_gdocs; as built: a hint, not an answer): then the fast
 * path's candidates pass it, and counting its rulings (a walk of up to
 * 4,097 entries of rulings_identity: --kind faq 0.87x) is not done. */
static int kind_keeps_many(rl_db *db, const struct rl_compiled *c,
                           const struct rl_topk *k, const struct rl_cond *d,
                           bool *many)
{
	*many = false;
	int ki;
	if (!kind_cond_of(d, &ki))
		return RL_OK;
	long long docs = 0, kept = 0;
	int rc = RL_OK;
	for (int t = 0; t < 4 && !rc; t++)
		for (size_t j = 0; k->t[t].listed && j < k->nph && !rc; j++) {
			const struct rl_topk_phrase *ph = &k->ph[j];
			long long n;
			bool ok;
			if (!ph->listed[t])
				continue;
			rc = gdocs_sum(db, c, fts_langs[t], ph->term[t],
			               ph->docs0[t], -1, ki, NULL, &n, &ok);
			if (!ok)
				return rc;      /* no counts: as if few */
			docs += ph->docs0[t];
			kept += n;
		}
	*many = !rc && docs && kept * 8 >= docs;
	return rc;
}

/* ---- a filter's rulings scored from the word's doclist ------------------ */

/* The most rulings a filter may keep for seg_rows: each costs a step of
 * the doclist walk and, when the word is there, a %_docsize seek. */
enum { SEG_SET_MAX = 16384 };
/* The doclists are walked when the words' rows are at most this many
 * times the set's rulings; fewer rulings are sought in FTS5 one by one. */
enum { SEG_WALK = 4096 };

struct seg_hit {
	long long rid;
	double score;           /* bm25's */
	unsigned long long ph;  /* the phrases it holds (bit p: phrase p) */
	int t;                  /* its table */
};

static int by_score(const void *a, const void *b)
{
	const struct seg_hit *x = a, *y = b;
	if (x->score != y->score)
		return x->score < y->score ? -1 : 1;
	return (x->rid > y->rid) - (x->rid < y->rid);
}

static void hit_swap(struct seg_hit *a, struct seg_hit *b)
{
	struct seg_hit t = *a;
	*a = *b;
	*b = t;
}

/* h[from..n) made the next n - from rows of h[from..nh) in by_score's
 * order (a strict order: each ruling is one row), h[0..from) being
 * sorted already and before all of them: the rest are only split off
 * (quickselect), not sorted. A search shows the first limit + 1 of
 * thousands of scored rows: sorting them all took 7.8M instructions of
 * `power --tag "Graka Tokens"` at 1M (8,470 rows). */
static void sort_prefix(struct seg_hit *h, size_t from, size_t n, size_t nh)
{
	size_t lo = from, hi = nh;      /* the n-th row lies in [lo, hi) */
	while (hi - lo > 16 && lo < n && n < hi) {
		/* the median of three as the pivot, at lo */
		size_t mid = lo + (hi - lo) / 2;
		if (by_score(&h[mid], &h[lo]) < 0)
			hit_swap(&h[mid], &h[lo]);
		if (by_score(&h[hi - 1], &h[lo]) < 0)
			hit_swap(&h[hi - 1], &h[lo]);
		if (by_score(&h[hi - 1], &h[mid]) < 0)
			hit_swap(&h[hi - 1], &h[mid]);
		hit_swap(&h[lo], &h[mid]);
		/* [lo + 1, i) before the pivot, [i, hi) not */
		size_t i = lo + 1;
		for (size_t j = lo + 1; j < hi; j++)
			if (by_score(&h[j], &h[lo]) < 0)
				hit_swap(&h[i++], &h[j]);
		hit_swap(&h[lo], &h[i - 1]);     /* the pivot, in place */
		if (i - 1 < n)
			lo = i;
		else
			hi = i - 1;
	}
	/* a short range holding the n-th: sorted, so that [from, n) holds
	 * its first rows */
	if (lo < n && n < hi)
		qsort(h + lo, hi - lo, sizeof *h, by_score);
	if (n > from)
		qsort(h + from, n - from, sizeof *h, by_score);
}

/* A phrase's row among the wanted: its weighted hits. */
struct seg_row {
	long long rid;
	int p;
	double freq;
};

static int by_rid(const void *a, const void *b)
{
	const struct seg_row *x = a, *y = b;
	if (x->rid != y->rid)
		return x->rid < y->rid ? -1 : 1;
	return x->p - y->p;
}

/* The end of passes between an array v and a buffer tmp: the result,
 * last written to src (v or tmp), back in v; tmp freed. */
static void passes_done(void *v, const void *src, void *tmp, size_t bytes)
{
	if (src != v)
		memcpy(v, src, bytes);
	free(tmp);
}

/* v in by_rid's order, from the runs v[run[p]..run[p+1]) of each of the
 * np phrases, each in its doclist's order (by rowid): merged, a pass per
 * halving of the runs, not sorted whole (qsort: 3.6M instructions of
 * `power --tag "Graka Tokens"` at 1M). A run out of order (a reader's
 * doubt) is sorted whole instead. */
static int merge_runs(struct seg_row *v, const size_t *run, size_t np)
{
	size_t nv = run[np];
	for (size_t p = 0; p < np; p++)
		for (size_t i = run[p] + 1; i < run[p + 1]; i++)
			if (by_rid(&v[i - 1], &v[i]) > 0) {
				qsort(v, nv, sizeof *v, by_rid);
				return RL_OK;
			}
	if (np < 2)
		return RL_OK;
	struct seg_row *tmp = malloc(nv * sizeof *tmp);
	if (!tmp)
		return RL_ENOMEM;
	size_t b[17], nb = np;
	memcpy(b, run, (np + 1) * sizeof *b);
	struct seg_row *src = v, *dst = tmp;
	while (nb > 1) {
		size_t m = 0;
		for (size_t i = 0; i < nb; i += 2) {
			size_t lo = b[i], mid = b[i + 1];
			size_t hi = i + 2 <= nb ? b[i + 2] : mid;
			size_t x = lo, y = mid, o = lo;
			while (x < mid && y < hi)
				dst[o++] = by_rid(&src[y], &src[x]) < 0 ? src[y++]
				                                        : src[x++];
			while (x < mid)
				dst[o++] = src[x++];
			while (y < hi)
				dst[o++] = src[y++];
			b[m++] = lo;
		}
		b[m] = nv;
		nb = m;
		struct seg_row *t = src;
		src = dst;
		dst = t;
	}
	passes_done(v, src, tmp, nv * sizeof *v);
	return RL_OK;
}

/* The phrases of k that subselect i's expression ORs (a phrase, or
 * phrases in parentheses joined by OR, each one of k's), as a mask of
 * bits; 0 when it is not such an expression. */
static unsigned long long sub_mask(const struct rl_compiled *c, size_t i,
                                   const struct rl_topk *k)
{
	const char *x = c->sub[i].fts;
	size_t n = strlen(x);
	bool paren = n >= 2 && x[0] == '(' && x[n - 1] == ')';
	const char *e = paren ? x + n - 1 : x + n;
	if (paren)
		x++;
	unsigned long long mask = 0;
	for (;;) {
		if (*x != '"')
			return 0;
		const char *q = x + 1;
		while (q < e && (*q != '"' || (q + 1 < e && q[1] == '"')))
			q += *q == '"' ? 2 : 1;
		if (q >= e)
			return 0;
		size_t len = (size_t)(q + 1 - x);
		size_t j = 0;
		while (j < k->nph && !(k->ph[j].raw && strlen(k->ph[j].raw) == len &&
		                       memcmp(k->ph[j].raw, x, len) == 0))
			j++;
		if (j == k->nph || j >= 63)
			return 0;
		mask |= 1ULL << j;
		x = q + 1;
		if (x == e)
			return paren || mask == (mask & -mask) ? mask : 0;
		if (strncmp(x, " OR ", 4) != 0 || !paren)
			return 0;
		x += 4;
	}
}

/* Whether seg_rows may answer c: the expression is phrases of one term
 * in each wanted table (the lists' plan: a word, words, a word the
 * thesaurus widens), each once, in FTS5's order, all ANDed or all ORed;
 * each subselect is one of them (the thesaurus's game conditions). */
static bool seg_fits(const struct rl_compiled *c, const struct rl_topk *k,
                     bool *and)
{
	if (k->nph == 0 || k->nph > 16)
		return false;
	size_t next = 0;
	int op = 0;
	for (size_t i = 0; i < k->nprog; i++) {
		int x = k->prog[i];
		if (x >= 0 && (size_t)x != next++)
			return false;
		if (x < 0 && op && x != op)
			return false;
		if (x < 0)
			op = x;
		if (x < 0 && x != RL_TOPK_AND && x != RL_TOPK_OR)
			return false;
	}
	if (next != k->nph || (k->nph > 1 && !op))
		return false;
	*and = op == RL_TOPK_AND;
	for (size_t i = 0; i < c->nsub; i++)
		if (!sub_mask(c, i, k))
			return false;
	for (int t = 0; t < 4; t++)
		for (size_t j = 0; k->t[t].wanted && j < k->nph; j++)
			if (!k->ph[j].term[t])
				return false;
	return true;
}

static int by_id(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

/* v[0..n) in ascending order: by their 11-bit digits (LSD radix, as
 * many passes as the largest needs: two for the ids of 1M rulings), or
 * qsort when one is negative. qsort of the 12,463 ids of "Graka Tokens"
 * at 1M took 3.6M instructions. */
static int sort_ids(long long *v, size_t n)
{
	unsigned long long max = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i] < 0) {
			qsort(v, n, sizeof *v, by_id);
			return RL_OK;
		}
		if ((unsigned long long)v[i] > max)
			max = (unsigned long long)v[i];
	}
	if (n < 64) {
		qsort(v, n, sizeof *v, by_id);
		return RL_OK;
	}
	long long *tmp = malloc(n * sizeof *tmp);
	if (!tmp)
		return RL_ENOMEM;
	long long *src = v, *dst = tmp;
	for (unsigned shift = 0; shift < 64 && (max >> shift); shift += 11) {
		size_t count[2048] = {0};
		for (size_t i = 0; i < n; i++)
			count[((unsigned long long)src[i] >> shift) & 2047]++;
		size_t sum = 0;
		for (size_t d = 0; d < 2048; d++) {
			size_t c = count[d];
			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[count[((unsigned long long)src[i] >> shift) & 2047]++] = src[i];
		long long *t = src;
		src = dst;
		dst = t;
	}
	passes_done(v, src, tmp, n * sizeof *v);
	return RL_OK;
}

/* The rulings of set (a SELECT of ids), ascending, once each; *rows
 * (when not NULL) the rows set gave. */
static int seg_ids(rl_db *db, const struct rl_compiled *c, const char *set,
                   long long **v, size_t *n, long long *rows)
{
	*v = NULL;
	*n = 0;
	/* as it is: wrapped in DISTINCT or ORDER BY, a kind's join scanned
	 * rulings (EXPLAIN QUERY PLAN; 1 s at 1M), not its index */
	int rc = RL_OK;
	sqlite3_stmt *st = prepare(db, set, c, &rc);
	size_t cap = 0;
	int s = SQLITE_DONE;
	while (st && (s = sqlite3_step(st)) == SQLITE_ROW) {
		if (!rl_grow(v, &cap, *n + 1, sizeof **v)) {
			rc = RL_ENOMEM;
			break;
		}
		(*v)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	if (st && !rc && s != SQLITE_DONE)
		rc = rl_db_sqlite_fail(db, s, "filter");
	sqlite3_finalize(st);
	if (rows)
		*rows = (long long)*n;
	if (!rc && *n)
		rc = sort_ids(*v, *n);
	if (!rc && *n) {
		size_t m = 1;
		for (size_t i = 1; i < *n; i++)
			if ((*v)[i] != (*v)[m - 1])
				(*v)[m++] = (*v)[i];
		*n = m;
	}
	return rc;
}

/* Table t's rows among ids that the expression matches (every phrase
 * with and, one without), scored as bm25() scores them (each phrase's
 * idf from the rows its walk counts, or, when it reads the set's rows
 * alone, from the lists' count; each row's tokens from %_docsize),
 * appended to h. *ok false when the index is not one the reader knows
 * (more than 64 segments, another format, ...) or it doubts what it
 * read: the caller then goes through FTS5. */
static int seg_table(rl_db *db, const struct rl_topk *k, bool and, int t,
                     const long long *ids, size_t nids, struct seg_hit **h,
                     size_t *nh, size_t *cap, bool *ok)
{
	char name[64], sql[128];
	snprintf(name, sizeof name, "rulings_fts_%s", fts_langs[t]);
	struct rl_fts_seg *r;
	int rc = rl_fts_seg_open(db, name, &r);
	if (rc)
		return rc;
	if (!r) {
		/* an empty table holds nothing; any other the reader does
		 * not know */
		snprintf(sql, sizeof sql, "SELECT NOT EXISTS (SELECT 1 FROM"
		         " %s_docsize)", name);
		sqlite3_stmt *st = rl_db_prepare(db, sql);
		if (!st)
			return RL_EINTERNAL;
		int s = sqlite3_step(st);
		if (s == SQLITE_ROW)
			*ok = sqlite3_column_int(st, 0) == 1;
		else
			rc = rl_db_sqlite_fail(db, s, "filter");
		sqlite3_finalize(st);
		return rc;
	}
	struct seg_row *v = NULL;
	size_t nv = 0, cv = 0;
	double idf[16];
	size_t run[17];                 /* phrase p's rows: v[run[p]..run[p+1]) */
	long long rows, tokens;
	rl_fts_seg_averages(r, &rows, &tokens);
	for (size_t p = 0; p < k->nph && !rc && *ok; p++) {
		const struct rl_topk_phrase *ph = &k->ph[p];
		run[p] = nv;
		bool found;
		long long hit = 0;
		rc = rl_fts_seg_seek(r, ph->term[t], &found);
		struct rl_fts_want w = { ids, nids, 0 };
		/* the rows known without the walk (the lists' count, the
		 * lists up to date): only the set's rows read, a long
		 * doclist's leaves without one of them not read at all —
		 * never slower than the walk (bench/seg_walk at 1M: `power`
		 * with a quarter of the rulings wanted 14.2 -> 13.2 ms, with
		 * 744 of them 16.2 -> 2.9; `damag` with half 12.7 -> 12.8),
		 * so whenever the set is the smaller */
		bool known = ph->listed[t] && !k->dirty;
		bool only = known && found && (long long)nids < ph->docs0[t];
		if (!rc && only)
			rc = rl_fts_seg_only(r, &w);
		long long rid;
		unsigned hits[2];
		bool in;
		while (!rc && found && rl_fts_seg_row_in(r, &rid, hits, &w, &in)) {
			hit++;
			if (!in)
				continue;
			if (!rl_grow(&v, &cv, nv + 1, sizeof *v)) {
				rc = RL_ENOMEM;
				break;
			}
			/* bm25 adds each hit's column weight (integers:
			 * exact in any order) */
			v[nv++] = (struct seg_row){ rid, (int)p,
				TITLE_W * (double)hits[0] + BODY_W * (double)hits[1] };
		}
		if (!rc)
			rc = rl_fts_seg_status(r);
		if (only)
			hit = ph->docs0[t];
		/* the lists' count, when it holds, is the doclist's */
		if (rc == RL_FTS_SEG_DOUBT || (!rc && known &&
		    ph->docs0[t] != hit)) {
			*ok = false;
			rc = RL_OK;
		}
		idf[p] = rl_bm25_idf(rows, hit);
	}
	rl_fts_seg_close(r);
	if (!rc && *ok && nv) {
		run[k->nph] = nv;
		rc = merge_runs(v, run, k->nph);
	}
	if (rc || !*ok || !nv) {
		free(v);
		return rc;
	}
	/* each row's tokens in all columns (xColumnSize(-1)): its %_docsize
	 * record, read through one blob handle moved from row to row, in
	 * rowid order (a prepared seek stepped per row cost ~1 us more a
	 * row: 8,416 rows of `power --tag "Graka Tokens"` at 1M) */
	snprintf(sql, sizeof sql, "%s_docsize", name);
	sqlite3_blob *bl = NULL;
	double avgdl = (double)tokens / (double)rows;
	for (size_t i = 0, j; i < nv && !rc && *ok; i = j) {
		double freq[16] = {0};
		unsigned long long held = 0;
		for (j = i; j < nv && v[j].rid == v[i].rid; j++) {
			freq[v[j].p] = v[j].freq;
			held |= 1ULL << v[j].p;
		}
		if (and ? held != (1ULL << k->nph) - 1 : !held)
			continue;
		int s = bl ? sqlite3_blob_reopen(bl, v[i].rid)
		           : sqlite3_blob_open(db->h, "main", sql, "sz", v[i].rid,
		                               0, &bl);
		unsigned char p[32];
		int n = s == SQLITE_OK ? sqlite3_blob_bytes(bl) : 0;
		if (s == SQLITE_OK && n >= 0 && (size_t)n <= sizeof p)
			s = sqlite3_blob_read(bl, p, n, 0);
		else if (s == SQLITE_OK)
			*ok = false;
		if (s == SQLITE_ERROR) {
			*ok = false;    /* no such row (or not a blob) */
		} else if (s != SQLITE_OK) {
			rc = rl_db_sqlite_fail(db, s, "filter");
		} else if (*ok) {
			size_t o = 0, u = 0;
			unsigned long long col[2] = { 0, 0 };
			for (int c = 0; c < 2 && *ok; c++, o += u)
				*ok = (u = rl_fts_varint(p + o, (size_t)n - o, &col[c]));
			*ok = *ok && o == (size_t)n && col[0] < 1u << 30 &&
			      col[1] < 1u << 30;
			int d = (int)col[0] + (int)col[1];
			if (*ok && !rl_grow(h, cap, *nh + 1, sizeof **h))
				rc = RL_ENOMEM;
			if (*ok && !rc)
				(*h)[(*nh)++] = (struct seg_hit){ v[i].rid,
					rl_bm25_score((int)k->nph, idf, freq,
					              (double)d, avgdl), held, t };
		}
	}
	sqlite3_blob_close(bl);
	free(v);
	return rc;
}

/* ", fN(rid) AS (...)": the rows of h[0..n) holding one of subselect
 * N's phrases (its rulings among the rows tested, which are h's). */
static void seg_subs(struct rl_buf *b, const struct rl_compiled *c,
                     const struct rl_topk *k, const struct seg_hit *h,
                     size_t n)
{
	for (size_t i = 0; i < c->nsub; i++) {
		unsigned long long bit = sub_mask(c, i, k);
		bool any = false;
		rl_buf_addf(b, ", f%zu(rid) AS (", i + 1);
		for (size_t j = 0; j < n; j++)
			if (h[j].ph & bit) {
				rl_buf_addf(b, "%s(%lld)", any ? ", " : "VALUES ",
				            h[j].rid);
				any = true;
			}
		rl_buf_adds(b, any ? ")" : "SELECT NULL WHERE 0)");
	}
}

/* The conditions of c but the one the set came from (set_i): each
 * scored row is one of the set's rulings, which pass it. In the rows
 * statement, a tag's "r.id IN (SELECT ... ruling_tags ...)" built the
 * list of its rulings again (11,548 for "Graka Tokens" at 1M: ~10 ms,
 * once more each time more rows were taken). */
static void seg_where(struct rl_buf *b, const struct rl_compiled *c,
                      size_t set_i)
{
	if (c->nconds < 2)
		return;
	char **v = malloc(c->nconds * sizeof *v);
	if (!v) {
		b->oom = true;
		return;
	}
	size_t n = 0;
	for (size_t i = 0; i < c->nconds; i++)
		if (i != set_i)
			v[n++] = c->conds[i].rows;
	rl_buf_adds(b, " AND ");
	rl_join_balanced(b, v, n, "AND");
	free(v);
}

/* The rows statement of seg_rows: the first n scored rows (their rank
 * as the score, replaced after), through every condition of c (but the
 * set's own, which they pass), then their snippets. */
static char *seg_sql(const struct rl_query *q, const struct rl_compiled *c,
                     const struct rl_topk *k, size_t set_i,
                     const struct seg_hit *h, size_t n)
{
	struct rl_buf b = {0};
	rl_buf_adds(&b, "WITH m(o, rid, l) AS (VALUES ");
	for (size_t i = 0; i < n; i++)
		rl_buf_addf(&b, "%s(%zu, %lld, '%s')", i ? ", " : "", i,
		            h[i].rid, fts_langs[h[i].t]);
	rl_buf_addc(&b, ')');
	seg_subs(&b, c, k, h, n);
	rl_buf_addf(&b, ", top AS MATERIALIZED (SELECT %s, m.o AS score,"
	            " m.l AS l, 0 AS first FROM m CROSS JOIN rulings r ON r.id = m.rid"
	            " LEFT JOIN games g ON g.id = r.game_id WHERE 1",
	            rl_ruling_cols);
	seg_where(&b, c, set_i);
	rl_buf_addf(&b, " ORDER BY m.o LIMIT %ld) SELECT top.*, ",
	            q->limit + 1);
	fts_snippet(&b, c, c->match_i, "rulings_fts_");
	rl_buf_adds(&b, " FROM top ORDER BY top.first, top.score, top.id");
	return rl_buf_take(&b);
}

/* Whether c's condition of games (a word the thesaurus widens: its
 * phrases of other games' concepts count in their games only) is the
 * plan's restricted phrases, as games_count_sql reads it: one such
 * condition, over an OR of the phrases, and no other subselect. */
static bool seg_games_cond(const struct rl_compiled *c, bool and)
{
	size_t ngames = 0;
	for (size_t i = 0; i < c->nconds; i++) {
		if (c->conds[i].games)
			ngames++;
		else if (c->conds[i].subs)
			return false;
	}
	return ngames == 1 && !and;
}

/* The scored rows h[0..*nh) that c's condition of games keeps, in their
 * order (seg_games_cond): a row holding a phrase that counts in any game
 * passes it; one holding only phrases of other games' concepts passes
 * when its ruling is of one of their games (its game looked up). Left
 * in the rows statement, a French row holding "Pouvoir" alone failed it
 * there, so that too few of the first rows passed and more were read,
 * through every condition (`power --tag "Graka Tokens"` at 1M: 100,
 * then 800 rulings read, 52 ms); the total's join read the ruling of
 * each of its 8,874 rows (40 % of that search). */
static int seg_games(rl_db *db, const struct rl_topk *k, struct seg_hit *h,
                     size_t *nh)
{
	sqlite3_stmt *st = NULL;
	size_t m = 0;
	int rc = RL_OK;
	for (size_t i = 0; i < *nh && !rc; i++) {
		unsigned long long held = h[i].ph, gp = 0;
		bool in = false;
		for (size_t p = 0; p < k->nph && p < 63 && !in; p++)
			if (held & 1ULL << p) {
				in = !k->ph[p].restricted;
				gp |= 1ULL << p;
			}
		if (!in && !st && !(st = rl_db_prepare(db, "SELECT game_id FROM"
		                                       " rulings WHERE id = ?1")))
			rc = RL_EINTERNAL;
		if (!in && st) {
			sqlite3_bind_int64(st, 1, h[i].rid);
			int s = sqlite3_step(st);
			/* no game, or no ruling: no game's phrase counts */
			if (s == SQLITE_ROW &&
			    sqlite3_column_type(st, 0) != SQLITE_NULL) {
				long long g = sqlite3_column_int64(st, 0);
				for (size_t p = 0; p < k->nph && !in; p++)
					for (size_t j = 0; (gp & 1ULL << p) &&
					     j < k->ph[p].ngid && !in; j++)
						in = k->ph[p].gid[j] == g;
			} else if (s != SQLITE_ROW && s != SQLITE_DONE) {
				rc = rl_db_sqlite_fail(db, s, "filter");
			}
			sqlite3_reset(st);
		}
		if (in)
			h[m++] = h[i];
	}
	sqlite3_finalize(st);
	if (!rc && m < *nh)
		rl_topk_count_seg_games();
	if (!rc)
		*nh = m;
	return rc;
}

/* Whether each scored row passes every condition of c but withdrawn
 * rulings hidden (*hidden) without its ruling read: the conditions are
 * only the one the set came from (set_i: each row is one of its
 * rulings), the languages of the tables, withdrawn rulings hidden and
 * the condition of games when games says the rows pass it (seg_games
 * kept them). */
static bool seg_known(const struct rl_compiled *c, size_t set_i, bool games,
                      bool *hidden)
{
	*hidden = false;
	if (c->nsub && !games)
		return false;
	for (size_t i = 0; i < c->nconds; i++) {
		const struct rl_cond *d = &c->conds[i];
		if (d->kind == RL_COND_SHOWN)
			*hidden = true;
		else if (!(games && d->games) && i != set_i && !in_tables(c, d))
			return false;
	}
	return true;
}

/* The scored rows h[0..*nh) less the withdrawn rulings (their partial
 * index: few, or none), in their order. */
static int seg_shown(rl_db *db, const struct rl_compiled *c,
                     struct seg_hit *h, size_t *nh)
{
	long long *ids = NULL;
	size_t n = 0, m = 0;
	int rc = seg_ids(db, c, "SELECT id FROM rulings WHERE withdrawn_at"
	                 " IS NOT NULL", &ids, &n, NULL);
	for (size_t i = 0; !rc && i < *nh; i++)
		if (!n || !bsearch(&h[i].rid, ids, n, sizeof *ids, by_id))
			h[m++] = h[i];
	free(ids);
	if (!rc)
		*nh = m;
	return rc;
}

/* The count of the scored rows that pass every condition. */
static int seg_total(rl_db *db, const struct rl_compiled *c,
                     const struct rl_topk *k, const struct seg_hit *h,
                     size_t nh, long long *total)
{
	int rc = rl_db_exec(db, "DELETE FROM temp.topk_cand");
	sqlite3_stmt *st = rc ? NULL : rl_db_prepare(db,
		"INSERT OR IGNORE INTO temp.topk_cand (rid, tabs) VALUES (?1, ?2)");
	if (!rc && !st)
		rc = RL_EINTERNAL;
	for (size_t i = 0; i < nh && !rc; i++) {
		sqlite3_bind_int64(st, 1, h[i].rid);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)h[i].ph);
		int s = sqlite3_step(st);
		if (s != SQLITE_DONE)
			rc = rl_db_sqlite_fail(db, s, "filter");
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	if (rc)
		return rc;
	struct rl_buf b = {0};
	/* fN: the scored rows holding one of its phrases (tabs: the
	 * phrases each holds) */
	for (size_t i = 0; i < c->nsub; i++)
		rl_buf_addf(&b, "%sf%zu(rid) AS (SELECT rid FROM temp.topk_cand"
		            " WHERE tabs & %llu)%s", i ? ", " : "WITH ", i + 1,
		            sub_mask(c, i, k), i + 1 == c->nsub ? " " : "");
	rl_buf_adds(&b, "SELECT count(*) FROM temp.topk_cand m CROSS JOIN rulings r"
	            " ON r.id = m.rid LEFT JOIN games g ON g.id = r.game_id"
	            " WHERE 1");
	where(&b, c, true);
	char *sql = rl_buf_take(&b);
	st = prepare(db, sql, c, &rc);
	free(sql);
	int s = st ? sqlite3_step(st) : SQLITE_OK;
	if (st && s == SQLITE_ROW)
		*total = sqlite3_column_int64(st, 0);
	else if (st)
		rc = rl_step_error(db, s);
	sqlite3_finalize(st);
	return rc;
}

/* A word with a filter that keeps the rulings set: the word's doclist in
 * each wanted table read once (src/ftsseg.c), skipping to each ruling
 * of the set, and those holding the word scored in C as bm25() scores
 * them (its idf from the rows the walk counts, each row's tokens from
 * %_docsize): FTS5 opened a cursor per ruling given (~0.1 ms each at 1M).
 * The top rows then go through every condition in score order, and the
 * total counts the scored rows that pass them. *used false when the
 * reader does not know an index or doubts it: FTS5 answers instead. */
static int seg_rows(rl_db *db, const struct rl_query *q,
                    const struct rl_compiled *c, const struct rl_topk *k,
                    bool and, const long long *ids, size_t nids,
                    size_t set_i, struct rl_results *out, bool *more,
                    long long *total, bool *used)
{
	*used = false;
	*total = -1;
	int rc = RL_OK;
	struct seg_hit *h = NULL;
	size_t nh = 0, cap = 0;
	bool ok = true;
	for (int t = 0; !rc && ok && t < 4; t++)
		if (k->t[t].wanted)
			rc = seg_table(db, k, and, t, ids, nids, &h, &nh, &cap,
			               &ok);
	if (rc || !ok) {
		free(h);
		return rc;
	}
	/* the rows that fail the condition of games left out first (in
	 * place, keeping the others' order: they are sorted below, as far
	 * as they are taken) */
	bool games = seg_games_cond(c, and);
	if (games)
		rc = seg_games(db, k, h, &nh);
	/* and the withdrawn, when then every row left passes every
	 * condition: the first limit + 1 are the answer (each one's ruling
	 * read in the rows statement: 100 of them were), their count the
	 * total */
	bool hidden;
	bool known = seg_known(c, set_i, games, &hidden);
	if (!rc && known && hidden)
		rc = seg_shown(db, c, h, &nh);
	*more = false;
	/* the first rows through the conditions; more when too few pass */
	size_t sorted = 0;
	for (size_t take = known ? (size_t)q->limit + 1
	                         : 4 * ((size_t)q->limit + 1) + 16; !rc && nh;
	     take = take > SIZE_MAX / 8 ? SIZE_MAX : take * 8) {
		size_t n = take < nh ? take : nh;
		if (n > sorted) {
			sort_prefix(h, sorted, n, nh);
			sorted = n;
		}
		char *sql = seg_sql(q, c, k, set_i, h, n);
		sqlite3_stmt *st = prepare(db, sql, c, &rc);
		free(sql);
		if (!rc)
			rc = run_rows(db, st, q, true, out, more, NULL);
		sqlite3_finalize(st);
		if (rc || *more || n == nh)
			break;
		rl_results_free(out);
		*out = (struct rl_results){0};
	}
	for (size_t i = 0; !rc && i < out->n; i++)
		out->v[i].score = h[(size_t)out->v[i].score].score;
	if (!rc && *more && !q->no_total && known)
		*total = (long long)nh;
	else if (!rc && *more && !q->no_total)
		rc = seg_total(db, c, k, h, nh, total);
	free(h);
	if (rc) {
		rl_results_free(out);
		*out = (struct rl_results){0};
		return rc;
	}
	*used = true;
	rl_topk_count_seg();
	return RL_OK;
}

/* A search of words with a filter that keeps few rulings S (a tag, a
 * kind: set_of; of several, the fewest), which the lists' candidates
 * seldom pass (the fast path then fell back to scoring every match:
 * `power --kind errata`, 437 errata of 100k, 0.26 s): only S is given
 * to the tables where the words have lists (rowid IN temp.topk_cand;
 * FTS5 seeks each, or walks the doclist when it is short beside S, as
 * fast_rows chooses), scored by rl_bm25 with the lists' counts when
 * nothing changed since their build. Exact by construction: every match
 * in S is scored and a match outside S fails the filter; the tables
 * without lists (the words rare there) are scored whole. *used false
 * (nothing done) when there is no such filter, S is over SET_MAX (or
 * the words' rows / RL_TOPK_WALK) or the words have no list; the caller
 * then goes on as before. */
static int set_rows(rl_db *db, const struct rl_query *q,
                    const struct rl_compiled *c, struct plan *p,
                    unsigned *cand, struct rl_results *out, bool *more,
                    long long *total, bool *used)
{
	*used = false;
	*cand = 0;
	*total = -1;
	if (!rl_topk_enabled() || q->as_of || q->raw || !c->match || c->rank ||
	    c->first || q->limit <= 0)
		return RL_OK;
	/* the words' rows in the tables of their lists: none, no lists
	 * (rare words, whose every match costs little to score) */
	int rc = plan_of(db, c, p);
	struct rl_topk *k = &p->k;
	long long docs = 0;
	for (int i = 0; !rc && p->usable && i < 4; i++)
		for (size_t j = 0; k->t[i].listed && j < k->nph; j++)
			docs += k->ph[j].docs0[i];
	long long max = docs / RL_TOPK_WALK > SET_MAX ? docs / RL_TOPK_WALK
	                                              : SET_MAX;
	/* the doclist read once (seg_rows): more rulings are worth it */
	long long fts_max = max;
	bool and = false;
	bool seg = !rc && docs && seg_fits(c, k, &and);
	if (seg && max < SEG_SET_MAX)
		max = SEG_SET_MAX;
	char *best = NULL;
	size_t best_i = 0;
	long long nbest = max + 1;
	/* seg_rows' rulings: the set's ids, read as it is counted (a tag
	 * of many qualifiers, "Graka Tokens" at 1M, is 2,277 tags: their
	 * 12,463 rows sought once, ~10 ms, not twice) */
	long long *best_ids = NULL;
	size_t nbest_ids = 0;
	for (size_t i = 0; i < c->nconds && !rc && docs; i++) {
		bool many;
		rc = kind_keeps_many(db, c, k, &c->conds[i], &many);
		char *s = rc || many ? NULL : set_of(&c->conds[i]);
		if (!s)
			continue;
		struct rl_buf b = {0};
		rl_buf_addf(&b, seg ? "SELECT * FROM (%s LIMIT %lld)"
		            : "SELECT count(*) FROM (%s LIMIT %lld)", s, max + 1);
		char *cs = rl_buf_take(&b);
		if (seg) {
			long long *v = NULL, rows = 0;
			size_t nv = 0;
			rc = cs ? seg_ids(db, c, cs, &v, &nv, &rows) : RL_ENOMEM;
			if (!rc && rows < nbest) {
				nbest = rows;
				free(best);
				best = s;
				best_i = i;
				s = NULL;
				free(best_ids);
				best_ids = v;
				nbest_ids = nv;
				v = NULL;
			}
			free(v);
			free(cs);
			free(s);
			continue;
		}
		sqlite3_stmt *st = prepare(db, cs, c, &rc);
		free(cs);
		int r = st ? sqlite3_step(st) : SQLITE_DONE;
		if (st && r == SQLITE_ROW && sqlite3_column_int64(st, 0) < nbest) {
			nbest = sqlite3_column_int64(st, 0);
			free(best);
			best = s;
			best_i = i;
			s = NULL;
		} else if (st && r != SQLITE_ROW) {
			rc = rl_db_sqlite_fail(db, r, "filter");
		}
		sqlite3_finalize(st);
		free(s);
	}
	/* a set so small beside the word's rows that seeking each in FTS5
	 * (~0.1 ms) costs less than the walk of the doclists (~20 ns a
	 * row: at 1M `power` 729k rows, ~12 ms; a tag of 96 rulings 0.9x
	 * of FTS5's seeks, one of 991 3x less) */
	if (!rc && best && seg && docs <= SEG_WALK * nbest) {
		bool done;
		rc = seg_rows(db, q, c, k, and, best_ids, nbest_ids, best_i,
		              out, more, total, &done);
		free(best_ids);
		best_ids = NULL;
		if (rc || done || nbest > fts_max) {
			free(best);
			if (!rc && done) {
				*used = true;
				rl_topk_count_set();
			}
			return rc;
		}
	}
	free(best_ids);
	bool go = !rc && best;
	for (int i = 0; go && i < 4; i++) {
		*cand |= k->t[i].listed ? 1u << i : 0;
		long long d = 0;
		for (size_t j = 0; j < k->nph; j++)
			d += k->ph[j].docs0[i];
		k->t[i].walk = d <= RL_TOPK_WALK * nbest;
	}
	if (rc || !go || !*cand) {
		free(best);
		return rc;
	}
	struct rl_buf b = {0};
	rl_buf_addf(&b, "INSERT OR IGNORE INTO temp.topk_cand (rid, tabs)"
	            " SELECT *, %u FROM (%s)", *cand, best);
	free(best);
	char *fill = rl_buf_take(&b);
	if (!fill)
		return RL_ENOMEM;
	rc = rl_db_exec(db, "DELETE FROM temp.topk_cand");
	sqlite3_stmt *st = rc ? NULL : prepare(db, fill, c, &rc);
	free(fill);
	int r = st ? sqlite3_step(st) : SQLITE_DONE;
	sqlite3_finalize(st);
	if (!rc && r != SQLITE_DONE)
		rc = rl_db_sqlite_fail(db, r, "filter");
	char *text = rc ? NULL : rows_sql(q, c, "rulings_fts_", *cand, k, true);
	if (!rc && !text)
		rc = RL_ENOMEM;
	st = rc ? NULL : prepare(db, text, c, &rc);
	free(text);
	if (!rc)
		rc = run_rows(db, st, q, true, out, more, NULL);
	sqlite3_finalize(st);
	if (rc) {
		rl_results_free(out);
		*out = (struct rl_results){0};
		return rc;
	}
	*used = true;
	rl_topk_count_set();
	return RL_OK;
}

/* The total of set_rows' search: counted over the same rows (the
 * rowids of temp.topk_cand in the tables cand names). */
static char *set_count_sql(const struct rl_compiled *c, unsigned cand,
                           const struct rl_topk *k)
{
	struct rl_buf b = {0};
	if (c->nsub) {
		rl_buf_adds(&b, "WITH ");
		ctes(&b, c, "rulings_fts_", cand, k, false);
		rl_buf_addc(&b, ' ');
	}
	rl_buf_adds(&b, "SELECT count(*)");
	from(&b, c, false, "rulings_fts_", false, cand, k, 0, false);
	where(&b, c, true);
	return rl_buf_take(&b);
}

static int search_in(rl_db *db, const struct rl_query *q,
                     struct rl_results *out)
{
	*out = (struct rl_results){0};
	struct rl_compiled c;
	int rc = rl_compile(db, q, q->nwords == 0 && q->limit > 0, &c);
	if (rc == RL_NOTFOUND && c.unknown) {
		out->unknown = c.unknown;
		c.unknown = NULL;
		rl_db_fail(db, RL_NOTFOUND, "%s", out->unknown);
	}
	if (!rc && c.nothing)
		rc = RL_NOTFOUND;     /* words that hold nothing to find */
	/* --as-of: the texts of that time, in temporary tables */
	if (!rc && q->as_of)
		rc = build_as_of(db, q->as_of, c.match || c.rank || c.nsub);
	const char *prefix = q->as_of ? "asof_fts_" : "rulings_fts_";
	/* the tables that hold no row left out (fts_empty_of) */
	if (!rc)
		rc = fts_empty_of(db, q, &c);
	bool fast = false;
	bool more = false;
	struct plan plan = {0};
	bool set = false;
	unsigned cand = 0;
	long long set_total = -1;
	if (!rc)
		rc = set_rows(db, q, &c, &plan, &cand, out, &more, &set_total,
		              &set);
	fast = set;
	if (!rc && !set)
		rc = fast_rows(db, q, &c, &plan, out, &more, &fast);
	/* the exhaustive ranking of words without lists (few rows each:
	 * a small database, rare words), with the plan's phrases: its
	 * statement reads a word's rows in each game once, not once for
	 * the ranking and once for each game's phrases (ctes; `defend` on
	 * the seeds: 9.0M -> 8.3M instructions). Not where the lists could
	 * not prove an answer: every match of a common word kept in a
	 * table of its own cost more than the subselects (`power
	 * --category "Effect Rules"` at 1M: 3.1-3.2 s against 2.9) */
	const struct rl_topk *pk = plan.made && plan.k.parsed && !plan.usable
	                           ? &plan.k : NULL;
	char *text = rc || fast ? NULL : rows_sql(q, &c, prefix, 0, pk, false);
	sqlite3_stmt *st = rc || fast ? NULL : prepare(db, text, &c, &rc);
	unsigned char *tab = NULL;
	if (!rc && !fast)
		rc = run_rows(db, st, q, c.match || c.rank, out, &more, &tab);
	if (!rc && !fast && (c.match || c.rank))
		rc = snippets_after(db, &c, c.match ? c.match_i : c.rank_i,
		                    prefix, out, tab);
	free(tab);
	if (rc == RL_EUSAGE && q->raw)
		rl_db_fail(db, RL_EUSAGE, "bad query '%s': %s", c.match ? c.match
		           : "", sqlite3_errmsg(db->h));
	sqlite3_finalize(st);
	free(text);
	out->total = (long long)out->n;
	if (!rc && more && q->no_total) {
		out->total = -1;
	} else if (!rc && more && set_total >= 0) {
		out->total = set_total;   /* seg_rows counted it */
	} else if (!rc && more) {
		char *ct = NULL;
		rc = fts_count_sql(db, q, &c, &plan, &ct);
		if (!rc && !ct)
			rc = facet_count_sql(db, q, &c, &plan, &ct);
		if (!rc && !ct)
			rc = games_count_sql(db, q, &c, &plan, &ct);
		if (!rc && !ct && set) {
			ct = set_count_sql(&c, cand, &plan.k);
			if (!ct)
				rc = RL_ENOMEM;
		}
		if (!rc && !ct)
			ct = count_sql(q, &c, prefix);
		sqlite3_stmt *cst = rc ? NULL : prepare(db, ct, &c, &rc);
		free(ct);
		int s = cst ? sqlite3_step(cst) : SQLITE_OK;
		if (cst && s == SQLITE_ROW)
			out->total = sqlite3_column_int64(cst, 0);
		else if (cst)
			rc = rl_step_error(db, s);
		sqlite3_finalize(cst);
	}
	struct rl_details ds = {0};
	if (!rc && out->n)
		rc = rl_details_prepare(db, &ds);
	for (size_t i = 0; i < out->n && !rc; i++)
		rc = rl_fill_details(db, &ds, &out->v[i]);
	rl_details_finalize(&ds);
	rl_topk_free(&plan.k);
	rl_compiled_free(&c);
	if (rc && rc != RL_NOTFOUND) {
		rl_results_free(out);
		return rc;
	}
	return rc ? rc : out->n ? RL_OK : RL_NOTFOUND;
}

int rl_search(rl_db *db, const struct rl_query *q, struct rl_results *out)
{
	*out = (struct rl_results){0};
	int rc = rl_read_begin(db);
	if (rc)
		return rc;
	int found = search_in(db, q, out);
	rc = rl_read_end(db, found);
	/* the end of the read failed (out of memory): the caller frees
	 * nothing on an error, so the results go here */
	if (rc != found && (found == RL_OK || found == RL_NOTFOUND))
		rl_results_free(out);
	return rc;
}

/* sql with each ?N written as the value it binds. */
static void inline_params(struct rl_buf *b, const char *sql,
                          const struct rl_params *p)
{
	for (const char *s = sql; *s; ) {
		if (*s == '?' && s[1] >= '0' && s[1] <= '9') {
			char *end;
			long n = strtol(s + 1, &end, 10);
			if (n >= 1 && n <= p->n) {
				const char *v = p->v[n - 1];
				rl_buf_addc(b, '\'');
				for (; v && *v; v++) {
					if (*v == '\'')
						rl_buf_addc(b, '\'');
					rl_buf_addc(b, *v);
				}
				rl_buf_addc(b, '\'');
				s = end;
				continue;
			}
		}
		rl_buf_addc(b, *s++);
	}
}

static int explain_in(rl_db *db, const struct rl_query *q, char **out)
{
	*out = NULL;
	struct rl_compiled c;
	int rc = rl_compile(db, q, false, &c);
	if (rc == RL_NOTFOUND && c.unknown)
		rl_db_fail(db, RL_NOTFOUND, "%s", c.unknown);
	if (rc) {
		rl_compiled_free(&c);
		return rc;
	}
	struct rl_buf b = {0};
	if (q->raw)
		rl_buf_addf(&b, "raw: %s\n", c.match ? c.match : "");
	else if (q->nwords)
		rl_buf_addf(&b, "query: %s\n", c.read_as ? c.read_as : "(nothing)");
	if (c.nothing)
		rl_buf_adds(&b, "nothing: the words hold nothing to find\n");
	if (c.match && !q->raw)
		rl_buf_addf(&b, "match: %s\n", c.match);
	if (c.rank)
		rl_buf_addf(&b, "rank: %s\n", c.rank);
	for (size_t i = 0; i < c.nsub; i++)
		rl_buf_addf(&b, "f%zu: %s\n", i + 1, c.sub[i].fts);
	for (size_t i = 0; i < c.nconds; i++) {
		rl_buf_adds(&b, "where: ");
		inline_params(&b, c.conds[i].rows, &c.p);
		rl_buf_addc(&b, '\n');
		if (c.conds[i].count) {
			rl_buf_adds(&b, "count: ");
			inline_params(&b, c.conds[i].count, &c.p);
			rl_buf_addc(&b, '\n');
		}
	}
	if (c.first) {
		rl_buf_adds(&b, "first: ");
		inline_params(&b, c.first, &c.p);
		rl_buf_addc(&b, '\n');
	}
	/* the tables the search reads, as search_in finds them */
	rc = fts_empty_of(db, q, &c);
	if (!rc && (c.match || c.rank || c.nsub)) {
		rl_buf_adds(&b, "tables:");
		for (size_t i = 0; i < sizeof fts_langs / sizeof *fts_langs; i++)
			if (fts_wanted(&c, fts_langs[i]))
				rl_buf_addf(&b, " rulings_fts_%s", fts_langs[i]);
		rl_buf_addc(&b, '\n');
	}
	rl_compiled_free(&c);
	char *text = rl_buf_take(&b);
	if (rc) {
		free(text);
		return rc;
	}
	if (!(*out = text))
		return RL_ENOMEM;
	return RL_OK;
}

int rl_search_explain(rl_db *db, const struct rl_query *q, char **out)
{
	*out = NULL;
	int rc = rl_read_begin(db);
	return rc ? rc : rl_read_end(db, explain_in(db, q, out));
}
