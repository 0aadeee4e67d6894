/* cmd_changed.c — rulings changed: what changed between versions of the
 * documents (added, edited, withdrawn), and what the sources themselves
 * mark as changed ("Changed answer:"). */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char notes[] =
	"A change is added, edited or withdrawn, as an import of a new version\n"
	"of a document recorded it (a document's first import records none), or\n"
	"marked: the source itself says the answer changed, in the version that\n"
	"first says so. A version's date is the one its document states or was\n"
	"given (import --date), else its import time; --since, --until and\n"
	"--between with dates mean these dates (a date alone: that day), and\n"
	"--imported-since and --imported-until the import times. The newest\n"
	"version's changes come first (by date, then import). The text starts\n"
	"each version's changes with a summary line and shows edits word by\n"
	"word. --format atom writes an Atom 1.0 feed: an entry per change, its\n"
	"id the same in every feed of the change, its date the version's, its\n"
	"content the word diff in XHTML, its words (title, kinds of change) in\n"
	"the language of most changes (English, French or Russian; else\n"
	"English). Exit status 1 when there is none, or when a tag, game,\n"
	"language or document named is one the database does not know (the\n"
	"nearest names are suggested). A range that ends before it starts is a\n"
	"usage error.\n";

struct change_item {
	rl_db *db;
	const struct rl_change *c;
	const long *counts;     /* text: the first change of a version, listed
	                           with how many of each kind it has */
	long shown;             /* ... and when --limit ended the list inside
	                           that version, how many of them are shown
	                           (else 0) */
	long limit;
};

static const char *const kinds[] = { "added", "edited", "withdrawn", "marked" };
enum { NKINDS = 4 };

/* A change as JSON: what changed, and the ruling as it stands (text is the
 * change's new text, or its old one for a withdrawal). */
static void change_data(struct out *o, const void *item)
{
	const struct rl_change *c = ((const struct change_item *)item)->c;
	rl_db *db = ((const struct change_item *)item)->db;
	struct rl_ruling r = { 0 };
	int rc = rl_show(db, c->id, &r);
	if (rc && rc != RL_NOTFOUND) {
		out_fail(o, rc, "changed: %s", library_message(db, rc));
		return;
	}
	out_key(o, "id"); out_int(o, c->id);
	out_key(o, "change"); out_string(o, c->change);
	out_key(o, "kind"); out_string(o, c->kind);
	out_key(o, "game"); out_string(o, c->game);
	out_key(o, "lang"); out_string(o, c->lang);
	out_key(o, "title"); out_string(o, c->title);
	out_key(o, "rule"); out_string(o, c->rule);
	out_key(o, "old"); out_string(o, c->old_text);
	out_key(o, "new"); out_string(o, c->new_text);
	out_key(o, "old_title"); out_string(o, c->old_title);
	out_key(o, "new_title"); out_string(o, c->new_title);
	out_key(o, "at"); out_string(o, c->at);
	out_key(o, "date"); out_string(o, c->date);
	out_key(o, "imported_at"); out_string(o, c->at);
	out_key(o, "document"); out_string(o, c->document);
	out_key(o, "import"); out_int_or_null(o, c->import_id, c->import_id != 0);
	out_key(o, "text");
	out_string(o, c->new_text ? c->new_text : c->old_text);
	/* the ruling as it stands (none: these are empty) */
	out_key(o, "category"); out_string(o, r.category);
	out_key(o, "section"); out_string(o, r.section);
	out_key(o, "changed"); out_bool(o, r.changed);
	out_strings(o, "tags", r.tags, r.ntags);
	out_key(o, "sources");
	out_begin_list(o);
	for (size_t i = 0; i < r.nsources; i++) {
		out_begin_map(o);
		out_key(o, "document"); out_string(o, r.sources[i].document);
		out_key(o, "path"); out_string(o, r.sources[i].path);
		out_key(o, "line"); out_int(o, r.sources[i].line);
		out_end_map(o);
	}
	out_end_list(o);
	if (!rc)
		rl_ruling_clear(&r);
}

