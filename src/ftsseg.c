/* ftsseg.c — an FTS5 index read straight from its %_data table: of one
 * segment, every term in order, each term's rows with their hits per
 * column (the champion lists' build, topk.c, read the same through
 * fts5vocab 'row' and 'instance', and SQLite's per-row work there was a
 * fifth of a bulk load's CPU: bench/RESULTS.md); of one segment or
 * several, one term's rows (search.c seg_rows), each segment's doclist
 * read by a cursor of its own and merged as FTS5 merges them.
 *
 * The format is FTS5's on-disk one (SQLite keeps it compatible; the
 * comments of ext/fts5/fts5_index.c describe it), for a table with
 * detail=full and no prefix index, in the version SQLite 3.40 writes
 * (config version 4, structure record without the "V2" header):
 *
 *   - id 10, the structure: a 4-byte cookie, varints nLevel, nSegment,
 *     the write counter, then per level nMerge, nSeg and per segment
 *     (oldest first) its id, first and last page. Level 0 is the newest.
 *     A merge under way (nMerge > 0: that many of the level's first
 *     segments being merged into the next level's last) deletes the
 *     leaves it copied and writes the rest of the leaf it stopped in as
 *     the input segment's new first page (the term whole there); an
 *     input it used up is left with pages 0, 0. id 1, the averages: the
 *     rows, then the tokens of each column.
 *   - %_idx: per segment, per leaf with a term, a prefix of that term
 *     (page 1's: empty) and the page number << 1 (+ 1: a doclist index).
 *   - A segment's leaf pages are rows (segid << 37) + pgno, from its
 *     first to its last page. A leaf: a 2-byte offset of its first rowid
 *     when one comes before its first term (else 0), a 2-byte offset of
 *     its footer (szLeaf), the data, and the footer: the offset of each
 *     term on the page, as varints, each but the first a delta.
 *   - The data: terms in order, each followed by its doclist. The first
 *     term on a page is whole (varint size, bytes); the others are
 *     prefix-compressed against the one before (varints shared, new,
 *     then the new bytes). A term is FTS5's key: '0' then the token.
 *   - A doclist: rowids, each with its position list. A term's first
 *     rowid and a page's first rowid are whole, the others deltas. A
 *     position list: a varint 2 * its size in bytes (+ 1: a delete
 *     flag: older segments' entries of the rowid are to be passed
 *     over; on an entry with positions, the row was deleted and written
 *     again in one transaction), then its positions (varints, one a hit)
 *     in column 0, and a 0x01 byte, a varint column number and the
 *     positions of each further column. A doclist, and a position list, go on over pages,
 *     split only between varints.
 *   - A doclist index (FTS5's "dlidx"), of the last term on a leaf whose
 *     doclist goes on over at least 4 leaves without a term (%_idx's low
 *     bit on that leaf's row): rows (segid << 37) + (1 << 36) + (height
 *     << 31) + n, n from the term's leaf on. A page of height 0: a flags
 *     byte (0: the index's only page, 1: one of several), varints: a
 *     leaf, its first rowid (whole), then one for each following leaf —
 *     0 when no rowid begins on it, else its first rowid's delta. Pages
 *     above (height 1 on) index those pages; not read here: the pages of
 *     height 0 follow one another, each going on at the leaf after the
 *     one before's last. Used by rl_fts_seg_only to go to the leaf of a
 *     wanted rowid, the leaves between not read.
 *
 * Anything else — a page that does not parse, pages missing, rowids out
 * of order, a third column, fewer hits than the averages record counts
 * tokens — makes the reader doubt (RL_FTS_SEG_DOUBT), and the caller
 * reads the index through fts5vocab instead: never a wrong list. */

#include "ftsseg.h"
#include "util.h"

#include <sqlite3.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One segment's reader (a cursor): its leaves in order, the term it is
 * in, the row it is at. */
struct seg {
	rl_db *db;
	sqlite3_stmt *pages;    /* the segment's leaves, by page */
	long long id, last;     /* the next leaf's rowid; the last's */
	/* the leaf being read */
	const unsigned char *a;
	size_t n, szleaf;       /* its size, its footer's offset */
	size_t rowid_off;       /* its first rowid before any term, or 0 */
	size_t pos, end;        /* where the reader is; where its region
	                           ends: the next term, or szleaf */
	size_t fpos, toff;      /* the footer read so far; its last term */
	bool page_term;         /* a term was read on this page */
	bool page_rowid;        /* nothing read on it yet but position data */
	bool eof;               /* past the last leaf */
	/* the term */
	char *term;
	size_t tlen, tcap;
	bool in_term, first_row;
	long long rid;
	unsigned long long sz;  /* the entry's size field (rl_fts_seg_seek's
	                           merge: read, its position list not yet) */
	bool head, next;        /* an entry read; to be passed before the next */
	unsigned long long hits[2];             /* read */
	long long segid, first;
	/* rl_fts_seg_only: the term's leaf when %_idx says a doclist index
	 * (FTS5's dlidx) follows it and the term is that leaf's last (else
	 * 0); the leaves after it that begin with a rowid of the term, and
	 * that rowid, ascending (dl[0..ndl)); dk: the first not passed */
	long long dlpg;
	struct dl { long long pg, rid; } *dl;
	size_t ndl, dk, dlcap;
	struct rl_fts_want *w;  /* only w's rows wanted (rl_fts_seg_only) */
	int rc;
};

/* The reader: one cursor per segment of the structure record, newest
 * first (FTS5's order: level 0 first, and in a level the last segment
 * first). */
