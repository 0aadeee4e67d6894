/* cmd_show.c — rulings show ID: one ruling, whole. */
#include "cli.h"
#include "json.h"

#include <getopt.h>

static const char options_help[] =
	"  -f, --format F     text (default) or json\n"
	"  -h, --help         show this help\n"
	"\nID is the number search prints after '#'. Exit status 1 when there is\n"
	"no such ruling.\n";

int cmd_show(struct ctx *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	enum out_format fmt = OUT_TEXT;
	int opt, status = EXIT_USAGE;
	reset_opts();
	while ((opt = next_opt(argc, argv, ":f:h", opts, "show", &status)) != -1) {
		switch (opt) {
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
	if (arg[0] == '#')
		arg++;
	long id;
	if (!parse_long(arg, 1, 0x7fffffffL, &id))
		return usage_error("show", "'%s' is not a ruling ID", argv[optind]);
	if ((status = open_db(c)))
		return status;
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
