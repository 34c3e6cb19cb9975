/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernels_table.h - the Markdown tables of docs/kernels.md (`exitscope
 * kernels`): per lane the probes' median lane cycles and exits/op on each
 * kernel source, the change from the kernel before (bold beyond the
 * probe's spread and the change floor, compare/lane_spread.h), the CR0/CR4
 * map per bit, and the list of the changes, from the results of
 * scripts/lane-kernels and of any repeat runs of the same lanes.
 */
#ifndef EXITSCOPE_COMPARE_KERNELS_TABLE_H
#define EXITSCOPE_COMPARE_KERNELS_TABLE_H

#include <stdio.h>

#include "results/result_read.h"

/* One lane's results on one kernel source in one directory; missing files are NULL. */
struct kernels_run {
	const struct result_file *run, *map, *info;
	const char *reused;		/* "" or where the run was reused from */
};

/*
 * The runs of n_dirs directories (the first is the table's, the others
 * repeats that only widen a probe's spread): runs[(dir * n_lanes + lane)
 * * n_sources + source]. Lanes are "vmx", "svm" or "svm-qemu".
 * two_vcpus: the catalogue's probes with a second vCPU (a probe whose
 * record names one, lane_two_vcpus, counts too).
 */
struct kernels_table {
	const char *const *lanes;
	size_t n_lanes;
	const char *const *sources;
	size_t n_sources;
	size_t n_dirs;
	const struct kernels_run *runs;
	const char *const *two_vcpus;
	size_t n_two_vcpus;
};

/* Print the tables to f: 0, or -1 when writing failed. */
int kernels_table_print(FILE *f, const struct kernels_table *t);

#endif
