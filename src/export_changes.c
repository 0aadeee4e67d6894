/* export_changes.c — a site's changes: changes.html (newest first,
 * grouped by date) and Atom feeds (export_atom.c) for the whole site
 * (changes.atom), each game and each tag, each beside its page
 * (game-….atom beside game-….html), which announces it with <link
 * rel="alternate" type="application/atom+xml">.
 *
 * A site's changes are those of its rulings, and the withdrawals of
 * rulings whose last tags have pages in it (or, in an export of every
 * ruling, of its game and language): a withdrawn ruling is selected by
 * no search, and its withdrawal is news to the readers of its tags. A
 * feed is written for every tag and game page, with no entry yet if
 * nothing changed, so that a reader can follow it before anything does. */
#include "export_html.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char CHANGES_HTML[] = "changes.html";
static const char CHANGES_ATOM[] = "changes.atom";

/* A change's date: its version's, else its import's. */
static const char *date_of(const struct rl_change *c)
{
	return c->date ? c->date : c->at ? c->at : "";
}

static struct rl_export *sort_x;

/* newest date first; the order rl_changes() gave within a date */
static int cmp_change(const void *a, const void *b)
{
	const struct export_change *x = a, *y = b;
	int c = strncmp(date_of(&sort_x->changes[y->c]),
	                date_of(&sort_x->changes[x->c]), 10);
	return c ? c : (x->c > y->c) - (x->c < y->c);
}

static bool add_page(struct export_change *e, size_t page, size_t *cap)
{
	for (size_t k = 0; k < e->npages; k++)
		if (e->pages[k] == page)
			return true;
	if (!rl_grow(&e->pages, cap, e->npages + 1, sizeof *e->pages))
		return false;
	e->pages[e->npages++] = page;
	return true;
}

/* The pages of a ruling that is not selected (a withdrawn one): those of
 * its last tags. */
static int tag_pages(struct rl_export *x, sqlite3_stmt *st, long long id,
                     struct export_change *e, size_t *cap)
{
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, id);
	int s, rc = RL_OK;
	while (!rc && (s = sqlite3_step(st)) == SQLITE_ROW) {
		char *tag = rl_tag_display((const char *)sqlite3_column_text(st, 0),
		                           (const char *)sqlite3_column_text(st, 1));
		const struct export_page *p = NULL;
		rc = tag ? export_page_of(x, tag, &p)
		         : rl_db_fail(x->db, RL_ENOMEM, "out of memory");
		if (!rc && p && !add_page(e, (size_t)(p - x->pages), cap))
			rc = rl_db_fail(x->db, RL_ENOMEM, "out of memory");
		free(tag);
	}
	if (!rc && s != SQLITE_DONE)
		rc = rl_db_sqlite_fail(x->db, s, "export");
	return rc;
}

static bool same(const char *option, const char *value)
{
	return !option || !strcmp(option, "any") ||
	       (value && !strcasecmp(option, value));
}

