/* registry.c — the list of importers, format detection, and the steps
 * shared by every format after parsing. */
#include "importer.h"
#include "doc.h"
#include "util.h"
#include "xref.h"

#include <stdlib.h>
#include <string.h>

static const struct rl_importer *const importers[] = {
	&rl_importer_faq_tags,
	&rl_importer_numbered_rules,
	&rl_importer_rules_summary,
	&rl_importer_encyclopedia,
	&rl_importer_thesaurus,
	&rl_importer_rst_glossary,
	&rl_importer_markdown_glossary,
	&rl_importer_comprehensive_rules,
	&rl_importer_card_rulings,
	&rl_importer_xml_interchange,
};

enum { NIMPORTERS = sizeof importers / sizeof *importers };

/* Below this score a text is not recognized. */
enum { PROBE_THRESHOLD = 30 };

size_t rl_importer_count(void)
{
	return NIMPORTERS;
}

const char *rl_importer_name(size_t i)
{
	return i < NIMPORTERS ? importers[i]->name : NULL;
}

const char *rl_importer_description(size_t i)
{
	return i < NIMPORTERS ? importers[i]->description : NULL;
}

/* The importer surest of src (NULL: none is sure enough); RL_ENOMEM when a
 * probe ran out of memory. */
static int choose(const struct rl_source *src, const struct rl_importer **out)
{
	const struct rl_importer *best = NULL;
	int best_score = PROBE_THRESHOLD - 1;
	for (size_t i = 0; i < NIMPORTERS; i++) {
		int s = importers[i]->probe(src->text, src->len);
		if (s < 0)
			return RL_ENOMEM;
		if (s > best_score) {
			best = importers[i];
			best_score = s;
		}
	}
	*out = best;
	return RL_OK;
}

static int finish(struct rl_doc *doc, const struct rl_source *src,
                  const struct rl_import_opts *opts, const char *format)
{
	if (!doc->format && !(doc->format = rl_strdup(format)))
		return RL_ENOMEM;
	if (opts->document) {
		free(doc->title);
		if (!(doc->title = rl_strdup(opts->document)))
			return RL_ENOMEM;
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
	for (size_t i = 0; i < doc->n; i++) {
		struct rl_entry *e = &doc->entries[i];
		if (!e->key) {
			const char *k = e->rule ? e->rule : e->title;
			if (!(e->key = rl_key(k ? k : "")))
				return RL_ENOMEM;
		}
		int rc = rl_xref_scan(e, e->text ? e->text : "");
		if (rc)
			return rc;
	}
	return RL_OK;
}

/* Nothing but white space and line breaks. */
static bool is_empty(const char *s, size_t n)
{
	for (size_t i = 0; i < n; ) {
		size_t k = rl_blank_len(s + i);
		if (!k && s[i] != '\n')
			return false;
		i += k ? k : 1;
	}
	return true;
}

int rl_parse(const struct rl_source *src, const struct rl_import_opts *opts,
             struct rl_doc *doc, struct rl_diags *d)
{
	*doc = (struct rl_doc){0};
	if (is_empty(src->text, src->len)) {
		rl_diag_add(d, RL_ERROR, 0, 0, "empty document");
		return RL_EDATA;
	}
	const struct rl_importer *imp = NULL;
	if (opts->format) {
		for (size_t i = 0; i < NIMPORTERS; i++)
			if (strcmp(importers[i]->name, opts->format) == 0)
				imp = importers[i];
		if (!imp)
			return RL_EUSAGE;
	} else {
		int rc = choose(src, &imp);
		if (rc)
			return rc;
		if (!imp)
			return RL_NOTFOUND;
	}
	int rc = imp->parse(src, opts, doc, d);
	if (!rc)
		rc = finish(doc, src, opts, imp->name);
	if (rc)
		rl_doc_free(doc);
	return rc;
}
