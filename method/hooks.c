// SPDX-License-Identifier: GPL-2.0-only
/* hooks.c - the callbacks through which the method reports: progress and warnings (method/method.h). */
#include <stdarg.h>
#include <stdio.h>

#include "method/method.h"

void method_warn(const struct method_hooks *h, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (!h || !h->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	h->warn(h->ctx, buf);
}

void method_progress(const struct method_hooks *h, unsigned done, unsigned total, const char *label)
{
	if (h && h->progress)
		h->progress(h->ctx, done, total, label);
}
