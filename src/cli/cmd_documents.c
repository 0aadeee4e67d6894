/* cmd_documents.c — rulings documents: every document and its versions. */
#include "cli.h"

static const char notes[] =
	"Each document (its title, game, format and language), then each of its\n"
	"versions: its import number, its date and where the date came from\n"
	"(document: the date the document states; given: import --date or a\n"
	"manifest's; imported: the import's time),\n"
	"the file, and how many rulings it added, edited and withdrew, and how\n"
	"many of its entries it left unchanged. Exit status 1 when there is\n"
	"none, or no such game (the nearest names are suggested).\n";

static void document_text(struct out *o, const void *item)
{
	const struct rl_document *d = item;
	out_styled(o, STYLE_BOLD, d->title);
	out_printf(o, " \xC2\xB7 %s \xC2\xB7 %s \xC2\xB7 %s\n",
	           d->game ? d->game : "(no game)", d->format, d->lang);
	for (size_t i = 0; i < d->nversions; i++) {
		const struct rl_doc_version *v = &d->versions[i];
		out_printf(o, "    import %lld \xC2\xB7 %s (%s) \xC2\xB7 %s: %lld added,"
		           " %lld edited, %lld withdrawn, %lld unchanged\n",
		           v->import_id, v->date, v->date_source, v->path,
		           v->added, v->edited, v->withdrawn, v->unchanged);
	}
}

static void document_data(struct out *o, const void *item)
{
	const struct rl_document *d = item;
	out_key(o, "title"); out_string(o, d->title);
	out_key(o, "game"); out_string(o, d->game);
	out_key(o, "format"); out_string(o, d->format);
	out_key(o, "lang"); out_string(o, d->lang);
	out_key(o, "versions");
	out_begin_list(o);
	for (size_t i = 0; i < d->nversions; i++) {
		const struct rl_doc_version *v = &d->versions[i];
		out_begin_map(o);
		out_key(o, "version"); out_int(o, v->import_id);
		out_key(o, "date"); out_string(o, v->date);
		out_key(o, "date_source"); out_string(o, v->date_source);
		out_key(o, "imported_at"); out_string(o, v->imported_at);
		out_key(o, "path"); out_string(o, v->path);
		out_key(o, "added"); out_int(o, v->added);
		out_key(o, "edited"); out_int(o, v->edited);
		out_key(o, "withdrawn"); out_int(o, v->withdrawn);
		out_key(o, "unchanged"); out_int(o, v->unchanged);
		out_end_map(o);
	}
	out_end_list(o);
}

static const struct out_type document_type = { document_text, document_data };

int cmd_documents(struct ctx *c, int argc, char **argv)
{
	int fmt = OUT_TEXT;
	const char *game = NULL;
	const struct opt opts[] = {
		{ .name = "game", .letter = 'g', .type = OPT_STRING, .out = &game,
		  .arg = "G", .help = "only the documents of game G" },
		OPT_FORMAT(&fmt, out_formats_text_json),
		{ 0 }
	};
	const struct opt_spec spec = {
		.opts = opts, .notes = notes, .no_operands = true,
		.then = open_db,
	};
	int n, status = opt_parse(c, &spec, argc, argv, &n);
	if (status >= 0)
		return status;
	/* a game it does not know is said (the list is empty: exit 1) */
	int grc = game ? rl_game_check(c->db, game) : RL_OK;
	if (grc && grc != RL_NOTFOUND)
		return library_error(c, grc);
	if (grc)
		error("documents: %s", rl_db_errmsg(c->db));
	struct rl_document *v;
	size_t nv;
	int rc = rl_documents(c->db, game, &v, &nv);
	if (rc && rc != RL_NOTFOUND)
		return library_error(c, rc);
	struct out o;
	out_init(&o, stdout, "standard output", fmt, c->color);
	out_begin(&o);
	out_list(&o, "documents", "\n");
	for (size_t i = 0; i < nv && out_ok(&o); i++)
		out_record(&o, &document_type, &v[i]);
	out_list_end(&o);
	out_end(&o);
	rl_documents_free(v, nv);
	return out_finish(&o, exit_status(rc));
}
