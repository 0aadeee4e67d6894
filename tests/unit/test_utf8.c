/* test_utf8.c — UTF-8 validation, decoding/encoding, case folding, keys. */
#include "helpers.h"
#include "utf8.h"

#include <sqlite3.h>
#include <stdio.h>
#include <utf8proc.h>
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
	/* × is no capital; ß folds to ss (full case folding) */
	assert_fold("\xC3\x97\xC3\x9F", "\xC3\x97ss");
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

/* Unicode's full case folding, as identity needs it: German ß and ẞ are
 * "ss", final sigma is σ, Turkish İ is i + U+0307 and ı stays ı (the
 * default folding, not the Turkish one). */
static void test_fold_full(void **state)
{
	assert_fold("Stra\xC3\x9F" "e", "strasse");              /* Straße */
	assert_fold("STRA\xE1\xBA\x9E" "E", "strasse");         /* STRAẞE */
	assert_fold("STRASSE", "strasse");
	/* Greek: ΟΔΟΣ, οδος with final ς, and with σ all meet */
	assert_fold("\xCE\x9F\xCE\x94\xCE\x9F\xCE\xA3",
	            "\xCE\xBF\xCE\xB4\xCE\xBF\xCF\x83");
	assert_fold("\xCE\xBF\xCE\xB4\xCE\xBF\xCF\x82",
	            "\xCE\xBF\xCE\xB4\xCE\xBF\xCF\x83");
	/* İ → i̇; I → i; ı stays */
	assert_fold("\xC4\xB0" "zmir", "i\xCC\x87zmir");
	assert_fold("Izmir", "izmir");
	assert_fold("\xC4\xB1", "\xC4\xB1");
	/* i + U+0307 typed by hand folds with İ */
	assert_fold("i\xCC\x87zmir", "i\xCC\x87zmir");
	/* ligatures and letters beyond the old tables: ﬁ, Armenian, Cherokee */
	assert_fold("\xEF\xAC\x81", "fi");
	assert_fold("\xD4\xB1", "\xD5\xA1");                    /* Ա → ա */
	/* the result is NFC: a decomposed capital folds to the composed
	 * small letter */
	assert_fold("E\xCC\x81", "\xC3\xA9");
}

/* Apostrophes and quotes as typeset fold to the plain ones, in tags as in
 * keys: "Lightning’s Boon" and "Lightning's Boon" are one tag. */
static void test_fold_quotes(void **state)
{
	assert_fold("Lightning\xE2\x80\x99s Boon", "lightning's boon");
	assert_fold("Lightning\xCA\xBCs Boon", "lightning's boon");   /* ʼ */
	assert_fold("\xE2\x80\x98" "a\xE2\x80\xB2", "'a'");          /* ‘ ′ */
	assert_fold("\xE2\x80\x9C" "a\xE2\x80\x9D \xE2\x80\x9E" "b\xC2\xAB"
	            "c\xC2\xBB", "\"a\" \"b\"c\"");
	char *q = rl_fold_quotes("\xE2\x80\x9C" "Fast Power\xE2\x80\x9D don\xE2\x80\x99t");
	assert_non_null(q);
	assert_string_equal(q, "\"Fast Power\" don't");
	free(q);
}

/* Bytes that are not UTF-8 are folded as U+FFFD, never read past. */
static void test_fold_invalid_utf8(void **state)
{
	assert_fold("\xE2\x82", "\xEF\xBF\xBD\xEF\xBF\xBD");
	assert_fold("A\xFF" "B", "a\xEF\xBF\xBD" "b");
	assert_key("X\xF0\x9F", "x\xEF\xBF\xBD\xEF\xBF\xBD");
	uint32_t cp = 0;
	/* a four-byte lead just before the end: one byte, U+FFFD */
	assert_int_equal(rl_utf8_decode("\xF0", &cp), 1);
	assert_int_equal(cp, 0xFFFD);
	assert_int_equal(rl_utf8_decode("\xE2\x82", &cp), 1);
	assert_int_equal(cp, 0xFFFD);
}

/* ---- rl_nfc ------------------------------------------------------------ */

static void assert_nfc(const char *in, const char *want)
{
	size_t n = 0;
	char *got = rl_nfc(in, strlen(in), &n);
	assert_non_null(got);
	bool same = strcmp(got, want) == 0 && n == strlen(want);
	if (!same)
		print_error("rl_nfc(\"%s\") = \"%s\", want \"%s\"\n", in, got, want);
	free(got);
	assert_true(same);
}

