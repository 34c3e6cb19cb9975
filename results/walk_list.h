/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * walk_list.h - a walk file made from a walk list: the tab-separated lines
 * scripts/lane-walk writes as it goes (docs/walk.md "The walk list"), one
 * fact a line, the first field naming it:
 *
 *   repository PATH | range RANGE | first_parent true|false | every N |
 *   lanes vmx[,svm] | profile true|false | tool NAME VERSION |
 *   commands FILE | subject REV TEXT | commit REV LANE STATUS RUN [REASON]
 *
 * TEXT and REASON are the rest of the line (tabs kept); RUN may be empty.
 * Empty lines and lines starting with '#' are skipped.
 */
#ifndef EXITSCOPE_RESULTS_WALK_LIST_H
#define EXITSCOPE_RESULTS_WALK_LIST_H

#include "base/err.h"
#include "results/walk_model.h"

/*
 * Read the walk list at path into a walk file, checked as walk_read_file
 * checks one (its name is path). The walk, or NULL with one line in err:
 * "walk.tsv:4: status \"done\" is not ok or skip", or the reader's
 * "walk.tsv: commits[2]: status \"skip\" needs a \"reason\"". walk_free() it.
 */
struct walk_file *walk_list_read(const char *path, struct err *err);

#endif
