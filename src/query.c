/* query.c — answering questions: search, show, tags, stats.
 *
 * Every value from the user is a bound parameter; the SQL text is assembled
 * only from fixed fragments. Full-text queries go through rl_fts_query()
 * unless the caller asked for raw FTS5 syntax. */
#include "db.h"
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

static const char ruling_cols[] =
	"r.id, r.kind, g.name, r.lang, r.title, r.body, r.rule, r.category,"
	" r.section, r.changed, r.date, r.author, r.withdrawn_at";
/* The same with the title and text as of a time (temp.asof a). */
static const char asof_cols[] =
	"r.id, r.kind, g.name, r.lang, a.title, a.body, r.rule, r.category,"
	" r.section, r.changed, r.date, r.author, r.withdrawn_at";

/* Fills the columns common to every ruling query (ruling_cols, from 0). */
static void fill_base(sqlite3_stmt *st, struct rl_ruling *r, bool *oom)
{
	r->id = sqlite3_column_int64(st, 0);
	r->kind = rl_column_dup(st, 1, oom);
	r->game = rl_column_dup(st, 2, oom);
	r->lang = rl_column_dup(st, 3, oom);
	r->title = rl_column_dup(st, 4, oom);
	r->text = rl_column_dup(st, 5, oom);
	r->rule = rl_column_dup(st, 6, oom);
	r->category = rl_column_dup(st, 7, oom);
	r->section = rl_column_dup(st, 8, oom);
	r->changed = sqlite3_column_int(st, 9) != 0;
	r->date = rl_column_dup(st, 10, oom);
	r->author = rl_column_dup(st, 11, oom);
	r->withdrawn_at = rl_column_dup(st, 12, oom);
	r->hidden_tags = -1;
}

static int step_error(rl_db *db, int rc)
{
	return rl_db_sqlite_fail(db, rc, "query");
}

/* Tags, sources and errata of r. */
/* The statements that fill in each result's details, prepared once for
 * all the results of a query (preparing them for each of 20 results cost
 * more than running them). */
struct details {
	sqlite3_stmt *tags, *sources, *errata;
};

static const char *const details_sql[] = {
	"SELECT DISTINCT t.name, t.qualifier, t.name_fold, t.qual_fold"
	" FROM ruling_tags rt JOIN tags t ON t.id = rt.tag_id"
	" WHERE rt.ruling_id = ?1 ORDER BY t.name_fold, t.qual_fold",
	"SELECT d.title, i.path, s.line, s.hidden_tags, d.date"
	" FROM ruling_sources s JOIN documents d ON d.id = s.document_id"
	" JOIN imports i ON i.id = s.import_id"
	" WHERE s.ruling_id = ?1 ORDER BY d.title, d.id",
	"SELECT product, printing, document, page"
	" FROM errata WHERE ruling_id = ?1",
};

_Static_assert(sizeof(struct details) == sizeof details_sql,
               "one SQL text per details statement");

static int details_prepare(rl_db *db, struct details *ds)
{
	sqlite3_stmt **a = (sqlite3_stmt **)ds;
	for (size_t i = 0; i < sizeof details_sql / sizeof *details_sql; i++)
		if (!(a[i] = rl_db_prepare(db, details_sql[i])))
			return RL_EINTERNAL;
	return RL_OK;
}

static void details_finalize(struct details *ds)
{
	sqlite3_stmt **a = (sqlite3_stmt **)ds;
	for (size_t i = 0; i < sizeof details_sql / sizeof *details_sql; i++)
		sqlite3_finalize(a[i]);
}

