// SPDX-License-Identifier: GPL-2.0-only
/* err.c - filling a struct err (the convention is written in err.h). */
#include <stdio.h>
#include <string.h>

#include "base/err.h"

void err_init(struct err *e)
{
	e->code = 0;
	e->msg[0] = '\0';
}

int err_vset(struct err *e, int code, const char *fmt, va_list ap)
{
	if (!e)
		return code;
	e->code = code;
	if (vsnprintf(e->msg, sizeof(e->msg), fmt, ap) < 0)
		e->msg[0] = '\0';
	return code;
}

int err_set(struct err *e, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	code = err_vset(e, code, fmt, ap);
	va_end(ap);
	return code;
}

int err_prefix(struct err *e, const char *fmt, ...)
{
	char old[ERR_MSG_MAX];
	va_list ap;
	int n;

	if (!e)
		return 0;
	memcpy(old, e->msg, sizeof(old));
	va_start(ap, fmt);
	n = vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0, e->msg[0] = '\0';
	if ((size_t)n < sizeof(e->msg))
		snprintf(e->msg + n, sizeof(e->msg) - (size_t)n, ": %s", old);
	return e->code;
}
