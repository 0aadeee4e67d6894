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

/* What a page is: a tag's, or a part of a book (export_book.c). */
enum export_page_kind {
	EXPORT_PAGE_TAG,      /* a tag, or the rulings with no tag */
	EXPORT_PAGE_TOC,      /* a book's table of contents */
	EXPORT_PAGE_RULES,    /* a chapter or a section of a book's rules */
	EXPORT_PAGE_LETTER,   /* the entries of a book's glossary under a letter */
	EXPORT_PAGE_GAME,     /* a game: its books and the pages of its tags */
};

/* One page: a tag and the selected rulings that carry it, or a part of
 * a book. */
struct export_page {
	enum export_page_kind kind;
	size_t book;          /* a book's page: the book's index */
	size_t lo, hi;        /* a book's page: its rulings, in the book's
	                         order (export_book.rules or .gloss) */
	bool one_head;        /* a page of rules of one section, its title */
	char *title;          /* the tag as stored (NULL: rulings with no
	                         tag), or the book page's heading */
	char *key;            /* the tag's identity (tag_key()); NULL likewise */
	char *file;           /* its file name in the output directory */
	const char *feed;     /* its Atom feed's (export_changes.c), or NULL */
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
	/* In a book (export_book.c): the book's index + 1 (0: none), whether
	 * it is a numbered rule ('r') or a glossary entry ('g'), and its
	 * place: the rule number, or the entry's letter. */
	size_t book;
	char bkind;
	const char *place;
};

/* A rulebook: the numbered rules and glossary entries of one document,
 * laid out as a table of contents and pages (export_book.c). */
struct export_book {
	long long doc;
	char *title;
	const char *lang, *game;
	size_t *rules, nrules;    /* selection indexes, in number order */
	size_t *gloss, ngloss;    /* selection indexes, by letter */
	/* the chapter or section heads: rule numbers with no dot, in
	 * order, each with its rule's title (NULL: no such rule) and
	 * whether it is a chapter (a head the others begin with) */
	struct export_head {
		const char *num, *chap;   /* chap: its chapter's num, or num */
		char *title;
		bool chapter, owned;      /* owned: num is the head's own */
		size_t page;              /* the page it opens on */
	} *heads;
	size_t nheads;
	size_t *sizes;            /* the bytes of each head's rules */
	size_t toc;               /* its pages: toc, then toc + 1 .. end */
	size_t end;
};

/* Strings kept once each: a hash set of copies. */
struct export_strings {
	char **slot;
	size_t n, cap;
};
void export_strings_free(struct export_strings *t);
/* The kept copy of s (NULL for NULL); sets *oom when memory ran out. */
const char *export_intern(struct export_strings *t, const char *s, bool *oom);

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
	struct export_book *books;
	size_t nbooks;
	size_t *home;             /* the page each ruling is linked to, or
	                             (size_t)-1 */
	struct export_page *pages;
	size_t npages;
	size_t *by_key;           /* page indexes sorted by key */
	struct { long long id; size_t i; } *by_id;   /* sorted by id */
	struct rl_export_report report;
	/* A site's changes (export_changes.c): rl_changes()'s, and which of
	 * them the site shows (cinfo: newest date first), each with the
	 * pages whose feeds carry it; the files beside the pages. */
	bool feeds;
	struct rl_change *changes;
	size_t nchanges;
	struct export_change {
		size_t c;             /* index into changes */
		size_t i;             /* its ruling in the selection, or -1 */
		size_t *pages, npages;
	} *cinfo;
	size_t ncinfo;
	struct export_extra {
		char *file;
		long page;            /* -2: changes.html, -1: changes.atom, else
		                         the page whose feed it is */
	} *extra;
	size_t nextra;
	char *scope;              /* what the export selected, for feed ids */
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
/* Books (export_book.c): which rulings are in one, before the tag
 * pages are made; then the books' pages, appended to the pages. */
int export_books_find(struct rl_export *x);
int export_books_pages(struct rl_export *x, size_t *cap);
/* A page per game of the selection (its title the game), appended. */
int export_game_pages(struct rl_export *x, size_t *cap);
/* The page of game, or NULL. */
const struct export_page *export_game_page(const struct rl_export *x,
                                           const char *game);
