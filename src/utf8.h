/* utf8.h — UTF-8 validation, decoding and case folding. */
#ifndef RL_UTF8_H
#define RL_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Returns len when s[0..len) is valid UTF-8 (no overlongs, no surrogates,
 * nothing above U+10FFFF), else the offset of the first invalid byte. */
size_t rl_utf8_valid(const char *s, size_t len);
/* Decodes one code point of valid UTF-8; returns its length in bytes. A
 * sequence cut short (by the NUL at the end of a string, or any byte that
 * does not continue it) gives U+FFFD and length 1: it never reads past the
 * end of a string. */
size_t rl_utf8_decode(const char *s, uint32_t *cp);
/* Encodes cp into out (4 bytes at most); returns the length. */
size_t rl_utf8_encode(uint32_t cp, char *out);
/* A letter or digit of the scripts rulings reads (Latin, Greek,
 * Cyrillic): inline markup never starts right after one or ends right
 * before one. */
bool rl_is_word_cp(uint32_t c);
/* Simple case folding of one code point (see rl_fold). */
uint32_t rl_fold_cp(uint32_t cp);
/* The base letter of a lower-case Latin letter with a diacritic (é → e,
 * ç → c, ø → o); other code points are returned as they are. */
uint32_t rl_unaccent_cp(uint32_t cp);

/* The optimal string alignment distance between a and b (insertions,
 * deletions, substitutions and transpositions of adjacent code points);
 * SIZE_MAX when memory ran out. Callers fold case first if they mean to. */
size_t rl_edit_distance(const char *a, const char *b);
/* The names nearest to word, for "did you mean": their indexes into out
 * (room for n), the count (0 when none is near: at most a third of word's
 * length away, one edit at least, or word the start of the name). */
size_t rl_nearest(const char *word, const char *const *names, size_t n,
                  size_t *out);

#endif
