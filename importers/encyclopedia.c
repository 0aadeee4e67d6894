/* encyclopedia.c — an encyclopedia entry, as text extracted from a PDF page
 * (the NeuroScape encyclopedia is the model).
 *
 *   ENCYCLOPÉDIE // ENTRÉE 21           the header: the entry number
 *   Swift (rapide) et Swift Checks      the title
 *   Fenêtres de réponse rapide …        the lead sentence
 *   Dans NeuroScape, le mot-clé …       body text ("Dans GAME," names the game)
 *   Fin de la fenêtre                   a heading: a new section
 *
 * Each section becomes a ruling of the entry (the text before the first
 * heading is the title section). "Term (traduction)" pairs become glossary
 * entries, referenced by the sections that use the term. "la rubrique X"
 * is a reference to another section, which may be in another file.
 *
 * The page has a narrow side box ("À RETENIR", "•" bullets, "- " items)
 * that PDF extraction interleaves with the body, line by line. What can be
 * told apart is: a box header, a bullet's words up to the box's width
 * (measured from the lines that hold box items alone) or up to a
 * capitalized word, and short lower-case fragments that end a box item
 * (before the item they finish, at times). Box items become a ruling of
 * their own; every line that mixed the two columns gets a warning, and
 * text that could not be placed is kept where it stood. */
#include "importer.h"
#include "doc.h"
#include "re.h"
#include "util.h"
#include "utf8.h"

#include <stdlib.h>
#include <string.h>

/* The words of the format. */
static const char HEADER_RE[] =
	"^\\s*ENCYCLOP(?:\\x{00C9}|E)DIE\\s*//\\s*ENTR(?:\\x{00C9}|E)E\\s+(\\d+)\\s*$";
static const char BOX_HEADER[] = "\xC3\x80 RETENIR";            /* À RETENIR */
static const char BULLET[] = "\xE2\x80\xA2";                    /* • */
/* "Dans NeuroScape, …" / "In NeuroScape, …": the game. */
static const char GAME_RE[] =
	"(?:^|[.!?]\\s+)(?:Dans|In)\\s+(\\p{Lu}[\\p{L}\\d-]*(?:\\s\\p{Lu}[\\p{L}\\d-]*)*),";
/* "Swift Checks (fenêtres de réponse rapide)": a term and its translation. */
static const char PAIR_RE[] =
	"(\\p{Lu}[\\p{L}-]*(?:\\s\\p{Lu}[\\p{L}-]*)*)\\s\\((\\p{Ll}[^()]{0,60})\\)";
/* Articles that open a sentence are not part of a term ("La Cache (pile
 * de résolution)" is the term "Cache"). */
static const char *const articles[] = {
	"La ", "Le ", "Les ", "L\xE2\x80\x99", "L'", "Un ", "Une ", "Des ",
	"Du ", "The ", "A ", "An ", NULL
};
/* "la rubrique Apprendre": a section reference. */
static const char SECTION_REF_RE[] =
	"\\brubriques?\\s+(\\p{Lu}[\\p{L}\\d\\x{2019}'-]*(?:\\s\\p{Lu}[\\p{L}\\d-]*)*)";

enum {
	HEADING_MAX_BYTES = 60,
	HEADING_MAX_WORDS = 7,
	BOX_WIDTH_DEFAULT = 32,
	/* A bullet may run past the box width to the end of its sentence
	 * when that comes within this many widths (extraction joins the
	 * lines of an item that nothing interleaved). */
	BOX_SENTENCE_WIDTHS = 2,
};

struct section {
	char *title;
	unsigned line;
	struct rl_buf text;
};

struct fragment {
	char *text;
	unsigned line;
};

struct parser {
	struct rl_doc *doc;
	struct rl_diags *d;
	struct section *secs;
	size_t nsecs, secs_cap;
	struct fragment *box;        /* box items, in order */
	size_t nbox, box_cap;
	struct fragment *loose;      /* lower-case fragments not yet placed */
	size_t nloose, loose_cap;
	size_t box_width;
	unsigned box_line;
	size_t line_item;            /* the bullet begun on this line, or -1 */
};

