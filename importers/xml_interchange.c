/* xml_interchange.c — the XML interchange format (schema/rulings.rng), as
 * rl_export_xml() writes it:
 *
 *   <rulings format_version="1" title="…">
 *     <ruling kind="faq" lang="en" game="…" key="…" …>
 *       <title>…</title><text>…</text>
 *       <tag name="…" qualifier="…"/> <alias>…</alias>
 *       <ref kind="rule" target="…"/> <errata product="…" …/>
 *       <source …/> <version …>…</version>
 *     </ruling> …
 *   </rulings>
 *
 * The file is read by the XML reader (read_xml.c), which refuses
 * anything not well-formed, anything with a DTD, and anything the schema
 * (compiled in) does not validate; it hands over each <ruling> as it
 * reads it (a 54 MB file of 50,000 rulings is never a tree in memory).
 *
 * Each <ruling> becomes an entry with its own game and language (one file
 * holds many), its key (when given), title, text, section, category, rule,
 * changed flag, date, author, tags, aliases, references and errata
 * details. <source> and <version> elements are provenance from the
 * database that wrote the file: they are validated but not imported (the
 * file becomes the rulings' source, and its import their first version).
 * A ruling marked withdrawn is history only and is left out. The document
 * is the root's title, else the file's name without its extension. */
#include "importer.h"
#include "doc.h"
#include "interchange.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static const struct rl_xml_syntax syntax = {
	.schema = rl_interchange_rng,
	.schema_len = &rl_interchange_rng_size,
	.record = "ruling",
	.schema_name = "the interchange schema",
	.invalid = "not a valid interchange file",
};

static bool named(const struct rl_block *b, const char *name)
{
	return b->name && strcmp(b->name, name) == 0;
}

/* A copy of an attribute's value into *out, unless *out has one (a value
 * given twice is invalid: the file is read again and refused). */
static int copy(const struct rl_block *b, char **out)
{
	if (*out)
		return RL_OK;
	return (*out = rl_strdup(b->text ? b->text : "")) ? RL_OK : RL_ENOMEM;
}

/* The attribute name of the element whose block is at i, or NULL. */
static const char *attr(const struct rl_blocks *b, size_t i, const char *name)
{
	for (size_t k = i + 1; k < b->n && b->v[k].type == RL_BLOCK_ATTRIBUTE; k++)
		if (named(&b->v[k], name))
			return b->v[k].text;
	return NULL;
}

static int add_ref(struct rl_entry *e, const struct rl_blocks *b, size_t i)
{
	const char *kind = attr(b, i, "kind"), *target = attr(b, i, "target");
	enum rl_ref_kind k;
	/* the schema lets no other kind through */
	if (!kind || !target || rl_ref_kind_parse(kind, &k))
		return RL_EDATA;
	return rl_entry_add_ref(e, k, target);
}

static int add_errata(struct rl_entry *e, const struct rl_blocks *b, size_t i)
{
	if (e->errata)
		return RL_EDATA;        /* one a ruling */
	if (!(e->errata = calloc(1, sizeof *e->errata)))
		return RL_ENOMEM;
	int rc = RL_OK;
	for (size_t k = i + 1; k < b->n && b->v[k].type == RL_BLOCK_ATTRIBUTE &&
	     !rc; k++) {
		const struct rl_block *a = &b->v[k];
		if (named(a, "product"))
			rc = copy(a, &e->errata->product);
		else if (named(a, "printing"))
			rc = copy(a, &e->errata->printing);
		else if (named(a, "document"))
			rc = copy(a, &e->errata->document);
		else if (named(a, "page"))
			rc = copy(a, &e->errata->page);
	}
	return rc;
}

/* The ruling's own attributes. */
static int ruling_attrs(struct rl_entry *e, const struct rl_blocks *b)
{
	int rc = RL_OK;
	for (size_t k = 1; k < b->n && b->v[k].type == RL_BLOCK_ATTRIBUTE && !rc;
	     k++) {
		const struct rl_block *a = &b->v[k];
		if (named(a, "kind")) {
			if (rl_kind_parse(a->text, &e->kind))
				rc = RL_EDATA;
		} else if (named(a, "changed")) {
			e->changed = strcmp(a->text, "true") == 0 ||
			             strcmp(a->text, "1") == 0;
		} else if (named(a, "lang")) {
			rc = copy(a, &e->lang);
		} else if (named(a, "game")) {
			rc = copy(a, &e->game);
		} else if (named(a, "key")) {
			/* an empty key is no key: computed as for other formats */
			if (*a->text)
				rc = copy(a, &e->key);
		} else if (named(a, "rule")) {
			rc = copy(a, &e->rule);
		} else if (named(a, "section")) {
			rc = copy(a, &e->section);
		} else if (named(a, "category")) {
			rc = copy(a, &e->category);
		} else if (named(a, "date")) {
			rc = copy(a, &e->date);
		} else if (named(a, "author")) {
			rc = copy(a, &e->author);
		}
	}
	return rc;
}

