/* sqlmem.c — SQLite's memory in a rulings process: blocks of up to 64 KB
 * carved from one 8 MB region that the kernel may back with transparent
 * huge pages of 2 MB (madvise MADV_HUGEPAGE), each size class reusing
 * its freed blocks; larger blocks, and every block once the region is
 * used up, from malloc(3).
 *
 * Why: a search on a small database touches about 350 KB of SQLite's
 * memory (its schema, statements, page cache) in a process that lives a
 * few milliseconds. From malloc, each new 4 KB page of the heap is a page
 * fault: ~90 of them, at 10 us each on a virtual machine whose faults
 * are dear, 1 ms of a 7.5 ms search. One huge page is one fault of
 * 60-150 us (bench/RESULTS.md, session 16); a search at 1M rulings,
 * whose page cache holds more, faulted ~700 times. Where the kernel gives no
 * huge page (transparent huge pages off, memory fragmented) the region
 * is ordinary memory, faulted a page at a time as malloc's would be.
 *
 * Size classes: 16-byte steps up to 256 bytes, then four per power of two
 * up to 64 KB (at most a quarter lost to rounding: a page-cache entry of
 * 4,096 + ~300 bytes takes 5,120). A freed block goes on its class's list
 * and is given to the next request of that class; blocks are never split
 * or merged, and the region is not returned before the process ends
 * (8 MB at most, only the huge pages touched: what a long import needs
 * beyond it comes from malloc).
 * Each block has a 16-byte header (its class and size) before it. A lock
 * makes it safe for several threads' connections.
 *
 * A build with AddressSanitizer leaves SQLite on malloc (rl_sqlmem_setup):
 * its leak checker sees only malloc's blocks (a statement never finalized
 * is found there, tests/run-all's second build). The methods themselves
 * are tested there too (tests/unit/test_sqlmem.c installs them), with
 * headers and free blocks poisoned: a write past a block's end into the
 * next header, a use after free and a double free are found as with
 * malloc's blocks. */
#include "sqlmem.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#define RL_SQLMEM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RL_SQLMEM_ASAN 1
#endif
#endif
#ifdef RL_SQLMEM_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* 8 MB: four huge pages, each faulted in when first used (a search on a
 * small database uses the first; one of a common word at 1M rulings
 * three or four, 1.05-1.35x less CPU than with 2 MB; 32 MB measured no
 * better: bench/RESULTS.md, session 16) */
#ifndef RL_SQLMEM_REGION_MB
#define RL_SQLMEM_REGION_MB 8
#endif
#define HUGE ((size_t)2 << 20)          /* a huge page on x86-64 */
#define REGION ((size_t)RL_SQLMEM_REGION_MB << 20)
#define MAX_SMALL ((size_t)64 << 10)
#define NCLASS 48
#define HDR 16
#define BIG 0xFFFFu                     /* a block of malloc's */
#define LIVE 0x10000u                   /* allocated, not freed */

