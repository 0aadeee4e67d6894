/* utf8.c — UTF-8 validation, decoding and case folding. */
#include "utf8.h"

#include "rulings.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

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
	if (s[0] < 0xC0 || s[0] > 0xF4) {      /* no sequence starts so */
		*cp = 0xFFFD;
		return 1;
	}
	/* Never past a byte that does not continue the sequence (a NUL that
	 * ends the string among them): a truncated or stray sequence is one
	 * U+FFFD for its first byte. */
	for (size_t k = 1; k < n; k++)
		if ((s[k] & 0xC0) != 0x80) {
			*cp = 0xFFFD;
			return 1;
		}
	if (n == 2) {
		*cp = ((uint32_t)(s[0] & 0x1F) << 6) | (s[1] & 0x3F);
		return 2;
	}
	if (n == 3) {
		*cp = ((uint32_t)(s[0] & 0x0F) << 12) |
		      ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
		return 3;
	}
	*cp = ((uint32_t)(s[0] & 0x07) << 18) | ((uint32_t)(s[1] & 0x3F) << 12) |
	      ((uint32_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3F);
	return 4;
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

uint32_t rl_fold_cp(uint32_t c)
{
	if (c < 0x80)
		return (c >= 'A' && c <= 'Z') ? c + 32 : c;
	if ((c >= 0xC0 && c <= 0xDE && c != 0xD7))
		return c + 32;
	if (c >= 0x100 && c <= 0x17F) {
		/* Latin Extended-A: mostly upper/lower pairs, with two shifts. */
		if (c == 0x130)
			return 'i';
		if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E))
			return (c & 1) ? c + 1 : c;
		if (c == 0x178)
			return 0xFF;
		if (c == 0x131 || c == 0x138 || c == 0x149 || c == 0x17F)
			return c;
		return (c & 1) ? c : c + 1;
	}
	if (c == 0x386)
		return 0x3AC;    /* Ά */
	if (c >= 0x388 && c <= 0x38A)
		return c + 37;   /* Έ Ή Ί */
	if (c == 0x38C)
		return 0x3CC;    /* Ό */
	if (c == 0x38E || c == 0x38F)
		return c + 63;   /* Ύ Ώ */
	if (c >= 0x391 && c <= 0x3AB && c != 0x3A2)
		return c + 32;
	if (c == 0x3C2)
		return 0x3C3;    /* final sigma */
	if (c >= 0x410 && c <= 0x42F)
		return c + 32;
	if (c >= 0x400 && c <= 0x40F)
		c += 80;         /* Ѐ..Џ to ѐ..џ, then ё below */
	if (c == 0x451)
		return 0x435;    /* ё = е */
	if (c == 0x4C0)
		return 0x4CF;    /* palochka */
	if (c >= 0x4C1 && c <= 0x4CE)
		return (c & 1) ? c + 1 : c;   /* this block pairs odd with even */
	if (c >= 0x460 && c <= 0x4FF && !(c >= 0x482 && c <= 0x489))
		return (c & 1) ? c : c + 1;
	return c;
}

char *rl_fold(const char *s)
{
	struct rl_buf b = {0};
	while (*s) {
		uint32_t cp;
		s += rl_utf8_decode(s, &cp);
		char enc[4];
		rl_buf_add(&b, enc, rl_utf8_encode(rl_fold_cp(cp), enc));
	}
	return rl_buf_take(&b);
}

char *rl_key(const char *s)
{
	struct rl_buf b = {0};
	bool space = false;
	while (*s) {
		uint32_t cp;
		s += rl_utf8_decode(s, &cp);
		switch (cp) {
		case 0x2018: case 0x2019: case 0x201B: case 0x2032: case 0x60:
			cp = '\''; break;
		case 0x201C: case 0x201D: case 0x201E: case 0x2033:
		case 0xAB: case 0xBB:
			cp = '"'; break;
		case 0x2010: case 0x2011: case 0x2012: case 0x2013: case 0x2014:
		case 0x2212:
			cp = '-'; break;
		case 0x2026:
			rl_buf_adds(&b, space && b.len ? " ..." : "...");
			space = false;
			continue;
		case ' ': case '\t': case '\n': case '\r': case 0xA0: case 0x2009:
		case 0x202F: case 0x200B:
			space = true;
			continue;
		default:
			cp = rl_fold_cp(cp);
		}
		if (space && b.len)
			rl_buf_addc(&b, ' ');
		space = false;
		char enc[4];
		rl_buf_add(&b, enc, rl_utf8_encode(cp, enc));
	}
	return rl_buf_take(&b);
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
		char enc[4];
		rl_buf_add(&b, enc, rl_utf8_encode(rl_unaccent_cp(cp), enc));
	}
	free(k);
	return rl_buf_take(&b);
}

uint32_t rl_unaccent_cp(uint32_t c)
{
	/* U+00E0..U+00FF and U+0100..U+017F: the base letter, or '.' for a
	 * letter that has none (æ, þ, ĳ, œ, ×): kept as it is. */
	static const char latin1[] = "aaaaaa.ceeeeiiiidnooooo.ouuuuy.y";
	static const char ext_a[] =
		"aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii..jjkkklllllll"
		"lllnnnnnnnnnoooooo..rrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs";
	char b = 0;
	if (c >= 0xE0 && c <= 0xFF)
		b = latin1[c - 0xE0];
	else if (c >= 0x100 && c <= 0x17F)
		b = ext_a[c - 0x100];
	return b && b != '.' ? (uint32_t)(unsigned char)b : c;
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
