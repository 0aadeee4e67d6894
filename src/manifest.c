/* manifest.c — directory manifests: a file named ".rulings" in a directory
 * says, for the documents under it that do not say themselves, which game
 * they belong to and (optionally) their language and date:
 *
 *     # the FAQ pages of this folder
 *     game = Spirit Island
 *     lang = en
 *
 *     [004_*.txt]
 *     game = Berserk
 *
 * One "key = value" a line; blank lines and lines starting with '#' are
 * passed over; the value runs to the end of the line, outer blanks
 * trimmed. Keys: game, lang, date (YYYY-MM-DD: the date of the
 * versions read from the files, like import --date). A "[PATTERN]" line makes the keys after it
 * (up to the next such line) those of the files whose path below the
 * manifest's directory matches PATTERN (fnmatch(3), '*' not crossing a
 * '/'); a matching section's key wins over the same key outside
 * sections, a later matching section's over an earlier one's. A nearer
 * manifest's key wins over a farther one's; the command line's --game,
 * --lang and --date win over every manifest; a date the document states
 * wins over all. A lang is a language code as --lang takes it
 * (capitals made small). An unknown key, a line without '=', an
 * empty value, a lang that is no language code, a date that is no day
 * or an unfinished "[" is an error of every document under
 * the manifest: it is read as strictly as a document, so that a typo is
 * not silently a game-less import. */
#include "manifest.h"
#include "rulings.h"
#include "util.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void manifest_free(struct manifest *m)
{
	free(m->game);
	free(m->lang);
	free(m->date);
	free(m->date_path);
	*m = (struct manifest){0};
}

void manifest_error_free(struct manifest_error *e)
{
	free(e->path);
	free(e->msg);
	*e = (struct manifest_error){0};
}

static int failf(struct manifest_error *err, int status, const char *path,
                 unsigned line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char buf[1024];
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	err->path = strdup(path);
	err->line = line;
	err->msg = strdup(buf);
	if (!err->path || !err->msg) {
		manifest_error_free(err);
		return RL_ENOMEM;
	}
	return status;
}

/* Reads the manifest at path (in the directory whose path is dirlen bytes
 * long) for file: into the keys of m not set yet, by a nearer manifest. */
