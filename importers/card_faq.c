/* card_faq.c — a card FAQ in reStructuredText (a Sphinx page): one entry a
 * card, each with the card's picture and what the FAQ says of it, as in the
 * Berserk: Heroes rules site (Russian). Two shapes, alike to read:
 *
 *   FAQ Возвращения древних            the document's title (underlined)
 *   ========
 *   1.  Алое пламя дракона             an entry: its number, then the
 *                                      card's name (or nothing: "5.")
 *   .. image:: ./images/image1.png     the card's picture (passed over)
 *   При одновременной гибели …         the answer: paragraphs up to the
 *                                      next entry
 *
 *   FAQ по картам "Герой"              the title
 *   =====================
 *   Герой — это персонификация …       text before the first entry: an
 *                                      entry titled by the document
 *   Ваэгар                             a heading over a picture (or over
 *   --------                           an admonition): an entry, the card
 *   .. image:: ./images/heroes/vaegar.png
 *   1: Противник может закрыть …       the card's text
 *   .. admonition:: Комьюнити FAQ      the ruling on it
 *
 *     Если противник закрыл …
 *
 * An entry is one ruling (kind faq) titled by its card and tagged with it.
 * An entry without a name is titled by the document and its number
 * ("FAQ Возвращения древних, 5"), untagged. When an entry holds an
 * ".. admonition:: LABEL" block, the admonition is the ruling (its
 * category the label: "Комьюнити FAQ") and the text beside it is the
 * card's text: the card's glossary entry (as card-rulings makes of an
 * abilityText), which the ruling refers to as a term; otherwise the text
 * is the ruling. A numbered line ("12. Name", "12.") from the first column
 * starts an entry when a picture follows it or its number is the next one;
 * a heading starts one when a picture follows it or an admonition stands
 * under it, and is otherwise a section (of the entries under it).
 *
 * Inline markup is made plain as in the glossary (**x** → x, :term:`X` →
 * X, a reference of kind term); a line that ends with "\" (a line break
 * in the source) ends its line. Reported at their lines: an entry with no
 * text (a picture alone: left out, the picture named), a number out of
 * sequence, a card seen twice (one entry: the later text is added to the
 * first's), another directive's content (left out), an empty admonition. */
#include "importer.h"
#include "doc.h"
#include "rst.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* The directives the format knows: a picture, and the ruling's block. */
static const char *const picture_directives[] = { "image", "figure", NULL };
static const char ADMONITION[] = "admonition";
/* An entry's number: any of up to nine digits (RST numbers a list with
 * any); a longer one is warned about and read as text. */
enum { NUMBER_DIGITS = 9, NUMBER_MAX = 999999999 };

/* One part of an entry's text, its markup as written. */
struct part {
	struct rl_buf raw;
	bool pending_blank;
	bool line_break;          /* the last line ended with "\" */
};

struct parser {
	struct rl_doc *doc;
	struct rl_diags *d;
	const struct rl_blocks *b;
	char *section;            /* the current section heading, or NULL */
	unsigned long last;       /* the last entry's number; 0: none yet */
	size_t cards;             /* entries begun by a number or heading */
	struct rl_strmap keys;    /* the entries' kinds and keys so far */
	/* the entry being read */
	bool open;
	unsigned line;
	unsigned long number;     /* 0: a heading's entry or the text before
	                             the first entry */
	bool intro;               /* the text before the first entry (or
	                             under a section heading): titled by the
	                             document (or the heading), untagged */
	char *name;               /* the card, made plain; NULL or "": none */
	struct part body, faq;
	char *label;              /* the first admonition's argument */
	char *picture;            /* the first picture's file, or NULL */
	unsigned admonitions;
	unsigned admonition_line;
	bool in_admonition;
	unsigned admonition_indent;
};

static bool dir_is(const struct rl_block *l, const char *name)
{
	return l->type == RL_BLOCK_DIRECTIVE && l->name &&
	       l->name_len == strlen(name) && memcmp(l->name, name, l->name_len) == 0;
}

static bool is_picture(const struct rl_block *l)
{
	for (size_t i = 0; picture_directives[i]; i++)
		if (dir_is(l, picture_directives[i]))
			return true;
	return false;
}