/* Which changes the site shows, and on which pages' feeds. */
static int place(struct rl_export *x, const struct rl_export_opts *o)
{
	sqlite3_stmt *st = rl_db_prepare(x->db,
		"SELECT t.name, t.qualifier FROM ruling_tags rt"
		" JOIN tags t ON t.id = rt.tag_id WHERE rt.ruling_id = ?1"
		" ORDER BY t.name_fold, t.qual_fold");
	sqlite3_stmt *wd = st ? rl_db_prepare(x->db,
		"SELECT withdrawn_at IS NOT NULL FROM rulings WHERE id = ?1") : NULL;
	if (!wd) {
		sqlite3_finalize(st);
		return RL_EINTERNAL;
	}
	x->cinfo = calloc(x->nchanges ? x->nchanges : 1, sizeof *x->cinfo);
	int rc = x->cinfo ? RL_OK : rl_db_fail(x->db, RL_ENOMEM, "out of memory");
	bool everything = !o->tag && !o->nwords;
	for (size_t j = 0; j < x->nchanges && !rc; j++) {
		const struct rl_change *c = &x->changes[j];
		struct export_change e = { .c = j, .i = (size_t)-1 };
		size_t cap = 0, i;
		if (export_find(x, c->id, &i)) {
			e.i = i;
			for (size_t k = 0; k < x->npages && !rc; k++)
				if (x->pages[k].kind == EXPORT_PAGE_TAG &&
				    export_on_page(&x->pages[k], i) &&
				    !add_page(&e, k, &cap))
					rc = rl_db_fail(x->db, RL_ENOMEM, "out of memory");
		} else {
			/* a ruling withdrawn since, of the site's game and
			 * language, on the pages of its last tags */
			bool gone = false;
			sqlite3_reset(wd);
			sqlite3_bind_int64(wd, 1, c->id);
			int s = sqlite3_step(wd);
			if (s == SQLITE_ROW)
				gone = sqlite3_column_int(wd, 0);
			else if (s != SQLITE_DONE)
				rc = rl_db_sqlite_fail(x->db, s, "export");
			if (!rc && gone && same(o->game, c->game) && same(o->lang, c->lang))
				rc = tag_pages(x, st, c->id, &e, &cap);
			if (!rc && !(gone && same(o->game, c->game) &&
			             same(o->lang, c->lang) && (e.npages || everything))) {
				free(e.pages);
				continue;       /* not this site's */
			}
		}
		/* its game's page */
		const struct export_page *gp = c->game ? export_game_page(x, c->game)
		                                       : NULL;
		if (!rc && gp && !add_page(&e, (size_t)(gp - x->pages), &cap))
			rc = rl_db_fail(x->db, RL_ENOMEM, "out of memory");
		if (rc)
			free(e.pages);
		else
			x->cinfo[x->ncinfo++] = e;
	}
	sqlite3_finalize(st);
	sqlite3_finalize(wd);
	if (!rc) {
		sort_x = x;
		qsort(x->cinfo, x->ncinfo, sizeof *x->cinfo, cmp_change);
		sort_x = NULL;
	}
	return rc;
}

/* The feed of a page: its file name with .atom for .html. */
static char *feed_name(const char *file)
{
	size_t n = strlen(file);
	if (n > 5 && !strcmp(file + n - 5, ".html"))
		n -= 5;
	struct rl_buf b = {0};
	rl_buf_addf(&b, "%.*s.atom", (int)n, file);
	return rl_buf_take(&b);
}

int export_changes_plan(struct rl_export *x, const struct rl_export_opts *o)
{
	struct rl_change_query q = { .marked = true, .recorded = true };
	int rc = rl_changes(x->db, &q, &x->changes, &x->nchanges);
	if (rc && rc != RL_NOTFOUND)
		return rc;
	rc = place(x, o);
	/* the feeds' ids follow what the export selected */
	struct rl_buf b = {0};
	rl_buf_adds(&b, "");
	if (o->game)
		rl_buf_addf(&b, "game\x1F%s\x1F", o->game);
	if (o->lang)
		rl_buf_addf(&b, "lang\x1F%s\x1F", o->lang);
	for (size_t k = 0; k < o->nwords; k++)
		rl_buf_addf(&b, "word\x1F%s\x1F", o->words[k]);
	if (!rc && !(x->scope = rl_buf_take(&b)))
		rc = rl_db_fail(x->db, RL_ENOMEM, "out of memory");
	rl_buf_free(&b);
	/* the files: changes.html, changes.atom, a feed per tag and game */
	size_t cap = 0;
	for (long k = -2; !rc && k < (long)x->npages; k++) {
		const struct export_page *p = k >= 0 ? &x->pages[k] : NULL;
		if (p && p->kind != EXPORT_PAGE_TAG && p->kind != EXPORT_PAGE_GAME)
			continue;
		char *name = p ? feed_name(p->file)
		           : rl_strdup(k == -2 ? CHANGES_HTML : CHANGES_ATOM);
		if (!name || !rl_grow(&x->extra, &cap, x->nextra + 1,
		                      sizeof *x->extra)) {
			free(name);
			rc = rl_db_fail(x->db, RL_ENOMEM, "out of memory");
		} else {
			x->extra[x->nextra++] = (struct export_extra){ name, k };
		}
	}
	for (size_t k = 0; !rc && k < x->nextra; k++)
		if (x->extra[k].page >= 0)
			x->pages[x->extra[k].page].feed = x->extra[k].file;
	x->feeds = !rc;
	return rc;
}

