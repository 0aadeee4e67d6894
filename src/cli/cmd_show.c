/* cmd_show.c — rulings show ID: one ruling, whole. */
#include "cli.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static const char notes[] =
	"What to show: a rule number (702.19a, 510, 512.1), or a ruling's ID, the\n"
	"number search prints after '#'. A number that is both is read as the\n"
	"rule; write #N for the ID. A rule is shown with the rule it is under,\n"
	"the rules before and after it, and the rules under it (702.19: 702.19a,\n"
	"702.19b, ...). With --as-of the title and text are those of then, the\n"
	"rest as it stands now. Exit status 1 when there is no such ruling (or\n"
	"it did not stand then) or no such game, 2 when several games have the\n"
	"rule and --game does not say which.\n";

int cmd_show(struct ctx *c, int argc, char **argv)
{
	int fmt = OUT_TEXT;
	const char *game = NULL;
	struct opt_when as_of = { "", NULL };
	const struct opt opts[] = {
		{ .name = "game", .letter = 'g', .type = OPT_STRING, .out = &game,
		  .arg = "G", .help = "the game whose rule is meant, when several "
		  "games have a rule of that number" },
		{ .name = "as-of", .type = OPT_WHEN, .out = &as_of, .arg = "WHEN",
		  .flags = OPTF_WHEN_END,
		  .help = "its title and text as the versions of the documents "
		  "dated up to WHEN said them (a date: its end); exit 1 if it did "
		  "not stand then" },
		OPT_FORMAT(&fmt, out_formats_text_json),
		{ 0 }
	};
	const struct opt_spec spec = {
		.opts = opts, .operands = "ID|RULE", .notes = notes,
	};
	int n, status = opt_parse(c, &spec, argc, argv, &n);
	if (status >= 0)
		return status;
	if (n != 1)
		return usage_error("show", n ? "one ID at a time"
		                   : "which ruling? give its ID");
	char *arg = argv[1];
	/* "702.19." and "100.1." as the rulebook writes them are 702.19 and
	 * 100.1, as search reads them (an argument is the program's to
	 * change, C17 5.1.2.2.1) */
	size_t alen = strlen(arg);
	while (alen > 1 && arg[alen - 1] == '.' && arg[0] >= '0' && arg[0] <= '9')
		arg[--alen] = '\0';
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
	/* a game it does not know is said so, not "no rule ... in it" */
	int grc = game ? rl_game_check(c->db, game) : RL_OK;
	if (grc)
		return library_error(c, grc);
	if (rule_like) {
		long long *ids;
		char **games;
		size_t nfound;
		int frc = rl_find_rule(c->db, arg, game, &ids, &games, &nfound);
		if (frc && frc != RL_NOTFOUND)
			return library_error(c, frc);
		if (nfound > 1) {
			struct rl_buf b = {0};
			for (size_t i = 0; i < nfound; i++)
				rl_buf_addf(&b, "%s '%s'", i ? "," : "",
				            games[i] ? games[i] : "(no game)");
			if (b.oom)
				error("out of memory");
			else
				error("show: rule %s is in %zu games:%s; say which with "
				      "--game", arg, nfound, b.s);
			rl_buf_free(&b);
		}
		long long found = nfound == 1 ? ids[0] : 0;
		free(ids);
		rl_strings_free(games, nfound);
		if (nfound > 1)
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
	int rc = *as_of.s ? rl_show_as_of(c->db, id, as_of.s, &r)
	                  : rl_show(c->db, id, &r);
	if (rc)
		return library_error(c, rc);
	struct out o;
	out_init(&o, stdout, "standard output", fmt, c->color);
	out_document(&o, &ruling_full, &r);
	rl_ruling_clear(&r);
	return out_finish(&o, 0);
}