static int fill_details(rl_db *db, struct details *ds, struct rl_ruling *r)
{
	bool oom = false;
	int rc;
	sqlite3_stmt *st = ds->tags;
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, r->id);
	size_t cap = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!rl_grow(&r->tags, &cap, r->ntags + 1, sizeof *r->tags)) {
			oom = true;
			break;
		}
		char *t = rl_tag_display((const char *)sqlite3_column_text(st, 0),
		                         (const char *)sqlite3_column_text(st, 1));
		if (!t) {
			oom = true;
			break;
		}
		r->tags[r->ntags++] = t;
	}
	sqlite3_reset(st);
	if (oom)
		return RL_ENOMEM;
	if (rc != SQLITE_DONE)
		return step_error(db, rc);

	st = ds->sources;
	sqlite3_bind_int64(st, 1, r->id);
	cap = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!rl_grow(&r->sources, &cap, r->nsources + 1, sizeof *r->sources)) {
			oom = true;
			break;
		}
		struct rl_source_ref *s = &r->sources[r->nsources++];
		s->document = rl_column_dup(st, 0, &oom);
		s->path = rl_column_dup(st, 1, &oom);
		s->line = (unsigned)sqlite3_column_int(st, 2);
		s->hidden_tags = sqlite3_column_type(st, 3) == SQLITE_NULL
		                 ? -1 : sqlite3_column_int(st, 3);
		s->date = rl_column_dup(st, 4, &oom);
		if (s->hidden_tags > r->hidden_tags)
			r->hidden_tags = s->hidden_tags;
	}
	sqlite3_reset(st);
	if (oom)
		return RL_ENOMEM;
	if (rc != SQLITE_DONE)
		return step_error(db, rc);

	st = ds->errata;
	sqlite3_bind_int64(st, 1, r->id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		r->errata = calloc(1, sizeof *r->errata);
		if (!r->errata) {
			oom = true;
		} else {
			r->errata->product = rl_column_dup(st, 0, &oom);
			r->errata->printing = rl_column_dup(st, 1, &oom);
			r->errata->document = rl_column_dup(st, 2, &oom);
			r->errata->page = rl_column_dup(st, 3, &oom);
		}
		rc = SQLITE_DONE;
	}
	sqlite3_reset(st);
	if (oom)
		return RL_ENOMEM;
	return rc == SQLITE_DONE ? RL_OK : step_error(db, rc);
}

/* Parameters collected while the WHERE clause is built. */
struct params {
	const char **v;
	char **owned;
	int n, cap;
};

static int param(struct params *p, const char *value, bool fold, int *index)
{
	if (p->n == p->cap) {
		int cap = p->cap ? p->cap * 2 : 16;
		if (cap > 32000)
			return RL_EUSAGE;   /* SQLite's limit on parameters */
		const char **v = realloc(p->v, (size_t)cap * sizeof *v);
		if (!v)
			return RL_ENOMEM;
		p->v = v;
		char **o = realloc(p->owned, (size_t)cap * sizeof *o);
		if (!o)
			return RL_ENOMEM;
		p->owned = o;
		p->cap = cap;
	}
	char *f = NULL;
	if (fold && value && !(f = rl_fold(value)))
		return RL_ENOMEM;
	p->owned[p->n] = f;
	p->v[p->n] = f ? f : value;
	*index = ++p->n;
	return RL_OK;
}

static void params_free(struct params *p)
{
	for (int i = 0; i < p->n; i++)
		free(p->owned[i]);
	free(p->owned);
	free(p->v);
}

/* One tag as an SQL condition on tags t: its name and qualifier, or the
 * whole text as an unqualified name ("Speed (Fast/Slow)" matches both). */
static int tag_condition(struct rl_buf *sql, struct params *p, const char *text)
{
	struct rl_tag tag;
	int rc = rl_tag_parse(text, &tag), i, j, whole;
	if (rc == RL_EDATA) {
		rl_buf_adds(sql, "0");   /* an empty tag matches nothing */
		return RL_OK;
	}
	if (rc)
		return rc;
	rc = param(p, tag.name, true, &i);
	if (!rc && tag.qualifier) {
		rc = param(p, tag.qualifier, true, &j);
		if (!rc)
			rc = param(p, text, true, &whole);
		if (!rc)
			rl_buf_addf(sql, "(t.name_fold = ?%d AND t.qual_fold = ?%d)"
			            " OR (t.name_fold = ?%d AND t.qual_fold = '')",
			            i, j, whole);
	} else if (!rc) {
		rl_buf_addf(sql, "t.name_fold = ?%d", i);
	}
	rl_tag_clear(&tag);
	return rc;
}

/* --tag T: rulings with T, or (unless the query says not to) with any term
 * the thesaurus gives as T's equivalent. */
