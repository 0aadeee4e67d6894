/* cmd_import.c — rulings import PATH...: files and directories into the
 * database, one transaction per document (the library's rl_import_paths());
 * this file reads the options, prints what became of each file, the
 * summary and, on a terminal, the progress line (progress.c). */
#include "cli.h"
#include "progress.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char notes[] =
	"A directory is walked recursively in byte order of file names, each\n"
	"directory once (symbolic links are followed, loops passed over); hidden\n"
	"files are passed over, and binary files and files of no known format\n"
	"are skipped with a warning. A file named on the command line must be of\n"
	"a known format. When no path given exists, no database is created; a\n"
	"directory with no file to import is a warning. On a terminal a progress\n"
	"line counts the bytes read.\n"
	"Each document is stored in one transaction: one that fails leaves the\n"
	"database as it was, and the others are still imported. Importing bytes\n"
	"that are already the latest version of their document changes nothing;\n"
	"without --game, --lang, --format or --document, neither do bytes that\n"
	"are the latest version of any document (imported before with such\n"
	"options). A thesaurus's older version imported again is in force again.\n"
	"A document whose text ends inside an entry, a rule or a section (a file\n"
	"cut short) is refused, and so is a new version of a document that would\n"
	"withdraw more of its rulings than allowed: nothing of it is stored, the\n"
	"import goes on with the next file, and the exit status is 65. An answer\n"
	"that is now only the beginning of its earlier text is a warning.\n"
	"Every ruling belongs to a game. A document that does not name its game\n"
	"takes it from --game, else from a .rulings manifest (\"game = NAME\",\n"
	"\"lang = L\", \"date = DATE\", \"[PATTERN]\" sections) in its directory or\n"
	"one above it, up to the directory named; without either it is refused\n"
	"(exit status 65, also with --dry-run). A document that names its game\n"
	"(an FAQ tag page: a \"Game: NAME\" line before its tag, as export\n"
	"--format txt writes with \"Language: L\") keeps it (a warning when\n"
	"another is given). A version's date is the one its document states\n"
	"(the rulebook's \"effective as of\", the newest dated ruling), else\n"
	"--date or a manifest's (a warning when the document's wins, and when\n"
	"it is after today), else the import time. Versions are ordered by\n"
	"their days, those of one day by import: an older release imported\n"
	"after a newer one goes into its place in the history (changes between\n"
	"date neighbours); the current texts stay the newest version's.\n"
	"See DIRECTORY MANIFESTS in rulings(1).\n";

/* How this run of import prints. */
struct ui {
	bool quiet, verbose, dry;
	bool shipped;             /* the report is the shipped thesaurus's */
	const struct rl_import_opts *opts;
	struct progress *bar;     /* on a terminal, else NULL */
	/* the documents refused, one line each, for the summary; oom when a
	 * line could not be kept */
	char **refused;
	size_t nrefused, cap;
	bool oom;
};

/* What goes over the withdraw limit, in words: "more than half" (of a
 * document's rulings; the default limit only counts from 5). */
static void limit_str(char *buf, size_t size, const struct rl_import_opts *o)
{
	switch (o->limit) {
	case RL_WITHDRAW_COUNT:
		snprintf(buf, size, "more than %lu", o->max_withdraw);
		break;
	case RL_WITHDRAW_PERCENT:
		snprintf(buf, size, "more than %lu%%", o->max_withdraw);
		break;
	default:
		snprintf(buf, size, "more than half");
		break;
	}
}

/* Why a document is (or would be) refused, in words: "this version of
 * "Defend" would withdraw 14 of its 17 rulings, more than half". */
static void refusal_str(char *buf, size_t size, const struct ui *u,
                        const struct rl_file_report *r)
{
	char limit[64];
	limit_str(limit, sizeof limit, u->opts);
	snprintf(buf, size, "this version of \"%s\" would withdraw %zu of its %zu "
	         "rulings, %s", r->title ? r->title : "", r->result.withdrawn,
	         r->result.before, limit);
}

