/* read_xml.c — the XML reader (importer.h, block.h).
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
 *   - it does not validate against the format's schema, compiled in;
 *   - its declared encoding is not the one the bytes were read as. The
 *     library reads every source as UTF-8, UTF-16 (with a byte order mark)
 *     or Windows-1252 and hands readers UTF-8; libxml2 is told the text
 *     is UTF-8 and ignores the declaration, so the declaration must agree
 *     with what was read (UTF-8 for UTF-8, UTF-16 for UTF-16 and
 *     windows-1252 for Windows-1252; ASCII text may declare any of them,
 *     or US-ASCII or ISO-8859-1) — anything else, a KOI8-R file say, would
 *     be misread, and is refused instead.
 * libxml2's messages never reach standard error: a structured error
 * handler turns them into diagnostics (at most MAX_DIAGS of them).
 *
 * A valid file is read once, streamed (xmlTextReader validating as it
 * reads, one record element in memory at a time): a 54 MB file of 50,000
 * rulings took 162 MB where a tree of it took 456 MB. Each record's blocks
 * are flushed to the recognizer as soon as it is read. A file that is
 * refused is read a second time as a whole tree, validated in one pass,
 * because the streaming validator reports an error as a cascade of
 * confusing ones; the diagnostics are the second reading's (the records
 * the first reading flushed are forgotten: the list's restart).
 *
 * Blocks: an element is a VALUE block (name: the element's; level: its
 * depth; text: its text when it holds no element), followed by its
 * attributes without a namespace (ATTRIBUTE blocks) and then its
 * children, in document order. The root element's blocks are what remains
 * in the list at the end. */
#include "importer.h"
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
	/* libxml2 ran out of memory: not the document's fault */
	if (err->code == XML_ERR_NO_MEMORY) {
		e->rc = RL_ENOMEM;
		return;
	}
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

/* ---- Blocks ------------------------------------------------------------ */

static bool has_element_child(xmlNodePtr n)
{
	for (xmlNodePtr c = n->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE)
			return true;
	return false;
}

static unsigned line_no(xmlNodePtr n)
{
	long line = xmlGetLineNo(n);
	return line > 0 && line <= (long)UINT32_MAX ? (unsigned)line : 0;
}

static int add_string(struct rl_blocks *out, struct rl_block *b,
                      const xmlChar *v)
{
	size_t n = strlen((const char *)v);
	if (!(b->text = rl_blocks_strdup(out, (const char *)v, n)))
		return RL_ENOMEM;
	b->len = n;
	return RL_OK;
}

/* The element's block, its attributes' and (without children: text) its
 * text's; then its children's. Depth is bounded by the schema (a record
 * is validated... after it is read: by libxml2's own limit, 256, on a
 * record that is not). */
static int element(xmlNodePtr n, unsigned depth, struct rl_blocks *out)
{
	struct rl_block *b = rl_blocks_add(out, RL_BLOCK_VALUE, line_no(n));
	if (!b)
		return RL_ENOMEM;
	b->level = depth;
	b->kind = RL_VALUE_ELEMENT;
	b->name_len = strlen((const char *)n->name);
	if (!(b->name = rl_blocks_strdup(out, (const char *)n->name, b->name_len)))
		return RL_ENOMEM;
	int rc = RL_OK;
	if (!has_element_child(n)) {
		xmlChar *v = xmlNodeGetContent(n);
		if (!v)
			return RL_ENOMEM;
		rc = add_string(out, b, v);
		xmlFree(v);
	}
	for (xmlAttrPtr a = n->properties; a && !rc; a = a->next) {
		if (a->ns)
			continue;
		xmlChar *v = xmlGetNoNsProp(n, a->name);
		struct rl_block *ab = v ? rl_blocks_add(out, RL_BLOCK_ATTRIBUTE,
		                                        line_no(n)) : NULL;
		if (ab) {
			ab->level = depth;
			ab->kind = RL_VALUE_STRING;
			ab->name_len = strlen((const char *)a->name);
			ab->name = rl_blocks_strdup(out, (const char *)a->name,
			                            ab->name_len);
			rc = ab->name ? add_string(out, ab, v) : RL_ENOMEM;
		} else {
			rc = RL_ENOMEM;
		}
		xmlFree(v);
	}
	for (xmlNodePtr c = n->children; c && !rc; c = c->next)
		if (c->type == XML_ELEMENT_NODE)
			rc = element(c, depth + 1, out);
	return rc;
}

