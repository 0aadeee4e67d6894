/* cmd_xrefs.c — rulings xrefs: the cross-references, or the dangling ones. */
#include "cli.h"
#include "json.h"

#include <getopt.h>
#include <string.h>

static const char options_help[] =
	"  -d, --dangling     only references whose target (a rule, a ruling, a\n"
	"                     term) is not in the database\n"
	"  -k, --kind K       only references of kind K: page, rule, discussion,\n"
	"                     ruling, term, url\n"
	"  -f, --format F     text (default) or json\n"
	"  -h, --help         show this help\n"
	"\nExit status 1 when there is none.\n";

static bool ref_kind(const char *s)
{
	static const char *const kinds[] = { "page", "rule", "discussion",
	                                     "ruling", "term", "url" };
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
		if (strcmp(s, kinds[i]) == 0)
			return true;
	return false;
}

int cmd_xrefs(struct ctx *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dangling", no_argument, NULL, 'd' },
		{ "kind", required_argument, NULL, 'k' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	enum out_format fmt = OUT_TEXT;
	bool dangling = false;
	const char *kind = NULL;
	int opt, status = EXIT_USAGE;
	reset_opts();
	while ((opt = next_opt(argc, argv, ":dk:f:h", opts, "xrefs", &status)) != -1) {
		switch (opt) {
		case 'd': dangling = true; break;
		case 'k':
			if (!ref_kind(optarg))
				return usage_error("xrefs", "unknown reference kind '%s' "
				                   "(page, rule, discussion, ruling, term, "
				                   "url)", optarg);
			kind = optarg;
			break;
		case 'f':
			if (!parse_format(optarg, 3, &fmt))
				return usage_error("xrefs", "unknown format '%s' (text, "
				                   "json)", optarg);
			break;
		case 'h':
			command_help(find_command("xrefs"), options_help);
			return 0;
		default:
			return status;
		}
	}
	if (optind < argc)
		return usage_error("xrefs", "unexpected argument '%s'", argv[optind]);
	if ((status = open_db(c)))
		return status;
	struct rl_xref *v;
	size_t n;
	int rc = rl_xrefs(c->db, dangling, kind, &v, &n);
	if (rc && rc != RL_NOTFOUND) {
		error("xrefs: %s", rl_db_errmsg(c->db));
		return exit_status(rc);
	}
	if (fmt == OUT_JSON) {
		struct json j;
		json_init(&j, stdout, true);
		json_begin_map(&j);
		json_key(&j, "format_version");
		json_int(&j, 1);
		json_key(&j, dangling ? "dangling" : "xrefs");
		json_begin_list(&j);
		for (size_t i = 0; i < n; i++) {
			json_begin_map(&j);
			json_key(&j, "from"); json_int(&j, v[i].from_id);
			json_key(&j, "from_rule"); json_string(&j, v[i].from_rule);
			json_key(&j, "from_title"); json_string(&j, v[i].from_title);
			json_key(&j, "kind"); json_string(&j, v[i].kind);
			json_key(&j, "target"); json_string(&j, v[i].target);
			json_key(&j, "resolved"); json_bool(&j, v[i].target_id != 0);
			json_key(&j, "id");
			if (v[i].target_id)
				json_int(&j, v[i].target_id);
			else
				json_null(&j);
			json_key(&j, "path"); json_string(&j, v[i].path);
			json_key(&j, "line"); json_int(&j, v[i].line);
			json_end_map(&j);
		}
		json_end_list(&j);
		json_end_map(&j);
		json_end(&j);
	} else {
		for (size_t i = 0; i < n; i++) {
			printf("#%lld %s %s", v[i].from_id, v[i].kind, v[i].target);
			if (v[i].target_id)
				printf(" \xE2\x86\x92 #%lld", v[i].target_id);
			else if (strcmp(v[i].kind, "page") && strcmp(v[i].kind, "discussion") &&
			         strcmp(v[i].kind, "url"))
				printf(" (unresolved)");
			printf("  %s:%u\n", v[i].path ? v[i].path : "?", v[i].line);
		}
	}
	rl_xrefs_free(v, n);
	return exit_status(rc);
}
