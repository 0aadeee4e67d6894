/* comprehensive_rules.c — a comprehensive rulebook in the style of Magic:
 * The Gathering's Comprehensive Rules.
 *
 *   Magic: The Gathering Comprehensive Rules      the title: "GAME
 *                                                 Comprehensive Rules"
 *   These rules are effective as of July 8, 2022.  the document's date
 *   Introduction …                                 skipped
 *   Contents                                       the table of contents,
 *   1. Game Concepts / 100. General / … / Credits  skipped (the body repeats
 *                                                  every title)
 *   1. Game Concepts                               a chapter (rule "1")
 *   100. General                                   a section (rule "100")
 *   100.1. These Magic rules apply to …            a rule
 *   100.1a A two-player game is …                  a subrule
 *   Example: …                                     belongs to the rule above
 *   Glossary                                       then terms: a term line,
 *   Abandon                                        its definition below, a
 *   To turn a face-up ongoing scheme card …        blank line between terms
 *   Credits                                        the end
 *
 * Every chapter, section, rule and subrule becomes a ruling whose rule is
 * its number; glossary terms become glossary entries. "See rule 510",
 * "rules 601.2a–d" are found by the shared reference table (xref.c) and
 * resolved by the store to the rules they name. */
#include "importer.h"
#include "doc.h"
#include "re.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char TITLE_SUFFIX[] = "Comprehensive Rules";
static const char CONTENTS[] = "Contents";
static const char GLOSSARY[] = "Glossary";
static const char CREDITS[] = "Credits";
/* "These rules are effective as of July 8, 2022." */
static const char DATE_RE[] =
	"effective as of (January|February|March|April|May|June|July|August|"
	"September|October|November|December) (\\d{1,2}), (\\d{4})";
static const char *const months[] = {
	"January", "February", "March", "April", "May", "June", "July",
	"August", "September", "October", "November", "December",
};
/* chapter "1. Game Concepts", section "100. General", rule "100.1. Text",
 * subrule "100.1a Text": group 1 the number, group 2 the rest. The
 * published files slip at times, and those lines are rules too: a subrule
 * with a period ("119.1d."), a rule without one ("606.5 If"), no space
 * after the period ("901.4.All"). */
static const char NUMBERED_RE[] =
	"^(\\d(?=\\.\\s)|\\d{3}(?=\\.\\s)|\\d{3}\\.\\d+[a-z]?(?=[.\\s]|$))"
	"\\.?\\s*(.*)$";
/* A rule or subrule number, which a table of contents never has. */
static const char RULE_LINE_RE[] = "^\\d{3}\\.\\d+";

enum { TITLE_MAX = 100 };

enum level { CHAPTER, SECTION, RULE };

struct parser {
	struct rl_doc *doc;
	struct rl_diags *d;
	pcre2_code *numbered;
	pcre2_match_data *md;
	char *chapter, *section;     /* titles, for the entries below them */
	bool have_cur;
	size_t cur;
	struct rl_buf text;
	/* the table of contents ends with Credits: so does the document,
	 * unless it was cut short */
	bool credits_listed;
};

/* The text ends without the Credits its contents list: inside the
 * current rule, section or glossary term (what a cut file leaves). */
static int cut_short(struct parser *p, unsigned line)
{
	if (!p->credits_listed)
		return RL_OK;
	const struct rl_entry *e = p->have_cur ? &p->doc->entries[p->cur] : NULL;
	if (e && e->kind == RL_KIND_GLOSSARY) {
		rl_doc_ends_inside(p->doc, RL_END_IN_ENTRY, e->line);
		return rl_diag_add(p->d, RL_WARNING, e->line, 0, "file ends inside "
		                   "the glossary term '%s', before the 'Credits' its "
		                   "contents list (truncated?)", e->title);
	}
	if (e && e->rule && strchr(e->rule, '.')) {
		rl_doc_ends_inside(p->doc, RL_END_IN_RULE, e->line);
		return rl_diag_add(p->d, RL_WARNING, e->line, 0, "file ends inside "
		                   "rule %s, before the 'Credits' its contents list "
		                   "(truncated?)", e->rule);
	}
	rl_doc_ends_inside(p->doc, RL_END_IN_SECTION, e ? e->line : line);
	return rl_diag_add(p->d, RL_WARNING, e ? e->line : line, 0, "file ends "
	                   "inside %s, before the 'Credits' its contents list "
	                   "(truncated?)", e && e->rule ? e->rule : "the glossary");
}

