/* cmd_stats.c — rulings stats: what the database holds. */
#include "cli.h"
#include "json.h"

#include <getopt.h>

static const char options_help[] =
	"  -f, --format F     text (default) or json\n"
	"  -h, --help         show this help\n";

static void counts_json(struct json *j, const char *key,
                        const struct rl_count *v, size_t n)
{
	json_key(j, key);
	json_begin_map(j);
	for (size_t i = 0; i < n; i++) {
		json_key(j, v[i].key);
		json_int(j, v[i].count);
	}
	json_end_map(j);
}

static void counts_text(const char *label, const struct rl_count *v, size_t n)
{
	printf("%-10s", label);
	for (size_t i = 0; i < n; i++)
		printf("%s%s %lld", i ? ", " : "", v[i].key ? v[i].key : "(no game)",
		       v[i].count);
	printf(n ? "\n" : "-\n");
}

int cmd_stats(struct ctx *c, int argc, char **argv)
{
	enum out_format fmt = OUT_TEXT;
	int status = format_options(argc, argv, "stats", options_help, &fmt);
	if (status >= 0)
		return status;
	if (optind < argc)
		return usage_error("stats", "unexpected argument '%s'", argv[optind]);
	if ((status = open_db(c)))
		return status;
	struct rl_stats s;
	int rc = rl_stats(c->db, &s);
	if (rc) {
		error("stats: %s", rl_db_errmsg(c->db));
		return exit_status(rc);
	}
	if (fmt == OUT_JSON) {
		struct json j;
		json_init(&j, stdout, true);
		json_begin_map(&j);
		json_key(&j, "format_version"); json_int(&j, 1);
		json_key(&j, "rulings"); json_int(&j, s.rulings);
		json_key(&j, "withdrawn"); json_int(&j, s.withdrawn);
		json_key(&j, "tags"); json_int(&j, s.tags);
		json_key(&j, "sources"); json_int(&j, s.sources);
		json_key(&j, "imports"); json_int(&j, s.imports);
		json_key(&j, "games");
		json_begin_list(&j);
		for (size_t i = 0; i < s.nby_game; i++) {
			json_begin_map(&j);
			json_key(&j, "name"); json_string(&j, s.by_game[i].key);
			json_key(&j, "rulings"); json_int(&j, s.by_game[i].count);
			json_end_map(&j);
		}
		json_end_list(&j);
		counts_json(&j, "languages", s.languages, s.nlanguages);
		counts_json(&j, "kinds", s.kinds, s.nkinds);
		json_end_map(&j);
		json_end(&j);
	} else {
		printf("%-10s%lld\n%-10s%lld\n%-10s%lld\n%-10s%lld\n%-10s%lld\n",
		       "rulings", s.rulings, "withdrawn", s.withdrawn, "tags", s.tags,
		       "sources", s.sources, "imports", s.imports);
		counts_text("games", s.by_game, s.nby_game);
		counts_text("languages", s.languages, s.nlanguages);
		counts_text("kinds", s.kinds, s.nkinds);
	}
	rl_stats_clear(&s);
	return 0;
}
