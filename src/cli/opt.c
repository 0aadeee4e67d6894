/* opt.c — option tables (opt.h): parsing, checking, --help and usage
 * errors from one description of a command's options. */
#include "opt.h"

#include "cli.h"
#include "utf8.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const out_formats_text_json[] = { "text", "json", NULL };
const char *const out_formats_all[] = { "text", "json", "ndjson", NULL };

enum { HELP_WIDTH = 78, HELP_COLUMN = 21, SYNOPSIS_INDENT = 15 };

/* ---- walking a table ----------------------------------------------------- */

/* The i-th keyword of o, or NULL past the last. */
static const char *keyword(const struct opt *o, size_t i)
{
	return o->words ? o->words[i] : o->word(i);
}

/* The options of a parse: the command's table (inherited tables inline)
 * and the built-in --help and --db. */
struct table {
	const struct opt *v[64];
	size_t n;
};

static void collect(struct table *t, const struct opt *opts)
{
	for (const struct opt *o = opts; o && o->type != OPT_END; o++) {
		if (o->type == OPT_INHERIT)
			collect(t, o->out);
		else if (t->n < sizeof t->v / sizeof *t->v)
			t->v[t->n++] = o;
	}
}

static const struct opt *by_name(const struct table *t, const char *name,
                                 size_t len)
{
	for (size_t i = 0; i < t->n; i++)
		if (strlen(t->v[i]->name) == len &&
		    strncmp(t->v[i]->name, name, len) == 0)
			return t->v[i];
	return NULL;
}

static const struct opt *by_letter(const struct table *t, char letter)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i]->letter == letter)
			return t->v[i];
	return NULL;
}

static bool takes_value(const struct opt *o)
{
	return o->type != OPT_FLAG && o->type != OPT_HELP;
}

/* ---- messages ------------------------------------------------------------ */

static const char *cmd_name(const struct ctx *c)
{
	return c->cmd ? c->cmd->name : NULL;
}

int opt_unknown(const char *cmd, const char *arg, const char *const *names,
                size_t n)
{
	const char *name = arg + strspn(arg, "-");
	char *word = strndup(name, strcspn(name, "="));
	size_t *idx = malloc((n ? n : 1) * sizeof *idx);
	size_t found = word && idx ? rl_nearest(word, names, n, idx) : 0;
	char hint[512] = "";
	size_t at = 0;
	for (size_t i = 0; i < found && at < sizeof hint; i++)
		at += (size_t)snprintf(hint + at, sizeof hint - at, "%s'--%s'",
		                       i == 0 ? "" : i + 1 == found ? " or " : ", ",
		                       names[idx[i]]);
	free(word);
	free(idx);
	if (found == 0)
		return usage_error(cmd, "unknown option '%s'", arg);
	return usage_error(cmd, "unknown option '%s'; did you mean %s?", arg,
	                   hint);
}

/* "unknown option '--x'", with the nearest long names of the table. */
static int unknown_option(const struct ctx *c, const struct table *t,
                          const char *arg)
{
	const char *names[sizeof t->v / sizeof *t->v];
	for (size_t i = 0; i < t->n; i++)
		names[i] = t->v[i]->name;
	return opt_unknown(cmd_name(c), arg, names, t->n);
}

/* "text, json, ndjson" */
static void list_keywords(const struct opt *o, char *buf, size_t size,
                          const char *sep, const char *last_sep)
{
	size_t at = 0, n = 0;
	while (keyword(o, n))
		n++;
	buf[0] = '\0';
	for (size_t i = 0; i < n && at < size; i++)
		at += (size_t)snprintf(buf + at, size - at, "%s%s",
		                       i == 0 ? "" : i + 1 == n ? last_sep : sep,
		                       keyword(o, i));
}

/* ---- values -------------------------------------------------------------- */

/* Stores value (and value2) as o says: -1, or the exit status after a
 * message. */
