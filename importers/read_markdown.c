/* read_markdown.c — the Markdown reader (block.h, markdown.h).
 *
 * Blocks: YAML front matter ("---" … "---" or "...") is passed over; then
 * each line is a BLANK, a HEADING (ATX "## Text ##", or a line of text
 * underlined with "===" (level 1) or "---" (level 2, three or more) when
 * it does not continue a paragraph: the underline is part of the heading),
 * or a LINE whose text is the line without its indentation, its quote
 * markers ("> "), its trailing blanks and a hard break's final "\"; a line
 * indented four columns or more is flagged RL_BLOCK_CODE.
 *
 * Inline markup is made plain on demand (rl_md_plain), with a callback
 * for the links. */
#include "markdown.h"
#include "chars.h"
#include "utf8.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- Inline markup ------------------------------------------------------ */

/* What an embedded file dropped from the text leaves: a blank before
 * punctuation ("restants ![[x.png]]." → "restants."), empty parentheses
 * ("Énergie (![[x.png]])" → "Énergie"). Returns the bytes of s to skip. */
static size_t after_embed(const char *s, size_t n, size_t i, struct rl_buf *out)
{
	char next = i < n ? s[i] : '\0';
	size_t len = out->len;
	while (len && (out->s[len - 1] == ' ' || out->s[len - 1] == '\t'))
		len--;
	if (next == ')' && len && out->s[len - 1] == '(') {
		len--;
		while (len && (out->s[len - 1] == ' ' || out->s[len - 1] == '\t'))
			len--;
		out->len = len;
		out->s[len] = '\0';
		return 1;
	}
	if (!next || next == '\n' || strchr(".,;:!?)", next)) {
		if (out->s) {
			out->len = len;
			out->s[len] = '\0';
		}
	}
	return 0;
}

static bool contains(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(s + i, needle, k) == 0)
			return true;
	return false;
}

/* The file a link names: no "#part", no ".md", no folders. */
static void link_file(const char *s, size_t n, const char **f, size_t *fn)
{
	const char *hash = memchr(s, '#', n);
	if (hash)
		n = (size_t)(hash - s);
	if (n >= 3 && memcmp(s + n - 3, ".md", 3) == 0)
		n -= 3;
	*f = s;
	*fn = n;
}

/* ---- inline markup -------------------------------------------------------- */

/* Markup nested deeper than this is kept as text: the parser recurses once
 * per level, and each level scans its own text again. */
enum { INLINE_DEPTH_MAX = 16, TICKS_MAX = 64 };

/* One run of plain() over s[0..n): what it learned while scanning, so that
 * no opening mark makes it scan the rest of the text more than once (a
 * 6 MB line of unclosed "[", "**" or "`" stays linear). */
struct inl {
	const char *s;
	size_t n;
	rl_md_link_fn link;
	void *ctx;
	struct rl_buf *out;
	int depth;
	/* "[" at opens[k] closes at closes[k] (n: nowhere on its line), the
	 * innermost pairs matched as a stack, computed at the first "[" */
	size_t *opens, *closes, nopens;
	bool brackets;
	/* emphasis of character c (* _ ~) and run length k (1-3) that found no
	 * closing run from emph_from - 1 up to emph_until */
	size_t emph_from[3][3], emph_until[3][3];
	/* a code span of k backticks that found no closing run from
	 * tick_from[k] - 1 to the end */
	size_t tick_from[TICKS_MAX + 1];
	/* the first ")" at or after paren_from is at paren_at (n: none) */
	size_t paren_from, paren_at;
	bool paren;
};

static int plain_in(struct inl *up, const char *s, size_t n, int depth);

