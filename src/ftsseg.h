/* ftsseg.h — an FTS5 index read straight from its %_data table
 * (ftsseg.c): term by term when it is one segment (what the champion
 * lists' build reads instead of fts5vocab, topk.c), and one term's rows
 * over all its segments (the searches of a set, search.c seg_rows). */
#ifndef RL_FTSSEG_H
#define RL_FTSSEG_H

#include "db.h"

#include <stdbool.h>
#include <stddef.h>

struct rl_fts_seg;

/* Opens full-text table `table`'s index (e.g. "rulings_fts_en") for
 * reading. *r is NULL (RL_OK) when the reader does not know the index for
 * one it can read: another structure or config version, more than 64
 * segments, a detail mode or option other than the schema's, no rows,
 * or no table; the caller then reads it through fts5vocab or FTS5.
 * FTS5's pending terms must have been written out first (a statement
 * savepoint does it). */
int rl_fts_seg_open(rl_db *db, const char *table, struct rl_fts_seg **r);

/* The next term, in the index's order (fts5vocab's): true with *term
 * (without FTS5's prefix byte, NUL-terminated, valid until the next
 * call); false at the end or on trouble (rl_fts_seg_status). What is
 * left of the previous term's rows is skipped. Only of an index of one
 * segment (no merge under way), and before any rl_fts_seg_seek: else
 * false, and rl_fts_seg_status says RL_FTS_SEG_DOUBT. */
bool rl_fts_seg_term(struct rl_fts_seg *r, const char **term);

/* The current term's next row: true with its rowid and its hits in
 * column 0 and 1 (hits[]); false at the term's end or on trouble. Rows
 * whose position list is empty are passed over (as fts5vocab does). */
bool rl_fts_seg_row(struct rl_fts_seg *r, long long *rid, unsigned hits[2]);

/* Goes to one term's rows (token: the term without FTS5's prefix byte):
 * *found false when the index does not hold it. Then rl_fts_seg_row or
 * rl_fts_seg_row_in reads them, and rl_fts_seg_status says whether what
 * was read can be used (not the totals check: the index is not read to
 * its end). Called again, goes to another term. Of an index of several
 * segments, the rows are the term's in all of them as FTS5 reads them:
 * by rowid, a newer segment's entry of a rowid over an older one's, and
 * none where the newest entry has no positions (a delete marker). */
int rl_fts_seg_seek(struct rl_fts_seg *r, const char *token, bool *found);

/* Rowids wanted, ascending (v[0..n)); i: the first not yet passed. */
struct rl_fts_want {
	const long long *v;
	size_t n, i;
};

/* rl_fts_seg_row, where only the rows of w have their hits read (*in
 * true); the others' rowids come with hits {0, 0}, their position lists
 * passed over unread. */
bool rl_fts_seg_row_in(struct rl_fts_seg *r, long long *rid, unsigned hits[2],
                       struct rl_fts_want *w, bool *in);

/* After rl_fts_seg_seek (again after each): rl_fts_seg_row_in(r, ..., w,
 * ...) then gives w's rows alone (*in true) — the others passed over
 * without a return, and not read at all where a segment's doclist index
 * (FTS5's "dlidx", the first rowid of each leaf of a long doclist) shows
 * a later leaf that begins at or before w's next rowid: the reader goes
 * there. So the rows it passes are not counted: the caller must know the
 * term's rows otherwise. A doclist index the reader does not know is not
 * used (its leaves are read); a leaf that does not begin as the index
 * says makes it doubt. w must be the one given to rl_fts_seg_row_in. */
int rl_fts_seg_only(struct rl_fts_seg *r, struct rl_fts_want *w);

/* Leaves passed over through a doclist index, and the jumps made, by
 * the process so far (tests, measurements). */
void rl_fts_seg_skipped(long long *leaves, long long *jumps);

/* The averages record: the table's rows, and its tokens in all columns
 * (what FTS5's xRowCount and xColumnTotalSize(-1) answer). */
void rl_fts_seg_averages(const struct rl_fts_seg *r, long long *rows,
                         long long *tokens);

/* RL_OK, RL_FTS_SEG_DOUBT when something was not as the reader expects
 * (a page it cannot parse, pages missing, totals that do not add up: the
 * caller must not use what it read), or an error (recorded in db). At the
 * end, the totals are checked too. */
/* An SQLite varint (as FTS5's records and pages write them) at p[0..n):
 * its size, 0 when it does not end there. */
size_t rl_fts_varint(const unsigned char *p, size_t n, unsigned long long *v);

enum { RL_FTS_SEG_DOUBT = -1000 };
int rl_fts_seg_status(struct rl_fts_seg *r);

void rl_fts_seg_close(struct rl_fts_seg *r);

#endif
