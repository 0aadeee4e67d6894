/* test_fts.c — the query language read into a tree (qparse.c) and its text
 * said in FTS5 (ftsquery.c), proving that what comes out is a valid MATCH
 * expression on a real FTS5 table with the rl_stem tokenizer. (What a whole
 * search becomes, fields and thesaurus included, is tests/query's golden
 * cases.) */
#include "helpers.h"
#include "qparse.h"
#include "stemtok.h"
#include "util.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NWORDS(a) (sizeof a / sizeof *a)

/* An in-memory FTS5 table tokenized as the real index is. */
static int open_fts(void **state)
{
	sqlite3 *db = NULL;
	if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
	    rl_stemtok_register(db) != SQLITE_OK)
		return -1;
	if (sqlite3_exec(db,
	        "CREATE VIRTUAL TABLE t USING fts5(title, body,"
	        " tokenize = 'rl_stem 2 en');"
	        "CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row');"
	        "INSERT INTO t(title, body) VALUES"
	        " ('', 'don''t use first-strike; see 702.19a'),"
	        " ('', 'two words make a phrase'), ('', 'wordy wording'),"
	        " ('Fast powers', 'slow answer');",
	        NULL, NULL, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		return -1;
	}
	*state = db;
	return 0;
}

static int close_fts(void **state)
{
	sqlite3_close(*state);
	return 0;
}

/* Runs expr through MATCH: -1 when SQLite refuses it, else the row count. */
static int match_count(sqlite3 *db, const char *expr)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM t WHERE t MATCH ?1",
	                            -1, &st, NULL);
	assert_int_equal(rc, SQLITE_OK);
	sqlite3_bind_text(st, 1, expr, -1, SQLITE_TRANSIENT);
	int n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
	sqlite3_finalize(st);
	return n;
}

/* The query read back in the query language ("" for nothing). */
static char *read_as(const char *const *words, size_t n)
{
	struct qnode *t = NULL;
	assert_int_equal(rl_qparse(words, n, &t), RL_OK);
	struct rl_buf b = {0};
	if (t)
		rl_qnode_print(&b, t);
	rl_qnode_free(t);
	char *s = rl_buf_take(&b);
	assert_non_null(s);
	return s;
}

static void assert_read(const char *const *words, size_t n, const char *want)
{
	char *s = read_as(words, n);
	if (strcmp(s, want) != 0)
		fail_msg("read as [%s], want [%s]", s, want);
	free(s);
}

static void assert_read1(const char *word, const char *want)
{
	assert_read(&word, 1, want);
}

/* The FTS5 expression of a query FTS5 can say alone (NULL: it cannot);
 * checks that FTS5 accepts it and returns its row count through *rows. */
static char *expr_of(sqlite3 *db, const char *const *words, size_t n, int *rows)
{
	struct qnode *t = NULL;
	assert_int_equal(rl_qparse(words, n, &t), RL_OK);
	char *e = NULL;
	if (t && rl_fts_sayable(t)) {
		struct rl_buf b = {0};
		rl_fts_expr(&b, t, false);
		e = rl_buf_take(&b);
		assert_non_null(e);
		*rows = match_count(db, e);
		if (*rows < 0)
			fail_msg("FTS5 refused '%s': %s", e, sqlite3_errmsg(db));
	}
	rl_qnode_free(t);
	return e;
}

static int assert_expr(sqlite3 *db, const char *word, const char *want)
{
	int rows = 0;
	char *e = expr_of(db, &word, 1, &rows);
	if (!want && e)
		fail_msg("'%s' gave '%s', want none", word, e);
	if (want && (!e || strcmp(e, want) != 0))
		fail_msg("'%s' gave '%s', want '%s'", word, e ? e : "(none)", want);
	free(e);
	return rows;
}

static void test_control_raw_input_fails(void **state)
{
	/* what the quoting protects against: these fail as raw FTS5 */
	sqlite3 *db = *state;
	assert_int_equal(match_count(db, "first-strike"), -1);
	assert_int_equal(match_count(db, "don't"), -1);
	assert_int_equal(match_count(db, "NEAR("), -1);
	assert_int_equal(match_count(db, "702.19a"), -1);
	assert_int_equal(match_count(db, "\"unbalanced"), -1);
}

