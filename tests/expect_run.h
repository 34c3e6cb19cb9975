/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * expect_run.h - `exitscope expect` run from a test on a file written for
 * it, and what came out checked: a line the judge printed, or a file
 * refused for a line that does not parse (test_expect, test_expect_ab).
 */
#ifndef EXITSCOPE_TESTS_EXPECT_RUN_H
#define EXITSCOPE_TESTS_EXPECT_RUN_H

#include <stdbool.h>

#include "tests/run_cmd.h"

#define EXPECT_RUN_FILE	"e.txt"		/* the file written, in the test's dir */

/*
 * text written as dir/e.txt, then argv run, each element that is
 * EXPECT_RUN_FILE given as the file's path; r to run_free. r->status -1
 * when the file cannot be written.
 */
void expect_run(struct run_result *r, const char *dir, const char *text, const char *const argv[]);

/* r exited status and printed a line starting with want (and, when sum, the summary sum). */
bool expect_run_shows(const struct run_result *r, int status, const char *want, const char *sum);

/*
 * r is a refusal of dir/e.txt: exit 2, nothing judged on stdout, and on
 * stderr "exitscope expect: DIR/e.txt:WHERE: " a line saying why, then
 * the count of the lines that do not parse. A diagnostic says what came.
 */
bool expect_run_refused(const struct run_result *r, const char *dir, const char *where,
			const char *why);

#endif
