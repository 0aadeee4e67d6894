/* qparse.c — reading the search query language into a tree.
 *
 * Grammar (operators bind tighter from top to bottom):
 *
 *   query   := or
 *   or      := and ( "OR" and )*
 *   and     := unary ( ["AND"] unary )*
 *   unary   := ( "-" | "NOT" )* primary
 *   primary := "(" or ")" | FIELD ":" value | "phrase" | word
 *
 * Nothing is a syntax error, as on Scryfall: OR, AND and NOT are operators
 * only in upper case and between (or before) operands, else words; an
 * unclosed parenthesis or quote closes at the end; a stray ")" is passed
 * over; an unknown field name ("foo:bar") is text. Groups deeper than
 * MAX_DEPTH are read as if their parentheses were not there, so that no
 * input makes the reader (or FTS5, or SQLite) recurse without bound. */
#include "qparse.h"
#include "utf8.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 32 };


struct lex {
	const char *s;
	size_t i, n;
	int depth;          /* groups open */
	int ignored;        /* "(" read as text past MAX_DEPTH, to match */
	bool oom;
	/* where an argument read as one value starts (its field name), and
	 * the argument: for a second reading when the value is unknown */
	const size_t *joined;
	const char *const *jword;
	size_t njoined;
};

static bool is_blank(const struct lex *lx, size_t i)
{
	if (i >= lx->n)
		return false;
	char c = lx->s[i];
	if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
		return true;
	return rl_blank_len(lx->s + i) != 0;
}

static void skip_blanks(struct lex *lx)
{
	while (lx->i < lx->n) {
		char c = lx->s[lx->i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			lx->i++;
			continue;
		}
		size_t k = rl_blank_len(lx->s + lx->i);
		if (!k)
			break;
		lx->i += k;
	}
}

enum tok { T_END, T_LP, T_RP, T_OR, T_AND, T_NOT, T_NEG, T_ITEM };

/* The end of a bare word at i: a blank, a double quote, or a ")" that
 * closes a group (one the word did not open itself). */
static size_t word_end(const struct lex *lx, size_t i)
{
	int local = 0;
	while (i < lx->n && !is_blank(lx, i) && lx->s[i] != '"') {
		if (lx->s[i] == '(')
			local++;
		else if (lx->s[i] == ')') {
			if (local == 0 && lx->depth > 0)
				break;
			if (local > 0)
				local--;
		}
		i++;
	}
	return i;
}

static bool keyword_at(const struct lex *lx, size_t i, const char *kw)
{
	size_t k = strlen(kw);
	if (i + k > lx->n || memcmp(lx->s + i, kw, k) != 0)
		return false;
	size_t e = i + k;
	return e == lx->n || is_blank(lx, e) || lx->s[e] == '(' ||
	       lx->s[e] == '"' || (lx->s[e] == ')' && lx->depth > 0);
}

/* The token at i (after blanks), without reading it; *len its length. */
static enum tok peek_at(struct lex *lx, size_t i, size_t *len)
{
	*len = 1;
	if (i >= lx->n)
		return T_END;
	char c = lx->s[i];
	if (c == '(')
		return T_LP;
	if (c == ')')
		return T_RP;
	if (c == '-' && i + 1 < lx->n && !is_blank(lx, i + 1) &&
	    lx->s[i + 1] != '-' && lx->s[i + 1] != ')')
		return T_NEG;
	if (keyword_at(lx, i, "OR")) {
		*len = 2;
		return T_OR;
	}
	if (keyword_at(lx, i, "AND")) {
		*len = 3;
		return T_AND;
	}
	if (keyword_at(lx, i, "NOT")) {
		*len = 3;
		return T_NOT;
	}
	return T_ITEM;
}

static enum tok peek(struct lex *lx, size_t *len)
{
	skip_blanks(lx);
	return peek_at(lx, lx->i, len);
}

/* Whether an operand follows the operator of length len at the cursor. */
static bool operand_after(struct lex *lx, size_t len)
{
	size_t save = lx->i;
	lx->i += len;
	skip_blanks(lx);
	size_t l;
	enum tok t = peek_at(lx, lx->i, &l);
	lx->i = save;
	return t != T_END && t != T_RP && t != T_OR && t != T_AND;
}

