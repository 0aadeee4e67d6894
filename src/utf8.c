/* utf8.c — UTF-8 validation and decoding; normalization, case folding and
 * identity keys through utf8proc.
 *
 * Every text a document brings is made NFC (rl_nfc). Identity — of a tag,
 * a ruling's key, a thesaurus term — compares folded forms: Unicode's full
 * case folding (ß and ẞ are "ss", final ς is σ, İ is i + U+0307), ё as е
 * (as the tokenizer folds it), and typographic apostrophes and quotes made
 * plain. rl_key_loose() also drops accents exactly as the full-text
 * tokenizer (unicode61 remove_diacritics 2) does: a Latin letter whose
 * canonical decomposition is an ASCII letter and marks becomes that letter
 * (é, ệ, ș, ǖ), the marks it strips go wherever they stand, and letters
 * that are not built so (ø, đ, ı, й, ά) stay. tests/unit/test_utf8.c
 * checks this against the tokenizer itself, letter by letter.
 *
 * Input that is not valid UTF-8 is never read past its end: it is
 * folded with each bad byte taken as U+FFFD. */
#include "utf8.h"

#include "rulings.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

size_t rl_utf8_valid(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;
	while (i < len) {
		unsigned c = s[i];
		if (c < 0x80) {
			i++;
			continue;
		}
		size_t n;
		uint32_t min;
		if (c >= 0xC2 && c <= 0xDF) {
			n = 2; min = 0x80;
		} else if (c >= 0xE0 && c <= 0xEF) {
			n = 3; min = 0x800;
		} else if (c >= 0xF0 && c <= 0xF4) {
			n = 4; min = 0x10000;
		} else {
			return i;
		}
		if (len - i < n)
			return i;
		uint32_t cp = c & (0x7F >> n);
		for (size_t k = 1; k < n; k++) {
			if ((s[i + k] & 0xC0) != 0x80)
				return i;
			cp = (cp << 6) | (s[i + k] & 0x3F);
		}
		if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return i;
		i += n;
	}
	return len;
}

