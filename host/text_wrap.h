/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * text_wrap.h - terminal text that fits TEXT_WIDTH columns: a lead (a label
 * or "warning: ") then words wrapped, continuation lines indented.
 */
#ifndef EXITSCOPE_HOST_TEXT_WRAP_H
#define EXITSCOPE_HOST_TEXT_WRAP_H

#include <stddef.h>
#include <stdio.h>

#define TEXT_WIDTH	100	/* columns of the default terminal output */

/*
 * Print lead, then text's words (split at spaces) wrapped so no line is
 * wider than TEXT_WIDTH (a word longer than a line gets a line of its
 * own), continuation lines indented by indent spaces; then a newline.
 */
void text_wrap_print(FILE *f, const char *lead, size_t indent, const char *text);
/* The same with each continuation line starting with cont ("#   " in TAP). */
void text_wrap_print_cont(FILE *f, const char *lead, const char *cont, const char *text);

#endif