/* "12.", "12. Name" from the first column: 1, with *number and the
 * name's bytes (trimmed; may be empty); -1 for a number of more than
 * NUMBER_DIGITS digits (nothing set); 0 for any other line. */
static int numbered(const struct rl_block *l, unsigned long *number,
                    const char **name, size_t *name_len)
{
	if ((l->type != RL_BLOCK_LINE && l->type != RL_BLOCK_ITEM) ||
	    l->indent != 0 || (l->flags & RL_BLOCK_SKIPPED))
		return 0;
	const char *s = l->raw;
	size_t n = l->raw_len, k = 0;
	while (k < n && s[k] >= '0' && s[k] <= '9')
		k++;
	if (k == 0 || k >= n || s[k] != '.' ||
	    (k + 1 < n && s[k + 1] != ' ' && s[k + 1] != '\t'))
		return 0;
	if (k > NUMBER_DIGITS)
		return -1;
	if (!rl_parse_uint(s, k, NUMBER_MAX, number, NULL) || *number == 0)
		return 0;
	*name = s + k + 1;
	*name_len = n - k - 1;
	rl_trim_range(name, name_len);
	return 1;
}

/* Does an entry's text, from block i on, start with a picture? */
static bool picture_next(const struct rl_blocks *b, size_t i)
{
	const struct rl_block *n = rl_blocks_next_nonblank(b, i);
	return n && is_picture(n);
}

/* Is the heading at h a card's: a picture under it, or an admonition
 * before the next heading or numbered entry? */
static bool heading_is_card(const struct rl_blocks *b, size_t h)
{
	if (picture_next(b, h))
		return true;
	for (size_t i = h + 1; i < b->n; i++) {
		const struct rl_block *l = &b->v[i];
		unsigned long num;
		const char *nm;
		size_t nl;
		if (l->type == RL_BLOCK_HEADING || numbered(l, &num, &nm, &nl) > 0)
			return false;
		if (dir_is(l, ADMONITION))
			return true;
	}
	return false;
}

/* Appends a line to a part. The lines of a paragraph are one text, joined
 * by a space, as reStructuredText reads them (FAQ12's answers are wrapped
 * at 70 columns: each line end was kept, a <br> on the site's card pages);
 * a line that ends with "\" (a line break in the source, the "\" dropped)
 * ends there. An escaped backslash ("\\") is kept. */
static void part_add(struct part *p, const char *s, size_t n)
{
	rl_trim_range(&s, &n);
	if (!n)
		return;
	size_t slashes = 0;
	while (slashes < n && s[n - 1 - slashes] == '\\')
		slashes++;
	bool line_break = slashes % 2 == 1;
	if (line_break) {
		n--;
		rl_trim_range(&s, &n);
	}
	if (p->raw.len)
		rl_buf_adds(&p->raw, p->pending_blank ? "\n\n"
		                     : p->line_break ? "\n" : " ");
	p->pending_blank = false;
	p->line_break = line_break;
	rl_buf_add(&p->raw, s, n);
}

/* A part's text made plain, into e->text (the roles' references e's). */
static int set_text(struct rl_entry *e, struct part *p)
{
	char *raw = rl_buf_take(&p->raw);
	if (!raw)
		return RL_ENOMEM;
	struct rl_buf out = {0};
	int rc = rl_rst_plain(raw, strlen(raw), rl_rst_term_role, e, &out);
	free(raw);
	char *text = rl_buf_take(&out);
	if (!rc && !text)
		rc = RL_ENOMEM;
	if (!rc && !(e->text = rl_strtrim(text, strlen(text))))
		rc = RL_ENOMEM;
	free(text);
	return rc;
}

/* A card's text (a glossary entry) is keyed by its name after "card: ",
 * not by its name alone (rl_card_text_name): a card named like a term of
 * the game's dictionary (a hero "Амулет", the term "Амулет") is another
 * ruling. Its title is the card's name; the ruling on the card refers to
 * it by this name, which finds it by key (a reference to "Амулет" finds
 * the term first, by key, and the card's text when the game has no such
 * term, by title). */

