/* test_stem.c — the rl_stem tokenizer: word forms, folding, phrases and
 * prefixes in English, French and Russian, on FTS5 tables of its own
 * (version 2, as schema 11 declares them; "fr1" is version 1, as older
 * databases declare it; "fr3" version 3, as schema 12 declares the French
 * table). */
#include "helpers.h"
#include "stemtok.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int setup(void **state)
{
	sqlite3 *db = NULL;
	if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
	    rl_stemtok_register(db) != SQLITE_OK)
		return -1;
	const char *sql =
		"CREATE VIRTUAL TABLE en USING fts5(x, tokenize='rl_stem 2 en');"
		"CREATE VIRTUAL TABLE fr USING fts5(x, tokenize='rl_stem 2 fr');"
		"CREATE VIRTUAL TABLE fr1 USING fts5(x, tokenize='rl_stem fr');"
		"CREATE VIRTUAL TABLE forms USING fts5(x, tokenize='rl_stem 2 fr');"
		"CREATE VIRTUAL TABLE ru USING fts5(x, tokenize='rl_stem 2 en');"
		"CREATE VIRTUAL TABLE both USING fts5(x, tokenize='rl_stem 2 en fr');"
		"CREATE VIRTUAL TABLE plain USING fts5(x, tokenize='rl_stem 2 none');"
		"INSERT INTO en VALUES ('Does Defend guard both the land?'),"
		"  ('Powers attacking twice'), ('nothing here');"
		"INSERT INTO fr VALUES ('les Terres désolées ajoutent une réponse'),"
		"  ('Isoler empêche les Envahisseurs d''Explorer');"
		"INSERT INTO ru VALUES ('такая атака называется медленной атакой'),"
		"  ('атакующий игрок; Ёлка и атаки'), ('Swift rules in Latin');"
		"INSERT INTO both VALUES ('les réponses rapides, the defended lands');"
		"INSERT INTO plain VALUES ('defended réponse');"
		/* one form a row: a verb's and an adjective's inflections */
		"INSERT INTO forms VALUES ('défausse'), ('défausser'),"
		"  ('défaussée'), ('défaussez'), ('épuisé'), ('épuisée'),"
		"  ('épuiser'), ('une carte');"
		"INSERT INTO fr1 SELECT x FROM forms;"
		"CREATE VIRTUAL TABLE fr3 USING fts5(x, tokenize='rl_stem 3 fr');"
		/* one form a row: what Snowball leaves apart, and words that
		 * must stay apart */
		"INSERT INTO fr3 VALUES ('défaussent'), ('défausse'),"
		"  ('défaussée'), ('modifie'), ('modifier'), ('modifient'),"
		"  ('paye'), ('payer'), ('entre'), ('entrer'), ('comment'),"
		"  ('comme'), ('présent'), ('près'), ('parent'), ('par'),"
		"  ('moment'), ('môme'), ('dément'), ('demi'), ('sèment'),"
		"  ('semer'), ('accès'), ('accent'), ('une carte');";
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return -1;
	*state = db;
	return 0;
}

static int teardown(void **state)
{
	sqlite3_close(*state);
	return 0;
}

/* Rows of table matching q; -1 on an FTS5 error. */
static int count(sqlite3 *db, const char *table, const char *q)
{
	char sql[256];
	snprintf(sql, sizeof sql, "SELECT count(*) FROM %s WHERE %s MATCH ?1",
	         table, table);
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, q, -1, SQLITE_STATIC);
	int n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
	sqlite3_finalize(st);
	return n;
}

static void test_english_forms(void **state)
{
	assert_int_equal(count(*state, "en", "defended"), 1);
	assert_int_equal(count(*state, "en", "defending"), 1);
	assert_int_equal(count(*state, "en", "power"), 1);
	assert_int_equal(count(*state, "en", "attack"), 1);
	assert_int_equal(count(*state, "en", "DEFEND"), 1);
	assert_int_equal(count(*state, "en", "elephant"), 0);
}

