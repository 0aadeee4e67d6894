/* export_xml.c — rulings as an XML interchange document
 * (schema/rulings.rng).
 *
 * The document is streamed with libxml2's xmlTextWriter, which escapes
 * every text and attribute value (no markup is pasted from strings), to a
 * sink: an export's output, or a file put in place by outfile.c (a reader
 * sees the old file or the new one, never half of one). Memory does not
 * grow with the number of rulings.
 *
 * XML 1.0 cannot carry the C0 control characters other than tab, line
 * feed and carriage return, nor U+FFFE and U+FFFF, not even as character
 * references; each is written as U+FFFD, the replacement character (real
 * data holds them: a Codex ruling has a U+0003). Everything else is
 * written as it is stored, so a file read back gives the same texts byte
 * for byte. */
#include "db.h"
#include "export.h"
#include "interchange.h"
#include "utf8.h"
#include "util.h"

#include <libxml/xmlwriter.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Statements, one per part of a ruling. */
enum {
	Q_RULING, Q_TAGS, Q_ALIASES, Q_REFS, Q_ERRATA, Q_SOURCES, Q_VERSIONS,
	NQ
};

static const char *const query_sql[NQ] = {
	[Q_RULING] =
	"SELECT r.kind, r.lang, g.name, r.key, r.rule, r.section, r.category,"
	" r.changed, r.date, r.author, r.withdrawn_at, r.title, r.body"
	" FROM rulings r LEFT JOIN games g ON g.id = r.game_id WHERE r.id = ?1",
	[Q_TAGS] =
	"SELECT t.name, t.qualifier FROM tags t WHERE t.id IN"
	" (SELECT tag_id FROM ruling_tags WHERE ruling_id = ?1)"
	" ORDER BY t.name_fold, t.qual_fold, t.id",
	[Q_ALIASES] =
	"SELECT alias_fold FROM ruling_aliases WHERE ruling_id = ?1"
	" ORDER BY alias_fold",
	[Q_REFS] =
	"SELECT kind, target FROM refs WHERE ruling_id = ?1 ORDER BY id",
	[Q_ERRATA] =
	"SELECT product, printing, document, page FROM errata"
	" WHERE ruling_id = ?1",
	[Q_SOURCES] =
	"SELECT d.title, i.path, s.line, d.date FROM ruling_sources s"
	" JOIN documents d ON d.id = s.document_id"
	" JOIN imports i ON i.id = s.import_id"
	" WHERE s.ruling_id = ?1 ORDER BY d.title, d.id",
	/* as rl_history(): every text, and the withdrawals */
	[Q_VERSIONS] =
	"SELECT i.imported_at, d.title, ifnull(c.change, 'baseline'),"
	" v.title, v.body, i.id AS o FROM ruling_versions v"
	" JOIN imports i ON i.id = v.import_id"
	" JOIN documents d ON d.id = i.document_id"
	" LEFT JOIN changes c ON c.ruling_id = v.ruling_id"
	"   AND c.import_id = v.import_id"
	" WHERE v.ruling_id = ?1"
	" UNION ALL"
	" SELECT i.imported_at, d.title, c.change, NULL, NULL, i.id"
	" FROM changes c JOIN imports i ON i.id = c.import_id"
	" JOIN documents d ON d.id = i.document_id"
	" WHERE c.ruling_id = ?1 AND c.change = 'withdrawn'"
	" ORDER BY 6",
};

static int write_cb(void *ctx, const char *buf, int len)
{
	struct export_xml_out *o = ctx;
	if (!o->err)
		o->err = o->sink->write(o->sink->ctx, buf, (size_t)len);
	return o->err ? -1 : len;
}

static int close_cb(void *ctx)
{
	(void)ctx;      /* the sink's owner closes it */
	return 0;
}

xmlOutputBufferPtr export_xml_output(struct export_xml_out *o)
{
	return xmlOutputBufferCreateIO(write_cb, close_cb, o, NULL);
}

struct writer {
	rl_db *db;
	xmlTextWriterPtr w;
	sqlite3_stmt *q[NQ];
	bool failed;    /* the writer reported an error */
	long long id;   /* the ruling being written, for messages */
};

static const xmlChar *X(const char *s)
{
	return (const xmlChar *)s;
}

/* The first character XML 1.0 cannot hold, or 0 when there is none; -1
 * when s is not UTF-8 (the database holds only UTF-8: a damaged one). */