static void test_text_is_quoted(void **state)
{
	sqlite3 *db = *state;
	assert_int_equal(assert_expr(db, "don't", "\"don't\""), 1);
	assert_int_equal(assert_expr(db, "first-strike", "\"first-strike\""), 1);
	assert_expr(db, "x:y", "\"x:y\"");
	assert_expr(db, "NEAR(", "\"NEAR(\"");
	assert_expr(db, "^x", "\"^x\"");
	assert_expr(db, "{title body}:", "(\"{title\" AND \"body}:\")");
	assert_int_equal(assert_expr(db, "702.19a", "\"702.19a\""), 1);
}

static void test_operators(void **state)
{
	static const char *const and[] = { "two", "phrase" };
	assert_read(and, 2, "two phrase");
	static const char *const or[] = { "two", "OR", "wordy" };
	assert_read(or, 3, "two OR wordy");
	assert_read1("a b OR c d", "a b OR c d");
	assert_read1("(a OR b) c", "(a OR b) c");
	assert_read1("a AND b", "a b");
	assert_read1("NOT gift repeat", "-gift repeat");
	assert_read1("-\"two words\" x", "-\"two words\" x");
	assert_read1("-(a OR b) c", "-(a OR b) c");
	assert_read1("NOT NOT x", "x");
	/* lower case is text, and an operator with nothing to join is a word */
	assert_read1("a or b", "a or b");
	assert_read1("OR", "\"OR\"");
	assert_read1("a OR", "a \"OR\"");
	assert_read1("repeat NOT", "repeat \"NOT\"");
	assert_read1("AND", "\"AND\"");
	/* "-" needs something right after it */
	assert_read1("- x", "\"-\" x");
	assert_read1("--x", "\"--x\"");
	/* unclosed, stray, deep */
	assert_read1("((a", "a");
	assert_read1("a) b", "\"a)\" b");
	assert_read1("(a (b (c (d))))", "a b c d");
	char deep[200];
	memset(deep, '(', 100);
	strcpy(deep + 100, "x");
	assert_read1(deep, "x");
}

static void test_fields(void **state)
{
	assert_read1("tag:Repeat -fast", "tag:Repeat -fast");
	assert_read1("tag:\"Speed (Fast/Slow)\"", "tag:\"Speed (Fast/Slow)\"");
	assert_read1("TAG:Repeat", "tag:Repeat");
	assert_read1("tag:Repea*", "tag:Repea*");
	assert_read1("-tag:x game:\"Spirit Island\" lang:fr kind:rule rule:702.19"
	             " is:changed", "-tag:x game:\"Spirit Island\" lang:fr"
	             " kind:rule rule:702.19 is:changed");
	assert_read1("title:(power OR card) text:fast",
	             "(title:power OR title:card) text:fast");
	assert_read1("title:\"first strike\"", "title:\"first strike\"");
	/* unknown fields and empty values are text */
	assert_read1("foo:bar", "\"foo:bar\"");
	assert_read1("10:30", "\"10:30\"");
	assert_read1("tag:", "\"tag:\"");
	/* a value with blanks in one argument, as a shell leaves
	 * tag:"Speed (Fast/Slow)" */
	static const char *const shell[] = { "tag:Speed (Fast/Slow)", "-fast" };
	assert_read(shell, 2, "tag:\"Speed (Fast/Slow)\" -fast");
	/* ... unless it holds the language itself */
	static const char *const ops[] = { "tag:Repeat OR tag:Defend" };
	assert_read(ops, 1, "tag:Repeat OR tag:Defend");
	static const char *const neg[] = { "tag:Repeat -fast" };
	assert_read(neg, 1, "tag:Repeat -fast");
	sqlite3 *db = *state;
	int rows;
	static const char *const col[] = { "title:fast" };
	char *e = expr_of(db, col, 1, &rows);
	assert_string_equal(e, "title : \"fast\"");
	assert_int_equal(rows, 1);
	free(e);
	static const char *const body[] = { "text:fast" };
	e = expr_of(db, body, 1, &rows);
	assert_string_equal(e, "body : \"fast\"");
	assert_int_equal(rows, 0);
	free(e);
}

