/* jsonread.c — a small JSON reader that remembers where each value stood.
 *
 * Importers of JSON documents need FILE:LINE diagnostics for the value that
 * is wrong, which SQLite's JSON functions cannot give; this reader builds a
 * tree whose every value has its line. It reads RFC 8259 JSON (objects,
 * arrays, strings with every escape including surrogate pairs, numbers as
 * text, true, false, null) from valid UTF-8 and stops at the first error,
 * which it reports with its line and column. Depth is limited, so hostile
 * input cannot exhaust the stack. */
#include "jsonread.h"
#include "utf8.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 256 };

struct reader {
	const char *s, *end, *line_start;
	unsigned line;
	struct rl_diags *d;
	int depth;
	bool failed;
};

static int fail(struct reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct reader *r, const char *fmt, ...)
{
	if (r->failed)
		return RL_EDATA;
	r->failed = true;
	char msg[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	unsigned col = 1;
	for (const char *p = r->line_start; p < r->s && p < r->end; p++)
		col += ((unsigned char)*p & 0xC0) != 0x80;
	rl_diag_add(r->d, RL_ERROR, r->line, col, "invalid JSON: %s", msg);
	return RL_EDATA;
}

static void skip_ws(struct reader *r)
{
	while (r->s < r->end) {
		char c = *r->s;
		if (c == '\n') {
			r->line++;
			r->line_start = r->s + 1;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			return;
		}
		r->s++;
	}
}

static struct rl_json *node(struct reader *r, enum rl_json_type t)
{
	struct rl_json *v = calloc(1, sizeof *v);
	if (v) {
		v->type = t;
		v->line = r->line;
	}
	return v;
}

static int hex4(struct reader *r, uint32_t *out)
{
	if (r->end - r->s < 4)
		return fail(r, "a \\u escape needs four hex digits");
	uint32_t v = 0;
	for (int i = 0; i < 4; i++) {
		char c = r->s[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (uint32_t)(c - 'A' + 10);
		else
			return fail(r, "a \\u escape needs four hex digits");
	}
	r->s += 4;
	*out = v;
	return RL_OK;
}

/* A string, from just after its opening quote; *out is NUL-terminated
 * (a \u0000 ends it early: text never holds NUL). */
static int string(struct reader *r, char **out, size_t *len)
{
	struct rl_buf b = {0};
	for (;;) {
		if (r->s >= r->end) {
			rl_buf_free(&b);
			return fail(r, "a string is not closed");
		}
		unsigned char c = (unsigned char)*r->s++;
		if (c == '"')
			break;
		if (c < 0x20) {
			r->s--;
			rl_buf_free(&b);
			return fail(r, "a control character in a string");
		}
		if (c != '\\') {
			rl_buf_addc(&b, (char)c);
			continue;
		}
		if (r->s >= r->end) {
			rl_buf_free(&b);
			return fail(r, "a string is not closed");
		}
		const char *esc = r->s - 1;   /* errors point at the backslash */
		char e = *r->s++;
		uint32_t cp;
		switch (e) {
		case '"': rl_buf_addc(&b, '"'); continue;
		case '\\': rl_buf_addc(&b, '\\'); continue;
		case '/': rl_buf_addc(&b, '/'); continue;
		case 'b': rl_buf_addc(&b, '\b'); continue;
		case 'f': rl_buf_addc(&b, '\f'); continue;
		case 'n': rl_buf_addc(&b, '\n'); continue;
		case 'r': rl_buf_addc(&b, '\r'); continue;
		case 't': rl_buf_addc(&b, '\t'); continue;
		case 'u':
			if (hex4(r, &cp)) {
				rl_buf_free(&b);
				return RL_EDATA;
			}
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				uint32_t lo;
				if (r->end - r->s < 2 || r->s[0] != '\\' || r->s[1] != 'u') {
					rl_buf_free(&b);
					r->s = esc;
					return fail(r, "an unpaired surrogate in a \\u escape");
				}
				r->s += 2;
				if (hex4(r, &lo)) {
					rl_buf_free(&b);
					return RL_EDATA;
				}
				if (lo < 0xDC00 || lo > 0xDFFF) {
					rl_buf_free(&b);
					r->s = esc;
					return fail(r, "an unpaired surrogate in a \\u escape");
				}
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			} else if (cp >= 0xDC00 && cp <= 0xDFFF) {
				rl_buf_free(&b);
				r->s = esc;
				return fail(r, "an unpaired surrogate in a \\u escape");
			}
			if (cp == 0) {
				rl_buf_free(&b);
				r->s = esc;
				return fail(r, "a NUL character (\\u0000) in a string");
			}
			char enc[4];
			rl_buf_add(&b, enc, rl_utf8_encode(cp, enc));
			continue;
		default:
			r->s--;
			rl_buf_free(&b);
			return fail(r, "an unknown escape '\\%c'", e);
		}
	}
	*len = b.len;
	*out = rl_buf_take(&b);
	return *out ? RL_OK : RL_ENOMEM;
}

static int value(struct reader *r, struct rl_json **out);

static int push(struct rl_json *parent, struct rl_json *child, char *key)
{
	if (parent->n == parent->cap) {
		size_t cap = parent->cap ? parent->cap * 2 : 8;
		struct rl_json **items = realloc(parent->items, cap * sizeof *items);
		if (!items)
			return RL_ENOMEM;
		parent->items = items;
		if (parent->type == RL_JSON_OBJECT) {
			char **keys = realloc(parent->keys, cap * sizeof *keys);
			if (!keys)
				return RL_ENOMEM;
			parent->keys = keys;
		}
		parent->cap = cap;
	}
	if (key)
		parent->keys[parent->n] = key;
	parent->items[parent->n++] = child;
	return RL_OK;
}

static int container(struct reader *r, struct rl_json *v, char close)
{
	bool object = close == '}';
	if (++r->depth > MAX_DEPTH) {
		r->s--;                   /* at the bracket that is too deep */
		return fail(r, "nested deeper than %d", MAX_DEPTH);
	}
	skip_ws(r);
	if (r->s < r->end && *r->s == close) {
		r->s++;
		r->depth--;
		return RL_OK;
	}
	for (;;) {
		char *key = NULL;
		skip_ws(r);
		if (object) {
			if (r->s >= r->end || *r->s != '"')
				return fail(r, "expected a member name in quotes");
			r->s++;
			size_t kl;
			int rc = string(r, &key, &kl);
			if (rc)
				return rc;
			skip_ws(r);
			if (r->s >= r->end || *r->s != ':') {
				free(key);
				return fail(r, "expected ':' after a member name");
			}
			r->s++;
		}
		struct rl_json *child = NULL;
		int rc = value(r, &child);
		if (!rc)
			rc = push(v, child, key);
		if (rc) {
			free(key);
			rl_json_free(child);
			return rc;
		}
		skip_ws(r);
		if (r->s < r->end && *r->s == ',') {
			r->s++;
			continue;
		}
		if (r->s < r->end && *r->s == close) {
			r->s++;
			r->depth--;
			return RL_OK;
		}
		return fail(r, "expected ',' or '%c'", close);
	}
}

static const char *digits(const char *p, const char *end)
{
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return p;
}

/* The end of a JSON number at p, or NULL with *bad at the first character
 * that does not fit. */
static const char *number_end(const char *p, const char *end, const char **bad)
{
	const char *q = p;
	if (q < end && *q == '-')
		q++;
	if (q < end && *q == '0')
		q++;
	else if (q < end && *q >= '1' && *q <= '9')
		q = digits(q, end);
	else
		goto fail;
	if (q < end && *q == '.') {
		q++;
		const char *f = digits(q, end);
		if (f == q)
			goto fail;
		q = f;
	}
	if (q < end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < end && (*q == '+' || *q == '-'))
			q++;
		const char *f = digits(q, end);
		if (f == q)
			goto fail;
		q = f;
	}
	return q;
fail:
	*bad = q;
	return NULL;
}

