/*
 * rulings.h — the public interface of librulings.
 *
 * The library reads documents, keeps rulings in a SQLite database and answers
 * queries. It never prints and never exits: every function returns an
 * rl_status, fills its out-parameters only on success, and leaves messages for
 * the caller (rl_db_errmsg() for database errors, an rl_diags list for
 * problems found in input). Every *_free() function accepts NULL.
 *
 * Strings are UTF-8 and owned by the structure that holds them unless a
 * comment says otherwise.
 */
#ifndef RULINGS_H
#define RULINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Status codes. The command line maps them to exit statuses. */
enum rl_status {
	RL_OK = 0,
	RL_NOTFOUND,     /* no such ruling / nothing matched */
	RL_EUSAGE,       /* a bad argument: query syntax, unknown format */
	RL_EDATA,        /* input data refused (diagnostics say where) */
	RL_EIO,          /* a file or the database could not be read/written */
	RL_EBUSY,        /* the database is locked by another writer */
	RL_ENOMEM,       /* out of memory */
	RL_EINTERNAL     /* unexpected SQLite error, schema from the future */
};

const char *rl_status_name(int status);

/* ---- Diagnostics ------------------------------------------------------ */

enum rl_severity { RL_WARNING, RL_ERROR };

struct rl_diag {
	enum rl_severity severity;
	unsigned line;   /* 1-based; 0 when the message is about the whole file */
	unsigned col;    /* 1-based; 0 when unknown */
	char *message;   /* lowercase, no final period */
};

struct rl_diags {
	struct rl_diag *v;
	size_t n, cap;
	size_t errors, warnings;
};

