// SPDX-License-Identifier: GPL-2.0-only
/* suite_run.c - a check suite's table run in order, with stopping as an outcome (suite_run.h). */
#include <stdio.h>
#include <string.h>

#include "suites/suite_run.h"

bool suite_stopped(const struct suite_env *env)
{
	return env->stop && *env->stop;
}

/* Results from first on were cut short by the stop flag: no failure or skip stands. */
static void suite_mark_stopped(struct check_report *rep, size_t first)
{
	for (size_t i = first; i < rep->n; i++) {
		struct check_result *c = &rep->r[i];

		if (c->status != CHECK_FAIL && c->status != CHECK_SKIP)
			continue;
		if (check_restate(c, CHECK_STOPPED, "stopped by request while it ran (%s: %s)",
				  check_status_name(c->status), c->detail))
			c->status = CHECK_STOPPED;	/* out of memory: the old detail stays */
	}
}

void suite_run(const struct suite_env *env, struct check_report *rep, const char *suite,
	       const struct suite_check *checks, size_t n, void *ctx)
{
	for (size_t i = 0; i < n; i++) {
		const struct suite_check *c = &checks[i];

		if (c->applies && !c->applies(ctx))
			continue;
		if (!suite_stopped(env)) {
			size_t first = rep->n;

			if (env->progress)
				env->progress(env->progress_ctx, suite, i, n, c->names[0]);

			c->run(ctx);
			if (suite_stopped(env))
				suite_mark_stopped(rep, first);
		}
		if (!suite_stopped(env))
			continue;
		for (size_t k = 0; k < SUITE_CHECK_MAX_NAMES && c->names[k]; k++)
			if (!check_find(rep, suite, c->names[k]))
				check_add(rep, suite, c->names[k], CHECK_STOPPED, SUITE_STOPPED_DETAIL);
	}
}
