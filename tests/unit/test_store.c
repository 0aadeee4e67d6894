/* test_store.c — the database: opening, storing documents, searching,
 * showing, counting. Every test works in its own temporary directory. */
#include "helpers.h"
#include "db.h"
#include "doc.h"
#include "schema.h"
#include "stemtok.h"

#include <sqlite3.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define B "\xE2\x80\xA2"   /* • */

struct fixture {
	char dir[64];        /* the temporary directory, removed afterwards */
	char path[128];      /* dir/rulings.db */
	rl_db *db;           /* open for writing, or NULL */
	char seed_sha[2][65];
	char *seed_path[2];
};

/* ---- helpers ----------------------------------------------------------- */

static void open_db(struct fixture *f)
{
	int rc = rl_db_open(f->path, RL_OPEN_WRITE, &f->db);
	if (rc != RL_OK)
		fail_msg("rl_db_open: %s", rl_db_errmsg(f->db));
}

/* Parses a source and stores it; returns rl_store()'s status. */
static int store_source(rl_db *db, const struct rl_source *src,
                        const struct rl_import_opts *opts,
                        struct rl_import_result *res)
{
	static const struct rl_import_opts none = {0};
	struct rl_doc doc;
	struct rl_diags d = {0};
	int rc = rl_parse(src, opts ? opts : &none, &doc, &d);
	if (rc != RL_OK)
		fail_msg("rl_parse '%s': %s", src->name, rl_status_name(rc));
	rc = rl_store(db, src, &doc, res);
	if (rc != RL_OK)
		fail_msg("rl_store '%s': %s", src->name, rl_db_errmsg(db));
	rl_doc_free(&doc);
	rl_diags_clear(&d);
	return rc;
}

/* Stores a document written here. */
static void store_text(rl_db *db, const char *text,
                       const struct rl_import_opts *opts,
                       struct rl_import_result *res)
{
	struct rl_source src;
	struct rl_diags d = {0};
	assert_int_equal(rl_source_from_memory(&src, "mem.txt", text, strlen(text),
	                                       &d), RL_OK);
	store_source(db, &src, opts, res);
	rl_source_free(&src);
	rl_diags_clear(&d);
}

/* Stores seed file i (000_ or 001_), of no game (rl_store() stores what it
 * is given; rl_import_file() would refuse it); keeps its checksum. */
static void store_seed(struct fixture *f, int i, struct rl_import_result *res)
{
	struct rl_source src;
	struct rl_diags d = {0};
	if (rl_source_load(&src, f->seed_path[i], &d) != RL_OK)
		fail_msg("rl_source_load '%s'", f->seed_path[i]);
	store_source(f->db, &src, NULL, res);
	memcpy(f->seed_sha[i], src.sha256, sizeof f->seed_sha[i]);
	rl_source_free(&src);
	rl_diags_clear(&d);
}

static void get_stats(rl_db *db, struct rl_stats *s)
{
	int rc = rl_stats(db, s);
	if (rc != RL_OK)
		fail_msg("rl_stats: %s", rl_db_errmsg(db));
}

/* Runs a search; RL_NOTFOUND is an empty result. The caller frees r. */
static void search(rl_db *db, const struct rl_query *q, struct rl_results *r)
{
	int rc = rl_search(db, q, r);
	if (rc == RL_NOTFOUND) {
		assert_int_equal(r->n, 0);
		assert_int_equal(r->total, 0);
		return;
	}
	if (rc != RL_OK)
		fail_msg("rl_search: %s: %s", rl_status_name(rc), rl_db_errmsg(db));
	assert_true(r->n > 0);
}

/* How many rulings a query matches (checking the rows against the total). */
static long long count(rl_db *db, const struct rl_query *q)
{
	struct rl_results r;
	search(db, q, &r);
	if (q->limit <= 0)
		assert_int_equal(r.n, r.total);
	long long n = r.total;
	rl_results_free(&r);
	return n;
}

static long long count_tag(rl_db *db, const char *tag)
{
	const char *tags[] = { tag };
	struct rl_query q = { .tags = tags, .ntags = 1 };
	return count(db, &q);
}

/* The id of the only ruling with this tag. */
static long long only_id_with_tag(rl_db *db, const char *tag)
{
	const char *tags[] = { tag };
	struct rl_query q = { .tags = tags, .ntags = 1 };
	struct rl_results r;
	search(db, &q, &r);
	assert_int_equal(r.n, 1);
	long long id = r.v[0].id;
	rl_results_free(&r);
	return id;
}

static bool has_string(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

static bool has_tag(rl_db *db, const char *name)
{
	struct rl_tag_count *v;
	size_t n;
	int rc = rl_tags(db, NULL, false, &v, &n);
	assert_true(rc == RL_OK || rc == RL_NOTFOUND);
	bool found = false;
	for (size_t i = 0; i < n; i++)
		found |= strcmp(v[i].name, name) == 0;
	rl_tags_free(v, n);
	return found;
}

static long long stat_count(const struct rl_count *v, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].key, key) == 0)
			return v[i].count;
	return 0;
}

/* ---- fixtures ---------------------------------------------------------- */

static int setup_dir(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	strcpy(f->dir, "/tmp/rulings-unit-XXXXXX");
	if (!mkdtemp(f->dir)) {
		free(f);
		return -1;
	}
	snprintf(f->path, sizeof f->path, "%s/rulings.db", f->dir);
	f->seed_path[0] = test_seed_path("000_");
	f->seed_path[1] = test_seed_path("001_");
	*state = f;
	return 0;
}

static int setup_db(void **state)
{
	if (setup_dir(state))
		return -1;
	struct fixture *f = *state;
	return rl_db_open(f->path, RL_OPEN_WRITE, &f->db) == RL_OK ? 0 : -1;
}

/* A database with both seed pages in it. */
static int setup_seeded(void **state)
{
	if (setup_db(state))
		return -1;
	struct fixture *f = *state;
	struct rl_import_result res;
	store_seed(f, 0, &res);
	store_seed(f, 1, &res);
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	rl_db_close(f->db);
	test_remove_tree(f->dir);
	free(f->seed_path[0]);
	free(f->seed_path[1]);
	free(f);
	return 0;
}

/* ---- opening ----------------------------------------------------------- */

static void test_open_creates_database(void **state)
{
	struct fixture *f = *state;
	assert_int_not_equal(access(f->path, F_OK), 0);
	open_db(f);
	assert_int_equal(access(f->path, F_OK), 0);
	assert_int_equal(rl_db_schema_version(f->db), rl_schema_version);
	rl_db_close(f->db);
	f->db = NULL;

	/* it opens again, for reading too, with the same version */
	rl_db *db = NULL;
	assert_int_equal(rl_db_open(f->path, RL_OPEN_READ, &db), RL_OK);
	assert_int_equal(rl_db_schema_version(db), rl_schema_version);
	rl_db_close(db);

	/* and its directory is made when missing */
	char nested[192];
	snprintf(nested, sizeof nested, "%s/a/b/rulings.db", f->dir);
	assert_int_equal(rl_db_open(nested, RL_OPEN_WRITE, &db), RL_OK);
	assert_int_equal(rl_db_schema_version(db), rl_schema_version);
	rl_db_close(db);
	assert_int_equal(access(nested, F_OK), 0);
}

