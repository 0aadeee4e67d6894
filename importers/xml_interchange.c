/* xml_interchange.c — the XML interchange format (schema/rulings.rng), as
 * rl_export_xml() writes it:
 *
 *   <rulings format_version="1" title="…">
 *     <ruling kind="faq" lang="en" game="…" key="…" …>
 *       <title>…</title><text>…</text>
 *       <tag name="…" qualifier="…"/> <alias>…</alias>
 *       <ref kind="rule" target="…"/> <errata product="…" …/>
 *       <source …/> <version …>…</version>
 *     </ruling> …
 *   </rulings>
 *
 * Hostile files are the case to design for. A file is refused whole
 * (RL_EDATA, diagnostics with line and column) when
 *   - it has a document type declaration (<!DOCTYPE …>) at all: no DTD is
 *     ever read, so no external entity (a file, a URL) is ever fetched and
 *     no entity is ever expanded — a "billion laughs" bomb is refused
 *     before libxml2 sees a byte of it. The prolog is checked here first,
 *     and libxml2's DOCTYPE callback stops the parser as a second guard;
 *   - it is not well-formed XML (libxml2, with network access off and
 *     neither entity substitution nor DTD loading asked for);
 *   - it does not validate against the schema, which is compiled in;
 *   - its declared encoding is not the one the bytes were read as. The
 *     library reads every source as UTF-8, UTF-16 (with a byte order mark)
 *     or Windows-1252 and hands importers UTF-8; libxml2 is told the text
 *     is UTF-8 and ignores the declaration, so the declaration must agree
 *     with what was read (UTF-8 for UTF-8, UTF-16 for UTF-16 and
 *     windows-1252 for Windows-1252; ASCII text may declare any of them,
 *     or US-ASCII or ISO-8859-1) — anything else, a KOI8-R file say, would
 *     be misread, and is refused instead.
 * libxml2's messages never reach standard error: a structured error
 * handler turns them into diagnostics (at most MAX_DIAGS of them).
 *
 * A valid file is read once, streamed (xmlTextReader validating as it
 * reads, one <ruling> in memory at a time): a 54 MB file of 50,000
 * rulings took 162 MB where a tree of it took 456 MB. A file that is
 * refused is read a second time as a whole tree, validated in one pass,
 * because the streaming validator reports an error as a cascade of
 * confusing ones; the diagnostics are the second reading's.
 *
 * Each <ruling> becomes an entry with its own game and language (one file
 * holds many), its key (when given), title, text, section, category, rule,
 * changed flag, date, author, tags, aliases, references and errata
 * details. <source> and <version> elements are provenance from the
 * database that wrote the file: they are validated but not imported (the
 * file becomes the rulings' source, and its import their first version).
 * A ruling marked withdrawn is history only and is left out. The document
 * is the root's title, else the file's name without its extension. */
#include "importer.h"
#include "doc.h"
#include "interchange.h"
#include "util.h"

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { MAX_DIAGS = 20 };

/* What the error handler needs. */
struct errors {
	struct rl_diags *d;
	size_t seen;            /* errors and warnings libxml2 reported */
	size_t errors;
	int rc;                 /* RL_ENOMEM once adding a diagnostic failed */
	const char *what;       /* "malformed XML" or "not a valid …" */
};

/* libxml2's message as a diagnostic: no final line break or period, a
 * lowercase first letter when the word is an ordinary one. */
static void on_error(void *ctx, xmlErrorPtr err)
{
	struct errors *e = ctx;
	if (!err)
		return;
	bool warning = err->level == XML_ERR_WARNING;
	e->seen++;
	if (!warning)
		e->errors++;
	if (e->seen > MAX_DIAGS || e->rc)
		return;
	char *msg = rl_strdup(err->message ? err->message : "unknown error");
	if (!msg) {
		e->rc = RL_ENOMEM;
		return;
	}
	size_t n = strlen(msg);
	while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' ' || msg[n - 1] == '.'))
		msg[--n] = '\0';
	if (msg[0] >= 'A' && msg[0] <= 'Z' && msg[1] >= 'a' && msg[1] <= 'z')
		msg[0] = (char)(msg[0] - 'A' + 'a');
	/* parser errors have the column in int2 */
	unsigned col = err->domain == XML_FROM_PARSER && err->int2 > 0
	               ? (unsigned)err->int2 : 0;
	unsigned line = err->line > 0 ? (unsigned)err->line : 0;
	if (rl_diag_add(e->d, warning ? RL_WARNING : RL_ERROR, line, col, "%s: %s",
	                e->what, msg))
		e->rc = RL_ENOMEM;
	free(msg);
}

