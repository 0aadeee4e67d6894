/* faq_tags.c — FAQ tag pages: one page of an FAQ site per tag, as dumped to
 * text (the Spirit Island FAQ is the model).
 *
 *   Speed (Fast/Slow)                        the page's tag
 *   Frequently Asked Questions               a section
 *   Power Cards                              a category
 *   • Can Gift of Strength … ?               an entry: the question
 *     Yes. Gift of Strength targets …        the answer: indented lines,
 *                                            blank lines, nested bullets
 *     (Discussion elsewhere)  Tags: Repeat, Speed (Fast/Slow), 2 more...
 *
 * An unindented line that is not an entry is a heading: a section when its
 * name is a known section name or another heading follows it, else a
 * category. Entries under a section whose name says "errata" are errata.
 *
 * "Game: NAME" and "Language: CODE" lines before the tag name the page's
 * game and language (what export --format txt writes, so that a page of a
 * database of several games imports back); the same unindented lines
 * further down give the entries after them their own (a page whose
 * rulings are of several games or languages). */
#include "importer.h"
#include "doc.h"
#include "re.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The words of the format, in one place. */
static const char BULLET[] = "\xE2\x80\xA2";                 /* • */
static const char TAGS_LABEL[] = "Tags:";
static const char DISCUSSION[] = "(Discussion elsewhere)";
static const char CHANGED_PREFIX[] = "Changed answer:";
static const char GAME_LABEL[] = "Game:";
static const char LANG_LABEL[] = "Language:";
/* "N more..." counts no more than this. */
enum { HIDDEN_MAX = 1000000 };
static const char *const section_names[] = {
	"Frequently Asked Questions", "Errata / Updates", "Errata", "Updates",
	"FAQ", "Rules Clarifications", "Clarifications", NULL
};
/* Words that make an unknown heading followed by another heading a section
 * rather than an empty category. */
static const char *const section_words[] = {
	"question", "errata", "update", "faq", "clarification", NULL
};
/* "Errata for B&C rulebook, p. 15: …" */
static const char ERRATA_RE[] =
	"^Errata\\s+for\\s+(.+?),\\s*(?:p\\.|pp\\.|page)\\s*"
	"(\\d+(?:\\s*[-\\x{2013}]\\s*\\d+)?)\\s*:";
/* "Branch & Claw - 3rd printing" */
static const char PRINTING_RE[] =
	"^(.+?)\\s+[-\\x{2013}\\x{2014}]\\s+(.*\\b(?:printing|edition|print run)\\b.*)$";

struct parser {
	struct rl_doc *doc;
	struct rl_diags *d;
	const struct rl_blocks *b;
	char *section, *category;
	bool errata_section;
	/* the entry being read */
	bool in_entry, tags_seen;
	size_t entry;            /* index into doc->entries */
	const struct rl_block **answer;  /* its answer lines, blank ones too */
	size_t nanswer, answer_cap;
	unsigned discussions;
	/* the game and language a "Game:" or "Language:" line below the
	 * tag gave the entries after it (NULL: the page's) */
	char *game, *lang;
};

static bool starts_with(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);
	return n >= k && memcmp(s, prefix, k) == 0;
}

static bool starts_with_fold(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);
	return n >= k && strncasecmp(s, prefix, k) == 0;
}

/* An entry: a "• " item from the first column. */
static bool is_bullet(const struct rl_block *l)
{
	return l->type == RL_BLOCK_ITEM && l->indent == 0 &&
	       l->name_len == sizeof BULLET - 1 &&
	       memcmp(l->name, BULLET, l->name_len) == 0;
}

enum header { HEADER_NONE, HEADER_GAME, HEADER_LANG };

static bool is_header_line(const struct rl_block *l)
{
	return l->type == RL_BLOCK_LINE && l->indent == 0 &&
	       (starts_with(l->raw, l->raw_len, GAME_LABEL) ||
	        starts_with(l->raw, l->raw_len, LANG_LABEL));
}

/* A "Game: NAME" or "Language: CODE" line from the first column: which,
 * and its value (trimmed; may be empty). */
static enum header header_line(const struct rl_block *l, char **value)
{
	*value = NULL;
	if (!is_header_line(l))
		return HEADER_NONE;
	enum header h = HEADER_NONE;
	size_t k = 0;
	if (starts_with(l->raw, l->raw_len, GAME_LABEL)) {
		h = HEADER_GAME;
		k = sizeof GAME_LABEL - 1;
	} else if (starts_with(l->raw, l->raw_len, LANG_LABEL)) {
		h = HEADER_LANG;
		k = sizeof LANG_LABEL - 1;
	}
	if (h != HEADER_NONE)
		*value = rl_strtrim(l->raw + k, l->raw_len - k);
	return h;
}