static void test_nfc_full(void **state)
{
	/* marks out of canonical order: dot below (220) before circumflex
	 * (230) either way gives ậ */
	assert_nfc("a\xCC\xA3\xCC\x82", "\xE1\xBA\xAD");
	assert_nfc("a\xCC\x82\xCC\xA3", "\xE1\xBA\xAD");
	/* Vietnamese: "Tiê\u0301ng Viê\u0323t" */
	assert_nfc("Tie\xCC\x82\xCC\x81ng Vie\xCC\xA3\xCC\x82t",
	           "Ti\xE1\xBA\xBFng Vi\xE1\xBB\x87t");
	/* a mark that composes with nothing is reordered but kept */
	assert_nfc("q\xCC\x81\xCC\xA3", "q\xCC\xA3\xCC\x81");
	/* Hangul jamo compose; the Angstrom sign is Å */
	assert_nfc("\xE1\x84\x80\xE1\x85\xA1", "\xEA\xB0\x80");
	assert_nfc("\xE2\x84\xAB", "\xC3\x85");
	/* NFC may lengthen a text: U+0958 is U+0915 U+093C */
	assert_nfc("\xE0\xA5\x98", "\xE0\xA4\x95\xE0\xA4\xBC");
	/* already NFC: the same bytes */
	assert_nfc("plain ASCII, caf\xC3\xA9, \xD0\xB9", "plain ASCII, caf\xC3\xA9, \xD0\xB9");
	assert_nfc("", "");
}

/* rl_nfc() copies text it judges NFC as it is: that must be utf8proc's
 * NFC of it, for every code point, between letters (and after a Hangul
 * syllable and a jamo, which compose with what follows). */
static void test_nfc_fast_path_agrees(void **state)
{
	static const char *const before[] = { "a", "\xEA\xB0\x80", "\xE1\x84\x80" };
	size_t differ = 0;
	for (uint32_t cp = 1; cp <= 0x1FFFF; cp++) {
		if (cp >= 0xD800 && cp <= 0xDFFF)
			continue;
		for (size_t b = 0; b < 3; b++) {
			char in[16] = "";
			size_t n = strlen(before[b]);
			memcpy(in, before[b], n);
			n += rl_utf8_encode(cp, in + n);
			in[n++] = 'b';
			size_t len = 0;
			char *got = rl_nfc(in, n, &len);
			utf8proc_uint8_t *want = utf8proc_NFC((const utf8proc_uint8_t *)in);
			assert_non_null(got);
			assert_non_null(want);
			if (strcmp(got, (const char *)want) != 0 ||
			    len != strlen((const char *)want)) {
				if (differ++ < 10)
					print_error("rl_nfc differs from NFC after '%s' at "
					            "U+%04X\n", before[b], (unsigned)cp);
			}
			free(got);
			free(want);
		}
	}
	assert_int_equal(differ, 0);
}

/* ---- rl_key_loose and the tokenizer ------------------------------------ */

static void assert_loose(const char *in, const char *want)
{
	assert_made(rl_key_loose, "rl_key_loose", in, want);
}

static void test_key_loose_accents(void **state)
{
	assert_loose("D\xC3\xA9" "fendre", "defendre");
	assert_loose("Ti\xE1\xBA\xBFng Vi\xE1\xBB\x87t", "tieng viet");
	/* Romanian: comma below and cedilla both fold to s, as in search */
	assert_loose("\xC8\x98" "i \xC8\x99" "i \xC5\x9E" "i \xC5\x9F" "i", "si si si si");
	assert_loose("\xC8\x9A" "ar\xC4\x83", "tara");          /* Țară */
	/* letters that are not a letter and marks stay: đ ø ı й ά */
	assert_loose("\xC4\x91\xC3\xB8\xC4\xB1", "\xC4\x91\xC3\xB8\xC4\xB1");
	assert_loose("\xD0\xB9\xCE\xAC", "\xD0\xB9\xCE\xAC");
	/* İ folds to i + U+0307, whose dot the tokenizer drops too */
	assert_loose("\xC4\xB0" "zmir", "izmir");
	assert_loose("Stra\xC3\x9F" "e", "strasse");
	/* a stray mark the tokenizer drops is dropped */
	assert_loose("q\xCC\x83", "q");
}

struct vocab {
	sqlite3 *db;
	sqlite3_stmt *ins, *terms, *del;
};

/* The tokens unicode61 (remove_diacritics 2) makes of s, space-separated. */
static char *tokens(struct vocab *v, const char *s)
{
	assert_int_equal(sqlite3_step(v->del), SQLITE_DONE);
	sqlite3_reset(v->del);
	sqlite3_bind_text(v->ins, 1, s, -1, SQLITE_TRANSIENT);
	assert_int_equal(sqlite3_step(v->ins), SQLITE_DONE);
	sqlite3_reset(v->ins);
	char buf[256] = "";
	while (sqlite3_step(v->terms) == SQLITE_ROW) {
		if (*buf)
			strncat(buf, " ", sizeof buf - strlen(buf) - 1);
		strncat(buf, (const char *)sqlite3_column_text(v->terms, 0),
		        sizeof buf - strlen(buf) - 1);
	}
	sqlite3_reset(v->terms);
	return strdup(buf);
}

