/* check.c — rl_check(): is the database whole and true to itself?
 *
 * SQLite's own checks (PRAGMA integrity_check, foreign_key_check), then
 * the full-text tables, then rulings' invariants. All of it reads only,
 * in one snapshot, so that a published copy on a read-only mount can be
 * checked, and an import going on neither waits for the check nor
 * confuses it.
 *
 * The full-text tables: FTS5's 'integrity-check' command is an INSERT,
 * which a read-only connection may not run (SQLite 3.40), and which would
 * hold the write lock for as long as it takes. What it verifies for an
 * external-content table is done here instead, read-only: every ruling of
 * the table's language is tokenized again with the table's own tokenizer,
 * and each (ruling, column, position, token) is summed into a checksum per
 * ruling; the index is walked whole through fts5vocab (which reads every
 * segment) and summed the same way; the two must agree ruling by ruling,
 * and so must the token counts FTS5 keeps for ranking (the %_docsize
 * table and the totals record). */
#include "db.h"
#include "ftsseg.h"
#include "stemtok.h"
#include "util.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct checker {
	rl_db *db;
	void (*problem)(void *ctx, const char *message);
	void *ctx;
	size_t n;
};

static void report(struct checker *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void report(struct checker *c, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	c->n++;
	c->problem(c->ctx, buf);
}

/* Runs sql and reports each row as format, with the row's text columns
 * as its arguments (at most four). */
static int report_rows(struct checker *c, const char *sql, const char *fmt)
{
	sqlite3_stmt *st = rl_db_prepare(c->db, sql);
	if (!st)
		return RL_EINTERNAL;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *v[4] = { "", "", "", "" };
		for (int i = 0; i < sqlite3_column_count(st) && i < 4; i++) {
			const char *t = (const char *)sqlite3_column_text(st, i);
			v[i] = t ? t : "NULL";
		}
		/* fmt is one of the literals of invariants[] below */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		report(c, fmt, v[0], v[1], v[2], v[3]);
#pragma GCC diagnostic pop
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? RL_OK : rl_db_sqlite_fail(c->db, rc, "check");
}

/* ---- a map of ruling ids to sums -------------------------------------- */

struct entry {
	long long id;       /* 0: empty slot (rowids here are > 0) */
	uint64_t content, index;
	long long size[2], docsize[2];
	bool in_content, in_index, in_docsize;
};

struct map {
	struct entry *v;
	size_t n, cap;
};

static struct entry *lookup(struct map *m, long long id)
{
	if ((m->n + 1) * 2 > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 1024;
		struct entry *v = calloc(cap, sizeof *v);
		if (!v)
			return NULL;
		for (size_t i = 0; i < m->cap; i++)
			if (m->v[i].id) {
				size_t k = (size_t)m->v[i].id * 0x9E3779B97F4A7C15u & (cap - 1);
				while (v[k].id)
					k = (k + 1) & (cap - 1);
				v[k] = m->v[i];
			}
		free(m->v);
		m->v = v;
		m->cap = cap;
	}
	size_t k = (size_t)id * 0x9E3779B97F4A7C15u & (m->cap - 1);
	while (m->v[k].id && m->v[k].id != id)
		k = (k + 1) & (m->cap - 1);
	if (!m->v[k].id) {
		m->v[k].id = id;
		m->n++;
	}
	return &m->v[k];
}

/* One instance of a token: FNV-1a over column, position and token, mixed
 * (splitmix64) so that sums of them do not cancel. */
static uint64_t token_hash(int col, long long pos, const char *tok, int n)
{
	uint64_t h = 14695981039346656037u;
	h = (h ^ (uint64_t)col) * 1099511628211u;
	h = (h ^ (uint64_t)pos) * 1099511628211u;
	for (int i = 0; i < n; i++)
		h = (h ^ (unsigned char)tok[i]) * 1099511628211u;
	h ^= h >> 30;
	h *= 0xBF58476D1CE4E5B9u;
	h ^= h >> 27;
	h *= 0x94D049BB133111EBu;
	return h ^ (h >> 31);
}

/* ---- tokenizing the content as FTS5 does ------------------------------ */

struct tokens {
	struct entry *e;
	int col;
	long long pos;      /* FTS5's size of the column so far */
};

static int on_token(void *ctx, int tflags, const char *tok, int n, int start,
                    int end)
{
	struct tokens *t = ctx;
	/* fts5_storage.c: a token that is not colocated (or the first one)
	 * takes the next position; tokens are cut at 32768 bytes */
	if (!(tflags & FTS5_TOKEN_COLOCATED) || t->pos == 0)
		t->pos++;
	if (n > 32768)
		n = 32768;
	t->e->content += token_hash(t->col, t->pos - 1, tok, n);
	return SQLITE_OK;
}

/* The tokenizer a table declares (tokenize = 'rl_stem en'), created. */
static int table_tokenizer(struct checker *c, const char *table,
                           fts5_tokenizer *methods, Fts5Tokenizer **tok)
{
	sqlite3_stmt *st = rl_db_prepare(c->db, "SELECT sql FROM sqlite_schema"
	                                 " WHERE name = ?1");
	if (!st)
		return RL_EINTERNAL;
	rl_bind_text(st, 1, table);
	char *args = NULL;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *sql = (const char *)sqlite3_column_text(st, 0);
		const char *p = sql ? strstr(sql, "tokenize") : NULL;
		p = p ? strchr(p, '\'') : NULL;
		const char *q = p ? strchr(p + 1, '\'') : NULL;
		if (q)
			args = rl_strndup(p + 1, (size_t)(q - p - 1));
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return rl_db_sqlite_fail(c->db, rc, "check");
	if (rc == SQLITE_DONE)
		return rl_db_fail(c->db, RL_EINTERNAL, "the full-text table %s is "
		                  "missing (a copy made without the rulings_fts "
		                  "extension, as sqlite3's .clone makes): 'rulings "
		                  "reindex' makes it again from the rulings", table);
	if (!args)
		return rl_db_fail(c->db, RL_EINTERNAL, "%s: no tokenizer declared",
		                  table);
	/* split on blanks: a name and its arguments */
	const char *argv[8];
	int argc = 0;
	for (char *s = strtok(args, " "); s && argc < 8; s = strtok(NULL, " "))
		argv[argc++] = s;
	fts5_api *api = rl_fts5_api(c->db->h);
	void *udata = NULL;
	rc = !api || argc == 0 ? SQLITE_ERROR
	     : api->xFindTokenizer(api, argv[0], &udata, methods);
	if (rc == SQLITE_OK)
		rc = methods->xCreate(udata, argv + 1, argc - 1, tok);
	free(args);
	return rc == SQLITE_OK ? RL_OK
	       : rl_db_fail(c->db, rc == SQLITE_NOMEM ? RL_ENOMEM : RL_EINTERNAL,
	                    "%s: cannot create its tokenizer", table);
}

static int content_sums(struct checker *c, const char *table, struct map *m,
                        long long totals[3])
{
	fts5_tokenizer methods;
	Fts5Tokenizer *tok = NULL;
	int rc = table_tokenizer(c, table, &methods, &tok);
	if (rc)
		return rc;
	char sql[128];
	snprintf(sql, sizeof sql, "SELECT rowid, title, body FROM %s", table);
	sqlite3_stmt *st = rl_db_prepare(c->db, sql);
	if (!st) {
		methods.xDelete(tok);
		return RL_EINTERNAL;
	}
	int step;
	while ((step = sqlite3_step(st)) == SQLITE_ROW && !rc) {
		struct entry *e = lookup(m, sqlite3_column_int64(st, 0));
		if (!e) {
			rc = RL_ENOMEM;
			break;
		}
		e->in_content = true;
		totals[0]++;
		for (int col = 0; col < 2 && !rc; col++) {
			struct tokens t = { e, col, 0 };
			const char *text = (const char *)sqlite3_column_text(st, col + 1);
			int n = sqlite3_column_bytes(st, col + 1);
			int trc = methods.xTokenize(tok, &t, FTS5_TOKENIZE_DOCUMENT,
			                            text ? text : "", n, on_token);
			if (trc != SQLITE_OK)
				rc = trc == SQLITE_NOMEM ? RL_ENOMEM
				     : rl_db_fail(c->db, RL_EINTERNAL, "%s: cannot "
				                  "tokenize ruling %lld", table, e->id);
			e->size[col] = t.pos;
			totals[col + 1] += t.pos;
		}
	}
	sqlite3_finalize(st);
	methods.xDelete(tok);
	if (!rc && step != SQLITE_DONE && step != SQLITE_ROW)
		rc = rl_db_sqlite_fail(c->db, step, table);
	return rc;
}

/* The index, walked whole: an error reading it is a problem found, not a
 * failure of the check. */
static int index_sums(struct checker *c, const char *table, struct map *m,
                      bool *unreadable)
{
	char sql[256];
	snprintf(sql, sizeof sql, "DROP TABLE IF EXISTS temp.rl_check_vocab;"
	         "CREATE VIRTUAL TABLE temp.rl_check_vocab USING fts5vocab(main,"
	         " %s, 'instance')", table);
	int rc = rl_db_exec(c->db, sql);
	if (rc)
		return rc;
	sqlite3_stmt *st = rl_db_prepare(c->db, "SELECT term, doc, col = 'body',"
	                                 " offset FROM temp.rl_check_vocab");
	if (!st)
		return RL_EINTERNAL;
	int step;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		struct entry *e = lookup(m, sqlite3_column_int64(st, 1));
		if (!e) {
			rc = RL_ENOMEM;
			break;
		}
		e->in_index = true;
		e->index += token_hash(sqlite3_column_int(st, 2),
		                       sqlite3_column_int64(st, 3),
		                       (const char *)sqlite3_column_text(st, 0),
		                       sqlite3_column_bytes(st, 0));
	}
	sqlite3_finalize(st);
	if (!rc && step != SQLITE_DONE) {
		if ((step & 0xFF) == SQLITE_NOMEM)
			return RL_ENOMEM;
		report(c, "%s: its index cannot be read (%s); 'rulings reindex' "
		       "rebuilds it", table, sqlite3_errstr(step));
		*unreadable = true;
	}
	return rc ? rc : rl_db_exec(c->db, "DROP TABLE temp.rl_check_vocab");
}

