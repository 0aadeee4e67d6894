/* topk.h — champion lists beside the full-text tables (topk.c): what
 * lets a one-word search prove its best rulings without scoring every
 * ruling that holds the word. */
#ifndef RL_TOPK_H
#define RL_TOPK_H

#include "db.h"

#include <stdbool.h>
#include <stddef.h>

/* The rows of a term's list, and the fewest rows a term must be in to
 * have one (below that FTS5 scores all its rows cheaply). */
enum { RL_TOPK_LIST = 512 };
/* A table is walked when its phrases' rows are at most this many times
 * the candidates (search.c fast_rows). */
enum { RL_TOPK_WALK = 128 };

/* ---- the store's side ---- */

/* Ruling id's text changed (edited, moved, removed) in this transaction. */
int rl_topk_note(rl_db *db, long long id);
/* The rulings waiting in temp.fts_todo are about to be indexed. */
int rl_topk_note_pending(rl_db *db);
/* After the full-text tables changed: rebuilds the lists when they have
 * drifted (see topk.c), else nothing. */
int rl_topk_refresh(rl_db *db);
/* rl_topk_refresh() in a transaction of its own, when a bulk load's last
 * commit left it to do (db->topk_later); RL_OK otherwise. */
int rl_topk_refresh_later(rl_db *db);
/* A bulk import begins: notes each full-text table's rows, so that its
 * last group can merge the indexes it has grown (rl_fts_merge_grown). */
void rl_fts_note_rows(rl_db *db);
/* With a bulk import's last group, after its rulings are indexed: each
 * full-text index whose rows have at least doubled since
 * rl_fts_note_rows() is merged into one segment (FTS5 'optimize'), as
 * `rulings reindex` leaves it; once per import. RL_OK when there is none. */
int rl_fts_merge_grown(rl_db *db);
/* Builds every list again (rulings reindex). */
int rl_topk_rebuild(rl_db *db);
/* The terms the thesaurus binds to games, as one string (*key, malloc'd):
 * when an import changes it, rl_topk_games() builds the game lists
 * again. */
int rl_topk_thesaurus_key(rl_db *db, char **key);
int rl_topk_games(rl_db *db);

/* ---- the search's side ---- */

/* A phrase's list of one game's rows in one table (topk_glists). */
struct rl_topk_glist {
	bool listed;            /* built (else its rows are taken whole) */
	long long docs;         /* the game's rows holding it then */
	double tau;             /* 0: the list holds them all */
	double cut;             /* what a row of the game left out can weigh */
	bool big;               /* in topk_blists (schema 21), not topk_glists */
};

/* One phrase (a quoted string of one word) of the search's expression. */
struct rl_topk_phrase {
	char *word;             /* unquoted */
	char *raw;              /* as the expression writes it, quoted */
	char *term[4];          /* the word as each table's index holds it */
	bool listed[4];         /* the term has a list in that table */
	long long docs0[4];     /* rows holding it when the list was built */
	double tau[4];
	/* a thesaurus term of other games' concepts: it makes a ruling
	 * match only in these games (gid[0..ngid), each's list per table
	 * in gl[t]), though it scores in any ruling that holds it */
	bool restricted;
	long long *gid;
	size_t ngid;
	struct rl_topk_glist *gl[4];
	/* its list of the one game the search's filter keeps (rl_topk_game,
	 * k->fgid), per table */
	struct rl_topk_glist fl[4];
};

/* One full-text table's part of the search. */
struct rl_topk_table {
	bool wanted;            /* the search reads this table */
	bool listed;            /* only candidates are scored in it */
	bool walk;              /* its doclists walked, not each candidate
	                           sought (search.c) */
	double avgdl0;          /* its average row length at the build */
};

enum { RL_TOPK_AND = -1, RL_TOPK_OR = -2 };

/* A candidate met again (another list, another table) adds its tables. */
#define RL_CAND_UPSERT " ON CONFLICT (rid) DO UPDATE SET" \
	" tabs = tabs | excluded.tabs"


struct rl_topk {
	struct rl_topk_table t[4];      /* rl_fts_tables' order */
	struct rl_topk_phrase *ph;
	size_t nph, cph;
	int *prog;                      /* the expression, postfix: phrases'
	                                   indexes, RL_TOPK_AND, RL_TOPK_OR */
	size_t nprog, cprog;
	long long dirty;                /* rulings changed since the build */
	/* the whole expression was read: ph[] are its phrases, FTS5's
	 * phrase numbers (a plan may be made, and not usable, with no
	 * lists) */
	bool parsed;
	/* the one game a filter of the search keeps (--game): 0 none, or
	 * none whose lists are used (rl_topk_game) */
	long long fgid;
};

