/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * result_read.h - load and validate an exitscope result file
 * (docs/results-schema.md): the file-level envelope, with the host record,
 * probes, map and checks read by their models' readers.
 */
#ifndef EXITSCOPE_RESULTS_RESULT_READ_H
#define EXITSCOPE_RESULTS_RESULT_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"
#include "results/check_model.h"
#include "results/host_record_model.h"
#include "results/map_model.h"
#include "results/run_model.h"
#include "results/schema.h"

/*
 * All strings below point into the parsed document kept by struct
 * result_file: valid until result_free(). Optional strings are NULL when
 * absent; optional integers are -1 and optional numbers -1.0 when absent
 * (present values are validated >= 0, so the sentinel is unambiguous).
 * The models of the kinds are in results/host_record_model.h (host, same
 * conventions), results/run_model.h (probes, same conventions) and
 * results/check_model.h (checks, which own copies of their strings).
 */
struct result_file {
	const char *name;			/* as given to the reader (copied) */
	enum result_kind kind;
	const char *tool_version;		/* optional */
	const char *started, *finished;		/* optional */
	long long pid;				/* optional: the process that wrote it, -1 absent */
	const char **command;			/* optional: the command line that wrote it */
	size_t n_command;
	struct host_record host;
	struct run_probe *probes;		/* required for kind "run" */
	size_t n_probes;
	struct run_settings settings;		/* run files: how it measured (optional) */
	struct result_map *map;			/* NULL when absent (results/map_model.h) */
	struct check_report checks;		/* optional: empty when absent */
	const char **warnings;			/* optional */
	size_t n_warnings;
	void *doc;				/* parsed document owning the strings */
};

/*
 * Read and validate the result file at path. Returns the result, or NULL with
 * one line (no newline) in err naming the file and the problem (base/err.h),
 * e.g. "base.json: probes[3].samples[2]: not a finite non-negative number".
 * Never prints, never exits.
 */
struct result_file *result_read_file(const char *path, struct err *err);

/* Same for a document in memory; name is used in messages. */
struct result_file *result_read_buffer(const char *name, const void *buf, size_t len,
				       struct err *err);

/*
 * root's "schema" (schema, else "not an exitscope WHAT?") and "schema_version"
 * (vmin..vmax): 0, or -EINVAL with the message in c.
 */
int result_schema_read(struct jcheck *c, json_t *root, const char *schema, const char *what,
		       int vmin, int vmax);

/* The probe called name, or NULL. */
const struct run_probe *result_find_probe(const struct result_file *rf, const char *name);

void result_free(struct result_file *rf);
/*
 * The same run: both record the same start, end and process (every run
 * file does), or, without that record, their documents are equal.
 */
bool result_same_run(const struct result_file *x, const struct result_file *y);

#endif
