/* test_export.c — file names for tags in an export directory. */
#include "helpers.h"
#include "sha256.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* name must be SLUG-HASH.html, with HASH the first 12 hex digits of the
 * SHA-256 of tag */
static void assert_name(const char *tag, const char *slug)
{
	char *name = rl_export_filename(tag, ".html");
	assert_non_null(name);
	char hex[65], want[256];
	rl_sha256_hex(tag, strlen(tag), hex);
	snprintf(want, sizeof want, "%s-%.12s.html", slug, hex);
	assert_string_equal(name, want);
	assert_null(strchr(name, '/'));
	assert_int_not_equal(name[0], '.');
	free(name);
}

static void test_plain(void **state)
{
	assert_name("Defend", "defend");
	assert_name("Speed (Fast/Slow)", "speed-fast-slow");
	assert_name("Lightning's Boon (Lightning's Swift Strike)",
	            "lightning-s-boon-lightning-s-swift-strike");
}

static void test_hostile(void **state)
{
	assert_name("../../x", "x");
	assert_name("..", "tag");
	assert_name(".", "tag");
	assert_name("/etc/passwd", "etc-passwd");
	assert_name("<script>alert(1)</script>", "script-alert-1-script");
	assert_name("\"quoted\" & 'single'", "quoted-single");
	assert_name("", "tag");
}

static void test_letters(void **state)
{
	assert_name("Défendre", "defendre");
	assert_name("ÉLAN Çà", "elan-ca");
	/* Cyrillic transliterated (it was "tag": no letter of a Russian
	 * site's names was readable); ъ and ь within their words */
	assert_name("Быстрые и медленные атаки", "bystrye-i-medlennye-ataki");
	assert_name("Подъём Щита, Ёж и Юла", "podem-shchita-ezh-i-iula");
	assert_name("Ґанок Їжака", "ganok-izhaka");
	assert_name("Cache (pile de résolution)", "cache-pile-de-resolution");
	/* not UTF-8: bytes above 0x7F are not letters */
	assert_name("a\xff\xfe" "b", "a-b");
}

static void test_long(void **state)
{
	char tag[300];
	memset(tag, 'a', sizeof tag - 1);
	tag[sizeof tag - 1] = '\0';
	char *name = rl_export_filename(tag, NULL);
	assert_non_null(name);
	assert_int_equal(strlen(name), 48 + 1 + 12);
	free(name);
	/* a letter's Latin is not cut: 47 'a' and 'щ' stop before the
	 * "shch" (48 + 4 bytes) */
	char ru[200];
	memset(ru, 'a', 47);
	strcpy(ru + 47, "щит");
	name = rl_export_filename(ru, NULL);
	assert_non_null(name);
	assert_int_equal(strlen(name), 47 + 1 + 12);
	free(name);
}

/* tags that slug alike get different names; the same tag the same one */
static void test_distinct(void **state)
{
	const char *tags[] = { "Defend", "defend", "DEFEND!", "Défend",
	                       "../defend", "defend (x)", "Defend (X)" };
	size_t n = sizeof tags / sizeof *tags;
	char *names[sizeof tags / sizeof *tags];
	for (size_t i = 0; i < n; i++) {
		names[i] = rl_export_filename(tags[i], ".md");
		assert_non_null(names[i]);
		char *again = rl_export_filename(tags[i], ".md");
		assert_string_equal(names[i], again);
		free(again);
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			assert_string_not_equal(names[i], names[j]);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_letters),
		cmocka_unit_test(test_long),
		cmocka_unit_test(test_distinct),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
