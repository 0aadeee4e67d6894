/* opt.h — declarative option tables (after notmuch's): a command lists its
 * options once, with where each value goes and what it means; the table
 * parses the arguments, checks every value, and writes the command's
 * --help, its synopsis and its usage errors ("did you mean ...").
 *
 *   int fmt = OUT_TEXT;
 *   bool counts = false;
 *   const struct opt opts[] = {
 *       { "counts", 'c', OPT_FLAG, &counts, .help = "show how many ..." },
 *       OPT_FORMAT(&fmt, out_text_json),
 *       { 0 }
 *   };
 *   const struct opt_spec spec = { .opts = opts };
 *   int n, st = opt_parse(c, &spec, argc, argv, &n);
 *   if (st >= 0)
 *       return st;                 (0 after --help, 2 after a usage error)
 *   ... the n operands are argv[1..n], in the order given
 *
 * Options and operands mix; "--" ends the options. Long options are
 * --name VALUE or --name=VALUE; short ones -x VALUE or -xVALUE, flags
 * grouped (-cd). Every command also takes -h/--help and --db FILE (so
 * --db works before or after the command name).
 *
 * A command whose operands may begin with '-' (search: "-word" excludes a
 * word) sets dash_operands: then only the exact forms are options (-t T,
 * --tag T, --tag=T), and any other argument that begins with a single '-'
 * is an operand; an unknown --name is still a usage error. */
#ifndef RL_CLI_OPT_H
#define RL_CLI_OPT_H

#include <stdbool.h>
#include <stddef.h>

struct ctx;
struct opt;

enum opt_type {
	OPT_END,         /* ends a table: { 0 } */
	OPT_FLAG,        /* bool *: true */
	OPT_STRING,      /* const char **: the last value given */
	OPT_STRINGS,     /* struct opt_strings *: every value, in order */
	OPT_LONG,        /* long *: a whole number from min to max */
	OPT_KEYWORD,     /* int *: the index of the value in words */
	OPT_WHEN,        /* struct opt_when *: a date or time (rl_when_parse) */
	OPT_CUSTOM,      /* out, checked by check() */
	OPT_INHERIT,     /* the options of another table (out) */
	OPT_HELP,        /* -h, --help: prints the help (built in) */
};

/* OPT_STRINGS: the values of a repeatable option (v points into argv;
 * free v with opt_free). */
struct opt_strings {
	const char **v;
	size_t n;
};

/* A WHEN as the full UTC time to compare import times with
 * (YYYY-MM-DDTHH:MM:SSZ): the start of a day or minute, or with
 * OPT_WHEN_END its last second. s is empty when not given; arg is the
 * value as written (for messages), NULL when not given. */
enum { OPT_WHEN_SIZE = 24 };
struct opt_when {
	char s[OPT_WHEN_SIZE];
	const char *arg;
};

enum {
	OPTF_NONEMPTY = 1,       /* OPT_STRING(S): not "" */
	OPTF_OPTIONAL = 2,       /* the value is optional: only --name=VALUE;
	                            without one, OPT_LONG takes dflt */
	OPTF_WHEN_END = 4,       /* OPT_WHEN: the end of a day or minute */
	OPTF_TWO_VALUES = 8,     /* OPT_CUSTOM: takes this and the next
	                            argument (--between A B) */
	OPTF_LIST = 16,          /* OPT_KEYWORD: --help lists the values */
	OPTF_LOWER = 32,         /* OPT_STRING: ASCII capitals made small, in
	                            place, before the check (--lang EN) */
};

struct opt {
	const char *name;        /* the long name, without "--" */
	char letter;             /* the short form, or 0 */
	enum opt_type type;
	void *out;
	const char *arg;         /* the value's name in --help ("T") */
	const char *help;        /* one paragraph; --help wraps it */
	unsigned flags;
	long min, max, dflt;     /* OPT_LONG */
	/* OPT_KEYWORD: the values, NULL-terminated, or word(i) until NULL;
	 * what names them in messages ("unknown format 'x'"); default the
	 * option's name */
	const char *const *words;
	const char *(*word)(size_t i);
	const char *what;
	/* OPT_STRING(S), OPT_CUSTOM: checks value (value2: the second of
	 * OPTF_TWO_VALUES) and stores it; returns NULL, or what the value
	 * should have been ("a language code such as en") for the message
	 * "--NAME takes THAT, not 'VALUE'". */
	const char *(*check)(const struct opt *o, const char *value,
	                     const char *value2);
};

/* What a command accepts. */
struct opt_spec {
	const struct opt *opts;
	const char *operands;    /* in the synopsis: "[WORDS...]", "ID" */
	const char *synopsis;    /* instead of the generated one */
	const char *notes;       /* the paragraphs after the options */
	bool dash_operands;
	bool no_operands;        /* an operand is "unexpected argument" */
	bool stop_at_operand;    /* global options: stop at the command */
	int (*then)(struct ctx *); /* after the options: open_db, or NULL */
};

/* Parses argv[1..argc) of the command c->cmd: -1 to go on (the *noperands
 * operands moved to argv[1..]; spec->then(c) called and returned 0), else
 * the exit status to return now: 0 after printing the help, 2 after a usage
 * error, 70 out of memory, or what spec->then returned. */
int opt_parse(struct ctx *c, const struct opt_spec *spec, int argc,
              char **argv, int *noperands);
/* "unknown option 'ARG'", and "did you mean '--NAME'?" with the nearest of
 * the n names: the usage error's exit status. */
int opt_unknown(const char *cmd, const char *arg, const char *const *names,
                size_t n);
/* Frees what opt_parse allocated for the table (OPT_STRINGS). */
void opt_free(const struct opt *opts);
/* Prints the command's help: synopsis, summary, options, notes. */
void opt_help(const struct ctx *c, const struct opt_spec *spec);

/* The --format option: words such as out_formats_text_json. */
#define OPT_FORMAT(fmt, formats) \
	{ "format", 'f', OPT_KEYWORD, (fmt), "F", NULL, .words = (formats), \
	  .what = "format" }
extern const char *const out_formats_text_json[];
extern const char *const out_formats_all[];

/* Checks the value of a date or time option, the one place the command
 * line reads dates: true with its full time in *w (the end of a date or
 * minute when end). */
bool opt_parse_when(const char *s, bool end, struct opt_when *w);

#endif