static int store(struct ctx *c, const struct opt *o, const char *value,
                 const char *value2, int argc)
{
	const char *expects = NULL;
	if ((o->flags & OPTF_NONEMPTY) && value && !*value)
		return usage_error(cmd_name(c), "--%s needs a value that is not "
		                   "empty", o->name);
	if ((o->flags & OPTF_LOWER) && value)
		/* an argument's string is the program's to change (C17
		 * 5.1.2.2.1); value is one, or the part after '=' of one */
		for (char *p = (char *)value; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p = (char)(*p - 'A' + 'a');
	if (o->check && (expects = o->check(o, value, value2))) {
		if (value2)
			return usage_error(cmd_name(c), "--%s takes %s, not '%s' '%s'",
			                   o->name, expects, value, value2);
		return usage_error(cmd_name(c), "--%s takes %s, not '%s'", o->name,
		                   expects, value);
	}
	switch (o->type) {
	case OPT_FLAG:
		*(bool *)o->out = true;
		break;
	case OPT_STRING:
		*(const char **)o->out = value;
		break;
	case OPT_STRINGS: {
		struct opt_strings *l = o->out;
		if (!l->v && !(l->v = calloc((size_t)argc, sizeof *l->v))) {
			error("out of memory");
			return EXIT_SOFTWARE;
		}
		l->v[l->n++] = value;
		break;
	}
	case OPT_LONG:
		if (!value) {
			*(long *)o->out = o->dflt;
		} else if (!parse_long(value, o->min, o->max, o->out)) {
			if (o->max == LONG_MAX)
				return usage_error(cmd_name(c), "--%s takes a whole number "
				                   "from %ld, not '%s'", o->name, o->min,
				                   value);
			return usage_error(cmd_name(c), "--%s takes a whole number "
			                   "from %ld to %ld, not '%s'", o->name, o->min,
			                   o->max, value);
		}
		break;
	case OPT_KEYWORD:
		for (size_t i = 0; keyword(o, i); i++)
			if (strcasecmp(keyword(o, i), value) == 0) {   /* JSON */
				*(int *)o->out = (int)i;
				return -1;
			}
		char list[512];
		list_keywords(o, list, sizeof list, ", ", ", ");
		return usage_error(cmd_name(c), "unknown %s '%s' (%s)",
		                   o->what ? o->what : o->name, value, list);
	case OPT_WHEN:
		if (!opt_parse_when(value, o->flags & OPTF_WHEN_END, o->out))
			return usage_error(cmd_name(c), "--%s takes %s, not '%s'",
			                   o->name, rl_when_forms, value);
		break;
	case OPT_CUSTOM:
	case OPT_HELP:
	case OPT_END:
	case OPT_INHERIT:
		break;
	}
	return -1;
}

/* ---- parsing ------------------------------------------------------------- */

/* A long option, argv[*i] = "--name[=value]". */
static int long_option(struct ctx *c, const struct opt_spec *spec,
                       const struct table *t, int argc, char **argv, int *i,
                       const struct opt **help)
{
	const char *arg = argv[*i], *name = arg + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct opt *o = by_name(t, name, len);
	if (!o && !spec->dash_operands && len > 0) {
		/* an unambiguous start of a name, as getopt_long takes it */
		for (size_t k = 0; k < t->n; k++)
			if (strncmp(t->v[k]->name, name, len) == 0) {
				if (o)
					return usage_error(cmd_name(c), "option '%.*s' is "
					                   "ambiguous ('--%s', '--%s', ...)",
					                   (int)len + 2, arg, o->name,
					                   t->v[k]->name);
				o = t->v[k];
			}
	}
	if (!o)
		return unknown_option(c, t, arg);
	if (o->type == OPT_HELP) {
		*help = o;
		return -1;
	}
	if (!takes_value(o)) {
		if (eq)
			return usage_error(cmd_name(c), "option '--%s' takes no value",
			                   o->name);
		return store(c, o, NULL, NULL, argc);
	}
	const char *value = eq ? eq + 1 : NULL;
	if (!value && !(o->flags & OPTF_OPTIONAL)) {
		if (*i + 1 >= argc)
			return usage_error(cmd_name(c), "option '--%s' needs a value",
			                   o->name);
		value = argv[++*i];
	}
	const char *value2 = NULL;
	if (o->flags & OPTF_TWO_VALUES) {
		if (*i + 1 >= argc || argv[*i + 1][0] == '-')
			return usage_error(cmd_name(c), "--%s takes two values (%s)",
			                   o->name, o->arg);
		value2 = argv[++*i];
	}
	return store(c, o, value, value2, argc);
}

/* Short options, argv[*i] = "-xyz" or "-xVALUE". */
static int short_options(struct ctx *c, const struct table *t, int argc,
                         char **argv, int *i, const struct opt **help)
{
	const char *arg = argv[*i];
	for (const char *p = arg + 1; *p; p++) {
		const struct opt *o = by_letter(t, *p);
		if (!o) {
			if ((unsigned char)*p >= 0x80 || *p < 0x20)
				return usage_error(cmd_name(c), "unknown option '%s'", arg);
			return usage_error(cmd_name(c), "unknown option '-%c'", *p);
		}
		if (o->type == OPT_HELP) {
			*help = o;
			return -1;
		}
		if (!takes_value(o)) {
			int st = store(c, o, NULL, NULL, argc);
			if (st >= 0)
				return st;
			continue;
		}
		const char *value = p[1] ? p + 1 : NULL;
		if (!value && !(o->flags & OPTF_OPTIONAL)) {
			if (*i + 1 >= argc)
				return usage_error(cmd_name(c), "option '-%c' needs a value",
				                   *p);
			value = argv[++*i];
		}
		const char *value2 = NULL;
		if (o->flags & OPTF_TWO_VALUES) {
			if (*i + 1 >= argc || argv[*i + 1][0] == '-')
				return usage_error(cmd_name(c), "-%c takes two values (%s)",
				                   *p, o->arg);
			value2 = argv[++*i];
		}
		return store(c, o, value, value2, argc);
	}
	return -1;
}

int opt_parse(struct ctx *c, const struct opt_spec *spec, int argc,
              char **argv, int *noperands)
{
	/* built in, unless the table has its own */
	const struct opt builtins[] = {
		{ .name = "db", .type = OPT_STRING, .out = &c->db_opt, .arg = "FILE" },
		{ .name = "help", .letter = 'h', .type = OPT_HELP },
	};
	struct table t = { .n = 0 };
	collect(&t, spec->opts);
	for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
		if (!by_name(&t, builtins[i].name, strlen(builtins[i].name)))
			t.v[t.n++] = &builtins[i];
	int k = 1;                 /* where the next operand goes */
	bool options = true;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct opt *help = NULL;
		int st = -1;
		if (options && strcmp(a, "--") == 0) {
			options = false;
			continue;
		}
		bool operand = !options || a[0] != '-' || a[1] == '\0';
		if (!operand && a[1] != '-' && spec->dash_operands)
			operand = a[2] != '\0' || !by_letter(&t, a[1]);
		if (operand && spec->no_operands)
			return usage_error(cmd_name(c), "unexpected argument '%s'",
			                   argv[i]);
		if (operand) {
			argv[k++] = argv[i];
			if (spec->stop_at_operand) {
				while (++i < argc)
					argv[k++] = argv[i];
			}
			continue;
		}
		if (a[1] == '-')
			st = long_option(c, spec, &t, argc, argv, &i, &help);
		else
			st = short_options(c, &t, argc, argv, &i, &help);
		if (st >= 0)
			return st;
		if (help) {
			opt_help(c, spec);
			return 0;
		}
	}
	*noperands = k - 1;
	int st = spec->then ? spec->then(c) : 0;
	return st ? st : -1;
}