static void keep_refused(struct ui *u, const struct rl_file_report *r,
                         const char *why)
{
	if (u->nrefused == u->cap) {
		size_t cap = u->cap ? 2 * u->cap : 8;
		char **v = realloc(u->refused, cap * sizeof *v);
		if (!v) {
			u->oom = true;
			return;
		}
		u->refused = v;
		u->cap = cap;
	}
	size_t n = strlen(r->path) + strlen(why) + 3;
	char *line = malloc(n);
	if (!line) {
		u->oom = true;
		return;
	}
	snprintf(line, n, "%s: %s", r->path, why);
	u->refused[u->nrefused++] = line;
}

/* A bulk load commits its group of documents once it has been open this
 * long: long enough that the commit's cost (writing every page the group
 * touched, once) is spread over many documents, short enough that readers
 * see progress and a kill loses little. */
#define BULK_SECONDS 10.0

/* " (N cut short)" after the edited, when there are any. */
static const char *shortened(size_t n)
{
	static char buf[48];
	buf[0] = '\0';
	if (n)
		snprintf(buf, sizeof buf, " (%zu cut short)", n);
	return buf;
}

/* What became of a file: its diagnostics, how it was read (--verbose),
 * and its line. */
static void print_report(struct ui *u, const struct rl_file_report *r)
{
	print_diags(r->path, &r->diags);
	char why[512];
	if (r->refusal == RL_REFUSED_DAMAGED) {
		/* a diagnostic at the line where the unfinished part begins */
		bool refused = r->outcome == RL_FILE_REFUSED;
		char msg[256];
		snprintf(msg, sizeof msg, "the file ends inside %s begun here "
		         "(damaged?); %s --accept-damaged", rl_doc_end_name(r->end),
		         refused ? "refused, nothing stored; it imports with"
		                 : "an import would be refused without");
		struct rl_diag d = { refused ? RL_ERROR : RL_WARNING, r->end_line,
		                     0, msg };
		struct rl_diags one = { .v = &d, .n = 1 };
		print_diags(r->path, &one);
		const struct rl_import_result *res = &r->result;
		snprintf(why, sizeof why, "the file ends inside %s begun at line "
		         "%u (damaged?); as it is, it would withdraw %zu of the "
		         "%zu rulings of \"%s\"", rl_doc_end_name(r->end),
		         r->end_line, res->withdrawn, res->before,
		         r->title ? r->title : "");
		if (refused)
			keep_refused(u, r, why);
	} else if (r->refusal == RL_REFUSED_NO_GAME) {
		/* the library's message (r->error) is printed below */
		keep_refused(u, r, "does not name its game (give --game or a "
		             ".rulings manifest)");
	} else if (r->refusal == RL_REFUSED_WITHDRAW) {
		refusal_str(why, sizeof why, u, r);
		if (r->outcome == RL_FILE_REFUSED) {
			error("%s: %s; refused, nothing stored (--allow-withdraw or "
			      "--max-withdraw N|P%% imports it)", r->path, why);
			keep_refused(u, r, why);
		} else {
			warning("%s: %s; an import would be refused without "
			        "--allow-withdraw or --max-withdraw", r->path, why);
		}
	}
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
	if (r->result.merged && r->outcome != RL_FILE_FAILED &&
	    r->outcome != RL_FILE_REFUSED)
		printf("%s %s: the game-less \"%s\" into its game\n",
		       u->dry ? "would merge" : "merged", r->path,
		       r->title ? r->title : "");
	if (r->outcome == RL_FILE_UNCHANGED)
		printf("unchanged %s\n", r->path);
	else if (r->outcome == RL_FILE_IMPORTED && u->shipped)
		/* not one of the user's documents: said as what it is, and
		 * not counted in the summary */
		printf("started the new database with the shipped thesaurus, "
		       "%s: %zu concepts\n", r->path, r->concepts);
	else if (r->outcome == RL_FILE_IMPORTED && r->concepts)
		printf("%s %s: %zu concepts (%s)\n", verb, r->path, r->concepts,
		       r->format);
	else if (r->outcome == RL_FILE_IMPORTED)
		printf("%s %s: %zu %s, %zu added, %zu edited%s, %zu withdrawn"
		       " (%s, %s%s)\n", verb, r->path, res->entries,
		       res->entries == 1 ? "entry" : "entries", res->added,
		       res->edited, shortened(res->shortened), res->withdrawn,
		       r->format, r->langs ? r->langs : r->lang,
		       /* its counts are against the version before it, and
		        * the newer one's were made again: without this, "0
		        * added" read as if nothing had happened */
		       res->older ? "; an older version: put in its place in the"
		                    " history, the current texts unchanged" : "");
}

