/* export.c — rl_export(): select and plan (export_plan.c), render with the
 * format's renderer, and put the output in place: one file, standard
 * output, or a directory of pages.
 *
 * A directory is written only when it is new, empty, or a previous
 * export: it holds .rulings-export, the list of the files an export
 * wrote. Before the first page, the list is written with every name the
 * previous list held and every name this export will write, so that an
 * export killed half-way leaves a directory that is still "a previous
 * export" and whose stale pages are still known; after the last page,
 * the pages of tags that are gone (on the old list, not written now) are
 * removed, with any temporary file a killed export left, and the list
 * becomes exactly what was written. */
#include "db.h"
#include "export.h"
#include "xmlmod.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char MARKER[] = ".rulings-export";
static const char MARKER_HEAD[] = "# rulings export: files written\n";
static const char TMP_PREFIX[] = ".rulings-tmp-";

/* The library's formats. A new format is one more line (and its
 * renderer). */
static const struct rl_export_format formats[] = {
	{ .name = "txt", .ext = ".txt", .exact_tag = true,
	  .render_page = export_txt_page },
	{ .name = "md", .ext = ".md", .books = true,
	  .render_page = export_md_page,
	  .render_index = export_md_index, .index_name = "index.md" },
	{ .name = "html", .ext = ".html", .books = true, .feeds = true,
	  .xml_module = true,
	  .render_page = export_html_page,
	  .render_index = export_html_index, .index_name = "index.html" },
	{ .name = "xml", .ext = ".xml", .xml_module = true,
	  .render_all = export_xml_all },
};

const struct rl_export_format *rl_export_format_find(const char *name)
{
	for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
		if (strcmp(formats[i].name, name) == 0)
			return &formats[i];
	return NULL;
}

rl_db *rl_export_db(const struct rl_export *x)
{
	return x->db;
}

const struct rl_results *rl_export_results(const struct rl_export *x)
{
	return &x->sel;
}

int rl_export_fail(struct rl_export *x, int status, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return rl_db_fail(x->db, status, "%s", msg);
}

int export_finish(struct rl_export *x, struct rl_out *o)
{
	int rc = rl_out_finish(o);
	if (rc == RL_ENOMEM)
		return rl_db_fail(x->db, rc, "out of memory");
	if (rc)
		return rl_db_fail(x->db, rc, "%s", strerror(o->err));
	return RL_OK;
}

/* ---- rendering one output ----------------------------------------------- */

/* A sink that keeps the first error of the sink it writes to. */
struct rec {
	const struct rl_sink *to;
	int err;
};

static int rec_write(void *ctx, const void *data, size_t n)
{
	struct rec *r = ctx;
	if (!r->err)
		r->err = r->to->write(r->to->ctx, data, n);
	return r->err;
}

enum { ALL = -1, INDEX = -2, EXTRA = -3 };   /* EXTRA - k: extra file k */

/* Renders page (or ALL, INDEX) to the file path, or to standard output
 * when path is NULL. The pages of a directory are not synced one by one
 * (hundreds of syncs would take longer than the export): a crash may
 * leave some empty, and the export is run again. */
static int render(struct rl_export *x, const struct rl_export_opts *o,
                  long page, const char *path)
{
	const struct rl_export_format *f = x->format;
	struct rl_outfile file = { .fd = -1 };
	int rc = path ? rl_outfile_open(x->db, &file, path) : RL_OK;
	if (rc)
		return rc;
	file.sync = !x->tree;
	struct rec r = { path ? &file.sink : o->standard_output, 0 };
	struct rl_sink s = { rec_write, &r };
	rc = page == ALL ? f->render_all(x, &s)
	   : page == INDEX ? f->render_index(x, &s)
	   : page <= EXTRA ? export_changes_render(x, (size_t)(EXTRA - page), &s)
	   : f->render_page(x, (size_t)page, &s);
	if (!path) {
		if (r.err)
			rc = rl_db_fail(x->db, RL_EIO, "cannot write to standard output:"
			                " %s", strerror(r.err));
		return rc;
	}
	/* a failed write: the file's own message names it */
	int crc = rl_outfile_close(x->db, &file, !rc || r.err);
	return r.err || !rc ? crc : rc;
}

/* ---- the output directory ------------------------------------------------ */

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	char *p = malloc(n + strlen(name) + 2);
	if (p)
		sprintf(p, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
	return p;
}

/* A list of file names, each once. */
struct names {
	char **v;
	size_t n, cap;
	struct rl_strset set;
};

