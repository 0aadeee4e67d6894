/* dbcheck.c — for the fault-injection tests: checks a rulings database and
 * prints its content, so that a test can compare it with the states before
 * and after an import.
 *
 *   dbcheck DB
 *
 * Runs PRAGMA integrity_check and, with the rl_stem tokenizer registered,
 * the FTS5 'integrity-check' of every full-text table against its content
 * (rank 1); any problem is printed on standard error and the exit status
 * is 1. Then prints every row of every ordinary table (not the full-text
 * index's own), sorted, one line a row, the import times left out (they
 * differ between runs). */
#include "stemtok.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(sqlite3 *db, const char *what)
{
	fprintf(stderr, "dbcheck: %s: %s\n", what, sqlite3_errmsg(db));
	return 1;
}

static int dump_table(sqlite3 *db, const char *table)
{
	char sql[512];
	snprintf(sql, sizeof sql, "SELECT * FROM \"%s\"", table);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return fail(db, table);
	int n = sqlite3_column_count(st);
	sqlite3_finalize(st);
	/* ORDER BY every column */
	int len = snprintf(sql, sizeof sql, "SELECT * FROM \"%s\" ORDER BY 1",
	                   table);
	for (int i = 2; i <= n && len < (int)sizeof sql - 8; i++)
		len += snprintf(sql + len, sizeof sql - (size_t)len, ",%d", i);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return fail(db, table);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		printf("%s", table);
		/* an import's date is its import time when the document
		 * states none (date_source 'imported', schema 10): a time,
		 * like imported_at, that no two runs share */
		bool import_time = false;
		for (int i = 0; i < n; i++) {
			const unsigned char *v = sqlite3_column_text(st, i);
			if (strcmp(sqlite3_column_name(st, i), "date_source") == 0 &&
			    v && strcmp((const char *)v, "imported") == 0)
				import_time = true;
		}
		for (int i = 0; i < n; i++) {
			const char *name = sqlite3_column_name(st, i);
			if (strcmp(name, "imported_at") == 0 ||
			    (import_time && strcmp(name, "date") == 0))
				continue;
			const unsigned char *v = sqlite3_column_text(st, i);
			printf("|%s", v ? (const char *)v : "NULL");
		}
		putchar('\n');
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(db, table);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: dbcheck DB\n");
		return 2;
	}
	sqlite3 *db;
	if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READWRITE, NULL) !=
	    SQLITE_OK) {
		fail(db, argv[1]);
		sqlite3_close(db);
		return 1;
	}
	int bad = 0;
	if (rl_stemtok_register(db) != SQLITE_OK)
		bad = fail(db, "rl_stem");
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) !=
	    SQLITE_OK) {
		bad = fail(db, "integrity_check");
	} else {
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *r = (const char *)sqlite3_column_text(st, 0);
			if (!r || strcmp(r, "ok") != 0) {
				fprintf(stderr, "dbcheck: integrity_check: %s\n",
				        r ? r : "?");
				bad = 1;
			}
		}
		sqlite3_finalize(st);
	}
	char **names = NULL;
	int rows = 0, cols = 0;
	if (sqlite3_get_table(db, "SELECT name FROM sqlite_master WHERE type = "
	                      "'table' ORDER BY name", &names, &rows, &cols,
	                      NULL) != SQLITE_OK) {
		bad = fail(db, "tables");
	} else {
		for (int i = 1; i <= rows; i++) {
			const char *t = names[i];
			const char *fts = "rulings_fts_";
			if (strncmp(t, fts, strlen(fts)) == 0) {
				if (strchr(t + strlen(fts), '_'))
					continue;       /* the index's own tables */
				char sql[256];
				snprintf(sql, sizeof sql, "INSERT INTO \"%s\"(\"%s\", rank) "
				         "VALUES ('integrity-check', 1)", t, t);
				if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
					bad = fail(db, t);
				continue;
			}
			if (strncmp(t, "sqlite_", 7) == 0)
				continue;
			bad |= dump_table(db, t);
		}
		sqlite3_free_table(names);
	}
	sqlite3_close(db);
	return bad;
}
