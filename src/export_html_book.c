/* export_html_book.c — the pages of a book (export_book.c) as HTML: its
 * table of contents, its pages of rules and its glossary letters.
 *
 * A rule is a block with its number as an anchor (id="702.19a", the link
 * "#702.19a" on the number itself), the rules under it (702.19a under
 * 702.19) nested in it. Every reference a rule makes to a rule or a term
 * of the export is linked where the text names it (to page#anchor); those
 * the text does not name follow it, under "See also". Each page links the
 * book's table of contents and the pages before and after it. A book's
 * pages are small (a chapter or a section), so each is built whole. */
#include "export_html.h"
#include "util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The link to page k (of the export), at anchor (NULL: the top). */
static char *page_href(const struct rl_export *x, size_t k, const char *anchor)
{
	struct rl_buf b = {0};
	rl_buf_addf(&b, "%s%s%s", x->pages[k].file, anchor ? "#" : "",
	            anchor ? anchor : "");
	return rl_buf_take(&b);
}

static void link_to(struct page_doc *d, xmlNodePtr parent, size_t k,
                    const char *anchor, const char *label)
{
	char *href = page_href(d->x, k, anchor);
	if (!href)
		html_fail(d, RL_ENOMEM);
	else
		html_link(d, parent, href, label);
	free(href);
}

/* ---- text with its references linked ----------------------------------- */

static bool word_byte(unsigned char c)
{
	return isalnum(c) || c >= 0x80;
}

/* A reference of the ruling being written, with where it goes. */
struct ref {
	const char *target;
	size_t len;
	char *href;             /* NULL: not in the export */
	bool used;              /* linked in the text */
	bool web;
};

/* s[0..n) with every reference the text names linked: at each word
 * start, the longest target that is a whole word there. */
static void linked_text(struct page_doc *d, xmlNodePtr parent, const char *s,
                        size_t n, struct ref *refs, size_t nrefs)
{
	size_t from = 0;
	for (size_t j = 0; j < n && !d->rc; j++) {
		if (j && word_byte((unsigned char)s[j - 1]))
			continue;
		struct ref *best = NULL;
		for (size_t k = 0; k < nrefs; k++) {
			struct ref *r = &refs[k];
			if (!r->href || r->web || !r->len || r->len > n - j ||
			    memcmp(s + j, r->target, r->len) != 0)
				continue;
			/* a whole word: "702.19" is not in "702.19a", is in
			 * "702.19." */
			size_t e = j + r->len;
			if (e < n && (word_byte((unsigned char)s[e]) ||
			    (s[e] == '.' && e + 1 < n &&
			     isdigit((unsigned char)s[e + 1]))))
				continue;
			if (!best || r->len > best->len)
				best = r;
		}
		if (!best)
			continue;
		html_text_len(d, parent, s + from, j - from);
		xmlNodePtr a = html_el(d, parent, "a", NULL);
		html_attr(d, a, "href", best->href);
		html_text_len(d, a, s + j, best->len);
		best->used = true;
		j += best->len - 1;
		from = j + 1;
	}
	html_text_len(d, parent, s + from, n - from);
}

/* Text in paragraphs (at blank lines; other lines kept apart by line
 * breaks); the first paragraph is first (may be NULL: a new one). */
static void paragraphs(struct page_doc *d, xmlNodePtr parent, xmlNodePtr first,
                       const char *s, struct ref *refs, size_t nrefs)
{
	xmlNodePtr para = first;
	bool fresh = first != NULL;       /* first holds no text yet */
	while (*s && !d->rc) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		if (rl_is_blank_line(s, n)) {
			if (para && !fresh)
				para = NULL;
		} else {
			if (!para)
				para = html_el(d, parent, "p", NULL);
			else if (!fresh)
				html_el(d, para, "br", NULL);
			fresh = false;
			linked_text(d, para, s, n, refs, nrefs);
		}
		s += n + (nl != NULL);
	}
}

/* The references of r, with their links. */
static struct ref *load_refs(struct page_doc *d, const struct rl_ruling *r)
{
	struct ref *v = calloc(r->nrefs ? r->nrefs : 1, sizeof *v);
	if (!v) {
		html_fail(d, RL_ENOMEM);
		return NULL;
	}
	for (size_t k = 0; k < r->nrefs; k++) {
		const struct rl_ref_out *x = &r->refs[k];
		v[k].target = x->target;
		v[k].len = strlen(x->target);
		size_t i;
		if (x->target_id && export_find(d->x, x->target_id, &i))
			v[k].href = html_href_ruling(d, i);
		else if (!strcmp(x->kind, "url") &&
		         (!strncmp(x->target, "https://", 8) ||
		          !strncmp(x->target, "http://", 7))) {
			v[k].web = true;
			v[k].href = rl_strdup(x->target);
		}
	}
	return v;
}