/* libxml2's unstructured messages (a few code paths still print through
 * them) are dropped: the structured handler has reported the error. */
static void quiet(void *ctx, const char *fmt, ...)
{
	(void)ctx;
	(void)fmt;
}

/* ---- The prolog, read before libxml2 reads anything --------------------- */

static unsigned line_of(const char *text, const char *p)
{
	unsigned line = 1;
	for (const char *q = text; q < p; q++)
		line += *q == '\n';
	return line;
}

static unsigned col_of(const char *text, const char *p)
{
	const char *start = p;
	while (start > text && start[-1] != '\n')
		start--;
	unsigned col = 1;
	for (const char *q = start; q < p; q++)
		col += ((unsigned char)*q & 0xC0) != 0x80;
	return col;
}

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

static bool starts(const char *p, const char *end, const char *s)
{
	size_t n = strlen(s);
	return (size_t)(end - p) >= n && memcmp(p, s, n) == 0;
}

static const char *find(const char *p, const char *end, const char *s)
{
	size_t n = strlen(s);
	for (; p + n <= end; p++)
		if (memcmp(p, s, n) == 0)
			return p;
	return NULL;
}

static bool ascii_only(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] >= 0x80)
			return false;
	return true;
}

static bool name_is(const char *s, size_t n, const char *const *names)
{
	for (; *names; names++)
		if (strlen(*names) == n && strncasecmp(s, *names, n) == 0)
			return true;
	return false;
}

/* The encoding the XML declaration names must be the one the source was
 * read as (see the top of the file). */
static int check_encoding(const struct rl_source *src, struct rl_diags *d)
{
	const char *text = src->text, *end = text + src->len;
	if (!starts(text, end, "<?xml") || text + 5 >= end ||
	    !strchr(" \t\n\r", text[5]))
		return RL_OK;               /* no declaration: UTF-8 */
	const char *close = find(text, end, "?>");
	const char *enc = close ? find(text, close, "encoding") : NULL;
	if (!enc)
		return RL_OK;               /* malformed, or no encoding: libxml2 */
	const char *p = skip_space(enc + 8, close);
	if (p >= close || *p != '=')
		return RL_OK;
	p = skip_space(p + 1, close);
	if (p >= close || (*p != '"' && *p != '\''))
		return RL_OK;
	const char *v = p + 1, *q = memchr(v, *p, (size_t)(close - v));
	if (!q)
		return RL_OK;
	size_t n = (size_t)(q - v);
	static const char *const utf8[] = { "UTF-8", "UTF8", NULL };
	static const char *const utf16[] = { "UTF-16", "UTF16", "UTF-16LE",
	                                      "UTF-16BE", NULL };
	static const char *const cp1252[] = { "windows-1252", "cp1252", NULL };
	static const char *const ascii[] = { "US-ASCII", "ASCII", "ISO-8859-1",
	                                     "ISO_8859-1", "latin1", NULL };
	bool read_utf16 = strncmp(src->encoding, "utf-16", 6) == 0;
	bool read_1252 = strcmp(src->encoding, "windows-1252") == 0;
	bool read_utf8 = !read_utf16 && !read_1252;
	bool fits = (name_is(v, n, utf8) && read_utf8) ||
	            (name_is(v, n, utf16) && read_utf16) ||
	            (name_is(v, n, cp1252) && read_1252) ||
	            ((name_is(v, n, utf8) || name_is(v, n, cp1252) ||
	              name_is(v, n, ascii)) && ascii_only(text, src->len));
	if (fits)
		return RL_OK;
	rl_diag_add(d, RL_ERROR, line_of(text, v), col_of(text, v),
	            "the file declares encoding '%.*s' but was read as %s: "
	            "interchange files are UTF-8 (or UTF-16 with a byte order mark)",
	            (int)(n > 40 ? 40 : n), v, src->encoding);
	return RL_EDATA;
}

