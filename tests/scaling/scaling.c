/* scaling.c — every parser against super-linear time.
 *
 * For each format of the table (rl_importer_count()) and each of a set of
 * hostile units — the marks parsers scan for ahead (backticks, brackets,
 * emphasis, roles, references, bullets, tags, line breaks...) — a document
 * of the format is made with the unit repeated to about n bytes inside its
 * body, and again to 8n bytes, and each is parsed (rl_source_from_memory,
 * rl_parse with --format). A linear parser takes about 8 times as long on
 * the second; a quadratic one 64 times. The bound is a ratio of CPU times
 * (the process's, not the wall clock's: other processes on the machine do
 * not count), RATIO_MAX, generous; a pair above it is measured again,
 * longer (up to three times), before it fails. No absolute time is
 * asserted anywhere.
 *
 *   scaling [FORMAT...]      prints one line a format (its worst ratio)
 *                            and "N passed, N failed"
 *
 * The search query language is read by a parser too (qparse.c), and two
 * more "formats" here measure it: "query", the reading and the canonical
 * form explain prints (our part alone), and "search", the whole of a
 * search and its explain on a small database (the thesaurus looked up
 * for every word, the SQL and FTS5 made and run). The text is one
 * argument as a user types it, the hostile units the language's own
 * (operators, fields, quotes, parentheses, and distinct words: a repeated
 * operand is found by comparing, which must not be pairwise).
 *
 * The heap keeps its pages between parses (mallopt below): glibc gives
 * the top of the heap back to the system after a free beyond 128 KB, so
 * the larger text's memory was faulted in again on every parse, and on
 * this machine (a virtual one) a page fault costs more than parsing what
 * is in the page: a query's tree of 8n bytes measured 6 times slower so,
 * 16 to 28 times the smaller (whose memory stayed), a linear parser.
 *
 * Registered in builds without sanitizers (their costs are not a parser's).
 */
#include "rulings.h"
#include "util.h"
#include "qparse.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <stdbool.h>

/* The smaller text is at least N bytes, more until it takes MIN_TIME of
 * CPU (below, the clock's grain is the ratio), at most N_MAX: small enough
 * that both texts' memory stays in the caches (beyond, a linear parser
 * slows per byte as the caches miss, on a loaded machine 10 times). */
enum { N = 2048, N_MAX = 65536, RATIO_MAX = 24, REPS = 5, REPS_AGAIN = 15 };
/* The query reader starts larger: a query's operands are a few bytes
 * each, and a comparison of every pair of them (the quadratic a reader of
 * operands is likely to have, each pair cheap) outweighs the linear work
 * only past some thousands of operands. At 2 KB a pairwise pass measured
 * 15 times the time for 8 times the text; at 16 KB, far above the bound.
 * The whole search stays at N: what it adds (SQLite, FTS5) is not ours,
 * and costs ten times as much a byte. */
enum { N_QUERY = 16384 };
static const double MIN_TIME = 1e-4;

/* What a unit is repeated in: a document of the format, the units where
 * "@" stands. The escaping a format needs is done by escape(). */
struct frame {
	const char *format;
	const char *doc;
	enum { PLAIN, JSON, XML } escape;
	size_t n;               /* the smaller text's least size */
	/* its own units (NULL-terminated), or NULL: the common ones */
	const char *const *units;
};

/* An entry seen again, each time with another text, is merged into the
 * first (rl_entry_absorb): a frame of these alone, from N_REPEATS bytes.
 * The repeats must be thousands for a merge that searches or copies the
 * text merged so far to show (30,000 repeats of one card took 3.1 s so):
 * at 2 KB, 70 repeats, it measured 7.8 times the time for 8 times the
 * text; from 64 KB, 16.7 (card-faq) and 26 (rst-glossary); from 128 KB,
 * 25 and 35 (a linear merge: 8.6 and 8.8). DISTINCT: another word each
 * time. */
enum { N_REPEATS = 131072 };
#define DISTINCT "\x01"
static const char *const card_repeats[] = {
	"\n\n1.  C\n\n.. image:: a.png\n\n" DISTINCT "\n", NULL,
};
static const char *const term_repeats[] = {
	"   **Term.**\n      " DISTINCT "\n\n", NULL,
};

