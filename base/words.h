/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * words.h - the word lists commands take as one option: expect's --pairs
 * "BASE:NEW ...", expect's and kernels' --lanes and --sources "6.1 6.12
 * ...". One rule splits them all: words separated by blanks (space, tab,
 * newline), each kept once, in the order first given.
 */
#ifndef EXITSCOPE_BASE_WORDS_H
#define EXITSCOPE_BASE_WORDS_H

#include <stdbool.h>
#include <stddef.h>

/* Distinct words, in the order first added; { 0 } is the empty list. */
struct words {
	char **v;
	size_t n;
};

/* The blank-separated words of s added to w (those not there yet): 0, or -ENOMEM. */
int words_split(struct words *w, const char *s);

/* The first len bytes of s added to w unless there: 0, or -ENOMEM. */
int words_add(struct words *w, const char *s, size_t len);

bool words_has(const struct words *w, const char *s);

/* Every word freed; w is the empty list again. */
void words_free(struct words *w);

#endif