struct hdr {
	uint64_t size;          /* the class's size, or a big block's */
	uint32_t cls;           /* class (or BIG) | LIVE */
	uint32_t pad;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char *region, *next, *end;
static void *freed[NCLASS];
static bool tried;

/* The class of n bytes (1 <= n <= MAX_SMALL), and a class's size. */
static unsigned class_of(size_t n)
{
	if (n <= 256)
		return (unsigned)((n + 15) / 16) - 1;
	unsigned b = 63u - (unsigned)__builtin_clzll((unsigned long long)(n - 1));
	size_t step = (size_t)1 << (b - 2);
	unsigned idx = (unsigned)((n - ((size_t)1 << b) + step - 1) / step);
	return 16 + (b - 8) * 4 + idx - 1;
}

static size_t class_size(unsigned c)
{
	if (c < 16)
		return ((size_t)c + 1) * 16;
	unsigned b = 8 + (c - 16) / 4, idx = (c - 16) % 4 + 1;
	return ((size_t)1 << b) + idx * ((size_t)1 << (b - 2));
}

/* The region, at the first allocation: aligned to 2 MB (what a huge page
 * needs), from a mapping 2 MB longer whose ends are given back. */
static void map_region(void)
{
	tried = true;
	void *m = mmap(NULL, REGION + HUGE, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		return;
	uintptr_t a = ((uintptr_t)m + HUGE - 1) & ~(uintptr_t)(HUGE - 1);
	size_t head = a - (uintptr_t)m, tail = HUGE - head;
	if (head)
		munmap(m, head);
	if (tail)
		munmap((char *)a + REGION, tail);
	region = next = (char *)a;
	end = region + REGION;
#ifdef MADV_HUGEPAGE
	madvise(region, REGION, MADV_HUGEPAGE);  /* a hint: no huge page, no harm */
#endif
	POISON(region, REGION);
}

static struct hdr *hdr_of(void *p)
{
	struct hdr *h = (struct hdr *)((char *)p - HDR);
	UNPOISON(h, HDR);
	return h;
}

/* (a header in the region poisoned again; malloc's blocks are left to
 * the sanitizer's own checks) */
static void hdr_done(struct hdr *h)
{
	if ((char *)h >= region && (char *)h < end)
		POISON(h, HDR);
	(void)h;
}

static void *big_alloc(size_t n)
{
	struct hdr *h = malloc(HDR + n);
	if (!h)
		return NULL;
	h->size = n;
	h->cls = BIG | LIVE;
	return (char *)h + HDR;
}

static void *mem_malloc(int size)
{
	if (size <= 0)
		return NULL;
	size_t n = (size_t)size;
	if (n > MAX_SMALL)
		return big_alloc(n);
	unsigned c = class_of(n);
	size_t cs = class_size(c);
	char *p = NULL;
	pthread_mutex_lock(&lock);
	if (!tried)
		map_region();
	if (freed[c]) {
		p = freed[c];
		UNPOISON(p, cs);
		memcpy(&freed[c], p, sizeof(void *));
	} else if (region && (size_t)(end - next) >= HDR + cs) {
		p = next + HDR;
		next += HDR + cs;
		UNPOISON(p, cs);
	}
	pthread_mutex_unlock(&lock);
	if (!p)
		return big_alloc(n);
	struct hdr *h = hdr_of(p);
	h->size = cs;
	h->cls = c | LIVE;
	hdr_done(h);
	return p;
}

static void mem_free(void *p)
{
	if (!p)
		return;
	struct hdr *h = hdr_of(p);
	uint32_t cls = h->cls;
	if (!(cls & LIVE))
		abort();                /* freed twice: memory is corrupt */
	h->cls = cls & ~LIVE;
	if ((cls & ~LIVE) == BIG) {
		free(h);
		return;
	}
	size_t cs = (size_t)h->size;
	hdr_done(h);
	unsigned c = cls & ~LIVE;
	pthread_mutex_lock(&lock);
	memcpy(p, &freed[c], sizeof(void *));
	freed[c] = p;
	POISON(p, cs);
	pthread_mutex_unlock(&lock);
}

static int mem_size(void *p)
{
	if (!p)
		return 0;
	struct hdr *h = hdr_of(p);
	int n = (int)h->size;
	hdr_done(h);
	return n;
}

static int mem_roundup(int n)
{
	if (n <= 0)
		return n;
	if ((size_t)n <= MAX_SMALL)
		return (int)class_size(class_of((size_t)n));
	return n > INT32_MAX - 7 ? n : (n + 7) & ~7;
}

static void *mem_realloc(void *p, int size)
{
	if (!p)
		return mem_malloc(size);
	if (size <= 0)
		return NULL;
	size_t n = (size_t)size;
	struct hdr *h = hdr_of(p);
	uint32_t cls = h->cls & ~LIVE;
	size_t old = (size_t)h->size;
	if (cls == BIG && n > MAX_SMALL) {
		struct hdr *g = realloc(h, HDR + n);
		if (!g) {
			hdr_done(h);
			return NULL;
		}
		g->size = n;
		return (char *)g + HDR;
	}
	hdr_done(h);
	if (cls != BIG && n <= MAX_SMALL && class_of(n) == cls)
		return p;
	void *q = mem_malloc(size);
	if (!q)
		return NULL;
	memcpy(q, p, old < n ? old : n);
	mem_free(p);
	return q;
}

static int mem_init(void *arg)
{
	(void)arg;
	return SQLITE_OK;
}

static void mem_shutdown(void *arg)
{
	(void)arg;
}

int rl_sqlmem_install(void)
{
	static const sqlite3_mem_methods m = {
		mem_malloc, mem_free, mem_realloc, mem_size, mem_roundup,
		mem_init, mem_shutdown, NULL,
	};
	return sqlite3_config(SQLITE_CONFIG_MALLOC, &m);
}

int rl_sqlmem_setup(void)
{
#ifdef RL_SQLMEM_ASAN
	return SQLITE_OK;
#else
	return rl_sqlmem_install();
#endif
}