static bool names_add(struct names *l, const char *name)
{
	int r = rl_strset_add(&l->set, name, strlen(name));
	if (r <= 0)
		return r == 0;
	char *copy = rl_strdup(name);
	if (!copy || !rl_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v)) {
		free(copy);
		return false;
	}
	l->v[l->n++] = copy;
	return true;
}

static void names_free(struct names *l)
{
	rl_strings_free(l->v, l->n);
	rl_strset_free(&l->set);
}

/* The names a previous export's list holds (plain names in the directory
 * only), or none. */
static int read_marker(struct rl_export *x, const char *dir, struct names *old)
{
	char *path = join(dir, MARKER);
	if (!path)
		return rl_db_fail(x->db, RL_ENOMEM, "out of memory");
	FILE *f = fopen(path, "r");
	free(path);
	if (!f)
		return RL_OK;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = RL_OK;
	while (!rc && (len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (!len || line[0] == '#' || line[0] == '.' || strchr(line, '/'))
			continue;
		if (!names_add(old, line))
			rc = rl_db_fail(x->db, RL_ENOMEM, "out of memory");
	}
	free(line);
	fclose(f);
	return rc;
}

static int write_marker(struct rl_export *x, const char *dir, const struct names *l)
{
	struct rl_buf b = {0};
	rl_buf_adds(&b, MARKER_HEAD);
	for (size_t k = 0; k < l->n; k++)
		rl_buf_addf(&b, "%s\n", l->v[k]);
	char *path = join(dir, MARKER);
	int rc = b.oom || !path ? rl_db_fail(x->db, RL_ENOMEM, "out of memory")
	       : rl_outfile_write_all(x->db, path, b.s, b.len);
	rl_buf_free(&b);
	free(path);
	return rc;
}

/* A directory may be written when it is new (made here), empty, or holds
 * a previous export's list; force overrides the last rule. */
static int open_dir(struct rl_export *x, const char *dir, bool force)
{
	struct stat st;
	if (stat(dir, &st) != 0) {
		if (errno != ENOENT || mkdir(dir, 0777) != 0)
			return rl_db_fail(x->db, RL_EIO, "cannot create directory '%s': "
			                  "%s", dir, strerror(errno));
		return RL_OK;
	}
	if (!S_ISDIR(st.st_mode))
		return rl_db_fail(x->db, RL_EUSAGE, "'%s' is not a directory: a "
		                  "%s export of many pages writes one file per tag "
		                  "into a directory", dir, x->format->name);
	DIR *d = opendir(dir);
	if (!d)
		return rl_db_fail(x->db, RL_EIO, "cannot read directory '%s': %s",
		                  dir, strerror(errno));
	bool empty = true, marked = false;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		empty = false;
		marked |= strcmp(e->d_name, MARKER) == 0;
	}
	closedir(d);
	if (empty || marked || force)
		return RL_OK;
	return rl_db_fail(x->db, RL_EUSAGE, "refusing to write into '%s': the "
	                  "directory is not empty and holds no previous export "
	                  "(%s); give --force to write anyway", dir, MARKER);
}

/* Removes name from dir, if it is there. */
static int remove_file(struct rl_export *x, const char *dir, const char *name)
{
	char *path = join(dir, name);
	int rc = RL_OK;
	if (!path)
		rc = rl_db_fail(x->db, RL_ENOMEM, "out of memory");
	else if (unlink(path) != 0 && errno != ENOENT)
		rc = rl_db_fail(x->db, RL_EIO, "cannot remove '%s': %s", path,
		                strerror(errno));
	free(path);
	return rc;
}

/* Removes the temporary files an export killed half-way left. */
static int remove_stale(struct rl_export *x, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return rl_db_fail(x->db, RL_EIO, "cannot read directory '%s': %s",
		                  dir, strerror(errno));
	int rc = RL_OK;
	struct dirent *e;
	while (!rc && (e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, TMP_PREFIX, sizeof TMP_PREFIX - 1) != 0 ||
		    strlen(e->d_name) != sizeof TMP_PREFIX - 1 + 6)
			continue;
		rc = remove_file(x, dir, e->d_name);
	}
	closedir(d);
	return rc;
}

