/* export_html.c — pages as HTML: with --tag one self-contained file, with
 * --all or --query a static site (index.html and one page per tag).
 *
 * Every page is a libxml2 tree (element and text nodes, attributes through
 * xmlNewProp), saved as UTF-8 HTML: no markup is ever pasted from strings,
 * so every text from the database is escaped by the serializer. No
 * JavaScript; the style sheet is a fixed string in a <style> element. Only
 * HTML 4 elements, so that libxml2's own HTML parser (xmllint --html) reads
 * the pages back without a complaint. */
#include "export.h"
#include "util.h"

#include <libxml/HTMLtree.h>
#include <libxml/tree.h>
#include <libxml/xmlsave.h>

#include <stdlib.h>
#include <string.h>

static const char BULLET[] = "\xE2\x80\xA2";     /* • */
static const char INDEX[] = "index.html";

static const char CSS[] =
	"body{font:16px/1.45 system-ui,sans-serif;max-width:52em;margin:0 auto;"
	"padding:0 1em 3em;color:#222;background:#fff}"
	".header{padding:.6em 0;border-bottom:1px solid #ddd}"
	"h2{margin-top:2em;border-bottom:2px solid #446}"
	"h3{margin-top:1.5em;color:#446}"
	"div.entry{border-left:3px solid #ccd;padding:.1em 0 .1em 1em;"
	"margin:1.2em 0}"
	"div.entry:target{border-left-color:#c60;background:#fff8ee}"
	"h4{margin:.3em 0;font-size:1.05em}"
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

/* A page being built; oom is set by the first failed allocation. */
struct page_doc {
	struct export_job *job;
	const struct export_page *page;   /* NULL for the index */
	xmlDocPtr doc;
	xmlNodePtr body;
	bool oom;
};

static xmlNodePtr el(struct page_doc *d, xmlNodePtr parent, const char *name,
                     const char *text)
{
	xmlNodePtr n = parent ? xmlNewTextChild(parent, NULL, BAD_CAST name,
	                                        BAD_CAST text) : NULL;
	if (!n)
		d->oom = true;
	return n;
}

static void attr(struct page_doc *d, xmlNodePtr n, const char *name,
                 const char *value)
{
	if (n && !xmlNewProp(n, BAD_CAST name, BAD_CAST value))
		d->oom = true;
}

static void text_len(struct page_doc *d, xmlNodePtr parent, const char *s,
                     size_t n)
{
	xmlNodePtr t = parent ? xmlNewTextLen(BAD_CAST s, (int)n) : NULL;
	if (!t || !xmlAddChild(parent, t)) {
		xmlFreeNode(t);
		d->oom = true;
	}
}

static void text(struct page_doc *d, xmlNodePtr parent, const char *s)
{
	text_len(d, parent, s, strlen(s));
}

static xmlNodePtr link(struct page_doc *d, xmlNodePtr parent, const char *href,
                       const char *label)
{
	xmlNodePtr a = el(d, parent, "a", label);
	attr(d, a, "href", href);
	return a;
}

static bool begin(struct page_doc *d, const char *title, const char *lang)
{
	d->doc = htmlNewDocNoDtD(NULL, NULL);
	if (!d->doc || !xmlCreateIntSubset(d->doc, BAD_CAST "html", NULL, NULL))
		return false;
	xmlNodePtr html = xmlNewNode(NULL, BAD_CAST "html");
	if (!html)
		return false;
	xmlDocSetRootElement(d->doc, html);
	attr(d, html, "lang", lang ? lang : "en");
	xmlNodePtr head = el(d, html, "head", NULL);
	xmlNodePtr meta = el(d, head, "meta", NULL);
	attr(d, meta, "name", "viewport");
	attr(d, meta, "content", "width=device-width, initial-scale=1");
	el(d, head, "title", title);
	el(d, head, "style", CSS);
	d->body = el(d, html, "body", NULL);
	if (d->job->tree) {
		xmlNodePtr nav = el(d, d->body, "div", NULL);
		attr(d, nav, "class", "header");
		link(d, nav, INDEX, "All tags");
	}
	return !d->oom;
}

