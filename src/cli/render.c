/* render.c — how a ruling looks: as text for people, as members of a JSON
 * object for programs (the record types of the output layer). */
#include "cli.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

#define MIDDOT " \xC2\xB7 "

static void put_lines(struct out *o, const char *s, size_t n,
                      const char *indent)
{
	/* every line break but the last of a run of them indents what
	 * follows */
	const char *end = s + n;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl) {
			out_putn(o, s, (size_t)(end - s));
			return;
		}
		out_putn(o, s, (size_t)(nl - s) + 1);
		s = nl + 1;
		if (s < end && *s != '\n')
			out_puts(o, indent);
		else if (s == end && end[0] && end[0] != '\n')
			out_puts(o, indent);
	}
}

void render_indented(struct out *o, const char *text, const char *indent)
{
	out_puts(o, indent);
	put_lines(o, text, strlen(text), indent);
	out_puts(o, "\n");
}

/* A snippet: its markers become the match colour, or nothing. */
static void snippet(struct out *o, const char *s, const char *indent)
{
	out_puts(o, indent);
	while (*s) {
		size_t n = strcspn(s, RL_SNIPPET_OPEN RL_SNIPPET_CLOSE);
		put_lines(o, s, n, indent);
		s += n;
		if (*s == RL_SNIPPET_OPEN[0])
			out_style(o, STYLE_MATCH);
		else if (*s == RL_SNIPPET_CLOSE[0])
			out_style_end(o);
		if (*s)
			s++;
	}
	out_puts(o, "\n");
}

/* The first paragraph of text, at most about max bytes, cut at a space. */
static void first_paragraph(struct out *o, const char *text, size_t max)
{
	const char *end = strstr(text, "\n\n");
	size_t n = end ? (size_t)(end - text) : strlen(text);
	bool cut = end != NULL;
	if (n > max) {
		n = rl_cut_at_word(text, n, max);
		cut = true;
	}
	out_puts(o, "    ");
	for (const char *p = text, *stop = text + n; p < stop; ) {
		const char *nl = memchr(p, '\n', (size_t)(stop - p));
		size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(stop - p);
		out_putn(o, p, len);
		if (nl)
			out_puts(o, "    ");
		p += len;
	}
	out_puts(o, cut ? " \xE2\x80\xA6\n" : "\n");
}

static void meta_line(struct out *o, const struct rl_ruling *r)
{
	out_style(o, STYLE_DIM);
	out_printf(o, "    %s" MIDDOT "%s" MIDDOT "%s", r->kind, r->lang,
	           r->game ? r->game : "(no game)");
	if (r->rule)
		out_printf(o, MIDDOT "rule %s", r->rule);
	if (r->section)
		out_printf(o, MIDDOT "%s", r->section);
	if (r->category)
		out_printf(o, r->section ? " \xE2\x80\xBA %s" : MIDDOT "%s",
		           r->category);
	if (r->date || r->author)
		out_printf(o, MIDDOT "%s%s%.10s", r->author ? r->author : "",
		           r->author && r->date ? ", " : "", r->date ? r->date : "");
	out_style_end(o);
	if (r->changed)
		out_styled(o, STYLE_BOLD, MIDDOT "changed");
	if (r->withdrawn_at)
		out_styled(o, STYLE_BOLD, MIDDOT "withdrawn");
	out_puts(o, "\n");
}

static void tag_line(struct out *o, const struct rl_ruling *r)
{
	out_puts(o, "    tags: ");
	for (size_t i = 0; i < r->ntags; i++)
		out_printf(o, "%s%s", i ? ", " : "", r->tags[i]);
	if (r->hidden_tags > 0)
		out_printf(o, " (the source hides %d more)", r->hidden_tags);
	out_puts(o, "\n");
}

static void heading(struct out *o, const struct rl_ruling *r)
{
	out_style(o, STYLE_ID);
	out_printf(o, "#%lld", r->id);
	out_style_end(o);
	out_puts(o, " ");
	out_styled(o, STYLE_BOLD, r->title);
	out_puts(o, "\n");
	meta_line(o, r);
}

static bool resolves(const char *kind)
{
	enum rl_ref_kind k;
	return rl_ref_kind_parse(kind, &k) == RL_OK && rl_ref_kind_resolves(k);
}

