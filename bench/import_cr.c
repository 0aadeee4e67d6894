/* import_cr.c — where the time of importing a rulebook goes: reading and
 * decoding the file, parsing it, and storing it (SQLite, FTS5, triggers,
 * reference resolution), measured separately by rl_import_file() (its
 * report times each step; the check of whether the bytes are imported
 * already, against a new database, is counted in "parse").
 *
 *   bench/import_cr FILE... [--runs N]     default 5 runs; the median is
 *                                          reported, and the fastest
 *
 * Each run stores into a new database under $TMPDIR (removed after). */
#define _POSIX_C_SOURCE 200809L
#include "rulings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp);
	return v[n / 2];
}

int main(int argc, char **argv)
{
	int runs = 5;
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	printf("%-22s %8s %7s %7s %9s %9s %9s %8s\n", "file", "encoding", "rules",
	       "gloss.", "read ms", "parse ms", "store ms", "parse %");
	for (int a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--runs") == 0 && a + 1 < argc) {
			runs = atoi(argv[++a]);
			if (runs < 1 || runs > 100)
				runs = 5;
			continue;
		}
		double rd[100], ps[100], st[100];
		size_t rules = 0, glossary = 0;
		const char *enc = "?";
		for (int r = 0; r < runs; r++) {
			char path[4096];
			snprintf(path, sizeof path, "%s/import_cr_%ld.db", tmp,
			         (long)getpid());
			unlink(path);
			rl_db *db;
			if (rl_db_open(path, RL_OPEN_WRITE, &db)) {
				fprintf(stderr, "import_cr: %s\n", rl_db_errmsg(db));
				return 74;
			}
			struct rl_file_report rep;
			if (rl_import_file(db, argv[a], NULL, 0, &rep) ||
			    rep.outcome != RL_FILE_IMPORTED) {
				fprintf(stderr, "import_cr: cannot import %s: %s\n", argv[a],
				        rep.error ? rep.error : rl_status_name(rep.status));
				return 65;
			}
			rl_db_close(db);
			char side[4200];
			unlink(path);
			snprintf(side, sizeof side, "%s-wal", path);
			unlink(side);
			snprintf(side, sizeof side, "%s-shm", path);
			unlink(side);
			rd[r] = rep.read_seconds * 1000;
			ps[r] = (rep.parse_seconds - rep.read_seconds) * 1000;
			st[r] = (rep.store_seconds - rep.parse_seconds) * 1000;
			glossary = rep.kinds[RL_KIND_GLOSSARY];
			rules = rep.result.entries - glossary;
			enc = rep.encoding;
			rl_file_report_clear(&rep);
		}
		const char *base = strrchr(argv[a], '/');
		double mr = median(rd, runs), mp = median(ps, runs), ms = median(st, runs);
		printf("%-22s %8s %7zu %7zu %9.1f %9.1f %9.1f %7.1f%%\n",
		       base ? base + 1 : argv[a], enc, rules, glossary, mr, mp, ms,
		       100 * (mr + mp) / (mr + mp + ms));
	}
	return 0;
}