/* Saves the page (UTF-8; the serializer adds the charset) and frees it. */
static int save(struct page_doc *d, const char *name)
{
	struct export_out o;
	int status = d->oom ? EXIT_SOFTWARE : export_open(&o);
	xmlBufferPtr buf = status ? NULL : xmlBufferCreate();
	xmlSaveCtxtPtr sc = buf ? xmlSaveToBuffer(buf, "UTF-8",
	                                          XML_SAVE_AS_HTML | XML_SAVE_FORMAT)
	                        : NULL;
	if (!status && (!sc || xmlSaveDoc(sc, d->doc) < 0))
		status = EXIT_SOFTWARE;
	if (sc)
		xmlSaveClose(sc);
	if (!status) {
		fwrite(xmlBufferContent(buf), 1, (size_t)xmlBufferLength(buf), o.f);
		status = export_commit(d->job, &o, name);
	} else if (d->oom || buf) {
		error("out of memory");
		if (buf)
			export_discard(&o);
	}
	xmlBufferFree(buf);
	xmlFreeDoc(d->doc);
	d->doc = NULL;
	return status;
}

/* ---- links between pages ------------------------------------------------- */

/* Whether ruling i is on the page being written. */
static bool on_page(const struct page_doc *d, size_t i)
{
	const struct rl_ruling *r = &d->job->sel.v[i];
	if (!d->page)
		return false;
	if (!d->job->tree)
		return true;              /* one page holds them all */
	if (!d->page->title)
		return r->ntags == 0;
	for (size_t k = 0; k < r->ntags; k++)
		if (strcmp(r->tags[k], d->page->title) == 0)
			return true;
	return false;
}

/* Where ruling i is: "#r12" on this page, "file.html#r12" on its home
 * page, or NULL when the export does not hold it. A new string. */
static char *href_ruling(struct page_doc *d, size_t i, bool *oom)
{
	const struct export_job *job = d->job;
	bool here = on_page(d, i);
	if (!here && job->home[i] == (size_t)-1)
		return NULL;
	struct rl_buf b = {0};
	rl_buf_addf(&b, "%s#r%lld", here ? "" : job->pages[job->home[i]].file,
	            job->ids[i]);
	char *s = rl_buf_take(&b);
	*oom |= !s;
	return s;
}

static void tag_link(struct page_doc *d, xmlNodePtr parent, const char *tag)
{
	const struct export_page *p = export_page_of(d->job, tag);
	if (!d->job->tree || !p) {
		el(d, parent, "span", tag);
		return;
	}
	xmlNodePtr a = link(d, parent, p->file, tag);
	attr(d, a, "rel", "tag");
}

/* ---- one entry ------------------------------------------------------------ */

static bool is_bullet_line(const char *s, size_t n, size_t *skip)
{
	size_t b = 0;
	while (b < n && s[b] == ' ')
		b++;
	size_t k = sizeof BULLET - 1;
	if (n - b < k || memcmp(s + b, BULLET, k) != 0)
		return false;
	b += k;
	while (b < n && s[b] == ' ')
		b++;
	*skip = b;
	return true;
}

/* The answer: paragraphs at blank lines; "• " lines a list; other lines
 * kept apart by line breaks. */
static void answer(struct page_doc *d, xmlNodePtr parent, const char *s)
{
	xmlNodePtr div = el(d, parent, "div", NULL);
	attr(d, div, "class", "answer");
	xmlNodePtr para = NULL, list = NULL;
	while (*s && !d->oom) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s), skip;
		if (rl_is_blank_line(s, n)) {
			para = list = NULL;
		} else if (is_bullet_line(s, n, &skip)) {
			para = NULL;
			if (!list)
				list = el(d, div, "ul", NULL);
			text_len(d, el(d, list, "li", NULL), s + skip, n - skip);
		} else {
			list = NULL;
			if (para)
				el(d, para, "br", NULL);
			else
				para = el(d, div, "p", NULL);
			text_len(d, para, s, n);
		}
		s += n + (nl != NULL);
	}
}

