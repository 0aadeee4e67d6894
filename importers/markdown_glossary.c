/* markdown_glossary.c — a glossary kept as Markdown files, one term a file
 * (an Obsidian vault published with MkDocs), as in the French Marvel
 * Champions rules reference.
 *
 *   # Dégâts en excès                  the term: the entry's title, and the
 *                                      document's (each file is one)
 *   Les dégâts en excès sont …         the definition: the entry's text
 *
 *   **Voir aussi :**                   "see also": the links below are
 *   [[Allie|Allié]]                    term references to the file named
 *   [[Identité]]                       (Allie), not to the text shown
 *
 * Every wikilink is a reference of kind term whose target is the link's
 * file name part ([[Allie|Allié]] → "Allie", [[Page#Part]] → "Page"); in
 * the text a link shows as what it displays ("Allié"). The see-also block
 * is left out of the text. Embedded files (![[icon.png|20]]) and images are
 * dropped; **bold**, *emphasis*, `code` and "> " quotes are made plain.
 * The entry answers to its file name without the extension as an alias,
 * so links resolve by file name or by title, case and accents aside; a
 * file in a one-letter directory (Glossaire/D/…) has the letter for its
 * section (structure, not a tag). The game is never guessed: --game names
 * it.
 *
 * A file without a "# " title still makes an entry: a "## " heading that
 * opens it and is the only one of its level, else a first line that reads
 * as a title (short, no final punctuation, text below it), else the file
 * name, stands for the title, with a warning. Icon-font glyphs (private
 * use code points) and the empty "()" they leave are dropped from titles. */
#include "importer.h"
#include "doc.h"
#include "markdown.h"
#include "utf8.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { TITLE_LINE_MAX = 100 };

/* ---- references --------------------------------------------------------- */

/* The entry that links in the text become references of, and the
 * references it has, by kind and, for terms, as they resolve: case and
 * accents aside ([[Defausse]] and [[défausse]] are one reference, the
 * first one written). */
struct refs {
	struct rl_entry *e;
	struct rl_strset seen;
};

static int add_ref(void *ctx, enum rl_ref_kind k, const char *s, size_t n)
{
	struct refs *r = ctx;
	if (!r || !r->e)
		return RL_OK;
	char *t = rl_strtrim(s, n);
	if (!t)
		return RL_ENOMEM;
	int rc = RL_OK;
	if (*t) {
		char *kt = k == RL_REF_TERM ? rl_key_loose(t) : rl_strdup(t);
		struct rl_buf key = {0};
		rl_buf_addc(&key, (char)('A' + (int)k));
		rl_buf_adds(&key, kt ? kt : "");
		int added = kt && !key.oom ? rl_strset_add(&r->seen, key.s, key.len)
		                           : -1;
		if (added < 0)
			rc = RL_ENOMEM;
		else if (added)
			rc = rl_entry_add_ref(r->e, k, t);
		rl_buf_free(&key);
		free(kt);
	}
	free(t);
	return rc;
}

/* ---- lines ------------------------------------------------------------------ */

/* "Voir aussi :", "**Voir :**", "See also:": what opens the links to
 * related entries. */
static bool is_see_also(const struct rl_block *b)
{
	char buf[64];
	size_t k = 0;
	for (size_t i = 0; i < b->raw_len; i++) {
		char c = b->raw[i];
		if (c == '*' || c == '_' || c == ':' || c == ' ' || c == '\t' ||
		    c == '\r')
			continue;
		size_t blank = rl_blank_len(b->raw + i);
		if (blank > 1 && i + blank <= b->raw_len) {
			i += blank - 1;
			continue;
		}
		if (k + 1 >= sizeof buf)
			return false;
		buf[k++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
	}
	buf[k] = '\0';
	return strcmp(buf, "voir") == 0 || strcmp(buf, "voiraussi") == 0 ||
	       strcmp(buf, "see") == 0 || strcmp(buf, "seealso") == 0;
}

/* The name of the directory holding the file when it is one character
 * (Glossaire/D/Degats.md → "D"), else NULL. */
static char *letter_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash || slash == path)
		return NULL;
	const char *dir = slash;
	while (dir > path && dir[-1] != '/')
		dir--;
	size_t n = (size_t)(slash - dir);
	if (n == 0)
		return NULL;
	uint32_t c;
	size_t len = rl_utf8_decode(dir, &c);
	return len == n && dir[0] != '.' ? rl_strndup(dir, n) : NULL;
}

/* A title made plain: markup, icon-font glyphs (U+E000–U+F8FF) and the
 * "()" they leave, doubled blanks. */
