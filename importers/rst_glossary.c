/* rst_glossary.c — a reStructuredText glossary (Sphinx): a title, section
 * headings (one a letter), and ".. glossary::" blocks of terms with
 * indented definitions, as in the Berserk: Heroes rules site (Russian).
 *
 *   Глоссарий                          the document's title (underlined)
 *   ============
 *   **Б**                              a heading: the tag of the terms below
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
#include "utf8.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	const struct rl_source *src;
	struct rl_doc *doc;
	struct rl_diags *d;
	char *section;          /* the current heading, made plain; or NULL */
	bool in_glossary;       /* inside a ".. glossary::" block */
	size_t block_indent;    /* the directive's indentation */
	size_t term_indent;     /* the block's terms' (SIZE_MAX: none yet) */
	bool in_skipped;        /* inside another directive or a comment */
	size_t skip_indent;
	bool have_cur;          /* the last entry is being read */
	bool cur_has_def;       /* a line of its definition was read */
	bool after_term;        /* the previous line was a term line */
	struct rl_buf def;      /* the current definition, markup as written */
	bool pending_blank;
	bool warned_stray;      /* stray text warned about in this paragraph */
};

/* ---- characters ------------------------------------------------------- */

static uint32_t decode(const char *s, size_t *len)
{
	uint32_t c;
	*len = rl_utf8_decode(s, &c);
	return c;
}


/* The code point before s[i] (0 at the start). */
static uint32_t before(const char *s, size_t i)
{
	if (i == 0)
		return 0;
	size_t j = i - 1;
	while (j > 0 && ((unsigned char)s[j] & 0xC0) == 0x80)
		j--;
	size_t len;
	return decode(s + j, &len);
}

static bool is_space(uint32_t c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == 0xA0;
}

/* Can inline markup start at s[i], whose start-string is k bytes long? */
static bool can_open(const char *s, size_t n, size_t i, size_t k)
{
	if (i + k >= n)
		return false;
	size_t len;
	uint32_t next = decode(s + i + k, &len);
	return !rl_is_word_cp(before(s, i)) && !is_space(next);
}

/* Finds the end-string e (of length k) at or after from: preceded by no
 * white space and followed by no letter. Returns its offset or n. */
static size_t find_close(const char *s, size_t n, size_t from, const char *e,
                         size_t k)
{
	for (size_t j = from; j + k <= n; j++) {
		if (memcmp(s + j, e, k) != 0)
			continue;
		if (j == from || is_space(before(s, j)))
			continue;
		size_t len;
		uint32_t next = j + k < n ? decode(s + j + k, &len) : 0;
		/* "**" is not the end of an emphasis "*" */
		if (k == 1 && e[0] == '*' && next == '*')
			continue;
		if (!rl_is_word_cp(next))
			return j;
	}
	return n;
}

/* ---- inline markup ------------------------------------------------------ */

/* Adds a reference unless e has it already. */
static int add_unique_ref(struct rl_entry *e, enum rl_ref_kind k, const char *t)
{
	bool found;
	int rc = rl_entry_has_ref(e, k, t, &found);
	return rc || found ? rc : rl_entry_add_ref(e, k, t);
}

/* A copy of s[0..n) trimmed, without one final period ("Броня Х." →
 * "Броня Х"): how terms are named, on both sides of a reference. */
static char *term_name(const char *s, size_t n)
{
	char *t = rl_strtrim(s, n);
	if (!t)
		return NULL;
	size_t len = strlen(t);
	if (len && t[len - 1] == '.' && !(len >= 2 && t[len - 2] == '.')) {
		char *u = rl_strtrim(t, len - 1);
		free(t);
		t = u;
	}
	return t;
}

/* "text <target>": the text shown and the target (the whole when there is
 * no "<…>" at the end). */
static void split_target(const char *s, size_t n, size_t *shown,
                         const char **target, size_t *tlen)
{
	*shown = n;
	*target = s;
	*tlen = n;
	if (n >= 2 && s[n - 1] == '>') {
		const char *lt = NULL;
		for (size_t i = n - 1; i-- > 0; )
			if (s[i] == '<') {
				lt = s + i;
				break;
			}
		if (lt && lt > s) {
			*shown = (size_t)(lt - s);
			*target = lt + 1;
			*tlen = n - (size_t)(lt - s) - 2;
		}
	}
}