static int docsizes(struct checker *c, const char *table, struct map *m,
                    long long totals[3], bool *bad_totals)
{
	char sql[160];
	snprintf(sql, sizeof sql, "SELECT id, sz FROM %s_docsize", table);
	sqlite3_stmt *st = rl_db_prepare(c->db, sql);
	if (!st)
		return RL_EINTERNAL;
	int step, rc = RL_OK;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		struct entry *e = lookup(m, sqlite3_column_int64(st, 0));
		if (!e) {
			rc = RL_ENOMEM;
			break;
		}
		e->in_docsize = true;
		const unsigned char *p = sqlite3_column_blob(st, 1);
		size_t n = (size_t)sqlite3_column_bytes(st, 1), k;
		for (int col = 0; col < 2; col++) {
			unsigned long long v = 0;
			k = p ? rl_fts_varint(p, n, &v) : 0;
			e->docsize[col] = k ? (long long)v : -1;
			p += k;
			n -= k;
		}
	}
	sqlite3_finalize(st);
	if (!rc && step != SQLITE_DONE)
		rc = rl_db_sqlite_fail(c->db, step, table);
	if (rc)
		return rc;
	/* the totals record (rowid 1 of %_data): rows, then tokens by column */
	snprintf(sql, sizeof sql, "SELECT block FROM %s_data WHERE id = 1", table);
	st = rl_db_prepare(c->db, sql);
	if (!st)
		return RL_EINTERNAL;
	step = sqlite3_step(st);
	long long have[3] = { 0, 0, 0 };
	if (step == SQLITE_ROW) {
		const unsigned char *p = sqlite3_column_blob(st, 0);
		size_t n = (size_t)sqlite3_column_bytes(st, 0);
		for (int i = 0; i < 3 && p; i++) {
			unsigned long long v = 0;
			size_t k = rl_fts_varint(p, n, &v);
			have[i] = k ? (long long)v : -1;
			p += k;
			n -= k;
		}
	}
	sqlite3_finalize(st);
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return rl_db_sqlite_fail(c->db, step, table);
	*bad_totals = memcmp(have, totals, sizeof have) != 0;
	return RL_OK;
}

