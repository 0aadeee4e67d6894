/* test_utf8.c — UTF-8 validation, decoding/encoding, case folding, keys. */
#include "helpers.h"
#include "utf8.h"

#include <stdlib.h>
#include <string.h>

/* rl_utf8_valid over a string literal (which may hold NUL-free bad bytes). */
#define VALID_AT(lit) rl_utf8_valid(lit, sizeof lit - 1)
#define LEN(lit) (sizeof lit - 1)

/* Compares what fn made of in with want; frees it before failing, so that a
 * failure leaks nothing. */
static void assert_made(char *(*fn)(const char *), const char *name,
                        const char *in, const char *want)
{
	char *got = fn(in);
	assert_non_null(got);
	bool same = strcmp(got, want) == 0;
	if (!same)
		print_error("%s(\"%s\") = \"%s\", want \"%s\"\n", name, in, got, want);
	free(got);
	assert_true(same);
}

static void assert_fold(const char *in, const char *want)
{
	assert_made(rl_fold, "rl_fold", in, want);
}

static void assert_key(const char *in, const char *want)
{
	assert_made(rl_key, "rl_key", in, want);
}

/* ---- rl_utf8_valid ----------------------------------------------------- */

static void test_valid_text(void **state)
{
	assert_int_equal(rl_utf8_valid("", 0), 0);
	assert_int_equal(VALID_AT("plain ASCII"), LEN("plain ASCII"));
	/* é (2 bytes), € (3 bytes), 😀 (4 bytes), Cyrillic and Greek */
	assert_int_equal(VALID_AT("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"),
	                 LEN("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"));
	assert_int_equal(VALID_AT("\xD0\x90\xD0\xB0 \xCE\xA3"),
	                 LEN("\xD0\x90\xD0\xB0 \xCE\xA3"));
	/* the extremes of each length, and U+10FFFF, the last code point */
	assert_int_equal(VALID_AT("\x7F"), 1);
	assert_int_equal(VALID_AT("\xC2\x80"), 2);
	assert_int_equal(VALID_AT("\xDF\xBF"), 2);
	assert_int_equal(VALID_AT("\xE0\xA0\x80"), 3);
	assert_int_equal(VALID_AT("\xED\x9F\xBF"), 3);   /* U+D7FF */
	assert_int_equal(VALID_AT("\xEE\x80\x80"), 3);   /* U+E000 */
	assert_int_equal(VALID_AT("\xEF\xBF\xBF"), 3);
	assert_int_equal(VALID_AT("\xF0\x90\x80\x80"), 4);
	assert_int_equal(VALID_AT("\xF4\x8F\xBF\xBF"), 4);
	/* the length is respected: a NUL inside the range is ASCII */
	assert_int_equal(rl_utf8_valid("a\0b", 3), 3);
}

static void test_valid_overlong(void **state)
{
	assert_int_equal(VALID_AT("\xC0\x80"), 0);            /* NUL, 2 bytes */
	assert_int_equal(VALID_AT("\xC1\xBF"), 0);
	assert_int_equal(VALID_AT("ab\xE0\x80\xAF"), 2);      /* '/', 3 bytes */
	assert_int_equal(VALID_AT("ab\xE0\x9F\xBF"), 2);      /* U+07FF, 3 bytes */
	assert_int_equal(VALID_AT("abc\xF0\x80\x80\xAF"), 3); /* '/', 4 bytes */
	assert_int_equal(VALID_AT("abc\xF0\x8F\xBF\xBF"), 3); /* U+FFFF, 4 bytes */
}

static void test_valid_surrogates(void **state)
{
	assert_int_equal(VALID_AT("x\xED\xA0\x80"), 1);   /* U+D800 */
	assert_int_equal(VALID_AT("x\xED\xBF\xBF"), 1);   /* U+DFFF */
	/* a CESU-8 pair for U+1F600 */
	assert_int_equal(VALID_AT("ok \xED\xA0\xBD\xED\xB8\x80"), 3);
}