/* Trimmed in place: a copy that failed for want of memory would make
 * the line something else, silently. */
static bool line_is(const struct rl_block *l, const char *word)
{
	const char *s = l->raw;
	size_t n = l->raw_len;
	rl_trim_range(&s, &n);
	return n == strlen(word) && memcmp(s, word, n) == 0;
}

static int finish(struct parser *p)
{
	if (!p->have_cur)
		return RL_OK;
	p->have_cur = false;
	struct rl_entry *e = &p->doc->entries[p->cur];
	char *text = rl_buf_take(&p->text);
	if (!text)
		return RL_ENOMEM;
	e->text = text;
	if (!e->title && !(e->title = *text ? rl_title_from_text(text, TITLE_MAX)
	                                    : rl_strdup(e->rule)))
		return RL_ENOMEM;
	if (!*text && e->kind == RL_KIND_RULE && strchr(e->rule, '.'))
		return rl_diag_add(p->d, RL_WARNING, e->line, 0, "rule %s has no text",
		                   e->rule);
	return RL_OK;
}

static void add_text(struct parser *p, const char *s, size_t n, bool paragraph)
{
	char *t = rl_strtrim(s, n);
	if (!t) {
		p->text.oom = true;
		return;
	}
	if (*t) {
		if (p->text.len)
			rl_buf_adds(&p->text, paragraph ? "\n" : " ");
		rl_buf_adds(&p->text, t);
	}
	free(t);
}

static int start(struct parser *p, unsigned line, enum rl_kind kind,
                 const char *rule, size_t rule_len)
{
	int rc = finish(p);
	if (rc)
		return rc;
	struct rl_entry *e = rl_doc_add_entry(p->doc);
	if (!e)
		return RL_ENOMEM;
	p->cur = p->doc->n - 1;
	p->have_cur = true;
	e->kind = kind;
	e->line = line;
	if (rule && !(e->rule = rl_strndup(rule, rule_len)))
		return RL_ENOMEM;
	/* the chapter is the ruling's section, the section its category:
	 * "Additional Rules › Keyword Abilities", as an FAQ's "Frequently
	 * Asked Questions › Power Cards" */
	if ((p->chapter && !(e->section = rl_strdup(p->chapter))) ||
	    (p->section && !(e->category = rl_strdup(p->section))))
		return RL_ENOMEM;
	return RL_OK;
}

static int numbered(struct parser *p, const struct rl_block *l)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(p->md);
	const char *num = l->raw + ov[2], *rest = l->raw + ov[4];
	size_t nlen = ov[3] - ov[2], rlen = ov[5] - ov[4];
	enum level level = nlen == 1 ? CHAPTER : nlen == 3 ? SECTION : RULE;
	int rc = start(p, l->line, RL_KIND_RULE, num, nlen);
	if (rc)
		return rc;
	struct rl_entry *e = &p->doc->entries[p->cur];
	if (level == RULE) {
		add_text(p, rest, rlen, false);
		return p->text.oom ? RL_ENOMEM : RL_OK;
	}
	/* A chapter or section: its name is its title, and the rulings
	 * below it belong to it. */
	char *name = rl_strtrim(rest, rlen);
	if (!name || !(e->title = rl_strdup(name))) {
		free(name);
		return RL_ENOMEM;
	}
	if (level == CHAPTER) {
		free(p->chapter);
		p->chapter = name;
		free(p->section);
		p->section = NULL;
		free(e->section);
		free(e->category);
		e->section = NULL;
		e->category = NULL;
	} else {
		free(p->section);
		p->section = name;
		free(e->category);
		e->category = NULL;
	}
	return RL_OK;
}

