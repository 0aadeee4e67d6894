/* test_faq.c — the faq-tags importer, through rl_source_from_memory() and
 * rl_parse() on small documents written here. */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define B "\xE2\x80\xA2"   /* • */

/* A page with most of the format in it. Line numbers are in the comments
 * of the tests that use them. */
static const char PAGE[] =
	"Speed (Fast/Slow)\n"                                            /*  1 */
	"\n"
	"Frequently Asked Questions\n"                                   /*  3 */
	"\n"
	"Aspects\n"                                                      /*  5 */
	"\n"
	B " Can you choose later which Power to make fast?\n"            /*  7 */
	"  Yes, you can choose at any point in the turn [p. 19].\n"
	"  (Discussion elsewhere)  Tags: Speed (Fast/Slow), Wind Aspect "
	"(Lightning's Swift Strike), 3 more...\n"
	B " If you change a Power\xE2\x80\x99s speed, which phase can you "  /* 10 */
	"Repeat it in?\n"
	"  Changed answer: Whatever matches the speed.\n"
	"\n"
	"\n"
	"  There are a few unusual cases:\n"                             /* 14 */
	"\n"
	"  " B " If you use a Fast Power, it is Fast.\n"
	"  " B " The speed of a Power doesn't matter:\n"
	"    it is repeated right after the original use.\n"
	"    Tags: Repeat, Speed (Fast/Slow), 0 more...\n"               /* 19 */
	"\n"
	"General Play\n"                                                 /* 21 */
	"\n"
	B " Do powers have to be resolved in order?\n"                   /* 23 */
	"  Yes (p. 7\xE2\x80\x93" "8).\n"
	"  (Discussion elsewhere) (Discussion elsewhere)  Tags: Timing\n"
	"\n"
	"Errata / Updates\n"                                             /* 27 */
	"\n"
	"Effect Rules\n"                                                 /* 29 */
	"\n"
	B " Branch & Claw - 3rd printing\n"                              /* 31 */
	"  Errata for B&C rulebook, p. 15: -- A bullet-point was missed.\n"
	"  Tags: Rulebook, Defend\n"
	B " Jagged Earth \xE2\x80\x93 1st printing\n"                     /* 34 */
	"  Errata for the JE rulebook, pp. 10\xE2\x80\x93" "11: read it so.\n"
	"  Tags: Rulebook\n"
	B " A loose note\n"                                              /* 37 */
	"  Nothing to parse here.\n"
	"  Tags: Rulebook\n";

/* The entry with this title; the test fails when there is none. */
static const struct rl_entry *entry(const struct rl_doc *doc, const char *title)
{
	for (size_t i = 0; i < doc->n; i++)
		if (doc->entries[i].title && strcmp(doc->entries[i].title, title) == 0)
			return &doc->entries[i];
	fail_msg("no entry '%s'", title);
	return NULL;
}

/* The entry's tags, in order, as "Name (Qualifier)". */
static void assert_tags(const struct rl_entry *e, const char *const *want,
                        size_t n)
{
	assert_int_equal(e->ntags, n);
	for (size_t i = 0; i < n; i++) {
		char *t = rl_tag_display(e->tags[i].name, e->tags[i].qualifier);
		assert_non_null(t);
		assert_string_equal(t, want[i]);
		free(t);
	}
}

#define TAGS(e, ...) \
	assert_tags(e, (const char *const[]){ __VA_ARGS__ }, \
	            sizeof (const char *const[]){ __VA_ARGS__ } / sizeof (char *))

static void assert_str_or_null(const char *got, const char *want)
{
	if (want) {
		assert_non_null(got);
		assert_string_equal(got, want);
	} else {
		assert_null(got);
	}
}

/* Parses text that must be accepted; the caller frees with test_parse_free. */
static void parse_ok(const char *text, const struct rl_import_opts *opts,
                     struct rl_source *src, struct rl_doc *doc,
                     struct rl_diags *d)
{
	int rc = test_parse(text, opts, src, doc, d);
	if (rc != RL_OK)
		fail_msg("rl_parse: %s", rl_status_name(rc));
	assert_string_equal(doc->format, "faq-tags");
	assert_int_equal(d->errors, 0);
}

