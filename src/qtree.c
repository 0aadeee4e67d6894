/* qtree.c — the query tree: normalizing it (flattened, repeats dropped),
 * printing it back in the query language, freeing it; and what a rule
 * number looks like. */
#include "qparse.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static const char *const field_names[] = {
	[QF_TAG] = "tag", [QF_GAME] = "game", [QF_LANG] = "lang",
	[QF_KIND] = "kind", [QF_RULE] = "rule", [QF_IS] = "is",
};

const char *rl_qfield_name(enum qn_field f)
{
	return field_names[f];
}

void rl_qnode_free(struct qnode *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->nkid; i++)
		rl_qnode_free(n->kid[i]);
	free(n->kid);
	free(n->text);
	free(n->whole);
	for (int k = 0; k < 3; k++) {
		char **v = k == 0 ? n->alt : k == 1 ? n->galt : n->ggame;
		for (size_t i = 0; v && v[i]; i++)
			free(v[i]);
		free(v);
	}
	free(n);
}

/* ---- normalizing ----------------------------------------------------------- */

static void print(struct rl_buf *b, const struct qnode *n, bool fold);

/* Puts the canonical text of every kid, case folded, in a set; drops
 * repeats. */
static bool dedup(struct qnode *n)
{
	struct rl_strset seen = {0};
	struct rl_buf b = {0};
	size_t o = 0;
	bool ok = true;
	for (size_t i = 0; i < n->nkid; i++) {
		b.len = 0;
		print(&b, n->kid[i], true);
		int r = b.oom ? -1 : rl_strset_add(&seen, b.s ? b.s : "", b.len);
		if (r < 0) {
			ok = false;
			r = 1;              /* keep it */
		}
		if (r)
			n->kid[o++] = n->kid[i];
		else
			rl_qnode_free(n->kid[i]);
	}
	n->nkid = o;
	rl_buf_free(&b);
	rl_strset_free(&seen);
	return ok;
}

struct qnode *rl_qnormalize(struct qnode *n)
{
	if (!n)
		return NULL;
	if (n->kind == QN_TERM || n->kind == QN_FIELD)
		return n;
	/* the kids, with those of a kid of the same kind in its place:
	 * (a AND (b AND c)) is (a AND b AND c) */
	size_t need = 0;
	for (size_t i = 0; i < n->nkid; i++) {
		n->kid[i] = rl_qnormalize(n->kid[i]);
		struct qnode *k = n->kid[i];
		need += !k ? 0 : (k->kind == n->kind && n->kind != QN_NOT) ? k->nkid : 1;
	}
	struct qnode **v = need > n->nkid ? malloc(need * sizeof *v) : NULL;
	size_t o = 0;
	for (size_t i = 0; i < n->nkid; i++) {
		struct qnode *k = n->kid[i];
		if (!k)
			continue;
		if (v && k->kind == n->kind && n->kind != QN_NOT) {
			memcpy(v + o, k->kid, k->nkid * sizeof *v);
			o += k->nkid;
			k->nkid = 0;
			rl_qnode_free(k);
		} else if (v) {
			v[o++] = k;
		} else {
			n->kid[o++] = k;   /* nothing to flatten, or no memory:
			                    * nested is still right */
		}
	}
	if (v) {
		free(n->kid);
		n->kid = v;
		n->capkid = need;
	}
	n->nkid = o;
	if (n->kind != QN_NOT)
		dedup(n);
	if (n->nkid == 0) {
		rl_qnode_free(n);
		return NULL;
	}
	if (n->kind == QN_NOT && n->kid[0]->kind == QN_NOT) {
		/* NOT NOT x is x */
		struct qnode *x = n->kid[0]->kid[0];
		n->kid[0]->nkid = 0;
		rl_qnode_free(n);
		return x;
	}
	if (n->kind != QN_NOT && n->nkid == 1) {
		struct qnode *x = n->kid[0];
		n->nkid = 0;
		rl_qnode_free(n);
		return x;
	}
	return n;
}

/* ---- printing -------------------------------------------------------------- */

/* A word that reads back as itself: no blank, quote, star, parenthesis,
 * leading '-' or colon, and no operator. */
static bool bare_ok(const char *s)
{
	if (!*s || *s == '-' || strcmp(s, "OR") == 0 || strcmp(s, "AND") == 0 ||
	    strcmp(s, "NOT") == 0)
		return false;
	for (const char *p = s; *p; p++)
		if (*p == ' ' || *p == '"' || *p == '*' || *p == '(' || *p == ')' ||
		    *p == ':' || *p == '\t' || *p == '\n' || *p == '\r' ||
		    rl_blank_len(p))
			return false;
	return true;
}

static void print_value(struct rl_buf *b, const char *s, bool quote, bool star,
                        bool fold)
{
	char *f = fold ? rl_fold(s) : NULL;
	if (f)
		s = f;
	else if (fold)
		b->oom = true;
	if (quote || !bare_ok(s)) {
		rl_buf_addc(b, '"');
		rl_buf_adds(b, s);
		rl_buf_addc(b, '"');
	} else {
		rl_buf_adds(b, s);
	}
	if (star)
		rl_buf_addc(b, '*');
	free(f);
}

static void print(struct rl_buf *b, const struct qnode *n, bool fold)
{
	switch (n->kind) {
	case QN_TERM:
		if (n->col == QC_TITLE)
			rl_buf_adds(b, "title:");
		else if (n->col == QC_TEXT)
			rl_buf_adds(b, "text:");
		print_value(b, n->text, n->quoted, n->prefix, fold);
		return;
	case QN_FIELD:
		rl_buf_adds(b, field_names[n->field]);
		rl_buf_addc(b, ':');
		print_value(b, n->text, n->quoted, n->prefix, fold);
		return;
	case QN_NOT:
		rl_buf_addc(b, '-');
		if (n->kid[0]->kind == QN_AND || n->kid[0]->kind == QN_OR) {
			rl_buf_addc(b, '(');
			print(b, n->kid[0], fold);
			rl_buf_addc(b, ')');
		} else {
			print(b, n->kid[0], fold);
		}
		return;
	case QN_AND:
	case QN_OR:
		for (size_t i = 0; i < n->nkid; i++) {
			if (i)
				rl_buf_adds(b, n->kind == QN_OR ? " OR " : " ");
			bool paren = n->kind == QN_AND && n->kid[i]->kind == QN_OR;
			if (paren)
				rl_buf_addc(b, '(');
			print(b, n->kid[i], fold);
			if (paren)
				rl_buf_addc(b, ')');
		}
		return;
	}
}



void rl_qnode_print(struct rl_buf *b, const struct qnode *n)
{
	print(b, n, false);
}

/* ---- rule numbers ------------------------------------------------------------ */

bool rl_rule_like(const char *s, size_t n, size_t *len)
{
	if (n && s[n - 1] == '.')
		n--;
	size_t i = 0, lead = 0;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	lead = i;
	if (!lead)
		return false;
	bool dot = false;
	while (i + 1 < n && s[i] == '.' && s[i + 1] >= '0' && s[i + 1] <= '9') {
		dot = true;
		i++;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	/* at most two letters: Latin, or Cyrillic (two bytes each) */
	int letters = 0;
	while (i < n && letters < 2) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 'a' && c <= 'z') {
			i++;
		} else if ((c == 0xD0 || c == 0xD1) && i + 1 < n) {
			i += 2;
		} else {
			break;
		}
		letters++;
	}
	if (i != n || (!dot && lead < 3))
		return false;
	*len = n;
	return true;
}
