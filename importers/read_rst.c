/* read_rst.c — the reStructuredText reader (block.h, rst.h).
 *
 * Over the lines reader's blocks, it finds
 *   - section titles: text from the first column over an underline, or
 *     between an overline and an underline of the same character (the
 *     title may then be inset); a line of three or more of one of
 *     = - ~ ^ " ' ` # * + _ from the first column is an adornment. The
 *     title becomes one HEADING block (its line the title's); levels go in
 *     the order the document's adornment styles first appear;
 *   - transitions: an adornment that underlines nothing;
 *   - explicit markup: ".. name:: argument" (a DIRECTIVE named name) and
 *     ".. comment" (a DIRECTIVE without a name). What is indented under a
 *     comment or a directive is marked RL_BLOCK_SKIPPED, except under
 *     ".. glossary::", whose content is OPTION lines (":sorted:") then
 *     TERM lines (at the first term's indentation) and DEFINITION lines
 *     (deeper), as Sphinx reads it.
 * Everything else stays as the lines reader made it. */
#include "rst.h"
#include "chars.h"
#include "doc.h"
#include "importer.h"
#include "utf8.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char ADORNMENT_CHARS[] = "=-~^\"'`#*+_";

/* An underline, overline or transition: three or more of one punctuation
 * character from the first column, and nothing else but trailing
 * blanks. */
static bool is_adornment(const struct rl_block *l)
{
	size_t n = l->raw_len;
	while (n && (l->raw[n - 1] == ' ' || l->raw[n - 1] == '\t'))
		n--;
	if (n < 3 || !strchr(ADORNMENT_CHARS, l->raw[0]))
		return false;
	for (size_t i = 1; i < n; i++)
		if (l->raw[i] != l->raw[0])
			return false;
	return true;
}

/* A title line over an underline: text from the first column. */
static bool is_title(const struct rl_block *v, size_t n, size_t i)
{
	return i + 1 < n && v[i].type != RL_BLOCK_BLANK && v[i].indent == 0 &&
	       v[i].text == v[i].raw && !is_adornment(&v[i]) &&
	       is_adornment(&v[i + 1]);
}

/* An overline: an adornment over a title (which may be inset) and an
 * underline of the same character. */
static bool is_overline(const struct rl_block *v, size_t n, size_t i)
{
	return i + 2 < n && is_adornment(&v[i]) && v[i + 1].type != RL_BLOCK_BLANK &&
	       !is_adornment(&v[i + 1]) && is_adornment(&v[i + 2]) &&
	       v[i + 2].raw[0] == v[i].raw[0];
}

/* Explicit markup: ".." then a blank or the end, after the indentation.
 * *name is the directive's name ("glossary" in ".. glossary::"), NULL for
 * a comment or a target; *arg what follows "::". */
static bool is_explicit(const struct rl_block *l, const char **name,
                        size_t *name_len, const char **arg, size_t *arg_len)
{
	const char *s = l->text;
	size_t n = l->len;
	if (n < 2 || s[0] != '.' || s[1] != '.' || (n > 2 && s[2] != ' '))
		return false;
	size_t i = 2;
	while (i < n && s[i] == ' ')
		i++;
	size_t j = i;
	while (j < n && ((s[j] >= 'a' && s[j] <= 'z') || (s[j] >= 'A' && s[j] <= 'Z') ||
	                 (s[j] >= '0' && s[j] <= '9') || s[j] == '-' || s[j] == '_' ||
	                 s[j] == '+' || s[j] == '.' ||
	                 (s[j] == ':' && !(j + 1 < n && s[j + 1] == ':'))))
		j++;
	*name = NULL;
	*name_len = 0;
	*arg = s + n;
	*arg_len = 0;
	if (j > i && j + 1 < n && s[j] == ':' && s[j + 1] == ':') {
		*name = s + i;
		*name_len = j - i;
		*arg = s + j + 2;
		*arg_len = n - j - 2;
	}
	return true;
}

/* The level of an adornment style (its character, over- or underlined
 * only), in the order styles first appear. */
struct styles {
	char c[32];
	bool over[32];
	unsigned n;
};

