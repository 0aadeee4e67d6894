/* main.c — the rulings command: global options, the command table, opening
 * the database as each command needs it, rulings help. */
#include "cli.h"
#ifdef RL_FAULT_INJECTION
#include "fault.h"
#endif
#include "utf8.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef RULINGS_VERSION
#define RULINGS_VERSION "0.1.0"
#endif
/* meson's b_sanitize ("none" unless a test build's) */
#ifndef RL_SANITIZE
#define RL_SANITIZE "none"
#endif

static int cmd_help(struct ctx *c, int argc, char **argv);

static const struct command commands[] = {
	{ "import", cmd_import, DB_WRITE,
	  "import documents: files, or directories walked recursively",
	  "Import documents (files, or directories walked recursively) into the "
	  "database,\none transaction per document." },
	{ "parse", cmd_parse, DB_NONE,
	  "print what a document parses into, as JSON (no database)",
	  "Parse one document and print the records it yields as JSON, without\n"
	  "touching the database." },
	{ "search", cmd_search, DB_READ,
	  "find rulings by a query (words, OR, -exclusion, tag:, rule:, ...)",
	  "Find rulings by a query of words, phrases, operators and fields\n"
	  "(BM25-ranked), and by tag, category, kind, language and game." },
	{ "show", cmd_show, DB_READ,
	  "show one ruling whole, with its references and back-links",
	  "Show one ruling whole: text, tags, sources, errata details, references\n"
	  "and back-links." },
	{ "tags", cmd_tags, DB_READ,
	  "list the tags, with counts if asked",
	  "List the tags, optionally with how many rulings carry each, of every\n"
	  "game or of one." },
	{ "stats", cmd_stats, DB_READ,
	  "count rulings, tags, sources, games, languages and kinds",
	  "Count rulings, tags, sources and imports, and the rulings of each game,\n"
	  "language and kind." },
	{ "changed", cmd_changed, DB_READ,
	  "list what changed between versions, and what sources mark changed",
	  "List the changes between versions of the documents (added, edited,\n"
	  "withdrawn) and the rulings their source marks as changed." },
	{ "history", cmd_history, DB_READ,
	  "every version of one ruling",
	  "Show every version of one ruling: the imports that changed it, when,\n"
	  "from which document, and the text each gave." },
	{ "documents", cmd_documents, DB_READ,
	  "list the documents and their versions",
	  "List every document (or a game's) and its versions: each one's date\n"
	  "and where it came from, its file, and what it changed." },
	{ "xrefs", cmd_xrefs, DB_READ,
	  "list cross-references, or only the dangling ones",
	  "List the cross-references out of rulings (to rules, rulings, terms,\n"
	  "rulebook pages, discussions, web addresses), or only the dangling ones:\n"
	  "references to a rule, a ruling or a term that is not in the database." },
	{ "export", cmd_export, DB_READ,
	  "export rulings as FAQ text pages, Markdown, an HTML site, JSON or XML",
	  "Export rulings (one tag's, a search's, or all) as FAQ tag-page text,\n"
	  "Markdown, a static HTML site, JSON, or the XML interchange format." },
	{ "check", cmd_check, DB_READ,
	  "check the database: SQLite's checks, the full-text tables, invariants",
	  "Check the database, reading only: SQLite's integrity and foreign key\n"
	  "checks, the full-text tables against the rulings' text, and rulings'\n"
	  "own invariants." },
	{ "reindex", cmd_reindex, DB_WRITE,
	  "rebuild the full-text tables and recompute folds and keys",
	  "Rebuild the full-text tables and compute the stored folds and keys\n"
	  "again, in one transaction." },
	{ "publish", cmd_publish, DB_READ,
	  "write a compacted, self-contained copy to serve read-only",
	  "Write a compacted, self-contained copy of the database (a snapshot),\n"
	  "made to be served read-only from many machines." },
	{ "help", cmd_help, DB_NONE,
	  "show this help, or a command's: rulings help COMMAND",
	  "Show the help of rulings, or of one command (the same as\n"
	  "rulings COMMAND --help)." },
};

enum { NCOMMANDS = sizeof commands / sizeof *commands };

