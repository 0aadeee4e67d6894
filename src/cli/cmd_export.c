/* cmd_export.c — rulings export: rulings by tag, by search or all of them,
 * as FAQ text pages, Markdown, a static HTML site, JSON or the XML
 * interchange format.
 *
 * The library plans and writes the export (rl_export()); this file reads
 * the options, brings the one format that is the command line's own (json:
 * the records `search --format json` prints, through the same writer) and
 * reports. */
#define _GNU_SOURCE     /* fopencookie */
#include "cli.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char notes[] =
	"The rulings are those search selects for the same --tag, --query,\n"
	"--lang and --game (with the thesaurus, each concept within its game).\n"
	"Page files are named\n"
	"after their tag: an ASCII slug, '-', 12 hex digits of the tag's SHA-256.\n"
	"A directory is written only when it is new, empty or a previous export\n"
	"(it holds .rulings-export); its files are replaced atomically and the\n"
	"pages of tags that are gone removed. A symbolic link is followed (the\n"
	"file it names is replaced); a FIFO or a device is written in place.\n"
	"An html page is in the language of most of its rulings, its headings,\n"
	"labels, counts and language names too (English, French or Russian;\n"
	"else English). An html site also has changes.html (the changes, newest\n"
	"first) and Atom feeds of them for the site (changes.atom), each game\n"
	"and each tag (beside its page: TAG-HASH.atom), announced on the pages,\n"
	"each in its page's language.\n"
	"Exit status 1 when nothing matches.\n";

/* ---- json: the records search gives -------------------------------------- */

static ssize_t cookie_write(void *cookie, const char *buf, size_t n)
{
	const struct rl_sink *s = cookie;
	int err = s->write(s->ctx, buf, n);
	if (err) {
		errno = err;
		return -1;
	}
	return (ssize_t)n;
}

static int render_json(struct rl_export *x, const struct rl_sink *out)
{
	FILE *f = fopencookie((void *)out, "w",
	                      (cookie_io_functions_t){ .write = cookie_write });
	if (!f)
		return rl_export_fail(x, RL_ENOMEM, "out of memory");
	struct out o;
	out_init(&o, f, "the output", OUT_JSON, false);
	render_results(&o, rl_export_results(x));
	/* a write error is the sink's: the library says what failed */
	if (fclose(f) != 0 && !o.status)
		return rl_export_fail(x, RL_EIO, "%s", strerror(errno));
	/* the records fail only when memory runs out */
	return o.status ? rl_export_fail(x, o.status, "out of memory") : RL_OK;
}

static const struct rl_export_format json_format = {
	.name = "json", .ext = ".json", .records = true,
	.render_all = render_json,
};

static int write_stdout(void *ctx, const void *data, size_t n)
{
	(void)ctx;
	return fwrite(data, 1, n, stdout) == n ? 0 : errno ? errno : EIO;
}

/* ---- the command --------------------------------------------------------- */

/* Splits --query WORDS at blanks into words, as the shell would have. */
static char **split_words(const char *s, size_t *n)
{
	char **v = NULL;
	size_t cap = 0;
	*n = 0;
	while (*s) {
		size_t k;
		while ((k = rl_blank_len(s)) != 0 || *s == '\n')
			s += k ? k : 1;
		if (!*s)
			break;
		const char *w = s;
		while (*s && *s != '\n' && !rl_blank_len(s))
			s++;
		char *word = rl_strndup(w, (size_t)(s - w));
		if (!word || !rl_grow(&v, &cap, *n + 1, sizeof *v)) {
			free(word);
			rl_strings_free(v, *n);
			*n = (size_t)-1;
			return NULL;
		}
		v[(*n)++] = word;
	}
	return v;
}

/* After a txt export: what the importer will make of the pages. */
static void txt_warnings(const struct rl_export_report *rep)
{
	if (rep->untagged)
		warning("%zu ruling%s with no tag %s on no tag page", rep->untagged,
		        rep->untagged == 1 ? "" : "s",
		        rep->untagged == 1 ? "is" : "are");
}

