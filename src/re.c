/* re.c — PCRE2 patterns as the importers use them. */
#include "re.h"
#include "doc.h"
#include "rulings.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

pcre2_code *rl_re_compile(const char *pattern, uint32_t extra)
{
	int err;
	PCRE2_SIZE off;
	pcre2_code *c = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
	                              PCRE2_UTF | PCRE2_UCP | extra, &err, &off,
	                              NULL);
	if (c)
		pcre2_jit_compile(c, PCRE2_JIT_COMPLETE);
	return c;
}

int rl_doc_game_from_words(struct rl_doc *doc, const char *pattern,
                           size_t from, size_t to)
{
	if (doc->game)
		return RL_OK;
	pcre2_code *re = rl_re_compile(pattern, 0);
	pcre2_match_data *md = re ? pcre2_match_data_create_from_pattern(re, NULL)
	                          : NULL;
	char *name = NULL;
	int rc = re && md ? RL_OK : RL_ENOMEM;
	size_t n = to < doc->n ? to : doc->n;
	for (size_t i = from; !rc && i < n; i++) {
		const char *t = doc->entries[i].text;
		size_t len = t ? strlen(t) : 0, at = 0;
		while (t && at < len &&
		       pcre2_match(re, (PCRE2_SPTR)t, len, at, PCRE2_NO_UTF_CHECK,
		                   md, NULL) >= 2) {
			PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
			char *g = rl_strtrim(t + ov[2], ov[3] - ov[2]);
			if (!g) {
				rc = RL_ENOMEM;
				break;
			}
			if (!name) {
				name = g;
			} else {
				bool same = strcmp(name, g) == 0;
				free(g);
				if (!same) {   /* two games: the words name none */
					free(name);
					name = NULL;
					n = 0;
					break;
				}
			}
			at = ov[1] > at ? ov[1] : at + 1;
		}
	}
	if (!rc && name && *name)
		rc = rl_doc_set_game(doc, name, strlen(name));
	free(name);
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	return rc;
}