/* The glossary: term blocks separated by blank lines, up to Credits. */
static int glossary(struct parser *p, const struct rl_block *lines, size_t n,
                    size_t i)
{
	int rc = finish(p);
	free(p->chapter);
	free(p->section);
	p->section = NULL;
	p->chapter = rl_strdup(GLOSSARY);
	if (!p->chapter)
		return RL_ENOMEM;
	bool in_term = false, ended = false;
	unsigned start_line = i < n ? lines[i].line : 0;
	for (; i < n && !rc; i++) {
		const struct rl_block *l = &lines[i];
		if (rl_is_blank_line(l->raw, l->raw_len)) {
			rc = finish(p);
			in_term = false;
			continue;
		}
		if (line_is(l, CREDITS)) {
			ended = true;
			break;
		}
		if (!in_term) {
			rc = start(p, l->line, RL_KIND_GLOSSARY, NULL, 0);
			if (!rc) {
				struct rl_entry *e = &p->doc->entries[p->cur];
				if (!(e->title = rl_strtrim(l->raw, l->raw_len)))
					rc = RL_ENOMEM;
			}
			in_term = true;
			continue;
		}
		add_text(p, l->raw, l->raw_len, true);
	}
	if (!rc && !ended)
		rc = cut_short(p, start_line);
	if (!rc)
		rc = finish(p);
	/* the glossary's entries have no section of their own but it */
	return rc;
}

/* The first line that says when the rules are effective dates them (a
 * date that does not exist is a warning, and no date). */
static int parse_date(struct rl_doc *doc, const struct rl_block *l,
                      pcre2_code *re, pcre2_match_data *md, struct rl_diags *d,
                      bool *seen)
{
	if (pcre2_match(re, (PCRE2_SPTR)l->raw, l->raw_len, 0, PCRE2_NO_UTF_CHECK,
	                md, NULL) < 4)
		return RL_OK;
	*seen = true;
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
	long month = 0;
	for (int m = 0; m < 12; m++)
		if (strlen(months[m]) == ov[3] - ov[2] &&
		    memcmp(months[m], l->raw + ov[2], ov[3] - ov[2]) == 0)
			month = m + 1;
	unsigned long day = 0, year = 0;
	rl_parse_uint(l->raw + ov[4], ov[5] - ov[4], 99, &day, NULL);
	rl_parse_uint(l->raw + ov[6], ov[7] - ov[6], 9999, &year, NULL);
	return rl_doc_set_date(doc, (long)year, month, (long)day, d, l->line);
}

static int parse_lines(struct parser *p, const struct rl_block *lines, size_t n)
{
	size_t i = 0;
	while (i < n && rl_is_blank_line(lines[i].raw, lines[i].raw_len))
		i++;
	if (i == n) {
		rl_diag_add(p->d, RL_ERROR, 0, 0, "empty document");
		return RL_EDATA;
	}
	if (!(p->doc->title = rl_strtrim(lines[i].raw, lines[i].raw_len)))
		return RL_ENOMEM;
	size_t tl = strlen(p->doc->title), sl = sizeof TITLE_SUFFIX - 1;
	if (tl > sl && strcmp(p->doc->title + tl - sl, TITLE_SUFFIX) == 0 &&
	    rl_doc_set_game(p->doc, p->doc->title, tl - sl))
		return RL_ENOMEM;
	int rc = RL_OK;
	pcre2_code *date = rl_re_compile(DATE_RE, 0);
	if (!date)
		return RL_ENOMEM;
	/* The front matter and the table of contents: up to the Credits line
	 * that ends the contents, or to the first rule when there is none. A
	 * contents without its Credits line ends at its Glossary line, seen
	 * once a rule shows that the body has begun. */
	pcre2_code *rule_line = rl_re_compile(RULE_LINE_RE, 0);
	if (!rule_line) {
		pcre2_code_free(date);
		return RL_ENOMEM;
	}
	size_t body = i + 1, contents = 0, toc_glossary = 0;
	bool date_seen = false;
	for (size_t k = i + 1; k < n && !rc; k++) {
		if (!date_seen)
			rc = parse_date(p->doc, &lines[k], date, p->md, p->d,
			                &date_seen);
		if (!contents && line_is(&lines[k], CONTENTS)) {
			contents = k;
			continue;
		}
		if (contents && !toc_glossary && line_is(&lines[k], GLOSSARY))
			toc_glossary = k;
		if (contents && line_is(&lines[k], CREDITS)) {
			body = k + 1;
			p->credits_listed = true;
			break;
		}
		bool is_rule = pcre2_match(rule_line, (PCRE2_SPTR)lines[k].raw,
		                           lines[k].raw_len, 0, PCRE2_NO_UTF_CHECK, p->md,
		                           NULL) >= 1;
		if (contents && is_rule) {
			body = toc_glossary ? toc_glossary + 1 : contents + 1;
			rc = rl_diag_add(p->d, RL_WARNING, lines[contents].line, 0,
			                 "the table of contents has no end ('Credits'); "
			                 "the body starts after its '%s' line",
			                 toc_glossary ? GLOSSARY : CONTENTS);
			break;
		}
		if (!contents && pcre2_match(p->numbered, (PCRE2_SPTR)lines[k].raw,
		                             lines[k].raw_len, 0, PCRE2_NO_UTF_CHECK, p->md,
		                             NULL) >= 3) {
			body = k;
			break;
		}
	}
	pcre2_code_free(date);
	pcre2_code_free(rule_line);
	bool ended = false;
	for (i = body; i < n && !rc; i++) {
		const struct rl_block *l = &lines[i];
		if (rl_is_blank_line(l->raw, l->raw_len))
			continue;
		if (line_is(l, GLOSSARY))
			return glossary(p, lines, n, i + 1);
		if (line_is(l, CREDITS)) {
			ended = true;
			break;
		}
		if (pcre2_match(p->numbered, (PCRE2_SPTR)l->raw, l->raw_len, 0,
		                PCRE2_NO_UTF_CHECK, p->md, NULL) >= 3) {
			rc = numbered(p, l);
		} else if (p->have_cur) {
			add_text(p, l->raw, l->raw_len, true);   /* Example:, more text */
		} else {
			rc = rl_diag_add(p->d, RL_WARNING, l->line, 0,
			                 "text before the first rule; ignored");
		}
	}
	if (!rc && !ended)
		rc = cut_short(p, n ? lines[n - 1].line : 0);
	if (!rc)
		rc = finish(p);
	if (!rc && p->text.oom)
		rc = RL_ENOMEM;
	return rc;
}

