/* stemtok.h — the rl_stem FTS5 tokenizer (see stemtok.c). */
#ifndef RL_STEMTOK_H
#define RL_STEMTOK_H

typedef struct sqlite3 sqlite3;

typedef struct fts5_api fts5_api;

/* db's FTS5 API (SELECT fts5(?1)), or NULL. */
fts5_api *rl_fts5_api(sqlite3 *db);
/* Registers the tokenizer "rl_stem" on db; an SQLite result code. */
int rl_stemtok_register(sqlite3 *db);
/* The same on the connection whose FTS5 API is api (NULL: SQLITE_ERROR). */
int rl_stemtok_register_api(fts5_api *api);
/* How many tokens the full-text tables would make of text[0..n) (the
 * tokens rl_stem and unicode61 split alike); -1 on error. */
int rl_stemtok_count(sqlite3 *db, const char *text, int n);
/* The same with one tokenizer for many texts: open, count, close. */
struct rl_tokcount;
/* (api: the connection's FTS5 API, rl_fts5_api; NULL fails) */
struct rl_tokcount *rl_tokcount_open(fts5_api *api);
int rl_tokcount(struct rl_tokcount *c, const char *text, int n);
void rl_tokcount_close(struct rl_tokcount *c);

#endif