static void on_progress(void *ctx, const struct rl_import_progress *p)
{
	struct ui *u = ctx;
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

/* --max-withdraw N or P%. */
static const char *check_max_withdraw(const struct opt *opt, const char *v,
                                      const char *v2)
{
	(void)v2;
	struct rl_import_opts *o = opt->out;
	static const char expects[] = "a number of rulings or a percentage "
	                              "from 0% to 100%";
	if (*v < '0' || *v > '9')
		return expects;
	char *end;
	errno = 0;
	unsigned long n = strtoul(v, &end, 10);
	if (errno)
		return expects;
	if (end[0] == '%' && !end[1] && n <= 100)
		o->limit = RL_WITHDRAW_PERCENT;
	else if (!*end)
		o->limit = RL_WITHDRAW_COUNT;
	else
		return expects;
	o->max_withdraw = n;
	return NULL;
}

/* --date DATE: a day of the calendar. */
static const char *check_date(const struct opt *opt, const char *v,
                              const char *v2)
{
	(void)opt;
	(void)v2;
	return rl_day_valid(v) ? NULL : "a date such as 2026-01-16 (YYYY-MM-DD)";
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
	struct ui u = { .opts = &o };
	bool allow_withdraw = false;
	struct source_options so;
	source_options_init(&so, &o);
	bool no_thesaurus = false;
	const struct opt opts[] = {
		{ .type = OPT_INHERIT, .out = so.opts },
		{ .name = "document", .letter = 'D', .type = OPT_STRING,
		  .out = &o.document, .arg = "D", .flags = OPTF_NONEMPTY,
		  .help = "the document's name: imports under one name are versions "
		  "of one document (default: its title)" },
		{ .name = "date", .type = OPT_STRING, .out = &o.date, .arg = "DATE",
		  .check = check_date,
		  .help = "the date of the versions imported, for documents that "
		  "state none (default: the import time); one after today is "
		  "warned about" },
		{ .name = "dry-run", .letter = 'n', .type = OPT_FLAG,
		  .out = &r.dry_run,
		  .help = "parse and report what would change, and what would be "
		  "refused; write nothing" },
		{ .name = "accept-damaged", .type = OPT_FLAG,
		  .out = &o.accept_damaged,
		  .help = "store a document whose text ends inside an entry, a rule "
		  "or a section (a file cut short), instead of refusing it" },
		{ .name = "allow-withdraw", .type = OPT_FLAG, .out = &allow_withdraw,
		  .help = "a new version may withdraw any number of its document's "
		  "rulings (over --max-withdraw)" },
		{ .name = "max-withdraw", .type = OPT_CUSTOM, .out = &o,
		  .arg = "N|P%", .check = check_max_withdraw,
		  .help = "a new version may withdraw at most N of its document's "
		  "rulings, or P percent of them (default: at most half, or at "
		  "most 4); one that would withdraw more is refused" },
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
		  "shipped thesaurus (which is said on a line of its own, not "
		  "counted in the summary)" },
		{ 0 }
	};
	const struct opt_spec spec = {
		.opts = opts, .notes = notes,
		.synopsis = "[--game G] [--lang L] [--format F] [--document D] "
		            "[--date DATE]\n               [--dry-run] "
		            "[--accept-damaged] [--allow-withdraw|--max-withdraw N|P%]"
		            "\n               [--bulk[=S]] "
		            "[--quiet|--verbose] [--no-thesaurus] PATH...",
	};
	int npaths, status = opt_parse(c, &spec, argc, argv, &npaths);
	if (status >= 0)
		return status;
	source_options_apply(&so);
	u.dry = r.dry_run;
	if (allow_withdraw)
		o.limit = RL_WITHDRAW_ANY;
	if (!npaths)
		return usage_error("import", "give the files or directories to "
		                   "import");
	/* A date after today (2062 typed for 2026) would make these versions
	 * the newest for years: every later one, dated by its import time,
	 * would go into the history before them, its texts never current. */
	char today[16];
	time_t now = time(NULL);
	struct tm tm;
	if (o.date && gmtime_r(&now, &tm) &&
	    strftime(today, sizeof today, "%Y-%m-%d", &tm) &&
	    strcmp(o.date, today) > 0)
		warning("--date %s is after today (%s): a version of these "
		        "documents imported before that day without --date will be "
		        "older than this one, its texts not made current", o.date,
		        today);
	/* When no path given exists (a mistyped name), there is nothing to
	 * import: said before the database is opened, so that no database is
	 * created for it. */
	int missing = 0;
	struct stat sb;
	for (int i = 1; i <= npaths; i++)
		missing += stat(argv[i], &sb) != 0 && errno == ENOENT;
	if (missing == npaths) {
		for (int i = 1; i <= npaths; i++)
			error("%s: error: cannot open: %s", argv[i],
			      strerror(ENOENT));
		return EXIT_IO;
	}
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
	 * --document). It is not one of the paths given: the summary counts
	 * those only ("2 documents: 2 imported" for one file read as if a
	 * document had been found that the user never named). */
	struct rl_file_report th = { .outcome = RL_FILE_SKIPPED };
	int th_rc = RL_OK;
	if (!r.dry_run && !no_thesaurus && rl_db_info(c->db)->fresh) {
		char *path = rl_data_file("thesaurus.txt");
		if (path) {
			th_rc = rl_import_file(c->db, path, NULL, 0, &th);
			u.shipped = true;
			print_report(&u, &th);
			u.shipped = false;
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
	/* directories that hold nothing to import (none, or only hidden
	 * files) are said, rather than a silent success */
	if (!rc && !t.imported && !t.unchanged && !t.skipped && !t.failed &&
	    !t.refused)
		warning("no file to import in %s%s", argv[1],
		        npaths > 1 ? " or the other paths given" : "");
	if (th.path) {
		if (!rc)
			rc = th_rc;
		rl_file_report_clear(&th);
	}
	size_t total = t.imported + t.unchanged + t.failed + t.skipped +
	               t.refused;
	char refused[48] = "";
	if (t.refused)
		snprintf(refused, sizeof refused, ", %zu refused", t.refused);
	if (!u.quiet && total > 1) {
		printf("%s%zu documents: %zu %s, %zu unchanged, %zu skipped%s,"
		       " %zu failed; rulings: %zu added, %zu edited%s, %zu"
		       " withdrawn\n", r.dry_run ? "dry run: " : "", total,
		       t.imported, r.dry_run ? "would be imported" : "imported",
		       t.unchanged, t.skipped, refused, t.failed, t.added, t.edited,
		       shortened(t.shortened), t.withdrawn);
		if (u.nrefused)
			printf("refused, nothing stored:\n");
		for (size_t i = 0; i < u.nrefused; i++)
			printf("  %s\n", u.refused[i]);
	}
	for (size_t i = 0; i < u.nrefused; i++)
		free(u.refused[i]);
	free(u.refused);
	if (u.oom) {
		error("out of memory");
		if (!rc)
			rc = RL_ENOMEM;
	}
	return exit_status(rc);
}
