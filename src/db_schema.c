/* db_schema.c — the schema: the list of migrations compiled from
 * schema/NNN-name.sql, PRAGMA user_version (how many have been applied),
 * creating and upgrading a database in one transaction, and which
 * versions the reading commands read as they are. */
#include "db.h"
#include "db_open.h"
#include "schema.h"
#include "topk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The oldest schema the reading commands understand as it is. */
enum { SCHEMA_READABLE = 7 };

/* PRAGMA user_version into *v: RL_OK, or the error. */
int rl_db_read_version(rl_db *db, int *v)
{
	sqlite3_stmt *st = rl_db_prepare(db, "PRAGMA user_version");
	if (!st)
		return RL_EINTERNAL;
	int rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? RL_OK : rl_db_sqlite_fail(db, rc,
	                                                    "read schema version");
}

int rl_db_schema_version(rl_db *db)
{
	int v;
	return rl_db_read_version(db, &v) ? -1 : v;
}

int rl_schema_latest(void)
{
	return rl_schema_version;
}

/* Whether the statement at p is sql (n bytes) and its ';' (SQLite keeps
 * a CREATE TRIGGER as written, without the ';'). */
static bool same_text(const char *p, const char *sql, size_t n)
{
	if (strncmp(p, sql, n) != 0)
		return false;
	p += n;
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return *p == ';';
}

bool rl_schema_trigger(const char *name, const char *sql, bool any)
{
	static const char create[] = "CREATE TRIGGER ";
	size_t nc = sizeof create - 1, nn = strlen(name), n = strlen(sql);
	const char *last = NULL;
	for (int m = 0; m < rl_schema_version; m++) {
		const char *text = rl_schema_migrations[m].sql;
		for (const char *p = text; (p = strstr(p, create)); p += nc) {
			if ((p != text && p[-1] != '\n') ||
			    strncmp(p + nc, name, nn) != 0 ||
			    (p[nc + nn] != ' ' && p[nc + nn] != '\n'))
				continue;
			if (any && same_text(p, sql, n))
				return true;
			last = p;
		}
	}
	return !any && last && same_text(last, sql, n);
}

/* One CREATE TRIGGER statement of the schema's (stmt, with its ';'): run,
 * after dropping a trigger of that name whose text a migration gave it;
 * not run where one of another text, a user's own, stands. */
static int install_trigger(rl_db *db, const char *name, const char *stmt)
{
	sqlite3_stmt *st = rl_db_prepare(db, "SELECT sql FROM sqlite_schema"
		" WHERE type = 'trigger' AND name = ?1 COLLATE NOCASE");
	if (!st)
		return RL_EINTERNAL;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	int step = sqlite3_step(st), rc = RL_OK;
	bool exists = step == SQLITE_ROW, own = false;
	if (exists) {
		const char *sql = (const char *)sqlite3_column_text(st, 0);
		own = sql && rl_schema_trigger(name, sql, true);
	} else if (step != SQLITE_DONE) {
		rc = rl_db_sqlite_fail(db, step, "triggers");
	}
	sqlite3_finalize(st);
	if (rc || (exists && !own))
		return rc;
	if (exists) {
		/* (names of the schema's own: no quoting needed) */
		char drop[128];
		snprintf(drop, sizeof drop, "DROP TRIGGER %s", name);
		rc = rl_db_exec(db, drop);
	}
	return rc ? rc : rl_db_exec(db, stmt);
}

/* Whether m is the migration NNN-name.sql. */
static bool named(const struct rl_migration *m, const char *name)
{
	const char *dash = strchr(m->name, '-');
	size_t n = strlen(name);
	return dash && strncmp(dash + 1, name, n) == 0 &&
	       strcmp(dash + 1 + n, ".sql") == 0;
}

/* Whether m's CREATE TRIGGERs are the full-text triggers (as they are
 * now, or as schema 16 made them). */
static bool triggers_migration(const struct rl_migration *m)
{
	return named(m, RL_SCHEMA_TRIGGERS) || named(m, RL_SCHEMA_TRIGGERS_16);
}

/* The statements of migration m, each trigger installed as
 * install_trigger() does. */
static int triggers_of(rl_db *db, const struct rl_migration *m);

int rl_schema_triggers(rl_db *db)
{
	const struct rl_migration *m = rl_schema_migrations;
	while (m < rl_schema_migrations + rl_schema_version &&
	       !named(m, RL_SCHEMA_TRIGGERS))
		m++;
	if (m == rl_schema_migrations + rl_schema_version)
		return rl_db_fail(db, RL_EINTERNAL, "no migration %s",
		                  RL_SCHEMA_TRIGGERS);
	return triggers_of(db, m);
}

