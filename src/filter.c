/* filter.c — what filters a search: the fields of the query language
 * (tag:, game:, lang:, kind:, rule:, is:) and the options (--tag, --game,
 * ...), as SQL conditions over rulings r; the thesaurus for tags; and
 * "did you mean" for names the database does not know.
 *
 * Every value from the user is a bound parameter; the SQL text is
 * assembled only from fixed fragments. Lists that grow with the input (a
 * tag's equivalents, many --tag options) become IN lists or balanced
 * groups, never a chain SQLite would refuse as "Expression tree is too
 * large". */
#include "doc.h"
#include "qparse.h"
#include "query.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* s with its last byte one more: every string that starts with s sorts
 * at or after s and before this (UTF-8 never holds 0xFF). */
static char *upper_bound(const char *s)
{
	char *u = rl_strdup(s);
	size_t n = u ? strlen(u) : 0;
	if (n)
		u[n - 1] = (char)((unsigned char)u[n - 1] + 1);
	return u;
}

static int one_row(rl_db *db, const char *sql, const struct rl_params *p,
                   bool *found)
{
	sqlite3_stmt *st = rl_db_prepare(db, sql);
	if (!st)
		return RL_EINTERNAL;
	for (int i = 0; i < p->n; i++)
		rl_bind_text(st, i + 1, p->v[i]);
	int s = sqlite3_step(st);
	*found = s == SQLITE_ROW;
	sqlite3_finalize(st);
	return s == SQLITE_ROW || s == SQLITE_DONE ? RL_OK : rl_step_error(db, s);
}

/* ---- the thesaurus ------------------------------------------------------- */

static int push(char ***v, size_t *n, size_t *cap, char *s)
{
	if (!s || !rl_grow(v, cap, *n + 2, sizeof **v)) {
		free(s);
		return RL_ENOMEM;
	}
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
	return RL_OK;
}

int rl_thesaurus_terms(struct rl_filter_ctx *f, const char *term,
                       char ***all, char ***terms, char ***games)
{
	*all = *terms = *games = NULL;
	if (f->no_thesaurus)
		return RL_OK;
	if (!f->syn && !(f->syn = rl_db_prepare(f->db,
		"SELECT DISTINCT o.term, g.name FROM concept_terms t"
		" JOIN concept_terms o ON o.concept_id = t.concept_id"
		" JOIN concepts c ON c.id = t.concept_id"
		" LEFT JOIN games g ON g.id = c.game_id"
		" WHERE t.term_fold = ?1 AND o.term_fold <> ?1"
		" ORDER BY g.name IS NOT NULL, g.name, o.term")))
		return RL_EINTERNAL;
	char *key = rl_key_loose(term);
	char *scope = f->scope ? rl_fold(f->scope) : NULL;
	if (!key || (f->scope && !scope)) {
		free(key);
		free(scope);
		return RL_ENOMEM;
	}
	sqlite3_stmt *st = f->syn;
	rl_bind_text(st, 1, key);
	size_t na = 0, ca = 0, nt = 0, ct = 0, ng = 0, cg = 0;
	int rc = RL_OK, s;
	while (!rc && (s = sqlite3_step(st)) == SQLITE_ROW) {
		const char *o = (const char *)sqlite3_column_text(st, 0);
		const char *g = (const char *)sqlite3_column_text(st, 1);
		char *gf = g ? rl_fold(g) : NULL;
		if (g && !gf) {
			rc = RL_ENOMEM;
			break;
		}
		bool everywhere = !g || (scope && strcmp(gf, scope) == 0);
		free(gf);
		if (everywhere)
			rc = push(all, &na, &ca, rl_strdup(o));
		else if (!scope) {
			rc = push(terms, &nt, &ct, rl_strdup(o));
			if (!rc)
				rc = push(games, &ng, &cg, rl_strdup(g));
		}
	}
	if (!rc && s != SQLITE_DONE)
		rc = rl_step_error(f->db, s);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	free(key);
	free(scope);
	if (rc) {
		rl_strings_free(*all, na);
		rl_strings_free(*terms, nt);
		rl_strings_free(*games, ng);
		*all = *terms = *games = NULL;
	}
	return rc;
}

/* ---- tags --------------------------------------------------------------------- */

/* The tags texts[0..n) name, as a condition on tags t: a name alone
 * matches every qualifier; "Name (Qualifier)" that one, or a tag named
 * the whole text. With prefix, texts[0] is the start of a tag as written
 * ("Repea", "Speed (Fa"). */
