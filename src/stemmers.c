/* stemmers.c — libstemmer's front (the sb_stemmer_* functions of
 * libstemmer.h) for the three languages rulings stems: English, French
 * and Russian, in UTF-8. Linked into the program only when it is linked
 * with the static libstemmer (meson.build, -Dstatic_deps): these
 * definitions then stand in for the archive's libstemmer.o, whose table
 * of every Snowball algorithm made the linker take all 29 of them: 332 KB
 * of tables of pointers (95 % of the program's .data.rel.ro), relocated
 * by the loader at every start of the position-independent program,
 * 80 pages copied on write before main() runs — about 1.5 ms of a 10 ms
 * search on a small database (bench/RESULTS.md, session 15). Linked
 * with the shared library, or built without this file, libstemmer's
 * own front is used, with the same results.
 *
 * Snowball's generated stemmers are called as libstemmer.c calls them:
 * <lang>_UTF_8_create_env() makes an environment, SN_set_current() puts
 * the word in, <lang>_UTF_8_stem() stems it in place, and the stem is
 * the environment's first l symbols of p. Of Snowball's environment
 * (runtime/api.h, not installed by Debian) this file names only those
 * first three members, which every Snowball release has had in this
 * order; meson.build runs RL_STEMMERS_CHECK below against the library
 * before choosing this file, and does without it if a stem differs. */
#include <stdlib.h>
#include <string.h>
#include <libstemmer.h>

/* The start of Snowball's struct SN_env (runtime/api.h). */
struct SN_env {
	sb_symbol *p;
	int c;
	int l;
};

extern int SN_set_current(struct SN_env *z, int size, const sb_symbol *s);

#define SNOWBALL_LANG(lang) \
	extern struct SN_env *lang##_UTF_8_create_env(void); \
	extern void lang##_UTF_8_close_env(struct SN_env *z); \
	extern int lang##_UTF_8_stem(struct SN_env *z);
SNOWBALL_LANG(english)
SNOWBALL_LANG(french)
SNOWBALL_LANG(russian)

static const struct algorithm {
	const char *name;
	struct SN_env *(*create)(void);
	void (*close)(struct SN_env *);
	int (*stem)(struct SN_env *);
} algorithms[] = {
	{ "english", english_UTF_8_create_env, english_UTF_8_close_env,
	  english_UTF_8_stem },
	{ "french", french_UTF_8_create_env, french_UTF_8_close_env,
	  french_UTF_8_stem },
	{ "russian", russian_UTF_8_create_env, russian_UTF_8_close_env,
	  russian_UTF_8_stem },
};
enum { NALG = sizeof algorithms / sizeof *algorithms };

struct sb_stemmer {
	const struct algorithm *alg;
	struct SN_env *env;
};

const char **sb_stemmer_list(void)
{
	static const char *names[NALG + 1] = { "english", "french",
	                                       "russian", NULL };
	return names;
}

struct sb_stemmer *sb_stemmer_new(const char *algorithm, const char *charenc)
{
	if (charenc && strcmp(charenc, "UTF_8") != 0)
		return NULL;
	const struct algorithm *a = NULL;
	for (size_t i = 0; i < NALG && !a; i++)
		if (algorithm && strcmp(algorithm, algorithms[i].name) == 0)
			a = &algorithms[i];
	if (!a)
		return NULL;
	struct sb_stemmer *s = malloc(sizeof *s);
	if (!s)
		return NULL;
	s->alg = a;
	s->env = a->create();
	if (!s->env) {
		free(s);
		return NULL;
	}
	return s;
}

void sb_stemmer_delete(struct sb_stemmer *s)
{
	if (!s)
		return;
	s->alg->close(s->env);
	free(s);
}

/* The stem of word[0..size), NUL-terminated, in the stemmer's buffer
 * (valid until its next call); NULL when memory ran out. */
const sb_symbol *sb_stemmer_stem(struct sb_stemmer *s, const sb_symbol *word,
                                 int size)
{
	if (SN_set_current(s->env, size, word) != 0) {
		s->env->l = 0;
		return NULL;
	}
	if (s->alg->stem(s->env) < 0)
		return NULL;
	/* Snowball's buffers keep room for one symbol more */
	s->env->p[s->env->l] = 0;
	return s->env->p;
}

int sb_stemmer_length(struct sb_stemmer *s)
{
	return s->env->l;
}

#ifdef RL_STEMMERS_CHECK
/* meson.build's check: a word of each language stemmed as Snowball's
 * algorithms stem it (exit 0), through this file's front. */
#include <stdio.h>
int main(void)
{
	static const char *const cases[][3] = {
		{ "english", "generously", "generous" },
		{ "english", "running", "run" },
		{ "french", "g\xC3\xA9n\xC3\xA9ralement", "g\xC3\xA9n\xC3\xA9ral" },
		{ "russian", "\xD0\xB0\xD1\x82\xD0\xB0\xD0\xBA\xD0\xB0\xD0\xBC\xD0\xB8",
		  "\xD0\xB0\xD1\x82\xD0\xB0\xD0\xBA" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct sb_stemmer *s = sb_stemmer_new(cases[i][0], "UTF_8");
		if (!s)
			return 1;
		const sb_symbol *r = sb_stemmer_stem(s,
			(const sb_symbol *)cases[i][1], (int)strlen(cases[i][1]));
		int ok = r && (size_t)sb_stemmer_length(s) == strlen(cases[i][2])
		         && memcmp(r, cases[i][2], strlen(cases[i][2])) == 0;
		sb_stemmer_delete(s);
		if (!ok) {
			fprintf(stderr, "%s: %s\n", cases[i][0], cases[i][1]);
			return 1;
		}
	}
	return 0;
}
#endif