/* A header line's value into *slot (replacing what it had); an empty one
 * is a warning and changes nothing. */
static int set_header(struct rl_diags *d, const struct rl_block *l,
                      enum header h, char *value, char **slot)
{
	if (!value)
		return RL_ENOMEM;
	if (!*value) {
		free(value);
		return rl_diag_add(d, RL_WARNING, l->line, 0, "'%s' line names "
		                   "nothing; ignored", h == HEADER_GAME
		                   ? GAME_LABEL : LANG_LABEL);
	}
	free(*slot);
	*slot = value;
	return RL_OK;
}

/* A line of "(Discussion elsewhere)" markers, optionally followed by the
 * tags: returns the marker count, sets *tags to what follows "Tags:" (NULL
 * when there is no Tags label). -1 when the line is neither. */
static int markers_and_tags(const struct rl_block *l, const char **tags,
                            size_t *tags_len)
{
	const char *p = l->raw, *e = l->raw + l->raw_len;
	int count = 0;
	*tags = NULL;
	for (;;) {
		size_t k;
		while (p < e && (k = rl_blank_len(p)) != 0)
			p += k;
		if (starts_with(p, (size_t)(e - p), DISCUSSION)) {
			count++;
			p += sizeof DISCUSSION - 1;
			continue;
		}
		if (starts_with(p, (size_t)(e - p), TAGS_LABEL)) {
			*tags = p + sizeof TAGS_LABEL - 1;
			*tags_len = (size_t)(e - *tags);
			return count;
		}
		return (p == e && count) ? count : -1;
	}
}

/* A line of markers and/or the tags, at any indentation. */
static bool is_tags_line(const struct rl_block *l)
{
	const char *t;
	size_t n;
	return markers_and_tags(l, &t, &n) >= 0;
}

static bool is_section_name_n(const char *s, size_t len)
{
	for (const char *const *n = section_names; *n; n++)
		if (strlen(*n) == len && strncasecmp(s, *n, len) == 0)
			return true;
	return false;
}

static bool is_section_name(const char *s)
{
	return is_section_name_n(s, strlen(s));
}

static bool contains_fold(const char *s, const char *word)
{
	size_t n = strlen(word);
	for (; *s; s++)
		if (strncasecmp(s, word, n) == 0)
			return true;
	return false;
}

static bool has_section_word(const char *s)
{
	for (const char *const *w = section_words; *w; w++)
		if (contains_fold(s, *w))
			return true;
	return false;
}

/* ---- PCRE2 helpers ---------------------------------------------------- */

/* Matches re against s; on success copies groups 1 and 2 (trimmed). */
static int match2(const char *re, const char *s, char **g1, char **g2,
                  bool *matched)
{
	*matched = false;
	*g1 = *g2 = NULL;
	pcre2_code *c = rl_re_compile(re, PCRE2_CASELESS);
	if (!c)
		return RL_EINTERNAL;
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(c, NULL);
	int rc = RL_OK;
	if (!md) {
		rc = RL_ENOMEM;
	} else if (pcre2_match(c, (PCRE2_SPTR)s, strlen(s), 0, PCRE2_NO_UTF_CHECK,
	                       md, NULL) >= 3) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		*g1 = rl_strtrim(s + ov[2], ov[3] - ov[2]);
		*g2 = rl_strtrim(s + ov[4], ov[5] - ov[4]);
		if (!*g1 || !*g2) {
			free(*g1);
			free(*g2);
			*g1 = *g2 = NULL;
			rc = RL_ENOMEM;
		} else {
			*matched = true;
		}
	}
	pcre2_match_data_free(md);
	pcre2_code_free(c);
	return rc;
}

/* Product and printing from the title, document and page from the answer. */
static int parse_errata(struct rl_entry *e)
{
	struct rl_errata *x = calloc(1, sizeof *x);
	if (!x)
		return RL_ENOMEM;
	e->errata = x;
	bool m;
	int rc = match2(PRINTING_RE, e->title, &x->product, &x->printing, &m);
	if (!rc && !m && !(x->product = rl_strdup(e->title)))
		rc = RL_ENOMEM;
	if (!rc)
		rc = match2(ERRATA_RE, e->text, &x->document, &x->page, &m);
	return rc;
}

/* ---- Entries ---------------------------------------------------------- */