/* ---- small text helpers -------------------------------------------------- */

static size_t chars(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xC0) != 0x80;
	return c;
}

static bool starts_upper(const char *s)
{
	uint32_t cp;
	if (!*s)
		return false;
	rl_utf8_decode(s, &cp);
	return rl_fold_cp(cp) != cp;
}

static bool starts_lower(const char *s)
{
	uint32_t cp;
	if (!*s)
		return false;
	rl_utf8_decode(s, &cp);
	return (cp >= 'a' && cp <= 'z') || (cp >= 0xDF && cp <= 0xFF) ||
	       (cp >= 0x430 && cp <= 0x45F);
}

static bool ends_sentence(const char *s, size_t n)
{
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n > 0 && (s[n - 1] == '.' || s[n - 1] == '!' || s[n - 1] == '?' ||
	                 s[n - 1] == ':');
}

static size_t words(const char *s, size_t n)
{
	size_t w = 0;
	bool in = false;
	for (size_t i = 0; i < n; i++) {
		bool sp = s[i] == ' ' || s[i] == '\t';
		w += !sp && !in;
		in = !sp;
	}
	return w;
}

/* A heading: short, capitalized, no sentence punctuation at its end. */
static bool is_heading(const char *s, size_t n)
{
	/* in place: a copy that failed for want of memory would make a
	 * heading body text, silently */
	rl_trim_range(&s, &n);
	return n > 0 && n <= HEADING_MAX_BYTES && words(s, n) <= HEADING_MAX_WORDS &&
	       starts_upper(s) && !ends_sentence(s, n) &&
	       !(n >= 3 && memcmp(s, BULLET, 3) == 0) && s[n - 1] != ',';
}


/* ---- building sections and the box --------------------------------------- */

static int new_section(struct parser *p, const char *title, size_t n,
                       unsigned line)
{
	if (!rl_grow(&p->secs, &p->secs_cap, p->nsecs + 1, sizeof *p->secs))
		return RL_ENOMEM;
	struct section *s = &p->secs[p->nsecs++];
	*s = (struct section){ rl_strtrim(title, n), line, {0} };
	return s->title ? RL_OK : RL_ENOMEM;
}

/* Appends body text to the current section, joining with a space. */
static void body(struct parser *p, const char *s, size_t n)
{
	char *t = rl_strtrim(s, n);
	struct rl_buf *b = &p->secs[p->nsecs - 1].text;
	if (!t) {
		b->oom = true;
		return;
	}
	if (*t) {
		if (b->len)
			rl_buf_addc(b, ' ');
		rl_buf_adds(b, t);
	}
	free(t);
}

static int add_fragment(struct fragment **v, size_t *n, size_t *cap,
                        const char *s, size_t len, unsigned line)
{
	if (!rl_grow(v, cap, *n + 1, sizeof **v))
		return RL_ENOMEM;
	char *t = rl_strtrim(s, len);
	if (!t)
		return RL_ENOMEM;
	(*v)[(*n)++] = (struct fragment){ t, line };
	return RL_OK;
}

/* The last box item that does not end a sentence yet, or NULL. */
static struct fragment *open_item(struct parser *p)
{
	if (p->nbox && !ends_sentence(p->box[p->nbox - 1].text,
	                              strlen(p->box[p->nbox - 1].text)))
		return &p->box[p->nbox - 1];
	return NULL;
}

static int extend(struct fragment *f, const char *s, size_t n)
{
	struct rl_buf b = {0};
	rl_buf_adds(&b, f->text);
	rl_buf_addc(&b, ' ');
	rl_trim_range(&s, &n);
	rl_buf_add(&b, s, n);
	char *joined = rl_buf_take(&b);
	if (!joined)
		return RL_ENOMEM;
	free(f->text);
	f->text = joined;
	return RL_OK;
}