static struct qnode *new_node(struct lex *lx, enum qn_kind kind)
{
	struct qnode *n = calloc(1, sizeof *n);
	if (!n)
		lx->oom = true;
	else
		n->kind = kind;
	return n;
}

static bool add_kid(struct lex *lx, struct qnode *parent, struct qnode *kid)
{
	/* the array doubles: one more slot each time copied it whole every
	 * time, quadratic in the operands of a long query */
	if (!rl_grow(&parent->kid, &parent->capkid, parent->nkid + 1,
	             sizeof *parent->kid)) {
		lx->oom = true;
		rl_qnode_free(kid);
		return false;
	}
	parent->kid[parent->nkid++] = kid;
	return true;
}

/* Takes trailing stars (they make *star true) and white space off
 * *s[0..*n); false when nothing is left (a lone star, ""). */
static bool unstar(const char **s, size_t *n, bool *star)
{
	while (*n && (*s)[*n - 1] == '*') {
		(*n)--;
		*star = true;
	}
	rl_trim_range(s, n);
	return *n != 0;
}

/* A term of s[0..n): a trailing '*' makes it a prefix; nothing left (a
 * lone star, "") is no term. */
static struct qnode *term(struct lex *lx, const char *s, size_t n, bool quoted,
                          bool star, enum qn_col col)
{
	if (!unstar(&s, &n, &star))
		return NULL;
	struct qnode *t = new_node(lx, QN_TERM);
	if (!t)
		return NULL;
	t->text = rl_strndup(s, n);
	if (!t->text) {
		lx->oom = true;
		free(t);
		return NULL;
	}
	t->quoted = quoted;
	t->prefix = star;
	t->col = col;
	return t;
}

/* A quoted string at the cursor (on its '"'): *s, *n its content; the
 * cursor after the closing quote (or at the end, when there is none). */
static void quoted(struct lex *lx, const char **s, size_t *n)
{
	size_t start = ++lx->i;
	while (lx->i < lx->n && lx->s[lx->i] != '"')
		lx->i++;
	*s = lx->s + start;
	*n = lx->i - start;
	if (lx->i < lx->n)
		lx->i++;
}

static bool star_follows(struct lex *lx)
{
	bool star = false;
	while (lx->i < lx->n && lx->s[lx->i] == '*') {
		lx->i++;
		star = true;
	}
	return star;
}

static struct qnode *parse_or(struct lex *lx, enum qn_col col);

/* The field name a word at i starts with ("tag:"), -1 for none. */
static int field_at(const struct lex *lx, size_t i, size_t end, size_t *vstart)
{
	size_t k = i;
	while (k < end && ((lx->s[k] >= 'a' && lx->s[k] <= 'z') ||
	                   (lx->s[k] >= 'A' && lx->s[k] <= 'Z')))
		k++;
	if (k == i || k >= end || lx->s[k] != ':')
		return -1;
	*vstart = k + 1;
	char name[8];
	size_t len = k - i;
	if (len >= sizeof name)
		return -1;
	for (size_t j = 0; j < len; j++)
		name[j] = (char)(lx->s[i + j] | 0x20);
	name[len] = '\0';
	for (int f = 0; f <= QF_IS; f++)
		if (strcmp(name, rl_qfield_name((enum qn_field)f)) == 0)
			return f;
	if (strcmp(name, "title") == 0)
		return 100 + QC_TITLE;
	if (strcmp(name, "text") == 0)
		return 100 + QC_TEXT;
	return -1;
}

static struct qnode *group(struct lex *lx, enum qn_col col);

/* A word, a phrase or a field at the cursor. NULL when it holds nothing
 * (or memory ran out: lx->oom). */
