/* importer.h — the one interface every document format implements.
 *
 * An importer is one file that exports one const struct rl_importer. The
 * registry (registry.c) asks each importer's probe() how sure it is that a
 * text is its format and hands the text to the surest; parse() turns the
 * text into an rl_doc. Importers only parse: they never touch the database,
 * print or exit. What the registry does for every format after parse() —
 * game and language defaults, identity keys, cross-references found in the
 * text — importers leave to it. */
#ifndef RL_IMPORTER_H
#define RL_IMPORTER_H

#include "rulings.h"

struct rl_importer {
	const char *name;          /* --format name, stored with each import */
	const char *description;   /* one line, for --help and the man page */
	/* 0 (not this format) to 100 (certainly this format); -1 when memory
	 * ran out (the registry reports RL_ENOMEM, not "no known format"). */
	int (*probe)(const char *text, size_t len);
	/* Fills doc (title, entries; game and lang when the text names them).
	 * Problems go to d with line numbers; RL_EDATA refuses the document. */
	int (*parse)(const struct rl_source *src, const struct rl_import_opts *opts,
	             struct rl_doc *doc, struct rl_diags *d);
};

extern const struct rl_importer rl_importer_faq_tags;
extern const struct rl_importer rl_importer_numbered_rules;
extern const struct rl_importer rl_importer_rules_summary;
extern const struct rl_importer rl_importer_encyclopedia;
extern const struct rl_importer rl_importer_thesaurus;
extern const struct rl_importer rl_importer_rst_glossary;
extern const struct rl_importer rl_importer_markdown_glossary;
extern const struct rl_importer rl_importer_comprehensive_rules;
extern const struct rl_importer rl_importer_card_rulings;
extern const struct rl_importer rl_importer_xml_interchange;

#endif
