/* test_import.c — the library's import API (rl_import_file(),
 * rl_import_paths()) and export API (rl_export() to a sink, a caller's
 * own format). */
#include "helpers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct fixture {
	char dir[64];
	char db_path[128];
	rl_db *db;
};

static void path_in(const struct fixture *f, const char *name, char *out,
                    size_t cap)
{
	snprintf(out, cap, "%s/%s", f->dir, name);
}

static void write_file(const struct fixture *f, const char *name,
                       const void *data, size_t len)
{
	char p[256];
	path_in(f, name, p, sizeof p);
	FILE *fp = fopen(p, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
}

static void copy_seed(const struct fixture *f, const char *prefix,
                      const char *name)
{
	char *seed = test_seed_path(prefix);
	size_t len;
	char *data = test_read_file(seed, &len);
	write_file(f, name, data, len);
	free(data);
	free(seed);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	assert_non_null(f);
	snprintf(f->dir, sizeof f->dir, "%s/rl-import-XXXXXX",
	         getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->db_path, sizeof f->db_path, "%s/db.sqlite", f->dir);
	if (rl_db_open(f->db_path, RL_OPEN_WRITE, &f->db) != RL_OK)
		fail_msg("rl_db_open: %s", rl_db_errmsg(f->db));
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

static bool has_diag(const struct rl_file_report *r, enum rl_severity sev,
                     const char *part)
{
	return test_count_diags(&r->diags, sev, 0, part) > 0;
}

/* The game of the FAQ pages imported here, which name none (a document of
 * no game is refused: test_no_game). */
static const struct rl_import_opts in_game = { .game = "Test" };

/* ---- rl_import_file ---------------------------------------------------- */

static void test_file_outcomes(void **state)
{
	struct fixture *f = *state;
	char p[256];
	struct rl_file_report r;
	copy_seed(f, "000_", "speed.txt");
	path_in(f, "speed.txt", p, sizeof p);

	assert_int_equal(rl_import_file(f->db, p, &in_game, RL_IMPORT_DRY_RUN, &r),
	                 RL_OK);
	assert_int_equal(r.outcome, RL_FILE_IMPORTED);
	assert_int_equal(r.result.added, 18);
	rl_file_report_clear(&r);
	struct rl_stats s;
	assert_int_equal(rl_stats(f->db, &s), RL_OK);
	assert_int_equal(s.rulings, 0);     /* a dry run writes nothing */
	rl_stats_clear(&s);

	assert_int_equal(rl_import_file(f->db, p, &in_game, 0, &r), RL_OK);
	assert_int_equal(r.outcome, RL_FILE_IMPORTED);
	assert_true(r.parsed && r.stored);
	assert_string_equal(r.format, "faq-tags");
	assert_string_equal(r.lang, "en");
	assert_string_equal(r.title, "Speed (Fast/Slow)");
	assert_string_equal(r.encoding, "utf-8");
	assert_int_equal(r.result.entries, 18);
	assert_int_equal(r.kinds[RL_KIND_FAQ], 18);
	assert_int_equal(strlen(r.sha256), 64);
	assert_true(r.read_seconds <= r.parse_seconds &&
	            r.parse_seconds <= r.store_seconds);
	assert_null(r.error);
	rl_file_report_clear(&r);

	/* the same bytes again, with no option: unchanged before parsing
	 * (so not refused for want of a game) */
	assert_int_equal(rl_import_file(f->db, p, NULL, 0, &r), RL_OK);
	assert_int_equal(r.outcome, RL_FILE_UNCHANGED);
	assert_true(r.result.unchanged);
	assert_false(r.parsed);
	rl_file_report_clear(&r);
}

/* A file of name and bytes, not a document: found in a directory, it is
 * skipped with a warning that says found_why; named, it is read and
 * refused, with an error that says named_why (unless NULL). */
static void skipped_then_refused(struct fixture *f, const char *name,
                                 const char *bytes, size_t len,
                                 const char *found_why, const char *named_why)
{
	char p[256];
	struct rl_file_report r;
	write_file(f, name, bytes, len);
	path_in(f, name, p, sizeof p);
	assert_int_equal(rl_import_file(f->db, p, &in_game, RL_IMPORT_FOUND, &r),
	                 RL_OK);
	assert_int_equal(r.outcome, RL_FILE_SKIPPED);
	assert_true(has_diag(&r, RL_WARNING, found_why));
	rl_file_report_clear(&r);
	assert_int_equal(rl_import_file(f->db, p, &in_game, 0, &r), RL_EDATA);
	assert_int_equal(r.outcome, RL_FILE_FAILED);
	if (named_why)
		assert_true(has_diag(&r, RL_ERROR, named_why));
	rl_file_report_clear(&r);
}

static void test_file_skipped_and_failed(void **state)
{
	struct fixture *f = *state;
	char p[256];
	struct rl_file_report r;

	/* named, a picture is read as text, and refused */
	static const char png[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
	skipped_then_refused(f, "picture.png", png, sizeof png - 1,
	                     "a binary file", NULL);
	static const char prose[] = "Notes.\n\nWe played and it rained.\n";
	skipped_then_refused(f, "notes.txt", prose, sizeof prose - 1,
	                     "not a document format", "not a document format");

	path_in(f, "missing.txt", p, sizeof p);
	assert_int_equal(rl_import_file(f->db, p, &in_game, 0, &r), RL_EIO);
	assert_int_equal(r.outcome, RL_FILE_FAILED);
	assert_true(has_diag(&r, RL_ERROR, "cannot open"));
	rl_file_report_clear(&r);
}

/* A document that names no game is refused, and nothing of it stored;
 * rl_store() itself stores what its caller gives (test_store.c). */
static void test_no_game(void **state)
{
	struct fixture *f = *state;
	char p[256];
	struct rl_file_report r;
	copy_seed(f, "000_", "speed.txt");
	path_in(f, "speed.txt", p, sizeof p);
	for (unsigned flags = 0; flags <= RL_IMPORT_DRY_RUN; flags++) {
		assert_int_equal(rl_import_file(f->db, p, NULL, flags, &r),
		                 RL_EDATA);
		assert_int_equal(r.outcome, RL_FILE_REFUSED);
		assert_int_equal(r.refusal, RL_REFUSED_NO_GAME);
		assert_non_null(r.error);
		assert_non_null(strstr(r.error, "does not name its game; give "
		                                "--game ("));
		rl_file_report_clear(&r);
	}
	struct rl_stats s;
	assert_int_equal(rl_stats(f->db, &s), RL_OK);
	assert_int_equal(s.rulings, 0);
	rl_stats_clear(&s);
	/* the games the database holds are listed */
	assert_int_equal(rl_import_file(f->db, p, &in_game, 0, &r), RL_OK);
	rl_file_report_clear(&r);
	copy_seed(f, "001_", "defend.txt");
	path_in(f, "defend.txt", p, sizeof p);
	assert_int_equal(rl_import_file(f->db, p, NULL, 0, &r), RL_EDATA);
	assert_non_null(strstr(r.error, "(games in this database: Test)"));
	rl_file_report_clear(&r);
}

/* ---- rl_import_paths ---------------------------------------------------- */

struct events {
	char seq[256];            /* one letter an event */
	size_t n;
	size_t files, files_done;
	uint64_t bytes, bytes_done;
	size_t reports, notices;
};

static void record(void *ctx, const struct rl_import_progress *p)
{
	struct events *e = ctx;
	static const char letter[] = "WRSDCFN";
	if (e->n + 1 < sizeof e->seq)
		e->seq[e->n++] = letter[p->event];
	e->files = p->files;
	e->files_done = p->files_done;
	e->bytes = p->bytes;
	e->bytes_done = p->bytes_done;
	e->reports += p->event == RL_IMPORT_FILE;
	e->notices += p->event == RL_IMPORT_NOTICE;
	if (p->event == RL_IMPORT_FILE)
		assert_non_null(p->report);
	if (p->event == RL_IMPORT_NOTICE)
		assert_non_null(p->diag);
}

static void make_tree(const struct fixture *f)
{
	char p[256];
	path_in(f, "tree", p, sizeof p);
	assert_int_equal(mkdir(p, 0777), 0);
	copy_seed(f, "000_", "tree/a.txt");
	copy_seed(f, "001_", "tree/b.txt");
	static const char readme[] = "Notes.\n\nNothing to import here.\n";
	write_file(f, "tree/README", readme, sizeof readme - 1);
	char link[256];
	path_in(f, "tree/loop", link, sizeof link);
	assert_int_equal(symlink(".", link), 0);
}

static void test_paths(void **state)
{
	struct fixture *f = *state;
	make_tree(f);
	char p[256];
	path_in(f, "tree", p, sizeof p);
	const char *paths[] = { p };
	struct events e = {0};
	struct rl_import_run run = { .opts = &in_game, .progress = record, .ctx = &e };
	struct rl_import_summary sum;
	assert_int_equal(rl_import_paths(f->db, paths, 1, &run, &sum), RL_OK);
	/* the loop: a notice, before the walk ends; then per file (README
	 * first, in byte order) read, (stored,) done, its report */
	assert_string_equal(e.seq, "NWRDFRSDFRSDF");
	assert_int_equal(e.files, 3);
	assert_int_equal(e.files_done, 3);
	assert_true(e.bytes > 0 && e.bytes_done == e.bytes);
	assert_int_equal(sum.imported, 2);
	assert_int_equal(sum.skipped, 1);
	assert_int_equal(sum.failed, 0);
	assert_int_equal(sum.added, 35);
}

static void test_paths_bulk(void **state)
{
	struct fixture *f = *state;
	make_tree(f);
	char p[256];
	path_in(f, "tree", p, sizeof p);
	const char *paths[] = { p };
	struct events e = {0};
	struct rl_import_run run = { .opts = &in_game, .bulk = true, .group_seconds = 3600,
	                             .progress = record, .ctx = &e };
	struct rl_import_summary sum;
	assert_int_equal(rl_import_paths(f->db, paths, 1, &run, &sum), RL_OK);
	/* the reports wait for the group's commit */
	assert_string_equal(e.seq, "NWRDRSDRSDCFFF");
	assert_int_equal(sum.imported, 2);
	assert_int_equal(sum.skipped, 1);
}

static void test_paths_missing(void **state)
{
	struct fixture *f = *state;
	char p[256];
	path_in(f, "nowhere", p, sizeof p);
	const char *paths[] = { p };
	struct events e = {0};
	struct rl_import_run run = { .opts = &in_game, .progress = record, .ctx = &e };
	struct rl_import_summary sum;
	assert_int_equal(rl_import_paths(f->db, paths, 1, &run, &sum), RL_EIO);
	assert_int_equal(sum.failed, 1);
	assert_int_equal(e.notices, 1);
}

/* ---- rl_export to a sink --------------------------------------------------- */

struct mem {
	struct { char *s; size_t len, cap; } b;
	int fail_after;           /* bytes accepted before ENOSPC; -1: never */
};

static int mem_write(void *ctx, const void *data, size_t n)
{
	struct mem *m = ctx;
	if (m->fail_after >= 0 && m->b.len + n > (size_t)m->fail_after)
		return ENOSPC;
	if (m->b.len + n + 1 > m->b.cap) {
		m->b.cap = (m->b.len + n + 1) * 2;
		m->b.s = realloc(m->b.s, m->b.cap);
		assert_non_null(m->b.s);
	}
	memcpy(m->b.s + m->b.len, data, n);
	m->b.len += n;
	m->b.s[m->b.len] = '\0';
	return 0;
}

/* A caller's own format: the selection's ids, one a line. */
static int render_ids(struct rl_export *x, const struct rl_sink *out)
{
	const struct rl_results *r = rl_export_results(x);
	for (size_t i = 0; i < r->n; i++) {
		char line[32];
		int n = snprintf(line, sizeof line, "%lld\n", r->v[i].id);
		if (out->write(out->ctx, line, (size_t)n))
			return rl_export_fail(x, RL_EIO, "the ids could not be written");
	}
	return RL_OK;
}

static void test_export_sink(void **state)
{
	struct fixture *f = *state;
	make_tree(f);
	char p[256];
	path_in(f, "tree", p, sizeof p);
	const char *paths[] = { p };
	struct rl_import_run run = { .opts = &in_game };
	struct rl_import_summary sum;
	assert_int_equal(rl_import_paths(f->db, paths, 1, &run, &sum), RL_OK);

	struct mem m = { .fail_after = -1 };
	struct rl_sink sink = { mem_write, &m };
	struct rl_export_report rep;
	struct rl_export_opts o = {
		.tag = "Defend", .format = rl_export_format_find("txt"),
		.output = "-", .standard_output = &sink,
	};
	assert_non_null(o.format);
	assert_int_equal(rl_export(f->db, &o, &rep), RL_OK);
	assert_int_equal(rep.rulings, 17);
	assert_int_equal(rep.files, 0);
	/* the page names its game and language, then its tag */
	const char head[] = "Game: Test\nLanguage: en\n\nDefend\n";
	assert_true(strncmp(m.b.s, head, sizeof head - 1) == 0);

	/* a caller's format, with whole records */
	static const struct rl_export_format ids = {
		.name = "ids", .ext = ".txt", .records = true,
		.render_all = render_ids,
	};
	m.b.len = 0;
	o.format = &ids;
	assert_int_equal(rl_export(f->db, &o, &rep), RL_OK);
	size_t lines = 0;
	for (size_t i = 0; i < m.b.len; i++)
		lines += m.b.s[i] == '\n';
	assert_int_equal(lines, 17);

	/* a sink that fails: an i/o error, with a message */
	m.b.len = 0;
	m.fail_after = 100;
	o.format = rl_export_format_find("html");
	assert_int_equal(rl_export(f->db, &o, &rep), RL_EIO);
	assert_non_null(strstr(rl_db_errmsg(f->db), "No space left on device"));
	o.format = &ids;
	m.b.len = 0;
	m.fail_after = 5;
	assert_int_equal(rl_export(f->db, &o, &rep), RL_EIO);

	/* nothing selected */
	m.fail_after = -1;
	o.tag = "No Such Tag";
	assert_int_equal(rl_export(f->db, &o, &rep), RL_NOTFOUND);
	free(m.b.s);
}

/* ---- the import layer's guards ----------------------------------------- */

static void test_withdraw_allowed(void **state)
{
	(void)state;
	/* the default: up to half of them, or up to 4 */
	assert_true(rl_withdraw_allowed(NULL, 0, 0));
	assert_true(rl_withdraw_allowed(NULL, 4, 4));
	assert_true(rl_withdraw_allowed(NULL, 4, 5));
	assert_false(rl_withdraw_allowed(NULL, 5, 5));
	assert_false(rl_withdraw_allowed(NULL, 5, 9));
	assert_true(rl_withdraw_allowed(NULL, 5, 10));
	assert_true(rl_withdraw_allowed(NULL, 8, 17));
	assert_false(rl_withdraw_allowed(NULL, 9, 17));
	struct rl_import_opts o = { .game = "Test", .limit = RL_WITHDRAW_COUNT, .max_withdraw = 3 };
	assert_true(rl_withdraw_allowed(&o, 3, 3));
	assert_false(rl_withdraw_allowed(&o, 4, 100));
	o.max_withdraw = 0;
	assert_true(rl_withdraw_allowed(&o, 0, 100));
	assert_false(rl_withdraw_allowed(&o, 1, 100));
	o = (struct rl_import_opts){ .game = "Test", .limit = RL_WITHDRAW_PERCENT,
	                             .max_withdraw = 10 };
	assert_true(rl_withdraw_allowed(&o, 1, 10));
	assert_false(rl_withdraw_allowed(&o, 2, 19));
	assert_true(rl_withdraw_allowed(&o, 2, 20));
	o.max_withdraw = 100;
	assert_true(rl_withdraw_allowed(&o, 17, 17));
	o.limit = RL_WITHDRAW_ANY;
	assert_true(rl_withdraw_allowed(&o, 1000, 1));
}

/* The Speed page (18 entries) without its last k entries, as name. */
static void speed_minus(const struct fixture *f, size_t k, const char *name)
{
	char *seed = test_seed_path("000_");
	size_t len;
	char *data = test_read_file(seed, &len);
	size_t starts[64], n = 0;
	for (size_t i = 0; i + 4 <= len; i++)
		if ((i == 0 || data[i - 1] == '\n') &&
		    memcmp(data + i, "\xe2\x80\xa2 ", 4) == 0 && n < 64)
			starts[n++] = i;
	assert_int_equal(n, 18);
	write_file(f, name, data, k ? starts[n - k] : len);
	free(data);
	free(seed);
}

static void test_file_refused(void **state)
{
	struct fixture *f = *state;
	char p[256], q[256];
	struct rl_file_report r;
	struct rl_stats s;
	copy_seed(f, "000_", "speed.txt");
	speed_minus(f, 10, "speed-10.txt");
	path_in(f, "speed.txt", p, sizeof p);
	path_in(f, "speed-10.txt", q, sizeof q);
	assert_int_equal(rl_import_file(f->db, p, &in_game, 0, &r), RL_OK);
	rl_file_report_clear(&r);

	/* 10 of 18: refused, nothing stored */
	assert_int_equal(rl_import_file(f->db, q, &in_game, 0, &r), RL_EDATA);
	assert_int_equal(r.outcome, RL_FILE_REFUSED);
	assert_int_equal(r.refusal, RL_REFUSED_WITHDRAW);
	assert_int_equal(r.result.withdrawn, 10);
	assert_int_equal(r.result.before, 18);
	assert_string_equal(r.title, "Speed (Fast/Slow)");
	rl_file_report_clear(&r);
	assert_int_equal(rl_stats(f->db, &s), RL_OK);
	assert_int_equal(s.rulings, 18);
	assert_int_equal(s.withdrawn, 0);
	rl_stats_clear(&s);

	/* a dry run says so and does not refuse */
	assert_int_equal(rl_import_file(f->db, q, &in_game, RL_IMPORT_DRY_RUN, &r),
	                 RL_OK);
	assert_int_equal(r.outcome, RL_FILE_IMPORTED);
	assert_int_equal(r.refusal, RL_REFUSED_WITHDRAW);
	assert_int_equal(r.result.withdrawn, 10);
	rl_file_report_clear(&r);

	/* rl_import_paths: counted as refused, RL_EDATA */
	const char *paths[] = { q };
	struct rl_import_run run = { .opts = &in_game };
	struct rl_import_summary sum;
	assert_int_equal(rl_import_paths(f->db, paths, 1, &run, &sum), RL_EDATA);
	assert_int_equal(sum.refused, 1);
	assert_int_equal(sum.imported + sum.failed, 0);

	/* a limit that allows it */
	struct rl_import_opts o = { .game = "Test", .limit = RL_WITHDRAW_PERCENT,
	                            .max_withdraw = 56 };
	assert_int_equal(rl_import_file(f->db, q, &o, 0, &r), RL_OK);
	assert_int_equal(r.outcome, RL_FILE_IMPORTED);
	assert_int_equal(r.refusal, RL_REFUSED_NONE);
	assert_int_equal(r.result.withdrawn, 10);
	rl_file_report_clear(&r);
	assert_int_equal(rl_stats(f->db, &s), RL_OK);
	assert_int_equal(s.withdrawn, 10);
	rl_stats_clear(&s);
}

static void test_file_damaged(void **state)
{
	struct fixture *f = *state;
	char p[256];
	struct rl_file_report r;
	struct rl_stats s;
	static const char page[] =
		"Damaged Page\n\nFrequently Asked Questions\n\nCards\n\n"
		"\xe2\x80\xa2 Whole?\n  Yes.\n  Tags: X\n"
		"\xe2\x80\xa2 Cut short?\n  The answer stops in the mid";
	write_file(f, "damaged.txt", page, sizeof page - 1);
	path_in(f, "damaged.txt", p, sizeof p);

	/* refused, even as a first version: nothing stored */
	assert_int_equal(rl_import_file(f->db, p, &in_game, 0, &r), RL_EDATA);
	assert_int_equal(r.outcome, RL_FILE_REFUSED);
	assert_int_equal(r.refusal, RL_REFUSED_DAMAGED);
	assert_int_equal(r.end, RL_END_IN_ENTRY);
	assert_int_equal(r.end_line, 10);
	assert_string_equal(rl_doc_end_name(r.end), "an entry");
	assert_int_equal(r.result.added, 2);   /* what storing would do */
	rl_file_report_clear(&r);
	assert_int_equal(rl_stats(f->db, &s), RL_OK);
	assert_int_equal(s.rulings, 0);
	rl_stats_clear(&s);

	/* a dry run reports it and does not refuse */
	assert_int_equal(rl_import_file(f->db, p, &in_game, RL_IMPORT_DRY_RUN, &r),
	                 RL_OK);
	assert_int_equal(r.outcome, RL_FILE_IMPORTED);
	assert_int_equal(r.refusal, RL_REFUSED_DAMAGED);
	rl_file_report_clear(&r);

	/* accepted */
	struct rl_import_opts o = { .game = "Test", .accept_damaged = true };
	assert_int_equal(rl_import_file(f->db, p, &o, 0, &r), RL_OK);
	assert_int_equal(r.outcome, RL_FILE_IMPORTED);
	assert_int_equal(r.refusal, RL_REFUSED_NONE);
	assert_int_equal(r.end, RL_END_IN_ENTRY);
	rl_file_report_clear(&r);
	assert_int_equal(rl_stats(f->db, &s), RL_OK);
	assert_int_equal(s.rulings, 2);
	rl_stats_clear(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_file_outcomes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_game, setup, teardown),
		cmocka_unit_test_setup_teardown(test_file_skipped_and_failed, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_paths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_paths_bulk, setup, teardown),
		cmocka_unit_test_setup_teardown(test_paths_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_export_sink, setup, teardown),
		cmocka_unit_test(test_withdraw_allowed),
		cmocka_unit_test_setup_teardown(test_file_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_file_damaged, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
