/* json.c — a small streaming JSON writer. */
#include "json.h"

#include <math.h>
#include <string.h>

void json_init(struct json *j, FILE *f, bool pretty)
{
	memset(j, 0, sizeof *j);
	j->f = f;
	j->pretty = pretty;
}

static void newline(struct json *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Separator before a value or key at the current depth. */
static void before_item(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth > 0) {
		if (!j->first[j->depth])
			fputc(',', j->f);
		j->first[j->depth] = false;
		newline(j);
	}
}

static void push(struct json *j, char c)
{
	before_item(j);
	fputc(c, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void pop(struct json *j, char c)
{
	bool empty = j->first[j->depth];
	if (j->depth > 0)
		j->depth--;
	if (!empty)
		newline(j);
	fputc(c, j->f);
}

void json_begin_map(struct json *j) { push(j, '{'); }
void json_end_map(struct json *j) { pop(j, '}'); }
void json_begin_list(struct json *j) { push(j, '['); }
void json_end_list(struct json *j) { pop(j, ']'); }

static void quoted(struct json *j, const char *s)
{
	fputc('"', j->f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", j->f); break;
		case '\\': fputs("\\\\", j->f); break;
		case '\n': fputs("\\n", j->f); break;
		case '\t': fputs("\\t", j->f); break;
		case '\r': fputs("\\r", j->f); break;
		default:
			if (*p < 0x20 || *p == 0x7F)
				fprintf(j->f, "\\u%04x", *p);
			else
				fputc(*p, j->f);
		}
	}
	fputc('"', j->f);
}

void json_key(struct json *j, const char *key)
{
	before_item(j);
	quoted(j, key);
	fputs(j->pretty ? ": " : ":", j->f);
	j->after_key = true;
}

void json_string(struct json *j, const char *s)
{
	if (!s) {
		json_null(j);
		return;
	}
	before_item(j);
	quoted(j, s);
}

void json_int(struct json *j, long long v)
{
	before_item(j);
	fprintf(j->f, "%lld", v);
}

void json_double(struct json *j, double v)
{
	before_item(j);
	if (isfinite(v))
		fprintf(j->f, "%.6g", v);
	else
		fputs("null", j->f);
}

void json_bool(struct json *j, bool v)
{
	before_item(j);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j)
{
	before_item(j);
	fputs("null", j->f);
}

void json_end(struct json *j)
{
	fputc('\n', j->f);
}
