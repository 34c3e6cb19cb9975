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

/*
 * A kind of file a reader turns into a struct of its own (result files,
 * noise floors, walk files): the struct's size, where its copy of the
 * name and its document go, and the reader's steps.
 */
struct json_doc_kind {
	size_t size;
	size_t name_off;		/* const char *: the name given, copied */
	size_t doc_off;			/* void *: the document, which owns the strings read */
	void (*init)(void *p);		/* optional: after the zeroed allocation */
	/* Fill p from root (an object); a negative errno after jcheck_fail. */
	int (*read)(struct jcheck *c, json_t *root, void *p);
	void (*free)(void *p);		/* p read in part or whole, with its name and document */
};

/*
 * A new struct of kind k read from buf (or the file at path), or NULL with
 * "<name>: <problem>" in err: the loader's problems above, "top level is
 * an array, not an object", "out of memory", or what k->read found.
 */
void *json_doc_read_buffer(const struct json_doc_kind *k, const char *name, const void *buf,
			   size_t len, struct err *err);
void *json_doc_read_file(const struct json_doc_kind *k, const char *path, struct err *err);

#endif
