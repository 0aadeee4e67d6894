/* test_json.c — src/jsonread.c: the JSON reader that keeps each value's line.
 *
 * Valid documents (every type, escapes, surrogate pairs, numbers as text,
 * the line of every value), then errors: each is refused with RL_EDATA,
 * no tree, and exactly one error diagnostic "invalid JSON: …" at a line
 * and column (columns count characters, not bytes).
 *
 * Where the column of an error falls: on the text at fault. A character
 * that cannot continue the document (an unknown escape's letter, a ']'
 * after a comma, a ':' that is missing, a control character, text after
 * the end) is the column; the end of the input when the input ends too
 * early; an escape that is refused whole (an unpaired surrogate, \u0000)
 * is pointed at by its backslash, never by the character after it; the
 * bracket that opens the 257th level is the column of the depth error. */
#include "helpers.h"
#include "jsonread.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEN(lit) (sizeof lit - 1)

/* ---- helpers ----------------------------------------------------------- */

/* Parses a string literal (which may hold NUL bytes: its size is used). */
#define PARSE(lit, out, d) rl_json_parse(lit, LEN(lit), out, d)

/* Parses text that must be valid; the test fails otherwise. */
static struct rl_json *parse_ok(const char *text, size_t len)
{
	struct rl_json *v = NULL;
	struct rl_diags d = {0};
	int rc = rl_json_parse(text, len, &v, &d);
	if (rc != RL_OK) {
		print_error("rl_json_parse(\"%.*s\") = %d (%u:%u %s), want ok\n",
		            (int)(len < 80 ? len : 80), text, rc,
		            d.n ? d.v[0].line : 0, d.n ? d.v[0].col : 0,
		            d.n ? d.v[0].message : "no diagnostic");
		rl_diags_clear(&d);
		fail();
	}
	assert_non_null(v);
	assert_int_equal(d.n, 0);
	rl_diags_clear(&d);
	return v;
}

#define PARSE_OK(lit) parse_ok(lit, LEN(lit))

/* Whether text (len bytes) is refused as the test expects: RL_EDATA, no
 * tree, one error at line:col with exactly the message msg (NULL: any
 * "invalid JSON: " message). Prints what differs; never stops the test,
 * so that one test function reports every case that is wrong. */
static bool refused_at(const char *what, const char *text, size_t len,
                       unsigned line, unsigned col, const char *msg)
{
	struct rl_json *v = NULL;
	struct rl_diags d = {0};
	int rc = rl_json_parse(text, len, &v, &d);
	bool ok = true;
	if (rc != RL_EDATA) {
		print_error("%s: status %d, want RL_EDATA (%d)\n", what, rc, RL_EDATA);
		ok = false;
	}
	if (rc == RL_OK)
		rl_json_free(v);
	if (d.n != 1 || d.errors != 1) {
		print_error("%s: %zu diagnostics (%zu errors), want one error\n",
		            what, d.n, d.errors);
		ok = false;
	}
	if (d.n >= 1) {
		const struct rl_diag *g = &d.v[0];
		if (g->severity != RL_ERROR || g->line != line || g->col != col) {
			print_error("%s: reported at %u:%u (%s), want %u:%u\n", what,
			            g->line, g->col,
			            g->severity == RL_ERROR ? "error" : "warning",
			            line, col);
			ok = false;
		}
		if (msg ? strcmp(g->message, msg) != 0
		        : strncmp(g->message, "invalid JSON: ", 14) != 0) {
			print_error("%s: message \"%s\", want \"%s\"\n", what,
			            g->message, msg ? msg : "invalid JSON: …");
			ok = false;
		}
	}
	rl_diags_clear(&d);
	return ok;
}