static int tag_names(struct rl_buf *b, struct rl_params *p, char *const *texts,
                     size_t n, bool prefix)
{
	int rc = RL_OK, i, j;
	if (prefix) {
		char *f = rl_fold(texts[0]);
		if (!f)
			return RL_ENOMEM;
		const char *open = strstr(f, " (");
		char *name = open ? rl_strndup(f, (size_t)(open - f)) : NULL;
		const char *from = open ? open + 2 : f;
		char *lo = rl_strdup(from), *hi = upper_bound(from);
		free(f);
		int n1 = 0, n2 = 0, n3 = 0;
		if (!lo || !hi || (open && !name)) {
			free(lo); free(hi); free(name);
			return RL_ENOMEM;
		}
		if (name && (rc = rl_param_own(p, name, &n3))) {
			free(lo); free(hi);
			return rc;
		}
		if ((rc = rl_param_own(p, lo, &n1))) {
			free(hi);
			return rc;
		}
		if ((rc = rl_param_own(p, hi, &n2)))
			return rc;
		if (open)
			rl_buf_addf(b, "(t.name_fold = ?%d AND t.qual_fold >= ?%d AND"
			            " t.qual_fold < ?%d)", n3, n1, n2);
		else
			rl_buf_addf(b, "(t.name_fold >= ?%d AND t.name_fold < ?%d)",
			            n1, n2);
		return RL_OK;
	}
	struct rl_buf names = {0}, pairs = {0};
	for (size_t k = 0; k < n && !rc; k++) {
		struct rl_tag tag;
		rc = rl_tag_parse(texts[k], &tag);
		if (rc == RL_EDATA) {       /* an empty tag names nothing */
			rc = RL_OK;
			continue;
		}
		if (rc)
			break;
		rc = rl_param(p, tag.name, true, &i);
		if (!rc && !tag.qualifier) {
			rl_buf_addf(&names, "%s?%d", names.len ? ", " : "", i);
		} else if (!rc && !(rc = rl_param(p, tag.qualifier, true, &j))) {
			rl_buf_addf(&pairs, "%s(?%d, ?%d)", pairs.len ? ", " : "", i, j);
			/* "A (B)" may also be a tag named so, with no qualifier */
			if (!(rc = rl_param(p, texts[k], true, &i)))
				rl_buf_addf(&pairs, ", (?%d, '')", i);
		}
		rl_tag_clear(&tag);
	}
	if (!rc) {
		rl_buf_addc(b, '(');
		if (names.len)
			rl_buf_addf(b, "t.name_fold IN (%s)", names.s);
		if (names.len && pairs.len)
			rl_buf_adds(b, " OR ");
		if (pairs.len)
			rl_buf_addf(b, "(t.name_fold, t.qual_fold) IN (VALUES %s)",
			            pairs.s);
		if (!names.len && !pairs.len)
			rl_buf_adds(b, "0");
		rl_buf_addc(b, ')');
	}
	rl_buf_free(&names);
	rl_buf_free(&pairs);
	return rc;
}

/* Links a tag needs to be walked to rather than listed (see tag_cond()). */
enum { DENSE_TAG = 2000 };

static const char tags_sql[] =
	"SELECT DISTINCT CASE WHEN qualifier = '' THEN name"
	" ELSE name || ' (' || qualifier || ')' END FROM tags ORDER BY 1";

/* Whether tags t hold any of mine (or terms). */
static int tag_known(struct rl_filter_ctx *f, char *const *mine, size_t nmine,
                     char *const *terms, size_t nterms, bool prefix,
                     bool *found)
{
	struct rl_buf chk = {0};
	struct rl_params cp = {0};
	rl_buf_adds(&chk, "SELECT 1 FROM tags t WHERE ");
	int rc = tag_names(&chk, &cp, mine, nmine, prefix);
	if (!rc && nterms) {
		rl_buf_adds(&chk, " OR ");
		rc = tag_names(&chk, &cp, terms, nterms, false);
	}
	rl_buf_adds(&chk, " LIMIT 1");
	if (!rc && chk.oom)
		rc = RL_ENOMEM;
	if (!rc)
		rc = one_row(f->db, chk.s, &cp, found);
	rl_buf_free(&chk);
	rl_params_free(&cp);
	return rc;
}

/* "none" names the rulings of no game (documents of databases made before
 * every import had to name its game). */
static bool is_none(const char *name)
{
	return strcasecmp(name, "none") == 0;
}

