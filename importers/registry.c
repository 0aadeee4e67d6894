/* registry.c — the formats (formats.def), format detection, and what is
 * done for every format around its reader and recognizer. */
#include "importer.h"
#include "doc.h"
#include "util.h"
#include "xref.h"

#include <stdlib.h>
#include <string.h>

struct format {
	const char *name;
	enum rl_syntax syntax;
	const struct rl_recognizer *r;
};

static const struct format formats[] = {
#define FORMAT(id, name, syntax, sample) { name, syntax, &rl_format_##id },
#include "formats.def"
#undef FORMAT
};

enum { NFORMATS = sizeof formats / sizeof *formats };

size_t rl_importer_count(void)
{
	return NFORMATS;
}

const char *rl_importer_name(size_t i)
{
	return i < NFORMATS ? formats[i].name : NULL;
}

const char *rl_importer_description(size_t i)
{
	return i < NFORMATS ? formats[i].r->description : NULL;
}

char *rl_doc_read_as(const struct rl_doc *doc)
{
	struct rl_buf b = {0};
	rl_buf_adds(&b, doc->format ? doc->format : "");
	if (doc->revision > 1)
		rl_buf_addf(&b, "/%u", doc->revision);
	return rl_buf_take(&b);
}

bool rl_read_as_current(const char *read_as)
{
	if (!read_as)   /* SQLite out of memory: read the file, the store
	                   still finds the same bytes unchanged */
		return false;
	const char *slash = strchr(read_as, '/');
	size_t n = slash ? (size_t)(slash - read_as) : strlen(read_as);
	unsigned long rev = 1;
	if (slash && !rl_parse_uint(slash + 1, strlen(slash + 1), 1000000, &rev,
	                            NULL))
		return true;
	for (size_t i = 0; i < NFORMATS; i++)
		if (strlen(formats[i].name) == n &&
		    memcmp(formats[i].name, read_as, n) == 0)
			return rev == (formats[i].r->revision ? formats[i].r->revision
			                                      : 1);
	return true;
}

/* Does the text start (after white space) like XML: a declaration, a
 * comment or DOCTYPE, or an element? Then it is an XML format's or none:
 * the text formats never see it (an interchange file whose text holds a
 * "• " line and an indented "Tags:" line was a tag page titled "<?xml"). */
