/* cmd_parse.c — rulings parse FILE: what an importer makes of a document,
 * as JSON, without a database. The golden tests compare this output. */
#include "cli.h"
#include "json.h"

#include <getopt.h>

static const char options_help[] =
	"  -g, --game G       the game, when the document does not name it\n"
	"  -l, --lang L       the language (default: detected)\n"
	"  -F, --format F     the document format (default: detected)\n"
	"  -h, --help         show this help\n"
	"\nExit status 65 when the document is refused; its diagnostics are\n"
	"printed as for import.\n";

static void tag(struct json *j, const struct rl_tag *t)
{
	json_begin_map(j);
	json_key(j, "name"); json_string(j, t->name);
	json_key(j, "qualifier"); json_string(j, t->qualifier);
	json_end_map(j);
}

static void entry(struct json *j, const struct rl_entry *e)
{
	json_begin_map(j);
	json_key(j, "line"); json_int(j, e->line);
	json_key(j, "kind"); json_string(j, rl_kind_name(e->kind));
	/* only when the entry has its own (an interchange file's) */
	if (e->game || e->lang) {
		json_key(j, "game"); json_string(j, e->game);
		json_key(j, "lang"); json_string(j, e->lang);
	}
	json_key(j, "key"); json_string(j, e->key);
	json_key(j, "title"); json_string(j, e->title);
	json_key(j, "text"); json_string(j, e->text);
	json_key(j, "section"); json_string(j, e->section);
	json_key(j, "category"); json_string(j, e->category);
	json_key(j, "rule"); json_string(j, e->rule);
	json_key(j, "changed"); json_bool(j, e->changed);
	if (e->date || e->author) {
		json_key(j, "date"); json_string(j, e->date);
		json_key(j, "author"); json_string(j, e->author);
	}
	json_key(j, "hidden_tags");
	if (e->hidden_tags >= 0)
		json_int(j, e->hidden_tags);
	else
		json_null(j);
	json_key(j, "tags");
	json_begin_list(j);
	for (size_t i = 0; i < e->ntags; i++)
		tag(j, &e->tags[i]);
	json_end_list(j);
	json_key(j, "refs");
	json_begin_list(j);
	for (size_t i = 0; i < e->nrefs; i++) {
		json_begin_map(j);
		json_key(j, "kind"); json_string(j, rl_ref_kind_name(e->refs[i].kind));
		json_key(j, "target"); json_string(j, e->refs[i].target);
		json_end_map(j);
	}
	json_end_list(j);
	/* only when there are some: the other names references may use */
	if (e->naliases) {
		json_key(j, "aliases");
		json_begin_list(j);
		for (size_t i = 0; i < e->naliases; i++)
			json_string(j, e->aliases[i]);
		json_end_list(j);
	}
	json_key(j, "errata");
	render_errata_json(j, e->errata);
	json_end_map(j);
}

static void concept(struct json *j, const struct rl_concept *c)
{
	json_begin_map(j);
	json_key(j, "line"); json_int(j, c->line);
	json_key(j, "game"); json_string(j, c->game);
	json_key(j, "terms");
	json_begin_list(j);
	for (size_t i = 0; i < c->nterms; i++) {
		json_begin_map(j);
		json_key(j, "term"); json_string(j, c->terms[i].term);
		json_key(j, "lang"); json_string(j, c->terms[i].lang);
		json_end_map(j);
	}
	json_end_list(j);
	json_end_map(j);
}

static void print_doc(const struct rl_source *src, const struct rl_doc *doc)
{
	struct json j;
	json_init(&j, stdout, true);
	json_begin_map(&j);
	json_key(&j, "format_version"); json_int(&j, 1);
	json_key(&j, "sha256"); json_string(&j, src->sha256);
	json_key(&j, "encoding"); json_string(&j, src->encoding);
	json_key(&j, "format"); json_string(&j, doc->format);
	json_key(&j, "title"); json_string(&j, doc->title);
	json_key(&j, "game"); json_string(&j, doc->game);
	json_key(&j, "lang"); json_string(&j, doc->lang);
	json_key(&j, "date"); json_string(&j, doc->date);
	json_key(&j, "page_tag");
	if (doc->page_tag)
		tag(&j, doc->page_tag);
	else
		json_null(&j);
	json_key(&j, "entries");
	json_begin_list(&j);
	for (size_t i = 0; i < doc->n; i++)
		entry(&j, &doc->entries[i]);
	json_end_list(&j);
	/* A thesaurus's concepts; absent for the other formats, so that
	 * their output does not change. */
	if (doc->nconcepts) {
		json_key(&j, "concepts");
		json_begin_list(&j);
		for (size_t i = 0; i < doc->nconcepts; i++)
			concept(&j, &doc->concepts[i]);
		json_end_list(&j);
	}
	json_end_map(&j);
	json_end(&j);
}

int cmd_parse(struct ctx *c, int argc, char **argv)
{
	static const struct option opts[] = {
		SOURCE_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct rl_import_opts o = {0};
	int opt, status = EXIT_USAGE;
	reset_opts();
	while ((opt = next_opt(argc, argv, ":g:l:F:h", opts, "parse", &status)) != -1) {
		if (source_option(opt, optarg, "parse", &o, &status)) {
			if (status)
				return status;
			continue;
		}
		if (opt == 'h') {
			command_help(find_command("parse"), options_help);
			return 0;
		}
		return status;
	}
	if (optind != argc - 1)
		return usage_error("parse", "give exactly one FILE");
	struct rl_source src;
	struct rl_diags d = {0};
	int rc = rl_source_load(&src, argv[optind], &d);
	print_diags(argv[optind], &d);
	rl_diags_clear(&d);
	if (rc == RL_ENOMEM)
		error("%s: out of memory", argv[optind]);
	if (rc)
		return exit_status(rc);
	struct rl_doc doc;
	rc = parse_source(&src, &o, true, &doc);
	if (!rc)
		print_doc(&src, &doc);
	rl_doc_free(&doc);
	rl_source_free(&src);
	return exit_status(rc);
}
