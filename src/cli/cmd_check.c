/* cmd_check.c — rulings check: is the database whole and true to itself
 * (rl_check())? Each problem on a line; exit status 65 when there is one. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char notes[] =
	"Checks, reading only: PRAGMA integrity_check and foreign_key_check;\n"
	"that each full-text table indexes exactly its rulings' present text\n"
	"(the whole index is read); that every ruling has a source, no\n"
	"reference points at a missing or withdrawn ruling, and every fold\n"
	"column and key is what this rulings' folding makes. Prints each\n"
	"problem (or \"ok\"); exit status 65 when there is one. 'rulings\n"
	"reindex' repairs the full-text tables, folds and keys, and the rows a\n"
	"DELETE without PRAGMA foreign_keys = ON left pointing at deleted ones.\n";

/* The problems rl_check() reported, in its order. */
struct found {
	char **v;
	size_t n, cap;
	bool oom;
};

static void problem(void *ctx, const char *message)
{
	struct found *f = ctx;
	if (f->oom)
		return;
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 16;
		char **v = realloc(f->v, cap * sizeof *v);
		if (!v) {
			f->oom = true;
			return;
		}
		f->v = v;
		f->cap = cap;
	}
	if (!(f->v[f->n] = strdup(message)))
		f->oom = true;
	else
		f->n++;
}

static void found_text(struct out *o, const void *item)
{
	const struct found *f = item;
	for (size_t i = 0; i < f->n; i++) {
		out_puts(o, f->v[i]);
		out_puts(o, "\n");
	}
	if (!f->n)
		out_puts(o, "ok\n");
}

static void found_data(struct out *o, const void *item)
{
	const struct found *f = item;
	out_strings(o, "problems", f->v, f->n);
	out_key(o, "ok");
	out_bool(o, f->n == 0);
}

static const struct out_type found_type = { found_text, found_data };

int cmd_check(struct ctx *c, int argc, char **argv)
{
	int fmt = OUT_TEXT;
	const struct opt opts[] = {
		OPT_FORMAT(&fmt, out_formats_text_json),
		{ 0 }
	};
	const struct opt_spec spec = {
		.opts = opts, .notes = notes, .no_operands = true,
		.then = open_db,
	};
	int n, status = opt_parse(c, &spec, argc, argv, &n);
	if (status >= 0)
		return status;
	struct found f = { 0 };
	size_t count = 0;
	int rc = rl_check(c->db, problem, &f, &count);
	if (!rc && f.oom)
		rc = RL_ENOMEM;
	if (rc) {
		status = library_error(c, rc);
	} else {
		struct out o;
		out_init(&o, stdout, "standard output", (enum out_format)fmt,
		         c->color);
		out_document(&o, &found_type, &f);
		status = out_finish(&o, 0);
		if (!status && f.n) {
			error("check: %zu problem%s found", f.n, f.n == 1 ? "" : "s");
			status = EXIT_DATA;
		}
	}
	for (size_t i = 0; i < f.n; i++)
		free(f.v[i]);
	free(f.v);
	return status;
}
