/* jsonread.h — reading JSON documents with the line of every value. */
#ifndef RL_JSONREAD_H
#define RL_JSONREAD_H

#include "rulings.h"

enum rl_json_type {
	RL_JSON_NULL, RL_JSON_BOOL, RL_JSON_NUMBER, RL_JSON_STRING,
	RL_JSON_ARRAY, RL_JSON_OBJECT
};

struct rl_json {
	enum rl_json_type type;
	unsigned line;            /* where the value starts */
	bool boolean;
	char *str;                /* strings (UTF-8, unescaped), numbers (text) */
	size_t len;
	struct rl_json **items;   /* array elements, object member values */
	char **keys;              /* object member names, parallel to items */
	size_t n, cap;
};

/* Parses valid UTF-8 text; RL_EDATA with one FILE:LINE:COL error (in d)
 * for text that is not JSON. */
int rl_json_parse(const char *text, size_t len, struct rl_json **out,
                  struct rl_diags *d);
/* The member key of an object, or NULL; its string value, or NULL. */
const struct rl_json *rl_json_get(const struct rl_json *obj, const char *key);
const char *rl_json_str(const struct rl_json *obj, const char *key);
void rl_json_free(struct rl_json *v);

#endif