static const struct frame frames[] = {
	{ "faq-tags", "Tag\n\nFrequently Asked Questions\n\nCategory\n\n"
	  "\xE2\x80\xA2 Question?\n  @\n  Tags: Tag, Other\n", PLAIN, N, NULL },
	{ "numbered-rules", "Title\n=====\n\n101. Heading\n-----\n\n101.1. @\n", PLAIN, N, NULL },
	{ "rules-summary", "Game: Expansion\n\nText (p. 1) @ (p. 2).\n", PLAIN, N, NULL },
	{ "encyclopedia", "ENCYCLOP\xC3\x89" "DIE // ENTR\xC3\x89" "E 1\nTitle\n"
	  "Dans Jeu, le texte. @\nFin\n", PLAIN, N, NULL },
	{ "thesaurus", "# rulings thesaurus\nen:a = fr:b\n@\n", PLAIN, N, NULL },
	{ "rst-glossary", "Title\n=====\n\nA\n-\n\n.. glossary::\n\n   **Term.**\n"
	  "      @\n", PLAIN, N, NULL },
	{ "markdown-glossary", "# Title\n\n@\n\n**Voir aussi :**\n[[Other]]\n", PLAIN, N, NULL },
	{ "comprehensive-rules", "Game Comprehensive Rules\n\n1. Game Concepts\n\n"
	  "100. General\n\n100.1. @\n\nGlossary\n\nTerm\n@\n\nCredits\n", PLAIN, N, NULL },
	{ "card-faq", "FAQ\n===\n\n1.  Card\n\n.. image:: ./a.png\n\n@\n\n"
	  "2.  Other\n\n.. image:: ./b.png\n\nText.\n", PLAIN, N, NULL },
	{ "card-faq", "FAQ\n===\n\n@", PLAIN, N_REPEATS, card_repeats },
	{ "rst-glossary", "Title\n=====\n\n.. glossary::\n\n@", PLAIN, N_REPEATS,
	  term_repeats },
	{ "card-rulings", "{\"S\": [{\"card\": \"C\", \"ruling\": \"@\"}]}", JSON, N, NULL },
	{ "xml-interchange", "<rulings format_version=\"1\"><ruling kind=\"faq\" "
	  "lang=\"en\"><title>T</title><text>@</text></ruling></rulings>", XML, N, NULL },
	{ "query", "@", PLAIN, N_QUERY, NULL },
	{ "search", "@", PLAIN, N, NULL },
};

/* The query's units; DISTINCT stands for a new word each time. */
static const char *const query_units[] = {
	"x ", DISTINCT, "-x ", "-" DISTINCT, "\"a ", "\"a b\" ", "OR ", "x OR ",
	DISTINCT "OR ", "AND ", "NOT ", "NOT NOT x ", "( ", "(x ", ") ", "(x) ",
	"tag:", "tag:a ", "tag:" DISTINCT, "title:x ", "text:\"a b\" ",
	"rule:702.19 ", "702.19a ", "x* ", "*", ":", "\\", "\xE2\x80\x9Cx ",
	"e\xCC\x81 ", "\xC3\xA9 ", "game:\"Spirit Island\" OR ", "defend ",
	"-defend ", "defend OR power ",
};

/* The small database "search" runs on: an FAQ page whose words and tags
 * the units meet, and a thesaurus (every word is looked up in it). */
static rl_db *db;
static const char faq[] =
	"Defend\n\nFrequently Asked Questions\n\nAspects\n\n"
	"\xE2\x80\xA2 Does Defend stack with a Power? See rule 702.19a.\n"
	"  Yes: x and a b are \xC3\xA9" "gal, \"a b\" too.\n"
	"  Tags: Defend, a, Power\n";
static const char thesaurus[] =
	"# rulings thesaurus\nen:Defend = fr:D\xC3\xA9" "fendre = Protect\n"
	"[Spirit Island]\nen:Power = fr:Pouvoir\n";

static bool load(const char *name, const char *text, const char *format)
{
	struct rl_source src;
	struct rl_doc doc = {0};
	struct rl_diags d = {0};
	struct rl_import_opts o = { .game = "Spirit Island", .format = format };
	struct rl_import_result res;
	bool ok = rl_source_from_memory(&src, name, text, strlen(text), &d) ==
	          RL_OK;
	if (ok) {
		ok = rl_parse(&src, &o, &doc, &d) == RL_OK &&
		     rl_store(db, &src, &doc, &res) == RL_OK;
		rl_doc_free(&doc);
		rl_source_free(&src);
	}
	rl_diags_clear(&d);
	return ok;
}

