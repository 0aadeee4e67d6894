/* export.h — rulings export: what the format writers share. The command
 * (cmd_export.c) selects rulings with the library's query code, makes the
 * pages (one per tag, or the one --tag names) and the output files; each
 * writer (export_text.c, export_html.c) turns them into its format. */
#ifndef RL_CLI_EXPORT_H
#define RL_CLI_EXPORT_H

#include "cli.h"

#include <stdbool.h>
#include <stdio.h>

/* One page: a tag and the selected rulings that carry it. */
struct export_page {
	char *title;          /* the tag's display form; NULL: rulings with no tag */
	char *file;           /* its file name in the output directory */
	size_t *v;            /* indexes into the selection, in its order */
	size_t n, cap;
};

/* A page's rulings in the order they are written: by section, then by
 * category (each in the order of its first ruling; none first), then as
 * selected. */
struct export_item {
	size_t i;             /* index into the selection */
	const char *section, *category;   /* the ruling's, or NULL */
	bool new_section;     /* the first item of its section: a heading */
	bool new_category;    /* the first of its category in its section */
};

struct export_format;

struct export_job {
	struct ctx *c;
	const struct export_format *format;
	const char *out;          /* -o: a file, "-" (standard output) or a
	                             directory */
	bool tree;                /* a directory of pages */
	const char *tag;          /* --tag, or NULL */
	/* the selection, in order, as search gives it */
	struct rl_results sel;
	long long *ids;           /* their ids, the list any writer can take */
	size_t n;
	struct rl_ruling *full;   /* rl_show() of each, loaded on demand */
	bool *loaded;
	size_t *home;             /* the page each ruling is linked to */
	struct export_page *pages;
	size_t npages;
	size_t *by_title;         /* page indexes sorted by title (strcmp) */
	struct { long long id; size_t i; } *by_id;   /* sorted by id */
	/* the files written into the directory, for its list */
	char **written;
	size_t nwritten, written_cap;
};

/* A format: its name for --format, the extension of its pages, whether
 * --all and --query write a directory of pages (else one file), whether
 * a page's tag is data (--tag T then keeps only the rulings that carry T
 * exactly, not T with any qualifier: the faq-tags importer gives the
 * page's tag to every entry), and its writer (0 or the exit status, after
 * a message). */
struct export_format {
	const char *name;
	const char *ext;
	bool pages;
	bool exact_tag;
	int (*write)(struct export_job *job);
};

/* The ruling of selection index i with its references and back-links
 * (rl_show), loaded once: NULL after an error message. */
const struct rl_ruling *export_ruling(struct export_job *job, size_t i);
/* The selection index of ruling id: false when it is not exported. */
bool export_find(const struct export_job *job, long long id, size_t *i);
/* The page of a tag (its exact display form), or NULL. */
const struct export_page *export_page_of(const struct export_job *job,
                                         const char *tag);
/* The rulings of a page in writing order, with where each section and
 * category heading goes; *items is the caller's to free.
 * 0 or the exit status after a message. */
int export_order(struct export_job *job, const struct export_page *p,
                 struct export_item **items);

/* Output to one file: the writer writes to o->f (in memory), then
 * export_commit() puts it in place — name in the output directory, or the
 * single file (-o FILE, or standard output for "-") when name is NULL —
 * atomically (a temporary file renamed). 0 or the exit status. */
struct export_out {
	FILE *f;
	char *buf;
	size_t len;
};
int export_open(struct export_out *o);
int export_commit(struct export_job *job, struct export_out *o,
                  const char *name);
/* Frees an output that was not committed. */
void export_discard(struct export_out *o);

/* The writers. */
int export_txt(struct export_job *job);
int export_md(struct export_job *job);
int export_html(struct export_job *job);

#endif