static int add_answer_line(struct parser *p, const struct rl_block *l)
{
	if (!rl_grow(&p->answer, &p->answer_cap, p->nanswer + 1, sizeof *p->answer))
		return RL_ENOMEM;
	p->answer[p->nanswer++] = l;
	return RL_OK;
}

/* The answer lines without their indentation, trailing blanks and runs of
 * blank lines. The first line's indentation is the base: deeper lines keep
 * what they have beyond it (nested bullets), shallower ones (odd
 * indentation in real dumps) are taken as continuing at the base. */
static char *answer_text(const struct parser *p)
{
	size_t min = (size_t)-1;
	for (size_t i = 0; i < p->nanswer && min == (size_t)-1; i++)
		if (p->answer[i]->type != RL_BLOCK_BLANK)
			min = p->answer[i]->indent;
	struct rl_buf b = {0};
	bool pending_blank = false;
	for (size_t i = 0; i < p->nanswer; i++) {
		const struct rl_block *l = p->answer[i];
		if (l->type == RL_BLOCK_BLANK) {
			pending_blank = b.len > 0;
			continue;
		}
		if (pending_blank)
			rl_buf_adds(&b, "\n\n");
		else if (b.len)
			rl_buf_addc(&b, '\n');
		pending_blank = false;
		for (size_t k = min; k < l->indent; k++)
			rl_buf_addc(&b, ' ');
		size_t bytes;
		rl_indent(l->raw, l->raw_len, &bytes);
		char *rest = rl_strtrim(l->raw + bytes, l->raw_len - bytes);
		if (!rest) {
			rl_buf_free(&b);
			return NULL;
		}
		rl_buf_adds(&b, rest);
		free(rest);
	}
	return rl_buf_take(&b);
}

/* The length of the page's tag at s[i..n) when it is there whole, up to
 * the end or a comma after blanks; 0 when it is not, or has no comma. */
static size_t page_tag_at(const struct parser *p, const char *s, size_t i,
                          size_t n)
{
	const char *t = p->doc->title;
	size_t tl = t ? strlen(t) : 0;
	if (!tl || !memchr(t, ',', tl) || n - i < tl || memcmp(s + i, t, tl))
		return 0;
	size_t j = i + tl, k;
	while (j < n && (k = rl_blank_len(s + j)) != 0)
		j += k;
	return j == n || s[j] == ',' ? j - i : 0;
}

/* The tags after "Tags:", split at the commas outside parentheses. A tag
 * with a comma in its name is written as it is (the format has no
 * quoting): the page's own tag is recognized whole ("Jade Fox, Den's
 * Headmistress" on its page), others are split. */
static int split_tags(struct parser *p, struct rl_entry *e, unsigned lineno,
                      const char *s, size_t n)
{
	size_t start = 0;
	int depth = 0;
	int rc = RL_OK;
	for (size_t i = 0; i <= n; i++) {
		if (i == start && depth == 0) {
			size_t j = i, k;
			while (j < n && (k = rl_blank_len(s + j)) != 0)
				j += k;
			size_t whole = page_tag_at(p, s, j, n);
			if (whole)
				i = j + whole;
		}
		if (i < n && s[i] == '(')
			depth++;
		else if (i < n && s[i] == ')' && depth > 0)
			depth--;
		if (i < n && (s[i] != ',' || depth > 0))
			continue;
		char *item = rl_strtrim(s + start, i - start);
		if (!item) {
			rc = RL_ENOMEM;
			break;
		}
		start = i + 1;
		unsigned long more = 0;
		size_t used = 0;
		bool small = rl_parse_uint(item, strlen(item), HIDDEN_MAX, &more,
		                           &used);
		const char *end = item + used;
		if (*item == '\0') {
			if (i < n || e->ntags == 0)
				rc = rl_diag_add(p->d, RL_WARNING, lineno, 0,
				                 "empty tag in the tags line");
		} else if (i == n && used > 0 && strncmp(end, " more", 5) == 0 &&
		           strspn(end + 5, ".\xE2\x80\xA6") == strlen(end + 5)) {
			/* "N more...": a count beyond HIDDEN_MAX is HIDDEN_MAX */
			e->hidden_tags = small ? (int)more : HIDDEN_MAX;
		} else {
			/* a tag the entry has already is not added again */
			rc = rl_entry_add_tag(e, item, NULL);
		}
		free(item);
		if (rc)
			break;
	}
	return rc;
}