/* Links a tag needs to be walked to rather than listed (see below). */
enum { DENSE_TAG = 2000 };

static int tag_filter(rl_db *db, struct rl_buf *sql, struct params *p,
                      const struct rl_query *q, const char *text, bool by_id)
{
	char **syn = NULL;
	size_t nsyn = 0;
	if (!q->no_thesaurus) {
		int rc = rl_synonyms(db, text, q->game, &syn, &nsyn);
		if (rc)
			return rc;
	}
	/* The tag's links: the tag (or its equivalents) in tags t. */
	struct rl_buf cond = {0};
	struct params cp = {0};
	rl_buf_adds(&cond, "(");
	int rc = tag_condition(&cond, &cp, text);
	for (size_t k = 0; k < nsyn && !rc; k++) {
		rl_buf_adds(&cond, ") OR (");
		rc = tag_condition(&cond, &cp, syn[k]);
	}
	rl_buf_adds(&cond, ")");
	if (!rc && cond.oom)
		rc = RL_ENOMEM;
	/* A query that lists rulings by id stops at its limit: for a tag with
	 * many rulings, walking rulings in id order and checking each one's
	 * links finds them at once, where listing every tagged ruling first
	 * cost 70 ms for a tag on 113,000 of 1M rulings; for a rare tag that
	 * walk would visit every ruling, so the list it is. */
	bool dense = false;
	if (!rc && by_id) {
		struct rl_buf probe = {0};
		rl_buf_addf(&probe, "SELECT count(*) FROM (SELECT 1 FROM ruling_tags rt"
		            " JOIN tags t ON t.id = rt.tag_id WHERE %s LIMIT %d)",
		            cond.s, DENSE_TAG);
		char *ps = rl_buf_take(&probe);
		sqlite3_stmt *st = ps ? rl_db_prepare(db, ps) : NULL;
		free(ps);
		if (!st) {
			rc = ps ? RL_EINTERNAL : RL_ENOMEM;
		} else {
			for (int i = 0; i < cp.n; i++)
				rl_bind_text(st, i + 1, cp.v[i]);
			int s = sqlite3_step(st);
			if (s == SQLITE_ROW)
				dense = sqlite3_column_int(st, 0) >= DENSE_TAG;
			else
				rc = step_error(db, s);
			sqlite3_finalize(st);
		}
	}
	params_free(&cp);
	rl_buf_free(&cond);
	if (rc) {
		rl_strings_free(syn, nsyn);
		return rc;
	}
	rl_buf_adds(sql, dense ? " AND EXISTS (SELECT 1 FROM ruling_tags rt"
	            " JOIN tags t ON t.id = rt.tag_id WHERE rt.ruling_id = r.id AND ("
	            : " AND r.id IN (SELECT rt.ruling_id FROM ruling_tags rt"
	            " JOIN tags t ON t.id = rt.tag_id WHERE (");
	rc = tag_condition(sql, p, text);
	for (size_t k = 0; k < nsyn && !rc; k++) {
		rl_buf_adds(sql, ") OR (");
		rc = tag_condition(sql, p, syn[k]);
	}
	rl_buf_adds(sql, "))");
	rl_strings_free(syn, nsyn);
	return rc;
}

/* by_id: the query lists rulings by id, up to a limit, and counts no
 * total (which would walk every ruling). */
static int add_filters(rl_db *db, struct rl_buf *sql, struct params *p,
                       const struct rl_query *q, bool by_id)
{
	int rc = RL_OK, i;
	for (size_t t = 0; t < q->ntags && !rc; t++)
		rc = tag_filter(db, sql, p, q, q->tags[t], by_id);
	if (!rc && q->category && !(rc = param(p, q->category, true, &i)))
		rl_buf_addf(sql, " AND rl_fold(r.category) = ?%d", i);
	if (!rc && q->kind && !(rc = param(p, q->kind, false, &i)))
		rl_buf_addf(sql, " AND r.kind = ?%d", i);
	if (!rc && q->lang && strcmp(q->lang, "any") != 0 &&
	    !(rc = param(p, q->lang, true, &i)))
		rl_buf_addf(sql, " AND r.lang = ?%d", i);
	if (!rc && q->game && !(rc = param(p, q->game, true, &i)))
		rl_buf_addf(sql, " AND rl_fold(g.name) = ?%d", i);
	if (!rc && q->changed_only)
		rl_buf_adds(sql, " AND r.changed = 1");
	if (!rc && !q->include_withdrawn && !q->as_of)
		rl_buf_adds(sql, " AND r.withdrawn_at IS NULL");
	return rc;
}

