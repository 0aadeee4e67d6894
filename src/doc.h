/* doc.h — building documents (for importers). */
#ifndef RL_DOC_H
#define RL_DOC_H

#include "rulings.h"

/* Appends a zeroed entry (hidden_tags = -1); NULL when memory ran out. */
struct rl_entry *rl_doc_add_entry(struct rl_doc *doc);
/* Adds a tag (name and qualifier are copied); RL_ENOMEM on failure. */
int rl_entry_add_tag(struct rl_entry *e, const char *name, const char *qualifier);
/* Adds an alias (copied): another name the entry answers to. */
int rl_entry_add_alias(struct rl_entry *e, const char *alias);
/* Adds a reference (target copied). */
int rl_entry_add_ref(struct rl_entry *e, enum rl_ref_kind kind, const char *target);
/* Has e a reference of this kind to exactly this target? In constant time
 * once e has many (an index kept with the entry). */
int rl_entry_has_ref(struct rl_entry *e, enum rl_ref_kind kind,
                     const char *target, bool *found);
void rl_entry_clear(struct rl_entry *e);
/* A title made from text: its first sentence, cut at a word boundary to at
 * most about max bytes (with "…" when cut). */
char *rl_title_from_text(const char *text, size_t max);
/* Lines of a source, for line-oriented importers. */
struct rl_line {
	const char *s;
	size_t n;
	unsigned no;
};
/* Splits src->text into lines (*out is malloc'd; free it). */
int rl_split_lines(const struct rl_source *src, struct rl_line **out, size_t *n);
void rl_errata_free(struct rl_errata *x);

#endif
