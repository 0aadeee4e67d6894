/* export_atom.c — changes as an Atom 1.0 feed (RFC 4287), for
 * `rulings changed --format atom` and the feeds of an exported site.
 *
 * The feed is streamed with libxml2's xmlTextWriter, which escapes every
 * text and attribute value, to a sink. Each change is an entry: its kind
 * as a category, the document whose version made it as the author, the
 * version's date as updated, and the old and new texts as a word diff in
 * XHTML content (<del>, <ins>), so that no markup is pasted from strings.
 *
 * Ids are stable: a feed reader must never see an entry twice. An
 * entry's id is derived from what the change is, not from where a
 * database keeps it: the ruling's identity (game, kind, language, key),
 * the document's (game, format, title), the version's (the SHA-256 of the
 * bytes imported) and the kind of change; a feed's from what it covers.
 * The same documents imported into another database, or exported again,
 * give the same ids. An id is a urn:uuid: a UUID of version 8 (RFC 9562,
 * "custom") made of the first 122 bits of the SHA-256 of those fields.
 *
 * A feed is in one language (xml:lang on <feed>): the one its caller
 * gives (an exported site's feed: its page's), else that of most of its
 * entries. Its words (title, kinds of change, the entry's facts) come
 * from the message catalog (msg.h) in that language, English when the
 * catalog lacks it; an entry's text in another language carries its own
 * xml:lang. */
#include "db.h"
#include "export.h"
#include "msg.h"
#include "sha256.h"
#include "util.h"

#include <libxml/xmlwriter.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char ATOM_NS[] = "http://www.w3.org/2005/Atom";
static const char XHTML_NS[] = "http://www.w3.org/1999/xhtml";

int export_change_texts(const struct rl_change *c, char **old, char **new)
{
	struct rl_buf ob = {0}, nb = {0};
	if (c->old_title && c->new_title && strcmp(c->old_title, c->new_title)) {
		rl_buf_addf(&ob, "%s\n\n", c->old_title);
		rl_buf_addf(&nb, "%s\n\n", c->new_title);
	}
	rl_buf_adds(&ob, c->old_text ? c->old_text : "");
	rl_buf_adds(&nb, c->new_text ? c->new_text : "");
	*old = rl_buf_take(&ob);
	*new = rl_buf_take(&nb);
	if (*old && *new)
		return RL_OK;
	free(*old);
	free(*new);
	*old = *new = NULL;
	return RL_ENOMEM;
}

struct atom {
	rl_db *db;
	xmlTextWriterPtr w;
	sqlite3_stmt *who;      /* the identities behind a change */
	const char *lang;       /* the feed's language */
	const struct msg_lang *ui;  /* its words' */
	bool failed;            /* the writer reported an error */
};

static const xmlChar *X(const char *s)
{
	return (const xmlChar *)s;
}

static void ok(struct atom *a, int r)
{
	if (r < 0)
		a->failed = true;
}

/* "urn:uuid:" and a UUID of version 8 from the SHA-256 of s. */
static void uuid_of(const char *s, size_t n, char out[46])
{
	char h[65];
	rl_sha256_hex(s, n, h);
	h[12] = '8';                                      /* version 8 */
	int nib = h[16] <= '9' ? h[16] - '0' : h[16] - 'a' + 10;
	h[16] = "89ab"[nib & 3];                          /* variant 10 */
	snprintf(out, 46, "urn:uuid:%.8s-%.4s-%.4s-%.4s-%.12s", h, h + 8,
	         h + 12, h + 16, h + 20);
}

/* The fields of an identity, each ended by U+001F. */
static void field(struct rl_buf *b, const char *s)
{
	rl_buf_adds(b, s ? s : "");
	rl_buf_adds(b, "\x1F");
}

/* A time as RFC 3339 wants it: s (a date or a UTC time), else fallback. */
static void when(const char *s, const char *fallback, char out[RL_WHEN_SIZE])
{
	if (!s || rl_when_parse(s, false, out) != RL_OK)
		if (!fallback || rl_when_parse(fallback, false, out) != RL_OK)
			strcpy(out, "1970-01-01T00:00:00Z");
}

