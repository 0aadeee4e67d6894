/* markdown_glossary.c — a glossary kept as Markdown files, one term a file
 * (an Obsidian vault published with MkDocs), as in the French Marvel
 * Champions rules reference.
 *
 *   # Dégâts en excès                  the term: the entry's title, and the
 *                                      document's (each file is one)
 *   Les dégâts en excès sont …         the definition: the entry's text
 *
 *   **Voir aussi :**                   "see also": the links below are
 *   [[Allie|Allié]]                    term references to the file named
 *   [[Identité]]                       (Allie), not to the text shown
 *
 * Every wikilink is a reference of kind term whose target is the link's
 * file name part ([[Allie|Allié]] → "Allie", [[Page#Part]] → "Page"); in
 * the text a link shows as what it displays ("Allié"). The see-also block
 * is left out of the text. Embedded files (![[icon.png|20]]) and images are
 * dropped; **bold**, *emphasis*, `code` and "> " quotes are made plain.
 * The entry answers to its file name without the extension as an alias,
 * so links resolve by file name or by title, case and accents aside; a
 * file in a one-letter directory (Glossaire/D/…) is tagged with the
 * letter. The game is never guessed: --game names it.
 *
 * A file without a "# " title still makes an entry: a "## " heading that
 * opens it and is the only one of its level, else a first line that reads
 * as a title (short, no final punctuation, text below it), else the file
 * name, stands for the title, with a warning. Icon-font glyphs (private
 * use code points) and the empty "()" they leave are dropped from titles. */
#include "importer.h"
#include "doc.h"
#include "utf8.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { TITLE_LINE_MAX = 100 };

/* ---- characters ------------------------------------------------------- */

static uint32_t decode(const char *s, size_t *len)
{
	uint32_t c;
	*len = rl_utf8_decode(s, &c);
	return c;
}


static bool is_space(uint32_t c)
{
	return c == 0 || c == ' ' || c == '\t' || c == '\n' || c == 0xA0 ||
	       c == 0x202F;
}

static uint32_t before(const char *s, size_t i)
{
	if (i == 0)
		return 0;
	size_t j = i - 1;
	while (j > 0 && ((unsigned char)s[j] & 0xC0) == 0x80)
		j--;
	size_t len;
	return decode(s + j, &len);
}

static uint32_t at(const char *s, size_t n, size_t i)
{
	size_t len;
	return i < n ? decode(s + i, &len) : 0;
}

/* ---- references --------------------------------------------------------- */

/* The entry that links in the text become references of, and the
 * references it has, by kind and, for terms, as they resolve: case and
 * accents aside ([[Defausse]] and [[défausse]] are one reference, the
 * first one written). */
struct refs {
	struct rl_entry *e;
	struct rl_strset seen;
};

static int add_ref(struct refs *r, enum rl_ref_kind k, const char *s,
                   size_t n)
{
	if (!r || !r->e)
		return RL_OK;
	char *t = rl_strtrim(s, n);
	if (!t)
		return RL_ENOMEM;
	int rc = RL_OK;
	if (*t) {
		char *kt = k == RL_REF_TERM ? rl_key_loose(t) : rl_strdup(t);
		struct rl_buf key = {0};
		rl_buf_addc(&key, (char)('A' + (int)k));
		rl_buf_adds(&key, kt ? kt : "");
		int added = kt && !key.oom ? rl_strset_add(&r->seen, key.s, key.len)
		                           : -1;
		if (added < 0)
			rc = RL_ENOMEM;
		else if (added)
			rc = rl_entry_add_ref(r->e, k, t);
		rl_buf_free(&key);
		free(kt);
	}
	free(t);
	return rc;
}

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
	struct refs *r;
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

static int plain_in(const char *s, size_t n, struct refs *r,
                    struct rl_buf *out, int depth);