static unsigned level_of(struct styles *st, char c, bool over)
{
	for (unsigned i = 0; i < st->n; i++)
		if (st->c[i] == c && st->over[i] == over)
			return i + 1;
	if (st->n < sizeof st->c) {
		st->c[st->n] = c;
		st->over[st->n] = over;
		st->n++;
	}
	return st->n;
}

static int heading(struct rl_blocks *out, const struct rl_block *title,
                   unsigned level)
{
	struct rl_block *b = rl_blocks_add(out, RL_BLOCK_HEADING, title->line);
	if (!b)
		return RL_ENOMEM;
	*b = *title;
	b->type = RL_BLOCK_HEADING;
	b->level = level;
	b->name = NULL;
	b->name_len = 0;
	b->text = title->raw;
	b->len = title->raw_len;
	rl_trim_range(&b->text, &b->len);
	return RL_OK;
}

#define NONE UINT32_MAX

int rl_read_rst(const struct rl_source *src, struct rl_blocks *out)
{
	struct rl_blocks lines = {0};
	int rc = rl_read_lines(src, &lines);
	const struct rl_block *v = lines.v;
	size_t n = lines.n;
	struct styles st = {0};
	bool glossary = false, skipped = false;
	unsigned block_indent = 0, term_indent = NONE, skip_indent = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		const struct rl_block *l = &v[i];
		if (l->type == RL_BLOCK_BLANK) {
			struct rl_block *b = rl_blocks_add(out, RL_BLOCK_BLANK, l->line);
			if (!b) {
				rc = RL_ENOMEM;
				break;
			}
			*b = *l;
			continue;
		}
		if (l->indent == 0 && l->text == l->raw && is_adornment(l)) {
			glossary = skipped = false;
			if (is_overline(v, n, i)) {
				rc = heading(out, &v[i + 1], level_of(&st, l->raw[0], true));
				i += 2;
			} else {
				struct rl_block *b = rl_blocks_add(out, RL_BLOCK_TRANSITION,
				                                   l->line);
				if (!b)
					rc = RL_ENOMEM;
				else
					*b = *l, b->type = RL_BLOCK_TRANSITION;
			}
			continue;
		}
		if (is_title(v, n, i)) {
			glossary = skipped = false;
			rc = heading(out, l, level_of(&st, v[i + 1].raw[0], false));
			i++;
			continue;
		}
		struct rl_block *b = rl_blocks_add(out, l->type, l->line);
		if (!b) {
			rc = RL_ENOMEM;
			break;
		}
		*b = *l;
		if (skipped && l->indent > skip_indent) {
			b->flags |= RL_BLOCK_SKIPPED;
			continue;
		}
		skipped = false;
		if (glossary && l->indent <= block_indent)
			glossary = false;
		const char *name, *arg;
		size_t name_len, arg_len;
		if (is_explicit(l, &name, &name_len, &arg, &arg_len)) {
			b->type = RL_BLOCK_DIRECTIVE;
			b->name = name;
			b->name_len = name_len;
			b->text = arg;
			b->len = arg_len;
			if (name_len == 8 && memcmp(name, "glossary", 8) == 0) {
				glossary = true;
				block_indent = l->indent;
				term_indent = NONE;
			} else {
				skipped = true;
				skip_indent = l->indent;
			}
			continue;
		}
		if (!glossary)
			continue;
		if (term_indent == NONE) {
			if (l->text[0] == ':') {
				b->type = RL_BLOCK_OPTION;
				continue;
			}
			term_indent = l->indent;
		}
		/* the whole line after the indentation, a bullet too */
		size_t bytes;
		rl_indent(l->raw, l->raw_len, &bytes);
		b->type = l->indent <= term_indent ? RL_BLOCK_TERM
		                                   : RL_BLOCK_DEFINITION;
		b->text = l->raw + bytes;
		b->len = l->raw_len - bytes;
		b->name = NULL;
		b->name_len = 0;
	}
	rl_blocks_free(&lines);
	return rc;
}

/* ---- Inline markup ------------------------------------------------------- */

/* Can inline markup start at s[i], whose start-string is k bytes long? */
static bool can_open(const char *s, size_t n, size_t i, size_t k)
{
	if (i + k >= n)
		return false;
	return !rl_is_word_cp(rl_cp_before(s, i)) &&
	       !rl_is_space_cp(rl_cp_at(s, n, i + k));
}

