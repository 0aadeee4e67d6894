/* rst_glossary.c — a reStructuredText glossary (Sphinx): a title, section
 * headings (one a letter), and ".. glossary::" blocks of terms with
 * indented definitions, as in the Berserk: Heroes rules site (Russian).
 *
 *   Глоссарий                          the document's title (underlined)
 *   ============
 *   **Б**                              a heading: the section of the terms
 *                                      below (structure, not a tag)
 *   -----
 *   .. glossary::
 *
 *     **Броня Х.**                     a term: bold, with a final period
 *       :term:`Постоянная способность.` Порождает …      its definition
 *
 * Each term is a glossary entry: its title is the term without the bold
 * markers and the final period, its text the definition with the inline
 * markup made plain (:term:`X` → X, **x** → x, *x* → x, ``x`` → x,
 * `x <url>`_ → x). A :term:`X.` is a reference of kind term to X, its final
 * period dropped as it is from the terms, so that the two meet. Text after
 * the bold term on its line ("**Добывает.** [X] добывает [Y].") starts the
 * definition. Consecutive term lines share one definition (as in Sphinx):
 * the later ones are the entry's aliases. Text outside glossary blocks is
 * warned about and left out; other directives and comments are passed
 * over with what is indented under them. */
#include "importer.h"
#include "doc.h"
#include "re.h"
#include "rst.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Definitions that name the game (issue 12): "В ККИ «Берсерк. Герои» есть
 * …", "карточной игре «…»" (ККИ: коллекционная карточная игра): group 1
 * the game, when every such mention names the same one. */
static const char GAME_RE[] =
	"(?:\\b\\x{041A}\\x{041A}\\x{0418}|\\x{043A}\\x{0430}\\x{0440}\\x{0442}"
	"\\x{043E}\\x{0447}\\x{043D}\\w*\\s+\\x{0438}\\x{0433}\\x{0440}\\w*)"
	"\\s+\\x{00AB}([^\\x{00AB}\\x{00BB}\\n]{1,80})\\x{00BB}";

struct parser {
	struct rl_doc *doc;
	struct rl_diags *d;
	char *section;          /* the current heading, made plain; or NULL */
	bool have_cur;          /* the last entry is being read */
	bool cur_has_def;       /* a line of its definition was read */
	bool after_term;        /* the previous line was a term line */
	struct rl_buf def;      /* the current definition, markup as written */
	bool pending_blank;
	bool warned_stray;      /* stray text warned about in this paragraph */
	struct rl_strmap terms; /* the entries' keys so far, to their places */
};

/* ---- entries --------------------------------------------------------------- */

/* A term seen twice in one file (the same key: case, "ё" and the final
 * period aside) is one entry: the first is kept, and the second's
 * definition is added to it as another paragraph (unless the first says
 * it already), with the second's references, tags and aliases. Nothing the
 * file says is lost, and the entry keeps the first one's place (line). */
static int merge_duplicate(struct parser *p)
{
	return rl_doc_merge_repeat(p->doc, &p->terms, p->d, "term ",
	                           "definition");
}

static int finish(struct parser *p)
{
	if (!p->have_cur)
		return RL_OK;
	p->have_cur = false;
	p->pending_blank = false;
	struct rl_entry *e = &p->doc->entries[p->doc->n - 1];
	char *raw = rl_buf_take(&p->def);
	if (!raw)
		return RL_ENOMEM;
	struct rl_buf out = {0};
	int rc = rl_rst_plain(raw, strlen(raw), rl_rst_term_role, e, &out);
	free(raw);
	char *text = rl_buf_take(&out);
	if (!rc && !text)
		rc = RL_ENOMEM;
	if (rc) {
		free(text);
		return rc;
	}
	e->text = rl_strtrim(text, strlen(text));
	free(text);
	if (!e->text)
		return RL_ENOMEM;
	if (!*e->text &&
	    (rc = rl_diag_add(p->d, RL_WARNING, e->line, 0,
	                      "term '%s' has no definition", e->title)))
		return rc;
	return merge_duplicate(p);
}

static void add_def(struct parser *p, const char *s, size_t n)
{
	char *t = rl_strtrim(s, n);
	if (!t) {
		p->def.oom = true;
		return;
	}
	if (*t) {
		if (p->def.len)
			rl_buf_adds(&p->def, p->pending_blank ? "\n\n" : "\n");
		rl_buf_adds(&p->def, t);
		p->pending_blank = false;
		p->cur_has_def = true;
	}
	free(t);
}

