/* test_xml.c — the XML interchange format: rl_export_xml() and the
 * xml-interchange importer, end to end through the library.
 *
 * The round trip: the seed documents (data/) into a database, every
 * ruling exported, the file checked against schema/rulings.rng (libxml2,
 * and xmllint when $XMLLINT names it), imported into an empty database
 * (the same rulings, tags, aliases, references, errata and texts), and
 * exported again: the same bytes but for the provenance (<source> and
 * <version>), which names the documents each database read. */
#include "helpers.h"
#include "doc.h"

#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/tree.h>
#include <sqlite3.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef RL_TEST_SCHEMA
#define RL_TEST_SCHEMA "schema/rulings.rng"
#endif

struct fixture {
	char dir[64];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	assert_non_null(f);
	snprintf(f->dir, sizeof f->dir, "/tmp/rl-xml-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	test_remove_tree(f->dir);
	free(f);
	return 0;
}

static char *path_in(const struct fixture *f, const char *name)
{
	size_t n = strlen(f->dir) + strlen(name) + 2;
	char *p = malloc(n);
	assert_non_null(p);
	snprintf(p, n, "%s/%s", f->dir, name);
	return p;
}

static rl_db *open_db(const char *path)
{
	rl_db *db;
	if (rl_db_open(path, RL_OPEN_WRITE, &db) != RL_OK)
		fail_msg("rl_db_open: %s", rl_db_errmsg(db));
	return db;
}

/* Imports one file; returns its status. */
static int import_file(rl_db *db, const char *path)
{
	struct rl_file_report rep;
	int rc = rl_import_file(db, path, NULL, 0, &rep);
	for (size_t i = 0; rc && i < rep.diags.n; i++)
		print_message("%s:%u: %s\n", path, rep.diags.v[i].line,
		              rep.diags.v[i].message);
	if (rc && rep.error)
		fail_msg("rl_import_file '%s': %s", path, rep.error);
	rl_file_report_clear(&rep);
	return rc;
}

/* Every file of the data directory: the seed documents. */
static void import_seeds(rl_db *db)
{
	const char *dir = test_data_dir();
	struct rl_import_run run = {0};
	struct rl_import_summary sum;
	assert_int_equal(rl_import_paths(db, &dir, 1, &run, &sum), RL_OK);
	assert_true(sum.imported >= 5);
	assert_int_equal(sum.failed + sum.skipped, 0);
}

/* A second connection, for reading what the library wrote. */
static sqlite3 *raw_open(const char *path)
{
	sqlite3 *h;
	assert_int_equal(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL),
	                 SQLITE_OK);
	return h;
}

/* The ids of every ruling, in id order. */
static long long *all_ids(const char *dbpath, size_t *n)
{
	sqlite3 *h = raw_open(dbpath);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(h, "SELECT id FROM rulings ORDER BY id",
	                                    -1, &st, NULL), SQLITE_OK);
	long long *ids = NULL;
	size_t cap = 0;
	*n = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			ids = realloc(ids, cap * sizeof *ids);
			assert_non_null(ids);
		}
		ids[(*n)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	sqlite3_close(h);
	return ids;
}

/* What the database holds about its rulings, ids aside, one line a
 * ruling, in identity order: every field, the tags, aliases, references
 * and errata. */
static char *dump(const char *dbpath)
{
	static const char sql[] =
		"SELECT json_array(g.name, r.kind, r.lang, r.key, r.rule, r.title,"
		" r.body, r.section, r.category, r.changed, r.date, r.author,"
		" (SELECT json_group_array(json_array(name, qualifier)) FROM"
		"   (SELECT t.name, t.qualifier FROM tags t WHERE t.id IN (SELECT"
		"    tag_id FROM ruling_tags WHERE ruling_id = r.id)"
		"    ORDER BY t.name_fold, t.qual_fold)),"
		" (SELECT json_group_array(alias_fold) FROM (SELECT alias_fold"
		"   FROM ruling_aliases WHERE ruling_id = r.id ORDER BY 1)),"
		" (SELECT json_group_array(json_array(kind, target)) FROM"
		"   (SELECT kind, target FROM refs WHERE ruling_id = r.id"
		"    ORDER BY id)),"
		" (SELECT json_array(product, printing, document, page)"
		"   FROM errata WHERE ruling_id = r.id))"
		" FROM rulings r LEFT JOIN games g ON g.id = r.game_id"
		" ORDER BY g.name, r.kind, r.lang, r.key";
	sqlite3 *h = raw_open(dbpath);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("dump: %s", sqlite3_errmsg(h));
	size_t len = 0, cap = 1 << 16;
	char *out = malloc(cap);
	assert_non_null(out);
	out[0] = '\0';
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *row = (const char *)sqlite3_column_text(st, 0);
		size_t k = strlen(row);
		while (len + k + 2 > cap) {
			cap *= 2;
			out = realloc(out, cap);
			assert_non_null(out);
		}
		memcpy(out + len, row, k);
		len += k;
		out[len++] = '\n';
		out[len] = '\0';
	}
	sqlite3_finalize(st);
	sqlite3_close(h);
	return out;
}