/* Text, as XML can hold it. */
static int text(struct atom *a, const char *s, size_t n)
{
	char *copy = rl_strndup(s, n);
	const char *v;
	char *owned = NULL;
	int rc = copy ? export_xml_safe(copy, &v, &owned) : RL_ENOMEM;
	if (rc == RL_EDATA)
		rc = rl_db_fail(a->db, rc, "changes: a text is not UTF-8");
	else if (rc)
		rc = rl_db_fail(a->db, rc, "out of memory");
	/* its line breaks as <br/> */
	for (const char *p = rc ? "" : v; *p && !rc; ) {
		size_t len = strcspn(p, "\n");
		char *line = len ? rl_strndup(p, len) : NULL;
		if (len && !line)
			rc = rl_db_fail(a->db, RL_ENOMEM, "out of memory");
		else if (len)
			ok(a, xmlTextWriterWriteString(a->w, X(line)));
		free(line);
		p += len;
		if (*p == '\n') {
			ok(a, xmlTextWriterStartElement(a->w, X("br")));
			ok(a, xmlTextWriterEndElement(a->w));
			p++;
		}
	}
	free(owned);
	free(copy);
	return rc;
}

/* An element (attr false) or an attribute named name holding s. */
static int write_safe(struct atom *a, bool attr, const char *name,
                      const char *s)
{
	const char *v;
	char *owned;
	int rc = export_xml_safe(s ? s : "", &v, &owned);
	if (rc)
		return rl_db_fail(a->db, rc, rc == RL_EDATA
		                  ? "changes: a text is not UTF-8" : "out of memory");
	ok(a, attr ? xmlTextWriterWriteAttribute(a->w, X(name), X(v))
	           : xmlTextWriterWriteElement(a->w, X(name), X(v)));
	free(owned);
	return RL_OK;
}

static int element(struct atom *a, const char *name, const char *s)
{
	return write_safe(a, false, name, s);
}

static int attribute(struct atom *a, const char *name, const char *s)
{
	return write_safe(a, true, name, s);
}

static int link(struct atom *a, const char *rel, const char *type,
                const char *href)
{
	ok(a, xmlTextWriterStartElement(a->w, X("link")));
	ok(a, xmlTextWriterWriteAttribute(a->w, X("rel"), X(rel)));
	if (type)
		ok(a, xmlTextWriterWriteAttribute(a->w, X("type"), X(type)));
	int rc = attribute(a, "href", href);
	ok(a, xmlTextWriterEndElement(a->w));
	return rc;
}

/* The word diff of old and new as XHTML: the kept words as text, the
 * removed in <del>, the added in <ins>. */
static int diff(struct atom *a, const char *old, const char *new_text)
{
	struct rl_wdiff_op *ops;
	size_t nops;
	bool whole;
	int rc = rl_word_diff(old, new_text, &ops, &nops, &whole);
	if (rc)
		return rl_db_fail(a->db, rc, "out of memory");
	static const char *const tags[] = { NULL, "del", "ins" };
	for (size_t k = 0; k < nops && !rc; k++) {
		if (ops[k].mark)
			ok(a, xmlTextWriterStartElement(a->w, X(tags[ops[k].mark])));
		rc = text(a, ops[k].s, ops[k].n);
		if (ops[k].mark)
			ok(a, xmlTextWriterEndElement(a->w));
	}
	free(ops);
	return rc;
}