/* The units: each is what some parser looks ahead from. */
static const char *const units[] = {
	"`", "``x ", "[", "[[", "[a](", "*", "_", "~~", "(", "\\", ":term:`",
	"<", "&", "\xE2\x80\xA2 ", "\n", "\n  ", "\t", "x ", "(p. 1-2, ",
	"rules 100.1\xE2\x80\x93", "[[a|", "# ", "\n=\n", "\n.. x::\n",
	"\n\xE2\x80\xA2 Q?\n  A\n  Tags: a, b\n", "t, ",
	"(Discussion elsewhere) ", "La Cache (pile de r\xC3\xA9solution) ",
	"la rubrique Jouer ", "\n100.1a x\n", "e\xCC\x81",
};

/* The unit as C would write it, for messages. */
static const char *shown(const char *u)
{
	static char buf[256];
	size_t o = 0;
	for (; *u && o + 4 < sizeof buf; u++)
		o += (size_t)snprintf(buf + o, sizeof buf - o, *u == '\n' ? "\\n"
		                      : *u == '\t' ? "\\t" : *u == *DISTINCT
		                      ? "wN " : "%c", *u);
	buf[o] = '\0';
	return buf;
}

static void add_escaped(struct rl_buf *b, const char *u, int escape)
{
	for (; *u; u++) {
		if (escape == JSON && (*u == '"' || *u == '\\'))
			rl_buf_addc(b, '\\');
		if (escape == JSON && (*u == '\n' || *u == '\t')) {
			rl_buf_adds(b, *u == '\n' ? "\\n" : "\\t");
			continue;
		}
		if (escape == XML && (*u == '<' || *u == '&')) {
			rl_buf_adds(b, *u == '<' ? "&lt;" : "&amp;");
			continue;
		}
		rl_buf_addc(b, *u);
	}
}

/* The frame's document with the unit repeated to about size bytes. */
static char *make(const struct frame *f, const char *unit, size_t size,
                  size_t *len)
{
	struct rl_buf b = {0};
	for (const char *p = f->doc; *p; p++) {
		if (*p != '@') {
			rl_buf_addc(&b, *p);
			continue;
		}
		size_t start = b.len;
		unsigned k = 0;
		while (b.len - start < size && !b.oom) {
			const char *d = strstr(unit, DISTINCT);
			if (!d) {
				add_escaped(&b, unit, f->escape);
				continue;
			}
			/* the unit with a word of its own where DISTINCT is */
			char w[32];
			snprintf(w, sizeof w, "w%u ", k++);
			rl_buf_add(&b, unit, (size_t)(d - unit));
			rl_buf_adds(&b, w);
			rl_buf_adds(&b, d + 1);
		}
	}
	*len = b.len;
	return rl_buf_take(&b);
}

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The CPU time of reading text as a query and printing it as explain
 * does ("query"), or of searching for it and explaining the search
 * ("search"). */
static double query_time(bool whole, const char *text)
{
	double t0 = cpu_now();
	if (whole) {
		struct rl_query q = { .words = &text, .nwords = 1, .limit = 20 };
		struct rl_results res;
		if (rl_search(db, &q, &res) == RL_OK)
			rl_results_free(&res);
		char *e = NULL;
		rl_search_explain(db, &q, &e);
		free(e);
		return cpu_now() - t0;
	}
	struct qnode *q = NULL;
	if (rl_qparse(&text, 1, &q) == RL_OK && q) {
		struct rl_buf b = {0};
		rl_qnode_print(&b, q);
		free(rl_buf_take(&b));
		rl_qnode_free(q);
	}
	return cpu_now() - t0;
}

/* The CPU time of one parse of text. */
static double parse_time(const char *format, const char *text, size_t len)
{
	if (strcmp(format, "query") == 0 || strcmp(format, "search") == 0)
		return query_time(format[0] == 's', text);
	struct rl_source src;
	struct rl_diags d = {0};
	struct rl_import_opts opts = { .format = format };
	double t0 = cpu_now();
	if (rl_source_from_memory(&src, "scaling.txt", text, len, &d) == RL_OK) {
		struct rl_doc doc;
		if (rl_parse(&src, &opts, &doc, &d) == RL_OK)
			rl_doc_free(&doc);
		rl_source_free(&src);
	}
	double t = cpu_now() - t0;
	rl_diags_clear(&d);
	return t;
}