int rl_query_filters(rl_db *db, struct rl_buf *sql, const struct rl_query *q,
                     const char ***values, char ***owned, int *n)
{
	struct params p = {0};
	int rc = add_filters(db, sql, &p, q, false);
	*values = p.v;
	*owned = p.owned;
	*n = p.n;
	return rc;
}

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

static int search_in(rl_db *db, const struct rl_query *q,
                     struct rl_results *out)
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
	struct params p = {0};
	int mi = 0;
	if (match) {
		rc = param(&p, match, false, &mi);
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
		rc = add_filters(db, &where, &p, q,
		                 !match && q->limit > 0 && q->no_total);
	struct rl_buf sql = {0};
	/* with words: the ranked rows first (top), then their snippets */
	if (match)
		rl_buf_adds(&sql, "WITH top AS MATERIALIZED (");
	rl_buf_addf(&sql, "SELECT %s, %s FROM %s%s",
	            q->as_of ? asof_cols : ruling_cols,
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
				rc = step_error(db, s);
			break;
		}
		if (!rl_grow(&out->v, &cap, out->n + 1, sizeof *out->v)) {
			rc = RL_ENOMEM;
			break;
		}
		struct rl_ruling *r = &out->v[out->n++];
		*r = (struct rl_ruling){0};
		fill_base(st, r, &oom);
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
			rc = step_error(db, s);
	}
	sqlite3_finalize(cst);
	struct details ds = {0};
	if (!rc && out->n)
		rc = details_prepare(db, &ds);
	for (size_t i = 0; i < out->n && !rc; i++)
		rc = fill_details(db, &ds, &out->v[i]);
	details_finalize(&ds);
	params_free(&p);
	free(text);
	free(count_text);
	free(match);
	if (rc) {
		rl_results_free(out);
		return rc;
	}
	return out->n ? RL_OK : RL_NOTFOUND;
}

int rl_search(rl_db *db, const struct rl_query *q, struct rl_results *out)
{
	*out = (struct rl_results){0};
	int rc = rl_read_begin(db);
	return rc ? rc : rl_read_end(db, search_in(db, q, out));
}

void rl_ruling_clear(struct rl_ruling *r)
{
	if (!r)
		return;
	free(r->kind); free(r->game); free(r->lang); free(r->title);
	free(r->text); free(r->rule); free(r->category); free(r->section);
	free(r->date); free(r->author); free(r->withdrawn_at);
	free(r->snippet);
	for (size_t i = 0; i < r->ntags; i++)
		free(r->tags[i]);
	free(r->tags);
	for (size_t i = 0; i < r->nsources; i++) {
		free(r->sources[i].document);
		free(r->sources[i].path);
		free(r->sources[i].date);
	}
	free(r->sources);
	if (r->errata) {
		free(r->errata->product); free(r->errata->printing);
		free(r->errata->document); free(r->errata->page);
		free(r->errata);
	}
	struct rl_ref_out *lists[2] = { r->refs, r->backlinks };
	size_t counts[2] = { r->nrefs, r->nbacklinks };
	for (int l = 0; l < 2; l++) {
		for (size_t i = 0; i < counts[l]; i++) {
			free(lists[l][i].kind); free(lists[l][i].target);
			free(lists[l][i].target_rule); free(lists[l][i].target_title);
		}
		free(lists[l]);
	}
	*r = (struct rl_ruling){0};
}

void rl_results_free(struct rl_results *res)
{
	if (!res)
		return;
	for (size_t i = 0; i < res->n; i++)
		rl_ruling_clear(&res->v[i]);
	free(res->v);
	*res = (struct rl_results){0};
}