static int game_known(struct rl_filter_ctx *f, const char *name, bool *found)
{
	if (is_none(name)) {
		*found = true;
		return RL_OK;
	}
	struct rl_params cp = {0};
	int k, rc = rl_param(&cp, name, true, &k);
	if (!rc)
		rc = one_row(f->db, "SELECT 1 FROM (" RL_GAMES_HELD ") WHERE "
		             "rl_fold(name) = ?1", &cp, found);
	rl_params_free(&cp);
	return rc;
}

int rl_game_check(rl_db *db, const char *name)
{
	struct rl_compiled c = {0};
	struct rl_filter_ctx f = { .db = db, .c = &c, .check = true };
	bool found;
	int rc = game_known(&f, name, &found);
	if (!rc && !found && (rc = rl_unknown_name(&f, "game", name,
	        RL_GAMES_HELD " ORDER BY name", NULL)) == RL_NOTFOUND)
		rl_db_fail(db, RL_NOTFOUND, "%s", c.unknown);
	rl_compiled_free(&c);
	return rc;
}

int rl_document_check(rl_db *db, const char *title)
{
	struct rl_compiled c = {0};
	struct rl_filter_ctx f = { .db = db, .c = &c, .check = true };
	struct rl_params cp = {0};
	bool found = false;
	int k, rc = rl_param(&cp, title, true, &k);
	if (!rc)
		rc = one_row(db, "SELECT 1 FROM documents WHERE rl_fold(title) = ?1",
		             &cp, &found);
	rl_params_free(&cp);
	if (!rc && !found && (rc = rl_unknown_name(&f, "document", title,
	        "SELECT title FROM documents ORDER BY title", NULL)) == RL_NOTFOUND)
		rl_db_fail(db, RL_NOTFOUND, "%s", c.unknown);
	rl_compiled_free(&c);
	return rc;
}

int rl_filters_check(rl_db *db, const struct rl_query *q)
{
	int rc = rl_read_begin(db);
	if (rc)
		return rc;
	struct rl_buf sql = {0};
	const char **vals = NULL;
	char **owned = NULL;
	int n = 0;
	rc = rl_query_filters(db, &sql, q, true, &vals, &owned, &n);
	rl_buf_free(&sql);
	for (int i = 0; i < n; i++)
		free(owned[i]);
	free(owned);
	free(vals);
	return rl_read_end(db, rc);
}

/* A tag and its equivalents in the thesaurus: mine = the tag then the
 * equivalents that hold everywhere (nall + 1 names; mine[0] is the
 * caller's text, not owned), terms[k] those of game games[k] only. */
struct tag_equiv {
	char **all, **terms, **games, **mine;
	size_t nall, nterms;
};

static int tag_equiv(struct rl_filter_ctx *f, const char *text, bool prefix,
                     struct tag_equiv *e)
{
	*e = (struct tag_equiv){ 0 };
	int rc = prefix ? RL_OK
	         : rl_thesaurus_terms(f, text, &e->all, &e->terms, &e->games);
	while (e->all && e->all[e->nall])
		e->nall++;
	while (e->terms && e->terms[e->nterms])
		e->nterms++;
	if (!rc && !(e->mine = malloc((e->nall + 1) * sizeof *e->mine)))
		rc = RL_ENOMEM;
	if (!rc) {
		e->mine[0] = (char *)text;
		for (size_t k = 0; k < e->nall; k++)
			e->mine[k + 1] = e->all[k];
	}
	return rc;
}

static void tag_equiv_free(struct tag_equiv *e)
{
	free(e->mine);
	rl_strings_free(e->all, e->nall);
	rl_strings_free(e->terms, e->nterms);
	rl_strings_free(e->games, e->nterms);
}

/* Whether s holds a blank (ASCII or Unicode): never in a value of lang:,
 * kind:, rule: or is:, which are one word each. */
static bool has_blank(const char *s)
{
	for (; *s; s++)
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' ||
		    rl_blank_len(s))
			return true;
	return false;
}

int rl_field_known(struct rl_filter_ctx *f, const struct qnode *n, bool *found)
{
	*found = true;
	if (n->field == QF_GAME)
		return game_known(f, n->text, found);
	if (n->field != QF_TAG) {
		/* 'lang:en ward' in one argument is lang:en and ward */
		*found = !has_blank(n->text);
		return RL_OK;
	}
	struct tag_equiv e;
	int rc = tag_equiv(f, n->text, n->prefix, &e);
	if (!rc)
		rc = tag_known(f, e.mine, e.nall + 1, e.terms, e.nterms, n->prefix,
		               found);
	tag_equiv_free(&e);
	return rc;
}

