/* fault.c — failure injection for the hardening tests, compiled into the
 * rulings binary only with meson -Dfault_injection=true (test builds; see
 * tests/faults). It proves that running out of memory or failing to write
 * gives a clean error, no crash and no leak, and leaves the database
 * intact, the way SQLite's own malloc and I/O error tests do.
 *
 *   RULINGS_FAIL_ALLOC=N          the N-th allocation fails (counting from 1)
 *   RULINGS_FAIL_ALLOC_PERSIST=1  ... and every one after it
 *   RULINGS_FAIL_WRITE=N          the N-th database write, sync or
 *                                 truncate fails with SQLITE_IOERR_*
 *   RULINGS_FAIL_WRITE_FULL=1     ... a write fails with SQLITE_FULL instead
 *   RULINGS_FAULT_BACKTRACE=1     print where the failure was injected
 *   RULINGS_FAULT_SERVER=1        a fork server for the loops: one process
 *                                 runs many injections (rl_fault_serve())
 *
 * When a failure is injected, "rulings: fault injection: ..." goes to
 * standard error once, so a test can tell a run that met its failure from
 * one that ended before the N-th allocation (the loop's end).
 *
 * Why this design:
 * - Our own allocations (library and CLI) are counted through the linker:
 *   the binary is linked with -Wl,--wrap=malloc,calloc,realloc,strdup,
 *   strndup, so every call in our objects goes to __wrap_malloc() here and
 *   on to the real one (the libc's, or ASan's interceptor: this stays
 *   compatible with the sanitizers, unlike replacing malloc itself). The
 *   libraries' own internal calls are not renamed, which is what we want
 *   for libc.
 * - SQLite's allocations are counted through sqlite3_config(
 *   SQLITE_CONFIG_MALLOC) with wrappers around its default methods, set
 *   before sqlite3_initialize(); libxml2's through xmlMemSetup(). One
 *   counter covers all three, so N walks through every allocation of a run
 *   in order. PCRE2's and libstemmer's internal allocations are not counted.
 * - Writes go through a VFS that wraps the default one (registered as the
 *   default, so every connection uses it) and fails the N-th xWrite, xSync
 *   or xTruncate of any database, journal or WAL file. */
#define _GNU_SOURCE     /* dladdr() */
#include "fault.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <libxml/xmlmemory.h>
#include <libxml/xmlschemastypes.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t sz);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t sz);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);

static unsigned long fail_alloc, nalloc;   /* 0: never */
static bool persist;
static unsigned long fail_write, nwrite;
static bool write_full;
static bool alloc_told, write_told;

static bool backtraces;

/* The sanitizers' stack printer (symbolized) when they are linked in. */
void __sanitizer_print_stack_trace(void) __attribute__((weak));

static void tell(const char *what, unsigned long n)
{
	char msg[96];
	int len = snprintf(msg, sizeof msg, "rulings: fault injection: %s %lu "
	                   "failed\n", what, n);
	if (len > 0 && write(STDERR_FILENO, msg, (size_t)len) < 0)
		return;
	if (!backtraces)
		return;
	if (__sanitizer_print_stack_trace) {
		__sanitizer_print_stack_trace();
	} else {
		void *frames[64];
		backtrace_symbols_fd(frames, backtrace(frames, 64), STDERR_FILENO);
	}
}

/* True when this allocation is to fail. */
static bool alloc_fails(void)
{
	if (!fail_alloc)
		return false;
	nalloc++;
	if (nalloc == fail_alloc || (persist && nalloc > fail_alloc)) {
		errno = ENOMEM;     /* as malloc() does (POSIX) */
		if (!alloc_told) {
			alloc_told = true;
			tell("allocation", nalloc);
		}
		return true;
	}
	return false;
}

void *__wrap_malloc(size_t n)
{
	return alloc_fails() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t sz)
{
	return alloc_fails() ? NULL : __real_calloc(n, sz);
}

void *__wrap_realloc(void *p, size_t n)
{
	return alloc_fails() ? NULL : __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
	return alloc_fails() ? NULL : __real_strdup(s);
}

char *__wrap_strndup(const char *s, size_t n)
{
	return alloc_fails() ? NULL : __real_strndup(s, n);
}

/* ---- SQLite's and libxml2's allocators ---------------------------------- */

static sqlite3_mem_methods sqlite_mem;   /* SQLite's default methods */

static void *sqlite_malloc(int n)
{
	return alloc_fails() ? NULL : sqlite_mem.xMalloc(n);
}

