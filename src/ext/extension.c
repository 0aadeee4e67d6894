/* extension.c — rulings_fts, a SQLite loadable extension with the rl_stem
 * tokenizer, so that the sqlite3 shell and other SQLite tools can run MATCH
 * queries on a rulings database:
 *
 *   sqlite3 rulings.db
 *   sqlite> .load /path/to/rulings_fts
 *   sqlite> SELECT title FROM rulings_fts_en WHERE rulings_fts_en MATCH 'defended';
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include "stemtok.h"

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
	if (rc != SQLITE_OK)
		*err = sqlite3_mprintf("rulings_fts: cannot register the rl_stem "
		                       "tokenizer (is FTS5 available?)");
	return rc;
}
