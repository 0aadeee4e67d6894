/* test_source.c — reading sources: BOM, line breaks, UTF-8 and NUL checks,
 * checksums. */
#include "helpers.h"
#include "sha256.h"

#include <stdlib.h>
#include <string.h>

/* Loads a string literal (which may hold NUL bytes) from memory. */
#define LOAD(lit, src, d) \
	rl_source_from_memory(src, "mem.txt", lit, sizeof lit - 1, d)

/* Loads good text and checks what the importers will see. */
static void assert_loads_as(const char *data, size_t len, const char *text,
                            const char *encoding)
{
	struct rl_source src;
	struct rl_diags d = {0};
	assert_int_equal(rl_source_from_memory(&src, "mem.txt", data, len, &d),
	                 RL_OK);
	assert_int_equal(d.n, 0);
	assert_non_null(src.text);
	assert_string_equal(src.text, text);
	assert_int_equal(src.len, strlen(text));
	assert_int_equal(src.raw_size, len);
	assert_string_equal(src.encoding, encoding);
	assert_string_equal(src.name, "mem.txt");
	rl_source_free(&src);
	rl_diags_clear(&d);
}

/* Loads bad bytes: refused whole, with one error at line:col whose message
 * contains part. */
static void assert_refused_at(const char *data, size_t len, unsigned line,
                              unsigned col, const char *part)
{
	struct rl_source src;
	struct rl_diags d = {0};
	assert_int_equal(rl_source_from_memory(&src, "mem.txt", data, len, &d),
	                 RL_EDATA);
	assert_null(src.text);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.errors, 1);
	assert_int_equal(d.warnings, 0);
	assert_int_equal(d.v[0].severity, RL_ERROR);
	assert_int_equal(d.v[0].line, line);
	assert_int_equal(d.v[0].col, col);
	assert_non_null(strstr(d.v[0].message, part));
	rl_diags_clear(&d);
}

#define LOADS_AS(lit, text, enc) assert_loads_as(lit, sizeof lit - 1, text, enc)
#define REFUSED_AT(lit, line, col, part) \
	assert_refused_at(lit, sizeof lit - 1, line, col, part)

static void test_plain_text(void **state)
{
	LOADS_AS("Repeat\n\xE2\x80\xA2 Q?\n", "Repeat\n\xE2\x80\xA2 Q?\n", "utf-8");
	LOADS_AS("", "", "utf-8");
	LOADS_AS("no final newline", "no final newline", "utf-8");
}

static void test_bom_stripped(void **state)
{
	LOADS_AS("\xEF\xBB\xBFhello\n", "hello\n", "utf-8-bom");
	LOADS_AS("\xEF\xBB\xBF", "", "utf-8-bom");
	/* only the first one is a byte order mark; a later U+FEFF is text */
	LOADS_AS("\xEF\xBB\xBF\xEF\xBB\xBFx", "\xEF\xBB\xBFx", "utf-8-bom");
	LOADS_AS("x\xEF\xBB\xBF", "x\xEF\xBB\xBF", "utf-8");
	/* the first bytes of a BOM are not one: with no UTF-8 sequence in
	 * the file they are Windows-1252 text */
	LOADS_AS("\xEF\xBB", "\xC3\xAF\xC2\xBB", "windows-1252");
}

static void test_line_breaks(void **state)
{
	LOADS_AS("a\r\nb\r\n", "a\nb\n", "utf-8");
	LOADS_AS("a\rb\r", "a\nb\n", "utf-8");
	LOADS_AS("a\r\nb\rc\nd\r\n\r\ne\r", "a\nb\nc\nd\n\ne\n", "utf-8");
	/* CR CR LF is two line breaks, LF CR one each */
	LOADS_AS("x\r\r\ny", "x\n\ny", "utf-8");
	LOADS_AS("x\n\ry", "x\n\ny", "utf-8");
	LOADS_AS("\xEF\xBB\xBFone\r\ntwo", "one\ntwo", "utf-8-bom");
}

/* Invalid bytes in a file that also holds UTF-8 sequences (here a final
 * " é"): broken UTF-8, refused at the first bad byte. */
