/* export_html.c — pages as HTML: with a tag option one self-contained
 * file, else a static site (index.html and one page per tag).
 *
 * Every page is a libxml2 tree (element and text nodes, attributes through
 * xmlNewProp), saved as UTF-8 HTML: no markup is ever pasted from strings,
 * so every text from the database is escaped by the serializer. No
 * JavaScript; the style sheet is a fixed string in a <style> element. Only
 * HTML 4 elements, so that libxml2's own HTML parser (xmllint --html) reads
 * the pages back without a complaint.
 *
 * A page of 200 000 rulings must not hold 200 000 entries in memory: the
 * page's frame is built and serialized with two placeholder comments where
 * its entries go, and the part before them is written; then each entry
 * (with the section and category headings before it) is built, inserted
 * before the placeholders, serialized alone and freed; then the part after
 * them. libxml2's HTML serializer decides the line breaks around an
 * element from its parent and its next sibling only, so an entry
 * serialized this way gives the bytes it gives in the whole page (the
 * last one is serialized without the placeholders after it). */
#include "export_html.h"
#include "util.h"

#include <libxml/HTMLtree.h>
#include <libxml/xmlsave.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char INDEX[] = "index.html";
static const char MARK[] = "rulings-stream";
static const char MARK_TEXT[] = "<!--rulings-stream-->";

static const char CSS[] =
	"body{font:16px/1.45 system-ui,sans-serif;max-width:52em;margin:0 auto;"
	"padding:0 1em 3em;color:#222;background:#fff}"
	".header{padding:.6em 0;border-bottom:1px solid #ddd}"
	"h2{margin-top:2em;border-bottom:2px solid #446}"
	"h3{margin-top:1.5em;color:#446}"
	"div.entry{border-left:3px solid #ccd;padding:.1em 0 .1em 1em;"
	"margin:1.2em 0}"
	"div.entry:target{border-left-color:#c60;background:#fff8ee}"
	"div.entry>h2,div.entry>h3,div.entry>h4,div.entry>h5{margin:.3em 0;"
	"font-size:1.05em;border:0;color:inherit}"
	".pager{margin:1em 0;font-size:.9em}.pager span{margin-right:1.5em}"
	"div.rule{margin:.4em 0}div.rule div.rule{margin-left:1.5em}"
	"div.rule:target{background:#fff8ee}a.num{font-weight:bold;"
	"text-decoration:none;margin-right:.2em}dt{font-weight:bold;"
	"margin-top:.8em}"
	"a.anchor{color:#aaa;text-decoration:none;margin-right:.3em}"
	".badge{font-size:.75em;font-weight:normal;background:#c60;color:#fff;"
	"border-radius:.3em;padding:.05em .4em;margin-left:.5em}"
	".meta,.tags,.refs,.errata,.backlinks{font-size:.85em;color:#555;"
	"margin:.3em 0}"
	".wdiff{white-space:pre-wrap;font-size:.9em}"
	"del{background:#fdd;color:#900}ins{background:#dfd;color:#060;"
	"text-decoration:none}"
	".other{background:#f4f4fa;padding:.5em 1em;border-radius:.3em}"
	"ul.index{columns:2}";

/* ---- the frame ------------------------------------------------------------- */

/* The frame of a page: head, body, the link to the index in a site. The
 * page's interface words are in its language when the catalog has it. */