#define REFUSED(lit, line, col, msg) \
	refused_at(#lit, lit, LEN(lit), line, col, msg)

/* ok &= cond, without short-circuiting (every case is run and reported) */
#define ALSO(ok, cond) do { bool c_ = (cond); ok = ok && c_; } while (0)

static void assert_str(const struct rl_json *v, const char *want, size_t len)
{
	assert_non_null(v);
	assert_int_equal(v->type, RL_JSON_STRING);
	assert_non_null(v->str);
	assert_int_equal(v->len, len);
	assert_memory_equal(v->str, want, len);
	assert_int_equal(v->str[len], '\0');
}

#define ASSERT_STR(v, lit) assert_str(v, lit, LEN(lit))

/* The only member of a one-member object document {"s": "…"}. */
static const struct rl_json *only_member(const struct rl_json *root)
{
	assert_non_null(root);
	assert_int_equal(root->type, RL_JSON_OBJECT);
	assert_int_equal(root->n, 1);
	return root->items[0];
}

/* depth brackets '[' then depth brackets ']'; free the result. */
static char *nested_arrays(size_t depth, size_t *len)
{
	char *s = malloc(2 * depth + 1);
	assert_non_null(s);
	memset(s, '[', depth);
	memset(s + depth, ']', depth);
	s[2 * depth] = '\0';
	*len = 2 * depth;
	return s;
}

/* ---- valid documents ---------------------------------------------------- */

static void test_every_type(void **state)
{
	struct rl_json *v = PARSE_OK(
		"{\"s\": \"text\", \"i\": 42, \"t\": true, \"f\": false, \"z\": null,"
		" \"a\": [1, \"two\", [], {}], \"o\": {\"k\": \"v\"}, \"e\": \"\"}");
	assert_int_equal(v->type, RL_JSON_OBJECT);
	assert_int_equal(v->n, 8);
	const char *keys[] = { "s", "i", "t", "f", "z", "a", "o", "e" };
	for (size_t i = 0; i < 8; i++)
		assert_string_equal(v->keys[i], keys[i]);   /* in document order */

	ASSERT_STR(rl_json_get(v, "s"), "text");
	const struct rl_json *i = rl_json_get(v, "i");
	assert_int_equal(i->type, RL_JSON_NUMBER);
	assert_string_equal(i->str, "42");
	assert_int_equal(rl_json_get(v, "t")->type, RL_JSON_BOOL);
	assert_true(rl_json_get(v, "t")->boolean);
	assert_int_equal(rl_json_get(v, "f")->type, RL_JSON_BOOL);
	assert_false(rl_json_get(v, "f")->boolean);
	assert_int_equal(rl_json_get(v, "z")->type, RL_JSON_NULL);
	ASSERT_STR(rl_json_get(v, "e"), "");

	const struct rl_json *a = rl_json_get(v, "a");
	assert_int_equal(a->type, RL_JSON_ARRAY);
	assert_int_equal(a->n, 4);
	assert_null(a->keys);
	assert_int_equal(a->items[0]->type, RL_JSON_NUMBER);
	ASSERT_STR(a->items[1], "two");
	assert_int_equal(a->items[2]->type, RL_JSON_ARRAY);
	assert_int_equal(a->items[2]->n, 0);
	assert_int_equal(a->items[3]->type, RL_JSON_OBJECT);
	assert_int_equal(a->items[3]->n, 0);

	const struct rl_json *o = rl_json_get(v, "o");
	assert_int_equal(o->type, RL_JSON_OBJECT);
	assert_string_equal(rl_json_str(o, "k"), "v");

	/* rl_json_get and rl_json_str */
	assert_null(rl_json_get(v, "missing"));
	assert_null(rl_json_get(v, "S"));                /* names are exact */
	assert_null(rl_json_get(a, "s"));                /* not an object */
	assert_null(rl_json_get(NULL, "s"));
	assert_string_equal(rl_json_str(v, "s"), "text");
	assert_null(rl_json_str(v, "i"));                /* not a string */
	assert_null(rl_json_str(v, "z"));
	assert_null(rl_json_str(v, "a"));
	assert_null(rl_json_str(v, "missing"));
	rl_json_free(v);
	rl_json_free(NULL);
}

static void test_scalars_at_top(void **state)
{
	struct rl_json *v = PARSE_OK("  \"alone\"\n");
	ASSERT_STR(v, "alone");
	rl_json_free(v);
	v = PARSE_OK("\t\r\n-7 \r\n");
	assert_int_equal(v->type, RL_JSON_NUMBER);
	assert_string_equal(v->str, "-7");
	assert_int_equal(v->line, 2);
	rl_json_free(v);
	v = PARSE_OK("true");
	assert_true(v->type == RL_JSON_BOOL && v->boolean);
	rl_json_free(v);
	v = PARSE_OK("false");
	assert_true(v->type == RL_JSON_BOOL && !v->boolean);
	rl_json_free(v);
	v = PARSE_OK("null");
	assert_int_equal(v->type, RL_JSON_NULL);
	rl_json_free(v);
	v = PARSE_OK("[]");
	assert_int_equal(v->type, RL_JSON_ARRAY);
	assert_int_equal(v->n, 0);
	rl_json_free(v);
	v = PARSE_OK("{ }");
	assert_int_equal(v->type, RL_JSON_OBJECT);
	assert_int_equal(v->n, 0);
	rl_json_free(v);
}

static void test_nested(void **state)
{
	struct rl_json *v = PARSE_OK(
		"{\"General\": [{\"card\": \"Anti-air\", \"tags\": [[\"a\"], [\"b\", [\"c\"]]]},"
		" {\"card\": \"Haste\", \"more\": {\"deeper\": {\"deepest\": [null]}}}]}");
	const struct rl_json *g = rl_json_get(v, "General");
	assert_int_equal(g->type, RL_JSON_ARRAY);
	assert_int_equal(g->n, 2);
	assert_string_equal(rl_json_str(g->items[0], "card"), "Anti-air");
	const struct rl_json *t = rl_json_get(g->items[0], "tags");
	assert_int_equal(t->n, 2);
	ASSERT_STR(t->items[0]->items[0], "a");
	ASSERT_STR(t->items[1]->items[1]->items[0], "c");
	const struct rl_json *d = rl_json_get(rl_json_get(rl_json_get(g->items[1],
		"more"), "deeper"), "deepest");
	assert_non_null(d);
	assert_int_equal(d->type, RL_JSON_ARRAY);
	assert_int_equal(d->items[0]->type, RL_JSON_NULL);
	rl_json_free(v);

	/* many members: the arrays grow */
	char buf[8192];
	size_t n = 0;
	n += (size_t)snprintf(buf + n, sizeof buf - n, "{");
	for (int i = 0; i < 300; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s\"k%d\": [%d]",
		                      i ? ", " : "", i, i);
	n += (size_t)snprintf(buf + n, sizeof buf - n, "}");
	assert_true(n < sizeof buf);
	v = parse_ok(buf, n);
	assert_int_equal(v->n, 300);
	assert_string_equal(v->keys[299], "k299");
	assert_string_equal(rl_json_get(v, "k150")->items[0]->str, "150");
	rl_json_free(v);
}

static void test_escapes(void **state)
{
	struct rl_json *v = PARSE_OK(
		"{\"s\": \"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t end\"}");
	ASSERT_STR(only_member(v), "q\" b\\ s/ \b\f\n\r\t end");
	rl_json_free(v);

	/* \u escapes of one, two and three UTF-8 bytes, hex in either case */
	v = PARSE_OK("{\"s\": \"\\u0041\\u00e9\\u00C9\\u20ac\\uFFFD\\u0003x\"}");
	ASSERT_STR(only_member(v), "A\xC3\xA9\xC3\x89\xE2\x82\xAC\xEF\xBF\xBD\x03x");
	rl_json_free(v);

	/* surrogate pairs make one four-byte character */
	v = PARSE_OK("{\"s\": \"\\uD83D\\uDE00 \\ud834\\udd1e \\uDBFF\\uDFFF\"}");
	ASSERT_STR(only_member(v),
	           "\xF0\x9F\x98\x80 \xF0\x9D\x84\x9E \xF4\x8F\xBF\xBF");
	rl_json_free(v);

	/* raw UTF-8 passes through, and the names are unescaped too */
	v = PARSE_OK("{\"caf\\u00e9 \\\"x\\\"\": \"D\xC3\xA9j\xC3\xA0 \xE2\x80\x94 \xF0\x9F\x98\x80\"}");
	assert_string_equal(v->keys[0], "caf\xC3\xA9 \"x\"");
	ASSERT_STR(v->items[0], "D\xC3\xA9j\xC3\xA0 \xE2\x80\x94 \xF0\x9F\x98\x80");
	assert_string_equal(rl_json_str(v, "caf\xC3\xA9 \"x\""),
	                    "D\xC3\xA9j\xC3\xA0 \xE2\x80\x94 \xF0\x9F\x98\x80");
	rl_json_free(v);

	/* an escaped backslash before the closing quote */
	v = PARSE_OK("[\"ends in \\\\\", \"\\\\\\\"\"]");
	ASSERT_STR(v->items[0], "ends in \\");
	ASSERT_STR(v->items[1], "\\\"");
	rl_json_free(v);
}

static void test_numbers_as_text(void **state)
{
	struct rl_json *v = PARSE_OK(
		"[0, -0, 12, -3.25, 1e10, 1E+2, 6.02e-23, 0.5, -0.0e0,"
		" 123456789012345678901234567890, 1.50]");
	const char *want[] = { "0", "-0", "12", "-3.25", "1e10", "1E+2",
	                       "6.02e-23", "0.5", "-0.0e0",
	                       "123456789012345678901234567890", "1.50" };
	assert_int_equal(v->n, 11);
	for (size_t i = 0; i < 11; i++) {
		assert_int_equal(v->items[i]->type, RL_JSON_NUMBER);
		assert_string_equal(v->items[i]->str, want[i]);   /* as written */
		assert_int_equal(v->items[i]->len, strlen(want[i]));
	}
	rl_json_free(v);
}

static void test_lines(void **state)
{
	struct rl_json *v = PARSE_OK(
		"{\n"                                           /* 1 */
		"    \"name\": \"Anti-air\",\n"                 /* 2 */
		"    \"n\": -12.5e+3,\n"                        /* 3 */
		"    \"flags\": [true, false,\n"                /* 4 */
		"              null],\n"                        /* 5 */
		"\n"                                            /* 6 */
		"    \"nested\": {\n"                           /* 7 */
		"        \"list\": [\n"                         /* 8 */
		"            [],\n"                             /* 9 */
		"            {}\n"                              /* 10 */
		"        ]\n"                                   /* 11 */
		"    },\r\n"                                    /* 12 */
		"    \"text\":\n"                               /* 13 */
		"\t\"on the line after its key\"\n"             /* 14 */
		"}\n");
	assert_int_equal(v->line, 1);
	assert_int_equal(rl_json_get(v, "name")->line, 2);
	assert_int_equal(rl_json_get(v, "n")->line, 3);
	assert_string_equal(rl_json_get(v, "n")->str, "-12.5e+3");
	const struct rl_json *f = rl_json_get(v, "flags");
	assert_int_equal(f->line, 4);
	assert_int_equal(f->items[0]->line, 4);
	assert_int_equal(f->items[1]->line, 4);
	assert_int_equal(f->items[2]->line, 5);
	const struct rl_json *n = rl_json_get(v, "nested");
	assert_int_equal(n->line, 7);
	const struct rl_json *l = rl_json_get(n, "list");
	assert_int_equal(l->line, 8);
	assert_int_equal(l->items[0]->line, 9);
	assert_int_equal(l->items[1]->line, 10);
	assert_int_equal(rl_json_get(v, "text")->line, 14);
	rl_json_free(v);

	/* entries of a pretty-printed rulings file: each object's line is its
	 * opening brace's */
	v = PARSE_OK(
		"{\n"
		"    \"Blue\": [\n"
		"        {\n"
		"            \"card\": \"Injunction\",\n"
		"            \"ruling\": \"It disables tech II units.\"\n"
		"        },\n"
		"        {\n"
		"            \"ruling\": \"No card.\"\n"
		"        }\n"
		"    ]\n"
		"}\n");
	const struct rl_json *b = rl_json_get(v, "Blue");
	assert_int_equal(b->line, 2);
	assert_int_equal(b->items[0]->line, 3);
	assert_int_equal(rl_json_get(b->items[0], "card")->line, 4);
	assert_int_equal(rl_json_get(b->items[0], "ruling")->line, 5);
	assert_int_equal(b->items[1]->line, 7);
	assert_int_equal(rl_json_get(b->items[1], "ruling")->line, 8);
	rl_json_free(v);
}

static void test_depth_256_accepted(void **state)
{
	size_t len;
	char *s = nested_arrays(256, &len);
	struct rl_json *v = parse_ok(s, len);
	size_t depth = 1;
	const struct rl_json *p = v;
	while (p->n == 1) {
		assert_int_equal(p->type, RL_JSON_ARRAY);
		p = p->items[0];
		depth++;
	}
	assert_int_equal(depth, 256);
	assert_int_equal(p->n, 0);
	rl_json_free(v);
	free(s);

	/* objects count as levels too: 128 objects and 128 arrays */
	struct rl_buf b = {0};
	for (int i = 0; i < 128; i++)
		rl_buf_adds(&b, "{\"a\":[");
	rl_buf_adds(&b, "1");
	for (int i = 0; i < 128; i++)
		rl_buf_adds(&b, "]}");
	v = parse_ok(b.s, b.len);
	rl_json_free(v);
	rl_buf_free(&b);
}

/* ---- errors ------------------------------------------------------------- */

static void test_error_empty(void **state)
{
	bool ok = true;
	ALSO(ok, refused_at("empty input", "", 0, 1, 1,
	                    "invalid JSON: a value is missing"));
	ALSO(ok, REFUSED("  \n\t ", 2, 3, "invalid JSON: a value is missing"));
	ALSO(ok, REFUSED("[", 1, 2, "invalid JSON: a value is missing"));
	ALSO(ok, REFUSED("{\"a\":\n", 2, 1, "invalid JSON: a value is missing"));
	ALSO(ok, REFUSED("{", 1, 2, "invalid JSON: expected a member name in quotes"));
	if (!ok)
		fail_msg("the cases printed above are not refused as expected");
}

static void test_error_unclosed_string(void **state)
{
	bool ok = true;
	/* the input ends inside the string: the error is at its end */
	ALSO(ok, REFUSED("\"abc", 1, 5, "invalid JSON: a string is not closed"));
	ALSO(ok, REFUSED("{\n    \"card\": \"Anti-air", 2, 22,
	                 "invalid JSON: a string is not closed"));
	ALSO(ok, REFUSED("[\"D\xC3\xA9j\xC3\xA0", 1, 7,
	                 "invalid JSON: a string is not closed"));
	if (!ok)
		fail_msg("the cases printed above are not refused as expected");
}

static void test_error_unclosed_string_backslash(void **state)
{
	/* a backslash that is the input's last byte opens an escape that never
	 * ends: the string is not closed either */
	bool ok = true;
	ALSO(ok, REFUSED("\"abc\\", 1, 6, "invalid JSON: a string is not closed"));
	ALSO(ok, REFUSED("[\n  \"abc\\", 2, 8, "invalid JSON: a string is not closed"));
	if (!ok)
		fail_msg("the cases printed above are not refused as expected");
}

static void test_error_bad_escape(void **state)
{
	bool ok = true;
	/* the column is the unknown escape's letter */
	ALSO(ok, REFUSED("[\"ok\", \"a\\x\"]", 1, 11,
	                 "invalid JSON: an unknown escape '\\x'"));
	ALSO(ok, REFUSED("{\n  \"s\": \"D\xC3\xA9j\xC3\xA0 \xE2\x80\x94 \\q\"\n}", 2, 17,
	                 "invalid JSON: an unknown escape '\\q'"));
	ALSO(ok, REFUSED("\"\\U0041\"", 1, 3, "invalid JSON: an unknown escape '\\U'"));
	ALSO(ok, REFUSED("\"\\'\"", 1, 3, "invalid JSON: an unknown escape '\\''"));
	/* \u with fewer than four hex digits: at the digits */
	ALSO(ok, REFUSED("[\"\\u12G4\"]", 1, 5,
	                 "invalid JSON: a \\u escape needs four hex digits"));
	ALSO(ok, REFUSED("\"\\u12", 1, 4,
	                 "invalid JSON: a \\u escape needs four hex digits"));
	if (!ok)
		fail_msg("the cases printed above are not refused as expected");
}

static void test_error_lone_surrogate(void **state)
{
	bool ok = true;
	const char *m = "invalid JSON: an unpaired surrogate in a \\u escape";
	/* a high surrogate at the end of the string, before other text, before
	 * an escape that is no low surrogate; a low surrogate alone: the
	 * backslash of the unpaired surrogate */
	ALSO(ok, REFUSED("[\"ab\\uD800\"]", 1, 5, m));
	ALSO(ok, REFUSED("{\n  \"s\": \"x\\uD83Dy\"\n}", 2, 10, m));
	ALSO(ok, REFUSED("\"\\uD800\\u0041\"", 1, 2, m));
	ALSO(ok, REFUSED("\"\\uD800\\uD800\"", 1, 2, m));
	ALSO(ok, REFUSED("[\n\"ok\",\n  \"\\uDC00x\"]", 3, 4, m));
	ALSO(ok, REFUSED("\"\\uDFFF\"", 1, 2, m));
	if (!ok)
		fail_msg("the cases printed above are not refused as expected");
}

static void test_error_nul_escape(void **state)
{
	bool ok = true;
	const char *m = "invalid JSON: a NUL character (\\u0000) in a string";
	ALSO(ok, REFUSED("\"\\u0000\"", 1, 2, m));
	ALSO(ok, REFUSED("{\n  \"card\": \"Anti\\u0000air\"\n}", 2, 16, m));
	ALSO(ok, REFUSED("{\"a\\u0000b\": 1}", 1, 4, m));       /* in a name */
	if (!ok)
		fail_msg("the cases printed above are not refused as expected");
}

static void test_error_trailing_comma(void **state)
{
	bool ok = true;
	ALSO(ok, REFUSED("[1, 2,]", 1, 7, "invalid JSON: unexpected ']'"));
	ALSO(ok, REFUSED("{\"a\": 1,}", 1, 9,
	                 "invalid JSON: expected a member name in quotes"));
	ALSO(ok, REFUSED("{\n    \"Red\": [\n        {\"card\": \"Ogre\"},\n    ]\n}",
	                 4, 5, "invalid JSON: unexpected ']'"));
	ALSO(ok, REFUSED("[1,,2]", 1, 4, "invalid JSON: unexpected ','"));
	ALSO(ok, REFUSED("[,]", 1, 2, "invalid JSON: unexpected ','"));
	if (!ok)
		fail_msg("the cases printed above are not refused as expected");
}

static void test_error_missing_colon(void **state)
{
	bool ok = true;
	ALSO(ok, REFUSED("{\"a\" 1}", 1, 6,
	                 "invalid JSON: expected ':' after a member name"));
	ALSO(ok, REFUSED("{\n  \"card\"\n  \"Ogre\"\n}", 3, 3,
	                 "invalid JSON: expected ':' after a member name"));
	ALSO(ok, REFUSED("{\"a\"", 1, 5,
	                 "invalid JSON: expected ':' after a member name"));
	/* and other structural slips */
	ALSO(ok, REFUSED("{1: 2}", 1, 2,
	                 "invalid JSON: expected a member name in quotes"));
	ALSO(ok, REFUSED("{'a': 2}", 1, 2,
	                 "invalid JSON: expected a member name in quotes"));
	ALSO(ok, REFUSED("[1 2]", 1, 4, "invalid JSON: expected ',' or ']'"));
	ALSO(ok, REFUSED("{\"a\": 1 \"b\": 2}", 1, 9,
	                 "invalid JSON: expected ',' or '}'"));
	ALSO(ok, REFUSED("[1}", 1, 3, "invalid JSON: expected ',' or ']'"));
	ALSO(ok, REFUSED("[tru]", 1, 2, "invalid JSON: unexpected 't'"));
	ALSO(ok, REFUSED("[True]", 1, 2, "invalid JSON: unexpected 'T'"));
	if (!ok)
		fail_msg("the cases printed above are not refused as expected");
}

static void test_error_text_after_end(void **state)
{
	bool ok = true;
	const char *m = "invalid JSON: text after the end of the document";
	ALSO(ok, REFUSED("{} x", 1, 4, m));
	ALSO(ok, REFUSED("{\"a\": 1}\n\n  {\"b\": 2}\n", 3, 3, m));
	ALSO(ok, REFUSED("[1],", 1, 4, m));
	ALSO(ok, REFUSED("truex", 1, 5, m));
	ALSO(ok, REFUSED("\"D\xC3\xA9j\xC3\xA0\" \xE2\x80\x94", 1, 8, m));
	if (!ok)
		fail_msg("the cases printed above are not refused as expected");
}

static void test_error_control_character(void **state)
{
	bool ok = true;
	const char *m = "invalid JSON: a control character in a string";
	ALSO(ok, REFUSED("\"a\tb\"", 1, 3, m));
	/* a raw line break inside a string: at the break, on the string's line */
	ALSO(ok, REFUSED("[\"abc\ndef\"]", 1, 6, m));
	ALSO(ok, REFUSED("{\n  \"s\": \"\xC3\xA9\x1F\"\n}", 2, 10, m));
	ALSO(ok, REFUSED("[\"a\0b\"]", 1, 4, m));                /* a NUL byte */
	ALSO(ok, REFUSED("{\"a\rb\": 1}", 1, 4, m));             /* in a name */
	if (!ok)
		fail_msg("the cases printed above are not refused as expected");
}

static void test_error_depth_257(void **state)
{
	size_t len;
	char *s = nested_arrays(257, &len);
	bool ok = refused_at("257 arrays", s, len, 1, 257,
	                     "invalid JSON: nested deeper than 256");
	free(s);

	/* 256 levels, then an object opening the 257th on the next line */
	struct rl_buf b = {0};
	for (int i = 0; i < 256; i++)
		rl_buf_adds(&b, "[");
	rl_buf_adds(&b, "\n  {\"a\": 1}");
	for (int i = 0; i < 256; i++)
		rl_buf_adds(&b, "]");
	ALSO(ok, refused_at("256 arrays and an object", b.s, b.len, 2, 3,
	                    "invalid JSON: nested deeper than 256"));
	rl_buf_free(&b);
	if (!ok)
		fail_msg("the cases printed above are not refused as expected");
}

static void test_error_depth_hostile(void **state)
{
	/* far deeper than the limit: refused, not a stack overflow */
	size_t n = 1000000;
	char *s = malloc(n);
	assert_non_null(s);
	memset(s, '[', n);
	struct rl_json *v = NULL;
	struct rl_diags d = {0};
	assert_int_equal(rl_json_parse(s, n, &v, &d), RL_EDATA);
	assert_null(v);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].message, "invalid JSON: nested deeper than 256");
	rl_diags_clear(&d);
	free(s);
	/* {"a":[{"a":[… objects and arrays, as deep */
	struct rl_buf b = {0};
	for (int i = 0; i < 100000; i++)
		rl_buf_adds(&b, "{\"a\":[");
	assert_false(b.oom);
	assert_int_equal(rl_json_parse(b.s, b.len, &v, &d), RL_EDATA);
	assert_null(v);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].message, "invalid JSON: nested deeper than 256");
	rl_diags_clear(&d);
	rl_buf_free(&b);
}