static void test_invalid_utf8_position(void **state)
{
	REFUSED_AT("line one\nab\xFFz\n \xC3\xA9", 2, 3, "UTF-8");
	REFUSED_AT("\xFF \xC3\xA9", 1, 1, "0xFF");
	/* the column counts characters, not bytes */
	REFUSED_AT("\xC3\xA9t\xC3\xA9 \xC0\xAF", 1, 5, "0xC0");
	/* after CRLF and bare CR line breaks */
	REFUSED_AT("one\r\ntwo\r\n\xC3( \xC3\xA9", 3, 1, "0xC3");
	REFUSED_AT("a\rb\r\xE2\x82 \xC3\xA9", 3, 1, "0xE2");
	REFUSED_AT("a\r\rb\xED\xA0\x80 \xC3\xA9", 3, 2, "0xED");
	/* a sequence cut by what follows */
	REFUSED_AT("abc\xE2\x82\xC3\xA9", 1, 4, "0xE2");
	/* only the first bad byte is reported */
	REFUSED_AT("ok\n\xFF\xFE\n\xFF \xC3\xA9", 2, 1, "0xFF");
}

/* Bytes that are not UTF-8 and hold no UTF-8 sequence: Windows-1252. */
static void test_windows_1252(void **state)
{
	/* ’ “ ” — ® as WotC shipped them, with CRLF */
	LOADS_AS("creature\x92s \x93" "Combat\x94 \x97 Magic\xAE\r\n",
	         "creature\xE2\x80\x99s \xE2\x80\x9C" "Combat\xE2\x80\x9D "
	         "\xE2\x80\x94 Magic\xC2\xAE\n", "windows-1252");
	LOADS_AS("\xFF", "\xC3\xBF", "windows-1252");
	/* 0x81 0x8D 0x8F 0x90 0x9D are not Windows-1252 characters */
	REFUSED_AT("ab\x81", 1, 3, "0x81");
	/* a BOM says UTF-8: then a bad byte is broken UTF-8 */
	REFUSED_AT("\xEF\xBB\xBFok\x92", 1, 3, "0x92");
}

/* UTF-16 with a byte order mark, either byte order, with a surrogate
 * pair; a lone surrogate is refused. */
static void test_utf16(void **state)
{
	LOADS_AS("\xFE\xFF\x00R\x00\r\x04\x30\xD8\x3D\xDE\x00",
	         "R\n\xD0\xB0\xF0\x9F\x98\x80", "utf-16be");
	LOADS_AS("\xFF\xFER\x00\r\x00\n\x00\x30\x04",
	         "R\n\xD0\xB0", "utf-16le");
	REFUSED_AT("\xFE\xFF\x00" "a\xDC\x00", 0, 0, "UTF-16");
	REFUSED_AT("\xFE\xFF\x00" "a\x00", 0, 0, "UTF-16");
	/* a NUL character in UTF-16 text */
	REFUSED_AT("\xFE\xFF\x00" "a\x00\x00", 1, 2, "NUL");
}

/* Decomposed letters are composed: e + U+0301 is é, и + U+0306 is й. */
static void test_nfc(void **state)
{
	LOADS_AS("Re\xCC\x81ponse", "R\xC3\xA9ponse", "utf-8");
	LOADS_AS("\xD0\xB8\xCC\x86", "\xD0\xB9", "utf-8");
	/* a mark that composes with nothing stays */
	LOADS_AS("x\xCC\x81", "x\xCC\x81", "utf-8");
	/* two marks in turn: e + ^ + ´ is ế */
	LOADS_AS("e\xCC\x82\xCC\x81", "\xE1\xBA\xBF", "utf-8");
}

/* The byte order mark is dropped: the first character after it is in
 * column 1. */
static void test_invalid_utf8_after_bom(void **state)
{
	REFUSED_AT("\xEF\xBB\xBF" "ab\xFF", 1, 3, "0xFF");
	REFUSED_AT("\xEF\xBB\xBF\xFF", 1, 1, "0xFF");
}

static void test_nul_byte(void **state)
{
	REFUSED_AT("ab\0cd", 1, 3, "NUL");
	REFUSED_AT("line\nx\0", 2, 2, "NUL");
	/* whichever comes first is reported; 0xFF alone would be
	 * Windows-1252, so there the NUL is the problem */
	REFUSED_AT("a\0\xFF", 1, 2, "NUL");
	REFUSED_AT("a\xFF\0", 1, 3, "NUL");
	REFUSED_AT("\xC3\xA9\xFF\0", 1, 2, "0xFF");
}

