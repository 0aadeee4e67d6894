/* fuzz_args.c — the libFuzzer target for the command line's handling of
 * arguments (src/cli: check_arguments, opt_parse, the output layer). The
 * input is split at NUL bytes into an argument vector after "rulings".
 *
 * - check_arguments() accepts the vector exactly when every argument is
 *   valid UTF-8 (rl_utf8_valid decides independently);
 * - a valid vector is parsed against a table like search's (operands may
 *   begin with '-') and one like tags' (grouped short options,
 *   abbreviations): the operands it returns are arguments of the vector,
 *   in their order;
 * - every argument written as text by the output layer is valid UTF-8 with
 *   no control character but line feed and tab, no C1 control and no bidi
 *   override or isolate; written as a JSON string, valid UTF-8 with no raw
 *   control character.
 * A broken property is a bug (abort). */
#include "cli.h"
#include "utf8.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_ARGS = 64 };

static FILE *devnull;

/* Whether s[0..n) holds a character a terminal acts on (escaped text
 * must not). */
static bool has_controls(const unsigned char *s, size_t n, bool json)
{
	for (size_t i = 0; i < n; i++) {
		if ((s[i] < 0x20 && (json || (s[i] != '\n' && s[i] != '\t'))) ||
		    s[i] == 0x7F)
			return true;
		if (s[i] == 0xC2 && i + 1 < n && s[i + 1] >= 0x80 && s[i + 1] <= 0x9F)
			return true;
		if (s[i] == 0xE2 && i + 2 < n &&
		    ((s[i + 1] == 0x80 && s[i + 2] >= 0xAA && s[i + 2] <= 0xAE) ||
		     (s[i + 1] == 0x81 && s[i + 2] >= 0xA6 && s[i + 2] <= 0xA9)))
			return true;
	}
	return false;
}

/* arg through the output layer, as text and as JSON. */
static void check_output(const char *arg)
{
	for (int json = 0; json <= 1; json++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		if (!f)
			return;
		struct out o;
		out_init(&o, f, "memory", json ? OUT_NDJSON : OUT_TEXT, false);
		o.record = json;            /* a value inside a record */
		if (json)
			out_string(&o, arg);
		else
			out_puts(&o, arg);
		fclose(f);
		if (rl_utf8_valid(buf, len) != len ||
		    has_controls((const unsigned char *)buf, len, json)) {
			fprintf(stderr, "fuzz_args: unsafe %s output: %s\n",
			        json ? "JSON" : "text", buf);
			abort();
		}
		free(buf);
	}
}

static const struct command search_like = {
	"search", NULL, DB_READ, "", ""
};

/* The operands opt_parse left in argv[1..n] are arguments of orig, in
 * order. */
static void check_operands(char **orig, int argc, char **argv, int n)
{
	int j = 1;
	for (int i = 1; i <= n; i++) {
		while (j < argc && orig[j] != argv[i])
			j++;
		if (j == argc) {
			fprintf(stderr, "fuzz_args: operand %d is not an argument "
			        "in order\n", i);
			abort();
		}
		j++;
	}
}

static void parse(char **orig, int argc, bool dash_operands)
{
	char *argv[MAX_ARGS + 2];
	memcpy(argv, orig, (size_t)argc * sizeof *argv);
	argv[argc] = NULL;
	struct ctx c = { .cmd = &search_like };
	struct rl_query q = { .limit = 20 };
	struct filter_options filters;
	struct opt_when when = { "", NULL };
	bool flag = false;
	int fmt = OUT_TEXT;
	filter_options_init(&filters, &q);
	const struct opt opts[] = {
		{ .type = OPT_INHERIT, .out = filters.opts },
		{ .name = "limit", .letter = 'n', .type = OPT_LONG, .out = &q.limit,
		  .arg = "N", .min = 0, .max = 1000 },
		{ .name = "raw", .letter = 'r', .type = OPT_FLAG, .out = &flag },
		{ .name = "as-of", .type = OPT_WHEN, .out = &when, .arg = "WHEN" },
		OPT_FORMAT(&fmt, out_formats_all),
		{ 0 }
	};
	const struct opt_spec spec = {
		.opts = opts, .operands = "[WORDS...]",
		.dash_operands = dash_operands,
	};
	/* messages and help are not what is tested here */
	FILE *so = stdout, *se = stderr;
	stdout = stderr = devnull;
	int n = 0, status = opt_parse(&c, &spec, argc, argv, &n);
	stdout = so;
	stderr = se;
	if (status < 0) {
		check_operands(orig, argc, argv, n);
		filter_options_apply(&filters);
	}
	opt_free(opts);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	char *copy = malloc(size + 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	char *argv[MAX_ARGS + 2] = { (char *)"rulings" };
	int argc = 1;
	bool valid = true;
	for (size_t at = 0; at <= size && argc <= MAX_ARGS; argc++) {
		argv[argc] = copy + at;
		size_t n = strlen(copy + at);
		valid = valid && rl_utf8_valid(copy + at, n) == n;
		check_output(copy + at);
		at += n + 1;
	}
	argv[argc] = NULL;
	FILE *se = stderr;
	stderr = devnull;
	int st = check_arguments(argc, argv);
	stderr = se;
	if ((st == 0) != valid) {
		fprintf(stderr, "fuzz_args: check_arguments says %d, the "
		        "arguments are %svalid\n", st, valid ? "" : "not ");
		abort();
	}
	if (valid) {
		parse(argv, argc, true);
		parse(argv, argc, false);
	}
	free(copy);
	return 0;
}
