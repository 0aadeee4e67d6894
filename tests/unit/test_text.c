/* test_text.c — tags ("Name (Qualifier)") and language detection. */
#include "helpers.h"
#include "doc.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses s and checks the name and qualifier (NULL: none). */
static void assert_tag(const char *s, const char *name, const char *qualifier)
{
	struct rl_tag t = { (char *)"junk", (char *)"junk" };
	assert_int_equal(rl_tag_parse(s, &t), RL_OK);
	assert_non_null(t.name);
	assert_string_equal(t.name, name);
	if (qualifier) {
		assert_non_null(t.qualifier);
		assert_string_equal(t.qualifier, qualifier);
	} else {
		assert_null(t.qualifier);
	}
	rl_tag_clear(&t);
	assert_null(t.name);
	assert_null(t.qualifier);
}

static void assert_display(const char *name, const char *qualifier,
                           const char *want)
{
	char *got = rl_tag_display(name, qualifier);
	assert_non_null(got);
	bool same = strcmp(got, want) == 0;
	if (!same)
		print_error("rl_tag_display = \"%s\", want \"%s\"\n", got, want);
	free(got);
	assert_true(same);
}

static void assert_lang(const char *text, const char *want)
{
	assert_string_equal(rl_lang_detect(text, strlen(text)), want);
}

/* ---- rl_tag_parse ------------------------------------------------------ */

static void test_tag_name_and_qualifier(void **state)
{
	assert_tag("Wind Aspect (Lightning's Swift Strike)", "Wind Aspect",
	           "Lightning's Swift Strike");
	assert_tag("Speed (Fast/Slow)", "Speed", "Fast/Slow");
	/* blanks around the parts are trimmed */
	assert_tag("  Speed   ( Fast/Slow )  ", "Speed", "Fast/Slow");
	assert_tag("Speed(Fast/Slow)", "Speed", "Fast/Slow");
	assert_tag("\xD0\x90\xD1\x82\xD0\xB0\xD0\xBA\xD0\xB0 (\xD0\x91)",
	           "\xD0\x90\xD1\x82\xD0\xB0\xD0\xBA\xD0\xB0", "\xD0\x91");
}

static void test_tag_without_qualifier(void **state)
{
	assert_tag("Repeat", "Repeat", NULL);
	assert_tag("  Repeat\t", "Repeat", NULL);
	assert_tag("Time Passes", "Time Passes", NULL);
	/* parentheses that do not end the tag are part of the name */
	assert_tag("Foo (bar) baz", "Foo (bar) baz", NULL);
	/* an empty qualifier is no qualifier */
	assert_tag("Foo ()", "Foo ()", NULL);
	assert_tag("Foo (  )", "Foo (  )", NULL);
	/* unbalanced parentheses */
	assert_tag("Foo bar)", "Foo bar)", NULL);
	assert_tag("Foo (bar", "Foo (bar", NULL);
}

static void test_tag_parenthesis_alone_is_a_name(void **state)
{
	assert_tag("(Fast/Slow)", "(Fast/Slow)", NULL);
	assert_tag("  (Fast/Slow) ", "(Fast/Slow)", NULL);
}

static void test_tag_nested_parentheses(void **state)
{
	/* the qualifier is the last balanced group, whole */
	assert_tag("Foo (Bar (Baz))", "Foo", "Bar (Baz)");
	assert_tag("Foo (a) (b)", "Foo (a)", "b");
	assert_tag("Terror Stalks the Land (Breath of Darkness (Incarna))",
	           "Terror Stalks the Land", "Breath of Darkness (Incarna)");
	assert_tag("((x))", "((x))", NULL);
}

static void test_tag_empty(void **state)
{
	struct rl_tag t;
	assert_int_equal(rl_tag_parse("", &t), RL_EDATA);
	assert_null(t.name);
	assert_int_equal(rl_tag_parse("   \t ", &t), RL_EDATA);
	assert_int_equal(rl_tag_parse("\xC2\xA0", &t), RL_EDATA);
	assert_null(t.name);
	assert_null(t.qualifier);
	rl_tag_clear(&t);
	rl_tag_clear(NULL);
}

