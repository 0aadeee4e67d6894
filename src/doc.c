/* doc.c — the document model that importers fill and the store reads. */
#include "doc.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const rl_kind_names[] = {
	[RL_KIND_FAQ] = "faq", [RL_KIND_ERRATA] = "errata",
	[RL_KIND_RULE] = "rule", [RL_KIND_GLOSSARY] = "glossary", NULL
};

static const char *const ref_kind_names[] = {
	[RL_REF_PAGE] = "page", [RL_REF_RULE] = "rule",
	[RL_REF_DISCUSSION] = "discussion", [RL_REF_RULING] = "ruling",
	[RL_REF_TERM] = "term", [RL_REF_URL] = "url",
};

/* The name at k of names (n of them), NULL past the last. */
static const char *name_at(const char *const *names, size_t n, size_t k)
{
	return k < n ? names[k] : NULL;
}

/* The index of s in names (n of them, or fewer before a NULL), as *out. */
static int parse_name(const char *const *names, size_t n, const char *s,
                      size_t *out)
{
	for (size_t i = 0; i < n && names[i]; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = i;
			return RL_OK;
		}
	return RL_EUSAGE;
}

#define NAMES(v) v, sizeof v / sizeof *v

/* PREFIX_name() and PREFIX_parse() of an enum whose values index names (as
 * systemd's DEFINE_STRING_TABLE_LOOKUP): rl_kind_name(), rl_kind_parse(),
 * rl_ref_kind_name(), rl_ref_kind_parse(). */
#define NAME_TABLE(prefix, type, names)                                 \
	const char *prefix##_name(type k)                               \
	{                                                               \
		return name_at(NAMES(names), (size_t)k);                \
	}                                                               \
	int prefix##_parse(const char *s, type *out)                    \
	{                                                               \
		size_t i;                                               \
		int rc = parse_name(NAMES(names), s, &i);               \
		if (!rc)                                                \
			*out = (type)i;                                 \
		return rc;                                              \
	}

NAME_TABLE(rl_kind, enum rl_kind, rl_kind_names)
NAME_TABLE(rl_ref_kind, enum rl_ref_kind, ref_kind_names)

bool rl_ref_kind_resolves(enum rl_ref_kind k)
{
	return k == RL_REF_RULE || k == RL_REF_RULING || k == RL_REF_TERM;
}

struct rl_entry *rl_doc_add_entry(struct rl_doc *doc)
{
	if (!rl_grow(&doc->entries, &doc->cap, doc->n + 1, sizeof *doc->entries))
		return NULL;
	struct rl_entry *e = &doc->entries[doc->n++];
	*e = (struct rl_entry){ .hidden_tags = -1 };
	return e;
}

/* The capacity rl_grow() gave an array that holds n elements: entries keep
 * no capacity field, so it is recomputed (8, then powers of two). */
static size_t cap_of(size_t n)
{
	if (n == 0)
		return 0;
	size_t c = 8;
	while (c < n)
		c *= 2;
	return c;
}

int rl_tag_canonical(const char *name, const char *qualifier,
                     struct rl_tag *out)
{
	*out = (struct rl_tag){0};
	char *shown = rl_tag_display(name ? name : "", qualifier);
	if (!shown)
		return RL_ENOMEM;
	int rc = rl_tag_parse(shown, out);
	free(shown);
	return rc;
}

/* A tag's identity as the store compares tags: both parts case-folded. */
static char *tag_key(const struct rl_tag *t)
{
	char *n = rl_fold(t->name), *q = rl_fold(t->qualifier ? t->qualifier : "");
	struct rl_buf b = {0};
	if (n && q) {
		rl_buf_adds(&b, n);
		rl_buf_addc(&b, '\x1F');
		rl_buf_adds(&b, q);
	} else {
		b.oom = true;
	}
	free(n);
	free(q);
	return rl_buf_take(&b);
}

/* The set of the keys key_at(e, 0..n) gives: an entry's index of its
 * tags or references; NULL when memory ran out. */
static struct rl_strset *key_set(const struct rl_entry *e, size_t n,
                                 char *(*key_at)(const struct rl_entry *,
                                                 size_t))
{
	struct rl_strset *set = calloc(1, sizeof *set);
	for (size_t i = 0; set && i < n; i++) {
		char *k = key_at(e, i);
		if (!k || rl_strset_add(set, k, strlen(k)) < 0) {
			free(k);
			rl_strset_free(set);
			free(set);
			return NULL;
		}
		free(k);
	}
	return set;
}

static char *tag_key_at(const struct rl_entry *e, size_t i)
{
	return tag_key(&e->tags[i]);
}

