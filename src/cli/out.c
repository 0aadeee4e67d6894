/* out.c — the output layer (out.h): the document, the JSON writer, text
 * with control characters made visible, and the error that output
 * carries to the exit status. */
#include "out.h"

#include "cli.h"
#include "utf8.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RESET "\033[0m"

static const char *const style_codes[] = {
	[STYLE_ID] = "\033[33m", [STYLE_BOLD] = "\033[1m",
	[STYLE_DIM] = "\033[2m", [STYLE_MATCH] = "\033[1;31m",
	[STYLE_REMOVED] = "\033[31m", [STYLE_ADDED] = "\033[32m",
};

void out_init(struct out *o, FILE *f, const char *stream,
              enum out_format fmt, bool color)
{
	memset(o, 0, sizeof *o);
	o->f = f;
	o->stream = stream;
	o->fmt = fmt;
	o->color = color && fmt == OUT_TEXT;
}

/* ---- characters ------------------------------------------------------------ */

#define INVALID UINT32_MAX

/* The character at s (n > 0 bytes left): its length, and its code point or
 * INVALID for a byte that does not start a valid UTF-8 sequence. */
static size_t next_char(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len = s[0] < 0x80 ? 1 : s[0] < 0xC2 ? 0 : s[0] < 0xE0 ? 2
	           : s[0] < 0xF0 ? 3 : s[0] < 0xF5 ? 4 : 0;
	if (len == 0 || len > n || rl_utf8_valid((const char *)s, len) != len) {
		*cp = INVALID;
		return 1;
	}
	rl_utf8_decode((const char *)s, cp);
	return len;
}

/* C1 controls, and the bidi controls that reorder the text after them:
 * embeddings, overrides, isolates (the "Trojan Source" set). */
static bool unsafe_cp(uint32_t c)
{
	return (c >= 0x80 && c <= 0x9F) || (c >= 0x202A && c <= 0x202E) ||
	       (c >= 0x2066 && c <= 0x2069);
}

void out_escape(FILE *f, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t run = 0, i = 0;     /* s[run..i) is written as it is */
	while (i < n) {
		unsigned c = s[i];
		size_t len = 1;
		uint32_t cp = c;
		if (c >= 0x20 && c < 0x7F) {
			i++;
			continue;
		}
		if (c >= 0x80)
			len = next_char(s + i, n - i, &cp);
		if (cp == '\n' || cp == '\t' || (cp != INVALID && cp >= 0x80 &&
		                                  !unsafe_cp(cp))) {
			i += len;
			continue;
		}
		fwrite(s + run, 1, i - run, f);
		if (cp == INVALID)
			fprintf(f, "<%02X>", c);
		else if (cp < 0x20)
			fprintf(f, "^%c", (char)(cp + 0x40));
		else if (cp == 0x7F)
			fputs("^?", f);
		else
			fprintf(f, "<U+%04X>", (unsigned)cp);
		i += len;
		run = i;
	}
	fwrite(s + run, 1, i - run, f);
}

/* s as a JSON string: the escapes JSON requires, and \u escapes for C1
 * and bidi controls (the same string to a parser, safe on a terminal);
 * bytes that are not UTF-8 become U+FFFD. */
static void quoted(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), run = 0, i = 0;
	fputc('"', f);
	while (i < n) {
		unsigned c = s[i];
		size_t len = 1;
		uint32_t cp = c;
		if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
			i++;
			continue;
		}
		if (c >= 0x80)
			len = next_char(s + i, n - i, &cp);
		if (cp != INVALID && cp >= 0x80 && !unsafe_cp(cp)) {
			i += len;
			continue;
		}
		fwrite(s + run, 1, i - run, f);
		switch (cp) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		case INVALID: fputs("\\ufffd", f); break;
		default: fprintf(f, "\\u%04x", (unsigned)cp);
		}
		i += len;
		run = i;
	}
	fwrite(s + run, 1, i - run, f);
	fputc('"', f);
}

/* ---- JSON ---------------------------------------------------------------- */

/* Whether structured calls write: always in JSON, inside a record in
 * NDJSON, never in text or after a failure. */
static bool structured(const struct out *o)
{
	return !o->status && (o->fmt == OUT_JSON ||
	                      (o->fmt == OUT_NDJSON && o->record > 0));
}

static void newline(struct out *o)
{
	if (o->fmt != OUT_JSON)
		return;
	fputc('\n', o->f);
	for (int i = 0; i < o->depth; i++)
		fputs("  ", o->f);
}

/* The separator before a value or key at the current depth. */
static void before_item(struct out *o)
{
	if (o->after_key) {
		o->after_key = false;
		return;
	}
	if (o->depth > 0) {
		if (!o->first[o->depth])
			fputc(',', o->f);
		o->first[o->depth] = false;
		newline(o);
	}
}

static void push(struct out *o, char c)
{
	if (!structured(o))
		return;
	if (o->depth + 1 >= OUT_MAX_DEPTH) {
		out_fail(o, RL_EINTERNAL, "output nested too deep");
		return;
	}
	before_item(o);
	fputc(c, o->f);
	o->depth++;
	o->first[o->depth] = true;
}

static void pop(struct out *o, char c)
{
	if (!structured(o) || o->depth == 0)
		return;
	bool empty = o->first[o->depth];
	o->depth--;
	if (!empty)
		newline(o);
	fputc(c, o->f);
}

void out_begin_map(struct out *o) { push(o, '{'); }
void out_end_map(struct out *o) { pop(o, '}'); }
void out_begin_list(struct out *o) { push(o, '['); }
void out_end_list(struct out *o) { pop(o, ']'); }

