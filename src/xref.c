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

/* "702.19c", "601.2a–d", "100", "8": a rule number, a letter range. */
#define RULE_ITEM \
	"\\d{1,3}(?:\\.\\d+[a-z]?)?(?:\\s*[-\\x{2013}]\\s*[a-z])?(?![\\w.]\\d)"

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
	  "(?:(?:\\s*,\\s*|\\s*,?\\s+(?:and|or)\\s+)" RULE_ITEM ")*)",
	  RULE_LIST, NULL },
};

enum { MAX_RANGE = 64 };

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

static bool has_ref(const struct rl_entry *e, enum rl_ref_kind k, const char *t)
{
	for (size_t i = 0; i < e->nrefs; i++)
		if (e->refs[i].kind == k && strcmp(e->refs[i].target, t) == 0)
			return true;
	return false;
}

static int add_unique(struct rl_entry *e, enum rl_ref_kind k, const char *t)
{
	return has_ref(e, k, t) ? RL_OK : rl_entry_add_ref(e, k, t);
}

/* "7–8, 10" → 7, 8, 10. A range longer than MAX_RANGE (a typo, most likely)
 * is kept as written rather than expanded. */
static int add_pages(struct rl_entry *e, const char *s, size_t n)
{
	char *list = rl_strndup(s, n);
	if (!list)
		return RL_ENOMEM;
	int rc = RL_OK;
	char *save = NULL;
	for (char *part = strtok_r(list, ",", &save); part && rc == RL_OK;
	     part = strtok_r(NULL, ",", &save)) {
		char *end;
		long a = strtol(part, &end, 10), b = a;
		while (*end == ' ' || *end == '\t')
			end++;
		if (*end == '-')
			b = strtol(end + 1, NULL, 10);
		else if (strncmp(end, "\xE2\x80\x93", 3) == 0)
			b = strtol(end + 3, NULL, 10);
		char num[32];
		if (b < a || b - a > MAX_RANGE) {
			char *t = rl_strtrim(part, strlen(part));
			rc = t ? add_unique(e, RL_REF_PAGE, t) : RL_ENOMEM;
			free(t);
			continue;
		}
		for (long p = a; p <= b && rc == RL_OK; p++) {
			snprintf(num, sizeof num, "%ld", p);
			rc = add_unique(e, RL_REF_PAGE, num);
		}
	}
	free(list);
	return rc;
}

/* Letters of subrules skip l and o (they look like 1 and 0). */
static bool subrule_letter(char c)
{
	return c >= 'a' && c <= 'z' && c != 'l' && c != 'o';
}

/* "601.2a–d, 702.19b and 702.19c" → 601.2a 601.2b 601.2c 601.2d 702.19b
 * 702.19c. */
static int add_rules(struct rl_entry *e, const char *s, size_t n)
{
	int rc = RL_OK;
	size_t i = 0;
	while (i < n && !rc) {
		while (i < n && !(s[i] >= '0' && s[i] <= '9'))
			i++;                      /* separators: ", ", " and " */
		size_t start = i;
		while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.' ||
		                 (s[i] >= 'a' && s[i] <= 'z' && i > start &&
		                  s[i - 1] >= '0' && s[i - 1] <= '9')))
			i++;
		if (i == start)
			break;
		size_t len = i - start;
		while (len > 0 && s[start + len - 1] == '.')
			len--;                    /* "rule 510." ends a sentence */
		char num[32];
		if (len == 0 || len >= sizeof num)
			continue;
		memcpy(num, s + start, len);
		num[len] = '\0';
		/* a letter range: "–d" after "601.2a" */
		size_t k = i;
		while (k < n && s[k] == ' ')
			k++;
		size_t dash = k < n && s[k] == '-' ? 1
		            : k + 2 < n && (unsigned char)s[k] == 0xE2 &&
		              (unsigned char)s[k + 1] == 0x80 &&
		              (unsigned char)s[k + 2] == 0x93 ? 3 : 0;
		char last = num[len - 1];
		if (dash && subrule_letter(last)) {
			k += dash;
			while (k < n && s[k] == ' ')
				k++;
			if (k < n && subrule_letter(s[k]) && s[k] > last) {
				for (char c = last; c <= s[k] && !rc; c++) {
					if (!subrule_letter(c))
						continue;
					num[len - 1] = c;
					rc = add_unique(e, RL_REF_RULE, num);
				}
				i = k + 1;
				continue;
			}
		}
		rc = add_unique(e, RL_REF_RULE, num);
	}
	return rc;
}

int rl_xref_scan(struct rl_entry *e, const char *text)
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
				rc = add_pages(e, t, tn);
			} else if (patterns[i].expand == RULE_LIST) {
				rc = add_rules(e, t, tn);
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
