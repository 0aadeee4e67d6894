/* export_md.c — a page as Markdown, for people: sections, categories and
 * questions as headings (each entry's with its anchor, <a id="r123"></a>),
 * nested bullets as lists, tags linked to their pages, interface words from
 * the catalog in the page's language; every character Markdown could read
 * as markup is escaped. */
#include "export_md.h"
#include "msg.h"

#include <stdlib.h>
#include <string.h>

static const char BULLET[] = "\xE2\x80\xA2";     /* • */

void md_text_at(struct rl_out *o, const char *s, size_t n, bool line_start)
{
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];
		if (ch == '\n' || ch == '\r') {
			rl_out_addc(o, ' ');
			continue;
		}
		if (line_start) {
			/* "1." or "1)" would start a list */
			size_t d = i;
			while (d < n && s[d] >= '0' && s[d] <= '9')
				d++;
			if (d > i && d < n && (s[d] == '.' || s[d] == ')')) {
				rl_out_add(o, s + i, d - i);
				rl_out_addc(o, '\\');
				rl_out_addc(o, s[d]);
				i = d;
				line_start = false;
				continue;
			}
			if (strchr("#+-=>", ch) && ch)
				rl_out_addc(o, '\\');
			line_start = false;
		}
		if (strchr("\\`*_[]<>|~&", ch) && ch)
			rl_out_addc(o, '\\');
		rl_out_addc(o, ch);
	}
}

void md_text(struct rl_out *o, const char *s, size_t n)
{
	md_text_at(o, s, n, true);
}

void md_str(struct rl_out *o, const char *s)
{
	md_text(o, s, strlen(s));
}

/* The answer: paragraphs, and "• " lines as list items. */
static void md_answer(struct rl_out *o, const char *text)
{
	const char *s = text;
	bool in_list = false, in_para = false;
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		size_t b = 0;
		while (b < n && s[b] == ' ')
			b++;
		bool blank = b == n;
		bool bullet = !blank && n - b >= sizeof BULLET - 1 &&
		              memcmp(s + b, BULLET, sizeof BULLET - 1) == 0;
		if (blank) {
			if (in_para)
				rl_out_adds(o, "\n\n");
			else if (in_list)
				rl_out_addc(o, '\n');
			in_list = in_para = false;
		} else if (bullet) {
			if (in_para)
				rl_out_adds(o, "\n\n");
			in_para = false;
			size_t t = b + sizeof BULLET - 1;
			while (t < n && s[t] == ' ')
				t++;
			rl_out_adds(o, b > 0 && in_list ? "    - " : "- ");
			md_text(o, s + t, n - t);
			rl_out_addc(o, '\n');
			in_list = true;
		} else {
			if (in_list)
				rl_out_addc(o, '\n');
			else if (in_para)
				rl_out_adds(o, "  \n");     /* a hard line break */
			in_list = false;
			md_text(o, s + b, n - b);
			in_para = true;
		}
		s += n + (nl != NULL);
	}
	if (in_para)
		rl_out_addc(o, '\n');
}

/* A tag page's state: its interface words in its language (most of its
 * rulings'), an entry in another language marked as such. */
struct md_tag {
	struct rl_export *x;
	struct rl_out o;
	const char *lang;
	const struct msg_lang *ui;
	int rc;
};

static void tag_fail(struct md_tag *t, int rc)
{
	if (rc && !t->rc)
		t->rc = rc == RL_ENOMEM ? rl_db_fail(t->x->db, rc, "out of memory")
		                        : rc;
}

/* A label ("Tags: ") in italics, its trailing spaces after them. */
static void label(struct rl_out *o, const char *s, size_t n)
{
	size_t e = n;
	while (e > 0 && s[e - 1] == ' ')
		e--;
	rl_out_addc(o, '*');
	md_text(o, s, e);
	rl_out_adds(o, "* ");
}

/* A filled message; NULL arguments leave it out. */
static void filled(struct md_tag *t, enum rl_msg id, const char *arg,
                   bool skip_comma)
{
	const char *const args[] = { arg };
	char *s = msg_fill(msg_get(t->ui, id), 1, args);
	if (!s) {
		tag_fail(t, RL_ENOMEM);
		return;
	}
	const char *p = s;
	if (skip_comma && p[0] == ',' && p[1] == ' ')
		p += 2;
	md_text_at(&t->o, p, strlen(p), false);
	free(s);
}

static int md_link(struct rl_export *x, struct rl_out *o, const char *tag)
{
	const struct export_page *p = NULL;
	int rc = x->tree ? export_page_of(x, tag, &p) : RL_OK;
	if (p) {
		rl_out_addc(o, '[');
		md_str(o, tag);
		rl_out_addf(o, "](%s)", p->file);     /* a slug: safe in a link */
	} else {
		md_str(o, tag);
	}
	return rc;
}

