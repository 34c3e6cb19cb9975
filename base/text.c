// SPDX-License-Identifier: GPL-2.0-only
/* text.c - strings from input files escaped for a terminal (text.h). */
#include <string.h>

#include "base/text.h"

size_t text_utf8_len(const unsigned char *s, size_t n)
{
	size_t len = *s >= 0xf0 && *s <= 0xf4 ? 4 : *s >= 0xe0 ? 3 : *s >= 0xc2 ? 2 : 0;

	if (*s >= 0xf5 || len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/* How many bytes of s (n left) are written as they are: 0 when the byte at s is escaped. */
static size_t text_kept(const unsigned char *s, size_t n)
{
	return *s >= 0x80 ? text_utf8_len(s, n) : (*s >= 0x20 && *s != 0x7f);
}

void text_put(FILE *f, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	while (n) {
		size_t k = text_kept(p, n);

		if (k) {
			fwrite(p, 1, k, f);
		} else {
			fprintf(f, "\\x%02x", *p);
			k = 1;
		}
		p += k;
		n -= k;
	}
}

const char *text_esc(char *buf, size_t len, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t left = strlen((const char *)p), o = 0;

	while (left) {
		size_t k = text_kept(p, left);

		if (k) {
			if (o + k >= len)
				break;
			memcpy(buf + o, p, k);
			o += k;
		} else {
			if (o + 4 >= len)
				break;
			buf[o++] = '\\';
			buf[o++] = 'x';
			buf[o++] = hex[*p >> 4];
			buf[o++] = hex[*p & 15];
			k = 1;
		}
		p += k;
		left -= k;
	}
	buf[o] = 0;
	return buf;
}

size_t text_cols(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}
