/* xref.h — finding cross-references in ruling text. */
#ifndef RL_XREF_H
#define RL_XREF_H

#include "rulings.h"

/* Finds the references written in text ("[p. 19]", "(p. 7–8)", …) and adds
 * them to e, one per target (page ranges and lists are expanded). A range
 * too long to be meant, or a number too large to be a page or rule, is a
 * warning in d (at e's line) and is kept as written. */
int rl_xref_scan(struct rl_entry *e, const char *text, struct rl_diags *d);

#endif