/* "changed" and the word diff of the last recorded edit. */
static int changes(struct page_doc *d, xmlNodePtr h, xmlNodePtr art,
                   const struct rl_ruling *r)
{
	struct rl_version *v;
	size_t n;
	int rc = rl_history(d->job->c->db, r->id, &v, &n);
	if (rc == RL_NOTFOUND) {
		v = NULL;
		n = 0;
	} else if (rc) {
		error("export: %s", rl_db_errmsg(d->job->c->db));
		return exit_status(rc);
	}
	const struct rl_version *last = n ? &v[n - 1] : NULL, *prev = NULL;
	for (size_t k = n - (n > 0); last && k-- > 0 && !prev; )
		if (v[k].text)
			prev = &v[k];
	bool edited = last && prev && last->text &&
	              strcmp(last->change, "edited") == 0;
	if (r->changed || edited) {
		xmlNodePtr b = el(d, h, "span", "changed");
		attr(d, b, "class", "badge");
		attr(d, b, "title", edited ? "edited by the latest import that "
		     "changed it" : "the source marks the answer as changed");
	}
	if (edited) {
		xmlNodePtr det = el(d, art, "div", NULL);
		attr(d, det, "class", "diff");
		struct rl_buf sb = {0};
		rl_buf_addf(&sb, "Last change: %.10s, %s", last->at ? last->at : "",
		            last->document ? last->document : "");
		char *summary = rl_buf_take(&sb);
		if (!summary)
			d->oom = true;
		xmlNodePtr sp = el(d, det, "p", summary);
		attr(d, sp, "class", "meta");
		free(summary);
		xmlNodePtr w = el(d, det, "div", NULL);
		attr(d, w, "class", "wdiff");
		struct rl_wdiff_op *ops;
		size_t nops;
		bool whole;
		char *old_all = NULL, *new_all = NULL;
		/* the title too, when it changed */
		struct rl_buf ob = {0}, nb = {0};
		if (strcmp(prev->title, last->title) != 0) {
			rl_buf_addf(&ob, "%s\n\n", prev->title);
			rl_buf_addf(&nb, "%s\n\n", last->title);
		}
		rl_buf_adds(&ob, prev->text);
		rl_buf_adds(&nb, last->text);
		old_all = rl_buf_take(&ob);
		new_all = rl_buf_take(&nb);
		if (!old_all || !new_all ||
		    rl_word_diff(old_all, new_all, &ops, &nops, &whole) != RL_OK) {
			d->oom = true;
		} else {
			static const char *const tags[] = { NULL, "del", "ins" };
			for (size_t k = 0; k < nops; k++)
				text_len(d, ops[k].mark ? el(d, w, tags[ops[k].mark], NULL)
				                        : w, ops[k].s, ops[k].n);
			free(ops);
		}
		free(old_all);
		free(new_all);
	}
	rl_history_free(v, n);
	return 0;
}

static const char *ref_label_kind(const char *kind)
{
	return strcmp(kind, "ruling") == 0 ? "see" : kind;
}

static void refs(struct page_doc *d, xmlNodePtr art, const struct rl_ruling *r)
{
	if (!r->nrefs)
		return;
	xmlNodePtr p = el(d, art, "p", NULL);
	attr(d, p, "class", "refs");
	text(d, p, "References: ");
	for (size_t k = 0; k < r->nrefs && !d->oom; k++) {
		const struct rl_ref_out *x = &r->refs[k];
		if (k)
			text(d, p, "; ");
		if (strcmp(x->kind, "discussion") == 0) {
			text(d, p, "(Discussion elsewhere)");
			continue;
		}
		struct rl_buf lb = {0};
		rl_buf_addf(&lb, "%s %s", ref_label_kind(x->kind), x->target);
		char *label = rl_buf_take(&lb);
		if (!label) {
			d->oom = true;
			break;
		}
		size_t i;
		char *href = NULL;
		if (x->target_id && export_find(d->job, x->target_id, &i))
			href = href_ruling(d, i, &d->oom);
		bool web = strcmp(x->kind, "url") == 0 &&
		           (strncmp(x->target, "https://", 8) == 0 ||
		            strncmp(x->target, "http://", 7) == 0);
		if (href) {
			link(d, p, href, label);
		} else if (web) {
			xmlNodePtr a = link(d, p, x->target, x->target);
			attr(d, a, "rel", "nofollow noopener noreferrer");
		} else {
			text(d, p, label);
		}
		free(href);
		free(label);
	}
}

static void backlinks(struct page_doc *d, xmlNodePtr art,
                      const struct rl_ruling *r)
{
	xmlNodePtr p = NULL;
	for (size_t k = 0; k < r->nbacklinks && !d->oom; k++) {
		size_t i;
		const struct rl_ref_out *x = &r->backlinks[k];
		if (!export_find(d->job, x->target_id, &i))
			continue;
		char *href = href_ruling(d, i, &d->oom);
		if (!href)
			continue;
		if (!p) {
			p = el(d, art, "p", NULL);
			attr(d, p, "class", "backlinks");
			text(d, p, "Cited by: ");
		} else {
			text(d, p, "; ");
		}
		link(d, p, href, x->target_title ? x->target_title : "");
		free(href);
	}
}

