/* export_plan.c — what an export writes, whatever the format: the
 * selection, its pages and the order of a page (export.h).
 *
 * The selection is a search (rl_search, as `search --no-thesaurus --limit
 * 0` runs it) and gives an ordered list of rulings. A page is a tag and
 * the selected rulings that carry it; with a tag option there is one page,
 * else one per tag (and one for the rulings with no tag). A tag is known
 * by its identity, not by its spelling: "A (B)" with no qualifier, "A"
 * qualified "B" and "a(b)" are one tag and one page, with each ruling on
 * it once; different tags never share a page.
 * Page file names and tag identities: export_names.c. */
#include "export.h"
#include "query.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* ---- lookups ------------------------------------------------------------- */

int export_ruling(struct rl_export *x, size_t i, struct rl_ruling *out)
{
	/* no renderer reads a rule's relations: a book lays its rules out
	 * itself (export_book.c) */
	return rl_show_unrelated(x->db, x->ids[i], out);
}

bool export_find(const struct rl_export *x, long long id, size_t *i)
{
	size_t lo = 0, hi = x->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (x->by_id[mid].id == id) {
			*i = x->by_id[mid].i;
			return true;
		}
		if (x->by_id[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

bool export_on_page(const struct export_page *p, size_t i)
{
	size_t lo = 0, hi = p->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->v[mid] == i)
			return true;
		if (p->v[mid] < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

int export_page_of(const struct rl_export *x, const char *tag,
                   const struct export_page **page)
{
	*page = NULL;
	char *key = export_tag_key(tag);
	if (!key)
		return rl_db_fail(x->db, RL_ENOMEM, "out of memory");
	size_t lo = 0, hi = x->npages;
	while (lo < hi && !*page) {
		size_t mid = lo + (hi - lo) / 2;
		const struct export_page *p = &x->pages[x->by_key[mid]];
		int c = p->key ? strcmp(p->key, key) : 1;
		if (c == 0)
			*page = p;
		else if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	free(key);
	return RL_OK;
}

/* ---- pages ----------------------------------------------------------------- */

/* (tag, ruling) pairs, sorted to make the pages. */
struct pair {
	char *key;
	const char *tag;
	size_t i;
};

static int cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

static bool page_add(struct export_page *p, size_t i)
{
	if (p->n && p->v[p->n - 1] == i)
		return true;              /* one ruling once, whatever spelling */
	if (!rl_grow(&p->v, &p->cap, p->n + 1, sizeof *p->v))
		return false;
	p->v[p->n++] = i;
	return true;
}

/* A new page for the tag shown as title (NULL: no tag). */
static struct export_page *new_page(struct rl_export *x, size_t *cap,
                                    const char *title)
{
	if (!rl_grow(&x->pages, cap, x->npages + 1, sizeof *x->pages))
		return NULL;
	struct export_page *p = &x->pages[x->npages++];
	*p = (struct export_page){0};
	char *shown = NULL;
	if (title && (!(p->title = rl_strdup(title)) ||
	              export_tag_canonical(title, &shown, &p->key)))
		return NULL;
	struct rl_buf b = {0};
	if (title)
		p->file = rl_export_filename(shown, x->format->ext);
	else
		rl_buf_addf(&b, "untagged%s", x->format->ext);
	if (!title)
		p->file = rl_buf_take(&b);
	free(shown);
	return p->file ? p : NULL;
}

/* The title of the page a tag option names: the tag as stored when a
 * ruling carries it (case and spelling aside), else as given. */
static const char *option_title(const struct rl_export *x, bool *oom)
{
	char *want = export_tag_key(x->tag);
	const char *found = NULL;
	*oom = !want;
	for (size_t i = 0; want && i < x->n && !found; i++)
		for (size_t k = 0; k < x->v[i].ntags && !found; k++) {
			const char *tag = x->tagv[x->v[i].tag0 + k];
			char *key = export_tag_key(tag);
			*oom |= !key;
			if (key && strcmp(key, want) == 0)
				found = tag;
			free(key);
		}
	free(want);
	return found ? found : x->tag;
}

/* One page per tag of the selected rulings: the pairs grouped by key,
 * each group's title its first spelling in byte order. */
static int tag_pages(struct rl_export *x, size_t *cap)
{
	size_t npairs = 0, pcap = 0;
	struct pair *pairs = NULL;
	bool oom = false, untagged = false;
	for (size_t i = 0; i < x->n && !oom; i++) {
		const struct export_ruling *r = &x->v[i];
		untagged |= r->ntags == 0 && !r->book;
		for (size_t k = 0; k < r->ntags && !oom; k++) {
			const char *tag = x->tagv[r->tag0 + k];
			char *key = NULL;
			oom = !rl_grow(&pairs, &pcap, npairs + 1, sizeof *pairs) ||
			      !(key = export_tag_key(tag));
			if (!oom)
				pairs[npairs++] = (struct pair){ key, tag, i };
		}
	}
	if (!oom && npairs)      /* (none: pairs is NULL, qsort's is UB) */
		qsort(pairs, npairs, sizeof *pairs, cmp_pair);
	for (size_t k = 0, end; k < npairs && !oom; k = end) {
		const char *title = pairs[k].tag;
		for (end = k; end < npairs && !strcmp(pairs[end].key, pairs[k].key);
		     end++)
			if (strcmp(pairs[end].tag, title) < 0)
				title = pairs[end].tag;
		struct export_page *p = new_page(x, cap, title);
		for (size_t j = k; p && j < end; j++)
			if (!page_add(p, pairs[j].i))
				p = NULL;
		oom = !p;
	}
	for (size_t k = 0; k < npairs; k++)
		free(pairs[k].key);
	free(pairs);
	if (oom || !untagged)
		return oom ? RL_ENOMEM : RL_OK;
	/* a page whose tag is data (exact_tag) needs one: the rulings with no
	 * tag are then on no page, and counted */
	if (x->format->exact_tag) {
		for (size_t i = 0; i < x->n; i++)
			x->report.untagged += x->v[i].ntags == 0;
	} else {
		struct export_page *p = new_page(x, cap, NULL);
		for (size_t i = 0; p && i < x->n; i++)
			if (x->v[i].ntags == 0 && !x->v[i].book && !page_add(p, i))
				p = NULL;
		oom = !p;
	}
	return oom ? RL_ENOMEM : RL_OK;
}

/* Pages in the order of their titles, folded, then as they are; the page
 * of the rulings with no tag last. */
struct by_title {
	char *fold;
	struct export_page page;
};

static int cmp_title(const void *a, const void *b)
{
	const struct by_title *x = a, *y = b;
	if (!x->page.title || !y->page.title)
		return !x->page.title - !y->page.title;
	int c = strcmp(x->fold, y->fold);
	return c ? c : strcmp(x->page.title, y->page.title);
}

static int sort_by_title(struct rl_export *x)
{
	struct by_title *v = malloc((x->npages ? x->npages : 1) * sizeof *v);
	bool oom = !v;
	for (size_t k = 0; k < x->npages && !oom; k++) {
		v[k].page = x->pages[k];
		v[k].fold = x->pages[k].title ? rl_fold(x->pages[k].title) : NULL;
		oom = x->pages[k].title && !v[k].fold;
		if (oom)
			while (k-- > 0)
				free(v[k].fold);
	}
	if (oom) {
		free(v);
		return RL_ENOMEM;
	}
	qsort(v, x->npages, sizeof *v, cmp_title);
	for (size_t k = 0; k < x->npages; k++) {
		x->pages[k] = v[k].page;
		free(v[k].fold);
	}
	free(v);
	return RL_OK;
}

static const struct export_page *sort_pages;
static int cmp_page_key(const void *a, const void *b)
{
	const struct export_page *x = &sort_pages[*(const size_t *)a],
	                         *y = &sort_pages[*(const size_t *)b];
	if (!x->key || !y->key)
		return !x->key - !y->key;
	return strcmp(x->key, y->key);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_by_id(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

static int make_pages(struct rl_export *x)
{
	size_t cap = 0;
	int rc = RL_OK;
	if (!x->tree) {
		bool oom = false;
		const char *title = x->tag ? option_title(x, &oom) : NULL;
		struct export_page *p = new_page(x, &cap, title);
		for (size_t i = 0; p && i < x->n; i++)
			if (!page_add(p, i))
				p = NULL;
		rc = !p || (x->tag && oom) ? RL_ENOMEM : RL_OK;
	} else {
		/* a book's rulings are on its pages, not on the page of the
		 * rulings with no tag */
		if (x->format->books)
			rc = export_books_find(x);
		if (!rc)
			rc = tag_pages(x, &cap);
	}
	if (!rc)
		rc = sort_by_title(x);
	if (!rc && x->tree && x->format->books)
		rc = export_books_pages(x, &cap);
	if (!rc && x->tree && x->format->books)
		rc = export_game_pages(x, &cap);
	x->home = malloc((x->n ? x->n : 1) * sizeof *x->home);
	x->by_key = malloc((x->npages ? x->npages : 1) * sizeof *x->by_key);
	const char **names = malloc((x->npages ? x->npages : 1) * sizeof *names);
	if (rc || !x->home || !x->by_key || !names) {
		free(names);
		return rl_db_fail(x->db, RL_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < x->n; i++)
		x->home[i] = (size_t)-1;
	for (size_t k = 0; k < x->npages; k++) {
		for (size_t j = 0; j < x->pages[k].n; j++)
			if (x->home[x->pages[k].v[j]] == (size_t)-1 ||
			    x->pages[k].kind != EXPORT_PAGE_TAG)   /* its book's */
				x->home[x->pages[k].v[j]] = k;
		x->by_key[k] = k;
		names[k] = x->pages[k].file;
	}
	sort_pages = x->pages;
	qsort(x->by_key, x->npages, sizeof *x->by_key, cmp_page_key);
	/* distinct tags, distinct file names: a hash collision (one in 2^48)
	 * would overwrite a page, so it is refused */
	qsort(names, x->npages, sizeof *names, cmp_str);
	bool same = false;
	for (size_t k = 1; k < x->npages && !same; k++)
		same = strcmp(names[k - 1], names[k]) == 0;
	free(names);
	if (same)
		return rl_db_fail(x->db, RL_EINTERNAL, "two tags give the same file "
		                  "name; please report it");
	return RL_OK;
}

int export_plan(struct rl_export *x, const struct rl_export_opts *o)
{
	x->tree = x->format->render_page && !o->tag;
	x->tag = o->tag;
	int rc = export_select(x, o);
	if (!rc && x->format->render_page)
		rc = make_pages(x);
	if (rc)
		return rc;
	x->by_id = malloc((x->n ? x->n : 1) * sizeof *x->by_id);
	if (!x->by_id)
		return rl_db_fail(x->db, RL_ENOMEM, "out of memory");
	for (size_t i = 0; i < x->n; i++) {
		x->by_id[i].id = x->ids[i];
		x->by_id[i].i = i;
	}
	qsort(x->by_id, x->n, sizeof *x->by_id, cmp_by_id);
	return x->tree && x->format->feeds ? export_changes_plan(x, o) : RL_OK;
}

void export_plan_free(struct rl_export *x)
{
	free(x->ids);
	free(x->home);
	for (size_t k = 0; k < x->npages; k++) {
		free(x->pages[k].title);
		free(x->pages[k].key);
		free(x->pages[k].file);
		free(x->pages[k].v);
	}
	free(x->pages);
	export_books_free(x);
	export_changes_free(x);
	free(x->by_key);
	free(x->by_id);
	free(x->v);
	free(x->tagv);
	export_strings_free(&x->strings);
	rl_results_free(&x->sel);
}

/* ---- the order of a page ------------------------------------------------- */

struct ord {
	struct export_item it;
	size_t pos;                   /* in the selection */
	long long sec_first, cat_first;
};

/* NULL first, then by bytes */
static int cmp_opt(const char *a, const char *b)
{
	if (!a || !b)
		return !!a - !!b;
	return strcmp(a, b);
}

static int cmp_pos(size_t a, size_t b)
{
	return (a > b) - (a < b);
}

static int by_section(const void *a, const void *b)
{
	const struct ord *x = a, *y = b;
	int c = cmp_opt(x->it.section, y->it.section);
	return c ? c : cmp_pos(x->pos, y->pos);
}

static int by_category(const void *a, const void *b)
{
	const struct ord *x = a, *y = b;
	int c = cmp_opt(x->it.section, y->it.section);
	if (!c)
		c = cmp_opt(x->it.category, y->it.category);
	return c ? c : cmp_pos(x->pos, y->pos);
}

static int by_first(const void *a, const void *b)
{
	const struct ord *x = a, *y = b;
	if (x->sec_first != y->sec_first)
		return (x->sec_first > y->sec_first) - (x->sec_first < y->sec_first);
	if (x->cat_first != y->cat_first)
		return (x->cat_first > y->cat_first) - (x->cat_first < y->cat_first);
	return cmp_pos(x->pos, y->pos);
}

int export_order(const struct rl_export *x, const struct export_page *p,
                 struct export_item **items)
{
	struct ord *o = malloc((p->n ? p->n : 1) * sizeof *o);
	*items = malloc((p->n ? p->n : 1) * sizeof **items);
	if (!o || !*items) {
		free(o);
		free(*items);
		*items = NULL;
		return rl_db_fail(x->db, RL_ENOMEM, "out of memory");
	}
	for (size_t k = 0; k < p->n; k++) {
		const struct export_ruling *r = &x->v[p->v[k]];
		o[k] = (struct ord){ { p->v[k], r->section, r->category, false,
		                       false }, p->v[k], 0, 0 };
	}
	/* each section at its first ruling, rulings with none first */
	qsort(o, p->n, sizeof *o, by_section);
	for (size_t k = 0; k < p->n; k++)
		o[k].sec_first = !o[k].it.section ? -1
		               : k && !cmp_opt(o[k - 1].it.section, o[k].it.section)
		               ? o[k - 1].sec_first : (long long)o[k].pos;
	/* each category at its first ruling within its section */
	qsort(o, p->n, sizeof *o, by_category);
	for (size_t k = 0; k < p->n; k++)
		o[k].cat_first = !o[k].it.category ? -1
		               : k && !cmp_opt(o[k - 1].it.section, o[k].it.section) &&
		                 !cmp_opt(o[k - 1].it.category, o[k].it.category)
		               ? o[k - 1].cat_first : (long long)o[k].pos;
	qsort(o, p->n, sizeof *o, by_first);
	const char *section = NULL, *category = NULL;
	for (size_t k = 0; k < p->n; k++) {
		struct export_item *it = &(*items)[k];
		*it = o[k].it;
		it->new_section = it->section &&
		                  (!section || strcmp(section, it->section));
		if (it->new_section) {
			section = it->section;
			category = NULL;
		}
		it->new_category = it->category &&
		                   (it->new_section || !category ||
		                    strcmp(category, it->category));
		if (it->new_category)
			category = it->category;
	}
	free(o);
	return RL_OK;
}

int export_text_page(struct rl_export *x, const struct export_page *p,
                     const struct rl_sink *out,
                     const struct export_text_format *f)
{
	struct export_item *items;
	int rc = export_order(x, p, &items);
	if (rc)
		return rc;
	struct rl_out o;
	rl_out_init(&o, out);
	f->title(x, &o, p, items);
	for (size_t k = 0; k < p->n && !rc && rl_out_ok(&o); k++) {
		f->headings(x, &o, items, k);
		struct rl_ruling r;
		if (!(rc = export_ruling(x, items[k].i, &r)))
			rc = f->entry(x, &o, p, &r);
		rl_ruling_clear(&r);
	}
	free(items);
	int frc = export_finish(x, &o);
	return rc ? rc : frc;
}

/* ---- the games ------------------------------------------------------------- */

int export_game_pages(struct rl_export *x, size_t *cap)
{
	size_t first = x->npages;
	for (size_t i = 0; i < x->n; i++) {
		const char *g = x->v[i].game;
		bool seen = !g;
		for (size_t k = first; k < x->npages && !seen; k++)
			seen = !strcmp(x->pages[k].title, g);
		if (seen)
			continue;
		if (!rl_grow(&x->pages, cap, x->npages + 1, sizeof *x->pages))
			return rl_db_fail(x->db, RL_ENOMEM, "out of memory");
		struct export_page *p = &x->pages[x->npages++];
		*p = (struct export_page){ .kind = EXPORT_PAGE_GAME };
		struct rl_buf nb = {0};
		rl_buf_addf(&nb, "game\x1f%s", g);
		char *name = rl_buf_take(&nb);
		p->file = name ? rl_export_filename(name, x->format->ext) : NULL;
		free(name);
		p->title = rl_strdup(g);
		if (!p->file || !p->title)
			return rl_db_fail(x->db, RL_ENOMEM, "out of memory");
	}
	return RL_OK;
}

const struct export_page *export_game_page(const struct rl_export *x,
                                           const char *game)
{
	for (size_t k = 0; k < x->npages; k++)
		if (x->pages[k].kind == EXPORT_PAGE_GAME &&
		    !strcmp(x->pages[k].title, game))
			return &x->pages[k];
	return NULL;
}