static struct qnode *item(struct lex *lx, enum qn_col col)
{
	const char *s;
	size_t n;
	if (lx->s[lx->i] == '"') {
		quoted(lx, &s, &n);
		return term(lx, s, n, true, star_follows(lx), col);
	}
	size_t start = lx->i, end = word_end(lx, lx->i), v;
	int f = field_at(lx, start, end, &v);
	if (f < 0 || (v == end && (v >= lx->n || lx->s[v] != '"'))) {
		/* a word ("foo:bar", "tag:" with no value: text) */
		lx->i = end;
		if (end == start) {           /* a lone ')' inside a word run */
			lx->i++;
			return NULL;
		}
		return term(lx, lx->s + start, end - start, false, false, col);
	}
	lx->i = v;
	if (f >= 100) {                       /* title: and text: */
		enum qn_col c = (enum qn_col)(f - 100);
		if (lx->s[v] == '(')
			return group(lx, c);
		if (lx->s[v] == '"') {
			quoted(lx, &s, &n);
			return term(lx, s, n, true, star_follows(lx), c);
		}
		lx->i = end;
		return term(lx, lx->s + v, end - v, false, false, c);
	}
	if (lx->s[v] == '"') {
		quoted(lx, &s, &n);
	} else {
		s = lx->s + v;
		n = end - v;
		lx->i = end;
	}
	bool star = star_follows(lx);
	if (!unstar(&s, &n, &star))
		return NULL;
	struct qnode *q = new_node(lx, QN_FIELD);
	if (!q)
		return NULL;
	q->field = (enum qn_field)f;
	q->prefix = star;
	for (size_t k = 0; k < lx->njoined; k++)
		if (lx->joined[k] == start && !(q->whole = rl_strdup(lx->jword[k]))) {
			lx->oom = true;
			free(q);
			return NULL;
		}
	q->quoted = lx->s[v] == '"';
	if (!(q->text = rl_strndup(s, n))) {
		lx->oom = true;
		free(q);
		return NULL;
	}
	return q;
}

/* "(" at the cursor: the group, read with column col. */
static struct qnode *group(struct lex *lx, enum qn_col col)
{
	lx->i++;
	if (lx->depth >= MAX_DEPTH) {
		lx->ignored++;
		return NULL;
	}
	lx->depth++;
	struct qnode *g = parse_or(lx, col);
	size_t len;
	if (peek(lx, &len) == T_RP)
		lx->i++;
	lx->depth--;
	return g;
}

static struct qnode *primary(struct lex *lx, enum qn_col col)
{
	size_t len;
	enum tok t = peek(lx, &len);
	if (t == T_LP)
		return group(lx, col);
	return item(lx, col);
}

/* An operand with its negations ("-", NOT): an odd number negates. */
static struct qnode *unary(struct lex *lx, enum qn_col col)
{
	bool neg = false;
	for (;;) {
		size_t len;
		enum tok t = peek(lx, &len);
		if (t == T_NEG || (t == T_NOT && operand_after(lx, len))) {
			lx->i += len;
			neg = !neg;
			continue;
		}
		break;
	}
	struct qnode *p = primary(lx, col);
	if (!p || !neg)
		return p;
	struct qnode *n = new_node(lx, QN_NOT);
	if (!n) {
		rl_qnode_free(p);
		return NULL;
	}
	add_kid(lx, n, p);
	return n;
}

/* A keyword that is no operator where it stands: a word. */
static struct qnode *keyword_word(struct lex *lx, size_t len, enum qn_col col)
{
	const char *s = lx->s + lx->i;
	lx->i += len;
	return term(lx, s, len, false, false, col);
}

static struct qnode *parse_and(struct lex *lx, enum qn_col col)
{
	struct qnode *and = new_node(lx, QN_AND);
	if (!and)
		return NULL;
	while (!lx->oom) {
		size_t len;
		enum tok t = peek(lx, &len);
		if (t == T_END)
			break;
		if (t == T_RP) {
			if (lx->ignored > 0) {
				lx->ignored--;
				lx->i++;
				continue;
			}
			if (lx->depth > 0)
				break;
			lx->i++;            /* a stray ")" */
			continue;
		}
		struct qnode *u;
		if (t == T_OR && and->nkid && operand_after(lx, len))
			break;
		if (t == T_AND && and->nkid && operand_after(lx, len)) {
			lx->i += len;
			continue;
		}
		if (t == T_OR || t == T_AND || (t == T_NOT && !operand_after(lx, len)))
			u = keyword_word(lx, len, col);
		else
			u = unary(lx, col);
		if (u)
			add_kid(lx, and, u);
	}
	return and;
}

