/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * query_text.h - a file loaded and a path answered as `exitscope query`
 * does, the answer as the text the command prints: for callers above
 * results/ that hold no JSON values themselves (the expectation engine,
 * expect/), so that they and the command read a figure one way.
 */
#ifndef EXITSCOPE_RESULTS_QUERY_TEXT_H
#define EXITSCOPE_RESULTS_QUERY_TEXT_H

#include "base/err.h"

#include "results/query.h"

/*
 * Read path (a regular file under the readers' size limit) and load it as
 * query_load_buffer() does, named path in messages. NULL with one line in
 * err: "PATH: cannot open: ..." or the reader's message.
 */
struct query_file *query_load_path(const char *path, const struct query_envelope *env, size_t n,
				   int flags, struct err *err);

/*
 * What `exitscope query FILE PATH` prints for text on qf: each value
 * selected on its own line (query_value_text), or, for a path ending in
 * '#', the count; in *out (malloc'd, each line ended by '\n', "" when
 * nothing was selected). Returns 0 when something was selected (or
 * counted), 1 when nothing was, or a negative errno with why in err (a
 * path that does not parse, out of memory) and *out NULL.
 */
int query_text(struct query_file *qf, const char *text, char **out, struct err *err);
/* The same for a path already parsed (-ENOMEM the only error). */
int query_text_path(struct query_file *qf, const struct query_path *p, char **out,
		    struct err *err);

#endif