static int finish_entry(struct parser *p, bool at_eof)
{
	if (!p->in_entry)
		return RL_OK;
	p->in_entry = false;
	struct rl_entry *e = &p->doc->entries[p->entry];
	char *text = answer_text(p);
	p->nanswer = 0;
	if (!text)
		return RL_ENOMEM;
	int rc = RL_OK;
	size_t pl = sizeof CHANGED_PREFIX - 1;
	if (starts_with_fold(text, strlen(text), CHANGED_PREFIX)) {
		e->changed = true;
		const char *r = text + pl;
		while (*r == '\n' || rl_blank_len(r))
			r += *r == '\n' ? 1 : rl_blank_len(r);
		char *rest = rl_strtrim(r, strlen(r));
		free(text);
		if (!(text = rest))
			return RL_ENOMEM;
	}
	e->text = text;
	if (!*text)
		rc = rl_diag_add(p->d, RL_WARNING, e->line, 0, "entry has no answer");
	if (!rc && !p->tags_seen && at_eof)
		rl_doc_ends_inside(p->doc, RL_END_IN_ENTRY, e->line);
	if (!rc && !p->tags_seen)
		rc = rl_diag_add(p->d, RL_WARNING, e->line, 0, at_eof
		                 ? "file ends inside an entry with no 'Tags:' line"
		                   " (truncated?)"
		                 : "entry has no 'Tags:' line");
	for (unsigned i = 0; i < p->discussions && !rc; i++)
		rc = rl_entry_add_ref(e, RL_REF_DISCUSSION, "Discussion elsewhere");
	if (!rc && p->errata_section) {
		e->kind = RL_KIND_ERRATA;
		rc = parse_errata(e);
		if (!rc) {
			struct rl_buf k = {0};
			rl_buf_addf(&k, "%s|%s|%s", e->title,
			            e->errata->document ? e->errata->document : "",
			            e->errata->page ? e->errata->page : "");
			char *raw = rl_buf_take(&k);
			e->key = raw ? rl_key(raw) : NULL;
			free(raw);
			if (!e->key)
				rc = RL_ENOMEM;
		}
	}
	return rc;
}

static int start_entry(struct parser *p, const struct rl_block *l)
{
	struct rl_entry *e = rl_doc_add_entry(p->doc);
	if (!e)
		return RL_ENOMEM;
	p->entry = p->doc->n - 1;
	p->in_entry = true;
	p->tags_seen = false;
	p->discussions = 0;
	p->nanswer = 0;
	e->kind = RL_KIND_FAQ;
	e->line = l->line;
	e->title = rl_block_strdup(l);
	e->section = rl_strdup(p->section);
	e->category = rl_strdup(p->category);
	e->game = rl_strdup(p->game);
	e->lang = rl_strdup(p->lang);
	if (!e->title || (p->section && !e->section) ||
	    (p->category && !e->category) || (p->game && !e->game) ||
	    (p->lang && !e->lang))
		return RL_ENOMEM;
	if (!*e->title)
		return rl_diag_add(p->d, RL_WARNING, l->line, 0,
		                   "entry has no question");
	return RL_OK;
}

static int heading(struct parser *p, size_t i)
{
	const struct rl_block *l = &p->b->v[i];
	char *name = rl_strtrim(l->raw, l->raw_len);
	if (!name)
		return RL_ENOMEM;
	const struct rl_block *next = rl_blocks_next_nonblank(p->b, i);
	bool heading_follows = next && next->indent == 0 &&
	                       !is_bullet(next) && !is_tags_line(next) &&
	                       !is_header_line(next);
	/* A known section name is a section. Another heading followed by a
	 * heading opens a section when none is open yet or its name says so;
	 * otherwise it is a category that happens to be empty. */
	bool section = is_section_name(name) ||
	               (heading_follows && (!p->section || has_section_word(name)));
	if (!section && heading_follows) {
		int rc = rl_diag_add(p->d, RL_WARNING, l->line, 0,
		                     "category '%s' has no entries", name);
		if (rc) {
			free(name);
			return rc;
		}
	}
	if (section) {
		free(p->section);
		free(p->category);
		p->section = name;
		p->category = NULL;
		p->errata_section = contains_fold(name, "errata");
	} else {
		free(p->category);
		p->category = name;
	}
	return RL_OK;
}

