/* sink.c — a buffered writer over a struct rl_sink (sink.h). */
#include "sink.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Blocks of about this size go to the sink. */
enum { OUT_BLOCK = 64 * 1024 };

void rl_out_init(struct rl_out *o, const struct rl_sink *sink)
{
	*o = (struct rl_out){ .sink = sink };
}

bool rl_out_ok(const struct rl_out *o)
{
	return !o->err && !o->b.oom;
}

static void flush(struct rl_out *o)
{
	if (!rl_out_ok(o) || !o->b.len)
		return;
	o->err = o->sink->write(o->sink->ctx, o->b.s, o->b.len);
	o->b.len = 0;
}

void rl_out_add(struct rl_out *o, const char *s, size_t n)
{
	if (!rl_out_ok(o))
		return;
	rl_buf_add(&o->b, s, n);
	if (o->b.len >= OUT_BLOCK)
		flush(o);
}

void rl_out_adds(struct rl_out *o, const char *s)
{
	rl_out_add(o, s, strlen(s));
}

void rl_out_addc(struct rl_out *o, char c)
{
	rl_out_add(o, &c, 1);
}

void rl_out_addf(struct rl_out *o, const char *fmt, ...)
{
	if (!rl_out_ok(o))
		return;
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0) {
		o->b.oom = true;
	} else if ((size_t)n < sizeof small) {
		rl_out_add(o, small, (size_t)n);
	} else {
		char *big = malloc((size_t)n + 1);
		if (!big) {
			o->b.oom = true;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		rl_out_add(o, big, (size_t)n);
		free(big);
	}
}

int rl_out_finish(struct rl_out *o)
{
	flush(o);
	int rc = o->b.oom ? RL_ENOMEM : o->err ? RL_EIO : RL_OK;
	rl_buf_free(&o->b);
	return rc;
}