void export_books_free(struct rl_export *x);
/* The compare of rule numbers, in a book's order. */
int export_rule_cmp(const struct export_book *b, const char *x, const char *y);
/* The head (chapter or section) of rule number num, or NULL. */
const struct export_head *export_head_of(const struct export_book *b,
                                         const char *num);
/* A head's heading, "702. Keyword Abilities" (its number alone when no
 * rule has it); a new string. */
char *export_head_title(const struct export_head *h);
/* The language of most of rulings v[0..n) of the selection (v NULL: all
 * of them; game not NULL: only that game's), NULL when none has one. */
const char *export_majority_lang(const struct rl_export *x, const size_t *v,
                                 size_t n, const char *game);
/* How many rulings of page p are of game (NULL: all of them). */
size_t export_page_count(const struct rl_export *x, const struct export_page *p,
                         const char *game);
/* The anchor of ruling i on page p: the rule number on a book's page,
 * else "r" and its id; a new string. */
char *export_anchor(const struct rl_export *x, const struct export_page *p,
                    size_t i);

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

/* A page of a text format (txt): its title, then for each ruling in
 * page order (items, p->n of them) its section and category headings and
 * its entry, the ruling loaded with its references (export_plan.c). */
struct export_text_format {
	void (*title)(const struct rl_export *x, struct rl_out *o,
	              const struct export_page *p,
	              const struct export_item *items);
	void (*headings)(const struct rl_export *x, struct rl_out *o,
	                 const struct export_item *items, size_t k);
	int (*entry)(struct rl_export *x, struct rl_out *o,
	             const struct export_page *p, const struct rl_ruling *r);
};
int export_text_page(struct rl_export *x, const struct export_page *p,
                     const struct rl_sink *out,
                     const struct export_text_format *f);

/* A site's changes page and feeds (export_changes.c): planned when the
 * format has feeds and the export is a directory, after the pages; then
 * extra file k rendered. */
int export_changes_plan(struct rl_export *x, const struct rl_export_opts *o);
void export_changes_free(struct rl_export *x);
int export_changes_render(struct rl_export *x, size_t k,
                          const struct rl_sink *out);
/* The feed of page p (NULL: the site's), and the changes page; NULL when
 * the export has none. */
const char *export_feed_of(const struct rl_export *x,
                           const struct export_page *p);
const char *export_changes_page(const struct rl_export *x);
/* An edit's old and new text as the word diff compares them: the titles
 * first when they differ, then the texts. New strings (both NULL and
 * RL_ENOMEM when memory ran out; export_atom.c). */
int export_change_texts(const struct rl_change *c, char **old, char **new);

/* The renderers (one per format). */
int export_txt_page(struct rl_export *x, size_t page, const struct rl_sink *out);
int export_md_page(struct rl_export *x, size_t page, const struct rl_sink *out);
int export_md_index(struct rl_export *x, const struct rl_sink *out);
int export_html_page(struct rl_export *x, size_t page, const struct rl_sink *out);
int export_html_index(struct rl_export *x, const struct rl_sink *out);
int export_html_book_page(struct rl_export *x, size_t page,
                          const struct rl_sink *out);
int export_html_game_page(struct rl_export *x, size_t page,
                          const struct rl_sink *out);
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

/* s as XML 1.0 can carry it: *out is s itself, or a copy (*owned, to
 * free) with U+FFFD for each character XML cannot hold (a C0 control
 * other than tab and line breaks, U+FFFE, U+FFFF). RL_EDATA when s is not
 * UTF-8 (a damaged database), RL_ENOMEM; no message (export_xml.c). */
int export_xml_safe(const char *s, const char **out, char **owned);

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

/* Runs body(w, ctx) with a libxml2 text writer on sink (its errors quiet),
 * then frees the writer, which flushes the rest. The caller's *failed,
 * set when a write of body's failed, and the sink's first error make the
 * result RL_ENOMEM or RL_EIO (export_xml.c; the XML export and the Atom
 * feeds). */
struct _xmlTextWriter;
int export_xml_write(rl_db *db, const struct rl_sink *sink,
                     int (*body)(struct _xmlTextWriter *w, void *ctx),
                     void *ctx, const bool *failed);

/* Ends a renderer's output: rl_out_finish(), with a message in db for a
 * failure (the caller names the file when it knows it). */
int export_finish(struct rl_export *x, struct rl_out *o);

#endif
