/* qparse.h — the search query language, read into a tree (qparse.c), and
 * the tree made into SQL and FTS5 (qcompile.c, ftsquery.c).
 *
 * The language (man page, SEARCH SYNTAX): words, "phrases", prefix*,
 * -exclusion, NOT, OR, AND, parentheses, and the fields tag:, game:,
 * lang:, kind:, rule:, is:, title: and text:. Reading never fails on
 * syntax: what is not syntax is text. */
#ifndef RL_QPARSE_H
#define RL_QPARSE_H

#include "rulings.h"

struct rl_buf;

enum qn_kind {
	QN_AND, QN_OR, QN_NOT,  /* kid[0..nkid); NOT has one */
	QN_TERM,                /* text to find: a word or a phrase */
	QN_FIELD,               /* a filter: tag:, game:, ... */
};

enum qn_field { QF_TAG, QF_GAME, QF_LANG, QF_KIND, QF_RULE, QF_IS };

/* Where a term is looked for: anywhere, in the title (the question,
 * heading or term) or in the text (the answer, body or definition). */
enum qn_col { QC_ANY, QC_TITLE, QC_TEXT };

struct qnode {
	enum qn_kind kind;
	struct qnode **kid;
	size_t nkid, capkid;    /* kid has room for capkid */
	char *text;             /* TERM: its words; FIELD: the value */
	bool quoted;            /* written between double quotes */
	bool prefix;            /* ends in '*': a prefix */
	enum qn_col col;        /* TERM */
	enum qn_field field;    /* FIELD */
	/* TERM, filled in by qcompile.c: equivalents from the thesaurus
	 * that hold everywhere (alt), those of other games' concepts (galt,
	 * each of the game ggame[i]), NULL-terminated or NULL; and whether
	 * it is a rule number. */
	char **alt, **galt, **ggame;
	bool rule;
	/* FIELD read from one argument with blanks ("tag:Speed (Fast/Slow)"):
	 * the argument, its leading '-' included, to be read again as words
	 * when the value names nothing the database knows ('tag:Repeat
	 * fast'); else NULL */
	char *whole;
};

/* Reads the words a user typed (one argument or several: they are joined
 * with spaces, but an argument "FIELD:value with blanks" that holds no
 * operator is one value, as a shell leaves tag:"Speed (Fast/Slow)").
 * *out is the tree, or NULL when there is nothing in it. Only RL_ENOMEM
 * can fail. The tree is normalized: nested ANDs and ORs are flattened,
 * repeated operands given once, double negations removed. */
int rl_qparse(const char *const *words, size_t n, struct qnode **out);
/* The same; without join, an argument with blanks is words, always. */
int rl_qparse_as(const char *const *words, size_t n, bool join,
                 struct qnode **out);
void rl_qnode_free(struct qnode *node);

/* Normalizes a tree in place after nodes were removed (set to NULL in a
 * kid array) or changed: flattens, dedups, removes empty groups. Returns
 * the new root (NULL when nothing is left); frees what it drops. */
struct qnode *rl_qnormalize(struct qnode *node);

/* The node in the query language, canonical: what explain prints as the
 * query read, and the identity by which repeated operands are found. */
void rl_qnode_print(struct rl_buf *b, const struct qnode *node);

/* The name of a field as written ("tag"). */
const char *rl_qfield_name(enum qn_field f);

/* A word written as a rule number ("702.19a", "510", "100.1б."): digits,
 * dot-separated groups of digits, then at most two letters, and at least
 * a dot or three digits. *len is the length without a final period. */
bool rl_rule_like(const char *s, size_t n, size_t *len);

/* ---- FTS5 (ftsquery.c) -------------------------------------------------- */

/* Appends s[0..n) as an FTS5 string ("…", inner quotes doubled), then " *"
 * for a prefix. */
void rl_fts_quote(struct rl_buf *b, const char *s, size_t n, bool prefix);
/* Whether FTS5 can say the subtree alone: text only (no field, no rule
 * number), and every NOT beside something kept (FTS5's NOT is binary). */
bool rl_fts_sayable(const struct qnode *n);
/* Whether a term of it has equivalents of other games' concepts. */
bool rl_fts_has_games(const struct qnode *n);
bool rl_fts_has_not(const struct qnode *n);
/* The FTS5 expression of a sayable subtree; with games, terms are ORed
 * with their other games' equivalents too. */
void rl_fts_expr(struct rl_buf *b, const struct qnode *n, bool games);
/* rl_fts_expr(b, n, true), noting in pg (query.h) the games each phrase
 * it writes counts for. */
struct rl_phrase_games;
void rl_fts_expr_games(struct rl_buf *b, const struct qnode *n,
                       struct rl_phrase_games *pg);
/* The terms of a NULL-terminated list, ORed, in column col. */
void rl_fts_alts(struct rl_buf *b, enum qn_col col, char *const *v);

#endif
