/*
 * result_write.h - the envelope of every result file (docs/results-schema.md):
 * schema and version, tool, kind, command line, timestamps, host record;
 * written atomically to a file or to stdout.
 */
#ifndef EXITSCOPE_RESULTS_RESULT_WRITE_H
#define EXITSCOPE_RESULTS_RESULT_WRITE_H

#include <stddef.h>
#include <jansson.h>

#include "results/schema.h"

/* New root object with schema, tool, kind, command and "started". */
json_t *result_new(const char *kind, int argc, char **argv);
/* Set "finished" and write root to path ("-" = stdout). 0 or -errno, err set. */
int result_write(json_t *root, const char *path, char *err, size_t errlen);
/* ISO 8601 UTC time of now. */
void result_timestamp(char *buf, size_t len);

#endif
