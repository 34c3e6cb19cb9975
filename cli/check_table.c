// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_table.c - the check results as a table within TEXT_WIDTH columns
 * (cli/check_table.h), for check and run --all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/check_table.h"
#include "host/text_wrap.h"

/* The mark (from 1) of tail among notes[0..*n), added when new. */
static size_t note_mark(const char **notes, size_t *n, const char *tail)
{
	for (size_t k = 0; k < *n; k++)
		if (!strcmp(notes[k], tail))
			return k + 1;
	notes[*n] = tail;
	return ++*n;
}

void check_table_print(FILE *f, const struct check_report *rep)
{
	const char **notes = calloc(rep->n ? rep->n : 1, sizeof(*notes));
	size_t w = 4, nn = 0, indent;

	for (size_t i = 0; i < rep->n; i++) {
		size_t l = strlen(rep->r[i].suite) + 1 + strlen(rep->r[i].name);

		if (l > w)
			w = l;
	}
	/* The detail under its column, unless that leaves it less than half the width. */
	indent = 6 + w + 2 <= TEXT_WIDTH / 2 ? 6 + w + 2 : 8;
	for (size_t i = 0; i < rep->n; i++) {
		const struct check_result *c = &rep->r[i];
		const char *tail = notes ? check_shared_tail(rep, i) : NULL;
		char lead[160], *text = NULL;

		snprintf(lead, sizeof(lead), "%-4s  %s.%s", check_status_name(c->status), c->suite,
			 c->name);
		if (tail && asprintf(&text, "%.*ssee note %zu", (int)(tail - c->detail), c->detail,
				     note_mark(notes, &nn, tail)) < 0)
			text = NULL;
		if (!text)
			text = strdup(c->detail);
		if (strlen(lead) + 2 > indent) {
			fprintf(f, "%s\n", lead);
			lead[0] = 0;
		}
		snprintf(lead + strlen(lead), sizeof(lead) - strlen(lead), "%*s",
			 (int)(indent - strlen(lead)), "");
		text_wrap_print(f, lead, indent, text ? text : c->detail);
		free(text);
	}
	for (size_t k = 0; k < nn; k++) {
		char lead[32];

		if (!k)
			fprintf(f, "notes:\n");
		snprintf(lead, sizeof(lead), "%3zu  ", k + 1);
		text_wrap_print(f, lead, 5, notes[k]);
	}
	free(notes);
	fprintf(f, "%zu passed, %zu failed, %zu skipped", check_count(rep, CHECK_PASS),
		check_count(rep, CHECK_FAIL), check_count(rep, CHECK_SKIP));
	if (check_count(rep, CHECK_STOPPED))
		fprintf(f, ", %zu stopped", check_count(rep, CHECK_STOPPED));
	fputc('\n', f);
}
