/* diag.c — diagnostics collected for the caller to report. */
#include "rulings.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int rl_diag_add(struct rl_diags *d, enum rl_severity sev, unsigned line,
                unsigned col, const char *fmt, ...)
{
	if (!rl_grow(&d->v, &d->cap, d->n + 1, sizeof *d->v))
		return RL_ENOMEM;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return RL_ENOMEM;
	char *msg = malloc((size_t)n + 1);
	if (!msg)
		return RL_ENOMEM;
	va_start(ap, fmt);
	vsnprintf(msg, (size_t)n + 1, fmt, ap);
	va_end(ap);
	d->v[d->n++] = (struct rl_diag){ sev, line, col, msg };
	if (sev == RL_ERROR)
		d->errors++;
	else
		d->warnings++;
	return RL_OK;
}

void rl_diags_clear(struct rl_diags *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].message);
	free(d->v);
	*d = (struct rl_diags){0};
}

const char *rl_status_name(int status)
{
	switch (status) {
	case RL_OK: return "ok";
	case RL_NOTFOUND: return "not found";
	case RL_EUSAGE: return "usage error";
	case RL_EDATA: return "bad input data";
	case RL_EIO: return "i/o error";
	case RL_EBUSY: return "database is busy";
	case RL_ENOMEM: return "out of memory";
	default: return "internal error";
	}
}