/* The text of the only entry of a one-entry page whose answer lines are
 * body (each line as written, "\n"-terminated). */
static char *answer_of(const char *body)
{
	size_t n = strlen(body) + 64;
	char *text = malloc(n);
	assert_non_null(text);
	snprintf(text, n, "Repeat\n\n" B " Q?\n%s", body);
	struct rl_source src;
	struct rl_doc doc;
	struct rl_diags d;
	parse_ok(text, NULL, &src, &doc, &d);
	free(text);
	assert_int_equal(doc.n, 1);
	char *answer = strdup(doc.entries[0].text);
	assert_non_null(answer);
	test_parse_free(&src, &doc, &d);
	return answer;
}

static void assert_answer(const char *body, const char *want)
{
	char *got = answer_of(body);
	assert_string_equal(got, want);
	free(got);
}

/* ---- the document ------------------------------------------------------ */

static void test_title_tag(void **state)
{
	struct rl_source src;
	struct rl_doc doc;
	struct rl_diags d;
	parse_ok(PAGE, NULL, &src, &doc, &d);
	assert_string_equal(doc.title, "Speed (Fast/Slow)");
	assert_non_null(doc.page_tag);
	assert_string_equal(doc.page_tag->name, "Speed");
	assert_string_equal(doc.page_tag->qualifier, "Fast/Slow");
	assert_null(doc.game);
	assert_string_equal(doc.lang, "en");
	assert_int_equal(doc.n, 6);
	test_parse_free(&src, &doc, &d);

	parse_ok("\n\n  \nRepeat\n\n" B " Q?\n  A.\n  Tags: Repeat\n", NULL,
	         &src, &doc, &d);
	assert_string_equal(doc.title, "Repeat");
	assert_string_equal(doc.page_tag->name, "Repeat");
	assert_null(doc.page_tag->qualifier);
	assert_int_equal(doc.entries[0].line, 6);
	test_parse_free(&src, &doc, &d);
}

static void test_sections_and_categories(void **state)
{
	struct rl_source src;
	struct rl_doc doc;
	struct rl_diags d;
	parse_ok(PAGE, NULL, &src, &doc, &d);
	const struct rl_entry *e =
		entry(&doc, "Can you choose later which Power to make fast?");
	assert_string_equal(e->section, "Frequently Asked Questions");
	assert_string_equal(e->category, "Aspects");
	e = entry(&doc, "Do powers have to be resolved in order?");
	assert_string_equal(e->section, "Frequently Asked Questions");
	assert_string_equal(e->category, "General Play");
	e = entry(&doc, "Branch & Claw - 3rd printing");
	assert_string_equal(e->section, "Errata / Updates");
	assert_string_equal(e->category, "Effect Rules");
	test_parse_free(&src, &doc, &d);

	/* Unknown headings: followed by another heading, one opens a section
	 * when none is open yet or its name says it is one (a new section
	 * clears the category); otherwise it is an empty category, with a
	 * warning. A heading right before an entry is a category. */
	parse_ok("Repeat\n\n"
	         "House Rules\n\nOdd Cases\n\n" B " Q1?\n  A.\n  Tags: X\n"
	         "Clarifications of the Base Game\n"               /* 10 */
	         "Plain Category\n" B " Q2?\n  A.\n  Tags: X\n"
	         "Empty Category\n"                                /* 15 */
	         "Still a Category\n" B " Q3?\n  A.\n  Tags: X\n"
	         "Rules Clarifications\n" B " Q4?\n  A.\n"          /* 20 */
	         "Tags: Y\n",                  /* unindented: still the entry's */
	         NULL, &src, &doc, &d);
	assert_int_equal(doc.n, 4);
	e = entry(&doc, "Q1?");
	assert_string_equal(e->section, "House Rules");
	assert_string_equal(e->category, "Odd Cases");
	e = entry(&doc, "Q2?");
	assert_string_equal(e->section, "Clarifications of the Base Game");
	assert_string_equal(e->category, "Plain Category");
	e = entry(&doc, "Q3?");
	assert_string_equal(e->section, "Clarifications of the Base Game");
	assert_string_equal(e->category, "Still a Category");
	/* a known section name is a section even right before an entry */
	e = entry(&doc, "Q4?");
	assert_string_equal(e->section, "Rules Clarifications");
	assert_null(e->category);
	assert_string_equal(e->text, "A.");
	TAGS(e, "Y");
	assert_int_equal(d.warnings, 1);
	assert_int_equal(test_count_diags(&d, RL_WARNING, 15,
	                                  "'Empty Category' has no entries"), 1);
	test_parse_free(&src, &doc, &d);

	/* an empty category inside the Errata section does not end it */
	parse_ok("Defend\n\nErrata / Updates\n\nNothing Here\n\nEffect Rules\n\n"
	         B " Branch & Claw - 3rd printing\n"
	         "  Errata for B&C rulebook, p. 15: text.\n  Tags: Rulebook\n",
	         NULL, &src, &doc, &d);
	assert_int_equal(doc.n, 1);
	assert_int_equal(doc.entries[0].kind, RL_KIND_ERRATA);
	assert_string_equal(doc.entries[0].section, "Errata / Updates");
	assert_string_equal(doc.entries[0].category, "Effect Rules");
	assert_int_equal(test_count_diags(&d, RL_WARNING, 5, "has no entries"), 1);
	test_parse_free(&src, &doc, &d);
}

