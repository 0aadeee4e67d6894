/* out.h — the output layer: everything a command prints as its result goes
 * through a struct out (after notmuch's sprinter). Three formats:
 *
 *   OUT_TEXT    for people: records drawn by their text renderer, every
 *               string written with control characters, bidi overrides
 *               and invalid UTF-8 made visible (^[, <U+202E>, <FF>, as
 *               less shows them), colour only when asked
 *   OUT_JSON    one pretty-printed JSON document, an object whose first
 *               member is "format_version": OUT_FORMAT_VERSION
 *   OUT_NDJSON  one compact JSON object a line for each record of the
 *               document's list, nothing else
 *
 * A command describes its document once, with no branch on the format:
 *
 *   out_begin(o);                         the document
 *   out_key(o, "total"); out_int(o, n);   members of the document itself
 *   out_list(o, "results", "\n");         its list of records
 *   out_record(o, &ruling_type, &r);      ... each drawn by its type
 *   out_list_end(o);
 *   out_end(o);
 *   return out_finish(o, status);         flush; errors become the status
 *
 * A record type has one renderer per kind of format (cmark's one renderer
 * per format): text() draws it for people with out_puts/out_printf/
 * out_style, data() gives its members with out_key and the value calls.
 * The structured calls write nothing in text; in NDJSON only inside a
 * record. The text calls write nothing but in text.
 *
 * Errors are carried, not lost: a renderer that cannot finish (an
 * allocation, a database read) calls out_fail(); from then on nothing more
 * is written, and out_finish() prints nothing more but returns the error's
 * exit status, so partial output never ends in exit 0. A write error on the
 * stream is "write failure on standard output" and exit 74. */
#ifndef RL_CLI_OUT_H
#define RL_CLI_OUT_H

#include <stdbool.h>
#include <stdio.h>

/* The version of every JSON document the command line writes; raised when
 * a member changes meaning or goes away (new members may come at any
 * time). The one place it is written down. */
#define OUT_FORMAT_VERSION 1

enum out_format { OUT_TEXT, OUT_JSON, OUT_NDJSON };

enum out_style {
	STYLE_ID,        /* a ruling's #ID */
	STYLE_BOLD,      /* titles, what happened */
	STYLE_DIM,       /* the line under a title */
	STYLE_MATCH,     /* the words a snippet matched */
	STYLE_REMOVED,   /* a word diff's removed words */
	STYLE_ADDED,     /* ... and added ones */
};

enum { OUT_MAX_DEPTH = 32 };

struct out {
	FILE *f;
	enum out_format fmt;
	bool color;
	int status;                 /* the first failure (rl_status), or 0 */
	int depth;                  /* JSON nesting */
	bool first[OUT_MAX_DEPTH];  /* nothing written yet at that depth */
	bool after_key;
	int record;                 /* > 0 inside out_record() */
	bool list_first;            /* no record of the list written yet */
	const char *sep;            /* text between records in text */
	const char *stream;         /* the stream's name, for messages */
};

struct out_type {
	void (*text)(struct out *o, const void *item);
	void (*data)(struct out *o, const void *item);
};

/* stream is the name for messages ("standard output"); colour applies to
 * text only. */
void out_init(struct out *o, FILE *f, const char *stream,
              enum out_format fmt, bool color);

/* ---- the document ------------------------------------------------------ */
void out_begin(struct out *o);
void out_end(struct out *o);
/* The document's list of records under key; sep is written between two
 * records in text. */
void out_list(struct out *o, const char *key, const char *sep);
void out_list_end(struct out *o);
void out_record(struct out *o, const struct out_type *t, const void *item);
/* A document that is one record: its members in the document's object
 * (after format_version), its text as for a record. */
void out_fields(struct out *o, const struct out_type *t, const void *item);
/* The whole document of one record: out_begin, out_fields, out_end. */
void out_document(struct out *o, const struct out_type *t, const void *item);

/* ---- structured values (JSON, NDJSON) ------------------------------------ */
void out_begin_map(struct out *o);
void out_end_map(struct out *o);
void out_begin_list(struct out *o);
void out_end_list(struct out *o);
void out_key(struct out *o, const char *key);
void out_string(struct out *o, const char *s);     /* NULL: null */
void out_int(struct out *o, long long v);
void out_int_or_null(struct out *o, long long v, bool present);
void out_double(struct out *o, double v);
void out_bool(struct out *o, bool v);
void out_null(struct out *o);
/* key, and a list of the n strings of v. */
void out_strings(struct out *o, const char *key, char *const *v, size_t n);

/* ---- text ---------------------------------------------------------------- */
/* s, its control characters made visible (line breaks and tabs kept). */
void out_puts(struct out *o, const char *s);
void out_putn(struct out *o, const char *s, size_t n);
void out_printf(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Colour on (when the output has colour) until out_style_end(). */
void out_style(struct out *o, enum out_style style);
void out_style_end(struct out *o);
/* s in a style. */
void out_styled(struct out *o, enum out_style style, const char *s);

/* ---- errors -------------------------------------------------------------- */
/* The output cannot be completed: prints "rulings: message" now (unless
 * fmt is NULL: the caller said it already), keeps the first rl_status and
 * stops all further output. */
void out_fail(struct out *o, int rl_status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool out_ok(const struct out *o);
/* Flushes the stream: the exit status, status unless the output failed
 * (the failure's exit status) or could not be written (74, with a
 * message). */
int out_finish(struct out *o, int status);

/* ---- escaping, for messages too ------------------------------------------ */
/* Writes s[0..n) to f for a terminal: C0 controls but tab and line feed
 * as ^X, DEL as ^?, C1 controls and the bidi embedding, override and
 * isolate controls as <U+XXXX>, bytes that are not UTF-8 as <XX>. */
void out_escape(FILE *f, const char *s, size_t n);

#endif