static long bad_char(const char *s)
{
	size_t n = strlen(s);
	if (rl_utf8_valid(s, n) != n)
		return -1;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')
			return *p;
	/* U+FFFE and U+FFFF: EF BF BE, EF BF BF */
	for (const char *p = strstr(s, "\xEF\xBF"); p; p = strstr(p + 1, "\xEF\xBF"))
		if ((unsigned char)p[2] == 0xBE || (unsigned char)p[2] == 0xBF)
			return (unsigned char)p[2] == 0xBE ? 0xFFFE : 0xFFFF;
	return 0;
}

int export_xml_safe(const char *s, const char **out, char **owned)
{
	*out = s;
	*owned = NULL;
	long c = bad_char(s);
	if (c == 0)
		return RL_OK;
	if (c < 0)
		return RL_EDATA;
	struct rl_buf b = {0};
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r') {
			rl_buf_adds(&b, "\xEF\xBF\xBD");
		} else if (p[0] == 0xEF && p[1] == 0xBF &&
		           (p[2] == 0xBE || p[2] == 0xBF)) {
			rl_buf_adds(&b, "\xEF\xBF\xBD");
			p += 2;
		} else {
			rl_buf_addc(&b, (char)*p);
		}
	}
	if (!(*owned = rl_buf_take(&b)))
		return RL_ENOMEM;
	*out = *owned;
	return RL_OK;
}

/* s as XML can carry it (export_xml_safe()), with a message for a
 * failure. */
static int check(struct writer *x, const char *what, const char *s,
                 const char **out, char **owned)
{
	int rc = export_xml_safe(s, out, owned);
	if (rc == RL_EDATA)
		return rl_db_fail(x->db, RL_EDATA, "ruling %lld: its %s is not UTF-8",
		                  x->id, what);
	if (rc)
		return rl_db_fail(x->db, rc, "out of memory");
	return RL_OK;
}

/* Each writer call returns a negative number on failure. */
static void ok(struct writer *x, int r)
{
	if (r < 0)
		x->failed = true;
}

/* An attribute when the value is not NULL (nor empty, when skip_empty). */
static int attr(struct writer *x, const char *name, const char *value,
                bool skip_empty)
{
	if (!value || (skip_empty && !*value))
		return RL_OK;
	const char *v;
	char *owned;
	int rc = check(x, name, value, &v, &owned);
	if (!rc)
		ok(x, xmlTextWriterWriteAttribute(x->w, X(name), X(v)));
	free(owned);
	return rc;
}

static int column_attr(struct writer *x, const char *name, sqlite3_stmt *st,
                       int col, bool skip_empty)
{
	return attr(x, name, (const char *)sqlite3_column_text(st, col),
	            skip_empty);
}

/* <name>text</name> */
static int element(struct writer *x, const char *name, const char *text)
{
	text = text ? text : "";
	const char *v;
	char *owned;
	int rc = check(x, name, text, &v, &owned);
	if (!rc)
		ok(x, xmlTextWriterWriteElement(x->w, X(name), X(v)));
	free(owned);
	return rc;
}

/* Steps a statement bound to the ruling: RL_OK with *row set, or an
 * error. */
static int step(struct writer *x, sqlite3_stmt *st, bool *row)
{
	int s = sqlite3_step(st);
	*row = s == SQLITE_ROW;
	return s == SQLITE_ROW || s == SQLITE_DONE
	       ? RL_OK : rl_db_sqlite_fail(x->db, s, "export");
}

static sqlite3_stmt *bound(struct writer *x, int q)
{
	sqlite3_stmt *st = x->q[q];
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, x->id);
	return st;
}

static int tags(struct writer *x)
{
	sqlite3_stmt *st = bound(x, Q_TAGS);
	bool row;
	int rc;
	while (!(rc = step(x, st, &row)) && row) {
		ok(x, xmlTextWriterStartElement(x->w, X("tag")));
		rc = column_attr(x, "name", st, 0, false);
		if (!rc)
			rc = column_attr(x, "qualifier", st, 1, true);
		ok(x, xmlTextWriterEndElement(x->w));
		if (rc)
			break;
	}
	return rc;
}

static int aliases(struct writer *x)
{
	sqlite3_stmt *st = bound(x, Q_ALIASES);
	bool row;
	int rc;
	while (!(rc = step(x, st, &row)) && row)
		if ((rc = element(x, "alias", (const char *)sqlite3_column_text(st, 0))))
			break;
	return rc;
}

