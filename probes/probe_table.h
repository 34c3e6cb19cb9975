/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * probe_table.h - the run table of `exitscope run`: one row per probe, in
 * TEXT_WIDTH columns by default (each note once, below the table, marked on
 * the rows it concerns), or every figure and note on its row (wide).
 */
#ifndef EXITSCOPE_PROBES_PROBE_TABLE_H
#define EXITSCOPE_PROBES_PROBE_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "probes/probe_out.h"

struct probe_table_opts {
	bool emulated;		/* the legend says what exits/op counts under emulation */
	bool legend;		/* print the legend of the columns (once per invocation) */
	bool wide;		/* the CI of all batches, and the notes on their rows */
};

/* A header, one row per outcome, the notes (default), and the legend (t->legend). */
void probe_table_print(FILE *f, const struct probe_outcome *o, size_t n, const struct probe_table_opts *t);

#endif
