/* test_cli.c — the command line's output layer (src/cli/out.c) and option
 * tables (src/cli/opt.c), without a process: what a terminal is shown of
 * hostile text, the JSON and NDJSON documents, errors carried to the exit
 * status, and how arguments become options and operands. */
#include "helpers.h"
#include "cli.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- helpers ----------------------------------------------------------- */

/* An output layer on a memory stream. */
struct buf {
	char *s;
	size_t n;
	FILE *f;
	struct out o;
};

static void buf_open(struct buf *b, enum out_format fmt, bool color)
{
	b->s = NULL;
	b->n = 0;
	b->f = open_memstream(&b->s, &b->n);
	assert_non_null(b->f);
	out_init(&b->o, b->f, "the test stream", fmt, color);
}

/* Closes the stream: what was written (free it). */
static char *buf_take(struct buf *b)
{
	fclose(b->f);
	return b->s;
}

static void assert_escaped(const char *in, const char *want)
{
	struct buf b;
	buf_open(&b, OUT_TEXT, false);
	out_puts(&b.o, in);
	char *got = buf_take(&b);
	bool same = strcmp(got, want) == 0;
	if (!same)
		print_error("escaped \"%s\" as \"%s\", want \"%s\"\n", in, got, want);
	free(got);
	assert_true(same);
}

/* s as the JSON string the output layer writes. */
static char *json_of(const char *s)
{
	struct buf b;
	buf_open(&b, OUT_NDJSON, false);
	b.o.record = 1;                  /* values are written inside a record */
	out_string(&b.o, s);
	return buf_take(&b);
}

static void assert_json(const char *in, const char *want)
{
	char *got = json_of(in);
	bool same = strcmp(got, want) == 0;
	if (!same)
		print_error("JSON of \"%s\" is %s, want %s\n", in, got, want);
	free(got);
	assert_true(same);
}

/* Sends the file descriptor fd (and its stream) to /dev/null until
 * unquiet(): for the messages and help the parser prints. */
static int quiet(FILE *f, int fd)
{
	fflush(f);
	int saved = dup(fd), null = open("/dev/null", O_WRONLY);
	assert_true(saved >= 0 && null >= 0);
	dup2(null, fd);
	close(null);
	return saved;
}

static void unquiet(FILE *f, int fd, int saved)
{
	fflush(f);
	dup2(saved, fd);
	close(saved);
}

/* ---- text: what a terminal is shown ------------------------------------ */

static void test_escape_controls(void **state)
{
	/* the cases: OSC title, clear screen, backspace, C1 CSI,
	 * right-to-left override */
	assert_escaped("a\x1b]0;pwned\x07z", "a^[]0;pwned^Gz");
	assert_escaped("\x1b[2J", "^[[2J");
	assert_escaped("x\by", "x^Hy");
	assert_escaped("\xc2\x9b" "31m", "<U+009B>31m");
	assert_escaped("abc\xe2\x80\xae" "cba", "abc<U+202E>cba");
	assert_escaped("\x7f\r", "^?^M");
	/* every bidi embedding, override and isolate control */
	assert_escaped("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad",
	               "<U+202A><U+202B><U+202C><U+202D>");
	assert_escaped("\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9",
	               "<U+2066><U+2067><U+2068><U+2069>");
}

static void test_escape_keeps_text(void **state)
{
	/* line breaks, tabs and every other character as they are */
	assert_escaped("line\n\tnext", "line\n\tnext");
	assert_escaped("R\xc3\xa9ponse \xd0\x90\xd1\x82\xd0\xb0\xd0\xba\xd0\xb0 "
	               "\xe2\x80\xa2 \xc2\xb7 \xe2\x86\x92 \xf0\x9f\x98\x80",
	               "R\xc3\xa9ponse \xd0\x90\xd1\x82\xd0\xb0\xd0\xba\xd0\xb0 "
	               "\xe2\x80\xa2 \xc2\xb7 \xe2\x86\x92 \xf0\x9f\x98\x80");
	assert_escaped("", "");
}

static void test_escape_invalid_utf8(void **state)
{
	assert_escaped("Bad\xff", "Bad<FF>");
	assert_escaped("\xe2\x82", "<E2><82>");
	assert_escaped("\xc0\xaf", "<C0><AF>");           /* overlong */
	assert_escaped("\xed\xa0\x80", "<ED><A0><80>");   /* a surrogate */
}

