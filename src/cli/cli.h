/* cli.h — what the command files share: the context, the command table,
 * messages and the mapping from library status to exit status. Only the
 * CLI prints; results go through the output layer (out.h), options through
 * option tables (opt.h). */
#ifndef RL_CLI_H
#define RL_CLI_H

#include "rulings.h"
#include "opt.h"
#include "out.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

/* Exit statuses (sysexits.h values where one fits). */
enum {
	EXIT_FOUND = 0,
	EXIT_NOTHING = 1,
	EXIT_USAGE = 2,
	EXIT_DATA = 65,       /* EX_DATAERR */
	EXIT_SOFTWARE = 70,   /* EX_SOFTWARE: out of memory, internal error */
	EXIT_IO = 74,         /* EX_IOERR */
	EXIT_BUSY = 75,       /* EX_TEMPFAIL */
};

enum db_mode { DB_NONE, DB_READ, DB_WRITE };

struct command;

struct ctx {
	const struct command *cmd;   /* the command being run, or NULL */
	const char *db_opt;   /* --db, or NULL */
	enum db_mode mode;    /* how the command opens the database */
	char *db_path;        /* the database path, once opened */
	rl_db *db;            /* opened by open_db() */
	bool color;           /* standard output is a terminal, NO_COLOR unset */
};

struct command {
	const char *name;
	int (*run)(struct ctx *c, int argc, char **argv);
	enum db_mode mode;
	const char *brief;    /* one line, for rulings --help */
	const char *summary;  /* for rulings COMMAND --help */
	/* the synopsis after "rulings " of a command that parses its options
	 * with getopt (next_opt); NULL for those with an option table, whose
	 * synopsis is made from it */
	const char *usage;
};

/* Opens the database as the command's mode says, once its arguments have
 * been checked: 0, or the exit status after an error message. */
int open_db(struct ctx *c);
/* The database's path: --db, $RULINGS_DB, $XDG_DATA_HOME/rulings/rulings.db
 * or ~/.local/share/rulings/rulings.db (a new string; NULL when none). */
char *db_path(const struct ctx *c);
const struct command *find_command(const char *name);

extern const char *progname;

int exit_status(int rl_status);

/* ---- messages (common.c) -------------------------------------------------
 * "rulings: message" on standard error, control characters made visible
 * (out_escape) so that no file name, tag or argument quoted in a message
 * can drive the terminal. */
