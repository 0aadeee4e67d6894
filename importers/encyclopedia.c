/* encyclopedia.c — an encyclopedia entry, as text extracted from a PDF page
 * (the NeuroScape encyclopedia is the model).
 *
 *   ENCYCLOPÉDIE // ENTRÉE 21           the header: the entry number
 *   Swift (rapide) et Swift Checks      the title
 *   Fenêtres de réponse rapide …        the lead sentence
 *   Dans NeuroScape, le mot-clé …       body text ("Dans GAME," names the game)
 *   Fin de la fenêtre                   a heading: a new section
 *
 * Each section becomes a ruling of the entry (the text before the first
 * heading is the title section). "Term (traduction)" pairs become glossary
 * entries, referenced by the sections that use the term. "la rubrique X"
 * is a reference to another section, which may be in another file.
 *
 * The page's side box ("À RETENIR") is told apart from the body by
 * encyclopedia_page.c; its items become a ruling of their own. */
#include "encyclopedia.h"
#include "importer.h"
#include "doc.h"
#include "re.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* The words of the format. */
static const char HEADER_RE[] =
	"^\\s*ENCYCLOP(?:\\x{00C9}|E)DIE\\s*//\\s*ENTR(?:\\x{00C9}|E)E\\s+(\\d+)\\s*$";
/* "Dans NeuroScape, …" / "In NeuroScape, …": the game. */
static const char GAME_RE[] =
	"(?:^|[.!?]\\s+)(?:Dans|In)\\s+(\\p{Lu}[\\p{L}\\d-]*(?:\\s\\p{Lu}[\\p{L}\\d-]*)*),";
/* "Swift Checks (fenêtres de réponse rapide)": a term and its translation. */
static const char PAIR_RE[] =
	"(\\p{Lu}[\\p{L}-]*(?:\\s\\p{Lu}[\\p{L}-]*)*)\\s\\((\\p{Ll}[^()]{0,60})\\)";
/* Articles that open a sentence are not part of a term ("La Cache (pile
 * de résolution)" is the term "Cache"). */
static const char *const articles[] = {
	"La ", "Le ", "Les ", "L\xE2\x80\x99", "L'", "Un ", "Une ", "Des ",
	"Du ", "The ", "A ", "An ", NULL
};
/* "la rubrique Apprendre": a section reference. */
static const char SECTION_REF_RE[] =
	"\\brubriques?\\s+(\\p{Lu}[\\p{L}\\d\\x{2019}'-]*(?:\\s\\p{Lu}[\\p{L}\\d-]*)*)";

/* ---- the whole document ----------------------------------------------------- */

static int glossary(struct ency_page *p, pcre2_code *pair, pcre2_match_data *md)
{
	/* Look for pairs in the titles and texts of every ruling. */
	int rc = RL_OK;
	size_t nrulings = p->doc->n;
	for (size_t i = 0; i < 2 * nrulings && !rc; i++) {
		const struct rl_entry *src = &p->doc->entries[i / 2];
		const char *text = i % 2 ? src->text : src->title;
		unsigned line = src->line;
		size_t len = strlen(text);
		PCRE2_SIZE off = 0;
		while (!rc && pcre2_match(pair, (PCRE2_SPTR)text, len, off,
		                          PCRE2_NO_UTF_CHECK, md, NULL) >= 3) {
			PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
			size_t ts = ov[2];
			for (const char *const *a = articles; *a; a++) {
				size_t al = strlen(*a);
				if (ov[3] - ts > al && strncmp(text + ts, *a, al) == 0) {
					ts += al;
					break;
				}
			}
			char *term = rl_strndup(text + ts, ov[3] - ts);
			char *tr = rl_strndup(text + ov[4], ov[5] - ov[4]);
			off = ov[1];
			if (!term || !tr) {
				free(term);
				free(tr);
				return RL_ENOMEM;
			}
			bool dup = false;
			for (size_t k = 0; k < p->doc->n && !dup; k++)
				dup = p->doc->entries[k].kind == RL_KIND_GLOSSARY &&
				      strcmp(p->doc->entries[k].title, term) == 0;
			if (!dup) {
				struct rl_entry *e = rl_doc_add_entry(p->doc);
				if (!e) {
					free(term);
					free(tr);
					return RL_ENOMEM;
				}
				e->kind = RL_KIND_GLOSSARY;
				e->line = line;
				e->title = term;
				e->text = tr;
				e->section = rl_strdup(p->doc->title);
				if (!e->section)
					rc = RL_ENOMEM;
			} else {
				free(term);
				free(tr);
			}
		}
	}
	return rc;
}