/* Validates a file against the schema file of the source tree. */
static void assert_valid(const char *path)
{
	xmlRelaxNGParserCtxtPtr pc = xmlRelaxNGNewParserCtxt(RL_TEST_SCHEMA);
	assert_non_null(pc);
	xmlRelaxNGPtr schema = xmlRelaxNGParse(pc);
	assert_non_null(schema);
	xmlRelaxNGValidCtxtPtr vc = xmlRelaxNGNewValidCtxt(schema);
	assert_non_null(vc);
	xmlDocPtr x = xmlReadFile(path, NULL, XML_PARSE_NONET);
	assert_non_null(x);
	assert_int_equal(xmlRelaxNGValidateDoc(vc, x), 0);
	xmlFreeDoc(x);
	xmlRelaxNGFreeValidCtxt(vc);
	xmlRelaxNGFree(schema);
	xmlRelaxNGFreeParserCtxt(pc);

	/* xmllint, the reference tool, when the build found it */
	const char *xmllint = getenv("XMLLINT");
	if (!xmllint || !*xmllint) {
		print_message("xmllint not given ($XMLLINT): checked with libxml2 only\n");
		return;
	}
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execl(xmllint, "xmllint", "--noout", "--nonet", "--relaxng",
		      RL_TEST_SCHEMA, path, (char *)NULL);
		_exit(127);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* A file's tree without its <source> and <version> elements, serialized. */
static char *without_provenance(const char *path, size_t *removed)
{
	xmlDocPtr x = xmlReadFile(path, NULL, XML_PARSE_NONET);
	assert_non_null(x);
	for (xmlNodePtr r = xmlDocGetRootElement(x)->children; r; r = r->next) {
		xmlNodePtr c = r->children;
		while (c) {
			xmlNodePtr next = c->next;
			if (c->type == XML_ELEMENT_NODE &&
			    (!strcmp((const char *)c->name, "source") ||
			     !strcmp((const char *)c->name, "version"))) {
				xmlUnlinkNode(c);
				xmlFreeNode(c);
				(*removed)++;
			}
			c = next;
		}
	}
	xmlChar *mem;
	int size;
	xmlDocDumpMemory(x, &mem, &size);
	assert_non_null(mem);
	char *s = strdup((const char *)mem);
	xmlFree(mem);
	xmlFreeDoc(x);
	return s;
}

static void export_all(rl_db *db, const char *dbpath, const char *out,
                       size_t *n)
{
	long long *ids = all_ids(dbpath, n);
	assert_true(*n > 0);
	if (rl_export_xml(db, ids, *n, out) != RL_OK)
		fail_msg("rl_export_xml: %s", rl_db_errmsg(db));
	free(ids);
}

static void test_round_trip(void **state)
{
	struct fixture *f = *state;
	char *db1p = path_in(f, "one.db"), *db2p = path_in(f, "two.db");
	char *x1 = path_in(f, "one.xml"), *x2 = path_in(f, "two.xml");
	rl_db *db1 = open_db(db1p);
	import_seeds(db1);
	size_t n1, n2;
	export_all(db1, db1p, x1, &n1);
	assert_valid(x1);

	rl_db *db2 = open_db(db2p);
	assert_int_equal(import_file(db2, x1), RL_OK);
	char *d1 = dump(db1p), *d2 = dump(db2p);
	assert_string_equal(d1, d2);
	/* several games, languages and kinds went through one file */
	assert_non_null(strstr(d1, "[\"Spirit Island\""));
	assert_non_null(strstr(d1, "\"ru\""));
	assert_non_null(strstr(d1, "\"fr\""));

	export_all(db2, db2p, x2, &n2);
	assert_int_equal(n1, n2);
	assert_valid(x2);
	size_t r1 = 0, r2 = 0;
	char *s1 = without_provenance(x1, &r1), *s2 = without_provenance(x2, &r2);
	assert_true(r1 >= 2 * n1);      /* a source and a version each, at least */
	assert_true(r2 >= 2 * n2);
	assert_string_equal(s1, s2);

	/* the same bytes again: nothing to store */
	struct rl_source src;
	struct rl_diags d = {0};
	struct rl_doc doc;
	static const struct rl_import_opts none = {0};
	struct rl_import_result res;
	assert_int_equal(rl_source_load(&src, x1, &d), RL_OK);
	assert_int_equal(rl_parse(&src, &none, &doc, &d), RL_OK);
	assert_int_equal(rl_store(db2, &src, &doc, &res), RL_OK);
	assert_true(res.unchanged);
	rl_doc_free(&doc);
	rl_source_free(&src);
	rl_diags_clear(&d);

	free(s1); free(s2); free(d1); free(d2);
	rl_db_close(db1);
	rl_db_close(db2);
	free(db1p); free(db2p); free(x1); free(x2);
}

/* Stores one hand-made ruling with text and tag; returns its id. */
static long long store_one(rl_db *db, const char *dbpath, const char *title,
                           const char *text, const char *tag)
{
	struct rl_doc doc = {0};
	doc.format = strdup("faq-tags");
	doc.title = strdup("hostile");
	doc.lang = strdup("en");
	doc.game = strdup("Test");   /* importing its export needs a game */
	struct rl_entry *e = rl_doc_add_entry(&doc);
	assert_non_null(e);
	e->kind = RL_KIND_FAQ;
	e->line = 1;
	e->key = rl_key(title);
	e->title = strdup(title);
	e->text = strdup(text);
	e->section = strdup("Sec <b>");
	assert_int_equal(rl_entry_add_tag(e, tag, "q \"&\" <'>"), RL_OK);
	assert_int_equal(rl_entry_add_ref(e, RL_REF_URL, "http://x/?a=1&b=<2>"),
	                 RL_OK);
	struct rl_source src;
	struct rl_diags d = {0};
	assert_int_equal(rl_source_from_memory(&src, "hostile.txt", title,
	                                       strlen(title), &d), RL_OK);
	struct rl_import_result res;
	if (rl_store(db, &src, &doc, &res) != RL_OK)
		fail_msg("rl_store: %s", rl_db_errmsg(db));
	rl_source_free(&src);
	rl_doc_free(&doc);
	size_t n;
	long long *ids = all_ids(dbpath, &n);
	assert_int_equal(n, 1);
	long long id = ids[0];
	free(ids);
	return id;
}

static const char HOSTILE_TEXT[] =
	"<script>alert(1)</script> <img src=x onerror=alert(2)>\n"
	"  \"double\" 'single' & &amp; ]]> <![CDATA[x]]> <!-- c -->\n"
	"\ttab, CR\r\nLF, trailing spaces   \n"
	"\xD0\x81\xD0\xBB\xD0\xBA\xD0\xB0 \xF0\x9F\x8E\xB2 \xC3\xA9";

/* Markup in texts, attributes and tags is data: written escaped, read
 * back byte for byte. */
static void test_hostile_content(void **state)
{
	struct fixture *f = *state;
	char *db1p = path_in(f, "one.db"), *db2p = path_in(f, "two.db");
	char *x1 = path_in(f, "h.xml");
	rl_db *db1 = open_db(db1p);
	long long id = store_one(db1, db1p, "What about <b>&\"'</b>?",
	                         HOSTILE_TEXT, "../../x");
	assert_int_equal(rl_export_xml(db1, &id, 1, x1), RL_OK);
	assert_valid(x1);
	size_t len;
	char *raw = test_read_file(x1, &len);
	assert_null(strstr(raw, "<script"));
	assert_null(strstr(raw, "<img"));
	assert_null(strstr(raw, "<b>"));
	free(raw);

	rl_db *db2 = open_db(db2p);
	assert_int_equal(import_file(db2, x1), RL_OK);
	char *d1 = dump(db1p), *d2 = dump(db2p);
	assert_string_equal(d1, d2);
	struct rl_ruling r;
	size_t n;
	long long *ids = all_ids(db2p, &n);
	assert_int_equal(n, 1);
	assert_int_equal(rl_show(db2, ids[0], &r), RL_OK);
	assert_string_equal(r.text, HOSTILE_TEXT);
	assert_string_equal(r.title, "What about <b>&\"'</b>?");
	assert_int_equal(r.ntags, 1);
	assert_string_equal(r.tags[0], "../../x (q \"&\" <'>)");
	rl_ruling_clear(&r);
	free(ids);
	free(d1); free(d2);
	rl_db_close(db1);
	rl_db_close(db2);
	free(db1p); free(db2p); free(x1);
}

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

static size_t files_in(const char *dir)
{
	DIR *dh = opendir(dir);
	assert_non_null(dh);
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(dh)) != NULL)
		n += de->d_name[0] != '.';
	closedir(dh);
	return n;
}

