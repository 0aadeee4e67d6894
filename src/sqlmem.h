/* sqlmem.h — SQLite's memory in a rulings process (sqlmem.c). */
#ifndef RL_SQLMEM_H
#define RL_SQLMEM_H

#include <sqlite3.h>

/* Makes SQLite allocate through sqlmem.c's methods
 * (SQLITE_CONFIG_MALLOC): before SQLite's first use; SQLite's result
 * code. */
int rl_sqlmem_install(void);

/* rl_sqlmem_install(), but in a build with AddressSanitizer, whose leak
 * checker sees only malloc's blocks: there SQLite stays on malloc. */
int rl_sqlmem_setup(void);

#endif