void html_begin(struct page_doc *d, const char *title, const char *lang)
{
	d->lang = d->ctx = lang && *lang ? lang : "en";
	d->ui = msg_lang_or_en(d->lang);
	d->doc = htmlNewDocNoDtD(NULL, NULL);
	xmlNodePtr html = d->doc ? xmlNewNode(NULL, BAD_CAST "html") : NULL;
	if (!html || !xmlCreateIntSubset(d->doc, BAD_CAST "html", NULL, NULL)) {
		xmlFreeNode(html);
		html_fail(d, RL_ENOMEM);
		return;
	}
	xmlDocSetRootElement(d->doc, html);
	html_attr(d, html, "lang", lang ? lang : "en");
	xmlNodePtr head = html_el(d, html, "head", NULL);
	xmlNodePtr meta = html_el(d, head, "meta", NULL);
	html_attr(d, meta, "name", "viewport");
	html_attr(d, meta, "content", "width=device-width, initial-scale=1");
	html_el(d, head, "title", title);
	html_el(d, head, "style", CSS);
	/* the page's feed of changes (export_changes.c) */
	const char *feed = d->x->tree ? export_feed_of(d->x, d->page) : NULL;
	if (feed) {
		xmlNodePtr ln = html_el(d, head, "link", NULL);
		html_attr(d, ln, "rel", "alternate");
		html_attr(d, ln, "type", "application/atom+xml");
		html_attr(d, ln, "href", feed);
		html_attr(d, ln, "title", html_msg(d, MSG_CHANGES));
	}
	d->body = html_el(d, html, "body", NULL);
	if (d->x->tree) {
		xmlNodePtr nav = html_el(d, d->body, "div", NULL);
		html_attr(d, nav, "class", "header");
		html_ui_mark(d, html_link(d, nav, INDEX, html_msg(d, MSG_ALL_TAGS)));
		if (export_changes_page(d->x)) {
			html_text(d, nav, " \xC2\xB7 ");
			html_ui_mark(d, html_link(d, nav, export_changes_page(d->x),
			                          html_msg(d, MSG_CHANGES)));
		}
	}
}

/* ---- output -------------------------------------------------------------- */

/* The page serialized (UTF-8; the serializer adds the charset) into a
 * new buffer. */
static xmlBufferPtr serialize(struct page_doc *d)
{
	xmlBufferPtr buf = d->rc ? NULL : xmlBufferCreate();
	xmlSaveCtxtPtr sc = buf ? xmlSaveToBuffer(buf, "UTF-8", XML_SAVE_AS_HTML |
	                                          XML_SAVE_FORMAT) : NULL;
	bool ok = sc && xmlSaveDoc(sc, d->doc) >= 0;
	if (sc && xmlSaveClose(sc) < 0)
		ok = false;
	if (!ok) {
		xmlBufferFree(buf);
		html_fail(d, RL_ENOMEM);
		return NULL;
	}
	return buf;
}

/* Starts streaming the children of parent: serializes the page with the
 * placeholders in parent and writes what comes before them. */
static void stream_begin(struct page_doc *d, xmlNodePtr parent)
{
	for (int k = 0; k < 2 && !d->rc; k++)
		if (!(d->mark[k] = xmlNewComment(BAD_CAST MARK)) ||
		    !xmlAddChild(parent, d->mark[k])) {
			xmlFreeNode(d->mark[k]);
			d->mark[k] = NULL;
			html_fail(d, RL_ENOMEM);
		}
	xmlBufferPtr buf = serialize(d);
	if (!buf)
		return;
	const char *s = (const char *)xmlBufferContent(buf);
	size_t len = (size_t)xmlBufferLength(buf), m = sizeof MARK_TEXT - 1;
	/* the placeholders are the last thing in the page before the closing
	 * tags: the last two marks, side by side */
	const char *last = NULL;
	for (const char *p = s; p < s + len &&
	     (p = strstr(p, MARK_TEXT)) != NULL; p++)
		last = p;
	if (!last || last - s < (ptrdiff_t)m || memcmp(last - m, MARK_TEXT, m)) {
		html_fail(d, rl_db_fail(d->x->db, RL_EINTERNAL,
		                        "export: the HTML page frame is not as "
		                        "expected; please report it"));
	} else if ((d->suffix = rl_strndup(last + m, len - (size_t)(last - s) - m))) {
		d->nsuffix = len - (size_t)(last - s) - m;
		xmlOutputBufferWrite(d->ob, (int)(last - m - s), s);
	} else {
		html_fail(d, RL_ENOMEM);
	}
	xmlBufferFree(buf);
}

/* Writes node, a streamed child built under the streaming parent, and
 * frees it. */