static void change_text(struct out *o, const void *item)
{
	const struct rl_change *x = ((const struct change_item *)item)->c;
	const long *counts = ((const struct change_item *)item)->counts;
	if (counts) {
		/* the version's summary: "Defend · import 2 · TIME: 1 added" */
		out_style(o, STYLE_BOLD);
		out_printf(o, "%s \xC2\xB7 import %lld \xC2\xB7 %s:", x->document,
		           x->import_id, x->date ? x->date : x->at);
		const char *sep = " ";
		for (int j = 0; j < NKINDS; j++)
			if (counts[j]) {
				out_printf(o, "%s%ld %s", sep, counts[j], kinds[j]);
				sep = ", ";
			}
		const struct change_item *it = item;
		if (it->shown)
			out_printf(o, " (%ld shown: --limit %ld)", it->shown,
			           it->limit);
		out_style_end(o);
		out_puts(o, "\n");
	}
	out_style(o, STYLE_ID);
	out_printf(o, "#%lld", x->id);
	out_style_end(o);
	out_puts(o, " ");
	out_styled(o, STYLE_BOLD, x->change);
	out_printf(o, " %s\n", x->title);
	out_printf(o, "    %s \xC2\xB7 %s \xC2\xB7 %s%s%s \xC2\xB7 %s \xC2\xB7 %s\n",
	           x->kind, x->lang, x->game ? x->game : "(no game)",
	           x->rule ? " \xC2\xB7 rule " : "", x->rule ? x->rule : "",
	           x->document, x->date ? x->date : x->at);
	if (!strcmp(x->change, "edited")) {
		if (x->old_title && x->new_title && strcmp(x->old_title, x->new_title)) {
			out_puts(o, "    ");
			render_word_diff(o, x->old_title, x->new_title, "    ");
		}
		out_puts(o, "    ");
		render_word_diff(o, x->old_text, x->new_text, "    ");
	} else if (!strcmp(x->change, "withdrawn")) {
		out_puts(o, "    (was)\n");
		render_indented(o, x->old_text ? x->old_text : "", "    ");
	} else {
		render_indented(o, x->new_text ? x->new_text : "", "    ");
	}
}

static const struct out_type change_type = { change_text, change_data };

static const char *const formats[] = { "text", "json", "ndjson", "atom", NULL };
enum { FORMAT_ATOM = 3 };

static int write_stdout(void *ctx, const void *data, size_t n)
{
	int *err = ctx;
	if (fwrite(data, 1, n, stdout) != n)
		*err = errno ? errno : EIO;
	return *err;
}

/* The changes as an Atom feed on standard output; an empty feed when
 * there is none (exit status 1). Its id follows from the filters. */
static int atom(struct ctx *c, const struct rl_change_query *q,
                const struct rl_change *v, size_t nv, int rc)
{
	const struct rl_query *f = &q->filter;
	char *scope = NULL;
	size_t len = 0;
	FILE *sf = open_memstream(&scope, &len);
	bool game_only = f->game && !f->ntags && !f->category && !f->kind &&
	                 !f->lang && !q->document && !q->since && !q->from;
	if (sf && game_only) {
		/* as the exported site's feed of that game */
		fprintf(sf, "game\x1F%s", f->game);
	} else if (sf) {
		const char *names[] = { "game", "category", "kind", "lang",
		                        "document", "since", "from", "to" };
		const char *vals[] = { f->game, f->category, f->kind, f->lang,
		                       q->document, q->since, q->from, q->to };
		for (size_t k = 0; k < sizeof names / sizeof *names; k++)
			if (vals[k])
				fprintf(sf, "%s\x1F%s\x1F", names[k], vals[k]);
		for (size_t k = 0; k < f->ntags; k++)
			fprintf(sf, "tag\x1F%s\x1F", f->tags[k]);
	}
	if (!sf || fclose(sf) != 0) {
		free(scope);
		error("out of memory");
		return EXIT_SOFTWARE;
	}
	int err = 0;
	struct rl_sink out = { write_stdout, &err };
	struct rl_atom_feed feed = { .scope = scope };
	int arc = rl_changes_atom(c->db, v, nv, &feed, &out);
	free(scope);
	if (err) {
		error("write failure on standard output: %s", strerror(err));
		return EXIT_IO;
	}
	if (arc)
		return library_error(c, arc);
	return finish_output(exit_status(rc));
}

