/* cmd_search.c — rulings search: full text and filters. */
#include "cli.h"

#include <string.h>

static const char notes[] =
	"Words are matched as text, all of them, ranked by BM25: punctuation and\n"
	"FTS5 operators in them are not syntax. \"two words\" in double quotes is\n"
	"a phrase; word* a prefix. Words match every form of the word in English,\n"
	"French and Russian (Snowball stemming; case, accents and \xD1\x91/\xD0\xB5 folded),\n"
	"and a word or tag the thesaurus knows also matches its equivalents.\n"
	"Only the options' exact forms are options (-t T, --tag T, --tag=T): any\n"
	"other word that begins with '-' is a search word, as is every word\n"
	"after '--'. Exit status 1 when nothing matches.\n";

/* Whether s is nothing but white space. */
static bool blank(const char *s)
{
	return s[strspn(s, " \t\n\r\f\v")] == '\0';
}

/* Opens the database, runs q and prints the results: the exit status. */
static int run(struct ctx *c, const struct rl_query *q, int fmt)
{
	int status = open_db(c);
	if (status)
		return status;
	/* only the JSON document reports the total: the others need not
	 * count every match */
	struct rl_query qq = *q;
	qq.no_total = fmt != OUT_JSON;
	struct rl_results res;
	int rc = rl_search(c->db, &qq, &res);
	if (rc && rc != RL_NOTFOUND)
		return library_error(c, rc);
	struct out o;
	out_init(&o, stdout, "standard output", fmt, c->color);
	render_results(&o, &res);
	rl_results_free(&res);
	return out_finish(&o, exit_status(rc));
}

int cmd_search(struct ctx *c, int argc, char **argv)
{
	struct rl_query q = { .limit = 20 };
	struct filter_options filters;
	struct opt_when as_of = { "" };
	int fmt = OUT_TEXT;
	filter_options_init(&filters, &q);
	const struct opt opts[] = {
		{ .type = OPT_INHERIT, .out = filters.opts },
		{ .name = "limit", .letter = 'n', .type = OPT_LONG, .out = &q.limit,
		  .arg = "N", .help = "at most N results (default 20; 0: no limit)",
		  .min = 0, .max = 1000000000 },
		{ .name = "include-withdrawn", .type = OPT_FLAG,
		  .out = &q.include_withdrawn,
		  .help = "rulings no document lists any more, too" },
		{ .name = "as-of", .type = OPT_WHEN, .out = &as_of, .arg = "WHEN",
		  .help = "the rulings as they stood then, with their texts of then "
		  "(a date, its end; or a time, 2026-01-16T10:00, UTC unless it "
		  "ends in an offset such as +02:00)",
		  .flags = OPTF_WHEN_END },
		{ .name = "raw", .type = OPT_FLAG, .out = &q.raw,
		  .help = "WORDS are FTS5 query syntax (AND, OR, NOT, NEAR, "
		  "\"phrases\", prefix*, title: or body: filters)" },
		OPT_FORMAT(&fmt, out_formats_all),
		{ 0 }
	};
	const struct opt_spec spec = {
		.opts = opts, .operands = "[WORDS...]", .notes = notes,
		.dash_operands = true,
	};
	int n, status = opt_parse(c, &spec, argc, argv, &n);
	if (status >= 0)
		goto out;
	filter_options_apply(&filters);
	if (*as_of.s)
		q.as_of = as_of.s;
	/* blank words (an empty "$query" in a script) are no words */
	int k = 0;
	for (int i = 1; i <= n; i++)
		if (!blank(argv[i]))
			argv[1 + k++] = argv[i];
	q.words = (const char *const *)argv + 1;
	q.nwords = (size_t)k;
	if (!q.nwords && !q.ntags && !q.category && !q.kind && !q.game &&
	    !q.lang) {
		status = usage_error("search", n > k ? "no words to search for "
		                     "(the search words are empty)" : "give words "
		                     "to search for, or a filter such as --tag");
		goto out;
	}
	status = run(c, &q, fmt);
out:
	opt_free(opts);
	return status;
}
