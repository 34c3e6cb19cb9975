// SPDX-License-Identifier: GPL-2.0-only
/* words.c - a blank-separated option value as a list of distinct words (words.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/words.h"

#define WORDS_BLANKS	" \t\n"

bool words_has(const struct words *w, const char *s)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (!strcmp(w->v[i], s))
			return true;
	return false;
}

int words_add(struct words *w, const char *s, size_t len)
{
	char **v, *c = strndup(s, len);

	if (!c)
		return -ENOMEM;
	if (words_has(w, c)) {
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

int words_split(struct words *w, const char *s)
{
	size_t n;
	int rc;

	for (s += strspn(s, WORDS_BLANKS); *s; s += strspn(s, WORDS_BLANKS)) {
		n = strcspn(s, WORDS_BLANKS);
		rc = words_add(w, s, n);
		if (rc)
			return rc;
		s += n;
	}
	return 0;
}

void words_free(struct words *w)
{
	while (w->n)
		free(w->v[--w->n]);
	free(w->v);
	w->v = NULL;
}
