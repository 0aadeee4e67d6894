/* export_book.c — rulebooks as books (export.h): in a directory of pages,
 * the numbered rules and the glossary of a document are laid out as a
 * table of contents, pages of rules and pages of glossary letters, not
 * as one long page of rulings with no tag.
 *
 * A book is a document (the one a ruling was last imported from) with at
 * least one numbered rule, or whose selected rulings are all glossary
 * entries; its numbered rules and glossary entries are its rulings (other
 * rulings of the document stay on the tag pages). The documents of one
 * game and language whose rulings are all glossary entries (a glossary
 * kept as a file per term: Glossaire/D/Degats.md) are one book, the
 * glossary, titled in its language; alone, such a document is a book of
 * its own, titled as it is.
 *
 * Its structure comes from the rule numbers, whatever the importer made of
 * sections: a rule's head is its number before the first dot ("702" for
 * 702.19a); a head that other heads begin with is a chapter ("7" for 702,
 * in the Comprehensive Rules, which number their chapters 1 to 9), the
 * others are sections. Rules are ordered by chapter, then by the numbers
 * of their parts ("100.2" before "100.10", "100.1" before "100.1a"). A
 * chapter whose rules are small is one page, a larger one a page per
 * section; a book with no chapters is one page when it is small. The
 * glossary has a page per letter: an entry's section when the importer
 * made it a letter, else the first letter of its term. */
#include "export.h"
#include "msg.h"
#include "utf8.h"
#include "util.h"

#include <utf8proc.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rules of a chapter (or a book with no chapters) up to this many bytes
 * of text are one page; the CR's largest section, 702, is ~190 KB of
 * HTML. */
enum { SMALL_PAGE = 48 * 1024 };

/* What planning reads of each ruling of the selection. */
struct info {
	long long doc;
	char kind;              /* 'r' numbered rule, 'g' glossary, 0 other */
	size_t len;             /* of its text */
};

/* ---- rule numbers ---------------------------------------------------------- */

static size_t head_len(const char *num)
{
	const char *dot = strchr(num, '.');
	return dot ? (size_t)(dot - num) : strlen(num);
}

/* Compares a and b part by part: runs of digits by value, other bytes
 * as they are; a prefix first. */
static int natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			size_t na = 0, nb = 0;
			while (isdigit((unsigned char)a[na]))
				na++;
			while (isdigit((unsigned char)b[nb]))
				nb++;
			if (na != nb)
				return na < nb ? -1 : 1;
			int c = memcmp(a, b, na);
			if (c)
				return c;
			a += na;
			b += nb;
		} else {
			if (*a != *b)
				return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
			a++;
			b++;
		}
	}
	return !!*a - !!*b;
}

const struct export_head *export_head_of(const struct export_book *b,
                                         const char *num)
{
	size_t n = head_len(num);
	for (size_t k = 0; k < b->nheads; k++)
		if (strlen(b->heads[k].num) == n &&
		    memcmp(b->heads[k].num, num, n) == 0)
			return &b->heads[k];
	return NULL;
}

/* The chapter a head is in: the longest chapter it begins with (itself
 * when it is one), or NULL. */
static const char *chapter_of(const struct export_book *b, const char *head,
                              size_t n)
{
	const char *best = NULL;
	for (size_t k = 0; k < b->nheads; k++) {
		const struct export_head *h = &b->heads[k];
		size_t m = strlen(h->num);
		if (h->chapter && m <= n && memcmp(h->num, head, m) == 0 &&
		    (!best || m > strlen(best)))
			best = h->num;
	}
	return best;
}

int export_rule_cmp(const struct export_book *b, const char *x, const char *y)
{
	size_t nx = head_len(x), ny = head_len(y);
	const char *cx = chapter_of(b, x, nx), *cy = chapter_of(b, y, ny);
	char hx[64], hy[64];
	snprintf(hx, sizeof hx, "%.*s", (int)(cx ? strlen(cx) : nx), cx ? cx : x);
	snprintf(hy, sizeof hy, "%.*s", (int)(cy ? strlen(cy) : ny), cy ? cy : y);
	int c = natural_cmp(hx, hy);
	return c ? c : natural_cmp(x, y);
}