/* Whether the lists can answer the FTS5 expression match (quoted words,
 * each one term, joined by AND and OR with parentheses) in the tables
 * wanted[]: fills k; *usable false when they cannot (another form, or no
 * term of it has a list). games (query.h; NULL: none) says which phrases
 * make a ruling match only in some games. */
struct rl_phrase_games;
int rl_topk_plan(rl_db *db, const char *match,
                 const struct rl_phrase_games *games, const bool wanted[4],
                 struct rl_topk *k, bool *usable);
/* Fills temp.topk_cand (rid, tabs) with the first `take` rows of each
 * list, every row of a phrase without one, and the rulings changed since
 * they were built; tabs says which tables (bit t of table t, in
 * rl_fts_tables' order: en, fr, ru, xx) a ruling is a candidate of: a
 * list's rows are its table's, a changed ruling's are all four. Each
 * table seeks only its own (it sought every table's: `power`'s French
 * candidates of "Pouvoir" in the English index too). *bound is the best score
 * (bm25's, negated: higher is better) a ruling left out can have, -1 when
 * none can match (then the candidates hold every match); *least what that bound would be at the lists' ends;
 * *exhausted when a list ran out before take. */
/* The search keeps the rulings of game gid alone (a --game filter,
 * ANDed with the rest): each phrase's candidates in a table are read from
 * its list of that game's rows (topk_glists, or topk_blists for a game of
 * many rulings) when every listed phrase of each table read from lists
 * has one, and its bound is theirs. Reads which have one; k->fgid is gid
 * when they are used. */
int rl_topk_game(rl_db *db, struct rl_topk *k, long long gid);
int rl_topk_candidates(rl_db *db, struct rl_topk *k, size_t take,
                       double *bound, double *least, bool *exhausted);
void rl_topk_free(struct rl_topk *k);
/* Whether some phrase's count of rows in table t is known from the
 * lists (listed there, no ruling changed since the build): then rl_bm25()
 * scores it with those counts, and counts the others' rows (few: they
 * have no list) as bm25 does. A word widened to a rare term (`power`,
 * also "Pouvoir") was scored by bm25, which read the word's whole
 * doclist to count its rows. */
bool rl_topk_counted(const struct rl_topk *k, int t);

/* rl_bm25(table, w_0..w_{C-1}, n_0..n_{P-1}): FTS5's bm25() to the bit,
 * with each phrase's row count given (NULL: counted as bm25 does), not
 * read from its whole doclist (topk_bm25.c). On connection h. */
int rl_topk_bm25_register(sqlite3 *h);
/* bm25()'s steps, to the bit: a phrase's idf from the table's rows and
 * the phrase's, then a row's score from each of the n phrases' idf and
 * weighted hits in it (freq), its tokens (d) and the table's average. */
double rl_bm25_idf(long long rows, long long hit);
double rl_bm25_score(int n, const double *idf, const double *freq,
                     double d, double avgdl);
/* How many searches of set_rows scored the filter's rulings from the
 * index's doclist (search.c seg_rows), not through FTS5. */
long long rl_topk_seg_searches(void);
void rl_topk_count_seg(void);
/* Of those, how many left out rows that a widened word's condition of
 * games fails, by their ruling's game, before the rows statement. */
long long rl_topk_seg_games(void);
void rl_topk_count_seg_games(void);

/* How many one-word searches the lists answered, and how many fell back
 * to scoring every match, in this process (for tests and benchmarks). */
void rl_topk_counts(long long *fast, long long *fallback);
void rl_topk_count(bool fast);
/* How many searches the lists of a game answered for a --game filter
 * (rl_topk_game), in this process. */
long long rl_topk_game_searches(void);
void rl_topk_count_game(void);
/* How many totals of a word with --game or --kind the lists' counts per
 * game and kind answered (schema 18; search.c), in this process. */
long long rl_topk_facet_totals(void);
void rl_topk_count_facet(void);
/* How many searches scored only the rulings a filter keeps (a tag, a
 * kind: few; search.c set_rows), in this process. */
long long rl_topk_set_searches(void);
void rl_topk_count_set(void);
/* Whether the lists may be used: not when RULINGS_TOPK=off (tests compare
 * the two paths). */
bool rl_topk_enabled(void);

#endif
