/* cmd_parse.c — rulings parse FILE: what an importer makes of a document,
 * as JSON, without a database. The golden tests compare this output. */
#include "cli.h"

static const char notes[] =
	"Exit status 65 when the document is refused; its diagnostics are\n"
	"printed as for import.\n";

static void tag(struct out *j, const struct rl_tag *t)
{
	out_begin_map(j);
	out_key(j, "name"); out_string(j, t->name);
	out_key(j, "qualifier"); out_string(j, t->qualifier);
	out_end_map(j);
}

static void entry(struct out *j, const struct rl_entry *e)
{
	out_begin_map(j);
	out_key(j, "line"); out_int(j, e->line);
	out_key(j, "kind"); out_string(j, rl_kind_name(e->kind));
	/* only when the entry has its own (an interchange file's) */
	if (e->game || e->lang) {
		out_key(j, "game"); out_string(j, e->game);
		out_key(j, "lang"); out_string(j, e->lang);
	}
	out_key(j, "key"); out_string(j, e->key);
	out_key(j, "title"); out_string(j, e->title);
	out_key(j, "text"); out_string(j, e->text);
	out_key(j, "section"); out_string(j, e->section);
	out_key(j, "category"); out_string(j, e->category);
	out_key(j, "rule"); out_string(j, e->rule);
	out_key(j, "changed"); out_bool(j, e->changed);
	if (e->date || e->author) {
		out_key(j, "date"); out_string(j, e->date);
		out_key(j, "author"); out_string(j, e->author);
	}
	out_key(j, "hidden_tags");
	if (e->hidden_tags >= 0)
		out_int(j, e->hidden_tags);
	else
		out_null(j);
	out_key(j, "tags");
	out_begin_list(j);
	for (size_t i = 0; i < e->ntags; i++)
		tag(j, &e->tags[i]);
	out_end_list(j);
	out_key(j, "refs");
	out_begin_list(j);
	for (size_t i = 0; i < e->nrefs; i++) {
		out_begin_map(j);
		out_key(j, "kind"); out_string(j, rl_ref_kind_name(e->refs[i].kind));
		out_key(j, "target"); out_string(j, e->refs[i].target);
		out_end_map(j);
	}
	out_end_list(j);
	/* only when there are some: the other names references may use */
	if (e->naliases)
		out_strings(j, "aliases", e->aliases, e->naliases);
	out_key(j, "errata");
	render_errata(j, e->errata);
	out_end_map(j);
}

static void concept(struct out *j, const struct rl_concept *c)
{
	out_begin_map(j);
	out_key(j, "line"); out_int(j, c->line);
	out_key(j, "game"); out_string(j, c->game);
	out_key(j, "terms");
	out_begin_list(j);
	for (size_t i = 0; i < c->nterms; i++) {
		out_begin_map(j);
		out_key(j, "term"); out_string(j, c->terms[i].term);
		out_key(j, "lang"); out_string(j, c->terms[i].lang);
		out_end_map(j);
	}
	out_end_list(j);
	out_end_map(j);
}

struct parsed {
	const struct rl_source *src;
	const struct rl_doc *doc;
};

static void doc_data(struct out *j, const void *item)
{
	const struct rl_source *src = ((const struct parsed *)item)->src;
	const struct rl_doc *doc = ((const struct parsed *)item)->doc;
	out_key(j, "sha256"); out_string(j, src->sha256);
	out_key(j, "encoding"); out_string(j, src->encoding);
	out_key(j, "format"); out_string(j, doc->format);
	out_key(j, "title"); out_string(j, doc->title);
	out_key(j, "game"); out_string(j, doc->game);
	out_key(j, "lang"); out_string(j, doc->lang);
	out_key(j, "date"); out_string(j, doc->date);
	out_key(j, "page_tag");
	if (doc->page_tag)
		tag(j, doc->page_tag);
	else
		out_null(j);
	out_key(j, "entries");
	out_begin_list(j);
	for (size_t i = 0; i < doc->n; i++)
		entry(j, &doc->entries[i]);
	out_end_list(j);
	/* A thesaurus's concepts; absent for the other formats, so that
	 * their output does not change. */
	if (doc->nconcepts) {
		out_key(j, "concepts");
		out_begin_list(j);
		for (size_t i = 0; i < doc->nconcepts; i++)
			concept(j, &doc->concepts[i]);
		out_end_list(j);
	}
}

/* JSON is the only format: there is no text renderer. */
static const struct out_type doc_type = { NULL, doc_data };

int cmd_parse(struct ctx *c, int argc, char **argv)
{
	struct rl_import_opts io = {0};
	struct source_options so;
	source_options_init(&so, &io);
	so.opts[0].help = "the game, when the document does not name it";
	so.opts[1].help = "the language (default: detected)";
	const struct opt opts[] = {
		{ .type = OPT_INHERIT, .out = so.opts },
		{ 0 }
	};
	const struct opt_spec spec = {
		.opts = opts, .operands = "FILE", .notes = notes,
	};
	int n, status = opt_parse(c, &spec, argc, argv, &n);
	if (status >= 0)
		return status;
	source_options_apply(&so);
	if (n != 1)
		return usage_error("parse", "give exactly one FILE");
	const char *path = argv[1];
	struct rl_source src;
	struct rl_diags d = {0};
	int rc = rl_source_load(&src, path, &d);
	print_diags(path, &d);
	rl_diags_clear(&d);
	if (rc == RL_ENOMEM)
		error("%s: out of memory", path);
	if (rc)
		return exit_status(rc);
	struct rl_doc doc;
	struct out o;
	out_init(&o, stdout, "standard output", OUT_JSON, false);
	rc = parse_source(&src, &io, true, &doc);
	if (!rc)
		out_document(&o, &doc_type, &(struct parsed){ &src, &doc });
	rl_doc_free(&doc);
	rl_source_free(&src);
	return out_finish(&o, exit_status(rc));
}
