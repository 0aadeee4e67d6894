/* outfile.c — the one place that writes an output file (sink.h): export
 * pages, single-file exports, XML interchange files and an export
 * directory's list. A file is written to a temporary file in the same
 * directory (".rulings-tmp-XXXXXX", hidden), synced and renamed over the
 * target, so that readers see the old file or the new one, never half of
 * one. */
#include "db.h"
#include "sink.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char TMP_NAME[] = ".rulings-tmp-XXXXXX";

static int write_fd(void *ctx, const void *data, size_t n)
{
	struct rl_outfile *o = ctx;
	const char *p = data;
	while (!o->err && n) {
		ssize_t w = write(o->fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			o->err = w < 0 ? errno : EIO;
			break;
		}
		p += w;
		n -= (size_t)w;
	}
	return o->err;
}

/* The length of the directory part of path, its last '/' included (0
 * when there is none). */
static size_t dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? (size_t)(slash - path) + 1 : 0;
}

static int fail_errno(rl_db *db, const char *path, int e)
{
	if (e == ENOMEM)
		return rl_db_fail(db, RL_ENOMEM, "out of memory");
	return rl_db_fail(db, RL_EIO, "cannot write '%s': %s", path, strerror(e));
}

/* The temporary file beside target, with the mode the new file gets. */
static int open_temp(rl_db *db, struct rl_outfile *o, mode_t mode)
{
	size_t d = dir_len(o->target);
	if (!(o->tmp = malloc(d + sizeof TMP_NAME)))
		return fail_errno(db, o->path, ENOMEM);
	memcpy(o->tmp, o->target, d);
	strcpy(o->tmp + d, TMP_NAME);
	o->fd = mkstemp(o->tmp);
	if (o->fd >= 0)
		fcntl(o->fd, F_SETFD, FD_CLOEXEC);
	if (o->fd < 0) {
		int e = errno;
		free(o->tmp);
		o->tmp = NULL;
		return fail_errno(db, o->path, e);
	}
	if (fchmod(o->fd, mode) != 0)
		return fail_errno(db, o->path, errno);
	return RL_OK;
}

int rl_outfile_open(rl_db *db, struct rl_outfile *o, const char *path)
{
	*o = (struct rl_outfile){ .fd = -1 };
	o->sink = (struct rl_sink){ write_fd, o };
	if (!(o->path = strdup(path)) || !(o->target = strdup(path))) {
		rl_outfile_close(db, o, false);
		return fail_errno(db, path, ENOMEM);
	}
	mode_t mask = umask(0);
	umask(mask);
	int rc = open_temp(db, o, 0666 & ~mask);
	if (rc)
		rl_outfile_close(db, o, false);
	return rc;
}

int rl_outfile_close(rl_db *db, struct rl_outfile *o, bool commit)
{
	int rc = RL_OK;
	if (commit && o->err)
		rc = fail_errno(db, o->path, o->err);
	if (commit && !rc && o->tmp && fsync(o->fd) != 0)
		rc = fail_errno(db, o->path, errno);
	if (o->fd >= 0 && close(o->fd) != 0 && commit && !rc)
		rc = fail_errno(db, o->path, errno);
	if (commit && !rc && o->tmp && rename(o->tmp, o->target) != 0)
		rc = fail_errno(db, o->path, errno);
	if ((rc || !commit) && o->tmp)
		unlink(o->tmp);
	free(o->path);
	free(o->target);
	free(o->tmp);
	*o = (struct rl_outfile){ .fd = -1 };
	return rc;
}

int rl_outfile_write_all(rl_db *db, const char *path, const char *data,
                         size_t len)
{
	struct rl_outfile o;
	int rc = rl_outfile_open(db, &o, path);
	if (rc)
		return rc;
	write_fd(&o, data, len);
	return rl_outfile_close(db, &o, true);
}