const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static void help(void)
{
	printf("usage: %s [--db FILE] COMMAND [ARGS...]\n"
	       "       %s help [COMMAND]\n\n"
	       "A knowledge base of game rulings: import FAQ pages, rulebooks and\n"
	       "glossaries into one SQLite database, then search them.\n\n"
	       "commands:\n", progname, progname);
	for (size_t i = 0; i < NCOMMANDS; i++)
		printf("  %-9s %s\n", commands[i].name, commands[i].brief);
	printf("\noptions:\n"
	       "  --db FILE      the database, a path or a file: URI (default:\n"
	       "                 $RULINGS_DB, else\n"
	       "                 $XDG_DATA_HOME/rulings/rulings.db, else\n"
	       "                 ~/.local/share/rulings/rulings.db); before or\n"
	       "                 after the command name\n"
	       "  -h, --help     show this help\n"
	       "  -V, --version  show the version\n\n"
	       "formats the importer recognizes:\n");
	for (size_t i = 0; i < rl_importer_count(); i++)
		printf("  %-19s %s\n", rl_importer_name(i), rl_importer_description(i));
	printf("\nexit status: 0 found/done, 1 nothing found, 2 usage error,\n"
	       "65 bad input data, 70 internal error, 74 i/o error, 75 database"
	       " busy\n(locked by another process for RULINGS_BUSY_TIMEOUT ms,"
	       " default %d;\nan import under way waits 12 times that for each"
	       " later lock).\nEvery argument must be valid UTF-8. See rulings(1).\n",
	       RL_BUSY_TIMEOUT_MS);
}

/* $RULINGS_DB, else $XDG_DATA_HOME/rulings/rulings.db, else
 * ~/.local/share/rulings/rulings.db. Returns a new string or NULL. */
static char *default_db(void)
{
	const char *e = getenv("RULINGS_DB");
	if (e && *e)
		return strdup(e);
	const char *base = getenv("XDG_DATA_HOME");
	const char *suffix = "/rulings/rulings.db";
	const char *home = getenv("HOME");
	const char *mid = "";
	if (!base || !*base) {
		if (!home || !*home)
			return NULL;
		base = home;
		mid = "/.local/share";
	}
	size_t n = strlen(base) + strlen(mid) + strlen(suffix) + 1;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s%s%s", base, mid, suffix);
	return p;
}

char *db_path(const struct ctx *c)
{
	return c->db_opt ? strdup(c->db_opt) : default_db();
}

int open_db(struct ctx *c)
{
	if (c->db || c->mode == DB_NONE)
		return 0;
	errno = 0;
	c->db_path = db_path(c);
	if (!c->db_path && errno == ENOMEM) {
		error("out of memory");
		return EXIT_SOFTWARE;
	}
	if (!c->db_path) {
		error("no database: give --db FILE, or set RULINGS_DB, "
		      "XDG_DATA_HOME or HOME");
		return EXIT_USAGE;
	}
	/* RULINGS_BUSY_TIMEOUT: milliseconds to wait for another process's
	 * lock (scripts and tests that would rather fail fast) */
	long busy = RL_BUSY_TIMEOUT_MS;
	const char *env = getenv("RULINGS_BUSY_TIMEOUT");
	if (env && *env && !parse_long(env, 0, 3600000, &busy)) {
		error("RULINGS_BUSY_TIMEOUT must be a number of milliseconds from 0 "
		      "to 3600000, not '%s'", env);
		return EXIT_USAGE;
	}
	int flags = (c->mode == DB_WRITE ? RL_OPEN_WRITE : RL_OPEN_READ) |
	            c->open_flags;
	int rc = rl_db_open_wait(c->db_path, flags, (int)busy, &c->db);
	if (rc) {
		error("%s", library_message(c->db, rc));
		rl_db_close(c->db);
		c->db = NULL;
		return exit_status(rc);
	}
	const struct rl_open_info *info = rl_db_info(c->db);
	if (info->upgraded_from)
		fprintf(stderr, "%s: upgraded the database from schema version %d "
		        "to %d (%lld rulings and %lld tags merged: equal under the "
		        "new folding)\n", progname, info->upgraded_from, info->version,
		        info->merged_rulings, info->merged_tags);
	else if (c->mode == DB_READ && info->version < rl_schema_latest())
		warning("the database has schema version %d, older than this "
		        "rulings' (%d): a command that writes (import, reindex) "
		        "upgrades it", info->version, rl_schema_latest());
	return 0;
}

