/*
 * path.h - exit-path changes between the two sides of a comparison: for each
 * probe that has an exit path on both sides (profiling lanes), the kernel
 * functions whose instructions or calls per op differ, with the side's own
 * spread taken into account when a side has several runs.
 */
#ifndef EXITSCOPE_COMPARE_PATH_H
#define EXITSCOPE_COMPARE_PATH_H

#include <jansson.h>
#include <stdio.h>

#include "results/result_read.h"

/* One figure per side: the mean over the side's profiled runs and their range. */
struct path_fig {
	double mean, lo, hi;
	size_t n;		/* runs that have the probe's exit path */
};

struct path_fn_change {
	const char *name;
	struct path_fig insn[2], calls[2];	/* [0] base side, [1] new side; per op */
};

struct path_probe_change {
	const char *probe;
	struct path_fig kernel[2];		/* L1 kernel instructions per op */
	struct path_fn_change *fns;		/* changed functions, largest |insn change| first */
	size_t n_fns;
};

struct path_changes {
	struct path_probe_change *probes;	/* probes whose exit path changed */
	size_t n;
	size_t compared;			/* probes with an exit path on both sides */
};

/*
 * A figure changed when the sides' ranges do not overlap (with one run a
 * side: when the two differ; a profile's counts are exact). 0 or -ENOMEM.
 */
int path_changes_build(const struct result_file *const *a, size_t na,
		       const struct result_file *const *b, size_t nb, struct path_changes *out);
void path_changes_free(struct path_changes *c);
/* "exit paths:" and a block per changed probe (its top functions); nothing without profiles. */
void path_changes_print(FILE *f, const struct path_changes *c);
/* {"compared": N, "probes": [{probe, kernel_insn_per_op: [a, b], functions: [...]}]} */
json_t *path_changes_json(const struct path_changes *c);

#endif
