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
/* The check of a query's --lang (search, changed, export): a language code
 * or "any". */
const char *check_query_lang(const struct opt *o, const char *v,
                             const char *v2);
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

/* Search results as search writes them (export's json too): the total
 * and the records. */
void render_results(struct out *o, const struct rl_results *res);

/* ---- word diffs (wdiff.c) ----------------------------------------------- */

/* The word diff for people (the library's rl_word_diff()): removed words
 * [-like this-], added {+like this+} (git's word-diff style), or in red and
 * green with colour; continuation lines indented; a final line break. */
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
int cmd_documents(struct ctx *c, int argc, char **argv);
int cmd_export(struct ctx *c, int argc, char **argv);
int cmd_check(struct ctx *c, int argc, char **argv);
int cmd_reindex(struct ctx *c, int argc, char **argv);
int cmd_publish(struct ctx *c, int argc, char **argv);

#endif