int rl_diag_add(struct rl_diags *d, enum rl_severity sev, unsigned line,
                unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void rl_diags_clear(struct rl_diags *d);

/* ---- Sources: a file's bytes, checked and normalized -------------------- */

struct rl_source {
	char *name;          /* the path as given, for messages */
	char *text;          /* UTF-8, no BOM, LF line breaks, NUL-terminated */
	size_t len;          /* bytes in text */
	size_t raw_size;     /* bytes in the file as read */
	char sha256[65];     /* of the raw bytes, lowercase hex */
	const char *encoding;/* "utf-8", "utf-8-bom", "utf-16be", "utf-16le" or
	                        "windows-1252" (a static string) */
	char *decoded;       /* the text before it was composed (NFC), when
	                        that changed it, else NULL: for positions in
	                        the file (rl_source_column) */
	size_t decoded_len;
};

/* Reads a file: UTF-8 (with or without BOM), UTF-16 with BOM, or
 * Windows-1252 (bytes that are not UTF-8 and hold no UTF-8 sequence), made
 * NFC with LF line breaks. I/O errors give RL_EIO and an error diagnostic;
 * broken UTF-8 or UTF-16 and NUL bytes give RL_EDATA and an error at the
 * first bad byte's line and column (the file is refused whole, never
 * half-read). */
int rl_source_load(struct rl_source *src, const char *path, struct rl_diags *d);
/* The same for bytes in memory (tests, fuzzers); data is copied. */
int rl_source_from_memory(struct rl_source *src, const char *name,
                          const void *data, size_t len, struct rl_diags *d);
void rl_source_free(struct rl_source *src);
/* The column in the file of column col (in characters) of a line of
 * src->text: they differ where composing the text (NFC) joined a letter
 * and its accent. */
unsigned rl_source_column(const struct rl_source *src, unsigned line,
                          unsigned col);

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
/* The path of a file rulings ships, by name: "thesaurus.txt" (the
 * thesaurus a new database starts with) or "rulings.rng" (the RELAX NG
 * schema of the interchange format). From the source tree when the
 * program runs from its build directory, else from share/rulings beside
 * the installed program, else from the data directory it was built for.
 * A new string; NULL when there is no such file (or no memory). */
char *rl_data_file(const char *name);
/* A language guess for text: "en", "fr" or "ru". */
const char *rl_lang_detect(const char *text, size_t len);

/* ---- The database ------------------------------------------------------ */

typedef struct rl_db rl_db;

enum {
	RL_OPEN_READ = 0,       /* read only (SQLITE_OPEN_READONLY): never
	                           creates, upgrades or writes the file */
	RL_OPEN_WRITE = 1,      /* create it (and its directory) if missing,
	                           upgrade an older schema */
	RL_OPEN_FILE = 2,       /* refuse an in-memory or temporary database
	                           ('', ':memory:'): RL_EUSAGE */
	RL_OPEN_NO_UPGRADE = 4, /* with RL_OPEN_WRITE: neither create nor
	                           upgrade; use an older schema as it is
	                           (dry runs, whose writes are rolled back) */
};

/* Opens the database at path (a file name, or a "file:" URI such as
 * "file:rulings.db?immutable=1"). A file that is not a rulings database
 * (another application_id, or a schema that is not ours, or not SQLite)
 * is refused with RL_EIO and not changed at all. A reader reads a WAL
 * database in a read-only directory or mount as immutable when it has no
 * -wal file. With RL_OPEN_WRITE, a missing or empty database is created
 * and an older one upgraded, in one transaction (rl_db_info() says so).
 * On failure *out is a handle whose only use is rl_db_errmsg() and
 * rl_db_close(), or NULL when memory ran out. */
int rl_db_open(const char *path, int flags, rl_db **out);
/* How long a command waits for a lock another process holds, by default. */
enum { RL_BUSY_TIMEOUT_MS = 5000 };
/* rl_db_open() waiting busy_ms milliseconds (0: not at all) for a lock
 * another process holds before it fails with RL_EBUSY. */
int rl_db_open_wait(const char *path, int flags, int busy_ms, rl_db **out);
void rl_db_close(rl_db *db);
const char *rl_db_errmsg(const rl_db *db);
/* PRAGMA user_version; -1 when it cannot be read. */
int rl_db_schema_version(rl_db *db);
/* The schema version this rulings makes (and upgrades to). */
int rl_schema_latest(void);

/* What opening did. */
struct rl_open_info {
	int version;            /* the schema version the database has */
	bool created;           /* a new database was made */
	bool fresh;             /* no document has been imported into it yet
	                           (RL_OPEN_WRITE) */
	int upgraded_from;      /* the version it was upgraded from, or 0 */
	long long merged_rulings; /* rulings, and tags, the upgrade merged: */
	long long merged_tags;    /* equal under the new folding (see rl_fold) */
	bool immutable;         /* read as an unchanging file (no -wal, on a
	                           read-only directory or mount) */
};
const struct rl_open_info *rl_db_info(const rl_db *db);

/* A snapshot: the reads between rl_read_begin() and rl_read_end() see one
 * state of the database, whatever another process commits meanwhile.
 * Every read function below takes one for itself; a caller that reads
 * with several (an export: a selection, then each ruling) takes one
 * around them. They nest. rl_read_end() returns status, or the error of
 * ending the transaction when status was RL_OK. */
int rl_read_begin(rl_db *db);
int rl_read_end(rl_db *db, int status);

/* ---- Maintenance -------------------------------------------------------- */

/* Checks the database: PRAGMA integrity_check and foreign_key_check; that
 * every full-text table holds exactly the rulings of its language with
 * their present text (every token at its place, read-only, walking the
 * whole index); and rulings' invariants: every ruling has a source, no
 * reference points at a missing or withdrawn ruling, every fold column
 * and key is what this rulings' folding makes of its text. Each problem
 * found is passed to problem(ctx, message); *problems counts them. RL_OK
 * once the checks have run, whatever they found. */
int rl_check(rl_db *db, void (*problem)(void *ctx, const char *message),
             void *ctx, size_t *problems);
/* Recomputes the fold columns and keys (merging rulings and tags that
 * have become equal, counted in *merged_rulings and *merged_tags) and
 * rebuilds every full-text table, in one transaction. */
int rl_reindex(rl_db *db, long long *merged_rulings, long long *merged_tags);
/* Writes a copy of the database to path, made to be served read-only:
 * compacted (VACUUM INTO, the full-text indexes merged into one segment
 * each), self-contained (journal_mode=DELETE: no -wal or -shm file is
 * needed to read it), checked (PRAGMA integrity_check), written whole or
 * not at all (a temporary file beside path, renamed over it). An existing
 * path is replaced only when it is a rulings database; a symbolic link is
 * followed. *bytes is the copy's size. Reads the database only. */
int rl_publish(rl_db *db, const char *path, long long *bytes);

/* What importing one source did. */
struct rl_import_result {
	bool unchanged;         /* the same bytes are already an import of
	                           the document: nothing was written (but
	                           the merge below) */
	bool merged;            /* the document of no game with this title
	                           and format (an older database's) was merged
	                           into the document's game */
	long long import_id;
	size_t entries;         /* entries in the document */
	bool baseline;          /* the document's first import: no changes */
	size_t added;           /* rulings new to the database (or back) */
	size_t edited;          /* rulings whose text changed (white space aside) */
	size_t withdrawn;       /* rulings no document lists any more */
	size_t before;          /* rulings the document listed until then */
	size_t shortened;       /* of the edited: answers now only the
	                           beginning of their earlier text (a warning
	                           on each, when the caller asks) */
};

/* Stores a parsed document in one transaction: either all of it is stored
 * or nothing is. The document is identified by its game, format and title;
 * when one of its imports has the same checksum (its latest or an older
 * version), nothing is written and res->unchanged is set. */
int rl_store(rl_db *db, const struct rl_source *src, const struct rl_doc *doc,
             struct rl_import_result *res);
/* The same, but the transaction is rolled back: what storing would do,
 * with nothing written. */
int rl_store_dry(rl_db *db, const struct rl_source *src,
                 const struct rl_doc *doc, struct rl_import_result *res);
/* Bulk loading. Between rl_bulk_begin() and rl_bulk_end(), rl_store()
 * stores each document in a savepoint of one open write transaction: a
 * document that fails is still rolled back alone, but the documents
 * become visible (and durable) together when rl_bulk_end(db, true)
 * commits, and references are resolved once, then. A crash or kill before
 * that leaves the database as it was at rl_bulk_begin(). rl_bulk_end(db,
 * false) rolls every document of the load back. When an error made SQLite
 * roll the whole transaction back (disk full, out of memory), every later
 * rl_store() and rl_bulk_end() fail with RL_EIO: the load's documents are
 * to be stored again. rl_store_dry() cannot be part of a bulk load. */
int rl_bulk_begin(rl_db *db);
int rl_bulk_end(rl_db *db, bool commit);
/* True when bytes with this checksum are an import of a document (its
 * latest version or an older one), read by the format's current revision:
 * importing them again would change
 * nothing. */
int rl_store_seen(rl_db *db, const char *sha256, bool *seen);

/* ---- Importing files (import.c) --------------------------------------- */

/* What became of a file. */
enum rl_file_outcome {
	RL_FILE_IMPORTED,    /* stored (with a dry run: would be) */
	RL_FILE_UNCHANGED,   /* its bytes are already imported: nothing written */
	RL_FILE_SKIPPED,     /* found in a directory and not a document: binary,
	                        or of no format rulings knows */
	RL_FILE_FAILED,      /* not stored: status, diags and error say why */
	RL_FILE_REFUSED,     /* parsed, and not stored as a new version of its
	                        document: refusal says why (status RL_EDATA) */
};

/* Why a document is refused (or, in a dry run, would be). */
enum rl_refusal {
	RL_REFUSED_NONE,
	RL_REFUSED_WITHDRAW,  /* it would withdraw more of the document's
	                         rulings than opts allow (result says how many
	                         of how many) */
	RL_REFUSED_DAMAGED,   /* its text ends inside something unfinished
	                         (end, end_line), and opts do not accept
	                         damaged documents; result says what storing
	                         it would have done */
};

/* What the text ends inside, in words: "an entry", "a section", "a
 * rule", "a record"; "" for RL_END_COMPLETE. */
const char *rl_doc_end_name(enum rl_doc_end end);

/* Flags for rl_import_file(). */
enum {
	RL_IMPORT_DRY_RUN = 1,   /* rl_store_dry(): what storing would do */
	RL_IMPORT_FOUND = 2,     /* found in a directory: a binary file or one of
	                            no known format is skipped, not an error */
};

/* One file's import, for the caller's messages. Clear it with
 * rl_file_report_clear(). */
struct rl_file_report {
	char *path;
	bool found;               /* RL_IMPORT_FOUND */
	enum rl_file_outcome outcome;
	int status;               /* RL_OK, or why it failed */
	/* what reading and parsing said, and why a file is skipped; messages
	 * about the whole file have line 0 */
	struct rl_diags diags;
	char *error;              /* a failure the diagnostics do not hold (the
	                             database's message, "out of memory"), or
	                             NULL */
	/* once read */
	const char *encoding;     /* as rl_source's */
	size_t bytes;             /* the file's size */
	char sha256[65];          /* of its bytes, as rl_source's */
	/* once parsed (parsed set) */
	bool parsed;
	char *format, *lang, *title;   /* the document's */
	size_t concepts;          /* a thesaurus's concepts */
	size_t kinds[4];          /* its entries, by enum rl_kind */
	enum rl_doc_end end;      /* as rl_doc's: damaged unless complete */
	unsigned end_line;
	/* once stored (stored set); result.unchanged is also set for bytes
	 * found already imported before parsing */
	bool stored;
	struct rl_import_result result;
	/* the guard it fails: with RL_FILE_REFUSED, or with RL_FILE_IMPORTED
	 * in a dry run (it would be refused) */
	enum rl_refusal refusal;
	/* seconds from the start of the file to the end of each step */
	double read_seconds, parse_seconds, store_seconds;
};
void rl_file_report_clear(struct rl_file_report *r);

/* Imports one file: reads it (rl_source_load), passes it over when its
 * bytes are the latest import of a document and opts set nothing but
 * defaults (rl_store_seen), parses it (rl_parse) and stores it (rl_store,
 * or rl_store_dry with RL_IMPORT_DRY_RUN). Inside rl_bulk_begin() and
 * rl_bulk_end(), the document is part of the open load. opts may be NULL.
 * A new version of a document that fails opts' guards (limit) is rolled
 * back and refused: RL_FILE_REFUSED, status RL_EDATA; in a dry run it is
 * reported with its refusal and not refused. Answers cut short are
 * warnings in report->diags at their entries' lines. Returns
 * report->status: RL_OK for a file imported, unchanged or skipped. */
int rl_import_file(rl_db *db, const char *path,
                   const struct rl_import_opts *opts, unsigned flags,
                   struct rl_file_report *report);

/* What rl_import_paths() tells its caller as it goes. */
enum rl_import_event {
	RL_IMPORT_WALKED,     /* the paths are walked: files and bytes known */
	RL_IMPORT_READING,    /* path is being read and parsed */
	RL_IMPORT_STORING,    /* path is parsed and being stored */
	RL_IMPORT_DONE,       /* path is through; in a bulk load its report
	                         comes once its group is committed */
	RL_IMPORT_COMMITTING, /* a bulk group of group documents is being
	                         indexed and committed */
	RL_IMPORT_FILE,       /* report: what became of path, for good */
	RL_IMPORT_NOTICE,     /* diag: about path (a problem found walking
	                         it), or, path NULL, about the run */
};

struct rl_import_progress {
	enum rl_import_event event;
	const char *path;
	const struct rl_file_report *report;    /* RL_IMPORT_FILE */
	const struct rl_diag *diag;             /* RL_IMPORT_NOTICE */
	size_t files, files_done;     /* files to import, and done */
	uint64_t bytes, bytes_done;   /* their sizes when walked */
	size_t group;                 /* RL_IMPORT_COMMITTING */
	double elapsed;               /* seconds since the walk ended */
};

struct rl_import_run {
	const struct rl_import_opts *opts;    /* may be NULL */
	bool dry_run;
	bool bulk;                /* commit in groups (not with dry_run) */
	double group_seconds;     /* a group commits once it is this old */
	void (*progress)(void *ctx, const struct rl_import_progress *p);
	void *ctx;
};

/* What rl_import_paths() did. */
struct rl_import_summary {
	size_t imported, unchanged, skipped;
	size_t failed;            /* files, and paths the walk could not read */
	size_t refused;           /* documents refused (RL_FILE_REFUSED) */
	size_t added, edited, withdrawn;   /* rulings, over the files imported */
	size_t shortened;                  /* of the edited */
};

/* Imports files and directories: a directory is walked recursively in
 * byte order of names (hidden names passed over, each directory once
 * whatever symbolic links lead to it, to a depth of 64); each file is
 * imported as rl_import_file() does, one transaction per document, or with
 * bulk in groups (rl_bulk_begin(); a group that cannot be committed is
 * imported again file by file). After a database-busy failure the
 * remaining files are not tried. Returns the worst failure: RL_EBUSY, else
 * RL_EIO, else the first (RL_EDATA for a refused document); RL_OK when
 * every file was imported, unchanged or skipped. */
int rl_import_paths(rl_db *db, const char *const *paths, size_t n,
                    const struct rl_import_run *run,
                    struct rl_import_summary *sum);

/* ---- Queries ----------------------------------------------------------- */

struct rl_query {
	const char *const *words; size_t nwords;  /* full text; may be empty */
	bool raw;               /* words are FTS5 query syntax */
	const char *const *tags; size_t ntags;    /* all must match */
	const char *category;
	const char *kind;
	const char *lang;       /* NULL or "any": every language */
	const char *game;
	bool changed_only;      /* rulings the source marks as changed */
	bool include_withdrawn; /* withdrawn rulings too */
	const char *as_of;      /* rulings as they stood then (a date: its
	                           end; a time: rl_when_parse()), or NULL;
	                           RL_EUSAGE when it is neither */
	bool no_thesaurus;      /* match tags and words only as given */
	long limit;             /* <= 0: no limit */
	bool no_total;          /* when more match than limit, do not count
	                           them (total = -1): a query costs what its
	                           results do */
};

struct rl_source_ref {
	char *document;         /* the document's title (a tag page's tag) */
	char *path;             /* the file it was last imported from */
	char *date;             /* the document's own date, or NULL */
	unsigned line;
	int hidden_tags;        /* -1 when the page gave none */
};

struct rl_ref_out {
	char *kind, *target;
	long long target_id;    /* 0 when unresolved */
	char *target_rule, *target_title;
};

/* A numbered rule beside another: its ruling, number and title. */
struct rl_rule_ref {
	long long id;
	char *rule, *title;
};

struct rl_ruling {
	long long id;
	char *kind, *game, *lang, *title, *text, *rule, *category, *section;
	char *date, *author;    /* a dated ruling's own, or NULL */
	char *withdrawn_at;     /* when no document listed it any more, or NULL */
	bool changed;
	double score;           /* bm25, lower is better; 0 without words */
	char *snippet;          /* with \x02 … \x03 around matches; NULL without words */
	char **tags; size_t ntags;          /* display forms, sorted */
	int hidden_tags;        /* largest "N more..." of its pages, -1 if none */
	struct rl_source_ref *sources; size_t nsources;
	struct rl_errata *errata;           /* NULL unless kind is errata */
	struct rl_ref_out *refs; size_t nrefs;
	struct rl_ref_out *backlinks; size_t nbacklinks;  /* refs that point here */
	/* rl_show() of a numbered rule, among the current rules of its game:
	 * the rule it is under (702.19a: 702.19), the rules before and after
	 * it in number order, and the rules directly under it (702.19:
	 * 702.19a, 702.19b, ...). NULL and none otherwise. */
	struct rl_rule_ref *parent, *previous, *next;
	struct rl_rule_ref *subrules; size_t nsubrules;
};

struct rl_results {
	long long total;        /* every match, beyond the limit too; -1 when
	                           more matched than the limit and no_total
	                           said not to count them */
	struct rl_ruling *v;
	size_t n;
	char *unknown;          /* why nothing matches when a filter names what
	                           the database does not know: "no tag
	                           'Repeet'; did you mean 'Repeat'?"; else NULL */
};

#define RL_SNIPPET_OPEN  "\x02"
#define RL_SNIPPET_CLOSE "\x03"

/* Runs a search. q->words are the query language (man page, SEARCH
 * SYNTAX) unless q->raw; the options AND with them. Fills out on RL_OK and
 * on RL_NOTFOUND (nothing matched: out->n is 0, and out->unknown says why
 * when a tag, game, language or kind is unknown). */
int rl_search(rl_db *db, const struct rl_query *q, struct rl_results *out);
/* What a search is made of, for people and tests, one item a line: the
 * query as read ("query:"), the FTS5 expression that finds and ranks
 * ("match:") or only ranks ("rank:"), the subselects ("f1:"), the SQL
 * conditions over rulings r with their values written in ("where:"), what
 * ranks first ("first:") and the full-text tables. RL_NOTFOUND, with
 * rl_db_errmsg() saying why, for an unknown name. *out is malloc'd. */
int rl_search_explain(rl_db *db, const struct rl_query *q, char **out);
void rl_results_free(struct rl_results *r);
/* The rulings whose rule number is rule, in game (NULL: any game): one
 * per game that has the number (the most recently stored one, should a
 * game have several), with its game (NULL for none). RL_NOTFOUND when
 * there is none. */
int rl_find_rule(rl_db *db, const char *rule, const char *game,
                 long long **ids, char ***games, size_t *n);
/* One ruling with refs and backlinks. RL_NOTFOUND when id is unknown. */
int rl_show(rl_db *db, long long id, struct rl_ruling *out);
void rl_ruling_clear(struct rl_ruling *r);

struct rl_tag_count { char *name; long long count; };
/* The tags of current rulings (of game, unless NULL), with how many
 * rulings carry each: by name (case aside), or with by_count the most
 * carried first. RL_NOTFOUND when there is none. */
int rl_tags(rl_db *db, const char *game, bool by_count,
            struct rl_tag_count **out, size_t *n);
void rl_tags_free(struct rl_tag_count *v, size_t n);
/* RL_OK when the database knows the game (case aside), else RL_NOTFOUND
 * with rl_db_errmsg() "no game 'x'; did you mean 'y'?". */
int rl_game_check(rl_db *db, const char *name);

/* Cross-references, for listings: every one, or only those whose target
 * (a rule, a ruling, a term) does not exist. */
struct rl_xref {
	long long from_id;
	char *from_title, *from_rule, *kind, *target;
	long long target_id;    /* 0 when unresolved */
	char *path;             /* where the citing ruling was read */
	unsigned line;
};
int rl_xrefs(rl_db *db, bool dangling_only, const char *kind,
             struct rl_xref **out, size_t *n);
void rl_xrefs_free(struct rl_xref *v, size_t n);

/* ---- History ------------------------------------------------------------ */

/* One change to a ruling: "marked" (the source says the answer changed),
 * or what an import recorded: "added", "edited", "withdrawn". */
struct rl_change {
	long long id;           /* the ruling */
	long long import_id;    /* the import that made it (for marked: whose
	                           version first carries the mark) */
	char *change, *kind, *game, *lang, *rule, *title;
	char *old_title, *old_text;   /* NULL for marked and for new rulings */
	char *new_title, *new_text;   /* NULL for withdrawn */
	char *at;               /* the import's time (ISO 8601, UTC) */
	char *document;         /* the document whose import it was */
	char *date;             /* that version's date (see rl_documents()) */
};

struct rl_change_query {
	struct rl_query filter; /* tags, category, kind, lang, game */
	const char *since;      /* changes at or after this date or time */
	const char *from, *to;  /* --between: import IDs or dates/times */
	const char *document;   /* changes from this document's imports */
	bool marked;            /* include the source's own markers */
	bool recorded;          /* include the recorded changes */
	bool oldest_first;      /* the oldest version's changes first */
	long limit;             /* at most this many changes; <= 0: all */
};

/* Changes by version, the newest first (oldest_first: the oldest); in a
 * version the recorded changes by ruling, then the marked ones. RL_NOTFOUND
 * when none. */
int rl_changes(rl_db *db, const struct rl_change_query *q,
               struct rl_change **out, size_t *n);
void rl_changes_free(struct rl_change *v, size_t n);

/* Every version of one ruling: its texts in import order, with the change
 * each import made (or "baseline"), withdrawals included (no text). */
struct rl_version {
	long long import_id;
	char *change, *at, *document, *path;
	char *title, *text;     /* NULL for a withdrawal */
};
int rl_history(rl_db *db, long long id, struct rl_version **out, size_t *n);
void rl_history_free(struct rl_version *v, size_t n);

/* Every document and its versions (imports), for `rulings documents`. A
 * version's date is the one the document states (date_source "document")
 * or its import time ("imported"); added, edited and withdrawn are the
 * changes it recorded (a document's first version records none: there,
 * the rulings whose first text it gave and the other texts it gave),
 * unchanged its other entries. Documents by title, versions by date then
 * import number. game NULL: every game. RL_NOTFOUND when none. */
struct rl_doc_version {
	long long import_id;
	char *date, *date_source, *imported_at, *path;
	long long added, edited, withdrawn, unchanged;
};
struct rl_document {
	char *title, *game, *format, *lang;
	struct rl_doc_version *versions; size_t nversions;
};
int rl_documents(rl_db *db, const char *game, struct rl_document **out,
                 size_t *n);
void rl_documents_free(struct rl_document *v, size_t n);

/* A word-level diff (wdiff.c): runs of words kept (mark 0, from the new
 * text), removed (1, from the old) or added (2, from the new), white
 * space after them included, pointing into the two texts. A longest
 * common subsequence over words; texts too long for that (over four
 * million word pairs) give *whole set and the old text removed, the new
 * added. RL_OK or RL_ENOMEM; *ops is the caller's to free. */
struct rl_wdiff_op {
	int mark;
	const char *s;
	size_t n;
};
int rl_word_diff(const char *old, const char *new_text,
                 struct rl_wdiff_op **ops, size_t *nops, bool *whole);

/* The terms that mean the same as term (itself included), from the
 * thesaurus, for game (NULL: any game). */
int rl_synonyms(rl_db *db, const char *term, const char *game, char ***out,
                size_t *n);
void rl_strings_free(char **v, size_t n);

struct rl_count { char *key; long long count; };
struct rl_stats {
	long long rulings;      /* current ones */
	long long withdrawn;    /* no document lists them any more */
	long long tags, sources, imports, games;
	struct rl_count *languages; size_t nlanguages;
	struct rl_count *kinds; size_t nkinds;
	/* current rulings per game, by name; key NULL for those of no game */
	struct rl_count *by_game; size_t nby_game;
};
int rl_stats(rl_db *db, struct rl_stats *out);
void rl_stats_clear(struct rl_stats *s);

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
	size_t mixed;           /* txt pages whose rulings are in several
	                           languages */
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

/* A file name for a tag's page in an export directory (export_plan.c): an
 * ASCII slug of the tag, '-', 12 hex digits of the SHA-256 of the exact
 * tag, then ext (".html"; may be NULL). Never holds '/' nor starts with
 * '.'; the same tag always gives the same name, different tags different
 * ones. A new string, NULL when memory ran out. */
char *rl_export_filename(const char *tag, const char *ext);

#endif
