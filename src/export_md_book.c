/* export_md_book.c — a Markdown site's index, game pages and books: the
 * shape of the html site (export_html.c, export_html_book.c) in
 * Markdown, over the same plan (export_book.c).
 *
 * Markdown has no anchors of its own, and the ids viewers give headings
 * differ (GitHub drops the dots of "702.19a", others keep them, CommonMark
 * gives none), so each rule number is an inline HTML anchor,
 * <a id="702.19a"></a>, which CommonMark passes through and GitHub,
 * GitLab, pandoc and MkDocs honour; a glossary entry's is "r" and its id,
 * as in html. A rule is a list item, the rules under it (702.19a under
 * 702.19) nested in it; every reference its text names is a link to
 * page.md#anchor, the others follow under "See also". Interface words come
 * from the message catalog in the page's language. */
#include "export_md.h"
#include "msg.h"
#include "util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct md {
	struct rl_export *x;
	const struct export_page *page;   /* NULL: the index */
	const struct msg_lang *ui;
	struct rl_out o;
	int rc;
};

static void md_fail(struct md *m, int rc)
{
	if (rc && !m->rc)
		m->rc = rc == RL_ENOMEM ? rl_db_fail(m->x->db, rc, "out of memory")
		                        : rc;
}

/* Text where no block can begin: its inline markup escaped. */
static void inl(struct rl_out *o, const char *s)
{
	md_text_at(o, s, strlen(s), false);
}

static void md_word(struct md *m, enum rl_msg id)
{
	md_str(&m->o, msg_get(m->ui, id));
}

static void md_count(struct md *m, enum rl_msg id, size_t n)
{
	char *s = msg_count(m->ui, id, n);
	if (!s)
		md_fail(m, RL_ENOMEM);
	else
		md_str(&m->o, s);
	free(s);
}

/* An anchor: <a id="…"></a>, the id escaped as HTML. */
static void anchor(struct md *m, const char *id)
{
	rl_out_adds(&m->o, "<a id=\"");
	for (const char *s = id; *s; s++)
		if (*s == '&')
			rl_out_adds(&m->o, "&amp;");
		else if (*s == '"')
			rl_out_adds(&m->o, "&quot;");
		else if (*s == '<')
			rl_out_adds(&m->o, "&lt;");
		else
			rl_out_addc(&m->o, *s);
	rl_out_adds(&m->o, "\"></a>");
}

/* A link to page k at id (NULL: its top): [text](file#id), the file left
 * out on the page itself, the id's bytes other than letters, digits and
 * ".-_" percent-encoded. */
static void link_n(struct md *m, const char *text, size_t n, size_t k,
                   const char *id)
{
	rl_out_addc(&m->o, '[');
	md_text_at(&m->o, text, n, false);
	rl_out_adds(&m->o, "](");
	if (!id || &m->x->pages[k] != m->page)
		rl_out_adds(&m->o, m->x->pages[k].file);   /* a slug */
	if (id) {
		rl_out_addc(&m->o, '#');
		for (const unsigned char *s = (const unsigned char *)id; *s; s++)
			if (isalnum(*s) || strchr(".-_", *s))
				rl_out_addc(&m->o, (char)*s);
			else
				rl_out_addf(&m->o, "%%%02X", *s);
	}
	rl_out_addc(&m->o, ')');
}

static void link_to(struct md *m, const char *text, size_t k, const char *id)
{
	link_n(m, text, strlen(text), k, id);
}

/* The page and anchor of ruling i: on this page when it is here, else on
 * its home page (a tag page's entry: "r" and its id). False when the
 * export has it on no page. */
static bool ruling_place(struct md *m, size_t i, size_t *k, char **id)
{
	const struct rl_export *x = m->x;
	*id = NULL;
	if (m->page && export_on_page(m->page, i))
		*k = (size_t)(m->page - x->pages);
	else if (x->home[i] != (size_t)-1)
		*k = x->home[i];
	else
		return false;
	if (!(*id = export_anchor(x, &x->pages[*k], i)))
		md_fail(m, RL_ENOMEM);
	return true;
}

/* ---- a rule's text, its references linked ------------------------------ */

struct target {
	const char *text;
	size_t len;
	long long id;           /* the ruling it resolves to, or 0 */
	const char *url;        /* a web reference's, or NULL */
	bool used;
};

static bool word_byte(unsigned char c)
{
	return isalnum(c) || c >= 0x80;
}

