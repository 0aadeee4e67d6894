/* cli.h — what the command files share: the context, output helpers and the
 * mapping from library status to exit status. Only the CLI prints. */
#ifndef RL_CLI_H
#define RL_CLI_H

#include "rulings.h"

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

struct ctx {
	const char *db_opt;   /* --db, or NULL */
	enum db_mode mode;    /* how the command opens the database */
	char *db_path;        /* the database path, once opened */
	rl_db *db;            /* opened by open_db() */
	int open_flags;       /* RL_OPEN_* flags added to the mode's
	                         (RL_OPEN_FILE unless a command clears it) */
	bool color;           /* standard output is a terminal, NO_COLOR unset */
};

struct command {
	const char *name;
	int (*run)(struct ctx *c, int argc, char **argv);
	enum db_mode mode;
	const char *brief;    /* one line, for rulings --help */
	const char *summary;  /* for rulings COMMAND --help */
	const char *usage;    /* the synopsis after "rulings " */
};

/* Opens the database as the command's mode says, once its arguments have
 * been checked: 0, or the exit status after an error message. */
int open_db(struct ctx *c);
/* The database's path: --db, $RULINGS_DB, $XDG_DATA_HOME/rulings/rulings.db
 * or ~/.local/share/rulings/rulings.db (a new string; NULL when none). */
char *db_path(const struct ctx *c);

extern const char *progname;

int exit_status(int rl_status);
/* "rulings: message" on standard error. */
void error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "rulings: FILE:LINE[:COL]: LEVEL: message" for each diagnostic. */
void print_diags(const char *file, const struct rl_diags *d);
/* A usage error for a command: message, then "try 'rulings CMD --help'". */
int usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Prints the command's help (synopsis, summary, option lines). */
void command_help(const struct command *cmd, const char *options);
const struct command *find_command(const char *name);

enum out_format { OUT_TEXT, OUT_JSON, OUT_NDJSON };
/* Parses a --format value allowed by mask (1 << OUT_*). */
bool parse_format(const char *s, unsigned mask, enum out_format *out);
bool parse_long(const char *s, long min, long max, long *out);
/* A date or time rl_when_parse() takes (rl_when_forms says which). */
bool valid_when(const char *s);
/* A valid WHEN as a full UTC time to compare with import times: the start
 * of a date or minute (end false) or its last second (end true). A new
 * string, or NULL when memory ran out. */
char *full_when(const char *s, bool end);

/* Runs getopt_long; the option string starts with ':' (commands: options
 * and operands mix, "--" ends options) or "+:" (global options: stop at the
 * command), so unknown options come back as '?' and missing values as ':',
 * reported here with *status set to the exit status. */
int next_opt(int argc, char **argv, const char *shortopts,
             const void *longopts, const char *cmd, int *status);
/* The options of a command that has only --format (text or json) and
 * --help: -1 when the command goes on (optind at its operands), else the
 * exit status to return (0 after the help). */
int format_options(int argc, char **argv, const char *cmd,
                   const char *options_help, enum out_format *fmt);
/* Restarts getopt for a new argument vector. */
void reset_opts(void);

/* The filter options search and changed share (--tag, --category, --kind,
 * --lang, --game, --format). Returns true when opt was one of them, with
 * *status 0, or the usage exit status for a bad value; other options leave
 * *status alone. tags must have room for argc entries. */
#define QUERY_SHORTOPTS "t:c:k:l:g:f:"
#define QUERY_LONGOPTS \
	{ "tag", required_argument, NULL, 't' }, \
	{ "category", required_argument, NULL, 'c' }, \
	{ "kind", required_argument, NULL, 'k' }, \
	{ "lang", required_argument, NULL, 'l' }, \
	{ "game", required_argument, NULL, 'g' }, \
	{ "format", required_argument, NULL, 'f' }, \
	{ "no-thesaurus", no_argument, NULL, 'N' }, \
	{ "include-withdrawn", no_argument, NULL, 'W' }
bool query_option(int opt, const char *arg, const char *cmd, struct rl_query *q,
                  const char **tags, enum out_format *fmt, int *status);

/* --game, --lang and --format for import and parse; true when handled. */
#define SOURCE_LONGOPTS \
	{ "game", required_argument, NULL, 'g' }, \
	{ "lang", required_argument, NULL, 'l' }, \
	{ "format", required_argument, NULL, 'F' }
bool source_option(int opt, const char *arg, const char *cmd,
                   struct rl_import_opts *o, int *status);
/* Parses a loaded source, printing its diagnostics under its name. An
 * unrecognized format is an error when explicit, else a warning. */
int parse_source(const struct rl_source *src, const struct rl_import_opts *o,
                 bool explicit, struct rl_doc *doc);

/* ---- output of rulings (render.c) --------------------------------------- */

struct json;
void render_ruling_text(FILE *f, const struct rl_ruling *r, bool color,
                        bool full);
void render_ruling_json(struct json *j, const struct rl_ruling *r, bool details);
void render_ruling_fields(struct json *j, const struct rl_ruling *r);
void render_errata_json(struct json *j, const struct rl_errata *x);

/* Prints search results: text, one JSON document whose list is under
 * list_key (each object gets "change": "marked" when marked is true), or
 * NDJSON, one object a line. */
void print_results(const struct ctx *c, const struct rl_results *res,
                   enum out_format fmt, const char *list_key, bool marked);
/* The same to f, with no colour. */
void print_results_to(FILE *f, const struct rl_results *res,
                      enum out_format fmt, const char *list_key, bool marked);

/* Opens the database, runs q and prints the results (the "changes" of
 * changed when q->changed_only, else search's "results"): the exit
 * status. */
int run_query(struct ctx *c, const struct rl_query *q, enum out_format fmt,
              const char *cmd);

/* Flushes standard output; a write error is an I/O error (exit 74). */
int finish_output(int status);

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
int cmd_check(struct ctx *c, int argc, char **argv);
int cmd_reindex(struct ctx *c, int argc, char **argv);
int cmd_publish(struct ctx *c, int argc, char **argv);

/* Word-level diff of old and new text to f, continuation lines indented,
 * with a final newline (wdiff.c). */
void print_word_diff(FILE *f, const char *old, const char *new_text,
                     const char *indent, bool color);
/* A run of words of a word diff: kept (mark 0, from the new text), removed
 * (1, from the old) or added (2, from the new), white space after them
 * included (wdiff.c). */
struct wdiff_op {
	int mark;
	const char *s;
	size_t n;
};
/* The word diff as runs, pointing into old and new_text: 0, or -1 when
 * memory ran out. *ops is the caller's to free. */
int word_diff_ops(const char *old, const char *new_text, struct wdiff_op **ops,
                  size_t *nops);
/* s with indent before every line (render.c); snippet markers become
 * colour or nothing. */
void print_indented(FILE *f, const char *s, const char *indent, bool color);

#endif
