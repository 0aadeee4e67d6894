/* cmd_import.c — rulings import PATH...: files and directories into the
 * database, one transaction per document (the library's rl_import_paths());
 * this file reads the options, prints what became of each file, the
 * summary and, on a terminal, the progress line (progress.c). */
#include "cli.h"
#include "progress.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char notes[] =
	"A directory is walked recursively in byte order of file names, each\n"
	"directory once (symbolic links are followed, loops passed over); hidden\n"
	"files are passed over, and binary files and files of no known format\n"
	"are skipped with a warning. A file named on the command line must be of\n"
	"a known format. On a terminal a progress line counts the bytes read.\n"
	"Each document is stored in one transaction: one that fails leaves the\n"
	"database as it was, and the others are still imported. Importing bytes\n"
	"that are already the latest version of their document changes nothing;\n"
	"without --game, --lang, --format or --document, neither do bytes that\n"
	"are the latest version of any document (imported before with such\n"
	"options).\n";

/* How this run of import prints. */
struct ui {
	bool quiet, verbose, dry;
	struct progress *bar;     /* on a terminal, else NULL */
};

/* A bulk load commits its group of documents once it has been open this
 * long: long enough that the commit's cost (writing every page the group
 * touched, once) is spread over many documents, short enough that readers
 * see progress and a kill loses little. */
#define BULK_SECONDS 10.0

/* What became of a file: its diagnostics, how it was read (--verbose),
 * and its line. */
static void print_report(const struct ui *u, const struct rl_file_report *r)
{
	print_diags(r->path, &r->diags);
	if (u->verbose && r->parsed)
		fprintf(stderr, "%s: %s: %s, %zu bytes; %s, %s, \"%s\"; parsed in "
		        "%.1f ms\n", progname, r->path, r->encoding, r->bytes,
		        r->format, r->lang, r->title, r->parse_seconds * 1000);
	if (u->verbose && r->stored)
		fprintf(stderr, "%s: %s: %s in %.1f ms\n", progname, r->path,
		        u->dry ? "checked" : "stored", r->store_seconds * 1000);
	if (r->error)
		error("%s: %s", r->path, r->error);
	else if (r->outcome == RL_FILE_FAILED && !r->diags.errors)
		/* no room was left for the message itself */
		error("%s: %s", r->path, rl_status_name(r->status));
	if (u->quiet)
		return;
	const char *verb = u->dry ? "would import" : "imported";
	const struct rl_import_result *res = &r->result;
	if (r->outcome == RL_FILE_UNCHANGED)
		printf("unchanged %s\n", r->path);
	else if (r->outcome == RL_FILE_IMPORTED && r->concepts)
		printf("%s %s: %zu concepts (%s)\n", verb, r->path, r->concepts,
		       r->format);
	else if (r->outcome == RL_FILE_IMPORTED)
		printf("%s %s: %zu %s, %zu added, %zu edited, %zu withdrawn"
		       " (%s, %s)\n", verb, r->path, res->entries,
		       res->entries == 1 ? "entry" : "entries", res->added,
		       res->edited, res->withdrawn, r->format, r->lang);
}

static void on_progress(void *ctx, const struct rl_import_progress *p)
{
	const struct ui *u = ctx;
	progress_update(u->bar, p);
	if (p->event != RL_IMPORT_FILE && p->event != RL_IMPORT_NOTICE &&
	    (p->event != RL_IMPORT_WALKED || !u->bar || p->files < 2))
		return;
	progress_hold(u->bar);
	if (p->event == RL_IMPORT_WALKED) {
		char size[32];
		size_str(size, sizeof size, p->bytes);
		fprintf(stderr, "found %zu files, %s\n", p->files, size);
	} else if (p->event == RL_IMPORT_FILE) {
		print_report(u, p->report);
	} else if (p->path) {
		struct rl_diags d = { .v = (struct rl_diag *)p->diag, .n = 1 };
		print_diags(p->path, &d);
	} else if (p->diag->severity == RL_ERROR) {
		error("%s", p->diag->message);
	} else {
		warning("%s", p->diag->message);
	}
	progress_release(u->bar);
}

/* --bulk[=S]: groups, committed every S seconds. */
static const char *check_bulk(const struct opt *opt, const char *v,
                              const char *v2)
{
	struct rl_import_run *r = opt->out;
	r->bulk = true;
	r->group_seconds = BULK_SECONDS;
	if (!v)
		return NULL;
	char *end;
	errno = 0;
	r->group_seconds = strtod(v, &end);
	if (errno || end == v || *end || !(r->group_seconds >= 0) ||
	    r->group_seconds > 86400)
		return "the seconds a group stays open, from 0 to 86400";
	return NULL;
}

