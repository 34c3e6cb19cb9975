// SPDX-License-Identifier: GPL-2.0-only
/*
 * text_wrap.c - words wrapped at TEXT_WIDTH columns (host/text_wrap.h).
 */
#include <string.h>

#include "host/text_wrap.h"

void text_wrap_print_cont(FILE *f, const char *lead, const char *cont, const char *text)
{
	size_t col = strlen(lead), line_start = col;
	const char *p = text;

	fputs(lead, f);
	while (*p) {
		size_t len;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		len = strcspn(p, " ");
		if (col > line_start && col + 1 + len > TEXT_WIDTH) {
			fprintf(f, "\n%s", cont);
			col = line_start = strlen(cont);
		} else if (col > line_start) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, len, f);
		col += len;
		p += len;
	}
	fputc('\n', f);
}

void text_wrap_print(FILE *f, const char *lead, size_t indent, const char *text)
{
	char cont[TEXT_WIDTH + 1];

	if (indent > TEXT_WIDTH)
		indent = TEXT_WIDTH;
	memset(cont, ' ', indent);
	cont[indent] = '\0';
	text_wrap_print_cont(f, lead, cont, text);
}
