/* numbered_rules.c — numbered rules: a title, then rules that start with
 * their number ("511.8.", "512.1.", "100.1a"), as in the Berserk rules
 * pages.
 *
 *   Быстрые и медленные атаки          the title: the document's title section
 *   Если действие … заблокировано …    unnumbered paragraphs: the title section
 *   511.8. Способности вида …          a rule, up to the next rule
 *   · Х, если на кубике выпало 1 …     bullets and paragraphs: the same rule
 *   Дата добавления: 2014-10-31        the document's date
 *
 * Rule references written in the text ("(п.303.3)") are found by the
 * shared cross-reference table (xref.c).
 *
 * The same rules written as reStructuredText (a Sphinx page) read alike:
 *
 *   Основные принципы игры             the title, with its underline
 *   ======================
 *   101. Общие сведения об игре        a heading with a number: a section,
 *   --------------                     also an entry with rule "101" (its
 *                                      text is the heading's, or what
 *                                      stands before its first rule)
 *   101.1. «Берсерк. Герои» – …        a rule, its section the heading
 *   •	оригинальные карты …          bullets: the same rule ("•\t" → "• ")
 *
 * Underlines and overlines (a line of one of = - ~ ^ " ' ` # * + _, three
 * or more) are passed over; a line from column 1 over an underline is a
 * heading. A
 * heading without a number is a section too: what stands under it before
 * a rule is an entry titled by it (none when nothing does).
 *
 * A rule number seen twice is one rule: the later text is added to the
 * first as another paragraph, with a warning (the store would otherwise
 * keep only the later text under the number). */
#include "importer.h"
#include "doc.h"
#include "re.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* "511.8. text", "512.1 text", "100.1a text", or the number alone: group
 * 1 the number. */
static const char RULE_RE[] =
	"^(\\d{1,4}(?:\\.\\d{1,4})+[a-z\\x{0430}-\\x{044F}]?)\\.?(?:[ \\t]+(?=\\S)|[ \\t]*$)";
/* "Дата добавления: 2014-10-31", "Date added: 2014-10-31". */
static const char DATE_RE[] =
	"^(?:\\x{0414}\\x{0430}\\x{0442}\\x{0430}(?:\\s+\\x{0434}\\x{043E}\\x{0431}"
	"\\x{0430}\\x{0432}\\x{043B}\\x{0435}\\x{043D}\\x{0438}\\x{044F})?"
	"|Date(?:\\s+added)?)\\s*:\\s*(\\d{4}-\\d{2}-\\d{2})\\s*$";

/* A numbered heading: "101. Общие сведения об игре", "2 Setup": group 1
 * the number, group 2 the title. */
static const char SECTION_RE[] =
	"^(\\d{1,4}(?:\\.\\d{1,4})*[a-z\\x{0430}-\\x{044F}]?)\\.?[ \\t]+(\\S.*?)[ \\t]*$";

enum { TITLE_MAX = 100 };

struct parser {
	const struct rl_source *src;
	struct rl_doc *doc;
	struct rl_diags *d;
	pcre2_code *rule_re, *date_re, *section_re;
	pcre2_match_data *md;
	size_t cur_i;
	bool have_cur;
	bool cur_is_section;   /* the entry is a numbered heading's */
	char *section;         /* the current heading; NULL: the title */
	struct rl_buf text;
	bool pending_blank;
};


/* Matches re at the start of l; returns the number of groups + 1, or < 0. */
static int match(struct parser *p, pcre2_code *re, const struct rl_line *l)
{
	return pcre2_match(re, (PCRE2_SPTR)l->s, l->n, 0, PCRE2_NO_UTF_CHECK,
	                   p->md, NULL);
}

/* A reStructuredText underline or overline (or a transition): three or
 * more of one punctuation character from column 1. */
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

static int finish(struct parser *p)
{
	if (!p->have_cur)
		return RL_OK;
	p->have_cur = false;
	struct rl_entry *e = &p->doc->entries[p->cur_i];
	char *text = rl_buf_take(&p->text);
	p->pending_blank = false;
	if (!text)
		return RL_ENOMEM;
	if (!e->rule && !*text) {
		/* a title followed directly by rules: no title section */
		free(text);
		rl_entry_clear(e);
		p->doc->n--;
		return RL_OK;
	}
	e->text = text;
	if (!*text && p->cur_is_section) {
		/* a numbered heading with nothing under it but rules: its title
		 * is its text */
		free(text);
		e->text = rl_strdup(e->title);
		p->cur_is_section = false;
		return e->text ? RL_OK : RL_ENOMEM;
	}
	p->cur_is_section = false;
	if (!e->title) {
		/* the first sentence, or the number for a rule with no text */
		e->title = *text ? rl_title_from_text(text, TITLE_MAX)
		                 : rl_strdup(e->rule);
		if (!e->title)
			return RL_ENOMEM;
	}
	if (!*text)
		return rl_diag_add(p->d, RL_WARNING, e->line, 0, "rule %s has no text",
		                   e->rule ? e->rule : "");
	return RL_OK;
}