static void brief_text(struct out *o, const void *item)
{
	const struct rl_ruling *r = item;
	heading(o, r);
	if (r->snippet)
		snippet(o, r->snippet, "    ");
	else
		first_paragraph(o, r->text, 300);
	if (r->ntags)
		tag_line(o, r);
}

static void full_text(struct out *o, const void *item)
{
	const struct rl_ruling *r = item;
	heading(o, r);
	out_puts(o, "\n");
	if (*r->text) {
		render_indented(o, r->text, "    ");
		out_puts(o, "\n");
	}
	if (r->ntags)
		tag_line(o, r);
	for (size_t i = 0; i < r->nsources; i++) {
		const struct rl_source_ref *s = &r->sources[i];
		out_printf(o, "    %s %s (%s:%u", i ? "       " : "source:",
		           s->document, s->path, s->line);
		if (s->hidden_tags >= 0)
			out_printf(o, ", %d more tags", s->hidden_tags);
		if (s->date)
			out_printf(o, ", dated %s", s->date);
		out_puts(o, ")\n");
	}
	if (r->errata) {
		const struct rl_errata *x = r->errata;
		out_printf(o, "    errata: %s", x->product ? x->product : "?");
		if (x->printing)
			out_printf(o, ", %s", x->printing);
		if (x->document)
			out_printf(o, "; %s", x->document);
		if (x->page)
			out_printf(o, ", p. %s", x->page);
		out_puts(o, "\n");
	}
	for (size_t i = 0; i < r->nrefs; i++) {
		const struct rl_ref_out *x = &r->refs[i];
		out_printf(o, "    %s %s %s", i ? "     " : "refs:", x->kind,
		           rl_ref_shown(x));
		if (x->target_id)
			out_printf(o, " \xE2\x86\x92 #%lld", x->target_id);
		else if (resolves(x->kind))
			out_puts(o, " (unresolved)");
		out_puts(o, "\n");
	}
	for (size_t i = 0; i < r->nbacklinks; i++) {
		const struct rl_ref_out *x = &r->backlinks[i];
		out_printf(o, "    %s #%lld %s%s%s\n", i ? "         " : "cited by:",
		           x->target_id, x->target_rule ? x->target_rule : "",
		           x->target_rule ? " " : "", x->target_title);
	}
	/* a numbered rule among its neighbours */
	const struct rl_rule_ref *near[3] = { r->parent, r->previous, r->next };
	static const char *const label[3] = { "parent:", "previous:", "next:" };
	for (int k = 0; k < 3; k++)
		if (near[k])
			out_printf(o, "    %-9s #%lld %s %s\n", label[k], near[k]->id,
			           near[k]->rule, near[k]->title);
	for (size_t i = 0; i < r->nsubrules; i++)
		out_printf(o, "    %-9s #%lld %s %s\n", i ? "" : "subrules:",
		           r->subrules[i].id, r->subrules[i].rule,
		           r->subrules[i].title);
}

/* s without snippet markers, as a string. */
static void plain_snippet(struct out *o, const char *s)
{
	if (!s) {
		out_null(o);
		return;
	}
	char *p = strdup(s), *w = p;
	if (!p) {
		out_fail(o, RL_ENOMEM, "out of memory");
		return;
	}
	for (const char *i = s; *i; i++)
		if (*i != RL_SNIPPET_OPEN[0] && *i != RL_SNIPPET_CLOSE[0])
			*w++ = *i;
	*w = '\0';
	out_string(o, p);
	free(p);
}