static int add_item(struct parser *p, const char *s, size_t n, unsigned line)
{
	int rc = add_fragment(&p->box, &p->nbox, &p->box_cap, s, n, line);
	if (rc)
		return rc;
	/* An item that does not end takes the oldest waiting fragment. */
	struct fragment *f = open_item(p);
	if (f && p->nloose) {
		rc = extend(f, p->loose[0].text, strlen(p->loose[0].text));
		free(p->loose[0].text);
		memmove(p->loose, p->loose + 1, (p->nloose - 1) * sizeof *p->loose);
		p->nloose--;
	}
	return rc;
}

/* Length in bytes of a box bullet's words at the start of s: its whole
 * sentence when that ends within BOX_SENTENCE_WIDTHS box widths and body
 * text (a capital) or the line's end follows; else the words that fit the
 * box width, stopping before a capitalized word. */
static size_t bullet_span(const struct parser *p, const char *s, size_t n)
{
	for (size_t i = 3; i < n; i++) {
		if (chars(s, i) > p->box_width * BOX_SENTENCE_WIDTHS)
			break;
		if (s[i] == '.' && (i + 1 == n || (s[i + 1] == ' ' &&
		                                    starts_upper(s + i + 2))))
			return i + 1;
	}
	size_t i = 3, end = 3, nwords = 0;   /* after "•" */
	while (i < n) {
		while (i < n && s[i] == ' ')
			i++;
		size_t w = i;
		while (i < n && s[i] != ' ')
			i++;
		if (w == i)
			break;
		if (nwords > 0 && starts_upper(s + w))
			break;
		if (chars(s, i) > p->box_width)
			break;
		end = i;
		nwords++;
		if (ends_sentence(s, i))
			break;
	}
	return end;
}

/* Where a lower-case fragment that ends a sentence starts at the end of
 * [s, e): after the last ". " before it, when it fits the box. */
static const char *trailing_fragment(const struct parser *p, const char *s,
                                     const char *e)
{
	for (const char *q = e - 1; q > s + 1; q--)
		if (q[-1] == ' ' && q[-2] == '.') {
			if (starts_lower(q) && ends_sentence(q, (size_t)(e - q)) &&
			    chars(q, (size_t)(e - q)) <= p->box_width)
				return q;
			return NULL;
		}
	return NULL;
}

/* Body text of a mixed line, [s, stop): perhaps opened by the last words of
 * a box item (at the start of the line: they finish an item that comes
 * later), perhaps ended by them (at the end of the line: they finish this
 * line's bullet), perhaps a heading before a box marker. */
static int body_chunk(struct parser *p, const struct rl_block *l, const char *s,
                      const char *stop, bool at_start, bool at_end)
{
	int rc = RL_OK;
	if (at_start && starts_lower(s)) {
		for (const char *q = s; q < stop; q++)
			if (*q == '.' && (q + 1 == stop || q[1] == ' ')) {
				if (chars(s, (size_t)(q + 1 - s)) <= p->box_width) {
					rc = add_fragment(&p->loose, &p->nloose,
					                  &p->loose_cap, s,
					                  (size_t)(q + 1 - s), l->line);
					s = q + 1;
					while (s < stop && *s == ' ')
						s++;
				}
				break;
			}
	}
	const char *tail = at_end ? trailing_fragment(p, s, stop) : NULL;
	const char *end = tail ? tail : stop;
	if (!rc && end > s) {
		size_t n = (size_t)(end - s);
		if (is_heading(s, n) && !at_end)
			rc = new_section(p, s, n, l->line);
		else
			body(p, s, n);
		/* ". " then a lower-case word inside body text: a box
		 * fragment that cannot be cut out without guessing. */
		for (const char *q = s; !rc && q + 2 < end; q++)
			if (q[0] == '.' && q[1] == ' ' && starts_lower(q + 2)) {
				const char *w = q;
				while (w > s && w[-1] != ' ')
					w--;
				rc = rl_diag_add(p->d, RL_WARNING, l->line, 0,
				                 "text that may belong to the side box ends "
				                 "at '%.*s' inside the body; left in place",
				                 (int)(q + 1 - w), w);
			}
	}
	if (!rc && tail) {
		if (p->line_item != (size_t)-1 && !ends_sentence(
		        p->box[p->line_item].text, strlen(p->box[p->line_item].text)))
			rc = extend(&p->box[p->line_item], tail, (size_t)(stop - tail));
		else
			rc = add_fragment(&p->loose, &p->nloose, &p->loose_cap, tail,
			                  (size_t)(stop - tail), l->line);
	}
	return rc;
}

