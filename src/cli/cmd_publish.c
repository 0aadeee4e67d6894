/* cmd_publish.c — rulings publish -o FILE: a compacted, self-contained
 * copy to serve read-only (rl_publish()). */
#include "cli.h"

#include <getopt.h>
#include <string.h>

static const char options_help[] =
	"  -o, --output FILE  the copy to write (required)\n"
	"  -h, --help         show this help\n"
	"\nWrites a snapshot of the database to FILE: compacted (VACUUM INTO, each\n"
	"full-text index merged into one segment), in journal_mode=DELETE, so\n"
	"that it is read with no -wal or -shm file, from a read-only mount too;\n"
	"checked with PRAGMA integrity_check; written whole (a temporary file\n"
	"beside FILE, renamed over it). FILE is replaced only when it is a\n"
	"rulings database. Reads the database only: imports may go on.\n";

int cmd_publish(struct ctx *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *out = NULL;
	int opt, status = EXIT_USAGE;
	reset_opts();
	while ((opt = next_opt(argc, argv, ":o:h", opts, "publish",
	                       &status)) != -1) {
		switch (opt) {
		case 'o': out = optarg; break;
		case 'h':
			command_help(find_command("publish"), options_help);
			return 0;
		default:
			return status;
		}
	}
	if (optind < argc)
		return usage_error("publish", "unexpected argument '%s'",
		                   argv[optind]);
	if (!out || !*out)
		return usage_error("publish", "give the copy to write: -o FILE");
	if (strcmp(out, "-") == 0)
		return usage_error("publish", "a database copy cannot go to "
		                   "standard output: -o FILE");
	if ((status = open_db(c)))
		return status;
	long long bytes;
	int rc = rl_publish(c->db, out, &bytes);
	if (rc) {
		error("publish: %s", rl_db_errmsg(c->db));
		return exit_status(rc);
	}
	printf("published %s: %lld bytes\n", out, bytes);
	return 0;
}