static void test_entries(void **state)
{
	struct rl_source src;
	struct rl_doc doc;
	struct rl_diags d;
	parse_ok(PAGE, NULL, &src, &doc, &d);
	const struct rl_entry *e = &doc.entries[0];
	assert_int_equal(e->kind, RL_KIND_FAQ);
	assert_int_equal(e->line, 7);
	assert_string_equal(e->title,
	                    "Can you choose later which Power to make fast?");
	assert_string_equal(e->key, "can you choose later which power to make fast?");
	assert_string_equal(e->text,
	                    "Yes, you can choose at any point in the turn [p. 19].");
	assert_false(e->changed);
	assert_null(e->errata);
	assert_null(e->rule);
	assert_int_equal(doc.entries[1].line, 10);
	assert_int_equal(doc.entries[2].line, 23);
	assert_int_equal(doc.entries[3].line, 31);
	assert_int_equal(doc.entries[4].line, 34);
	assert_int_equal(doc.entries[5].line, 37);
	assert_int_equal(d.n, 0);
	/* the key is the title made plain: curly apostrophe, case */
	assert_string_equal(doc.entries[1].key,
	                    "if you change a power's speed, which phase can you "
	                    "repeat it in?");
	/* the page's tag is the document's, not repeated on each entry */
	TAGS(e, "Speed (Fast/Slow)", "Wind Aspect (Lightning's Swift Strike)");
	test_parse_free(&src, &doc, &d);
}

static void test_nested_bullets_and_blank_lines(void **state)
{
	struct rl_source src;
	struct rl_doc doc;
	struct rl_diags d;
	parse_ok(PAGE, NULL, &src, &doc, &d);
	const struct rl_entry *e = &doc.entries[1];
	assert_string_equal(e->text,
		"Whatever matches the speed.\n"
		"\n"
		"There are a few unusual cases:\n"
		"\n"
		B " If you use a Fast Power, it is Fast.\n"
		B " The speed of a Power doesn't matter:\n"
		"  it is repeated right after the original use.");
	test_parse_free(&src, &doc, &d);
}

static void test_answer_text(void **state)
{
	/* runs of blank lines (also white-space-only ones) become one */
	assert_answer("  one\n\n \n\t\n  two\n  Tags: X\n", "one\n\ntwo");
	/* blank lines before the first and after the last line go */
	assert_answer("\n\n  one\n  two\n\n\n  Tags: X\n", "one\ntwo");
	/* nested bullets keep their depth relative to the first line */
	assert_answer("  Intro:\n  " B " a\n    " B " b\n      c\n  d\n  Tags: X\n",
	              "Intro:\n" B " a\n  " B " b\n    c\nd");
	/* trailing blanks are trimmed */
	assert_answer("  one  \t\n  two\xC2\xA0\n  Tags: X\n", "one\ntwo");
}

