/* export_html_entry.c — one ruling as an HTML entry (export_html.h): its
 * question with an anchor, a "changed" badge and the word diff of its last
 * edit, the answer (paragraphs, lists), where it comes from, its tags
 * linked to their pages, its references and the rulings that cite it. */
#include "export_html.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char BULLET[] = "\xE2\x80\xA2";     /* • */

char *html_href_ruling(struct page_doc *d, size_t i)
{
	const struct rl_export *x = d->x;
	bool here = d->page && export_on_page(d->page, i);
	if (!here && x->home[i] == (size_t)-1)
		return NULL;
	const struct export_page *p = here ? d->page : &x->pages[x->home[i]];
	char *anchor = export_anchor(x, p, i);
	struct rl_buf b = {0};
	if (anchor)
		rl_buf_addf(&b, "%s#%s", here ? "" : p->file, anchor);
	free(anchor);
	char *s = anchor ? rl_buf_take(&b) : NULL;
	if (!s)
		html_fail(d, RL_ENOMEM);
	return s;
}

static void tag_link(struct page_doc *d, xmlNodePtr parent, const char *tag)
{
	const struct export_page *p = NULL;
	if (d->x->tree)
		html_fail(d, export_page_of(d->x, tag, &p));
	if (!p) {
		html_el(d, parent, "span", tag);
		return;
	}
	xmlNodePtr a = html_link(d, parent, p->file, tag);
	html_attr(d, a, "rel", "tag");
}

/* The closing run of the emphasis whose opening run of k asterisks is at
 * s[0]: the next run of k that follows a non-space on the same text, or
 * NULL. "*a*" is emphasis, "* a *" and "2 * 3" are not. */
static const char *closing(const char *s, size_t n, size_t k)
{
	if (n <= 2 * k || s[k] == ' ' || s[k] == '*')
		return NULL;
	for (size_t j = k + 1; j + k <= n; j++)
		if (!memcmp(s + j, "**", k) && s[j - 1] != ' ' &&
		    (j + k == n || s[j + k] != '*'))
			return s + j;
	return NULL;
}

/* A web link written [label](https://…): its parts, or false. */
static bool md_link(const char *s, size_t n, size_t *label_end,
                    size_t *url_end)
{
	const char *close = memchr(s, ']', n);
	if (!close || close == s + 1 || (size_t)(close - s) + 2 >= n ||
	    close[1] != '(')
		return false;
	const char *url = close + 2;
	size_t rest = n - (size_t)(url - s);
	if (!(rest > 8 && !strncmp(url, "https://", 8)) &&
	    !(rest > 7 && !strncmp(url, "http://", 7)))
		return false;
	const char *end = memchr(url, ')', rest);
	if (!end || memchr(url, ' ', (size_t)(end - url)))
		return false;
	*label_end = (size_t)(close - s);
	*url_end = (size_t)(end - s);
	return true;
}

/* Text with the FAQ's inline markup made HTML: **strong**, *emphasis*
 * and [label](https://…) links; anything else stays text as it is. */