/* The rulings with the tags a condition on tags t (%s) names. */
#define TAG_IDS "SELECT rt.ruling_id FROM ruling_tags rt WHERE rt.tag_id IN" \
                " (SELECT t.id FROM tags t WHERE %s)"

/* tag:T or --tag T: the rulings with T, or with an equivalent the
 * thesaurus gives (those of a game's concept for that game's rulings
 * only, unless the search is within that game). Without equivalents of
 * a game, listed (not walked: dense), it is RL_COND_TAGS. */
static int tag_cond(struct rl_filter_ctx *f, const char *text, bool prefix,
                    bool dense_ok, struct rl_cond *out)
{
	/* the tag and the equivalents that hold everywhere */
	struct tag_equiv eq;
	int rc = tag_equiv(f, text, prefix, &eq);
	char **mine = eq.mine, **terms = eq.terms, **games = eq.games;
	size_t nall = eq.nall, nterms = eq.nterms;
	/* known? (the tag or any equivalent) */
	bool found = true;
	if (!rc && f->check) {
		rc = tag_known(f, mine, nall + 1, terms, nterms, prefix, &found);
		if (!rc && !found)
			rc = rl_unknown_name(f, "tag", text, tags_sql, NULL);
	}
	struct rl_buf p0 = {0}, b = {0};
	if (!rc)
		rc = tag_names(&p0, &f->c->p, mine, nall + 1, prefix);
	/* A query that lists rulings by id stops at its limit: for a tag with
	 * many rulings, walking rulings in id order and checking each one's
	 * links finds them at once, where listing every tagged ruling first
	 * cost 70 ms for a tag on 113,000 of 1M rulings; for a rare tag that
	 * walk would visit every ruling, so the list it is. Counting them all
	 * lists them. */
	bool dense = false;
	if (!rc && dense_ok && f->by_id && !nterms && !p0.oom) {
		struct rl_buf probe = {0};
		rl_buf_addf(&probe, "SELECT 1 FROM ruling_tags rt WHERE rt.tag_id IN"
		            " (SELECT t.id FROM tags t WHERE %s) LIMIT 1 OFFSET %d",
		            p0.s, DENSE_TAG - 1);
		if (probe.oom)
			rc = RL_ENOMEM;
		else
			rc = one_row(f->db, probe.s, &f->c->p, &dense);
		rl_buf_free(&probe);
	}
	static const char list[] = "r.id IN (" TAG_IDS ")";
	if (!rc && dense) {
		rl_buf_addf(&b, "EXISTS (SELECT 1 FROM ruling_tags rt WHERE"
		            " rt.ruling_id = r.id AND rt.tag_id IN (SELECT t.id FROM"
		            " tags t WHERE %s))", p0.s);
		struct rl_buf c = {0};
		rl_buf_addf(&c, list, p0.s);
		if (!(out->count = rl_buf_take(&c)))
			rc = RL_ENOMEM;
	} else if (!rc && !nterms) {
		struct rl_buf ids = {0};
		rl_buf_addf(&ids, TAG_IDS, p0.s);
		if (!(out->ids = rl_buf_take(&ids)))
			rc = RL_ENOMEM;
		else
			rl_buf_addf(&b, "r.id IN (%s)", out->ids);
		out->kind = RL_COND_TAGS;
	} else if (!rc) {
		rl_buf_addc(&b, '(');
		rl_buf_addf(&b, list, p0.s);
		/* each game's equivalents, for that game's rulings */
		for (size_t k = 0; k < nterms && !rc; ) {
			size_t e = k;
			while (e < nterms && strcmp(games[e], games[k]) == 0)
				e++;
			int gi;
			struct rl_buf pg = {0};
			rc = rl_param(&f->c->p, games[k], true, &gi);
			if (!rc)
				rc = tag_names(&pg, &f->c->p, terms + k, e - k, false);
			if (!rc) {
				rl_buf_addf(&b, " OR (r.game_id IN (SELECT id FROM games"
				            " WHERE rl_fold(name) = ?%d) AND ", gi);
				rl_buf_addf(&b, list, pg.s ? pg.s : "0");
				rl_buf_addc(&b, ')');
			}
			rl_buf_free(&pg);
			k = e;
		}
		rl_buf_addc(&b, ')');
	}
	if (!rc && (p0.oom || !(out->rows = rl_buf_take(&b))))
		rc = RL_ENOMEM;
	rl_buf_free(&p0);
	rl_buf_free(&b);
	tag_equiv_free(&eq);
	if (rc)
		rl_cond_free(out);
	return rc;
}