static void stream_node(struct page_doc *d, xmlNodePtr node, bool last)
{
	if (node && !d->rc) {
		if (last) {
			/* no sibling after the last: no line break after it */
			xmlUnlinkNode(d->mark[0]);
			xmlUnlinkNode(d->mark[1]);
		} else {
			xmlUnlinkNode(node);
			xmlAddPrevSibling(d->mark[0], node);
		}
		htmlNodeDumpFormatOutput(d->ob, d->doc, node, "UTF-8", 1);
	}
	xmlUnlinkNode(node);
	xmlFreeNode(node);
}

/* Writes what follows the streamed children. */
static void stream_end(struct page_doc *d)
{
	if (!d->rc)
		xmlOutputBufferWrite(d->ob, (int)d->nsuffix, d->suffix);
}

/* Writes the whole page at once (a page with nothing to stream). */
void html_write_whole(struct page_doc *d)
{
	xmlBufferPtr buf = serialize(d);
	if (buf)
		xmlOutputBufferWrite(d->ob, xmlBufferLength(buf),
		                     (const char *)xmlBufferContent(buf));
	xmlBufferFree(buf);
}

void html_page_open(struct page_doc *d, struct rl_export *x,
                      const struct export_page *p, const struct rl_sink *out)
{
	*d = (struct page_doc){ .x = x, .page = p, .out = { out, 0 } };
	d->ob = export_xml_output(&d->out);
	if (!d->ob)
		html_fail(d, RL_ENOMEM);
}

/* Flushes and frees the page: RL_OK or its first failure, with a
 * message. */
int html_page_close(struct page_doc *d)
{
	if (d->ob && xmlOutputBufferClose(d->ob) < 0 && !d->out.err)
		html_fail(d, RL_ENOMEM);
	for (int k = 0; k < 2; k++) {
		xmlUnlinkNode(d->mark[k]);
		xmlFreeNode(d->mark[k]);
	}
	xmlFreeDoc(d->doc);
	free(d->suffix);
	if (d->out.err)
		return rl_db_fail(d->x->db, RL_EIO, "%s", strerror(d->out.err));
	if (d->rc == RL_ENOMEM)
		return rl_db_fail(d->x->db, RL_ENOMEM, "out of memory");
	return d->rc;
}

/* ---- a tag page ----------------------------------------------------------- */

/* The same concept in other languages (the thesaurus): the pages of the
 * tag's equivalents and their entries. */
static void other_languages(struct page_doc *d, xmlNodePtr mn)
{
	const struct export_page *page = d->page;
	struct rl_export *x = d->x;
	if (!x->tree || !page->title)
		return;
	char **syn = NULL;
	size_t nsyn = 0;
	if (html_fail(d, rl_synonyms(x->db, page->title, NULL, &syn, &nsyn)))
		return;
	xmlNodePtr box = NULL;
	for (size_t s = 0; s < nsyn && !d->rc; s++) {
		const struct export_page *p = NULL;
		html_fail(d, export_page_of(x, syn[s], &p));
		if (!p || p == page)
			continue;
		if (!box) {
			box = html_el(d, mn, "div", NULL);
			html_attr(d, box, "class", "other");
			html_attr(d, box, "id", "other-languages");
			html_ui_el(d, box, "h2", html_msg(d, MSG_OTHER_LANGUAGES));
		}
		xmlNodePtr hp = html_el(d, box, "p", NULL);
		const char *ol = html_majority_lang(x, p->v, p->n, NULL);
		if (!ol)
			ol = "";
		/* the language's name in the page's language */
		html_text(d, hp, msg_lang_name(d->ui, ol));
		html_text(d, hp, ": ");
		/* the other page's tag, in its language */
		xmlNodePtr a = html_link(d, hp, p->file, p->title);
		if (*ol && strcmp(ol, d->lang))
			html_attr(d, a, "lang", ol);
		xmlNodePtr ul = html_el(d, box, "ul", NULL);
		enum { MAX_LISTED = 20 };
		for (size_t k = 0; k < p->n && k < MAX_LISTED && !d->rc; k++) {
			char *href = html_href_ruling(d, p->v[k]), *title = NULL;
			if (href)
				html_fail(d, export_title(x, p->v[k], &title));
			xmlNodePtr li = html_el(d, ul, "li", NULL);
			html_attr(d, li, "lang", x->v[p->v[k]].lang);
			if (href && title)
				html_link(d, li, href, title);
			free(href);
			free(title);
		}
		if (p->n > MAX_LISTED) {
			char *more = html_count(d, MSG_AND_MORE, p->n - MAX_LISTED);
			if (more)
				html_ui_el(d, ul, "li", more);
			free(more);
		}
	}
	rl_strings_free(syn, nsyn);
}