static int read_manifest(FILE *fp, const char *path, size_t dirlen,
                         const char *file, struct manifest *m,
                         struct manifest_error *err)
{
	/* file's path below the manifest's directory */
	const char *rel = file + dirlen;
	while (*rel == '/')
		rel++;
	/* what this manifest says: game, lang, date */
	char *val[3] = { NULL, NULL, NULL };
	unsigned date_line = 0;
	static const char *const keys[3] = { "game", "lang", "date" };
	bool in_section = false, applies = true;
	bool sectioned[3] = { false, false, false };
	char line[4096];
	unsigned lineno = 0;
	int rc = RL_OK;
	while (!rc && fgets(line, sizeof line, fp)) {
		lineno++;
		size_t n = strlen(line);
		if (n == sizeof line - 1 && line[n - 1] != '\n') {
			rc = failf(err, RL_EDATA, path, lineno, "line too long");
			break;
		}
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			n--;
		const char *s = line;
		rl_trim_range(&s, &n);
		if (n == 0 || s[0] == '#')
			continue;
		if (s[0] == '[') {
			if (n < 3 || s[n - 1] != ']') {
				rc = failf(err, RL_EDATA, path, lineno,
				           "expected '[PATTERN]'");
				break;
			}
			char *pat = rl_strndup(s + 1, n - 2);
			if (!pat) {
				rc = RL_ENOMEM;
				break;
			}
			in_section = true;
			applies = fnmatch(pat, rel, FNM_PATHNAME) == 0;
			free(pat);
			continue;
		}
		const char *eq = memchr(s, '=', n);
		if (!eq) {
			rc = failf(err, RL_EDATA, path, lineno,
			           "expected 'key = value' or '[PATTERN]'");
			break;
		}
		const char *k = s, *v = eq + 1;
		size_t kn = (size_t)(eq - s), vn = n - kn - 1;
		rl_trim_range(&k, &kn);
		rl_trim_range(&v, &vn);
		size_t key = 0;
		while (key < 3 && !(kn == 4 && !memcmp(k, keys[key], 4)))
			key++;
		if (key == 3) {
			rc = failf(err, RL_EDATA, path, lineno, "unknown key '%.*s' "
			           "(known: game, lang, date)", (int)kn,
			           k);
			break;
		}
		if (vn == 0) {
			rc = failf(err, RL_EDATA, path, lineno, "'%.*s' has no value",
			           (int)kn, k);
			break;
		}
		char *value = rl_strndup(v, vn);
		if (!value) {
			rc = RL_ENOMEM;
			break;
		}
		/* as --lang gives it: capitals made small ('FR' is fr, as
		 * import --lang FR is), two or three letters ('french' was
		 * stored as it was written, in the full-text table of other
		 * languages, and no --lang could name it) */
		if (key == 1) {
			size_t j = 0;
			for (; value[j]; j++) {
				if (value[j] >= 'A' && value[j] <= 'Z')
					value[j] = (char)(value[j] - 'A' + 'a');
				if (value[j] < 'a' || value[j] > 'z')
					break;
			}
			if (value[j] || j < 2 || j > 3) {
				rc = failf(err, RL_EDATA, path, lineno, "lang '%.*s' is not "
				           "a language code (two or three letters: "
				           "en, fr, ru, ...)", (int)vn, v);
				free(value);
				break;
			}
		}
		/* checked wherever it applies, so that a typo is found early */
		if (key == 2 && !rl_day_valid(value)) {
			rc = failf(err, RL_EDATA, path, lineno, "date '%s' is not a "
			           "day of the calendar written YYYY-MM-DD", value);
			free(value);
			break;
		}
		/* a key outside sections yields to a matching section's */
		if (!applies || (!in_section && sectioned[key])) {
			free(value);
			continue;
		}
		free(val[key]);
		val[key] = value;
		sectioned[key] = in_section;
		if (key == 2)
			date_line = lineno;
	}
	if (!rc && ferror(fp))
		rc = failf(err, RL_EIO, path, 0, "%s", strerror(errno));
	char **slot[3] = { &m->game, &m->lang, &m->date };
	for (size_t i = 0; i < 3; i++) {
		if (!rc && !*slot[i] && val[i]) {
			if (i == 2) {
				/* where the date is said, for a warning */
				if (!(m->date_path = rl_strdup(path))) {
					rc = RL_ENOMEM;
					break;
				}
				m->date_line = date_line;
			}
			*slot[i] = val[i];
			val[i] = NULL;
		}
	}
	for (size_t i = 0; i < 3; i++)
		free(val[i]);
	return rc;
}

int manifest_find(const char *file, size_t rootlen, struct manifest *m,
                  struct manifest_error *err)
{
	*m = (struct manifest){0};
	*err = (struct manifest_error){0};
	const char *slash = strrchr(file, '/');
	size_t len = !slash ? 0 : slash == file ? 1 : (size_t)(slash - file);
	char *dir = rl_strndup(file, len);
	if (!dir)
		return RL_ENOMEM;
	int rc = RL_OK;
	for (;;) {
		size_t plen = strlen(dir) + sizeof RL_MANIFEST_NAME + 1;
		char *path = malloc(plen);
		if (!path) {
			rc = RL_ENOMEM;
			break;
		}
		snprintf(path, plen, "%s%s" RL_MANIFEST_NAME,
		         dir[0] ? dir : "", dir[0] ? "/" : "");
		FILE *fp = fopen(path, "r");
		if (fp) {
			rc = read_manifest(fp, path, strlen(dir), file, m, err);
			fclose(fp);
		} else if (errno != ENOENT && errno != ENOTDIR) {
			rc = failf(err, RL_EIO, path, 0, "%s", strerror(errno));
		}
		free(path);
		if (rc || (m->game && m->lang && m->date))
			break;
		/* up one directory, while still within the root */
		char *up = strrchr(dir, '/');
		if (!dir[0] || !up || (size_t)(up - dir) < rootlen ||
		    up == dir)
			break;
		*up = '\0';
	}
	free(dir);
	if (rc)
		manifest_free(m);
	return rc;
}