void export_changes_free(struct rl_export *x)
{
	for (size_t k = 0; k < x->ncinfo; k++)
		free(x->cinfo[k].pages);
	free(x->cinfo);
	rl_changes_free(x->changes, x->nchanges);
	for (size_t k = 0; k < x->nextra; k++)
		free(x->extra[k].file);
	free(x->extra);
	free(x->scope);
}

const char *export_feed_of(const struct rl_export *x,
                           const struct export_page *p)
{
	return p ? p->feed : x->feeds ? CHANGES_ATOM : NULL;
}

const char *export_changes_page(const struct rl_export *x)
{
	return x->feeds ? CHANGES_HTML : NULL;
}

/* Where change k's ruling is, "file.html#anchor", or NULL. */
static char *ruling_href(struct rl_export *x, const struct export_change *e)
{
	if (e->i == (size_t)-1 || x->home[e->i] == (size_t)-1)
		return NULL;
	const struct export_page *p = &x->pages[x->home[e->i]];
	char *anchor = export_anchor(x, p, e->i);
	struct rl_buf b = {0};
	if (anchor)
		rl_buf_addf(&b, "%s#%s", p->file, anchor);
	free(anchor);
	return anchor ? rl_buf_take(&b) : NULL;
}

/* The language of changes.html and of the site's feed: that of most of
 * the site's changes. */
static const char *changes_lang(const struct rl_export *x)
{
	struct msg_tally t = {0};
	for (size_t k = 0; k < x->ncinfo; k++)
		msg_tally_add(&t, x->changes[x->cinfo[k].c].lang);
	return msg_tally_best(&t);
}

/* A feed: the changes on page (-1: every change), in the page's
 * language. */
static int render_feed(struct rl_export *x, long page, const char *self,
                       const struct rl_sink *out)
{
	const struct export_page *p = page >= 0 ? &x->pages[page] : NULL;
	struct rl_change *v = malloc((x->ncinfo ? x->ncinfo : 1) * sizeof *v);
	char **links = calloc(x->ncinfo ? x->ncinfo : 1, sizeof *links);
	struct rl_buf scope = {0};
	int rc = v && links ? RL_OK : RL_ENOMEM;
	size_t n = 0;
	for (size_t k = 0; k < x->ncinfo && !rc; k++) {
		const struct export_change *e = &x->cinfo[k];
		bool in = !p;
		for (size_t j = 0; j < e->npages && !in; j++)
			in = e->pages[j] == (size_t)page;
		if (!in)
			continue;
		v[n] = x->changes[e->c];
		links[n] = ruling_href(x, e);
		if (!links[n] && e->i != (size_t)-1 && x->home[e->i] != (size_t)-1)
			rc = RL_ENOMEM;
		n++;
	}
	/* the feed's id: the same for the same selection of the same
	 * documents ("game" and "tag" as rulings changed --game names them) */
	rl_buf_adds(&scope, x->scope);
	if (p && p->kind == EXPORT_PAGE_GAME)
		rl_buf_addf(&scope, "game\x1F%s", p->title);
	else if (p)
		rl_buf_addf(&scope, "tag\x1F%s", p->key ? p->key : "");
	const char *lang = !p ? changes_lang(x)
	                 : p->kind == EXPORT_PAGE_GAME
	                 ? html_majority_lang(x, NULL, 0, p->title)
	                 : html_majority_lang(x, p->v, p->n, NULL);
	const struct msg_lang *ui = msg_lang_or_en(lang);
	const char *const what[] = {
		p ? p->title ? p->title : msg_get(ui, MSG_NO_TAG)
		  : msg_get(ui, MSG_INDEX_TITLE)
	};
	char *title = msg_fill(msg_get(ui, MSG_FEED_OF), 1, what);
	if (scope.oom || !title)
		rc = RL_ENOMEM;
	if (!rc) {
		struct rl_atom_feed f = {
			.title = title, .scope = scope.s, .self = self,
			.lang = lang ? lang : "en",
			.alternate = p ? p->file : CHANGES_HTML,
			.links = (const char *const *)links,
		};
		rc = rl_changes_atom(x->db, v, n, &f, out);
	} else {
		rc = rl_db_fail(x->db, RL_ENOMEM, "out of memory");
	}
	for (size_t k = 0; links && k < n; k++)
		free(links[k]);
	free(links);
	free(v);
	rl_buf_free(&scope);
	free(title);
	return rc;
}

