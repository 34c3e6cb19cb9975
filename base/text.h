/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * text.h - a string from an input file made safe for a terminal: the one
 * escaping every command uses before it prints such a string (names,
 * kernel releases, notes, its error lines). Control bytes (below 0x20) and
 * DEL become \xNN, as do bytes that are no valid UTF-8; valid UTF-8 (é) is
 * kept as it is. An OSC or CSI escape in a file is then shown, not obeyed.
 */
#ifndef EXITSCOPE_BASE_TEXT_H
#define EXITSCOPE_BASE_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* The length of the valid UTF-8 character at s (n bytes left); 0 when it is none. */
size_t text_utf8_len(const unsigned char *s, size_t n);

/* Write s[0..n-1] to f, escaped. */
void text_put(FILE *f, const char *s, size_t n);

/*
 * s escaped into buf (len > 0), cut at a whole character or escape when it
 * does not fit; returns buf, so it goes straight into a printf argument.
 * A NULL s is "".
 */
const char *text_esc(char *buf, size_t len, const char *s);

/* The columns s[0..n-1] takes on a terminal: one per UTF-8 character (escaped text). */
size_t text_cols(const char *s, size_t n);

#endif