/* A line that holds the body and the box side by side. */
static int mixed_line(struct parser *p, const struct rl_block *l)
{
	int rc = RL_OK;
	size_t body_before = p->secs[p->nsecs - 1].text.len, secs_before = p->nsecs;
	const char *s = l->raw, *e = l->raw + l->raw_len;
	bool leading = true;
	p->line_item = (size_t)-1;
	while (!rc && s < e) {
		while (s < e && *s == ' ')
			s++;
		if (s >= e)
			break;
		/* the next box marker */
		const char *bullet = NULL, *hdr = NULL;
		for (const char *q = s; q < e && !bullet && !hdr; q++) {
			if ((size_t)(e - q) >= 3 && memcmp(q, BULLET, 3) == 0)
				bullet = q;
			else if ((size_t)(e - q) >= sizeof BOX_HEADER - 1 &&
			         memcmp(q, BOX_HEADER, sizeof BOX_HEADER - 1) == 0)
				hdr = q;
		}
		const char *stop = bullet ? bullet : hdr ? hdr : e;
		if (stop > s) {
			rc = body_chunk(p, l, s, stop, s == l->raw || leading, stop == e);
			leading = false;
			s = stop;
			continue;
		}
		if (hdr == s) {
			p->box_line = p->box_line ? p->box_line : l->line;
			s += sizeof BOX_HEADER - 1;
			continue;
		}
		size_t span = bullet_span(p, s, (size_t)(e - s));
		rc = add_fragment(&p->box, &p->nbox, &p->box_cap, s, span, l->line);
		p->line_item = p->nbox - 1;
		s += span;
		/* Body follows; a trailing short lower-case fragment that ends
		 * the line belongs to the box (handled as body text above). */
	}
	/* Only a line that put text in both columns was interleaved. */
	if (!rc && (p->nsecs != secs_before ||
	            p->secs[p->nsecs - 1].text.len != body_before))
		rc = rl_diag_add(p->d, RL_WARNING, l->line, 0,
		                 "the side box is interleaved with the body here (PDF "
		                 "columns); separated by heuristics");
	return rc;
}

/* ---- the whole document ----------------------------------------------------- */

static int glossary(struct parser *p, pcre2_code *pair, pcre2_match_data *md)
{
	/* Look for pairs in the titles and texts of every ruling. */
	int rc = RL_OK;
	size_t nrulings = p->doc->n;
	for (size_t i = 0; i < 2 * nrulings && !rc; i++) {
		const struct rl_entry *src = &p->doc->entries[i / 2];
		const char *text = i % 2 ? src->text : src->title;
		unsigned line = src->line;
		size_t len = strlen(text);
		PCRE2_SIZE off = 0;
		while (!rc && pcre2_match(pair, (PCRE2_SPTR)text, len, off,
		                          PCRE2_NO_UTF_CHECK, md, NULL) >= 3) {
			PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
			size_t ts = ov[2];
			for (const char *const *a = articles; *a; a++) {
				size_t al = strlen(*a);
				if (ov[3] - ts > al && strncmp(text + ts, *a, al) == 0) {
					ts += al;
					break;
				}
			}
			char *term = rl_strndup(text + ts, ov[3] - ts);
			char *tr = rl_strndup(text + ov[4], ov[5] - ov[4]);
			off = ov[1];
			if (!term || !tr) {
				free(term);
				free(tr);
				return RL_ENOMEM;
			}
			bool dup = false;
			for (size_t k = 0; k < p->doc->n && !dup; k++)
				dup = p->doc->entries[k].kind == RL_KIND_GLOSSARY &&
				      strcmp(p->doc->entries[k].title, term) == 0;
			if (!dup) {
				struct rl_entry *e = rl_doc_add_entry(p->doc);
				if (!e) {
					free(term);
					free(tr);
					return RL_ENOMEM;
				}
				e->kind = RL_KIND_GLOSSARY;
				e->line = line;
				e->title = term;
				e->text = tr;
				e->section = rl_strdup(p->doc->title);
				if (!e->section)
					rc = RL_ENOMEM;
			} else {
				free(term);
				free(tr);
			}
		}
	}
	return rc;
}