static void test_repeats_once(void **state)
{
	assert_read1("a a a a", "a");
	assert_read1("a b a OR b a", "a b OR b a");
	assert_read1("(a b) OR (b a) OR (a b)", "a b OR b a");
	/* a thousand times the same word is one term */
	struct rl_buf b = {0};
	for (int i = 0; i < 1000; i++)
		rl_buf_adds(&b, "defend ");
	char *s = rl_buf_take(&b);
	assert_read1(s, "defend");
	free(s);
}

static void test_phrases_and_prefixes(void **state)
{
	sqlite3 *db = *state;
	static const char *const across[] = { "\"two", "words\"" };
	int rows;
	char *e = expr_of(db, across, 2, &rows);
	assert_string_equal(e, "\"two words\"");
	assert_int_equal(rows, 1);
	free(e);
	assert_int_equal(assert_expr(db, "\"words two\"", "\"words two\""), 0);
	assert_int_equal(assert_expr(db, "word*", "\"word\" *"), 2);
	assert_int_equal(assert_expr(db, "wor**", "\"wor\" *"), 2);
	assert_int_equal(assert_expr(db, "\"two wor*\"", "\"two wor\" *"), 1);
	assert_int_equal(assert_expr(db, "\"two wor\"*", "\"two wor\" *"), 1);
	assert_expr(db, "*", NULL);
	assert_read1("*", "");
	/* an unclosed quote runs to the end; a quote inside a word starts one */
	assert_read1("\"unbalanced", "\"unbalanced\"");
	assert_read1("de\"fend", "de \"fend\"");
	assert_expr(db, "\"\"", NULL);
}

static void test_not_and_or_in_fts(void **state)
{
	sqlite3 *db = *state;
	assert_int_equal(assert_expr(db, "wordy OR phrase", "(\"wordy\" OR \"phrase\")"),
	                 2);
	assert_int_equal(assert_expr(db, "word* -wordy",
	                             "((\"word\" *) NOT (\"wordy\"))"), 1);
	/* FTS5's NOT needs something to keep: a lone exclusion is not FTS5 */
	assert_expr(db, "-wordy", NULL);
	assert_expr(db, "a OR -b", NULL);
	assert_expr(db, "tag:x", NULL);
}

/* Typeset quotes make a phrase, typeset apostrophes are apostrophes
 * (rl_fold_quotes() on the words read). */
static void test_typeset_quotes(void **state)
{
	sqlite3 *db = *state;
	static const char *const words[] = { "\xE2\x80\x9Ctwo", "words\xE2\x80\x9D" };
	assert_read(words, NWORDS(words), "\"two words\"");
	int rows = 0;
	char *e = expr_of(db, words, NWORDS(words), &rows);
	assert_string_equal(e, "\"two words\"");
	assert_int_equal(rows, 1);
	free(e);
	assert_int_equal(assert_expr(db, "don\xE2\x80\x99t", "\"don't\""), 1);
	assert_int_equal(assert_expr(db, "\xC2\xAB" "two words\xC2\xBB",
	                             "\"two words\""), 1);
	/* the typographic quotes alone are an empty phrase: nothing */
	assert_read1("\xE2\x80\x9C\xE2\x80\x9D", "");
}

