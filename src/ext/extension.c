/* extension.c — rulings_fts, a SQLite loadable extension with the rl_stem
 * tokenizer, so that the sqlite3 shell and other SQLite tools can run MATCH
 * queries on a rulings database:
 *
 *   sqlite3 rulings.db
 *   sqlite> .load /path/to/rulings_fts
 *   sqlite> SELECT title FROM rulings_fts_en WHERE rulings_fts_en MATCH 'defended';
 *
 * It also gives the function the triggers that keep those tables true
 * call (RL_TRIGGER_FN, src/schema.h, and its old names): with
 * it, INSERT, UPDATE and DELETE on rulings keep them in step; without it,
 * such a statement fails, changing nothing, with a message that names
 * this extension. */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include "schema.h"
#include "stemtok.h"

#include <stddef.h>

/* RL_TRIGGER_FN() and its old names: 0. The triggers that keep the
 * full-text tables in step with rulings (schema/020-trigger-words.sql) run unless rulings itself, which
 * feeds the tables on its own, is writing; in any other program they
 * run. */
static void importing_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	(void)argv;
	sqlite3_result_int(ctx, 0);
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_rulingsfts_init(sqlite3 *db, char **err,
                            const sqlite3_api_routines *api);

int sqlite3_rulingsfts_init(sqlite3 *db, char **err,
                            const sqlite3_api_routines *api)
{
	SQLITE_EXTENSION_INIT2(api);
	int rc = rl_stemtok_register(db);
	if (rc != SQLITE_OK) {
		*err = sqlite3_mprintf("rulings_fts: cannot register the rl_stem "
		                       "tokenizer (is FTS5 available?)");
		return rc;
	}
	static const char *const names[] = { RL_TRIGGER_FN, RL_TRIGGER_FN_16,
		"rl_importing" };
	for (size_t i = 0; i < sizeof names / sizeof *names && rc == SQLITE_OK;
	     i++)
		rc = sqlite3_create_function(db, names[i], 0,
			SQLITE_UTF8 | SQLITE_INNOCUOUS, NULL, importing_func,
			NULL, NULL);
	if (rc != SQLITE_OK)
		*err = sqlite3_mprintf("rulings_fts: cannot register the "
		                       "triggers' function");
	return rc;
}
