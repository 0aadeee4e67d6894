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

/* The first rule's words that name the game (issue 12): "101.1. «Берсерк.
 * Герои» – коллекционная карточная игра, …" (a quoted name, a dash, and
 * "игра" within a few words): group 1 the game. */
static const char GAME_RE[] =
	"^\\x{00AB}([^\\x{00AB}\\x{00BB}\\n]{1,80})\\x{00BB}\\s*[-\\x{2013}\\x{2014}]"
	"\\s*(?:\\S+\\s+){0,3}?\\x{0438}\\x{0433}\\x{0440}\\x{0430}\\b";

enum { TITLE_MAX = 100 };

struct parser {
	struct rl_doc *doc;
	struct rl_diags *d;
	pcre2_code *rule_re, *date_re, *section_re;
	pcre2_match_data *md;
	size_t cur_i;
	bool have_cur;
	bool cur_is_section;   /* the entry is a numbered heading's */
	char *section;         /* the current heading; NULL: the title */
	bool date_seen;        /* a date line, even one that is no date */
	struct rl_buf text;
	bool pending_blank;
};


/* Matches re at the start of s[0..n); returns the number of groups + 1,
 * or < 0. */
static int match(struct parser *p, pcre2_code *re, const char *s, size_t n)
{
	return pcre2_match(re, (PCRE2_SPTR)s, n, 0, PCRE2_NO_UTF_CHECK, p->md,
	                   NULL);
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
static int heading(struct parser *p, const struct rl_block *l)
{
	char *h = rl_strndup(l->text, l->len);
	if (!h)
		return RL_ENOMEM;
	/* the heading's own entry is in its parent section: the document's */
	free(p->section);
	p->section = NULL;
	int rc;
	if (match(p, p->section_re, l->text, l->len) >= 3) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(p->md);
		char *title = rl_strndup(l->text + ov[4], ov[5] - ov[4]);
		rc = title ? start(p, l->line, l->text + ov[2], ov[3] - ov[2], title)
		           : RL_ENOMEM;
		free(title);
		if (!rc && p->have_cur && !p->doc->entries[p->cur_i].text)
			p->cur_is_section = true;
	} else {
		rc = start(p, l->line, NULL, 0, h);
	}
	/* the rules under it are in its section */
	p->section = h;
	return rc;
}

/* A line of text: a date, a rule, or more of the rule or section above. */
static int text_line(struct parser *p, const struct rl_block *l)
{
	int rc = RL_OK;
	if (match(p, p->date_re, l->raw, l->raw_len) >= 2) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(p->md);
		const char *d = l->raw + ov[2];
		unsigned long y, m, day;
		if (p->doc->date || p->date_seen)
			return rl_diag_add(p->d, RL_WARNING, l->line, 0,
			                   "a second date line; the first is kept");
		p->date_seen = true;
		rl_parse_uint(d, 4, 9999, &y, NULL);
		rl_parse_uint(d + 5, 2, 99, &m, NULL);
		rl_parse_uint(d + 8, 2, 99, &day, NULL);
		return rl_doc_set_date(p->doc, (long)y, (long)m, (long)day, p->d,
		                       l->line);
	}
	if (match(p, p->rule_re, l->raw, l->raw_len) >= 2) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(p->md);
		rc = start(p, l->line, l->raw + ov[2], ov[3] - ov[2], NULL);
		if (!rc)
			add_text(p, l->raw + ov[1], l->raw_len - ov[1]);
		return rc;
	}
	if (!p->have_cur)
		rc = start(p, l->line, NULL, 0, p->doc->title);
	if (!rc)
		add_text(p, l->raw, l->raw_len);
	return rc;
}

static int read_blocks(struct parser *p, const struct rl_blocks *b,
                       const struct rl_source *src)
{
	const struct rl_block *v = b->v;
	size_t i = 0, n = b->n;
	/* blank lines, and an overline over the title */
	int rc = rl_blocks_skip_to_content(b, &i, p->d);
	if (rc)
		return rc;
	if (match(p, p->rule_re, v[i].text, v[i].len) >= 0 && v[i].indent == 0) {
		/* No title line: the file's name stands in for it. */
		if (!(p->doc->title = rl_file_stem(src->name)))
			return RL_ENOMEM;
		rc = rl_diag_add(p->d, RL_WARNING, v[i].line, 0,
		                 "no title line before the first rule; the file "
		                 "name '%s' is the title", p->doc->title);
	} else {
		/* The title names what every rule here is about: their tag. */
		if ((rc = rl_doc_set_page_tag(p->doc, v[i].text, v[i].len)))
			return rc;
		/* The title section: what stands before the first rule. */
		rc = start(p, v[i].line, NULL, 0, p->doc->title);
		i++;
	}
	for (; i < n && !rc; i++) {
		const struct rl_block *l = &v[i];
		if (l->type == RL_BLOCK_BLANK)
			p->pending_blank = p->text.len > 0;
		else if (l->type == RL_BLOCK_HEADING)
			rc = heading(p, l);
		else if (l->type != RL_BLOCK_TRANSITION)
			rc = text_line(p, l);
	}
	if (!rc)
		rc = finish(p);
	if (!rc && p->text.oom)
		rc = RL_ENOMEM;
	return rc;
}

static int recognize(const struct rl_blocks *b, struct rl_input *in)
{
	struct parser p = { .doc = in->doc, .d = in->d };
	p.rule_re = rl_re_compile(RULE_RE, 0);
	p.date_re = rl_re_compile(DATE_RE, 0);
	p.section_re = rl_re_compile(SECTION_RE, 0);
	p.md = pcre2_match_data_create(8, NULL);
	int rc = RL_OK;
	if (!p.rule_re || !p.date_re || !p.section_re || !p.md)
		rc = RL_ENOMEM;
	if (!rc)
		rc = read_blocks(&p, b, in->src);
	/* the game: only the first rule (a numbered one under its heading,
	 * "101.1") may say what the game is */
	for (size_t i = 0; !rc && i < in->doc->n; i++) {
		const char *r = in->doc->entries[i].rule;
		if (r && strchr(r, '.')) {
			rc = rl_doc_game_from_words(in->doc, GAME_RE, i, i + 1);
			break;
		}
	}
	rl_buf_free(&p.text);
	pcre2_match_data_free(p.md);
	pcre2_code_free(p.rule_re);
	pcre2_code_free(p.date_re);
	pcre2_code_free(p.section_re);
	free(p.section);
	return rc;
}

/* Several lines that start with a rule number ("511.8. ") are the
 * signature. */
static enum rl_confidence probe(const char *text, size_t len)
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
		return RL_PROBE_ENOMEM;
	if (rules >= 2)
		return rules * 5 >= lines ? RL_PROBE_LIKELY : RL_PROBE_POSSIBLE;
	return RL_PROBE_NO;
}

const struct rl_recognizer rl_format_numbered_rules = {
	.description = "numbered rules: a title, then rules that start with their "
	               "number (\"512.1.\", \"100.1a\")",
	.probe = probe,
	.recognize = recognize,
};
