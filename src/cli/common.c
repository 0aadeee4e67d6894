/* common.c — messages, exit statuses, and the option tables and helpers
 * that several commands share. */
#include "cli.h"
#include "utf8.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

const char *progname = "rulings";

int exit_status(int status)
{
	switch (status) {
	case RL_OK: return EXIT_FOUND;
	case RL_NOTFOUND: return EXIT_NOTHING;
	case RL_EUSAGE: return EXIT_USAGE;
	case RL_EDATA: return EXIT_DATA;
	case RL_EIO: return EXIT_IO;
	case RL_EBUSY: return EXIT_BUSY;
	default: return EXIT_SOFTWARE;
	}
}

/* ---- messages -------------------------------------------------------------- */

/* "rulings: [prefix: ]message\n" on standard error, escaped. */
__attribute__((format(printf, 2, 0)))
static void message(const char *prefix, const char *fmt, va_list ap)
{
	char buf[1024], *p = buf;
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	if (n >= 0 && (size_t)n >= sizeof buf && (p = malloc((size_t)n + 1)))
		vsnprintf(p, (size_t)n + 1, fmt, copy);
	else if (n >= 0 && (size_t)n >= sizeof buf)
		p = buf, n = (int)sizeof buf - 1;    /* out of memory: cut */
	va_end(copy);
	fflush(stdout);
	fprintf(stderr, "%s: ", progname);
	if (prefix)
		fprintf(stderr, "%s: ", prefix);
	if (n > 0)
		out_escape(stderr, p, (size_t)n);
	fputc('\n', stderr);
	if (p != buf)
		free(p);
}

void verror(const char *fmt, va_list ap)
{
	message(NULL, fmt, ap);
}

void error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	message(NULL, fmt, ap);
	va_end(ap);
}

void warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	message("warning", fmt, ap);
	va_end(ap);
}

void print_diags(const char *file, const struct rl_diags *d)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct rl_diag *g = &d->v[i];
		const char *level = g->severity == RL_ERROR ? "error" : "warning";
		if (g->line && g->col)
			error("%s:%u:%u: %s: %s", file, g->line, g->col, level,
			      g->message);
		else if (g->line)
			error("%s:%u: %s: %s", file, g->line, level, g->message);
		else
			error("%s: %s: %s", file, level, g->message);
	}
}

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	message(cmd, fmt, ap);
	va_end(ap);
	fprintf(stderr, "try '%s%s%s --help'\n", progname, cmd ? " " : "",
	        cmd ? cmd : "");
	return EXIT_USAGE;
}

const char *library_message(const rl_db *db, int rc)
{
	if (rc == RL_ENOMEM)
		return "out of memory";
	const char *m = rl_db_errmsg(db);
	return m && *m && strcmp(m, "no error") != 0 ? m : rl_status_name(rc);
}

int library_error(const struct ctx *c, int rc)
{
	error("%s: %s", c->cmd ? c->cmd->name : progname,
	      library_message(c->db, rc));
	return exit_status(rc);
}

int finish_stream(FILE *f, const char *name, int status)
{
	static FILE *failed;      /* said already */
	int e = fflush(f) != 0 ? errno : 0;
	if (!e && !ferror(f))
		return status;
	if (failed != f) {
		failed = f;
		if (e)
			error("write failure on %s: %s", name, strerror(e));
		else
			error("write failure on %s", name);
	}
	return EXIT_IO;
}

int finish_output(int status)
{
	return finish_stream(stdout, "standard output", status);
}

/* ---- values ---------------------------------------------------------------- */

int check_arguments(int argc, char *const *argv)
{
	for (int i = 1; i < argc; i++) {
		size_t n = strlen(argv[i]);
		if (rl_utf8_valid(argv[i], n) != n)
			return usage_error(NULL, "argument %d is not valid UTF-8", i);
	}
	return 0;
}

bool parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

/* A language code (two or three lower-case letters), or "any" when
 * any_ok. */
static bool lang_code(const char *s, bool any_ok)
{
	if (strcmp(s, "any") == 0)
		return any_ok;
	size_t n = strlen(s);
	if (n < 2 || n > 3)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < 'a' || s[i] > 'z')
			return false;
	return true;
}

/* ---- the shared option tables -------------------------------------------- */

