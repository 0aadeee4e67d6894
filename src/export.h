/* export.h — what the export renderers share inside the library: the plan
 * (export_plan.c: the selection, its pages and their order) that every
 * format renders, cmark-style, one renderer per format (export_txt.c,
 * export_md.c, export_html.c, export_xml.c); export.c puts the output in
 * place (one file, standard output, or a directory of pages). */
#ifndef RL_EXPORT_H
#define RL_EXPORT_H

#include "db.h"
#include "sink.h"

#include <stdbool.h>
#include <stddef.h>

/* One page: a tag and the selected rulings that carry it. */
struct export_page {
	char *title;          /* the tag as stored; NULL: rulings with no tag */
	char *key;            /* the tag's identity (tag_key()); NULL likewise */
	char *file;           /* its file name in the output directory */
	size_t *v;            /* indexes into the selection, ascending (the
	                         selection's order), each once */
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

/* What planning keeps of a selected ruling (export_select.c); the
 * strings are the export's, kept once each. */
struct export_ruling {
	long long id;
	const char *lang, *game, *section, *category;   /* NULL: none */
	size_t tag0, ntags;       /* its tags: tagv[tag0 .. tag0 + ntags) */
};

/* Strings kept once each: a hash set of copies. */
struct export_strings {
	char **slot;
	size_t n, cap;
};
void export_strings_free(struct export_strings *t);

struct rl_export {
	rl_db *db;
	const struct rl_export_format *format;
	bool tree;                /* a directory of pages */
	const char *tag;          /* the option, or NULL */
	/* The selection, in order, as rl_search() gives it. */
	struct export_ruling *v;
	size_t n, vcap;
	const char **tagv;        /* the tags of every ruling, in a row */
	size_t ntagv, tagcap;
	long long *ids;           /* the rulings' ids, in order */
	struct export_strings strings;
	/* rl_search()'s results whole, for a format that reads records */
	struct rl_results sel;
	size_t *home;             /* the page each ruling is linked to, or
	                             (size_t)-1 */
	struct export_page *pages;
	size_t npages;
	size_t *by_key;           /* page indexes sorted by key */
	struct { long long id; size_t i; } *by_id;   /* sorted by id */
	struct rl_export_report report;
};

/* Plans the export (export_plan.c): the selection, then the pages. */
int export_plan(struct rl_export *x, const struct rl_export_opts *o);
int export_select(struct rl_export *x, const struct rl_export_opts *o);
/* The title of ruling i of the selection, a new string. */
int export_title(struct rl_export *x, size_t i, char **title);
void export_plan_free(struct rl_export *x);

/* The canonical display form of a tag given as displayed ("Name
 * (Qualifier)") and its identity (export_tag_key()), new strings; either
 * pointer may be NULL (export_names.c). */
int export_tag_canonical(const char *display, char **shown, char **key);
/* The identity of a tag given as displayed ("Name (Qualifier)"): its
 * canonical name and qualifier (rl_tag_parse), case folded, joined by
 * U+001F. Spellings of one tag give one key, different tags different
 * ones. A new string; NULL when memory ran out. */
char *export_tag_key(const char *display);

/* Ruling i of the selection with its references and back-links
 * (rl_show); the caller clears it. */
int export_ruling(struct rl_export *x, size_t i, struct rl_ruling *out);
/* The selection index of ruling id: false when it is not exported. */
bool export_find(const struct rl_export *x, long long id, size_t *i);
/* The page of a tag (any spelling of it), or NULL when it has none. */
int export_page_of(const struct rl_export *x, const char *tag,
                   const struct export_page **page);
/* Whether ruling i is on page p. */
bool export_on_page(const struct export_page *p, size_t i);
/* The rulings of a page in writing order, with where each section and
 * category heading goes; *items is the caller's to free. */
int export_order(const struct rl_export *x, const struct export_page *p,
                 struct export_item **items);

/* A page of a text format (txt, md): its title, then for each ruling in
 * page order its section and category headings and its entry, the
 * ruling loaded with its references (export_plan.c). */
struct export_text_format {
	void (*title)(struct rl_out *o, const struct export_page *p);
	void (*headings)(struct rl_out *o, const struct export_item *it,
	                 size_t k);
	int (*entry)(struct rl_export *x, struct rl_out *o,
	             const struct rl_ruling *r);
};
int export_text_page(struct rl_export *x, const struct export_page *p,
                     const struct rl_sink *out,
                     const struct export_text_format *f);

/* The renderers (one per format). */
int export_txt_page(struct rl_export *x, size_t page, const struct rl_sink *out);
int export_md_page(struct rl_export *x, size_t page, const struct rl_sink *out);
int export_html_page(struct rl_export *x, size_t page, const struct rl_sink *out);
int export_html_index(struct rl_export *x, const struct rl_sink *out);
int export_xml_all(struct rl_export *x, const struct rl_sink *out);

struct _xmlError;
struct _xmlOutputBuffer;

/* A libxml2 output buffer writing to a sink, whose first error it keeps
 * in err (export_xml.c). */
struct export_xml_out {
	const struct rl_sink *sink;
	int err;
};
struct _xmlOutputBuffer *export_xml_output(struct export_xml_out *o);

/* libxml2 prints its problems by default, and the library never prints:
 * between these two, its error handlers are quiet (export_xml.c). */
struct export_xml_errors {
	void (*s)(void *, struct _xmlError *);
	void *s_ctx;
	void (*g)(void *, const char *, ...);
	void *g_ctx;
};
void export_xml_quiet(struct export_xml_errors *save);
void export_xml_restore(const struct export_xml_errors *save);

/* Ends a renderer's output: rl_out_finish(), with a message in db for a
 * failure (the caller names the file when it knows it). */
int export_finish(struct rl_export *x, struct rl_out *o);

#endif