static void meta(struct page_doc *d, xmlNodePtr art, const struct rl_ruling *r)
{
	struct rl_buf b = {0};
	rl_buf_addf(&b, "%s \xC2\xB7 %s \xC2\xB7 %s", r->kind, r->lang,
	            r->game ? r->game : "no game");
	if (r->rule)
		rl_buf_addf(&b, " \xC2\xB7 rule %s", r->rule);
	if (r->author)
		rl_buf_addf(&b, " \xC2\xB7 %s", r->author);
	if (r->date)
		rl_buf_addf(&b, " \xC2\xB7 %.10s", r->date);
	char *s = rl_buf_take(&b);
	if (!s)
		d->oom = true;
	xmlNodePtr p = el(d, art, "p", s);
	attr(d, p, "class", "meta");
	free(s);
	if (r->errata) {
		const struct rl_errata *x = r->errata;
		struct rl_buf e = {0};
		rl_buf_addf(&e, "Errata: %s", x->product ? x->product : "?");
		if (x->printing)
			rl_buf_addf(&e, ", %s", x->printing);
		if (x->document)
			rl_buf_addf(&e, "; %s", x->document);
		if (x->page)
			rl_buf_addf(&e, ", p. %s", x->page);
		char *es = rl_buf_take(&e);
		if (!es)
			d->oom = true;
		xmlNodePtr ep = el(d, art, "p", es);
		attr(d, ep, "class", "errata");
		free(es);
	}
}

static int entry(struct page_doc *d, xmlNodePtr parent, size_t i)
{
	const struct rl_ruling *r = export_ruling(d->job, i);
	if (!r)
		return EXIT_SOFTWARE;
	char id[32];
	snprintf(id, sizeof id, "r%lld", r->id);
	xmlNodePtr art = el(d, parent, "div", NULL);
	attr(d, art, "class", "entry");
	attr(d, art, "id", id);
	attr(d, art, "lang", r->lang);
	xmlNodePtr h = el(d, art, "h4", NULL);
	char self[34];
	snprintf(self, sizeof self, "#%s", id);
	xmlNodePtr a = link(d, h, self, "#");
	attr(d, a, "class", "anchor");
	text(d, h, r->title);
	int status = changes(d, h, art, r);
	if (status)
		return status;
	answer(d, art, r->text);
	meta(d, art, r);
	xmlNodePtr tp = el(d, art, "p", NULL);
	attr(d, tp, "class", "tags");
	text(d, tp, r->ntags ? "Tags: " : "No tags");
	for (size_t k = 0; k < r->ntags; k++) {
		if (k)
			text(d, tp, ", ");
		tag_link(d, tp, r->tags[k]);
	}
	if (r->hidden_tags > 0) {
		char more[48];
		snprintf(more, sizeof more, ", and %d more", r->hidden_tags);
		text(d, tp, more);
	}
	refs(d, art, r);
	backlinks(d, art, r);
	return 0;
}

/* ---- a tag page ----------------------------------------------------------- */

/* The same concept in other languages (the thesaurus): the pages of the
 * tag's equivalents and their entries. */
static int other_languages(struct page_doc *d, xmlNodePtr mn)
{
	const struct export_page *page = d->page;
	if (!d->job->tree || !page->title)
		return 0;
	char **syn;
	size_t nsyn;
	int rc = rl_synonyms(d->job->c->db, page->title, NULL, &syn, &nsyn);
	if (rc) {
		error("export: %s", rl_db_errmsg(d->job->c->db));
		return exit_status(rc);
	}
	char *self = rl_fold(page->title);
	xmlNodePtr box = NULL;
	for (size_t s = 0; s < nsyn && self && !d->oom; s++) {
		char *f = rl_fold(syn[s]);
		const struct export_page *p = NULL;
		for (size_t k = 0; f && strcmp(f, self) && !p && k < d->job->npages;
		     k++) {
			const struct export_page *c = &d->job->pages[k];
			char *cf = c->title ? rl_fold(c->title) : NULL;
			if (cf && strcmp(cf, f) == 0)
				p = c;
			free(cf);
		}
		free(f);
		if (!p)
			continue;
		if (!box) {
			box = el(d, mn, "div", NULL);
			attr(d, box, "class", "other");
			attr(d, box, "id", "other-languages");
			el(d, box, "h2", "In other languages");
		}
		xmlNodePtr hp = el(d, box, "p", NULL);
		const struct rl_ruling *first = &d->job->sel.v[p->v[0]];
		text(d, hp, first->lang);
		text(d, hp, ": ");
		link(d, hp, p->file, p->title);
		xmlNodePtr ul = el(d, box, "ul", NULL);
		enum { MAX_LISTED = 20 };
		for (size_t k = 0; k < p->n && k < MAX_LISTED && !d->oom; k++) {
			const struct rl_ruling *r = &d->job->sel.v[p->v[k]];
			char *href = href_ruling(d, p->v[k], &d->oom);
			xmlNodePtr li = el(d, ul, "li", NULL);
			attr(d, li, "lang", r->lang);
			if (href)
				link(d, li, href, r->title);
			free(href);
		}
		if (p->n > MAX_LISTED) {
			char more[64];
			snprintf(more, sizeof more, "and %zu more", p->n - MAX_LISTED);
			el(d, ul, "li", more);
		}
	}
	if (!self)
		d->oom = true;
	free(self);
	rl_strings_free(syn, nsyn);
	return 0;
}

