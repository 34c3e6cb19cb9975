/* SPDX-License-Identifier: GPL-2.0-only */
/* html.h - small helpers to write escaped HTML/SVG text, numbers and per-file colors. */
#ifndef EXITSCOPE_REPORT_HTML_H
#define EXITSCOPE_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

/*
 * Write s escaped for HTML text and attribute values (& < > " '); C0
 * control characters other than tab and newline become U+FFFD. NULL writes
 * nothing.
 */
void html_escape(FILE *f, const char *s);

/* A number for humans: 1 decimal below 10000, none above; "-" if not finite. */
void html_num(FILE *f, double v);

/* Color and one-letter label ("A", "B", ...) of input file i. */
const char *html_file_color(size_t i);
char html_file_label(size_t i);

#endif