static void test_french_forms_and_accents(void **state)
{
	assert_int_equal(count(*state, "fr", "reponses"), 1);
	assert_int_equal(count(*state, "fr", "réponse"), 1);
	assert_int_equal(count(*state, "fr", "desolee"), 1);
	assert_int_equal(count(*state, "fr", "désolée"), 1);
	assert_int_equal(count(*state, "fr", "isole"), 1);
	assert_int_equal(count(*state, "fr", "envahisseur"), 1);
}

static void test_russian_forms(void **state)
{
	assert_int_equal(count(*state, "ru", "атаками"), 2);
	assert_int_equal(count(*state, "ru", "атака"), 2);
	assert_int_equal(count(*state, "ru", "медленная"), 1);
	/* Latin words in a Russian table: stemmed as English */
	assert_int_equal(count(*state, "ru", "rule"), 1);
}

static void test_yo_is_ye(void **state)
{
	assert_int_equal(count(*state, "ru", "елка"), 1);
	assert_int_equal(count(*state, "ru", "ёлка"), 1);
	assert_int_equal(count(*state, "ru", "ЁЛКИ"), 1);
}

static void test_phrases(void **state)
{
	assert_int_equal(count(*state, "ru", "\"медленная атака\""), 1);
	assert_int_equal(count(*state, "ru", "\"атака медленная\""), 0);
	assert_int_equal(count(*state, "fr", "\"terres desolees\""), 1);
	assert_int_equal(count(*state, "en", "\"defend guards\""), 1);
	assert_int_equal(count(*state, "ru", "NEAR(называется атакой, 2)"), 1);
}

static void test_prefixes_match_words_as_written(void **state)
{
	assert_int_equal(count(*state, "ru", "атак*"), 2);
	/* "атакую" stems to nothing that prefixes "атакующий"'s stem: the
	 * unstemmed form, indexed beside the stem, is what matches */
	assert_int_equal(count(*state, "ru", "атакую*"), 1);
	assert_int_equal(count(*state, "en", "attacki*"), 1);
	assert_int_equal(count(*state, "fr", "répon*"), 1);
}

static void test_two_latin_languages(void **state)
{
	assert_int_equal(count(*state, "both", "defend"), 1);
	assert_int_equal(count(*state, "both", "reponse"), 1);
	assert_int_equal(count(*state, "both", "rapide"), 1);
}

static void test_none_folds_but_does_not_stem(void **state)
{
	assert_int_equal(count(*state, "plain", "defended"), 1);
	assert_int_equal(count(*state, "plain", "reponse"), 1);
	assert_int_equal(count(*state, "plain", "defend"), 0);
}

/* Version 2 stems the word as written, then folds the stem: every
 * inflection finds every other. */
static void test_french_inflections_meet(void **state)
{
	const char *defausse[] = { "défausse", "défausser", "défaussée",
	                           "défaussez", "DÉFAUSSÉES", "défaussé" };
	for (size_t i = 0; i < sizeof defausse / sizeof *defausse; i++)
		assert_int_equal(count(*state, "forms", defausse[i]), 4);
	const char *epuise[] = { "épuisé", "épuisée", "épuiser", "épuisés" };
	for (size_t i = 0; i < sizeof epuise / sizeof *epuise; i++)
		assert_int_equal(count(*state, "forms", epuise[i]), 3);
	/* phrases and prefixes go the same way */
	assert_int_equal(count(*state, "forms", "\"épuisées\""), 3);
	assert_int_equal(count(*state, "forms", "défau*"), 4);
	assert_int_equal(count(*state, "forms", "defau*"), 4);
	assert_int_equal(count(*state, "forms", "épuisée*"), 1);
}

/* Typed without accents, a word finds what it found when the tokenizer
 * folded first: the stem of the folded word is indexed too. */
static void test_french_without_accents(void **state)
{
	assert_int_equal(count(*state, "forms", "defaussee"),
	                 count(*state, "fr1", "defaussee"));
	assert_int_equal(count(*state, "forms", "defaussee"), 2);
	assert_int_equal(count(*state, "forms", "epuisee"),
	                 count(*state, "fr1", "epuisee"));
	/* (and where the folded word stems as the accented one does, all) */
	assert_int_equal(count(*state, "forms", "defausser"), 4);
	assert_int_equal(count(*state, "forms", "epuiser"), 3);
}

