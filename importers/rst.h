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

#endif
