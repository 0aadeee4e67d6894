/* xref.c — finding cross-references in ruling text.
 *
 * The patterns are kept in one table. They are compiled once, with the JIT
 * where it is available, and the text is checked for valid UTF-8 by the
 * source loader, so matching passes PCRE2_NO_UTF_CHECK (see FACTS.md: a
 * per-call check over a large buffer is quadratic). */
#include "xref.h"
#include "doc.h"
#include "re.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum expand { AS_IS, PAGE_LIST, RULE_LIST };

/* "702.19c", "601.2a–d", "119.7–8", "903.6–903.11", "100", "8": a rule
 * number, perhaps a range. */
#define RULE_ITEM \
	"\\d{1,3}(?!\\d)(?:\\.\\d+[a-z]?)?" \
	"(?:\\s*[-\\x{2013}]\\s*(?:(?:\\d{1,3}\\.)?\\d+[a-z]?|[a-z]\\b))?(?![\\w.]\\d)"
/* after "and"/"or" in a list: a rule number, or a lone subrule letter
 * ("rules 608.3a and b") */
#define RULE_NEXT "(?:" RULE_ITEM "|[a-z]\\b)"

struct pattern {
	enum rl_ref_kind kind;
	const char *re;       /* group 1 is the target */
	enum expand expand;   /* how group 1 becomes targets */
	pcre2_code *code;
};

static struct pattern patterns[] = {
	/* rulebook pages: [p. 19], (p. 10), (p.14), (p. 7–8), (p. 10, 24) */
	{ RL_REF_PAGE,
	  "[\\[(]p\\.\\s*(\\d+(?:\\s*[-\\x{2013}]\\s*\\d+)?"
	  "(?:\\s*,\\s*\\d+(?:\\s*[-\\x{2013}]\\s*\\d+)?)*)[\\])]", PAGE_LIST, NULL },
	/* rule numbers, Russian style: (п.303.3), (п. 514.6) */
	{ RL_REF_RULE,
	  "\\(\\x{043F}\\.\\s*(\\d+(?:\\.\\d+)+[a-z\\x{0430}-\\x{044F}]?)\\)",
	  AS_IS, NULL },
	/* rule numbers, English style: "See rule 510", "rule 702.19c",
	 * "rules 601.2a–d", "rules 702.19b and 702.19c", "section 8" */
	{ RL_REF_RULE,
	  "\\b(?:[Rr]ules?|[Ss]ections?)\\s+(" RULE_ITEM
	  "(?:\\s*,\\s*" RULE_ITEM "|\\s*,?\\s+(?:and|or)\\s+" RULE_NEXT ")*)",
	  RULE_LIST, NULL },
};

/* A range is expanded up to MAX_RANGE targets; page and rule numbers go up
 * to NUMBER_MAX. Beyond, it is not what the text meant (a typo, most
 * likely): a warning, and the reference is kept as written. */
enum { MAX_RANGE = 64 };
#define NUMBER_MAX 99999ul

static int compile_all(void)
{
	for (size_t i = 0; i < sizeof patterns / sizeof *patterns; i++) {
		if (patterns[i].code)
			continue;
		patterns[i].code = rl_re_compile(patterns[i].re, 0);
		if (!patterns[i].code)
			return RL_ENOMEM;
	}
	return RL_OK;
}

static int add_unique(struct rl_entry *e, enum rl_ref_kind k, const char *t)
{
	bool found;
	int rc = rl_entry_has_ref(e, k, t, &found);
	return rc || found ? rc : rl_entry_add_ref(e, k, t);
}

/* The reference as written, with a warning that says why. */
static int keep_as_written(struct rl_entry *e, enum rl_ref_kind k,
                           const char *s, size_t n, struct rl_diags *d)
{
	char *t = rl_strtrim(s, n);
	if (!t)
		return RL_ENOMEM;
	int rc = rl_diag_add(d, RL_WARNING, e->line, 0,
	                     "%s reference '%s' is not a range of at most %d "
	                     "numbers up to %lu; kept as written",
	                     k == RL_REF_PAGE ? "page" : "rule", t, MAX_RANGE,
	                     NUMBER_MAX);
	if (!rc)
		rc = add_unique(e, k, t);
	free(t);
	return rc;
}

