/* encyclopedia_page.c — the two columns of an encyclopedia page (see
 * encyclopedia.c): the body, cut into sections at its headings, and the
 * side box, told apart where PDF extraction interleaved them.
 *
 * The page has a narrow side box ("À RETENIR", "•" bullets, "- " items)
 * that PDF extraction interleaves with the body, line by line. What can be
 * told apart is: a box header, a bullet's words up to the box's width
 * (measured from the lines that hold box items alone) or up to a
 * capitalized word, and short lower-case fragments that end a box item
 * (before the item they finish, at times). Every line that mixed the two
 * columns gets a warning, and text that could not be placed is kept where
 * it stood. */
#include "encyclopedia.h"
#include "utf8.h"

#include <stdlib.h>
#include <string.h>

static const char BOX_HEADER[] = ENCY_BOX_HEADER;
static const char BULLET[] = "\xE2\x80\xA2";                    /* • */

enum {
	HEADING_MAX_BYTES = 60,
	HEADING_MAX_WORDS = 7,
	BOX_WIDTH_DEFAULT = 32,
	/* A bullet may run past the box width to the end of its sentence
	 * when that comes within this many widths (extraction joins the
	 * lines of an item that nothing interleaved). */
	BOX_SENTENCE_WIDTHS = 2,
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

bool ency_ends_sentence(const char *s, size_t n)
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
	       starts_upper(s) && !ency_ends_sentence(s, n) &&
	       !(n >= 3 && memcmp(s, BULLET, 3) == 0) && s[n - 1] != ',';
}


/* ---- building sections and the box --------------------------------------- */

static int new_section(struct ency_page *p, const char *title, size_t n,
                       unsigned line)
{
	if (!rl_grow(&p->secs, &p->secs_cap, p->nsecs + 1, sizeof *p->secs))
		return RL_ENOMEM;
	struct ency_section *s = &p->secs[p->nsecs++];
	*s = (struct ency_section){ rl_strtrim(title, n), line, {0} };
	return s->title ? RL_OK : RL_ENOMEM;
}

/* Appends body text to the current section, joining with a space. */
static void body(struct ency_page *p, const char *s, size_t n)
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

static int add_fragment(struct ency_fragment **v, size_t *n, size_t *cap,
                        const char *s, size_t len, unsigned line)
{
	if (!rl_grow(v, cap, *n + 1, sizeof **v))
		return RL_ENOMEM;
	char *t = rl_strtrim(s, len);
	if (!t)
		return RL_ENOMEM;
	(*v)[(*n)++] = (struct ency_fragment){ t, line };
	return RL_OK;
}

/* The last box item that does not end a sentence yet, or NULL. */
static struct ency_fragment *open_item(struct ency_page *p)
{
	if (p->nbox && !ency_ends_sentence(p->box[p->nbox - 1].text,
	                              strlen(p->box[p->nbox - 1].text)))
		return &p->box[p->nbox - 1];
	return NULL;
}

static int extend(struct ency_fragment *f, const char *s, size_t n)
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

static int add_item(struct ency_page *p, const char *s, size_t n, unsigned line)
{
	int rc = add_fragment(&p->box, &p->nbox, &p->box_cap, s, n, line);
	if (rc)
		return rc;
	/* An item that does not end takes the oldest waiting fragment. */
	struct ency_fragment *f = open_item(p);
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
static size_t bullet_span(const struct ency_page *p, const char *s, size_t n)
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
		if (ency_ends_sentence(s, i))
			break;
	}
	return end;
}

/* Where a lower-case fragment that ends a sentence starts at the end of
 * [s, e): after the last ". " before it, when it fits the box. */
static const char *trailing_fragment(const struct ency_page *p, const char *s,
                                     const char *e)
{
	for (const char *q = e - 1; q > s + 1; q--)
		if (q[-1] == ' ' && q[-2] == '.') {
			if (starts_lower(q) && ency_ends_sentence(q, (size_t)(e - q)) &&
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
static int body_chunk(struct ency_page *p, const struct rl_block *l, const char *s,
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
		if (p->line_item != (size_t)-1 && !ency_ends_sentence(
		        p->box[p->line_item].text, strlen(p->box[p->line_item].text)))
			rc = extend(&p->box[p->line_item], tail, (size_t)(stop - tail));
		else
			rc = add_fragment(&p->loose, &p->nloose, &p->loose_cap, tail,
			                  (size_t)(stop - tail), l->line);
	}
	return rc;
}

/* A line that holds the body and the box side by side. */
static int mixed_line(struct ency_page *p, const struct rl_block *l)
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


int ency_page_read(struct ency_page *p, const struct rl_block *l, size_t n)
{
	size_t i = 0;
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
	return rc;
}

void ency_page_free(struct ency_page *p)
{
	for (size_t i = 0; i < p->nsecs; i++) {
		free(p->secs[i].title);
		rl_buf_free(&p->secs[i].text);
	}
	free(p->secs);
	for (size_t i = 0; i < p->nbox; i++)
		free(p->box[i].text);
	free(p->box);
	for (size_t i = 0; i < p->nloose; i++)
		free(p->loose[i].text);
	free(p->loose);
}