int cmd_import(struct ctx *c, int argc, char **argv)
{
	struct rl_import_opts o = {0};
	struct rl_import_run r = { .opts = &o, .progress = on_progress };
	struct ui u = {0};
	struct source_options so;
	source_options_init(&so, &o);
	bool no_thesaurus = false;
	const struct opt opts[] = {
		{ .type = OPT_INHERIT, .out = so.opts },
		{ .name = "document", .letter = 'D', .type = OPT_STRING,
		  .out = &o.document, .arg = "D", .flags = OPTF_NONEMPTY,
		  .help = "the document's name: imports under one name are versions "
		  "of one document (default: its title)" },
		{ .name = "dry-run", .letter = 'n', .type = OPT_FLAG,
		  .out = &r.dry_run,
		  .help = "parse and report what would change; write nothing" },
		{ .name = "bulk", .letter = 'b', .type = OPT_CUSTOM, .out = &r,
		  .arg = "S", .flags = OPTF_OPTIONAL, .check = check_bulk,
		  .help = "commit documents in groups, every S seconds (10), each "
		  "still stored whole or not at all: faster for many documents; a "
		  "kill loses the uncommitted group" },
		{ .name = "quiet", .letter = 'q', .type = OPT_FLAG, .out = &u.quiet,
		  .help = "print only warnings and errors" },
		{ .name = "verbose", .letter = 'v', .type = OPT_FLAG,
		  .out = &u.verbose,
		  .help = "also say how each file was read and how long it took" },
		{ .name = "no-thesaurus", .type = OPT_FLAG, .out = &no_thesaurus,
		  .help = "a database this import creates does not start with the "
		  "shipped thesaurus" },
		{ 0 }
	};
	const struct opt_spec spec = {
		.opts = opts, .notes = notes,
		.synopsis = "[--game G] [--lang L] [--format F] [--document D] "
		            "[--dry-run]\n               [--bulk[=S]] "
		            "[--quiet|--verbose] [--no-thesaurus] PATH...",
	};
	int npaths, status = opt_parse(c, &spec, argc, argv, &npaths);
	if (status >= 0)
		return status;
	source_options_apply(&so);
	u.dry = r.dry_run;
	if (!npaths)
		return usage_error("import", "give the files or directories to "
		                   "import");
	if (r.dry_run) {
		/* nothing is written: an existing database is read (and its
		 * transactions rolled back), a missing one stands in empty */
		errno = 0;
		char *path = db_path(c);
		if (!path && errno == ENOMEM) {
			error("out of memory");
			return EXIT_SOFTWARE;
		}
		if (!path || access(path, F_OK) != 0)
			c->db_opt = ":memory:";
		free(path);
		/* nor is the schema of an older database upgraded: its
		 * transactions are rolled back */
		c->open_flags = RL_OPEN_NO_UPGRADE;
	}
	if ((status = open_db(c)))
		return status;
	/* A new database — one nothing has been imported into yet, even by
	 * a run killed early — starts with the thesaurus rulings ships, read
	 * as a document of its own (no --game, --lang, --format or
	 * --document); it counts in the summary. */
	struct rl_file_report th = { .outcome = RL_FILE_SKIPPED };
	int th_rc = RL_OK;
	if (!r.dry_run && !no_thesaurus && rl_db_info(c->db)->fresh) {
		char *path = rl_data_file("thesaurus.txt");
		if (path) {
			th_rc = rl_import_file(c->db, path, NULL, 0, &th);
			print_report(&u, &th);
			free(path);
		} else {
			warning("the shipped thesaurus (thesaurus.txt) was not found: "
			        "the new database has none");
		}
	}
	if (!u.quiet && isatty(STDERR_FILENO))
		u.bar = progress_start();
	r.ctx = &u;
	struct rl_import_summary t;
	int rc = rl_import_paths(c->db, (const char *const *)argv + 1,
	                         (size_t)npaths, &r, &t);
	progress_stop(u.bar);
	if (th.path) {
		t.imported += th.outcome == RL_FILE_IMPORTED;
		t.unchanged += th.outcome == RL_FILE_UNCHANGED;
		t.failed += th.outcome == RL_FILE_FAILED;
		t.added += th.result.added;
		t.edited += th.result.edited;
		t.withdrawn += th.result.withdrawn;
		if (!rc)
			rc = th_rc;
		rl_file_report_clear(&th);
	}
	size_t total = t.imported + t.unchanged + t.failed + t.skipped;
	if (!u.quiet && total > 1)
		printf("%s%zu documents: %zu %s, %zu unchanged, %zu skipped,"
		       " %zu failed; rulings: %zu added, %zu edited, %zu withdrawn\n",
		       r.dry_run ? "dry run: " : "", total, t.imported,
		       r.dry_run ? "would be imported" : "imported", t.unchanged,
		       t.skipped, t.failed, t.added, t.edited, t.withdrawn);
	return exit_status(rc);
}