/* Reads rows of (kind, target, id, rule, title) into a list. */
static int read_links(rl_db *db, const char *sql, long long id,
                      struct rl_ref_out **v, size_t *n)
{
	sqlite3_stmt *st = rl_db_prepare(db, sql);
	if (!st)
		return RL_EINTERNAL;
	sqlite3_bind_int64(st, 1, id);
	size_t cap = 0;
	bool oom = false;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && !oom) {
		if (!rl_grow(v, &cap, *n + 1, sizeof **v)) {
			oom = true;
			break;
		}
		struct rl_ref_out *o = &(*v)[(*n)++];
		o->kind = rl_column_dup(st, 0, &oom);
		o->target = rl_column_dup(st, 1, &oom);
		o->target_id = sqlite3_column_int64(st, 2);
		o->target_rule = rl_column_dup(st, 3, &oom);
		o->target_title = rl_column_dup(st, 4, &oom);
	}
	sqlite3_finalize(st);
	if (oom)
		return RL_ENOMEM;
	return rc == SQLITE_DONE ? RL_OK : step_error(db, rc);
}

static int show_in(rl_db *db, long long id, struct rl_ruling *out)
{
	*out = (struct rl_ruling){0};
	struct rl_buf sql = {0};
	rl_buf_addf(&sql, "SELECT %s FROM rulings r LEFT JOIN games g"
	            " ON g.id = r.game_id WHERE r.id = ?1", ruling_cols);
	char *text = rl_buf_take(&sql);
	if (!text)
		return RL_ENOMEM;
	sqlite3_stmt *st = rl_db_prepare(db, text);
	free(text);
	if (!st)
		return RL_EINTERNAL;
	sqlite3_bind_int64(st, 1, id);
	int s = sqlite3_step(st);
	bool oom = false;
	if (s == SQLITE_ROW)
		fill_base(st, out, &oom);
	sqlite3_finalize(st);
	if (s == SQLITE_DONE)
		return rl_db_fail(db, RL_NOTFOUND, "no ruling with id %lld", id);
	int rc = s != SQLITE_ROW ? step_error(db, s) : oom ? RL_ENOMEM : RL_OK;
	struct details ds = {0};
	if (!rc)
		rc = details_prepare(db, &ds);
	if (!rc)
		rc = fill_details(db, &ds, out);
	details_finalize(&ds);
	if (!rc)
		rc = read_links(db,
			"SELECT f.kind, f.target, ifnull(f.target_id, 0), t.rule, t.title"
			" FROM refs f LEFT JOIN rulings t ON t.id = f.target_id"
			" WHERE f.ruling_id = ?1 ORDER BY f.id",
			id, &out->refs, &out->nrefs);
	if (!rc)
		rc = read_links(db,
			"SELECT s.kind, f.kind, s.id, s.rule, s.title"
			" FROM refs f JOIN rulings s ON s.id = f.ruling_id"
			" WHERE f.target_id = ?1 AND s.withdrawn_at IS NULL"
			" GROUP BY s.id ORDER BY s.id",
			id, &out->backlinks, &out->nbacklinks);
	if (rc)
		rl_ruling_clear(out);
	return rc;
}

int rl_show(rl_db *db, long long id, struct rl_ruling *out)
{
	*out = (struct rl_ruling){0};
	int rc = rl_read_begin(db);
	return rc ? rc : rl_read_end(db, show_in(db, id, out));
}

static int find_rule_in(rl_db *db, const char *rule, const char *game,
                        long long **ids, char ***games, size_t *n)
{
	*ids = NULL;
	*games = NULL;
	*n = 0;
	/* one current ruling per game: the most recently stored (the highest
	 * id); withdrawn ones are reached by their ID */
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT max(r.id), g.name FROM rulings r"
		" LEFT JOIN games g ON g.id = r.game_id"
		" WHERE r.rule = ?1 AND r.withdrawn_at IS NULL"
		" AND (?2 IS NULL OR rl_fold(g.name) = rl_fold(?2))"
		" GROUP BY ifnull(r.game_id, 0) ORDER BY g.name");
	if (!st)
		return RL_EINTERNAL;
	rl_bind_text(st, 1, rule);
	rl_bind_text(st, 2, game);
	size_t cap = 0, gcap = 0;
	bool oom = false;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!rl_grow(ids, &cap, *n + 1, sizeof **ids) ||
		    !rl_grow(games, &gcap, *n + 1, sizeof **games)) {
			oom = true;
			break;
		}
		(*ids)[*n] = sqlite3_column_int64(st, 0);
		(*games)[(*n)++] = rl_column_dup(st, 1, &oom);
	}
	sqlite3_finalize(st);
	if (oom || (rc != SQLITE_DONE && rc != SQLITE_ROW)) {
		free(*ids);
		rl_strings_free(*games, *n);
		*ids = NULL;
		*games = NULL;
		*n = 0;
		return oom ? RL_ENOMEM : step_error(db, rc);
	}
	return *n ? RL_OK : RL_NOTFOUND;
}

