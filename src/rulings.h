/*
 * rulings.h — the public interface of librulings.
 *
 * The library reads documents, keeps rulings in a SQLite database and answers
 * queries. It never prints and never exits: every function returns an
 * rl_status, fills its out-parameters only on success, and leaves messages for
 * the caller (rl_db_errmsg() for database errors, an rl_diags list for
 * problems found in input). Every *_free() function accepts NULL.
 *
 * Strings are UTF-8 and owned by the structure that holds them unless a
 * comment says otherwise.
 */
#ifndef RULINGS_H
#define RULINGS_H

#include "rulings/base.h"
#include "rulings/document.h"
#include "rulings/database.h"
#include "rulings/query.h"
#include "rulings/export.h"

#endif