int export_html_page(struct rl_export *x, size_t page, const struct rl_sink *out)
{
	const struct export_page *p = &x->pages[page];
	if (p->kind == EXPORT_PAGE_GAME)
		return export_html_game_page(x, page, out);
	if (p->kind != EXPORT_PAGE_TAG)
		return export_html_book_page(x, page, out);
	struct export_item *items;
	int rc = export_order(x, p, &items);
	if (rc)
		return rc;
	struct page_doc d;
	html_page_open(&d, x, p, out);
	/* the page's language before its words: a tag's page is in its
	 * rulings' language */
	d.lang = html_majority_lang(x, p->v, p->n, NULL);
	d.ui = msg_lang_or_en(d.lang);
	const char *title = p->title ? p->title : html_msg(&d, MSG_NO_TAG);
	html_begin(&d, title, d.lang);
	xmlNodePtr mn = html_el(&d, d.body, "div", NULL);
	xmlNodePtr h1 = html_el(&d, mn, "h1", title);
	if (!p->title)
		html_ui_mark(&d, h1);
	char *count = html_count(&d, MSG_RULINGS_COUNT, p->n);
	html_attr(&d, html_ui_el(&d, mn, "p", count), "class", "meta");
	free(count);
	other_languages(&d, mn);
	stream_begin(&d, mn);
	for (size_t k = 0; k < p->n && !d.rc && !d.out.err; k++) {
		const struct export_item *it = &items[k];
		/* heading levels never skip: a category is under its section
		 * when it has one, an entry under both */
		int under = 1 + (it->section != NULL);
		if (it->new_section)
			stream_node(&d, html_el(&d, mn, "h2", it->section), false);
		if (it->new_category)
			stream_node(&d, html_el(&d, mn, under == 2 ? "h3" : "h2",
			                        it->category), false);
		under += it->category != NULL;
		stream_node(&d, html_entry(&d, mn, it->i, under + 1),
		            k + 1 == p->n);
	}
	stream_end(&d);
	free(items);
	return html_page_close(&d);
}

/* ---- the index ------------------------------------------------------------ */

struct tally {
	const char *key;
	size_t count;
};

static bool count_key(struct tally **v, size_t *n, size_t *cap, const char *key)
{
	for (size_t k = 0; k < *n; k++)
		if (!strcmp((*v)[k].key, key)) {
			(*v)[k].count++;
			return true;
		}
	if (!rl_grow(v, cap, *n + 1, sizeof **v))
		return false;
	(*v)[(*n)++] = (struct tally){ key, 1 };
	return true;
}

static int cmp_tally(const void *a, const void *b)
{
	return strcmp(((const struct tally *)a)->key,
	              ((const struct tally *)b)->key);
}

static void tally_list(struct page_doc *d, xmlNodePtr mn, const char *head,
                       struct tally *v, size_t n, bool games)
{
	if (n)      /* (none: v may be NULL, qsort's is UB) */
		qsort(v, n, sizeof *v, cmp_tally);
	html_ui_el(d, mn, "h2", head);
	xmlNodePtr ul = html_el(d, mn, "ul", NULL);
	for (size_t k = 0; k < n; k++) {
		/* a game links its page */
		const struct export_page *gp = games && d->x->tree
		                             ? export_game_page(d->x, v[k].key) : NULL;
		struct rl_buf b = {0};
		rl_buf_addf(&b, "%s (%zu)", gp ? "" : games ? v[k].key
		            : msg_lang_name(d->ui, v[k].key), v[k].count);
		char *s = rl_buf_take(&b);
		if (!s)
			html_fail(d, RL_ENOMEM);
		xmlNodePtr li = html_el(d, ul, "li", gp ? NULL : s);
		if (gp) {
			html_link(d, li, gp->file, v[k].key);
			html_text(d, li, s ? s : "");
		}
		free(s);
	}
}