/* One change on changes.html. */
static void change_item(struct page_doc *d, xmlNodePtr parent,
                        const struct export_change *e)
{
	const struct rl_change *c = &d->x->changes[e->c];
	xmlNodePtr div = html_el(d, parent, "div", NULL);
	html_attr(d, div, "class", "entry");
	if (c->lang && *c->lang)
		html_attr(d, div, "lang", c->lang);
	const char *ctx = d->ctx;
	if (c->lang && *c->lang)
		d->ctx = c->lang;       /* the entry's language */
	xmlNodePtr h = html_el(d, div, "h3", NULL);
	struct rl_buf b = {0};
	rl_buf_addf(&b, "%s%s%s", c->rule ? c->rule : "", c->rule ? " " : "",
	            c->title ? c->title : "");
	char *label = rl_buf_take(&b), *href = ruling_href(d->x, e);
	if (!label)
		html_fail(d, RL_ENOMEM);
	if (href)
		html_link(d, h, href, label ? label : "");
	else
		html_text(d, h, label ? label : "");
	free(label);
	free(href);
	/* the change's facts: the page's words (marked when the entry is
	 * in another language) */
	const char *const doc[] = { c->document ? c->document : "" };
	char *from = msg_fill(html_msg(d, MSG_CHANGE_FROM), 1, doc);
	rl_buf_addf(&b, "%s \xC2\xB7 %s \xC2\xB7 %s",
	            msg_change(d->ui, c->change), from ? from : "",
	            c->game ? c->game : html_msg(d, MSG_NO_GAME));
	char *meta = from ? rl_buf_take(&b) : NULL;
	if (!meta)
		html_fail(d, RL_ENOMEM);
	free(from);
	rl_buf_free(&b);
	html_attr(d, html_ui_el(d, div, "p", meta), "class", "meta");
	free(meta);
	xmlNodePtr w = html_el(d, div, "div", NULL);
	html_attr(d, w, "class", "wdiff");
	if (!strcmp(c->change, "edited")) {
		char *o, *n;
		struct rl_wdiff_op *ops = NULL;
		size_t nops = 0;
		bool whole;
		if (export_change_texts(c, &o, &n))
			html_fail(d, RL_ENOMEM);
		else
			html_fail(d, rl_word_diff(o, n, &ops, &nops, &whole));
		static const char *const tags[] = { NULL, "del", "ins" };
		for (size_t k = 0; k < nops && !d->rc; k++)
			html_text_len(d, ops[k].mark ? html_el(d, w, tags[ops[k].mark],
			                                       NULL) : w,
			              ops[k].s, ops[k].n);
		free(ops);
		free(o);
		free(n);
	} else if (!strcmp(c->change, "withdrawn")) {
		html_el(d, w, "del", c->old_text ? c->old_text : "");
	} else {
		html_text(d, w, c->new_text ? c->new_text : "");
	}
	d->ctx = ctx;
}

/* changes.html: the changes, newest first, under a heading per date. */
static int render_page(struct rl_export *x, const struct rl_sink *out)
{
	struct page_doc d;
	/* the page's language: that of most of its changes */
	const char *lang = changes_lang(x);
	html_page_open(&d, x, NULL, out);
	d.ui = msg_lang_or_en(lang);        /* the title is in it too */
	html_begin(&d, html_msg(&d, MSG_CHANGES), lang);
	xmlNodePtr mn = html_el(&d, d.body, "div", NULL);
	html_el(&d, mn, "h1", html_msg(&d, MSG_CHANGES));
	if (!x->ncinfo)
		html_el(&d, mn, "p", html_msg(&d, MSG_NO_CHANGE));
	const char *day = NULL;
	for (size_t k = 0; k < x->ncinfo && !d.rc; k++) {
		const char *dt = date_of(&x->changes[x->cinfo[k].c]);
		if (!day || strncmp(day, dt, 10)) {
			char h[16];
			snprintf(h, sizeof h, "%.10s", dt);
			html_el(&d, mn, "h2", h);
			day = dt;
		}
		change_item(&d, mn, &x->cinfo[k]);
	}
	html_write_whole(&d);
	return html_page_close(&d);
}

int export_changes_render(struct rl_export *x, size_t k,
                          const struct rl_sink *out)
{
	const struct export_extra *e = &x->extra[k];
	return e->page == -2 ? render_page(x, out)
	     : render_feed(x, e->page, e->file, out);
}