struct rl_fts_seg {
	rl_db *db;
	char *table;
	struct seg *s;
	size_t ns;
	sqlite3_stmt *idx;      /* a term's leaf in one segment (%_idx) */
	unsigned long long tokens[2], rows;     /* the averages' */
	bool one_term;          /* rl_fts_seg_seek called */
	struct seg *run;        /* merged: the last row's cursor, when no
	                           other held its rowid */
	unsigned long long bound;       /* the others' next rowid then */
	bool walk;              /* the term walk can read it: one segment,
	                           from its first page, no merge under way */
	bool only;              /* rl_fts_seg_only: w's rows alone */
	sqlite3_stmt *dli;      /* a doclist index's pages (rl_fts_seg_only) */
	int rc;
};

/* Leaves passed over through a doclist index, and jumps made
 * (rl_fts_seg_skipped): process-wide, for tests and measurements. */
static long long n_skipped, n_jumps;

static bool doubt(struct seg *r)
{
	if (!r->rc)
		r->rc = RL_FTS_SEG_DOUBT;
	return false;
}

size_t rl_fts_varint(const unsigned char *p, size_t n, unsigned long long *v)
{
	unsigned long long x = 0;
	for (size_t i = 0; i < n && i < 9; i++) {
		if (i == 8) {
			*v = (x << 8) | p[i];
			return 9;
		}
		x = (x << 7) | (p[i] & 0x7F);
		if (!(p[i] & 0x80)) {
			*v = x;
			return i + 1;
		}
	}
	return 0;
}

/* A varint of the region being read. */
static bool varint(struct seg *r, unsigned long long *v)
{
	size_t u = rl_fts_varint(r->a + r->pos, r->end - r->pos, v);
	if (!u)
		return doubt(r);
	r->pos += u;
	return true;
}

/* The offset of the page's next term (its footer's next entry), or
 * szleaf when no term is left on it. */
static bool next_term_at(struct seg *r, size_t *at)
{
	if (r->fpos >= r->n) {
		*at = r->szleaf;
		return true;
	}
	unsigned long long v;
	size_t u = rl_fts_varint(r->a + r->fpos, r->n - r->fpos, &v);
	bool first = r->toff == 0;
	if (!u || v > r->szleaf || (!first && v == 0))
		return doubt(r);
	r->fpos += u;
	r->toff += (size_t)v;
	if (r->toff < 4 || r->toff >= r->szleaf || r->toff < r->pos)
		return doubt(r);
	*at = r->toff;
	return true;
}

/* Leaves the page: its first rowid, when the header has one, was read
 * where it says. */
static bool leave_page(struct seg *r)
{
	return r->page_rowid && r->rowid_off ? doubt(r) : true;
}

/* Reads the next leaf; false past the last one (r->eof) or on trouble. */
static bool next_page(struct seg *r)
{
	if (r->rc)
		return false;
	if (r->id > r->last) {
		r->eof = true;
		return false;
	}
	int s = sqlite3_step(r->pages);
	if (s != SQLITE_ROW) {
		if (s == SQLITE_DONE)
			return doubt(r);        /* pages missing */
		r->rc = rl_db_sqlite_fail(r->db, s, "lists");
		return false;
	}
	if (sqlite3_column_int64(r->pages, 0) != r->id)
		return doubt(r);
	r->id++;
	const unsigned char *a = sqlite3_column_blob(r->pages, 1);
	size_t n = (size_t)sqlite3_column_bytes(r->pages, 1);
	if (!a || n < 4)
		return doubt(r);
	r->a = a;
	r->n = n;
	r->rowid_off = (size_t)a[0] << 8 | a[1];
	r->szleaf = (size_t)a[2] << 8 | a[3];
	r->pos = 4;
	r->fpos = r->szleaf;
	r->toff = 0;
	r->page_term = false;
	r->page_rowid = true;
	if (r->szleaf < 4 || r->szleaf > n)
		return doubt(r);
	if (!next_term_at(r, &r->end))
		return false;
	if (r->rowid_off && (r->rowid_off < 4 || r->rowid_off >= r->end))
		return doubt(r);
	return true;
}

/* At the end of the region inside a row's entry: the entry goes on at
 * the top of the next page, before any term. */
static bool more(struct seg *r)
{
	while (r->pos == r->end) {
		if (r->end != r->szleaf || !leave_page(r))
			return doubt(r);
		if (!next_page(r))
			return r->eof ? doubt(r) : false;
	}
	return true;
}

/* The hits in each column of a position list of n bytes. */
static bool poslist(struct seg *r, size_t n, unsigned hits[2])
{
	unsigned col = 0;
	bool want_col = false;          /* after a 0x01: a column number */
	hits[0] = hits[1] = 0;
	while (n) {
		if (r->pos == r->end && !more(r))
			return false;
		size_t k = r->end - r->pos < n ? r->end - r->pos : n;
		const unsigned char *p = r->a + r->pos, *e = p + k;
		while (p < e) {
			if (want_col) {
				unsigned long long c;
				size_t u = rl_fts_varint(p, (size_t)(e - p), &c);
				if (!u || c <= col || c > 1)
					return doubt(r);
				col = (unsigned)c;
				want_col = false;
				p += u;
			} else if (*p == 0x01) {
				want_col = true;
				p++;
			} else if (*p == 0) {
				return doubt(r);
			} else {
				/* a position: a varint of at most 5 bytes */
				const unsigned char *q = p;
				while (p < e && (*p & 0x80) && p - q < 4)
					p++;
				if (p == e || (*p & 0x80))
					return doubt(r);
				p++;
				hits[col]++;
			}
		}
		r->pos += k;
		n -= k;
	}
	return want_col ? doubt(r) : true;
}