/* "unknown command 'x'", with the nearest names. */
static int unknown_command(const char *name)
{
	const char *names[NCOMMANDS];
	size_t idx[NCOMMANDS];
	for (size_t i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i].name;
	size_t n = rl_nearest(name, names, NCOMMANDS, idx);
	if (n == 0)
		return usage_error(NULL, "unknown command '%s'", name);
	if (n == 1)
		return usage_error(NULL, "unknown command '%s'; did you mean '%s'?",
		                   name, names[idx[0]]);
	return usage_error(NULL, "unknown command '%s'; did you mean '%s' or "
	                   "'%s'?", name, names[idx[0]], names[idx[1]]);
}

/* Runs cmd with argv (argv[0] its name). */
static int run(struct ctx *c, const struct command *cmd, int argc,
               char **argv)
{
	c->cmd = cmd;
	c->mode = cmd->mode;
	return cmd->run(c, argc, argv);
}

static int cmd_help(struct ctx *c, int argc, char **argv)
{
	const struct opt_spec spec = { .operands = "[COMMAND]" };
	int n, status = opt_parse(c, &spec, argc, argv, &n);
	if (status >= 0)
		return status;
	if (n == 0) {
		help();
		return 0;
	}
	if (n > 1)
		return usage_error("help", "one command at a time");
	const struct command *cmd = find_command(argv[1]);
	if (!cmd)
		return unknown_command(argv[1]);
	char help_opt[] = "--help";
	char *args[] = { argv[1], help_opt, NULL };
	return run(c, cmd, 2, args);
}

static int rulings_main(int argc, char **argv)
{
	/* once, here: nothing further needs to think about broken UTF-8 in
	 * what it is given */
	int status = check_arguments(argc, argv);
	if (status)
		return finish_output(status);
	struct ctx ctx = { .open_flags = RL_OPEN_FILE };
	bool want_help = false, version = false;
	const struct opt opts[] = {
		{ .name = "db", .type = OPT_STRING, .out = &ctx.db_opt, .arg = "FILE" },
		{ .name = "help", .letter = 'h', .type = OPT_FLAG, .out = &want_help },
		{ .name = "version", .letter = 'V', .type = OPT_FLAG, .out = &version },
		{ 0 }
	};
	const struct opt_spec spec = { .opts = opts, .stop_at_operand = true };
	int n;
	status = opt_parse(&ctx, &spec, argc, argv, &n);
	if (status >= 0)
		return finish_output(status);
	if (want_help) {
		help();
		return finish_output(0);
	}
	if (version) {
		printf("rulings %s\n", RULINGS_VERSION);
		/* a test build says so, for the tests (and whoever wonders
		 * why it is slow): its sanitizers, its failure hooks */
		bool sanitized = strcmp(RL_SANITIZE, "none") != 0;
		bool faults = false;
#ifdef RL_FAULT_INJECTION
		faults = true;
#endif
		if (sanitized || faults)
			printf("build:%s%s%s\n", sanitized ? " sanitize=" : "",
			       sanitized ? RL_SANITIZE : "",
			       faults ? " fault-injection" : "");
		return finish_output(0);
	}
	if (n == 0)
		return finish_output(usage_error(NULL, "no command given"));
	const struct command *cmd = find_command(argv[1]);
	if (!cmd)
		return finish_output(unknown_command(argv[1]));
	const char *nc = getenv("NO_COLOR");
	ctx.color = isatty(STDOUT_FILENO) && !(nc && *nc);
	status = run(&ctx, cmd, n, argv + 1);
	rl_db_close(ctx.db);
	free(ctx.db_path);
	return finish_output(status);
}

int main(int argc, char **argv)
{
	/* before SQLite's first use (rl_fault_init and the failure server's
	 * runs install their allocator after it) */
	rl_sqlite_setup();
#ifdef RL_FAULT_INJECTION
	/* tests/faults: one process forks each run of a failure loop */
	const char *server = getenv("RULINGS_FAULT_SERVER");
	if (server && strcmp(server, "1") == 0)
		return rl_fault_serve(rulings_main, argc, argv);
	rl_fault_init();
#endif
	return rulings_main(argc, argv);
}