char *export_anchor(const struct rl_export *x, const struct export_page *p,
                    size_t i)
{
	const struct export_ruling *r = &x->v[i];
	if (p && p->kind != EXPORT_PAGE_TAG && r->bkind == 'r')
		return rl_strdup(r->place);
	struct rl_buf b = {0};
	rl_buf_addf(&b, "r%lld", r->id);
	return rl_buf_take(&b);
}

/* ---- which rulings are in a book --------------------------------------- */

static const char info_sql[] =
	"SELECT r.kind, r.rule, r.section, r.title, length(r.body),"
	" (SELECT s.document_id FROM ruling_sources s WHERE s.ruling_id = r.id"
	"  ORDER BY s.import_id DESC LIMIT 1)"
	" FROM rulings r WHERE r.id = ?1";

/* The letter of a glossary entry: its section when that is one
 * character, else its term's first letter, upper case. */
static void letter(const char *section, const char *title, char out[8])
{
	const char *s = section && *section ? section : NULL;
	uint32_t cp;
	if (s && s[rl_utf8_decode(s, &cp)] == '\0') {
		snprintf(out, 8, "%s", s);
		return;
	}
	s = title ? title : "";
	while (*s && !rl_is_word_cp((rl_utf8_decode(s, &cp), cp)))
		s += rl_utf8_decode(s, &cp);
	if (!*s) {
		snprintf(out, 8, "%s", "\xE2\x80\xA6");      /* … */
		return;
	}
	rl_utf8_decode(s, &cp);
	cp = (uint32_t)utf8proc_toupper((utf8proc_int32_t)cp);
	out[rl_utf8_encode(cp, out)] = '\0';
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

struct doc_count {
	long long doc;
	size_t numbered, gloss, other;
	const char *lang, *game;        /* its first ruling's */
	long long book;                 /* the document whose book it is in */
	size_t members;                 /* (the book's document) how many */
};

static int cmp_doc(const void *a, const void *b)
{
	long long x = ((const struct doc_count *)a)->doc,
	          y = ((const struct doc_count *)b)->doc;
	return (x > y) - (x < y);
}

static bool glossary_only(const struct doc_count *d)
{
	return d->gloss && !d->numbered && !d->other;
}

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static struct doc_count *find_doc(struct doc_count *v, size_t n, long long doc)
{
	struct doc_count key = { .doc = doc };
	return n ? bsearch(&key, v, n, sizeof *v, cmp_doc) : NULL;
}

/* Sorting a book's rules: the book, for export_rule_cmp. */
static const struct export_book *sort_book;
static const struct rl_export *sort_x;

static int cmp_rule_i(const void *a, const void *b)
{
	const char *x = sort_x->v[*(const size_t *)a].place,
	           *y = sort_x->v[*(const size_t *)b].place;
	int c = export_rule_cmp(sort_book, x, y);
	return c ? c : cmp_size(a, b);
}

static int cmp_letter_i(const void *a, const void *b)
{
	const char *x = sort_x->v[*(const size_t *)a].place,
	           *y = sort_x->v[*(const size_t *)b].place;
	uint32_t cx, cy;
	rl_utf8_decode(x, &cx);
	rl_utf8_decode(y, &cy);
	cx = rl_fold_cp(cx);
	cy = rl_fold_cp(cy);
	if (cx != cy)
		return cx < cy ? -1 : 1;
	int c = strcmp(x, y);
	return c ? c : cmp_size(a, b);
}

static int cmp_head(const void *a, const void *b)
{
	const struct export_head *x = a, *y = b;
	int c = natural_cmp(x->chap, y->chap);
	return c ? c : natural_cmp(x->num, y->num);
}

/* The heads of a book: its rules' numbers before the first dot, each
 * once, with the title of the rule that has that number. */
static int book_heads(struct rl_export *x, struct export_book *b,
                      sqlite3_stmt *title)
{
	size_t cap = 0;
	for (size_t k = 0; k < b->nrules; k++) {
		const char *num = x->v[b->rules[k]].place;
		if (export_head_of(b, num))
			continue;
		if (!rl_grow(&b->heads, &cap, b->nheads + 1, sizeof *b->heads))
			return RL_ENOMEM;
		struct rl_buf nb = {0};
		rl_buf_addf(&nb, "%.*s", (int)head_len(num), num);
		bool oom = nb.oom;
		char *s = rl_buf_take(&nb);
		const char *kept = NULL;
		if (s) {
			/* interned: the selection's strings live as long */
			for (size_t j = 0; j < b->nrules && !kept; j++)
				if (!strcmp(x->v[b->rules[j]].place, s))
					kept = x->v[b->rules[j]].place;
		}
		b->heads[b->nheads] = (struct export_head){ .num = kept };
		if (!kept) {
			/* no rule has the head's number: the head owns it */
			b->heads[b->nheads].num = s;
			b->heads[b->nheads].owned = true;
			s = NULL;
		} else {
			size_t i = 0;
			for (size_t j = 0; j < b->nrules; j++)
				if (x->v[b->rules[j]].place == kept)
					i = b->rules[j];
			sqlite3_reset(title);
			sqlite3_bind_int64(title, 1, x->v[i].id);
			if (sqlite3_step(title) == SQLITE_ROW)
				b->heads[b->nheads].title = rl_column_dup(title, 0, &oom);
		}
		free(s);
		b->nheads++;
		if (oom || !b->heads[b->nheads - 1].num)
			return RL_ENOMEM;
	}
	/* chapters: heads another head begins with */
	for (size_t k = 0; k < b->nheads; k++)
		for (size_t j = 0; j < b->nheads && !b->heads[k].chapter; j++) {
			size_t m = strlen(b->heads[k].num);
			b->heads[k].chapter = j != k && strlen(b->heads[j].num) > m &&
			                      !memcmp(b->heads[j].num, b->heads[k].num, m);
		}
	for (size_t k = 0; k < b->nheads; k++) {
		const char *c = chapter_of(b, b->heads[k].num,
		                           strlen(b->heads[k].num));
		b->heads[k].chap = c ? c : b->heads[k].num;
	}
	if (b->nheads)
		qsort(b->heads, b->nheads, sizeof *b->heads, cmp_head);
	return RL_OK;
}

int export_books_find(struct rl_export *x)
{
	struct info *in = calloc(x->n ? x->n : 1, sizeof *in);
	struct doc_count *docs = NULL;
	size_t ndocs = 0, dcap = 0;
	sqlite3_stmt *st = in ? rl_db_prepare(x->db, info_sql) : NULL;
	sqlite3_stmt *dt = st ? rl_db_prepare(x->db, "SELECT title FROM "
	                                      "documents WHERE id = ?1") : NULL;
	sqlite3_stmt *tt = dt ? rl_db_prepare(x->db, "SELECT title FROM "
	                                      "rulings WHERE id = ?1") : NULL;
	int rc = !in ? rl_db_fail(x->db, RL_ENOMEM, "out of memory")
	       : !tt ? RL_EINTERNAL : RL_OK;
	bool oom = false;
	for (size_t i = 0; i < x->n && !rc && !oom; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, x->v[i].id);
		int s = sqlite3_step(st);
		if (s != SQLITE_ROW) {
			rc = rl_db_sqlite_fail(x->db, s, "query");
			break;
		}
		const char *kind = (const char *)sqlite3_column_text(st, 0);
		const char *rule = (const char *)sqlite3_column_text(st, 1);
		in[i].doc = sqlite3_column_int64(st, 5);
		in[i].len = (size_t)sqlite3_column_int64(st, 4);
		if (kind && !strcmp(kind, "rule") && rule && *rule &&
		    strlen(rule) < 48) {
			in[i].kind = 'r';
			x->v[i].place = export_intern(&x->strings, rule, &oom);
		} else if (kind && !strcmp(kind, "glossary")) {
			char l[8];
			letter((const char *)sqlite3_column_text(st, 2),
			       (const char *)sqlite3_column_text(st, 3), l);
			in[i].kind = 'g';
			x->v[i].place = export_intern(&x->strings, l, &oom);
		}
		struct doc_count *d = find_doc(docs, ndocs, in[i].doc);
		if (!d) {
			if (!rl_grow(&docs, &dcap, ndocs + 1, sizeof *docs)) {
				oom = true;
				break;
			}
			docs[ndocs++] = (struct doc_count){
				.doc = in[i].doc, .lang = x->v[i].lang,
				.game = x->v[i].game };
			qsort(docs, ndocs, sizeof *docs, cmp_doc);
			d = find_doc(docs, ndocs, in[i].doc);
		}
		d->numbered += in[i].kind == 'r';
		d->gloss += in[i].kind == 'g';
		d->other += !in[i].kind;
	}
	/* a game's glossary in a document per term: one book, that of the
	 * first of them */
	for (size_t k = 0; k < ndocs && !rc && !oom; k++) {
		struct doc_count *d = &docs[k];
		d->book = d->doc;
		d->members = 1;
		if (!d->doc || !glossary_only(d))
			continue;
		for (size_t j = 0; j < k; j++)
			if (docs[j].book == docs[j].doc && docs[j].doc &&
			    glossary_only(&docs[j]) && same(docs[j].lang, d->lang) &&
			    same(docs[j].game, d->game)) {
				d->book = docs[j].doc;
				docs[j].members++;
				docs[j].gloss += d->gloss;
				break;
			}
	}
	/* the books, in the order of their documents */
	size_t bcap = 0;
	for (size_t k = 0; k < ndocs && !rc && !oom; k++) {
		const struct doc_count *d = &docs[k];
		if (!d->doc || d->book != d->doc ||
		    !(d->numbered || (d->gloss && !d->other)))
			continue;
		if (!rl_grow(&x->books, &bcap, x->nbooks + 1, sizeof *x->books)) {
			oom = true;
			break;
		}
		struct export_book *b = &x->books[x->nbooks++];
		*b = (struct export_book){ .doc = d->doc };
		sqlite3_reset(dt);
		sqlite3_bind_int64(dt, 1, d->doc);
		if (d->members > 1)
			oom = !(b->title = rl_strdup(msg_get(msg_lang_or_en(d->lang),
			                                     MSG_GLOSSARY)));
		else if (sqlite3_step(dt) == SQLITE_ROW)
			b->title = rl_column_dup(dt, 0, &oom);
		if (!b->title && !oom)
			oom = !(b->title = rl_strdup("Rules"));
		b->rules = malloc((d->numbered ? d->numbered : 1) * sizeof *b->rules);
		b->gloss = malloc((d->gloss ? d->gloss : 1) * sizeof *b->gloss);
		oom |= !b->rules || !b->gloss;
		for (size_t i = 0; i < x->n && !oom; i++) {
			if (!in[i].kind || (in[i].doc != d->doc &&
			    (d->members == 1 ||
			     find_doc(docs, ndocs, in[i].doc)->book != d->doc)))
				continue;
			if (!b->lang) {
				b->lang = x->v[i].lang;
				b->game = x->v[i].game;
			}
			x->v[i].book = x->nbooks;
			x->v[i].bkind = in[i].kind;
			if (in[i].kind == 'r')
				b->rules[b->nrules++] = i;
			else
				b->gloss[b->ngloss++] = i;
		}
		if (!oom)
			oom = book_heads(x, b, tt) == RL_ENOMEM;
		sort_x = x;
		sort_book = b;
		qsort(b->rules, b->nrules, sizeof *b->rules, cmp_rule_i);
		qsort(b->gloss, b->ngloss, sizeof *b->gloss, cmp_letter_i);
	}
	if (!rc && !oom) {
		/* the size of each head's rules, for the pages */
		for (size_t k = 0; k < x->nbooks; k++) {
			struct export_book *b = &x->books[k];
			b->sizes = calloc(b->nheads ? b->nheads : 1, sizeof *b->sizes);
			if (!b->sizes) {
				oom = true;
				break;
			}
			for (size_t j = 0; j < b->nrules; j++) {
				const struct export_head *h = export_head_of(b,
					x->v[b->rules[j]].place);
				b->sizes[h - b->heads] += in[b->rules[j]].len + 64;
			}
		}
	}
	sqlite3_finalize(st);
	sqlite3_finalize(dt);
	sqlite3_finalize(tt);
	free(in);
	free(docs);
	if (oom)
		return rl_db_fail(x->db, RL_ENOMEM, "out of memory");
	return rc;
}