void opt_free(const struct opt *opts)
{
	for (const struct opt *o = opts; o && o->type != OPT_END; o++) {
		if (o->type == OPT_INHERIT) {
			opt_free(o->out);
		} else if (o->type == OPT_STRINGS) {
			struct opt_strings *l = o->out;
			free(l->v);
			l->v = NULL;
			l->n = 0;
		}
	}
}

/* ---- help ---------------------------------------------------------------- */

/* Writes text wrapped at HELP_WIDTH, its first line from column col (the
 * caller is there), the others indented to indent. */
static void wrap(const char *text, size_t col, size_t indent)
{
	const char *p = text;
	bool first = true;
	while (*p) {
		size_t wlen = strcspn(p, " ");
		if (!first && col + 1 + wlen > HELP_WIDTH) {
			printf("\n%*s", (int)indent, "");
			col = indent;
		} else if (!first) {
			putchar(' ');
			col++;
		}
		/* a word's columns, UTF-8 sequences counted once */
		for (size_t i = 0; i < wlen; i++)
			col += ((unsigned char)p[i] & 0xC0) != 0x80;
		fwrite(p, 1, wlen, stdout);
		first = false;
		p += wlen;
		p += strspn(p, " ");
	}
	putchar('\n');
}

/* "[--tag T]..." for the synopsis. */
static void synopsis_item(const struct opt *o, char *buf, size_t size)
{
	char arg[160];
	if (o->type == OPT_KEYWORD && o->words) {
		list_keywords(o, arg, sizeof arg, "|", "|");
	} else {
		snprintf(arg, sizeof arg, "%s", o->arg ? o->arg : "");
	}
	if (!takes_value(o))
		snprintf(buf, size, "[--%s]", o->name);
	else if (o->flags & OPTF_OPTIONAL)
		snprintf(buf, size, "[--%s[=%s]]", o->name, arg);
	else
		snprintf(buf, size, "[--%s %s]%s", o->name, arg,
		         o->type == OPT_STRINGS ? "..." : "");
}

