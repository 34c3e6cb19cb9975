/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * num.h - unsigned integers read from text as written: digits only, whole.
 *
 * strtoull alone also takes leading spaces, a sign ("-1" wraps to
 * UINT64_MAX) and, in base 16, a second "0x"; these parsers take none of
 * that, so a typo is an error and not a different number.
 */
#ifndef EXITSCOPE_BASE_NUM_H
#define EXITSCOPE_BASE_NUM_H

#include <stdbool.h>
#include <stdint.h>

/*
 * s: one or more digits of base (10 or 16, no prefix), nothing else, at
 * most max. 0 with *out set, -EINVAL (not such a number, or s NULL) or
 * -ERANGE (above max); *out is untouched on failure.
 */
int num_parse_digits(const char *s, int base, uint64_t max, uint64_t *out);

/*
 * A decimal number in [0, max]; with hex, "0x"/"0X" and hexadecimal digits
 * are taken too. It starts with a digit (no sign, no space), any length
 * (leading zeros too), nothing after it. 0, or -EINVAL / -ERANGE.
 */
int num_parse_u64(const char *s, bool hex, uint64_t max, uint64_t *out);

#endif