/* A game's page: its books and the pages of the tags its rulings carry,
 * each with how many of the game's rulings it holds. */
int export_html_game_page(struct rl_export *x, size_t page,
                          const struct rl_sink *out)
{
	const struct export_page *p = &x->pages[page];
	struct page_doc d;
	html_page_open(&d, x, p, out);
	/* in the language of most of the game's rulings */
	html_begin(&d, p->title, html_majority_lang(x, NULL, 0, p->title));
	xmlNodePtr mn = html_el(&d, d.body, "div", NULL);
	html_el(&d, mn, "h1", p->title);
	size_t n = 0;
	for (size_t i = 0; i < x->n; i++)
		n += x->v[i].game && !strcmp(x->v[i].game, p->title);
	char *count = html_count(&d, MSG_RULINGS_COUNT, n);
	html_attr(&d, html_ui_el(&d, mn, "p", count), "class", "meta");
	free(count);
	xmlNodePtr ul = NULL;
	for (size_t k = 0; k < x->nbooks; k++) {
		const struct export_book *b = &x->books[k];
		if (!b->game || strcmp(b->game, p->title))
			continue;
		if (!ul) {
			html_ui_el(&d, mn, "h2", html_msg(&d, MSG_RULEBOOKS));
			ul = html_el(&d, mn, "ul", NULL);
		}
		xmlNodePtr li = html_el(&d, ul, "li", NULL);
		html_attr(&d, li, "lang", b->lang);
		html_link(&d, li, x->pages[b->toc].file, b->title);
	}
	ul = NULL;
	for (size_t k = 0; k < x->npages && !d.rc; k++) {
		const struct export_page *tp = &x->pages[k];
		if (tp->kind != EXPORT_PAGE_TAG)
			continue;
		size_t m = export_page_count(x, tp, p->title);
		if (!m)
			continue;
		if (!ul) {
			html_ui_el(&d, mn, "h2", html_msg(&d, MSG_TAGS));
			ul = html_el(&d, mn, "ul", NULL);
			html_attr(&d, ul, "class", "index");
		}
		xmlNodePtr li = html_el(&d, ul, "li", NULL);
		xmlNodePtr a = html_link(&d, li, tp->file, tp->title ? tp->title
		                         : html_msg(&d, MSG_NO_TAG));
		/* a tag is in its rulings' language */
		const char *tl = tp->title ? html_majority_lang(x, tp->v, tp->n, NULL)
		                           : NULL;
		if (!tp->title)
			html_ui_mark(&d, a);
		else if (tl && *tl && strcmp(tl, d.lang))
			html_attr(&d, a, "lang", tl);
		char c[32];
		snprintf(c, sizeof c, " (%zu)", m);
		html_text(&d, li, c);
	}
	html_write_whole(&d);
	return html_page_close(&d);
}

/* The games and languages of the selection, with their counts. */
static void tallies(struct page_doc *d, xmlNodePtr mn)
{
	const struct rl_export *x = d->x;
	struct tally *games = NULL, *langs = NULL;
	size_t ng = 0, nl = 0, cg = 0, cl = 0;
	for (size_t i = 0; i < x->n && !d->rc; i++) {
		const struct export_ruling *r = &x->v[i];
		if (!count_key(&games, &ng, &cg, r->game ? r->game
		               : html_msg(d, MSG_NO_GAME_ITEM)) ||
		    !count_key(&langs, &nl, &cl, r->lang))
			html_fail(d, RL_ENOMEM);
	}
	tally_list(d, mn, html_msg(d, MSG_GAMES), games, ng, true);
	tally_list(d, mn, html_msg(d, MSG_LANGUAGES), langs, nl, false);
	free(games);
	free(langs);
}

