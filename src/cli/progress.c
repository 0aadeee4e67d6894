/* progress.c — the progress line of an import on a terminal.
 *
 * The line is drawn on standard error by a thread of its own, four times
 * a second, from what the import last said (rl_import_progress): so it
 * never stands still for more than a quarter of a second, whatever the
 * import is doing — reading and parsing a large file, waiting for a lock,
 * storing, or indexing and committing a bulk group, which it names with
 * the time it has taken so far. Progress counts bytes, not files: a
 * directory of small files and one large file both move the line as
 * their bytes are read. The estimate of the time left is the bytes left
 * at the rate so far.
 *
 * Whatever else is printed while the line shows (a document's line on
 * standard output, a warning) is printed between progress_hold() and
 * progress_release(): the line is cleared first and drawn again below, so
 * that printed lines scroll above it and never mix with it. The line is
 * cut to the terminal's width: a line that wrapped could not be cleared.
 * Nothing is drawn in the first half second, so that a short import
 * prints no line at all. */
#include "progress.h"
#include "cli.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

enum { LINE_MAX_BYTES = 512 };
#define TICK_NS 250000000L
#define FIRST_DRAW 0.5

struct progress {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stop, held, drawn;
	double start;             /* when the import began */
	/* what the import last said */
	enum rl_import_event step;
	char path[256];
	double step_start;
	size_t files, files_done, group;
	uint64_t bytes, bytes_done;
	bool walked;
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void write_all(const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);
		if (w <= 0)
			return;          /* the terminal is gone: nothing to draw on */
		s += w;
		n -= (size_t)w;
	}
}

static int columns(void)
{
	struct winsize ws;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10)
		return ws.ws_col;
	return 80;
}

void size_str(char *buf, size_t cap, uint64_t n)
{
	if (n >= 1000000)
		snprintf(buf, cap, "%.1f MB", (double)n / 1e6);
	else
		snprintf(buf, cap, "%.0f kB", (double)n / 1e3);
}

/* Cuts s to at most cols characters (UTF-8 aware). */
static size_t cut(const char *s, size_t n, int cols)
{
	size_t i = 0;
	for (int c = 0; i < n && c < cols; c++) {
		i++;
		while (i < n && ((unsigned char)s[i] & 0xC0) == 0x80)
			i++;
	}
	return i;
}

/* The line for the current state. */
static size_t compose(const struct progress *p, char *line, size_t cap)
{
	double t = now(), el = t - p->start, step = t - p->step_start;
	char done[32], total[32];
	size_str(done, sizeof done, p->bytes_done);
	size_str(total, sizeof total, p->bytes);
	int n;
	if (p->step == RL_IMPORT_COMMITTING) {
		n = snprintf(line, cap, "indexing and committing %zu document%s, "
		             "%.0f s (read %s of %s)", p->group,
		             p->group == 1 ? "" : "s", step, done, total);
	} else {
		double pct = p->bytes ? 100.0 * (double)p->bytes_done /
		                        (double)p->bytes : 0;
		n = snprintf(line, cap, "read %s of %s (%.0f%%), %zu of %zu file%s",
		             done, total, pct, p->files_done, p->files,
		             p->files == 1 ? "" : "s");
		double rate = el > 0 ? (double)p->bytes_done / el : 0;
		char speed[32];
		size_str(speed, sizeof speed, (uint64_t)rate);
		if (n >= 0 && (size_t)n < cap && rate > 0 && el >= 1)
			n += snprintf(line + n, cap - (size_t)n, ", %s/s, about "
			              "%.0f s left", speed,
			              (double)(p->bytes - p->bytes_done) / rate);
		/* a step that takes a while is named */
		bool busy = p->step == RL_IMPORT_READING ||
		            p->step == RL_IMPORT_STORING;
		/* the seconds before the file's name, which the width may cut */
		const char *base = strrchr(p->path, '/');
		if (n >= 0 && (size_t)n < cap && busy && step >= 1)
			n += snprintf(line + n, cap - (size_t)n, "; %s for %.0f s: %s",
			              p->step == RL_IMPORT_READING ? "reading"
			                                          : "storing",
			              step, base ? base + 1 : p->path);
	}
	if (n < 0)
		return 0;
	return (size_t)n < cap ? (size_t)n : cap - 1;
}

/* Draws the line (the lock is held). */
static void draw(struct progress *p)
{
	if (p->held || !p->walked || now() - p->start < FIRST_DRAW)
		return;
	char line[LINE_MAX_BYTES], out[LINE_MAX_BYTES + 8];
	size_t n = compose(p, line, sizeof line);
	n = cut(line, n, columns() - 1);
	memcpy(out, "\r\033[K", 4);
	memcpy(out + 4, line, n);
	write_all(out, n + 4);
	p->drawn = true;
}

static void clear(struct progress *p)
{
	if (p->drawn)
		write_all("\r\033[K", 4);
	p->drawn = false;
}

static void *run(void *arg)
{
	struct progress *p = arg;
	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		draw(p);
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += TICK_NS;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&p->wake, &p->lock, &ts);
	}
	clear(p);
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct progress *progress_start(void)
{
	struct progress *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->start = p->step_start = now();
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	if (pthread_create(&p->thread, NULL, run, p) != 0) {
		pthread_mutex_destroy(&p->lock);
		pthread_cond_destroy(&p->wake);
		free(p);
		return NULL;
	}
	return p;
}

void progress_update(struct progress *p, const struct rl_import_progress *ev)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->files = ev->files;
	p->files_done = ev->files_done;
	p->bytes = ev->bytes;
	p->bytes_done = ev->bytes_done;
	switch (ev->event) {
	case RL_IMPORT_WALKED:
		p->walked = true;
		p->start = p->step_start = now();
		break;
	case RL_IMPORT_READING:
	case RL_IMPORT_STORING:
	case RL_IMPORT_DONE:
	case RL_IMPORT_COMMITTING:
		p->step = ev->event;
		p->step_start = now();
		p->group = ev->group;
		snprintf(p->path, sizeof p->path, "%s", ev->path ? ev->path : "");
		/* a commit may be short: say so at once */
		if (ev->event == RL_IMPORT_COMMITTING)
			draw(p);
		break;
	case RL_IMPORT_FILE:
		/* a group's reports come once it is committed */
		if (p->step == RL_IMPORT_COMMITTING) {
			p->step = RL_IMPORT_DONE;
			p->step_start = now();
		}
		break;
	default:
		break;
	}
	pthread_mutex_unlock(&p->lock);
}

void progress_hold(struct progress *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	fflush(stdout);
	clear(p);
	p->held = true;
}

void progress_release(struct progress *p)
{
	if (!p)
		return;
	fflush(stdout);
	p->held = false;
	draw(p);
	pthread_mutex_unlock(&p->lock);
}

void progress_stop(struct progress *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->wake);
	free(p);
}
