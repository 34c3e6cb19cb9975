/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * openmetrics.h - result files as metrics in the OpenMetrics 1.0.0 text
 * format, ended by "# EOF", that is also valid Prometheus text 0.0.4 for
 * node_exporter's textfile collector (whose parser takes "# UNIT" and
 * "# EOF" as comments): every family is a gauge (no counter: each value is
 * one run's, not a running total), so no type 0.0.4 lacks appears.
 *
 * Every family has HELP and TYPE lines, and a UNIT line when its name ends
 * in its unit (_cycles, _seconds, _hertz, _ratio); names start exitscope_,
 * times are in seconds; statuses are state sets as gauges (one
 * series per possible status, 1 for the current one, 0 for the others), so
 * an alert can match status="failed" == 1 and a status that changes never
 * makes a series vanish. Several files go into one text: every series has a
 * "run" label naming its file (export_run_label), and two files with the
 * same label are refused. No timestamps (the textfile collector forbids
 * them); exitscope_run_finished_timestamp_seconds carries the run's time.
 */
#ifndef EXITSCOPE_EXPORT_OPENMETRICS_H
#define EXITSCOPE_EXPORT_OPENMETRICS_H

#include <stddef.h>
#include <stdio.h>

#include "base/err.h"
#include "results/result_read.h"

#define EXPORT_RUN_LABEL_LEN	128
#define EXPORT_MAX_FILES	64	/* result files in one export */

/* One file to export and the value of its "run" label. */
struct export_run {
	const struct result_file *rf;
	const char *run;
};

/*
 * The "run" label of a result file at path: its base name without ".json"
 * ("/var/lib/exitscope/run.json" -> "run"), so a daily run written to the
 * same path stays one series; "run" for NULL, "-" or an empty name.
 */
void export_run_label(const char *path, char *buf, size_t len);

/*
 * Write the metrics of runs[0..n-1] to f. 0, or -EINVAL with one line in
 * err when they cannot be one valid text (two runs with one label, two map
 * entries or checks that would be one series); nothing is written then.
 * Write errors are f's (ferror), for the caller's checked output file.
 */
int export_openmetrics(FILE *f, const struct export_run *runs, size_t n, struct err *err);

#endif
