// SPDX-License-Identifier: GPL-2.0-only
/*
 * expect_num.c - numbers as the expectation language reads them: a figure
 * as awk reads it, and whether it meets a NUM spec (expect.h, judge.h).
 */
#include <string.h>
#include <stdlib.h>

#include "expect/expect.h"
#include "expect/judge.h"

/* s as awk reads a number: its leading decimal number, 0 when none. */
double ej_awk_num(const char *s)
{
	const char *p;
	char *end;
	double d;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	p = s + (*s == '-' || *s == '+');
	if (!((*p >= '0' && *p <= '9') || (*p == '.' && p[1] >= '0' && p[1] <= '9')))
		return 0;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		return 0;
	d = strtod(s, &end);
	return end == s ? 0 : d;
}

bool expect_num_holds(const char *spec, double v, double t)
{
	char op[3] = "=";
	double n;

	if (!strncmp(spec, ">=", 2) || !strncmp(spec, "<=", 2)) {
		memcpy(op, spec, 2);
		spec += 2;
	} else if (*spec == '>' || *spec == '<') {
		op[0] = *spec++;
	}
	n = ej_awk_num(spec);
	if (!strcmp(op, "="))
		return v - n <= t && n - v <= t;
	if (!strcmp(op, ">="))
		return v >= n - t;
	if (!strcmp(op, "<="))
		return v <= n + t;
	return op[0] == '>' ? v > n : v < n;
}