static char *clean_title(const char *s, size_t n)
{
	struct rl_buf b = {0}, c = {0};
	if (rl_md_plain(s, n, NULL, NULL, &b)) {
		rl_buf_free(&b);
		return NULL;
	}
	char *t = rl_buf_take(&b);
	if (!t)
		return NULL;
	for (size_t i = 0; t[i]; ) {
		uint32_t cp;
		size_t len = rl_utf8_decode(t + i, &cp);
		if (!(cp >= 0xE000 && cp <= 0xF8FF))
			rl_buf_add(&c, t + i, len);
		i += len;
	}
	free(t);
	if (!(t = rl_buf_take(&c)))
		return NULL;
	/* "()" out, again and again ("(())" too), then one blank of each run:
	 * in place, in one pass each */
	size_t o = 0;
	for (size_t i = 0; t[i]; i++)
		if (t[i] == ')' && o && t[o - 1] == '(')
			o--;
		else
			t[o++] = t[i];
	t[o] = '\0';
	o = 0;
	for (size_t i = 0; t[i]; i++)
		if (!(t[i] == ' ' && o && t[o - 1] == ' '))
			t[o++] = t[i];
	t[o] = '\0';
	char *r = rl_strtrim(t, strlen(t));
	free(t);
	return r;
}

/* Does a first line read as a title: short, no final punctuation, not a
 * list item, quote or link, with text on the next line? */
static bool reads_as_title(const struct rl_blocks *b, size_t i)
{
	const char *t = b->v[i].raw;
	size_t len = b->v[i].raw_len;
	rl_trim_range(&t, &len);
	return len > 0 && len <= TITLE_LINE_MAX && !strchr("-*+>[!|`#", t[0]) &&
	       !strchr(".,;:!?", t[len - 1]) && !(t[0] >= '0' && t[0] <= '9') &&
	       i + 1 < b->n && b->v[i + 1].type != RL_BLOCK_BLANK;
}

/* ---- the document -------------------------------------------------------- */

struct parser {
	struct rl_input *in;
	struct rl_entry *e;
	struct rl_buf text;
	bool pending_blank;
	struct refs refs;        /* e's */
};

static int add_text(struct parser *p, const char *s, size_t n, bool own_para)
{
	struct rl_buf b = {0};
	int rc = rl_md_plain(s, n, add_ref, &p->refs, &b);
	char *t = rc ? NULL : rl_buf_take(&b);
	rl_buf_free(&b);
	if (!rc && !t)
		rc = RL_ENOMEM;
	if (rc)
		return rc;
	const char *u = t;
	size_t un = strlen(t);
	rl_trim_range(&u, &un);
	if (un) {
		if (p->text.len)
			rl_buf_adds(&p->text, p->pending_blank || own_para ? "\n\n" : "\n");
		rl_buf_add(&p->text, u, un);
		p->pending_blank = own_para;
	}
	free(t);
	return p->text.oom ? RL_ENOMEM : RL_OK;
}

/* Where the title is: *tline is its block (SIZE_MAX: none, the file name),
 * *body the first block after it. */
static int find_title(struct parser *p, const struct rl_blocks *b, size_t first,
                      char **title, size_t *tline, size_t *body)
{
	const struct rl_block *l = &b->v[first];
	struct rl_diags *d = p->in->d;
	*tline = SIZE_MAX;
	*body = first;
	*title = NULL;
	if (l->type == RL_BLOCK_HEADING && l->level == 1) {
		*tline = first;
		*body = first + 1;
		*title = clean_title(l->text, l->len);
		return *title ? RL_OK : RL_ENOMEM;
	}
	if (l->type == RL_BLOCK_HEADING) {
		/* the only heading of its level (or higher) stands for the
		 * title */
		bool alone = true;
		for (size_t i = first + 1; i < b->n && alone; i++)
			alone = b->v[i].type != RL_BLOCK_HEADING ||
			        (b->v[i].flags & RL_BLOCK_SETEXT) ||
			        b->v[i].level > l->level;
		if (alone) {
			*tline = first;
			*body = first + 1;
			if (!(*title = clean_title(l->text, l->len)))
				return RL_ENOMEM;
			return rl_diag_add(d, RL_WARNING, l->line, 0,
			                   "no '# ' title; the heading '%s' stands for it",
			                   *title);
		}
	} else if (reads_as_title(b, first)) {
		*tline = first;
		*body = first + 1;
		if (!(*title = clean_title(l->raw, l->raw_len)))
			return RL_ENOMEM;
		return rl_diag_add(d, RL_WARNING, l->line, 0,
		                   "no '# ' title; the first line '%s' is taken for it",
		                   *title);
	}
	if (!(*title = rl_file_stem(p->in->src->name)))
		return RL_ENOMEM;
	return rl_diag_add(d, RL_WARNING, l->line, 0,
	                   "no '# ' title; the file name '%s' is the title", *title);
}

/* A line of the "see also" block: its links are references, its text
 * left out. False when it ends the block (text again). */
static int see_also_line(struct parser *p, const struct rl_block *l,
                         bool *more)
{
	*more = true;
	if (rl_md_has_wikilink(l->raw, l->raw_len)) {
		struct rl_buf ignored = {0};
		int rc = rl_md_plain(l->raw, l->raw_len, add_ref, &p->refs, &ignored);
		rl_buf_free(&ignored);
		return rc;
	}
	const char *t = l->raw;
	size_t tn = l->raw_len;
	rl_trim_range(&t, &tn);
	if (tn >= 2 && t[0] == '[' && t[1] == '[')
		return rl_diag_add(p->in->d, RL_WARNING, l->line, 0,
		                   "'%.*s' is no link (no closing ']]'); left out",
		                   (int)tn, t);
	*more = false;
	return RL_OK;
}