/* Refuses a document type declaration (or anything else that starts with
 * "<!" other than a comment) before the root element. */
static int check_prolog(const struct rl_source *src, struct rl_diags *d)
{
	const char *text = src->text, *end = text + src->len, *p = text;
	for (;;) {
		p = skip_space(p, end);
		if (starts(p, end, "<?")) {
			const char *q = find(p + 2, end, "?>");
			if (!q)
				return RL_OK;       /* libxml2 says what is wrong */
			p = q + 2;
		} else if (starts(p, end, "<!--")) {
			const char *q = find(p + 4, end, "-->");
			if (!q)
				return RL_OK;
			p = q + 3;
		} else if (starts(p, end, "<!")) {
			rl_diag_add(d, RL_ERROR, line_of(text, p), col_of(text, p),
			            "a document type declaration (<!DOCTYPE>): refused, "
			            "interchange files have none (no DTD, no entities)");
			return RL_EDATA;
		} else {
			return RL_OK;
		}
	}
}

/* libxml2's DOCTYPE callback: the prolog check above has let no DOCTYPE
 * through, but should one ever get here, the parser stops before its
 * internal subset. */
static void refuse_subset(void *ctx, const xmlChar *name, const xmlChar *ext,
                          const xmlChar *sys)
{
	(void)name;
	(void)ext;
	(void)sys;
	xmlParserCtxtPtr ctxt = ctx;
	struct errors *e = ctxt->_private;
	if (!e->rc && rl_diag_add(e->d, RL_ERROR, (unsigned)xmlSAX2GetLineNumber(ctx),
	                          0, "a document type declaration: refused"))
		e->rc = RL_ENOMEM;
	e->errors++;
	xmlStopParser(ctxt);
}

/* ---- The tree --------------------------------------------------------- */

static const char *attr(xmlNodePtr n, const char *name)
{
	for (xmlAttrPtr a = n->properties; a; a = a->next)
		if (!a->ns && strcmp((const char *)a->name, name) == 0 && a->children)
			return (const char *)a->children->content;
	return NULL;
}

static bool is(xmlNodePtr n, const char *name)
{
	return n->type == XML_ELEMENT_NODE &&
	       strcmp((const char *)n->name, name) == 0;
}

/* A copy of an attribute's value (the whole value: libxml2 keeps
 * character references as text, and entities cannot occur). */
static int copy_attr(xmlNodePtr n, const char *name, char **out)
{
	xmlChar *v = xmlGetNoNsProp(n, (const xmlChar *)name);
	if (!v)
		return RL_OK;
	*out = rl_strdup((const char *)v);
	xmlFree(v);
	return *out ? RL_OK : RL_ENOMEM;
}

static int copy_text(xmlNodePtr n, char **out)
{
	xmlChar *v = xmlNodeGetContent(n);
	*out = rl_strdup(v ? (const char *)v : "");
	xmlFree(v);
	return *out ? RL_OK : RL_ENOMEM;
}

static int add_ref(struct rl_entry *e, xmlNodePtr n)
{
	const char *kind = attr(n, "kind");
	xmlChar *target = xmlGetNoNsProp(n, (const xmlChar *)"target");
	enum rl_ref_kind k;
	int rc = RL_EDATA;      /* the schema lets no other kind through */
	if (kind && target && rl_ref_kind_parse(kind, &k) == RL_OK)
		rc = rl_entry_add_ref(e, k, (const char *)target);
	xmlFree(target);
	return rc;
}

static int add_errata(struct rl_entry *e, xmlNodePtr n)
{
	if (!(e->errata = calloc(1, sizeof *e->errata)))
		return RL_ENOMEM;
	int rc = copy_attr(n, "product", &e->errata->product);
	if (!rc)
		rc = copy_attr(n, "printing", &e->errata->printing);
	if (!rc)
		rc = copy_attr(n, "document", &e->errata->document);
	if (!rc)
		rc = copy_attr(n, "page", &e->errata->page);
	return rc;
}

