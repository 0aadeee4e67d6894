/* export_txt.c — a page as the FAQ tag-page dump format that the faq-tags
 * importer reads (importers/faq_tags.c reads it back):
 *
 *   Speed (Fast/Slow)                     the page's tag
 *                                         (blank lines between blocks)
 *   Frequently Asked Questions            a section, when it changes
 *   Aspects                               a category, when it changes
 *   • With the aspect Wind …?             the question
 *     Changed answer: Yes, you can …      the answer, two blanks in
 *     (Discussion elsewhere)  Tags: Speed (Fast/Slow), …, 2 more...
 *
 * Before the tag, "Game: NAME" and "Language: CODE" lines name the game
 * and language of the page's first ruling, so that a page of a database
 * of several games imports back without --game; a ruling of another game
 * or language than the one before it has such a line before its entry. */
#include "export.h"

#include <string.h>

static const char BULLET[] = "\xE2\x80\xA2";     /* • */

/* s on one line: line breaks become blanks. */
static void one_line(struct rl_out *o, const char *s)
{
	for (; *s; s++)
		rl_out_addc(o, *s == '\n' || *s == '\r' ? ' ' : *s);
}

/* Every line of text indented by two blanks; blank lines stay empty. */
static void answer_lines(struct rl_out *o, const char *text, const char *first)
{
	rl_out_adds(o, "  ");
	rl_out_adds(o, first);
	bool start = false;
	for (const char *s = text; *s; s++) {
		if (*s == '\n') {
			rl_out_addc(o, '\n');
			start = true;
			continue;
		}
		if (start)
			rl_out_adds(o, "  ");
		start = false;
		rl_out_addc(o, *s);
	}
	rl_out_addc(o, '\n');
}

/* True when tag has a comma outside parentheses: the importer would read
 * it as two tags but on its own page (importers/faq_tags.c). */
static bool splits(const char *tag)
{
	int depth = 0;
	for (; *tag; tag++)
		if (*tag == '(')
			depth++;
		else if (*tag == ')' && depth > 0)
			depth--;
		else if (*tag == ',' && depth == 0)
			return true;
	return false;
}

static int entry(struct rl_export *x, struct rl_out *o,
                 const struct export_page *p, const struct rl_ruling *r)
{
	(void)x;
	rl_out_addf(o, "%s ", BULLET);
	one_line(o, r->title);
	rl_out_addc(o, '\n');
	if (r->changed)
		answer_lines(o, r->text, *r->text ? "Changed answer: "
		                                  : "Changed answer:");
	else if (*r->text)
		answer_lines(o, r->text, "");
	rl_out_adds(o, "  ");
	bool discussed = false;
	for (size_t k = 0; k < r->nrefs; k++)
		if (strcmp(r->refs[k].kind, "discussion") == 0) {
			rl_out_adds(o, "(Discussion elsewhere) ");
			discussed = true;
		}
	rl_out_adds(o, discussed ? " Tags: " : "Tags: ");
	/* A tag with a comma is written on its own page only: anywhere else
	 * it would come back as two tags (the format has no quoting); an
	 * export of all its pages still gives it back whole. */
	size_t written = 0;
	for (size_t k = 0; k < r->ntags; k++) {
		if (splits(r->tags[k]) && strcmp(r->tags[k], p->title) != 0)
			continue;
		if (written++)
			rl_out_adds(o, ", ");
		one_line(o, r->tags[k]);
	}
	if (r->hidden_tags >= 0)
		rl_out_addf(o, "%s%d more...", written ? ", " : "", r->hidden_tags);
	rl_out_addc(o, '\n');
	return RL_OK;
}

static bool differ(const char *a, const char *b)
{
	return a != b && (!a || !b || strcmp(a, b) != 0);
}

/* The "Game:" and "Language:" lines of ruling r where they differ from
 * those of ruling was (NULL: both lines). A ruling with no game (of an
 * old database) has no line. */
static void game_lines(struct rl_out *o, const struct export_ruling *r,
                       const struct export_ruling *was)
{
	if (r->game && (!was || differ(r->game, was->game))) {
		rl_out_adds(o, "Game: ");
		one_line(o, r->game);
		rl_out_addc(o, '\n');
	}
	if (r->lang && (!was || differ(r->lang, was->lang))) {
		rl_out_adds(o, "Language: ");
		one_line(o, r->lang);
		rl_out_addc(o, '\n');
	}
}

static void title(const struct rl_export *x, struct rl_out *o,
                  const struct export_page *p, const struct export_item *items)
{
	if (p->n) {
		game_lines(o, &x->v[items[0].i], NULL);
		rl_out_addc(o, '\n');
	}
	one_line(o, p->title);
	rl_out_addc(o, '\n');
}

static void headings(const struct rl_export *x, struct rl_out *o,
                     const struct export_item *items, size_t k)
{
	const struct export_item *it = &items[k];
	if (it->new_section) {
		rl_out_addc(o, '\n');
		one_line(o, it->section);
		rl_out_addc(o, '\n');
	}
	if (it->new_category) {
		rl_out_addc(o, '\n');
		one_line(o, it->category);
		rl_out_addc(o, '\n');
	}
	if (it->new_section || it->new_category || k == 0)
		rl_out_addc(o, '\n');
	if (k)
		game_lines(o, &x->v[it->i], &x->v[items[k - 1].i]);
}

static const struct export_text_format txt = { title, headings, entry };

int export_txt_page(struct rl_export *x, size_t page, const struct rl_sink *out)
{
	return export_text_page(x, &x->pages[page], out, &txt);
}