/* Does e have a tag of this key? Tags are compared one by one while there
 * are few; from TAG_INDEX_MIN on through an index kept with the entry, so
 * that a line of 100,000 tags is not checked in quadratic time. */
enum { TAG_INDEX_MIN = 16 };

static int has_tag(struct rl_entry *e, const char *key, bool *found)
{
	*found = false;
	if (!e->tag_index && e->ntags < TAG_INDEX_MIN) {
		for (size_t i = 0; i < e->ntags && !*found; i++) {
			char *k = tag_key(&e->tags[i]);
			if (!k)
				return RL_ENOMEM;
			*found = strcmp(k, key) == 0;
			free(k);
		}
		return RL_OK;
	}
	if (!e->tag_index && !(e->tag_index = key_set(e, e->ntags, tag_key_at)))
		return RL_ENOMEM;
	*found = rl_strset_has(e->tag_index, key, strlen(key));
	return RL_OK;
}

int rl_entry_add_tag(struct rl_entry *e, const char *name, const char *qualifier)
{
	struct rl_tag t;
	int rc = rl_tag_canonical(name, qualifier, &t);
	if (rc == RL_EDATA) {
		/* nothing to parse (an empty name): the tag as it is */
		rc = (t.name = rl_strdup(name ? name : "")) &&
		     (!qualifier || (t.qualifier = rl_strdup(qualifier)))
		     ? RL_OK : RL_ENOMEM;
	}
	char *key = rc ? NULL : tag_key(&t);
	bool found = false;
	if (!rc && !key)
		rc = RL_ENOMEM;
	if (!rc)
		rc = has_tag(e, key, &found);
	size_t cap = cap_of(e->ntags);
	if (!rc && !found && !rl_grow(&e->tags, &cap, e->ntags + 1, sizeof *e->tags))
		rc = RL_ENOMEM;
	if (!rc && !found && e->tag_index &&
	    rl_strset_add(e->tag_index, key, strlen(key)) < 0)
		rc = RL_ENOMEM;
	free(key);
	if (rc || found) {
		rl_tag_clear(&t);
		return rc;
	}
	e->tags[e->ntags++] = t;
	return RL_OK;
}

/* A reference's key in the index: its kind as a letter, then the target. */
static char *ref_key(enum rl_ref_kind kind, const char *target)
{
	size_t n = strlen(target);
	char *k = malloc(n + 2);
	if (k) {
		k[0] = (char)('A' + (int)kind);
		memcpy(k + 1, target, n + 1);
	}
	return k;
}

int rl_entry_add_ref(struct rl_entry *e, enum rl_ref_kind kind, const char *target)
{
	size_t cap = cap_of(e->nrefs);
	if (!rl_grow(&e->refs, &cap, e->nrefs + 1, sizeof *e->refs))
		return RL_ENOMEM;
	char *t = rl_strdup(target);
	if (!t)
		return RL_ENOMEM;
	if (e->ref_index) {
		char *k = ref_key(kind, target);
		if (!k || rl_strset_add(e->ref_index, k, strlen(k)) < 0) {
			free(k);
			free(t);
			return RL_ENOMEM;
		}
		free(k);
	}
	e->refs[e->nrefs++] = (struct rl_ref){ kind, t };
	return RL_OK;
}

static char *ref_key_at(const struct rl_entry *e, size_t i)
{
	return ref_key(e->refs[i].kind, e->refs[i].target);
}

int rl_entry_has_ref(struct rl_entry *e, enum rl_ref_kind kind,
                     const char *target, bool *found)
{
	*found = false;
	if (!e->ref_index && e->nrefs < 32) {
		for (size_t i = 0; i < e->nrefs && !*found; i++)
			*found = e->refs[i].kind == kind &&
			         strcmp(e->refs[i].target, target) == 0;
		return RL_OK;
	}
	/* many references: index them once, then every check is O(1) */
	if (!e->ref_index && !(e->ref_index = key_set(e, e->nrefs, ref_key_at)))
		return RL_ENOMEM;
	char *k = ref_key(kind, target);
	if (!k)
		return RL_ENOMEM;
	*found = rl_strset_has(e->ref_index, k, strlen(k));
	free(k);
	return RL_OK;
}

int rl_entry_add_alias(struct rl_entry *e, const char *alias)
{
	size_t cap = cap_of(e->naliases);
	if (!rl_grow(&e->aliases, &cap, e->naliases + 1, sizeof *e->aliases))
		return RL_ENOMEM;
	char *a = rl_strdup(alias);
	if (!a)
		return RL_ENOMEM;
	e->aliases[e->naliases++] = a;
	return RL_OK;
}