static void *sqlite_realloc(void *p, int n)
{
	return alloc_fails() ? NULL : sqlite_mem.xRealloc(p, n);
}

/* libxml2 2.9.14 is not safe when an allocation fails inside two of its
 * parts: its regular-expression compiler (a RELAX NG `pattern` is compiled
 * at each value validated: SIGSEGV inside xmlRegexpCompile under
 * xmlSchemaCheckFacet, N=111, 157, 425 … of parse/xml-interchange) and its
 * RELAX NG compiler (SIGSEGV, or glibc's "realloc(): invalid next size",
 * under xmlRelaxNGParse, N=1005, 1092, 1312). Upstream made libxml2 safe
 * under allocation failure in 2.12; until then a failure meant for an
 * allocation inside those calls moves to the next allocation outside
 * them, so the loops test every error path of ours and none of those. */
static const char *const xml_unsafe[] = { "xmlRegexpCompile",
                                          "xmlRelaxNGParse" };

static bool in_xml_unsafe(void)
{
	void *frames[128];
	int n = backtrace(frames, 128);
	for (int i = 0; i < n; i++) {
		Dl_info info;
		if (!dladdr(frames[i], &info) || !info.dli_sname)
			continue;
		for (size_t k = 0; k < sizeof xml_unsafe / sizeof *xml_unsafe; k++)
			if (!strcmp(info.dli_sname, xml_unsafe[k]))
				return true;
	}
	return false;
}

/* alloc_fails() for libxml2's allocations. */
static bool xml_alloc_fails(void)
{
	if (fail_alloc && (nalloc + 1 == fail_alloc ||
	                   (persist && nalloc + 1 > fail_alloc)) &&
	    in_xml_unsafe()) {
		nalloc++;
		if (!persist)
			fail_alloc++;
		return false;
	}
	return alloc_fails();
}

static void *xml_malloc(size_t n)
{
	return xml_alloc_fails() ? NULL : __real_malloc(n);
}

static void *xml_realloc(void *p, size_t n)
{
	return xml_alloc_fails() ? NULL : __real_realloc(p, n);
}

static char *xml_strdup(const char *s)
{
	return xml_alloc_fails() ? NULL : __real_strdup(s);
}

/* ---- a VFS whose writes fail -------------------------------------------- */

struct fault_file {
	sqlite3_file base;
	sqlite3_file *real;     /* right after this structure */
};

static sqlite3_vfs *real_vfs;
static sqlite3_vfs fault_vfs;

static bool write_fails(void)
{
	if (!fail_write)
		return false;
	if (++nwrite != fail_write)
		return false;
	if (!write_told) {
		write_told = true;
		tell("write", nwrite);
	}
	return true;
}

#define REAL(f) (((struct fault_file *)(f))->real)

static int f_close(sqlite3_file *f)
{
	return REAL(f)->pMethods->xClose(REAL(f));
}

static int f_read(sqlite3_file *f, void *buf, int n, sqlite3_int64 off)
{
	return REAL(f)->pMethods->xRead(REAL(f), buf, n, off);
}

static int f_write(sqlite3_file *f, const void *buf, int n, sqlite3_int64 off)
{
	if (write_fails())
		return write_full ? SQLITE_FULL : SQLITE_IOERR_WRITE;
	return REAL(f)->pMethods->xWrite(REAL(f), buf, n, off);
}

static int f_truncate(sqlite3_file *f, sqlite3_int64 size)
{
	if (write_fails())
		return SQLITE_IOERR_TRUNCATE;
	return REAL(f)->pMethods->xTruncate(REAL(f), size);
}

static int f_sync(sqlite3_file *f, int flags)
{
	if (write_fails())
		return SQLITE_IOERR_FSYNC;
	return REAL(f)->pMethods->xSync(REAL(f), flags);
}

static int f_file_size(sqlite3_file *f, sqlite3_int64 *size)
{
	return REAL(f)->pMethods->xFileSize(REAL(f), size);
}

static int f_lock(sqlite3_file *f, int lock)
{
	return REAL(f)->pMethods->xLock(REAL(f), lock);
}

static int f_unlock(sqlite3_file *f, int lock)
{
	return REAL(f)->pMethods->xUnlock(REAL(f), lock);
}

static int f_check_lock(sqlite3_file *f, int *out)
{
	return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out);
}

static int f_control(sqlite3_file *f, int op, void *arg)
{
	return REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
}

