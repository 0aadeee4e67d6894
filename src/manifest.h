/* manifest.h — a directory's manifest (manifest.c): the game, language
 * and date of the documents below it, for those that do not say. */
#ifndef RL_MANIFEST_H
#define RL_MANIFEST_H

#include <stddef.h>

/* The manifest's file name in a directory. */
#define RL_MANIFEST_NAME ".rulings"

struct manifest {
	char *game, *lang, *date;   /* NULL: none says */
	char *date_path;            /* the manifest whose date it is, and */
	unsigned date_line;         /* the line that says it */
};

/* A manifest that cannot be read: its path, the line at fault (0 for an
 * I/O error) and what is wrong there ("unknown key 'x' ..."). */
struct manifest_error {
	char *path;
	unsigned line;
	char *msg;
};
void manifest_error_free(struct manifest_error *e);

/* What the manifests say of file: those in its directory and in each
 * directory above it whose path is at least rootlen bytes long (the
 * directory the walk was given), read nearest first; a nearer one's key
 * wins over a farther one's. On failure *err says where and what (free
 * it with manifest_error_free(); nothing in it on RL_ENOMEM) and the
 * status is RL_EDATA (a bad line), RL_EIO (unreadable) or RL_ENOMEM. */
int manifest_find(const char *file, size_t rootlen, struct manifest *m,
                  struct manifest_error *err);
void manifest_free(struct manifest *m);

#endif
