/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * result_write.h - the envelope of every result file (docs/results-schema.md):
 * schema and version, tool, kind, command line, timestamps (a command's
 * members follow them: results/result_doc.h); written through
 * results/outfile.h (atomically for regular files, every error checked) to
 * a file, to stdout, or to a uniquely named file kept in $TMPDIR when the
 * real target failed.
 */
#ifndef EXITSCOPE_RESULTS_RESULT_WRITE_H
#define EXITSCOPE_RESULTS_RESULT_WRITE_H

#include <stddef.h>
#include <jansson.h>

#include "base/err.h"
#include "results/schema.h"

/* How result files are serialized (numbers with 10 significant digits). */
#define RESULT_DUMP_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10))

/*
 * New root object with schema, tool, kind, command (argv from the command's
 * name on, after "exitscope"), "started" and "pid"; NULL when out of memory.
 */
json_t *result_envelope(const char *kind, int argc, char **argv, const char *started,
			long long pid);
/* result_envelope started now, by this process. */
json_t *result_new(const char *kind, int argc, char **argv);
/*
 * Set "finished" and write root to path ("-" = stdout). 0, or -errno of the
 * call that failed with "PATH: reason" in err; a failed write leaves an
 * existing regular file untouched.
 */
int result_write(json_t *root, const char *path, struct err *err);
/*
 * root written to path as it is (no "finished": a noise floor, a compare
 * or walk document), as result_write writes; _hooked: opened as below.
 */
int result_write_as_is(json_t *root, const char *path, struct err *err);
struct outfile;
int result_write_as_is_hooked(json_t *root, const char *path,
			      void (*opened)(const struct outfile *o), struct err *err);
/*
 * result_write with a hook: opened(o) once path is open, before anything
 * is written to it, and opened(NULL) once it is closed (a command makes
 * the write stoppable there: cli_stop_output). opened may be NULL.
 */
int result_write_hooked(json_t *root, const char *path, void (*opened)(const struct outfile *o),
			struct err *err);
/*
 * Write root to a new file $TMPDIR/exitscope-KIND-XXXXXX.json (TMPDIR unset:
 * /tmp), its name in kept: where a result goes when its target failed.
 * 0 or -errno with err set.
 */
int result_write_unique(json_t *root, const char *kind, char *kept, size_t keptlen,
			struct err *err);
/* ISO 8601 UTC time of now. */
void result_timestamp(char *buf, size_t len);

#endif
