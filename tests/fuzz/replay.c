/* replay.c — runs a fuzz target's entry point outside libFuzzer: each
 * argument is a file, or a directory whose files (not hidden ones) are fed
 * one by one. This is how the normal test run (suite fuzz, under ASan and
 * UBSan in tests/run-all) replays every reproducer in tests/fuzz-repro and
 * the seed corpus. Prints each file it feeds, so a crash names its input. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int feed(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	size_t cap = 4096, n = 0;
	uint8_t *buf = malloc(cap);
	size_t k;
	while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
		n += k;
		if (n == cap) {
			uint8_t *b = realloc(buf, cap * 2);
			if (!b) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = b;
			cap *= 2;
		}
	}
	int bad = ferror(f) || !buf;
	fclose(f);
	if (bad) {
		fprintf(stderr, "%s: cannot read\n", path);
		free(buf);
		return 1;
	}
	printf("%s (%zu bytes)\n", path, n);
	fflush(stdout);
	/* a copy of exactly n bytes, so ASan sees any overread */
	uint8_t *exact = malloc(n ? n : 1);
	if (!exact) {
		free(buf);
		return 1;
	}
	memcpy(exact, buf, n);
	free(buf);
	LLVMFuzzerTestOneInput(exact, n);
	free(exact);
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int visible(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

int main(int argc, char **argv)
{
	int bad = 0;
	size_t fed = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			bad = 1;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad |= feed(argv[i]);
			fed++;
			continue;
		}
		struct dirent **names;
		int n = scandir(argv[i], &names, visible, by_name);
		if (n < 0) {
			perror(argv[i]);
			bad = 1;
			continue;
		}
		for (int j = 0; j < n; j++) {
			char path[4096];
			snprintf(path, sizeof path, "%s/%s", argv[i], names[j]->d_name);
			if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
				bad |= feed(path);
				fed++;
			}
			free(names[j]);
		}
		free(names);
	}
	printf("%zu inputs replayed\n", fed);
	return bad || fed == 0;
}
