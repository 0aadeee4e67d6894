/* fuzz_source.c — the libFuzzer target for the encoding detector:
 * rl_source_from_memory() alone. What it accepts must be what its contract
 * promises: valid UTF-8, NUL-terminated with no NUL inside, no carriage
 * return (a U+FEFF after the byte order mark is text, tests/unit/
 * test_source.c); what it refuses must come with an error diagnostic. */
#include "rulings.h"
#include "utf8.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rl_source src;
	struct rl_diags d = {0};
	int rc = rl_source_from_memory(&src, "fuzz.txt", data, size, &d);
	if (rc == RL_OK) {
		if (!src.text || strlen(src.text) != src.len)
			abort();
		if (rl_utf8_valid(src.text, src.len) != src.len)
			abort();
		if (memchr(src.text, '\r', src.len))
			abort();
		if (src.raw_size != size || strlen(src.sha256) != 64 || !src.encoding)
			abort();
		rl_source_free(&src);
	} else if (rc == RL_EDATA && d.errors == 0) {
		abort();
	}
	rl_diags_clear(&d);
	return 0;
}
