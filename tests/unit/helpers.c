/* helpers.c — small shared helpers for the unit tests. */
#include "helpers.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef RL_TEST_DATA_DIR
#define RL_TEST_DATA_DIR "data"
#endif

const char *test_data_dir(void)
{
	const char *env = getenv("RULINGS_DATA");
	return env && *env ? env : RL_TEST_DATA_DIR;
}

char *test_seed_path(const char *prefix)
{
	const char *dir = test_data_dir();
	DIR *dh = opendir(dir);
	if (!dh) {
		fail_msg("cannot open the data directory '%s'", dir);
		return NULL;
	}
	char *found = NULL;
	struct dirent *de;
	while (!found && (de = readdir(dh)) != NULL) {
		if (strncmp(de->d_name, prefix, strlen(prefix)) != 0)
			continue;
		size_t n = strlen(dir) + strlen(de->d_name) + 2;
		found = malloc(n);
		assert_non_null(found);
		snprintf(found, n, "%s/%s", dir, de->d_name);
	}
	closedir(dh);
	if (!found)
		fail_msg("no seed file '%s*' in '%s'", prefix, dir);
	return found;
}

char *test_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fail_msg("cannot open '%s'", path);
		return NULL;
	}
	char *buf = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 4096;
			buf = realloc(buf, cap + 1);
			assert_non_null(buf);
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	assert_false(ferror(f));
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

int test_parse(const char *text, const struct rl_import_opts *opts,
               struct rl_source *src, struct rl_doc *doc, struct rl_diags *d)
{
	static const struct rl_import_opts none = {0};
	*d = (struct rl_diags){0};
	*doc = (struct rl_doc){0};
	int rc = rl_source_from_memory(src, "test.txt", text, strlen(text), d);
	if (rc)
		return rc;
	return rl_parse(src, opts ? opts : &none, doc, d);
}

void test_parse_free(struct rl_source *src, struct rl_doc *doc,
                     struct rl_diags *d)
{
	rl_source_free(src);
	rl_doc_free(doc);
	rl_diags_clear(d);
}

size_t test_count_diags(const struct rl_diags *d, enum rl_severity sev,
                        unsigned line, const char *part)
{
	size_t n = 0;
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].severity == sev && (!line || d->v[i].line == line) &&
		    (!part || strstr(d->v[i].message, part)))
			n++;
	return n;
}

size_t test_count_refs(const struct rl_entry *e, enum rl_ref_kind k,
                       const char *target)
{
	size_t n = 0;
	for (size_t i = 0; i < e->nrefs; i++)
		if (e->refs[i].kind == k &&
		    (!target || strcmp(e->refs[i].target, target) == 0))
			n++;
	return n;
}

char *test_to_crlf(const char *text, bool bare_cr)
{
	char *out = malloc(strlen(text) * 2 + 1);
	assert_non_null(out);
	char *o = out;
	for (const char *p = text; *p; p++) {
		if (*p == '\n') {
			*o++ = '\r';
			if (!bare_cr)
				*o++ = '\n';
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return out;
}

void test_remove_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return;
	if (S_ISDIR(st.st_mode)) {
		DIR *dh = opendir(path);
		struct dirent *de;
		while (dh && (de = readdir(dh)) != NULL) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			char sub[512];
			snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
			test_remove_tree(sub);
		}
		if (dh)
			closedir(dh);
		rmdir(path);
	} else {
		unlink(path);
	}
}