/* Appends s[0..n) to out with the inline markup made plain; the targets
 * of :term: roles become term references of e (when e is not NULL). */
static int plain(const char *s, size_t n, struct rl_entry *e, struct rl_buf *out)
{
	size_t i = 0;
	while (i < n) {
		char c = s[i];
		if (c == '\\' && i + 1 < n) {
			/* an escape; an escaped blank is nothing */
			size_t len;
			uint32_t next = decode(s + i + 1, &len);
			if (!is_space(next))
				rl_buf_add(out, s + i + 1, len);
			i += 1 + len;
			continue;
		}
		if (c == ':' && can_open(s, n, i, 1)) {
			/* :role:`content` */
			size_t j = i + 1;
			while (j < n && (((unsigned char)s[j] < 0x80 &&
			                  (s[j] == '-' || s[j] == '_' || s[j] == '.' ||
			                   s[j] == '+' || (s[j] >= '0' && s[j] <= '9') ||
			                   (s[j] >= 'a' && s[j] <= 'z') ||
			                   (s[j] >= 'A' && s[j] <= 'Z')))))
				j++;
			if (j > i + 1 && j + 1 < n && s[j] == ':' && s[j + 1] == '`') {
				size_t close = find_close(s, n, j + 2, "`", 1);
				if (close < n) {
					const char *body = s + j + 2;
					size_t blen = close - (j + 2), shown, tlen;
					const char *target;
					split_target(body, blen, &shown, &target, &tlen);
					char *shown_s = rl_strtrim(body, shown);
					if (!shown_s)
						return RL_ENOMEM;
					rl_buf_adds(out, shown_s);
					free(shown_s);
					if (e && j - i - 1 == 4 && memcmp(s + i + 1, "term", 4) == 0) {
						char *t = term_name(target, tlen);
						if (!t)
							return RL_ENOMEM;
						int rc = *t ? add_unique_ref(e, RL_REF_TERM, t) : RL_OK;
						free(t);
						if (rc)
							return rc;
					}
					i = close + 1;
					continue;
				}
			}
		}
		if (c == '`' && i + 1 < n && s[i + 1] == '`' && can_open(s, n, i, 2)) {
			size_t close = find_close(s, n, i + 2, "``", 2);
			if (close < n) {
				rl_buf_add(out, s + i + 2, close - i - 2);
				i = close + 2;
				continue;
			}
		}
		if (c == '`' && can_open(s, n, i, 1)) {
			/* `text`, `text <url>`_, `text`__ */
			size_t close = find_close(s, n, i + 1, "`", 1);
			if (close < n) {
				size_t shown, tlen;
				const char *target;
				split_target(s + i + 1, close - i - 1, &shown, &target, &tlen);
				char *t = rl_strtrim(s + i + 1, shown);
				if (!t)
					return RL_ENOMEM;
				rl_buf_adds(out, t);
				free(t);
				i = close + 1;
				while (i < n && s[i] == '_')
					i++;
				continue;
			}
		}
		if (c == '*' && i + 1 < n && s[i + 1] == '*' && can_open(s, n, i, 2)) {
			size_t close = find_close(s, n, i + 2, "**", 2);
			if (close < n) {
				rl_buf_add(out, s + i + 2, close - i - 2);
				i = close + 2;
				continue;
			}
		}
		if (c == '*' && can_open(s, n, i, 1) && s[i + 1] != '*') {
			size_t close = find_close(s, n, i + 1, "*", 1);
			if (close < n) {
				rl_buf_add(out, s + i + 1, close - i - 1);
				i = close + 1;
				continue;
			}
		}
		rl_buf_addc(out, c);
		i++;
	}
	return out->oom ? RL_ENOMEM : RL_OK;
}

