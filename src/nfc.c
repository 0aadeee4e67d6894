/* nfc.c — canonical composition for the scripts rulings reads.
 *
 * Text from other tools arrives decomposed at times ("e" + U+0301 for "é",
 * "и" + U+0306 for "й"), and two spellings of one word must index and
 * compare alike. This composes every base + mark pair that Unicode composes
 * in the Latin, Greek and Cyrillic blocks. It is not a full NFC: marks are
 * not reordered by combining class first, and Hangul is left alone. */
#include "nfc.h"
#include "utf8.h"

#include <string.h>

static uint32_t compose(uint32_t base, uint32_t mark)
{
	unsigned lo = 0, hi = rl_nfc_npairs;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		const struct rl_nfc_pair *p = &rl_nfc_pairs[mid];
		if (p->base < base || (p->base == base && p->mark < mark))
			lo = mid + 1;
		else if (p->base == base && p->mark == mark)
			return p->composed;
		else
			hi = mid;
	}
	return 0;
}

size_t rl_nfc(const char *s, size_t n, char *out)
{
	size_t o = 0, i = 0;
	size_t last = (size_t)-1;   /* where the last base character starts in out */
	uint32_t base = 0;
	while (i < n) {
		uint32_t cp;
		size_t k = rl_utf8_decode(s + i, &cp);
		i += k;
		if (cp >= 0x300 && cp <= 0x36F && last != (size_t)-1) {
			uint32_t c = compose(base, cp);
			if (c) {
				/* rewrite the base in place: never longer than base + mark */
				o = last + rl_utf8_encode(c, out + last);
				base = c;
				continue;
			}
		}
		last = o;
		base = cp;
		o += rl_utf8_encode(cp, out + o);
	}
	out[o] = '\0';
	return o;
}
