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
 * Registered in builds without sanitizers (their costs are not a parser's).
 */
#include "rulings.h"
#include "util.h"

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
static const double MIN_TIME = 1e-4;

/* What a unit is repeated in: a document of the format, the units where
 * "@" stands. The escaping a format needs is done by escape(). */
struct frame {
	const char *format;
	const char *doc;
	enum { PLAIN, JSON, XML } escape;
};

static const struct frame frames[] = {
	{ "faq-tags", "Tag\n\nFrequently Asked Questions\n\nCategory\n\n"
	  "\xE2\x80\xA2 Question?\n  @\n  Tags: Tag, Other\n", PLAIN },
	{ "numbered-rules", "Title\n=====\n\n101. Heading\n-----\n\n101.1. @\n", PLAIN },
	{ "rules-summary", "Game: Expansion\n\nText (p. 1) @ (p. 2).\n", PLAIN },
	{ "encyclopedia", "ENCYCLOP\xC3\x89" "DIE // ENTR\xC3\x89" "E 1\nTitle\n"
	  "Dans Jeu, le texte. @\nFin\n", PLAIN },
	{ "thesaurus", "# rulings thesaurus\nen:a = fr:b\n@\n", PLAIN },
	{ "rst-glossary", "Title\n=====\n\nA\n-\n\n.. glossary::\n\n   **Term.**\n"
	  "      @\n", PLAIN },
	{ "markdown-glossary", "# Title\n\n@\n\n**Voir aussi :**\n[[Other]]\n", PLAIN },
	{ "comprehensive-rules", "Game Comprehensive Rules\n\n1. Game Concepts\n\n"
	  "100. General\n\n100.1. @\n\nGlossary\n\nTerm\n@\n\nCredits\n", PLAIN },
	{ "card-rulings", "{\"S\": [{\"card\": \"C\", \"ruling\": \"@\"}]}", JSON },
	{ "xml-interchange", "<rulings format_version=\"1\"><ruling kind=\"faq\" "
	  "lang=\"en\"><title>T</title><text>@</text></ruling></rulings>", XML },
};

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
		                      : *u == '\t' ? "\\t" : "%c", *u);
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
		while (b.len - start < size && !b.oom)
			add_escaped(&b, unit, f->escape);
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

/* The CPU time of one parse of text. */
static double parse_time(const char *format, const char *text, size_t len)
{
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
	size_t n = N, l1, l8;
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
	for (size_t fi = 0; fi < sizeof frames / sizeof *frames; fi++) {
		const struct frame *f = &frames[fi];
		bool wanted = argc < 2;
		for (int a = 1; a < argc; a++)
			wanted |= strcmp(argv[a], f->format) == 0;
		if (!wanted)
			continue;
		bool known = false;
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
		for (size_t u = 0; u < sizeof units / sizeof *units; u++) {
			size_t n = 0;
			double r = ratio(f, units[u], REPS, &n);
			/* again, with more tries, up to three times: a parser that is
			 * quadratic is so every time (64 times the time), a machine
			 * busy with other work only now and then */
			for (int again = 0; r > RATIO_MAX && again < 3; again++) {
				double r2 = ratio(f, units[u], REPS_AGAIN, &n);
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
				       f->format, shown(units[u]), n, r, RATIO_MAX);
				bad++;
			}
			if (r > worst) {
				worst = r;
				worst_unit = units[u];
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
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
