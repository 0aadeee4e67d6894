/* test_fts.c — turning typed words into FTS5 queries, and proving that what
 * comes out is a valid MATCH expression on a real FTS5 table. */
#include "helpers.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NWORDS(a) (sizeof a / sizeof *a)

/* An in-memory FTS5 table tokenized as the real index is. */
static int open_fts(void **state)
{
	sqlite3 *db = NULL;
	if (sqlite3_open(":memory:", &db) != SQLITE_OK)
		return -1;
	if (sqlite3_exec(db,
	        "CREATE VIRTUAL TABLE t USING fts5(x,"
	        " tokenize = 'unicode61 remove_diacritics 2');"
	        "CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row');"
	        "INSERT INTO t(x) VALUES ('don''t use first-strike; see 702.19a'),"
	        " ('two words make a phrase'), ('wordy wording');",
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

/* Builds the query for words; checks it equals want (NULL: no term at all)
 * and, when there is one, that FTS5 accepts it. Returns the number of rows
 * it matches (0 when there is no query). */
static int assert_query(sqlite3 *db, const char *const *words, size_t n,
                        const char *want)
{
	char *out = (char *)"junk";
	assert_int_equal(rl_fts_query(words, n, &out), RL_OK);
	int rows = 0;
	if (!want) {
		assert_null(out);
		return 0;
	}
	assert_non_null(out);
	assert_string_equal(out, want);
	if (db) {
		rows = match_count(db, out);
		if (rows < 0)
			fail_msg("FTS5 refused '%s': %s", out, sqlite3_errmsg(db));
	}
	free(out);
	return rows;
}

/* The same for a single word. */
static int assert_word(sqlite3 *db, const char *word, const char *want)
{
	return assert_query(db, &word, 1, want);
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

static void test_apostrophe(void **state)
{
	assert_int_equal(assert_word(*state, "don't", "\"don't\""), 1);
}

static void test_rule_number(void **state)
{
	assert_int_equal(assert_word(*state, "702.19a", "\"702.19a\""), 1);
}

static void test_hyphen_is_not_a_column_filter(void **state)
{
	assert_int_equal(assert_word(*state, "first-strike", "\"first-strike\""), 1);
	assert_word(*state, "-x", "\"-x\"");
	assert_word(*state, "x:y", "\"x:y\"");
}

static void test_keywords_are_text(void **state)
{
	assert_word(*state, "NEAR(", "\"NEAR(\"");
	static const char *const words[] = { "two", "AND", "words", "OR", "NOT", "^x" };
	assert_query(*state, words, NWORDS(words),
	             "\"two\" \"AND\" \"words\" \"OR\" \"NOT\" \"^x\"");
	static const char *const near[] = { "NEAR(two", "words,", "5)" };
	assert_query(*state, near, NWORDS(near), "\"NEAR(two\" \"words,\" \"5)\"");
}

static void test_words_are_anded(void **state)
{
	static const char *const both[] = { "two", "phrase" };
	assert_int_equal(assert_query(*state, both, 2, "\"two\" \"phrase\""), 1);
	static const char *const none[] = { "two", "wordy" };
	assert_int_equal(assert_query(*state, none, 2, "\"two\" \"wordy\""), 0);
}

static void test_unbalanced_quote(void **state)
{
	/* an odd number of quotes makes no phrase: every word stands alone
	 * and its quote is text, doubled */
	static const char *const words[] = { "\"two", "words" };
	assert_query(*state, words, NWORDS(words), "\"\"\"two\" \"words\"");
	assert_word(*state, "say \"hello", "\"say\" \"\"\"hello\"");
	/* a lone quote is a term of its own that indexes to nothing */
	assert_int_equal(assert_word(*state, "\"", "\"\"\"\""), 0);
}

static void test_balanced_phrase(void **state)
{
	static const char *const words[] = { "\"two", "words\"" };
	assert_int_equal(assert_query(*state, words, NWORDS(words),
	                              "\"two words\""), 1);
	/* a phrase is in order: these words are not adjacent in that order */
	static const char *const rev[] = { "\"words", "two\"" };
	assert_int_equal(assert_query(*state, rev, NWORDS(rev), "\"words two\""), 0);
	/* a phrase typed as one argument, next to plain words */
	static const char *const mixed[] = { "\"make a phrase\"", "two" };
	assert_int_equal(assert_query(*state, mixed, NWORDS(mixed),
	                              "\"make a phrase\" \"two\""), 1);
	/* phrases glued to words */
	assert_word(*state, "a\"b c\"d", "\"a\" \"b c\" \"d\"");
}

/* Typeset quotes make a phrase, typeset apostrophes are apostrophes. */
static void test_typeset_quotes(void **state)
{
	static const char *const words[] = { "\xE2\x80\x9Ctwo", "words\xE2\x80\x9D" };
	assert_int_equal(assert_query(*state, words, NWORDS(words),
	                              "\"two words\""), 1);
	assert_int_equal(assert_word(*state, "don\xE2\x80\x99t", "\"don't\""), 1);
	assert_int_equal(assert_word(*state, "\xC2\xAB" "two words\xC2\xBB",
	                             "\"two words\""), 1);
}

static void test_prefix(void **state)
{
	assert_int_equal(assert_word(*state, "word*", "\"word\" *"), 2);
	assert_int_equal(assert_word(*state, "wor**", "\"wor\" *"), 2);
	assert_int_equal(assert_word(*state, "\"two wor*\"", "\"two wor\" *"), 1);
	/* a star alone is no term */
	assert_word(*state, "*", NULL);
	static const char *const words[] = { "word*", "*" };
	assert_query(*state, words, NWORDS(words), "\"word\" *");
}

static void test_only_punctuation(void **state)
{
	/* punctuation is text that no row contains: it matches nothing */
	static const char *const words[] = { "--", "?!", "...", "()" };
	assert_int_equal(assert_query(*state, words, NWORDS(words),
	                              "\"--\" \"?!\" \"...\" \"()\""), 0);
	/* typographic punctuation: “ ” — … « » ¿ (the quotes are quotes,
	 * so “” and «» are empty phrases, left out) */
	static const char *const typo[] = {
		"\xE2\x80\x9C\xE2\x80\x9D", "\xE2\x80\x94", "\xE2\x80\xA6",
		"\xC2\xAB\xC2\xBB", "\xC2\xBF",
	};
	assert_int_equal(assert_query(*state, typo, NWORDS(typo),
		"\"\xE2\x80\x94\" \"\xE2\x80\xA6\" \"\xC2\xBF\""), 0);
	assert_query(*state, NULL, 0, NULL);
	static const char *const blank[] = { "", "  ", "\t" };
	assert_query(*state, blank, NWORDS(blank), NULL);
	/* next to a real word, a phrase of punctuation is passed over by
	 * FTS5: the word alone decides */
	static const char *const some[] = { "\"--\"", "two" };
	assert_int_equal(assert_query(*state, some, NWORDS(some),
	                              "\"--\" \"two\""), 1);
}

static void test_embedded_quotes_doubled(void **state)
{
	assert_word(*state, "12\"", "\"12\"\"\"");
	assert_word(*state, "a\"b\"c\"d", "\"a\"\"b\"\"c\"\"d\"");
	assert_word(*state, "x\"*", "\"x\"\"\" *");
}

static void test_non_latin_words(void **state)
{
	assert_word(*state, "\xD0\xB0\xD1\x82\xD0\xB0\xD0\xBA\xD0\xB0",
	            "\"\xD0\xB0\xD1\x82\xD0\xB0\xD0\xBA\xD0\xB0\"");
	assert_word(*state, "d\xC3\xA9" "fense", "\"d\xC3\xA9" "fense\"");
	assert_word(*state, "\xE4\xB8\xAD\xE6\x96\x87", "\"\xE4\xB8\xAD\xE6\x96\x87\"");
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
	};
	for (size_t i = 0; i < NWORDS(inputs); i++) {
		char *out = NULL;
		assert_int_equal(rl_fts_query(&inputs[i], 1, &out), RL_OK);
		if (out && match_count(db, out) < 0)
			fail_msg("input '%s' gave '%s', refused by FTS5: %s", inputs[i],
			         out, sqlite3_errmsg(db));
		free(out);
	}
	/* and all of them as one query */
	char *out = NULL;
	assert_int_equal(rl_fts_query(inputs, NWORDS(inputs), &out), RL_OK);
	assert_non_null(out);
	if (match_count(db, out) < 0)
		fail_msg("'%s' refused by FTS5: %s", out, sqlite3_errmsg(db));
	free(out);
}

/* The number of distinct tokens FTS5 makes of text. */
static int token_count(sqlite3 *db, const char *text)
{
	sqlite3_stmt *st = NULL;
	assert_int_equal(sqlite3_exec(db, "DELETE FROM t", NULL, NULL, NULL),
	                 SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "INSERT INTO t(x) VALUES (?1)",
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

/* No word is dropped: one the tokenizer finds something in finds the text
 * it came from; one it finds nothing in matches nothing (and next to
 * another word is passed over: see test_only_punctuation). Every
 * disagreement is listed before the test fails. */
static void test_words_agree_with_tokenizer(void **state)
{
	sqlite3 *db = *state;
	static const char *const words[] = {
		"a", "--", "?", "_", "\xC3\xA9", "\xC2\xA7", "\xC2\xB0",
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
		char *out = NULL;
		assert_int_equal(rl_fts_query(&words[i], 1, &out), RL_OK);
		assert_non_null(out);
		const char *why = NULL;
		if (tokens > 0 && match_count(db, out) != 1)
			why = "indexed, but its query does not find it";
		else if (tokens == 0 && match_count(db, out) != 0)
			why = "not indexed, but its query matches";
		if (why)
			used += (size_t)snprintf(report + used, sizeof report - used,
			                         "\n  '%s' (%d tokens): %s", words[i],
			                         tokens, why);
		free(out);
		assert_true(used < sizeof report);
	}
	if (used)
		fail_msg("rl_fts_query disagrees with the unicode61 tokenizer:%s",
		         report);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_control_raw_input_fails),
		cmocka_unit_test(test_apostrophe),
		cmocka_unit_test(test_rule_number),
		cmocka_unit_test(test_hyphen_is_not_a_column_filter),
		cmocka_unit_test(test_keywords_are_text),
		cmocka_unit_test(test_words_are_anded),
		cmocka_unit_test(test_unbalanced_quote),
		cmocka_unit_test(test_balanced_phrase),
		cmocka_unit_test(test_typeset_quotes),
		cmocka_unit_test(test_prefix),
		cmocka_unit_test(test_only_punctuation),
		cmocka_unit_test(test_embedded_quotes_doubled),
		cmocka_unit_test(test_non_latin_words),
		cmocka_unit_test(test_hostile_input_is_safe),
		cmocka_unit_test_setup_teardown(test_words_agree_with_tokenizer,
		                                open_fts, close_fts),
	};
	return cmocka_run_group_tests_name("fts", tests, open_fts, close_fts);
}