static void test_tabs_and_odd_indentation(void **state)
{
	/* a tab is indentation to the next multiple of 8 */
	assert_answer("\tAnswer with a tab.\n\t  deeper line\n\tTags: X\n",
	              "Answer with a tab.\n  deeper line");
	/* a line indented less than the first continues at the base */
	assert_answer("    Base line.\n  shallow line\n     one deeper\n  Tags: X\n",
	              "Base line.\nshallow line\n one deeper");
	assert_answer("\tTabbed.\n odd single space\n\t\tsixteen\n\tTags: X\n",
	              "Tabbed.\nodd single space\n        sixteen");
	/* spaces and a tab mixed: 3 spaces + tab is column 8 */
	assert_answer("\tA.\n   \tB.\n   \t C.\n  Tags: X\n", "A.\nB.\n C.");
	/* no-break spaces indent too */
	assert_answer("\xC2\xA0\xC2\xA0One.\n\xC2\xA0\xC2\xA0Tags: X\n", "One.");

	/* a tab after the bullet, and a Tags line indented with a tab */
	struct rl_source src;
	struct rl_doc doc;
	struct rl_diags d;
	parse_ok("Repeat\n" B "\tTabbed question?\n\tAnswer.\n\tTags: A, B\n",
	         NULL, &src, &doc, &d);
	assert_int_equal(doc.n, 1);
	assert_string_equal(doc.entries[0].title, "Tabbed question?");
	assert_string_equal(doc.entries[0].text, "Answer.");
	TAGS(&doc.entries[0], "A", "B");
	assert_int_equal(d.warnings, 0);
	test_parse_free(&src, &doc, &d);
}

static void test_changed_answer(void **state)
{
	struct rl_source src;
	struct rl_doc doc;
	struct rl_diags d;
	parse_ok(PAGE, NULL, &src, &doc, &d);
	assert_true(doc.entries[1].changed);
	assert_null(strstr(doc.entries[1].text, "Changed answer"));
	assert_int_equal(strncmp(doc.entries[1].text, "Whatever", 8), 0);
	for (size_t i = 0; i < doc.n; i++)
		if (i != 1)
			assert_false(doc.entries[i].changed);
	test_parse_free(&src, &doc, &d);

	parse_ok("Repeat\n" B " Q?\n  changed answer:   No.\n  Tags: X\n", NULL,
	         &src, &doc, &d);
	assert_true(doc.entries[0].changed);
	assert_string_equal(doc.entries[0].text, "No.");
	test_parse_free(&src, &doc, &d);

	/* only at the start of the answer */
	parse_ok("Repeat\n" B " Q?\n  Yes.\n  Changed answer: no.\n  Tags: X\n",
	         NULL, &src, &doc, &d);
	assert_false(doc.entries[0].changed);
	assert_string_equal(doc.entries[0].text, "Yes.\nChanged answer: no.");
	test_parse_free(&src, &doc, &d);
}

static void test_discussion_markers(void **state)
{
	struct rl_source src;
	struct rl_doc doc;
	struct rl_diags d;
	parse_ok(PAGE, NULL, &src, &doc, &d);
	assert_int_equal(test_count_refs(&doc.entries[0], RL_REF_DISCUSSION, NULL), 1);
	assert_int_equal(test_count_refs(&doc.entries[1], RL_REF_DISCUSSION, NULL), 0);
	assert_int_equal(test_count_refs(&doc.entries[2], RL_REF_DISCUSSION, NULL), 2);
	/* the markers are not answer text */
	assert_null(strstr(doc.entries[0].text, "Discussion"));
	assert_null(strstr(doc.entries[2].text, "Discussion"));
	test_parse_free(&src, &doc, &d);

	/* markers on a line of their own, before the Tags line */
	parse_ok("Repeat\n" B " Q?\n  A.\n  (Discussion elsewhere)\n  Tags: X\n",
	         NULL, &src, &doc, &d);
	assert_int_equal(test_count_refs(&doc.entries[0], RL_REF_DISCUSSION,
	                                 "Discussion elsewhere"), 1);
	assert_string_equal(doc.entries[0].text, "A.");
	test_parse_free(&src, &doc, &d);
}

