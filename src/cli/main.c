/* main.c — the rulings command: global options, the command table, opening
 * the database as each command needs it. */
#include "cli.h"
#ifdef RL_FAULT_INJECTION
#include "fault.h"
#endif

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef RULINGS_VERSION
#define RULINGS_VERSION "0.1.0"
#endif

static const struct command commands[] = {
	{ "import", cmd_import, DB_WRITE,
	  "import documents: files, or directories walked recursively",
	  "Import documents (files, or directories walked recursively) into the "
	  "database,\none transaction per document.",
	  "import [--game G] [--lang L] [--format F] [--document D] [--dry-run]\n"
	  "               [--bulk[=S]] [--quiet|--verbose] PATH..." },
	{ "parse", cmd_parse, DB_NONE,
	  "print what a document parses into, as JSON (no database)",
	  "Parse one document and print the records it yields as JSON, without\n"
	  "touching the database.",
	  "parse [--game G] [--lang L] [--format F] FILE" },
	{ "search", cmd_search, DB_READ,
	  "find rulings by a query (words, OR, -exclusion, tag:, rule:, ...)",
	  "Find rulings by a query of words, phrases, operators and fields\n"
	  "(BM25-ranked), and by tag, category, kind, language and game.",
	  "search [QUERY...] [--tag T]... [--category C] [--kind K] [--lang L]\n"
	  "               [--game G] [--limit N] [--raw] [--explain]\n"
	  "               [--no-thesaurus] [--include-withdrawn] [--as-of WHEN]\n"
	  "               [--format text|json|ndjson]" },
	{ "show", cmd_show, DB_READ,
	  "show one ruling whole, with its references and back-links",
	  "Show one ruling whole: text, tags, sources, errata details, references\n"
	  "and back-links.",
	  "show ID|RULE [--game G] [--format text|json]" },
	{ "tags", cmd_tags, DB_READ,
	  "list the tags, with counts if asked",
	  "List the tags, optionally with how many rulings carry each, of every\n"
	  "game or of one.",
	  "tags [--counts] [--game G] [--sort name|count] [--format text|json]" },
	{ "stats", cmd_stats, DB_READ,
	  "count rulings, tags, sources, games, languages and kinds",
	  "Count rulings, tags, sources and imports, and the rulings of each game,\n"
	  "language and kind.",
	  "stats [--format text|json]" },
	{ "changed", cmd_changed, DB_READ,
	  "list what changed between versions, and what sources mark changed",
	  "List the changes between versions of the documents (added, edited,\n"
	  "withdrawn) and the rulings their source marks as changed.",
	  "changed [--since WHEN] [--between A B] [--document D]\n"
	  "               [--tag T]... [--category C] [--kind K] [--lang L]\n"
	  "               [--game G] [--no-thesaurus] [--format text|json|ndjson]" },
	{ "history", cmd_history, DB_READ,
	  "every version of one ruling",
	  "Show every version of one ruling: the imports that changed it, when,\n"
	  "from which document, and the text each gave.",
	  "history ID [--format text|json]" },
	{ "xrefs", cmd_xrefs, DB_READ,
	  "list cross-references, or only the dangling ones",
	  "List the cross-references out of rulings (to rules, rulings, terms,\n"
	  "rulebook pages, discussions, web addresses), or only the dangling ones:\n"
	  "references to a rule, a ruling or a term that is not in the database.",
	  "xrefs [--dangling] [--kind K] [--format text|json]" },
	{ "export", cmd_export, DB_READ,
	  "export rulings as FAQ text pages, Markdown, an HTML site, JSON or XML",
	  "Export rulings (one tag's, a search's, or all) as FAQ tag-page text,\n"
	  "Markdown, a static HTML site, JSON, or the XML interchange format.",
	  "export (--tag T | --query WORDS | --all) [--lang L] [--game G]\n"
	  "               --format txt|md|html|json|xml -o PATH [--force]\n"
	  "               [--no-thesaurus]" },
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
	       "       %s COMMAND --help\n\n"
	       "A knowledge base of game rulings: import FAQ pages, rulebooks and\n"
	       "glossaries into one SQLite database, then search them.\n\n"
	       "commands:\n", progname, progname);
	for (size_t i = 0; i < NCOMMANDS; i++)
		printf("  %-9s %s\n", commands[i].name, commands[i].brief);
	printf("\noptions:\n"
	       "  --db FILE      the database (default: $RULINGS_DB, else\n"
	       "                 $XDG_DATA_HOME/rulings/rulings.db, else\n"
	       "                 ~/.local/share/rulings/rulings.db)\n"
	       "  -h, --help     show this help\n"
	       "  -V, --version  show the version\n\n"
	       "formats the importer recognizes:\n");
	for (size_t i = 0; i < rl_importer_count(); i++)
		printf("  %-19s %s\n", rl_importer_name(i), rl_importer_description(i));
	printf("\nexit status: 0 found/done, 1 nothing found, 2 usage error,\n"
	       "65 bad input data, 70 internal error, 74 i/o error, 75 database"
	       " busy\n(locked by another process for RULINGS_BUSY_TIMEOUT ms,"
	       " default %d).\nSee rulings(1).\n", RL_BUSY_TIMEOUT_MS);
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
	int rc = rl_db_open_wait(c->db_path, c->mode == DB_WRITE ? RL_OPEN_WRITE
	                         : RL_OPEN_READ, (int)busy, &c->db);
	if (rc) {
		error("%s", rl_db_errmsg(c->db));
		rl_db_close(c->db);
		c->db = NULL;
		return exit_status(rc);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
#ifdef RL_FAULT_INJECTION
	rl_fault_init();
#endif
	const char *db_opt = NULL;
	int c, status = EXIT_USAGE;
	reset_opts();
	while ((c = next_opt(argc, argv, "+:hV", opts, NULL, &status)) != -1) {
		switch (c) {
		case 'd': db_opt = optarg; break;
		case 'h': help(); return finish_output(0);
		case 'V':
			printf("rulings %s\n", RULINGS_VERSION);
			return finish_output(0);
		default: return status;
		}
	}
	if (optind >= argc)
		return usage_error(NULL, "no command given");
	const struct command *cmd = find_command(argv[optind]);
	if (!cmd)
		return usage_error(NULL, "unknown command '%s'", argv[optind]);
	int cargc = argc - optind;
	char **cargv = argv + optind;
	struct ctx ctx = { .db_opt = db_opt, .mode = cmd->mode };
	const char *nc = getenv("NO_COLOR");
	ctx.color = isatty(STDOUT_FILENO) && !(nc && *nc);
	status = cmd->run(&ctx, cargc, cargv);
	rl_db_close(ctx.db);
	free(ctx.db_path);
	return finish_output(status);
}