void error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void verror(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "rulings: FILE:LINE[:COL]: LEVEL: message" for each diagnostic. */
void print_diags(const char *file, const struct rl_diags *d);
/* A usage error for a command: message, then "try 'rulings CMD --help'";
 * returns EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* What went wrong in a library call that returned rc: the database's
 * message, or what rc says. */
const char *library_message(const rl_db *db, int rc);
/* "rulings: CMD: library message" after a failed library call, and the
 * exit status of rc. */
int library_error(const struct ctx *c, int rc);

/* Flushes f; a write error is "write failure on NAME" and exit 74 (said
 * once per stream). */
int finish_stream(FILE *f, const char *name, int status);
/* The same for standard output, before exit. */
int finish_output(int status);

/* 0 when every argument after argv[0] is valid UTF-8, else "argument N is
 * not valid UTF-8" and EXIT_USAGE. */
int check_arguments(int argc, char *const *argv);
bool parse_long(const char *s, long min, long max, long *out);
/* A date (YYYY-MM-DD) or a UTC time (YYYY-MM-DDTHH:MM[:SS]Z), the forms
 * imports are stamped with (opt_parse_when is the option helper). */
bool valid_when(const char *s);

/* ---- shared option tables (common.c) ------------------------------------ */

/* The filters search and changed share: --tag (repeatable), --category,
 * --kind, --lang, --game, --no-thesaurus; fill q with filter_options_apply
 * after parsing. */
struct filter_options {
	struct rl_query *q;
	struct opt_strings tags;
	int kind;
	struct opt opts[7];
};
void filter_options_init(struct filter_options *f, struct rl_query *q);
void filter_options_apply(struct filter_options *f);

/* --game, --lang and --format for import and parse. */
struct source_options {
	struct rl_import_opts *o;
	int format;           /* index into the importers, or -1 */
	struct opt opts[4];
};
void source_options_init(struct source_options *s, struct rl_import_opts *o);
void source_options_apply(struct source_options *s);

/* Parses a loaded source, printing its diagnostics under its name. An
 * unrecognized format is an error when explicit, else a warning. */
int parse_source(const struct rl_source *src, const struct rl_import_opts *o,
                 bool explicit, struct rl_doc *doc);

/* ---- the getopt helpers of the commands without an option table yet
 * (import, export: moving into the library on another branch) ---------- */

/* Runs getopt_long; the option string starts with ':' (commands: options
 * and operands mix, "--" ends options), so unknown options come back as
 * '?' and missing values as ':', reported here with *status set to the exit
 * status. --db FILE is taken here, wherever it is. */
int next_opt(int argc, char **argv, const char *shortopts,
             const void *longopts, const char *cmd, int *status);
/* Where next_opt puts a --db value (main points it at the context's). */
extern const char **next_opt_db;
/* Restarts getopt for a new argument vector. */
void reset_opts(void);
/* Prints the help of a command without an option table. */
void command_help(const struct command *cmd, const char *options);
/* --lang and --game for export (opt 'l' or 'g'): true when handled, with
 * *status 0 or a usage error's. */
bool query_option(int opt, const char *arg, const char *cmd, struct rl_query *q,
                  const char **tags, enum out_format *fmt, int *status);
#define SOURCE_LONGOPTS \
	{ "game", required_argument, NULL, 'g' }, \
	{ "lang", required_argument, NULL, 'l' }, \
	{ "format", required_argument, NULL, 'F' }
bool source_option(int opt, const char *arg, const char *cmd,
                   struct rl_import_opts *o, int *status);

/* ---- rulings on the output layer (render.c) ----------------------------- */

/* A ruling as search lists it (text: title, line, snippet or first
 * paragraph, tags; data: every member, snippet and score). */
extern const struct out_type ruling_brief;
/* A ruling whole, as show prints it (with sources, errata, refs and
 * back-links). */
extern const struct out_type ruling_full;
/* The members every ruling object has (search results, show). */
void render_ruling_fields(struct out *o, const struct rl_ruling *r);
void render_errata(struct out *o, const struct rl_errata *x);
/* text with indent before every line; snippet markers become the match
 * colour or nothing. */
void render_indented(struct out *o, const char *text, const char *indent);

/* Search results as search --format json writes them, to f (export):
 * 0, or the rl_status of what went wrong (said already). */
int print_results_to(FILE *f, const struct rl_results *res);

/* ---- word diffs (wdiff.c) ----------------------------------------------- */

/* A run of words of a word diff: kept (mark 0, from the new text), removed
 * (1, from the old) or added (2, from the new), white space after them
 * included. */
struct wdiff_op {
	int mark;
	const char *s;
	size_t n;
};
/* The word diff as runs, pointing into old and new_text: 0, or -1 when
 * memory ran out. *ops is the caller's to free. Texts too long for the
 * comparison give the old text removed and the new added, whole. */
int word_diff_ops(const char *old, const char *new_text, struct wdiff_op **ops,
                  size_t *nops);
/* The word diff for people: removed words [-like this-], added {+like
 * this+} (git's word-diff style), or in red and green with colour;
 * continuation lines indented; a final line break. */
void render_word_diff(struct out *o, const char *old, const char *new_text,
                      const char *indent);

/* ---- commands ---------------------------------------------------------- */

int cmd_import(struct ctx *c, int argc, char **argv);
int cmd_parse(struct ctx *c, int argc, char **argv);
int cmd_search(struct ctx *c, int argc, char **argv);
int cmd_show(struct ctx *c, int argc, char **argv);
int cmd_tags(struct ctx *c, int argc, char **argv);
int cmd_stats(struct ctx *c, int argc, char **argv);
int cmd_changed(struct ctx *c, int argc, char **argv);
int cmd_xrefs(struct ctx *c, int argc, char **argv);
int cmd_history(struct ctx *c, int argc, char **argv);
int cmd_export(struct ctx *c, int argc, char **argv);

#endif