static void test_sha256_of_raw_bytes(void **state)
{
	static const char raw[] = "\xEF\xBB\xBFTitle\r\n\xE2\x80\xA2 Q?\r\n";
	struct rl_source src;
	struct rl_diags d = {0};
	assert_int_equal(LOAD(raw, &src, &d), RL_OK);
	char want[65], normalized[65];
	rl_sha256_hex(raw, sizeof raw - 1, want);
	rl_sha256_hex(src.text, src.len, normalized);
	assert_string_equal(src.sha256, want);
	assert_string_not_equal(src.sha256, normalized);
	assert_int_equal(src.raw_size, sizeof raw - 1);
	assert_string_equal(src.text, "Title\n\xE2\x80\xA2 Q?\n");
	rl_source_free(&src);
	rl_diags_clear(&d);
}

static void test_data_is_copied(void **state)
{
	char buf[] = "Repeat\n";
	struct rl_source src;
	struct rl_diags d = {0};
	assert_int_equal(rl_source_from_memory(&src, "mem.txt", buf, 7, &d), RL_OK);
	memset(buf, 'X', 7);
	assert_string_equal(src.text, "Repeat\n");
	rl_source_free(&src);
	assert_null(src.text);
	rl_source_free(NULL);
}

static void test_load_file(void **state)
{
	char *path = test_seed_path("000_");
	size_t len;
	char *raw = test_read_file(path, &len);
	char want[65];
	rl_sha256_hex(raw, len, want);

	struct rl_source src;
	struct rl_diags d = {0};
	assert_int_equal(rl_source_load(&src, path, &d), RL_OK);
	assert_int_equal(d.n, 0);
	assert_string_equal(src.sha256, want);
	assert_int_equal(src.raw_size, len);
	assert_string_equal(src.name, path);
	assert_string_equal(src.encoding, "utf-8");
	assert_memory_equal(src.text, raw, src.len);
	rl_source_free(&src);
	free(raw);
	free(path);
}

static void test_load_missing_file(void **state)
{
	struct rl_source src;
	struct rl_diags d = {0};
	assert_int_equal(rl_source_load(&src, "/nonexistent/rulings/none.txt", &d),
	                 RL_EIO);
	assert_int_equal(d.errors, 1);
	assert_null(src.text);
	rl_diags_clear(&d);
}

/* Columns in composed text map back to the file's: each mark composed
 * away before a position is a column in the file. */
static void test_column_in_file(void **state)
{
	(void)state;
	/* line 2: "e\u0301te\u0301 x" composes to "été x" */
	const char raw[] = "ab\ne\xCC\x81te\xCC\x81 x\nplain";
	struct rl_source src;
	struct rl_diags d = {0};
	assert_int_equal(rl_source_from_memory(&src, "t", raw, sizeof raw - 1, &d),
	                 RL_OK);
	assert_non_null(src.decoded);
	assert_int_equal(rl_source_column(&src, 1, 2), 2);   /* untouched line */
	assert_int_equal(rl_source_column(&src, 2, 1), 1);   /* é: e */
	assert_int_equal(rl_source_column(&src, 2, 2), 3);   /* t */
	assert_int_equal(rl_source_column(&src, 2, 3), 4);   /* é: e */
	assert_int_equal(rl_source_column(&src, 2, 5), 7);   /* x */
	assert_int_equal(rl_source_column(&src, 2, 6), 8);   /* past the end */
	assert_int_equal(rl_source_column(&src, 3, 4), 4);
	assert_int_equal(rl_source_column(&src, 9, 4), 4);   /* no such line */
	rl_source_free(&src);
	/* nothing composed: nothing kept, columns as they are */
	assert_int_equal(rl_source_from_memory(&src, "t", "abc", 3, &d), RL_OK);
	assert_null(src.decoded);
	assert_int_equal(rl_source_column(&src, 1, 3), 3);
	rl_source_free(&src);
	rl_diags_clear(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_text),
		cmocka_unit_test(test_bom_stripped),
		cmocka_unit_test(test_line_breaks),
		cmocka_unit_test(test_invalid_utf8_position),
		cmocka_unit_test(test_invalid_utf8_after_bom),
		cmocka_unit_test(test_windows_1252),
		cmocka_unit_test(test_utf16),
		cmocka_unit_test(test_nfc),
		cmocka_unit_test(test_column_in_file),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_sha256_of_raw_bytes),
		cmocka_unit_test(test_data_is_copied),
		cmocka_unit_test(test_load_file),
		cmocka_unit_test(test_load_missing_file),
	};
	return cmocka_run_group_tests_name("source", tests, NULL, NULL);
}
