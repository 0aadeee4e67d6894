/* render.c — how a ruling looks: as text for people, as JSON for programs. */
#include "cli.h"
#include "json.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

#define C_RESET "\033[0m"
#define C_BOLD "\033[1m"
#define C_DIM "\033[2m"
#define C_MATCH "\033[1;31m"
#define C_ID "\033[33m"

static void put(FILE *f, bool color, const char *code, const char *s)
{
	if (color)
		fputs(code, f);
	fputs(s, f);
	if (color)
		fputs(C_RESET, f);
}

/* Writes s with every line indented; snippet markers become colour or
 * nothing. */
void print_indented(FILE *f, const char *s, const char *indent, bool color)
{
	fputs(indent, f);
	for (; *s; s++) {
		if (*s == RL_SNIPPET_OPEN[0]) {
			if (color)
				fputs(C_MATCH, f);
		} else if (*s == RL_SNIPPET_CLOSE[0]) {
			if (color)
				fputs(C_RESET, f);
		} else if (*s == '\n') {
			fputc('\n', f);
			if (s[1] && s[1] != '\n')
				fputs(indent, f);
		} else {
			fputc(*s, f);
		}
	}
	fputc('\n', f);
}

/* The first paragraph of text, at most about max bytes, cut at a space. */
static void first_paragraph(FILE *f, const char *text, size_t max)
{
	const char *end = strstr(text, "\n\n");
	size_t n = end ? (size_t)(end - text) : strlen(text);
	bool cut = end != NULL;
	if (n > max) {
		n = rl_cut_at_word(text, n, max);
		cut = true;
	}
	fputs("    ", f);
	for (size_t i = 0; i < n; i++) {
		fputc(text[i], f);
		if (text[i] == '\n')
			fputs("    ", f);
	}
	fputs(cut ? " \xE2\x80\xA6\n" : "\n", f);
}

static void meta_line(FILE *f, const struct rl_ruling *r, bool color)
{
	if (color)
		fputs(C_DIM, f);
	fprintf(f, "    %s \xC2\xB7 %s \xC2\xB7 %s", r->kind, r->lang,
	        r->game ? r->game : "(no game)");
	if (r->rule)
		fprintf(f, " \xC2\xB7 rule %s", r->rule);
	if (r->section)
		fprintf(f, " \xC2\xB7 %s", r->section);
	if (r->category)
		fprintf(f, r->section ? " \xE2\x80\xBA %s" : " \xC2\xB7 %s",
		        r->category);
	if (r->date || r->author)
		fprintf(f, " \xC2\xB7 %s%s%.10s", r->author ? r->author : "",
		        r->author && r->date ? ", " : "", r->date ? r->date : "");
	if (color)
		fputs(C_RESET, f);
	if (r->changed)
		put(f, color, C_BOLD, " \xC2\xB7 changed");
	if (r->withdrawn_at)
		put(f, color, C_BOLD, " \xC2\xB7 withdrawn");
	fputc('\n', f);
}

static void tag_line(FILE *f, const struct rl_ruling *r)
{
	fputs("    tags: ", f);
	for (size_t i = 0; i < r->ntags; i++)
		fprintf(f, "%s%s", i ? ", " : "", r->tags[i]);
	if (r->hidden_tags > 0)
		fprintf(f, " (the source hides %d more)", r->hidden_tags);
	fputc('\n', f);
}