/* A character XML 1.0 cannot carry is written as U+FFFD; the rest of
 * the text as stored. */
static void test_control_replaced(void **state)
{
	struct fixture *f = *state;
	char *dbp = path_in(f, "ctl.db"), *x = path_in(f, "ctl.xml");
	rl_db *db = open_db(dbp);
	long long id = store_one(db, dbp, "Control?", "bell \x07 and \x03 here",
	                         "T");
	assert_int_equal(rl_export_xml(db, &id, 1, x), RL_OK);
	assert_valid(x);
	size_t len;
	char *text = test_read_file(x, &len);
	assert_non_null(strstr(text, "bell \xEF\xBF\xBD and \xEF\xBF\xBD here"));
	assert_null(strchr(text, '\x07'));
	free(text);
	rl_db_close(db);
	free(dbp);
	free(x);
}

/* A failed export leaves the file that was there as it was, and no
 * temporary file behind. */
static void test_errors_leave_target(void **state)
{
	struct fixture *f = *state;
	char *dbp = path_in(f, "one.db"), *x = path_in(f, "out.xml");
	rl_db *db = open_db(dbp);
	long long id = store_one(db, dbp, "Control?", "bell \x07 here", "T");
	FILE *fp = fopen(x, "w");
	assert_non_null(fp);
	fputs("old", fp);
	fclose(fp);
	size_t before = files_in(f->dir);

	/* an id that names no ruling */
	long long none = id + 1000;
	assert_int_equal(rl_export_xml(db, &none, 1, x), RL_NOTFOUND);
	assert_non_null(strstr(rl_db_errmsg(db), "no ruling"));

	size_t len;
	char *old = test_read_file(x, &len);
	assert_string_equal(old, "old");
	free(old);
	assert_int_equal(files_in(f->dir), before);

	/* a directory that does not exist */
	char *bad = path_in(f, "missing/out.xml");
	assert_int_equal(rl_export_xml(db, &id, 0, bad), RL_EIO);
	assert_non_null(strstr(rl_db_errmsg(db), "missing/out.xml"));
	assert_false(exists(bad));

	/* no ids: an empty, valid collection replaces the old file */
	assert_int_equal(rl_export_xml(db, NULL, 0, x), RL_OK);
	assert_valid(x);
	assert_int_equal(files_in(f->dir), before);
	rl_db_close(db);
	free(bad); free(dbp); free(x);
}