enum { SHOWN = 10 };     /* rulings named per table and kind of problem */

static int check_table(struct checker *c, const char *table)
{
	struct map m = {0};
	long long totals[3] = { 0, 0, 0 };
	bool unreadable = false, bad_totals = false;
	int rc = content_sums(c, table, &m, totals);
	if (!rc)
		rc = index_sums(c, table, &m, &unreadable);
	if (!rc)
		rc = docsizes(c, table, &m, totals, &bad_totals);
	size_t counts[4] = { 0, 0, 0, 0 };
	static const char *const what[4] = {
		"is not in its index",
		"is in its index with text it does not have",
		"is in its index but not in the table's language, or not at all",
		"has token counts for ranking that its text does not give",
	};
	for (size_t i = 0; i < m.cap && !rc; i++) {
		struct entry *e = &m.v[i];
		if (!e->id)
			continue;
		int kind = -1;
		if (e->in_content && !e->in_index && !unreadable &&
		    (e->size[0] || e->size[1]))
			kind = 0;
		else if (e->in_content && e->in_index && !unreadable &&
		         e->content != e->index)
			kind = 1;
		else if (!e->in_content && (e->in_index || e->in_docsize))
			kind = 2;
		else if (e->in_content && (!e->in_docsize ||
		         e->docsize[0] != e->size[0] || e->docsize[1] != e->size[1]))
			kind = 3;
		if (kind < 0)
			continue;
		if (counts[kind]++ < SHOWN)
			report(c, "%s: ruling %lld %s; 'rulings reindex' rebuilds it",
			       table, e->id, what[kind]);
	}
	for (int k = 0; k < 4; k++)
		if (counts[k] > SHOWN)
			report(c, "%s: %zu more rulings that %s", table,
			       counts[k] - SHOWN, what[k]);
	if (!rc && bad_totals)
		report(c, "%s: the totals it keeps for ranking differ from its "
		       "rulings' text; 'rulings reindex' rebuilds them", table);
	free(m.v);
	return rc;
}