/* ---- the other fields --------------------------------------------------------- */

static int take(struct rl_buf *b, char **out)
{
	return (*out = rl_buf_take(b)) ? RL_OK : RL_ENOMEM;
}

static int game_cond(struct rl_filter_ctx *f, const char *name,
                     struct rl_cond *out)
{
	int i, rc = rl_param(&f->c->p, name, true, &i);
	if (!rc && f->check) {
		bool found;
		rc = game_known(f, name, &found);
		if (!rc && !found)
			rc = rl_unknown_name(f, "game", name, RL_GAMES_HELD
			             " ORDER BY name", NULL);
	}
	if (rc)
		return rc;
	struct rl_buf b = {0};
	if (is_none(name)) {
		rl_buf_adds(&b, "r.game_id IS NULL");
		out->kind = RL_COND_NO_GAME;
	} else {
		rl_buf_addf(&b, "r.game_id IN (SELECT id FROM games WHERE"
		            " rl_fold(name) = ?%d)", i);
		out->kind = RL_COND_GAME;
		out->param = i;
	}
	return take(&b, &out->rows);
}

static int lang_cond(struct rl_filter_ctx *f, const char *lang,
                     struct rl_cond *out)
{
	struct rl_buf b = {0};
	if (strcmp(lang, "any") == 0) {
		rl_buf_adds(&b, "1");
		out->kind = RL_COND_ANY;
		return take(&b, &out->rows);
	}
	int i, rc = rl_param(&f->c->p, lang, true, &i);
	if (!rc && f->check) {
		struct rl_params cp = {0};
		bool found;
		int k;
		rc = rl_param(&cp, lang, true, &k);
		/* the documents first: rulings have no index by language */
		if (!rc)
			rc = one_row(f->db, "SELECT 1 FROM documents WHERE lang = ?1"
			             " UNION ALL SELECT 1 FROM rulings WHERE lang = ?1"
			             " LIMIT 1", &cp, &found);
		rl_params_free(&cp);
		if (!rc && !found)
			rc = rl_unknown_name(f, "language", lang, "SELECT DISTINCT lang FROM"
			             " documents ORDER BY lang", NULL);
	}
	if (rc)
		return rc;
	rl_buf_addf(&b, "r.lang = ?%d", i);
	out->kind = RL_COND_LANG;
	out->param = i;
	return take(&b, &out->rows);
}

static int kind_cond(struct rl_filter_ctx *f, const char *kind,
                     struct rl_cond *out)
{
	enum rl_kind k;
	int i, rc = rl_param(&f->c->p, kind, true, &i);
	if (!rc && f->check && rl_kind_parse(f->c->p.v[i - 1], &k))
		rc = rl_unknown_name(f, "kind", kind, NULL, rl_kind_names);
	if (rc)
		return rc;
	struct rl_buf b = {0};
	rl_buf_addf(&b, "r.kind = ?%d", i);
	out->kind = RL_COND_KIND;
	out->param = i;
	return take(&b, &out->rows);
}

/* rule:702.19: the rule and every rule under it, 702.19a and so on (a
 * number that goes on with a letter or a dot); rule:7, a chapter: every
 * rule whose number starts with 7. */
static int rule_cond(struct rl_filter_ctx *f, const char *rule,
                     struct rl_cond *out)
{
	size_t n = strlen(rule);
	while (n > 1 && rule[n - 1] == '.')
		n--;
	char *x = rl_strndup(rule, n);
	char *hi = x ? upper_bound(x) : NULL;
	int i, j, rc = !x || !hi ? RL_ENOMEM : RL_OK;
	if (rc) {
		free(x);
		free(hi);
		return rc;
	}
	bool chapter = n == 1 && x[0] >= '0' && x[0] <= '9';
	if ((rc = rl_param_own(&f->c->p, x, &i))) {
		free(hi);
		return rc;
	}
	if ((rc = rl_param_own(&f->c->p, hi, &j)))
		return rc;
	struct rl_buf b = {0};
	if (chapter)
		rl_buf_addf(&b, "(r.rule >= ?%d AND r.rule < ?%d)", i, j);
	else
		rl_buf_addf(&b, "(r.rule = ?%d OR (r.rule > ?%d AND r.rule < ?%d AND"
		            " substr(r.rule, %zu, 1) NOT BETWEEN '0' AND '9'))",
		            i, i, j, n + 1);
	return take(&b, &out->rows);
}