/* The longest target named at s[j] as a whole word ("702.19" is not in
 * "702.19a" and is in "702.19."), or NULL. */
static struct target *named_at(const char *s, size_t n, size_t j,
                               struct target *t, size_t nt)
{
	struct target *best = NULL;
	if (j && word_byte((unsigned char)s[j - 1]))
		return NULL;
	for (size_t k = 0; k < nt; k++) {
		size_t e = j + t[k].len;
		if (!t[k].id || !t[k].len || t[k].len > n - j ||
		    memcmp(s + j, t[k].text, t[k].len) ||
		    (e < n && (word_byte((unsigned char)s[e]) ||
		               (s[e] == '.' && e + 1 < n &&
		                isdigit((unsigned char)s[e + 1])))))
			continue;
		if (!best || t[k].len > best->len)
			best = &t[k];
	}
	return best;
}

/* Writes a link to ruling id with text; false when it is on no page. */
static bool ruling_link(struct md *m, const char *text, size_t n, long long id)
{
	size_t i, k;
	char *anc;
	if (!export_find(m->x, id, &i) || !ruling_place(m, i, &k, &anc))
		return false;
	link_n(m, text, n, k, anc);
	free(anc);
	return true;
}

/* One line of text, each target it names linked; at_start: it begins a
 * line of the output. */
static void linked_line(struct md *m, const char *s, size_t n,
                        struct target *t, size_t nt, bool at_start)
{
	size_t from = 0;
	for (size_t j = 0; j < n; j++) {
		struct target *hit = named_at(s, n, j, t, nt);
		if (!hit)
			continue;
		md_text_at(&m->o, s + from, j - from, at_start && !from);
		if (ruling_link(m, s + j, hit->len, hit->id)) {
			hit->used = true;
			from = j + hit->len;
			j = from - 1;
		} else {
			from = j;
			hit->id = 0;           /* on no page: never a link */
		}
	}
	md_text_at(&m->o, s + from, n - from, at_start && !from);
}

/* Text as paragraphs (blank lines between them, a hard break between
 * lines), each line after the first indented by ind; the first line
 * continues what is written (at_start: at the start of a line). */
static void paragraphs(struct md *m, const char *s, const char *ind,
                       struct target *t, size_t nt, bool at_start)
{
	bool first = true, blank = false;
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		if (rl_is_blank_line(s, n)) {
			blank = !first;
		} else {
			if (!first)
				rl_out_adds(&m->o, blank ? "\n\n" : "  \n");
			if (!first)
				rl_out_adds(&m->o, ind);
			size_t b = 0;       /* no indented code block */
			while (b < n && (s[b] == ' ' || s[b] == '\t'))
				b++;
			linked_line(m, s + b, n - b, t, nt, at_start || !first);
			first = blank = false;
		}
		s += n + (nl != NULL);
	}
	rl_out_addc(&m->o, '\n');
}

/* Reference f as a target: the ruling it resolves to when the export
 * has it, else its URL when it is a web link Markdown can hold. */
static struct target target_of(struct md *m, const struct rl_ref_out *f)
{
	struct target t = { .text = f->target, .len = strlen(f->target) };
	size_t i;
	if (f->target_id && export_find(m->x, f->target_id, &i))
		t.id = f->target_id;
	else if (!strcmp(f->kind, "url") &&
	         (!strncmp(f->target, "https://", 8) ||
	          !strncmp(f->target, "http://", 7)) &&
	         !strpbrk(f->target, "<> \n"))
		t.url = f->target;
	return t;
}

/* The references the text did not name, each once, linked. */
static void see_also(struct md *m, const char *ind, struct target *t, size_t nt)
{
	bool any = false;
	for (size_t k = 0; k < nt; k++) {
		if (t[k].used || (!t[k].id && !t[k].url))
			continue;
		bool again = false;
		for (size_t j = 0; j < k && !again; j++)
			again = !strcmp(t[j].text, t[k].text) &&
			        (t[j].id || t[j].url);
		if (again)
			continue;
		if (!any) {
			rl_out_addf(&m->o, "\n%s", ind);
			md_word(m, MSG_SEE_ALSO);
		} else {
			rl_out_adds(&m->o, "; ");
		}
		any = true;
		if (t[k].url) {
			rl_out_addc(&m->o, '[');
			inl(&m->o, t[k].text);
			rl_out_addf(&m->o, "](<%s>)", t[k].url);
		} else if (!ruling_link(m, t[k].text, t[k].len, t[k].id)) {
			inl(&m->o, t[k].text);
		}
	}
	if (any)
		rl_out_addc(&m->o, '\n');
}

