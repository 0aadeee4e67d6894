/* xmlmod.c — the XML module's table of entry points (xmlmod.h), the one
 * symbol rulings-xml.so exports. */
#include "xmlmod.h"
#include "rl_paths.h"

__attribute__((visibility("default")))
extern const struct rl_xml_module rl_xml_module;

const struct rl_xml_module rl_xml_module = {
	.stamp = RL_XML_MODULE_STAMP,
	.size = sizeof rl_xml_module,
	.read_xml = rl_read_xml,
	.html_page = export_html_page,
	.html_index = export_html_index,
	.xml_all = export_xml_all,
	.changes_plan = export_changes_plan,
	.changes_free = export_changes_free,
	.changes_render = export_changes_render,
	.quiet = export_xml_quiet,
	.restore = export_xml_restore,
	.export_xml_to = rl_export_xml_to,
	.export_xml = rl_export_xml,
	.changes_atom = rl_changes_atom,
};

/* Linked with the module's files (tests, fuzz targets, benchmarks; the
 * program links xmlload.c instead), there is nothing to open. */
int xmlmod_load(char *msg, size_t size)
{
	(void)msg;
	(void)size;
	return RL_OK;
}

int xmlmod_load_db(rl_db *db)
{
	(void)db;
	return RL_OK;
}
