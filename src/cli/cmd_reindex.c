/* cmd_reindex.c — rulings reindex: the fold columns and keys computed
 * again, the full-text tables rebuilt (rl_reindex()). */
#include "cli.h"

#include <getopt.h>

static const char options_help[] =
	"  -h, --help         show this help\n"
	"\nIn one transaction: computes every stored fold and key again with\n"
	"this rulings' folding, merging the rulings and tags that have become\n"
	"equal, and rebuilds every full-text table from the rulings' text. An\n"
	"older database is upgraded first. What 'rulings check' finds wrong in\n"
	"the full-text tables, folds and keys, this repairs.\n";

int cmd_reindex(struct ctx *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int opt, status = EXIT_USAGE;
	reset_opts();
	while ((opt = next_opt(argc, argv, ":h", opts, "reindex", &status)) != -1) {
		if (opt != 'h')
			return status;
		command_help(find_command("reindex"), options_help);
		return 0;
	}
	if (optind < argc)
		return usage_error("reindex", "unexpected argument '%s'",
		                   argv[optind]);
	if ((status = open_db(c)))
		return status;
	long long rulings, tags;
	int rc = rl_reindex(c->db, &rulings, &tags);
	if (rc) {
		error("reindex: %s", rl_db_errmsg(c->db));
		return exit_status(rc);
	}
	printf("reindexed: the full-text tables rebuilt; %lld rulings and %lld "
	       "tags merged\n", rulings, tags);
	return 0;
}
