/* doc.h — building documents (for importers). */
#ifndef RL_DOC_H
#define RL_DOC_H

#include "rulings.h"

struct rl_strmap;

/* The kinds' names, indexed by enum rl_kind, then NULL: the one list
 * (rl_kind_name(), --kind and kind: checked, the champion lists' counts
 * per kind, topk.c). */
extern const char *const rl_kind_names[];

/* Appends a zeroed entry (hidden_tags = -1); NULL when memory ran out. */
struct rl_entry *rl_doc_add_entry(struct rl_doc *doc);
/* Adds a tag, in its canonical form (rl_tag_canonical()), unless e has it
 * already (case aside, as the store compares tags): an entry's tags are a
 * set. RL_ENOMEM on failure. */
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
/* Is the entry last added to doc of an earlier entry's kind and key (a
 * term, a card listed twice)? *first is that entry, or NULL (and the last
 * is remembered). seen maps the entries' kinds and keys to their places:
 * a file of many is not quadratic. RL_ENOMEM on failure. */
int rl_doc_same_entry(struct rl_doc *doc, struct rl_strmap *seen,
                      struct rl_entry **first);
/* rl_doc_same_entry(), then, when the entry last added to doc repeats an
 * earlier one: a warning at its line ("NOUN'TITLE' appears again (first
 * at line L); its WHAT is added to the first's"; noun: "term " or ""),
 * its content absorbed into the first (rl_entry_absorb), and the entry
 * removed from doc. RL_ENOMEM on failure. */
int rl_doc_merge_repeat(struct rl_doc *doc, struct rl_strmap *seen,
                        struct rl_diags *d, const char *noun,
                        const char *what);
/* e's content added to f's: e's text as another paragraph (unless f's
 * says it already), its references, tags and aliases. RL_ENOMEM on
 * failure. */
int rl_entry_absorb(struct rl_entry *f, const struct rl_entry *e);
/* A title made from text: its first sentence, cut at a word boundary to at
 * most about max bytes (with "…" when cut). */
char *rl_title_from_text(const char *text, size_t max);
/* The name a card's text (a glossary entry titled by the card) is keyed
 * by, "card: CARD" (card-faq, card-rulings): keyed by the card alone, a
 * card named like a term of the game's dictionary was one ruling with the
 * term, its text the one of the document imported last. A new string;
 * NULL when memory ran out. */
char *rl_card_text_name(const char *card);
void rl_errata_free(struct rl_errata *x);

/* How a document was read, as the store records its imports: the
 * format's name, then "/REVISION" from revision 2 on ("rst-glossary/2").
 * A new string; NULL when memory ran out. (registry.c) */
char *rl_doc_read_as(const struct rl_doc *doc);
/* Does the format recorded as read_as read text as it did then (its
 * revision is still the same)? A format no longer known: yes; NULL: no. */
bool rl_read_as_current(const char *read_as);

/* A file's name without its folders and extension ("a/b/Dégâts.md" →
 * "Dégâts"): the title of a document that names none. */
char *rl_file_stem(const char *path);

/* ---- What a recognizer reads from a document's own words -------------- */

/* The document's title (s[0..n) trimmed) and, a tag page's, its tag. */
int rl_doc_set_page_tag(struct rl_doc *doc, const char *s, size_t n);
/* The game the document names (s[0..n) trimmed), unless one is set. */
int rl_doc_set_game(struct rl_doc *doc, const char *s, size_t n);
/* The document's date, when it is one: RL_OK with doc->date set; a date
 * that does not exist (2022-02-30, month 13) is a warning at line, and
 * no date. */
int rl_doc_set_date(struct rl_doc *doc, long year, long month, long day,
                    struct rl_diags *d, unsigned line);
/* The text ends inside something unfinished that began at line (the
 * first such report is kept). */
void rl_doc_ends_inside(struct rl_doc *doc, enum rl_doc_end what,
                        unsigned line);
/* Is y-m-d a date of the Gregorian calendar (years 1 to 9999)? */
bool rl_date_valid(long year, long month, long day);
/* A decimal number of at most max from s[0..n): the digits that start it
 * (*used: how many bytes they take, when used is not NULL). False when
 * there are none or the number is above max (it is never computed past
 * max: no overflow). */
bool rl_parse_uint(const char *s, size_t n, unsigned long max,
                   unsigned long *out, size_t *used);

#endif