static int plain(const char *s, size_t n, struct refs *r, struct rl_buf *out)
{
	return plain_in(s, n, r, out, 0);
}

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
	*rc = add_ref(x->r, RL_REF_TERM, f, fn);
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
	*rc = plain_in(s + open, close - open, x->r, x->out, x->depth + 1);
	if (*rc)
		return used;
	/* a space and a "title" may follow the address */
	const char *sp = memchr(url, ' ', ulen);
	if (sp)
		ulen = (size_t)(sp - url);
	if (contains(url, ulen, "://")) {
		*rc = add_ref(x->r, RL_REF_URL, url, ulen);
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
			*rc = add_ref(x->r, RL_REF_TERM, f, fn);
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
	if (is_space(at(s, n, i + k)))
		return 0;
	if (c == '_' && rl_is_word_cp(before(s, i)))
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
		if (!run || is_space(before(s, j)) || (j + k < n && s[j + k] == c))
			continue;
		if (c == '_' && rl_is_word_cp(at(s, n, j + k)))
			continue;
		*rc = plain_in(s + i + k, j - i - k, x->r, x->out, x->depth + 1);
		return j + k - i;
	}
	*from = i + 1;
	*until = j;
	return 0;
}

/* A code span of backticks at s[i]: its text as is; 0 when unclosed. */
static size_t code_span(struct inl *x, size_t i, int *rc)
{
	const char *s = x->s;
	size_t n = x->n;
	size_t k = 1;
	while (i + k < n && s[i + k] == '`')
		k++;
	if (k > TICKS_MAX || (x->tick_from[k] && i + 1 >= x->tick_from[k]))
		return 0;
	for (size_t j = i + k; j + k <= n; j++)
		if (memcmp(s + j, s + i, k) == 0 &&
		    (j + k == n || s[j + k] != '`')) {
			char *t = rl_strtrim(s + i + k, j - i - k);
			if (!t) {
				*rc = RL_ENOMEM;
				return 0;
			}
			rl_buf_adds(x->out, t);
			free(t);
			return j + k - i;
		}
	x->tick_from[k] = i + 1;
	return 0;
}

/* Appends s[0..n) to out with the inline markup made plain; links become
 * references of r->e (when r is not NULL). */