/* Does text use term as a whole word? */
static bool uses(const char *text, const char *term)
{
	size_t n = strlen(term);
	for (const char *q = strstr(text, term); q; q = strstr(q + 1, term)) {
		bool before = q == text || q[-1] == ' ' || q[-1] == '(' || q[-1] == '\'' ||
		              (unsigned char)q[-1] == 0x99;   /* after ’ */
		char after = q[n];
		if (before && !(after >= 'a' && after <= 'z') &&
		    !((unsigned char)after >= 0x80 && after != (char)0xE2))
			return true;
	}
	return false;
}

static int build(struct parser *p, pcre2_code *pair, pcre2_code *sref,
                 pcre2_match_data *md)
{
	int rc = RL_OK;
	/* sections become rulings */
	for (size_t i = 0; i < p->nsecs && !rc; i++) {
		struct section *s = &p->secs[i];
		char *text = rl_buf_take(&s->text);
		if (!text)
			return RL_ENOMEM;
		struct rl_entry *e = rl_doc_add_entry(p->doc);
		if (!e) {
			free(text);
			return RL_ENOMEM;
		}
		e->kind = RL_KIND_RULE;
		e->line = s->line;
		e->title = s->title;
		s->title = NULL;
		e->text = text;
		e->section = rl_strdup(p->doc->title);
		if (!e->section)
			return RL_ENOMEM;
		if (!*text)
			rc = rl_diag_add(p->d, RL_WARNING, s->line, 0,
			                 "section '%s' has no text", e->title);
		size_t len = strlen(text);
		PCRE2_SIZE off = 0;
		while (!rc && pcre2_match(sref, (PCRE2_SPTR)text, len, off,
		                          PCRE2_NO_UTF_CHECK, md, NULL) >= 2) {
			PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
			char *t = rl_strndup(text + ov[2], ov[3] - ov[2]);
			rc = t ? rl_entry_add_ref(e, RL_REF_RULING, t) : RL_ENOMEM;
			free(t);
			off = ov[1];
		}
	}
	for (size_t i = 0; i < p->nbox && !rc; i++)
		if (!ends_sentence(p->box[i].text, strlen(p->box[i].text)))
			rc = rl_diag_add(p->d, RL_WARNING, p->box[i].line, 0,
			                 "side-box item '%s' is unfinished (the rest "
			                 "could not be found)", p->box[i].text);
	/* the box */
	if (!rc && p->nbox) {
		struct rl_buf b = {0};
		for (size_t i = 0; i < p->nbox; i++) {
			if (i)
				rl_buf_addc(&b, '\n');
			rl_buf_adds(&b, p->box[i].text);
		}
		struct rl_entry *e = rl_doc_add_entry(p->doc);
		if (!e) {
			rl_buf_free(&b);
			return RL_ENOMEM;
		}
		e->kind = RL_KIND_RULE;
		e->line = p->box_line ? p->box_line : p->box[0].line;
		e->title = rl_strdup(BOX_HEADER);
		e->text = rl_buf_take(&b);
		e->section = rl_strdup(p->doc->title);
		if (!e->title || !e->text || !e->section)
			return RL_ENOMEM;
	}
	for (size_t i = 0; i < p->nloose && !rc; i++)
		rc = rl_diag_add(p->d, RL_WARNING, p->loose[i].line, 0,
		                 "could not place '%s' (side box or body?); kept in "
		                 "the box", p->loose[i].text);
	if (!rc && p->nloose) {
		/* nothing lost: the unplaced fragments join the box ruling */
		struct rl_entry *box = NULL;
		for (size_t k = 0; k < p->doc->n; k++)
			if (strcmp(p->doc->entries[k].title, BOX_HEADER) == 0)
				box = &p->doc->entries[k];
		struct rl_buf b = {0};
		if (box)
			rl_buf_adds(&b, box->text);
		for (size_t i = 0; i < p->nloose; i++) {
			if (b.len)
				rl_buf_addc(&b, '\n');
			rl_buf_adds(&b, p->loose[i].text);
		}
		char *t = rl_buf_take(&b);
		if (!t)
			return RL_ENOMEM;
		if (box) {
			free(box->text);
			box->text = t;
		} else {
			struct rl_entry *e = rl_doc_add_entry(p->doc);
			if (!e) {
				free(t);
				return RL_ENOMEM;
			}
			e->kind = RL_KIND_RULE;
			e->line = p->loose[0].line;
			e->title = rl_strdup(BOX_HEADER);
			e->text = t;
			e->section = rl_strdup(p->doc->title);
			if (!e->title || !e->section)
				return RL_ENOMEM;
		}
	}
	if (rc)
		return rc;
	/* glossary pairs, then references from rulings to the terms they use */
	size_t nrulings = p->doc->n;
	if ((rc = glossary(p, pair, md)))
		return rc;
	/* A ruling that uses a term refers to it and is tagged with it, as
	 * "Term (traduction)": the tag the thesaurus maps across languages. */
	for (size_t i = 0; i < p->doc->n && !rc; i++) {
		struct rl_entry *e = &p->doc->entries[i];
		for (size_t k = nrulings; k < p->doc->n && !rc; k++) {
			const struct rl_entry *g = &p->doc->entries[k];
			bool self = i == k;
			if (!self && !uses(e->text, g->title) && !uses(e->title, g->title))
				continue;
			if (!self)
				rc = rl_entry_add_ref(e, RL_REF_TERM, g->title);
			if (!rc)
				rc = rl_entry_add_tag(e, g->title, g->text);
		}
	}
	return rc;
}