/* The key of an entry of this kind and title. A ruling titled by its card
 * (or a section's heading) is keyed by the document's title and the card,
 * "DOCUMENT: CARD": two card FAQs of a game that both rule on a card
 * (FAQ12 on "Вожак стаи", and another set's FAQ) are two rulings, as a
 * version of one document is the same ruling again. Keyed by the card
 * alone, they were one, its answer the one of the document imported last,
 * the other's gone without a word. One titled by the document ("DOCUMENT,
 * 5") is keyed by its title. A card's text, rl_card_text_name(). */
static char *key_of(const struct parser *p, enum rl_kind kind,
                    const char *title)
{
	if (kind == RL_KIND_GLOSSARY) {
		char *name = rl_card_text_name(title);
		char *key = name ? rl_key(name) : NULL;
		free(name);
		return key;
	}
	if (!p->name || !*p->name)
		return rl_key(title);
	struct rl_buf b = {0};
	rl_buf_addf(&b, "%s: %s", p->doc->title, title);
	char *name = rl_buf_take(&b);
	char *key = name ? rl_key(name) : NULL;
	free(name);
	return key;
}

/* A new entry of this kind and title, at the entry's line; NULL when
 * memory ran out. */
static struct rl_entry *add(struct parser *p, enum rl_kind kind,
                            const char *title, bool tagged)
{
	struct rl_entry *e = rl_doc_add_entry(p->doc);
	if (!e)
		return NULL;
	e->kind = kind;
	e->line = p->line;
	e->title = rl_strdup(title);
	e->key = key_of(p, kind, title);
	if (!e->title || !e->key ||
	    (p->section && !(e->section = rl_strdup(p->section))) ||
	    (tagged && rl_entry_add_tag(e, title, NULL)))
		return NULL;
	return e;
}

/* An entry of a kind and key seen before in the document (a card listed
 * twice) is one entry: the first, with the later one's content added. */
static int merge_duplicate(struct parser *p)
{
	const struct rl_entry *e = &p->doc->entries[p->doc->n - 1];
	return rl_doc_merge_repeat(p->doc, &p->keys, p->d, "",
	                           e->kind == RL_KIND_GLOSSARY ? "card text"
	                                                       : "answer");
}

/* Adds an entry made of part (nothing when its text is empty): *made
 * says whether it was. */
static int emit(struct parser *p, enum rl_kind kind, const char *title,
                bool tagged, struct part *part, const char *category,
                const char *term, bool *made)
{
	*made = false;
	struct rl_entry *e = add(p, kind, title, tagged);
	if (!e)
		return RL_ENOMEM;
	int rc = set_text(e, part);
	if (!rc && category && !(e->category = rl_strdup(category)))
		rc = RL_ENOMEM;
	if (!rc && term)
		rc = rl_entry_add_ref(e, RL_REF_TERM, term);
	if (rc)
		return rc;
	if (!*e->text) {
		rl_entry_clear(e);
		p->doc->n--;
		return RL_OK;
	}
	*made = true;
	return merge_duplicate(p);
}

static void reset(struct parser *p)
{
	rl_buf_free(&p->body.raw);
	rl_buf_free(&p->faq.raw);
	p->body.pending_blank = p->faq.pending_blank = false;
	p->body.line_break = p->faq.line_break = false;
	free(p->name);
	free(p->label);
	free(p->picture);
	p->name = p->label = p->picture = NULL;
	p->open = p->intro = p->in_admonition = false;
	p->number = 0;
	p->admonitions = 0;
}

/* Ends the entry being read: its ruling, and its card text's glossary
 * entry when an admonition holds the ruling. */