static void test_valid_truncated(void **state)
{
	assert_int_equal(VALID_AT("abc\xC3"), 3);
	assert_int_equal(VALID_AT("abc\xE2\x82"), 3);
	assert_int_equal(VALID_AT("abc\xF0\x9F\x98"), 3);
	/* a lead byte followed by something that is not a continuation */
	assert_int_equal(VALID_AT("\xC3(tail"), 0);
	assert_int_equal(VALID_AT("e\xE2\x82z"), 1);
	assert_int_equal(VALID_AT("12\xF0\x9F\x98Z"), 2);
	/* the length given cuts a sequence that the buffer holds whole */
	assert_int_equal(rl_utf8_valid("\xC3\xA9", 1), 0);
}

static void test_valid_out_of_range(void **state)
{
	assert_int_equal(VALID_AT("\xF4\x90\x80\x80"), 0);       /* U+110000 */
	assert_int_equal(VALID_AT("ab\xF5\x80\x80\x80"), 2);
	assert_int_equal(VALID_AT("ab\xF7\xBF\xBF\xBF"), 2);     /* U+1FFFFF */
	assert_int_equal(VALID_AT("\xF8\x88\x80\x80\x80"), 0);   /* 5 bytes */
	assert_int_equal(VALID_AT("\xFC\x84\x80\x80\x80\x80"), 0);
}

static void test_valid_stray_bytes(void **state)
{
	/* continuation bytes with no lead, and bytes never used in UTF-8 */
	assert_int_equal(VALID_AT("\x80"), 0);
	assert_int_equal(VALID_AT("ok\xBF"), 2);
	assert_int_equal(VALID_AT("\xC3\xA9\xA9"), 2);
	assert_int_equal(VALID_AT("ok\xFF"), 2);
	assert_int_equal(VALID_AT("ok\xFE"), 2);
	/* the first bad byte is reported, not a later one */
	assert_int_equal(VALID_AT("a\xFF" "b\xFF"), 1);
	/* Latin-1 text is not UTF-8 */
	assert_int_equal(VALID_AT("caf\xE9 au lait"), 3);
}

/* ---- rl_utf8_decode / rl_utf8_encode ----------------------------------- */