struct numbered_line {
	const char *rule;
	unsigned line;
};

static int by_rule(const void *a, const void *b)
{
	const struct numbered_line *x = a, *y = b;
	int c = strcmp(x->rule, y->rule);
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* A rule number used twice in one document: both are kept (the store keeps
 * the last under that number), and the repeat is reported. */
static int check_duplicates(struct parser *p)
{
	size_t n = p->doc->n, m = 0;
	struct numbered_line *v = malloc((n ? n : 1) * sizeof *v);
	if (!v)
		return RL_ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (p->doc->entries[i].rule)
			v[m++] = (struct numbered_line){ p->doc->entries[i].rule,
			                                 p->doc->entries[i].line };
	qsort(v, m, sizeof *v, by_rule);
	int rc = RL_OK;
	for (size_t i = 1; i < m && !rc; i++)
		if (strcmp(v[i - 1].rule, v[i].rule) == 0)
			rc = rl_diag_add(p->d, RL_WARNING, v[i].line, 0,
			                 "rule %s appears again (first at line %u)",
			                 v[i].rule, v[i - 1].line);
	free(v);
	return rc;
}

static int recognize(const struct rl_blocks *b, struct rl_input *in)
{
	struct parser p = { .doc = in->doc, .d = in->d };
	int rc = RL_OK;
	p.numbered = rl_re_compile(NUMBERED_RE, 0);
	p.md = pcre2_match_data_create(8, NULL);
	if (!p.numbered || !p.md)
		rc = RL_ENOMEM;
	if (!rc)
		rc = parse_lines(&p, b->v, b->n);
	if (!rc)
		rc = check_duplicates(&p);
	rl_buf_free(&p.text);
	free(p.chapter);
	free(p.section);
	pcre2_match_data_free(p.md);
	pcre2_code_free(p.numbered);
	return rc;
}

/* "… Comprehensive Rules" on the first line. */
static enum rl_confidence probe(const char *text, size_t len)
{
	const char *nl = memchr(text, '\n', len);
	size_t n = nl ? (size_t)(nl - text) : len;
	size_t sl = sizeof TITLE_SUFFIX - 1;
	while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\t'))
		n--;
	if (n >= sl && memcmp(text + n - sl, TITLE_SUFFIX, sl) == 0)
		return RL_PROBE_CERTAIN;
	return RL_PROBE_NO;
}

const struct rl_recognizer rl_format_comprehensive_rules = {
	.description = "comprehensive rules (MTG style): chapters, sections, "
	               "rules \"100.1.\", subrules \"100.1a\", a glossary",
	.probe = probe,
	.recognize = recognize,
};