/* An entry: its heading with its anchor "r" and its id (as html's), so a
 * rule naming it links page.md#r123. */
static void md_entry(struct md_tag *t, const struct rl_ruling *r)
{
	struct rl_out *o = &t->o;
	bool other = r->lang && *r->lang && t->lang && strcmp(r->lang, t->lang);
	rl_out_addf(o, "#### <a id=\"r%lld\"></a>", r->id);
	if (other)
		rl_out_addf(o, "<span lang=\"%s\">", r->lang);
	md_str(o, r->title);
	rl_out_adds(o, other ? "</span>\n\n" : "\n\n");
	if (r->changed) {
		rl_out_adds(o, "**");
		md_str(o, msg_get(t->ui, MSG_CHANGED_ANSWER));
		rl_out_adds(o, "**\n\n");
	}
	if (other)
		rl_out_addf(o, "<div lang=\"%s\">\n\n", r->lang);
	md_answer(o, r->text);
	rl_out_addc(o, '\n');
	if (other)
		rl_out_adds(o, "</div>\n\n");
	if (r->errata) {
		const char *tmpl = msg_get(t->ui, MSG_ERRATA);
		const char *arg = strstr(tmpl, "{1}");
		label(o, tmpl, arg ? (size_t)(arg - tmpl) : strlen(tmpl));
		const char *parts[] = { r->errata->product, r->errata->printing,
		                        r->errata->document };
		bool any = false;
		for (size_t k = 0; k < 3; k++)
			if (parts[k]) {
				rl_out_adds(o, any ? ", " : "");
				md_str(o, parts[k]);
				any = true;
			}
		if (r->errata->page)
			filled(t, MSG_ERRATA_PAGE, r->errata->page, !any);
		rl_out_adds(o, "\n\n");
	}
	size_t discussions = 0;
	for (size_t k = 0; k < r->nrefs; k++)
		discussions += strcmp(r->refs[k].kind, "discussion") == 0;
	if (discussions) {
		rl_out_addc(o, '*');
		md_str(o, msg_get(t->ui, MSG_DISCUSSION));
		rl_out_adds(o, "*  \n");
	}
	const char *tl = msg_get(t->ui, MSG_TAGS_LABEL);
	label(o, tl, strlen(tl));
	for (size_t k = 0; k < r->ntags && !t->rc; k++) {
		if (k)
			rl_out_adds(o, ", ");
		tag_fail(t, md_link(t->x, o, r->tags[k]));
	}
	if (r->hidden_tags > 0) {
		char *more = msg_count(t->ui, MSG_AND_MORE, (size_t)r->hidden_tags);
		if (!more)
			tag_fail(t, RL_ENOMEM);
		rl_out_adds(o, r->ntags ? ", " : "");
		md_text_at(o, more ? more : "", more ? strlen(more) : 0, false);
		free(more);
	}
	rl_out_adds(o, "\n\n");
}

static void headings(struct rl_out *o, const struct export_item *it)
{
	if (it->new_section) {
		rl_out_adds(o, "## ");
		md_str(o, it->section);
		rl_out_adds(o, "\n\n");
	}
	if (it->new_category) {
		rl_out_adds(o, "### ");
		md_str(o, it->category);
		rl_out_adds(o, "\n\n");
	}
}

/* A tag's page (the untagged rulings' when it has no title). */
static int tag_page(struct rl_export *x, const struct export_page *p,
                    const struct rl_sink *out)
{
	struct export_item *items;
	int rc = export_order(x, p, &items);
	if (rc)
		return rc;
	struct md_tag t = { .x = x };
	rl_out_init(&t.o, out);
	t.lang = export_majority_lang(x, p->v, p->n, NULL);
	t.ui = msg_lang_or_en(t.lang);
	rl_out_adds(&t.o, "# ");
	md_str(&t.o, p->title ? p->title : msg_get(t.ui, MSG_NO_TAG));
	rl_out_adds(&t.o, "\n\n");
	for (size_t k = 0; k < p->n && !t.rc && rl_out_ok(&t.o); k++) {
		headings(&t.o, &items[k]);
		struct rl_ruling r;
		tag_fail(&t, export_ruling(x, items[k].i, &r));
		if (!t.rc)
			md_entry(&t, &r);
		rl_ruling_clear(&r);
	}
	free(items);
	int frc = export_finish(x, &t.o);
	return t.rc ? t.rc : frc;
}

int export_md_page(struct rl_export *x, size_t page, const struct rl_sink *out)
{
	const struct export_page *p = &x->pages[page];
	if (p->kind == EXPORT_PAGE_GAME)
		return export_md_game_page(x, page, out);
	if (p->kind != EXPORT_PAGE_TAG)
		return export_md_book_page(x, page, out);
	return tag_page(x, p, out);
}