static int parse_lines(struct parser *p, const struct rl_block *l, size_t n,
                       pcre2_code *header, pcre2_code *game,
                       pcre2_match_data *md)
{
	size_t i = 0;
	while (i < n && rl_is_blank_line(l[i].raw, l[i].raw_len))
		i++;
	if (i == n || pcre2_match(header, (PCRE2_SPTR)l[i].raw, l[i].raw_len, 0,
	                          PCRE2_NO_UTF_CHECK, md, NULL) < 2) {
		rl_diag_add(p->d, RL_ERROR, i < n ? l[i].line : 0, 0,
		            "expected an 'ENCYCLOPÉDIE // ENTRÉE N' header");
		return RL_EDATA;
	}
	i++;
	while (i < n && rl_is_blank_line(l[i].raw, l[i].raw_len))
		i++;
	if (i == n) {
		rl_diag_add(p->d, RL_ERROR, l[n - 1].line, 0, "the entry has no title");
		return RL_EDATA;
	}
	if (!(p->doc->title = rl_strtrim(l[i].raw, l[i].raw_len)))
		return RL_ENOMEM;
	int rc = new_section(p, l[i].raw, l[i].raw_len, l[i].line);
	/* the box width: the longest line that holds a box item alone */
	for (size_t k = i + 1; k < n; k++)
		if (l[k].raw_len > 2 && l[k].raw[0] == '-' && l[k].raw[1] == ' ' &&
		    chars(l[k].raw, l[k].raw_len) > p->box_width)
			p->box_width = chars(l[k].raw, l[k].raw_len);
	if (!p->box_width)
		p->box_width = BOX_WIDTH_DEFAULT;
	for (i++; i < n && !rc; i++) {
		const struct rl_block *ln = &l[i];
		if (rl_is_blank_line(ln->raw, ln->raw_len))
			continue;
		bool has_box = false;
		for (size_t k = 0; k + 2 < ln->raw_len && !has_box; k++)
			has_box = memcmp(ln->raw + k, BULLET, 3) == 0 ||
			          (k + sizeof BOX_HEADER - 1 <= ln->raw_len &&
			           memcmp(ln->raw + k, BOX_HEADER, sizeof BOX_HEADER - 1) == 0);
		if (ln->raw_len > 2 && ln->raw[0] == '-' && ln->raw[1] == ' ')
			rc = add_item(p, ln->raw, ln->raw_len, ln->line);
		else if (has_box)
			rc = mixed_line(p, ln);
		else if (is_heading(ln->raw, ln->raw_len))
			rc = new_section(p, ln->raw, ln->raw_len, ln->line);
		else
			body(p, ln->raw, ln->raw_len);
	}
	if (rc)
		return rc;
	/* "Dans NeuroScape, …" names the game */
	const char *intro = p->secs[0].text.s;
	if (intro && pcre2_match(game, (PCRE2_SPTR)intro, strlen(intro), 0,
	                         PCRE2_NO_UTF_CHECK, md, NULL) >= 2) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		if (rl_doc_set_game(p->doc, intro + ov[2], ov[3] - ov[2]))
			return RL_ENOMEM;
	}
	return RL_OK;
}