/* Passes over a position list of n bytes (it goes on over pages, split
 * only between varints). */
static bool skip(struct seg *r, size_t n)
{
	while (n) {
		if (r->pos == r->end && !more(r))
			return false;
		size_t k = r->end - r->pos < n ? r->end - r->pos : n;
		r->pos += k;
		n -= k;
	}
	return true;
}

/* rl_fts_seg_only, between two entries of the term: when no rowid w
 * still wants is left (none at or after its next), the term's end; when
 * a later leaf begins with a rowid at or before w's next (the doclist
 * index says), the reader goes to the last such leaf, the rows before
 * it passed over unread (all lower than its first rowid, so none w
 * wants). That leaf must begin where the index says: a whole rowid at
 * its header's offset, the one the index gives, after the last read;
 * else the reader doubts. */
static void jump(struct seg *r)
{
	struct rl_fts_want *w = r->w;
	if (!w || !r->in_term || r->rc)
		return;
	if (w->i >= w->n) {
		r->in_term = false;
		return;
	}
	if (r->dk >= r->ndl)
		return;
	long long t = w->v[w->i];
	long long next = r->id - (r->segid << 37);      /* the next leaf */
	size_t k = r->dk;
	while (k < r->ndl && r->dl[k].pg < next)
		k++;
	r->dk = k;
	if (k >= r->ndl || r->dl[k].rid > t)
		return;
	while (k + 1 < r->ndl && r->dl[k + 1].rid <= t)
		k++;
	r->dk = k + 1;
	long long id = (r->segid << 37) + r->dl[k].pg;
	if (r->dl[k].rid <= r->rid && !r->first_row) {
		doubt(r);
		return;
	}
	n_skipped += r->dl[k].pg - next;
	n_jumps++;
	if (id != r->id) {
		sqlite3_reset(r->pages);
		sqlite3_bind_int64(r->pages, 1, id);
		r->id = id;
	}
	if (!next_page(r)) {
		doubt(r);
		return;
	}
	unsigned long long v;
	if (!r->rowid_off || !rl_fts_varint(r->a + r->rowid_off,
	                                    r->end - r->rowid_off, &v) ||
	    v != (unsigned long long)r->dl[k].rid) {
		doubt(r);
		return;
	}
	r->pos = r->rowid_off;
	r->page_rowid = true;
}

/* The term's next entry: its rowid (r->rid) and its size field (r->sz),
 * its position list not yet read (r->head); false at the term's end
 * (r->in_term false) or on trouble. */
static bool entry(struct seg *r)
{
	r->head = false;
	if (r->w)
		jump(r);
	if (r->rc || !r->in_term)
		return false;
	/* the next rowid: here, or at the top of a later page; a term here,
	 * or the last page's end, ends the term's rows */
	while (r->pos == r->end) {
		if (r->end != r->szleaf) {
			r->in_term = false;
			return false;
		}
		if (!leave_page(r))
			return false;
		if (!next_page(r)) {
			r->in_term = false;
			return false;
		}
	}
	size_t at = r->pos;
	unsigned long long v;
	const unsigned char *p = r->a + at;
	if (!r->page_rowid && !r->first_row && r->end - at >= 2 &&
	    p[0] < 0x80 && p[1] < 0x80) {
		/* a rowid delta and a size field of one byte each */
		v = p[0];
		if (v == 0 || v > (1ULL << 62) - (unsigned long long)r->rid)
			return doubt(r);
		r->rid += (long long)v;
		r->sz = p[1];
		r->pos = at + 2;
		r->head = true;
		return true;
	}
	if (!varint(r, &v))
		return false;
	if (r->page_rowid) {
		/* the page's first rowid: whole, where its header says */
		if (at != r->rowid_off || (!r->first_row &&
		                           v <= (unsigned long long)r->rid))
			return doubt(r);
		r->page_rowid = false;
		r->rid = (long long)v;
	} else if (r->first_row) {
		r->rid = (long long)v;
	} else {
		if (v == 0 || v > (1ULL << 62) - (unsigned long long)r->rid)
			return doubt(r);
		r->rid += (long long)v;
	}
	if (v > 1ULL << 62)
		return doubt(r);
	r->first_row = false;
	if (r->pos == r->end && !more(r))
		return false;
	if (!varint(r, &r->sz))
		return false;
	if (r->sz >> 1 > SIZE_MAX / 2)
		return doubt(r);
	r->head = true;
	return true;
}

/* The entry's position list: its hits in each column (hits), or passed
 * over unread (hits NULL). */
static bool body(struct seg *r, unsigned hits[2])
{
	size_t n = (size_t)(r->sz >> 1);
	r->head = false;
	if (!hits)
		return skip(r, n);
	if (!poslist(r, n, hits))
		return false;
	if (n && !hits[0] && !hits[1])
		return doubt(r);
	r->hits[0] += hits[0];
	r->hits[1] += hits[1];
	return true;
}

/* Whether w holds rowid rid (w's rowids before it passed). */
static bool wanted(struct rl_fts_want *w, long long rid)
{
	while (w->i < w->n && w->v[w->i] < rid)
		w->i++;
	return w->i < w->n && w->v[w->i] == rid;
}

