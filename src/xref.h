/* xref.h — finding cross-references in ruling text. */
#ifndef RL_XREF_H
#define RL_XREF_H

#include "rulings.h"

/* Finds the references written in text ("[p. 19]", "(p. 7–8)", …) and adds
 * them to e, one per target (page ranges and lists are expanded). */
int rl_xref_scan(struct rl_entry *e, const char *text);

#endif
