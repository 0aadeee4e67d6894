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

#endif