/* Nothing typed, however odd, makes an expression FTS5 refuses. */
static void test_hostile_input_is_safe(void **state)
{
	sqlite3 *db = *state;
	static const char *const inputs[] = {
		"\"", "\"\"", "\"\"\"", "a\"", "\"a", "*\"", "\"*", "a*\"b",
		"NEAR(a b, 2)", "NEAR/2", "a OR", "AND", "x:", ":x", "{x y}: z",
		"-", "+a", "^a", "a^", "(a", "a)", "'", "''", "a''b", "\\\"a",
		"x NOT", "\"a\" \"b", "\"a b\" c\"", "a * b", "**a", "a**b*",
		"\"\xE2\x80\x9C" "curly\xE2\x80\x9D\"", "col:val*", "\t\"\n",
		"title:", "title:(", "text:\"", "title:(a OR", ")))", "(((",
		"OR OR OR", "NOT NOT", "- - -", "-(", "-\"", "a -b -c", "a OR -b",
		"title:(-a)", "(a OR b) NOT (c", "tag:\"x", "rule:", "is:*",
	};
	for (size_t i = 0; i < NWORDS(inputs); i++) {
		int rows;
		free(expr_of(db, &inputs[i], 1, &rows));
	}
	int rows;
	free(expr_of(db, inputs, NWORDS(inputs), &rows));
}

/* The number of distinct tokens FTS5 makes of text. */
static int token_count(sqlite3 *db, const char *text)
{
	sqlite3_stmt *st = NULL;
	assert_int_equal(sqlite3_exec(db, "DELETE FROM t", NULL, NULL, NULL),
	                 SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "INSERT INTO t(body) VALUES (?1)",
	                                    -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_text(st, 1, text, -1, SQLITE_TRANSIENT);
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM v", -1, &st,
	                                    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	int n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* A word the tokenizer finds something in finds the text it came from;
 * one it finds nothing in matches nothing (search drops it). Every
 * disagreement is listed before the test fails. */
static void test_words_agree_with_tokenizer(void **state)
{
	sqlite3 *db = *state;
	static const char *const words[] = {
		"a", "?", "_", "\xC3\xA9", "\xC2\xA7", "\xC2\xB0",
		"\xE2\x82\xAC", "\xE2\x80\x94", "\xE3\x80\x82",
		"\xC2\xB5",           /* µ micro sign, a letter */
		"\xC2\xB2",           /* ² superscript two, a number */
		"\xC2\xBD",           /* ½ vulgar fraction, a number */
		"\xC2\xAA",           /* ª feminine ordinal, a letter */
		"\xE2\x91\xA0",       /* ① circled digit one, a number */
		"\xE2\x85\xA2",       /* Ⅲ roman numeral three, a number */
		"\xE2\x84\x95",       /* ℕ double-struck capital N, a letter */
		"\xF0\x9F\x98\x80",   /* 😀 an emoji, a symbol */
		"\xEF\xBC\x81",       /* ！ fullwidth exclamation mark */
		"\xE2\xB8\xBA",       /* ⸺ two-em dash */
	};
	char report[2048] = "";
	size_t used = 0;
	for (size_t i = 0; i < NWORDS(words); i++) {
		int tokens = token_count(db, words[i]);
		int counted = rl_stemtok_count(db, words[i], (int)strlen(words[i]));
		int rows = 0;
		char *e = expr_of(db, &words[i], 1, &rows);
		const char *why = NULL;
		if (!e)
			why = "no expression";
		else if (tokens > 0 && rows != 1)
			why = "indexed, but its query does not find it";
		else if (tokens == 0 && rows != 0)
			why = "not indexed, but its query matches";
		else if ((tokens > 0) != (counted > 0))
			why = "rl_stemtok_count() disagrees";
		if (why)
			used += (size_t)snprintf(report + used, sizeof report - used,
			                         "\n  '%s' (%d tokens): %s", words[i],
			                         tokens, why);
		free(e);
		assert_true(used < sizeof report);
	}
	if (used)
		fail_msg("the query disagrees with the tokenizer:%s", report);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_control_raw_input_fails),
		cmocka_unit_test(test_text_is_quoted),
		cmocka_unit_test(test_operators),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_repeats_once),
		cmocka_unit_test(test_phrases_and_prefixes),
		cmocka_unit_test(test_not_and_or_in_fts),
		cmocka_unit_test(test_typeset_quotes),
		cmocka_unit_test(test_hostile_input_is_safe),
		cmocka_unit_test_setup_teardown(test_words_agree_with_tokenizer,
		                                open_fts, close_fts),
	};
	return cmocka_run_group_tests_name("fts", tests, open_fts, close_fts);
}
