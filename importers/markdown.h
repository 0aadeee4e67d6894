/* markdown.h — Markdown inline markup (read_markdown.c), for recognizers
 * of formats written in Markdown. */
#ifndef RL_MARKDOWN_H
#define RL_MARKDOWN_H

#include "block.h"
#include "util.h"

/* Called for each link of a text: to a term (a wikilink's file, or
 * another page of the site: kind RL_REF_TERM, the file name without
 * folders, "#part" or ".md") or to an address (RL_REF_URL). */
typedef int (*rl_md_link_fn)(void *ctx, enum rl_ref_kind kind,
                             const char *target, size_t len);

/* Appends s[0..n) to out with the inline markup made plain: [[File|Shown]]
 * and [text](url) show their text, **bold**, *emphasis*, ~~struck~~ and
 * `code` their content, escapes their character; embedded files
 * (![[x.png]]) and images are dropped, with the blank or empty "()" they
 * leave. link (may be NULL) hears of every link. Linear in n: no opening
 * mark makes it read the rest of the text more than a bounded number of
 * times. */
int rl_md_plain(const char *s, size_t n, rl_md_link_fn link, void *ctx,
                struct rl_buf *out);
/* Does the line hold a wikilink (not an embedded file, not in `code`)? */
bool rl_md_has_wikilink(const char *s, size_t n);
/* An indented code block's line: four columns of blanks or more. */
bool rl_md_is_code(const char *s, size_t n);
/* An ATX heading ("## Text ##"): its level (0: none) and text. */
int rl_md_atx(const char *s, size_t n, const char **t, size_t *tn);

#endif
