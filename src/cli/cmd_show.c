/* cmd_show.c — rulings show ID: one ruling, whole. */
#include "cli.h"
#include "json.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char options_help[] =
	"  -g, --game G       the game whose rule is meant, when several games\n"
	"                     have a rule of that number\n"
	"  -f, --format F     text (default) or json\n"
	"  -h, --help         show this help\n"
	"\nWhat to show: a rule number (702.19a, 510, 512.1), or a ruling's ID, the\n"
	"number search prints after '#'. A number that is both is read as the\n"
	"rule; write #N for the ID. A rule is shown with the rule it is under,\n"
	"the rules before and after it, and the rules under it (702.19: 702.19a,\n"
	"702.19b, ...). Exit status 1 when there is no such ruling, 2 when\n"
	"several games have the rule and --game does not say which.\n";

int cmd_show(struct ctx *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "game", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	enum out_format fmt = OUT_TEXT;
	const char *game = NULL;
	int opt, status = EXIT_USAGE;
	reset_opts();
	while ((opt = next_opt(argc, argv, ":f:g:h", opts, "show", &status)) != -1) {
		switch (opt) {
		case 'g': game = optarg; break;
		case 'f':
			if (!parse_format(optarg, 3, &fmt))
				return usage_error("show", "unknown format '%s' (text, "
				                   "json)", optarg);
			break;
		case 'h':
			command_help(find_command("show"), options_help);
			return 0;
		default:
			return status;
		}
	}
	if (optind != argc - 1)
		return usage_error("show", optind < argc ? "one ID at a time"
		                   : "which ruling? give its ID");
	const char *arg = argv[optind];
	bool hash = arg[0] == '#';
	long id = 0;
	bool is_id = parse_long(arg + hash, 1, 0x7fffffffL, &id);
	/* a rule number: digits first, then digits, dots and letters of any
	 * script ("702.19a", "100.1б") */
	bool rule_like = !hash && arg[0] >= '0' && arg[0] <= '9';
	for (const char *q = arg; rule_like && *q; q++)
		rule_like = (*q >= '0' && *q <= '9') || *q == '.' ||
		            (*q >= 'a' && *q <= 'z') || (unsigned char)*q >= 0x80;
	if (!is_id && !rule_like)
		return usage_error("show", "'%s' is neither a rule number nor a "
		                   "ruling ID", arg);
	if ((status = open_db(c)))
		return status;
	if (rule_like) {
		long long *ids;
		char **games;
		size_t n;
		int frc = rl_find_rule(c->db, arg, game, &ids, &games, &n);
		if (frc && frc != RL_NOTFOUND) {
			error("show: %s", rl_db_errmsg(c->db));
			return exit_status(frc);
		}
		if (n > 1) {
			fprintf(stderr, "%s: show: rule %s is in %zu games:", progname,
			        arg, n);
			for (size_t i = 0; i < n; i++)
				fprintf(stderr, "%s '%s'", i ? "," : "",
				        games[i] ? games[i] : "(no game)");
			fprintf(stderr, "; say which with --game\n");
		}
		long long found = n == 1 ? ids[0] : 0;
		free(ids);
		rl_strings_free(games, n);
		if (n > 1)
			return EXIT_USAGE;
		if (found)
			id = (long)found;
		else if (!is_id || game) {
			/* with --game a number is a rule of that game, never an ID */
			error("show: no rule %s%s%s", arg, game ? " in " : "",
			      game ? game : "");
			return EXIT_NOTHING;
		}
	}
	struct rl_ruling r;
	int rc = rl_show(c->db, id, &r);
	if (rc) {
		error("show: %s", rl_db_errmsg(c->db));
		return exit_status(rc);
	}
	if (fmt == OUT_TEXT) {
		render_ruling_text(stdout, &r, c->color, true);
	} else {
		struct json j;
		json_init(&j, stdout, true);
		json_begin_map(&j);
		json_key(&j, "format_version");
		json_int(&j, 1);
		render_ruling_json(&j, &r, true);
		json_end_map(&j);
		json_end(&j);
	}
	rl_ruling_clear(&r);
	return 0;
}
