/* source.c — reading a document: checksum, encoding, line breaks.
 *
 * Documents come in the encodings publishers ship. What is recognized:
 *   - UTF-8, with or without a byte order mark;
 *   - UTF-16, big- or little-endian, with a byte order mark;
 *   - Windows-1252: bytes that are not UTF-8 and hold no UTF-8 sequence
 *     at all (a file that mixes valid UTF-8 sequences with invalid bytes
 *     is broken UTF-8, not Windows-1252).
 * Anything else — invalid UTF-8 in a UTF-8 file, NUL bytes in text, bad
 * UTF-16 — refuses the whole file with one error at the first bad byte: a
 * knowledge base must not store text it has guessed at. The text is then
 * made NFC (composed) and its line breaks LF (from CRLF and bare CR), so
 * importers see one form of each character and one kind of line. */
#include "rulings.h"
#include "sha256.h"
#include "utf8.h"
#include "chars.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Windows-1252's 0x80..0x9F; 0 where the code page defines nothing. */
static const uint16_t cp1252_high[32] = {
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
	0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
};

/* Line and column (in characters) of byte offset off in raw text whose
 * first start bytes (a byte order mark) are not text; utf8 says whether
 * a character may take several bytes (else one byte is one character). */
static void position(const char *s, size_t start, size_t off, bool utf8,
                     unsigned *line, unsigned *col)
{
	unsigned l = 1, c = 1;
	for (size_t i = start; i < off; i++) {
		if (s[i] == '\n' || (s[i] == '\r' && s[i + 1] != '\n')) {
			l++;
			c = 1;
		} else if ((!utf8 || ((unsigned char)s[i] & 0xC0) != 0x80) &&
		           s[i] != '\r') {
			c++;   /* a character: in UTF-8, not a continuation byte */
		}
	}
	*line = l;
	*col = c;
}

/* Does s hold at least one well-formed multibyte UTF-8 sequence? */
static bool has_utf8_sequence(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++)
		if (s[i] >= 0xC2 && s[i] <= 0xF4) {
			size_t want = s[i] < 0xE0 ? 1 : s[i] < 0xF0 ? 2 : 3;
			size_t k = 1;
			while (k <= want && i + k < n && (s[i + k] & 0xC0) == 0x80)
				k++;
			if (k == want + 1 && rl_utf8_valid((const char *)s + i,
			                                   want + 1) == want + 1)
				return true;
		}
	return false;
}

/* Windows-1252 to UTF-8; false (with *bad) at a byte it does not define. */
static bool from_cp1252(const unsigned char *s, size_t n, struct rl_buf *b,
                        size_t *bad)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t cp = s[i];
		if (cp >= 0x80 && cp <= 0x9F) {
			cp = cp1252_high[cp - 0x80];
			if (!cp) {
				*bad = i;
				return false;
			}
		}
		char enc[4];
		rl_buf_add(b, enc, rl_utf8_encode(cp, enc));
	}
	return true;
}

/* UTF-16 to UTF-8; false (with *bad, a byte offset) at an unpaired
 * surrogate or an odd final byte. */
static bool from_utf16(const unsigned char *s, size_t n, bool big,
                       struct rl_buf *b, size_t *bad)
{
	for (size_t i = 0; i < n; i += 2) {
		if (i + 1 >= n) {
			*bad = i;
			return false;
		}
		uint32_t u = big ? (uint32_t)(s[i] << 8 | s[i + 1])
		                 : (uint32_t)(s[i + 1] << 8 | s[i]);
		if (u >= 0xD800 && u <= 0xDBFF) {
			if (i + 3 >= n) {
				*bad = i;
				return false;
			}
			uint32_t lo = big ? (uint32_t)(s[i + 2] << 8 | s[i + 3])
			                  : (uint32_t)(s[i + 3] << 8 | s[i + 2]);
			if (lo < 0xDC00 || lo > 0xDFFF) {
				*bad = i;
				return false;
			}
			u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
			i += 2;
		} else if (u >= 0xDC00 && u <= 0xDFFF) {
			*bad = i;
			return false;
		}
		char enc[4];
		rl_buf_add(b, enc, rl_utf8_encode(u, enc));
	}
	return true;
}

