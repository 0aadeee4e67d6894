/*
 * rulings/document.h — part of the public interface of librulings (rulings.h
 * includes every part; include rulings.h, not this file).
 * Documents (what an importer makes of a source) and the text helpers.
 */
#ifndef RULINGS_DOCUMENT_H
#define RULINGS_DOCUMENT_H

#include "base.h"

/* ---- Documents: what an importer makes of a source ---------------------- */

/* The kinds of rulings and of references, defined here once: their names
 * are NULL past the last kind, so for (k = 0; rl_kind_name(k); k++) lists
 * them; a name that is none of them is RL_EUSAGE. */
enum rl_kind { RL_KIND_FAQ, RL_KIND_ERRATA, RL_KIND_RULE, RL_KIND_GLOSSARY };
const char *rl_kind_name(enum rl_kind k);
int rl_kind_parse(const char *s, enum rl_kind *out);

enum rl_ref_kind {
	RL_REF_PAGE, RL_REF_RULE, RL_REF_DISCUSSION, RL_REF_RULING, RL_REF_TERM,
	RL_REF_URL
};
const char *rl_ref_kind_name(enum rl_ref_kind k);
/* The kind a name (rl_ref_kind_name's) names; RL_EUSAGE for none. */
int rl_ref_kind_parse(const char *s, enum rl_ref_kind *out);
/* Whether references of kind k name something the store looks up (a rule,
 * a ruling, a term): unresolved ones are dangling. Pages, discussions and
 * web addresses are not looked up. */
bool rl_ref_kind_resolves(enum rl_ref_kind k);

struct rl_tag {
	char *name;
	char *qualifier;   /* NULL when the tag has none */
};

struct rl_ref {
	enum rl_ref_kind kind;
	char *target;
};

struct rl_errata {
	char *product, *printing, *document, *page;   /* each may be NULL */
};

struct rl_strset;

struct rl_entry {
	enum rl_kind kind;
	unsigned line;          /* where the entry starts in the source */
	char *key;              /* identity: normalized question, rule, term */
	char *title;
	char *text;
	char *section, *category, *rule;   /* may be NULL */
	bool changed;           /* the source marks the ruling as changed */
	int hidden_tags;        /* "N more..." on the tags line; -1 if absent */
	struct rl_tag *tags;  size_t ntags;
	struct rl_ref *refs;  size_t nrefs;
	struct rl_errata *errata;           /* errata details or NULL */
	char **aliases; size_t naliases;    /* other names references may use */
	char *date, *author;    /* a dated ruling's own date and author */
	/* The ruling's own game and language, when they are not the
	 * document's (an interchange file holds many of each); NULL: the
	 * document's. */
	char *game, *lang;
	struct rl_strset *ref_index;   /* doc.c's: refs by kind and target */
	struct rl_strset *tag_index;   /* doc.c's: tags by identity */
	/* doc.c's, once the entry absorbed another (rl_entry_absorb): its
	 * text's room and paragraphs */
	struct rl_entry_merge *merge;
};

/* A thesaurus concept: terms that mean the same, across languages. */
struct rl_term {
	char *term;
	char *lang;             /* NULL when the thesaurus does not say */
};

struct rl_concept {
	char *game;             /* NULL: every game */
	unsigned line;
	struct rl_term *terms;
	size_t nterms;
};

/* Where a document's text ends, as its format's recognizer saw it: after
 * what it had begun was finished, or inside an entry, a section, a rule or
 * a record (a file cut short, perhaps); end_line is where that began. */
enum rl_doc_end {
	RL_END_COMPLETE, RL_END_IN_ENTRY, RL_END_IN_SECTION, RL_END_IN_RULE,
	RL_END_IN_RECORD
};

struct rl_doc {
	char *format;           /* importer name */
	char *title;            /* document identity within its game */
	char *game;             /* NULL when neither document nor caller says */
	char *lang;             /* ISO 639-1 code */
	char *date;             /* the document's own date (YYYY-MM-DD), or NULL */
	struct rl_tag *page_tag;/* a tag page's own tag, given to every entry */
	struct rl_entry *entries;
	size_t n, cap;
	struct rl_concept *concepts;   /* a thesaurus's concepts */
	size_t nconcepts;
	unsigned revision;      /* the format's revision that read it: the
	                           store reads again bytes it imported with an
	                           older one */
	enum rl_doc_end end;    /* RL_END_COMPLETE unless the text ends inside
	                           something unfinished */
	unsigned end_line;      /* where that began */
};

void rl_doc_free(struct rl_doc *doc);

/* How many of a document's rulings a new version of it may withdraw
 * (those no document lists any more); a version that would withdraw more
 * is refused. */
enum rl_withdraw_limit {
	RL_WITHDRAW_DEFAULT,    /* up to half of them, or up to 4 */
	RL_WITHDRAW_ANY,        /* no limit */
	RL_WITHDRAW_COUNT,      /* up to max_withdraw */
	RL_WITHDRAW_PERCENT,    /* up to max_withdraw percent of them */
};