static int f_sector_size(sqlite3_file *f)
{
	return REAL(f)->pMethods->xSectorSize(REAL(f));
}

static int f_device(sqlite3_file *f)
{
	return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f));
}

static int f_shm_map(sqlite3_file *f, int pg, int sz, int extend,
                     void volatile **p)
{
	return REAL(f)->pMethods->xShmMap(REAL(f), pg, sz, extend, p);
}

static int f_shm_lock(sqlite3_file *f, int off, int n, int flags)
{
	return REAL(f)->pMethods->xShmLock(REAL(f), off, n, flags);
}

static void f_shm_barrier(sqlite3_file *f)
{
	REAL(f)->pMethods->xShmBarrier(REAL(f));
}

static int f_shm_unmap(sqlite3_file *f, int del)
{
	return REAL(f)->pMethods->xShmUnmap(REAL(f), del);
}

static int f_fetch(sqlite3_file *f, sqlite3_int64 off, int n, void **p)
{
	return REAL(f)->pMethods->xFetch(REAL(f), off, n, p);
}

static int f_unfetch(sqlite3_file *f, sqlite3_int64 off, void *p)
{
	return REAL(f)->pMethods->xUnfetch(REAL(f), off, p);
}

/* One method table per version the real files may have (filled in by
 * rl_fault_init): a method the real file lacks must be missing here too. */
static sqlite3_io_methods fault_io[3];

static int f_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file,
                  int flags, int *out_flags)
{
	struct fault_file *f = (struct fault_file *)file;
	f->real = (sqlite3_file *)&f[1];
	int rc = real_vfs->xOpen(real_vfs, name, f->real, flags, out_flags);
	const sqlite3_io_methods *m = f->real->pMethods;
	if (!m) {
		f->base.pMethods = NULL;
		return rc;
	}
	int v = m->iVersion < 1 ? 1 : m->iVersion > 3 ? 3 : m->iVersion;
	f->base.pMethods = &fault_io[v - 1];
	return rc;
}

void rl_fault_init(void)
{
	const char *e;
	if ((e = getenv("RULINGS_FAIL_ALLOC")) && *e)
		fail_alloc = strtoul(e, NULL, 10);
	persist = (e = getenv("RULINGS_FAIL_ALLOC_PERSIST")) && *e == '1';
	if ((e = getenv("RULINGS_FAIL_WRITE")) && *e)
		fail_write = strtoul(e, NULL, 10);
	write_full = (e = getenv("RULINGS_FAIL_WRITE_FULL")) && *e == '1';
	backtraces = (e = getenv("RULINGS_FAULT_BACKTRACE")) && *e == '1';

	/* SQLite's allocator can only be changed before it is initialized. */
	if (fail_alloc &&
	    sqlite3_config(SQLITE_CONFIG_GETMALLOC, &sqlite_mem) == SQLITE_OK) {
		sqlite3_mem_methods m = sqlite_mem;
		m.xMalloc = sqlite_malloc;
		m.xRealloc = sqlite_realloc;
		sqlite3_config(SQLITE_CONFIG_MALLOC, &m);
	}
	if (fail_alloc) {
		/* libxml2 2.9.14 sets its XSD types up the first time a RELAX
		 * NG schema is compiled, and xmlSchemaInitTypes() does not check
		 * what xmlSchemaInitBasicType() returns: a failed allocation
		 * there is a write through NULL inside libxml2 (faults,
		 * parse/xml-interchange N=1220). That is libxml2's, not a path
		 * of ours, so the types are set up here, before the counted
		 * allocator is installed. */
		xmlSchemaInitTypes();
		xmlMemSetup(free, xml_malloc, xml_realloc, xml_strdup);
	}

	if (fail_write && (real_vfs = sqlite3_vfs_find(NULL))) {
		for (int i = 0; i < 3; i++) {
			fault_io[i] = (sqlite3_io_methods){
				.iVersion = i + 1,
				.xClose = f_close, .xRead = f_read, .xWrite = f_write,
				.xTruncate = f_truncate, .xSync = f_sync,
				.xFileSize = f_file_size, .xLock = f_lock,
				.xUnlock = f_unlock, .xCheckReservedLock = f_check_lock,
				.xFileControl = f_control, .xSectorSize = f_sector_size,
				.xDeviceCharacteristics = f_device,
			};
			if (i >= 1) {
				fault_io[i].xShmMap = f_shm_map;
				fault_io[i].xShmLock = f_shm_lock;
				fault_io[i].xShmBarrier = f_shm_barrier;
				fault_io[i].xShmUnmap = f_shm_unmap;
			}
			if (i >= 2) {
				fault_io[i].xFetch = f_fetch;
				fault_io[i].xUnfetch = f_unfetch;
			}
		}
		fault_vfs = *real_vfs;
		fault_vfs.zName = "rulings-fault";
		fault_vfs.szOsFile = (int)sizeof(struct fault_file) +
		                     real_vfs->szOsFile;
		fault_vfs.xOpen = f_open;
		fault_vfs.pNext = NULL;
		sqlite3_vfs_register(&fault_vfs, 1);
	}
}