/* ---- the pages of the books ---------------------------------------------- */

static struct export_page *add_page(struct rl_export *x, size_t *cap,
                                    enum export_page_kind kind, size_t book,
                                    const char *title, const char *part)
{
	if (!rl_grow(&x->pages, cap, x->npages + 1, sizeof *x->pages))
		return NULL;
	struct export_page *p = &x->pages[x->npages++];
	*p = (struct export_page){ .kind = kind, .book = book };
	/* the file name: the part and the book's title ("702-magic-the-…"),
	 * with the document and a separator no tag holds, so that no tag's
	 * page has the same name */
	struct rl_buf nb = {0};
	rl_buf_addf(&nb, "%s\x1f%s\x1f%lld", part, x->books[book].title,
	            x->books[book].doc);
	char *name = rl_buf_take(&nb);
	p->file = name ? rl_export_filename(name, x->format->ext) : NULL;
	free(name);
	p->title = rl_strdup(title);
	return p->file && p->title ? p : NULL;
}

/* The page's rulings, ascending, for export_on_page(). */
static bool page_rulings(struct export_page *p, const size_t *order)
{
	p->n = p->hi - p->lo;
	p->cap = p->n ? p->n : 1;
	if (!(p->v = malloc(p->cap * sizeof *p->v)))
		return false;
	memcpy(p->v, order + p->lo, p->n * sizeof *p->v);
	qsort(p->v, p->n, sizeof *p->v, cmp_size);
	return true;
}