/* Line breaks to LF, NFC, into src->text. */
static int finish_text(struct rl_source *src, const char *utf8, size_t len)
{
	char *lf = malloc(len + 1);
	if (!lf)
		return RL_ENOMEM;
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		if (utf8[i] == '\r') {
			lf[o++] = '\n';
			if (i + 1 < len && utf8[i + 1] == '\n')
				i++;
		} else {
			lf[o++] = utf8[i];
		}
	}
	src->text = rl_nfc(lf, o, &src->len);
	if (!src->text) {
		free(lf);
		return RL_ENOMEM;
	}
	if (src->len == o && memcmp(lf, src->text, o) == 0) {
		free(lf);
	} else {
		/* kept for positions in the file (rl_source_column) */
		src->decoded = lf;
		src->decoded_len = o;
	}
	return RL_OK;
}

/* The line-th line of text[0..n) (1-based): its start and length. */
static bool find_line(const char *text, size_t n, unsigned line,
                      const char **s, size_t *len)
{
	const char *p = text, *end = text + n;
	for (unsigned l = 1; l < line; l++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return false;
		p = nl + 1;
	}
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	*s = p;
	*len = nl ? (size_t)(nl - p) : (size_t)(end - p);
	return true;
}

unsigned rl_source_column(const struct rl_source *src, unsigned line,
                          unsigned col)
{
	const char *d, *t;
	size_t dn, tn;
	if (!src->decoded || col == 0 || line == 0 ||
	    !find_line(src->decoded, src->decoded_len, line, &d, &dn) ||
	    !find_line(src->text, src->len, line, &t, &tn))
		return col;
	/* The decoded line in segments, a character and the marks after it,
	 * each composed alone: composition never joins across segments. */
	size_t want = col - 1, nfc_before = 0, file_before = 0;
	for (size_t i = 0; i < dn; ) {
		size_t j = i, k_file = 0;
		do {
			uint32_t c;
			j += rl_utf8_decode(d + j, &c);
			k_file++;
		} while (j < dn && rl_is_mark_cp(rl_cp_at(d, dn, j)));
		size_t out_len;
		char *out = rl_nfc(d + i, j - i, &out_len);
		if (!out)
			return col;
		size_t k_nfc = rl_chars(out, out_len);
		free(out);
		if (nfc_before + k_nfc > want) {
			size_t in = want - nfc_before;
			return (unsigned)(file_before + (in < k_file ? in : k_file - 1) + 1);
		}
		nfc_before += k_nfc;
		file_before += k_file;
		i = j;
	}
	return (unsigned)(file_before + (want - nfc_before) + 1);
}

static int refuse(struct rl_source *src, struct rl_diags *d, const char *raw,
                  size_t start, size_t bad, bool utf8, const char *what)
{
	unsigned line, col;
	position(raw, start, bad, utf8, &line, &col);
	if (raw[bad] == '\0' && !what)
		rl_diag_add(d, RL_ERROR, line, col, "NUL byte in text");
	else if (!what)
		rl_diag_add(d, RL_ERROR, line, col,
		            "invalid UTF-8 (byte 0x%02X); the file must be UTF-8, "
		            "UTF-16 or Windows-1252", (unsigned char)raw[bad]);
	else
		rl_diag_add(d, RL_ERROR, line, col, "%s", what);
	rl_source_free(src);
	return RL_EDATA;
}