/* ---- rulings' invariants ---------------------------------------------- */

static const struct {
	const char *sql, *fmt;
} invariants[] = {
	{ "SELECT id, title FROM rulings r WHERE NOT EXISTS (SELECT 1"
	  " FROM ruling_sources s WHERE s.ruling_id = r.id) ORDER BY id",
	  "ruling %s ('%s') has no source: no document lists it" },
	{ "SELECT f.id, f.ruling_id, f.target_id FROM refs f"
	  " JOIN rulings t ON t.id = f.target_id WHERE t.withdrawn_at IS NOT NULL"
	  " ORDER BY f.id",
	  "reference %s of ruling %s points at ruling %s, which is withdrawn" },
	{ "SELECT f.id, f.ruling_id, f.target_id FROM refs f"
	  " WHERE f.target_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM rulings t"
	  " WHERE t.id = f.target_id) ORDER BY f.id",
	  "reference %s of ruling %s points at ruling %s, which does not exist;"
	  " 'rulings reindex' clears it (the reference left unresolved)" },
	{ "SELECT id, name, name_fold, rl_fold(name) FROM tags"
	  " WHERE name_fold IS NOT rl_fold(name) ORDER BY id",
	  "tag %s ('%s'): its folded name is '%s', not '%s'; 'rulings reindex' "
	  "recomputes it" },
	{ "SELECT id, qualifier, qual_fold, rl_fold(qualifier) FROM tags"
	  " WHERE qual_fold IS NOT rl_fold(qualifier) ORDER BY id",
	  "tag %s (qualifier '%s'): its folded qualifier is '%s', not '%s'; "
	  "'rulings reindex' recomputes it" },
	{ "SELECT id, key, rl_key(key) FROM rulings WHERE key IS NOT rl_key(key)"
	  " ORDER BY id",
	  "ruling %s: its key '%s' is not one this rulings makes ('%s'); "
	  "'rulings reindex' recomputes it" },
	{ "SELECT concept_id, term, term_fold, rl_key_loose(term)"
	  " FROM concept_terms WHERE term_fold IS NOT rl_key_loose(term)"
	  " ORDER BY concept_id, term",
	  "thesaurus concept %s, term '%s': its key is '%s', not '%s'; "
	  "'rulings reindex' recomputes it" },
	{ "SELECT ruling_id, alias_fold, rl_key_loose(alias_fold)"
	  " FROM ruling_aliases WHERE alias_fold IS NOT rl_key_loose(alias_fold)"
	  " ORDER BY ruling_id",
	  "ruling %s: its alias '%s' is not one this rulings makes ('%s'); "
	  "'rulings reindex' recomputes it" },
};

