/* publish.c — rl_publish(): a copy of the database made to be served
 * read-only, from many machines at once.
 *
 * VACUUM INTO writes a consistent snapshot into a new file, page by page
 * and without free pages, while imports go on; it reads the database
 * only, so a read-only one can be published too. The copy is then made
 * compact for reading: each full-text index merged into one segment
 * (FTS5 'optimize'), the pages that frees given back (VACUUM), and it is
 * put in rollback-journal mode (journal_mode=DELETE), so that reading it
 * needs no -wal or -shm file and works on read-only media. It is checked
 * (PRAGMA integrity_check), written beside its destination and renamed
 * over it: readers of the old copy see it whole, then the new one whole. */
#include "db.h"
#include "stemtok.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What path may be replaced with: nothing there, or a rulings database (a
 * regular file whose header carries our application_id, or an empty
 * one). Follows a symbolic link: *target is the file to write. */
static int destination(rl_db *db, const char *path, char **target)
{
	*target = NULL;
	struct stat st;
	char *real = NULL;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		/* the link stays; what it points at is replaced */
		real = realpath(path, NULL);
		if (!real && errno != ENOENT)
			return rl_db_fail(db, RL_EIO, "cannot write '%s': %s", path,
			                  strerror(errno));
		if (!real) {
			char buf[PATH_MAX];
			ssize_t n = readlink(path, buf, sizeof buf - 1);
			if (n < 0)
				return rl_db_fail(db, RL_EIO, "cannot write '%s': %s",
				                  path, strerror(errno));
			buf[n] = '\0';
			if (buf[0] != '/' && strchr(path, '/')) {
				struct rl_buf b = {0};
				rl_buf_add(&b, path, (size_t)(strrchr(path, '/') - path + 1));
				rl_buf_adds(&b, buf);
				real = rl_buf_take(&b);
			} else {
				real = rl_strdup(buf);
			}
			if (!real)
				return RL_ENOMEM;
		}
	} else if (!(real = rl_strdup(path))) {
		return RL_ENOMEM;
	}
	int rc = RL_OK;
	if (stat(real, &st) == 0) {
		unsigned char h[100];
		int fd = S_ISREG(st.st_mode) ? open(real, O_RDONLY | O_CLOEXEC) : -1;
		ssize_t n = fd >= 0 ? read(fd, h, sizeof h) : -1;
		if (fd >= 0)
			close(fd);
		if (S_ISDIR(st.st_mode))
			rc = rl_db_fail(db, RL_EUSAGE, "'%s' is a directory: give the "
			                "file to write", path);
		else if (!S_ISREG(st.st_mode))
			rc = rl_db_fail(db, RL_EUSAGE, "'%s' is not a regular file",
			                path);
		else if (n != 0 && (n != (ssize_t)sizeof h ||
		         memcmp(h, "SQLite format 3", 16) != 0 ||
		         ((unsigned long)h[68] << 24 | (unsigned long)h[69] << 16 |
		          (unsigned long)h[70] << 8 | h[71]) != RL_APPLICATION_ID))
			rc = rl_db_fail(db, RL_EUSAGE, "'%s' exists and is not a "
			                "rulings database: not replaced", path);
		const char *self = sqlite3_db_filename(db->h, "main");
		struct stat me;
		if (!rc && self && *self && stat(self, &me) == 0 &&
		    me.st_dev == st.st_dev && me.st_ino == st.st_ino)
			rc = rl_db_fail(db, RL_EUSAGE, "'%s' is the database itself",
			                path);
	} else if (errno != ENOENT) {
		rc = rl_db_fail(db, RL_EIO, "cannot write '%s': %s", path,
		                strerror(errno));
	}
	if (rc)
		free(real);
	else
		*target = real;
	return rc;
}

