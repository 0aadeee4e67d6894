/* cmd_import.c — rulings import PATH...: files and directories into the
 * database, one transaction per document. */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char options_help[] =
	"  -g, --game G       the game, for documents that do not name one\n"
	"  -l, --lang L       the language (default: detected per document)\n"
	"  -F, --format F     the document format (default: detected)\n"
	"  -D, --document D   the document's name: imports under one name are\n"
	"                     versions of one document (default: its title)\n"
	"  -n, --dry-run      parse and report what would change; write nothing\n"
	"  -b, --bulk[=S]     commit documents in groups, every S seconds (10),\n"
	"                     each still stored whole or not at all: faster for\n"
	"                     many documents; a kill loses the uncommitted group\n"
	"  -q, --quiet        print only warnings and errors\n"
	"      --no-thesaurus a database this import creates does not start\n"
	"                     with the shipped thesaurus\n"
	"  -v, --verbose      also say how each file was read and how long it took\n"
	"  -h, --help         show this help\n"
	"\nA directory is walked recursively in byte order of file names; hidden\n"
	"files are passed over, and binary files and files of no known format\n"
	"are skipped with a warning. A file named on the command line must be of\n"
	"a known format.\n"
	"Each document is stored in one transaction: one that fails leaves the\n"
	"database as it was, and the others are still imported. Importing bytes\n"
	"that are already the latest version of their document changes nothing;\n"
	"without --game, --lang, --format or --document, neither do bytes that\n"
	"are the latest version of any document (imported before with such\n"
	"options).\n";

struct file {
	char *path;
	bool explicit;
};

struct list {
	struct file *v;
	size_t n, cap;
};

