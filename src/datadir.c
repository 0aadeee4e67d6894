/* datadir.c — where the files rulings ships are found: the thesaurus of
 * the sample documents and the RELAX NG schema of the interchange format;
 * the XML module (xmlmod.h), likewise in LIBDIR/rulings.
 *
 * `meson install` puts them in DATADIR/rulings (share/rulings under the
 * prefix). A program run from its build directory takes them from the
 * source tree instead (data/, schema/), so that a build works before it
 * is installed; an installed one looks beside itself first
 * (BINDIR/../share/rulings, however the tree was moved or unpacked: a
 * `meson install --destdir` tree works in place), then in the data
 * directory it was configured for. */
#include "rulings.h"
#include "rl_paths.h"
#include "util.h"
#include "xmlmod.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char *name;       /* in the data directory */
	const char *source;     /* in the source tree */
} files[] = {
	{ "thesaurus.txt", "data/thesaurus.txt" },
	{ "rulings.rng", "schema/rulings.rng" },
};

static char *join(const char *a, const char *b, const char *c)
{
	struct rl_buf buf = {0};
	rl_buf_adds(&buf, a);
	rl_buf_adds(&buf, "/");
	rl_buf_adds(&buf, b);
	if (c) {
		rl_buf_adds(&buf, "/");
		rl_buf_adds(&buf, c);
	}
	return rl_buf_take(&buf);
}

/* path, made absolute and plain (no "..") when it names a file that can
 * be read; else NULL. path is freed. */
static char *existing(char *path)
{
	char *real = path && access(path, R_OK) == 0 ? realpath(path, NULL) : NULL;
	free(path);
	return real;
}

/* The directory of the running program, or NULL. */
static char *exe_dir(void)
{
	char *exe = realpath("/proc/self/exe", NULL);
	if (!exe)
		return NULL;
	char *slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	return exe;
}

static bool inside(const char *dir, const char *root)
{
	char *r = realpath(root, NULL);
	if (!r)
		return false;
	size_t n = strlen(r);
	bool in = strncmp(dir, r, n) == 0 && (dir[n] == '\0' || dir[n] == '/');
	free(r);
	return in;
}

char *rl_data_file(const char *name)
{
	const char *source = NULL;
	for (size_t i = 0; i < sizeof files / sizeof *files; i++)
		if (strcmp(files[i].name, name) == 0)
			source = files[i].source;
	if (!source)
		return NULL;
	char *dir = exe_dir(), *found = NULL;
	if (dir && inside(dir, RL_BUILD_ROOT))
		found = existing(join(RL_SOURCE_ROOT, source, NULL));
	if (!found && dir && *RL_BINDIR_TO_DATADIR)
		found = existing(join(dir, RL_BINDIR_TO_DATADIR, name));
	if (!found)
		found = existing(join(RL_DATADIR, name, NULL));
	free(dir);
	return found;
}

char *xmlmod_path(void)
{
	char *dir = exe_dir(), *found = NULL;
	/* run from its build directory: that build's, or none */
	if (dir && inside(dir, RL_BUILD_ROOT)) {
		free(dir);
		return join(RL_BUILD_ROOT, RL_XML_MODULE_NAME, NULL);
	}
	if (dir && *RL_BINDIR_TO_LIBDIR)
		found = existing(join(dir, RL_BINDIR_TO_LIBDIR, RL_XML_MODULE_NAME));
	free(dir);
	return found ? found : join(RL_LIBDIR, RL_XML_MODULE_NAME, NULL);
}