static void test_decode_encode_round_trip(void **state)
{
	static const struct { uint32_t cp; size_t len; } cases[] = {
		{ 0x00, 1 }, { 0x41, 1 }, { 0x7F, 1 },
		{ 0x80, 2 }, { 0xE9, 2 }, { 0x416, 2 }, { 0x7FF, 2 },
		{ 0x800, 3 }, { 0x20AC, 3 }, { 0xD7FF, 3 }, { 0xE000, 3 },
		{ 0xFFFD, 3 }, { 0xFFFF, 3 },
		{ 0x10000, 4 }, { 0x1F600, 4 }, { 0x10FFFF, 4 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char buf[8] = {0};
		size_t n = rl_utf8_encode(cases[i].cp, buf);
		assert_int_equal(n, cases[i].len);
		/* what encode wrote is valid UTF-8 of that length */
		assert_int_equal(rl_utf8_valid(buf, n), n);
		uint32_t back = 0xFFFFFFFF;
		assert_int_equal(rl_utf8_decode(buf, &back), n);
		assert_int_equal(back, cases[i].cp);
	}
}

static void test_encode_known_bytes(void **state)
{
	char buf[8] = {0};
	assert_int_equal(rl_utf8_encode(0xE9, buf), 2);
	assert_memory_equal(buf, "\xC3\xA9", 2);
	assert_int_equal(rl_utf8_encode(0x20AC, buf), 3);
	assert_memory_equal(buf, "\xE2\x82\xAC", 3);
	assert_int_equal(rl_utf8_encode(0x1F600, buf), 4);
	assert_memory_equal(buf, "\xF0\x9F\x98\x80", 4);
}

static void test_decode_walks_a_string(void **state)
{
	const char *s = "A\xC3\xA9\xD0\x96\xE2\x82\xAC\xF0\x9F\x98\x80";
	static const uint32_t want[] = { 0x41, 0xE9, 0x416, 0x20AC, 0x1F600 };
	size_t i = 0, k = 0;
	while (s[i]) {
		uint32_t cp;
		i += rl_utf8_decode(s + i, &cp);
		assert_true(k < sizeof want / sizeof *want);
		assert_int_equal(cp, want[k++]);
	}
	assert_int_equal(k, sizeof want / sizeof *want);
	assert_int_equal(i, strlen(s));
}

/* A sequence cut short by the end of the string, in a buffer of exactly its
 * size (so that AddressSanitizer sees a read past it): U+FFFD for each
 * byte, and never past the NUL. */
static void test_decode_stops_at_the_end(void **state)
{
	static const char *const cut[] = {
		"\xE2\x82", "\xE2", "\xF0\x9F\x98", "\xF0", "\xC3", "a\xD0",
	};
	for (size_t i = 0; i < sizeof cut / sizeof *cut; i++) {
		size_t n = strlen(cut[i]);
		char *p = malloc(n + 1);
		assert_non_null(p);
		memcpy(p, cut[i], n + 1);
		size_t at = 0, chars = 0;
		while (p[at]) {
			uint32_t cp;
			at += rl_utf8_decode(p + at, &cp);
			chars++;
			assert_true(at <= n);
			if ((unsigned char)p[0] >= 0x80)
				assert_int_equal(cp, 0xFFFD);
		}
		assert_int_equal(at, n);
		char *folded = rl_fold(p), *key = rl_key(p);
		assert_non_null(folded);
		assert_non_null(key);
		/* every byte of the cut sequence is one U+FFFD */
		assert_int_equal(strlen(folded), chars * 3 - (p[0] == 'a' ? 2 : 0));
		free(folded);
		free(key);
		free(p);
	}
	/* a byte that does not continue the sequence is not swallowed */
	uint32_t cp;
	assert_int_equal(rl_utf8_decode("\xE2x", &cp), 1);
	assert_int_equal(cp, 0xFFFD);
}

/* ---- rl_edit_distance, rl_nearest --------------------------------------- */

static void test_edit_distance(void **state)
{
	assert_int_equal(rl_edit_distance("", ""), 0);
	assert_int_equal(rl_edit_distance("search", "search"), 0);
	assert_int_equal(rl_edit_distance("serch", "search"), 1);       /* deletion */
	assert_int_equal(rl_edit_distance("seaarch", "search"), 1);     /* insertion */
	assert_int_equal(rl_edit_distance("saerch", "search"), 1);      /* transposition */
	assert_int_equal(rl_edit_distance("shwo", "show"), 1);
	assert_int_equal(rl_edit_distance("", "tags"), 4);
	assert_int_equal(rl_edit_distance("kitten", "sitting"), 3);
	/* code points, not bytes */
	assert_int_equal(rl_edit_distance("\xD0\xB0\xD1\x82\xD0\xB0\xD0\xBA\xD0\xB0",
	                                  "\xD0\xB0\xD1\x82\xD0\xB0\xD0\xBA\xD0\xB8"), 1);
	assert_int_equal(rl_edit_distance("R\xC3\xA9ponse", "Reponse"), 1);
}

static void test_nearest(void **state)
{
	static const char *const names[] = {
		"import", "parse", "search", "show", "tags", "stats", "changed",
		"history", "xrefs", "export", "help",
	};
	size_t n = sizeof names / sizeof *names, idx[sizeof names / sizeof *names];
	assert_int_equal(rl_nearest("serch", names, n, idx), 1);
	assert_string_equal(names[idx[0]], "search");
	assert_int_equal(rl_nearest("hist", names, n, idx), 1);         /* a start */
	assert_string_equal(names[idx[0]], "history");
	assert_int_equal(rl_nearest("stat", names, n, idx), 1);
	assert_string_equal(names[idx[0]], "stats");
	/* two at the same distance: both, in table order */
	assert_int_equal(rl_nearest("sxow", names, n, idx), 1);
	assert_int_equal(rl_nearest("tats", names, n, idx), 2);
	assert_string_equal(names[idx[0]], "tags");
	assert_string_equal(names[idx[1]], "stats");
	/* nothing near */
	assert_int_equal(rl_nearest("frobnicate", names, n, idx), 0);
	assert_int_equal(rl_nearest("x", names, n, idx), 0);
}

/* ---- rl_fold ----------------------------------------------------------- */

static void test_fold_ascii(void **state)
{
	assert_fold("", "");
	assert_fold("Speed (Fast/Slow) 702.19A", "speed (fast/slow) 702.19a");
	assert_fold("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz");
	assert_fold("already lower, 123 @[`{", "already lower, 123 @[`{");
}

static void test_fold_latin1(void **state)
{
	assert_fold("\xC3\x89" "CRAN", "\xC3\xA9" "cran");          /* ÉCRAN */
	assert_fold("\xC3\x80\xC3\x87\xC3\x9E", "\xC3\xA0\xC3\xA7\xC3\xBE"); /* ÀÇÞ */
	assert_fold("\xC3\xA9\xC3\xA8", "\xC3\xA9\xC3\xA8");        /* stays */
	/* × and ß are not capitals */
	assert_fold("\xC3\x97\xC3\x9F", "\xC3\x97\xC3\x9F");
}

static void test_fold_latin_extended_a(void **state)
{
	assert_fold("\xC5\x81\xC3\x93\xC5\xBB", "\xC5\x82\xC3\xB3\xC5\xBC"); /* ŁÓŻ */
	assert_fold("\xC4\x8C\xC5\xA0", "\xC4\x8D\xC5\xA1");                 /* ČŠ */
	assert_fold("\xC5\xB8", "\xC3\xBF");                                 /* Ÿ */
	/* lower case letters stay */
	assert_fold("\xC5\x82\xC4\x8D", "\xC5\x82\xC4\x8D");
}

static void test_fold_cyrillic(void **state)
{
	assert_fold("\xD0\x90", "\xD0\xB0");                       /* А → а */
	assert_fold("\xD0\x90\xD0\xA2\xD0\x90\xD0\x9A\xD0\x90",    /* АТАКА */
	            "\xD0\xB0\xD1\x82\xD0\xB0\xD0\xBA\xD0\xB0");
	assert_fold("\xD0\xAF", "\xD1\x8F");                       /* Я → я */
	assert_fold("\xD1\x8F", "\xD1\x8F");
	/* Ё and ё both fold to е */
	assert_fold("\xD0\x81", "\xD0\xB5");
	assert_fold("\xD1\x91", "\xD0\xB5");
	assert_fold("\xD0\x81\xD0\x96", "\xD0\xB5\xD0\xB6");       /* ЁЖ */
	/* Ѐ..Џ: Ukrainian Є, Serbian Ђ */
	assert_fold("\xD0\x84\xD0\x82", "\xD1\x94\xD1\x92");
	/* Extended Cyrillic pairs: Ѣ → ѣ, Ґ → ґ */
	assert_fold("\xD1\xA2\xD2\x90", "\xD1\xA3\xD2\x91");
}

/* U+04C1..U+04CE pair the other way round (odd upper, even lower) and U+04C0
 * palochka folds to U+04CF: a lower case letter must never fold into another
 * letter's capital. */
static void test_fold_cyrillic_04c0_block(void **state)
{
	assert_fold("\xD3\x82", "\xD3\x82");   /* ӂ stays ӂ */
	assert_fold("\xD3\x81", "\xD3\x82");   /* Ӂ → ӂ */
	assert_fold("\xD3\x84", "\xD3\x84");   /* ӄ stays ӄ */
	assert_fold("\xD3\x80", "\xD3\x8F");   /* Ӏ → ӏ */
}

static void test_fold_greek(void **state)
{
	/* ΑΒΓ ΣΩ → αβγ σω; final sigma folds to σ */
	assert_fold("\xCE\x91\xCE\x92\xCE\x93 \xCE\xA3\xCE\xA9",
	            "\xCE\xB1\xCE\xB2\xCE\xB3 \xCF\x83\xCF\x89");
	assert_fold("\xCF\x82", "\xCF\x83");
	assert_fold("\xCE\xB1\xCF\x89", "\xCE\xB1\xCF\x89");
	/* Ϊ, Ϋ */
	assert_fold("\xCE\xAA\xCE\xAB", "\xCF\x8A\xCF\x8B");
}

/* Capitals with tonos (Ά Έ Ή Ί Ό Ύ Ώ) start many Greek words. */
static void test_fold_greek_tonos(void **state)
{
	assert_fold("\xCE\x86", "\xCE\xAC");   /* Ά → ά */
	assert_fold("\xCE\x88", "\xCE\xAD");   /* Έ → έ */
	assert_fold("\xCE\x8C", "\xCF\x8C");   /* Ό → ό */
	assert_fold("\xCE\x8F", "\xCF\x8E");   /* Ώ → ώ */
}

static void test_fold_cp_leaves_others(void **state)
{
	assert_int_equal(rl_fold_cp('a'), 'a');
	assert_int_equal(rl_fold_cp('Z'), 'z');
	assert_int_equal(rl_fold_cp(0x20AC), 0x20AC);    /* € */
	assert_int_equal(rl_fold_cp(0x4E2D), 0x4E2D);    /* 中 */
	assert_int_equal(rl_fold_cp(0x1F600), 0x1F600);
}

/* ---- rl_key ------------------------------------------------------------ */

static void test_key_quotes(void **state)
{
	/* ’ ‘ → '   “ ” → "   « » → " */
	assert_key("Lightning\xE2\x80\x99s Swift Strike", "lightning's swift strike");
	assert_key("\xE2\x80\x98quoted\xE2\x80\x99", "'quoted'");
	assert_key("\xE2\x80\x9CRepeat this Power\xE2\x80\x9D", "\"repeat this power\"");
	assert_key("\xC2\xAB" "Oui\xC2\xBB", "\"oui\"");
	/* curly and straight forms give the same key */
	char *a = rl_key("Can\xE2\x80\x99t you \xE2\x80\x9C" "do\xE2\x80\x9D it?");
	char *b = rl_key("can't you \"do\" it?");
	assert_non_null(a);
	assert_non_null(b);
	assert_string_equal(a, b);
	free(a);
	free(b);
}

static void test_key_dashes(void **state)
{
	assert_key("a\xE2\x80\x93" "b", "a-b");            /* en dash */
	assert_key("a \xE2\x80\x94 b", "a - b");           /* em dash */
	assert_key("x\xE2\x80\x90y\xE2\x80\x91z", "x-y-z"); /* hyphens */
	assert_key("\xE2\x88\x92" "1", "-1");              /* minus sign */
	assert_key("first-strike", "first-strike");
}

static void test_key_white_space(void **state)
{
	assert_key("  Can   you\tchoose\n later?  ", "can you choose later?");
	/* no-break space is white space, collapsed with its neighbours */
	assert_key("Defend\xC2\xA0" "2", "defend 2");
	assert_key("a \xC2\xA0 \xC2\xA0" "b", "a b");
	assert_key("\xC2\xA0lead and trail\xC2\xA0", "lead and trail");
	assert_key("   ", "");
	assert_key("", "");
}

static void test_key_folds_case(void **state)
{
	assert_key("Wind ASPECT", "wind aspect");
	assert_key("\xC3\x89" "vénement", "\xC3\xA9" "vénement");
	assert_key("\xD0\x90\xD1\x82\xD0\xB0\xD0\xBA\xD0\xB0  \xD0\x81",
	           "\xD0\xB0\xD1\x82\xD0\xB0\xD0\xBA\xD0\xB0 \xD0\xB5");
	/* the whole combination */
	assert_key("  \xE2\x80\x9CIt\xE2\x80\x99s\xE2\x80\x9D \xE2\x80\x94\xC2\xA0"
	           "FAST\t\tor   SLOW  ",
	           "\"it's\" - fast or slow");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_text),
		cmocka_unit_test(test_valid_overlong),
		cmocka_unit_test(test_valid_surrogates),
		cmocka_unit_test(test_valid_truncated),
		cmocka_unit_test(test_valid_out_of_range),
		cmocka_unit_test(test_valid_stray_bytes),
		cmocka_unit_test(test_decode_encode_round_trip),
		cmocka_unit_test(test_encode_known_bytes),
		cmocka_unit_test(test_decode_walks_a_string),
		cmocka_unit_test(test_decode_stops_at_the_end),
		cmocka_unit_test(test_edit_distance),
		cmocka_unit_test(test_nearest),
		cmocka_unit_test(test_fold_ascii),
		cmocka_unit_test(test_fold_latin1),
		cmocka_unit_test(test_fold_latin_extended_a),
		cmocka_unit_test(test_fold_cyrillic),
		cmocka_unit_test(test_fold_cyrillic_04c0_block),
		cmocka_unit_test(test_fold_greek),
		cmocka_unit_test(test_fold_greek_tonos),
		cmocka_unit_test(test_fold_cp_leaves_others),
		cmocka_unit_test(test_key_quotes),
		cmocka_unit_test(test_key_dashes),
		cmocka_unit_test(test_key_white_space),
		cmocka_unit_test(test_key_folds_case),
	};
	return cmocka_run_group_tests_name("utf8", tests, NULL, NULL);
}
