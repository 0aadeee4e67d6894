/* msg.h — the message catalog: the interface words of the exported pages
 * in each language the catalog has (po/LANG.po, compiled in by
 * po/compile.py; no gettext at run time).
 *
 * A message is named by its msgctxt (MSG_ALL_TAGS for "all-tags"). Its
 * placeholders {1}, {2} are filled by msg_fill; a count picks its plural
 * form by the language's Plural-Forms rule (Russian: 1 правило,
 * 2 правила, 5 правил; French: 0 and 1 singular). */
#ifndef RL_MSG_H
#define RL_MSG_H

#include "messages_gen.h"

#include <stdbool.h>
#include <stddef.h>

enum { MSG_FORMS = 3 };         /* the most plural forms a language has */

struct msg_lang {
	const char *code;             /* "en" */
	unsigned nplurals;
	unsigned long (*plural)(unsigned long n);
	const char *const (*strings)[MSG_FORMS];   /* [MSG_COUNT] */
};
struct msg_info {
	const char *name;             /* "all-tags" */
	bool plural;
};

/* The catalog (generated): msg_langs[0] is English, the reference. */
extern const struct msg_lang msg_langs[];
extern const size_t msg_nlangs;
extern const struct msg_info msg_info[MSG_COUNT];

/* The catalog's language for code ("ru", "fr"; a region such as "fr-CA"
 * is its language), or NULL when the catalog does not have it. */
const struct msg_lang *msg_find(const char *code);
/* The catalog's language for code, English when it has none. */
const struct msg_lang *msg_lang_or_en(const char *code);

/* Message id in language l (its singular for a plural message). */
const char *msg_get(const struct msg_lang *l, enum rl_msg id);
/* The form of plural message id for count n, with {1} as n: a new
 * string (NULL: out of memory). */
char *msg_count(const struct msg_lang *l, enum rl_msg id, size_t n);
/* The words for a code the data holds, in language l: a ruling's kind
 * (faq, errata, rule, glossary), a kind of change (added, edited,
 * withdrawn, marked), a language's name ("fr": "French" in English,
 * "французский" in Russian; a region such as "fr-CA" named as its
 * language). A code the catalog has no word for is returned as it is. */
const char *msg_kind(const struct msg_lang *l, const char *kind);
const char *msg_change(const struct msg_lang *l, const char *change);
const char *msg_lang_name(const struct msg_lang *l, const char *code);
/* The language of most of a page's or a feed's items: each item's
 * language added (NULL or "" not counted; the first sixteen languages
 * met are counted), then the most frequent (of those equally frequent,
 * the first to reach that count), NULL when none was added. */
struct msg_tally {
	const char *lang[16];
	size_t n[16], nt, best;
};
void msg_tally_add(struct msg_tally *t, const char *lang);
const char *msg_tally_best(const struct msg_tally *t);
/* tmpl with each {K} (K from 1 to nargs) replaced by args[K-1]: a new
 * string (NULL: out of memory). Other braces are kept. */
char *msg_fill(const char *tmpl, size_t nargs, const char *const args[]);

#endif