static int plain_in(const char *s, size_t n, struct refs *r,
                    struct rl_buf *out, int depth)
{
	if (depth > INLINE_DEPTH_MAX) {
		rl_buf_add(out, s, n);
		return out->oom ? RL_ENOMEM : RL_OK;
	}
	struct inl x = { .s = s, .n = n, .r = r, .out = out, .depth = depth };
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

/* ---- lines ------------------------------------------------------------------ */

static bool is_blank(const struct rl_line *l)
{
	return rl_is_blank_line(l->s, l->n);
}

/* An ATX heading ("## Text ##"): its level (0: none) and text. */
static int atx(const struct rl_line *l, const char **t, size_t *tn)
{
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
static int setext(const struct rl_line *l)
{
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

/* "Voir aussi :", "**Voir :**", "See also:": what opens the links to
 * related entries. */
static bool is_see_also(const struct rl_line *l)
{
	char buf[64];
	size_t k = 0;
	for (size_t i = 0; i < l->n; i++) {
		char c = l->s[i];
		if (c == '*' || c == '_' || c == ':' || c == ' ' || c == '\t' ||
		    c == '\r')
			continue;
		if ((unsigned char)c == 0xC2 && i + 1 < l->n &&
		    (unsigned char)l->s[i + 1] == 0xA0) {
			i++;
			continue;
		}
		if (k + 1 >= sizeof buf)
			return false;
		buf[k++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
	}
	buf[k] = '\0';
	return strcmp(buf, "voir") == 0 || strcmp(buf, "voiraussi") == 0 ||
	       strcmp(buf, "see") == 0 || strcmp(buf, "seealso") == 0;
}

/* Does the line hold a wikilink (not an embedded file, not in `code`)?
 * One that opens before the last "]]" of the line. */
static bool has_wikilink(const char *s, size_t n)
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
static bool is_code(const struct rl_line *l)
{
	size_t col = 0;
	for (size_t i = 0; i < l->n && col < 4; i++) {
		if (l->s[i] == ' ')
			col++;
		else if (l->s[i] == '\t')
			col = 4;
		else
			break;
	}
	return col >= 4;
}

/* The file's name without folders and extension. */
static char *file_stem(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strrchr(base, '.');
	size_t len = dot && dot > base ? (size_t)(dot - base) : strlen(base);
	return rl_strndup(base, len);
}

/* The name of the directory holding the file when it is one character
 * (Glossaire/D/Degats.md → "D"), else NULL. */
static char *letter_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash || slash == path)
		return NULL;
	const char *dir = slash;
	while (dir > path && dir[-1] != '/')
		dir--;
	size_t n = (size_t)(slash - dir);
	if (n == 0)
		return NULL;
	size_t len;
	decode(dir, &len);
	return len == n && dir[0] != '.' ? rl_strndup(dir, n) : NULL;
}

/* A title made plain: markup, icon-font glyphs (U+E000–U+F8FF) and the
 * "()" they leave, doubled blanks. */
static char *clean_title(const char *s, size_t n)
{
	struct rl_buf b = {0}, c = {0};
	if (plain(s, n, NULL, &b)) {
		rl_buf_free(&b);
		return NULL;
	}
	char *t = rl_buf_take(&b);
	if (!t)
		return NULL;
	for (size_t i = 0; t[i]; ) {
		size_t len;
		uint32_t cp = decode(t + i, &len);
		if (!(cp >= 0xE000 && cp <= 0xF8FF))
			rl_buf_add(&c, t + i, len);
		i += len;
	}
	free(t);
	if (!(t = rl_buf_take(&c)))
		return NULL;
	/* "()" out, again and again ("(())" too), then one blank of each run:
	 * in place, in one pass each */
	size_t o = 0;
	for (size_t i = 0; t[i]; i++)
		if (t[i] == ')' && o && t[o - 1] == '(')
			o--;
		else
			t[o++] = t[i];
	t[o] = '\0';
	o = 0;
	for (size_t i = 0; t[i]; i++)
		if (!(t[i] == ' ' && o && t[o - 1] == ' '))
			t[o++] = t[i];
	t[o] = '\0';
	char *r = rl_strtrim(t, strlen(t));
	free(t);
	return r;
}

/* Does a first line read as a title: short, no final punctuation, not a
 * list item, quote or link, with text on the next line? */
static bool reads_as_title(const struct rl_line *lines, size_t n, size_t i)
{
	const struct rl_line *l = &lines[i];
	char *t = rl_strtrim(l->s, l->n);
	if (!t)
		return false;
	size_t len = strlen(t);
	bool ok = len > 0 && len <= TITLE_LINE_MAX && !strchr("-*+>[!|`#", t[0]) &&
	          !strchr(".,;:!?", t[len - 1]) &&
	          !(t[0] >= '0' && t[0] <= '9') &&
	          i + 1 < n && !is_blank(&lines[i + 1]);
	free(t);
	return ok;
}

/* ---- the document -------------------------------------------------------- */

struct parser {
	const struct rl_source *src;
	struct rl_doc *doc;
	struct rl_diags *d;
	struct rl_entry *e;
	struct rl_buf text;
	bool pending_blank;
	struct refs refs;        /* e's */
};

static int add_text(struct parser *p, const char *s, size_t n, bool own_para)
{
	struct rl_buf b = {0};
	int rc = plain(s, n, &p->refs, &b);
	char *t = rc ? NULL : rl_buf_take(&b);
	rl_buf_free(&b);
	if (!rc && !t)
		rc = RL_ENOMEM;
	if (rc)
		return rc;
	char *u = rl_strtrim(t, strlen(t));
	free(t);
	if (!u)
		return RL_ENOMEM;
	if (*u) {
		if (p->text.len)
			rl_buf_adds(&p->text, p->pending_blank || own_para ? "\n\n" : "\n");
		rl_buf_adds(&p->text, u);
		p->pending_blank = own_para;
	}
	free(u);
	return p->text.oom ? RL_ENOMEM : RL_OK;
}

/* A body line: a quote's "> " dropped, a hard break's "\" too. */
static int body_line(struct parser *p, const struct rl_line *l)
{
	const char *s = l->s;
	size_t n = l->n;
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
	if (!n) {
		p->pending_blank = p->text.len > 0;
		return RL_OK;
	}
	return add_text(p, s, n, false);
}

/* Where the title is: *t is its line (SIZE_MAX: none, the file name), *body
 * the first line after it. */
static int find_title(struct parser *p, const struct rl_line *lines, size_t n,
                      size_t first, char **title, size_t *tline, size_t *body)
{
	const struct rl_line *l = &lines[first];
	const char *t;
	size_t tn;
	int level = atx(l, &t, &tn);
	*tline = SIZE_MAX;
	*body = first;
	*title = NULL;
	if (level == 0 && first + 1 < n && setext(&lines[first + 1]) == 1) {
		level = 1;
		t = l->s;
		tn = l->n;
		*body = first + 1;
	}
	if (level == 1) {
		*tline = first;
		*body += 1;
		*title = clean_title(t, tn);
		return *title ? RL_OK : RL_ENOMEM;
	}
	if (level > 1) {
		/* the only heading of its level (or higher) stands for the title */
		bool alone = true;
		for (size_t i = first + 1; i < n && alone; i++) {
			const char *u;
			size_t un;
			int lv = atx(&lines[i], &u, &un);
			alone = lv == 0 || lv > level;
		}
		if (alone) {
			*tline = first;
			*body = first + 1;
			if (!(*title = clean_title(t, tn)))
				return RL_ENOMEM;
			return rl_diag_add(p->d, RL_WARNING, l->no, 0,
			                   "no '# ' title; the heading '%s' stands for it",
			                   *title);
		}
	} else if (reads_as_title(lines, n, first)) {
		*tline = first;
		*body = first + 1;
		if (!(*title = clean_title(l->s, l->n)))
			return RL_ENOMEM;
		return rl_diag_add(p->d, RL_WARNING, l->no, 0,
		                   "no '# ' title; the first line '%s' is taken for it",
		                   *title);
	}
	*tline = SIZE_MAX;
	*body = first;
	free(*title);
	if (!(*title = file_stem(p->src->name)))
		return RL_ENOMEM;
	return rl_diag_add(p->d, RL_WARNING, l->no, 0,
	                   "no '# ' title; the file name '%s' is the title", *title);
}

static int parse_lines(struct parser *p, const struct rl_line *lines, size_t n)
{
	size_t i = 0;
	/* YAML front matter ("---" … "---"), as MkDocs and Obsidian allow */
	if (n && lines[0].n >= 3 && memcmp(lines[0].s, "---", 3) == 0 &&
	    rl_is_blank_line(lines[0].s + 3, lines[0].n - 3)) {
		for (size_t j = 1; j < n; j++)
			if ((lines[j].n >= 3 && (memcmp(lines[j].s, "---", 3) == 0 ||
			                          memcmp(lines[j].s, "...", 3) == 0)) &&
			    rl_is_blank_line(lines[j].s + 3, lines[j].n - 3)) {
				i = j + 1;
				break;
			}
	}
	while (i < n && is_blank(&lines[i]))
		i++;
	if (i == n)
		return RL_EDATA;

	struct rl_entry *e = rl_doc_add_entry(p->doc);
	if (!e)
		return RL_ENOMEM;
	p->e = e;
	p->refs.e = e;
	e->kind = RL_KIND_GLOSSARY;
	char *title;
	size_t tline, body;
	int rc = find_title(p, lines, n, i, &title, &tline, &body);
	e->title = title;
	if (rc)
		return rc;
	if (!*title) {
		free(title);
		if (!(e->title = file_stem(p->src->name)))
			return RL_ENOMEM;
	}
	e->line = tline == SIZE_MAX ? lines[i].no : lines[tline].no;
	if (!(p->doc->title = rl_strdup(e->title)))
		return RL_ENOMEM;

	bool see_also = false;
	for (i = body; i < n && !rc; i++) {
		const struct rl_line *l = &lines[i];
		if (is_blank(l)) {
			p->pending_blank = p->text.len > 0;
			continue;
		}
		if (!is_code(l) && is_see_also(l)) {
			see_also = true;
			continue;
		}
		if (see_also) {
			if (has_wikilink(l->s, l->n)) {
				struct rl_buf ignored = {0};
				rc = plain(l->s, l->n, &p->refs, &ignored);
				rl_buf_free(&ignored);
				continue;
			}
			char *t = rl_strtrim(l->s, l->n);
			if (!t)
				return RL_ENOMEM;
			bool broken = strncmp(t, "[[", 2) == 0;
			if (broken)
				rc = rl_diag_add(p->d, RL_WARNING, l->no, 0,
				                 "'%s' is no link (no closing ']]'); left "
				                 "out", t);
			free(t);
			if (broken)
				continue;
			see_also = false;   /* text again */
		}
		const char *t;
		size_t tn;
		int level = atx(l, &t, &tn);
		if (level == 0 && i + 1 < n && setext(&lines[i + 1]) &&
		    !(p->text.len && !p->pending_blank)) {
			level = setext(&lines[i + 1]);
			t = l->s;
			tn = l->n;
			i++;
		}
		if (level) {
			if (level == 1)
				rc = rl_diag_add(p->d, RL_WARNING, l->no, 0,
				                 "a second '# ' title; it is kept as a "
				                 "heading of the text");
			p->pending_blank = p->text.len > 0;
			if (!rc)
				rc = add_text(p, t, tn, true);
			continue;
		}
		rc = body_line(p, l);
	}
	if (rc)
		return rc;
	if (!(e->text = rl_buf_take(&p->text)))
		return RL_ENOMEM;
	if (!*e->text &&
	    (rc = rl_diag_add(p->d, RL_WARNING, e->line, 0,
	                      "'%s' has no definition", e->title)))
		return rc;
	char *stem = file_stem(p->src->name);
	char *letter = letter_dir(p->src->name);
	if (!stem)
		rc = RL_ENOMEM;
	else if (*stem)
		rc = rl_entry_add_alias(e, stem);
	if (!rc && letter)
		rc = rl_entry_add_tag(e, letter, NULL);
	free(stem);
	free(letter);
	return rc;
}

static int parse(const struct rl_source *src, const struct rl_import_opts *opts,
                 struct rl_doc *doc, struct rl_diags *d)
{
	struct parser p = { .src = src, .doc = doc, .d = d };
	struct rl_line *lines = NULL;
	size_t n = 0;
	int rc = rl_split_lines(src, &lines, &n);
	if (!rc) {
		rc = parse_lines(&p, lines, n);
		if (rc == RL_EDATA)
			rl_diag_add(d, RL_ERROR, 0, 0, "empty document");
	}
	rl_buf_free(&p.text);
	rl_strset_free(&p.refs.seen);
	free(lines);
	return rc;
}

/* A "# " title with wikilinks or a "Voir aussi" block is the signature;
 * wikilinks or "Voir aussi" alone, or a "# " title over text without
 * sections, make it likely. */
static int probe(const char *text, size_t len)
{
	const char *s = text, *end = text + len;
	bool h1 = false, first = true, second = true, links = false, see = false;
	bool sections = false;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		struct rl_line l = { s, n, 0 };
		if (!is_blank(&l)) {
			const char *t;
			size_t tn;
			if (first) {
				h1 = atx(&l, &t, &tn) == 1 && tn > 0;
				first = false;
			} else if (second) {
				/* a "# " comment block is no Markdown title */
				if (h1 && n && s[0] == '#')
					h1 = atx(&l, &t, &tn) > 1;
				second = false;
			}
			links = links || (!is_code(&l) && has_wikilink(s, n));
			see = see || (!is_code(&l) && is_see_also(&l));
			sections = sections || atx(&l, &t, &tn) > 1 || s[0] == '|' ||
			           (n >= 3 && memcmp(s, "```", 3) == 0);
		}
		s += n + (nl != NULL);
	}
	if (links || see)
		return h1 ? 90 : 60;
	/* a page with sections, tables or code (a README) is no glossary
	 * entry */
	return h1 && !sections ? 45 : 0;
}

const struct rl_importer rl_importer_markdown_glossary = {
	.name = "markdown-glossary",
	.description = "Markdown glossary entry, one a file: a \"# Title\", the "
	               "definition, \"Voir aussi\" [[wikilinks]]",
	.probe = probe,
	.parse = parse,
};
