/* block.c — the block list (block.h) and the lines reader. */
#include "block.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* Strings the list owns, in chunks: a value is one copy, not one
 * allocation. */
struct rl_block_chunk {
	struct rl_block_chunk *next;
	size_t used, cap;
	char s[];
};

enum { CHUNK = 16384 };

struct rl_block *rl_blocks_add(struct rl_blocks *b, enum rl_block_type type,
                               unsigned line)
{
	if (!rl_grow(&b->v, &b->cap, b->n + 1, sizeof *b->v))
		return NULL;
	struct rl_block *k = &b->v[b->n++];
	*k = (struct rl_block){ .type = type, .line = line };
	return k;
}

char *rl_blocks_strdup(struct rl_blocks *b, const char *s, size_t n)
{
	struct rl_block_chunk *c = b->strings;
	if (n >= CHUNK / 4) {
		/* a large string has a chunk of its own, behind the current */
		struct rl_block_chunk *big = malloc(sizeof *big + n + 1);
		if (!big)
			return NULL;
		big->used = big->cap = n + 1;
		if (c) {
			big->next = c->next;
			c->next = big;
		} else {
			big->next = NULL;
			b->strings = big;
		}
		memcpy(big->s, s, n);
		big->s[n] = '\0';
		return big->s;
	}
	if (!c || c->cap - c->used < n + 1) {
		c = malloc(sizeof *c + CHUNK);
		if (!c)
			return NULL;
		c->used = 0;
		c->cap = CHUNK;
		c->next = b->strings;
		b->strings = c;
	}
	char *d = c->s + c->used;
	memcpy(d, s, n);
	d[n] = '\0';
	c->used += n + 1;
	return d;
}

static void free_strings(struct rl_blocks *b)
{
	for (struct rl_block_chunk *c = b->strings, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	b->strings = NULL;
}

int rl_blocks_flush(struct rl_blocks *b)
{
	int rc = b->flush ? b->flush(b, b->flush_ctx) : RL_OK;
	b->n = 0;
	free_strings(b);
	return rc;
}

void rl_blocks_free(struct rl_blocks *b)
{
	if (!b)
		return;
	free(b->v);
	free_strings(b);
	*b = (struct rl_blocks){0};
}

bool rl_block_is_text(const struct rl_block *b)
{
	return b->type == RL_BLOCK_LINE || b->type == RL_BLOCK_ITEM ||
	       b->type == RL_BLOCK_DIRECTIVE || b->type == RL_BLOCK_OPTION ||
	       b->type == RL_BLOCK_TERM || b->type == RL_BLOCK_DEFINITION;
}

const struct rl_block *rl_blocks_next_nonblank(const struct rl_blocks *b,
                                               size_t i)
{
	for (size_t k = i + 1; k < b->n; k++)
		if (b->v[k].type != RL_BLOCK_BLANK)
			return &b->v[k];
	return NULL;
}

char *rl_block_strdup(const struct rl_block *b)
{
	return rl_strtrim(b->text, b->len);
}

int rl_blocks_skip_to_content(const struct rl_blocks *b, size_t *i,
                              struct rl_diags *d)
{
	while (*i < b->n && (b->v[*i].type == RL_BLOCK_BLANK ||
	                     b->v[*i].type == RL_BLOCK_TRANSITION))
		++*i;
	if (*i < b->n)
		return RL_OK;
	rl_diag_add(d, RL_ERROR, 0, 0, "empty document");
	return RL_EDATA;
}

bool rl_probe_read(const char *text, size_t len,
                   int (*read)(const struct rl_source *, struct rl_blocks *),
                   struct rl_blocks *b)
{
	struct rl_source src = { .text = (char *)text, .len = len };
	*b = (struct rl_blocks){0};
	if (!read(&src, b))
		return true;
	rl_blocks_free(b);
	return false;
}

/* ---- Lines and bullets --------------------------------------------------- */

/* Bullets: a marker, then a blank or the line's end. */
static const char *const bullets[] = {
	"\xE2\x80\xA2",     /* • */
	"\xE2\x97\xA6",     /* ◦ */
	"\xC2\xB7",         /* · */
	"\xE2\x80\xA3",     /* ‣ */
	"-", "*", "+",
};

/* The length of the bullet marker at s[0..n), 0 when there is none. */
static size_t bullet_len(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof bullets / sizeof *bullets; i++) {
		size_t k = strlen(bullets[i]);
		if (n >= k && memcmp(s, bullets[i], k) == 0 &&
		    (n == k || rl_blank_len(s + k)))
			return k;
	}
	return 0;
}

int rl_read_lines(const struct rl_source *src, struct rl_blocks *out)
{
	const char *s = src->text, *end = s + src->len;
	unsigned no = 1;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s), bytes;
		size_t col = rl_indent(s, n, &bytes);
		size_t marker = bullet_len(s + bytes, n - bytes);
		enum rl_block_type t = bytes == n ? RL_BLOCK_BLANK
		                       : marker ? RL_BLOCK_ITEM : RL_BLOCK_LINE;
		struct rl_block *b = rl_blocks_add(out, t, no++);
		if (!b)
			return RL_ENOMEM;
		b->raw = s;
		b->raw_len = n;
		b->indent = col > 65535 ? 65535 : (unsigned)col;
		b->text = s + bytes;
		b->len = n - bytes;
		if (marker) {
			size_t k = bytes + marker;
			b->name = s + bytes;
			b->name_len = marker;
			while (k < n && rl_blank_len(s + k))
				k += rl_blank_len(s + k);
			b->text = s + k;
			b->len = n - k;
		}
		s += n + (nl != NULL);
	}
	return RL_OK;
}
