/* search.c — rl_search: full text (BM25-ranked, with snippets) and
 * filters, as of now or of a past time.
 *
 * Full-text queries go through rl_fts_query() unless the caller asked for
 * raw FTS5 syntax. */
#include "query.h"
#include "stemtok.h"
#include "util.h"
#include "utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Column weights for bm25: a match in the title (the question) counts more
 * than one in the answer. */
#define TITLE_WEIGHT "4.0"
#define BODY_WEIGHT "1.0"

/* The full-text tables, one per language (schema/002-languages.sql). */
static const char *const fts_langs[] = { "en", "fr", "ru", "xx" };

/* Which tables a language filter needs: all for none or "any". */
static bool fts_wanted(const char *table_lang, const char *lang)
{
	if (!lang || strcmp(lang, "any") == 0)
		return true;
	bool known = strcmp(lang, "en") == 0 || strcmp(lang, "fr") == 0 ||
	             strcmp(lang, "ru") == 0;
	return known ? strcmp(lang, table_lang) == 0
	             : strcmp(table_lang, "xx") == 0;
}

/* A UNION ALL over the wanted tables of (rid, score, snip), or of rid
 * alone for counting. The MATCH expression is parameter mi. */
static void fts_union(struct rl_buf *b, const char *lang, int mi, bool scored,
                      const char *prefix)
{
	bool first = true;
	rl_buf_adds(b, "(");
	for (size_t i = 0; i < sizeof fts_langs / sizeof *fts_langs; i++) {
		const char *l = fts_langs[i];
		if (!fts_wanted(l, lang))
			continue;
		if (!first)
			rl_buf_adds(b, " UNION ALL ");
		first = false;
		if (scored)
			rl_buf_addf(b, "SELECT rowid AS rid, bm25(%s%s, "
			            TITLE_WEIGHT ", " BODY_WEIGHT ") AS score,"
			            " '%s' AS l", prefix, l, l);
		else
			rl_buf_adds(b, "SELECT rowid AS rid");
		rl_buf_addf(b, " FROM %s%s WHERE %s%s MATCH ?%d",
		            prefix, l, prefix, l, mi);
	}
	rl_buf_adds(b, ") m JOIN rulings r ON r.id = m.rid");
}

/* The snippet of the ruling top.id in the table of its language top.l:
 * computed for the rows a query returns only. snippet() in the ranked
 * UNION ALL ran for every match before the LIMIT, re-tokenizing and
 * stemming each matching text: two thirds of a rare word's query at 1M
 * rulings (bench/RESULTS.md). */
static void fts_snippet(struct rl_buf *b, const char *lang, int mi,
                        const char *prefix)
{
	rl_buf_adds(b, "CASE top.l");
	for (size_t i = 0; i < sizeof fts_langs / sizeof *fts_langs; i++) {
		const char *l = fts_langs[i];
		if (!fts_wanted(l, lang))
			continue;
		rl_buf_addf(b, " WHEN '%s' THEN (SELECT snippet(%s%s, -1, '"
		            RL_SNIPPET_OPEN "', '" RL_SNIPPET_CLOSE "', "
		            "'\xE2\x80\xA6', 24) FROM %s%s WHERE %s%s MATCH ?%d"
		            " AND rowid = top.id)", l, prefix, l, prefix, l, prefix, l,
		            mi);
	}
	rl_buf_adds(b, " END");
}

/* temp.asof: each ruling that stood at time when (its latest version by
 * then, not withdrawn since), and, for a full-text query, temporary FTS5
 * tables over those texts, one per language like the real ones. */
static int build_as_of(rl_db *db, const char *when, bool fts)
{
	char *t = rl_day_end(when);
	if (!t)
		return RL_ENOMEM;
	int rc = rl_db_exec(db,
		"CREATE TEMP TABLE IF NOT EXISTS asof"
		" (id INTEGER PRIMARY KEY, title TEXT, body TEXT, lang TEXT);"
		"DELETE FROM temp.asof;");
	sqlite3_stmt *st = NULL;
	if (!rc && !(st = rl_db_prepare(db,
		"INSERT INTO temp.asof (id, title, body, lang)"
		" SELECT v.ruling_id, v.title, v.body, r.lang"
		" FROM ruling_versions v JOIN rulings r ON r.id = v.ruling_id"
		" WHERE v.import_id = (SELECT max(v2.import_id)"
		"     FROM ruling_versions v2 JOIN imports i2 ON i2.id = v2.import_id"
		"     WHERE v2.ruling_id = v.ruling_id AND i2.imported_at <= ?1)"
		" AND NOT EXISTS (SELECT 1 FROM changes c"
		"     JOIN imports i3 ON i3.id = c.import_id"
		"     WHERE c.ruling_id = v.ruling_id AND c.change = 'withdrawn'"
		"     AND c.import_id > v.import_id AND i3.imported_at <= ?1)")))
		rc = RL_EINTERNAL;
	if (!rc) {
		rl_bind_text(st, 1, t);
		int s = sqlite3_step(st);
		if (s != SQLITE_DONE)
			rc = rl_db_sqlite_fail(db, s, "as of");
	}
	sqlite3_finalize(st);
	free(t);
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
		         " fts5(title, body, tokenize = 'rl_stem %s');"
		         "DELETE FROM temp.asof_fts_%s;"
		         "INSERT INTO temp.asof_fts_%s (rowid, title, body)"
		         " SELECT id, title, body FROM temp.asof WHERE %s;",
		         l, tok[i], l, l, rows[i]);
		rc = rl_db_exec(db, sql);
	}
	return rc;
}