static const char *const is_values[] = { "changed", "withdrawn", NULL };

static int is_cond(struct rl_filter_ctx *f, const char *v, struct rl_cond *out)
{
	char *fv = rl_fold(v);
	if (!fv)
		return RL_ENOMEM;
	struct rl_buf b = {0};
	int rc = RL_OK;
	if (strcmp(fv, "changed") == 0) {
		rl_buf_adds(&b, "r.changed = 1");
	} else if (strcmp(fv, "withdrawn") == 0) {
		rl_buf_adds(&b, "r.withdrawn_at IS NOT NULL");
		f->c->withdrawn = true;
	} else {
		rc = rl_unknown_name(f, "is:", v, NULL, is_values);
	}
	free(fv);
	return rc ? (rl_buf_free(&b), rc) : take(&b, &out->rows);
}

int rl_field_sql(struct rl_filter_ctx *f, const struct qnode *n, bool dense_ok,
                 struct rl_cond *out)
{
	*out = (struct rl_cond){0};
	switch (n->field) {
	case QF_TAG: return tag_cond(f, n->text, n->prefix, dense_ok, out);
	case QF_GAME: return game_cond(f, n->text, out);
	case QF_LANG: return lang_cond(f, n->text, out);
	case QF_KIND: return kind_cond(f, n->text, out);
	case QF_RULE: return rule_cond(f, n->text, out);
	case QF_IS: return is_cond(f, n->text, out);
	}
	return RL_EINTERNAL;
}

int rl_option_conds(struct rl_filter_ctx *f, const struct rl_query *q)
{
	int rc = RL_OK;
	struct rl_cond x = {0};
	for (size_t t = 0; t < q->ntags && !rc; t++) {
		x = (struct rl_cond){0};
		if (!(rc = tag_cond(f, q->tags[t], false, true, &x)))
			rc = rl_add_cond(f->c, x);
	}
	if (!rc && q->category) {
		int i;
		struct rl_buf b = {0};
		x = (struct rl_cond){0};
		if (!(rc = rl_param(&f->c->p, q->category, true, &i))) {
			rl_buf_addf(&b, "rl_fold(r.category) = ?%d", i);
			if (!(rc = take(&b, &x.rows)))
				rc = rl_add_cond(f->c, x);
		}
	}
	x = (struct rl_cond){0};
	if (!rc && q->kind && !(rc = kind_cond(f, q->kind, &x)))
		rc = rl_add_cond(f->c, x);
	x = (struct rl_cond){0};
	if (!rc && q->lang && strcmp(q->lang, "any") != 0 &&
	    !(rc = lang_cond(f, q->lang, &x)))
		rc = rl_add_cond(f->c, x);
	x = (struct rl_cond){0};
	if (!rc && q->game && !(rc = game_cond(f, q->game, &x)))
		rc = rl_add_cond(f->c, x);
	if (!rc && q->changed_only)
		rc = rl_add_cond(f->c, (struct rl_cond){
			.rows = rl_strdup("r.changed = 1") });
	return rc;
}

int rl_query_filters(rl_db *db, struct rl_buf *sql, const struct rl_query *q,
                     bool check, const char ***values, char ***owned, int *n)
{
	struct rl_query f = *q;
	f.words = NULL;
	f.nwords = 0;
	struct rl_compiled c;
	int rc = rl_compile_check(db, &f, false, check, &c);
	if (rc == RL_NOTFOUND && c.unknown)
		rl_db_fail(db, RL_NOTFOUND, "%s", c.unknown);
	if (!rc && c.nconds) {
		char **rows = malloc(c.nconds * sizeof *rows);
		if (!rows) {
			rc = RL_ENOMEM;
		} else {
			for (size_t i = 0; i < c.nconds; i++)
				rows[i] = c.conds[i].count ? c.conds[i].count
				                           : c.conds[i].rows;
			rl_buf_adds(sql, " AND ");
			rl_join_balanced(sql, rows, c.nconds, "AND");
			free(rows);
		}
	}
	*values = c.p.v;
	*owned = c.p.owned;
	*n = c.p.n;
	c.p = (struct rl_params){0};
	rl_compiled_free(&c);
	return rc;
}
