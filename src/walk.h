/* walk.h — the files an import reads: the paths it is given, directories
 * walked (walk.c). */
#ifndef RL_WALK_H
#define RL_WALK_H

#include "rulings.h"
#include "util.h"

#include <stdbool.h>
#include <stdint.h>

struct walk_file {
	char *path;
	bool found;               /* found in a directory (not named) */
	uint64_t size;            /* as the walk saw it */
	size_t rootlen;           /* path's first rootlen bytes: the directory
	                             given (or, for a file given, its own);
	                             manifests are looked for up to it */
};

/* What a walk reports about a path: a warning (passed over) or an error
 * (a failure of the import: status says which). */
typedef void (*walk_notice_fn)(void *ctx, const char *path,
                               enum rl_severity sev, int status,
                               const char *message);

struct walk {
	struct walk_file *v;
	size_t n, cap;
	uint64_t bytes;
	size_t rootlen;           /* of the path being walked */
	struct rl_strset dirs;    /* device and inode of the directories walked */
	walk_notice_fn notice;
	void *ctx;
};

/* Adds path: a file as it is, a directory's files (walk.c says how).
 * RL_ENOMEM when memory ran out; every other problem is a notice. */
int walk_path(struct walk *w, const char *path);
void walk_free(struct walk *w);

#endif