static int write_dir(struct rl_export *x, const struct rl_export_opts *o)
{
	const char *dir = o->output;
	const struct rl_export_format *f = x->format;
	struct names old = {0}, all = {0}, written = {0};
	int rc = open_dir(x, dir, o->force);
	if (!rc)
		rc = read_marker(x, dir, &old);
	/* the list first: every name that is or will be ours */
	for (size_t k = 0; k < old.n && !rc; k++)
		if (!names_add(&all, old.v[k]))
			rc = rl_db_fail(x->db, RL_ENOMEM, "out of memory");
	if (!rc && f->render_index && !names_add(&all, f->index_name))
		rc = rl_db_fail(x->db, RL_ENOMEM, "out of memory");
	for (size_t k = 0; k < x->npages && !rc; k++)
		if (!names_add(&all, x->pages[k].file))
			rc = rl_db_fail(x->db, RL_ENOMEM, "out of memory");
	for (size_t k = 0; k < x->nextra && !rc; k++)
		if (!names_add(&all, x->extra[k].file))
			rc = rl_db_fail(x->db, RL_ENOMEM, "out of memory");
	if (!rc)
		rc = write_marker(x, dir, &all);
	for (long k = f->render_index ? INDEX : 0; !rc && k < (long)x->npages;
	     k = k == INDEX ? 0 : k + 1) {
		const char *name = k == INDEX ? f->index_name : x->pages[k].file;
		char *path = join(dir, name);
		rc = !path || !names_add(&written, name)
		     ? rl_db_fail(x->db, RL_ENOMEM, "out of memory")
		     : render(x, o, k, path);
		free(path);
	}
	/* the changes page and the feeds */
	for (size_t k = 0; k < x->nextra && !rc; k++) {
		char *path = join(dir, x->extra[k].file);
		rc = !path || !names_add(&written, x->extra[k].file)
		     ? rl_db_fail(x->db, RL_ENOMEM, "out of memory")
		     : render(x, o, EXTRA - (long)k, path);
		free(path);
	}
	/* the pages of tags that are gone */
	for (size_t k = 0; k < old.n && !rc; k++) {
		if (!rl_strset_has(&written.set, old.v[k], strlen(old.v[k])))
			rc = remove_file(x, dir, old.v[k]);
	}
	if (!rc)
		rc = remove_stale(x, dir);
	if (!rc)
		rc = write_marker(x, dir, &written);
	x->report.files = written.n;
	names_free(&old);
	names_free(&all);
	names_free(&written);
	return rc;
}

/* ---- the export ------------------------------------------------------------ */

static int write_output(struct rl_export *x, const struct rl_export_opts *o)
{
	bool to_stdout = strcmp(o->output, "-") == 0;
	if (x->tree && to_stdout)
		return rl_db_fail(x->db, RL_EUSAGE, "a %s export of many pages is a "
		                  "directory, not standard output", x->format->name);
	if (x->tree)
		return write_dir(x, o);
	struct stat st;
	if (!to_stdout && stat(o->output, &st) == 0 && S_ISDIR(st.st_mode))
		return rl_db_fail(x->db, RL_EUSAGE, "'%s' is a directory: this "
		                  "export is one file (give a file name, or - for "
		                  "standard output)", o->output);
	x->report.files = !to_stdout;
	return render(x, o, x->format->render_all ? ALL : 0,
	              to_stdout ? NULL : o->output);
}

int rl_export(rl_db *db, const struct rl_export_opts *o,
              struct rl_export_report *rep)
{
	*rep = (struct rl_export_report){0};
	const struct rl_export_format *f = o->format;
	if (!f || !o->output || !*o->output || (!f->render_all && !f->render_page)
	    || (!strcmp(o->output, "-") && !o->standard_output))
		return rl_db_fail(db, RL_EUSAGE, "export: a format and an output "
		                  "are needed");
	/* before anything is written */
	int rc = f->xml_module ? xmlmod_load_db(db) : RL_OK;
	if (rc)
		return rc;
	/* a page cache of 16 MB, as a writer's, not SQLite's 2 MB: export
	 * --all walks the tables once per page it writes, and with 2 MB it
	 * read the same pages back with pread(2) (1.38 million calls for the
	 * corpora's 4858 rulings, 6.4 s of system time of a 21 s md export;
	 * 719 calls and 0.07 s with 16 MB). Only here: a search that reads
	 * thousands of pages once costs twice the CPU with it (malloc of each
	 * new cache page: search --tag of 15,195 rulings at 100k, 75 -> 155
	 * ms task-clock) */
	rc = rl_db_exec(db, "PRAGMA cache_size = -16384");
	if (rc)
		return rc;
	struct rl_export x = { .db = db, .format = f };
	/* the library's own messages say what failed */
	struct export_xml_errors save;
	export_xml_quiet(&save);
	/* one read transaction: one snapshot, whatever imports do meanwhile */
	rc = rl_read_begin(db);
	if (!rc) {
		rc = export_plan(&x, o);
		if (!rc)
			rc = write_output(&x, o);
		rc = rl_read_end(db, rc);
	}
	export_xml_restore(&save);
	*rep = x.report;
	export_plan_free(&x);
	return rc;
}
