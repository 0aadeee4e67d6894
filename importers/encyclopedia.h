/* encyclopedia.h — an encyclopedia page's two columns, shared by
 * encyclopedia_page.c (which tells the body and the side box apart) and
 * encyclopedia.c (the recognizer, which makes them rulings). */
#ifndef RL_ENCYCLOPEDIA_H
#define RL_ENCYCLOPEDIA_H

#include "block.h"
#include "doc.h"
#include "util.h"

#include <stdbool.h>
#include <stddef.h>

/* The side box's header, and the title of the ruling its items become. */
#define ENCY_BOX_HEADER "\xC3\x80 RETENIR"                    /* À RETENIR */

/* A section of the body: a heading (or the title) and its text. */
struct ency_section {
	char *title;
	unsigned line;
	struct rl_buf text;
};

/* A box item, or a lower-case fragment not yet placed. */
struct ency_fragment {
	char *text;
	unsigned line;
};

struct ency_page {
	struct rl_doc *doc;          /* what the recognizer fills */
	struct rl_diags *d;
	struct ency_section *secs;
	size_t nsecs, secs_cap;
	struct ency_fragment *box;   /* box items, in order */
	size_t nbox, box_cap;
	struct ency_fragment *loose; /* lower-case fragments not yet placed */
	size_t nloose, loose_cap;
	size_t box_width;
	unsigned box_line;
	size_t line_item;            /* the bullet begun on this line, or -1 */
};

/* Reads the page from its title line l[0] to l[n - 1] into p's sections,
 * box items and loose fragments, warning in p->d of each line that mixed
 * the columns. RL_OK or RL_ENOMEM. */
int ency_page_read(struct ency_page *p, const struct rl_block *l, size_t n);
/* Frees what ency_page_read() gathered (not p->doc). */
void ency_page_free(struct ency_page *p);
/* Does [s, s + n) end a sentence (., !, ? or :, blanks after it)? */
bool ency_ends_sentence(const char *s, size_t n);

#endif
