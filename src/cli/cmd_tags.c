/* cmd_tags.c — rulings tags: every tag (of one game if asked), with counts
 * if asked, by name or by count. */
#include "cli.h"

struct tag_item {
	const struct rl_tag_count *t;
	bool counts;
};

static void tag_text(struct out *o, const void *item)
{
	const struct tag_item *x = item;
	if (x->counts)
		out_printf(o, "%6lld  %s\n", x->t->count, x->t->name);
	else
		out_printf(o, "%s\n", x->t->name);
}

static void tag_data(struct out *o, const void *item)
{
	const struct tag_item *x = item;
	out_key(o, "name"); out_string(o, x->t->name);
	out_key(o, "count"); out_int(o, x->t->count);
}

static const struct out_type tag_type = { tag_text, tag_data };

static const char *const sort_orders[] = { "name", "count", NULL };

int cmd_tags(struct ctx *c, int argc, char **argv)
{
	int fmt = OUT_TEXT, sort = 0;
	bool counts = false;
	const char *game = NULL;
	const struct opt opts[] = {
		{ .name = "counts", .letter = 'c', .type = OPT_FLAG, .out = &counts,
		  .help = "show how many rulings carry each tag" },
		{ .name = "game", .letter = 'g', .type = OPT_STRING, .out = &game,
		  .arg = "G", .flags = OPTF_NONEMPTY,
		  .help = "only the tags of game G's rulings (counted there)" },
		{ .name = "sort", .letter = 's', .type = OPT_KEYWORD, .out = &sort,
		  .arg = "S", .words = sort_orders, .what = "sort order",
		  .help = "name (the default, case aside) or count (the most "
		          "carried first)" },
		{ .name = "format", .letter = 'f', .type = OPT_KEYWORD, .out = &fmt,
		  .arg = "F", .help = "text (default) or json (always with counts)",
		  .words = out_formats_text_json, .what = "format" },
		{ 0 }
	};
	const struct opt_spec spec = {
		.opts = opts, .no_operands = true,
		.notes = "Exit status 1 when there are no tags, or no such game (the "
		         "nearest names are suggested).\n",
		.then = open_db,
	};
	int n, status = opt_parse(c, &spec, argc, argv, &n);
	if (status >= 0)
		return status;
	struct rl_tag_count *v;
	size_t nv;
	int rc = game ? rl_game_check(c->db, game) : RL_OK;
	if (rc)
		return library_error(c, rc);
	rc = rl_tags(c->db, game, sort == 1, &v, &nv);
	if (rc && rc != RL_NOTFOUND)
		return library_error(c, rc);
	struct out o;
	out_init(&o, stdout, "standard output", fmt, c->color);
	out_begin(&o);
	out_list(&o, "tags", NULL);
	for (size_t i = 0; i < nv && out_ok(&o); i++)
		out_record(&o, &tag_type, &(struct tag_item){ &v[i], counts });
	out_list_end(&o);
	out_end(&o);
	rl_tags_free(v, nv);
	return out_finish(&o, exit_status(rc));
}