size_t rl_utf8_decode(const char *str, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = s[0] < 0x80 ? 1 : s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3 : 4;
	if (n == 1) {
		*cp = s[0];
		return 1;
	}
	/* rl_utf8_valid() stops at the first byte that is not a continuation
	 * byte — a NUL among them — so nothing past the string is read */
	size_t want = s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3 : 4;
	if (rl_utf8_valid(str, want) != want) {
		*cp = 0xFFFD;
		return 1;
	}
	if (want == 2)
		*cp = ((uint32_t)(s[0] & 0x1F) << 6) | (s[1] & 0x3F);
	else if (want == 3)
		*cp = ((uint32_t)(s[0] & 0x0F) << 12) |
		      ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
	else
		*cp = ((uint32_t)(s[0] & 0x07) << 18) |
		      ((uint32_t)(s[1] & 0x3F) << 12) |
		      ((uint32_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3F);
	return want;
}

size_t rl_utf8_encode(uint32_t cp, char *out)
{
	unsigned char *o = (unsigned char *)out;
	if (cp < 0x80) {
		o[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (unsigned char)(0xC0 | (cp >> 6));
		o[1] = (unsigned char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (unsigned char)(0xE0 | (cp >> 12));
		o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (unsigned char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (unsigned char)(0xF0 | (cp >> 18));
	o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
	o[3] = (unsigned char)(0x80 | (cp & 0x3F));
	return 4;
}

/* ---- through utf8proc ------------------------------------------------- */

/* s[0..n) as valid UTF-8: itself, or a copy (*copy, to free) with each
 * byte that starts no valid sequence replaced by U+FFFD. NULL when memory
 * ran out. */
static const char *valid_text(const char *s, size_t *n, char **copy)
{
	*copy = NULL;
	size_t ok = rl_utf8_valid(s, *n);
	if (ok == *n)
		return s;
	struct rl_buf b = {0};
	size_t i = 0;
	while (i < *n) {
		size_t k = rl_utf8_valid(s + i, *n - i);
		rl_buf_add(&b, s + i, k);
		i += k;
		if (i < *n) {
			rl_buf_adds(&b, "\xEF\xBF\xBD");
			i++;
		}
	}
	*copy = rl_buf_take(&b);
	if (!*copy)
		return NULL;
	*n = strlen(*copy);
	return *copy;
}

enum {
	MAP_QUOTES = 1,     /* typographic apostrophes and quotes made plain */
	MAP_DASHES = 2,     /* dashes, hyphens and minus made '-' */
	MAP_GRAVE = 4,      /* ` as ' too (keys have always had it) */
};

/* The typographic forms of ' and ": apostrophes and single quotes
 * (’ ‘ ‛ ʼ ′), double quotes and guillemets (“ ” „ ‟ ″ « »). */
static uint32_t plain_quote(uint32_t cp)
{
	switch (cp) {
	case 0x2018: case 0x2019: case 0x201B: case 0x02BC: case 0x2032:
		return '\'';
	case 0x201C: case 0x201D: case 0x201E: case 0x201F: case 0x2033:
	case 0xAB: case 0xBB:
		return '"';
	default:
		return cp;
	}
}

static utf8proc_int32_t map_cp(utf8proc_int32_t c, void *data)
{
	unsigned what = *(const unsigned *)data;
	uint32_t cp = (uint32_t)c;
	if (what & MAP_QUOTES)
		cp = plain_quote(cp);
	if ((what & MAP_GRAVE) && cp == '`')
		cp = '\'';
	if ((what & MAP_DASHES) && ((cp >= 0x2010 && cp <= 0x2014) ||
	                            cp == 0x2212))
		cp = '-';
	return (utf8proc_int32_t)cp;
}

/* s[0..n) through utf8proc with options (and the custom mapping what),
 * then ё as е when fold: a new string, its length in *outlen. */
static char *transform(const char *s, size_t n, utf8proc_option_t options,
                       unsigned what, bool fold, size_t *outlen)
{
	char *copy;
	const char *in = valid_text(s, &n, &copy);
	if (!in)
		return NULL;
	utf8proc_uint8_t *out = NULL;
	utf8proc_ssize_t len = n ? utf8proc_map_custom(
		(const utf8proc_uint8_t *)in, (utf8proc_ssize_t)n, &out,
		options | UTF8PROC_STABLE, what ? map_cp : NULL, &what) : 0;
	free(copy);
	if (len < 0)     /* out of memory: the input is valid */
		return NULL;
	if (!out) {
		if (!(out = malloc(1)))
			return NULL;
		out[0] = '\0';
	}
	if (fold) {
		/* ё (D1 91) → е (D0 B5): the tokenizer keeps them together */
		for (utf8proc_ssize_t i = 0; i + 1 < len; i++)
			if (out[i] == 0xD1 && out[i + 1] == 0x91) {
				out[i] = 0xD0;
				out[i + 1] = 0xB5;
			}
	}
	if (what & MAP_QUOTES) {
		/* case folding makes ŉ "ʼn": its ʼ (CA BC) is made plain too */
		utf8proc_ssize_t o = 0;
		for (utf8proc_ssize_t i = 0; i < len; i++) {
			if (out[i] == 0xCA && i + 1 < len && out[i + 1] == 0xBC) {
				out[o++] = '\'';
				i++;
			} else {
				out[o++] = out[i];
			}
		}
		out[o] = '\0';
		len = o;
	}
	if (outlen)
		*outlen = (size_t)len;
	return (char *)out;
}

/* True when cp leaves a text NFC whatever stands around it: it is no
 * mark, has no canonical decomposition, and composes with nothing before
 * it (what does is a mark — Tamil and Kannada length marks are — or a
 * Hangul jamo; a Hangul syllable may take a final jamo after it). Most
 * text holds only such characters, and is NFC as it is. */
static bool nfc_inert(uint32_t cp)
{
	if (cp < 0x300)
		return true;
	if (cp > 0x10FFFF || (cp >= 0x1160 && cp <= 0x11FF) ||
	    (cp >= 0xAC00 && cp <= 0xD7A3))
		return false;
	const utf8proc_property_t *p = utf8proc_get_property((utf8proc_int32_t)cp);
	if (p->combining_class != 0 || p->comp_exclusion ||
	    (p->decomp_seqindex != UINT16_MAX && p->decomp_type == 0))
		return false;
	return p->category != UTF8PROC_CATEGORY_MN &&
	       p->category != UTF8PROC_CATEGORY_MC &&
	       p->category != UTF8PROC_CATEGORY_ME;
}

char *rl_nfc(const char *s, size_t n, size_t *outlen)
{
	/* Text that holds only characters that are NFC whatever surrounds
	 * them (all below U+0300 are: their bytes are below 0xCC) is copied
	 * as it is. */
	size_t i = 0;
	while (i < n) {
		if ((unsigned char)s[i] < 0xCC) {
			i++;
			continue;
		}
		uint32_t cp;
		size_t k = rl_utf8_decode(s + i, &cp);
		if (!nfc_inert(cp) || rl_utf8_valid(s + i, k) != k)
			break;
		i += k;
	}
	if (i == n) {
		char *d = rl_strndup(s, n);
		if (d && outlen)
			*outlen = n;
		return d;
	}
	return transform(s, n, UTF8PROC_COMPOSE, 0, false, outlen);
}

char *rl_fold(const char *s)
{
	return transform(s, strlen(s), UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD,
	                 MAP_QUOTES, true, NULL);
}

char *rl_fold_quotes(const char *s)
{
	return transform(s, strlen(s), UTF8PROC_COMPOSE, MAP_QUOTES, false,
	                 NULL);
}

uint32_t rl_fold_cp(uint32_t c)
{
	if (c < 0x80)
		return (c >= 'A' && c <= 'Z') ? c + 32 : c;
	if (c > 0x10FFFF)
		return c;
	/* the simple case folding: one code point (full folding may give
	 * several, as ß → ss; then the lower case letter) */
	utf8proc_int32_t buf[4];
	int last = 0;
	utf8proc_ssize_t n = utf8proc_decompose_char((utf8proc_int32_t)c, buf, 4,
	                                             UTF8PROC_CASEFOLD, &last);
	uint32_t f = n == 1 ? (uint32_t)buf[0]
	                    : (uint32_t)utf8proc_tolower((utf8proc_int32_t)c);
	return f == 0x451 ? 0x435 : f;    /* ё is е */
}

/* White space for keys: any space separator, line breaks, tab, and the
 * zero width space. */
static bool key_space(uint32_t cp)
{
	if (cp == '\t' || cp == '\n' || cp == '\r' || cp == 0x200B)
		return true;
	return cp > 0x7F && cp <= 0x10FFFF &&
	       utf8proc_category((utf8proc_int32_t)cp) == UTF8PROC_CATEGORY_ZS;
}

char *rl_key(const char *s)
{
	size_t n;
	char *f = transform(s, strlen(s), UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD,
	                    MAP_QUOTES | MAP_DASHES | MAP_GRAVE, true, &n);
	if (!f)
		return NULL;
	struct rl_buf b = {0};
	bool space = false;
	for (size_t i = 0; i < n; ) {
		uint32_t cp;
		size_t k = rl_utf8_decode(f + i, &cp);
		if (cp == 0x2026) {          /* … */
			rl_buf_adds(&b, space && b.len ? " ..." : "...");
			space = false;
		} else if (cp == ' ' || key_space(cp)) {
			space = true;
		} else {
			if (space && b.len)
				rl_buf_addc(&b, ' ');
			space = false;
			rl_buf_add(&b, f + i, k);
		}
		i += k;
	}
	free(f);
	return rl_buf_take(&b);
}

static bool is_ascii_letter(utf8proc_int32_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The combining marks that unicode61's remove_diacritics takes away: those
 * that make a precomposed Latin letter from an ASCII one (U+0300 grave …
 * U+0331 macron below). Found once from the decompositions of the Latin
 * blocks. */
static bool strippable_mark(uint32_t cp)
{
	static bool ready;
	static unsigned char mark[0x70];     /* U+0300..U+036F */
	if (!ready) {
		static const uint32_t blocks[][2] = {
			{ 0x00C0, 0x024F }, { 0x1E00, 0x1EFF },
		};
		for (size_t b = 0; b < 2; b++)
			for (uint32_t c = blocks[b][0]; c <= blocks[b][1]; c++) {
				const utf8proc_property_t *p =
					utf8proc_get_property((utf8proc_int32_t)c);
				if (p->decomp_seqindex == UINT16_MAX || p->decomp_type)
					continue;
				utf8proc_int32_t d[4];
				int last = 0;
				utf8proc_ssize_t n = utf8proc_decompose_char(
					(utf8proc_int32_t)c, d, 4, UTF8PROC_DECOMPOSE,
					&last);
				/* "ASCII letter + mark", as SQLite's table is made */
				if (n == 2 && is_ascii_letter(d[0]) &&
				    d[1] >= 0x300 && d[1] < 0x370)
					mark[d[1] - 0x300] = 1;
			}
		ready = true;
	}
	return cp >= 0x300 && cp < 0x370 && mark[cp - 0x300];
}

uint32_t rl_unaccent_cp(uint32_t c)
{
	if (c < 0xC0 || c > 0x10FFFF)
		return c;
	utf8proc_int32_t d[8];
	int last = 0;
	utf8proc_ssize_t n = utf8proc_decompose_char((utf8proc_int32_t)c, d, 8,
	                                             UTF8PROC_DECOMPOSE, &last);
	if (n < 2 || n > 8 || !is_ascii_letter(d[0]))
		return c;
	for (utf8proc_ssize_t i = 1; i < n; i++)
		if (!strippable_mark((uint32_t)d[i]))
			return c;
	return (uint32_t)d[0] | 0x20;
}

char *rl_key_loose(const char *s)
{
	char *k = rl_key(s);
	if (!k)
		return NULL;
	struct rl_buf b = {0};
	for (const char *p = k; *p; ) {
		uint32_t cp;
		p += rl_utf8_decode(p, &cp);
		if (strippable_mark(cp))
			continue;
		char enc[4];
		rl_buf_add(&b, enc, rl_utf8_encode(rl_unaccent_cp(cp), enc));
	}
	free(k);
	return rl_buf_take(&b);
}

bool rl_is_word_cp(uint32_t c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
	       (c >= 'a' && c <= 'z') || (c >= 0xC0 && c <= 0x24F && c != 0xD7 &&
	                                   c != 0xF7) ||
	       (c >= 0x370 && c <= 0x52F);
}

/* The code points of s, for the edit distance: a new array (*n of them),
 * or NULL when memory ran out. */
static uint32_t *code_points(const char *s, size_t *n)
{
	size_t len = strlen(s);
	uint32_t *v = malloc((len + 1) * sizeof *v);
	*n = 0;
	if (!v)
		return NULL;
	while (*s)
		s += rl_utf8_decode(s, &v[(*n)++]);
	return v;
}

size_t rl_edit_distance(const char *a, const char *b)
{
	size_t na, nb;
	uint32_t *x = code_points(a, &na), *y = code_points(b, &nb);
	/* three rows of the optimal string alignment table: i-2, i-1, i */
	size_t *row = x && y ? malloc(3 * (nb + 1) * sizeof *row) : NULL;
	size_t d = SIZE_MAX;
	if (row) {
		size_t *pp = row, *p = row + nb + 1, *c = row + 2 * (nb + 1);
		for (size_t j = 0; j <= nb; j++)
			p[j] = j;
		for (size_t i = 1; i <= na; i++) {
			c[0] = i;
			for (size_t j = 1; j <= nb; j++) {
				size_t cost = x[i - 1] != y[j - 1];
				size_t v = p[j - 1] + cost;
				if (p[j] + 1 < v)
					v = p[j] + 1;
				if (c[j - 1] + 1 < v)
					v = c[j - 1] + 1;
				if (i > 1 && j > 1 && x[i - 1] == y[j - 2] &&
				    x[i - 2] == y[j - 1] && pp[j - 2] + 1 < v)
					v = pp[j - 2] + 1;     /* a transposition */
				c[j] = v;
			}
			size_t *t = pp;
			pp = p;
			p = c;
			c = t;
		}
		d = p[nb];
	}
	free(row);
	free(x);
	free(y);
	return d;
}

size_t rl_nearest(const char *word, const char *const *names, size_t n,
                  size_t *out)
{
	size_t len = 0, best = SIZE_MAX, found = 0;
	for (const char *p = word; *p; len++) {
		uint32_t cp;
		p += rl_utf8_decode(p, &cp);
	}
	size_t limit = len / 3 > 1 ? len / 3 : 1;
	for (size_t i = 0; i < n; i++) {
		size_t d = rl_edit_distance(word, names[i]);
		/* what was typed may be the start of the name */
		if (len >= 2 && strncmp(names[i], word, strlen(word)) == 0 && d > 1)
			d = 1;
		if (d > limit || d > best)
			continue;
		if (d < best) {
			best = d;
			found = 0;
		}
		out[found++] = i;
	}
	return found;
}
