/* card_rulings.c — dated card rulings as JSON (the Codex rulings file is
 * the model):
 *
 *   { "General": [                          a section (a card's colour)
 *       { "card": "Anti-air",               the card
 *         "abilityText": "Can attack …",    a keyword's definition
 *         "ruling": "You don't have to …",  a ruling on the card
 *         "date": "2016-03-14T07:00:00.000Z",
 *         "author": "Sirlin" }, … ], … }
 *
 * Each ruling becomes a ruling (kind faq) titled by its card, tagged with
 * it, in the section's category, with its date and author; its identity is
 * (card, ruling). An abilityText is the card's glossary entry (once per
 * card), titled by the card and keyed "card: CARD" as card-faq's card
 * texts are (a term of the game's dictionary named like the card is
 * another ruling); a card with neither is a card not ruled on yet. An entry without
 * a card is reported with its line and left out; the others are read.
 * The file does not name its game (--game) nor a title: every such file
 * is a version of the document "card rulings" (--document names another).
 * Its date is its newest ruling's day (the date's first ten characters,
 * when they are a day of the calendar): the file is as of then. */
#include "importer.h"
#include "doc.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static const char TITLE[] = "card rulings";
enum { TITLE_MAX = 100 };

/* An entry's members: the first of each name, a string or NULL. */
struct card_entry {
	unsigned line;
	const char *card, *ruling, *ability, *date, *author;
};

/* The index after the value at i and everything in it. */
static size_t after(const struct rl_blocks *b, size_t i)
{
	size_t k = i + 1;
	while (k < b->n && b->v[k].level > b->v[i].level)
		k++;
	return k;
}

static int add_ruling(struct rl_doc *doc, const char *section,
                      const struct card_entry *e, const char *card,
                      const char *ruling)
{
	struct rl_entry *x = rl_doc_add_entry(doc);
	if (!x)
		return RL_ENOMEM;
	x->kind = RL_KIND_FAQ;
	x->line = e->line;
	char *first = rl_title_from_text(ruling, TITLE_MAX);
	if (!first)
		return RL_ENOMEM;
	struct rl_buf t = {0};
	rl_buf_addf(&t, "%s: %s", card, first);
	free(first);
	x->title = rl_buf_take(&t);
	x->text = rl_strdup(ruling);
	x->category = rl_strdup(section);
	x->date = rl_strdup(e->date);
	x->author = rl_strdup(e->author);
	struct rl_buf k = {0};
	rl_buf_addf(&k, "%s|%s", card, ruling);
	char *raw = rl_buf_take(&k);
	x->key = raw ? rl_key(raw) : NULL;
	free(raw);
	if (!x->title || !x->text || !x->category || !x->key ||
	    (e->date && !x->date) || (e->author && !x->author))
		return RL_ENOMEM;
	return rl_entry_add_tag(x, card, NULL);
}

static int add_keyword(struct rl_doc *doc, const char *section,
                       const struct card_entry *e, const char *card,
                       const char *text)
{
	/* once per card, as the store tells cards apart: by key, which
	 * folds case; "card: CARD" (rl_card_text_name), not the card alone,
	 * which was the key of a term of that name in the game's dictionary */
	char *name = rl_card_text_name(card);
	char *key = name ? rl_key(name) : NULL;
	free(name);
	if (!key)
		return RL_ENOMEM;
	for (size_t i = 0; i < doc->n; i++)
		if (doc->entries[i].kind == RL_KIND_GLOSSARY &&
		    doc->entries[i].key && strcmp(doc->entries[i].key, key) == 0) {
			free(key);
			return RL_OK;
		}
	struct rl_entry *x = rl_doc_add_entry(doc);
	if (!x) {
		free(key);
		return RL_ENOMEM;
	}
	x->kind = RL_KIND_GLOSSARY;
	x->line = e->line;
	x->key = key;
	x->title = rl_strdup(card);
	x->text = rl_strdup(text);
	x->category = rl_strdup(section);
	if (!x->title || !x->text || !x->category)
		return RL_ENOMEM;
	return rl_entry_add_tag(x, card, NULL);
}

