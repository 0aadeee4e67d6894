/* cmd_changed.c — rulings changed: the rulings whose source marks them as
 * changed ("Changed answer:"). */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>

static const char options_help[] =
	"  -t, --tag T        only rulings with tag T (repeatable)\n"
	"  -c, --category C   only rulings in category C\n"
	"  -k, --kind K       only rulings of kind K\n"
	"  -l, --lang L       only rulings in language L (any: all)\n"
	"  -g, --game G       only rulings of game G\n"
	"      --no-thesaurus match tags only as given, not their equivalents\n"
	"                     in other languages\n"
	"  -f, --format F     text (default), json or ndjson\n"
	"  -h, --help         show this help\n"
	"\nEach change is reported as \"marked\": the source itself says the answer\n"
	"changed. Exit status 1 when there is none.\n";

int cmd_changed(struct ctx *c, int argc, char **argv)
{
	static const struct option opts[] = {
		QUERY_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct rl_query q = { .changed_only = true };
	enum out_format fmt = OUT_TEXT;
	const char **tags = calloc((size_t)argc + 1, sizeof *tags);
	if (!tags) {
		error("out of memory");
		return EXIT_SOFTWARE;
	}
	int opt, status = EXIT_USAGE;
	reset_opts();
	while ((opt = next_opt(argc, argv, ":" QUERY_SHORTOPTS "h", opts,
	                       "changed", &status)) != -1) {
		if (query_option(opt, optarg, "changed", &q, tags, &fmt, &status)) {
			if (status)
				goto out;
			continue;
		}
		if (opt == 'h') {
			command_help(find_command("changed"), options_help);
			status = 0;
		}
		goto out;
	}
	if (optind < argc) {
		status = usage_error("changed", "unexpected argument '%s'",
		                     argv[optind]);
		goto out;
	}
	status = run_query(c, &q, fmt, "changed");
out:
	free(tags);
	return status;
}