char *export_head_title(const struct export_head *h)
{
	struct rl_buf b = {0};
	if (h->title && *h->title)
		rl_buf_addf(&b, "%s. %s", h->num, h->title);
	else
		rl_buf_adds(&b, h->num);
	return rl_buf_take(&b);
}

/* The title of a page of the sections [s, e) of a book with no chapters
 * (a small book is one such page): the section's own title, or "Rules
 * 101–105" in the book's language. It was the book's title, which its
 * contents page already bears: "Далее: Основные принципы игры…" from the
 * contents of the book of that title led to a page titled alike, "X — X". */
static char *sections_title(const struct export_book *b, size_t s, size_t e)
{
	if (e - s == 1)
		return export_head_title(&b->heads[s]);
	const char *const args[] = { b->heads[s].num, b->heads[e - 1].num };
	return msg_fill(msg_get(msg_lang_or_en(b->lang), MSG_RULES_RANGE), 2,
	                args);
}

/* The rules from rules[k] on whose heads are in [h0, h1): their end. */
static size_t rules_end(const struct rl_export *x, const struct export_book *b,
                        size_t k, size_t h1)
{
	while (k < b->nrules) {
		const struct export_head *h = export_head_of(b, x->v[b->rules[k]].place);
		if ((size_t)(h - b->heads) >= h1)
			break;
		k++;
	}
	return k;
}

