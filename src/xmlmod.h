/* xmlmod.h — the code that needs libxml2 (the HTML, XML and Atom exports,
 * the XML reader of imports), built as a module that the rulings program
 * opens only when it is used: a search, a txt export or a text import
 * loads neither libxml2 nor what it needs (ICU, libstdc++, liblzma).
 *
 * The module (rulings-xml.so; meson.build builds it from the files that
 * include libxml2's headers) exports one table, rl_xml_module, of its
 * entry points. The program links xmlload.c instead of those files: each
 * entry point there has the name and signature of the function it stands
 * for, opens the module on first use (xmlmod_load()) and calls through the
 * table. The module finds the rest of the library in the program (linked
 * whole and exported), so both must come from the same build: the table
 * carries the version and a build stamp, which must match.
 *
 * Tests, fuzz targets and benchmarks link the module's files directly (the
 * library's rulings_dep): they never load it. */
#ifndef RL_XMLMOD_H
#define RL_XMLMOD_H

#include "rulings.h"
#include "export.h"
#include "importer.h"

#define RL_XML_MODULE_NAME "rulings-xml.so"
#define RL_XML_MODULE_SYMBOL "rl_xml_module"

struct rl_xml_module {
	const char *stamp;      /* RL_XML_MODULE_STAMP of its build */
	size_t size;            /* sizeof (struct rl_xml_module) */
	int (*read_xml)(const struct rl_source *, const struct rl_xml_syntax *,
	                struct rl_blocks *, struct rl_diags *);
	int (*html_page)(struct rl_export *, size_t, const struct rl_sink *);
	int (*html_index)(struct rl_export *, const struct rl_sink *);
	int (*xml_all)(struct rl_export *, const struct rl_sink *);
	int (*changes_plan)(struct rl_export *, const struct rl_export_opts *);
	void (*changes_free)(struct rl_export *);
	int (*changes_render)(struct rl_export *, size_t,
	                      const struct rl_sink *);
	void (*quiet)(struct export_xml_errors *);
	void (*restore)(const struct export_xml_errors *);
	int (*export_xml_to)(rl_db *, const long long *, size_t,
	                     const struct rl_sink *);
	int (*export_xml)(rl_db *, const long long *, size_t, const char *);
	int (*changes_atom)(rl_db *, const struct rl_change *, size_t,
	                    const struct rl_atom_feed *, const struct rl_sink *);
};

/* The module's path: this build's when the program runs from its build
 * directory (whether it is there or not); else LIBDIR/rulings beside the
 * installed program (BINDIR/../LIBDIR/rulings, however the tree was
 * moved) if it is there, else the configured one. A new string, NULL
 * when memory ran out (datadir.c). */
char *xmlmod_path(void);

/* Opens the module once (later calls return at once): RL_OK, or
 * RL_EINTERNAL with "cannot load the export module PATH: WHY" in
 * msg[size] (xmlload.c). */
int xmlmod_load(char *msg, size_t size);
/* ... and that message recorded for rl_db_errmsg(). */
int xmlmod_load_db(rl_db *db);

#endif
