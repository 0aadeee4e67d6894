/* test_filter.c — what each filter's condition says it is (struct
 * rl_cond: its kind, its value's parameter, a tag's ids), recorded where
 * filter.c and qcompile.c make it: the fast paths of search.c read these
 * and not the SQL. Each form of each filter, as an option (filter.c) and
 * as a word of the query (qcompile.c). A caller that does not record
 * leaves RL_COND_OTHER, which these tests refuse where a kind is due. */
#include "helpers.h"
#include "query.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N(a) (sizeof a / sizeof *a)

struct fixture {
	char dir[64];
	char path[128];
	rl_db *db;
};

/* Rulings enough for a tag to be walked rather than listed (filter.c's
 * DENSE_TAG, 2,000 links). */
enum { MANY = 2000 };

static void import_text(struct fixture *f, const char *name, const char *text,
                        const char *game)
{
	char p[192];
	snprintf(p, sizeof p, "%s/%s", f->dir, name);
	FILE *fp = fopen(p, "wb");
	assert_non_null(fp);
	assert_int_equal(fputs(text, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
	struct rl_import_opts o = { .game = game };
	struct rl_file_report r;
	int rc = rl_import_file(f->db, p, &o, 0, &r);
	if (rc != RL_OK)
		fail_msg("import %s: %s: %s", name, rl_status_name(rc),
		         rl_db_errmsg(f->db));
	rl_file_report_clear(&r);
}

/* A thesaurus: a tag with an equivalent in Spirit Island's concepts
 * (Repeat), one with an equivalent for every game (Many), a word of
 * Spirit Island's (Isolate); and a FAQ page of another game whose MANY
 * rulings all have the tag Many, one of them Repeat too. */
static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	assert_non_null(f);
	snprintf(f->dir, sizeof f->dir, "%s/rl-filter-XXXXXX",
	         getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof f->path, "%s/rulings.db", f->dir);
	if (rl_db_open(f->path, RL_OPEN_WRITE, &f->db) != RL_OK)
		fail_msg("rl_db_open: %s", rl_db_errmsg(f->db));
	import_text(f, "thesaurus.txt", "# rulings thesaurus\n"
	            "[*]\nen:Many = fr:Beaucoup\n"
	            "[Spirit Island]\nen:Repeat = fr:Répéter\n"
	            "en:Isolate = fr:Isoler\n", NULL);
	struct rl_buf b = {0};
	rl_buf_adds(&b, "Test FAQ\n\nFrequently Asked Questions\n\nGeneral\n\n");
	for (int i = 0; i < MANY; i++)
		rl_buf_addf(&b, "\xE2\x80\xA2 Is question %d answered?\n"
		            "  Yes, answer %d.\n  Tags: Many%s\n", i, i,
		            i ? "" : ", Repeat");
	assert_false(b.oom);
	import_text(f, "faq.txt", b.s, "Other Game");
	rl_buf_free(&b);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	rl_db_close(f->db);
	test_remove_tree(f->dir);
	free(f);
	return 0;
}

/* What a condition should be: its kind; the value of its parameter
 * (LANG, GAME, KIND: folded, as bound) or NULL; for SQL that reads a
 * subselect fN, subs. */
struct want {
	enum rl_cond_kind kind;
	const char *value;
	bool subs;
};

static const char *kind_name(enum rl_cond_kind k)
{
	static const char *const names[] = { "OTHER", "ANY", "LANG", "GAME",
		"NO_GAME", "KIND", "TAGS", "SHOWN" };
	return (size_t)k < N(names) ? names[k] : "?";
}

/* Compiles q (by_id as a listing in id order compiles it, check: unknown
 * names are an answer) and checks its conditions against w[0..n). */
static void expect(rl_db *db, const struct rl_query *q, bool by_id,
                   const struct want *w, size_t n)
{
	struct rl_compiled c;
	int rc = rl_compile_check(db, q, by_id, false, &c);
	if (rc != RL_OK)
		fail_msg("rl_compile: %s: %s", rl_status_name(rc), rl_db_errmsg(db));
	if (c.nconds != n) {
		for (size_t i = 0; i < c.nconds; i++)
			print_error("cond %zu: %s [%s]\n", i,
			            kind_name(c.conds[i].kind), c.conds[i].rows);
		fail_msg("%zu conditions, want %zu", c.nconds, n);
	}
	for (size_t i = 0; i < n; i++) {
		const struct rl_cond *d = &c.conds[i];
		if (d->kind != w[i].kind)
			fail_msg("cond %zu [%s]: kind %s, want %s", i, d->rows,
			         kind_name(d->kind), kind_name(w[i].kind));
		if (d->subs != w[i].subs)
			fail_msg("cond %zu [%s]: subs %d", i, d->rows, d->subs);
		if (w[i].value) {
			assert_true(d->param >= 1 && d->param <= c.p.n);
			assert_string_equal(c.p.v[d->param - 1], w[i].value);
			/* the parameter the SQL binds is the one recorded */
			char ref[32];
			snprintf(ref, sizeof ref, "?%d", d->param);
			assert_non_null(strstr(d->rows, ref));
		}
		if (d->kind == RL_COND_TAGS) {
			/* rows is the ids' SELECT, as the fast path uses it */
			assert_non_null(d->ids);
			struct rl_buf rows = {0};
			rl_buf_addf(&rows, "r.id IN (%s)", d->ids);
			assert_false(rows.oom);
			assert_string_equal(d->rows, rows.s);
			rl_buf_free(&rows);
		} else {
			assert_null(d->ids);
		}
	}
	rl_compiled_free(&c);
}

static const struct want shown = { RL_COND_SHOWN, NULL, false };

/* ---- the options (filter.c) --------------------------------------------- */

static void test_options(void **state)
{
	struct fixture *f = *state;
	const char *tags[] = { "Repeat", "Rep" };
	/* in the game whose concept Repeat is: no other game's equivalents */
	struct rl_query q = { .tags = tags, .ntags = 2, .category = "General",
		.kind = "FAQ", .lang = "FR", .game = "Spirit Island",
		.changed_only = true };
	const struct want w[] = {
		{ RL_COND_TAGS, NULL, false }, { RL_COND_TAGS, NULL, false },
		{ RL_COND_OTHER, NULL, false },         /* category */
		{ RL_COND_KIND, "faq", false },
		{ RL_COND_LANG, "fr", false },
		{ RL_COND_GAME, "spirit island", false },
		{ RL_COND_OTHER, NULL, false },         /* changed */
		shown,
	};
	expect(f->db, &q, false, w, N(w));
}

/* A tag with equivalents of a game (for that game's rulings only) is
 * not a list of ids: its SQL says more. */
static void test_tag_with_game_equivalents(void **state)
{
	struct fixture *f = *state;
	const char *tags[] = { "Repeat" };
	struct rl_query q = { .tags = tags, .ntags = 1 };
	const struct want w[] = { { RL_COND_OTHER, NULL, false }, shown };
	expect(f->db, &q, false, w, N(w));
	/* equivalents for every game: still a list */
	tags[0] = "Many";
	const struct want w2[] = { { RL_COND_TAGS, NULL, false }, shown };
	expect(f->db, &q, false, w2, N(w2));
}

/* A tag on many rulings, listed in id order: walked (EXISTS), not a
 * list; listed when counted or not listed in id order. */
static void test_dense_tag(void **state)
{
	struct fixture *f = *state;
	const char *tags[] = { "Many" };
	struct rl_query q = { .tags = tags, .ntags = 1, .limit = 10 };
	const struct want w[] = { { RL_COND_OTHER, NULL, false }, shown };
	expect(f->db, &q, true, w, N(w));
	struct rl_compiled c;
	assert_int_equal(rl_compile_check(f->db, &q, true, false, &c), RL_OK);
	assert_non_null(c.conds[0].count);
	rl_compiled_free(&c);
	const struct want w2[] = { { RL_COND_TAGS, NULL, false }, shown };
	expect(f->db, &q, false, w2, N(w2));
}

static void test_game_none_and_unknown_lang(void **state)
{
	struct fixture *f = *state;
	struct rl_query q = { .game = "none", .lang = "xx",
		.include_withdrawn = true };
	const struct want w[] = { { RL_COND_LANG, "xx", false },
		{ RL_COND_NO_GAME, NULL, false } };
	expect(f->db, &q, false, w, N(w));
	/* unknown: an answer when names are checked */
	struct rl_compiled c;
	assert_int_equal(rl_compile_check(f->db, &q, false, true, &c),
	                 RL_NOTFOUND);
	rl_compiled_free(&c);
	/* --lang any: no condition */
	q = (struct rl_query){ .lang = "any", .game = "Other Game" };
	const struct want w2[] = { { RL_COND_GAME, "other game", false }, shown };
	expect(f->db, &q, false, w2, N(w2));
}

/* ---- the words (qcompile.c) --------------------------------------------- */

static void test_fields(void **state)
{
	struct fixture *f = *state;
	const char *words[] = { "game:\"Spirit Island\"", "tag:Repeat",
		"kind:Errata", "lang:fr", "tag:Spe*", "rule:702", "is:changed" };
	struct rl_query q = { .words = words, .nwords = N(words) };
	const struct want w[] = {
		{ RL_COND_GAME, "spirit island", false },
		{ RL_COND_TAGS, NULL, false },     /* within its game */
		{ RL_COND_KIND, "errata", false },
		{ RL_COND_LANG, "fr", false },
		{ RL_COND_TAGS, NULL, false },     /* a prefix */
		{ RL_COND_OTHER, NULL, false },
		{ RL_COND_OTHER, NULL, false },
		shown,
	};
	expect(f->db, &q, false, w, N(w));
}

static void test_fields_other_forms(void **state)
{
	struct fixture *f = *state;
	const char *words[] = { "game:none", "lang:any", "tag:Repeat" };
	struct rl_query q = { .words = words, .nwords = N(words) };
	const struct want w[] = {
		{ RL_COND_NO_GAME, NULL, false }, { RL_COND_ANY, NULL, false },
		{ RL_COND_TAGS, NULL, false },     /* no game's equivalents */
		shown,
	};
	expect(f->db, &q, false, w, N(w));
	/* of any game: Spirit Island's equivalents for its rulings */
	const char *w1s[] = { "tag:Repeat" };
	q = (struct rl_query){ .words = w1s, .nwords = N(w1s) };
	const struct want w1[] = { { RL_COND_OTHER, NULL, false }, shown };
	expect(f->db, &q, false, w1, N(w1));
	/* a field inside a clause is part of that clause's SQL only */
	const char *w2s[] = { "-kind:faq", "(kind:rule OR game:none)" };
	q = (struct rl_query){ .words = w2s, .nwords = N(w2s) };
	const struct want w2[] = { { RL_COND_OTHER, NULL, false },
		{ RL_COND_OTHER, NULL, false }, shown };
	expect(f->db, &q, false, w2, N(w2));
	/* is:withdrawn: no rulings hidden */
	const char *w3s[] = { "is:withdrawn" };
	q = (struct rl_query){ .words = w3s, .nwords = N(w3s) };
	const struct want w3[] = { { RL_COND_OTHER, NULL, false } };
	expect(f->db, &q, false, w3, N(w3));
}

/* Conditions that read a subselect fN: a NOT of words alone, a term
 * widened by another game's concept (the match drives, the condition
 * decides: games), a term FTS5 cannot say alone. */
static void test_subselects(void **state)
{
	struct fixture *f = *state;
	const char *w1s[] = { "-answer" };
	struct rl_query q = { .words = w1s, .nwords = N(w1s) };
	const struct want w1[] = { { RL_COND_OTHER, NULL, true }, shown };
	expect(f->db, &q, false, w1, N(w1));
	const char *w2s[] = { "Isolate" };
	q = (struct rl_query){ .words = w2s, .nwords = N(w2s) };
	const struct want w2[] = { { RL_COND_OTHER, NULL, true }, shown };
	expect(f->db, &q, false, w2, N(w2));
	struct rl_compiled c;
	assert_int_equal(rl_compile_check(f->db, &q, false, false, &c), RL_OK);
	assert_true(c.conds[0].games);
	rl_compiled_free(&c);
	const char *w3s[] = { "answer", "(kind:faq OR question)" };
	q = (struct rl_query){ .words = w3s, .nwords = N(w3s) };
	const struct want w3[] = { { RL_COND_OTHER, NULL, true }, shown };
	expect(f->db, &q, false, w3, N(w3));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_tag_with_game_equivalents),
		cmocka_unit_test(test_dense_tag),
		cmocka_unit_test(test_game_none_and_unknown_lang),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_fields_other_forms),
		cmocka_unit_test(test_subselects),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
