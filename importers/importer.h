/* importer.h — document formats: a reader and a recognizer each.
 *
 *   rl_source ──reader──▶ rl_blocks ──recognizer──▶ rl_doc ──registry──▶ …
 *
 * The formats are listed once, in formats.def: each has a name, the syntax
 * its reader reads (block.h), a sample document, and a recognizer, the
 * const struct rl_recognizer rl_format_ID defined in importers/ID.c. The
 * registry (registry.c) detects a text's format from the probes, runs the
 * format's reader, then its recognizer; what every format needs after that
 * — game and language defaults, identity keys, cross-references found in
 * the text, diagnostics' columns as the file has them — it does itself.
 * Recognizers only parse: they never touch the database, print or exit.
 *
 * Adding a format: a line in formats.def, importers/ID.c with its
 * recognizer, a golden case (tests/golden), and its section in the manual;
 * the build, the fuzz targets, the failure loops and the checks that the
 * README and the manual list every format follow from formats.def. */
#ifndef RL_IMPORTER_H
#define RL_IMPORTER_H

#include "block.h"
#include "rulings.h"

/* The syntaxes a reader reads (block.h). */
enum rl_syntax { RL_SYNTAX_LINES, RL_SYNTAX_RST, RL_SYNTAX_MARKDOWN,
                 RL_SYNTAX_JSON, RL_SYNTAX_XML };

/* How sure a probe is that a text is its format. The surest format wins;
 * two different formats equally sure (above RL_PROBE_NO) make the text
 * ambiguous: it is refused with a message naming both, and --format
 * decides. */
enum rl_confidence {
	RL_PROBE_ENOMEM = -1,  /* memory ran out: the registry says so */
	RL_PROBE_NO = 0,       /* not this format */
	RL_PROBE_WEAK,         /* only its syntax: claimed so that the text
	                          is refused with a reason, not as unknown */
	RL_PROBE_POSSIBLE,     /* a few of the format's marks */
	RL_PROBE_LIKELY,       /* the format's marks throughout */
	RL_PROBE_STRONG,       /* a mark only this format has */
	RL_PROBE_CERTAIN,      /* a first line or root element that names the
	                          format */
};

/* What a recognizer is given besides the blocks. */
struct rl_input {
	const struct rl_source *src;
	const struct rl_import_opts *opts;
	struct rl_doc *doc;        /* to fill */
	struct rl_diags *d;        /* problems, with their lines */
	const struct rl_recognizer *recognizer;
	size_t records;            /* records handed to record() so far */
};

/* An XML format's reading: its schema (RELAX NG, compiled in) and the
 * element that holds one record (the reader hands each to record()). */
struct rl_xml_syntax {
	const unsigned char *schema;
	const size_t *schema_len;
	const char *record;
	const char *schema_name;   /* "the interchange schema": messages */
	const char *invalid;       /* "not a valid interchange file" */
};

struct rl_recognizer {
	const char *description;   /* one line, for --help */
	enum rl_confidence (*probe)(const char *text, size_t len);
	/* Called with every block of the document (a record reader: after
	 * the last record, with none). Fills in->doc: title, entries, and
	 * game, lang, date when the text names them; sets doc->end when the
	 * text ends inside something unfinished. RL_EDATA refuses the
	 * document (an error in in->d says why). */
	int (*recognize)(const struct rl_blocks *b, struct rl_input *in);
	/* A record reader's (XML): called with the blocks of each record. */
	int (*record)(const struct rl_blocks *b, struct rl_input *in);
	const struct rl_xml_syntax *xml;
	/* 0 or 1 at first; one more whenever the same text gives other
	 * records than before (a fix): an import of bytes the store has from
	 * an older revision reads them again rather than calling them
	 * unchanged, so what the fix changes reaches the database. */
	unsigned revision;
};

#define FORMAT(id, name, syntax, sample) \
	extern const struct rl_recognizer rl_format_##id;
#include "formats.def"
#undef FORMAT

/* The XML reader (xmlread.c): a text that is well-formed, has no DTD and
 * is valid against the format's schema becomes VALUE (element) and
 * ATTRIBUTE blocks; each record element's are flushed (block.h) as it is
 * read, and what remains at the end is the root element's. Anything
 * wrong: RL_EDATA, with errors in d at their lines and columns. */
int rl_read_xml(const struct rl_source *src, const struct rl_xml_syntax *x,
                struct rl_blocks *out, struct rl_diags *d);

#endif
