/* export.c — what every export format shares: safe file names for tags.
 *
 * A tag becomes a file name in an export directory: an ASCII slug of the
 * tag (letters folded to lower case, Latin accents dropped, every other
 * run of characters one '-', at most RL_SLUG_MAX bytes; "tag" when nothing
 * is left) and the first 12 hex digits of the SHA-256 of the tag's exact
 * display form. The slug is for people; the hash keeps tags that slug
 * alike ("Défendre", "defendre!", Cyrillic names) apart. The name never
 * holds '/', never starts with '.', and is the same for the same tag on
 * every run. */
#include "rulings.h"
#include "sha256.h"
#include "utf8.h"
#include "util.h"

#include <string.h>

enum { RL_SLUG_MAX = 48, RL_NAME_HASH = 12 };

char *rl_export_filename(const char *tag, const char *ext)
{
	struct rl_buf b = {0};
	const char *s = tag;
	size_t len = strlen(tag);
	bool utf8 = rl_utf8_valid(tag, len) == len, dash = false;
	while (*s && b.len < RL_SLUG_MAX) {
		uint32_t cp = (unsigned char)*s;
		size_t k = 1;
		if (utf8)
			k = rl_utf8_decode(s, &cp);
		else if (cp >= 0x80)     /* not UTF-8: a byte, not a letter */
			cp = 0xFFFD;
		s += k;
		cp = rl_unaccent_cp(rl_fold_cp(cp));
		if ((cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9')) {
			if (dash && b.len)
				rl_buf_addc(&b, '-');
			dash = false;
			rl_buf_addc(&b, (char)cp);
		} else {
			dash = true;
		}
	}
	if (b.len == 0)
		rl_buf_adds(&b, "tag");
	char hex[65];
	rl_sha256_hex(tag, len, hex);
	rl_buf_addf(&b, "-%.*s%s", RL_NAME_HASH, hex, ext ? ext : "");
	return rl_buf_take(&b);
}