static int triggers_of(rl_db *db, const struct rl_migration *m)
{
	const char *text = m->sql;
	static const char create[] = "CREATE TRIGGER ";
	int rc = RL_OK;
	/* each statement: the shortest text up to a ';' that is complete */
	for (const char *from = text, *semi = text;
	     !rc && (semi = strchr(semi, ';')); semi++) {
		char *stmt = strndup(from, (size_t)(semi + 1 - from));
		if (!stmt)
			return rl_db_fail(db, RL_ENOMEM, "out of memory");
		if (!sqlite3_complete(stmt)) {
			free(stmt);
			continue;
		}
		from = semi + 1;
		char *p = stmt;
		while ((p = strstr(p, create)) && p != stmt && p[-1] != '\n')
			p++;
		if (!p) {
			rc = rl_db_exec(db, stmt);
		} else {
			char name[64];
			size_t nn = strcspn(p + sizeof create - 1, " \n");
			if (nn >= sizeof name)
				rc = rl_db_fail(db, RL_EINTERNAL, "a trigger name "
				                "too long in %s",
				                m->name);
			else {
				memcpy(name, p + sizeof create - 1, nn);
				name[nn] = '\0';
				rc = install_trigger(db, name, p);
			}
		}
		free(stmt);
	}
	return rc;
}

/* *yes: whether sql (a SELECT ... LIMIT 1) has a row. */
static int any_row(rl_db *db, const char *sql, const char *what, bool *yes)
{
	sqlite3_stmt *st = rl_db_prepare(db, sql);
	if (!st)
		return RL_EINTERNAL;
	int step = sqlite3_step(st);
	sqlite3_finalize(st);
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return rl_db_sqlite_fail(db, step, what);
	*yes = step == SQLITE_ROW;
	return RL_OK;
}

/* A row when a ruling's language has a capital letter: the languages of
 * each game and kind, each found by one seek in rulings_identity (game,
 * kind, language, key) from the one before — not every ruling read, as
 * "WHERE lang <> lower(lang)" did (1M rulings: a scan of the index, 1.1 s
 * warm, minutes from a cold disk; this, 3 ms). */
static const char LANGS_IN_CAPITALS[] =
	"WITH RECURSIVE"
	" g(v) AS (SELECT (SELECT ifnull(game_id, 0) FROM rulings"
	"   ORDER BY ifnull(game_id, 0) LIMIT 1)"
	"  UNION ALL SELECT (SELECT ifnull(game_id, 0) FROM rulings"
	"   WHERE ifnull(game_id, 0) > g.v ORDER BY ifnull(game_id, 0) LIMIT 1)"
	"  FROM g WHERE g.v IS NOT NULL),"
	" k(g, v) AS (SELECT g.v, (SELECT kind FROM rulings"
	"   WHERE ifnull(game_id, 0) = g.v ORDER BY kind LIMIT 1)"
	"  FROM g WHERE g.v IS NOT NULL"
	"  UNION ALL SELECT k.g, (SELECT kind FROM rulings"
	"   WHERE ifnull(game_id, 0) = k.g AND kind > k.v ORDER BY kind LIMIT 1)"
	"  FROM k WHERE k.v IS NOT NULL),"
	" l(g, k, v) AS (SELECT k.g, k.v, (SELECT lang FROM rulings"
	"   WHERE ifnull(game_id, 0) = k.g AND kind = k.v ORDER BY lang LIMIT 1)"
	"  FROM k WHERE k.v IS NOT NULL"
	"  UNION ALL SELECT l.g, l.k, (SELECT lang FROM rulings"
	"   WHERE ifnull(game_id, 0) = l.g AND kind = l.k AND lang > l.v"
	"   ORDER BY lang LIMIT 1)"
	"  FROM l WHERE l.v IS NOT NULL)"
	" SELECT 1 FROM l WHERE l.v <> lower(l.v) LIMIT 1";

/* Applies the migrations after version have, then sets the
 * application_id, in the caller's transaction. Version 8 also refolds
 * (rl_refold()), rebuilding the full-text tables when a ruling holds
 * U+02BC, which the tokenizer now takes as a separator; version 15 builds
 * the lists per game (rl_topk_games) beside the lists already there. */
