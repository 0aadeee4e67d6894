/* thesaurus.c — terms that mean the same across languages.
 *
 * The thesaurus is a document like any other (importers/thesaurus.c reads
 * data/thesaurus.txt); its concepts are stored in concepts and
 * concept_terms. Search uses them to widen a tag or a word to its
 * equivalents: "Speed (Fast/Slow)" also finds "Swift (rapide)" and
 * "Быстрые и медленные атаки"; "Isolate" also finds "Isoler". */
#include "db.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void rl_strings_free(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int synonyms_in(rl_db *db, const char *term, const char *game,
                       char ***out, size_t *n)
{
	*out = NULL;
	*n = 0;
	char *key = rl_key_loose(term);
	if (!key)
		return RL_ENOMEM;
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT DISTINCT o.term FROM concept_terms t"
		" JOIN concepts c ON c.id = t.concept_id"
		" JOIN concept_terms o ON o.concept_id = c.id"
		" LEFT JOIN games g ON g.id = c.game_id"
		" WHERE t.term_fold = ?1 AND (c.game_id IS NULL OR ?2 IS NULL"
		"   OR rl_fold(g.name) = rl_fold(?2))"
		" ORDER BY o.term");
	if (!st) {
		free(key);
		return RL_EINTERNAL;
	}
	rl_bind_text(st, 1, key);
	rl_bind_text(st, 2, game);
	size_t cap = 0;
	int rc;
	bool oom = false;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!rl_grow(out, &cap, *n + 2, sizeof **out)) {
			oom = true;
			break;
		}
		char *t = rl_column_dup(st, 0, &oom);
		if (!t)
			break;
		(*out)[(*n)++] = t;
		(*out)[*n] = NULL;
	}
	sqlite3_finalize(st);
	free(key);
	if (oom || (rc != SQLITE_DONE && rc != SQLITE_ROW)) {
		rl_strings_free(*out, *n);
		*out = NULL;
		*n = 0;
		return oom ? RL_ENOMEM : rl_db_sqlite_fail(db, rc, "thesaurus");
	}
	return RL_OK;
}

int rl_synonyms(rl_db *db, const char *term, const char *game, char ***out,
                size_t *n)
{
	*out = NULL;
	*n = 0;
	int rc = rl_read_begin(db);
	return rc ? rc : rl_read_end(db, synonyms_in(db, term, game, out, n));
}
