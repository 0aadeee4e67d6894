/* seg_walk.c — the walk of one term's doclist by the one-term reader
 * (ftsseg.c: rl_fts_seg_seek, rl_fts_seg_row_in, what search.c seg_table
 * runs for a set's rulings) alone, without the rest of a search: CPU time
 * per walk and per row.
 *
 *   bench/seg_walk DB TABLE TERM 'SQL' [--runs N] [--only]
 *
 * TABLE e.g. rulings_fts_en; TERM as the index holds it (stemmed); SQL
 * the wanted rowids (e.g. "SELECT id FROM rulings WHERE kind = 'errata'";
 * "" for none). Each run opens the reader, seeks the term and walks it
 * to its end; prints the rows, the wanted rows met and their hits (to
 * compare two builds' answers), and the CPU ms of a walk (median and
 * fastest of N, default 7) and ns a row. --only: the wanted rows alone
 * read (rl_fts_seg_only: search.c's path when the term's rows are known
 * from the lists): "rows" then counts those, and the leaves passed over
 * through the doclist index and the jumps are printed. */
#define _POSIX_C_SOURCE 200809L
#include "db.h"
#include "ftsseg.h"
#include "rulings.h"

#include <sqlite3.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

static double cpu_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	int runs = 7;
	bool only = argc > 5 && strcmp(argv[argc - 1], "--only") == 0;
	if (only)
		argc--;
	if (argc == 7 && strcmp(argv[5], "--runs") == 0)
		runs = atoi(argv[6]);
	else if (argc != 5)
		runs = 0;
	if (runs < 1 || runs > 1000) {
		fprintf(stderr, "usage: seg_walk DB TABLE TERM SQL [--runs N] [--only]\n");
		return 2;
	}
	rl_db *db;
	if (rl_db_open(argv[1], RL_OPEN_READ, &db) != RL_OK) {
		fprintf(stderr, "seg_walk: %s\n", rl_db_errmsg(db));
		return 1;
	}
	long long *want = NULL;
	size_t nw = 0, cw = 0;
	if (*argv[4]) {
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(db->h, argv[4], -1, &st, NULL)) {
			fprintf(stderr, "seg_walk: %s\n", sqlite3_errmsg(db->h));
			return 1;
		}
		while (sqlite3_step(st) == SQLITE_ROW) {
			if (nw == cw) {
				cw = cw ? 2 * cw : 1024;
				want = realloc(want, cw * sizeof *want);
				if (!want)
					return 1;
			}
			want[nw++] = sqlite3_column_int64(st, 0);
		}
		sqlite3_finalize(st);
		qsort(want, nw, sizeof *want, cmp_ll);
	}
	double *ms = calloc((size_t)runs, sizeof *ms);
	long long rows = 0, met = 0, hsum = 0;
	int status = 0;
	for (int k = 0; k < runs && ms; k++) {
		double t0 = cpu_ms();
		struct rl_fts_seg *r;
		if (rl_fts_seg_open(db, argv[2], &r) || !r) {
			fprintf(stderr, "seg_walk: the reader does not read %s\n",
			        argv[2]);
			return 1;
		}
		bool found, in;
		struct rl_fts_want w = { want, nw, 0 };
		long long rid;
		unsigned hits[2];
		rows = met = hsum = 0;
		int rc = rl_fts_seg_seek(r, argv[3], &found);
		if (!rc && found && only)
			rc = rl_fts_seg_only(r, &w);
		while (!rc && found && rl_fts_seg_row_in(r, &rid, hits, &w, &in)) {
			rows++;
			if (in) {
				met++;
				hsum += rid % 1000 * (4 * hits[0] + hits[1]);
			}
		}
		status = rl_fts_seg_status(r);
		rl_fts_seg_close(r);
		ms[k] = cpu_ms() - t0;
	}
	qsort(ms, (size_t)runs, sizeof *ms, cmp_d);
	if (only) {
		long long leaves, jumps;
		rl_fts_seg_skipped(&leaves, &jumps);
		printf("leaves passed over %lld, jumps %lld (a walk)\n",
		       leaves / runs, jumps / runs);
	}
	printf("%s %s: rows %lld, wanted %zu, met %lld, hits %lld, status %d;"
	       " CPU ms median %.2f, fastest %.2f; ns a row %.1f\n", argv[2],
	       argv[3], rows, nw, met, hsum, status, ms[runs / 2], ms[0],
	       rows ? ms[runs / 2] * 1e6 / (double)rows : 0.0);
	free(ms);
	free(want);
	rl_db_close(db);
	return status != 0;
}
