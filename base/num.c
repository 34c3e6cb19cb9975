// SPDX-License-Identifier: GPL-2.0-only
/* num.c - unsigned integers read from text as written (num.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"

int num_parse_digits(const char *s, int base, uint64_t max, uint64_t *out)
{
	const char *digits = base == 16 ? "0123456789abcdefABCDEF" : "0123456789";
	unsigned long long v;
	char *end;

	if (!s || !*s || s[strspn(s, digits)])
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno == ERANGE || v > max)
		return -ERANGE;
	if (errno || end == s || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

int num_parse_u64(const char *s, bool hex, uint64_t max, uint64_t *out)
{
	if (hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return num_parse_digits(s + 2, 16, max, out);
	return num_parse_digits(s, 10, max, out);
}
