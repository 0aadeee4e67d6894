/* ftsseg.c — an FTS5 index of one segment, read straight from its %_data
 * table: every term in order, each term's rows with their hits per
 * column. The champion lists' build (topk.c) read the same through
 * fts5vocab 'row' and 'instance', and SQLite's per-row work there was a
 * fifth of a bulk load's CPU (bench/RESULTS.md).
 *
 * The format is FTS5's on-disk one (SQLite keeps it compatible; the
 * comments of ext/fts5/fts5_index.c describe it), for a table with
 * detail=full and no prefix index, in the version SQLite 3.40 writes
 * (config version 4, structure record without the "V2" header):
 *
 *   - id 10, the structure: a 4-byte cookie, varints nLevel, nSegment,
 *     the write counter, then per level nMerge, nSeg and per segment its
 *     id, first and last page. id 1, the averages: the rows, then the
 *     tokens of each column.
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
 *     flag), then its positions (varints, one a hit) in column 0, and a
 *     0x01 byte, a varint column number and the positions of each
 *     further column. A doclist, and a position list, go on over pages,
 *     split only between varints.
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

struct rl_fts_seg {
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
	unsigned long long hits[2], tokens[2];  /* read; the averages' */
	unsigned long long rows;                /* the averages' rows */
	/* one term's rows (rl_fts_seg_seek) */
	char *table;
	long long seg, first;
	bool one_term;
	int rc;
};

static bool doubt(struct rl_fts_seg *r)
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
static bool varint(struct rl_fts_seg *r, unsigned long long *v)
{
	size_t u = rl_fts_varint(r->a + r->pos, r->end - r->pos, v);
	if (!u)
		return doubt(r);
	r->pos += u;
	return true;
}

/* The offset of the page's next term (its footer's next entry), or
 * szleaf when no term is left on it. */
static bool next_term_at(struct rl_fts_seg *r, size_t *at)
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
static bool leave_page(struct rl_fts_seg *r)
{
	return r->page_rowid && r->rowid_off ? doubt(r) : true;
}

/* Reads the next leaf; false past the last one (r->eof) or on trouble. */
static bool next_page(struct rl_fts_seg *r)
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
static bool more(struct rl_fts_seg *r)
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
static bool poslist(struct rl_fts_seg *r, size_t n, unsigned hits[2])
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
static bool skip(struct rl_fts_seg *r, size_t n)
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

static bool row_of(struct rl_fts_seg *r, long long *rid, unsigned hits[2],
                   struct rl_fts_want *w, bool *in);

bool rl_fts_seg_row(struct rl_fts_seg *r, long long *rid, unsigned hits[2])
{
	return row_of(r, rid, hits, NULL, NULL);
}

bool rl_fts_seg_row_in(struct rl_fts_seg *r, long long *rid, unsigned hits[2],
                       struct rl_fts_want *w, bool *in)
{
	return row_of(r, rid, hits, w, in);
}

/* The next row; with w, the hits of a rowid w holds only (*in), the
 * others' position lists passed over. */
static bool row_of(struct rl_fts_seg *r, long long *rid, unsigned hits[2],
                   struct rl_fts_want *w, bool *in)
{
	while (!r->rc && r->in_term) {
		/* the next rowid: here, or at the top of a later page; a term
		 * here, or the last page's end, ends the term's rows */
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
		unsigned long long v, sz;
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
		if (!varint(r, &sz) || sz >> 1 > SIZE_MAX / 2)
			return false;
		if (w) {
			while (w->i < w->n && w->v[w->i] < r->rid)
				w->i++;
			*in = w->i < w->n && w->v[w->i] == r->rid;
			/* a delete flag on an entry with positions: not a
			 * segment's sole state as this reader knows it */
			if (sz >> 1 && (sz & 1))
				return doubt(r);
		}
		if (w && !*in) {
			if (!skip(r, (size_t)(sz >> 1)))
				return false;
			hits[0] = hits[1] = 0;
			if (sz >> 1 == 0)
				continue;
			*rid = r->rid;
			return true;
		}
		if (!poslist(r, (size_t)(sz >> 1), hits))
			return false;
		if (sz >> 1 == 0)
			continue;       /* an empty entry: not a row of the term */
		if (!hits[0] && !hits[1])
			return doubt(r);
		r->hits[0] += hits[0];
		r->hits[1] += hits[1];
		*rid = r->rid;
		return true;
	}
	return false;
}