/* libxml2 counts lines past 65535 (XML_PARSE_BIG_LINES): a schema error
 * far down a file is reported at its line. */
static void test_big_line_numbers(void **state)
{
	(void)state;
	enum { BLANK = 70000 };
	const char head[] = "<rulings format_version=\"1\">";
	const char tail[] = "<ruling kind=\"faq\" lang=\"english\"><title>t</title>"
	                    "<text/></ruling></rulings>\n";
	size_t n = sizeof head - 1 + BLANK + sizeof tail;
	char *text = malloc(n);
	assert_non_null(text);
	memcpy(text, head, sizeof head - 1);
	memset(text + sizeof head - 1, '\n', BLANK);
	memcpy(text + sizeof head - 1 + BLANK, tail, sizeof tail);
	struct rl_source src;
	struct rl_doc doc;
	struct rl_diags d;
	assert_int_equal(test_parse(text, NULL, &src, &doc, &d), RL_EDATA);
	assert_true(test_count_diags(&d, RL_ERROR, BLANK + 1, NULL) >= 1);
	test_parse_free(&src, &doc, &d);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hostile_content, setup, teardown),
		cmocka_unit_test_setup_teardown(test_control_replaced, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_errors_leave_target, setup,
		                                teardown),
		cmocka_unit_test(test_big_line_numbers),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	xmlCleanupParser();
	return rc;
}