/* The end-strings inline markup looks for, and for each the offset from
 * which a search found none: a later search from there or beyond finds
 * none either (whether an end-string closes depends on where it stands,
 * not on where the search began, but for the first position), so no
 * opening mark reads the rest of the text again ("``x ``x ``x …" was
 * quadratic). */
enum close_kind { CLOSE_TICK, CLOSE_TICKS, CLOSE_STAR, CLOSE_STARS, NCLOSE };
static const char *const close_strings[NCLOSE] = { "`", "``", "*", "**" };

struct inline_scan {
	const char *s;
	size_t n;
	size_t none_from[NCLOSE];
};

/* Finds the end-string (of its kind) at or after from: preceded by no
 * white space and followed by no letter. Returns its offset or n. */
static size_t find_close(struct inline_scan *x, size_t from, enum close_kind kind)
{
	const char *s = x->s, *e = close_strings[kind];
	size_t n = x->n, k = strlen(e);
	if (from >= x->none_from[kind])
		return n;
	for (size_t j = from; j + k <= n; j++) {
		if (memcmp(s + j, e, k) != 0)
			continue;
		if (j == from || rl_is_space_cp(rl_cp_before(s, j)))
			continue;
		uint32_t next = rl_cp_at(s, n, j + k);
		/* "**" is not the end of an emphasis "*" */
		if (k == 1 && e[0] == '*' && next == '*')
			continue;
		if (!rl_is_word_cp(next))
			return j;
	}
	x->none_from[kind] = from;
	return n;
}

/* "text <target>": the text shown and the target (the whole when there is
 * no "<…>" at the end). */
static void split_target(const char *s, size_t n, size_t *shown,
                         const char **target, size_t *tlen)
{
	*shown = n;
	*target = s;
	*tlen = n;
	if (n >= 2 && s[n - 1] == '>') {
		const char *lt = NULL;
		for (size_t i = n - 1; i-- > 0; )
			if (s[i] == '<') {
				lt = s + i;
				break;
			}
		if (lt && lt > s) {
			*shown = (size_t)(lt - s);
			*target = lt + 1;
			*tlen = n - (size_t)(lt - s) - 2;
		}
	}
}