int rl_doc_same_entry(struct rl_doc *doc, struct rl_strmap *seen,
                      struct rl_entry **first)
{
	*first = NULL;
	size_t last = doc->n - 1, was;
	const struct rl_entry *e = &doc->entries[last];
	struct rl_buf k = {0};
	rl_buf_addf(&k, "%d:%s", (int)e->kind, e->key);
	int fresh = k.oom ? -1 : rl_strmap_add(seen, k.s, k.len, last, &was);
	rl_buf_free(&k);
	if (fresh < 0)
		return RL_ENOMEM;
	if (!fresh)
		*first = &doc->entries[was];
	return RL_OK;
}

int rl_doc_merge_repeat(struct rl_doc *doc, struct rl_strmap *seen,
                        struct rl_diags *d, const char *noun,
                        const char *what)
{
	struct rl_entry *e = &doc->entries[doc->n - 1], *f;
	int rc = rl_doc_same_entry(doc, seen, &f);
	if (rc || !f)
		return rc;
	rc = rl_diag_add(d, RL_WARNING, e->line, 0, "%s'%s' appears again "
	                 "(first at line %u); its %s is added to the first's",
	                 noun, e->title, f->line, what);
	if (!rc)
		rc = rl_entry_absorb(f, e);
	rl_entry_clear(e);
	doc->n--;
	return rc;
}

/* What an entry that absorbs others keeps beside its text: the bytes
 * its text has room for (it grows by doubling) and the set of its
 * paragraphs, so that a merge neither copies the whole text nor searches
 * it: 30,000 repeats of one card took 3.1 s (strstr and a copy each). */
struct rl_entry_merge {
	const char *text;          /* the text this is about (e->text) */
	size_t len, cap;
	struct rl_strset paras;
};

static void merge_free(struct rl_entry_merge *m)
{
	if (m) {
		rl_strset_free(&m->paras);
		free(m);
	}
}

/* Where the paragraph of s[0..n) that starts at i ends: at the first
 * "\n\n" from i, or n. */
static size_t paragraph_end(const char *s, size_t i, size_t n)
{
	for (const char *p = s + i;
	     (p = memchr(p, '\n', n - (size_t)(p - s))) && p + 1 < s + n; p++)
		if (p[1] == '\n')
			return (size_t)(p - s);
	return n;
}

/* The paragraphs ("\n\n" apart) of s[0..n) added to set: RL_ENOMEM. */
static int add_paragraphs(struct rl_strset *set, const char *s, size_t n)
{
	for (size_t i = 0; i <= n; ) {
		size_t k = paragraph_end(s, i, n);
		if (rl_strset_add(set, s + i, k - i) < 0)
			return RL_ENOMEM;
		i = k + 2;
	}
	return RL_OK;
}

/* Does set hold every paragraph of s[0..n)? */
static bool has_paragraphs(const struct rl_strset *set, const char *s, size_t n)
{
	for (size_t i = 0; i <= n; ) {
		size_t k = paragraph_end(s, i, n);
		if (!rl_strset_has(set, s + i, k - i))
			return false;
		i = k + 2;
	}
	return true;
}

/* f's merge state, made on its first merge (or again, should its text
 * have been replaced since); NULL when memory ran out. */
static struct rl_entry_merge *merge_of(struct rl_entry *f)
{
	if (f->merge && f->merge->text == f->text)
		return f->merge;
	merge_free(f->merge);
	f->merge = NULL;
	struct rl_entry_merge *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->text = f->text;
	m->len = m->cap = strlen(f->text);
	m->cap++;
	if (add_paragraphs(&m->paras, f->text, m->len)) {
		merge_free(m);
		return NULL;
	}
	return f->merge = m;
}

int rl_entry_absorb(struct rl_entry *f, const struct rl_entry *e)
{
	size_t n = strlen(e->text);
	struct rl_entry_merge *m = n ? merge_of(f) : NULL;
	if (n && !m)
		return RL_ENOMEM;
	/* a text whose every paragraph f says already adds nothing */
	if (n && !has_paragraphs(&m->paras, e->text, n)) {
		size_t sep = m->len ? 2 : 0, need = m->len + sep + n + 1;
		if (need > m->cap) {
			size_t cap = m->cap * 2 > need ? m->cap * 2 : need;
			char *t = realloc(f->text, cap);
			if (!t)
				return RL_ENOMEM;
			f->text = t;
			m->text = t;
			m->cap = cap;
		}
		if (add_paragraphs(&m->paras, e->text, n))
			return RL_ENOMEM;
		memcpy(f->text + m->len, "\n\n", sep);
		memcpy(f->text + m->len + sep, e->text, n + 1);
		m->len += sep + n;
	}
	int rc = RL_OK;
	for (size_t i = 0; i < e->nrefs && !rc; i++) {
		bool found;
		rc = rl_entry_has_ref(f, e->refs[i].kind, e->refs[i].target, &found);
		if (!rc && !found)
			rc = rl_entry_add_ref(f, e->refs[i].kind, e->refs[i].target);
	}
	for (size_t i = 0; i < e->ntags && !rc; i++)
		rc = rl_entry_add_tag(f, e->tags[i].name, e->tags[i].qualifier);
	for (size_t i = 0; i < e->naliases && !rc; i++)
		rc = rl_entry_add_alias(f, e->aliases[i]);
	return rc;
}

