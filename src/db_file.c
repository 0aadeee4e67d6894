/* db_file.c — whose file it is: a database file's header read with
 * read(2) before SQLite may change a byte of it; a file with no
 * application_id told apart (an older rulings schema, an empty one or a
 * foreign file) through its own read-only connection; the immutable URI
 * a file is read through when its -wal and -shm files cannot be made;
 * the directory a new database goes into. */
#include "db.h"
#include "db_open.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


static unsigned long be32(const unsigned char *p)
{
	return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 |
	       (unsigned long)p[2] << 8 | p[3];
}

/* Reads the 100-byte header of file with read(2): DB_NO_FILE, DB_EMPTY
 * (no bytes), DB_FOREIGN (not SQLite, or another application's id),
 * DB_OURS, or DB_LEGACY when there is no application_id (to be told
 * apart from DB_FOREIGN by the schema). */
enum rl_db_kind rl_db_read_header(const char *file, struct rl_db_header *h,
                                  int *err)
{
	*h = (struct rl_db_header){0};
	*err = 0;
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = errno;
		return errno == ENOENT ? DB_NO_FILE : DB_FOREIGN;
	}
	unsigned char b[100];
	ssize_t n = 0, r;
	while (n < (ssize_t)sizeof b &&
	       (r = read(fd, b + n, sizeof b - (size_t)n)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			*err = errno;
			close(fd);
			return DB_FOREIGN;
		}
		n += r;
	}
	close(fd);
	if (n == 0)
		return DB_EMPTY;
	if (n < 100 || memcmp(b, "SQLite format 3", 16) != 0)
		return DB_FOREIGN;
	h->wal = b[18] == 2;
	h->app_id = be32(b + 68);
	if (h->app_id == RL_APPLICATION_ID)
		return DB_OURS;
	return h->app_id ? DB_FOREIGN : DB_LEGACY;
}

bool rl_db_file_exists(const char *file, const char *suffix)
{
	struct rl_buf b = {0};
	rl_buf_adds(&b, file);
	rl_buf_adds(&b, suffix);
	char *p = rl_buf_take(&b);
	bool e = p && access(p, F_OK) == 0;
	free(p);
	return e;
}

/* "file:" + file, percent-encoded, + "?immutable=1": the file read with
 * neither locks nor -wal and -shm files. */
char *rl_db_immutable_uri(const char *file)
{
	struct rl_buf b = {0};
	rl_buf_adds(&b, "file:");
	for (const unsigned char *p = (const unsigned char *)file; *p; p++) {
		if (*p == '%' || *p == '?' || *p == '#' || *p <= ' ' || *p >= 0x7F)
			rl_buf_addf(&b, "%%%02X", *p);
		else
			rl_buf_addc(&b, (char)*p);
	}
	rl_buf_adds(&b, "?immutable=1");
	return rl_buf_take(&b);
}

/* The tables every rulings schema has had since version 1. */
static const char legacy_sql[] =
	"SELECT count(*) = 9 FROM sqlite_schema WHERE type = 'table' AND name IN"
	" ('games', 'documents', 'imports', 'rulings', 'ruling_sources', 'tags',"
	" 'ruling_tags', 'refs', 'errata')";

/* Whether the schema of h is, object for object (type, name, table and
 * SQL text; SQLite's own tables aside), the one this rulings makes: an
 * in-memory database made for the comparison. RL_OK, or the error of
 * making or reading it (out of memory). */
