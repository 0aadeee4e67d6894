/* test_msg.c — the message catalog (src/msg.h and the .po files in po/): every message in
 * every language, plural forms, placeholders, lookup. */
#include "helpers.h"
#include "msg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The placeholders {1}..{9} of s, as a bit set. */
static unsigned placeholders(const char *s)
{
	unsigned set = 0;
	for (const char *p = s; (p = strchr(p, '{')) != NULL; p++)
		if (p[1] >= '1' && p[1] <= '9' && p[2] == '}')
			set |= 1u << (p[1] - '0');
	return set;
}

/* s has a letter outside its placeholders. */
static bool has_word(const char *s)
{
	for (const char *p = s; *p; p++) {
		if (*p == '{' && p[1] >= '1' && p[1] <= '9' && p[2] == '}')
			p += 2;
		else if ((unsigned char)*p >= 0x80 ||
		         ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z'))
			return true;
	}
	return false;
}

/* Each message has its forms in en, fr and ru, non-empty, with the
 * English message's placeholders; the languages differ from English
 * (no message left untranslated but the few words that are the same). */
static void test_complete(void **state)
{
	static const char *const want[] = { "en", "fr", "ru" };
	assert_int_equal(msg_nlangs, 3);
	for (size_t k = 0; k < 3; k++)
		assert_string_equal(msg_langs[k].code, want[k]);
	assert_int_equal(msg_langs[0].nplurals, 2);
	assert_int_equal(msg_langs[1].nplurals, 2);
	assert_int_equal(msg_langs[2].nplurals, 3);
	size_t same[3] = {0};
	for (int id = 0; id < MSG_COUNT; id++) {
		const char *en = msg_langs[0].strings[id][0];
		assert_non_null(msg_info[id].name);
		for (size_t k = 0; k < msg_nlangs; k++) {
			const struct msg_lang *l = &msg_langs[k];
			unsigned forms = msg_info[id].plural ? l->nplurals : 1;
			for (unsigned f = 0; f < MSG_FORMS; f++) {
				const char *s = l->strings[id][f];
				if (f >= forms) {
					assert_null(s);
					continue;
				}
				assert_non_null(s);
				assert_true(*s);
				assert_int_equal(placeholders(s), placeholders(en));
			}
			/* a message of no word ("{1}: {2}") is no translation */
			same[k] += !strcmp(l->strings[id][0], en) && has_word(en);
		}
	}
	/* "faq", "errata", "page {1}", ", p. {1}": the few words French
	 * shares with English */
	assert_true(same[1] <= 5);
	assert_int_equal(same[2], 0);
}

/* The plural rules: Russian 1 правило, 2 правила, 5 правил (and 11–14
 * are "many", 21 is "one"); French 0 and 1 singular; English 0 plural. */
static void test_plural(void **state)
{
	static const struct { const char *lang; size_t n; const char *s; } v[] = {
		{ "ru", 1, "1 правило" }, { "ru", 2, "2 правила" },
		{ "ru", 4, "4 правила" }, { "ru", 5, "5 правил" },
		{ "ru", 11, "11 правил" }, { "ru", 12, "12 правил" },
		{ "ru", 14, "14 правил" }, { "ru", 21, "21 правило" },
		{ "ru", 22, "22 правила" }, { "ru", 25, "25 правил" },
		{ "ru", 111, "111 правил" }, { "ru", 0, "0 правил" },
		{ "ru", 3994, "3994 правила" },
		{ "fr", 0, "0 règle" }, { "fr", 1, "1 règle" },
		{ "fr", 2, "2 règles" },
		{ "en", 0, "0 rules" }, { "en", 1, "1 rule" }, { "en", 2, "2 rules" },
	};
	for (size_t k = 0; k < sizeof v / sizeof *v; k++) {
		char *s = msg_count(msg_find(v[k].lang), MSG_RULES_COUNT, v[k].n);
		assert_non_null(s);
		assert_string_equal(s, v[k].s);
		free(s);
	}
	char *s = msg_count(msg_find("ru"), MSG_RULINGS_COUNT, 31);
	assert_string_equal(s, "31 разъяснение");
	free(s);
}

static void test_lookup(void **state)
{
	assert_string_equal(msg_find("fr-CA")->code, "fr");
	assert_string_equal(msg_find("ru")->code, "ru");
	assert_null(msg_find("de"));
	assert_null(msg_find(NULL));
	assert_null(msg_find("e"));
	assert_string_equal(msg_lang_or_en("de")->code, "en");
	assert_string_equal(msg_get(msg_find("ru"), MSG_TAGS_LABEL), "Теги: ");
	assert_string_equal(msg_get(msg_find("en"), MSG_ALL_TAGS), "All tags");
}

/* The words for the codes the data holds: kinds of ruling and of
 * change, language names in the reader's language; other codes as they
 * are. */
static void test_words(void **state)
{
	typedef const char *(*word_fn)(const struct msg_lang *, const char *);
	static const struct {
		word_fn f;
		const char *lang, *code, *want;
	} v[] = {
		{ msg_lang_name, "en", "fr", "French" },
		{ msg_lang_name, "fr", "fr", "français" },
		{ msg_lang_name, "ru", "fr-CA", "французский" },
		{ msg_lang_name, "ru", "en", "английский" },
		{ msg_lang_name, "fr", "ru", "russe" },
		{ msg_lang_name, "en", "de", "de" },
		{ msg_lang_name, "en", "e", "e" },
		{ msg_change, "fr", "edited", "Modifiée" },
		{ msg_change, "ru", "withdrawn", "Отозвано" },
		{ msg_change, "en", "marked", "Marked as changed by the source" },
		{ msg_change, "en", "moved", "moved" },
		{ msg_kind, "ru", "rule", "правило" },
		{ msg_kind, "fr", "faq", "faq" },
		{ msg_kind, "en", "glossaryx", "glossaryx" },
	};
	for (size_t k = 0; k < sizeof v / sizeof *v; k++)
		assert_string_equal(v[k].f(msg_find(v[k].lang), v[k].code), v[k].want);
	assert_null(msg_lang_name(msg_find("en"), NULL));
}

/* The language of most items: of those equally frequent, the first to
 * reach that count. */
static void test_tally(void **state)
{
	struct msg_tally t = {0};
	assert_null(msg_tally_best(&t));
	msg_tally_add(&t, NULL);
	msg_tally_add(&t, "");
	assert_null(msg_tally_best(&t));
	char fr[] = "fr";
	const char *const v[] = { "en", "fr", fr, "ru", "en" };
	for (size_t k = 0; k < 5; k++)
		msg_tally_add(&t, v[k]);
	/* en 2, fr 2: fr reached 2 first */
	assert_string_equal(msg_tally_best(&t), "fr");
	msg_tally_add(&t, "en");
	assert_string_equal(msg_tally_best(&t), "en");
	struct msg_tally many = {0};
	char code[20][4];
	for (int k = 0; k < 20; k++) {
		snprintf(code[k], sizeof code[k], "l%d", k);
		msg_tally_add(&many, code[k]);
		msg_tally_add(&many, code[k]);
	}
	msg_tally_add(&many, "l19");                /* not counted: 17th */
	msg_tally_add(&many, "l3");
	assert_string_equal(msg_tally_best(&many), "l3");
}

static void test_fill(void **state)
{
	const char *const args[] = { "A", "B{1}" };
	char *s = msg_fill("{2} then {1}, {3} {x} {", 2, args);
	assert_string_equal(s, "B{1} then A, {3} {x} {");
	free(s);
	s = msg_fill("", 0, NULL);
	assert_string_equal(s, "");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_complete),
		cmocka_unit_test(test_plural),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_fill),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_tally),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