static void test_error_bad_numbers(void **state)
{
	/* RFC 8259 numbers: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?;
	 * anything else is refused (on the line it is on) */
	bool ok = true;
	ALSO(ok, REFUSED("-", 1, 2, NULL));
	ALSO(ok, REFUSED("[\n  01]", 2, 4, NULL));
	ALSO(ok, REFUSED("[1.]", 1, 4, NULL));
	ALSO(ok, REFUSED("[1e]", 1, 4, NULL));
	ALSO(ok, REFUSED("[1e+]", 1, 5, NULL));
	ALSO(ok, REFUSED("[1.2.3]", 1, 5, NULL));
	ALSO(ok, REFUSED("[--1]", 1, 3, NULL));
	ALSO(ok, REFUSED("[1-2]", 1, 3, NULL));
	ALSO(ok, REFUSED("[-a]", 1, 3, NULL));
	ALSO(ok, REFUSED("[.5]", 1, 2, "invalid JSON: unexpected '.'"));
	ALSO(ok, REFUSED("[+1]", 1, 2, "invalid JSON: unexpected '+'"));
	ALSO(ok, REFUSED("[1x]", 1, 3, "invalid JSON: expected ',' or ']'"));
	if (!ok)
		fail_msg("the cases printed above are not refused as expected");
}