/* The root element alone: itself and its attributes. */
static int root_blocks(xmlNodePtr root, struct rl_blocks *out)
{
	xmlNodePtr kids = root->children;
	root->children = NULL;      /* not its records again */
	int rc = element(root, 0, out);
	root->children = kids;
	return rc;
}

/* No network, no DTD, no entity substitution, CDATA as text, line numbers
 * past 65535; the text is UTF-8 whatever the declaration says (it was
 * checked against how the bytes were read). */
enum {
	PARSE_OPTIONS = XML_PARSE_NONET | XML_PARSE_IGNORE_ENC |
	                XML_PARSE_NOCDATA | XML_PARSE_BIG_LINES
};

/* A format's schema, compiled once and kept for the process (a bulk import
 * of many XML files compiles it once; libxml2 lets validations share a
 * compiled schema). Kept reachable here, so not a leak; a failed compile
 * is not kept and is tried again by the next document. */
enum { MAX_SCHEMAS = 4 };
static struct {
	const struct rl_xml_syntax *x;
	xmlRelaxNGPtr schema;
} schemas[MAX_SCHEMAS];

static xmlRelaxNGPtr compile_schema(const struct rl_xml_syntax *x,
                                    struct errors *e)
{
	size_t i;
	for (i = 0; i < MAX_SCHEMAS && schemas[i].x; i++)
		if (schemas[i].x == x)
			return schemas[i].schema;
	xmlRelaxNGParserCtxtPtr pc = xmlRelaxNGNewMemParserCtxt(
		(const char *)x->schema, (int)*x->schema_len);
	if (!pc)
		return NULL;
	xmlRelaxNGSetParserStructuredErrors(pc, on_error, e);
	xmlRelaxNGPtr schema = xmlRelaxNGParse(pc);
	xmlRelaxNGFreeParserCtxt(pc);
	if (schema && i < MAX_SCHEMAS) {
		schemas[i].x = x;
		schemas[i].schema = schema;
	}
	return schema;
}

static bool kept(xmlRelaxNGPtr schema)
{
	for (size_t i = 0; i < MAX_SCHEMAS && schemas[i].x; i++)
		if (schemas[i].schema == schema)
			return true;
	return false;
}

/* The first reading, for a valid file: streamed (xmlTextReader, validated
 * as it goes), each record expanded alone, flushed, and freed once read.
 * *valid is false when anything was wrong (the reasons are not kept: the
 * second reading says them). */
static int read_stream(const struct rl_source *src, const struct rl_xml_syntax *x,
                       xmlRelaxNGPtr schema, struct errors *e,
                       struct rl_blocks *out, bool *valid)
{
	*valid = false;
	/* no URL: nothing here resolves against one (no DTD, no entity, no
	 * XInclude), our diagnostics name the file, and libxml2 2.9.14 loses
	 * the reader's input stream when copying the URL fails for want of
	 * memory (xmlCreatePushParserCtxt returns NULL without freeing it) */
	xmlTextReaderPtr r = xmlReaderForMemory(src->text, (int)src->len,
	                                        NULL, "UTF-8", PARSE_OPTIONS);
	if (!r)
		return RL_ENOMEM;
	xmlTextReaderSetStructuredErrorHandler(r, on_error, e);
	int rc = RL_OK, ret = -1;
	struct rl_blocks root = {0};
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
		xmlNodePtr n = xmlTextReaderCurrentNode(r);
		if (depth == 0) {
			if (!n || (rc = root_blocks(n, &root)))
				bad = !rc;
		} else if (depth == 1 && xmlStrEqual(xmlTextReaderConstLocalName(r),
		                                     (const xmlChar *)x->record)) {
			if (!(n = xmlTextReaderExpand(r))) {
				bad = true;
				break;
			}
			/* the validator sees the children after this: a record
			 * it would refuse may not convert */
			if (!(rc = element(n, 1, out)))
				rc = rl_blocks_flush(out);
			if (rc == RL_EDATA) {
				bad = true;
				rc = RL_OK;
			}
		}
	}
	if (!rc && !bad && !e->errors && ret == 0 && xmlTextReaderIsValid(r) == 1) {
		*valid = true;
		/* what remains is the root's */
		for (size_t i = 0; i < root.n && !rc; i++) {
			struct rl_block *b = rl_blocks_add(out, root.v[i].type,
			                                   root.v[i].line);
			if (!b) {
				rc = RL_ENOMEM;
				break;
			}
			*b = root.v[i];
			if ((b->name && !(b->name = rl_blocks_strdup(out, b->name,
			                                             b->name_len))) ||
			    (b->text && !(b->text = rl_blocks_strdup(out, b->text, b->len))))
				rc = RL_ENOMEM;
		}
	}
	if (!rc && e->rc)
		rc = e->rc;
	rl_blocks_free(&root);
	xmlFreeTextReader(r);
	return rc;
}