/* The rows passed over in one page's bytes (rl_fts_seg_row_in with a want
 * list, one segment): from r->pos, entries that lie whole before r->end
 * (rowid delta, size field, position list skipped), bounds checked by
 * pointer compares, no helper call for a varint of one byte. The next
 * row with positions whose rowid w does not hold: true, r->pos past it.
 * Entries without positions (not rows) are passed. False, r->pos and
 * r->rid at the entry it stopped before, when that one is for the
 * general path (entry, body): a row w holds, one that goes on over the
 * page's end, a page's or a term's first rowid, a rowid delta of 0 or
 * out of range, the region's end, a rowid at or after limit (merged: the
 * other segments' next rowid). With all (rl_fts_seg_only), it goes on
 * past the rows it passes, to one of those stops. */
static inline bool pass(struct seg *r, struct rl_fts_want *w,
                        unsigned long long limit, bool all)
{
	if (r->page_rowid || r->first_row || !r->in_term || r->rc)
		return false;
	const unsigned char *p = r->a + r->pos, *e = r->a + r->end;
	unsigned long long id = (unsigned long long)r->rid;
	unsigned long long next = w->i < w->n ? (unsigned long long)w->v[w->i]
	                                      : ~0ULL;
	bool row = false;
	while (p < e) {
		const unsigned char *q = p;
		unsigned long long d, sz;
		size_t u;
		if (*q < 0x80)
			d = *q++;
		else if ((u = rl_fts_varint(q, (size_t)(e - q), &d)))
			q += u;
		else
			break;
		if (q == e)
			break;
		if (*q < 0x80)
			sz = *q++;
		else if ((u = rl_fts_varint(q, (size_t)(e - q), &sz)))
			q += u;
		else
			break;
		if (d == 0 || d > (1ULL << 62) - id || sz >> 1 > (size_t)(e - q) ||
		    id + d >= limit)
			break;
		if (id + d >= next) {
			/* w's rowids before it passed (as wanted() does) */
			while (w->i < w->n && (unsigned long long)w->v[w->i] < id + d)
				w->i++;
			next = w->i < w->n ? (unsigned long long)w->v[w->i] : ~0ULL;
			if (next == id + d)
				break;
		}
		id += d;
		p = q + (size_t)(sz >> 1);
		if (sz >> 1) {
			row = true;
			if (!all)
				break;
		}
	}
	r->pos = (size_t)(p - r->a);
	r->rid = (long long)id;
	return row;
}

/* One segment's next row; with w, the hits of a rowid w holds only (*in),
 * the others' position lists passed over. An entry without positions
 * (the delete flag's, in a segment of its own) is no row; one with
 * positions is one, with the delete flag or without (as FTS5 reads it:
 * a row deleted and written again in one transaction). */
static bool row_of(struct seg *r, long long *rid, unsigned hits[2],
                   struct rl_fts_want *w, bool *in)
{
	while (entry(r)) {
		bool read = w ? (*in = wanted(w, r->rid)) : true;
		if (!body(r, read ? hits : NULL))
			return false;
		if (!(r->sz >> 1))
			continue;       /* an empty entry: not a row of the term */
		if (!read)
			hits[0] = hits[1] = 0;
		*rid = r->rid;
		return true;
	}
	return false;
}

/* merged: the cursor of the smallest rowid among the segments' next
 * entries (each cursor moved first if its last entry was passed), the
 * older segments' entries of that rowid passed over; NULL at the term's
 * end or on trouble. r->run: that cursor, when no other held its rowid,
 * and r->bound the others' smallest next rowid. */
static struct seg *merge_head(struct rl_fts_seg *r)
{
	struct seg *win = NULL;
	r->run = NULL;
	for (size_t i = 0; i < r->ns; i++) {
		struct seg *c = &r->s[i];
		if (c->next) {
			c->next = false;
			if (!entry(c) && c->rc)
				return NULL;
		}
		if (c->head && (!win || c->rid < win->rid))
			win = c;        /* of equal rowids, the newest */
	}
	if (!win)
		return NULL;
	bool same = false;
	for (struct seg *c = win + 1; c < r->s + r->ns; c++)
		if (c->head && c->rid == win->rid) {
			if (!body(c, NULL))
				return NULL;
			c->next = true;
			same = true;
		}
	if (!same) {
		r->bound = ~0ULL;
		for (size_t i = 0; i < r->ns; i++) {
			struct seg *o = &r->s[i];
			if (o != win && o->head &&
			    (unsigned long long)o->rid < r->bound)
				r->bound = (unsigned long long)o->rid;
		}
		r->run = win;
	}
	return win;
}

/* The term's next row over several segments, as FTS5's reader merges
 * them (fts5_index.c, fts5MultiIterNew and fts5MultiIterDoCompare): by
 * rowid, and of the entries of one rowid the newest segment's (the
 * others' passed over), which is no row when it has no positions (a
 * delete marker: the row was deleted, or lost the term, since). */
static bool merged(struct rl_fts_seg *r, long long *rid, unsigned hits[2],
                   struct rl_fts_want *w, bool *in)
{
	for (;;) {
		struct seg *win = NULL, *c = r->run;
		if (c && c->next) {
			/* the last row's cursor alone moved, the others' heads
			 * all at r->bound or after: its rows before that are
			 * the next ones (no other segment holds them; those
			 * not wanted passed by rl_fts_seg_row_in) */
			c->next = false;
			if (!entry(c) && c->rc)
				return false;
			if (c->head && (unsigned long long)c->rid < r->bound)
				win = c;
		}
		if (!win && !(win = merge_head(r)))
			return false;
		win->next = true;
		bool read = w ? (*in = wanted(w, win->rid)) : true;
		if (!body(win, read ? hits : NULL))
			return false;
		if (!(win->sz >> 1))
			continue;
		if (!read)
			hits[0] = hits[1] = 0;
		*rid = win->rid;
		return true;
	}
}

