/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * suite_run.h - run a check suite as a table of checks, in order. Stopping
 * (Ctrl-C: env->stop) is an outcome of its own: the check in progress when
 * the flag is set has its failures and skips recorded as CHECK_STOPPED, and
 * every check after it, plus any result the interrupted one did not get to,
 * is recorded as CHECK_STOPPED without running. A stopped run never fails.
 * env->progress, when set, hears of each check as it starts.
 */
#ifndef EXITSCOPE_SUITES_SUITE_RUN_H
#define EXITSCOPE_SUITES_SUITE_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "results/check_model.h"
#include "harness/suite_env.h"

#define SUITE_CHECK_MAX_NAMES	8

struct suite_check {
	/* The results it records (check names), at most SUITE_CHECK_MAX_NAMES. */
	const char *names[SUITE_CHECK_MAX_NAMES];
	void (*run)(void *ctx);
	/* Whether this host runs it at all (NULL: always): its names exist only then. */
	bool (*applies)(const void *ctx);
};

/* Detail of a check recorded as stopped before it ran. */
#define SUITE_STOPPED_DETAIL	"stopped by request before it ran"

bool suite_stopped(const struct suite_env *env);
void suite_run(const struct suite_env *env, struct check_report *rep, const char *suite,
	       const struct suite_check *checks, size_t n, void *ctx);

#endif