/* The members of the entry whose object is at i. */
static struct card_entry members(const struct rl_blocks *b, size_t i)
{
	struct card_entry e = { .line = b->v[i].line };
	static const char *const names[] = { "card", "ruling", "abilityText",
	                                     "date", "author" };
	const char **slot[] = { &e.card, &e.ruling, &e.ability, &e.date,
	                        &e.author };
	bool seen[5] = {0};
	for (size_t k = i + 1; k < b->n && b->v[k].level > b->v[i].level;
	     k = after(b, k)) {
		const struct rl_block *m = &b->v[k];
		for (size_t j = 0; j < 5; j++)
			if (!seen[j] && m->name && strcmp(m->name, names[j]) == 0) {
				seen[j] = true;
				*slot[j] = m->kind == RL_VALUE_STRING ? m->text : NULL;
			}
	}
	return e;
}

static int entry(struct rl_doc *doc, struct rl_diags *d, const char *section,
                 const struct rl_blocks *b, size_t i)
{
	if (b->v[i].kind != RL_VALUE_OBJECT)
		return rl_diag_add(d, RL_WARNING, b->v[i].line, 0,
		                   "an entry of '%s' is not an object; left out",
		                   section);
	struct card_entry e = members(b, i);
	if (!e.card || !*e.card)
		return rl_diag_add(d, RL_WARNING, e.line, 0,
		                   "an entry of '%s' has no card; left out", section);
	/* a card with neither is a card with no ruling yet */
	int rc = RL_OK;
	if (e.ability && *e.ability)
		rc = add_keyword(doc, section, &e, e.card, e.ability);
	if (!rc && e.ruling && *e.ruling)
		rc = add_ruling(doc, section, &e, e.card, e.ruling);
	return rc;
}

static int recognize(const struct rl_blocks *b, struct rl_input *in)
{
	struct rl_doc *doc = in->doc;
	struct rl_diags *d = in->d;
	if (b->n == 0 || b->v[0].kind != RL_VALUE_OBJECT) {
		rl_diag_add(d, RL_ERROR, b->n ? b->v[0].line : 0, 0,
		            "expected an object of sections (arrays of rulings)");
		return RL_EDATA;
	}
	int rc = (doc->title = rl_strdup(TITLE)) ? RL_OK : RL_ENOMEM;
	for (size_t s = 1; s < b->n && !rc; s = after(b, s)) {
		const struct rl_block *list = &b->v[s];
		if (list->kind != RL_VALUE_ARRAY) {
			rc = rl_diag_add(d, RL_WARNING, list->line, 0,
			                 "section '%s' is not a list of rulings; left out",
			                 list->name);
			continue;
		}
		for (size_t i = s + 1; i < b->n && b->v[i].level > list->level && !rc;
		     i = after(b, i))
			rc = entry(doc, d, list->name, b, i);
	}
	/* the document's date: its newest dated entry's day */
	const char *newest = NULL;
	for (size_t i = 0; i < doc->n && !rc; i++) {
		const char *t = doc->entries[i].date;
		char day[11];
		if (!t || strlen(t) < 10)
			continue;
		memcpy(day, t, 10);
		day[10] = '\0';
		if ((t[10] == '\0' || t[10] == 'T') && rl_day_valid(day) &&
		    (!newest || memcmp(t, newest, 10) > 0))
			newest = t;
	}
	if (!rc && newest && !(doc->date = rl_strndup(newest, 10)))
		rc = RL_ENOMEM;
	return rc;
}

/* A JSON object with "card" and "ruling" members. */
static enum rl_confidence probe(const char *text, size_t len)
{
	size_t i = 0;
	while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t'))
		i++;
	if (i == len || text[i] != '{')
		return RL_PROBE_NO;
	size_t scan = len < 65536 ? len : 65536;
	bool card = false, ruling = false;
	for (size_t k = i; k + 9 < scan; k++) {
		card |= memcmp(text + k, "\"card\"", 6) == 0;
		ruling |= memcmp(text + k, "\"ruling\"", 8) == 0;
	}
	return card && ruling ? RL_PROBE_STRONG : RL_PROBE_NO;
}

const struct rl_recognizer rl_format_card_rulings = {
	.description = "dated card rulings as JSON: sections of {card, ruling, "
	               "date, author, abilityText}",
	.probe = probe,
	.recognize = recognize,
};