/* Reopens the entry of a rule number seen before, so that what follows is
 * added to it; false when the number is new. */
static bool reopen(struct parser *p, unsigned line, const char *rule,
                   size_t rule_len, int *rc)
{
	for (size_t i = 0; i < p->doc->n; i++) {
		struct rl_entry *e = &p->doc->entries[i];
		if (!e->rule || strlen(e->rule) != rule_len ||
		    memcmp(e->rule, rule, rule_len) != 0)
			continue;
		if ((*rc = rl_diag_add(p->d, RL_WARNING, line, 0,
		                       "rule %s appears again (first at line %u); "
		                       "its text is added to the first's", e->rule,
		                       e->line)))
			return true;
		/* the entry's text goes back into the buffer */
		rl_buf_adds(&p->text, e->text ? e->text : "");
		free(e->text);
		e->text = NULL;
		p->pending_blank = p->text.len > 0;
		p->cur_i = i;
		p->have_cur = true;
		return true;
	}
	return false;
}

static int start(struct parser *p, unsigned line, const char *rule,
                 size_t rule_len, const char *title)
{
	int rc = finish(p);
	if (rc)
		return rc;
	if (rule && reopen(p, line, rule, rule_len, &rc))
		return rc;
	struct rl_entry *e = rl_doc_add_entry(p->doc);
	if (!e)
		return RL_ENOMEM;
	p->cur_i = p->doc->n - 1;
	p->have_cur = true;
	e->kind = RL_KIND_RULE;
	e->line = line;
	e->section = rl_strdup(p->section ? p->section : p->doc->title);
	if (rule)
		e->rule = rl_strndup(rule, rule_len);
	if (title)
		e->title = rl_strdup(title);
	if (!e->section || (rule && !e->rule) || (title && !e->title))
		return RL_ENOMEM;
	return RL_OK;
}

static void add_text(struct parser *p, const char *s, size_t n)
{
	char *t = rl_strtrim(s, n);
	if (!t) {
		p->text.oom = true;
		return;
	}
	/* "•\tтекст" → "• текст" */
	static const char *const bullets[] = { "\xE2\x80\xA2", "\xC2\xB7",
	                                       "\xE2\x97\xA6" };
	for (size_t i = 0; i < sizeof bullets / sizeof *bullets; i++) {
		size_t k = strlen(bullets[i]);
		if (strncmp(t, bullets[i], k) == 0 && t[k] == '\t') {
			size_t j = k;
			while (t[j] == '\t' || t[j] == ' ')
				j++;
			t[k] = ' ';
			memmove(t + k + 1, t + j, strlen(t + j) + 1);
		}
	}
	if (p->text.len)
		rl_buf_adds(&p->text, p->pending_blank ? "\n\n" : "\n");
	p->pending_blank = false;
	rl_buf_adds(&p->text, t);
	free(t);
}

/* A heading (reStructuredText): a section. "101. Title" is an entry with
 * rule "101"; other headings title what stands under them. */
static int heading(struct parser *p, const struct rl_line *l)
{
	char *h = rl_strtrim(l->s, l->n);
	if (!h)
		return RL_ENOMEM;
	/* the heading's own entry is in its parent section: the document's */
	free(p->section);
	p->section = NULL;
	int rc;
	if (match(p, p->section_re, l) >= 3) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(p->md);
		char *title = rl_strndup(l->s + ov[4], ov[5] - ov[4]);
		rc = title ? start(p, l->no, l->s + ov[2], ov[3] - ov[2], title)
		           : RL_ENOMEM;
		free(title);
		if (!rc && p->have_cur && !p->doc->entries[p->cur_i].text)
			p->cur_is_section = true;
	} else {
		rc = start(p, l->no, NULL, 0, h);
	}
	/* the rules under it are in its section */
	p->section = h;
	return rc;
}