static int tag_page(struct export_job *job, const struct export_page *p)
{
	struct export_item *items;
	int status = export_order(job, p, &items);
	if (status)
		return status;
	struct page_doc d = { .job = job, .page = p };
	const char *title = p->title ? p->title : "Rulings with no tag";
	const char *lang = p->n ? job->sel.v[p->v[0]].lang : NULL;
	if (!begin(&d, title, lang)) {
		free(items);
		xmlFreeDoc(d.doc);
		error("out of memory");
		return EXIT_SOFTWARE;
	}
	xmlNodePtr mn = el(&d, d.body, "div", NULL);
	el(&d, mn, "h1", title);
	char count[64];
	snprintf(count, sizeof count, "%zu ruling%s", p->n, p->n == 1 ? "" : "s");
	xmlNodePtr cp = el(&d, mn, "p", count);
	attr(&d, cp, "class", "meta");
	status = other_languages(&d, mn);
	for (size_t k = 0; k < p->n && !status && !d.oom; k++) {
		const struct export_item *it = &items[k];
		if (it->new_section)
			el(&d, mn, "h2", it->section);
		if (it->new_category)
			el(&d, mn, "h3", it->category);
		status = entry(&d, mn, it->i);
	}
	free(items);
	if (status) {
		xmlFreeDoc(d.doc);
		return status;
	}
	return save(&d, job->tree ? p->file : NULL);
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
                       struct tally *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_tally);
	el(d, mn, "h2", head);
	xmlNodePtr ul = el(d, mn, "ul", NULL);
	for (size_t k = 0; k < n; k++) {
		struct rl_buf b = {0};
		rl_buf_addf(&b, "%s (%zu)", v[k].key, v[k].count);
		char *s = rl_buf_take(&b);
		if (!s)
			d->oom = true;
		el(d, ul, "li", s);
		free(s);
	}
}

static int index_page(struct export_job *job)
{
	struct page_doc d = { .job = job };
	if (!begin(&d, "Rulings", NULL)) {
		xmlFreeDoc(d.doc);
		error("out of memory");
		return EXIT_SOFTWARE;
	}
	xmlNodePtr mn = el(&d, d.body, "div", NULL);
	el(&d, mn, "h1", "Rulings");
	char count[96];
	snprintf(count, sizeof count, "%zu ruling%s, %zu page%s", job->n,
	         job->n == 1 ? "" : "s", job->npages, job->npages == 1 ? "" : "s");
	xmlNodePtr cp = el(&d, mn, "p", count);
	attr(&d, cp, "class", "meta");
	struct tally *games = NULL, *langs = NULL;
	size_t ng = 0, nl = 0, cg = 0, cl = 0;
	for (size_t i = 0; i < job->n && !d.oom; i++) {
		const struct rl_ruling *r = &job->sel.v[i];
		if (!count_key(&games, &ng, &cg, r->game ? r->game : "(no game)") ||
		    !count_key(&langs, &nl, &cl, r->lang))
			d.oom = true;
	}
	tally_list(&d, mn, "Games", games, ng);
	tally_list(&d, mn, "Languages", langs, nl);
	free(games);
	free(langs);
	el(&d, mn, "h2", "Tags");
	xmlNodePtr ul = el(&d, mn, "ul", NULL);
	attr(&d, ul, "class", "index");
	for (size_t k = 0; k < job->npages && !d.oom; k++) {
		const struct export_page *p = &job->pages[k];
		xmlNodePtr li = el(&d, ul, "li", NULL);
		link(&d, li, p->file, p->title ? p->title : "Rulings with no tag");
		char n[32];
		snprintf(n, sizeof n, " (%zu)", p->n);
		text(&d, li, n);
	}
	return save(&d, INDEX);
}

int export_html(struct export_job *job)
{
	int status = job->tree ? index_page(job) : 0;
	for (size_t k = 0; k < job->npages && !status; k++)
		status = tag_page(job, &job->pages[k]);
	return status;
}
