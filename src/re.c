/* re.c — PCRE2 patterns as the importers use them. */
#include "re.h"

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