static int parse_lines(struct parser *p, const struct rl_line *lines, size_t n)
{
	size_t i = 0;
	/* blank lines, and an overline over the title */
	while (i < n && (rl_is_blank_line(lines[i].s, lines[i].n) ||
	                 is_adornment(&lines[i])))
		i++;
	if (i == n)
		return RL_EDATA;
	int rc = RL_OK;
	if (match(p, p->rule_re, &lines[i]) >= 0) {
		/* No title line: the file's name stands in for it. */
		const char *base = strrchr(p->src->name, '/');
		base = base ? base + 1 : p->src->name;
		const char *dot = strrchr(base, '.');
		size_t len = dot && dot > base ? (size_t)(dot - base) : strlen(base);
		if (!(p->doc->title = rl_strndup(base, len)))
			return RL_ENOMEM;
		rc = rl_diag_add(p->d, RL_WARNING, lines[i].no, 0,
		                 "no title line before the first rule; the file "
		                 "name '%s' is the title", p->doc->title);
	} else {
		p->doc->title = rl_strtrim(lines[i].s, lines[i].n);
		p->doc->page_tag = calloc(1, sizeof *p->doc->page_tag);
		if (!p->doc->title || !p->doc->page_tag)
			return RL_ENOMEM;
		/* The title names what every rule here is about: their tag. */
		if ((rc = rl_tag_parse(p->doc->title, p->doc->page_tag)))
			return rc;
		/* The title section: what stands before the first rule. */
		rc = start(p, lines[i].no, NULL, 0, p->doc->title);
		i++;
		if (i < n && is_adornment(&lines[i]))
			i++;   /* the title's underline */
	}
	for (; i < n && !rc; i++) {
		const struct rl_line *l = &lines[i];
		if (rl_is_blank_line(l->s, l->n)) {
			p->pending_blank = p->text.len > 0;
			continue;
		}
		if (is_adornment(l))
			continue;   /* an overline, or a transition */
		if (i + 1 < n && is_adornment(&lines[i + 1]) && !rl_blank_len(l->s)) {
			rc = heading(p, l);
			i++;   /* its underline */
			continue;
		}
		if (match(p, p->date_re, l) >= 2) {
			PCRE2_SIZE *ov = pcre2_get_ovector_pointer(p->md);
			if (p->doc->date)
				rc = rl_diag_add(p->d, RL_WARNING, l->no, 0,
				                 "a second date line; the first is kept");
			else if (!(p->doc->date = rl_strndup(l->s + ov[2], ov[3] - ov[2])))
				rc = RL_ENOMEM;
			continue;
		}
		if (match(p, p->rule_re, l) >= 2) {
			PCRE2_SIZE *ov = pcre2_get_ovector_pointer(p->md);
			rc = start(p, l->no, l->s + ov[2], ov[3] - ov[2], NULL);
			if (!rc)
				add_text(p, l->s + ov[1], l->n - ov[1]);
			continue;
		}
		if (!p->have_cur)
			rc = start(p, l->no, NULL, 0, p->doc->title);
		if (!rc)
			add_text(p, l->s, l->n);
	}
	if (!rc)
		rc = finish(p);
	if (!rc && p->text.oom)
		rc = RL_ENOMEM;
	return rc;
}

static int parse(const struct rl_source *src, const struct rl_import_opts *opts,
                 struct rl_doc *doc, struct rl_diags *d)
{
	struct parser p = { .src = src, .doc = doc, .d = d };
	struct rl_line *lines = NULL;
	size_t n = 0;
	int rc = rl_split_lines(src, &lines, &n);
	p.rule_re = rl_re_compile(RULE_RE, 0);
	p.date_re = rl_re_compile(DATE_RE, 0);
	p.section_re = rl_re_compile(SECTION_RE, 0);
	p.md = pcre2_match_data_create(8, NULL);
	if (!rc && (!p.rule_re || !p.date_re || !p.section_re || !p.md))
		rc = RL_ENOMEM;
	if (!rc) {
		rc = parse_lines(&p, lines, n);
		if (rc == RL_EDATA)
			rl_diag_add(d, RL_ERROR, 0, 0, "empty document");
	}
	rl_buf_free(&p.text);
	pcre2_match_data_free(p.md);
	pcre2_code_free(p.rule_re);
	pcre2_code_free(p.date_re);
	pcre2_code_free(p.section_re);
	free(p.section);
	free(lines);
	return rc;
}

/* Several lines that start with a rule number ("511.8. ") are the
 * signature. */
static int probe(const char *text, size_t len)
{
	pcre2_code *re = rl_re_compile(RULE_RE, 0);
	pcre2_match_data *md = re ? pcre2_match_data_create_from_pattern(re, NULL)
	                          : NULL;
	size_t rules = 0, lines = 0;
	const char *s = text, *end = text + len;
	while (md && s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		if (!rl_is_blank_line(s, n)) {
			lines++;
			if (pcre2_match(re, (PCRE2_SPTR)s, n, 0, PCRE2_NO_UTF_CHECK, md,
			                NULL) >= 0)
				rules++;
		}
		s += n + (nl != NULL);
	}
	bool oom = !md;    /* the pattern is a constant: only memory fails it */
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	if (oom)
		return -1;
	if (rules >= 2)
		return rules * 5 >= lines ? 80 : 55;
	return 0;
}

const struct rl_importer rl_importer_numbered_rules = {
	.name = "numbered-rules",
	.description = "numbered rules: a title, then rules that start with their "
	               "number (\"512.1.\", \"100.1a\")",
	.probe = probe,
	.parse = parse,
};
