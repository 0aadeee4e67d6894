/* rules.c — numbered rules among themselves: the order of rule numbers,
 * and for one rule the rule it is under, the rules before and after it,
 * and the rules directly under it (rl_show()).
 *
 * A rule sits under the longest number that it continues and that exists
 * in its game: 702.19a under 702.19 (letters dropped), 702.19 under 702
 * (the last dot-separated number dropped), 702 under the chapter 7 (its
 * first digit, as the Comprehensive Rules number their sections), 100.1б
 * under 100.1. */
#include "query.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

int rl_rule_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (digit(*a) && digit(*b)) {
			while (*a == '0')
				a++;
			while (*b == '0')
				b++;
			size_t na = 0, nb = 0;
			while (digit(a[na]))
				na++;
			while (digit(b[nb]))
				nb++;
			if (na != nb)
				return na < nb ? -1 : 1;
			int c = memcmp(a, b, na);
			if (c)
				return c < 0 ? -1 : 1;
			a += na;
			b += nb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

/* The length of the number rule[0..n) sits under, 0 for none. */
static size_t up(const char *r, size_t n)
{
	size_t k = n;
	while (k > 0 && !digit(r[k - 1]) && r[k - 1] != '.')
		k--;                          /* letters, of any script */
	if (k < n && k > 0)
		return k;
	for (k = n; k > 0; k--)
		if (r[k - 1] == '.')
			return k - 1 > 0 ? k - 1 : 0;
	return n > 1 && digit(r[0]) ? 1 : 0;   /* a section: its chapter */
}

struct entry {
	long long id;
	char *rule, *title;
};

static int by_rule(const void *x, const void *y)
{
	const struct entry *a = x, *b = y;
	int c = rl_rule_cmp(a->rule, b->rule);
	return c ? c : a->id < b->id ? -1 : a->id > b->id;
}

/* The entry numbered rule[0..n), or NULL. */
static const struct entry *find(const struct entry *v, size_t n,
                                const char *rule, size_t len)
{
	char buf[64];
	if (len >= sizeof buf)
		return NULL;
	memcpy(buf, rule, len);
	buf[len] = '\0';
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = rl_rule_cmp(v[mid].rule, buf);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && rl_rule_cmp(v[lo].rule, buf) == 0 ? &v[lo] : NULL;
}

/* The number an entry's rule sits under: the nearest that exists. */
static const struct entry *parent_of(const struct entry *v, size_t n,
                                     const char *rule)
{
	for (size_t len = up(rule, strlen(rule)); len; len = up(rule, len)) {
		const struct entry *p = find(v, n, rule, len);
		if (p)
			return p;
	}
	return NULL;
}

static struct rl_rule_ref *ref_of(const struct entry *e, bool *oom)
{
	struct rl_rule_ref *r = calloc(1, sizeof *r);
	if (!r || !(r->rule = rl_strdup(e->rule)) ||
	    !(r->title = rl_strdup(e->title))) {
		if (r)
			free(r->rule);
		free(r);
		*oom = true;
		return NULL;
	}
	r->id = e->id;
	return r;
}

int rl_rule_relations(rl_db *db, struct rl_ruling *r)
{
	if (!r->rule)
		return RL_OK;
	/* the current numbered rulings of its game */
	sqlite3_stmt *st = rl_db_prepare(db,
		"SELECT s.id, s.rule, s.title FROM rulings s, rulings r"
		" WHERE r.id = ?1 AND s.rule IS NOT NULL"
		" AND s.withdrawn_at IS NULL"
		" AND ifnull(s.game_id, 0) = ifnull(r.game_id, 0)");
	if (!st)
		return RL_EINTERNAL;
	sqlite3_bind_int64(st, 1, r->id);
	struct entry *v = NULL;
	size_t n = 0, cap = 0;
	bool oom = false;
	int s;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		if (!rl_grow(&v, &cap, n + 1, sizeof *v)) {
			oom = true;
			break;
		}
		struct entry *e = &v[n++];
		e->id = sqlite3_column_int64(st, 0);
		e->rule = rl_column_dup(st, 1, &oom);
		e->title = rl_column_dup(st, 2, &oom);
	}
	sqlite3_finalize(st);
	int rc = oom ? RL_ENOMEM : s == SQLITE_DONE || s == SQLITE_ROW
	         ? RL_OK : rl_step_error(db, s);
	if (!rc)
		qsort(v, n, sizeof *v, by_rule);
	/* itself, or (withdrawn) where it would stand */
	size_t me = 0;
	while (!rc && me < n && rl_rule_cmp(v[me].rule, r->rule) < 0)
		me++;
	size_t after = me;
	while (!rc && after < n && rl_rule_cmp(v[after].rule, r->rule) == 0)
		after++;
	if (!rc && me > 0)
		r->previous = ref_of(&v[me - 1], &oom);
	if (!rc && after < n)
		r->next = ref_of(&v[after], &oom);
	const struct entry *p = rc ? NULL : parent_of(v, n, r->rule);
	if (p)
		r->parent = ref_of(p, &oom);
	/* the rules directly under it: after it, while they continue it */
	size_t len = strlen(r->rule), scap = 0;
	for (size_t i = after; !rc && !oom && i < n; i++) {
		bool chapter = len == 1 && digit(r->rule[0]);
		if (strncmp(v[i].rule, r->rule, len) != 0)
			continue;             /* 702.2 sorts before 702.19a */
		if (!chapter && digit(v[i].rule[len]))
			continue;
		const struct entry *q = parent_of(v, n, v[i].rule);
		if (!q || rl_rule_cmp(q->rule, r->rule) != 0)
			continue;
		if (!rl_grow(&r->subrules, &scap, r->nsubrules + 1,
		             sizeof *r->subrules)) {
			oom = true;
			break;
		}
		struct rl_rule_ref *one = ref_of(&v[i], &oom);
		if (one) {
			r->subrules[r->nsubrules++] = *one;
			free(one);
		}
	}
	for (size_t i = 0; i < n; i++) {
		free(v[i].rule);
		free(v[i].title);
	}
	free(v);
	return rc ? rc : oom ? RL_ENOMEM : RL_OK;
}

void rl_rule_ref_free(struct rl_rule_ref *r)
{
	if (!r)
		return;
	free(r->rule);
	free(r->title);
	free(r);
}