static bool is_role_char(char c)
{
	return c == '-' || c == '_' || c == '.' || c == '+' ||
	       (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/* Appends s[0..k) trimmed. */
static void add_trimmed(struct rl_buf *out, const char *s, size_t k)
{
	rl_trim_range(&s, &k);
	rl_buf_add(out, s, k);
}

/* :role:`content` at s[i]; returns the bytes used, 0 when there is none. */
static size_t role_at(struct inline_scan *x, size_t i, rl_rst_role_fn role,
                      void *ctx, struct rl_buf *out, int *rc)
{
	const char *s = x->s;
	size_t n = x->n, j = i + 1;
	while (j < n && is_role_char(s[j]))
		j++;
	if (j == i + 1 || j + 1 >= n || s[j] != ':' || s[j + 1] != '`')
		return 0;
	size_t close = find_close(x, j + 2, CLOSE_TICK);
	if (close >= n)
		return 0;
	const char *body = s + j + 2, *target;
	size_t blen = close - (j + 2), shown, tlen;
	split_target(body, blen, &shown, &target, &tlen);
	add_trimmed(out, body, shown);
	if (role)
		*rc = role(ctx, s + i + 1, j - i - 1, target, tlen);
	return close + 1 - i;
}

/* A pair of k-byte marks around text (**x**, *x*, ``x``) at s[i]: the
 * text as it is; 0 when unclosed. */
static size_t marked(struct inline_scan *x, size_t i, enum close_kind kind,
                     struct rl_buf *out)
{
	size_t k = strlen(close_strings[kind]);
	size_t close = find_close(x, i + k, kind);
	if (close >= x->n)
		return 0;
	rl_buf_add(out, x->s + i + k, close - i - k);
	return close + k - i;
}

int rl_rst_plain(const char *s, size_t n, rl_rst_role_fn role, void *ctx,
                 struct rl_buf *out)
{
	struct inline_scan x = { .s = s, .n = n,
	                         .none_from = { SIZE_MAX, SIZE_MAX, SIZE_MAX,
	                                        SIZE_MAX } };
	size_t i = 0;
	int rc = RL_OK;
	while (i < n && !rc) {
		char c = s[i];
		size_t used = 0;
		if (c == '\\' && i + 1 < n) {
			/* an escape; an escaped blank is nothing */
			uint32_t next;
			size_t len = rl_utf8_decode(s + i + 1, &next);
			if (!rl_is_space_cp(next))
				rl_buf_add(out, s + i + 1, len);
			i += 1 + len;
			continue;
		}
		if (c == ':' && can_open(s, n, i, 1))
			used = role_at(&x, i, role, ctx, out, &rc);
		if (!used && c == '`' && i + 1 < n && s[i + 1] == '`' &&
		    can_open(s, n, i, 2))
			used = marked(&x, i, CLOSE_TICKS, out);
		if (!used && c == '`' && can_open(s, n, i, 1)) {
			/* `text`, `text <url>`_, `text`__ */
			size_t close = find_close(&x, i + 1, CLOSE_TICK);
			if (close < n) {
				size_t shown, tlen;
				const char *target;
				split_target(s + i + 1, close - i - 1, &shown, &target, &tlen);
				add_trimmed(out, s + i + 1, shown);
				used = close + 1 - i;
				while (i + used < n && s[i + used] == '_')
					used++;
			}
		}
		if (!used && c == '*' && i + 1 < n && s[i + 1] == '*' &&
		    can_open(s, n, i, 2))
			used = marked(&x, i, CLOSE_STARS, out);
		if (!used && c == '*' && can_open(s, n, i, 1) && s[i + 1] != '*')
			used = marked(&x, i, CLOSE_STAR, out);
		if (used) {
			i += used;
			continue;
		}
		rl_buf_addc(out, c);
		i++;
	}
	return rc ? rc : out->oom ? RL_ENOMEM : RL_OK;
}

char *rl_rst_plain_copy(const char *s, size_t n)
{
	struct rl_buf b = {0};
	rl_trim_range(&s, &n);
	if (rl_rst_plain(s, n, NULL, NULL, &b)) {
		rl_buf_free(&b);
		return NULL;
	}
	char *r = rl_buf_take(&b);
	char *t = r ? rl_strtrim(r, strlen(r)) : NULL;
	free(r);
	return t;
}

char *rl_rst_term_name(const char *s, size_t n)
{
	rl_trim_range(&s, &n);
	if (n && s[n - 1] == '.' && !(n >= 2 && s[n - 2] == '.'))
		n--;
	return rl_strtrim(s, n);
}

int rl_rst_term_role(void *ctx, const char *role, size_t role_len,
                     const char *target, size_t target_len)
{
	struct rl_entry *e = ctx;
	if (role_len != 4 || memcmp(role, "term", 4) != 0)
		return RL_OK;
	char *t = rl_rst_term_name(target, target_len);
	if (!t)
		return RL_ENOMEM;
	bool found = true;
	int rc = *t ? rl_entry_has_ref(e, RL_REF_TERM, t, &found) : RL_OK;
	if (!rc && !found)
		rc = rl_entry_add_ref(e, RL_REF_TERM, t);
	free(t);
	return rc;
}

int rl_rst_doc_title(const struct rl_blocks *b, size_t *i,
                     struct rl_input *in)
{
	const struct rl_block *v = b->v;
	int rc = rl_blocks_skip_to_content(b, i, in->d);
	if (rc)
		return rc;
	if (v[*i].type == RL_BLOCK_HEADING) {
		if (!(in->doc->title = rl_rst_plain_copy(v[*i].text, v[*i].len)))
			return RL_ENOMEM;
		++*i;
	}
	if (in->doc->title && *in->doc->title)
		return RL_OK;
	free(in->doc->title);
	if (!(in->doc->title = rl_file_stem(in->src->name)))
		return RL_ENOMEM;
	return rl_diag_add(in->d, RL_WARNING, *i < b->n ? v[*i].line : 0, 0,
	                   "no title heading; the file name '%s' is the title",
	                   in->doc->title);
}