const char *check_query_lang(const struct opt *o, const char *v,
                             const char *v2)
{
	return lang_code(v, true) ? NULL
	       : "a language code such as en, fr or ru, or any";
}

static const char *kind_word(size_t i)
{
	return rl_kind_name((enum rl_kind)i);
}

void filter_options_init(struct filter_options *f, struct rl_query *q)
{
	*f = (struct filter_options){ .q = q };
	struct opt *o = f->opts;
	*o++ = (struct opt){
		.name = "tag", .letter = 't', .type = OPT_STRINGS, .out = &f->tags,
		.arg = "T", .help = "only rulings with tag T (case-insensitive; "
		"\"Name\" matches every qualifier, \"Name (Qualifier)\" one); "
		"repeat to require several tags" };
	*o++ = (struct opt){
		.name = "category", .letter = 'c', .type = OPT_STRING,
		.out = &q->category, .arg = "C",
		.help = "only rulings in category C" };
	*o++ = (struct opt){
		.name = "kind", .letter = 'k', .type = OPT_KEYWORD, .out = &f->kind,
		.arg = "K", .help = "only rulings of kind K", .flags = OPTF_LIST,
		.word = kind_word };
	*o++ = (struct opt){
		.name = "lang", .letter = 'l', .type = OPT_STRING, .out = &q->lang,
		.arg = "L", .help = "only rulings in language L (en, fr, ru, ...); "
		"any, the default, searches every language",
		.check = check_query_lang, .flags = OPTF_LOWER };
	*o++ = (struct opt){
		.name = "game", .letter = 'g', .type = OPT_STRING, .out = &q->game,
		.arg = "G", .help = "only rulings of game G" };
	*o++ = (struct opt){
		.name = "no-thesaurus", .type = OPT_FLAG, .out = &q->no_thesaurus,
		.help = "match tags and words only as given, not their thesaurus "
		"equivalents (each concept widens a search within its game)" };
	*o = (struct opt){ 0 };
	f->kind = -1;
}

void filter_options_apply(struct filter_options *f)
{
	f->q->tags = f->tags.v;
	f->q->ntags = f->tags.n;
	if (f->kind >= 0)
		f->q->kind = rl_kind_name((enum rl_kind)f->kind);
}

static const char *check_source_lang(const struct opt *o, const char *v,
                                     const char *v2)
{
	return lang_code(v, false) ? NULL : "a language code such as en, fr or ru";
}

void source_options_init(struct source_options *s, struct rl_import_opts *o)
{
	*s = (struct source_options){ .o = o, .format = -1 };
	s->opts[0] = (struct opt){
		.name = "game", .letter = 'g', .type = OPT_STRING, .out = &o->game,
		.arg = "G", .help = "the game, for documents that do not name one (a game"
		        " held under this name in other case is that game)",
		.flags = OPTF_NONEMPTY };
	s->opts[1] = (struct opt){
		.name = "lang", .letter = 'l', .type = OPT_STRING, .out = &o->lang,
		.arg = "L", .help = "the language (default: detected per document)",
		.check = check_source_lang, .flags = OPTF_LOWER };
	s->opts[2] = (struct opt){
		.name = "format", .letter = 'F', .type = OPT_KEYWORD,
		.out = &s->format, .arg = "F",
		.help = "the document format (default: detected; see 'rulings "
		"--help')", .word = rl_importer_name };
	s->opts[3] = (struct opt){ 0 };
}

void source_options_apply(struct source_options *s)
{
	if (s->format >= 0)
		s->o->format = rl_importer_name((size_t)s->format);
}

int parse_source(const struct rl_source *src, const struct rl_import_opts *o,
                 bool explicit, struct rl_doc *doc)
{
	struct rl_diags d = {0};
	int rc = rl_parse(src, o, doc, &d);
	print_diags(src->name, &d);
	rl_diags_clear(&d);
	if (rc == RL_NOTFOUND) {
		if (explicit) {
			error("%s: error: not a document format rulings recognizes "
			      "(see --format)", src->name);
			return RL_EDATA;
		}
		error("%s: warning: not a document format rulings recognizes; "
		      "skipped", src->name);
	} else if (rc == RL_ENOMEM) {
		error("%s: out of memory", src->name);
	}
	return rc;
}