/* The entry's content: where the change comes from, then the text. */
static int content(struct atom *a, const struct rl_change *c,
                   const char *date)
{
	int rc = RL_OK;
	ok(a, xmlTextWriterStartElement(a->w, X("content")));
	ok(a, xmlTextWriterWriteAttribute(a->w, X("type"), X("xhtml")));
	ok(a, xmlTextWriterSetIndent(a->w, 0));     /* mixed content */
	ok(a, xmlTextWriterStartElementNS(a->w, NULL, X("div"), X(XHTML_NS)));
	char day[11];
	snprintf(day, sizeof day, "%.10s", date);
	const char *const args[] = { c->document ? c->document : "", day };
	char *from = msg_fill(msg_get(a->ui, MSG_VERSION_OF), 2, args), *rule = NULL;
	if (c->rule) {
		const char *const num[] = { c->rule };
		rule = msg_fill(msg_get(a->ui, MSG_REF_RULE), 1, num);
	}
	struct rl_buf b = {0};
	rl_buf_addf(&b, "%s \xC2\xB7 %s \xC2\xB7 %s \xC2\xB7 %s", from ? from : "",
	            c->game ? c->game : msg_get(a->ui, MSG_NO_GAME),
	            c->kind ? msg_kind(a->ui, c->kind) : "",
	            c->lang ? msg_lang_name(a->ui, c->lang) : "");
	if (c->rule)
		rl_buf_addf(&b, " \xC2\xB7 %s", rule ? rule : "");
	if (!from || (c->rule && !rule))
		b.oom = true;
	free(from);
	free(rule);
	char *meta = rl_buf_take(&b);
	if (!meta)
		rc = rl_db_fail(a->db, RL_ENOMEM, "out of memory");
	if (!rc)
		rc = element(a, "p", meta);
	free(meta);
	ok(a, xmlTextWriterStartElement(a->w, X("p")));
	/* the ruling's text, in its language */
	if (c->lang && *c->lang && strcmp(c->lang, a->lang))
		ok(a, xmlTextWriterWriteAttribute(a->w, X("xml:lang"), X(c->lang)));
	if (rc) {
		/* nothing more */
	} else if (!strcmp(c->change, "edited")) {
		/* the title too, when it changed */
		char *o, *n;
		rc = export_change_texts(c, &o, &n) ? rl_db_fail(a->db, RL_ENOMEM,
		                                                 "out of memory")
		                                    : diff(a, o, n);
		free(o);
		free(n);
	} else if (!strcmp(c->change, "withdrawn")) {
		const char *s = c->old_text ? c->old_text : "";
		ok(a, xmlTextWriterWriteString(a->w, X(msg_get(a->ui, MSG_WITHDRAWN_TEXT))));
		ok(a, xmlTextWriterStartElement(a->w, X("br")));
		ok(a, xmlTextWriterEndElement(a->w));
		ok(a, xmlTextWriterStartElement(a->w, X("del")));
		rc = text(a, s, strlen(s));
		ok(a, xmlTextWriterEndElement(a->w));
	} else {
		const char *s = c->new_text ? c->new_text : "";
		rc = text(a, s, strlen(s));
	}
	ok(a, xmlTextWriterEndElement(a->w));       /* p */
	ok(a, xmlTextWriterEndElement(a->w));       /* div */
	ok(a, xmlTextWriterEndElement(a->w));       /* content */
	ok(a, xmlTextWriterSetIndent(a->w, 1));
	return rc;
}

/* An entry's title as XHTML: filled (the message with \x1F where the
 * ruling's words go) with what in a span of language lang. */
static int xhtml_title(struct atom *a, const char *filled, const char *what,
                       const char *lang)
{
	const char *mark = strchr(filled, '\x1F');
	size_t before = mark ? (size_t)(mark - filled) : strlen(filled);
	int rc;
	ok(a, xmlTextWriterStartElement(a->w, X("title")));
	ok(a, xmlTextWriterWriteAttribute(a->w, X("type"), X("xhtml")));
	ok(a, xmlTextWriterSetIndent(a->w, 0));     /* mixed content */
	ok(a, xmlTextWriterStartElementNS(a->w, NULL, X("div"), X(XHTML_NS)));
	rc = text(a, filled, before);
	ok(a, xmlTextWriterStartElement(a->w, X("span")));
	ok(a, xmlTextWriterWriteAttribute(a->w, X("xml:lang"), X(lang)));
	if (!rc)
		rc = text(a, what, strlen(what));
	ok(a, xmlTextWriterEndElement(a->w));       /* span */
	if (!rc && mark)
		rc = text(a, mark + 1, strlen(mark + 1));
	ok(a, xmlTextWriterEndElement(a->w));       /* div */
	ok(a, xmlTextWriterEndElement(a->w));       /* title */
	ok(a, xmlTextWriterSetIndent(a->w, 1));
	return rc;
}