static int schema_is_latest(rl_db *db, sqlite3 *h, bool *same)
{
	static const char q[] = "SELECT type, name, tbl_name, sql FROM"
		" sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
		" ORDER BY type, name";
	*same = false;
	rl_db *m = NULL;
	sqlite3_stmt *a = NULL, *b = NULL;
	int rc = rl_db_open(":memory:", RL_OPEN_WRITE, &m);
	if (rc) {
		rc = rl_db_fail(db, rc, "cannot make this rulings' schema to "
		                "compare with: %s", m ? rl_db_errmsg(m)
		                                      : "out of memory");
		rl_db_close(m);
		return rc;
	}
	int s = sqlite3_prepare_v2(m->h, q, -1, &a, NULL);
	if (s == SQLITE_OK)
		s = sqlite3_prepare_v2(h, q, -1, &b, NULL);
	while (s == SQLITE_OK) {
		int sa = sqlite3_step(a), sb = sqlite3_step(b);
		if (sa != SQLITE_ROW || sb != SQLITE_ROW) {
			*same = sa == SQLITE_DONE && sb == SQLITE_DONE;
			s = sa != SQLITE_ROW && sa != SQLITE_DONE ? sa
			    : sb != SQLITE_ROW && sb != SQLITE_DONE ? sb : SQLITE_OK;
			break;
		}
		bool row = true;
		for (int i = 0; i < 4 && row; i++) {
			const unsigned char *x = sqlite3_column_text(a, i);
			const unsigned char *y = sqlite3_column_text(b, i);
			row = (!x && !y) || (x && y &&
			      strcmp((const char *)x, (const char *)y) == 0);
		}
		if (!row)
			break;
	}
	sqlite3_finalize(a);
	sqlite3_finalize(b);
	rl_db_close(m);
	if ((s & 0xFF) == SQLITE_NOMEM)
		return rl_db_fail(db, RL_ENOMEM, "out of memory");
	return s == SQLITE_OK ? RL_OK
	       : rl_db_fail(db, RL_EIO, "cannot read the schema: %s",
	                    sqlite3_errstr(s));
}

/* A file with no application_id: DB_EMPTY (no schema, user_version 0),
 * DB_LEGACY (a rulings schema of version 1 to 7), DB_DUMPED or
 * DB_DUMPED_LATEST (a rulings schema and user_version 0: loaded from
 * sqlite3's .dump) or DB_FOREIGN. Looked at
 * through its own read-only connection; a file in WAL mode whose -wal
 * file is missing, through an immutable one, so that no -wal or -shm is
 * made. */
int rl_db_classify(rl_db *db, const char *file,
                   const struct rl_db_header *hd, enum rl_db_kind *kind)
{
	char *uri = NULL;
	int flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX;
	if (hd->wal && !(rl_db_file_exists(file, "-wal") &&
	                 rl_db_file_exists(file, "-shm"))) {
		if (!(uri = rl_db_immutable_uri(file)))
			return RL_ENOMEM;
		flags |= SQLITE_OPEN_URI;
	}
	sqlite3 *h = NULL;
	int rc = sqlite3_open_v2(uri ? uri : file, &h, flags, NULL);
	free(uri);
	int objects = -1, version = 0, legacy = 0;
	sqlite3_stmt *st = NULL;
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(h, db->busy_ms);
		struct rl_buf b = {0};
		rl_buf_addf(&b, "SELECT (SELECT count(*) FROM sqlite_schema),"
		            " (SELECT user_version FROM pragma_user_version), (%s)",
		            legacy_sql);
		char *sql = rl_buf_take(&b);
		rc = sql ? sqlite3_prepare_v2(h, sql, -1, &st, NULL) : SQLITE_NOMEM;
		free(sql);
	}
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		objects = sqlite3_column_int(st, 0);
		version = sqlite3_column_int(st, 1);
		legacy = sqlite3_column_int(st, 2);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	bool latest = false;
	int err = rc == SQLITE_OK && legacy && version == 0
	          ? schema_is_latest(db, h, &latest) : RL_OK;
	sqlite3_close(h);
	if (err)
		return err;
	if ((rc & 0xFF) == SQLITE_NOMEM)
		return RL_ENOMEM;
	if (rc != SQLITE_OK && (rc & 0xFF) != SQLITE_NOTADB &&
	    (rc & 0xFF) != SQLITE_CORRUPT)
		return rl_db_fail(db, RL_EIO, "cannot read '%s': %s", file,
		                  sqlite3_errstr(rc));
	if (rc != SQLITE_OK)
		*kind = DB_FOREIGN;
	else if (objects == 0 && version == 0)
		*kind = DB_EMPTY;
	else if (legacy && version >= 1 && version < 8)
		*kind = DB_LEGACY;
	else if (legacy && version == 0)
		*kind = latest ? DB_DUMPED_LATEST : DB_DUMPED;
	else
		*kind = DB_FOREIGN;
	return RL_OK;
}

/* mkdir -p for the directory part of path. */
int rl_db_make_parent(const char *path)
{
	char *dir = rl_strdup(path);
	if (!dir)
		return -ENOMEM;
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir) {
		free(dir);
		return 0;
	}
	*slash = '\0';
	for (char *p = dir + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;
			*p = '\0';
			if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
				int e = errno;
				free(dir);
				return -e;
			}
			*p = c;
			if (!c)
				break;
		}
	}
	free(dir);
	return 0;
}