static int refs(struct writer *x)
{
	sqlite3_stmt *st = bound(x, Q_REFS);
	bool row;
	int rc;
	while (!(rc = step(x, st, &row)) && row) {
		ok(x, xmlTextWriterStartElement(x->w, X("ref")));
		rc = column_attr(x, "kind", st, 0, false);
		if (!rc)
			rc = column_attr(x, "target", st, 1, false);
		ok(x, xmlTextWriterEndElement(x->w));
		if (rc)
			break;
	}
	return rc;
}

static int errata(struct writer *x)
{
	sqlite3_stmt *st = bound(x, Q_ERRATA);
	bool row;
	int rc = step(x, st, &row);
	if (rc || !row)
		return rc;
	static const char *const names[] = { "product", "printing", "document",
	                                     "page" };
	ok(x, xmlTextWriterStartElement(x->w, X("errata")));
	for (int i = 0; i < 4 && !rc; i++)
		rc = column_attr(x, names[i], st, i, false);
	ok(x, xmlTextWriterEndElement(x->w));
	return rc;
}

static int sources(struct writer *x)
{
	sqlite3_stmt *st = bound(x, Q_SOURCES);
	bool row;
	int rc;
	while (!(rc = step(x, st, &row)) && row) {
		ok(x, xmlTextWriterStartElement(x->w, X("source")));
		rc = column_attr(x, "document", st, 0, false);
		if (!rc)
			rc = column_attr(x, "path", st, 1, false);
		if (!rc)
			ok(x, xmlTextWriterWriteFormatAttribute(x->w, X("line"), "%lld",
			        (long long)sqlite3_column_int64(st, 2)));
		if (!rc)
			rc = column_attr(x, "date", st, 3, false);
		ok(x, xmlTextWriterEndElement(x->w));
		if (rc)
			break;
	}
	return rc;
}

static int versions(struct writer *x)
{
	sqlite3_stmt *st = bound(x, Q_VERSIONS);
	bool row;
	int rc;
	while (!(rc = step(x, st, &row)) && row) {
		ok(x, xmlTextWriterStartElement(x->w, X("version")));
		rc = column_attr(x, "at", st, 0, false);
		if (!rc)
			rc = column_attr(x, "document", st, 1, false);
		if (!rc)
			rc = column_attr(x, "change", st, 2, false);
		if (!rc && sqlite3_column_type(st, 3) != SQLITE_NULL) {
			rc = element(x, "title", (const char *)sqlite3_column_text(st, 3));
			if (!rc)
				rc = element(x, "text",
				             (const char *)sqlite3_column_text(st, 4));
		}
		ok(x, xmlTextWriterEndElement(x->w));
		if (rc)
			break;
	}
	return rc;
}

static int ruling(struct writer *x, long long id)
{
	x->id = id;
	sqlite3_stmt *st = bound(x, Q_RULING);
	bool row;
	int rc = step(x, st, &row);
	if (rc)
		return rc;
	if (!row)
		return rl_db_fail(x->db, RL_NOTFOUND, "no ruling %lld", id);
	ok(x, xmlTextWriterStartElement(x->w, X("ruling")));
	static const struct { const char *name; int col; } attrs[] = {
		{ "kind", 0 }, { "lang", 1 }, { "game", 2 }, { "key", 3 },
		{ "rule", 4 }, { "section", 5 }, { "category", 6 },
	};
	for (size_t i = 0; i < sizeof attrs / sizeof *attrs && !rc; i++)
		rc = column_attr(x, attrs[i].name, st, attrs[i].col, false);
	if (!rc && sqlite3_column_int(st, 7))
		rc = attr(x, "changed", "true", false);
	if (!rc)
		rc = column_attr(x, "date", st, 8, false);
	if (!rc)
		rc = column_attr(x, "author", st, 9, false);
	if (!rc)
		rc = column_attr(x, "withdrawn", st, 10, false);
	if (!rc)
		rc = element(x, "title", (const char *)sqlite3_column_text(st, 11));
	if (!rc)
		rc = element(x, "text", (const char *)sqlite3_column_text(st, 12));
	if (!rc)
		rc = tags(x);
	if (!rc)
		rc = aliases(x);
	if (!rc)
		rc = refs(x);
	if (!rc)
		rc = errata(x);
	if (!rc)
		rc = sources(x);
	if (!rc)
		rc = versions(x);
	ok(x, xmlTextWriterEndElement(x->w));
	return rc;
}

