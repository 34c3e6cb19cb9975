// SPDX-License-Identifier: GPL-2.0-only
/*
 * findings.c - how the parts of a comparison add what they find to its
 * result (compare/compare_int.h): an element of one of its lists, a
 * message, a warning or note.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_int.h"

/* The array's pointer is moved with memcpy (any element type), so no aliasing games. */
void *findings_push(void *arrp, size_t *n, size_t size)
{
	char *arr, *na;

	memcpy(&arr, arrp, sizeof(arr));
	if ((*n & (*n - 1)) == 0) {	/* grow at powers of two */
		na = realloc(arr, (*n ? *n * 2 : 1) * size);
		if (!na)
			return NULL;
		arr = na;
		memcpy(arrp, &arr, sizeof(arr));
	}
	na = arr + *n * size;
	memset(na, 0, size);
	(*n)++;
	return na;
}

static char *vprintf_alloc(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

static char *vprintf_alloc(const char *fmt, va_list ap)
{
	char *s;

	return vasprintf(&s, fmt, ap) < 0 ? NULL : s;
}

char *findings_printf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vprintf_alloc(fmt, ap);
	va_end(ap);
	return s;
}

int findings_warnf(struct compare_result *cr, const char *fmt, ...)
{
	va_list ap;
	char *msg, **w;

	va_start(ap, fmt);
	msg = vprintf_alloc(fmt, ap);
	va_end(ap);
	if (!msg)
		return -ENOMEM;
	w = findings_push(&cr->warnings, &cr->n_warnings, sizeof(*w));
	if (!w) {
		free(msg);
		return -ENOMEM;
	}
	*w = msg;
	return 0;
}
