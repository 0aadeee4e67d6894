/* fts_design.c — what the multilingual full-text design costs.
 *
 * Three designs over the same synthetic rows (English, French and Russian
 * sentences built from the seed documents' own words):
 *
 *   per-language   one FTS5 table per language, rl_stem with that
 *                  language's stemmer (what rulings does: schema 002)
 *   one-table      one FTS5 table, rl_stem 'en fr': every Latin word under
 *                  both the English and the French stem, Cyrillic Russian
 *   unstemmed      one FTS5 table, plain unicode61 (remove_diacritics 2):
 *                  the floor, and what version 1 of the schema did
 *
 * For each: rows inserted per second (one transaction, one prepared
 * statement, straight into the FTS tables so that only tokenizing and
 * indexing are measured), database size, and the mean time of a top-20
 * BM25 query (over all languages: a UNION ALL for per-language).
 *
 *   bench/fts_design [ROWS [SEED]]      defaults: 100000 rows, seed 1
 *
 * Reads the seed documents from RULINGS_DATA (default: data). Writes its
 * databases under $TMPDIR (removed afterwards). */
#define _POSIX_C_SOURCE 200809L
#include "stemtok.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct vocab {
	char **w;
	size_t n, cap;
};

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* xorshift64*: reproducible from the seed */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void add_word(struct vocab *v, const char *s, size_t n)
{
	if (n < 2 || n > 40)
		return;
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 256;
		v->w = realloc(v->w, v->cap * sizeof *v->w);
		if (!v->w)
			exit(70);
	}
	v->w[v->n] = strndup(s, n);
	if (!v->w[v->n])
		exit(70);
	v->n++;
}

/* The words of a file: runs of letters (ASCII or any non-ASCII byte). */
static void read_words(struct vocab *v, const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "fts_design: cannot read %s (set RULINGS_DATA)\n", path);
		exit(66);
	}
	char buf[1 << 16];
	size_t len = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[len] = '\0';
	size_t start = 0;
	for (size_t i = 0; i <= len; i++) {
		unsigned char c = (unsigned char)buf[i];
		bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		              (c >= 0x80 && c != 0xC2 && !(c == 0xE2));
		if (!letter) {
			add_word(v, buf + start, i - start);
			start = i + 1;
		}
	}
}

/* A sentence of about len bytes from v. */
static void sentence(const struct vocab *v, char *out, size_t len)
{
	size_t o = 0;
	while (o + 45 < len) {
		const char *w = v->w[rng() % v->n];
		size_t n = strlen(w);
		memcpy(out + o, w, n);
		o += n;
		out[o++] = ' ';
	}
	out[o ? o - 1 : 0] = '\0';
}

struct design {
	const char *name;
	const char *const *create;   /* NULL-terminated SQL */
	const char *const *tables;   /* the FTS tables, by language en fr ru */
};

static const char *const per_language_sql[] = {
	"CREATE VIRTUAL TABLE f_en USING fts5(title, body, tokenize='rl_stem en')",
	"CREATE VIRTUAL TABLE f_fr USING fts5(title, body, tokenize='rl_stem fr')",
	"CREATE VIRTUAL TABLE f_ru USING fts5(title, body, tokenize='rl_stem en')",
	NULL
};
static const char *const per_language_tables[] = { "f_en", "f_fr", "f_ru" };
static const char *const one_table_sql[] = {
	"CREATE VIRTUAL TABLE f USING fts5(title, body, tokenize='rl_stem en fr')",
	NULL
};
static const char *const unstemmed_sql[] = {
	"CREATE VIRTUAL TABLE f USING fts5(title, body,"
	" tokenize='unicode61 remove_diacritics 2')",
	NULL
};
static const char *const one_tables[] = { "f", "f", "f" };

static const struct design designs[] = {
	{ "per-language", per_language_sql, per_language_tables },
	{ "one-table", one_table_sql, one_tables },
	{ "unstemmed", unstemmed_sql, one_tables },
};

static void check(sqlite3 *db, int rc, const char *what)
{
	if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
		fprintf(stderr, "fts_design: %s: %s\n", what, sqlite3_errmsg(db));
		exit(70);
	}
}

/* Queries: word forms that stemming should join, in each language. */
static const char *const queries[] = {
	"defended", "powers", "repeating", "speed", "\"slow phase\"",
	"reponses", "desolee", "envahisseurs", "isoler",
	"атаками", "медленная атака", "особенности",
};