/* One <ruling>: its element at 0, its attributes, its children. */
static int record(const struct rl_blocks *b, struct rl_input *in)
{
	if (!b->n || attr(b, 0, "withdrawn"))
		return RL_OK;           /* history only */
	if (!attr(b, 0, "kind"))
		return RL_EDATA;
	struct rl_entry *e = rl_doc_add_entry(in->doc);
	if (!e)
		return RL_ENOMEM;
	e->line = b->v[0].line;
	int rc = ruling_attrs(e, b);
	for (size_t i = 1; i < b->n && !rc; i++) {
		const struct rl_block *c = &b->v[i];
		if (c->type != RL_BLOCK_VALUE || c->level != 2)
			continue;
		if (named(c, "title")) {
			rc = copy(c, &e->title);
		} else if (named(c, "text")) {
			rc = copy(c, &e->text);
		} else if (named(c, "tag")) {
			const char *name = attr(b, i, "name");
			rc = name ? rl_entry_add_tag(e, name, attr(b, i, "qualifier"))
			          : RL_EDATA;
		} else if (named(c, "alias")) {
			rc = rl_entry_add_alias(e, c->text ? c->text : "");
		} else if (named(c, "ref")) {
			rc = add_ref(e, b, i);
		} else if (named(c, "errata")) {
			rc = add_errata(e, b, i);
		}
		/* source, version: provenance, not imported */
	}
	return rc;
}

/* After the last ruling: the root's blocks. The title, the language,
 * warnings. */
static int recognize(const struct rl_blocks *b, struct rl_input *in)
{
	struct rl_doc *doc = in->doc;
	const char *title = b->n ? attr(b, 0, "title") : NULL;
	if (!(doc->title = title ? rl_strdup(title) : rl_file_stem(in->src->name)))
		return RL_ENOMEM;
	/* the document's language: its first ruling's */
	for (size_t i = 0; i < doc->n && !doc->lang; i++)
		if (doc->entries[i].lang && !(doc->lang = rl_strdup(doc->entries[i].lang)))
			return RL_ENOMEM;
	unsigned line = b->n ? b->v[0].line : 0;
	if (!in->records)
		return rl_diag_add(in->d, RL_WARNING, line, 0,
		                   "the file holds no rulings");
	if (!doc->n)
		return rl_diag_add(in->d, RL_WARNING, line, 0,
		                   "every ruling in the file is withdrawn: none "
		                   "imported");
	return RL_OK;
}

/* An XML document whose root is <rulings>. Another one that has an XML
 * declaration is claimed weakly, so that it is refused with the schema's
 * reason; one without (an SVG image in a folder of notes) is of no known
 * format, skipped by a directory walk. Either way no text format reads it:
 * the registry gives texts that start like XML to XML formats only. */
static enum rl_confidence probe(const char *text, size_t len)
{
	const char *end = text + len, *p = text;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	if (p == end || *p != '<')
		return RL_PROBE_NO;
	size_t scan = (size_t)(end - p) < 65536 ? (size_t)(end - p) : 65536;
	for (const char *q = p; q + 8 <= p + scan; q++)
		if (memcmp(q, "<rulings", 8) == 0 && q + 8 < end && q[8] &&
		    strchr(" \t\n\r/>", q[8]))
			return RL_PROBE_CERTAIN;
	return (size_t)(end - p) >= 5 && memcmp(p, "<?xml", 5) == 0
	       ? RL_PROBE_WEAK : RL_PROBE_NO;
}

const struct rl_recognizer rl_format_xml_interchange = {
	.description = "the XML interchange format (schema/rulings.rng), as "
	               "exported; validated, no DTD",
	.probe = probe,
	.recognize = recognize,
	.record = record,
	.xml = &syntax,
};
