/* lang.c — guessing a text's language from its script and common words.
 *
 * Cyrillic letters make it Russian. Among Latin-script texts, French is told
 * from English by counting short words that are frequent in one language and
 * rare in the other, plus letters English does not use. */
#include "rulings.h"
#include "utf8.h"

#include <stdbool.h>
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

/* Whether w[0..n) is a word of list. Called for every word of every
 * document imported: most list words are passed over at their first
 * letter, none is measured with strlen() (that was 3 % of an import). */
static bool in_list(const char *w, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (**list == *w && strncmp(*list, w, n) == 0 &&
		    (*list)[n] == '\0')
			return true;
	return false;
}

const char *rl_lang_detect(const char *text, size_t len)
{
	size_t cyr = 0, lat = 0, fr = 0, en = 0;
	char word[16];
	size_t wl = 0;
	bool wide = false;
	for (size_t i = 0; i <= len; ) {
		uint32_t cp = ' ';
		size_t k = 1;
		if (i < len)
			k = rl_utf8_decode(text + i, &cp);
		i += k;
		uint32_t f = rl_fold_cp(cp);
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
		if (wl && !wide) {
			if (in_list(word, wl, french_words))
				fr++;
			if (in_list(word, wl, english_words))
				en++;
		}
		wl = 0;
		wide = false;
	}
	if (cyr > lat)
		return "ru";
	return fr > en ? "fr" : "en";
}