/* The stable id of change c and the RFC 3339 time of its version. */
static int identity(struct atom *a, const struct rl_change *c, char id[46],
                    char date[RL_WHEN_SIZE])
{
	sqlite3_stmt *st = a->who;
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, c->id);
	sqlite3_bind_int64(st, 2, c->import_id);
	int s = sqlite3_step(st);
	if (s != SQLITE_ROW)
		return s == SQLITE_DONE
		       ? rl_db_fail(a->db, RL_NOTFOUND, "changes: ruling %lld or "
		                    "import %lld is gone", c->id, c->import_id)
		       : rl_db_sqlite_fail(a->db, s, "changes");
	struct rl_buf b = {0};
	field(&b, "change");
	for (int k = 0; k < 8; k++)
		field(&b, (const char *)sqlite3_column_text(st, k));
	field(&b, c->change);
	if (b.oom) {
		rl_buf_free(&b);
		return rl_db_fail(a->db, RL_ENOMEM, "out of memory");
	}
	uuid_of(b.s, b.len, id);
	rl_buf_free(&b);
	when(c->date, c->at, date);
	return RL_OK;
}

static int entry(struct atom *a, const struct rl_change *c, const char *href)
{
	char id[46], date[RL_WHEN_SIZE];
	int rc = identity(a, c, id, date);
	if (rc)
		return rc;
	ok(a, xmlTextWriterStartElement(a->w, X("entry")));
	ok(a, xmlTextWriterWriteElement(a->w, X("id"), X(id)));
	struct rl_buf b = {0};
	rl_buf_addf(&b, "%s%s%s", c->rule ? c->rule : "", c->rule ? " " : "",
	            c->title ? c->title : "");
	char *what = rl_buf_take(&b), *title = NULL;
	/* a ruling in another language than the feed's: its words in a span
	 * of their own language (an XHTML title), the kind in the feed's */
	bool other = c->lang && *c->lang && strcmp(c->lang, a->lang);
	if (what) {
		const char *const args[] = { msg_change(a->ui, c->change),
		                             other ? "\x1F" : what };
		title = msg_fill(msg_get(a->ui, MSG_ENTRY_TITLE), 2, args);
	}
	if (!title || !what)
		rc = rl_db_fail(a->db, RL_ENOMEM, "out of memory");
	else if (!other)
		rc = element(a, "title", title);
	else
		rc = xhtml_title(a, title, what, c->lang);
	free(what);
	free(title);
	ok(a, xmlTextWriterWriteElement(a->w, X("updated"), X(date)));
	ok(a, xmlTextWriterStartElement(a->w, X("author")));
	if (!rc)
		rc = element(a, "name", c->document);
	ok(a, xmlTextWriterEndElement(a->w));
	if (!rc && href)
		rc = link(a, "alternate", "text/html", href);
	ok(a, xmlTextWriterStartElement(a->w, X("category")));
	ok(a, xmlTextWriterWriteAttribute(a->w, X("term"), X(c->change)));
	ok(a, xmlTextWriterWriteAttribute(a->w, X("label"),
	                                  X(msg_change(a->ui, c->change))));
	ok(a, xmlTextWriterEndElement(a->w));
	if (!rc)
		rc = content(a, c, date);
	ok(a, xmlTextWriterEndElement(a->w));
	return rc;
}

/* The feed's updated: its newest entry's, else the newest import's. */
static int feed_updated(struct atom *a, const struct rl_change *v, size_t n,
                        char out[RL_WHEN_SIZE])
{
	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		char d[RL_WHEN_SIZE];
		when(v[i].date, v[i].at, d);
		if (strcmp(d, out) > 0)
			strcpy(out, d);
	}
	if (n)
		return RL_OK;
	sqlite3_stmt *st = rl_db_prepare(a->db,
		"SELECT max(imported_at) FROM imports");
	if (!st)
		return RL_EINTERNAL;
	int s = sqlite3_step(st);
	when(s == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL,
	     NULL, out);
	sqlite3_finalize(st);
	return s == SQLITE_ROW ? RL_OK : rl_db_sqlite_fail(a->db, s, "changes");
}

