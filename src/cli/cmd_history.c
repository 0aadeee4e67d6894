/* cmd_history.c — rulings history ID: every version of one ruling. */
#include "cli.h"
#include "json.h"

#include <getopt.h>
#include <string.h>

static const char options_help[] =
	"  -f, --format F     text (default) or json\n"
	"  -h, --help         show this help\n"
	"\nEach version: the import that made it (its number, time, document\n"
	"and file), what it did (baseline, added, edited, withdrawn) and the\n"
	"text it gave. Exit status 1 when the ruling has no history.\n";

int cmd_history(struct ctx *c, int argc, char **argv)
{
	enum out_format fmt = OUT_TEXT;
	int status = format_options(argc, argv, "history", options_help, &fmt);
	if (status >= 0)
		return status;
	if (optind != argc - 1)
		return usage_error("history", "give one ruling ID");
	const char *arg = argv[optind];
	long id;
	if (!parse_long(arg + (arg[0] == '#'), 1, 0x7fffffffL, &id))
		return usage_error("history", "'%s' is not a ruling ID", arg);
	if ((status = open_db(c)))
		return status;
	struct rl_version *v;
	size_t n;
	int rc = rl_history(c->db, id, &v, &n);
	if (rc) {
		error("history: %s", rl_db_errmsg(c->db));
		return exit_status(rc);
	}
	if (fmt == OUT_JSON) {
		struct json j;
		json_init(&j, stdout, true);
		json_begin_map(&j);
		json_key(&j, "format_version"); json_int(&j, 1);
		json_key(&j, "id"); json_int(&j, id);
		json_key(&j, "versions");
		json_begin_list(&j);
		for (size_t i = 0; i < n; i++) {
			json_begin_map(&j);
			json_key(&j, "import"); json_int(&j, v[i].import_id);
			json_key(&j, "change"); json_string(&j, v[i].change);
			json_key(&j, "at"); json_string(&j, v[i].at);
			json_key(&j, "document"); json_string(&j, v[i].document);
			json_key(&j, "path"); json_string(&j, v[i].path);
			json_key(&j, "title"); json_string(&j, v[i].title);
			json_key(&j, "text"); json_string(&j, v[i].text);
			json_end_map(&j);
		}
		json_end_list(&j);
		json_end_map(&j);
		json_end(&j);
	} else {
		const char *prev = NULL;
		for (size_t i = 0; i < n; i++) {
			printf("%simport %lld \xC2\xB7 %s \xC2\xB7 %s \xC2\xB7 %s (%s)\n",
			       i ? "\n" : "", v[i].import_id, v[i].at, v[i].change,
			       v[i].document, v[i].path);
			if (!v[i].text) {
				fputs("    (withdrawn)\n", stdout);
			} else if (prev) {
				fputs("    ", stdout);
				print_word_diff(stdout, prev, v[i].text, "    ", c->color);
			} else {
				print_indented(stdout, v[i].text, "    ", false);
			}
			if (v[i].text)
				prev = v[i].text;
		}
	}
	rl_history_free(v, n);
	return 0;
}