/* The loose key drops exactly the accents the full-text tokenizer drops:
 * for every letter of the Latin, Greek and Cyrillic blocks, once case is
 * folded (the key's folding is full, the tokenizer's simple: ß is "ss" in
 * a key), the tokenizer's token of the letter and of its loose key are the
 * same, and the loose key of the token is the letter's loose key. */
static void test_key_loose_agrees_with_tokenizer(void **state)
{
	struct vocab v = {0};
	assert_int_equal(sqlite3_open(":memory:", &v.db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(v.db,
		"CREATE VIRTUAL TABLE t USING fts5(x, tokenize ="
		" 'unicode61 remove_diacritics 2');"
		"CREATE VIRTUAL TABLE tv USING fts5vocab(t, 'instance');",
		NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(v.db, "INSERT INTO t VALUES (?1)",
	                                    -1, &v.ins, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(v.db, "DELETE FROM t", -1, &v.del,
	                                    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(v.db, "SELECT term FROM tv"
	                                    " ORDER BY offset", -1, &v.terms,
	                                    NULL), SQLITE_OK);
	static const uint32_t ranges[][2] = {
		{ 0xC0, 0x24F }, { 0x370, 0x3FF }, { 0x400, 0x52F },
		{ 0x1E00, 0x1EFF }, { 0x1F00, 0x1FFF },
	};
	size_t checked = 0, differ = 0;
	for (size_t r = 0; r < sizeof ranges / sizeof *ranges; r++)
		for (uint32_t c = ranges[r][0]; c <= ranges[r][1]; c++) {
			/* ǡ/Ǡ (a, dot above, macron): the one letter SQLite's
			 * table keeps although it decomposes to a + marks; ŉ
			 * folds to "ʼn", an apostrophe (no token) and n */
			if (c == 0x1E0 || c == 0x1E1 || c == 0x149)
				continue;
			char ch[5] = {0};
			rl_utf8_encode(c, ch);
			char *folded = rl_fold(ch), *loose = rl_key_loose(ch);
			assert_non_null(folded);
			assert_non_null(loose);
			char *t_folded = tokens(&v, folded), *t_loose = tokens(&v, loose);
			char *loose_of_t = rl_key_loose(t_folded);
			assert_non_null(loose_of_t);
			/* a letter the tokenizer splits or drops is no token */
			if (*t_folded && !strchr(t_folded, ' ')) {
				checked++;
				if (strcmp(t_folded, t_loose) != 0 ||
				    strcmp(loose_of_t, loose) != 0) {
					differ++;
					print_error("U+%04X: tokenizer '%s', loose key '%s'"
					            " (its token '%s')\n", (unsigned)c,
					            t_folded, loose, t_loose);
				}
			}
			free(folded);
			free(loose);
			free(t_folded);
			free(t_loose);
			free(loose_of_t);
		}
	sqlite3_finalize(v.ins);
	sqlite3_finalize(v.del);
	sqlite3_finalize(v.terms);
	sqlite3_close(v.db);
	assert_true(checked > 1000);
	assert_int_equal(differ, 0);
}

static void test_unaccent_cp(void **state)
{
	assert_int_equal(rl_unaccent_cp(0xE9), 'e');     /* é */
	assert_int_equal(rl_unaccent_cp(0xC9), 'e');     /* É */
	assert_int_equal(rl_unaccent_cp(0x1EC7), 'e');   /* ệ */
	assert_int_equal(rl_unaccent_cp(0x219), 's');    /* ș */
	assert_int_equal(rl_unaccent_cp(0xF8), 0xF8);    /* ø */
	assert_int_equal(rl_unaccent_cp(0x439), 0x439);  /* й */
	assert_int_equal(rl_unaccent_cp('a'), 'a');
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
		cmocka_unit_test(test_fold_full),
		cmocka_unit_test(test_fold_quotes),
		cmocka_unit_test(test_fold_invalid_utf8),
		cmocka_unit_test(test_nfc_full),
		cmocka_unit_test(test_nfc_fast_path_agrees),
		cmocka_unit_test(test_key_loose_accents),
		cmocka_unit_test(test_key_loose_agrees_with_tokenizer),
		cmocka_unit_test(test_unaccent_cp),
		cmocka_unit_test(test_key_quotes),
		cmocka_unit_test(test_key_dashes),
		cmocka_unit_test(test_key_white_space),
		cmocka_unit_test(test_key_folds_case),
	};
	return cmocka_run_group_tests_name("utf8", tests, NULL, NULL);
}
