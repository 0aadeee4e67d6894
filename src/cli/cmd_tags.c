/* cmd_tags.c — rulings tags: every tag, with counts if asked. */
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

int cmd_tags(struct ctx *c, int argc, char **argv)
{
	int fmt = OUT_TEXT;
	bool counts = false;
	const struct opt opts[] = {
		{ .name = "counts", .letter = 'c', .type = OPT_FLAG, .out = &counts,
		  .help = "show how many rulings carry each tag" },
		{ .name = "format", .letter = 'f', .type = OPT_KEYWORD, .out = &fmt,
		  .arg = "F", .help = "text (default) or json (always with counts)",
		  .words = out_formats_text_json, .what = "format" },
		{ 0 }
	};
	const struct opt_spec spec = { .opts = opts, .no_operands = true };
	int n, status = opt_parse(c, &spec, argc, argv, &n);
	if (status >= 0)
		return status;
	if ((status = open_db(c)))
		return status;
	struct rl_tag_count *v;
	size_t nv;
	int rc = rl_tags(c->db, &v, &nv);
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
