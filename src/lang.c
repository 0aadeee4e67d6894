/* lang.c — guessing a text's language from its script and common words.
 *
 * Cyrillic letters make it Russian. Among Latin-script texts, French is told
 * from English by counting short words that are frequent in one language and
 * rare in the other, plus letters English does not use. */
#include "rulings.h"
#include "utf8.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static const char *const french_words[] = {
	"le", "la", "les", "des", "du", "une", "et", "est", "dans", "pour",
	"que", "qui", "pas", "sur", "avec", "ne", "ce", "cette", "sont", "au",
	"aux", "son", "ses", "vous", "elle", "il", "par", "si",
	/* a glossary's cross-references ("Voir :", "Pouvoir de base"): the
	 * few words of a short entry */
	"de", "voir", NULL
};
static const char *const english_words[] = {
	"the", "and", "of", "to", "is", "in", "it", "that", "you", "for",
	"on", "with", "as", "are", "be", "this", "if", "or", "not", "can",
	"do", "does", "from", "by", NULL
};

/* A word of at most 8 letters as a number (its bytes, zero-padded). */
static uint64_t pack(const char *w, size_t n)
{
	uint64_t k = 0;
	memcpy(&k, w, n);
	return k;
}

/* The words of both lists in a small hash table: each word of a text is
 * looked up with one or two comparisons of numbers. With strncmp() per
 * word and list word, the lists were most of the guess's time, and the
 * guess 3 % of an import's CPU. */
enum { SLOTS = 128 };
struct words {
	uint64_t key[SLOTS];
	unsigned char in[SLOTS];        /* 1: French, 2: English */
};

static size_t slot(uint64_t k)
{
	return (size_t)((k * 0x9E3779B97F4A7C15u) >> 57);
}

static void add_words(struct words *t, const char *const *list, unsigned in)
{
	for (; *list; list++) {
		uint64_t k = pack(*list, strlen(*list));
		size_t i = slot(k);
		while (t->in[i] && t->key[i] != k)
			i = (i + 1) % SLOTS;
		t->key[i] = k;
		t->in[i] |= (unsigned char)in;
	}
}

/* 1 for a French word of the lists, 2 English, 0 for neither. */
static unsigned lookup(const struct words *t, uint64_t k)
{
	for (size_t i = slot(k); t->in[i]; i = (i + 1) % SLOTS)
		if (t->key[i] == k)
			return t->in[i];
	return 0;
}

/* rl_fold_cp(cp), without utf8proc for the letters told apart below (most
 * of every document imported: that was 3 % of an import's CPU). */
static uint32_t fold(uint32_t cp)
{
	if (cp < 0x80)
		return cp >= 'A' && cp <= 'Z' ? cp + 32 : cp;
	if (cp >= 0x400 && cp <= 0x45F)    /* Cyrillic: folds within it */
		return cp < 0x410 ? cp + 0x50 : cp < 0x430 ? cp + 0x20 : cp;
	if (cp >= 0xE0 && cp <= 0xFF)      /* Latin-1's small letters */
		return cp;
	if (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7)
		return cp + 0x20;
	return rl_fold_cp(cp);
}

const char *rl_lang_detect(const char *text, size_t len)
{
	size_t cyr = 0, lat = 0, fr = 0, en = 0;
	struct words t = {0};
	add_words(&t, french_words, 1);
	add_words(&t, english_words, 2);
	char word[16];
	size_t wl = 0;
	bool wide = false;
	for (size_t i = 0; i <= len; ) {
		uint32_t cp = ' ';
		size_t k = 1;
		unsigned char c = i < len ? (unsigned char)text[i] : ' ';
		if (c < 0x80)
			cp = c;
		else
			k = rl_utf8_decode(text + i, &cp);
		i += k;
		uint32_t f = fold(cp);
		if ((f >= 'a' && f <= 'z')) {
			lat++;
			if (wl < sizeof word)
				word[wl++] = (char)f;
			else
				wide = true;
			continue;
		}
		if (f >= 0x430 && f <= 0x45F) {
			cyr++;
			wide = true;
			continue;
		}
		if (f >= 0xE0 && f <= 0xFF) {
			lat++;
			/* letters French uses and English does not */
			if (f == 0xE9 || f == 0xE8 || f == 0xEA || f == 0xE0 ||
			    f == 0xE7 || f == 0xF9 || f == 0xEE || f == 0xF4)
				fr++;
			wide = true;
			continue;
		}
		if (wl && wl <= 8 && !wide) {
			unsigned in = lookup(&t, pack(word, wl));
			fr += in & 1;
			en += in >> 1;
		}
		wl = 0;
		wide = false;
	}
	if (cyr > lat)
		return "ru";
	return fr > en ? "fr" : "en";
}
