/* cmd_tags.c — rulings tags: every tag, with counts if asked. */
#include "cli.h"
#include "json.h"

#include <getopt.h>
#include <string.h>

static const char options_help[] =
	"  -c, --counts       show how many rulings carry each tag\n"
	"  -g, --game G       only the tags of game G's rulings (counted there)\n"
	"  -s, --sort S       name (the default, case aside) or count (the most\n"
	"                     carried first)\n"
	"  -f, --format F     text (default) or json (always with counts)\n"
	"  -h, --help         show this help\n"
	"\nExit status 1 when there are no tags, or no such game (the nearest\n"
	"names are suggested).\n";

int cmd_tags(struct ctx *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "counts", no_argument, NULL, 'c' },
		{ "game", required_argument, NULL, 'g' },
		{ "sort", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	enum out_format fmt = OUT_TEXT;
	bool counts = false, by_count = false;
	const char *game = NULL;
	int opt, status = EXIT_USAGE;
	reset_opts();
	while ((opt = next_opt(argc, argv, ":cg:s:f:h", opts, "tags", &status)) != -1) {
		switch (opt) {
		case 'c': counts = true; break;
		case 'g': game = optarg; break;
		case 's':
			if (strcmp(optarg, "count") == 0)
				by_count = true;
			else if (strcmp(optarg, "name") != 0)
				return usage_error("tags", "--sort takes count or name, not"
				                   " '%s'", optarg);
			break;
		case 'f':
			if (!parse_format(optarg, 3, &fmt))
				return usage_error("tags", "unknown format '%s' (text, "
				                   "json)", optarg);
			break;
		case 'h':
			command_help(find_command("tags"), options_help);
			return 0;
		default:
			return status;
		}
	}
	if (optind < argc)
		return usage_error("tags", "unexpected argument '%s'", argv[optind]);
	if ((status = open_db(c)))
		return status;
	struct rl_tag_count *v;
	size_t n;
	int rc = game ? rl_game_check(c->db, game) : RL_OK;
	if (rc) {
		error("tags: %s", rl_db_errmsg(c->db));
		return exit_status(rc);
	}
	rc = rl_tags(c->db, game, by_count, &v, &n);
	if (rc && rc != RL_NOTFOUND) {
		error("tags: %s", rl_db_errmsg(c->db));
		return exit_status(rc);
	}
	if (fmt == OUT_JSON) {
		struct json j;
		json_init(&j, stdout, true);
		json_begin_map(&j);
		json_key(&j, "format_version");
		json_int(&j, 1);
		json_key(&j, "tags");
		json_begin_list(&j);
		for (size_t i = 0; i < n; i++) {
			json_begin_map(&j);
			json_key(&j, "name"); json_string(&j, v[i].name);
			json_key(&j, "count"); json_int(&j, v[i].count);
			json_end_map(&j);
		}
		json_end_list(&j);
		json_end_map(&j);
		json_end(&j);
	} else {
		for (size_t i = 0; i < n; i++)
			if (counts)
				printf("%6lld  %s\n", v[i].count, v[i].name);
			else
				printf("%s\n", v[i].name);
	}
	rl_tags_free(v, n);
	return exit_status(rc);
}