static char *plain_copy(const char *s, size_t n)
{
	struct rl_buf b = {0};
	char *t = rl_strtrim(s, n);
	if (!t)
		return NULL;
	int rc = plain(t, strlen(t), NULL, &b);
	free(t);
	if (rc) {
		rl_buf_free(&b);
		return NULL;
	}
	char *r = rl_buf_take(&b);
	if (!r)
		return NULL;
	t = rl_strtrim(r, strlen(r));
	free(r);
	return t;
}

/* ---- lines --------------------------------------------------------------- */

static size_t indent_of(const struct rl_line *l)
{
	size_t i = 0, col = 0;
	while (i < l->n && (l->s[i] == ' ' || l->s[i] == '\t')) {
		col = l->s[i] == '\t' ? (col / 8 + 1) * 8 : col + 1;
		i++;
	}
	return col;
}

/* A section title's underline or overline (or a transition): at least
 * three of one punctuation character, from column 1. */
static bool is_adornment(const struct rl_line *l)
{
	size_t n = l->n;
	while (n && (l->s[n - 1] == ' ' || l->s[n - 1] == '\t' || l->s[n - 1] == '\r'))
		n--;
	if (n < 3 || !strchr("=-~^\"'`#*+_", l->s[0]))
		return false;
	for (size_t i = 1; i < n; i++)
		if (l->s[i] != l->s[0])
			return false;
	return true;
}

static bool is_blank(const struct rl_line *l)
{
	return rl_is_blank_line(l->s, l->n);
}

/* Is lines[i] a section title: text from column 1 with an underline
 * (lines[i + 1]) of punctuation? */
static bool is_heading(const struct rl_line *lines, size_t n, size_t i)
{
	return i + 1 < n && !is_blank(&lines[i]) && indent_of(&lines[i]) == 0 &&
	       !is_adornment(&lines[i]) && is_adornment(&lines[i + 1]);
}

/* Is lines[i] an overline: punctuation over a title (which may be inset)
 * and its underline? */
static bool is_overline(const struct rl_line *lines, size_t n, size_t i)
{
	return i + 2 < n && is_adornment(&lines[i]) && !is_blank(&lines[i + 1]) &&
	       !is_adornment(&lines[i + 1]) && is_adornment(&lines[i + 2]) &&
	       lines[i + 2].s[0] == lines[i].s[0];
}

/* Does the line start explicit markup (".. " then a directive, a comment,
 * a target)? *glossary tells whether it is ".. glossary::". */
static bool is_explicit(const struct rl_line *l, bool *glossary)
{
	size_t i = 0;
	while (i < l->n && (l->s[i] == ' ' || l->s[i] == '\t'))
		i++;
	if (l->n - i < 2 || l->s[i] != '.' || l->s[i + 1] != '.' ||
	    (l->n - i > 2 && l->s[i + 2] != ' '))
		return false;
	static const char g[] = "glossary::";
	i += 2;
	while (i < l->n && l->s[i] == ' ')
		i++;
	*glossary = l->n - i >= sizeof g - 1 && memcmp(l->s + i, g, sizeof g - 1) == 0;
	return true;
}

/* ---- entries --------------------------------------------------------------- */

static bool has_tag(const struct rl_entry *e, const struct rl_tag *t)
{
	for (size_t i = 0; i < e->ntags; i++)
		if (strcmp(e->tags[i].name, t->name) == 0 &&
		    !e->tags[i].qualifier == !t->qualifier &&
		    (!t->qualifier || strcmp(e->tags[i].qualifier, t->qualifier) == 0))
			return true;
	return false;
}

/* A term seen twice in one file (the same key: case, "ё" and the final
 * period aside) is one entry: the first is kept, and the second's
 * definition is added to it as another paragraph (unless the first says
 * it already), with the second's references, tags and aliases. Nothing the
 * file says is lost, and the entry keeps the first one's place (line). */