static void test_tags_line(void **state)
{
	struct rl_source src;
	struct rl_doc doc;
	struct rl_diags d;
	parse_ok("Repeat\n"
	         B " Q1?\n  A.\n  Tags: A, B (Q), 3 more...\n"
	         B " Q2?\n  A.\n  Tags: A, 0 more...\n"
	         B " Q3?\n  A.\n  Tags: A, B\n"
	         B " Q4?\n  A.\n  Tags: A, 12 more\xE2\x80\xA6\n"
	         B " Q5?\n  A.\n  Tags: Foo (a, b), Bar, bar, BAR (x)\n",
	         NULL, &src, &doc, &d);
	assert_int_equal(doc.n, 5);
	const struct rl_entry *e = entry(&doc, "Q1?");
	TAGS(e, "A", "B (Q)");
	assert_string_equal(e->tags[1].name, "B");
	assert_string_equal(e->tags[1].qualifier, "Q");
	assert_int_equal(e->hidden_tags, 3);
	e = entry(&doc, "Q2?");
	TAGS(e, "A");
	assert_int_equal(e->hidden_tags, 0);
	e = entry(&doc, "Q3?");
	TAGS(e, "A", "B");
	assert_int_equal(e->hidden_tags, -1);
	e = entry(&doc, "Q4?");
	assert_int_equal(e->hidden_tags, 12);
	/* commas inside parentheses do not split; repeats (any case) count once */
	e = entry(&doc, "Q5?");
	TAGS(e, "Foo (a, b)", "Bar", "BAR (x)");
	assert_int_equal(d.warnings, 0);
	test_parse_free(&src, &doc, &d);
}

static void test_errata(void **state)
{
	struct rl_source src;
	struct rl_doc doc;
	struct rl_diags d;
	parse_ok(PAGE, NULL, &src, &doc, &d);
	const struct rl_entry *e = entry(&doc, "Branch & Claw - 3rd printing");
	assert_int_equal(e->kind, RL_KIND_ERRATA);
	assert_non_null(e->errata);
	assert_string_equal(e->errata->product, "Branch & Claw");
	assert_string_equal(e->errata->printing, "3rd printing");
	assert_string_equal(e->errata->document, "B&C rulebook");
	assert_string_equal(e->errata->page, "15");
	assert_string_equal(e->key, "branch & claw - 3rd printing|b&c rulebook|15");
	TAGS(e, "Rulebook", "Defend");

	e = entry(&doc, "Jagged Earth \xE2\x80\x93 1st printing");
	assert_int_equal(e->kind, RL_KIND_ERRATA);
	assert_string_equal(e->errata->product, "Jagged Earth");
	assert_string_equal(e->errata->printing, "1st printing");
	assert_string_equal(e->errata->document, "the JE rulebook");
	assert_string_equal(e->errata->page, "10\xE2\x80\x93" "11");

	/* in an errata section, an entry that names no printing or page */
	e = entry(&doc, "A loose note");
	assert_int_equal(e->kind, RL_KIND_ERRATA);
	assert_string_equal(e->errata->product, "A loose note");
	assert_null(e->errata->printing);
	assert_null(e->errata->document);
	assert_null(e->errata->page);

	/* entries outside it are not errata */
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(doc.entries[i].kind, RL_KIND_FAQ);
		assert_null(doc.entries[i].errata);
	}
	test_parse_free(&src, &doc, &d);
}