/* A page of rules: the rules from rules[*k] on whose heads are before
 * head e. */
static int rules_page(struct rl_export *x, size_t bk, size_t *cap, size_t *k,
                      size_t s, size_t e, const char *title, bool one_head)
{
	struct export_book *b = &x->books[bk];
	size_t lo = *k;
	*k = rules_end(x, b, lo, e);
	struct export_page *p = title ? add_page(x, cap, EXPORT_PAGE_RULES, bk,
	                                         title, b->heads[s].num) : NULL;
	if (!p)
		return RL_ENOMEM;
	p->lo = lo;
	p->hi = *k;
	p->one_head = one_head;
	if (!page_rulings(p, b->rules))
		return RL_ENOMEM;
	for (size_t j = s; j < e; j++)
		b->heads[j].page = x->npages - 1;
	return RL_OK;
}

/* The pages of a book: its table of contents (which holds the chapters'
 * own rules), its rules by chapter or section, its glossary by letter. */
static int book_pages(struct rl_export *x, size_t bk, size_t *cap)
{
	struct export_book *b = &x->books[bk];
	b->toc = x->npages;
	if (!add_page(x, cap, EXPORT_PAGE_TOC, bk, b->title, "contents"))
		return RL_ENOMEM;
	size_t *toc = malloc((b->nrules ? b->nrules : 1) * sizeof *toc), ntoc = 0;
	if (!toc)
		return RL_ENOMEM;
	size_t nch = 0, k = 0;
	for (size_t h = 0; h < b->nheads; h++)
		nch += b->heads[h].chapter;
	int rc = RL_OK;
	for (size_t h = 0; h < b->nheads && !rc; ) {
		/* a group: a chapter and its sections, or a book with no
		 * chapters whole */
		size_t g0 = h, g1 = nch ? h + 1 : b->nheads;
		while (nch && g1 < b->nheads && !b->heads[g1].chapter)
			g1++;
		if (b->heads[g0].chapter) {
			size_t lo = k;
			k = rules_end(x, b, k, g0 + 1);
			while (lo < k)
				toc[ntoc++] = b->rules[lo++];
			b->heads[g0].page = b->toc;
			g0++;
		}
		size_t size = 0;
		for (size_t j = g0; j < g1; j++)
			size += b->sizes[j];
		if (g0 < g1 && size <= SMALL_PAGE) {
			char *title = h < g0 ? export_head_title(&b->heads[h])
			                     : sections_title(b, g0, g1);
			rc = rules_page(x, bk, cap, &k, g0, g1, title, false);
			free(title);
		} else {
			for (size_t s = g0; s < g1 && !rc; s++) {
				char *title = export_head_title(&b->heads[s]);
				rc = rules_page(x, bk, cap, &k, s, s + 1, title, true);
				free(title);
			}
		}
		h = g1;
	}
	struct export_page *tp = &x->pages[b->toc];
	tp->n = ntoc;
	tp->cap = ntoc ? ntoc : 1;
	tp->v = toc;
	qsort(tp->v, tp->n, sizeof *tp->v, cmp_size);
	/* the glossary, a page per letter */
	for (size_t j = 0; j < b->ngloss && !rc; ) {
		const char *l = x->v[b->gloss[j]].place;
		size_t e = j;
		while (e < b->ngloss && x->v[b->gloss[e]].place == l)
			e++;
		struct rl_buf pb = {0};
		rl_buf_addf(&pb, "glossary %s", l);
		char *part = rl_buf_take(&pb);
		struct export_page *p = part ? add_page(x, cap, EXPORT_PAGE_LETTER,
		                                        bk, l, part) : NULL;
		free(part);
		if (!p)
			return RL_ENOMEM;
		p->lo = j;
		p->hi = e;
		if (!page_rulings(p, b->gloss))
			return RL_ENOMEM;
		j = e;
	}
	b->end = x->npages;
	return rc;
}

