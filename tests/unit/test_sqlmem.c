/* test_sqlmem.c — SQLite's memory in a rulings process (src/sqlmem.c):
 * the methods keep every block's bytes whatever the order of allocations,
 * frees and reallocations, across the region's end (malloc takes over)
 * and the small blocks' limit; sizes are what SQLite is promised; and
 * SQLite itself runs on them (a table of many rows, indexed). */
#include "helpers.h"
#include "sqlmem.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static sqlite3_mem_methods mem;

/* a block's bytes: a pattern of its number */
static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(seed * 31u + i * 7u);
}

static void check(const unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (unsigned char)(seed * 31u + i * 7u))
			fail_msg("block %u: byte %zu of %zu changed", seed, i, n);
}

/* xRoundup(n) is at least n, what xMalloc(n) gives (xSize), and
 * xRealloc to it keeps the block; sizes grow with n */
static void test_sizes(void **state)
{
	(void)state;
	int last = 0;
	for (int n = 1; n <= 300000; n += n < 70000 ? 1 : 997) {
		int r = mem.xRoundup(n);
		assert_true(r >= n);
		assert_true(r >= last);
		last = r;
		if (n % 101 != 0 && n > 70000)
			continue;
		void *p = mem.xMalloc(r);
		assert_non_null(p);
		assert_true(((uintptr_t)p & 15) == 0);
		assert_int_equal(mem.xSize(p), r);
		if (n <= 65536) {
			void *q = mem.xRealloc(p, r);
			assert_ptr_equal(q, p);
			p = q;
		}
		memset(p, 0xA5, (size_t)r);
		mem.xFree(p);
	}
	/* at most a quarter lost to rounding past 256 bytes */
	for (int n = 257; n <= 65536; n++)
		assert_true((double)mem.xRoundup(n) <= n * 1.25 + 1);
}

/* Random allocations, frees and reallocations (small blocks reused by
 * their classes, big ones from malloc): every live block keeps its
 * bytes. */
static void test_random(void **state)
{
	(void)state;
	enum { N = 4000 };
	static unsigned char *blk[N];
	static size_t len[N];
	static unsigned seed[N];
	unsigned long long x = 88172645463325252ULL;
	unsigned next_seed = 1;
	for (int round = 0; round < 60000; round++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		size_t i = (size_t)(x % N);
		unsigned op = (unsigned)(x >> 32) % 4;
		size_t n = (x >> 40) % 16 == 0 ? 1 + (x >> 20) % 150000
		                                : 1 + (x >> 20) % 600;
		if (blk[i])
			check(blk[i], len[i], seed[i]);
		if (!blk[i] || op == 0) {
			if (blk[i])
				mem.xFree(blk[i]);
			blk[i] = mem.xMalloc((int)n);
			assert_non_null(blk[i]);
			assert_true(mem.xSize(blk[i]) >= (int)n);
			len[i] = n;
			seed[i] = next_seed++;
			fill(blk[i], n, seed[i]);
		} else if (op == 1) {
			unsigned char *q = mem.xRealloc(blk[i], (int)n);
			assert_non_null(q);
			assert_true(mem.xSize(q) >= (int)n);
			check(q, len[i] < n ? len[i] : n, seed[i]);
			blk[i] = q;
			/* the kept bytes keep their pattern; the rest made anew */
			len[i] = len[i] < n ? len[i] : n;
		} else if (op == 2) {
			mem.xFree(blk[i]);
			blk[i] = NULL;
		}
	}
	for (size_t i = 0; i < N; i++) {
		if (blk[i]) {
			check(blk[i], len[i], seed[i]);
			mem.xFree(blk[i]);
		}
	}
}

/* More small blocks alive at once than the region holds (12 MB of 8):
 * those past its end come from malloc, and all keep their bytes, are
 * freed, and the region's are given again. */
static void test_past_region(void **state)
{
	(void)state;
	enum { N = 4000, SZ = 3000 };
	static unsigned char *blk[N];
	for (unsigned i = 0; i < N; i++) {
		blk[i] = mem.xMalloc(SZ);
		assert_non_null(blk[i]);
		fill(blk[i], SZ, i);
	}
	for (unsigned i = 0; i < N; i++)
		check(blk[i], SZ, i);
	/* grown past the small blocks' limit and back, keeping the bytes */
	blk[7] = mem.xRealloc(blk[7], 100000);
	assert_non_null(blk[7]);
	check(blk[7], SZ, 7);
	blk[7] = mem.xRealloc(blk[7], SZ);
	assert_non_null(blk[7]);
	check(blk[7], SZ, 7);
	for (unsigned i = 0; i < N; i++)
		mem.xFree(blk[i]);
	for (unsigned i = 0; i < N; i++) {
		blk[i] = mem.xMalloc(SZ);
		assert_non_null(blk[i]);
		fill(blk[i], SZ, i + N);
	}
	for (unsigned i = 0; i < N; i++) {
		check(blk[i], SZ, i + N);
		mem.xFree(blk[i]);
	}
}

/* SQLite on these methods: 20,000 rows inserted, indexed (its sorter)
 * and summed, in memory (its page cache, statements). */
static void test_sqlite(void **state)
{
	(void)state;
	sqlite3 *h = NULL;
	assert_int_equal(sqlite3_open(":memory:", &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h,
		"CREATE TABLE t (a INTEGER, b TEXT);"
		"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n"
		" WHERE i < 20000)"
		" INSERT INTO t SELECT i, printf('%0*d', i % 300 + 1, i) FROM n;"
		"CREATE INDEX t_b ON t (b);", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_stmt *st = NULL;
	assert_int_equal(sqlite3_prepare_v2(h,
		"SELECT count(*), sum(a), sum(length(b)) FROM t",
		-1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int64(st, 0), 20000);
	assert_int_equal(sqlite3_column_int64(st, 1), 200010000);
	/* length(b): i % 300 + 1 digits, or i's own when longer */
	long long want = 0;
	for (int i = 1; i <= 20000; i++) {
		int w = i % 300 + 1, d = i < 10 ? 1 : i < 100 ? 2 : i < 1000 ? 3
		        : i < 10000 ? 4 : 5;
		want += w > d ? w : d;
	}
	assert_int_equal(sqlite3_column_int64(st, 2), want);
	sqlite3_finalize(st);
	assert_int_equal(sqlite3_close(h), SQLITE_OK);
}

int main(void)
{
	/* before SQLite's first use, as rl_sqlite_setup does */
	if (rl_sqlmem_install() != SQLITE_OK ||
	    sqlite3_config(SQLITE_CONFIG_GETMALLOC, &mem) != SQLITE_OK)
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_past_region),
		cmocka_unit_test(test_sqlite),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
