/* helpers.h — small shared helpers for the unit tests.
 *
 * Every test file includes this header first: it pulls in cmocka with the
 * headers cmocka needs, and the library's public and internal headers. */
#ifndef RL_TEST_HELPERS_H
#define RL_TEST_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "rulings.h"

/* The directory of the seed documents: $RULINGS_DATA, else the data/
 * directory of the source tree (known at build time). */
const char *test_data_dir(void);

/* The path of the seed file whose name starts with prefix ("000_"); the
 * test fails when there is none. Free the result. */
char *test_seed_path(const char *prefix);

/* Reads a whole file; the test fails when it cannot. Free the result. */
char *test_read_file(const char *path, size_t *len);

/* Loads text (a NUL-terminated string) as a source named name and parses
 * it. src, doc and d are filled whatever the outcome; free them with
 * test_parse_free(). Returns rl_parse()'s status (or the source's). */
int test_parse(const char *text, const struct rl_import_opts *opts,
               struct rl_source *src, struct rl_doc *doc, struct rl_diags *d);
void test_parse_free(struct rl_source *src, struct rl_doc *doc,
                     struct rl_diags *d);

/* The number of diagnostics of severity sev on line whose message contains
 * part (any line when line is 0, any message when part is NULL). */
size_t test_count_diags(const struct rl_diags *d, enum rl_severity sev,
                        unsigned line, const char *part);

/* The number of references of kind k (with target, unless NULL) in e. */
size_t test_count_refs(const struct rl_entry *e, enum rl_ref_kind k,
                       const char *target);

/* Removes path and, a directory, everything in it (rm -r): a test's
 * temporary directory. */
void test_remove_tree(const char *path);

/* Replaces every "\n" in text with "\r\n" (or with "\r" when bare_cr).
 * Free the result. */
char *test_to_crlf(const char *text, bool bare_cr);

#endif
