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

#endif
