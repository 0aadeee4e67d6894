/* store_adopt.c — a game-less document adopted by its game (issue 12).
 *
 * Databases made before imports had to name a game hold documents of no
 * game: a FAQ page imported once with --game and once without was two
 * documents, and its rulings were stored twice. Importing such a document
 * again with its game merges it into that game: the document (its
 * versions, their dates and changes) becomes the game's, and so do its
 * rulings; when the game has that document too (the page was imported
 * with its game as well), the two become one, with both histories. A
 * game-less ruling that the game already holds under the same
 * identity (kind, language, key) is a duplicate: the game's ruling is the
 * one the new version lists, and the duplicate, when no other document
 * lists it, is deleted (its text is the game's ruling's or, once this
 * version is stored, its earlier text). */
#include "db.h"

#include <stdio.h>

int rl_store_adopt(rl_db *db, long long game, const char *format,
                   const char *title, long long *docid, bool *merged)
{
	long long gameless = 0;
	*merged = false;
	sqlite3_stmt *st = rl_db_prepare(db, "SELECT id FROM documents WHERE"
	                                 " game_id IS NULL AND format = ?1 AND"
	                                 " title = ?2");
	if (!st)
		return RL_EINTERNAL;
	rl_bind_text(st, 1, format);
	rl_bind_text(st, 2, title);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		gameless = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return rl_db_sqlite_fail(db, rc, "find a game-less document");
	if (!gameless)
		return RL_OK;
	/* the versions' listings name the game's ruling in place of a
	 * duplicate deleted below */
	char moved[640];
	snprintf(moved, sizeof moved,
	         "INSERT OR IGNORE INTO version_rulings (import_id, ruling_id,"
	         " title, body, marked) SELECT v.import_id, g.id, v.title, v.body,"
	         " v.marked FROM version_rulings v JOIN rulings r"
	         " ON r.id = v.ruling_id JOIN rulings g ON g.game_id = %lld"
	         " AND g.kind = r.kind AND g.lang = r.lang AND g.key = r.key"
	         " WHERE r.game_id IS NULL AND v.import_id IN"
	         " (SELECT id FROM imports WHERE document_id = %lld)",
	         game, gameless);
	rc = rl_db_exec(db, moved);
	if (rc)
		return rc;
	char sql[3072];
	int n = snprintf(sql, sizeof sql,
	         /* the duplicates only this document lists */
	         "DELETE FROM rulings WHERE game_id IS NULL AND id IN"
	         " (SELECT ruling_id FROM ruling_sources WHERE document_id = %lld)"
	         " AND NOT EXISTS (SELECT 1 FROM ruling_sources o"
	         "  WHERE o.ruling_id = rulings.id AND o.document_id <> %lld)"
	         " AND EXISTS (SELECT 1 FROM rulings g WHERE g.game_id = %lld"
	         "  AND g.kind = rulings.kind AND g.lang = rulings.lang"
	         "  AND g.key = rulings.key);"
	         /* the others become the game's */
	         "UPDATE rulings SET game_id = %lld WHERE game_id IS NULL AND id IN"
	         " (SELECT ruling_id FROM ruling_sources WHERE document_id = %lld)"
	         " AND NOT EXISTS (SELECT 1 FROM rulings g WHERE g.game_id = %lld"
	         "  AND g.kind = rulings.kind AND g.lang = rulings.lang"
	         "  AND g.key = rulings.key);",
	         gameless, gameless, game, game, gameless, game);
	if (!*docid) {
		/* the game has no such document yet: this one becomes it */
		snprintf(sql + n, sizeof sql - (size_t)n,
		         "UPDATE documents SET game_id = %lld WHERE id = %lld;",
		         game, gameless);
		*docid = gameless;
	} else {
		/* the game has it too: one document, with both histories; what
		 * the game-less one listed is the game's document's until the
		 * version being stored says otherwise */
		long long g = *docid;
		snprintf(sql + n, sizeof sql - (size_t)n,
		         "INSERT OR IGNORE INTO ruling_sources (ruling_id,"
		         " document_id, import_id, line, hidden_tags)"
		         " SELECT ruling_id, %lld, import_id, line, hidden_tags"
		         " FROM ruling_sources WHERE document_id = %lld;"
		         "INSERT OR IGNORE INTO ruling_tags (ruling_id, tag_id,"
		         " document_id, origin) SELECT ruling_id, tag_id, %lld,"
		         " origin FROM ruling_tags WHERE document_id = %lld;"
		         "UPDATE imports SET document_id = %lld"
		         " WHERE document_id = %lld;"
		         "DELETE FROM documents WHERE id = %lld;",
		         g, gameless, g, gameless, g, gameless, gameless);
	}
	*merged = true;
	return rl_db_exec(db, sql);
}