static void test_error_columns_count_characters(void **state)
{
	/* é, €, 😀 are one column each */
	bool ok = true;
	ALSO(ok, REFUSED("[\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\", x]", 1, 9,
	                 "invalid JSON: unexpected 'x'"));
	ALSO(ok, REFUSED("[\"\xF0\x9F\x98\x80\",\n \"\xC3\xA9\" ?]", 2, 6,
	                 "invalid JSON: expected ',' or ']'"));
	if (!ok)
		fail_msg("the cases printed above are not refused as expected");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_type),
		cmocka_unit_test(test_scalars_at_top),
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_numbers_as_text),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_depth_256_accepted),
		cmocka_unit_test(test_error_empty),
		cmocka_unit_test(test_error_unclosed_string),
		cmocka_unit_test(test_error_unclosed_string_backslash),
		cmocka_unit_test(test_error_bad_escape),
		cmocka_unit_test(test_error_lone_surrogate),
		cmocka_unit_test(test_error_nul_escape),
		cmocka_unit_test(test_error_trailing_comma),
		cmocka_unit_test(test_error_missing_colon),
		cmocka_unit_test(test_error_text_after_end),
		cmocka_unit_test(test_error_control_character),
		cmocka_unit_test(test_error_depth_257),
		cmocka_unit_test(test_error_depth_hostile),
		cmocka_unit_test(test_error_bad_numbers),
		cmocka_unit_test(test_error_columns_count_characters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