static bool push(struct list *l, const char *path, bool explicit)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct file *v = realloc(l->v, cap * sizeof *v);
		if (!v)
			return false;
		l->v = v;
		l->cap = cap;
	}
	char *p = strdup(path);
	if (!p)
		return false;
	l->v[l->n++] = (struct file){ p, explicit };
	return true;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int not_hidden(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Adds the files below dir, depth first, in byte order. */
static int walk(struct list *l, const char *dir, int depth)
{
	if (depth > 64) {
		error("%s: directories nested too deep; not followed", dir);
		return RL_EIO;
	}
	struct dirent **names;
	int n = scandir(dir, &names, not_hidden, by_name);
	if (n < 0) {
		error("%s: cannot read directory: %s", dir, strerror(errno));
		return RL_EIO;
	}
	int rc = RL_OK;
	for (int i = 0; i < n; i++) {
		size_t len = strlen(dir) + strlen(names[i]->d_name) + 2;
		char *path = malloc(len);
		if (path) {
			bool slash = dir[strlen(dir) - 1] == '/';
			snprintf(path, len, "%s%s%s", dir, slash ? "" : "/",
			         names[i]->d_name);
			struct stat st;
			if (stat(path, &st) != 0) {
				error("%s: %s", path, strerror(errno));
				rc = RL_EIO;
			} else if (S_ISDIR(st.st_mode)) {
				int r = walk(l, path, depth + 1);
				if (r)
					rc = r;
			} else if (!S_ISREG(st.st_mode)) {
				fprintf(stderr, "%s: %s: warning: not a regular file (a FIFO, "
				        "socket or device); skipped\n", progname, path);
			} else if (!push(l, path, false)) {
				rc = RL_ENOMEM;
			}
			free(path);
		} else {
			rc = RL_ENOMEM;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

struct totals {
	size_t imported, unchanged, failed, skipped;
	size_t added, edited, withdrawn;
	int worst;       /* the exit status to report */
};

static void note_failure(struct totals *t, int rc)
{
	t->failed++;
	int st = exit_status(rc);
	/* Busy and I/O problems outrank bad data: they say more about what to
	 * do next (retry, check the disk). */
	if (t->worst == 0 || st == EXIT_BUSY || (st == EXIT_IO && t->worst != EXIT_BUSY))
		t->worst = st;
}

/* Binary, going by its first bytes: NUL bytes and no UTF-16 byte order
 * mark (git's test). Images and archives in a walked directory are skipped
 * as not documents; a text file with a NUL byte named on the command line
 * is still an error. */
static bool looks_binary(const char *path)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return false;
	unsigned char buf[8000];
	size_t n = fread(buf, 1, sizeof buf, fp);
	fclose(fp);
	if (n >= 2 && ((buf[0] == 0xFE && buf[1] == 0xFF) ||
	               (buf[0] == 0xFF && buf[1] == 0xFE)))
		return false;
	return memchr(buf, 0, n) != NULL;
}

/* How this run of import behaves. */
struct run {
	bool quiet, verbose, dry, progress, bulk;
	double start;
	double group_seconds;   /* --bulk: how long a group stays open */
};

/* A bulk load commits its group of documents once it has been open this
 * long: long enough that the commit's cost (writing every page the group
 * touched, once) is spread over many documents, short enough that readers
 * see progress and a kill loses little. */
#define BULK_SECONDS 10.0

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "processed X of Y, R documents/s, T s left" on one terminal line. */
static void show_progress(const struct run *r, size_t done, size_t total)
{
	double el = now() - r->start;
	double rate = el > 0 ? (double)done / el : 0;
	double left = rate > 0 ? (double)(total - done) / rate : 0;
	fflush(stdout);
	fprintf(stderr, "\r\033[Kprocessed %zu of %zu, %.1f documents/s, %.0f s left",
	        done, total, rate, left);
	fflush(stderr);
}

static int import_one(struct ctx *c, const struct file *f,
                      const struct rl_import_opts *o, const struct run *r,
                      struct totals *t)
{
	bool quiet = r->quiet;
	double t0 = now();
	if (r->progress) {
		/* the progress line gives way to what this file prints */
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	if (!f->explicit && looks_binary(f->path)) {
		fprintf(stderr, "%s: %s: warning: a binary file, not a document; "
		        "skipped\n", progname, f->path);
		t->skipped++;
		return RL_OK;
	}
	struct rl_source src;
	struct rl_diags d = {0};
	int rc = rl_source_load(&src, f->path, &d);
	print_diags(f->path, &d);
	rl_diags_clear(&d);
	if (rc == RL_ENOMEM)
		error("%s: out of memory", f->path);
	if (rc) {
		note_failure(t, rc);
		return rc;
	}
	/* Without options that change what the bytes would become, bytes that
	 * are already some document's latest import are unchanged: a directory
	 * walk after "import --game G FILE" does not make FILE a second,
	 * game-less document. */
	if (!o->game && !o->lang && !o->format && !o->document) {
		bool seen = false;
		if ((rc = rl_store_seen(c->db, src.sha256, &seen))) {
			error("%s: %s", f->path, rl_db_errmsg(c->db));
			note_failure(t, rc);
			rl_source_free(&src);
			return rc;
		}
		if (seen) {
			t->unchanged++;
			if (!quiet)
				printf("unchanged %s\n", f->path);
			rl_source_free(&src);
			return RL_OK;
		}
	}
	struct rl_doc doc;
	rc = parse_source(&src, o, f->explicit, &doc);
	if (!rc && r->verbose)
		fprintf(stderr, "%s: %s: %s, %zu bytes; %s, %s, \"%s\"; parsed in "
		        "%.1f ms\n", progname, f->path, src.encoding, src.raw_size,
		        doc.format, doc.lang, doc.title, (now() - t0) * 1000);
	if (rc == RL_NOTFOUND) {
		t->skipped++;
		rl_source_free(&src);
		return RL_OK;
	}
	if (!rc) {
		struct rl_import_result res;
		rc = r->dry ? rl_store_dry(c->db, &src, &doc, &res)
		            : rl_store(c->db, &src, &doc, &res);
		if (!rc && r->verbose)
			fprintf(stderr, "%s: %s: %s in %.1f ms\n", progname, f->path,
			        r->dry ? "checked" : "stored", (now() - t0) * 1000);
		if (rc) {
			error("%s: %s", f->path, rl_db_errmsg(c->db));
		} else if (res.unchanged) {
			t->unchanged++;
			if (!quiet)
				printf("unchanged %s\n", f->path);
		} else {
			t->imported++;
			t->added += res.added;
			t->edited += res.edited;
			t->withdrawn += res.withdrawn;
			const char *verb = r->dry ? "would import" : "imported";
			if (!quiet && doc.nconcepts)
				printf("%s %s: %zu concepts (%s)\n", verb, f->path,
				       doc.nconcepts, doc.format);
			else if (!quiet)
				printf("%s %s: %zu %s, %zu added, %zu edited,"
				       " %zu withdrawn (%s, %s)\n", verb, f->path, res.entries,
				       res.entries == 1 ? "entry" : "entries",
				       res.added, res.edited, res.withdrawn, doc.format,
				       doc.lang);
		}
	}
	if (rc)
		note_failure(t, rc);
	rl_doc_free(&doc);
	rl_source_free(&src);
	return rc;
}

int cmd_import(struct ctx *c, int argc, char **argv)
{
	static const struct option opts[] = {
		SOURCE_LONGOPTS,
		{ "document", required_argument, NULL, 'D' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "bulk", optional_argument, NULL, 'b' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "no-thesaurus", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct rl_import_opts o = {0};
	struct run r = {0};
	bool no_thesaurus = false;
	int opt, status = EXIT_USAGE;
	reset_opts();
	while ((opt = next_opt(argc, argv, ":g:l:F:D:nbqvh", opts, "import",
	                       &status)) != -1) {
		if (source_option(opt, optarg, "import", &o, &status)) {
			if (status)
				return status;
			continue;
		}
		switch (opt) {
		case 'q': r.quiet = true; break;
		case 'T': no_thesaurus = true; break;
		case 'v': r.verbose = true; break;
		case 'n': r.dry = true; break;
		case 'b': {
			r.bulk = true;
			r.group_seconds = BULK_SECONDS;
			if (!optarg)
				break;
			char *end;
			errno = 0;
			r.group_seconds = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(r.group_seconds >= 0) ||
			    r.group_seconds > 86400)
				return usage_error("import", "--bulk takes the seconds a "
				                   "group stays open, 0 to 86400: '%s'",
				                   optarg);
			break;
		}
		case 'D':
			if (!*optarg)
				return usage_error("import", "--document needs a name");
			o.document = optarg;
			break;
		case 'h':
			command_help(find_command("import"), options_help);
			return 0;
		default:
			return status;
		}
	}
	if (optind >= argc)
		return usage_error("import", "give the files or directories to "
		                   "import");
	if (r.dry) {
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
	r.progress = !r.quiet && isatty(STDERR_FILENO);
	struct list files = {0};
	struct totals t = {0};
	/* A new database — one nothing has been imported into yet, even by
	 * a run killed early — starts with the thesaurus rulings ships, read
	 * as a document of its own (no --game, --lang, --format or
	 * --document). */
	if (!r.dry && !no_thesaurus && rl_db_info(c->db)->fresh) {
		char *path = rl_data_file("thesaurus.txt");
		if (path) {
			struct file f = { path, true };
			import_one(c, &f, &(struct rl_import_opts){0}, &r, &t);
			free(path);
		} else {
			warning("the shipped thesaurus (thesaurus.txt) was not found: "
			        "the new database has none");
		}
	}
	for (int i = optind; i < argc; i++) {
		struct stat st;
		int rc = RL_OK;
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "%s: %s: error: cannot open: %s\n", progname,
			        argv[i], strerror(errno));
			rc = RL_EIO;
		} else if (S_ISDIR(st.st_mode)) {
			rc = walk(&files, argv[i], 0);
		} else if (!push(&files, argv[i], true)) {
			rc = RL_ENOMEM;
		}
		if (rc)
			note_failure(&t, rc);
	}
	if (r.progress && files.n > 1)
		fprintf(stderr, "found %zu documents\n", files.n);
	r.start = now();
	bool grouped = false;        /* a bulk group is open */
	size_t first = 0;            /* its first file */
	double opened = 0;
	struct totals before = t;    /* the totals before it */
	for (size_t i = 0; i < files.n; i++) {
		if (r.bulk && !r.dry && !grouped) {
			int rc = rl_bulk_begin(c->db);
			if (rc) {
				error("%s", rl_db_errmsg(c->db));
				note_failure(&t, rc);
				break;
			}
			grouped = true;
			first = i;
			opened = now();
			before = t;
		}
		int rc = import_one(c, &files.v[i], &o, &r, &t);
		if (r.progress && files.n > 1)
			show_progress(&r, i + 1, files.n);
		if (grouped && (i + 1 == files.n || rc == RL_EBUSY ||
		                now() - opened >= r.group_seconds)) {
			grouped = false;
			if (rl_bulk_end(c->db, true) != RL_OK) {
				/* the group is lost: store its documents one by one,
				 * so that only the one at fault fails */
				if (r.progress)
					fputs("\r\033[K", stderr);
				fprintf(stderr, "%s: warning: %s; importing the %zu "
				        "documents of the group one by one\n", progname,
				        rl_db_errmsg(c->db), i + 1 - first);
				t = before;
				for (size_t j = first; j <= i; j++)
					rc = import_one(c, &files.v[j], &o, &r, &t);
			}
		}
		if (rc == RL_EBUSY)
			break;    /* the next document would wait just as long */
	}
	if (r.progress && files.n > 1)
		fputs("\r\033[K", stderr);
	size_t total = t.imported + t.unchanged + t.failed + t.skipped;
	if (!r.quiet && total > 1)
		printf("%s%zu documents: %zu %s, %zu unchanged, %zu skipped,"
		       " %zu failed; rulings: %zu added, %zu edited, %zu withdrawn\n",
		       r.dry ? "dry run: " : "", total, t.imported,
		       r.dry ? "would be imported" : "imported", t.unchanged,
		       t.skipped, t.failed, t.added, t.edited, t.withdrawn);
	for (size_t i = 0; i < files.n; i++)
		free(files.v[i].path);
	free(files.v);
	return t.worst;
}
