/* schema.h — the embedded schema migrations (generated from schema/ *.sql). */
#ifndef RL_SCHEMA_H
#define RL_SCHEMA_H

struct rl_migration {
	int version;       /* the user_version this migration produces */
	const char *name;  /* file name, for messages */
	const char *sql;
};

extern const struct rl_migration rl_schema_migrations[];
extern const int rl_schema_version;

/* The function the full-text triggers call (schema/016-plain-sql.sql):
 * 1 while rulings itself writes (it feeds the tables on its own), else 0.
 * rulings (src/db.c) and the rulings_fts extension give it; a client
 * without the extension is refused with "no such function: " and this
 * name, which says what to do. Both also give it as rl_importing, the
 * name schema 8's triggers, and a user's own copied from them, call. */
#define RL_TRIGGER_FN "load the rulings_fts extension to write to rulings " \
	"(LIBDIR/rulings/rulings_fts.so; man rulings)"

/* The migrations found by their names, not numbers (a number may change
 * when migrations are merged): the one whose CREATE TRIGGERs are the
 * full-text triggers, run by rl_schema_triggers() (src/db_schema.c), not
 * as they are; the one after which rl_refold() puts the rulings'
 * languages in small letters. */
#define RL_SCHEMA_TRIGGERS "plain-sql"
#define RL_SCHEMA_LANG_CASE "lang-case"


#endif
