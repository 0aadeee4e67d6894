/* cmd_stats.c — rulings stats: what the database holds. */
#include "cli.h"

/* The numbers, in the order both formats give them. */
static const struct {
	const char *name;
	size_t offset;
} numbers[] = {
	{ "rulings", offsetof(struct rl_stats, rulings) },
	{ "withdrawn", offsetof(struct rl_stats, withdrawn) },
	{ "tags", offsetof(struct rl_stats, tags) },
	{ "sources", offsetof(struct rl_stats, sources) },
	{ "imports", offsetof(struct rl_stats, imports) },
};

static long long number(const struct rl_stats *s, size_t i)
{
	return *(const long long *)((const char *)s + numbers[i].offset);
}

static void counts_text(struct out *o, const char *label,
                        const struct rl_count *v, size_t n)
{
	out_printf(o, "%-10s", label);
	for (size_t i = 0; i < n; i++)
		out_printf(o, "%s%s %lld", i ? ", " : "",
		           v[i].key ? v[i].key : "(no game)", v[i].count);
	out_puts(o, n ? "\n" : "-\n");
}

static void counts_data(struct out *o, const char *key,
                        const struct rl_count *v, size_t n)
{
	out_key(o, key);
	out_begin_map(o);
	for (size_t i = 0; i < n; i++) {
		out_key(o, v[i].key);
		out_int(o, v[i].count);
	}
	out_end_map(o);
}

static void stats_text(struct out *o, const void *item)
{
	const struct rl_stats *s = item;
	for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++)
		out_printf(o, "%-10s%lld\n", numbers[i].name, number(s, i));
	counts_text(o, "games", s->by_game, s->nby_game);
	counts_text(o, "languages", s->languages, s->nlanguages);
	counts_text(o, "kinds", s->kinds, s->nkinds);
}

static void stats_data(struct out *o, const void *item)
{
	const struct rl_stats *s = item;
	for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++) {
		out_key(o, numbers[i].name);
		out_int(o, number(s, i));
	}
	/* "games": [{"name", "rulings"}], name null for rulings of no game */
	out_key(o, "games");
	out_begin_list(o);
	for (size_t i = 0; i < s->nby_game; i++) {
		out_begin_map(o);
		out_key(o, "name"); out_string(o, s->by_game[i].key);
		out_key(o, "rulings"); out_int(o, s->by_game[i].count);
		out_end_map(o);
	}
	out_end_list(o);
	counts_data(o, "languages", s->languages, s->nlanguages);
	counts_data(o, "kinds", s->kinds, s->nkinds);
}

static const struct out_type stats_type = { stats_text, stats_data };

int cmd_stats(struct ctx *c, int argc, char **argv)
{
	int fmt = OUT_TEXT;
	const struct opt opts[] = {
		OPT_FORMAT(&fmt, out_formats_text_json),
		{ 0 }
	};
	const struct opt_spec spec = {
		.opts = opts, .no_operands = true, .then = open_db,
	};
	int n, status = opt_parse(c, &spec, argc, argv, &n);
	if (status >= 0)
		return status;
	struct rl_stats s;
	int rc = rl_stats(c->db, &s);
	if (rc)
		return library_error(c, rc);
	struct out o;
	out_init(&o, stdout, "standard output", fmt, c->color);
	out_document(&o, &stats_type, &s);
	rl_stats_clear(&s);
	return out_finish(&o, 0);
}
