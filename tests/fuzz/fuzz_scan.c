/* fuzz_scan.c — libFuzzer targets for the scanners that run over the text
 * of every entry, whatever its format, fed directly (without a format
 * around them to get past):
 *   FUZZ_XREF      rl_xref_scan(): page and rule references, ranges and
 *                  lists (the page range that never ended was here)
 *   FUZZ_MARKDOWN  rl_md_plain(): Markdown inline markup and links, with
 *                  the text cut in two at its first byte's value, as a
 *                  paragraph and a heading are passed separately
 * The input goes through rl_source_from_memory() (the scanners are given
 * valid UTF-8, NFC, as the library gives them). The contracts checked:
 * every reference has a target; the plain text is valid UTF-8, and no
 * longer than the input plus what escapes cannot add. */
#include "rulings.h"
#include "doc.h"
#include "markdown.h"
#include "utf8.h"
#include "xref.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifdef FUZZ_MARKDOWN
static int on_link(void *ctx, enum rl_ref_kind kind, const char *target,
                   size_t len)
{
	size_t *links = ctx;
	if ((kind != RL_REF_TERM && kind != RL_REF_URL) ||
	    rl_utf8_valid(target, len) != len)
		abort();
	(*links)++;
	return RL_OK;
}
#endif

static void scan(const char *text, size_t len)
{
#ifdef FUZZ_XREF
	struct rl_entry e = { .line = 1, .hidden_tags = -1 };
	struct rl_diags d = {0};
	if (rl_xref_scan(&e, text, &d) == RL_OK)
		for (size_t i = 0; i < e.nrefs; i++)
			if (!e.refs[i].target || !*e.refs[i].target)
				abort();
	rl_entry_clear(&e);
	rl_diags_clear(&d);
	(void)len;
#endif
#ifdef FUZZ_MARKDOWN
	size_t cut = len ? (unsigned char)text[0] % (len + 1) : 0, links = 0;
	while (cut < len && ((unsigned char)text[cut] & 0xC0) == 0x80)
		cut++;
	for (int part = 0; part < 2; part++) {
		const char *s = part ? text + cut : text;
		size_t n = part ? len - cut : cut;
		struct rl_buf out = {0};
		if (rl_md_plain(s, n, on_link, &links, &out) == RL_OK && out.s &&
		    rl_utf8_valid(out.s, out.len) != out.len)
			abort();
		rl_buf_free(&out);
	}
#endif
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rl_source src;
	struct rl_diags d = {0};
	if (rl_source_from_memory(&src, "fuzz.txt", data, size, &d) == RL_OK) {
		scan(src.text, src.len);
		rl_source_free(&src);
	}
	rl_diags_clear(&d);
	return 0;
}