bool rl_fts_seg_row(struct rl_fts_seg *r, long long *rid, unsigned hits[2])
{
	return rl_fts_seg_row_in(r, rid, hits, NULL, NULL);
}

/* rl_fts_seg_row_in but for the rows pass() passes over (out of line:
 * the call of a row passed over saves no registers for it). */
static __attribute__((noinline)) bool row_in(struct rl_fts_seg *r,
                                             long long *rid, unsigned hits[2],
                                             struct rl_fts_want *w, bool *in)
{
	if (r->ns == 1)
		return row_of(&r->s[0], rid, hits, w, in);
	return r->one_term && merged(r, rid, hits, w, in);
}

/* rl_fts_seg_row_in of rl_fts_seg_only: w's rows alone, the others
 * passed over in pass() without a return, or not read at all where a
 * doclist index lets a segment go to a later leaf (jump). */
static bool row_only(struct rl_fts_seg *r, long long *rid, unsigned hits[2],
                     struct rl_fts_want *w, bool *in)
{
	for (;;) {
		if (w->i >= w->n)
			return false;   /* no rowid wanted is left */
		struct seg *c = r->ns == 1 ? &r->s[0] : r->run && r->run->next ?
		                r->run : NULL;
		if (c) {
			jump(c);
			pass(c, w, r->ns == 1 ? ~0ULL : r->bound, true);
		}
		if (!row_in(r, rid, hits, w, in))
			return false;
		if (*in)
			return true;
	}
}

bool rl_fts_seg_row_in(struct rl_fts_seg *r, long long *rid, unsigned hits[2],
                       struct rl_fts_want *w, bool *in)
{
	if (r->rc)
		return false;
	/* one segment's rows, or, of several, those of the last row's
	 * segment before the others' next (merged) */
	struct seg *c = r->ns == 1 ? &r->s[0] : r->run && r->run->next ?
	                r->run : NULL;
	if (r->only)
		return row_only(r, rid, hits, w, in);
	if (w && c && pass(c, w, r->ns == 1 ? ~0ULL : r->bound, false)) {
		*rid = c->rid;
		hits[0] = hits[1] = 0;
		*in = false;
		return true;
	}
	return row_in(r, rid, hits, w, in);
}

/* The segment's next term (rl_fts_seg_term). */
static bool term_of(struct seg *r, const char **term)
{
	long long rid;
	unsigned h[2];
	while (r->in_term && row_of(r, &rid, h, NULL, NULL))
		;
	if (r->rc || r->eof)
		return false;
	if (r->pos != r->end || r->end == r->szleaf || !leave_page(r))
		return doubt(r);        /* data that is not a term's */
	r->page_rowid = false;
	size_t next;
	if (!next_term_at(r, &next))
		return false;
	r->end = next;
	unsigned long long pre = 0, nn;
	if ((r->page_term && !varint(r, &pre)) || !varint(r, &nn))
		return false;
	if (pre > r->tlen || nn > r->end - r->pos || nn > 0x10000)
		return doubt(r);
	/* after the term before it, in memcmp order */
	const unsigned char *d = r->a + r->pos;
	size_t ol = r->tlen - (size_t)pre, m = ol < nn ? ol : (size_t)nn;
	int c = m ? memcmp(r->term + pre, d, m) : 0;  /* the first: no term yet */
	if (c > 0 || (c == 0 && nn <= ol))
		return doubt(r);
	size_t len = (size_t)pre + (size_t)nn;
	if (!rl_grow(&r->term, &r->tcap, len + 1, 1)) {
		r->rc = RL_ENOMEM;
		return false;
	}
	memcpy(r->term + pre, d, (size_t)nn);
	r->term[len] = '\0';
	r->tlen = len;
	r->pos += (size_t)nn;
	r->page_term = true;
	/* the main index's key ('0' and the token), text without NUL */
	if (len < 2 || r->term[0] != '0' || memchr(r->term, '\0', len))
		return doubt(r);
	r->in_term = true;
	r->first_row = true;
	*term = r->term + 1;
	return true;
}

bool rl_fts_seg_term(struct rl_fts_seg *r, const char **term)
{
	if (r->rc)
		return false;
	if (!r->walk || r->one_term) {
		r->rc = RL_FTS_SEG_DOUBT;       /* several segments */
		return false;
	}
	return term_of(&r->s[0], term);
}

int rl_fts_seg_status(struct rl_fts_seg *r)
{
	if (r->rc)
		return r->rc;
	for (size_t i = 0; i < r->ns; i++)
		if (r->s[i].rc)
			return r->s[i].rc;
	/* every token of the averages is a hit somewhere (tokens at the same
	 * position, a stem's forms, add hits and no tokens) */
	const struct seg *c = &r->s[0];
	if (r->walk && !r->one_term && c->eof &&
	    (c->hits[0] < r->tokens[0] || c->hits[1] < r->tokens[1]))
		return RL_FTS_SEG_DOUBT;
	return RL_OK;
}