/* The references the text did not name, linked. */
static void see_also(struct page_doc *d, xmlNodePtr parent, struct ref *refs,
                     size_t nrefs)
{
	xmlNodePtr p = NULL;
	for (size_t k = 0; k < nrefs && !d->rc; k++) {
		if (!refs[k].href || refs[k].used)
			continue;
		bool again = false;
		for (size_t j = 0; j < k && !again; j++)
			again = refs[j].href && !strcmp(refs[j].href, refs[k].href);
		if (again)
			continue;
		if (!p) {
			p = html_el(d, parent, "p", NULL);
			html_attr(d, p, "class", "refs");
			html_ui_text(d, p, html_msg(d, MSG_SEE_ALSO));
		} else {
			html_text(d, p, "; ");
		}
		xmlNodePtr a = html_link(d, p, refs[k].href, refs[k].target);
		if (refs[k].web)
			html_attr(d, a, "rel", "nofollow noopener noreferrer");
	}
}

static void free_refs(struct ref *v, size_t n)
{
	for (size_t k = 0; v && k < n; k++)
		free(v[k].href);
	free(v);
}

/* The tags of a book's ruling, linked to their pages. */
static void tags(struct page_doc *d, xmlNodePtr parent,
                 const struct rl_ruling *r)
{
	if (!r->ntags)
		return;
	xmlNodePtr p = html_el(d, parent, "p", NULL);
	html_attr(d, p, "class", "tags");
	html_ui_text(d, p, html_msg(d, MSG_TAGS_LABEL));
	for (size_t k = 0; k < r->ntags && !d->rc; k++) {
		const struct export_page *tp = NULL;
		if (k)
			html_text(d, p, ", ");
		html_fail(d, export_page_of(d->x, r->tags[k], &tp));
		if (tp)
			html_attr(d, html_link(d, p, tp->file, r->tags[k]), "rel", "tag");
		else
			html_text(d, p, r->tags[k]);
	}
}

/* Whether the title only repeats the start of the text ("These Magic
 * rules apply to…"). */
static bool title_in_text(const char *title, const char *text)
{
	size_t n = strlen(title);
	static const char ELLIPSIS[] = "\xE2\x80\xA6";
	if (n >= 3 && !strcmp(title + n - 3, ELLIPSIS))
		n -= 3;
	return !strncmp(title, text, n);
}

/* ---- a page of rules ------------------------------------------------------- */

/* Whether rule c is directly or further under rule p: 702.19a under
 * 702.19, 104.3.1 under 104.3; 1000 is not under 100. */
static bool under(const char *p, const char *c)
{
	size_t n = strlen(p);
	return strlen(c) > n && !strncmp(p, c, n) &&
	       (c[n] == '.' || (isdigit((unsigned char)p[n - 1]) &&
	                        isalpha((unsigned char)c[n])));
}

/* One rule: its number (an anchor and a link to itself) and its text,
 * in a block of its own under parent. */
static xmlNodePtr rule_block(struct page_doc *d, xmlNodePtr parent, size_t i)
{
	struct rl_ruling r;
	if (html_fail(d, export_ruling(d->x, i, &r)))
		return NULL;
	const char *num = d->x->v[i].place;
	xmlNodePtr div = html_el(d, parent, "div", NULL);
	html_attr(d, div, "class", "rule");
	html_attr(d, div, "id", num);
	xmlNodePtr p = html_el(d, div, "p", NULL);
	struct rl_buf hb = {0};
	rl_buf_addf(&hb, "#%s", num);
	char *self = rl_buf_take(&hb);
	if (!self)
		html_fail(d, RL_ENOMEM);
	xmlNodePtr a = html_link(d, p, self ? self : "", num);
	html_attr(d, a, "class", "num");
	free(self);
	html_text(d, p, " ");
	struct ref *refs = load_refs(d, &r);
	if (!*r.text || !title_in_text(r.title, r.text)) {
		html_el(d, p, "strong", r.title);
		if (*r.text)
			html_text(d, p, " ");
	}
	if (refs && *r.text)
		paragraphs(d, div, p, r.text, refs, r.nrefs);
	if (refs)
		see_also(d, div, refs, r.nrefs);
	tags(d, div, &r);
	free_refs(refs, r.nrefs);
	rl_ruling_clear(&r);
	return div;
}

