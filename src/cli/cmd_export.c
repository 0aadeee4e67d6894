/* cmd_export.c — rulings export: rulings by tag, by search or all of them,
 * as FAQ text pages, Markdown, a static HTML site or JSON.
 *
 * The selection is a search (rl_search, as `search --limit 0` runs it:
 * export and search select the same rulings) and gives an ordered list of
 * ruling ids; the format table
 * below says which writer takes it. With --tag the output is one file; with
 * --all or --query the page formats write a directory, one page per tag. */
#include "export.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The list of files an export wrote, in its directory: what makes the
 * directory "a previous export" that may be written into again. */
static const char MARKER[] = ".rulings-export";
static const char MARKER_HEAD[] = "# rulings export: files written\n";

static int export_json(struct export_job *job);
static int export_xml(struct export_job *job);

/* Each format, once. A new format is one more line. */
static const struct export_format formats[] = {
	{ "txt", ".txt", true, true, export_txt },
	{ "md", ".md", true, false, export_md },
	{ "html", ".html", true, false, export_html },
	{ "json", ".json", false, false, export_json },
	{ "xml", ".xml", false, false, export_xml },
};

static const char options_help[] =
	"  -t, --tag T        the rulings with tag T: one page (\"Name\" matches\n"
	"                     every qualifier, \"Name (Qualifier)\" one; for txt,\n"
	"                     whose page gives its tag to every entry, T itself)\n"
	"  -q, --query WORDS  the rulings a search for WORDS finds\n"
	"  -a, --all          every ruling\n"
	"  -l, --lang L       only rulings in language L (en, fr, ru, ...)\n"
	"  -g, --game G       only rulings of game G\n"
	"  -f, --format F     txt (FAQ tag-page text), md (Markdown), html, json,\n"
	"                     xml (the interchange format, schema/rulings.rng)\n"
	"  -o, --output PATH  where to write: a file (\"-\": standard output) for\n"
	"                     --tag and for json and xml; a directory, one page\n"
	"                     per tag,\n"
	"                     for txt, md and html with --all or --query\n"
	"      --no-thesaurus select tags and words only as given, not their\n"
	"                     thesaurus equivalents\n"
	"      --force        write into a non-empty directory that is not a\n"
	"                     previous export\n"
	"  -h, --help         show this help\n"
	"\nThe rulings are those search selects for the same --tag, --query,\n"
	"--lang and --game (with the thesaurus, each concept within its game).\n"
	"Page files are named\n"
	"after their tag: an ASCII slug, '-', 12 hex digits of the tag's SHA-256.\n"
	"A directory is written only when it is new, empty or a previous export\n"
	"(it holds .rulings-export); its files are replaced atomically and the\n"
	"pages of tags that are gone removed. Exit status 1 when nothing matches.\n";

/* ---- the selection and its pages ---------------------------------------- */

