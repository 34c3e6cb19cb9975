/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fifo_stop.h - the common start of a "stopped while blocked writing to a
 * FIFO" test: after run_stop_on_fifo() or run_stop_on_fifo_after() (run_cmd.h),
 * was the command seen blocked there? Include after tests/tap.h.
 */
#ifndef EXITSCOPE_TESTS_FIFO_STOP_H
#define EXITSCOPE_TESTS_FIFO_STOP_H

#include <signal.h>

#include "tests/run_cmd.h"
#include "tests/tap.h"

/*
 * blocked as run_stop_on_fifo*() returned it, for the command cmd, whose n
 * assertions follow. 1: it blocked, go on. 0: the n assertions are accounted
 * for here and r is freed: skipped with the reason where this host cannot
 * show the block (no FIFO, or /proc/PID/wchan names no function), or one
 * failure and n - 1 skips when cmd ended before it blocked.
 */
static inline int fifo_stop_blocked(int blocked, struct run_result *r, const char *cmd, int n)
{
	if (blocked > 0)
		return 1;
	if (blocked < 0) {
		tap_skip(n, "cannot make the FIFO or start the command");
		return 0;
	}
	if (r->signal == SIGKILL)
		tap_skip(n, "the command never showed in pipe_write (/proc/PID/wchan names no function here)");
	else {
		tap_ok(0, "%s ended (%d) before it blocked on the full FIFO: %s", cmd, r->status, r->err);
		tap_skip(n - 1, "it never blocked");
	}
	run_free(r);
	return 0;
}

#endif