/* The text of a head's own rule, when it says more than its title. */
static void head_text(struct page_doc *d, xmlNodePtr mn, size_t rule)
{
	struct rl_ruling r;
	if (html_fail(d, export_ruling(d->x, rule, &r)))
		return;
	struct ref *refs = load_refs(d, &r);
	if (refs && *r.text && !title_in_text(r.text, r.title)) {
		paragraphs(d, mn, NULL, r.text, refs, r.nrefs);
		see_also(d, mn, refs, r.nrefs);
	}
	free_refs(refs, r.nrefs);
	rl_ruling_clear(&r);
}

/* A head's own rule (702: "Keyword Abilities"): its heading, with its
 * text after it when it has one. */
static void head_heading(struct page_doc *d, xmlNodePtr mn, const char *tag,
                         const struct export_head *h, size_t rule)
{
	char *text = export_head_title(h);
	if (!text)
		html_fail(d, RL_ENOMEM);
	xmlNodePtr hn = html_el(d, mn, tag, text);
	html_attr(d, hn, "id", h->num);
	free(text);
	if (rule != (size_t)-1)
		head_text(d, mn, rule);
}

static void rules(struct page_doc *d, xmlNodePtr mn, const struct export_book *b,
                  const struct export_page *p, bool own_h1)
{
	const struct rl_export *x = d->x;
	enum { DEPTH = 16 };
	struct open { const char *num; xmlNodePtr div; } stack[DEPTH];
	size_t depth = 0;
	const struct export_head *head = NULL;
	for (size_t k = p->lo; k < p->hi && !d->rc; k++) {
		size_t i = b->rules[k];
		const char *num = x->v[i].place;
		const struct export_head *h = export_head_of(b, num);
		if (h != head) {
			head = h;
			depth = 0;
			size_t own = strcmp(h->num, num) == 0 ? i : (size_t)-1;
			if (!own_h1)
				head_heading(d, mn, "h2", h, own);
			else if (own != (size_t)-1)
				head_text(d, mn, own);
			if (own != (size_t)-1)
				continue;
		} else if (!strcmp(h->num, num)) {
			continue;          /* the head's number again */
		}
		while (depth && !under(stack[depth - 1].num, num))
			depth--;
		xmlNodePtr div = rule_block(d, depth ? stack[depth - 1].div : mn, i);
		if (depth < DEPTH)
			stack[depth++] = (struct open){ num, div };
	}
}

/* ---- the frame of a book's page -------------------------------------------- */

/* The links to the book's contents and to the pages before and after. */
static void pager(struct page_doc *d, xmlNodePtr mn, const struct export_book *b,
                  size_t page, const char *label)
{
	xmlNodePtr nav = html_el(d, mn, "div", NULL);
	html_attr(d, nav, "class", label);
	if (page > b->toc + 1) {
		xmlNodePtr s = html_ui_el(d, nav, "span", html_msg(d, MSG_PREVIOUS));
		char *href = page_href(d->x, page - 1, NULL);
		if (!href)
			html_fail(d, RL_ENOMEM);
		xmlNodePtr a = html_link(d, s, href ? href : "", d->x->pages[page - 1].title);
		html_attr(d, a, "rel", "prev");
		free(href);
	}
	if (page != b->toc) {
		xmlNodePtr s = html_ui_el(d, nav, "span", html_msg(d, MSG_CONTENTS));
		link_to(d, s, b->toc, NULL, b->title);
	}
	if (page + 1 < b->end) {
		xmlNodePtr s = html_ui_el(d, nav, "span", html_msg(d, MSG_NEXT));
		char *href = page_href(d->x, page + 1, NULL);
		if (!href)
			html_fail(d, RL_ENOMEM);
		xmlNodePtr a = html_link(d, s, href ? href : "", d->x->pages[page + 1].title);
		html_attr(d, a, "rel", "next");
		free(href);
	}
}

/* ---- the table of contents -------------------------------------------------- */