static int write_all(struct writer *x, const long long *ids, size_t n)
{
	xmlTextWriterPtr w = x->w;
	ok(x, xmlTextWriterSetIndent(w, 1));
	ok(x, xmlTextWriterSetIndentString(w, X("  ")));
	ok(x, xmlTextWriterStartDocument(w, "1.0", "UTF-8", NULL));
	ok(x, xmlTextWriterStartElement(w, X("rulings")));
	ok(x, xmlTextWriterWriteAttribute(w, X("format_version"),
	                                  X(RL_INTERCHANGE_VERSION)));
	int rc = RL_OK;
	for (size_t i = 0; i < n && !rc && !x->failed; i++)
		rc = ruling(x, ids[i]);
	if (!rc) {
		ok(x, xmlTextWriterEndElement(w));
		ok(x, xmlTextWriterEndDocument(w));
		ok(x, xmlTextWriterFlush(w));
	}
	return rc;
}

static void quiet(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

static void quiet_structured(void *ctx, xmlErrorPtr e)
{
	(void)ctx;
	(void)e;
}

void export_xml_quiet(struct export_xml_errors *save)
{
	save->s = xmlStructuredError;
	save->s_ctx = xmlStructuredErrorContext;
	save->g = xmlGenericError;
	save->g_ctx = xmlGenericErrorContext;
	xmlSetGenericErrorFunc(NULL, quiet);
	xmlSetStructuredErrorFunc(NULL, quiet_structured);
}

void export_xml_restore(const struct export_xml_errors *save)
{
	xmlSetStructuredErrorFunc(save->s_ctx, save->s);
	xmlSetGenericErrorFunc(save->g_ctx, save->g);
}

int export_xml_write(rl_db *db, const struct rl_sink *sink,
                     int (*body)(xmlTextWriterPtr w, void *ctx), void *ctx,
                     const bool *failed)
{
	struct export_xml_errors save;
	export_xml_quiet(&save);
	struct export_xml_out o = { sink, 0 };
	int rc = RL_OK;
	xmlOutputBufferPtr buf = export_xml_output(&o);
	xmlTextWriterPtr w = buf ? xmlNewTextWriter(buf) : NULL;
	if (!w) {
		xmlOutputBufferClose(buf);
		rc = rl_db_fail(db, RL_ENOMEM, "out of memory");
	}
	if (!rc)
		rc = body(w, ctx);
	xmlFreeTextWriter(w);       /* closes the buffer: flushes the rest */
	export_xml_restore(&save);
	if (!rc && (o.err || *failed))
		rc = o.err ? rl_db_fail(db, RL_EIO, "%s", strerror(o.err))
		           : rl_db_fail(db, RL_ENOMEM, "out of memory");
	return rc;
}

struct xml_job {
	struct writer *x;
	const long long *ids;
	size_t n;
};

static int xml_body(xmlTextWriterPtr w, void *ctx)
{
	struct xml_job *j = ctx;
	j->x->w = w;
	return write_all(j->x, j->ids, j->n);
}

static int export_xml_in(rl_db *db, const long long *ids, size_t n,
                         const struct rl_sink *sink)
{
	struct writer x = { .db = db };
	for (int i = 0; i < NQ; i++)
		if (!(x.q[i] = rl_db_prepare(db, query_sql[i]))) {
			for (int k = 0; k < i; k++)
				sqlite3_finalize(x.q[k]);
			return RL_EINTERNAL;
		}
	struct xml_job j = { &x, ids, n };
	int rc = export_xml_write(db, sink, xml_body, &j, &x.failed);
	for (int i = 0; i < NQ; i++)
		sqlite3_finalize(x.q[i]);
	return rc;
}

/* one snapshot for the whole document (the caller's, when it holds one) */
int rl_export_xml_to(rl_db *db, const long long *ids, size_t n,
                     const struct rl_sink *sink)
{
	int rc = rl_read_begin(db);
	return rc ? rc : rl_read_end(db, export_xml_in(db, ids, n, sink));
}

int rl_export_xml(rl_db *db, const long long *ids, size_t n, const char *path)
{
	struct rl_outfile f;
	int rc = rl_outfile_open(db, &f, path);
	if (rc)
		return rc;
	rc = rl_export_xml_to(db, ids, n, &f.sink);
	/* a failed write: the file's own message names it */
	int crc = rl_outfile_close(db, &f, !rc || f.err);
	return f.err || !rc ? crc : rc;
}

int export_xml_all(struct rl_export *x, const struct rl_sink *out)
{
	return rl_export_xml_to(x->db, x->ids, x->n, out);
}
