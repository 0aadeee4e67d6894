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

/* The function the full-text triggers call (schema/020-trigger-words.sql):
 * 1 while rulings itself writes (it feeds the tables on its own), else 0.
 * rulings (src/db.c) and the rulings_fts extension give it; a client
 * without the extension is refused with "no such function: " and this
 * name, which says what to do, true for any install (it is stored in the
 * database: no path of one). Both also give it by its older names,
 * schema 16's (RL_TRIGGER_FN_16) and schema 8's (rl_importing), which
 * those schemas' triggers, and a user's own copied from them, call. */
#define RL_TRIGGER_FN "load the rulings_fts extension to write to rulings " \
	"(rulings_fts.so, installed with rulings; man rulings, FILES)"
#define RL_TRIGGER_FN_16 "load the rulings_fts extension to write to " \
	"rulings (LIBDIR/rulings/rulings_fts.so; man rulings)"

/* The migrations found by their names, not numbers (a number may change
 * when migrations are merged): those whose CREATE TRIGGERs are the
 * full-text triggers, run by rl_schema_triggers() (src/db_schema.c), not
 * as they are (the last of them is the triggers' text now, the older one
 * what it was); the one after which rl_refold() puts the rulings'
 * languages in small letters. */
#define RL_SCHEMA_TRIGGERS "trigger-words"
#define RL_SCHEMA_TRIGGERS_16 "plain-sql"
#define RL_SCHEMA_LANG_CASE "lang-case"


#endif