static void test_tag_display(void **state)
{
	assert_display("Speed", "Fast/Slow", "Speed (Fast/Slow)");
	assert_display("Wind Aspect", "Lightning's Swift Strike",
	               "Wind Aspect (Lightning's Swift Strike)");
	assert_display("Repeat", NULL, "Repeat");
	assert_display("Repeat", "", "Repeat");
}

static void test_tag_display_round_trip(void **state)
{
	static const char *const tags[] = {
		"Speed (Fast/Slow)", "Repeat", "Foo (Bar (Baz))", "(Fast/Slow)",
		"Wind Aspect (Lightning's Swift Strike)",
	};
	for (size_t i = 0; i < sizeof tags / sizeof *tags; i++) {
		struct rl_tag t;
		assert_int_equal(rl_tag_parse(tags[i], &t), RL_OK);
		char *s = rl_tag_display(t.name, t.qualifier);
		assert_non_null(s);
		assert_string_equal(s, tags[i]);
		free(s);
		rl_tag_clear(&t);
	}
}

/* One identity whichever way a tag arrives (issue 17 #12): the canonical
 * form is the parse of the display form, and canonicalizing it again
 * changes nothing. */
static void assert_canonical(const char *name, const char *qual,
                             const char *want_name, const char *want_qual)
{
	struct rl_tag t, again;
	assert_int_equal(rl_tag_canonical(name, qual, &t), RL_OK);
	assert_string_equal(t.name, want_name);
	if (want_qual)
		assert_string_equal(t.qualifier, want_qual);
	else
		assert_null(t.qualifier);
	assert_int_equal(rl_tag_canonical(t.name, t.qualifier, &again), RL_OK);
	assert_string_equal(again.name, t.name);
	assert_true(!again.qualifier == !t.qualifier);
	if (t.qualifier)
		assert_string_equal(again.qualifier, t.qualifier);
	rl_tag_clear(&t);
	rl_tag_clear(&again);
}

static void test_tag_canonical(void **state)
{
	assert_canonical("A (B)", NULL, "A", "B");
	assert_canonical("A", "B", "A", "B");
	assert_canonical(" A ", " B ", "A", "B");
	assert_canonical("x", "y) (z", "x (y)", "z");
	assert_canonical("x (y)", "z", "x (y)", "z");
	assert_canonical("x (y) (z)", NULL, "x (y)", "z");
	assert_canonical("Foo", "Bar (Baz)", "Foo", "Bar (Baz)");
	assert_canonical("(Fast/Slow)", NULL, "(Fast/Slow)", NULL);
	assert_canonical("a (b", "c", "a (b", "c");
	assert_canonical("a", ")(", "a ()()", NULL);
	assert_canonical("Repeat", "", "Repeat", NULL);
	struct rl_tag t;
	assert_int_equal(rl_tag_canonical("", NULL, &t), RL_EDATA);
	rl_tag_clear(&t);
}

/* An entry's tags are a set of canonical tags, case aside. */
static void test_entry_tags_are_a_set(void **state)
{
	struct rl_entry e = { .hidden_tags = -1 };
	assert_int_equal(rl_entry_add_tag(&e, "A (B)", NULL), RL_OK);
	assert_int_equal(rl_entry_add_tag(&e, "A", "B"), RL_OK);
	assert_int_equal(rl_entry_add_tag(&e, "a", "b"), RL_OK);
	assert_int_equal(rl_entry_add_tag(&e, "A", NULL), RL_OK);
	assert_int_equal(e.ntags, 2);
	/* past the point where an index is kept */
	char name[32];
	for (int i = 0; i < 100; i++) {
		snprintf(name, sizeof name, "T%d", i % 50);
		assert_int_equal(rl_entry_add_tag(&e, name, NULL), RL_OK);
	}
	assert_int_equal(e.ntags, 52);
	assert_int_equal(rl_entry_add_tag(&e, "t7", NULL), RL_OK);
	assert_int_equal(rl_entry_add_tag(&e, "a (B)", NULL), RL_OK);
	assert_int_equal(e.ntags, 52);
	rl_entry_clear(&e);
}