struct expand_ctx {
	rl_db *db;
	const char *game;
	bool no_thesaurus;
	bool stop;              /* leave stop words out */
};

/* Words so common in rulings' English, French and Russian that they say
 * nothing about what is asked, and cost the most to rank: every match of
 * every term is scored, and "the" matches nearly every ruling. A query of
 * several words leaves them out (see stop_words_apply()). Case-folded,
 * sorted by bytes for bsearch. */
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

/* 1 when the term (n bytes) is a stop word, 0 when not, -1 out of memory. */
static int is_stop_word(const char *term, size_t n)
{
	char *t = rl_strndup(term, n);
	char *f = t ? rl_fold(t) : NULL;
	free(t);
	if (!f)
		return -1;
	const char *k = f;
	bool stop = bsearch(&k, stop_words, sizeof stop_words / sizeof *stop_words,
	                    sizeof *stop_words, cmp_str) != NULL;
	free(f);
	return stop;
}

/* Stop words are left out of a query that has other words to find, and
 * no double quote (a phrase, or a word quoted to keep it, searches as
 * written). */
static int stop_words_apply(rl_db *db, const struct rl_query *q, bool *apply)
{
	*apply = false;
	bool other = false, stop = false;
	for (size_t i = 0; i < q->nwords; i++)
		if (strchr(q->words[i], '"'))
			return RL_OK;
	for (size_t i = 0; i < q->nwords; i++) {
		const char *p = q->words[i];
		while (*p) {
			size_t n = strcspn(p, " \t\n");
			if (n) {
				int r = p[n - 1] == '*' ? 0 : is_stop_word(p, n);
				if (r < 0)
					return RL_ENOMEM;
				if (r)
					stop = true;
				else if (rl_stemtok_count(db->h, p, (int)n) > 0)
					other = true;   /* a word with something to find */
			}
			p += n;
			p += strspn(p, " \t\n");
		}
	}
	*apply = stop && other;
	return RL_OK;
}

/* Drops a term with no token; widens one to its thesaurus equivalents
 * (itself excepted) unless alts is NULL (a prefix) or the query says not
 * to. */
static int expand_term(void *vctx, const char *term, size_t len, char ***alts,
                       bool *drop)
{
	struct expand_ctx *c = vctx;
	if (c->stop) {
		int r = is_stop_word(term, len);
		if (r < 0)
			return RL_ENOMEM;
		if (r) {
			*drop = true;
			return RL_OK;
		}
	}
	int tokens = rl_stemtok_count(c->db->h, term, (int)len);
	if (tokens < 0)
		return rl_db_fail(c->db, RL_EINTERNAL, "cannot tokenize '%.*s'",
		                  (int)len, term);
	*drop = tokens == 0;
	if (*drop || !alts || c->no_thesaurus)
		return RL_OK;
	*alts = NULL;
	char *t = rl_strndup(term, len);
	if (!t)
		return RL_ENOMEM;
	char **syn;
	size_t n;
	int rc = rl_synonyms(c->db, t, c->game, &syn, &n);
	char *key = rc ? NULL : rl_key(t);
	free(t);
	if (rc)
		return rc;
	if (!key) {
		rl_strings_free(syn, n);
		return RL_ENOMEM;
	}
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		char *k = rl_key(syn[i]);
		bool self = k && strcmp(k, key) == 0;
		free(k);
		if (self)
			free(syn[i]);
		else
			syn[o++] = syn[i];
	}
	if (syn)
		syn[o] = NULL;
	free(key);
	if (o == 0) {
		free(syn);
		return RL_OK;
	}
	*alts = syn;
	return RL_OK;
}