static int indented(struct parser *p, const struct rl_block *l)
{
	if (!p->in_entry)
		return rl_diag_add(p->d, RL_WARNING, l->line, 0,
		                   "indented text outside any entry; ignored");
	const char *tags;
	size_t tags_len = 0;
	int markers = markers_and_tags(l, &tags, &tags_len);
	if (p->tags_seen) {
		int rc = rl_diag_add(p->d, RL_WARNING, l->line, 0,
		                     "text after the 'Tags:' line; kept in the answer");
		return rc ? rc : add_answer_line(p, l);
	}
	if (markers < 0)
		return add_answer_line(p, l);
	p->discussions += (unsigned)markers;
	if (!tags)
		return RL_OK;
	p->tags_seen = true;
	struct rl_entry *e = &p->doc->entries[p->entry];
	return split_tags(p, e, l->line, tags, tags_len);
}

static int recognize(const struct rl_blocks *b, struct rl_input *in)
{
	struct parser p = { .doc = in->doc, .d = in->d, .b = b };
	size_t i = 0;
	/* (the reader makes no transitions) */
	if (rl_blocks_skip_to_content(b, &i, in->d))
		return RL_EDATA;
	/* the page's game and language, before its tag */
	int rc = RL_OK;
	char *value;
	enum header h;
	while (!rc && (h = header_line(&b->v[i], &value)) != HEADER_NONE) {
		rc = set_header(in->d, &b->v[i], h, value, h == HEADER_GAME
		                ? &in->doc->game : &in->doc->lang);
		i++;
		if (!rc && rl_blocks_skip_to_content(b, &i, in->d))
			return RL_EDATA;
	}
	if (rc)
		return rc;
	const struct rl_block *first = &b->v[i];
	if (is_bullet(first) || first->indent > 0) {
		rl_diag_add(in->d, RL_ERROR, first->line, 1,
		            "expected the page's tag on the first line");
		return RL_EDATA;
	}
	rc = rl_doc_set_page_tag(in->doc, first->raw, first->raw_len);
	for (i++; i < b->n && !rc; i++) {
		const struct rl_block *l = &b->v[i];
		if ((h = header_line(l, &value)) != HEADER_NONE) {
			rc = finish_entry(&p, false);
			if (!rc)
				rc = set_header(p.d, l, h, value, h == HEADER_GAME
				                ? &p.game : &p.lang);
			else
				free(value);
		} else if (l->type == RL_BLOCK_BLANK) {
			if (p.in_entry && !p.tags_seen)
				rc = add_answer_line(&p, l);
		} else if (l->indent > 0 ||
		           (p.in_entry && !p.tags_seen && is_tags_line(l))) {
			/* An unindented tags line is odd indentation, not a
			 * heading. */
			rc = indented(&p, l);
		} else if (is_bullet(l)) {
			rc = finish_entry(&p, false);
			if (!rc)
				rc = start_entry(&p, l);
		} else {
			rc = finish_entry(&p, false);
			if (!rc)
				rc = heading(&p, i);
		}
	}
	if (!rc)
		rc = finish_entry(&p, true);
	if (!rc && in->doc->n == 0)
		rc = rl_diag_add(in->d, RL_WARNING, first->line, 0,
		                 "tag page has no entries");
	free(p.answer);
	free(p.section);
	free(p.category);
	free(p.game);
	free(p.lang);
	return rc;
}

/* Entries ("• " at the start of a line) and "Tags:" lines are this
 * format's signature; entries under a known section heading will do. */
static enum rl_confidence probe(const char *text, size_t len)
{
	struct rl_blocks b;
	if (!rl_probe_read(text, len, rl_read_lines, &b))
		return RL_PROBE_ENOMEM;
	size_t bullets = 0, tags = 0, sections = 0;
	for (size_t i = 0; i < b.n; i++) {
		const struct rl_block *l = &b.v[i];
		if (is_bullet(l)) {
			bullets++;
			continue;
		}
		if (l->indent == 0 && l->raw_len < 80) {
			const char *h = l->raw;
			size_t n = l->raw_len;
			rl_trim_range(&h, &n);
			sections += is_section_name_n(h, n);
		}
		const char *t;
		size_t tl;
		if (markers_and_tags(l, &t, &tl) >= 0 && t)
			tags++;
	}
	rl_blocks_free(&b);
	if (bullets && tags)
		return tags * 2 >= bullets ? RL_PROBE_STRONG : RL_PROBE_LIKELY;
	/* Entries without any Tags line: only with a known section heading. */
	return bullets && sections ? RL_PROBE_POSSIBLE : RL_PROBE_NO;
}

const struct rl_recognizer rl_format_faq_tags = {
	.description = "FAQ tag pages: a tag, sections, categories, \"\xE2\x80\xA2 \" entries "
	               "with indented answers and a \"Tags:\" line",
	.probe = probe,
	.recognize = recognize,
};