/* Matches every "[" of the text with its "]" (on the same line), once. */
static int match_brackets(struct inl *x)
{
	x->brackets = true;
	size_t count = 0;
	for (size_t i = 0; i < x->n; i++)
		count += x->s[i] == '[';
	x->opens = malloc(count * sizeof *x->opens);
	x->closes = malloc(count * sizeof *x->closes);
	size_t *stack = malloc(count * sizeof *stack);
	if (!x->opens || !x->closes || !stack) {
		free(stack);
		return RL_ENOMEM;
	}
	size_t top = 0;
	for (size_t i = 0; i < x->n; i++) {
		char c = x->s[i];
		if (c == '[') {
			x->opens[x->nopens] = i;
			x->closes[x->nopens] = x->n;
			stack[top++] = x->nopens++;
		} else if (c == ']' && top) {
			x->closes[stack[--top]] = i;
		} else if (c == '\n') {
			top = 0;    /* a link does not go past its line */
		}
	}
	free(stack);
	return RL_OK;
}

/* Where the "[" at i closes (x->n: not on its line). */
static size_t bracket_close(struct inl *x, size_t i, int *rc)
{
	if (!x->brackets && (*rc = match_brackets(x)))
		return x->n;
	size_t lo = 0, hi = x->nopens;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (x->opens[mid] < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < x->nopens && x->opens[lo] == i ? x->closes[lo] : x->n;
}

/* The first ")" at or after i (x->n: none). */
static size_t next_paren(struct inl *x, size_t i)
{
	if (x->paren && i >= x->paren_from && i <= x->paren_at)
		return x->paren_at;
	const char *p = i < x->n ? memchr(x->s + i, ')', x->n - i) : NULL;
	x->paren = true;
	x->paren_from = i;
	x->paren_at = p ? (size_t)(p - x->s) : x->n;
	return x->paren_at;
}

/* [[File]], [[File|Shown]], [[File#Part|Shown]] at s[i]; returns the
 * bytes used, 0 when there is no link there. The scan stops at the next
 * "[[", so the scans of all the links of a text read it once. */
static size_t wikilink(struct inl *x, size_t i, int *rc)
{
	const char *s = x->s;
	size_t n = x->n;
	bool embed = s[i] == '!';
	size_t open = i + (embed ? 3 : 2);
	const char *end = NULL;
	for (size_t j = open; j + 1 < n && !end; j++)
		if (s[j] == ']' && s[j + 1] == ']')
			end = s + j;
		else if (s[j] == '\n' || (s[j] == '[' && s[j + 1] == '['))
			break;
	if (!end)
		return 0;
	size_t used = (size_t)(end - s) + 2 - i;
	if (embed)   /* an image or another file shown inline: nothing */
		return used + after_embed(s, n, i + used, x->out);
	const char *body = s + open;
	size_t blen = (size_t)(end - body);
	const char *bar = memchr(body, '|', blen);
	size_t tlen = bar ? (size_t)(bar - body) : blen;
	const char *f;
	size_t fn;
	link_file(body, tlen, &f, &fn);
	*rc = x->link ? x->link(x->ctx, RL_REF_TERM, f, fn) : RL_OK;
	if (bar) {
		rl_buf_add(x->out, bar + 1, blen - tlen - 1);
	} else if (fn) {
		rl_buf_add(x->out, f, fn);
	} else {
		/* [[#Part]]: a part of this page */
		const char *h = memchr(body, '#', tlen);
		if (h)
			rl_buf_add(x->out, h + 1, tlen - (size_t)(h + 1 - body));
	}
	return used;
}

/* [text](url) or ![alt](url) at s[i]; 0 when there is none. */
static size_t mdlink(struct inl *x, size_t i, int *rc)
{
	const char *s = x->s;
	size_t n = x->n;
	bool image = s[i] == '!';
	size_t open = i + (image ? 2 : 1);
	size_t close = bracket_close(x, open - 1, rc);
	if (*rc || close >= n || close + 1 >= n || s[close + 1] != '(')
		return 0;
	const char *url = s + close + 2;
	size_t rpos = next_paren(x, close + 2);
	if (rpos >= n)
		return 0;
	const char *rp = s + rpos;
	size_t ulen = (size_t)(rp - url);
	size_t used = (size_t)(rp + 1 - s) - i;
	if (image)
		return used + after_embed(s, n, i + used, x->out);
	*rc = plain_in(x, s + open, close - open, x->depth + 1);
	if (*rc)
		return used;
	/* a space and a "title" may follow the address */
	const char *sp = memchr(url, ' ', ulen);
	if (sp)
		ulen = (size_t)(sp - url);
	if (!x->link) {
		/* no one to tell */
	} else if (contains(url, ulen, "://")) {
		*rc = x->link(x->ctx, RL_REF_URL, url, ulen);
	} else {
		/* another page of the site: a term, named by its file */
		const char *f;
		size_t fn;
		link_file(url, ulen, &f, &fn);
		const char *slash = NULL;
		for (size_t k = 0; k < fn; k++)
			if (f[k] == '/')
				slash = f + k;
		if (slash) {
			fn -= (size_t)(slash + 1 - f);
			f = slash + 1;
		}
		if (fn && contains(url, ulen, ".md"))
			*rc = x->link ? x->link(x->ctx, RL_REF_TERM, f, fn) : RL_OK;
	}
	return used;
}

/* Emphasis: a run of k (1–3) '*' or '_' (or "~~") that opens at s[i] and
 * its closing run; returns the bytes used, 0 when it is no emphasis.
 * Whether a run closes depends only on where it is, so a search that
 * found none holds for every later opening run of its kind up to the
 * same paragraph end. */
static size_t emphasis(struct inl *x, size_t i, int *rc)
{
	const char *s = x->s;
	size_t n = x->n;
	char c = s[i];
	size_t k = 1;
	while (i + k < n && s[i + k] == c && k < 3)
		k++;
	if (c == '~' && k != 2)
		return 0;
	if (rl_is_space_cp(rl_cp_at(s, n, i + k)))
		return 0;
	if (c == '_' && rl_is_word_cp(rl_cp_before(s, i)))
		return 0;
	int ci = c == '*' ? 0 : c == '_' ? 1 : 2;
	size_t *from = &x->emph_from[ci][k - 1], *until = &x->emph_until[ci][k - 1];
	if (*from && i + 1 >= *from && i + k <= *until)
		return 0;
	size_t j;
	for (j = i + k; j + k <= n; j++) {
		if (s[j] == '\n' && j + 1 < n && s[j + 1] == '\n')
			break;      /* not across paragraphs */
		bool run = true;
		for (size_t m = 0; m < k && run; m++)
			run = s[j + m] == c;
		if (!run || rl_is_space_cp(rl_cp_before(s, j)) ||
		    (j + k < n && s[j + k] == c))
			continue;
		if (c == '_' && rl_is_word_cp(rl_cp_at(s, n, j + k)))
			continue;
		*rc = plain_in(x, s + i + k, j - i - k, x->depth + 1);
		return j + k - i;
	}
	*from = i + 1;
	*until = j;
	return 0;
}

/* A code span of backticks at s[i]: its text as is. A run of backticks
 * that opens none (no closing run of the same length) is text, all of it:
 * starting again at each of its backticks would read the run again each
 * time (500,000 backticks took 68 s). */
static size_t code_span(struct inl *x, size_t i, int *rc)
{
	const char *s = x->s;
	size_t n = x->n;
	size_t k = 1;
	while (i + k < n && s[i + k] == '`')
		k++;
	if (k <= TICKS_MAX && !(x->tick_from[k] && i + 1 >= x->tick_from[k])) {
		for (size_t j = i + k; j + k <= n; j++)
			if (memcmp(s + j, s + i, k) == 0 &&
			    (j + k == n || s[j + k] != '`')) {
				const char *t = s + i + k;
				size_t tn = j - i - k;
				rl_trim_range(&t, &tn);
				rl_buf_add(x->out, t, tn);
				return j + k - i;
			}
		x->tick_from[k] = i + 1;
	}
	rl_buf_add(x->out, s + i, k);
	(void)rc;
	return k;
}

/* Appends s[0..n) to up->out with the inline markup made plain (up: the
 * run this one is nested in, for the link callback and the output). */
static int plain_in(struct inl *up, const char *s, size_t n, int depth)
{
	struct rl_buf *out = up->out;
	if (depth > INLINE_DEPTH_MAX) {
		rl_buf_add(out, s, n);
		return out->oom ? RL_ENOMEM : RL_OK;
	}
	struct inl x = { .s = s, .n = n, .link = up->link, .ctx = up->ctx,
	                 .out = out, .depth = depth };
	int rc = RL_OK;
	size_t i = 0;
	while (i < n && !rc) {
		char c = s[i];
		size_t used = 0;
		if (c == '\\' && i + 1 < n && s[i + 1] &&
		    strchr("\\`*_{}[]()#+-.!|~<>\"'", s[i + 1])) {
			rl_buf_addc(out, s[i + 1]);
			i += 2;
			continue;
		}
		if (c == '!' && i + 2 < n && s[i + 1] == '[' && s[i + 2] == '[')
			used = wikilink(&x, i, &rc);
		else if (c == '[' && i + 1 < n && s[i + 1] == '[')
			used = wikilink(&x, i, &rc);
		else if (c == '!' && i + 1 < n && s[i + 1] == '[')
			used = mdlink(&x, i, &rc);
		else if (c == '[')
			used = mdlink(&x, i, &rc);
		else if (c == '`')
			used = code_span(&x, i, &rc);
		else if (c == '*' || c == '_' || c == '~')
			used = emphasis(&x, i, &rc);
		if (used) {
			i += used;
			continue;
		}
		rl_buf_addc(out, c);
		i++;
	}
	free(x.opens);
	free(x.closes);
	if (!rc && out->oom)
		rc = RL_ENOMEM;
	return rc;
}

int rl_md_plain(const char *s, size_t n, rl_md_link_fn link, void *ctx,
                struct rl_buf *out)
{
	struct inl top = { .link = link, .ctx = ctx, .out = out };
	return plain_in(&top, s, n, 0);
}

/* ---- Lines ---------------------------------------------------------------- */

/* An ATX heading ("## Text ##"): its level (0: none) and text. */
int rl_md_atx(const char *ls, size_t ln, const char **t, size_t *tn)
{
	const struct { const char *s; size_t n; } line = { ls, ln }, *l = &line;
	size_t i = 0;
	while (i < l->n && i < 3 && l->s[i] == ' ')
		i++;
	size_t h = 0;
	while (i + h < l->n && l->s[i + h] == '#')
		h++;
	if (h == 0 || h > 6)
		return 0;
	size_t s = i + h;
	if (s < l->n && l->s[s] != ' ' && l->s[s] != '\t')
		return 0;
	size_t e = l->n;
	while (e > s && (l->s[e - 1] == ' ' || l->s[e - 1] == '\t' ||
	                 l->s[e - 1] == '\r'))
		e--;
	/* closing hashes, after a blank */
	size_t k = e;
	while (k > s && l->s[k - 1] == '#')
		k--;
	if (k < e && (k == s || l->s[k - 1] == ' ' || l->s[k - 1] == '\t'))
		e = k;
	*t = l->s + s;
	*tn = e - s;
	return (int)h;
}

/* A setext underline: "===" (level 1) or "---" (level 2), else 0. */
static int setext(const struct rl_block *b)
{
	const struct { const char *s; size_t n; } line = { b->raw, b->raw_len },
		*l = &line;
	size_t n = l->n;
	while (n && (l->s[n - 1] == ' ' || l->s[n - 1] == '\t' || l->s[n - 1] == '\r'))
		n--;
	if (n == 0 || (l->s[0] != '=' && l->s[0] != '-'))
		return 0;
	for (size_t i = 1; i < n; i++)
		if (l->s[i] != l->s[0])
			return 0;
	return l->s[0] == '=' ? 1 : (n >= 3 ? 2 : 0);
}

/* Does the line hold a wikilink (not an embedded file, not in `code`)?
 * One that opens before the last "]]" of the line. */
bool rl_md_has_wikilink(const char *s, size_t n)
{
	size_t last = 0;   /* after the last "]]" */
	for (size_t j = n; j >= 2 && !last; j--)
		if (s[j - 2] == ']' && s[j - 1] == ']')
			last = j;
	bool code = false;
	for (size_t i = 0; i + 1 < n; i++) {
		if (s[i] == '`')
			code = !code;
		if (!code && s[i] == '[' && s[i + 1] == '[' &&
		    (i == 0 || s[i - 1] != '!') && i + 4 <= last)
			return true;
	}
	return false;
}

/* An indented code block's line: four columns of blanks or more. */
bool rl_md_is_code(const char *s, size_t n)
{
	size_t col = 0;
	for (size_t i = 0; i < n && col < 4; i++) {
		if (s[i] == ' ')
			col++;
		else if (s[i] == '\t')
			col = 4;
		else
			break;
	}
	return col >= 4;
}


/* The LINE block of a body line: without its quote markers ("> "), its
 * trailing blanks and a hard break's "\". */
static void body_text(struct rl_block *b)
{
	const char *s = b->raw;
	size_t n = b->raw_len;
	while (n && (s[0] == ' ' || s[0] == '\t')) {
		s++;
		n--;
	}
	while (n && s[0] == '>') {
		s++;
		n--;
		while (n && (s[0] == ' ' || s[0] == '\t')) {
			s++;
			n--;
		}
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	if (n && s[n - 1] == '\\' && (n < 2 || s[n - 2] != '\\'))
		n--;
	b->text = s;
	b->len = n;
}

/* YAML front matter: the lines it takes (0: none). */
static size_t front_matter(const struct rl_blocks *lines)
{
	const struct rl_block *v = lines->v;
	if (!lines->n || v[0].raw_len < 3 || memcmp(v[0].raw, "---", 3) != 0 ||
	    !rl_is_blank_line(v[0].raw + 3, v[0].raw_len - 3))
		return 0;
	for (size_t j = 1; j < lines->n; j++)
		if (v[j].raw_len >= 3 && (memcmp(v[j].raw, "---", 3) == 0 ||
		                          memcmp(v[j].raw, "...", 3) == 0) &&
		    rl_is_blank_line(v[j].raw + 3, v[j].raw_len - 3))
			return j + 1;
	return 0;
}

int rl_read_markdown(const struct rl_source *src, struct rl_blocks *out)
{
	struct rl_blocks lines = {0};
	int rc = rl_read_lines(src, &lines);
	const struct rl_block *v = lines.v;
	bool in_paragraph = false;   /* the last line was paragraph text */
	for (size_t i = rc ? lines.n : front_matter(&lines); i < lines.n; i++) {
		struct rl_block *b = rl_blocks_add(out, v[i].type, v[i].line);
		if (!b) {
			rc = RL_ENOMEM;
			break;
		}
		*b = v[i];
		if (b->type == RL_BLOCK_BLANK) {
			in_paragraph = false;
			continue;
		}
		const char *t;
		size_t tn;
		int level = rl_md_atx(b->raw, b->raw_len, &t, &tn);
		if (!level && !in_paragraph && i + 1 < lines.n &&
		    (level = setext(&v[i + 1])) != 0) {
			b->flags |= RL_BLOCK_SETEXT;
			t = b->raw;
			tn = b->raw_len;
			i++;
		}
		b->name = NULL;
		b->name_len = 0;
		if (level) {
			b->type = RL_BLOCK_HEADING;
			b->level = (unsigned)level;
			b->text = t;
			b->len = tn;
			in_paragraph = false;
			continue;
		}
		b->type = RL_BLOCK_LINE;
		if (rl_md_is_code(b->raw, b->raw_len))
			b->flags |= RL_BLOCK_CODE;
		body_text(b);
		in_paragraph = b->len > 0;
	}
	rl_blocks_free(&lines);
	return rc;
}