void rl_fts_seg_close(struct rl_fts_seg *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->ns; i++) {
		sqlite3_finalize(r->s[i].pages);
		free(r->s[i].term);
		free(r->s[i].dl);
	}
	sqlite3_finalize(r->idx);
	sqlite3_finalize(r->dli);
	free(r->s);
	free(r->table);
	free(r);
}

/* One blob or text of a one-row query on table's shadow tables into
 * buf (NUL-terminated, cut at cap): its size, -1 for no row, -2 on an
 * error. */
static long long one_value(rl_db *db, const char *sql, unsigned char *buf,
                           size_t cap, int *rc)
{
	sqlite3_stmt *st = rl_db_prepare(db, sql);
	if (!st) {
		*rc = RL_EINTERNAL;
		return -2;
	}
	long long n = -1;
	int s = sqlite3_step(st);
	if (s == SQLITE_ROW) {
		const void *p = sqlite3_column_blob(st, 0);
		size_t m = (size_t)sqlite3_column_bytes(st, 0);
		n = (long long)m;
		if (m >= cap)
			m = cap - 1;
		if (p)
			memcpy(buf, p, m);
		buf[m] = '\0';
	} else if (s != SQLITE_DONE) {
		*rc = rl_db_sqlite_fail(db, s, "lists");
		n = -2;
	}
	sqlite3_finalize(st);
	return n;
}

/* At most this many segments are read (each a cursor and a statement of
 * its own, each row a pass over them): FTS5's automerge keeps an index
 * of incremental imports to a few per level (SQLite's defaults: 4 merged
 * at a time, 16 at most in a level); more go through FTS5. */
enum { SEG_MAX = 64 };

struct seg_ref {
	long long id, first, last;
};

/* The segments of a structure record (the legacy format; a V2 one,
 * contentless_delete's, is not read), newest first: levels from 0, and
 * in a level its segments from the last (the newest) to the first.
 * Segments left empty by a merge under way (first and last page 0) are
 * left out. *walk: one segment, from its first page, no merge under
 * way (what the term walk reads). False when the record is not one this
 * reader knows. */
static bool structure(const unsigned char *p, size_t n, struct seg_ref *v,
                      size_t *nv, bool *walk)
{
	/* the cookie; FTS5's V2 structure begins ff 00 00 01 */
	if (n < 4 || (p[0] == 0xFF && !p[1] && !p[2] && p[3] == 0x01))
		return false;
	size_t o = 4, u;
	unsigned long long nlevel, nseg, wc, total = 0, merges = 0;
#define NEXT(x) do { if (!(u = rl_fts_varint(p + o, n - o, &(x)))) return false; \
		o += u; } while (0)
	NEXT(nlevel);
	NEXT(nseg);
	NEXT(wc);
	if (nlevel > 64)
		return false;
	*nv = 0;
	for (unsigned long long l = 0; l < nlevel; l++) {
		unsigned long long merge, k;
		NEXT(merge);
		NEXT(k);
		/* a merge under way writes into the next level */
		if (merge > k || (merge && l + 1 >= nlevel))
			return false;
		merges += merge;
		size_t base = *nv;
		for (unsigned long long i = 0; i < k; i++) {
			unsigned long long id, f, z;
			NEXT(id);
			NEXT(f);
			NEXT(z);
			total++;
			if (!f && !z)
				continue;
			if (id < 1 || id > 0xFFFF || f < 1 || z < f ||
			    z >= 1ULL << 31 || *nv == SEG_MAX)
				return false;
			for (size_t j = 0; j < *nv; j++)
				if (v[j].id == (long long)id)
					return false;
			v[(*nv)++] = (struct seg_ref){ (long long)id,
				(long long)f, (long long)z };
		}
		for (size_t a = base, b = *nv; a + 1 < b; a++, b--) {
			struct seg_ref t = v[a];
			v[a] = v[b - 1];
			v[b - 1] = t;
		}
	}
#undef NEXT
	*walk = *nv == 1 && total == 1 && !merges && v[0].first == 1;
	return o == n && total == nseg && *nv >= 1;
}