static void toc(struct page_doc *d, xmlNodePtr mn, const struct export_book *b)
{
	const struct rl_export *x = d->x;
	char *n = html_two_counts(d, MSG_RULES_COUNT, b->nrules,
	                          MSG_GLOSSARY_COUNT, b->ngloss);
	struct rl_buf mb = {0};
	rl_buf_addf(&mb, "%s%s%s", n ? n : "", b->game ? " \xC2\xB7 " : "",
	            b->game ? b->game : "");
	char *meta = rl_buf_take(&mb);
	if (!meta)
		html_fail(d, RL_ENOMEM);
	html_attr(d, html_ui_el(d, mn, "p", meta), "class", "meta");
	free(n);
	free(meta);
	xmlNodePtr ul = NULL;
	for (size_t h = 0; h < b->nheads && !d->rc; h++) {
		const struct export_head *hd = &b->heads[h];
		if (hd->chapter) {
			size_t own = (size_t)-1;
			for (size_t k = 0; k < b->nrules && own == (size_t)-1; k++)
				if (x->v[b->rules[k]].place == hd->num)
					own = b->rules[k];
			head_heading(d, mn, "h2", hd, own);
			ul = NULL;
			continue;
		}
		if (!ul) {
			if (h == 0)
				html_ui_el(d, mn, "h2", html_msg(d, MSG_RULES));
			ul = html_el(d, mn, "ul", NULL);
			html_attr(d, ul, "class", "toc");
		}
		char *text = export_head_title(hd);
		if (!text)
			html_fail(d, RL_ENOMEM);
		link_to(d, html_el(d, ul, "li", NULL), hd->page, hd->num,
		        text ? text : "");
		free(text);
	}
	if (!b->ngloss)
		return;
	html_ui_el(d, mn, "h2", html_msg(d, MSG_GLOSSARY));
	xmlNodePtr gl = html_el(d, mn, "ul", NULL);
	html_attr(d, gl, "class", "letters");
	for (size_t k = b->toc + 1; k < b->end && !d->rc; k++) {
		const struct export_page *p = &x->pages[k];
		if (p->kind != EXPORT_PAGE_LETTER)
			continue;
		char label[96];
		snprintf(label, sizeof label, "%s (%zu)", p->title, p->n);
		link_to(d, html_el(d, gl, "li", NULL), k, NULL, label);
	}
}

/* ---- a glossary letter -------------------------------------------------------- */

static void letter(struct page_doc *d, xmlNodePtr mn, const struct export_book *b,
                   const struct export_page *p)
{
	xmlNodePtr dl = html_el(d, mn, "dl", NULL);
	html_attr(d, dl, "class", "glossary");
	for (size_t k = p->lo; k < p->hi && !d->rc; k++) {
		size_t i = b->gloss[k];
		struct rl_ruling r;
		if (html_fail(d, export_ruling(d->x, i, &r)))
			break;
		char id[32];
		snprintf(id, sizeof id, "r%lld", r.id);
		xmlNodePtr dt = html_el(d, dl, "dt", r.title);
		html_attr(d, dt, "id", id);
		xmlNodePtr dd = html_el(d, dl, "dd", NULL);
		struct ref *refs = load_refs(d, &r);
		if (refs) {
			paragraphs(d, dd, NULL, r.text, refs, r.nrefs);
			see_also(d, dd, refs, r.nrefs);
		}
		tags(d, dd, &r);
		free_refs(refs, r.nrefs);
		rl_ruling_clear(&r);
	}
}

/* ---- the page ---------------------------------------------------------------- */

int export_html_book_page(struct rl_export *x, size_t page,
                          const struct rl_sink *out)
{
	const struct export_page *p = &x->pages[page];
	const struct export_book *b = &x->books[p->book];
	struct page_doc d;
	html_page_open(&d, x, p, out);
	/* the book's language before its words */
	d.ui = msg_lang_or_en(b->lang);
	struct rl_buf tb = {0};
	const char *const letter_args[] = { p->title };
	char *h1 = p->kind == EXPORT_PAGE_LETTER
	         ? msg_fill(html_msg(&d, MSG_GLOSSARY_LETTER), 1, letter_args)
	         : rl_strdup(p->title);
	if (p->kind == EXPORT_PAGE_TOC)
		rl_buf_adds(&tb, b->title);
	else
		rl_buf_addf(&tb, "%s \xE2\x80\x94 %s", h1 ? h1 : "", b->title);
	char *title = rl_buf_take(&tb);
	if (!title || !h1)
		html_fail(&d, RL_ENOMEM);
	html_begin(&d, title ? title : "", b->lang);
	xmlNodePtr mn = html_el(&d, d.body, "div", NULL);
	xmlNodePtr h = html_el(&d, mn, "h1", h1 ? h1 : "");
	if (p->kind == EXPORT_PAGE_LETTER)
		html_ui_mark(&d, h);
	pager(&d, mn, b, page, "pager");
	if (p->kind == EXPORT_PAGE_TOC) {
		toc(&d, mn, b);
	} else if (p->kind == EXPORT_PAGE_LETTER) {
		letter(&d, mn, b, p);
	} else {
		/* a page of one head: the head is the page's title */
		bool one = p->one_head && p->lo < p->hi;
		if (one)
			html_attr(&d, h, "id", export_head_of(b,
			          x->v[b->rules[p->lo]].place)->num);
		rules(&d, mn, b, p, one);
	}
	pager(&d, mn, b, page, "pager end");
	html_write_whole(&d);
	free(title);
	free(h1);
	return html_page_close(&d);
}
