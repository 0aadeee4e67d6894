/* export_html.h — what the two halves of the HTML renderer share: the
 * page being built (export_html.c: the page, streaming, the index) and
 * one ruling's entry (export_html_entry.c). */
#ifndef RL_EXPORT_HTML_H
#define RL_EXPORT_HTML_H

#include "export.h"
#include "msg.h"

#include <libxml/tree.h>

/* A page being built. Its entries are streamed: each is a small tree,
 * serialized and freed before the next is built. */
struct page_doc {
	struct rl_export *x;
	const struct export_page *page;   /* NULL for the index */
	/* languages: the page's (its <html lang>), its interface words'
	 * (the page's when the catalog has it, else English) and that of
	 * the element being built (an entry's own lang inside it) */
	const char *lang;
	const struct msg_lang *ui;
	const char *ctx;
	xmlDocPtr doc;
	xmlNodePtr body;
	int rc;                 /* the first failure (RL_ENOMEM for a node) */
	/* streaming: the output, and two placeholder comments in the
	 * element whose children are streamed */
	xmlOutputBufferPtr ob;
	struct export_xml_out out;   /* the sink and its error */
	xmlNodePtr mark[2];
	char *suffix;           /* what follows the streamed children */
	size_t nsuffix;
};

/* Element name under parent, with text (NULL: none); NULL after a failure,
 * which d->rc keeps. The serializer escapes every text and attribute. */
xmlNodePtr html_el(struct page_doc *d, xmlNodePtr parent, const char *name,
                   const char *text);
void html_attr(struct page_doc *d, xmlNodePtr n, const char *name,
               const char *value);
void html_text_len(struct page_doc *d, xmlNodePtr parent, const char *s,
                   size_t n);
void html_text(struct page_doc *d, xmlNodePtr parent, const char *s);
xmlNodePtr html_link(struct page_doc *d, xmlNodePtr parent, const char *href,
                     const char *label);
/* Interface words (msg.h) in the page's interface language. html_ui_mark
 * gives node a lang when the element it is in has another language (an
 * English entry on a Russian page: its "Теги: " carries lang="ru");
 * html_ui_el and html_ui_text mark what they make. html_count: a count
 * in its plural form, a new string (NULL after a failure). */
const char *html_msg(struct page_doc *d, enum rl_msg id);
char *html_count(struct page_doc *d, enum rl_msg id, size_t n);
/* Two counts, "3 rules, 5 glossary entries", a zero one left out beside
 * the other ("3 rules"): a new string (NULL after a failure). */
char *html_two_counts(struct page_doc *d, enum rl_msg a, size_t na,
                      enum rl_msg b, size_t nb);
void html_ui_mark(struct page_doc *d, xmlNodePtr node);
xmlNodePtr html_ui_el(struct page_doc *d, xmlNodePtr parent, const char *name,
                      const char *text);
void html_ui_text(struct page_doc *d, xmlNodePtr parent, const char *s);
/* The most frequent language of the rulings v[0..n) of the export (all
 * of them when v is NULL) that are of game (any when NULL); NULL for
 * none. */
const char *html_majority_lang(const struct rl_export *x, const size_t *v,
                               size_t n, const char *game);

/* A page: opened on out, its frame (head, body, the link to the index
 * in a site), written whole, closed (RL_OK or its first failure, with a
 * message) (export_html.c). */
void html_page_open(struct page_doc *d, struct rl_export *x,
                    const struct export_page *p, const struct rl_sink *out);
void html_begin(struct page_doc *d, const char *title, const char *lang);
void html_write_whole(struct page_doc *d);
int html_page_close(struct page_doc *d);

/* Keeps the first failure; returns rc. */
int html_fail(struct page_doc *d, int rc);

/* Text with the FAQ's inline markup as HTML: **strong**, *emphasis*,
 * [label](https://…) links (export_html_entry.c). */
void html_inline(struct page_doc *d, xmlNodePtr parent, const char *s,
                 size_t n);

/* Where ruling i is: "#r12" on this page, "file.html#r12" on its home
 * page; NULL when the export does not hold it, or after a failure. A new
 * string. */
char *html_href_ruling(struct page_doc *d, size_t i);
/* The entry of ruling i (selection index), a new last child of parent,
 * its title a heading of level (2 to 6: one below the heading it is
 * under); NULL after a failure. */
xmlNodePtr html_entry(struct page_doc *d, xmlNodePtr parent, size_t i,
                      int level);

#endif