static int add_ruling(struct rl_doc *doc, xmlNodePtr r)
{
	if (attr(r, "withdrawn"))
		return RL_OK;           /* history only */
	struct rl_entry *e = rl_doc_add_entry(doc);
	if (!e)
		return RL_ENOMEM;
	long line = xmlGetLineNo(r);
	e->line = line > 0 ? (unsigned)line : 0;
	const char *kind = attr(r, "kind");
	if (!kind || rl_kind_parse(kind, &e->kind))
		return RL_EDATA;
	const char *changed = attr(r, "changed");
	e->changed = changed && (strcmp(changed, "true") == 0 ||
	                         strcmp(changed, "1") == 0);
	int rc = copy_attr(r, "lang", &e->lang);
	if (!rc)
		rc = copy_attr(r, "game", &e->game);
	/* an empty key is no key: computed as for other formats */
	const char *key = attr(r, "key");
	if (!rc && key && *key)
		rc = copy_attr(r, "key", &e->key);
	if (!rc)
		rc = copy_attr(r, "rule", &e->rule);
	if (!rc)
		rc = copy_attr(r, "section", &e->section);
	if (!rc)
		rc = copy_attr(r, "category", &e->category);
	if (!rc)
		rc = copy_attr(r, "date", &e->date);
	if (!rc)
		rc = copy_attr(r, "author", &e->author);
	for (xmlNodePtr c = r->children; c && !rc; c = c->next) {
		if (is(c, "title"))
			rc = copy_text(c, &e->title);
		else if (is(c, "text"))
			rc = copy_text(c, &e->text);
		else if (is(c, "tag")) {
			xmlChar *name = xmlGetNoNsProp(c, (const xmlChar *)"name");
			xmlChar *qual = xmlGetNoNsProp(c, (const xmlChar *)"qualifier");
			rc = name ? rl_entry_add_tag(e, (const char *)name,
			                             (const char *)qual) : RL_EDATA;
			xmlFree(name);
			xmlFree(qual);
		} else if (is(c, "alias")) {
			xmlChar *v = xmlNodeGetContent(c);
			rc = rl_entry_add_alias(e, v ? (const char *)v : "");
			xmlFree(v);
		} else if (is(c, "ref")) {
			rc = add_ref(e, c);
		} else if (is(c, "errata")) {
			rc = add_errata(e, c);
		}
		/* source, version: provenance, not imported */
	}
	return rc;
}

/* The file's name without directories and extension. */
static char *name_title(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strrchr(base, '.');
	size_t n = dot && dot > base ? (size_t)(dot - base) : strlen(base);
	return rl_strndup(base, n);
}

/* What every reading ends with: the title, the language, warnings. */
static int finish_doc(const struct rl_source *src, struct rl_doc *doc,
                      struct rl_diags *d, const char *title, size_t rulings,
                      long root_line)
{
	if (!(doc->title = title ? rl_strdup(title) : name_title(src->name)))
		return RL_ENOMEM;
	/* the document's language: its first ruling's */
	for (size_t i = 0; i < doc->n && !doc->lang; i++)
		if (doc->entries[i].lang && !(doc->lang = rl_strdup(doc->entries[i].lang)))
			return RL_ENOMEM;
	unsigned line = root_line > 0 ? (unsigned)root_line : 0;
	if (!rulings)
		return rl_diag_add(d, RL_WARNING, line, 0, "the file holds no rulings");
	if (!doc->n)
		return rl_diag_add(d, RL_WARNING, line, 0,
		                   "every ruling in the file is withdrawn: none "
		                   "imported");
	return RL_OK;
}

/* No network, no DTD, no entity substitution, CDATA as text, line numbers
 * past 65535; the text is UTF-8 whatever the declaration says (it was
 * checked against how the bytes were read). */
enum {
	PARSE_OPTIONS = XML_PARSE_NONET | XML_PARSE_IGNORE_ENC |
	                XML_PARSE_NOCDATA | XML_PARSE_BIG_LINES
};

static xmlRelaxNGPtr compile_schema(struct errors *e)
{
	xmlRelaxNGParserCtxtPtr pc = xmlRelaxNGNewMemParserCtxt(
		(const char *)rl_interchange_rng, (int)rl_interchange_rng_size);
	if (!pc)
		return NULL;
	xmlRelaxNGSetParserStructuredErrors(pc, on_error, e);
	xmlRelaxNGPtr schema = xmlRelaxNGParse(pc);
	xmlRelaxNGFreeParserCtxt(pc);
	return schema;
}