static int body(struct parser *p, const struct rl_blocks *b, size_t from)
{
	bool see_also = false;
	int rc = RL_OK;
	for (size_t i = from; i < b->n && !rc; i++) {
		const struct rl_block *l = &b->v[i];
		if (l->type == RL_BLOCK_BLANK) {
			p->pending_blank = p->text.len > 0;
			continue;
		}
		if (l->type == RL_BLOCK_LINE && !(l->flags & RL_BLOCK_CODE) &&
		    is_see_also(l)) {
			see_also = true;
			continue;
		}
		if (see_also && ((rc = see_also_line(p, l, &see_also)) || see_also))
			continue;
		if (l->type == RL_BLOCK_HEADING) {
			if (l->level == 1)
				rc = rl_diag_add(p->in->d, RL_WARNING, l->line, 0,
				                 "a second '# ' title; it is kept as a "
				                 "heading of the text");
			p->pending_blank = p->text.len > 0;
			if (!rc)
				rc = add_text(p, l->text, l->len, true);
		} else if (!l->len) {
			p->pending_blank = p->text.len > 0;
		} else {
			rc = add_text(p, l->text, l->len, false);
		}
	}
	return rc;
}

static int recognize(const struct rl_blocks *b, struct rl_input *in)
{
	struct parser p = { .in = in };
	struct rl_doc *doc = in->doc;
	size_t i = 0;
	/* (the reader makes no transitions) */
	if (rl_blocks_skip_to_content(b, &i, in->d))
		return RL_EDATA;
	struct rl_entry *e = rl_doc_add_entry(doc);
	if (!e)
		return RL_ENOMEM;
	p.e = p.refs.e = e;
	e->kind = RL_KIND_GLOSSARY;
	char *title;
	size_t tline, first_body;
	int rc = find_title(&p, b, i, &title, &tline, &first_body);
	e->title = title;
	if (!rc && title && !*title) {
		free(title);
		if (!(e->title = rl_file_stem(in->src->name)))
			rc = RL_ENOMEM;
	}
	e->line = b->v[tline == SIZE_MAX ? i : tline].line;
	if (!rc && !(doc->title = rl_strdup(e->title)))
		rc = RL_ENOMEM;
	if (!rc)
		rc = body(&p, b, first_body);
	if (!rc && !(e->text = rl_buf_take(&p.text)))
		rc = RL_ENOMEM;
	if (!rc && !*e->text)
		rc = rl_diag_add(in->d, RL_WARNING, e->line, 0,
		                 "'%s' has no definition", e->title);
	char *stem = rc ? NULL : rl_file_stem(in->src->name);
	char *letter = rc ? NULL : letter_dir(in->src->name);
	if (!rc && !stem)
		rc = RL_ENOMEM;
	else if (!rc && *stem)
		rc = rl_entry_add_alias(e, stem);
	if (!rc && letter) {
		e->section = letter;
		letter = NULL;
	}
	free(stem);
	free(letter);
	rl_buf_free(&p.text);
	rl_strset_free(&p.refs.seen);
	return rc;
}

/* A "# " title with wikilinks or a "Voir aussi" block is the signature;
 * wikilinks or "Voir aussi" alone, or a "# " title over text without
 * sections, make it likely. */
static enum rl_confidence probe(const char *text, size_t len)
{
	struct rl_blocks lines;
	if (!rl_probe_read(text, len, rl_read_lines, &lines))
		return RL_PROBE_ENOMEM;
	bool h1 = false, first = true, second = true, links = false, see = false;
	bool sections = false;
	for (size_t i = 0; i < lines.n; i++) {
		const struct rl_block *l = &lines.v[i];
		if (l->type == RL_BLOCK_BLANK)
			continue;
		const char *s = l->raw, *t;
		size_t n = l->raw_len, tn;
		int level = rl_md_atx(s, n, &t, &tn);
		if (first) {
			h1 = level == 1 && tn > 0;
			first = false;
		} else if (second) {
			/* a "# " comment block is no Markdown title */
			if (h1 && s[0] == '#')
				h1 = level > 1;
			second = false;
		}
		bool code = rl_md_is_code(s, n);
		links = links || (!code && rl_md_has_wikilink(s, n));
		see = see || (!code && is_see_also(l));
		sections = sections || level > 1 || s[0] == '|' ||
		           (n >= 3 && memcmp(s, "```", 3) == 0);
	}
	rl_blocks_free(&lines);
	if (links || see)
		return h1 ? RL_PROBE_STRONG : RL_PROBE_POSSIBLE;
	/* a page with sections, tables or code (a README) is no glossary
	 * entry */
	return h1 && !sections ? RL_PROBE_POSSIBLE : RL_PROBE_NO;
}

const struct rl_recognizer rl_format_markdown_glossary = {
	.description = "Markdown glossary entry, one a file: a \"# Title\", the "
	               "definition, \"Voir aussi\" [[wikilinks]]",
	.probe = probe,
	.recognize = recognize,
	.revision = 2,   /* 2: a letter directory is the section, not a tag */
};
