/*
 * rulings/export.h — part of the public interface of librulings (rulings.h
 * includes every part; include rulings.h, not this file).
 * Export: sinks, formats and the export API.
 */
#ifndef RULINGS_EXPORT_H
#define RULINGS_EXPORT_H

#include "query.h"

/* ---- Export ------------------------------------------------------------- */

/* Where output goes: write() is given the bytes in order and returns 0, or
 * an errno value, which ends the output (the export fails with RL_EIO). */
struct rl_sink {
	int (*write)(void *ctx, const void *data, size_t n);
	void *ctx;
};


/* An export being written (opaque): what a renderer is handed. */
struct rl_export;

/* A format rulings exports to. The library has txt, md, html and xml
 * (rl_export_format_find()); a caller may bring its own (the command
 * line's json). A format renders either one document of the whole
 * selection (render_all) or pages: one with a tag option, else one per
 * tag in a directory (render_page), beside an index (render_index, when
 * it is not NULL, written as index_name). Renderers return a status, with
 * a message in rl_db_errmsg() for a failure. */
struct rl_export_format {
	const char *name;       /* for --format */
	const char *ext;        /* of its page files: ".html" */
	/* A page's tag is data (txt: the faq-tags importer gives the page's
	 * tag to every entry): a tag option keeps only the rulings that carry
	 * the tag itself, not the name with any qualifier. */
	bool exact_tag;
	/* The renderer reads rl_export_results() whole; otherwise the
	 * selection keeps only what planning needs of each ruling (id, title,
	 * language, game, section, category and tags), and a renderer loads
	 * each ruling when it writes it. */
	bool records;
	/* A directory of pages lays out each rulebook (a document of numbered
	 * rules, or a glossary) as a book: a table of contents, pages of its
	 * rules by chapter or section, its glossary by letter (export_book.c). */
	bool books;
	/* A directory of pages has changes.html, the changes newest first,
	 * and Atom feeds of them for the site, each game and each tag
	 * (export_changes.c). */
	bool feeds;
	/* Written with libxml2: rl_export() opens the XML module (a file
	 * beside the library's program, see rulings(1) FILES) before it
	 * begins, and fails with RL_EINTERNAL when it cannot. */
	bool xml_module;
	int (*render_all)(struct rl_export *x, const struct rl_sink *out);
	int (*render_page)(struct rl_export *x, size_t page, const struct rl_sink *out);
	int (*render_index)(struct rl_export *x, const struct rl_sink *out);
	const char *index_name;
};

/* The library's format named name, or NULL. */
const struct rl_export_format *rl_export_format_find(const char *name);

struct rl_export_opts {
	/* What: the rulings with tag ("Name" matches every qualifier, "Name
	 * (Qualifier)" one) as one page; else those a search for words finds;
	 * else (neither) every ruling. The selection is rl_search()'s with no
	 * limit: export and search select the same rulings (a tag's and a
	 * word's thesaurus equivalents, each concept within its game, unless
	 * no_thesaurus). */
	const char *tag;
	const char *const *words;
	size_t nwords;
	const char *lang, *game;             /* only these; NULL: any */
	bool no_thesaurus;                   /* tags and words only as given */
	const struct rl_export_format *format;
	/* Where: a file, or "-" for standard_output; for a page format
	 * without a tag, a directory (created when missing), written only
	 * when it is new, empty or a previous export (it holds
	 * .rulings-export, the list of the files an export wrote), or with
	 * force. A regular file (or a new one) is replaced whole through a
	 * temporary file renamed over it, a symbolic link followed to the
	 * file it names (the link stays), a FIFO or a character device
	 * written in place. */
	const char *output;
	const struct rl_sink *standard_output;
	bool force;
};

/* What an export did, for the caller's messages. */
struct rl_export_report {
	size_t rulings;         /* selected */
	size_t files;           /* files written (0 for standard output) */
	size_t untagged;        /* rulings on no page (txt: a page needs a tag) */
};

/* Selects, plans and writes an export, in one read transaction (one
 * snapshot of the database). RL_NOTFOUND when nothing is selected (txt
 * with a tag: when no ruling carries the tag itself); nothing is written
 * then. RL_EUSAGE: the output cannot take this export (a directory for
 * one file, standard output for a directory, a directory that is not a
 * previous export); RL_EIO: a file could not be written (an export's
 * directory then keeps its list, and the export can be run again). */
int rl_export(rl_db *db, const struct rl_export_opts *o,
              struct rl_export_report *rep);

/* For a renderer: the database, the selection in order (rl_search()'s
 * results; see records), and the options. */
rl_db *rl_export_db(const struct rl_export *x);
const struct rl_results *rl_export_results(const struct rl_export *x);
/* A renderer's failure: the message rl_db_errmsg() gives; returns
 * status. */
int rl_export_fail(struct rl_export *x, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Writes the rulings with these ids, in this order, to out as an XML
 * interchange document (schema/rulings.rng): each with its tags, aliases,
 * references, errata details, sources and versions, streamed: memory does
 * not grow with n. A character XML 1.0 cannot carry (a control character
 * other than tab and line breaks) is written as U+FFFD. RL_NOTFOUND: an id
 * names no ruling; RL_EDATA: a text is not UTF-8 (a damaged database);
 * RL_EIO: out failed. rl_db_errmsg() says which. */
int rl_export_xml_to(rl_db *db, const long long *ids, size_t n,
                     const struct rl_sink *out);
/* The same to a file, written whole or not at all (see rl_export()'s
 * output). */
int rl_export_xml(rl_db *db, const long long *ids, size_t n, const char *path);

/* A feed of changes (rl_changes()'s) as Atom 1.0 (RFC 4287), written to
 * out: one entry per change, its id stable (derived from the ruling's,
 * the document's and the version's identities and the kind of change,
 * never from row ids or the time of writing: another export, or another
 * database built from the same documents, gives the same ids), updated
 * the version's date, the document as author, the kind of change as a
 * category, the old and new texts as an XHTML word diff. */
struct rl_atom_feed {
	const char *title;      /* NULL: "Changes to rulings" in lang */
	const char *lang;       /* the feed's language (xml:lang, and its
	                           words'); NULL: that of most entries */
	const char *scope;      /* what the feed covers, from which its id is
	                           made ("" or NULL: every change) */
	const char *self;       /* the feed's own address, or NULL */
	const char *alternate;  /* the HTML page showing the same, or NULL */
	const char *const *links;   /* links[i]: the address of change i's
	                               ruling, or NULL; links NULL: none */
};
/* RL_EDATA: a text is not UTF-8 (a damaged database); RL_EIO: out
 * failed. The feed's updated is its newest entry's, or with no entry the
 * newest import's time. */
int rl_changes_atom(rl_db *db, const struct rl_change *v, size_t n,
                    const struct rl_atom_feed *f, const struct rl_sink *out);

/* A file name for a tag's page in an export directory (export_plan.c): an
 * ASCII slug of the tag, '-', 12 hex digits of the SHA-256 of the exact
 * tag, then ext (".html"; may be NULL). Never holds '/' nor starts with
 * '.'; the same tag always gives the same name, different tags different
 * ones. A new string, NULL when memory ran out. */
char *rl_export_filename(const char *tag, const char *ext);

#endif
