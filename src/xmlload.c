/* xmlload.c — the program's side of the XML module (xmlmod.h): the module
 * opened on first use, and in place of each of its functions one that
 * calls it there. Linked into the rulings program instead of the module's
 * files (meson.build). */
#include "xmlmod.h"
#include "rl_paths.h"
#include "util.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct rl_xml_module *mod;

int xmlmod_load(char *msg, size_t size)
{
	if (mod)
		return RL_OK;
	char *path = xmlmod_path();
	if (!path) {
		snprintf(msg, size, "out of memory");
		return RL_ENOMEM;
	}
	/* RTLD_NOW: a symbol the program lacks is an error here, not a
	 * crash in the middle of an export */
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	const struct rl_xml_module *m = NULL;
	const char *why = NULL;
	if (!h) {
		why = dlerror();
		/* dlerror() names the file first: once is enough */
		size_t n = strlen(path);
		if (!strncmp(why, path, n) && !strncmp(why + n, ": ", 2))
			why += n + 2;
	}
	else if (!(m = dlsym(h, RL_XML_MODULE_SYMBOL)))
		why = "it has no " RL_XML_MODULE_SYMBOL " table";
	else if (m->size != sizeof *m || strcmp(m->stamp, RL_XML_MODULE_STAMP))
		why = "it is from another build of rulings";
	if (why) {
		snprintf(msg, size, "cannot load the export module %s: %s", path,
		         why);
		if (h)
			dlclose(h);
		free(path);
		return RL_EINTERNAL;
	}
	free(path);
	mod = m;            /* open until the program exits */
	return RL_OK;
}

int xmlmod_load_db(rl_db *db)
{
	char msg[1024];
	int rc = xmlmod_load(msg, sizeof msg);
	return rc ? rl_db_fail(db, rc, "%s", msg) : RL_OK;
}

int rl_read_xml(const struct rl_source *src, const struct rl_xml_syntax *x,
                struct rl_blocks *out, struct rl_diags *d)
{
	char msg[1024];
	int rc = xmlmod_load(msg, sizeof msg);
	if (rc) {
		/* the status says what kind of failure it is, the diagnostic
		 * what failed */
		int added = rl_diag_add(d, RL_ERROR, 0, 0, "%s", msg);
		return added ? added : rc;
	}
	return mod->read_xml(src, x, out, d);
}

/* The export calls xmlmod_load_db() before it begins (rl_export(): the
 * formats that need the module say so), so these find it open. */
int export_html_page(struct rl_export *x, size_t page, const struct rl_sink *out)
{
	return mod->html_page(x, page, out);
}

int export_html_index(struct rl_export *x, const struct rl_sink *out)
{
	return mod->html_index(x, out);
}

int export_xml_all(struct rl_export *x, const struct rl_sink *out)
{
	return mod->xml_all(x, out);
}

int export_changes_plan(struct rl_export *x, const struct rl_export_opts *o)
{
	return mod->changes_plan(x, o);
}

void export_changes_free(struct rl_export *x)
{
	/* without the module nothing was planned */
	if (mod)
		mod->changes_free(x);
}

int export_changes_render(struct rl_export *x, size_t k,
                          const struct rl_sink *out)
{
	return mod->changes_render(x, k, out);
}

/* libxml2's error handlers matter only once it is loaded. */
void export_xml_quiet(struct export_xml_errors *save)
{
	*save = (struct export_xml_errors){0};
	if (mod)
		mod->quiet(save);
}

void export_xml_restore(const struct export_xml_errors *save)
{
	if (mod)
		mod->restore(save);
}

int rl_export_xml_to(rl_db *db, const long long *ids, size_t n,
                     const struct rl_sink *out)
{
	int rc = xmlmod_load_db(db);
	return rc ? rc : mod->export_xml_to(db, ids, n, out);
}

int rl_export_xml(rl_db *db, const long long *ids, size_t n, const char *path)
{
	int rc = xmlmod_load_db(db);
	return rc ? rc : mod->export_xml(db, ids, n, path);
}

int rl_changes_atom(rl_db *db, const struct rl_change *v, size_t n,
                    const struct rl_atom_feed *f, const struct rl_sink *out)
{
	int rc = xmlmod_load_db(db);
	return rc ? rc : mod->changes_atom(db, v, n, f, out);
}