/* ---- the fork server (fault.h; tests/faults/faults.sh) ------------------
 *
 * Why: under ASan each process start costs ~0.1 s of CPU (the runtime's
 * set-up, relocations, shadow memory) and the loops make ~6,000 runs. The
 * server pays the start once a loop; each run is a fork() of a process in
 * which nothing of rulings has run yet, so the child starts from the state
 * a new process has (the counters here are 0, SQLite and libxml2 are not
 * initialized) and counts the same allocations and writes: the loops print
 * the same K either way (checked by hand, tests/README.md). The server
 * uses no stdio and allocates nothing of its own. */

/* One line of standard input into BUF, without its newline; false at the
 * end of the input, on an error, or when the line does not fit. */
static bool read_line(char *buf, size_t size)
{
	size_t len = 0;
	for (;;) {
		char ch;
		ssize_t r = read(STDIN_FILENO, &ch, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		if (ch == '\n') {
			buf[len] = '\0';
			return true;
		}
		if (len + 1 >= size)
			return false;
		buf[len++] = ch;
	}
}

/* "rulings: fault server: WHAT: DETAIL" on standard error, or on standard
 * output the answer: a line of its own. */
static void say(int fd, const char *line)
{
	if (write(fd, line, strlen(line)) < 0)
		return;
}

static void server_error(const char *what, const char *detail)
{
	char msg[512];
	snprintf(msg, sizeof msg, "rulings: fault server: %s: %.400s\n", what,
	         detail);
	say(STDERR_FILENO, msg);
}

/* FILE opened with FLAGS as descriptor FD; false on failure. */
static bool redirect(const char *file, int fd, int flags)
{
	int f = open(file, flags | O_CLOEXEC, 0666);
	if (f < 0)
		return false;
	bool ok = dup2(f, fd) == fd;   /* dup2() clears FD_CLOEXEC */
	close(f);
	return ok;
}

int rl_fault_serve(int (*command)(int argc, char **argv), int argc,
                   char **argv)
{
	char line[1024];
	while (read_line(line, sizeof line)) {
		char kind[8], out[480], err[480];
		unsigned long n;
		if (sscanf(line, "%7s %lu %479s %479s", kind, &n, out, err) != 4 ||
		    n == 0 || (strcmp(kind, "alloc") && strcmp(kind, "write"))) {
			server_error("bad request", line);
			return 70;
		}
		pid_t pid = fork();
		if (pid < 0) {
			server_error("fork", strerror(errno));
			return 70;
		}
		if (pid == 0) {
			char num[24];
			snprintf(num, sizeof num, "%lu", n);
			if (setenv(*kind == 'a' ? "RULINGS_FAIL_ALLOC" :
			           "RULINGS_FAIL_WRITE", num, 1) ||
			    unsetenv("RULINGS_FAULT_SERVER") ||
			    !redirect("/dev/null", STDIN_FILENO, O_RDONLY) ||
			    !redirect(out, STDOUT_FILENO,
			              O_WRONLY | O_CREAT | O_TRUNC) ||
			    !redirect(err, STDERR_FILENO,
			              O_WRONLY | O_CREAT | O_TRUNC)) {
				server_error("cannot start a run",
				             strerror(errno));
				_exit(126);
			}
			alarm(120);     /* a hang is a failure of this run */
			rl_fault_init();
			exit(command(argc, argv));   /* exit(): LSan checks here */
		}
		int st;
		while (waitpid(pid, &st, 0) < 0) {
			if (errno != EINTR) {
				server_error("waitpid", strerror(errno));
				return 70;
			}
		}
		int status = WIFEXITED(st) ? WEXITSTATUS(st) :
		             WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 70;
		char answer[16];
		snprintf(answer, sizeof answer, "%d\n", status);
		say(STDOUT_FILENO, answer);
	}
	return 0;
}