int rl_source_from_memory(struct rl_source *src, const char *name,
                          const void *data, size_t len, struct rl_diags *d)
{
	*src = (struct rl_source){0};
	const char *raw = data;
	const unsigned char *u = data;
	src->name = strdup(name);
	if (!src->name)
		return RL_ENOMEM;
	src->raw_size = len;
	rl_sha256_hex(data, len, src->sha256);

	if (len >= 2 && ((u[0] == 0xFE && u[1] == 0xFF) ||
	                 (u[0] == 0xFF && u[1] == 0xFE))) {
		bool big = u[0] == 0xFE;
		src->encoding = big ? "utf-16be" : "utf-16le";
		struct rl_buf b = {0};
		size_t bad;
		if (!from_utf16(u + 2, len - 2, big, &b, &bad)) {
			rl_buf_free(&b);
			rl_diag_add(d, RL_ERROR, 0, 0, "invalid UTF-16 at byte %zu",
			            bad + 2);
			rl_source_free(src);
			return RL_EDATA;
		}
		if (b.oom) {
			rl_buf_free(&b);
			rl_source_free(src);
			return RL_ENOMEM;
		}
		const char *nul = b.s ? memchr(b.s, '\0', b.len) : NULL;
		if (nul) {
			/* positions are counted in the decoded text */
			int rc = refuse(src, d, b.s, 0, (size_t)(nul - b.s), true, NULL);
			rl_buf_free(&b);
			return rc;
		}
		int rc = finish_text(src, b.s ? b.s : "", b.len);
		rl_buf_free(&b);
		if (rc)
			rl_source_free(src);
		return rc;
	}

	size_t start = 0;
	src->encoding = "utf-8";
	if (len >= 3 && memcmp(raw, "\xEF\xBB\xBF", 3) == 0) {
		start = 3;
		src->encoding = "utf-8-bom";
	}
	const char *nul = memchr(raw, '\0', len);
	size_t bad = rl_utf8_valid(raw + start, len - start) + start;
	if (nul && (size_t)(nul - raw) < bad)
		return refuse(src, d, raw, start, (size_t)(nul - raw), true, NULL);
	if (bad < len) {
		if (start || has_utf8_sequence(u + start, len - start))
			return refuse(src, d, raw, start, bad, true, NULL);
		/* Windows-1252 from here: a byte is a character */
		if (nul)
			return refuse(src, d, raw, 0, (size_t)(nul - raw), false, NULL);
		struct rl_buf b = {0};
		size_t undefined;
		if (!from_cp1252(u, len, &b, &undefined)) {
			rl_buf_free(&b);
			char what[128];
			snprintf(what, sizeof what, "byte 0x%02X is neither UTF-8 nor a "
			         "Windows-1252 character; the file must be UTF-8, "
			         "UTF-16 or Windows-1252", u[undefined]);
			return refuse(src, d, raw, 0, undefined, false, what);
		}
		if (b.oom) {
			rl_buf_free(&b);
			rl_source_free(src);
			return RL_ENOMEM;
		}
		src->encoding = "windows-1252";
		int rc = finish_text(src, b.s ? b.s : "", b.len);
		rl_buf_free(&b);
		if (rc)
			rl_source_free(src);
		return rc;
	}
	int rc = finish_text(src, raw + start, len - start);
	if (rc)
		rl_source_free(src);
	return rc;
}

int rl_source_load(struct rl_source *src, const char *path, struct rl_diags *d)
{
	*src = (struct rl_source){0};
	/* Without O_NONBLOCK, opening a FIFO would wait for a writer forever. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		rl_diag_add(d, RL_ERROR, 0, 0, "cannot open: %s", strerror(errno));
		return RL_EIO;
	}
	struct stat st;
	const char *not_file = NULL;
	if (fstat(fd, &st) != 0)
		not_file = strerror(errno);
	else if (S_ISDIR(st.st_mode))
		not_file = "is a directory";
	else if (!S_ISREG(st.st_mode))
		not_file = "not a regular file (a FIFO, socket or device); not read";
	FILE *f = NULL;
	if (!not_file) {
		int flags = fcntl(fd, F_GETFL);
		if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 ||
		    !(f = fdopen(fd, "rb")))
			not_file = strerror(errno);
	}
	if (not_file) {
		close(fd);
		rl_diag_add(d, RL_ERROR, 0, 0, "%s", not_file);
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
	free(src->decoded);
	*src = (struct rl_source){0};
}