/* A book ruling's tags, linked to their pages. */
static void tags(struct md *m, const char *ind, const struct rl_ruling *r)
{
	if (!r->ntags)
		return;
	rl_out_addf(&m->o, "\n%s", ind);
	md_word(m, MSG_TAGS_LABEL);
	for (size_t k = 0; k < r->ntags && !m->rc; k++) {
		const struct export_page *tp = NULL;
		if (k)
			rl_out_adds(&m->o, ", ");
		md_fail(m, export_page_of(m->x, r->tags[k], &tp));
		if (tp)
			link_to(m, r->tags[k], (size_t)(tp - m->x->pages), NULL);
		else
			inl(&m->o, r->tags[k]);
	}
	rl_out_addc(&m->o, '\n');
}

/* The text after a rule's title, references, tags: the body of an item
 * or of a glossary entry, its lines after the first indented by ind. */
static void body(struct md *m, const struct rl_ruling *r, const char *text,
                 const char *ind, bool at_start)
{
	struct target *t = malloc((r->nrefs ? r->nrefs : 1) * sizeof *t);
	if (!t) {
		md_fail(m, RL_ENOMEM);
		return;
	}
	for (size_t k = 0; k < r->nrefs; k++)
		t[k] = target_of(m, &r->refs[k]);
	paragraphs(m, text, ind, t, r->nrefs, at_start);
	see_also(m, ind, t, r->nrefs);
	tags(m, ind, r);
	free(t);
}

/* Whether a title only repeats the start of a text ("These Magic rules
 * apply to…"). */
static bool repeats(const char *title, const char *text)
{
	size_t n = strlen(title);
	if (n >= 3 && !strcmp(title + n - 3, "\xE2\x80\xA6"))
		n -= 3;
	return !strncmp(title, text, n);
}

/* ---- rules -------------------------------------------------------------- */

/* Whether rule c is under rule p: 702.19a under 702.19, 104.3.1 under
 * 104.3; 1000 is not under 100. */
static bool is_under(const char *p, const char *c)
{
	size_t n = strlen(p);
	if (strlen(c) <= n || strncmp(p, c, n))
		return false;
	return c[n] == '.' || (isdigit((unsigned char)p[n - 1]) &&
	                       isalpha((unsigned char)c[n]));
}

/* Rule i as a list item at depth (its number as anchor and in bold). */
static void rule_item(struct md *m, size_t i, size_t depth)
{
	struct rl_ruling r;
	if (m->rc || (md_fail(m, export_ruling(m->x, i, &r)), m->rc))
		return;
	char ind[2 * 16 + 8];
	size_t w = depth < 16 ? 2 * depth : 32;
	memset(ind, ' ', w + 2);
	ind[w + 2] = '\0';
	const char *num = m->x->v[i].place;
	rl_out_add(&m->o, ind, w);
	rl_out_adds(&m->o, "- ");
	anchor(m, num);
	rl_out_adds(&m->o, "**");
	inl(&m->o, num);
	rl_out_adds(&m->o, "**");
	if (!*r.text || !repeats(r.title, r.text)) {
		rl_out_adds(&m->o, " **");
		inl(&m->o, r.title);
		rl_out_adds(&m->o, "**");
	}
	if (*r.text)
		rl_out_addc(&m->o, ' ');
	body(m, &r, r.text, ind, false);
	rl_out_addc(&m->o, '\n');
	rl_ruling_clear(&r);
}

/* The text of a head's own rule, when it says more than its title. */
static void head_text(struct md *m, size_t i)
{
	struct rl_ruling r;
	if (m->rc || (md_fail(m, export_ruling(m->x, i, &r)), m->rc))
		return;
	if (*r.text && !repeats(r.text, r.title)) {
		body(m, &r, r.text, "", true);
		rl_out_addc(&m->o, '\n');
	}
	rl_ruling_clear(&r);
}

/* A head's heading: "## <a id="702"></a>702. Keyword Abilities". */
static void head_heading(struct md *m, const char *marks,
                         const struct export_head *h)
{
	char *text = export_head_title(h);
	if (!text) {
		md_fail(m, RL_ENOMEM);
		return;
	}
	rl_out_adds(&m->o, marks);
	anchor(m, h->num);
	inl(&m->o, text);
	rl_out_adds(&m->o, "\n\n");
	free(text);
}

