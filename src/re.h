/* re.h — PCRE2 patterns as the importers use them. */
#ifndef RL_RE_H
#define RL_RE_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

/* Compiles pattern for UTF-8 text with Unicode properties (PCRE2_UTF |
 * PCRE2_UCP | extra), JIT-compiled where the JIT is available. NULL on
 * failure (a bad pattern is a programming error; out of memory). Text given
 * to these patterns is valid UTF-8 (rl_source checks it), so matching may
 * pass PCRE2_NO_UTF_CHECK: checking again on every call is quadratic over a
 * large buffer. */
pcre2_code *rl_re_compile(const char *pattern, uint32_t extra);

struct rl_doc;
/* The game the document's own words name (issue 12): pattern's group 1 in
 * the text of its entries [from, to) (to past the last: up to the last),
 * set as its game (rl_doc_set_game) when they name exactly one; two
 * different names are none (a glossary that compares two games names
 * neither). RL_OK or RL_ENOMEM. */
int rl_doc_game_from_words(struct rl_doc *doc, const char *pattern,
                           size_t from, size_t to);

#endif
