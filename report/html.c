// SPDX-License-Identifier: GPL-2.0-only
/* html.c - small helpers to write escaped HTML/SVG text, numbers and per-file colors. */
#include <math.h>

#include "base/array_size.h"
#include "report/html.h"

void html_escape(FILE *f, const char *s)
{
	if (!s)
		return;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
				fputs("&#xFFFD;", f);
			else
				fputc(c, f);
		}
	}
}

void html_num(FILE *f, double v)
{
	if (!isfinite(v))
		fputs("-", f);
	else if (fabs(v) < 10000)
		fprintf(f, "%.1f", v);
	else
		fprintf(f, "%.0f", v);
}

/* Colorblind-friendly (Okabe-Ito) palette, darkened a little for white paper. */
static const char *const colors[] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#7f7f00", "#444444",
};

const char *html_file_color(size_t i)
{
	return colors[i % ARRAY_SIZE(colors)];
}

char html_file_label(size_t i)
{
	return (char)('A' + i % 26);
}
