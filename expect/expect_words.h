/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * expect_words.h - the word lists the expectation commands take as one
 * option: --pairs "BASE:NEW ...", --lanes and --sources "6.1 6.12 ...".
 * One rule splits them all: words separated by blanks (space, tab,
 * newline), each kept once, in the order first given.
 */
#ifndef EXITSCOPE_EXPECT_EXPECT_WORDS_H
#define EXITSCOPE_EXPECT_EXPECT_WORDS_H

#include <stdbool.h>
#include <stddef.h>

/* Distinct words, in the order first added; { 0 } is the empty list. */
struct expect_words {
	char **v;
	size_t n;
};

/* The blank-separated words of s added to w (those not there yet): 0, or -ENOMEM. */
int expect_words_split(struct expect_words *w, const char *s);

/* The first len bytes of s added to w unless there: 0, or -ENOMEM. */
int expect_words_add(struct expect_words *w, const char *s, size_t len);

bool expect_words_has(const struct expect_words *w, const char *s);

/* Every word freed; w is the empty list again. */
void expect_words_free(struct expect_words *w);

#endif
