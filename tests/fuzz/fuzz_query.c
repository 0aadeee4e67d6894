/* fuzz_query.c — the libFuzzer target for the search query language: the
 * only way words a user typed reach FTS5. The input is split at NUL bytes
 * into the words (arguments) of a search; the first byte chooses options
 * (bit 0 --no-thesaurus, 1 --lang fr, 2 --game, 3 --limit 1, 4 a --tag).
 * Each query is run, whole, by rl_search() and rl_search_explain() on a
 * small database holding an FAQ page, numbered rules and a thesaurus with
 * concepts for every game and for one game: any status but found (0) and
 * nothing found (1) is a bug (abort) — an FTS5 or SQL error ("fts5: syntax
 * error", "Expression tree is too large", "too many SQL variables") above
 * all. Only a query too long for SQLite's 32,000 values may be refused
 * (RL_EUSAGE). */
#include "rulings.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static rl_db *db;
static char path[64];

static const char faq[] =
	"Speed (Fast/Slow)\n\nFrequently Asked Questions\n\nAspects\n\n"
	"\xE2\x80\xA2 Can a Fast Power repeat? See rule 702.19a.\n"
	"  Yes, first-strike aside; don't isolate it.\n"
	"  Tags: Speed (Fast/Slow), Repeat, Isolate\n"
	"\xE2\x80\xA2 Does Defend stack?\n"
	"  No. D\xC3\xA9" "fendre 2 is the French.\n"
	"  Tags: Defend\n";
static const char rules[] =
	"Rules\n\n702.19. Trample\n\n702.19a. Trample is a static ability.\n\n"
	"702.19b. The controller assigns damage.\n\n510.1. Combat damage.\n";
static const char thesaurus[] =
	"# rulings thesaurus\n"
	"en:Speed (Fast/Slow) = fr:Rapide = Fast\n"
	"[Fuzz Game]\nen:Isolate = fr:Isoler = \"quoted\" term\n"
	"en:Defend = fr:D\xC3\xA9" "fendre\n";

static void load(const char *name, const char *text, const char *format)
{
	struct rl_source src;
	struct rl_doc doc = {0};
	struct rl_diags d = {0};
	struct rl_import_opts o = { .game = "Fuzz Game", .format = format };
	struct rl_import_result res;
	if (rl_source_from_memory(&src, name, text, strlen(text), &d) ||
	    rl_parse(&src, &o, &doc, &d) || rl_store(db, &src, &doc, &res)) {
		fprintf(stderr, "fuzz_query: cannot load %s: %s\n", name,
		        rl_db_errmsg(db));
		abort();
	}
	rl_source_free(&src);
	rl_doc_free(&doc);
	rl_diags_clear(&d);
}

static void cleanup(void)
{
	rl_db_close(db);
	unlink(path);
	char side[80];
	snprintf(side, sizeof side, "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof side, "%s-shm", path);
	unlink(side);
}

static void setup(void)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(path, sizeof path, "%s/rulings-fuzz-%ld.db",
	         tmp && strlen(tmp) < 30 ? tmp : "/tmp", (long)getpid());
	unlink(path);
	if (rl_db_open(path, RL_OPEN_WRITE, &db)) {
		fprintf(stderr, "fuzz_query: %s: %s\n", path, rl_db_errmsg(db));
		abort();
	}
	atexit(cleanup);
	load("faq.txt", faq, "faq-tags");
	load("rules.txt", rules, "numbered-rules");
	load("thesaurus.txt", thesaurus, "thesaurus");
}

static char *dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!db)
		setup();
	if (size == 0 || size > 4096)
		return 0;
	unsigned flags = data[0];
	const char *text = (const char *)data + 1;
	size_t n = size - 1;
	/* the words: NUL-separated strings (the last one NUL-terminated here) */
	char *buf = dup_n(text, n);
	const char **words = calloc(n + 1, sizeof *words);
	if (!buf || !words)
		abort();
	size_t nw = 0;
	for (size_t i = 0; i <= n; ) {
		words[nw++] = buf + i;
		i += strlen(buf + i) + 1;
	}
	const char *tags[] = { "Repeat" };
	struct rl_query q = {
		.words = words, .nwords = nw,
		.no_thesaurus = flags & 1, .lang = flags & 2 ? "fr" : NULL,
		.game = flags & 4 ? "Fuzz Game" : NULL, .limit = flags & 8 ? 1 : 20,
		.tags = tags, .ntags = flags & 16 ? 1 : 0,
	};
	struct rl_results res;
	int rc = rl_search(db, &q, &res);
	if (rc != RL_OK && rc != RL_NOTFOUND && rc != RL_EUSAGE) {
		fprintf(stderr, "fuzz_query: search: %s: %s\n", rl_status_name(rc),
		        rl_db_errmsg(db));
		abort();
	}
	if (rc == RL_OK && (res.n == 0 || res.total < (long long)res.n))
		abort();
	rl_results_free(&res);
	char *explain = NULL;
	int erc = rl_search_explain(db, &q, &explain);
	if (erc != RL_OK && erc != RL_NOTFOUND && erc != RL_EUSAGE) {
		fprintf(stderr, "fuzz_query: explain: %s: %s\n", rl_status_name(erc),
		        rl_db_errmsg(db));
		abort();
	}
	free(explain);
	free(words);
	free(buf);
	return 0;
}
