/* export_md.c — a page as Markdown, for people: sections, categories and
 * questions as headings, nested bullets as lists, tags linked to their
 * pages; every character Markdown could read as markup is escaped. */
#include "export_md.h"

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

static int md_entry(struct rl_export *x, struct rl_out *o,
                    const struct rl_ruling *r)
{
	rl_out_adds(o, "#### ");
	md_str(o, r->title);
	rl_out_adds(o, "\n\n");
	if (r->changed)
		rl_out_adds(o, "**Changed answer.**\n\n");
	md_answer(o, r->text);
	rl_out_addc(o, '\n');
	if (r->errata) {
		rl_out_adds(o, "*Errata:* ");
		const char *parts[] = { r->errata->product, r->errata->printing,
		                        r->errata->document, r->errata->page };
		bool any = false;
		for (size_t k = 0; k < 4; k++)
			if (parts[k]) {
				rl_out_adds(o, any ? (k == 3 ? ", p. " : ", ")
				                   : k == 3 ? "p. " : "");
				md_str(o, parts[k]);
				any = true;
			}
		rl_out_adds(o, "\n\n");
	}
	size_t discussions = 0;
	for (size_t k = 0; k < r->nrefs; k++)
		discussions += strcmp(r->refs[k].kind, "discussion") == 0;
	if (discussions)
		rl_out_adds(o, "*(Discussion elsewhere)*  \n");
	rl_out_adds(o, "*Tags:* ");
	int rc = RL_OK;
	for (size_t k = 0; k < r->ntags && !rc; k++) {
		if (k)
			rl_out_adds(o, ", ");
		rc = md_link(x, o, r->tags[k]);
	}
	if (r->hidden_tags > 0)
		rl_out_addf(o, "%s%d more", r->ntags ? ", and " : "", r->hidden_tags);
	rl_out_adds(o, "\n\n");
	return rc;
}

static void title(struct rl_out *o, const struct export_page *p)
{
	rl_out_adds(o, "# ");
	if (p->title)
		md_str(o, p->title);
	else
		rl_out_adds(o, "Rulings with no tag");
	rl_out_adds(o, "\n\n");
}

static void headings(struct rl_out *o, const struct export_item *it,
                     size_t k)
{
	(void)k;
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

static const struct export_text_format md = { title, headings, md_entry };

int export_md_page(struct rl_export *x, size_t page, const struct rl_sink *out)
{
	const struct export_page *p = &x->pages[page];
	if (p->kind == EXPORT_PAGE_GAME)
		return export_md_game_page(x, page, out);
	if (p->kind != EXPORT_PAGE_TAG)
		return export_md_book_page(x, page, out);
	return export_text_page(x, p, out, &md);
}
