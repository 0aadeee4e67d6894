/* read_json.c — the JSON reader (block.h): every value of the document in
 * document order (an object's or array's members after it), each a VALUE
 * block with its depth (0: the top-level value), its kind, its member name
 * (NULL in an array), its line, and for strings and numbers its text
 * (strings unescaped; numbers as written). src/jsonread.c parses. */
#include "block.h"
#include "jsonread.h"

#include <string.h>

static const enum rl_value_kind kinds[] = {
	[RL_JSON_NULL] = RL_VALUE_NULL, [RL_JSON_BOOL] = RL_VALUE_BOOL,
	[RL_JSON_NUMBER] = RL_VALUE_NUMBER, [RL_JSON_STRING] = RL_VALUE_STRING,
	[RL_JSON_ARRAY] = RL_VALUE_ARRAY, [RL_JSON_OBJECT] = RL_VALUE_OBJECT,
};

/* Depth is bounded by the parser (it refuses deeper nesting), so the
 * recursion is too. */
static int walk(const struct rl_json *v, const char *name, unsigned depth,
                struct rl_blocks *out)
{
	struct rl_block *b = rl_blocks_add(out, RL_BLOCK_VALUE, v->line);
	if (!b)
		return RL_ENOMEM;
	b->level = depth;
	b->kind = kinds[v->type];
	if (name) {
		size_t n = strlen(name);
		if (!(b->name = rl_blocks_strdup(out, name, n)))
			return RL_ENOMEM;
		b->name_len = n;
	}
	if (v->str) {
		if (!(b->text = rl_blocks_strdup(out, v->str, v->len)))
			return RL_ENOMEM;
		b->len = v->len;
	}
	for (size_t i = 0; i < v->n; i++) {
		int rc = walk(v->items[i], v->keys ? v->keys[i] : NULL, depth + 1, out);
		if (rc)
			return rc;
	}
	return RL_OK;
}

int rl_read_json(const struct rl_source *src, struct rl_blocks *out,
                 struct rl_diags *d)
{
	struct rl_json *root;
	int rc = rl_json_parse(src->text, src->len, &root, d);
	if (rc)
		return rc;
	rc = walk(root, NULL, 0, out);
	rl_json_free(root);
	return rc;
}