/* Does text use term as a whole word? */
static bool uses(const char *text, const char *term)
{
	size_t n = strlen(term);
	for (const char *q = strstr(text, term); q; q = strstr(q + 1, term)) {
		bool before = q == text || q[-1] == ' ' || q[-1] == '(' || q[-1] == '\'' ||
		              (unsigned char)q[-1] == 0x99;   /* after ’ */
		char after = q[n];
		if (before && !(after >= 'a' && after <= 'z') &&
		    !((unsigned char)after >= 0x80 && after != (char)0xE2))
			return true;
	}
	return false;
}

static int build(struct ency_page *p, pcre2_code *pair, pcre2_code *sref,
                 pcre2_match_data *md)
{
	int rc = RL_OK;
	/* sections become rulings */
	for (size_t i = 0; i < p->nsecs && !rc; i++) {
		struct ency_section *s = &p->secs[i];
		char *text = rl_buf_take(&s->text);
		if (!text)
			return RL_ENOMEM;
		struct rl_entry *e = rl_doc_add_entry(p->doc);
		if (!e) {
			free(text);
			return RL_ENOMEM;
		}
		e->kind = RL_KIND_RULE;
		e->line = s->line;
		e->title = s->title;
		s->title = NULL;
		e->text = text;
		e->section = rl_strdup(p->doc->title);
		if (!e->section)
			return RL_ENOMEM;
		if (!*text)
			rc = rl_diag_add(p->d, RL_WARNING, s->line, 0,
			                 "section '%s' has no text", e->title);
		size_t len = strlen(text);
		PCRE2_SIZE off = 0;
		while (!rc && pcre2_match(sref, (PCRE2_SPTR)text, len, off,
		                          PCRE2_NO_UTF_CHECK, md, NULL) >= 2) {
			PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
			char *t = rl_strndup(text + ov[2], ov[3] - ov[2]);
			rc = t ? rl_entry_add_ref(e, RL_REF_RULING, t) : RL_ENOMEM;
			free(t);
			off = ov[1];
		}
	}
	for (size_t i = 0; i < p->nbox && !rc; i++)
		if (!ency_ends_sentence(p->box[i].text, strlen(p->box[i].text)))
			rc = rl_diag_add(p->d, RL_WARNING, p->box[i].line, 0,
			                 "side-box item '%s' is unfinished (the rest "
			                 "could not be found)", p->box[i].text);
	/* the box */
	if (!rc && p->nbox) {
		struct rl_buf b = {0};
		for (size_t i = 0; i < p->nbox; i++) {
			if (i)
				rl_buf_addc(&b, '\n');
			rl_buf_adds(&b, p->box[i].text);
		}
		struct rl_entry *e = rl_doc_add_entry(p->doc);
		if (!e) {
			rl_buf_free(&b);
			return RL_ENOMEM;
		}
		e->kind = RL_KIND_RULE;
		e->line = p->box_line ? p->box_line : p->box[0].line;
		e->title = rl_strdup(ENCY_BOX_HEADER);
		e->text = rl_buf_take(&b);
		e->section = rl_strdup(p->doc->title);
		if (!e->title || !e->text || !e->section)
			return RL_ENOMEM;
	}
	for (size_t i = 0; i < p->nloose && !rc; i++)
		rc = rl_diag_add(p->d, RL_WARNING, p->loose[i].line, 0,
		                 "could not place '%s' (side box or body?); kept in "
		                 "the box", p->loose[i].text);
	if (!rc && p->nloose) {
		/* nothing lost: the unplaced fragments join the box ruling */
		struct rl_entry *box = NULL;
		for (size_t k = 0; k < p->doc->n; k++)
			if (strcmp(p->doc->entries[k].title, ENCY_BOX_HEADER) == 0)
				box = &p->doc->entries[k];
		struct rl_buf b = {0};
		if (box)
			rl_buf_adds(&b, box->text);
		for (size_t i = 0; i < p->nloose; i++) {
			if (b.len)
				rl_buf_addc(&b, '\n');
			rl_buf_adds(&b, p->loose[i].text);
		}
		char *t = rl_buf_take(&b);
		if (!t)
			return RL_ENOMEM;
		if (box) {
			free(box->text);
			box->text = t;
		} else {
			struct rl_entry *e = rl_doc_add_entry(p->doc);
			if (!e) {
				free(t);
				return RL_ENOMEM;
			}
			e->kind = RL_KIND_RULE;
			e->line = p->loose[0].line;
			e->title = rl_strdup(ENCY_BOX_HEADER);
			e->text = t;
			e->section = rl_strdup(p->doc->title);
			if (!e->title || !e->section)
				return RL_ENOMEM;
		}
	}
	if (rc)
		return rc;
	/* glossary pairs, then references from rulings to the terms they use */
	size_t nrulings = p->doc->n;
	if ((rc = glossary(p, pair, md)))
		return rc;
	/* A ruling that uses a term refers to it and is tagged with it, as
	 * "Term (traduction)": the tag the thesaurus maps across languages. */
	for (size_t i = 0; i < p->doc->n && !rc; i++) {
		struct rl_entry *e = &p->doc->entries[i];
		for (size_t k = nrulings; k < p->doc->n && !rc; k++) {
			const struct rl_entry *g = &p->doc->entries[k];
			bool self = i == k;
			if (!self && !uses(e->text, g->title) && !uses(e->title, g->title))
				continue;
			if (!self)
				rc = rl_entry_add_ref(e, RL_REF_TERM, g->title);
			if (!rc)
				rc = rl_entry_add_tag(e, g->title, g->text);
		}
	}
	return rc;
}