static void synopsis(const struct ctx *c, const struct opt_spec *spec,
                     const struct table *t)
{
	const char *name = cmd_name(c);
	bool db = c->cmd && c->cmd->mode != DB_NONE;
	int col = printf("usage: %s %s%s", progname, db ? "[--db FILE] " : "",
	                 name ? name : "");
	if (spec->synopsis) {
		printf(" %s\n", spec->synopsis);
		return;
	}
	if (spec->operands)
		col += printf(" %s", spec->operands);
	for (size_t i = 0; i < t->n; i++) {
		const struct opt *o = t->v[i];
		if (o->type == OPT_HELP || strcmp(o->name, "db") == 0)
			continue;
		char item[256];
		synopsis_item(o, item, sizeof item);
		int len = (int)strlen(item);
		if (col + 1 + len > HELP_WIDTH) {
			col = printf("\n%*s", SYNOPSIS_INDENT, "") - 1;
			col += printf("%s", item);
		} else {
			col += printf(" %s", item);
		}
	}
	putchar('\n');
}

/* "  -t, --tag T        only rulings ..." */
static void option_line(const struct opt *o)
{
	char left[160];
	int n = snprintf(left, sizeof left, "  %c%c%c --%s%s%s%s%s",
	                 o->letter ? '-' : ' ', o->letter ? o->letter : ' ',
	                 o->letter ? ',' : ' ', o->name,
	                 (o->flags & OPTF_OPTIONAL) ? "[=" : takes_value(o) ? " " : "",
	                 takes_value(o) && o->arg ? o->arg : "",
	                 (o->flags & OPTF_OPTIONAL) ? "]" : "", "");
	char text[1024], list[512];
	const char *help = o->help;
	if (o->type == OPT_KEYWORD)
		list_keywords(o, list, sizeof list, ", ", " or ");
	if (!help && o->type == OPT_KEYWORD) {
		/* "text (default), json or ndjson" */
		snprintf(text, sizeof text, "%s (default)%s", keyword(o, 0),
		         list + strlen(keyword(o, 0)));
		help = text;
	} else if (o->flags & OPTF_LIST) {
		snprintf(text, sizeof text, "%s: %s", help, list);
		help = text;
	}
	fputs(left, stdout);
	if (n >= HELP_COLUMN) {
		printf("\n%*s", HELP_COLUMN, "");
	} else {
		printf("%*s", HELP_COLUMN - n, "");
	}
	wrap(help ? help : "", HELP_COLUMN, HELP_COLUMN);
}

void opt_help(const struct ctx *c, const struct opt_spec *spec)
{
	struct table t = { .n = 0 };
	collect(&t, spec->opts);
	synopsis(c, spec, &t);
	if (c->cmd && c->cmd->summary)
		printf("\n%s\n", c->cmd->summary);
	printf("\noptions:\n");
	for (size_t i = 0; i < t.n; i++)
		option_line(t.v[i]);
	if (c->cmd && c->cmd->mode != DB_NONE)
		option_line(&(struct opt){ .name = "db", .type = OPT_STRING,
		            .arg = "FILE", .help = "the database (see 'rulings "
		            "--help'); before or after the command name" });
	option_line(&(struct opt){ .name = "help", .letter = 'h',
	            .type = OPT_HELP, .help = "show this help" });
	if (spec->notes)
		printf("\n%s", spec->notes);
}

/* ---- dates ----------------------------------------------------------------- */

bool opt_parse_when(const char *s, bool end, struct opt_when *w)
{
	/* the library's parser: calendar-checked, offsets converted to UTC */
	_Static_assert((int)RL_WHEN_SIZE <= (int)OPT_WHEN_SIZE,
	               "an opt_when holds a WHEN");
	if (rl_when_parse(s, end, w->s) != RL_OK)
		return false;
	w->arg = s;
	return true;
}