/* Rules b->rules[lo..hi) that are on this page: each head's heading
 * (unless heads is false: the page's title is the head), its own rule's
 * text, then the rules as nested items. */
static void rules(struct md *m, const struct export_book *b, size_t lo,
                  size_t hi, bool heads)
{
	const struct rl_export *x = m->x;
	enum { DEPTH = 16 };
	const char *open[DEPTH];
	size_t depth = 0;
	const struct export_head *head = NULL;
	for (size_t k = lo; k < hi && !m->rc; k++) {
		size_t i = b->rules[k];
		if (!export_on_page(m->page, i))
			continue;
		const char *num = x->v[i].place;
		const struct export_head *h = export_head_of(b, num);
		if (h != head) {
			head = h;
			depth = 0;
			if (heads)
				head_heading(m, "## ", h);
		}
		if (!strcmp(h->num, num)) {
			head_text(m, i);
			continue;
		}
		while (depth && !is_under(open[depth - 1], num))
			depth--;
		rule_item(m, i, depth);
		if (depth < DEPTH)
			open[depth++] = num;
	}
}

/* ---- the frame of a book's page ------------------------------------------ */

/* A link to a book's page k, its title its label ("Glossary: A" for a
 * letter's). */
static void page_link(struct md *m, size_t k)
{
	const struct export_page *p = &m->x->pages[k];
	if (p->kind != EXPORT_PAGE_LETTER) {
		link_to(m, p->title, k, NULL);
		return;
	}
	const char *const args[] = { p->title };
	char *label = msg_fill(msg_get(m->ui, MSG_GLOSSARY_LETTER), 1, args);
	if (!label)
		md_fail(m, RL_ENOMEM);
	else
		link_to(m, label, k, NULL);
	free(label);
}

/* The links to the book's contents and the pages before and after. */
static void pager(struct md *m, const struct export_book *b, size_t page)
{
	bool any = false;
	if (page > b->toc + 1) {
		md_word(m, MSG_PREVIOUS);
		page_link(m, page - 1);
		any = true;
	}
	if (page != b->toc) {
		rl_out_adds(&m->o, any ? " \xC2\xB7 " : "");
		md_word(m, MSG_CONTENTS);
		link_to(m, b->title, b->toc, NULL);
		any = true;
	}
	if (page + 1 < b->end) {
		rl_out_adds(&m->o, any ? " \xC2\xB7 " : "");
		md_word(m, MSG_NEXT);
		page_link(m, page + 1);
		any = true;
	}
	if (any)
		rl_out_adds(&m->o, "\n\n");
}

/* "3 rules, 5 glossary entries", a zero one left out beside the other
 * (as html_two_counts()) */
static void two_counts(struct md *m, size_t nrules, size_t ngloss)
{
	if (nrules || !ngloss)
		md_count(m, MSG_RULES_COUNT, nrules);
	if (nrules && ngloss)
		rl_out_adds(&m->o, ", ");
	if (ngloss)
		md_count(m, MSG_GLOSSARY_COUNT, ngloss);
}

static void toc(struct md *m, const struct export_book *b)
{
	const struct rl_export *x = m->x;
	two_counts(m, b->nrules, b->ngloss);
	if (b->game) {
		rl_out_adds(&m->o, " \xC2\xB7 ");
		inl(&m->o, b->game);
	}
	rl_out_adds(&m->o, "\n\n");
	bool list = false;
	for (size_t h = 0, k = 0; h < b->nheads && !m->rc; h++) {
		const struct export_head *hd = &b->heads[h];
		if (hd->chapter) {
			/* the chapter's heading, its own rules after it */
			rl_out_adds(&m->o, list ? "\n" : "");
			head_heading(m, "## ", hd);
			while (k < b->nrules &&
			       export_head_of(b, x->v[b->rules[k]].place) < hd)
				k++;
			size_t e = k;
			while (e < b->nrules &&
			       export_head_of(b, x->v[b->rules[e]].place) == hd)
				e++;
			rules(m, b, k, e, false);
			k = e;
			list = false;
			continue;
		}
		if (!list && h == 0) {
			rl_out_adds(&m->o, "## ");
			md_word(m, MSG_RULES);
			rl_out_adds(&m->o, "\n\n");
		}
		char *text = export_head_title(hd);
		if (!text) {
			md_fail(m, RL_ENOMEM);
			break;
		}
		rl_out_adds(&m->o, "- ");
		link_to(m, text, hd->page, hd->num);
		rl_out_addc(&m->o, '\n');
		free(text);
		list = true;
	}
	if (!b->ngloss)
		return;
	rl_out_adds(&m->o, list ? "\n## " : "## ");
	md_word(m, MSG_GLOSSARY);
	rl_out_adds(&m->o, "\n\n");
	for (size_t k = b->toc + 1; k < b->end; k++) {
		const struct export_page *p = &x->pages[k];
		if (p->kind != EXPORT_PAGE_LETTER)
			continue;
		char label[96];
		snprintf(label, sizeof label, "%s (%zu)", p->title, p->n);
		rl_out_adds(&m->o, "- ");
		link_to(m, label, k, NULL);
		rl_out_addc(&m->o, '\n');
	}
	rl_out_addc(&m->o, '\n');
}