static int apply_migrations(rl_db *db, int have)
{
	int rc = RL_OK, src;
	for (int i = have; i < rl_schema_version && rc == RL_OK; i++) {
		const struct rl_migration *m = &rl_schema_migrations[i];
		/* the full-text triggers: a user's own are kept */
		if (triggers_migration(m)) {
			rc = triggers_of(db, m);
			if (rc)
				break;
		} else if ((src = sqlite3_exec(db->h, m->sql, NULL, NULL,
		                               NULL)) != SQLITE_OK) {
			rc = rl_db_sqlite_fail(db, src, m->name);
			break;
		}
		bool yes = false;
		if (m->version == 8 && have > 0) {
			rc = any_row(db, "SELECT 1 FROM rulings WHERE"
			             " instr(title, char(700)) OR instr(body,"
			             " char(700)) LIMIT 1", m->name, &yes);
			if (!rc)
				rc = rl_refold(db, yes, &db->info.merged_rulings,
				               &db->info.merged_tags);
		}
		/* 017-lang-case: rulings of a language in capitals ("FR"), moved
		 * to their language and merged where one is there already */
		if (!rc && named(m, RL_SCHEMA_LANG_CASE) && have > 0) {
			rc = any_row(db, LANGS_IN_CAPITALS, m->name, &yes);
			if (!rc && yes)
				rc = rl_refold(db, false, &db->info.merged_rulings,
				               &db->info.merged_tags);
		}
		/* version 15: the lists per game of the terms the thesaurus
		 * binds to games, beside the lists a database already has */
		if (!rc && m->version == 15 && have > 0)
			rc = rl_topk_games(db);
		if (!rc) {
			char pragma[64];
			snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d",
			         m->version);
			rc = rl_db_exec(db, pragma);
		}
	}
	if (!rc) {
		char pragma[64];
		snprintf(pragma, sizeof pragma, "PRAGMA application_id = %d",
		         RL_APPLICATION_ID);
		rc = rl_db_exec(db, pragma);
	}
	return rc;
}

int rl_db_upgrade_within(rl_db *db)
{
	int have = 0;
	int rc = rl_db_read_version(db, &have);
	if (rc || have <= 0 || have >= rl_schema_version)
		return rc;
	long long merged_rulings = db->info.merged_rulings,
	          merged_tags = db->info.merged_tags;
	rc = apply_migrations(db, have);
	db->info.merged_rulings = merged_rulings;
	db->info.merged_tags = merged_tags;
	return rc;
}

/* In one transaction: creates the schema in an EMPTY database, or
 * upgrades an older one — unless another process did so while this one
 * waited for the lock. */
int rl_db_migrate(rl_db *db, bool create)
{
	int rc = rl_db_exec(db, "BEGIN IMMEDIATE");
	if (rc)
		return rc;
	int have = 0;
	rc = rl_db_read_version(db, &have);
	if (!rc && have < 0)
		rc = rl_db_fail(db, RL_EIO, "not a rulings database (schema "
		                "version %d)", have);
	if (!rc && have > rl_schema_version)
		rc = rl_db_fail(db, RL_EINTERNAL, "database schema version %d is "
		                "newer than this rulings understands (%d)", have,
		                rl_schema_version);
	if (!rc && have < rl_schema_version) {
		rc = apply_migrations(db, have);
		if (!rc && have > 0)
			db->info.upgraded_from = have;
		if (!rc && have == 0)
			db->info.created = create;
	}
	if (rc) {
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		db->info.upgraded_from = 0;
		db->info.created = false;
		db->info.merged_rulings = db->info.merged_tags = 0;
		return rc;
	}
	rc = rl_db_exec(db, "COMMIT");
	if (!rc)
		db->info.version = rl_schema_version;
	return rc;
}

/* A database as it is, for reading: a version this rulings reads. */
int rl_db_check_version(rl_db *db, const char *path, int version)
{
	if (version > rl_schema_version)
		return rl_db_fail(db, RL_EINTERNAL, "database schema version %d is "
		                  "newer than this rulings understands (%d)",
		                  version, rl_schema_version);
	if (version == 0)
		return rl_db_fail(db, RL_EIO, "'%s' holds no rulings yet (import a "
		                  "document first)", path);
	if (version < 0)
		return rl_db_fail(db, RL_EIO, "'%s' is not a rulings database "
		                  "(schema version %d)", path, version);
	if (version < SCHEMA_READABLE)
		return rl_db_fail(db, RL_EIO, "'%s' has schema version %d, older "
		                  "than this rulings reads: a command that writes "
		                  "(import, reindex) upgrades it", path, version);
	return RL_OK;
}

