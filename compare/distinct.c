// SPDX-License-Identifier: GPL-2.0-only
/*
 * distinct.c - is every run of a comparison a run of its own? A file given
 * twice (or a copy of it) would count as two runs of a side, or compare a
 * run with itself (docs/compare-report.md, "Bad input").
 */
#include <stdio.h>
#include <string.h>

#include "compare/compare.h"

int compare_runs_distinct(const struct result_file *const *a, size_t na,
			  const struct result_file *const *b, size_t nb, struct err *err)
{
	size_t n = na + nb;

	for (size_t i = 0; i < n; i++) {
		const struct result_file *x = i < na ? a[i] : b[i - na];

		for (size_t j = i + 1; j < n; j++) {
			const struct result_file *y = j < na ? a[j] : b[j - na];
			bool across = i < na && j >= na;

			if (!result_same_run(x, y))
				continue;
			return err_set(err, -EINVAL, "%s and %s are the same run%s: %s",
				       x->name, y->name,
				       across ? " on both sides" : !nb ? ""
				       : i < na ? " on the base side" : " on the new side",
				       across ? "it cannot be compared with itself"
				       : "a run counts once (give each run once)");
		}
	}
	return 0;
}