static void test_page_references(void **state)
{
	struct rl_source src;
	struct rl_doc doc;
	struct rl_diags d;
	parse_ok(PAGE, NULL, &src, &doc, &d);
	const struct rl_entry *e = &doc.entries[0];
	assert_int_equal(test_count_refs(e, RL_REF_PAGE, NULL), 1);
	assert_int_equal(test_count_refs(e, RL_REF_PAGE, "19"), 1);
	/* "(p. 7–8)": the range is expanded */
	e = &doc.entries[2];
	assert_int_equal(test_count_refs(e, RL_REF_PAGE, "7"), 1);
	assert_int_equal(test_count_refs(e, RL_REF_PAGE, "8"), 1);
	/* "p. 15:" in the errata text is not a bracketed reference */
	assert_int_equal(test_count_refs(&doc.entries[3], RL_REF_PAGE, NULL), 0);
	test_parse_free(&src, &doc, &d);

	parse_ok("Repeat\n" B " Q?\n  See (p. 10, 24) and [p.3] and [p. 3].\n"
	         "  Tags: X\n", NULL, &src, &doc, &d);
	e = &doc.entries[0];
	assert_int_equal(test_count_refs(e, RL_REF_PAGE, NULL), 3);
	assert_int_equal(test_count_refs(e, RL_REF_PAGE, "10"), 1);
	assert_int_equal(test_count_refs(e, RL_REF_PAGE, "24"), 1);
	assert_int_equal(test_count_refs(e, RL_REF_PAGE, "3"), 1);
	test_parse_free(&src, &doc, &d);
}

/* ---- problems ---------------------------------------------------------- */

static void test_warning_entry_without_tags(void **state)
{
	struct rl_source src;
	struct rl_doc doc;
	struct rl_diags d;
	parse_ok("Repeat\n\n"
	         B " First?\n  No tags.\n"          /* line 3 */
	         B " Second?\n  A.\n  Tags: X\n",   /* line 5 */
	         NULL, &src, &doc, &d);
	assert_int_equal(doc.n, 2);
	assert_int_equal(d.warnings, 1);
	assert_int_equal(test_count_diags(&d, RL_WARNING, 3, "no 'Tags:' line"), 1);
	/* the entry is kept */
	assert_string_equal(doc.entries[0].text, "No tags.");
	assert_int_equal(doc.entries[0].ntags, 0);
	assert_int_equal(doc.entries[0].hidden_tags, -1);
	test_parse_free(&src, &doc, &d);
}

static void test_warning_file_ends_inside_entry(void **state)
{
	struct rl_source src;
	struct rl_doc doc;
	struct rl_diags d;
	parse_ok("Repeat\n\n"
	         B " First?\n  A.\n  Tags: X\n"
	         B " Cut short?\n  Half an ans",     /* line 6 */
	         NULL, &src, &doc, &d);
	assert_int_equal(doc.n, 2);
	assert_int_equal(d.warnings, 1);
	assert_int_equal(test_count_diags(&d, RL_WARNING, 6, "file ends"), 1);
	assert_string_equal(doc.entries[1].text, "Half an ans");
	test_parse_free(&src, &doc, &d);
}

static void test_warning_entry_without_answer(void **state)
{
	struct rl_source src;
	struct rl_doc doc;
	struct rl_diags d;
	parse_ok("Repeat\n\n" B " No answer?\n  Tags: X\n", NULL, &src, &doc, &d);
	assert_int_equal(doc.n, 1);
	assert_non_null(doc.entries[0].text);
	assert_string_equal(doc.entries[0].text, "");
	assert_int_equal(test_count_diags(&d, RL_WARNING, 3, "no answer"), 1);
	test_parse_free(&src, &doc, &d);
}

static void test_warning_stray_text(void **state)
{
	struct rl_source src;
	struct rl_doc doc;
	struct rl_diags d;
	parse_ok("Repeat\n"
	         "  indented before any entry\n"            /* line 2 */
	         B " Q?\n  A.\n  Tags: X\n"
	         "  after the tags\n",                      /* line 6 */
	         NULL, &src, &doc, &d);
	assert_int_equal(test_count_diags(&d, RL_WARNING, 2, "outside any entry"), 1);
	assert_int_equal(test_count_diags(&d, RL_WARNING, 6, "after the 'Tags:'"), 1);
	assert_string_equal(doc.entries[0].text, "A.\nafter the tags");
	test_parse_free(&src, &doc, &d);
}