void render_ruling_text(FILE *f, const struct rl_ruling *r, bool color,
                        bool full)
{
	char id[32];
	snprintf(id, sizeof id, "#%lld", r->id);
	put(f, color, C_ID, id);
	fputc(' ', f);
	put(f, color, C_BOLD, r->title);
	fputc('\n', f);
	meta_line(f, r, color);
	if (full && *r->text) {
		fputc('\n', f);
		print_indented(f, r->text, "    ", color);
		fputc('\n', f);
	} else if (full) {
		fputc('\n', f);
	} else if (r->snippet) {
		print_indented(f, r->snippet, "    ", color);
	} else {
		first_paragraph(f, r->text, 300);
	}
	if (r->ntags)
		tag_line(f, r);
	if (!full)
		return;
	for (size_t i = 0; i < r->nsources; i++) {
		const struct rl_source_ref *s = &r->sources[i];
		fprintf(f, "    %s %s (%s:%u", i ? "       " : "source:", s->document,
		        s->path, s->line);
		if (s->hidden_tags >= 0)
			fprintf(f, ", %d more tags", s->hidden_tags);
		if (s->date)
			fprintf(f, ", dated %s", s->date);
		fputs(")\n", f);
	}
	if (r->errata) {
		const struct rl_errata *x = r->errata;
		fprintf(f, "    errata: %s", x->product ? x->product : "?");
		if (x->printing)
			fprintf(f, ", %s", x->printing);
		if (x->document)
			fprintf(f, "; %s", x->document);
		if (x->page)
			fprintf(f, ", p. %s", x->page);
		fputc('\n', f);
	}
	for (size_t i = 0; i < r->nrefs; i++) {
		const struct rl_ref_out *x = &r->refs[i];
		fprintf(f, "    %s %s %s", i ? "     " : "refs:", x->kind, x->target);
		if (x->target_id)
			fprintf(f, " \xE2\x86\x92 #%lld", x->target_id);
		else if (strcmp(x->kind, "page") && strcmp(x->kind, "discussion") &&
		         strcmp(x->kind, "url"))
			fputs(" (unresolved)", f);
		fputc('\n', f);
	}
	for (size_t i = 0; i < r->nbacklinks; i++) {
		const struct rl_ref_out *x = &r->backlinks[i];
		fprintf(f, "    %s #%lld %s%s%s\n", i ? "         " : "cited by:",
		        x->target_id, x->target_rule ? x->target_rule : "",
		        x->target_rule ? " " : "", x->target_title);
	}
	/* a numbered rule among its neighbours */
	const struct rl_rule_ref *near[3] = { r->parent, r->previous, r->next };
	static const char *const label[3] = { "parent:", "previous:", "next:" };
	for (int k = 0; k < 3; k++)
		if (near[k])
			fprintf(f, "    %-9s #%lld %s %s\n", label[k], near[k]->id,
			        near[k]->rule, near[k]->title);
	for (size_t i = 0; i < r->nsubrules; i++)
		fprintf(f, "    %-9s #%lld %s %s\n", i ? "" : "subrules:",
		        r->subrules[i].id, r->subrules[i].rule, r->subrules[i].title);
}

/* Copies s without snippet markers into a JSON string. */
static void plain_snippet(struct json *j, const char *s)
{
	if (!s) {
		json_null(j);
		return;
	}
	char *p = strdup(s), *o = p;
	if (!p) {
		json_null(j);
		return;
	}
	for (const char *i = s; *i; i++)
		if (*i != RL_SNIPPET_OPEN[0] && *i != RL_SNIPPET_CLOSE[0])
			*o++ = *i;
	*o = '\0';
	json_string(j, p);
	free(p);
}

/* The members every ruling object has (search results, show, changed). */
void render_ruling_fields(struct json *j, const struct rl_ruling *r)
{
	json_key(j, "id"); json_int(j, r->id);
	json_key(j, "kind"); json_string(j, r->kind);
	json_key(j, "game"); json_string(j, r->game);
	json_key(j, "lang"); json_string(j, r->lang);
	json_key(j, "title"); json_string(j, r->title);
	json_key(j, "text"); json_string(j, r->text);
	json_key(j, "rule"); json_string(j, r->rule);
	json_key(j, "category"); json_string(j, r->category);
	json_key(j, "section"); json_string(j, r->section);
	json_key(j, "date"); json_string(j, r->date);
	json_key(j, "author"); json_string(j, r->author);
	json_key(j, "tags");
	json_begin_list(j);
	for (size_t i = 0; i < r->ntags; i++)
		json_string(j, r->tags[i]);
	json_end_list(j);
	json_key(j, "hidden_tags");
	if (r->hidden_tags >= 0)
		json_int(j, r->hidden_tags);
	else
		json_null(j);
	json_key(j, "changed"); json_bool(j, r->changed);
	json_key(j, "withdrawn"); json_string(j, r->withdrawn_at);
	json_key(j, "sources");
	json_begin_list(j);
	for (size_t i = 0; i < r->nsources; i++) {
		const struct rl_source_ref *s = &r->sources[i];
		json_begin_map(j);
		json_key(j, "document"); json_string(j, s->document);
		json_key(j, "path"); json_string(j, s->path);
		json_key(j, "line"); json_int(j, s->line);
		json_key(j, "date"); json_string(j, s->date);
		json_key(j, "hidden_tags");
		if (s->hidden_tags >= 0)
			json_int(j, s->hidden_tags);
		else
			json_null(j);
		json_end_map(j);
	}
	json_end_list(j);
	json_key(j, "errata");
	render_errata_json(j, r->errata);
}

void render_errata_json(struct json *j, const struct rl_errata *x)
{
	if (!x) {
		json_null(j);
		return;
	}
	json_begin_map(j);
	json_key(j, "product"); json_string(j, x->product);
	json_key(j, "printing"); json_string(j, x->printing);
	json_key(j, "document"); json_string(j, x->document);
	json_key(j, "page"); json_string(j, x->page);
	json_end_map(j);
}