int cmd_export(struct ctx *c, int argc, char **argv)
{
	static const char *const formats[] = {
		"txt", "md", "html", "json", "xml", NULL
	};
	struct rl_sink out = { write_stdout, NULL };
	struct rl_export_opts o = { .standard_output = &out };
	struct opt_strings tags = {0}, queries = {0};
	bool all = false;
	int fmt = -1;
	const struct opt opts[] = {
		{ .name = "tag", .letter = 't', .type = OPT_STRINGS, .out = &tags,
		  .arg = "T", .flags = OPTF_NONEMPTY,
		  .help = "the rulings with tag T: one page (\"Name\" matches every "
		  "qualifier, \"Name (Qualifier)\" one; for txt, whose page gives "
		  "its tag to every entry, T itself)" },
		{ .name = "query", .letter = 'q', .type = OPT_STRINGS,
		  .out = &queries, .arg = "WORDS",
		  .help = "the rulings a search for WORDS finds" },
		{ .name = "all", .letter = 'a', .type = OPT_FLAG, .out = &all,
		  .help = "every ruling" },
		{ .name = "lang", .letter = 'l', .type = OPT_STRING, .out = &o.lang,
		  .arg = "L", .check = check_query_lang, .flags = OPTF_LOWER,
		  .help = "only rulings in language L (en, fr, ru, ...)" },
		{ .name = "game", .letter = 'g', .type = OPT_STRING, .out = &o.game,
		  .arg = "G", .help = "only rulings of game G" },
		{ .name = "format", .letter = 'f', .type = OPT_KEYWORD, .out = &fmt,
		  .arg = "F", .words = formats, .what = "format",
		  .help = "txt (FAQ tag-page text, with \"Game:\" and \"Language:\" "
		  "lines: import reads it back), md (Markdown), html, json, xml "
		  "(the interchange format, schema/rulings.rng)" },
		{ .name = "output", .letter = 'o', .type = OPT_STRING,
		  .out = &o.output, .arg = "PATH",
		  .help = "where to write: a file (\"-\": standard output) for --tag "
		  "and for json and xml; a directory, one page per tag, for txt, md "
		  "and html with --all or --query (md and html: an index, a page per "
		  "game, each rulebook a book, its contents, rules and glossary "
		  "letters)" },
		{ .name = "force", .type = OPT_FLAG, .out = &o.force,
		  .help = "write into a non-empty directory that is not a previous "
		  "export" },
		{ .name = "no-thesaurus", .type = OPT_FLAG, .out = &o.no_thesaurus,
		  .help = "select tags and words only as given, not their thesaurus "
		  "equivalents" },
		{ 0 }
	};
	const struct opt_spec spec = {
		.opts = opts, .notes = notes,
		.synopsis = "(--tag T | --query WORDS | --all) [--lang L] [--game G]\n"
		            "               --format txt|md|html|json|xml -o PATH "
		            "[--force]\n"
		            "               [--no-thesaurus]",
	};
	int n, status = opt_parse(c, &spec, argc, argv, &n);
	const char *query = queries.n ? queries.v[0] : NULL;
	o.tag = tags.n ? tags.v[0] : NULL;
	size_t selections = tags.n + queries.n + all;
	opt_free(opts);
	if (status >= 0)
		return status;
	if (n > 0)
		return usage_error("export", "unexpected argument '%s' (words to "
		                   "search for go in --query)", argv[1]);
	if (selections != 1)
		return usage_error("export", "give one of --tag T, --query WORDS "
		                   "or --all");
	if (fmt < 0)
		return usage_error("export", "give --format (txt, md, html, json, "
		                   "xml)");
	o.format = strcmp(formats[fmt], json_format.name) == 0 ? &json_format
	         : rl_export_format_find(formats[fmt]);
	if (!o.output || !*o.output)
		return usage_error("export", "give -o PATH (a file, - for standard "
		                   "output, or a directory)");
	if (o.format->render_page && !o.tag && strcmp(o.output, "-") == 0)
		return usage_error("export", "--all and --query with --format %s "
		                   "write a directory, not standard output",
		                   o.format->name);
	char **words = NULL;
	size_t nwords = 0;
	if (query) {
		words = split_words(query, &nwords);
		if (nwords == (size_t)-1) {
			error("out of memory");
			return EXIT_SOFTWARE;
		}
		if (!nwords) {
			free(words);
			return usage_error("export", "--query needs words");
		}
		o.words = (const char *const *)words;
		o.nwords = nwords;
	}
	if ((status = open_db(c)) == 0) {
		struct rl_export_report rep;
		int rc = rl_export(c->db, &o, &rep);
		if (rc == RL_EUSAGE)
			status = usage_error("export", "%s", rl_db_errmsg(c->db));
		else if (rc)
			error("export: %s", rl_db_errmsg(c->db));
		else if (o.format->exact_tag)
			txt_warnings(&rep);
		if (rc != RL_EUSAGE)
			status = exit_status(rc);
	}
	rl_strings_free(words, nwords);
	return status;
}
