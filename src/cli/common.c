/* common.c — messages, exit statuses and option helpers for the commands. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
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

static void vmessage(const char *level, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", progname);
	if (level)
		fprintf(stderr, "%s: ", level);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(NULL, fmt, ap);
	va_end(ap);
}

void warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage("warning", fmt, ap);
	va_end(ap);
}

void print_diags(const char *file, const struct rl_diags *d)
{
	fflush(stdout);
	for (size_t i = 0; i < d->n; i++) {
		const struct rl_diag *g = &d->v[i];
		fprintf(stderr, "%s: %s", progname, file);
		if (g->line)
			fprintf(stderr, ":%u", g->line);
		if (g->line && g->col)
			fprintf(stderr, ":%u", g->col);
		fprintf(stderr, ": %s: %s\n",
		        g->severity == RL_ERROR ? "error" : "warning", g->message);
	}
}

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fflush(stdout);
	fprintf(stderr, "%s: ", progname);
	if (cmd)
		fprintf(stderr, "%s: ", cmd);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	fprintf(stderr, "try '%s%s%s --help'\n", progname, cmd ? " " : "",
	        cmd ? cmd : "");
	return EXIT_USAGE;
}

void command_help(const struct command *cmd, const char *options)
{
	printf("usage: %s %s%s\n\n%s\n", progname,
	       cmd->mode == DB_NONE ? "" : "[--db FILE] ", cmd->usage, cmd->summary);
	if (options && *options)
		printf("\noptions:\n%s", options);
}

bool parse_format(const char *s, unsigned mask, enum out_format *out)
{
	static const char *const names[] = { "text", "json", "ndjson" };
	for (unsigned i = 0; i < 3; i++)
		if ((mask & (1u << i)) && strcmp(s, names[i]) == 0) {
			*out = (enum out_format)i;
			return true;
		}
	return false;
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

void reset_opts(void)
{
	optind = 0;   /* glibc: 0 reinitializes getopt completely */
}

int next_opt(int argc, char **argv, const char *shortopts,
             const void *longopts, const char *cmd, int *status)
{
	opterr = 0;
	int c = getopt_long(argc, argv, shortopts, longopts, NULL);
	if (c == '?') {
		if (optopt)
			*status = usage_error(cmd, "unknown option '-%c'", optopt);
		else
			*status = usage_error(cmd, "unknown option '%s'",
			                      argv[optind - 1]);
	} else if (c == ':') {
		*status = usage_error(cmd, "option '%s' needs a value",
		                      argv[optind - 1]);
	}
	return c;
}

int finish_output(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: write failure on standard output: %s\n",
		        progname, strerror(errno));
		return EXIT_IO;
	}
	return status;
}

bool query_option(int opt, const char *arg, const char *cmd, struct rl_query *q,
                  const char **tags, enum out_format *fmt, int *status)
{
	enum rl_kind kind;
	switch (opt) {
	case 't':
		*status = 0;
		tags[q->ntags++] = arg;
		q->tags = tags;
		return true;
	case 'c': *status = 0; q->category = arg; return true;
	case 'N': *status = 0; q->no_thesaurus = true; return true;
	case 'W': *status = 0; q->include_withdrawn = true; return true;
	case 'l': {
		*status = 0;
		size_t n = strlen(arg);
		bool ok = strcmp(arg, "any") == 0 || (n >= 2 && n <= 3);
		for (size_t i = 0; ok && strcmp(arg, "any") && i < n; i++)
			ok = arg[i] >= 'a' && arg[i] <= 'z';
		if (!ok)
			*status = usage_error(cmd, "--lang takes a language code such "
			                      "as en, fr or ru, or any, not '%s'", arg);
		q->lang = arg;
		return true;
	}
	case 'g': *status = 0; q->game = arg; return true;
	case 'k':
		*status = 0;
		if (rl_kind_parse(arg, &kind))
			*status = usage_error(cmd, "unknown kind '%s' (faq, errata, "
			                      "rule, glossary)", arg);
		q->kind = arg;
		return true;
	case 'f':
		*status = 0;
		if (!parse_format(arg, 7, fmt))
			*status = usage_error(cmd, "unknown format '%s' (text, json, "
			                      "ndjson)", arg);
		return true;
	default:
		return false;
	}
}

bool source_option(int opt, const char *arg, const char *cmd,
                   struct rl_import_opts *o, int *status)
{
	switch (opt) {
	case 'g':
		*status = 0;
		if (!*arg)
			*status = usage_error(cmd, "--game needs a name");
		o->game = arg;
		return true;
	case 'l': {
		*status = 0;
		size_t n = strlen(arg);
		bool ok = n >= 2 && n <= 3 && strcmp(arg, "any") != 0;
		for (size_t i = 0; i < n; i++)
			ok = ok && arg[i] >= 'a' && arg[i] <= 'z';
		if (!ok)
			*status = usage_error(cmd, "--lang takes a language code such"
			                      " as en, fr or ru, not '%s'", arg);
		o->lang = arg;
		return true;
	}
	case 'F':
		*status = 0;
		for (size_t i = 0; i < rl_importer_count(); i++)
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

int parse_source(const struct rl_source *src, const struct rl_import_opts *o,
                 bool explicit, struct rl_doc *doc)
{
	struct rl_diags d = {0};
	int rc = rl_parse(src, o, doc, &d);
	print_diags(src->name, &d);
	rl_diags_clear(&d);
	if (rc == RL_NOTFOUND) {
		if (explicit) {
			fprintf(stderr, "%s: %s: error: not a document format rulings "
			        "recognizes (see --format)\n", progname, src->name);
			return RL_EDATA;
		}
		fprintf(stderr, "%s: %s: warning: not a document format rulings "
		        "recognizes; skipped\n", progname, src->name);
	} else if (rc == RL_ENOMEM) {
		error("%s: out of memory", src->name);
	}
	return rc;
}

bool valid_when(const char *s)
{
	char t[RL_WHEN_SIZE];
	return rl_when_parse(s, false, t) == RL_OK;
}

char *full_when(const char *s, bool end)
{
	char t[RL_WHEN_SIZE];
	if (rl_when_parse(s, end, t) != RL_OK)
		return NULL;
	return strdup(t);
}

int format_options(int argc, char **argv, const char *cmd,
                   const char *options_help, enum out_format *fmt)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int opt, status = EXIT_USAGE;
	reset_opts();
	while ((opt = next_opt(argc, argv, ":f:h", opts, cmd, &status)) != -1) {
		switch (opt) {
		case 'f':
			if (!parse_format(optarg, 3, fmt))
				return usage_error(cmd, "unknown format '%s' (text, json)",
				                   optarg);
			break;
		case 'h':
			command_help(find_command(cmd), options_help);
			return 0;
		default:
			return status;
		}
	}
	return -1;
}