/* The second reading, for a file the first found wrong: the whole tree,
 * then the schema over it, which reports each problem once, at its
 * element (the streaming validator reports cascades). A file this reading
 * finds valid after all is read from the tree. */
static int read_tree(const struct rl_source *src, const struct rl_xml_syntax *x,
                     xmlRelaxNGPtr schema, struct errors *e,
                     struct rl_blocks *out, struct rl_diags *d)
{
	xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
	if (!ctxt)
		return RL_ENOMEM;
	ctxt->_private = e;
	ctxt->sax->internalSubset = refuse_subset;
	ctxt->sax->externalSubset = refuse_subset;
	e->what = "malformed XML";
	xmlDocPtr doc = xmlCtxtReadMemory(ctxt, src->text, (int)src->len,
	                                  src->name, "UTF-8", PARSE_OPTIONS);
	bool well_formed = doc && ctxt->wellFormed && !e->errors;
	xmlFreeParserCtxt(ctxt);
	if (e->rc || !well_formed) {
		xmlFreeDoc(doc);
		if (!e->rc && !e->errors)
			rl_diag_add(d, RL_ERROR, 0, 0, "malformed XML");
		return e->rc ? e->rc : RL_EDATA;
	}

	e->what = x->invalid;
	int rc = RL_OK;
	xmlRelaxNGValidCtxtPtr vc = xmlRelaxNGNewValidCtxt(schema);
	if (!vc) {
		rc = RL_ENOMEM;
	} else {
		xmlRelaxNGSetValidStructuredErrors(vc, on_error, e);
		if (xmlRelaxNGValidateDoc(vc, doc) != 0) {
			rc = e->rc ? e->rc : RL_EDATA;
			if (!e->errors)
				rl_diag_add(d, RL_ERROR, 0, 0, "%s", x->invalid);
		}
		xmlRelaxNGFreeValidCtxt(vc);
	}
	xmlNodePtr root = rc ? NULL : xmlDocGetRootElement(doc);
	for (xmlNodePtr c = root ? root->children : NULL; c && !rc; c = c->next) {
		if (c->type != XML_ELEMENT_NODE ||
		    !xmlStrEqual(c->name, (const xmlChar *)x->record))
			continue;
		/* the schema leaves no record unreadable; should one be, it is
		 * not refused without a word */
		if (!(rc = element(c, 1, out)) && (rc = rl_blocks_flush(out)) == RL_EDATA)
			rl_diag_add(d, RL_ERROR, line_no(c), 0, "a %s that cannot be read",
			            x->record);
	}
	if (root && !rc)
		rc = root_blocks(root, out);
	xmlFreeDoc(doc);
	return rc;
}

int rl_read_xml(const struct rl_source *src, const struct rl_xml_syntax *x,
                struct rl_blocks *out, struct rl_diags *d)
{
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
	e.what = x->schema_name;
	xmlRelaxNGPtr schema = compile_schema(x, &e);
	bool valid = false;
	if (!schema) {
		rc = RL_ENOMEM;     /* the schema is ours and tested: memory */
	} else {
		xmlSetStructuredErrorFunc(&first, on_error);
		rc = read_stream(src, x, schema, &first, out, &valid);
		xmlSetStructuredErrorFunc(&e, on_error);
	}
	if (!rc && !valid) {
		out->n = 0;
		if (out->restart)
			out->restart(out->flush_ctx);
		rc = read_tree(src, x, schema, &e, out, d);
	}
	if (schema && !kept(schema))
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
