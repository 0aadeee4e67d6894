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
 * card); a card with neither is a card not ruled on yet. An entry without
 * a card is reported with its line and left out; the others are read. The file does not name its game (--game) nor a
 * title: every such file is a version of the document "card rulings"
 * (--document names another). */
#include "importer.h"
#include "doc.h"
#include "jsonread.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static const char TITLE[] = "card rulings";
enum { TITLE_MAX = 100 };

static int add_ruling(struct rl_doc *doc, const char *section,
                      const struct rl_json *e, const char *card,
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
	x->date = rl_strdup(rl_json_str(e, "date"));
	x->author = rl_strdup(rl_json_str(e, "author"));
	struct rl_buf k = {0};
	rl_buf_addf(&k, "%s|%s", card, ruling);
	char *raw = rl_buf_take(&k);
	x->key = raw ? rl_key(raw) : NULL;
	free(raw);
	if (!x->title || !x->text || !x->category || !x->key ||
	    (rl_json_str(e, "date") && !x->date) ||
	    (rl_json_str(e, "author") && !x->author))
		return RL_ENOMEM;
	return rl_entry_add_tag(x, card, NULL);
}

static int add_keyword(struct rl_doc *doc, const char *section,
                       const struct rl_json *e, const char *card,
                       const char *text)
{
	/* once per card, as the store tells cards apart: by key, which
	 * folds case */
	char *key = rl_key(card);
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

static int parse(const struct rl_source *src, const struct rl_import_opts *opts,
                 struct rl_doc *doc, struct rl_diags *d)
{
	struct rl_json *root;
	int rc = rl_json_parse(src->text, src->len, &root, d);
	if (rc)
		return rc;
	if (root->type != RL_JSON_OBJECT) {
		rl_diag_add(d, RL_ERROR, root->line, 0,
		            "expected an object of sections (arrays of rulings)");
		rl_json_free(root);
		return RL_EDATA;
	}
	if (!(doc->title = rl_strdup(TITLE)))
		rc = RL_ENOMEM;
	for (size_t s = 0; s < root->n && !rc; s++) {
		const char *section = root->keys[s];
		const struct rl_json *list = root->items[s];
		if (list->type != RL_JSON_ARRAY) {
			rc = rl_diag_add(d, RL_WARNING, list->line, 0,
			                 "section '%s' is not a list of rulings; left out",
			                 section);
			continue;
		}
		for (size_t i = 0; i < list->n && !rc; i++) {
			const struct rl_json *e = list->items[i];
			if (e->type != RL_JSON_OBJECT) {
				rc = rl_diag_add(d, RL_WARNING, e->line, 0,
				                 "an entry of '%s' is not an object; left out",
				                 section);
				continue;
			}
			const char *card = rl_json_str(e, "card");
			const char *ruling = rl_json_str(e, "ruling");
			const char *ability = rl_json_str(e, "abilityText");
			if (!card || !*card) {
				rc = rl_diag_add(d, RL_WARNING, e->line, 0,
				                 "an entry of '%s' has no card; left out",
				                 section);
				continue;
			}
			/* a card with neither is a card with no ruling yet */
			if (ability && *ability)
				rc = add_keyword(doc, section, e, card, ability);
			if (!rc && ruling && *ruling)
				rc = add_ruling(doc, section, e, card, ruling);
		}
	}
	rl_json_free(root);
	return rc;
}

/* A JSON object with "card" and "ruling" members. */
static int probe(const char *text, size_t len)
{
	size_t i = 0;
	while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t'))
		i++;
	if (i == len || text[i] != '{')
		return 0;
	size_t scan = len < 65536 ? len : 65536;
	bool card = false, ruling = false;
	for (size_t k = i; k + 9 < scan; k++) {
		card |= memcmp(text + k, "\"card\"", 6) == 0;
		ruling |= memcmp(text + k, "\"ruling\"", 8) == 0;
	}
	return card && ruling ? 85 : 0;
}

const struct rl_importer rl_importer_card_rulings = {
	.name = "card-rulings",
	.description = "dated card rulings as JSON: sections of {card, ruling, "
	               "date, author, abilityText}",
	.probe = probe,
	.parse = parse,
};