int export_books_pages(struct rl_export *x, size_t *cap)
{
	for (size_t k = 0; k < x->nbooks; k++)
		if (book_pages(x, k, cap))
			return rl_db_fail(x->db, RL_ENOMEM, "out of memory");
	return RL_OK;
}

/* ---- what the index and the games' pages count ------------------------- */

const char *export_majority_lang(const struct rl_export *x, const size_t *v,
                                 size_t n, const char *game)
{
	struct msg_tally t = {0};
	for (size_t k = 0; k < (v ? n : x->n); k++) {
		const struct export_ruling *r = &x->v[v ? v[k] : k];
		if (!game || (r->game && !strcmp(r->game, game)))
			msg_tally_add(&t, r->lang);
	}
	return msg_tally_best(&t);
}

size_t export_page_count(const struct rl_export *x, const struct export_page *p,
                         const char *game)
{
	size_t n = 0;
	for (size_t j = 0; j < p->n; j++) {
		const char *g = x->v[p->v[j]].game;
		n += !game || (g && !strcmp(g, game));
	}
	return n;
}

void export_books_free(struct rl_export *x)
{
	for (size_t k = 0; k < x->nbooks; k++) {
		struct export_book *b = &x->books[k];
		for (size_t h = 0; h < b->nheads; h++) {
			free(b->heads[h].title);
			if (b->heads[h].owned)
				free((char *)b->heads[h].num);
		}
		free(b->heads);
		free(b->sizes);
		free(b->rules);
		free(b->gloss);
		free(b->title);
	}
	free(x->books);
	x->books = NULL;
	x->nbooks = 0;
}
