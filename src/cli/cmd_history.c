/* cmd_history.c — rulings history ID: every version of one ruling. */
#include "cli.h"

static const char notes[] =
	"Each version, in the order of the versions' dates: the import that\n"
	"made it (its number, the version's date, document and file), what it\n"
	"did (baseline, added, edited, withdrawn) and the text it gave. JSON\n"
	"gives the import time too (imported_at). Exit status 1 when the ruling\n"
	"has no history.\n";

struct version_item {
	const struct rl_version *v;
	const char *prev;     /* the text before it, or NULL */
};

static void version_text(struct out *o, const void *item)
{
	const struct version_item *x = item;
	const struct rl_version *v = x->v;
	out_printf(o, "import %lld \xC2\xB7 %s \xC2\xB7 %s \xC2\xB7 %s (%s)\n",
	           v->import_id, v->date ? v->date : v->at, v->change, v->document, v->path);
	if (!v->text) {
		out_puts(o, "    (withdrawn)\n");
	} else if (x->prev) {
		out_puts(o, "    ");
		render_word_diff(o, x->prev, v->text, "    ");
	} else {
		render_indented(o, v->text, "    ");
	}
}

static void version_data(struct out *o, const void *item)
{
	const struct rl_version *v = ((const struct version_item *)item)->v;
	out_key(o, "import"); out_int(o, v->import_id);
	out_key(o, "change"); out_string(o, v->change);
	out_key(o, "at"); out_string(o, v->at);
	out_key(o, "date"); out_string(o, v->date);
	out_key(o, "imported_at"); out_string(o, v->at);
	out_key(o, "document"); out_string(o, v->document);
	out_key(o, "path"); out_string(o, v->path);
	out_key(o, "title"); out_string(o, v->title);
	out_key(o, "text"); out_string(o, v->text);
}

static const struct out_type version_type = { version_text, version_data };

int cmd_history(struct ctx *c, int argc, char **argv)
{
	int fmt = OUT_TEXT;
	const struct opt opts[] = {
		OPT_FORMAT(&fmt, out_formats_text_json),
		{ 0 }
	};
	const struct opt_spec spec = {
		.opts = opts, .operands = "ID", .notes = notes,
	};
	int n, status = opt_parse(c, &spec, argc, argv, &n);
	if (status >= 0)
		return status;
	if (n != 1)
		return usage_error("history", "give one ruling ID");
	const char *arg = argv[1];
	long id;
	if (!parse_long(arg + (arg[0] == '#'), 1, 0x7fffffffL, &id))
		return usage_error("history", "'%s' is not a ruling ID", arg);
	if ((status = open_db(c)))
		return status;
	struct rl_version *v;
	size_t nv;
	int rc = rl_history(c->db, id, &v, &nv);
	if (rc)
		return library_error(c, rc);
	struct out o;
	out_init(&o, stdout, "standard output", fmt, c->color);
	out_begin(&o);
	out_key(&o, "id");
	out_int(&o, id);
	out_list(&o, "versions", "\n");
	const char *prev = NULL;
	for (size_t i = 0; i < nv && out_ok(&o); i++) {
		out_record(&o, &version_type,
		           &(struct version_item){ &v[i], prev });
		if (v[i].text)
			prev = v[i].text;
	}
	out_list_end(&o);
	out_end(&o);
	rl_history_free(v, nv);
	return out_finish(&o, 0);
}