/* The length of a dash at s ("-" or "–"), or 0. */
static size_t dash_len(const char *s, const char *end)
{
	if (s < end && *s == '-')
		return 1;
	if (end - s >= 3 && (unsigned char)s[0] == 0xE2 &&
	    (unsigned char)s[1] == 0x80 && (unsigned char)s[2] == 0x93)
		return 3;
	return 0;
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* "7–8, 10" → 7, 8, 10. */
static int add_pages(struct rl_entry *e, const char *s, size_t n,
                     struct rl_diags *d)
{
	const char *p = s, *end = s + n;
	int rc = RL_OK;
	while (p < end && !rc) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *stop = comma ? comma : end, *q = skip_blanks(p, stop);
		unsigned long a, b;
		size_t used;
		bool ok = rl_parse_uint(q, (size_t)(stop - q), NUMBER_MAX, &a, &used);
		b = a;
		q = skip_blanks(q + used, stop);
		size_t dl = dash_len(q, stop);
		if (ok && dl) {
			q = skip_blanks(q + dl, stop);
			ok = rl_parse_uint(q, (size_t)(stop - q), NUMBER_MAX, &b, NULL);
		}
		if (!ok || b < a || b - a > MAX_RANGE) {
			rc = keep_as_written(e, RL_REF_PAGE, p, (size_t)(stop - p), d);
		} else {
			char num[24];
			for (unsigned long k = a; k <= b && !rc; k++) {
				snprintf(num, sizeof num, "%lu", k);
				rc = add_unique(e, RL_REF_PAGE, num);
			}
		}
		p = comma ? comma + 1 : end;
	}
	return rc;
}

/* Letters of subrules skip l and o (they look like 1 and 0). */
static bool subrule_letter(char c)
{
	return c >= 'a' && c <= 'z' && c != 'l' && c != 'o';
}

/* Adds a range: letters ("601.2a–d": num "601.2a", to "d"), or the last
 * number ("119.7–8", "903.6–903.11"); anything else, or a range of more
 * than MAX_RANGE, adds both ends. */
static int add_rule_range(struct rl_entry *e, const char *num, const char *to,
                          struct rl_diags *d)
{
	size_t len = strlen(num), tl = strlen(to);
	char buf[40];
	if (len >= sizeof buf - 8)
		return RL_OK;
	memcpy(buf, num, len + 1);
	if (tl == 1 && subrule_letter(to[0]) && subrule_letter(num[len - 1]) &&
	    to[0] > num[len - 1]) {
		int rc = RL_OK;
		for (char c = num[len - 1]; c <= to[0] && !rc; c++)
			if (subrule_letter(c)) {
				buf[len - 1] = c;
				rc = add_unique(e, RL_REF_RULE, buf);
			}
		return rc;
	}
	/* numeric: "8" or "903.11" against the last component of num */
	const char *dot = strrchr(num, '.');
	const char *tdot = strrchr(to, '.');
	const char *last = tdot ? tdot + 1 : to;
	bool digits = dot && !(num[len - 1] >= 'a' && num[len - 1] <= 'z') &&
	              strspn(last, "0123456789") == strlen(last) && *last &&
	              (!tdot || ((size_t)(tdot - to) == (size_t)(dot - num) &&
	                         strncmp(to, num, (size_t)(dot - num)) == 0));
	int rc = RL_OK;
	if (digits) {
		unsigned long a, z;
		bool ok = rl_parse_uint(dot + 1, strlen(dot + 1), NUMBER_MAX, &a, NULL) &&
		          rl_parse_uint(last, strlen(last), NUMBER_MAX, &z, NULL);
		if (ok && z > a && z - a <= MAX_RANGE) {
			for (unsigned long k = a; k <= z && !rc; k++) {
				snprintf(buf + (dot - num) + 1, sizeof buf - (size_t)(dot - num) - 1,
				         "%lu", k);
				rc = add_unique(e, RL_REF_RULE, buf);
			}
			return rc;
		}
		if (!ok || z - a > MAX_RANGE)
			rc = rl_diag_add(d, RL_WARNING, e->line, 0,
			                 "rule range '%s' to '%s' is not a range of at "
			                 "most %d numbers up to %lu; its ends are kept",
			                 num, to, MAX_RANGE, NUMBER_MAX);
	}
	if (!rc)
		rc = add_unique(e, RL_REF_RULE, num);
	if (!rc && tdot) {
		rc = add_unique(e, RL_REF_RULE, to);
	} else if (!rc && digits) {
		/* "100.7–9": the end is 100.9 */
		snprintf(buf + (dot - num) + 1, sizeof buf - (size_t)(dot - num) - 1,
		         "%s", to);
		rc = add_unique(e, RL_REF_RULE, buf);
	}
	return rc;
}