/* Version 1, which older databases declare, is as it was: folded before
 * stemming, "défaussée" and "épuiser" miss some of their other forms. */
static void test_version_1_unchanged(void **state)
{
	assert_int_equal(count(*state, "fr1", "défausser"), 3);
	assert_int_equal(count(*state, "fr1", "défaussée"), 2);
	assert_int_equal(count(*state, "fr1", "épuiser"), 2);
}

static void test_russian_yo_version_2(void **state)
{
	sqlite3 *db = *state;
	assert_int_equal(sqlite3_exec(db, "CREATE VIRTUAL TABLE ru2 USING"
	                 " fts5(x, tokenize='rl_stem 2 en');"
	                 "INSERT INTO ru2 VALUES ('ещё одна атака'),"
	                 " ('зелёные карты'), ('Ёж')", NULL, NULL, NULL),
	                 SQLITE_OK);
	assert_int_equal(count(db, "ru2", "еще"), 1);
	assert_int_equal(count(db, "ru2", "ещё"), 1);
	assert_int_equal(count(db, "ru2", "зеленая"), 1);
	assert_int_equal(count(db, "ru2", "зелёной"), 1);
	assert_int_equal(count(db, "ru2", "ЕЖА"), 1);
	assert_int_equal(count(db, "ru2", "зелён*"), 1);
	assert_int_equal(count(db, "ru2", "зелен*"), 1);
}

/* Version 3: the inflections Snowball leaves apart meet at their verb
 * root — third person plurals, -ier and -yer verbs, short words — typed
 * with or without accents. */
static void test_version_3_verb_roots(void **state)
{
	const char *const groups[][4] = {
		{ "défaussent", "défausse", "défaussée", "DÉFAUSSÉS" },
		{ "modifie", "modifier", "modifient", "modifiées" },
		{ "paye", "payer", "payée", "payez" },
		{ "entre", "entrer", "entrent", "entrée" },
	};
	const int want[] = { 3, 3, 2, 2 };
	for (size_t g = 0; g < sizeof groups / sizeof *groups; g++)
		for (size_t i = 0; i < 4; i++)
			assert_int_equal(count(*state, "fr3", groups[g][i]), want[g]);
	assert_int_equal(count(*state, "fr3", "sèment"), 2);
	assert_int_equal(count(*state, "fr3", "semer"), 2);
	assert_int_equal(count(*state, "fr3", "defaussent"), 3);
	assert_int_equal(count(*state, "fr3", "defaussees"), 3);
	/* phrases and prefixes as before */
	assert_int_equal(count(*state, "fr3", "\"modifient\""), 3);
	assert_int_equal(count(*state, "fr3", "défaussen*"), 1);
	/* version 2 keeps them apart, as its indexes were made */
	assert_int_equal(count(*state, "fr", "ajoute"), 0);
	assert_int_equal(count(*state, "forms", "défaussent"), 0);
}

/* ...and words that only look like a verb's forms stay apart: -ent words
 * that are no verb, whose root is another word's. */
static void test_version_3_non_merges(void **state)
{
	assert_int_equal(count(*state, "fr3", "comment"), 1);
	assert_int_equal(count(*state, "fr3", "comme"), 1);
	assert_int_equal(count(*state, "fr3", "présent"), 1);
	assert_int_equal(count(*state, "fr3", "près"), 1);
	assert_int_equal(count(*state, "fr3", "parent"), 1);
	assert_int_equal(count(*state, "fr3", "par"), 1);
	assert_int_equal(count(*state, "fr3", "moment"), 1);
	assert_int_equal(count(*state, "fr3", "môme"), 1);
	assert_int_equal(count(*state, "fr3", "dément"), 1);
	assert_int_equal(count(*state, "fr3", "demi"), 1);
	/* -ès is no ending of the paradigm */
	assert_int_equal(count(*state, "fr3", "accès"), 1);
	assert_int_equal(count(*state, "fr3", "accent"), 1);
	assert_int_equal(count(*state, "fr3", "carte"), 1);
	assert_int_equal(count(*state, "fr3", "cartes"), 1);
}

/* highlight() of the first row of table matching q, in [ ], malloc'd;
 * NULL on an error. */