static bool looks_like_xml(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n'))
		i++;
	if (n - i < 2 || s[i] != '<')
		return false;
	char c = s[i + 1];
	return c == '?' || c == '!' || c == '_' || c == ':' ||
	       (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* The surest format for src: *out NULL when none is sure at all. Two
 * different formats equally sure make the text ambiguous (RL_EDATA, an
 * error naming them): the order of the table decides nothing. RL_ENOMEM
 * when a probe ran out of memory. */
static int choose(const struct rl_source *src, struct rl_diags *d,
                  const struct format **out)
{
	bool xml = looks_like_xml(src->text, src->len);
	const struct format *best = NULL, *tie = NULL;
	enum rl_confidence sure = RL_PROBE_NO;
	for (size_t i = 0; i < NFORMATS; i++) {
		if (xml != (formats[i].syntax == RL_SYNTAX_XML))
			continue;
		enum rl_confidence c = formats[i].r->probe(src->text, src->len);
		if (c == RL_PROBE_ENOMEM)
			return RL_ENOMEM;
		if (c > sure) {
			best = &formats[i];
			tie = NULL;
			sure = c;
		} else if (c == sure && c != RL_PROBE_NO && !tie) {
			tie = &formats[i];
		}
	}
	if (tie) {
		rl_diag_add(d, RL_ERROR, 0, 0, "%s and %s both recognize this "
		            "document, equally sure; give --format", best->name,
		            tie->name);
		return RL_EDATA;
	}
	*out = best;
	return RL_OK;
}

/* The recognizer's record() for each record a reader hands over. */
static int on_record(struct rl_blocks *b, void *ctx)
{
	struct rl_input *in = ctx;
	in->records++;
	return in->recognizer->record ? in->recognizer->record(b, in) : RL_OK;
}

/* A reader that starts over (the XML reader's second reading) wants the
 * records read so far forgotten. */
static void on_restart(void *ctx)
{
	struct rl_input *in = ctx;
	rl_doc_free(in->doc);
	*in->doc = (struct rl_doc){0};
	in->records = 0;
}

static int read_and_recognize(const struct format *f, struct rl_input *in)
{
	struct rl_blocks b = { .flush = on_record, .flush_ctx = in,
	                       .restart = on_restart };
	const struct rl_source *src = in->src;
	int rc;
	switch (f->syntax) {
	case RL_SYNTAX_RST:
		rc = rl_read_rst(src, &b);
		break;
	case RL_SYNTAX_MARKDOWN:
		rc = rl_read_markdown(src, &b);
		break;
	case RL_SYNTAX_JSON:
		rc = rl_read_json(src, &b, in->d);
		break;
	case RL_SYNTAX_XML:
		rc = rl_read_xml(src, f->r->xml, &b, in->d);
		break;
	case RL_SYNTAX_LINES:
	default:
		rc = rl_read_lines(src, &b);
		break;
	}
	if (!rc)
		rc = f->r->recognize(&b, in);
	rl_blocks_free(&b);
	return rc;
}

/* s with its ASCII capitals made small, in place (NULL: nothing). */
static void lower_ascii(char *s)
{
	for (; s && *s; s++)
		if (*s >= 'A' && *s <= 'Z')
			*s = (char)(*s - 'A' + 'a');
}

/* What every format gets after its recognizer: defaults from the caller,
 * identity keys, the references written in the text. */
static int finish(struct rl_doc *doc, const struct rl_source *src,
                  const struct rl_import_opts *opts, const struct format *f,
                  struct rl_diags *d)
{
	if (!doc->format && !(doc->format = rl_strdup(f->name)))
		return RL_ENOMEM;
	doc->revision = f->r->revision ? f->r->revision : 1;
	if (opts->document) {
		free(doc->title);
		if (!(doc->title = rl_strdup(opts->document)))
			return RL_ENOMEM;
	}
	/* The game: what the document's words name wins, as a date it states
	 * does; a given one (--game, else a directory manifest) fills in, and
	 * is said not to be used when it differs (issue 12: nothing silent)
	 * other than in case or quotes: then it is the same game (store.c,
	 * rl_store_game_id). */
	bool other = false;
	if (doc->game && opts->game && strcmp(doc->game, opts->game) != 0) {
		char *a = rl_fold(doc->game), *b = rl_fold(opts->game);
		other = a && b && strcmp(a, b) != 0;
		bool nomem = !a || !b;
		free(a);
		free(b);
		if (nomem)
			return RL_ENOMEM;
	}
	if (other) {
		int rc = rl_diag_add(d, RL_WARNING, 0, 0, "the document names its "
		                     "game '%s'; the game given, '%s', is not used",
		                     doc->game, opts->game);
		if (rc)
			return rc;
	}
	if (!doc->game && opts->game && !(doc->game = rl_strdup(opts->game)))
		return RL_ENOMEM;
	if (opts->lang) {
		free(doc->lang);
		doc->lang = NULL;
	}
	if (!doc->lang) {
		const char *l = opts->lang ? opts->lang
		                           : rl_lang_detect(src->text, src->len);
		if (!(doc->lang = rl_strdup(l)))
			return RL_ENOMEM;
	}
	/* a language as --lang and lang: name it, in small letters: a page's
	 * "Language: FR" line, an interchange file's lang="FR" are fr (kept
	 * as written, their rulings went to the full-text table of other
	 * languages, and no --lang could name them) */
	lower_ascii(doc->lang);
	for (size_t i = 0; i < doc->n; i++) {
		struct rl_entry *e = &doc->entries[i];
		lower_ascii(e->lang);
		if (!e->key) {
			const char *k = e->rule ? e->rule : e->title;
			if (!(e->key = rl_key(k ? k : "")))
				return RL_ENOMEM;
		}
		int rc = rl_xref_scan(e, e->text ? e->text : "", d);
		if (rc)
			return rc;
	}
	return RL_OK;
}

int rl_parse(const struct rl_source *src, const struct rl_import_opts *opts,
             struct rl_doc *doc, struct rl_diags *d)
{
	*doc = (struct rl_doc){0};
	size_t first_diag = d->n;
	const struct format *f = NULL;
	int rc = RL_OK;
	if (rl_is_blank_text(src->text, src->len)) {
		rl_diag_add(d, RL_ERROR, 0, 0, "empty document");
		return RL_EDATA;
	}
	if (opts->format) {
		for (size_t i = 0; i < NFORMATS; i++)
			if (strcmp(formats[i].name, opts->format) == 0)
				f = &formats[i];
		if (!f)
			return RL_EUSAGE;
	} else if ((rc = choose(src, d, &f)) == RL_OK && !f) {
		return RL_NOTFOUND;
	}
	struct rl_input in = { .src = src, .opts = opts, .doc = doc, .d = d,
	                       .recognizer = f ? f->r : NULL };
	if (!rc)
		rc = read_and_recognize(f, &in);
	if (!rc)
		rc = finish(doc, src, opts, f, d);
	if (rc)
		rl_doc_free(doc);
	/* columns as the file has them, before its text was composed */
	for (size_t i = first_diag; i < d->n; i++)
		if (d->v[i].col)
			d->v[i].col = rl_source_column(src, d->v[i].line, d->v[i].col);
	return rc;
}
