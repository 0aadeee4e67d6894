/* cmd_xrefs.c — rulings xrefs: the cross-references, or the dangling ones. */
#include "cli.h"

static void xref_text(struct out *o, const void *item)
{
	const struct rl_xref *x = item;
	enum rl_ref_kind k;
	out_printf(o, "#%lld %s %s", x->from_id, x->kind, x->target);
	if (x->target_id)
		out_printf(o, " \xE2\x86\x92 #%lld", x->target_id);
	else if (rl_ref_kind_parse(x->kind, &k) == RL_OK && rl_ref_kind_resolves(k))
		out_puts(o, " (unresolved)");
	out_printf(o, "  %s:%u\n", x->path ? x->path : "?", x->line);
}

static void xref_data(struct out *o, const void *item)
{
	const struct rl_xref *x = item;
	out_key(o, "from"); out_int(o, x->from_id);
	out_key(o, "from_rule"); out_string(o, x->from_rule);
	out_key(o, "from_title"); out_string(o, x->from_title);
	out_key(o, "kind"); out_string(o, x->kind);
	out_key(o, "target"); out_string(o, x->target);
	out_key(o, "resolved"); out_bool(o, x->target_id != 0);
	out_key(o, "id"); out_int_or_null(o, x->target_id, x->target_id != 0);
	out_key(o, "path"); out_string(o, x->path);
	out_key(o, "line"); out_int(o, x->line);
}

static const struct out_type xref_type = { xref_text, xref_data };

static const char *ref_kind_word(size_t i)
{
	return rl_ref_kind_name((enum rl_ref_kind)i);
}

int cmd_xrefs(struct ctx *c, int argc, char **argv)
{
	int fmt = OUT_TEXT, kind = -1;
	bool dangling = false;
	const struct opt opts[] = {
		{ .name = "dangling", .letter = 'd', .type = OPT_FLAG,
		  .out = &dangling, .help = "only references whose target (a "
		  "rule, a ruling, a term) is not in the database" },
		{ .name = "kind", .letter = 'k', .type = OPT_KEYWORD, .out = &kind,
		  .arg = "K", .help = "only references of kind K",
		  .flags = OPTF_LIST, .word = ref_kind_word,
		  .what = "reference kind" },
		OPT_FORMAT(&fmt, out_formats_text_json),
		{ 0 }
	};
	const struct opt_spec spec = {
		.opts = opts, .notes = "Exit status 1 when there is none.\n",
		.no_operands = true,
		.then = open_db,
	};
	int n, status = opt_parse(c, &spec, argc, argv, &n);
	if (status >= 0)
		return status;
	struct rl_xref *v;
	size_t nv;
	int rc = rl_xrefs(c->db, dangling,
	                  kind >= 0 ? rl_ref_kind_name((enum rl_ref_kind)kind) : NULL,
	                  &v, &nv);
	if (rc && rc != RL_NOTFOUND)
		return library_error(c, rc);
	struct out o;
	out_init(&o, stdout, "standard output", fmt, c->color);
	out_begin(&o);
	out_list(&o, dangling ? "dangling" : "xrefs", NULL);
	for (size_t i = 0; i < nv && out_ok(&o); i++)
		out_record(&o, &xref_type, &v[i]);
	out_list_end(&o);
	out_end(&o);
	rl_xrefs_free(v, nv);
	return out_finish(&o, exit_status(rc));
}
