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

struct code_word {
	const char *code;
	enum rl_msg id;
};

static const char *word(const struct msg_lang *l, const struct code_word *v,
                        size_t n, const char *code, size_t len)
{
	for (size_t k = 0; code && k < n; k++)
		if (strlen(v[k].code) == len && !strncmp(v[k].code, code, len))
			return msg_get(l, v[k].id);
	return code;
}

const char *msg_kind(const struct msg_lang *l, const char *kind)
{
	static const struct code_word v[] = {
		{ "faq", MSG_KIND_FAQ }, { "errata", MSG_KIND_ERRATA },
		{ "rule", MSG_KIND_RULE }, { "glossary", MSG_KIND_GLOSSARY },
	};
	return word(l, v, sizeof v / sizeof *v, kind, kind ? strlen(kind) : 0);
}

const char *msg_change(const struct msg_lang *l, const char *change)
{
	static const struct code_word v[] = {
		{ "added", MSG_CHANGE_ADDED }, { "edited", MSG_CHANGE_EDITED },
		{ "withdrawn", MSG_CHANGE_WITHDRAWN }, { "marked", MSG_CHANGE_MARKED },
	};
	return word(l, v, sizeof v / sizeof *v, change,
	            change ? strlen(change) : 0);
}

const char *msg_lang_name(const struct msg_lang *l, const char *code)
{
	static const struct code_word v[] = {
		{ "en", MSG_LANG_EN }, { "fr", MSG_LANG_FR }, { "ru", MSG_LANG_RU },
	};
	return word(l, v, sizeof v / sizeof *v, code,
	            code ? strcspn(code, "-_") : 0);
}

void msg_tally_add(struct msg_tally *t, const char *lang)
{
	if (!lang || !*lang)
		return;
	size_t j = 0;
	while (j < t->nt && t->lang[j] != lang && strcmp(t->lang[j], lang))
		j++;
	if (j == t->nt && t->nt < sizeof t->lang / sizeof *t->lang) {
		t->lang[t->nt] = lang;
		t->n[t->nt++] = 0;
	}
	if (j < t->nt && ++t->n[j] > t->n[t->best])
		t->best = j;
}

const char *msg_tally_best(const struct msg_tally *t)
{
	return t->nt ? t->lang[t->best] : NULL;
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