void html_inline(struct page_doc *d, xmlNodePtr parent, const char *s,
                 size_t n)
{
	size_t from = 0;
	for (size_t j = 0; j < n && !d->rc; j++) {
		size_t k = s[j] == '*' ? (j + 1 < n && s[j + 1] == '*' ? 2 : 1) : 0;
		const char *c = k && (j == 0 || s[j - 1] != '*')
		              ? closing(s + j, n - j, k) : NULL;
		size_t le, ue;
		if (c) {
			html_text_len(d, parent, s + from, j - from);
			xmlNodePtr e = html_el(d, parent, k == 2 ? "strong" : "em", NULL);
			html_inline(d, e, s + j + k, (size_t)(c - (s + j)) - k);
			j = (size_t)(c - s) + k - 1;
			from = j + 1;
		} else if (s[j] == '[' && md_link(s + j, n - j, &le, &ue)) {
			html_text_len(d, parent, s + from, j - from);
			xmlNodePtr a = html_el(d, parent, "a", NULL);
			char *href = rl_strndup(s + j + le + 2, ue - le - 2);
			if (!href)
				html_fail(d, RL_ENOMEM);
			html_attr(d, a, "href", href ? href : "");
			html_attr(d, a, "rel", "nofollow noopener noreferrer");
			free(href);
			html_inline(d, a, s + j + 1, le - 1);
			j += ue;
			from = j + 1;
		}
	}
	if (from < n)
		html_text_len(d, parent, s + from, n - from);
}

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
	xmlNodePtr div = html_el(d, parent, "div", NULL);
	html_attr(d, div, "class", "answer");
	xmlNodePtr para = NULL, list = NULL;
	while (*s && !d->rc) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s), skip;
		if (rl_is_blank_line(s, n)) {
			para = list = NULL;
		} else if (is_bullet_line(s, n, &skip)) {
			para = NULL;
			if (!list)
				list = html_el(d, div, "ul", NULL);
			html_inline(d, html_el(d, list, "li", NULL), s + skip, n - skip);
		} else {
			list = NULL;
			if (para)
				html_el(d, para, "br", NULL);
			else
				para = html_el(d, div, "p", NULL);
			html_inline(d, para, s, n);
		}
		s += n + (nl != NULL);
	}
}

/* The word diff of an edit, title included when it changed. */
static void word_diff(struct page_doc *d, xmlNodePtr det,
                      const struct rl_version *prev,
                      const struct rl_version *last)
{
	xmlNodePtr w = html_el(d, det, "div", NULL);
	html_attr(d, w, "class", "wdiff");
	struct rl_buf ob = {0}, nb = {0};
	if (strcmp(prev->title, last->title) != 0) {
		rl_buf_addf(&ob, "%s\n\n", prev->title);
		rl_buf_addf(&nb, "%s\n\n", last->title);
	}
	rl_buf_adds(&ob, prev->text);
	rl_buf_adds(&nb, last->text);
	char *old_all = rl_buf_take(&ob), *new_all = rl_buf_take(&nb);
	struct rl_wdiff_op *ops = NULL;
	size_t nops = 0;
	bool whole;
	if (!old_all || !new_all)
		html_fail(d, RL_ENOMEM);
	else
		html_fail(d, rl_word_diff(old_all, new_all, &ops, &nops, &whole));
	static const char *const tags[] = { NULL, "del", "ins" };
	for (size_t k = 0; k < nops && !d->rc; k++)
		html_text_len(d, ops[k].mark ? html_el(d, w, tags[ops[k].mark], NULL)
		                             : w, ops[k].s, ops[k].n);
	free(ops);
	free(old_all);
	free(new_all);
}

/* "changed" and the word diff of the last recorded edit. */
static void changes(struct page_doc *d, xmlNodePtr h, xmlNodePtr art,
                    const struct rl_ruling *r)
{
	struct rl_version *v = NULL;
	size_t n = 0;
	int rc = rl_history(rl_export_db(d->x), r->id, &v, &n);
	if (rc != RL_NOTFOUND && html_fail(d, rc))
		return;
	const struct rl_version *last = n ? &v[n - 1] : NULL, *prev = NULL;
	for (size_t k = n - (n > 0); last && k-- > 0 && !prev; )
		if (v[k].text)
			prev = &v[k];
	bool edited = last && prev && last->text &&
	              strcmp(last->change, "edited") == 0;
	if (r->changed || edited) {
		xmlNodePtr b = html_ui_el(d, h, "span", html_msg(d, MSG_CHANGED));
		html_attr(d, b, "class", "badge");
		html_attr(d, b, "title", html_msg(d, edited ? MSG_CHANGED_EDITED
		                                         : MSG_CHANGED_MARKED));
	}
	if (edited) {
		xmlNodePtr det = html_el(d, art, "div", NULL);
		html_attr(d, det, "class", "diff");
		char at[11];
		/* the version's date (or its import's day) */
		const char *day = last->date ? last->date : last->at;
		snprintf(at, sizeof at, "%.10s", day ? day : "");
		const char *const args[] = { at, last->document ? last->document : "" };
		char *summary = msg_fill(html_msg(d, MSG_LAST_CHANGE), 2, args);
		if (!summary)
			html_fail(d, RL_ENOMEM);
		xmlNodePtr sp = html_ui_el(d, det, "p", summary);
		html_attr(d, sp, "class", "meta");
		free(summary);
		word_diff(d, det, prev, last);
	}
	rl_history_free(v, n);
}

