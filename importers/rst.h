/* rst.h — reStructuredText inline markup (read_rst.c), for recognizers of
 * formats written in RST. */
#ifndef RL_RST_H
#define RL_RST_H

#include "block.h"
#include "util.h"

/* Called for each :role:`target` (or :role:`text <target>`): the role's
 * name and the target, as written (not NUL-terminated). */
typedef int (*rl_rst_role_fn)(void *ctx, const char *role, size_t role_len,
                              const char *target, size_t target_len);

/* Appends s[0..n) to out with the inline markup made plain: :role:`X` and
 * `X <url>`_ → X, **x**, *x* and ``x`` → x, escapes resolved (an escaped
 * blank is nothing). role (may be NULL) hears of every role. */
int rl_rst_plain(const char *s, size_t n, rl_rst_role_fn role, void *ctx,
                 struct rl_buf *out);
/* The same for a text trimmed, as a new trimmed string. */
char *rl_rst_plain_copy(const char *s, size_t n);

struct rl_input;

/* s[0..n) trimmed, without one final period ("Броня Х." → "Броня Х";
 * "..." kept): how a glossary names its terms, and a :term: role its
 * target, so that the two meet. A new string; NULL when memory ran out. */
char *rl_rst_term_name(const char *s, size_t n);
/* A role function for the text of an entry (ctx, a struct rl_entry): a
 * :term:`X` is a reference of kind term to rl_rst_term_name(X), once;
 * other roles are passed over. */
int rl_rst_term_role(void *ctx, const char *role, size_t role_len,
                     const char *target, size_t target_len);
/* The document's title: the heading at *i, the first block that is not
 * blank (*i moved past it), made plain; else the file's name, with a
 * warning. RL_EDATA for a document of blank lines. */
int rl_rst_doc_title(const struct rl_blocks *b, size_t *i,
                     struct rl_input *in);

#endif