int main(int argc, char **argv)
{
	long rows = argc > 1 ? atol(argv[1]) : 100000;
	rng_state = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
	if (!rng_state)
		rng_state = 1;
	const char *data = getenv("RULINGS_DATA") ? getenv("RULINGS_DATA") : "data";
	struct vocab v[3] = { 0 };
	read_words(&v[0], data, "000_033b5c31b01b6f02.txt");
	read_words(&v[0], data, "001_8e68847c21c72d28.txt");
	read_words(&v[1], data, "002_7fed5f086b7fccf3.txt");
	read_words(&v[1], data, "003_ec034672c1b9d987.txt");
	read_words(&v[2], data, "004_ef987a4e02cf8b4c.txt");
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

	printf("rows: %ld (60%% en, 25%% fr, 15%% ru), about 400 bytes each\n", rows);
	printf("%-13s %12s %10s %12s %12s\n", "design", "rows/s", "MB",
	       "query ms", "matches/q");
	for (size_t d = 0; d < sizeof designs / sizeof *designs; d++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/fts_design_%ld.db", tmp, (long)getpid());
		unlink(path);
		sqlite3 *db = NULL;
		int orc = sqlite3_open(path, &db);
		check(db, orc, "open");
		check(db, rl_stemtok_register(db), "register");
		sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
		             NULL, NULL, NULL);
		for (const char *const *s = designs[d].create; *s; s++)
			check(db, sqlite3_exec(db, *s, NULL, NULL, NULL), *s);
		sqlite3_stmt *ins[3];
		for (int l = 0; l < 3; l++) {
			char sql[128];
			snprintf(sql, sizeof sql, "INSERT INTO %s(rowid, title, body)"
			         " VALUES (?1, ?2, ?3)", designs[d].tables[l]);
			check(db, sqlite3_prepare_v2(db, sql, -1, &ins[l], NULL), sql);
		}
		uint64_t saved = rng_state;
		char title[128], body[512];
		double t0 = now();
		sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
		for (long i = 1; i <= rows; i++) {
			unsigned pick = (unsigned)(rng() % 100);
			int l = pick < 60 ? 0 : pick < 85 ? 1 : 2;
			sentence(&v[l], title, 80);
			sentence(&v[l], body, 330);
			sqlite3_bind_int64(ins[l], 1, i);
			sqlite3_bind_text(ins[l], 2, title, -1, SQLITE_STATIC);
			sqlite3_bind_text(ins[l], 3, body, -1, SQLITE_STATIC);
			check(db, sqlite3_step(ins[l]), "insert");
			sqlite3_reset(ins[l]);
		}
		sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
		double load = now() - t0;
		rng_state = saved;
		for (int l = 0; l < 3; l++)
			sqlite3_finalize(ins[l]);
		sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
		struct stat st;
		double mb = stat(path, &st) == 0 ? (double)st.st_size / 1e6 : 0;

		/* top-20 over every language */
		double qtime = 0;
		long matches = 0;
		int runs = 0;
		for (size_t q = 0; q < sizeof queries / sizeof *queries; q++) {
			char sql[1024];
			if (d == 0)
				snprintf(sql, sizeof sql,
				         "SELECT rid FROM (SELECT rowid rid, bm25(f_en) s FROM f_en"
				         " WHERE f_en MATCH ?1 UNION ALL SELECT rowid, bm25(f_fr)"
				         " FROM f_fr WHERE f_fr MATCH ?1 UNION ALL SELECT rowid,"
				         " bm25(f_ru) FROM f_ru WHERE f_ru MATCH ?1)"
				         " ORDER BY s LIMIT 20");
			else
				snprintf(sql, sizeof sql, "SELECT rowid FROM f WHERE f MATCH ?1"
				         " ORDER BY bm25(f) LIMIT 20");
			sqlite3_stmt *qs;
			check(db, sqlite3_prepare_v2(db, sql, -1, &qs, NULL), sql);
			char count_sql[512];
			snprintf(count_sql, sizeof count_sql, d == 0
			         ? "SELECT (SELECT count(*) FROM f_en WHERE f_en MATCH ?1)"
			           " + (SELECT count(*) FROM f_fr WHERE f_fr MATCH ?1)"
			           " + (SELECT count(*) FROM f_ru WHERE f_ru MATCH ?1)"
			         : "SELECT count(*) FROM f WHERE f MATCH ?1");
			sqlite3_stmt *cs;
			check(db, sqlite3_prepare_v2(db, count_sql, -1, &cs, NULL), "count");
			sqlite3_bind_text(cs, 1, queries[q], -1, SQLITE_STATIC);
			check(db, sqlite3_step(cs), "count");
			matches += sqlite3_column_int64(cs, 0);
			sqlite3_finalize(cs);
			for (int r = 0; r < 5; r++) {
				double q0 = now();
				sqlite3_bind_text(qs, 1, queries[q], -1, SQLITE_STATIC);
				int rc;
				while ((rc = sqlite3_step(qs)) == SQLITE_ROW)
					;
				check(db, rc, queries[q]);
				sqlite3_reset(qs);
				qtime += now() - q0;
				runs++;
			}
			sqlite3_finalize(qs);
		}
		printf("%-13s %12.0f %10.1f %12.2f %12.0f\n", designs[d].name,
		       (double)rows / load, mb, qtime * 1000 / runs,
		       (double)matches / (double)(sizeof queries / sizeof *queries));
		sqlite3_close(db);
		unlink(path);
		char side[4200];
		snprintf(side, sizeof side, "%s-wal", path);
		unlink(side);
		snprintf(side, sizeof side, "%s-shm", path);
		unlink(side);
	}
	for (int l = 0; l < 3; l++) {
		for (size_t i = 0; i < v[l].n; i++)
			free(v[l].w[i]);
		free(v[l].w);
	}
	return 0;
}
