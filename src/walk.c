/* walk.c — the files of an import: each path given, and the files below
 * each directory given, depth first, in byte order of names.
 *
 * Names beginning with '.' are passed over. Symbolic links are followed,
 * but every directory is walked once, known by its device and inode: a
 * link back to a directory being walked (a loop: `a -> .`) or to one
 * walked already is passed over with a warning, so that two links to "."
 * cannot make the walk exponential and one cannot send it down to the
 * depth limit. FIFOs, sockets and devices found in a directory are passed
 * over with a warning (opening a FIFO would wait for a writer). A path
 * given that does not exist, a directory that cannot be listed and one
 * nested deeper than MAX_DEPTH are errors of the import; the walk goes on
 * with the rest. */
#include "walk.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { MAX_DEPTH = 64 };

static int add(struct walk *w, const char *path, bool found, uint64_t size)
{
	char *p = strdup(path);
	if (!p || !rl_grow(&w->v, &w->cap, w->n + 1, sizeof *w->v)) {
		free(p);
		return RL_ENOMEM;
	}
	w->v[w->n++] = (struct walk_file){ p, found, size, w->rootlen };
	w->bytes += size;
	return RL_OK;
}

static void notice(struct walk *w, const char *path, enum rl_severity sev,
                   const char *what, const char *why)
{
	char msg[512];
	snprintf(msg, sizeof msg, "%s%s", what, why);
	w->notice(w->ctx, path, sev, sev == RL_ERROR ? RL_EIO : RL_OK, msg);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int not_hidden(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Records a directory as walked: 1 when it is new, 0 when it was walked
 * already, -1 when memory ran out. */
static int first_visit(struct walk *w, const struct stat *st)
{
	char key[64];
	int n = snprintf(key, sizeof key, "%llx:%llx",
	                 (unsigned long long)st->st_dev,
	                 (unsigned long long)st->st_ino);
	return rl_strset_add(&w->dirs, key, (size_t)n);
}

static int walk_dir(struct walk *w, const char *dir, const struct stat *st,
                    int depth);

/* One entry of a directory: a file, a directory, or something passed
 * over. */
static int walk_entry(struct walk *w, const char *path, int depth)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		notice(w, path, RL_ERROR, "", strerror(errno));
		return RL_OK;
	}
	if (S_ISDIR(st.st_mode))
		return walk_dir(w, path, &st, depth + 1);
	if (!S_ISREG(st.st_mode)) {
		notice(w, path, RL_WARNING, "not a regular file (a FIFO, socket "
		       "or device); skipped", "");
		return RL_OK;
	}
	return add(w, path, true, (uint64_t)st.st_size);
}

static int walk_dir(struct walk *w, const char *dir, const struct stat *st,
                    int depth)
{
	if (depth > MAX_DEPTH) {
		notice(w, dir, RL_ERROR, "directories nested too deep; not "
		       "followed", "");
		return RL_OK;
	}
	int first = first_visit(w, st);
	if (first < 0)
		return RL_ENOMEM;
	if (!first) {
		notice(w, dir, RL_WARNING, "a directory walked already (a "
		       "symbolic link leads to it again); skipped", "");
		return RL_OK;
	}
	struct dirent **names;
	int n = scandir(dir, &names, not_hidden, by_name);
	if (n < 0) {
		notice(w, dir, RL_ERROR, "cannot read directory: ", strerror(errno));
		return RL_OK;
	}
	int rc = RL_OK;
	bool slash = dir[strlen(dir) - 1] == '/';
	for (int i = 0; i < n; i++) {
		size_t len = strlen(dir) + strlen(names[i]->d_name) + 2;
		char *path = rc ? NULL : malloc(len);
		if (path) {
			snprintf(path, len, "%s%s%s", dir, slash ? "" : "/",
			         names[i]->d_name);
			rc = walk_entry(w, path, depth);
		} else {
			rc = RL_ENOMEM;
		}
		free(path);
		free(names[i]);
	}
	free(names);
	return rc;
}

int walk_path(struct walk *w, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		notice(w, path, RL_ERROR, "cannot open: ", strerror(errno));
		return RL_OK;
	}
	size_t len = strlen(path);
	if (S_ISDIR(st.st_mode)) {
		while (len > 1 && path[len - 1] == '/')
			len--;
		w->rootlen = len;
		return walk_dir(w, path, &st, 0);
	}
	const char *slash = strrchr(path, '/');
	w->rootlen = !slash ? 0 : slash == path ? 1 : (size_t)(slash - path);
	/* a file named is read whatever it is: a FIFO or a device is refused
	 * when it is opened, with its own message */
	return add(w, path, false, S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0);
}

void walk_free(struct walk *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->v[i].path);
	free(w->v);
	rl_strset_free(&w->dirs);
	*w = (struct walk){0};
}