int rl_find_rule(rl_db *db, const char *rule, const char *game,
                 long long **ids, char ***games, size_t *n)
{
	*ids = NULL;
	*games = NULL;
	*n = 0;
	int rc = rl_read_begin(db);
	return rc ? rc : rl_read_end(db, find_rule_in(db, rule, game, ids, games, n));
}

static int tags_in(rl_db *db, struct rl_tag_count **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT t.name, t.qualifier, count(DISTINCT rt.ruling_id)"
		" FROM tags t JOIN ruling_tags rt ON rt.tag_id = t.id"
		" JOIN rulings r ON r.id = rt.ruling_id AND r.withdrawn_at IS NULL"
		" GROUP BY t.id ORDER BY t.name_fold, t.qual_fold");
	if (!st)
		return RL_EINTERNAL;
	size_t cap = 0;
	int rc;
	bool oom = false;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!rl_grow(out, &cap, *n + 1, sizeof **out)) {
			oom = true;
			break;
		}
		struct rl_tag_count *t = &(*out)[(*n)++];
		t->name = rl_tag_display((const char *)sqlite3_column_text(st, 0),
		                         (const char *)sqlite3_column_text(st, 1));
		t->count = sqlite3_column_int64(st, 2);
		if (!t->name) {
			oom = true;
			break;
		}
	}
	sqlite3_finalize(st);
	if (oom || (rc != SQLITE_DONE && rc != SQLITE_ROW)) {
		rl_tags_free(*out, *n);
		*out = NULL;
		*n = 0;
		return oom ? RL_ENOMEM : step_error(db, rc);
	}
	return *n ? RL_OK : RL_NOTFOUND;
}

int rl_tags(rl_db *db, struct rl_tag_count **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	int rc = rl_read_begin(db);
	return rc ? rc : rl_read_end(db, tags_in(db, out, n));
}

void rl_tags_free(struct rl_tag_count *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

static int counts(rl_db *db, const char *sql, struct rl_count **v, size_t *n)
{
	sqlite3_stmt *st = rl_db_prepare(db, sql);
	if (!st)
		return RL_EINTERNAL;
	size_t cap = 0;
	int rc;
	bool oom = false;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!rl_grow(v, &cap, *n + 1, sizeof **v)) {
			oom = true;
			break;
		}
		(*v)[*n].key = rl_column_dup(st, 0, &oom);
		(*v)[(*n)++].count = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (oom)
		return RL_ENOMEM;
	return rc == SQLITE_DONE ? RL_OK : step_error(db, rc);
}

static int scalar(rl_db *db, const char *sql, long long *v)
{
	sqlite3_stmt *st = rl_db_prepare(db, sql);
	if (!st)
		return RL_EINTERNAL;
	int rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? RL_OK : step_error(db, rc);
}

