/* util.c — growable buffers and arrays. */
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool buf_reserve(struct rl_buf *b, size_t extra)
{
	if (b->oom)
		return false;
	if (b->len + extra + 1 <= b->cap)
		return true;
	if (extra > SIZE_MAX / 2 - b->len) {
		b->oom = true;
		return false;
	}
	size_t cap = b->cap ? b->cap : 64;
	while (cap < b->len + extra + 1)
		cap *= 2;
	char *s = realloc(b->s, cap);
	if (!s) {
		b->oom = true;
		return false;
	}
	b->s = s;
	b->cap = cap;
	return true;
}

void rl_buf_add(struct rl_buf *b, const char *s, size_t n)
{
	if (!buf_reserve(b, n))
		return;
	if (n)
		memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void rl_buf_adds(struct rl_buf *b, const char *s)
{
	rl_buf_add(b, s, strlen(s));
}

void rl_buf_addc(struct rl_buf *b, char c)
{
	rl_buf_add(b, &c, 1);
}

void rl_buf_addf(struct rl_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->oom = true;
		return;
	}
	if (!buf_reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

char *rl_buf_take(struct rl_buf *b)
{
	if (b->oom) {
		rl_buf_free(b);
		return NULL;
	}
	if (!b->s) {
		if (!buf_reserve(b, 0))
			return NULL;
		b->s[0] = '\0';
	}
	char *s = b->s;
	*b = (struct rl_buf){0};
	return s;
}

void rl_buf_free(struct rl_buf *b)
{
	free(b->s);
	*b = (struct rl_buf){0};
}

char *rl_strdup(const char *s)
{
	return s ? rl_strndup(s, strlen(s)) : NULL;
}

char *rl_strndup(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (!d)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

void rl_trim_range(const char **sp, size_t *np)
{
	const char *s = *sp, *e = s + *np;
	size_t k;
	while (s < e && (k = rl_blank_len(s)) != 0)
		s += k;
	while (e > s && (k = rl_blank_len_before(s, e)) != 0)
		e -= k;
	*sp = s;
	*np = (size_t)(e - s);
}

char *rl_strtrim(const char *s, size_t n)
{
	rl_trim_range(&s, &n);
	return rl_strndup(s, n);
}

bool rl_grow(void *v, size_t *cap, size_t need, size_t sz)
{
	void **pv = v;
	if (need <= *cap)
		return true;
	size_t c = *cap ? *cap : 8;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return false;
		c *= 2;
	}
	if (c > SIZE_MAX / sz)
		return false;
	void *p = realloc(*pv, c * sz);
	if (!p)
		return false;
	*pv = p;
	*cap = c;
	return true;
}

size_t rl_cut_at_word(const char *s, size_t n, size_t max)
{
	if (n <= max)
		return n;
	size_t k = max;
	while (k > 0 && s[k] != ' ')
		k--;
	if (k == 0)
		k = max;
	while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
		k--;
	return k;
}

char *rl_day_end(const char *when)
{
	struct rl_buf b = {0};
	rl_buf_adds(&b, when);
	if (strlen(when) == 10)
		rl_buf_adds(&b, "T23:59:59Z");
	return rl_buf_take(&b);
}

static size_t strset_hash(const char *s, size_t len)
{
	size_t h = 14695981039346656037u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211u;
	return h;
}

static char **strset_slot(char **slot, size_t cap, const char *s, size_t len)
{
	size_t i = strset_hash(s, len) & (cap - 1);
	while (slot[i] && !(strlen(slot[i]) == len && memcmp(slot[i], s, len) == 0))
		i = (i + 1) & (cap - 1);
	return &slot[i];
}

bool rl_strset_has(const struct rl_strset *set, const char *s, size_t len)
{
	return set->cap && *strset_slot(set->slot, set->cap, s, len);
}

int rl_strset_add(struct rl_strset *set, const char *s, size_t len)
{
	if (rl_strset_has(set, s, len))
		return 0;
	if ((set->n + 1) * 2 > set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 64;
		char **slot = calloc(cap, sizeof *slot);
		if (!slot)
			return -1;
		for (size_t i = 0; i < set->cap; i++)
			if (set->slot[i])
				*strset_slot(slot, cap, set->slot[i],
				             strlen(set->slot[i])) = set->slot[i];
		free(set->slot);
		set->slot = slot;
		set->cap = cap;
	}
	char *copy = rl_strndup(s, len);
	if (!copy)
		return -1;
	*strset_slot(set->slot, set->cap, s, len) = copy;
	set->n++;
	return 1;
}

void rl_strset_free(struct rl_strset *set)
{
	for (size_t i = 0; i < set->cap; i++)
		free(set->slot[i]);
	free(set->slot);
	*set = (struct rl_strset){0};
}

int rl_strmap_add(struct rl_strmap *map, const char *s, size_t len,
                  size_t val, size_t *was)
{
	char **at = map->cap ? strset_slot(map->slot, map->cap, s, len) : NULL;
	if (at && *at) {
		*was = map->val[at - map->slot];
		return 0;
	}
	if ((map->n + 1) * 2 > map->cap) {
		size_t cap = map->cap ? map->cap * 2 : 64;
		char **slot = calloc(cap, sizeof *slot);
		size_t *v = malloc(cap * sizeof *v);
		if (!slot || !v) {
			free(slot);
			free(v);
			return -1;
		}
		for (size_t i = 0; i < map->cap; i++) {
			if (!map->slot[i])
				continue;
			char **to = strset_slot(slot, cap, map->slot[i],
			                        strlen(map->slot[i]));
			*to = map->slot[i];
			v[to - slot] = map->val[i];
		}
		free(map->slot);
		free(map->val);
		map->slot = slot;
		map->val = v;
		map->cap = cap;
	}
	char *copy = rl_strndup(s, len);
	if (!copy)
		return -1;
	at = strset_slot(map->slot, map->cap, s, len);
	*at = copy;
	map->val[at - map->slot] = val;
	map->n++;
	return 1;
}

void rl_strmap_free(struct rl_strmap *map)
{
	for (size_t i = 0; i < map->cap; i++)
		free(map->slot[i]);
	free(map->slot);
	free(map->val);
	*map = (struct rl_strmap){0};
}
