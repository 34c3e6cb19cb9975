/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * result_merge.h - result files made into one (`exitscope merge`): the
 * blocks of a lane's side, several result files, as one file for report and
 * compare (the first run block, with every other block's probes as
 * NAME@BLOCK, the first map and the first checks); and a probe renamed or
 * the rounds cut, on one file or on the merged one. Everything else of the
 * first file is kept as it was, every number exactly.
 */
#ifndef EXITSCOPE_RESULTS_RESULT_MERGE_H
#define EXITSCOPE_RESULTS_RESULT_MERGE_H

#include <stddef.h>

#include "base/err.h"

/* The separator of a probe's name and its block in a merged file: "cpuid@tsc". */
#define MERGE_BLOCK_SEP		'@'

struct result_merge {
	const char *rename_from, *rename_to;	/* both or neither: probe from becomes to, the
						 * probe named to (if any) dropped */
	unsigned int rounds;			/* > 0: each probe keeps its first rounds rounds */
};

/* The merged document, checked as a result file (opaque: it stays in results/). */
struct result_merged;

/*
 * Read the n result files at paths[] (each checked as every command reads
 * one) and merge them as m says; a file's block is its base name without
 * ".json". The merged document, or NULL with one line in err:
 * "b/tsc.json: probes[2].samples[0]: ...", "--rename: no probe \"cpuid\"
 * in a/run.json", "a/run.json and b/run.json: two blocks named run".
 */
struct result_merged *result_merge_read(const char *const *paths, size_t n, const struct result_merge *m,
					struct err *err);
/* Write it to path ("-": stdout) atomically. 0, or -errno with "PATH: reason". */
int result_merged_write(const struct result_merged *r, const char *path, struct err *err);
/* The probes it has (for a command's summary). */
size_t result_merged_probes(const struct result_merged *r);
void result_merged_free(struct result_merged *r);

#endif
