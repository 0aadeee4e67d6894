/* sink.h — writing output: a buffered writer over a struct rl_sink, and
 * the one place that puts an output file in place (outfile.c).
 *
 * Renderers append to a struct rl_out as they would to a stdio stream;
 * what they write goes to the sink in blocks. The first failure (the
 * sink's errno value, or a failed allocation) is kept and ends the
 * output: later appends do nothing, and rl_out_finish() says what went
 * wrong. */
#ifndef RL_SINK_H
#define RL_SINK_H

#include "rulings.h"
#include "util.h"

#include <stdbool.h>
#include <stddef.h>

struct rl_out {
	const struct rl_sink *sink;
	struct rl_buf b;
	int err;            /* the sink's first error (an errno value) */
};

void rl_out_init(struct rl_out *o, const struct rl_sink *sink);
void rl_out_add(struct rl_out *o, const char *s, size_t n);
void rl_out_adds(struct rl_out *o, const char *s);
void rl_out_addc(struct rl_out *o, char c);
void rl_out_addf(struct rl_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Whether the output still goes on (no error so far). */
bool rl_out_ok(const struct rl_out *o);
/* Writes what is buffered and frees the buffer: RL_OK, RL_EIO (the
 * sink's error, in o->err) or RL_ENOMEM. */
int rl_out_finish(struct rl_out *o);

/* ---- output files (outfile.c) ------------------------------------------ */

/* An output file being written. A regular file (or a new one) is written
 * to a temporary file in its directory and renamed over it when complete:
 * readers see the old file or the new one, whole. A symbolic link is
 * followed: its target is replaced that way and the link kept. A FIFO or
 * a character device is written directly. */
struct rl_outfile {
	char *path;       /* as given, for messages */
	char *target;     /* the file to replace, symbolic links followed;
	                     NULL when written directly */
	char *tmp;        /* the temporary file */
	int fd;
	int err;          /* the first write error (an errno value) */
	bool sync;        /* sync before the rename (the default; a page of
	                     a directory is not synced: hundreds of syncs) */
	struct rl_sink sink;   /* writes to fd */
};

/* Opens path for writing. RL_EIO with a message in db (rl_db_errmsg)
 * when it cannot be written, RL_EUSAGE when it is a directory. */
int rl_outfile_open(rl_db *db, struct rl_outfile *o, const char *path);
/* Finishes the file: with commit, syncs it and puts it in place; else
 * (or after a write error) removes the temporary file. RL_OK, or RL_EIO
 * with a message in db. */
int rl_outfile_close(rl_db *db, struct rl_outfile *o, bool commit);

/* Writes data whole to path, as above. */
int rl_outfile_write_all(rl_db *db, const char *path, const char *data,
                         size_t len);

#endif