/* The first reading, for a valid file: streamed (xmlTextReader, validated
 * as it goes), each <ruling> expanded alone and freed once read, so the
 * memory is the document's entries, not a tree of the whole file.
 * *valid is false when anything was wrong (the reasons are not kept: the
 * second reading says them); the entries are then to be dropped. */
static int read_stream(const struct rl_source *src, xmlRelaxNGPtr schema,
                       struct errors *e, struct rl_doc *doc,
                       struct rl_diags *d, bool *valid)
{
	*valid = false;
	xmlTextReaderPtr r = xmlReaderForMemory(src->text, (int)src->len,
	                                        src->name, "UTF-8", PARSE_OPTIONS);
	if (!r)
		return RL_ENOMEM;
	xmlTextReaderSetStructuredErrorHandler(r, on_error, e);
	int rc = RL_OK, ret = -1;
	xmlChar *title = NULL;
	size_t rulings = 0;
	long root_line = 0;
	bool bad = xmlTextReaderRelaxNGSetSchema(r, schema) != 0;
	while (!bad && !rc && !e->errors && (ret = xmlTextReaderRead(r)) == 1) {
		int type = xmlTextReaderNodeType(r);
		if (type == XML_READER_TYPE_DOCUMENT_TYPE) {
			bad = true;     /* refused by the prolog check already */
			break;
		}
		if (type != XML_READER_TYPE_ELEMENT)
			continue;
		int depth = xmlTextReaderDepth(r);
		if (depth == 0) {
			title = xmlTextReaderGetAttribute(r, (const xmlChar *)"title");
			root_line = xmlGetLineNo(xmlTextReaderCurrentNode(r));
		} else if (depth == 1 && xmlStrEqual(xmlTextReaderConstLocalName(r),
		                                     (const xmlChar *)"ruling")) {
			xmlNodePtr n = xmlTextReaderExpand(r);
			if (!n) {
				bad = true;
				break;
			}
			rulings++;
			/* the validator sees the children after this: a ruling
			 * it would refuse may not convert */
			rc = add_ruling(doc, n);
			if (rc == RL_EDATA) {
				bad = true;
				rc = RL_OK;
			}
		}
	}
	if (!rc && !bad && !e->errors && ret == 0 && xmlTextReaderIsValid(r) == 1) {
		*valid = true;
		rc = finish_doc(src, doc, d, (const char *)title, rulings, root_line);
	}
	if (!rc && e->rc)
		rc = e->rc;
	xmlFree(title);
	xmlFreeTextReader(r);
	return rc;
}

/* The second reading, for a file the first found wrong: the whole tree,
 * then the schema over it, which reports each problem once, at its
 * element (the streaming validator reports cascades). A file this reading
 * finds valid after all is read from the tree. */
static int read_tree(const struct rl_source *src, xmlRelaxNGPtr schema,
                     struct errors *e, struct rl_doc *doc, struct rl_diags *d)
{
	xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
	if (!ctxt)
		return RL_ENOMEM;
	ctxt->_private = e;
	ctxt->sax->internalSubset = refuse_subset;
	ctxt->sax->externalSubset = refuse_subset;
	e->what = "malformed XML";
	xmlDocPtr x = xmlCtxtReadMemory(ctxt, src->text, (int)src->len, src->name,
	                                "UTF-8", PARSE_OPTIONS);
	bool well_formed = x && ctxt->wellFormed && !e->errors;
	xmlFreeParserCtxt(ctxt);
	if (e->rc || !well_formed) {
		xmlFreeDoc(x);
		if (!e->rc && !e->errors)
			rl_diag_add(d, RL_ERROR, 0, 0, "malformed XML");
		return e->rc ? e->rc : RL_EDATA;
	}