const struct rl_ruling *export_ruling(struct export_job *job, size_t i)
{
	if (job->loaded[i])
		return &job->full[i];
	int rc = rl_show(job->c->db, job->ids[i], &job->full[i]);
	if (rc) {
		error("export: %s", rl_db_errmsg(job->c->db));
		return NULL;
	}
	job->loaded[i] = true;
	return &job->full[i];
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_by_id(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

bool export_find(const struct export_job *job, long long id, size_t *i)
{
	size_t lo = 0, hi = job->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (job->by_id[mid].id == id) {
			*i = job->by_id[mid].i;
			return true;
		}
		if (job->by_id[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

const struct export_page *export_page_of(const struct export_job *job,
                                         const char *tag)
{
	size_t lo = 0, hi = job->npages;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct export_page *p = &job->pages[job->by_title[mid]];
		int c = p->title ? strcmp(p->title, tag) : -1;
		if (c == 0)
			return p;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* (tag, ruling) pairs, sorted to make the pages. */
struct pair {
	const char *tag;
	char *fold;
	size_t i;
};

static int cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	int c = strcmp(x->fold, y->fold);
	if (!c)
		c = strcmp(x->tag, y->tag);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

static bool page_add(struct export_page *p, size_t i)
{
	if (!rl_grow(&p->v, &p->cap, p->n + 1, sizeof *p->v))
		return false;
	p->v[p->n++] = i;
	return true;
}

static struct export_page *new_page(struct export_job *job, size_t *cap,
                                    const char *title)
{
	if (!rl_grow(&job->pages, cap, job->npages + 1, sizeof *job->pages))
		return NULL;
	struct export_page *p = &job->pages[job->npages++];
	*p = (struct export_page){0};
	p->title = rl_strdup(title);
	p->file = title ? rl_export_filename(title, job->format->ext)
	                : rl_strdup("untagged");
	if (p->file && !title) {
		char *f = malloc(strlen("untagged") + strlen(job->format->ext) + 1);
		if (f)
			sprintf(f, "untagged%s", job->format->ext);
		free(p->file);
		p->file = f;
	}
	if ((title && !p->title) || !p->file)
		return NULL;
	return p;
}

/* The tag of the selection that --tag T names: its stored form when one
 * ruling carries it exactly (case aside), else T as given. */
static const char *stored_tag(const struct export_job *job)
{
	if (!job->tag)
		return NULL;       /* one file of a search: a page with no tag */
	char *want = rl_fold(job->tag);
	const char *found = NULL;
	for (size_t i = 0; want && i < job->n && !found; i++)
		for (size_t k = 0; k < job->sel.v[i].ntags && !found; k++) {
			char *f = rl_fold(job->sel.v[i].tags[k]);
			if (f && strcmp(f, want) == 0)
				found = job->sel.v[i].tags[k];
			free(f);
		}
	free(want);
	return found ? found : job->tag;
}

static const struct export_page *sort_pages;
static int cmp_title(const void *a, const void *b)
{
	const struct export_page *x = &sort_pages[*(const size_t *)a],
	                         *y = &sort_pages[*(const size_t *)b];
	if (!x->title || !y->title)
		return !x->title - !y->title;
	return strcmp(x->title, y->title);
}

static int oom_error(void)
{
	error("out of memory");
	return EXIT_SOFTWARE;
}

static int make_pages(struct export_job *job)
{
	size_t cap = 0;
	job->home = malloc((job->n ? job->n : 1) * sizeof *job->home);
	if (!job->home)
		return oom_error();
	for (size_t i = 0; i < job->n; i++)
		job->home[i] = (size_t)-1;
	if (!job->tree) {
		struct export_page *p = new_page(job, &cap, stored_tag(job));
		for (size_t i = 0; p && i < job->n; i++) {
			if (!page_add(p, i))
				p = NULL;
			else
				job->home[i] = 0;
		}
		if (!p)
			return oom_error();
	} else {
		size_t npairs = 0, pcap = 0;
		struct pair *pairs = NULL;
		bool oom = false, untagged = false;
		for (size_t i = 0; i < job->n && !oom; i++) {
			const struct rl_ruling *r = &job->sel.v[i];
			untagged |= r->ntags == 0;
			for (size_t k = 0; k < r->ntags && !oom; k++) {
				if (!rl_grow(&pairs, &pcap, npairs + 1, sizeof *pairs)) {
					oom = true;
					break;
				}
				char *f = rl_fold(r->tags[k]);
				if (!f)
					oom = true;
				else
					pairs[npairs++] = (struct pair){ r->tags[k], f, i };
			}
		}
		if (!oom)
			qsort(pairs, npairs, sizeof *pairs, cmp_pair);
		struct export_page *p = NULL;
		for (size_t k = 0; k < npairs && !oom; k++) {
			if (!p || strcmp(p->title, pairs[k].tag) != 0)
				p = new_page(job, &cap, pairs[k].tag);
			if (!p || !page_add(p, pairs[k].i)) {
				oom = true;
				break;
			}
			if (job->home[pairs[k].i] == (size_t)-1)
				job->home[pairs[k].i] = job->npages - 1;
		}
		for (size_t k = 0; k < npairs; k++)
			free(pairs[k].fold);
		free(pairs);
		if (!oom && untagged) {
			p = new_page(job, &cap, NULL);
			for (size_t i = 0; p && i < job->n; i++)
				if (job->sel.v[i].ntags == 0) {
					if (!page_add(p, i))
						p = NULL;
					else
						job->home[i] = job->npages - 1;
				}
			oom = !p;
		}
		if (oom)
			return oom_error();
	}
	job->by_title = malloc((job->npages ? job->npages : 1) *
	                       sizeof *job->by_title);
	job->by_id = malloc((job->n ? job->n : 1) * sizeof *job->by_id);
	if (!job->by_title || !job->by_id)
		return oom_error();
	for (size_t k = 0; k < job->npages; k++)
		job->by_title[k] = k;
	sort_pages = job->pages;
	qsort(job->by_title, job->npages, sizeof *job->by_title, cmp_title);
	/* distinct tags, distinct file names: a hash collision (one in 2^48)
	 * would overwrite a page, so it is refused */
	const char **names = malloc((job->npages ? job->npages : 1) *
	                            sizeof *names);
	if (!names)
		return oom_error();
	for (size_t k = 0; k < job->npages; k++)
		names[k] = job->pages[k].file;
	qsort(names, job->npages, sizeof *names, cmp_str);
	bool same = false;
	for (size_t k = 1; k < job->npages && !same; k++)
		same = strcmp(names[k - 1], names[k]) == 0;
	free(names);
	if (same) {
		error("export: two tags give the same file name; please report it");
		return EXIT_SOFTWARE;
	}
	for (size_t i = 0; i < job->n; i++) {
		job->by_id[i].id = job->ids[i];
		job->by_id[i].i = i;
	}
	qsort(job->by_id, job->n, sizeof *job->by_id, cmp_by_id);
	return 0;
}

/* ---- the order of a page ------------------------------------------------- */

struct ord {
	struct export_item it;
	size_t pos;                   /* in the selection */
	long long sec_first, cat_first;
};

/* NULL first, then by bytes */
static int cmp_opt(const char *a, const char *b)
{
	if (!a || !b)
		return !!a - !!b;
	return strcmp(a, b);
}

static int cmp_pos(size_t a, size_t b)
{
	return (a > b) - (a < b);
}

static int by_section(const void *a, const void *b)
{
	const struct ord *x = a, *y = b;
	int c = cmp_opt(x->it.section, y->it.section);
	return c ? c : cmp_pos(x->pos, y->pos);
}

static int by_category(const void *a, const void *b)
{
	const struct ord *x = a, *y = b;
	int c = cmp_opt(x->it.section, y->it.section);
	if (!c)
		c = cmp_opt(x->it.category, y->it.category);
	return c ? c : cmp_pos(x->pos, y->pos);
}

static int by_first(const void *a, const void *b)
{
	const struct ord *x = a, *y = b;
	if (x->sec_first != y->sec_first)
		return (x->sec_first > y->sec_first) - (x->sec_first < y->sec_first);
	if (x->cat_first != y->cat_first)
		return (x->cat_first > y->cat_first) - (x->cat_first < y->cat_first);
	return cmp_pos(x->pos, y->pos);
}

int export_order(struct export_job *job, const struct export_page *p,
                 struct export_item **items)
{
	struct ord *o = malloc((p->n ? p->n : 1) * sizeof *o);
	*items = malloc((p->n ? p->n : 1) * sizeof **items);
	if (!o || !*items) {
		free(o);
		free(*items);
		*items = NULL;
		error("out of memory");
		return EXIT_SOFTWARE;
	}
	for (size_t k = 0; k < p->n; k++) {
		const struct rl_ruling *r = &job->sel.v[p->v[k]];
		o[k] = (struct ord){ { p->v[k], r->section, r->category, false,
		                       false }, p->v[k], 0, 0 };
	}
	/* each section at its first ruling, rulings with none first */
	qsort(o, p->n, sizeof *o, by_section);
	for (size_t k = 0; k < p->n; k++)
		o[k].sec_first = !o[k].it.section ? -1
		               : k && !cmp_opt(o[k - 1].it.section, o[k].it.section)
		               ? o[k - 1].sec_first : (long long)o[k].pos;
	/* each category at its first ruling within its section */
	qsort(o, p->n, sizeof *o, by_category);
	for (size_t k = 0; k < p->n; k++)
		o[k].cat_first = !o[k].it.category ? -1
		               : k && !cmp_opt(o[k - 1].it.section, o[k].it.section) &&
		                 !cmp_opt(o[k - 1].it.category, o[k].it.category)
		               ? o[k - 1].cat_first : (long long)o[k].pos;
	qsort(o, p->n, sizeof *o, by_first);
	const char *section = NULL, *category = NULL;
	for (size_t k = 0; k < p->n; k++) {
		struct export_item *it = &(*items)[k];
		*it = o[k].it;
		it->new_section = it->section &&
		                  (!section || strcmp(section, it->section));
		if (it->new_section) {
			section = it->section;
			category = NULL;
		}
		it->new_category = it->category &&
		                   (it->new_section || !category ||
		                    strcmp(category, it->category));
		if (it->new_category)
			category = it->category;
	}
	free(o);
	return 0;
}

/* ---- output files -------------------------------------------------------- */

int export_open(struct export_out *o)
{
	*o = (struct export_out){0};
	o->f = open_memstream(&o->buf, &o->len);
	if (!o->f) {
		error("out of memory");
		return EXIT_SOFTWARE;
	}
	return 0;
}

void export_discard(struct export_out *o)
{
	if (o->f)
		fclose(o->f);
	free(o->buf);
	*o = (struct export_out){0};
}

/* Writes data to path through a temporary file in the same directory,
 * renamed over path: readers see the old file or the new one, whole. */
static int write_atomic(const char *path, const char *data, size_t len)
{
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
	char *tmp = malloc(dlen + sizeof ".rulings-tmp-XXXXXX");
	if (!tmp) {
		error("out of memory");
		return EXIT_SOFTWARE;
	}
	memcpy(tmp, path, dlen);
	strcpy(tmp + dlen, ".rulings-tmp-XXXXXX");
	int fd = mkstemp(tmp);
	if (fd < 0) {
		error("cannot write '%s': %s", path, strerror(errno));
		free(tmp);
		return EXIT_IO;
	}
	mode_t mask = umask(0);
	umask(mask);
	bool ok = fchmod(fd, 0666 & ~mask) == 0;
	for (size_t off = 0; ok && off < len; ) {
		ssize_t w = write(fd, data + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		ok = w > 0;
		off += ok ? (size_t)w : 0;
	}
	int err = errno;
	if (close(fd) != 0 && ok) {
		ok = false;
		err = errno;
	}
	if (ok && rename(tmp, path) != 0) {
		ok = false;
		err = errno;
	}
	if (!ok) {
		unlink(tmp);
		error("cannot write '%s': %s", path, strerror(err));
	}
	free(tmp);
	return ok ? 0 : EXIT_IO;
}

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	char *p = malloc(n + strlen(name) + 2);
	if (p)
		sprintf(p, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
	return p;
}

int export_commit(struct export_job *job, struct export_out *o,
                  const char *name)
{
	if (fclose(o->f) != 0) {
		o->f = NULL;
		export_discard(o);
		error("out of memory");
		return EXIT_SOFTWARE;
	}
	o->f = NULL;
	int status = 0;
	if (!name && strcmp(job->out, "-") == 0) {
		fwrite(o->buf, 1, o->len, stdout);
	} else if (!name) {
		status = write_atomic(job->out, o->buf, o->len);
	} else {
		char *path = join(job->out, name), *copy = strdup(name);
		if (!path || !copy || !rl_grow(&job->written, &job->written_cap,
		                               job->nwritten + 1,
		                               sizeof *job->written)) {
			error("out of memory");
			status = EXIT_SOFTWARE;
			free(copy);
		} else {
			job->written[job->nwritten++] = copy;
			status = write_atomic(path, o->buf, o->len);
		}
		free(path);
	}
	export_discard(o);
	return status;
}

/* ---- the output directory ------------------------------------------------ */

/* The names a previous export's list holds (plain names in the directory
 * only), or none. */
static int read_marker(const char *dir, char ***names, size_t *n)
{
	*names = NULL;
	*n = 0;
	char *path = join(dir, MARKER);
	if (!path)
		return oom_error();
	FILE *f = fopen(path, "r");
	free(path);
	if (!f)
		return 0;
	char *line = NULL;
	size_t cap = 0, ncap = 0;
	ssize_t len;
	int status = 0;
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (!len || line[0] == '#' || line[0] == '.' || strchr(line, '/'))
			continue;
		char *copy = strdup(line);
		if (!copy || !rl_grow(names, &ncap, *n + 1, sizeof **names)) {
			free(copy);
			status = oom_error();
			break;
		}
		(*names)[(*n)++] = copy;
	}
	free(line);
	fclose(f);
	return status;
}

/* A directory may be written when it is new (made here), empty, or holds
 * a previous export's list; --force overrides the last rule. */
static int prepare_dir(struct export_job *job, bool force)
{
	struct stat st;
	if (stat(job->out, &st) != 0) {
		if (errno != ENOENT || mkdir(job->out, 0777) != 0) {
			error("cannot create directory '%s': %s", job->out,
			      strerror(errno));
			return EXIT_IO;
		}
		return 0;
	}
	if (!S_ISDIR(st.st_mode))
		return usage_error("export", "'%s' is not a directory: --all and "
		                   "--query write one file per tag into a directory",
		                   job->out);
	DIR *d = opendir(job->out);
	if (!d) {
		error("cannot read directory '%s': %s", job->out, strerror(errno));
		return EXIT_IO;
	}
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
		return 0;
	error("refusing to write into '%s': the directory is not empty and "
	      "holds no previous export (%s); give --force to write anyway",
	      job->out, MARKER);
	return EXIT_USAGE;
}

/* After the pages: removes the pages a previous export wrote that this one
 * did not (tags that are gone), then lists what this one wrote. */
static int finish_dir(struct export_job *job)
{
	char **old;
	size_t nold;
	int status = read_marker(job->out, &old, &nold);
	for (size_t k = 0; k < nold && !status; k++) {
		bool kept = false;
		for (size_t w = 0; w < job->nwritten && !kept; w++)
			kept = strcmp(old[k], job->written[w]) == 0;
		char *path = kept ? NULL : join(job->out, old[k]);
		if (path && unlink(path) != 0 && errno != ENOENT) {
			error("cannot remove '%s': %s", path, strerror(errno));
			status = EXIT_IO;
		}
		free(path);
	}
	rl_strings_free(old, nold);
	if (status)
		return status;
	struct rl_buf b = {0};
	rl_buf_adds(&b, MARKER_HEAD);
	for (size_t w = 0; w < job->nwritten; w++)
		rl_buf_addf(&b, "%s\n", job->written[w]);
	char *path = join(job->out, MARKER);
	if (b.oom || !path) {
		rl_buf_free(&b);
		free(path);
		error("out of memory");
		return EXIT_SOFTWARE;
	}
	status = write_atomic(path, b.s, b.len);
	rl_buf_free(&b);
	free(path);
	return status;
}

/* ---- json: the records search gives -------------------------------------- */

/* The XML interchange document: the library writes it to a file, whole or
 * not at all; for standard output, to a temporary file first. */
static int export_xml(struct export_job *job)
{
	rl_db *db = job->c->db;
	if (strcmp(job->out, "-") != 0) {
		int rc = rl_export_xml(db, job->ids, job->n, job->out);
		if (rc)
			error("export: %s", rl_db_errmsg(db));
		return rc ? exit_status(rc) : 0;
	}
	const char *dir = getenv("TMPDIR");
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s/rulings-export-XXXXXX",
	         dir && *dir ? dir : "/tmp");
	int fd = mkstemp(tmp);
	if (fd < 0) {
		error("export: cannot create a temporary file in %s: %s",
		      dir && *dir ? dir : "/tmp", strerror(errno));
		return EXIT_IO;
	}
	close(fd);
	int status = 0;
	int rc = rl_export_xml(db, job->ids, job->n, tmp);
	if (rc) {
		error("export: %s", rl_db_errmsg(db));
		status = exit_status(rc);
	}
	FILE *in = status ? NULL : fopen(tmp, "rb");
	if (!status && !in) {
		error("export: %s: %s", tmp, strerror(errno));
		status = EXIT_IO;
	}
	struct export_out o;
	if (!status && !(status = export_open(&o))) {
		char buf[65536];
		size_t n;
		while ((n = fread(buf, 1, sizeof buf, in)) > 0)
			fwrite(buf, 1, n, o.f);
		if (ferror(in)) {
			error("export: %s: read error", tmp);
			export_discard(&o);
			status = EXIT_IO;
		} else {
			status = export_commit(job, &o, NULL);
		}
	}
	if (in)
		fclose(in);
	unlink(tmp);
	return status;
}

static int export_json(struct export_job *job)
{
	struct export_out o;
	int status = export_open(&o);
	if (status)
		return status;
	print_results_to(o.f, &job->sel);
	return export_commit(job, &o, NULL);
}

/* ---- the command --------------------------------------------------------- */

static void job_free(struct export_job *job)
{
	for (size_t i = 0; i < job->n; i++)
		if (job->loaded && job->loaded[i])
			rl_ruling_clear(&job->full[i]);
	free(job->full);
	free(job->loaded);
	free(job->ids);
	free(job->home);
	for (size_t k = 0; k < job->npages; k++) {
		free(job->pages[k].title);
		free(job->pages[k].file);
		free(job->pages[k].v);
	}
	free(job->pages);
	free(job->by_title);
	free(job->by_id);
	rl_strings_free(job->written, job->nwritten);
	rl_results_free(&job->sel);
}

/* Keeps the rulings that carry --tag exactly (case aside). */
static int keep_exact(struct export_job *job)
{
	char *want = rl_fold(job->tag);
	if (!want)
		return oom_error();
	size_t kept = 0;
	bool oom = false;
	for (size_t i = 0; i < job->sel.n; i++) {
		struct rl_ruling *r = &job->sel.v[i];
		bool has = false;
		for (size_t k = 0; k < r->ntags && !has; k++) {
			char *f = rl_fold(r->tags[k]);
			oom |= !f;
			has = f && strcmp(f, want) == 0;
			free(f);
		}
		if (has)
			job->sel.v[kept++] = *r;
		else
			rl_ruling_clear(r);
	}
	free(want);
	job->sel.n = kept;
	job->sel.total = (long long)kept;
	if (oom)
		return oom_error();
	if (!kept) {
		error("export: no ruling carries the tag '%s' itself (a %s page "
		      "is one tag: give it with its qualifier)", job->tag,
		      job->format->name);
		return EXIT_NOTHING;
	}
	return 0;
}

/* Splits --query WORDS at blanks into words, as the shell would have. */
static char **split_words(const char *s, size_t *n)
{
	char **v = NULL;
	size_t cap = 0;
	*n = 0;
	while (*s) {
		size_t k;
		while ((k = rl_blank_len(s)) != 0 || *s == '\n')
			s += k ? k : 1;
		if (!*s)
			break;
		const char *w = s;
		while (*s && *s != '\n' && !rl_blank_len(s))
			s++;
		char *word = rl_strndup(w, (size_t)(s - w));
		if (!word || !rl_grow(&v, &cap, *n + 1, sizeof *v)) {
			free(word);
			rl_strings_free(v, *n);
			*n = (size_t)-1;
			return NULL;
		}
		v[(*n)++] = word;
	}
	return v;
}

int cmd_export(struct ctx *c, int argc, char **argv)
{
	enum { OPT_FORCE = 256, OPT_NO_THESAURUS };
	static const struct option opts[] = {
		{ "tag", required_argument, NULL, 't' },
		{ "query", required_argument, NULL, 'q' },
		{ "all", no_argument, NULL, 'a' },
		{ "lang", required_argument, NULL, 'l' },
		{ "game", required_argument, NULL, 'g' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "no-thesaurus", no_argument, NULL, OPT_NO_THESAURUS },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct export_job job = { .c = c };
	struct rl_query q = {0};
	const char *query = NULL, *fmt = NULL, *tags[1];
	bool all = false, force = false;
	int opt, status = EXIT_USAGE, selections = 0;
	char **words = NULL;
	size_t nwords = 0;
	reset_opts();
	while ((opt = next_opt(argc, argv, ":t:q:al:g:f:o:h", opts, "export",
	                       &status)) != -1) {
		switch (opt) {
		case 't':
			if (!*optarg)
				return usage_error("export", "--tag needs a tag");
			job.tag = optarg;
			selections++;
			break;
		case 'q': query = optarg; selections++; break;
		case 'a': all = true; selections++; break;
		case 'l':
		case 'g': {
			enum out_format unused;
			if (!query_option(opt, optarg, "export", &q, tags, &unused,
			                  &status) || status)
				return status;
			break;
		}
		case 'f': fmt = optarg; break;
		case 'o': job.out = optarg; break;
		case OPT_FORCE: force = true; break;
		case OPT_NO_THESAURUS: q.no_thesaurus = true; break;
		case 'h':
			command_help(find_command("export"), options_help);
			return 0;
		default:
			return status;
		}
	}
	if (optind < argc)
		return usage_error("export", "unexpected argument '%s' (words to "
		                   "search for go in --query)", argv[optind]);
	if (selections != 1 || (all && (job.tag || query)))
		return usage_error("export", "give one of --tag T, --query WORDS "
		                   "or --all");
	if (!fmt)
		return usage_error("export", "give --format (txt, md, html, json, "
		                   "xml)");
	for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
		if (strcmp(formats[i].name, fmt) == 0)
			job.format = &formats[i];
	if (!job.format)
		return usage_error("export", "unknown format '%s' (txt, md, html, "
		                   "json, xml)", fmt);
	if (!job.out || !*job.out)
		return usage_error("export", "give -o PATH (a file, - for standard "
		                   "output, or a directory)");
	job.tree = job.format->pages && !job.tag;
	if (job.tree && strcmp(job.out, "-") == 0)
		return usage_error("export", "--all and --query with --format %s "
		                   "write a directory, not standard output",
		                   job.format->name);
	if (query) {
		words = split_words(query, &nwords);
		if (nwords == (size_t)-1) {
			error("out of memory");
			return EXIT_SOFTWARE;
		}
		if (!nwords) {
			free(words);
			return usage_error("export", "--query needs words");
		}
		q.words = (const char *const *)words;
		q.nwords = nwords;
	}
	if (job.tag) {
		tags[0] = job.tag;
		q.tags = tags;
		q.ntags = 1;
	}
	if ((status = open_db(c)) != 0)
		goto out;
	int rc = rl_search(c->db, &q, &job.sel);
	if (rc == RL_NOTFOUND) {
		if (job.sel.unknown)
			error("export: %s", job.sel.unknown);
		else
			error("export: no ruling matches");
		status = EXIT_NOTHING;
		goto out;
	}
	if (rc) {
		error("export: %s", rl_db_errmsg(c->db));
		status = exit_status(rc);
		goto out;
	}
	if (job.tag && job.format->exact_tag && (status = keep_exact(&job)) != 0)
		goto out;
	job.n = job.sel.n;
	job.ids = malloc(job.n * sizeof *job.ids);
	job.full = calloc(job.n, sizeof *job.full);
	job.loaded = calloc(job.n, sizeof *job.loaded);
	if (!job.ids || !job.full || !job.loaded) {
		error("out of memory");
		status = EXIT_SOFTWARE;
		goto out;
	}
	for (size_t i = 0; i < job.n; i++)
		job.ids[i] = job.sel.v[i].id;
	if ((status = make_pages(&job)) != 0)
		goto out;
	if (job.tree && (status = prepare_dir(&job, force)) != 0)
		goto out;
	status = job.format->write(&job);
	if (!status && job.tree)
		status = finish_dir(&job);
out:
	rl_strings_free(words, nwords);
	job_free(&job);
	return status;
}