/* --between A B: two import numbers, or two dates or times (each to its
 * end: after A's end, up to B's end). */
struct between {
	const char *from, *to;
	struct opt_when a, b;
};

static const char *check_between(const struct opt *o, const char *a,
                                 const char *b)
{
	struct between *x = o->out;
	/* a range that ends before it starts would find nothing, silently */
	static const char reversed[] = "two import numbers or two dates or times, "
	                               "the earlier first";
	long ia, ib;
	if (parse_long(a, 0, 0x7fffffffL, &ia) && parse_long(b, 0, 0x7fffffffL, &ib)) {
		if (ia > ib)
			return reversed;
		x->from = a;
		x->to = b;
		return NULL;
	}
	if (opt_parse_when(a, true, &x->a) && opt_parse_when(b, true, &x->b)) {
		if (strcmp(x->a.s, x->b.s) > 0)
			return reversed;
		x->from = x->a.s;
		x->to = x->b.s;
		return NULL;
	}
	static char expects[256];
	snprintf(expects, sizeof expects, "two import numbers or two of: %s",
	         rl_when_forms);
	return expects;
}

int cmd_changed(struct ctx *c, int argc, char **argv)
{
	struct rl_change_query q = { .marked = true, .recorded = true };
	struct filter_options filters;
	struct opt_when since = { "", NULL }, until = { "", NULL };
	struct opt_when imported_since = { "", NULL }, imported_until = { "", NULL };
	struct between between = { NULL, NULL, { "", NULL }, { "", NULL } };
	int fmt = OUT_TEXT;
	filter_options_init(&filters, &q.filter);
	const struct opt opts[] = {
		{ .name = "since", .letter = 's', .type = OPT_WHEN, .out = &since,
		  .arg = "WHEN", .help = "changes of versions dated at or after WHEN "
		  "(a date, 2026-01-16, or a time, 2026-01-16T10:00, UTC unless it "
		  "ends in an offset such as +02:00)" },
		{ .name = "until", .letter = 'u', .type = OPT_WHEN, .out = &until,
		  .arg = "WHEN", .flags = OPTF_WHEN_END,
		  .help = "changes of versions dated at or before WHEN (a date: "
		  "to its end)" },
		{ .name = "imported-since", .type = OPT_WHEN, .out = &imported_since,
		  .arg = "WHEN", .help = "changes imported at or after WHEN" },
		{ .name = "imported-until", .type = OPT_WHEN, .out = &imported_until,
		  .arg = "WHEN", .flags = OPTF_WHEN_END,
		  .help = "changes imported at or before WHEN (a date: to its end)" },
		{ .name = "between", .type = OPT_CUSTOM, .out = &between,
		  .arg = "A B", .help = "changes made after version A up to version "
		  "B: two import numbers (see documents), or two dates/times (the "
		  "versions dated after A's end, up to B's end)",
		  .flags = OPTF_TWO_VALUES, .check = check_between },
		{ .name = "reverse", .letter = 'r', .type = OPT_FLAG,
		  .out = &q.oldest_first,
		  .help = "the oldest version's changes first" },
		{ .name = "limit", .letter = 'n', .type = OPT_LONG, .out = &q.limit,
		  .arg = "N", .help = "at most N changes, the first in that order "
		  "(0, the default: all); a version's summary line still counts "
		  "all its changes, and says how many are shown",
		  .min = 0, .max = 1000000000 },
		{ .name = "document", .letter = 'd', .type = OPT_STRING,
		  .out = &q.document, .arg = "D",
		  .help = "changes from imports of document D" },
		{ .type = OPT_INHERIT, .out = filters.opts },
		OPT_FORMAT(&fmt, formats),
		{ 0 }
	};
	const struct opt_spec spec = {
		.opts = opts, .notes = notes, .no_operands = true,
	};
	int n, status = opt_parse(c, &spec, argc, argv, &n);
	if (status >= 0)
		goto out;
	filter_options_apply(&filters);
	/* --since after --until (or the import times' pair) finds nothing */
	const struct { const char *a; const struct opt_when *wa;
	               const char *b; const struct opt_when *wb; } pairs[] = {
		{ "since", &since, "until", &until },
		{ "imported-since", &imported_since, "imported-until",
		  &imported_until },
	};
	for (size_t k = 0; k < sizeof pairs / sizeof *pairs; k++)
		if (*pairs[k].wa->s && *pairs[k].wb->s &&
		    strcmp(pairs[k].wa->s, pairs[k].wb->s) > 0) {
			status = usage_error("changed", "--%s %s is after --%s %s",
			                     pairs[k].a, pairs[k].wa->arg, pairs[k].b,
			                     pairs[k].wb->arg);
			goto out;
		}
	if (*since.s)
		q.since = since.s;
	if (*until.s)
		q.until = until.s;
	if (*imported_since.s)
		q.imported_since = imported_since.s;
	if (*imported_until.s)
		q.imported_until = imported_until.s;
	q.from = between.from;
	q.to = between.to;
	if ((status = open_db(c)))
		goto out;
	/* a tag, game, language or document it does not know is said, as
	 * search says it (the list is empty: exit 1) */
	int crc = rl_filters_check(c->db, &q.filter);
	if (!crc && q.document)
		crc = rl_document_check(c->db, q.document);
	if (crc && crc != RL_NOTFOUND) {
		status = library_error(c, crc);
		goto out;
	}
	if (crc)
		error("changed: %s", rl_db_errmsg(c->db));
	struct rl_change *v;
	size_t nv;
	int rc = rl_changes(c->db, &q, &v, &nv);
	if (rc && rc != RL_NOTFOUND) {
		status = library_error(c, rc);
		goto out;
	}
	if (fmt == FORMAT_ATOM) {
		status = atom(c, &q, v, nv, rc);
		rl_changes_free(v, nv);
		goto out;
	}
	/* --limit may end the list inside a version: its summary line
	 * counts all of that version's changes (under the same filters), not
	 * only those shown, and says how many are shown ("2 edited" read as
	 * the version's whole change when it had 15 added and 11 edited) */
	long cut[NKINDS] = { 0 }, shown = 0;
	if (fmt == OUT_TEXT && q.limit > 0 && nv == (size_t)q.limit) {
		long long last = v[nv - 1].import_id;
		char from[24], to[24];
		snprintf(from, sizeof from, "%lld", last - 1);
		snprintf(to, sizeof to, "%lld", last);
		struct rl_change_query q1 = q;
		q1.limit = 0;
		q1.from = from;
		q1.to = to;
		struct rl_change *w;
		size_t nw;
		int wrc = rl_changes(c->db, &q1, &w, &nw);
		if (wrc && wrc != RL_NOTFOUND) {
			rl_changes_free(v, nv);
			status = library_error(c, wrc);
			goto out;
		}
		for (size_t k = 0; k < nw; k++)
			for (int j = 0; j < NKINDS; j++)
				cut[j] += !strcmp(w[k].change, kinds[j]);
		if (!wrc)
			rl_changes_free(w, nw);
		for (size_t k = nv; k > 0 && v[k - 1].import_id == last; k--)
			shown++;
		long all = 0;
		for (int j = 0; j < NKINDS; j++)
			all += cut[j];
		if (all <= shown)
			shown = 0;      /* the whole version is shown */
	}
	struct out o;
	out_init(&o, stdout, "standard output", fmt, c->color);
	out_begin(&o);
	out_list(&o, "changes", "\n");
	for (size_t i = 0; i < nv && out_ok(&o); i++) {
		long counts[NKINDS] = { 0 };
		bool first = i == 0 || v[i].import_id != v[i - 1].import_id;
		bool cut_here = shown && v[i].import_id == v[nv - 1].import_id;
		for (size_t k = i; first && k < nv &&
		     v[k].import_id == v[i].import_id; k++)
			for (int j = 0; j < NKINDS; j++)
				counts[j] += !strcmp(v[k].change, kinds[j]);
		out_record(&o, &change_type, &(struct change_item){
			c->db, &v[i], first ? cut_here ? cut : counts : NULL,
			cut_here ? shown : 0, q.limit });
	}
	out_list_end(&o);
	out_end(&o);
	rl_changes_free(v, nv);
	status = out_finish(&o, exit_status(rc));
out:
	opt_free(opts);
	return status;
}