	e->what = "not a valid interchange file";
	int rc = RL_OK;
	xmlRelaxNGValidCtxtPtr vc = xmlRelaxNGNewValidCtxt(schema);
	if (!vc) {
		rc = RL_ENOMEM;
	} else {
		xmlRelaxNGSetValidStructuredErrors(vc, on_error, e);
		if (xmlRelaxNGValidateDoc(vc, x) != 0) {
			rc = e->rc ? e->rc : RL_EDATA;
			if (!e->errors)
				rl_diag_add(d, RL_ERROR, 0, 0, "not a valid interchange file");
		}
		xmlRelaxNGFreeValidCtxt(vc);
	}
	if (!rc) {
		xmlNodePtr root = xmlDocGetRootElement(x);
		size_t rulings = 0;
		for (xmlNodePtr c = root->children; c && !rc; c = c->next)
			if (is(c, "ruling")) {
				rulings++;
				/* the schema leaves no ruling unreadable; should
				 * one be, it is not refused without a word */
				if ((rc = add_ruling(doc, c)) == RL_EDATA)
					rl_diag_add(d, RL_ERROR, (unsigned)xmlGetLineNo(c), 0,
					            "a ruling that cannot be read");
			}
		if (!rc)
			rc = finish_doc(src, doc, d, attr(root, "title"), rulings,
			                xmlGetLineNo(root));
	}
	xmlFreeDoc(x);
	return rc;
}

static int parse(const struct rl_source *src, const struct rl_import_opts *opts,
                 struct rl_doc *doc, struct rl_diags *d)
{
	(void)opts;
	int rc = check_encoding(src, d);
	if (!rc)
		rc = check_prolog(src, d);
	if (rc)
		return rc;
	if (src->len > (size_t)INT32_MAX) {
		rl_diag_add(d, RL_ERROR, 0, 0, "the file is too large for XML");
		return RL_EDATA;
	}

	/* libxml2 reports through process-wide handlers too: ours for the
	 * duration, then the caller's again. What the first reading finds is
	 * not kept (scratch); the second says it. */
	struct rl_diags scratch = {0};
	struct errors first = { .d = &scratch, .what = "" }, e = { .d = d };
	xmlStructuredErrorFunc old_s = xmlStructuredError;
	void *old_s_ctx = xmlStructuredErrorContext;
	xmlGenericErrorFunc old_g = xmlGenericError;
	void *old_g_ctx = xmlGenericErrorContext;
	xmlSetGenericErrorFunc(NULL, quiet);

	xmlSetStructuredErrorFunc(&e, on_error);
	e.what = "the interchange schema";
	xmlRelaxNGPtr schema = compile_schema(&e);
	bool valid = false;
	if (!schema) {
		rc = RL_ENOMEM;     /* the schema is ours and tested: memory */
	} else {
		xmlSetStructuredErrorFunc(&first, on_error);
		rc = read_stream(src, schema, &first, doc, d, &valid);
		xmlSetStructuredErrorFunc(&e, on_error);
	}
	if (!rc && !valid) {
		rl_doc_free(doc);
		*doc = (struct rl_doc){0};
		rc = read_tree(src, schema, &e, doc, d);
	}
	xmlRelaxNGFree(schema);
	rl_diags_clear(&scratch);

	xmlSetStructuredErrorFunc(old_s_ctx, old_s);
	xmlSetGenericErrorFunc(old_g_ctx, old_g);
	if (e.seen > MAX_DIAGS && rc != RL_ENOMEM &&
	    rl_diag_add(d, rc ? RL_ERROR : RL_WARNING, 0, 0,
	                "%zu more problems left out", e.seen - MAX_DIAGS))
		rc = RL_ENOMEM;
	return rc;
}

/* An XML document whose root is <rulings>; any other XML document is
 * claimed weakly, so that it is refused with a reason rather than as a
 * document of no known format. */
static int probe(const char *text, size_t len)
{
	const char *end = text + len, *p = skip_space(text, end);
	if (p == end || *p != '<')
		return 0;
	size_t scan = (size_t)(end - p) < 65536 ? (size_t)(end - p) : 65536;
	for (const char *q = find(p, p + scan, "<rulings"); q;
	     q = find(q + 1, p + scan, "<rulings"))
		if (q + 8 < end && q[8] && strchr(" \t\n\r/>", q[8]))
			return 95;
	return starts(p, end, "<?xml") ? 35 : 0;
}

const struct rl_importer rl_importer_xml_interchange = {
	.name = "xml-interchange",
	.description = "the XML interchange format (schema/rulings.rng), as "
	               "exported; validated, no DTD",
	.probe = probe,
	.parse = parse,
};