/* A glossary letter: a heading per term, its anchor "r" and its id. */
static void letter(struct md *m, const struct export_book *b,
                   const struct export_page *p)
{
	for (size_t k = p->lo; k < p->hi && !m->rc; k++) {
		struct rl_ruling r;
		if ((md_fail(m, export_ruling(m->x, b->gloss[k], &r)), m->rc))
			break;
		char id[32];
		snprintf(id, sizeof id, "r%lld", r.id);
		rl_out_adds(&m->o, "## ");
		anchor(m, id);
		inl(&m->o, r.title);
		rl_out_adds(&m->o, "\n\n");
		body(m, &r, r.text, "", true);
		rl_out_addc(&m->o, '\n');
		rl_ruling_clear(&r);
	}
}

/* A page (p NULL: the index) whose words are in language lang. */
static void md_open(struct md *m, struct rl_export *x,
                    const struct export_page *p, const char *lang,
                    const struct rl_sink *out)
{
	*m = (struct md){ .x = x, .page = p, .ui = msg_lang_or_en(lang) };
	rl_out_init(&m->o, out);
}

static int md_close(struct md *m)
{
	int rc = export_finish(m->x, &m->o);
	return m->rc ? m->rc : rc;
}

int export_md_book_page(struct rl_export *x, size_t page,
                        const struct rl_sink *out)
{
	struct md m;
	const struct export_page *p = &x->pages[page];
	const struct export_book *b = &x->books[p->book];
	md_open(&m, x, p, b->lang, out);
	bool one = p->kind == EXPORT_PAGE_RULES && p->one_head && p->lo < p->hi;
	rl_out_adds(&m.o, "# ");
	if (one)      /* a page of one head: the head is its title */
		anchor(&m, export_head_of(b, x->v[b->rules[p->lo]].place)->num);
	if (p->kind == EXPORT_PAGE_LETTER) {
		const char *const args[] = { p->title };
		char *h1 = msg_fill(msg_get(m.ui, MSG_GLOSSARY_LETTER), 1, args);
		if (!h1)
			md_fail(&m, RL_ENOMEM);
		else
			inl(&m.o, h1);
		free(h1);
	} else {
		inl(&m.o, p->title);
	}
	rl_out_adds(&m.o, "\n\n");
	pager(&m, b, page);
	if (p->kind == EXPORT_PAGE_TOC)
		toc(&m, b);
	else if (p->kind == EXPORT_PAGE_LETTER)
		letter(&m, b, p);
	else
		rules(&m, b, p->lo, p->hi, !one);
	rl_out_adds(&m.o, "\n");
	pager(&m, b, page);
	return md_close(&m);
}

/* ---- a game's page, the index -------------------------------------------- */

/* A list item linking page k (its title, or the words for no tag) with a
 * count. */
static void page_item(struct md *m, size_t k, size_t count)
{
	const struct export_page *p = &m->x->pages[k];
	rl_out_adds(&m->o, "- ");
	link_to(m, p->title ? p->title : msg_get(m->ui, MSG_NO_TAG), k, NULL);
	rl_out_addf(&m->o, " (%zu)\n", count);
}

/* A list's heading, before its first item. */
static void heading_once(struct md *m, bool *any, enum rl_msg head)
{
	if (!*any) {
		rl_out_adds(&m->o, "## ");
		md_word(m, head);
		rl_out_adds(&m->o, "\n\n");
	}
	*any = true;
}