static int recognize(const struct rl_blocks *b, struct rl_input *in)
{
	struct parser p = { .doc = in->doc, .d = in->d };
	pcre2_code *header = rl_re_compile(HEADER_RE, 0), *game = rl_re_compile(GAME_RE, 0),
		*pair = rl_re_compile(PAIR_RE, 0), *sref = rl_re_compile(SECTION_REF_RE, 0);
	pcre2_match_data *md = pcre2_match_data_create(16, NULL);
	int rc = RL_OK;
	if (!header || !game || !pair || !sref || !md)
		rc = RL_ENOMEM;
	if (!rc)
		rc = parse_lines(&p, b->v, b->n, header, game, md);
	if (!rc)
		rc = build(&p, pair, sref, md);
	for (size_t i = 0; i < p.nsecs; i++) {
		free(p.secs[i].title);
		rl_buf_free(&p.secs[i].text);
	}
	free(p.secs);
	for (size_t i = 0; i < p.nbox; i++)
		free(p.box[i].text);
	free(p.box);
	for (size_t i = 0; i < p.nloose; i++)
		free(p.loose[i].text);
	free(p.loose);
	pcre2_match_data_free(md);
	pcre2_code_free(header);
	pcre2_code_free(game);
	pcre2_code_free(pair);
	pcre2_code_free(sref);
	return rc;
}

static enum rl_confidence probe(const char *text, size_t len)
{
	pcre2_code *re = rl_re_compile(HEADER_RE, 0);
	pcre2_match_data *md = re ? pcre2_match_data_create_from_pattern(re, NULL)
	                          : NULL;
	/* the first non-blank line */
	while (len && (*text == '\n' || rl_blank_len(text))) {
		size_t k = *text == '\n' ? 1 : rl_blank_len(text);
		text += k;
		len -= k;
	}
	const char *nl = memchr(text, '\n', len);
	size_t n = nl ? (size_t)(nl - text) : len;
	/* the pattern is a constant: only memory can fail it */
	enum rl_confidence score =
		!md ? RL_PROBE_ENOMEM
		    : pcre2_match(re, (PCRE2_SPTR)text, n, 0, PCRE2_NO_UTF_CHECK, md,
		                  NULL) >= 2 ? RL_PROBE_CERTAIN : RL_PROBE_NO;
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	return score;
}

const struct rl_recognizer rl_format_encyclopedia = {
	.description = "encyclopedia entry extracted from a PDF: \"ENCYCLOP\xC3\x89"
	               "DIE // ENTR\xC3\x89" "E N\", a title, sections, glossary pairs",
	.probe = probe,
	.recognize = recognize,
};
