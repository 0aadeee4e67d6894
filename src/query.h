/* query.h — what the reading side of the library shares: ruling.c (the
 * columns and details of a ruling), filter.c (a query's filters as SQL),
 * search.c, show.c and catalog.c. */
#ifndef RL_QUERY_H
#define RL_QUERY_H

#include "db.h"

/* The columns every ruling query selects first, for rl_fill_base(): of
 * rulings r and games g, or with the title and text as of a time (temp.asof
 * a). */
extern const char rl_ruling_cols[];
extern const char rl_asof_cols[];

/* Fills r from the columns of rl_ruling_cols (from column 0); sets *oom
 * when a copy fails. */
void rl_fill_base(sqlite3_stmt *st, struct rl_ruling *r, bool *oom);
/* A failed sqlite3_step() of a query, recorded: the status. */
int rl_step_error(rl_db *db, int rc);

/* The statements that fill in each result's details (tags, sources,
 * errata), prepared once for all the results of a query: preparing them
 * for each of 20 results cost more than running them. */
struct rl_details {
	sqlite3_stmt *tags, *sources, *errata;
};
int rl_details_prepare(rl_db *db, struct rl_details *ds);
void rl_details_finalize(struct rl_details *ds);
int rl_fill_details(rl_db *db, struct rl_details *ds, struct rl_ruling *r);

/* Parameters collected while a WHERE clause is built: v[i] binds ?i+1;
 * owned[i] (a folded copy, or NULL) is freed with them. */
struct rl_params {
	const char **v;
	char **owned;
	int n, cap;
};
/* Adds a copy of value (folded with rl_fold() when fold) as the next
 * parameter; *index is its number. RL_EUSAGE past SQLite's limit. */
int rl_param(struct rl_params *p, const char *value, bool fold, int *index);
/* The same for a value of the caller's (malloc'd), taken in any case. */
int rl_param_own(struct rl_params *p, char *value, int *index);
void rl_params_free(struct rl_params *p);

/* ---- numbered rules (rules.c) --------------------------------------------- */

/* Compares rule numbers in their order: 702.9 < 702.19 < 702.19a <
 * 702.19b < 702.20 (numbers as numbers, the rest byte by byte). */
int rl_rule_cmp(const char *a, const char *b);
/* Fills r's parent, previous, next and subrules (r->rule set). */
int rl_rule_relations(rl_db *db, struct rl_ruling *r);
/* rl_show() without those relations (parent, previous, next, subrules
 * stay NULL): what an export reads of each ruling. The relations read
 * every current rule of the game and sort them, for each rule: a book of
 * n rules exported with them costs O(n^2 log n). */
int rl_show_unrelated(rl_db *db, long long id, struct rl_ruling *out);
void rl_rule_ref_free(struct rl_rule_ref *r);

/* ---- a query made SQL (qcompile.c, filter.c) ----------------------------- */

/* What a condition means, recorded where it is made (filter.c,
 * qcompile.c) for the plans that answer some conditions without their
 * SQL (search.c's fast paths). RL_COND_OTHER says nothing: the SQL
 * alone says what it asks, and a plan that does not know it declines. */
enum rl_cond_kind {
	RL_COND_OTHER = 0,
	RL_COND_ANY,            /* "1": lang:any */
	RL_COND_LANG,           /* r.lang = ?param (the folded code) */
	RL_COND_GAME,           /* the rulings of the game whose folded name
	                           is ?param */
	RL_COND_NO_GAME,        /* the rulings of no game (--game none) */
	RL_COND_KIND,           /* r.kind = ?param (folded) */
	RL_COND_TAGS,           /* r.id IN (ids): a tag (or tag prefix) without
	                           game equivalents, its rulings listed */
	RL_COND_SHOWN,          /* r.withdrawn_at IS NULL: withdrawn rulings
	                           hidden */
};

/* One condition of the WHERE clause, over rulings r: for listing rows,
 * and for counting them when that differs (count: NULL), as it does for a
 * tag on thousands of rulings, walked in id order to find the first few
 * but listed to count them all. */
struct rl_cond {
	char *rows, *count;
	enum rl_cond_kind kind;
	int param;              /* LANG, GAME, KIND: the value's parameter */
	char *ids;              /* TAGS: a SELECT of the ruling ids that rows
	                           keeps (rows is "r.id IN (ids)"), else NULL */
	bool subs;              /* rows reads a subselect fN (qcompile.c) */
	bool games;             /* the condition of a clause that match also
	                           drives: its phrases of other games'
	                           concepts count in their games only */
};

/* The games each phrase (quoted string) of an FTS5 expression counts
 * for, in the order it writes them (ftsquery.c): v[i] NULL for every
 * game; else the folded names (NULL-terminated) of the games for whose
 * rulings alone a thesaurus term of their concepts widens a word (the
 * conditions say so: "r.game_id IN (... rl_fold(name) = ...) AND r.id IN
 * fN"). The champion lists' plan reads it (topk.c). */