static void test_printf_escapes_arguments(void **state)
{
	struct buf b;
	buf_open(&b, OUT_TEXT, false);
	out_printf(&b.o, "%s: %d\n", "\x1b[31mred", 7);
	/* longer than the stack buffer */
	char *big = malloc(5001);
	assert_non_null(big);
	memset(big, 'x', 5000);
	big[4990] = '\x1b';
	big[5000] = '\0';
	out_printf(&b.o, "[%s]", big);
	free(big);
	assert_int_equal(out_finish(&b.o, 0), 0);
	char *got = buf_take(&b);
	assert_true(strncmp(got, "^[[31mred: 7\n[", 14) == 0);
	assert_int_equal(strlen(got), 14 + 5001 + 1);
	assert_non_null(strstr(got, "xx^[xx"));
	free(got);
}

static void test_styles_only_with_colour(void **state)
{
	struct buf b;
	buf_open(&b, OUT_TEXT, false);
	out_styled(&b.o, STYLE_ID, "#1");
	char *plain = buf_take(&b);
	assert_string_equal(plain, "#1");
	free(plain);
	buf_open(&b, OUT_TEXT, true);
	out_styled(&b.o, STYLE_ID, "#1\x1b");
	char *colour = buf_take(&b);
	assert_string_equal(colour, "\033[33m#1^[\033[0m");
	free(colour);
}

/* ---- JSON ---------------------------------------------------------------- */

static void test_json_strings(void **state)
{
	assert_json("plain", "\"plain\"");
	assert_json("q\"b\\n\nt\tr\r", "\"q\\\"b\\\\n\\nt\\tr\\r\"");
	assert_json("\x1b]0;x\x07\x7f", "\"\\u001b]0;x\\u0007\\u007f\"");
	/* C1 and bidi controls escaped too: the same string to a parser */
	assert_json("\xc2\x9b\xe2\x80\xae", "\"\\u009b\\u202e\"");
	/* other characters as they are */
	assert_json("\xc3\xa9\xe2\x80\xa2", "\"\xc3\xa9\xe2\x80\xa2\"");
	/* never invalid UTF-8 in the output */
	assert_json("Bad\xff", "\"Bad\\ufffd\"");
	assert_json("\xe2\x82", "\"\\ufffd\\ufffd\"");
	char *null = json_of(NULL);
	assert_string_equal(null, "null");
	free(null);
}

struct pair {
	const char *name;
	long long n;
};

static void pair_text(struct out *o, const void *item)
{
	const struct pair *p = item;
	out_printf(o, "%s=%lld\n", p->name, p->n);
}

static void pair_data(struct out *o, const void *item)
{
	const struct pair *p = item;
	out_key(o, "name"); out_string(o, p->name);
	out_key(o, "n"); out_int(o, p->n);
	out_key(o, "list");
	out_begin_list(o);
	out_bool(o, true);
	out_null(o);
	out_end_list(o);
}

static const struct out_type pair_type = { pair_text, pair_data };

/* The same document in each format. */
static char *document(enum out_format fmt)
{
	static const struct pair v[] = { { "a", 1 }, { "b\x1b", 2 } };
	struct buf b;
	buf_open(&b, fmt, false);
	out_begin(&b.o);
	out_key(&b.o, "total");
	out_int(&b.o, 2);
	out_list(&b.o, "pairs", "--\n");
	for (size_t i = 0; i < 2; i++)
		out_record(&b.o, &pair_type, &v[i]);
	out_list_end(&b.o);
	out_end(&b.o);
	assert_int_equal(out_finish(&b.o, 0), 0);
	return buf_take(&b);
}

static void test_document_formats(void **state)
{
	char *text = document(OUT_TEXT);
	assert_string_equal(text, "a=1\n--\nb^[=2\n");
	free(text);
	char *json = document(OUT_JSON);
	char want[512];
	snprintf(want, sizeof want,
	         "{\n  \"format_version\": %d,\n  \"total\": 2,\n  \"pairs\": [\n"
	         "    {\n      \"name\": \"a\",\n      \"n\": 1,\n"
	         "      \"list\": [\n        true,\n        null\n      ]\n    },\n"
	         "    {\n      \"name\": \"b\\u001b\",\n      \"n\": 2,\n"
	         "      \"list\": [\n        true,\n        null\n      ]\n    }\n"
	         "  ]\n}\n", OUT_FORMAT_VERSION);
	assert_string_equal(json, want);
	free(json);
	char *nd = document(OUT_NDJSON);
	assert_string_equal(nd,
	    "{\"name\":\"a\",\"n\":1,\"list\":[true,null]}\n"
	    "{\"name\":\"b\\u001b\",\"n\":2,\"list\":[true,null]}\n");
	free(nd);
}

/* A record whose data cannot be had: the output layer carries the error. */
static void failing_data(struct out *o, const void *item)
{
	out_key(o, "id");
	out_int(o, 1);
	out_fail(o, RL_ENOMEM, NULL);
	out_key(o, "after");
	out_int(o, 2);
}