/* "see X", "rule 702.19", "page 12", "term Flying": a new string. */
static char *ref_label(struct page_doc *d, const struct rl_ref_out *x)
{
	static const struct { const char *kind; enum rl_msg msg; } kinds[] = {
		{ "ruling", MSG_REF_RULING }, { "page", MSG_REF_PAGE },
		{ "rule", MSG_REF_RULE }, { "term", MSG_REF_TERM },
		{ "url", MSG_REF_URL },
	};
	const char *const args[] = { rl_ref_shown(x) };
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
		if (!strcmp(x->kind, kinds[k].kind))
			return msg_fill(html_msg(d, kinds[k].msg), 1, args);
	struct rl_buf b = {0};
	rl_buf_addf(&b, "%s %s", x->kind, rl_ref_shown(x));
	return rl_buf_take(&b);
}

static void refs(struct page_doc *d, xmlNodePtr art, const struct rl_ruling *r)
{
	if (!r->nrefs)
		return;
	xmlNodePtr p = html_el(d, art, "p", NULL);
	html_attr(d, p, "class", "refs");
	html_ui_text(d, p, html_msg(d, MSG_REFERENCES));
	bool discussion = false, first = true;
	for (size_t k = 0; k < r->nrefs && !d->rc; k++) {
		const struct rl_ref_out *x = &r->refs[k];
		/* the source's "(Discussion elsewhere)", however often it says
		 * it, once */
		bool disc = strcmp(x->kind, "discussion") == 0;
		if (disc && discussion)
			continue;
		if (!first)
			html_text(d, p, "; ");
		first = false;
		if (disc) {
			discussion = true;
			html_ui_text(d, p, html_msg(d, MSG_DISCUSSION));
			continue;
		}
		char *label = ref_label(d, x);
		if (!label) {
			html_fail(d, RL_ENOMEM);
			break;
		}
		size_t i;
		char *href = NULL;
		if (x->target_id && export_find(d->x, x->target_id, &i))
			href = html_href_ruling(d, i);
		bool web = strcmp(x->kind, "url") == 0 &&
		           (strncmp(x->target, "https://", 8) == 0 ||
		            strncmp(x->target, "http://", 7) == 0);
		if (href) {
			html_ui_mark(d, html_link(d, p, href, label));
		} else if (web) {
			xmlNodePtr a = html_link(d, p, x->target, x->target);
			html_attr(d, a, "rel", "nofollow noopener noreferrer");
		} else {
			html_ui_text(d, p, label);
		}
		free(href);
		free(label);
	}
}

static void backlinks(struct page_doc *d, xmlNodePtr art,
                      const struct rl_ruling *r)
{
	xmlNodePtr p = NULL;
	for (size_t k = 0; k < r->nbacklinks && !d->rc; k++) {
		size_t i;
		const struct rl_ref_out *x = &r->backlinks[k];
		if (!export_find(d->x, x->target_id, &i))
			continue;
		char *href = html_href_ruling(d, i);
		if (!href)
			continue;
		if (!p) {
			p = html_el(d, art, "p", NULL);
			html_attr(d, p, "class", "backlinks");
			html_ui_text(d, p, html_msg(d, MSG_CITED_BY));
		} else {
			html_text(d, p, "; ");
		}
		html_link(d, p, href, x->target_title ? x->target_title : "");
		free(href);
	}
}

/* A paragraph of class cls holding the text b built (NULL: none). */
static void para(struct page_doc *d, xmlNodePtr art, const char *cls,
                 struct rl_buf *b)
{
	char *s = rl_buf_take(b);
	if (!s)
		html_fail(d, RL_ENOMEM);
	html_attr(d, html_ui_el(d, art, "p", s), "class", cls);
	free(s);
}

/* The line of facts (kind, language, game, rule, author, date): interface
 * words, and the language's name, so in the interface language; the game
 * and author are names. */
