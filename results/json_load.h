/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json_load.h - read a JSON document from a file or from memory under the
 * readers' limits (results/schema.h: size, duplicate keys), with one-line
 * errors naming the file: the part every reader of exitscope's files
 * (result files, noise floors) shares before it looks at the fields.
 */
#ifndef EXITSCOPE_RESULTS_JSON_LOAD_H
#define EXITSCOPE_RESULTS_JSON_LOAD_H

#include <stddef.h>
#include <jansson.h>

#include "results/jcheck.h"

/*
 * The parsed document (its reference is the caller's), or NULL after
 * jcheck_fail(c, ...) with why: "empty file", "file too large (...)",
 * "contains a NUL byte at offset N (...)",
 * "truncated JSON at line L, column C: ...", "invalid JSON at ...".
 */
json_t *json_load_checked_buffer(struct jcheck *c, const void *buf, size_t len);

/* The same for the file at path (results/file_read.h: a regular file, or why not). */
json_t *json_load_checked_file(struct jcheck *c, const char *path);

#endif