static int parse_lines(struct ency_page *p, const struct rl_block *l, size_t n,
                       pcre2_code *header, pcre2_code *game,
                       pcre2_match_data *md)
{
	size_t i = 0;
	while (i < n && rl_is_blank_line(l[i].raw, l[i].raw_len))
		i++;
	if (i == n || pcre2_match(header, (PCRE2_SPTR)l[i].raw, l[i].raw_len, 0,
	                          PCRE2_NO_UTF_CHECK, md, NULL) < 2) {
		rl_diag_add(p->d, RL_ERROR, i < n ? l[i].line : 0, 0,
		            "expected an 'ENCYCLOPÉDIE // ENTRÉE N' header");
		return RL_EDATA;
	}
	i++;
	while (i < n && rl_is_blank_line(l[i].raw, l[i].raw_len))
		i++;
	if (i == n) {
		rl_diag_add(p->d, RL_ERROR, l[n - 1].line, 0, "the entry has no title");
		return RL_EDATA;
	}
	if (!(p->doc->title = rl_strtrim(l[i].raw, l[i].raw_len)))
		return RL_ENOMEM;
	int rc = ency_page_read(p, l + i, n - i);
	if (rc)
		return rc;
	/* "Dans NeuroScape, …" names the game */
	const char *intro = p->secs[0].text.s;
	if (intro && pcre2_match(game, (PCRE2_SPTR)intro, strlen(intro), 0,
	                         PCRE2_NO_UTF_CHECK, md, NULL) >= 2) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		if (rl_doc_set_game(p->doc, intro + ov[2], ov[3] - ov[2]))
			return RL_ENOMEM;
	}
	return RL_OK;
}

static int recognize(const struct rl_blocks *b, struct rl_input *in)
{
	struct ency_page p = { .doc = in->doc, .d = in->d };
	pcre2_code *header = rl_re_compile(HEADER_RE, 0), *game = rl_re_compile(GAME_RE, 0),
		*pair = rl_re_compile(PAIR_RE, 0), *sref = rl_re_compile(SECTION_REF_RE, 0);
	pcre2_match_data *md = pcre2_match_data_create(16, NULL);
	int rc = RL_OK;
	if (!header || !game || !pair || !sref || !md)
		rc = RL_ENOMEM;
	if (!rc)
		rc = parse_lines(&p, b->v, b->n, header, game, md);
	if (!rc)
		rc = build(&p, pair, sref, md);
	ency_page_free(&p);
	pcre2_match_data_free(md);
	pcre2_code_free(header);
	pcre2_code_free(game);
	pcre2_code_free(pair);
	pcre2_code_free(sref);
	return rc;
}

static enum rl_confidence probe(const char *text, size_t len)
{
	pcre2_code *re = rl_re_compile(HEADER_RE, 0);
	pcre2_match_data *md = re ? pcre2_match_data_create_from_pattern(re, NULL)
	                          : NULL;
	/* the first non-blank line */
	while (len && (*text == '\n' || rl_blank_len(text))) {
		size_t k = *text == '\n' ? 1 : rl_blank_len(text);
		text += k;
		len -= k;
	}
	const char *nl = memchr(text, '\n', len);
	size_t n = nl ? (size_t)(nl - text) : len;
	/* the pattern is a constant: only memory can fail it */
	enum rl_confidence score =
		!md ? RL_PROBE_ENOMEM
		    : pcre2_match(re, (PCRE2_SPTR)text, n, 0, PCRE2_NO_UTF_CHECK, md,
		                  NULL) >= 2 ? RL_PROBE_CERTAIN : RL_PROBE_NO;
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	return score;
}

const struct rl_recognizer rl_format_encyclopedia = {
	.description = "encyclopedia entry extracted from a PDF: \"ENCYCLOP\xC3\x89"
	               "DIE // ENTR\xC3\x89" "E N\", a title, sections, glossary pairs",
	.probe = probe,
	.recognize = recognize,
};

