/* msg.c — looking up the message catalog (msg.h). */
#include "msg.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

const struct msg_lang *msg_find(const char *code)
{
	if (!code)
		return NULL;
	size_t n = strcspn(code, "-_");
	for (size_t k = 0; k < msg_nlangs; k++)
		if (strlen(msg_langs[k].code) == n &&
		    !strncmp(msg_langs[k].code, code, n))
			return &msg_langs[k];
	return NULL;
}

const struct msg_lang *msg_lang_or_en(const char *code)
{
	const struct msg_lang *l = msg_find(code);
	return l ? l : &msg_langs[0];
}

const char *msg_get(const struct msg_lang *l, enum rl_msg id)
{
	return l->strings[id][0];
}

char *msg_fill(const char *tmpl, size_t nargs, const char *const args[])
{
	struct rl_buf b = {0};
	const char *s = tmpl;
	for (const char *p; (p = strchr(s, '{')) != NULL; ) {
		size_t k = p[1] >= '1' && p[1] <= '9' && p[2] == '}'
		         ? (size_t)(p[1] - '0') : 0;
		if (!k || k > nargs) {
			rl_buf_add(&b, s, (size_t)(p - s) + 1);
			s = p + 1;
			continue;
		}
		rl_buf_add(&b, s, (size_t)(p - s));
		rl_buf_adds(&b, args[k - 1]);
		s = p + 3;
	}
	rl_buf_adds(&b, s);
	return rl_buf_take(&b);
}

char *msg_count(const struct msg_lang *l, enum rl_msg id, size_t n)
{
	unsigned long form = msg_info[id].plural ? l->plural((unsigned long)n) : 0;
	if (form >= l->nplurals)
		form = 0;
	char num[32];
	snprintf(num, sizeof num, "%zu", n);
	const char *const args[] = { num };
	return msg_fill(l->strings[id][form], 1, args);
}