bool rl_fts_seg_term(struct rl_fts_seg *r, const char **term)
{
	long long rid;
	unsigned h[2];
	while (r->in_term && rl_fts_seg_row(r, &rid, h))
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

int rl_fts_seg_status(struct rl_fts_seg *r)
{
	if (r->rc)
		return r->rc;
	/* every token of the averages is a hit somewhere (tokens at the same
	 * position, a stem's forms, add hits and no tokens) */
	if (r->eof && !r->one_term &&
	    (r->hits[0] < r->tokens[0] || r->hits[1] < r->tokens[1]))
		return RL_FTS_SEG_DOUBT;
	return RL_OK;
}

void rl_fts_seg_close(struct rl_fts_seg *r)
{
	if (!r)
		return;
	sqlite3_finalize(r->pages);
	free(r->term);
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

/* The one segment of a structure record: its id and pages. */
static bool one_segment(const unsigned char *p, size_t n, long long *seg,
                        long long *first, long long *last)
{
	/* the cookie; FTS5's V2 structure begins ff 00 00 01 */
	if (n < 4 || (p[0] == 0xFF && !p[1] && !p[2] && p[3] == 0x01))
		return false;
	size_t o = 4, u;
	unsigned long long nlevel, nseg, wc, found = 0;
#define NEXT(v) do { if (!(u = rl_fts_varint(p + o, n - o, &(v)))) return false; \
		o += u; } while (0)
	NEXT(nlevel);
	NEXT(nseg);
	NEXT(wc);
	if (nseg != 1 || nlevel > 64)
		return false;
	for (unsigned long long l = 0; l < nlevel; l++) {
		unsigned long long merge, k;
		NEXT(merge);
		NEXT(k);
		if (k > 1 || merge)
			return false;
		for (unsigned long long i = 0; i < k; i++) {
			unsigned long long id, f, z;
			NEXT(id);
			NEXT(f);
			NEXT(z);
			*seg = (long long)id;
			*first = (long long)f;
			*last = (long long)z;
			found++;
		}
	}
#undef NEXT
	return o == n && found == 1 && *seg >= 1 && *seg <= 0xFFFF &&
	       *first == 1 && *last >= *first && *last < (1LL << 31);
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
	long long seg = 0, first = 0, last = 0;
	if (sn < 0 || (size_t)sn >= sizeof buf ||
	    !one_segment(buf, (size_t)sn, &seg, &first, &last))
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
	r->seg = seg;
	r->first = first;
	if (!(r->table = strdup(table))) {
		free(r);
		return RL_ENOMEM;
	}
	r->tokens[0] = tok[0];
	r->tokens[1] = tok[1];
	r->id = (seg << 37) + first;
	r->last = (seg << 37) + last;
	snprintf(sql, sizeof sql, "SELECT id, block FROM %s_data WHERE id"
	         " BETWEEN ?1 AND ?2 ORDER BY id", table);
	if (!(r->pages = rl_db_prepare(db, sql))) {
		free(r->table);
		free(r);
		return RL_EINTERNAL;
	}
	sqlite3_bind_int64(r->pages, 1, r->id);
	sqlite3_bind_int64(r->pages, 2, r->last);
	if (!next_page(r) && r->eof)
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

int rl_fts_seg_seek(struct rl_fts_seg *r, const char *token, bool *found)
{
	*found = false;
	if (r->rc)
		return r->rc;
	r->one_term = true;
	size_t tl = strlen(token);
	char *key = malloc(tl + 1);
	if (!key)
		return RL_ENOMEM;
	key[0] = '0';
	memcpy(key + 1, token, tl);
	/* the leaf where the term would begin: %_idx holds, per leaf that
	 * has a term, a prefix of its first term (greater than the leaf
	 * before's last), and its page number shifted left by one (the low
	 * bit: a doclist index follows) */
	char sql[256];
	snprintf(sql, sizeof sql, "SELECT pgno FROM %s_idx WHERE segid = ?1"
	         " AND term <= ?2 ORDER BY term DESC LIMIT 1", r->table);
	sqlite3_stmt *st = rl_db_prepare(r->db, sql);
	if (!st) {
		free(key);
		return RL_EINTERNAL;
	}
	sqlite3_bind_int64(st, 1, r->seg);
	sqlite3_bind_blob(st, 2, key, (int)tl + 1, SQLITE_STATIC);
	int s = sqlite3_step(st);
	long long pg = s == SQLITE_ROW ? sqlite3_column_int64(st, 0) >> 1 : 0;
	bool none = s == SQLITE_DONE;
	if (s != SQLITE_ROW && s != SQLITE_DONE)
		r->rc = rl_db_sqlite_fail(r->db, s, "lists");
	sqlite3_finalize(st);
	if (r->rc || none) {
		free(key);
		return r->rc;   /* none: before the index's first term */
	}
	long long id = (r->seg << 37) + pg;
	if (pg < r->first || id > r->last) {
		free(key);
		doubt(r);
		return r->rc;
	}
	sqlite3_reset(r->pages);
	sqlite3_bind_int64(r->pages, 1, id);
	r->id = id;
	r->eof = r->in_term = false;
	r->tlen = 0;
	if (next_page(r)) {
		/* before the leaf's first term: an earlier term's rows */
		r->pos = r->end;
		r->page_rowid = false;
		if (r->end == r->szleaf)
			doubt(r);       /* %_idx names a leaf without a term */
	} else {
		doubt(r);
	}
	while (!r->rc) {
		const char *t;
		if (!rl_fts_seg_term(r, &t))
			break;
		size_t m = r->tlen < tl + 1 ? r->tlen : tl + 1;
		int c = memcmp(r->term, key, m);
		if (c == 0)
			c = (r->tlen > tl + 1) - (r->tlen < tl + 1);
		if (c == 0) {
			*found = true;
			break;
		}
		/* past it, or the leaf's last term before it: not held */
		if (c > 0 || r->end == r->szleaf) {
			r->in_term = false;
			break;
		}
	}
	free(key);
	return r->rc;
}