static void test_refused_documents(void **state)
{
	static const struct rl_import_opts faq = { .format = "faq-tags" };
	struct rl_source src;
	struct rl_doc doc;
	struct rl_diags d;

	assert_int_equal(test_parse("\n  \n", &faq, &src, &doc, &d), RL_EDATA);
	assert_int_equal(test_count_diags(&d, RL_ERROR, 0, "empty"), 1);
	assert_null(doc.entries);
	test_parse_free(&src, &doc, &d);

	assert_int_equal(test_parse(B " Q?\n  A.\n  Tags: X\n", &faq, &src, &doc,
	                            &d), RL_EDATA);
	assert_int_equal(test_count_diags(&d, RL_ERROR, 1, "page's tag"), 1);
	test_parse_free(&src, &doc, &d);

	/* nothing like the format, and no format named */
	assert_int_equal(test_parse("just some prose\n", NULL, &src, &doc, &d),
	                 RL_NOTFOUND);
	test_parse_free(&src, &doc, &d);

	static const struct rl_import_opts bogus = { .format = "no-such-format" };
	assert_int_equal(test_parse(PAGE, &bogus, &src, &doc, &d), RL_EUSAGE);
	test_parse_free(&src, &doc, &d);
}

/* ---- line breaks and options ------------------------------------------ */

static void assert_same_doc(const struct rl_doc *a, const struct rl_doc *b)
{
	assert_string_equal(a->title, b->title);
	assert_string_equal(a->lang, b->lang);
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		const struct rl_entry *x = &a->entries[i], *y = &b->entries[i];
		assert_int_equal(x->kind, y->kind);
		assert_int_equal(x->line, y->line);
		assert_string_equal(x->key, y->key);
		assert_string_equal(x->title, y->title);
		assert_string_equal(x->text, y->text);
		assert_str_or_null(x->section, y->section);
		assert_str_or_null(x->category, y->category);
		assert_int_equal(x->changed, y->changed);
		assert_int_equal(x->hidden_tags, y->hidden_tags);
		assert_int_equal(x->ntags, y->ntags);
		for (size_t k = 0; k < x->ntags; k++) {
			assert_string_equal(x->tags[k].name, y->tags[k].name);
			assert_str_or_null(x->tags[k].qualifier, y->tags[k].qualifier);
		}
		assert_int_equal(x->nrefs, y->nrefs);
		for (size_t k = 0; k < x->nrefs; k++) {
			assert_int_equal(x->refs[k].kind, y->refs[k].kind);
			assert_string_equal(x->refs[k].target, y->refs[k].target);
		}
		assert_int_equal(x->errata != NULL, y->errata != NULL);
		if (x->errata) {
			assert_str_or_null(x->errata->product, y->errata->product);
			assert_str_or_null(x->errata->printing, y->errata->printing);
			assert_str_or_null(x->errata->document, y->errata->document);
			assert_str_or_null(x->errata->page, y->errata->page);
		}
	}
}

static void assert_same_diags(const struct rl_diags *a, const struct rl_diags *b)
{
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		assert_int_equal(a->v[i].severity, b->v[i].severity);
		assert_int_equal(a->v[i].line, b->v[i].line);
		assert_string_equal(a->v[i].message, b->v[i].message);
	}
}

static void test_crlf_same_as_lf(void **state)
{
	/* the page, plus a truncated entry so that warnings are compared too */
	static const char tail[] = B " Cut?\n  Half\n";
	char *lf = malloc(sizeof PAGE + sizeof tail);
	assert_non_null(lf);
	strcpy(lf, PAGE);
	strcat(lf, tail);
	for (int bare_cr = 0; bare_cr <= 1; bare_cr++) {
		char *cr = test_to_crlf(lf, bare_cr);
		struct rl_source s1, s2;
		struct rl_doc d1, d2;
		struct rl_diags g1, g2;
		parse_ok(lf, NULL, &s1, &d1, &g1);
		parse_ok(cr, NULL, &s2, &d2, &g2);
		assert_int_equal(d1.n, 7);
		assert_int_equal(g1.warnings, 1);
		assert_same_doc(&d1, &d2);
		assert_same_diags(&g1, &g2);
		assert_string_not_equal(s1.sha256, s2.sha256);
		test_parse_free(&s1, &d1, &g1);
		test_parse_free(&s2, &d2, &g2);
		free(cr);
	}
	free(lf);
}

