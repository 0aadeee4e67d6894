/* cmd_search.c — rulings search: full text and filters. */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static const char options_help[] =
	"  -t, --tag T        only rulings with tag T (case-insensitive; \"Name\"\n"
	"                     matches every qualifier, \"Name (Qualifier)\" one);\n"
	"                     repeat to require several tags\n"
	"  -c, --category C   only rulings in category C\n"
	"  -k, --kind K       only rulings of kind K: faq, errata, rule, glossary\n"
	"  -l, --lang L       only rulings in language L (en, fr, ru, ...); any,\n"
	"                     the default, searches every language\n"
	"  -g, --game G       only rulings of game G\n"
	"  -n, --limit N      at most N results (default 20; 0: no limit); the\n"
	"                     text output says how many more match\n"
	"      --no-thesaurus match tags and words only as given, not their\n"
	"                     equivalents in other languages\n"
	"      --include-withdrawn\n"
	"                     rulings no document lists any more, too\n"
	"      --as-of WHEN   the rulings as they stood then, with their texts of\n"
	"                     then (a date, its end; or 2026-01-16T10:00:00Z)\n"
	"      --raw          QUERY is FTS5 query syntax (AND, OR, NOT, NEAR,\n"
	"                     \"phrases\", prefix*, title: or body: filters)\n"
	"      --explain      print what QUERY is made of (the FTS5 expression,\n"
	"                     the SQL conditions) instead of running it\n"
	"  -f, --format F     text (default), json or ndjson\n"
	"  -h, --help         show this help\n"
	"\nQUERY: words (all must match, in any of their forms: Snowball stemming\n"
	"for English, French and Russian, case, accents and \xD1\x91/\xD0\xB5 folded),\n"
	"\"a phrase\", prefix*, a OR b, -word or NOT word, (groups), and the fields\n"
	"tag:NAME (tag:\"Name (Qualifier)\", tag:Prefix*), game:, lang:, kind:,\n"
	"rule:702.19 (the rule and its subrules), is:changed, is:withdrawn,\n"
	"title:WORD and text:WORD. A rule number (702.19a) finds the rule first.\n"
	"Other text, punctuation included, is searched for as written. Put --\n"
	"before a query that starts with '-'. Thesaurus equivalents widen words\n"
	"and tags, each concept within its own game. See rulings(1), SEARCH SYNTAX.\n"
	"Exit status 1 when nothing matches, or when a tag, game, language or\n"
	"kind is unknown (the nearest names are suggested).\n";

/* --explain: what the query is made of, without running it. */
static int explain_query(struct ctx *c, const struct rl_query *q)
{
	int status = open_db(c);
	if (status)
		return status;
	char *text;
	int rc = rl_search_explain(c->db, q, &text);
	if (rc) {
		error("search: %s", rl_db_errmsg(c->db));
		return exit_status(rc);
	}
	fputs(text, stdout);
	free(text);
	return 0;
}

int cmd_search(struct ctx *c, int argc, char **argv)
{
	enum { OPT_RAW = 256, OPT_AS_OF, OPT_EXPLAIN };
	static const struct option opts[] = {
		QUERY_LONGOPTS,
		{ "limit", required_argument, NULL, 'n' },
		{ "raw", no_argument, NULL, OPT_RAW },
		{ "as-of", required_argument, NULL, OPT_AS_OF },
		{ "explain", no_argument, NULL, OPT_EXPLAIN },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct rl_query q = { .limit = 20 };
	char *as_of = NULL;      /* --as-of as a full time */
	bool explain = false;
	enum out_format fmt = OUT_TEXT;
	const char **tags = calloc((size_t)argc + 1, sizeof *tags);
	if (!tags) {
		error("out of memory");
		return EXIT_SOFTWARE;
	}
	int opt, status = EXIT_USAGE;
	reset_opts();
	while ((opt = next_opt(argc, argv, ":" QUERY_SHORTOPTS "n:h", opts,
	                       "search", &status)) != -1) {
		if (query_option(opt, optarg, "search", &q, tags, &fmt, &status)) {
			if (status)
				goto out;
			continue;
		}
		switch (opt) {
		case 'n':
			if (!parse_long(optarg, 0, 1000000000, &q.limit)) {
				status = usage_error("search", "--limit takes a whole "
				                     "number, not '%s'", optarg);
				goto out;
			}
			break;
		case OPT_RAW: q.raw = true; break;
		case OPT_EXPLAIN: explain = true; break;
		case OPT_AS_OF:
			if (!valid_when(optarg)) {
				status = usage_error("search", "--as-of takes a date "
				                     "(2026-01-16) or a UTC time "
				                     "(2026-01-16T10:00:00Z), not '%s'",
				                     optarg);
				goto out;
			}
			free(as_of);
			if (!(as_of = full_when(optarg, true))) {
				status = EXIT_SOFTWARE;
				goto out;
			}
			q.as_of = as_of;
			break;
		case 'h':
			command_help(find_command("search"), options_help);
			status = 0;
			goto out;
		default:
			goto out;
		}
	}
	q.words = (const char *const *)argv + optind;
	q.nwords = (size_t)(argc - optind);
	if (!q.nwords && !q.ntags && !q.category && !q.kind && !q.game &&
	    !q.lang) {
		status = usage_error("search", "give words to search for, or a "
		                     "filter such as --tag");
		goto out;
	}
	if (explain)
		status = explain_query(c, &q);
	else
		status = run_query(c, &q, fmt, "search");
out:
	free(as_of);
	free(tags);
	return status;
}
