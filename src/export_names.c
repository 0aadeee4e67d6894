/* export_names.c — what identifies a tag in an export, and the file name
 * of its page.
 *
 * A tag's identity is its canonical name and qualifier (rl_tag_parse() of
 * its display form "Name (Qualifier)"), case folded: "A (B)" with no
 * qualifier, "A" qualified "B" and "a(b)" are one tag.
 *
 * A page's file name is an ASCII slug of its tag (letters folded to lower
 * case, Latin accents dropped, Cyrillic letters transliterated — "Быстрые
 * атаки" is "bystrye-ataki" —, every other run of characters one '-', at
 * most SLUG_MAX bytes; "tag" when nothing is left) and the first 12 hex
 * digits of the SHA-256 of the tag's canonical display form. The slug is
 * for people (a Russian site's files were all "tag-HASH.html" and
 * "glossary-3-HASH.html"); the hash keeps tags that slug alike
 * ("Défendre", "defendre!", "Ёлка" and "Елка") apart. The name never
 * holds '/', never starts with '.', and is the same for the same tag on
 * every run. */
#include "export.h"
#include "sha256.h"
#include "utf8.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

enum { SLUG_MAX = 48, NAME_HASH = 12 };

/* The Latin letters of a lower-case Cyrillic letter (Russian, and the
 * Ukrainian and Belarusian letters beyond it), as Russian passports
 * write names (ICAO 9303) but for ъ and ь, which are left out; NULL for
 * any other character, "" for a letter that has none. */
static const char *cyrillic_latin(uint32_t cp)
{
	static const char *const ru[32] = {
		"a", "b", "v", "g", "d", "e", "zh", "z", "i", "i", "k", "l",
		"m", "n", "o", "p", "r", "s", "t", "u", "f", "kh", "ts", "ch",
		"sh", "shch", "", "y", "", "e", "iu", "ia",
	};
	if (cp >= 0x430 && cp <= 0x44F)         /* а … я */
		return ru[cp - 0x430];
	switch (cp) {
	case 0x450: return "e";                 /* ѐ */
	case 0x451: return "e";                 /* ё */
	case 0x454: return "ie";                /* є */
	case 0x456: return "i";                 /* і */
	case 0x457: return "i";                 /* ї */
	case 0x45E: return "u";                 /* ў */
	case 0x491: return "g";                 /* ґ */
	default: return NULL;
	}
}

/* U+001F, the unit separator: no tag holds it once parsed and trimmed. */
#define KEY_SEP "\x1f"

char *rl_export_filename(const char *tag, const char *ext)
{
	struct rl_buf b = {0};
	const char *s = tag;
	size_t len = strlen(tag);
	bool utf8 = rl_utf8_valid(tag, len) == len, dash = false;
	while (*s && b.len < SLUG_MAX) {
		uint32_t cp = (unsigned char)*s;
		size_t k = 1;
		if (utf8)
			k = rl_utf8_decode(s, &cp);
		else if (cp >= 0x80)     /* not UTF-8: a byte, not a letter */
			cp = 0xFFFD;
		s += k;
		cp = rl_fold_cp(cp);
		const char *latin = cyrillic_latin(cp);
		cp = rl_unaccent_cp(cp);
		if ((cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9') ||
		    (latin && *latin)) {
			/* at most SLUG_MAX bytes, a letter's Latin whole */
			if (b.len + (dash && b.len) + (latin ? strlen(latin) : 1) >
			    SLUG_MAX)
				break;
			if (dash && b.len)
				rl_buf_addc(&b, '-');
			dash = false;
			if (latin)
				rl_buf_adds(&b, latin);
			else
				rl_buf_addc(&b, (char)cp);
		} else if (!latin) {
			dash = true;    /* (ъ and ь join their word's letters) */
		}
	}
	if (b.len == 0)
		rl_buf_adds(&b, "tag");
	char hex[65];
	rl_sha256_hex(tag, len, hex);
	rl_buf_addf(&b, "-%.*s%s", NAME_HASH, hex, ext ? ext : "");
	return rl_buf_take(&b);
}

/* The canonical display form of a tag ("Name (Qualifier)") and its
 * identity (export_tag_key()); either may be NULL. */
int export_tag_canonical(const char *display, char **shown, char **key)
{
	struct rl_tag t;
	int rc = rl_tag_parse(display, &t);
	if (rc == RL_EDATA)       /* blank: no name to parse */
		t = (struct rl_tag){ rl_strdup(""), NULL };
	else if (rc)
		return rc;
	char *name = key ? rl_fold(t.name ? t.name : "") : NULL;
	char *qual = key ? rl_fold(t.qualifier ? t.qualifier : "") : NULL;
	struct rl_buf b = {0};
	if (key) {
		rl_buf_adds(&b, name ? name : "");
		rl_buf_adds(&b, KEY_SEP);
		rl_buf_adds(&b, qual ? qual : "");
		*key = (name && qual) ? rl_buf_take(&b) : NULL;
		rl_buf_free(&b);
	}
	if (shown)
		*shown = t.name ? rl_tag_display(t.name, t.qualifier) : NULL;
	free(name);
	free(qual);
	rl_tag_clear(&t);
	if ((key && !*key) || (shown && !*shown)) {
		if (key)
			free(*key);
		if (shown)
			free(*shown);
		return RL_ENOMEM;
	}
	return RL_OK;
}

char *export_tag_key(const char *display)
{
	char *key;
	return export_tag_canonical(display, NULL, &key) ? NULL : key;
}