static int feed(struct atom *a, const struct rl_change *v, size_t n,
                const struct rl_atom_feed *f)
{
	xmlTextWriterPtr w = a->w;
	ok(a, xmlTextWriterSetIndent(w, 1));
	ok(a, xmlTextWriterSetIndentString(w, X("  ")));
	ok(a, xmlTextWriterStartDocument(w, "1.0", "UTF-8", NULL));
	ok(a, xmlTextWriterStartElementNS(w, NULL, X("feed"), X(ATOM_NS)));
	ok(a, xmlTextWriterWriteAttribute(w, X("xml:lang"), X(a->lang)));
	struct rl_buf b = {0};
	field(&b, "feed");
	field(&b, f->scope);
	char id[46], updated[RL_WHEN_SIZE];
	if (b.oom) {
		rl_buf_free(&b);
		return rl_db_fail(a->db, RL_ENOMEM, "out of memory");
	}
	uuid_of(b.s, b.len, id);
	rl_buf_free(&b);
	ok(a, xmlTextWriterWriteElement(w, X("id"), X(id)));
	int rc = element(a, "title", f->title ? f->title
	                                       : msg_get(a->ui, MSG_FEED_TITLE));
	if (!rc)
		rc = feed_updated(a, v, n, updated);
	if (!rc)
		ok(a, xmlTextWriterWriteElement(w, X("updated"), X(updated)));
	if (!rc && f->self)
		rc = link(a, "self", "application/atom+xml", f->self);
	if (!rc && f->alternate)
		rc = link(a, "alternate", "text/html", f->alternate);
	ok(a, xmlTextWriterWriteElement(w, X("generator"), X("rulings")));
	for (size_t i = 0; i < n && !rc && !a->failed; i++)
		rc = entry(a, &v[i], f->links ? f->links[i] : NULL);
	if (!rc) {
		ok(a, xmlTextWriterEndElement(w));
		ok(a, xmlTextWriterEndDocument(w));
		ok(a, xmlTextWriterFlush(w));
	}
	return rc;
}

struct atom_job {
	struct atom *a;
	const struct rl_change *v;
	size_t n;
	const struct rl_atom_feed *f;
};

static int atom_body(xmlTextWriterPtr w, void *ctx)
{
	struct atom_job *j = ctx;
	j->a->w = w;
	return feed(j->a, j->v, j->n, j->f);
}

/* The language of most of the changes, English when there are none. */
static const char *majority_lang(const struct rl_change *v, size_t n)
{
	struct msg_tally t = {0};
	for (size_t i = 0; i < n; i++)
		msg_tally_add(&t, v[i].lang);
	return msg_tally_best(&t) ? msg_tally_best(&t) : "en";
}

static int atom_in(rl_db *db, const struct rl_change *v, size_t n,
                   const struct rl_atom_feed *f, const struct rl_sink *sink)
{
	struct atom a = { .db = db };
	a.lang = f->lang && *f->lang ? f->lang : majority_lang(v, n);
	a.ui = msg_lang_or_en(a.lang);
	a.who = rl_db_prepare(db,
		"SELECT ifnull(g.name, ''), r.kind, r.lang, r.key,"
		" ifnull(dg.name, ''), d.format, d.title, i.sha256"
		" FROM rulings r LEFT JOIN games g ON g.id = r.game_id,"
		" imports i JOIN documents d ON d.id = i.document_id"
		" LEFT JOIN games dg ON dg.id = d.game_id"
		" WHERE r.id = ?1 AND i.id = ?2");
	if (!a.who)
		return RL_EINTERNAL;
	struct atom_job j = { &a, v, n, f };
	int rc = export_xml_write(db, sink, atom_body, &j, &a.failed);
	sqlite3_finalize(a.who);
	return rc;
}

int rl_changes_atom(rl_db *db, const struct rl_change *v, size_t n,
                    const struct rl_atom_feed *f, const struct rl_sink *out)
{
	int rc = rl_read_begin(db);
	return rc ? rc : rl_read_end(db, atom_in(db, v, n, f, out));
}