static char *hl(sqlite3 *db, const char *table, const char *q)
{
	char sql[256];
	snprintf(sql, sizeof sql, "SELECT highlight(%s, 0, '[', ']') FROM %s"
	         " WHERE %s MATCH ?1 ORDER BY rowid LIMIT 1", table, table, table);
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(st, 1, q, -1, SQLITE_STATIC);
	char *r = NULL;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		r = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return r;
}

static void assert_hl(sqlite3 *db, const char *table, const char *q,
                      const char *want)
{
	char *got = hl(db, table, q);
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

/* snippet() and highlight() tokenize a text again (FTS5_TOKENIZE_AUX),
 * unstemmed: each word must keep the place the index gave it, after words
 * indexed under several forms (stems, roots, the folded word, colocated),
 * accented, Cyrillic, of no stemmed script, or a mark alone that folds to
 * nothing. */
static void test_highlight_places(void **state)
{
	sqlite3 *db = *state;
	assert_int_equal(sqlite3_exec(db,
		"CREATE VIRTUAL TABLE hl3 USING fts5(x, tokenize='rl_stem 3 fr');"
		"CREATE VIRTUAL TABLE hlb USING fts5(x, tokenize='rl_stem 3 en fr');"
		"CREATE VIRTUAL TABLE hlr USING fts5(x, tokenize='rl_stem 2 en');"
		"CREATE VIRTUAL TABLE hln USING fts5(x, tokenize='rl_stem 2 none');"
		"INSERT INTO hl3 VALUES ('Les Terres désolées défaussent, modifient"
		"  et épuisées : une réponse, des réponses');"
		"INSERT INTO hlb VALUES ('les réponses rapides, the defended lands,"
		"  épuisé lands');"
		"INSERT INTO hlr VALUES ('Ёлка: атакующий игрок, ещё одна атака');"
		"INSERT INTO hln VALUES ('x \xCC\x81 日本語 défendu, zebra');",
		NULL, NULL, NULL), SQLITE_OK);
	assert_hl(db, "hl3", "réponse", "Les Terres désolées défaussent, modifient"
	          "  et épuisées : une [réponse], des [réponses]");
	assert_hl(db, "hl3", "modifier", "Les Terres désolées défaussent,"
	          " [modifient]  et épuisées : une réponse, des réponses");
	assert_hl(db, "hlb", "lands", "les réponses rapides, the defended [lands],"
	          "  épuisé [lands]");
	assert_hl(db, "hlr", "атака", "Ёлка: [атакующий] игрок, ещё одна [атака]");
	assert_hl(db, "hln", "zebra", "x \xCC\x81 日本語 défendu, [zebra]");
	assert_hl(db, "hln", "defendu", "x \xCC\x81 日本語 [défendu], zebra");
	/* version 1 as it was */
	assert_hl(db, "fr1", "carte", "une [carte]");
}

static void test_bad_arguments(void **state)
{
	sqlite3 *db = *state;
	assert_int_not_equal(sqlite3_exec(db, "CREATE VIRTUAL TABLE x USING"
	                     " fts5(a, tokenize='rl_stem klingon')", NULL, NULL,
	                     NULL), SQLITE_OK);
	assert_int_not_equal(sqlite3_exec(db, "CREATE VIRTUAL TABLE y USING"
	                     " fts5(a, tokenize='rl_stem en fr ru')", NULL, NULL,
	                     NULL), SQLITE_OK);
	assert_int_not_equal(sqlite3_exec(db, "CREATE VIRTUAL TABLE z USING"
	                     " fts5(a, tokenize='rl_stem 4 fr')", NULL, NULL,
	                     NULL), SQLITE_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_english_forms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_french_forms_and_accents, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_russian_forms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_yo_is_ye, setup, teardown),
		cmocka_unit_test_setup_teardown(test_phrases, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prefixes_match_words_as_written,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_latin_languages, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_none_folds_but_does_not_stem,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_french_inflections_meet, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_french_without_accents, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_version_1_unchanged, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_russian_yo_version_2, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_version_3_verb_roots, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_version_3_non_merges, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_highlight_places, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_bad_arguments, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