/* The triggers that keep the full-text tables true under other programs'
 * writes (schema/008-identity.sql). */
static const char triggers_sql[] =
	"SELECT t.name FROM (SELECT 'rulings_fts_insert' AS name"
	" UNION ALL SELECT 'rulings_fts_update' UNION ALL"
	" SELECT 'rulings_fts_delete') t WHERE NOT EXISTS (SELECT 1"
	" FROM sqlite_schema s WHERE s.type = 'trigger' AND s.name = t.name)";

static int check_all(struct checker *c)
{
	int rc = report_rows(c, "SELECT integrity_check FROM pragma_integrity_check"
	                     " WHERE integrity_check <> 'ok'",
	                     "integrity_check: %s");
	if (!rc)
		/* (a row left by a DELETE without foreign keys on: reindex
		 * does what the key's ON DELETE says) */
		rc = report_rows(c, "SELECT CASE WHEN k.rowid IS NULL"
		                 " THEN 'a ' || k.\"table\" || ' row'"
		                 " ELSE k.\"table\" || ' row ' || k.rowid END,"
		                 " k.parent, CASE l.on_delete WHEN 'CASCADE' THEN"
		                 " '; ''rulings reindex'' deletes it, as a DELETE"
		                 " with PRAGMA foreign_keys = ON would have'"
		                 " WHEN 'SET NULL' THEN '; ''rulings reindex'' clears"
		                 " the reference, as a DELETE with PRAGMA"
		                 " foreign_keys = ON would have' ELSE '' END"
		                 " FROM pragma_foreign_key_check k"
		                 " LEFT JOIN pragma_foreign_key_list(k.\"table\") l"
		                 " ON l.id = k.fkid AND l.seq = 0",
		                 "%s refers to a %s row that does not exist%s");
	int v = c->db->info.version;
	if (!rc && v >= 8)
		rc = report_rows(c, triggers_sql, "the trigger %s is missing: other "
		                 "programs' writes to rulings would leave the "
		                 "full-text tables stale; 'rulings reindex' "
		                 "restores it");
	for (size_t i = 0; i < 4 && !rc; i++)
		rc = check_table(c, rl_fts_tables[i]);
	for (size_t i = 0; i < sizeof invariants / sizeof *invariants && !rc; i++)
		rc = report_rows(c, invariants[i].sql, invariants[i].fmt);
	if (!rc && v < rl_schema_latest())
		report(c, "the schema is version %d, older than this rulings' (%d): "
		       "'rulings reindex' upgrades it", v, rl_schema_latest());
	return rc;
}

int rl_check(rl_db *db, void (*problem)(void *ctx, const char *message),
             void *ctx, size_t *problems)
{
	struct checker c = { db, problem, ctx, 0 };
	*problems = 0;
	int rc = rl_read_begin(db);
	if (!rc)
		rc = rl_read_end(db, check_all(&c));
	*problems = c.n;
	if (rc == RL_ENOMEM)
		rl_db_fail(db, RL_ENOMEM, "out of memory");
	return rc;
}