static void meta(struct page_doc *d, xmlNodePtr art, const struct rl_ruling *r)
{
	struct rl_buf b = {0};
	rl_buf_addf(&b, "%s \xC2\xB7 %s \xC2\xB7 %s", msg_kind(d->ui, r->kind),
	            msg_lang_name(d->ui, r->lang), r->game ? r->game : html_msg(d, MSG_NO_GAME));
	if (r->rule) {
		const char *const args[] = { r->rule };
		char *rule = msg_fill(html_msg(d, MSG_REF_RULE), 1, args);
		if (!rule)
			html_fail(d, RL_ENOMEM);
		rl_buf_addf(&b, " \xC2\xB7 %s", rule ? rule : "");
		free(rule);
	}
	if (r->author)
		rl_buf_addf(&b, " \xC2\xB7 %s", r->author);
	if (r->date)
		rl_buf_addf(&b, " \xC2\xB7 %.10s", r->date);
	para(d, art, "meta", &b);
	if (r->errata) {
		const struct rl_errata *x = r->errata;
		struct rl_buf e = {0};
		const char *const product[] = { x->product ? x->product : "?" };
		char *s = msg_fill(html_msg(d, MSG_ERRATA), 1, product);
		bool ok = s != NULL;
		rl_buf_adds(&e, s ? s : "");
		free(s);
		if (x->printing)
			rl_buf_addf(&e, ", %s", x->printing);
		if (x->document)
			rl_buf_addf(&e, "; %s", x->document);
		if (x->page) {
			const char *const page[] = { x->page };
			s = msg_fill(html_msg(d, MSG_ERRATA_PAGE), 1, page);
			ok = ok && s;
			rl_buf_adds(&e, s ? s : "");
			free(s);
		}
		if (!ok)
			html_fail(d, RL_ENOMEM);
		para(d, art, "errata", &e);
	}
}

xmlNodePtr html_entry(struct page_doc *d, xmlNodePtr parent, size_t i,
                      int level)
{
	struct rl_ruling r;
	if (html_fail(d, export_ruling(d->x, i, &r)))
		return NULL;
	char id[32];
	snprintf(id, sizeof id, "r%lld", r.id);
	xmlNodePtr art = html_el(d, parent, "div", NULL);
	html_attr(d, art, "class", "entry");
	html_attr(d, art, "id", id);
	html_attr(d, art, "lang", r.lang);
	/* inside, interface words not in the entry's language carry the
	 * page's */
	const char *ctx = d->ctx;
	d->ctx = r.lang;
	char hn[3] = { 'h', (char)('0' + (level < 2 ? 2 : level > 6 ? 6 : level)),
	               '\0' };
	xmlNodePtr h = html_el(d, art, hn, NULL);
	char self[34];
	snprintf(self, sizeof self, "#%s", id);
	/* the "#" says nothing to a screen reader: its label does */
	xmlNodePtr a = html_link(d, h, self, "#");
	html_attr(d, a, "class", "anchor");
	html_attr(d, a, "aria-label", html_msg(d, MSG_ANCHOR_LABEL));
	html_ui_mark(d, a);
	html_inline(d, h, r.title, strlen(r.title));
	changes(d, h, art, &r);
	answer(d, art, r.text);
	meta(d, art, &r);
	xmlNodePtr tp = html_el(d, art, "p", NULL);
	html_attr(d, tp, "class", "tags");
	html_ui_text(d, tp, html_msg(d, r.ntags ? MSG_TAGS_LABEL : MSG_NO_TAGS));
	for (size_t k = 0; k < r.ntags && !d->rc; k++) {
		if (k)
			html_text(d, tp, ", ");
		tag_link(d, tp, r.tags[k]);
	}
	if (r.hidden_tags > 0) {
		char *more = html_count(d, MSG_AND_MORE, (size_t)r.hidden_tags);
		html_text(d, tp, ", ");
		html_ui_text(d, tp, more ? more : "");
		free(more);
	}
	refs(d, art, &r);
	backlinks(d, art, &r);
	d->ctx = ctx;
	rl_ruling_clear(&r);
	return art;
}