int rl_fts_seg_open(rl_db *db, const char *table, struct rl_fts_seg **out)
{
	*out = NULL;
	char sql[256];
	unsigned char buf[1024];
	int rc = RL_OK;
	/* declared as the schema does: two columns, detail=full, no prefix
	 * index (schema/011, 012) */
	snprintf(sql, sizeof sql, "SELECT sql FROM sqlite_master WHERE"
	         " type = 'table' AND name = '%s'", table);
	long long dn = one_value(db, sql, buf, sizeof buf, &rc);
	if (dn < 0 || (size_t)dn >= sizeof buf)
		return rc;
	const char *decl = (const char *)buf;
	if (!strstr(decl, "fts5(title, body,") || strstr(decl, "detail") ||
	    strstr(decl, "prefix") || strstr(decl, "columnsize") ||
	    strstr(decl, "contentless"))
		return RL_OK;
	snprintf(sql, sizeof sql, "SELECT v FROM %s_config WHERE k = 'version'",
	         table);
	if (one_value(db, sql, buf, sizeof buf, &rc) < 0 || rc ||
	    strcmp((const char *)buf, "4") != 0)
		return rc;
	snprintf(sql, sizeof sql, "SELECT block FROM %s_data WHERE id = 10",
	         table);
	long long sn = one_value(db, sql, buf, sizeof buf, &rc);
	struct seg_ref v[SEG_MAX];
	size_t nv = 0;
	bool walk = false;
	if (sn < 0 || (size_t)sn >= sizeof buf ||
	    !structure(buf, (size_t)sn, v, &nv, &walk))
		return rc;
	/* the averages: rows, then the tokens of each of the two columns */
	snprintf(sql, sizeof sql, "SELECT block FROM %s_data WHERE id = 1", table);
	long long an = one_value(db, sql, buf, sizeof buf, &rc);
	unsigned long long rows = 0, tok[2] = { 0, 0 };
	size_t o = 0, u;
	if (an < 0 || (size_t)an >= sizeof buf)
		return rc;
	for (int i = 0; i < 3; i++, o += u)
		if (!(u = rl_fts_varint(buf + o, (size_t)an - o,
		                     i ? &tok[i - 1] : &rows)))
			return RL_OK;
	if (o != (size_t)an || rows == 0)
		return RL_OK;

	struct rl_fts_seg *r = calloc(1, sizeof *r);
	if (!r)
		return RL_ENOMEM;
	r->db = db;
	r->rows = rows;
	r->tokens[0] = tok[0];
	r->tokens[1] = tok[1];
	r->walk = walk;
	if (!(r->table = strdup(table)) ||
	    !(r->s = calloc(nv, sizeof *r->s))) {
		rl_fts_seg_close(r);
		return RL_ENOMEM;
	}
	r->ns = nv;
	snprintf(sql, sizeof sql, "SELECT id, block FROM %s_data WHERE id"
	         " BETWEEN ?1 AND ?2 ORDER BY id", table);
	for (size_t i = 0; i < nv; i++) {
		struct seg *c = &r->s[i];
		c->db = db;
		c->segid = v[i].id;
		c->first = v[i].first;
		c->id = (v[i].id << 37) + v[i].first;
		c->last = (v[i].id << 37) + v[i].last;
		if (!(c->pages = rl_db_prepare(db, sql))) {
			rl_fts_seg_close(r);
			return RL_EINTERNAL;
		}
		sqlite3_bind_int64(c->pages, 1, c->id);
		sqlite3_bind_int64(c->pages, 2, c->last);
	}
	/* the leaf where a term would begin: %_idx holds, per leaf that has
	 * a term, a prefix of its first term (greater than the leaf
	 * before's last), and its page number shifted left by one (the low
	 * bit: a doclist index follows) */
	snprintf(sql, sizeof sql, "SELECT pgno FROM %s_idx WHERE segid = ?1"
	         " AND term <= ?2 ORDER BY term DESC LIMIT 1", table);
	if (!(r->idx = rl_db_prepare(db, sql))) {
		rl_fts_seg_close(r);
		return RL_EINTERNAL;
	}
	if (walk && !next_page(&r->s[0]) && r->s[0].eof)
		r->rc = RL_FTS_SEG_DOUBT;
	*out = r;
	return RL_OK;
}

void rl_fts_seg_averages(const struct rl_fts_seg *r, long long *rows,
                         long long *tokens)
{
	*rows = (long long)r->rows;
	*tokens = (long long)(r->tokens[0] + r->tokens[1]);
}

/* Segment c's rows of the term whose key is key[0..kl) (rl_fts_seg_seek):
 * *found false when it does not hold it. */
static int seek_one(struct rl_fts_seg *r, struct seg *c, const char *key,
                    size_t kl, bool *found)
{
	*found = false;
	c->in_term = c->head = c->next = false;
	if (c->rc)
		return c->rc;
	sqlite3_bind_int64(r->idx, 1, c->segid);
	sqlite3_bind_blob(r->idx, 2, key, (int)kl, SQLITE_STATIC);
	int s = sqlite3_step(r->idx);
	/* as FTS5 seeks (fts5SegIterSeekInit): page 1 when %_idx has no
	 * term at or before it, and the segment's first page when %_idx
	 * names one before it (a merge under way deleted the leaves it had
	 * copied, and wrote the rest of its first leaf as a new first one;
	 * %_idx keeps the old leaves' terms) */
	long long pg = s == SQLITE_ROW ? sqlite3_column_int64(r->idx, 0) >> 1 : 1;
	/* the low bit: the leaf's last term has a doclist index, not used
	 * of a segment a merge under way trimmed */
	bool dl = s == SQLITE_ROW && (sqlite3_column_int64(r->idx, 0) & 1) &&
	          c->first == 1;
	if (s != SQLITE_ROW && s != SQLITE_DONE)
		c->rc = rl_db_sqlite_fail(r->db, s, "lists");
	sqlite3_reset(r->idx);
	c->dlpg = 0;
	c->ndl = c->dk = 0;
	c->w = NULL;
	if (c->rc)
		return c->rc;
	if (pg < c->first)
		pg = c->first;
	long long id = (c->segid << 37) + pg;
	if (id > c->last) {
		doubt(c);
		return c->rc;
	}
	sqlite3_reset(c->pages);
	sqlite3_bind_int64(c->pages, 1, id);
	c->id = id;
	c->eof = false;
	c->tlen = 0;
	if (next_page(c)) {
		/* before the leaf's first term: an earlier term's rows */
		c->pos = c->end;
		c->page_rowid = false;
		if (c->end == c->szleaf)
			doubt(c);       /* %_idx names a leaf without a term */
	} else {
		doubt(c);
	}
	while (!c->rc) {
		const char *t;
		if (!term_of(c, &t))
			break;
		size_t m = c->tlen < kl ? c->tlen : kl;
		int cmp = memcmp(c->term, key, m);
		if (cmp == 0)
			cmp = (c->tlen > kl) - (c->tlen < kl);
		if (cmp == 0) {
			*found = true;
			/* the leaf's last term, on the leaf %_idx named */
			if (dl && c->end == c->szleaf &&
			    c->id - 1 == (c->segid << 37) + pg)
				c->dlpg = pg;
			break;
		}
		/* past it, or the leaf's last term before it: not held */
		if (cmp > 0 || c->end == c->szleaf) {
			c->in_term = false;
			break;
		}
	}
	return c->rc;
}

