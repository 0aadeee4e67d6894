/*
 * rulings/base.h — part of the public interface of librulings (rulings.h
 * includes every part; include rulings.h, not this file).
 * Status codes, diagnostics and sources: what every other part uses.
 */
#ifndef RULINGS_BASE_H
#define RULINGS_BASE_H

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

#endif