void render_ruling_fields(struct out *o, const struct rl_ruling *r)
{
	out_key(o, "id"); out_int(o, r->id);
	out_key(o, "kind"); out_string(o, r->kind);
	out_key(o, "game"); out_string(o, r->game);
	out_key(o, "lang"); out_string(o, r->lang);
	out_key(o, "title"); out_string(o, r->title);
	out_key(o, "text"); out_string(o, r->text);
	out_key(o, "rule"); out_string(o, r->rule);
	out_key(o, "category"); out_string(o, r->category);
	out_key(o, "section"); out_string(o, r->section);
	out_key(o, "date"); out_string(o, r->date);
	out_key(o, "author"); out_string(o, r->author);
	out_strings(o, "tags", r->tags, r->ntags);
	out_key(o, "hidden_tags");
	out_int_or_null(o, r->hidden_tags, r->hidden_tags >= 0);
	out_key(o, "changed"); out_bool(o, r->changed);
	out_key(o, "withdrawn"); out_string(o, r->withdrawn_at);
	out_key(o, "sources");
	out_begin_list(o);
	for (size_t i = 0; i < r->nsources; i++) {
		const struct rl_source_ref *s = &r->sources[i];
		out_begin_map(o);
		out_key(o, "document"); out_string(o, s->document);
		out_key(o, "path"); out_string(o, s->path);
		out_key(o, "line"); out_int(o, s->line);
		out_key(o, "date"); out_string(o, s->date);
		out_key(o, "hidden_tags");
		out_int_or_null(o, s->hidden_tags, s->hidden_tags >= 0);
		out_end_map(o);
	}
	out_end_list(o);
	out_key(o, "errata");
	render_errata(o, r->errata);
}

void render_errata(struct out *o, const struct rl_errata *x)
{
	if (!x) {
		out_null(o);
		return;
	}
	out_begin_map(o);
	out_key(o, "product"); out_string(o, x->product);
	out_key(o, "printing"); out_string(o, x->printing);
	out_key(o, "document"); out_string(o, x->document);
	out_key(o, "page"); out_string(o, x->page);
	out_end_map(o);
}

static void links(struct out *o, const char *key, const struct rl_ref_out *v,
                  size_t n, bool back)
{
	out_key(o, key);
	out_begin_list(o);
	for (size_t i = 0; i < n; i++) {
		out_begin_map(o);
		if (back) {
			out_key(o, "id"); out_int(o, v[i].target_id);
			out_key(o, "kind"); out_string(o, v[i].kind);
			out_key(o, "rule"); out_string(o, v[i].target_rule);
			out_key(o, "title"); out_string(o, v[i].target_title);
		} else {
			out_key(o, "kind"); out_string(o, v[i].kind);
			out_key(o, "target"); out_string(o, v[i].target);
			out_key(o, "resolved"); out_bool(o, v[i].target_id != 0);
			out_key(o, "id");
			out_int_or_null(o, v[i].target_id, v[i].target_id != 0);
		}
		out_end_map(o);
	}
	out_end_list(o);
}

static void rule_ref(struct out *o, const struct rl_rule_ref *x)
{
	if (!x) {
		out_null(o);
		return;
	}
	out_begin_map(o);
	out_key(o, "id"); out_int(o, x->id);
	out_key(o, "rule"); out_string(o, x->rule);
	out_key(o, "title"); out_string(o, x->title);
	out_end_map(o);
}

static void brief_data(struct out *o, const void *item)
{
	const struct rl_ruling *r = item;
	render_ruling_fields(o, r);
	out_key(o, "snippet"); plain_snippet(o, r->snippet);
	out_key(o, "score"); out_double(o, r->score);
}

static void full_data(struct out *o, const void *item)
{
	const struct rl_ruling *r = item;
	render_ruling_fields(o, r);
	links(o, "refs", r->refs, r->nrefs, false);
	links(o, "backlinks", r->backlinks, r->nbacklinks, true);
	out_key(o, "parent"); rule_ref(o, r->parent);
	out_key(o, "previous"); rule_ref(o, r->previous);
	out_key(o, "next"); rule_ref(o, r->next);
	out_key(o, "subrules");
	out_begin_list(o);
	for (size_t i = 0; i < r->nsubrules; i++)
		rule_ref(o, &r->subrules[i]);
	out_end_list(o);
}

const struct out_type ruling_brief = { brief_text, brief_data };
const struct out_type ruling_full = { full_text, full_data };

void render_results(struct out *o, const struct rl_results *res)
{
	out_begin(o);
	out_key(o, "total");
	out_int(o, res->total);
	out_list(o, "results", "\n");
	for (size_t i = 0; i < res->n && out_ok(o); i++)
		out_record(o, &ruling_brief, &res->v[i]);
	out_list_end(o);
	out_end(o);
}