static int finish(struct parser *p)
{
	if (!p->open)
		return RL_OK;
	if (p->body.raw.oom || p->faq.raw.oom)
		return RL_ENOMEM;
	struct rl_buf t = {0};
	bool has_name = p->name && *p->name;
	if (has_name)
		rl_buf_adds(&t, p->name);
	else if (p->intro)
		rl_buf_adds(&t, p->doc->title);
	else
		rl_buf_addf(&t, "%s, %lu", p->doc->title, p->number);
	/* a card's entries are tagged with it; a section's text is not */
	bool named = has_name && !p->intro;
	char *title = rl_buf_take(&t);
	if (!title)
		return RL_ENOMEM;
	int rc = RL_OK;
	bool made = false, card = false;
	if (p->admonitions) {
		rc = emit(p, RL_KIND_GLOSSARY, title, named, &p->body, NULL, NULL,
		          &card);
		char *ref = !rc && card ? rl_card_text_name(title) : NULL;
		if (!rc && card && !ref)
			rc = RL_ENOMEM;
		if (!rc)
			rc = emit(p, RL_KIND_FAQ, title, named, &p->faq, p->label,
			          ref, &made);
		free(ref);
		if (!rc && !made)
			rc = rl_diag_add(p->d, RL_WARNING, p->admonition_line, 0,
			                 "the admonition of '%s' is empty", title);
	} else {
		rc = emit(p, RL_KIND_FAQ, title, named, &p->body, NULL, NULL, &made);
		/* (the picture named: the reader finds it on the site) */
		if (!rc && !made && p->number)
			rc = rl_diag_add(p->d, RL_WARNING, p->line, 0,
			                 "entry %lu has no text (a picture alone%s%s); "
			                 "left out", p->number, p->picture ? ": " : "",
			                 p->picture ? p->picture : "");
		else if (!rc && !made && !p->intro)
			rc = rl_diag_add(p->d, RL_WARNING, p->line, 0,
			                 "'%s' has no text; left out", title);
	}
	free(title);
	reset(p);
	return rc;
}

static int start(struct parser *p, unsigned line, const char *name,
                 size_t name_len)
{
	int rc = finish(p);
	if (rc)
		return rc;
	p->open = true;
	p->line = line;
	p->cards++;
	if (name && !(p->name = rl_rst_plain_copy(name, name_len)))
		return RL_ENOMEM;
	return RL_OK;
}

/* A numbered entry's line: its number against the last one's. */
static int start_numbered(struct parser *p, const struct rl_block *l,
                          unsigned long number, const char *name,
                          size_t name_len)
{
	int rc = start(p, l->line, name, name_len);
	if (rc)
		return rc;
	p->number = number;
	if (number != p->last + 1)
		rc = p->last ? rl_diag_add(p->d, RL_WARNING, l->line, 0,
		                           "entry number %lu after %lu; expected "
		                           "%lu", number, p->last, p->last + 1)
		             : rl_diag_add(p->d, RL_WARNING, l->line, 0,
		                           "the first entry is numbered %lu", number);
	p->last = number;
	return rc;
}

static int heading(struct parser *p, size_t i)
{
	const struct rl_block *l = &p->b->v[i];
	int rc = finish(p);
	if (rc)
		return rc;
	if (heading_is_card(p->b, i))
		return start(p, l->line, l->text, l->len);
	char *h = rl_rst_plain_copy(l->text, l->len);
	if (!h)
		return RL_ENOMEM;
	free(p->section);
	p->section = *h ? h : NULL;
	if (!*h)
		free(h);
	return RL_OK;
}

/* Text where no entry is open: the text before the first entry, or under
 * a section heading, titled by the document or the heading. */
static int open_intro(struct parser *p, unsigned line)
{
	p->open = p->intro = true;
	p->line = line;
	if (p->section && !(p->name = rl_strdup(p->section)))
		return RL_ENOMEM;
	return RL_OK;
}

static int directive(struct parser *p, const struct rl_block *l)
{
	int rc;
	p->in_admonition = false;
	if (l->name && is_picture(l) && p->open && !p->picture &&
	    !(p->picture = rl_strtrim(l->text, l->len)))
		return RL_ENOMEM;
	if (!l->name || is_picture(l))
		return RL_OK;     /* a comment, a target, a picture */
	if (dir_is(l, ADMONITION)) {
		if (!p->open && (rc = open_intro(p, l->line)))
			return rc;
		if (p->admonitions++ == 0) {
			p->admonition_line = l->line;
			if (!(p->label = rl_rst_plain_copy(l->text, l->len)))
				return RL_ENOMEM;
			if (!*p->label) {
				free(p->label);
				p->label = NULL;
			}
		}
		p->in_admonition = true;
		p->admonition_indent = l->indent;
		p->faq.pending_blank = p->faq.raw.len > 0;
		return RL_OK;
	}
	/* what is indented under another directive is not read */
	const struct rl_block *n = rl_blocks_next_nonblank(p->b,
	                                                   (size_t)(l - p->b->v));
	if (!n || !(n->flags & RL_BLOCK_SKIPPED))
		return RL_OK;
	return rl_diag_add(p->d, RL_WARNING, l->line, 0,
	                   "a '%.*s' directive: what is indented under it is "
	                   "left out", (int)l->name_len, l->name);
}