/* ---- rl_lang_detect ---------------------------------------------------- */

static void test_lang_english(void **state)
{
	assert_lang("With the aspect Wind for Lightning's Swift Strike, can you "
	            "choose later which Power to make fast? Yes, you can choose at "
	            "any point in the turn.", "en");
	assert_lang("Does Defend guard both the land and the Dahan?", "en");
}

static void test_lang_french(void **state)
{
	assert_lang("Les capacit\xC3\xA9s d\xC3\xA9" "clench\xC3\xA9" "es ne sont "
	            "pas des actions rapides : elles se produisent automatiquement "
	            "lorsque leur condition est remplie.", "fr");
	assert_lang("Isoler emp\xC3\xAA" "che les Envahisseurs d'explorer cette "
	            "r\xC3\xA9gion pour le tour.", "fr");
}

static void test_lang_russian(void **state)
{
	assert_lang("\xD0\x91\xD1\x8B\xD1\x81\xD1\x82\xD1\x80\xD0\xB0\xD1\x8F "
	            "\xD0\xB0\xD1\x82\xD0\xB0\xD0\xBA\xD0\xB0 \xD0\xBC\xD0\xBE"
	            "\xD0\xB6\xD0\xB5\xD1\x82 \xD0\xB1\xD1\x8B\xD1\x82\xD1\x8C "
	            "\xD0\xBE\xD0\xB1\xD1\x8A\xD1\x8F\xD0\xB2\xD0\xBB\xD0\xB5"
	            "\xD0\xBD\xD0\xB0 \xD0\xB2 \xD0\xBB\xD1\x8E\xD0\xB1\xD0\xBE"
	            "\xD0\xB9 \xD0\xBC\xD0\xBE\xD0\xBC\xD0\xB5\xD0\xBD\xD1\x82.",
	            "ru");
	/* a few Latin words (tags, labels) do not outweigh the Cyrillic */
	assert_lang("\xD0\x9C\xD0\xB5\xD0\xB4\xD0\xBB\xD0\xB5\xD0\xBD\xD0\xBD"
	            "\xD0\xB0\xD1\x8F \xD0\xB0\xD1\x82\xD0\xB0\xD0\xBA\xD0\xB0 "
	            "(Swift) Tags: X", "ru");
}

static void test_lang_seed_files(void **state)
{
	static const struct { const char *prefix, *lang; } seeds[] = {
		{ "000_", "en" }, { "001_", "en" }, { "002_", "fr" },
		{ "003_", "fr" }, { "004_", "ru" },
	};
	for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++) {
		char *path = test_seed_path(seeds[i].prefix);
		size_t len;
		char *text = test_read_file(path, &len);
		assert_string_equal(rl_lang_detect(text, len), seeds[i].lang);
		free(text);
		free(path);
	}
}

static void test_strset(void **state)
{
	(void)state;
	struct rl_strset set = {0};
	char buf[32];
	for (int i = 0; i < 5000; i++) {
		snprintf(buf, sizeof buf, "key %d", i);
		assert_int_equal(rl_strset_add(&set, buf, strlen(buf)), 1);
	}
	assert_int_equal(set.n, 5000);
	for (int i = 0; i < 5000; i++) {
		snprintf(buf, sizeof buf, "key %d", i);
		assert_true(rl_strset_has(&set, buf, strlen(buf)));
		assert_int_equal(rl_strset_add(&set, buf, strlen(buf)), 0);
	}
	assert_false(rl_strset_has(&set, "key 5000", 8));
	assert_false(rl_strset_has(&set, "key 1", 4));   /* a prefix only */
	assert_int_equal(set.n, 5000);
	rl_strset_free(&set);
	assert_false(rl_strset_has(&set, "key 1", 5));
	rl_strset_free(&set);   /* twice: harmless */
}