void rl_tag_clear(struct rl_tag *t)
{
	if (!t)
		return;
	free(t->name);
	free(t->qualifier);
	t->name = t->qualifier = NULL;
}

void rl_errata_free(struct rl_errata *x)
{
	if (!x)
		return;
	free(x->product);
	free(x->printing);
	free(x->document);
	free(x->page);
	free(x);
}

void rl_entry_clear(struct rl_entry *e)
{
	free(e->key);
	free(e->title);
	free(e->text);
	free(e->section);
	free(e->category);
	free(e->rule);
	for (size_t i = 0; i < e->ntags; i++)
		rl_tag_clear(&e->tags[i]);
	free(e->tags);
	for (size_t i = 0; i < e->nrefs; i++)
		free(e->refs[i].target);
	free(e->refs);
	if (e->ref_index) {
		rl_strset_free(e->ref_index);
		free(e->ref_index);
	}
	if (e->tag_index) {
		rl_strset_free(e->tag_index);
		free(e->tag_index);
	}
	merge_free(e->merge);
	rl_errata_free(e->errata);
	for (size_t i = 0; i < e->naliases; i++)
		free(e->aliases[i]);
	free(e->aliases);
	free(e->date);
	free(e->author);
	free(e->game);
	free(e->lang);
	*e = (struct rl_entry){0};
}

void rl_doc_free(struct rl_doc *doc)
{
	if (!doc)
		return;
	for (size_t i = 0; i < doc->n; i++)
		rl_entry_clear(&doc->entries[i]);
	free(doc->entries);
	free(doc->format);
	free(doc->title);
	free(doc->game);
	free(doc->lang);
	free(doc->date);
	for (size_t i = 0; i < doc->nconcepts; i++) {
		struct rl_concept *c = &doc->concepts[i];
		for (size_t k = 0; k < c->nterms; k++) {
			free(c->terms[k].term);
			free(c->terms[k].lang);
		}
		free(c->terms);
		free(c->game);
	}
	free(doc->concepts);
	if (doc->page_tag) {
		rl_tag_clear(doc->page_tag);
		free(doc->page_tag);
	}
	*doc = (struct rl_doc){0};
}

/* "Name (Qualifier)": the qualifier is the last balanced parenthesized
 * group when it ends the string and something stands before it. */
int rl_tag_parse(const char *s, struct rl_tag *out)
{
	*out = (struct rl_tag){0};
	char *t = rl_strtrim(s, strlen(s));
	if (!t)
		return RL_ENOMEM;
	size_t n = strlen(t);
	if (n == 0) {
		free(t);
		return RL_EDATA;
	}
	if (t[n - 1] == ')') {
		int depth = 0;
		size_t i = n;
		while (i-- > 0) {
			if (t[i] == ')')
				depth++;
			else if (t[i] == '(' && --depth == 0)
				break;
		}
		if (depth == 0 && i != (size_t)-1 && i > 0) {
			char *name = rl_strtrim(t, i);
			char *qual = rl_strtrim(t + i + 1, n - i - 2);
			if (!name || !qual) {
				free(name); free(qual); free(t);
				return RL_ENOMEM;
			}
			if (*name && *qual) {
				free(t);
				out->name = name;
				out->qualifier = qual;
				return RL_OK;
			}
			free(name);
			free(qual);
		}
	}
	out->name = t;
	return RL_OK;
}

char *rl_tag_display(const char *name, const char *qualifier)
{
	struct rl_buf b = {0};
	rl_buf_adds(&b, name);
	if (qualifier && *qualifier)
		rl_buf_addf(&b, " (%s)", qualifier);
	return rl_buf_take(&b);
}