static struct qnode *parse_or(struct lex *lx, enum qn_col col)
{
	struct qnode *or = new_node(lx, QN_OR);
	if (!or)
		return NULL;
	for (;;) {
		struct qnode *a = parse_and(lx, col);
		if (!a || !add_kid(lx, or, a) || lx->oom)
			break;
		size_t len;
		if (peek(lx, &len) != T_OR || !operand_after(lx, len))
			break;
		lx->i += len;
	}
	return or;
}

/* ---- the words a user typed ------------------------------------------------ */

/* "tag:Speed (Fast/Slow)" as one argument, as a shell leaves
 * tag:"Speed (Fast/Slow)": a field, a value with blanks, no double quote,
 * and no word of it an operator, an exclusion or another field. */
static bool one_value(const char *w)
{
	struct lex lx = { .s = w, .n = strlen(w) };
	size_t v;
	size_t start = *w == '-' ? 1 : 0;
	if (field_at(&lx, start, lx.n, &v) < 0 || v >= lx.n || strchr(w, '"'))
		return false;
	bool blank = false;
	for (size_t i = v; i < lx.n; ) {
		if (!is_blank(&lx, i)) {
			size_t e = i;
			while (e < lx.n && !is_blank(&lx, e))
				e++;
			size_t dummy;
			if (w[i] == '-' || keyword_at(&lx, i, "OR") ||
			    keyword_at(&lx, i, "AND") || keyword_at(&lx, i, "NOT") ||
			    (i > v && field_at(&lx, i, e, &dummy) >= 0))
				return false;
			i = e;
		} else {
			blank = true;
			i++;
		}
	}
	return blank;
}

int rl_qparse_as(const char *const *words, size_t n, bool join,
                 struct qnode **out)
{
	*out = NULL;
	/* Each word as UTF-8 (a byte that is not becomes U+FFFD), composed
	 * (NFC) as the indexed text is, and with typeset apostrophes and
	 * quotes the plain ones: “a b” is a phrase (rl_fold_quotes()). */
	char **plain = n ? calloc(n, sizeof *plain) : NULL;
	if (n && !plain)
		return RL_ENOMEM;
	bool oom = false;
	for (size_t i = 0; i < n && !oom; i++)
		oom = !(plain[i] = rl_fold_quotes(words[i]));
	struct rl_buf all = {0};
	size_t *joined = NULL, nj = 0;
	const char **jword = NULL;
	if (!oom && join && n && (!(joined = malloc(n * sizeof *joined)) ||
	                          !(jword = malloc(n * sizeof *jword))))
		oom = true;
	if (oom) {
		free(joined);
		rl_strings_free(plain, n);
		return RL_ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		if (i)
			rl_buf_addc(&all, ' ');
		const char *w = plain[i];
		if (join && one_value(w)) {
			const char *colon = strchr(w, ':');
			size_t dash = *w == '-';
			rl_buf_add(&all, w, dash);
			joined[nj] = all.len;
			jword[nj++] = w;
			rl_buf_add(&all, w + dash, (size_t)(colon - w) + 1 - dash);
			rl_buf_addc(&all, '"');
			rl_buf_adds(&all, colon + 1);
			rl_buf_addc(&all, '"');
		} else {
			rl_buf_adds(&all, w);
		}
	}
	if (all.oom) {
		rl_buf_free(&all);
		free(joined);
		free(jword);
		rl_strings_free(plain, n);
		return RL_ENOMEM;
	}
	struct lex lx = { .s = all.s ? all.s : "", .n = all.len, .joined = joined,
	                  .jword = jword, .njoined = nj };
	struct qnode *root = parse_or(&lx, QC_ANY);
	rl_buf_free(&all);
	free(joined);
	free(jword);
	rl_strings_free(plain, n);
	if (lx.oom) {
		rl_qnode_free(root);
		return RL_ENOMEM;
	}
	*out = rl_qnormalize(root);
	return RL_OK;
}

int rl_qparse(const char *const *words, size_t n, struct qnode **out)
{
	return rl_qparse_as(words, n, true, out);
}