static xmlNodePtr index_item(struct page_doc *d, xmlNodePtr ul,
                             const struct export_page *p)
{
	xmlNodePtr li = html_el(d, ul, "li", NULL);
	xmlNodePtr a = html_link(d, li, p->file, p->title ? p->title
	                         : html_msg(d, MSG_NO_TAG));
	/* a tag is in its rulings' language; the page's own words are not */
	const char *lang = p->title ? html_majority_lang(d->x, p->v, p->n, NULL)
	                            : NULL;
	if (!p->title)
		html_ui_mark(d, a);
	else if (lang && *lang)
		html_attr(d, a, "lang", lang);
	char n[32];
	snprintf(n, sizeof n, " (%zu)", p->n);
	html_text(d, li, n);
	return li;
}

int export_html_index(struct rl_export *x, const struct rl_sink *out)
{
	struct page_doc d;
	html_page_open(&d, x, NULL, out);
	/* in the language of most of the rulings */
	d.lang = html_majority_lang(x, NULL, 0, NULL);
	d.ui = msg_lang_or_en(d.lang);
	html_begin(&d, html_msg(&d, MSG_INDEX_TITLE), d.lang);
	xmlNodePtr mn = html_el(&d, d.body, "div", NULL);
	html_ui_el(&d, mn, "h1", html_msg(&d, MSG_INDEX_TITLE));
	size_t ntags = 0;
	for (size_t k = 0; k < x->npages; k++)
		ntags += x->pages[k].kind == EXPORT_PAGE_TAG;
	char *count = html_two_counts(&d, MSG_RULINGS_COUNT, x->n,
	                              MSG_PAGES_COUNT, x->npages);
	html_attr(&d, html_ui_el(&d, mn, "p", count), "class", "meta");
	free(count);
	tallies(&d, mn);
	if (x->nbooks) {
		html_ui_el(&d, mn, "h2", html_msg(&d, MSG_RULEBOOKS));
		xmlNodePtr bl = html_el(&d, mn, "ul", NULL);
		for (size_t k = 0; k < x->nbooks; k++) {
			const struct export_book *b = &x->books[k];
			xmlNodePtr li = html_el(&d, bl, "li", NULL);
			html_attr(&d, li, "lang", b->lang);
			html_link(&d, li, x->pages[b->toc].file, b->title);
			char *n = html_two_counts(&d, MSG_RULES_COUNT, b->nrules,
			                          MSG_GLOSSARY_COUNT, b->ngloss);
			struct rl_buf nb = {0};
			rl_buf_addf(&nb, " (%s)", n ? n : "");
			char *item = rl_buf_take(&nb);
			if (!item)
				html_fail(&d, RL_ENOMEM);
			d.ctx = b->lang;        /* the item's language */
			html_ui_text(&d, li, item ? item : "");
			d.ctx = d.lang;
			free(n);
			free(item);
		}
	}
	/* no heading and no empty list where no ruling has a tag (a
	 * rulebook, a glossary) */
	xmlNodePtr ul = NULL;
	if (ntags > 0) {
		html_ui_el(&d, mn, "h2", html_msg(&d, MSG_TAGS));
		ul = html_el(&d, mn, "ul", NULL);
		html_attr(&d, ul, "class", "index");
	}
	/* one item a tag: streamed, unless there is only one (a list of one
	 * is serialized without line breaks around its item) */
	if (ntags < 2) {
		for (size_t k = 0; k < x->npages; k++)
			if (x->pages[k].kind == EXPORT_PAGE_TAG)
				index_item(&d, ul, &x->pages[k]);
		html_write_whole(&d);
	} else {
		stream_begin(&d, ul);
		for (size_t k = 0, seen = 0; k < x->npages && !d.rc && !d.out.err;
		     k++)
			if (x->pages[k].kind == EXPORT_PAGE_TAG)
				stream_node(&d, index_item(&d, ul, &x->pages[k]),
				            ++seen == ntags);
		stream_end(&d);
	}
	return html_page_close(&d);
}
