/* chars.h — the character classes every parser uses, in one place.
 *
 * A blank is a space, a tab, a no-break space (U+00A0) or a narrow no-break
 * space (U+202F, which French typography puts before ":", "?", "!" and ";").
 * White space is a blank or a line break. Text is valid UTF-8 (rl_source
 * checks it) and NUL-terminated, so a test may look at the bytes after a
 * range's end up to the NUL. */
#ifndef RL_CHARS_H
#define RL_CHARS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { RL_TAB_WIDTH = 8 };

/* The length in bytes of the blank at p, 0 when p holds none. */
size_t rl_blank_len(const char *p);
/* The length of the blank that ends just before e (not before s), or 0. */
size_t rl_blank_len_before(const char *s, const char *e);
/* Is the code point a blank (is_blank) or white space (blank, line break,
 * or 0: the end of the text)? */
bool rl_is_blank_cp(uint32_t c);
bool rl_is_space_cp(uint32_t c);
/* A combining mark (the accents that follow their letter in decomposed
 * text: U+0300–U+036F and the other combining diacritics blocks). */
bool rl_is_mark_cp(uint32_t c);
/* Nothing but blanks; nothing but blanks and line breaks. */
bool rl_is_blank_line(const char *s, size_t n);
bool rl_is_blank_text(const char *s, size_t n);
/* The code point at s[i] (0 at or past n), and the one before s[i] (0 at
 * the start). */
uint32_t rl_cp_at(const char *s, size_t n, size_t i);
uint32_t rl_cp_before(const char *s, size_t i);
/* The width in columns of the blanks that start s[0..n) (a tab goes to the
 * next multiple of RL_TAB_WIDTH), and their length in bytes (bytes may be
 * NULL). */
size_t rl_indent(const char *s, size_t n, size_t *bytes);
/* Characters (code points) in s[0..n): a column count. */
size_t rl_chars(const char *s, size_t n);

#endif
