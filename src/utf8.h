/* utf8.h — UTF-8 validation and decoding; NFC, case folding and keys
 * (utf8proc). rl_fold(), rl_key() and rl_key_loose() are in rulings.h. */
#ifndef RL_UTF8_H
#define RL_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Returns len when s[0..len) is valid UTF-8 (no overlongs, no surrogates,
 * nothing above U+10FFFF), else the offset of the first invalid byte. */
size_t rl_utf8_valid(const char *s, size_t len);
/* Decodes one code point; returns its length in bytes. A byte that starts
 * no valid sequence (a truncated one included) is U+FFFD, length 1: it
 * never reads past a NUL. */
size_t rl_utf8_decode(const char *s, uint32_t *cp);
/* Encodes cp into out (4 bytes at most); returns the length. */
size_t rl_utf8_encode(uint32_t cp, char *out);
/* A letter or digit of the scripts rulings reads (Latin, Greek,
 * Cyrillic): inline markup never starts right after one or ends right
 * before one. */
bool rl_is_word_cp(uint32_t c);
/* Simple case folding of one code point (one code point out: ß stays ß,
 * where rl_fold() makes it "ss"), ё as е. */
uint32_t rl_fold_cp(uint32_t cp);
/* The ASCII letter, in lower case, of a Latin letter that is one with
 * diacritics, as the full-text tokenizer takes them away (é → e, ệ → e,
 * Ș → s); other code points (ø, đ, й, ά) are returned as they are. */
uint32_t rl_unaccent_cp(uint32_t cp);
/* s[0..n) (UTF-8; bad bytes become U+FFFD) in Unicode's NFC, with
 * canonical reordering of marks: a new string, NULL when memory ran out;
 * its length in *len (may be NULL). NFC may lengthen a text. */
char *rl_nfc(const char *s, size_t n, size_t *len);

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