static bool literal(struct reader *r, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(r->end - r->s) >= n && memcmp(r->s, word, n) == 0) {
		r->s += n;
		return true;
	}
	return false;
}

static int value(struct reader *r, struct rl_json **out)
{
	*out = NULL;
	skip_ws(r);
	if (r->s >= r->end)
		return fail(r, "a value is missing");
	char c = *r->s;
	struct rl_json *v;
	int rc = RL_OK;
	if (c == '{' || c == '[') {
		r->s++;
		if (!(v = node(r, c == '{' ? RL_JSON_OBJECT : RL_JSON_ARRAY)))
			return RL_ENOMEM;
		rc = container(r, v, c == '{' ? '}' : ']');
	} else if (c == '"') {
		r->s++;
		if (!(v = node(r, RL_JSON_STRING)))
			return RL_ENOMEM;
		rc = string(r, &v->str, &v->len);
	} else if (c == '-' || (c >= '0' && c <= '9')) {
		/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
		const char *start = r->s, *bad = NULL;
		const char *e = number_end(r->s, r->end, &bad);
		if (!e) {
			r->s = bad;
			return fail(r, "a malformed number");
		}
		r->s = e;
		if (!(v = node(r, RL_JSON_NUMBER)))
			return RL_ENOMEM;
		v->len = (size_t)(r->s - start);
		if (!(v->str = rl_strndup(start, v->len)))
			rc = RL_ENOMEM;
	} else if (literal(r, "true") || literal(r, "false")) {
		if (!(v = node(r, RL_JSON_BOOL)))
			return RL_ENOMEM;
		v->boolean = r->s[-1] == 'e' && r->s[-2] == 'u';
	} else if (literal(r, "null")) {
		if (!(v = node(r, RL_JSON_NULL)))
			return RL_ENOMEM;
	} else {
		return fail(r, "unexpected '%c'", c);
	}
	if (rc) {
		rl_json_free(v);
		return rc;
	}
	*out = v;
	return RL_OK;
}

int rl_json_parse(const char *text, size_t len, struct rl_json **out,
                  struct rl_diags *d)
{
	struct reader r = { text, text + len, text, 1, d, 0, false };
	int rc = value(&r, out);
	if (!rc) {
		skip_ws(&r);
		if (r.s < r.end) {
			rl_json_free(*out);
			*out = NULL;
			rc = fail(&r, "text after the end of the document");
		}
	}
	return rc;
}

const struct rl_json *rl_json_get(const struct rl_json *obj, const char *key)
{
	if (!obj || obj->type != RL_JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (strcmp(obj->keys[i], key) == 0)
			return obj->items[i];
	return NULL;
}

const char *rl_json_str(const struct rl_json *obj, const char *key)
{
	const struct rl_json *v = rl_json_get(obj, key);
	return v && v->type == RL_JSON_STRING ? v->str : NULL;
}

void rl_json_free(struct rl_json *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++) {
		rl_json_free(v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	free(v);
}