static const struct out_type failing_type = { pair_text, failing_data };

static void test_failure_is_carried(void **state)
{
	struct buf b;
	buf_open(&b, OUT_JSON, false);
	out_begin(&b.o);
	out_list(&b.o, "v", NULL);
	out_record(&b.o, &failing_type, NULL);
	assert_false(out_ok(&b.o));
	out_record(&b.o, &pair_type, &(struct pair){ "x", 3 });
	out_list_end(&b.o);
	out_end(&b.o);
	/* the status is the failure's, whatever the command meant to return */
	assert_int_equal(out_finish(&b.o, 0), EXIT_SOFTWARE);
	char *got = buf_take(&b);
	/* nothing after the failure */
	assert_null(strstr(got, "after"));
	assert_null(strstr(got, "\"x\""));
	free(got);
}

static void test_write_failure(void **state)
{
	FILE *f = fopen("/dev/full", "w");
	if (!f)
		skip();
	struct out o;
	out_init(&o, f, "/dev/full", OUT_JSON, false);
	out_begin(&o);
	out_end(&o);
	assert_int_equal(out_finish(&o, 0), EXIT_IO);
	fclose(f);
}

/* ---- option tables --------------------------------------------------------- */

static const struct command test_cmd = {
	"test", NULL, DB_READ, "a test", "A test."
};

/* The arguments of one parse. */
struct parse {
	char *argv[16];
	int argc;
	int status, n;
	/* what the table fills */
	bool flag;
	const char *game;
	struct opt_strings tags;
	long limit;
	int fmt;
	struct opt_when when;
	struct ctx c;
};

static void parse(struct parse *p, bool dash_operands, ...)
{
	va_list ap;
	memset(p, 0, sizeof *p);
	p->argv[p->argc++] = (char *)"test";
	va_start(ap, dash_operands);
	const char *a;
	while ((a = va_arg(ap, const char *)))
		p->argv[p->argc++] = (char *)a;
	va_end(ap);
	p->c.cmd = &test_cmd;
	p->limit = 20;
	const struct opt opts[] = {
		{ .name = "flag", .letter = 'x', .type = OPT_FLAG, .out = &p->flag },
		{ .name = "game", .letter = 'g', .type = OPT_STRING, .out = &p->game,
		  .arg = "G" },
		{ .name = "tag", .letter = 't', .type = OPT_STRINGS, .out = &p->tags,
		  .arg = "T" },
		{ .name = "limit", .letter = 'n', .type = OPT_LONG, .out = &p->limit,
		  .arg = "N", .min = 0, .max = 100 },
		{ .name = "as-of", .type = OPT_WHEN, .out = &p->when, .arg = "WHEN",
		  .flags = OPTF_WHEN_END },
		OPT_FORMAT(&p->fmt, out_formats_all),
		{ 0 }
	};
	const struct opt_spec spec = { .opts = opts, .operands = "[WORDS...]",
	                               .dash_operands = dash_operands };
	/* usage errors go to standard error: not this test's output */
	int saved = quiet(stderr, STDERR_FILENO);
	p->status = opt_parse(&p->c, &spec, p->argc, p->argv, &p->n);
	unquiet(stderr, STDERR_FILENO, saved);
	/* the values stay; opt_free only frees the list of tags */
}

static void parse_free(struct parse *p)
{
	free(p->tags.v);
}

#define PARSE(p, dash, ...) parse(p, dash, __VA_ARGS__, (const char *)NULL)

static void test_options_and_operands_mix(void **state)
{
	struct parse p;
	PARSE(&p, false, "one", "--game", "G1", "two", "-t", "A", "--tag=B",
	      "-tC", "--limit=5", "-x", "--", "--flag", "-g");
	assert_int_equal(p.status, -1);
	assert_string_equal(p.game, "G1");
	assert_int_equal(p.tags.n, 3);
	assert_string_equal(p.tags.v[0], "A");
	assert_string_equal(p.tags.v[1], "B");
	assert_string_equal(p.tags.v[2], "C");
	assert_int_equal(p.limit, 5);
	assert_true(p.flag);
	/* operands in order, after "--" as they are */
	assert_int_equal(p.n, 4);
	assert_string_equal(p.argv[1], "one");
	assert_string_equal(p.argv[2], "two");
	assert_string_equal(p.argv[3], "--flag");
	assert_string_equal(p.argv[4], "-g");
	parse_free(&p);
}