static int text_line(struct parser *p, const struct rl_block *l)
{
	if (l->flags & RL_BLOCK_SKIPPED) {
		if (p->in_admonition && l->indent > p->admonition_indent)
			part_add(&p->faq, l->raw, l->raw_len);
		return RL_OK;
	}
	p->in_admonition = false;
	int rc = p->open ? RL_OK : open_intro(p, l->line);
	part_add(&p->body, l->raw, l->raw_len);
	return rc;
}

static int recognize(const struct rl_blocks *b, struct rl_input *in)
{
	struct parser p = { .doc = in->doc, .d = in->d, .b = b };
	const struct rl_block *v = b->v;
	size_t i = 0, n = b->n;
	int rc = rl_rst_doc_title(b, &i, in);
	for (; i < n && !rc; i++) {
		const struct rl_block *l = &v[i];
		unsigned long number;
		const char *name;
		size_t name_len;
		switch (l->type) {
		case RL_BLOCK_BLANK:
			if (p.in_admonition)
				p.faq.pending_blank = p.faq.raw.len > 0;
			else
				p.body.pending_blank = p.body.raw.len > 0;
			break;
		case RL_BLOCK_TRANSITION:
			break;
		case RL_BLOCK_HEADING:
			rc = heading(&p, i);
			break;
		case RL_BLOCK_DIRECTIVE:
			if (!(l->flags & RL_BLOCK_SKIPPED))
				rc = directive(&p, l);
			break;
		default:
			switch (numbered(l, &number, &name, &name_len)) {
			case 1:
				if (number == p.last + 1 || picture_next(b, i)) {
					rc = start_numbered(&p, l, number, name,
					                    name_len);
					break;
				}
				rc = text_line(&p, l);
				break;
			case -1:
				/* not an entry, and said so: an entry's number
				 * read as its text would change its meaning */
				rc = rl_diag_add(p.d, RL_WARNING, l->line, 0,
				                 "'%.*s' has more than %d digits: not "
				                 "an entry's number; read as text",
				                 (int)strspn(l->raw, "0123456789") + 1,
				                 l->raw, NUMBER_DIGITS);
				if (!rc)
					rc = text_line(&p, l);
				break;
			default:
				rc = text_line(&p, l);
				break;
			}
			break;
		}
	}
	if (!rc)
		rc = finish(&p);
	if (!rc && p.cards == 0)
		rc = rl_diag_add(in->d, RL_WARNING, 0, 0, "no card FAQ entries (a "
		                 "numbered line or a card's heading over its picture)");
	reset(&p);
	free(p.section);
	rl_strmap_free(&p.keys);
	return rc;
}

/* The signature: entries that show their card. Two or more numbered lines
 * followed by a picture, or headings followed by a picture with an
 * admonition under them. */
static enum rl_confidence probe(const char *text, size_t len)
{
	struct rl_blocks b;
	if (!rl_probe_read(text, len, rl_read_rst, &b))
		return RL_PROBE_ENOMEM;
	size_t cards = 0;
	for (size_t i = 0; i < b.n; i++) {
		unsigned long num;
		const char *nm;
		size_t nl;
		/* (a picture looked for after these only: blank lines are
		 * passed over once) */
		if (numbered(&b.v[i], &num, &nm, &nl) > 0 && picture_next(&b, i))
			cards++;
		else if (b.v[i].type == RL_BLOCK_HEADING && picture_next(&b, i)) {
			for (size_t j = i + 1; j < b.n &&
			     b.v[j].type != RL_BLOCK_HEADING; j++)
				if (dir_is(&b.v[j], ADMONITION)) {
					cards++;
					break;
				}
		}
	}
	rl_blocks_free(&b);
	return cards >= 2 ? RL_PROBE_LIKELY : RL_PROBE_NO;
}

const struct rl_recognizer rl_format_card_faq = {
	.description = "reStructuredText card FAQ: numbered entries (\"12. Card\") "
	               "or card headings, each over its picture, the answer or an "
	               "\".. admonition::\" ruling",
	.probe = probe,
	.recognize = recognize,
};