static void links(struct json *j, const char *key, const struct rl_ref_out *v,
                  size_t n, bool back)
{
	json_key(j, key);
	json_begin_list(j);
	for (size_t i = 0; i < n; i++) {
		json_begin_map(j);
		if (back) {
			json_key(j, "id"); json_int(j, v[i].target_id);
			json_key(j, "kind"); json_string(j, v[i].kind);
			json_key(j, "rule"); json_string(j, v[i].target_rule);
			json_key(j, "title"); json_string(j, v[i].target_title);
		} else {
			json_key(j, "kind"); json_string(j, v[i].kind);
			json_key(j, "target"); json_string(j, v[i].target);
			json_key(j, "resolved"); json_bool(j, v[i].target_id != 0);
			json_key(j, "id");
			if (v[i].target_id)
				json_int(j, v[i].target_id);
			else
				json_null(j);
		}
		json_end_map(j);
	}
	json_end_list(j);
}

static void rule_ref(struct json *j, const struct rl_rule_ref *x)
{
	if (!x) {
		json_null(j);
		return;
	}
	json_begin_map(j);
	json_key(j, "id"); json_int(j, x->id);
	json_key(j, "rule"); json_string(j, x->rule);
	json_key(j, "title"); json_string(j, x->title);
	json_end_map(j);
}

void render_ruling_json(struct json *j, const struct rl_ruling *r, bool details)
{
	render_ruling_fields(j, r);
	if (details) {
		links(j, "refs", r->refs, r->nrefs, false);
		links(j, "backlinks", r->backlinks, r->nbacklinks, true);
		json_key(j, "parent"); rule_ref(j, r->parent);
		json_key(j, "previous"); rule_ref(j, r->previous);
		json_key(j, "next"); rule_ref(j, r->next);
		json_key(j, "subrules");
		json_begin_list(j);
		for (size_t i = 0; i < r->nsubrules; i++)
			rule_ref(j, &r->subrules[i]);
		json_end_list(j);
	} else {
		json_key(j, "snippet"); plain_snippet(j, r->snippet);
		json_key(j, "score"); json_double(j, r->score);
	}
}

static void results(FILE *f, bool color, const struct rl_results *res,
                    enum out_format fmt, const char *list_key, bool marked)
{
	struct json j;
	if (fmt == OUT_TEXT) {
		for (size_t i = 0; i < res->n; i++) {
			if (i)
				fputc('\n', f);
			render_ruling_text(f, &res->v[i], color, false);
		}
		return;
	}
	if (fmt == OUT_NDJSON) {
		for (size_t i = 0; i < res->n; i++) {
			json_init(&j, f, false);
			json_begin_map(&j);
			if (marked) {
				json_key(&j, "change");
				json_string(&j, "marked");
			}
			render_ruling_json(&j, &res->v[i], false);
			json_end_map(&j);
			json_end(&j);
		}
		return;
	}
	json_init(&j, f, true);
	json_begin_map(&j);
	json_key(&j, "format_version"); json_int(&j, 1);
	if (!marked) {
		json_key(&j, "total");
		json_int(&j, res->total);
	}
	json_key(&j, list_key);
	json_begin_list(&j);
	for (size_t i = 0; i < res->n; i++) {
		json_begin_map(&j);
		if (marked) {
			json_key(&j, "change");
			json_string(&j, "marked");
		}
		render_ruling_json(&j, &res->v[i], false);
		json_end_map(&j);
	}
	json_end_list(&j);
	json_end_map(&j);
	json_end(&j);
}

void print_results(const struct ctx *c, const struct rl_results *res,
                   enum out_format fmt, const char *list_key, bool marked)
{
	results(stdout, c->color, res, fmt, list_key, marked);
}

void print_results_to(FILE *f, const struct rl_results *res,
                      enum out_format fmt, const char *list_key, bool marked)
{
	results(f, false, res, fmt, list_key, marked);
}

int run_query(struct ctx *c, const struct rl_query *q, enum out_format fmt,
              const char *cmd)
{
	int status = open_db(c);
	if (status)
		return status;
	struct rl_results res;
	int rc = rl_search(c->db, q, &res);
	if (rc && rc != RL_NOTFOUND) {
		error("%s: %s", cmd, rl_db_errmsg(c->db));
		return exit_status(rc);
	}
	if (res.unknown)
		error("%s: %s", cmd, res.unknown);
	print_results(c, &res, fmt, q->changed_only ? "changes" : "results",
	              q->changed_only);
	/* say when the list is cut */
	if (fmt == OUT_TEXT && res.n && (res.total < 0 ||
	                                 res.total > (long long)res.n)) {
		if (res.total < 0)
			printf("\n%zu shown; more match (--limit 0 for all)\n", res.n);
		else
			printf("\n%zu of %lld shown (--limit 0 for all)\n", res.n,
			       res.total);
	}
	rl_results_free(&res);
	return exit_status(rc);
}