static int stats_in(rl_db *db, struct rl_stats *s)
{
	*s = (struct rl_stats){0};
	int rc = scalar(db, "SELECT count(*) FROM rulings WHERE withdrawn_at IS NULL",
	                &s->rulings);
	if (!rc)
		rc = scalar(db, "SELECT count(*) FROM rulings"
		            " WHERE withdrawn_at IS NOT NULL", &s->withdrawn);
	if (!rc)
		rc = scalar(db, "SELECT count(DISTINCT rt.tag_id) FROM ruling_tags rt"
		            " JOIN rulings r ON r.id = rt.ruling_id"
		            " WHERE r.withdrawn_at IS NULL", &s->tags);
	if (!rc)
		rc = scalar(db, "SELECT count(*) FROM documents", &s->sources);
	if (!rc)
		rc = scalar(db, "SELECT count(*) FROM imports", &s->imports);
	if (!rc)
		rc = scalar(db, "SELECT count(*) FROM games", &s->games);
	if (!rc)
		rc = counts(db, "SELECT lang, count(*) FROM rulings"
		            " WHERE withdrawn_at IS NULL GROUP BY lang"
		            " ORDER BY lang", &s->languages, &s->nlanguages);
	if (!rc)
		rc = counts(db, "SELECT kind, count(*) FROM rulings"
		            " WHERE withdrawn_at IS NULL GROUP BY kind"
		            " ORDER BY kind", &s->kinds, &s->nkinds);
	if (rc)
		rl_stats_clear(s);
	return rc;
}

int rl_stats(rl_db *db, struct rl_stats *s)
{
	*s = (struct rl_stats){0};
	int rc = rl_read_begin(db);
	return rc ? rc : rl_read_end(db, stats_in(db, s));
}

void rl_stats_clear(struct rl_stats *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nlanguages; i++)
		free(s->languages[i].key);
	for (size_t i = 0; i < s->nkinds; i++)
		free(s->kinds[i].key);
	free(s->languages);
	free(s->kinds);
	*s = (struct rl_stats){0};
}

static int xrefs_in(rl_db *db, bool dangling_only, const char *kind,
                    struct rl_xref **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	/* Page numbers and discussions point outside the database: they are
	 * never "dangling". */
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT f.ruling_id, s.title, s.rule, f.kind, f.target,"
		" ifnull(f.target_id, 0), i.path, src.line"
		" FROM refs f JOIN rulings s ON s.id = f.ruling_id"
		" LEFT JOIN ruling_sources src ON src.ruling_id = s.id"
		"   AND src.document_id = (SELECT min(document_id) FROM ruling_sources"
		"     WHERE ruling_id = s.id)"
		" LEFT JOIN imports i ON i.id = src.import_id"
		" WHERE s.withdrawn_at IS NULL AND (?1 = 0 OR (f.target_id IS NULL"
		"   AND f.kind IN ('rule', 'ruling', 'term')))"
		" AND (?2 IS NULL OR f.kind = ?2)"
		" ORDER BY f.ruling_id, f.id");
	if (!st)
		return RL_EINTERNAL;
	sqlite3_bind_int(st, 1, dangling_only);
	rl_bind_text(st, 2, kind);
	size_t cap = 0;
	bool oom = false;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!rl_grow(out, &cap, *n + 1, sizeof **out)) {
			oom = true;
			break;
		}
		struct rl_xref *x = &(*out)[(*n)++];
		x->from_id = sqlite3_column_int64(st, 0);
		x->from_title = rl_column_dup(st, 1, &oom);
		x->from_rule = rl_column_dup(st, 2, &oom);
		x->kind = rl_column_dup(st, 3, &oom);
		x->target = rl_column_dup(st, 4, &oom);
		x->target_id = sqlite3_column_int64(st, 5);
		x->path = rl_column_dup(st, 6, &oom);
		x->line = (unsigned)sqlite3_column_int(st, 7);
	}
	sqlite3_finalize(st);
	if (oom || (rc != SQLITE_DONE && rc != SQLITE_ROW)) {
		rl_xrefs_free(*out, *n);
		*out = NULL;
		*n = 0;
		return oom ? RL_ENOMEM : step_error(db, rc);
	}
	return *n ? RL_OK : RL_NOTFOUND;
}

int rl_xrefs(rl_db *db, bool dangling_only, const char *kind,
             struct rl_xref **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	int rc = rl_read_begin(db);
	return rc ? rc : rl_read_end(db, xrefs_in(db, dangling_only, kind, out, n));
}

void rl_xrefs_free(struct rl_xref *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].from_title);
		free(v[i].from_rule);
		free(v[i].kind);
		free(v[i].target);
		free(v[i].path);
	}
	free(v);
}