static void test_game_and_lang_options(void **state)
{
	static const struct rl_import_opts opts = {
		.game = "Spirit Island", .lang = "fr", .format = "faq-tags",
	};
	struct rl_source src;
	struct rl_doc doc;
	struct rl_diags d;
	parse_ok(PAGE, &opts, &src, &doc, &d);
	assert_string_equal(doc.game, "Spirit Island");
	assert_string_equal(doc.lang, "fr");
	assert_int_equal(doc.n, 6);
	test_parse_free(&src, &doc, &d);

	/* without options: no game, the language is detected */
	static const char RU[] =
		"\xD0\x90\xD1\x82\xD0\xB0\xD0\xBA\xD0\xB0\n\n"
		B " \xD0\x9C\xD0\xBE\xD0\xB6\xD0\xBD\xD0\xBE \xD0\xBB\xD0\xB8 "
		"\xD0\xB0\xD1\x82\xD0\xB0\xD0\xBA\xD0\xBE\xD0\xB2\xD0\xB0\xD1\x82\xD1\x8C?\n"
		"  \xD0\x94\xD0\xB0, \xD0\xBC\xD0\xBE\xD0\xB6\xD0\xBD\xD0\xBE.\n"
		"  Tags: \xD0\x90\xD1\x82\xD0\xB0\xD0\xBA\xD0\xB0\n";
	parse_ok(RU, NULL, &src, &doc, &d);
	assert_null(doc.game);
	assert_string_equal(doc.lang, "ru");
	test_parse_free(&src, &doc, &d);

	/* --lang overrides the detection, --game alone leaves it */
	static const struct rl_import_opts lang_only = { .lang = "en" };
	parse_ok(RU, &lang_only, &src, &doc, &d);
	assert_string_equal(doc.lang, "en");
	test_parse_free(&src, &doc, &d);
	static const struct rl_import_opts game_only = { .game = "Berserk" };
	parse_ok(RU, &game_only, &src, &doc, &d);
	assert_string_equal(doc.game, "Berserk");
	assert_string_equal(doc.lang, "ru");
	test_parse_free(&src, &doc, &d);
}

static void test_seed_pages(void **state)
{
	static const struct { const char *prefix, *title; size_t n; } seeds[] = {
		{ "000_", "Speed (Fast/Slow)", 18 }, { "001_", "Defend", 17 },
	};
	for (size_t i = 0; i < 2; i++) {
		char *path = test_seed_path(seeds[i].prefix);
		struct rl_source src;
		struct rl_doc doc;
		struct rl_diags d = {0};
		static const struct rl_import_opts none = {0};
		assert_int_equal(rl_source_load(&src, path, &d), RL_OK);
		assert_int_equal(rl_parse(&src, &none, &doc, &d), RL_OK);
		assert_string_equal(doc.title, seeds[i].title);
		assert_int_equal(doc.n, seeds[i].n);
		assert_int_equal(d.errors, 0);
		for (size_t k = 0; k < doc.n; k++) {
			assert_true(doc.entries[k].ntags > 0);
			assert_true(*doc.entries[k].text != '\0');
		}
		test_parse_free(&src, &doc, &d);
		free(path);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_title_tag),
		cmocka_unit_test(test_sections_and_categories),
		cmocka_unit_test(test_entries),
		cmocka_unit_test(test_nested_bullets_and_blank_lines),
		cmocka_unit_test(test_answer_text),
		cmocka_unit_test(test_tabs_and_odd_indentation),
		cmocka_unit_test(test_changed_answer),
		cmocka_unit_test(test_discussion_markers),
		cmocka_unit_test(test_tags_line),
		cmocka_unit_test(test_errata),
		cmocka_unit_test(test_page_references),
		cmocka_unit_test(test_warning_entry_without_tags),
		cmocka_unit_test(test_warning_file_ends_inside_entry),
		cmocka_unit_test(test_warning_entry_without_answer),
		cmocka_unit_test(test_warning_stray_text),
		cmocka_unit_test(test_refused_documents),
		cmocka_unit_test(test_crlf_same_as_lf),
		cmocka_unit_test(test_game_and_lang_options),
		cmocka_unit_test(test_seed_pages),
	};
	return cmocka_run_group_tests_name("faq", tests, NULL, NULL);
}
