/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * result_edit.h - a result file read (result_read.h) edited in place and
 * written back, for the commands that add to a file they read: `exitscope
 * profile` gives a run's probes their exit paths. The edits are made in
 * the parsed document (rf->doc); the model's other fields stay as read.
 */
#ifndef EXITSCOPE_RESULTS_RESULT_EDIT_H
#define EXITSCOPE_RESULTS_RESULT_EDIT_H

#include "base/err.h"
#include "results/exit_path.h"
#include "results/outfile.h"
#include "results/result_read.h"

/*
 * Probe name's "exit_path" becomes e (NULL: it has none). 0, -ENOENT (no
 * such probe) or -ENOMEM, with err set.
 */
int result_set_exit_path(struct result_file *rf, const char *name, const struct exit_path *e,
			 struct err *err);

/*
 * Write rf's document to path (atomically for a regular file; "-" stdout),
 * stamped with the current schema_version, as result_write_hooked() writes
 * (opened: its hook). 0 or -errno with err set.
 */
int result_file_write(struct result_file *rf, const char *path,
		      void (*opened)(const struct outfile *o), struct err *err);

#endif