/* A database made by an older rulings (schema version 1, one unstemmed
 * full-text table) is migrated on open, and its rulings are found in the
 * per-language tables that replace that table. */
static void test_migrate_from_version_1(void **state)
{
	struct fixture *f = *state;
	sqlite3 *h = NULL;
	assert_int_equal(sqlite3_open(f->path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, rl_schema_migrations[0].sql, NULL, NULL,
	                              NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h,
		"PRAGMA user_version = 1;"
		"INSERT INTO rulings (kind, key, lang, title, body)"
		" VALUES ('faq', 'a', 'en', 'Defending lands', 'It defended.'),"
		"        ('rule', 'b', 'ru', 'Атака', 'Медленной атакой называется');",
		NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);

	open_db(f);
	assert_int_equal(rl_db_schema_version(f->db), rl_schema_version);
	const char *words[] = { "defend" };
	struct rl_query q = { .words = words, .nwords = 1 };
	struct rl_results res;
	assert_int_equal(rl_search(f->db, &q, &res), RL_OK);
	assert_int_equal(res.n, 1);
	assert_string_equal(res.v[0].title, "Defending lands");
	rl_results_free(&res);
	const char *ru[] = { "атаки" };
	q.words = ru;
	assert_int_equal(rl_search(f->db, &q, &res), RL_OK);
	assert_int_equal(res.n, 1);
	assert_string_equal(res.v[0].lang, "ru");
	rl_results_free(&res);
}

static void test_open_read_missing(void **state)
{
	struct fixture *f = *state;
	rl_db *db = NULL;
	assert_int_equal(rl_db_open(f->path, RL_OPEN_READ, &db), RL_EIO);
	assert_non_null(db);
	assert_non_null(strstr(rl_db_errmsg(db), f->path));
	rl_db_close(db);
	/* reading never creates */
	assert_int_not_equal(access(f->path, F_OK), 0);

	char missing_dir[192];
	snprintf(missing_dir, sizeof missing_dir, "%s/no/such/dir.db", f->dir);
	db = NULL;
	assert_int_equal(rl_db_open(missing_dir, RL_OPEN_READ, &db), RL_EIO);
	rl_db_close(db);
}

/* A file that is not a database is refused, not overwritten. */
static void test_open_not_a_database(void **state)
{
	struct fixture *f = *state;
	FILE *fp = fopen(f->path, "wb");
	assert_non_null(fp);
	for (int i = 0; i < 256; i++)
		fputs("this is not an SQLite database\n", fp);
	fclose(fp);
	for (int flags = RL_OPEN_READ; flags <= RL_OPEN_WRITE; flags++) {
		rl_db *db = NULL;
		assert_int_equal(rl_db_open(f->path, flags, &db), RL_EIO);
		assert_non_null(db);
		rl_db_close(db);
	}
	size_t len;
	char *text = test_read_file(f->path, &len);
	assert_int_equal(strncmp(text, "this is not", 11), 0);
	free(text);
}

/* A database from a newer rulings (a higher schema version) is refused. */
static void test_open_future_schema(void **state)
{
	struct fixture *f = *state;
	sqlite3 *h = NULL;
	assert_int_equal(sqlite3_open(f->path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "CREATE TABLE x (y);"
	                              " PRAGMA user_version = 99;"
	                              " PRAGMA application_id = 1381321799",
	                              NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	for (int flags = RL_OPEN_READ; flags <= RL_OPEN_WRITE; flags++) {
		rl_db *db = NULL;
		assert_int_equal(rl_db_open(f->path, flags, &db), RL_EINTERNAL);
		assert_non_null(strstr(rl_db_errmsg(db), "99"));
		rl_db_close(db);
	}
}

/* A file of another program is refused, whatever its schema and
 * user_version, by every kind of opening, and left as it was. */
static void test_open_foreign(void **state)
{
	struct fixture *f = *state;
	static const char *const setups[] = {
		"CREATE TABLE x (y); PRAGMA user_version = 99",
		"CREATE TABLE tags (id); PRAGMA user_version = 7",
		"CREATE TABLE x (y); PRAGMA user_version = -1",
		"CREATE TABLE x (y); PRAGMA application_id = 1234",
		"PRAGMA application_id = 1234",
		"PRAGMA journal_mode = WAL; CREATE TABLE rulings (id)",
	};
	for (size_t i = 0; i < sizeof setups / sizeof *setups; i++) {
		unlink(f->path);
		sqlite3 *h = NULL;
		assert_int_equal(sqlite3_open(f->path, &h), SQLITE_OK);
		assert_int_equal(sqlite3_exec(h, setups[i], NULL, NULL, NULL),
		                 SQLITE_OK);
		sqlite3_close(h);
		size_t len0;
		char *before = test_read_file(f->path, &len0);
		for (int flags = RL_OPEN_READ; flags <= RL_OPEN_WRITE; flags++) {
			rl_db *db = NULL;
			assert_int_equal(rl_db_open(f->path, flags, &db), RL_EIO);
			assert_non_null(strstr(rl_db_errmsg(db), "not a rulings database"));
			rl_db_close(db);
		}
		size_t len1;
		char *after = test_read_file(f->path, &len1);
		assert_int_equal(len0, len1);
		assert_memory_equal(before, after, len0);
		free(before);
		free(after);
		char wal[256];
		snprintf(wal, sizeof wal, "%s-wal", f->path);
		assert_int_not_equal(access(wal, F_OK), 0);
	}
}

/* Another process's commit between two statements of one answer: a
 * connection of its own, writing when the reader's second statement
 * starts (issue 17 #7: stats counted rulings before and languages after
 * an import's commit). */
struct intruder {
	sqlite3 *h;
	int statements, at;
};

static void importing_one(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	sqlite3_result_int(ctx, 1);
}

static int intrude(unsigned type, void *ctx, void *p, void *x)
{
	struct intruder *in = ctx;
	if (++in->statements != in->at)
		return 0;
	int rc = sqlite3_exec(in->h,
		"INSERT INTO rulings (kind, key, lang, title, body)"
		" VALUES ('faq', 'intruder', 'en', 'Intruder', 'Body')",
		NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		print_error("intruder: %s\n", sqlite3_errmsg(in->h));
	assert_int_equal(rc, SQLITE_OK);
	return 0;
}

static void test_stats_one_snapshot(void **state)
{
	struct fixture *f = *state;
	struct intruder in = { .at = 2 };
	assert_int_equal(sqlite3_open(f->path, &in.h), SQLITE_OK);
	/* (it writes as rulings does: no trigger, no full-text row) */
	assert_int_equal(sqlite3_create_function(in.h, RL_TRIGGER_FN, 0,
		SQLITE_UTF8, NULL, importing_one, NULL, NULL), SQLITE_OK);
	assert_int_equal(rl_stemtok_register(in.h), SQLITE_OK);
	rl_db *reader = NULL;
	assert_int_equal(rl_db_open(f->path, RL_OPEN_READ, &reader), RL_OK);
	sqlite3_trace_v2(reader->h, SQLITE_TRACE_STMT, intrude, &in);
	struct rl_stats s;
	assert_int_equal(rl_stats(reader, &s), RL_OK);
	assert_true(in.statements > in.at);      /* the intruder wrote */
	long long by_lang = 0;
	for (size_t i = 0; i < s.nlanguages; i++)
		by_lang += s.languages[i].count;
	assert_int_equal(s.rulings, by_lang);
	rl_stats_clear(&s);
	/* the next answer sees the new ruling, whole */
	sqlite3_trace_v2(reader->h, 0, NULL, NULL);
	struct rl_stats t;
	assert_int_equal(rl_stats(reader, &t), RL_OK);
	by_lang = 0;
	for (size_t i = 0; i < t.nlanguages; i++)
		by_lang += t.languages[i].count;
	assert_int_equal(t.rulings, by_lang);
	assert_true(t.rulings > 0);
	rl_stats_clear(&t);
	rl_db_close(reader);
	sqlite3_close(in.h);
}

static void test_empty_database(void **state)
{
	struct fixture *f = *state;
	struct rl_stats s;
	get_stats(f->db, &s);
	assert_int_equal(s.rulings, 0);
	assert_int_equal(s.tags, 0);
	assert_int_equal(s.nlanguages, 0);
	rl_stats_clear(&s);
	struct rl_query q = {0};
	struct rl_results r;
	assert_int_equal(rl_search(f->db, &q, &r), RL_NOTFOUND);
	rl_results_free(&r);
}

/* ---- storing ----------------------------------------------------------- */

static void test_store_seeds(void **state)
{
	struct fixture *f = *state;
	struct rl_import_result a, b;
	store_seed(f, 0, &a);
	store_seed(f, 1, &b);
	assert_false(a.unchanged);
	assert_int_equal(a.entries, 18);
	assert_int_equal(a.added, 18);
	assert_int_equal(b.entries, 17);
	assert_int_equal(b.added, 17);
	assert_int_equal(a.edited + a.withdrawn + b.edited + b.withdrawn, 0);
	assert_true(a.import_id > 0);
	assert_true(b.import_id > a.import_id);

	struct rl_stats s;
	get_stats(f->db, &s);
	assert_int_equal(s.rulings, 35);
	assert_int_equal(s.sources, 2);
	assert_int_equal(s.imports, 2);
	assert_int_equal(s.games, 0);
	assert_true(s.tags > 0);
	assert_int_equal(s.nlanguages, 1);
	assert_int_equal(stat_count(s.languages, s.nlanguages, "en"), 35);
	assert_int_equal(stat_count(s.kinds, s.nkinds, "faq"), 34);
	assert_int_equal(stat_count(s.kinds, s.nkinds, "errata"), 1);
	rl_stats_clear(&s);
}

static void assert_same_stats(const struct rl_stats *a, const struct rl_stats *b)
{
	assert_int_equal(a->rulings, b->rulings);
	assert_int_equal(a->tags, b->tags);
	assert_int_equal(a->sources, b->sources);
	assert_int_equal(a->imports, b->imports);
	assert_int_equal(a->games, b->games);
}

static void test_store_again_changes_nothing(void **state)
{
	struct fixture *f = *state;
	struct rl_stats before, after;
	get_stats(f->db, &before);
	for (int i = 0; i < 2; i++) {
		struct rl_import_result res;
		store_seed(f, i, &res);
		assert_true(res.unchanged);
		assert_int_equal(res.added, 0);
		assert_int_equal(res.edited, 0);
		assert_int_equal(res.withdrawn, 0);
	}
	get_stats(f->db, &after);
	assert_int_equal(after.rulings, 35);
	assert_same_stats(&before, &after);
	rl_stats_clear(&before);
	rl_stats_clear(&after);
	assert_int_equal(count_tag(f->db, "Repeat"), 4);
}

static void test_store_same_content_other_bytes(void **state)
{
	/* CRLF line breaks: new bytes, the same rulings */
	struct fixture *f = *state;
	size_t len;
	char *lf = test_read_file(f->seed_path[0], &len);
	char *crlf = test_to_crlf(lf, false);
	struct rl_stats before, after;
	get_stats(f->db, &before);
	struct rl_import_result res;
	store_text(f->db, crlf, NULL, &res);
	assert_false(res.unchanged);
	assert_int_equal(res.entries, 18);
	assert_int_equal(res.added, 0);
	assert_int_equal(res.edited, 0);
	assert_int_equal(res.withdrawn, 0);
	get_stats(f->db, &after);
	assert_int_equal(after.rulings, before.rulings);
	assert_int_equal(after.tags, before.tags);
	assert_int_equal(after.sources, before.sources);
	assert_int_equal(after.imports, before.imports + 1);
	rl_stats_clear(&before);
	rl_stats_clear(&after);
	free(crlf);
	free(lf);
}

static void test_store_seen(void **state)
{
	struct fixture *f = *state;
	bool seen = true;
	assert_int_equal(rl_store_seen(f->db, f->seed_sha[0], &seen), RL_OK);
	assert_true(seen);
	assert_int_equal(rl_store_seen(f->db, f->seed_sha[1], &seen), RL_OK);
	assert_true(seen);
	static const char zeros[] =
		"0000000000000000000000000000000000000000000000000000000000000000";
	assert_int_equal(rl_store_seen(f->db, zeros, &seen), RL_OK);
	assert_false(seen);

	/* any import of a document counts, its latest or an older version:
	 * bytes imported before are unchanged (issue 17 #10) */
	struct rl_import_result res;
	static const char v1[] = "Alpha\n" B " Q?\n  One.\n  Tags: X\n";
	static const char v2[] = "Alpha\n" B " Q?\n  Two.\n  Tags: X\n";
	char sha1[65], sha2[65];
	struct rl_source src;
	struct rl_diags d = {0};
	assert_int_equal(rl_source_from_memory(&src, "v1", v1, strlen(v1), &d), 0);
	memcpy(sha1, src.sha256, sizeof sha1);
	rl_source_free(&src);
	assert_int_equal(rl_source_from_memory(&src, "v2", v2, strlen(v2), &d), 0);
	memcpy(sha2, src.sha256, sizeof sha2);
	rl_source_free(&src);
	assert_int_equal(rl_store_seen(f->db, sha1, &seen), RL_OK);
	assert_false(seen);
	store_text(f->db, v1, NULL, &res);
	assert_int_equal(rl_store_seen(f->db, sha1, &seen), RL_OK);
	assert_true(seen);
	store_text(f->db, v2, NULL, &res);
	assert_int_equal(res.edited, 1);
	assert_int_equal(rl_store_seen(f->db, sha1, &seen), RL_OK);
	assert_true(seen);
	assert_int_equal(rl_store_seen(f->db, sha2, &seen), RL_OK);
	assert_true(seen);
	/* storing the older version again changes nothing */
	store_text(f->db, v1, NULL, &res);
	assert_true(res.unchanged);
	assert_int_equal(res.edited, 0);
}

/* One document, one transaction: when an entry cannot be stored, nothing
 * of the document is. */
static void test_store_is_atomic(void **state)
{
	struct fixture *f = *state;
	struct rl_source src;
	struct rl_diags d = {0};
	static const char raw[] = "Broken\n";
	assert_int_equal(rl_source_from_memory(&src, "broken.txt", raw,
	                                       sizeof raw - 1, &d), RL_OK);
	struct rl_doc doc = {0};
	doc.format = strdup("faq-tags");
	doc.title = strdup("Broken");
	doc.lang = strdup("en");
	struct rl_entry *e = rl_doc_add_entry(&doc);
	assert_non_null(e);
	e->title = strdup("Good?");
	e->key = strdup("good?");
	e->text = strdup("Yes.");
	assert_int_equal(rl_entry_add_tag(e, "Tagged", NULL), RL_OK);
	e = rl_doc_add_entry(&doc);
	assert_non_null(e);
	e->title = strdup("Bad?");
	e->key = strdup("bad?");
	e->text = NULL;            /* the body column is NOT NULL */

	struct rl_import_result res;
	assert_int_not_equal(rl_store(f->db, &src, &doc, &res), RL_OK);
	struct rl_stats s;
	get_stats(f->db, &s);
	assert_int_equal(s.rulings, 0);
	assert_int_equal(s.tags, 0);
	assert_int_equal(s.sources, 0);
	assert_int_equal(s.imports, 0);
	rl_stats_clear(&s);

	/* the database is still usable, and the good half alone stores */
	doc.n = 1;
	assert_int_equal(rl_store(f->db, &src, &doc, &res), RL_OK);
	assert_int_equal(res.added, 1);
	doc.n = 2;
	rl_doc_free(&doc);
	rl_source_free(&src);
	assert_int_equal(count_tag(f->db, "tagged"), 1);
}

/* A ruling seen on two pages is stored once, with both pages' tags; it is
 * withdrawn when no page lists it any more: kept with its last links, but
 * out of search, stats and the tag list. */
static void test_shared_entry_and_removal(void **state)
{
	struct fixture *f = *state;
	static const char alpha[] =
		"Alpha\n" B " Shared question?\n  Same answer.\n  Tags: Common\n";
	static const char beta[] =
		"Beta\n" B " Shared question?\n  Same answer.\n  Tags: Common\n"
		B " Beta only?\n  Yes.\n  Tags: Lonely\n";
	static const char alpha2[] =
		"Alpha\n" B " Something else?\n  Yes.\n  Tags: Other\n";
	static const char beta2[] = "Beta\n" B " Beta only?\n  No.\n  Tags: Lonely\n";
	struct rl_import_result res;
	store_text(f->db, alpha, NULL, &res);
	assert_int_equal(res.added, 1);
	store_text(f->db, beta, NULL, &res);
	assert_int_equal(res.added, 1);     /* only "Beta only?" is new */

	struct rl_stats s;
	get_stats(f->db, &s);
	assert_int_equal(s.rulings, 2);
	assert_int_equal(s.sources, 2);
	rl_stats_clear(&s);
	long long id = only_id_with_tag(f->db, "common");
	assert_int_equal(only_id_with_tag(f->db, "alpha"), id);
	assert_int_equal(count_tag(f->db, "beta"), 2);

	struct rl_ruling r;
	assert_int_equal(rl_show(f->db, id, &r), RL_OK);
	assert_int_equal(r.ntags, 3);
	assert_string_equal(r.tags[0], "Alpha");
	assert_string_equal(r.tags[1], "Beta");
	assert_string_equal(r.tags[2], "Common");
	assert_int_equal(r.nsources, 2);
	assert_string_equal(r.sources[0].document, "Alpha");
	assert_string_equal(r.sources[1].document, "Beta");
	rl_ruling_clear(&r);

	/* Alpha no longer lists it: Beta still does */
	store_text(f->db, alpha2, NULL, &res);
	assert_int_equal(res.added, 1);
	assert_int_equal(res.withdrawn, 0);
	assert_int_equal(count_tag(f->db, "alpha"), 1);
	assert_int_not_equal(only_id_with_tag(f->db, "alpha"), id);
	assert_int_equal(rl_show(f->db, id, &r), RL_OK);
	assert_int_equal(r.nsources, 1);
	assert_string_equal(r.sources[0].document, "Beta");
	assert_false(has_string(r.tags, r.ntags, "Alpha"));
	rl_ruling_clear(&r);

	/* now nobody does: the ruling is withdrawn */
	store_text(f->db, beta2, NULL, &res);
	assert_int_equal(res.withdrawn, 1);
	assert_int_equal(res.edited, 1);     /* "Beta only?" answer changed */
	assert_int_equal(rl_show(f->db, id, &r), RL_OK);
	assert_int_equal(r.nsources, 1);     /* its last source is kept */
	rl_ruling_clear(&r);
	assert_int_equal(count_tag(f->db, "common"), 0);
	assert_false(has_tag(f->db, "Common"));
	assert_true(has_tag(f->db, "Lonely"));
	get_stats(f->db, &s);
	assert_int_equal(s.rulings, 2);
	assert_int_equal(s.withdrawn, 1);
	rl_stats_clear(&s);

	/* a new page lists it again: its document's first import (which
	 * inserts before it looks up) finds the withdrawn ruling, brings it
	 * back as added, and stores no second one */
	static const char gamma[] =
		"Gamma\n" B " Shared question?\n  Same answer.\n  Tags: Common\n";
	store_text(f->db, gamma, NULL, &res);
	assert_true(res.baseline);
	assert_int_equal(res.added, 1);
	assert_int_equal(only_id_with_tag(f->db, "gamma"), id);
	get_stats(f->db, &s);
	assert_int_equal(s.rulings, 3);     /* and "Something else?" */
	assert_int_equal(s.withdrawn, 0);
	rl_stats_clear(&s);
}

/* ---- searching --------------------------------------------------------- */

static void test_search_tag_repeat(void **state)
{
	struct fixture *f = *state;
	assert_int_equal(count_tag(f->db, "Repeat"), 4);
	assert_int_equal(count_tag(f->db, "repeat"), 4);
	assert_int_equal(count_tag(f->db, "REPEAT"), 4);
	assert_int_equal(count_tag(f->db, "Repea"), 0);
	assert_int_equal(count_tag(f->db, "No such tag"), 0);
}

static void test_search_tag_defend(void **state)
{
	struct fixture *f = *state;
	assert_int_equal(count_tag(f->db, "defend"), 17);
	assert_int_equal(count_tag(f->db, "Defend"), 17);
	/* every result carries the tag */
	const char *tags[] = { "defend" };
	struct rl_query q = { .tags = tags, .ntags = 1 };
	struct rl_results r;
	search(f->db, &q, &r);
	for (size_t i = 0; i < r.n; i++)
		assert_true(has_string(r.v[i].tags, r.v[i].ntags, "Defend"));
	rl_results_free(&r);
	/* a limit cuts the rows, not the total */
	q.limit = 5;
	search(f->db, &q, &r);
	assert_int_equal(r.n, 5);
	assert_int_equal(r.total, 17);
	rl_results_free(&r);
}

/* The ids a tag finds, sorted (rl_search orders by id without words). */
static size_t ids_for_tag(rl_db *db, const char *tag, long long *ids, size_t max)
{
	const char *tags[] = { tag };
	struct rl_query q = { .tags = tags, .ntags = 1 };
	struct rl_results r;
	search(db, &q, &r);
	assert_true(r.n <= max);
	for (size_t i = 0; i < r.n; i++)
		ids[i] = r.v[i].id;
	size_t n = r.n;
	rl_results_free(&r);
	return n;
}

static void test_search_tag_with_qualifier(void **state)
{
	struct fixture *f = *state;
	long long by_name[64], by_full[64], by_lower[64];
	size_t n1 = ids_for_tag(f->db, "Speed", by_name, 64);
	size_t n2 = ids_for_tag(f->db, "Speed (Fast/Slow)", by_full, 64);
	size_t n3 = ids_for_tag(f->db, "speed (FAST/slow)", by_lower, 64);
	assert_true(n1 > 0);
	assert_int_equal(n1, 18);
	assert_int_equal(n2, n1);
	assert_int_equal(n3, n1);
	assert_memory_equal(by_name, by_full, n1 * sizeof *by_name);
	assert_memory_equal(by_name, by_lower, n1 * sizeof *by_name);
	/* the wrong qualifier, or the qualifier alone, finds nothing */
	assert_int_equal(count_tag(f->db, "Speed (Fast)"), 0);
	assert_int_equal(count_tag(f->db, "Fast/Slow"), 0);
	assert_int_equal(count_tag(f->db, "(Fast/Slow)"), 0);
	/* qualified tags from Tags lines */
	assert_int_equal(count_tag(f->db, "Wind Aspect (Lightning's Swift Strike)"), 1);
	assert_int_equal(count_tag(f->db, "Wind Aspect"), 1);
	/* an empty tag matches nothing */
	assert_int_equal(count_tag(f->db, "  "), 0);
}

static void test_search_several_tags(void **state)
{
	struct fixture *f = *state;
	const char *tags[] = { "Repeat", "Speed" };
	struct rl_query q = { .tags = tags, .ntags = 2 };
	long long both = count(f->db, &q);
	assert_true(both > 0);
	assert_true(both <= 4);
	const char *none[] = { "Repeat", "Defend", "Speed" };
	q.tags = none;
	q.ntags = 3;
	assert_int_equal(count(f->db, &q), 0);
}

static void test_search_changed_only(void **state)
{
	struct fixture *f = *state;
	struct rl_query q = { .changed_only = true };
	struct rl_results r;
	search(f->db, &q, &r);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.total, 2);
	for (size_t i = 0; i < r.n; i++) {
		assert_true(r.v[i].changed);
		assert_null(strstr(r.v[i].text, "Changed answer"));
	}
	rl_results_free(&r);
	/* combined with a tag */
	const char *tags[] = { "Defend" };
	q.tags = tags;
	q.ntags = 1;
	assert_int_equal(count(f->db, &q), 1);
}

static void test_search_filters(void **state)
{
	struct fixture *f = *state;
	struct rl_query q = { .kind = "errata" };
	assert_int_equal(count(f->db, &q), 1);
	q = (struct rl_query){ .kind = "faq" };
	assert_int_equal(count(f->db, &q), 34);
	q = (struct rl_query){ .category = "power cards" };
	struct rl_results r;
	search(f->db, &q, &r);
	assert_int_equal(r.n, 9);
	for (size_t i = 0; i < r.n; i++)
		assert_string_equal(r.v[i].category, "Power Cards");
	rl_results_free(&r);
	q = (struct rl_query){ .lang = "en" };
	assert_int_equal(count(f->db, &q), 35);
	q = (struct rl_query){ .lang = "fr" };
	assert_int_equal(count(f->db, &q), 0);
	q = (struct rl_query){ .lang = "any" };
	assert_int_equal(count(f->db, &q), 35);
	q = (struct rl_query){ .game = "Spirit Island" };
	assert_int_equal(count(f->db, &q), 0);
}

static void test_search_words(void **state)
{
	struct fixture *f = *state;
	/* typed words are text, whatever FTS5 would make of them */
	static const char *const odd[][2] = {
		{ "don't", NULL }, { "first-strike", NULL }, { "NEAR(", NULL },
		{ "702.19a", NULL }, { "\"unbalanced", NULL }, { "Encompassing", "Ward" },
	};
	for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) {
		struct rl_query q = { .words = odd[i], .nwords = odd[i][1] ? 2 : 1 };
		struct rl_results r;
		int rc = rl_search(f->db, &q, &r);
		if (rc != RL_OK && rc != RL_NOTFOUND)
			fail_msg("searching '%s': %s", odd[i][0], rl_db_errmsg(f->db));
		rl_results_free(&r);
	}
	const char *dont[] = { "don't" };
	struct rl_query q = { .words = dont, .nwords = 1 };
	assert_true(count(f->db, &q) > 0);

	/* results carry a snippet of the answer, with the match marked when
	 * the answer has it (the title is shown anyway), best first */
	const char *ward[] = { "\"Encompassing", "Ward\"" };
	q = (struct rl_query){ .words = ward, .nwords = 2 };
	struct rl_results r;
	search(f->db, &q, &r);
	assert_true(r.n >= 2);
	size_t in_answer = 0;
	for (size_t i = 0; i < r.n; i++) {
		assert_non_null(r.v[i].snippet);
		char *low = strdup(r.v[i].text);
		assert_non_null(low);
		for (char *c = low; *c; c++)
			if (*c >= 'A' && *c <= 'Z')
				*c = (char)(*c + 32);
		bool has = strstr(low, "encompassing ward") != NULL;
		free(low);
		in_answer += has;
		if (has != (strstr(r.v[i].snippet, RL_SNIPPET_OPEN) != NULL))
			fail_msg("#%lld: the answer %s the words, the snippet [%s]",
			         r.v[i].id, has ? "has" : "lacks", r.v[i].snippet);
	}
	assert_true(in_answer < r.n);   /* a match in the question only */
	for (size_t i = 1; i < r.n; i++)
		assert_true(r.v[i - 1].score <= r.v[i].score);
	rl_results_free(&r);

	/* only punctuation: no query is run and nothing is found (whether
	 * that is a usage error or "not found" is the caller's concern) */
	const char *punct[] = { "--", "?!" };
	q = (struct rl_query){ .words = punct, .nwords = 2 };
	int rc = rl_search(f->db, &q, &r);
	assert_true(rc == RL_EUSAGE || rc == RL_NOTFOUND);
	assert_int_equal(r.n, 0);
	rl_results_free(&r);
	/* raw FTS5 syntax is checked, not trusted */
	const char *raw[] = { "NEAR(" };
	q = (struct rl_query){ .words = raw, .nwords = 1, .raw = true };
	assert_int_equal(rl_search(f->db, &q, &r), RL_EUSAGE);
	rl_results_free(&r);
}

/* ---- showing ----------------------------------------------------------- */

static void test_show(void **state)
{
	struct fixture *f = *state;
	const struct rl_query q = { .kind = "errata" };
	struct rl_results res;
	search(f->db, &q, &res);
	assert_int_equal(res.n, 1);
	long long id = res.v[0].id;
	rl_results_free(&res);

	struct rl_ruling r;
	assert_int_equal(rl_show(f->db, id, &r), RL_OK);
	assert_int_equal(r.id, id);
	assert_string_equal(r.kind, "errata");
	assert_string_equal(r.lang, "en");
	assert_null(r.game);
	assert_string_equal(r.title, "Branch & Claw - 3rd printing");
	assert_string_equal(r.section, "Errata / Updates");
	assert_string_equal(r.category, "Effect Rules");
	assert_false(r.changed);
	/* tags: the listed ones and the page's own, sorted, once each */
	assert_int_equal(r.ntags, 2);
	assert_string_equal(r.tags[0], "Defend");
	assert_string_equal(r.tags[1], "Rulebook");
	assert_int_equal(r.nsources, 1);
	assert_string_equal(r.sources[0].document, "Defend");
	assert_string_equal(r.sources[0].path, f->seed_path[1]);
	assert_int_equal(r.sources[0].line, 7);
	assert_int_equal(r.sources[0].hidden_tags, -1);
	assert_non_null(r.errata);
	assert_string_equal(r.errata->product, "Branch & Claw");
	assert_string_equal(r.errata->printing, "3rd printing");
	assert_string_equal(r.errata->document, "B&C rulebook");
	assert_string_equal(r.errata->page, "15");
	rl_ruling_clear(&r);
	assert_null(r.title);

	/* a ruling with a qualified tag, a discussion reference, a count of
	 * hidden tags */
	id = only_id_with_tag(f->db, "Wind Aspect (Lightning's Swift Strike)");
	assert_int_equal(rl_show(f->db, id, &r), RL_OK);
	assert_string_equal(r.kind, "faq");
	assert_int_equal(r.ntags, 2);
	assert_string_equal(r.tags[0], "Speed (Fast/Slow)");
	assert_string_equal(r.tags[1], "Wind Aspect (Lightning's Swift Strike)");
	assert_null(r.errata);
	assert_int_equal(r.nrefs, 1);
	assert_string_equal(r.refs[0].kind, "discussion");
	assert_int_equal(r.nsources, 1);
	assert_string_equal(r.sources[0].document, "Speed (Fast/Slow)");
	assert_int_equal(r.sources[0].line, 7);
	rl_ruling_clear(&r);

	id = only_id_with_tag(f->db, "Intensify Aspect (Shifting Memory of Ages)");
	assert_int_equal(rl_show(f->db, id, &r), RL_OK);
	assert_int_equal(r.hidden_tags, 0);
	assert_int_equal(r.sources[0].hidden_tags, 0);
	rl_ruling_clear(&r);
}

static void test_show_missing(void **state)
{
	struct fixture *f = *state;
	struct rl_ruling r;
	assert_int_equal(rl_show(f->db, 999999, &r), RL_NOTFOUND);
	assert_null(r.title);
	assert_int_equal(r.ntags, 0);
	assert_int_equal(rl_show(f->db, 0, &r), RL_NOTFOUND);
	assert_int_equal(rl_show(f->db, -1, &r), RL_NOTFOUND);
}

/* ---- other scripts ----------------------------------------------------- */

/* "Атака" (attack): a page and a ruling tagged in Russian. */
static const char RU[] =
	"\xD0\x90\xD1\x82\xD0\xB0\xD0\xBA\xD0\xB0\n\n"                  /* Атака */
	B " \xD0\x9C\xD0\xBE\xD0\xB6\xD0\xBD\xD0\xBE \xD0\xBB\xD0\xB8 "
	"\xD0\xB0\xD1\x82\xD0\xB0\xD0\xBA\xD0\xBE\xD0\xB2\xD0\xB0\xD1\x82\xD1\x8C?\n"
	"  \xD0\x94\xD0\xB0, \xD0\xBC\xD0\xBE\xD0\xB6\xD0\xBD\xD0\xBE.\n"
	"  Tags: \xD0\xA3\xD0\xB4\xD0\xB0\xD1\x80 "                      /* Удар */
	"(\xD0\x91\xD1\x8B\xD1\x81\xD1\x82\xD1\x80\xD1\x8B\xD0\xB9), "  /* (Быстрый) */
	"\xD0\x81\xD0\xBB\xD0\xBA\xD0\xB0\n";                            /* Ёлка */

static void test_cyrillic_tags(void **state)
{
	struct fixture *f = *state;
	struct rl_import_result res;
	static const struct rl_import_opts opts = { .game = "Berserk" };
	store_text(f->db, RU, &opts, &res);
	assert_int_equal(res.added, 1);

	assert_int_equal(count_tag(f->db, "\xD0\x90\xD1\x82\xD0\xB0\xD0\xBA\xD0\xB0"), 1);
	/* атака, АТАКА */
	assert_int_equal(count_tag(f->db, "\xD0\xB0\xD1\x82\xD0\xB0\xD0\xBA\xD0\xB0"), 1);
	assert_int_equal(count_tag(f->db, "\xD0\x90\xD0\xA2\xD0\x90\xD0\x9A\xD0\x90"), 1);
	/* удар (БЫСТРЫЙ), and the name alone */
	assert_int_equal(count_tag(f->db, "\xD1\x83\xD0\xB4\xD0\xB0\xD1\x80 (\xD0\x91"
	                           "\xD0\xAB\xD0\xA1\xD0\xA2\xD0\xA0\xD0\xAB\xD0\x99)"), 1);
	assert_int_equal(count_tag(f->db, "\xD1\x83\xD0\xB4\xD0\xB0\xD1\x80"), 1);
	/* ёлка and елка find Ёлка */
	assert_int_equal(count_tag(f->db, "\xD1\x91\xD0\xBB\xD0\xBA\xD0\xB0"), 1);
	assert_int_equal(count_tag(f->db, "\xD0\xB5\xD0\xBB\xD0\xBA\xD0\xB0"), 1);

	struct rl_query q = { .lang = "ru" };
	assert_int_equal(count(f->db, &q), 1);
	q = (struct rl_query){ .game = "berserk" };
	assert_int_equal(count(f->db, &q), 1);
	q = (struct rl_query){ .game = "Berserk", .lang = "en" };
	assert_int_equal(count(f->db, &q), 0);

	long long id = only_id_with_tag(f->db, "\xD0\xB0\xD1\x82\xD0\xB0\xD0\xBA\xD0\xB0");
	struct rl_ruling r;
	assert_int_equal(rl_show(f->db, id, &r), RL_OK);
	assert_string_equal(r.game, "Berserk");
	assert_string_equal(r.lang, "ru");
	assert_true(has_string(r.tags, r.ntags, "\xD0\x90\xD1\x82\xD0\xB0\xD0\xBA\xD0\xB0"));
	rl_ruling_clear(&r);

	struct rl_stats s;
	get_stats(f->db, &s);
	assert_int_equal(s.games, 1);
	assert_int_equal(stat_count(s.languages, s.nlanguages, "ru"), 1);
	rl_stats_clear(&s);
}

/* ---- bulk loads --------------------------------------------------------- */

/* rowid and text of trigger name in sqlite_schema; rowid 0 if missing */
static long long trigger_row(rl_db *db, const char *name, char *sql,
                             size_t cap)
{
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(db->h, "SELECT rowid, sql FROM"
	                 " sqlite_schema WHERE type = 'trigger' AND name = ?1",
	                 -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	long long rowid = 0;
	if (sqlite3_step(st) == SQLITE_ROW) {
		rowid = sqlite3_column_int64(st, 0);
		snprintf(sql, cap, "%s", (const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	return rowid;
}

/* A bulk load sets the two INSERT triggers on rulings aside, as the
 * schema's migrations made them (their text found in the embedded
 * schema/ *.sql, not in a copy in C that a changed schema file would
 * leave behind: then every INSERT kept its statement journal), and puts
 * back the very text and rowid sqlite_schema held, on commit and on
 * rollback. */
static void test_bulk_sets_triggers_aside(void **state)
{
	struct fixture *f = *state;
	static const char *const names[] = { "rulings_fts_insert", "topk_insert" };
	char before[2][2048], after[2048];
	long long rowid[2];
	for (int i = 0; i < 2; i++)
		assert_true((rowid[i] = trigger_row(f->db, names[i], before[i],
		                                    sizeof before[i])) != 0);

	for (int commit = 0; commit < 2; commit++) {
		assert_int_equal(rl_bulk_begin(f->db), RL_OK);
		for (int i = 0; i < 2; i++)
			assert_int_equal(trigger_row(f->db, names[i], after,
			                             sizeof after), 0);
		struct rl_import_result res;
		static const struct rl_import_opts opts = { .game = "Spirit Island" };
		store_text(f->db, "Repeat\n\n" B " Can I repeat it?\n  Yes.\n"
		           "  Tags: Repeat\n", &opts, &res);
		assert_int_equal(rl_bulk_end(f->db, commit), RL_OK);
		for (int i = 0; i < 2; i++) {
			assert_int_equal(trigger_row(f->db, names[i], after,
			                             sizeof after), rowid[i]);
			assert_string_equal(after, before[i]);
		}
	}
}

/* A trigger of one of those names whose text is not the one the schema
 * makes is a user's own (here topk_insert that also keeps an audit of
 * new rulings): a bulk load leaves it in place, so that it does for each
 * ruling what it does outside a bulk load, and it is still there, the
 * same, afterwards. Set aside by name alone, it was dropped for the load:
 * no audit row for the rulings loaded in bulk. */
static void test_bulk_keeps_own_triggers(void **state)
{
	struct fixture *f = *state;
	static const char own[] =
		"CREATE TRIGGER topk_insert AFTER INSERT ON rulings BEGIN\n"
		"  INSERT OR IGNORE INTO topk_dirty (rid) VALUES (new.id);\n"
		"  INSERT INTO audit (rid) VALUES (new.id);\n"
		"END";
	char sql[512];
	snprintf(sql, sizeof sql, "CREATE TABLE audit (rid INTEGER);"
	         " DROP TRIGGER topk_insert; %s;", own);
	assert_int_equal(sqlite3_exec(f->db->h, sql, NULL, NULL, NULL),
	                 SQLITE_OK);
	char before[2048], after[2048];
	long long rowid = trigger_row(f->db, "topk_insert", before,
	                              sizeof before);
	assert_true(rowid != 0);
	assert_string_equal(before, own);

	for (int commit = 0; commit < 2; commit++) {
		assert_int_equal(rl_bulk_begin(f->db), RL_OK);
		/* there while the load writes */
		assert_int_equal(trigger_row(f->db, "topk_insert", after,
		                             sizeof after), rowid);
		struct rl_import_result res;
		static const struct rl_import_opts opts = { .game = "Spirit Island" };
		store_text(f->db, commit ? "Isolate\n\n" B " Does it isolate?\n"
		           "  Yes.\n  Tags: Isolate\n" : "Repeat\n\n" B
		           " Can I repeat it?\n  Yes.\n  Tags: Repeat\n", &opts,
		           &res);
		assert_int_equal(res.added, 1);
		assert_int_equal(rl_bulk_end(f->db, commit), RL_OK);
		assert_int_equal(trigger_row(f->db, "topk_insert", after,
		                             sizeof after), rowid);
		assert_string_equal(after, before);
	}
	/* the ruling loaded and committed has its audit row, as one imported
	 * outside a bulk load would */
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(f->db->h, "SELECT (SELECT count(*)"
	                 " FROM audit), (SELECT count(*) FROM rulings r WHERE"
	                 " r.id IN (SELECT rid FROM audit))", -1, &st, NULL),
	                 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), 1);
	assert_int_equal(sqlite3_column_int(st, 1), 1);
	sqlite3_finalize(st);
}

/* ---- what a bulk load writes to SQLite's sub-journal -------------------- */

/* A VFS over the default one that counts the writes to the sub-journal:
 * the temporary file where SQLite copies each page a statement or a
 * savepoint changes, to undo it (with SQLITE_CONFIG_STMTJRNL_SPILL 0, set
 * in main(), it is a file from its first page). */
struct sj_file {
	sqlite3_file base;
	sqlite3_file *real;     /* right after this structure */
};
static sqlite3_vfs *sj_real;
static long sj_writes;
#define SJ(f) (((struct sj_file *)(f))->real)

static int sj_close(sqlite3_file *f) { return SJ(f)->pMethods->xClose(SJ(f)); }
static int sj_read(sqlite3_file *f, void *b, int n, sqlite3_int64 o)
{
	return SJ(f)->pMethods->xRead(SJ(f), b, n, o);
}
static int sj_write(sqlite3_file *f, const void *b, int n, sqlite3_int64 o)
{
	sj_writes++;
	return SJ(f)->pMethods->xWrite(SJ(f), b, n, o);
}
static int sj_truncate(sqlite3_file *f, sqlite3_int64 n)
{
	return SJ(f)->pMethods->xTruncate(SJ(f), n);
}
static int sj_sync(sqlite3_file *f, int x) { return SJ(f)->pMethods->xSync(SJ(f), x); }
static int sj_size(sqlite3_file *f, sqlite3_int64 *n)
{
	return SJ(f)->pMethods->xFileSize(SJ(f), n);
}
static int sj_lock(sqlite3_file *f, int x) { return SJ(f)->pMethods->xLock(SJ(f), x); }
static int sj_unlock(sqlite3_file *f, int x) { return SJ(f)->pMethods->xUnlock(SJ(f), x); }
static int sj_check(sqlite3_file *f, int *x)
{
	return SJ(f)->pMethods->xCheckReservedLock(SJ(f), x);
}
static int sj_control(sqlite3_file *f, int op, void *a)
{
	return SJ(f)->pMethods->xFileControl(SJ(f), op, a);
}
static int sj_sector(sqlite3_file *f) { return SJ(f)->pMethods->xSectorSize(SJ(f)); }
static int sj_device(sqlite3_file *f)
{
	return SJ(f)->pMethods->xDeviceCharacteristics(SJ(f));
}
static const sqlite3_io_methods sj_io = {
	.iVersion = 1, .xClose = sj_close, .xRead = sj_read, .xWrite = sj_write,
	.xTruncate = sj_truncate, .xSync = sj_sync, .xFileSize = sj_size,
	.xLock = sj_lock, .xUnlock = sj_unlock, .xCheckReservedLock = sj_check,
	.xFileControl = sj_control, .xSectorSize = sj_sector,
	.xDeviceCharacteristics = sj_device,
};

static int sj_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file,
                   int flags, int *out)
{
	(void)vfs;
	if (!(flags & SQLITE_OPEN_SUBJOURNAL))   /* the others: as they are */
		return sj_real->xOpen(sj_real, name, file, flags, out);
	struct sj_file *f = (struct sj_file *)file;
	f->real = (sqlite3_file *)&f[1];
	int rc = sj_real->xOpen(sj_real, name, f->real, flags, out);
	f->base.pMethods = f->real->pMethods ? &sj_io : NULL;
	return rc;
}

/* n entries of one FAQ page titled title, their questions spread over the
 * identity index (the key is the question's): a malloc'd text */
static char *faq_page(const char *title, int n, unsigned seed)
{
	size_t cap = 64 + (size_t)n * 96;
	char *t = malloc(cap);
	assert_non_null(t);
	size_t len = (size_t)snprintf(t, cap, "%s\n\n", title);
	for (int i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		len += (size_t)snprintf(t + len, cap - len, B " May the %08x"
		                        " card be played twice?\n  Yes, say %s.\n"
		                        "  Tags: %s\n", seed, title, title);
	}
	return t;
}

/* In a bulk load, a document new to the database is stored without a
 * savepoint of its own and its version and listing rows without INSERT
 * OR REPLACE: what it copies to the sub-journal does not grow with its
 * entries (it was about 9 pages an entry: 5.4 GB of temporary-file writes
 * at 100k, bench/RESULTS.md). Its documents are whole all the same: the
 * import's refusal of one in the middle of a group is cli-bulk's. */
static void test_bulk_keeps_no_journal(void **state)
{
	struct fixture *f = *state;
	static sqlite3_vfs vfs;
	sj_real = sqlite3_vfs_find(NULL);
	assert_non_null(sj_real);
	vfs = *sj_real;
	vfs.zName = "rulings-test-subjournal";
	vfs.szOsFile = (int)sizeof(struct sj_file) + sj_real->szOsFile;
	vfs.xOpen = sj_open;
	vfs.pNext = NULL;
	assert_int_equal(sqlite3_vfs_register(&vfs, 1), SQLITE_OK);
	rl_db_close(f->db);
	open_db(f);

	static const struct rl_import_opts opts = { .game = "Spirit Island" };
	struct rl_import_result res;
	long writes[3];
	static const int entries[3] = { 400, 20, 400 };
	assert_int_equal(rl_bulk_begin(f->db), RL_OK);
	for (int i = 0; i < 3; i++) {
		char title[32];
		snprintf(title, sizeof title, "Page %d", i);
		char *text = faq_page(title, entries[i], 7u + (unsigned)i);
		long before = sj_writes;
		store_text(f->db, text, &opts, &res);
		writes[i] = sj_writes - before;
		assert_int_equal(res.added, entries[i]);
		free(text);
	}
	assert_int_equal(rl_bulk_end(f->db, true), RL_OK);
	rl_db_close(f->db);
	f->db = NULL;
	sqlite3_vfs_unregister(&vfs);
	open_db(f);
	/* 20 entries or 400 on top of 420: the same writes (the document's,
	 * its import's rows) */
	print_message("sub-journal writes: %ld (20 entries), %ld (400)\n",
	              writes[1], writes[2]);
	assert_int_equal(writes[2], writes[1]);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(f->db->h, "SELECT count(*) FROM"
	                 " rulings", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int64(st, 0), 820);
	sqlite3_finalize(st);
}

int main(void)
{
	/* statement journals and savepoints' copies: files from their first
	 * page, where test_bulk_keeps_no_journal counts them */
	if (sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, 0) != SQLITE_OK)
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_open_creates_database,
		                                setup_dir, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_from_version_1,
		                                setup_dir, teardown),
		cmocka_unit_test_setup_teardown(test_open_read_missing,
		                                setup_dir, teardown),
		cmocka_unit_test_setup_teardown(test_open_not_a_database,
		                                setup_dir, teardown),
		cmocka_unit_test_setup_teardown(test_open_foreign, setup_dir,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_open_future_schema,
		                                setup_dir, teardown),
		cmocka_unit_test_setup_teardown(test_empty_database, setup_db, teardown),
		cmocka_unit_test_setup_teardown(test_stats_one_snapshot,
		                                setup_seeded, teardown),
		cmocka_unit_test_setup_teardown(test_store_seeds, setup_db, teardown),
		cmocka_unit_test_setup_teardown(test_store_again_changes_nothing,
		                                setup_seeded, teardown),
		cmocka_unit_test_setup_teardown(test_store_same_content_other_bytes,
		                                setup_seeded, teardown),
		cmocka_unit_test_setup_teardown(test_store_seen, setup_seeded, teardown),
		cmocka_unit_test_setup_teardown(test_store_is_atomic, setup_db, teardown),
		cmocka_unit_test_setup_teardown(test_shared_entry_and_removal,
		                                setup_db, teardown),
		cmocka_unit_test_setup_teardown(test_search_tag_repeat,
		                                setup_seeded, teardown),
		cmocka_unit_test_setup_teardown(test_search_tag_defend,
		                                setup_seeded, teardown),
		cmocka_unit_test_setup_teardown(test_search_tag_with_qualifier,
		                                setup_seeded, teardown),
		cmocka_unit_test_setup_teardown(test_search_several_tags,
		                                setup_seeded, teardown),
		cmocka_unit_test_setup_teardown(test_search_changed_only,
		                                setup_seeded, teardown),
		cmocka_unit_test_setup_teardown(test_search_filters,
		                                setup_seeded, teardown),
		cmocka_unit_test_setup_teardown(test_search_words,
		                                setup_seeded, teardown),
		cmocka_unit_test_setup_teardown(test_show, setup_seeded, teardown),
		cmocka_unit_test_setup_teardown(test_show_missing,
		                                setup_seeded, teardown),
		cmocka_unit_test_setup_teardown(test_cyrillic_tags, setup_db, teardown),
		cmocka_unit_test_setup_teardown(test_bulk_sets_triggers_aside,
		                                setup_db, teardown),
		cmocka_unit_test_setup_teardown(test_bulk_keeps_own_triggers,
		                                setup_db, teardown),
		cmocka_unit_test_setup_teardown(test_bulk_keeps_no_journal,
		                                setup_db, teardown),
	};
	return cmocka_run_group_tests_name("store", tests, NULL, NULL);
}