static void test_db_after_the_command(void **state)
{
	struct parse p;
	PARSE(&p, false, "w", "--db", "x.db");
	assert_int_equal(p.status, -1);
	assert_string_equal(p.c.db_opt, "x.db");
	assert_int_equal(p.n, 1);
	PARSE(&p, true, "--db=y.db", "w");
	assert_string_equal(p.c.db_opt, "y.db");
}

static void test_dash_operands(void **state)
{
	/* search repeat -gift: a word, not --game ift */
	struct parse p;
	PARSE(&p, true, "repeat", "-gift", "-x", "-fast", "-t", "Defend", "-",
	      "-n", "3", "-n3");
	assert_int_equal(p.status, -1);
	assert_null(p.game);
	assert_true(p.flag);
	assert_int_equal(p.tags.n, 1);
	assert_int_equal(p.limit, 3);
	assert_int_equal(p.fmt, OUT_TEXT);
	assert_int_equal(p.n, 5);
	assert_string_equal(p.argv[1], "repeat");
	assert_string_equal(p.argv[2], "-gift");
	assert_string_equal(p.argv[3], "-fast");
	assert_string_equal(p.argv[4], "-");
	assert_string_equal(p.argv[5], "-n3");
	parse_free(&p);
	/* without the rule, the same arguments are options */
	PARSE(&p, false, "repeat", "-gift");
	assert_string_equal(p.game, "ift");
	/* an unknown --name is still an error, an abbreviation too */
	PARSE(&p, true, "w", "--bogus");
	assert_int_equal(p.status, EXIT_USAGE);
	PARSE(&p, true, "w", "--gam", "G");
	assert_int_equal(p.status, EXIT_USAGE);
	PARSE(&p, false, "w", "--gam", "G");
	assert_int_equal(p.status, -1);
	assert_string_equal(p.game, "G");
}

static void test_values_are_checked(void **state)
{
	struct parse p;
	PARSE(&p, false, "--limit", "101");
	assert_int_equal(p.status, EXIT_USAGE);
	PARSE(&p, false, "--limit", "-1");
	assert_int_equal(p.status, EXIT_USAGE);
	PARSE(&p, false, "--limit", "");
	assert_int_equal(p.status, EXIT_USAGE);
	PARSE(&p, false, "--limit");
	assert_int_equal(p.status, EXIT_USAGE);
	PARSE(&p, false, "-g");
	assert_int_equal(p.status, EXIT_USAGE);
	PARSE(&p, false, "--flag=yes");
	assert_int_equal(p.status, EXIT_USAGE);
	PARSE(&p, false, "-z");
	assert_int_equal(p.status, EXIT_USAGE);
	PARSE(&p, false, "--format", "xml");
	assert_int_equal(p.status, EXIT_USAGE);
	PARSE(&p, false, "--format", "ndjson");
	assert_int_equal(p.status, -1);
	assert_int_equal(p.fmt, OUT_NDJSON);
	PARSE(&p, false, "--as-of", "2026-01-16");
	assert_int_equal(p.status, -1);
	assert_string_equal(p.when.s, "2026-01-16T23:59:59Z");
	PARSE(&p, false, "--as-of", "2026-01-16T10:00Z");
	assert_string_equal(p.when.s, "2026-01-16T10:00:59Z");
	PARSE(&p, false, "--as-of", "yesterday");
	assert_int_equal(p.status, EXIT_USAGE);
}

static void test_help_wins_in_order(void **state)
{
	struct parse p;
	int saved = quiet(stdout, STDOUT_FILENO);
	PARSE(&p, false, "--tag", "x", "--help", "--bogus");
	int st1 = p.status;
	parse_free(&p);
	PARSE(&p, true, "-h");
	int st2 = p.status;
	unquiet(stdout, STDOUT_FILENO, saved);
	assert_int_equal(st1, 0);
	assert_int_equal(st2, 0);
	PARSE(&p, false, "--bogus", "--help");
	assert_int_equal(p.status, EXIT_USAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_controls),
		cmocka_unit_test(test_escape_keeps_text),
		cmocka_unit_test(test_escape_invalid_utf8),
		cmocka_unit_test(test_printf_escapes_arguments),
		cmocka_unit_test(test_styles_only_with_colour),
		cmocka_unit_test(test_json_strings),
		cmocka_unit_test(test_document_formats),
		cmocka_unit_test(test_failure_is_carried),
		cmocka_unit_test(test_write_failure),
		cmocka_unit_test(test_options_and_operands_mix),
		cmocka_unit_test(test_db_after_the_command),
		cmocka_unit_test(test_dash_operands),
		cmocka_unit_test(test_values_are_checked),
		cmocka_unit_test(test_help_wins_in_order),
	};
	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