/* "601.2a–d, 712.9–10, and 712.18", "608.3a and b" → every rule named. */
static int add_rules(struct rl_entry *e, const char *s, size_t n,
                     struct rl_diags *d)
{
	const char *p = s, *end = s + n;
	char prev[40] = "";
	int rc = RL_OK;
	while (p < end && !rc) {
		/* separators: ", ", " and ", " or " */
		while (p < end && (*p == ',' || *p == ' '))
			p++;
		if (end - p >= 4 && strncmp(p, "and ", 4) == 0) {
			p += 4;
			continue;
		}
		if (end - p >= 3 && strncmp(p, "or ", 3) == 0) {
			p += 3;
			continue;
		}
		if (p >= end)
			break;
		const char *q = p;
		while (q < end && ((*q >= '0' && *q <= '9') || *q == '.' ||
		                   (*q >= 'a' && *q <= 'z')))
			q++;
		size_t len = (size_t)(q - p);
		while (len > 0 && p[len - 1] == '.')
			len--;                  /* "rule 510." ends a sentence */
		char num[40];
		if (len == 0 || len >= sizeof num) {
			p = q > p ? q : p + 1;
			continue;
		}
		memcpy(num, p, len);
		num[len] = '\0';
		if (len == 1 && num[0] >= 'a' && num[0] <= 'z') {
			/* a lone letter: a subrule of the previous number */
			size_t pl = strlen(prev);
			if (pl && prev[pl - 1] >= 'a' && prev[pl - 1] <= 'z') {
				prev[pl - 1] = num[0];
				rc = add_unique(e, RL_REF_RULE, prev);
			}
			p = q;
			continue;
		}
		p = q;
		const char *r = p;
		while (r < end && *r == ' ')
			r++;
		size_t dl = dash_len(r, end);
		if (dl) {
			r += dl;
			while (r < end && *r == ' ')
				r++;
			const char *t = r;
			while (t < end && ((*t >= '0' && *t <= '9') || *t == '.' ||
			                   (*t >= 'a' && *t <= 'z')))
				t++;
			size_t tl = (size_t)(t - r);
			while (tl > 0 && r[tl - 1] == '.')
				tl--;
			char to[40];
			if (tl > 0 && tl < sizeof to) {
				memcpy(to, r, tl);
				to[tl] = '\0';
				rc = add_rule_range(e, num, to, d);
				memcpy(prev, num, len + 1);
				p = t;
				continue;
			}
		}
		rc = add_unique(e, RL_REF_RULE, num);
		memcpy(prev, num, len + 1);
	}
	return rc;
}

int rl_xref_scan(struct rl_entry *e, const char *text, struct rl_diags *d)
{
	int rc = compile_all();
	if (rc)
		return rc;
	size_t len = strlen(text);
	for (size_t i = 0; i < sizeof patterns / sizeof *patterns; i++) {
		pcre2_match_data *md =
			pcre2_match_data_create_from_pattern(patterns[i].code, NULL);
		if (!md)
			return RL_ENOMEM;
		PCRE2_SIZE off = 0;
		while (off <= len) {
			int m = pcre2_match(patterns[i].code, (PCRE2_SPTR)text, len, off,
			                    PCRE2_NO_UTF_CHECK, md, NULL);
			if (m < 0)
				break;
			PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
			const char *t = text + ov[2];
			size_t tn = ov[3] - ov[2];
			if (patterns[i].expand == PAGE_LIST) {
				rc = add_pages(e, t, tn, d);
			} else if (patterns[i].expand == RULE_LIST) {
				rc = add_rules(e, t, tn, d);
			} else {
				char *s = rl_strndup(t, tn);
				rc = s ? add_unique(e, patterns[i].kind, s) : RL_ENOMEM;
				free(s);
			}
			if (rc)
				break;
			off = ov[1] > ov[0] ? ov[1] : ov[1] + 1;
		}
		pcre2_match_data_free(md);
		if (rc)
			return rc;
	}
	return RL_OK;
}
