/* fuzz_parse.c — one libFuzzer target per importer: the input is a file's
 * bytes, read through rl_source_from_memory() (encoding detection, NFC, line
 * breaks) and parsed by the importer FUZZ_FORMAT names (a string literal,
 * given by tests/fuzz/meson.build), or by whichever importer detection
 * picks when FUZZ_FORMAT is not defined. Bad input must give diagnostics and
 * a status, never a crash, a leak or undefined behaviour. */
#include "rulings.h"

#include <stdint.h>
#include <stdlib.h>

#ifndef FUZZ_FORMAT
#define FUZZ_FORMAT NULL
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rl_source src;
	struct rl_diags d = {0};
	if (rl_source_from_memory(&src, "fuzz.txt", data, size, &d) == RL_OK) {
		struct rl_import_opts opts = { .format = FUZZ_FORMAT };
		struct rl_doc doc;
		if (rl_parse(&src, &opts, &doc, &d) == RL_OK) {
			/* what the store and the renderers rely on */
			for (size_t i = 0; i < doc.n; i++)
				if (!doc.entries[i].key)
					abort();
			if (!doc.format || !doc.lang)
				abort();
			rl_doc_free(&doc);
		}
		rl_source_free(&src);
	}
	rl_diags_clear(&d);
	return 0;
}
