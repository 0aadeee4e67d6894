/* cmd_search.c — rulings search: the query language and filters. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char notes[] =
	"QUERY: words (all must match, in any of their forms: Snowball stemming\n"
	"for English, French and Russian, case, accents and \xD1\x91/\xD0\xB5 folded,\n"
	"a French elided article dropped: l\xE2\x80\x99" "alli\xC3\xA9 is alli\xC3\xA9),\n"
	"\"a phrase\", prefix*, a OR b, -word or NOT word, (groups), and the fields\n"
	"tag:NAME (tag:\"Name (Qualifier)\", tag:Prefix*), game:, lang:, kind:,\n"
	"rule:702.19 (the rule and its subrules), is:changed, is:withdrawn,\n"
	"title:WORD and text:WORD. A rule number (702.19a) finds the rule first.\n"
	"Other text, punctuation included, is searched for as written.\n"
	"Only the options' exact forms are options (-t T, --tag T, --tag=T): any\n"
	"other word that begins with '-' is a query word, as is every word\n"
	"after '--'. Thesaurus equivalents widen words and tags, each concept\n"
	"within its own game. See rulings(1), SEARCH SYNTAX.\n"
	"Exit status 1 when nothing matches, or when a tag, game, language or\n"
	"kind is unknown (the nearest names are suggested).\n";

/* Whether s is nothing but white space. */
static bool blank(const char *s)
{
	return s[strspn(s, " \t\n\r\f\v")] == '\0';
}

/* --explain: what the query is made of, without running it. */
static int explain(struct ctx *c, const struct rl_query *q)
{
	int status = open_db(c);
	if (status)
		return status;
	char *text;
	int rc = rl_search_explain(c->db, q, &text);
	if (rc)
		return library_error(c, rc);
	fputs(text, stdout);
	free(text);
	return finish_output(0);
}

/* Opens the database, runs q and prints the results: the exit status. */
static int run(struct ctx *c, const struct rl_query *q, int fmt)
{
	int status = open_db(c);
	if (status)
		return status;
	/* the JSON document reports the total and the text says "20 of 32
	 * shown": only ndjson need not count every match */
	struct rl_query qq = *q;
	qq.no_total = fmt == OUT_NDJSON;
	struct rl_results res;
	int rc = rl_search(c->db, &qq, &res);
	if (rc && rc != RL_NOTFOUND)
		return library_error(c, rc);
	if (res.unknown)
		error("search: %s", res.unknown);
	struct out o;
	out_init(&o, stdout, "standard output", fmt, c->color);
	render_results(&o, &res);
	/* say when the list is cut */
	if (fmt == OUT_TEXT && out_ok(&o) && res.n &&
	    (res.total < 0 || res.total > (long long)res.n)) {
		if (res.total < 0)
			out_printf(&o, "\n%zu shown; more match (--limit 0 for all)\n",
			           res.n);
		else
			out_printf(&o, "\n%zu of %lld shown (--limit 0 for all)\n",
			           res.n, res.total);
	}
	rl_results_free(&res);
	return out_finish(&o, exit_status(rc));
}

int cmd_search(struct ctx *c, int argc, char **argv)
{
	struct rl_query q = { .limit = 20 };
	struct filter_options filters;
	struct opt_when as_of = { "", NULL };
	int fmt = OUT_TEXT;
	bool explain_only = false;
	filter_options_init(&filters, &q);
	const struct opt opts[] = {
		{ .type = OPT_INHERIT, .out = filters.opts },
		{ .name = "limit", .letter = 'n', .type = OPT_LONG, .out = &q.limit,
		  .arg = "N", .help = "at most N results (default 20; 0: no limit); "
		  "the text output says how many more match",
		  .min = 0, .max = 1000000000 },
		{ .name = "include-withdrawn", .type = OPT_FLAG,
		  .out = &q.include_withdrawn,
		  .help = "rulings no document lists any more, too" },
		{ .name = "as-of", .type = OPT_WHEN, .out = &as_of, .arg = "WHEN",
		  .help = "the rulings as the versions of the documents dated up to "
		  "WHEN said them (a date, its end; or a time, 2026-01-16T10:00, "
		  "UTC unless it ends in an offset such as +02:00)",
		  .flags = OPTF_WHEN_END },
		{ .name = "raw", .type = OPT_FLAG, .out = &q.raw,
		  .help = "QUERY is FTS5 query syntax (AND, OR, NOT, NEAR, "
		  "\"phrases\", prefix*, title: or body: filters)" },
		{ .name = "explain", .type = OPT_FLAG, .out = &explain_only,
		  .help = "print what QUERY is made of (the FTS5 expression, the SQL "
		  "conditions) instead of running it" },
		OPT_FORMAT(&fmt, out_formats_all),
		{ 0 }
	};
	const struct opt_spec spec = {
		.opts = opts, .operands = "[QUERY...]", .notes = notes,
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
	status = explain_only ? explain(c, &q) : run(c, &q, fmt);
out:
	opt_free(opts);
	return status;
}