/* A term line: "**Term.**", "**Term.** text", or a plain "Term". */
static int term_line(struct parser *p, const struct rl_block *l)
{
	bool alias = p->have_cur && p->after_term && !p->cur_has_def;
	int rc = alias ? RL_OK : finish(p);
	if (rc)
		return rc;
	char *line = rl_strtrim(l->text, l->len);
	if (!line)
		return RL_ENOMEM;
	const char *name = line, *rest = "";
	size_t name_len = strlen(line);
	if (strncmp(line, "**", 2) == 0) {
		const char *close = strstr(line + 2, "**");
		name = line + 2;
		if (close) {
			name_len = (size_t)(close - name);
			rest = close + 2;
		} else {
			name_len -= 2;
			rc = rl_diag_add(p->d, RL_WARNING, l->line, 0,
			                 "a term's bold has no end: the line is the term");
		}
	}
	char *plain_name = rc ? NULL : rl_rst_plain_copy(name, name_len);
	char *title = plain_name ? rl_rst_term_name(plain_name, strlen(plain_name)) : NULL;
	free(plain_name);
	if (!rc && !title)
		rc = RL_ENOMEM;
	if (!rc && !*title) {
		rc = rl_diag_add(p->d, RL_WARNING, l->line, 0,
		                 "an empty term; the line is left out");
		free(title);
		free(line);
		return rc;
	}
	if (!rc && alias) {
		/* another name for the definition that follows */
		rc = rl_entry_add_alias(&p->doc->entries[p->doc->n - 1], title);
		free(title);
		title = NULL;
	} else if (!rc) {
		struct rl_entry *e = rl_doc_add_entry(p->doc);
		if (!e) {
			free(title);
			free(line);
			return RL_ENOMEM;
		}
		e->kind = RL_KIND_GLOSSARY;
		e->line = l->line;
		e->title = title;
		e->key = rl_key(title);
		p->have_cur = true;
		p->cur_has_def = false;
		p->pending_blank = false;
		if (!e->key)
			rc = RL_ENOMEM;
		/* the heading above is structure (the letter of a dictionary),
		 * not what the term is about: its section, not a tag */
		if (!rc && p->section && !(e->section = rl_strdup(p->section)))
			rc = RL_ENOMEM;
	} else {
		free(title);
	}
	if (!rc)
		add_def(p, rest, strlen(rest));
	free(line);
	return rc;
}

/* Text where no glossary block holds it: left out, one warning a
 * paragraph. */
static int stray(struct parser *p, const struct rl_block *l)
{
	if (p->warned_stray)
		return RL_OK;
	p->warned_stray = true;
	return rl_diag_add(p->d, RL_WARNING, l->line, 0,
	                   "text outside a glossary block; left out");
}

static int heading(struct parser *p, const struct rl_block *l)
{
	int rc = finish(p);
	if (rc)
		return rc;
	char *h = rl_rst_plain_copy(l->text, l->len);
	if (!h)
		return RL_ENOMEM;
	free(p->section);
	p->section = NULL;
	if (*h)
		p->section = h;
	else
		free(h);
	return RL_OK;
}

static int recognize(const struct rl_blocks *b, struct rl_input *in)
{
	struct parser p = { .doc = in->doc, .d = in->d };
	const struct rl_block *v = b->v;
	size_t i = 0, n = b->n;
	int rc = rl_rst_doc_title(b, &i, in);
	for (; i < n && !rc; i++) {
		const struct rl_block *l = &v[i];
		switch (l->type) {
		case RL_BLOCK_BLANK:
			p.pending_blank = p.def.len > 0;
			p.after_term = false;
			p.warned_stray = false;
			continue;
		case RL_BLOCK_TRANSITION:
			p.after_term = false;
			continue;
		case RL_BLOCK_HEADING:
			rc = heading(&p, l);
			p.after_term = false;
			continue;
		case RL_BLOCK_OPTION:
			continue;
		case RL_BLOCK_TERM:
			rc = term_line(&p, l);
			p.after_term = true;
			continue;
		case RL_BLOCK_DEFINITION:
			if (!p.have_cur) {
				rc = stray(&p, l);
			} else {
				add_def(&p, l->text, l->len);
				p.after_term = false;
			}
			continue;
		default:
			break;
		}
		if (l->flags & RL_BLOCK_SKIPPED)
			continue;
		/* a directive, or text where no glossary block holds it */
		if ((rc = finish(&p)))
			break;
		if (l->type == RL_BLOCK_DIRECTIVE)
			p.after_term = false;
		else
			rc = stray(&p, l);
	}
	if (!rc)
		rc = finish(&p);
	if (!rc && p.def.oom)
		rc = RL_ENOMEM;
	if (!rc && in->doc->n == 0)
		rc = rl_diag_add(in->d, RL_WARNING, 0, 0, "no glossary terms");
	if (!rc)
		rc = rl_doc_game_from_words(in->doc, GAME_RE, 0, SIZE_MAX);
	rl_buf_free(&p.def);
	free(p.section);
	rl_strmap_free(&p.terms);
	return rc;
}

/* A ".. glossary::" directive is the signature. */
static enum rl_confidence probe(const char *text, size_t len)
{
	struct rl_blocks b;
	if (!rl_probe_read(text, len, rl_read_rst, &b))
		return RL_PROBE_ENOMEM;
	bool directive = false;
	for (size_t i = 0; i < b.n && !directive; i++)
		directive = b.v[i].type == RL_BLOCK_DIRECTIVE &&
		            b.v[i].name_len == 8 &&
		            memcmp(b.v[i].name, "glossary", 8) == 0;
	rl_blocks_free(&b);
	return directive ? RL_PROBE_STRONG : RL_PROBE_NO;
}

const struct rl_recognizer rl_format_rst_glossary = {
	.description = "reStructuredText glossary: \".. glossary::\" blocks of "
	               "terms (\"**Term.**\") with indented definitions, under "
	               "letter headings",
	.probe = probe,
	.recognize = recognize,
	.revision = 2,   /* 2: letter headings are sections, not tags */
};
