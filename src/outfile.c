/* outfile.c — the one place that writes an output file (sink.h): export
 * pages, single-file exports, XML interchange files and an export
 * directory's list.
 *
 * What "replace the file" means depends on what is there:
 *   - a regular file, or nothing: a temporary file in the same directory
 *     (".rulings-tmp-XXXXXX", hidden), synced (unless the caller says
 *     otherwise) and renamed over it, so that readers see the old file or
 *     the new one, never half of one; an existing file's permission bits
 *     are kept;
 *   - a symbolic link: followed (through any chain of links, a dangling
 *     one too) to the file it names, which is replaced as above; the
 *     link stays;
 *   - a FIFO or a character device (/dev/null, a terminal): opened and
 *     written in place — renaming over it would destroy it;
 *   - a directory, a socket, a block device: refused. */
#include "db.h"
#include "sink.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Links followed before giving up, as the kernel does (ELOOP). */
enum { MAX_LINKS = 40 };

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

static char *read_link(const char *path)
{
	for (size_t cap = 256; cap <= 65536; cap *= 2) {
		char *buf = malloc(cap);
		if (!buf)
			return NULL;
		ssize_t n = readlink(path, buf, cap);
		if (n < 0) {
			int e = errno;
			free(buf);
			errno = e;
			return NULL;
		}
		if ((size_t)n < cap) {
			buf[n] = '\0';
			return buf;
		}
		free(buf);
	}
	errno = ENAMETOOLONG;
	return NULL;
}

/* The length of the directory part of path, its last '/' included (0
 * when there is none). */
static size_t dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? (size_t)(slash - path) + 1 : 0;
}

/* path with its symbolic links followed to the file they name, which may
 * not exist yet; NULL with errno set when that fails. */
static char *resolve(const char *path)
{
	char *p = strdup(path);
	for (int hops = 0; p; hops++) {
		struct stat st;
		if (lstat(p, &st) != 0) {
			if (errno == ENOENT)
				return p;         /* a new file */
			break;
		}
		if (!S_ISLNK(st.st_mode))
			return p;
		if (hops == MAX_LINKS) {
			errno = ELOOP;
			break;
		}
		char *link = read_link(p);
		if (!link)
			break;
		size_t d = link[0] == '/' ? 0 : dir_len(p);
		char *next = malloc(d + strlen(link) + 1);
		if (next) {
			memcpy(next, p, d);
			strcpy(next + d, link);
		}
		free(link);
		free(p);
		p = next;
	}
	int e = errno;
	free(p);
	errno = e;
	return NULL;
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
	*o = (struct rl_outfile){ .fd = -1, .sync = true };
	o->sink = (struct rl_sink){ write_fd, o };
	if (!(o->path = strdup(path)))
		return fail_errno(db, path, ENOMEM);
	struct stat st;
	int rc = RL_OK;
	if (stat(path, &st) != 0) {
		if (errno != ENOENT)
			rc = fail_errno(db, path, errno);
		st.st_mode = 0;
	} else if (S_ISDIR(st.st_mode)) {
		rc = rl_db_fail(db, RL_EUSAGE, "cannot write '%s': it is a "
		                "directory", path);
	} else if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
		o->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		return o->fd < 0 ? fail_errno(db, path, errno) : RL_OK;
	} else if (!S_ISREG(st.st_mode)) {
		rc = rl_db_fail(db, RL_EIO, "cannot write '%s': not a regular "
		                "file, FIFO or character device", path);
	}
	if (!rc && !(o->target = resolve(path)))
		rc = fail_errno(db, path, errno);
	if (!rc) {
		mode_t mode = st.st_mode & 07777;
		if (!S_ISREG(st.st_mode)) {
			mode_t mask = umask(0);
			umask(mask);
			mode = 0666 & ~mask;
		}
		rc = open_temp(db, o, mode);
	}
	if (rc)
		rl_outfile_close(db, o, false);
	return rc;
}

int rl_outfile_close(rl_db *db, struct rl_outfile *o, bool commit)
{
	int rc = RL_OK;
	if (commit && o->err)
		rc = fail_errno(db, o->path, o->err);
	if (commit && !rc && o->tmp && o->sync && fsync(o->fd) != 0)
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
