/* interchange.h — the XML interchange format (schema/rulings.rng), shared
 * by its writer (src/export_xml.c) and its importer
 * (importers/xml_interchange.c). */
#ifndef RL_INTERCHANGE_H
#define RL_INTERCHANGE_H

#include <stddef.h>

/* The value of the root's format_version attribute. */
#define RL_INTERCHANGE_VERSION "1"

/* schema/rulings.rng, compiled in (NUL-terminated; size excludes it). */
extern const unsigned char rl_interchange_rng[];
extern const size_t rl_interchange_rng_size;

#endif