void out_key(struct out *o, const char *key)
{
	if (!structured(o))
		return;
	before_item(o);
	quoted(o->f, key);
	fputs(o->fmt == OUT_JSON ? ": " : ":", o->f);
	o->after_key = true;
}

void out_string(struct out *o, const char *s)
{
	if (!structured(o))
		return;
	before_item(o);
	if (s)
		quoted(o->f, s);
	else
		fputs("null", o->f);
}

void out_int(struct out *o, long long v)
{
	if (!structured(o))
		return;
	before_item(o);
	fprintf(o->f, "%lld", v);
}

void out_int_or_null(struct out *o, long long v, bool present)
{
	if (present)
		out_int(o, v);
	else
		out_null(o);
}

void out_double(struct out *o, double v)
{
	if (!structured(o))
		return;
	before_item(o);
	if (isfinite(v))
		fprintf(o->f, "%.6g", v);
	else
		fputs("null", o->f);
}

void out_bool(struct out *o, bool v)
{
	if (!structured(o))
		return;
	before_item(o);
	fputs(v ? "true" : "false", o->f);
}

void out_null(struct out *o)
{
	if (!structured(o))
		return;
	before_item(o);
	fputs("null", o->f);
}

void out_strings(struct out *o, const char *key, char *const *v, size_t n)
{
	out_key(o, key);
	out_begin_list(o);
	for (size_t i = 0; i < n; i++)
		out_string(o, v[i]);
	out_end_list(o);
}

/* ---- the document ---------------------------------------------------------- */

void out_begin(struct out *o)
{
	out_begin_map(o);
	out_key(o, "format_version");
	out_int(o, OUT_FORMAT_VERSION);
}

void out_end(struct out *o)
{
	out_end_map(o);
	if (structured(o))
		fputc('\n', o->f);
}

void out_list(struct out *o, const char *key, const char *sep)
{
	o->sep = sep;
	o->list_first = true;
	out_key(o, key);
	out_begin_list(o);
}

void out_list_end(struct out *o)
{
	out_end_list(o);
}

/* One object a line in NDJSON. */
static void ndjson_line(struct out *o, const struct out_type *t,
                        const void *item)
{
	o->record++;
	o->depth = 0;
	o->after_key = false;
	out_begin_map(o);
	t->data(o, item);
	out_end_map(o);
	if (structured(o))
		fputc('\n', o->f);
	o->record--;
}

void out_record(struct out *o, const struct out_type *t, const void *item)
{
	if (o->status)
		return;
	switch (o->fmt) {
	case OUT_TEXT:
		if (!o->list_first && o->sep)
			fputs(o->sep, o->f);
		o->list_first = false;
		t->text(o, item);
		break;
	case OUT_JSON:
		o->record++;
		out_begin_map(o);
		t->data(o, item);
		out_end_map(o);
		o->record--;
		break;
	case OUT_NDJSON:
		ndjson_line(o, t, item);
		break;
	}
}

void out_fields(struct out *o, const struct out_type *t, const void *item)
{
	if (o->status)
		return;
	switch (o->fmt) {
	case OUT_TEXT: t->text(o, item); break;
	case OUT_JSON: t->data(o, item); break;
	case OUT_NDJSON: ndjson_line(o, t, item); break;
	}
}

void out_document(struct out *o, const struct out_type *t, const void *item)
{
	out_begin(o);
	out_fields(o, t, item);
	out_end(o);
}

/* ---- text ---------------------------------------------------------------- */

static bool text(const struct out *o)
{
	return !o->status && o->fmt == OUT_TEXT;
}

void out_putn(struct out *o, const char *s, size_t n)
{
	if (text(o))
		out_escape(o->f, s, n);
}

void out_puts(struct out *o, const char *s)
{
	if (text(o))
		out_escape(o->f, s, strlen(s));
}

void out_printf(struct out *o, const char *fmt, ...)
{
	if (!text(o))
		return;
	char buf[512], *p = buf;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0) {
		out_fail(o, RL_EINTERNAL, "cannot format output");
		return;
	}
	if ((size_t)n >= sizeof buf) {
		if (!(p = malloc((size_t)n + 1))) {
			out_fail(o, RL_ENOMEM, "out of memory");
			return;
		}
		va_start(ap, fmt);
		vsnprintf(p, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	out_escape(o->f, p, (size_t)n);
	if (p != buf)
		free(p);
}

void out_style(struct out *o, enum out_style style)
{
	if (text(o) && o->color)
		fputs(style_codes[style], o->f);
}

void out_style_end(struct out *o)
{
	if (text(o) && o->color)
		fputs(RESET, o->f);
}

void out_styled(struct out *o, enum out_style style, const char *s)
{
	out_style(o, style);
	out_puts(o, s);
	out_style_end(o);
}

/* ---- errors ---------------------------------------------------------------- */

void out_fail(struct out *o, int rl_status, const char *fmt, ...)
{
	if (o->status)
		return;
	o->status = rl_status ? rl_status : RL_EINTERNAL;
	if (fmt) {
		va_list ap;
		va_start(ap, fmt);
		verror(fmt, ap);
		va_end(ap);
	}
}

bool out_ok(const struct out *o)
{
	return !o->status;
}

int out_finish(struct out *o, int status)
{
	status = finish_stream(o->f, o->stream, status);
	return o->status && status != EXIT_IO ? exit_status(o->status) : status;
}
