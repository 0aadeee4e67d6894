/* stemtok.h — the rl_stem FTS5 tokenizer (see stemtok.c). */
#ifndef RL_STEMTOK_H
#define RL_STEMTOK_H

typedef struct sqlite3 sqlite3;

/* Registers the tokenizer "rl_stem" on db; an SQLite result code. */
int rl_stemtok_register(sqlite3 *db);

#endif
