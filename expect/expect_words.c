// SPDX-License-Identifier: GPL-2.0-only
/*
 * expect_words.c - a blank-separated option value as a list of distinct
 * words (expect_words.h): the pairs of expect --ab, the lanes and sources
 * of expect --across.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "expect/expect_words.h"

#define EXPECT_BLANKS	" \t\n"

bool expect_words_has(const struct expect_words *w, const char *s)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (!strcmp(w->v[i], s))
			return true;
	return false;
}

int expect_words_add(struct expect_words *w, const char *s, size_t len)
{
	char **v, *c = strndup(s, len);

	if (!c)
		return -ENOMEM;
	if (expect_words_has(w, c)) {
		free(c);
		return 0;
	}
	v = realloc(w->v, (w->n + 1) * sizeof(*v));
	if (!v) {
		free(c);
		return -ENOMEM;
	}
	w->v = v;
	w->v[w->n++] = c;
	return 0;
}

int expect_words_split(struct expect_words *w, const char *s)
{
	size_t n;
	int rc;

	for (s += strspn(s, EXPECT_BLANKS); *s; s += strspn(s, EXPECT_BLANKS)) {
		n = strcspn(s, EXPECT_BLANKS);
		rc = expect_words_add(w, s, n);
		if (rc)
			return rc;
		s += n;
	}
	return 0;
}

void expect_words_free(struct expect_words *w)
{
	while (w->n)
		free(w->v[--w->n]);
	free(w->v);
	w->v = NULL;
}
