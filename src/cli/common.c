/* common.c — messages, exit statuses, and the option tables and helpers
 * that several commands share. */
#include "cli.h"
#include "utf8.h"

#include <errno.h>
#include <getopt.h>
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

bool valid_when(const char *s)
{
	/* "2026-01-16", "2026-01-16T10:00Z", "2026-01-16T10:00:00Z" */
	static const char *const forms[] = {
		"dddd-dd-dd", "dddd-dd-ddTdd:ddZ", "dddd-dd-ddTdd:dd:ddZ", NULL
	};
	for (const char *const *f = forms; *f; f++) {
		size_t n = strlen(*f);
		if (strlen(s) != n)
			continue;
		bool ok = true;
		for (size_t i = 0; i < n && ok; i++)
			ok = (*f)[i] == 'd' ? s[i] >= '0' && s[i] <= '9' : s[i] == (*f)[i];
		if (ok)
			return true;
	}
	return false;
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

static const char *check_query_lang(const struct opt *o, const char *v,
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
		.check = check_query_lang };
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
		.arg = "G", .help = "the game, for documents that do not name one",
		.flags = OPTF_NONEMPTY };
	s->opts[1] = (struct opt){
		.name = "lang", .letter = 'l', .type = OPT_STRING, .out = &o->lang,
		.arg = "L", .help = "the language (default: detected per document)",
		.check = check_source_lang };
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

/* ---- getopt, for the commands without an option table yet --------------- */

/* Where next_opt puts --db (main sets it). */
const char **next_opt_db;

void reset_opts(void)
{
	optind = 0;   /* glibc: 0 reinitializes getopt completely */
}

enum { OPT_GLOBAL_DB = 0x7ffe };

/* longopts with --db added (built once per table). */
static const struct option *with_db(const struct option *longopts)
{
	static struct option merged[64];
	static const struct option *merged_for;
	if (merged_for == longopts)
		return merged;
	size_t n = 0;
	while (longopts[n].name && n + 2 < sizeof merged / sizeof *merged) {
		merged[n] = longopts[n];
		n++;
	}
	merged[n++] = (struct option){ "db", required_argument, NULL,
	                               OPT_GLOBAL_DB };
	merged[n] = (struct option){ 0 };
	merged_for = longopts;
	return merged;
}

int next_opt(int argc, char **argv, const char *shortopts,
             const void *longopts, const char *cmd, int *status)
{
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, shortopts, with_db(longopts),
	                        NULL)) == OPT_GLOBAL_DB)
		if (next_opt_db)
			*next_opt_db = optarg;
	if (c == '?') {
		const struct option *o = with_db(longopts);
		const char *names[64];
		size_t n = 0;
		while (o[n].name && n < sizeof names / sizeof *names) {
			names[n] = o[n].name;
			n++;
		}
		if (optopt)
			*status = usage_error(cmd, "unknown option '-%c'", optopt);
		else
			*status = opt_unknown(cmd, argv[optind - 1], names, n);
	} else if (c == ':') {
		*status = usage_error(cmd, "option '%s' needs a value",
		                      argv[optind - 1]);
	}
	return c;
}

void command_help(const struct command *cmd, const char *options)
{
	printf("usage: %s %s%s\n\n%s\n", progname,
	       cmd->mode == DB_NONE ? "" : "[--db FILE] ", cmd->usage, cmd->summary);
	if (options && *options)
		printf("\noptions:\n%s", options);
}

bool query_option(int opt, const char *arg, const char *cmd, struct rl_query *q,
                  const char **tags, enum out_format *fmt, int *status)
{
	if (opt != 'g' && opt != 'l')
		return false;
	*status = 0;
	if (opt == 'g') {
		q->game = arg;
		return true;
	}
	if (!lang_code(arg, true))
		*status = usage_error(cmd, "--lang takes a language code such as "
		                      "en, fr or ru, or any, not '%s'", arg);
	q->lang = arg;
	return true;
}

bool source_option(int opt, const char *arg, const char *cmd,
                   struct rl_import_opts *o, int *status)
{
	if (opt != 'g' && opt != 'l' && opt != 'F')
		return false;
	*status = 0;
	switch (opt) {
	case 'g':
		if (!*arg)
			*status = usage_error(cmd, "--game needs a name");
		o->game = arg;
		return true;
	case 'l':
		if (!lang_code(arg, false))
			*status = usage_error(cmd, "--lang takes a language code such"
			                      " as en, fr or ru, not '%s'", arg);
		o->lang = arg;
		return true;
	case 'F':
		for (size_t i = 0; rl_importer_name(i); i++)
			if (strcmp(arg, rl_importer_name(i)) == 0) {
				o->format = arg;
				return true;
			}
		*status = usage_error(cmd, "unknown format '%s' (see 'rulings "
		                      "--help')", arg);
		return true;
	default:
		return false;
	}
}
