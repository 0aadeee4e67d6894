/* block.h — the block list: what a syntax reader makes of a source, and
 * what a format's recognizer turns into entries.
 *
 *   rl_source ──reader──▶ rl_blocks ──recognizer──▶ rl_doc
 *
 * A reader knows one syntax and no format: lines and bullets, reStructured-
 * Text, Markdown, JSON or XML. It cuts the text into blocks, each with its
 * source position, its type (a heading, a line, a bulleted item, a term, a
 * value...), its level or depth and its text without the syntax's marks
 * (indentation, bullets, underlines, quote markers, escapes). A recognizer
 * (importer.h) knows one format and no syntax: it reads the blocks in
 * order and fills the document. A new format written in an existing syntax
 * is a recognizer alone.
 *
 * Texts point into the source (lines, RST, Markdown) or into strings the
 * list owns (JSON and XML values, which are unescaped): they live as long
 * as both. A text is not NUL-terminated unless the block says so (VALUE and
 * ATTRIBUTE texts are); use len. */
#ifndef RL_BLOCK_H
#define RL_BLOCK_H

#include "rulings.h"

enum rl_block_type {
	RL_BLOCK_BLANK,       /* a blank line */
	RL_BLOCK_LINE,        /* a line of text; indent: its leading blanks */
	RL_BLOCK_ITEM,        /* a line that starts with a bullet (name: the
	                         marker) then a blank; text: what follows */
	RL_BLOCK_HEADING,     /* a heading; level 1 is the highest (RST: in
	                         the order the document's adornments appear) */
	RL_BLOCK_TRANSITION,  /* RST: a line of punctuation that underlines
	                         nothing */
	RL_BLOCK_DIRECTIVE,   /* RST: ".. name:: argument" (text: the
	                         argument; name NULL for a comment or target) */
	RL_BLOCK_OPTION,      /* RST: a directive's ":option:" line */
	RL_BLOCK_TERM,        /* RST glossary directive: a term line */
	RL_BLOCK_DEFINITION,  /* RST glossary directive: a definition line */
	RL_BLOCK_VALUE,       /* JSON: a value (name: its member name, NULL in
	                         an array); XML: an element (name: its name;
	                         text: its text when it holds no element) */
	RL_BLOCK_ATTRIBUTE,   /* XML: an attribute of the element before it */
};

/* What else a reader says about a block (flags). */
enum {
	RL_BLOCK_CODE = 1,    /* Markdown: indented four columns or more */
	RL_BLOCK_SKIPPED = 2, /* RST: inside a comment or a directive other
	                         than a glossary */
	RL_BLOCK_SETEXT = 4,  /* Markdown: a heading underlined, not "#" */
};

/* JSON value types, for RL_BLOCK_VALUE blocks of the JSON reader (kind). */
enum rl_value_kind {
	RL_VALUE_NULL, RL_VALUE_BOOL, RL_VALUE_NUMBER, RL_VALUE_STRING,
	RL_VALUE_ARRAY, RL_VALUE_OBJECT, RL_VALUE_ELEMENT
};

struct rl_block {
	enum rl_block_type type;
	unsigned line;        /* 1-based; 0 when unknown */
	unsigned level;       /* HEADING: its level; VALUE, ATTRIBUTE: the
	                         depth (0: the root) */
	unsigned indent;      /* columns of leading blanks (tabs to 8) */
	unsigned flags;
	enum rl_value_kind kind;   /* VALUE, ATTRIBUTE */
	const char *raw;      /* the line as written (line-based readers) */
	size_t raw_len;
	const char *text;     /* the content, without the syntax's marks */
	size_t len;
	const char *name;     /* see the types; may be NULL; NUL-terminated in
	                         VALUE and ATTRIBUTE blocks only */
	size_t name_len;
};

struct rl_blocks {
	struct rl_block *v;
	size_t n, cap;
	struct rl_block_chunk *strings;    /* what the list owns */
	/* A reader of records (XML) calls flush after each record, when it
	 * is set, then empties the list: the recognizer reads a record at a
	 * time and the memory is one record's. */
	int (*flush)(struct rl_blocks *b, void *ctx);
	void *flush_ctx;
	/* ... and restart when it reads the text again from the start: the
	 * records flushed so far are to be forgotten. */
	void (*restart)(void *ctx);
};

/* Appends a zeroed block of this type and line; NULL when memory ran
 * out. */
struct rl_block *rl_blocks_add(struct rl_blocks *b, enum rl_block_type type,
                               unsigned line);
/* A copy of s[0..n), NUL-terminated, owned by the list; NULL when memory
 * ran out. */
char *rl_blocks_strdup(struct rl_blocks *b, const char *s, size_t n);
/* Hands the blocks to flush (when set) and empties the list. */
int rl_blocks_flush(struct rl_blocks *b);
void rl_blocks_free(struct rl_blocks *b);

/* Is b a line of text: LINE or ITEM (or in RST a DIRECTIVE, OPTION, TERM
 * or DEFINITION line, which are lines too to a format that has none)? */
bool rl_block_is_text(const struct rl_block *b);
/* The next block after i that is not blank, or NULL. */
const struct rl_block *rl_blocks_next_nonblank(const struct rl_blocks *b,
                                               size_t i);
/* The block's text trimmed, as a new string. */
char *rl_block_strdup(const struct rl_block *b);
/* Moves *i to the first block from *i on that is neither blank nor a
 * transition (an overline over a title): RL_OK, or RL_EDATA with an
 * "empty document" error in d when there is none. */
int rl_blocks_skip_to_content(const struct rl_blocks *b, size_t *i,
                              struct rl_diags *d);
/* For a probe: text read by read into *b. false when memory ran out (*b
 * is then freed, and the probe says RL_PROBE_ENOMEM). */
bool rl_probe_read(const char *text, size_t len,
                   int (*read)(const struct rl_source *, struct rl_blocks *),
                   struct rl_blocks *b);

/* ---- The readers --------------------------------------------------------- */

/* Lines and bullets: one BLANK, LINE or ITEM block a line (raw: the whole
 * line; text: after the indentation; an item's text after its marker). */
int rl_read_lines(const struct rl_source *src, struct rl_blocks *out);
/* reStructuredText (rst.h): the lines, with section titles (over- and
 * underlines consumed), transitions, explicit markup and glossary
 * content. */
int rl_read_rst(const struct rl_source *src, struct rl_blocks *out);
/* Markdown (markdown.h): headings, blank lines and lines of text (quote
 * markers and hard breaks removed); YAML front matter is passed over. */
int rl_read_markdown(const struct rl_source *src, struct rl_blocks *out);
/* JSON: every value in document order, each with its depth and line;
 * RL_EDATA with one LINE:COL error for text that is not JSON. */
int rl_read_json(const struct rl_source *src, struct rl_blocks *out,
                 struct rl_diags *d);

#endif