/* The copy made compact and self-contained, then checked. */
static int finish_copy(rl_db *db, const char *tmp, const char *path)
{
	sqlite3 *h = NULL;
	int rc = sqlite3_open_v2(tmp, &h, SQLITE_OPEN_READWRITE |
	                         SQLITE_OPEN_NOMUTEX, NULL);
	if (rc == SQLITE_OK)
		rc = rl_stemtok_register(h);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(h, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL);
	for (size_t i = 0; i < 4 && rc == SQLITE_OK; i++) {
		char sql[128];
		snprintf(sql, sizeof sql, "INSERT INTO %s (%s) VALUES ('optimize')",
		         rl_fts_tables[i], rl_fts_tables[i]);
		rc = sqlite3_exec(h, sql, NULL, NULL, NULL);
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(h, "VACUUM", NULL, NULL, NULL);
	sqlite3_stmt *st = NULL;
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(h, "PRAGMA integrity_check", -1, &st, NULL);
	bool ok = false;
	if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		ok = strcmp((const char *)sqlite3_column_text(st, 0), "ok") == 0;
	sqlite3_finalize(st);
	int out;
	if (rc != SQLITE_OK && (rc & 0xFF) == SQLITE_NOMEM)
		out = rl_db_fail(db, RL_ENOMEM, "out of memory");
	else if (rc != SQLITE_OK)
		out = rl_db_fail(db, RL_EIO, "cannot write '%s': %s", path,
		                 h ? sqlite3_errmsg(h) : sqlite3_errstr(rc));
	else if (!ok)
		out = rl_db_fail(db, RL_EIO, "cannot write '%s': the copy does not "
		                 "pass PRAGMA integrity_check", path);
	else
		out = RL_OK;
	sqlite3_close(h);
	return out;
}

static int sync_path(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int r = fsync(fd);
	close(fd);
	return r;
}

static int publish(rl_db *db, const char *path, long long *bytes);

int rl_publish(rl_db *db, const char *path, long long *bytes)
{
	*bytes = 0;
	int rc = publish(db, path, bytes);
	if (rc == RL_ENOMEM)
		rl_db_fail(db, RL_ENOMEM, "out of memory");
	return rc;
}

static int publish(rl_db *db, const char *path, long long *bytes)
{
	char *target = NULL;
	int rc = destination(db, path, &target);
	if (rc)
		return rc;
	/* .NAME.publish-XXXXXX beside the destination */
	const char *slash = strrchr(target, '/');
	struct rl_buf b = {0};
	if (slash)
		rl_buf_add(&b, target, (size_t)(slash - target + 1));
	rl_buf_addf(&b, ".%s.publish-XXXXXX", slash ? slash + 1 : target);
	char *tmp = rl_buf_take(&b);
	char *dir = slash ? rl_strndup(target, (size_t)(slash - target + 1))
	                  : rl_strdup(".");
	if (!tmp || !dir) {
		free(tmp);
		free(dir);
		free(target);
		return RL_ENOMEM;
	}
	int fd = mkstemp(tmp);
	if (fd < 0) {
		rc = rl_db_fail(db, RL_EIO, "cannot write '%s': %s", path,
		                strerror(errno));
		free(tmp);
		free(dir);
		free(target);
		return rc;
	}
	close(fd);
	sqlite3_stmt *st = rl_db_prepare(db, "VACUUM INTO ?1");
	if (!st)
		rc = RL_EINTERNAL;
	if (!rc) {
		rl_bind_text(st, 1, tmp);
		int step = sqlite3_step(st);
		if (step != SQLITE_DONE)
			rc = (step & 0xFF) == SQLITE_NOMEM
			     ? rl_db_fail(db, RL_ENOMEM, "out of memory")
			     : rl_db_fail(db, RL_EIO, "cannot write '%s': %s", path,
			                  sqlite3_errmsg(db->h));
	}
	sqlite3_finalize(st);
	if (!rc)
		rc = finish_copy(db, tmp, path);
	struct stat s;
	mode_t mask = umask(0);
	umask(mask);
	if (!rc && (chmod(tmp, 0666 & ~mask) != 0 || sync_path(tmp, O_RDONLY) != 0 ||
	            stat(tmp, &s) != 0 || rename(tmp, target) != 0))
		rc = rl_db_fail(db, RL_EIO, "cannot write '%s': %s", path,
		                strerror(errno));
	if (!rc) {
		sync_path(dir, O_RDONLY | O_DIRECTORY);
		*bytes = (long long)s.st_size;
	} else {
		unlink(tmp);
	}
	free(tmp);
	free(dir);
	free(target);
	return rc;
}