int rl_search(rl_db *db, const struct rl_query *q, struct rl_results *out)
{
	*out = (struct rl_results){0};
	int rc = RL_OK;
	char *match = NULL;
	if (q->nwords) {
		if (q->raw) {
			struct rl_buf b = {0};
			for (size_t i = 0; i < q->nwords; i++) {
				if (i)
					rl_buf_addc(&b, ' ');
				rl_buf_adds(&b, q->words[i]);
			}
			match = rl_buf_take(&b);
			if (!match)
				return RL_ENOMEM;
		} else {
			struct expand_ctx ec = { db, q->game, q->no_thesaurus, false };
			rc = stop_words_apply(db, q, &ec.stop);
			if (rc)
				return rc;
			rc = rl_fts_query_expand(q->words, q->nwords, expand_term, &ec,
			                         &match);
			if (rc)
				return rc;
		}
		/* Only blanks and lone stars: nothing can match. */
		if (!match)
			return RL_NOTFOUND;
	}

	/* The FROM and WHERE clauses are shared by the count and the rows. */
	/* --as-of: the texts of that time, in temporary tables */
	if (q->as_of && (rc = build_as_of(db, q->as_of, match != NULL))) {
		free(match);
		return rc;
	}
	const char *prefix = q->as_of ? "asof_fts_" : "rulings_fts_";
	struct rl_buf from = {0}, count_from = {0};
	struct rl_params p = {0};
	int mi = 0;
	if (match) {
		rc = rl_param(&p, match, false, &mi);
		fts_union(&from, q->lang, mi, true, prefix);
		fts_union(&count_from, q->lang, mi, false, prefix);
	} else {
		rl_buf_adds(&from, "rulings r");
		rl_buf_adds(&count_from, "rulings r");
	}
	struct rl_buf where = {0};
	if (q->as_of)
		rl_buf_adds(&where, " JOIN temp.asof a ON a.id = r.id");
	rl_buf_adds(&where, " LEFT JOIN games g ON g.id = r.game_id WHERE 1");
	if (!rc)
		rc = rl_add_filters(db, &where, &p, q,
		                 !match && q->limit > 0 && q->no_total);
	struct rl_buf sql = {0};
	/* with words: the ranked rows first (top), then their snippets */
	if (match)
		rl_buf_adds(&sql, "WITH top AS MATERIALIZED (");
	rl_buf_addf(&sql, "SELECT %s, %s FROM %s%s",
	            q->as_of ? rl_asof_cols : rl_ruling_cols,
	            match ? "m.score AS score, m.l AS l" : "0, NULL",
	            from.s ? from.s : "", where.s ? where.s : "");
	rl_buf_adds(&sql, match ? " ORDER BY m.score, r.id" : " ORDER BY r.id");
	if (q->limit > 0)
		rl_buf_addf(&sql, " LIMIT %ld", q->limit);
	if (match) {
		rl_buf_adds(&sql, ") SELECT top.*, ");
		fts_snippet(&sql, q->lang, mi, prefix);
		rl_buf_adds(&sql, " FROM top ORDER BY top.score, top.id");
	}
	struct rl_buf count = {0};
	rl_buf_addf(&count, "SELECT count(*) FROM %s%s",
	            count_from.s ? count_from.s : "", where.s ? where.s : "");
	rl_buf_free(&from);
	rl_buf_free(&count_from);
	rl_buf_free(&where);
	char *text = rl_buf_take(&sql);
	char *count_text = rl_buf_take(&count);
	sqlite3_stmt *st = NULL, *cst = NULL;
	if (!rc && (!text || !count_text))
		rc = RL_ENOMEM;
	if (!rc) {
		int src = sqlite3_prepare_v2(db->h, text, -1, &st, NULL);
		if (src == SQLITE_OK)
			src = sqlite3_prepare_v2(db->h, count_text, -1, &cst, NULL);
		if (src != SQLITE_OK)
			rc = rl_db_sqlite_fail(db, src, "prepare search");
	}
	for (int i = 0; i < p.n && !rc; i++) {
		rl_bind_text(st, i + 1, p.v[i]);
		rl_bind_text(cst, i + 1, p.v[i]);
	}
	size_t cap = 0;
	bool oom = false;
	while (!rc) {
		int s = sqlite3_step(st);
		if (s == SQLITE_DONE)
			break;
		if (s != SQLITE_ROW) {
			if (q->raw && (s & 0xFF) == SQLITE_ERROR)
				rc = rl_db_fail(db, RL_EUSAGE, "bad query '%s': %s", match,
				                sqlite3_errmsg(db->h));
			else
				rc = rl_step_error(db, s);
			break;
		}
		if (!rl_grow(&out->v, &cap, out->n + 1, sizeof *out->v)) {
			rc = RL_ENOMEM;
			break;
		}
		struct rl_ruling *r = &out->v[out->n++];
		*r = (struct rl_ruling){0};
		rl_fill_base(st, r, &oom);
		r->score = sqlite3_column_double(st, 13);
		/* column 14 is the language table of a match (top.l) */
		r->snippet = match ? rl_column_dup(st, 15, &oom) : NULL;
		if (oom)
			rc = RL_ENOMEM;
	}
	sqlite3_finalize(st);
	if (!rc && q->no_total) {
		out->total = -1;
	} else if (!rc) {
		int s = sqlite3_step(cst);
		if (s == SQLITE_ROW)
			out->total = sqlite3_column_int64(cst, 0);
		else
			rc = rl_step_error(db, s);
	}
	sqlite3_finalize(cst);
	struct rl_details ds = {0};
	if (!rc && out->n)
		rc = rl_details_prepare(db, &ds);
	for (size_t i = 0; i < out->n && !rc; i++)
		rc = rl_fill_details(db, &ds, &out->v[i]);
	rl_details_finalize(&ds);
	rl_params_free(&p);
	free(text);
	free(count_text);
	free(match);
	if (rc) {
		rl_results_free(out);
		return rc;
	}
	return out->n ? RL_OK : RL_NOTFOUND;
}