static int merge_duplicate(struct parser *p)
{
	struct rl_doc *doc = p->doc;
	struct rl_entry *e = &doc->entries[doc->n - 1], *f = NULL;
	for (size_t i = 0; i + 1 < doc->n && !f; i++)
		if (strcmp(doc->entries[i].key, e->key) == 0)
			f = &doc->entries[i];
	if (!f)
		return RL_OK;
	int rc = rl_diag_add(p->d, RL_WARNING, e->line, 0,
	                     "term '%s' appears again (first at line %u); its "
	                     "definition is added to the first's", e->title, f->line);
	if (!rc && *e->text && !strstr(f->text, e->text)) {
		struct rl_buf b = {0};
		rl_buf_adds(&b, f->text);
		if (*f->text)
			rl_buf_adds(&b, "\n\n");
		rl_buf_adds(&b, e->text);
		char *t = rl_buf_take(&b);
		if (!t)
			return RL_ENOMEM;
		free(f->text);
		f->text = t;
	}
	for (size_t i = 0; i < e->nrefs && !rc; i++)
		rc = add_unique_ref(f, e->refs[i].kind, e->refs[i].target);
	for (size_t i = 0; i < e->ntags && !rc; i++)
		if (!has_tag(f, &e->tags[i]))
			rc = rl_entry_add_tag(f, e->tags[i].name, e->tags[i].qualifier);
	for (size_t i = 0; i < e->naliases && !rc; i++)
		rc = rl_entry_add_alias(f, e->aliases[i]);
	rl_entry_clear(e);
	doc->n--;
	return rc;
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
	int rc = plain(raw, strlen(raw), e, &out);
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
static int term_line(struct parser *p, const struct rl_line *l)
{
	bool alias = p->have_cur && p->after_term && !p->cur_has_def;
	int rc = alias ? RL_OK : finish(p);
	if (rc)
		return rc;
	char *line = rl_strtrim(l->s, l->n);
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
			rc = rl_diag_add(p->d, RL_WARNING, l->no, 0,
			                 "a term's bold has no end: the line is the term");
		}
	}
	char *plain_name = rc ? NULL : plain_copy(name, name_len);
	char *title = plain_name ? term_name(plain_name, strlen(plain_name)) : NULL;
	free(plain_name);
	if (!rc && !title)
		rc = RL_ENOMEM;
	if (!rc && !*title) {
		rc = rl_diag_add(p->d, RL_WARNING, l->no, 0,
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
		e->line = l->no;
		e->title = title;
		e->key = rl_key(title);
		p->have_cur = true;
		p->cur_has_def = false;
		p->pending_blank = false;
		if (!e->key)
			rc = RL_ENOMEM;
		if (!rc && p->section) {
			struct rl_tag t;
			rc = rl_tag_parse(p->section, &t);
			if (!rc)
				rc = rl_entry_add_tag(e, t.name, t.qualifier);
			rl_tag_clear(&t);
		}
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
static int stray(struct parser *p, const struct rl_line *l)
{
	if (p->warned_stray)
		return RL_OK;
	p->warned_stray = true;
	return rl_diag_add(p->d, RL_WARNING, l->no, 0,
	                   "text outside a glossary block; left out");
}

static int heading(struct parser *p, const struct rl_line *l)
{
	int rc = finish(p);
	p->in_glossary = p->in_skipped = false;
	if (rc)
		return rc;
	char *h = plain_copy(l->s, l->n);
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

static int parse_lines(struct parser *p, const struct rl_line *lines, size_t n)
{
	size_t i = 0;
	while (i < n && (is_blank(&lines[i]) ||
	                 (is_adornment(&lines[i]) && !is_overline(lines, n, i))))
		i++;
	if (i == n)
		return RL_EDATA;
	int rc = RL_OK;
	if (is_overline(lines, n, i))
		i++;
	if (is_heading(lines, n, i) ||
	    (i > 0 && is_overline(lines, n, i - 1))) {
		if (!(p->doc->title = plain_copy(lines[i].s, lines[i].n)))
			return RL_ENOMEM;
		i += 2;
	}
	if (!p->doc->title || !*p->doc->title) {
		const char *base = strrchr(p->src->name, '/');
		base = base ? base + 1 : p->src->name;
		const char *dot = strrchr(base, '.');
		size_t len = dot && dot > base ? (size_t)(dot - base) : strlen(base);
		free(p->doc->title);
		if (!(p->doc->title = rl_strndup(base, len)))
			return RL_ENOMEM;
		rc = rl_diag_add(p->d, RL_WARNING, lines[i].no, 0,
		                 "no title heading; the file name '%s' is the title",
		                 p->doc->title);
	}
	for (; i < n && !rc; i++) {
		const struct rl_line *l = &lines[i];
		if (is_blank(l)) {
			p->pending_blank = p->def.len > 0;
			p->after_term = false;
			p->warned_stray = false;
			continue;
		}
		size_t ind = indent_of(l);
		bool glossary = false;
		if (ind == 0 && is_adornment(l)) {
			/* an overline: the title is the next line */
			if (is_overline(lines, n, i)) {
				rc = heading(p, &lines[i + 1]);
				i += 2;
			}
			p->after_term = false;
			continue;
		}
		if (is_heading(lines, n, i)) {
			rc = heading(p, l);
			i++;
			p->after_term = false;
			continue;
		}
		if (p->in_skipped && ind > p->skip_indent)
			continue;
		p->in_skipped = false;
		if (p->in_glossary && ind <= p->block_indent) {
			rc = finish(p);
			p->in_glossary = false;
		}
		if (rc)
			break;
		if (is_explicit(l, &glossary)) {
			if ((rc = finish(p)))
				break;
			if (glossary) {
				p->in_glossary = true;
				p->block_indent = ind;
				p->term_indent = SIZE_MAX;
			} else {
				p->in_skipped = true;
				p->skip_indent = ind;
			}
			p->after_term = false;
			continue;
		}
		if (!p->in_glossary) {
			rc = stray(p, l);
			continue;
		}
		if (p->term_indent == SIZE_MAX) {
			/* the directive's options (":sorted:") come first */
			size_t k = 0;
			while (k < l->n && (l->s[k] == ' ' || l->s[k] == '\t'))
				k++;
			if (k < l->n && l->s[k] == ':' && !p->have_cur)
				continue;
			p->term_indent = ind;
		}
		if (ind <= p->term_indent) {
			rc = term_line(p, l);
			p->after_term = true;
		} else if (!p->have_cur) {
			rc = stray(p, l);
		} else {
			add_def(p, l->s, l->n);
			p->after_term = false;
		}
	}
	if (!rc)
		rc = finish(p);
	if (!rc && p->def.oom)
		rc = RL_ENOMEM;
	if (!rc && p->doc->n == 0)
		rc = rl_diag_add(p->d, RL_WARNING, 0, 0, "no glossary terms");
	return rc;
}

static int parse(const struct rl_source *src, const struct rl_import_opts *opts,
                 struct rl_doc *doc, struct rl_diags *d)
{
	struct parser p = { .src = src, .doc = doc, .d = d,
	                    .term_indent = SIZE_MAX };
	struct rl_line *lines = NULL;
	size_t n = 0;
	int rc = rl_split_lines(src, &lines, &n);
	if (!rc) {
		rc = parse_lines(&p, lines, n);
		if (rc == RL_EDATA)
			rl_diag_add(d, RL_ERROR, 0, 0, "empty document");
	}
	rl_buf_free(&p.def);
	free(p.section);
	free(lines);
	return rc;
}

/* A ".. glossary::" directive is the signature; bold terms make it
 * surer. */
static int probe(const char *text, size_t len)
{
	bool directive = false;
	size_t bold = 0;
	const char *s = text, *end = text + len;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		struct rl_line l = { s, n, 0 };
		bool glossary = false;
		if (is_explicit(&l, &glossary) && glossary)
			directive = true;
		size_t k = 0;
		while (k < n && (s[k] == ' ' || s[k] == '\t'))
			k++;
		if (k > 0 && n - k > 4 && s[k] == '*' && s[k + 1] == '*')
			bold++;
		s += n + (nl != NULL);
	}
	if (!directive)
		return 0;
	return bold ? 95 : 85;
}

const struct rl_importer rl_importer_rst_glossary = {
	.name = "rst-glossary",
	.description = "reStructuredText glossary: \".. glossary::\" blocks of "
	               "terms (\"**Term.**\") with indented definitions, under "
	               "letter headings",
	.probe = probe,
	.parse = parse,
};