/* Is the word that ends just before text[i] a single letter? */
static bool one_letter_word(const char *text, size_t i)
{
	if (i == 0)
		return false;
	size_t k = i - 1;     /* the last character before the dot: [k, i) */
	while (k > 0 && ((unsigned char)text[k] & 0xC0) == 0x80)
		k--;
	if (text[k] == ' ' || text[k] == ')' || text[k] == ']')
		return false;
	return k == 0 || text[k - 1] == ' ' || text[k - 1] == '(' ||
	       text[k - 1] == '.' || text[k - 1] == '[';
}

char *rl_card_text_name(const char *card)
{
	struct rl_buf b = {0};
	rl_buf_adds(&b, "card: ");
	rl_buf_adds(&b, card);
	return rl_buf_take(&b);
}

char *rl_title_from_text(const char *text, size_t max)
{
	size_t n = strcspn(text, "\n");   /* the first line at most */
	/* the first sentence: up to ". ", "? ", "! " outside parentheses and
	 * «» or “” quotes; a one-letter word before the dot is an abbreviation
	 * ("p.", "п.", "e.g."), not an end */
	int depth = 0;
	for (size_t i = 0; i + 1 < n; i++) {
		if (text[i] == '(' || strncmp(text + i, "\xC2\xAB", 2) == 0 ||
		    strncmp(text + i, "\xE2\x80\x9C", 3) == 0)
			depth++;
		else if ((text[i] == ')' || strncmp(text + i, "\xC2\xBB", 2) == 0 ||
		          strncmp(text + i, "\xE2\x80\x9D", 3) == 0) && depth > 0)
			depth--;
		if (depth == 0 && (text[i] == '.' || text[i] == '?' || text[i] == '!') &&
		    (text[i + 1] == ' ' || text[i + 1] == '\n') && i >= 3 &&
		    !(text[i] == '.' && one_letter_word(text, i))) {
			n = text[i] == '?' || text[i] == '!' ? i + 1 : i;
			break;
		}
	}
	if (n > max) {
		n = rl_cut_at_word(text, n, max);
		struct rl_buf b = {0};
		rl_buf_add(&b, text, n);
		rl_buf_adds(&b, "\xE2\x80\xA6");
		return rl_buf_take(&b);
	}
	return rl_strtrim(text, n);
}

int rl_doc_set_page_tag(struct rl_doc *doc, const char *s, size_t n)
{
	free(doc->title);
	if (!(doc->title = rl_strtrim(s, n)))
		return RL_ENOMEM;
	if (!doc->page_tag && !(doc->page_tag = calloc(1, sizeof *doc->page_tag)))
		return RL_ENOMEM;
	rl_tag_clear(doc->page_tag);
	return rl_tag_parse(doc->title, doc->page_tag);
}

int rl_doc_set_game(struct rl_doc *doc, const char *s, size_t n)
{
	if (doc->game)
		return RL_OK;
	return (doc->game = rl_strtrim(s, n)) ? RL_OK : RL_ENOMEM;
}

bool rl_date_valid(long year, long month, long day)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1)
		return false;
	bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
	return day <= days[month - 1] + (month == 2 && leap);
}

int rl_doc_set_date(struct rl_doc *doc, long year, long month, long day,
                    struct rl_diags *d, unsigned line)
{
	if (!rl_date_valid(year, month, day))
		return rl_diag_add(d, RL_WARNING, line, 0,
		                   "the document's date (%04ld-%02ld-%02ld) is not a "
		                   "date; left out", year % 10000, month % 100,
		                   day % 100);
	char buf[16];
	snprintf(buf, sizeof buf, "%04ld-%02ld-%02ld", year, month, day);
	free(doc->date);
	return (doc->date = rl_strdup(buf)) ? RL_OK : RL_ENOMEM;
}

void rl_doc_ends_inside(struct rl_doc *doc, enum rl_doc_end what,
                        unsigned line)
{
	if (doc->end != RL_END_COMPLETE)
		return;
	doc->end = what;
	doc->end_line = line;
}

bool rl_parse_uint(const char *s, size_t n, unsigned long max,
                   unsigned long *out, size_t *used)
{
	size_t i = 0;
	unsigned long v = 0;
	bool over = false;
	while (i < n && s[i] >= '0' && s[i] <= '9') {
		unsigned long digit = (unsigned long)(s[i] - '0');
		if (v > max / 10 || (v == max / 10 && digit > max % 10))
			over = true;
		if (!over)
			v = v * 10 + digit;
		i++;
	}
	if (used)
		*used = i;
	if (i == 0 || over)
		return false;
	*out = v;
	return true;
}

char *rl_file_stem(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strrchr(base, '.');
	size_t len = dot && dot > base ? (size_t)(dot - base) : strlen(base);
	return rl_strndup(base, len);
}