/* rl_strmap: each key keeps the number it was first given, through the
 * growths of the table; a prefix is another key. */
static void test_strmap(void **state)
{
	(void)state;
	struct rl_strmap map = {0};
	char buf[32];
	size_t was = 0;
	for (size_t i = 0; i < 5000; i++) {
		snprintf(buf, sizeof buf, "key %zu", i);
		assert_int_equal(rl_strmap_add(&map, buf, strlen(buf), i, &was), 1);
	}
	assert_int_equal(map.n, 5000);
	for (size_t i = 0; i < 5000; i++) {
		snprintf(buf, sizeof buf, "key %zu", i);
		was = 99999;
		assert_int_equal(rl_strmap_add(&map, buf, strlen(buf), 7, &was), 0);
		assert_int_equal(was, i);
	}
	assert_int_equal(rl_strmap_add(&map, "key 1", 4, 5000, &was), 1);
	assert_int_equal(rl_strmap_add(&map, "key ", 4, 1, &was), 0);
	assert_int_equal(was, 5000);
	assert_int_equal(map.n, 5001);
	rl_strmap_free(&map);
	assert_int_equal(rl_strmap_add(&map, "key 1", 5, 3, &was), 1);
	rl_strmap_free(&map);
	rl_strmap_free(&map);   /* twice: harmless */
}

/* rl_entry_has_ref: the same answers by scan (few refs) and by the index
 * (many), kept up to date by rl_entry_add_ref. */
static void test_entry_has_ref(void **state)
{
	(void)state;
	struct rl_entry e = { .hidden_tags = -1 };
	char buf[32];
	bool found;
	for (int i = 0; i < 200; i++) {
		snprintf(buf, sizeof buf, "%d", i);
		assert_int_equal(rl_entry_has_ref(&e, RL_REF_PAGE, buf, &found), RL_OK);
		assert_false(found);
		assert_int_equal(rl_entry_add_ref(&e, RL_REF_PAGE, buf), RL_OK);
		assert_int_equal(rl_entry_has_ref(&e, RL_REF_PAGE, buf, &found), RL_OK);
		assert_true(found);
		/* the kind is part of the identity */
		assert_int_equal(rl_entry_has_ref(&e, RL_REF_RULE, buf, &found), RL_OK);
		assert_false(found);
	}
	assert_non_null(e.ref_index);
	assert_int_equal(rl_entry_has_ref(&e, RL_REF_PAGE, "7", &found), RL_OK);
	assert_true(found);
	assert_int_equal(rl_entry_has_ref(&e, RL_REF_PAGE, "200", &found), RL_OK);
	assert_false(found);
	rl_entry_clear(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tag_name_and_qualifier),
		cmocka_unit_test(test_tag_canonical),
		cmocka_unit_test(test_entry_tags_are_a_set),
		cmocka_unit_test(test_tag_without_qualifier),
		cmocka_unit_test(test_tag_parenthesis_alone_is_a_name),
		cmocka_unit_test(test_tag_nested_parentheses),
		cmocka_unit_test(test_tag_empty),
		cmocka_unit_test(test_tag_display),
		cmocka_unit_test(test_tag_display_round_trip),
		cmocka_unit_test(test_lang_english),
		cmocka_unit_test(test_lang_french),
		cmocka_unit_test(test_lang_russian),
		cmocka_unit_test(test_lang_seed_files),
		cmocka_unit_test(test_strset),
		cmocka_unit_test(test_strmap),
		cmocka_unit_test(test_entry_has_ref),
	};
	return cmocka_run_group_tests_name("text", tests, NULL, NULL);
}