/* The books of game (NULL: all), each with its counts. */
static void books_list(struct md *m, const char *game)
{
	const struct rl_export *x = m->x;
	bool any = false;
	for (size_t k = 0; k < x->nbooks; k++) {
		const struct export_book *b = &x->books[k];
		if (game && (!b->game || strcmp(b->game, game)))
			continue;
		heading_once(m, &any, MSG_RULEBOOKS);
		rl_out_adds(&m->o, "- ");
		link_to(m, b->title, b->toc, NULL);
		rl_out_adds(&m->o, " (");
		two_counts(m, b->nrules, b->ngloss);
		rl_out_adds(&m->o, ")\n");
	}
	if (any)
		rl_out_addc(&m->o, '\n');
}

/* The tag pages that hold rulings of game (NULL: all), with how many. */
static void tags_list(struct md *m, const char *game)
{
	const struct rl_export *x = m->x;
	bool any = false;
	for (size_t k = 0; k < x->npages && !m->rc; k++) {
		const struct export_page *tp = &x->pages[k];
		if (tp->kind != EXPORT_PAGE_TAG)
			continue;
		size_t n = export_page_count(x, tp, game);
		if (n) {
			heading_once(m, &any, MSG_TAGS);
			page_item(m, k, n);
		}
	}
}

int export_md_game_page(struct rl_export *x, size_t page,
                        const struct rl_sink *out)
{
	const struct export_page *p = &x->pages[page];
	struct md m;
	md_open(&m, x, p, export_majority_lang(x, NULL, 0, p->title), out);
	rl_out_adds(&m.o, "# ");
	inl(&m.o, p->title);
	rl_out_adds(&m.o, "\n\n");
	size_t n = 0;
	for (size_t i = 0; i < x->n; i++)
		n += x->v[i].game && !strcmp(x->v[i].game, p->title);
	md_count(&m, MSG_RULINGS_COUNT, n);
	rl_out_adds(&m.o, "\n\n");
	books_list(&m, p->title);
	tags_list(&m, p->title);
	return md_close(&m);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The games (each linked to its page) or the languages of the export,
 * by name, each with how many rulings; the rulings of no game last. */
static void tally(struct md *m, enum rl_msg head, bool games)
{
	const struct rl_export *x = m->x;
	const char **v = malloc((x->n ? x->n : 1) * sizeof *v);
	if (!v) {
		md_fail(m, RL_ENOMEM);
		return;
	}
	size_t n = 0, none = 0;
	for (size_t i = 0; i < x->n; i++) {
		const char *s = games ? x->v[i].game : x->v[i].lang;
		if (s && *s)
			v[n++] = s;
		else
			none += games;
	}
	qsort(v, n, sizeof *v, cmp_str);
	rl_out_adds(&m->o, "## ");
	md_word(m, head);
	rl_out_adds(&m->o, "\n\n");
	for (size_t k = 0; k < n; ) {
		size_t e = k;
		while (e < n && !strcmp(v[e], v[k]))
			e++;
		const struct export_page *gp = games ? export_game_page(x, v[k])
		                                     : NULL;
		rl_out_adds(&m->o, "- ");
		if (gp)
			link_to(m, v[k], (size_t)(gp - x->pages), NULL);
		else
			md_str(&m->o, games ? v[k] : msg_lang_name(m->ui, v[k]));
		rl_out_addf(&m->o, " (%zu)\n", e - k);
		k = e;
	}
	if (none) {
		rl_out_adds(&m->o, "- ");
		md_word(m, MSG_NO_GAME_ITEM);
		rl_out_addf(&m->o, " (%zu)\n", none);
	}
	rl_out_addc(&m->o, '\n');
	free(v);
}

int export_md_index(struct rl_export *x, const struct rl_sink *out)
{
	struct md m;
	md_open(&m, x, NULL, export_majority_lang(x, NULL, 0, NULL), out);
	rl_out_adds(&m.o, "# ");
	md_word(&m, MSG_INDEX_TITLE);
	rl_out_adds(&m.o, "\n\n");
	md_count(&m, MSG_RULINGS_COUNT, x->n);
	rl_out_adds(&m.o, ", ");
	md_count(&m, MSG_PAGES_COUNT, x->npages);
	rl_out_adds(&m.o, "\n\n");
	tally(&m, MSG_GAMES, true);
	tally(&m, MSG_LANGUAGES, false);
	books_list(&m, NULL);
	tags_list(&m, NULL);
	return md_close(&m);
}
