/* source.c — reading a document: checksum, encoding check, line breaks.
 *
 * Input must be UTF-8 (a byte order mark is accepted and dropped). Invalid
 * UTF-8 and NUL bytes refuse the whole file with one error at the first bad
 * byte: a knowledge base must not store text it has guessed at. CRLF and bare
 * CR line breaks become LF, so importers see one kind of line. */
#include "rulings.h"
#include "sha256.h"
#include "utf8.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Line and column (in characters) of byte offset off in raw text whose
 * first start bytes (a byte order mark) are not text. */
static void position(const char *s, size_t start, size_t off, unsigned *line,
                     unsigned *col)
{
	unsigned l = 1, c = 1;
	for (size_t i = start; i < off; i++) {
		if (s[i] == '\n' || (s[i] == '\r' && s[i + 1] != '\n')) {
			l++;
			c = 1;
		} else if (((unsigned char)s[i] & 0xC0) != 0x80 && s[i] != '\r') {
			c++;
		}
	}
	*line = l;
	*col = c;
}

int rl_source_from_memory(struct rl_source *src, const char *name,
                          const void *data, size_t len, struct rl_diags *d)
{
	*src = (struct rl_source){0};
	const char *raw = data;
	src->name = strdup(name);
	if (!src->name)
		return RL_ENOMEM;
	src->raw_size = len;
	rl_sha256_hex(data, len, src->sha256);
	src->encoding = "utf-8";
	size_t start = 0;
	if (len >= 3 && memcmp(raw, "\xEF\xBB\xBF", 3) == 0) {
		start = 3;
		src->encoding = "utf-8-bom";
	}
	const char *nul = memchr(raw, '\0', len);
	size_t bad = rl_utf8_valid(raw + start, len - start) + start;
	if (nul && (size_t)(nul - raw) < bad)
		bad = (size_t)(nul - raw);
	if (bad < len) {
		unsigned line, col;
		position(raw, start, bad, &line, &col);
		if (raw[bad] == '\0')
			rl_diag_add(d, RL_ERROR, line, col, "NUL byte in text");
		else
			rl_diag_add(d, RL_ERROR, line, col,
			            "invalid UTF-8 (byte 0x%02X); the file must be UTF-8",
			            (unsigned char)raw[bad]);
		rl_source_free(src);
		return RL_EDATA;
	}
	src->text = malloc(len - start + 1);
	if (!src->text) {
		rl_source_free(src);
		return RL_ENOMEM;
	}
	size_t o = 0;
	for (size_t i = start; i < len; i++) {
		if (raw[i] == '\r') {
			src->text[o++] = '\n';
			if (i + 1 < len && raw[i + 1] == '\n')
				i++;
		} else {
			src->text[o++] = raw[i];
		}
	}
	src->text[o] = '\0';
	src->len = o;
	return RL_OK;
}

int rl_source_load(struct rl_source *src, const char *path, struct rl_diags *d)
{
	*src = (struct rl_source){0};
	FILE *f = fopen(path, "rb");
	if (!f) {
		rl_diag_add(d, RL_ERROR, 0, 0, "cannot open: %s", strerror(errno));
		return RL_EIO;
	}
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		rl_diag_add(d, RL_ERROR, 0, 0, "is a directory");
		return RL_EIO;
	}
	char *buf = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (len == cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			char *nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				fclose(f);
				return RL_ENOMEM;
			}
			buf = nb;
			cap = ncap;
		}
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;
		free(buf);
		fclose(f);
		rl_diag_add(d, RL_ERROR, 0, 0, "cannot read: %s", strerror(e));
		return RL_EIO;
	}
	fclose(f);
	int rc = rl_source_from_memory(src, path, buf, len, d);
	free(buf);
	return rc;
}

void rl_source_free(struct rl_source *src)
{
	if (!src)
		return;
	free(src->name);
	free(src->text);
	*src = (struct rl_source){0};
}
