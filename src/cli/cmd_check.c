/* cmd_check.c — rulings check: is the database whole and true to itself
 * (rl_check())? Each problem on a line; exit status 65 when there is one. */
#include "cli.h"
#include "json.h"

#include <getopt.h>

static const char options_help[] =
	"  -f, --format F     text (default) or json\n"
	"  -h, --help         show this help\n"
	"\nChecks, reading only: PRAGMA integrity_check and foreign_key_check;\n"
	"that each full-text table indexes exactly its rulings' present text\n"
	"(the whole index is read); that every ruling has a source, no\n"
	"reference points at a missing or withdrawn ruling, and every fold\n"
	"column and key is what this rulings' folding makes. Prints each\n"
	"problem (or \"ok\"); exit status 65 when there is one. 'rulings\n"
	"reindex' repairs the full-text tables, folds and keys.\n";

struct found {
	enum out_format fmt;
	struct json *j;
};

static void problem(void *ctx, const char *message)
{
	struct found *f = ctx;
	if (f->fmt == OUT_JSON)
		json_string(f->j, message);
	else
		printf("%s\n", message);
}

int cmd_check(struct ctx *c, int argc, char **argv)
{
	enum out_format fmt = OUT_TEXT;
	int status = format_options(argc, argv, "check", options_help, &fmt);
	if (status >= 0)
		return status;
	if (optind < argc)
		return usage_error("check", "unexpected argument '%s'", argv[optind]);
	if ((status = open_db(c)))
		return status;
	struct json j;
	struct found f = { fmt, &j };
	if (fmt == OUT_JSON) {
		json_init(&j, stdout, true);
		json_begin_map(&j);
		json_key(&j, "format_version"); json_int(&j, 1);
		json_key(&j, "problems");
		json_begin_list(&j);
	}
	size_t n = 0;
	int rc = rl_check(c->db, problem, &f, &n);
	if (fmt == OUT_JSON) {
		json_end_list(&j);
		json_key(&j, "ok"); json_bool(&j, !rc && n == 0);
		json_end_map(&j);
		json_end(&j);
	}
	if (rc) {
		error("check: %s", rl_db_errmsg(c->db));
		return exit_status(rc);
	}
	if (n) {
		error("check: %zu problem%s found", n, n == 1 ? "" : "s");
		return EXIT_DATA;
	}
	if (fmt == OUT_TEXT)
		printf("ok\n");
	return 0;
}