int rl_fts_seg_seek(struct rl_fts_seg *r, const char *token, bool *found)
{
	*found = false;
	int rc = rl_fts_seg_status(r);
	if (rc)
		return rc;
	r->one_term = true;
	r->only = false;
	r->run = NULL;
	size_t tl = strlen(token);
	char *key = malloc(tl + 1);
	if (!key)
		return RL_ENOMEM;
	key[0] = '0';
	memcpy(key + 1, token, tl);
	for (size_t i = 0; i < r->ns && !rc; i++) {
		bool f;
		rc = seek_one(r, &r->s[i], key, tl + 1, &f);
		r->s[i].next = f;       /* its first row read at the first call */
		*found |= f;
	}
	free(key);
	if (rc)
		*found = false;
	return rl_fts_seg_status(r);
}

/* Segment c's doclist index of its term (c->dlpg) into c->dl: its
 * pages of the lowest level (rows (segid << 37) + (1 << 36) + n from the
 * term's leaf on: the height, bits 31 to 35, 0), each a flags byte (0:
 * the only page; 1: one of several), the leaf of its first entry and
 * that entry's rowid, whole, then an entry per following leaf: 0 when
 * the leaf begins with no rowid (a position list goes on over all of
 * it), else its first rowid as a delta. A page that goes on where the
 * one before ended follows it; anything else ends the index (its leaves
 * are walked), and so does a page the reader does not know. */
static int load_dlidx(struct rl_fts_seg *r, struct seg *c)
{
	c->ndl = c->dk = 0;
	if (!c->dlpg)
		return RL_OK;
	if (!r->dli) {
		char sql[160];
		snprintf(sql, sizeof sql, "SELECT id, block FROM %s_data WHERE"
		         " id >= ?1 AND id < ?2 ORDER BY id", r->table);
		if (!(r->dli = rl_db_prepare(r->db, sql)))
			return RL_EINTERNAL;
	}
	long long base = (c->segid << 37) + (1LL << 36);
	sqlite3_bind_int64(r->dli, 1, base + c->dlpg);
	sqlite3_bind_int64(r->dli, 2, base + (1LL << 31));
	long long want = base + c->dlpg, pg = c->dlpg, rid = 0;
	long long lastpg = c->last - (c->segid << 37);
	int s = SQLITE_DONE, rc = RL_OK;
	bool ok = true, more = true;
	while (ok && more && (s = sqlite3_step(r->dli)) == SQLITE_ROW) {
		if (sqlite3_column_int64(r->dli, 0) != want)
			break;          /* another term's, or none */
		want++;
		const unsigned char *p = sqlite3_column_blob(r->dli, 1);
		size_t n = (size_t)sqlite3_column_bytes(r->dli, 1), o = 1, u;
		unsigned long long f, v;
		if (!p || n < 3 || p[0] > 1 ||
		    !(u = rl_fts_varint(p + o, n - o, &f)) ||
		    (o += u, !(u = rl_fts_varint(p + o, n - o, &v)))) {
			ok = false;
			break;
		}
		o += u;
		more = p[0] == 1;
		/* its first leaf: after the term's, or where the page
		 * before ended */
		bool first = c->ndl == 0;
		if ((first ? (long long)f <= pg : (long long)f != pg + 1) ||
		    v == 0 || (!first && v <= (unsigned long long)rid) ||
		    v > 1ULL << 62) {
			if (first)
				ok = false;
			break;
		}
		pg = (long long)f;
		rid = (long long)v;
		for (bool has = true;;) {
			if (pg > lastpg) {
				ok = false;
				break;
			}
			if (has && !rl_grow(&c->dl, &c->dlcap, c->ndl + 1,
			                    sizeof *c->dl)) {
				rc = RL_ENOMEM;
				ok = false;
				break;
			}
			if (has)
				c->dl[c->ndl++] = (struct dl){ pg, rid };
			if (o >= n)
				break;
			if (!(u = rl_fts_varint(p + o, n - o, &v)) ||
			    v > (1ULL << 62) - (unsigned long long)rid) {
				ok = false;
				break;
			}
			o += u;
			pg++;
			has = v != 0;
			rid += (long long)v;
		}
	}
	if (ok && more && s != SQLITE_ROW && s != SQLITE_DONE)
		rc = rl_db_sqlite_fail(r->db, s, "lists");
	sqlite3_reset(r->dli);
	if (!ok || rc)
		c->ndl = 0;     /* not known: the leaves are walked */
	return rc;
}

int rl_fts_seg_only(struct rl_fts_seg *r, struct rl_fts_want *w)
{
	int rc = rl_fts_seg_status(r);
	if (rc)
		return rc;
	if (!r->one_term)
		return RL_EINTERNAL;
	for (size_t i = 0; i < r->ns && !rc; i++) {
		struct seg *c = &r->s[i];
		rc = load_dlidx(r, c);
		c->w = w;
	}
	r->only = !rc;
	return rc;
}

void rl_fts_seg_skipped(long long *leaves, long long *jumps)
{
	*leaves = n_skipped;
	*jumps = n_jumps;
}