/* Options an importer takes from the caller. */
struct rl_import_opts {
	const char *game;       /* used when the document names no game */
	const char *lang;       /* overrides language detection */
	const char *format;     /* importer name; NULL = detect from content */
	const char *document;   /* the document's title (its identity), over
	                           the one the importer finds */
	const char *date;       /* YYYY-MM-DD: the version's date when the
	                           document states none (date_source 'given');
	                           a date the document states wins */
	/* The import layer's guards (rl_import_file(); rl_parse() ignores
	 * them): what a document may be, and what a new version of one may
	 * do. */
	bool accept_damaged;            /* store a document whose text ends
	                                   inside something (doc->end) */
	enum rl_withdraw_limit limit;   /* rulings it may withdraw */
	unsigned long max_withdraw;     /* RL_WITHDRAW_COUNT: rulings;
	                                   RL_WITHDRAW_PERCENT: percent of the
	                                   document's rulings */
};

/* True when a version that withdraws withdrawn of the before rulings its
 * document listed is within o's limit (o may be NULL: the default). */
bool rl_withdraw_allowed(const struct rl_import_opts *o, size_t withdrawn,
                         size_t before);

/* Detects the format (unless opts->format names one) and parses src into
 * doc. RL_EUSAGE: unknown format name; RL_NOTFOUND: no importer recognizes
 * the content; RL_EDATA: the importer refused it (see d). */
int rl_parse(const struct rl_source *src, const struct rl_import_opts *opts,
             struct rl_doc *doc, struct rl_diags *d);

/* The importers, for listings. */
size_t rl_importer_count(void);
const char *rl_importer_name(size_t i);
const char *rl_importer_description(size_t i);

/* ---- Text helpers used across the library (and tested alone) ----------- */

/* Identity folding (utf8proc): Unicode's full case folding, NFC, ё as е,
 * and typographic apostrophes and quotes made plain (’ ‘ ‛ ʼ ′ ` → ',
 * “ ” „ ‟ ″ « » → "): "Lightning’s Boon" and "LIGHTNING'S BOON", "Straße"
 * and "STRASSE", "ΟΔΟΣ" and "οδος" fold alike. Bytes that are not UTF-8
 * count as U+FFFD. Returns a new string, NULL on allocation failure. */
char *rl_fold(const char *s);
/* The identity key of a title: rl_fold(), dashes made plain, white space
 * (any space separator) collapsed and trimmed, … as "...". */
char *rl_key(const char *s);
/* rl_key() without the accents the full-text tokenizer takes away
 * ("Défendre" and "defendre" meet, so do "Ș" and "s"): how thesaurus
 * terms and aliases are looked up. */
char *rl_key_loose(const char *s);
/* Only the apostrophes and quotes of rl_fold() made plain (and NFC): what
 * a query's words go through. */
char *rl_fold_quotes(const char *s);
/* Splits "Name (Qualifier)" into a tag. Returns RL_EDATA when s is empty. */
int rl_tag_parse(const char *s, struct rl_tag *out);
/* A tag's one identity, however it arrives: what rl_tag_parse() makes of
 * its display form (rl_tag_display()). name "A (B)" and name "A" with
 * qualifier "B" are both {A, B}; name "x" with qualifier "y) (z" and name
 * "x (y)" with qualifier "z" are both {x (y), z}. Canonical tags are
 * their display forms' parses, so different tags display differently.
 * RL_EDATA when the tag is empty. */
int rl_tag_canonical(const char *name, const char *qualifier,
                     struct rl_tag *out);
void rl_tag_clear(struct rl_tag *t);
/* "Name (Qualifier)" or "Name"; a new string. */
char *rl_tag_display(const char *name, const char *qualifier);
/* A date or time a user gives: "2026-01-16", or "2026-01-16T10:00" with
 * optional seconds (":30") and zone ("Z", "+02:00", "-0530", "+02"); a time
 * without a zone is UTC. The calendar is checked (no 02-30, month 13, hour
 * 24 or 25, second 60). Fills out with the UTC time "YYYY-MM-DDTHH:MM:SSZ",
 * the form imports are stamped with: the first second of a date or minute,
 * or with end its last. RL_EUSAGE when s is no such date or time
 * (rl_when_forms says what is accepted, for messages). */
enum { RL_WHEN_SIZE = 21 };
int rl_when_parse(const char *s, bool end, char out[RL_WHEN_SIZE]);
extern const char rl_when_forms[];
/* Is s a day of the calendar written YYYY-MM-DD (a version's date: no
 * time, no zone)? */
bool rl_day_valid(const char *s);
/* The path of a file rulings ships, by name: "thesaurus.txt" (the
 * thesaurus a new database starts with) or "rulings.rng" (the RELAX NG
 * schema of the interchange format). From the source tree when the
 * program runs from its build directory, else from share/rulings beside
 * the installed program, else from the data directory it was built for.
 * A new string; NULL when there is no such file (or no memory). */
char *rl_data_file(const char *name);
/* A language guess for text: "en", "fr" or "ru". */
const char *rl_lang_detect(const char *text, size_t len);

#endif