/* The ratio of the least times of reps parses at 8n and at n, taken in
 * turns after a first parse of the larger (the heap grown, the pages
 * there: the same conditions for both); n grows until the smaller takes
 * MIN_TIME. < 0 when memory ran out. */
static double ratio(const struct frame *f, const char *unit, int reps,
                    size_t *used_n)
{
	size_t n = f->n, l1, l8;
	char *t1 = NULL, *t8 = NULL;
	double a = 0, b = 1e30;
	for (;;) {
		free(t1);
		if (!(t1 = make(f, unit, n, &l1)))
			return -1;
		a = parse_time(f->format, t1, l1);
		if (a >= MIN_TIME || n >= N_MAX)
			break;
		n *= 2;
	}
	if (!(t8 = make(f, unit, 8 * n, &l8))) {
		free(t1);
		return -1;
	}
	parse_time(f->format, t8, l8);
	for (int r = 0; r < reps; r++) {
		double x = parse_time(f->format, t1, l1);
		double y = parse_time(f->format, t8, l8);
		a = x < a ? x : a;
		b = y < b ? y : b;
	}
	free(t1);
	free(t8);
	*used_n = n;
	return b / (a > MIN_TIME / 10 ? a : MIN_TIME / 10);
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0;
	/* the heap keeps what it grew: see the top */
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	mallopt(M_MMAP_THRESHOLD, 1 << 30);
	if (rl_db_open(":memory:", RL_OPEN_WRITE, &db) != RL_OK ||
	    !load("faq.txt", faq, "faq-tags") ||
	    !load("thesaurus.txt", thesaurus, "thesaurus")) {
		printf("FAIL - search: cannot make its database: %s\n",
		       db ? rl_db_errmsg(db) : "out of memory");
		return 1;
	}
	for (size_t fi = 0; fi < sizeof frames / sizeof *frames; fi++) {
		const struct frame *f = &frames[fi];
		bool wanted = argc < 2;
		for (int a = 1; a < argc; a++)
			wanted |= strcmp(argv[a], f->format) == 0;
		if (!wanted)
			continue;
		bool query = strcmp(f->format, "query") == 0 ||
		             strcmp(f->format, "search") == 0, known = query;
		const char *const *us = query ? query_units : units;
		size_t nus = query ? sizeof query_units / sizeof *query_units
		                   : sizeof units / sizeof *units;
		if (f->units)
			for (us = f->units, nus = 0; us[nus]; nus++)
				;
		for (size_t i = 0; i < rl_importer_count(); i++)
			known |= strcmp(rl_importer_name(i), f->format) == 0;
		if (!known) {
			printf("FAIL - %s: no such format\n", f->format);
			failed++;
			continue;
		}
		double worst = 0;
		const char *worst_unit = "";
		int bad = 0;
		for (size_t u = 0; u < nus; u++) {
			size_t n = 0;
			double r = ratio(f, us[u], REPS, &n);
			/* again, with more tries, up to three times: a parser that is
			 * quadratic is so every time (64 times the time), a machine
			 * busy with other work only now and then */
			for (int again = 0; r > RATIO_MAX && again < 3; again++) {
				double r2 = ratio(f, us[u], REPS_AGAIN, &n);
				r = r2 < r ? r2 : r;
			}
			if (r < 0) {
				printf("FAIL - %s: out of memory\n", f->format);
				bad++;
				continue;
			}
			if (r > RATIO_MAX) {
				printf("FAIL - %s: \"%s\" repeated to %zu bytes, then 8 times "
				       "as many: %.0f times the time (at most %d)\n",
				       f->format, shown(us[u]), n, r, RATIO_MAX);
				bad++;
			}
			if (r > worst) {
				worst = r;
				worst_unit = us[u];
			}
		}
		if (bad) {
			failed++;
		} else {
			passed++;
			printf("ok - %s: linear (the worst: 8 times the text, %.1f "
			       "times the time, unit \"%s\")\n", f->format, worst,
			       shown(worst_unit));
		}
	}
	for (size_t i = 0; i < rl_importer_count(); i++) {
		bool framed = false;
		for (size_t fi = 0; fi < sizeof frames / sizeof *frames; fi++)
			framed |= strcmp(rl_importer_name(i), frames[fi].format) == 0;
		if (!framed) {
			printf("FAIL - %s: a format with no frame here\n",
			       rl_importer_name(i));
			failed++;
		}
	}
	rl_db_close(db);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
