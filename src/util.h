/* util.h — small internal helpers: growable buffers and arrays. */
#ifndef RL_UTIL_H
#define RL_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "chars.h"     /* blanks: rl_blank_len(), rl_is_blank_line() */

/* A growable NUL-terminated byte buffer. A failed allocation sets oom and
 * makes later appends no-ops, so callers check once at the end. */
struct rl_buf {
	char *s;
	size_t len, cap;
	bool oom;
};

void rl_buf_add(struct rl_buf *b, const char *s, size_t n);
void rl_buf_adds(struct rl_buf *b, const char *s);
void rl_buf_addc(struct rl_buf *b, char c);
void rl_buf_addf(struct rl_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Returns the string (never NULL unless oom) and resets b. */
char *rl_buf_take(struct rl_buf *b);
void rl_buf_free(struct rl_buf *b);

char *rl_strdup(const char *s);              /* NULL in, NULL out */
char *rl_strndup(const char *s, size_t n);
char *rl_strtrim(const char *s, size_t n);   /* copy without outer blanks */
/* The same in place: moves *s and shortens *n past the outer blanks. */
void rl_trim_range(const char **s, size_t *n);

/* Grows *v (elements of size sz) so that it holds at least need; returns
 * false on overflow or allocation failure, leaving *v as it was. */
bool rl_grow(void *v, size_t *cap, size_t need, size_t sz);

/* How many of the n bytes of s to keep to cut it at about max bytes: at
 * the last space before max, never inside a UTF-8 sequence (n when n <=
 * max). */
size_t rl_cut_at_word(const char *s, size_t n, size_t max);

/* A date alone ("2026-01-16") as the last second of that day
 * ("2026-01-16T23:59:59Z"); anything else copied. */
char *rl_day_end(const char *when);


/* A set of strings (copies), by hash: for the duplicate checks that a
 * line of 100 000 tags or references would make quadratic. */
struct rl_strset {
	char **slot;
	size_t n, cap;
};

/* Adds s[0..len): 1 when it is new, 0 when it was there, -1 when out of
 * memory (the set is unchanged). */
int rl_strset_add(struct rl_strset *set, const char *s, size_t len);
bool rl_strset_has(const struct rl_strset *set, const char *s, size_t len);
void rl_strset_free(struct rl_strset *set);

/* A map of strings (copies) to numbers, by hash, as rl_strset. */
struct rl_strmap {
	char **slot;
	size_t *val;
	size_t n, cap;
};

/* Maps s[0..len) to val: 1 when it is new; 0 when it was there (*was is
 * its number, unchanged); -1 when out of memory (the map unchanged). */
int rl_strmap_add(struct rl_strmap *map, const char *s, size_t len,
                  size_t val, size_t *was);
void rl_strmap_free(struct rl_strmap *map);

#endif