struct rl_phrase_games {
	char ***v;
	size_t n, cap;
	bool oom;
};
void rl_phrase_games_free(struct rl_phrase_games *pg);

/* A search's words and filters, as SQL and FTS5. Every value from the
 * user is a parameter (p); the SQL text holds fixed fragments and ?N. */
struct rl_compiled {
	char *read_as;          /* the words as read (canonical), or NULL */
	char *match;            /* FTS5 expression that finds and ranks */
	int match_i;            /* its parameter, when there is one */
	struct rl_phrase_games mgames;  /* its phrases' games */
	char *rank;             /* without match: one that only ranks */
	int rank_i;
	struct rl_sub {         /* fN(rid): the rulings an expression finds */
		char *fts;
		int param;
	} *sub;
	size_t nsub, capsub;
	struct rl_cond *conds;  /* ANDed */
	size_t nconds, capconds;
	char *first;            /* SQL: true for the rulings to rank first
	                           (a rule number searched for), or NULL */
	struct rl_params p;
	const char *lang;       /* which full-text tables: NULL (all) or a code */
	unsigned fts_empty;     /* full-text tables known to hold no row (bit i:
	                           search.c's fts_langs[i]), left out of the
	                           statements; 0: none known */
	char *lang_own;         /* lang, when the query gave it (lang:fr) */
	bool nothing;           /* words that can match nothing */
	bool withdrawn;         /* the query says which withdrawn rulings */
	char *unknown;          /* "no tag 'x'; did you mean 'y'?" */
};

/* Compiles q: its words (parsed, unless q->raw), the thesaurus, and its
 * filters. by_id: the rows are listed in id order up to a limit.
 * RL_NOTFOUND with c->unknown set when a filter names something the
 * database does not know; c is freed by rl_compiled_free() in any case. */
int rl_compile(rl_db *db, const struct rl_query *q, bool by_id,
               struct rl_compiled *c);
/* The same; without check, unknown names are no answer (they match
 * nothing). */
int rl_compile_check(rl_db *db, const struct rl_query *q, bool by_id,
                     bool check, struct rl_compiled *c);
/* Joins items[0..n) with op ("AND", "OR") as a balanced tree of
 * parentheses: SQLite refuses an expression deeper than 1,000, which a
 * chain of a thousand ANDs is. */
void rl_join_balanced(struct rl_buf *b, char *const *items, size_t n,
                      const char *op);
void rl_compiled_free(struct rl_compiled *c);
/* Adds a condition, taking its strings (rows, count and ids; count and
 * ids may be NULL), freed on failure too. RL_ENOMEM when rows is NULL (a
 * copy that failed). */
int rl_add_cond(struct rl_compiled *c, struct rl_cond cond);
/* Adds a subselect fN for an FTS5 expression (taken); *n is N. */
int rl_add_sub(struct rl_compiled *c, char *fts, int *n);

/* ---- filters (filter.c) ---------------------------------------------------- */

struct qnode;
struct rl_filter_ctx {
	rl_db *db;
	struct rl_compiled *c;
	const char *scope;      /* the game whose thesaurus concepts apply to
	                           all rulings (NULL: each concept its game's) */
	bool no_thesaurus;
	bool by_id;
	bool check;             /* unknown names are an answer (c->unknown) */
	sqlite3_stmt *syn;      /* the thesaurus lookup, once prepared */
};

/* The condition a field (tag:, game:, lang:, kind:, rule:, is:) makes:
 * its strings new (count when counting needs another form), its meaning
 * recorded. Nothing to free on failure. */
int rl_field_sql(struct rl_filter_ctx *f, const struct qnode *n, bool dense_ok,
                 struct rl_cond *out);
/* Frees a condition's strings. */
void rl_cond_free(struct rl_cond *cond);
/* Whether the tag (or game) a field names is one the database knows;
 * other fields: whether the value is one word, as their values are. */
int rl_field_known(struct rl_filter_ctx *f, const struct qnode *n, bool *found);
/* The conditions of q's options (--tag, --category, --kind, --lang,
 * --game, changed, withdrawn), added to f->c. */
int rl_option_conds(struct rl_filter_ctx *f, const struct rl_query *q);
/* Sets f->c->unknown (unless a name was already found unknown) to "no
 * WHAT 'name'", then "; did you mean 'x'?" (or 'x' or 'y') with the
 * nearest of the names that sql lists (one text column) or fixed (a
 * NULL-terminated list), or, when none is near and there are few, "(there
 * are 'a', 'b')". Returns RL_NOTFOUND (or an error). */
int rl_unknown_name(struct rl_filter_ctx *f, const char *what, const char *name,
                    const char *sql, const char *const *fixed);
/* The terms the thesaurus gives for term, without term itself: those of
 * concepts for every game (or for f->scope) in *all, those of other
 * games' concepts in *games (games[i] is the game of terms[i]); each a
 * NULL-terminated list or NULL. */
int rl_thesaurus_terms(struct rl_filter_ctx *f, const char *term,
                       char ***all, char ***terms, char ***games);

#endif
