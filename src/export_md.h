/* export_md.h — what the Markdown renderers share: the tag pages
 * (export_md.c), and a site's index, game pages and books
 * (export_md_book.c). */
#ifndef RL_EXPORT_MD_H
#define RL_EXPORT_MD_H

#include "export.h"

/* Text with every character that Markdown could read as markup escaped:
 * inline markup anywhere, block markup at the start of a line; a line
 * break becomes a space. */
void md_text(struct rl_out *o, const char *s, size_t n);
/* The same where no block can begin (line_start false): inline markup
 * only. */
void md_text_at(struct rl_out *o, const char *s, size_t n, bool line_start);
void md_str(struct rl_out *o, const char *s);

int export_md_book_page(struct rl_export *x, size_t page,
                        const struct rl_sink *out);
int export_md_game_page(struct rl_export *x, size_t page,
                        const struct rl_sink *out);

#endif
